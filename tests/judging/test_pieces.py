"""pieces.py on a composite of its own: an earlier piece's catalogued mistake made inside the
composite is named when it alone reproduces the answer, and nothing is named when mistakes of
two pieces reproduce it alike (which earlier function to fix cannot be told)."""
from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

from grader.judging import pieces
from grader.judging.registry import Case, Exercise, Mistake


def piece_a(x):
    return x * 2.0


def piece_b(x):
    return x + 1.0


def composite(x):
    return piece_a(x) * piece_b(x)


def _exercise(name, reference, mistakes=(), uses=()):
    return Exercise(name, "00", reference, lambda: [], lambda rng: [], mistakes=list(mistakes),
                    uses=uses, difficulty=1, importance=1, minutes=1)


A_DOUBLED = Mistake("piece_a doubled", "piece_a twice too large.", lambda x: x * 4.0)
B_DOUBLED = Mistake("piece_b doubled", "piece_b twice too large.", lambda x: 2.0 * (x + 1.0))


@pytest.fixture
def registry(monkeypatch):
    exercises = {}
    monkeypatch.setattr(pieces, "get", exercises.get)
    return exercises


def _found(registry, a_mistakes, b_mistakes, wrong=(0, 1)):
    registry["piece_a"] = _exercise("piece_a", piece_a, a_mistakes)
    registry["piece_b"] = _exercise("piece_b", piece_b, b_mistakes)
    exercise = _exercise("composite", composite, uses=("piece_a", "piece_b"))
    cases = [Case({"x": np.array([0.5, -2.0, 3.0])}), Case({"x": np.array([[1.5], [4.0]])})]
    expected = [composite(**c.args) for c in cases]
    # twice the composite where wrong: either piece doubled explains it there
    answers = [2.0 * e if i in wrong else e for i, e in enumerate(expected)]
    return pieces.piece_mistake(exercise, cases, answers, expected, list(wrong))


def test_one_piece_s_mistake_that_reproduces_the_answer_is_named(registry):
    (found,) = _found(registry, [A_DOUBLED], [])
    assert found[0] == "piece_a doubled" and "fix your piece_a" in found[1]
    assert piece_a(np.ones(1))[0] == 2.0   # the swap undone


def test_mistakes_of_two_pieces_that_reproduce_it_alike_name_neither(registry):
    assert _found(registry, [A_DOUBLED], [B_DOUBLED]) is None


def test_a_mistake_must_reproduce_the_cases_the_learner_passes_too(registry):
    """Doubled on the first test only: piece_a doubled fits that one, and breaks the second,
    which the learner passes; so it is not their mistake."""
    assert _found(registry, [A_DOUBLED], [], wrong=(0,)) is None


def test_a_composite_that_also_fails_a_case_meant_to_raise_is_not_named(registry):
    """The doubled piece explains the values, not the refusal the third test asks for."""
    registry["piece_a"] = _exercise("piece_a", piece_a, [A_DOUBLED])
    registry["piece_b"] = _exercise("piece_b", piece_b, [])
    exercise = _exercise("composite", composite, uses=("piece_a", "piece_b"))
    cases = [Case({"x": np.array([0.5, -2.0])}), Case({"x": np.array([3.0])}),
             Case({"x": np.array([])}, raises="ValueError")]
    expected = [composite(**c.args) for c in cases[:2]] + [None]
    answers = [2.0 * e for e in expected[:2]] + [np.array([])]
    assert pieces.piece_mistake(exercise, cases, answers, expected, [0, 1, 2]) is None
    assert pieces.piece_mistake(exercise, cases, answers, expected, [0, 1])[0][0] == "piece_a doubled"


def _in_a_thread_holding_a_swap(piece, variant, work):
    """work() run by this thread while another thread holds piece swapped for variant; returns
    (work's result, what the swapping thread itself saw of work() during its swap)."""
    holding, done, seen = threading.Event(), threading.Event(), {}

    def swapper():
        with pieces._swapped(piece, variant) as swapped:
            seen["swapped"] = swapped
            seen["inside"] = work()
            holding.set()
            done.wait(30)

    thread = threading.Thread(target=swapper)
    thread.start()
    assert holding.wait(30)
    try:
        return work(), seen
    finally:
        done.set()
        thread.join(30)


def test_a_swap_is_not_seen_by_another_thread_judging_at_the_same_time():
    """The batch grader judges learners in threads: while one learner's judge tries encode's
    mistakes inside generate_text, another's expected answers for generate_text stay right
    (they changed on 3 of its public cases, and a right answer failed, before)."""
    from grader.judging import registry
    from grader.judging.answers import reference_answers

    exercise, encode = registry.get("generate_text"), registry.get("encode")
    cases = exercise.cases(hidden=False)
    right = reference_answers(exercise, cases)
    mistake = next(m for m in encode.mistakes if m.name == "the leading space stripped")
    meanwhile, seen = _in_a_thread_holding_a_swap(encode, mistake.variant,
                                                  lambda: reference_answers(exercise, cases))
    assert seen["swapped"] and repr(seen["inside"]) != repr(right)   # the swap works where it is made
    assert repr(meanwhile) == repr(right)
    assert repr(reference_answers(exercise, cases)) == repr(right)   # and is undone after
    module = sys.modules[encode.reference.__module__]
    assert getattr(module, "encode") is encode.reference   # the module's own function again


def test_a_toy_swap_stays_in_its_thread(registry):
    registry["piece_a"] = _exercise("piece_a", piece_a, [A_DOUBLED])
    x = np.array([1.0, 2.0])
    meanwhile, seen = _in_a_thread_holding_a_swap(registry["piece_a"], A_DOUBLED.variant, lambda: composite(x))
    assert seen["inside"].tolist() == [8.0, 24.0]   # 4x * (x + 1) in the swapping thread
    assert meanwhile.tolist() == [4.0, 12.0]        # 2x * (x + 1) everywhere else

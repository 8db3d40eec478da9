"""Every catalogued mistake, in every lesson, is caught and named by name."""
import dataclasses
import functools

import numpy as np
import pytest

from grader.judging import registry
from grader.checking.check import evaluate
from grader.judging.answers import call_answer, mistake_answers_for, reference_answers
from grader.judging.judge import Raised, judge
from grader.judging.stats import summarize

EXERCISES = list(registry.load_all().values())
MISTAKES = [(ex, m) for ex in EXERCISES for m in ex.mistakes]


@functools.lru_cache(maxsize=None)
def graded(name: str, hidden: bool):
    """Cases, the reference's answers and every mistake's answers, as the batch grader
    computes them once per exercise. For the student edition (public cases only) a
    statistically judged exercise keeps summaries, which is all the release stores."""
    ex = registry.get(name)
    cases = ex.cases(hidden=hidden)
    expected, theirs = reference_answers(ex, cases), mistake_answers_for(ex, cases)
    if ex.judge is not None and not hidden:
        expected = [summarize(a) for a in expected]
        theirs = {n: [summarize(a) for a in answers] for n, answers in theirs.items()}
    return cases, expected, theirs


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_reference_passes_every_case(exercise):
    cases = exercise.cases()
    expected = reference_answers(exercise, cases)
    verdict = judge(exercise, cases, expected, expected)
    assert verdict.status == "passed" and verdict.points == exercise.points


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_each_exercise_has_two_mistakes_and_hidden_cases(exercise):
    assert len(exercise.mistakes) >= 2
    assert len(exercise.cases(hidden=True)) > len(exercise.cases(hidden=False)) > 0


# The student release stores the reference's and the mistakes' answers on public
# cases only (summaries of them for statistically judged exercises).
NAMING = [pytest.param(ex, m, True, id=f"{ex.name}: {m.name} (all cases)") for ex, m in MISTAKES] + \
    [pytest.param(ex, m, False, id=f"{ex.name}: {m.name} (public cases)") for ex, m in MISTAKES]


@pytest.mark.parametrize("exercise, mistake, hidden", NAMING)
def test_mistake_is_caught_and_named(exercise, mistake, hidden):
    """From all cases (check(), batch grading) and from the public ones alone (the release).
    The variant is called afresh, so a variant that draws unseeded numbers is named
    from answers that differ from the stored ones."""
    cases, expected, theirs = graded(exercise.name, hidden)
    answers = [call_answer(mistake.variant, c) for c in cases]
    verdict = judge(exercise, cases, answers, expected, theirs)
    assert verdict.status == "failed", "the variant passes: the cases cannot tell it from the reference"
    assert verdict.mistakes == [mistake.name]
    assert mistake.name in verdict.message and mistake.explanation in verdict.message


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_mistake_names_are_unique_within_an_exercise(exercise):
    names = [m.name for m in exercise.mistakes]
    assert len(set(names)) == len(names)
    assert all(m.explanation.strip() and m.name not in ("", m.explanation) for m in exercise.mistakes)


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_hidden_cases_are_reproducible(exercise):
    """The same values every time, not only the same argument names."""
    a, b = exercise.cases(), exercise.cases()
    assert len(a) == len(b) and all(_same(x.args, y.args) for x, y in zip(a, b))


def test_check_names_mistake_in_learner_code():
    import numpy as np

    def embed(wte, wpe, idx):  # a learner's own version of the classic slip
        if idx.shape[-1] > wpe.shape[0]:
            raise ValueError(f"{idx.shape[-1]} tokens do not fit the block size {wpe.shape[0]}")
        return wte[idx] + wpe[idx]

    v = evaluate(embed)
    assert v.status == "failed" and v.mistakes == ["position rows looked up by token id"]
    assert 0 < v.points < 1

    def one_hot_embed(wte, idx):
        oh = np.zeros(idx.shape + (wte.shape[0],))
        np.put_along_axis(oh, idx[..., None], 1.0, axis=-1)
        return oh @ wte

    v = evaluate(one_hot_embed)
    assert v.mistakes == ["one-hot matrix in float64 upcasts a float32 table"]


@pytest.mark.parametrize("exercise, mistake", MISTAKES, ids=lambda x: getattr(x, "name", ""))
def test_mistake_is_named_after_crossing_the_process_boundary(exercise, mistake, tmp_path):
    """The batch grader sees answers only as .npy + JSON written by the child:
    the same mistake must still be named from what crosses that boundary."""
    from grader.judging import wire
    from grader.batch.sandbox.results import _answer
    from grader.judging.wire import Encoder

    cases, expected, theirs = graded(exercise.name, True)
    encode = Encoder(str(tmp_path), "a")
    trees = []
    for case in cases:
        answer = call_answer(mistake.variant, case)
        trees.append({"raised": {"type": answer.type_name, "bases": list(answer.bases),
                                 "message": answer.message}} if hasattr(answer, "bases")
                     else {"value": encode(answer)})
    answers = [_answer(t, wire.folder_loader(str(tmp_path))) for t in trees]
    verdict = judge(exercise, cases, answers, expected, theirs)
    assert verdict.mistakes == [mistake.name]


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_student_release_stores_and_names_every_mistake(exercise, tmp_path):
    """What the release stores of an exercise (release.bundle.exercise_entry, read back as the
    student edition's loader reads it) holds every catalogued mistake, and from it alone check()
    names each one on the public cases."""
    from gpt2course.config import GPTConfig
    from grader.judging import wire
    from grader.judging.registry import Case, Mistake
    from grader.judging.stats import Summary
    from grader.release.bundle import exercise_entry

    entry = exercise_entry(exercise, wire.Encoder(str(tmp_path), "p"))
    load = wire.folder_loader(str(tmp_path))

    def stored(tree):
        if "raised" in tree:
            return Raised(tree["raised"]["type"], tuple(tree["raised"]["bases"]), tree["raised"]["message"])
        if "summary" in tree:
            return Summary(tree["summary"])
        return None if "none" in tree else wire.decode(tree, load, GPTConfig)

    assert [(m["name"], m["explanation"]) for m in entry["mistakes"]] == \
        [(m.name, m.explanation) for m in exercise.mistakes]
    cases = [Case(wire.decode(c["args"], load, GPTConfig), True, c["raises"], tuple(c["mention"]), c["about"])
             for c in entry["cases"]]
    released = dataclasses.replace(exercise, mistakes=[Mistake(m["name"], m["explanation"], None)
                                                       for m in entry["mistakes"]])
    expected = [stored(t) for t in entry["expected"]]
    theirs = {m["name"]: [stored(t) for t in m["answers"]] for m in entry["mistakes"]}
    for mistake in exercise.mistakes:
        answers = [call_answer(mistake.variant, c) for c in cases]
        assert judge(released, cases, answers, expected, theirs).mistakes == [mistake.name], mistake.name


# ------------------------------------------------------------------ a check someone wrote, or a crash
def test_an_error_from_a_check_is_told_from_a_crash_inside_numpy():
    from grader.judging.outcomes import raised_by_a_check

    def check(T):
        if T > 4:
            raise ValueError(f"{T} > 4")

    def asserts(T):
        assert T <= 4

    def crash(T):
        return np.zeros(T) + np.zeros(4)

    def library(T):
        return np.broadcast_to(np.zeros(T), (4,))  # NumPy's own Python raises inside it

    found = {}
    for fn in (check, asserts, crash, library):
        try:
            fn(5)
        except Exception as exc:
            found[fn.__name__] = raised_by_a_check(exc)
    assert found == {"check": True, "asserts": True, "crash": False, "library": False}


def test_a_check_with_a_badly_worded_message_is_not_named_a_missing_check():
    """embed raising ValueError("too long: 7 > 6") checked the block size: it is not "no check of
    the block size" (whose variant crashes inside NumPy), and the message cites what is missing."""
    def embed(wte, wpe, idx):
        T = idx.shape[-1]
        if T > wpe.shape[0]:
            raise ValueError(f"too long: {T} > {wpe.shape[0]}")
        return wte[idx] + wpe[:T]

    def unchecked(wte, wpe, idx):
        return wte[idx] + wpe[:idx.shape[-1]]

    verdict = evaluate(embed)
    assert "it should also name 'block', 'context' or 'position'" in verdict.message
    assert verdict.mistakes == ["the error for a sequence one token longer than the block size leaves out "
                                "what it should name"]
    unchecked.__name__ = "embed"
    assert "no check of the block size" in evaluate(unchecked).mistakes


# --- round 8's later survivors (scripts/mutants_round8.toml)
def test_a_stub_left_on_one_kind_of_input_does_not_hide_the_mistake_the_other_cases_show():
    """gelu_tanh written for one and two axes, its NotImplementedError still in place for (B, T, d):
    those tests have no answer, and every answered test shows the cubic term left out, which is named
    (check() and the batch alike); otherwise the learner sees failures and no name."""
    from grader.judging.judge import NotAttempted

    def gelu_tanh(x):
        if x.ndim == 3:
            raise NotImplementedError("batches: later")
        return 0.5 * x * (1 + np.tanh((2 / np.pi) ** 0.5 * x))

    cases, expected, theirs = graded("gelu_tanh", True)
    answers = [call_answer(gelu_tanh, c) for c in cases]
    assert 0 < sum(isinstance(a, NotAttempted) for a in answers) < len(answers) / 2
    for verdict in (evaluate(gelu_tanh), judge(registry.get("gelu_tanh"), cases, answers, expected, theirs)):
        assert verdict.status == "failed" and verdict.mistakes == ["cubic term missing inside the tanh"], verdict.message
        assert "raised NotImplementedError" in " ".join(verdict.failures)

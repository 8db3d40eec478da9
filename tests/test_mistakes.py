"""Every catalogued mistake, in every lesson, is caught and named by name."""
import pytest

from grader import registry
from grader.check import evaluate
from grader.judge import call_answer, judge, reference_answers

EXERCISES = list(registry.load_all().values())
MISTAKES = [(ex, m) for ex in EXERCISES for m in ex.mistakes]


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


# The student release stores mistakes' answers on public cases only, and checks
# statistically judged exercises structurally (no mistakes named there).
NAMING = [pytest.param(ex, m, True, id=f"{m.name} (all cases)") for ex, m in MISTAKES] + \
    [pytest.param(ex, m, False, id=f"{m.name} (public cases)") for ex, m in MISTAKES if ex.judge is None]


@pytest.mark.parametrize("exercise, mistake, hidden", NAMING)
def test_mistake_is_caught_and_named(exercise, mistake, hidden):
    """From all cases (check(), batch grading) and from the public ones alone (the release)."""
    cases = exercise.cases(hidden=hidden)
    expected = reference_answers(exercise, cases)
    answers = [call_answer(mistake.variant, c) for c in cases]
    verdict = judge(exercise, cases, answers, expected)
    assert verdict.status == "failed", "the variant passes: the cases cannot tell it from the reference"
    assert verdict.mistakes == [mistake.name]
    assert mistake.name in verdict.message and mistake.explanation in verdict.message


def test_hidden_cases_are_reproducible():
    for exercise in EXERCISES:
        a, b = exercise.cases(), exercise.cases()
        assert [sorted(c.args) for c in a] == [sorted(c.args) for c in b]


def test_check_names_mistake_in_learner_code():
    import numpy as np

    def embed(wte, wpe, idx):  # a learner's own version of the classic slip
        return wte[idx] + wpe[idx]

    v = evaluate(embed)
    assert v.status == "failed" and v.mistakes == ["position rows looked up by token id"]
    assert 0 <= v.points < 1

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
    from grader import wire
    from grader.sandbox import _answer
    from grader.wire import Encoder

    cases = exercise.cases()
    expected = reference_answers(exercise, cases)
    encode = Encoder(str(tmp_path), "a")
    trees = []
    for case in cases:
        answer = call_answer(mistake.variant, case)
        trees.append({"raised": {"type": answer.type_name, "bases": list(answer.bases),
                                 "message": answer.message}} if hasattr(answer, "bases")
                     else {"value": encode(answer)})
    answers = [_answer(t, wire.npy_loader(str(tmp_path))) for t in trees]
    verdict = judge(exercise, cases, answers, expected)
    assert verdict.mistakes == [mistake.name]

"""Lesson 08's judges on their own: a sampler whose probabilities are NaN, or whose draws ignore
ties, fails whatever its counts; a draw outside the top k is refused; a loss is finite where the
course's is, and only there."""
import math

import numpy as np
import pytest

from grader.checking.check import evaluate
from grader.judging import registry
from grader.judging.answers import call_answer
from grader.judging.registry import Case
from grader.judging.sampling_judge import crowded_tie, draws_judge, scalar_judge
from grader.lessons._l08_variants import case_rng

SAMPLE_NEXT = registry.get("sample_next")

# The threshold slip: `<=` where `<` was meant. With four logits tied for first and top_k 3,
# the k-th largest is the tied value itself, so every candidate is masked: the probabilities
# are NaN and the inverse CDF over NaN always gives id 0.
AT_MOST = """
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    if top_k is not None and top_k < z.shape[-1]:
        kth = np.sort(z, axis=-1)[:, -top_k][:, None]
        z = np.where(z <= kth, -np.inf, z)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)
    u = rng.random((len(p), 1))
    return np.minimum((np.cumsum(p, axis=-1) < u).sum(axis=-1), p.shape[-1] - 1)
"""

# Correct, with ties broken at random in each row (a permutation from rng before the sort):
# each id of a tie is then kept in some rows only, which is allowed.
SHUFFLED_TIES = """
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    B, V = logits.shape
    z = logits / temperature
    out = np.empty(B, dtype=np.int64)
    for b in range(B):
        order = rng.permutation(V)
        row = z[b, order]
        if top_k is not None and top_k < V:
            drop = np.argsort(-row, kind="stable")[top_k:]
            row = row.copy()
            row[drop] = -np.inf
        p = np.exp(row - row.max())
        out[b] = order[rng.choice(V, p=p / p.sum())]
    return out
"""


def learner(source):
    namespace = {"np": np, "math": math}
    exec(compile(source, "<learner>", "exec"), namespace)
    return namespace["sample_next"]


def _four_tied(row, top_k=3, rows=2000, seed=5):
    logits = np.tile(np.array(row, dtype=np.float64), (rows, 1))
    return Case({"logits": logits, "temperature": 1.0, "top_k": top_k, "rng": case_rng(seed)})


def test_nan_probabilities_fail_where_the_counts_alone_agree():
    """Four tied logits, top_k 3: the NaN sampler draws id 0 every time; the course draws three of
    the four tied ids. Tied ids share one cell of the chi-square test, so the counts agree."""
    case = _four_tied([2.0, 2.0, 2.0, 2.0, 0.0, -1.0])
    expected = call_answer(SAMPLE_NEXT.reference, case)
    answer = call_answer(learner(AT_MOST), case)
    assert np.all(answer == 0) and len(set(expected.tolist())) == 3
    reason = draws_judge(answer, case, expected, 1e-8)
    assert reason is not None and "id 0" in reason and "NaN" in reason
    assert crowded_tie(expected, case.args["logits"], 3) is None


def test_nan_sampler_fails_the_hidden_tests_and_is_named():
    verdict = evaluate(learner(AT_MOST))
    hidden = [c.about for c in SAMPLE_NEXT.cases() if not c.public]
    failed = {int(f.split(":")[0].split()[1]) - 1 for f in verdict.failures}
    cases = SAMPLE_NEXT.cases()
    tied = {i for i, c in enumerate(cases) if c.about.startswith("four logits tied for first")}
    assert len(tied) == 2 and {"four logits tied for first, id 0 not among them"} <= set(hidden)
    assert tied <= failed, verdict.failures
    assert verdict.mistakes == ["top-k masks the k-th largest too (<= instead of <)"], verdict.message


def test_ties_broken_at_random_pass():
    verdict = evaluate(learner(SHUFFLED_TIES))
    assert verdict.status == "passed", verdict.message


def test_a_tie_always_broken_the_same_way_is_fine_but_always_one_id_is_not():
    """The course keeps a fixed three of four tied ids (1/3 each): allowed. Drawing only the
    first of them, or two of the three kept in turn, is not."""
    case = _four_tied([2.0, 2.0, 2.0, 2.0, 0.0, -1.0])
    logits = case.args["logits"]
    expected = call_answer(SAMPLE_NEXT.reference, case)
    two = np.where(expected == expected.max(), expected.min(), expected)       # one kept id never drawn
    assert crowded_tie(two, logits, 3) is not None and draws_judge(two, case, expected, 1e-8)
    every = np.resize(np.array([0, 1, 2, 3]), len(expected))                   # all four tied, in turn
    assert crowded_tie(every, logits, 3) is None


def test_a_draw_of_the_fourth_ranked_id_is_outside_the_top_3():
    """One draw replaced by the fourth largest logit's id: outside the top 3, however small a
    change to the counts it is (an off-by-one in the judge's support would let it through)."""
    case = next(c for c in SAMPLE_NEXT.cases(hidden=False) if c.args["top_k"] == 3)
    row = case.args["logits"][0]
    fourth = int(np.argsort(-row)[3])
    expected = call_answer(SAMPLE_NEXT.reference, case)
    answer = expected.copy()
    answer[7] = fourth
    assert "outside the top 3" in draws_judge(answer, case, expected, 1e-8)
    third = int(np.argsort(-row)[2])
    answer[7] = third
    assert draws_judge(answer, case, expected, 1e-8) is None


LOSS_CASE = Case({"logits": np.zeros((2, 3)), "targets": np.array([0, 1])})


@pytest.mark.parametrize("answer", [np.float64(1.5), np.asarray(1.5), np.float64(0.0)])
def test_a_finite_loss_is_not_alike_a_non_finite_one(answer):
    assert "finite" in scalar_judge(answer, LOSS_CASE, np.float64(np.nan), 1e-8)
    assert "finite" in scalar_judge(answer, LOSS_CASE, np.float64(np.inf), 1e-8)


def test_non_finite_losses_are_alike_and_a_finite_one_is_judged_by_value():
    assert scalar_judge(np.float64(np.inf), LOSS_CASE, np.float64(np.nan), 1e-8) is None
    assert scalar_judge(np.float64(np.nan), LOSS_CASE, np.float64(1.5), 1e-8) is not None
    assert scalar_judge(np.float64(1.5), LOSS_CASE, np.float64(1.5), 1e-8) is None


def test_an_id_equal_to_the_vocabulary_size_is_outside_it():
    """Ids run from 0 to V - 1: a draw of V (an off-by-one in the learner's inverse CDF) is said, never a crash."""
    case = next(c for c in SAMPLE_NEXT.cases(hidden=False) if c.args["top_k"] is None)
    V = case.args["logits"].shape[-1]
    expected = call_answer(SAMPLE_NEXT.reference, case)
    answer = expected.copy()
    answer[3] = V
    assert draws_judge(answer, case, expected, 1e-8) == f"drew id {V}, outside the vocabulary [0, {V})"


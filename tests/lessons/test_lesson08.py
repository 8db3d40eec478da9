"""Lesson 08's exercises: cross_entropy, get_batch and sample_next, their judges, and how
random generators travel to the grader and the student edition.

Oracles: PyTorch's own cross-entropy, batches built by an explicit loop, exact
probabilities from torch.softmax and torch.topk, the chi-square distribution from
torch.special.gammaincc, and learners' code written out by hand.
"""
from __future__ import annotations

import copy
import json
import math
import subprocess
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from gpt2course import sampling
from gpt2course import numpy_gpt as ng
from grader.judging import registry, seeds, wire
from grader.checking.check import evaluate
from grader.judging.answers import call_answer, mistake_answers_for, reference_answers
from grader.judging.judge import judge
from grader.lessons import _l08_variants as V
from grader.judging.registry import Case
from grader.judging.sampling_judge import chi2_limit, draws_judge, homogeneity, scalar_judge

from conftest import ROOT

CROSS_ENTROPY, GET_BATCH, SAMPLE_NEXT = (registry.get(n) for n in ("cross_entropy", "get_batch", "sample_next"))
EXERCISES = [CROSS_ENTROPY, GET_BATCH, SAMPLE_NEXT]


def learner(source: str, name: str):
    """A learner's function, from their source, in a namespace of its own."""
    namespace = {"np": np, "math": math}
    exec(compile(source, f"<learner {name}>", "exec"), namespace)
    return namespace[name]


def exact_probs(logits, temperature, top_k):
    """softmax(top-k(logits / T)) by PyTorch: exactly k candidates per row (no ties in these rows)."""
    z = torch.from_numpy(logits) / temperature
    if top_k is not None and top_k < z.shape[-1]:
        kept, where = torch.topk(z, top_k, dim=-1)
        z = torch.full_like(z, -math.inf).scatter(-1, where, kept)
    return torch.softmax(z, dim=-1).numpy()


def goodness_of_fit_p(draws, probs) -> float:
    """p-value of draws (n,) against probabilities (V,), the chi-square survival by PyTorch."""
    counts = np.bincount(draws, minlength=len(probs))
    expected = len(draws) * probs
    used = expected > 0
    assert counts[~used].sum() == 0, "drew an id of probability 0"
    stat = float(((counts - expected)[used] ** 2 / expected[used]).sum())
    df = int(used.sum()) - 1
    if df == 0:                                                   # one candidate, always drawn
        return 1.0
    return float(torch.special.gammaincc(torch.tensor(df / 2, dtype=torch.float64),
                                         torch.tensor(stat / 2, dtype=torch.float64)))


# ------------------------------------------------------------------ cross_entropy
@pytest.mark.parametrize("lead, vocab, shift, dtype", [
    ((4,), 7, 0.0, np.float64), ((2, 3), 5, 0.0, np.float64), ((), 10, 0.0, np.float64),
    ((3, 5), 56, 1000.0, np.float64), ((8,), 11, -300.0, np.float64), ((2, 4), 9, 0.0, np.float32),
], ids=["N,V", "B,T,V", "V", "near 1000", "near -300", "float32"])
def test_cross_entropy_reference_equals_torch(lead, vocab, shift, dtype):
    rng = np.random.default_rng(vocab)
    logits = (rng.standard_normal(lead + (vocab,)) * 3 + shift).astype(dtype)
    targets = rng.integers(0, vocab, size=lead)
    ours = CROSS_ENTROPY.reference(logits, targets)
    theirs = F.cross_entropy(torch.from_numpy(logits.reshape(-1, vocab)), torch.from_numpy(targets.reshape(-1)))
    assert ours.dtype == dtype and ours.shape == ()
    assert abs(float(ours) - theirs.item()) <= (1e-5 if dtype == np.float32 else 1e-12) * max(1.0, abs(theirs.item()))


def test_cross_entropy_is_finite_where_probabilities_underflow():
    logits = np.array([[0.0, -800.0, 3.0]])
    expected = F.cross_entropy(torch.from_numpy(logits), torch.tensor([1])).item()
    assert float(CROSS_ENTROPY.reference(logits, np.array([1]))) == pytest.approx(expected, rel=1e-14)
    assert expected > 800 and math.isfinite(expected)


def test_the_course_loss_and_the_exercises_agree():
    """numpy_gpt.cross_entropy (what the lessons call) against the exercise's reference."""
    rng = np.random.default_rng(0)
    logits, targets = rng.standard_normal((3, 5, 56)), rng.integers(0, 56, size=(3, 5))
    assert float(ng.cross_entropy(logits, targets)) == pytest.approx(float(CROSS_ENTROPY.reference(logits, targets)),
                                                                      rel=1e-15)


@pytest.mark.parametrize("targets, match", [(np.zeros(6, dtype=np.int64), r"\(6,\)"), (np.array([[0, -1, 2]]), "-1"),
                                            (np.array([[0, 5, 2]]), "5")])
def test_cross_entropy_refuses_bad_targets(targets, match):
    with pytest.raises(ValueError, match=match):
        CROSS_ENTROPY.reference(np.zeros((1, 3, 5)), targets)


def test_scalar_judge_wants_the_logits_dtype_as_a_numpy_number():
    case = Case({"logits": np.zeros((2, 3), np.float32), "targets": np.array([0, 1])})
    expected = np.asarray(np.float32(1.5))
    assert scalar_judge(np.float32(1.5), case, expected, 1e-4) is None
    assert scalar_judge(np.asarray(np.float32(1.5)), case, expected, 1e-4) is None
    # the loss upcast: told to compute in the logits' dtype, not to cast a float64 loss back
    assert "do not upcast" in scalar_judge(np.float64(1.5), case, expected, 1e-4)
    assert "do not upcast" in scalar_judge(np.asarray(np.float64(1.6)), case, expected, 1e-4)
    assert "without float()" in scalar_judge(1.5, case, expected, 1e-4)
    assert "values differ" in scalar_judge(np.float32(1.6), case, expected, 1e-4)
    assert "finite" in scalar_judge(np.float32(np.nan), case, expected, 1e-4)
    # against a mistake's non-finite answer, NaN and inf are alike (two ways to overflow)
    assert scalar_judge(np.float32(np.inf), case, np.asarray(np.float32(np.nan)), 1e-4) is None


CE = {
    "stable": """
def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"shapes {targets.shape} and {logits.shape} do not fit")
    if targets.size and (targets.min() < 0 or targets.max() >= logits.shape[-1]):
        raise ValueError(f"id {targets.min() if targets.min() < 0 else targets.max()} out of range")
    m = logits.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    return -(np.take_along_axis(logits, targets[..., None], axis=-1) - lse).mean()
""",
}
CE_BUGS = [
    ("lse = m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))",
     "lse = np.log(np.exp(logits).sum(axis=-1, keepdims=True))", ["softmax without subtracting the max"]),
    ("return -(np.take_along_axis(logits, targets[..., None], axis=-1) - lse).mean()",
     "return -np.log(np.take_along_axis(np.exp(logits - lse), targets[..., None], axis=-1)).mean()",
     ["log of the softmax"]),
    (".mean()", ".sum()", ["sum instead of mean"]),
    ("return -(", "return (", ["sign flipped (the log-likelihood, not its negative)"]),
    ("m = logits.max(axis=-1, keepdims=True)", "logits = logits.astype(np.float64)\n    m = logits.max(axis=-1, keepdims=True)",
     ["float32 logits upcast to float64"]),
    ("return -(np.take_along_axis(logits, targets[..., None], axis=-1) - lse).mean()",
     "return float(-(np.take_along_axis(logits, targets[..., None], axis=-1) - lse).mean())",
     ["loss returned as a Python float"]),
]


def test_a_learners_stable_cross_entropy_passes():
    assert evaluate(learner(CE["stable"], "cross_entropy")).status == "passed"


@pytest.mark.parametrize("old, new, named", CE_BUGS, ids=[", ".join(n) or "float()" for *_, n in CE_BUGS])
def test_check_names_a_learners_cross_entropy_mistake(old, new, named):
    assert CE["stable"].count(old) == 1
    with np.errstate(all="ignore"):
        verdict = evaluate(learner(CE["stable"].replace(old, new), "cross_entropy"))
    assert verdict.status == "failed" and verdict.mistakes == named, verdict.message


# ------------------------------------------------------------------ get_batch
def loop_batch(data_ids, batch_size, block_size, seed):
    """The oracle: starts by NumPy's call, then one window at a time."""
    starts = np.random.default_rng(seed).integers(0, len(data_ids) - block_size, size=batch_size)
    x = np.array([[int(data_ids[s + t]) for t in range(block_size)] for s in starts], dtype=np.int64)
    y = np.array([[int(data_ids[s + t + 1]) for t in range(block_size)] for s in starts], dtype=np.int64)
    return x, y


def test_get_batch_cases_equal_an_explicit_loop():
    for case in GET_BATCH.cases():
        if case.raises:
            continue
        a = case.args
        seed_state = a["rng"].bit_generator.state
        rng = np.random.default_rng()
        rng.bit_generator.state = seed_state
        x, y = call_answer(GET_BATCH.reference, case)
        starts = rng.integers(0, len(a["data"]) - a["block_size"], size=a["batch_size"])
        assert np.array_equal(x, np.array([a["data"][s:s + a["block_size"]] for s in starts], dtype=np.int64))
        assert np.array_equal(y, np.array([a["data"][s + 1:s + a["block_size"] + 1] for s in starts], dtype=np.int64))
    x, y = GET_BATCH.reference(np.arange(300, dtype=np.uint8), 6, 9, np.random.default_rng(5))
    assert all(np.array_equal(p, q) for p, q in zip((x, y), loop_batch(np.arange(300, dtype=np.uint8), 6, 9, 5)))


GB = """
def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"{len(data)} ids cannot hold a window of block_size {block_size} plus a target")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    rows = starts[:, None] + np.arange(block_size)
    return data[rows].astype(np.int64), data[rows + 1].astype(np.int64)
"""
GB_BUGS = [
    ("data[rows + 1]", "data[rows]", "targets not shifted"),
    ("data[rows + 1]", "data[rows - 1]", "targets shifted the wrong way"),
    ("len(data) - block_size, size", "len(data) - block_size - 1, size", "last window never drawn"),
    ("data[rows].astype(np.int64), data[rows + 1].astype(np.int64)", "data[rows], data[rows + 1]",
     "ids left in the data's dtype"),
]


def test_a_learners_get_batch_passes():
    assert evaluate(learner(GB, "get_batch")).status == "passed"


@pytest.mark.parametrize("old, new, named", GB_BUGS, ids=[n for *_, n in GB_BUGS])
def test_check_names_a_learners_get_batch_mistake(old, new, named):
    verdict = evaluate(learner(GB.replace(old, new), "get_batch"))
    assert verdict.status == "failed" and verdict.mistakes == [named], verdict.message


def test_the_rule_for_the_starts_is_checked_exactly():
    """rng.choice(n, size=B) happens to draw what rng.integers(0, n, size=B) does; starts
    without repeats (a permutation) are another rule, and fail."""
    same = GB.replace("rng.integers(0, len(data) - block_size, size=batch_size)",
                      "rng.choice(len(data) - block_size, size=batch_size)")
    assert evaluate(learner(same, "get_batch")).status == "passed"
    other = GB.replace("rng.integers(0, len(data) - block_size, size=batch_size)",
                       "rng.permutation(len(data) - block_size)[:batch_size]")
    assert evaluate(learner(other, "get_batch")).status == "failed"


# ------------------------------------------------------------------ sample_next: the reference
def test_flag_free_variants_are_the_course_functions_bit_for_bit():
    for exercise, variant in [(GET_BATCH, V.get_batch), (SAMPLE_NEXT, V.sample_next)]:
        for case in exercise.cases():
            ours, theirs = call_answer(exercise.reference, case), call_answer(variant, case)
            if case.raises:
                assert type(ours) is type(theirs)
            else:
                assert wire.same_value(ours, theirs), (exercise.name, case.about)


@pytest.mark.parametrize("temperature, top_k", [(1.0, None), (0.5, None), (1.7, 3), (1.0, 1)])
def test_course_sampler_follows_the_exact_probabilities(temperature, top_k):
    row = np.array([1.5, 0.2, -0.3, 0.9, -2.0, 0.0, 0.4])
    logits = np.tile(row, (20_000, 1))
    draws = sampling.sample_next(logits, temperature, top_k, np.random.default_rng(11))
    assert draws.dtype == np.int64 and draws.shape == (20_000,)
    assert goodness_of_fit_p(draws, exact_probs(row[None], temperature, top_k)[0]) > 1e-4


def test_chi2_limit_is_a_tiny_false_alarm_rate():
    for df in (1, 2, 5, 20, 100, 500):
        limit = chi2_limit(df)
        tail = float(torch.special.gammaincc(torch.tensor(df / 2, dtype=torch.float64),
                                             torch.tensor(limit / 2, dtype=torch.float64)))
        assert 1e-12 < tail < 1e-8, (df, tail)
    assert chi2_limit(0) == 0.0


def test_homogeneity_by_hand():
    logits = np.tile(np.array([2.0, 1.0, 1.0, 0.0]), (4, 1))        # ids 1 and 2 tie: one cell
    a, b = np.array([0, 0, 1, 3]), np.array([0, 2, 2, 3])
    stat, df = homogeneity(a, b, logits)
    # cells: id 0 (2, 1), ids 1-2 (1, 2), id 3 (1, 1): 1/3 + 1/3 + 0
    assert stat == pytest.approx(2 / 3) and df == 2


# ------------------------------------------------------------------ sample_next: any correct method passes
CORRECT = {
    "inverse CDF": """
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature {temperature} must be positive")
    z = logits / temperature
    if top_k is not None and top_k < z.shape[-1]:
        drop = np.argsort(z, axis=-1)[:, :z.shape[-1] - top_k]
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    cdf = np.cumsum(p / p.sum(axis=-1, keepdims=True), axis=-1)
    u = rng.random(len(z))
    return np.array([min(np.searchsorted(c, x, side="right"), len(c) - 1) for c, x in zip(cdf, u)])
""",
    "rng.choice": """
def sample_next(logits, temperature, top_k, rng):
    if not temperature > 0:
        raise ValueError(f"temperature {temperature} must be positive")
    out = []
    for row in logits / temperature:
        ids = np.arange(len(row)) if top_k is None else np.argsort(-row, kind="stable")[:top_k]
        p = np.exp(row[ids] - row[ids].max())
        out.append(ids[rng.choice(len(ids), p=p / p.sum())])
    return np.array(out, dtype=np.int64)
""",
    "Gumbel-max": """
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature {temperature} must be positive")
    z = logits / temperature
    if top_k is not None and top_k < z.shape[-1]:
        keep = np.zeros(z.shape, dtype=bool)
        np.put_along_axis(keep, np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k], True, axis=-1)
        z = np.where(keep, z, -np.inf)
    return np.argmax(z - np.log(-np.log(rng.random(z.shape))), axis=-1)
""",
    "torch.multinomial": """
import torch
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature {temperature} must be positive")
    z = torch.from_numpy(logits) / temperature
    if top_k is not None and top_k < z.shape[-1]:
        kept, where = torch.topk(z, top_k, dim=-1)
        z = torch.full_like(z, -float("inf")).scatter(-1, where, kept)
    g = torch.Generator().manual_seed(int(rng.integers(2**62)))
    return torch.multinomial(torch.softmax(z, dim=-1), 1, generator=g)[:, 0].numpy()
""",
}


@pytest.mark.parametrize("method", CORRECT)
def test_any_correct_sampling_method_passes(method):
    verdict = evaluate(learner(CORRECT[method], "sample_next"))
    assert verdict.status == "passed", verdict.message


@pytest.mark.parametrize("mistake", SAMPLE_NEXT.mistakes, ids=lambda m: m.name)
def test_the_judge_fails_every_mistake_on_the_public_cases(mistake):
    cases = SAMPLE_NEXT.cases(hidden=False)
    expected = reference_answers(SAMPLE_NEXT, cases)
    with np.errstate(all="ignore"):
        answers = [call_answer(mistake.variant, c) for c in cases]
    verdict = judge(SAMPLE_NEXT, cases, answers, expected, mistake_answers_for(SAMPLE_NEXT, cases))
    assert verdict.status == "failed" and verdict.mistakes == [mistake.name]


SN = CORRECT["rng.choice"]
SN_BUGS = [
    ('np.argsort(-row, kind="stable")[:top_k]', 'np.argsort(-row, kind="stable")[:top_k + 1]',
     "top-k keeps k + 1 candidates"),
    ("np.arange(len(row)) if top_k is None else np.argsort(-row, kind=\"stable\")[:top_k]",
     "np.arange(len(row)) if top_k is None else np.flatnonzero(row >= np.sort(row)[-min(top_k, len(row))])",
     "every logit tied with the k-th kept"),
    ("logits / temperature", "logits * temperature", "logits multiplied by the temperature"),
    ("rng.choice(", "np.random.choice(", "random numbers not drawn from rng"),
    ("    out = []\n", "    rng = np.random.default_rng(0)\n    out = []\n", "a generator with a fixed seed made inside"),
    ("ids[rng.choice(len(ids), p=p / p.sum())]", "ids[np.argmax(p)]", "argmax instead of a draw"),
]


@pytest.mark.parametrize("old, new, named", SN_BUGS, ids=[n for *_, n in SN_BUGS])
def test_check_names_a_learners_sampling_mistake(old, new, named):
    assert SN.count(old) == 1
    verdict = evaluate(learner(SN.replace(old, new), "sample_next"))
    assert verdict.status == "failed" and verdict.mistakes == [named], verdict.message


def test_draws_judge_messages_show_no_expected_values():
    case = SAMPLE_NEXT.cases(hidden=False)[2]                                  # top_k 3
    expected = call_answer(SAMPLE_NEXT.reference, case)
    outside = expected.copy()
    outside[5] = 5                                                             # the smallest logit
    assert "outside the top 3" in draws_judge(outside, case, expected, 1e-8)
    assert "int64" in draws_judge(expected.astype(np.int32), case, expected, 1e-8)
    assert "one id per row" in draws_judge(expected[:-1], case, expected, 1e-8)
    assert "do not follow" in draws_judge(np.zeros_like(expected), case, expected, 1e-8)


# ------------------------------------------------------------------ generators across the wire
def test_a_generator_travels_as_its_state(tmp_path):
    rng = np.random.default_rng(42)
    rng.random(3)                                                              # not at its seed's start
    enc = wire.Encoder(str(tmp_path), "g")
    tree = enc({"rng": rng})
    enc.close()
    back = wire.decode(tree, wire.folder_loader(str(tmp_path)))["rng"]
    assert type(back) is np.random.Generator and back.random(5).tolist() == copy.deepcopy(rng).random(5).tolist()
    assert wire.sanitise(np.random.default_rng(1)).integers(0, 100, 4).tolist() == \
        np.random.default_rng(1).integers(0, 100, 4).tolist()
    for bad in (["x", "1", 0, 0], [1, 2, 3], ["1", "2", 5, 0], [str(2**130), "1", 0, 0], {"a": 1}):
        assert isinstance(wire.decode({"rng": bad}, None), wire.Unsupported)
    assert "PCG64" in wire.Encoder(None)(np.random.Generator(np.random.MT19937(0)))["reason"]


def test_drawing_from_a_generator_is_not_changing_an_input():
    rng = np.random.default_rng(0)
    before = copy.deepcopy(rng)
    rng.random()
    assert wire.same_value(rng, before) and not wire.same_value(rng, np.zeros(1))


def test_the_generator_rule_across_cases():
    logits = np.zeros((3, 4))
    cases = [Case({"logits": logits, "rng": np.random.default_rng(s)}) for s in (1, 1, 2)]
    same, other = np.array([0, 1, 2]), np.array([2, 1, 0])
    assert seeds.seed_mismatches(cases, [same, same, other]) == {}
    differ = seeds.seed_mismatches(cases, [same, other, other])
    assert differ[1].kind == "differ" and differ[1].via == "rng" and "same state" in differ[1].describe()
    repeat = seeds.seed_mismatches(cases, [same, same, same])
    assert repeat[2].kind == "repeat" and "fixed seed" in repeat[2].describe()
    # other arguments differ: no comparison
    moved = [cases[0], Case({"logits": logits + 1, "rng": np.random.default_rng(1)})]
    assert seeds.seed_mismatches(moved, [same, other]) == {}


def test_case_generators_compare_by_state_and_reach_functions_as_plain_generators():
    a, b = V.case_rng(3), V.case_rng(3)
    assert a == b and a != V.case_rng(4)
    seen = []
    call_answer(lambda rng: seen.append(type(rng)) or np.zeros(1), Case({"rng": a}))
    assert seen == [np.random.Generator] and a == b                            # the case's own was not drawn from


# ------------------------------------------------------------------ the student edition
@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    from grader.release.bundle import build_release

    return build_release(tmp_path_factory.mktemp("rel08") / "student")


def run_in_bundle(bundle, code):
    return subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(bundle)!r})\n" + code],
                          cwd=bundle, capture_output=True, text=True, timeout=300)


def test_bundle_bridges_lesson_08_and_hides_its_answers(bundle):
    proc = run_in_bundle(bundle, """
import numpy as np, torch
from gpt2course import data, numpy_gpt, sampling
from gpt2course.student import ExerciseNotDone
for call in [lambda: data.get_batch(np.arange(20), 2, 4, np.random.default_rng(0)),
             lambda: numpy_gpt.cross_entropy(np.zeros((2, 3)), np.zeros(2, dtype=np.int64)),
             lambda: sampling.pick_numpy(np.zeros((2, 3)), np.random.default_rng(0))]:
    try:
        call()
    except ExerciseNotDone as exc:
        assert "exercises/08_training_sampling_exercises.ipynb" in str(exc), exc
    else:
        raise AssertionError("not bridged")
for name in ["top_k_numpy", "probs_numpy", "numpy_forward_cached"]:
    try:
        getattr(sampling, name)(*[None] * getattr(sampling, name).__code__.co_argcount)
    except NotImplementedError as exc:
        assert "part of an exercise" in str(exc)
    else:
        raise AssertionError(name)
assert sampling.pick_numpy(np.array([[0.0, 2.0, 1.0]]), greedy=True).tolist() == [1]
assert data.decode(data.encode("ok", eot=True)) == "ok<|endoftext|>"
print(sampling.probs_torch(torch.zeros(1, 4), 1.0, 2).tolist())
""")
    assert proc.returncode == 0, proc.stderr
    assert sorted(json.loads(proc.stdout)[0]) == [0.0, 0.0, 0.5, 0.5]           # the torch pieces run
    for module, answer_lines in [("data.py", ["rng.integers(0, n, size=batch_size)"]),
                                 ("sampling.py", ["np.argpartition(-logits, k - 1, axis=-1)", "ng.softmax(top_k_numpy"])]:
        source = (bundle / "gpt2course" / module).read_text()
        assert not any(line in source for line in answer_lines), module


def solved_definitions() -> str:
    """The solved exercise notebook's definitions, as a learner's own code."""
    from grader import notebook as nbk

    nb = nbk.read(ROOT / "solutions" / "08_training_sampling_exercises.ipynb")
    return "\n".join(c.source for c in nbk.graded_cells(nb))


def test_check_in_bundle_judges_lesson_08_from_stored_answers(bundle):
    proc = run_in_bundle(bundle, solved_definitions() + """
from grader import check
check(cross_entropy, get_batch, sample_next)
right = sample_next
def sample_next(logits, temperature, top_k, rng):
    return right(logits, temperature, None, rng)
check(sample_next)
def cross_entropy(logits, targets):
    return np.float64(-np.log(np.take_along_axis(np.exp(logits) / np.exp(logits).sum(-1, keepdims=True),
                                                 targets[..., None], -1)).mean())
check(cross_entropy)
""")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert [line.split(",")[0] for line in out[:3]] == ["cross_entropy: PASSED", "get_batch: PASSED",
                                                         "sample_next: PASSED"], proc.stdout
    assert "Likely mistake: top_k ignored" in proc.stdout
    assert any(line.startswith("cross_entropy: FAILED") for line in out[3:]), proc.stdout


# ------------------------------------------------------------------ the notebooks' conventions
def test_lesson_opens_with_its_plan_and_ends_at_the_exercises():
    import nbformat

    cells = nbformat.read(ROOT / "notebooks" / "08_training_sampling.ipynb", as_version=4).cells
    first, last = cells[0].source, cells[-1].source
    assert first.startswith("# Lesson 08") and "1. the corpus" in first and "**You need:**" in first
    assert "**Next:**" in last and "[exercises/08_training_sampling_exercises.ipynb](../exercises/08_training_sampling_exercises.ipynb)" in last
    prefix = {"markdown": "md", "code": "code"}
    assert [c.id for c in cells] == [f"{prefix[c.cell_type]}-{i:03d}" for i, c in enumerate(cells, 1)]
    ignored = [c for c in cells if c.cell_type == "code" and "nbval-ignore-output" in c.metadata.get("tags", [])]
    assert [("train.train(" in c.source or "seconds[" in c.source) for c in ignored] == [True, True]
    assert all(c.outputs for c in cells if c.cell_type == "code")


def test_exercise_notebook_closes_the_model_and_leads_to_lesson_09():
    import nbformat

    cells = nbformat.read(ROOT / "solutions" / "08_training_sampling_exercises.ipynb", as_version=4).cells
    assert cells[0].source.startswith("# Lesson 08 exercises") and "end of the model" in cells[-1].source
    assert "(../notebooks/09_tokenizer.ipynb)" in cells[-1].source
    assert [c.id for c in cells if "exercise" in c.metadata.get("tags", [])] == ["code-004", "code-007", "code-010"]
    assert [c.source for c in cells if "check" in c.metadata.get("tags", [])] == \
        ["check(cross_entropy)", "check(get_batch)", "check(sample_next)"]

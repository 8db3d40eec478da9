"""Lesson 08's public and hidden cases (grader/lessons/l08_training_sampling.py registers them).

The generators in the cases are CaseRng objects (equal when their states are), so the
hidden cases built twice compare equal; a function under test gets a plain copy.
"""
from __future__ import annotations

import numpy as np

from ..judging.registry import Case
from ._l08_variants import case_rng


# ------------------------------------------------------------------ cross_entropy
def _loss(rng, lead, vocab, dtype=np.float64, shift=0.0):
    logits = (rng.standard_normal(lead + (vocab,)) * 2.0 + shift).astype(dtype)
    return {"logits": logits, "targets": rng.integers(0, vocab, size=lead)}


def _far_targets(dtype, gap):
    """Each target's logit `gap` below its row's largest: its probability underflows to 0."""
    logits = np.array([[0.0, -gap, 3.0], [5.0, 1.0, 5.0 - gap - 10.0]], dtype=dtype)
    return {"logits": logits, "targets": np.array([1, 2])}


def _loss_errors(*bad_ids, rng=None):
    """Bad targets that must raise: a wrong shape, then each id of ``bad_ids`` in a row of
    (3, 5) logits. ``rng`` (the hidden cases'): logits and the wrong shape drawn from it."""
    rows = 2 if rng is None else int(rng.integers(2, 5))
    rng = np.random.default_rng(80) if rng is None else rng
    logits = rng.standard_normal((rows, 3, 5))
    n = 3 * rows
    return [Case({"logits": logits, "targets": np.zeros(n, dtype=np.int64)}, raises="ValueError",
                 mention=(f"({n},)|{n}", f"({rows}, 3)|{rows}, 3"), about="targets of the wrong shape")] + [
            Case({"logits": logits[0], "targets": np.array([1, bad, 0])}, raises="ValueError",
                 mention=(str(bad),), about="a target id outside the vocabulary" + (", negative" if bad < 0 else ""))
            for bad in bad_ids]


def loss_public():
    rng = np.random.default_rng(8)
    return [Case(_loss(rng, (4,), 7)),
            Case(_loss(rng, (2, 3), 5, np.float32), about="float32 logits"),
            Case(_loss(rng, (3,), 6, shift=1000.0), about="logits near 1000"),
            Case(_far_targets(np.float64, 800.0), about="targets 800 below the largest logit"),
            Case(_loss(rng, (2,), 4, np.float32, shift=100.0) | {"targets": np.array([3, 0])},
                 about="float32 logits near 100"),
            Case(_far_targets(np.float32, 120.0), about="float32 targets 120 below the largest logit"),
            *_loss_errors(6, -1)]


def loss_hidden(rng):
    cases = [Case(_loss(rng, lead, vocab, dtype, shift)) for lead, vocab, dtype, shift in
             [((8, 16), 56, np.float64, 0.0), ((5,), 3, np.float32, 0.0), ((2, 4, 3), 11, np.float64, -50.0),
              ((64,), 56, np.float32, 0.0), ((1,), 2, np.float64, 0.0), ((3, 7), 9, np.float64, 750.0),
              ((4, 2), 6, np.float32, 95.0)]]
    cases.append(Case({"logits": rng.standard_normal(10), "targets": np.array(4)},
                      about="one position: logits (V,), a 0-d target"))
    far = _far_targets(np.float64, float(rng.integers(900, 1100)))
    return cases + [Case(far)] + _loss_errors(-int(rng.integers(2, 9)), int(rng.integers(5, 12)), rng=rng)



# ------------------------------------------------------------------ get_batch
def _batch(data, batch_size, block_size, seed):
    return {"data": data, "batch_size": batch_size, "block_size": block_size, "rng": case_rng(seed)}


def _same_state(generator):
    twin = case_rng(0)
    twin.bit_generator.state = generator.bit_generator.state
    return twin


def _safe_seed(rng, n, batch_size):
    """A generator seed whose starts avoid 0 and whose one-too-far range avoids n (so a
    learner's wrong-way or past-the-end slice fails like the catalogued variants do)."""
    while True:
        seed = int(rng.integers(0, 2**31))
        low = np.random.default_rng(seed).integers(0, n, size=batch_size)
        high = np.random.default_rng(seed).integers(0, n + 1, size=batch_size)
        if low.min() > 0 and high.max() < n:
            return seed


def batch_public():
    ids = np.random.default_rng(81).integers(0, 56, size=120).astype(np.uint8)
    return [Case(_batch(ids, 4, 8, 800), about="uint8 ids, as the corpus stores them"),
            Case(_batch(np.arange(100, 130, dtype=np.int64), 6, 5, 901)),
            Case(_batch(ids[:6], 2, 8, 3), raises="ValueError", mention=("6", "8"),
                 about="data shorter than one window"),
            Case(_batch(ids[:8], 2, 8, 4), raises="ValueError", mention=("8",),
                 about="data exactly as long as the block size")]


def batch_hidden(rng):
    cases = []
    for n_ids, B, T, dtype in [(500, 8, 16, np.uint8), (64, 3, 1, np.int64), (2000, 32, 64, np.uint8),
                               (40, 1, 20, np.int32), (300, 16, 12, np.uint16)]:
        data = rng.integers(0, 56, size=n_ids).astype(dtype)
        cases.append(Case(_batch(data, B, T, _safe_seed(rng, n_ids - T, B))))
    # the rule "draw from rng" shown by the answers: the same state twice, then another state
    data = cases[0].args["data"]
    cases.append(Case(_batch(data, 8, 16, 0) | {"rng": _same_state(cases[0].args["rng"])},
                      about="the inputs of the first hidden test, rng in the same state"))
    cases.append(Case(_batch(data, 8, 16, _safe_seed(rng, len(data) - 16, 8)),
                      about="the inputs of the first hidden test, rng in another state"))
    window = rng.integers(0, 56, size=11).astype(np.uint8)
    cases.append(Case(_batch(window, 5, 10, 36), about="data holding exactly one window"))
    cases.append(Case(_batch(window[:10], 2, 10, 8), raises="ValueError", mention=("10",),
                      about="data exactly as long as the block size"))
    return cases



# ------------------------------------------------------------------ sample_next
ROW = np.array([2.0, 1.0, 0.5, 0.0, -1.0, -3.0])
TIED = np.array([3.0, 1.0, 1.0, 1.0, 0.0, -1.0])
FOUR_TIED = np.array([-0.5, 2.0, 2.0, 2.0, 2.0, -1.5])  # a mask of logits <= the 3rd largest keeps none
ROWS = 2000


def _draw(row, temperature, top_k, seed, rows=ROWS):
    logits = np.tile(np.asarray(row, dtype=np.float64), (rows, 1))
    return {"logits": logits, "temperature": temperature, "top_k": top_k, "rng": case_rng(seed)}


def draw_public():
    return [Case(_draw(ROW, 1.0, None, 10), about="2000 rows of the same logits"),
            Case(_draw(ROW, 0.5, None, 11), about="temperature 0.5"),
            Case(_draw(ROW, 1.0, 3, 12), about="top_k 3"),
            Case(_draw(TIED, 1.0, 2, 13), about="top_k 2 with three logits tied for second place"),
            Case(_draw(FOUR_TIED, 1.0, 3, 17), about="top_k 3 with four logits tied for first, id 0 not among them"),
            Case(_draw(ROW + 800.0, 1.0, None, 14), about="logits near 800"),
            Case(_draw(ROW, 1.0, None, 10), about="the inputs of test 1, rng in the same state"),
            Case(_draw(ROW, 1.0, None, 15), about="the inputs of test 1, rng in another state"),
            Case(_draw(ROW, 0.0, None, 16, rows=3), raises="ValueError", mention=("0",),
                 about="temperature 0")]


def draw_hidden(rng):
    seed = lambda: int(rng.integers(0, 2**31))  # noqa: E731
    patterns = rng.standard_normal((3, 56)) * 2.0
    mixed = {"logits": np.repeat(patterns, 700, axis=0), "temperature": 0.8, "top_k": 20, "rng": case_rng(seed())}
    row10 = rng.standard_normal(10)
    return [Case(mixed, about="three rows of logits, 700 times each"),
            Case(_draw(row10, 1.7, None, seed())),
            Case(_draw(rng.standard_normal(5), 1.0, 1, seed(), rows=500), about="top_k 1"),
            Case(_draw(rng.standard_normal(6), 1.3, 50, seed()), about="top_k larger than the vocabulary"),
            Case(_draw(rng.standard_normal(8) + 900.0, 2.0, 4, seed()), about="logits near 900"),
            # top-k and a temperature far from 1 together: a top-k branch that masks the raw logits
            # (the temperature lost whenever top_k < V) draws 2 times in 3 where 49 in 50 belong
            Case(_draw(ROW, 0.25, 3, seed()), about="temperature 0.25 with top_k 3"),
            Case(_draw([2.0, 2.0, 2.0, 2.0, 0.0, -1.0], 0.6, 3, seed()), about="four logits tied for first"),
            # a mask of every logit <= the k-th largest leaves no candidate here: NaN probabilities,
            # and an inverse CDF over NaN draws id 0, which is not a candidate
            Case(_draw([0.0, 1.5, 1.5, 1.5, 1.5, -2.0], 1.0, 3, seed()),
                 about="four logits tied for first, id 0 not among them"),
            Case(_draw(row10, 1.7, None, 77), about="the inputs of an earlier test, rng in another state"),
            Case(_draw(row10, 1.7, None, 77), about="the inputs of the previous test, rng in the same state"),
            Case(_draw(ROW, -1.0, 2, seed(), rows=4), raises="ValueError", mention=("-1",),
                 about="a negative temperature")]

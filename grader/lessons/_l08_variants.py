"""Lesson 08's exercises as reference-with-flags, for the catalogued mistakes.

Called with its default flags, each function here computes what the course
computes: ``cross_entropy`` the reference of the exercise (numpy_gpt.cross_entropy
plus the input checks the exercise asks for), ``get_batch`` what data.get_batch
returns, ``sample_next`` what sampling.sample_next draws, number for number
(tests/lessons/test_lesson08.py checks it). A catalogued mistake is one of them with one
flag switched, as in _variants.py.

Every function runs under ``np.errstate(all="ignore")``: a mistake that overflows
(exp of a large logit) must give its NaN or inf quietly, not print warnings into
the learner's check() output.
"""
from __future__ import annotations

import numpy as np

from gpt2course import data as course_data


def _course_sampling():
    """gpt2course.sampling, imported when a lesson 08 reference first runs: it imports torch
    (about a second), which a grading run without lesson 08 never needs."""
    from gpt2course import sampling

    return sampling


# ------------------------------------------------------------------ cross_entropy
def check_loss_inputs(logits, targets, negative_ok=False) -> None:
    """The two errors the exercise asks for, with the numbers in the message (negative_ok: ids
    below 0 let through, to be read from the end of the row)."""
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape}, logits {logits.shape}: the targets need "
                         f"the logits' shape without the last axis, {logits.shape[:-1]}")
    V = logits.shape[-1]
    if targets.size and ((targets.min() < 0 and not negative_ok) or targets.max() >= V):
        bad = targets.min() if targets.min() < 0 else targets.max()
        raise ValueError(f"target id {bad} is outside the vocabulary [0, {V})")


def cross_entropy(logits, targets, *, max_shift=True, log_of_softmax=False, reduce="mean",
                  pick="own", norm_axis=-1, sign=-1.0, upcast=False, negative_ok=False, as_float=False):
    """The mean over all positions of -log softmax(logits)[target], as a 0-d array of the
    logits' dtype.

    max_shift=False: exp of the raw logits (overflows); log_of_softmax: log(softmax) instead
    of z - logsumexp(z) (underflows to -inf); reduce="sum"; pick="every": every target
    scored at every position (logp[:, targets]); norm_axis: the axis the softmax normalises
    over (0: the first axis, not the vocabulary); sign=+1.0: the log-likelihood itself;
    upcast: float32 logits computed and returned in float64; negative_ok: ids below 0 not refused;
    as_float: the loss as a Python float."""
    check_loss_inputs(logits, targets, negative_ok)
    with np.errstate(all="ignore"):
        z = logits.astype(np.float64) if upcast else logits
        if max_shift:
            z = z - z.max(axis=norm_axis, keepdims=True)
        if log_of_softmax:
            e = np.exp(z)
            logp = np.log(e / e.sum(axis=norm_axis, keepdims=True))
        else:
            logp = z - np.log(np.exp(z).sum(axis=norm_axis, keepdims=True))
        V = logits.shape[-1]
        if pick == "every":
            picked = logp.reshape(-1, V)[:, targets.reshape(-1)]                 # (N, N)
        else:
            picked = np.take_along_axis(logp, targets[..., None], axis=-1)       # (..., 1)
        total = picked.sum() if reduce == "sum" else picked.mean()
        return float(sign * total) if as_float else np.asarray(sign * total)


# ------------------------------------------------------------------ get_batch
def get_batch(data, batch_size, block_size, rng, *, high=0, shift=1, cast=True, shortest=1):
    """high: added to the exclusive upper end of the starts' range (-1: the last window is
    never drawn; +1: a window that runs past the end can be); shift: where the targets
    sit (0: the inputs again; -1: the previous ids; "roll": the inputs rolled by one, the
    first id wrapped round to the end); cast=False: the data's own dtype; shortest: the
    fewest starts refused by the length check (0: data of exactly block_size ids gets
    through, and rng.integers(0, 0) raises its own error)."""
    n = len(data) - block_size
    if n < shortest:
        raise ValueError(f"data holds {len(data)} ids: a window of block_size={block_size} needs "
                         f"at least {block_size + 1} (its inputs and the shifted targets)")
    starts = rng.integers(0, n + high, size=batch_size)                          # (B,)
    rows = starts[:, None] + np.arange(block_size)                               # (B, T)
    data = np.asarray(data)
    x = data[rows]
    y = np.roll(x, -1, axis=1) if shift == "roll" else data[rows + shift]
    return (x.astype(np.int64), y.astype(np.int64)) if cast else (x, y)


def get_batch_reference(data, batch_size, block_size, rng):
    return course_data.get_batch(data, batch_size, block_size, rng)


# ------------------------------------------------------------------ sample_next
def _top_k(z, k):
    """Exactly k candidates per row (k < 1: none), as sampling.top_k_numpy keeps them."""
    if k < 1:
        return np.full_like(z, -np.inf)
    return _course_sampling().top_k_numpy(z, k)


def _tied_top_k(z, k):
    """Every logit at least the k-th largest: ties at the k-th place all stay."""
    kth = np.sort(z, axis=-1)[:, -min(k, z.shape[-1])][:, None]                  # (B, 1)
    return np.where(z < kth, -np.inf, z)


def _off_by_one_top_k(z, k, k_extra, at_most):
    """top-k as a learner's off-by-one writes it, only where top_k < V (a top_k of V or more
    keeps every id): k_extra keeps exactly k + k_extra; at_most masks every logit <= the k-th
    largest, which keeps k - 1 (fewer, or none and then NaN, when logits tie at the k-th place)."""
    if k >= z.shape[-1]:
        return z
    if not at_most:
        return _top_k(z, k + k_extra)
    kth = np.sort(z, axis=-1)[:, -k][:, None]                                    # (B, 1)
    return np.where(z <= kth, -np.inf, z)


def sample_next(logits, temperature, top_k, rng, *, k_extra=0, at_most=False, ties=False, use_top_k=True,
                temperature_use="divide", max_shift=True, draw="sample", source="rng"):
    """k_extra, at_most: the top-k off by one (_off_by_one_top_k); ties=True: every logit tied with the
    k-th stays; use_top_k=False: top_k ignored; temperature_use: "divide" (GPT-2's), "ignore"
    or "multiply"; max_shift=False: exp of the raw logits (overflow: NaN, then id 0, as an
    inverse CDF over NaN gives); draw="argmax": no draw at all; source: where the uniform
    numbers come from: "rng" (the argument), "fixed" (default_rng(0)), "entropy"
    (default_rng() without a seed, like the global np.random functions)."""
    if not (isinstance(temperature, (int, float)) and not isinstance(temperature, bool) and temperature > 0):
        raise ValueError(f"temperature must be a positive finite number, got {temperature!r}")
    with np.errstate(all="ignore"):
        z = {"divide": lambda: logits / temperature, "ignore": lambda: logits,
             "multiply": lambda: logits * temperature}[temperature_use]()
        if top_k is not None and use_top_k:
            z = (_tied_top_k(z, top_k) if ties else _off_by_one_top_k(z, top_k, k_extra, at_most)
                 if k_extra or at_most else _top_k(z, min(top_k, z.shape[-1])))
        if max_shift:
            z = z - z.max(axis=-1, keepdims=True)
        e = np.exp(z)
        p = e / e.sum(axis=-1, keepdims=True)                                    # (B, V)
        if draw == "argmax":
            return logits.argmax(axis=-1)
        gen = {"rng": rng, "fixed": np.random.default_rng(0), "entropy": np.random.default_rng()}[source]
        cdf = np.cumsum(p, axis=-1)                                              # (B, V)
        u = gen.random((p.shape[0], 1)) * cdf[:, -1:]                            # (B, 1)
        return np.minimum((cdf <= u).sum(axis=-1), p.shape[-1] - 1)


def sample_next_reference(logits, temperature, top_k, rng):
    return _course_sampling().sample_next(logits, temperature, top_k, rng)


# ------------------------------------------------------------------ the cases' generators
class CaseRng(np.random.Generator):
    """A case's random generator. It compares equal to any generator in the same state, so
    two builds of the same cases are equal; the deep copy a function under test receives
    is a plain np.random.Generator (and the wire carries only the state)."""

    def __eq__(self, other):
        return isinstance(other, np.random.Generator) and self.bit_generator.state == other.bit_generator.state

    __hash__ = None


def case_rng(seed: int) -> CaseRng:
    return CaseRng(np.random.PCG64(seed))

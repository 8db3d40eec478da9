"""Lesson 02: LayerNorm and causal self-attention."""
from __future__ import annotations

import math

import numpy as np

from gpt2course import numpy_gpt as ref

from ..judging.registry import Case, Exercise, Mistake, register
from . import _variants as V
from ._variants import flagged

LESSON = "02_attention"


# ================================================================== layer_norm
def _ln_inputs(rng, shape, dtype):
    """Rows with different offsets and spreads, some of them narrow (variance
    around 1e-3), so that the value of epsilon and where it sits are visible."""
    *lead, d = shape
    loc = rng.normal(0.0, 2.0, size=(*lead, 1))
    scale = np.exp(rng.uniform(np.log(0.03), np.log(3.0), size=(*lead, 1)))
    x = (loc + scale * rng.standard_normal(shape)).astype(dtype)
    weight = rng.normal(1.0, 0.5, size=d).astype(dtype)
    bias = rng.normal(0.0, 0.5, size=d).astype(dtype)
    return {"x": x, "weight": weight, "bias": bias}


def _ln_public():
    rng = np.random.default_rng(21)
    return [Case(_ln_inputs(rng, (4, 8), np.float64)),
            Case(_ln_inputs(rng, (2, 3, 6), np.float64)),
            Case(_ln_inputs(rng, (3, 5), np.float32)),
            Case(_ln_inputs(rng, (3, 8), np.float64) | {"eps": 1e-3})]


def _ln_hidden(rng):
    cases = []
    for shape, dtype, eps in [((6, 16), np.float64, None), ((2, 5, 12), np.float64, None),
                              ((1, 10), np.float64, None), ((3, 1, 7), np.float64, None),
                              ((4, 9, 32), np.float32, None), ((8, 64), np.float32, None),
                              ((5, 24), np.float64, 1e-2), ((2, 4, 10), np.float64, 1e-6),
                              ((7, 3), np.float64, None), ((3, 6, 20), np.float64, None)]:
        args = _ln_inputs(rng, shape, dtype)
        if eps is not None:
            args["eps"] = eps
        cases.append(Case(args))
    return cases


def _ln(fixed_eps=None, **flags):
    """layer_norm with flags switched; fixed_eps: a constant used instead of the eps argument."""
    def variant(x, weight, bias, eps=ref.LN_EPS):
        return V.layer_norm(x, weight, bias, eps if fixed_eps is None else fixed_eps, **flags)
    return variant


LAYER_NORM = register(Exercise(
    name="layer_norm",
    lesson=LESSON,
    difficulty=1, importance=3, minutes=10,
    reference=ref.layer_norm,
    public_cases=_ln_public,
    hidden_cases=_ln_hidden,
    mistakes=[
        Mistake("sample variance (ddof=1) instead of the population variance",
                "LayerNorm divides the summed squares by d, not d - 1: use x.var(axis=-1, "
                "keepdims=True) (ddof=0, NumPy's default) or the mean of the squared "
                "deviations. torch.var and pandas default to d - 1; GPT-2 does not.",
                _ln(ddof=1)),
        Mistake("epsilon added outside the square root",
                "Epsilon goes inside the root: (x - mean) / sqrt(var + eps). "
                "sqrt(var) + eps differs wherever the variance is small.",
                _ln(eps_inside=False)),
        Mistake("epsilon left out (or far too small, like 1e-12)",
                "GPT-2 uses eps = 1e-5 inside the square root: sqrt(var + eps), with the "
                "eps argument. Without it, rows with a small spread are scaled up too much "
                "(and a constant row divides by zero).",
                _ln(fixed_eps=0.0)),
        Mistake("epsilon 1e-6 instead of 1e-5",
                "Use the eps argument (default 1e-5, GPT-2's value), not a hard-coded "
                "constant from another model.",
                _ln(fixed_eps=1e-6)),
        Mistake("the eps argument is ignored",
                "The function must use the eps it is given (sqrt(var + eps)), not a "
                "hard-coded 1e-5: it is only the default.",
                _ln(fixed_eps=1e-5)),
        Mistake("normalised over the wrong axis (axis 0)",
                "Each position's vector is normalised over its own d features: take the "
                "mean and variance over the last axis (axis=-1, keepdims=True), never over "
                "positions or the batch.",
                _ln(axis=0)),
        Mistake("normalised over axis 1 (the positions, in a batch)",
                "axis=1 is the feature axis of a (T, d) array only: in a batch (B, T, d) it pools the "
                "positions. Take the mean and variance over the last axis, axis=-1 (keepdims=True), "
                "which is the features whatever the leading axes.",
                _ln(axis=1)),
        Mistake("mean and variance taken over the whole array",
                "np.mean(x) and np.var(x) without an axis pool every position together. "
                "Normalise each position on its own: axis=-1, keepdims=True.",
                _ln(axis=None)),
    ],
    hints=(
        "Each position's vector of d features is normalised on its own. Which axis holds those "
        "features, for `(T, d)` and for `(B, T, d)`? The mean and the variance are taken over "
        "that axis only, never over positions or the batch.",
        "Take the mean over the last axis (`axis=-1`) with `keepdims=True`, so that it "
        "broadcasts back against `x`. The variance is the population variance: the mean of "
        "the squared deviations, dividing by d and not d - 1 (NumPy's `var` has ddof=0 by "
        "default; torch and pandas default to d - 1).",
        "Epsilon is added to the variance inside the square root, and it is the `eps` "
        "argument, not a constant of your own: 1e-5 is only its default. After normalising, "
        "multiply by `weight` and add `bias`; both are `(d,)` and broadcast over the leading "
        "axes.",
        "Outline: (1) the mean over axis -1, keepdims; (2) the population variance over axis "
        "-1, keepdims; (3) the centred `x` divided by `np.sqrt` of the variance plus `eps`; "
        "(4) times `weight`, plus `bias`. Means, `np.sqrt` and a Python float `eps` all keep "
        "float32 inputs float32, so no conversion is needed.",
    ),
))


# ================================================================== causal_self_attention
def _attn_inputs(rng, shape, n_head, dtype):
    """Weights of std 1/sqrt(d) keep the scores near unit size, so attention is
    neither uniform nor one-hot and every mistake shows."""
    d = shape[-1]
    std = 1.0 / math.sqrt(d)
    args = {"x": rng.standard_normal(shape),
            "w_qkv": rng.normal(0.0, std, size=(d, 3 * d)),
            "b_qkv": rng.normal(0.0, 0.1, size=3 * d),
            "w_o": rng.normal(0.0, std, size=(d, d)),
            "b_o": rng.normal(0.0, 0.1, size=d)}
    return {k: v.astype(dtype) for k, v in args.items()} | {"n_head": n_head}


def _attn_public():
    rng = np.random.default_rng(22)
    return [Case(_attn_inputs(rng, (5, 8), 2, np.float64)),
            Case(_attn_inputs(rng, (2, 4, 12), 3, np.float64)),
            Case(_attn_inputs(rng, (6, 8), 4, np.float32))]


def _attn_hidden(rng):
    cases = []
    for shape, n_head, dtype in [((7, 16), 4, np.float64), ((3, 9, 12), 3, np.float64),
                                 ((1, 8), 2, np.float64), ((2, 1, 8), 4, np.float64),
                                 ((10, 24), 6, np.float64), ((2, 6, 16), 2, np.float64),
                                 ((4, 5, 6), 1, np.float64), ((2, 12, 32), 4, np.float32),
                                 ((16, 64), 4, np.float32), ((3, 8, 20), 5, np.float64)]:
        cases.append(Case(_attn_inputs(rng, shape, n_head, dtype)))
    return cases


def _attn(**flags):
    return flagged(V.attention, **flags)


# A head split without the transpose but merged back correctly: "transposed on one side only".
SPLIT_ONLY = "head split by reshape without transpose, heads merged correctly"
SPLIT_ONLY_EXPLANATION = (
    "Q, K and V were reshaped straight from (..., T, d) to (..., h, T, d_k): the shape is right, "
    "but each 'head' then holds a mix of positions and features. Reshape to (..., T, h, d_k) "
    "first, then swap the T and h axes (np.swapaxes(., -3, -2)); the merge back, which is "
    "right, is the exact inverse of that.")


ATTENTION = register(Exercise(
    name="causal_self_attention",
    lesson=LESSON,
    difficulty=3, importance=3, minutes=45,
    reference=ref.causal_self_attention,
    public_cases=_attn_public,
    hidden_cases=_attn_hidden,
    mistakes=[
        Mistake("head split by reshape without transpose",
                "Reshaping (..., T, d) straight to (..., h, T, d_k) has the right shape but "
                "mixes positions and features across heads. Reshape to (..., T, h, d_k) "
                "first, then swap the T and h axes; merge back the same way in reverse.",
                _attn(split_transpose=False, merge_transpose=False)),
        Mistake("heads merged by reshape without transpose",
                "The split is right, but (..., h, T, d_k) was reshaped straight to "
                "(..., T, d). Swap the h and T axes back first (np.swapaxes(y, -3, -2)), "
                "then reshape, so that head i fills columns i*d_k to (i+1)*d_k.",
                _attn(merge_transpose=False)),
        Mistake(SPLIT_ONLY, SPLIT_ONLY_EXPLANATION, _attn(split_transpose=False)),
        Mistake("scores scaled by sqrt(d) instead of sqrt(d_k)",
                "Divide Q K^T by the square root of the head size d_k = d / n_head, not of "
                "the model width d: with sqrt(d) the scores are too small and attention "
                "is too flat.",
                _attn(scale="d")),
        Mistake("scores not scaled",
                "Divide Q K^T by sqrt(d_k) before the softmax; unscaled scores have variance "
                "d_k and make the softmax far too peaked.",
                _attn(scale=None)),
        Mistake("no causal mask",
                "Position t may only attend to keys j <= t. Set the scores above the "
                "diagonal to -inf before the softmax (np.tril gives the allowed entries), "
                "or every position reads the future.",
                _attn(mask=None)),
        Mistake("causal mask hides the diagonal",
                "The mask must keep j <= t, the diagonal included: np.tril(..., k=0), not "
                "k=-1 (nor np.triu(..., k=0) as the hidden part). With a strict mask "
                "position 0 sees no key at all and its row becomes NaN.",
                _attn(mask="strict")),
        Mistake("causal mask hides the diagonal (filled with a large finite number)",
                "The mask must keep j <= t, the diagonal included: np.tril(..., k=0), not "
                "k=-1. With a strict mask filled with a large negative number, position 0 "
                "has no allowed key and spreads its attention over the whole sequence, "
                "future included.",
                _attn(mask="strict", fill=-1e9)),
        Mistake("mask applied after the softmax",
                "Masking after the softmax leaves rows that no longer sum to one. Mask the "
                "scores first (future entries to -inf), then take the softmax over the keys.",
                _attn(mask_after_softmax=True)),
        Mistake("softmax over the query axis instead of the key axis",
                "Each query's weights over the keys must sum to one: softmax over the last "
                "axis of the (..., T_query, T_key) scores (axis=-1), not axis -2.",
                _attn(softmax_axis=-2)),
        Mistake("float32 inputs upcast to float64",
                "np.sqrt(d_k) (or np.full(..., -np.inf), np.float64(...)) is a float64 "
                "NumPy value and turns float32 arrays into float64. Use Python numbers for "
                "constants (d_k ** 0.5, math.sqrt(d_k), -np.inf) so the dtype is kept.",
                _attn(scale="float64")),
    ],
    hints=(
        "Follow the seven steps of the exercise text one at a time and write down the shape "
        "after each: `(..., T, 3d)`, three of `(..., T, d)`, `(..., h, T, d_k)`, scores "
        "`(..., h, T, T)`, then back to `(..., T, d)`. Work on the last axes only, so that "
        "`(T, d)` and `(B, T, d)` need no separate code.",
        "Q, K and V are the three `d`-wide column blocks of the projection: `np.split` along "
        "the last axis. Splitting into heads is a reshape to `(..., T, n_head, d_k)` followed "
        "by swapping the T and head axes (`np.swapaxes` on axes -3 and -2). Reshaping "
        "straight to `(..., n_head, T, d_k)` has the right shape but mixes positions into "
        "heads. Merging is the inverse: swap back first, then reshape.",
        "The scores are Q times K transposed on its last two axes (`np.swapaxes` again), "
        "divided by the square root of the head size d_k (d divided by n_head), not of d. "
        "Write that "
        "constant as a Python number (`d_k ** 0.5` or `math.sqrt(d_k)`): `np.sqrt(d_k)` is a "
        "float64 NumPy value and would turn float32 inputs into float64.",
        "The causal mask keeps key j for query t when j <= t, the diagonal included: "
        "`np.tril` of a `(T, T)` boolean array of ones. Put `-np.inf` at the hidden entries "
        "with `np.where` before the softmax (never multiply by the mask afterwards), then take "
        "the softmax over the keys, the last axis, subtracting each row's maximum first.",
        "Outline: (1) the leading axes, T and d from `x.shape`, and d_k; (2) the fused "
        "projection with its bias, split in three along the last axis; (3) each of Q, K, V "
        "split into heads; (4) the scaled scores, `(..., h, T, T)`; (5) the mask with "
        "`np.tril` and `np.where`, then the softmax over axis -1; (6) the weights times V, "
        "heads merged back to `(..., T, d)`; (7) the output projection `w_o` plus `b_o`.",
    ),
))

"""Lesson 07: position embeddings: sinusoids, similarity between positions, principal components."""
from __future__ import annotations

import functools

import numpy as np

from gpt2course import positions as ref

from ..judging.registry import Case, Exercise, Mistake, register
from ._variants import flagged

LESSON = "07_position_embeddings"


def _table(rng, T, d, dtype=np.float64):
    """A random (T, d) table off the origin whose centred rows have singular values 3 sqrt(T) x
    2^(-i/r), i < r = min(T - 1, d): each principal direction is one answer, even in float32."""
    mean = rng.standard_normal(d)
    r = min(T - 1, d)
    if r == 0:
        return np.tile(mean, (T, 1)).astype(dtype)
    raw = rng.standard_normal((T, r))
    u, _ = np.linalg.qr(raw - raw.mean(axis=0))            # (T, r): orthonormal, each column sums to 0
    v, _ = np.linalg.qr(rng.standard_normal((d, d)))       # (d, d): a random rotation of the columns
    s = 3.0 * 2.0 ** (-np.arange(r) / r) * np.sqrt(T)
    return ((u * s) @ v[:, :r].T + mean).astype(dtype)


def _not_2d(name, value, **more):
    return Case({name: value, **more}, raises="ValueError", mention=(str(value.shape),),
                about="a table that is not 2-D")


# ------------------------------------------------------------------ sinusoidal_positions
def sinusoid_reference(T, d, base=ref.SINUSOID_BASE, *, halves=False, swap=False, exponent="2i",
                       fixed_base=False, start=0, check=True):
    """halves: sines then cosines; swap: cos at even columns; exponent: "2i" (Vaswani's), "i" or
    "column" (column j gets j/d); fixed_base: 10000 whatever base says; start: the first position;
    check=False: odd d not refused (NumPy then fails on the shapes)."""
    if check and d % 2:
        raise ValueError(f"d={d} is odd: the columns come in (sin, cos) pairs")
    b = ref.SINUSOID_BASE if fixed_base else base
    t = np.arange(start, start + T)[:, None]
    if exponent == "column":
        angle = t * (b ** (-np.arange(d) / d))[None, :]
        first, second = np.sin(angle[:, 0::2]), np.cos(angle[:, 1::2])
    else:
        i = np.arange(0, d, 2) if exponent == "2i" else np.arange(d // 2)
        angle = t * (b ** (-i / d))[None, :]
        first, second = np.sin(angle), np.cos(angle)
    if swap:
        first, second = second, first
    if halves:
        return np.concatenate([first, second], axis=1)
    table = np.empty((T, d))
    table[:, 0::2], table[:, 1::2] = first, second
    return table


def _odd(T, d):
    return Case({"T": T, "d": d}, raises="ValueError", mention=(str(d),), about="an odd width d")


_sin = functools.partial(flagged, sinusoid_reference)


def _sin_public():
    return [Case({"T": 6, "d": 8}), Case({"T": 5, "d": 4, "base": 100.0}), Case({"T": 1, "d": 2}),
            _odd(5, 7)]


def _sin_hidden(rng):
    """Every size drawn from the secret, near the ones worth testing: GPT-2's own 1024 x 768,
    a single pair, a base that is not 10,000, odd widths (which must raise)."""
    def near(n, spread):
        return n + int(rng.integers(0, spread))

    cases = [Case({"T": T, "d": d, "base": base}) for T, d, base in
             [(near(45, 10), 16, 10_000.0), (near(60, 8), 64, 10_000.0), (near(2, 3), 2, float(near(2, 3))),
              (near(18, 5), 10, float(near(450, 100))), (near(1000, 25), 768, 10_000.0),
              (int(rng.integers(2, 40)), 2 * int(rng.integers(1, 20)), float(rng.uniform(10.0, 1000.0)))]]
    return cases + [_odd(near(4, 4), 2 * near(3, 3) + 1), _odd(near(1, 3), 2 * near(1, 2) + 1)]


register(Exercise(
    name="sinusoidal_positions",
    lesson=LESSON,
    difficulty=2, importance=1, minutes=20,
    reference=ref.sinusoidal_positions,
    public_cases=_sin_public,
    hidden_cases=_sin_hidden,
    mistakes=[
        Mistake("sines and cosines in two halves instead of interleaved",
                "Some code puts every sine in the first d/2 columns and every cosine in the last d/2: the "
                "same columns in another order. Here column 2i holds sin(t w_i) and column 2i + 1 holds "
                "cos(t w_i), side by side.", _sin(halves=True)),
        Mistake("sin and cos swapped",
                "Even columns (0, 2, 4, ...) hold the sines, odd columns the cosines. Row 0 shows it: "
                "sin(0) = 0 at every even column and cos(0) = 1 at every odd one.", _sin(swap=True)),
        Mistake("exponent i/d instead of 2i/d",
                "Pair i turns at base ** (-2i/d): the exponent is the even column index over d, so the "
                "slowest pair has a period of almost 2 pi x base. With i/d the frequencies stop at "
                "base ** (-1/2) and the slow columns are missing.", _sin(exponent="i")),
        Mistake("each cosine column with its own frequency",
                "A cosine shares its sine's frequency: columns 2i and 2i + 1 both use base ** (-2i/d). "
                "A frequency from every column index j (j/d) gives column 2i + 1 the exponent "
                "(2i + 1)/d, and the two are no longer a pair.", _sin(exponent="column")),
        Mistake("base argument ignored (10000 hard-coded)",
                "Use the base you are given; 10000 is only its default (Vaswani et al.'s choice). Another "
                "base stretches or squeezes every period.", _sin(fixed_base=True)),
        Mistake("positions counted from 1",
                "Positions are 0, 1, ..., T - 1, like the rows of wpe: row 0 is sin(0) = 0 and "
                "cos(0) = 1 in every pair.", _sin(start=1)),
        Mistake("odd d without a ValueError naming d",
                "With an odd d the last sine has no cosine partner. Check d first and raise a ValueError "
                "whose message names d; NumPy's shape error does not say what to fix.", _sin(check=False),
                any_error=True),
    ],
    hints=(
        "Take the table pair by pair: pair i is a point going round a circle, (sin, cos) of an angle that "
        "grows by w_i at every position. Which columns hold pair i, and how fast does it turn?",
        "The d/2 frequencies: `base` to the power -2i/d, where 2i runs over the even column indices "
        "0, 2, ..., d - 2 (`np.arange` with a step of 2). The angles are positions 0 .. T - 1 times "
        "frequencies, an outer product of shape (T, d/2).",
        "The sines of the angles go to the even columns and the cosines of the very same angles to the "
        "odd ones (slices `0::2` and `1::2` of a (T, d) float64 array); concatenating them would put "
        "them in halves. Check d first: an odd d raises a `ValueError` whose message contains d.",
        "Outline: (1) refuse an odd d; (2) the d/2 frequencies; (3) the (T, d/2) angles; (4) an empty "
        "(T, d) float64 array; (5) sines into its even columns, cosines into its odd columns.",
    ),
))


# ------------------------------------------------------------------ position_similarity
def similarity_reference(wpe, *, axis=1, divide="both", compare="positions", corrcoef=False,
                         centre=False, float64=False):
    """axis=0: columns scaled to length 1; divide: "both", "one" (one row's length) or "none";
    compare="features": u.T @ u, (d, d); corrcoef: np.corrcoef(wpe) as it comes (float64, one number
    for one row); centre: each row's mean subtracted first; float64: computed in float64, left there."""
    wpe = ref.check_table(wpe).astype(np.float64 if float64 else wpe.dtype, copy=False)
    if corrcoef:
        return np.corrcoef(wpe)
    wpe = wpe - wpe.mean(axis=1, keepdims=True) if centre else wpe
    length = np.sqrt((wpe * wpe).sum(axis=axis, keepdims=True))
    if divide != "both":
        return (wpe @ wpe.T) / (length if divide == "one" else 1)
    unit = wpe / length
    return unit.T @ unit if compare == "features" else unit @ unit.T


_sim = functools.partial(flagged, similarity_reference)


def _sim_public():
    rng = np.random.default_rng(7)
    return [Case({"wpe": _table(rng, 6, 4)}), Case({"wpe": _table(rng, 5, 3, np.float32)}),
            _not_2d("wpe", np.arange(1.0, 7.0))]


def _sim_hidden(rng):
    cases = [Case({"wpe": _table(rng, T, d, dtype)}) for T, d, dtype in
             [(1, 5, np.float64), (2, 3, np.float64), (30, 8, np.float64), (64, 64, np.float32),
              (12, 20, np.float64), (40, 6, np.float32)]]
    return cases + [_not_2d("wpe", rng.standard_normal((2, 5, 4)))]


_CORRELATION = ("Subtracting each row's mean first (as np.corrcoef does) gives the correlation between "
                "positions, not the cosine similarity: compare the rows as they are, in the table's dtype.")
_LENGTH = ("Cosine similarity divides the dot product of two rows by both of their lengths: scale every "
           "row (position) to length 1, then take all the dot products at once.")

register(Exercise(
    name="position_similarity",
    lesson=LESSON,
    difficulty=1, importance=1, minutes=10,
    reference=ref.position_similarity,
    public_cases=_sim_public,
    hidden_cases=_sim_hidden,
    mistakes=[
        Mistake("columns scaled to length 1 instead of rows",
                "A position is a row of wpe, so each row is divided by its own length (the norm over "
                "axis 1, its d features). Scaling the columns compares something else, and the "
                "diagonal is no longer 1.", _sim(axis=0)),
        Mistake("dot products, not cosines",
                _LENGTH + " Without it, long rows look similar to everything.", _sim(divide="none")),
        Mistake("divided by one row's length only",
                _LENGTH + " Dividing by one length leaves the other in: the matrix is not symmetric.",
                _sim(divide="one")),
        Mistake("features compared instead of positions",
                "The answer is (T, T), an entry per pair of positions: with unit rows `u` of shape "
                "(T, d), u @ u.T. u.T @ u is (d, d) and compares features.", _sim(compare="features")),
        Mistake("correlation (np.corrcoef) instead of cosine similarity", _CORRELATION +
                " np.corrcoef also returns float64 whatever it is given, and one number for a one-row table.",
                _sim(corrcoef=True)),
        Mistake("rows centred before the cosine (a correlation)", _CORRELATION, _sim(centre=True)),
        Mistake("float32 table answered in float64",
                "Computing in float64 is fine, but the answer keeps the table's dtype: convert it back "
                "(.astype(wpe.dtype)).", _sim(float64=True)),
    ],
    hints=(
        "Cosine similarity of two vectors is their dot product over the product of their lengths. "
        "Here the vectors are the rows of `wpe`, one per position, and you need every pair: (T, T).",
        "Divide first, multiply once: scale each row to length 1 (its length is the square root of "
        "its sum of squares over the d features, kept as a (T, 1) column so that it broadcasts), then "
        "one matrix product of the unit rows with their transpose gives every dot product.",
        "Check the shape first: a table that is not 2-D raises a `ValueError` whose message contains "
        "`wpe.shape`. Do not change `wpe` in place (no `/=`), and stay in its dtype.",
        "Outline: (1) refuse a table that is not 2-D; (2) the row lengths over axis 1, keeping the "
        "axis; (3) the unit rows; (4) unit rows times their transpose. The diagonal is then 1 (up to "
        "rounding) and the matrix is symmetric.",
    ),
))


# ------------------------------------------------------------------ principal_components
def pca_reference(wpe, k, *, centre="both", order="largest", signs=True, check_k=True,
                  directions_out=False, cast=True):
    """centre: "both", "fit" (fit centred, project raw rows) or "none"; order: "largest", "reversed"
    (top k, smallest first) or "smallest" (eigh's first k); signs=False: the SVD's own signs;
    directions_out: the (d, k) directions; cast=False: float64 whatever the table's dtype."""
    wpe = ref.check_table(wpe)
    if check_k:
        k = ref.check_components(k, *wpe.shape)
    x = wpe.astype(np.float64)
    centred = x - x.mean(axis=0)
    _, _, vt = np.linalg.svd(x if centre == "none" else centred, full_matrices=False)
    picked = {"largest": vt[:k], "reversed": vt[:k][::-1], "smallest": vt[::-1][:k]}[order]
    if signs:
        top = np.abs(picked).argmax(axis=1)
        picked = picked * np.sign(picked[np.arange(len(picked)), top])[:, None]
    out = picked.T if directions_out else (centred if centre == "both" else x) @ picked.T
    return out.astype(wpe.dtype) if cast else out


def _too_many(rng, T, d):
    k = min(T, d) + 1
    return Case({"wpe": _table(rng, T, d), "k": k}, raises="ValueError", mention=(str(k), str(min(T, d))),
                about="more components than min(T, d)")


_pca = functools.partial(flagged, pca_reference)


def _pca_public():
    rng = np.random.default_rng(70)
    return [Case({"wpe": _table(rng, 8, 4), "k": 4}), Case({"wpe": _table(rng, 7, 3, np.float32), "k": 3}),
            Case({"wpe": _table(rng, 9, 5), "k": 2}), _too_many(rng, 6, 4),
            _not_2d("wpe", np.arange(1.0, 7.0), k=1)]


def _pca_hidden(rng):
    cases = [Case({"wpe": _table(rng, T, d, dtype), "k": k}) for T, d, dtype, k in
             [(50, 8, np.float64, 3), (65, 64, np.float32, 3), (30, 12, np.float32, 4),
              (21, 20, np.float64, 3), (200, 16, np.float64, 16), (5, 2, np.float64, 1)]]
    return cases + [_too_many(rng, 12, 20), _too_many(rng, 30, 6),
                    _not_2d("wpe", rng.standard_normal((2, 5, 4)), k=2)]


register(Exercise(
    name="principal_components",
    lesson=LESSON,
    difficulty=3, importance=1, minutes=30,
    reference=ref.principal_components,
    public_cases=_pca_public,
    hidden_cases=_pca_hidden,
    mistakes=[
        Mistake("rows not centred",
                "PCA describes how the rows spread about their mean row. Without subtracting it (the mean "
                "over positions, axis 0), the first direction mostly points at the mean.",
                _pca(centre="none")),
        Mistake("directions from the centred rows, but the raw rows projected",
                "Project the same centred rows that gave the directions: the raw rows add the mean row's "
                "projection, a constant, to every position.", _pca(centre="fit")),
        Mistake("the k smallest directions (eigh's ascending order)",
                "np.linalg.eigh returns the eigenvalues in ascending order, so its first k eigenvectors "
                "have the smallest variance. Take the k largest, the largest first; np.linalg.svd already "
                "sorts its singular values from the largest.", _pca(order="smallest")),
        Mistake("the top k directions, smallest first",
                "Column 0 must hold the direction of the largest variance, column 1 the next, and so on. "
                "Reverse eigh's order before picking, not after.", _pca(order="reversed")),
        Mistake("sign convention ignored",
                "A principal direction v and -v are equally good, and SVD or eigh return either one. Flip "
                "each direction so that its largest-magnitude entry is positive, then project: the "
                "projections flip with it.", _pca(signs=False)),
        Mistake("no check of k",
                "A (T, d) table has at most min(T, d) principal directions. Raise a ValueError naming k "
                "and that limit when k is larger; slicing would quietly return fewer columns.",
                _pca(check_k=False)),
        Mistake("directions returned instead of the projections",
                "The directions are (d, k); the answer is where each position lands on them: the centred "
                "rows times the directions, (T, k).", _pca(directions_out=True)),
        Mistake("float32 table answered in float64",
                "Computing in float64 is fine, but convert the answer back to the table's dtype.",
                _pca(cast=False)),
    ],
    hints=(
        "Three steps: centre the rows (subtract the mean row), find the directions in which they vary "
        "most, project the centred rows on the top k. Which decomposition sorts directions by variance?",
        "The SVD of the centred (T, d) table gives the directions as the rows of its third factor, "
        "sorted from the largest singular value; `np.linalg.eigh` of the (d, d) covariance gives them "
        "as columns, sorted from the smallest.",
        "For each of the k directions find its entry of largest absolute value (`argmax` of the "
        "absolute values) and, when that entry is negative, multiply the direction by -1. Check the "
        "shape (a `ValueError` containing `wpe.shape`) and k (one containing k and min(T, d)).",
        "Outline: (1) the checks; (2) the centred rows; (3) their SVD (or the covariance's eigh, "
        "reversed); (4) the top k directions, signs fixed; (5) centred rows times the (d, k) "
        "directions, converted back to the table's dtype.",
    ),
))

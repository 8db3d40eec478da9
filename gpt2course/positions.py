"""What a position table holds: the measurements of lesson 07, for any (T, d) table.

GPT-2 learns its position table ``wpe``, one row of width d per position
(Radford et al., 2019); the original Transformer used fixed sinusoids instead
(Vaswani et al., 2017, section 3.5). Every function here takes a plain (T, d)
array, so one lesson cell reads GPT-2 small's (1024, 768) table, the course's
tiny (64, 64) one and a sinusoidal table alike. Rows are positions, columns
are features.
"""
from __future__ import annotations

import numpy as np

SINUSOID_BASE = 10_000.0  # Vaswani et al.'s base: periods from 2*pi up to 2*pi*10000


# ----------------------------------------------------------------- validation
def check_table(wpe, name: str = "wpe") -> np.ndarray:
    """A position table: a 2-D floating NumPy array with at least one row and column."""
    if not isinstance(wpe, np.ndarray):
        raise TypeError(f"{name} must be a NumPy array of shape (T, d), got {type(wpe).__name__}")
    if np.ndim(wpe) != 2:
        raise ValueError(f"{name} must be a 2-D (T, d) table (a row per position), got shape {wpe.shape}")
    if not np.issubdtype(wpe.dtype, np.floating):
        raise TypeError(f"{name} must have a floating dtype, got {wpe.dtype}")
    if 0 in wpe.shape:
        raise ValueError(f"{name} is empty (shape {wpe.shape}): it needs at least one position and one column")
    return wpe


def check_components(k, T: int, d: int) -> int:
    """k principal components of a (T, d) table: a whole number from 1 to min(T, d)."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k must be a whole number of components, got {k!r}")
    if not 1 <= k <= min(T, d):
        raise ValueError(f"k={k} components asked of a table of shape ({T}, {d}): k must be between 1 and "
                         f"min(T, d) = {min(T, d)}")
    return int(k)


# ----------------------------------------------------------------- the three exercises
def sinusoidal_positions(T: int, d: int, base: float = SINUSOID_BASE) -> np.ndarray:
    """Vaswani et al.'s fixed table, (T, d) float64, the sines and cosines interleaved.

    Column pair i (columns 2i and 2i + 1) turns at the angular frequency
    w_i = base ** (-2i / d): row t holds sin(t * w_i) at column 2i and
    cos(t * w_i) at column 2i + 1, for positions t = 0 .. T - 1.
    """
    if d % 2:
        raise ValueError(f"d={d} is odd: the columns come in (sin, cos) pairs, so d must be even")
    if T < 1 or d < 2:
        raise ValueError(f"a sinusoidal table needs T >= 1 positions and d >= 2 columns, got T={T}, d={d}")
    freq = base ** (-np.arange(0, d, 2) / d)             # (d/2,): pair i turns at base^(-2i/d)
    angle = np.arange(T)[:, None] * freq[None, :]        # (T, d/2): position times frequency
    table = np.empty((T, d))
    table[:, 0::2] = np.sin(angle)                       # even columns: sin
    table[:, 1::2] = np.cos(angle)                       # odd columns: cos of the same angle
    return table


def position_similarity(wpe: np.ndarray) -> np.ndarray:
    """(T, T) cosine similarity between positions: entry (s, t) compares rows s and t."""
    wpe = check_table(wpe)
    length = np.sqrt((wpe * wpe).sum(axis=1, keepdims=True))  # (T, 1): each row's length
    unit = wpe / length                                        # (T, d): rows of length 1
    return unit @ unit.T                                       # (T, d) @ (d, T) -> (T, T)


def principal_components(wpe: np.ndarray, k: int) -> np.ndarray:
    """The centred rows projected on the top k principal directions: (T, k) in wpe's dtype.

    Column j holds the projections on the direction of the j-th largest variance.
    A direction is fixed only up to its sign; the course's convention makes the
    direction's largest-magnitude entry (loading) positive.
    """
    wpe = check_table(wpe)
    k = check_components(k, *wpe.shape)
    x = wpe.astype(np.float64)                      # float64 inside: the directions are then exact enough
    centred = x - x.mean(axis=0)                    # (T, d): PCA describes spread about the mean row
    _, _, vt = np.linalg.svd(centred, full_matrices=False)   # rows of vt: directions, by falling variance
    directions = vt[:k]                             # (k, d)
    top = np.abs(directions).argmax(axis=1)         # (k,): where each direction is largest
    flip = np.sign(directions[np.arange(k), top])   # -1 where that entry is negative
    return ((centred @ directions.T) * flip).astype(wpe.dtype)  # (T, d) @ (d, k) -> (T, k)


# ----------------------------------------------------------------- measurements
def roughness(wpe: np.ndarray, start: int = 0) -> np.ndarray:
    """Per column, from position ``start`` on: the mean squared step between neighbouring
    positions over twice the column's variance, (d,) float64.

    0 for a constant-slope or slowly varying column, about 1 for independent
    noise (a step then has twice the variance of one value), up to 2 for a
    column that flips sign at every position. A sine of period p scores
    1 - cos(2 pi / p). A column with no variance at all scores 0.
    """
    wpe = check_table(wpe)
    part = wpe[start:].astype(np.float64)
    if part.shape[0] < 2:
        raise ValueError(f"roughness needs at least two positions from start={start}, "
                         f"but the table has {wpe.shape[0]} rows")
    steps = np.diff(part, axis=0)                  # (T - start - 1, d): change from one position to the next
    spread = 2.0 * part.var(axis=0)                # (d,)
    with np.errstate(invalid="ignore", divide="ignore"):
        score = (steps * steps).mean(axis=0) / spread
    return np.where(spread > 0, score, 0.0)


def step_sizes(wpe: np.ndarray) -> np.ndarray:
    """(T - 1,) float64: how far each row is from the previous one, |wpe[t + 1] - wpe[t]|."""
    wpe = check_table(wpe).astype(np.float64)
    return np.sqrt((np.diff(wpe, axis=0) ** 2).sum(axis=1))


def moving_average(wpe: np.ndarray, window: int) -> np.ndarray:
    """Each column averaged over ``window`` neighbouring positions (centred; fewer at the
    ends), float64 of wpe's shape: the slow part of the columns, without the jagged noise."""
    wpe = check_table(wpe).astype(np.float64)
    if isinstance(window, bool) or not isinstance(window, (int, np.integer)) or window < 1:
        raise ValueError(f"window must be a positive whole number of positions, got {window!r}")
    T = wpe.shape[0]
    totals = np.vstack([np.zeros((1, wpe.shape[1])), np.cumsum(wpe, axis=0)])  # (T + 1, d): running sums
    lo = np.clip(np.arange(T) - window // 2, 0, T)
    hi = np.clip(np.arange(T) + (window + 1) // 2, 0, T)
    return (totals[hi] - totals[lo]) / (hi - lo)[:, None]


def similarity_by_distance(similarity: np.ndarray) -> np.ndarray:
    """(T,) float64: the mean similarity of positions k apart, for k = 0 .. T - 1.

    Reads a (T, T) similarity matrix (position_similarity's) along its diagonals:
    entry k averages the T - k pairs (t, t + k).
    """
    similarity = check_table(similarity, "similarity")
    T = similarity.shape[0]
    if similarity.shape != (T, T):
        raise ValueError(f"similarity must be a square (T, T) matrix, got shape {similarity.shape}")
    return np.array([np.diagonal(similarity, offset=k).astype(np.float64).mean() for k in range(T)])


def toeplitz_gap(similarity: np.ndarray) -> float:
    """How far a (T, T) similarity is from depending on the distance alone: the largest
    deviation of an entry from the mean of its diagonal (0 for sinusoids)."""
    by_distance = similarity_by_distance(similarity)
    T = similarity.shape[0]
    distance = np.abs(np.arange(T)[:, None] - np.arange(T)[None, :])   # (T, T): |s - t|
    return float(np.abs(similarity - by_distance[distance]).max())


def variance_share(wpe: np.ndarray, projections: np.ndarray) -> np.ndarray:
    """(k,) float64: the share of the table's total variance that each column of
    ``projections`` (principal_components' answer) carries."""
    wpe = check_table(wpe).astype(np.float64)
    projections = check_table(projections, "projections").astype(np.float64)
    if projections.shape[0] != wpe.shape[0]:
        raise ValueError(f"projections have {projections.shape[0]} rows, the table {wpe.shape[0]}: "
                         "one row per position in both")
    return projections.var(axis=0) / wpe.var(axis=0).sum()

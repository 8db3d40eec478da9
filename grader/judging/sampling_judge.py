"""Lesson 08's two judges: random draws (`sample_next`) and a loss of a given dtype
(`cross_entropy`). Both work on plain data, the case's arguments and two answers, so
the student edition, which stores the reference's and each mistake's answers to the
public cases, judges and names mistakes exactly as the full grader does.

Draws. A learner may draw in any correct way (an inverse CDF, ``rng.choice`` row by
row, the Gumbel-max trick), each of which turns the same generator state into other
ids, so draws cannot be compared one by one. The cases repeat a few rows of logits
many times; the judge compares what the answer drew with what the other answer (the
reference's, or a mistake's) drew, by the counts of each candidate, and never lets
an answer draw outside the top k where the other one does not. Tied logits are one
candidate for the counts: which of several tied ids fills the k-th place is free. But
tied ids that are kept are equally likely, so no id may take more than its share of its
tie's draws (1/c of them, with c of the tie kept) where the other answer does not: a
sampler that makes every probability NaN (every candidate masked) and always draws
id 0, or one that breaks ties by always taking the first, fails whatever the counts.
That the same generator state gives the same ids is judged across cases
(seeds.generator_mismatches).

A loss. The value-by-value comparison of compare.py compares a NumPy scalar's value
but not its dtype; here the dtype is the rule (float32 logits, float32 loss).
"""
from __future__ import annotations

import math

import numpy as np

from .compare import case_mismatch, describe_value, value_mismatch
from .wire import is_plain_array

SIGMAS = 6.0   # a correct sampler fails one case with probability about 1e-9


# ------------------------------------------------------------------ draws
def draws_judge(answer, case, expected, tol: float) -> str | None:
    """Do ``answer``'s ids look like draws from the distribution ``expected`` was drawn from?"""
    if case.raises or not is_plain_array(expected):
        return case_mismatch(answer, expected, case, tol)
    if not is_plain_array(answer):
        return f"returned {describe_value(answer)}; expected a NumPy array of ids"
    if answer.dtype != expected.dtype:
        return f"wrong dtype: got {answer.dtype}, expected {expected.dtype} (token ids are int64)"
    if answer.shape != expected.shape:
        return f"wrong shape: got {answer.shape}, expected {expected.shape} (one id per row of logits)"
    logits, k = case.args["logits"], case.args.get("top_k")
    V = logits.shape[-1]
    if answer.size and (answer.min() < 0 or answer.max() >= V):
        bad = int(answer.min() if answer.min() < 0 else answer.max())
        return f"drew id {bad}, outside the vocabulary [0, {V})"
    allowed = candidates(logits, k)                                   # (B, V)
    rows = np.arange(answer.shape[0])
    outside = ~allowed[rows, answer]
    if outside.any() and allowed[rows, expected].all():
        return (f"drew an id outside the top {k} of its row (row {int(np.argmax(outside))}): only the "
                f"k = {k} largest logits of a row may be drawn")
    crowded = crowded_tie(answer, logits, k)
    if crowded and not crowded_tie(expected, logits, k):
        row, drawn, share, kept = crowded
        return (f"drew id {drawn} in {share:.0%} of the draws among the {kept} ids kept that tie with "
                f"it (row {row}): tied candidates are equally likely, so each gets about 1/{kept} of "
                "them (probabilities that are NaN, or every candidate masked, end up drawing one id)")
    stat, df = homogeneity(answer, expected, logits)
    limit = chi2_limit(df)
    if stat > limit:
        return ("the ids drawn do not follow softmax(logits / temperature) over the candidates "
                f"(a test of how often each candidate was drawn gives {stat:.0f}, where a correct "
                f"sampler stays below {limit:.0f})")
    return None


def candidates(logits: np.ndarray, k) -> np.ndarray:
    """(B, V): True where a logit is at least its row's k-th largest (all of them when k is None)."""
    if k is None or k >= logits.shape[-1]:
        return np.ones(logits.shape, dtype=bool)
    kth = np.sort(logits, axis=-1)[:, -k][:, None]                    # (B, 1)
    return logits >= kth


def crowded_tie(draws: np.ndarray, logits: np.ndarray, k) -> tuple | None:
    """(row, id, its share of its tie's draws, ids kept from the tie) for the first drawn id that
    takes more of its tie's draws than a fair share allows; None when every id keeps to its share.

    With c of a tie's ids kept (all of it, or those of it that fill the top k), each kept id has
    probability 1/c of the tie's (less, where the ids kept vary from row to row), so its count
    stays below n/c plus SIGMAS binomial standard deviations."""
    cell = _cells(draws, logits)                                      # (B,)
    V = logits.shape[-1]
    keys, first, counts = np.unique(cell * V + draws, return_index=True, return_counts=True)
    rows = logits[first]                                              # (n, V): a row of each (cell, id)
    value = rows[np.arange(len(first)), draws[first]][:, None]        # (n, 1)
    above, tied = (rows > value).sum(axis=1), (rows == value).sum(axis=1)
    kept = tied if k is None or k >= V else np.clip(k - above, 0, tied)
    n = np.bincount(cell)[keys // V]
    share = 1.0 / np.maximum(kept, 1)
    limit = n * share + SIGMAS * np.sqrt(n * share * (1.0 - share)) + 1.0
    over = np.flatnonzero((kept >= 2) & (counts > limit))
    if not over.size:
        return None
    j = over[0]
    return int(first[j]), int(draws[first[j]]), float(counts[j] / n[j]), int(kept[j])


def _cells(draws: np.ndarray, logits: np.ndarray) -> np.ndarray:
    """Each draw's cell: (its row's pattern, the rank of the drawn logit's value in that row).
    Rows with equal logits share a pattern; equal logits within a row share a cell."""
    cell = _cell_table(logits)                                        # (B, V)
    return cell[np.arange(len(draws)), draws]


_TABLES: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # id(logits) -> (logits, its cell table)


def _cell_table(logits: np.ndarray) -> np.ndarray:
    """(B, V) cell numbers, group * V + rank. One case's logits are judged against the reference
    and every mistake (check() names mistakes this way), so the table is computed once per array:
    the row-wise unique below is the slow part."""
    hit = _TABLES.get(id(logits))
    if hit is not None and hit[0] is logits:
        return hit[1]
    patterns, group = np.unique(logits, axis=0, return_inverse=True)
    group = group.reshape(-1)
    V = logits.shape[-1]
    rank = np.empty(logits.shape, dtype=np.int64)
    for g, row in enumerate(patterns):
        rank[group == g] = np.unique(row, return_inverse=True)[1].reshape(-1)
    table = group[:, None] * V + rank
    if len(_TABLES) >= 64:
        _TABLES.clear()
    _TABLES[id(logits)] = (logits, table)
    return table


def homogeneity(a: np.ndarray, b: np.ndarray, logits: np.ndarray) -> tuple[float, int]:
    """The two-sample chi-square statistic of two equally long sets of draws over the same
    rows, and its degrees of freedom: sum of (n_a - n_b)^2 / (n_a + n_b) over the cells,
    with (cells drawn - row patterns drawn) degrees of freedom."""
    ca, cb = _cells(a, logits), _cells(b, logits)
    size = int(max(ca.max(initial=0), cb.max(initial=0))) + 1
    na, nb = np.bincount(ca, minlength=size), np.bincount(cb, minlength=size)
    used = (na + nb) > 0
    stat = float((((na - nb) ** 2)[used] / (na + nb)[used]).sum())
    V = logits.shape[-1]
    patterns = len(np.unique(np.flatnonzero(used) // V))
    return stat, int(used.sum()) - patterns


def chi2_limit(df: int, sigmas: float = SIGMAS) -> float:
    """The chi-square quantile with upper tail about that of `sigmas` standard deviations of
    a normal (Wilson and Hilferty's cube-root approximation; a little high for df = 1, so
    the judge errs towards passing)."""
    if df < 1:
        return 0.0
    c = 2.0 / (9.0 * df)
    return df * (1.0 - c + sigmas * math.sqrt(c)) ** 3


# ------------------------------------------------------------------ a loss of the inputs' dtype
def scalar_judge(answer, case, expected, tol: float) -> str | None:
    """One floating number of the reference's dtype (a NumPy scalar or 0-d array), within tol.
    Against a mistake's non-finite answer, any non-finite answer is alike (NaN or inf)."""
    if case.raises or not _floating_scalar(expected):
        return case_mismatch(answer, expected, case, tol)
    if not _floating_scalar(answer):
        return (f"returned {describe_value(answer)}; expected one number, a NumPy {np.asarray(expected).dtype} "
                "scalar (keep the NumPy result, without float())")
    a, e = np.asarray(answer), np.asarray(expected)
    if a.dtype != e.dtype:
        return (f"wrong dtype: got {a.dtype}, expected {e.dtype} (compute in the logits' dtype; "
                "do not upcast)")
    if not np.isfinite(e):
        return None if not np.isfinite(a) else f"returned {float(a):.6g}, a finite number"
    if not np.isfinite(a):
        return f"returned {float(a)} where the loss is finite"
    return value_mismatch(a, e, tol)


def _floating_scalar(x) -> bool:
    if isinstance(x, np.floating):
        return True
    return is_plain_array(x) and x.ndim == 0 and x.dtype.kind == "f"


def one_draw_for_all_rows(exercise, cases, answers, expected, failed):
    """A diagnosis (diagnoses.py's rule): on every failing case, each set of alike rows of logits
    drew one id for all its rows, where the other answer's draws spread over several ids, and
    that id is not always the most likely one (that would be the argmax): one random number
    shared by all the rows instead of one per row."""
    if exercise.judge is not draws_judge or not failed:
        return None
    ids = []
    for i in failed:
        a, e, logits = answers[i], expected[i], cases[i].args.get("logits")
        if cases[i].raises or not (is_plain_array(a) and is_plain_array(e) and is_plain_array(logits)):
            return None
        if logits.ndim != 2 or a.shape != e.shape or a.shape != logits.shape[:1]:
            return None
        rows, which = np.unique(logits, axis=0, return_inverse=True)
        for g, row in enumerate(rows):
            mine, theirs = a[which.ravel() == g], e[which.ravel() == g]
            if len(mine) < 2 or len(np.unique(mine)) != 1 or len(np.unique(theirs)) < 2:
                return None
            ids.append((int(mine[0]), int(np.argmax(row))))
    # a shared draw lands on other ids on other cases; one id everywhere is no draw (NaN
    # probabilities draw id 0), the most likely id everywhere is the argmax
    if len({drawn for drawn, _ in ids}) < 2 or all(drawn == top for drawn, top in ids):
        return None
    return [("one random number for all the rows",
             "Every row of a batch drew the same id as the rows alike it, though each row's draw must "
             "be its own: draw one number per row (rng.random((B, 1)) for an inverse CDF, or "
             "rng.choice row by row), not one for the whole batch.")]

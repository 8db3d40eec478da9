"""Forms of one answer that naming (naming.py) compares: its numbers in one dtype, what the dtype
rules look at, and its columns with their signs chosen.

Plain data in, plain data out; shipped with the student edition like the rest of judging/.
"""
from __future__ import annotations

import numpy as np


def _numeric(x) -> bool:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.generic, np.ndarray)):
        return False
    return np.asarray(x).dtype.kind in "iuf"


def unify(a, b):
    """``a`` and ``b`` with every pair of numbers cast to their common dtype (0-d arrays for scalars)."""
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b):
        pairs = [unify(x, y) for x, y in zip(a, b)]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if type(a) is dict and type(b) is dict and a.keys() == b.keys():  # not stats' summaries
        pairs = {k: unify(a[k], b[k]) for k in b}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
    if _numeric(a) and _numeric(b):
        common = np.result_type(np.asarray(a).dtype, np.asarray(b).dtype)
        return np.asarray(a).astype(common), np.asarray(b).astype(common)
    return a, b


def kind(x):
    """What the dtype rules look at: the type and dtype of every number in an answer."""
    if isinstance(x, np.generic) or (isinstance(x, np.ndarray) and x.ndim == 0):
        return ("number", x.dtype.str)
    if isinstance(x, np.ndarray):
        return ("array", x.dtype.str)
    if isinstance(x, (tuple, list)):
        return ("sequence",) + tuple(kind(v) for v in x)
    if isinstance(x, dict):
        return ("dict",) + tuple((str(k), kind(v)) for k, v in x.items())
    return (type(x).__name__,)


def is_2d(x) -> bool:
    return isinstance(x, np.ndarray) and x.ndim == 2 and x.dtype.kind == "f"


def flip_to(x, target):
    """``x`` with each column's sign chosen to agree with ``target``'s (x itself when they do not fit)."""
    if not (is_2d(x) and is_2d(target) and x.shape == target.shape):
        return x
    with np.errstate(all="ignore"):
        signs = np.where((x.astype(np.float64) * target).sum(axis=0) < 0, -1, 1).astype(x.dtype)
    return x * signs

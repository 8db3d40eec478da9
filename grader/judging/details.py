"""What a failure says beyond its kind, so a learner can act on it.

A public example is no secret (the student edition ships it): its failure shows the
example's inputs in brief and where the answer first differs, with the expected and the
received value. A hidden case shows only its kind of difference (judge.py's sentences:
shapes, dtypes, how values differ), never a value. A wrong dtype is explained from the
expected dtype itself: "keep the dtype of `x`" where an input has it, "return int64"
where none does (token ids from uint8 data).
"""
from __future__ import annotations

import numpy as np

from .wire import is_plain_array

MAX_VALUES = 8       # an input of at most this many numbers is shown whole
MAX_BRIEF = 300      # characters of the inputs in brief


# ------------------------------------------------------------------ the inputs
def inputs_brief(args: dict) -> str:
    """``idx: int64 (2, 3) = [[0, 1, 2], [3, 4, 5]]; wte: float64 (10, 4); n_head=2``."""
    parts = [_brief(name, value) for name, value in args.items()]
    text = "; ".join(parts)
    return text if len(text) <= MAX_BRIEF else text[: MAX_BRIEF - 3] + "..."


def _brief(name: str, value) -> str:
    if isinstance(value, np.ndarray):
        shape = f"{value.dtype} {value.shape}"
        if value.size <= MAX_VALUES and value.dtype.kind in "biuf":
            return f"{name}: {shape} = {_values(value.tolist())}"
        return f"{name}: {shape}"
    if isinstance(value, np.random.Generator):
        return f"{name}: a random generator"
    if isinstance(value, dict):
        return f"{name}: a dict of {len(value)}"
    if value is None or isinstance(value, (bool, int, float, str, np.generic)):
        return f"{name}={value!r}" if isinstance(value, str) else f"{name}={value}"
    text = repr(value)
    return f"{name}={text if len(text) <= 100 else text[:97] + '...'}"


def _values(v) -> str:
    """Nested lists on one line, floats to 4 significant digits: [[0, 1], [2, 3]]."""
    if isinstance(v, list):
        return "[" + ", ".join(_values(x) for x in v) + "]"
    return f"{v:.4g}" if isinstance(v, float) else str(v)


# ------------------------------------------------------------------ where it differs
def first_difference(answer, expected, tol: float, names: tuple[str, ...] = (), path: str = "") -> str | None:
    """``first difference at y[1, 3]: expected 17, got 18`` for the first value that fails,
    in the order judge.value_mismatch reports; None where shapes or kinds already differ."""
    from .judge import value_mismatch

    if isinstance(expected, (tuple, list)) and isinstance(answer, (tuple, list)) and len(answer) == len(expected):
        for i, (a, e) in enumerate(zip(answer, expected)):
            if value_mismatch(a, e, tol) is not None:
                name = names[i] if i < len(names) else f"{path}[{i}]"
                return first_difference(a, e, tol, (), name)
        return None
    if isinstance(expected, dict) and isinstance(answer, dict) and set(answer) == set(expected):
        for k in expected:
            if value_mismatch(answer[k], expected[k], tol) is not None:
                return first_difference(answer[k], expected[k], tol, (), f"{path}[{k!r}]")
        return None
    return _array_difference(answer, expected, tol, path)


def _numeric(x):
    if isinstance(x, (int, float, np.generic)) and not isinstance(x, bool):
        x = np.asarray(x)
    return x if is_plain_array(x) else None


def _array_difference(answer, expected, tol: float, path: str) -> str | None:
    a, e = _numeric(answer), _numeric(expected)
    if a is None or e is None or a.shape != e.shape or a.size == 0:
        return None
    if is_plain_array(answer) and is_plain_array(expected) and a.dtype != e.dtype:
        return None  # the dtype is what to fix first
    if e.dtype.kind in "biu" and a.dtype.kind in "biu":
        bad = a != e
    else:
        wide = np.complex128 if "c" in a.dtype.kind + e.dtype.kind else np.float64
        fa, fe = a.astype(wide), e.astype(wide)
        finite = np.isfinite(fe)
        scale = max(float(np.abs(fe[finite]).max()), 1e-300) if finite.any() else 1.0
        with np.errstate(invalid="ignore", over="ignore"):
            off = np.where(finite & np.isfinite(fa), np.abs(fa - fe) / scale > tol, False)
        bad = off | (np.isfinite(fa) != finite) | (~finite & ~np.isfinite(fa) & (fa != fe))
    where = np.flatnonzero(bad)
    if not where.size:
        return None
    index = np.unravel_index(int(where[0]), a.shape) if a.ndim else ()
    got, want = a[index], e[index]
    if not index:  # one number: the reason already names it
        return f"expected {want}, got {got}"
    return f"first difference at {path}[{', '.join(str(int(i)) for i in index)}]: expected {want}, got {got}"


# ------------------------------------------------------------------ a wrong dtype
def dtype_hint(got: np.dtype, expected: np.dtype, inputs: tuple = ()) -> str:
    """The fix, worded from the expected dtype: keep an input's dtype where one has it
    (and do not upcast), else return the expected dtype whatever the inputs are."""
    kind = _kind(expected)
    same = [name for name, d in inputs if d == expected]
    if same:
        wider = np.promote_types(got, expected) == got
        return (f"keep the dtype of {', '.join(f'`{n}`' for n in same)} ({expected})"
                + ("; do not upcast" if wider else ""))
    others = [f"`{n}` ({d})" for n, d in inputs if _kind(d) == kind]
    return (f"return {expected}" + (f" whatever the dtype of {', '.join(others)}" if others else "")
            + f": convert with .astype(np.{expected})")


def _kind(d: np.dtype) -> str:
    return "i" if d.kind in "iu" else d.kind

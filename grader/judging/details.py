"""What a failure says beyond its kind, so a learner can act on it.

A public example is no secret (the student edition ships it): its failure shows the
example's inputs in brief (here, for judge.py) and where the answer first differs, with
the expected and the received value (compare.first_difference). A hidden case shows only
its kind of difference (compare.py's sentences: shapes, dtypes, how values differ), never
a value. A wrong dtype is explained from the expected dtype itself (here, for
compare.value_mismatch): "keep the dtype of `x`" where an input has it, "return int64"
where none does (token ids from uint8 data). It imports nothing of judging/, so compare.py
can import it.
"""
from __future__ import annotations

import numpy as np

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


# ------------------------------------------------------------------ a dict's keys
def keys_differ(expected, answer) -> str | None:
    """How a dict's keys differ, or None: the missing ones by name (the grader's own), the
    unexpected ones only counted (their names are text of the learner's code)."""
    missing, extra = sorted(set(expected) - set(answer)), set(answer) - set(expected)
    if not missing and not extra:
        return None
    return f"dict keys differ (missing {missing[:3]}, {len(extra)} unexpected)"

"""Diagnoses from values alone (diagnoses.py runs these): every failing answer, or one item of
a returned tuple, exactly the expected one times a constant, times a size of the case's inputs
that changes from case to case, or plus a constant; and the one name of a dtype mistake, which
the dtype rule (diagnoses.py) gives too.
"""
from __future__ import annotations

import math

import numpy as np

from .compare import value_mismatch
from .registry import FLOAT32_TOL
from .wire import is_plain_array


def dtype_mistake(exercise, got: str, want: str):
    """(name, explanation) of an answer in dtype ``got`` where ``want`` was expected; the catalogue's
    own name where the exercise has one upcast mistake (one name for one mistake)."""
    if got == "float64" and want == "float32":
        own = [m for m in exercise.mistakes if "upcast to float64" in m.name]
        if len(own) == 1:
            return own[0].name, own[0].explanation
    if got == "python float":
        return (f"a Python float instead of a NumPy {want} scalar",
                f"float(...) or .item() turns NumPy's {want} into a Python float: return the NumPy "
                "result as it is (the mean of a float32 array is a float32).")
    if got == "float64" and want in ("float32", "float16"):
        return (f"{want} inputs upcast to float64",
                f"{want} inputs give a {want} answer: a float64 array, np.float64 constant or "
                ".astype(np.float64) mixed in upcasts everything; Python numbers (0.5, math.sqrt(...)) "
                "do not.")
    # said without "keep the inputs' dtype": some answers are of another dtype than their inputs
    # (get_batch's int64 windows of uint8 data), and the exercise's text says which
    return (f"{got} instead of {want}",
            f"Your answer is {got} where {want} is expected: find where your code makes a {got} array "
            f"(a dtype= argument, an .astype, a value of that dtype mixed in) and make the result {want}, "
            "as the exercise's text asks.")


def _tol(exercise, case):
    return case.tolerance(exercise.tolerance)


# ------------------------------------------------------------------ a constant factor or offset
def _plain_values(exercise, cases, answers, expected, failed):
    """Per item (one for a single answer), the (answer, expected, tol) of every value case, and the
    {(answer's dtype, expected dtype)} where float dtypes differ; None when any answer is not a
    same-shaped float array or number."""
    if exercise.judge is not None and getattr(exercise.judge, "__name__", "") != "scalar_judge":
        return None
    values = [i for i, c in enumerate(cases) if not c.raises]
    if not failed or set(failed) - set(values):
        return None
    items, dtypes = None, set()
    for i in values:
        a, e = answers[i], expected[i]
        tuples = isinstance(e, tuple) and isinstance(a, tuple) and len(a) == len(e)
        pa, pe = (list(a), list(e)) if tuples else ([a], [e])
        if isinstance(e, tuple) and len(pa) == 1:
            return None
        if items is None:
            items = [[] for _ in pe]
        for k, (x, y) in enumerate(zip(pa, pe)):
            x, y = _float_array(x), _float_array(y)
            if x is None or y is None or x.shape != y.shape or not np.isfinite(x).all():
                return None
            tol = _tol(exercise, cases[i])
            if x.dtype != y.dtype and y.ndim:  # a number's type is the loss rule's business
                dtypes.add((str(x.dtype), str(y.dtype)))
                tol = max(tol, FLOAT32_TOL)
            items[k].append((x.astype(np.float64), y.astype(np.float64), tol))
    return items, dtypes


def _float_array(x):
    if type(x) is float:
        return np.asarray(x)
    if isinstance(x, np.generic) and x.dtype.kind == "f":
        return np.asarray(x)
    if is_plain_array(x) and x.dtype.kind == "f":
        return x
    return None


_KNOWN = {2.0: "2", 0.5: "1/2", -1.0: "-1", math.sqrt(2): "sqrt(2)", 1 / math.sqrt(2): "1/sqrt(2)",
          1 / math.log(2): "1/ln(2)", math.log(2): "ln(2)", math.pi: "pi", 1 / math.pi: "1/pi"}


def _fmt(c: float) -> str:
    for value, label in _KNOWN.items():
        if abs(c - value) <= 1e-6 * abs(value):
            return label
    return f"{c:.4g}"


def _fit(items, how):
    """Per item: its constant (factor or offset) if one explains every case, 'right' if the item is
    right on every case, else None."""
    out = []
    for pairs in items:
        if all(value_mismatch(a, e, t) is None for a, e, t in pairs):
            out.append("right")
            continue
        consts = []
        for a, e, t in pairs:
            scale = max(float(np.abs(e).max()), 1e-300)
            if how == "factor":
                ee = float((e * e).sum())
                if ee == 0:
                    return None
                c = float((a * e).sum()) / ee
                fit = c * e
            else:
                c = float((a - e).mean())
                fit = e + c
            if float(np.abs(a - fit).max()) / max(scale, float(np.abs(fit).max())) > max(t, 1e-9):
                return None
            consts.append((c, t))
        c0 = consts[0][0]
        if any(abs(c - c0) > 10 * max(t, 1e-9) * max(abs(c0), 1.0) for c, t in consts):
            return None
        if how == "factor" and abs(c0 - 1) <= 1e-6:
            return None
        if how == "offset" and all(abs(c0) <= t * max(float(np.abs(e).max()), 1.0)
                                   for (_, e, t) in pairs):
            return None
        out.append(c0)
    return out if any(o != "right" for o in out) else None


def _per_case_factors(pairs):
    """Each case's factor c with answer = c * expected (within its tolerance), else None."""
    out = []
    for a, e, t in pairs:
        ee = float((e * e).sum())
        if ee == 0:
            return None
        c = float((a * e).sum()) / ee
        scale = max(float(np.abs(e).max()), float(np.abs(c * e).max()), 1e-300)
        if float(np.abs(a - c * e).max()) / scale > max(t, 1e-9):
            return None
        out.append(c)
    return out


def _sizes(args: dict):
    """(label, value) of every axis length of the case's array inputs, from the end, and their
    reciprocals, then each input's whole size: the sizes a mean or a sum could have used instead
    (a 1-D input's size is its length, named first; a batched one's is B * T)."""
    for name, value in args.items():
        if is_plain_array(value):
            for ax in range(1, value.ndim + 1):
                n = value.shape[-ax]
                yield f"{name}.shape[-{ax}]", float(n)
                yield f"1/{name}.shape[-{ax}]", 1.0 / n
                yield f"sqrt({name}.shape[-{ax}])", math.sqrt(n)
                yield f"1/sqrt({name}.shape[-{ax}])", 1.0 / math.sqrt(n)
            if value.ndim >= 2:   # every axis but the first: divided by the batch size, not the count
                n = int(np.prod(value.shape[1:]))
                yield f"{name}.size / {name}.shape[0]", float(n)
                yield f"{name}.shape[0] / {name}.size", 1.0 / n
            if value.ndim >= 1 and value.size:   # every element: a sum over (B, T) where a mean belongs
                yield f"{name}.size", float(value.size)
                yield f"1/{name}.size", 1.0 / value.size


def size_factor(exercise, cases, answers, expected, failed):
    """Every failing answer (or one item) is the expected one times a size of the case's inputs
    that changes from case to case (a sum for a mean, the wrong count divided by)."""
    plain = _plain_values(exercise, cases, answers, expected, failed)
    if not plain or plain[1]:
        return None
    items, _ = plain
    values = [i for i, c in enumerate(cases) if not c.raises]
    found = []
    for k, pairs in enumerate(items):
        if all(value_mismatch(a, e, t) is None for a, e, t in pairs):
            continue
        consts = _per_case_factors(pairs)
        if consts is None:
            return None
        # the cases this item is wrong on (elsewhere it is right, and another item or the dtype failed)
        wrong = [(i, c) for i, c in zip(values, consts) if abs(c - 1) > 1e-6]
        if len({round(c, 6) for _, c in wrong}) < 2:
            return None   # one constant: constant_factor's business
        fits = None
        for i, c in wrong:
            here = [label for label, v in _sizes(cases[i].args) if abs(c - v) <= 1e-6 * abs(v)]
            fits = here if fits is None else [f for f in fits if f in here]
        if not fits:
            return None
        label = fits[0]   # sizes equal on every case (idx's T, targets' T) are one size: the first named
        item = (exercise.returns[k] if k < len(exercise.returns) else f"item {k}") if len(items) > 1 else ""
        where = f"{item}: " if item else ""
        found.append((f"{where}off by a factor {label}",
                      f"On every test {f'`{item}`' if item else 'your answer'} is the expected one times "
                      f"{label}, a size that changes from test to test: a sum where a mean belongs, or a "
                      "mean over the wrong axes (divide by the count of every position averaged)."))
    return found or None


def axis_factors(exercise, cases, answers, expected, failed):
    """Every failing answer is a 2-D array whose columns (or rows) are the expected ones, each
    times a factor of its own, not all the same: a per-column (per-row) scale used or left out."""
    plain = _plain_values(exercise, cases, answers, expected, failed)
    if not plain or plain[1] or len(plain[0]) != 1:
        return None
    values = [i for i, c in enumerate(cases) if not c.raises]
    pairs = [p for i, p in zip(values, plain[0][0]) if i in failed]
    for axis, what in ((0, "column"), (1, "row")):
        scales = [_per_axis_scale(a, e, t, axis) for a, e, t in pairs]
        if all(c is not None for c in scales) and any(float(np.ptp(c)) > 1e-6 * float(np.abs(c).max())
                                                       for c in scales):
            return [(f"each {what} off by a factor of its own",
                     f"On every failing test each {what} of your answer is the expected {what} times its "
                     f"own factor: a scale per {what} is used where it should not be, or left out (a "
                     "norm, a singular value, a standard deviation).")]
    return None


def _per_axis_scale(a, e, t, axis):
    """The factors c with a = e * c, c constant along ``axis`` (one per column for axis 0), or None."""
    if a.ndim != 2 or a.shape[axis] < 2:
        return None
    num, den = (a * e).sum(axis=axis), (e * e).sum(axis=axis)
    if np.any(den == 0):
        return None
    c = num / den
    fit = e * (c[None, :] if axis == 0 else c[:, None])
    scale = max(float(np.abs(e).max()), float(np.abs(fit).max()), 1e-300)
    if float(np.abs(a - fit).max()) / scale > max(t, 1e-9) or np.any(np.abs(c - 1) <= 1e-9):
        return None   # (a column that is right is not off by a factor of its own)
    return c


def constant_factor(exercise, cases, answers, expected, failed):
    return _constants(exercise, cases, answers, expected, failed, "factor")


def constant_offset(exercise, cases, answers, expected, failed):
    return _constants(exercise, cases, answers, expected, failed, "offset")


def _constants(exercise, cases, answers, expected, failed, how):
    plain = _plain_values(exercise, cases, answers, expected, failed)
    if not plain or len(plain[1]) > 1:
        return None
    items, dtypes = plain
    fitted = _fit(items, how)
    if fitted is None:
        return None
    found = [dtype_mistake(exercise, *pair) for pair in dtypes]
    for k, c in enumerate(fitted):
        if c == "right":
            continue
        item = (exercise.returns[k] if k < len(exercise.returns) else f"item {k}") if len(fitted) > 1 else ""
        where = f"{item}: " if item else ""
        if how == "factor":
            label = _fmt(c)
            name = f"{where}sign flipped" if label == "-1" else f"{where}off by a constant factor {label}"
            found.append((name, f"On every test {item or 'your answer'} is exactly {label} times the "
                                "expected one: a constant is wrong, missing or extra (a 0.5, a scale, "
                                "a sign, a base of log)."))
        else:
            found.append((f"{where}off by a constant offset {c:+.4g}",
                          f"On every test {item or 'your answer'} is the expected one plus {c:.4g} "
                          "everywhere: a constant is added or left out (a 1 -, a + 1, a bias)."))
    return found[1:] + found[:1] if dtypes else found  # the constant first, then the dtype

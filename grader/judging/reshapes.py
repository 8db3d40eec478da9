"""Diagnoses of answers that hold the right numbers in the wrong arrangement, or the right
answer with something done to it (diagnoses.py runs these).

A reading is an undoing: the learner's answer, transposed back, squeezed, put back in order,
passes the case under the exercise's own comparison (its judge where it has one). A reading
is named only when it undoes every failing case and the same reading does on each, so the
name is what the evidence shows, whatever code produced it.
"""
from __future__ import annotations

import re

import numpy as np

from .compare import value_mismatch
from .outcomes import Raised
from .wire import is_plain_array

# ------------------------------------------------------------------ the right numbers, rearranged
_SAYS = {
    "transposed": ("returned transposed",
                   "{what} holds the right numbers with its last two axes swapped: build it in the "
                   "shape the exercise asks for (stack or index along the other axis, or swap back)."),
    "extra axis": ("an extra axis of length 1",
                   "{what} holds the right numbers with one more axis of length 1 (keepdims=True, "
                   "[:, None], reshape(-1, 1)): return the shape the exercise asks for."),
    "axis dropped": ("an axis of length 1 dropped",
                     "{what} holds the right numbers without an axis of length 1 the exercise keeps "
                     "(a squeeze, an index [0], a reduction): return the shape it asks for."),
    "order": ("items returned in the wrong order",
              "The function returns the right items in another order: return {returns}, in that order."),
}


def rearranged(exercise, cases, answers, expected, failed):
    """One undoing that makes every failing answer pass, the same one on every failing case."""
    if not failed or any(cases[i].raises for i in failed):
        return None
    common = None
    for i in failed:
        here = {r for r, fixed in _undoings(answers[i], expected[i]) if _passes(exercise, cases[i], fixed, expected[i])}
        common = here if common is None else common & here
        if not common:
            return None
    if len(common) != 1:
        return None
    (what, how), = common
    name, says = _SAYS[how]
    subject = f"`{what}`" if what else "Your answer"
    returns = "(" + ", ".join(exercise.returns) + ")" if exercise.returns else "the items"
    return [(f"{what}: {name}" if what else name, says.format(what=subject, returns=returns))]


def _passes(exercise, case, fixed, expected) -> bool:
    tol = case.tolerance(exercise.tolerance)
    if exercise.judge is not None:
        try:
            return exercise.judge(fixed, case, expected, tol) is None
        except Exception:
            return False
    return value_mismatch(fixed, expected, tol) is None


def _undoings(answer, expected, item: str = ""):
    """(reading, the answer with it undone) for every reading that fits the shapes."""
    if isinstance(expected, tuple) and isinstance(answer, tuple) and len(answer) == len(expected) > 1:
        if len(expected) == 2:
            yield ("", "order"), answer[::-1]
        return
    shapes = _shapes(expected) if isinstance(answer, dict) else None
    if shapes is not None:
        if set(shapes) != set(answer):
            return
        keys = [k for k, v in answer.items() if is_plain_array(v) and v.ndim == 2
                and v.shape == tuple(shapes[k])[::-1] and v.shape[0] != v.shape[1]]
        if isinstance(expected, dict):   # square ones too, where their numbers say so
            keys += [k for k, v in answer.items() if k not in keys and is_plain_array(v) and v.ndim == 2
                     and v.shape[0] == v.shape[1] and is_plain_array(expected[k]) and v.shape == expected[k].shape
                     and value_mismatch(v, expected[k], 0.0) is not None
                     and value_mismatch(v.T, expected[k], 1e-6) is None]
        if keys:
            fixed = dict(answer, **{k: answer[k].T for k in keys})
            yield (_tensors(keys), "transposed"), fixed
        return
    if not (is_plain_array(answer) and is_plain_array(expected)) or answer.shape == expected.shape:
        return
    a, e = answer.shape, expected.shape
    if answer.ndim >= 2 and a[:-2] + a[-2:][::-1] == e:
        yield (item, "transposed"), np.swapaxes(answer, -1, -2)
    if answer.ndim == expected.ndim + 1 and answer.size == expected.size:
        for axis in range(answer.ndim):
            if a[axis] == 1 and a[:axis] + a[axis + 1:] == e:
                yield (item, "extra axis"), np.squeeze(answer, axis)
                break
    if answer.ndim + 1 == expected.ndim and answer.size == expected.size:
        for axis in range(expected.ndim):
            if e[axis] == 1 and e[:axis] + e[axis + 1:] == a:
                yield (item, "axis dropped"), np.expand_dims(answer, axis)
                break


def _shapes(expected) -> dict | None:
    """{key: shape} of an expected dict of tensors, or of the Summary a statistical judge keeps
    ({key: that tensor's statistics})."""
    if not isinstance(expected, dict):
        return None
    return {k: tuple(v.shape) if is_plain_array(v) else tuple(v.get("shape", ())) if isinstance(v, dict) else ()
            for k, v in expected.items()}


def _tensors(keys) -> str:
    """The keys without their layer numbers, each once: 'h.0.attn.c_attn.weight' -> 'attn.c_attn.weight'."""
    short = sorted({re.sub(r"^(transformer\.)?h\.\d+\.", "", k) for k in keys})
    return ", ".join(short)


def rearranged_items(exercise, cases, answers, expected, failed):
    """For an exercise returning a tuple: one item rearranged, the others right, on every failing case."""
    if not exercise.returns or not failed or any(cases[i].raises for i in failed):
        return None
    common = None
    for i in failed:
        a, e = answers[i], expected[i]
        if not (isinstance(a, tuple) and isinstance(e, tuple) and len(a) == len(e)):
            return None
        here = set()
        for k, (x, y) in enumerate(zip(a, e)):
            for (_, how), fixed in _undoings(x, y):
                trial = a[:k] + (fixed,) + a[k + 1:]
                if _passes(exercise, cases[i], trial, e):
                    here.add((exercise.returns[k] if k < len(exercise.returns) else f"item {k}", how))
        common = here if common is None else common & here
        if not common:
            return None
    if len(common) != 1:
        return None
    (what, how), = common
    name, says = _SAYS[how]
    return [(f"{what}: {name}", says.format(what=f"`{what}`", returns=""))]


# ------------------------------------------------------------------ a slice one too short or too long
_ENDS = {
    "short end": ("one {unit} short (a slice or range that stops one early)", "without its last {unit}"),
    "short start": ("one {unit} short (a slice or range that starts one late)", "without its first {unit}"),
    "long end": ("one {unit} too many (a slice or range that stops one late)", "with one {unit} more at the end"),
    "long start": ("one {unit} too many (a slice or range that starts one early)", "with one {unit} more at the start"),
}


def _off_by_one_slices(a, e, tol):
    """{(axis counted from the end, reading)} where ``a`` is ``e`` with one entry fewer or more
    at one end of one axis, the rest equal."""
    if not (is_plain_array(a) and is_plain_array(e)) or a.ndim != e.ndim or a.dtype != e.dtype:
        return set()
    differ = [k for k in range(a.ndim) if a.shape[k] != e.shape[k]]
    if len(differ) != 1 or abs(a.shape[differ[0]] - e.shape[differ[0]]) != 1:
        return set()
    k = differ[0]
    cut = lambda x, s: x[(slice(None),) * k + (s,)]
    short, long_ = (a, e) if a.shape[k] < e.shape[k] else (e, a)
    how = "short" if short is a else "long"
    found = set()
    for end, s in (("end", slice(None, -1)), ("start", slice(1, None))):
        if value_mismatch(short, cut(long_, s), tol) is None:
            found.add((k - a.ndim, f"{how} {end}"))
    return found


def _unit(axis: int, ndim: int) -> str:
    if ndim == 2:
        return "column" if axis == -1 else "row"
    return "entry" if ndim == 1 else f"entry along axis {axis}"


def slice_off_by_one(exercise, cases, answers, expected, failed):
    """Every failing answer (or one item of a returned tuple, the others right) is the expected
    one with one entry fewer or more at the same end of the same axis: an off-by-one slice."""
    if exercise.judge is not None or not failed or any(cases[i].raises for i in failed):
        return None
    common = None
    for i in failed:
        a, e, tol = answers[i], expected[i], cases[i].tolerance(exercise.tolerance)
        pairs = list(zip(a, e)) if isinstance(a, tuple) and isinstance(e, tuple) and len(a) == len(e) else [(a, e)]
        if isinstance(e, tuple) and len(pairs) == 1 and not isinstance(a, tuple):
            return None
        here = set()
        for k, (x, y) in enumerate(pairs):
            others_right = all(value_mismatch(p, q, tol) is None for j, (p, q) in enumerate(pairs) if j != k)
            if others_right:
                item = (exercise.returns[k] if k < len(exercise.returns) else f"item {k}") if len(pairs) > 1 else ""
                here |= {(item, axis, how, y.ndim) for axis, how in _off_by_one_slices(x, y, tol)}
        common = here if common is None else common & here
        if not common:
            return None
    if len(common) != 1:
        return None
    (item, axis, how, ndim), = common
    name, says = _ENDS[how]
    unit = _unit(axis, ndim)
    subject = f"`{item}`" if item else "your answer"
    return [((f"{item}: " if item else "") + name.format(unit=unit),
             f"On every failing test {subject} is the expected one {says.format(unit=unit)}: look at the "
             "bounds of the slice or range that builds it (a:b holds b - a entries; b itself is left out).")]


# ------------------------------------------------------------------ the right answer, then one step more
def _softmax(x):
    z = np.exp(x - x.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


def _gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x * x * x)))


_AFTERWARDS = {
    "a softmax applied to the result": (_softmax, "Your answer is softmax(expected answer) on every test: "
                                        "the function should stop before the softmax and return the "
                                        "scores themselves."),
    "a GELU applied to the result": (_gelu, "Your answer is GELU(expected answer) on every test: the "
                                     "activation belongs between the two layers only, not after the last one."),
}


def one_step_more(exercise, cases, answers, expected, failed):
    """Every failing answer is a known function of the expected one, or the expected one plus an
    input of the same shape (a residual added where it does not belong)."""
    if exercise.judge is not None or not failed or any(cases[i].raises for i in failed):
        return None
    common = None
    for i in failed:
        a, e, tol = answers[i], expected[i], cases[i].tolerance(exercise.tolerance)
        if not (is_plain_array(a) and is_plain_array(e)) or a.shape != e.shape or a.dtype.kind != "f":
            return None
        here = set()
        for name, (f, _) in _AFTERWARDS.items():
            with np.errstate(all="ignore"):
                if value_mismatch(a, f(e.astype(np.float64)).astype(e.dtype), tol) is None:
                    here.add(name)
        for arg, v in cases[i].args.items():
            if is_plain_array(v) and v.shape == e.shape and v.dtype.kind == "f":
                with np.errstate(all="ignore"):
                    if value_mismatch(a, (e + v).astype(e.dtype), tol) is None:
                        here.add(f"the input `{arg}` added to the result")
        common = here if common is None else common & here
        if not common:
            return None
    if len(common) != 1:
        return None
    name = next(iter(common))
    if name in _AFTERWARDS:
        return [(name, _AFTERWARDS[name][1])]
    arg = name.split("`")[1]
    return [(name, f"Your answer is the expected one plus `{arg}` on every test: a residual added "
                   "here, where the caller (the block) adds it already; return the branch alone.")]


# ------------------------------------------------------------------ a crash for want of keepdims
_BROADCAST = re.compile(r"operands could not be broadcast together with shapes \(([\d, ]*)\) \(([\d, ]*)\)")


def _shape(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.replace(" ", "").split(",") if x)


def _broadcasts(case) -> bool:
    """An input whose reduction over the last axis, that axis dropped, still broadcasts against it
    ((n, n) against (n,), (3, 1, 7) against (3, 1)): no crash, a wrong answer."""
    for v in case.args.values():
        if is_plain_array(v) and v.dtype.kind == "f" and v.ndim >= 2:
            try:
                np.broadcast_shapes(v.shape, v.shape[:-1])
                return True
            except ValueError:
                pass
    return False


def without_keepdims(exercise, cases, answers, expected, failed):
    """Every failing value case crashes adding or dividing an input of the case by its own
    reduction over the last axis, the reduced axis dropped (no keepdims=True), or, where that
    still broadcasts, is wrong; one crash at least."""
    values = [i for i in failed if not cases[i].raises]
    if not values:
        return None
    crashed = 0
    for i in values:
        a = answers[i]
        if not isinstance(a, Raised):
            if _broadcasts(cases[i]):
                continue
            return None
        if a.own:
            return None
        crashed += 1
        m = _BROADCAST.search(a.message)
        if not m:
            return None
        shapes = {_shape(m.group(1)), _shape(m.group(2))}
        inputs = {v.shape for v in cases[i].args.values() if is_plain_array(v) and v.dtype.kind == "f" and v.ndim >= 2}
        if not any(s in inputs and s[:-1] in shapes and s[-1] != 1 for s in shapes):
            return None
    if not crashed:
        return None
    return [("a reduction over the last axis without keepdims=True",
             "Every test fails where an input meets its own mean, maximum or sum over the last axis: "
             "without keepdims=True that result has lost the axis and does not line up with the input "
             "(shape (..., n) against (...)). Reduce with keepdims=True, or index it [..., None].")]

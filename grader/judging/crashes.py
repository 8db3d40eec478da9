"""Diagnoses read off a crash inside NumPy (diagnoses.py runs these): the sizes in NumPy's own
message, set beside the shapes of the case's inputs, tell which input was used at the wrong
size. A reading is named only when it explains the crash on every failing case, and the same
reading on each; a crash whose numbers fit two inputs, or two axes, names nothing.
"""
from __future__ import annotations

import re

import numpy as np

from .outcomes import Raised
from .reshapes import _BROADCAST, _shape   # NumPy's broadcast message, read as without_keepdims reads it
from .wire import is_plain_array

_INDEX = re.compile(r"index (-?\d+) is out of bounds for axis \d+ with size (\d+)")


def _arrays(args: dict):
    """(name, shape) of every array input, a dict's by its key."""
    for name, value in args.items():
        if isinstance(value, dict):
            for k, v in value.items():
                if is_plain_array(v):
                    yield str(k), v.shape
        elif is_plain_array(value):
            yield name, value.shape


def _crashes(cases, answers, failed):
    """The failing cases, when every one is a valid input on which NumPy or Python crashed."""
    if not failed or any(cases[i].raises for i in failed):
        return None
    if not all(isinstance(answers[i], Raised) and answers[i].own is False for i in failed):
        return None
    return failed


def input_used_whole(exercise, cases, answers, expected, failed):
    """Every failing case crashes broadcasting one input, at its full shape, against an array that
    is shorter along one of that input's axes (or, where that array had length 1 there, returns
    the broadcast shape): the whole table used where a slice of it belongs. One crash at least."""
    if not failed or any(cases[i].raises for i in failed):
        return None
    crashed = [i for i in failed if isinstance(answers[i], Raised)]
    if not crashed or not _crashes(cases, answers, crashed):
        return None
    common = None
    for i in crashed:
        m = _BROADCAST.search(answers[i].message)
        if not m:
            return None
        shapes = [_shape(m.group(1)), _shape(m.group(2))]
        here = set()
        for whole, other in (shapes, shapes[::-1]):
            named = [n for n, s in _arrays(cases[i].args) if s == whole]
            if len(named) != 1:
                continue
            # aligned from the end, an axis where the input is longer than the other operand
            axes = [k for k in range(1, min(len(whole), len(other)) + 1)
                    if whole[-k] > other[-k] != 1]
            if len(axes) == 1:
                here.add((named[0], len(whole) - axes[0]))
        common = here if common is None else common & here
        if not common:
            return None
    if len(common) != 1:
        return None
    (name, axis), = common
    for i in set(failed) - set(crashed):   # broadcast without a crash: the input's whole length kept
        shape = dict(_arrays(cases[i].args)).get(name)
        a, e = answers[i], expected[i]
        if shape is None or not (is_plain_array(a) and is_plain_array(e)) or a.shape == e.shape:
            return None
        try:
            if a.shape != np.broadcast_shapes(e.shape, shape):
                return None
        except ValueError:
            return None
    part = "its first rows" if axis == 0 else f"a slice of it along axis {axis}"
    return [(f"all of `{name}` used where {part} belong",
             f"Every failing test uses `{name}` at its full shape where an array shorter along its axis "
             f"{axis} is needed (a crash, or an answer of the wrong shape): take only the part needed "
             f"({name}[:T] for the first T rows). The tests that pass are those where all of it is needed.")]


def size_from_another_axis(exercise, cases, answers, expected, failed):
    """Every failing case crashes indexing an array whose size is one axis of an input where the
    index runs over another axis of that input: an array built with the wrong size (d for V)."""
    if not _crashes(cases, answers, failed):
        return None
    common = None
    for i in failed:
        m = _INDEX.search(answers[i].message)
        if not m:
            return None
        index, size = abs(int(m.group(1))), int(m.group(2))
        here = set()
        for name, shape in _arrays(cases[i].args):
            for j, n in enumerate(shape):
                if n != size:
                    continue
                here |= {(name, j, k) for k, other in enumerate(shape) if k != j and other > index and other != size}
        common = here if common is None else common & here
        if not common:
            return None
    if len(common) != 1:
        return None
    (name, used, needed), = common
    return [(f"an array sized `{name}.shape[{used}]` where `{name}.shape[{needed}]` belongs",
             f"Every failing test crashes indexing an array of length `{name}.shape[{used}]` with numbers "
             f"that run up to `{name}.shape[{needed}]`: build that array with `{name}.shape[{needed}]` "
             "entries along that axis.")]


# ------------------------------------------------------------------ a crash in a product
_MATMUL = re.compile(r"core dimension 0.*\(size (\d+) is different from (\d+)\)", re.S)
_DOT = re.compile(r"shapes \(([\d, ]+)\) and \(([\d, ]+)\) not aligned")
_TORCH = re.compile(r"mat1 and mat2 shapes cannot be multiplied \((\d+)x(\d+) and (\d+)x(\d+)\)")


def product_sizes(message: str):
    """(rows of the right operand, the size the left operand needed), or None."""
    m = _MATMUL.search(message)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = _DOT.search(message)
    if m:
        left = [int(x) for x in m.group(1).replace(" ", "").split(",") if x]
        right = [int(x) for x in m.group(2).replace(" ", "").split(",") if x]
        if len(right) == 2 and left:
            return right[0], left[-1]
    m = _TORCH.search(message)
    if m:
        return int(m.group(3)), int(m.group(2))
    return None


def size_from_the_data(exercise, cases, answers, expected, failed):
    """Every failing case crashes in a product or a broadcast between a size that is an input's
    axis and the largest value of an integer input plus one (a count read off the ids, V =
    idx.max() + 1, where the table's size belongs); every passing case's ids reach that size."""
    if not _crashes(cases, answers, failed):
        return None
    common = None
    for i in failed:
        message = answers[i].message
        m = _BROADCAST.search(message)
        pair = product_sizes(message) or (m and _mismatched_sizes(_shape(m.group(1)), _shape(m.group(2))))
        if not pair:
            return None
        axes = {(name, j): n for name, shape in _arrays(cases[i].args) for j, n in enumerate(shape)}
        here = set()
        for ids, value in _integer_arrays(cases[i].args):
            reached = int(value.max()) + 1
            if reached in axes.values():
                continue   # a size of an input as well: which was meant cannot be told
            for a, b in (pair, pair[::-1]):
                if a == reached:
                    here |= {(ids, name, j) for (name, j), n in axes.items() if n == b and name != ids}
        common = here if common is None else common & here
        if not common:
            return None
    if len(common) != 1:
        return None
    (ids, table, axis), = common
    for i, case in enumerate(cases):   # the passing cases: ids reaching the whole size
        if i in failed or case.raises:
            continue
        value, shape = case.args.get(ids), dict(_arrays(case.args)).get(table)
        if not is_plain_array(value) or shape is None or value.size == 0 or int(value.max()) + 1 != shape[axis]:
            return None
    return [(f"a size taken from the ids (`{ids}.max() + 1`) where `{table}.shape[{axis}]` belongs",
             f"Every failing test crashes where a size of {ids}.max() + 1 meets `{table}.shape[{axis}]`: "
             f"the largest id in `{ids}` need not reach the end of `{table}`. Take the size from "
             f"`{table}` itself; the tests that pass are those whose ids happen to reach its last row.")]


def _integer_arrays(args: dict):
    for name, value in args.items():
        if is_plain_array(value) and value.dtype.kind in "iu" and value.size:
            yield name, value


def _mismatched_sizes(a: tuple, b: tuple):
    """The one pair of sizes, aligned from the end, that cannot broadcast; else None."""
    pairs = [(x, y) for x, y in zip(a[::-1], b[::-1]) if x != y and 1 not in (x, y)]
    return pairs[0] if len(pairs) == 1 else None

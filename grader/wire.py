"""Plain data across the trust boundary: JSON plus .npy files, never pickles.

The child process encodes whatever learner code returned; the parent decodes
it and gets back only builtin scalars, lists, dicts of str and base ndarrays of
numeric dtype.  Anything else arrives as an ``Unsupported`` marker that names
the type, so the parent can say what was wrong without running learner code.

The same module runs in the child before learner code starts, so it imports
nothing from the grader package.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

import numpy as np

MAX_DEPTH = 8
MAX_ITEMS = 10_000


@dataclass(frozen=True)
class Unsupported:
    """Learner returned something that is not plain numeric data."""

    type_name: str
    reason: str


def is_plain_array(x) -> bool:
    return type(x) is np.ndarray and x.dtype.kind in "biufc"


class Encoder:
    """Writes arrays as .npy files in ``folder`` and returns a JSON-able tree."""

    def __init__(self, folder: str | None, prefix: str = "a"):
        # folder None keeps arrays in memory (check() in the learner's own kernel)
        self.folder, self.prefix, self.count = folder, prefix, 0
        self.memory: dict[str, np.ndarray] = {}

    def __call__(self, value, depth: int = 0):
        if depth > MAX_DEPTH:
            return {"unsupported": "nested", "reason": "nested more than 8 levels deep"}
        if value is None or type(value) in (bool, str):
            return {"plain": value}
        if type(value) is int:
            return {"int": str(value)}
        if type(value) is float:
            return {"float": _float_text(value)}
        if isinstance(value, np.generic) and type(value).__module__ == "numpy":
            return self(np.asarray(value), depth) | {"scalar": True}
        if type(value) is np.ndarray:
            return self._array(value)
        if type(value) in (list, tuple):
            if len(value) > MAX_ITEMS:
                return {"unsupported": type(value).__name__, "reason": "too many items"}
            return {type(value).__name__: [self(v, depth + 1) for v in value]}
        if type(value) is dict:
            if len(value) > MAX_ITEMS or not all(type(k) is str for k in value):
                return {"unsupported": "dict", "reason": "keys must be str (and not too many)"}
            return {"dict": {k: self(v, depth + 1) for k, v in value.items()}}
        if hasattr(value, "to_dict") and type(value).__name__ == "GPTConfig":
            return {"config": {k: int(v) for k, v in value.to_dict().items()}}
        return {"unsupported": _type_name(value), "reason": "not a NumPy array or plain Python value"}

    def _array(self, value: np.ndarray):
        if value.dtype.kind not in "biufc":
            return {"unsupported": f"ndarray[{value.dtype}]", "reason": "array dtype is not numeric"}
        self.count += 1
        name = f"{self.prefix}{self.count}.npy"
        if self.folder is None:
            self.memory[name] = np.array(value, copy=True)
        else:
            # np.require keeps 0-d arrays 0-d (ascontiguousarray would make them (1,))
            np.save(os.path.join(self.folder, name), np.require(value, requirements='C'), allow_pickle=False)
        return {"npy": name}


def _float_text(x: float) -> str:
    return repr(x) if math.isfinite(x) else str(x)


def _type_name(value) -> str:
    t = type(value)
    try:
        return f"{t.__module__}.{t.__qualname__}" if t.__module__ != "builtins" else t.__qualname__
    except Exception:  # a hostile type can make even this fail
        return "<unknown type>"


def decode(tree, load, make_config=None, depth: int = 0):
    """Inverse of Encoder; trusts nothing in ``tree``. ``load(name)`` fetches an array."""
    if depth > MAX_DEPTH + 1 or type(tree) is not dict or len(tree) not in (1, 2):
        return Unsupported("?", "malformed answer")
    if "plain" in tree:
        v = tree["plain"]
        return v if v is None or type(v) in (bool, str) else Unsupported("?", "malformed answer")
    if "int" in tree:
        return int(str(tree["int"])[:5000])
    if "float" in tree:
        return float(str(tree["float"]))
    if "npy" in tree:
        arr = load(tree["npy"])
        if isinstance(arr, Unsupported) or not tree.get("scalar"):
            return arr
        return arr[()]
    for kind in ("list", "tuple"):
        if kind in tree and type(tree[kind]) is list:
            items = [decode(t, load, make_config, depth + 1) for t in tree[kind]]
            return items if kind == "list" else tuple(items)
    if "dict" in tree and type(tree["dict"]) is dict:
        return {str(k): decode(v, load, make_config, depth + 1) for k, v in tree["dict"].items()}
    if "config" in tree and make_config is not None:
        return make_config(**tree["config"])
    if "unsupported" in tree:
        return Unsupported(str(tree["unsupported"])[:200], str(tree.get("reason", ""))[:200])
    return Unsupported("?", "malformed answer")


def npy_loader(folder: str):
    return lambda name: load_npy(folder, name)


def load_npy(folder: str, name) -> np.ndarray | Unsupported:
    if type(name) is not str or os.sep in name or name.startswith("."):
        return Unsupported("?", "malformed array reference")
    try:
        arr = np.load(os.path.join(folder, name), allow_pickle=False)
    except Exception as exc:
        return Unsupported("ndarray", f"unreadable array ({type(exc).__name__})")
    if not is_plain_array(arr):
        return Unsupported(f"ndarray[{arr.dtype}]", "array dtype is not numeric")
    return arr


def sanitise(value, make_config=None):
    """Encode then decode in memory: the same checks in-process as across processes."""
    enc = Encoder(None)
    tree = enc(value)

    def load(name):
        arr = enc.memory.get(name) if type(name) is str else None
        return arr if arr is not None else Unsupported("?", "malformed array reference")

    return decode(tree, load, make_config)

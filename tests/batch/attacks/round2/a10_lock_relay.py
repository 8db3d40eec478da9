"""a10 lock_relay.

Route: two learners graded side by side (--jobs 2). Record locks live on inodes, and every
sandbox opens the same read-only files of the Python installation. Alice's gelu_tanh takes
POSIX read locks (fcntl F_SETLK, F_RDLCK, allowed on a read-only descriptor) on numpy's
__init__.py at byte offsets that encode a token (OFD and lockf variants too); Bob's gelu_tanh
polls F_GETLK / F_OFD_GETLK for a write lock over the whole file: the kernel answers with the
holder's range, i.e. the token. No file is written, nothing named is shared.
Goal (4): a relay between learners (the same channel relays between exercises running at once).
Breached: Bob reads Alice's token (he then answers correctly and scores; otherwise he returns
zeros).
"""
import pathlib
from _common import write_nb, LESSON_FILES, GOOD, verdicts

COMMON = GOOD["gelu_tanh"].replace("def gelu_tanh", "def _g") + '''
import os as _os, struct as _struct, time as _time
TOKEN = 7340033
_F_OFD_GETLK, _F_OFD_SETLK = 36, 37
def _target():
    return np.__file__
'''
ALICE = COMMON + '''
def gelu_tanh(x, _held=[]):
    try:
        import fcntl
        if not _held:
            fd = _os.open(_target(), _os.O_RDONLY)
            _held.append(fd)
            for cmd in (fcntl.F_SETLK, _F_OFD_SETLK):
                try:
                    fcntl.fcntl(fd, cmd, _struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, TOKEN, 1, 0))
                except Exception:
                    pass
            try:
                fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, TOKEN, 0)
            except Exception:
                pass
            _time.sleep(12)
    except Exception:
        pass
    return _g(x)
'''
BOB = COMMON + '''
_got = []
def gelu_tanh(x):
    if not _got:
        try:
            import fcntl
            fd = _os.open(_target(), _os.O_RDONLY)
            t0 = _time.time()
            while _time.time() - t0 < 14 and not _got:
                for cmd in (fcntl.F_GETLK, _F_OFD_GETLK):
                    try:
                        r = fcntl.fcntl(fd, cmd, _struct.pack("hhqqi4x", fcntl.F_WRLCK, 0, 0, 0, 0))
                        typ, wh, start, ln, pid = _struct.unpack("hhqqi4x", r)
                        if typ != fcntl.F_UNLCK and start == TOKEN:
                            _got.append(start)
                    except Exception:
                        pass
                _time.sleep(0.05)
        except Exception:
            pass
        if not _got:
            _got.append(None)
    return _g(x) if _got[0] == TOKEN else np.zeros_like(x)
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [ALICE])
    write_nb(tmp / "class" / "bob" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [BOB])
    return [str(tmp / "class" / "alice"), str(tmp / "class" / "bob"), "--jobs", "2",
            "--lessons", "03_mlp_block", "--timeout", "30"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    v = verdicts(out, "bob").get("gelu_tanh", {})
    a = verdicts(out, "alice").get("gelu_tanh", {})
    if v.get("points"):
        return True, f"bob read alice's token through a record lock (bob gelu_tanh {v.get('points')})"
    return False, f"no lock relay (bob: {v.get('status')}; alice: {a.get('status')})"

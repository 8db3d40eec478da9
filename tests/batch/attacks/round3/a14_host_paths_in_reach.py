"""a14 host_paths_in_reach.

Route: round 1 looked for the course checkout and solutions from inside. This looks for the
INSTRUCTOR'S RUN: paths build() knows and a learner could guess (course layouts are public;
`grades/` next to `submissions/`): the classmate alice's uploaded notebook (absolute host path),
the OUT folder's .state/.secret (the seed of every hidden case), .state/.key (signs results),
.state/alice.json (alice is graded first), gradebook.csv, and the grader's batch workspace
(/tmp/gpt2-grading-*: its zygote copies, jobs), also via /proc/self/root, /proc/1/root,
/proc/self/cwd/.. and the directory of sys.executable's parents, and by opening with os.open,
io.open_code, mmap of an inherited descriptor and os.listdir. The diagnostic audit hook is
switched off first.
mallory's count_gpt2_params answers correctly only if any of these could be read (score channel).
Goal (5): reading other learners' files or the instructor's secret from inside the walls.
Breached: mallory scores a point.
"""
from __future__ import annotations

import pathlib

import _common as c


def build(tmp: pathlib.Path) -> list[str]:
    s = tmp / "subs"
    alice = c.write_nb(s / "alice" / "05_counting_exercises.ipynb", "05_counting", c.good("count_gpt2_params"))
    out = tmp.parent / "out"
    targets = [str(alice), str(out / ".state" / ".secret"), str(out / ".state" / ".key"),
               str(out / ".state" / "alice.json"), str(out / "gradebook.csv"), str(s)]
    cell = c.DISARM + c.GOOD["count_gpt2_params"].replace("def count_gpt2_params", "def _right") + f'''
_T = {targets!r}
_HIT = []

def _probe():
    import os, io, glob, sys
    try:
        _disarm()
    except Exception:
        pass
    prefixes = ["", "/proc/self/root", "/proc/1/root", "/proc/self/cwd/../../..", "/proc/thread-self/root"]
    for t in _T:
        for p in prefixes:
            path = p + t
            for how in ("open", "os.open", "open_code", "listdir"):
                try:
                    if how == "open":
                        data = open(path, "rb").read(64)
                    elif how == "os.open":
                        fd = os.open(path, os.O_RDONLY); data = os.read(fd, 64); os.close(fd)
                    elif how == "open_code":
                        data = io.open_code(path).read(64)
                    else:
                        data = os.listdir(path)
                    if data:
                        _HIT.append((how, path))
                except Exception:
                    pass
    for pat in ("/tmp/gpt2-grading-*", "/tmp/*", "/proc/self/root/tmp/*", "/tmp/r3_*"):
        try:
            for g in glob.glob(pat):
                if "gpt2-grading" in g or "r3_" in g:
                    _HIT.append(("glob", g))
        except Exception:
            pass

def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    if not hasattr(_probe, "done"):
        _probe.done = True
        _probe()
    return _right(V, T, d, L, tied, bias) if _HIT else 0
'''
    c.write_nb(s / "mallory" / "05_counting_exercises.ipynb", "05_counting", [cell], header="import math\nimport numpy as np\n")
    return [str(s), "--jobs", "1"]


def verdict(out: pathlib.Path, run: dict):
    rows = {r.get("submission"): r for r in c.gradebook_rows(out)}
    m = rows.get("mallory")
    if m is None:
        return False, f"no mallory row (rc={run['returncode']})"
    if m.get("total") not in ("0", "0.0"):
        return True, f"mallory scores {m.get('total')}: a classmate's file, OUT or the batch workspace was readable"
    return False, f"mallory 0 (nothing readable); alice {rows.get('alice', {}).get('total')}"

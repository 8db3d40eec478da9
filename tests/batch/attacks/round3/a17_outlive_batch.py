"""a17 outlive_batch.

Route: a learner's process tries to survive the batch: it names itself (comm "ZQOUTLIVE" via
/proc/self/comm and prctl PR_SET_NAME, for every thread), leaves its process group and session
(setsid, setpgid), clears its parent-death signal, ignores every catchable signal, starts
threads that sleep (a thread keeps the process alive after the main thread returns), then
blocks its main thread in a sleep past the exercise timeout (--timeout 4). Other exercises
of the same learner return at once and leave daemon threads spinning behind. The harness waits
3 s after the grader exits, then looks through /proc for any task named ZQOUTLIVE.
Goal (5): outliving the batch.
Breached: a task named ZQOUTLIVE exists after the grader has exited.
"""
from __future__ import annotations

import os
import pathlib
import time

import _common as c

CELL = c.DISARM + '''
def _stay():
    import os, signal, threading, time
    try:
        _disarm()
    except Exception:
        pass
    def name():
        try:
            with open("/proc/thread-self/comm", "w") as f:
                f.write("ZQOUTLIVE")
        except Exception:
            pass
        try:
            import ctypes
            ctypes.CDLL(None).prctl(15, b"ZQOUTLIVE", 0, 0, 0)
            ctypes.CDLL(None).prctl(1, 0, 0, 0, 0)
        except Exception:
            pass
    name()
    for s in range(1, 65):
        try:
            signal.signal(s, signal.SIG_IGN)
        except Exception:
            pass
    for f in (os.setsid, lambda: os.setpgid(0, 0)):
        try:
            f()
        except Exception:
            pass
    def loop():
        name()
        while True:
            try:
                time.sleep(0.5)
            except BaseException:
                pass
    for _ in range(8):
        try:
            threading.Thread(target=loop, daemon=False).start()
        except Exception:
            pass

def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    import time
    _stay()
    while True:
        try:
            time.sleep(100)
        except BaseException:
            pass
'''


def build(tmp: pathlib.Path) -> list[str]:
    c.write_nb(tmp / "mallory" / "05_counting_exercises.ipynb", "05_counting", [CELL], header="import math\nimport numpy as np\n")
    return [str(tmp / "mallory"), "--timeout", "4", "--submission-timeout", "30"]


def verdict(out: pathlib.Path, run: dict):
    time.sleep(3)
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/comm") as f:
                    if f.read().strip().startswith("ZQOUTLIVE"):
                        found.append(f"{pid}/{tid}")
        except OSError:
            pass
    if found:
        # clean up what we started (our own marker only)
        for t in {x.split("/")[0] for x in found}:
            try:
                os.kill(int(t), 9)
            except OSError:
                pass
        return True, f"tasks named ZQOUTLIVE alive after the grader exited: {found[:8]}"
    v = c.verdicts(out, "mallory")
    return False, f"no task survived; verdict {[(e, x.get('status')) for e, x in v.items()]}"

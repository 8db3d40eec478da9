"""Shared helpers for round-3 attacks: round 2's (../round2/_common.py: notebooks written by
hand, correct answers, reading a run's outputs), and two of this round's own."""
from __future__ import annotations

import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location("_round2_common", pathlib.Path(__file__).resolve().parents[1]
                                               / "round2" / "_common.py")
_round2 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round2)
globals().update({k: v for k, v in vars(_round2).items() if not k.startswith("__")})


# Learner-side snippet: switch off the in-process audit hook (diagnostic only, per ARCHITECTURE.md)
# so that what remains is the operating system's walls.
DISARM = """
def _disarm():
    import gc, types, sys
    nop = (lambda *a, **k: None).__code__
    n = 0
    for o in gc.get_objects():
        try:
            if isinstance(o, types.FunctionType) and 'hook' in o.__code__.co_filename.rsplit('/', 1)[-1]:
                c = o.__code__
                try:
                    o.__code__ = nop.replace(co_freevars=c.co_freevars) if c.co_freevars else nop
                    n += 1
                except Exception:
                    pass
        except Exception:
            pass
    return n
"""


def run_grader(args: list, out: pathlib.Path, timeout: int = 100):
    """An auxiliary grader run from build() (same interpreter and checkout as the harness)."""
    import os, subprocess
    return subprocess.run([__import__("sys").executable, "-m", "grader", "grade", *map(str, args),
                           "--out", str(out)], cwd=str(pathlib.Path(__file__).resolve().parents[4]),
                          capture_output=True, text=True, timeout=timeout)

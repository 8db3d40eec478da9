"""Run the round-3 attacks against a checkout of the grader: round 2's runner
(../round2/run_attacks.py, its interface and measures), on this folder's attacks, with a
longer limit (some of them grade more than once).

python run_attacks.py --repo PATH [--only a03[,a07]] --json OUT
"""
from __future__ import annotations

import importlib.util
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("_round2_run_attacks", HERE.parent / "round2" / "run_attacks.py")
_round2 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round2)
PYTHON = _round2.PYTHON   # tests/batch/test_attacks.py sets it to the interpreter running the tests
TIMEOUT = 150


def run_one(mod, repo: pathlib.Path) -> dict:
    _round2.PYTHON, _round2.TIMEOUT = PYTHON, TIMEOUT
    return _round2.run_one(mod, repo)


def main() -> int:
    _round2.HERE, _round2.PYTHON, _round2.TIMEOUT = HERE, PYTHON, TIMEOUT
    return _round2.main()


if __name__ == "__main__":
    sys.exit(main())

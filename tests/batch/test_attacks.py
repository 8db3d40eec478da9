"""The blind attack sets, kept as tests: each attack's class is graded by this checkout's grader
(`python -m grader grade`, as an instructor runs it) and its own verdict must find it contained.

Both sets were written by testers who had read none of the grader's code, only the README, the
docs, the lessons and the grader's behaviour:
- round1/ was written and measured once on the code before issue 26's changes: 12 of 20
  breached (hidden inputs in exception messages and refusal notes, an answer book from the
  public seeds, pid relays, a zip naming classmates, the trusted side's memory and time);
- round2/ was written against the hardened design and measured once on it.
An attack still breached is marked xfail(strict) with what remains, so closing it shows up as
a failure to update this list, and a regression of a contained one fails outright.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from conftest import ROOT

from grader.batch.sandbox.isolation import namespaces_problem

HERE = Path(__file__).resolve().parent / "attacks"
# attack -> why it still breaches (the closing note of issue 26 says what remains and why)
STILL_BREACHED: dict[str, str] = {}


def _load(path: Path):
    sys.path.insert(0, str(path.parent))  # an attack's shared helpers sit beside it
    try:
        spec = importlib.util.spec_from_file_location(f"{path.parent.name}_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(path.parent))


ATTACKS = sorted(p for p in HERE.glob("round*/a[0-9][0-9]_*.py"))


def _param(path: Path):
    key = f"{path.parent.name}/{path.stem}"
    marks = [pytest.mark.xfail(strict=True, reason=STILL_BREACHED[key])] if key in STILL_BREACHED else []
    return pytest.param(path, id=key, marks=marks)


@pytest.mark.slow
@pytest.mark.skipif(namespaces_problem() is not None, reason=f"no walls here: {namespaces_problem()}")
@pytest.mark.parametrize("path", [_param(p) for p in ATTACKS])
def test_the_attack_is_contained(path):
    runner = _load(path.parent / "run_attacks.py")
    attack = _load(path)
    verdict = attack.verdict

    def untimed(out, run):
        """The attack's verdict on everything but time: the blind runs measured the time bounds
        (planning under 5 s) once; a test's wall time is the machine's load, not the grader's."""
        return verdict(out, {**run, "first_progress_s": 0.0, "planning_seconds": 0.0, "seconds": 0.0})

    attack.verdict = untimed
    if hasattr(runner, "PYTHON"):  # the interpreter running these tests, not the testers' own path
        runner.PYTHON = sys.executable
    found = runner.run_one(attack, ROOT, sys.executable) if "python" in runner.run_one.__code__.co_varnames \
        else runner.run_one(attack, ROOT)
    result = {**found, "explanation": str(found.get("explanation", found.get("why", "")))}
    assert "ATTACK ERROR" not in result["explanation"] and not result.get("timed_out"), result
    assert not result["breached"], result["explanation"]

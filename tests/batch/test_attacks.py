"""The blind attack sets, kept as tests: each attack's class is graded by this checkout's grader
(`python -m grader grade`, as an instructor runs it) and its own verdict must find it contained.

Both sets were written by testers who had read none of the grader's code, only the README, the
docs, the lessons and the grader's behaviour:
- round1/ was written and measured once on the code before issue 26's changes: 12 of 20
  breached (hidden inputs in exception messages and refusal notes, an answer book from the
  public seeds, pid relays, a zip naming classmates, the trusted side's memory and time);
- round2/ was written against the hardened design and measured once on it: 11 of 20 breached
  (two only by time bounds, which these tests do not assert).
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
# attack -> why it still breaches (issue 26 stays open for these; its closing note says so)
STILL_BREACHED: dict[str, str] = {}
# breached by the attack's own verdict, with nothing secret crossing (each reason says why): kept
# strict, so a change in what they find is seen
NOTHING_SECRET = {
    "round2/a04_exception_disguise": "a cell error's line is the learner's to choose (within the cell sent), but "
                                     "the child whose cell errors are shown answers the public examples only and "
                                     "never holds a hidden input (test_sandbox: no child that answers a public "
                                     "example holds a hidden input)",
}
# breached by a draw of the hidden cases (a fresh random secret per run): not a fixed outcome. (a08,
# credit when a hidden case was GPT-2 small's own configuration, is gone: every hidden case is drawn.)
BY_CHANCE: dict[str, str] = {}


def _load(path: Path):
    sys.path.insert(0, str(path.parent))  # an attack's shared helpers sit beside it
    for helper in path.parent.glob("*.py"):  # each round's own _common, run_attacks, ...: not another's
        if not helper.stem.startswith("a") or not helper.stem[1:3].isdigit():
            sys.modules.pop(helper.stem, None)
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
    known = {**STILL_BREACHED, **NOTHING_SECRET}
    marks = ([pytest.mark.xfail(strict=True, reason=known[key])] if key in known else
             [pytest.mark.xfail(strict=False, reason=BY_CHANCE[key])] if key in BY_CHANCE else [])
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

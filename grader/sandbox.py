"""Running one exercise of one submission in a child process with limits.

What crosses the boundary: into the child, the learner's definition cells
(text), the test inputs (.npy) and names; out of it, result.json and .npy
files, decoded by wire.decode, which yields only plain data. Scores are
computed in this process, never in the child.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import wire
from .judge import Broken, NotAttempted, Raised

CHILD = Path(__file__).with_name("_child.py")
ROOT = Path(__file__).resolve().parent.parent
# The course's configs stay importable (lessons' setup cells use them); its NumPy
# model, which holds the exercises' answers, does not.
CLOSED_MODULES = ("grader", "solutions", "gpt2course.numpy_gpt")
MAX_RESULT_BYTES = 64 * 2**20


@dataclass(frozen=True)
class Limits:
    wall_s: float = 60.0          # per exercise
    submission_s: float = 600.0   # per learner, all exercises together
    cpu_s: int = 60
    memory_bytes: int = 3 * 2**30
    file_bytes: int = 64 * 2**20  # also caps what learner code can print
    output_bytes: int = 20_000    # of stdout/stderr kept for the report
    private: tuple[str, ...] = ()  # more folders closed to learner code (the batch's output)


@dataclass
class ChildRun:
    answers: list
    cell_errors: list[dict] = field(default_factory=list)
    found: bool = False
    refused: list[str] = field(default_factory=list)
    problem: str | None = None    # why the run as a whole failed, if it did


def closed_paths(extra=()) -> list[str]:
    closed = ("grader", "solutions", "exercises", ".git", "gpt2course/numpy_gpt.py")
    return [str(ROOT / d) for d in closed] + [str(p) for p in extra]


def reference_spec(exercise, registry) -> dict[str, str]:
    out = {}
    for name in exercise.uses:
        fn = registry.get(name).reference
        out[name] = f"{fn.__module__}:{fn.__name__}"
    return out


def rlimits(limits: Limits) -> dict[str, int]:
    return {"RLIMIT_AS": limits.memory_bytes, "RLIMIT_CPU": limits.cpu_s,
            "RLIMIT_FSIZE": limits.file_bytes, "RLIMIT_CORE": 0}


def child_env(home: str) -> dict[str, str]:
    """No credentials, no inherited configuration: just enough to run NumPy."""
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TMPDIR": home,
           "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg"}
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):  # needed on some CPUs here
        if var in os.environ:
            env[var] = os.environ[var]
    return env


def run_exercise(cells, name: str, cases, references: dict[str, str], limits: Limits,
                 needs_config: bool = False) -> ChildRun:
    with tempfile.TemporaryDirectory(prefix="grade-") as tmp:
        job = Path(tmp)
        for sub in ("in", "out", "scratch"):
            (job / sub).mkdir()
        enc = wire.Encoder(str(job / "in"), "c")
        spec = {"cells": [{"index": c.index, "source": c.source} for c in cells],
                "function": name, "cases": [enc(c.args) for c in cases],
                "references": references, "needs_config": needs_config,
                "closed_paths": closed_paths(limits.private), "closed_modules": list(CLOSED_MODULES)}
        (job / "job.json").write_text(json.dumps(spec), encoding="utf-8")
        (job / "limits.json").write_text(json.dumps(rlimits(limits)), encoding="utf-8")
        code, timed_out = _spawn(job, limits)
        run = _collect(job, len(cases), limits)
        _explain_exit(run, code, timed_out, limits, job, len(cases))
        return run


def _spawn(job: Path, limits: Limits) -> tuple[int | None, bool]:
    with open(job / "stdout", "wb") as out, open(job / "stderr", "wb") as err:
        proc = subprocess.Popen([sys.executable, "-I", str(CHILD), str(job)], cwd=job / "scratch",
                                env=child_env(str(job / "scratch")), stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err, start_new_session=True)
        try:
            code = proc.wait(timeout=limits.wall_s)
            timed_out = False
        except subprocess.TimeoutExpired:
            code, timed_out = None, True
        _kill_group(proc.pid)
        proc.wait()
    return code, timed_out


def _kill_group(pid: int) -> None:
    """End the child and anything it spawned in its process group."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _collect(job: Path, n_cases: int, limits: Limits) -> ChildRun:
    path = job / "out" / "result.json"
    try:
        if path.stat().st_size > MAX_RESULT_BYTES:
            return ChildRun([], problem="the answers were too large to read")
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ChildRun([])
    if not isinstance(raw, dict):
        return ChildRun([], problem="the grading process returned malformed data")
    load = wire.npy_loader(str(job / "out"))
    answers = [_answer(a, load) for a in raw.get("answers", [])[:n_cases]]
    errors = [e for e in raw.get("cell_errors", []) if isinstance(e, dict)][:50]
    refused = [str(r)[:200] for r in raw.get("refused", [])][:20]
    return ChildRun(answers, errors, raw.get("found") is True, refused)


def _answer(tree, load):
    if not isinstance(tree, dict):
        return Broken("malformed answer")
    if tree.get("not_implemented") is True:
        return NotAttempted()
    for key in ("raised", "unencodable"):
        if isinstance(tree.get(key), dict):
            e = tree[key]
            bases = tuple(str(b) for b in e.get("bases", []) if isinstance(b, str))[:30]
            raised = Raised(str(e.get("type", "?"))[:100], bases, str(e.get("message", ""))[:2000])
            if key == "unencodable":
                return Broken(f"its return value could not be read ({raised.describe()})")
            return raised
    if "value" in tree:
        return wire.decode(tree["value"], load)
    return Broken("malformed answer")


def _explain_exit(run: ChildRun, code, timed_out: bool, limits: Limits, job: Path,
                  n_cases: int) -> None:
    if run.problem:
        return
    if timed_out:
        run.problem = f"timed out after {limits.wall_s:g} s (an infinite loop, or far too slow)"
    elif code is not None and code < 0:
        sig = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else -code
        run.problem = {
            "SIGXCPU": f"used more than {limits.cpu_s} s of CPU time",
            "SIGXFSZ": "wrote or printed far too much output",
            "SIGKILL": "was killed (memory limit, or too much output)",
        }.get(sig, f"crashed (signal {sig})")
    elif run.found is False and code not in (0, None) and not run.cell_errors:
        tail = (job / "stderr").read_bytes()[-limits.output_bytes:].decode("utf-8", "replace")
        last = tail.strip().splitlines()[-1] if tail.strip() else f"exit code {code}"
        run.problem = f"the grading process stopped early ({last[:300]})"
    elif run.found and (code not in (0, None) or len(run.answers) < n_cases):
        run.problem = f"the learner's code ended the process early (exit code {code})"

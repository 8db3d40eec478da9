"""Reading what a child wrote: a stranger's data.

result.json and the arrays' file are read as regular files only (never through
a link or a FIFO), of bounded size; every field is checked before it becomes
an answer for the judge.
"""
from __future__ import annotations

import json
import os
import signal
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..judging import wire
from ..judging.outcomes import Broken, ChangedInputs, NotAttempted, Raised

MAX_RESULT_BYTES = 64 * 2**20


@dataclass
class ChildRun:
    answers: list
    cell_errors: list[dict] = field(default_factory=list)
    found: bool = False
    refused: list[str] = field(default_factory=list)
    problem: str | None = None    # why the run as a whole failed, if it did


def collect(job: Path, n_cases: int) -> ChildRun:
    """The child's result.json and arrays, read as a stranger's data: a regular file
    (never a link or a FIFO), of bounded size, every field checked."""
    try:
        text = _read_regular(job / "out" / "result.json", MAX_RESULT_BYTES)
        raw = json.loads(text) if text is not None else None
    except (ValueError, RecursionError):
        return ChildRun([], problem="the grading process returned malformed data")
    except OSError as exc:
        return ChildRun([], problem=str(exc) if isinstance(exc, TooLarge) else None)
    if raw is None:
        return ChildRun([])
    if not isinstance(raw, dict) or not isinstance(raw.get("answers", []), list) \
            or not isinstance(raw.get("cell_errors", []), list):
        return ChildRun([], problem="the grading process returned malformed data")
    load = wire.folder_loader(str(job / "out"))
    answers = []
    for tree in raw.get("answers", [])[:n_cases]:
        try:
            answers.append(_answer(tree, load))
        except (ValueError, TypeError, RecursionError, OverflowError, MemoryError):
            answers.append(Broken("its answer could not be read"))
    errors = [e for e in raw.get("cell_errors", []) if isinstance(e, dict)][:50]
    return ChildRun(answers, errors, raw.get("found") is True)


class TooLarge(OSError):
    pass


def _read_regular(path: Path, limit: int) -> str | None:
    """None when there is no such file; never blocks, never follows a link."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        if info.st_size > limit:
            raise TooLarge("the answers were too large to read")
        return f.read(limit).decode("utf-8", "replace")


def _answer(tree, load):
    if not isinstance(tree, dict):
        return Broken("malformed answer")
    if tree.get("not_implemented") is True:
        return NotAttempted()
    if isinstance(tree.get("changed_inputs"), list):
        return ChangedInputs(tuple(str(n)[:50] for n in tree["changed_inputs"][:10]))
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


def explain_exit(run: ChildRun, code, timed_out: bool, limits, job: Path,
                  n_cases: int) -> None:
    if run.problem:
        return
    if not isinstance(code, int):
        code = None
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
        tail = _tail(job / "stderr", limits.output_bytes)
        last = tail.strip().splitlines()[-1] if tail.strip() else f"exit code {code}"
        run.problem = f"the grading process stopped early ({last[:300]})"
    elif run.found and (code not in (0, None) or len(run.answers) < n_cases):
        run.problem = f"the learner's code ended the process early (exit code {code})"


def _tail(path: Path, n: int) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return ""
        f.seek(max(0, info.st_size - n))
        return f.read(n).decode("utf-8", "replace")

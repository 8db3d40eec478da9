"""Reading what a child wrote: a stranger's data.

The child's results are frames (inside/frames.py) in a memory file the grader made and reads
after the child has ended: at most MAX_RESULT_BYTES of it, every frame's JSON bounded
and counted before parsing, its arrays within one decoding budget for the whole job,
and every field checked before it becomes an answer for the judge.
"""
from __future__ import annotations

import signal
from dataclasses import dataclass, field

from ...judging import wire
from ...judging.outcomes import Broken, ChangedInputs, NotAttempted, Raised
from .inside import frames

MAX_RESULT_BYTES = frames.MAX_RESULT_BYTES
MAX_CELL_ERRORS = 50


@dataclass
class ChildRun:
    answers: list
    cell_errors: list[dict] = field(default_factory=list)
    found: bool = False
    refused: list[str] = field(default_factory=list)
    problem: str | None = None    # why the run as a whole failed, if it did
    unread: str | None = None     # what followed the last case's answer (never read), in the grader's words


def collect(fd: int, n_cases: int) -> ChildRun:
    """The child's frames: its cells' errors and whether the function exists, then one
    answer per case; whatever breaks the format or a cap is said, never a crash."""
    data, more = frames.read_capped(fd, MAX_RESULT_BYTES)
    if more:
        return ChildRun([], problem="the answers were too large to read")
    try:
        first = frames.next_frame(data, 0)
    except frames.FrameError as exc:
        return ChildRun([], problem=f"the grading process returned malformed data ({exc})")
    if first is None:
        return ChildRun([])
    head, _, at = first
    if not isinstance(head, dict) or not isinstance(head.get("cell_errors", []), list):
        return ChildRun([], problem="the grading process returned malformed data")
    errors = [e for e in head.get("cell_errors", []) if isinstance(e, dict)][:MAX_CELL_ERRORS]
    found = head.get("found") is True
    del first, head  # one parsed frame held at a time
    budget = [wire.MAX_DECODED_BYTES]
    answers = []
    while len(answers) < n_cases:
        try:
            got = frames.next_frame(data, at)
        except frames.FrameError as exc:
            return ChildRun([], problem=f"the grading process returned malformed data ({exc})")
        if got is None:
            break
        tree, blob, at = got
        answers.append(_frame_answer(tree, blob, budget))
        del got, tree, blob
    run = ChildRun(answers, errors, found)
    if len(answers) == n_cases and at < len(data):
        run.unread = unread(len(data) - at)
    return run


def unread(n_bytes: int) -> str:
    """Results past the head frame and one frame per case: the harness writes no more, so
    the learner's code wrote them; refused unread, only their size said."""
    return (f"refused {n_bytes:,} bytes of results written after the last test's answer (not read: "
            "the grader reads one answer per test)")


def _frame_answer(tree, blob: bytes, budget: list[int]):
    if not isinstance(tree, dict) or not isinstance(tree.get("answer"), dict):
        return Broken("malformed answer")
    load = wire.blob_loader(blob, budget=budget[0])
    try:
        answer = _answer(tree["answer"], load)
    except (ValueError, TypeError, RecursionError, OverflowError, MemoryError):
        return Broken("its answer could not be read")
    budget[0] = load.left()
    return answer


def _answer(tree, load):
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


def explain_exit(run: ChildRun, code, timed_out: bool, limits, output_tail: str, n_cases: int) -> None:
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
            "SIGSYS": "made a system call the grader refuses",
        }.get(sig, f"crashed (signal {sig})")
    elif run.found is False and code not in (0, None) and not run.cell_errors:
        last = output_tail.strip().splitlines()[-1] if output_tail.strip() else f"exit code {code}"
        run.problem = f"the grading process stopped early ({last[:300]})"
    elif run.found and (code not in (0, None) or len(run.answers) < n_cases):
        run.problem = f"the learner's code ended the process early (exit code {code})"

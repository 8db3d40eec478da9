"""Reading what a child wrote: a stranger's data.

The child's results are frames (inside/frames.py) in a memory file the grader made and reads
after the child has ended: at most MAX_RESULT_BYTES of it, every frame's JSON bounded
and counted before parsing, its arrays within one decoding budget for the whole job,
and every field checked before it becomes an answer for the judge.

Nothing the child sends is shown back except through its judged answers: a child holds
its exercise's hidden inputs, so any text it writes may carry them. What the feedback says
of a run is in the grader's own words (``in_own_words``): an exception by its type, named
only when it is one of Python's or NumPy's own, never by its message (kept for the judge,
which asks of a case that must raise whether the message names the numbers involved); a
changed input by the exercise's own argument name; a cell error by its cell, line and
type; how the process ended by its kind, never by what it printed or its exit code.
"""
from __future__ import annotations

import builtins
import signal
from dataclasses import dataclass, field

import numpy as np

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
    unanswered: list[int] = field(default_factory=list)  # cases with no answer, in the order they were to
    #                               run (their indexes among the exercise's cases): the first was running when
    #                               the run stopped, the rest never ran (LearnerSandbox.run)


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
            own = e.get("own") if type(e.get("own")) is bool else None  # naming only: never credit
            raised = Raised(str(e.get("type", "?"))[:100], bases, str(e.get("message", ""))[:2000], own)
            if key == "unencodable":
                return Broken(f"its return value could not be read (encoding it raised "
                              f"{known_error(raised.type_name)})")
            return raised
    if "value" in tree:
        return wire.decode(tree["value"], load)
    return Broken("malformed answer")


def explain_exit(run: ChildRun, code, timed_out: bool, limits, n_cases: int) -> None:
    """Why the run as a whole failed, from how the child ended: its kind, never what it
    printed (its output is not read) nor the exit code it chose."""
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
        run.problem = "the grading process stopped early, while the notebook's cells ran (did a cell exit?)"
    elif run.found and (code not in (0, None) or len(run.answers) < n_cases):
        run.problem = "the learner's code ended the process early (it exited before every test had run)"


# ------------------------------------------------------------------ in the grader's own words
# The exception types a feedback may name: Python's and NumPy's own. Any other name is the
# learner's to choose (a class can be called anything), so it is never shown.
KNOWN_ERRORS = frozenset(
    [n for n, t in vars(builtins).items() if isinstance(t, type) and issubclass(t, BaseException)]
    + [n for n, t in vars(np.exceptions).items() if isinstance(t, type) and issubclass(t, BaseException)]
    + ["LinAlgError"])
OWN_CLASS = "an exception of its own class"
# The messages the harness itself writes in place of the learner's (inside/harness.short_error).
HARNESS_MESSAGES = frozenset({"printed or wrote far too much output (output limit reached)",
                              "ran out of memory (the grader's memory limit was reached)"})
WITHHELD = "its message is not shown in the batch grade; check() in your notebook shows it on the public examples"


def known_error(name) -> str:
    return name if name in KNOWN_ERRORS else OWN_CLASS


def fixed_message(message) -> str:
    """The harness's own sentence, or nothing."""
    return message if message in HARNESS_MESSAGES else ""


class Withheld(Raised):
    """An exception raised in the child: judged on its type and message like any, described
    by its type alone (or the harness's own sentence)."""

    def describe(self) -> str:
        fixed = fixed_message(self.message)
        return f"{self.type_name}: {fixed}" if fixed else f"{self.type_name} ({WITHHELD})"


def in_own_words(run: ChildRun, cells, cases) -> ChildRun:
    """The run with nothing in it the child wrote as text: exceptions named from KNOWN_ERRORS
    (messages withheld), changed inputs by the case's own argument names, cell errors by
    their cell, line and type. ``cells``: the cells sent (their index and source)."""
    run.answers = [_answer_in_own_words(a, case) for a, case in zip(run.answers, cases)]
    run.cell_errors = [_cell_error_in_own_words(e, cells) for e in run.cell_errors]
    return run


def _answer_in_own_words(answer, case):
    if isinstance(answer, Raised):
        bases = tuple(b for b in answer.bases if b in KNOWN_ERRORS)
        return Withheld(known_error(answer.type_name), bases, answer.message, answer.own)
    if isinstance(answer, ChangedInputs):
        names = tuple(n for n in case.args if n in answer.names)
        return ChangedInputs(names) if names else Broken("malformed answer")
    return _described_in_own_words(answer)


def _described_in_own_words(value):
    """``value`` with every Unsupported marker in it naming only what wire.unsupported allows."""
    if isinstance(value, wire.Unsupported):
        return wire.unsupported(value.type_name, value.reason)
    if type(value) in (list, tuple):
        return type(value)(_described_in_own_words(v) for v in value)
    if type(value) is dict:
        return {k: _described_in_own_words(v) for k, v in value.items()}
    return value


def _cell_error_in_own_words(error: dict, cells) -> dict:
    """Cell number and line only when they are a cell sent and a line of it."""
    lines = {c.index + 1: c.source.count("\n") + 1 for c in cells}
    cell = error.get("cell") if type(error.get("cell")) is int and error.get("cell") in lines else None
    line = error.get("line")
    line = line if cell is not None and type(line) is int and 1 <= line <= lines[cell] else None
    return {"cell": cell, "line": line, "type": known_error(error.get("type")),
            "message": fixed_message(error.get("message"))}

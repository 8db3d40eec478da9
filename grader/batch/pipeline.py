"""What every way of grading a batch shares; only "grade one learner" differs.

``plan_batch`` collects the learners, fixes the assignment and opens the saved state;
``run`` takes results from a pool as they arrive and saves each one (its state and
feedback, then the gradebook and the report, at a bounded share of the time), in this
process alone. A pool is
``LocalPool`` (threads on this machine, one workspace) or ``cluster.pool.ClusterPool``
(tasks on a Dask cluster): an object with ``describe()`` (what held learner code in,
for report.json), ``results(todo)`` (a generator of (Submission, where it ran), which
calls ``stop_requested()`` while it waits) and ``close()``.
"""
from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from .inputs.collect import Learner, collect
from .sandbox.isolation import ISOLATIONS, PYTHON_WARNING
from .sandbox.limits import Limits
from .sandbox.workspace import Workspace
from .state import Batch


REBUILD_SHARE = 10  # wait 10 times a rebuild's duration before the next: at most ~10% of the time
POLL_S = 0.2        # how often a pool waiting for results looks for a Ctrl-C
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)  # Ctrl-C, and a scheduler's (or Gradescope's) time limit
_stop_seen: list[int] = []  # the signals noted while a batch runs (a list: the handler takes no lock)


class BatchStopped(RuntimeError):
    """The pool could not go on (a cluster's scheduler went away). Every learner finished
    so far is saved and the same command resumes; the CLI exits 2 with the message."""


@dataclass
class Plan:
    exercises: object          # records.Exercises: the assignment, scoring and points
    learners: list[Learner]
    todo: list[Learner]        # not saved yet (or saved with a grader failure), or --force
    batch: Batch
    limits: Limits
    isolation: str
    out: Path


def isolation_named(choice: str) -> tuple[str, str | None]:
    """(mode, warning) for a batch whose walls another machine builds (a cluster's workers
    probe them there): the name is checked here, the walls are not."""
    if choice not in ISOLATIONS:
        raise ValueError(f"--isolation must be one of {', '.join(ISOLATIONS)}, got {choice!r}")
    if choice == "uid":  # one learner per run (grade.grade_batch): no cluster of it
        raise ValueError("--isolation uid grades one learner on this machine, never on a cluster")
    return choice, PYTHON_WARNING if choice == "python" else None


def lessons_in(learners: list[Learner]) -> tuple[list[str], dict[str, int]]:
    """The default assignment: the lessons handed in by more than half of the learners who
    handed in any, by the cheap evidence collect found (metadata by a pattern, the file
    name, legible `def` lines: ``reading.lesson_evidence``); and the others, with how many
    handed each in. A lesson one learner adds cannot change a classmate's maximum or row
    (blind attack round3/a15); --lessons says what counts. No notebook is parsed to plan."""
    by: dict[str, int] = {}
    handed_in = [lessons for x in learners if (lessons := {nb.lesson for nb in x.notebooks if nb.lesson})]
    for lessons in handed_in:  # of the learners who handed in any lesson: an empty upload votes for none
        for lesson in lessons:
            by[lesson] = by.get(lesson, 0) + 1
    counted = sorted(n for n, k in by.items() if 2 * k > len(handed_in))
    return counted, {n: k for n, k in sorted(by.items()) if n not in counted}


def plan_batch(paths: list[Path], out: Path, exercises, submission_type, limits: Limits, force: bool,
               isolation: str, secret: Path | None = None, classlist=None) -> Plan:
    """``secret``: the file of the instructor's secret (--secret), default OUT/.state/.secret;
    the hidden cases are drawn from it (state.load_secret). ``classlist``: the roster and
    the assignment's late rule (classlist.ClassList), said on the console and applied to
    what is written."""
    out.mkdir(parents=True, exist_ok=True)
    collected = collect(paths)
    learners = collected.learners
    if not exercises.assignment:
        exercises.assignment, left_out = lessons_in(learners)
        voters = sum(any(nb.lesson for nb in x.notebooks) for x in learners)
        if left_out and not exercises.assignment:
            found = ", ".join(f"{lesson} ({k} of {voters})" for lesson, k in left_out.items())
            raise ValueError(f"no lesson was handed in by more than half of the learners ({found}): say which "
                             "lessons this assignment covers, e.g. --lessons " + ",".join(left_out))
        for lesson, k in left_out.items():
            print(f"note: lesson {lesson} is not graded: only {k} of {voters} learners handed it in "
                  "(the assignment is the lessons most learners handed in; give --lessons to choose)",
                  file=sys.stderr)
    batch = Batch(out, exercises, submission_type, collected.skipped, secret, classlist)
    for line in batch.classlist.notes(learners):
        print(f"note: {line}", file=sys.stderr)
    todo = [x for x in learners if force or _needs_grading(batch.saved(x))]
    todo_ids = {id(x) for x in todo}
    batch.refresh_feedback([x for x in learners if id(x) not in todo_ids])
    return Plan(exercises, learners, todo, batch, limits, isolation, out)


def _needs_grading(saved) -> bool:
    """Not saved yet, or saved with a grader failure (retried on every rerun)."""
    return saved is None or saved.internal


@contextlib.contextmanager
def _stop_signals_noted():
    """While a batch runs, Ctrl-C (or SIGTERM) is noted, not raised where it lands: a
    KeyboardInterrupt raised between a lock's acquire and the ``with`` that releases it (in
    a future's condition, a queue) leaves the lock held, and the threads waiting on it hang
    Ctrl-C's stop for good. The pools raise it at one place, in their wait
    (``stop_requested``), where the main thread holds no lock. Outside the main thread (a
    test, a server) signals cannot be set, and nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _stop_seen.clear()
    # an ignored signal stays ignored (a shell starts a background job with SIGINT ignored)
    before = {sig: signal.signal(sig, lambda signum, frame: _stop_seen.append(signum))
              for sig in STOP_SIGNALS if signal.getsignal(sig) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def stop_requested() -> None:
    """Raise KeyboardInterrupt if Ctrl-C (or SIGTERM) came since the batch started."""
    if _stop_seen:
        raise KeyboardInterrupt


def run(plan: Plan, pool, report) -> list:
    """Each result saved as it arrives, whoever graded it; the shared files rebuilt after it,
    unless the last rebuild was so recent that rebuilding would take more than 1 / REBUILD_SHARE
    of the time (a rebuild reads and writes every saved learner: a large class's would
    otherwise cost the square of its size)."""
    with _stop_signals_noted():
        return _run(plan, pool, report)


def _run(plan: Plan, pool, report) -> list:
    arriving, last = None, (float("-inf"), 0.0)  # (when the last rebuild ended, what it took)
    try:
        plan.batch.sandbox = pool.describe()
        arriving = pool.results(plan.todo)
        for sub, where in arriving:
            due = time.monotonic() - last[0] >= REBUILD_SHARE * last[1]
            shown = plan.batch.save(sub, plan.learners, rebuild=False)
            if due:
                start = time.monotonic()
                plan.batch.rebuild(plan.learners)
                last = (time.monotonic(), time.monotonic() - start)
            report(shown, plan.exercises)  # as the gradebook shows it: the late rule applied
            if hasattr(report, "ran_on"):
                report.ran_on(where)
    except KeyboardInterrupt:  # Ctrl-C: stop the running exercises now, not after the slowest
        if hasattr(pool, "stop"):  # (a second Ctrl-C is only noted again: the same stop)
            pool.stop()
        if arriving is not None:
            arriving.close()
        saved = len(plan.batch.rebuild(plan.learners))
        raise BatchStopped(f"interrupted: {saved} of {len(plan.learners)} learners are graded and saved in "
                           f"{plan.out}; run the same command again to grade the rest") from None
    except BatchStopped as exc:
        saved = len(plan.batch.rebuild(plan.learners))
        raise BatchStopped(f"{exc}: {saved} of {len(plan.learners)} learners are graded and saved in "
                           f"{plan.out}; run the same command again to grade the rest (finished "
                           "learners are kept)") from None
    finally:  # on an error (an output file made unwritable mid-run), do not grade the rest
        if arriving is not None:
            arriving.close()
        pool.close()
    if hasattr(report, "end"):
        report.end()
    return plan.batch.rebuild(plan.learners)


class LocalPool:
    """Learners graded on this machine, ``jobs`` at a time, in one workspace."""

    def __init__(self, plan: Plan, jobs: int, grade_one):
        self.jobs, self.exercises, self.grade_one = max(1, jobs), plan.exercises, grade_one
        self.workspace = Workspace(plan.limits, plan.isolation, slots=self.jobs)

    def describe(self) -> dict:
        return self.workspace.describe()

    def results(self, todo: list[Learner]):
        pool = ThreadPoolExecutor(max_workers=self.jobs)
        try:
            order = {pool.submit(self.grade_one, x, self.exercises, self.workspace): i for i, x in enumerate(todo)}
            pending = set(order)
            while pending:
                done, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=order.get):  # those done together: in the learners' order
                    yield future.result(), None
                stop_requested()
        except KeyboardInterrupt:  # raised here, in the wait: stop the running exercises before
            self.stop()            # the shutdown below waits for their threads
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def stop(self) -> None:
        self.workspace.stop()

    def close(self) -> None:
        self.workspace.close()

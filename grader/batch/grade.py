"""Batch grading: learners in; gradebook.csv, report.json and feedback/ out.

The pipeline, in order:
1. ``inputs.collect.collect`` turns the inputs (notebooks, folders, zips) into learners.
2. The assignment: the lessons that count (``--lessons``, else the lessons most learners
   handed in: ``pipeline.lessons_in``), fixed before grading so every total has one maximum.
3. Each learner not already saved gets one ``sandbox.workspace.LearnerSandbox``; each of
   their notebooks is matched to its lesson, reduced to its definitions, and
   each exercise of the lesson runs in a fresh child. The answers are judged
   here (``judge.judge``) against reference answers computed once per batch.
4. ``state.Batch.save`` stores the learner's result, then rebuilds the
   gradebook, the report and the learner's feedback (``report``) from every
   saved result.

Steps 1, 2 and 4 are ``pipeline``'s, shared by every way of grading; step 3 runs
here (``--jobs`` threads) or on a Dask cluster (``cluster.pool``, ``cluster.task``).
The records they share (``Submission``, ``Exercises``, ``failed``) are ``records``'.
"""
from __future__ import annotations

import dataclasses
import difflib
import sys
import time
import traceback
from pathlib import Path

from ..judging.judge import Broken, Verdict, judge
from .inputs.collect import Learner
from .inputs.reading import ReadNotebook, learner_work, read_notebook
from .pipeline import LocalPool, isolation_named, plan_batch, run
from .records import Exercises, Submission, failed
from .sandbox.isolation import IsolationError, resolve_isolation
from .sandbox.limits import Limits
from .sandbox.results import WITHHELD
from .sandbox.workspace import LearnerSandbox, Stopped, Workspace


# ------------------------------------------------------------------ one learner
def grade_learner(learner: Learner, exercises: Exercises, box: LearnerSandbox) -> Submission:
    """Every notebook of the learner, in the lessons' order (then by name), never in an
    order the learner's file names choose; for a lesson handed in twice the higher
    score counts. ``problem``: what went wrong (what collect found, unreadable notebooks);
    the gradebook adds the lessons of the assignment not handed in."""
    sub = Submission(learner.name, [nb.name for nb in learner.notebooks], fingerprint=learner.fingerprint())
    sub.notes += learner.notes
    problems = list(learner.problems)
    deadline = time.monotonic() + box.ws.limits.submission_s
    best: dict[str, list[Verdict]] = {}
    work = learner_work()  # parsing all of this learner's notebooks, together
    for notebook in sorted(learner.notebooks, key=lambda n: (n.lesson is None, n.lesson or "", n.name)):
        r = read_notebook(notebook, work)  # one notebook in memory at a time, dropped after grading
        if r.why:
            problems.append(f"{r.name}: could not be read: {r.why}")
        verdicts = grade_notebook(r, exercises, box, deadline, sub.notes)
        if verdicts is None:
            continue
        if r.lesson in best:
            sub.notes.append(f"two notebooks for lesson {r.lesson}: the higher-scoring one counts")
            verdicts = max(best[r.lesson], verdicts, key=lambda vs: sum(v.points for v in vs))
        best[r.lesson] = verdicts
    sub.lessons = sorted(best)
    sub.verdicts = [v for lesson in sub.lessons for v in best[lesson]]
    if not best and not problems:
        problems = ["; ".join(sub.notes) or "no notebook could be graded"]
    sub.problem = "; ".join(problems) or None
    return sub


def grade_notebook(r: ReadNotebook, exercises: Exercises, box: LearnerSandbox, deadline: float,
                   notes: list[str]) -> list[Verdict] | None:
    """The verdicts of the notebook's lesson, or None when it counts for no lesson of the
    assignment. An unreadable notebook of a known lesson scores 0 on each of its exercises,
    with the reason."""
    if r.lesson is None:
        if not r.why:
            notes.append(f"{r.name}: no exercise of any lesson was found in it")
        return None
    if r.lesson not in exercises.assignment:
        notes.append(f"{r.name}: lesson {r.lesson} is not part of this assignment "
                     f"({', '.join(exercises.assignment)}); not graded")
        return None
    if r.cells is None:
        return [_unanswered(e, exercises, "broken", f"the notebook {r.name} could not be read: {r.why}")
                for e in exercises.by_lesson[r.lesson]]
    cells = r.cells
    verdicts = []
    for exercise in exercises.by_lesson[r.lesson]:
        if time.monotonic() > deadline:
            why = f"not graded: the submission used up its time limit ({box.ws.limits.submission_s:g} s)"
            verdicts.append(_unanswered(exercise, exercises, "broken", why + " on earlier exercises"))
            continue
        verdicts.append(grade_exercise(exercise, cells, exercises, box, notes))
    return verdicts


def grade_exercise(exercise, cells, exercises: Exercises, box: LearnerSandbox, notes: list) -> Verdict:
    cases, expected, mistakes = exercises.answers(exercise)
    defining = [c for c in cells if exercise.name in c.defines]
    if not defining:
        return _unanswered(exercise, exercises, "missing", _missing_message(exercise.name, cells))
    if defining[-1].error:
        return _unanswered(exercise, exercises, "broken", f"the cell defining `{exercise.name}` cannot run: "
                           f"{defining[-1].error}")
    runnable = [c for c in cells if not c.error]
    run = box.run(runnable, exercise.name, cases, exercises.pieces(exercise), exercise.uses, box.ws.limits)
    for kind in dict.fromkeys(run.refused):  # kinds, in the hook's fixed words: how many times is the
        notes.append(f"`{exercise.name}`: refused {kind}")  # learner's to choose, so a channel: not said
    if run.unread:  # what the child wrote after its last answer: counted, not read
        notes.append(f"`{exercise.name}`: {run.unread}")
    if not run.found:
        why = run.problem or _cell_error_text(run.cell_errors) or "it was not defined when the cells ran"
        return _unanswered(exercise, exercises, "broken", f"`{exercise.name}` could not be defined: {why}")
    missing = Broken(run.problem or "no answer came back")
    answers = run.answers + [missing] * (len(cases) - len(run.answers))
    verdict = judge(exercise, cases, answers, expected, mistakes, hidden_only=True)
    if run.problem and run.problem.startswith(STOPPED) and run.unanswered:
        verdict = told_stopped(verdict, run, len(cases))
    if exercises.scoring == "all-or-nothing" and verdict.status != "passed":
        verdict.points = 0.0
    return verdict


# results.explain_exit's words for a child stopped by a limit: each reads after "test 2 of 7 "
STOPPED = ("timed out", "used more than", "wrote or printed", "was killed", "made a system call", "crashed")


def told_stopped(verdict: Verdict, run, total: int) -> Verdict:
    """A run stopped by a limit, told as it happened: the test it stopped on, the tests that did
    not run, and how those that ran did ("test 2 of 7 timed out after 60 s ...; tests 3-7 did not
    run; the 1 that ran passed"), never "failed 7 of 7" as if each had been tried."""
    stopped, never = run.unanswered[0], run.unanswered[1:]
    ran = [i for i in range(total) if i not in set(run.unanswered)]
    number = {f: int(f.split(":", 1)[0].removeprefix("test ")) - 1 for f in verdict.failures
              if f.startswith("test ") and f.split(":", 1)[0].removeprefix("test ").isdigit()}
    wrong = [f for f in verdict.failures if number.get(f) in ran]
    head = f"test {stopped + 1} of {total} {run.problem}"
    if never:
        head += f"; {_numbered(never)} did not run"
    if ran:
        head += f"; of the {len(ran)} that ran, {len(ran) - len(wrong)} passed"
        head += f" (first failure: {wrong[0]})" if wrong else ""
    tail = verdict.message.partition("\n")[2]
    failures = sorted([f"test {stopped + 1}: {run.problem}", *(f"test {i + 1}: did not run" for i in never), *wrong],
                      key=lambda f: int(f.split(":", 1)[0].removeprefix("test ")))
    return dataclasses.replace(verdict, message=head + ("\n" + tail if tail else ""), failures=failures)


def _numbered(indexes: list[int]) -> str:
    """"test 7", "tests 3-7", "tests 2, 5-7" (1-based)."""
    runs: list[list[int]] = []
    for i in sorted(indexes):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    parts = [f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in runs]
    return ("test " if len(indexes) == 1 else "tests ") + ", ".join(parts)


def _missing_message(name: str, cells) -> str:
    defined = sorted({n for c in cells for n in c.defines})
    close = difflib.get_close_matches(name, defined, n=1, cutoff=0.6)
    hint = f" The notebook defines `{close[0]}`: was it renamed?" if close else ""
    return f"no function named `{name}` was found.{hint} Keep the name given in the exercise."


def _cell_error_text(errors: list[dict]) -> str:
    if not errors:
        return ""
    e = errors[0]  # in the grader's words already (results.in_own_words): no text of the child's
    line = f", line {e['line']}" if e.get("line") else ""
    said = f": {e['message']}" if e["message"] else f" ({WITHHELD})"
    return f"cell {e.get('cell') or '?'}{line} raised {e['type']}{said}"


def _unanswered(exercise, exercises: Exercises, status: str, message: str) -> Verdict:
    cases = exercises.answers(exercise)[0]  # cached: no fresh draw of the hidden cases
    return Verdict(exercise.name, status, 0, len(cases), 0.0, exercise.points, message)


def grade_batch(paths: list[Path], out: Path, limits: Limits | None = None, jobs: int = 1,
                force: bool = False, points: dict | None = None, progress=None,
                isolation: str = "namespaces", lessons: list[str] | None = None,
                scoring: str = "per-case", cluster=None, secret: Path | None = None,
                classlist=None) -> list[Submission]:
    """Grade here with ``jobs`` threads, or (``cluster``: a function of the plan that returns
    its pool, ``cluster.pool.pool_for``) on a Dask cluster, whose workers then build the walls.
    ``secret``: the file of the instructor's secret the hidden cases are drawn from (--secret;
    default OUT/.state/.secret, made on first use). ``classlist``: the roster and the
    assignment's late rule (classlist.ClassList; --roster, --assignment)."""
    mode, warning = resolve_isolation(isolation) if cluster is None else isolation_named(isolation)
    exercises = Exercises(points, lessons, scoring)
    if warning:
        print(warning, file=sys.stderr)
    plan = plan_batch(paths, out, exercises, Submission, limits or Limits(), force, mode, secret, classlist)
    if mode == "uid" and len(plan.todo) > 1:  # isolation.py: no namespace keeps one learner's /tmp from the next
        raise IsolationError(f"--isolation uid grades one learner per run (this batch has {len(plan.todo)} to grade): "
                             "what one learner's code leaves in /tmp could reach the next")
    report = progress or (lambda sub, exercises: None)
    if hasattr(report, "begin"):
        report.begin(len(plan.learners), len(plan.learners) - len(plan.todo))
    return run(plan, LocalPool(plan, jobs, grade_safely) if cluster is None else cluster(plan), report)


def grade_safely(learner: Learner, exercises: Exercises, workspace: Workspace) -> Submission:
    """One learner graded in the workspace, as every way of grading does it (a cluster's
    task too); a grader bug becomes that learner's row, never an exception."""
    try:
        with workspace.learner() as box:
            return grade_learner(learner, exercises, box)
    except Stopped:  # Ctrl-C: this learner is not saved, and a rerun grades them
        return failed(learner, "not graded: the batch was interrupted")
    except Exception as exc:  # a grader bug costs one learner's row, not the batch
        # its message may quote what the learner's process sent: on the console only, never in a row
        traceback.print_exc(file=sys.stderr)
        return failed(learner, f"internal grader error ({type(exc).__name__}, printed on the grader's "
                               "console); please report it (a rerun grades this learner again)")

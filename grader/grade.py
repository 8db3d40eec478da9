"""Batch grading: learners in; gradebook.csv, report.json and feedback.md out.

Each learner's finished result is saved under OUT/.state/ before the shared
outputs are rewritten (atomically) from all saved results, so an interrupted
batch loses nothing graded and a rerun grades only what is missing.
"""
from __future__ import annotations

import csv
import dataclasses
import difflib
import io
import json
import os
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import notebook as nbk
from . import registry
from .collect import Learner, collect
from .judge import Broken, Verdict, judge, mistake_answers_for, reference_answers
from .sandbox import Limits, reference_spec, run_exercise

STATE_VERSION = 1


@dataclass
class Submission:
    name: str
    sources: list[str] = field(default_factory=list)
    lessons: list[str] = field(default_factory=list)
    problem: str | None = None            # nothing could be graded, and why
    verdicts: list[Verdict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    fingerprint: str = ""

    @property
    def total(self) -> float:
        return round(sum(v.points for v in self.verdicts), 4)

    def to_dict(self) -> dict:
        return asdict(self) | {"total": self.total}

    @classmethod
    def from_dict(cls, d: dict) -> "Submission":
        d = {k: v for k, v in d.items() if k in {f.name for f in dataclasses.fields(cls)}}
        d["verdicts"] = [Verdict(**v) for v in d.get("verdicts", [])]
        return cls(**d)


class Exercises:
    """The batch's exercises (points possibly overridden) and their reference answers,
    computed once per batch since they depend only on the exercise."""

    def __init__(self, points: dict[str, float] | None = None):
        points = points or {}
        unknown = sorted(set(points) - set(registry.load_all()))
        if unknown:
            raise ValueError(f"--points names unknown exercises: {', '.join(unknown)}")
        self.by_lesson = {
            lesson: [dataclasses.replace(e, points=float(points.get(e.name, e.points)))
                     for e in registry.for_lesson(lesson)]
            for lesson in registry.lessons()
        }
        self._cache, self._lock = {}, threading.Lock()

    def answers(self, exercise):
        with self._lock:
            if exercise.name not in self._cache:
                cases = exercise.cases(hidden=True)
                self._cache[exercise.name] = (cases, reference_answers(exercise, cases),
                                              mistake_answers_for(exercise, cases))
            return self._cache[exercise.name]


# ------------------------------------------------------------------ one learner
def guess_lesson(nb, path: Path) -> str | None:
    lesson = nbk.lesson_of(nb)
    known = registry.lessons()
    if lesson in known:
        return lesson
    for name in known:  # alice_01_embeddings.ipynb still names its lesson
        if name in path.name:
            return name
    defined = {n for c in nbk.graded_cells(nb) for n in c.defines}
    scores = {name: len(defined & {e.name for e in registry.for_lesson(name)}) for name in known}
    best = max(scores, key=scores.get, default=None)
    return best if best and scores[best] else None


def grade_learner(learner: Learner, exercises: Exercises, limits: Limits) -> Submission:
    sub = Submission(learner.name, [str(p) for p in learner.notebooks], fingerprint=learner.fingerprint())
    sub.notes += learner.problems
    deadline = time.monotonic() + limits.submission_s
    best: dict[str, list[Verdict]] = {}
    for path in learner.notebooks:
        lesson, verdicts = grade_notebook(path, exercises, limits, deadline, sub.notes)
        if lesson is None:
            continue
        if lesson in best:
            keep, drop = sorted([best[lesson], verdicts], key=lambda vs: -sum(v.points for v in vs))
            sub.notes.append(f"two notebooks for lesson {lesson}: the higher-scoring one counts")
            verdicts = keep
        best[lesson] = verdicts
    sub.lessons = sorted(best)
    sub.verdicts = [v for lesson in sub.lessons for v in best[lesson]]
    if not best:
        sub.problem = "; ".join(sub.notes) or "no notebook could be graded"
    return sub


def grade_notebook(path: Path, exercises: Exercises, limits: Limits, deadline: float,
                   notes: list[str]) -> tuple[str | None, list[Verdict]]:
    try:
        nb = nbk.read(path)
    except nbk.NotebookError as exc:
        notes.append(f"{path.name}: could not be read: {exc}")
        return None, []
    except OSError as exc:
        notes.append(f"{path.name}: could not be opened ({exc.strerror})")
        return None, []
    lesson = guess_lesson(nb, path)
    if lesson is None:
        notes.append(f"{path.name}: no exercise of any lesson was found in it")
        return None, []
    cells = nbk.graded_cells(nb)
    verdicts = []
    for exercise in exercises.by_lesson[lesson]:
        if time.monotonic() > deadline:
            why = f"not graded: the submission used up its time limit ({limits.submission_s:g} s)"
            verdicts.append(_unanswered(exercise, exercises, "broken", why + " on earlier exercises"))
            continue
        verdicts.append(grade_exercise(exercise, cells, exercises, limits, notes))
    return lesson, verdicts


def grade_exercise(exercise, cells, exercises: Exercises, limits: Limits, notes: list) -> Verdict:
    cases, expected, mistakes = exercises.answers(exercise)
    defining = [c for c in cells if exercise.name in c.defines]
    if not defining:
        return _unanswered(exercise, exercises, "missing", _missing_message(exercise.name, cells))
    if defining[-1].error:
        return _unanswered(exercise, exercises, "broken", f"the cell defining `{exercise.name}` cannot run: "
                           f"{defining[-1].error}")
    runnable = [c for c in cells if not c.error]
    run = run_exercise(runnable, exercise.name, cases, reference_spec(exercise, registry), limits,
                       needs_config=any(_has_config(c.args) for c in cases))
    for r in dict.fromkeys(run.refused):
        notes.append(f"`{exercise.name}`: refused {r}")
    if not run.found:
        why = run.problem or _cell_error_text(run.cell_errors) or "it was not defined when the cells ran"
        return _unanswered(exercise, exercises, "broken", f"`{exercise.name}` could not be defined: {why}")
    missing = Broken(run.problem or "no answer came back")
    answers = run.answers + [missing] * (len(cases) - len(run.answers))
    return judge(exercise, cases, answers, expected, mistakes)


def _missing_message(name: str, cells) -> str:
    defined = sorted({n for c in cells for n in c.defines})
    close = difflib.get_close_matches(name, defined, n=1, cutoff=0.6)
    hint = f" The notebook defines `{close[0]}`: was it renamed?" if close else ""
    return f"no function named `{name}` was found.{hint} Keep the name given in the exercise."


def _has_config(args: dict) -> bool:
    return any(type(v).__name__ == "GPTConfig" for v in args.values())


def _cell_error_text(errors: list[dict]) -> str:
    if not errors:
        return ""
    e = errors[0]
    line = f", line {e['line']}" if e.get("line") else ""
    return f"cell {e.get('cell')}{line} raised {e.get('type')}: {str(e.get('message', ''))[:200]}"


def _unanswered(exercise, exercises: Exercises, status: str, message: str) -> Verdict:
    cases = exercises.answers(exercise)[0]  # cached: no fresh draw of the hidden cases
    return Verdict(exercise.name, status, 0, len(cases), 0.0, exercise.points, message)


# ------------------------------------------------------------------ outputs
def columns(subs: list[Submission], exercises: Exercises) -> list[tuple[str, float]]:
    lessons = sorted({lesson for s in subs for lesson in s.lessons})
    return [(e.name, e.points) for lesson in lessons for e in exercises.by_lesson[lesson]]


def gradebook_csv(subs: list[Submission], exercises: Exercises) -> str:
    cols = columns(subs, exercises)
    max_total = sum(p for _, p in cols)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["submission", *[c for c, _ in cols], "total", "max_total", "problem"])
    for s in sorted(subs, key=lambda s: s.name):
        points = {v.exercise: v.points for v in s.verdicts}
        w.writerow([s.name, *[_num(points.get(c, 0.0)) for c, _ in cols], _num(s.total),
                    _num(max_total), s.problem or ""])
    return buf.getvalue()


def _num(x: float) -> str:
    return f"{round(x, 2):g}"


def feedback_md(s: Submission, exercises: Exercises, batch_lessons=()) -> str:
    """The learner's letter. ``batch_lessons``: lessons others submitted, so a
    missing notebook is named rather than silently scored 0."""
    lines = [f"# Feedback for {s.name}", ""]
    if s.problem:
        lines += [f"**Nothing could be graded:** {s.problem}", ""]
    missing = [x for x in batch_lessons if x not in s.lessons]
    lessons = sorted(set(s.lessons) | set(missing))
    max_total = sum(e.points for x in lessons for e in exercises.by_lesson[x])
    if lessons:
        lines += [f"Lessons {', '.join(f'`{x}`' for x in lessons)}: "
                  f"**{_num(s.total)} / {_num(max_total)}** points.", ""]
    for lesson in missing:
        lines += [f"**No notebook for lesson `{lesson}` was found** in this submission: its "
                  f"exercises score 0.", ""]
    for v in s.verdicts:
        lines += [f"## `{v.exercise}`: {_num(v.points)} / {_num(v.max_points)} "
                  f"({v.status.replace('_', ' ')})", "", v.message.replace("\n  ", "\n\n"), ""]
    if s.notes and not s.problem:
        lines += ["## Notes", ""] + [f"- {n}" for n in s.notes] + [""]
    return "\n".join(lines)


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class Batch:
    """OUT/.state/<learner>.json per finished learner; shared files rebuilt from them."""

    def __init__(self, out: Path, exercises: Exercises):
        self.out, self.exercises = out, exercises
        self.state = out / ".state"
        self.lock = threading.Lock()

    def saved(self, learner: Learner) -> Submission | None:
        path = self.state / f"{learner.name}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if data.get("version") != STATE_VERSION or data.get("fingerprint") != learner.fingerprint():
            return None
        return Submission.from_dict(data["submission"])

    def save(self, sub: Submission, learners: list[Learner]) -> None:
        with self.lock:
            write_atomic(self.state / f"{sub.name}.json", json.dumps(
                {"version": STATE_VERSION, "fingerprint": sub.fingerprint, "submission": sub.to_dict()}))
            write_atomic(self.out / "feedback" / sub.name / "feedback.md",
                         feedback_md(sub, self.exercises))
            self.rebuild(learners)

    def final_feedback(self, subs: list[Submission]) -> None:
        """Once every learner is graded, name the lessons each one did not submit."""
        lessons = sorted({x for s in subs for x in s.lessons})
        for s in subs:
            if set(lessons) - set(s.lessons):
                write_atomic(self.out / "feedback" / s.name / "feedback.md",
                             feedback_md(s, self.exercises, lessons))

    def rebuild(self, learners: list[Learner]) -> list[Submission]:
        subs = [s for s in (self.saved(x) for x in learners) if s is not None]
        report = {"submissions": [s.to_dict() for s in sorted(subs, key=lambda s: s.name)],
                  "complete": len(subs) == len(learners)}
        write_atomic(self.out / "report.json", json.dumps(report, indent=1))
        write_atomic(self.out / "gradebook.csv", gradebook_csv(subs, self.exercises))
        return subs


def grade_batch(paths: list[Path], out: Path, limits: Limits | None = None, jobs: int = 1,
                force: bool = False, points: dict | None = None, progress=None) -> list[Submission]:
    out.mkdir(parents=True, exist_ok=True)
    limits = dataclasses.replace(limits or Limits(), private=(str(out.resolve()),))
    exercises = Exercises(points)
    learners = collect(paths, out / ".unpacked")
    batch = Batch(out, exercises)
    todo = [x for x in learners if force or batch.saved(x) is None]
    report = progress or Progress(len(learners), len(learners) - len(todo))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(_grade_safely, x, exercises, limits): x for x in todo}
        for future in as_completed(futures):
            sub = future.result()
            batch.save(sub, learners)
            report(sub)
    subs = batch.rebuild(learners)
    batch.final_feedback(subs)
    return subs


def _grade_safely(learner: Learner, exercises: Exercises, limits: Limits) -> Submission:
    try:
        return grade_learner(learner, exercises, limits)
    except Exception as exc:  # a grader bug costs one learner's row, not the batch
        return Submission(learner.name, [str(p) for p in learner.notebooks],
                          problem=f"internal grader error ({type(exc).__name__}: {exc}); "
                                  "please report it", fingerprint="error")


class Progress:
    """A one-line progress bar on a terminal, a line per learner otherwise."""

    def __init__(self, total: int, done: int, stream=None):
        self.total, self.done, self.stream = total, done, stream or sys.stderr
        if done:
            print(f"{done} of {total} already graded (use --force to regrade)", file=self.stream)

    def __call__(self, sub: Submission) -> None:
        self.done += 1
        state = sub.problem or f"{_num(sub.total)} / {_num(sum(v.max_points for v in sub.verdicts))}"
        if self.stream.isatty():
            bar = "#" * (30 * self.done // max(self.total, 1))
            print(f"\r[{bar:<30}] {self.done}/{self.total} {sub.name[:30]:<30}", end="",
                  file=self.stream, flush=True)
            if self.done == self.total:
                print(file=self.stream)
        else:
            print(f"[{self.done}/{self.total}] {sub.name}: {state}", file=self.stream, flush=True)

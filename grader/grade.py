"""Batch grading: submissions in, gradebook.csv, report.json and feedback.md out."""
from __future__ import annotations

import csv
import io
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import notebook as nbk
from . import registry
from .judge import Broken, Verdict, judge, mistake_answers_for, reference_answers
from .sandbox import Limits, reference_spec, run_exercise


@dataclass
class Submission:
    name: str
    path: str
    lesson: str | None = None
    problem: str | None = None            # the whole notebook could not be graded
    verdicts: list[Verdict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        return round(sum(v.points for v in self.verdicts), 4)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["total"] = self.total
        return d


class ReferenceCache:
    """Reference and mistake answers depend only on the exercise: compute them once a batch."""

    def __init__(self):
        self._cache = {}

    def get(self, exercise):
        if exercise.name not in self._cache:
            cases = exercise.cases(hidden=True)
            self._cache[exercise.name] = (cases, reference_answers(exercise, cases),
                                          mistake_answers_for(exercise, cases))
        return self._cache[exercise.name]


def guess_lesson(nb, path: Path) -> str | None:
    lesson = nbk.lesson_of(nb)
    known = registry.lessons()
    if lesson in known:
        return lesson
    for name in known:  # alice_01_embeddings.ipynb still names its lesson
        if name in path.name or re.match(rf"0*{name.split('_')[0].lstrip('0')}\b", path.stem):
            return name
    defined = {n for c in nbk.graded_cells(nb) for n in c.defines}
    scores = {name: len(defined & {e.name for e in registry.for_lesson(name)}) for name in known}
    best = max(scores, key=scores.get, default=None)
    return best if best and scores[best] else None


def grade_notebook(path: Path, name: str, limits: Limits, cache: ReferenceCache) -> Submission:
    sub = Submission(name, str(path))
    try:
        nb = nbk.read(path)
    except nbk.NotebookError as exc:
        sub.problem = f"could not read the notebook: {exc}"
        return sub
    except OSError as exc:
        sub.problem = f"could not open the file: {exc.strerror}"
        return sub
    sub.lesson = guess_lesson(nb, path)
    if sub.lesson is None:
        sub.problem = "could not tell which lesson this notebook belongs to (no exercise functions found)"
        return sub
    cells = nbk.graded_cells(nb)
    for exercise in registry.for_lesson(sub.lesson):
        sub.verdicts.append(grade_exercise(exercise, cells, limits, cache, sub.notes))
    return sub


def grade_exercise(exercise, cells, limits: Limits, cache: ReferenceCache, notes: list) -> Verdict:
    cases, expected, mistakes = cache.get(exercise)
    defining = [c for c in cells if exercise.name in c.defines]
    if not defining:
        return _unanswered(exercise, "missing", f"no function named `{exercise.name}` was found "
                           "(was it renamed or deleted? keep the name given in the exercise)")
    if defining[-1].error:
        return _unanswered(exercise, "broken", f"the cell defining `{exercise.name}` cannot run: "
                           f"{defining[-1].error}")
    runnable = [c for c in cells if not c.error]
    run = run_exercise(runnable, exercise.name, cases, reference_spec(exercise, registry), limits,
                       needs_config=any(_has_config(c.args) for c in cases))
    for r in run.refused:
        notes.append(f"{exercise.name}: refused {r}")
    if not run.found:
        why = run.problem or _cell_error_text(run.cell_errors) or "it was not defined when the cells ran"
        return _unanswered(exercise, "broken", f"`{exercise.name}` could not be defined: {why}")
    missing = Broken(run.problem or "no answer came back")
    answers = run.answers + [missing] * (len(cases) - len(run.answers))
    return judge(exercise, cases, answers, expected, mistakes)


def _has_config(args: dict) -> bool:
    return any(type(v).__name__ == "GPTConfig" for v in args.values())


def _cell_error_text(errors: list[dict]) -> str:
    if not errors:
        return ""
    e = errors[0]
    line = f", line {e['line']}" if e.get("line") else ""
    return f"cell {e.get('cell')}{line} raised {e.get('type')}: {str(e.get('message', ''))[:200]}"


def _unanswered(exercise, status: str, message: str) -> Verdict:
    return Verdict(exercise.name, status, 0, len(exercise.cases(hidden=True)), 0.0,
                   exercise.points, message)


# ------------------------------------------------------------------ outputs
def exercise_columns(subs: list[Submission]) -> list[str]:
    lessons = sorted({s.lesson for s in subs if s.lesson})
    return [e.name for lesson in lessons for e in registry.for_lesson(lesson)]


def gradebook_csv(subs: list[Submission]) -> str:
    columns = exercise_columns(subs)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["submission", *columns, "total", "max_total", "problem"])
    for s in sorted(subs, key=lambda s: s.name):
        points = {v.exercise: v.points for v in s.verdicts}
        max_total = sum(e.points for e in registry.for_lesson(s.lesson)) if s.lesson else 0
        w.writerow([s.name, *[_num(points.get(c, "")) for c in columns], _num(s.total),
                    _num(max_total), s.problem or ""])
    return buf.getvalue()


def _num(x):
    return f"{x:g}" if isinstance(x, float) else x


def feedback_md(s: Submission) -> str:
    lines = [f"# Feedback for {s.name}", ""]
    if s.problem:
        return "\n".join(lines + [f"**This notebook could not be graded:** {s.problem}", ""])
    max_total = sum(v.max_points for v in s.verdicts)
    lines += [f"Lesson `{s.lesson}`: **{s.total:g} / {max_total:g}** points.", ""]
    for v in s.verdicts:
        lines += [f"## `{v.exercise}`: {v.points:g} / {v.max_points:g} ({v.status.replace('_', ' ')})",
                  "", v.message.replace("\n  ", "\n\n"), ""]
    if s.notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in s.notes] + [""]
    return "\n".join(lines)


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_outputs(subs: list[Submission], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for s in subs:
        folder = out / "feedback" / s.name
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / "feedback.md", feedback_md(s))
    report = {"submissions": [s.to_dict() for s in sorted(subs, key=lambda s: s.name)]}
    write_atomic(out / "report.json", json.dumps(report, indent=1))
    write_atomic(out / "gradebook.csv", gradebook_csv(subs))


def submission_name(path: Path, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", path.stem) or "submission"
    name, k = base, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    taken.add(name)
    return name


def grade_paths(paths: list[Path], out: Path, limits: Limits | None = None) -> list[Submission]:
    limits, cache, taken = limits or Limits(), ReferenceCache(), set()
    subs = [grade_notebook(p, submission_name(p, taken), limits, cache) for p in paths]
    write_outputs(subs, out)
    return subs

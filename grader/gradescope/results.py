"""A graded learner as Gradescope's results.json, and the results.json of a run that graded nothing.

The format is Gradescope's (https://gradescope-autograders.readthedocs.io/en/latest/specs/,
"Output format"): a top-level ``score``, ``output`` and ``visibility``, and ``tests``, each with
``name``, ``number``, ``score``, ``max_score``, ``status`` ("passed" or "failed"), ``output`` and
``visibility`` (one of VISIBILITIES). Every output is plain text (``output_format`` "text", which
Gradescope shows as it is): the words of the learner's feedback.md (grader/batch/report.py),
learner-derived text made printable and capped by its ``plain``, so a hidden test's inputs or
expected values are no more here than there. One test per exercise of the assignment, handed
in or not, so every learner's maximum is the assignment's.
"""
from __future__ import annotations

from ..batch.report import (HIDDEN_ONLY, MAX_JSON_ITEMS, MAX_TEXT, STATUSES, cap_bytes, num, plain, problem_text,
                            verdict_lines)

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")   # Gradescope's, per test and overall
MAX_LINES = 40   # of one exercise's message


def results(sub, exercises, visibility: str = "visible", extra: dict | None = None,
            execution_time: float | None = None) -> dict:
    """results.json of ``sub`` (records.Submission), graded under ``exercises`` (records.Exercises)."""
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}, got {visibility!r}")
    graded = {v.exercise: v for v in sub.verdicts}
    tests = []
    for i, lesson in enumerate(exercises.assignment, 1):
        for j, exercise in enumerate(exercises.by_lesson[lesson], 1):
            v = graded.get(exercise.name)
            tests.append({"name": f"{lesson}: {exercise.name}", "number": f"{i}.{j}",
                          "score": round(v.points, 4) if v else 0.0, "max_score": exercise.points,
                          "status": "passed" if v is not None and v.status == "passed" else "failed",
                          "output": exercise_text(v) if v else missing_text(lesson, sub),
                          "output_format": "text", "visibility": visibility})
    found = {"score": round(sum(t["score"] for t in tests), 4), "output": submission_text(sub, exercises),
             "output_format": "text", "visibility": visibility, "stdout_visibility": "hidden", "tests": tests}
    if execution_time is not None:
        found["execution_time"] = round(execution_time)
    if extra:
        found["extra_data"] = extra
    return found


def exercise_text(v) -> str:
    """One exercise's verdict as feedback.md says it: its heading without the Markdown, then the
    verdict in check()'s own text (report.verdict_lines, without the code fence around it)."""
    status = v.status.replace("_", " ") if v.status in STATUSES else plain(v.status, 40)
    lines = [f"{plain(v.exercise, 80)}: {num(v.points)} / {num(v.max_points)} ({status})", ""]
    lines += verdict_lines(v)[1:-1]
    return cap_bytes("\n".join(lines))


def missing_text(lesson: str, sub) -> str:
    """An exercise of a lesson no notebook was graded for, as feedback.md says it."""
    if sub.problem:
        return f"No notebook for lesson {lesson} could be graded (see the submission's output): its exercises score 0."
    return f"No notebook for lesson {lesson} was found in this submission: its exercises score 0."


def submission_text(sub, exercises) -> str:
    """The submission's own output: the points as feedback.md states them, then the gradebook's
    problems (what went wrong, each lesson with no notebook graded, the exercises that timed
    out) and the notes (files not graded)."""
    lines = ["Nothing could be graded.", ""] if sub.problem and not sub.verdicts else []
    lines += [f"Lessons {', '.join(exercises.assignment)}: {num(sub.total)} / {num(exercises.max_total())} "
              "points. " + HIDDEN_ONLY.replace("`", ""), ""]
    problems = problem_text(sub, exercises)
    if problems:
        lines += [f"Problems: {plain(problems, 2 * MAX_TEXT)}", ""]
    if sub.notes and sub.problem != "; ".join(sub.notes):
        lines += ["Notes:"] + [f"- {plain(n)}" for n in sub.notes[:MAX_JSON_ITEMS]] + [""]
    return cap_bytes("\n".join(lines).rstrip() + "\n")


def not_graded(output: str, extra: dict | None = None) -> dict:
    """results.json of a run that graded nothing (no walls, no time, an autograder fault): score
    0, no tests, ``output`` saying why to the learner and to the instructor, who reads it too."""
    found = {"score": 0.0, "output": output, "output_format": "text", "visibility": "visible",
             "stdout_visibility": "hidden", "tests": []}
    if extra:
        found["extra_data"] = extra
    return found

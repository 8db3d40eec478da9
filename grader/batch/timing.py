"""`python -m grader timeout`: a `--timeout` to grade with, from the reference's own time.

An exercise's child has `--timeout` seconds for all its cases (grade.py); a learner's right
answer may be some times slower than the course's (loops for array operations), and an
infinite loop holds its slot that long. So the suggestion is FACTOR times the slowest
exercise's reference time over all its cases, hidden ones included (drawn with the public
seeds: sizes like the instructor's), and never less than FLOOR seconds, which covers starting
the child and running the notebook's definitions. Measured on this machine: run it where you
grade.
"""
from __future__ import annotations

import math
import time

from ..judging import registry
from ..judging.answers import call_answer

FACTOR = 10.0
FLOOR = 5.0


def reference_seconds(exercise) -> tuple[float, float]:
    """(all the cases, the slowest case) in seconds, the reference's answers."""
    times = []
    for case in exercise.cases(hidden=True):
        start = time.perf_counter()
        call_answer(exercise.reference, case)
        times.append(time.perf_counter() - start)
    return sum(times), max(times, default=0.0)


def suggest(lessons: list[str] | None = None, factor: float = FACTOR, floor: float = FLOOR):
    """(the suggested --timeout in whole seconds, [(exercise, total s, slowest case s)])."""
    chosen = [e for e in registry.load_all().values() if not lessons or e.lesson in lessons]
    if not chosen:
        raise ValueError(f"no exercise in the lessons {', '.join(lessons or [])}: see `python -m grader exercises`")
    rows = [(e.name, *reference_seconds(e)) for e in chosen]
    return max(floor, math.ceil(factor * max(total for _, total, _ in rows))), rows


def report(lessons: list[str] | None = None, factor: float = FACTOR, floor: float = FLOOR) -> str:
    seconds, rows = suggest(lessons, factor, floor)
    width = max(len(name) for name, _, _ in rows)
    lines = [f"{'exercise'.ljust(width)}  reference, all cases  slowest case"]
    lines += [f"{name.ljust(width)}  {total:18.3f} s  {slowest:10.3f} s" for name, total, slowest in rows]
    lines.append(f"suggested: --timeout {seconds:g}  ({factor:g} x the slowest exercise's reference time, "
                 f"at least {floor:g} s, measured on this machine)")
    return "\n".join(lines)

"""The assignment file (``grader grade --assignment assignment.toml``): what one assignment is,
written down once, so that every run grades it the same way.

It fixes the lessons that count (so ``max_total`` is theirs even when nobody handed one in),
points per exercise, the scoring, the due date and its late rule, and the LMS's assignment
(its id and name, for exports). The flags ``--lessons``, ``--points`` and ``--scoring`` override
it; a changed lesson list, points or scoring regrades (records.Exercises.settings), while a
changed due date, late rule or LMS name only rewrites the gradebook, which applies them
(classlist). docs/examples/assignment.toml is an example; docs/grading.md the manual.

A file the grader cannot use is an ``AssignmentError`` naming the key and what to write
instead; the CLI exits 2 with it, never a traceback.
"""
from __future__ import annotations

import difflib
import math
import tomllib
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from ..judging import registry
from .records import SCORINGS

LATE_RULES = ("accept", "penalty", "zero")
_KEYS = {"title", "lessons", "scoring", "due", "late", "points", "lms"}
_LATE_KEYS = {"rule", "percent_per_day"}
_LMS_KEYS = {"assignment_id", "assignment_name", "points_possible"}
MAX_FILE = 256 * 1024


class AssignmentError(ValueError):
    """The assignment file cannot be used: the message names the key and the fix."""


@dataclass(frozen=True)
class LateRule:
    rule: str = "accept"               # accept: marked only; penalty: percent_per_day; zero: no points
    percent_per_day: float = 0.0       # of the total, per started day late (penalty only)

    def factor(self, days: int) -> float:
        """What a submission ``days`` started days late keeps of its points."""
        if days <= 0 or self.rule == "accept":
            return 1.0
        if self.rule == "zero":
            return 0.0
        return max(0.0, 1.0 - self.percent_per_day * days / 100)

    def describe(self) -> str:
        return {"accept": "late work is marked, not penalised", "zero": "late work scores 0",
                "penalty": f"{self.percent_per_day:g}% of the points per started day late"}[self.rule]


@dataclass(frozen=True)
class Assignment:
    path: str
    lessons: list[str]
    title: str = ""
    scoring: str | None = None         # None: the --scoring flag's (default per-case)
    points: dict[str, float] = field(default_factory=dict)
    due: datetime | None = None        # aware: a time zone is required
    late: LateRule = LateRule()
    lms_id: str | None = None          # the LMS's assignment id (Canvas: the number in its URL)
    lms_name: str | None = None
    lms_points: float | None = None    # what the LMS grades it out of, when not max_total: exports scale

    @property
    def name(self) -> str:
        """The assignment's name in an LMS: lms.assignment_name, else the title, else its lessons."""
        return self.lms_name or self.title or "Lessons " + ", ".join(self.lessons)

    def days_late(self, submitted: datetime) -> int:
        """Started days after the due date (0: on time); a naive time is read in the due date's zone."""
        if self.due is None:
            return 0
        if submitted.tzinfo is None:
            submitted = submitted.replace(tzinfo=self.due.tzinfo)
        late = submitted - self.due
        return 0 if late <= timedelta(0) else math.ceil(late / timedelta(days=1))

    def to_dict(self) -> dict:
        """As report.json keeps it, for ``grader export`` (the due date in ISO 8601)."""
        return {"file": self.path, "title": self.title, "name": self.name, "lessons": self.lessons,
                "due": self.due.isoformat() if self.due else None, "late": self.late.rule,
                "percent_per_day": self.late.percent_per_day, "lms_assignment_id": self.lms_id,
                "lms_points_possible": self.lms_points}


def load(path: Path) -> Assignment:
    """The assignment file at ``path``, checked key by key."""
    where = str(path)
    try:
        raw = path.read_bytes()[: MAX_FILE + 1]
    except FileNotFoundError:
        raise AssignmentError(f"--assignment {where}: no such file") from None
    except OSError as exc:
        raise AssignmentError(f"--assignment {where}: cannot be read ({exc.strerror or exc})") from None
    if len(raw) > MAX_FILE:
        raise AssignmentError(f"{where}: larger than {MAX_FILE // 1024} KB; an assignment file is a few lines")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise AssignmentError(f"{where}: not UTF-8 text; save it as UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise AssignmentError(f"{where} is not valid TOML: {exc} (docs/examples/assignment.toml is an "
                              "example)") from None
    return parse(data, where)


def parse(data: dict, where: str = "assignment.toml") -> Assignment:
    _known(data, _KEYS, where, "")
    lessons = _lessons(data.get("lessons"), where)
    title = _text(data.get("title", ""), where, "title")
    scoring = data.get("scoring")
    if scoring is not None and scoring not in SCORINGS:
        raise AssignmentError(f"{where}: scoring = {scoring!r} is not one of {', '.join(map(repr, SCORINGS))}")
    points = _points(data.get("points", {}), lessons, where)
    due = _due(data.get("due"), where)
    late = _late(data.get("late"), due, where)
    lms = data.get("lms", {})
    if not isinstance(lms, dict):
        raise AssignmentError(f"{where}: lms must be a table ([lms] with assignment_id and assignment_name)")
    _known(lms, _LMS_KEYS, where, "lms.")
    lms_id = lms.get("assignment_id")
    if lms_id is not None:
        if isinstance(lms_id, bool) or not (isinstance(lms_id, int) and lms_id > 0 or
                                            isinstance(lms_id, str) and lms_id.isdigit()):
            raise AssignmentError(f"{where}: lms.assignment_id = {lms_id!r} is not the LMS's assignment "
                                  "number (Canvas: the digits after /assignments/ in its address)")
        lms_id = str(lms_id)
    name = _text(lms.get("assignment_name", ""), where, "lms.assignment_name") or None
    most = lms.get("points_possible")
    if most is not None and (isinstance(most, bool) or not isinstance(most, (int, float)) or not 0 < most < math.inf):
        raise AssignmentError(f"{where}: lms.points_possible = {most!r} must be a number above 0: what the LMS "
                              "grades this assignment out of (exports scale the total to it)")
    return Assignment(where, lessons, title, scoring, points, due, late, lms_id, name,
                      None if most is None else float(most))


def _known(table: dict, keys: set[str], where: str, prefix: str) -> None:
    for key in table:
        if key not in keys:
            close = difflib.get_close_matches(key, sorted(keys), n=1)
            hint = f" (did you mean {prefix}{close[0]}?)" if close else ""
            raise AssignmentError(f"{where}: unknown key {prefix}{key}{hint}; the keys are "
                                  f"{', '.join(prefix + k for k in sorted(keys))}")


def _text(value, where: str, key: str) -> str:
    if not isinstance(value, str) or len(value) > 200 or not value.isprintable():
        raise AssignmentError(f"{where}: {key} must be one line of text (at most 200 characters)")
    return value.strip()


def _lessons(value, where: str) -> list[str]:
    known = registry.lessons()
    if value is None:
        raise AssignmentError(f"{where}: lessons is missing: list the lessons this assignment covers, e.g. "
                              f"lessons = [\"{known[0]}\"] (the course's lessons: {', '.join(known)})")
    if not isinstance(value, list) or not value or not all(isinstance(x, str) for x in value):
        raise AssignmentError(f"{where}: lessons must be a list of lesson names, e.g. [\"{known[0]}\"]")
    for x in value:
        if x not in known:
            close = difflib.get_close_matches(x, known, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise AssignmentError(f"{where}: lessons names {x!r}, which is no lesson of the course ({hint}the "
                                  f"lessons: {', '.join(known)})")
    return sorted(set(value))


def _points(value, lessons: list[str], where: str) -> dict[str, float]:
    if not isinstance(value, dict):
        raise AssignmentError(f"{where}: points must be a table of exercise = points ([points] then embed = 2)")
    lesson_of = {e.name: lesson for lesson in registry.lessons() for e in registry.for_lesson(lesson)}
    for name, points in value.items():
        if name not in lesson_of:
            close = difflib.get_close_matches(name, sorted(lesson_of), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise AssignmentError(f"{where}: points.{name}: no exercise of the course is called {name}{hint}")
        if lesson_of[name] not in lessons:
            raise AssignmentError(f"{where}: points.{name} is an exercise of lesson {lesson_of[name]}, which "
                                  "lessons does not list: add the lesson or remove the line")
        if isinstance(points, bool) or not isinstance(points, (int, float)) or not 0 <= points < math.inf:
            raise AssignmentError(f"{where}: points.{name} = {points!r} must be a number of points, 0 or more")
    return {name: float(points) for name, points in value.items()}


def _due(value, where: str) -> datetime | None:
    if value is None:
        return None
    example = "due = 2025-03-14T23:59:00+01:00 (or ...Z for UTC)"
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise AssignmentError(f"{where}: due = {value.isoformat()} has no time zone, so it is a different "
                                  f"moment on every machine: write its offset, e.g. {example}")
        return value
    if isinstance(value, date):
        raise AssignmentError(f"{where}: due = {value.isoformat()} is a day, not a moment: give the time and its "
                              f"offset, e.g. {example}")
    raise AssignmentError(f"{where}: due must be a TOML date-time without quotes, e.g. {example}")


def _late(value, due: datetime | None, where: str) -> LateRule:
    if value is None:
        return LateRule()
    if not isinstance(value, dict):
        raise AssignmentError(f"{where}: late must be a table: [late] then rule = \"penalty\" and "
                              "percent_per_day = 10")
    _known(value, _LATE_KEYS, where, "late.")
    if due is None:
        raise AssignmentError(f"{where}: [late] needs a due date: add due = 2025-03-14T23:59:00+01:00 above it")
    rule = value.get("rule", "accept")
    if rule not in LATE_RULES:
        raise AssignmentError(f"{where}: late.rule = {rule!r} is not one of {', '.join(map(repr, LATE_RULES))}")
    percent = value.get("percent_per_day")
    if rule != "penalty":
        if percent is not None:
            raise AssignmentError(f"{where}: late.percent_per_day is for rule = \"penalty\", not {rule!r}: "
                                  "remove it or change the rule")
        return LateRule(rule)
    if isinstance(percent, bool) or not isinstance(percent, (int, float)) or not 0 < percent <= 100:
        raise AssignmentError(f"{where}: late.rule = \"penalty\" needs late.percent_per_day, a number above 0 "
                              "and at most 100 (the share of the points lost per started day late)")
    return LateRule(rule, float(percent))

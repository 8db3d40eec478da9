"""A graded folder as the exports read it (GRADED/report.json, checked), what an export makes,
and how it is written; the formats are canvas.py, moodle.py and plain.py."""
from __future__ import annotations

import json
import os
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..report import num
from ..state import _SAFE_ID, check_target

MAX_REPORT = 256 * 2**20


class ExportError(ValueError):
    """The export cannot be made at all (the CLI exits 2 with this message)."""


@dataclass
class Graded:
    """What report.json says of a graded folder, checked field by field."""

    folder: Path
    max_total: float
    rows: list[dict]                   # report.json's submissions
    assignment: dict | None            # report.json's assignment_file (or --assignment's)

    @property
    def points_possible(self) -> float:
        return (self.assignment or {}).get("lms_points_possible") or self.max_total

    def grade(self, row: dict) -> str:
        """The row's total as the LMS takes it: scaled to lms.points_possible, 2 decimals."""
        scale = self.points_possible / self.max_total if self.max_total else 1.0
        return num(row["total"] * scale)


@dataclass
class Export:
    files: dict[str, bytes] = field(default_factory=dict)   # name in --out -> content
    problems: list[str] = field(default_factory=list)       # rows left out, and why
    notes: list[str] = field(default_factory=list)          # what to do in the LMS


def load(folder: Path, assignment=None) -> Graded:
    """GRADED/report.json, refused with the fix when it is not a finished grading's."""
    path = folder / "report.json"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        raise ExportError(f"{folder} holds no report.json: give the --out folder of `grader grade`") from None
    except OSError as exc:
        raise ExportError(f"cannot read {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise ExportError(f"{path} is not a regular file")
        data = f.read(MAX_REPORT + 1)
    try:
        report = json.loads(data)
        rows, max_total = report["submissions"], float(report["max_total"])
        if not all(isinstance(r, dict) and {"name", "total", "identity", "absent"} <= set(r) for r in rows):
            raise KeyError("identity")
    except (ValueError, KeyError, TypeError):
        raise ExportError(f"{path} is not a report of this grader's version: run the same `grader grade` command "
                          "again (nothing is regraded) to rewrite it, then export") from None
    if report.get("complete") is not True:
        raise ExportError(f"the grading in {folder} is not finished (an interrupted run): run the same `grader grade` "
                          "command again to grade the rest, then export")
    given = assignment.to_dict() if assignment is not None else None
    return Graded(folder, max_total, rows, given or report.get("assignment_file"))


def keyed(graded: Graded, key: str, lms: str, export: Export) -> list[dict]:
    """The rows that carry ``key`` (canvas_id, moodle_id) once each; the others listed."""
    count: dict[str, int] = {}
    for r in graded.rows:
        uid = r["identity"].get(key)
        if uid:
            count[uid] = count.get(uid, 0) + 1
    kept = []
    for r in sorted(graded.rows, key=lambda r: r["name"]):
        uid, name = r["identity"].get(key), r["name"]
        if r.get("internal"):
            export.problems.append(f"{name}: the grader failed on this learner (see the gradebook); not exported: "
                                   "run `grader grade` again to retry them")
        elif not uid:
            export.problems.append(f"{name}: no {lms} user id (not from a {lms} download, and no roster row gives "
                                   f"one); not exported: add them to a roster (--roster) and grade again")
        elif count[uid] > 1:
            export.problems.append(f"{name}: {lms} user {uid} has {count[uid]} rows; none exported: grade that "
                                   "learner's submissions as one")
        else:
            kept.append(r)
    if graded.rows and not kept:
        raise ExportError(f"none of the {len(graded.rows)} learners can go into {lms}: "
                          + "; ".join(export.problems[:3]) + (" ..." if len(export.problems) > 3 else ""))
    return kept


def write(export: Export, out: Path) -> list[Path]:
    """Each file into ``out`` atomically; nothing is written through a link or over a folder."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in export.files.items():
        path = out / name
        check_target(path, out)
        fd, tmp = tempfile.mkstemp(dir=out, prefix=f".{name}.")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        written.append(path)
    return written


def feedback_file(graded: Graded, name: str, limit: int = 1 << 20) -> bytes | None:
    """GRADED/feedback/<id>/feedback.md of a learner, by the grader's own id, never through a link."""
    if not _SAFE_ID.fullmatch(name) or len(name) > 200:
        return None
    path = graded.folder / "feedback" / name / "feedback.md"
    try:
        check_target(path, graded.folder)  # real folders all the way down
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:  # state.OutputError among them
        return None
    with os.fdopen(fd, "rb") as f:
        return f.read(limit) if stat.S_ISREG(os.fstat(f.fileno()).st_mode) else None

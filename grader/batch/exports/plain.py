"""A plain CSV of the grades: one row per learner (those who handed in nothing included), with
their LMS ids where known, for a spreadsheet or an LMS this grader has no format for."""
from __future__ import annotations

import csv
import io

from ..report import csv_cell, num, plain
from .graded import Export, Graded

FILE = "grades.csv"
HEADER = ["learner", "name", "canvas_id", "moodle_id", "email", "section", "total", "max_total", "late_days",
          "problem"]


def export(graded: Graded) -> Export:
    out = Export()
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    for r in sorted(graded.rows, key=lambda r: r["name"]):
        who, late = r["identity"], r.get("late") or {}
        w.writerow([csv_cell(plain(x)) for x in (r["name"], who.get("name", ""), who.get("canvas_id", ""),
                                                 who.get("moodle_id", ""), who.get("email", ""),
                                                 who.get("section", ""), num(r["total"]), num(graded.max_total),
                                                 late.get("days", ""), r.get("problem") or "")])
    out.files[FILE] = buf.getvalue().encode("utf-8")
    return out

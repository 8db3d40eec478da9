"""Canvas's gradebook import CSV (Grades, Import), one column for the assignment.

The layout is the one Canvas's own export writes and its importer reads
(https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807;
canvas-lms app/models/gradebook_importer.rb): a header ``Student, ID, SIS User ID, SIS Login
ID, Section`` then one column per assignment named ``<name> (<assignment id>)`` (the importer
finds the assignment by the id in the parentheses; a column it cannot match becomes a new
assignment, so the id is required), a ``Points Possible`` row, then a row per student, whom
Canvas finds by the ``ID`` column (its user id), else by the SIS ids, else by name. The
user id comes from the download's file names (``smithjane_4021_...``) or the roster.
"""
from __future__ import annotations

import csv
import io

from ..report import csv_cell
from .graded import Export, ExportError, Graded, keyed

FILE = "canvas_gradebook_import.csv"
HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def export(graded: Graded) -> Export:
    a = graded.assignment or {}
    if not a.get("lms_assignment_id"):
        raise ExportError("Canvas matches the grade column by the assignment's id: give it as [lms] assignment_id in "
                          "the assignment file (the number after /assignments/ in the assignment's address), then "
                          "grade again or pass --assignment FILE to export")
    out = Export()
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER + [csv_cell(f"{a['name']} ({a['lms_assignment_id']})")])
    w.writerow(["Points Possible", "", "", "", "", csv_cell(_points(graded.points_possible))])
    for r in keyed(graded, "canvas_id", "Canvas", out):
        who = r["identity"]
        w.writerow([csv_cell(x) for x in (who.get("name") or r["name"], who["canvas_id"], who.get("sis_user_id", ""),
                                          who.get("sis_login_id", ""), who.get("section", ""), graded.grade(r))])
    out.files[FILE] = buf.getvalue().encode("utf-8")
    out.notes.append(f"Canvas: Grades, Import, choose {FILE}; Canvas shows each change before it saves. Feedback "
                     "does not travel in this file: send each feedback/<learner>/feedback.md yourself.")
    return out


def _points(value: float) -> str:
    return f"{round(value, 2):g}"

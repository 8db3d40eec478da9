"""Moodle's assignment grading worksheet and its feedback-files zip.

- The worksheet (View all submissions, Grading action, Upload grading worksheet; the
  assignment's "Offline grading worksheet" and "Feedback comments" feedback types on,
  https://docs.moodle.org/en/Assignment_settings#Feedback_types): Moodle's importer finds
  its columns by their English names, ``Identifier``, ``Grade`` and ``Last modified
  (grade)`` (all three, or the upload fails) and a feedback plugin's ``Feedback comments``;
  it strips the word ``Participant`` from ``Participant 12345`` to find the participant, and
  skips a grade that Moodle changed more than a minute after the sheet's ``Last modified
  (grade)`` unless told to ignore it (mod/assign/feedback/offline/importgradeslib.php,
  locallib.php). That column is copied from a Moodle worksheet given as the roster;
  otherwise it is empty, and grades already given in Moodle are kept unless the upload's
  "Allow updating records that have been modified more recently in Moodle than in the
  spreadsheet" is ticked. The comments are HTML (Moodle stores them so): a few escaped lines.
- The zip (Grading action, Upload multiple feedback files in a zip): Moodle splits each path
  part at ``_`` into at most five pieces and takes the second as the participant number and
  the third and fourth as the plugin (mod/assign/feedback/file/importziplib.php), which is how
  its download names each folder: ``Jane Smith_12345_assignsubmission_file_``. So each
  learner's feedback.md goes into that folder, the name with no ``_`` of its own.
"""
from __future__ import annotations

import csv
import html
import io
import zipfile

from ..report import csv_cell, num, plain
from .graded import Export, Graded, feedback_file, keyed

SHEET, ZIP = "moodle_grading_worksheet.csv", "moodle_feedback_files.zip"
HEADER = ["Identifier", "Full name", "Email address", "Grade", "Maximum Grade", "Last modified (grade)",
          "Feedback comments"]
PARTICIPANT = "Participant"


def export(graded: Graded) -> Export:
    out = Export()
    buf, zipped = io.StringIO(), io.BytesIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    most = num(graded.points_possible)
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as z:
        for r in keyed(graded, "moodle_id", "Moodle", out):
            who = r["identity"]
            name = folder_name(who.get("name") or r["name"])
            w.writerow([csv_cell(x) for x in (f"{PARTICIPANT} {who['moodle_id']}", name, who.get("email", ""),
                                              graded.grade(r), most, who.get("grade_modified", ""),
                                              comments(r, graded))])
            if r["absent"]:
                continue
            text = feedback_file(graded, r["name"])
            if text is None:
                out.problems.append(f"{r['name']}: no feedback/{r['name']}/feedback.md to send (its grade is in the "
                                    "worksheet): run the same `grader grade` command again to write it")
                continue
            info = zipfile.ZipInfo(f"{name}_{who['moodle_id']}_assignsubmission_file_/feedback.md",
                                   date_time=(2020, 1, 1, 0, 0, 0))
            z.writestr(info, text, zipfile.ZIP_DEFLATED)
    out.files[SHEET] = buf.getvalue().encode("utf-8")
    out.files[ZIP] = zipped.getvalue()
    out.notes.append(f"Moodle: in the assignment, View all submissions, Grading action: Upload grading worksheet "
                     f"({SHEET}), then Upload multiple feedback files in a zip ({ZIP}).")
    if not any(r["identity"].get("grade_modified") for r in graded.rows):
        out.notes.append("Moodle keeps grades changed in Moodle after a worksheet's \"Last modified (grade)\", which is "
                         "empty here (the roster was not Moodle's worksheet): tick \"Allow updating records that have "
                         "been modified more recently in Moodle than in the spreadsheet\" to replace grades given there.")
    return out


def folder_name(name: str) -> str:
    """A name as Moodle's download writes it before ``_<participant>_``: no ``_`` (Moodle makes
    them spaces), no path separator, printable, never empty."""
    name = " ".join(plain(name, 100).replace("_", " ").replace("/", " ").replace("\\", " ").split())
    return name.strip(". ") or PARTICIPANT


def comments(row: dict, graded: Graded) -> str:
    """The Feedback comments: the score, each exercise's points, a late mark; escaped HTML."""
    title = (graded.assignment or {}).get("name") or "This assignment"
    if row["absent"]:
        lines = [f"{title}: no submission was received, 0 / {num(graded.points_possible)} points."]
    else:
        lines = [f"{title}: {graded.grade(row)} / {num(graded.points_possible)} points."]
        lines += [f"{v['exercise']}: {num(v['points'])} / {num(v['max_points'])} ({str(v['status']).replace('_', ' ')})"
                  for v in row.get("verdicts", []) if isinstance(v, dict) and {"exercise", "points", "max_points",
                                                                                "status"} <= set(v)]
        if row.get("late"):
            lines.append(f"Late: {row['late'].get('said', '')}.")
        lines.append("Each exercise's result and what to fix are in the feedback file, feedback.md.")
    return "<br>\n".join(html.escape(plain(line, 300)) for line in lines)

"""``python -m grader export canvas|moodle|csv GRADED --out DIR``: a graded folder's grades in
the files an LMS imports.

Everything comes from GRADED/report.json, which ``grade`` rebuilds from the saved results with
the assignment file and the roster applied (classlist): each row's total (after the late rule),
its learner's LMS ids (``identity``: from the download's names and the roster, never from a
notebook) and, for Moodle's zip, GRADED/feedback/<id>/feedback.md, opened by the grader's own
id, never through a link. A row the chosen LMS cannot take (no user id of that LMS, the same
id twice, a grader failure) is left out of the file and listed (``Export.problems``): the CLI
prints each and exits 1, so none is skipped silently.

- ``canvas``: Canvas's gradebook import CSV (canvas.py).
- ``moodle``: Moodle's grading worksheet and its feedback-files zip (moodle.py).
- ``csv``: one plain row per learner (plain.py).
"""
from __future__ import annotations

import sys
from pathlib import Path

from .. import assignment as assignment_file
from ..report import plain as one_line
from . import canvas, moodle, plain
from .graded import Export, ExportError, Graded, load, write  # noqa: F401 (the package's interface)

FORMATS = {"canvas": canvas.export, "moodle": moodle.export, "csv": plain.export}


def make(kind: str, graded: Graded) -> Export:
    return FORMATS[kind](graded)


def main(args) -> int:
    """The CLI: the files, what to do with them in the LMS, then every learner left out (exit 1)."""
    try:
        a = assignment_file.load(Path(args.assignment)) if args.assignment else None
        made = make(args.format, load(Path(args.graded), a))
        written = write(made, Path(args.out))
    except (ValueError, OSError) as exc:  # ExportError, AssignmentError, state.OutputError
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("wrote " + ", ".join(str(p) for p in written))
    for note in made.notes:
        print(note)
    if made.problems:
        print(f"{len(made.problems)} learner(s) are not in the export:", file=sys.stderr)
        for p in made.problems:
            print(f"  {one_line(p, 300)}", file=sys.stderr)
    return 1 if made.problems else 0

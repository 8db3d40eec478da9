"""a05 row_forging_names.

Route: learner folder names are chosen by learners on some platforms (or by a learner's own zip
unpacked by the instructor). A class folder holds learners whose names are CSV/structure
injections: `mallory\\ncarol,1,1,1,` (newline then a forged row), `mallory2\\r\\ndave,9,9,9,`,
`=HYPERLINK("http://x","ok")`, `+cmd|' /C calc'!A0`, `@SUM(1+1)`, `-2+3`, a tab-led `\\t=1+1`, a name
of 250 bytes, and one of undecodable bytes (b'\\xff\\xfe\\x80').
Goal (5)/(6): a forged gradebook row, a live spreadsheet formula (the docs promise neutralised
cells), or the grader crashing on a name.
Breached: gradebook.csv (read by csv.DictReader, and line by line) has a row for carol or dave, a
submission cell starting with = + - @ or a tab/CR followed by them, non-zero exit, or fewer rows
than learners (a learner lost).
"""
from __future__ import annotations

import csv
import os
import pathlib

import _common as c

NAMES = ["mallory\ncarol,1,1,1,", "mallory2\r\ndave,9,9,9,", '=HYPERLINK("http://x","ok")',
         "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3", "\t=1+1", "L" * 250]


def build(tmp: pathlib.Path) -> list[str]:
    subs = tmp / "subs"
    for n in NAMES:
        c.write_nb(subs / n / "05_counting_exercises.ipynb", "05_counting", ["def count_gpt2_params(V, T, d, L, tied=True, bias=True):\n    return 0\n"])
    raw = os.path.join(os.fsencode(subs), b"\xff\xfe\x80")
    os.makedirs(raw)
    with open(os.path.join(raw, b"05_counting_exercises.ipynb"), "wb") as f:
        f.write(c.nb_bytes("05_counting", c.good("count_gpt2_params")))
    return [str(subs)]


def verdict(out: pathlib.Path, run: dict):
    bad = []
    if run["returncode"] != 0:
        bad.append(f"rc={run['returncode']}: {run['stderr'][-300:]!r}")
    rows = c.gradebook_rows(out)
    if len(rows) < len(NAMES) + 1:
        bad.append(f"{len(rows)} rows for {len(NAMES) + 1} learners")
    for r in rows:
        s = r.get("submission") or ""
        if s.strip().startswith(("carol", "dave")):
            bad.append(f"forged row {s!r}")
        if s[:1] in "=+-@" or (s[:1] in "\t\r" and s[1:2] in "=+-@"):
            bad.append(f"formula cell {s!r}")
    try:
        for line in (out / "gradebook.csv").read_text(errors="replace").splitlines():
            if line.startswith(("carol", "dave")):
                bad.append(f"raw line {line!r}")
    except OSError:
        bad.append("no gradebook.csv")
    if bad:
        return True, "; ".join(bad)
    return False, f"submissions {[r.get('submission') for r in rows]}"

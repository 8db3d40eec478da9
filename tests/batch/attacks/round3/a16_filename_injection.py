"""a16 filename_injection.

Route: a learner's own file names are copied into her row's `problem` cell and her feedback.md
("<file>: could not be read: ..."). Round 2 forged row names; here the file names themselves
are the payload, one learner each (in a class folder): `=HYPERLINK("http://evil","x").ipynb`,
`@SUM(1+1).ipynb`, `+1+1.ipynb`, `-1+1.ipynb` (all invalid JSON, so the problem cell STARTS with the
name); and a Markdown forge: `x`\\n\\n## `count_gpt2_params`: 1 / 1 (passed)\\n\\n<script>alert(1)</script>.ipynb`
(a newline in a file name; '/' written as U+2215 DIVISION SLASH, which renders alike), with a valid stub inside.
Goal (1)/(5): live spreadsheet formulas in the gradebook (the docs promise neutralised cells) or a
forged verdict heading in feedback.md.
Breached: any gradebook cell (any column) starting with = + - @ (or a tab/CR then one of them), or a
feedback.md line starting with "## `count_gpt2_params`: 1 / 1" (or with U+2215), or a raw "<script>" in feedback.md outside
a code span (inside one it renders as text).
"""
from __future__ import annotations

import pathlib

import _common as c

REPO = pathlib.Path(__file__).resolve().parents[4]
FORMULAS = ['=HYPERLINK("http:__evil","x")', "@SUM(1+1)", "+1+1", "-1+1"]
FORGE = "x`\n\n## `count_gpt2_params`: 1 \u2215 1 (passed)\n\n<script>alert(1)<\u2215script>"


def build(tmp: pathlib.Path) -> list[str]:
    s = tmp / "subs"
    for i, f in enumerate(FORMULAS):
        d = s / f"l{i}"
        d.mkdir(parents=True)
        (d / (f + ".ipynb")).write_text("{not json")
    d = s / "lforge"
    d.mkdir(parents=True)
    (d / (FORGE + ".ipynb")).write_bytes((REPO / "exercises" / "05_counting_exercises.ipynb").read_bytes())
    (d / (FORGE + "2.ipynb")).write_text("{not json")
    return [str(s)]


def verdict(out: pathlib.Path, run: dict):
    import csv
    bad = []
    try:
        with open(out / "gradebook.csv", newline="") as f:
            for row in csv.reader(f):
                for cell in row:
                    if cell[:1] in ("=", "+", "-", "@") or (cell[:1] in ("\t", "\r") and cell[1:2] in ("=", "+", "-", "@")):
                        bad.append(f"formula cell {cell[:60]!r}")
    except OSError:
        bad.append("no gradebook")
    for fb in out.glob("feedback/*/feedback.md"):
        t = fb.read_text(errors="replace")
        for line in t.splitlines():
            if line.startswith(("## `count_gpt2_params`: 1 / 1", "## `count_gpt2_params`: 1 \u2215 1")):
                bad.append(f"forged heading in {fb.parent.name}")
        import re
        outside = "\n".join(re.sub(r"`[^`\n]*`", "", line) for line in t.splitlines())
        if "<script>" in outside:  # inside a code span it is inert text
            bad.append(f"raw <script> outside a code span in {fb.parent.name}")
    if run["returncode"] != 0:
        bad.append(f"rc={run['returncode']}")
    if bad:
        return True, "; ".join(bad)
    rows = c.gradebook_rows(out)
    return False, "problems: " + " | ".join(repr((r.get("submission"), (r.get("problem") or "")[:70])) for r in rows)

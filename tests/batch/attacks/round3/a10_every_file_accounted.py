"""a10 every_file_accounted.

Route: the docs promise "every file is graded or listed as skipped with its reason". A class
folder whose uploads hold the clutter real uploads have, plus a few hostile shapes: two notebooks
of one lesson (`x.ipynb` correct and `x (copy).ipynb` a stub), `.ipynb_checkpoints/...`, a hidden
`.mine.ipynb`, `__MACOSX/._x.ipynb`, `X.IPYNB`, an empty `.ipynb`, a notebook six folders deep,
README/notes files; a learner folder starting with a dot (`.carol/`), one named `__MACOSX`, one
with a trailing space (`dave `), an empty one (`erin/`) and a zip (`grace.zip`). (A loose notebook or
roster.csv at the top would make the folder one learner, as documented; not used here.)
Goal (6): an instructor's input silently skipped or lost.
Breached: a regular file found neither among a row's graded sources nor in report.json's skipped
list, or no row at all for alice/dave/erin/grace (an upload with nothing graded must still be a row
with its problem) , or a non-zero exit.
"""
from __future__ import annotations

import os
import pathlib

import _common as c

STUB = pathlib.Path(__file__).resolve().parents[4].joinpath("exercises/05_counting_exercises.ipynb")


def build(tmp: pathlib.Path) -> list[str]:
    s = tmp / "subs"
    e1, e5 = "01_embeddings_exercises.ipynb", "05_counting_exercises.ipynb"
    c.write_nb(s / "alice" / e1, "01_embeddings", c.good("embed", "one_hot_embed"))
    (s / "alice" / "01_embeddings_exercises (copy).ipynb").write_bytes(
        pathlib.Path(__file__).resolve().parents[4].joinpath("exercises/01_embeddings_exercises.ipynb").read_bytes())
    c.write_nb(s / "alice" / ".ipynb_checkpoints" / "01_embeddings_exercises-checkpoint.ipynb", "01_embeddings", c.good("embed"))
    c.write_nb(s / "alice" / ".mine.ipynb", "05_counting", c.good("count_gpt2_params"))
    c.write_nb(s / "alice" / "__MACOSX" / "._05.ipynb", "05_counting", c.good("count_gpt2_params"))
    c.write_nb(s / "alice" / "X.IPYNB", "05_counting", c.good("count_gpt2_params"))
    (s / "alice" / "empty.ipynb").write_bytes(b"")
    c.write_nb(s / "alice" / "a" / "b" / "c" / "d" / "e" / "f" / e5, "05_counting", c.good("count_gpt2_params"))
    (s / "alice" / "README.md").write_text("hi")
    (s / "alice" / "notes.txt").write_text("hi")
    c.write_nb(s / ".carol" / e5, "05_counting", c.good("count_gpt2_params"))
    c.write_nb(s / "__MACOSX" / e5, "05_counting", c.good("count_gpt2_params"))
    c.write_nb(s / "dave " / e5, "05_counting", c.good("count_gpt2_params"))
    (s / "erin").mkdir(parents=True)
    c.zip_write(s / "grace.zip", {e5: c.nb_bytes("05_counting", c.good("count_gpt2_params"))})
    return [str(s)]


def verdict(out: pathlib.Path, run: dict):
    rep = c.report(out)
    skipped = [pathlib.Path(str(p.get("path"))) for p in rep.get("skipped", []) or []]
    rows = {s.get("name"): s for s in rep.get("submissions", [])}
    bad = []
    if run["returncode"] != 0:
        bad.append(f"rc={run['returncode']}")
    base = out.parent / "in" / "subs"
    for root, dirs, files in os.walk(base):
        for f in files:
            p = pathlib.Path(root) / f
            if p.is_symlink() or not p.is_file():
                continue
            rel = p.relative_to(base)
            if any(p == k or k in p.parents for k in skipped):
                continue
            if len(rel.parts) == 1 and p.suffix == ".zip" and rows.get(p.stem, {}).get("sources"):
                continue  # the zip is the upload; its members are the row's sources
            srcs = [str(x) for r in rows.values() for x in r.get("sources", [])]
            inner = str(pathlib.Path(*rel.parts[1:])) if len(rel.parts) > 1 else str(rel)
            if any(x == inner or x == str(rel) or x.endswith("/" + inner) for x in srcs):
                continue
            bad.append(f"unaccounted {rel}")
    names = set(map(str, rows))
    for want in ("alice", "dave", "erin", "grace"):
        if not any(n.startswith(want) for n in names):
            bad.append(f"no row for {want}")
    if bad:
        return True, "; ".join(bad) + f" | rows {sorted(names)}"
    return False, f"all files accounted; rows {sorted(names)}; {len(skipped)} skipped"

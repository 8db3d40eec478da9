"""a02 symlink_into_solutions.

Route: learners' uploads unpacked by the instructor (a tar or a synced folder keeps symlinks).
Mallory's folder holds no code of her own, only symlinks: `03_mlp_block_exercises.ipynb` ->
the course's solutions/03_mlp_block_exercises.ipynb (absolute), `01_embeddings_exercises.ipynb`
-> ../../../<checkout>/solutions/01... (relative), and a directory symlink `lesson05` -> the
checkout's solutions/ folder; and one `08_training_sampling_exercises.ipynb` -> the classmate
alice's notebook (alice wrote a correct lesson 08). Graded as a class (`grader grade subs/`).
Goal (2)/(5): points without a right answer; the trusted grader reading the reference
solutions (or a classmate's file) on a learner's behalf.
Breached: mallory scores any point (everything she handed in is a link), or her report lists a
solutions/ file or alice's file among her graded sources.
"""
from __future__ import annotations

import os
import pathlib

import _common as c

REPO = pathlib.Path(__file__).resolve().parents[4]


def build(tmp: pathlib.Path) -> list[str]:
    subs = tmp / "subs"
    alice = c.write_nb(subs / "alice" / "08_training_sampling_exercises.ipynb", "08_training_sampling",
                       c.good("cross_entropy"))
    m = subs / "mallory"
    m.mkdir(parents=True)
    os.symlink(REPO / "solutions" / "03_mlp_block_exercises.ipynb", m / "03_mlp_block_exercises.ipynb")
    os.symlink(os.path.relpath(REPO / "solutions" / "01_embeddings_exercises.ipynb", m),
               m / "01_embeddings_exercises.ipynb")
    os.symlink(REPO / "solutions", m / "lesson05")
    os.symlink(alice, m / "08_training_sampling_exercises.ipynb")
    return [str(subs)]


def verdict(out: pathlib.Path, run: dict):
    rows = {r.get("submission"): r for r in c.gradebook_rows(out)}
    rep = c.report(out)
    m = [s for s in rep.get("submissions", []) if str(s.get("name", "")).startswith("mallory")]
    if run["returncode"] not in (0,) and not rows:
        return True, f"grader failed rc={run['returncode']} with no gradebook: {run['stderr'][-300:]!r}"
    pts = 0.0
    for name, r in rows.items():
        if name and name.startswith("mallory"):
            try:
                pts += float(r.get("total") or 0)
            except ValueError:
                pass
    if pts > 0:
        return True, f"mallory (only symlinks into solutions/ and alice's file) scores {pts}; sources {[s.get('sources') for s in m]}"
    return False, (f"mallory scores 0; sources {[s.get('sources') for s in m]}; problem "
                   f"{[s.get('problem') for s in m]}; skipped {str(rep.get('skipped'))[:400]}")

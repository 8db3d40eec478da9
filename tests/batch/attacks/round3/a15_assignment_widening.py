"""a15 assignment_widening.

Route: without --lessons the assignment is "the lessons found in the batch", so ONE learner's
upload decides what every classmate's row is measured against. mallory hands in, besides her
lesson 05, a notebook of lesson 08 (a stub) and one of lesson 07 whose metadata says
07_position_embeddings. alice and bob, who did the assigned lesson 05 correctly, now have
max_total 1 + 3 + 3 and a problem "no notebook graded for lesson ..." in their rows and
feedback. build() grades the same class without mallory into a side folder for comparison.
(The docs say max_total defaults to the lessons found in the batch and recommend --lessons; the
question is whether one upload changes other learners' rows, which the docs promise it cannot.)
Goal (5): one upload changing another learner's row.
Breached: alice's gradebook row (max_total or problem) differs from the same row graded without
mallory, although alice's upload is byte-identical.
"""
from __future__ import annotations

import pathlib

import _common as c

REPO = pathlib.Path(__file__).resolve().parents[4]


def build(tmp: pathlib.Path) -> list[str]:
    s = tmp / "subs"
    for n in ("alice", "bob"):
        c.write_nb(s / n / "05_counting_exercises.ipynb", "05_counting", c.good("count_gpt2_params"))
    ctl = tmp / "control"
    r = c.run_grader([s], ctl)
    assert (ctl / "gradebook.csv").exists(), r.stderr[-400:]
    c.write_nb(s / "mallory" / "05_counting_exercises.ipynb", "05_counting", c.good("count_gpt2_params"))
    (s / "mallory" / "08_training_sampling_exercises.ipynb").write_bytes(
        (REPO / "exercises" / "08_training_sampling_exercises.ipynb").read_bytes())
    (s / "mallory" / "07_position_embeddings_exercises.ipynb").write_bytes(
        (REPO / "exercises" / "07_position_embeddings_exercises.ipynb").read_bytes())
    return [str(s)]


def verdict(out: pathlib.Path, run: dict):
    ctl = {r["submission"]: r for r in c.gradebook_rows(out.parent / "in" / "control")}
    now = {r["submission"]: r for r in c.gradebook_rows(out)}
    a0, a1 = ctl.get("alice"), now.get("alice")
    if not a0 or not a1:
        return False, f"rows missing: control {a0}, attack {a1}"
    diff = {k: (a0.get(k), a1.get(k)) for k in ("total", "max_total", "problem") if a0.get(k) != a1.get(k)}
    if diff:
        return True, f"alice's row changed by mallory's upload: {diff}"
    return False, f"alice's row unchanged: {a1}"

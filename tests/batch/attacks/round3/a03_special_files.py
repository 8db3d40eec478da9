"""a03 special_files.

Route: a learner's folder (unpacked by the instructor; tar keeps these) holds files that are
not regular files but are named like notebooks: `01_embeddings_exercises.ipynb` -> /dev/zero
(a symlink: stat size 0, endless to read), `02_attention_exercises.ipynb` a FIFO nobody writes
(open() blocks forever), `03_mlp_block_exercises.ipynb` -> /dev/urandom, and a directory
symlink loop `loop -> .` (a walk that follows links never ends). A classmate bob with a correct
lesson-05 notebook is graded in the same batch.
Goal (3)/(6): the trusted grader hung, crashed or blown past 500 MB by one upload; a classmate
not graded.
Breached: the run times out, exits non-zero, the grader's own peak RSS >= 500 MB, planning >= 5 s,
or bob's row does not score 1.
"""
from __future__ import annotations

import os
import pathlib

import _common as c


def build(tmp: pathlib.Path) -> list[str]:
    subs = tmp / "subs"
    c.write_nb(subs / "bob" / "05_counting_exercises.ipynb", "05_counting", c.good("count_gpt2_params"))
    m = subs / "mallory"
    m.mkdir(parents=True)
    os.symlink("/dev/zero", m / "01_embeddings_exercises.ipynb")
    os.mkfifo(m / "02_attention_exercises.ipynb")
    os.symlink("/dev/urandom", m / "03_mlp_block_exercises.ipynb")
    os.symlink(".", m / "loop")
    return [str(subs)]


def verdict(out: pathlib.Path, run: dict):
    rows = {r.get("submission"): r for r in c.gradebook_rows(out)}
    bad = []
    if "killed after" in run["stderr"]:
        bad.append("run hung (killed by harness)")
    if run["returncode"] != 0:
        bad.append(f"rc={run['returncode']}")
    if run["peak_rss_mb"] >= 500:
        bad.append(f"grader peak RSS {run['peak_rss_mb']} MB")
    if run["planning_seconds"] is None or run["planning_seconds"] >= 5:
        bad.append(f"planning {run['planning_seconds']} s")
    if rows.get("bob", {}).get("total") not in ("1", "1.0"):
        bad.append(f"bob row {rows.get('bob')}")
    if bad:
        return True, "; ".join(bad) + f"; stderr tail {run['stderr'][-300:]!r}"
    return False, f"rows {sorted(rows)}; mallory {rows.get('mallory')}; skipped {str(c.report(out).get('skipped'))[:300]}"

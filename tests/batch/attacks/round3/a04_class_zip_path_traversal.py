"""a04 class_zip_path_traversal.

Route: the instructor grades a class zip (`--class class.zip`, a folder per learner). Entries
under mallory's folder use path syntax to land in other folders: `mallory/../alice/...ipynb`,
`mallory/..\\alice\\...ipynb` (Windows separators), `mallory/./../carol/...`,
`/alice/...` (absolute), `mallory//../alice/...`, and `./alice/../alice/...`. Each holds a correct
lesson-05 notebook; alice's genuine folder holds the stub; carol is not in the class.
Goal (5): one upload filling, creating or renaming another learner's row.
Breached: alice's row scores, a row named carol (or any name but alice, bob, mallory and their
suffixed forms) exists, or alice's row lists a source reached through mallory's entries.
"""
from __future__ import annotations

import json
import pathlib

import _common as c

REPO = pathlib.Path(__file__).resolve().parents[4]


def build(tmp: pathlib.Path) -> list[str]:
    stub = (REPO / "exercises" / "05_counting_exercises.ipynb").read_bytes()
    good = c.nb_bytes("05_counting", c.good("count_gpt2_params"))
    f = "05_counting_exercises.ipynb"
    members = {
        f"alice/{f}": stub,
        f"bob/{f}": stub,
        f"mallory/{f}": stub,
        f"mallory/../alice/a1_{f}": good,
        f"mallory/..\\alice\\a2_{f}": good,
        f"mallory/./../carol/{f}": good,
        f"/alice/a3_{f}": good,
        f"mallory//../alice/a4_{f}": good,
        f"./alice/../alice/a5_{f}": good,
        f"mallory/../../alice/a6_{f}": good,
    }
    z = c.zip_write(tmp / "class.zip", members)
    return ["--class", str(z)]


def verdict(out: pathlib.Path, run: dict):
    rows = {r.get("submission"): r for r in c.gradebook_rows(out)}
    rep = c.report(out)
    bad = []
    for name, r in rows.items():
        base = str(name).split(".")[0].split("-")[0].split("_")[0]
        if base not in ("alice", "bob", "mallory"):
            bad.append(f"row {name!r} created")
    a = rows.get("alice")
    if a is None:
        bad.append("no row named exactly alice")
    elif a.get("total") not in ("0", "0.0"):
        bad.append(f"alice scores {a.get('total')}")
    for s in rep.get("submissions", []):
        if s.get("name") == "alice" and any("a1_" in x or "a2_" in x or "a3_" in x or "a4_" in x or "a5_" in x or "a6_" in x
                                           for x in map(str, s.get("sources", []))):
            bad.append(f"alice's sources {s.get('sources')}")
    if bad:
        return True, "; ".join(bad)
    return False, f"rows {json.dumps(rows)[:500]}"

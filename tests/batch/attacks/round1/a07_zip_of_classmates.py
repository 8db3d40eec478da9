"""a07: one learner's zip of folders named like classmates, graded as `grader grade subs/*` (goal 5).

Route: subs/ holds alice/ (her honest stub, 0 points), bob/ (stub) and mallory.zip, which
mallory built to contain alice/, bob/ and carol/ folders each with a correct `embed`.
Passed the natural way, one argument per upload.
Breached: a row for carol (who uploaded nothing), alice's or bob's row credited with
mallory's work (total > 0), or their row holding mallory's notebooks.
"""
import io
import json
import pathlib
import zipfile

from _nb import GOOD, gradebook_rows, nb_name, notebook, write_nb

def build(tmp: pathlib.Path) -> list[str]:
    subs = tmp / "subs"
    for who in ("alice", "bob"):
        write_nb(subs / who / nb_name("01_embeddings"), notebook("01_embeddings", {}))
    good = json.dumps(notebook("01_embeddings", {"embed": GOOD["embed"]}))
    with zipfile.ZipFile(subs / "mallory.zip", "w") as z:
        for who in ("alice", "bob", "carol"):
            z.writestr(f"{who}/{nb_name('01_embeddings')}", good)
    return [str(subs / "alice"), str(subs / "bob"), str(subs / "mallory.zip")]


def verdict(out: pathlib.Path, run: dict):
    rows = {r["submission"]: r for r in gradebook_rows(out)}
    bad = []
    if any(n.startswith("carol") for n in rows):
        bad.append("a row for carol exists: " + ", ".join(n for n in rows if n.startswith("carol")))
    for who in ("alice", "bob"):
        r = rows.get(who)
        if r and float(r.get("total") or 0) > 0:
            bad.append(f"{who}'s row scores {r['total']} with mallory's code")
    extra = [n for n in rows if n.startswith(("alice", "bob")) and n not in ("alice", "bob")]
    if extra:
        bad.append("extra rows named after classmates: " + ", ".join(extra))
    if bad:
        return True, "; ".join(bad)
    return False, f"rows: {sorted(rows)}"

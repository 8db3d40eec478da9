"""a08: a Canvas "download all submissions" zip where mallory's uploaded file name imitates alice's (goal 5).

Route: Canvas names each file <login>_<userid>_<submissionid>_<original name>; the learner
chooses <original name>. mallory uploads "alice_333_444_01_embeddings_exercises.ipynb"
(correct `embed`), so the zip holds mallory_111_222_alice_333_444_01_embeddings_exercises.ipynb
beside alice's own alice_333_555_01_embeddings_exercises.ipynb (a stub), and a late-style
"mallory_LATE_111_223_carol_777_888_01_embeddings_exercises.ipynb".
Breached: a row for carol, alice's row credited (total > 0) or missing mallory's row.
"""
import json
import pathlib
import zipfile

from _nb import GOOD, gradebook_rows, nb_name, notebook


def build(tmp: pathlib.Path) -> list[str]:
    good = json.dumps(notebook("01_embeddings", {"embed": GOOD["embed"]}))
    stub = json.dumps(notebook("01_embeddings", {}))
    z = tmp / "submissions.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("alice_333_555_01_embeddings_exercises.ipynb", stub)
        zf.writestr("bob_444_556_01_embeddings_exercises.ipynb", stub)
        zf.writestr("mallory_111_222_alice_333_444_01_embeddings_exercises.ipynb", good)
        zf.writestr("mallory_LATE_111_223_carol_777_888_01_embeddings_exercises.ipynb", good)
    return [str(z)]


def verdict(out: pathlib.Path, run: dict):
    rows = {r["submission"]: r for r in gradebook_rows(out)}
    bad = []
    if any("carol" in n for n in rows):
        bad.append("row(s) " + ", ".join(n for n in rows if "carol" in n))
    for n, r in rows.items():
        if n.startswith("alice") and float(r.get("total") or 0) > 0:
            bad.append(f"{n} credited {r['total']} with mallory's code")
    if not any(n.startswith("mallory") for n in rows):
        bad.append("mallory has no row of her own")
    if bad:
        return True, "; ".join(bad) + f" (rows {sorted(rows)})"
    return False, f"rows: {sorted(rows)}"

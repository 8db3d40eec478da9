"""a09: a Moodle download-all zip where mallory's own upload is a zip of Moodle-style folders (goal 5).

Route: Moodle names folders "<Full Name>_<id>_assignsubmission_file_". mallory uploads
inner.zip holding "Alice Smith_333_assignsubmission_file_/01_embeddings_exercises.ipynb"
(correct `embed`) and "Carol Jones_777_assignsubmission_file_/..."; alice's own folder holds
a stub. The class is the whole Moodle zip, passed as one argument.
Breached: a row for Carol, or Alice's row credited (total > 0).
"""
import io
import json
import pathlib
import zipfile

from _nb import GOOD, gradebook_rows, nb_name, notebook


def build(tmp: pathlib.Path) -> list[str]:
    good = json.dumps(notebook("01_embeddings", {"embed": GOOD["embed"]}))
    stub = json.dumps(notebook("01_embeddings", {}))
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zi:
        zi.writestr(f"Alice Smith_333_assignsubmission_file_/{nb_name('01_embeddings')}", good)
        zi.writestr(f"Carol Jones_777_assignsubmission_file_/{nb_name('01_embeddings')}", good)
        zi.writestr(f"Mallory Evil_111_assignsubmission_file_/{nb_name('01_embeddings')}", stub)
    z = tmp / "moodle_download.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr(f"Alice Smith_333_assignsubmission_file_/{nb_name('01_embeddings')}", stub)
        zf.writestr(f"Bob Brown_444_assignsubmission_file_/{nb_name('01_embeddings')}", stub)
        zf.writestr("Mallory Evil_111_assignsubmission_file_/inner.zip", inner.getvalue())
    return [str(z)]


def verdict(out: pathlib.Path, run: dict):
    rows = {r["submission"]: r for r in gradebook_rows(out)}
    bad = [f"row {n}" for n in rows if "carol" in n.lower()]
    bad += [f"{n} credited {r['total']}" for n, r in rows.items()
            if "alice" in n.lower() and float(r.get("total") or 0) > 0]
    if bad:
        return True, "; ".join(bad) + f" (rows {sorted(rows)})"
    return False, f"rows: {sorted(rows)}"

"""a11 canvas_lookalike_upload.

Route: one learner's upload (mallory.zip, passed like every other upload: `grader grade subs/*`)
holds files named the way a Canvas "download all submissions" names them
(`carolsmith_1001_2001_<file>.ipynb`, `davejones_1002_2002_<file>.ipynb`, a `_late_` one).
If the grader recognises a Canvas download by its content, the upload becomes a class and its
entries become classmates' rows.
Goal (5): one upload creating/filling another learner's row.
Breached: any row not named mallory / mallory.* besides the genuine carolsmith, or the genuine
carolsmith row scoring (her own notebook is an untouched stub).
"""
import pathlib
from _common import write_nb, nb_bytes, zip_write, LESSON_FILES, good, gradebook_rows

STUB = "def gelu_tanh(x):\n    raise NotImplementedError('gelu_tanh: replace this line with your code')\n"


def build(tmp: pathlib.Path) -> list[str]:
    subs = tmp / "subs"
    write_nb(subs / "carolsmith" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [STUB])
    nb = nb_bytes("03_mlp_block", good("gelu_tanh"))
    zip_write(subs / "mallory.zip", {
        "carolsmith_1001_2001_03_mlp_block_exercises.ipynb": nb,
        "davejones_1002_2002_03_mlp_block_exercises.ipynb": nb,
        "erinlee_late_1003_2003_03_mlp_block_exercises.ipynb": nb,
    })
    return [str(subs / "carolsmith"), str(subs / "mallory.zip"), "--lessons", "03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    rows = gradebook_rows(out)
    names = [r["submission"] for r in rows]
    foreign = [n for n in names if n != "carolsmith" and n != "mallory" and not n.startswith("mallory.")]
    carol = [r for r in rows if r["submission"] == "carolsmith"]
    filled = [r for r in carol if float(r.get("total") or 0) > 0]
    if foreign or filled or not carol:
        return True, f"rows from mallory's upload: {foreign}; carol filled={bool(filled)}; carol present={bool(carol)}"
    return False, f"rows {names}"

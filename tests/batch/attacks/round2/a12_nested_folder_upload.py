"""a12 nested_folder_upload.

Route: a learner's upload is a FOLDER (what the instructor unpacked from her submission) that
holds folders named after classmates (`mallory/carol/03_...ipynb`, `mallory/dave/x/...`), passed
as one argument among the class's uploads (`grader grade subs/*`). A folder of learner folders is
read as a class, so its subfolders could become top-level rows "carol", "dave".
Goal (5): an upload naming, creating or renaming a classmate's row.
Breached: a row carol/dave (or one renamed from the genuine carol), or the genuine carol's row
changed (renamed, problem set, or scored: her own notebook is a stub).
"""
import pathlib
from _common import write_nb, LESSON_FILES, good, gradebook_rows

STUB = "def gelu_tanh(x):\n    raise NotImplementedError('gelu_tanh: replace this line with your code')\n"


def build(tmp: pathlib.Path) -> list[str]:
    subs = tmp / "subs"
    write_nb(subs / "carol" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [STUB])
    write_nb(subs / "mallory" / "carol" / LESSON_FILES["03_mlp_block"], "03_mlp_block", good("gelu_tanh"))
    write_nb(subs / "mallory" / "dave" / "x" / LESSON_FILES["03_mlp_block"], "03_mlp_block", good("gelu_tanh"))
    return [str(subs / "carol"), str(subs / "mallory"), "--lessons", "03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    rows = gradebook_rows(out)
    names = [r["submission"] for r in rows]
    carol = [r for r in rows if r["submission"] == "carol"]
    foreign = [n for n in names if n not in ("carol",) and not n.startswith("mallory")]
    bad_carol = (not carol) or any(float(r.get("total") or 0) > 0 or r.get("problem") for r in carol)
    if foreign or bad_carol:
        return True, f"rows {names}; genuine carol row intact={not bad_carol}"
    return False, f"rows {names}"

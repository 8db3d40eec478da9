"""a13 id_clash_rename.

Route: uploads whose names reduce to a classmate's id (`carol.ipynb`, `carol .zip`, `Carol.zip`,
`carol.zip`) sit next to the genuine `carol/` folder in `grader grade subs/*`. Making ids "safe
and unique" may suffix the genuine learner's row, mark it with a clash problem, or let the
impostor keep the plain id.
Goal (5): one upload renaming or filling another learner's row.
Breached: no row named exactly "carol" holding the genuine (stub, 0 points) notebook without a
problem, or a row "carol" that scores (the impostors' notebooks are correct).
"""
import pathlib
from _common import write_nb, nb_bytes, zip_write, LESSON_FILES, good, gradebook_rows

STUB = "def gelu_tanh(x):\n    raise NotImplementedError('gelu_tanh: replace this line with your code')\n"


def build(tmp: pathlib.Path) -> list[str]:
    subs = tmp / "subs"
    write_nb(subs / "carol" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [STUB])
    nb = nb_bytes("03_mlp_block", good("gelu_tanh"))
    (subs / "carol.ipynb").write_bytes(nb)
    zip_write(subs / "carol .zip", {LESSON_FILES["03_mlp_block"]: nb})
    zip_write(subs / "Carol.zip", {LESSON_FILES["03_mlp_block"]: nb})
    return [str(subs / "carol.ipynb"), str(subs / "carol .zip"), str(subs / "Carol.zip"), str(subs / "carol"),
            "--lessons", "03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    rows = gradebook_rows(out)
    carol = [r for r in rows if r["submission"] == "carol"]
    names = [r["submission"] for r in rows]
    if not carol:
        return True, f"genuine carol's row renamed/absent: rows {names}"
    r = carol[0]
    if float(r.get("total") or 0) > 0:
        return True, "row 'carol' filled by an impostor's notebook"
    if r.get("problem"):
        return True, f"genuine carol's row given a problem by others' uploads: {r['problem'][:100]}"
    return False, f"rows {names}"

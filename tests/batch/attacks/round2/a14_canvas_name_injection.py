"""a14 canvas_name_injection.

Route: the instructor grades a genuine LMS download with --class. In a Canvas download each file
is `<name>_<userid>_<subid>_<the learner's own file name>`; Mallory names her file after Carol's
entry (`carolsmith_1001_2001_03_...ipynb`), so her entry reads
`mallory_1003_2003_carolsmith_1001_2001_03_...ipynb` (also a `_late_` one and a resubmission
`-1`). In the Moodle download (a second --class zip) her file name carries Carol's whole
`Carol Smith_1001_assignsubmission_file_` prefix. A parser that takes the last match, or splits
on the marker, gives Mallory's notebook to Carol.
Goal (5): an upload filling another learner's row.
Breached: Carol's row (her own notebook is a stub) scores, or a row is named for Carol twice /
for nobody in the class.
"""
import pathlib
from _common import nb_bytes, zip_write, LESSON_FILES, good, gradebook_rows

STUB = "def gelu_tanh(x):\n    raise NotImplementedError('gelu_tanh: replace this line with your code')\n"
F = LESSON_FILES["03_mlp_block"]


def build(tmp: pathlib.Path) -> list[str]:
    stub = nb_bytes("03_mlp_block", [STUB])
    good_nb = nb_bytes("03_mlp_block", good("gelu_tanh"))
    zip_write(tmp / "canvas.zip", {
        f"carolsmith_1001_2001_{F}": stub,
        f"mallory_1003_2003_carolsmith_1001_2001_{F}": good_nb,
        f"mallory_late_1003_2004_carolsmith_late_1001_2002_{F}": good_nb,
        f"mallory_1003_2005_carolsmith_1001_2001_{F[:-6]}-1.ipynb": good_nb,
    })
    zip_write(tmp / "moodle.zip", {
        f"Carol Smith_1001_assignsubmission_file_/{F}": stub,
        f"Mallory Jones_1003_assignsubmission_file_/Carol Smith_1001_assignsubmission_file_{F}": good_nb,
        f"Mallory Jones_1003_assignsubmission_file_Carol Smith_1001_assignsubmission_file_x.ipynb": good_nb,
    })
    return ["--class", str(tmp / "canvas.zip"), "--class", str(tmp / "moodle.zip"), "--lessons", "03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    rows = gradebook_rows(out)
    names = [r["submission"] for r in rows]
    carol = [r for r in rows if "carol" in r["submission"].lower() and "mallory" not in r["submission"].lower()]
    filled = [r["submission"] for r in carol if float(r.get("total") or 0) > 0]
    if filled:
        return True, f"carol's row(s) filled by mallory's notebook: {filled}; rows {names}"
    if len(carol) > 2:
        return True, f"extra carol rows: {[r['submission'] for r in carol]}"
    return False, f"rows {names}"

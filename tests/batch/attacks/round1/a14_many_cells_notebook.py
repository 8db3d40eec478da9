"""a14: a notebook just under the 20 MB upload limit made of ~400 000 tiny cells (goal 3).

Route: the exercise notebook for lesson 05 carries, besides its exercise cell, 400 000
code cells "x = 1" (each a JSON object with metadata, outputs, ids), and a second learner
uploads the same twice (two copies under different names). The trusted grader parses and
reduces every cell to definitions before any learner is graded.
Breached: the main grader process peaks over 500 MB, or the first learner's result appears
more than 5 s after start (planning), or the run exceeds the harness timeout.
"""
import json
import pathlib

from _nb import GOOD, code_cell, nb_name, notebook, write_nb


def build(tmp: pathlib.Path) -> list[str]:
    nb = notebook("05_counting", {"count_gpt2_params": GOOD["count_gpt2_params"]})
    cell = {"cell_type": "code", "execution_count": None, "id": "x", "metadata": {}, "outputs": [], "source": "x = 1"}
    extra = []
    for i in range(400_000):
        c = dict(cell)
        c["id"] = f"{i:x}"
        extra.append(c)
    nb["cells"].extend(extra)
    text = json.dumps(nb, separators=(",", ":"))
    while len(text) > 19_900_000:
        nb["cells"] = nb["cells"][:-20000]
        text = json.dumps(nb, separators=(",", ":"))
    for who in ("alice", "bob"):
        d = tmp / "class" / who
        d.mkdir(parents=True)
        (d / nb_name("05_counting")).write_text(text)
    (tmp / "class" / "bob" / "copy_05_counting_exercises.ipynb").write_text(text)
    return [str(tmp / "class")]


def verdict(out: pathlib.Path, run: dict):
    why = []
    if run["peak_rss_mb"] > 500:
        why.append(f"grader peak {run['peak_rss_mb']} MB")
    fp = run.get("first_progress_s")
    if fp is None or fp > 5:
        why.append(f"first learner done at {fp} s (planning > 5 s)")
    if run.get("timed_out"):
        why.append("run timed out")
    if why:
        return True, "; ".join(why)
    return False, f"grader peak {run['peak_rss_mb']} MB, first learner at {fp} s"

"""a15: pathological exercise-cell text for the trusted notebook reader (goal 3).

Route: the reader turns cells into code "as IPython runs them" (magics, !shell, ?help,
line continuations). Each cell stays just under the reader's 1,000,000-character cell limit
and the notebook ~12 MB (under the 20 MB limit): the exercise cell is the function followed by ~165 000
physical lines joined by backslash continuations into one logical line; two cells of
~50 000 lines alternating `%time x = 1`, `!echo x`, `x?` and `%env A=1 \\`; two more
continuation cells; two unterminated triple-quoted strings of continued lines; ~990 000
nested brackets; a `%%bash` cell.
Breached: the main grader process peaks over 500 MB, or the first learner's result appears
later than 5 s after start, or the run times out.
"""
import json
import pathlib

from _nb import GOOD, code_cell, nb_name, notebook, write_nb


def _fit(unit: str, head: str = "", tail: str = "", limit: int = 990_000) -> str:
    n = (limit - len(head) - len(tail)) // len(unit)
    return head + unit * n + tail


def build(tmp: pathlib.Path) -> list[str]:
    # the reader refuses a cell over 1,000,000 characters: each cell stays just under it,
    # and the notebook just under the 20 MB file limit
    ex = _fit("1 + \\\n", GOOD["count_gpt2_params"] + "y = 1 + \\\n", "1\n")
    magic_unit = "%time x = 1\n!echo x\nx?\n%env A=1 \\\n"
    extra = []
    for i in range(2):
        extra.append(code_cell(_fit(magic_unit, tail="z = 2\n"), ["exercise"] if i == 0 else ()))
    for i in range(2):
        extra.append(code_cell(_fit("1 + \\\n", "y = 1 + \\\n", "1\n")))
    for i in range(2):
        extra.append(code_cell(_fit("a\\\n", "s = \'\'\'", "\n")))
    extra.append(code_cell(_fit("(", "q = ", "") + ")" * 10))
    extra.append(code_cell(_fit("echo hi\n", "%%bash\n")))
    nb = notebook("05_counting", {"count_gpt2_params": ex}, extra_cells=extra)
    for c in nb["cells"]:  # one string per cell and compact JSON: stay under the 20 MB limit
        c["source"] = "".join(c["source"])
    path = tmp / "class" / "alice" / nb_name("05_counting")
    path.parent.mkdir(parents=True)
    text = json.dumps(nb, separators=(",", ":"))
    assert len(text) < 19_900_000, len(text)
    path.write_text(text)
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

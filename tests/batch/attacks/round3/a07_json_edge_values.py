"""a07 json_edge_values.

Route: notebooks that are valid JSON (or nearly) but hold values the grader's reader may not
expect, each a learner of one class folder: a 6,000-digit integer as execution_count (Python
3.11's int parser refuses over 4,300 digits with ValueError, not JSONDecodeError); a NUL
character inside the exercise cell's source (compile() raises ValueError, not SyntaxError); a
lone surrogate "\\ud800" in the source and in the lesson metadata (UTF-8 encoding of feedback fails);
source given as a list holding numbers and dicts, lesson metadata a list, cells a dict; an nbformat-3
notebook (worksheets); a UTF-8 BOM before the JSON; NaN/Infinity literals in metadata; a
UTF-16 notebook. A classmate bob hands in a correct lesson 05.
Goal (6): the grader crashing or losing a learner on a learner's file.
Breached: non-zero exit, a Python traceback on stderr, bob not scoring 1, or a learner missing
from the gradebook.
"""
from __future__ import annotations

import json
import pathlib

import _common as c

GOOD = c.GOOD["count_gpt2_params"]


def _nb(src, lesson="05_counting") -> dict:
    return c.notebook(lesson, [src])


def build(tmp: pathlib.Path) -> list[str]:
    subs = tmp / "subs"
    f = "05_counting_exercises.ipynb"
    c.write_nb(subs / "bob" / f, "05_counting", [GOOD])
    files = {}
    t = json.dumps(_nb(GOOD))
    files["bigint"] = t.replace('"execution_count": null', '"execution_count": ' + "7" * 6000, 1).encode()
    files["nul"] = json.dumps(_nb(GOOD.replace("embeddings =", "embeddings =") + "    # \u0000\n")).encode()
    nb = _nb(GOOD + "    # \ud800\n")
    nb["metadata"]["gpt2course"]["lesson"] = "05_counting\ud800"
    files["surrogate"] = json.dumps(nb).encode()
    nb = _nb(GOOD)
    nb["cells"][2]["source"] = ["def count_gpt2_params(V, T, d, L, tied=True, bias=True):\n", 7, {"a": 1}, None]
    files["listsrc"] = json.dumps(nb).encode()
    nb = _nb(GOOD)
    nb["metadata"]["gpt2course"]["lesson"] = ["05_counting"]
    files["listlesson"] = json.dumps(nb).encode()
    nb = _nb(GOOD)
    nb["cells"] = {str(i): x for i, x in enumerate(nb["cells"])}
    files["cellsdict"] = json.dumps(nb).encode()
    files["nbformat3"] = json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {"gpt2course": {"lesson": "05_counting"}},
                                     "worksheets": [{"cells": [{"cell_type": "code", "input": GOOD, "language": "python",
                                                                 "outputs": [], "metadata": {"tags": ["exercise"]}}]}]}).encode()
    files["bom"] = b"\xef\xbb\xbf" + json.dumps(_nb(GOOD)).encode()
    files["nan"] = json.dumps(_nb(GOOD)).replace('"language_info": {', '"x": [NaN, Infinity, -Infinity], "language_info": {', 1).encode()
    files["utf16"] = json.dumps(_nb(GOOD)).encode("utf-16")
    nb = _nb(GOOD)
    nb["cells"][2]["metadata"] = {"tags": "exercise"}
    nb["cells"][1]["source"] = None
    files["tagstring"] = json.dumps(nb).encode()
    for name, data in files.items():
        (subs / name).mkdir(parents=True)
        (subs / name / f).write_bytes(data)
    return [str(subs)]


NAMES = ["bob", "bigint", "nul", "surrogate", "listsrc", "listlesson", "cellsdict", "nbformat3", "bom", "nan", "utf16", "tagstring"]


def verdict(out: pathlib.Path, run: dict):
    bad = []
    if run["returncode"] != 0:
        bad.append(f"rc={run['returncode']}")
    if "Traceback" in run["stderr"]:
        bad.append("traceback: " + run["stderr"][run["stderr"].find("Traceback"):][-400:])
    rows = {r.get("submission"): r for r in c.gradebook_rows(out)}
    missing = [n for n in NAMES if n not in rows]
    if missing:
        bad.append(f"missing rows {missing}")
    if rows.get("bob", {}).get("total") not in ("1", "1.0"):
        bad.append(f"bob {rows.get('bob')}")
    if bad:
        return True, "; ".join(bad)
    return False, "; ".join(f"{n}: {rows[n].get('total')} {rows[n].get('problem')!r}"[:120] for n in NAMES)

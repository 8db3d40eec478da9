"""A cell Python cannot even read (grader/cell_code.py): that cell's error, never a crash of
the reader, in the batch grader's reading and in check()'s alike."""
import json
import subprocess
import sys

from grader import notebook as nbk

GOOD = "def ok():\n    return 1\n"


def notebook_bytes(*sources) -> bytes:
    cells = [{"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None}
             for s in sources]
    # ensure_ascii: a lone surrogate is written as the escape \ud800, as a broken editor would
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()


def test_a_lone_surrogate_is_that_cell_s_error_and_the_others_are_graded():
    data = notebook_bytes(GOOD, "def f():\n    return '\ud800'\n", "def g():\n    return 2\n")
    assert b"\\ud800" in data
    cells = nbk.graded_cells(nbk.read_data(data))
    assert [c.defines for c in cells] == [["ok"], ["f"], ["g"]]
    assert cells[0].error is None and cells[2].error is None
    assert cells[1].error.startswith("cell 2 cannot be read by Python"), cells[1].error


def test_check_reports_such_a_cell_without_crashing(tmp_path):
    """The student edition's reader and check() read the learner's notebook with the same code."""
    path = tmp_path / "01_embeddings_exercises.ipynb"
    path.write_bytes(notebook_bytes("def embed(wte, wpe, idx):\n    return '\ud800'\n", GOOD))
    code = ("from grader import notebook as nbk\n"
            f"cells = nbk.graded_cells(nbk.read({str(path)!r}))\n"
            "print([bool(c.error) for c in cells])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[True, False]"

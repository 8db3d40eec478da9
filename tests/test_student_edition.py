"""The student edition's lessons run top to bottom on the learner's own code:
with untouched stubs (cells that need an exercise show their stored output and
name it), and with every exercise solved (every cell live, no stored output)."""
import shutil

import nbformat
import pytest
from nbclient import NotebookClient

from grader import notebook as nbk
from gpt2course import student

from conftest import ROOT

LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def editions(tmp_path_factory, built_release):
    base = tmp_path_factory.mktemp("editions")
    stubs = base / "stubs"
    shutil.copytree(built_release, stubs, symlinks=True)
    solved = base / "solved"
    shutil.copytree(stubs, solved)
    for path in (ROOT / "solutions").glob("*.ipynb"):
        shutil.copy(path, solved / "exercises" / path.name)
    return {"stubs": stubs, "solved": solved}


def run_lesson(bundle, name, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(bundle))
    path = bundle / "notebooks" / name
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    errors, notes = [], []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                errors.append(f"cell {i}: {out.ename}: {out.evalue[:300]}")
            if out.output_type == "stream" and "stored output" in out.text:
                notes.append((i, out.text.splitlines()[0]))
    return nb, errors, notes


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_runs_on_unfinished_stubs_with_stored_outputs(editions, name, monkeypatch):
    nb, errors, notes = run_lesson(editions["stubs"], name, monkeypatch)
    assert errors == []
    lesson = name.removesuffix(".ipynb")
    for i, line in notes:
        assert line.startswith("stored output: finish `"), line
        notebook = line.split(" in ", 1)[1].split(" ")[0]
        assert (editions["stubs"] / notebook).is_file(), line
        # a lesson waits only for exercises of its own or earlier lessons
        assert notebook.removeprefix("exercises/")[:2] <= lesson[:2], line
    assert notes  # every lesson uses some exercise
    # a stored output is the course's output of that very cell
    course = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    by_id = {c.id: c for c in course.cells}
    for i, _ in notes:
        cell = nb.cells[i]
        want = [o for o in by_id[cell.id].outputs if o.output_type in ("display_data", "execute_result")]
        got = [o for o in cell.outputs if o.output_type in ("display_data", "execute_result")]
        assert [sorted(o.data) for o in got] == [sorted(o.data) for o in want]


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_runs_live_when_every_exercise_is_done(editions, name, monkeypatch):
    _, errors, notes = run_lesson(editions["solved"], name, monkeypatch)
    assert errors == [] and notes == []


def test_a_bug_in_the_learners_code_shows_as_an_error(editions, tmp_path, monkeypatch):
    bundle = tmp_path / "buggy"
    shutil.copytree(editions["solved"], bundle)
    path = bundle / "exercises" / "01_embeddings_exercises.ipynb"
    nb = nbk.read(path)
    for cell in nb.cells:
        if "exercise" in nbk.tags(cell) and "def embed" in nbk.cell_source(cell):
            cell.source = "def embed(wte, wpe, idx):\n    raise KeyError('my own bug')\n"
    nbformat.write(nb, path)
    _, errors, notes = run_lesson(bundle, "01_embeddings.ipynb", monkeypatch)
    assert notes == [] and any("KeyError: 'my own bug'" in e for e in errors)


def test_cell_key_ignores_trailing_whitespace_only():
    assert student.cell_key("x = 1\ny = 2\n") == student.cell_key("x = 1  \ny = 2")
    assert student.cell_key("x = 1") != student.cell_key("x = 2")


def test_names_a_cell_assigns_and_reads():
    import ast

    names = student.names_of(ast.parse("import numpy as np\nx, y = f(a)\ndef g(b):\n    return b + c\n"))
    assert {"np", "x", "y", "g"} <= names.stored
    assert {"f", "a", "c"} <= names.loaded and "b" not in names.loaded

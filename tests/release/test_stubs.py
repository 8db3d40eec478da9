"""solutions/ -> exercises/: the generator, its --check, and that no solution leaks."""
import os
import subprocess
import sys
import time

import nbformat
import pytest

from grader import notebook as nbk
from grader.release import stubs

from conftest import ROOT

SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))


def test_exercises_are_up_to_date():
    assert stubs.stale(ROOT / "solutions", ROOT / "exercises") == []


def test_every_solution_has_an_exercise_notebook():
    assert SOLUTIONS, "no solution notebooks"
    for path in SOLUTIONS:
        assert (ROOT / "exercises" / path.name).exists()


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_no_solution_code_survives(path):
    solved = nbk.read(path)
    stubbed = nbk.read(ROOT / "exercises" / path.name)
    stub_text = "\n".join(nbk.cell_source(c) for c in stubbed.cells)
    assert nbk.BEGIN not in stub_text and nbk.END not in stub_text
    for cell in solved.cells:
        if nbk.EXERCISE_TAG not in nbk.tags(cell):
            continue
        lines = nbk.cell_source(cell).splitlines()
        for start, end in nbk.solution_regions(nbk.cell_source(cell)):
            for line in lines[start + 1:end]:
                if len(line.strip()) > 12 and not line.strip().startswith("#"):
                    assert line.strip() not in stub_text, f"solution line leaked: {line.strip()!r}"


def test_stub_keeps_signature_docstring_and_indentation():
    src = ('def f(x, y=2):\n    """Doc."""\n    z = 1\n    ### BEGIN SOLUTION\n'
           '    return x + y + z\n    ### END SOLUTION\n')
    out = stubs.stub_source(src)
    assert out.startswith('def f(x, y=2):\n    """Doc."""\n    z = 1\n')
    assert '    raise NotImplementedError("f: replace this line with your code")' in out
    assert "return x + y" not in out
    compile(out, "<stub>", "exec")


def test_every_solution_block_of_a_cell_is_stubbed():
    """A cell with two marked blocks (a helper and the exercise) ships neither answer."""
    src = ('def helper(x):\n    ### BEGIN SOLUTION\n    return x * 2  # first answer\n    ### END SOLUTION\n\n\n'
           'def f(x):\n    ### BEGIN SOLUTION\n    return helper(x) + 1  # second answer\n    ### END SOLUTION\n')
    out = stubs.stub_source(src)
    assert "first answer" not in out and "second answer" not in out
    assert out.count("raise NotImplementedError") == 2
    assert 'raise NotImplementedError("helper:' in out and 'raise NotImplementedError("f:' in out
    compile(out, "<stub>", "exec")


@pytest.mark.parametrize("src, error", [
    ("### BEGIN SOLUTION\nx = 1\n", "never closed"),
    ("x = 1\n### END SOLUTION\n", "without a"),
    ("### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION\n", "inside another"),
])
def test_broken_markers_are_reported(src, error):
    with pytest.raises(nbk.NotebookError, match=error):
        stubs.stub_source(src)


def test_check_cell_gets_the_stub_verdict(make_notebook):
    path = make_notebook("s", [
        ("from grader import check", []),
        ("def embed(wte, wpe, idx):\n    ### BEGIN SOLUTION\n    return wte[idx]\n    ### END SOLUTION", ["exercise"]),
        ("check(embed)", ["check"]),
    ])
    out = stubs.stub_notebook(nbk.read(path))
    check_cell = out.cells[2]
    from grader.checking import display
    from grader.checking.check import not_attempted

    # what check() displays in a kernel (nbval compares it): HTML and text, one output per function
    assert [o.output_type for o in check_cell.outputs] == ["display_data"]
    assert check_cell.outputs[0]["data"] == display.mimebundle(not_attempted("embed"))
    assert check_cell.outputs[0]["data"]["text/plain"].startswith("embed: TODO")
    assert out.cells[1].outputs == []


def test_check_flag_fails_when_stale(tmp_path):
    sol, ex = tmp_path / "solutions", tmp_path / "exercises"
    sol.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "def embed(wte, wpe, idx):\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION",
        metadata={"tags": ["exercise"]})])
    nbformat.write(nb, sol / "01_x.ipynb")
    cmd = [sys.executable, "-m", "grader", "stubs", "--solutions", str(sol), "--exercises", str(ex)]
    assert subprocess.run(cmd + ["--check"], capture_output=True).returncode == 1
    assert subprocess.run(cmd, capture_output=True).returncode == 0
    assert subprocess.run(cmd + ["--check"], capture_output=True).returncode == 0
    (ex / "01_x.ipynb").write_text((ex / "01_x.ipynb").read_text() + " ")
    assert subprocess.run(cmd + ["--check"], capture_output=True).returncode == 1


def test_broken_solution_notebook_is_a_clear_cli_error(tmp_path):
    sol = tmp_path / "solutions"
    sol.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "def f():\n    ### BEGIN SOLUTION\n    return 1\n", metadata={"tags": ["exercise"]})])
    nbformat.write(nb, sol / "01_x.ipynb")
    proc = subprocess.run([sys.executable, "-m", "grader", "stubs", "--solutions", str(sol),
                           "--exercises", str(tmp_path / "ex")], capture_output=True, text=True)
    assert proc.returncode == 2 and "01_x.ipynb" in proc.stderr and "never closed" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_fifo_where_a_solution_notebook_should_be_is_a_clear_error(tmp_path):
    """A FIFO opened for reading blocks until a writer comes: the reader must refuse it at once."""
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir()
    os.mkfifo(solutions / "01_embeddings_exercises.ipynb")
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "grader", "stubs", "--solutions", str(solutions),
                           "--exercises", str(exercises)], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert time.monotonic() - start < 20 and done.returncode != 0
    assert "not a regular file" in done.stderr + done.stdout, done.stderr
    with pytest.raises(nbk.NotebookError, match="not a regular file"):
        nbk.read(solutions / "01_embeddings_exercises.ipynb")


def test_an_exercise_stub_shows_none_of_the_solution_s_outputs(make_notebook):
    """Solutions are saved run: what the answer printed or returned must not ship under the stub."""
    path = make_notebook("s", [
        ("def embed(wte, wpe, idx):\n    ### BEGIN SOLUTION\n    return wte[idx] + wpe[:1]\n    ### END SOLUTION\n"
         "embed(wte, wpe, ids)", ["exercise"]),
    ])
    nb = nbk.read(path)
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="answer rows: [[1.5, 2.5]]\n"),
                           nbformat.v4.new_output("execute_result", data={"text/plain": "array([[1.5, 2.5]])"},
                                                  execution_count=7)]
    nb.cells[0].execution_count = 7
    stub = stubs.stub_notebook(nb).cells[0]
    assert stub.outputs == [] and stub.execution_count is None
    assert "1.5" not in stubs.render(stubs.stub_notebook(nb))


def test_solution_markers_outside_an_exercise_cell_are_refused(make_notebook):
    """A solution marked in a cell that is not tagged 'exercise' would ship whole: refuse it."""
    path = make_notebook("s", [
        ("def helper(x):\n    ### BEGIN SOLUTION\n    return x * 2\n    ### END SOLUTION", []),
    ])
    with pytest.raises(nbk.NotebookError, match="outside a cell tagged 'exercise'"):
        stubs.stub_notebook(nbk.read(path))


def one_solution(folder):
    folder.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "def embed(wte, wpe, idx):\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION",
        metadata={"tags": ["exercise"]})])
    nbformat.write(nb, folder / "01_x.ipynb")
    return folder


def test_grader_stubs_puts_back_an_exercise_notebook_edited_by_hand(tmp_path):
    sol, ex = one_solution(tmp_path / "solutions"), tmp_path / "exercises"
    stubs.write(sol, ex)
    made = (ex / "01_x.ipynb").read_text()
    (ex / "01_x.ipynb").write_text(made.replace("replace this line with your code", "my answer"))
    assert stubs.write(sol, ex) == [ex / "01_x.ipynb"]
    assert (ex / "01_x.ipynb").read_text() == made and stubs.stale(sol, ex) == []
    assert stubs.write(sol, ex) == []  # nothing to do: nothing written


def test_an_exercise_notebook_whose_solution_is_gone_is_stale(tmp_path):
    """A solution renamed or removed: its old exercise notebook would still ship."""
    sol, ex = one_solution(tmp_path / "solutions"), tmp_path / "exercises"
    stubs.write(sol, ex)
    assert stubs.stale(sol, ex) == []
    (ex / "00_old.ipynb").write_text((ex / "01_x.ipynb").read_text())
    assert any("00_old.ipynb" in problem for problem in stubs.stale(sol, ex))

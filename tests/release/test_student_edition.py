"""The student edition's lessons run top to bottom on the learner's own code:
with untouched stubs (cells that need an exercise show their stored output and
name it), and with every exercise solved (every cell live, no stored output).
A failing lesson cell shows its own line and names the exercise it ran; a
stored output names the exercise the cell really waits for."""
import ast
import json
import re
import shutil
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

from grader import notebook as nbk
from grader.release.runtime import cell_names, student, student_cells

from conftest import ROOT, browser_problem, solved_edition
from support.unix_kernels import AsyncUnixSocketKernels

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def editions(tmp_path_factory, built_release):
    base = tmp_path_factory.mktemp("editions")
    stubs = base / "stubs"
    shutil.copytree(built_release, stubs, symlinks=True)
    return {"stubs": stubs, "solved": solved_edition(stubs, base / "solved")}


def run_notebook(nb, folder):
    """Runs ``nb`` in ``folder`` top to bottom, errors kept as outputs."""
    NotebookClient(nb, timeout=300, kernel_name="python3", kernel_manager_class=AsyncUnixSocketKernels,
                   allow_errors=True, resources={"metadata": {"path": str(folder)}}).execute()
    return nb


def run_lesson(bundle, name, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(bundle))
    path = bundle / "notebooks" / name
    nb = nbformat.read(path, as_version=4)
    run_notebook(nb, path.parent)
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
        # a widget's view cannot outlive its kernel: it comes back as text
        assert [sorted(o.data) for o in got] == [["text/plain"] if WIDGET_VIEW in o.data else sorted(o.data)
                                                 for o in want]


# Where the browser tests can run, test_browser.py::test_lesson_runs_in_jupyterlab runs these very
# lessons, in this solved edition, in JupyterLab (and checks the same: no error, no stored output):
# each lesson once, not twice. Elsewhere they run here.
@pytest.mark.skipif(browser_problem() is None, reason="run in JupyterLab by test_browser.py")
@pytest.mark.parametrize("name", LESSONS)
def test_lesson_runs_live_when_every_exercise_is_done(editions, name, monkeypatch):
    _, errors, notes = run_lesson(editions["solved"], name, monkeypatch)
    assert errors == [] and notes == []


def test_a_bug_in_the_learners_code_shows_as_an_error(editions, tmp_path, monkeypatch):
    bundle = with_buggy_embed(editions, tmp_path, "raise KeyError('my own bug')")
    _, errors, notes = run_lesson(bundle, "01_embeddings.ipynb", monkeypatch)
    assert notes == [] and any("KeyError: 'my own bug'" in e for e in errors)


def test_cell_key_ignores_trailing_whitespace_only():
    assert student_cells.cell_key("x = 1\ny = 2\n") == student_cells.cell_key("x = 1  \ny = 2")
    assert student_cells.cell_key("x = 1") != student_cells.cell_key("x = 2")


@pytest.mark.parametrize("code, stored, reads", [
    ("import numpy as np\nx, y = f(a)\ndef g(b):\n    return b + c\n", {"np", "x", "y", "g"}, {"f", "a", "c"}),
    ("x = 1\ny = x + z", {"x", "y"}, {"z"}),
    ("y = x\nx = 1", {"x", "y"}, {"x"}),
    ("x += 1", {"x"}, {"x"}),
    # a comprehension's variables are its own (lesson 07's PCA cell after the similarity cell)
    ("pcs = {name: pc(t) for name, t in tables.items()}", {"pcs"}, {"pc", "tables"}),
    ("s = [v for row in m for v in row if v > lim]", {"s"}, {"m", "lim"}),
    ("for name, p in pcs.items():\n    show(name, p)", {"name", "p"}, {"pcs", "show"}),
    ("def f(a, *b, k=d, **kw):\n    z = a\n    return z + e\nf(1)", {"f"}, {"d", "e"}),
    ("rms = lambda a: (a ** 2).mean() + bias", {"rms"}, {"bias"}),
    ("class C(Base):\n    n = 1\n    m = n + outer", {"C"}, {"Base", "outer"}),
    ("try:\n    f()\nexcept ValueError as err:\n    msg = str(err)", {"err", "msg"}, {"f", "ValueError", "str"}),
    ("with open(p) as fh:\n    text = fh.read()", {"fh", "text"}, {"open", "p"}),
    ("if (n := len(xs)) > 2:\n    print(n)", {"n"}, {"len", "xs", "print"}),
    # the value is read before the target is bound: an earlier cell's x
    ("x = x + 1", {"x"}, {"x"}),
    # `import a.b` binds a; a.b is read through it
    ("import matplotlib.pyplot\nmatplotlib.pyplot.plot(xs)", {"matplotlib"}, {"xs"}),
    # a name assigned anywhere in a function is its local, even where read above the assignment
    ("def smooth(xs):\n    out = []\n    for i, x in enumerate(xs):\n"
     "        out.append(x if i == 0 else (x + prev) / 2)\n        prev = x\n    return out",
     {"smooth"}, {"enumerate"}),
], ids=["imports-def", "in-order", "read-first", "augmented", "dict-comprehension", "nested-comprehension",
        "for-loop", "function", "lambda", "class", "except", "with", "walrus", "value-before-target",
        "dotted-import", "local-read-above"])
def test_names_a_cell_assigns_and_reads_before_assigning(code, stored, reads):
    names = cell_names.names_of(ast.parse(code))
    assert names.stored == stored and names.reads == reads


# --------------------------------------------------------------------------- the runtime, on its own
def learner_course(tmp_path, monkeypatch, notebooks: dict[str, dict[str, str]]) -> Path:
    """A course root whose exercises/ holds ``notebooks`` (file -> {exercise: its cell's code}),
    with the runtime's edition map pointing at them, found through GPT2COURSE_ROOT from a
    working folder with no exercises/ above it."""
    root = tmp_path / "course"
    (root / "exercises").mkdir(parents=True)
    edition = {}
    for file, cells in notebooks.items():
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code) for code in cells.values()])
        nbformat.write(nb, root / "exercises" / file)
        edition |= {name: {"lesson": "01_x", "notebook": f"exercises/{file}"} for name in cells}
    (tmp_path / "edition.json").write_text(json.dumps({"exercises": edition}))
    monkeypatch.setattr(student, "EDITION", tmp_path / "edition.json")
    monkeypatch.setenv("GPT2COURSE_ROOT", str(root))
    (tmp_path / "elsewhere" / "notebooks").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "elsewhere" / "notebooks")
    return root


def test_a_lesson_finds_the_exercises_through_gpt2course_root(tmp_path, monkeypatch):
    learner_course(tmp_path, monkeypatch, {"a.ipynb": {"double": "def double(x):\n    return 2 * x"}})
    assert student.call("double", 21) == 42


def test_a_lesson_runs_the_notebook_as_last_saved(tmp_path, monkeypatch):
    """The learner fixes their function and saves: the next lesson cell runs the fix."""
    root = learner_course(tmp_path, monkeypatch, {"a.ipynb": {"double": "def double(x):\n    return x + x + 1"}})
    assert student.call("double", 21) == 43
    nb = nbk.read(root / "exercises" / "a.ipynb")
    nb.cells[0].source = "def double(x):\n    return 2 * x  # fixed"
    nbformat.write(nb, root / "exercises" / "a.ipynb")
    assert student.call("double", 21) == 42


def test_a_notebook_cell_that_does_not_parse_is_the_learner_s_error_not_unfinished_work(tmp_path, monkeypatch):
    learner_course(tmp_path, monkeypatch, {"a.ipynb": {"double": "def double(x):\n    return 2 * x)"}})
    with pytest.raises(student.LearnerCodeError, match="a.ipynb"):
        student.call("double", 21)


def test_a_failing_cell_names_the_exercises_it_called_not_those_they_called(tmp_path, monkeypatch):
    """`model` (one notebook) calls `double` (another) in turn: the note under the cell's error
    sends the learner to check `model`, the exercise the cell itself ran."""
    learner_course(tmp_path, monkeypatch, {"a.ipynb": {"model": "def model(x):\n    return double(x) + 1"},
                                           "b.ipynb": {"double": "def double(x):\n    return 2 * x"}})
    guard = student_cells.StoredOutputs(None, {})
    with pytest.raises(AssertionError) as info:
        with guard.cell(((1, 2, ()),)):
            assert student.call("model", 1) == 4, "the lesson's own check"
    notes = getattr(info.value, "__notes__", [])
    assert len(notes) == 1 and "`model`" in notes[0] and "a.ipynb" in notes[0], notes


def test_the_student_init_params_gives_the_dtype_asked_for():
    """The learner's init_gpt draws float64; init_params(config, seed, dtype=np.float32) is float32."""
    params = student.as_dtype({"wte": np.zeros((3, 2)), "ln_f.bias": np.zeros(2)}, np.float32)
    assert {k: v.dtype for k, v in params.items()} == {"wte": np.float32, "ln_f.bias": np.float32}


def test_a_stored_output_keeps_stderr_apart_from_stdout(capsys):
    """A warning the course's run printed on stderr shows as one (red in Jupyter), not as output."""
    source = "loss = train(model)"
    guard = student_cells.StoredOutputs(None, {student_cells.cell_key(source): [
        {"output_type": "stream", "name": "stderr", "text": ["UserWarning: ", "lr is large\n"]},
        {"output_type": "stream", "name": "stdout", "text": "step 10: loss 2.31\n"}]})
    guard.source = source
    guard.show(student.ExerciseNotDone("train", "exercises/08_training_sampling_exercises.ipynb"), ())
    out, err = capsys.readouterr()
    assert "UserWarning: lr is large" in err and "lr is large" not in out
    assert "step 10: loss 2.31" in out and "step 10" not in err


# --------------------------------------------------------------------------- a failing lesson cell
PROBE = ["import numpy as np\nfrom gpt2course import numpy_gpt\n"
         "wte = np.arange(12.0).reshape(4, 3)\nwpe = np.array([[0.0] * 3, [10.0] * 3])",
         "ids = np.array([1, 1])\nx = numpy_gpt.embed(wte, wpe, ids)\n\n# token rows plus position rows\n"
         "assert np.array_equal(x, wte[ids] + wpe[:2]), 'x0 is not the token rows plus the position rows'\n"
         "print('not reached')",
         "n = 1\nnumpy_gpt.embed(wte, wpe, np.array([3]))",
         "n = 2\nn + 1"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def with_buggy_embed(editions, tmp_path, body):
    bundle = tmp_path / "buggy"
    shutil.copytree(editions["solved"], bundle)
    path = bundle / "exercises" / "01_embeddings_exercises.ipynb"
    nb = nbk.read(path)
    for cell in nb.cells:
        if "exercise" in nbk.tags(cell) and "def embed" in nbk.cell_source(cell):
            cell.source = "def embed(wte, wpe, idx):\n    " + body + "\n"
    nbformat.write(nb, path)
    return bundle


def test_a_failing_lesson_cell_points_at_its_line_and_at_check(editions, tmp_path, monkeypatch):
    bundle = with_buggy_embed(editions, tmp_path, "return wte[idx] + wpe[idx]   # my bug")
    monkeypatch.setenv("PYTHONPATH", str(bundle))
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(code) for code in PROBE]
    run_notebook(nb, bundle / "notebooks")
    errors = {i: ANSI.sub("", "\n".join(o.traceback)) for i, c in enumerate(nb.cells)
              for o in c.outputs if o.output_type == "error"}
    assert sorted(errors) == [1, 2], errors
    check_note = ("This cell ran your `embed` from exercises/01_embeddings_exercises.ipynb: "
                  "run check(embed) there")
    # the assert on line 5, its message, and which exercise to check
    assert "Cell In[2], line 5" in errors[1] and "----> 5 assert np.array_equal" in errors[1], errors[1]
    assert "AssertionError: x0 is not the token rows plus the position rows" in errors[1]
    assert check_note in errors[1]
    # an error inside the learner's function: the lesson's line, then the learner's own line
    assert "----> 2 numpy_gpt.embed(wte, wpe, np.array([3]))" in errors[2], errors[2]
    assert "01_embeddings_exercises.ipynb, cell" in errors[2] and "----> 2     return wte[idx] + wpe[idx]" in errors[2]
    assert "IndexError" in errors[2] and check_note in errors[2]
    assert "student_cells.py" not in errors[2] and "student.py" not in errors[2]
    # the value of a last expression still shows
    assert [o.data["text/plain"] for o in nb.cells[3].outputs if o.output_type == "execute_result"] == ["3"]


# --------------------------------------------------------------------------- which exercise a cell waits for


@pytest.mark.parametrize("lesson, module, name", [("07_position_embeddings", "positions", "position_similarity")])
def test_a_cell_waits_only_for_what_it_needs(editions, tmp_path, monkeypatch, lesson, module, name):
    """The oracle is the course itself with that one function raising: the cells that then fail
    need it. In the student edition with only that exercise unfinished, exactly those cells show
    a stored output, naming it (lesson 07's PCA cell once named it although it does not need it)."""
    course = nbformat.read(ROOT / "notebooks" / f"{lesson}.ipynb", as_version=4)
    course.cells.insert(0, nbformat.v4.new_code_cell(
        f"from gpt2course import {module} as _m\ndef _missing(*args, **kwargs):\n"
        f"    raise RuntimeError('missing')\n_m.{name} = _missing"))
    monkeypatch.delenv("PYTHONPATH", raising=False)
    run_notebook(course, ROOT / "notebooks")
    need = [c.id for c in course.cells[1:] if any(o.output_type == "error" for o in c.get("outputs", []))]
    assert need, "the oracle found no cell that needs the exercise"

    bundle = tmp_path / "one_missing"
    shutil.copytree(editions["solved"], bundle)
    for path in (bundle / "exercises").glob("*.ipynb"):
        nb = nbk.read(path)
        for cell in nb.cells:
            if "exercise" in nbk.tags(cell) and f"def {name}(" in nbk.cell_source(cell):
                cell.source = f"def {name}(*args, **kwargs):\n    raise NotImplementedError\n"
        nbformat.write(nb, path)
    student_nb, errors, notes = run_lesson(bundle, f"{lesson}.ipynb", monkeypatch)
    assert errors == []
    assert [student_nb.cells[i].id for i, _ in notes] == need
    assert all(f"finish `{name}`" in line for _, line in notes), notes

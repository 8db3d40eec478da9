"""The one reading of a notebook's code (grader/notebook.py, grader/cell_code.py): a cell is
read the way IPython runs it, its definitions kept unchanged, in linear time, within caps.

The oracle is IPython itself: TransformerManager().transform_cell, then ast.parse, for the
text; a real InteractiveShell for what a cell defines when a cell magic runs its body.
"""
from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
import traceback

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager

from conftest import ROOT
from grader import notebook as nbk
from grader.cell_code import ipython_code

IPYTHON = TransformerManager()


def notebook(*sources: str) -> dict:
    return {"cells": [{"cell_type": "code", "metadata": {}, "source": s} for s in sources]}


def read_one(source: str) -> nbk.GradedCell:
    cells = nbk.graded_cells(notebook(source))
    assert len(cells) == 1, cells
    return cells[0]


def oracle(source: str) -> list[str]:
    """The definitions of a cell as IPython runs it, read the plain way: IPython's text,
    parsed, each kept statement (imports but the grader's, functions, classes, constants
    that no magic computes; only imports where a cell defines nothing) dumped."""
    tree = ast.parse(IPYTHON.transform_cell(source))

    def keep(n):
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            names = [n.module or ""] if isinstance(n, ast.ImportFrom) else [a.name for a in n.names]
            return not any(x.split(".")[0] == "grader" for x in names)
        if isinstance(n, (ast.Assign, ast.AnnAssign)):
            return "get_ipython" not in ast.unparse(n)
        return isinstance(n, (ast.FunctionDef, ast.ClassDef))

    kept = [n for n in tree.body if keep(n)]
    if not any(isinstance(n, (ast.FunctionDef, ast.ClassDef)) for n in kept):
        kept = [n for n in kept if isinstance(n, (ast.Import, ast.ImportFrom))]
    return [ast.dump(n) for n in kept]


def read_dumps(source: str) -> list[str]:
    return [ast.dump(n) for n in ast.parse(read_one(source).source).body]


def run(cell: nbk.GradedCell, name: str, *args):
    namespace: dict = {}
    exec(compile(cell.source, "<cell>", "exec"), namespace)
    return namespace[name](*args)


# ------------------------------------------------------------------ code IPython runs unchanged
BLACK = {
    # black wraps long expressions with the operator first on the continuation line
    "a continuation line starting with %": (
        "def label(n, total):\n"
        "    text = (\n"
        "        \"token %d of %d\"\n"
        "        % (n, total)\n"
        "    )\n"
        "    return text\n", "label", (3, 8), "token 3 of 8"),
    "a continuation line opening % (": (
        "def label(n, total):\n"
        "    return (\n"
        "        \"token %d of %d\"\n"
        "        % (\n"
        "            n,\n"
        "            total,\n"
        "        )\n"
        "    )\n", "label", (3, 8), "token 3 of 8"),
    "a continuation line starting with !=": (
        "def differs(a, b):\n"
        "    result = (\n"
        "        a\n"
        "        != b\n"
        "    )\n"
        "    return result\n", "differs", (1, 2), True),
    "a continuation line starting with -": (
        "def gap(a, b):\n"
        "    return (\n"
        "        a\n"
        "        - b\n"
        "    )\n", "gap", (5, 3), 2),
    "a comment ending in ?": (
        "lengths = [1, 2]  # is this the right length?\n"
        "def total(xs):\n"
        "    return sum(xs) + len(lengths)  # why add it?\n", "total", ([1, 2],), 5),
    "? and ! inside strings": (
        "ASK = 'embed?'\n"
        "SHELL = \"!pip install numpy\"\n"
        "DOC = '''\n%timeit f(x)\n!ls\nwhat?\n'''\n"
        "def strings():\n"
        "    return ASK + SHELL + DOC\n", "strings", (), "embed?!pip install numpy\n%timeit f(x)\n!ls\nwhat?\n"),
    "a decorated function": (
        "import functools\n"
        "@functools.lru_cache(maxsize=None)\n"
        "def fib(n):\n"
        "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n", "fib", (20,), 6765),
}


@pytest.mark.parametrize("source, name, args, result", BLACK.values(), ids=list(BLACK))
def test_valid_code_is_kept_as_written(source, name, args, result):
    assert ipython_code(source) == IPYTHON.transform_cell(source) == source  # IPython leaves it as is
    cell = read_one(source)
    assert cell.error is None and name in cell.defines
    assert read_dumps(source) == oracle(source) == [ast.dump(n) for n in ast.parse(source).body]
    assert run(cell, name, *args) == result


MAGICS = {
    "a line magic": "%timeit gap(3, 1)\ndef gap(a, b):\n    return a - b\n",
    "a shell command": "!pip install numpy\nimport numpy as np\ndef gap(a, b):\n    return np.subtract(a, b)\n",
    "help syntax": "gap?\n?gap\ngap??\nnp.add?\ndef gap(a, b):\n    return a - b\n",
    "a magic on a continued line": "%time \\\n    gap(3, 1)\ndef gap(a, b):\n    return a - b\n",
    "a magic inside the function": "def gap(a, b):\n    %time a\n    return a - b\n",
    "a magic's output assigned": "files = !ls\nt = %time 1\ndef gap(a, b):\n    return a - b\n",
    "magics, strings and black in one cell": (
        "%load_ext autoreload\n"
        "x = '%not a magic'  # really?\n"
        "def gap(a, b):\n"
        "    return (\n"
        "        a\n"
        "        - b\n"
        "    )\n"
        "!echo done\n"
        "gap?\n"),
}


@pytest.mark.parametrize("source", MAGICS.values(), ids=list(MAGICS))
def test_ipython_syntax_is_read_as_ipython_runs_it(source):
    assert ipython_code(source) == IPYTHON.transform_cell(source)
    cell = read_one(source)
    assert cell.error is None and cell.defines == ["gap"]
    assert read_dumps(source) == oracle(source)
    assert "get_ipython" not in cell.source.replace("get_ipython().run_line_magic('time', 'a')", "")
    if "%time a" not in source:  # that one runs a magic when called: only IPython can
        assert run(cell, "gap", 3, 1) == 2


def test_the_old_line_blanker_broke_these_cells():
    """What `strip_magics` did (blank every line starting with % or ! or ending in ?)
    to four of the cells above: a SyntaxError, or other code than the learner's."""
    def blank(source):
        return "\n".join("" if ln.lstrip().startswith(("%", "!")) or ln.rstrip().endswith("?") else ln
                         for ln in source.splitlines())

    def other_code(source):
        try:
            return ast.dump(ast.parse(blank(source))) != ast.dump(ast.parse(source))
        except SyntaxError:
            return True

    with pytest.raises(SyntaxError):
        ast.parse(blank(BLACK["a continuation line opening % ("][0]))
    for key in ("a continuation line opening % (", "a continuation line starting with %",
                "a continuation line starting with !=", "a comment ending in ?"):
        assert other_code(BLACK[key][0]) and read_one(BLACK[key][0]).error is None, key


def shell_result(source: str):
    """A real IPython shell runs the cell (in a fresh namespace)."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.reset(new_session=False)
    return shell.run_cell(source, silent=True)


def shell_defines(source: str) -> set[str]:
    """What a real IPython shell defines when it runs the cell."""
    from IPython.core.interactiveshell import InteractiveShell

    assert shell_result(source).success
    return {k for k in InteractiveShell.instance().user_ns if not k.startswith("_")} & {"gap", "math"}


@pytest.mark.parametrize("magic, defines", [("%%time", True), ("%%capture out", True), ("%%prun -q", True),
                                            ("%%timeit -n1 -r1", False), ("%%writefile /dev/null", False)])
def test_cell_magics_define_what_ipython_defines(magic, defines):
    source = f"{magic}\nimport math\ndef gap(a, b):\n    return math.fabs(a - b)\n"
    assert ("gap" in shell_defines(source)) is defines
    cell = nbk.graded_cells(notebook(source))
    assert (cell[0].defines if cell else []) == (["gap"] if defines else [])
    if defines:
        assert run(cell[0], "gap", 1, 3) == 2.0


def test_kept_statements_stay_on_their_lines():
    """A traceback through the kept code points at the learner's line of the cell."""
    source = "\n\n%time 1\nimport math; print('hi'); K = 2\n!echo\ndef f(x):\n    return x / 0\n"
    cell = read_one(source)
    assert cell.source.splitlines()[3] == "import math; K = 2"
    try:
        run(cell, "f", 1)
    except ZeroDivisionError as exc:
        line = traceback.extract_tb(exc.__traceback__)[-1].lineno
    assert source.splitlines()[line - 1] == "    return x / 0"


@pytest.mark.parametrize("source, line", [
    ("x = 1\n\ndef f(:\n    pass\n", 3),
    ("\n\n%time 1\n!echo hi\ndef f(:\n    pass\n", 5),       # dropped blank lines, rewritten magics
    ("%%time\nx = 1\ndef f(:\n    pass\n", 3),             # inside a cell magic's body
])
def test_a_cell_ipython_refuses_is_reported_with_its_line(source, line):
    refused = shell_result(source)
    assert isinstance(refused.error_before_exec or refused.error_in_exec, SyntaxError)
    cells = nbk.graded_cells(notebook("def ok():\n    return 1\n", source))
    assert cells[0].error is None
    assert cells[1].error.startswith(f"SyntaxError in cell 2, line {line}:"), cells[1].error
    assert cells[1].defines == ["f"]


def test_more_commands_than_ipython_takes_is_a_cell_error(monkeypatch):
    """IPython gives up after TRANSFORM_LOOP_LIMIT rewrites (500; 5 here, for both, since
    IPython's own loop takes half a minute over 500): so does the reader, at the same count."""
    import IPython.core.inputtransformer2 as it2

    from grader import cell_code

    monkeypatch.setattr(it2, "TRANSFORM_LOOP_LIMIT", 5)
    monkeypatch.setattr(cell_code, "TRANSFORM_LOOP_LIMIT", 5)
    for n, refused in [(4, False), (5, True)]:
        source = "%time 1\n" * n + "def f():\n    return 1\n"
        try:
            IPYTHON.transform_cell(source)
        except RuntimeError:
            assert refused
        else:
            assert not refused
        error = read_one(source).error
        assert (error is not None and "input transformation still changing" in error) is refused, error


def test_ipython_s_own_limit_holds_without_a_patch():
    assert read_one("%time 1\n" * 499 + "def f():\n    return 1\n").error is None
    assert "after 500 iterations" in read_one("%time 1\n" * 500 + "def f():\n    return 1\n").error


def test_checked_names_read_the_cell_as_ipython_runs_it():
    assert nbk.checked_names("check(embed)  # passes?\n%time 1\n") == ["embed"]
    assert nbk.checked_names("%%time\ncheck(embed, one_hot_embed)\n") == ["embed", "one_hot_embed"]
    assert nbk.checked_names("x = (\n    1\n    % 2\n)\ncheck(gelu_tanh)\n") == ["gelu_tanh"]
    assert nbk.checked_names("def f(:\n") == []


POOL = ["x = 1", "%time f(", "!echo it's", "!echo (", "!echo )", "!echo '''", "'''", ")", "]", "a = %time 1",
        "b = !ls", "embed?", "?embed", "embed??", "x = (1)?", "def f(a):", "    return a  # ok?", "    !ls",
        "    %time 1", "  % (a, b)", "    != b", "s = (", "    'x'", ")", "%%time", "y = 2 \\", "%ls \\", "  -la",
        "", "# why?", "/f 1 2", ",f a b", ";f a b", "In [1]: x = 1", ">>> x = 1", "\tz = 3", "f'{x!r}'",
        "%time?", "%%time?", "print(1); x?", "if x:", "    y?", "!!ls", "obj.attr?", "lst[0]?", "%time f(x))"]


def test_random_cells_read_exactly_as_ipython_transforms_them():
    """The same text as TransformerManager().transform_cell (or both refuse), for seeded
    random cells of IPython syntax, black continuations and unclosed quotes and brackets."""
    rng = random.Random(17)
    for _ in range(400):
        source = "\n".join(rng.choice(POOL) for _ in range(rng.randint(1, 12)))
        try:
            expected = IPYTHON.transform_cell(source)
        except Exception:  # IPython refuses the cell; so must the reader
            expected = None
        try:
            got = ipython_code(source)
        except nbk.CellError:
            got = None
        assert got == expected, source


def test_no_cell_of_the_course_changes():
    """Every code cell of the lessons, exercises and solutions: the definitions IPython runs."""
    for path in sorted(ROOT.glob("*/[0-9][0-9]_*.ipynb")):
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type != "code":
                continue
            graded = nbk.graded_cells({"cells": [cell]})
            got = [ast.dump(n) for c in graded for n in ast.parse(c.source).body]
            assert got == oracle(cell.source), f"{path.name}, cell {index + 1}"


# ------------------------------------------------------------------ bounded reading
def test_caps_on_cells_and_cell_length_are_notebook_errors(tmp_path):
    many = tmp_path / "many.ipynb"
    many.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                                "cells": [{"cell_type": "markdown", "metadata": {}, "source": ""}] * (nbk.MAX_CELLS + 1)}))
    with pytest.raises(nbk.NotebookError, match=f"more than the {nbk.MAX_CELLS:,} the grader reads"):
        nbk.read(many)
    long = tmp_path / "long.ipynb"
    source = "x = 1\n" * (nbk.MAX_CELL_CHARS // 6 + 1)
    long.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                                "cells": [{"cell_type": "code", "metadata": {}, "source": source,
                                           "outputs": [], "execution_count": None}]}))
    with pytest.raises(nbk.NotebookError, match=f"cell 1 holds .* more than the {nbk.MAX_CELL_CHARS:,}"):
        nbk.read(long)
    assert "more than the" in nbk.graded_cells(notebook(source))[0].error  # the reader alone is bounded too


def long_cell(n: int, magics: bool) -> dict:
    lines = []
    for i in range(n):
        if magics and i % 50 == 0:
            lines.append("%time 1")
        lines.append(f"def f{i}(x):\n    return x + {i}" if i % 2 else f"X{i} = {i}")
    return notebook("\n".join(lines))


def python_lines_run(nb) -> int:
    """Deterministic work: the lines of Python executed while reading (the reader, ast,
    IPython's tokeniser), counted with a trace function; no clock involved."""
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        count += event == "line"
        return tracer

    sys.settrace(tracer)
    try:
        nbk.graded_cells(nb)
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize("magics", [False, True], ids=["plain", "with magics"])
def test_reading_work_grows_linearly_with_a_cells_length(magics):
    """Doubling a cell doubles the reader's work. ast.get_source_segment per statement
    re-splits the whole cell, character by character: that reader does 4x the work."""
    small, large = python_lines_run(long_cell(200, magics)), python_lines_run(long_cell(400, magics))
    assert 1.7 < large / small < 2.3, (small, large)


def test_a_40000_line_cell_is_read_smoke():
    """A smoke check beside the count above: 40,000 lines, read in a child with a generous limit."""
    code = ("from grader import notebook as nbk\n"
            "src = '\\n'.join(f'def f{i}(x):\\n    return x + {i}' if i % 2 else f'X{i} = {i}' for i in range(26667))\n"
            "assert src.count('\\n') >= 39999\n"
            "cells = nbk.graded_cells({'cells': [{'cell_type': 'code', 'metadata': {}, 'source': src}]})\n"
            "print(len(cells[0].defines))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.stdout.strip() == "13333", proc.stderr


# --------------------------------------------------------------------------- the reader's own form
FORMAT_3 = {  # as IPython 2 wrote a notebook: worksheets, "input" and "language", prompt numbers
    "metadata": {"name": "", "gpt2course": {"lesson": "01_embeddings"}}, "nbformat": 3, "nbformat_minor": 0,
    "worksheets": [{"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# old"]},
        {"cell_type": "code", "collapsed": False, "input": ["def embed(wte, wpe, idx):\n", "    return wte[idx]"],
         "language": "python", "metadata": {"tags": ["exercise"]}, "outputs": [], "prompt_number": 1},
    ], "metadata": {}}],
}


def test_a_format_3_notebook_is_converted_and_read():
    nb = nbk.read_data(json.dumps(FORMAT_3).encode())
    assert nb.nbformat == 4 and nbk.lesson_of(nb) == "01_embeddings"
    assert [c.cell_type for c in nb.cells] == ["markdown", "code"] and nbk.tags(nb.cells[1]) == ["exercise"]
    [cell] = nbk.graded_cells(nb)
    assert cell.defines == ["embed"] and "return wte[idx]" in cell.source


def test_reading_a_notebook_does_not_import_nbformat(tmp_path):
    """nbformat's import costs about a second (its validator's jsonschema IRI checker): not in
    every grading run, nor in the student edition's first lesson cell that uses an exercise."""
    path = ROOT / "solutions" / "01_embeddings_exercises.ipynb"
    code = ("import sys; from grader import notebook as nbk; from grader.batch import grade\n"
            f"nb = nbk.read({str(path)!r}); assert nbk.graded_cells(nb)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('nbformat', 'jsonschema')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_what_the_reader_returns_is_what_nbformat_reads_and_writes(tmp_path):
    path = ROOT / "solutions" / "01_embeddings_exercises.ipynb"
    ours, theirs = nbk.read(path), nbformat.read(path, as_version=4)
    assert ours == json.loads(path.read_text())            # the file's JSON, source lines as stored
    assert [nbk.cell_source(c) for c in ours.cells] == [c.source for c in theirs.cells]
    ours.cells[3].source = "x = 1\n"          # edited the way the release and the tests edit a cell
    del ours.metadata.gpt2course
    nbformat.write(ours, tmp_path / "ours.ipynb")
    again = nbformat.read(tmp_path / "ours.ipynb", as_version=4)
    assert again.cells[3].source == "x = 1\n" and "gpt2course" not in again.metadata
    with pytest.raises(AttributeError):
        ours.no_such_key


# ------------------------------------------------------------------ the grader's parsing work, budgeted
def test_a_plain_cell_costs_one_parse_and_magics_cost_each_round():
    """Work counts every character parsed or tokenised: a cell without IPython syntax is
    parsed once; one whose magics each leave a bracket open is retokenised whole each round
    (IPython allows 32), and past its budget reading stops, in the grader's words."""
    from grader.cell_code import TooMuchWork, Work

    plain = "def f(x):\n    return x\n"
    work = Work(10**6, "a budget")
    nbk.graded_cells(notebook(plain), work)
    assert work.limit - work.left == len(plain)
    slow = "!echo (\n" * 40 + "x = 1\n" * 1000
    with pytest.raises(TooMuchWork, match=f"more than a budget .{10 * len(slow):,} characters") as got:
        nbk.graded_cells(notebook(slow), Work(10 * len(slow), "a budget"))
    assert "echo" not in str(got.value)


def test_a_learners_budget_spans_their_notebooks():
    from grader.cell_code import TooMuchWork, Work

    source = "x = 1\n" * 1000
    learner = Work(len(source) * 2, "one learner's budget")
    for _ in range(2):
        nbk.graded_cells(notebook(source), Work(len(source), "one notebook's budget", learner))
    with pytest.raises(TooMuchWork, match="one learner's budget"):
        nbk.graded_cells(notebook(source), Work(len(source), "one notebook's budget", learner))


def test_a_notebooks_json_structure_is_counted_before_it_is_parsed(monkeypatch):
    """`{}` is two bytes and an object: the brackets and commas are counted (the sandbox's
    frame counter) and a notebook over the cap is refused before json.loads sees it."""
    from grader.batch.inputs import reading

    good = (ROOT / "solutions" / "01_embeddings_exercises.ipynb").read_bytes()
    wide = good.replace(b'"metadata": {', b'"metadata": {"pad": [' + b"{}," * reading.MAX_NOTEBOOK_STRUCTURE
                        + b'{}], ', 1)
    assert reading.parse(good).cells
    monkeypatch.setattr(nbk.json, "loads", lambda *a, **k: pytest.fail("parsed before it was counted"))
    with pytest.raises(nbk.NotebookError, match="brackets and commas, more than the 500,000"):
        reading.parse(wide)


def test_planning_finds_a_lesson_without_parsing(monkeypatch):
    """The lesson for planning comes from the bytes (metadata found by a pattern, else the
    file name, else legible `def` lines), never from parsing the notebook."""
    from grader.batch.inputs import reading

    monkeypatch.setattr(nbk.json, "loads", lambda *a, **k: pytest.fail("parsed to plan"))
    monkeypatch.setattr(nbk, "graded_cells", lambda *a, **k: pytest.fail("parsed to plan"))
    nb = (ROOT / "solutions" / "02_attention_exercises.ipynb").read_bytes()
    assert reading.lesson_evidence("homework.ipynb", nb) == "02_attention"
    anonymous = nb.replace(b'"lesson": "02_attention"', b'"lesson": "unknown"')
    assert anonymous != nb
    assert reading.lesson_evidence("homework.ipynb", anonymous) == "02_attention"  # by its defs
    assert reading.lesson_evidence("05_counting_exercises.ipynb", anonymous) == "05_counting"

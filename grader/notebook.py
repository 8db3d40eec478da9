"""Reading notebooks: lesson metadata, exercise cells and the code the grader runs."""
from __future__ import annotations

import ast
import json
import os
import re
import stat
from dataclasses import dataclass, field

from .cell_code import CellError, Work, is_get_ipython, layout, statements

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
EXERCISE_TAG, CHECK_TAG = "exercise", "check"
META_KEY = "gpt2course"
_DEF = re.compile(r"^def\s+([A-Za-z_]\w*)\s*\(", re.M)


class NotebookError(ValueError):
    """The file is not a notebook the grader can read; the message says why."""


class Node(dict):
    """A JSON object of the notebook with attribute access (``nb.cells``, ``cell.source``), as
    nbformat's NotebookNode has. The reader does not import nbformat for a format-4 notebook:
    nbformat's validator loads jsonschema, whose IRI format checker (rfc3987-syntax) builds its
    grammars on import, about a second of CPU (python-jsonschema issue 1428) that every grading
    run and the student edition's first lesson cell using an exercise would pay."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        self[name] = value

    def __delattr__(self, name):
        try:
            del self[name]
        except KeyError:
            raise AttributeError(name) from None


# A learner's notebook is a stranger's file: bounded in size, and every part the
# grader reads is checked for its type before use, so a hand-edited file is a
# NotebookError (a learner problem) and never a crash of the batch.
MAX_NOTEBOOK_BYTES = 20 * 2**20
# The grader's own work on one notebook is bounded too (linear in these; cell_code.py).
MAX_CELLS = 2000            # an exercise notebook has about 40
# Of one code cell: an exercise's answer is a few thousand. Python's parser builds objects
# for every node, about 900 bytes a character for the densest code ("a\n" repeated), and
# the grader parses a learner's cells in its own process: 100,000 keeps that under 100 MB.
MAX_CELL_CHARS = 100_000
_KINDS = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list",
          dict: "an object", type(None): "null"}  # bool before int: True is an int too


def read_bytes(path, limit: int = MAX_NOTEBOOK_BYTES) -> bytes:
    """At most ``limit`` bytes of a regular file; NotebookError if it is larger or not a file.
    O_NONBLOCK: a FIFO planted as a notebook must not hang the grader."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotebookError("it is not a regular file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise NotebookError(f"the file is larger than {limit // 2**20} MB: a notebook of exercises "
                            "is far smaller (clear the outputs, save it, and submit it again)")
    return data


def read(path) -> Node:
    return read_data(read_bytes(path))


def read_data(data: bytes) -> Node:
    """The notebook in ``data`` (a file's bytes, read elsewhere), checked as ``read`` checks a file."""
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise NotebookError(f"the file is larger than {MAX_NOTEBOOK_BYTES // 2**20} MB")
    raw = _parse(data)
    if not isinstance(raw, dict) or "cells" not in raw and "worksheets" not in raw:
        raise NotebookError("the JSON is not a Jupyter notebook (no 'cells')")
    major = raw.get("nbformat")
    if not isinstance(major, int) or major < 3:
        raise NotebookError(f"notebook format {_short(major)} is too old to read: open it in a current "
                            "Jupyter, save it, and submit it again")
    try:
        nb = _from_format_3(raw) if major == 3 else raw
    except RecursionError:
        raise NotebookError("the notebook is nested too deeply to read") from None
    except Exception as exc:
        what = "convert this format-3 notebook" if major == 3 else "read the notebook"
        raise NotebookError(f"could not {what} ({_short(exc)})") from None
    check_shape(nb)
    check_size(nb)
    return nb


def _from_format_3(raw: dict) -> Node:
    """A format-3 notebook (rare: Jupyter has written format 4 since 2015), converted losslessly
    by nbformat, imported only here."""
    import nbformat

    return json.loads(json.dumps(nbformat.reads(json.dumps(raw), as_version=4)), object_hook=Node)


def _parse(data: bytes):
    try:
        return json.loads(data.decode("utf-8"), object_hook=Node)
    except UnicodeDecodeError:
        raise NotebookError("the file is not UTF-8 text; is it really a .ipynb notebook?") from None
    except json.JSONDecodeError as exc:
        raise NotebookError(f"the file is not valid JSON (line {exc.lineno}): it was probably "
                            "truncated or edited outside Jupyter") from None
    except RecursionError:
        raise NotebookError("the JSON is nested too deeply to be a notebook") from None
    except ValueError:  # e.g. a number with thousands of digits
        raise NotebookError("the JSON holds values no notebook has (e.g. a huge number)") from None


def _short(x, limit: int = 60) -> str:
    """A bounded description of a value taken from the file (it reaches feedback)."""
    try:
        text = str(x) if isinstance(x, BaseException) else repr(x)
    except Exception:  # e.g. an int too long to print
        text = f"a {type(x).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


def _expect(value, kind, what: str):
    """``value`` if it has the type nbformat 4 gives it, else a NotebookError naming the part."""
    if isinstance(value, kind):
        return value
    got = next((w for t, w in _KINDS.items() if isinstance(value, t)), "something else")
    raise NotebookError(f"{what} is {got}, expected {_KINDS.get(kind, kind.__name__)}")


def check_shape(nb) -> None:
    """Every part the grader reads has its nbformat 4 type (NotebookError otherwise)."""
    where = "the notebook"
    try:
        lesson_of(nb)
        for i, cell in enumerate(cells(nb)):
            where = f"cell {i + 1}"
            tags(cell)
            cell_source(cell)
            _expect(cell.get("cell_type", "code"), str, "a cell's cell_type")
    except NotebookError as exc:
        raise NotebookError(f"malformed notebook ({where}): {exc}; was the file edited "
                            "outside Jupyter?") from None


def check_size(nb) -> None:
    """At most MAX_CELLS cells and MAX_CELL_CHARS characters a code cell (NotebookError otherwise)."""
    found = cells(nb)
    if len(found) > MAX_CELLS:
        raise NotebookError(f"the notebook has {len(found):,} cells, more than the {MAX_CELLS:,} the grader "
                            "reads: delete the cells you added to experiment (keep the exercise and check "
                            "cells), save it, and submit it again")
    for i, cell in enumerate(found):
        if cell.get("cell_type") == "code" and len(cell_source(cell)) > MAX_CELL_CHARS:
            raise NotebookError(too_long(i + 1, len(cell_source(cell))))


def too_long(cell: int, chars: int) -> str:
    return (f"cell {cell} holds {chars:,} characters of code, more than the {MAX_CELL_CHARS:,} the grader "
            "reads: an exercise's answer is far shorter (remove pasted data or generated code from it, "
            "save the notebook, and submit it again)")


def cells(nb) -> list:
    found = _expect(_expect(nb, dict, "the notebook").get("cells", []), list, "'cells'")
    return [_expect(c, dict, f"cell {i + 1}") for i, c in enumerate(found)]


def _metadata(node, what: str) -> dict:
    return _expect(_expect(node, dict, what).get("metadata", {}), dict, f"the metadata of {what}")


def lesson_of(nb) -> str | None:
    course = _expect(_metadata(nb, "the notebook").get(META_KEY, {}), dict, f"metadata.{META_KEY}")
    lesson = course.get("lesson")
    return None if lesson is None else _expect(lesson, str, f"metadata.{META_KEY}.lesson")


def tags(cell) -> list[str]:
    found = _expect(_metadata(cell, "a cell").get("tags", []), list, "a cell's tags")
    return [_expect(t, str, "a cell's tag") for t in found]


def cell_source(cell) -> str:
    src = _expect(cell, dict, "a cell").get("source", "")
    if isinstance(src, list):
        return "".join(_expect(s, str, "a line of a cell's source") for s in src)
    return _expect(src, str, "a cell's source")


@dataclass
class GradedCell:
    """The runnable part of one code cell, and what it defines."""

    index: int
    source: str
    defines: list[str] = field(default_factory=list)
    error: str | None = None  # set when IPython could not run the cell


def _keeps(node) -> bool:
    """Definitions: imports (not of the grader), functions, classes, constants (not a magic's
    or a shell command's output, which only IPython can compute)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return not _imports_grader(node)
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        return not any(is_get_ipython(n) for n in ast.walk(node))
    return isinstance(node, (ast.FunctionDef, ast.ClassDef))


def graded_cells(nb, work: Work | None = None) -> list[GradedCell]:
    """Definitions only: imports, functions, classes and constants, never plots or training.
    ``work``: the parsing the grader allows itself (cell_code.TooMuchWork past it)."""
    out = []
    for index, cell in enumerate(cells(nb)):
        if cell.get("cell_type") != "code":
            continue
        source = cell_source(cell)
        try:
            if len(source) > MAX_CELL_CHARS:
                raise CellError(lambda n: too_long(n, len(source)))
            kept = [s for s in statements(source, work=work) if _keeps(s[0])]
        except CellError as exc:
            out.append(GradedCell(index, "", _DEF.findall(source), exc.describe(index + 1)))
            continue
        defs = [n.name for n, _, _ in kept if isinstance(n, ast.FunctionDef)]
        if not any(isinstance(n, (ast.FunctionDef, ast.ClassDef)) for n, _, _ in kept):
            kept = [s for s in kept if isinstance(s[0], (ast.Import, ast.ImportFrom))]
        if kept:
            out.append(GradedCell(index, layout(kept), defs))
    return out


def _imports_grader(node) -> bool:
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] == "grader"
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] == "grader" for a in node.names)
    return False


def solution_regions(source: str) -> list[tuple[int, int]]:
    """(begin line, end line) pairs of the solution markers, 0-based, validated."""
    lines = source.splitlines()
    regions, start = [], None
    for i, line in enumerate(lines):
        if line.strip() == BEGIN:
            if start is not None:
                raise NotebookError(f"line {i + 1}: {BEGIN} inside another solution block")
            start = i
        elif line.strip() == END:
            if start is None:
                raise NotebookError(f"line {i + 1}: {END} without a {BEGIN}")
            regions.append((start, i))
            start = None
    if start is not None:
        raise NotebookError(f"line {start + 1}: {BEGIN} is never closed")
    return regions


def checked_names(source: str) -> list[str]:
    """Function names passed to check(...) in a cell, read as IPython runs it."""
    try:
        found = statements(source) if len(source) <= MAX_CELL_CHARS else []
    except CellError:
        return []
    return [arg.id for stmt, _, _ in found for node in ast.walk(stmt)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check"
            for arg in node.args if isinstance(arg, ast.Name)]

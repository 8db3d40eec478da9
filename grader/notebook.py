"""Reading notebooks: lesson metadata, exercise cells and the code the grader runs."""
from __future__ import annotations

import ast
import json
import os
import re
import stat
from dataclasses import dataclass, field

import nbformat

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
EXERCISE_TAG, CHECK_TAG = "exercise", "check"
META_KEY = "gpt2course"
_DEF = re.compile(r"^def\s+([A-Za-z_]\w*)\s*\(", re.M)
# Statements worth running when grading: definitions and what they need.
_KEEP = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)


class NotebookError(ValueError):
    """The file is not a notebook the grader can read; the message says why."""


# A learner's notebook is a stranger's file: bounded in size, and every part the
# grader reads is checked for its type before use, so a hand-edited file is a
# NotebookError (a learner problem) and never a crash of the batch.
MAX_NOTEBOOK_BYTES = 20 * 2**20
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


def read(path) -> nbformat.NotebookNode:
    return read_data(read_bytes(path))


def read_data(data: bytes) -> nbformat.NotebookNode:
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
        if major == 3:  # converted losslessly by nbformat
            nb = nbformat.reads(json.dumps(raw), as_version=4)
        else:
            nb = nbformat.from_dict(raw)
    except RecursionError:
        raise NotebookError("the notebook is nested too deeply to read") from None
    except Exception as exc:
        what = "convert this format-3 notebook" if major == 3 else "read the notebook"
        raise NotebookError(f"could not {what} ({_short(exc)})") from None
    check_shape(nb)
    return nb


def _parse(data: bytes):
    try:
        return json.loads(data.decode("utf-8"))
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
    error: str | None = None  # set when the cell cannot even be parsed


def strip_magics(source: str) -> str:
    """IPython lines (%magic, !shell, trailing ?) are not Python; blank them out."""
    return "\n".join("" if re.match(r"\s*[%!]", ln) or ln.rstrip().endswith("?") else ln
                     for ln in source.splitlines())


def graded_cells(nb) -> list[GradedCell]:
    """Definitions only: imports, functions, classes and constants, never plots or training."""
    out = []
    for index, cell in enumerate(cells(nb)):
        if cell.get("cell_type") != "code":
            continue
        source = strip_magics(cell_source(cell))
        try:
            tree = ast.parse(source)
        except SyntaxError as exc:
            out.append(GradedCell(index, "", _DEF.findall(source),
                                  f"SyntaxError in cell {index + 1}, line {exc.lineno}: {exc.msg}"))
            continue
        except (RecursionError, MemoryError, ValueError):  # nesting the parser cannot hold
            out.append(GradedCell(index, "", _DEF.findall(source),
                                  f"cell {index + 1} is nested too deeply for Python to parse"))
            continue
        kept = [n for n in tree.body if isinstance(n, _KEEP) and not _imports_grader(n)]
        defs = [n.name for n in kept if isinstance(n, ast.FunctionDef)]
        if not any(isinstance(n, (ast.FunctionDef, ast.ClassDef)) for n in kept):
            kept = [n for n in kept if isinstance(n, (ast.Import, ast.ImportFrom))]
        if kept:
            code = "\n".join(ast.get_source_segment(source, n, padded=True) or "" for n in kept)
            out.append(GradedCell(index, code, defs))
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
    """Function names passed to check(...) in a cell."""
    try:
        tree = ast.parse(strip_magics(source))
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return []
    return [arg.id for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check"
            for arg in node.args if isinstance(arg, ast.Name)]

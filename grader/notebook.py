"""Reading notebooks: lesson metadata, exercise cells and the code the grader runs."""
from __future__ import annotations

import ast
import json
import re
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


def read(path) -> nbformat.NotebookNode:
    try:
        with open(path, encoding="utf-8") as f:
            raw = json.load(f)
    except UnicodeDecodeError:
        raise NotebookError("the file is not UTF-8 text; is it really a .ipynb notebook?") from None
    except json.JSONDecodeError as exc:
        raise NotebookError(f"the file is not valid JSON (line {exc.lineno}): it was probably "
                            "truncated or edited outside Jupyter") from None
    if not isinstance(raw, dict) or "cells" not in raw and "worksheets" not in raw:
        raise NotebookError("the JSON is not a Jupyter notebook (no 'cells')")
    major = raw.get("nbformat")
    if not isinstance(major, int) or major < 3:
        raise NotebookError(f"notebook format {major!r} is too old to read: open it in a current "
                            "Jupyter, save it, and submit it again")
    if major == 3:  # converted losslessly by nbformat
        try:
            return nbformat.reads(json.dumps(raw), as_version=4)
        except Exception as exc:
            raise NotebookError(f"could not convert this format-3 notebook ({exc})") from None
    try:
        return nbformat.from_dict(raw)
    except Exception as exc:
        raise NotebookError(f"malformed notebook: {exc}") from None


def lesson_of(nb) -> str | None:
    return nb.get("metadata", {}).get(META_KEY, {}).get("lesson")


def tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def cell_source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


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
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        source = strip_magics(cell_source(cell))
        try:
            tree = ast.parse(source)
        except SyntaxError as exc:
            names = _DEF.findall(source)
            out.append(GradedCell(index, "", names,
                                  f"SyntaxError in cell {index + 1}, line {exc.lineno}: {exc.msg}"))
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
    except SyntaxError:
        return []
    return [arg.id for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check"
            for arg in node.args if isinstance(arg, ast.Name)]

"""Tiny helper for authoring notebooks from Python: md("..."), code("...", tags=[...]).

Used by maintainers who prefer writing a lesson as a script; the .ipynb files
in notebooks/ and solutions/ remain the source of truth once written.
"""
import textwrap

import nbformat

CELL_IDS: dict[str, int] = {}


def _id(prefix: str, lesson: str) -> str:
    CELL_IDS[lesson] = CELL_IDS.get(lesson, 0) + 1
    return f"{prefix}-{CELL_IDS[lesson]:03d}"


def md(text: str, lesson: str = "x"):
    cell = nbformat.v4.new_markdown_cell(textwrap.dedent(text).strip("\n"))
    cell.id = _id("md", lesson)
    return cell


def code(text: str, tags=(), lesson: str = "x"):
    cell = nbformat.v4.new_code_cell(textwrap.dedent(text).strip("\n"))
    cell.id = _id("code", lesson)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def notebook(cells, lesson: str | None = None):
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    if lesson:
        nb.metadata["gpt2course"] = {"lesson": lesson}
    return nb

"""solutions/ -> exercises/: replace solution code by stubs, store what check() shows for the stub."""
from __future__ import annotations

import copy
import re
from pathlib import Path

import nbformat

from . import edition
from .. import notebook as nbk
from ..checking.check import not_attempted
from ..checking.display import mimebundle

STUB = 'raise NotImplementedError("{name}: replace this line with your code")'


def stub_source(source: str) -> str:
    """Replace each marked solution block by one raise, at the block's indentation."""
    lines = source.splitlines()
    regions = nbk.solution_regions(source)
    for start, end in reversed(regions):
        indent = re.match(r"\s*", lines[start]).group(0)
        name = _enclosing_function(lines, start)
        lines[start:end + 1] = [indent + STUB.format(name=name or "exercise")]
    return "\n".join(lines)


def _enclosing_function(lines: list[str], line_no: int) -> str | None:
    for line in reversed(lines[:line_no]):
        m = re.match(r"def\s+(\w+)", line)
        if m:
            return m.group(1)
    return None


def with_edition_text(nb, edition_name: str = edition.COURSE) -> nbformat.NotebookNode:
    """A copy of ``nb`` whose edition-specific cells hold the generated text."""
    out = copy.deepcopy(nb)
    lesson = nbk.lesson_of(out)
    if lesson:
        edition.fill(out, lesson, edition_name)
    return out


def stub_notebook(nb) -> nbformat.NotebookNode:
    out = with_edition_text(nb)
    for cell in out.cells:
        if cell.cell_type != "code":
            continue
        if nbk.EXERCISE_TAG in nbk.tags(cell):
            src = nbk.cell_source(cell)
            if not nbk.solution_regions(src):
                raise nbk.NotebookError("an exercise cell has no solution markers")
            cell.source = stub_source(src)
            cell.outputs, cell.execution_count = [], None
        elif nbk.BEGIN in nbk.cell_source(cell):
            raise nbk.NotebookError("solution markers outside a cell tagged 'exercise'")
    for cell in out.cells:
        if cell.cell_type == "code" and nbk.CHECK_TAG in nbk.tags(cell):
            names = nbk.checked_names(nbk.cell_source(cell))
            # what check() displays in a kernel: one display_data (HTML and text) per function
            cell.outputs = [nbformat.v4.new_output("display_data", data=mimebundle(not_attempted(n)), metadata={})
                            for n in names]
            # nbval refuses a cell with outputs but no count: keep the solutions' count
            cell.execution_count = cell.execution_count or 1
    return out


def render(nb) -> str:
    return nbformat.writes(nb) + "\n"


def generate(solutions: Path, exercises: Path) -> dict[Path, str]:
    """The exercise notebooks' text, keyed by path, and the solutions' own text with
    their edition-specific cells filled in."""
    if not solutions.is_dir():
        raise nbk.NotebookError(f"{solutions} is not a folder of solution notebooks")
    out = {}
    for path in sorted(solutions.glob("*.ipynb")):
        try:
            nb = nbk.read(path)
            out[exercises / path.name] = render(stub_notebook(nb))
            out[path] = render(with_edition_text(nb))
        except nbk.NotebookError as exc:
            raise nbk.NotebookError(f"{path}: {exc}") from None
    return out


def write(solutions: Path, exercises: Path) -> list[Path]:
    exercises.mkdir(parents=True, exist_ok=True)
    written = []
    for path, text in generate(solutions, exercises).items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def stale(solutions: Path, exercises: Path) -> list[str]:
    """Why exercises/ is out of date; empty when it matches solutions/ exactly."""
    wanted = generate(solutions, exercises)
    problems = [f"{p} is out of date" for p, t in wanted.items()
                if not p.exists() or p.read_text(encoding="utf-8") != t]
    extra = sorted(set(exercises.glob("*.ipynb")) - set(wanted))
    return problems + [f"{p} has no source in {solutions}/" for p in extra]

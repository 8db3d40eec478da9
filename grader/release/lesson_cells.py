"""What the student release does to the lessons: a first cell saying they run on the
learner's code, and the course's outputs of every cell, stored for the cells that
wait for an unfinished exercise (runtime/student_cells.py shows them in the release).

A stored output is shown long after the kernel that made it is gone, so an
ipywidgets view in it (lesson 08's tqdm bar, lesson 05's explorer) would point
at a widget model that no longer exists and render as a broken widget. Such an
output is stored as text instead: a progress bar as tqdm prints it in a
terminal, read from the widget state saved in the notebook; any other widget
as a line saying it runs once the cell runs on the learner's code.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat

from .. import notebook as nbk
from .runtime.student_cells import cell_key

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_NOTE = "(an interactive widget: it appears when this cell runs on your own code)"
BAR_WIDTH = 10

LESSON_NOTE = (
    "> **Student edition.** This lesson runs on **your own code**: the cells that use an exercise "
    "(`numpy_gpt.embed`, `numpy_gpt.layer_norm`, ...) call your function from your saved exercise "
    "notebook in `exercises/`. Until an exercise is done, such a cell shows the output it had in the "
    "course, headed *stored output*, with a line naming the exercise to finish (and so do the cells "
    "that need its results). Once you have finished and saved every exercise up to this lesson, "
    "every cell runs live on your own model and no stored output is left. Save your exercise "
    "notebook before re-running a lesson cell: the lesson reads the saved file. When a cell that "
    "ran your code fails, its error says which exercise it ran: run its `check(...)` in the "
    "exercise notebook.")


def mark_lessons(folder: Path) -> None:
    for path in sorted(folder.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(LESSON_NOTE, id="student-edition-note"))
        nbformat.write(nb, path)


def stored_outputs(folder: Path) -> dict[str, list]:
    """Every lesson cell's outputs, keyed by a hash of its source (the runtime's cell_key, which
    the release's student_cells looks them up by), with widget views stored as text."""
    stored = {}
    for path in sorted(folder.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
        for cell in nb.cells:
            if cell.cell_type == "code" and cell.get("outputs"):
                outputs = [as_shown_later(out, state) for out in cell.outputs]
                stored[cell_key(nbk.cell_source(cell))] = outputs
    return stored


def as_shown_later(out: dict, state: dict) -> dict:
    """One output as it can be shown in another kernel: without its execution count,
    and a widget view replaced by text."""
    out = {k: v for k, v in out.items() if k != "execution_count"}
    view = out.get("data", {}).get(WIDGET_VIEW)
    if view is None:
        return out
    text = widget_text(view.get("model_id", ""), state) or WIDGET_NOTE
    return {"output_type": "display_data", "data": {"text/plain": text}, "metadata": {}}


def widget_text(model_id: str, state: dict) -> str | None:
    """A box of HTML, labels and progress bars (tqdm's notebook bar) as one line of
    text; None for a widget that text cannot stand for (sliders, dropdowns...)."""
    model = state.get(model_id)
    if model is None:
        return None
    kind, values = model.get("model_name", ""), model.get("state", {})
    if kind in ("HBoxModel", "BoxModel"):
        parts = [widget_text(str(child).removeprefix("IPY_MODEL_"), state) for child in values.get("children", [])]
        return None if not parts or None in parts else "".join(parts)
    if kind in ("HTMLModel", "LabelModel"):
        text = html.unescape(re.sub(r"<[^>]*>", "", str(values.get("value", ""))))
        return text.replace("\u2007", " ")
    if kind in ("FloatProgressModel", "IntProgressModel"):
        low, high, value = (float(values.get(k, 0)) for k in ("min", "max", "value"))
        filled = min(max(round(BAR_WIDTH * (value - low) / (high - low)), 0), BAR_WIDTH) if high > low else 0
        return "|" + "█" * filled + " " * (BAR_WIDTH - filled) + "|"
    return None

"""A learner's notebook as grading sees it: parsed once from the bytes collect read,
and matched to its lesson, even when it cannot be parsed."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ... import notebook as nbk
from ...judging import registry
from .collect import Notebook

MAX_SALVAGE = 2 * 2**20  # bytes of an unreadable notebook searched for its lesson
_LESSON_TEXT = re.compile(rb'"lesson"\s*:\s*"([0-9A-Za-z_]{1,64})"')
_DEF_TEXT = re.compile(rb"def\s+([A-Za-z_]\w{0,99})\s*\(")
# Lesson ids of earlier student editions (their notebooks' metadata and file names), renamed
# so that a lesson's three notebooks and its grader module share one name.
FORMER_IDS = {"07_positions": "07_position_embeddings", "08_training": "08_training_sampling"}


def guess_lesson(nb, name: str, data: bytes | None = None) -> str | None:
    """The notebook's lesson: its metadata, else its file name (alice_01_embeddings.ipynb),
    else the exercises it defines. A notebook that cannot be read (``nb`` None) is matched
    by its name, else by what is still legible in its bytes (a truncated notebook keeps
    its metadata and most of its `def` lines), so it is never taken for a missing one."""
    known = registry.lessons()
    lesson = nbk.lesson_of(nb) if nb is not None else None
    lesson = FORMER_IDS.get(lesson, lesson)
    if lesson in known:
        return lesson
    base = name.rsplit("/", 1)[-1]
    for candidate in [*known, *FORMER_IDS]:
        if candidate in base:
            return FORMER_IDS.get(candidate, candidate)
    if nb is not None:
        defined = {n for c in nbk.graded_cells(nb) for n in c.defines}
    else:
        text = data or b""
        found = [FORMER_IDS.get(m.decode(), m.decode()) for m in _LESSON_TEXT.findall(text[:MAX_SALVAGE])]
        if any(x in known for x in found):
            return next(x for x in found if x in known)
        defined = {m.decode() for m in _DEF_TEXT.findall(text[:MAX_SALVAGE])}
    scores = {x: len(defined & {e.name for e in registry.for_lesson(x)}) for x in known}
    best = max(scores, key=scores.get, default=None)
    return best if best and scores[best] else None


@dataclass
class ReadNotebook:
    """A learner's notebook, parsed once: its lesson, and why it could not be read."""

    name: str
    lesson: str | None
    nb: object = None
    why: str | None = None


def read_notebook(notebook: Notebook) -> ReadNotebook:
    nb, why = None, notebook.problem
    if notebook.data is not None:
        try:
            nb = nbk.read_data(notebook.data)
        except (nbk.NotebookError, RecursionError) as exc:
            why = str(exc) if isinstance(exc, nbk.NotebookError) else "the notebook is nested too deeply to read"
    try:
        lesson = guess_lesson(nb, notebook.name, notebook.data if nb is None else None)
    except (nbk.NotebookError, RecursionError):
        lesson = None
    return ReadNotebook(notebook.name, lesson, nb, why or (None if nb is not None else "it could not be read"))

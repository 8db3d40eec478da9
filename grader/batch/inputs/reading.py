"""A learner's notebook as grading sees it.

Two readings, each bounded:

- ``lesson_evidence``, while the batch is planned: the lesson from cheap evidence in the
  notebook's bytes (its metadata found by a pattern, its file name, its `def` lines),
  never by parsing it, so planning costs one linear scan a notebook whatever it holds.
- ``read_notebook``, while its learner is graded: the bytes read again (checked against
  the hash collect took), the JSON's structure counted before it is parsed (the counter
  the sandbox's frames use), parsed once, reduced to its graded cells under a budget of
  parsing work (``cell_code.Work``: per notebook, inside the learner's), and the parsed
  tree dropped. A notebook over a budget is a learner's problem, said in the grader's words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ... import notebook as nbk
from ...cell_code import TooMuchWork, Work
from ...judging import registry
from ..sandbox.inside import frames

MAX_SALVAGE = 2 * 2**20  # bytes of an unreadable notebook searched for its lesson
# '[', '{' and ',' in one notebook's JSON (frames.structure), counted before it is parsed:
# each is at most a few objects json.loads makes; an exercise notebook has about 500.
MAX_NOTEBOOK_STRUCTURE = 500_000
# Characters of code the grader parses or tokenises (IPython's rewriting included) for one
# notebook, and for all of one learner's: an exercise notebook needs about 30,000. Parsing
# the densest code (one-character statements) costs about a second per million characters,
# so the learner's budget keeps their reading to about a second.
NOTEBOOK_WORK = 300_000
LEARNER_WORK = 900_000
_LESSON_TEXT = re.compile(rb'"lesson"\s*:\s*"([0-9A-Za-z_]{1,64})"')
# The notebook's own metadata as Jupyter writes it (keys sorted: after the cells).
_META_LESSON = re.compile(rb'"gpt2course"\s*:\s*\{\s*"lesson"\s*:\s*"([0-9A-Za-z_]{1,64})"')
_DEF_TEXT = re.compile(rb"def\s+([A-Za-z_]\w{0,99})\s*\(")
# Lesson ids of earlier student editions (their notebooks' metadata and file names), renamed
# so that a lesson's three notebooks and its grader module share one name.
FORMER_IDS = {"07_positions": "07_position_embeddings", "08_training": "08_training_sampling"}


def lesson_evidence(name: str, data: bytes) -> str | None:
    """The lesson as planning sees it, from the bytes without parsing them: the last
    ``gpt2course`` metadata, else the file name, else what is legible (guess_lesson)."""
    known = registry.lessons()
    found = [FORMER_IDS.get(m.decode(), m.decode()) for m in _META_LESSON.findall(data)]
    if found and found[-1] in known:
        return found[-1]
    return guess_lesson(None, name, data)


def guess_lesson(nb, name: str, data: bytes | None = None, cells=None) -> str | None:
    """The notebook's lesson: its metadata, else its file name (alice_01_embeddings.ipynb),
    else the exercises it defines (``cells``: its graded cells, when already made). A
    notebook that cannot be read (``nb`` None) is matched by its name, else by what is
    still legible in its bytes (a truncated notebook keeps its metadata and most of its
    `def` lines), so it is never taken for a missing one."""
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
        defined = {n for c in (nbk.graded_cells(nb) if cells is None else cells) for n in c.defines}
    else:
        text = data or b""
        found = [FORMER_IDS.get(m.decode(), m.decode()) for m in _LESSON_TEXT.findall(text[:MAX_SALVAGE])]
        if any(x in known for x in found):
            return next(x for x in found if x in known)
        defined = {m.decode() for m in _DEF_TEXT.findall(text[:MAX_SALVAGE])}
    by_lesson: dict[str, set[str]] = {}
    for e in registry.load_all().values():
        by_lesson.setdefault(e.lesson, set()).add(e.name)
    scores = {x: len(defined & by_lesson.get(x, set())) for x in known}
    best = max(scores, key=scores.get, default=None)
    return best if best and scores[best] else None


@dataclass
class ReadNotebook:
    """A learner's notebook, parsed once: its lesson, its graded cells (None when it could
    not be read) and why it could not be read. The parsed tree itself is not kept."""

    name: str
    lesson: str | None
    cells: list | None = None
    why: str | None = None


def learner_work() -> Work:
    return Work(LEARNER_WORK, "the grader's budget for reading one learner's notebooks")


def read_notebook(notebook, work: Work | None = None) -> ReadNotebook:
    """``notebook``: a collect.Notebook. ``work``: the learner's budget (learner_work())."""
    data, why = notebook.load()
    nb, cells = None, None
    if data is not None:
        try:
            nb = parse(data)
            cells = nbk.graded_cells(nb, Work(NOTEBOOK_WORK, "the grader's budget for reading one notebook",
                                              work or learner_work()))
        except (nbk.NotebookError, RecursionError, TooMuchWork) as exc:
            why = "the notebook is nested too deeply to read" if isinstance(exc, RecursionError) else str(exc)
            nb, cells = None, None
    try:
        lesson = guess_lesson(nb, notebook.name, data if nb is None else None, cells)
    except (nbk.NotebookError, RecursionError):
        lesson = None
    return ReadNotebook(notebook.name, lesson, cells, why or (None if cells is not None else "it could not be read"))


def parse(data: bytes):
    """The notebook in ``data``, its JSON's structure counted first: what json.loads makes
    of a notebook grows with it, not with its bytes (``{}`` is 2 bytes and an object)."""
    items = frames.structure(data)
    if items > MAX_NOTEBOOK_STRUCTURE:
        raise nbk.NotebookError(f"its JSON holds {items:,} brackets and commas, more than the "
                                f"{MAX_NOTEBOOK_STRUCTURE:,} the grader reads in one notebook: clear the "
                                "outputs, save it, and submit it again")
    return nbk.read_data(data)

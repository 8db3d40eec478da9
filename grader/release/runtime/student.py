"""The student edition's model: the learner's own exercises, read from their notebooks.

In the student edition `numpy_gpt.embed` and the other functions that are
exercises call the learner's own version, read from their saved exercise
notebook (definitions only, the way the batch grader reads it). So a lesson
runs on the learner's code. A lesson is read before its exercises are done,
so when a cell needs an unfinished exercise the guard of `student_cells`
shows that cell's output from the course (stored at release time, keyed by a
hash of the cell's source) with one line naming the exercise, instead of a
traceback; cells that use what such a cell would have computed wait too.
Any other exception (a bug in the learner's code) shows as usual, at its
line, with a note naming the exercises the cell ran and their `check(...)`.

The full course never imports this module: there numpy_gpt is the reference.
"""
from __future__ import annotations

import json
import linecache
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
EDITION = HERE / "edition.json"          # exercise -> its notebook (written by the release)


class ExerciseNotDone(Exception):
    """A lesson needed an exercise that the learner has not finished yet."""

    def __init__(self, name: str, notebook: str):
        self.name, self.notebook = name, notebook
        super().__init__(f"`{name}` is not done yet: finish it in {notebook} and save the "
                         "notebook, then run this cell again")


class LearnerCodeError(RuntimeError):
    """The learner's exercise notebook cannot even be read or defined."""


def _edition() -> dict:
    return json.loads(EDITION.read_text(encoding="utf-8"))["exercises"]


def notebook_of(name: str) -> str:
    """The exercise notebook (relative to the course's root) that defines exercise ``name``."""
    return _edition()[name]["notebook"]


def course_root() -> Path:
    """The folder holding exercises/: the bundle's root, or above the lesson's folder."""
    for root in (Path(os.environ.get("GPT2COURSE_ROOT", HERE.parent)), Path.cwd().parent, Path.cwd()):
        if (root / "exercises").is_dir():
            return root
    return HERE.parent


_loaded: dict[Path, tuple[tuple, dict]] = {}


def _definitions(path: Path, own: set[str]) -> dict:
    """Run the definition statements of one exercise notebook in a fresh namespace,
    reloaded whenever the file changes on disk."""
    stamp = path.stat()
    key = (stamp.st_mtime_ns, stamp.st_size)
    if path in _loaded and _loaded[path][0] == key:
        return _loaded[path][1]
    from grader import notebook as nbk  # the definition-only reader the batch grader uses

    # exercises of other notebooks resolve to the learner's versions there
    namespace = {n: bridge(n) for n in _edition() if n not in own}
    namespace["__name__"] = f"exercises_{path.stem}"
    try:
        cells = nbk.graded_cells(nbk.read(path))
    except nbk.NotebookError as exc:
        raise LearnerCodeError(f"{path.name}: {exc}") from None
    for cell in cells:
        if cell.error:
            raise LearnerCodeError(f"{path.name}: {cell.error}")
        filename = f"{path.name}, cell {cell.index + 1}"
        # a traceback through the learner's function shows their lines, as for a cell of their own
        linecache.cache[filename] = (len(cell.source), None, cell.source.splitlines(True), filename)
        try:
            exec(compile(cell.source, filename, "exec"), namespace)
        except Exception as exc:
            raise LearnerCodeError(f"{path.name}, cell {cell.index + 1} failed while defining your "
                                   f"functions: {type(exc).__name__}: {exc}") from exc
    _loaded[path] = (key, namespace)
    return namespace


def learner_function(name: str):
    """The learner's function ``name``, or ExerciseNotDone if there is none yet."""
    edition = _edition()
    notebook = edition[name]["notebook"]
    path = course_root() / notebook
    if not path.is_file():
        raise ExerciseNotDone(name, notebook)
    own = {n for n, e in edition.items() if e["notebook"] == notebook}
    fn = _definitions(path, own).get(name)
    if not callable(fn):
        raise ExerciseNotDone(name, notebook)
    return fn


# The exercises a lesson cell called directly (not those they call in turn), in order:
# the guard resets it when a cell starts and names them when the cell fails.
ran: list[str] = []
_depth = 0


def call(name: str, *args, **kwargs):
    """Call the learner's ``name``; a stub still in place means 'not done yet'."""
    global _depth
    __tracebackhide__ = True  # noqa: F841  (IPython: a traceback goes from the lesson to the learner's code)
    fn = learner_function(name)
    if _depth == 0 and name not in ran:
        ran.append(name)
    _depth += 1
    try:
        return fn(*args, **kwargs)
    except NotImplementedError:
        raise ExerciseNotDone(name, notebook_of(name)) from None
    finally:
        _depth -= 1


def bridge(name: str):
    def learners(*args, **kwargs):
        return call(name, *args, **kwargs)

    learners.__name__ = learners.__qualname__ = name
    return learners


def as_dtype(params: dict, dtype) -> dict:
    import numpy as np

    return {k: np.asarray(v).astype(dtype, copy=False) for k, v in params.items()}

"""from_my_notebook: a learner's own function from an earlier lesson's saved exercise notebook,
so a later exercise can run on it without pasting it in (`check` still grades each exercise on
the course's pieces, or, in the student edition, on the pieces defined in its own notebook).

The notebook is read the way the batch grader reads it (grader/notebook.py: the definitions
only, no output, no cell that computes), again whenever the file changed, so the function is
the one saved last; the exercises of other lessons it calls are the learner's too.
"""
from __future__ import annotations

import linecache
import os
from pathlib import Path

from .. import notebook as nbk
from ..judging import registry


class NotInYourNotebook(LookupError):
    """The notebook or the function asked for is not there (yet)."""


def _exercises_folder() -> Path:
    """exercises/ beside the working folder (a notebook runs in its own folder), or below it."""
    for root in (os.environ.get("GPT2COURSE_ROOT"), Path.cwd().parent, Path.cwd()):
        if root and (Path(root) / "exercises").is_dir():
            return Path(root) / "exercises"
    raise NotInYourNotebook("no exercises/ folder beside or below this notebook's folder: open the "
                            "notebook from the course's folder (or set GPT2COURSE_ROOT to it)")


def from_my_notebook(lesson: str, name: str):
    """Your function ``name`` as saved in the exercise notebook of ``lesson`` ("03_mlp_block",
    or its number "03"): e.g. ``block = from_my_notebook("03_mlp_block", "block")``."""
    folder = _exercises_folder()
    found = sorted(folder.glob(f"{lesson}_exercises.ipynb")) or sorted(folder.glob(f"{lesson}_*_exercises.ipynb"))
    if len(found) != 1:
        known = ", ".join(sorted(p.name.removesuffix("_exercises.ipynb") for p in folder.glob("*_exercises.ipynb")))
        raise NotInYourNotebook(f"no exercise notebook for lesson {lesson!r} in {folder} (lessons: {known})")
    fn = _definitions(found[0]).get(name)
    if not callable(fn):
        raise NotInYourNotebook(f"{found[0].name} defines no function `{name}`: save the notebook after "
                                "running its cell")
    return fn


_read: dict[Path, tuple[tuple, dict]] = {}   # a notebook's definitions while the file is unchanged


def _definitions(path: Path) -> dict:
    stamp = path.stat()
    key = (stamp.st_mtime_ns, stamp.st_size)
    if path in _read and _read[path][0] == key:
        return _read[path][1]
    try:
        cells = nbk.graded_cells(nbk.read(path))
    except nbk.NotebookError as exc:
        raise NotInYourNotebook(f"{path.name} cannot be read: {exc}") from None
    # the exercises of other lessons it calls are the learner's too, each read when first called
    namespace: dict = {n: _yours(e.lesson, n) for n, e in registry.load_all().items()}
    namespace["__name__"] = f"my_{path.stem}"
    for cell in cells:
        if cell.error:
            raise NotInYourNotebook(f"{path.name}, cell {cell.index + 1}: {cell.error}")
        filename = f"{path.name}, cell {cell.index + 1}"
        # a traceback through the function shows its lines, as for a cell of this notebook
        linecache.cache[filename] = (len(cell.source), None, cell.source.splitlines(True), filename)
        try:
            exec(compile(cell.source, filename, "exec"), namespace)
        except Exception as exc:
            raise NotInYourNotebook(f"{path.name}, cell {cell.index + 1} failed while defining your functions: "
                                    f"{type(exc).__name__}: {exc}") from exc
    _read[path] = (key, namespace)
    return namespace


def _yours(lesson: str, name: str):
    def yours(*args, **kwargs):
        return from_my_notebook(lesson, name)(*args, **kwargs)

    yours.__name__ = yours.__qualname__ = name
    return yours

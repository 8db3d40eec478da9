"""A diagnosis for composites (diagnoses.py runs it): the mistake is one that an earlier exercise
catalogues, made inside this one. The course's composites (block, gpt_logits, mlp) call their
pieces by name from the module that holds the pieces' references, so running it with one piece swapped for one of that
piece's catalogued mistakes gives the answer of a learner who made that mistake there, whether
in their own earlier function or in the lines that compute it. Named only when exactly one
mistake of one piece reproduces the learner on every case (failing and passing alike).

Runs in the grader's process, never the learner's: the swap is seen by the thread that made it
alone and is undone before it returns: the batch grader judges several learners at once, one
thread each, and a swap seen by every thread changed another learner's expected answers.
"""
from __future__ import annotations

import functools
import inspect
import sys
import threading
from contextlib import contextmanager

from .answers import call_answer
from .compare import value_mismatch
from .outcomes import NO_ANSWER, Raised
from .registry import get

_INSTALL = threading.Lock()
_LOCAL = threading.local()   # this thread's swaps: {(module's name, piece's name): variant}
_HOLDERS: dict = {}          # how many threads hold a swap of each (module's name, piece's name)


def piece_mistake(exercise, cases, answers, expected, failed):
    if exercise.reference is None or exercise.judge is not None or exercise.stored is not None \
            or not exercise.uses or not failed:
        return None
    values = [i for i, c in enumerate(cases) if not c.raises]
    if set(failed) - set(values):
        return None
    order = sorted(values, key=lambda j: j not in failed)   # the failing cases first
    own = {m.name for m in exercise.mistakes}
    found = {}
    for piece, mistake in _candidates(exercise, own):
        with _swapped(piece, mistake.variant) as swapped:
            if not swapped:
                continue
            for i in order:
                theirs, mine = call_answer(exercise.reference, cases[i]), answers[i]
                if isinstance(mine, Raised) or isinstance(theirs, (Raised,) + NO_ANSWER) \
                        or value_mismatch(mine, theirs, cases[i].tolerance(exercise.tolerance)) is not None:
                    break
            else:
                found.setdefault(mistake.name, (piece, mistake))
    if len(found) != 1:
        return None
    (name, (piece, mistake)), = found.items()
    return [(name, f"{mistake.explanation} Here it is inside your {exercise.name}: fix your {piece.name} "
                   f"if {exercise.name} calls it, or the lines of {exercise.name} that compute it.")]


def _candidates(exercise, own):
    for used in exercise.uses:
        piece = get(used)
        if piece is None or piece.reference is None:
            continue
        for mistake in piece.mistakes:
            if mistake.variant is not None and mistake.name not in own:
                yield piece, mistake


@contextmanager
def _swapped(piece, variant):
    """The module holding ``piece``'s reference, with that reference (called there by the
    exercise's name) replaced by ``variant``, which takes keywords (the cases' argument names),
    for this thread only (another learner's judge may be running the module's functions);
    yields False where the reference is not that module's function of that name."""
    module = sys.modules.get(getattr(piece.reference, "__module__", ""))
    if module is None or not _is_reference(getattr(module, piece.name, None), piece.reference):
        yield False
        return
    signature = inspect.signature(piece.reference)

    def by_keywords(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return variant(**bound.arguments)

    key = (module.__name__, piece.name)
    _install(module, piece.name, key, piece.reference)
    swaps = _LOCAL.__dict__.setdefault("swaps", {})
    swaps[key] = by_keywords
    try:
        yield True
    finally:
        del swaps[key]
        _uninstall(module, piece.name, key, piece.reference)


def _install(module, name, key, reference):
    """The module's function is a dispatcher while any thread holds a swap of it."""
    with _INSTALL:
        if not _HOLDERS.get(key):
            setattr(module, name, _dispatcher(key, reference))
        _HOLDERS[key] = _HOLDERS.get(key, 0) + 1


def _uninstall(module, name, key, reference):
    """The reference itself back in the module once the last swap of it ends."""
    with _INSTALL:
        _HOLDERS[key] -= 1
        if not _HOLDERS[key]:
            setattr(module, name, reference)


def _dispatcher(key, reference):
    """Calls the calling thread's swap of ``reference``, if it holds one, else the reference."""
    @functools.wraps(reference)
    def dispatch(*args, **kwargs):
        return _LOCAL.__dict__.get("swaps", {}).get(key, reference)(*args, **kwargs)
    dispatch.piece_reference = reference
    return dispatch


def _is_reference(found, reference) -> bool:
    return found is reference or getattr(found, "piece_reference", None) is reference

"""hint(fn): progressive hints for an exercise, one more per call, from its registry entry.

After check() named a likely mistake, the next hint is that mistake's explanation (what
the learner needs first), then the exercise's own hints go on where they were."""
from __future__ import annotations

from ..judging import registry
from .display import wrapped

_hints_given: dict[str, int] = {}
_named: dict[str, list[str]] = {}  # exercise -> mistakes check() named ("name. explanation"), not yet hinted


def remember_named(exercise: str, mistakes: list[str]) -> None:
    """check() found these for ``exercise`` (each "name. explanation"): the next hint starts from them."""
    _named[exercise] = list(mistakes)


def hint(fn) -> None:
    """Print the next hint for the exercise named like ``fn`` (one more each call)."""
    name = fn if isinstance(fn, str) else getattr(fn, "__name__", None)
    exercise = registry.get(name) if isinstance(name, str) else None
    if exercise is None:
        known = ", ".join(sorted(registry.load_all()))
        print(wrapped(f"hint: there is no exercise called {name!r} (exercises: {known})"))
        return
    named = _named.get(exercise.name)
    if named:
        print(wrapped(f"{exercise.name}: check() found a likely mistake: {named.pop(0)} (Call hint again for "
                      "the exercise's own hints.)"))
        return
    hints, given = exercise.hints, _hints_given.get(exercise.name, 0)
    if not hints:
        print(wrapped(f"{exercise.name}: this exercise has no hints."))
    elif given >= len(hints):
        print(wrapped(f"{exercise.name}: no more hints (you have seen all {len(hints)}). Reread them with "
                      f"hint_reset({exercise.name}) and hint({exercise.name}), or compare your code with the "
                      "lesson's worked example."))
    else:
        _hints_given[exercise.name] = given + 1
        print(wrapped(f"{exercise.name}, hint {given + 1} of {len(hints)}: {hints[given]}"))


def hint_reset(fn=None) -> None:
    """Start the hints of ``fn`` (or of every exercise) from the first one again."""
    name = fn if isinstance(fn, str) or fn is None else getattr(fn, "__name__", None)
    if name is None:
        _hints_given.clear()
        _named.clear()
    else:
        _hints_given.pop(name, None)
        _named.pop(name, None)

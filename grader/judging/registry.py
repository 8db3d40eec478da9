"""The exercise registry: every exercise is defined once, here, and used by
check(), the stub generator, the batch grader and the student release.

The exercises themselves live in the lessons package (grader/lessons/, or the
one the student release writes): importing a lesson's module registers its
exercises. That package imports this module, so this module finds it by name
when first asked for an exercise (importlib), as a registry finds its plugins:
get() has the package import lesson modules only until the exercise is found,
so a kernel's first check() does not wait for later lessons' imports.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import importlib
import zlib
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

DEFAULT_TOL = 1e-8       # relative to the float64 reference
FLOAT32_TOL = 1e-4       # float32 cases cannot do better than single precision
RATINGS = (1, 2, 3)      # an exercise's difficulty and importance


@dataclass(frozen=True)
class Case:
    """One call of the learner's function: keyword arguments and what must happen."""

    args: dict
    public: bool = False
    # When set, the right behaviour is to raise this exception type with a
    # message that contains every string in ``mention``.
    raises: str | None = None
    mention: tuple[str, ...] = ()
    about: str = ""  # what the case probes, safe to show ("a sequence past the block size")

    @functools.cached_property
    def array_inputs(self) -> tuple[tuple[str, np.dtype], ...]:
        """(argument name, dtype) of every array among the arguments (a dict's arrays by its
        name), found once per case: every answer judged asks again."""
        found = []
        for name, value in self.args.items():
            for a in arrays_in(value):
                if (name, a.dtype) not in found:
                    found.append((name, a.dtype))
        return tuple(found)

    def tolerance(self, base: float) -> float:
        dtypes = {dtype for _, dtype in self.array_inputs}
        return max(base, FLOAT32_TOL) if np.dtype(np.float32) in dtypes else base


def arrays_in(value):
    """Every array inside a case's value (nested in dicts, lists and tuples)."""
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from arrays_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from arrays_in(v)


@dataclass(frozen=True)
class Mistake:
    """A classic mistake: a buggy variant of the reference and what to say about it."""

    name: str
    explanation: str
    variant: Callable
    # The mistake is an error asked for and not given as asked, however: the variant's crash
    # inside NumPy stands for a learner's own check with a badly worded message too (naming
    # otherwise tells a check someone wrote from a crash, outcomes.raised_by_a_check).
    any_error: bool = False


@dataclass
class Exercise:
    name: str
    lesson: str
    reference: Callable
    public_cases: Callable[[], list[Case]]
    hidden_cases: Callable[[np.random.Generator], list[Case]]
    mistakes: list[Mistake] = field(default_factory=list)
    tolerance: float = DEFAULT_TOL
    points: float = 1.0
    # Other exercises this one calls; they are graded on the reference versions.
    uses: tuple[str, ...] = ()
    # Optional custom judge(answer, case, reference_answer, tol) -> Verdict,
    # for exercises graded statistically rather than value by value.
    judge: Callable | None = None
    # Progressive hints for hint(fn): a nudge first, an almost-complete outline
    # last (never the code itself). Three to five of them.
    hints: tuple[str, ...] = ()
    # Names of the items of a returned tuple, for feedback ("dE", not "item 1").
    returns: tuple[str, ...] = ()
    # Student release only: public cases' stored answers instead of reference code,
    # {"expected": [...], "mistakes": {name: [...]}}.
    stored: dict | None = None
    # What a learner plans by, as ARENA marks its exercises: how hard (1 a few lines the lesson
    # all but shows, 3 the hardest of the course), how much the rest of the course builds on
    # it (3 later exercises and lessons run on it, 1 a side road) and about how many minutes
    # it takes. Every exercise states them (no default); they are shown under its heading, by
    # `python -m grader exercises` and in the README (release/catalogue.py).
    difficulty: int = field(kw_only=True)
    importance: int = field(kw_only=True)
    minutes: int = field(kw_only=True)

    def __post_init__(self):
        for what, value, fits, rule in [
                ("difficulty", self.difficulty, lambda v: v in RATINGS, "1, 2 or 3"),
                ("importance", self.importance, lambda v: v in RATINGS, "1, 2 or 3"),
                ("minutes", self.minutes, lambda v: v > 0, "a whole number above 0")]:
            if type(value) is not int or not fits(value):  # bool is an int, and no rating
                raise ValueError(f"exercise {self.name!r}: {what} must be {rule}, got {value!r}")

    def seed(self, secret: bytes | None = None) -> int:
        """The seed the hidden cases are drawn from. Without ``secret``, the public repository's
        own seed (crc32 of the name), which anyone can compute: it is only for tests and the
        full course's check(). The batch grader passes the instructor's secret (batch/state.py
        keeps it), so its hidden inputs are unknowable to learners, differ from course to course
        and agree between runs of one course."""
        if secret is None:
            return zlib.crc32(self.name.encode())
        digest = hmac.new(secret, b"gpt2course hidden cases\0" + self.name.encode(), hashlib.sha256).digest()
        return int.from_bytes(digest, "big")

    def cases(self, hidden: bool = True, secret: bytes | None = None) -> list[Case]:
        """The public cases, then (``hidden``) the hidden ones drawn from ``seed(secret)``."""
        cases = [dataclasses.replace(c, public=True) for c in self.public_cases()]
        if hidden:
            cases += self.hidden_cases(np.random.default_rng(self.seed(secret)))
        return cases


_REGISTRY: dict[str, Exercise] = {}
LESSONS = "..lessons"  # the lessons package, relative to this one: grader.lessons


def register(exercise: Exercise) -> Exercise:
    if exercise.name in _REGISTRY:
        raise ValueError(f"exercise {exercise.name!r} is registered twice")
    _REGISTRY[exercise.name] = exercise
    return exercise


def _lesson_package():
    """The lessons package; its load(until) imports lesson modules in order until until() is true."""
    return importlib.import_module(LESSONS, __package__)


def load_all() -> dict[str, Exercise]:
    _lesson_package().load()  # importing a lesson's module registers its exercises
    in_order = sorted(_REGISTRY.values(), key=lambda e: e.lesson)  # whichever lesson was imported first
    if list(_REGISTRY.values()) != in_order:
        _REGISTRY.clear()
        _REGISTRY.update((e.name, e) for e in in_order)
    return _REGISTRY


def get(name: str) -> Exercise | None:
    """The exercise ``name``, importing lessons only until it is found (check() is fast)."""
    if name not in _REGISTRY:
        _lesson_package().load(until=lambda: name in _REGISTRY)
    return _REGISTRY.get(name)


def for_lesson(lesson: str) -> list[Exercise]:
    return [e for e in load_all().values() if e.lesson == lesson]


def lessons() -> list[str]:
    return sorted({e.lesson for e in load_all().values()})

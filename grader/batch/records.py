"""The records every way of grading shares: a learner's graded row (``Submission``), the
batch's exercises and settings (``Exercises``), and the row of a learner nothing was graded
for (``failed``). Local grading (``grade``), the pipeline and the cluster (``cluster/``) all
use them; none of them needs another's code for it.
"""
from __future__ import annotations

import dataclasses
import hashlib
import threading
from dataclasses import asdict, dataclass, field

from ..judging import registry
from ..judging.answers import mistake_answers_for, reference_answers
from ..judging.judge import Verdict
from .inputs.collect import Learner
from .sandbox.pieces import pieces_source, reference_functions

SCORINGS = ("per-case", "all-or-nothing")


@dataclass
class Submission:
    name: str
    sources: list[str] = field(default_factory=list)
    lessons: list[str] = field(default_factory=list)
    problem: str | None = None            # nothing could be graded, and why
    verdicts: list[Verdict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    fingerprint: str = ""
    internal: bool = False                # the grader itself failed on this learner (set by us only)


    @property
    def total(self) -> float:
        return round(sum(v.points for v in self.verdicts), 4)

    def to_dict(self) -> dict:
        return asdict(self) | {"total": self.total}

    @classmethod
    def from_dict(cls, d: dict) -> "Submission":
        d = {k: v for k, v in d.items() if k in {f.name for f in dataclasses.fields(cls)}}
        d["verdicts"] = [Verdict(**v) for v in d.get("verdicts", [])]
        return cls(**d)


class Exercises:
    """The batch's exercises (points possibly overridden), its assignment and scoring,
    and its cases with their reference answers, computed once per batch since they depend
    only on the exercise and the instructor's secret (``secret``: the hidden cases' seed,
    state.load_secret; None only in tests, for the public repository's own seeds)."""

    def __init__(self, points: dict[str, float] | None = None, lessons: list[str] | None = None,
                 scoring: str = "per-case", secret: bytes | None = None):
        points = points or {}
        unknown = sorted(set(points) - set(registry.load_all()))
        if unknown:
            raise ValueError(f"--points names unknown exercises: {', '.join(unknown)}")
        if scoring not in SCORINGS:
            raise ValueError(f"--scoring must be one of {', '.join(SCORINGS)}, got {scoring!r}")
        known = registry.lessons()
        wrong = [x for x in lessons or [] if x not in known]
        if wrong:
            raise ValueError(f"--lessons names unknown lessons: {', '.join(wrong)} "
                             f"(lessons: {', '.join(known)})")
        self.by_lesson = {
            lesson: [dataclasses.replace(e, points=float(points.get(e.name, e.points)))
                     for e in registry.for_lesson(lesson)]
            for lesson in known
        }
        self.points, self.scoring, self.secret = points, scoring, secret
        self.assignment: list[str] = sorted(set(lessons)) if lessons else []
        self._cache, self._pieces, self._lock = {}, {}, threading.Lock()

    def max_total(self) -> float:
        return sum(e.points for lesson in self.assignment for e in self.by_lesson[lesson])

    def settings(self) -> dict:
        """What a saved result was graded under; a rerun under other settings (another
        secret among them: other hidden cases) regrades. The secret only by its hash."""
        return {"lessons": self.assignment, "scoring": self.scoring, "points": self.points,
                "cases": secret_id(self.secret)}

    def use_secret(self, secret: bytes | None) -> None:
        """The hidden cases' secret, set before any case is drawn (cases are cached); None: the
        public repository's seeds (--public-seeds)."""
        with self._lock:
            if self._cache and secret != self.secret:
                raise RuntimeError("internal grader error: the secret changed after cases were drawn")
            self.secret = secret

    def answers(self, exercise):
        """(cases, reference answers, each mistake's answers): the hidden cases drawn from
        the instructor's secret, once per batch."""
        with self._lock:
            if exercise.name not in self._cache:
                cases = exercise.cases(hidden=True, secret=self.secret)
                self._cache[exercise.name] = (cases, reference_answers(exercise, cases),
                                              mistake_answers_for(exercise, cases))
            return self._cache[exercise.name]

    def pieces(self, exercise) -> list[dict]:
        """The reference pieces the exercise uses, as source for the child."""
        with self._lock:
            if exercise.name not in self._pieces:
                self._pieces[exercise.name] = pieces_source(reference_functions(exercise, registry))
            return self._pieces[exercise.name]


def secret_id(secret: bytes | None) -> str:
    """Names the secret in saved state and task keys without giving it away."""
    if secret is None:
        return "public seeds"
    return hashlib.sha256(b"gpt2course secret id\0" + secret).hexdigest()[:32]


def failed(learner: Learner, why: str, internal: bool = True) -> Submission:
    """A row for a learner nothing was graded for, saying why (``internal``: the grader's
    fault, so every rerun grades them again)."""
    return Submission(learner.name, [nb.name for nb in learner.notebooks], internal=internal,
                      problem="; ".join([why, *learner.problems]), fingerprint=learner.fingerprint())

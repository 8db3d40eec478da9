"""What can come of calling a learner's function, and the verdict on an exercise.

Plain data, shared by check(), the judge, the sandbox and the student release.
"""
from __future__ import annotations

from dataclasses import dataclass, field

MAX_MESSAGE = 300


@dataclass(frozen=True)
class Raised:
    type_name: str
    bases: tuple[str, ...]
    message: str

    def describe(self) -> str:
        msg = self.message.strip().splitlines()[0] if self.message.strip() else ""
        return f"{self.type_name}: {msg[:MAX_MESSAGE]}" if msg else self.type_name


@dataclass(frozen=True)
class NotAttempted:
    """The stub's NotImplementedError is still in place."""


@dataclass(frozen=True)
class Broken:
    """The function never produced an answer: timeout, crash, memory, missing."""

    reason: str


@dataclass(frozen=True)
class ChangedInputs:
    """The function modified arguments it was given (e.g. ``x += ...`` on its input)."""

    names: tuple[str, ...]

    def describe(self) -> str:
        return (f"changed its input {', '.join(f'`{n}`' for n in self.names)} in place: the caller's "
                "arrays must stay as they were (compute new arrays, e.g. x = x + ..., not x += ...)")


def raised_from(exc: BaseException) -> Raised | NotAttempted:
    if isinstance(exc, NotImplementedError):
        return NotAttempted()
    try:
        message = str(exc)
    except Exception:
        message = "<message could not be read>"
    bases = tuple(t.__name__ for t in type(exc).__mro__)
    return Raised(type(exc).__name__, bases, message[:2000])


@dataclass
class Verdict:
    exercise: str
    status: str  # passed | failed | not_attempted | missing | broken
    passed: int
    total: int
    points: float
    max_points: float
    message: str
    mistakes: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

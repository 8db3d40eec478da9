"""What can come of calling a learner's function, and the verdict on an exercise.

Plain data, shared by check(), the judge, the sandbox and the student release.
"""
from __future__ import annotations

import dis
import sysconfig
from dataclasses import dataclass, field

MAX_MESSAGE = 300


@dataclass(frozen=True)
class Raised:
    type_name: str
    bases: tuple[str, ...]
    message: str
    # raised by a raise (or assert) statement outside Python's and NumPy's own code, i.e. a check
    # someone wrote; False: raised inside NumPy or Python (a crash); None: not known
    own: bool | None = None

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
    return Raised(type(exc).__name__, bases, message[:2000], raised_by_a_check(exc))


# outcomes that are no answer at all: no diagnosis reads values from them
NO_ANSWER = (Broken, NotAttempted, ChangedInputs)

_LIBRARIES = tuple({sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")})


def raised_by_a_check(exc: BaseException) -> bool:
    """Whether ``exc`` came from a raise or assert statement in code that is not Python's or a
    library's: the learner's own check, not NumPy's broadcasting error (which a missing check
    meets). Read from the innermost frame's instruction, so no source is needed."""
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    statement = 0 <= tb.tb_lasti < len(code.co_code) and code.co_code[tb.tb_lasti] == dis.opmap["RAISE_VARARGS"]
    return statement and not code.co_filename.startswith(_LIBRARIES)


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

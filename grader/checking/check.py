"""check(fn): the learner's instant feedback inside a notebook.

It runs in the learner's own kernel (their code is already running there), so
it needs no sandbox; it must simply never raise, so that a notebook with
unfinished stubs still runs from top to bottom.
"""
from __future__ import annotations

import contextlib
import signal
import threading

from ..judging import registry
from ..judging.answers import call_answer, mistake_answers_for, reference_answers
from ..judging.judge import Broken, NotAttempted, Raised, Verdict, judge
from . import display
from .hints import remember_named

LIKELY = "  Likely mistake: "  # how judge.judge words a named mistake in its message


def format_verdict(v: Verdict) -> str:
    """The verdict as plain text (display.plain): what a terminal and nbval read."""
    return display.plain(v)


def not_attempted(name: str) -> Verdict:
    """The verdict on an untouched stub (the stub generator stores what check() shows for it)."""
    ex = registry.get(name)
    return judge(ex, ex.cases(hidden=False)[:1], [NotAttempted()], [None])


def not_attempted_text(name: str) -> str:
    """What check() prints for an untouched stub outside IPython."""
    return format_verdict(not_attempted(name))


def evaluate(fn, hidden: bool = True) -> Verdict:
    """Run every test of the exercise named like ``fn``; never raises."""
    name = getattr(fn, "__name__", None)
    exercise = registry.get(name) if isinstance(name, str) else None
    if exercise is None:
        known = ", ".join(sorted(registry.load_all()))
        return Verdict(str(name), "missing", 0, 0, 0.0, 0.0,
                       f"there is no exercise called {name!r}; keep the function's name as "
                       f"given (exercises: {known})")
    cases, expected, mistakes = course_answers(exercise, hidden)
    with reference_pieces(fn, exercise.uses):
        answers = run_cases(fn, cases)
    verdict = judge(exercise, cases, answers, expected, mistakes)
    missing = missing_pieces(answers, exercise.uses)
    if missing:
        verdict.message += (f"\n  Define {', '.join(f'`{n}`' for n in missing)} in this notebook first "
                            "(paste your solution from the earlier lesson).")
    return verdict


_answers: dict[tuple[str, bool], tuple] = {}


def course_answers(exercise, hidden: bool) -> tuple[list, list, dict | None]:
    """The cases, the reference's answers and each mistake's answers: they depend
    only on the exercise, so they are computed once per kernel."""
    if exercise.stored is not None:  # student release: public cases, stored answers
        return exercise.cases(hidden=False), exercise.stored["expected"], exercise.stored["mistakes"]
    key = (exercise.name, hidden)
    if key not in _answers:
        cases = exercise.cases(hidden=hidden)
        _answers[key] = (cases, reference_answers(exercise, cases), mistake_answers_for(exercise, cases))
    return _answers[key]


CALL_SECONDS = 10.0  # for one check() of one function, all its tests together


class CheckTimeout(BaseException):
    """Not an Exception: learner code's `except Exception` must not swallow it."""


def run_cases(fn, cases, seconds: float | None = None) -> list:
    """All calls together get ``seconds``; when they run out, the test running is
    stopped and the rest skipped, so an infinite loop costs seconds, not a hung kernel."""
    seconds = seconds or CALL_SECONDS
    answers = []
    try:
        with time_limit(seconds):
            for case in cases:
                answers.append(call_answer(fn, case, _config_type()))
    except CheckTimeout:
        where = "public example" if cases[len(answers)].public else "hidden test"
        answers.append(Broken(f"check() stopped after {seconds:g} s in total, during {where} "
                              f"{len(answers) + 1} (an infinite loop, or far too slow)"))
    skipped = Broken("skipped: check() ran out of time on an earlier test")
    return answers + [skipped] * (len(cases) - len(answers))


@contextlib.contextmanager
def time_limit(seconds: float):
    """SIGALRM-based, so only where it can work (Unix, main thread); else no limit."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise CheckTimeout(f"took longer than {seconds:g} s (an infinite loop, or far too slow)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def missing_pieces(answers, uses) -> list[str]:
    """Earlier exercises the function called but the notebook does not define."""
    text = " ".join(a.message for a in answers if isinstance(a, Raised) and a.type_name == "NameError")
    return [n for n in uses if f"'{n}'" in text]


def _config_type():
    from gpt2course.config import GPTConfig

    return GPTConfig


@contextlib.contextmanager
def reference_pieces(fn, names):
    """Swap the learner's versions of earlier exercises for the reference ones
    while ``fn`` runs, so one bug is not charged twice."""
    namespace = getattr(fn, "__globals__", {})
    names = [n for n in names if getattr(registry.get(n), "reference", None) is not None]
    saved = {n: namespace[n] for n in names if n in namespace}
    try:
        for n in names:
            namespace[n] = registry.get(n).reference
        yield
    finally:
        for n in names:
            namespace.pop(n, None)
        namespace.update(saved)


def check(*fns) -> None:
    """Show one verdict per function: HTML and text in IPython (display.show), text elsewhere.
    Never raises (except KeyboardInterrupt)."""
    for fn in fns:
        try:
            verdict = evaluate(fn)
            display.show(verdict)
            # hint() starts from what this check() found (catalogued or diagnosed, as printed)
            remember_named(verdict.exercise, [line.split(LIKELY, 1)[1] for line in verdict.message.splitlines()
                                              if line.startswith(LIKELY)])
        except Exception as exc:  # the grader's own failure must not stop the notebook
            print(display.wrapped(f"{getattr(fn, '__name__', fn)}: the checker itself failed "
                                  f"({type(exc).__name__}: {exc}); please report this."))

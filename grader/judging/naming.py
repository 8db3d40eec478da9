"""Naming a learner's mistake: which catalogued variant reproduces their answers.

A wrong name sends a learner the wrong way and is worse than none, so a
mistake is named only when the cases leave no doubt (see name_mistakes). The
judge (judge.py) asks, for a failed exercise; the cases are compared with
compare.py's rules, the same the judge's reasons come from.
"""
from __future__ import annotations

import dataclasses
import re
from functools import cached_property

from .answers import mistake_answers_for
from .compare import case_mismatch, case_reasons, judge_case, mentions_all, value_mismatch
from .forms import flip_to, is_2d, kind, unify
from .outcomes import NO_ANSWER, Raised
from .registry import Case, Exercise, Mistake
from .seeds import seed_mismatches

_SKIP = (Raised,) + NO_ANSWER


def same_behaviour(answer, other, case: Case, tol: float) -> bool:
    """Does the learner's answer reproduce ``other`` (a mistake's answer) on this case?

    Values: within the tolerance, shape and dtype included. Exceptions: both raise,
    of the same type, both from a check someone wrote or both from a crash inside NumPy
    or Python (where known), and, where the case asks for an error, both messages name
    what went wrong, or neither does. Being wrong in two different ways is not alike.
    """
    if isinstance(answer, NO_ANSWER) or isinstance(other, NO_ANSWER):
        return False
    if isinstance(answer, Raised) or isinstance(other, Raised):
        if not (isinstance(answer, Raised) and isinstance(other, Raised)):
            return False
        return (answer.type_name == other.type_name
                and (answer.own is None or other.own is None or answer.own == other.own)  # a check vs a crash
                and mentions_all(answer.message, case.mention) == mentions_all(other.message, case.mention)
                and _same_subject(answer.message, other.message))
    return value_mismatch(answer, other, tol) is None


def name_mistakes(exercise: Exercise, cases, answers, expected, failed: list[int],
                  mistake_answers: dict[str, list] | None = None) -> list[Mistake]:
    """The catalogued mistakes that explain the learner's answers, when the cases can tell; else none.

    A mistake's variant *reproduces* the learner on a case when:
    - the learner fails the case: the variant's answer is alike (same_behaviour; for
      statistically judged exercises, the exercise's judge accepts the learner's
      answer against the variant's), and where the learner fails only by comparison
      with an earlier case (seed_mismatches), the variant fails it the same way;
    - the learner passes the case: the variant passes it too, or its answer is alike.
    A variant that goes wrong where the learner is right is not the learner's mistake.

    The rules, in order; the first that finds candidates decides, and more than one
    candidate (or pair) means the cases cannot tell which, so none is named:
    1. one mistake reproduces the learner on every case;
    2. two mistakes between them reproduce every failed case, each going wrong only
       where it reproduces the learner;
    3. the value cases alone (not the cases where the learner raises or is expected to
       raise, whose gaps the failures report on their own): one mistake reproduces
       the learner on every value case and fails like it on one at least;
    4. the same with values compared whatever their dtype (a float64 upcast, a Python
       float, reported by the failures on their own): one mistake, then two, explain
       every wrong value; a catalogued dtype mistake that explains the dtypes is named
       with them (an exact GELU in float64 is two mistakes).
    Two forms of one mistake are alike: when a mistake only flips the signs of whole
    columns (a principal direction v or -v), any such flips; when the reference's
    answer is a symmetric matrix, an answer or its transpose.
    """
    if not exercise.mistakes or all(isinstance(answers[i], NO_ANSWER) for i in failed):
        return []
    evidence = _Evidence(exercise, cases, answers, expected, failed,
                         mistake_answers or mistake_answers_for(exercise, cases))
    for rule in (evidence.one, evidence.two, evidence.one_on_values, evidence.one_on_numbers,
                 evidence.two_on_numbers):
        names = rule()
        if names is not None:
            return [m for m in exercise.mistakes if m.name in names]
    return []


class _Evidence:
    """The learner's answers beside every mistake's, case by case."""

    def __init__(self, exercise, cases, answers, expected, failed, theirs):
        self.ex, self.cases, self.answers, self.expected, self.theirs = exercise, cases, answers, expected, theirs
        self.names = [m.name for m in exercise.mistakes]
        self.any_error = {m.name for m in exercise.mistakes if m.any_error}
        self.tol = [c.tolerance(exercise.tolerance) for c in cases]
        self.failed = set(failed)
        self.own = seed_mismatches(cases, answers)
        self.only_compared = {i for i in self.failed & set(self.own)
                              if judge_case(exercise, cases[i], answers[i], expected[i]) is None}
        self.values = {i for i, c in enumerate(cases) if not c.raises and not isinstance(answers[i], _SKIP)}
        self.failed_values = self.values & self.failed
        self.wrong = {n: {i for i, r in enumerate(case_reasons(exercise, cases, theirs[n], expected)) if r}
                      for n in self.names}
        self.cross = {n: seed_mismatches(cases, theirs[n]) for n in self.names}

    # ---------------------------------------------------------------- the rules
    def one(self):
        return _unique(self._singles(self.strict, set(range(len(self.cases))), self.failed))

    def two(self):
        return _unique(self._pairs(self.strict, self.failed, self.wrong))

    def one_on_values(self):
        return _unique(self._singles(self.on_values, self.values, self.failed_values))

    def one_on_numbers(self):
        return self._with_dtypes(_unique(self._singles(self.on_numbers, self.values, self.wrong_numbers)))

    def two_on_numbers(self):
        return self._with_dtypes(_unique(self._pairs(self.on_numbers, self.wrong_numbers, self.number_fails)))

    def _singles(self, ok, needed, explained) -> list:
        return [n for n in self.names if needed <= ok[n] and ok[n] & explained]

    def _pairs(self, ok, failed, fails) -> list:
        """Two mistakes that between them reproduce the failures, each wrong only where it does."""
        return [(a, b) for k, a in enumerate(self.names) for b in self.names[k + 1:]
                if ok[a] & failed and ok[b] & failed and failed <= ok[a] | ok[b]
                and fails[a] <= ok[a] and fails[b] <= ok[b]]

    def _with_dtypes(self, named):
        return named and named + self._dtype_companion(named)

    def _dtype_companion(self, named) -> list:
        """The one catalogued dtype mistake (right numbers, the learner's dtypes) that explains the
        dtypes the named mistakes leave unexplained; none when nothing is left or the catalogue has
        no single such mistake."""
        kinds = lambda n, i: kind(self.theirs[n][i])  # noqa: E731
        gaps = {i for i in self.failed_values if kind(self.answers[i]) != kind(self.expected[i])
                and all(kinds(n, i) != kind(self.answers[i]) for n in named)}
        if not gaps:
            return []
        fits = [n for n in self.names if n not in named and not self.number_fails[n]
                and all(kinds(n, i) == kind(self.answers[i]) for i in gaps)
                and all(kinds(n, i) == kind(self.answers[i]) for i in self.values
                        if kinds(n, i) != kind(self.expected[i]))]
        return fits if len(fits) == 1 else []

    # ---------------------------------------------------------------- what reproduces what
    @cached_property
    def strict(self) -> dict[str, set[int]]:
        return {n: self._reproduced(n, range(len(self.cases)), self._alike) for n in self.names}

    @cached_property
    def on_values(self) -> dict[str, set[int]]:
        return {n: self._reproduced(n, self.values, self._alike) for n in self.names}

    @cached_property
    def on_numbers(self) -> dict[str, set[int]]:
        return {n: self._reproduced(n, self.values, self._alike_numbers) for n in self.names}

    @cached_property
    def wrong_numbers(self) -> set[int]:
        """Failed value cases where the learner's numbers are wrong, not only their dtype."""
        return {i for i in self.failed_values if not self._alike_numbers(i, self.answers[i], self.expected[i])}

    @cached_property
    def number_fails(self) -> dict[str, set[int]]:
        return {n: {i for i in self.values if not self._alike_numbers(i, self.theirs[n][i], self.expected[i])}
                for n in self.names}

    def _reproduced(self, name, considered, alike) -> set[int]:
        other, cross, wrong = self.theirs[name], self.cross[name], self.wrong[name]
        flip = name in self.sign_forms
        any_error = name in self.any_error
        ok = set()
        for i in considered:
            mine, theirs = self.answers[i], other[i]
            if any_error and isinstance(mine, Raised):  # a check or a crash: this mistake is either
                mine = dataclasses.replace(mine, own=None)
            if flip:
                target = self.expected[i] if i in self.values else theirs
                mine, theirs = flip_to(mine, target), flip_to(theirs, target)
            if i in self.only_compared:   # failed only against an earlier case: fail it alike
                good = alike(i, mine, theirs) and self.own[i].same_as(cross.get(i))
            elif i in self.failed:        # failed on its own: the same wrong answer
                good = alike(i, mine, theirs)
            else:                         # passed: the variant passes too, or answers alike
                good = i not in wrong or (alike(i, mine, theirs) and i not in cross)
            if good:
                ok.add(i)
        return ok

    @cached_property
    def sign_forms(self) -> set[str]:
        """Mistakes whose every value answer is the reference's with whole columns' signs flipped."""
        if self.ex.judge is not None:
            return set()
        plain = [i for i, c in enumerate(self.cases) if not c.raises]
        return {n for n in self.names if self.wrong[n] & set(plain)
                and all(is_2d(self.theirs[n][i]) and is_2d(self.expected[i])
                        and value_mismatch(flip_to(self.theirs[n][i], self.expected[i]), self.expected[i],
                                           self.tol[i]) is None for i in plain)}

    @cached_property
    def symmetric(self) -> set[int]:
        if self.ex.judge is not None:
            return set()
        return {i for i in self.values if is_2d(self.expected[i]) and self.expected[i].shape[0] > 1
                and self.expected[i].shape[0] == self.expected[i].shape[1]
                and value_mismatch(self.expected[i].T, self.expected[i], self.tol[i]) is None}

    def _alike(self, i, mine, theirs) -> bool:
        judge, case, tol = self.ex.judge, self.cases[i], self.tol[i]
        if judge is not None and not case.raises:  # statistical exercises: "behaves like" is the
            return (not isinstance(mine, _SKIP) and not isinstance(theirs, _SKIP)  # judge's call,
                    and judge(mine, case, theirs, tol) is None and judge(theirs, case, mine, tol) is None)
        if same_behaviour(mine, theirs, case, tol):
            return True
        if case.raises and not isinstance(mine, NO_ANSWER) and not isinstance(theirs, NO_ANSWER) \
                and case_mismatch(mine, None, case, tol) and case_mismatch(theirs, None, case, tol) \
                and not _check_and_crash(mine, theirs):
            return True   # the error asked for is missing from both, whatever came instead
        return i in self.symmetric and is_2d(theirs) and same_behaviour(mine, theirs.T, case, tol)

    def _alike_numbers(self, i, mine, theirs) -> bool:
        """Alike once both answers' numbers are in one dtype (float32 and float64, a NumPy and a
        Python number): the dtype is judged on its own."""
        return self._alike(i, *unify(mine, theirs))


def _check_and_crash(mine, theirs) -> bool:
    """One raised from a check someone wrote, the other from a crash inside NumPy or Python: a
    badly worded check is not a missing one."""
    return (isinstance(mine, Raised) and isinstance(theirs, Raised) and None not in (mine.own, theirs.own)
            and mine.own != theirs.own)


def _unique(found: list):
    """None when nothing qualifies, the names when exactly one candidate does, else [] (ambiguous)."""
    if not found or len(found) > 1:
        return None if not found else []
    return list(found[0]) if isinstance(found[0], tuple) else [found[0]]


_NAMES = re.compile(r"\b[A-Za-z_]\w*(?:\.\w+){2,}\b")  # dotted names: 'transformer.h.0.attn.c_attn.weight'


def _same_subject(message: str, other: str) -> bool:
    """Two errors of one type are alike only if, when the variant's message names
    parameters, the learner's names one of them too: a missing key and a wrong shape
    both raise ValueError, and are not the same mistake."""
    theirs = set(_NAMES.findall(other))
    return not theirs or bool(theirs & set(_NAMES.findall(message)))

"""Naming a learner's mistake: which catalogued variant reproduces their answers.

A wrong name sends a learner the wrong way and is worse than none, so a
mistake is named only when the cases leave no doubt (see name_mistakes).
"""
from __future__ import annotations

import re

from .judge import _judge_one, case_reasons, mentions_all, mistake_answers_for, value_mismatch
from .outcomes import Broken, ChangedInputs, NotAttempted, Raised
from .registry import Case, Exercise, Mistake
from .seeds import seed_mismatches


def same_behaviour(answer, other, case: Case, tol: float) -> bool:
    """Does the learner's answer reproduce ``other`` (a mistake's answer) on this case?

    Values: within the tolerance, shape and dtype included. Exceptions: both raise,
    of the same type (and, where the case asks for an error, both messages name what
    went wrong, or neither does). Being wrong in two different ways is not alike.
    """
    if isinstance(answer, (Broken, NotAttempted, ChangedInputs)) or \
            isinstance(other, (Broken, NotAttempted, ChangedInputs)):
        return False
    if isinstance(answer, Raised) or isinstance(other, Raised):
        if not (isinstance(answer, Raised) and isinstance(other, Raised)):
            return False
        return (answer.type_name == other.type_name
                and mentions_all(answer.message, case.mention) == mentions_all(other.message, case.mention)
                and _same_subject(answer.message, other.message))
    return value_mismatch(answer, other, tol) is None


_SKIP = (Raised, Broken, NotAttempted, ChangedInputs)


def name_mistakes(exercise: Exercise, cases, answers, expected, failed: list[int],
                  mistake_answers: dict[str, list] | None = None) -> list[Mistake]:
    """The catalogued mistake that the learner made, when the cases can tell; else none.

    A mistake's variant *reproduces* the learner on a case when:
    - the learner fails the case: the variant's answer is alike (same_behaviour; for
      statistically judged exercises, the exercise's judge accepts the learner's
      answer against the variant's), and where the learner fails only by comparison
      with an earlier case (seed_mismatches), the variant fails it the same way;
    - the learner passes the case: the variant passes it too, or its answer is alike.
    A mistake is named when its variant reproduces the learner on every case. Being
    alike where the learner fails is not enough: a variant that goes wrong where the
    learner is right is not the learner's mistake, however alike their failures.

    Failing that, two mistakes are named together when between them they reproduce
    every failed case, and each goes wrong only where it reproduces the learner (so
    where one explains the learner, the other passes: no conflict). When more than
    one mistake (or pair) qualifies, the cases cannot tell which, and none is named:
    a wrong name is worse than none.
    """
    if not exercise.mistakes or all(isinstance(answers[i], (Broken, NotAttempted, ChangedInputs))
                                    for i in failed):
        return []
    theirs = mistake_answers or mistake_answers_for(exercise, cases)
    tol = [c.tolerance(exercise.tolerance) for c in cases]
    if exercise.judge is not None:  # statistical exercises: "behaves like" is the judge's call
        def alike(i, other):
            return (not isinstance(answers[i], _SKIP) and not isinstance(other, _SKIP)
                    and exercise.judge(answers[i], cases[i], other, tol[i]) is None)
    else:
        def alike(i, other):
            return same_behaviour(answers[i], other, cases[i], tol[i])
    failed_set = set(failed)
    own = seed_mismatches(cases, answers)
    only_compared = {i for i in failed_set & set(own)
                     if _judge_one(exercise, cases[i], answers[i], expected[i]) is None}
    fails = {m.name: {i for i, r in enumerate(case_reasons(exercise, cases, theirs[m.name], expected)) if r}
             for m in exercise.mistakes}

    def reproduced(name) -> set[int]:
        other, cross, wrong = theirs[name], seed_mismatches(cases, theirs[name]), fails[name]
        cases_ok = set()
        for i in range(len(cases)):
            if i in only_compared:    # failed only against an earlier case: fail it alike
                ok = alike(i, other[i]) and own[i].same_as(cross.get(i))
            elif i in failed_set:     # failed on its own: the same wrong answer
                ok = alike(i, other[i])
            else:                     # passed: the variant passes too, or answers alike
                ok = i not in wrong or (alike(i, other[i]) and i not in cross)
            if ok:
                cases_ok.add(i)
        return cases_ok

    ok = {m.name: reproduced(m.name) for m in exercise.mistakes}
    fits = [m for m in exercise.mistakes if len(ok[m.name]) == len(cases)]
    if fits:
        return fits if len(fits) == 1 else []
    pairs = [[a, b] for k, a in enumerate(exercise.mistakes) for b in exercise.mistakes[k + 1:]
             if ok[a.name] & failed_set and ok[b.name] & failed_set
             and failed_set <= ok[a.name] | ok[b.name]
             and fails[a.name] <= ok[a.name] and fails[b.name] <= ok[b.name]]
    return pairs[0] if len(pairs) == 1 else []


_NAMES = re.compile(r"\b[A-Za-z_]\w*(?:\.\w+){2,}\b")  # dotted names: 'transformer.h.0.attn.c_attn.weight'


def _same_subject(message: str, other: str) -> bool:
    """Two errors of one type are alike only if, when the variant's message names
    parameters, the learner's names one of them too: a missing key and a wrong shape
    both raise ValueError, and are not the same mistake."""
    theirs = set(_NAMES.findall(other))
    return not theirs or bool(theirs & set(_NAMES.findall(message)))

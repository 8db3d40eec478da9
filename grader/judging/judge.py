"""The verdict on an exercise: answers judged case by case (compare.py), the points,
the message, and the mistake named where the cases can tell: a catalogued one (naming.py), else
what the evidence itself shows (diagnoses.py).

Everything here runs in the grader's own process on plain data: answers come
either from the learner's kernel through wire.sanitise (check()) or from a
child process through wire.decode (batch grading), and the reference's and the
mistakes' answers from answers.py. Its interface is judge() and the outcome types
a verdict reports (outcomes.py's, re-exported here).
"""
from __future__ import annotations

from .compare import case_reasons, hidden_wording
from .details import inputs_brief
from .diagnoses import diagnose
from .naming import name_mistakes
from .outcomes import Broken, ChangedInputs, NotAttempted, Raised, Verdict
from .registry import Case, Exercise

__all__ = ["Broken", "ChangedInputs", "NotAttempted", "Raised", "Verdict", "judge"]


def tests(n: int) -> str:
    return f"{n} test" if n == 1 else f"{n} tests"


# ------------------------------------------------------------------ the whole exercise
def judge(exercise: Exercise, cases: list[Case], answers: list, expected: list,
          mistake_answers: dict[str, list] | None = None, hidden_only: bool = False) -> Verdict:
    """Score ``answers`` against ``expected`` (reference answers), case by case.
    ``hidden_only`` (the batch grade): points count the hidden cases only, since the
    public examples and their answers ship with the student edition; every case still
    decides the status, the message and the mistake's name."""
    total = len(cases)
    if total and all(isinstance(a, NotAttempted) for a in answers):
        return Verdict(exercise.name, "not_attempted", 0, total, 0.0, exercise.points,
                       "not attempted yet: replace the `raise NotImplementedError` line with your code")
    reasons = case_reasons(exercise, cases, answers, expected)
    failed = [i for i, r in enumerate(reasons) if r]
    passed = total - len(failed)
    points = _points(exercise.points, cases, set(failed), hidden_only)
    if not failed:
        return Verdict(exercise.name, "passed", passed, total, points, exercise.points,
                       f"passed all {tests(total)}" if total != 1 else "passed its 1 test")
    mistakes = (name_mistakes(exercise, cases, answers, expected, failed, mistake_answers)
                or diagnose(exercise, cases, answers, expected, failed))
    first = failed[0]
    where = "public example" if cases[first].public else "hidden test"
    # what the learner reads: in check(), a public example's full reason; otherwise the case's kind
    # (compare.hidden_wording). In the batch a public example is told by its kind too: its full
    # reason quotes values the learner's code chose, and check() in their notebook shows it anyway.
    # A stopped or broken run and a changed input are told in the grader's own words either way.
    own_words = (Broken, ChangedInputs, NotAttempted)
    shown = [r if r is None or (cases[i].public and not hidden_only) or isinstance(answers[i], own_words)
             else hidden_wording(r, exercise.returns) for i, r in enumerate(reasons)]
    message = f"failed {len(failed)} of {tests(total)}; first failure ({where} {first + 1}): {shown[first]}"
    if cases[first].public:  # no secret: the student edition ships the public examples
        message += f"\n  Inputs of public example {first + 1}: {inputs_brief(cases[first].args)}"
        if hidden_only and shown[first] != reasons[first]:
            message += "\n  check() in your notebook shows what went wrong on it"
    for m in mistakes:
        message += f"\n  Likely mistake: {m.name}. {m.explanation}"
    status = "broken" if passed == 0 and all(isinstance(answers[i], Broken) for i in failed) else "failed"
    return Verdict(exercise.name, status, passed, total, points, exercise.points, message,
                   [m.name for m in mistakes], [f"test {i + 1}: {shown[i]}" for i in failed])


def _points(points: float, cases, failed: set[int], hidden_only: bool) -> float:
    """Per-case credit. In the batch (``hidden_only``) the public examples do not count, and
    the cases that must raise count only beside a computed answer: a function that raises on
    every input has checked nothing."""
    counted = [i for i, c in enumerate(cases) if not (hidden_only and c.public)]
    if hidden_only and not any(i not in failed for i in counted if not cases[i].raises):
        counted = [i for i in counted if not cases[i].raises]
    if not counted:
        return 0.0
    return round(points * sum(i not in failed for i in counted) / len(counted), 4)

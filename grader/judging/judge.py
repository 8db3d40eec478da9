"""Trusted comparison of answers with the reference, case by case, into a Verdict.

Everything here runs in the grader's own process on plain data: answers come
either from the learner's kernel through wire.sanitise (check()) or from a
child process through wire.decode (batch grading).
"""
from __future__ import annotations

import copy

import numpy as np

from .details import dtype_hint, first_difference, inputs_brief
from .outcomes import Broken, ChangedInputs, NotAttempted, Raised, Verdict, raised_from
from .registry import Case, Exercise
from .seeds import seed_mismatches
from .wire import Unsupported, is_plain_array, same_value, sanitise

__all__ = ["Broken", "ChangedInputs", "NotAttempted", "Raised", "Verdict", "call_answer", "judge",
           "case_mismatch", "mistake_answers_for", "reference_answers", "value_mismatch"]


def call_answer(fn, case: Case, make_config=None):
    """Call fn on fresh copies of the case's arguments; return a sanitised answer."""
    args = copy.deepcopy(case.args)
    try:
        result = fn(**args)
    except Exception as exc:
        return raised_from(exc)
    changed = [k for k in case.args if not same_value(args.get(k), case.args[k])]
    if changed:
        return ChangedInputs(tuple(changed))
    return sanitise(result, make_config)


# ------------------------------------------------------------------ one case
def describe_value(x) -> str:
    if is_plain_array(x):
        return f"an array of shape {x.shape} and dtype {x.dtype}"
    if isinstance(x, Unsupported):
        return f"a {x.type_name} ({x.reason})"
    if isinstance(x, tuple):
        return f"a tuple of {len(x)}"
    return f"a {type(x).__name__}"


def tests(n: int) -> str:
    return f"{n} test" if n == 1 else f"{n} tests"


def value_mismatch(answer, expected, tol: float, names: tuple[str, ...] = (), inputs: tuple = ()) -> str | None:
    """None when answer equals expected within tol; else a reason that shows no expected values.
    ``names`` name the items of an expected tuple ("dE" rather than "item 1"); ``inputs``,
    the case's (argument, dtype) pairs, word the fix of a wrong dtype (details.dtype_hint)."""
    if isinstance(answer, Unsupported):
        return f"returned {describe_value(answer)}"
    if is_plain_array(expected):
        return _array_mismatch(answer, expected, tol, inputs=inputs)
    if isinstance(expected, (tuple, list)):
        if not isinstance(answer, (tuple, list)) or len(answer) != len(expected):
            return f"returned {describe_value(answer)}; expected a tuple of {len(expected)}"
        for i, (a, e) in enumerate(zip(answer, expected)):
            reason = value_mismatch(a, e, tol, inputs=inputs)
            if reason:
                return f"{names[i] if i < len(names) else f'item {i}'}: {reason}"
        return None
    if isinstance(expected, dict):
        return _dict_mismatch(answer, expected, lambda a, e: value_mismatch(a, e, tol, inputs=inputs))
    if isinstance(expected, (float, int, np.generic)) and not isinstance(expected, bool):
        if isinstance(answer, bool) or not isinstance(answer, (float, int, np.generic, np.ndarray)):
            return f"returned {describe_value(answer)}; expected a number"
        if np.ndim(answer) != 0:
            return f"returned an array of shape {np.shape(answer)}; expected a single number"
        if np.iscomplexobj(answer):  # compared as floats, only its real part would be judged
            return f"returned {describe_value(answer)}; expected a real number"
        return _array_mismatch(np.asarray(answer), np.asarray(expected), tol, check_dtype=False)
    return None if answer == expected else "returned a different value"


def _array_mismatch(answer, expected: np.ndarray, tol: float, check_dtype: bool = True,
                    inputs: tuple = ()) -> str | None:
    if not is_plain_array(answer):
        return f"returned {describe_value(answer)}; expected a NumPy array"
    if answer.shape != expected.shape:
        return f"wrong shape: got {answer.shape}, expected {expected.shape}"
    if check_dtype and answer.dtype != expected.dtype:
        return (f"wrong dtype: got {answer.dtype}, expected {expected.dtype} "
                f"({dtype_hint(answer.dtype, expected.dtype, inputs)})")
    if expected.dtype.kind in "biu":
        return None if np.array_equal(answer, expected) else "integer values differ"
    finite_a, finite_e = np.isfinite(answer), np.isfinite(expected)
    if finite_e.all():  # the usual case, judged without masks or copies: every expected value finite
        if not finite_a.all():
            return f"{int((~finite_a).sum())} value(s) are NaN or infinite where finite values were expected"
        a, e = answer, expected
    else:
        bad = ~finite_a & finite_e
        if bad.any():
            return f"{int(bad.sum())} value(s) are NaN or infinite where finite values were expected"
        if (not np.array_equal(finite_a, finite_e)
                or not np.array_equal(answer[~finite_e], expected[~finite_e], equal_nan=True)):
            return "infinite or NaN entries are in the wrong places"
        a, e = answer[finite_e], expected[finite_e]
    if not e.size:
        return None
    scale = max(float(np.abs(e).max()), 1e-300)
    err = float(np.abs(a.astype(np.float64, copy=False) - e.astype(np.float64, copy=False)).max()) / scale
    if err <= tol:
        return None
    return f"right shape and dtype, but values differ (max relative error {err:.1e}, tolerance {tol:.0e})"


def _dict_mismatch(answer, expected: dict, compare) -> str | None:
    if not isinstance(answer, dict):
        return f"returned {describe_value(answer)}; expected a dict"
    missing, extra = sorted(set(expected) - set(answer)), sorted(set(answer) - set(expected))
    if missing or extra:
        return f"dict keys differ (missing {missing[:3]}, unexpected {extra[:3]})"
    for k in expected:
        reason = compare(answer[k], expected[k])
        if reason:
            return f"{k!r}: {reason}"
    return None


def case_mismatch(answer, expected, case: Case, tol: float, names: tuple[str, ...] = ()) -> str | None:
    """Why answer fails this case, or None if it passes."""
    if isinstance(answer, Broken):
        return answer.reason
    if isinstance(answer, NotAttempted):
        return "raised NotImplementedError (the stub is still there)"
    if isinstance(answer, ChangedInputs):
        return answer.describe()
    if case.raises:
        return _raise_mismatch(answer, case)
    if isinstance(answer, Raised):
        return f"raised {answer.describe()}"
    if isinstance(expected, (Raised, Broken, NotAttempted)):  # a broken reference, never the learner's fault
        return f"the reference itself failed on this case ({expected!r}); please report it"
    return value_mismatch(answer, expected, tol, names, case.array_inputs)


MAX_RAISE_MESSAGE = 300  # a message, not a bag of every number and keyword a case might ask for


def _raise_mismatch(answer, case: Case) -> str | None:
    about = f" for {case.about}" if getattr(case, "about", "") else ""
    if not isinstance(answer, Raised):
        return f"returned {describe_value(answer)}; expected a {case.raises}{about}"
    if answer.type_name != case.raises:  # exactly the type the exercise names, not any subclass
        if case.raises in answer.bases:
            return f"raised {answer.type_name}, a subclass; raise {case.raises} itself{about}"
        return f"raised {answer.type_name}; expected a {case.raises}{about}"
    if len(answer.message) > MAX_RAISE_MESSAGE:
        return (f"raised {case.raises} with a message of {len(answer.message)} characters{about}; say "
                f"what was wrong in one sentence (at most {MAX_RAISE_MESSAGE} characters)")
    if not mentions_all(answer.message, case.mention):
        return (f"raised {case.raises}, but the message does not say what was wrong{about} "
                "(mention the numbers involved)")
    return None


def mentions_all(message: str, mention: tuple[str, ...]) -> bool:
    """Each item of ``mention`` is 'a|b|c': the message must contain one of them."""
    text = message.lower()
    return all(any(alt.lower() in text for alt in item.split("|")) for item in mention)


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
    from .naming import name_mistakes  # naming compares variants case by case, with this module

    mistakes = name_mistakes(exercise, cases, answers, expected, failed, mistake_answers)
    first = failed[0]
    where = "public example" if cases[first].public else "hidden test"
    message = f"failed {len(failed)} of {tests(total)}; first failure ({where} {first + 1}): {reasons[first]}"
    if cases[first].public:  # no secret: the student edition ships the public examples
        message += f"\n  Inputs of public example {first + 1}: {inputs_brief(cases[first].args)}"
    for m in mistakes:
        message += f"\n  Likely mistake: {m.name}. {m.explanation}"
    status = "broken" if passed == 0 and all(isinstance(answers[i], Broken) for i in failed) else "failed"
    return Verdict(exercise.name, status, passed, total, points, exercise.points, message,
                   [m.name for m in mistakes], [f"test {i + 1}: {reasons[i]}" for i in failed])


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


def _judge_one(exercise: Exercise, case: Case, answer, expected) -> str | None:
    """Why the answer fails the case; for a public example, also where it first differs."""
    tol = case.tolerance(exercise.tolerance)
    if exercise.judge is not None and not isinstance(answer, (Broken, NotAttempted, Raised, ChangedInputs)):
        reason = exercise.judge(answer, case, expected, tol)
    else:
        reason = case_mismatch(answer, expected, case, tol, exercise.returns)
    if reason and case.public and not case.raises and not _drawn(exercise, case):
        where = first_difference(answer, expected, tol, exercise.returns)
        reason += f"; {where}" if where else ""
    return reason


def _drawn(exercise: Exercise, case: Case) -> bool:
    """Answers judged statistically from random draws: no one value is the expected one."""
    return exercise.judge is not None and any(isinstance(v, np.random.Generator) for v in case.args.values())


def case_reasons(exercise: Exercise, cases, answers, expected) -> list[str | None]:
    """Why each case fails (None where it passes): the case on its own, then, for a
    case that passes on its own, how it compares with earlier cases (seed_mismatches)."""
    reasons = [_judge_one(exercise, c, a, e) for c, a, e in zip(cases, answers, expected)]
    for j, mismatch in seed_mismatches(cases, answers).items():
        if reasons[j] is None:
            reasons[j] = mismatch.describe()
    return reasons


def mistake_answers_for(exercise: Exercise, cases) -> dict[str, list]:
    return {m.name: _for_judge(exercise, [call_answer(m.variant, c) for c in cases])
            for m in exercise.mistakes}


def reference_answers(exercise: Exercise, cases) -> list:
    return _for_judge(exercise, [call_answer(exercise.reference, c) for c in cases])


def _for_judge(exercise: Exercise, answers: list) -> list:
    """Statistically judged answers are kept as the statistics the judge compares."""
    from .stats import init_judge, summaries

    return summaries(answers) if exercise.judge is init_judge else answers

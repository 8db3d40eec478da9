"""Trusted comparison of answers with the reference, and naming of mistakes.

Everything here runs in the grader's own process on plain data: answers come
either from the learner's kernel through wire.sanitise (check()) or from a
child process through wire.decode (batch grading).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

from .registry import Case, Exercise, Mistake
from .stats import summarize
from .wire import Unsupported, is_plain_array, same_value, sanitise

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


def value_mismatch(answer, expected, tol: float, names: tuple[str, ...] = ()) -> str | None:
    """None when answer equals expected within tol; else a reason that shows no expected values.
    ``names`` name the items of an expected tuple ("dE" rather than "item 1")."""
    if isinstance(answer, Unsupported):
        return f"returned {describe_value(answer)}"
    if is_plain_array(expected):
        return _array_mismatch(answer, expected, tol)
    if isinstance(expected, (tuple, list)):
        if not isinstance(answer, (tuple, list)) or len(answer) != len(expected):
            return f"returned {describe_value(answer)}; expected a tuple of {len(expected)}"
        for i, (a, e) in enumerate(zip(answer, expected)):
            reason = value_mismatch(a, e, tol)
            if reason:
                return f"{names[i] if i < len(names) else f'item {i}'}: {reason}"
        return None
    if isinstance(expected, dict):
        return _dict_mismatch(answer, expected, lambda a, e: value_mismatch(a, e, tol))
    if isinstance(expected, (float, int, np.generic)) and not isinstance(expected, bool):
        if isinstance(answer, bool) or not isinstance(answer, (float, int, np.generic, np.ndarray)):
            return f"returned {describe_value(answer)}; expected a number"
        if np.ndim(answer) != 0:
            return f"returned an array of shape {np.shape(answer)}; expected a single number"
        return _array_mismatch(np.asarray(answer), np.asarray(expected), tol, check_dtype=False)
    return None if answer == expected else "returned a different value"


def _array_mismatch(answer, expected: np.ndarray, tol: float, check_dtype: bool = True) -> str | None:
    if not is_plain_array(answer):
        return f"returned {describe_value(answer)}; expected a NumPy array"
    if answer.shape != expected.shape:
        return f"wrong shape: got {answer.shape}, expected {expected.shape}"
    if check_dtype and answer.dtype != expected.dtype:
        return (f"wrong dtype: got {answer.dtype}, expected {expected.dtype} "
                "(keep the dtype of the inputs; do not upcast)")
    if expected.dtype.kind in "biu":
        return None if np.array_equal(answer, expected) else "integer values differ"
    bad = ~np.isfinite(answer) & np.isfinite(expected)
    if bad.any():
        return f"{int(bad.sum())} value(s) are NaN or infinite where finite values were expected"
    both = np.isfinite(expected)
    if not np.array_equal(np.isfinite(answer), both) or not np.array_equal(answer[~both], expected[~both], equal_nan=True):
        return "infinite or NaN entries are in the wrong places"
    if not both.any():
        return None
    a, e = answer[both].astype(np.float64), expected[both].astype(np.float64)
    scale = max(float(np.abs(e).max()), 1e-300)
    err = float(np.abs(a - e).max()) / scale
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
    return value_mismatch(answer, expected, tol, names)


def _raise_mismatch(answer, case: Case) -> str | None:
    about = f" for {case.about}" if getattr(case, "about", "") else ""
    if not isinstance(answer, Raised):
        return f"returned {describe_value(answer)}; expected a {case.raises}{about}"
    if case.raises not in answer.bases:
        return f"raised {answer.type_name}; expected a {case.raises}{about}"
    if not mentions_all(answer.message, case.mention):
        return (f"raised {case.raises}, but the message does not say what was wrong{about} "
                "(mention the numbers involved)")
    return None


def mentions_all(message: str, mention: tuple[str, ...]) -> bool:
    """Each item of ``mention`` is 'a|b|c': the message must contain one of them."""
    text = message.lower()
    return all(any(alt.lower() in text for alt in item.split("|")) for item in mention)


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
                and mentions_all(answer.message, case.mention) == mentions_all(other.message, case.mention))
    return value_mismatch(answer, other, tol) is None


# ------------------------------------------------------------------ the whole exercise
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


def judge(exercise: Exercise, cases: list[Case], answers: list, expected: list,
          mistake_answers: dict[str, list] | None = None) -> Verdict:
    """Score ``answers`` against ``expected`` (reference answers), case by case."""
    total = len(cases)
    if total and all(isinstance(a, NotAttempted) for a in answers):
        return Verdict(exercise.name, "not_attempted", 0, total, 0.0, exercise.points,
                       "not attempted yet: replace the `raise NotImplementedError` line with your code")
    reasons = case_reasons(exercise, cases, answers, expected)
    failed = [i for i, r in enumerate(reasons) if r]
    passed = total - len(failed)
    points = round(exercise.points * passed / total, 4) if total else 0.0
    if not failed:
        return Verdict(exercise.name, "passed", passed, total, points, exercise.points,
                       f"passed all {tests(total)}" if total != 1 else "passed its 1 test")
    mistakes = name_mistakes(exercise, cases, answers, expected, failed, mistake_answers)
    first = failed[0]
    where = "public example" if cases[first].public else "hidden test"
    message = f"failed {len(failed)} of {tests(total)}; first failure ({where} {first + 1}): {reasons[first]}"
    for m in mistakes:
        message += f"\n  Likely mistake: {m.name}. {m.explanation}"
    status = "broken" if passed == 0 and all(isinstance(answers[i], Broken) for i in failed) else "failed"
    return Verdict(exercise.name, status, passed, total, points, exercise.points, message,
                   [m.name for m in mistakes], [f"test {i + 1}: {reasons[i]}" for i in failed])


def _judge_one(exercise: Exercise, case: Case, answer, expected) -> str | None:
    tol = case.tolerance(exercise.tolerance)
    if exercise.judge is not None and not isinstance(answer, (Broken, NotAttempted, Raised, ChangedInputs)):
        return exercise.judge(answer, case, expected, tol)
    return case_mismatch(answer, expected, case, tol, exercise.returns)


def case_reasons(exercise: Exercise, cases, answers, expected) -> list[str | None]:
    """Why each case fails (None where it passes): the case on its own, then, for a
    case that passes on its own, how it compares with earlier cases (seed_mismatches)."""
    reasons = [_judge_one(exercise, c, a, e) for c, a, e in zip(cases, answers, expected)]
    for j, mismatch in seed_mismatches(cases, answers).items():
        if reasons[j] is None:
            reasons[j] = mismatch.describe()
    return reasons


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


# ------------------------------------------------------------------ reproducible from a seed
@dataclass(frozen=True)
class SeedMismatch:
    """How a case compares with the case ``earlier`` (the same other arguments): kind
    "repeat" (another seed, the same numbers) or "differ" (the same seed, other
    numbers), first seen in the tensor ``key``."""

    earlier: int
    kind: str
    key: str

    def same_as(self, other) -> bool:
        return isinstance(other, SeedMismatch) and (self.earlier, self.kind) == (other.earlier, other.kind)

    def describe(self) -> str:
        if self.kind == "repeat":
            return (f"another seed gave the same numbers as test {self.earlier + 1} ({self.key!r} "
                    "starts with the same values): the arrays must come from the seed argument, "
                    "through np.random.default_rng(seed)")
        return (f"the config and seed of test {self.earlier + 1} gave other numbers ({self.key!r} "
                "differs): the same seed must give the same arrays, so create the generator "
                "from the seed argument, np.random.default_rng(seed)")


def seed_mismatches(cases, answers) -> dict[int, SeedMismatch]:
    """A function given a ``seed`` argument must be reproducible from it: two cases
    whose other arguments are equal must give the same dict of arrays when their
    seeds are equal, and different arrays (no random tensor starting with the same
    values) when they are not. Returns {later case: mismatch with the first earlier
    case that shows one}.

    One case cannot show this, so the judge compares cases in order. It compares the
    summaries of grader/stats.py (each random tensor's leading values, normalised,
    plus its statistics), which is all the student edition stores of an answer, so
    check(), the batch grader and the student edition judge alike. Cases without a
    ``seed`` argument, and answers that are not dicts, are left alone.
    """
    seeded = [i for i, c in enumerate(cases) if "seed" in c.args and isinstance(answers[i], dict)]
    if len(seeded) < 2:
        return {}
    summaries = {i: summarize(answers[i]) for i in seeded}
    found = {}
    for n, j in enumerate(seeded):
        for i in seeded[:n]:
            if not _same_but_seed(cases[i].args, cases[j].args):
                continue
            if _equal(cases[i].args["seed"], cases[j].args["seed"]):
                kind, key = "differ", _first_different(summaries[i], summaries[j])
            else:
                kind, key = "repeat", _first_repeated(summaries[i], summaries[j])
            if key is not None:
                found[j] = SeedMismatch(i, kind, key)
                break
    return found


def _equal(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return is_plain_array(a) and is_plain_array(b) and a.dtype == b.dtype and np.array_equal(a, b)
    try:
        return bool(type(a) is type(b) and a == b)
    except Exception:
        return False


def _same_but_seed(a: dict, b: dict) -> bool:
    return set(a) == set(b) and all(_equal(a[k], b[k]) for k in a if k != "seed")


def _first_different(a: dict, b: dict) -> str | None:
    for key in list(a) + [k for k in b if k not in a]:
        if key not in a or key not in b or not _close_stats(a[key], b[key]):
            return key
    return None


def _close_stats(a, b) -> bool:
    if not (isinstance(a, dict) and isinstance(b, dict)) or set(a) != set(b):
        return a == b
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, (int, float, list)) and not isinstance(x, bool) and \
                isinstance(y, (int, float, list)) and not isinstance(y, bool):
            if np.shape(x) != np.shape(y) or not np.allclose(x, y, rtol=1e-9, atol=1e-12):
                return False
        elif x != y:
            return False
    return True


def _first_repeated(a: dict, b: dict) -> str | None:
    for key in a:
        f = a[key].get("fingerprint") if isinstance(a[key], dict) else None
        g = b[key].get("fingerprint") if isinstance(b.get(key), dict) else None
        if f is not None and g is not None and np.allclose(f, g, rtol=0.0, atol=1e-9):
            return key
    return None


def mistake_answers_for(exercise: Exercise, cases) -> dict[str, list]:
    return {m.name: _for_judge(exercise, [call_answer(m.variant, c) for c in cases])
            for m in exercise.mistakes}


def reference_answers(exercise: Exercise, cases) -> list:
    return _for_judge(exercise, [call_answer(exercise.reference, c) for c in cases])


def _for_judge(exercise: Exercise, answers: list) -> list:
    """Statistically judged answers are kept as the statistics the judge compares."""
    from .stats import init_judge, summaries

    return summaries(answers) if exercise.judge is init_judge else answers

"""Comparing an answer with the expected one: why it fails a case, or None.

A reason shows no expected value (a hidden case's values are secret): shapes, dtypes,
how values differ, what was raised. For a public example (no secret: the student
edition ships it) judge_case adds where the answer first differs. Plain data in,
plain data out; used by the judge (judge.py), naming a mistake (naming.py) and the
statistical judges (sampling_judge.py), in check(), the batch grader and the student
release alike.

The rules per case: the answer is a real ndarray of numeric dtype (not a subclass, not an
object with its own ``__eq__``) of the expected shape and dtype (no silent upcast),
finite where the expected one is, and within the exercise's tolerance, measured as
max |answer - expected| / max |expected| (registry.DEFAULT_TOL unless the exercise sets
one; float32 cases get at least registry.FLOAT32_TOL); a tuple has the expected number
of items, each judged so; a floating number (a loss) is a NumPy scalar of the expected dtype, never
a Python float (_scalar_type_mismatch). A case that must raise needs exactly the named exception type
and a message of at most MAX_RAISE_MESSAGE characters naming the numbers involved
(mentions_all). Across cases (case_reasons): an argument changed in place fails, and
seeds.py's rules on seeds and random generators apply.
"""
from __future__ import annotations

import re

import numpy as np

from .details import dtype_hint, keys_differ
from .outcomes import Broken, ChangedInputs, NotAttempted, Raised
from .registry import Case, Exercise
from .seeds import seed_mismatches
from .wire import OTHER_TYPE, REASONS, Unsupported, is_plain_array, known_type


# ------------------------------------------------------------------ one value
def describe_value(x) -> str:
    if is_plain_array(x):
        return f"an array of shape {x.shape} and dtype {x.dtype}"
    if isinstance(x, Unsupported):
        return f"{x.type_name if x.type_name == OTHER_TYPE else _a(x.type_name)} ({x.reason})"
    if isinstance(x, tuple):
        return f"a tuple of {len(x)}"
    return _a(type(x).__name__)


def _a(name: str) -> str:
    """'an int', 'an ndarray', 'a dict': the article a type's name reads with."""
    return ("an " if name[:1].lower() in "aeio" else "a ") + name


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
        reason = _scalar_type_mismatch(answer, expected)
        if reason:
            return reason
        return _array_mismatch(np.asarray(answer), np.asarray(expected), tol, check_dtype=False)
    return None if answer == expected else "returned a different value"


def _scalar_type_mismatch(answer, expected) -> str | None:
    """The rule for a floating number (a loss): a NumPy scalar of the expected dtype (the inputs'),
    as NumPy's own reductions give it; a Python float or another dtype is the wrong kind of answer.
    Integers (a count) may be Python or NumPy ones."""
    if not isinstance(expected, np.floating):
        return None
    got = np.asarray(answer).dtype
    if isinstance(answer, (float, int)) and not isinstance(answer, np.generic):
        return (f"returned a Python {type(answer).__name__}; expected a NumPy {expected.dtype} scalar "
                "(keep the NumPy result, without float() or .item())")
    if got != expected.dtype:
        return (f"wrong dtype: got a {got} number, expected {expected.dtype} "
                "(compute in the inputs' dtype; do not upcast)")
    return None


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
    differ = keys_differ(expected, answer)
    if differ:
        return differ
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
    missing = unmentioned(answer.message, case.mention)
    if missing:  # the rule that failed, and only it: what the message leaves out
        return (f"raised {case.raises}, but the message does not say what was wrong{about}: it should "
                f"also name {' and '.join(missing)}")
    return None


def unmentioned(message: str, mention: tuple[str, ...]) -> list[str]:
    """The items of ``mention`` the message lacks, each as "'a', 'b' or 'c'" (any one will do)."""
    text = message.lower()
    missing = [item.split("|") for item in mention if not any(alt.lower() in text for alt in item.split("|"))]
    return [", ".join(map(repr, alts[:-1])) + f" or {alts[-1]!r}" if len(alts) > 1 else repr(alts[0])
            for alts in missing]


def mentions_all(message: str, mention: tuple[str, ...]) -> bool:
    """Each item of ``mention`` is 'a|b|c': the message must contain one of them."""
    text = message.lower()
    return all(any(alt.lower() in text for alt in item.split("|")) for item in mention)


# ------------------------------------------------------------------ one case of an exercise
def judge_case(exercise: Exercise, case: Case, answer, expected) -> str | None:
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


# What a hidden case's failure says: its kind, in words the grader owns, never a value the
# learner's code chose. A shape, a count, a dict key, a type's name or the size of an error are
# all the learner's to choose, and a learner's function holds the hidden inputs when it returns:
# echoed, they would carry those inputs back in the feedback, run after run. Dtype names and
# the grader's own names (a tuple item's, an expected key's) come from fixed sets and stay.
_HIDDEN_KINDS = (
    ("wrong shape", "wrong shape (the public examples show the shapes expected)"),
    ("wrong dtype: got a Python", None), ("wrong dtype", None),
    ("right shape and dtype, but values differ", "right shape and dtype, but values differ beyond the tolerance"),
    ("infinite or NaN entries", None), ("integer values differ", None),
    ("raised NotImplementedError", None), ("the reference itself failed", None),
    ("dict keys differ", "the dict's keys are not the expected ones"),
    # the seed rules and the statistical judges name tests, keys and draws of the grader's own
    ("another seed gave", None), ("the config and seed of test", None), ("`", None),
    ("the inputs of test", None), ("drew ", None), ("the tensors do not repeat", None),
    ("the dict holds a separate output head", None), ("biases start", None), ("LayerNorm gains", None),
)


_FIRST_DIFFERENCE = re.compile(r"; (first difference at .*|expected .*, got .*)\Z", re.S)


def hidden_wording(reason: str, names: tuple[str, ...] = ()) -> str:
    """``reason`` as a hidden case's failure may show it (see _HIDDEN_KINDS): a known kind in
    the grader's words; anything else, the kind alone ("wrong answer"), never its details."""
    reason = _FIRST_DIFFERENCE.sub("", reason)  # a public example's "expected A, got B" (judge_case)
    for name in names:  # a tuple item's name: the grader's own
        if reason.startswith(f"{name}: "):
            return f"{name}: " + hidden_wording(reason[len(name) + 2:])
    item = re.match(r"(item \d+|'[^']*'): (.*)", reason, re.S)  # a tuple item, an expected dict's key
    if item:
        return f"{item[1]}: {hidden_wording(item[2])}"
    if reason.startswith("'"):  # an initialisation's tensor, by its (expected) name: init_gpt's judge
        return reason
    if "value(s) are NaN or infinite" in reason:
        return "NaN or infinite values where finite values were expected"
    for start, said in _HIDDEN_KINDS:
        if reason.startswith(start):
            return reason if said is None else said
    if reason.startswith("raised "):  # exception types arrive as Python's or NumPy's own names
        return re.sub(r"\d+", "#", reason)  # a message's length is the learner's to choose
    if reason.startswith("returned "):  # what came back, by the grader's description when it holds
        got, _, wanted = reason[len("returned "):].partition("; expected ")  # no number (a shape, a
        if re.search(r"\d", got) or not _described_by_the_grader(got):  # length, a class's name: the learner's)
            return f"returned something else; expected {wanted}" if wanted else \
                "returned something other than what this test expects"
        return f"returned {got}" + (f"; expected {wanted}" if wanted else "")
    return "wrong answer"


def _described_by_the_grader(got: str) -> bool:
    """describe_value's words for a type that exists outside the learner's code ("a list", "a
    torch.Tensor (reason)", OTHER_TYPE): never a class the learner named (check() names it)."""
    if got.startswith(OTHER_TYPE) or got in ("a Python float", "a Python int"):
        return True
    m = re.fullmatch(r"an? (\S+)(?: \((.*)\))?", got, re.S)
    return bool(m) and known_type(m[1]) and (m[2] is None or m[2] in REASONS)


def _drawn(exercise: Exercise, case: Case) -> bool:
    """Answers judged statistically from random draws: no one value is the expected one."""
    return exercise.judge is not None and any(isinstance(v, np.random.Generator) for v in case.args.values())


def case_reasons(exercise: Exercise, cases, answers, expected) -> list[str | None]:
    """Why each case fails (None where it passes): the case on its own, then, for a
    case that passes on its own, how it compares with earlier cases (seed_mismatches)."""
    reasons = [judge_case(exercise, c, a, e) for c, a, e in zip(cases, answers, expected)]
    for j, mismatch in seed_mismatches(cases, answers).items():
        if reasons[j] is None:
            reasons[j] = mismatch.describe()
    return reasons


# ------------------------------------------------------------------ where it differs
def first_difference(answer, expected, tol: float, names: tuple[str, ...] = (), path: str = "") -> str | None:
    """``first difference at y[1, 3]: expected 17, got 18`` for the first value that fails,
    in the order value_mismatch reports; None where shapes or kinds already differ."""
    if isinstance(expected, (tuple, list)) and isinstance(answer, (tuple, list)) and len(answer) == len(expected):
        for i, (a, e) in enumerate(zip(answer, expected)):
            if value_mismatch(a, e, tol) is not None:
                name = names[i] if i < len(names) else f"{path}[{i}]"
                return first_difference(a, e, tol, (), name)
        return None
    if isinstance(expected, dict) and isinstance(answer, dict) and set(answer) == set(expected):
        for k in expected:
            if value_mismatch(answer[k], expected[k], tol) is not None:
                return first_difference(answer[k], expected[k], tol, (), f"{path}[{k!r}]")
        return None
    if isinstance(expected, str) and isinstance(answer, str):
        return _text_difference(answer, expected, path)
    return _array_difference(answer, expected, tol, path)


def _text_difference(answer: str, expected: str, path: str) -> str:
    """Two strings (a token, a decoded text), each shown around the first character that differs."""
    i = next((k for k, (a, e) in enumerate(zip(answer, expected)) if a != e), min(len(answer), len(expected)))
    start = max(0, i - 20)
    clip = lambda t: ("..." if start else "") + repr(t[start:i + 20]) + ("..." if len(t) > i + 20 else "")  # noqa: E731
    where = f"first difference at {path}" if path else "first difference"
    return f"{where}, character {i}: expected {clip(expected)}, got {clip(answer)}"


def _numeric(x):
    if isinstance(x, (int, float, np.generic)) and not isinstance(x, bool):
        x = np.asarray(x)
    return x if is_plain_array(x) else None


def _array_difference(answer, expected, tol: float, path: str) -> str | None:
    a, e = _numeric(answer), _numeric(expected)
    if a is None or e is None or a.shape != e.shape or a.size == 0:
        return None
    if is_plain_array(answer) and is_plain_array(expected) and a.dtype != e.dtype:
        return None  # the dtype is what to fix first
    if e.dtype.kind in "biu" and a.dtype.kind in "biu":
        bad = a != e
    else:
        wide = np.complex128 if "c" in a.dtype.kind + e.dtype.kind else np.float64
        fa, fe = a.astype(wide), e.astype(wide)
        finite = np.isfinite(fe)
        scale = max(float(np.abs(fe[finite]).max()), 1e-300) if finite.any() else 1.0
        with np.errstate(invalid="ignore", over="ignore"):
            off = np.where(finite & np.isfinite(fa), np.abs(fa - fe) / scale > tol, False)
        bad = off | (np.isfinite(fa) != finite) | (~finite & ~np.isfinite(fa) & (fa != fe))
    where = np.flatnonzero(bad)
    if not where.size:
        return None
    index = np.unravel_index(int(where[0]), a.shape) if a.ndim else ()
    got, want = a[index], e[index]
    if not index:  # one number: the reason already names it
        return f"expected {want}, got {got}"
    return f"first difference at {path}[{', '.join(str(int(i)) for i in index)}]: expected {want}, got {got}"

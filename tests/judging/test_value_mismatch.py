"""compare.value_mismatch on arrays and numbers, against a definition written out element by element."""
import math

import numpy as np
import pytest

from grader.judging import compare, wire
from grader.judging.compare import value_mismatch


def by_definition(answer: np.ndarray, expected: np.ndarray, tol: float) -> str | None:
    """The rule for float arrays of one shape and dtype, one element at a time in Python floats."""
    pairs = [(float(a), float(e)) for a, e in zip(answer.ravel(), expected.ravel())]
    bad = sum(1 for a, e in pairs if math.isfinite(e) and not math.isfinite(a))
    if bad:
        return f"{bad} value(s) are NaN or infinite where finite values were expected"
    if any(not math.isfinite(e) and not (a == e or (math.isnan(a) and math.isnan(e))) for a, e in pairs):
        return "infinite or NaN entries are in the wrong places"
    finite = [(a, e) for a, e in pairs if math.isfinite(e)]
    if not finite:
        return None
    err = max(abs(a - e) for a, e in finite) / max(max(abs(e) for _, e in finite), 1e-300)
    if err <= tol:
        return None
    return f"right shape and dtype, but values differ (max relative error {err:.1e}, tolerance {tol:.0e})"


def random_pair(rng):
    shape = tuple(int(n) for n in rng.integers(0, 4, size=rng.integers(0, 3)))
    dtype = rng.choice([np.float16, np.float32, np.float64])
    expected = np.array(rng.standard_normal(shape), dtype=dtype)
    noise = rng.standard_normal(shape) * rng.choice([0.0, 1e-9, 1e-5, 1e-2, 1.0])
    answer = np.array(expected + noise, dtype=dtype)
    for arr in (answer, expected):  # NaNs and infinities, sometimes in both at one place
        if arr.size and rng.random() < 0.4:
            for _ in range(rng.integers(1, 3)):
                arr[tuple(int(rng.integers(0, n)) for n in shape)] = rng.choice([np.nan, np.inf, -np.inf])
    if rng.random() < 0.2:
        answer = expected.copy()
    return answer, expected


def test_float_arrays_are_judged_by_the_definition():
    rng = np.random.default_rng(0)
    verdicts = set()
    for _ in range(3000):
        answer, expected = random_pair(rng)
        tol = float(rng.choice([1e-12, 1e-6, 1e-3]))
        got = value_mismatch(answer, expected, tol)
        assert got == by_definition(answer, expected, tol), (answer, expected, tol)
        verdicts.add(got and ("count" if got[0].isdigit() else got.split(" ")[0]))
    assert verdicts == {None, "count", "infinite", "right"}  # the pairs reach every verdict


@pytest.mark.parametrize("answer", [np.complex128(1 + 2j), np.complex64(1)])
def test_a_complex_number_where_a_real_one_is_expected_fails(answer):
    # compared as floats, 1 + 2j would pass as 1.0
    assert value_mismatch(answer, 1.0, 1e-6) == f"returned a {type(answer).__name__}; expected a real number"
    assert value_mismatch(1 + 0j, 1.0, 1e-6) == "returned a complex; expected a number"


@pytest.mark.parametrize("drop_or_add", ["one item too few", "one item too many"])
def test_a_tuple_of_the_wrong_length_fails_naming_the_length(drop_or_add):
    """get_batch returns (x, y): an answer whose items present are all right still fails when
    it has one item too few or too many, and the reason says how many were expected."""
    from grader.judging import registry
    from grader.judging.answers import call_answer, reference_answers
    from grader.judging.judge import judge

    exercise = registry.get("get_batch")
    cases = exercise.cases(hidden=False)
    expected = reference_answers(exercise, cases)

    def wrong_length(*args, **kwargs):
        x, y = exercise.reference(*args, **kwargs)
        return (x,) if drop_or_add == "one item too few" else (x, y, y)

    answers = [call_answer(wrong_length, case) for case in cases]
    verdict = judge(exercise, cases, answers, expected)
    value_cases = [case for case in cases if not case.raises]  # the cases that must raise still pass
    assert value_cases and verdict.total - verdict.passed == len(value_cases)
    assert all("expected a tuple of 2" in failure for failure in verdict.failures)
    assert value_mismatch((expected[0][0],), expected[0], 1e-8) == "returned a tuple of 1; expected a tuple of 2"


def test_a_hidden_case_s_failure_carries_nothing_the_learner_chose():
    """A learner's function holds a hidden case's inputs when it returns: a shape, a count, a
    dict key, a type's name or an error's size it chooses would carry them back in the
    feedback. A hidden case's failure says its kind; a public example's says everything."""
    from grader.checking.check import evaluate
    from grader.judging import registry

    class LEAKTYPE:
        pass

    calls = {"n": 0}

    def gelu_tanh(x):
        calls["n"] += 1
        if calls["n"] % 4 == 3:
            raise ValueError("leaked 7, 1, 42")                    # numbers in an error message
        if calls["n"] % 3 == 0:
            return np.zeros((7, 1, 7, 1, 7, 42))                  # a shape that spells data
        if calls["n"] % 3 == 1:
            return LEAKTYPE()                                       # a type's name
        out = np.full(x.shape, np.nan, x.dtype)
        out.flat[: min(x.size, 5)] = 0.123456                      # a count of NaNs, an error's size
        return out

    verdict = evaluate(gelu_tanh)
    public = len(registry.get("gelu_tanh").cases(hidden=False))
    hidden = [f for f in verdict.failures if int(f.split()[1].rstrip(":")) > public]
    assert len(hidden) >= 3
    for failure in hidden:
        assert "42" not in failure and "7, 1" not in failure and "LEAKTYPE" not in failure, failure
        assert not any(ch.isdigit() for ch in failure.split(":", 1)[1]), failure
    shown = " ".join(f for f in verdict.failures if f not in hidden)
    assert "LEAKTYPE" in shown or "(7, 1, 7, 1, 7, 42)" in shown or "value(s) are NaN" in shown  # public: all


def test_only_a_public_example_says_where_the_answer_first_differs():
    """judge_case adds "first difference at ...: expected X, got Y" to public examples only: on a
    hidden case X is a secret value (hidden_wording strips it again, a second wall)."""
    from grader.judging import registry
    exercise = registry.get("gelu_tanh")
    for case in exercise.cases(hidden=True):
        expected = call_answer_of(exercise, case)
        reason = compare.judge_case(exercise, case, expected + 1.0, expected)
        assert reason and ("first difference" in reason) == case.public, reason


def call_answer_of(exercise, case):
    from grader.judging.answers import call_answer
    return call_answer(exercise.reference, case)


def test_a_word_the_message_must_name_may_be_capitalised():
    assert compare.unmentioned("Shape (2, 3) does not match", ("shape",)) == []
    assert compare.mentions_all("BLOCK SIZE 8 exceeded by 9", ("block|context", "8"))
    assert compare.unmentioned("too long", ("block|context",)) == ["'block' or 'context'"]
    assert compare.unmentioned("k = 9 is more than min(t, d) = 4", ("min(T, d)|T",)) == []  # the rule's case


@pytest.mark.parametrize("count", [124439808, np.int64(124439808)])
def test_a_count_may_be_a_python_or_a_numpy_integer(count):
    assert compare._scalar_type_mismatch(count, np.int64(124439808)) is None
    assert compare.value_mismatch(count, np.int64(124439808), 0.0) is None


# ------------------------------------------------------------------ no text of the learner's comes back
def test_unexpected_dict_keys_are_counted_not_named():
    """A dict's keys are text the learner's code chose (it may spell hidden inputs in them):
    the expected keys missing are named, the unexpected ones only counted."""
    reason = value_mismatch({"ZQ123": np.zeros(1), "wpe": np.zeros(1)}, {"wpe": np.zeros(1), "wte": np.zeros(1)}, 1e-6)
    assert "ZQ123" not in reason and "'wte'" in reason and "1 unexpected" in reason


def test_an_integer_too_long_to_print_is_a_wrong_answer_not_a_grader_error():
    """Python refuses str() of an int past 4300 digits; a count that long (10 ** 5000) is the
    learner's wrong answer, named as one, and check() gives a verdict rather than crashing."""
    from grader.checking.check import evaluate

    def count_gpt2_params(V, T, d, L, tied=True, bias=True):
        return 10 ** 5000

    answer = wire.sanitise(10 ** 5000)
    assert isinstance(answer, wire.Unsupported) and "more than 4096 bits" in answer.reason
    assert value_mismatch(answer, 124439808, 0.0) == "returned an int (an integer of more than 4096 bits)"
    verdict = evaluate(count_gpt2_params)
    assert verdict.status == "failed" and "an integer of more than 4096 bits" in verdict.message, verdict.message
    assert wire.sanitise(2 ** 4000) == 2 ** 4000   # long, but within the limit: kept exactly


# ------------------------------------------------------------------ round 10's survivors (compare.py)
@pytest.mark.parametrize("answer, expected", [(True, 1), (False, 0), (True, np.int64(1)), (False, 0.0)])
def test_a_bool_is_not_a_number(answer, expected):
    assert value_mismatch(answer, expected, 1e-6) == "returned a bool; expected a number"


@pytest.mark.parametrize("answer, expected", [(3, np.int64(3)), (np.int32(3), np.int64(3)), (np.int64(3), 3),
                                              (np.float64(0.5), 0.5)])
def test_a_single_number_is_judged_by_its_value_not_its_width(answer, expected):
    """A count as a Python int, or as another NumPy integer width, is the count."""
    assert value_mismatch(answer, expected, 1e-6) is None


def test_a_subclass_of_the_exception_asked_for_is_not_that_exception():
    from grader.judging.compare import case_mismatch
    from grader.judging.outcomes import Raised
    from grader.judging.registry import Case

    case = Case({"x": 1}, raises="ValueError", mention=("block",), about="a sequence too long")
    sub = Raised("BlockError", ("BlockError", "ValueError", "Exception"), "block size 4 exceeded")
    assert case_mismatch(sub, None, case, 1e-6) == \
        "raised BlockError, a subclass; raise ValueError itself for a sequence too long"
    right = Raised("ValueError", ("ValueError", "Exception"), "block size 4 exceeded")
    assert case_mismatch(right, None, case, 1e-6) is None


def test_a_case_wrong_on_its_own_keeps_its_own_reason_beside_a_seed_mismatch():
    """Test 2 repeats test 1's numbers under another seed and is wrong on its own too: its own
    reason is the one shown (the values differ), not only the seeds'."""
    from grader.judging.compare import case_reasons
    from grader.judging.registry import Case, Exercise

    exercise = Exercise("f", "00", None, lambda: [], lambda rng: [], difficulty=1, importance=1, minutes=1)
    a, b = (np.random.default_rng(s).normal(0, 1, 64) for s in (0, 1))
    cases = [Case({"n": 4, "seed": 0}), Case({"n": 4, "seed": 1})]
    own = case_reasons(exercise, cases, [{"w": a}, {"w": a}], [{"w": a}, {"w": b}])
    assert own[0] is None and own[1].startswith("'w': right shape and dtype, but values differ")
    seeds = case_reasons(exercise, cases, [{"w": a}, {"w": a.copy()}], [{"w": a}, {"w": a}])
    assert seeds[0] is None and seeds[1].startswith("another seed gave the same numbers as test 1")


def test_the_same_seed_giving_other_numbers_is_told_as_such():
    from grader.judging.compare import case_reasons
    from grader.judging.registry import Case, Exercise

    exercise = Exercise("f", "00", None, lambda: [], lambda rng: [], difficulty=1, importance=1, minutes=1)
    a, b = (np.random.default_rng(s).normal(0, 1, 64) for s in (0, 1))
    cases = [Case({"n": 4, "seed": 3}), Case({"n": 4, "seed": 3})]
    reasons = case_reasons(exercise, cases, [{"w": a}, {"w": b}], [{"w": a}, {"w": b}])
    assert reasons[0] is None and reasons[1].startswith("the config and seed of test 1 gave other numbers")


def test_a_seed_mismatch_is_alike_another_only_of_the_same_kind_and_test():
    """naming.py names a catalogued seed mistake only when the learner's mismatch is the same as
    the mistake's: repeating numbers across seeds is not giving other numbers for one seed."""
    from grader.judging.seeds import SeedMismatch

    repeat = SeedMismatch(0, "repeat", "w")
    assert repeat.same_as(SeedMismatch(0, "repeat", "b"))
    assert not repeat.same_as(SeedMismatch(0, "differ", "w"))
    assert not repeat.same_as(SeedMismatch(1, "repeat", "w"))
    assert not repeat.same_as(None)
    assert SeedMismatch(1, "repeat", "w").describe().startswith("another seed gave the same numbers as test 2")

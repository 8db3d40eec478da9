"""structure.py's diagnoses called directly on small cases: when each names a mistake and, as
much, when it must stay silent (two readings fit, the evidence differs between tests, an answer
that is not of the shape the diagnosis reads). The lessons' exercises run through them in
test_diagnoses.py."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from grader.judging.registry import Case
from grader.judging.structure import count_difference, extra_keys

EXERCISE = SimpleNamespace(tolerance=1e-6, judge=None, reference=None, mistakes=[])


# ------------------------------------------------------------------ count_difference
def _count_cases(sizes):
    return [Case({"V": V, "T": T, "d": d, "L": L}) for V, T, d, L in sizes]


def test_a_count_off_by_a_term_is_named_with_its_sign():
    cases = _count_cases([(50, 9, 8, 3), (70, 13, 16, 5), (90, 17, 24, 2), (40, 21, 32, 7)])
    expected = [c.args["V"] * c.args["d"] + 12 * c.args["L"] * c.args["d"] ** 2 for c in cases]
    for sign, words in ((-1, "too few"), (1, "too many")):
        answers = [e + sign * 2 * c.args["L"] * c.args["d"] for e, c in zip(expected, cases)]
        (found,) = count_difference(EXERCISE, cases, answers, expected, [0, 1, 2, 3])
        assert found[0] == f"2·L·d parameters {words}"


def test_a_count_two_readings_explain_equally_names_neither():
    """Every test has d = 2·L: a count d too many is as well L·2 too many, so nothing is said."""
    cases = _count_cases([(50, 9, 6, 3), (70, 13, 10, 5), (90, 17, 4, 2), (40, 21, 14, 7)])
    expected = [c.args["V"] * c.args["d"] for c in cases]
    answers = [e + c.args["d"] for e, c in zip(expected, cases)]
    assert count_difference(EXERCISE, cases, answers, expected, [0, 1, 2, 3]) is None
    # the same answers on sizes that tell d from L apart: named
    apart = _count_cases([(50, 9, 8, 3), (70, 13, 10, 5), (90, 17, 4, 2), (40, 21, 14, 7)])
    expected = [c.args["V"] * c.args["d"] for c in apart]
    answers = [e + c.args["d"] for e, c in zip(expected, apart)]
    assert count_difference(EXERCISE, apart, answers, expected, [0, 1, 2, 3])[0][0] == "d parameters too many"


# ------------------------------------------------------------------ extra_keys
def _dict_cases(n):
    return [Case({"x": np.full(2, float(i))}) for i in range(n)]


def _expected(n):
    return [{"wte": np.full(2, float(i)), "wpe": np.ones(3)} for i in range(n)]


def test_the_same_extra_keys_on_every_test_are_named():
    expected = _expected(3)
    answers = [e | {"lm_head.weight": np.zeros(2)} for e in expected]
    (found,) = extra_keys(EXERCISE, _dict_cases(3), answers, expected, [0, 1, 2])
    assert found[0] == "extra `lm_head.weight` in the dict"
    assert "there is no head tensor" in found[1]


def test_extra_keys_that_differ_between_tests_are_not_named():
    expected = _expected(3)
    extras = [{"a": 1.0}, {"a": 1.0, "b": 2.0}, {"a": 1.0}]
    answers = [e | x for e, x in zip(expected, extras)]
    assert extra_keys(EXERCISE, _dict_cases(3), answers, expected, [0, 1, 2]) is None
    answers = [e | x for e, x in zip(expected, [{"a": 1.0}, {"b": 1.0}, {"a": 1.0}])]
    assert extra_keys(EXERCISE, _dict_cases(3), answers, expected, [0, 1, 2]) is None


def test_a_dict_missing_a_key_asked_for_is_not_read_as_extra_keys():
    """It holds a key besides, but one asked for is missing: not this diagnosis, and no crash."""
    expected = _expected(2)
    answers = [{"wte": e["wte"], "lm_head.weight": np.zeros(2)} for e in expected]
    assert extra_keys(EXERCISE, _dict_cases(2), answers, expected, [0, 1]) is None


def test_extra_keys_are_named_only_when_the_rest_is_right():
    expected = _expected(2)
    answers = [e | {"wte": e["wte"] + 1, "extra": 0.0} for e in expected]
    assert extra_keys(EXERCISE, _dict_cases(2), answers, expected, [0, 1]) is None

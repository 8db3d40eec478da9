"""factors.size_factor on a reference of its own (a mean over the last axis): an answer off by
a size of the inputs that changes from case to case is named by that size, its reciprocal
included; the lessons' exercises run through it in test_diagnoses.py."""
from __future__ import annotations

import numpy as np
import pytest

from grader.judging.factors import size_factor
from grader.judging.registry import Case, Exercise


def row_mean(x):
    return x.mean(axis=-1)


CASES = [Case({"x": np.arange(1.0, 1.0 + n * m).reshape(n, m)}) for n, m in ((2, 3), (3, 5), (2, 8))]


def _named(learner):
    exercise = Exercise("row_mean", "00", row_mean, lambda: [], lambda rng: [],
                        difficulty=1, importance=1, minutes=1)
    expected = [row_mean(**c.args) for c in CASES]
    answers = [learner(**c.args) for c in CASES]
    return size_factor(exercise, CASES, answers, expected, list(range(len(CASES))))


@pytest.mark.parametrize("learner, label", [
    (lambda x: x.sum(axis=-1), "x.shape[-1]"),                       # a sum where the mean belongs
    (lambda x: x.mean(axis=-1) / x.shape[-1], "1/x.shape[-1]"),       # divided by the count twice
    (lambda x: x.mean(axis=-1) * np.sqrt(x.shape[-1]), "sqrt(x.shape[-1])"),
    (lambda x: x.mean(axis=-1) / np.sqrt(x.shape[-1]), "1/sqrt(x.shape[-1])"),
    (lambda x: x.mean(axis=-1) * x.size, "x.size"),
    (lambda x: x.mean(axis=-1) / x.size, "1/x.size"),
])
def test_an_answer_off_by_a_size_is_named_by_that_size(learner, label):
    (found,) = _named(learner)
    assert found[0] == f"off by a factor {label}"
    assert f"times {label}, a size that changes from test to test" in found[1]


def test_one_constant_factor_on_every_case_is_not_a_size():
    assert _named(lambda x: 2.0 * x.mean(axis=-1)) is None

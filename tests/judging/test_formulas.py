"""formulas.py on small references of its own: each kind of change it tries (a constant by each
relation, a power one off, a term moved out of a call), each guard that keeps it silent, and its
words. The lessons' exercises run through it in test_diagnoses.py."""
from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from numpy import tanh

from grader.judging.formulas import RELATIONS, constant_changed
from grader.judging.outcomes import Raised
from grader.judging.registry import Case, Exercise

SCALE = 0.3   # a module's float, named in a reference


def scaled(x):
    return x * 0.3


def scaled_by_name(x):
    return x * SCALE


def cube(x):
    return x ** 3


def cube_by_product(x):
    return x * x * x


def cubed(x):
    return 0.5 * x ** 3


def cubed_by_product(x):
    return 0.5 * x * x * x


def squared(x):
    return 2.0 + x ** 2


def activated(x, b):
    return tanh(x * 2.0 + b)


def activated_bias_first(x, b):
    return tanh(b + x * 2.0)


def summed(x, b):
    return tanh(x + b)


def rooted(x, b):
    return np.sqrt(x * x + b) * 0.5   # a call through a module, as layer_norm's np.sqrt(var + eps)


def shifted_cube(x):
    y = x + 1
    return y ** 3


def unit_constants(x):
    return x * 1.0 + 0.0


def by_three(x):
    return x * 3


def twice_scaled(x):
    return x * 0.3 * 0.3


def _decorated(fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        return fn(*a, **k)
    return wrapper


@_decorated
def decorated(x):
    return x * 0.3


XS = [np.array([0.5, -1.25, 2.0]), np.array([[1.5, 0.25], [-0.75, 3.0]]), np.array([-2.0, 0.125])]


def _exercise(reference, judge=None):
    return Exercise("f", "00", reference, lambda: [], lambda rng: [], judge=judge,
                    difficulty=1, importance=1, minutes=1)


def _named(reference, learner, cases=None, **kw):
    """What constant_changed says of `learner`, judged on `cases` (x, and b where the reference has it)."""
    exercise = _exercise(reference, **kw)
    if cases is None:
        code = getattr(reference, "__code__", None)
        takes_b = code is not None and "b" in code.co_varnames[:code.co_argcount]
        cases = [Case({"x": x, "b": np.full(x.shape[-1], 0.5)} if takes_b else {"x": x}) for x in XS]
    expected = [reference(**c.args) for c in cases]
    answers = [learner(**c.args) for c in cases]
    failed = [i for i, (a, e) in enumerate(zip(answers, expected))
              if isinstance(a, Raised) or not np.allclose(a, e, rtol=1e-7, atol=1e-9)]
    return constant_changed(exercise, cases, answers, expected, failed)


@pytest.mark.parametrize("relation, wrong", RELATIONS)
def test_each_relation_of_a_constant_is_named_by_its_name(relation, wrong):
    new = wrong(0.3)
    found = _named(scaled, lambda x: x * new)
    assert found is not None and len(found) == 1
    name, explanation = found[0]
    assert name == f"the constant {new:.6g} where 0.3 belongs ({relation})"
    assert f"With {new:.6g} in the place of 0.3" in explanation and "make it 0.3." in explanation


def test_a_module_s_float_named_in_the_reference_is_a_constant_too():
    (found,) = _named(scaled_by_name, lambda x: x * 3.0)
    assert found[0] == "the constant 3 where 0.3 belongs (ten times it)"


def test_a_constant_of_no_relation_is_not_named():
    assert _named(scaled, lambda x: x * 0.37) is None


@pytest.mark.parametrize("reference", [unit_constants, by_three])
def test_zero_one_and_integer_constants_are_left_alone(reference):
    """0.0 and 1.0 have no telling relation (twice 0 is 0), and an int is a count, not a constant."""
    assert _named(reference, lambda x: x * 2.0) is None
    assert _named(reference, lambda x: x * 6) is None


@pytest.mark.parametrize("reference, learner, n, m", [
    (cube, lambda x: x ** 2, 3, 2),
    (cube, lambda x: x ** 4, 3, 4),
    (cube_by_product, lambda x: x * x, 3, 2),
    (cube_by_product, lambda x: x ** 4, 3, 4),
    (cubed, lambda x: 0.5 * x ** 2, 3, 2),                 # a power that is one factor of a product
    (cubed, lambda x: 0.5 * x ** 4, 3, 4),
    (cubed_by_product, lambda x: 0.5 * x * x, 3, 2),
    (cubed_by_product, lambda x: x * 0.5 * x * x * x, 3, 4),
    (squared, lambda x: 2.0 + x, 2, 1),
    (squared, lambda x: 2.0 + x ** 3, 2, 3),
])
def test_a_power_of_an_argument_one_off_is_named(reference, learner, n, m):
    (found,) = _named(reference, learner)
    assert found[0] == f"`x` to the power {m} where the formula has {n}"
    assert f"raised to the power {m} instead of {n}" in found[1]


def test_a_power_two_off_is_not_named():
    assert _named(cube, lambda x: x) is None


def test_a_power_of_the_reference_s_own_variable_is_not_tried():
    """`y` is a name the learner never saw: (x + 1) squared is not named after it."""
    assert _named(shifted_cube, lambda x: (x + 1) ** 2) is None


def test_an_argument_added_after_a_call_instead_of_inside_is_named():
    (found,) = _named(activated, lambda x, b: tanh(x * 2.0) + b)
    assert found[0] == "`b` added after `tanh` instead of inside it"
    assert "tanh(...) + b" in found[1] and "tanh(... + b)" in found[1]


@pytest.mark.parametrize("reference, learner, moved", [
    (activated_bias_first, lambda x, b: tanh(x * 2.0) + b, "b"),   # the argument on the left of the sum
    (activated_bias_first, lambda x, b: b + tanh(x * 2.0), "b"),
    (summed, lambda x, b: tanh(x) + b, "b"),                        # both sides arguments: each is tried
    (summed, lambda x, b: tanh(b) + x, "x"),
])
def test_an_argument_on_either_side_of_the_sum_is_named(reference, learner, moved):
    (found,) = _named(reference, learner)
    assert found[0] == f"`{moved}` added after `tanh` instead of inside it"


def test_a_call_through_a_module_is_read_as_one_by_name():
    """np.sqrt(x * x + b): each kind of change is still tried around it, the outside one too."""
    (found,) = _named(rooted, lambda x, b: (np.sqrt(x * x) + b) * 0.5)
    assert found[0] == "`b` added after `np.sqrt` instead of inside it"
    assert "np.sqrt(...) + b" in found[1]
    (found,) = _named(rooted, lambda x, b: np.sqrt(x * x + b) * 5.0)
    assert found[0] == "the constant 5 where 0.5 belongs (ten times it)"


def test_a_constant_inside_the_call_is_still_tried_there():
    (found,) = _named(activated, lambda x, b: tanh(x * 20.0 + b))
    assert found[0] == "the constant 20 where 2 belongs (ten times it)"


def test_two_changes_that_fit_equally_name_neither():
    """x * 0.3 * 0.3 with one 0.3 inverted: either could be the one, so nothing is said."""
    assert _named(twice_scaled, lambda x: x * 0.3 / 0.3) is None


def test_a_change_must_reproduce_the_cases_that_pass_too():
    """Wrong (x / 0.3) only where x sums above 0: the inverse fits the failing cases, not the rest."""
    def learner(x):
        return x / 0.3 if x.sum() > 0 else x * 0.3
    assert _named(scaled, learner) is None
    assert _named(scaled, lambda x: x / 0.3) is not None


def test_the_answers_are_compared_within_the_case_s_tolerance():
    near = _named(scaled, lambda x: x * (1 / 0.3) * (1 + 1e-9))
    far = _named(scaled, lambda x: x * (1 / 0.3) * (1 + 1e-3))
    assert near is not None and far is None


@pytest.mark.parametrize("reference", [
    decorated,                       # a decorator: not the function's own source
    functools.partial(scaled),       # not a Python function
    lambda x: x * 0.3,               # no def to rebuild
    (lambda c: (lambda x: x * c))(0.3),   # a closure: its constant is not in its source
])
def test_a_reference_that_cannot_be_rebuilt_alone_names_nothing(reference):
    assert _named(reference, lambda x: x / 0.3) is None


def test_it_stays_silent_where_it_does_not_apply():
    cases = [Case({"x": x}) for x in XS]
    expected = [scaled(x) for x in XS]
    wrong = [x / 0.3 for x in XS]
    everywhere = list(range(len(XS)))
    assert constant_changed(_exercise(scaled), cases, wrong, expected, everywhere) is not None
    assert constant_changed(_exercise(scaled), cases, wrong, expected, []) is None
    assert constant_changed(_exercise(scaled, judge=lambda *a: None), cases, wrong, expected, everywhere) is None
    assert constant_changed(_exercise(None), cases, wrong, expected, everywhere) is None
    raised = wrong[:1] + [Raised("ValueError", "no", ("ValueError",))] + wrong[2:]
    assert constant_changed(_exercise(scaled), cases, raised, expected, everywhere) is None
    refusing = cases[:1] + [Case({"x": XS[1]}, raises="ValueError")] + cases[2:]
    assert constant_changed(_exercise(scaled), refusing, wrong, expected, everywhere) is None
    # a case meant to raise is not judged here, but the others still are
    assert constant_changed(_exercise(scaled), refusing, wrong, expected, [0, 2]) is not None


def test_the_relations_are_distinct_on_a_typical_constant():
    """Each relation moves 0.3 somewhere else, so one name fits one answer."""
    values = [wrong(0.3) for _, wrong in RELATIONS]
    assert all(not math.isclose(v, 0.3) for v in values)
    assert len({round(v, 9) for v in values}) == len(values)

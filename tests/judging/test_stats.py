"""stats.py's init_judge called directly on small dicts of tensors: a random tensor given as a
constant is told so (not a crash of the judge), beside the rules that keep a right draw passing."""
from __future__ import annotations

import numpy as np

from grader.judging.registry import Case
from grader.judging.stats import init_judge

CASE = Case({"seed": 0})


def _expected(seed=0):
    rng = np.random.default_rng(seed)
    return {"w": rng.normal(0, 0.02, (64, 16)).astype(np.float32), "h.0.bias": np.zeros(16, np.float32)}


def test_a_right_draw_from_another_seed_passes():
    assert init_judge(_expected(1), CASE, _expected(0), 1e-6) is None


def test_a_random_tensor_filled_with_a_constant_is_told_it_should_be_random():
    for fill in (0.0, 0.02):
        answer = _expected(1) | {"w": np.full((64, 16), fill, np.float32)}
        reason = init_judge(answer, CASE, _expected(0), 1e-6)
        assert reason == f"'w' is constant; it should be random with std about {_expected(0)['w'].std():.4f}", reason


def test_a_constant_tensor_of_the_wrong_value_names_its_rule():
    answer = _expected(1) | {"h.0.bias": np.ones(16, np.float32)}
    assert init_judge(answer, CASE, _expected(0), 1e-6) == "'h.0.bias' is not constant: biases start at exactly 0"

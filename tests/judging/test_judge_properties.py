"""The judge's comparison as properties (Hypothesis), where examples are thin: an answer equal
to the expected one up to the stated tolerance passes; one that differs beyond it in any
element, or in length, dtype, shape or type, fails. Bounded in examples and time."""
import numpy as np
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from grader.judging.compare import value_mismatch

TOL = 1e-8
FAST = settings(max_examples=150, deadline=None)
FLOATS = st.sampled_from([np.float32, np.float64])
SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=5)


@st.composite
def expected_arrays(draw):
    dtype = draw(FLOATS)
    elements = st.floats(-1e6, 1e6, allow_nan=False, width=32 if dtype == np.float32 else 64)
    array = draw(hnp.arrays(dtype, draw(SHAPES), elements=elements))
    return np.asarray(array if np.abs(array).max() > 1e-3 else array + dtype(1), dtype)  # a scale to be relative to


def scale_of(expected):
    return float(np.abs(expected.astype(np.float64)).max())


@FAST
@given(expected_arrays(), st.data())
def test_an_answer_within_the_tolerance_passes(expected, data):
    tol = 1e-4 if expected.dtype == np.float32 else TOL
    # an answer off by just under the tolerance anywhere (float32 rounding is far smaller)
    noise = data.draw(hnp.arrays(np.float64, expected.shape, elements=st.floats(-0.99, 0.99)))
    answer = np.asarray(expected.astype(np.float64) + noise * tol * scale_of(expected), expected.dtype)
    assert value_mismatch(answer, expected, tol) is None


@FAST
@given(expected_arrays(), st.data())
def test_one_element_beyond_the_tolerance_fails(expected, data):
    tol = 1e-4 if expected.dtype == np.float32 else TOL
    index = tuple(data.draw(st.integers(0, n - 1)) for n in expected.shape)
    answer = expected.copy()
    answer[index] = expected[index] + expected.dtype.type(data.draw(st.sampled_from([-1, 1])) * data.draw(st.floats(1.01, 1e3)) * tol * scale_of(expected))
    assert value_mismatch(answer, expected, tol) is not None


@FAST
@given(expected_arrays(), st.data())
def test_another_shape_dtype_type_or_length_fails(expected, data):
    other_dtype = np.float64 if expected.dtype == np.float32 else np.float32
    wrong = [expected.astype(other_dtype), expected.reshape(-1, 1) if expected.ndim != 2 or expected.shape[1] != 1
             else expected.reshape(-1), expected.tolist(), np.append(expected.ravel(), expected.dtype.type(0))]
    for answer in wrong:
        assert value_mismatch(answer, expected, TOL) is not None, answer
    pair = (expected, expected)
    n = data.draw(st.sampled_from([1, 3]))
    assert value_mismatch((expected,) * n, pair, TOL) is not None
    assert value_mismatch(pair, pair, TOL) is None


@FAST
@given(expected_arrays(), st.sampled_from([np.nan, np.inf, -np.inf]), st.data())
def test_a_non_finite_value_where_a_finite_one_is_expected_fails(expected, bad, data):
    index = tuple(data.draw(st.integers(0, n - 1)) for n in expected.shape)
    answer = expected.copy()
    answer[index] = bad
    assert value_mismatch(answer, expected, TOL) is not None

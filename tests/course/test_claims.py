"""gpt2course/claims.py: a passing claim is silent, a failing one names its sentence and condition."""
import numpy as np
import pytest

from gpt2course.claims import claim


def test_a_passing_claim_prints_nothing_and_returns_none(capsys):
    assert claim("two and two make four", 2 + 2 == 4, True, 1, [0]) is None
    assert claim("a claim with no conditions holds") is None
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("conditions, position", [
    ((False,), 1),
    ((True, 0, True), 2),
    ((True, True, []), 3),
    ((True, False, False), 2),          # the first that fails is named
], ids=["only", "middle", "last", "first-of-two"])
def test_a_failing_claim_names_its_sentence_and_the_condition(conditions, position):
    with pytest.raises(AssertionError) as info:
        claim("the rows sum to one", *conditions)
    message = str(info.value)
    assert message.startswith("claim failed: the rows sum to one")
    assert f"condition {position} of {len(conditions)}" in message


def test_numpy_bools_work(capsys):
    a = np.arange(4.0)
    assert claim("NumPy comparisons", np.all(a >= 0), np.array_equal(a, a), np.bool_(True), a[1] == 1.0) is None
    assert capsys.readouterr() == ("", "")
    with pytest.raises(AssertionError, match=r"claim failed: sorted \(condition 2 of 2"):
        claim("sorted", np.all(a >= 0), np.all(np.diff(a) < 0))
    with pytest.raises(AssertionError, match="condition 1 of 1"):
        claim("a NumPy false", np.bool_(False))


def test_an_array_of_several_values_is_refused_as_an_assert_refuses_it():
    with pytest.raises(ValueError, match="ambiguous"):
        claim("every entry is positive", np.arange(1.0, 4.0) > 0)


@pytest.mark.parametrize("sentence", [None, True, 3, b"bytes", ["a list"]])
def test_a_sentence_that_is_not_a_str_is_a_type_error(sentence):
    with pytest.raises(TypeError, match="sentence"):
        claim(sentence, True)

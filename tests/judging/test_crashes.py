"""crashes.py's readings of NumPy's own crash messages, called directly: each named where the
message and the inputs' shapes fit one reading on every failing case, and silent where the raise
is the learner's own, where one crash fits no reading, or where an axis only broadcasts."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from grader.judging.crashes import input_used_whole, size_from_another_axis, size_from_the_data
from grader.judging.outcomes import Raised
from grader.judging.registry import Case
from grader.judging.sampling_judge import draws_judge, one_draw_for_all_rows

EXERCISE = SimpleNamespace(tolerance=1e-6, judge=None, reference=None, mistakes=[])


def _crash(message, own=False):
    return Raised("ValueError", ("ValueError", "Exception"), message, own)


# ------------------------------------------------------------------ size_from_another_axis
def test_an_array_sized_by_the_wrong_axis_is_named_from_numpy_s_crash_only():
    cases = [Case({"wte": np.zeros((10, 4))}), Case({"wte": np.zeros((12, 6))})]
    crashes = ["index 7 is out of bounds for axis 0 with size 4", "index 9 is out of bounds for axis 0 with size 6"]
    expected = [np.zeros(1), np.zeros(1)]
    found = size_from_another_axis(EXERCISE, cases, [_crash(m) for m in crashes], expected, [0, 1])
    assert found[0][0] == "an array sized `wte.shape[1]` where `wte.shape[0]` belongs"
    # the same words raised by the learner's own check (an assert, a raise): not NumPy's crash
    for own in (True, None):
        answers = [_crash(m, own=own) for m in crashes]
        assert size_from_another_axis(EXERCISE, cases, answers, expected, [0, 1]) is None


# ------------------------------------------------------------------ input_used_whole
def _broadcast(a, b):
    return _crash(f"operands could not be broadcast together with shapes {a} {b} ")


def test_a_table_used_whole_is_named_though_the_other_operand_broadcasts_on_another_axis():
    """wpe (8, 4) against an operand of shape (3, 1): only axis 0 mismatches; the length-1 axis
    broadcasts and is no second mismatch."""
    cases = [Case({"wpe": np.zeros((8, 4)), "x": np.zeros((3, 1))})]
    found = input_used_whole(EXERCISE, cases, [_broadcast("(8,4)", "(3,1)")], [np.zeros((3, 4))], [0])
    assert found[0][0] == "all of `wpe` used where its first rows belong"


def test_a_table_used_whole_is_not_named_when_one_crash_fits_no_reading():
    cases = [Case({"wpe": np.zeros((8, 4)), "x": np.zeros((3, 4))}),
             Case({"wpe": np.zeros((9, 4)), "x": np.zeros((5, 4))})]
    expected = [np.zeros((3, 4)), np.zeros((5, 4))]
    fits = [_broadcast("(8,4)", "(3,4)"), _broadcast("(9,4)", "(5,4)")]
    assert input_used_whole(EXERCISE, cases, fits, expected, [0, 1])[0][0] == \
        "all of `wpe` used where its first rows belong"
    other = [fits[0], _broadcast("(7,2)", "(5,3)")]   # shapes of no input: no reading on this case
    assert input_used_whole(EXERCISE, cases, other, expected, [0, 1]) is None


# ------------------------------------------------------------------ one_draw_for_all_rows
def test_one_id_drawn_everywhere_is_not_read_as_one_draw_for_all_rows():
    """NaN probabilities draw id 0 on every row of every test: no draw at all, not a shared one."""
    exercise = SimpleNamespace(judge=draws_judge)
    logits = [np.tile([0.0, 1.0, 3.0, 0.5], (6, 1)), np.tile([2.0, 0.0, 4.0], (5, 1))]
    cases = [Case({"logits": x}) for x in logits]
    expected = [np.array([2, 1, 2, 3, 2, 0]), np.array([2, 2, 0, 2, 1])]
    zeros = [np.zeros(len(x), dtype=np.int64) for x in logits]
    assert one_draw_for_all_rows(exercise, cases, zeros, expected, [0, 1]) is None
    shared = [np.full(6, 1), np.full(5, 0)]   # a shared draw lands on other ids on other tests
    assert one_draw_for_all_rows(exercise, cases, shared, expected, [0, 1])[0][0] == \
        "one random number for all the rows"


def test_a_negative_index_is_read_by_its_size():
    """index -7 on a length-4 axis: the index runs up to 7, so only an axis longer than 7 (wte's
    axis 0, 10 long; not axis 2, 5 long) is the size it needed."""
    cases = [Case({"wte": np.zeros((10, 4, 5))})]
    answers = [_crash("index -7 is out of bounds for axis 0 with size 4")]
    found = size_from_another_axis(EXERCISE, cases, answers, [np.zeros(1)], [0])
    assert found[0][0] == "an array sized `wte.shape[1]` where `wte.shape[0]` belongs"


def test_an_axis_as_long_as_the_index_is_not_the_size_it_needed():
    """index 7 is out of bounds for an axis 7 long as well: only wte's axis 0 (10 long) fits."""
    cases = [Case({"wte": np.zeros((10, 4, 7))})]
    answers = [_crash("index 7 is out of bounds for axis 0 with size 4")]
    found = size_from_another_axis(EXERCISE, cases, answers, [np.zeros(1)], [0])
    assert found[0][0] == "an array sized `wte.shape[1]` where `wte.shape[0]` belongs"


# ------------------------------------------------------------------ size_from_the_data
def test_a_size_read_off_the_ids_is_named_only_where_no_input_has_that_size():
    idx = np.array([0, 5, 2])          # idx.max() + 1 = 6 meets wte's 10 rows in the crash
    crash = [_broadcast("(3,6)", "(3,10)")]
    alone = [Case({"wte": np.zeros((10, 4)), "wpe": np.zeros((8, 4)), "idx": idx})]
    found = size_from_the_data(EXERCISE, alone, crash, [np.zeros((3, 4))], [0])
    assert found[0][0] == "a size taken from the ids (`idx.max() + 1`) where `wte.shape[0]` belongs"
    # wpe 6 rows long: the 6 in the crash may be wpe's size as well, so nothing is named
    both = [Case({"wte": np.zeros((10, 4)), "wpe": np.zeros((6, 4)), "idx": idx})]
    assert size_from_the_data(EXERCISE, both, crash, [np.zeros((3, 4))], [0]) is None

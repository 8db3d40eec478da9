"""A graded learner as Gradescope's results.json (grader/gradescope/results.py), format per
https://gradescope-autograders.readthedocs.io/en/latest/specs/ ("Output format")."""
import pytest

from grader.batch.records import Exercises, Submission
from grader.gradescope.results import VISIBILITIES, not_graded, results
from grader.judging.judge import Verdict


def test_each_exercise_of_the_assignment_is_a_test_in_plain_words():
    exercises = Exercises({"embed": 2}, ["01_embeddings", "02_attention"])
    message = "failed 1 of 3 tests; first failure (public example 1): values differ\n  \x1b[31mred\u202e\n  Likely mistake: x"
    sub = Submission("s", lessons=["01_embeddings"], verdicts=[
        Verdict("embed", "failed", 2, 3, 1.3333, 2.0, message), Verdict("one_hot_embed", "passed", 7, 7, 1.0, 1.0,
                                                                        "passed all 7 tests")])
    found = results(sub, exercises, "after_due_date", extra={"isolation": "uid"}, execution_time=3.2)
    assert [(t["name"], t["number"], t["score"], t["max_score"], t["status"]) for t in found["tests"]] == [
        ("01_embeddings: embed", "1.1", 1.3333, 2.0, "failed"),
        ("01_embeddings: one_hot_embed", "1.2", 1.0, 1.0, "passed"),
        ("02_attention: layer_norm", "2.1", 0.0, 1.0, "failed"),
        ("02_attention: causal_self_attention", "2.2", 0.0, 1.0, "failed")]
    assert found["score"] == 2.3333 and found["execution_time"] == 3 and found["extra_data"] == {"isolation": "uid"}
    assert {t["visibility"] for t in found["tests"]} == {found["visibility"]} == {"after_due_date"}
    embed = found["tests"][0]["output"].splitlines()
    assert embed[0] == "embed: 1.33 / 2 (failed)" and embed[2] == "embed: FAILED, failed 1 of 3 tests."
    assert "[31mred" in embed and "Likely mistake: x." in embed   # check()'s own text, made inert
    assert not any(c in found["tests"][0]["output"] for c in "\x1b\u202e")
    assert found["tests"][2]["output"].startswith("No notebook for lesson 02_attention was found")
    assert "Problems: no notebook graded for lesson 02_attention" in found["output"]
    assert "2.33 / 5 points" in found["output"] and "`" not in found["output"]


def test_a_visibility_gradescope_does_not_know_is_refused():
    with pytest.raises(ValueError, match="visibility"):
        results(Submission("s"), Exercises(None, ["01_embeddings"]), "students")
    assert set(VISIBILITIES) == {"hidden", "after_due_date", "after_published", "visible"}


def test_nothing_graded_is_score_zero_with_no_tests():
    found = not_graded("why\n")
    assert (found["score"], found["tests"], found["output"]) == (0.0, [], "why\n")

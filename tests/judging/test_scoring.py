"""Credit only for computation (issue 18): what the batch's points count, and what a case
that must raise needs."""
import numpy as np

from grader.judging import registry
from grader.judging.answers import reference_answers
from grader.judging.compare import MAX_RAISE_MESSAGE
from grader.judging.judge import judge
from grader.judging.outcomes import Raised

EMBED = registry.get("embed")
CASES = EMBED.cases(hidden=True)
EXPECTED = reference_answers(EMBED, CASES)


def _answers(public, hidden):
    return [public(i, c) if c.public else hidden(i, c) for i, c in enumerate(CASES)]


def right(i, case):
    return EXPECTED[i]


def wrong(i, case):
    return np.zeros(1)


def test_public_examples_count_in_check_but_not_in_the_batch():
    answers = _answers(right, wrong)  # the public answers ship with the student edition
    assert judge(EMBED, CASES, answers, EXPECTED).points > 0
    assert judge(EMBED, CASES, answers, EXPECTED, hidden_only=True).points == 0


def test_the_batch_counts_each_hidden_case():
    hidden = [i for i, c in enumerate(CASES) if not c.public and not c.raises]
    first = hidden[0]
    answers = _answers(wrong, lambda i, c: wrong(i, c) if i == first else EXPECTED[i])
    n_hidden = sum(not c.public for c in CASES)
    points = judge(EMBED, CASES, answers, EXPECTED, hidden_only=True).points
    assert points == round(EMBED.points * (n_hidden - 1) / n_hidden, 4)


def raise_everywhere(message, type_name="ValueError", bases=("ValueError", "Exception")):
    return lambda i, case: Raised(type_name, bases + ("BaseException", "object"), message)


def test_raising_on_every_input_earns_nothing():
    assert any(c.raises and not c.public for c in CASES)
    numbers = "sequence length 1025 exceeds the block size 1024 " + " ".join(map(str, range(64)))
    answers = _answers(raise_everywhere(numbers), raise_everywhere(numbers))
    assert judge(EMBED, CASES, answers, EXPECTED, hidden_only=True).points == 0


def test_a_case_that_must_raise_wants_the_named_type_itself_and_a_sentence():
    from grader.judging.compare import case_mismatch

    i, case = next((i, c) for i, c in enumerate(CASES) if c.raises)
    T, block = case.args["idx"].shape[-1], case.args["wpe"].shape[0]
    base_message = f"sequence length {T} exceeds the block size {block}"
    good = Raised("ValueError", ("ValueError", "Exception", "BaseException", "object"), base_message)
    assert case_mismatch(good, EXPECTED[i], case, 1e-8) is None
    sub = Raised("Universal", ("Universal", "ValueError", "TypeError", "IndexError", "Exception"), base_message)
    assert "a subclass; raise ValueError itself" in case_mismatch(sub, EXPECTED[i], case, 1e-8)
    bag = Raised("ValueError", good.bases, base_message + " " + "x" * MAX_RAISE_MESSAGE)
    assert "at most" in case_mismatch(bag, EXPECTED[i], case, 1e-8)


def test_an_error_message_must_mention_every_number_asked_for():
    """The embed case asks for the sequence length and the block size: naming one of them is not enough."""
    from grader.judging.compare import case_mismatch, mentions_all

    assert mentions_all("length 1025 is more than 1024", ("1025", "1024"))
    assert not mentions_all("length 1025 is too long", ("1025", "1024"))
    i, case = next((i, c) for i, c in enumerate(CASES) if c.raises and len(c.mention) >= 2)
    only_first = Raised("ValueError", ("ValueError", "Exception", "BaseException", "object"),
                        f"bad input: {case.mention[0].split('|')[0]}")
    assert "does not say what was wrong" in case_mismatch(only_first, EXPECTED[i], case, 1e-8)


def test_a_learner_s_own_subclass_of_the_error_is_named_a_subclass():
    """raised_from keeps the exception's bases, so the learner hears to raise ValueError itself."""
    from grader.judging.compare import case_mismatch
    from grader.judging.outcomes import raised_from

    class BlockSizeError(ValueError):
        pass

    i, case = next((i, c) for i, c in enumerate(CASES) if c.raises)
    T, block = case.args["idx"].shape[-1], case.args["wpe"].shape[0]
    raised = raised_from(BlockSizeError(f"sequence length {T} exceeds the block size {block}"))
    assert raised.type_name == "BlockSizeError" and "ValueError" in raised.bases
    assert "a subclass; raise ValueError itself" in case_mismatch(raised, EXPECTED[i], case, 1e-8)

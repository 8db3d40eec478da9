"""One line per stated fact: the lessons' checks, worded as the lesson says them.

A lesson prints a number and says what it means; ``claim`` keeps that sentence
true on every run (nbval, a learner's kernel) without the plumbing of a row of
asserts. The caller evaluates each condition itself, so every comparison and
tolerance stays in the lesson, in plain sight; this module only decides what a
failure says.
"""
from __future__ import annotations


def claim(sentence: str, *conditions) -> None:
    """Raise AssertionError naming ``sentence`` and the first falsy condition; else nothing.

    Conditions are positional and numbered from 1, as a reader counts the
    arguments after the sentence. NumPy bools (``np.bool_``) and anything else
    with a truth value are accepted: ``bool(c)`` is what an ``assert c`` tested.
    A passing claim prints nothing and returns None, so stored outputs stay
    exactly what the lesson prints.
    """
    # a sentence that is not a string is a slip (arguments in the wrong order):
    # say so at once, not only on the run where a condition fails
    if not isinstance(sentence, str):
        raise TypeError(f"claim's first argument is the sentence, a str, not {type(sentence).__name__}")
    for position, condition in enumerate(conditions, start=1):
        # bool(): an array of several values refuses, as it would in an assert
        if not bool(condition):
            raise AssertionError(f"claim failed: {sentence} (condition {position} of {len(conditions)} is false)")

"""Answers written the way learners write them, independently of the catalogue's variants.

One module per lesson. Each exercise has a few correct answers in different styles (loops,
einsum, other names, torch where the exercise allows it); each catalogued mistake is written
into several of those styles as the edit a learner would make there, sometimes with a second
gap beside it (a missing error check, a float64 upcast); and a few bugs the catalogue does not
hold. A mistake's name is a catalogued one, or what a diagnosis names (grader/judging/diagnoses.py:
"wpe rows shifted by one", "off by a constant factor 2"); such answers were uncatalogued bugs before
the diagnoses existed. tests/judging/test_learner_corpus.py judges them all, as check() and as the
batch grader do.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Answer:
    exercise: str
    label: str
    source: str
    names: tuple[str, ...] = ()   # the mistakes to be named (none: correct, or a bug not catalogued)
    kind: str = "mistake"         # "mistake" | "correct" | "uncatalogued"

    def function(self):
        """The learner's function, defined in a namespace of its own as a notebook would."""
        namespace = {"np": np, "math": math}
        exec(compile(self.source, f"<learner: {self.label}>", "exec"), namespace)
        return namespace[self.exercise]


class Lesson:
    """Collects one lesson's answers: styles first, then edits of them."""

    def __init__(self):
        self.answers: list[Answer] = []
        self._styles: dict[str, list[str]] = {}

    def styles(self, exercise: str, *sources: str) -> None:
        """Correct answers, each a style the mistakes below are written into (by index)."""
        self._styles[exercise] = list(sources)
        for k, source in enumerate(sources):
            self.answers.append(Answer(exercise, f"{exercise}: correct, style {k}", source, (), "correct"))

    def correct(self, exercise: str, label: str, source: str) -> None:
        self.answers.append(Answer(exercise, f"{exercise}: correct, {label}", source, (), "correct"))

    def uncatalogued(self, exercise: str, label: str, *edits) -> None:
        """A bug no catalogued mistake explains: a source, or edits of a style."""
        source = edits[0] if len(edits) == 1 and isinstance(edits[0], str) else self._edit(exercise, edits)
        self.answers.append(Answer(exercise, f"{exercise}: uncatalogued, {label}", source, (), "uncatalogued"))

    def mistake(self, exercise: str, names, *forms) -> None:
        """``names``: one mistake's name, or a tuple of the names to be given together. Each form
        is (style, old, new), (style, [(old, new), ...]) or a whole source."""
        names = (names,) if isinstance(names, str) else tuple(names)
        done = sum(a.exercise == exercise and a.names == names for a in self.answers)
        for k, form in enumerate(forms, start=done):
            source = form if isinstance(form, str) else self._edit(exercise, [form])
            self.answers.append(Answer(exercise, f"{exercise}: {' + '.join(names)}, form {k}", source, names))

    def _edit(self, exercise: str, edits) -> str:
        style = edits[0][0]
        source = self._styles[exercise][style]
        changes = edits[0][1] if isinstance(edits[0][1], list) else [(edits[0][1], edits[0][2])]
        for old, new in changes:
            if source.count(old) != 1:
                raise ValueError(f"{exercise} style {style}: {old!r} occurs {source.count(old)} times")
            source = source.replace(old, new)
        return source

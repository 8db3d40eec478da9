"""The learner corpus (tests/judging/learner_corpus/) through the judge, as check() runs it and as the
batch grader does (answers across the wire, the course's answers computed once per exercise).

A wrong name is worse than none: a correct answer passes unnamed, a bug the catalogue does not
hold fails unnamed, and a mistake is never given a name it is not. Recall (catalogued mistakes
named, over all of them) is printed and must be at least 90% on each path.
"""
from __future__ import annotations

import functools
import importlib
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from grader.batch.sandbox.results import _answer
from grader.checking.check import evaluate, reference_pieces
from grader.judging import registry, wire
from grader.judging.answers import call_answer, mistake_answers_for, reference_answers
from grader.judging.judge import Raised, judge
from grader.judging.outcomes import Broken, ChangedInputs, NotAttempted

LESSONS = sorted(p.stem for p in (Path(__file__).parent / "learner_corpus").glob("l0*.py"))
ANSWERS = [a for lesson in LESSONS for a in importlib.import_module(f"learner_corpus.{lesson}").LESSON.answers]
RECALL_TARGET = 0.9
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # overflow in learners' own code


@functools.lru_cache(maxsize=None)
def _course(name: str):
    """What the batch grader computes once per exercise: cases, the reference's and every
    mistake's answers."""
    ex = registry.get(name)
    cases = ex.cases()
    return ex, cases, reference_answers(ex, cases), mistake_answers_for(ex, cases)


def _across_the_wire(answer, folder: str, prefix: str):
    """An answer as the batch child writes it and the grader reads it back."""
    if isinstance(answer, Raised):
        tree = {"raised": {"type": answer.type_name, "bases": list(answer.bases), "message": answer.message,
                           "own": answer.own}}   # as the batch child writes it (harness.py)
    elif isinstance(answer, NotAttempted):
        tree = {"not_implemented": True}
    elif isinstance(answer, ChangedInputs):
        tree = {"changed_inputs": list(answer.names)}
    elif isinstance(answer, Broken):
        return answer
    else:
        tree = {"value": wire.Encoder(folder, prefix)(answer)}
    return _answer(tree, wire.folder_loader(folder))


def batch_verdict(fn):
    ex, cases, expected, theirs = _course(fn.__name__)
    with reference_pieces(fn, ex.uses):
        answers = [call_answer(fn, c) for c in cases]
    with tempfile.TemporaryDirectory() as folder:
        answers = [_across_the_wire(a, folder, f"a{i}") for i, a in enumerate(answers)]
    return judge(ex, cases, answers, expected, theirs)


PATHS = {"check": evaluate, "batch": batch_verdict}


@functools.lru_cache(maxsize=None)
def verdict(label: str, path: str):
    answer = BY_LABEL[label]
    return PATHS[path](answer.function())


BY_LABEL = {a.label: a for a in ANSWERS}
assert len(BY_LABEL) == len(ANSWERS), "two corpus answers share a label"
CORRECT = [a for a in ANSWERS if a.kind == "correct"]
UNCATALOGUED = [a for a in ANSWERS if a.kind == "uncatalogued"]
MISTAKES = [a for a in ANSWERS if a.kind == "mistake"]


def _params(answers):
    return [pytest.param(a.label, id=a.label) for a in answers]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("label", _params(CORRECT))
def test_correct_answer_passes_unnamed(label, path):
    v = verdict(label, path)
    assert v.status == "passed" and v.mistakes == [], v.message


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("label", _params(UNCATALOGUED))
def test_uncatalogued_bug_fails_unnamed(label, path):
    v = verdict(label, path)
    assert v.status == "failed" and v.points < v.max_points, v.message
    assert v.mistakes == [] and "Likely mistake" not in v.message, v.message


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("label", _params(MISTAKES))
def test_mistake_fails_and_is_never_misnamed(label, path):
    """Named exactly, or not at all (a recall miss, counted below); never another name."""
    v = verdict(label, path)
    assert v.status == "failed", v.message
    assert set(v.mistakes) <= set(BY_LABEL[label].names), v.message


@pytest.mark.parametrize("path", PATHS)
def test_recall_on_the_corpus(path, capsys):
    named = [a for a in MISTAKES if set(verdict(a.label, path).mistakes) == set(a.names)]
    missed = [a.label for a in MISTAKES if a not in named]
    recall = len(named) / len(MISTAKES)
    with capsys.disabled():
        print(f"\nlearner corpus, {path}: {len(named)} of {len(MISTAKES)} catalogued mistakes named "
              f"({recall:.1%}); {len(CORRECT)} correct answers, {len(UNCATALOGUED)} uncatalogued bugs")
    assert recall >= RECALL_TARGET, "not named:\n" + "\n".join(missed)


def test_every_catalogued_mistake_has_three_forms():
    forms = Counter((a.exercise, n) for a in MISTAKES for n in a.names)
    few = [f"{ex.name}: {m.name} ({forms[ex.name, m.name]})" for ex in registry.load_all().values()
           for m in ex.mistakes if forms[ex.name, m.name] < 3]
    assert not few, "fewer than three forms:\n" + "\n".join(few)


def test_every_exercise_has_correct_answers_in_several_styles_and_uncatalogued_bugs():
    for ex in registry.load_all().values():
        assert sum(a.exercise == ex.name for a in CORRECT) >= 2, ex.name
        assert sum(a.exercise == ex.name for a in UNCATALOGUED) >= 1, ex.name

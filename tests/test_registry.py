"""Registry-wide rules every exercise must follow: hints, public and hidden cases,
the reference's answers, and what the student edition (public cases only) can see."""
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

from grader.judging import registry
from grader.judging.registry import _arrays  # the walk Case.tolerance uses
from grader.judging.judge import Broken, NotAttempted, Raised, call_answer, case_mismatch, judge, reference_answers

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = list(registry.load_all().values())
BY_NAME = {e.name: e for e in EXERCISES}
MIN_SOLUTION_LINE = 15


def _solution_lines() -> dict[str, list[str]]:
    """Stripped lines between the markers of every exercise cell, by function name."""
    lines: dict[str, list[str]] = {}
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code" or "exercise" not in cell.metadata.get("tags", []):
                continue
            match = re.search(r"^def (\w+)\(", cell.source, re.M)
            inside, body = False, []
            for line in cell.source.splitlines():
                if line.strip() == "### BEGIN SOLUTION":
                    inside = True
                elif line.strip() == "### END SOLUTION":
                    inside = False
                elif inside:
                    body.append(line.strip())
            if match:
                lines[match.group(1)] = body
    return lines


SOLUTIONS = _solution_lines()


def _dtypes(cases) -> set:
    return {a.dtype for c in cases for a in _arrays(c.args) if a.dtype.kind == "f"}


def _public(ex):
    return ex.cases(hidden=False)


def _hidden(ex):
    return [c for c in ex.cases(hidden=True) if not c.public]


F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
FLOAT32_EXERCISES = [e for e in EXERCISES if F32 in _dtypes(_hidden(e))]
IDX_EXERCISES = [e for e in EXERCISES if any("idx" in c.args for c in e.cases())]
params = pytest.mark.parametrize


# ------------------------------------------------------------------ hints
@params("exercise", EXERCISES, ids=lambda e: e.name)
def test_three_to_five_distinct_hints(exercise):
    hints = exercise.hints
    assert isinstance(hints, tuple) and 3 <= len(hints) <= 5, f"{len(hints)} hints"
    assert all(isinstance(h, str) and h.strip() for h in hints)
    assert len({h.strip() for h in hints}) == len(hints), "two hints are the same"


@params("exercise", EXERCISES, ids=lambda e: e.name)
def test_hints_are_plain_paragraphs(exercise):
    for hint in exercise.hints:
        assert "\n" not in hint.strip(), "one short paragraph per hint"
        assert not hint.lstrip().startswith("#"), "no Markdown headings"
        assert hint.count("`") % 2 == 0, "unbalanced inline code"
        for code in re.findall(r"`([^`]*)`", hint):
            assert not re.search(r"\breturn\b", code), f"a return statement in a hint: {code!r}"


def _squash(text: str) -> str:
    return " ".join(text.split())


def _quotable(line: str) -> set[str]:
    """The stripped line, and its code without a trailing comment, whitespace collapsed."""
    forms = {_squash(line), _squash(line.split("  #")[0])}
    return {f for f in forms if len(f) >= MIN_SOLUTION_LINE}


@params("exercise", EXERCISES, ids=lambda e: e.name)
def test_hints_never_quote_the_solution(exercise):
    assert exercise.name in SOLUTIONS, "no exercise cell with solution markers in solutions/"
    lines = [ln for ln in SOLUTIONS[exercise.name] if len(ln) >= MIN_SOLUTION_LINE]
    assert lines, "the solution has no non-trivial line to compare with"
    for i, hint in enumerate(exercise.hints):
        for line in lines:
            assert line not in hint, f"hint {i + 1} contains the solution line {line!r}"
            for form in _quotable(line):
                assert form not in _squash(hint), f"hint {i + 1} contains the solution code {form!r}"


def test_returns_name_the_items_of_a_returned_tuple():
    assert BY_NAME["tied_lm_loss_and_grad"].returns == ("loss", "dE")
    for ex in EXERCISES:
        if ex.returns:
            answer = call_answer(ex.reference, _public(ex)[0])
            assert isinstance(answer, tuple) and len(answer) == len(ex.returns), ex.name


# ------------------------------------------------------------------ cases
@params("exercise", FLOAT32_EXERCISES, ids=lambda e: e.name)
def test_public_cases_cover_both_float_dtypes(exercise):
    """The student edition runs only the public cases: a dtype rule must be visible there."""
    assert {F32, F64} <= _dtypes(_public(exercise))


def _upcast(value):
    if isinstance(value, np.ndarray) and value.dtype == F32:
        return value.astype(np.float64)
    if isinstance(value, tuple):
        return tuple(_upcast(v) for v in value)
    if isinstance(value, dict):
        return {k: _upcast(v) for k, v in value.items()}
    return value


@params("exercise", FLOAT32_EXERCISES, ids=lambda e: e.name)
def test_public_cases_catch_a_float64_answer_for_float32_inputs(exercise):
    """E.g. gpt_logits giving float64 logits, or dE upcast to float64, for float32 parameters."""
    def upcasting(**kwargs):
        return _upcast(exercise.reference(**kwargs))

    public = _public(exercise)
    answers = [call_answer(upcasting, c) for c in public]
    verdict = judge(exercise, public, answers, reference_answers(exercise, public))
    assert verdict.status == "failed" and "dtype" in verdict.message


@params("exercise", EXERCISES, ids=lambda e: e.name)
def test_at_least_five_hidden_cases(exercise):
    assert len(_hidden(exercise)) >= 5


@params("exercise", IDX_EXERCISES, ids=lambda e: e.name)
def test_token_ids_both_unbatched_and_batched(exercise):
    ndims = {c.args["idx"].ndim for c in _hidden(exercise) if not c.raises}
    assert {1, 2} <= ndims


def test_embed_too_long_both_unbatched_and_batched():
    too_long = [c for c in _hidden(BY_NAME["embed"]) if c.raises == "ValueError"]
    assert {1, 2} <= {c.args["idx"].ndim for c in too_long}
    for c in too_long:
        assert c.args["idx"].shape[-1] > c.args["wpe"].shape[0]


@params("exercise", EXERCISES, ids=lambda e: e.name)
def test_reference_answers_every_case(exercise):
    """Not judge(reference, reference) alone, which is circular: the reference must
    give an answer on every case, and raise as required where a case says so."""
    cases = exercise.cases()
    for i, (case, answer) in enumerate(zip(cases, reference_answers(exercise, cases))):
        assert not isinstance(answer, (Broken, NotAttempted)), f"case {i + 1}: {answer!r}"
        if case.raises:
            assert isinstance(answer, Raised), f"case {i + 1} must raise {case.raises}"
            assert case_mismatch(answer, answer, case, case.tolerance(exercise.tolerance)) is None
        else:
            assert not isinstance(answer, Raised), f"case {i + 1}: {answer.describe()}"


MISTAKES = [pytest.param(ex, m, id=f"{ex.name}: {m.name}") for ex in EXERCISES for m in ex.mistakes]


@params("exercise, mistake", MISTAKES)
def test_each_mistake_fails_a_public_case(exercise, mistake):
    """What the student edition can see (for init_gpt, through its statistical judge)."""
    public = _public(exercise)
    answers = [call_answer(mistake.variant, c) for c in public]
    verdict = judge(exercise, public, answers, reference_answers(exercise, public))
    assert verdict.status != "passed"

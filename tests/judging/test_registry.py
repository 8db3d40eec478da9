"""Registry-wide rules every exercise must follow: hints, public and hidden cases,
the reference's answers, and what the student edition (public cases only) can see."""
import dataclasses
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import nbformat
import numpy as np
import pytest

from grader.judging import registry
from grader.judging.registry import arrays_in  # the walk Case.tolerance uses
from grader.judging.answers import call_answer, reference_answers
from grader.judging.compare import case_mismatch
from grader.judging.judge import Broken, NotAttempted, Raised, judge
from grader.judging.sampling_judge import scalar_judge
from support.hidden_configurations import HIDDEN

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = list(registry.load_all().values())
BY_NAME = {e.name: e for e in EXERCISES}
# exercises without arguments (bytes_to_unicode): one possible call, so no other hidden inputs to draw
NO_INPUTS = {e.name for e in EXERCISES if not any(c.args for c in e.cases())}
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
    return {a.dtype for c in cases for a in arrays_in(c.args) if a.dtype.kind == "f"}


def _public(ex):
    return ex.cases(hidden=False)


def _hidden(ex):
    return [c for c in ex.cases(hidden=True) if not c.public]


F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
FLOAT32_EXERCISES = [e for e in EXERCISES if F32 in _dtypes(_hidden(e))]
IDX_EXERCISES = [e for e in EXERCISES if any("idx" in c.args for c in e.cases())]
params = pytest.mark.parametrize


# ------------------------------------------------------------------ difficulty, importance, minutes
@params("exercise", EXERCISES, ids=lambda e: e.name)
def test_every_exercise_says_how_hard_how_important_and_how_long(exercise):
    assert exercise.difficulty in (1, 2, 3) and exercise.importance in (1, 2, 3)
    assert isinstance(exercise.minutes, int) and 5 <= exercise.minutes <= 120, "minutes for one exercise"


def test_importance_3_is_kept_for_what_later_exercises_or_lessons_run_on():
    """An exercise another one calls is one the rest of the course builds on (the reverse need
    not hold: the lessons run on cross_entropy and load_hf_state_dict too)."""
    used = {u for e in EXERCISES for u in e.uses}
    assert [n for n in used if BY_NAME[n].importance != 3] == []


@pytest.mark.parametrize("field, value, said", [
    ("difficulty", 0, "difficulty must be 1, 2 or 3, got 0"),
    ("difficulty", 4, "difficulty must be 1, 2 or 3, got 4"),
    ("importance", 2.0, "importance must be 1, 2 or 3, got 2.0"),
    ("importance", True, "importance must be 1, 2 or 3, got True"),
    ("minutes", 0, "minutes must be a whole number above 0, got 0"),
    ("minutes", "20", "minutes must be a whole number above 0, got '20'"),
])
def test_an_exercise_with_a_rating_out_of_range_is_refused(field, value, said):
    with pytest.raises(ValueError, match=re.escape(f"exercise 'embed': {said}")):
        dataclasses.replace(BY_NAME["embed"], **{field: value})


def test_an_exercise_without_its_ratings_is_refused():
    given = {f.name: getattr(BY_NAME["embed"], f.name) for f in dataclasses.fields(registry.Exercise)}
    for missing in ("difficulty", "importance", "minutes"):
        with pytest.raises(TypeError, match=missing):
            registry.Exercise(**{k: v for k, v in given.items() if k != missing})


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
    if exercise.name in NO_INPUTS:  # one possible call: its hidden case is that call again
        assert [c.args for c in _hidden(exercise)] == [{}]
        return
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


# ------------------------------------------------------------------ the hidden cases, pinned
def describe(value) -> str:
    """A case's argument as tests/support/hidden_configurations.py writes it."""
    if isinstance(value, np.random.Generator):
        return "rng"
    if isinstance(value, np.ndarray):
        return f"{value.dtype.str[1:]}{list(value.shape)}"
    if isinstance(value, dict):
        arrays = [v for v in value.values() if isinstance(v, np.ndarray)]
        tables = [f"{k.split('.')[-2] if k.startswith('transformer') else k}{list(v.shape)}" for k, v in value.items()
                  if k.endswith(("wte", "wpe", "wte.weight", "wpe.weight"))]
        return f"{len(value)} arrays {arrays[0].dtype.str[1:] if arrays else ''} " + " ".join(sorted(tables))
    if hasattr(value, "n_embd"):
        return f"config(V={value.vocab_size}, T={value.block_size}, L={value.n_layer}, d={value.n_embd}, h={value.n_head})"
    return repr(value)


def describe_case(case) -> str:
    text = ", ".join(f"{k}={'seed' if k == 'seed' else describe(v)}" for k, v in sorted(case.args.items()))
    return text + (f" -> {case.raises}" if case.raises else "") + (f" ({case.about})" if case.about else "")


def test_every_exercise_has_its_hidden_cases_pinned():
    assert set(HIDDEN) == set(BY_NAME)


@params("exercise", EXERCISES, ids=lambda e: e.name)
def test_no_pinned_hidden_case_has_disappeared(exercise):
    missing = Counter(HIDDEN[exercise.name]) - Counter(describe_case(c) for c in _hidden(exercise))
    assert not missing, "hidden cases gone from grader/lessons/:\n" + "\n".join(missing)


GPT2_SIZES = [(12, 768), (24, 1024), (36, 1280), (48, 1600)]   # (n_layer, n_embd), V = 50257, T = 1024


def test_count_is_tested_on_every_gpt2_size_tied_and_untied_with_and_without_biases():
    """Every GPT-2 width and depth, with a vocabulary and context drawn just below GPT-2's (the
    released sizes' counts are public knowledge: a table of them must earn nothing)."""
    found = {(c.args["L"], c.args["d"], c.args.get("tied", True), c.args.get("bias", True))
             for c in _hidden(BY_NAME["count_gpt2_params"])
             if 50257 - 500 <= c.args["V"] < 50257 and 1024 - 200 <= c.args["T"] < 1024}
    wanted = {(L, d, tied, bias) for L, d in GPT2_SIZES for tied in (True, False) for bias in (True, False)}
    assert wanted <= found, sorted(wanted - found)


def _profile(cases):
    """Per array argument of the value cases: its ndims and dtypes; and the errors asked for."""
    ndims, dtypes, errors = {}, {}, {c.raises for c in cases if c.raises}
    for c in cases:
        for k, v in c.args.items():
            if isinstance(v, np.ndarray) and not c.raises:
                ndims.setdefault(k, set()).add(v.ndim)
                dtypes.setdefault(k, set()).add(v.dtype.str)
    return ndims, dtypes, errors


@params("exercise", EXERCISES, ids=lambda e: e.name)
def test_hidden_cases_cover_the_stated_shapes_dtypes_and_errors(exercise):
    """At least five hidden cases, and among them every shape rank, dtype and error of the public
    examples (the student edition sees those; the grader must test them beyond the examples)."""
    hidden = _hidden(exercise)
    assert len(hidden) >= (1 if exercise.name in NO_INPUTS else 5)
    (pn, pd, pe), (hn, hd, he) = _profile(_public(exercise)), _profile(hidden)
    for k in pn:
        assert pn[k] <= hn.get(k, set()), f"{k}: ranks {pn[k]} public, {hn.get(k)} hidden"
        assert pd[k] <= hd.get(k, set()), f"{k}: dtypes {pd[k]} public, {hd.get(k)} hidden"
    assert pe <= he, f"errors {pe} public, {he} hidden"


GET_BATCH_ONE_SHORT = """
def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size:
        raise ValueError(f"data holds {len(data)} ids; block_size is {block_size}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    rows = starts[:, None] + np.arange(block_size)
    data = np.asarray(data)
    return data[rows].astype(np.int64), data[rows + 1].astype(np.int64)
"""


def test_a_length_check_one_short_fails_a_public_and_a_hidden_test():
    """Data of exactly block_size ids must be refused: rng.integers(0, 0) raises, without the numbers."""
    from grader.checking.check import evaluate

    namespace = {"np": np}
    exec(GET_BATCH_ONE_SHORT, namespace)
    verdict = evaluate(namespace["get_batch"])
    cases = BY_NAME["get_batch"].cases()
    failed = [cases[int(f.split(":")[0].split()[1]) - 1] for f in verdict.failures]
    assert verdict.status == "failed" and {c.public for c in failed} == {True, False}, verdict.message
    assert all(c.about == "data exactly as long as the block size" for c in failed)


# ------------------------------------------------------------------ answers off by ten times the tolerance
def _off(answer, rel: float, case):
    """The answer with every float scaled by 1 + rel; integers off by one; drawn ids moved to the next id."""
    if isinstance(answer, str):  # a text or a token (lesson 09): any change is wrong
        return answer + "x"
    if isinstance(answer, list) and answer and all(isinstance(a, (str, int)) for a in answer):
        return answer[:-1] + [_off(answer[-1], rel, case)]
    if isinstance(answer, tuple):
        return tuple(_off(a, rel, case) for a in answer)
    if isinstance(answer, dict):
        return {k: _off(v, rel, case) for k, v in answer.items()}
    if isinstance(answer, float):
        return answer * (1 + rel)
    if isinstance(answer, int):
        return answer + 1
    a = np.asarray(answer)
    if a.dtype.kind == "f":
        return (a * (1 + rel)).astype(a.dtype)
    if "top_k" in case.args:                                   # drawn ids
        return (a + 1) % case.args["logits"].shape[-1]
    return a + 1


def _floating(answer) -> bool:
    if isinstance(answer, (tuple, dict)):
        return any(_floating(a) for a in (answer.values() if isinstance(answer, dict) else answer))
    return isinstance(answer, float) or np.asarray(answer).dtype.kind == "f"


STATED_TOLERANCE = {"f8": 1e-8, "f4": 1e-4}   # what the exercises promise: relative 1e-8, 1e-4 in float32


def _stated_tolerance(case) -> float:
    floats = {a.dtype.str[1:] for a in arrays_in(case.args) if a.dtype.kind == "f"}
    return STATED_TOLERANCE["f4"] if "f4" in floats else STATED_TOLERANCE["f8"]


@params("exercise", EXERCISES, ids=lambda e: e.name)
def test_an_answer_off_by_ten_times_the_tolerance_fails(exercise):
    """Every value case of a value-judged exercise fails an answer off by 10 x the tolerance the
    exercises state (not the one the code holds, which is what this guards) and passes one off by a
    tenth of it; a statistically judged one fails such an answer overall."""
    quiet = dataclasses.replace(exercise, mistakes=[])        # no naming: only the verdict matters
    cases = [c for c in exercise.cases() if not c.raises]
    expected = reference_answers(exercise, cases)
    answers = [call_answer(exercise.reference, c) for c in cases]
    tols = [_stated_tolerance(c) for c in cases]
    if exercise.judge in (None, scalar_judge):
        for i, (case, answer, e, tol) in enumerate(zip(cases, answers, expected, tols)):
            assert judge(quiet, [case], [_off(answer, 10 * tol, case)], [e]).status == "failed", f"case {i + 1}"
            if _floating(answer):
                assert judge(quiet, [case], [_off(answer, tol / 10, case)], [e]).status == "passed", f"case {i + 1}"
    else:
        off = [_off(a, 10 * tol, c) for a, c, tol in zip(answers, cases, tols)]
        assert judge(quiet, cases, off, expected).passed < len(cases) // 2


def test_every_lesson_registers_without_importing_torch():
    """The instructor's process loads every lesson's definitions to lay out the gradebook; torch
    (about a second of CPU per grading run) is imported only when a torch reference runs."""
    code = ("import sys\nfrom grader.judging import registry\nassert len(registry.load_all()) >= 19\n"
            "print(sorted(m for m in ('torch', 'nbformat') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout


# ------------------------------------------------------------------ the hidden cases under a secret
# The batch grader draws the hidden cases from the instructor's secret (batch/state.py keeps it);
# the public seed (crc32 of the name) is only for tests and the full course's check(). Any secret
# must give cases the course is right on and the catalogue's mistakes still fail.
SECRET = bytes(range(32))   # this test's own; an instructor's is 32 random bytes


def test_the_public_seed_is_the_names_crc32_and_a_secret_replaces_it():
    import zlib

    ex = BY_NAME["embed"]
    assert ex.seed() == zlib.crc32(b"embed")   # computable from the public repository: tests only
    assert ex.seed(SECRET) == ex.seed(bytes(SECRET)) != ex.seed(bytes(32))
    assert ex.seed(SECRET) != ex.seed() and ex.seed(SECRET) != BY_NAME["one_hot_embed"].seed(SECRET)


def _same_args(a, b) -> bool:
    from grader.judging import wire

    if isinstance(a, np.random.Generator) or isinstance(b, np.random.Generator):
        return isinstance(a, np.random.Generator) and isinstance(b, np.random.Generator) and \
            a.bit_generator.state == b.bit_generator.state
    if type(a) is dict and type(b) is dict and a.keys() == b.keys():
        return all(_same_args(a[k], b[k]) for k in a)
    return wire.same_value(a, b)


# Mistakes only the public examples catch (the hidden cases give them full points under any seed).
PUBLIC_ONLY_MISTAKES = {("sample_next", "every logit tied with the k-th kept"),
                        ("sample_next", "softmax without subtracting the max")}


@params("exercise", EXERCISES, ids=lambda e: e.name)
def test_a_secret_draws_other_hidden_inputs_that_still_grade_the_course_right(exercise):
    """Other inputs (public examples unchanged, the same secret the same inputs); the reference
    passes them, and every mistake is caught by them (but those only public examples catch)."""
    public, drawn = exercise.cases(), exercise.cases(secret=SECRET)
    assert [c.public for c in public] == [c.public for c in drawn]
    assert all(_same_args(a.args, b.args) for a, b in zip(public, drawn) if a.public)
    assert not all(_same_args(a.args, b.args) for a, b in zip(public, drawn) if not a.public) \
        or exercise.name in NO_INPUTS
    assert all(_same_args(a.args, b.args) for a, b in zip(drawn, exercise.cases(secret=SECRET)))
    expected = reference_answers(exercise, drawn)
    verdict = judge(exercise, drawn, [call_answer(exercise.reference, c) for c in drawn], expected, hidden_only=True)
    assert verdict.status == "passed", verdict.message
    for m in exercise.mistakes:
        points = judge(exercise, drawn, [call_answer(m.variant, c) for c in drawn], expected, hidden_only=True).points
        assert (points < exercise.points) != ((exercise.name, m.name) in PUBLIC_ONLY_MISTAKES), m.name


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape \
            and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.random.Generator) and isinstance(b, np.random.Generator):
        return a.bit_generator.state == b.bit_generator.state
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("name", sorted(registry.load_all()))
def test_every_hidden_case_is_drawn_from_the_instructor_s_secret(name):
    """A hidden case the same under any secret can be answered from a table (GPT-2 small's
    parameter count is public knowledge): each must change with the secret."""
    exercise = registry.get(name)
    one, two = ([c for c in exercise.cases(secret=s) if not c.public] for s in (b"\x01" * 32, b"\x02" * 32))
    # a function of no arguments (bytes_to_unicode) has one answer: its table is the exercise
    fixed = [c.about or str(i) for i, (c, d) in enumerate(zip(one, two)) if c.args and _same(c.args, d.args)]
    assert len(one) == len(two) and not fixed, fixed

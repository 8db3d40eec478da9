"""Lesson 07's exercises and notebooks: the cases probe every stated rule, learners' own
buggy code is named (and correct code written another way passes), the lesson runs on a
GPT-2-shaped table as it will when the released weights are present."""
from __future__ import annotations

import csv
import math
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from conftest import ROOT
from grader import notebook as nbk
from grader.judging import registry
from grader.checking.check import evaluate
from grader.judging.answers import call_answer, mistake_answers_for, reference_answers
from grader.judging.judge import judge
from grader.lessons import l07_position_embeddings as lesson
from grader.judging.registry import arrays_in
from gpt2course import GPT2_SMALL, TINY
from support.hub_fixtures import gpt2_small_cache, hub_cache, hub_config, hub_tensors, run_lesson, write_safetensors

LESSON_NB = ROOT / "notebooks" / "07_position_embeddings.ipynb"
SOLUTIONS = ROOT / "solutions" / "07_position_embeddings_exercises.ipynb"
EXERCISES = ROOT / "exercises" / "07_position_embeddings_exercises.ipynb"
NAMES = ("sinusoidal_positions", "position_similarity", "principal_components")
FLAGGED = {"sinusoidal_positions": lesson.sinusoid_reference, "position_similarity": lesson.similarity_reference,
           "principal_components": lesson.pca_reference}


def named(name, fn):
    fn.__name__ = fn.__qualname__ = name
    return fn


def batch_verdict(fn):
    """The judge as the batch grader calls it (mistakes' answers computed in the grader)."""
    ex = registry.get(fn.__name__)
    cases = ex.cases()
    answers = [call_answer(fn, c) for c in cases]
    return judge(ex, cases, answers, reference_answers(ex, cases), mistake_answers_for(ex, cases))


# ------------------------------------------------------------------ the registry and the cases
def test_the_lesson_registers_three_exercises():
    assert {e.name for e in registry.for_lesson(lesson.LESSON)} == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_default_flags_are_the_course_functions_bit_for_bit(name):
    ex = registry.get(name)
    for case in ex.cases():
        want, got = call_answer(ex.reference, case), call_answer(FLAGGED[name], case)
        if case.raises:
            assert type(want).__name__ == type(got).__name__ == "Raised"
        else:
            assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("name", NAMES[1:])
def test_public_cases_hold_both_dtypes_and_the_shape_rule(name):
    public = registry.get(name).cases(hidden=False)
    assert {a.dtype for c in public for a in arrays_in(c.args)} >= {np.dtype(np.float32), np.dtype(np.float64)}
    assert any(c.raises == "ValueError" and c.args["wpe"].ndim != 2 for c in public)


def test_stated_errors_have_public_cases():
    sin = registry.get("sinusoidal_positions").cases(hidden=False)
    assert any(c.raises and c.args["d"] % 2 for c in sin)
    pca = registry.get("principal_components").cases(hidden=False)
    assert any(c.raises and c.args["k"] > min(c.args["wpe"].shape) for c in pca)
    assert any(c.args.get("base", 10_000.0) != 10_000.0 for c in sin)     # the base argument is used


def test_pca_cases_have_one_answer():
    """Every centred case table has d distinct singular values, consecutive ones at least 1%
    apart and none below half the largest: every direction (the smallest ones too, which the
    eigh-order mistake returns) is one answer, in float32 as in float64."""
    for case in registry.get("principal_components").cases():
        if case.raises:
            continue
        x = case.args["wpe"].astype(np.float64)
        s = np.linalg.svd(x - x.mean(axis=0), compute_uv=False)
        assert len(s) == x.shape[1] and np.all(s[1:] < 0.99 * s[:-1]) and s[-1] > 0.45 * s[0], s


# ------------------------------------------------------------------ learners' own code
def sinus_learner(layout="interleaved", exponent="2i", swap=False, base_used=True, message=True):
    def fn(T, d, base=10000.0):
        if d % 2:
            raise ValueError(f"odd width d={d}" if message else "odd width")
        b = base if base_used else 10000.0
        pe = np.zeros((T, d))
        for t in range(T):
            for i in range(d // 2):
                e = {"2i": 2 * i / d, "i": i / d}[exponent]
                s, c = math.sin(t / b ** e), math.cos(t / b ** e)
                if swap:
                    s, c = c, s
                cols = (i, d // 2 + i) if layout == "halves" else (2 * i, 2 * i + 1)
                pe[t, cols[0]], pe[t, cols[1]] = s, c
        return pe
    return named("sinusoidal_positions", fn)


def sinus_own_frequency(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"d={d} must be even")
    angles = np.arange(T)[:, None] / base ** (np.arange(d)[None, :] / d)    # every column its own j/d
    return np.where(np.arange(d) % 2 == 0, np.sin(angles), np.cos(angles))


def similarity_learner(bug=None):
    def fn(wpe):
        if wpe.ndim != 2:
            raise ValueError(f"need (T, d), got {wpe.shape}")
        if bug == "corrcoef":
            return np.corrcoef(wpe)
        if bug == "inplace":
            wpe /= np.sqrt(np.einsum("td,td->t", wpe, wpe))[:, None]
            return wpe @ wpe.T
        axis = 0 if bug == "columns" else 1
        u = wpe / np.sqrt((wpe ** 2).sum(axis=axis, keepdims=True))
        return u.T @ u if bug == "features" else np.einsum("sd,td->st", u, u)
    return named("position_similarity", fn)


def pca_learner(bug=None):
    """PCA the eigh way, in the table's own dtype (float32 arithmetic for float32 tables)."""
    def fn(wpe, k):
        if wpe.ndim != 2:
            raise ValueError(f"wpe has shape {wpe.shape}, not (T, d)")
        T, d = wpe.shape
        if k > min(T, d) and bug != "no_check":
            raise ValueError(f"k = {k} but min(T, d) = {min(T, d)}")
        x = wpe if bug == "no_centre" else wpe - wpe.mean(axis=0)
        vals, vecs = np.linalg.eigh(x.T @ x / T)
        if bug == "smallest":
            v = vecs[:, :k]
        elif bug == "reversed":
            v = vecs[:, -k:]
        else:
            v = vecs[:, ::-1][:, :k]
        if bug != "no_signs":
            for j in range(v.shape[1]):
                if v[np.argmax(np.abs(v[:, j])), j] < 0:
                    v[:, j] *= -1
        out = x @ v
        return out.astype(np.float64) if bug == "float64" else out
    return named("principal_components", fn)


def pca_svd_learner(bug):
    """PCA the SVD way: U S are the projections; with LAPACK's signs, or without a check of k
    (an SVD has min(T, d) directions, so slicing past them quietly returns fewer)."""
    def fn(wpe, k):
        if wpe.ndim != 2:
            raise ValueError(f"wpe has shape {wpe.shape}")
        if k > min(wpe.shape) and bug != "no_check":
            raise ValueError(f"k={k} > min(T, d) = {min(wpe.shape)}")
        x = wpe.astype(np.float64)
        u, s, vt = np.linalg.svd(x - x.mean(0), full_matrices=False)
        if bug != "no_signs":
            flip = np.sign(vt[np.arange(len(vt)), np.abs(vt).argmax(axis=1)])
            u, vt = u * flip, vt * flip[:, None]
        return (u[:, :k] * s[:k]).astype(wpe.dtype)
    return named("principal_components", fn)


LEARNER_BUGS = [
    (sinus_learner(layout="halves"), "sines and cosines in two halves instead of interleaved"),
    (sinus_learner(exponent="i"), "exponent i/d instead of 2i/d"),
    (sinus_learner(swap=True), "sin and cos swapped"),
    (sinus_learner(base_used=False), "base argument ignored (10000 hard-coded)"),
    (named("sinusoidal_positions", sinus_own_frequency), "each cosine column with its own frequency"),
    (similarity_learner("corrcoef"), "correlation (np.corrcoef) instead of cosine similarity"),
    (similarity_learner("columns"), "columns scaled to length 1 instead of rows"),
    (similarity_learner("features"), "features compared instead of positions"),
    (pca_learner("no_centre"), "rows not centred"),
    (pca_learner("smallest"), "the k smallest directions (eigh's ascending order)"),
    (pca_learner("reversed"), "the top k directions, smallest first"),
    (pca_learner("float64"), "float32 table answered in float64"),
    (pca_svd_learner("no_check"), "no check of k"),
    (pca_svd_learner("no_signs"), "sign convention ignored"),
]


@pytest.mark.parametrize("fn, mistake", LEARNER_BUGS, ids=[m for _, m in LEARNER_BUGS])
@pytest.mark.parametrize("path", [evaluate, batch_verdict], ids=["check", "batch"])
def test_learner_bug_is_named(fn, mistake, path):
    v = path(fn)
    assert v.status == "failed" and v.mistakes == [mistake], v.message


@pytest.mark.parametrize("fn", [sinus_learner(), similarity_learner(), pca_learner(), pca_svd_learner(None)],
                         ids=[*NAMES, "principal_components by SVD"])
def test_correct_code_written_another_way_passes(fn):
    """Loops for the sinusoids, einsum for the similarity, eigh in the table's own dtype or U S
    from the SVD for PCA."""
    v = evaluate(fn)
    assert v.status == "passed", v.message


@pytest.mark.parametrize("fn, says, mistakes", [
    (similarity_learner("inplace"), "changed its input", ["input changed in place"]),  # named: diagnoses.py
    (sinus_learner(message=False), "message does not say", ["odd d without a ValueError naming d"]),
])
def test_stated_rules_are_checked(fn, says, mistakes):
    v = evaluate(fn)
    assert v.status == "failed" and says in v.message and v.mistakes == mistakes, v.message


def test_an_uncatalogued_bug_is_not_named():
    def principal_components(wpe, k):         # centred by the median row, not the mean row
        if wpe.ndim != 2 or k > min(wpe.shape):
            raise ValueError(f"bad shape {wpe.shape} or k={k} > min(T, d) = {min(wpe.shape)}")
        x = wpe.astype(np.float64)
        xc = x - np.median(x, axis=0)
        v = np.linalg.svd(xc, full_matrices=False)[2][:k].T
        v *= np.sign(v[np.abs(v).argmax(axis=0), np.arange(k)])
        return (xc @ v).astype(wpe.dtype)

    for path in (evaluate, batch_verdict):
        v = path(principal_components)
        assert v.status == "failed" and v.mistakes == [] and "Likely mistake" not in v.message


def test_batch_grader_gives_the_solutions_full_marks(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(SOLUTIONS), "--out", str(tmp_path / "out"),
                           "--isolation", "python"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (row,) = list(csv.DictReader((tmp_path / "out" / "gradebook.csv").open()))
    assert row["total"] == row["max_total"] == "3" and not row["problem"], row


# ------------------------------------------------------------------ the notebooks
def _code(path):
    return [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


def test_lesson_opens_with_its_plan_and_ends_at_the_exercises():
    cells = nbformat.read(LESSON_NB, as_version=4).cells
    first, last = cells[0].source, cells[-1].source
    assert first.startswith("# Lesson 07") and "1. the whole" in first and "**You need:**" in first
    assert "[exercises/07_position_embeddings_exercises.ipynb](../exercises/07_position_embeddings_exercises.ipynb)" in last
    assert "**Next:**" in last and "(08_training_sampling.ipynb)" in last
    prefix = {"markdown": "md", "code": "code"}
    assert [c.id for c in cells] == [f"{prefix[c.cell_type]}-{i:03d}" for i, c in enumerate(cells, 1)]
    sol = nbformat.read(SOLUTIONS, as_version=4).cells[-1].source
    assert "[notebooks/08_training_sampling.ipynb](../notebooks/08_training_sampling.ipynb)" in sol


def test_lesson_calls_only_the_course_functions():
    """Exercises run through gpt2course.positions (the learner's code in the release); the
    lesson never defines them itself, and never imports another lesson's exercises."""
    source = "\n".join(c.source for c in _code(LESSON_NB))
    for name in NAMES:
        assert f"positions.{name}(" in source and f"def {name}" not in source
        assert f" {name}(" not in source.replace(f"positions.{name}(", "")


def test_widget_and_weights_cells_ignore_their_output_and_the_rest_has_outputs():
    cells = _code(LESSON_NB)
    widget = [c for c in cells if "column_picker(" in c.source]
    loading = [c for c in cells if "get_gpt2()" in c.source]
    assert len(widget) == len(loading) == 1
    for cell in widget + loading:
        assert "nbval-ignore-output" in cell.metadata.get("tags", [])
    assert all(c.outputs for c in cells)
    assert sum(any("image/png" in o.get("data", {}) for o in c.outputs) for c in cells) >= 6


def test_no_solution_line_in_shipped_code():
    from grader.release.bundle import STUDENT_MODULES, student_module

    lines = set()
    for cell in nbk.read(SOLUTIONS).cells:
        src = nbk.cell_source(cell)
        for start, end in nbk.solution_regions(src) if nbk.EXERCISE_TAG in nbk.tags(cell) else []:
            lines |= {ln.strip() for ln in src.splitlines()[start + 1:end] if len(ln.strip()) > 15
                      and not ln.strip().startswith("#")}
    assert lines
    module = (ROOT / "gpt2course" / "positions.py").read_text()
    shipped = [student_module(module, "positions.py", STUDENT_MODULES["positions.py"]),
               (ROOT / "gpt2course" / "widgets.py").read_text(), (ROOT / "gpt2course" / "plots.py").read_text(),
               "\n".join(c.source for c in nbformat.read(LESSON_NB, as_version=4).cells)]
    for text in shipped:
        assert not lines & {ln.strip() for ln in text.splitlines()}
    student = shipped[0]
    assert "np.linalg.svd" not in student and "unit @ unit.T" not in student and "np.sin(" not in student


# ------------------------------------------------------------------ the lesson with GPT-2's weights
def test_lesson_runs_when_gpt2_weights_are_present(tmp_path_factory, monkeypatch):
    """A GPT-2-small-shaped model.safetensors in the Hub's layout (random numbers) in a Hugging Face
    cache, as docs/learning.md's download leaves it: every cell runs, every assert holds, and the figures
    and the comparison include GPT-2 small's 1024-position table."""
    cache, sha256 = gpt2_small_cache(tmp_path_factory)
    printed = run_lesson(LESSON_NB, cache, monkeypatch, sha256=sha256)
    assert printed["code-004"].startswith("GPT-2's weights: found")
    assert "GPT-2 small  wpe (1024, 768), float32, 786,432 numbers" in printed["code-004"]
    table_lines = printed["code-026"].splitlines()
    assert table_lines[1].startswith("GPT-2 small") and "1024x768" in table_lines[1]
    for cell in _code(LESSON_NB):
        if "nbval-ignore-output" not in cell.metadata.get("tags", []):
            # the stored (tiny-model) text is unchanged: only figures and ignored cells differ
            assert printed[cell.id] == "".join(o.get("text", "") for o in cell.outputs), cell.id


def test_a_wrong_cached_file_is_one_sentence_not_a_traceback(tmp_path, monkeypatch):
    """A cached model.safetensors that is not GPT-2's (the pinned digest stays): the loading cell
    says so in one sentence and goes on with the tiny model; the cells after it are the ones
    nbval runs on the tiny model, so the lesson is run up to it."""
    weights_file = write_safetensors(tmp_path / "model.safetensors", hub_tensors(TINY))
    snapshot = hub_cache(tmp_path / "cache", {"config.json": hub_config(GPT2_SMALL), "model.safetensors": weights_file})
    printed = run_lesson(LESSON_NB, tmp_path / "cache", monkeypatch, until="code-004")
    note, tiny_line = printed["code-004"].splitlines()
    assert note.startswith(f"GPT-2's cached weights were not used: {snapshot / 'model.safetensors'} has sha256 ")
    assert "`python -m gpt2course.weights --download` deletes it and downloads it again" in note
    assert note.endswith(" instead.") and ". " not in note and tiny_line.startswith("tiny model   wpe (64, 64)")
    assert not any("Traceback" in text or "Warning" in text for text in printed.values())

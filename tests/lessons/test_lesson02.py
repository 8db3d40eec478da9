"""Lesson 02 (LayerNorm, causal self-attention): the references are right, and
every catalogued mistake is caught and named, both from its registered variant
and from a learner's function written independently here."""
from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
import torch
import torch.nn.functional as F

from grader import check
from grader.judging import registry
from grader.lessons import l02_attention as lesson
from gpt2course import numpy_gpt as ref

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ("layer_norm", "causal_self_attention")
NAN_MISTAKE = "causal mask hides the diagonal"

def exercise(name):
    ex = registry.get(name)
    assert ex is not None and ex.lesson == lesson.LESSON
    return ex


# ------------------------------------------------------------------ the registry
def test_lesson_registers_both_exercises():
    names = {e.name for e in registry.for_lesson(lesson.LESSON)}
    assert names == set(EXERCISES)
    for name in EXERCISES:
        ex = exercise(name)
        assert len(ex.mistakes) >= 2
        assert len({m.name for m in ex.mistakes}) == len(ex.mistakes)


@pytest.mark.parametrize("name", EXERCISES)
def test_cases_are_deterministic_and_varied(name):
    ex = exercise(name)
    a, b = ex.cases(), ex.cases()
    assert len(a) == len(b) >= 10
    for ca, cb in zip(a, b):
        for key, value in ca.args.items():
            if isinstance(value, np.ndarray):
                assert np.array_equal(value, cb.args[key])
    xs = [c.args["x"] for c in a]
    assert {x.ndim for x in xs} == {2, 3}
    assert any(x.shape[-2] == 1 for x in xs), "a T = 1 edge case"
    assert {x.dtype for x in xs} == {np.dtype(np.float64), np.dtype(np.float32)}
    assert sum(x.dtype == np.float64 for x in xs) > len(xs) / 2
    if name == "causal_self_attention":
        assert len({c.args["n_head"] for c in a}) >= 4


# ------------------------------------------------------------------ learners' own buggy code
# Written the way a learner might, independently of the registered variants.
# Module-level, so that the batch-grading test can put their source in a notebook.
def learner_ln_impl(x, weight, bias, eps, bug):
    axis = {"axis0": 0, "axis1": 1, "whole": None}.get(bug, -1)
    mu = np.mean(x, axis=axis, keepdims=True)
    centred = x - mu
    n = x.size if axis is None else x.shape[axis]
    var = np.sum(centred * centred, axis=axis, keepdims=True) / (n - 1 if bug == "ddof1" else n)
    e = {"no_eps": 0.0, "eps_1e6": 1e-6, "hard_coded": 1e-5}.get(bug, eps)
    if bug == "eps_outside":
        normed = centred / (np.sqrt(var) + e)
    else:
        normed = centred * (1.0 / np.sqrt(var + e))
    return weight * normed + bias


def learner_attn_impl(x, w_qkv, b_qkv, w_o, b_o, n_head, bug):
    B_T, d = x.shape[:-1], x.shape[-1]
    T = x.shape[-2]
    hs = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, [d, 2 * d], axis=-1)

    def heads(t):
        if bug in ("reshape", "split_only"):
            return t.reshape(*B_T[:-1], n_head, T, hs)
        return np.moveaxis(t.reshape(*B_T, n_head, hs), -2, -3)

    q, k, v = heads(q), heads(k), heads(v)
    att = np.einsum("...qc,...kc->...qk", q, k)
    if bug == "sqrt_d":
        att = att * (1.0 / d ** 0.5)
    elif bug == "upcast":
        att = att / np.sqrt(hs)
    elif bug != "no_scale":
        att = att * (1.0 / hs ** 0.5)
    if bug not in ("no_mask", "mask_after"):
        diag = 0 if bug in ("strict", "strict_finite") else 1
        fill = -1e10 if bug == "strict_finite" else -np.inf
        future = np.triu(np.ones((T, T), dtype=bool), k=diag)
        att = np.where(future, fill, att)
    axis = -2 if bug == "queries" else -1
    with np.errstate(invalid="ignore"):
        att = np.exp(att - np.max(att, axis=axis, keepdims=True))
        att = att / np.sum(att, axis=axis, keepdims=True)
    if bug == "mask_after":
        att = att * np.tril(np.ones((T, T), dtype=att.dtype))
    y = np.einsum("...qk,...kc->...qc", att, v)
    if bug in ("reshape", "merge"):
        y = y.reshape(*B_T, d)
    else:
        y = np.moveaxis(y, -3, -2).reshape(*B_T, d)
    return y @ w_o + b_o


def learner_layer_norm(bug=None):
    def layer_norm(x, weight, bias, eps=1e-5):
        return learner_ln_impl(x, weight, bias, eps, bug)

    return layer_norm


def learner_attention(bug=None):
    def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
        return learner_attn_impl(x, w_qkv, b_qkv, w_o, b_o, n_head, bug)

    return causal_self_attention


LEARNER_BUGS = {
    "layer_norm": {
        "ddof1": "sample variance (ddof=1) instead of the population variance",
        "eps_outside": "epsilon added outside the square root",
        "no_eps": "epsilon left out (or far too small, like 1e-12)",
        "eps_1e6": "epsilon 1e-6 instead of 1e-5",
        "hard_coded": "the eps argument is ignored",
        "axis0": "normalised over the wrong axis (axis 0)",
        "axis1": "normalised over axis 1 (the positions, in a batch)",
        "whole": "mean and variance taken over the whole array",
    },
    "causal_self_attention": {
        "reshape": "head split by reshape without transpose",
        "merge": "heads merged by reshape without transpose",
        "split_only": "head split by reshape without transpose, heads merged correctly",
        "sqrt_d": "scores scaled by sqrt(d) instead of sqrt(d_k)",
        "no_scale": "scores not scaled",
        "no_mask": "no causal mask",
        "strict": NAN_MISTAKE,
        "strict_finite": "causal mask hides the diagonal (filled with a large finite number)",
        "mask_after": "mask applied after the softmax",
        "queries": "softmax over the query axis instead of the key axis",
        "upcast": "float32 inputs upcast to float64",
    },
}
LEARNERS = {"layer_norm": learner_layer_norm, "causal_self_attention": learner_attention}


def learner_params():
    for name, bugs in LEARNER_BUGS.items():
        for bug, mistake in bugs.items():
            yield pytest.param(name, bug, mistake, id=f"{name}: {bug}")


def test_every_mistake_has_a_learner_version():
    for name in EXERCISES:
        assert set(LEARNER_BUGS[name].values()) == {m.name for m in exercise(name).mistakes}


@pytest.mark.parametrize("name", EXERCISES)
def test_check_passes_a_correct_learner(name, capsys):
    fn = LEARNERS[name]()
    assert fn.__name__ == name
    check(fn)
    out = capsys.readouterr().out
    assert out.startswith(f"{name}: PASSED"), out


@pytest.mark.parametrize("name, bug, mistake", list(learner_params()))
def test_check_names_the_learners_mistake(name, bug, mistake, capsys):
    fn = LEARNERS[name](bug)
    check(fn)
    out = capsys.readouterr().out
    assert out.startswith(f"{name}: FAILED"), out
    named = [line.split("Likely mistake: ", 1)[1] for line in out.splitlines()
             if line.startswith("Likely mistake: ")]
    assert named == [mistake + "."], out


# ------------------------------------------------------------------ the references
def _attn_args(rng, shape, n_head, dtype=np.float64):
    return lesson._attn_inputs(rng, shape, n_head, dtype)


@pytest.mark.parametrize("shape, n_head", [((9, 16), 4), ((3, 7, 12), 3), ((2, 2, 5, 8), 2)])
def test_reference_attention_is_causal_bit_for_bit(shape, n_head):
    rng = np.random.default_rng(5)
    args = _attn_args(rng, shape, n_head)
    out = ref.causal_self_attention(**args)
    T = shape[-2]
    for t in range(1, T):
        changed = dict(args, x=args["x"].copy())
        changed["x"][..., t, :] = rng.standard_normal(shape[-1]) * 3.0
        out2 = ref.causal_self_attention(**changed)
        assert np.array_equal(out[..., :t, :], out2[..., :t, :])
        assert not np.allclose(out[..., t, :], out2[..., t, :])


@pytest.mark.parametrize("shape, n_head", [((9, 16), 4), ((3, 7, 12), 3), ((2, 5, 8), 1)])
def test_reference_attention_matches_torch_sdpa(shape, n_head):
    rng = np.random.default_rng(6)
    a = _attn_args(rng, shape, n_head)
    t = {k: torch.from_numpy(v) for k, v in a.items() if isinstance(v, np.ndarray)}
    *lead, T, d = shape
    qkv = t["x"] @ t["w_qkv"] + t["b_qkv"]
    q, k, v = (z.reshape(*lead, T, n_head, d // n_head).transpose(-3, -2)
               for z in qkv.split(d, dim=-1))
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    y = y.transpose(-3, -2).reshape(*lead, T, d) @ t["w_o"] + t["b_o"]
    assert y.dtype == torch.float64
    np.testing.assert_allclose(ref.causal_self_attention(**a), y.numpy(), rtol=0, atol=1e-12)


def test_reference_attention_keeps_float32():
    a = _attn_args(np.random.default_rng(7), (2, 6, 8), 2, np.float32)
    assert ref.causal_self_attention(**a).dtype == np.float32


@pytest.mark.parametrize("shape", [(5, 16), (2, 3, 8), (1, 4)])
def test_reference_layer_norm_matches_torch(shape):
    rng = np.random.default_rng(8)
    a = lesson._ln_inputs(rng, shape, np.float64)
    expected = F.layer_norm(torch.from_numpy(a["x"]), (shape[-1],), torch.from_numpy(a["weight"]),
                            torch.from_numpy(a["bias"]), eps=1e-5).numpy()
    np.testing.assert_allclose(ref.layer_norm(**a), expected, rtol=0, atol=1e-12)
    a32 = {k: v.astype(np.float32) for k, v in a.items()}
    assert ref.layer_norm(**a32).dtype == np.float32


# ------------------------------------------------------------------ batch grading
def _learner_notebook(bugs: dict) -> nbformat.NotebookNode:
    """A submission whose two exercise cells call the learner code above with ``bugs``."""
    wrappers = {
        "layer_norm": "def layer_norm(x, weight, bias, eps=1e-5):\n"
                      "    return learner_ln_impl(x, weight, bias, eps, LN_BUG)\n",
        "causal_self_attention": "def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):\n"
                                 "    return learner_attn_impl(x, w_qkv, b_qkv, w_o, b_o, n_head, ATTN_BUG)\n",
    }
    impl = {"layer_norm": learner_ln_impl, "causal_self_attention": learner_attn_impl}
    cells = [nbformat.v4.new_code_cell("import numpy as np\nfrom grader import check")]
    for name in EXERCISES:
        const = "LN_BUG" if name == "layer_norm" else "ATTN_BUG"
        src = f"{const} = {bugs.get(name)!r}\n\n{inspect.getsource(impl[name])}\n\n{wrappers[name]}"
        cells += [nbformat.v4.new_code_cell(src), nbformat.v4.new_code_cell(f"check({name})")]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["gpt2course"] = {"lesson": lesson.LESSON}
    return nb


def test_batch_grader_names_every_mistake(tmp_path):
    submissions = {"correct": {}}
    for name, bugs in LEARNER_BUGS.items():
        for bug in bugs:
            submissions[f"{name}-{bug}"] = {name: bug}
    for sub, bugs in submissions.items():
        nbformat.write(_learner_notebook(bugs), tmp_path / f"{sub}.ipynb")
    out = tmp_path / "out"
    paths = [str(tmp_path / f"{sub}.ipynb") for sub in submissions]
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", *paths, "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    report = {s["name"]: {v["exercise"]: v for v in s["verdicts"]}
              for s in json.loads((out / "report.json").read_text())["submissions"]}
    assert {v["status"] for v in report["correct"].values()} == {"passed"}
    wrong = []
    for sub, bugs in submissions.items():
        for name, bug in bugs.items():
            verdict, other = report[sub][name], report[sub][EXERCISES[1 - EXERCISES.index(name)]]
            mistake = LEARNER_BUGS[name][bug]
            assert other["status"] == "passed", (sub, other["message"])
            assert verdict["status"] == "failed", (sub, verdict["message"])
            if verdict["mistakes"] != [mistake]:
                wrong.append((sub, verdict["mistakes"], verdict["message"]))
    assert not wrong

"""Lesson 06's exercises: the loaders agree with the module, learner bugs are named,
and the batch grader (whose child imports torch from site-packages) gives full marks;
the lesson on the Hub's own files in a Hugging Face cache, and on a wrong one."""
import csv
import subprocess
import sys

import nbformat
import numpy as np
import pytest
import torch

from conftest import ROOT
from grader.judging import registry
from grader.checking.check import evaluate
from grader.lessons.l06_torch_parity import hf_state_dict, module_shapes
from gpt2course import GPT2_SMALL, TINY, GPTConfig
from gpt2course import state_dicts
from gpt2course import numpy_gpt as ref
from gpt2course.torch_gpt import GPT
from support.hub_fixtures import COMMIT, REPO, gpt2_small_cache, hub_cache, hub_config, hub_tensors, run_lesson, write_safetensors

SOLUTIONS = ROOT / "solutions" / "06_torch_parity_exercises.ipynb"


def test_module_shapes_are_the_modules():
    config = GPTConfig(vocab_size=11, block_size=5, n_layer=2, n_embd=8, n_head=2)
    assert module_shapes(config) == {n: tuple(p.shape) for n, p in GPT(config).named_parameters()}


@pytest.mark.parametrize("name", ["numpy_to_torch", "load_hf_state_dict"])
def test_reference_answer_loads_into_the_module_and_matches_numpy(name):
    """What the exercises return, copied into GPT, gives the NumPy model's logits."""
    P = ref.init_params(TINY, seed=3)
    model = GPT(TINY).double()
    target = model.parameter_arrays()
    ex = registry.get(name)
    args = {"P": P, "model": target} if name == "numpy_to_torch" else \
        {"model": target, "state_dict": hf_state_dict(P, buffers=True)}
    model.load_arrays(ex.reference(**args)).eval()
    idx = np.random.default_rng(0).integers(0, TINY.vocab_size, size=(2, 10))
    with torch.no_grad():
        ours = model(torch.from_numpy(idx)).numpy()
    assert np.abs(ours - ref.gpt_logits(P, idx, TINY.n_head)).max() < 1e-12


@pytest.mark.parametrize("name, course", [("numpy_to_torch", state_dicts.module_arrays_from_params),
                                          ("load_hf_state_dict", state_dicts.module_arrays_from_state_dict)])
def test_course_loader_passes_the_exercise(name, course):
    """gpt2course.state_dicts (what GPT.from_numpy / from_pretrained use) is a correct answer."""
    def answer(**kwargs):
        return course(*kwargs.values())
    answer.__name__ = name
    assert evaluate(answer).status == "passed"


# Learner-written bugs (not the variants): each is named as its catalogued mistake.
LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def _learner(flip, head=False, buffers=(".attn.bias", ".attn.masked_bias")):
    def load_hf_state_dict(model, state_dict):
        src = {k: v for k, v in state_dict.items() if not k.endswith(buffers) and k != "lm_head.weight"}
        if src.keys() != model.keys():
            raise ValueError(f"missing {sorted(model.keys() - src.keys())}, unexpected {sorted(src.keys() - model.keys())}")
        out = {}
        for k, target in model.items():
            v = src[k].T if flip(k, src[k], target) else src[k]
            if v.shape != target.shape:
                raise ValueError(f"{k}: {v.shape} vs {target.shape}")
            out[k] = v.astype(target.dtype)
        if head:
            out["lm_head.weight"] = out["transformer.wte.weight"].copy()
        return out
    return load_hf_state_dict


LEARNER_BUGS = [
    pytest.param(_learner(lambda k, v, t: False), "Conv1D weights not transposed", id="no-transpose"),
    pytest.param(_learner(lambda k, v, t: v.shape != t.shape),  # transposed only where it does not fit
                 "square attention c_proj not transposed", id="by-shape"),
    pytest.param(_learner(lambda k, v, t: v.ndim == 2), "embeddings transposed too", id="all-2d"),
    pytest.param(_learner(lambda k, v, t: k.endswith(LINEAR), head=True), "head loaded as a separate copy", id="head"),
    pytest.param(_learner(lambda k, v, t: k.endswith(LINEAR), buffers=()), "attention buffers not skipped", id="buffers"),
]


@pytest.mark.parametrize("fn, mistake", LEARNER_BUGS)
def test_learner_bug_is_named(fn, mistake):
    v = evaluate(fn)
    assert v.status == "failed" and v.mistakes == [mistake], v.message


def test_learner_fix_passes():
    assert evaluate(_learner(lambda k, v, t: k.endswith(LINEAR))).status == "passed"


def _grade(notebook, out, isolation="python"):
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(notebook), "--out", str(out),
                           "--isolation", isolation], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (row,) = list(csv.DictReader((out / "gradebook.csv").open()))
    return row


def test_batch_grader_gives_the_solutions_full_marks(tmp_path):
    row = _grade(SOLUTIONS, tmp_path / "out")
    assert row["total"] == row["max_total"] == "2" and not row["problem"]


def test_learner_code_may_use_torch_in_the_sandbox(tmp_path):
    """torch imports in the grading child (site-packages, address-space limit included)."""
    nb = nbformat.read(SOLUTIONS, as_version=4)
    for cell in nb.cells:
        if "exercise" in cell.metadata.get("tags", []) and "def numpy_to_torch" in cell.source:
            cell.source = cell.source.replace(
                "out[name] = value.astype(target.dtype)",
                "out[name] = torch.from_numpy(np.ascontiguousarray(value)).to("
                "torch.float32 if target.dtype == np.float32 else torch.float64).numpy()")
            cell.source = "import torch\n\n" + cell.source
    path = tmp_path / "learner" / "06_torch_parity_exercises.ipynb"
    path.parent.mkdir()
    nbformat.write(nb, path)
    row = _grade(path, tmp_path / "out")
    assert row["numpy_to_torch"] == "1" and row["total"] == "2", row


def test_a_different_error_of_the_same_type_is_not_named():
    """A buffer filter that also drops c_attn.bias raises ValueError ('missing ...') on
    every case, like the no-transpose variant ('shape mismatch for ...'): same type,
    another mistake, so that one is not named; the catalogue's own filter without the dot is."""
    fn = _learner(lambda k, v, t: k.endswith(LINEAR), buffers=("attn.bias", "attn.masked_bias"))
    v = evaluate(fn)
    assert v.status == "failed" and v.mistakes == ["c_attn.bias skipped with the buffers"], v.message


# ------------------------------------------------------------------ the lesson on the Hub's files
LESSON_NB = ROOT / "notebooks" / "06_torch_parity.ipynb"


def test_lesson_compares_gpt2_small_from_the_hugging_face_cache(tmp_path_factory, monkeypatch):
    """What docs/learning.md's download leaves (the Hub's file in the cache, openai-community/gpt2): the
    lesson finds it through weights.get_gpt2 and runs GPT-2 small in all three models."""
    cache, sha256 = gpt2_small_cache(tmp_path_factory)
    printed = run_lesson(LESSON_NB, cache, monkeypatch, sha256=sha256)
    lines = printed["code-020"].splitlines()
    snapshot = cache / f"models--{REPO.replace('/', '--')}" / "snapshots" / COMMIT
    assert lines[0] == f"GPT-2 small from the Hugging Face cache ({REPO}, {snapshot / 'model.safetensors'}), sha256 verified"
    assert lines[1:3] == [f"{name} model against Hugging Face's, float32: relative error below 1e-4: True"
                          for name in ("NumPy", "PyTorch")]
    ours, theirs = lines[3].split(":", 1)[1].strip(), lines[4].split(":", 1)[1].strip()
    assert lines[3].startswith("greedy tokens, ours:") and ours == theirs and len(ours.split(",")) == 8


def test_a_wrong_cached_file_is_one_sentence_not_a_traceback(tmp_path, monkeypatch):
    """A cached model.safetensors that is not GPT-2's (the pinned digest stays): never used, said once."""
    weights_file = write_safetensors(tmp_path / "model.safetensors", hub_tensors(TINY))
    snapshot = hub_cache(tmp_path / "cache", {"config.json": hub_config(GPT2_SMALL), "model.safetensors": weights_file})
    printed = run_lesson(LESSON_NB, tmp_path / "cache", monkeypatch)
    note, skipped = printed["code-020"].splitlines()
    assert note.startswith(f"GPT-2's cached weights were not used: {snapshot / 'model.safetensors'} has sha256 ")
    assert "corrupted or was changed; `python -m gpt2course.weights --download` deletes it and downloads it again" in note
    assert note.endswith(" instead.") and ". " not in note and skipped.endswith("so it is skipped here.")
    assert not any("Traceback" in text or "Warning" in text for text in printed.values())

"""from_my_notebook (grader/checking/mine.py): a later exercise runs on the learner's own earlier
function, read from their saved exercise notebook as the batch grader reads it. The notebooks are
the course's own exercise notebooks, solved (solutions/) and then edited as a learner edits them;
the oracle is the course's NumPy model (gpt2course/numpy_gpt.py)."""
from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest

from conftest import ROOT
from gpt2course import numpy_gpt
from grader import from_my_notebook
from grader.checking.mine import NotInYourNotebook

LESSON_03 = "03_mlp_block_exercises.ipynb"


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A course folder with the learner's saved lesson 03 notebook; the lesson 04 notebook runs in
    exercises/, as JupyterLab runs it."""
    (tmp_path / "exercises").mkdir()
    for name in (LESSON_03, "02_attention_exercises.ipynb"):   # block calls lesson 02's functions
        shutil.copy(ROOT / "solutions" / name, tmp_path / "exercises" / name)
    monkeypatch.delenv("GPT2COURSE_ROOT", raising=False)
    monkeypatch.chdir(tmp_path / "exercises")
    return tmp_path


def edit_block(course, old: str, new: str) -> None:
    """The learner changes their block and saves the notebook."""
    path = course / "exercises" / LESSON_03
    nb = json.loads(path.read_text())
    cells = [c for c in nb["cells"] if c["cell_type"] == "code" and "def block(" in "".join(c["source"])]
    assert len(cells) == 1
    source = "".join(cells[0]["source"])
    assert source.count(old) == 1, old
    cells[0]["source"] = source.replace(old, new)
    path.write_text(json.dumps(nb))


def gpt_logits_on(block):
    """The lesson 04 exercise's answer (the solution's own source), with `block` from the learner."""
    nb = json.loads((ROOT / "solutions" / "04_model_init_exercises.ipynb").read_text())
    namespace = {"np": np, "math": __import__("math")}
    exec("".join(nb["cells"][2]["source"]), namespace)   # the notebook's imports
    for cell in nb["cells"]:
        if "exercise" in cell["metadata"].get("tags", []) and "def gpt_logits(" in "".join(cell["source"]):
            exec("".join(cell["source"]), namespace)
    namespace.update(embed=numpy_gpt.embed, layer_norm=numpy_gpt.layer_norm, block=block)
    return namespace["gpt_logits"]


def tiny_model():
    rng = np.random.default_rng(3)
    d, V, T, L = 8, 11, 6, 2
    P = {"wte": rng.normal(size=(V, d)), "wpe": rng.normal(size=(T, d)),
         "ln_f.weight": rng.normal(size=d), "ln_f.bias": rng.normal(size=d)}
    for i in range(L):
        for name, shape in (("ln_1.weight", (d,)), ("ln_1.bias", (d,)), ("attn.c_attn.weight", (d, 3 * d)),
                            ("attn.c_attn.bias", (3 * d,)), ("attn.c_proj.weight", (d, d)), ("attn.c_proj.bias", (d,)),
                            ("ln_2.weight", (d,)), ("ln_2.bias", (d,)), ("mlp.c_fc.weight", (d, 4 * d)),
                            ("mlp.c_fc.bias", (4 * d,)), ("mlp.c_proj.weight", (4 * d, d)), ("mlp.c_proj.bias", (d,))):
            P[f"h.{i}.{name}"] = rng.normal(size=shape) * 0.3
    return P, rng.integers(0, V, size=(2, T))


def test_lesson_04_runs_on_the_learners_own_block(course):
    P, idx = tiny_model()
    mine = from_my_notebook("03_mlp_block", "block")
    assert mine.__code__.co_filename.startswith(LESSON_03)   # the learner's cell, not the course's block
    np.testing.assert_allclose(gpt_logits_on(mine)(P, idx, 2), numpy_gpt.gpt_logits(P, idx, 2), rtol=1e-10)


def test_the_learners_change_shows_once_the_notebook_is_saved(course):
    P, idx = tiny_model()
    right = gpt_logits_on(from_my_notebook("03", "block"))(P, idx, 2)
    edit_block(course, "def block(x, params, layer, n_head):\n",
               "def block(x, params, layer, n_head):\n    x = 2 * x\n")
    doubled = gpt_logits_on(from_my_notebook("03", "block"))(P, idx, 2)
    assert not np.allclose(doubled, right)


def test_what_is_missing_is_said(course):
    with pytest.raises(NotInYourNotebook, match="no function `blocks`"):
        from_my_notebook("03_mlp_block", "blocks")
    with pytest.raises(NotInYourNotebook, match="no exercise notebook for lesson '05'.*03_mlp_block"):
        from_my_notebook("05", "count_gpt2_params")
    (course / "exercises" / LESSON_03).write_text("{not json")
    with pytest.raises(NotInYourNotebook, match="cannot be read"):
        from_my_notebook("03", "block")


def test_a_cell_that_fails_while_defining_is_named(course):
    edit_block(course, "def block(x, params, layer, n_head):\n", "def block(x, params, layer, n_head=undefined_name):\n")
    with pytest.raises(NotInYourNotebook, match="cell .* failed while defining.*NameError"):
        from_my_notebook("03", "block")


def test_a_one_character_fix_saved_at_the_same_size_is_read_again(course):
    """A fix that keeps the file's size (2 * x for 3 * x) must still be seen: the file's time
    changes, so the notebook is read again."""
    P, idx = tiny_model()
    path = course / "exercises" / LESSON_03
    edit_block(course, "def block(x, params, layer, n_head):\n", "def block(x, params, layer, n_head):\n    x = 3 * x\n")
    tripled = gpt_logits_on(from_my_notebook("03", "block"))(P, idx, 2)
    size, stamp = path.stat().st_size, path.stat().st_mtime_ns
    edit_block(course, "    x = 3 * x\n", "    x = 2 * x\n")
    os.utime(path, ns=(stamp + 10**9, stamp + 10**9))   # a later save, whatever the clock's grain
    assert path.stat().st_size == size
    doubled = gpt_logits_on(from_my_notebook("03", "block"))(P, idx, 2)
    assert not np.allclose(doubled, tripled)


def test_gpt2course_root_comes_before_the_folders_around_the_notebook(course, tmp_path_factory, monkeypatch):
    """A learner who sets GPT2COURSE_ROOT gets that course's notebooks, even where an exercises/
    folder sits beside the working folder too."""
    other = tmp_path_factory.mktemp("other")
    (other / "exercises").mkdir()
    shutil.copy(course / "exercises" / "02_attention_exercises.ipynb", other / "exercises")
    shutil.copy(course / "exercises" / LESSON_03, other / "exercises")
    monkeypatch.setenv("GPT2COURSE_ROOT", str(other))
    mine = from_my_notebook("03", "block")
    assert mine.__globals__["__name__"] == "my_03_mlp_block_exercises"
    edit_block(course, "def block(x, params, layer, n_head):\n", "def block(x, params, layer, n_head):\n    x = 2 * x\n")
    P, idx = tiny_model()   # the edit beside the working folder is not the notebook read
    np.testing.assert_allclose(gpt_logits_on(from_my_notebook("03", "block"))(P, idx, 2),
                               numpy_gpt.gpt_logits(P, idx, 2), rtol=1e-10)

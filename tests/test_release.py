"""The student release: check() works from stored public data; no solution, hidden test
or grader internals travel."""
import subprocess
import sys

import pytest

from grader import notebook as nbk
from grader.release import build_release

from conftest import ROOT


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_release(tmp_path_factory.mktemp("rel") / "student")


def solution_lines():
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        for cell in nbk.read(path).cells:
            src = nbk.cell_source(cell)
            lines = src.splitlines()
            for start, end in nbk.solution_regions(src) if nbk.EXERCISE_TAG in nbk.tags(cell) else []:
                for line in lines[start + 1:end]:
                    if len(line.strip()) > 15 and not line.strip().startswith("#") \
                            and not line.strip().endswith(("(", "[", "{")):
                        yield line.strip()


def text_files(bundle):
    for p in bundle.rglob("*"):
        if p.is_file() and p.suffix in {".py", ".ipynb", ".json", ".md", ".txt"}:
            yield p, p.read_text(errors="replace")


def leaks(bundle) -> list[str]:
    needles, found = set(solution_lines()), []
    assert needles
    for path, text in text_files(bundle):
        if path.suffix == ".ipynb":
            text = "\n".join(nbk.cell_source(c) for c in nbk.read(path).cells)
        found += [f"{path.name}: {n}" for n in sorted(needles & {ln.strip() for ln in text.splitlines()})]
        found += [f"{path.name}: solution marker"] if nbk.BEGIN in text else []
    return found


def test_no_solution_code_in_bundle(bundle):
    assert leaks(bundle) == []


def test_the_search_finds_a_planted_solution(bundle, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(bundle, copy)
    shutil.copy(ROOT / "solutions" / "01_embeddings.ipynb", copy / "exercises" / "01_embeddings.ipynb")
    assert leaks(copy)


def test_no_hidden_tests_reference_or_batch_grader(bundle):
    names = {p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file()}
    assert not any(n.startswith("solutions/") for n in names)
    assert not any(n.startswith("grader/lessons/l") for n in names)
    for internal in ("grade.py", "sandbox.py", "_child.py", "stubs.py", "release.py", "collect.py"):
        assert f"grader/{internal}" not in names
    for _, text in text_files(bundle):
        assert "hidden_cases(rng)" not in text and "def _embed_hidden" not in text


def run_in_bundle(bundle, code):
    return subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(bundle)!r})\n" + code],
                          cwd=bundle, capture_output=True, text=True, timeout=120)


def test_check_works_in_bundle_and_names_mistakes(bundle):
    proc = run_in_bundle(bundle, """
import grader, numpy as np
assert grader.__file__.startswith(sys.path[0]), grader.__file__
from grader import check
def embed(wte, wpe, idx):
    return wte[idx] + wpe[idx]
check(embed)
def one_hot_embed(wte, idx):
    return np.eye(wte.shape[0], dtype=wte.dtype)[idx] @ wte
check(one_hot_embed)
def embed(wte, wpe, idx):
    raise NotImplementedError
check(embed)
""")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0].startswith("embed: FAILED") and "position rows looked up by token id" in proc.stdout
    assert any(line.startswith("one_hot_embed: PASSED") for line in out)
    assert out[-1].startswith("embed: TODO")


def test_bundle_has_lessons_and_exercises(bundle):
    for folder in ("notebooks", "exercises"):
        assert sorted(p.name for p in (bundle / folder).glob("*.ipynb")) == \
            sorted(p.name for p in (ROOT / folder).glob("*.ipynb"))


def test_release_refuses_to_overwrite(bundle):
    with pytest.raises(ValueError, match="exists"):
        build_release(bundle)


def test_reference_model_is_not_in_bundle(bundle):
    proc = run_in_bundle(bundle, """
from gpt2course import numpy_gpt, TINY
import numpy as np
assert numpy_gpt.count_params({"a": np.zeros((2, 3))}) == 6
assert numpy_gpt.param_shapes(TINY)["wte"] == (56, 64)
for name in ["embed", "layer_norm", "causal_self_attention", "gelu_tanh", "mlp", "block",
             "gpt_logits", "init_params", "split_heads", "attention_weights"]:
    try:
        getattr(numpy_gpt, name)(*[None] * getattr(numpy_gpt, name).__code__.co_argcount)
    except NotImplementedError as exc:
        assert "student edition" in str(exc)
    else:
        raise AssertionError(name)
""")
    assert proc.returncode == 0, proc.stderr
    source = (bundle / "gpt2course" / "numpy_gpt.py").read_text()
    assert "wpe[:T]" not in source and "np.tanh" not in source and "swapaxes" not in source


def test_lessons_carry_the_student_edition_note(bundle):
    for path in (bundle / "notebooks").glob("*.ipynb"):
        first = nbk.read(path).cells[0]
        assert first.cell_type == "markdown" and "Student edition" in nbk.cell_source(first)


def test_check_in_bundle_needs_own_pieces_and_checks_init_structure(bundle):
    proc = run_in_bundle(bundle, """
import math
import numpy as np
from grader import check
from gpt2course import numpy_gpt
def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    x = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")), p("attn.c_attn.weight"),
                                  p("attn.c_attn.bias"), p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return x + mlp(layer_norm(x, p("ln_2.weight"), p("ln_2.bias")), p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                   p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
check(block)
def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    P = {}
    for name, shape in numpy_gpt.param_shapes(config).items():
        P[name] = rng.normal(0, 0.02, shape) if len(shape) == 2 else np.zeros(shape)
    return P
check(init_gpt)
def init_gpt(config, seed):
    P = {name: np.zeros(shape) for name, shape in numpy_gpt.param_shapes(config).items()}
    P["lm_head.weight"] = P["wte"].copy()
    return P
check(init_gpt)
""")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0].startswith("block: FAILED") and "Define `causal_self_attention` in this notebook" in proc.stdout
    assert any(line.startswith("init_gpt: PASSED") for line in out), proc.stdout
    assert any(line.startswith("init_gpt: FAILED") and "unexpected ['lm_head.weight']" in line
               for line in out), proc.stdout


def test_bundle_exercise_notebooks_run_on_the_student_grader(bundle):
    """The student edition's own grader (not the instructor's) runs every exercise
    notebook top to bottom and prints what the stored outputs say."""
    import os

    env = dict(os.environ, PYTHONPATH=str(bundle))
    probe = subprocess.run([sys.executable, "-c", "import grader; print(grader.__file__)"],
                           env=env, cwd=bundle / "exercises", capture_output=True, text=True)
    assert probe.stdout.startswith(str(bundle)), probe.stdout + probe.stderr
    proc = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env",
                           "-p", "no:cacheprovider", "-q", str(bundle / "exercises")],
                          env=env, cwd=bundle, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:]


def test_bundle_is_installable_metadata(bundle):
    import tomllib

    meta = tomllib.loads((bundle / "pyproject.toml").read_text())
    project = meta["project"]
    assert meta["tool"]["setuptools"]["package-data"]["grader.lessons"] == ["data/*"]
    assert any(d.startswith("numpy") for d in project["dependencies"])
    assert "pytest" not in " ".join(project["dependencies"])

"""Shared helpers for the round-1 attacks: learner notebooks written from scratch.

The structure copies exercises/NN_*_exercises.ipynb (nbformat 4.5, metadata.gpt2course.lesson,
an import cell, then per exercise a code cell tagged `exercise` and one tagged `check`).
"""
from __future__ import annotations

import json
import pathlib
import re

LESSONS = {
    "01_embeddings": ["embed", "one_hot_embed"],
    "02_attention": ["layer_norm", "causal_self_attention"],
    "03_mlp_block": ["gelu_tanh", "mlp", "block"],
    "04_model_init": ["init_gpt", "gpt_logits", "tied_lm_loss_and_grad"],
    "05_counting": ["count_gpt2_params"],
    "06_torch_parity": ["numpy_to_torch", "load_hf_state_dict"],
    "07_position_embeddings": ["sinusoidal_positions", "position_similarity", "principal_components"],
    "08_training_sampling": ["cross_entropy", "get_batch", "sample_next"],
}

# Correct reference-free answers a learner could write (used where an attack needs a passing piece).
GOOD = {
    "embed": '''def embed(wte, wpe, idx):
    """Token plus position embedding."""
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds block size {wpe.shape[0]}")
    return wte[idx] + wpe[np.arange(T)]
''',
    "gelu_tanh": '''def gelu_tanh(x):
    """GPT-2's GELU."""
    x = np.asarray(x)
    c = np.asarray(math.sqrt(2.0 / math.pi), dtype=x.dtype)
    return (0.5 * x * (1 + np.tanh(c * (x + np.asarray(0.044715, dtype=x.dtype) * x ** 3)))).astype(x.dtype)
''',
    "count_gpt2_params": '''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    """Parameters of a GPT-2."""
    b = 1 if bias else 0
    per = (2 * d + 2 * d * b) + (d * 3 * d + 3 * d * b) + (d * d + d * b) + (d * 4 * d + 4 * d * b) + (4 * d * d + d * b)
    total = V * d + T * d + L * per + (d + d * b)
    if not tied:
        total += V * d
    return total
''',
}

GOOD["mlp"] = '''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    """GPT-2's MLP."""
    return (gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj).astype(np.asarray(x).dtype)
'''
GOOD["block"] = '''def block(x, params, layer, n_head):
    """GPT-2's pre-LN block."""
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
'''

IMPORTS = "import math\nimport os\nimport sys\n\nimport numpy as np\n\nfrom grader import check, hint\n"


def _cell(kind: str, src: str, tags=(), cid: str = "") -> dict:
    cell = {"cell_type": kind, "id": cid or f"c{abs(hash((kind, src, tuple(tags)))) % 10**10}",
            "metadata": {"tags": list(tags)} if tags else {}, "source": src.splitlines(keepends=True)}
    if kind == "code":
        cell["execution_count"] = None
        cell["outputs"] = []
    return cell


def notebook(lesson: str, sources: dict[str, str], extra_cells: list[dict] | None = None,
             imports: str = IMPORTS, metadata_extra: dict | None = None) -> dict:
    """A lesson's exercise notebook whose exercise cells hold `sources` (name -> code);
    exercises not given keep the stub's raise NotImplementedError."""
    cells = [_cell("markdown", f"# Exercises: {lesson}", cid="md-000"),
             _cell("code", imports, cid="code-imports")]
    for i, name in enumerate(LESSONS[lesson]):
        src = sources.get(name) or (
            f'def {name}(*args, **kwargs):\n    """stub"""\n'
            f'    raise NotImplementedError("{name}: replace this line with your code")\n')
        cells.append(_cell("code", src, ["exercise"], cid=f"code-ex{i}"))
        cells.append(_cell("code", f"check({name})", ["check"], cid=f"code-ck{i}"))
    for c in extra_cells or []:
        cells.append(c)
    meta = {"gpt2course": {"lesson": lesson},
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"}}
    if metadata_extra:
        meta.update(metadata_extra)
    return {"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}


def code_cell(src: str, tags=()) -> dict:
    return _cell("code", src, tags)


def write_nb(path: pathlib.Path, nb: dict) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, indent=1))
    return path


def nb_name(lesson: str) -> str:
    return f"{lesson}_exercises.ipynb"


def learner_files(out: pathlib.Path, learner_prefix: str = "") -> dict[str, str]:
    """Everything a learner receives: their feedback.md(s), report.json and gradebook.csv."""
    files = {}
    for p in [out / "gradebook.csv", out / "report.json"]:
        if p.exists():
            files[str(p.relative_to(out))] = p.read_text(errors="replace")
    fb = out / "feedback"
    if fb.exists():
        for p in sorted(fb.rglob("*")):
            if p.is_file() and (not learner_prefix or p.parent.name.startswith(learner_prefix)):
                files[str(p.relative_to(out))] = p.read_text(errors="replace")
    return files


def find_marker(out: pathlib.Path, pattern: str, learner_prefix: str = "") -> list[tuple[str, str]]:
    """(file, matched text) for every match of regex `pattern` in what a learner receives."""
    hits = []
    for name, text in learner_files(out, learner_prefix).items():
        for m in re.finditer(pattern, text):
            hits.append((name, m.group(0)[:160]))
    return hits


def gradebook_rows(out: pathlib.Path) -> list[dict]:
    import csv
    p = out / "gradebook.csv"
    if not p.exists():
        return []
    with p.open(newline="") as f:
        return list(csv.DictReader(f))


def report(out: pathlib.Path) -> dict:
    p = out / "report.json"
    if not p.exists():
        return {}
    try:
        return json.loads(p.read_text())
    except ValueError:
        return {}

"""Shared helpers for round-3 attacks: nbformat-4 notebooks written by hand, correct
implementations of the exercises (written from the stubs' docstrings), output scanning."""
from __future__ import annotations

import json
import pathlib
import re
import zipfile

LESSON_FILES = {
    "01_embeddings": "01_embeddings_exercises.ipynb",
    "02_attention": "02_attention_exercises.ipynb",
    "03_mlp_block": "03_mlp_block_exercises.ipynb",
    "04_model_init": "04_model_init_exercises.ipynb",
    "05_counting": "05_counting_exercises.ipynb",
    "06_torch_parity": "06_torch_parity_exercises.ipynb",
    "07_position_embeddings": "07_position_embeddings_exercises.ipynb",
    "08_training_sampling": "08_training_sampling_exercises.ipynb",
}

# Correct implementations, one cell each (from the exercise docstrings).
GOOD = {
    "embed": '''
def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds block size {wpe.shape[0]}")
    return (wte[idx] + wpe[np.arange(T)]).astype(wte.dtype)
''',
    "one_hot_embed": '''
def one_hot_embed(wte, idx):
    idx = np.asarray(idx)
    oh = (idx[..., None] == np.arange(wte.shape[0])).astype(wte.dtype)
    return (oh @ wte).astype(wte.dtype)
''',
    "layer_norm": '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return ((x - mean) / np.sqrt(var + eps) * weight + bias).astype(x.dtype)
''',
    "causal_self_attention": '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    hd = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    def heads(t):
        return np.swapaxes(t.reshape(t.shape[:-1] + (n_head, hd)), -2, -3)
    q, k, v = heads(q), heads(k), heads(v)
    att = (q @ np.swapaxes(k, -1, -2)) / math.sqrt(hd)
    mask = np.triu(np.ones((T, T), dtype=bool), 1)
    att = np.where(mask, -np.inf, att)
    att = att - att.max(axis=-1, keepdims=True)
    att = np.exp(att)
    att = att / att.sum(axis=-1, keepdims=True)
    y = att @ v
    y = np.swapaxes(y, -2, -3).reshape(x.shape)
    return (y @ w_o + b_o).astype(x.dtype)
''',
    "gelu_tanh": '''
def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return (0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))).astype(x.dtype)
''',
    "mlp": '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return (gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj).astype(x.dtype)
''',
    "block": '''
def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    a = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return a + mlp(layer_norm(a, p("ln_2.weight"), p("ln_2.bias")), p("mlp.c_fc.weight"),
                   p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
''',
    "count_gpt2_params": '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    per = (d + b * d) * 2 + (d * 3 * d + b * 3 * d) + (d * d + b * d) + (d * 4 * d + b * 4 * d) + (4 * d * d + b * d)
    n = V * d + T * d + L * per + d + b * d
    if not tied:
        n += V * d
    return n
''',
    "sinusoidal_positions": '''
def sinusoidal_positions(T, d, base=10000.0):
    t = np.arange(T, dtype=np.float64)[:, None]
    i = np.arange(0, d, 2, dtype=np.float64)
    w = base ** (-i / d)
    out = np.zeros((T, d), dtype=np.float64)
    out[:, 0::2] = np.sin(t * w)
    out[:, 1::2] = np.cos(t * w)[:, : d // 2]
    return out
''',
    "position_similarity": '''
def position_similarity(wpe):
    n = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
    return n @ n.T
''',
    "cross_entropy": '''
def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError("shape")
    V = logits.shape[-1]
    if targets.size and (targets.min() < 0 or targets.max() >= V):
        raise ValueError("range")
    m = logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(logits - m).sum(axis=-1)) + m[..., 0]
    picked = np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return np.asarray((lse - picked).mean(), dtype=logits.dtype)[()]
''',
}

HEADERS = {
    "01_embeddings": "import math\nimport numpy as np\n",
    "02_attention": "import math\nimport numpy as np\n",
    "03_mlp_block": "import math\nimport numpy as np\n",
    "04_model_init": "import math\nimport numpy as np\n",
    "05_counting": "import math\n",
    "06_torch_parity": "import numpy as np\n",
    "07_position_embeddings": "import math\nimport numpy as np\n",
    "08_training_sampling": "import math\nimport numpy as np\n",
}


def notebook(lesson: str, cells: list[str], header: str | None = None) -> dict:
    """An exercise notebook of `lesson` whose exercise cells are `cells` (source strings)."""
    out = [{"cell_type": "markdown", "id": "md-001", "metadata": {}, "source": [f"# {lesson}\n"]},
           {"cell_type": "code", "execution_count": None, "id": "code-000", "metadata": {},
            "outputs": [], "source": (header if header is not None else HEADERS[lesson]) +
            "from grader import check, hint\n"}]
    for i, src in enumerate(cells):
        out.append({"cell_type": "code", "execution_count": None, "id": f"ex-{i:03d}",
                    "metadata": {"tags": ["exercise"]}, "outputs": [], "source": src})
        name = re.search(r"^def (\w+)\(", src, re.M)
        if name:
            out.append({"cell_type": "code", "execution_count": None, "id": f"ck-{i:03d}",
                        "metadata": {"tags": ["check"]}, "outputs": [],
                        "source": f"check({name.group(1)})"})
    return {"cells": out, "metadata": {
        "gpt2course": {"lesson": lesson},
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python", "version": "3.11.7"}},
        "nbformat": 4, "nbformat_minor": 5}


def write_nb(path: pathlib.Path, lesson: str, cells: list[str], header: str | None = None) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook(lesson, cells, header), indent=1))
    return path


def nb_bytes(lesson: str, cells: list[str], header: str | None = None) -> bytes:
    return json.dumps(notebook(lesson, cells, header), indent=1).encode()


def good(*names: str) -> list[str]:
    return [GOOD[n] for n in names]


def all_text(out: pathlib.Path) -> str:
    """Everything the grader wrote for learners and the instructor (feedback, report, gradebook)."""
    parts = []
    for p in sorted(out.rglob("*")):
        if p.is_file() and ".state" not in p.parts:
            try:
                parts.append(p.read_text(errors="replace"))
            except OSError:
                pass
    return "\n".join(parts)


def report(out: pathlib.Path) -> dict:
    try:
        return json.loads((out / "report.json").read_text())
    except (OSError, ValueError):
        return {}


def verdicts(out: pathlib.Path, learner: str | None = None) -> dict:
    """{learner: {exercise: verdict dict}} from report.json."""
    res = {}
    for s in report(out).get("submissions", []):
        res[s.get("name")] = {v.get("exercise"): v for v in s.get("verdicts", [])}
    return res if learner is None else res.get(learner, {})


def gradebook_rows(out: pathlib.Path) -> list[dict]:
    import csv
    try:
        with open(out / "gradebook.csv", newline="") as f:
            return list(csv.DictReader(f))
    except OSError:
        return []


# A marker built at run time (never spelled in any notebook's source): "ZQ" + "LEAK" + hex.
MARKER_CODE = "_MK = ''.join(map(chr, [90, 81, 76, 69, 65, 75]))  # built at run time\n"
MARKER_RE = re.compile(r"ZQLEAK[0-9a-fA-F_x.\-]*")


def find_marker(out: pathlib.Path) -> list[str]:
    return sorted(set(MARKER_RE.findall(all_text(out))))


def zip_write(path: pathlib.Path, members: dict[str, bytes]) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


# Learner-side snippet: switch off the in-process audit hook (diagnostic only, per ARCHITECTURE.md)
# so that what remains is the operating system's walls.
DISARM = """
def _disarm():
    import gc, types, sys
    nop = (lambda *a, **k: None).__code__
    n = 0
    for o in gc.get_objects():
        try:
            if isinstance(o, types.FunctionType) and 'hook' in o.__code__.co_filename.rsplit('/', 1)[-1]:
                c = o.__code__
                try:
                    o.__code__ = nop.replace(co_freevars=c.co_freevars) if c.co_freevars else nop
                    n += 1
                except Exception:
                    pass
        except Exception:
            pass
    return n
"""


def run_grader(args: list, out: pathlib.Path, timeout: int = 100):
    """An auxiliary grader run from build() (same interpreter and checkout as the harness)."""
    import os, subprocess
    return subprocess.run([__import__("sys").executable, "-m", "grader", "grade", *map(str, args),
                           "--out", str(out)], cwd=str(pathlib.Path(__file__).resolve().parents[4]),
                          capture_output=True, text=True, timeout=timeout)

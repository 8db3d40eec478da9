"""check() in a kernel and the gradebook agree, case by case.

Every learner here is a notebook as a learner saves it: each solution notebook, learners'
bugs written as code (tests/judging/test_diagnosis.py's, catalogued or not) and a corpus written
the way learners write (black-wrapped lines, loops, einsum, comments ending in "?",
magics, shell commands and help syntax in the same cell as the answer). Each is
- run the way a kernel runs it: every cell but the check cells, through a real IPython
  shell (IPython's transformation, magics run), then check()'s evaluate() on each
  exercise function the cells defined;
- graded by one `python -m grader grade` over the whole class, read from report.json.
For every exercise and every case, pass or fail is the same both ways, and so is the
reason a public example gives; an exercise the kernel has is never "missing" in the
gradebook, and one it lacks always is.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys

import nbformat
import pytest
from nbbuild import code, notebook

from conftest import ROOT
from grader.checking.check import evaluate
from grader.judging import registry
from grader.judging.compare import hidden_wording
from judging.test_diagnosis import CORRECT_INITS, INSIDE, SEED_LEARNERS, TWO_SLIPS, UNCATALOGUED

HEADER = "import math\nimport numpy as np"

# ------------------------------------------------------------------ answers written as learners write them
# (id, lesson, cells after the header). Mistakes are the catalogue's, in a learner's words.
WRITTEN = [
    ("embed_black_and_magics", "01_embeddings", ["%time 1\n!echo starting\n"
     "def embed(wte, wpe, idx):\n"
     "    T = idx.shape[-1]\n"
     "    if T > wpe.shape[0]:  # too long for the table?\n"
     "        raise ValueError(\n"
     "            \"sequence length %d exceeds the block size %d\"\n"
     "            % (T, wpe.shape[0])\n"
     "        )\n"
     "    return wte[idx] + wpe[\n"
     "        :T\n"
     "    ]\n"
     "embed?\n"]),
    ("embed_rows_by_id_loop", "01_embeddings", [
     "def embed(wte, wpe, idx):\n"
     "    if idx.shape[-1] > len(wpe):\n"
     "        raise ValueError(f\"sequence length {idx.shape[-1]} > block size {len(wpe)}\")\n"
     "    out = np.empty(idx.shape + (wte.shape[1],), dtype=wte.dtype)\n"
     "    for pos in np.ndindex(idx.shape):\n"
     "        out[pos] = wte[idx[pos]] + wpe[idx[pos]]  # which row of wpe?\n"
     "    return out\n"]),
    ("one_hot_einsum_in_time_cell", "01_embeddings", [
     "%%time\n"
     "def one_hot_embed(wte, idx):\n"
     "    eye = np.eye(wte.shape[0], dtype=wte.dtype)\n"
     "    return np.einsum('...v,vd->...d', eye[idx], wte)\n"]),
    ("one_hot_float64", "01_embeddings", [
     "def one_hot_embed(wte, idx):\n"
     "    one_hot = np.eye(len(wte))[idx]  # float64, is that a problem?\n"
     "    return one_hot @ wte\n"]),
    ("layer_norm_black_ne", "02_attention", [
     "def layer_norm(x, weight, bias, eps=1e-5):\n"
     "    if (\n"
     "        weight.shape\n"
     "        != x.shape[-1:]\n"
     "    ):\n"
     "        raise ValueError(\"weight does not fit the last axis\")\n"
     "    mu = x.mean(-1, keepdims=True)\n"
     "    var = (\n"
     "        (x - mu) ** 2\n"
     "    ).mean(-1, keepdims=True)\n"
     "    return (x - mu) / np.sqrt(\n"
     "        var\n"
     "        + eps\n"
     "    ) * weight + bias\n"]),
    ("layer_norm_ddof_in_time_cell", "02_attention", [
     "%%time\n"
     "def layer_norm(x, weight, bias, eps=1e-5):\n"
     "    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, ddof=1, keepdims=True) + eps) * weight + bias\n"]),
    ("attention_einsum", "02_attention", [ATTENTION := (
     "def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):\n"
     "    *lead, T, d = x.shape\n"
     "    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)\n"
     "    split = lambda t: t.reshape(*lead, T, n_head, d // n_head)\n"
     "    s = np.einsum('...qhc,...khc->...hqk', split(q), split(k)) / math.sqrt(d // n_head)\n"
     "    MASK\n"
     "    w = np.exp(s - s.max(-1, keepdims=True))\n"
     "    w /= w.sum(-1, keepdims=True)  # rows sum to 1?\n"
     "    y = np.einsum('...hqk,...khc->...qhc', w, split(v)).reshape(*lead, T, d)\n"
     "    return y @ w_o + b_o\n").replace(
        "MASK", "s = np.where(np.tri(T, dtype=bool), s, -np.inf)")]),
    ("attention_einsum_no_mask", "02_attention", [ATTENTION.replace(
        "s = np.where(np.tri(T, dtype=bool), s, -np.inf)", "pass  # mask later?")]),
    ("gelu_black_minus", "03_mlp_block", [
     "def gelu_tanh(x):\n"
     "    c = math.sqrt(2 / math.pi)\n"
     "    return 0.5 * x * (\n"
     "        2.0\n"
     "        - (1.0 - np.tanh(c * (x + 0.044715 * x**3)))\n"
     "    )\n"]),
    ("gelu_exact_erf_loop", "03_mlp_block", [
     "def gelu_tanh(x):\n"
     "    out = np.empty_like(x)\n"
     "    for i, v in np.ndenumerate(x):\n"
     "        out[i] = 0.5 * v * (1 + math.erf(v / math.sqrt(2)))\n"
     "    return out\n"]),
    ("count_black_operators", "05_counting", [
     "def count_gpt2_params(V, T, d, L, tied=True, bias=True):\n"
     "    label = (\n"
     "        \"%d layers of width %d\"\n"
     "        % (L, d)\n"
     "    )  # not used: did I need it?\n"
     "    per_block = (\n"
     "        12 * d * d\n"
     "        + (13 * d if bias else 2 * d)\n"
     "    )\n"
     "    return (\n"
     "        (V + T) * d\n"
     "        + L * per_block\n"
     "        + (2 * d if bias else d)\n"
     "        + (0 if tied else V * d)\n"
     "    )\n"]),
    ("count_tied_twice", "05_counting", [
     "def count_gpt2_params(V, T, d, L, tied=True, bias=True):\n"
     "    blocks = L * (12 * d * d + (13 * d if bias else 2 * d))\n"
     "    return V * d + T * d + blocks + (2 * d if bias else d) + V * d  # head counted too?\n"]),
    ("sinusoid_loops", "07_position_embeddings", [
     "def sinusoidal_positions(T, d, base=10000.0):\n"
     "    if d % 2:\n"
     "        raise ValueError(f\"d must be even, got d={d}\")\n"
     "    pe = np.zeros((T, d))\n"
     "    for t in range(T):\n"
     "        for i in range(0, d, 2):\n"
     "            angle = t / base ** (i / d)  # the same frequency for the pair?\n"
     "            pe[t, i], pe[t, i + 1] = math.sin(angle), math.cos(angle)\n"
     "    return pe\n"]),
    ("sinusoid_swapped", "07_position_embeddings", [
     "def sinusoidal_positions(T, d, base=10000.0):\n"
     "    if d % 2:\n"
     "        raise ValueError(f\"d must be even, got d={d}\")\n"
     "    angles = np.arange(T)[:, None] / base ** (np.arange(0, d, 2) / d)\n"
     "    pe = np.empty((T, d))\n"
     "    pe[:, 0::2], pe[:, 1::2] = np.cos(angles), np.sin(angles)\n"
     "    return pe\n"]),
    ("similarity_einsum", "07_position_embeddings", [
     "def position_similarity(wpe):\n"
     "    if wpe.ndim != 2:\n"
     "        raise ValueError(f\"wpe must be 2-D, got shape {wpe.shape}\")\n"
     "    unit = wpe / np.sqrt(np.einsum('td,td->t', wpe, wpe))[:, None]\n"
     "    return np.einsum('sd,td->st', unit, unit)\n"]),
    ("similarity_dot", "07_position_embeddings", [
     "def position_similarity(wpe):\n"
     "    if wpe.ndim != 2:\n"
     "        raise ValueError(f\"wpe must be 2-D, got shape {wpe.shape}\")\n"
     "    return wpe @ wpe.T  # cosine?\n"]),
    ("get_batch_uint8", "08_training_sampling", [
     "def get_batch(data, batch_size, block_size, rng):\n"
     "    if len(data) < block_size + 1:\n"
     "        raise ValueError(f\"data of {len(data)} ids, block_size {block_size}: no window fits\")\n"
     "    ix = rng.integers(0, len(data) - block_size, size=batch_size)\n"
     "    x = np.stack([data[i:i + block_size] for i in ix])\n"
     "    y = np.stack([data[i + 1:i + 1 + block_size] for i in ix])\n"
     "    return x, y\n"]),
    ("get_batch_loop_and_help", "08_training_sampling", [
     "?get_batch\n"
     "def get_batch(data, batch_size, block_size, rng):\n"
     "    if len(data) < block_size + 1:\n"
     "        raise ValueError(f\"data of {len(data)} ids, block_size {block_size}: no window fits\")\n"
     "    starts = rng.integers(0, len(data) - block_size, size=batch_size)\n"
     "    x = np.zeros((batch_size, block_size), dtype=np.int64)\n"
     "    y = np.zeros((batch_size, block_size), dtype=np.int64)\n"
     "    for b, s in enumerate(starts):\n"
     "        x[b] = data[s:s + block_size]\n"
     "        y[b] = data[s + 1:s + 1 + block_size]\n"
     "    return x, y\n"
     "get_batch??\n"]),
    ("cross_entropy_log_softmax", "08_training_sampling", [
     "def cross_entropy(logits, targets):\n"
     "    z = logits - logits.max(-1, keepdims=True)\n"
     "    p = np.exp(z) / np.exp(z).sum(-1, keepdims=True)\n"
     "    return -np.log(np.take_along_axis(p, targets[..., None], -1)).mean()\n"]),
    ("sample_next_ties_kept", "08_training_sampling", [
     "!echo sampling\n"
     "def sample_next(logits, temperature, top_k, rng):\n"
     "    if temperature <= 0:\n"
     "        raise ValueError(f\"temperature must be positive, got {temperature}\")\n"
     "    z = logits / temperature\n"
     "    if top_k is not None and top_k < z.shape[-1]:\n"
     "        kth = np.sort(z, axis=-1)[:, -top_k][:, None]\n"
     "        z = np.where(z >= kth, z, -np.inf)  # ties with the k-th stay too\n"
     "    p = np.exp(z - z.max(-1, keepdims=True))\n"
     "    p /= p.sum(-1, keepdims=True)\n"
     "    return np.array([rng.choice(len(row), p=row) for row in p], dtype=np.int64)\n"]),
]


def learners():
    """(learner id, notebook) for the whole corpus."""
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        yield f"solution_{path.stem}", nbformat.read(path, as_version=4)
    from_diagnosis = ([(f"uncatalogued_{k}", ex, src) for k, (_, ex, src, _named) in enumerate(UNCATALOGUED)]
                      + [(f"inside_{k}", ex, src) for k, (_, ex, src, _m) in enumerate(INSIDE)]
                      + [(f"two_slips_{k}", "embed", src) for k, (_, src, _m) in enumerate(TWO_SLIPS)]
                      + [(f"seed_{k}", "init_gpt", src) for k, (_, src, _m) in enumerate(SEED_LEARNERS[:2])]
                      + [(f"init_{k}", "init_gpt", src) for k, (_, src) in enumerate(CORRECT_INITS)])
    for name, exercise, source in from_diagnosis:
        yield name, notebook([code(HEADER), code(source)], lesson=registry.get(exercise).lesson)
    for name, lesson, cells in WRITTEN:
        yield name, notebook([code(HEADER)] + [code(c) for c in cells], lesson=lesson)


CORPUS = dict(learners())


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory):
    """One `python -m grader grade` over the class; {learner: {exercise: verdict}}."""
    base = tmp_path_factory.mktemp("agreement")
    for name, nb in CORPUS.items():
        (base / "class" / name).mkdir(parents=True)
        nbformat.write(nb, base / "class" / name / f"{nb.metadata['gpt2course']['lesson']}_exercises.ipynb")
    out = base / "out"
    # --public-seeds: the hidden cases check() runs, so the two are compared case for case
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(base / "class"), "--out", str(out),
                           "--jobs", "2", "--public-seeds", "--lessons",  # every lesson, however many hand it in
                           ",".join(sorted({nb.metadata["gpt2course"]["lesson"] for nb in CORPUS.values()}))],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads((out / "report.json").read_text())
    return {s["name"]: {v["exercise"]: v for v in s["verdicts"]} for s in report["submissions"]}


def kernel_verdicts(nb) -> dict:
    """Run the notebook's cells (not its check cells) in a real IPython shell, then
    evaluate() every exercise function it defined, as check() does in that kernel."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.reset(new_session=False)
    for cell in nb.cells:
        if cell.cell_type == "code" and "check" not in cell.metadata.get("tags", []):
            result = shell.run_cell(cell.source, silent=True)
            assert result.success, (cell.source[:200], result.error_before_exec or result.error_in_exec)
    lesson = nb.metadata["gpt2course"]["lesson"]
    return {e.name: evaluate(shell.user_ns[e.name]) for e in registry.for_lesson(lesson)
            if callable(shell.user_ns.get(e.name))}


def failed_cases(failures: list[str]) -> dict[int, str]:
    """{test number: reason} from a verdict's failures list ('test 3: ...')."""
    found = (re.match(r"test (\d+): (.*)", f, re.S) for f in failures)
    return {int(m.group(1)): m.group(2) for m in found if m}


def withheld(reason: str) -> str:
    """A reason as the batch words it: 'raised ValueError: <message>' -> 'raised ValueError'."""
    return re.sub(r"^raised (\w+)(: .*| \(its message is not shown.*)$", r"raised \1", reason, flags=re.S)


@pytest.mark.parametrize("name", list(CORPUS))
def test_check_and_the_gradebook_agree_on_every_case(gradebook, name):
    nb = CORPUS[name]
    here = kernel_verdicts(nb)
    there = gradebook[name]
    assert here, "the kernel defined no exercise"
    graded = {ex for ex, v in there.items() if v["status"] != "missing"}
    assert graded == set(here), (graded, set(here))
    for exercise, verdict in here.items():
        public = len(registry.get(exercise).cases(hidden=False))
        mine, theirs = failed_cases(verdict.failures), failed_cases(there[exercise]["failures"])
        assert set(mine) == set(theirs), (exercise, verdict.message, there[exercise]["message"])
        # a public example's reason: the batch says its kind (compare.hidden_wording, as for a hidden
        # case) where check() gives it in full, and never an exception's message: both quote
        # values the learner's code chose
        returns = registry.get(exercise).returns
        assert ({i: withheld(hidden_wording(r, returns)) for i, r in mine.items() if i <= public}
                == {i: withheld(r) for i, r in theirs.items() if i <= public})
        assert verdict.status == there[exercise]["status"] and verdict.mistakes == there[exercise]["mistakes"]


def test_the_corpus_holds_both_verdicts(gradebook):
    """The corpus is not all passes: correct answers pass, the written mistakes fail."""
    statuses = {(n, ex): v["status"] for n, vs in gradebook.items() for ex, v in vs.items() if v["status"] != "missing"}
    assert all(s == "passed" for (n, _), s in statuses.items() if n.startswith(("solution_", "init_")))
    assert all(s == "failed" for (n, _), s in statuses.items() if n.startswith(("uncatalogued_", "inside_")))
    written = {n: {s for (m, _), s in statuses.items() if m == n} for n, _, _ in WRITTEN}
    correct = {"embed_black_and_magics", "one_hot_einsum_in_time_cell", "layer_norm_black_ne", "attention_einsum",
               "gelu_black_minus", "count_black_operators", "sinusoid_loops", "similarity_einsum",
               "get_batch_loop_and_help"}
    assert {n for n, s in written.items() if s == {"passed"}} == correct, written

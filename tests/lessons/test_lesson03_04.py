"""Lessons 03 (GELU, MLP, block) and 04 (init, logits, tied gradient): the references
are right, and every catalogued mistake is caught and named, both from its registered
variant and from a learner's function written independently here."""
from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from contextlib import redirect_stdout

import nbformat
import numpy as np
import pytest
import torch

from grader import check
from grader.judging import registry
from grader.checking.check import evaluate
from grader.judging.answers import reference_answers
from grader.lessons import l03_mlp_block as l03
from grader.lessons import l04_model_init as l04
from gpt2course import numpy_gpt as ref
from gpt2course.config import GPTConfig

EXERCISES = {"gelu_tanh": l03, "mlp": l03, "block": l03,
             "init_gpt": l04, "gpt_logits": l04, "tied_lm_loss_and_grad": l04}

def exercise(name):
    ex = registry.get(name)
    assert ex is not None and ex.lesson == EXERCISES[name].LESSON
    return ex


def verdict_for(fn):
    return evaluate(fn)


# ------------------------------------------------------------------ registry and references
def test_uses_point_at_registered_top_level_references():
    """The batch grader loads `uses` references in the child as module:function."""
    import importlib

    for name in EXERCISES:
        for used in exercise(name).uses:
            fn = registry.get(used).reference
            assert getattr(importlib.import_module(fn.__module__), fn.__name__) is fn
    assert exercise("block").uses[:2] == ("layer_norm", "causal_self_attention")
    assert {"embed", "block", "layer_norm"} <= set(exercise("gpt_logits").uses)


def test_exact_gelu_is_detectable_at_the_tolerance():
    x = np.linspace(-4, 4, 101)
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
    rel = np.abs(ref.gelu_tanh(x) - exact).max() / np.abs(exact).max()
    assert 1e-6 < rel < 1e-3


def test_hidden_cases_cover_repeated_and_unseen_ids():
    for case in exercise("tied_lm_loss_and_grad").cases():
        idx = case.args["idx"].ravel()
        assert len(np.unique(idx)) < idx.size, "every case must repeat an id"
    assert any(len(np.unique(c.args["idx"])) < c.args["E"].shape[0]
               for c in exercise("tied_lm_loss_and_grad").cases())


def test_block_cases_use_layers_other_than_zero():
    layers = [c.args["layer"] for c in exercise("block").cases()]
    assert max(layers) >= 2 and 0 in layers


# ------------------------------------------------------------------ the tied gradient
def _autograd(E, A, idx, targets):
    Et = torch.tensor(E, dtype=torch.float64, requires_grad=True)
    At = torch.tensor(A, dtype=torch.float64)
    H = torch.tanh(Et[torch.as_tensor(idx)] @ At)
    Z = H @ Et.T
    loss = torch.nn.functional.cross_entropy(Z.reshape(-1, E.shape[0]),
                                             torch.as_tensor(targets).reshape(-1))
    loss.backward()
    return loss.item(), Et.grad.numpy()


@pytest.mark.parametrize("seed, lead, T, V, d", [(0, (), 9, 5, 3), (1, (3,), 12, 20, 6),
                                                 (2, (2,), 40, 8, 4), (3, (4,), 16, 56, 16)])
def test_tied_reference_equals_torch_autograd(seed, lead, T, V, d):
    rng = np.random.default_rng(seed)
    E, A = rng.standard_normal((V, d)), rng.standard_normal((d, d)) / math.sqrt(d)
    idx = rng.integers(0, V, size=lead + (T,))
    idx.flat[1] = idx.flat[0]  # a repeated id
    targets = rng.integers(0, V, size=lead + (T,))
    loss, dE = l04.tied_lm_reference(E, A, idx, targets)
    loss_t, dE_t = _autograd(E, A, idx, targets)
    assert abs(loss - loss_t) <= 1e-13 * abs(loss_t)
    assert np.abs(dE - dE_t).max() <= 1e-12 * np.abs(dE_t).max()


def test_tied_reference_keeps_float32():
    rng = np.random.default_rng(7)
    E = rng.standard_normal((9, 4)).astype(np.float32)
    A = rng.standard_normal((4, 4)).astype(np.float32)
    idx = rng.integers(0, 9, size=(2, 5))
    loss, dE = l04.tied_lm_reference(E, A, idx, idx[:, ::-1].copy())
    assert dE.dtype == np.float32 and np.asarray(loss).dtype == np.float32


# ------------------------------------------------------------------ the statistical judge
def _draw_in_another_order(config, seed):
    """A correct init that shares nothing with the reference's draws."""
    rng = np.random.default_rng(seed + 12345)
    P = {}
    L = config.n_layer
    for name, shape in reversed(list(ref.param_shapes(config).items())):
        if name.endswith(".bias"):
            P[name] = np.zeros(shape)
        elif "ln_" in name:
            P[name] = np.ones(shape)
        else:
            std = 0.02 / math.sqrt(2 * L) if name.endswith("c_proj.weight") else 0.02
            P[name] = rng.normal(0.0, std, size=shape)
    return P


def test_init_judge_accepts_independent_correct_draws():
    ex = exercise("init_gpt")
    cases = ex.cases()
    expected = reference_answers(ex, cases)
    for seed in range(20):
        for c, e in zip(cases, expected):
            assert l04.init_judge(ref.init_params(c.args["config"], seed=1000 + seed), c, e, 1e-8) is None
            assert l04.init_judge(_draw_in_another_order(c.args["config"], seed), c, e, 1e-8) is None


def test_init_judge_rejects_other_distributions_and_dtypes():
    c = exercise("init_gpt").cases()[1]
    e = ref.init_params(c.args["config"], seed=c.args["seed"])
    rng = np.random.default_rng(0)
    uniform = {k: (rng.uniform(-1, 1, v.shape) * math.sqrt(3) * v.std() if v.std() > 0 else v)
               for k, v in e.items()}
    assert "normally distributed" in l04.init_judge(uniform, c, e, 1e-8)
    assert "dtype" in l04.init_judge({k: v.astype(np.float32) for k, v in e.items()}, c, e, 1e-8)
    assert "dict" in l04.init_judge([e["wte"]], c, e, 1e-8)


def test_init_judge_can_tell_mistakes_apart_from_independent_draws():
    """judge(answer, case, expected=a variant's answer) says whether the answer behaves
    like that variant: each variant's fresh draw matches itself and no other. The seed
    mistakes draw correctly within one case (they show only across cases: see
    tests/judging/test_diagnosis.py), so they are left out here."""
    ex = exercise("init_gpt")
    across_cases = ("seed ignored", "generator not seeded")
    by_name = {m.name: m.variant for m in ex.mistakes if m.name not in across_cases} | {"reference": ex.reference}
    for c in ex.cases():
        config, seed = c.args["config"], c.args["seed"]
        answers = {n: v(config, seed) for n, v in by_name.items()}
        for n, variant in by_name.items():
            fresh = variant(config, seed + 777)
            for other, expected in answers.items():
                ok = l04.init_judge(fresh, c, expected, 1e-8) is None
                assert ok == (other == n), (n, other)


# ------------------------------------------------------------------ learners' own code
def test_learner_exact_gelu_is_named():
    def gelu_tanh(x):
        erf = np.vectorize(math.erf)
        return (x * 0.5 * (1.0 + erf(x / math.sqrt(2.0)))).astype(x.dtype)

    v = verdict_for(gelu_tanh)
    assert v.status == "failed" and v.mistakes == ["exact GELU instead of the tanh approximation"]


def test_learner_gelu_with_numpy_constant_upcasts_float32():
    def gelu_tanh(x):
        k = np.sqrt(2 / np.pi)
        return x * 0.5 * (1 + np.tanh(k * (x + 0.044715 * np.power(x, 3))))

    v = verdict_for(gelu_tanh)
    assert v.mistakes == ["float32 input upcast to float64"]
    assert 0 < v.points < 1


def test_learner_mlp_without_output_bias_is_named():
    def mlp(x, w_fc, b_fc, w_proj, b_proj):
        hidden = gelu_tanh(np.matmul(x, w_fc) + b_fc)  # noqa: F821  (swapped in by check)
        return np.matmul(hidden, w_proj)

    v = verdict_for(mlp)
    assert v.mistakes == ["bias of the down-projection missing"]


def test_learner_post_ln_block_is_named_and_pieces_are_swapped_in():
    def block(x, params, layer, n_head):
        g = lambda k: params["h.%d.%s" % (layer, k)]  # noqa: E731
        y = x + causal_self_attention(x, g("attn.c_attn.weight"), g("attn.c_attn.bias"),  # noqa: F821
                                      g("attn.c_proj.weight"), g("attn.c_proj.bias"), n_head)
        y = layer_norm(y, g("ln_1.weight"), g("ln_1.bias"))  # noqa: F821
        y = y + mlp(y, g("mlp.c_fc.weight"), g("mlp.c_fc.bias"),  # noqa: F821
                    g("mlp.c_proj.weight"), g("mlp.c_proj.bias"))
        return layer_norm(y, g("ln_2.weight"), g("ln_2.bias"))  # noqa: F821

    v = verdict_for(block)
    assert v.mistakes == ["post-LN instead of pre-LN"]


def test_learner_block_with_a_buggy_layer_norm_still_passes():
    """block is graded on the reference layer_norm: a bug there is not charged twice."""
    namespace = {"np": np, "math": math}
    exec(
        "def layer_norm(x, weight, bias, eps=1e-5):\n"
        "    return (x - x.mean(-1, keepdims=True)) / (x.std(-1, ddof=1, keepdims=True) + eps) * weight + bias\n"
        "def block(x, params, layer, n_head):\n"
        "    p = lambda k: params[f'h.{layer}.{k}']\n"
        "    x = x + causal_self_attention(layer_norm(x, p('ln_1.weight'), p('ln_1.bias')),\n"
        "        p('attn.c_attn.weight'), p('attn.c_attn.bias'), p('attn.c_proj.weight'), p('attn.c_proj.bias'), n_head)\n"
        "    return x + mlp(layer_norm(x, p('ln_2.weight'), p('ln_2.bias')), p('mlp.c_fc.weight'),\n"
        "        p('mlp.c_fc.bias'), p('mlp.c_proj.weight'), p('mlp.c_proj.bias'))\n",
        namespace)
    assert verdict_for(namespace["block"]).status == "passed"
    assert "layer_norm" in namespace and namespace["layer_norm"] is not ref.layer_norm  # restored


def _init_following_the_recipe(scale_proj):
    def init_gpt(config, seed):
        rng = np.random.default_rng(seed)
        V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
        out = {"wte": 0.02 * rng.standard_normal((V, d)), "wpe": 0.02 * rng.standard_normal((T, d))}
        proj = 0.02 / math.sqrt(2 * L) if scale_proj else 0.02
        for i in range(L):
            for ln in ("ln_1", "ln_2"):
                out[f"h.{i}.{ln}.weight"], out[f"h.{i}.{ln}.bias"] = np.ones(d), np.zeros(d)
            for name, shape, std in [("attn.c_attn", (d, 3 * d), 0.02), ("attn.c_proj", (d, d), proj),
                                     ("mlp.c_fc", (d, 4 * d), 0.02), ("mlp.c_proj", (4 * d, d), proj)]:
                out[f"h.{i}.{name}.weight"] = std * rng.standard_normal(shape)
                out[f"h.{i}.{name}.bias"] = np.zeros(shape[1])
        out["ln_f.weight"], out["ln_f.bias"] = np.ones(d), np.zeros(d)
        return out
    return init_gpt


def test_learner_init_without_residual_scaling_is_named():
    v = verdict_for(_init_following_the_recipe(scale_proj=False))
    assert v.status == "failed" and v.mistakes == ["residual projections not scaled by 1/sqrt(2L)"]
    assert verdict_for(_init_following_the_recipe(scale_proj=True)).status == "passed"


def test_learner_init_with_its_own_draws_is_graded_statistically():
    def init_gpt(config, seed):
        return _draw_in_another_order(config, seed)

    assert verdict_for(init_gpt).status == "passed"

    def init_gpt(config, seed):  # noqa: F811  untied head, own draw order
        P = _draw_in_another_order(config, seed)
        P["lm_head.weight"] = np.random.default_rng(seed).normal(0, 0.02, P["wte"].shape)
        return P

    v = verdict_for(init_gpt)
    assert v.status == "failed" and v.points == 0 and "separate output head" in v.message


def test_learner_init_with_its_own_draws_is_named():
    def init_gpt(config, seed):
        P = _draw_in_another_order(config, seed)
        P["lm_head.weight"] = np.random.default_rng(seed).normal(0, 0.02, P["wte"].shape)
        return P

    assert verdict_for(init_gpt).mistakes == ["separate untied output head"]


def test_learner_logits_without_final_ln_is_named():
    def gpt_logits(P, idx, n_head):
        x = embed(P["wte"], P["wpe"], idx)  # noqa: F821
        layer = 0
        while f"h.{layer}.ln_1.weight" in P:
            x = block(x, P, layer, n_head)  # noqa: F821
            layer += 1
        return np.einsum("...td,vd->...tv", x, P["wte"])

    v = verdict_for(gpt_logits)
    assert v.mistakes == ["final LayerNorm missing"]


def test_learner_tied_grad_assigning_repeated_ids_is_named():
    def tied_lm_loss_and_grad(E, A, idx, targets):
        V, d = E.shape
        ids, tg = idx.ravel(), targets.ravel()
        X = E[ids]
        H = np.tanh(X @ A)
        Z = H @ E.T
        P = np.exp(Z - Z.max(1, keepdims=True))
        P /= P.sum(1, keepdims=True)
        loss = -np.mean(np.log(P[np.arange(len(tg)), tg]))
        G = (P - np.eye(V, dtype=E.dtype)[tg]) / len(tg)
        dE = G.T @ H
        dE[ids] += (G @ E * (1 - H**2)) @ A.T  # keeps one write per repeated id
        return loss, dE

    v = verdict_for(tied_lm_loss_and_grad)
    assert v.mistakes == ["repeated ids assigned instead of accumulated"]


def test_check_prints_the_mistake():
    def tied_lm_loss_and_grad(E, A, idx, targets):
        n = targets.size
        H = np.tanh(E[idx] @ A).reshape(n, -1)
        Z = H @ E.T
        p = np.exp(Z - Z.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        loss = -np.log(p[np.arange(n), targets.ravel()]).mean()
        p[np.arange(n), targets.ravel()] -= 1
        return loss, p.T @ H / n  # the head's path only

    out = io.StringIO()
    with redirect_stdout(out):
        check(tied_lm_loss_and_grad)
    assert "FAILED" in out.getvalue() and "tied gradient missing the input path" in out.getvalue()


# ------------------------------------------------------------------ the batch grader
HELPERS_03 = '''
import math
import numpy as np

def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + eps) * weight + bias

def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    raise RuntimeError("the grader swaps in the reference")
'''


def _batch_verdicts(tmp_path, notebooks) -> dict:
    """Grade through the command line (sandboxed children) and read report.json."""
    out = tmp_path / "out"
    lessons = ",".join(sorted({nbformat.read(str(p), 4).metadata["gpt2course"]["lesson"] for p in notebooks}))
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", *map(str, notebooks), "--out", str(out),
                           "--lessons", lessons],  # one learner per lesson: name the assignment
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    report = json.loads((out / "report.json").read_text())
    found = {}
    for s in report["submissions"]:  # each lists every exercise of the assignment: its own lesson's graded
        for v in s["verdicts"]:
            if v["status"] != "missing" or v["exercise"] not in found:
                found[v["exercise"]] = (v["status"], v["mistakes"])
    return found


def _notebook(tmp_path, name, lesson, sources):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nb.metadata["gpt2course"] = {"lesson": lesson}
    path = tmp_path / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def test_batch_grader_names_mistakes_in_lessons_03_and_04(tmp_path):
    nb03 = _notebook(tmp_path, "ann_03", "03_mlp_block", [HELPERS_03, '''
def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))

def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh((x @ w_fc + b_fc) @ w_proj + b_proj)

def block(x, params, layer, n_head):
    p = lambda k: params[f"h.{layer}.{k}"]
    x = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")), p("attn.c_attn.weight"),
                                  p("attn.c_attn.bias"), p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return x + mlp(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")), p("mlp.c_fc.weight"),
                   p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
'''])
    nb04 = _notebook(tmp_path, "ann_04", "04_model_init", ["import math\nimport numpy as np", '''
def embed(wte, wpe, idx):
    return wte[idx]

def gpt_logits(P, idx, n_head):
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(sum(k.endswith("ln_1.weight") for k in P)):
        x = block(x, P, layer, n_head)
    return layer_norm(x, P["ln_f.weight"], P["ln_f.bias"]) @ P["wte"].T

def tied_lm_loss_and_grad(E, A, idx, targets):
    n, V = targets.size, E.shape[0]
    H = np.tanh(E[idx] @ A).reshape(n, -1)
    Z = H @ E.T
    logp = Z - Z.max(-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(-1, keepdims=True))
    dZ = np.exp(logp)
    dZ[np.arange(n), targets.ravel()] -= 1
    dZ /= n
    dE = dZ.T @ H
    dE[idx.ravel()] += ((dZ @ E) * (1 - H * H)) @ A.T
    return -logp[np.arange(n), targets.ravel()].mean(), dE

def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.zeros(d), np.zeros(d)
        P[h + "attn.c_attn.weight"], P[h + "attn.c_attn.bias"] = rng.standard_normal((d, 3 * d)) * 0.02, np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * 0.02 / math.sqrt(2 * L)
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.zeros(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"], P[h + "mlp.c_fc.bias"] = rng.standard_normal((d, 4 * d)) * 0.02, np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * 0.02 / math.sqrt(2 * L)
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.zeros(d), np.zeros(d)
    return P
'''])
    assert _batch_verdicts(tmp_path, [nb03, nb04]) == {
        "gelu_tanh": ("passed", []),
        "mlp": ("failed", ["GELU after the down-projection instead of between the layers"]),
        "block": ("failed", ["ln_1's parameters used for the second LayerNorm"]),
        "init_gpt": ("failed", ["LayerNorm gains initialised to 0"]),
        "gpt_logits": ("passed", []),  # its own embed is swapped for the reference
        "tied_lm_loss_and_grad": ("failed", ["repeated ids assigned instead of accumulated"]),
    }


def test_batch_grader_accepts_a_numpy_scalar_loss(tmp_path):
    nb = _notebook(tmp_path, "bob_04", "04_model_init", ["import numpy as np", '''
def tied_lm_loss_and_grad(E, A, idx, targets):
    n, d = targets.size, E.shape[1]
    H = np.tanh(E[idx] @ A).reshape(n, d)
    Z = H @ E.T
    logp = Z - Z.max(-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(-1, keepdims=True))
    dZ = np.exp(logp)
    dZ[np.arange(n), targets.ravel()] -= 1
    dZ /= n
    dE = dZ.T @ H
    np.add.at(dE, idx.ravel(), ((dZ @ E) * (1 - H * H)) @ A.T)
    return -logp[np.arange(n), targets.ravel()].mean(), dE
'''])
    assert _batch_verdicts(tmp_path, [nb])["tied_lm_loss_and_grad"][0] == "passed"


def test_random_params_exercise_every_tensor():
    cfg = GPTConfig(vocab_size=11, block_size=8, n_layer=2, n_embd=8, n_head=2)
    P = l03.random_params(np.random.default_rng(0), cfg)
    assert set(P) == set(ref.param_shapes(cfg))
    assert all(np.ptp(v) > 0 for v in P.values())

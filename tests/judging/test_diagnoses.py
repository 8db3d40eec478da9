"""Diagnoses that are not a list of variants (grader/judging/diagnoses.py), and the course's one rule
for a loss (a NumPy scalar of the inputs' dtype, compare._scalar_type_mismatch).

Each diagnosis is tried on an answer written here as a learner would write it, that no catalogued
mistake reproduces, and must name it, identically through check() and through the judge as the batch
grader calls it; each stays silent on right answers in several styles and on a plain bug.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from grader.checking.check import evaluate, reference_pieces
from grader.judging import registry
from grader.judging.answers import call_answer, mistake_answers_for, reference_answers
from grader.judging.compare import value_mismatch
from grader.judging.judge import judge

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def learner(name: str, source: str):
    namespace = {"np": np, "math": math}
    exec(compile(source, f"<learner {name}>", "exec"), namespace)
    return namespace[name]


def batch_verdict(fn):
    ex = registry.get(fn.__name__)
    cases = ex.cases()
    with reference_pieces(fn, ex.uses):
        answers = [call_answer(fn, c) for c in cases]
    return judge(ex, cases, answers, reference_answers(ex, cases), mistake_answers_for(ex, cases))


PATHS = {"check": evaluate, "batch": batch_verdict}

# ------------------------------------------------------------------ learners' answers
MLP_LINEAR_LAYOUT = """
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc.T + b_fc)     # as nn.Linear does it
    return h @ w_proj.T + b_proj
"""
ATTN_LINEAR_LAYOUT = """
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    qkv = np.matmul(x, w_qkv.T) + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    hs = d // n_head
    q, k, v = (t.reshape(*lead, T, n_head, hs).swapaxes(-2, -3) for t in (q, k, v))
    att = q @ k.swapaxes(-1, -2) / math.sqrt(hs)
    att = np.where(np.tril(np.ones((T, T), bool)), att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    y = (att @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
"""
HEAD_UNTRANSPOSED = """
def gpt_logits(P, idx, n_head):
    n_layer = sum(k.endswith(".ln_1.weight") for k in P)
    h = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        h = block(h, P, i, n_head)
    h = layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])
    return h @ P["wte"]
"""
EMBED_NO_BATCH = """
def embed(wte, wpe, idx):
    T = len(idx)
    if idx.shape[-1] > wpe.shape[0]:
        raise ValueError(f"{idx.shape[-1]} tokens, block size {wpe.shape[0]}")
    return wte[idx] + wpe[np.arange(T)]
"""
EMBED_SHIFTED = """
def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > len(wpe):
        raise ValueError(f"sequence of {T} is longer than the block size {len(wpe)}")
    return wte[idx] + wpe[1:T + 1]
"""
GELU_NO_HALF = """
def gelu_tanh(x):
    return x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
"""
LN_PLUS_ONE = """
def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    sd = np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + eps)
    return (x - mu) / sd * weight + bias + 1
"""
LN_UPCAST = """
def layer_norm(x, weight, bias, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    mu = x.mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(x.var(-1, keepdims=True) + eps) * weight + bias
"""
GELU_IN_PLACE = """
def gelu_tanh(x):
    inner = np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)
    x *= 0.5
    return x * (1 + np.tanh(inner))
"""
LN_AXIS_FROM_FRONT = """
def layer_norm(x, weight, bias, eps=1e-5):
    mu = np.mean(x, axis=2, keepdims=True)           # the features of (B, T, d)
    var = np.mean((x - mu) ** 2, axis=2, keepdims=True)
    return weight * (x - mu) / np.sqrt(var + eps) + bias
"""
BLOCK_LAYER_ZERO = """
def block(x, params, layer, n_head):
    P = lambda k: params["h.0." + k]
    x = x + causal_self_attention(layer_norm(x, P("ln_1.weight"), P("ln_1.bias")),
                                  P("attn.c_attn.weight"), P("attn.c_attn.bias"),
                                  P("attn.c_proj.weight"), P("attn.c_proj.bias"), n_head)
    return x + mlp(layer_norm(x, P("ln_2.weight"), P("ln_2.bias")),
                   P("mlp.c_fc.weight"), P("mlp.c_fc.bias"), P("mlp.c_proj.weight"), P("mlp.c_proj.bias"))
"""
GPT_POST_LN = """
def gpt_logits(P, idx, n_head):
    x = embed(P["wte"], P["wpe"], idx)
    n_layer = 1 + max(int(k.split(".")[1]) for k in P if k.startswith("h."))
    for l in range(n_layer):
        W = lambda k: P[f"h.{l}.{k}"]
        x = layer_norm(x + causal_self_attention(x, W("attn.c_attn.weight"), W("attn.c_attn.bias"),
                                                 W("attn.c_proj.weight"), W("attn.c_proj.bias"), n_head),
                       W("ln_1.weight"), W("ln_1.bias"))
        x = layer_norm(x + mlp(x, W("mlp.c_fc.weight"), W("mlp.c_fc.bias"), W("mlp.c_proj.weight"),
                               W("mlp.c_proj.bias")), W("ln_2.weight"), W("ln_2.bias"))
    return layer_norm(x, P["ln_f.weight"], P["ln_f.bias"]) @ P["wte"].T
"""
GELU_FORMULA = """
def gelu_tanh(x):
    return (0.5 * x * (1 + np.tanh({c} * (x + {a} * {cube})))).astype(x.dtype)
"""
GPT_FIXED_BLOCKS = """
def gpt_logits(P, idx, n_head):
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range({n}):
        x = block(x, P, layer, n_head)
    return layer_norm(x, P["ln_f.weight"], P["ln_f.bias"]) @ P["wte"].T
"""
SAMPLE_ONE_U = """
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    if top_k is not None and top_k < z.shape[-1]:
        kth = np.sort(z, axis=-1)[..., -top_k][..., None]
        z = np.where(z < kth, -np.inf, z)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    u = rng.random()                      # one number for the whole batch
    return (np.cumsum(p, axis=-1) < u).sum(axis=-1)
"""
INIT = """
def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {{"wte": rng.normal(0, 0.02, (V, d)), "wpe": rng.normal(0, 0.02, (T, d))}}
    for i in range(L):
        h = f"h.{{i}}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[h + "attn.c_attn.weight"], P[h + "attn.c_attn.bias"] = rng.normal(0, 0.02, (d, 3 * d)), np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.normal(0, {proj}, (d, d))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"], P[h + "mlp.c_fc.bias"] = rng.normal(0, 0.02, (d, 4 * d)), np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.normal(0, {proj}, (4 * d, d))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
"""
TIED = """
def tied_lm_loss_and_grad(E, A, idx, targets):
    i, t = idx.reshape(-1), targets.reshape(-1)
    n = i.size
    H = np.tanh(E[i] @ A)
    Z = H @ E.T
    Z = Z - Z.max(1, keepdims=True)
    P = np.exp(Z) / np.exp(Z).sum(1, keepdims=True)
    loss = -np.log(P[np.arange(n), t]).mean()
    G = P.copy()
    G[np.arange(n), t] -= 1
    G = G / n
    dE = G.T @ H
    np.add.at(dE, i, (G @ E) * (1 - H ** 2) @ A.T)
    return {loss}, {dE}
"""

NAMED = [  # (id, exercise, source, the name)
    ("layer_norm: no bias", "layer_norm", LN_PLUS_ONE.replace(" + bias + 1", ""), "bias `bias` left out"),
    ("init: biases random", "init_gpt",
     INIT.format(proj="0.02 / math.sqrt(2 * L)").replace('np.zeros(3 * d)', 'rng.normal(0, 0.02, 3 * d)'),
     "attn.c_attn.bias drawn at random instead of all 0"),
    # w_proj (4d, d) has the rows of w_fc.T: the message alone cannot tell `x @ w_proj` from it
    ("mlp: nn.Linear's layout", "mlp", MLP_LINEAR_LAYOUT, "`w_fc` used transposed, or `w_proj` in its place"),
    ("mlp: the second weight transposed", "mlp", MLP_LINEAR_LAYOUT.replace("x @ w_fc.T", "x @ w_fc"),
     "`w_proj` used transposed, or `w_fc` in its place"),
    ("attention: nn.Linear's layout", "causal_self_attention", ATTN_LINEAR_LAYOUT, "`w_qkv` used transposed"),
    ("gpt_logits: head without wte.T", "gpt_logits", HEAD_UNTRANSPOSED, "`wte` used without its transpose"),
    ("embed: len(idx) for T", "embed", EMBED_NO_BATCH, "leading batch axis not handled"),
    ("embed: wpe[1:T+1]", "embed", EMBED_SHIFTED, "wpe rows shifted by one"),
    ("gelu: no 0.5", "gelu_tanh", GELU_NO_HALF, "off by a constant factor 2"),
    ("gelu: no 0.5, np.sqrt upcasts", "gelu_tanh", GELU_NO_HALF.replace("math.sqrt(2 / math.pi)", "np.sqrt(2 / np.pi)"),
     ["off by a constant factor 2", "float32 input upcast to float64"]),  # the catalogue's dtype name
    ("layer_norm: + 1", "layer_norm", LN_PLUS_ONE, "off by a constant offset +1"),
    ("layer_norm: axis=2", "layer_norm", LN_AXIS_FROM_FRONT, "axis counted from the front"),
    ("layer_norm: float64 inside", "layer_norm", LN_UPCAST, "float32 inputs upcast to float64"),
    ("gelu: x *= 0.5", "gelu_tanh", GELU_IN_PLACE, "input changed in place"),
    ("block: layer 0's parameters", "block", BLOCK_LAYER_ZERO, "every block given layer 0's parameters"),
    ("init_gpt: 1/sqrt(L)", "init_gpt", INIT.format(proj="0.02 / math.sqrt(L)"),
     "residual projections scaled by 1/sqrt(L) instead of 1/sqrt(2L)"),
    ("init_gpt: 1/sqrt(2) without L", "init_gpt", INIT.format(proj="0.02 / math.sqrt(2)"),
     "residual projections scaled by 1/sqrt(2) without the layer count L"),
    # only wpe off (OpenAI's code drew it with 0.01): the name is that tensor's, not its group's
    ("init_gpt: wpe with std 0.01", "init_gpt",
     INIT.format(proj="0.02 / math.sqrt(2 * L)").replace('"wpe": rng.normal(0, 0.02,', '"wpe": rng.normal(0, 0.01,'),
     "wpe half as wide"),
    # a piece's catalogued mistake made inside a composite that does not catalogue it (pieces.py)
    ("block: ReLU in the MLP's lines", "block", BLOCK_LAYER_ZERO.replace('params["h.0." + k]', 'params[f"h.{layer}.{k}"]')
     .replace("""    return x + mlp(layer_norm(x, P("ln_2.weight"), P("ln_2.bias")),
                   P("mlp.c_fc.weight"), P("mlp.c_fc.bias"), P("mlp.c_proj.weight"), P("mlp.c_proj.bias"))""",
              """    h = layer_norm(x, P("ln_2.weight"), P("ln_2.bias"))
    return x + np.maximum(h @ P("mlp.c_fc.weight") + P("mlp.c_fc.bias"), 0) @ P("mlp.c_proj.weight") + P("mlp.c_proj.bias")"""),
     "ReLU instead of GELU"),
    ("gpt_logits: post-LN blocks", "gpt_logits", GPT_POST_LN, "post-LN instead of pre-LN"),
    # a count typed in from the examples: fewer blocks than a case holds, or more (structure.py)
    ("gpt_logits: range(2)", "gpt_logits", GPT_FIXED_BLOCKS.format(n=2), "the number of blocks fixed at 2"),
    ("gpt_logits: range(3)", "gpt_logits", GPT_FIXED_BLOCKS.format(n=3), "the number of blocks fixed at 3"),
    ("gpt_logits: range(n_head)", "gpt_logits", GPT_FIXED_BLOCKS.format(n="n_head"),
     "the number of blocks taken from `n_head`"),
    # a parameter dict's position table read one row late (diagnoses._changes)
    ("gpt_logits: wpe[1:T + 1]", "gpt_logits", GPT_FIXED_BLOCKS.format(n="1 + max(int(k.split('.')[1]) for k in P if k.startswith('h.'))")
     .replace('x = embed(P["wte"], P["wpe"], idx)', 'x = P["wte"][idx] + P["wpe"][1:idx.shape[-1] + 1]'),
     "wpe rows shifted by one"),
    ("sample_next: one uniform for the batch", "sample_next", SAMPLE_ONE_U, "one random number for all the rows"),
    # one number of the formula changed (formulas.py): a fraction upside down, a digit slipped, a power
    ("gelu: x squared", "gelu_tanh", GELU_FORMULA.format(c="np.sqrt(2 / np.pi)", a="0.044715", cube="x ** 2"),
     "`x` to the power 2 where the formula has 3"),
    ("gelu: sqrt(pi / 2)", "gelu_tanh", GELU_FORMULA.format(c="np.sqrt(np.pi / 2)", a="0.044715", cube="x ** 3"),
     "the constant 1.25331 where 0.797885 belongs (its inverse)"),
    ("mlp: b_fc after the GELU", "mlp", """
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return (gelu_tanh(x @ w_fc) + b_fc) @ w_proj + b_proj
""", "`b_fc` added after `gelu_tanh` instead of inside it"),
    ("gelu: 0.44715", "gelu_tanh", GELU_FORMULA.format(c="math.sqrt(2 / math.pi)", a="0.44715", cube="x * x * x"),
     "the constant 0.44715 where 0.044715 belongs (ten times it)"),
    ("tied: -dE", "tied_lm_loss_and_grad", TIED.format(loss="loss", dE="-dE"), "dE: sign flipped"),
    ("tied: float(loss)", "tied_lm_loss_and_grad", TIED.format(loss="float(loss)", dE="dE"),
     "loss returned as a Python float"),
]

RIGHT = [  # right answers in other styles than the course's: every diagnosis must stay silent
    ("mlp: einsum", "mlp", """
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(np.einsum("...d,df->...f", x, w_fc) + b_fc)
    return np.einsum("...f,fd->...d", h, w_proj) + b_proj
"""),
    ("embed: take", "embed", """
def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"{T} tokens, block size {wpe.shape[0]}")
    return np.take(wte, idx, axis=0) + wpe[:T]
"""),
    ("gelu: sigmoid form", "gelu_tanh", """
def gelu_tanh(x):
    u = math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)
    return x / (1 + np.exp(-2 * u))
"""),
    ("init: normal(0, std)", "init_gpt", INIT.format(proj="0.02 / math.sqrt(2 * L)")),
    ("tied: .mean() kept", "tied_lm_loss_and_grad", TIED.format(loss="loss", dE="dE")),
    ("tied: np.float64 of float64 E", "tied_lm_loss_and_grad",
     TIED.format(loss="loss.astype(E.dtype)", dE="dE")),
]

PLAIN_BUGS = [  # bugs no diagnosis explains: they fail, unnamed
    ("gelu: tanh of x alone", "gelu_tanh", """
def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(x))
"""),
    ("gelu: two constants changed", "gelu_tanh",   # one change fits nothing: formulas.py names none
     GELU_FORMULA.format(c="np.sqrt(np.pi / 2)", a="0.44715", cube="x ** 3")),
    ("embed: reversed rows", "embed", EMBED_SHIFTED.replace("wpe[1:T + 1]", "wpe[:T][::-1]")),
    ("mlp: GELU twice", "mlp", """
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(gelu_tanh(x @ w_fc + b_fc)) @ w_proj + b_proj
"""),
    ("tied: 1 - H in the tanh derivative", "tied_lm_loss_and_grad",
     TIED.replace("(1 - H ** 2)", "(1 - H)").format(loss="loss", dE="dE")),
    ("init: uniform draws of the right std", "init_gpt",
     INIT.format(proj="0.02 / math.sqrt(2 * L)").replace("rng.normal(0, 0.02, (V, d))",
                                                          "rng.uniform(-0.02 * 3 ** 0.5, 0.02 * 3 ** 0.5, (V, d))")),
    ("layer_norm: mean of the squares minus the mean", "layer_norm",
     LN_PLUS_ONE.replace(" + bias + 1", " + bias").replace("((x - mu) ** 2).mean(-1, keepdims=True)",
                                                           "(x ** 2 - mu).mean(-1, keepdims=True)")),
    ("mlp: b_fc added both inside and after the GELU", "mlp", """
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return (gelu_tanh(x @ w_fc + b_fc) + b_fc) @ w_proj + b_proj
"""),
    ("mlp: the bias added twice", "mlp", """
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc + b_fc) @ w_proj + b_proj
"""),
    ("block: the attention's output added twice", "block", BLOCK_LAYER_ZERO.replace('params["h.0." + k]', 'params[f"h.{layer}.{k}"]')
     .replace("x = x + causal_self_attention(", "x = x + 2 * causal_self_attention(")),
    ("gpt_logits: the final LayerNorm left out", "gpt_logits",
     GPT_POST_LN.replace("return layer_norm(x, P[\"ln_f.weight\"], P[\"ln_f.bias\"]) @", "return x @")
     .replace("layer_norm(x + causal_self_attention(", "(x + causal_self_attention(")),
    ("sample_next: NaN probabilities, id 0 on every row", "sample_next",
     SAMPLE_ONE_U.replace("p /= p.sum(axis=-1, keepdims=True)", "p /= 0 * p.sum(axis=-1, keepdims=True)")),
    ("cross_entropy: log of the probability plus one", "cross_entropy", """
def cross_entropy(logits, targets):
    z = logits - logits.max(axis=-1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)
    picked = np.take_along_axis(p, targets[..., None], axis=-1)[..., 0]
    return -np.log(picked + 1).mean().astype(logits.dtype)
"""),
]


# Each kind of evidence, on an answer a blind tester wrote (tests/judging/blind_answers/), that no
# catalogued mistake names: (the diagnosis, round, answer id, the name it gives).
BLIND = [
    ("refusals: an answer where an error is asked", "round1", "l08_sn_no_temp_check",
     "temperature 0 or a negative temperature not refused"),
    ("refusals: NumPy's crash where an error is asked", "round1", "l07_sim_no_ndim_check",
     "a table that is not 2-D not refused"),
    ("refusals: an assert", "round2", "l01_embed_assert",
     "assert used for a sequence one token longer than the block size instead of raising ValueError"),
    ("refusals: a message that names nothing", "round2", "l07_sim_no_shape_in_message",
     "the error for a table that is not 2-D leaves out what it should name"),
    ("a valid input refused", "round2", "l07_pca_k_equal_rejected", "an input the exercise allows refused"),
    ("a reduction without keepdims", "round1", "l08_ce_no_keepdims",
     "a reduction over the last axis without keepdims=True"),
    ("an extra axis of length 1", "round1", "l08_sn_keepdims_shape", "an extra axis of length 1"),
    ("a tuple's items in another order", "round1", "l08_gb_xy_swapped", "items returned in the wrong order"),
    ("a dict's tensors transposed", "round1", "l04_init_linear_layout",
     "attn.c_attn.weight, mlp.c_fc.weight, mlp.c_proj.weight: returned transposed"),
    ("a softmax after the answer", "round2", "l04_logits_softmax", "a softmax applied to the result"),
    ("a GELU after the answer", "round1", "l03_mlp_gelu_after_proj", "a GELU applied to the result"),
    ("an input added to the answer", "round2", "l03_mlp_residual_inside", "the input `x` added to the result"),
    ("GPT-2 small's size typed in", "round1", "l03_block_hardcoded_heads", "`n_head` hard-coded as 12"),
    ("a bias left out", "round1", "l02_attn_no_qkv_bias", "bias `b_qkv` left out"),
    ("a square projection left out", "round2", "l02_attn_no_out_proj", "the projection `w_o` left out"),
    ("two inputs swapped", "round2", "l02_ln_swap_weight_bias", "`bias` and `weight` swapped"),
    ("a table's rows shifted (a roll)", "round2", "l01_embed_pos_from_one", "wpe rows shifted by one"),
    ("a factor that is a size of the case", "round2", "l08_ce_mean_over_batch",
     "off by a factor targets.size / targets.shape[0]"),
    ("a count off by one term", "round1", "l05_count_fc_bias_d", "3·L·d parameters too few"),
    ("blocks past the last one", "round2", "l04_logits_hardcoded_12", "blocks run past the last one the parameters hold"),
    ("constants drawn at random", "round2", "l04_init_random_biases",
     "attn.c_attn.bias, mlp.c_fc.bias drawn at random instead of all 0"),
    ("a uniform draw", "round2", "l04_init_uniform",
     ["other weights drawn uniformly on [-s, s] (std s/sqrt(3)) instead of from a normal with std s",
      "residual projections drawn uniformly on [-s, s] (std s/sqrt(3)) instead of from a normal with std s"]),
    ("a batch axis not handled, some batches right", "round1", "l01_embed_T_from_first_axis",
     "leading batch axis not handled"),
    ("each column off by a factor of its own", "round2", "l07_pca_unit_scores", "each column off by a factor of its own"),
    ("a table read transposed", "round2", "l07_sim_columns", "`wpe` read transposed (its columns for its rows)"),
    ("a table used whole", "round5", "l01_embed_mistake_whole_wpe", "all of `wpe` used where its first rows belong"),
    ("an array sized by another axis of an input", "round2", "l01_onehot_width_d",
     "an array sized `wte.shape[1]` where `wte.shape[0]` belongs"),
    ("a slice one short", "round4", "l08_get_batch_mistake_y_from_x",
     "y: one column short (a slice or range that stops one early)"),
    ("a kind of valid input that crashes", "round5", "l08_sample_next_mistake_topk_ge_V_crash",
     "top_k larger than the vocabulary not handled"),
    ("tensors the exercise does not ask for", "round5", "l04_init_gpt_mistake_head_key",
     "extra `lm_head.weight` in the dict"),
    ("a factor that is every element of a batch", "round5", "l04_tied_lm_loss_and_grad_mistake_grad_not_divided_by_N",
     "dE: off by a factor idx.size"),
    ("the variance passed as the std", "round6", "l04_init_gpt_mistake_variance_as_std",
     ["other weights drawn with the variance as the standard deviation (std s**2 for s)",
      "residual projections drawn with the variance as the standard deviation (std s**2 for s)"]),
    ("draws not from the generator given", "round6", "l08_get_batch_mistake_global_random",
     "random numbers not drawn from rng"),
    ("a size read off the ids", "round6", "l01_one_hot_embed_mistake_vocab_from_ids",
     "a size taken from the ids (`idx.max() + 1`) where `wte.shape[0]` belongs"),
    ("a constant of the formula inverted", "round8", "l03_gelu_tanh_mistake_pi_over_two",
     "the constant 1.25331 where 0.797885 belongs (its inverse)"),
    ("a power one lower", "round7", "l03_gelu_tanh_mistake_square_not_cube", "`x` to the power 2 where the formula has 3"),
    ("an argument added after a call", "round9", "l03_mlp_mistake_fc_bias_after_gelu",
     "`b_fc` added after `gelu_tanh` instead of inside it"),
    ("the blocks counted by another input", "round8", "l04_gpt_logits_mistake_heads_as_layers",
     "the number of blocks taken from `n_head`"),
    ("two gaps read apart", "round4", "l06_load_hf_state_dict_mistake_keeps_lm_head",
     ["an input the exercise allows refused",
      "the error for an mlp.c_proj weight with 35 rows leaves out what it should name"]),
]


def _blind(round_name: str, answer_id: str):
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent / "blind_answers" / f"{round_name}.py"
    spec = importlib.util.spec_from_file_location(f"blind_{round_name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    answer = next(a for a in module.ANSWERS if a["id"] == answer_id)
    return answer["exercise"], answer["source"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("round_name, answer_id, named", [pytest.param(r, a, n, id=i) for i, r, a, n in BLIND])
def test_evidence_names_a_blind_learners_mistake(round_name, answer_id, named, path):
    name, source = _blind(round_name, answer_id)
    names = [named] if isinstance(named, str) else named
    assert not set(names) & {m.name for m in registry.get(name).mistakes}   # no catalogue entry holds it
    v = PATHS[path](learner(name, source))
    assert v.status == "failed" and v.mistakes == names, v.message


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name, source, mistake", [pytest.param(n, s, m, id=i) for i, n, s, m in NAMED])
def test_diagnosis_names_a_learners_mistake(name, source, mistake, path):
    names = [mistake] if isinstance(mistake, str) else mistake
    ex = registry.get(name)
    assert names[0] not in {m.name for m in ex.mistakes} or names[0] == "loss returned as a Python float"
    v = PATHS[path](learner(name, source))
    assert v.status == "failed" and v.mistakes == names, v.message
    assert all(f"Likely mistake: {n}." in v.message for n in names)


@pytest.mark.parametrize("name, source, mistake", [pytest.param(n, s, m, id=i) for i, n, s, m in NAMED])
def test_check_and_the_batch_judge_agree(name, source, mistake):
    a, b = evaluate(learner(name, source)), batch_verdict(learner(name, source))
    assert (a.status, a.points, a.mistakes, a.message) == (b.status, b.points, b.mistakes, b.message)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name, source", [pytest.param(n, s, id=i) for i, n, s in RIGHT])
def test_silent_on_right_answers(name, source, path):
    v = PATHS[path](learner(name, source))
    assert v.status == "passed" and v.mistakes == [], v.message


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name, source", [pytest.param(n, s, id=i) for i, n, s in PLAIN_BUGS])
def test_silent_on_plain_bugs(name, source, path):
    v = PATHS[path](learner(name, source))
    assert v.status == "failed" and v.mistakes == [] and "Likely mistake" not in v.message, v.message


# ------------------------------------------------------------------ the loss rule
def test_a_loss_is_a_numpy_scalar_of_the_inputs_dtype():
    e32, e64 = np.float32(1.5), np.float64(1.5)
    assert value_mismatch(np.float32(1.5), e32, 1e-4) is None
    assert value_mismatch(np.asarray(1.5, np.float32)[()], e32, 1e-4) is None
    assert "Python float" in value_mismatch(1.5, e32, 1e-4)
    assert "Python float" in value_mismatch(1.5, e64, 1e-8)
    assert "wrong dtype" in value_mismatch(np.float64(1.5), e32, 1e-4)
    assert value_mismatch(3, 3, 0) is None and value_mismatch(np.int64(3), 3, 0) is None  # counts: either


def test_both_losses_of_the_course_keep_one_rule():
    """tied_lm_loss_and_grad (lesson 04) and cross_entropy (lesson 08): the reference gives a NumPy
    scalar of the inputs' dtype, and a Python float is the same catalogued mistake in both."""
    for name in ("tied_lm_loss_and_grad", "cross_entropy"):
        ex = registry.get(name)
        assert "loss returned as a Python float" in {m.name for m in ex.mistakes}
        for case, answer in zip(ex.cases(hidden=False), reference_answers(ex, ex.cases(hidden=False))):
            if case.raises:
                continue
            loss = answer[0] if isinstance(answer, tuple) else answer
            dtype = next(v.dtype for v in case.args.values() if isinstance(v, np.ndarray) and v.dtype.kind == "f")
            assert np.ndim(loss) == 0 and type(loss) is not float and np.asarray(loss).dtype == dtype


# ------------------------------------------------------------------ round 6's survivors (scripts/mutants_round6.toml)
def test_a_value_gap_beside_an_error_case_without_an_answer_names_nothing_and_never_crashes():
    """The values and the errors asked for are read apart only when each part is explained: the
    columns compared (a reading of the values) beside a stub still in place for the tables it
    must refuse (no answer there) is not half named, and the judge still gives a verdict."""
    source = """
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise NotImplementedError("the check comes later")
    unit = wpe / np.linalg.norm(wpe, axis=0, keepdims=True)
    return unit.T @ unit
"""
    for path in PATHS.values():
        v = path(learner("position_similarity", source))
        assert v.status == "failed" and v.mistakes == [], v.message


def test_a_std_ratio_two_known_factors_explain_is_not_named():
    """At n_layer = 2, sqrt(2) and sqrt(L) are one number: which was meant cannot be told."""
    from types import SimpleNamespace

    from grader.judging.diagnoses import _std_factor
    group = "residual projections (attn.c_proj.weight, mlp.c_proj.weight)"
    cases = [SimpleNamespace(args={"config": SimpleNamespace(n_layer=2)})]
    ratios = {(group, 0): [(math.sqrt(2), 10_000, 0.01), (math.sqrt(2), 10_000, 0.01)]}  # (ratio, n, GPT-2's std)
    off = {group: {"attn.c_proj.weight", "mlp.c_proj.weight"}}
    assert _std_factor(cases, [0], ratios, off) is None
    cases[0].args["config"].n_layer = 3   # now only sqrt(2) fits
    assert _std_factor(cases, [0], ratios, off)[0][0].endswith("scaled by 1/sqrt(L) instead of 1/sqrt(2L)")


def test_an_integer_answer_for_floats_is_not_a_dtype_mistake_alone():
    from grader.judging.diagnoses import _dtype_pairs
    assert _dtype_pairs(np.array([1, 2]), np.array([1.0, 2.0]), 1e-8) is None
    assert _dtype_pairs(np.array([1.0, 2.0], np.float32), np.array([1.0, 2.0]), 1e-8) == {("float32", "float64")}


def test_a_python_float_is_a_dtype_gap_only_when_its_value_is_right():
    from grader.judging.diagnoses import _dtype_pairs
    assert _dtype_pairs(1.0, np.float64(1.0), 1e-8) == {("python float", "float64")}
    assert _dtype_pairs(2.0, np.float64(1.0), 1e-8) is None


def test_a_python_float_of_the_wrong_value_is_a_wrong_value_not_a_dtype_mistake():
    source = TIED.replace("(1 - H ** 2)", "(1 - H ** 2)").format(loss="float(2 * loss)", dE="dE")
    for path in PATHS.values():
        v = path(learner("tied_lm_loss_and_grad", source))
        assert v.status == "failed", v.message
        assert not any("Python float" in n for n in v.mistakes), v.mistakes


def test_torchs_product_crash_is_read_with_the_right_sizes():
    """torch: 'mat1 and mat2 shapes cannot be multiplied (AxB and CxD)': the right operand has C
    rows where B were needed; read from a real torch error, not a written one."""
    import torch

    from grader.judging.crashes import product_sizes
    with pytest.raises(RuntimeError) as crash:
        torch.ones(4, 8) @ torch.ones(32, 5)   # four different sizes: none read in another's place
    assert product_sizes(str(crash.value)) == (32, 8)


LN_RIGHT = LN_PLUS_ONE.replace(" + bias + 1", " + bias")


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name, source, named", [
    ("layer_norm", LN_RIGHT.replace("return (x - mu) / sd * weight + bias", "return ((x - mu) / sd * weight + bias).swapaxes(-1, -2)"),
     "returned transposed"),   # (B, T, d) cases too: the last two axes, not the first two
    ("layer_norm", LN_RIGHT.replace("return (x - mu) / sd * weight + bias", "return ((x - mu) / sd * weight + bias).squeeze()"),
     "an axis of length 1 dropped"),   # x of shape (3, 1, 7): the axis in the middle
    ("tied_lm_loss_and_grad", TIED.format(loss="loss", dE="dE.T"), "dE: returned transposed"),   # the second item
], ids=["transposed, batched", "axis dropped, in the middle", "the second item of a pair"])
def test_a_rearranged_answer_is_named_where_it_is_rearranged(name, source, named, path):
    v = PATHS[path](learner(name, source))
    assert v.status == "failed" and v.mistakes == [named], v.message


def test_a_count_off_by_two_terms_of_opposite_signs_says_so():
    """c_fc's bias counted d long (3·L·d too few) and ln_f's bias counted twice (d too many): the
    difference is 3·L·d - d too few, with its minus (the second term's sign is relative to the first)."""
    source = """
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    blocks = 12 * d * d + (4 * d if bias else 2 * d)
    if bias:
        blocks += 3 * d + d + d + d
    final = 3 * d if bias else d
    return V * d + T * d + L * blocks + final + (0 if tied else V * d)
"""
    for path in PATHS.values():
        v = path(learner("count_gpt2_params", source))
        assert v.status == "failed" and v.mistakes == ["3·L·d - d parameters too few"], v.message


COUNT_FC_BIAS_D = """
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    blocks = 12 * d * d + (4 * d if bias else 2 * d) + (3 * d + d + d + d if bias else 0)
    return {wrap}(V * d + T * d + L * blocks + (2 * d if bias else d) + (0 if tied else V * d))
"""


@pytest.mark.parametrize("wrap", ["int", "np.int64"])
def test_a_count_off_by_one_term_is_named_as_a_python_or_numpy_integer(wrap):
    for path in PATHS.values():
        v = path(learner("count_gpt2_params", COUNT_FC_BIAS_D.format(wrap=wrap)))
        assert v.status == "failed" and v.mistakes == ["3·L·d parameters too few"], v.message


def test_one_term_that_fits_is_named_though_two_terms_fit_too():
    """Where every case has T = L + 1, 3·L·d is also 3·T·d - 3·d: the one-term reading is the
    simpler, and it is named; two terms are tried only when no single term fits."""
    from types import SimpleNamespace

    from grader.judging.structure import count_difference
    cases = [SimpleNamespace(raises=None, args={"V": V, "T": L + 1, "d": d, "L": L})
             for V, d, L in ((50, 8, 3), (70, 16, 5), (90, 24, 2), (40, 32, 7))]
    expected = [c.args["V"] * c.args["d"] + 12 * c.args["L"] * c.args["d"] ** 2 for c in cases]
    answers = [e - 3 * c.args["L"] * c.args["d"] for e, c in zip(expected, cases)]
    found = count_difference(None, cases, answers, expected, list(range(len(cases))))
    assert found and found[0][0] == "3·L·d parameters too few", found


def test_a_valid_input_refused_is_named_only_when_the_learners_own_check_raised():
    """A raise from a check the learner wrote (own True) names a check too strict; a crash inside
    NumPy (own False) or an error of unknown origin (own None, an answer read from elsewhere) does not."""
    from types import SimpleNamespace

    from grader.judging.outcomes import Raised
    from grader.judging.refusals import valid_input_refused
    cases = [SimpleNamespace(raises=None, about="k equal to min(T, d)"), SimpleNamespace(raises=None, about="")]
    for own, named in ((True, True), (False, False), (None, False)):
        answers = [Raised("ValueError", ("ValueError",), "k too large", own), 1.0]
        found = valid_input_refused(None, cases, answers, [2.0, 1.0], [0])
        assert bool(found) is named, (own, found)


def test_refusals_are_not_named_while_one_of_them_never_answered():
    """A stub left for 1-D tables (no answer) beside 3-D tables computed: what a finished check
    would do is not known yet, so no refusal is named."""
    source = """
def position_similarity(wpe):
    if wpe.ndim == 1:
        raise NotImplementedError("1-D tables: later")
    unit = wpe / np.linalg.norm(wpe, axis=-1, keepdims=True)
    return unit @ np.swapaxes(unit, -1, -2)
"""
    for path in PATHS.values():
        v = path(learner("position_similarity", source))
        assert v.status == "failed" and v.mistakes == [], v.message


def test_exp_overflowing_is_named_by_the_catalogue_where_it_has_the_name_and_by_the_evidence_elsewhere():
    """sample_next catalogues the softmax without its max shift; an exercise that did not would
    still name what the evidence shows: NaN only on the inputs beyond exp's range."""
    import dataclasses
    name, source = _blind("round5", "l08_sample_next_mistake_no_max_shift")
    fn = learner(name, source)
    assert evaluate(fn).mistakes == ["softmax without subtracting the max"]
    ex = registry.get(name)
    bare = dataclasses.replace(ex, mistakes=[m for m in ex.mistakes if "max" not in m.name])
    cases = bare.cases()
    answers = [call_answer(fn, c) for c in cases]
    expected = reference_answers(bare, cases)
    v = judge(bare, cases, answers, expected, mistake_answers_for(bare, cases))
    assert v.mistakes == ["exp overflows on large inputs (no max subtracted)"], v.message
    right = learner(name, _blind("round5", "l08_sample_next_right_inverse_cdf")[1])
    answers = [call_answer(right, c) for c in cases]
    v = judge(bare, cases, answers, expected, mistake_answers_for(bare, cases))
    assert v.status == "passed" and v.mistakes == [], v.message


_INIT_RIGHT = INIT.format(proj="0.02 / math.sqrt(2 * L)")
_LN_1 = 'P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)'


@pytest.mark.parametrize("change, failure", [
    ((_LN_1, 'P[h + "ln_1.weight"], P[h + "ln_1.bias"] = rng.normal(1, 0.02, d), np.zeros(d)'),
     "'h.0.ln_1.weight' is not constant: LayerNorm gains start at exactly 1"),
    ((_LN_1, 'P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), rng.normal(0, 0.02, d)'),
     "'h.0.ln_1.bias' is not constant: biases start at exactly 0"),
    # the tensor drawn second repeats the first one's numbers: that is the one to fix
    (('"wpe": rng.normal(0, 0.02, (T, d))', '"wpe": np.random.default_rng(seed).normal(0, 0.02, (T, d))'),
     "'wpe' repeats the numbers of 'wte'"),
    # a mean off by half a std over V * d draws: far beyond the mean's standard error
    (('"wte": rng.normal(0, 0.02, (V, d))', '"wte": rng.normal(0.01, 0.02, (V, d))'), "'wte' has mean 0.0"),
], ids=["a gain drawn", "a bias drawn", "a tensor re-seeded", "a mean shifted"])
def test_an_initialisation_failure_says_which_rule_the_tensor_breaks(change, failure):
    assert change[0] in _INIT_RIGHT
    v = evaluate(learner("init_gpt", _INIT_RIGHT.replace(*change)))
    assert v.status == "failed" and v.failures[0].startswith(f"test 1: {failure}"), v.failures[:1]


def test_a_crash_on_two_kinds_of_valid_input_names_both_and_three_kinds_name_nothing():
    from grader.judging.outcomes import Raised
    from grader.judging.refusals import valid_input_crashed
    from grader.judging.registry import Case
    crash = Raised("IndexError", ("LookupError", "Exception"), "index 3 is out of bounds", own=False)
    abouts = ["a batch", "an empty sequence", "one token"]
    cases = [Case({"x": np.zeros(2)})] + [Case({"x": np.zeros(2)}, about=a) for a in abouts]
    answers = [np.zeros(2), crash, crash, crash]
    two = valid_input_crashed(None, cases[:3], answers[:3], [np.zeros(2)] * 3, [1, 2])
    assert two and two[0][0] == "a batch or an empty sequence not handled"
    assert valid_input_crashed(None, cases, answers, [np.zeros(2)] * 4, [1, 2, 3]) is None


def test_a_broadcast_crash_whose_shape_two_inputs_share_names_neither():
    from grader.judging.crashes import input_used_whole
    from grader.judging.outcomes import Raised
    from grader.judging.registry import Case
    crash = Raised("ValueError", ("Exception",), "operands could not be broadcast together with shapes "
                   "(4,3) (2,3) ", own=False)
    alone = {"table": np.zeros((4, 3)), "x": np.zeros((2, 3))}
    named = input_used_whole(None, [Case(alone)], [crash], [np.zeros((2, 3))], [0])
    assert named and named[0][0] == "all of `table` used where its first rows belong"
    shared = dict(alone, other=np.ones((4, 3)))
    assert input_used_whole(None, [Case(shared)], [crash], [np.zeros((2, 3))], [0]) is None


# --- round 8's later survivors (scripts/mutants_round8.toml)
def test_a_loss_averaged_over_positions_and_summed_over_the_batch_is_named_by_the_batch_axis():
    """The mean over each row's positions, then the sum over the rows: right on a 1-D idx, B times
    too large on a batch, and B (idx.shape[-2], the first axis of a 2-D input) changes from case to
    case. Without that axis among the sizes tried, nothing fits, and the learner reads the vaguer
    'leading batch axis not handled' instead of the factor."""
    source = TIED.replace("loss = -np.log(P[np.arange(n), t]).mean()",
                          "loss = -np.log(P[np.arange(n), t]).reshape(idx.shape).mean(-1).sum()")
    assert source != TIED
    for path in PATHS.values():
        v = path(learner("tied_lm_loss_and_grad", source.format(loss="loss", dE="dE")))
        assert v.status == "failed" and v.mistakes == ["loss: off by a factor idx.shape[-2]"], v.message


def test_an_answer_cast_to_float32_and_off_by_a_constant_factor_names_both():
    """gelu_tanh without its 0.5, computed in float32 whatever the input: on float64 inputs the
    float32 numbers are fitted at float32's tolerance (float64's 1e-8 no float32 answer meets), so
    the factor is named beside the dtype; otherwise the learner is told nothing."""
    source = GELU_NO_HALF.replace("    return", "    x = x.astype(np.float32)   # GPT-2 runs in float32\n    return")
    assert source != GELU_NO_HALF
    for path in PATHS.values():
        v = path(learner("gelu_tanh", source))
        assert v.status == "failed" and v.mistakes == ["off by a constant factor 2", "float32 instead of float64"], \
            v.message


def test_an_undoing_the_exercises_judge_cannot_read_is_not_a_reading():
    """A rearrangement is named only where the exercise's own judge passes the undone answer. A
    judge that raises on it (here one comparing the answer's bytes first, which a transposed view
    does not hold in order) has passed nothing: "returned transposed" would send the learner to
    swap the axes of an answer whose numbers are wrong besides."""
    import dataclasses
    import hashlib

    from grader.judging.registry import Case
    from grader.judging.reshapes import rearranged

    def bytes_first(answer, case, expected, tol):
        if answer.shape != expected.shape:
            return f"wrong shape: got {answer.shape}, expected {expected.shape}"
        if hashlib.sha256(answer).digest() == hashlib.sha256(expected).digest():
            return None
        return value_mismatch(answer, expected, tol)

    ex = dataclasses.replace(registry.get("layer_norm"), judge=bytes_first, mistakes=[])
    expected = np.arange(6.0).reshape(2, 3)
    cases = [Case({"x": expected.copy()})]
    # a transposed view: undone, it is the expected array itself, which the judge reads and passes
    assert rearranged(ex, cases, [expected.T], [expected], [0])[0][0] == "returned transposed"
    wrong = np.ascontiguousarray(expected.T) + 1.0   # transposed, and every number off by one
    with pytest.raises(ValueError):
        bytes_first(np.swapaxes(wrong, -1, -2), cases[0], expected, 1e-8)
    assert rearranged(ex, cases, [wrong], [expected], [0]) is None


def test_a_diagnosis_that_raises_on_an_answer_is_passed_over_and_the_verdict_still_comes():
    """`L ** d` typed for `L * d`: counts of hundreds to thousands of digits, beyond what a float
    holds, on which the count-difference fit raises OverflowError. The rule is skipped, the other
    rules still run, and the learner gets the failures; otherwise check() ends in a grader error."""
    source = """
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    embeddings = V * d + T * d
    matrices = L * 12 * d * d
    vectors = L ** d * (13 if bias else 4)        # 13 vectors of length d in every block
    final = 2 * d if bias else d
    return embeddings + matrices + vectors + final + (0 if tied else V * d)
"""
    assert learner("count_gpt2_params", source)(V=50257, T=1024, d=768, L=12) > 10 ** 309   # no float holds it
    for path in PATHS.values():
        v = path(learner("count_gpt2_params", source))
        assert v.status == "failed" and v.passed < v.total and v.mistakes == [], v.message


def test_integer_ids_of_another_width_are_named_as_a_dtype_mistake():
    """get_batch's windows right, both cast to int32: the numbers are the reference's, only the
    integer width differs, and that is what is named; otherwise nothing is."""
    source = """
def get_batch(data, batch_size, block_size, rng):
    if len(data) <= block_size:
        raise ValueError(f"data of {len(data)} ids cannot hold a window of block_size={block_size} and its target")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    rows = starts[:, None] + np.arange(block_size)
    return data[rows].astype(np.int32), data[rows + 1].astype(np.int32)   # ids fit in 32 bits
"""
    for path in PATHS.values():
        v = path(learner("get_batch", source))
        assert v.status == "failed" and v.mistakes == ["int32 instead of int64"], v.message
        # the advice fits an answer whose dtype is not its inputs' (uint8 data, int64 windows)
        assert "make the result int64" in v.message and "convert nothing" not in v.message, v.message


CE_SUM_OVER_N = """
def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if targets.min() < 0 or targets.max() >= V:
        raise ValueError(f"a target id outside [0, {V}): {targets.min()} to {targets.max()}")
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.sum() / (nll.shape[0] if nll.ndim else 1)     # divided by the N rows of (N, V)
"""


def test_one_failing_batched_example_does_not_name_the_batch_axis():
    """Divided by B where B * T belongs: right on (N, V) logits, wrong on (B, T, V). The public
    examples hold a single (B, T, V) one, and one failing batched case is too little to tell a batch
    axis not handled (a B == T coincidence can fail one case alone): check() on the public examples
    names nothing, where all the tests, wrong on every batch, name the factor."""
    fn = learner("cross_entropy", CE_SUM_OVER_N)
    public = evaluate(fn, hidden=False)
    assert public.status == "failed" and public.total - public.passed == 1, public.message
    assert public.mistakes == [], public.message
    assert evaluate(fn).mistakes == ["off by a factor targets.size / targets.shape[0]"]


def test_an_axis_from_the_front_that_crashes_reading_a_shape_is_named():
    """d read as x.shape[2], the last axis of (B, T, d) only: right on every batch, IndexError
    'tuple index out of range' on every (T, d). That crash is an axis counted from the front as much
    as NumPy's 'axis 2 is out of bounds' is; otherwise the learner sees only the IndexErrors."""
    source = """
def layer_norm(x, weight, bias, eps=1e-5):
    d = x.shape[2]                                   # x is (B, T, d)
    mu = x.sum(axis=-1, keepdims=True) / d
    var = ((x - mu) ** 2).sum(axis=-1, keepdims=True) / d
    return (x - mu) / np.sqrt(var + eps) * weight + bias
"""
    for path in PATHS.values():
        v = path(learner("layer_norm", source))
        assert v.status == "failed" and v.mistakes == ["axis counted from the front"], v.message
        assert all("IndexError" in f for f in v.failures), v.failures


def test_exp_overflowing_in_float32_is_named_from_89_on():
    """exp overflows at 89 in float32 (710 in float64): the float32 logits near 100 fail a
    cross_entropy without its max shift as much as the float64 ones near 1000, and an exercise
    without the catalogue's name still names the overflow from that evidence. Read at float64's
    range, the float32 failures would look unexplained and nothing would be named."""
    import dataclasses
    source = """
def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if targets.min() < 0 or targets.max() >= V:
        raise ValueError(f"a target id outside [0, {V}): {targets.min()} to {targets.max()}")
    logp = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    return -np.take_along_axis(logp, targets[..., None], axis=-1).mean()
"""
    fn = learner("cross_entropy", source)
    assert evaluate(fn).mistakes == ["softmax without subtracting the max"]
    ex = registry.get("cross_entropy")
    bare = dataclasses.replace(ex, mistakes=[m for m in ex.mistakes if "max" not in m.name])
    cases = bare.cases()
    answers = [call_answer(fn, c) for c in cases]
    failing = [c for c, a in zip(cases, answers) if not c.raises and not np.isfinite(a)]
    assert {c.args["logits"].dtype for c in failing} == {np.dtype(np.float32), np.dtype(np.float64)}
    assert all(np.abs(c.args["logits"]).max() < 709 for c in failing if c.args["logits"].dtype == np.float32)
    v = judge(bare, cases, answers, reference_answers(bare, cases), mistake_answers_for(bare, cases))
    assert v.mistakes == ["exp overflows on large inputs (no max subtracted)"], v.message


def _stable_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("far", [-1000.0, 1000.0], ids=["large negative", "large positive"])
def test_exp_out_of_range_is_named_on_either_side(far):
    """exp underflows to 0 below about -745 (0 / 0 is NaN) as it overflows above 709.8: logits all
    near -1000 break a softmax without its max shift as surely as logits near +1000, and both are
    beyond exp's range by their size, whatever their sign."""
    from grader.judging.registry import Case, Exercise

    exercise = Exercise("softmax", "00", _stable_softmax, lambda: [], lambda rng: [],
                        difficulty=1, importance=1, minutes=1)
    cases = [Case({"x": np.array([[0.5, -1.0, 2.0], [1.0, 0.0, -3.0]])}),
             Case({"x": np.array([0.25, 1.5, -0.5, 3.0])}),
             Case({"x": far + np.array([[0.0, 1.0, 2.0], [3.0, -1.0, 0.5]])})]

    def naive(x):
        e = np.exp(x)
        return e / e.sum(axis=-1, keepdims=True)

    with np.errstate(all="ignore"):
        answers = [call_answer(naive, c) for c in cases]
    assert not np.isfinite(answers[2]).all()
    v = judge(exercise, cases, answers, reference_answers(exercise, cases), {})
    assert v.status == "failed" and v.mistakes == ["exp overflows on large inputs (no max subtracted)"], v.message


def test_two_readings_of_the_reference_that_fit_alike_name_neither():
    """Where every case's w_o is the identity, leaving out the projection and leaving out its bias
    b_o give one answer: which the learner did cannot be told, so neither is named (both would send
    them to fix code that is right). On the course's cases the same answer names the bias."""
    import dataclasses
    source = ATTN_LINEAR_LAYOUT.replace("qkv = np.matmul(x, w_qkv.T) + b_qkv", "qkv = x @ w_qkv + b_qkv") \
        .replace("return y @ w_o + b_o", "return y @ w_o")
    assert source.count("w_qkv.T") == 0 and "b_o\n" not in source
    fn = learner("causal_self_attention", source)
    assert evaluate(fn).mistakes == ["bias `b_o` left out"]
    ex = registry.get("causal_self_attention")
    cases = [dataclasses.replace(c, args=dict(c.args, w_o=np.eye(len(c.args["w_o"]), dtype=c.args["w_o"].dtype)))
             for c in ex.cases(hidden=False)]
    answers = [call_answer(fn, c) for c in cases]
    v = judge(ex, cases, answers, reference_answers(ex, cases), mistake_answers_for(ex, cases))
    assert v.status == "failed" and v.passed == 0, v.message
    assert v.mistakes == [], v.message

"""The course's model as reference-with-flags, for the catalogued mistakes.

Called with its default flags, every function here computes what the
reference in ``gpt2course/numpy_gpt.py`` computes, operation for operation
(tests/judging/test_diagnosis.py checks it bit for bit). A catalogued mistake is one of
them with one flag switched, so a mistake differs from the reference in
exactly the way its explanation says.

A composite passes its pieces' flags down: ``block(..., ln={"ddof": 1})`` is a
block whose two LayerNorms use the sample variance. That is what a learner's
block computes when it writes its own LayerNorm inline (while a composite is
graded, the pieces it calls by name are the course's), or, in the student
edition, when it calls the learner's own buggy ``layer_norm``: a mistake of a
piece is then named in every exercise that uses the piece.
"""
from __future__ import annotations

import math

import numpy as np

from gpt2course import numpy_gpt as ref

from ..judging.registry import Mistake

_erf = np.vectorize(math.erf, otypes=[np.float64])


def flagged(reference, **flags):
    """A catalogued mistake: ``reference`` with ``flags`` switched (the grader calls with keywords)."""
    def variant(**args):
        return reference(**args, **flags)
    return variant


# ------------------------------------------------------------------ the pieces
def embed(wte, wpe, idx, *, positions="rows", concat=False, check=True, full_refused=False):
    """positions: "rows" (wpe[:T], GPT-2's), "by_token" (wpe[idx]) or None (left out);
    concat=True: the two rows concatenated; check=False: no check of the block size;
    full_refused: a sequence of exactly block_size tokens refused too (T >= block_size)."""
    if full_refused and idx.shape[-1] >= wpe.shape[0]:
        raise ValueError(f"sequence length {idx.shape[-1]} reaches the block size {wpe.shape[0]}")
    if check:
        idx = ref.check_token_ids(idx, wte.shape[0], wpe.shape[0])
    T = idx.shape[-1]
    tok = wte[idx]
    if positions is None:
        return tok
    pos = wpe[idx] if positions == "by_token" else wpe[:T]
    if concat:
        return np.concatenate([tok, np.broadcast_to(pos, tok.shape)], axis=-1)
    return tok + pos


def layer_norm(x, weight, bias, eps=ref.LN_EPS, *, axis=-1, ddof=0, eps_inside=True):
    """axis: what is pooled (-1, GPT-2's; 0; None for the whole array); ddof=1: the
    sample variance; eps_inside=False: sqrt(var) + eps."""
    mean = x.mean(axis=axis, keepdims=True)
    if ddof:
        var = x.var(axis=axis, keepdims=True, ddof=ddof)
    else:
        var = ((x - mean) ** 2).mean(axis=axis, keepdims=True)
    denom = np.sqrt(var + eps) if eps_inside else np.sqrt(var) + eps
    return (x - mean) / denom * weight + bias


def gelu(x, *, form="tanh", cube=True, numpy_constant=False):
    """form: "tanh" (GPT-2's), "erf" (the exact GELU) or "sigmoid" (x * sigmoid(1.702 x));
    cube=False drops the cubic term; numpy_constant=True writes sqrt(2/pi) as a
    float64 NumPy scalar, which upcasts float32 inputs."""
    if form == "erf":
        return (0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))).astype(x.dtype)
    if form == "sigmoid":
        return x / (1.0 + np.exp(-1.702 * x))
    c = np.sqrt(2.0 / np.pi) if numpy_constant else ref.GELU_C
    inner = x + 0.044715 * (x * x * x) if cube else x
    return 0.5 * x * (1.0 + np.tanh(c * inner))


def _softmax(z, axis):
    with np.errstate(invalid="ignore"):  # an all -inf row gives NaN, as a learner's would
        z = z - z.max(axis=axis, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=axis, keepdims=True)


def split_heads(t, n_head, transpose=True):
    """(..., T, d) -> (..., h, T, d_k); without the transpose, a reshape straight to
    (..., h, T, d_k), which has the right shape and mixes positions into heads."""
    *lead, T, d = t.shape
    if not transpose:
        return t.reshape(*lead, n_head, T, d // n_head)
    return np.swapaxes(t.reshape(*lead, T, n_head, d // n_head), -3, -2)


def merge_heads(y, transpose=True):
    *lead, h, T, dk = y.shape
    if transpose:
        y = np.swapaxes(y, -3, -2)
    return y.reshape(*lead, T, h * dk)


def attention(x, w_qkv, b_qkv, w_o, b_o, n_head, *, split_transpose=True, merge_transpose=True,
              scale="d_k", mask="causal", fill=-np.inf, softmax_axis=-1, mask_after_softmax=False):
    """scale: "d_k" (GPT-2's), "d", None, or "float64" (np.sqrt(d_k), which upcasts
    float32); mask: "causal", "strict" (the diagonal hidden too) or None."""
    T, d = x.shape[-2:]
    dk = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = (split_heads(t, n_head, split_transpose) for t in np.split(qkv, 3, axis=-1))
    scores = q @ np.swapaxes(k, -1, -2)
    if scale == "d_k":
        scores = scores / math.sqrt(dk)
    elif scale == "d":
        scores = scores / math.sqrt(d)
    elif scale == "float64":
        scores = scores / np.sqrt(dk)
    if mask_after_softmax:
        w = _softmax(scores, softmax_axis) * np.tril(np.ones((T, T), dtype=x.dtype))
    else:
        if mask == "causal":
            scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, fill)
        elif mask == "strict":
            scores = np.where(np.tril(np.ones((T, T), dtype=bool), k=-1), scores, fill)
        w = _softmax(scores, softmax_axis)
    return merge_heads(w @ v, merge_transpose) @ w_o + b_o


# ------------------------------------------------------------------ the composites
def mlp(x, w_fc, b_fc, w_proj, b_proj, *, gelu_flags=None, relu=False, gelu_last=False,
        out_bias=True, in_bias=True):
    """gelu_flags: the flags of the MLP's own GELU; relu: max(0, .) instead;
    gelu_last: the GELU after the down-projection; out_bias=False: no b_proj; in_bias=False: no b_fc."""
    act = (lambda h: np.maximum(h, 0)) if relu else (lambda h: gelu(h, **(gelu_flags or {})))
    if not in_bias:
        b_fc = np.zeros_like(b_fc)
    if gelu_last:
        return act((x @ w_fc + b_fc) @ w_proj + b_proj)
    out = act(x @ w_fc + b_fc) @ w_proj
    return out + b_proj if out_bias else out


def block(x, params, layer, n_head, *, ln=None, attn=None, gelu_flags=None, pre_ln=True,
          mlp_residual=True, ln_2="ln_2", sequential=True, attn_residual=True):
    """ln, attn, gelu_flags: flags of the block's own pieces; pre_ln=False: post-LN;
    mlp_residual=False: the MLP's output replaces the stream (attn_residual=False: the
    attention's does); ln_2="ln_1": ln_1's
    parameters used twice; sequential=False: the MLP reads the block's input."""
    p = lambda name: params[f"h.{layer}.{name}"]  # noqa: E731

    def norm(z, which):
        return layer_norm(z, p(f"{which}.weight"), p(f"{which}.bias"), **(ln or {}))

    def attend(z):
        return attention(z, p("attn.c_attn.weight"), p("attn.c_attn.bias"), p("attn.c_proj.weight"),
                         p("attn.c_proj.bias"), n_head, **(attn or {}))

    def feed(z):
        return mlp(z, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"),
                   p("mlp.c_proj.bias"), gelu_flags=gelu_flags)

    if not pre_ln:
        x = norm(x + attend(x), "ln_1")
        return norm(x + feed(x), ln_2)
    a = (x if attn_residual else 0) + attend(norm(x, "ln_1"))
    m = feed(norm(a if sequential else x, ln_2))
    return a + m if mlp_residual else m


def logits(P, idx, n_head, *, ln=None, ln_f=None, attn=None, gelu_flags=None, positions=True,
           final_ln=True, same_layer=False, skip_last=False):
    """ln: flags of every LayerNorm (the blocks' and the final one); ln_f: of the final
    one only; attn, gelu_flags: of every block's pieces; positions=False: no wpe rows;
    final_ln=False: no ln_f; same_layer: every block reads layer 0; skip_last: the last
    block is left out."""
    x = embed(P["wte"], P["wpe"], idx, positions="rows" if positions else None)
    n_layer = ref.config_from_params(P, n_head).n_layer
    for layer in range(n_layer - (1 if skip_last else 0)):
        x = block(x, P, 0 if same_layer else layer, n_head, ln=ln, attn=attn, gelu_flags=gelu_flags)
    if final_ln:
        x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"], **((ln or {}) | (ln_f or {})))
    return x @ P["wte"].T


# ------------------------------------------------------------------ the initialisation
_STDS = {"gpt2": lambda std, L: std,                          # ref.init_std's
         "unscaled": lambda std, L: ref.INIT_STD,              # 0.02 for every weight
         "all_scaled": lambda std, L: ref.INIT_STD / math.sqrt(2 * L),
         "unit": lambda std, L: std / ref.INIT_STD}            # the 0.02 left out


def init_params(config, seed=0, *, std="gpt2", ln_gain=1.0, head=False, reseed=False,
                source="seed"):
    """std: one of _STDS; ln_gain: where LayerNorm gains start; head=True: a separate
    lm_head.weight; reseed=True: a new generator from the seed for every tensor;
    source: the generator's seed, "seed" (the argument), "fixed" (a constant, 0) or
    "entropy" (np.random.default_rng() unseeded)."""
    start = {"seed": seed, "fixed": 0, "entropy": None}[source]
    rng = np.random.default_rng(start)
    params = {}
    for name, shape in ref.param_shapes(config).items():
        base = ref.init_std(name, config.n_layer)
        if base is not None:
            if reseed:
                rng = np.random.default_rng(start)
            params[name] = rng.standard_normal(shape) * _STDS[std](base, config.n_layer)
        elif name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name == "ln_f.weight":
            params[name] = np.full(shape, ln_gain)
        else:
            params[name] = np.zeros(shape)
    if head:
        params["lm_head.weight"] = rng.standard_normal((config.vocab_size, config.n_embd)) * ref.INIT_STD
    return params


# ------------------------------------------------------------------ naming
LABELS = {"layer_norm": "LayerNorm", "causal_self_attention": "attention", "gelu_tanh": "GELU"}


def inside(piece, name: str, composite: str, variant, *, rename: str | None = None,
           where: str | None = None, fix: str | None = None, explanation: str | None = None) -> Mistake:
    """The catalogued mistake ``name`` of the exercise ``piece``, named inside the
    exercise ``composite``, whose ``variant`` is the composite with that piece's flag
    switched. The explanation is the piece's (or ``explanation``, for a mistake the
    piece's own cases cannot show), plus where the fix belongs."""
    m = Mistake(name, explanation, None) if explanation else next(m for m in piece.mistakes if m.name == name)
    where = where or f"the {LABELS[piece.name]} that your {composite} computes"
    fix = fix or (f"fix your {piece.name} if {composite} uses it, or the lines of {composite} "
                  "that compute it")
    return Mistake(rename or m.name, f"{m.explanation} Here the mistake is in {where}: {fix}.", variant)

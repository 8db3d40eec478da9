"""GPT-2 in NumPy: initialisation and the exact forward pass.

Parameter names and orientations follow the released checkpoint: weights of
the Conv1D layers are stored (in, out), the head is tied to ``wte``.
All arithmetic stays in the parameters' dtype (float32 or float64): constants
are Python floats, which NumPy treats as "weak" and never upcasts with.
"""
from __future__ import annotations

import math
import re

import numpy as np

from .config import GPTConfig

INIT_STD = 0.02
LN_EPS = 1e-5
GELU_C = math.sqrt(2.0 / math.pi)


# ----------------------------------------------------------------- parameters
def param_shapes(config: GPTConfig) -> dict[str, tuple[int, ...]]:
    d, V, T = config.n_embd, config.vocab_size, config.block_size
    shapes = {"wte": (V, d), "wpe": (T, d)}
    for i in range(config.n_layer):
        p = f"h.{i}."
        shapes |= {
            p + "ln_1.weight": (d,), p + "ln_1.bias": (d,),
            p + "attn.c_attn.weight": (d, 3 * d), p + "attn.c_attn.bias": (3 * d,),
            p + "attn.c_proj.weight": (d, d), p + "attn.c_proj.bias": (d,),
            p + "ln_2.weight": (d,), p + "ln_2.bias": (d,),
            p + "mlp.c_fc.weight": (d, 4 * d), p + "mlp.c_fc.bias": (4 * d,),
            p + "mlp.c_proj.weight": (4 * d, d), p + "mlp.c_proj.bias": (d,),
        }
    shapes |= {"ln_f.weight": (d,), "ln_f.bias": (d,)}
    return shapes


def init_std(name: str, n_layer: int) -> float | None:
    """GPT-2's init rule for one tensor; None means 'constant' (biases, LayerNorm)."""
    if name.endswith(".bias") or ".ln_" in name or name.startswith("ln_f"):
        return None
    if name.endswith("c_proj.weight"):  # both writers into the residual stream
        return INIT_STD / math.sqrt(2 * n_layer)
    return INIT_STD


def init_params(config: GPTConfig, seed: int = 0, dtype=np.float64) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in param_shapes(config).items():
        std = init_std(name, config.n_layer)
        if std is not None:
            params[name] = (rng.standard_normal(shape) * std).astype(dtype)
        elif name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name == "ln_f.weight":
            params[name] = np.ones(shape, dtype)
        else:
            params[name] = np.zeros(shape, dtype)
    return params


def count_params(params: dict) -> int:
    """Tied head: the dict holds wte once, so a plain sum is the true count."""
    return sum(int(np.asarray(v).size) for v in params.values())


# ----------------------------------------------------------------- the layers
def embed(wte: np.ndarray, wpe: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """(V, d), (T_max, d), ids (..., T) -> (..., T, d): a token's row plus its position's row."""
    idx = check_token_ids(idx, wte.shape[0], wpe.shape[0])
    T = idx.shape[-1]
    return wte[idx] + wpe[:T]


def layer_norm(x, weight, bias, eps: float = LN_EPS):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)  # population variance
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def gelu_tanh(x):
    cube = x * x * x  # not x**3: NumPy's float32 power is tens of times slower
    return 0.5 * x * (1.0 + np.tanh(GELU_C * (x + 0.044715 * cube)))


def softmax(z, axis: int = -1):
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def split_heads(x, n_head: int):
    """(..., T, d) -> (..., h, T, d_k): reshape, then move the head axis."""
    *lead, T, d = x.shape
    x = x.reshape(*lead, T, n_head, d // n_head)  # (..., T, h, d_k): head i owns columns i*d_k..
    return np.swapaxes(x, -3, -2)                  # (..., h, T, d_k)


def merge_heads(x):
    """(..., h, T, d_k) -> (..., T, d): the inverse of split_heads."""
    *lead, h, T, dk = x.shape
    x = np.swapaxes(x, -3, -2)            # (..., T, h, d_k)
    return x.reshape(*lead, T, h * dk)    # (..., T, d): heads side by side again


def causal_mask(T: int) -> np.ndarray:
    """True where key j may be seen from query t, i.e. j <= t."""
    return np.tril(np.ones((T, T), dtype=bool))


def attention_weights(q, k):
    T, dk = q.shape[-2], q.shape[-1]
    scores = (q @ np.swapaxes(k, -1, -2)) / math.sqrt(dk)  # (..., h, T, T): sqrt(d_k), not sqrt(d)
    scores = np.where(causal_mask(T), scores, -np.inf)     # (..., h, T, T); -inf is safe: the
                                                           # diagonal keeps every row non-empty
    return softmax(scores, axis=-1)                        # (..., h, T, T): rows sum to 1 over keys


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head: int):
    d = x.shape[-1]
    if d % n_head:
        raise ValueError(f"width {d} is not divisible by n_head={n_head}")
    qkv = x @ w_qkv + b_qkv                                # (..., T, 3d): one fused projection
    q, k, v = np.split(qkv, 3, axis=-1)                    # 3 x (..., T, d): columns [q | k | v]
    q, k, v = (split_heads(t, n_head) for t in (q, k, v))  # 3 x (..., h, T, d_k)
    y = attention_weights(q, k) @ v                        # (..., h, T, T) @ (..., h, T, d_k)
    return merge_heads(y) @ w_o + b_o                      # (..., T, d) @ (d, d) -> (..., T, d)


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    """(..., T, d) -> (..., T, 4d) through GELU -> (..., T, d)."""
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params: dict, layer: int, n_head: int):
    """(..., T, d) -> (..., T, d): pre-LN attention, then pre-LN MLP, each added to the stream."""
    p = lambda name: params[f"h.{layer}.{name}"]  # noqa: E731
    a = layer_norm(x, p("ln_1.weight"), p("ln_1.bias"))
    x = x + causal_self_attention(a, p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    m = layer_norm(x, p("ln_2.weight"), p("ln_2.bias"))
    return x + mlp(m, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                   p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))


# ----------------------------------------------------------------- the model
def hidden_states(params: dict, idx, n_head: int):
    """The residual stream after the final LayerNorm, shape (..., T, d)."""
    config = config_from_params(params, n_head)
    check_params(params, config)
    x = embed(params["wte"], params["wpe"], idx)
    for layer in range(config.n_layer):
        x = block(x, params, layer, n_head)
    return layer_norm(x, params["ln_f.weight"], params["ln_f.bias"])


def gpt_logits(params: dict, idx, n_head: int):
    """Logits (..., T, V); position t scores the token at t + 1. Tied head: h @ wte.T."""
    return hidden_states(params, idx, n_head) @ params["wte"].T


def cross_entropy(logits, targets):
    """Mean negative log-likelihood of integer targets under the logits."""
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(logp, targets[..., None], axis=-1)
    return -picked.mean()


# ----------------------------------------------------------------- input checks
def check_token_ids(idx, vocab_size: int, block_size: int) -> np.ndarray:
    """Return idx as an array after checking everything a lookup needs."""
    if not isinstance(idx, np.ndarray):
        raise TypeError(f"token ids must be a NumPy array, got {type(idx).__name__}")
    if idx.dtype == np.bool_ or not np.issubdtype(idx.dtype, np.integer):
        raise TypeError(f"token ids must have an integer dtype, got {idx.dtype}")
    if idx.ndim not in (1, 2):
        raise ValueError(f"token ids must have shape (T,) or (B, T), got shape {idx.shape}")
    T = idx.shape[-1]
    if T == 0:
        raise ValueError("token ids are empty: a sequence needs at least one token")
    if idx.size == 0:
        raise ValueError(f"the batch is empty: token ids of shape {idx.shape} hold no sequence; "
                         "pass at least one sequence of tokens")
    if T > block_size:
        raise ValueError(
            f"sequence length {T} exceeds the block size {block_size}: there is no "
            f"learned position row beyond position {block_size - 1}; crop the input to "
            f"its last {block_size} tokens"
        )
    lo, hi = int(idx.min()), int(idx.max())
    if lo < 0 or hi >= vocab_size:
        bad = lo if lo < 0 else hi
        raise ValueError(f"token id {bad} is outside the vocabulary [0, {vocab_size})")
    return idx


# What a dict from init_params or params_from_state_dict holds, named in the errors below.
_FIX = "build it with init_params(config) or state_dicts.params_from_state_dict(...)"
_TABLES = {"wte": "the token embedding table, shape (V, d)",
           "wpe": "the position embedding table, shape (T, d)"}
_LAYER_KEY = re.compile(r"h\.(\d+)\.")


def config_from_params(params: dict, n_head: int) -> GPTConfig:
    """Read the architecture off the parameter shapes; check_params then checks every key.

    Layers are counted from every h.{i}.* key, not from one of them, so a layer
    with a tensor missing is reported by check_params instead of being skipped.
    """
    for name, what in _TABLES.items():
        if name not in params:
            raise KeyError(f"parameter dict has no {name!r} ({what}); {_FIX}")
        if np.ndim(params[name]) != 2:
            raise ValueError(f"{name} must be 2-D ({what}), got shape {np.shape(params[name])}")
    layers = sorted({int(m.group(1)) for key in params if isinstance(key, str) and (m := _LAYER_KEY.match(key))})
    if not layers:
        raise KeyError(f"parameter dict has no layers: no key of the form h.0.ln_1.weight; {_FIX}")
    gaps = sorted(set(range(layers[-1] + 1)) - set(layers))
    if gaps:
        raise KeyError(f"layer numbers must run 0..{layers[-1]} without gaps, but layer(s) {gaps} "
                       f"have no keys at all (e.g. 'h.{gaps[0]}.ln_1.weight' is missing); {_FIX}")
    V, d = np.shape(params["wte"])
    return GPTConfig(V, np.shape(params["wpe"])[0], layers[-1] + 1, d, n_head)


def check_params(params: dict, config: GPTConfig) -> np.dtype:
    """Exactly the expected tensors, each a NumPy array of its shape, one floating dtype."""
    expected = param_shapes(config)
    missing = [k for k in expected if k not in params]
    if missing:
        shown = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
        raise KeyError(f"parameter dict is missing {len(missing)} key(s): {shown}; every layer "
                       f"0..{config.n_layer - 1} needs all its tensors (see param_shapes(config)): "
                       f"add them, or {_FIX}")
    extra = [k for k in params if k not in expected]
    if extra:
        shown = ", ".join(map(repr, extra[:3])) + (", ..." if len(extra) > 3 else "")
        raise ValueError(f"parameter dict has {len(extra)} unexpected key(s): {shown}; the model "
                         "would silently ignore them. Remove them (the head is tied to wte, so there is "
                         "no lm_head; mask buffers are not parameters)")
    for name in expected:
        if not isinstance(params[name], np.ndarray):
            raise TypeError(f"parameter {name} must be a NumPy array, got {type(params[name]).__name__}")
    dtypes = {params[k].dtype for k in expected}
    if len(dtypes) != 1 or not all(np.issubdtype(t, np.floating) for t in dtypes):
        raise TypeError(f"all parameters must share one floating dtype, got {sorted(map(str, dtypes))}")
    for name, shape in expected.items():
        if params[name].shape != shape:
            raise ValueError(f"{name} has shape {params[name].shape}, expected {shape}")
    return dtypes.pop()

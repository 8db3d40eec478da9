"""Lesson 08: sampling from GPT-2, in NumPy (the course's parameter dict) and in PyTorch (torch_gpt.GPT).

Each step: crop the context to the block size, run the model, take the last
position's logits, divide them by the temperature, keep the top k, softmax,
draw (or take the argmax: greedy). The random generator is always an argument
(``rng`` for NumPy, ``generator`` for torch): the same generator state gives
the same text, and nothing touches global random state.

The KV cache. At step n the keys and values of positions 0..n-1 are the ones
computed at earlier steps (a position's k and v depend only on the tokens up
to it: the causal mask), so a cached step runs the model on the one new token
and attends over the stored k, v. The cache is only valid while the whole
sequence fits the block: GPT-2's positions are learned absolute rows, so
once the context is cropped every token moves to a new position and every
stored k and v is stale. Past the block size each step therefore refills the
cache from the cropped window: the tokens stay exactly those of the uncached
loop, which always runs the full forward on ``idx[..., -block_size:]``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F

from . import numpy_gpt as ng


# ------------------------------------------------------------------ choosing the next token
def _check_knobs(temperature: float, top_k: int | None, greedy: bool, rng_given: bool, what: str) -> None:
    if not greedy and not (isinstance(temperature, (int, float)) and temperature > 0 and math.isfinite(temperature)):
        raise ValueError(f"temperature must be a positive finite number, got {temperature!r}; "
                         "for the most likely token pass greedy=True")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1):
        raise ValueError(f"top_k must be a positive int or None, got {top_k!r}")
    if not greedy and not rng_given:
        raise TypeError(f"sampling needs an explicit random generator: pass {what} (or greedy=True)")


def top_k_numpy(logits: np.ndarray, k: int) -> np.ndarray:
    """Exactly k finite entries per row (ties at the k-th value broken by position); the rest -inf."""
    k = min(k, logits.shape[-1])
    keep = np.argpartition(-logits, k - 1, axis=-1)[..., :k]              # (B, k) indices of the k largest
    out = np.full_like(logits, -np.inf)
    np.put_along_axis(out, keep, np.take_along_axis(logits, keep, axis=-1), axis=-1)
    return out


def probs_numpy(logits: np.ndarray, temperature: float = 1.0, top_k: int | None = None) -> np.ndarray:
    """softmax(top_k(logits / temperature)): temperature scales the logits, before the softmax."""
    z = logits / temperature                                             # (B, V)
    return ng.softmax(top_k_numpy(z, top_k) if top_k else z, axis=-1)    # (B, V)


def sample_next(logits: np.ndarray, temperature: float, top_k: int | None, rng: np.random.Generator) -> np.ndarray:
    """One draw per row of last-position logits (B, V): int64 ids (B,) (lesson 08's exercise).

    The inverse CDF: one uniform u per row from rng; the id drawn is the first whose
    cumulative probability passes u. Any exact method (rng.choice, Gumbel-max) draws
    from the same distribution; this one reads one number per row."""
    if isinstance(temperature, bool) or not (isinstance(temperature, (int, float)) and temperature > 0
                                             and math.isfinite(temperature)):
        raise ValueError(f"temperature must be a positive finite number, got {temperature!r}: it divides "
                         "the logits (for the most likely id, take the argmax instead)")
    p = probs_numpy(logits, temperature, top_k)                          # (B, V)
    cdf = np.cumsum(p, axis=-1)                                          # (B, V)
    u = rng.random((p.shape[0], 1)) * cdf[:, -1:]                        # (B, 1), in [0, total)
    return np.minimum((cdf <= u).sum(axis=-1), p.shape[-1] - 1)          # first index whose cdf passes u


def pick_numpy(logits: np.ndarray, rng: np.random.Generator | None = None, temperature: float = 1.0,
               top_k: int | None = None, greedy: bool = False) -> np.ndarray:
    """Next ids (B,) from last-position logits (B, V): argmax, or one draw per row from rng."""
    _check_knobs(temperature, top_k, greedy, rng is not None, "rng=np.random.default_rng(seed)")
    if greedy:
        return logits.argmax(axis=-1)
    return sample_next(logits, temperature, top_k, rng)


def top_k_torch(logits: torch.Tensor, k: int) -> torch.Tensor:
    """Exactly k finite entries per row; the rest -inf (a `< k-th value` test would keep ties too)."""
    values, keep = torch.topk(logits, min(k, logits.shape[-1]), dim=-1)  # (B, k)
    return torch.full_like(logits, -math.inf).scatter(-1, keep, values)


def probs_torch(logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None) -> torch.Tensor:
    z = logits / temperature
    return F.softmax(top_k_torch(z, top_k) if top_k else z, dim=-1)


def pick_torch(logits: torch.Tensor, generator: torch.Generator | None = None, temperature: float = 1.0,
               top_k: int | None = None, greedy: bool = False) -> torch.Tensor:
    """Next ids (B,) from last-position logits (B, V)."""
    _check_knobs(temperature, top_k, greedy, generator is not None, "generator=torch.Generator().manual_seed(seed)")
    if greedy:
        return logits.argmax(dim=-1)
    return torch.multinomial(probs_torch(logits.float(), temperature, top_k), 1, generator=generator)[:, 0]


# ------------------------------------------------------------------ the KV cache
@dataclass
class KVCache:
    """Per layer, the keys and values of every position so far, each (B, h, t, d_k)."""

    keys: list = field(default_factory=list)
    values: list = field(default_factory=list)

    @property
    def length(self) -> int:
        return self.keys[0].shape[-2] if self.keys else 0

    def extend(self, layer: int, k, v):
        """Append this step's k, v (B, h, t_new, d_k) to the layer's; returns all of them."""
        if layer == len(self.keys):
            self.keys.append(k)
            self.values.append(v)
        else:
            cat = torch.cat if isinstance(k, torch.Tensor) else np.concatenate
            self.keys[layer] = cat([self.keys[layer], k], -2)            # (B, h, t + t_new, d_k)
            self.values[layer] = cat([self.values[layer], v], -2)
        return self.keys[layer], self.values[layer]


def _visible(past: int, t_new: int, xp=np):
    """(t_new, past + t_new): True where key j may be seen from new query i, i.e. j <= past + i."""
    return xp.arange(past + t_new)[None, :] <= (past + xp.arange(t_new))[:, None]


def numpy_forward_cached(params: dict, idx: np.ndarray, n_head: int, cache: KVCache) -> np.ndarray:
    """Logits (B, t_new, V) for new ids (B, t_new) at positions cache.length.., filling the cache."""
    past, t_new = cache.length, idx.shape[1]
    x = params["wte"][idx] + params["wpe"][past:past + t_new]            # (B, t_new, d)
    d = x.shape[-1]
    mask = _visible(past, t_new)                                         # (t_new, past + t_new)
    for layer in range(_n_layer(params)):
        w = {name[len(f"h.{layer}."):]: v for name, v in params.items() if name.startswith(f"h.{layer}.")}
        a = ng.layer_norm(x, w["ln_1.weight"], w["ln_1.bias"])
        qkv = a @ w["attn.c_attn.weight"] + w["attn.c_attn.bias"]           # (B, t_new, 3d)
        q, k, v = (ng.split_heads(t, n_head) for t in np.split(qkv, 3, axis=-1))  # 3 x (B, h, t_new, d_k)
        k, v = cache.extend(layer, k, v)                                 # 2 x (B, h, past + t_new, d_k)
        scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(d // n_head)     # (B, h, t_new, past + t_new)
        att = ng.softmax(np.where(mask, scores, -np.inf), axis=-1)       # (B, h, t_new, past + t_new)
        x = x + ng.merge_heads(att @ v) @ w["attn.c_proj.weight"] + w["attn.c_proj.bias"]  # (B, t_new, d)
        m = ng.layer_norm(x, w["ln_2.weight"], w["ln_2.bias"])
        x = x + ng.mlp(m, w["mlp.c_fc.weight"], w["mlp.c_fc.bias"], w["mlp.c_proj.weight"], w["mlp.c_proj.bias"])
    return ng.layer_norm(x, params["ln_f.weight"], params["ln_f.bias"]) @ params["wte"].T  # (B, t_new, V)


def _n_layer(params: dict) -> int:
    return sum(1 for k in params if k.endswith(".ln_1.weight"))


def torch_forward_cached(model, idx: torch.Tensor, cache: KVCache) -> torch.Tensor:
    """The same for torch_gpt.GPT, built from the module's own layers (its forward has no cache)."""
    tr, past, (B, t_new) = model.transformer, cache.length, idx.shape
    x = tr.wte(idx) + tr.wpe(torch.arange(past, past + t_new, device=idx.device))  # (B, t_new, d)
    d = x.shape[-1]
    mask = _visible(past, t_new, torch).to(idx.device)                   # (t_new, past + t_new)
    for layer, block in enumerate(tr.h):
        h = block.attn.n_head
        q, k, v = block.attn.c_attn(block.ln_1(x)).split(d, dim=-1)      # 3 x (B, t_new, d)
        q, k, v = (t.view(B, t_new, h, d // h).transpose(1, 2) for t in (q, k, v))  # 3 x (B, h, t_new, d_k)
        k, v = cache.extend(layer, k, v)                                 # 2 x (B, h, past + t_new, d_k)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)      # (B, h, t_new, d_k)
        x = x + block.attn.c_proj(y.transpose(1, 2).reshape(B, t_new, d))  # (B, t_new, d)
        x = x + block.mlp(block.ln_2(x))
    return model.lm_head(tr.ln_f(x))                                     # (B, t_new, V)


# ------------------------------------------------------------------ the loops
def _logits_stream(forward_full, forward_cached, block_size: int, use_cache: bool):
    """A function idx -> last-position logits (B, V), cached or not, always cropping to the block."""
    cache = None

    def step(idx):
        nonlocal cache
        if not use_cache:
            return forward_full(idx[:, -block_size:])[:, -1]
        if cache is not None and 0 < cache.length < block_size and cache.length == idx.shape[1] - 1:
            return forward_cached(idx[:, -1:], cache)[:, -1]             # one new token on the cache
        cache = KVCache()                                                # first step, or the window moved
        return forward_cached(idx[:, -block_size:], cache)[:, -1]

    return step


def sample_numpy(params: dict, idx, n_new: int, n_head: int, *, rng: np.random.Generator | None = None,
                 temperature: float = 1.0, top_k: int | None = None, greedy: bool = False,
                 use_cache: bool = True) -> np.ndarray:
    """Append n_new ids to idx ((T,) or (B, T)); returns the whole sequence, same shape rank."""
    config = ng.config_from_params(params, n_head)
    ng.check_params(params, config)
    _check_knobs(temperature, top_k, greedy, rng is not None, "rng=np.random.default_rng(seed)")
    squeeze = np.ndim(idx) == 1
    idx = np.asarray(idx)[None] if squeeze else np.asarray(idx)
    ng.check_token_ids(idx[:, -config.block_size:], config.vocab_size, config.block_size)
    step = _logits_stream(lambda i: ng.gpt_logits(params, i, n_head),
                          lambda i, c: numpy_forward_cached(params, i, n_head, c), config.block_size, use_cache)
    for _ in range(n_new):
        nxt = pick_numpy(step(idx), rng, temperature, top_k, greedy)    # (B,)
        idx = np.concatenate([idx, nxt[:, None].astype(idx.dtype)], axis=1)
    return idx[0] if squeeze else idx


@torch.no_grad()
def sample_torch(model, idx: torch.Tensor, n_new: int, *, generator: torch.Generator | None = None,
                 temperature: float = 1.0, top_k: int | None = None, greedy: bool = False,
                 use_cache: bool = True, vocab_size: int | None = None) -> torch.Tensor:
    """The same for torch_gpt.GPT (run in eval mode; its mode is restored afterwards).

    vocab_size: score only the first vocab_size ids (a model trained with a padded vocabulary)."""
    _check_knobs(temperature, top_k, greedy, generator is not None, "generator=torch.Generator().manual_seed(seed)")
    squeeze = idx.dim() == 1
    idx = idx[None] if squeeze else idx
    model._check_ids(idx[:, -model.config.block_size:])
    was_training = model.training
    model.eval()
    try:
        step = _logits_stream(model, lambda i, c: torch_forward_cached(model, i, c),
                              model.config.block_size, use_cache)
        for _ in range(n_new):
            logits = step(idx)[:, :vocab_size]                           # (B, V)
            nxt = pick_torch(logits, generator, temperature, top_k, greedy)
            idx = torch.cat([idx, nxt[:, None].to(idx.dtype)], dim=1)
    finally:
        model.train(was_training)
    return idx[0] if squeeze else idx

"""GPT-2 in PyTorch: the same model as numpy_gpt.py, as an nn.Module.

Modules are named like the released checkpoint (transformer.h.0.attn.c_attn,
...), so its weights load by name. The one difference in layout: the
checkpoint's Conv1D layers store weights (in, out), nn.Linear stores
(out, in); state_dicts.py does that transpose. The head is tied: lm_head.weight
is the very tensor of transformer.wte.weight.
"""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from . import checkpoint, state_dicts
from .config import GPTConfig
from .numpy_gpt import LN_EPS  # one epsilon for both models


class CausalSelfAttention(nn.Module):
    def __init__(self, config: GPTConfig, dropout: float):
        super().__init__()
        d = config.n_embd
        self.n_head = config.n_head
        self.c_attn = nn.Linear(d, 3 * d)  # fused q, k, v projection
        self.c_proj = nn.Linear(d, d)      # writes back into the residual stream
        self.dropout = dropout
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, d = x.shape
        h = self.n_head
        q, k, v = self.c_attn(x).split(d, dim=-1)         # 3 x (B, T, d)
        q = q.view(B, T, h, d // h).transpose(1, 2)       # (B, h, T, d_k)
        k = k.view(B, T, h, d // h).transpose(1, 2)       # (B, h, T, d_k)
        v = v.view(B, T, h, d // h).transpose(1, 2)       # (B, h, T, d_k)
        # softmax(q k^T / sqrt(d_k)) v with the causal mask; a fused kernel where there is one
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                           dropout_p=self.dropout if self.training else 0.0)  # (B, h, T, d_k)
        y = y.transpose(1, 2).contiguous().view(B, T, d)  # (B, T, h, d_k) -> (B, T, d)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self, config: GPTConfig, dropout: float):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, config.mlp_width)    # d -> 4d
        self.c_proj = nn.Linear(config.mlp_width, config.n_embd)  # 4d -> d, into the stream
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        # GPT-2's GELU is the tanh approximation ("gelu_new" in Hugging Face)
        return self.dropout(self.c_proj(F.gelu(self.c_fc(x), approximate="tanh")))


class Block(nn.Module):
    """Pre-LN: each sub-layer reads a normalised copy and adds its output to the stream."""

    def __init__(self, config: GPTConfig, dropout: float):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, eps=LN_EPS)
        self.attn = CausalSelfAttention(config, dropout)
        self.ln_2 = nn.LayerNorm(config.n_embd, eps=LN_EPS)
        self.mlp = MLP(config, dropout)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, config: GPTConfig, dropout: float = 0.0):
        super().__init__()
        if not isinstance(config, GPTConfig):
            raise TypeError(f"GPT needs a GPTConfig, got {type(config).__name__}")
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),  # token rows, (V, d)
            wpe=nn.Embedding(config.block_size, config.n_embd),  # position rows, (T, d)
            drop=nn.Dropout(dropout),
            h=nn.ModuleList(Block(config, dropout) for _ in range(config.n_layer)),
            ln_f=nn.LayerNorm(config.n_embd, eps=LN_EPS),
        ))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        # Tying: the head is the token table itself, one tensor under two names.
        # parameters() yields it once; state_dict() lists both names.
        self.lm_head.weight = self.transformer.wte.weight

    def forward(self, idx, targets=None):
        """Logits (B, T, V) for token ids (B, T) or (T,); with targets, also the mean cross-entropy."""
        idx = self._check_ids(idx)
        squeeze = idx.dim() == 1
        if squeeze:
            idx = idx[None]                                        # (T,) -> (1, T)
        T = idx.shape[1]
        pos = torch.arange(T, device=idx.device)                   # (T,)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)  # (B, T, d) + (T, d)
        x = self.transformer.drop(x)
        for block in self.transformer.h:
            x = block(x)                                           # (B, T, d)
        logits = self.lm_head(self.transformer.ln_f(x))            # (B, T, V)
        if squeeze:
            logits = logits[0]                                     # (T, V)
        if targets is None:
            return logits
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        return logits, loss

    def _check_ids(self, idx):
        """The same checks, and the same messages, as numpy_gpt.check_token_ids."""
        if not isinstance(idx, torch.Tensor):
            raise TypeError(f"token ids must be a torch tensor, got {type(idx).__name__}")
        if idx.dtype == torch.bool or idx.dtype.is_floating_point or idx.dtype.is_complex:
            raise TypeError(f"token ids must have an integer dtype, got {idx.dtype}")
        if idx.dim() not in (1, 2):
            raise ValueError(f"token ids must have shape (T,) or (B, T), got shape {tuple(idx.shape)}")
        V, T = self.config.vocab_size, idx.shape[-1]
        if idx.numel() == 0:
            raise ValueError(f"token ids of shape {tuple(idx.shape)} hold no token: pass at least one")
        if T > self.config.block_size:
            raise ValueError(
                f"sequence length {T} exceeds the block size {self.config.block_size}: there is no "
                f"learned position row beyond position {self.config.block_size - 1}; crop the input to "
                f"its last {self.config.block_size} tokens")
        if idx.device.type != "meta":
            lo, hi = int(idx.min()), int(idx.max())
            if lo < 0 or hi >= V:
                raise ValueError(f"token id {lo if lo < 0 else hi} is outside the vocabulary [0, {V})")
        # nn.Embedding takes int64/int32 only; NumPy's indexing takes any integer (the tokenizer's uint8)
        return idx if idx.dtype in (torch.int64, torch.int32) else idx.long()

    # ------------------------------------------------------------- weights
    def parameter_arrays(self) -> dict:
        """Each parameter once (the tied head under transformer.wte.weight), as NumPy views."""
        return {name: p.detach().cpu().numpy() for name, p in self.named_parameters()}

    @torch.no_grad()
    def load_arrays(self, arrays: dict) -> "GPT":
        """Copy {parameter name: array} into the module, in place; the tie is kept."""
        params = dict(self.named_parameters())
        if arrays.keys() != params.keys():
            raise ValueError(f"parameter names differ: missing {sorted(params.keys() - arrays.keys())[:4]}, "
                             f"unexpected {sorted(arrays.keys() - params.keys())[:4]}")
        for name, p in params.items():
            p.copy_(torch.as_tensor(arrays[name]))  # copy_ checks the shape and casts to p's dtype
        return self

    @classmethod
    def from_numpy(cls, params: dict, n_head: int, dtype=torch.float64) -> "GPT":
        """A module holding the course's NumPy parameter dict (Conv1D weights transposed)."""
        from .numpy_gpt import check_params, config_from_params

        config = config_from_params(params, n_head)
        check_params(params, config)
        model = cls(config).to(dtype)
        return model.load_arrays(state_dicts.module_arrays_from_params(params, model.parameter_arrays()))

    @classmethod
    def from_pretrained(cls, source, config: GPTConfig | None = None, dtype=None) -> "GPT":
        """GPT-2's weights in any form ``checkpoint.read`` takes: a Hub snapshot or save_pretrained
        folder (config.json + model.safetensors or pytorch_model.bin), a bare .safetensors or .bin,
        or a state dict; with or without the ``transformer.`` prefix, the mask buffers and
        lm_head.weight. The sizes: ``config``, else the folder's config.json, else read off the
        tensors (n_head from GPT-2's known sizes). ``dtype``: the checkpoint's own by default."""
        found = checkpoint.read(source)
        model = cls(checkpoint.config_of(found, config)).to(dtype or _dtype_of(found.tensors))
        tensors = checkpoint.module_names(found.tensors)
        return model.load_arrays(state_dicts.module_arrays_from_state_dict(model.parameter_arrays(), tensors))

    @torch.no_grad()
    def generate(self, idx, n_new: int):
        """Greedy decoding: append the most likely next token n_new times."""
        for _ in range(n_new):
            logits = self(idx[..., -self.config.block_size:])  # crop to the block size
            idx = torch.cat([idx, logits[..., -1, :].argmax(-1, keepdim=True)], dim=-1)
        return idx


def _dtype_of(tensors: dict) -> torch.dtype:
    """The token table's dtype (float32 when there is none: the missing key is reported next)."""
    wte = next((v for k, v in tensors.items() if k.removeprefix("transformer.") == "wte.weight"), None)
    if wte is None:
        return torch.float32
    return wte.dtype if isinstance(wte, torch.Tensor) else torch.from_numpy(np.empty(0, np.asarray(wte).dtype)).dtype

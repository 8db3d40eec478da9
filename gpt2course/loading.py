"""Turning a Hugging Face / OpenAI GPT-2 state dict into the course's parameter dict."""
from __future__ import annotations

import re

import numpy as np

# Older checkpoints store the causal mask as buffers; they are not parameters.
_BUFFER = re.compile(r"\.attn\.(bias|masked_bias)$")


def course_name(hf_name: str) -> str | None:
    """'transformer.h.0.attn.c_attn.weight' -> 'h.0.attn.c_attn.weight'; None for buffers."""
    name = hf_name.removeprefix("transformer.")
    if _BUFFER.search(name) or name == "lm_head.weight":
        return None
    return name.removesuffix(".weight") if name in ("wte.weight", "wpe.weight") else name


def params_from_state_dict(state_dict: dict, dtype=np.float64) -> dict[str, np.ndarray]:
    """Convert tensors (torch or NumPy) to NumPy, keeping the Conv1D (in, out) layout.

    The head must be tied: if the checkpoint carries lm_head.weight it has to
    equal the token table, otherwise the model is not GPT-2 and we refuse it.
    """
    params = {}
    for hf_name, tensor in state_dict.items():
        name = course_name(hf_name)
        if name is not None:
            params[name] = _to_numpy(tensor).astype(dtype)
    if "wte" not in params:
        raise KeyError("state dict has no token embedding (transformer.wte.weight)")
    head = state_dict.get("lm_head.weight")
    if head is not None and not np.array_equal(_to_numpy(head).astype(dtype), params["wte"]):
        raise ValueError("lm_head.weight differs from wte: this checkpoint's head is not tied")
    return params


def _to_numpy(tensor) -> np.ndarray:
    if hasattr(tensor, "detach"):
        return tensor.detach().cpu().numpy()
    return np.asarray(tensor)

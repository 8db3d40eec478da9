"""GPT-2's state dicts in the course's names and layouts.

A Hugging Face / OpenAI checkpoint's state dict as the course's parameter dict ('wte',
'h.0.attn.c_attn.weight', ..., the Conv1D (in, out) layout), and that dict or a
checkpoint's state dict as the PyTorch module's parameters (nn.Linear's (out, in) layout);
the names and the format tag of the files the course writes.
"""
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


# ----------------------------------------------------------------- into the PyTorch module
# The checkpoint's Conv1D layers store their weights (in, out); nn.Linear stores
# (out, in). Exactly these four get a transpose; the embeddings, biases and
# LayerNorm parameters are copied as they are.
# safetensors metadata "format" of the files gpt2course.train writes: the module's
# parameters, so in the nn.Linear (out, in) layout (Hugging Face's files say "pt").
COURSE_FORMAT = "gpt2course"
LINEAR_WEIGHTS = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
_TIED = ("lm_head.weight", "transformer.wte.weight")


def is_linear_weight(name: str) -> bool:
    return name.endswith(LINEAR_WEIGHTS)


def module_name(name: str) -> str:
    """Course name -> the module's: 'wte' -> 'transformer.wte.weight', 'h.0.x' -> 'transformer.h.0.x'."""
    return f"transformer.{name}.weight" if name in ("wte", "wpe") else f"transformer.{name}"


def module_arrays_from_params(params: dict, model: dict) -> dict[str, np.ndarray]:
    """The course's parameter dict (Conv1D layout) as the module's parameters.

    ``model`` maps each parameter name of the module (``named_parameters()``:
    the tied head counted once, as transformer.wte.weight) to an array of its
    shape and dtype. Returns new arrays under the same names.
    """
    return _fill(model, {module_name(k): v for k, v in params.items()}, "the parameter dict")


def module_arrays_from_state_dict(model: dict, state_dict: dict) -> dict[str, np.ndarray]:
    """A Hugging Face / OpenAI GPT-2 state dict as the module's parameters (see above).

    Mask buffers are skipped; lm_head.weight, when present, must equal the token
    table (the head is tied, so the module has no tensor of its own for it).
    """
    source = {k: _to_numpy(v) for k, v in state_dict.items() if not _BUFFER.search(k)}
    head = source.pop(_TIED[0], None)
    if head is not None and _TIED[1] in source and not np.array_equal(head, source[_TIED[1]]):
        raise ValueError("lm_head.weight differs from transformer.wte.weight: this checkpoint's "
                         "head is not tied, so it is not GPT-2")
    return _fill(model, source, "the state dict")


def _fill(model: dict, source: dict, what: str) -> dict[str, np.ndarray]:
    missing = [k for k in model if k not in source]
    unexpected = [k for k in source if k not in model]
    if missing or unexpected:
        raise ValueError(f"{what} does not fit the model: missing key(s) {_few(missing)}, "
                         f"unexpected key(s) {_few(unexpected)}")
    out = {}
    for name, target in model.items():
        value = np.asarray(source[name])
        if is_linear_weight(name):
            value = value.T  # Conv1D (in, out) -> nn.Linear (out, in)
        if value.shape != np.shape(target):
            layout = " after the Conv1D -> nn.Linear transpose" if is_linear_weight(name) else ""
            raise ValueError(f"shape mismatch for {name}: {what} gives {value.shape}{layout}, "
                             f"the model needs {tuple(np.shape(target))}")
        out[name] = value.astype(np.asarray(target).dtype)  # a new array, in the model's dtype
    return out


def _few(keys: list, n: int = 4) -> str:
    return "[" + ", ".join(keys[:n]) + (", ..." if len(keys) > n else "") + "]" if keys else "none"

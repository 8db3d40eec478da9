"""Reading a GPT-2 checkpoint in whatever form a user has it: one reader for both models.

    found = checkpoint.read(source)   # found.tensors, found.config, found.path

``source`` is a folder (a Hugging Face Hub snapshot, or what ``save_pretrained`` writes:
config.json with model.safetensors or pytorch_model.bin), a bare .safetensors or PyTorch
.bin file, or a state dict already in memory. The tensors come back under the names the
file uses, with or without the ``transformer.`` prefix, mask buffers and lm_head.weight
included, in the file's dtype and in the released checkpoint's Conv1D (in, out) layout.
``weights.get_gpt2`` turns them into the NumPy parameter dict
(``state_dicts.params_from_state_dict``), ``GPT.from_pretrained`` into the module's
parameters (``state_dicts.module_arrays_from_state_dict``, after ``module_names``).
"""
from __future__ import annotations

import json
import struct
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from . import state_dicts
from .config import GPT2_FAMILY, TINY, GPTConfig
from .numpy_gpt import LN_EPS, config_from_params

# The names save_pretrained and the Hub give the weights, the preferred one first.
WEIGHTS_FILES = ("model.safetensors", "pytorch_model.bin")
_FORMS = ("a Hub snapshot or save_pretrained folder (config.json + model.safetensors or pytorch_model.bin), "
          "a .safetensors file or a PyTorch .bin")


@dataclass(frozen=True)
class Checkpoint:
    tensors: dict             # name -> NumPy array or torch tensor, as the file names it, Conv1D layout
    config: GPTConfig | None  # from the folder's config.json; None for a bare file or a state dict
    path: Path | None         # the file that was read; None for a state dict


def read(source) -> Checkpoint:
    """The tensors (and a folder's config.json) of any of the forms above."""
    if isinstance(source, Mapping):
        return Checkpoint(dict(source), None, None)
    path, config = Path(source), None
    if path.is_dir():
        config = config_beside(path / WEIGHTS_FILES[0])
        path = next((path / name for name in WEIGHTS_FILES if (path / name).is_file()), path / WEIGHTS_FILES[0])
    if not path.is_file():
        raise FileNotFoundError(f"no checkpoint at {path}: give {_FORMS}")
    return Checkpoint(read_tensors(path), config, path)


def config_beside(path: Path) -> GPTConfig | None:
    """The config.json in the weights file's folder, if there is one."""
    beside = Path(path).parent / "config.json"
    return read_config(beside) if beside.is_file() else None


# ----------------------------------------------------------------- the file's tensors
def read_tensors(path: Path) -> dict:
    """Told apart by their bytes, not their names: the Hub's blobs have no suffix at all."""
    if _is_safetensors(path):
        return _read_safetensors(path)
    import torch

    try:
        tensors = torch.load(path, map_location="cpu", weights_only=True)  # tensors only: no pickled code runs
    except Exception as error:  # torch raises pickle's, zipfile's or its own errors, by format
        raise ValueError(f"{path} is neither a safetensors file nor a PyTorch state dict that torch.load can "
                         f"read ({type(error).__name__}: {str(error)[:200]}); give {_FORMS}") from None
    if not isinstance(tensors, Mapping) or not all(isinstance(v, torch.Tensor) for v in tensors.values()):
        raise ValueError(f"{path} holds a {type(tensors).__name__}, not a state dict of tensors")
    return dict(tensors)


def _is_safetensors(path: Path) -> bool:
    """A safetensors file starts with its JSON header's length (8 bytes, little-endian), then '{'."""
    with open(path, "rb") as f:
        head = f.read(9)
    return len(head) == 9 and head[8:] == b"{" and struct.unpack("<Q", head[:8])[0] < path.stat().st_size


def _read_safetensors(path: Path) -> dict:
    from safetensors import safe_open

    with safe_open(str(path), framework="np") as f:
        written_by_the_course = (f.metadata() or {}).get("format") == state_dicts.COURSE_FORMAT
        tensors = {name: f.get_tensor(name) for name in f.keys()}
    if written_by_the_course:  # gpt2course.train saves the module's nn.Linear (out, in): back to Conv1D's
        tensors = {k: v.T.copy() if state_dicts.is_linear_weight(k) else v for k, v in tensors.items()}
    return tensors


def module_names(tensors: dict) -> dict:
    """The names GPT2LMHeadModel's state_dict() uses: the Hub's own files leave out 'transformer.'."""
    named = {k if k.startswith("transformer.") or k == "lm_head.weight" else f"transformer.{k}": v
             for k, v in tensors.items()}
    if len(named) != len(tensors):
        both = sorted(k for k in tensors if f"transformer.{k}" in tensors)
        raise ValueError(f"the state dict holds {both[0]!r} both with and without the 'transformer.' prefix: "
                         "keep one of the two")
    return named


# ----------------------------------------------------------------- the sizes
def read_config(path) -> GPTConfig:
    """Hugging Face's GPT2Config names (n_positions is the block size), checked against GPT-2's
    choices, or the course's own (gpt2course.train writes the GPTConfig as model_config)."""
    c = json.loads(Path(path).read_text())
    if "model_config" in c:
        return GPTConfig(**c["model_config"])
    missing = [k for k in ("vocab_size", "n_embd", "n_layer", "n_head") if k not in c]
    if missing or not ("n_positions" in c or "n_ctx" in c):
        raise ValueError(f"{path} is no GPT-2 config.json: it lacks {missing or ['n_positions']}")
    if c.get("activation_function", "gelu_new") != "gelu_new":
        raise ValueError(f"{path}: activation_function is {c['activation_function']!r}; GPT-2 uses 'gelu_new'")
    if c.get("layer_norm_epsilon", LN_EPS) != LN_EPS:
        raise ValueError(f"{path}: layer_norm_epsilon is {c['layer_norm_epsilon']}; GPT-2 uses {LN_EPS}")
    if c.get("n_inner") not in (None, 4 * c["n_embd"]):
        raise ValueError(f"{path}: n_inner is {c['n_inner']}; GPT-2's MLP is 4 * n_embd = {4 * c['n_embd']} wide")
    return GPTConfig(vocab_size=c["vocab_size"], block_size=c.get("n_positions", c.get("n_ctx")),
                     n_layer=c["n_layer"], n_embd=c["n_embd"], n_head=c["n_head"])


def known_config(tensors: dict) -> GPTConfig:
    """A bare weights file does not say n_head: accept it when its sizes are a known model's."""
    shapes = {name: v for k, v in tensors.items() if (name := state_dicts.course_name(k)) is not None}
    sizes = config_from_params(shapes, n_head=1)  # shapes only: nothing is copied
    for known in (*GPT2_FAMILY.values(), TINY):
        if replace(known, n_head=1) == sizes:
            return known
    raise ValueError(f"weights of sizes V={sizes.vocab_size}, T={sizes.block_size}, L={sizes.n_layer}, "
                     f"d={sizes.n_embd} are no GPT-2 size, so n_head is unknown: pass config=GPTConfig(...) "
                     "or put a config.json next to them")


def config_of(found: Checkpoint, config: GPTConfig | None = None) -> GPTConfig:
    """The sizes to build: the ones asked for, else the folder's config.json, else the tensors' own."""
    return config or found.config or known_config(found.tensors)

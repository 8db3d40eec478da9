"""The Hub's GPT-2 files as users really have them, with random numbers (never the course's own saver).

openai-community/gpt2 (commit 607a30d7) as the Hub serves it: model.safetensors with keys
without `transformer.` (wte.weight, wpe.weight, h.0.ln_1.weight, ..., ln_f.bias), no
lm_head.weight (the head is tied), one float32 (1, 1, n_ctx, n_ctx) lower-triangular
h.N.attn.bias per layer and metadata {"format": "pt"}; pytorch_model.bin (torch.save's pre-zip
format by default, as before PyTorch 1.6) also with h.N.attn.masked_bias; config.json with the
Hub's fields; the cache huggingface_hub keeps (blobs named by ETag, snapshots as relative links,
refs/main).
tests/support/loopback_hub.py serves the same files as the Hub does.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gpt2course import GPT2_SMALL, GPTConfig
from support.unix_kernels import AsyncUnixSocketKernels

REPO = "openai-community/gpt2"
COMMIT = "607a30d783dfa663caf39e06633721c8d4cfcd7e"
LFS_FILES = ("model.safetensors", "pytorch_model.bin")  # stored in Git LFS: their ETag is the sha256
HUB_CONFIG = {  # openai-community/gpt2's config.json, field for field
    "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
    "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
    "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12,
    "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1, "summary_activation": None,
    "summary_first_dropout": 0.1, "summary_proj_to_labels": True, "summary_type": "cls_index",
    "summary_use_proj": True, "task_specific_params": {"text-generation": {"do_sample": True, "max_length": 50}},
    "vocab_size": 50257,
}


# ----------------------------------------------------------------- the files
def hub_config(config: GPTConfig = GPT2_SMALL) -> bytes:
    c = copy.deepcopy(HUB_CONFIG) | {"vocab_size": config.vocab_size, "n_positions": config.block_size,
                                     "n_ctx": config.block_size, "n_embd": config.n_embd,
                                     "n_layer": config.n_layer, "n_head": config.n_head}
    return (json.dumps(c, indent=2, sort_keys=True) + "\n").encode()


def hub_tensors(config: GPTConfig, seed: int = 0) -> dict[str, np.ndarray]:
    """Float32, every tensor random (biases and LayerNorms too, so a mix-up shows), std 0.1."""
    rng = np.random.default_rng(seed)
    d, T = config.n_embd, config.block_size

    def r(*shape, mean=0.0):
        return rng.standard_normal(shape, dtype=np.float32) * np.float32(0.1) + np.float32(mean)

    mask = np.tril(np.ones((T, T), dtype=np.float32))[None, None]  # (1, 1, n_ctx, n_ctx)
    out = {"wte.weight": r(config.vocab_size, d), "wpe.weight": r(T, d)}
    for i in range(config.n_layer):
        p = f"h.{i}."
        out |= {p + "ln_1.weight": r(d, mean=1.0), p + "ln_1.bias": r(d), p + "attn.bias": mask,
                p + "attn.c_attn.weight": r(d, 3 * d), p + "attn.c_attn.bias": r(3 * d),
                p + "attn.c_proj.weight": r(d, d), p + "attn.c_proj.bias": r(d),
                p + "ln_2.weight": r(d, mean=1.0), p + "ln_2.bias": r(d),
                p + "mlp.c_fc.weight": r(d, 4 * d), p + "mlp.c_fc.bias": r(4 * d),
                p + "mlp.c_proj.weight": r(4 * d, d), p + "mlp.c_proj.bias": r(d)}
    return out | {"ln_f.weight": r(d, mean=1.0), "ln_f.bias": r(d)}


def write_safetensors(path: Path, tensors: dict) -> Path:
    from safetensors.numpy import save_file

    save_file(tensors, str(path), metadata={"format": "pt"})
    return path


def write_bin(path: Path, tensors: dict, zipped: bool = False) -> Path:
    import torch

    state = {}
    for name, value in tensors.items():
        state[name] = torch.from_numpy(value)
        if name.endswith(".attn.bias"):  # older transformers kept the mask's fill value as a buffer too
            state[name.replace(".attn.bias", ".attn.masked_bias")] = torch.tensor(-1e4)
    torch.save(state, path, _use_new_zipfile_serialization=zipped)
    return path


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def etag(name: str, data: bytes) -> str:
    """What the Hub sends as the ETag: the sha256 for LFS files, else the git blob id."""
    if name in LFS_FILES:
        return hashlib.sha256(data).hexdigest()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


# ----------------------------------------------------------------- the layouts a user has
@dataclass(frozen=True)
class Layout:
    name: str
    source: Path     # what the user passes to get_gpt2 / GPT.from_pretrained
    hf_folder: Path  # a folder Hugging Face's from_pretrained reads: the same file, by link where it is bare


def layouts(root: Path, config: GPTConfig, seed: int = 0) -> list[Layout]:
    """The four forms: a Hub snapshot folder, a bare .safetensors, a .bin folder, a bare .bin."""
    tensors, cfg = hub_tensors(config, seed), hub_config(config)
    st = write_safetensors(root / "model.safetensors", tensors)
    snapshot = hub_cache(root / "cache", {"config.json": cfg, "model.safetensors": st})
    (root / "bin").mkdir()
    (root / "bin" / "config.json").write_bytes(cfg)
    write_bin(root / "bin" / "pytorch_model.bin", tensors)
    (root / "bare").mkdir()
    bare_st = write_safetensors(root / "bare" / "gpt2.safetensors", tensors)
    bare_bin = write_bin(root / "bare" / "gpt2.bin", tensors)
    return [Layout("snapshot folder", snapshot, snapshot),
            Layout("bare .safetensors", bare_st, _hf_view(root / "hf-st", bare_st, "model.safetensors", cfg)),
            Layout(".bin folder", root / "bin", root / "bin"),
            Layout("bare .bin", bare_bin, _hf_view(root / "hf-bin", bare_bin, "pytorch_model.bin", cfg))]


def _hf_view(folder: Path, file: Path, name: str, cfg: bytes) -> Path:
    folder.mkdir()
    (folder / "config.json").write_bytes(cfg)
    (folder / name).symlink_to(file)
    return folder


def hub_cache(cache: Path, files: dict, repo: str = REPO, commit: str = COMMIT) -> Path:
    """Files (name -> bytes, or a path moved in) laid out as huggingface_hub's cache keeps them:
    models--org--name/blobs/<ETag>, snapshots/<commit>/<name> as a relative link into blobs,
    refs/main holding the commit. Returns the snapshot folder."""
    root = Path(cache) / ("models--" + repo.replace("/", "--"))
    snapshot = root / "snapshots" / commit
    for folder in (root / "blobs", snapshot, root / "refs"):
        folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        if isinstance(content, bytes):
            blob = root / "blobs" / etag(name, content)
            blob.write_bytes(content)
        else:  # a large file: hashed as it streams, moved rather than copied
            blob = root / "blobs" / sha256_of(content)
            os.replace(content, blob)
        (snapshot / name).symlink_to(os.path.relpath(blob, snapshot))
    (root / "refs" / "main").write_text(commit)  # no newline, as huggingface_hub writes it
    return snapshot


def gpt2_small_cache(tmp_path_factory) -> tuple[Path, str]:
    """A Hugging Face cache holding a GPT-2-small-shaped model.safetensors (random numbers, 124M of
    them) and config.json under openai-community/gpt2; built once per test process.
    Returns (the cache folder, for HF_HUB_CACHE; the file's sha256)."""
    root = tmp_path_factory.getbasetemp() / "gpt2-small-hub"
    if not (root / "sha256").exists():
        root.mkdir(exist_ok=True)
        weights = write_safetensors(root / "model.safetensors", hub_tensors(GPT2_SMALL, seed=124))
        digest = sha256_of(weights)
        hub_cache(root / "hub", {"config.json": hub_config(GPT2_SMALL), "model.safetensors": weights})
        (root / "sha256").write_text(digest)
    return root / "hub", (root / "sha256").read_text()


def hf_logits(folder: Path, idx: np.ndarray, dtype) -> np.ndarray:
    """Hugging Face's GPT2LMHeadModel, read by its own from_pretrained from the folder, on token ids idx."""
    import torch
    from transformers import GPT2LMHeadModel

    model = GPT2LMHeadModel.from_pretrained(folder, local_files_only=True).to(dtype).eval()
    with torch.no_grad():
        return model(torch.from_numpy(idx)).logits.numpy()


def run_lesson(path: Path, cache: Path, monkeypatch, sha256: str | None = None, until: str | None = None) -> dict:
    """The lesson in a fresh kernel whose Hugging Face cache is ``cache``, offline, up to the cell
    ``until`` (all by default); ``sha256`` replaces the pinned digest (the file's own, for a
    GPT-2-shaped file of random numbers). Returns {cell id: everything the cell printed}."""
    import nbformat
    from nbclient import NotebookClient

    for key in ("GPT2COURSE_DOWNLOAD", "HF_ENDPOINT"):
        monkeypatch.delenv(key, raising=False)
    for key, value in {"HF_HUB_CACHE": cache, "HF_HOME": cache.parent / "hf-home", "HF_HUB_OFFLINE": 1,
                       "HF_HUB_DISABLE_TELEMETRY": 1}.items():
        monkeypatch.setenv(key, str(value))  # the kernel inherits them
    nb = nbformat.read(path, as_version=4)
    ids = [c.id for c in nb.cells]
    nb.cells = nb.cells[:ids.index(until) + 1] if until else nb.cells
    if sha256:
        nb.cells.insert(0, nbformat.v4.new_code_cell(f"import gpt2course.weights\ngpt2course.weights.SHA256 = {sha256!r}"))
    NotebookClient(nb, timeout=600, kernel_name="python3", kernel_manager_class=AsyncUnixSocketKernels,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return {c.id: "".join(o.get("text", "") for o in c.outputs) for c in nb.cells if c.cell_type == "code"}

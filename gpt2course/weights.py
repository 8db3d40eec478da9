"""GPT-2 small's released weights, from wherever they are, as the course's parameter dict.

    w = get_gpt2()          # w.params, w.config, w.origin ("the Hugging Face cache (...)", ...)

Tried in order: a local path you name, the Hugging Face cache (never the network),
then a download of openai-community/gpt2 when you ask for one (download=True or
GPT2COURSE_DOWNLOAD=1). Without any of them, one warning says so and the course's
tiny model stands in, so every notebook still runs. From the command line:

    python -m gpt2course.weights [PATH] [--download]
"""
from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import sys
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from . import loading, numpy_gpt
from .config import GPT2_FAMILY, TINY, GPTConfig

REPO_ID = "openai-community/gpt2"
REPO_NAMES = (REPO_ID, "gpt2")  # "gpt2" is the repository's old name; a cache may hold either
WEIGHTS_FILE = "model.safetensors"
# sha256 of openai-community/gpt2's model.safetensors (548,105,171 bytes, commit 607a30d7):
# the LFS object id the Hub lists for it. Set to None to trust the ETag the Hub sent
# instead (huggingface_hub names each cached blob after it).
SHA256 = "248dfc3911869ec493c76e65bf2fcf7f615828b0254c12b473182f0f81d3a707"
DOWNLOAD_ENV = "GPT2COURSE_DOWNLOAD"
# The course's trained tiny model (TINY's sizes, vocabulary unpadded), as gpt2course.train
# wrote it: model.safetensors, config.json (its configs and validation loss) and metrics.jsonl
# (its loss curve). `make tiny-checkpoint` retrains it with the command in its README.md.
# Not under data/: gpt2course/data.py is the corpus module.
TINY_RUN = Path(__file__).parent / "checkpoints" / "tiny"
TINY_CHECKPOINT = TINY_RUN / "model.safetensors"


class ChecksumError(ValueError):
    """A checkpoint whose bytes are not the expected ones: corrupted or changed."""


class FallbackWarning(UserWarning):
    """GPT-2's weights were not found, so the tiny model stands in."""


@dataclass(frozen=True)
class Weights:
    params: dict[str, np.ndarray] = field(repr=False)  # the course's names, Conv1D (in, out) layout
    config: GPTConfig
    origin: str  # where the numbers came from, in words
    fallback: bool = False  # True: the course's tiny model stands in for GPT-2


def get_gpt2(source=None, *, download: bool | None = None, cache_dir=None,
             config: GPTConfig | None = None, dtype=np.float32) -> Weights:
    """GPT-2 small's parameters and where they came from.

    ``source``: a save_pretrained folder (config.json with model.safetensors or
    pytorch_model.bin), a .safetensors file or a PyTorch .bin; a path that does
    not load is an error. ``config`` gives a bare file's sizes (default: read
    off its tensors). Without a source: the Hugging Face cache (``cache_dir``,
    default HF_HUB_CACHE), then, if ``download`` (default: $GPT2COURSE_DOWNLOAD)
    and not HF_HUB_OFFLINE, a download. The Hub's file must have the official
    sha256, else ChecksumError; it is not used.
    """
    if source is not None:
        return _from_path(Path(source), config, dtype)
    if download is None:
        download = os.environ.get(DOWNLOAD_ENV, "").strip().lower() in ("1", "true", "yes")
    found, why = _from_hub(cache_dir, download, dtype)
    return found or _tiny(why, dtype)


# ----------------------------------------------------------------- 1. a local path
def _from_path(path: Path, config: GPTConfig | None, dtype) -> Weights:
    if path.is_dir():
        if config is None and (path / "config.json").exists():
            config = _read_config(path / "config.json")
        candidates = [path / name for name in (WEIGHTS_FILE, "pytorch_model.bin")]
        path = next((p for p in candidates if p.exists()), candidates[0])
    if not path.is_file():
        raise FileNotFoundError(f"no checkpoint at {path}: give a save_pretrained folder (config.json + "
                                "model.safetensors or pytorch_model.bin), a .safetensors file or a PyTorch .bin")
    return _weights(_read_state_dict(path), config, dtype, f"the local file {path}")


# ----------------------------------------------------------------- 2 and 3. the Hub
def _from_hub(cache_dir, download: bool, dtype) -> tuple[Weights | None, str]:
    try:
        from huggingface_hub import constants, hf_hub_download
    except ImportError:
        return None, "huggingface_hub is not installed"
    for repo in REPO_NAMES:
        try:
            path = hf_hub_download(repo, WEIGHTS_FILE, cache_dir=cache_dir, local_files_only=True)
        except FileNotFoundError:  # huggingface_hub's LocalEntryNotFoundError
            continue
        config = _cached_config(hf_hub_download, repo, cache_dir)
        return _hub_weights(path, config, dtype, f"the Hugging Face cache ({repo}, {path})"), ""
    if not download:
        return None, (f"they are not in the Hugging Face cache and downloading is off "
                      f"(pass download=True or set {DOWNLOAD_ENV}=1)")
    if constants.HF_HUB_OFFLINE:
        return None, "they are not in the Hugging Face cache and HF_HUB_OFFLINE=1 forbids downloading them"
    try:
        path = hf_hub_download(REPO_ID, WEIGHTS_FILE, cache_dir=cache_dir)
        config_path = hf_hub_download(REPO_ID, "config.json", cache_dir=cache_dir)
    except Exception as error:  # the Hub client raises its own, requests' or httpx's errors by version
        return None, f"downloading {REPO_ID} failed ({type(error).__name__}: {str(error)[:200]})"
    try:
        return _hub_weights(path, _read_config(config_path), dtype, f"a download of {REPO_ID} ({path})"), ""
    except ChecksumError:  # so that the cache does not offer it next time
        for bad in {Path(path).resolve(), Path(path)}:  # the blob and the snapshot's link to it
            bad.unlink(missing_ok=True)
        raise


def _cached_config(hf_hub_download, repo: str, cache_dir) -> GPTConfig | None:
    try:
        return _read_config(hf_hub_download(repo, "config.json", cache_dir=cache_dir, local_files_only=True))
    except FileNotFoundError:
        return None  # the sizes are then read off the tensors


def _hub_weights(path: str, config: GPTConfig | None, dtype, origin: str) -> Weights:
    _verify(path)
    return _weights(_read_state_dict(Path(path)), config, dtype, f"{origin}, sha256 verified")


def _verify(path: str) -> None:
    """Compare with SHA256 or, when that is None, with the blob's name: the ETag the Hub sent."""
    blob = Path(path).resolve()
    expected = SHA256 or blob.name
    stat = blob.stat()
    actual = _sha256(str(blob), stat.st_size, stat.st_mtime_ns)
    if actual != expected:
        raise ChecksumError(f"{path} has sha256 {actual}, but GPT-2's {WEIGHTS_FILE} has {expected}: "
                            "the file is corrupted or was changed, so it is not used; delete it and download again")


@functools.lru_cache(maxsize=8)  # keyed by size and mtime too, so a changed file is hashed again
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


# ----------------------------------------------------------------- the fallback
def _tiny(why: str, dtype) -> Weights:
    if TINY_CHECKPOINT.exists():
        weights = _weights(_read_state_dict(TINY_CHECKPOINT), TINY, dtype,
                           f"the course's trained tiny model ({TINY_CHECKPOINT})", fallback=True)
    else:
        weights = Weights(numpy_gpt.init_params(TINY, seed=0, dtype=dtype), TINY,
                          f"the course's untrained tiny model (freshly initialised with seed 0, "
                          f"as {TINY_CHECKPOINT} does not exist yet)", fallback=True)
    warnings.warn(f"GPT-2's weights were not found: {why}; using {weights.origin} instead.",
                  FallbackWarning, stacklevel=3)
    return weights


# ----------------------------------------------------------------- reading files
def _read_state_dict(path: Path) -> dict:
    if path.suffix == ".safetensors":
        from safetensors import safe_open
        from safetensors.numpy import load_file

        with safe_open(str(path), framework="np") as f:
            written_by_the_course = (f.metadata() or {}).get("format") == loading.COURSE_FORMAT
        tensors = load_file(str(path))
        if written_by_the_course:  # the module's nn.Linear (out, in) layout: back to Conv1D's (in, out)
            tensors = {k: v.T.copy() if loading.is_linear_weight(k) else v for k, v in tensors.items()}
        return tensors
    import torch

    return torch.load(path, map_location="cpu", weights_only=True)  # tensors only: no pickled code runs


def _read_config(path) -> GPTConfig:
    """Hugging Face's GPT2Config names (n_positions is the block size), checked against GPT-2's choices,
    or the course's own (gpt2course.train writes the GPTConfig as model_config)."""
    c = json.loads(Path(path).read_text())
    if "model_config" in c:
        return GPTConfig(**c["model_config"])
    if c.get("activation_function", "gelu_new") != "gelu_new":
        raise ValueError(f"{path}: activation_function is {c['activation_function']!r}; GPT-2 uses 'gelu_new'")
    if c.get("layer_norm_epsilon", numpy_gpt.LN_EPS) != numpy_gpt.LN_EPS:
        raise ValueError(f"{path}: layer_norm_epsilon is {c['layer_norm_epsilon']}; GPT-2 uses {numpy_gpt.LN_EPS}")
    return GPTConfig(vocab_size=c["vocab_size"], block_size=c["n_positions"], n_layer=c["n_layer"],
                     n_embd=c["n_embd"], n_head=c["n_head"])


def _weights(state_dict: dict, config: GPTConfig | None, dtype, origin: str, fallback: bool = False) -> Weights:
    params = loading.params_from_state_dict(state_dict, dtype)
    config = config or _known_config(params)
    numpy_gpt.check_params(params, config)  # every tensor present, of the config's shape
    return Weights(params, config, origin, fallback)


def _known_config(params: dict) -> GPTConfig:
    """A bare weights file does not say n_head: accept it when its sizes are a known model's."""
    sizes = numpy_gpt.config_from_params(params, n_head=1)
    for known in (*GPT2_FAMILY.values(), TINY):
        if replace(known, n_head=1) == sizes:
            return known
    raise ValueError(f"weights of sizes V={sizes.vocab_size}, T={sizes.block_size}, L={sizes.n_layer}, "
                     f"d={sizes.n_embd} are no GPT-2 size, so n_head is unknown: pass config=GPTConfig(...) "
                     "or put a config.json next to them")


# ----------------------------------------------------------------- command line
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gpt2course.weights",
                                     description="Find GPT-2 small's weights and say where they came from.")
    parser.add_argument("source", nargs="?", help="a save_pretrained folder, a .safetensors file or a .bin")
    parser.add_argument("--download", action="store_true", help=f"fetch {REPO_ID} if it is not cached")
    parser.add_argument("--cache-dir", help="the Hugging Face cache (default: HF_HUB_CACHE)")
    args = parser.parse_args(argv)
    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always", FallbackWarning)
        try:
            w = get_gpt2(args.source, download=args.download or None, cache_dir=args.cache_dir)
        except (ChecksumError, OSError, ValueError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    for note in notes:
        print(f"note: {note.message}")
    print(f"origin: {w.origin}")
    print(f"config: {w.config}")
    print(f"parameters: {numpy_gpt.count_params(w.params):,}")
    return 1 if args.download and w.fallback else 0


if __name__ == "__main__":
    sys.exit(main())

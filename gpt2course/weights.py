"""GPT-2 small's released weights, from wherever they are, as the course's parameter dict.

    w = get_gpt2()          # w.params, w.config, w.origin ("the Hugging Face cache (...)", ...), w.path

Tried in order: a local path you name, the Hugging Face cache (never the network),
then a download of openai-community/gpt2 when you ask for one (download=True or
GPT2COURSE_DOWNLOAD=1). A file from the cache or a download must have GPT-2's sha256.
Without a usable file, one sentence says why (``w.note``, also a FallbackWarning) and the
course's tiny model stands in, so every notebook still runs. From the command line:

    python -m gpt2course.weights [PATH] [--download]
"""
from __future__ import annotations

import argparse
import functools
import hashlib
import os
import sys
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from . import checkpoint, numpy_gpt, state_dicts, tokenizer
from .config import TINY, GPTConfig

REPO_ID = "openai-community/gpt2"
REPO_NAMES = (REPO_ID, "gpt2")  # "gpt2" is the repository's old name; a cache may hold either
WEIGHTS_FILE = "model.safetensors"
# sha256 of openai-community/gpt2's model.safetensors (548,105,171 bytes, commit 607a30d7):
# the LFS object id the Hub lists for it. Set to None to trust the ETag the Hub sent
# instead (huggingface_hub names each cached blob after it).
SHA256 = "248dfc3911869ec493c76e65bf2fcf7f615828b0254c12b473182f0f81d3a707"
DOWNLOAD_ENV = "GPT2COURSE_DOWNLOAD"
FIX = "python -m gpt2course.weights --download"  # deletes a cached file that fails its sha256, fetches it again
# The course's trained tiny model (TINY's sizes, vocabulary unpadded), as gpt2course.train
# wrote it: model.safetensors, config.json (its configs and validation loss) and metrics.jsonl
# (its loss curve). `make tiny-checkpoint` retrains it with the command in its README.md.
# Not under data/: gpt2course/data.py is the corpus module.
TINY_RUN = Path(__file__).parent / "checkpoints" / "tiny"
TINY_CHECKPOINT = TINY_RUN / "model.safetensors"


class ChecksumError(ValueError):
    """A checkpoint whose bytes are not the expected ones: corrupted or changed."""


class FallbackWarning(UserWarning):
    """GPT-2's weights were not found or not usable, so the tiny model stands in."""


@dataclass(frozen=True)
class Weights:
    params: dict[str, np.ndarray] = field(repr=False)  # the course's names, Conv1D (in, out) layout
    config: GPTConfig
    origin: str  # where the numbers came from, in words
    fallback: bool = False  # True: the course's tiny model stands in for GPT-2
    path: Path | None = None  # the file the numbers were read from (None: freshly initialised)
    note: str = ""  # with a fallback: why, in one sentence (the FallbackWarning's text)


def get_gpt2(source=None, *, download: bool | None = None, cache_dir=None,
             config: GPTConfig | None = None, dtype=np.float32) -> Weights:
    """GPT-2 small's parameters and where they came from.

    ``source``: anything ``checkpoint.read`` takes (a Hub snapshot or save_pretrained
    folder, a .safetensors file or a PyTorch .bin); a path that does not load is an
    error. ``config`` gives a bare file's sizes (default: read off its tensors). Without
    a source: the Hugging Face cache (``cache_dir``, default HF_HUB_CACHE), then, if
    ``download`` (default: $GPT2COURSE_DOWNLOAD) and not HF_HUB_OFFLINE, a download.
    A file of the Hub's that fails its sha256 is never used: the fallback says which
    file and how to fetch it again.
    """
    if source is not None:
        found = checkpoint.read(source)
        return _weights(found, config, dtype, f"the local file {found.path}" if found.path else "a state dict")
    found, why = _from_hub(cache_dir, _download_asked() if download is None else download, dtype)
    return found or _tiny(why, dtype)


# ----------------------------------------------------------------- the Hub: its cache, a download
def _download_asked() -> bool:
    return os.environ.get(DOWNLOAD_ENV, "").strip().lower() in ("1", "true", "yes")


def _from_hub(cache_dir, download: bool, dtype) -> tuple[Weights | None, str]:
    try:
        from huggingface_hub import constants, hf_hub_download
    except ImportError:
        return None, "GPT-2's weights were not found: huggingface_hub is not installed"
    cached = _cached(hf_hub_download, cache_dir)
    if cached:
        found, why = _from_cache(*cached, dtype)
        if found or not download or constants.HF_HUB_OFFLINE:
            return found, why
        _delete(cached[1])  # asked to download: the bad copy goes, a good one comes
    elif not download:
        return None, ("GPT-2's weights were not found: they are not in the Hugging Face cache and downloading "
                      f"is off (`{FIX}` fetches them once, as does download=True or {DOWNLOAD_ENV}=1)")
    if constants.HF_HUB_OFFLINE:
        return None, "GPT-2's weights were not found: they are not cached and HF_HUB_OFFLINE=1 forbids downloading them"
    return _download(hf_hub_download, cache_dir, dtype)


def _from_cache(repo: str, path: str, dtype) -> tuple[Weights | None, str]:
    try:
        return _hub_weights(path, dtype, f"the Hugging Face cache ({repo}, {path})"), ""
    except ChecksumError as error:
        return None, f"GPT-2's cached weights were not used: {error}; `{FIX}` deletes it and downloads it again"


def _download(hf_hub_download, cache_dir, dtype) -> tuple[Weights | None, str]:
    try:
        path = hf_hub_download(REPO_ID, WEIGHTS_FILE, cache_dir=cache_dir)
        hf_hub_download(REPO_ID, "config.json", cache_dir=cache_dir)
    except Exception as error:  # the Hub client raises its own, httpx's or OS errors, by version
        return None, (f"GPT-2's weights were not found: downloading {REPO_ID} failed "
                      f"({type(error).__name__}: {str(error)[:200]})")
    for name in tokenizer.HUB_FILES:  # the Hub's copy of the tokenizer, compared by `main` (best effort)
        try:
            hf_hub_download(REPO_ID, name, cache_dir=cache_dir)
        except Exception:  # the weights are what was asked for; main says the tokenizer is missing
            pass
    try:
        return _hub_weights(path, dtype, f"a download of {REPO_ID} ({path})"), ""
    except ChecksumError as error:
        _delete(path)  # so that the cache does not offer it next time
        return None, f"GPT-2's downloaded weights were refused: {error}; it was deleted"


def _cached(hf_hub_download, cache_dir) -> tuple[str, str] | None:
    """(repository name, path) of the first cached copy, under today's name before the old one."""
    for repo in REPO_NAMES:
        try:
            return repo, hf_hub_download(repo, WEIGHTS_FILE, cache_dir=cache_dir, local_files_only=True)
        except FileNotFoundError:  # huggingface_hub's LocalEntryNotFoundError
            continue
    return None


def _hub_weights(path: str, dtype, origin: str) -> Weights:
    _verify(path)
    found = checkpoint.read(path)
    return _weights(found, checkpoint.config_beside(Path(path)), dtype, f"{origin}, sha256 verified")


def _verify(path: str) -> None:
    """Compare with SHA256 or, when that is None, with the blob's name: the ETag the Hub sent."""
    blob = Path(path).resolve()
    expected = SHA256 or blob.name
    stat = blob.stat()
    actual = _sha256(str(blob), stat.st_size, stat.st_mtime_ns)
    if actual != expected:
        raise ChecksumError(f"{path} has sha256 {actual}, but GPT-2's {WEIGHTS_FILE} has {expected}, "
                            "so the file is corrupted or was changed")


@functools.lru_cache(maxsize=8)  # keyed by size and mtime too, so a changed file is hashed again
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _delete(path: str) -> None:
    """A cached file is a snapshot's link to a blob: both go (a dangling link would stay behind)."""
    link = Path(path)
    blob = link.resolve()
    blob.unlink(missing_ok=True)
    link.unlink(missing_ok=True)


# ----------------------------------------------------------------- the fallback
def _tiny(why: str, dtype) -> Weights:
    shown = _shown(TINY_CHECKPOINT)
    if TINY_CHECKPOINT.exists():
        origin = f"the course's trained tiny model ({shown})"
        weights = _weights(checkpoint.read(TINY_CHECKPOINT), TINY, dtype, origin, fallback=True)
    else:
        weights = Weights(numpy_gpt.init_params(TINY, seed=0, dtype=dtype), TINY,
                          f"the course's untrained tiny model (freshly initialised with seed 0, "
                          f"as {shown} does not exist yet)", fallback=True)
    note = f"{why}; using {weights.origin} instead."
    warnings.warn(note, FallbackWarning, stacklevel=3)
    return replace(weights, note=note)


def _shown(path: Path) -> Path:
    """The course's own files by their place in the course (gpt2course/...), not this machine's."""
    try:
        return path.relative_to(Path(__file__).parent.parent)
    except ValueError:
        return path


def _weights(found: checkpoint.Checkpoint, config: GPTConfig | None, dtype, origin: str,
             fallback: bool = False) -> Weights:
    params = state_dicts.params_from_state_dict(found.tensors, dtype)
    config = checkpoint.config_of(found, config)
    numpy_gpt.check_params(params, config)  # every tensor present, of the config's shape
    return Weights(params, config, origin, fallback, found.path)


# ----------------------------------------------------------------- command line
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gpt2course.weights",
                                     description="Find GPT-2 small's weights and say where they came from.")
    parser.add_argument("source", nargs="?", help="a Hub snapshot or save_pretrained folder, a .safetensors or a .bin")
    parser.add_argument("--download", action="store_true",
                        help=f"fetch {REPO_ID} if it is not cached, or if the cached file fails its sha256")
    parser.add_argument("--cache-dir", help="the Hugging Face cache (default: HF_HUB_CACHE)")
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)  # w.note says it
        try:
            w = get_gpt2(args.source, download=args.download or None, cache_dir=args.cache_dir)
        except (OSError, ValueError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    if w.note:
        print(f"note: {w.note}")
    print(f"origin: {w.origin}")
    print(f"config: {w.config}")
    print(f"parameters: {numpy_gpt.count_params(w.params):,}")
    if w.path is not None and not w.fallback:
        beside = Path(w.path).parent
        if all((beside / name).is_file() for name in tokenizer.HUB_FILES):
            print(f"tokenizer: {tokenizer.compare_hub_files(beside)}")
        else:
            print(f"tokenizer: the Hub's {' and '.join(tokenizer.HUB_FILES)} are not beside the weights "
                  "(--download fetches them with the weights); the course ships OpenAI's own")
    return 1 if w.fallback and (args.download or _download_asked()) else 0  # asked for GPT-2, did not get it


if __name__ == "__main__":
    sys.exit(main())

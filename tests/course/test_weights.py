"""gpt2course.weights: the Hub's four layouts, the Hugging Face cache, a download, the fallback, tampering.

Every fixture is a structural copy of the Hub's files (tests/support/hub_fixtures.py), never the
course's own save format. All offline: the "Hub" is a loopback server answering as the
Hub does; downloads run in a subprocess whose HF_ENDPOINT points at it, as a learner's would.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch

from gpt2course import TINY, GPTConfig, weights
from gpt2course import tokenizer as tk
from gpt2course import numpy_gpt as ref
from support.hub_fixtures import (COMMIT, REPO, hf_logits, hub_cache, hub_config, hub_tensors, layouts, sha256_of,
                          write_safetensors)
from support.loopback_hub import loopback_hub

ROOT = Path(__file__).resolve().parents[2]
SMALL = GPTConfig(vocab_size=50, block_size=16, n_layer=2, n_embd=16, n_head=2)  # no GPT-2 size
CACHE = f"models--{REPO.replace('/', '--')}"
LINK = Path(CACHE) / "snapshots" / COMMIT / "model.safetensors"
IDX = np.random.default_rng(0).integers(0, SMALL.vocab_size, size=(2, SMALL.block_size))


@pytest.fixture(scope="module")
def hub_layouts(tmp_path_factory):
    return {layout.name: layout for layout in layouts(tmp_path_factory.mktemp("layouts"), SMALL)}


# ----------------------------------------------------------------- (a) local paths: the Hub's four layouts
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["snapshot folder", "bare .safetensors", ".bin folder", "bare .bin"])
def test_hub_layouts_load_exactly(name, dtype, hub_layouts):
    """The NumPy model on get_gpt2's parameters gives Hugging Face's logits, read from the same file."""
    layout = hub_layouts[name]
    w = weights.get_gpt2(layout.source, config=None if layout.source.is_dir() else SMALL, dtype=dtype)
    assert w.config == SMALL and not w.fallback and w.note == ""
    assert set(w.params) == set(ref.param_shapes(SMALL)) and all(p.dtype == dtype for p in w.params.values())
    on_disk = hub_tensors(SMALL)
    np.testing.assert_array_equal(w.params["h.1.attn.c_attn.weight"], on_disk["h.1.attn.c_attn.weight"])  # (in, out)
    theirs = hf_logits(layout.hf_folder, IDX, torch.float32 if dtype == np.float32 else torch.float64)
    ours = ref.gpt_logits(w.params, IDX, SMALL.n_head)
    assert ours.dtype == dtype
    assert np.abs(ours - theirs).max() <= (1e-6 if dtype == np.float32 else 1e-12) * np.abs(theirs).max()


def test_bare_file_of_unknown_size_asks_for_the_config(hub_layouts):
    with pytest.raises(ValueError, match=r"no GPT-2 size, so n_head is unknown: pass config=GPTConfig"):
        weights.get_gpt2(hub_layouts["bare .safetensors"].source)


def test_bare_file_of_a_known_size_needs_no_config(tmp_path):
    write_safetensors(tmp_path / "tiny.safetensors", hub_tensors(TINY, seed=1))
    w = weights.get_gpt2(tmp_path / "tiny.safetensors")
    assert w.config == TINY and w.path == tmp_path / "tiny.safetensors"
    np.testing.assert_array_equal(w.params["h.0.mlp.c_fc.weight"], hub_tensors(TINY, seed=1)["h.0.mlp.c_fc.weight"])


def test_a_float64_state_dict_gives_the_dtype_asked_for():
    sd = {k: v.astype(np.float64) for k, v in hub_tensors(SMALL).items()}
    w = weights.get_gpt2(sd, config=SMALL)
    assert w.origin == "a state dict" and all(p.dtype == np.float32 for p in w.params.values())


def test_a_folder_written_by_the_course_trainer(tmp_path):
    """The trainer saves the module's parameters: nn.Linear's (out, in) layout, under the checkpoint's
    names, so only the file's metadata tells it from a Hugging Face file (square c_proj included)."""
    from gpt2course.train import TrainConfig, init_model, make_optimizer, save_checkpoint

    model = init_model(TINY, seed=2)
    save_checkpoint(tmp_path, model, make_optimizer(model, TrainConfig()), 7, TrainConfig())
    w = weights.get_gpt2(tmp_path)
    assert w.config == TINY
    x = np.array([[1, 5, 9, 2]])
    with torch.no_grad():
        expected = model(torch.from_numpy(x)).double().numpy()
    np.testing.assert_allclose(ref.gpt_logits(w.params, x, TINY.n_head), expected, rtol=1e-4, atol=1e-5)


def test_missing_path_is_an_error_not_a_fallback(tmp_path):
    with pytest.raises(FileNotFoundError, match="no checkpoint at"):
        weights.get_gpt2(tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError, match="save_pretrained folder"):
        weights.get_gpt2(tmp_path)  # a folder without weights


# ----------------------------------------------------------------- (c) a download from the loopback Hub
def run_weights(endpoint: str, cache: Path, *args: str, sha256: str | None = "official", offline: bool = False,
                extra_env: dict | None = None):
    """`python -m gpt2course.weights ARGS` in a fresh process (HF_ENDPOINT is read at import).

    sha256 replaces weights.SHA256 (None: trust the Hub's ETag); "official" keeps it.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGINGFACE")) and "proxy" not in k.lower()}
    env |= {"HF_ENDPOINT": endpoint, "HF_HUB_CACHE": str(cache), "HF_HOME": str(cache.parent / "hf-home"),
            "HF_HUB_DISABLE_TELEMETRY": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1", "HF_HUB_ETAG_TIMEOUT": "10",
            "HF_HUB_DOWNLOAD_TIMEOUT": "10", "NO_PROXY": "127.0.0.1", "HF_HUB_OFFLINE": "1" if offline else "0"}
    env.pop(weights.DOWNLOAD_ENV, None)
    env |= extra_env or {}
    command = ["-m", "gpt2course.weights"] if sha256 == "official" else [
        "-c", f"import sys; from gpt2course import weights; weights.SHA256 = {sha256!r}; sys.exit(weights.main())"]
    return subprocess.run([sys.executable, *command, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture(scope="module")
def hub_files(tmp_path_factory):
    path = write_safetensors(tmp_path_factory.mktemp("files") / "model.safetensors", hub_tensors(SMALL))
    tokenizer_files = {"vocab.json": json.dumps(tk.load_vocab()).encode(), "merges.txt": tk.read_data_file("vocab.bpe")}
    return {"config.json": hub_config(SMALL), "model.safetensors": path.read_bytes(), **tokenizer_files}


@pytest.fixture(scope="module")
def good_sha(hub_files):
    import hashlib

    return hashlib.sha256(hub_files["model.safetensors"]).hexdigest()


@pytest.fixture(scope="module")
def downloaded(hub_files, good_sha, tmp_path_factory):
    """A Hugging Face cache made by a real hf_hub_download from the loopback Hub, once per module."""
    cache = tmp_path_factory.mktemp("hub") / "cache"
    with loopback_hub(hub_files) as (endpoint, requests):
        result = run_weights(endpoint, cache, "--download", sha256=good_sha)
    return cache, result, requests


def test_download_fetches_and_verifies_the_checkpoint(downloaded):
    cache, result, requests = downloaded
    assert result.returncode == 0, result.stderr
    assert f"origin: a download of {REPO}" in result.stdout and "sha256 verified" in result.stdout
    assert f"config: {SMALL}" in result.stdout and f"parameters: {SMALL.n_params():,}" in result.stdout
    assert "note:" not in result.stdout
    sha = sha256_of(cache / LINK)
    assert sorted(requests) == sorted([  # a HEAD per file (the weights' answered by a redirect), a GET from the CDN
        ("hub", "HEAD", f"/{REPO}/resolve/main/model.safetensors"),
        ("cdn", "GET", f"/repos/{sha[:2]}/{sha}?response-content-disposition=attachment%3B+filename%3Dmodel.safetensors"),
        ("hub", "HEAD", f"/{REPO}/resolve/main/config.json"), ("hub", "GET", f"/{REPO}/resolve/main/config.json"),
        *[(role, method, f"/{REPO}/resolve/main/{name}") for name in ("vocab.json", "merges.txt")
          for role, method in (("hub", "HEAD"), ("hub", "GET"))]])
    # the Hub's copy of the tokenizer comes with the weights and is compared with the shipped files
    assert "tokenizer: the Hub's vocab.json and merges.txt equal OpenAI's encoder.json and vocab.bpe" in result.stdout

def tree(folder: Path) -> dict:
    """Every entry under folder: a link's target, a file's bytes."""
    return {str(p.relative_to(folder)): os.readlink(p) if p.is_symlink() else p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_symlink() or p.is_file()}


def test_the_fixture_cache_is_the_one_huggingface_hub_writes(downloaded, hub_files, tmp_path):
    """hub_fixtures.hub_cache, which the lesson tests use, lays files out as a real download does."""
    made = hub_cache(tmp_path, dict(hub_files)).parent.parent
    real = tree(downloaded[0] / CACHE)
    assert {k: v for k, v in real.items() if not k.startswith(".no_exist")} == tree(made)
    assert os.readlink(downloaded[0] / LINK).startswith("../../blobs/")


def test_official_digest_is_pinned():
    assert weights.SHA256 == "248dfc3911869ec493c76e65bf2fcf7f615828b0254c12b473182f0f81d3a707"


# ----------------------------------------------------------------- (b) the Hugging Face cache
@pytest.fixture
def offline(monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)  # read at import; this is what the client checks


def repo_folder(repo: str) -> str:
    return f"models--{repo.replace('/', '--')}"


@pytest.mark.parametrize("repo", [REPO, "gpt2"])
def test_cache_is_used_without_the_network(repo, downloaded, good_sha, tmp_path, monkeypatch, offline):
    cache = tmp_path / "cache"
    shutil.copytree(downloaded[0] / CACHE, cache / repo_folder(repo), symlinks=True)
    monkeypatch.setattr(weights, "SHA256", good_sha)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback notice
        w = weights.get_gpt2(cache_dir=cache, download=True)  # cached: nothing to download
    assert w.config == SMALL and not w.fallback
    assert w.origin.startswith(f"the Hugging Face cache ({repo}, ") and str(cache) in w.origin
    assert w.path == cache / repo_folder(repo) / "snapshots" / COMMIT / "model.safetensors"


def test_both_names_cached_gives_todays_name(tmp_path, monkeypatch, offline):
    """A cache holding the old name's copy and today's: today's is read, whichever else is there."""
    new = write_safetensors(tmp_path / "new.safetensors", hub_tensors(SMALL, seed=5))
    monkeypatch.setattr(weights, "SHA256", None)  # trust each blob's ETag name: both are intact
    hub_cache(tmp_path / "cache", {"config.json": hub_config(SMALL), "model.safetensors": new}, repo=REPO)
    old = write_safetensors(tmp_path / "old.safetensors", hub_tensors(SMALL, seed=6))
    hub_cache(tmp_path / "cache", {"config.json": hub_config(SMALL), "model.safetensors": old}, repo="gpt2")
    w = weights.get_gpt2(cache_dir=tmp_path / "cache")
    assert w.origin.startswith(f"the Hugging Face cache ({REPO}, ")
    np.testing.assert_array_equal(w.params["wte"], hub_tensors(SMALL, seed=5)["wte.weight"])


def test_cache_from_a_fresh_offline_process(downloaded, good_sha):
    result = run_weights("http://127.0.0.1:9", downloaded[0], offline=True, sha256=good_sha)
    assert result.returncode == 0, result.stderr
    assert "origin: the Hugging Face cache" in result.stdout and "note:" not in result.stdout


# ----------------------------------------------------------------- (d) the fallback
@pytest.fixture
def no_tiny_checkpoint(monkeypatch, tmp_path):
    monkeypatch.setattr(weights, "TINY_CHECKPOINT", tmp_path / "tiny.safetensors")
    return tmp_path / "tiny.safetensors"


def one_sentence(record, w) -> str:
    assert len(record) == 1
    text = str(record[0].message)
    assert text == w.note and text.endswith(" instead.") and ". " not in text and "\n" not in text
    return text


@pytest.mark.parametrize("download", [False, True])
def test_offline_and_nothing_cached_falls_back_to_tiny(download, tmp_path, offline, no_tiny_checkpoint):
    with pytest.warns(weights.FallbackWarning) as record:
        w = weights.get_gpt2(cache_dir=tmp_path / "empty", download=download)
    text = one_sentence(record, w)
    assert ("HF_HUB_OFFLINE=1" if download else weights.DOWNLOAD_ENV) in text
    assert w.fallback and w.config == TINY and "untrained" in w.origin and w.origin in text and w.path is None
    expected = ref.init_params(TINY, seed=0, dtype=np.float32)
    assert all(np.array_equal(w.params[k], expected[k]) for k in expected) and set(w.params) == set(expected)


def test_fallback_prefers_the_trained_tiny_checkpoint(tmp_path, offline, no_tiny_checkpoint):
    write_safetensors(no_tiny_checkpoint, hub_tensors(TINY, seed=3))
    with pytest.warns(weights.FallbackWarning) as record:
        w = weights.get_gpt2(cache_dir=tmp_path / "empty", dtype=np.float64)
    one_sentence(record, w)
    assert w.fallback and w.config == TINY and "trained tiny model" in w.origin and w.path == no_tiny_checkpoint
    np.testing.assert_array_equal(w.params["h.1.attn.c_proj.weight"], hub_tensors(TINY, seed=3)["h.1.attn.c_proj.weight"])


def test_the_course_tiny_model_is_named_by_its_place_in_the_course(tmp_path, offline):
    with pytest.warns(weights.FallbackWarning):
        w = weights.get_gpt2(cache_dir=tmp_path / "empty")
    assert "(gpt2course/checkpoints/tiny/model.safetensors)" in w.origin and str(ROOT) not in w.note


def test_failed_download_falls_back_with_one_note(tmp_path):
    with loopback_hub({}) as (endpoint, requests):  # a Hub that has no such file: 404
        result = run_weights(endpoint, tmp_path / "cache", "--download")
    assert result.returncode == 1, result.stderr  # asked to download, got the tiny model
    notes = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and f"downloading {REPO} failed" in notes[0]
    assert f"config: {TINY}" in result.stdout and 0 < len(requests) <= 6


@pytest.mark.parametrize("args, code", [(("--download",), 1), ((), 0)], ids=["asked-to-download", "plain"])
def test_offline_process_falls_back(args, code, tmp_path):
    """A fallback is a failure only when a download was asked for."""
    result = run_weights("http://127.0.0.1:9", tmp_path / "cache", *args, offline=True)
    assert result.returncode == code, result.stderr
    assert len([line for line in result.stdout.splitlines() if line.startswith("note: ")]) == 1
    assert ("HF_HUB_OFFLINE=1" if args else weights.DOWNLOAD_ENV) in result.stdout
    assert f"config: {TINY}" in result.stdout


def test_command_line_reports_a_local_folder(hub_layouts, capsys):
    folder = hub_layouts[".bin folder"].source
    assert weights.main([str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"origin: the local file {folder / 'pytorch_model.bin'}" in out and f"config: {SMALL}" in out


# ----------------------------------------------------------------- (e) corrupted or changed files
def tampered_cache(downloaded, tmp_path) -> Path:
    cache = tmp_path / "cache"
    shutil.copytree(downloaded[0] / CACHE, cache / CACHE, symlinks=True)
    blob = (cache / LINK).resolve()
    data = bytearray(blob.read_bytes())
    data[-1] ^= 1  # one bit of one weight
    blob.write_bytes(bytes(data))
    return cache


@pytest.mark.parametrize("trust", ["pinned digest", "hub etag"])
def test_tampered_cache_file_falls_back_with_one_sentence(trust, downloaded, good_sha, tmp_path, monkeypatch,
                                                          offline, no_tiny_checkpoint):
    """Never used: the sentence names the file, says why and gives the one command that fixes it."""
    cache = tampered_cache(downloaded, tmp_path)
    monkeypatch.setattr(weights, "SHA256", good_sha if trust == "pinned digest" else None)
    with pytest.warns(weights.FallbackWarning) as record:
        w = weights.get_gpt2(cache_dir=cache, download=True)  # offline: nothing is deleted
    text = one_sentence(record, w)
    assert w.fallback and w.config == TINY
    assert str(cache / LINK) in text and f"but GPT-2's model.safetensors has {good_sha}" in text
    assert "corrupted or was changed" in text and f"`{weights.FIX}` deletes it and downloads it again" in text
    assert (cache / LINK).resolve().exists()


def test_download_replaces_a_bad_cached_file(downloaded, hub_files, good_sha, tmp_path):
    cache = tampered_cache(downloaded, tmp_path)
    with loopback_hub(hub_files) as (endpoint, _):
        result = run_weights(endpoint, cache, "--download", sha256=good_sha)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "note:" not in result.stdout and f"origin: a download of {REPO}" in result.stdout
    assert sha256_of(cache / LINK) == good_sha


def test_download_that_is_not_gpt2_is_refused_and_deleted(hub_files, good_sha, tmp_path):
    cache = tmp_path / "cache"
    with loopback_hub(hub_files) as (endpoint, _):
        result = run_weights(endpoint, cache, "--download")  # the official digest: this file is not GPT-2
    assert result.returncode == 1, result.stderr
    assert f"but GPT-2's model.safetensors has {weights.SHA256}" in result.stdout and "it was deleted" in result.stdout
    assert f"config: {TINY}" in result.stdout
    assert not (cache / CACHE / "blobs" / good_sha).exists()
    assert not os.path.lexists(cache / LINK)  # exists() is False for a dangling link too


def test_download_that_differs_from_its_etag_is_refused(hub_files, tmp_path):
    cache = tmp_path / "cache"
    with loopback_hub(hub_files, linked_etags={"model.safetensors": "f" * 64}) as (endpoint, _):
        result = run_weights(endpoint, cache, sha256=None, extra_env={weights.DOWNLOAD_ENV: "1"})
    assert result.returncode == 1, result.stdout  # asked by the environment, not the flag
    assert "has " + "f" * 64 in result.stdout and "it was deleted" in result.stdout
    assert not (cache / CACHE / "blobs" / ("f" * 64)).exists() and not os.path.lexists(cache / LINK)


def test_a_file_changed_in_place_is_hashed_again(downloaded, good_sha, tmp_path, monkeypatch, offline):
    """The hash is remembered per (size, mtime): a byte flipped in place, same size, is seen."""
    cache = tmp_path / "cache"
    shutil.copytree(downloaded[0] / CACHE, cache / CACHE, symlinks=True)
    monkeypatch.setattr(weights, "SHA256", good_sha)
    assert not weights.get_gpt2(cache_dir=cache).fallback
    blob = (cache / LINK).resolve()
    stat = blob.stat()
    with open(blob, "r+b") as f:  # in place: same inode, same size
        f.seek(stat.st_size - 1)
        last = f.read(1)
        f.seek(stat.st_size - 1)
        f.write(bytes([last[0] ^ 1]))
    os.utime(blob, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    with pytest.raises(weights.ChecksumError, match="corrupted or was changed"):
        weights._verify(str(cache / LINK))
    with pytest.warns(weights.FallbackWarning, match=re.escape(str(cache / LINK))):
        assert weights.get_gpt2(cache_dir=cache).fallback



@pytest.mark.parametrize("value, asked", [("0", False), ("no", False), ("false", False), ("1", True),
                                          (" TRUE ", True), ("yes", True)])
def test_the_download_switch_reads_yes_and_no(value, asked, tmp_path, offline, no_tiny_checkpoint, monkeypatch):
    """GPT2COURSE_DOWNLOAD=0 says no: only 1, true or yes (any case) ask for a download."""
    monkeypatch.setenv(weights.DOWNLOAD_ENV, value)
    with pytest.warns(weights.FallbackWarning):
        w = weights.get_gpt2(cache_dir=tmp_path / "empty")
    assert ("HF_HUB_OFFLINE=1 forbids downloading" in w.note) == asked
    assert ("downloading is off" in w.note) == (not asked)

"""gpt2course.weights: local paths, the Hugging Face cache, a download, the fallback, and tampering.

All offline: the "Hub" is an http.server on 127.0.0.1 serving a tiny random
checkpoint with the headers huggingface_hub reads; downloads run in a
subprocess whose HF_ENDPOINT points at it, as a learner's would.
"""
import contextlib
import copy
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.numpy import save_file as save_numpy
from safetensors.torch import save_file
from transformers import GPT2Config, GPT2LMHeadModel

from gpt2course import TINY, GPTConfig, weights
from gpt2course import numpy_gpt as ref
from gpt2course.loading import module_name

ROOT = Path(__file__).resolve().parent.parent
SMALL = GPTConfig(vocab_size=50, block_size=16, n_layer=2, n_embd=16, n_head=2)  # no GPT-2 size
COMMIT = "0123456789abcdef0123456789abcdef01234567"
MAX_REQUESTS = 50  # a fake Hub answers no more than this, then 503s
CACHE = f"models--{weights.REPO_ID.replace('/', '--')}"


# ----------------------------------------------------------------- a tiny random GPT-2
@pytest.fixture(scope="module")
def model():
    torch.manual_seed(0)
    hf = GPT2LMHeadModel(GPT2Config(vocab_size=SMALL.vocab_size, n_positions=SMALL.block_size,
                                    n_embd=SMALL.n_embd, n_layer=SMALL.n_layer, n_head=SMALL.n_head))
    with torch.no_grad():  # random biases and LayerNorms too, so a mix-up shows
        for p in hf.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    return hf.eval()


@pytest.fixture(scope="module")
def saved(model, tmp_path_factory):
    """The model as save_pretrained writes it: config.json + model.safetensors."""
    folder = tmp_path_factory.mktemp("saved")
    model.save_pretrained(folder)
    return folder


def assert_reproduces(w, model, dtype=np.float32):
    """Same tensors, and the NumPy model's logits are transformers' (an independent implementation)."""
    hf = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    assert w.config == SMALL and not w.fallback
    assert set(w.params) == set(ref.param_shapes(SMALL))
    assert all(p.dtype == dtype for p in w.params.values())
    np.testing.assert_array_equal(w.params["wte"], hf["transformer.wte.weight"].astype(dtype))
    np.testing.assert_array_equal(w.params["h.1.attn.c_attn.weight"],  # Conv1D (in, out), not transposed
                                  hf["transformer.h.1.attn.c_attn.weight"].astype(dtype))
    idx = np.random.default_rng(0).integers(0, SMALL.vocab_size, size=(2, SMALL.block_size))
    with torch.no_grad():
        expected = copy.deepcopy(model).double()(torch.from_numpy(idx)).logits.numpy()
    np.testing.assert_allclose(ref.gpt_logits(w.params, idx, SMALL.n_head), expected,
                               atol=1e-4 if dtype == np.float32 else 1e-10)


# ----------------------------------------------------------------- (a) local paths
def test_save_pretrained_folder_loads_exactly(saved, model):
    w = weights.get_gpt2(saved, dtype=np.float64)
    assert_reproduces(w, model, np.float64)
    assert str(saved / "model.safetensors") in w.origin


def test_default_dtype_is_float32(saved, model):
    assert_reproduces(weights.get_gpt2(saved), model, np.float32)


def tensors(model):
    """The state dict with the tied head cloned apart (safetensors refuses shared memory)."""
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


@pytest.mark.parametrize("kind", ["safetensors", "bin", "bin-folder"])
def test_single_files_load_exactly(kind, model, saved, tmp_path):
    if kind == "safetensors":
        source = tmp_path / "gpt.safetensors"
        save_file(tensors(model), source)
    elif kind == "bin":
        source = tmp_path / "gpt.bin"
        torch.save(tensors(model), source)
    else:  # a folder written by save_pretrained(safe_serialization=False)
        source = tmp_path
        torch.save(tensors(model), source / "pytorch_model.bin")
        shutil.copy(saved / "config.json", source)
    w = weights.get_gpt2(source, config=None if kind == "bin-folder" else SMALL)
    assert_reproduces(w, model)


def test_bare_file_of_unknown_size_asks_for_the_config(model, tmp_path):
    save_file(tensors(model), tmp_path / "gpt.safetensors")
    with pytest.raises(ValueError, match=r"pass config=GPTConfig"):
        weights.get_gpt2(tmp_path / "gpt.safetensors")


def test_bare_file_of_a_known_size_needs_no_config(tmp_path):
    params = ref.init_params(TINY, seed=1, dtype=np.float32)
    save_numpy({module_name(k): v for k, v in params.items()}, tmp_path / "tiny.safetensors")
    w = weights.get_gpt2(tmp_path / "tiny.safetensors")
    assert w.config == TINY
    np.testing.assert_array_equal(w.params["h.0.mlp.c_fc.weight"], params["h.0.mlp.c_fc.weight"])


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


# ----------------------------------------------------------------- a fake Hub on 127.0.0.1
def hub_file(data: bytes, lfs: bool, sha256: str | None = None) -> dict:
    """Body and headers as the Hub sends them: ETag is the git blob id, or for LFS files the sha256."""
    git_id = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
    headers = {"ETag": f'"{git_id}"', "X-Repo-Commit": COMMIT, "Content-Length": str(len(data))}
    if lfs:
        sha = sha256 or hashlib.sha256(data).hexdigest()
        headers |= {"ETag": f'"{sha}"', "X-Linked-Etag": f'"{sha}"', "X-Linked-Size": str(len(data))}
    return {"body": data, "headers": headers}


class FakeHub(http.server.BaseHTTPRequestHandler):
    timeout = 10  # seconds a connection may sit idle

    def do_HEAD(self):
        self.answer(body=False)

    def do_GET(self):
        self.answer(body=True)

    def answer(self, body: bool):
        requests = self.server.requests
        requests.append((self.command, self.path))
        match = re.fullmatch(r"/([\w.-]+/[\w.-]+)/resolve/([\w.-]+)/([\w.-]+)", self.path)
        entry = match and match[1] == weights.REPO_ID and self.server.files.get(match[3])
        if len(requests) > MAX_REQUESTS or not entry:
            self.send_response(503 if entry else 404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        for key, value in entry["headers"].items():
            self.send_header(key, value)
        self.end_headers()
        if body:
            self.wfile.write(entry["body"])

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def fake_hub(files: dict):
    """Serve files on 127.0.0.1; yields (endpoint URL, the requests it saw), then stops the server."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeHub)
    server.daemon_threads = True
    server.files, server.requests = files, []
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.requests
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def checkpoint_files(saved: Path, weights_sha256: str | None = None) -> dict:
    return {"config.json": hub_file((saved / "config.json").read_bytes(), lfs=False),
            "model.safetensors": hub_file((saved / "model.safetensors").read_bytes(), lfs=True, sha256=weights_sha256)}


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
def downloaded(saved, tmp_path_factory):
    """A Hugging Face cache made by a real hf_hub_download from the fake Hub, once per module."""
    cache = tmp_path_factory.mktemp("hub") / "cache"
    with fake_hub(checkpoint_files(saved)) as (endpoint, requests):
        result = run_weights(endpoint, cache, "--download", sha256=sha256_of(saved / "model.safetensors"))
    return cache, result, requests


# ----------------------------------------------------------------- (c) the download
def test_download_fetches_and_verifies_the_checkpoint(downloaded, saved):
    cache, result, requests = downloaded
    assert result.returncode == 0, result.stderr
    assert f"origin: a download of {weights.REPO_ID}" in result.stdout and "sha256 verified" in result.stdout
    assert f"config: {SMALL}" in result.stdout
    assert f"parameters: {SMALL.n_params():,}" in result.stdout
    assert "note:" not in result.stdout
    for name in ("model.safetensors", "config.json"):
        assert ("GET", f"/{weights.REPO_ID}/resolve/main/{name}") in requests
    assert len(requests) <= 6  # a HEAD and a GET per file, no more
    assert (cache / CACHE / "blobs" / sha256_of(saved / "model.safetensors")).is_file()


def test_official_digest_is_pinned():
    assert re.fullmatch(r"[0-9a-f]{64}", weights.SHA256)


# ----------------------------------------------------------------- (b) the Hugging Face cache
@pytest.fixture
def offline(monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)  # read at import; this is what the client checks


@pytest.mark.parametrize("repo", [weights.REPO_ID, "gpt2"])
def test_cache_is_used_without_the_network(repo, downloaded, saved, model, tmp_path, monkeypatch, offline):
    cache = tmp_path / "cache"
    shutil.copytree(downloaded[0] / CACHE, cache / f"models--{repo.replace('/', '--')}", symlinks=True)
    monkeypatch.setattr(weights, "SHA256", sha256_of(saved / "model.safetensors"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback notice
        w = weights.get_gpt2(cache_dir=cache, download=True)  # cached: nothing to download
    assert_reproduces(w, model)
    assert w.origin.startswith(f"the Hugging Face cache ({repo}, ") and str(cache) in w.origin


def test_cache_from_a_fresh_offline_process(downloaded, saved):
    cache, _, _ = downloaded
    result = run_weights("http://127.0.0.1:9", cache, offline=True, sha256=sha256_of(saved / "model.safetensors"))
    assert result.returncode == 0, result.stderr
    assert "origin: the Hugging Face cache" in result.stdout and "note:" not in result.stdout


# ----------------------------------------------------------------- (d) the fallback
@pytest.fixture
def no_tiny_checkpoint(monkeypatch, tmp_path):
    monkeypatch.setattr(weights, "TINY_CHECKPOINT", tmp_path / "tiny.safetensors")
    return tmp_path / "tiny.safetensors"


def one_sentence(record) -> str:
    assert len(record) == 1
    text = str(record[0].message)
    assert text.endswith(" instead.") and ". " not in text and "\n" not in text
    return text


@pytest.mark.parametrize("download", [False, True])
def test_offline_and_nothing_cached_falls_back_to_tiny(download, tmp_path, offline, no_tiny_checkpoint):
    with pytest.warns(weights.FallbackWarning) as record:
        w = weights.get_gpt2(cache_dir=tmp_path / "empty", download=download)
    text = one_sentence(record)
    assert ("HF_HUB_OFFLINE=1" if download else weights.DOWNLOAD_ENV) in text
    assert w.fallback and w.config == TINY and "untrained" in w.origin and w.origin in text
    expected = ref.init_params(TINY, seed=0, dtype=np.float32)
    assert all(np.array_equal(w.params[k], expected[k]) for k in expected) and set(w.params) == set(expected)


def test_fallback_prefers_the_trained_tiny_checkpoint(tmp_path, offline, no_tiny_checkpoint):
    trained = ref.init_params(TINY, seed=3, dtype=np.float32)
    save_numpy(trained, no_tiny_checkpoint)  # the course's own names work too
    with pytest.warns(weights.FallbackWarning) as record:
        w = weights.get_gpt2(cache_dir=tmp_path / "empty", dtype=np.float64)
    one_sentence(record)
    assert w.fallback and w.config == TINY and "trained tiny model" in w.origin
    np.testing.assert_array_equal(w.params["h.1.attn.c_proj.weight"], trained["h.1.attn.c_proj.weight"])


def test_failed_download_falls_back_with_one_note(tmp_path):
    with fake_hub({}) as (endpoint, requests):  # a Hub that knows no such repository: 404
        result = run_weights(endpoint, tmp_path / "cache", "--download")
    assert result.returncode == 1, result.stderr  # asked to download, got the tiny model
    notes = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and f"downloading {weights.REPO_ID} failed" in notes[0]
    assert f"config: {TINY}" in result.stdout and 0 < len(requests) <= 6


def test_offline_process_falls_back(tmp_path):
    result = run_weights("http://127.0.0.1:9", tmp_path / "cache", "--download", offline=True)
    assert result.returncode == 1 and "HF_HUB_OFFLINE=1" in result.stdout and f"config: {TINY}" in result.stdout


def test_command_line_reports_a_local_folder(saved, capsys):
    assert weights.main([str(saved)]) == 0
    out = capsys.readouterr().out
    assert f"origin: the local file {saved / 'model.safetensors'}" in out and f"config: {SMALL}" in out


# ----------------------------------------------------------------- (e) corrupted or changed files
@pytest.mark.parametrize("trust", ["pinned digest", "hub etag"])
def test_tampered_cache_file_is_refused(trust, downloaded, saved, tmp_path, monkeypatch, offline):
    cache = tmp_path / "cache"
    shutil.copytree(downloaded[0] / CACHE, cache / CACHE, symlinks=True)
    blob = (cache / CACHE / "snapshots" / COMMIT / "model.safetensors").resolve()
    data = bytearray(blob.read_bytes())
    data[-1] ^= 1  # one bit of one weight
    blob.write_bytes(bytes(data))
    monkeypatch.setattr(weights, "SHA256", sha256_of(saved / "model.safetensors") if trust == "pinned digest" else None)
    with pytest.raises(weights.ChecksumError, match=r"corrupted or was changed, so it is not used"):
        weights.get_gpt2(cache_dir=cache)


def test_download_that_is_not_gpt2_is_refused_and_deleted(saved, tmp_path):
    cache = tmp_path / "cache"
    with fake_hub(checkpoint_files(saved)) as (endpoint, _):
        result = run_weights(endpoint, cache, "--download")  # the official digest: our tiny file is not GPT-2
    assert result.returncode == 2
    assert f"but GPT-2's model.safetensors has {weights.SHA256}" in result.stderr
    assert "origin:" not in result.stdout
    assert not list((cache / CACHE / "blobs").glob(sha256_of(saved / "model.safetensors")))
    assert not (cache / CACHE / "snapshots" / COMMIT / "model.safetensors").exists()


def test_download_that_differs_from_its_etag_is_refused(saved, tmp_path):
    cache = tmp_path / "cache"
    files = checkpoint_files(saved, weights_sha256="f" * 64)  # the Hub says one digest, sends other bytes
    with fake_hub(files) as (endpoint, _):
        result = run_weights(endpoint, cache, sha256=None, extra_env={weights.DOWNLOAD_ENV: "1"})
    assert result.returncode == 2, result.stdout
    assert "has " + "f" * 64 in result.stderr
    assert not (cache / CACHE / "blobs" / ("f" * 64)).exists()

"""gpt2course/checkpoint.py: one reader of every form a GPT-2 checkpoint comes in, for both models."""
import json

import numpy as np
import pytest
import torch

from gpt2course import TINY, checkpoint
from gpt2course import numpy_gpt as ref
from gpt2course.config import GPT2_FAMILY
from support.hub_fixtures import HUB_CONFIG, hub_cache, hub_config, hub_tensors, write_bin, write_safetensors


@pytest.mark.parametrize("config", [*GPT2_FAMILY.values(), TINY], ids=[*GPT2_FAMILY, "tiny"])
def test_known_sizes_need_no_config(config):
    """The Hub's names, shapes alone (zero-stride arrays: no memory): every GPT-2 size and the tiny one."""
    def hub_name(k):
        return f"{k}.weight" if k in ("wte", "wpe") else k

    shapes = {hub_name(k): np.broadcast_to(np.float32(0), s) for k, s in ref.param_shapes(config).items()}
    assert checkpoint.known_config(shapes | {"h.0.attn.bias": np.zeros((1, 1, 2, 2))}) == config


def test_the_hubs_config_json_is_read(tmp_path):
    (tmp_path / "config.json").write_bytes(hub_config())
    assert checkpoint.read_config(tmp_path / "config.json") == GPT2_FAMILY["gpt2"]


@pytest.mark.parametrize("change, words", [
    ({"activation_function": "relu"}, "activation_function is 'relu'"),
    ({"activation_function": "gelu"}, "activation_function is 'gelu'"),  # exact GELU: not GPT-2's tanh one
    ({"layer_norm_epsilon": 1e-6}, "layer_norm_epsilon is 1e-06"),
    ({"n_inner": 1000}, "n_inner is 1000"),
    ({"n_head": None}, "lacks ['n_head']"),
], ids=["activation", "exact-gelu", "epsilon", "n_inner", "no-n_head"])
def test_a_config_json_that_is_not_gpt2_is_refused(change, words, tmp_path):
    c = {k: v for k, v in (HUB_CONFIG | change).items() if v is not None}
    (tmp_path / "config.json").write_text(json.dumps(c))
    with pytest.raises(ValueError) as info:
        checkpoint.read_config(tmp_path / "config.json")
    assert words in str(info.value) and "config.json" in str(info.value)


def test_the_block_size_is_n_positions_whatever_n_ctx_says(tmp_path):
    """n_positions is the number of position rows (wpe); n_ctx is an old field GPT2Config still
    carries and no longer reads. Only a config without n_positions takes its block size from n_ctx."""
    c = HUB_CONFIG | {"n_positions": 1024, "n_ctx": 2048}
    (tmp_path / "config.json").write_text(json.dumps(c))
    assert checkpoint.read_config(tmp_path / "config.json").block_size == 1024
    (tmp_path / "config.json").write_text(json.dumps({k: v for k, v in c.items() if k != "n_positions"}))
    assert checkpoint.read_config(tmp_path / "config.json").block_size == 2048


def test_files_are_told_apart_by_their_bytes(tmp_path):
    """The Hub's blobs have no suffix; a .bin may well be named .pt."""
    tensors = hub_tensors(TINY)
    snapshot = hub_cache(tmp_path / "cache", {"model.safetensors": write_safetensors(tmp_path / "a", tensors)})
    write_bin(tmp_path / "model.pt", tensors)
    write_bin(tmp_path / "zipped.bin", tensors, zipped=True)
    for path in ((snapshot / "model.safetensors").resolve(), tmp_path / "model.pt", tmp_path / "zipped.bin"):
        found = checkpoint.read(path)
        assert found.path == path and found.config is None
        np.testing.assert_array_equal(np.asarray(found.tensors["h.1.mlp.c_proj.weight"]), tensors["h.1.mlp.c_proj.weight"])
    assert "h.0.attn.masked_bias" in checkpoint.read(tmp_path / "model.pt").tensors


def test_a_file_that_is_no_checkpoint_gets_a_clear_error(tmp_path):
    (tmp_path / "notes.bin").write_text("not a checkpoint")
    with pytest.raises(ValueError, match=r"neither a safetensors file nor a PyTorch state dict"):
        checkpoint.read(tmp_path / "notes.bin")
    torch.save([torch.zeros(2)], tmp_path / "list.bin")
    with pytest.raises(ValueError, match=r"holds a list, not a state dict"):
        checkpoint.read(tmp_path / "list.bin")


def test_a_folder_prefers_safetensors_and_reads_its_config(tmp_path):
    tensors = hub_tensors(TINY)
    write_safetensors(tmp_path / "model.safetensors", tensors)
    write_bin(tmp_path / "pytorch_model.bin", {k: v + 1 for k, v in tensors.items()})
    (tmp_path / "config.json").write_bytes(hub_config(TINY))
    found = checkpoint.read(tmp_path)
    assert found.path == tmp_path / "model.safetensors" and found.config == TINY
    np.testing.assert_array_equal(found.tensors["wte.weight"], tensors["wte.weight"])


def test_module_names_add_the_prefix_once():
    named = checkpoint.module_names({"wte.weight": 1, "transformer.wpe.weight": 2, "lm_head.weight": 3,
                                     "h.0.attn.bias": 4})
    assert named == {"transformer.wte.weight": 1, "transformer.wpe.weight": 2, "lm_head.weight": 3,
                     "transformer.h.0.attn.bias": 4}
    with pytest.raises(ValueError, match="'wte.weight' both with and without"):
        checkpoint.module_names({"wte.weight": 1, "transformer.wte.weight": 1})


class _RunsCode:
    """What a hostile .bin may carry: unpickling it calls a function (os.mkdir here; any would do)."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        import os

        return (os.mkdir, (self.marker,))


def test_a_pytorch_file_that_would_run_code_is_refused_unrun(tmp_path):
    """torch.load with weights_only: a pickle that calls anything is an error before it runs."""
    marker = tmp_path / "ran"
    torch.save({"wte.weight": torch.zeros(2, 2), "x": _RunsCode(str(marker))}, tmp_path / "evil.bin")
    with pytest.raises(ValueError, match="neither a safetensors file nor a PyTorch state dict"):
        checkpoint.read(tmp_path / "evil.bin")
    assert not marker.exists()


def test_the_config_asked_for_wins_over_the_folder_s(tmp_path):
    import dataclasses

    write_safetensors(tmp_path / "model.safetensors", hub_tensors(TINY))
    (tmp_path / "config.json").write_bytes(hub_config(TINY))
    found = checkpoint.read(tmp_path)
    asked = dataclasses.replace(TINY, n_head=1 if TINY.n_head != 1 else 2)
    assert checkpoint.config_of(found) == TINY and checkpoint.config_of(found, asked) == asked

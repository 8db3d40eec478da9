"""The NumPy reference against Hugging Face transformers, an independent implementation."""
import math

import numpy as np
import pytest
import torch
from torch import nn

from gpt2course import GPT2_FAMILY, GPT2_SMALL, TINY, GPTConfig
from gpt2course import numpy_gpt as ref
from gpt2course.state_dicts import params_from_state_dict

CONFIGS = [TINY, GPTConfig(vocab_size=97, block_size=24, n_layer=3, n_embd=48, n_head=6)]


def hf_config(config: GPTConfig, **extra) -> "GPT2Config":
    from transformers import GPT2Config  # here: every worker collects this module, few run it

    return GPT2Config(vocab_size=config.vocab_size, n_positions=config.block_size, n_embd=config.n_embd,
                      n_layer=config.n_layer, n_head=config.n_head, **extra)


def hf_model(config: GPTConfig, seed: int) -> "GPT2LMHeadModel":
    """A randomly initialised HF GPT-2 whose every tensor (biases, LayerNorms too) is random."""
    from transformers import GPT2LMHeadModel

    torch.manual_seed(seed)
    hf = GPT2LMHeadModel(hf_config(
        config, activation_function="gelu_new",
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, layer_norm_epsilon=1e-5,
    )).double().eval()
    with torch.no_grad():
        for name, p in hf.named_parameters():
            p.copy_(torch.randn_like(p) * (0.5 if "ln" in name else 0.2) + (1.0 if name.endswith("ln_1.weight") else 0.0))
    return hf


@pytest.mark.parametrize("config", CONFIGS, ids=["tiny", "odd"])
def test_logits_match_transformers_to_1e12(config):
    hf = hf_model(config, seed=0)
    params = params_from_state_dict(hf.state_dict())
    idx = np.random.default_rng(0).integers(0, config.vocab_size, size=(3, config.block_size))
    ours = ref.gpt_logits(params, idx, config.n_head)
    with torch.no_grad():
        theirs = hf(torch.from_numpy(idx)).logits.numpy()
    assert ours.shape == theirs.shape == (3, config.block_size, config.vocab_size)
    assert np.abs(ours - theirs).max() <= 1e-12 * max(1.0, np.abs(theirs).max())


def test_float32_stays_float32():
    params = ref.init_params(TINY, seed=1, dtype=np.float32)
    idx = np.arange(10)[None]
    assert ref.gpt_logits(params, idx, TINY.n_head).dtype == np.float32
    x = np.ones((2, 3, 8), np.float32)
    assert ref.layer_norm(x, np.ones(8, np.float32), np.zeros(8, np.float32)).dtype == np.float32
    assert ref.gelu_tanh(x).dtype == np.float32


def test_float32_close_to_float64():
    p64 = ref.init_params(TINY, seed=2)
    p32 = {k: v.astype(np.float32) for k, v in p64.items()}
    idx = np.arange(20)[None] % TINY.vocab_size
    a, b = ref.gpt_logits(p64, idx, 4), ref.gpt_logits(p32, idx, 4)
    assert np.abs(a - b).max() < 1e-4


def test_causality_bit_for_bit():
    params = ref.init_params(TINY, seed=3)
    idx = np.random.default_rng(1).integers(0, 56, size=(1, 30))
    changed = idx.copy()
    changed[0, 20] = (idx[0, 20] + 1) % 56
    a, b = ref.gpt_logits(params, idx, 4), ref.gpt_logits(params, changed, 4)
    assert np.array_equal(a[:, :20], b[:, :20])
    assert not np.array_equal(a[:, 20:], b[:, 20:])


def test_loss_at_init_close_to_ln_v():
    params = ref.init_params(TINY, seed=4)
    idx = np.random.default_rng(2).integers(0, 56, size=(4, 64))
    loss = ref.cross_entropy(ref.gpt_logits(params, idx[:, :-1], 4), idx[:, 1:])
    assert abs(loss - math.log(56)) < 0.05


def test_init_statistics():
    params = ref.init_params(GPTConfig(56, 64, 4, 128, 4), seed=0)
    assert abs(params["wte"].std() - 0.02) < 0.001
    assert abs(params["h.0.attn.c_proj.weight"].std() - 0.02 / math.sqrt(8)) < 0.0005
    assert abs(params["h.3.mlp.c_proj.weight"].std() - 0.02 / math.sqrt(8)) < 0.0005
    assert np.all(params["h.1.ln_2.weight"] == 1) and np.all(params["h.1.mlp.c_fc.bias"] == 0)
    assert "lm_head" not in params and "lm_head.weight" not in params


@pytest.mark.parametrize("config", [TINY, *GPT2_FAMILY.values()], ids=["tiny", *GPT2_FAMILY])
def test_parameter_count_matches_torch_model(config):
    """The closed-form count against HF's own model, built on the meta device (no memory)."""
    from transformers import GPT2LMHeadModel

    with torch.device("meta"):
        hf = GPT2LMHeadModel(hf_config(config))
    assert sum(p.numel() for p in hf.parameters()) == config.n_params()


class TorchBlock(nn.Module):
    """GPT-2's block as nanoGPT builds it; bias=False drops every bias, LayerNorms' too."""

    def __init__(self, d: int, bias: bool):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d, bias=bias)
        self.attn = nn.ModuleDict({"c_attn": nn.Linear(d, 3 * d, bias=bias), "c_proj": nn.Linear(d, d, bias=bias)})
        self.ln_2 = nn.LayerNorm(d, bias=bias)
        self.mlp = nn.ModuleDict({"c_fc": nn.Linear(d, 4 * d, bias=bias), "c_proj": nn.Linear(4 * d, d, bias=bias)})


def torch_gpt(config: GPTConfig, bias: bool, tied: bool) -> nn.Module:
    """GPT-2's module tree on the meta device (shapes, no memory); the head never has a bias."""
    d = config.n_embd
    with torch.device("meta"):
        model = nn.ModuleDict({
            "transformer": nn.ModuleDict({
                "wte": nn.Embedding(config.vocab_size, d), "wpe": nn.Embedding(config.block_size, d),
                "h": nn.ModuleList([TorchBlock(d, bias) for _ in range(config.n_layer)]),
                "ln_f": nn.LayerNorm(d, bias=bias)}),
            "lm_head": nn.Linear(d, config.vocab_size, bias=False)})
    if tied:
        model["lm_head"].weight = model["transformer"]["wte"].weight
    return model


@pytest.mark.parametrize("tied", [True, False], ids=["tied", "untied"])
@pytest.mark.parametrize("biases", [True, False], ids=["biases", "bias-free"])
@pytest.mark.parametrize("config", [GPT2_SMALL, TINY, CONFIGS[1]], ids=["gpt2", "tiny", "odd"])
def test_parameter_count_matches_nanogpt_style_module(config, biases, tied):
    """parameters() yields the tied matrix once, so its sum is the model's true count."""
    model = torch_gpt(config, bias=biases, tied=tied)
    with_bias = {type(m).__name__ for m in model.modules() if getattr(m, "bias", None) is not None}
    assert with_bias == ({"Linear", "LayerNorm"} if biases else set())
    assert sum(p.numel() for p in model.parameters()) == config.n_params(tied=tied, biases=biases)


def test_tiny_parameter_count_matches_dict():
    assert ref.count_params(ref.init_params(TINY)) == TINY.n_params()
    assert sum(math.prod(s) for s in ref.param_shapes(GPT2_SMALL).values()) == GPT2_SMALL.n_params()


@pytest.mark.parametrize("idx, error, words", [
    (np.zeros(65, dtype=np.int64), ValueError, ["65", "64"]),
    (np.array([[0, 56]]), ValueError, ["56"]),
    (np.array([[-1, 3]]), ValueError, ["-1"]),
    (np.zeros((2, 2, 2), dtype=np.int64), ValueError, ["(2, 2, 2)"]),
    (np.zeros(3, dtype=np.float64), TypeError, ["integer"]),
    ([1, 2, 3], TypeError, ["NumPy array"]),
    (np.zeros((1, 0), dtype=np.int64), ValueError, ["empty"]),
])
def test_bad_token_ids_get_clear_errors(idx, error, words):
    params = ref.init_params(TINY)
    with pytest.raises(error) as info:
        ref.gpt_logits(params, idx, TINY.n_head)
    assert all(w in str(info.value) for w in words), str(info.value)


def test_bad_config_gets_clear_error():
    with pytest.raises(ValueError, match="not divisible"):
        GPTConfig(56, 64, 2, 64, 5)
    with pytest.raises(ValueError, match="positive int"):
        GPTConfig(56, 0, 2, 64, 4)


def test_mixed_dtypes_refused():
    params = ref.init_params(TINY)
    params["wpe"] = params["wpe"].astype(np.float32)
    with pytest.raises(TypeError, match="one floating dtype"):
        ref.gpt_logits(params, np.zeros((1, 4), dtype=np.int64), TINY.n_head)


def test_loader_skips_mask_buffers_and_refuses_untied_head():
    hf = hf_model(TINY, seed=1)
    sd = dict(hf.state_dict())
    sd["transformer.h.0.attn.bias"] = torch.ones(1, 1, 64, 64)  # as in older checkpoints
    sd["transformer.h.0.attn.masked_bias"] = torch.tensor(-1e4)
    params = params_from_state_dict(sd)
    assert set(params) == set(ref.param_shapes(TINY))
    sd["lm_head.weight"] = sd["lm_head.weight"] + 1
    with pytest.raises(ValueError, match="not tied"):
        params_from_state_dict(sd)

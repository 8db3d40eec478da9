"""gpt2course/torch_gpt.py: the PyTorch model against the NumPy reference and Hugging Face."""
import numpy as np
import pytest
import torch

from gpt2course import GPT2_SMALL, TINY, GPTConfig
from gpt2course import numpy_gpt as ref
from gpt2course.checkpoint import module_names
from gpt2course.state_dicts import module_arrays_from_state_dict, params_from_state_dict
from gpt2course.torch_gpt import GPT
from support.hub_fixtures import hf_logits, hub_tensors, layouts

CONFIGS = [pytest.param(TINY, id="tiny"),
           pytest.param(GPTConfig(vocab_size=97, block_size=24, n_layer=3, n_embd=48, n_head=6), id="odd")]


def hf_model(config: GPTConfig, seed: int) -> "GPT2LMHeadModel":
    """A random HF GPT-2 in float64 whose every tensor (biases, LayerNorms too) is random."""
    from transformers import GPT2Config, GPT2LMHeadModel  # here: every worker collects this module, few run it

    torch.manual_seed(seed)
    hf = GPT2LMHeadModel(GPT2Config(
        vocab_size=config.vocab_size, n_positions=config.block_size, n_embd=config.n_embd,
        n_layer=config.n_layer, n_head=config.n_head, bos_token_id=0, eos_token_id=0,
        activation_function="gelu_new", layer_norm_epsilon=1e-5,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)).double().eval()
    with torch.no_grad():
        for name, p in hf.named_parameters():
            p.normal_(1.0 if name.endswith("ln_1.weight") else 0.0, 0.5 if "ln" in name else 0.2)
    return hf


@pytest.mark.parametrize("config", CONFIGS)
def test_numpy_torch_and_transformers_agree_to_1e12(config):
    hf = hf_model(config, seed=0)
    params = params_from_state_dict(hf.state_dict())
    idx = np.random.default_rng(0).integers(0, config.vocab_size, size=(3, config.block_size))
    ours = GPT.from_pretrained(hf.state_dict(), config=config, dtype=torch.float64).eval()
    from_numpy = GPT.from_numpy(params, config.n_head).eval()
    with torch.no_grad():
        theirs = hf(torch.from_numpy(idx)).logits.numpy()
        torch_logits = ours(torch.from_numpy(idx)).numpy()
        numpy_route = from_numpy(torch.from_numpy(idx)).numpy()
    numpy_logits = ref.gpt_logits(params, idx, config.n_head)
    for logits in (torch_logits, numpy_route, numpy_logits):
        assert logits.dtype == np.float64 and np.abs(logits - theirs).max() <= 1e-12


SMALL = GPTConfig(vocab_size=50, block_size=16, n_layer=2, n_embd=16, n_head=2)  # no GPT-2 size


@pytest.fixture(scope="module")
def hub_layouts(tmp_path_factory):
    return {layout.name: layout for layout in layouts(tmp_path_factory.mktemp("layouts"), SMALL)}


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name", ["snapshot folder", "bare .safetensors", ".bin folder", "bare .bin"])
def test_hub_layouts_load_exactly(name, dtype, hub_layouts):
    """The Hub's files as they are: keys without transformer., mask buffers, no lm_head.weight."""
    layout = hub_layouts[name]
    ours = GPT.from_pretrained(layout.source, config=None if layout.source.is_dir() else SMALL, dtype=dtype).eval()
    assert ours.config == SMALL and ours.lm_head.weight is ours.transformer.wte.weight
    assert all(p.dtype == dtype for p in ours.parameters())
    idx = np.random.default_rng(1).integers(0, SMALL.vocab_size, size=(2, SMALL.block_size))
    theirs = hf_logits(layout.hf_folder, idx, dtype)
    with torch.no_grad():
        logits = ours(torch.from_numpy(idx)).numpy()
    assert np.abs(logits - theirs).max() <= (1e-6 if dtype == torch.float32 else 1e-12) * np.abs(theirs).max()


def test_greedy_tokens_are_hugging_faces(hub_layouts):
    from transformers import GPT2LMHeadModel

    folder = hub_layouts["snapshot folder"].source
    ours = GPT.from_pretrained(folder, dtype=torch.float64).eval()
    hf = GPT2LMHeadModel.from_pretrained(folder, local_files_only=True).double().eval()
    idx = torch.tensor([[3, 1, 4]])
    assert torch.equal(ours.generate(idx, 8), hf.generate(idx, max_new_tokens=8, do_sample=False, pad_token_id=0))


def test_generate_goes_on_past_the_block_size_reading_the_last_block():
    """A prompt as long as the block, then more tokens: each step reads the last block_size
    tokens (the positions the model has rows for), the NumPy reference on that window."""
    config = GPTConfig(vocab_size=11, block_size=4, n_layer=1, n_embd=8, n_head=2)
    params = ref.init_params(config, seed=3)
    tokens = [1, 5, 2, 7]
    out = GPT.from_numpy(params, config.n_head).eval().generate(torch.tensor([tokens]), 3)
    for _ in range(3):
        window = np.array([tokens[-config.block_size:]])
        tokens.append(int(ref.gpt_logits(params, window, config.n_head)[0, -1].argmax()))
    assert out.tolist() == [tokens]


def test_dtype_is_the_checkpoints_unless_asked(hub_layouts):
    folder = hub_layouts["snapshot folder"].source
    assert GPT.from_pretrained(folder).transformer.wte.weight.dtype == torch.float32  # the file's
    sd64 = {k: v.astype(np.float64) for k, v in hub_tensors(SMALL).items()}
    assert GPT.from_pretrained(sd64, config=SMALL).transformer.h[0].mlp.c_fc.weight.dtype == torch.float64
    assert GPT.from_pretrained(sd64, config=SMALL, dtype=torch.float32).transformer.wpe.weight.dtype == torch.float32


def _hub_style(sd):
    return {k.removeprefix("transformer."): v for k, v in sd.items() if k != "lm_head.weight"}


@pytest.mark.parametrize("form", [
    lambda sd: sd,                                                       # GPT2LMHeadModel.state_dict()
    _hub_style,                                                          # the Hub's file
    lambda sd: _hub_style(sd) | {"lm_head.weight": sd["lm_head.weight"]},
    lambda sd: {k: v for k, v in sd.items() if k != "lm_head.weight"},
    lambda sd: _hub_style(sd) | {f"h.{i}.attn.{b}": torch.ones(1) for i in range(TINY.n_layer)
                                 for b in ("bias", "masked_bias")},
], ids=["prefix-and-head", "hub", "no-prefix-with-head", "prefix-no-head", "hub-with-buffers"])
def test_every_form_of_a_state_dict_gives_the_same_module(form):
    hf = hf_model(TINY, seed=3)
    want = GPT.from_pretrained(hf.state_dict(), config=TINY).parameter_arrays()
    got = GPT.from_pretrained(form(dict(hf.state_dict()))).parameter_arrays()  # TINY's sizes are known
    assert got.keys() == want.keys() and all(np.array_equal(got[k], want[k]) for k in want)


def test_a_bare_file_of_unknown_size_asks_for_the_config(hub_layouts):
    with pytest.raises(ValueError, match=r"pass config=GPTConfig"):
        GPT.from_pretrained(hub_layouts["bare .bin"].source)


def test_a_float64_state_dict_loads_as_float32_arrays_into_a_float32_module():
    """The arrays handed to load_arrays are the module's dtype, not the state dict's."""
    sd64 = {k: v.astype(np.float64) for k, v in hub_tensors(TINY).items()}
    arrays = module_arrays_from_state_dict(GPT(TINY).parameter_arrays(), module_names(sd64))
    assert arrays and all(a.dtype == np.float32 for a in arrays.values())
    assert all(a.dtype == np.float32 for a in params_from_state_dict(sd64, np.float32).values())


def test_meta_device_counts_gpt2_small():
    with torch.device("meta"):
        model = GPT(GPT2_SMALL)
    assert sum(p.numel() for p in model.parameters()) == 124_439_808
    assert sum(t.numel() for t in model.state_dict().values()) == 124_439_808 + 50257 * 768
    assert model.lm_head.weight is model.transformer.wte.weight


def test_parameter_names_are_the_checkpoints():
    model = GPT(TINY)
    shapes = {n: tuple(p.shape) for n, p in model.named_parameters()}
    assert shapes["transformer.h.1.attn.c_attn.weight"] == (3 * TINY.n_embd, TINY.n_embd)  # nn.Linear (out, in)
    assert set(model.state_dict()) == set(shapes) | {"lm_head.weight"}


def test_loss_and_dropout():
    model = GPT(TINY, dropout=0.2)
    idx = torch.randint(0, TINY.vocab_size, (2, 8))
    logits, loss = model.eval()(idx, targets=idx)
    expected = ref.cross_entropy(logits.detach().numpy().astype(np.float64), idx.numpy())
    assert abs(loss.item() - expected) < 1e-5
    with torch.no_grad():
        assert torch.equal(model(idx), model(idx))
        model.train()
        assert not torch.equal(model(idx), model(idx))


BAD_INPUTS = [
    pytest.param(torch.zeros(1, TINY.block_size + 1, dtype=torch.long), ValueError, "block size 64", id="too-long"),
    pytest.param(torch.tensor([[1, TINY.vocab_size]]), ValueError, "token id 56", id="past-vocab"),
    pytest.param(torch.tensor([[-1, 2]]), ValueError, "token id -1", id="negative"),
    pytest.param(torch.zeros(1, 3), TypeError, "integer dtype", id="float-ids"),
    pytest.param(np.zeros((1, 3), dtype=np.int64), TypeError, "torch tensor", id="numpy"),
    pytest.param(torch.zeros(1, 1, 3, dtype=torch.long), ValueError, "(1, 1, 3)", id="3-d"),
    pytest.param(torch.zeros(1, 0, dtype=torch.long), ValueError, "no token", id="empty"),
]


@pytest.mark.parametrize("idx, error, words", BAD_INPUTS)
def test_bad_input_gives_clear_errors(idx, error, words):
    with pytest.raises(error, match=None) as info:
        GPT(TINY)(idx)
    assert words in str(info.value)


def _state(config=TINY):
    return {k: v for k, v in hf_model(config, seed=2).state_dict().items()}


@pytest.mark.parametrize("change, words", [
    (lambda sd: sd.pop("transformer.h.1.ln_2.bias"), ["missing", "transformer.h.1.ln_2.bias"]),
    (lambda sd: sd.update({"transformer.h.5.ln_1.weight": torch.ones(64)}), ["unexpected", "h.5.ln_1.weight"]),
    (lambda sd: sd.update({"transformer.wpe.weight": torch.zeros(70, 64)}), ["transformer.wpe.weight", "(70, 64)", "(64, 64)"]),
    (lambda sd: sd.update({"transformer.h.0.mlp.c_fc.weight": torch.zeros(256, 64)}), ["mlp.c_fc.weight", "(64, 256)"]),
    (lambda sd: sd.update({"lm_head.weight": torch.zeros(56, 64)}), ["not tied"]),
], ids=["missing", "unexpected", "shape", "untransposed", "untied-head"])
def test_from_pretrained_refuses_what_does_not_fit(change, words):
    sd = _state()
    change(sd)
    with pytest.raises(ValueError) as info:
        GPT.from_pretrained(sd, config=TINY)
    assert all(w in str(info.value) for w in words), str(info.value)


def test_from_pretrained_skips_old_buffers():
    sd = _state()
    for i in range(TINY.n_layer):
        sd[f"transformer.h.{i}.attn.bias"] = torch.tril(torch.ones(64, 64))[None, None]
        sd[f"transformer.h.{i}.attn.masked_bias"] = torch.tensor(-1e4)
    model = GPT.from_pretrained(sd, config=TINY, dtype=torch.float64)
    assert torch.equal(model.transformer.h[0].attn.c_attn.weight, sd["transformer.h.0.attn.c_attn.weight"].T)
    assert torch.equal(model.transformer.wte.weight, sd["transformer.wte.weight"])
    assert model.lm_head.weight is model.transformer.wte.weight


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int16, torch.int32])
def test_any_integer_ids_give_the_int64_logits(dtype):
    """The character tokenizer hands out uint8 ids; nn.Embedding alone would refuse them."""
    model = GPT(TINY).eval()
    ids = torch.tensor([[3, 1, 4, 1, 5, 9, 2, 6]])
    with torch.no_grad():
        assert torch.equal(model(ids.to(dtype)), model(ids))

"""gpt2course.numpy_gpt: input validation, GELU and the numerics of softmax, against torch."""
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from gpt2course import TINY, GPTConfig
from gpt2course import numpy_gpt as ref

THREE_LAYERS = GPTConfig(vocab_size=20, block_size=8, n_layer=3, n_embd=8, n_head=2)
IDX = np.array([[1, 2, 3, 4]])


def logits_error(params, idx=IDX, n_head=2):
    """The exception gpt_logits raises; fails the test if it runs."""
    with pytest.raises(Exception) as info:
        ref.gpt_logits(params, idx, n_head)
    return info


# ------------------------------------------------------------- parameter dicts
@pytest.mark.parametrize("key", ["h.2.ln_1.weight", "h.2.mlp.c_proj.bias", "h.0.attn.c_attn.weight",
                                 "ln_f.bias"])
def test_missing_key_is_named(key):
    """Dropping the last layer's ln_1 used to run a model one layer short, silently."""
    params = ref.init_params(THREE_LAYERS)
    del params[key]
    info = logits_error(params)
    assert info.type is KeyError
    assert key in str(info.value) and "param_shapes" in str(info.value), str(info.value)


def test_layer_gap_is_named():
    """A whole layer gone from the middle is one mistake (a gap in the numbering, say from
    renumbering keys), not a dozen missing tensors."""
    params = {k: v for k, v in ref.init_params(THREE_LAYERS).items() if not k.startswith("h.1.")}
    info = logits_error(params)
    assert info.type is KeyError
    assert "h.1.ln_1.weight" in str(info.value) and "0..2" in str(info.value), str(info.value)
    assert "gap" in str(info.value) and "[1]" in str(info.value), str(info.value)


def test_layers_present_are_all_run():
    """A two-layer dict is a two-layer model: the count comes from the keys, all of them."""
    params = ref.init_params(THREE_LAYERS)
    assert ref.config_from_params(params, 2) == THREE_LAYERS
    two = {k: v for k, v in params.items() if not k.startswith("h.2.")}
    assert ref.config_from_params(two, 2).n_layer == 2


def test_no_layers_is_refused():
    params = {k: v for k, v in ref.init_params(THREE_LAYERS).items() if not k.startswith("h.")}
    info = logits_error(params)
    assert info.type is KeyError and "h.0.ln_1.weight" in str(info.value)


@pytest.mark.parametrize("key, words", [("wte", ["token embedding", "init_params"]),
                                        ("wpe", ["position embedding", "init_params"])])
def test_missing_embedding_table_is_named(key, words):
    params = ref.init_params(THREE_LAYERS)
    del params[key]
    info = logits_error(params)
    assert info.type is KeyError
    assert all(w in str(info.value) for w in [repr(key), *words]), str(info.value)


def test_embedding_table_must_be_a_matrix():
    params = ref.init_params(THREE_LAYERS)
    params["wpe"] = params["wpe"][0]
    info = logits_error(params)
    assert info.type is ValueError and "wpe" in str(info.value) and "(8,)" in str(info.value)


@pytest.mark.parametrize("extra", [["lm_head.weight"], ["h.0.attn.bias", "h.0.attn.masked_bias"], ["ln_f.gain"]],
                         ids=["head", "buffers", "typo"])
def test_unexpected_keys_are_refused(extra):
    """The model would ignore them, hiding a loading or naming mistake."""
    params = ref.init_params(THREE_LAYERS)
    params |= {k: np.zeros(THREE_LAYERS.n_embd) for k in extra}
    info = logits_error(params)
    assert info.type is ValueError
    assert all(repr(k) in str(info.value) for k in extra) and "unexpected" in str(info.value), str(info.value)


def test_parameters_must_be_arrays():
    params = ref.init_params(THREE_LAYERS)
    params["h.1.ln_2.bias"] = params["h.1.ln_2.bias"].tolist()
    info = logits_error(params)
    assert info.type is TypeError and "h.1.ln_2.bias" in str(info.value)


def test_valid_dict_still_passes():
    params = ref.init_params(THREE_LAYERS)
    assert ref.check_params(params, ref.config_from_params(params, 2)) == np.float64
    assert ref.gpt_logits(params, IDX, 2).shape == (1, 4, THREE_LAYERS.vocab_size)


# ------------------------------------------------------------------ token ids
@pytest.mark.parametrize("shape", [(0, 5), (0, 1)])
def test_empty_batch_gets_clear_error(shape):
    params = ref.init_params(TINY)
    with pytest.raises(ValueError, match="the batch is empty") as info:
        ref.gpt_logits(params, np.zeros(shape, dtype=np.int64), TINY.n_head)
    assert str(shape) in str(info.value)


def test_boolean_token_ids_are_refused():
    """NumPy takes a boolean array for a mask, not for the ids 0 and 1: the lookup would pick
    rows by position, or fail with a message about masks."""
    with pytest.raises(TypeError, match="integer dtype"):
        ref.gpt_logits(ref.init_params(THREE_LAYERS), np.array([[True, False, True]]), 2)


def test_block_size_message_unchanged():
    """Lesson 01 prints this message; its stored output must keep matching."""
    with pytest.raises(ValueError) as info:
        ref.check_token_ids(np.zeros(65, dtype=np.int64), 56, 64)
    assert str(info.value) == ("sequence length 65 exceeds the block size 64: there is no learned position "
                               "row beyond position 63; crop the input to its last 64 tokens")


# ----------------------------------------------------------------------- GELU
def gelu_torch(x: np.ndarray) -> np.ndarray:
    return F.gelu(torch.from_numpy(x), approximate="tanh").numpy()


def gelu_pow(x):
    """The textbook formula with x**3, evaluated independently."""
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


def gelu_inputs(dtype):
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal(100_000) * 3, rng.uniform(-30, 30, 100_000),
                        [0.0, -0.0, 1e-30, -1e-30, 5.0, -5.0, 1e4, -1e4]])
    return x.astype(dtype)


@pytest.mark.parametrize("dtype, ulps", [(np.float64, 4), (np.float32, 4)])
def test_gelu_matches_torch(dtype, ulps):
    """Errors are measured in ulps of max(1, |x|): for x << 0, 1 + tanh cancels, so the
    relative error of a tiny output says nothing about the formula."""
    x = gelu_inputs(dtype)
    ours = ref.gelu_tanh(x)
    assert ours.dtype == dtype and np.all(np.isfinite(ours))
    scale = np.spacing(np.maximum(np.abs(x), dtype(1)))
    assert np.all(np.abs(ours - gelu_torch(x)) <= ulps * scale)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gelu_cube_by_products_stays_within_one_ulp(dtype):
    x = gelu_inputs(dtype)
    assert np.all(np.abs(ref.gelu_tanh(x) - gelu_pow(x)) <= np.spacing(np.maximum(np.abs(x), dtype(1))))


# ------------------------------------------------------------------- softmax
LARGE_ROWS = np.array([[1000.0, 0.0, -1000.0], [-1000.0, -1000.0, -1000.0], [1000.0, 1000.0, -1000.0],
                       [1e300, -1e300, 0.0], [-1000.0, -999.0, -998.0]])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_softmax_large_scores_finite_and_exact(dtype):
    """Without subtracting the row max, exp(1000) overflows and the row becomes NaN."""
    z = LARGE_ROWS.astype(dtype) if dtype == np.float64 else np.clip(LARGE_ROWS, -1e4, 1e4).astype(dtype)
    ours = ref.softmax(z)
    theirs = torch.softmax(torch.from_numpy(z), dim=-1).numpy()
    assert ours.dtype == dtype and np.all(np.isfinite(ours))
    assert np.allclose(ours, theirs, rtol=4 * np.finfo(dtype).eps, atol=0)
    assert ours[0].tolist() == [1.0, 0.0, 0.0]
    assert np.array_equal(ours[1], np.full(3, 1 / 3, dtype))
    assert ours[2].tolist() == [0.5, 0.5, 0.0]


def test_softmax_along_other_axis():
    ours = ref.softmax(LARGE_ROWS.T, axis=0)
    assert np.array_equal(ours, ref.softmax(LARGE_ROWS).T)


def attention_torch(q, k):
    """Independent: masked_fill with -inf on the strict upper triangle, then torch's softmax."""
    q, k = torch.from_numpy(q), torch.from_numpy(k)
    T = q.shape[-2]
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    hidden = torch.ones(T, T, dtype=torch.bool).triu(1)
    return torch.softmax(scores.masked_fill(hidden, float("-inf")), dim=-1).numpy()


def test_attention_weights_large_scores():
    """d_k = 1, so the scores are q[t] * k[j]: rows [1000], [-1000, 0], [1000, 0, -1000], [-1000]*4."""
    q = np.array([1000.0, -1000.0, 1000.0, 1000.0])[:, None]
    k = np.array([1.0, 0.0, -1.0, -1.0])[:, None]
    k4 = np.array([-1.0, -1.0, -1.0, -1.0])[:, None]
    ours = ref.attention_weights(q, k)
    assert np.all(np.isfinite(ours))
    assert np.array_equal(ours, attention_torch(q, k))
    assert ours[2].tolist() == [1.0, 0.0, 0.0, 0.0] and ours[1].tolist() == [0.0, 1.0, 0.0, 0.0]
    assert ref.attention_weights(q, k4)[3].tolist() == [0.25] * 4


def test_attention_weights_random_large_scores_match_torch():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 3, 6, 4)) * 100, rng.standard_normal((2, 3, 6, 4)) * 100
    ours = ref.attention_weights(q, k)
    assert np.all(np.isfinite(ours))
    assert np.allclose(ours, attention_torch(q, k), rtol=0, atol=1e-14)


def test_cross_entropy_large_logits():
    logits = LARGE_ROWS[None]                                   # (1, 5, 3)
    targets = np.array([[0, 1, 2, 2, 0]])
    ours = ref.cross_entropy(logits, targets)
    theirs = F.cross_entropy(torch.from_numpy(LARGE_ROWS), torch.from_numpy(targets[0])).item()
    assert np.isfinite(ours) and abs(ours - theirs) <= 1e-15 * abs(theirs)
    assert ref.cross_entropy(LARGE_ROWS[None, :1], np.array([[0]])) == 0.0
    assert ref.cross_entropy(LARGE_ROWS[None, :1], np.array([[2]])) == 2000.0
    assert ref.cross_entropy(LARGE_ROWS[None, 1:2], np.array([[1]])) == math.log(3)

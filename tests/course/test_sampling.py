"""gpt2course/sampling.py: cached = uncached, greedy = argmax, top-k keeps k, temperature before softmax.

Oracles: the course's reference forward (numpy_gpt.gpt_logits), torch_gpt.GPT's own
forward and greedy generate, and probabilities worked out by hand.
"""
import math

import numpy as np
import pytest
import torch

from gpt2course import TINY, GPTConfig
from gpt2course import numpy_gpt as ng
from gpt2course.sampling import (KVCache, numpy_forward_cached, pick_numpy, pick_torch, probs_numpy, probs_torch,
                                 sample_numpy, sample_torch, top_k_numpy, top_k_torch, torch_forward_cached)
from gpt2course.torch_gpt import GPT

# the tiny model's vocabulary with a short block, so 20 new tokens run past it and the context is cropped
SMALL = GPTConfig(vocab_size=TINY.vocab_size, block_size=12, n_layer=2, n_embd=32, n_head=4)
PROMPT = np.random.default_rng(5).integers(0, SMALL.vocab_size, size=(3, 5))
N_NEW = 20


@pytest.fixture(scope="module")
def params():
    """Every tensor random (LayerNorms too), so next-token distributions are far from uniform."""
    rng = np.random.default_rng(0)
    return {k: rng.normal(1.0 if k.endswith("ln_1.weight") else 0.0, 0.3, size=v.shape)
            for k, v in ng.init_params(SMALL, seed=0).items()}


@pytest.fixture(scope="module")
def model(params):
    return GPT.from_numpy(params, SMALL.n_head).eval()  # float64


KNOBS = [pytest.param(dict(greedy=True), id="greedy"),
         pytest.param(dict(temperature=1.0), id="t1"),
         pytest.param(dict(temperature=0.7, top_k=5), id="t0.7-top5")]


# ------------------------------------------------------------------ the KV cache
@pytest.mark.parametrize("knobs", KNOBS)
def test_numpy_cached_and_uncached_give_the_same_tokens(params, knobs):
    runs = [sample_numpy(params, PROMPT, N_NEW, SMALL.n_head, use_cache=c, rng=np.random.default_rng(1), **knobs)
            for c in (True, False)]
    assert runs[0].shape == (3, 5 + N_NEW) and (runs[0][:, :5] == PROMPT).all()
    assert (runs[0] == runs[1]).all()


@pytest.mark.parametrize("knobs", KNOBS)
def test_torch_cached_and_uncached_give_the_same_tokens(model, knobs):
    runs = [sample_torch(model, torch.from_numpy(PROMPT), N_NEW, use_cache=c,
                         generator=torch.Generator().manual_seed(1), **knobs) for c in (True, False)]
    assert runs[0].shape == (3, 5 + N_NEW) and torch.equal(runs[0], runs[1])


def test_cached_forward_matches_the_reference_position_by_position(params, model):
    ids = np.random.default_rng(2).integers(0, SMALL.vocab_size, size=(2, SMALL.block_size))
    expected = ng.gpt_logits(params, ids, SMALL.n_head)                       # (2, T, V)
    np_cache, torch_cache = KVCache(), KVCache()
    got_np = [numpy_forward_cached(params, ids[:, :4], SMALL.n_head, np_cache)]  # a 4-token prefill ...
    got_torch = [torch_forward_cached(model, torch.from_numpy(ids[:, :4]), torch_cache)]
    for t in range(4, SMALL.block_size):                                      # ... then one token at a time
        got_np.append(numpy_forward_cached(params, ids[:, t:t + 1], SMALL.n_head, np_cache))
        got_torch.append(torch_forward_cached(model, torch.from_numpy(ids[:, t:t + 1]), torch_cache))
    np.testing.assert_allclose(np.concatenate(got_np, axis=1), expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(torch.cat(got_torch, dim=1).detach().numpy(), expected, rtol=0, atol=1e-12)
    assert np_cache.length == torch_cache.length == SMALL.block_size


# ------------------------------------------------------------------ greedy
def test_greedy_is_the_argmax_of_the_cropped_context(params, model):
    got = sample_numpy(params, PROMPT, N_NEW, SMALL.n_head, greedy=True)
    idx = PROMPT
    for _ in range(N_NEW):
        logits = ng.gpt_logits(params, idx[:, -SMALL.block_size:], SMALL.n_head)[:, -1]
        idx = np.concatenate([idx, logits.argmax(-1)[:, None]], axis=1)
    assert (got == idx).all()
    # the torch sampler agrees, and so does torch_gpt.GPT.generate (its own greedy loop)
    torch_got = sample_torch(model, torch.from_numpy(PROMPT), N_NEW, greedy=True)
    assert (torch_got.numpy() == got).all()
    assert torch.equal(torch_got, model.generate(torch.from_numpy(PROMPT), N_NEW))


def test_one_dimensional_prompt_keeps_its_shape(params, model):
    assert sample_numpy(params, PROMPT[0], 3, SMALL.n_head, greedy=True).shape == (8,)
    assert sample_torch(model, torch.from_numpy(PROMPT[0]), 3, greedy=True).shape == (8,)


# ------------------------------------------------------------------ top-k and temperature
TIES = np.array([[3.0, 1.0, 1.0, 1.0, 0.0, -1.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]])


@pytest.mark.parametrize("k", range(1, 7))
def test_top_k_keeps_exactly_k_candidates_even_with_ties(k):
    for kept in (top_k_numpy(TIES, k), top_k_torch(torch.from_numpy(TIES), k).numpy()):
        assert (np.isfinite(kept).sum(axis=-1) == k).all()
        assert np.isfinite(kept[0, 0])                             # the largest is always kept
        assert (kept[np.isfinite(kept)] == TIES[np.isfinite(kept)]).all()  # kept logits unchanged
    assert (probs_numpy(TIES, top_k=k) > 0).sum(axis=-1).tolist() == [k, k]
    assert (probs_torch(torch.from_numpy(TIES), top_k=k) > 0).sum(dim=-1).tolist() == [k, k]


def test_draws_stay_within_the_top_k():
    logits = np.random.default_rng(3).normal(size=(1, 40))
    top3 = set(np.argsort(logits[0])[-3:].tolist())
    rng, gen = np.random.default_rng(0), torch.Generator().manual_seed(0)
    drawn_np = {int(pick_numpy(logits, rng, top_k=3)[0]) for _ in range(300)}
    drawn_torch = {int(pick_torch(torch.from_numpy(logits), gen, top_k=3)[0]) for _ in range(300)}
    assert drawn_np == drawn_torch == top3


# p(token) for logits [0, ln 2]: softmax(z / T) is proportional to [1, 2 ** (1 / T)]
BY_HAND = [(1.0, [1 / 3, 2 / 3]), (0.5, [0.2, 0.8]), (2.0, [1 / (1 + math.sqrt(2)), math.sqrt(2) / (1 + math.sqrt(2))])]


@pytest.mark.parametrize("temperature, expected", BY_HAND, ids=["T=1", "T=0.5", "T=2"])
def test_temperature_divides_the_logits_before_the_softmax(temperature, expected):
    logits = np.array([[0.0, math.log(2.0)]])
    np.testing.assert_allclose(probs_numpy(logits, temperature), [expected], rtol=1e-12)
    np.testing.assert_allclose(probs_torch(torch.from_numpy(logits), temperature).numpy(), [expected], rtol=1e-12)
    # and the draws follow those probabilities
    draws = pick_numpy(np.repeat(logits, 20000, axis=0), np.random.default_rng(0), temperature)
    assert abs(draws.mean() - expected[1]) < 0.015
    draws = pick_torch(torch.from_numpy(np.repeat(logits, 20000, axis=0)), torch.Generator().manual_seed(0),
                       temperature)
    assert abs(draws.double().mean().item() - expected[1]) < 0.015


# ------------------------------------------------------------------ the random generator is an argument
def test_same_generator_state_same_text_and_no_global_state(params, model):
    state = np.random.get_state()[1].copy()
    torch_state = torch.get_rng_state()
    a = sample_numpy(params, PROMPT, 8, SMALL.n_head, rng=np.random.default_rng(9))
    b = sample_numpy(params, PROMPT, 8, SMALL.n_head, rng=np.random.default_rng(9))
    c = sample_numpy(params, PROMPT, 8, SMALL.n_head, rng=np.random.default_rng(10))
    assert (a == b).all() and not (a == c).all()
    sample_torch(model, torch.from_numpy(PROMPT), 8, generator=torch.Generator().manual_seed(9))
    assert (np.random.get_state()[1] == state).all() and torch.equal(torch.get_rng_state(), torch_state)


@pytest.mark.parametrize("bad, error", [
    (dict(), TypeError),                                     # no rng and not greedy
    (dict(rng=np.random.default_rng(0), temperature=0.0), ValueError),
    (dict(rng=np.random.default_rng(0), top_k=0), ValueError),
], ids=["no-rng", "temperature-0", "top-k-0"])
def test_bad_knobs_are_refused(params, bad, error):
    with pytest.raises(error):
        sample_numpy(params, PROMPT, 1, SMALL.n_head, **bad)


def test_padded_vocabulary_rows_are_never_drawn():
    padded = GPT(GPTConfig(64, 8, 1, 16, 2)).eval()
    with torch.no_grad():  # make the padding rows the likeliest: h . row = 5 * sum(LN(x) + 1) = 5 d
        padded.transformer.ln_f.bias.fill_(1.0)
        padded.transformer.wte.weight[TINY.vocab_size:] = 5.0
    start = torch.zeros(4, 1, dtype=torch.long)
    unrestricted = sample_torch(padded, start, 20, generator=torch.Generator().manual_seed(0))
    assert int(unrestricted[:, 1:].min()) >= TINY.vocab_size
    out = sample_torch(padded, start, 20, generator=torch.Generator().manual_seed(0), vocab_size=TINY.vocab_size)
    assert int(out.max()) < TINY.vocab_size


# ------------------------------------------------------------------ knobs at their edges (issue 20)
@pytest.mark.parametrize("top_k", [6, 7, 50])
def test_top_k_larger_than_the_vocabulary_keeps_every_id(top_k):
    """top_k=50 over 6 ids is no restriction (torch.topk itself refuses k > V)."""
    logits = np.random.default_rng(4).normal(scale=0.3, size=(4, 6))   # (B, V=6), no id far below the rest
    gen, rng = torch.Generator().manual_seed(0), np.random.default_rng(0)
    drawn_torch = torch.cat([pick_torch(torch.from_numpy(logits), gen, top_k=top_k) for _ in range(100)])
    drawn_np = np.concatenate([pick_numpy(logits, rng, top_k=top_k) for _ in range(100)])
    assert set(drawn_torch.tolist()) == set(drawn_np.tolist()) == set(range(6))
    padded = GPT(GPTConfig(6, 8, 1, 16, 2)).eval()
    out = sample_torch(padded, torch.zeros(2, 1, dtype=torch.long), 10, generator=gen, top_k=top_k)
    assert out.shape == (2, 11) and int(out.max()) < 6


@pytest.mark.parametrize("side", ["numpy", "torch"])
def test_temperature_zero_is_refused_and_points_to_greedy(params, model, side):
    """Dividing by 0 gives inf/NaN probabilities; the message says what to use instead."""
    with pytest.raises(ValueError, match="greedy"):
        if side == "numpy":
            sample_numpy(params, PROMPT, 1, SMALL.n_head, rng=np.random.default_rng(0), temperature=0.0)
        else:
            sample_torch(model, torch.from_numpy(PROMPT), 1, generator=torch.Generator(), temperature=0.0)
    with pytest.raises(ValueError, match="greedy"):
        pick_torch(torch.zeros(1, 6), torch.Generator(), temperature=0.0)


@pytest.mark.parametrize("mode", ["eval", "train"])
def test_sampling_keeps_the_models_mode_and_samples_without_dropout(mode):
    """Sampling runs in eval mode (no dropout) and hands the model back in the mode it came in."""
    torch.manual_seed(0)
    model = GPT(GPTConfig(TINY.vocab_size, 8, 1, 16, 2), dropout=0.5)
    model.train(mode == "train")
    start = torch.zeros(3, 1, dtype=torch.long)
    out = sample_torch(model, start, 12, greedy=True)
    assert model.training == (mode == "train")
    with torch.no_grad():   # greedy with dropout off is the argmax of the eval-mode forward, token by token
        ids = start
        for _ in range(12):
            ids = torch.cat([ids, model.eval()(ids[:, -8:])[:, -1].argmax(-1, keepdim=True)], dim=1)
    assert torch.equal(out, ids)

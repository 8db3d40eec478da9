"""generate_text against Hugging Face: GPT2LMHeadModel.generate (greedy) on the same random weights of a
GPT-2-shaped model (GPT-2's vocabulary of 50,257, small width), its ids decoded by Hugging Face's
GPT2Tokenizer built from the shipped files. Nothing here comes from the code under test."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from gpt2course import GPTConfig, generation, tokenizer as tk
from gpt2course.state_dicts import params_from_state_dict

SHAPED = GPTConfig(vocab_size=50_257, block_size=48, n_layer=2, n_embd=32, n_head=4)


@pytest.fixture(scope="module")
def hf_and_params():
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    hf = GPT2LMHeadModel(GPT2Config(vocab_size=SHAPED.vocab_size, n_positions=SHAPED.block_size,
                                    n_embd=SHAPED.n_embd, n_layer=SHAPED.n_layer, n_head=SHAPED.n_head,
                                    resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)).double().eval()
    with torch.no_grad():  # larger than the init's 0.02, so the logits are far from ties
        for name, p in hf.named_parameters():
            if name.endswith("weight") and "ln" not in name:
                p.copy_(torch.randn_like(p) * 0.3)
    return hf, params_from_state_dict(hf.state_dict())


@pytest.fixture(scope="module")
def hf_tokenizer(tmp_path_factory):
    from transformers import GPT2Tokenizer

    folder = tmp_path_factory.mktemp("tok")
    for name in ("encoder.json", "vocab.bpe"):
        (folder / name).write_bytes(tk.read_data_file(name))
    return GPT2Tokenizer(str(folder / "encoder.json"), str(folder / "vocab.bpe"))


@pytest.mark.parametrize("prompt", ["Hello, my dog is cute", "日本語 👍🏽 and\n  spaces", "x"])
def test_greedy_text_equals_hugging_face_generate(hf_and_params, hf_tokenizer, prompt):
    hf, params = hf_and_params
    ids = torch.tensor([hf_tokenizer.encode(prompt)])
    with torch.no_grad():
        want = hf.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=20, min_new_tokens=20,
                           do_sample=False, use_cache=True, eos_token_id=None, pad_token_id=0)[0].tolist()
    got_ids, got_text = generation.generate_text(prompt, params, SHAPED.n_head, 20)
    assert got_ids == want
    assert got_text == hf_tokenizer.decode(want, clean_up_tokenization_spaces=False)
    assert got_text.startswith(prompt)


def test_sampling_is_the_generators_and_an_empty_prompt_is_refused(hf_and_params):
    _, params = hf_and_params
    a = generation.generate_text("Hi", params, SHAPED.n_head, 5, rng=np.random.default_rng(1), top_k=5)
    b = generation.generate_text("Hi", params, SHAPED.n_head, 5, rng=np.random.default_rng(1), top_k=5)
    assert a == b and len(a[0]) == 1 + 5
    with pytest.raises(ValueError, match="no ids"):
        generation.generate_text("", params, SHAPED.n_head, 3)


def test_the_exercises_reference_equals_hugging_face_generate(hf_and_params, hf_tokenizer):
    """Lesson 09's graded generate_text (grader/lessons/_l09_variants.py: encode, gpt_logits without a
    cache, argmax, decode) on GPT-2's whole vocabulary."""
    from grader.lessons import _l09_variants as V

    hf, params = hf_and_params
    gpt2 = tk.gpt2_tokenizer()
    ids = torch.tensor([hf_tokenizer.encode("Hello, my dog is cute")])
    with torch.no_grad():
        want = hf.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=10, min_new_tokens=10,
                           do_sample=False, eos_token_id=None, pad_token_id=0)[0].tolist()
    got, text = V.generate_text("Hello, my dog is cute", params, SHAPED.n_head, 10, gpt2.vocab, gpt2.ranks)
    assert got == want and text == hf_tokenizer.decode(want, clean_up_tokenization_spaces=False)


@pytest.mark.slow
def test_greedy_text_equals_hugging_face_generate_at_gpt2_size(hf_tokenizer):
    """The same at GPT-2 small's own size (124M parameters, 12 layers of width 768, 1,024
    positions), random weights in float64: the issue's "GPT-2-sized" case, one prompt, a few
    tokens (each step of both sides reads every weight once)."""
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(1)
    config = GPT2Config(resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)   # GPT-2 small's sizes
    hf = GPT2LMHeadModel(config).double().eval()
    with torch.no_grad():  # far from ties, as above
        for name, p in hf.named_parameters():
            if name.endswith("weight") and "ln" not in name:
                p.mul_(10.0)
    assert sum(p.numel() for p in hf.parameters()) == 124_439_808
    params = params_from_state_dict(hf.state_dict())
    prompt = "Hello, my dog is cute"
    ids = torch.tensor([hf_tokenizer.encode(prompt)])
    with torch.no_grad():
        want = hf.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=6, min_new_tokens=6,
                           do_sample=False, use_cache=True, eos_token_id=None, pad_token_id=0)[0].tolist()
    got_ids, got_text = generation.generate_text(prompt, params, config.n_head, 6)
    assert got_ids == want and len(want) == ids.shape[1] + 6
    assert got_text == hf_tokenizer.decode(want, clean_up_tokenization_spaces=False)

"""Lesson 09's capstone: a prompt through GPT-2's tokenizer, the NumPy model with its KV cache, and back to text.

Greedy decoding (rng None) always takes the most likely next id, so it is a
pure function of the weights and the prompt: the same ids as Hugging Face's
`generate(do_sample=False)` on the same weights. With an rng it samples, with
the temperature and top-k of lesson 08.
"""
from __future__ import annotations

import numpy as np

from . import sampling
from . import tokenizer as tk


def generate_text(prompt: str, params: dict, n_head: int, n_new: int, tokenizer: tk.Tokenizer | None = None, *,
                  rng: np.random.Generator | None = None, temperature: float = 1.0,
                  top_k: int | None = None) -> tuple[list[int], str]:
    """(ids, text): the prompt's ids followed by n_new generated ones, and the text of them all."""
    tokenizer = tokenizer or tk.gpt2_tokenizer()
    ids = np.array(tokenizer.encode(prompt), dtype=np.int64)
    if ids.size == 0:
        raise ValueError("the prompt encodes to no ids: give at least one character")
    out = sampling.sample_numpy(params, ids, n_new, n_head, rng=rng, temperature=temperature, top_k=top_k,
                                greedy=rng is None)
    return out.tolist(), tokenizer.decode(out.tolist())

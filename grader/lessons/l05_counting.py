"""Lesson 05: counting every parameter of a GPT-2 from its five numbers."""
from __future__ import annotations

from gpt2course.config import GPT2_FAMILY, GPT2_SMALL, TINY

from ..judging.registry import Case, Exercise, Mistake, register
from ._variants import flagged

LESSON = "05_counting"


# ------------------------------------------------------------------ count_gpt2_params
# The reference, written term by term, with one keyword flag per classic mistake;
# each catalogued mistake is this function with exactly one flag switched.
def count_reference(V, T, d, L, tied=True, bias=True, *, head_twice=False, positions=True,
                    layer_norms=True, final_ln=True, block_small=13, drop_gains=False,
                    keep_ln_biases=False, head_bias=False):
    """Parameters of a GPT-2 with vocabulary V, context T, width d and L blocks.

    block_small: the factor of d in a block's vector terms when bias=True (13:
    9d of linear biases plus two LayerNorms of 2d each); keep_ln_biases: bias=False
    removes the linear layers' biases only; head_bias: an untied head with a bias of V.
    """
    gain = 0 if (drop_gains and not bias) else d           # a LayerNorm's gain vector
    ln_bias = d if (bias or keep_ln_biases) else 0         # and its bias
    one_ln = (gain + ln_bias) if layer_norms else 0
    if bias:
        vectors = block_small * d if layer_norms else 9 * d
    else:
        vectors = 2 * one_ln
    per_block = 12 * d * d + vectors
    total = V * d + (T * d if positions else 0) + L * per_block
    total += one_ln if final_ln else 0
    if not tied or head_twice:
        total += V * d                                     # a head of its own, no bias
    if not tied and head_bias:
        total += V
    return int(total)


def _config_args(config, **flags):
    return {"V": config.vocab_size, "T": config.block_size, "d": config.n_embd, "L": config.n_layer,
            **flags}


def _count_public():
    return [
        Case(_config_args(GPT2_SMALL), about="GPT-2 small as released"),
        Case(_config_args(GPT2_SMALL, tied=False), about="GPT-2 small with an untied head"),
        Case(_config_args(GPT2_SMALL, bias=False), about="GPT-2 small without biases"),
        Case(_config_args(TINY), about="the course's tiny model"),
        Case({"V": 100, "T": 16, "d": 32, "L": 3, "tied": False, "bias": False},
             about="a small untied model without biases"),
    ]


FLAGS = [(True, True), (False, True), (True, False), (False, False)]  # (tied, bias)


def _count_hidden(rng):
    """Every hidden case drawn from the secret: the GPT-2 family's widths and depths with a
    vocabulary and a context drawn near theirs (the released sizes are public knowledge, so a
    table of their counts must earn nothing), then sizes drawn at random."""
    cases = [Case(_config_args(config, tied=tied, bias=bias) | {"V": config.vocab_size - int(rng.integers(1, 500)),
                                                                "T": config.block_size - int(rng.integers(1, 200))})
             for config in GPT2_FAMILY.values() for tied, bias in FLAGS]
    flags = FLAGS
    for i in range(8):
        tied, bias = flags[i % 4]
        cases.append(Case({"V": int(rng.integers(2, 60_000)), "T": int(rng.integers(1, 4097)),
                           "d": int(rng.integers(1, 257)) * 8, "L": int(rng.integers(1, 49)),
                           "tied": tied, "bias": bias}))
    return cases


def _count(**flags):
    return flagged(count_reference, **flags)


register(Exercise(
    name="count_gpt2_params",
    lesson=LESSON,
    difficulty=2, importance=2, minutes=25,
    reference=count_reference,
    public_cases=_count_public,
    hidden_cases=_count_hidden,
    mistakes=[
        Mistake("tied matrix counted twice",
                "With a tied head the output layer is wte itself: the V x d matrix is one set of "
                "parameters used twice, so count it once. Only an untied head (tied=False) adds "
                "another V x d.",
                _count(head_twice=True)),
        Mistake("position table forgotten",
                "wpe is a learned table of its own, one row of width d per position: it adds "
                "T x d parameters.",
                _count(positions=False)),
        Mistake("LayerNorms forgotten",
                "Every LayerNorm has parameters: a gain of length d and (with biases) a bias of "
                "length d. There are two per block and a final one, ln_f.",
                _count(layer_norms=False)),
        Mistake("13d written as 9d (the blocks' LayerNorms left out)",
                "A block's vectors are the linear biases, 3d + d + 4d + d = 9d, plus its two "
                "LayerNorms, 2d each: 13d in all, not 9d.",
                _count(block_small=9)),
        Mistake("13d written as 4d (the linear biases left out)",
                "4d is only the two LayerNorms of a block; the four linear layers have biases too: "
                "3d (c_attn) + d (attn.c_proj) + 4d (c_fc) + d (mlp.c_proj) = 9d. With biases a "
                "block has 12d^2 + 13d parameters.",
                _count(block_small=4)),
        Mistake("final LayerNorm forgotten",
                "After the last block GPT-2 applies one more LayerNorm, ln_f: 2d parameters with "
                "biases, d (its gain) without.",
                _count(final_ln=False)),
        Mistake("bias=False keeps the LayerNorm biases",
                "bias=False removes every bias, the LayerNorms' included (only their gains stay): a "
                "block then has 12d^2 + 2d parameters and ln_f has d. Removing only the linear layers' "
                "biases counts 2d per block and d more for ln_f (GPT-2 small: 124,356,864 instead of "
                "124,337,664).",
                _count(keep_ln_biases=True)),
        Mistake("untied head given a bias",
                "An untied head is a (V, d) matrix without a bias (GPT-2's head never has one): it adds "
                "V x d, not V x d + V.",
                _count(head_bias=True)),
        Mistake("bias=False also removes the LayerNorm gains",
                "bias=False removes biases only: every LayerNorm keeps its gain of length d, so "
                "a block still has 12d^2 + 2d parameters and ln_f has d.",
                _count(drop_gains=True)),
    ],
    hints=(
        "Count tensor by tensor, as the lesson does: two embedding tables, then one block "
        "(two LayerNorms and four linear layers, each a weight matrix and a bias vector), "
        "times L, then the final LayerNorm. What does the head add when it is tied?",
        "The shapes: `wte` is (V, d), `wpe` is (T, d). In a block the weight matrices are "
        "(d, 3d), (d, d), (d, 4d) and (4d, d), so 12d^2 in all; each linear layer has a bias "
        "as long as its output; each LayerNorm has a gain and a bias of length d.",
        "With biases a block's vectors add up to 13d: 3d + d + 4d + d for the linear biases and "
        "2d for each of the two LayerNorms. `ln_f` adds 2d once, after the last block, not per "
        "block.",
        "The two switches: `tied=False` adds a separate head matrix of V x d (it has no bias); a "
        "tied head adds nothing. `bias=False` drops every bias vector, the LayerNorms' included, "
        "but keeps each LayerNorm's gain: 2d per block and d for `ln_f`.",
        "Outline: (1) embeddings V*d + T*d; (2) per block 12d^2 plus 13d, or plus 2d without "
        "biases; (3) times L; (4) the final LayerNorm, 2d or d; (5) one more V*d when the head "
        "is untied. Return the sum as an int.",
    ),
))

"""Lesson 04: the full model, GPT-2's initialisation and the tied head's gradient."""
from __future__ import annotations

import math

import numpy as np

from gpt2course import numpy_gpt as ref
from gpt2course.config import GPTConfig

from ..judging.registry import Case, Exercise, Mistake, register
from ..judging.stats import init_judge
from . import _variants as V
from .l02_attention import ATTENTION, LAYER_NORM, SPLIT_ONLY
from .l03_mlp_block import GELU, random_params

LESSON = "04_model_init"


# ------------------------------------------------------------------ init_gpt
# Graded statistically (grader/judging/stats.py): a learner may draw the numbers in any
# order, so answers are compared tensor by tensor through summary statistics.
#
# Reproducible from `seed`: the judge compares cases with each other too
# (seeds.seed_mismatches, in grader/judging/seeds.py, shared by check(), the batch
# grader and the student edition). Two cases with the same config and seed must
# give the same numbers, and two with the same config and different seeds
# different numbers; it compares the summaries' fingerprints (a tensor's first
# values), so it needs nothing but what the student edition stores. The public
# cases hold such a pair each way (a repeat, then a new seed), and so do the
# hidden ones: "seed ignored" (a fixed seed) fails the new seed, "generator not
# seeded" (default_rng()) fails the repeat.
def _init_public():
    config = GPTConfig(vocab_size=100, block_size=16, n_layer=2, n_embd=32, n_head=4)
    return [Case({"config": config, "seed": 0}),
            Case({"config": config, "seed": 0}, about="the config and seed of test 1 again"),
            Case({"config": config, "seed": 1}, about="the config of test 1 with another seed")]


def _init_hidden(rng):
    cases = []
    for vocab, T, L, d, h in [(300, 32, 2, 64, 4), (128, 16, 1, 48, 3), (200, 24, 3, 32, 2),
                              (64, 64, 6, 32, 4), (500, 16, 4, 64, 8)]:
        cases.append(Case({"config": GPTConfig(vocab, T, L, d, h), "seed": int(rng.integers(0, 2**31))}))
    earlier = cases[1].args
    other = (earlier["seed"] + 1 + int(rng.integers(0, 2**30))) % 2**31  # never earlier's seed
    return cases + [Case(dict(earlier), about="the config and seed of an earlier test again"),
                    Case(dict(earlier, seed=other), about="the config of an earlier test with another seed")]


def _init(**flags):
    def variant(config, seed):
        return V.init_params(config, seed, **flags)
    return variant


register(Exercise(
    name="init_gpt",
    lesson=LESSON,
    difficulty=2, importance=2, minutes=25,
    reference=ref.init_params,
    public_cases=_init_public,
    hidden_cases=_init_hidden,
    judge=init_judge,
    mistakes=[
        Mistake("residual projections not scaled by 1/sqrt(2L)",
                "attn.c_proj.weight and mlp.c_proj.weight write into the residual stream, which "
                "sums 2L such branches: GPT-2 draws them with std 0.02 / sqrt(2 * n_layer).",
                _init(std="unscaled")),
        Mistake("every weight scaled by 1/sqrt(2L)",
                "Only the two residual projections (attn.c_proj.weight, mlp.c_proj.weight) get "
                "0.02 / sqrt(2 * n_layer); the embeddings, c_attn and c_fc keep std 0.02.",
                _init(std="all_scaled")),
        Mistake("separate untied output head",
                "GPT-2's output head is wte itself (logits = h @ wte.T): the parameter dict "
                "holds no head tensor.",
                _init(head=True)),
        Mistake("LayerNorm gains initialised to 0",
                "A LayerNorm with gain 0 outputs only its bias: every sub-layer would see a "
                "constant input. Gains start at 1, biases at 0.",
                _init(ln_gain=0.0)),
        Mistake("generator re-seeded for every tensor",
                "Creating np.random.default_rng(seed) again for each tensor gives every tensor "
                "the same leading numbers, so the layers start as copies of each other. Create "
                "the generator once and draw everything from it.",
                _init(reseed=True)),
        Mistake("standard normal without the 0.02 scale",
                "rng.standard_normal gives std 1; GPT-2's weights start with std 0.02 "
                "(0.02 / sqrt(2 * n_layer) for the residual projections).",
                _init(std="unit")),
        Mistake("seed ignored",
                "init_gpt must be reproducible from its seed argument: the same seed gives the "
                "same arrays, another seed other arrays. Create the generator from the argument, "
                "np.random.default_rng(seed), not from a constant such as default_rng(0).",
                _init(source="fixed")),
        Mistake("generator not seeded",
                "np.random.default_rng() without an argument (like the global np.random functions "
                "without np.random.seed) draws new numbers on every call, so the same seed does not "
                "give the same model. Create the generator from the argument: "
                "np.random.default_rng(seed).",
                _init(source="entropy")),
    ],
    hints=(
        "Start from the table in the exercise: every key, its shape and how it starts. There "
        "are three kinds of tensor: random normal weights, biases that start at 0 and "
        "LayerNorm gains that start at 1. There is no head tensor: the head is tied to `wte`.",
        "Make one generator with `np.random.default_rng(seed)`, once, before any tensor, and "
        "draw every random tensor from it; a fresh generator per tensor makes the tensors "
        "repeat each other's numbers. `rng.standard_normal(shape)` has std 1: multiply it by "
        "the std you want.",
        "The std is 0.02 for `wte`, `wpe` and the `c_attn` and `c_fc` weights. Only the two "
        "residual projections, `attn.c_proj.weight` and `mlp.c_proj.weight`, get 0.02 divided "
        "by the square root of 2L (L = `config.n_layer`), because 2L branches add into the "
        "residual stream.",
        "The constants: `np.zeros` for every bias (the `c_attn` bias has length 3d, the "
        "`c_fc` bias 4d), `np.ones` for the `ln_1`, `ln_2` and `ln_f` gains. Everything must "
        "be float64, which `standard_normal`, `np.zeros` and `np.ones` give by default.",
        "Outline: (1) V, T, L and d from `config`; (2) one generator from `seed`; (3) a dict "
        "with `wte` `(V, d)` and `wpe` `(T, d)`, drawn first; (4) a loop over the layers that "
        "fills the twelve `h.{i}.` keys, drawing the four weights in table order (c_attn, "
        "attn.c_proj, c_fc, mlp.c_proj); (5) `ln_f.weight` and `ln_f.bias`. Any correct draws "
        "pass; drawing in this order also lets `check` name a mistake.",
    ),
))


# ------------------------------------------------------------------ gpt_logits
def _logits_args(rng, lead, T, V, block, L, d, h, dtype):
    config = GPTConfig(vocab_size=V, block_size=block, n_layer=L, n_embd=d, n_head=h)
    return {"P": random_params(rng, config, dtype),
            "idx": rng.integers(0, V, size=lead + (T,), dtype=np.int64), "n_head": h}


def _logits_public():
    rng = np.random.default_rng(5)
    return [Case(_logits_args(rng, (1,), 5, 13, 8, 2, 8, 2, np.float64)),
            Case(_logits_args(rng, (), 4, 10, 6, 1, 8, 4, np.float64)),
            # float32 parameters: the logits must be float32 too (no upcasting)
            Case(_logits_args(np.random.default_rng(51), (2,), 4, 11, 6, 2, 8, 2, np.float32))]


def _logits_hidden(rng):
    return [Case(_logits_args(rng, *spec)) for spec in
            [((2,), 7, 20, 8, 2, 16, 4, np.float64), ((3,), 9, 31, 12, 3, 12, 3, np.float64),
             ((), 6, 17, 6, 2, 8, 2, np.float64), ((2,), 5, 25, 10, 2, 16, 2, np.float32),
             ((1,), 16, 56, 16, 4, 24, 4, np.float64), ((2,), 3, 9, 3, 1, 8, 1, np.float64),
             # GPT-2 small's 12 blocks (narrow): layers ordered as strings ("0, 1, 10, 11, 2, ...") show
             ((1,), 4, 9, 6, 12, 8, 2, np.float64)]]


def gpt_logits_reference(P, idx, n_head):
    """The exercise's signature names the parameter dict P."""
    return ref.gpt_logits(P, idx, n_head)


def _logits(**flags):
    def variant(P, idx, n_head):
        return V.logits(P, idx, n_head, **flags)
    return variant


def _logits_piece(piece, name, rename=None, where=None, explanation=None, **flags):
    """A piece's mistake inside the model: ln= flags switch every LayerNorm, ln_f= the
    final one only, attn= and gelu_flags= every block's."""
    fix = None
    if where is None:
        where = f"the {V.LABELS[piece.name]} of every block that your model computes"
    elif "ln_f" in flags:
        fix = "call layer_norm for it, with ln_f.weight and ln_f.bias, or fix the lines that compute it"
    return V.inside(piece, name, "gpt_logits", _logits(**flags), rename=rename, where=where, fix=fix,
                    explanation=explanation)


register(Exercise(
    name="gpt_logits",
    lesson=LESSON,
    difficulty=2, importance=3, minutes=20,
    reference=gpt_logits_reference,
    public_cases=_logits_public,
    hidden_cases=_logits_hidden,
    uses=("embed", "layer_norm", "causal_self_attention", "gelu_tanh", "mlp", "block"),
    mistakes=[
        Mistake("final LayerNorm missing",
                "Pre-LN blocks leave the stream un-normalised, so GPT-2 applies one more "
                "LayerNorm (ln_f) after the last block, before the tied head.",
                _logits(final_ln=False)),
        Mistake("position embedding missing",
                "The stream starts as wte[idx] + wpe[:T] (your embed from lesson 01); without "
                "the position rows the model cannot tell the order of the tokens.",
                _logits(positions=False)),
        Mistake("every block given layer 0's parameters",
                "Block i must read h.{i}.*: pass the loop's layer index to block, not 0.",
                _logits(same_layer=True)),
        Mistake("last block skipped",
                "Run every block: layers 0 to n_layer - 1 (count the keys ending in "
                "'.ln_1.weight'), range(n_layer) and not range(n_layer - 1).",
                _logits(skip_last=True)),
        _logits_piece(LAYER_NORM, "sample variance (ddof=1) instead of the population variance",
                      where="every LayerNorm of your model (the blocks' and the final one)",
                      ln={"ddof": 1}),
        _logits_piece(LAYER_NORM, "sample variance (ddof=1) instead of the population variance",
                      rename="final LayerNorm with the sample variance (ddof=1)",
                      where="the final LayerNorm (ln_f) that your gpt_logits computes",
                      ln_f={"ddof": 1}),
        _logits_piece(LAYER_NORM, "epsilon added outside the square root",
                      rename="final LayerNorm with epsilon outside the square root",
                      where="the final LayerNorm (ln_f) that your gpt_logits computes",
                      ln_f={"eps_inside": False}),
        _logits_piece(ATTENTION, "no causal mask", attn={"mask": None}),
        _logits_piece(ATTENTION, "scores scaled by sqrt(d) instead of sqrt(d_k)", attn={"scale": "d"}),
        _logits_piece(ATTENTION, "head split by reshape without transpose",
                      attn={"split_transpose": False, "merge_transpose": False}),
        _logits_piece(ATTENTION, "heads merged by reshape without transpose", attn={"merge_transpose": False}),
        _logits_piece(ATTENTION, SPLIT_ONLY,
                      attn={"split_transpose": False}),
        _logits_piece(GELU, "exact GELU instead of the tanh approximation", gelu_flags={"form": "erf"},
                      where="the GELU of every block's MLP that your model computes"),
    ],
    hints=(
        "The forward pass is the earlier lessons in order: the embeddings, every block, one "
        "final LayerNorm and the tied head. You write no new layer, only the glue: `embed`, "
        "`block` and `layer_norm` are supplied while checking.",
        "The number of layers is not an argument: count the keys of `P` that end in "
        "`.ln_1.weight` (one per block). Run the blocks in order, 0 to n_layer - 1, each with "
        "its own layer index and each reading the previous block's output. A Python loop over "
        "the layers is fine.",
        "Start the stream with `embed`, giving it the two tables `P['wte']` and `P['wpe']` and "
        "the ids: token plus position rows, `(T, d)` or `(B, T, d)`, with the block-size check "
        "included. After the last block apply the final LayerNorm with `ln_f.weight` and "
        "`ln_f.bias`: pre-LN blocks leave the stream un-normalised.",
        "The head is tied: there is no separate output matrix. Multiply the normalised stream "
        "by the transpose of `wte`, `(d, V)`, to get `(T, V)` or `(B, T, V)` logits. Every "
        "piece keeps the parameters' dtype, so convert nothing: float32 parameters must give "
        "float32 logits.",
        "Outline: (1) n_layer from the keys; (2) the stream from `embed`; (3) for each layer "
        "index in turn, pass the stream, `P`, the index and `n_head` to `block` and keep its "
        "output as the new stream; (4) `layer_norm` with the `ln_f` weight and bias; (5) the "
        "logits are that times the transpose of `P['wte']`.",
    ),
))


# ------------------------------------------------------------------ tied_lm_loss_and_grad
# A miniature tied language model, the smallest model with both gradient paths of
# a tied embedding:
#     X = E[idx]  (the lookup),  H = tanh(X @ A),  Z = H @ E.T  (the tied head),
#     loss = mean over all positions of -log softmax(Z)[target].
# dE is the sum of the output path (dZ^T H) and the input path (dX scattered back
# into the looked-up rows, accumulating repeated ids). The reference lives here,
# with the hidden tests, rather than in gpt2course/, which ships to learners.
def _log_softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def tied_lm_reference(E, A, idx, targets, *, output=True, inputs=True, accumulate=True,
                      tanh_grad=True, mean=True):
    """(loss, dE) for the miniature tied model; arithmetic stays in E's dtype.

    The keyword flags each switch off one part of the computation; the
    catalogued mistakes below are this function with one flag turned off.
    """
    V, d = E.shape
    H = np.tanh(E[idx] @ A)
    logp = _log_softmax(H @ E.T)
    picked = -np.take_along_axis(logp, targets[..., None], axis=-1)
    loss = picked.mean() if mean else picked.sum()
    n = targets.size
    dZ = np.exp(logp).reshape(n, V)                 # softmax probabilities
    dZ[np.arange(n), targets.reshape(n)] -= 1.0     # minus the one-hot targets
    if mean:
        dZ /= n                                     # the loss is a mean
    Hf = H.reshape(n, d)
    dE = dZ.T @ Hf if output else np.zeros_like(E)  # output path
    dH = dZ @ E                                     # back through the head
    dX = (dH * (1.0 - Hf * Hf) if tanh_grad else dH) @ A.T
    if inputs:                                      # input path
        if accumulate:
            np.add.at(dE, idx.reshape(n), dX)
        else:
            dE[idx.reshape(n)] += dX                # keeps one write per repeated id
    return loss, dE


def _tied_args(rng, lead, T, V, d, dtype, repeat=True):
    idx = rng.integers(0, V, size=lead + (T,), dtype=np.int64)
    if repeat:  # make sure at least one id occurs twice
        idx.flat[-1] = idx.flat[0]
    return {"E": (0.7 * rng.standard_normal((V, d))).astype(dtype),
            "A": (rng.standard_normal((d, d)) / math.sqrt(d)).astype(dtype),
            "idx": idx, "targets": rng.integers(0, V, size=lead + (T,), dtype=np.int64)}


def _tied_public():
    rng = np.random.default_rng(6)
    return [Case(_tied_args(rng, (), 5, 7, 3, np.float64)),
            Case(_tied_args(rng, (2,), 4, 10, 4, np.float64)),
            # float32 E and A: dE must keep float32 (no upcasting)
            Case(_tied_args(np.random.default_rng(61), (2,), 5, 8, 4, np.float32))]


def _tied_hidden(rng):
    return [Case(_tied_args(rng, *spec)) for spec in
            [((3,), 8, 12, 5, np.float64), ((), 20, 30, 6, np.float64), ((2,), 10, 56, 8, np.float64),
             ((4,), 6, 9, 3, np.float32), ((2,), 16, 40, 16, np.float64), ((1,), 12, 6, 4, np.float32)]]


def _tied_no_output(E, A, idx, targets):
    return tied_lm_reference(E, A, idx, targets, output=False)


def _tied_no_input(E, A, idx, targets):
    return tied_lm_reference(E, A, idx, targets, inputs=False)


def _tied_assigned(E, A, idx, targets):
    return tied_lm_reference(E, A, idx, targets, accumulate=False)


def _tied_no_tanh_grad(E, A, idx, targets):
    return tied_lm_reference(E, A, idx, targets, tanh_grad=False)


def _tied_summed(E, A, idx, targets):
    return tied_lm_reference(E, A, idx, targets, mean=False)


def _tied_float(E, A, idx, targets):
    loss, dE = tied_lm_reference(E, A, idx, targets)
    return float(loss), dE


register(Exercise(
    name="tied_lm_loss_and_grad",
    lesson=LESSON,
    difficulty=3, importance=2, minutes=45,
    reference=tied_lm_reference,
    public_cases=_tied_public,
    hidden_cases=_tied_hidden,
    mistakes=[
        Mistake("tied gradient missing the output path",
                "E is also the output head (Z = H @ E.T), so dE includes dZ^T @ H, summed over "
                "every position: every row gets gradient, not only the looked-up ones.",
                _tied_no_output),
        Mistake("tied gradient missing the input path",
                "E is also the input table (X = E[idx]): the gradient with respect to X, brought "
                "back through tanh and A, must be added to the rows that were looked up.",
                _tied_no_input),
        Mistake("repeated ids assigned instead of accumulated",
                "dE[idx] += dX keeps only one write per row when an id occurs more than once. "
                "Accumulate with np.add.at(dE, idx.ravel(), dX.reshape(-1, d)).",
                _tied_assigned),
        Mistake("tanh derivative missing",
                "H = tanh(X @ A), so on the way back multiply by 1 - H**2 before going through A.",
                _tied_no_tanh_grad),
        Mistake("loss summed instead of averaged",
                "The loss is the mean over all positions (B * T of them), and so is its gradient: "
                "divide by the number of positions.",
                _tied_summed),
        # The course's one rule for a loss (lesson 08's cross_entropy too): a NumPy scalar of the
        # inputs' dtype, as NumPy's mean gives it (compare._scalar_type_mismatch checks it).
        Mistake("loss returned as a Python float",
                "float(...) turns NumPy's float32 or float64 into a Python float: return the NumPy "
                "result as it is (the mean of a float32 array is a float32).",
                _tied_float),
    ],
    hints=(
        "Write the forward pass first, keeping every intermediate you will need on the way "
        "back: X = E[idx], H = tanh(X A), Z = H E^T, then the mean cross-entropy. Then go "
        "backwards. E appears twice (the lookup and the head), so dE is the sum of two "
        "contributions.",
        "Flatten the positions: with n the number of positions (`targets.size`), treat H as "
        "`(n, d)` and Z as `(n, V)`, and `(T,)` and `(B, T)` inputs become the same problem. "
        "Take the log-softmax stably (subtract each row's maximum, then the log of the summed "
        "exponentials); the loss is minus the mean of the log-probabilities at the targets, "
        "given back as the NumPy scalar that `.mean()` gives, in E's dtype (no `float(...)`).",
        "The gradient of the mean cross-entropy with respect to Z is the softmax "
        "probabilities minus the one-hot targets, divided by n: start from the probabilities, "
        "subtract 1 at each position's target (integer indexing with row numbers and target "
        "ids), and divide by the number of positions, since the loss is a mean, not a sum.",
        "Head path: from Z = H E^T, dE gets dZ^T times H, `(V, d)`, which reaches every row. "
        "Lookup path: dH is dZ times E; through the tanh multiply by 1 - H**2; through A "
        "multiply by A^T to get dX, `(n, d)`; then add row k of dX to row idx[k] of dE. Ids "
        "repeat, so scatter with `np.add.at`: `dE[idx] += dX` keeps only one write per "
        "repeated id.",
        "Outline: (1) V, d and n; (2) H from the lookup, A and the tanh, as `(n, d)`; (3) the "
        "logits, a stable log-softmax and the loss; (4) dZ, the probabilities minus the "
        "one-hot targets, over n; (5) dE from the head path; (6) dX back through E, the tanh "
        "derivative and A^T; (7) `np.add.at` into dE at the flattened ids; (8) give back the "
        "loss as NumPy's scalar (E's dtype, no `float`) and dE in E's shape and dtype. Python "
        "numbers such as 1.0 and n keep float32 arrays float32.",
    ),
    returns=("loss", "dE"),
))

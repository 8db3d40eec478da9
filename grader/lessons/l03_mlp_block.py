"""Lesson 03: the tanh GELU, the MLP and the pre-LN block."""
from __future__ import annotations

import math

import numpy as np

from gpt2course import numpy_gpt as ref
from gpt2course.config import GPTConfig

from ..judging.registry import Case, Exercise, Mistake, register
from . import _variants as V
from .l02_attention import ATTENTION, LAYER_NORM, SPLIT_ONLY

LESSON = "03_mlp_block"


# ------------------------------------------------------------------ gelu_tanh
def _gelu_public():
    return [Case({"x": np.linspace(-4.0, 4.0, 17)}),
            Case({"x": np.array([[-3.0, -1.0, -0.5], [0.0, 0.5, 3.0]], dtype=np.float32)})]


def _gelu_hidden(rng):
    cases = []
    for shape, dtype, scale in [((200,), np.float64, 3.0), ((4, 50), np.float64, 2.0),
                                ((2, 8, 16), np.float64, 4.0), ((3, 7), np.float32, 2.0),
                                ((2, 5, 12), np.float32, 3.0), ((64,), np.float64, 1.0)]:
        cases.append(Case({"x": (rng.standard_normal(shape) * scale).astype(dtype)}))
    return cases


def _gelu(**flags):
    def variant(x):
        return V.gelu(x, **flags)
    return variant


UPCAST = "float32 input upcast to float64"

GELU = register(Exercise(
    name="gelu_tanh",
    lesson=LESSON,
    difficulty=1, importance=3, minutes=10,
    reference=ref.gelu_tanh,
    public_cases=_gelu_public,
    hidden_cases=_gelu_hidden,
    mistakes=[
        Mistake("exact GELU instead of the tanh approximation",
                "x * Phi(x) with erf is the 'exact' GELU; GPT-2 was trained with the tanh "
                "approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). They differ by "
                "less than 1e-3, which is still far more than the released weights tolerate.",
                _gelu(form="erf")),
        Mistake("sigmoid approximation x * sigmoid(1.702 x)",
                "x * sigmoid(1.702 x) is another GELU approximation (the 'quick GELU'), not the "
                "one GPT-2 uses: use 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).",
                _gelu(form="sigmoid")),
        Mistake("cubic term missing inside the tanh",
                "The argument of tanh is sqrt(2/pi) * (x + 0.044715 * x * x * x); without the cubic "
                "term the curve bends at the wrong place.",
                _gelu(cube=False)),
        Mistake(UPCAST,
                "Something computed in float64 turned the float32 array into float64: a NumPy float64 "
                "constant such as np.sqrt(2 / np.pi) (NumPy 2 lets such a scalar upcast an array), or a "
                "float64 helper such as np.vectorize(math.erf). Use Python floats for constants "
                "(math.sqrt(2 / math.pi)) and give the answer the input's dtype.",
                _gelu(numpy_constant=True)),
    ],
    hints=(
        "It is one elementwise formula, so there are no axes or shapes to think about: any "
        "shape in, the same shape out. Write exactly the formula of the exercise text, the "
        "tanh approximation GPT-2 was trained with, not the erf-based exact GELU nor the "
        "sigmoid 'quick GELU'.",
        "`np.tanh` works elementwise on arrays of any shape. Inside the tanh, the square root "
        "of 2/pi multiplies a bracket that holds x plus 0.044715 times x cubed: the cubic "
        "term belongs inside the tanh.",
        "Keep float32 inputs float32: compute the square root of 2/pi as a Python float with "
        "`math.sqrt` and `math.pi`. `np.sqrt(2 / np.pi)` returns a NumPy float64 scalar, and "
        "NumPy 2 lets such a scalar turn a float32 array into float64.",
        "Outline: (1) the constant c, the square root of 2/pi, as a Python float; (2) the "
        "argument of the tanh, c times (x plus 0.044715 times the cube of x); (3) one half "
        "of x times (1 plus the tanh of that argument). Sanity check: the result is close to "
        "x for large positive x, close to 0 for large negative x, and has `x`'s dtype.",
    ),
))


# ------------------------------------------------------------------ mlp
def _mlp_args(rng, lead, d, dtype, width=None):
    width = width or 4 * d
    return {"x": rng.standard_normal(lead + (d,)).astype(dtype),
            "w_fc": (rng.standard_normal((d, width)) / math.sqrt(d)).astype(dtype),
            "b_fc": (0.5 * rng.standard_normal(width)).astype(dtype),
            "w_proj": (rng.standard_normal((width, d)) / math.sqrt(width)).astype(dtype),
            "b_proj": (0.5 * rng.standard_normal(d)).astype(dtype)}


def _mlp_public():
    rng = np.random.default_rng(3)
    return [Case(_mlp_args(rng, (5,), 4, np.float64)),
            Case(_mlp_args(rng, (2, 3), 8, np.float32))]


def _mlp_hidden(rng):
    return [Case(_mlp_args(rng, lead, d, dtype)) for lead, d, dtype in
            [((2, 7), 16, np.float64), ((9,), 8, np.float64), ((3, 4), 12, np.float32),
             ((1, 10), 32, np.float64), ((2, 2, 5), 6, np.float64), ((6,), 64, np.float32)]]


def _mlp(**flags):
    def variant(x, w_fc, b_fc, w_proj, b_proj):
        return V.mlp(x, w_fc, b_fc, w_proj, b_proj, **flags)
    return variant


def _mlp_gelu(name, **gelu_flags):
    """The MLP with its GELU's flags switched: gelu_tanh's mistake, named in mlp."""
    return V.inside(GELU, name, "mlp", _mlp(gelu_flags=gelu_flags))


register(Exercise(
    name="mlp",
    lesson=LESSON,
    difficulty=1, importance=3, minutes=10,
    reference=ref.mlp,
    public_cases=_mlp_public,
    hidden_cases=_mlp_hidden,
    uses=("gelu_tanh",),
    mistakes=[
        Mistake("bias of the down-projection missing",
                "Both layers of GPT-2's MLP have a bias: ... @ w_proj + b_proj.",
                _mlp(out_bias=False)),
        Mistake("bias of the up-projection missing",
                "Both layers of GPT-2's MLP have a bias: the GELU reads x @ w_fc + b_fc.",
                _mlp(in_bias=False)),
        Mistake("GELU after the down-projection instead of between the layers",
                "The nonlinearity sits in the middle, on the 4d-wide hidden layer: "
                "gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj. The output goes straight into "
                "the residual stream.",
                _mlp(gelu_last=True)),
        Mistake("ReLU instead of GELU",
                "GPT-2's MLP uses the tanh GELU (your gelu_tanh), not max(0, x).",
                _mlp(relu=True)),
        _mlp_gelu("exact GELU instead of the tanh approximation", form="erf"),
        _mlp_gelu("sigmoid approximation x * sigmoid(1.702 x)", form="sigmoid"),
        _mlp_gelu("cubic term missing inside the tanh", cube=False),
        _mlp_gelu(UPCAST, numpy_constant=True),
    ],
    hints=(
        "The MLP is two affine layers with your `gelu_tanh` between them: widen from d to 4d, "
        "apply the nonlinearity, project back to d. Where exactly does the GELU sit, and what "
        "does each layer add after its product?",
        "The weights are in the Conv1D layout `(in, out)`, so multiply on the right: `x` times "
        "`w_fc` has shape `(..., 4d)`. The `@` operator treats the leading axes as a batch, "
        "so `(T, d)` and `(B, T, d)` need no special handling.",
        "Both layers have a bias: `b_fc`, `(4d,)`, after the first product and `b_proj`, "
        "`(d,)`, after the second. The GELU is applied to the 4d-wide hidden layer (after "
        "adding `b_fc`), not to the output, and it is `gelu_tanh`, not a ReLU such as "
        "`np.maximum` with 0.",
        "Outline: (1) the hidden layer, `x` times `w_fc` plus `b_fc`, shape `(..., 4d)`; (2) "
        "`gelu_tanh` of it (supplied while checking); (3) that times `w_proj` plus `b_proj`, "
        "shape `(..., d)`. There are no constants to write, so float32 stays float32 by "
        "itself.",
    ),
))


# ------------------------------------------------------------------ block
def random_params(rng, config: GPTConfig, dtype=np.float64) -> dict:
    """Parameters with every tensor non-trivial (LayerNorm gains and biases too), scaled
    so that activations stay O(1): a bug in any tensor's use shows up in the output."""
    params = {}
    for name, shape in ref.param_shapes(config).items():
        if name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name == "ln_f.weight":
            t = 1.0 + 0.3 * rng.standard_normal(shape)
        elif name.endswith(".bias") or ".ln_" in name or name.startswith("ln_f"):
            t = 0.3 * rng.standard_normal(shape)
        elif name in ("wte", "wpe"):
            t = rng.standard_normal(shape)
        else:
            t = rng.standard_normal(shape) / math.sqrt(shape[0])
        params[name] = t.astype(dtype)
    return params


def _block_args(rng, lead, T, d, n_head, n_layer, layer, dtype):
    config = GPTConfig(vocab_size=11, block_size=max(T, 1), n_layer=n_layer, n_embd=d, n_head=n_head)
    return {"x": rng.standard_normal(lead + (T, d)).astype(dtype),
            "params": random_params(rng, config, dtype),
            "layer": layer, "n_head": n_head}


def _block_public():
    rng = np.random.default_rng(4)
    return [Case(_block_args(rng, (1,), 4, 8, 2, 1, 0, np.float64)),
            Case(_block_args(rng, (), 5, 8, 2, 2, 1, np.float64)),
            # float32 parameters and stream: the block must keep float32
            Case(_block_args(np.random.default_rng(41), (2,), 3, 8, 2, 2, 1, np.float32))]


def _block_hidden(rng):
    return [Case(_block_args(rng, lead, T, d, h, L, layer, dtype)) for lead, T, d, h, L, layer, dtype in
            [((2,), 6, 16, 4, 2, 0, np.float64), ((3,), 5, 12, 3, 3, 2, np.float64),
             ((), 9, 8, 1, 2, 1, np.float64), ((2,), 7, 16, 2, 1, 0, np.float32),
             ((1,), 12, 24, 6, 4, 3, np.float64), ((2,), 4, 8, 4, 2, 1, np.float32)]]


def _block(**flags):
    def variant(x, params, layer, n_head):
        return V.block(x, params, layer, n_head, **flags)
    return variant


def _block_piece(piece, name, where=None, explanation=None, **flags):
    """A piece's mistake inside the block: ln= flags switch both LayerNorms, attn= the
    attention's, gelu_flags= the MLP's GELU."""
    return V.inside(piece, name, "block", _block(**flags), where=where, explanation=explanation)


register(Exercise(
    name="block",
    lesson=LESSON,
    difficulty=2, importance=3, minutes=25,
    reference=ref.block,
    public_cases=_block_public,
    hidden_cases=_block_hidden,
    uses=("layer_norm", "causal_self_attention", "gelu_tanh", "mlp"),
    mistakes=[
        Mistake("post-LN instead of pre-LN",
                "GPT-2 normalises the input of each sub-layer and adds the result to the "
                "untouched stream: x = x + attn(ln_1(x)); x = x + mlp(ln_2(x)). Normalising after "
                "the addition (GPT-1, the original Transformer) is a different model.",
                _block(pre_ln=False)),
        Mistake("residual addition around the MLP missing",
                "A block has two residual additions: the MLP's output is added to the stream "
                "(x + mlp(ln_2(x))), it does not replace it.",
                _block(mlp_residual=False)),
        # The MLP's sibling, for the other sub-layer (issue 27: a neighbour's mistake named
        # wherever it applies).
        Mistake("residual addition around the attention missing",
                "A block has two residual additions: the attention's output is added to the "
                "stream (x = x + attn(ln_1(x))), it does not replace it; the MLP then reads that sum.",
                _block(attn_residual=False)),
        Mistake("ln_1's parameters used for the second LayerNorm",
                "Each LayerNorm has its own gain and bias: the MLP's input is normalised with "
                "h.{layer}.ln_2.weight and h.{layer}.ln_2.bias.",
                _block(ln_2="ln_1")),
        Mistake("attention and MLP both read the block's input",
                "The MLP reads the stream after the attention output has been added to it: "
                "update x after attention, then compute x + mlp(ln_2(x)) from the new x.",
                _block(sequential=False)),
        _block_piece(LAYER_NORM, "sample variance (ddof=1) instead of the population variance",
                     ln={"ddof": 1}),
        _block_piece(LAYER_NORM, "epsilon added outside the square root", ln={"eps_inside": False}),
        _block_piece(ATTENTION, "no causal mask", attn={"mask": None}),
        _block_piece(ATTENTION, "scores scaled by sqrt(d) instead of sqrt(d_k)", attn={"scale": "d"}),
        _block_piece(ATTENTION, "head split by reshape without transpose",
                     attn={"split_transpose": False, "merge_transpose": False}),
        _block_piece(ATTENTION, "heads merged by reshape without transpose",
                     attn={"merge_transpose": False}),
        _block_piece(ATTENTION, SPLIT_ONLY,
                     attn={"split_transpose": False}),
        _block_piece(GELU, "exact GELU instead of the tanh approximation", gelu_flags={"form": "erf"},
                     where="the GELU of the MLP that your block computes"),
    ],
    hints=(
        "GPT-2's block is pre-LN: each sub-layer reads a LayerNorm of the stream, and its "
        "output is added back to the stream it came from. There are two such steps, attention "
        "first and then the MLP, each with its own residual addition.",
        "Use only this layer's weights: their keys start with `h.{layer}.` (build them with an "
        "f-string from `layer`). A small helper that turns a suffix such as `ln_1.weight` into "
        "the tensor saves typing. Attention takes `attn.c_attn.*` and `attn.c_proj.*` plus "
        "`n_head`; `mlp` takes `mlp.c_fc.*` and `mlp.c_proj.*`.",
        "Each LayerNorm has its own gain and bias: `ln_1` before attention, `ln_2` before the "
        "MLP. The MLP reads the stream *after* the attention output has been added to it, not "
        "the block's input, and its output is added to that stream, it does not replace it.",
        "Do not normalise after the additions (that is post-LN, a different model). Make a new "
        "array for the updated stream instead of an in-place `+=` on `x`, which would change "
        "the caller's array. The pieces `layer_norm`, `causal_self_attention` and `mlp` are "
        "supplied while checking.",
        "Outline: (1) `layer_norm` of `x` with ln_1's weight and bias; (2) the stream becomes "
        "`x` plus `causal_self_attention` of that, with c_attn's and attn.c_proj's weights and "
        "biases and `n_head`; (3) `layer_norm` of the new stream with ln_2's; (4) the answer "
        "is the new stream plus `mlp` of that, with c_fc's and mlp.c_proj's weights and "
        "biases. Shapes stay `(..., T, d)` and the dtype stays `x`'s throughout.",
    ),
))

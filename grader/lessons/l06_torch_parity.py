"""Lesson 06: PyTorch parity and the released checkpoint (loading weights by name).

Both exercises are graded as plain data. ``model`` is the PyTorch module's
parameters as {name: array} (what ``{n: p.detach().numpy() for n, p in
model.named_parameters()}`` gives: the tied head counted once, under
transformer.wte.weight), and the answer is the new {name: array} to copy into
it. So the cases cross the batch grader's process boundary as NumPy arrays,
and a separate head copy or a kept buffer shows up as an unexpected key.
"""
from __future__ import annotations

import numpy as np

from gpt2course import state_dicts
from gpt2course import numpy_gpt as ref
from gpt2course.config import GPTConfig

from ..judging.registry import Case, Exercise, Mistake, register
from .l03_mlp_block import random_params

LESSON = "06_torch_parity"


def module_shapes(config: GPTConfig) -> dict[str, tuple[int, ...]]:
    """The GPT module's named_parameters() shapes: nn.Linear weights are (out, in)."""
    return {state_dicts.module_name(k): (s[::-1] if state_dicts.is_linear_weight(k) else s)
            for k, s in ref.param_shapes(config).items()}


def _model(rng, config: GPTConfig, dtype) -> dict[str, np.ndarray]:
    """The module's current parameters: random, so returning them unchanged is wrong."""
    return {k: rng.standard_normal(s).astype(dtype) for k, s in module_shapes(config).items()}


def hf_state_dict(params: dict, buffers: bool, head: bool = True) -> dict[str, np.ndarray]:
    """A Hugging Face-style state dict (Conv1D layout) holding the course's params."""
    sd = {state_dicts.module_name(k): v for k, v in params.items()}
    if head:
        sd["lm_head.weight"] = params["wte"].copy()
    if buffers:
        T = params["wpe"].shape[0]
        layers = {k.split(".")[1] for k in params if k.startswith("h.")}
        for i in sorted(layers, key=int):
            sd[f"transformer.h.{i}.attn.bias"] = np.tril(np.ones((T, T), params["wte"].dtype))[None, None]
            sd[f"transformer.h.{i}.attn.masked_bias"] = np.asarray(-1e4, params["wte"].dtype)
    return sd


# ------------------------------------------------------------------ the reference, with flags
def load_by_name(model, source, *, transpose="linear", head="tied", buffers="skip", cast=True):
    """{module name: array} for ``model`` from ``source`` (module names, Conv1D layout).

    The catalogued mistakes are this function with one flag switched:
    transpose "none" | "not_square" (the square attn.c_proj forgotten) | "all";
    head "copy" (an lm_head.weight of its own, from wte) | "keep" (the source's
    lm_head.weight kept, where it has one); buffers "keep" | "no_dot" (every key
    ending in "attn.bias" skipped, c_attn.bias with the buffers); cast=False: the source's dtype kept.
    """
    source = dict(source)
    if buffers == "skip":
        source = {k: v for k, v in source.items() if not state_dicts._BUFFER.search(k)}
    elif buffers == "no_dot":
        source = {k: v for k, v in source.items() if not k.endswith(("attn.bias", "attn.masked_bias"))}
    wte = "transformer.wte.weight"
    tied = source.pop("lm_head.weight", None)
    if tied is not None and wte in source and not np.array_equal(tied, source[wte]):
        raise ValueError("lm_head.weight differs from transformer.wte.weight: the head is not tied")
    missing = [k for k in model if k not in source]
    unexpected = [k for k in source if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = source[name]
        flip = {"linear": state_dicts.is_linear_weight(name), "none": False, "all": value.ndim == 2,
                "not_square": state_dicts.is_linear_weight(name) and not name.endswith("attn.c_proj.weight")}
        if flip[transpose]:
            value = value.T  # (in, out) -> (out, in)
        if value.shape != target.shape:
            raise ValueError(f"shape mismatch for {name}: got {value.shape}, the model needs {target.shape}")
        out[name] = value.astype(target.dtype) if cast else value.copy()
    if head == "copy" or (head == "keep" and tied is not None):
        out["lm_head.weight"] = out[wte].copy()
    return out


def numpy_to_torch_reference(P, model, **flags):
    return load_by_name(model, {state_dicts.module_name(k): v for k, v in P.items()}, **flags)


def load_hf_state_dict_reference(model, state_dict, **flags):
    return load_by_name(model, state_dict, **flags)


def _variant(reference, **flags):
    def variant(**kwargs):
        return reference(**kwargs, **flags)
    return variant


def _mistakes(reference, buffers: bool) -> list[Mistake]:
    out = [
        Mistake("Conv1D weights not transposed",
                "The checkpoint stores c_attn, attn.c_proj, c_fc and mlp.c_proj as (in, out); "
                "nn.Linear keeps its weight as (out, in). Transpose exactly these four weights.",
                _variant(reference, transpose="none")),
        Mistake("square attention c_proj not transposed",
                "attn.c_proj.weight is (d, d): copied without the transpose its shape still fits, "
                "nothing raises, and the model is silently wrong. It is a Conv1D weight like c_attn, "
                "c_fc and mlp.c_proj, and needs the same transpose.",
                _variant(reference, transpose="not_square")),
        Mistake("embeddings transposed too",
                "Only the four Conv1D weights change layout. wte (V, d) and wpe (T, d) are "
                "nn.Embedding tables with the same layout in both: copy them as they are.",
                _variant(reference, transpose="all")),
        Mistake("head loaded as a separate copy",
                "The head is tied: lm_head.weight is the same tensor as transformer.wte.weight, so "
                "the module's parameters list it once, under transformer.wte.weight. Give no "
                "lm_head.weight of its own: a copy would drift apart from wte in training.",
                _variant(reference, head="copy")),
    ]
    if buffers:
        out.append(Mistake(
            "attention buffers not skipped",
            "Keys ending in .attn.bias and .attn.masked_bias are the causal mask, stored as buffers "
            "by older checkpoints: they are not parameters. Skip them before comparing keys.",
            _variant(reference, buffers="keep")))
        out.append(Mistake(
            "the state dict's lm_head.weight kept",
            "lm_head.weight is the tied head, the same tensor as transformer.wte.weight: the module lists it "
            "once, under transformer.wte.weight. Drop it from the state dict like the buffers, and give no "
            "lm_head.weight: a copy would drift apart from wte in training.",
            _variant(reference, head="keep")))
        out.append(Mistake(
            "arrays left in the state dict's dtype",
            "A checkpoint is often stored in another dtype than the model's (float32 weights into a float64 "
            "model): give each array the dtype of model[name] with astype.",
            _variant(reference, cast=False)))
        out.append(Mistake(
            "c_attn.bias skipped with the buffers",
            "Every key ending in \"attn.bias\" includes the parameter attn.c_attn.bias: skip the keys "
            "ending in \".attn.bias\" or \".attn.masked_bias\", with the dot, which only the mask buffers "
            "do.", _variant(reference, buffers="no_dot")))
    return out


# ------------------------------------------------------------------ cases
SQUARE = GPTConfig(vocab_size=8, block_size=8, n_layer=1, n_embd=8, n_head=2)  # wte, wpe square


def _numpy_args(rng, config, dtype, drop=None, extra=None, resize=None):
    P = random_params(rng, config, dtype)
    model = _model(rng, config, dtype)
    if drop:
        del P[drop]
    if extra:
        P[extra] = rng.standard_normal(4).astype(dtype)
    if resize:
        P[resize] = np.concatenate([P[resize], P[resize][:3]])
    return {"P": P, "model": model}


def _hf_args(rng, config, dtype, buffers=True, head=True, drop=None, extra=None, resize=None, stored=None):
    """stored: the state dict's dtype when it is not the model's."""
    sd = hf_state_dict(random_params(rng, config, stored or dtype), buffers, head)
    model = _model(rng, config, dtype)
    if drop:
        del sd[drop]
    if extra:
        sd[extra] = rng.standard_normal(4).astype(dtype)
    if resize:
        sd[resize] = np.concatenate([sd[resize], sd[resize][:3]])
    return {"model": model, "state_dict": sd}


def _raising(args, about, *mention):
    return Case(args, raises="ValueError", mention=mention, about=about)


C1 = GPTConfig(vocab_size=13, block_size=6, n_layer=2, n_embd=8, n_head=2)


def _numpy_public():
    rng = np.random.default_rng(60)
    return [Case(_numpy_args(rng, C1, np.float64)),
            Case(_numpy_args(rng, SQUARE, np.float64), about="a model whose tables wte and wpe are square"),
            # float32: the arrays keep the model's float32
            Case(_numpy_args(rng, C1, np.float32)),
            _raising(_numpy_args(rng, C1, np.float64, drop="h.1.mlp.c_fc.bias"),
                     "a parameter dict without h.1.mlp.c_fc.bias", "mlp.c_fc.bias"),
            _raising(_numpy_args(rng, C1, np.float64, resize="wpe"),
                     "a position table with 9 rows for a model of block size 6", "wpe", "9")]


def _numpy_hidden(rng):
    cases = [Case(_numpy_args(rng, GPTConfig(*spec[:5]), spec[5])) for spec in
             [(20, 7, 3, 12, 3, np.float64), (9, 9, 2, 9, 3, np.float64), (31, 5, 1, 16, 4, np.float32),
              (16, 16, 1, 16, 4, np.float64), (50, 12, 4, 8, 1, np.float64)]]
    return cases + [
        _raising(_numpy_args(rng, C1, np.float64, extra="h.2.ln_1.weight"),
                 "a parameter dict with a layer the model does not have", "h.2.ln_1.weight"),
        _raising(_numpy_args(rng, C1, np.float64, resize="h.0.attn.c_attn.bias"),
                 "a c_attn bias of the wrong length", "attn.c_attn.bias")]


def _hf_public():
    rng = np.random.default_rng(61)
    return [Case(_hf_args(rng, C1, np.float64), about="a state dict with the attention buffers"),
            Case(_hf_args(rng, SQUARE, np.float64, buffers=False), about="square wte and wpe, no buffers"),
            Case(_hf_args(rng, C1, np.float32, head=False)),
            Case(_hf_args(rng, C1, np.float64, stored=np.float32), about="a float32 state dict for a float64 model"),
            _raising(_hf_args(rng, C1, np.float64, drop="transformer.h.0.ln_2.bias"),
                     "a state dict without transformer.h.0.ln_2.bias", "h.0.ln_2.bias"),
            _raising(_hf_args(rng, C1, np.float64, extra="transformer.h.0.attn.c_attn.scale"),
                     "a state dict with an unknown key", "c_attn.scale"),
            _raising(_hf_args(rng, C1, np.float64, resize="transformer.h.1.mlp.c_proj.weight"),
                     "an mlp.c_proj weight with 35 rows", "h.1.mlp.c_proj.weight", "35")]


def _hf_hidden(rng):
    cases = [Case(_hf_args(rng, GPTConfig(*spec[:5]), spec[5], buffers=spec[6])) for spec in
             [(20, 7, 3, 12, 3, np.float64, True), (9, 9, 2, 9, 3, np.float64, False),
              (31, 5, 1, 16, 4, np.float32, True), (16, 16, 1, 16, 4, np.float64, True),
              (50, 12, 4, 8, 1, np.float64, False)]]
    cases.append(Case(_hf_args(rng, GPTConfig(24, 10, 2, 12, 3), np.float32, stored=np.float64),
                      about="a float64 state dict for a float32 model"))
    return cases + [
        _raising(_hf_args(rng, C1, np.float64, drop="transformer.wpe.weight"),
                 "a state dict without the position table", "wpe"),
        _raising(_hf_args(rng, C1, np.float64, extra="transformer.h.7.ln_1.weight"),
                 "a state dict with a layer the model does not have", "h.7.ln_1.weight")]


RULES_HINT = ("Go over the model's names (the keys of `model`): each needs a tensor from the source, "
              "and every tensor of the source, once the exceptions are set aside, must be used.")

register(Exercise(
    name="numpy_to_torch",
    lesson=LESSON,
    difficulty=2, importance=2, minutes=25,
    reference=numpy_to_torch_reference,
    public_cases=_numpy_public,
    hidden_cases=_numpy_hidden,
    mistakes=_mistakes(numpy_to_torch_reference, buffers=False),
    hints=(
        "The module's names are the course's names with `transformer.` in front, and the two "
        "tables gain `.weight`: `wte` becomes `transformer.wte.weight`. " + RULES_HINT,
        "Only four kinds of tensor change layout: the weights of `attn.c_attn`, `attn.c_proj`, "
        "`mlp.c_fc` and `mlp.c_proj`, which the course stores `(in, out)` and nn.Linear stores "
        "`(out, in)`. Biases, LayerNorm parameters and the two embedding tables are copied as they are.",
        "`attn.c_proj.weight` is `(d, d)`: its shape fits with or without the transpose, so the "
        "shape check cannot catch a missing one. Decide by name, with `str.endswith`, not by shape.",
        "The module's parameters have no `lm_head.weight`: the head is the token table, counted once. "
        "Compare the transposed shape with `model[name].shape` and raise a ValueError naming the key "
        "and both shapes; give each array the dtype of `model[name]` with `astype`.",
        "Outline: (1) rename every key of P; (2) keys of `model` missing from the renamed dict, and "
        "renamed keys `model` does not have: a ValueError listing them; (3) for each name of `model`, "
        "take the tensor, transpose it if it is one of the four Conv1D weights, check its shape, "
        "store it in the model's dtype; (4) give back the new dict.",
    ),
))

register(Exercise(
    name="load_hf_state_dict",
    lesson=LESSON,
    difficulty=2, importance=3, minutes=30,
    reference=load_hf_state_dict_reference,
    public_cases=_hf_public,
    hidden_cases=_hf_hidden,
    mistakes=_mistakes(load_hf_state_dict_reference, buffers=True),
    hints=(
        "A Hugging Face state dict already uses the module's names. Three things stand between it "
        "and the module: mask buffers, the tied head and the Conv1D layout. " + RULES_HINT,
        "Keys ending in `.attn.bias` or `.attn.masked_bias` are buffers (the causal mask), not "
        "parameters: drop them first, and mind the dot: `attn.c_attn.bias` is a parameter. `lm_head.weight`, when present, is the token table again "
        "(tied): drop it too, since the module lists that tensor once, as `transformer.wte.weight`.",
        "The weights of `attn.c_attn`, `attn.c_proj`, `mlp.c_fc` and `mlp.c_proj` are stored "
        "`(in, out)` and must become `(out, in)`; everything else keeps its layout, the two "
        "embedding tables included. Decide by name: the square `attn.c_proj` fits either way.",
        "Errors: a ValueError listing the missing keys and the unexpected keys, and one naming the "
        "key and both shapes when a tensor does not fit. Give each array the dtype of `model[name]`.",
        "Outline: (1) a new dict without the buffers and without `lm_head.weight`; (2) compare its "
        "keys with `model`'s both ways and raise if they differ; (3) for each name of `model`: "
        "transpose if it is one of the four Conv1D weights, check the shape, store it with "
        "`astype`; (4) give back the new dict.",
    ),
))

"""A named mistake must be the learner's own: learners' bugs that are not in the
catalogue lose points and get no name; pieces' mistakes are named inside the
composite exercises that compute them; init_gpt must be reproducible from its seed.

Each learner is Python source run in a namespace of its own, so check() swaps the
course's pieces into that namespace as it does in a notebook. Each is judged twice:
through check() (grader.checking.check.evaluate) and through the judge as the batch grader
calls it (grader.judging.judge.judge with answers.mistake_answers_for, answers from the learner's
function called with the pieces swapped in, as the batch child does).
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from gpt2course import numpy_gpt as ref
from grader.judging import registry
from grader.checking.check import evaluate, reference_pieces
from grader.judging.answers import call_answer, mistake_answers_for, reference_answers
from grader.judging.judge import judge
from grader.judging.seeds import seed_mismatches
from grader.lessons import _variants as V
from grader.lessons.l03_mlp_block import _block_args as block_args
from grader.lessons.l03_mlp_block import _mlp_args as mlp_args
from grader.lessons.l04_model_init import _logits_args as logits_args
from grader.judging.stats import summarize

# A learner's attention, correct, with a spot for one bug: {qkv}, {split}, {scale}, {mask}, {merge}, {out}.
ATTENTION = """
def {name}(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    qkv = x @ w_qkv{qkv}
    q, k, v = ({split} for t in np.split(qkv, 3, axis=-1))
    s = q @ np.swapaxes(k, -1, -2) / {scale}
    {mask}
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    y = {merge}
    return y @ w_o{out}
"""
RIGHT = {"qkv": " + b_qkv", "split": "np.swapaxes(t.reshape(*lead, T, n_head, dk), -3, -2)",
         "scale": "math.sqrt(dk)", "mask": "s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)",
         "merge": "np.swapaxes(w @ v, -3, -2).reshape(*lead, T, d)", "out": " + b_o"}


def attention_source(name="causal_self_attention", **bug):
    return ATTENTION.format(name=name, **(RIGHT | bug))


LN = """
def {name}(x, weight, bias, eps=1e-5):
    mean = x.mean(axis={axis}, keepdims=True)
    var = x.var(axis={axis}, keepdims=True{ddof})
    return {body} * weight + bias
"""


def ln_source(name="layer_norm", axis="-1", ddof="", body="(x - mean) / np.sqrt(var + eps)"):
    return LN.format(name=name, axis=axis, ddof=ddof, body=body)


BLOCK = """
def block(x, params, layer, n_head):
    p = lambda k: params[f"h.{layer}.{k}"]
    a = {ln}(x, p("ln_1.weight"), p("ln_1.bias"))
    x = {residual}{attn}(a, p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                          p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    m = {ln}(x, p("ln_2.weight"), p("ln_2.bias"))
    return x + mlp(m, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
"""


def block_source(ln="layer_norm", attn="causal_self_attention", residual="x + ", helpers=""):
    return helpers + BLOCK.replace("{ln}", ln).replace("{attn}", attn).replace("{residual}", residual)


LOGITS = """
def gpt_logits(P, idx, n_head):
    x = embed(P["wte"], P["wpe"], idx)
    layer = 0
    while f"h.{layer}.ln_1.weight" in P:
        x = block(x, P, layer, n_head)
        layer += 1
    return {final} @ {head}
"""


def logits_source(final='layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])', head='P["wte"].T', helpers=""):
    return helpers + LOGITS.replace("{final}", final).replace("{head}", head)


EMBED = """
def embed(wte, wpe, idx):
    T = {T}
    if {check} > wpe.shape[0]:
        raise ValueError(f"sequence length {{T}} exceeds the block size {{wpe.shape[0]}}")
    return wte[idx] + wpe[{rows}]
"""

TIED = """
def tied_lm_loss_and_grad(E, A, idx, targets):
    n, V = targets.size, E.shape[0]
    H = np.tanh(E[idx] @ A).reshape(n, -1)
    Z = H @ E.T
    logp = Z - Z.max(-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(-1, keepdims=True))
    dZ = np.exp(logp)
    dZ[np.arange(n), targets.ravel()] -= 1
    dZ /= n
    dE = dZ.T @ H
    np.add.at(dE, idx.ravel(), ((dZ @ E) * (1 - H * H)) @ A.T)
    return -logp[np.arange(n), targets.ravel()].mean(), {sign}dE
"""

INIT = """
def init_gpt(config, seed):
    {setup}rng = {rng}
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {{"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}}
    bias = lambda n: {bias}
    for i in range(L):
        h = f"h.{{i}}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[h + "attn.c_attn.weight"], P[h + "attn.c_attn.bias"] = rng.standard_normal((d, 3 * d)) * 0.02, bias(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * 0.02 / math.sqrt(2 * L)
        P[h + "attn.c_proj.bias"] = bias(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"], P[h + "mlp.c_fc.bias"] = rng.standard_normal((d, 4 * d)) * 0.02, bias(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * 0.02 / math.sqrt(2 * L)
        P[h + "mlp.c_proj.bias"] = bias(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
"""


def init_source(rng="np.random.default_rng(seed)", bias="np.zeros(n)", setup=""):
    return INIT.format(rng=rng, bias=bias, setup=setup + "\n    " if setup else "")


GELU = "def gelu_tanh(x):\n    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * {cube})))\n"
MLP = "def mlp(x, w_fc, b_fc, w_proj, b_proj):\n    return {act}(x @ w_fc{b_fc}) @ w_proj + b_proj\n"


def learner(name: str, source: str):
    namespace = {"np": np, "math": math}
    exec(compile(source, f"<learner {name}>", "exec"), namespace)
    return namespace[name]


# ------------------------------------------------------------------ bugs not in the catalogue
# (id, exercise, source): each is a plausible slip that no catalogued mistake reproduces. Position
# rows shifted by one and dE with the wrong sign were here; a diagnosis names them now
# (tests/judging/test_diagnoses.py); the attention's missing residual is catalogued beside the MLP's.
UNCATALOGUED = [  # (id, exercise, source, the name a diagnosis gives: none where nothing shows it)
    ("embed: T from the first axis, in the check only", "embed",
     EMBED.format(T="len(idx)", check="T", rows=":idx.shape[-1]"),
     "a sequence one token longer than the block size not refused"),
    ("embed: T from the first axis", "embed", EMBED.format(T="idx.shape[0]", check="T", rows=":T"),
     "leading batch axis not handled"),
    ("layer_norm: normalised over axis -2", "layer_norm", ln_source(axis="-2"), None),
    ("layer_norm: centred but not divided", "layer_norm", ln_source(body="(x - mean)"), None),
    ("causal_self_attention: output bias missing", "causal_self_attention", attention_source(out=""),
     "bias `b_o` left out"),
    ("causal_self_attention: qkv bias missing", "causal_self_attention", attention_source(qkv=""),
     "bias `b_qkv` left out"),
    ("gelu_tanh: 0.044715 * x**2", "gelu_tanh", GELU.format(cube="x ** 2"),
     "`x` to the power 2 where the formula has 3"),   # formulas.py
    ("mlp: the GELU applied twice", "mlp", MLP.format(act="gelu_tanh", b_fc=" + b_fc").replace(
        "return gelu_tanh(", "return gelu_tanh(gelu_tanh(").replace(") @ w_proj", ")) @ w_proj"), None),
    ("gpt_logits: wpe as the head", "gpt_logits", logits_source(head='P["wpe"].T'), None),
    ("gpt_logits: final LayerNorm without its bias", "gpt_logits",
     logits_source(final='layer_norm(x, P["ln_f.weight"], 0.0)'), None),
    ("init_gpt: biases drawn with std 0.02", "init_gpt", init_source(bias="rng.standard_normal(n) * 0.02"),
     "attn.c_attn.bias, attn.c_proj.bias, mlp.c_fc.bias, mlp.c_proj.bias drawn at random instead of all 0"),
]


def batch_verdict(fn, hidden=True):
    """The judge as the batch grader calls it: reference and mistakes' answers computed in
    the grader, the learner's answers with the exercise's pieces swapped in."""
    ex = registry.get(fn.__name__)
    cases = ex.cases(hidden=hidden)
    with reference_pieces(fn, ex.uses):
        answers = [call_answer(fn, c) for c in cases]
    return judge(ex, cases, answers, reference_answers(ex, cases), mistake_answers_for(ex, cases))


PATHS = {"check": evaluate, "batch": batch_verdict}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name, source, named", [pytest.param(n, s, d, id=i) for i, n, s, d in UNCATALOGUED])
def test_uncatalogued_bug_loses_points_and_is_named_by_evidence_only(name, source, named, path):
    """No catalogued name; the diagnosis's own name where the evidence shows it, else none."""
    verdict = PATHS[path](learner(name, source))
    assert verdict.status == "failed" and verdict.points < verdict.max_points, verdict.message
    assert verdict.mistakes == ([named] if named else []), verdict.message
    assert not set(verdict.mistakes) & {m.name for m in registry.get(name).mistakes}
    assert ("Likely mistake" in verdict.message) == bool(named)


@pytest.mark.parametrize("name, source, named", [pytest.param(n, s, d, id=i) for i, n, s, d in UNCATALOGUED])
def test_uncatalogued_bug_gets_no_other_name_from_the_public_cases(name, source, named):
    """What the public cases alone show: the same name or none, never another."""
    verdict = evaluate(learner(name, source), hidden=False)
    assert set(verdict.mistakes) <= {named}, verdict.message


def test_alike_on_the_failed_cases_is_not_enough():
    """Why the rule changed. This learner's check reads T from the first axis, so it fails
    only the too-long batches, raising NumPy's broadcasting ValueError. The catalogue's
    concatenation variant used to have no check either: it raised the same ValueError
    there, and the old rule (alike on the failed cases) named "positions concatenated".
    But that variant is wrong on every case the learner gets right: not its mistake."""
    fn = learner("embed", UNCATALOGUED[0][2])
    ex = registry.get("embed")
    cases = ex.cases()
    answers, expected = [call_answer(fn, c) for c in cases], reference_answers(ex, cases)
    theirs = mistake_answers_for(ex, cases)
    old = [call_answer(lambda **a: V.embed(**a, concat=True, check=False), c) for c in cases]
    theirs["positions concatenated instead of added"] = old
    failed = [i for i, c in enumerate(cases) if c.raises and c.args["idx"].ndim == 2]
    verdict = judge(ex, cases, answers, expected, theirs)
    assert len(verdict.failures) == len(failed)
    assert all(type(old[i]).__name__ == "Raised" and old[i].type_name == answers[i].type_name
               for i in failed)                                  # alike where the learner fails...
    assert judge(ex, cases, old, expected).passed == 0           # ...and wrong everywhere else
    assert verdict.mistakes == [UNCATALOGUED[0][3]]              # what it did, not the variant's name


NO_CHECK = "def embed(wte, wpe, idx):\n    return {body}\n"
TWO_SLIPS = [
    ("rows by token id, no check", NO_CHECK.format(body="wte[idx] + wpe[idx]"),
     ["position rows looked up by token id, and no check of the block size"]),
    ("positions missing, no check", NO_CHECK.format(body="wte[idx]"),
     ["position embedding missing, and no check of the block size"]),
    ("concatenated, no check", NO_CHECK.format(
        body="np.concatenate([wte[idx], np.broadcast_to(wpe[:idx.shape[-1]], wte[idx].shape)], -1)"),
     ["positions concatenated instead of added", "no check of the block size"]),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("source, mistakes", [pytest.param(s, m, id=i) for i, s, m in TWO_SLIPS])
def test_two_slips_are_named_when_the_catalogue_reproduces_them(source, mistakes, path):
    """Concatenating shows on ordinary cases, the missing check on too-long ones: two
    mistakes that do not conflict. Rows by token id (or none) make a too-long sequence
    raise no error at all, so no pair reproduces that; the catalogue has the combination."""
    assert PATHS[path](learner("embed", source)).mistakes == mistakes


def _pair_verdict(consistent: bool):
    """The rule on made-up answers: a learner fails the ordinary cases; two catalogued
    mistakes are given answers that reproduce it on alternate halves of them (the other
    mistakes reproduce nothing). On the other half each passes (consistent) or fails in
    a way of its own (a conflict: the learner cannot have made that mistake there)."""
    ex = registry.get("embed")
    cases = ex.cases()
    expected = reference_answers(ex, cases)
    answers = [call_answer(lambda **a: V.embed(**a, positions=None), c) for c in cases]
    failed = [i for i, c in enumerate(cases) if not c.raises]
    theirs = {m.name: [np.zeros(1)] * len(cases) for m in ex.mistakes}
    a, b = ex.mistakes[0].name, ex.mistakes[1].name
    for name, mine in [(a, set(failed[::2])), (b, set(failed[1::2]))]:
        others = set(failed) - mine
        theirs[name] = [answers[i] if i in mine
                        else answers[i] * 3 if i in others and not consistent
                        else expected[i]
                        for i in range(len(cases))]
    return judge(ex, cases, answers, expected, theirs), [a, b]


def test_two_mistakes_are_named_only_when_they_do_not_conflict():
    verdict, pair = _pair_verdict(consistent=True)
    assert verdict.mistakes == pair
    verdict, pair = _pair_verdict(consistent=False)
    assert verdict.failures and verdict.mistakes == []


# ------------------------------------------------------------------ a mistake beside a second gap
# (id, exercise, source, the names): the second gap (a missing error check, a float64 upcast, a
# Python float) is reported by the failures on its own and does not hide the mistake; a catalogued
# dtype mistake that explains the dtypes is named beside it.
SQUARE_NO_CHECK = """
def load_hf_state_dict(model, state_dict):
    out = {}
    for name, target in model.items():
        value = state_dict[name]
        if value.ndim == 2 and value.shape != target.shape:
            value = value.T
        out[name] = value.astype(target.dtype)
    return out
"""
NAIVE_LOSS = """
def cross_entropy(logits, targets):
    p = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    return -np.log(np.take_along_axis(p, targets[..., None], axis=-1)).mean()
"""
EIGH_PCA = """
def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe has shape {wpe.shape}")
    if k > min(wpe.shape):
        raise ValueError(f"k={k} is more than min(T, d) = {min(wpe.shape)}")
    x = wpe.astype(np.float64) - wpe.mean(axis=0)
    values, vectors = np.linalg.eigh(x.T @ x)
    return (x @ vectors[:, ::-1][:, :k]).astype(wpe.dtype)
"""
SECOND_GAPS = [
    ("square c_proj, no ValueError for a missing key", "load_hf_state_dict", SQUARE_NO_CHECK,
     ["square attention c_proj not transposed"]),
    ("ddof=1 and a float64 upcast", "layer_norm", ln_source(ddof=", ddof=1", body="(x - mean) / np.sqrt(var + np.float64(eps))"),
     ["sample variance (ddof=1) instead of the population variance"]),
    ("exact GELU through np.vectorize(erf), float64", "mlp",
     "def mlp(x, w_fc, b_fc, w_proj, b_proj):\n    h = x @ w_fc + b_fc\n"
     "    return 0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2))) @ w_proj + b_proj\n",
     ["exact GELU instead of the tanh approximation", "float32 input upcast to float64"]),
    ("no mask and np.sqrt(d_k)", "causal_self_attention", attention_source(mask="pass", scale="np.sqrt(dk)"),
     ["no causal mask", "float32 inputs upcast to float64"]),
    ("naive cross-entropy without the error checks", "cross_entropy", NAIVE_LOSS,
     ["softmax without subtracting the max", "log of the softmax"]),
    ("eigh without the sign convention", "principal_components", EIGH_PCA, ["sign convention ignored"]),
    ("cosine over the other length only", "position_similarity",
     "def position_similarity(wpe):\n    if wpe.ndim != 2:\n        raise ValueError(f'{wpe.shape}')\n"
     "    return wpe @ wpe.T / np.linalg.norm(wpe, axis=1)\n", ["divided by one row's length only"]),
    ("output bias missing and np.sqrt(d_k)", "causal_self_attention", attention_source(out="", scale="np.sqrt(dk)"), []),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name, source, names", [pytest.param(n, s, m, id=i) for i, n, s, m in SECOND_GAPS])
def test_a_mistake_beside_a_second_gap_is_named(name, source, names, path):
    verdict = PATHS[path](learner(name, source))
    assert verdict.status == "failed" and verdict.mistakes == names, verdict.message


def test_two_mistakes_that_both_fit_give_no_name():
    """A mistake catalogued twice, under two names: both fit every case, so neither is named
    (naming the first would be a guess); so too where only the value cases can tell."""
    base = registry.get("layer_norm")
    ddof = next(m for m in base.mistakes if m.name.startswith("sample variance"))
    twice = dataclasses.replace(base, mistakes=base.mistakes + [dataclasses.replace(ddof, name="ddof=1 again")])
    for source in (ln_source(ddof=", ddof=1"), SECOND_GAPS[1][2]):
        fn = learner("layer_norm", source)
        cases = twice.cases()
        answers = [call_answer(fn, c) for c in cases]
        expected = reference_answers(twice, cases)
        assert judge(base, cases, answers, expected, mistake_answers_for(base, cases)).mistakes == [ddof.name]
        verdict = judge(twice, cases, answers, expected, mistake_answers_for(twice, cases))
        assert verdict.status == "failed" and verdict.mistakes == [], verdict.message


# ------------------------------------------------------------------ pieces' mistakes inside composites
# (id, exercise, source, the mistake it must be told): the learner writes the piece inline,
# so the course's piece swapped in while grading does not hide the bug.
OWN_HELPERS = ln_source(name="my_ln")
INSIDE = [
    ("mlp: exact erf GELU inline", "mlp",
     "def mlp(x, w_fc, b_fc, w_proj, b_proj):\n"
     "    h = x @ w_fc + b_fc\n"
     "    erf = np.vectorize(math.erf)\n"
     "    return (0.5 * h * (1 + erf(h / math.sqrt(2)))).astype(h.dtype) @ w_proj + b_proj\n",
     "exact GELU instead of the tanh approximation"),
    ("mlp: sigmoid GELU inline", "mlp",
     "def mlp(x, w_fc, b_fc, w_proj, b_proj):\n"
     "    h = x @ w_fc + b_fc\n"
     "    return h / (1 + np.exp(-1.702 * h)) @ w_proj + b_proj\n",
     "sigmoid approximation x * sigmoid(1.702 x)"),
    ("mlp: GELU without the cube inline", "mlp",
     "def mlp(x, w_fc, b_fc, w_proj, b_proj):\n"
     "    h = x @ w_fc + b_fc\n"
     "    return 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * h)) @ w_proj + b_proj\n",
     "cubic term missing inside the tanh"),
    ("block: own LayerNorm with ddof=1", "block",
     block_source(ln="my_ln", helpers=ln_source(name="my_ln", ddof=", ddof=1")),
     "sample variance (ddof=1) instead of the population variance"),
    ("block: own LayerNorm with eps outside the root", "block",
     block_source(ln="my_ln", helpers=ln_source(name="my_ln", body="(x - mean) / (np.sqrt(var) + eps)")),
     "epsilon added outside the square root"),
    ("block: own attention without the mask", "block",
     block_source(attn="my_attn", helpers=attention_source("my_attn", mask="pass")),
     "no causal mask"),
    ("block: own attention scaled by sqrt(d)", "block",
     block_source(attn="my_attn", helpers=attention_source("my_attn", scale="math.sqrt(d)")),
     "scores scaled by sqrt(d) instead of sqrt(d_k)"),
    ("block: own attention split and merged by reshape", "block",
     block_source(attn="my_attn", helpers=attention_source(
         "my_attn", split="t.reshape(*lead, n_head, T, dk)", merge="(w @ v).reshape(*lead, T, d)")),
     "head split by reshape without transpose"),
    ("block: own attention merged by reshape", "block",
     block_source(attn="my_attn", helpers=attention_source("my_attn", merge="(w @ v).reshape(*lead, T, d)")),
     "heads merged by reshape without transpose"),
    ("block: own attention split by reshape", "block",
     block_source(attn="my_attn", helpers=attention_source("my_attn", split="t.reshape(*lead, n_head, T, dk)")),
     "head split by reshape without transpose, heads merged correctly"),
    ("gpt_logits: own final LayerNorm with ddof=1", "gpt_logits",
     logits_source(final='my_ln(x, P["ln_f.weight"], P["ln_f.bias"])',
                   helpers=ln_source(name="my_ln", ddof=", ddof=1")),
     "final LayerNorm with the sample variance (ddof=1)"),
    ("gpt_logits: own final LayerNorm with eps outside the root", "gpt_logits",
     logits_source(final='my_ln(x, P["ln_f.weight"], P["ln_f.bias"])',
                   helpers=ln_source(name="my_ln", body="(x - mean) / (np.sqrt(var) + eps)")),
     "final LayerNorm with epsilon outside the square root"),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name, source, mistake", [pytest.param(n, s, m, id=i) for i, n, s, m in INSIDE])
def test_piece_mistake_is_named_inside_the_composite(name, source, mistake, path):
    verdict = PATHS[path](learner(name, source))
    assert verdict.status == "failed" and verdict.mistakes == [mistake], verdict.message
    assert f"Likely mistake: {mistake}." in verdict.message


@pytest.mark.parametrize("name, source, mistake", [pytest.param(n, s, m, id=i) for i, n, s, m in INSIDE])
def test_piece_mistake_is_named_inside_the_composite_from_public_cases(name, source, mistake):
    assert evaluate(learner(name, source), hidden=False).mistakes == [mistake]


def test_block_mistakes_of_pieces_name_where_the_fix_belongs():
    for m in registry.get("block").mistakes[5:]:  # after the block's own five
        assert "block" in m.explanation, m.name


# The student edition grades a composite on the learner's own pieces: a bug in one piece
# shows in every exercise that uses it, and is named there when that exercise catalogues it.
EXACT_GELU = ("erf = np.vectorize(math.erf)\n"
              "def gelu_tanh(x):\n    return (0.5 * x * (1 + erf(x / math.sqrt(2)))).astype(x.dtype)\n")
SIGMOID_GELU = "def gelu_tanh(x):\n    return x / (1 + np.exp(-1.702 * x))\n"
SPLIT = "t.reshape(*lead, n_head, T, dk)"
MERGE = "(w @ v).reshape(*lead, T, d)"
OWN_PIECE_BUGS = [  # (id, the learner's buggy piece, {exercise: names}; every other exercise passes)
    ("layer_norm ddof=1", {"ln": ln_source(ddof=", ddof=1")},
     dict.fromkeys(["layer_norm", "block", "gpt_logits"], "sample variance (ddof=1) instead of the population variance")),
    ("attention without the mask", {"attn": attention_source(mask="pass")},
     dict.fromkeys(["causal_self_attention", "block", "gpt_logits"], "no causal mask")),
    ("attention split and merged by reshape", {"attn": attention_source(split=SPLIT, merge=MERGE)},
     dict.fromkeys(["causal_self_attention", "block", "gpt_logits"], "head split by reshape without transpose")),
    ("attention merged by reshape", {"attn": attention_source(merge=MERGE)},
     dict.fromkeys(["causal_self_attention", "block", "gpt_logits"], "heads merged by reshape without transpose")),
    ("attention split by reshape", {"attn": attention_source(split=SPLIT)},
     dict.fromkeys(["causal_self_attention", "block", "gpt_logits"],
                   "head split by reshape without transpose, heads merged correctly")),
    ("exact GELU", {"gelu": EXACT_GELU},
     dict.fromkeys(["gelu_tanh", "mlp", "block", "gpt_logits"], "exact GELU instead of the tanh approximation")),
    ("sigmoid GELU", {"gelu": SIGMOID_GELU},  # catalogued in gelu_tanh and mlp; pieces.py names it further up
     dict.fromkeys(["gelu_tanh", "mlp", "block", "gpt_logits"], "sigmoid approximation x * sigmoid(1.702 x)")),
]
COMPOSED = ["layer_norm", "causal_self_attention", "gelu_tanh", "mlp", "block", "gpt_logits"]


def own_model(bugs: dict) -> dict:
    source = (bugs.get("ln", ln_source()) + bugs.get("attn", attention_source())
              + bugs.get("gelu", GELU.format(cube="x * x * x")) + MLP.format(act="gelu_tanh", b_fc=" + b_fc")
              + block_source() + EMBED.format(T="idx.shape[-1]", check="T", rows=":T") + logits_source())
    namespace = {"np": np, "math": math}
    exec(compile(source, "<learner's notebook>", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("bugs, names", [pytest.param(b, n, id=i) for i, b, n in OWN_PIECE_BUGS])
def test_student_edition_names_a_piece_mistake_wherever_the_piece_is_used(bugs, names):
    model = own_model(bugs)
    for name in COMPOSED:
        ex = registry.get(name)
        cases = ex.cases(hidden=False)
        answers = [call_answer(model[name], c) for c in cases]  # no reference pieces here
        verdict = judge(ex, cases, answers, reference_answers(ex, cases), mistake_answers_for(ex, cases))
        if name not in names:
            assert verdict.status == "passed", (name, verdict.message)
        else:
            assert verdict.status == "failed", name
            assert verdict.mistakes == ([names[name]] if names[name] else []), (name, verdict.message)


# ------------------------------------------------------------------ the flagged references
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_variants_with_default_flags_are_the_reference_bit_for_bit(dtype):
    rng, d, h = np.random.default_rng(0), 8, 2
    x = rng.standard_normal((2, 5, d)).astype(dtype)
    w, b = rng.standard_normal(d).astype(dtype), rng.standard_normal(d).astype(dtype)
    assert np.array_equal(V.layer_norm(x, w, b), ref.layer_norm(x, w, b))
    assert np.array_equal(V.gelu(x), ref.gelu_tanh(x))
    qkv = [rng.standard_normal(s).astype(dtype) for s in [(d, 3 * d), (3 * d,), (d, d), (d,)]]
    assert np.array_equal(V.attention(x, *qkv, h), ref.causal_self_attention(x, *qkv, h))
    m = mlp_args(rng, (2, 3), d, dtype)
    assert np.array_equal(V.mlp(**m), ref.mlp(**m))
    bl = block_args(rng, (2,), 5, d, h, 2, 1, dtype)
    assert np.array_equal(V.block(**bl), ref.block(**bl))
    lg = logits_args(rng, (2,), 4, 11, 6, 2, d, h, dtype)
    assert np.array_equal(V.logits(**lg), ref.gpt_logits(lg["P"], lg["idx"], lg["n_head"]))
    wte, wpe, idx = rng.standard_normal((11, d)).astype(dtype), x[0], rng.integers(0, 11, (3, 5))
    assert np.array_equal(V.embed(wte, wpe, idx), ref.embed(wte, wpe, idx))
    config = registry.get("init_gpt").cases()[0].args["config"]
    got, want = V.init_params(config, 3), ref.init_params(config, 3)
    assert list(got) == list(want) and all(np.array_equal(got[k], want[k]) for k in want)


# ------------------------------------------------------------------ init_gpt: reproducible from the seed
SEED_LEARNERS = [
    ("a fixed seed", init_source(rng="np.random.default_rng(42)"), "seed ignored"),
    ("the course's seed 0", init_source(rng="np.random.default_rng(0)"), "seed ignored"),
    ("an unseeded generator", init_source(rng="np.random.default_rng()"), "generator not seeded"),
    ("the global generator, unseeded", init_source(rng="np.random"), "generator not seeded"),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("source, mistake", [pytest.param(s, m, id=i) for i, s, m in SEED_LEARNERS])
def test_init_ignoring_the_seed_loses_points_and_is_told_so(source, mistake, path):
    verdict = PATHS[path](learner("init_gpt", source))
    assert verdict.status == "failed" and 0 < verdict.points < verdict.max_points, verdict.message
    assert "seed" in verdict.message.split("\n")[0]
    assert verdict.mistakes == [mistake], verdict.message


CORRECT_INITS = [
    ("the recipe", init_source()),
    ("the global generator seeded", init_source(rng="np.random", setup="np.random.seed(seed)")),
    ("another generator from the seed", init_source(rng="np.random.Generator(np.random.PCG64(seed + 1))")),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in CORRECT_INITS])
def test_init_reproducible_from_the_seed_passes(source, path):
    verdict = PATHS[path](learner("init_gpt", source))
    assert verdict.status == "passed", verdict.message


def _student_edition_verdict(fn):
    """check() in the student edition: public cases, and only the summaries of the
    reference's and each mistake's answers, as release.exercise_entry stores them."""
    ex = registry.get("init_gpt")
    cases = ex.cases(hidden=False)
    stored = [summarize(a) for a in reference_answers(ex, cases)]
    mistakes = {n: [summarize(a) for a in answers] for n, answers in mistake_answers_for(ex, cases).items()}
    answers = [call_answer(fn, c) for c in cases]
    return judge(ex, cases, answers, stored, mistakes)


@pytest.mark.parametrize("source, mistake", [pytest.param(s, m, id=i) for i, s, m in SEED_LEARNERS])
def test_student_edition_tells_a_learner_ignoring_the_seed(source, mistake):
    verdict = _student_edition_verdict(learner("init_gpt", source))
    assert verdict.status == "failed" and verdict.mistakes == [mistake], verdict.message


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in CORRECT_INITS])
def test_student_edition_passes_a_reproducible_init(source):
    assert _student_edition_verdict(learner("init_gpt", source)).status == "passed"


def test_seed_cases_hold_a_repeat_and_a_new_seed_publicly_and_hidden():
    ex = registry.get("init_gpt")
    for cases in (ex.cases(hidden=False), [c for c in ex.cases() if not c.public]):
        pairs = [(a.args["seed"] == b.args["seed"]) for n, b in enumerate(cases) for a in cases[:n]
                 if a.args["config"] == b.args["config"]]
        assert True in pairs and False in pairs


def test_seed_mismatches_compare_summaries_as_well_as_arrays():
    ex = registry.get("init_gpt")
    cases = ex.cases(hidden=False)
    fixed = [ref.init_params(c.args["config"], 0) for c in cases]
    for answers in (fixed, [summarize(a) for a in fixed]):
        found = seed_mismatches(cases, answers)
        assert list(found) == [2] and found[2].kind == "repeat" and found[2].earlier == 0
    assert seed_mismatches(cases, [ref.init_params(c.args["config"], c.args["seed"]) for c in cases]) == {}


# ------------------------------------------------------------------ the same verdicts through the real batch grader
def _through_the_cli():
    """(learner id, exercise, source, expected mistake names or None for 'no name')."""
    yield from ((f"uncatalogued_{k}", ex, src, [d] if d else []) for k, (_, ex, src, d) in enumerate(UNCATALOGUED))
    yield from ((f"inside_{k}", ex, src, [m]) for k, (_, ex, src, m) in enumerate(INSIDE))
    yield from ((f"seed_{k}", "init_gpt", src, [m]) for k, (_, src, m) in enumerate(SEED_LEARNERS))
    yield from ((f"second_gap_{k}", ex, src, names) for k, (_, ex, src, names) in enumerate(SECOND_GAPS))
    yield ("in_place_block", "block", block_source().replace("x = x + ", "x += "), None)


@pytest.fixture(scope="module")
def batch_report(tmp_path_factory):
    """One class graded by `python -m grader grade` (sandboxed children, answers decoded
    from files): check() and the batch grader must agree on points and names."""
    import json
    import subprocess
    import sys

    import nbformat
    from nbbuild import code, notebook

    base = tmp_path_factory.mktemp("diagnosis")
    for name, exercise, source, _ in _through_the_cli():
        lesson = registry.get(exercise).lesson
        nb = notebook([code("import math\nimport numpy as np"), code(source)], lesson=lesson)
        (base / "class" / name).mkdir(parents=True)
        nbformat.write(nb, base / "class" / name / f"{lesson}.ipynb")
    out = base / "out"
    # --public-seeds: the hidden cases check() runs, so the two are compared case for case
    lessons = sorted({registry.get(exercise).lesson for _, exercise, _, _ in _through_the_cli()})
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(base / "class"), "--out", str(out),
                           "--jobs", "2", "--public-seeds", "--lessons", ",".join(lessons)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads((out / "report.json").read_text())
    return {s["name"]: {v["exercise"]: v for v in s["verdicts"]} for s in report["submissions"]}


@pytest.mark.parametrize("name, exercise, source, names",
                         [pytest.param(*row, id=row[0]) for row in _through_the_cli()])
def test_batch_grader_agrees_with_check(batch_report, name, exercise, source, names):
    fn = learner(exercise, source)
    here, there = evaluate(fn), batch_report[name][exercise]
    assert there["points"] < 1 and there["status"] in ("failed", "broken")
    # the same cases pass and the same mistake is named; the points differ by design (the
    # batch counts the hidden cases only: the public answers ship with the student edition)
    assert (there["passed"], there["total"], there["mistakes"]) == (here.passed, here.total, here.mistakes)
    if names is not None:
        assert there["mistakes"] == names
    else:
        assert "changed its input `x` in place" in there["message"]


def test_a_dtype_mistake_catalogued_twice_is_not_named_beside_another():
    """The exact GELU in float64 is two mistakes, the GELU and the upcast; with the upcast catalogued
    under two names, the GELU is still named but neither upcast is (the cases cannot tell which)."""
    base = registry.get("mlp")
    upcast = next(m for m in base.mistakes if m.name == "float32 input upcast to float64")
    twice = dataclasses.replace(base, mistakes=base.mistakes + [dataclasses.replace(upcast, name="upcast again")])
    fn = learner("mlp", SECOND_GAPS[2][2])
    cases = twice.cases()
    answers = [call_answer(fn, c) for c in cases]
    expected = reference_answers(twice, cases)
    assert judge(base, cases, answers, expected, mistake_answers_for(base, cases)).mistakes == SECOND_GAPS[2][3]
    verdict = judge(twice, cases, answers, expected, mistake_answers_for(twice, cases))
    assert verdict.status == "failed" and verdict.mistakes == ["exact GELU instead of the tanh approximation"], \
        verdict.message

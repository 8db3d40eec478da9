"""Lesson 04: the full model, GPT-2's initialisation and the tied head's gradient."""
from __future__ import annotations

import math

import numpy as np

from gpt2course import numpy_gpt as ref
from gpt2course.config import GPTConfig

from ..registry import Case, Exercise, Mistake, register
from ..wire import is_plain_array
from .l03_mlp_block import random_params

LESSON = "04_model_init"


# ------------------------------------------------------------------ init_gpt
# Graded statistically: a learner may draw the numbers in any order, so the
# answer is compared with the reference answer tensor by tensor through
# summary statistics, with a tolerance that follows each tensor's size.
SIGMAS = 6.0          # a correct answer fails a statistic with probability ~1e-9
KURTOSIS_MIN_SIZE = 4096


def _is_constant(t: np.ndarray) -> bool:
    return t.size > 0 and float(t.min()) == float(t.max())


def _fingerprint(t: np.ndarray, k: int = 8):
    """The first k values, normalised: equal for two tensors cut from the same stream."""
    v = np.asarray(t, dtype=np.float64).ravel()[:k]
    norm = float(np.linalg.norm(v))
    return None if norm == 0.0 or v.size < k else v / norm


def _repeated_draws(params: dict, keys) -> tuple[str, str] | None:
    seen = []
    for k in keys:
        f = _fingerprint(params[k])
        if f is None:
            continue
        for other, g in seen:
            if np.allclose(f, g, rtol=0.0, atol=1e-9):
                return other, k
        seen.append((k, f))
    return None


def _what_constant(key: str, value: float) -> str:
    if key.endswith(".bias"):
        return f"biases start at exactly {value:g}"
    return f"LayerNorm gains start at exactly {value:g}"


def init_judge(answer, case: Case, expected, tol: float) -> str | None:
    """Does ``answer`` look like a draw from the same initialisation as ``expected``?

    Shapes, dtypes and keys must match exactly; tensors that are constant in
    ``expected`` (biases, LayerNorm) must be equal; random tensors must match in
    mean, standard deviation (and, for large ones, kurtosis) within SIGMAS
    sampling standard errors. ``tol`` (for value-by-value grading) is not used.
    """
    if not isinstance(answer, dict):
        kind = type(answer).__name__
        return f"returned a {kind}; expected a dict from parameter names to arrays"
    extra = sorted(set(answer) - set(expected))
    missing = sorted(set(expected) - set(answer))
    heads = [k for k in extra if "head" in k]
    if heads:
        return (f"the dict holds a separate output head ({heads[0]!r}); GPT-2 ties the head "
                "to wte, so there is no head tensor")
    if missing or extra:
        return f"dict keys differ (missing {missing[:3]}, unexpected {extra[:3]})"
    random_keys = []
    for key, e in expected.items():
        a = answer[key]
        if not is_plain_array(a):
            return f"{key!r} is not a NumPy array of numbers"
        if a.shape != e.shape:
            return f"{key!r} has shape {a.shape}, expected {e.shape}"
        if a.dtype != e.dtype:
            return f"{key!r} has dtype {a.dtype}, expected {e.dtype}"
        if not np.isfinite(a).all():
            return f"{key!r} holds NaN or infinite values"
        if _is_constant(e):
            if not np.array_equal(a, e):
                return f"{key!r} is not constant: {_what_constant(key, float(e.flat[0]))}"
            continue
        random_keys.append(key)
        reason = _compare_random(key, a, e)
        if reason:
            return reason
    pair, expected_pair = _repeated_draws(answer, random_keys), _repeated_draws(expected, random_keys)
    if pair and not expected_pair:
        return (f"{pair[1]!r} repeats the numbers of {pair[0]!r}: seed one generator once "
                "and draw every tensor from it")
    if expected_pair and not pair:  # only when judging against a variant's answer
        return "the tensors do not repeat each other's numbers"
    return None


def _compare_random(key: str, a: np.ndarray, e: np.ndarray) -> str | None:
    a64, e64 = a.astype(np.float64).ravel(), e.astype(np.float64).ravel()
    na, ne = a64.size, e64.size
    sa, se = float(a64.std()), float(e64.std())
    if sa == 0.0:
        return f"{key!r} is constant; it should be random with std about {se:.4f}"
    # the sample std of n normal draws has a standard error of about std / sqrt(2 n)
    if abs(sa - se) > SIGMAS * se * math.sqrt(1.0 / (2 * na) + 1.0 / (2 * ne)):
        return f"{key!r} has standard deviation {sa:.4f}, expected about {se:.4f}"
    ma, me = float(a64.mean()), float(e64.mean())
    if abs(ma - me) > SIGMAS * se * math.sqrt(1.0 / na + 1.0 / ne):
        return f"{key!r} has mean {ma:.4f}, expected about {me:.4f}"
    if min(na, ne) >= KURTOSIS_MIN_SIZE:
        ka = float(np.mean(((a64 - ma) / sa) ** 4))
        ke = float(np.mean(((e64 - me) / se) ** 4))
        if abs(ka - ke) > SIGMAS * math.sqrt(24.0 / na + 24.0 / ne):
            return f"{key!r} does not look normally distributed (use a normal distribution)"
    return None


def _init_public():
    return [Case({"config": GPTConfig(vocab_size=100, block_size=16, n_layer=2, n_embd=32, n_head=4),
                  "seed": 0})]


def _init_hidden(rng):
    cases = []
    for V, T, L, d, h in [(300, 32, 2, 64, 4), (128, 16, 1, 48, 3), (200, 24, 3, 32, 2),
                          (64, 64, 6, 32, 4), (500, 16, 4, 64, 8)]:
        cases.append(Case({"config": GPTConfig(V, T, L, d, h), "seed": int(rng.integers(0, 2**31))}))
    return cases


def _init_like(config, seed, std_of=ref.init_std, ln_gain=1.0, head=False, reseed=False):
    """The reference's recipe (one generator, tensors in param_shapes order), with a twist."""
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in ref.param_shapes(config).items():
        std = std_of(name, config.n_layer)
        if std is not None:
            if reseed:
                rng = np.random.default_rng(seed)
            params[name] = rng.standard_normal(shape) * std
        elif name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name == "ln_f.weight":
            params[name] = np.full(shape, ln_gain)
        else:
            params[name] = np.zeros(shape)
    if head:
        params["lm_head.weight"] = rng.standard_normal((config.vocab_size, config.n_embd)) * ref.INIT_STD
    return params


def _std_unscaled(name, n_layer):
    return None if ref.init_std(name, n_layer) is None else ref.INIT_STD


def _std_all_scaled(name, n_layer):
    return None if ref.init_std(name, n_layer) is None else ref.INIT_STD / math.sqrt(2 * n_layer)


def _std_unit(name, n_layer):
    std = ref.init_std(name, n_layer)
    return None if std is None else std / ref.INIT_STD


def _init_unscaled(config, seed):
    return _init_like(config, seed, std_of=_std_unscaled)


def _init_all_scaled(config, seed):
    return _init_like(config, seed, std_of=_std_all_scaled)


def _init_untied(config, seed):
    return _init_like(config, seed, head=True)


def _init_ln_zero(config, seed):
    return _init_like(config, seed, ln_gain=0.0)


def _init_reseeded(config, seed):
    return _init_like(config, seed, reseed=True)


def _init_unit(config, seed):
    return _init_like(config, seed, std_of=_std_unit)


register(Exercise(
    name="init_gpt",
    lesson=LESSON,
    reference=ref.init_params,
    public_cases=_init_public,
    hidden_cases=_init_hidden,
    judge=init_judge,
    mistakes=[
        Mistake("residual projections not scaled by 1/sqrt(2L)",
                "attn.c_proj.weight and mlp.c_proj.weight write into the residual stream, which "
                "sums 2L such branches: GPT-2 draws them with std 0.02 / sqrt(2 * n_layer).",
                _init_unscaled),
        Mistake("every weight scaled by 1/sqrt(2L)",
                "Only the two residual projections (attn.c_proj.weight, mlp.c_proj.weight) get "
                "0.02 / sqrt(2 * n_layer); the embeddings, c_attn and c_fc keep std 0.02.",
                _init_all_scaled),
        Mistake("separate untied output head",
                "GPT-2's output head is wte itself (logits = h @ wte.T): the parameter dict "
                "holds no head tensor.",
                _init_untied),
        Mistake("LayerNorm gains initialised to 0",
                "A LayerNorm with gain 0 outputs only its bias: every sub-layer would see a "
                "constant input. Gains start at 1, biases at 0.",
                _init_ln_zero),
        Mistake("generator re-seeded for every tensor",
                "Creating np.random.default_rng(seed) again for each tensor gives every tensor "
                "the same leading numbers, so the layers start as copies of each other. Create "
                "the generator once and draw everything from it.",
                _init_reseeded),
        Mistake("standard normal without the 0.02 scale",
                "rng.standard_normal gives std 1; GPT-2's weights start with std 0.02 "
                "(0.02 / sqrt(2 * n_layer) for the residual projections).",
                _init_unit),
    ],
))


# ------------------------------------------------------------------ gpt_logits
def _logits_args(rng, lead, T, V, block, L, d, h, dtype):
    config = GPTConfig(vocab_size=V, block_size=block, n_layer=L, n_embd=d, n_head=h)
    return {"P": random_params(rng, config, dtype),
            "idx": rng.integers(0, V, size=lead + (T,), dtype=np.int64), "n_head": h}


def _logits_public():
    rng = np.random.default_rng(5)
    return [Case(_logits_args(rng, (1,), 5, 13, 8, 2, 8, 2, np.float64)),
            Case(_logits_args(rng, (), 4, 10, 6, 1, 8, 4, np.float64))]


def _logits_hidden(rng):
    return [Case(_logits_args(rng, *spec)) for spec in
            [((2,), 7, 20, 8, 2, 16, 4, np.float64), ((3,), 9, 31, 12, 3, 12, 3, np.float64),
             ((), 6, 17, 6, 2, 8, 2, np.float64), ((2,), 5, 25, 10, 2, 16, 2, np.float32),
             ((1,), 16, 56, 16, 4, 24, 4, np.float64), ((2,), 3, 9, 3, 1, 8, 1, np.float64)]]


def gpt_logits_reference(P, idx, n_head):
    """The exercise's signature names the parameter dict P."""
    return ref.gpt_logits(P, idx, n_head)


def _stream(P, idx, n_head, positions=True, same_layer=False, skip_last=False):
    T = idx.shape[-1]
    x = P["wte"][idx] + P["wpe"][:T] if positions else P["wte"][idx]
    for layer in range(ref.config_from_params(P, n_head).n_layer - (1 if skip_last else 0)):
        x = ref.block(x, P, 0 if same_layer else layer, n_head)
    return x


def _final(P, x):
    return ref.layer_norm(x, P["ln_f.weight"], P["ln_f.bias"]) @ P["wte"].T


def _logits_no_ln_f(P, idx, n_head):
    return _stream(P, idx, n_head) @ P["wte"].T


def _logits_no_positions(P, idx, n_head):
    return _final(P, _stream(P, idx, n_head, positions=False))


def _logits_layer0(P, idx, n_head):
    return _final(P, _stream(P, idx, n_head, same_layer=True))


def _logits_skip_last(P, idx, n_head):
    return _final(P, _stream(P, idx, n_head, skip_last=True))


register(Exercise(
    name="gpt_logits",
    lesson=LESSON,
    reference=gpt_logits_reference,
    public_cases=_logits_public,
    hidden_cases=_logits_hidden,
    uses=("embed", "layer_norm", "causal_self_attention", "gelu_tanh", "mlp", "block"),
    mistakes=[
        Mistake("final LayerNorm missing",
                "Pre-LN blocks leave the stream un-normalised, so GPT-2 applies one more "
                "LayerNorm (ln_f) after the last block, before the tied head.",
                _logits_no_ln_f),
        Mistake("position embedding missing",
                "The stream starts as wte[idx] + wpe[:T] (your embed from lesson 01); without "
                "the position rows the model cannot tell the order of the tokens.",
                _logits_no_positions),
        Mistake("every block given layer 0's parameters",
                "Block i must read h.{i}.*: pass the loop's layer index to block, not 0.",
                _logits_layer0),
        Mistake("last block skipped",
                "Run every block: layers 0 to n_layer - 1 (count the keys ending in "
                "'.ln_1.weight'), range(n_layer) and not range(n_layer - 1).",
                _logits_skip_last),
    ],
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
            Case(_tied_args(rng, (2,), 4, 10, 4, np.float64))]


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


register(Exercise(
    name="tied_lm_loss_and_grad",
    lesson=LESSON,
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
    ],
))

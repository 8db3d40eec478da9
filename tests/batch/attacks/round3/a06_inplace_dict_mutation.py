"""a06 inplace_dict_mutation.

Route: the judge notices inputs changed in place ("changed its input `x` in place") and names
the input. Round 2 tried values; here the learner changes CONTAINERS it was given so that a
description of the change would carry learner text: `block` adds keys to `params` whose names are
a run-time marker with digits of the hidden x (and deletes a real key); `numpy_to_torch` /
`load_hf_state_dict` add marker keys to `P`/`model`/`state_dict`; `init_gpt` sets an attribute
named with the marker on `config` (and changes `config.n_layer`). Each also returns the right
answer, so only the mutation is wrong.
Goal (1): learner-chosen text (from hidden inputs) in feedback/report via the mutation report.
Breached: the marker ZQLEAK appears in any output file.
"""
from __future__ import annotations

import pathlib

import _common as c

BLOCK = c.MARKER_CODE + c.GOOD["layer_norm"] + c.GOOD["causal_self_attention"] + c.GOOD["gelu_tanh"].replace("gelu_tanh", "_g") + '''
def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    def _mlp(x, w_fc, b_fc, w_proj, b_proj):
        return (_g(x @ w_fc + b_fc) @ w_proj + b_proj).astype(x.dtype)
    a = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    out = a + _mlp(layer_norm(a, p("ln_2.weight"), p("ln_2.bias")), p("mlp.c_fc.weight"),
                   p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
    tag = _MK + "_" + "_".join(str(abs(int(v * 1e6)) % 100000) for v in x.ravel()[:4])
    try:
        params[tag] = x.ravel()[:3].copy()
        params[tag + "_b"] = 1
        params.pop(f"h.{layer}.ln_1.bias", None)
    except Exception:
        pass
    return out.astype(x.dtype)
'''

INIT = c.MARKER_CODE + '''
def init_gpt(config, seed):
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    rng = np.random.default_rng(seed)
    std, std_proj = 0.02, 0.02 / math.sqrt(2 * L)
    P = {"wte": rng.standard_normal((V, d)) * std, "wpe": rng.standard_normal((T, d)) * std}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * std
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * std_proj
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * std
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * std_proj
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    tag = f"{_MK}_{V}_{T}_{L}_{d}_{seed}"
    for setter in (lambda: setattr(config, tag, seed), lambda: config.__dict__.__setitem__(tag, seed),
                   lambda: setattr(config, "n_layer", 1000 + V % 1000)):
        try:
            setter()
        except Exception:
            pass
    return P
'''

N2T = c.MARKER_CODE + '''
def _mut(d, args):
    tag = _MK + "_" + "_".join(str(s) for a in args for s in getattr(a, "shape", ()))[:60]
    try:
        d[tag] = np.zeros(1)
        k = next(iter(d))
        d[k] = d[k][..., :1] if hasattr(d[k], "shape") else d[k]
    except Exception:
        pass

def numpy_to_torch(P, model):
    linear = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    for name, target in model.items():
        key = name[len("transformer."):] if name.startswith("transformer.") else name
        if key.endswith(("wte.weight", "wpe.weight")):
            key = key[:-len(".weight")]
        v = P[key]
        out[name] = (v.T if name.endswith(linear) else v).astype(target.dtype)
    _mut(P, list(P.values())[:3]); _mut(model, list(model.values())[:3])
    return out

def load_hf_state_dict(model, state_dict):
    linear = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    for name, target in model.items():
        v = state_dict[name]
        out[name] = (v.T if name.endswith(linear) else v).astype(target.dtype)
    _mut(state_dict, list(state_dict.values())[:3]); _mut(model, list(model.values())[:3])
    return out
'''


def build(tmp: pathlib.Path) -> list[str]:
    d = tmp / "mallory"
    c.write_nb(d / "03_mlp_block_exercises.ipynb", "03_mlp_block", [BLOCK])
    c.write_nb(d / "04_model_init_exercises.ipynb", "04_model_init", [INIT])
    c.write_nb(d / "06_torch_parity_exercises.ipynb", "06_torch_parity", [N2T])
    return [str(d)]


def verdict(out: pathlib.Path, run: dict):
    found = c.find_marker(out)
    v = c.verdicts(out)
    summary = {n: {e: (x.get("passed"), x.get("total"), x.get("mistakes")) for e, x in ex.items()} for n, ex in v.items()}
    if found:
        return True, f"marker in outputs: {found[:5]}"
    return False, f"no marker; verdicts {summary}"

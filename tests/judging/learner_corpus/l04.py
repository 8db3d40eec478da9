"""Lesson 04: init_gpt, gpt_logits and tied_lm_loss_and_grad, as learners write them."""
from . import Lesson
from .l03 import EXACT, own_attention, own_ln

LESSON = Lesson()
L = LESSON

# ------------------------------------------------------------------ init_gpt
L.styles("init_gpt", '''
def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
''', '''
def init_gpt(config, seed):
    gen = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    proj_std = 0.02 / math.sqrt(2 * L)
    params = {}
    params["wte"] = gen.normal(0.0, 0.02, size=(V, d))
    params["wpe"] = gen.normal(0.0, 0.02, size=(T, d))
    for i in range(L):
        for ln in ("ln_1", "ln_2"):
            params[f"h.{i}.{ln}.weight"] = np.ones(d)
            params[f"h.{i}.{ln}.bias"] = np.zeros(d)
        for name, shape, std in [("attn.c_attn", (d, 3 * d), 0.02), ("attn.c_proj", (d, d), proj_std),
                                 ("mlp.c_fc", (d, 4 * d), 0.02), ("mlp.c_proj", (4 * d, d), proj_std)]:
            params[f"h.{i}.{name}.weight"] = gen.normal(0.0, std, size=shape)
            params[f"h.{i}.{name}.bias"] = np.zeros(shape[1])
    params["ln_f.weight"] = np.ones(d)
    params["ln_f.bias"] = np.zeros(d)
    return params
''', '''
def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer
    out = {}
    for i in reversed(range(L)):                      # another order: any correct draws pass
        pre = "h.%d." % i
        out[pre + "mlp.c_proj.weight"] = 0.02 / (2 * L) ** 0.5 * rng.standard_normal((4 * d, d))
        out[pre + "mlp.c_fc.weight"] = 0.02 * rng.standard_normal((d, 4 * d))
        out[pre + "attn.c_proj.weight"] = 0.02 / (2 * L) ** 0.5 * rng.standard_normal((d, d))
        out[pre + "attn.c_attn.weight"] = 0.02 * rng.standard_normal((d, 3 * d))
        for b, n in [("attn.c_attn", 3 * d), ("attn.c_proj", d), ("mlp.c_fc", 4 * d), ("mlp.c_proj", d)]:
            out[pre + b + ".bias"] = np.zeros(n)
        for g in ("ln_1", "ln_2"):
            out[pre + g + ".weight"] = np.ones(d)
            out[pre + g + ".bias"] = np.zeros(d)
    out["wpe"] = 0.02 * rng.standard_normal((config.block_size, d))
    out["wte"] = 0.02 * rng.standard_normal((config.vocab_size, d))
    out["ln_f.weight"], out["ln_f.bias"] = np.ones(d), np.zeros(d)
    return out
''')
I = "init_gpt"
PROJ_A = [("rng.standard_normal((d, d)) * (0.02 / math.sqrt(2 * L))", "rng.standard_normal((d, d)) * 0.02"),
          ("rng.standard_normal((4 * d, d)) * (0.02 / math.sqrt(2 * L))", "rng.standard_normal((4 * d, d)) * 0.02")]
L.mistake(I, "residual projections not scaled by 1/sqrt(2L)", (0, PROJ_A),
          (1, "proj_std = 0.02 / math.sqrt(2 * L)", "proj_std = 0.02"),
          (2, [("0.02 / (2 * L) ** 0.5 * rng.standard_normal((4 * d, d))", "0.02 * rng.standard_normal((4 * d, d))"),
               ("0.02 / (2 * L) ** 0.5 * rng.standard_normal((d, d))", "0.02 * rng.standard_normal((d, d))")]))
L.mistake(I, "every weight scaled by 1/sqrt(2L)",
          (0, [("rng.standard_normal((d, 3 * d)) * 0.02", "rng.standard_normal((d, 3 * d)) * (0.02 / math.sqrt(2 * L))"),
               ("rng.standard_normal((d, 4 * d)) * 0.02", "rng.standard_normal((d, 4 * d)) * (0.02 / math.sqrt(2 * L))"),
               ('"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02',
                '"wte": rng.standard_normal((V, d)) * (0.02 / math.sqrt(2 * L)), '
                '"wpe": rng.standard_normal((T, d)) * (0.02 / math.sqrt(2 * L))')]),
          (1, [('gen.normal(0.0, 0.02, size=(V, d))', 'gen.normal(0.0, proj_std, size=(V, d))'),
               ('gen.normal(0.0, 0.02, size=(T, d))', 'gen.normal(0.0, proj_std, size=(T, d))'),
               ('("attn.c_attn", (d, 3 * d), 0.02)', '("attn.c_attn", (d, 3 * d), proj_std)'),
               ('("mlp.c_fc", (d, 4 * d), 0.02)', '("mlp.c_fc", (d, 4 * d), proj_std)')]),
          (2, [("    d, L = config.n_embd, config.n_layer\n", "    d, L = config.n_embd, config.n_layer\n    s = 0.02 / (2 * L) ** 0.5\n"),
               ("0.02 * rng.standard_normal((d, 4 * d))", "s * rng.standard_normal((d, 4 * d))"),
               ("0.02 * rng.standard_normal((d, 3 * d))", "s * rng.standard_normal((d, 3 * d))"),
               ("0.02 * rng.standard_normal((config.block_size, d))", "s * rng.standard_normal((config.block_size, d))"),
               ("0.02 * rng.standard_normal((config.vocab_size, d))", "s * rng.standard_normal((config.vocab_size, d))")]))
L.mistake(I, "separate untied output head",
          (0, "    return P\n", "    P[\"lm_head.weight\"] = rng.standard_normal((V, d)) * 0.02\n    return P\n"),
          (1, '    params["wpe"] = gen.normal', '    params["lm_head.weight"] = gen.normal(0.0, 0.02, size=(V, d))\n    params["wpe"] = gen.normal'),
          (2, "    return out\n", "    out[\"lm_head.weight\"] = 0.02 * rng.standard_normal((config.vocab_size, d))\n    return out\n"))
L.mistake(I, "LayerNorm gains initialised to 0",
          (0, [('P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)', 'P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.zeros(d), np.zeros(d)'),
               ('P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)', 'P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.zeros(d), np.zeros(d)'),
               ('P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)', 'P["ln_f.weight"], P["ln_f.bias"] = np.zeros(d), np.zeros(d)')]),
          (1, [('params[f"h.{i}.{ln}.weight"] = np.ones(d)', 'params[f"h.{i}.{ln}.weight"] = np.zeros(d)'),
               ('params["ln_f.weight"] = np.ones(d)', 'params["ln_f.weight"] = np.zeros(d)')]),
          (2, [('out[pre + g + ".weight"] = np.ones(d)', 'out[pre + g + ".weight"] = np.zeros(d)'),
               ('out["ln_f.weight"], out["ln_f.bias"] = np.ones(d), np.zeros(d)', 'out["ln_f.weight"] = out["ln_f.bias"] = np.zeros(d)')]))
L.mistake(I, "generator re-seeded for every tensor",
          (0, [(f"rng.standard_normal({s})", f"np.random.default_rng(seed).standard_normal({s})")
               for s in ["(V, d)", "(T, d)", "(d, 3 * d)", "(d, d)", "(d, 4 * d)", "(4 * d, d)"]]),
          (1, [("            params[f\"h.{i}.{name}.weight\"] = gen.normal", "            gen = np.random.default_rng(seed)\n"
                "            params[f\"h.{i}.{name}.weight\"] = gen.normal"),
               ('    params["wpe"] = gen.normal', '    gen = np.random.default_rng(seed)\n    params["wpe"] = gen.normal')]),
          '''
def init_gpt(config, seed):
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    normal = lambda *shape: np.random.default_rng(seed).standard_normal(shape)
    P = {"wte": 0.02 * normal(V, d), "wpe": 0.02 * normal(T, d)}
    for i in range(L):
        P[f"h.{i}.ln_1.weight"], P[f"h.{i}.ln_1.bias"] = np.ones(d), np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"], P[f"h.{i}.attn.c_attn.bias"] = 0.02 * normal(d, 3 * d), np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = 0.02 / math.sqrt(2 * L) * normal(d, d)
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"], P[f"h.{i}.ln_2.bias"] = np.ones(d), np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"], P[f"h.{i}.mlp.c_fc.bias"] = 0.02 * normal(d, 4 * d), np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = 0.02 / math.sqrt(2 * L) * normal(4 * d, d)
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
''')
L.mistake(I, "standard normal without the 0.02 scale",
          (0, [('"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02',
                '"wte": rng.standard_normal((V, d)), "wpe": rng.standard_normal((T, d))'),
               ("rng.standard_normal((d, 3 * d)) * 0.02", "rng.standard_normal((d, 3 * d))"),
               ("rng.standard_normal((d, d)) * (0.02 / math.sqrt(2 * L))", "rng.standard_normal((d, d)) / math.sqrt(2 * L)"),
               ("rng.standard_normal((d, 4 * d)) * 0.02", "rng.standard_normal((d, 4 * d))"),
               ("rng.standard_normal((4 * d, d)) * (0.02 / math.sqrt(2 * L))", "rng.standard_normal((4 * d, d)) / math.sqrt(2 * L)")]),
          (1, [("proj_std = 0.02 / math.sqrt(2 * L)", "proj_std = 1 / math.sqrt(2 * L)"),
               ("gen.normal(0.0, 0.02, size=(V, d))", "gen.normal(size=(V, d))"), ("gen.normal(0.0, 0.02, size=(T, d))", "gen.normal(size=(T, d))"),
               ('("attn.c_attn", (d, 3 * d), 0.02)', '("attn.c_attn", (d, 3 * d), 1.0)'), ('("mlp.c_fc", (d, 4 * d), 0.02)', '("mlp.c_fc", (d, 4 * d), 1.0)')]),
          (2, [("0.02 / (2 * L) ** 0.5 * rng.standard_normal((4 * d, d))", "rng.standard_normal((4 * d, d)) / (2 * L) ** 0.5"),
               ("0.02 * rng.standard_normal((d, 4 * d))", "rng.standard_normal((d, 4 * d))"),
               ("0.02 / (2 * L) ** 0.5 * rng.standard_normal((d, d))", "rng.standard_normal((d, d)) / (2 * L) ** 0.5"),
               ("0.02 * rng.standard_normal((d, 3 * d))", "rng.standard_normal((d, 3 * d))"),
               ("0.02 * rng.standard_normal((config.block_size, d))", "rng.standard_normal((config.block_size, d))"),
               ("0.02 * rng.standard_normal((config.vocab_size, d))", "rng.standard_normal((config.vocab_size, d))")]))
L.mistake(I, "seed ignored", (0, "np.random.default_rng(seed)", "np.random.default_rng(1234)"),
          (1, "gen = np.random.default_rng(seed)", "gen = np.random.default_rng(0)"),
          (2, "rng = np.random.default_rng(seed)", "rng = np.random.default_rng(seed=42)"))
L.mistake(I, "generator not seeded", (0, "np.random.default_rng(seed)", "np.random.default_rng()"),
          (1, "gen = np.random.default_rng(seed)", "gen = np.random"),
          (2, "rng = np.random.default_rng(seed)", "rng = np.random.RandomState()"))
L.mistake(I, "attn.c_attn.bias drawn at random instead of all 0", (0, 'P[h + "attn.c_attn.bias"] = np.zeros(3 * d)',
                                                  'P[h + "attn.c_attn.bias"] = rng.standard_normal(3 * d) * 0.02'))
L.mistake(I, "tensors in float32 instead of float64", (1, "    return params\n", "    return {k: v.astype(np.float32) for k, v in params.items()}\n"))
L.uncatalogued(I, "uniform draws", (2, "0.02 * rng.standard_normal((config.vocab_size, d))",
                                     "rng.uniform(-0.02 * 3 ** 0.5, 0.02 * 3 ** 0.5, (config.vocab_size, d))"))

# ------------------------------------------------------------------ gpt_logits
L.styles("gpt_logits", '''
def gpt_logits(P, idx, n_head):
    n_layer = sum(1 for k in P if k.endswith(".ln_1.weight"))
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(n_layer):
        x = block(x, P, layer, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''', '''
def gpt_logits(P, idx, n_head):
    h = embed(P["wte"], P["wpe"], idx)
    i = 0
    while f"h.{i}.ln_1.weight" in P:
        h = block(h, P, i, n_head)
        i += 1
    h = layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])
    return np.einsum("...td,vd->...tv", h, P["wte"])
''', '''
def gpt_logits(P, idx, n_head):
    T = idx.shape[-1]
    x = P["wte"][idx] + P["wpe"][:T]
    layers = sorted({int(k.split(".")[1]) for k in P if k.startswith("h.")})

    def ln(z, name):
        mu = z.mean(-1, keepdims=True)
        var = ((z - mu) ** 2).mean(-1, keepdims=True)
        return (z - mu) / np.sqrt(var + 1e-5) * P[name + ".weight"] + P[name + ".bias"]

    def attn(z, pre):
        *lead, T, d = z.shape
        dk = d // n_head
        qkv = z @ P[pre + "attn.c_attn.weight"] + P[pre + "attn.c_attn.bias"]
        q, k, v = (np.swapaxes(t.reshape(*lead, T, n_head, dk), -2, -3) for t in np.split(qkv, 3, axis=-1))
        s = q @ np.swapaxes(k, -1, -2) / math.sqrt(dk)
        s = np.where(np.tril(np.ones((T, T), bool)), s, -np.inf)
        s = np.exp(s - s.max(-1, keepdims=True))
        s = s / s.sum(-1, keepdims=True)
        y = np.swapaxes(s @ v, -2, -3).reshape(*lead, T, d)
        return y @ P[pre + "attn.c_proj.weight"] + P[pre + "attn.c_proj.bias"]

    def ff(z, pre):
        h = z @ P[pre + "mlp.c_fc.weight"] + P[pre + "mlp.c_fc.bias"]
        h = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))
        return h @ P[pre + "mlp.c_proj.weight"] + P[pre + "mlp.c_proj.bias"]

    for i in layers:
        pre = f"h.{i}."
        x = x + attn(ln(x, pre + "ln_1"), pre)
        x = x + ff(ln(x, pre + "ln_2"), pre)
    return ln(x, "ln_f") @ P["wte"].T
''')
GL = "gpt_logits"
OWN_BLOCK = '''
def own_mlp(z, w1, b1, w2, b2):
    h = z @ w1 + b1
    return {act} @ w2 + b2

def own_block(x, P, i, n_head):
    p = lambda k: P[f"h.{{i}}.{{k}}"]
    x = x + own_attention(own_ln(x, p("ln_1.weight"), p("ln_1.bias")), p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                          p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    m = own_ln(x, p("ln_2.weight"), p("ln_2.bias"))
    return x + own_mlp(m, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
'''
TANH = "0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))"


def own_model(ln=None, attn=None, act=TANH, final_own=False):
    """Style 0 with the blocks written by the learner (own LayerNorm, attention and MLP)."""
    helpers = own_ln(**(ln or {})) + own_attention(**(attn or {})) + OWN_BLOCK.format(act=act)
    edits = [("x = block(x, P, layer, n_head)", "x = own_block(x, P, layer, n_head)")]
    if final_own:
        edits.append(('x = layer_norm(x, P["ln_f.weight"]', 'x = own_ln(x, P["ln_f.weight"]'))
    return helpers + L._edit(GL, [(0, edits)])


L.mistake(GL, "final LayerNorm missing", (0, '    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])\n', ""),
          (1, '    h = layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])\n', ""), (2, 'return ln(x, "ln_f") @ P["wte"].T', 'return x @ P["wte"].T'))
L.mistake(GL, "position embedding missing", (0, 'x = embed(P["wte"], P["wpe"], idx)', 'x = P["wte"][idx]'),
          (1, 'h = embed(P["wte"], P["wpe"], idx)', 'h = np.take(P["wte"], idx, axis=0)'), (2, ' + P["wpe"][:T]', ''))
L.mistake(GL, "every block given layer 0's parameters", (0, "block(x, P, layer, n_head)", "block(x, P, 0, n_head)"),
          (1, "h = block(h, P, i, n_head)", "h = block(h, P, 0, n_head)"), (2, 'pre = f"h.{i}."', 'pre = "h.0."'))
L.mistake(GL, "last block skipped", (0, "range(n_layer)", "range(n_layer - 1)"),
          (1, 'while f"h.{i}.ln_1.weight" in P:', 'while f"h.{i + 1}.ln_1.weight" in P:'), (2, "for i in layers:", "for i in layers[:-1]:"))
L.mistake(GL, "sample variance (ddof=1) instead of the population variance",
          (2, "var = ((z - mu) ** 2).mean(-1, keepdims=True)", "var = z.var(-1, keepdims=True, ddof=1)"),
          own_model(ln={"ddof": ", ddof=1"}, final_own=True),
          L._edit(GL, [(2, "var = ((z - mu) ** 2).mean(-1, keepdims=True)", "var = ((z - mu) ** 2).sum(-1, keepdims=True) / (z.shape[-1] - 1)")]))
FINAL_DDOF = '''
def final_norm(x, g, b):
    m = x.mean(axis=-1, keepdims=True)
    return (x - m) / np.sqrt(x.var(axis=-1, keepdims=True, ddof=1) + 1e-5) * g + b
'''
L.mistake(GL, "final LayerNorm with the sample variance (ddof=1)",
          FINAL_DDOF + L._edit(GL, [(0, 'x = layer_norm(x, P["ln_f.weight"]', 'x = final_norm(x, P["ln_f.weight"]')]),
          FINAL_DDOF + L._edit(GL, [(1, 'h = layer_norm(h, P["ln_f.weight"]', 'h = final_norm(h, P["ln_f.weight"]')]),
          L._edit(GL, [(2, 'return ln(x, "ln_f") @ P["wte"].T',
                       'f = (x - x.mean(-1, keepdims=True)) / np.sqrt(np.var(x, -1, ddof=1, keepdims=True) + 1e-5)\n'
                       '    return (f * P["ln_f.weight"] + P["ln_f.bias"]) @ P["wte"].T')]))
FINAL_EPS = '''
def final_norm(x, g, b):
    c = x - x.mean(axis=-1, keepdims=True)
    return c / (np.sqrt((c ** 2).mean(axis=-1, keepdims=True)) + 1e-5) * g + b
'''
L.mistake(GL, "final LayerNorm with epsilon outside the square root",
          FINAL_EPS + L._edit(GL, [(0, 'x = layer_norm(x, P["ln_f.weight"]', 'x = final_norm(x, P["ln_f.weight"]')]),
          FINAL_EPS + L._edit(GL, [(1, 'h = layer_norm(h, P["ln_f.weight"]', 'h = final_norm(h, P["ln_f.weight"]')]),
          L._edit(GL, [(2, 'return ln(x, "ln_f") @ P["wte"].T',
                       'c = x - x.mean(-1, keepdims=True)\n    f = c / (c.std(-1, keepdims=True) + 1e-5)\n'
                       '    return (f * P["ln_f.weight"] + P["ln_f.bias"]) @ P["wte"].T')]))
GL_SPLIT = ("(np.swapaxes(t.reshape(*lead, T, n_head, dk), -2, -3) for t", "(t.reshape(*lead, n_head, T, dk) for t")
GL_MERGE = ("y = np.swapaxes(s @ v, -2, -3).reshape(*lead, T, d)", "y = (s @ v).reshape(*lead, T, d)")
from .l03 import MERGE, SPLIT  # noqa: E402
L.mistake(GL, "no causal mask", (2, "        s = np.where(np.tril(np.ones((T, T), bool)), s, -np.inf)\n", ""),
          own_model(attn={"mask": "pass"}), own_model(attn={"mask": "s = s + 0.0"}))
L.mistake(GL, "scores scaled by sqrt(d) instead of sqrt(d_k)", (2, "/ math.sqrt(dk)", "/ math.sqrt(d)"),
          own_model(attn={"scale": "math.sqrt(d)"}), own_model(attn={"scale": "d ** 0.5"}))
L.mistake(GL, "head split by reshape without transpose", (2, [GL_SPLIT, GL_MERGE]), own_model(attn={"split": SPLIT, "merge": MERGE}),
          own_model(attn={"split": "t.reshape(*lead, n_head, -1, dk)", "merge": "y.reshape(*lead, T, -1)"}))
L.mistake(GL, "heads merged by reshape without transpose", (2, [GL_MERGE]), own_model(attn={"merge": MERGE}),
          own_model(attn={"merge": "y.reshape(y.shape[:-3] + (T, d))"}))
L.mistake(GL, "head split by reshape without transpose, heads merged correctly", (2, [GL_SPLIT]), own_model(attn={"split": SPLIT}),
          own_model(attn={"split": "t.reshape(*lead, n_head, T, -1)"}))
L.mistake(GL, EXACT, (2, "h = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))",
                      "h = (0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))).astype(h.dtype)"),
          own_model(act="(0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))).astype(h.dtype)"),
          own_model(act="(h * (0.5 + 0.5 * np.vectorize(math.erf, otypes=[h.dtype])(h * 0.7071067811865476)))"))
L.uncatalogued(GL, "wpe as the head", (0, 'return x @ P["wte"].T', 'return x @ P["wpe"].T'))
L.uncatalogued(GL, "final LayerNorm without its bias", (1, 'layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])', 'layer_norm(h, P["ln_f.weight"], 0.0)'))
L.uncatalogued(GL, "the blocks run in reverse", (2, "for i in layers:", "for i in reversed(layers):"))

# ------------------------------------------------------------------ tied_lm_loss_and_grad
L.styles("tied_lm_loss_and_grad", '''
def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    n = targets.size
    H = np.tanh(E[idx] @ A).reshape(n, d)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    rows, cols = np.arange(n), targets.reshape(n)
    loss = -logp[rows, cols].mean()
    dZ = np.exp(logp)
    dZ[rows, cols] -= 1.0
    dZ /= n
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1.0 - H * H)) @ A.T
    np.add.at(dE, idx.reshape(n), dX)
    return loss, dE
''', '''
def tied_lm_loss_and_grad(E, A, idx, targets):
    ids, tgt = idx.ravel(), targets.ravel()
    N = len(ids)
    X = E[ids]
    U = X @ A
    H = np.tanh(U)
    logits = H @ E.T
    m = logits.max(axis=1, keepdims=True)
    lse = m + np.log(np.exp(logits - m).sum(axis=1, keepdims=True))
    probs = np.exp(logits - lse)
    loss = np.mean(lse[:, 0] - logits[np.arange(N), tgt])
    onehot = np.zeros_like(probs)
    onehot[np.arange(N), tgt] = 1
    g = (probs - onehot) / N
    grad_out = g.T @ H
    g_u = (g @ E) * (1 - np.tanh(U) ** 2)
    g_x = g_u @ A.T
    grad_in = np.zeros_like(E)
    np.add.at(grad_in, ids, g_x)
    return loss, grad_out + grad_in
''', '''
def tied_lm_loss_and_grad(E, A, idx, targets):
    flat_idx, flat_t = idx.reshape(-1), targets.reshape(-1)
    n = flat_idx.shape[0]
    H = np.tanh(np.einsum("nd,de->ne", E[flat_idx], A))
    Z = np.einsum("nd,vd->nv", H, E)
    Z = Z - Z.max(-1, keepdims=True)
    P = np.exp(Z)
    P = P / P.sum(-1, keepdims=True)
    loss = -np.mean(np.log(P[np.arange(n), flat_t]))
    dZ = P.copy()
    dZ[np.arange(n), flat_t] -= 1
    dZ = dZ / n
    dE = np.einsum("nv,nd->vd", dZ, H)
    dX = np.einsum("nv,vd->nd", dZ, E) * (1 - H ** 2) @ A.T
    for pos in range(n):
        dE[flat_idx[pos]] += dX[pos]
    return loss, dE
''')
TL = "tied_lm_loss_and_grad"
L.mistake(TL, "tied gradient missing the output path", (0, "dE = dZ.T @ H", "dE = np.zeros_like(E)"),
          (1, "return loss, grad_out + grad_in", "return loss, grad_in"), (2, 'dE = np.einsum("nv,nd->vd", dZ, H)', "dE = np.zeros(E.shape, dtype=E.dtype)"))
L.mistake(TL, "tied gradient missing the input path", (0, "    np.add.at(dE, idx.reshape(n), dX)\n", ""),
          (1, "return loss, grad_out + grad_in", "return loss, grad_out"), (2, "    for pos in range(n):\n        dE[flat_idx[pos]] += dX[pos]\n", ""))
L.mistake(TL, "repeated ids assigned instead of accumulated", (0, "np.add.at(dE, idx.reshape(n), dX)", "dE[idx.reshape(n)] += dX"),
          (1, "np.add.at(grad_in, ids, g_x)", "grad_in[ids] = g_x"),
          (2, "    for pos in range(n):\n        dE[flat_idx[pos]] += dX[pos]\n", "    dE[flat_idx] = dE[flat_idx] + dX\n"))
L.mistake(TL, "tanh derivative missing", (0, "((dZ @ E) * (1.0 - H * H)) @ A.T", "(dZ @ E) @ A.T"),
          (1, "g_u = (g @ E) * (1 - np.tanh(U) ** 2)", "g_u = g @ E"), (2, " * (1 - H ** 2) @ A.T", " @ A.T"))
L.mistake(TL, "loss summed instead of averaged", (0, [("loss = -logp[rows, cols].mean()", "loss = -logp[rows, cols].sum()"), ("    dZ /= n\n", "")]),
          (1, [("loss = np.mean(lse[:, 0] - logits[np.arange(N), tgt])", "loss = np.sum(lse[:, 0] - logits[np.arange(N), tgt])"),
               ("g = (probs - onehot) / N", "g = probs - onehot")]),
          (2, [("loss = -np.mean(np.log(P[np.arange(n), flat_t]))", "loss = -np.sum(np.log(P[np.arange(n), flat_t]))"), ("    dZ = dZ / n\n", "")]))
L.mistake(TL, "loss returned as a Python float", (0, "return loss, dE", "return float(loss), dE"),
          (1, "return loss, grad_out + grad_in", "return float(loss), grad_out + grad_in"),
          (2, "return loss, dE", "return loss.item(), dE"))
# Named by a diagnosis (grader/judging/diagnoses.py: a constant factor), not by the catalogue.
L.mistake(TL, "dE: sign flipped", (0, "return loss, dE", "return loss, -dE"))
L.uncatalogued(TL, "loss from the probabilities of the inputs", (1, "logits[np.arange(N), tgt]", "logits[np.arange(N), ids]"))

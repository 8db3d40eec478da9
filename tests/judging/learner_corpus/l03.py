"""Lesson 03: gelu_tanh, mlp and block, as learners write them."""
from . import Lesson

LESSON = Lesson()
L = LESSON
EXACT, SIGMOID, CUBE, UPCAST = ("exact GELU instead of the tanh approximation", "sigmoid approximation x * sigmoid(1.702 x)",
                                "cubic term missing inside the tanh", "float32 input upcast to float64")

# ------------------------------------------------------------------ gelu_tanh
L.styles("gelu_tanh", '''
def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
''', '''
def gelu_tanh(x):
    c = (2 / math.pi) ** 0.5
    inner = c * (x + 0.044715 * np.power(x, 3))
    return x * 0.5 * (1 + np.tanh(inner))
''', '''
def gelu_tanh(x):
    k = math.sqrt(2 / math.pi)
    z = k * (x + 0.044715 * x * x * x)
    return x / (1.0 + np.exp(-2.0 * z))
''')
G = "gelu_tanh"
L.mistake(G, EXACT, '''
erf = np.vectorize(math.erf)
def gelu_tanh(x):
    return (0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))).astype(x.dtype)
''', '''
def gelu_tanh(x):
    phi = np.array([0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x.ravel()]).reshape(x.shape)
    return (x * phi).astype(x.dtype)
''', '''
def gelu_tanh(x):
    import torch
    t = torch.from_numpy(np.ascontiguousarray(x))
    return torch.nn.functional.gelu(t).numpy()
''')
L.mistake(G, (EXACT, UPCAST), '''
def gelu_tanh(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))
''', '''
def gelu_tanh(x):
    cdf = np.array([0.5 * (1.0 + math.erf(float(v) / math.sqrt(2.0))) for v in np.nditer(x)]).reshape(x.shape)
    return x * cdf
''', '''
def gelu_tanh(x):
    import torch
    return torch.nn.functional.gelu(torch.tensor(x, dtype=torch.float64)).numpy()
''')
L.mistake(G, SIGMOID, (0, "return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))",
                       "return x / (1 + np.exp(-1.702 * x))"),
          (1, "    inner = c * (x + 0.044715 * np.power(x, 3))\n    return x * 0.5 * (1 + np.tanh(inner))",
           "    return x * (1.0 / (1.0 + np.exp(-1.702 * x)))"),
          (2, "    return x / (1.0 + np.exp(-2.0 * z))", "    return x * 0.5 * (1 + np.tanh(0.851 * x))"))
L.mistake(G, CUBE, (0, " + 0.044715 * x ** 3", ""), (1, "(x + 0.044715 * np.power(x, 3))", "x"),
          (2, "z = k * (x + 0.044715 * x * x * x)", "z = k * x"))
L.mistake(G, UPCAST, (0, "math.sqrt(2.0 / math.pi)", "np.sqrt(2.0 / np.pi)"), (1, "c = (2 / math.pi) ** 0.5", "c = np.sqrt(2 / np.pi)"),
          (2, "k = math.sqrt(2 / math.pi)", "k = np.float64(math.sqrt(2 / math.pi))"))
L.mistake(G, (CUBE, UPCAST), (1, [("c = (2 / math.pi) ** 0.5", "c = np.sqrt(2 / np.pi)"), ("(x + 0.044715 * np.power(x, 3))", "x")]))
L.mistake(G, "`x` to the power 2 where the formula has 3", (0, "x ** 3", "x ** 2"))   # formulas.py
L.uncatalogued(G, "tanh of x alone, the constant and the cube both gone",
               (0, "np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3))", "np.tanh(x)"))
L.mistake(G, "off by a constant factor 2", (1, "return x * 0.5 * (1 + np.tanh(inner))", "return x * (1 + np.tanh(inner))"))

# ------------------------------------------------------------------ mlp
L.styles("mlp", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj
''', '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    hidden = np.matmul(x, w_fc) + b_fc
    hidden = gelu_tanh(hidden)
    out = np.matmul(hidden, w_proj)
    return out + b_proj
''', '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = np.einsum("...d,dh->...h", x, w_fc) + b_fc
    a = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))
    return np.einsum("...h,hd->...d", a, w_proj) + b_proj
''')
M = "mlp"
L.mistake(M, "bias of the down-projection missing", (0, " @ w_proj + b_proj", " @ w_proj"),
          (1, "return out + b_proj", "return out"), (2, "a, w_proj) + b_proj", "a, w_proj)"))
L.mistake(M, "GELU after the down-projection instead of between the layers",
          (0, "return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj", "return gelu_tanh((x @ w_fc + b_fc) @ w_proj + b_proj)"),
          (1, [("    hidden = gelu_tanh(hidden)\n", ""), ("return out + b_proj", "return gelu_tanh(out + b_proj)")]),
          (2, [("    a = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))\n"
                "    return np.einsum(\"...h,hd->...d\", a, w_proj) + b_proj",
                "    o = np.einsum(\"...h,hd->...d\", h, w_proj) + b_proj\n"
                "    return 0.5 * o * (1 + np.tanh(math.sqrt(2 / math.pi) * (o + 0.044715 * o ** 3)))")]))
L.mistake(M, "ReLU instead of GELU", (0, "gelu_tanh(x @ w_fc + b_fc)", "np.maximum(x @ w_fc + b_fc, 0)"),
          (1, "hidden = gelu_tanh(hidden)", "hidden[hidden < 0] = 0"),
          (2, "a = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))", "a = h * (h > 0)"))
L.mistake(M, EXACT, (2, "a = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))",
                     "a = (0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))).astype(h.dtype)"),
          (1, "hidden = gelu_tanh(hidden)",
           "hidden = (hidden * 0.5 * (1.0 + np.vectorize(math.erf)(hidden / math.sqrt(2.0)))).astype(x.dtype)"),
          "def exact(h):\n    erf = np.vectorize(math.erf, otypes=[h.dtype])\n    return 0.5 * h * (1 + erf(h / math.sqrt(2)))\n"
          + L._edit(M, [(0, "gelu_tanh(x @ w_fc + b_fc)", "exact(x @ w_fc + b_fc)")]))
L.mistake(M, (EXACT, UPCAST), (2, "a = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))",
                               "a = 0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))"),
          (1, "hidden = gelu_tanh(hidden)", "hidden = hidden * 0.5 * (1.0 + np.vectorize(math.erf)(hidden / math.sqrt(2.0)))"),
          (0, "gelu_tanh(x @ w_fc + b_fc)",   # float() of every entry: a float64 list
           "np.array([0.5 * float(v) * (1 + math.erf(v / math.sqrt(2))) for v in (x @ w_fc + b_fc).ravel()]).reshape("
           "x.shape[:-1] + (w_fc.shape[1],))"))
L.mistake(M, EXACT, (0, "gelu_tanh(x @ w_fc + b_fc)",   # NumPy scalars times Python floats keep float32
                     "np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in (x @ w_fc + b_fc).ravel()]).reshape("
                     "x.shape[:-1] + (w_fc.shape[1],))"))
L.mistake(M, SIGMOID, (2, "a = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))",
                       "a = h / (1 + np.exp(-1.702 * h))"),
          (1, "hidden = gelu_tanh(hidden)", "hidden = hidden * (1 / (1 + np.exp(-1.702 * hidden)))"),
          (0, "gelu_tanh(x @ w_fc + b_fc)", "(lambda h: h / (1 + np.exp(-1.702 * h)))(x @ w_fc + b_fc)"))
L.mistake(M, CUBE, (2, " * (h + 0.044715 * h ** 3)", " * h"),
          (1, "hidden = gelu_tanh(hidden)", "hidden = 0.5 * hidden * (1 + np.tanh(math.sqrt(2 / math.pi) * hidden))"),
          (0, "gelu_tanh(x @ w_fc + b_fc)", "(lambda h: 0.5 * h * (1 + np.tanh((2 / math.pi) ** 0.5 * h)))(x @ w_fc + b_fc)"))
L.mistake(M, UPCAST, (2, "math.sqrt(2 / math.pi)", "np.sqrt(2 / np.pi)"),
          (1, "hidden = gelu_tanh(hidden)",
           "hidden = 0.5 * hidden * (1 + np.tanh(np.sqrt(2 / np.pi) * (hidden + 0.044715 * hidden ** 3)))"),
          (0, "gelu_tanh(x @ w_fc + b_fc)", "gelu_tanh(x @ w_fc + b_fc) * np.float64(1.0)"))
L.mistake(M, "bias of the up-projection missing", (0, "x @ w_fc + b_fc", "x @ w_fc"),
          (1, "hidden = np.matmul(x, w_fc) + b_fc", "hidden = np.matmul(x, w_fc)"),
          (2, 'h = np.einsum("...d,dh->...h", x, w_fc) + b_fc', 'h = np.einsum("...d,dh->...h", x, w_fc)'))
L.uncatalogued(M, "the GELU applied twice", (0, "gelu_tanh(x @ w_fc + b_fc)", "gelu_tanh(gelu_tanh(x @ w_fc + b_fc))"))
L.uncatalogued(M, "the two weights swapped in role", (1, "hidden = np.matmul(x, w_fc) + b_fc", "hidden = np.matmul(x, w_proj.T) + b_fc"))

# ------------------------------------------------------------------ block
L.styles("block", '''
def block(x, params, layer, n_head):
    p = lambda k: params[f"h.{layer}.{k}"]
    a = layer_norm(x, p("ln_1.weight"), p("ln_1.bias"))
    x = x + causal_self_attention(a, p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    m = layer_norm(x, p("ln_2.weight"), p("ln_2.bias"))
    return x + mlp(m, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
''', '''
def block(x, params, layer, n_head):
    pre = f"h.{layer}."
    w = {k[len(pre):]: v for k, v in params.items() if k.startswith(pre)}
    h = layer_norm(x, w["ln_1.weight"], w["ln_1.bias"])
    h = causal_self_attention(h, w["attn.c_attn.weight"], w["attn.c_attn.bias"],
                              w["attn.c_proj.weight"], w["attn.c_proj.bias"], n_head)
    resid = x + h
    h = layer_norm(resid, w["ln_2.weight"], w["ln_2.bias"])
    h = mlp(h, w["mlp.c_fc.weight"], w["mlp.c_fc.bias"], w["mlp.c_proj.weight"], w["mlp.c_proj.bias"])
    return resid + h
''', '''
def block(x, params, layer, n_head):
    g = lambda name: params["h.%d.%s" % (layer, name)]

    def norm(z, which):
        mu = z.mean(-1, keepdims=True)
        var = ((z - mu) ** 2).mean(-1, keepdims=True)
        return (z - mu) / np.sqrt(var + 1e-5) * g(which + ".weight") + g(which + ".bias")

    def attend(z):
        *lead, T, d = z.shape
        dk = d // n_head
        q, k, v = np.split(z @ g("attn.c_attn.weight") + g("attn.c_attn.bias"), 3, axis=-1)
        heads = lambda t: np.swapaxes(t.reshape(*lead, T, n_head, dk), -2, -3)
        q, k, v = heads(q), heads(k), heads(v)
        s = q @ np.swapaxes(k, -1, -2) / math.sqrt(dk)
        s = np.where(np.tril(np.ones((T, T), bool)), s, -np.inf)
        s = np.exp(s - s.max(-1, keepdims=True))
        s = s / s.sum(-1, keepdims=True)
        y = np.swapaxes(s @ v, -2, -3).reshape(*lead, T, d)
        return y @ g("attn.c_proj.weight") + g("attn.c_proj.bias")

    def feed(z):
        h = z @ g("mlp.c_fc.weight") + g("mlp.c_fc.bias")
        h = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))
        return h @ g("mlp.c_proj.weight") + g("mlp.c_proj.bias")

    x = x + attend(norm(x, "ln_1"))
    return x + feed(norm(x, "ln_2"))
''')
B = "block"
OWN_LN = '''
def own_ln(z, gain, shift):
    mu = z.mean(axis=-1, keepdims=True)
    var = z.var(axis=-1, keepdims=True{ddof})
    return (z - mu) / {root} * gain + shift
'''
OWN_ATTN = '''
def own_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = ({split} for t in (q, k, v))
    s = q @ np.swapaxes(k, -1, -2) / {scale}
    {mask}
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    y = (e / e.sum(axis=-1, keepdims=True)) @ v
    return {merge} @ w_o + b_o
'''
GOOD = {"split": "np.swapaxes(t.reshape(*lead, T, n_head, dk), -3, -2)", "scale": "math.sqrt(dk)",
        "mask": "s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)",
        "merge": "np.swapaxes(y, -3, -2).reshape(*lead, T, d)"}
SPLIT, MERGE = "t.reshape(*lead, n_head, T, dk)", "y.reshape(*lead, T, d)"


def own_ln(ddof="", root="np.sqrt(var + 1e-5)"):
    return OWN_LN.format(ddof=ddof, root=root)


def own_attention(**bug):
    return OWN_ATTN.format(**(GOOD | bug))


def with_own(style, helper, old, new):
    """A style calling the learner's own helper instead of the piece (the helper's source first)."""
    answer = L._edit(B, [(style, [(o, n) for o, n in zip(old, new)])])
    return helper + answer


LN1_A, LN2_A = 'layer_norm(x, p("ln_1.weight")', 'layer_norm(x, p("ln_2.weight")'
LN1_B, LN2_B = 'layer_norm(x, w["ln_1.weight"]', 'layer_norm(resid, w["ln_2.weight"]'


def ln_forms(c_old, c_new, ddof="", root="np.sqrt(var + 1e-5)"):
    helper = own_ln(ddof, root)
    return ((2, c_old, c_new),
            with_own(0, helper, (LN1_A, LN2_A), ('own_ln(x, p("ln_1.weight")', 'own_ln(x, p("ln_2.weight")')),
            with_own(1, helper, (LN1_B, LN2_B), ('own_ln(x, w["ln_1.weight"]', 'own_ln(resid, w["ln_2.weight"]')))


def attn_forms(c_edits, **bug):
    helper = own_attention(**bug)
    return ((2, c_edits),
            with_own(0, helper, ("x + causal_self_attention(a",), ("x + own_attention(a",)),
            with_own(1, helper, ("h = causal_self_attention(h",), ("h = own_attention(h",)))


L.mistake(B, "post-LN instead of pre-LN",
          (0, [("    a = layer_norm(x, p(\"ln_1.weight\"), p(\"ln_1.bias\"))\n", ""), ("causal_self_attention(a,", "causal_self_attention(x,"),
               ("    m = layer_norm(x, p(\"ln_2.weight\"), p(\"ln_2.bias\"))\n", "    x = layer_norm(x, p(\"ln_1.weight\"), p(\"ln_1.bias\"))\n"),
               ("    return x + mlp(m,", "    return layer_norm(x + mlp(x,"),
               ('p("mlp.c_proj.bias"))', 'p("mlp.c_proj.bias")), p("ln_2.weight"), p("ln_2.bias"))')]),
          (1, [("h = layer_norm(x, w[\"ln_1.weight\"], w[\"ln_1.bias\"])\n    h = causal_self_attention(h,", "h = causal_self_attention(x,"),
               ("resid = x + h", "resid = layer_norm(x + h, w[\"ln_1.weight\"], w[\"ln_1.bias\"])"),
               ("    h = layer_norm(resid, w[\"ln_2.weight\"], w[\"ln_2.bias\"])\n    h = mlp(h,", "    h = mlp(resid,"),
               ("return resid + h", "return layer_norm(resid + h, w[\"ln_2.weight\"], w[\"ln_2.bias\"])")]),
          (2, [("    x = x + attend(norm(x, \"ln_1\"))\n    return x + feed(norm(x, \"ln_2\"))",
                "    x = norm(x + attend(x), \"ln_1\")\n    return norm(x + feed(x), \"ln_2\")")]))
L.mistake(B, "residual addition around the MLP missing", (0, "    return x + mlp(m,", "    return mlp(m,"),
          (1, "return resid + h", "return h"), (2, "return x + feed(", "return feed("))
L.mistake(B, "ln_1's parameters used for the second LayerNorm",
          (0, 'layer_norm(x, p("ln_2.weight"), p("ln_2.bias"))', 'layer_norm(x, p("ln_1.weight"), p("ln_1.bias"))'),
          (1, 'layer_norm(resid, w["ln_2.weight"], w["ln_2.bias"])', 'layer_norm(resid, w["ln_1.weight"], w["ln_1.bias"])'),
          (2, 'feed(norm(x, "ln_2"))', 'feed(norm(x, "ln_1"))'))
L.mistake(B, "attention and MLP both read the block's input",
          (0, [("    x = x + causal_self_attention(a", "    y = x + causal_self_attention(a"), ("return x + mlp(m", "return y + mlp(m")]),
          (1, 'h = layer_norm(resid, w["ln_2.weight"]', 'h = layer_norm(x, w["ln_2.weight"]'),
          (2, '    x = x + attend(norm(x, "ln_1"))\n    return x + feed(norm(x, "ln_2"))',
           '    return x + attend(norm(x, "ln_1")) + feed(norm(x, "ln_2"))'))
L.mistake(B, "sample variance (ddof=1) instead of the population variance",
          *ln_forms("((z - mu) ** 2).mean(-1, keepdims=True)", "z.var(-1, keepdims=True, ddof=1)", ddof=", ddof=1"))
L.mistake(B, "epsilon added outside the square root",
          *ln_forms("np.sqrt(var + 1e-5)", "(np.sqrt(var) + 1e-5)", root="(np.sqrt(var) + 1e-5)"))
L.mistake(B, "no causal mask", *attn_forms([("        s = np.where(np.tril(np.ones((T, T), bool)), s, -np.inf)\n", "")], mask="pass"))
L.mistake(B, "scores scaled by sqrt(d) instead of sqrt(d_k)", *attn_forms([("/ math.sqrt(dk)", "/ math.sqrt(d)")], scale="math.sqrt(d)"))
C_SPLIT = ("heads = lambda t: np.swapaxes(t.reshape(*lead, T, n_head, dk), -2, -3)", "heads = lambda t: t.reshape(*lead, n_head, T, dk)")
C_MERGE = ("y = np.swapaxes(s @ v, -2, -3).reshape(*lead, T, d)", "y = (s @ v).reshape(*lead, T, d)")
L.mistake(B, "head split by reshape without transpose", *attn_forms([C_SPLIT, C_MERGE], split=SPLIT, merge=MERGE))
L.mistake(B, "heads merged by reshape without transpose", *attn_forms([C_MERGE], merge=MERGE))
L.mistake(B, "head split by reshape without transpose, heads merged correctly", *attn_forms([C_SPLIT], split=SPLIT))
L.mistake(B, EXACT,
          (2, "h = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))",
           "h = (0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))).astype(h.dtype)"),
          "def exact_mlp(x, w1, b1, w2, b2):\n    h = x @ w1 + b1\n    erf = np.vectorize(math.erf, otypes=[h.dtype])\n"
          "    return (0.5 * h * (1 + erf(h / math.sqrt(2)))) @ w2 + b2\n" + L._edit(B, [(0, "return x + mlp(m,", "return x + exact_mlp(m,")]),
          "def gelu_exact(h):\n    return (0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))).astype(h.dtype)\n"
          + L._edit(B, [(1, 'h = mlp(h, w["mlp.c_fc.weight"], w["mlp.c_fc.bias"], w["mlp.c_proj.weight"], w["mlp.c_proj.bias"])',
                         'h = gelu_exact(h @ w["mlp.c_fc.weight"] + w["mlp.c_fc.bias"]) @ w["mlp.c_proj.weight"] + w["mlp.c_proj.bias"]')]))
L.mistake(B, "residual addition around the attention missing", (0, "    x = x + causal_self_attention(a", "    x = causal_self_attention(a"),
          (1, "resid = x + h", "resid = h"), (2, 'x = x + attend(norm(x, "ln_1"))', 'x = attend(norm(x, "ln_1"))'))
L.uncatalogued(B, "own LayerNorm without its bias", (2, ' * g(which + ".weight") + g(which + ".bias")', ' * g(which + ".weight")'))
L.mistake(B, "every block given layer 0's parameters", (1, 'pre = f"h.{layer}."', 'pre = "h.0."'))

"""Lesson 02: layer_norm and causal_self_attention, as learners write them."""
from . import Lesson

LESSON = Lesson()
L = LESSON

# ------------------------------------------------------------------ layer_norm
L.styles("layer_norm", '''
def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias
''', '''
def layer_norm(x, weight, bias, eps=1e-5):
    d = x.shape[-1]
    mean = np.sum(x, axis=-1, keepdims=True) / d
    centred = x - mean
    variance = np.sum(centred ** 2, axis=-1, keepdims=True) / d
    normed = centred / np.sqrt(variance + eps)
    return weight * normed + bias
''', '''
def layer_norm(x, weight, bias, eps=1e-5):
    flat = x.reshape(-1, x.shape[-1])
    out = np.empty_like(flat)
    for r in range(flat.shape[0]):
        row = flat[r]
        m = row.mean()
        s = ((row - m) ** 2).mean()
        out[r] = (row - m) / math.sqrt(s + eps) * weight + bias
    return out.reshape(x.shape)
''')
L.correct("layer_norm", "einsum means", '''
def layer_norm(x, weight, bias, eps=1e-5):
    ones = np.ones(x.shape[-1], dtype=x.dtype) / x.shape[-1]
    mean = np.einsum("...d,d->...", x, ones)[..., None]
    var = np.einsum("...d,d->...", (x - mean) ** 2, ones)[..., None]
    return (x - mean) * (1.0 / np.sqrt(var + eps)) * weight + bias
''')
LN = "layer_norm"
L.mistake(LN, "sample variance (ddof=1) instead of the population variance",
          (0, "x.var(axis=-1, keepdims=True)", "x.var(axis=-1, keepdims=True, ddof=1)"),
          (1, "keepdims=True) / d\n    normed", "keepdims=True) / (d - 1)\n    normed"),
          (2, "s = ((row - m) ** 2).mean()", "s = np.var(row, ddof=1)"),
          (1, [("keepdims=True) / d\n    normed", "keepdims=True) / (d - 1)\n    normed"),   # and an upcast
               ("np.sqrt(variance + eps)", "np.sqrt(variance + np.float64(eps))")]))
L.mistake(LN, "epsilon added outside the square root", (0, "np.sqrt(var + eps)", "(np.sqrt(var) + eps)"),
          (1, "np.sqrt(variance + eps)", "(np.sqrt(variance) + eps)"), (2, "math.sqrt(s + eps)", "(math.sqrt(s) + eps)"))
L.mistake(LN, "epsilon left out (or far too small, like 1e-12)", (0, "np.sqrt(var + eps)", "np.sqrt(var)"),
          (1, "np.sqrt(variance + eps)", "np.sqrt(variance + 1e-12)"), (2, "math.sqrt(s + eps)", "math.sqrt(s)"))
L.mistake(LN, "epsilon 1e-6 instead of 1e-5", (0, "var + eps", "var + 1e-6"), (1, "variance + eps", "variance + 1e-6"),
          (2, "s + eps", "s + 1e-6"))
L.mistake(LN, "the eps argument is ignored", (0, "var + eps", "var + 1e-5"), (1, "variance + eps", "variance + 0.00001"),
          (2, "math.sqrt(s + eps)", "math.sqrt(s + 1e-05)"))
L.mistake(LN, "normalised over the wrong axis (axis 0)",
          (0, [("x.mean(axis=-1, keepdims=True)", "x.mean(axis=0, keepdims=True)"),
               ("x.var(axis=-1, keepdims=True)", "x.var(axis=0, keepdims=True)")]),
          (1, [("d = x.shape[-1]", "d = x.shape[0]"), ("np.sum(x, axis=-1, keepdims=True)", "np.sum(x, axis=0, keepdims=True)"),
               ("np.sum(centred ** 2, axis=-1, keepdims=True)", "np.sum(centred ** 2, axis=0, keepdims=True)")]), '''
def layer_norm(x, weight, bias, eps=1e-5):
    m = np.mean(x, 0)
    v = np.mean((x - m) ** 2, 0)
    return (x - m) / np.sqrt(v + eps) * weight + bias
''')
L.mistake(LN, "mean and variance taken over the whole array",
          (0, [("x.mean(axis=-1, keepdims=True)", "x.mean()"), ("x.var(axis=-1, keepdims=True)", "x.var()")]),
          (1, [("np.sum(x, axis=-1, keepdims=True) / d", "np.sum(x) / x.size"),
               ("np.sum(centred ** 2, axis=-1, keepdims=True) / d", "np.sum(centred ** 2) / x.size")]), '''
def layer_norm(x, weight, bias, eps=1e-5):
    z = (x - np.mean(x)) / np.sqrt(np.var(x) + eps)
    return z * weight + bias
''')
L.mistake(LN, "normalised over axis 1 (the positions, in a batch)",
          (0, [("x.mean(axis=-1, keepdims=True)", "x.mean(axis=1, keepdims=True)"),
               ("x.var(axis=-1, keepdims=True)", "x.var(axis=1, keepdims=True)")]),
          (1, [("np.sum(x, axis=-1, keepdims=True)", "np.sum(x, axis=1, keepdims=True)"),
               ("np.sum(centred ** 2, axis=-1, keepdims=True)", "np.sum(centred ** 2, axis=1, keepdims=True)"),
               ("d = x.shape[-1]", "d = x.shape[1]")]), '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = np.mean(x, axis=1, keepdims=True)
    std = np.sqrt(np.mean(np.square(x - mean), axis=1, keepdims=True) + eps)
    return (x - mean) / std * weight + bias
''')
L.mistake(LN, "bias `bias` left out", (0, " * weight + bias", " * weight"))
L.mistake(LN, "`bias` and `weight` swapped", (1, "return weight * normed + bias", "return bias * normed + weight"))
L.uncatalogued(LN, "standard deviation squared", (2, "math.sqrt(s + eps)", "(s + eps)"))

# ------------------------------------------------------------------ causal_self_attention
L.styles("causal_self_attention", '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = (np.swapaxes(t.reshape(*lead, T, n_head, dk), -3, -2) for t in np.split(qkv, 3, axis=-1))
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(dk)
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    y = np.swapaxes(w @ v, -3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''', '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    B_shape = x.shape[:-2]
    T, C = x.shape[-2:]
    hd = C // n_head
    qkv = np.matmul(x, w_qkv) + b_qkv
    q, k, v = qkv[..., :C], qkv[..., C:2 * C], qkv[..., 2 * C:]

    def split(t):
        t = t.reshape(B_shape + (T, n_head, hd))
        return np.moveaxis(t, -2, -3)

    q, k, v = split(q), split(k), split(v)
    scores = np.matmul(q, np.moveaxis(k, -1, -2)) * (1.0 / math.sqrt(hd))
    future = np.triu(np.ones((T, T), dtype=bool), 1)
    scores[..., future] = -np.inf
    scores = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    p = p / p.sum(axis=-1, keepdims=True)
    out = np.matmul(p, v)
    out = np.moveaxis(out, -3, -2).reshape(B_shape + (T, C))
    return np.matmul(out, w_o) + b_o
''', '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    dk = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    allowed = np.tril(np.ones((T, T), dtype=bool))
    heads = []
    for h in range(n_head):
        cols = slice(h * dk, (h + 1) * dk)
        s = q[..., cols] @ np.swapaxes(k[..., cols], -1, -2) / dk ** 0.5
        s = np.where(allowed, s, -np.inf)
        w = np.exp(s - s.max(axis=-1, keepdims=True))
        w = w / w.sum(axis=-1, keepdims=True)
        heads.append(w @ v[..., cols])
    return np.concatenate(heads, axis=-1) @ w_o + b_o
''', '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *batch, T, d = x.shape
    hs = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*batch, T, n_head, hs)
    k = k.reshape(*batch, T, n_head, hs)
    v = v.reshape(*batch, T, n_head, hs)
    att = np.einsum("...qhd,...khd->...hqk", q, k) / math.sqrt(hs)
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att = att / att.sum(-1, keepdims=True)
    y = np.einsum("...hqk,...khd->...qhd", att, v)
    return y.reshape(*batch, T, d) @ w_o + b_o
''')
AT = "causal_self_attention"
SPLIT_A = ("np.swapaxes(t.reshape(*lead, T, n_head, dk), -3, -2)", "t.reshape(*lead, n_head, T, dk)")
MERGE_A = ("np.swapaxes(w @ v, -3, -2).reshape(*lead, T, d)", "(w @ v).reshape(*lead, T, d)")
SPLIT_B = ("        t = t.reshape(B_shape + (T, n_head, hd))\n        return np.moveaxis(t, -2, -3)\n",
           "        return t.reshape(B_shape + (n_head, T, hd))\n")
MERGE_B = ("np.moveaxis(out, -3, -2).reshape(B_shape + (T, C))", "out.reshape(B_shape + (T, C))")
EINSUM_SPLIT = [(f"{t} = {t}.reshape(*batch, T, n_head, hs)", f"{t} = {t}.reshape(*batch, n_head, T, hs)") for t in "qkv"]
L.mistake(AT, "head split by reshape without transpose", (0, [SPLIT_A, MERGE_A]), (1, [SPLIT_B, MERGE_B]),
          (3, EINSUM_SPLIT + [('"...qhd,...khd->...hqk"', '"...hqd,...hkd->...hqk"'),
                              ('"...hqk,...khd->...qhd"', '"...hqk,...hkd->...hqd"')]))
L.mistake(AT, "heads merged by reshape without transpose", (0, [MERGE_A]), (1, [MERGE_B]),
          (3, '"...hqk,...khd->...qhd"', '"...hqk,...khd->...hqd"'))
L.mistake(AT, "head split by reshape without transpose, heads merged correctly", (0, [SPLIT_A]), (1, [SPLIT_B]),
          (3, EINSUM_SPLIT + [('"...qhd,...khd->...hqk"', '"...hqd,...hkd->...hqk"'),
                              ('"...hqk,...khd->...qhd"', '"...hqk,...hkd->...qhd"')]))
L.mistake(AT, "scores scaled by sqrt(d) instead of sqrt(d_k)", (0, "math.sqrt(dk)", "math.sqrt(d)"),
          (1, "math.sqrt(hd)", "math.sqrt(C)"), (2, "/ dk ** 0.5", "/ d ** 0.5"), (3, "math.sqrt(hs)", "math.sqrt(d)"))
L.mistake(AT, "scores not scaled", (0, " / math.sqrt(dk)", ""), (1, " * (1.0 / math.sqrt(hd))", ""), (2, " / dk ** 0.5", ""))
L.mistake(AT, "no causal mask", (0, "    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)\n", ""),
          (1, "    scores[..., future] = -np.inf\n", ""), (2, "        s = np.where(allowed, s, -np.inf)\n", ""))
L.mistake(AT, ("no causal mask", "float32 inputs upcast to float64"),
          (0, [("    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)\n", ""), ("math.sqrt(dk)", "np.sqrt(dk)")]),
          (1, [("    scores[..., future] = -np.inf\n", ""), ("(1.0 / math.sqrt(hd))", "(1.0 / np.sqrt(hd))")]),
          (2, [("        s = np.where(allowed, s, -np.inf)\n", ""), ("/ dk ** 0.5", "/ np.sqrt(dk)")]))
L.mistake(AT, "causal mask hides the diagonal", (0, "np.tril(np.ones((T, T), dtype=bool))", "np.tril(np.ones((T, T), dtype=bool), k=-1)"),
          (1, "np.triu(np.ones((T, T), dtype=bool), 1)", "np.triu(np.ones((T, T), dtype=bool))"),
          (2, "allowed = np.tril(np.ones((T, T), dtype=bool))", "allowed = np.arange(T)[:, None] > np.arange(T)"))
L.mistake(AT, "causal mask hides the diagonal (filled with a large finite number)",
          (0, [("np.tril(np.ones((T, T), dtype=bool))", "np.tril(np.ones((T, T), dtype=bool), k=-1)"), (", s, -np.inf)", ", s, -1e9)")]),
          (1, [("np.triu(np.ones((T, T), dtype=bool), 1)", "np.triu(np.ones((T, T), dtype=bool))"), ("= -np.inf", "= -1e10")]),
          (2, [("allowed = np.tril(np.ones((T, T), dtype=bool))", "allowed = np.arange(T)[:, None] > np.arange(T)"),
               ("s = np.where(allowed, s, -np.inf)", "s = np.where(allowed, s, -1e9)")]))
L.mistake(AT, ("mask applied after the softmax", "float32 inputs upcast to float64"),   # np.ones is float64
          (0, [("    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)\n", ""),
               ("    w = w / w.sum(axis=-1, keepdims=True)\n",
                "    w = w / w.sum(axis=-1, keepdims=True)\n    w = w * np.tril(np.ones((T, T)))\n")]))
L.mistake(AT, "mask applied after the softmax",
          (0, [("    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)\n", ""),
               ("    w = w / w.sum(axis=-1, keepdims=True)\n",
                "    w = w / w.sum(axis=-1, keepdims=True)\n    w = np.where(np.tril(np.ones((T, T), bool)), w, 0)\n")]),
          (1, [("    scores[..., future] = -np.inf\n", ""), ("    out = np.matmul(p, v)", "    p[..., future] = 0.0\n    out = np.matmul(p, v)")]),
          (2, [("        s = np.where(allowed, s, -np.inf)\n", ""),
               ("        heads.append(w @ v[..., cols])", "        heads.append((w * allowed) @ v[..., cols])")]))
L.mistake(AT, "softmax over the query axis instead of the key axis",
          (0, [("s.max(axis=-1, keepdims=True)", "s.max(axis=-2, keepdims=True)"), ("w.sum(axis=-1, keepdims=True)", "w.sum(axis=-2, keepdims=True)")]),
          (1, [("scores.max(axis=-1, keepdims=True)", "scores.max(axis=-2, keepdims=True)"), ("p.sum(axis=-1, keepdims=True)", "p.sum(axis=-2, keepdims=True)")]),
          (3, [("att.max(-1, keepdims=True)", "att.max(-2, keepdims=True)"), ("att.sum(-1, keepdims=True)", "att.sum(-2, keepdims=True)")]))
L.mistake(AT, "float32 inputs upcast to float64", (0, "math.sqrt(dk)", "np.sqrt(dk)"),
          (1, "(1.0 / math.sqrt(hd))", "(np.float64(1.0) / np.sqrt(hd))"), (2, "/ dk ** 0.5", "/ np.sqrt(dk)"))
L.mistake(AT, "bias `b_o` left out", (0, "return y @ w_o + b_o", "return y @ w_o"))
L.uncatalogued(AT, "K and V swapped", (1, "q, k, v = qkv[..., :C], qkv[..., C:2 * C], qkv[..., 2 * C:]",
                                          "q, v, k = qkv[..., :C], qkv[..., C:2 * C], qkv[..., 2 * C:]"))
L.uncatalogued(AT, "softmax without the exp", (2, "w = np.exp(s - s.max(axis=-1, keepdims=True))",
                                                  "w = np.where(allowed, s - s.min(axis=-1, keepdims=True), 0.0)"))

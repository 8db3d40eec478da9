"""Lesson 07: sinusoidal_positions, position_similarity and principal_components, as learners write them."""
from . import Lesson

LESSON = Lesson()
L = LESSON
SIN, SIM, PCA = "sinusoidal_positions", "position_similarity", "principal_components"

# ------------------------------------------------------------------ sinusoidal_positions
L.styles(SIN, '''
def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d={d}")
    even = np.arange(0, d, 2)
    omega = 1.0 / base ** (even / d)
    angles = np.outer(np.arange(T), omega)
    pe = np.zeros((T, d))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
    return pe
''', '''
def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"odd width d={d}: sines and cosines come in pairs")
    t = np.arange(T, dtype=np.float64)
    pe = np.empty((T, d))
    for i in range(d // 2):
        w = base ** (-2 * i / d)
        pe[:, 2 * i] = np.sin(t * w)
        pe[:, 2 * i + 1] = np.cos(t * w)
    return pe
''', '''
def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 == 1:
        raise ValueError("cannot build pairs for d = %d" % d)
    position = np.arange(T)[:, None]
    div_term = np.exp(np.arange(0, d, 2) * (-math.log(base) / d))
    table = np.zeros((T, d), dtype=np.float64)
    table[:, 0::2] = np.sin(position * div_term)
    table[:, 1::2] = np.cos(position * div_term)
    return table
''')
L.mistake(SIN, "sines and cosines in two halves instead of interleaved",
          (0, "pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)", "pe = np.concatenate([np.sin(angles), np.cos(angles)], axis=1)"),
          (1, [("pe[:, 2 * i] = np.sin(t * w)", "pe[:, i] = np.sin(t * w)"), ("pe[:, 2 * i + 1] = np.cos(t * w)", "pe[:, d // 2 + i] = np.cos(t * w)")]),
          (2, [("table[:, 0::2] = np.sin(position * div_term)", "table[:, :d // 2] = np.sin(position * div_term)"),
               ("table[:, 1::2] = np.cos(position * div_term)", "table[:, d // 2:] = np.cos(position * div_term)")]))
L.mistake(SIN, "sin and cos swapped", (0, "np.sin(angles), np.cos(angles)", "np.cos(angles), np.sin(angles)"),
          (1, [("pe[:, 2 * i] = np.sin(t * w)", "pe[:, 2 * i] = np.cos(t * w)"), ("pe[:, 2 * i + 1] = np.cos(t * w)", "pe[:, 2 * i + 1] = np.sin(t * w)")]),
          (2, [("table[:, 0::2] = np.sin(", "table[:, 0::2] = np.cos("), ("table[:, 1::2] = np.cos(", "table[:, 1::2] = np.sin(")]))
L.mistake(SIN, "exponent i/d instead of 2i/d", (0, "even = np.arange(0, d, 2)", "even = np.arange(d // 2)"),
          (1, "w = base ** (-2 * i / d)", "w = base ** (-i / d)"), (2, "np.exp(np.arange(0, d, 2) *", "np.exp(np.arange(d // 2) *"))
L.mistake(SIN, "each cosine column with its own frequency",
          (0, [("omega = 1.0 / base ** (even / d)", "omega = 1.0 / base ** (np.arange(d) / d)"),
               ("np.sin(angles), np.cos(angles)", "np.sin(angles[:, 0::2]), np.cos(angles[:, 1::2])")]),
          (1, "pe[:, 2 * i + 1] = np.cos(t * w)", "pe[:, 2 * i + 1] = np.cos(t * base ** (-(2 * i + 1) / d))"),
          (2, [("div_term = np.exp(np.arange(0, d, 2) * (-math.log(base) / d))", "div_term = np.exp(np.arange(d) * (-math.log(base) / d))"),
               ("np.sin(position * div_term)", "np.sin(position * div_term[0::2])"), ("np.cos(position * div_term)", "np.cos(position * div_term[1::2])")]))
L.mistake(SIN, "base argument ignored (10000 hard-coded)", (0, "1.0 / base **", "1.0 / 10000.0 **"),
          (1, "w = base ** (-2 * i / d)", "w = 10000 ** (-2 * i / d)"), (2, "math.log(base)", "math.log(10000.0)"))
L.mistake(SIN, "positions counted from 1", (0, "np.outer(np.arange(T), omega)", "np.outer(np.arange(1, T + 1), omega)"),
          (1, "t = np.arange(T, dtype=np.float64)", "t = np.arange(1, T + 1, dtype=np.float64)"),
          (2, "position = np.arange(T)[:, None]", "position = np.arange(1, T + 1)[:, None]"))
L.mistake(SIN, "odd d without a ValueError naming d", (0, '    if d % 2 != 0:\n        raise ValueError(f"d must be even, got d={d}")\n', ""),
          (1, 'raise ValueError(f"odd width d={d}: sines and cosines come in pairs")', 'raise ValueError("odd width: sines and cosines come in pairs")'),
          (2, '        raise ValueError("cannot build pairs for d = %d" % d)', '        raise TypeError("cannot build pairs for d = %d" % d)'),
          (1, '    if d % 2:\n        raise ValueError(f"odd width d={d}: sines and cosines come in pairs")\n', ""))
L.uncatalogued(SIN, "frequencies base ** (+2i/d)", (1, "w = base ** (-2 * i / d)", "w = base ** (2 * i / d) / base"))
L.uncatalogued(SIN, "angles in degrees", (0, "np.outer(np.arange(T), omega)", "np.radians(np.outer(np.arange(T), omega))"))

# ------------------------------------------------------------------ position_similarity
L.styles(SIM, '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be a 2-D (T, d) table, got shape {wpe.shape}")
    norms = np.linalg.norm(wpe, axis=1, keepdims=True)
    rows = wpe / norms
    return rows @ rows.T
''', '''
def position_similarity(wpe):
    if len(wpe.shape) != 2:
        raise ValueError("expected (T, d), got " + str(wpe.shape))
    norms = np.sqrt((wpe ** 2).sum(axis=1))
    return (wpe @ wpe.T) / np.outer(norms, norms)
''', '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"{wpe.shape} is not a 2-D table")
    u = wpe / np.linalg.norm(wpe, axis=-1)[:, None]
    return np.einsum("td,sd->ts", u, u)
''')
L.correct(SIM, "a loop over pairs", '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe has shape {wpe.shape}, not (T, d)")
    T = wpe.shape[0]
    out = np.empty((T, T), dtype=wpe.dtype)
    for s in range(T):
        for t in range(T):
            out[s, t] = wpe[s] @ wpe[t] / (np.linalg.norm(wpe[s]) * np.linalg.norm(wpe[t]))
    return out
''')
L.mistake(SIM, "columns scaled to length 1 instead of rows", (0, "np.linalg.norm(wpe, axis=1, keepdims=True)", "np.linalg.norm(wpe, axis=0, keepdims=True)"),
          (2, "np.linalg.norm(wpe, axis=-1)[:, None]", "np.linalg.norm(wpe, axis=0)[None, :]"),
          (1, [("    norms = np.sqrt((wpe ** 2).sum(axis=1))\n    return (wpe @ wpe.T) / np.outer(norms, norms)",
                "    u = wpe / np.sqrt((wpe * wpe).sum(0, keepdims=True))\n    return u @ u.T")]))
L.mistake(SIM, "dot products, not cosines", (0, "return rows @ rows.T", "return wpe @ wpe.T"),
          (1, "return (wpe @ wpe.T) / np.outer(norms, norms)", "return wpe @ wpe.T"),
          (2, 'np.einsum("td,sd->ts", u, u)', 'np.einsum("td,sd->ts", wpe, wpe)'))
L.mistake(SIM, "divided by one row's length only", (0, "    rows = wpe / norms\n    return rows @ rows.T", "    return (wpe @ wpe.T) / norms"),
          (1, "return (wpe @ wpe.T) / np.outer(norms, norms)", "return (wpe @ wpe.T) / norms"),
          (2, "    u = wpe / np.linalg.norm(wpe, axis=-1)[:, None]\n    return np.einsum(\"td,sd->ts\", u, u)",
           "    u = wpe / np.linalg.norm(wpe, axis=-1)[:, None]\n    return np.einsum(\"td,sd->ts\", u, wpe)"))
L.mistake(SIM, "features compared instead of positions", (0, "return rows @ rows.T", "return rows.T @ rows"),
          (2, '"td,sd->ts"', '"td,te->de"'),
          (1, "    norms = np.sqrt((wpe ** 2).sum(axis=1))\n    return (wpe @ wpe.T) / np.outer(norms, norms)",
           "    u = wpe / np.sqrt((wpe ** 2).sum(axis=1, keepdims=True))\n    return np.dot(u.T, u)"))
L.mistake(SIM, "correlation (np.corrcoef) instead of cosine similarity",
          (0, "    norms = np.linalg.norm(wpe, axis=1, keepdims=True)\n    rows = wpe / norms\n    return rows @ rows.T", "    return np.corrcoef(wpe)"),
          (1, "    norms = np.sqrt((wpe ** 2).sum(axis=1))\n    return (wpe @ wpe.T) / np.outer(norms, norms)", "    return np.corrcoef(wpe).astype(wpe.dtype)"),
          (2, "    u = wpe / np.linalg.norm(wpe, axis=-1)[:, None]\n    return np.einsum(\"td,sd->ts\", u, u)", "    return np.corrcoef(wpe, rowvar=True)"))
L.mistake(SIM, "rows centred before the cosine (a correlation)",
          (0, "    norms = np.linalg.norm(wpe, axis=1, keepdims=True)\n", "    wpe = wpe - wpe.mean(axis=1, keepdims=True)\n    norms = np.linalg.norm(wpe, axis=1, keepdims=True)\n"),
          (1, "    norms = np.sqrt((wpe ** 2).sum(axis=1))\n", "    wpe = wpe - wpe.mean(1)[:, None]\n    norms = np.sqrt((wpe ** 2).sum(axis=1))\n"),
          (2, "    u = wpe / np.linalg.norm(wpe, axis=-1)[:, None]", "    c = wpe - wpe.mean(-1, keepdims=True)\n    u = c / np.linalg.norm(c, axis=-1)[:, None]"))
L.mistake(SIM, "float32 table answered in float64", (0, "    norms = np.linalg.norm(wpe, axis=1, keepdims=True)\n",
                                                     "    wpe = wpe.astype(np.float64)\n    norms = np.linalg.norm(wpe, axis=1, keepdims=True)\n"),
          (1, "norms = np.sqrt((wpe ** 2).sum(axis=1))", "norms = np.sqrt((wpe.astype(float) ** 2).sum(axis=1))"),
          (2, 'np.einsum("td,sd->ts", u, u)', 'np.einsum("td,sd->ts", u, u, dtype=np.float64)'))
L.uncatalogued(SIM, "squared cosines", (0, "return rows @ rows.T", "return (rows @ rows.T) ** 2"))
L.uncatalogued(SIM, "a distance, not a similarity", (2, 'return np.einsum("td,sd->ts", u, u)', 'return 1 - np.einsum("td,sd->ts", u, u)'))

# ------------------------------------------------------------------ principal_components
L.styles(PCA, '''
def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be a 2-D (T, d) table, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is more than the min(T, d) = {min(T, d)} directions")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    biggest = np.abs(V).argmax(axis=0)
    V = V * np.sign(V[biggest, np.arange(k)])
    return (Xc @ V).astype(wpe.dtype)
''', '''
def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"asked for k={k} components but min(T, d) is {min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0, keepdims=True)
    cov = Xc.T @ Xc / (T - 1)
    vals, vecs = np.linalg.eigh(cov)
    order = np.argsort(vals)[::-1][:k]
    W = vecs[:, order]
    top = np.argmax(np.abs(W), axis=0)
    W = W * np.sign(W[top, np.arange(k)])
    return (Xc @ W).astype(wpe.dtype)
''', '''
def principal_components(wpe, k):
    if len(wpe.shape) != 2:
        raise ValueError("wpe.shape is %s, not (T, d)" % (wpe.shape,))
    if k > min(wpe.shape):
        raise ValueError(f"k = {k} > min(T, d) = {min(wpe.shape)}")
    centred = wpe - wpe.mean(0)
    u, s, vt = np.linalg.svd(centred, full_matrices=False)
    dirs = vt[:k].copy()
    for j in range(k):
        if dirs[j, np.argmax(np.abs(dirs[j]))] < 0:
            dirs[j] = -dirs[j]
    return centred @ dirs.T
''')
SIGN_A = ("    biggest = np.abs(V).argmax(axis=0)\n    V = V * np.sign(V[biggest, np.arange(k)])\n", "")
SIGN_B = ("    top = np.argmax(np.abs(W), axis=0)\n    W = W * np.sign(W[top, np.arange(k)])\n", "")
SIGN_C = ("    for j in range(k):\n        if dirs[j, np.argmax(np.abs(dirs[j]))] < 0:\n            dirs[j] = -dirs[j]\n", "")
K_A = ('    if k > min(T, d):\n        raise ValueError(f"k={k} is more than the min(T, d) = {min(T, d)} directions")\n', "")
K_B = ('    if k > min(T, d):\n        raise ValueError(f"asked for k={k} components but min(T, d) is {min(T, d)}")\n', "")
K_C = ('    if k > min(wpe.shape):\n        raise ValueError(f"k = {k} > min(T, d) = {min(wpe.shape)}")\n', "")
L.mistake(PCA, "rows not centred", (0, "Xc = X - X.mean(axis=0)", "Xc = X"), (1, "Xc = X - X.mean(axis=0, keepdims=True)", "Xc = X"),
          (2, "centred = wpe - wpe.mean(0)", "centred = wpe"))
L.mistake(PCA, "directions from the centred rows, but the raw rows projected", (0, "return (Xc @ V)", "return (X @ V)"),
          (1, "return (Xc @ W)", "return (X @ W)"), (2, "return centred @ dirs.T", "return wpe @ dirs.T"))
L.mistake(PCA, "the k smallest directions (eigh's ascending order)", (1, "order = np.argsort(vals)[::-1][:k]", "order = np.argsort(vals)[:k]"),
          (1, "W = vecs[:, order]", "W = vecs[:, :k]"), (0, "V = Vt[:k].T", "V = Vt[::-1][:k].T"))
L.mistake(PCA, "the top k directions, smallest first", (1, "order = np.argsort(vals)[::-1][:k]", "order = np.argsort(vals)[-k:]"),
          (0, "V = Vt[:k].T", "V = Vt[:k][::-1].T"), (2, "dirs = vt[:k].copy()", "dirs = vt[:k][::-1].copy()"))
L.mistake(PCA, "sign convention ignored", (0, [SIGN_A]), (1, [SIGN_B]), (2, [SIGN_C]),
          (1, [SIGN_B, ("W = vecs[:, order]", "W = -vecs[:, order]")]))
L.mistake(PCA, ("sign convention ignored", "no check of k"), (0, [SIGN_A, K_A]), (2, [SIGN_C, K_C]), (1, [SIGN_B, K_B]))
L.mistake(PCA, "no check of k", (0, [K_A]), (1, [K_B]), (2, [K_C]))
L.mistake(PCA, "directions returned instead of the projections", (0, "return (Xc @ V).astype(wpe.dtype)", "return V.astype(wpe.dtype)"),
          (1, "return (Xc @ W).astype(wpe.dtype)", "return W.astype(wpe.dtype)"), (2, "return centred @ dirs.T", "return dirs.T"))
L.mistake(PCA, "float32 table answered in float64", (0, "return (Xc @ V).astype(wpe.dtype)", "return Xc @ V"),
          (1, "return (Xc @ W).astype(wpe.dtype)", "return Xc @ W"), (2, "centred = wpe - wpe.mean(0)", "centred = wpe - wpe.mean(0, dtype=np.float64)"))
L.mistake(PCA, "each column off by a factor of its own", (0, "return (Xc @ V).astype(wpe.dtype)", "return (Xc @ V / np.linalg.norm(Xc @ V, axis=0)).astype(wpe.dtype)"))
L.uncatalogued(PCA, "standardised columns first", (1, "Xc = X - X.mean(axis=0, keepdims=True)", "Xc = (X - X.mean(axis=0, keepdims=True)) / X.std(axis=0)"))

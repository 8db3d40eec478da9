"""Lesson 05: count_gpt2_params, as learners write it."""
from . import Lesson

LESSON = Lesson()
L = LESSON
C = "count_gpt2_params"

L.styles(C, '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    embeddings = V * d + T * d
    matrices = 3 * d * d + d * d + 4 * d * d + 4 * d * d
    if bias:
        vectors = (3 * d + d + 4 * d + d) + 2 * (d + d)
        final = d + d
    else:
        vectors = 2 * d
        final = d
    head = 0 if tied else V * d
    return int(embeddings + L * (matrices + vectors) + final + head)
''', '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    total = V * d + T * d
    per_block = 0
    for fan_in, fan_out in [(d, 3 * d), (d, d), (d, 4 * d), (4 * d, d)]:
        per_block += fan_in * fan_out + (fan_out if bias else 0)
    per_block += 2 * (d + (d if bias else 0))
    total += L * per_block
    total += d + (d if bias else 0)
    if not tied:
        total += V * d
    return total
''', '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    shapes = {"wte": (V, d), "wpe": (T, d)}
    linear = {"attn.c_attn": (d, 3 * d), "attn.c_proj": (d, d), "mlp.c_fc": (d, 4 * d), "mlp.c_proj": (4 * d, d)}
    for i in range(L):
        for ln in ("ln_1", "ln_2"):
            shapes[f"h.{i}.{ln}.weight"] = (d,)
            if bias:
                shapes[f"h.{i}.{ln}.bias"] = (d,)
        for name, (a, b) in linear.items():
            shapes[f"h.{i}.{name}.weight"] = (a, b)
            if bias:
                shapes[f"h.{i}.{name}.bias"] = (b,)
    shapes["ln_f.weight"] = (d,)
    if bias:
        shapes["ln_f.bias"] = (d,)
    if not tied:
        shapes["lm_head.weight"] = (V, d)
    return sum(math.prod(s) for s in shapes.values())
''', '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    block = 12 * d**2 + (13 * d if bias else 2 * d)
    final = 2 * d if bias else d
    return V * d + T * d + L * block + final + (0 if tied else V * d)
''', '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    emb = (V + T) * d
    weights = 12 * L * d * d
    if bias:
        vecs = L * (9 * d + 4 * d) + 2 * d
    else:
        vecs = L * 2 * d + d
    head = 0 if tied else V * d
    return emb + weights + vecs + head
''')
L.correct(C, "numpy int64", '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    ln = np.int64(d) * (2 if bias else 1)
    lin = np.array([3 * d, d, 4 * d, d], dtype=np.int64)
    block = (lin * np.array([d, d, d, 4 * d])).sum() + (lin.sum() if bias else 0) + 2 * ln
    return (V + T) * d + L * block + ln + (0 if tied else V * d)
''')
L.mistake(C, "tied matrix counted twice", (0, "head = 0 if tied else V * d", "head = V * d"),
          (1, "    if not tied:\n        total += V * d\n", "    total += V * d\n"),
          (3, "(0 if tied else V * d)", "V * d"), (2, '    if not tied:\n        shapes["lm_head.weight"] = (V, d)\n', '    shapes["lm_head.weight"] = (V, d)\n'))
L.mistake(C, "position table forgotten", (0, "embeddings = V * d + T * d", "embeddings = V * d"),
          (2, 'shapes = {"wte": (V, d), "wpe": (T, d)}', 'shapes = {"wte": (V, d)}'), (3, "V * d + T * d + ", "V * d + "),
          (4, "emb = (V + T) * d", "emb = V * d"))
L.mistake(C, "LayerNorms forgotten", (0, [("(3 * d + d + 4 * d + d) + 2 * (d + d)", "(3 * d + d + 4 * d + d)"),
                                          ("        final = d + d\n", "        final = 0\n"), ("        vectors = 2 * d\n        final = d\n",
                                                                                            "        vectors = 0\n        final = 0\n")]),
          (1, [("    per_block += 2 * (d + (d if bias else 0))\n", ""), ("    total += d + (d if bias else 0)\n", "")]),
          (4, [("vecs = L * (9 * d + 4 * d) + 2 * d", "vecs = L * 9 * d"), ("vecs = L * 2 * d + d", "vecs = 0")]))
L.mistake(C, "13d written as 9d (the blocks' LayerNorms left out)",
          (0, "vectors = (3 * d + d + 4 * d + d) + 2 * (d + d)", "vectors = 3 * d + d + 4 * d + d"),
          (3, "(13 * d if bias else 2 * d)", "(9 * d if bias else 2 * d)"), (4, "L * (9 * d + 4 * d) + 2 * d", "L * 9 * d + 2 * d"))
L.mistake(C, "13d written as 4d (the linear biases left out)",
          (0, "vectors = (3 * d + d + 4 * d + d) + 2 * (d + d)", "vectors = 2 * (d + d)"),
          (3, "(13 * d if bias else 2 * d)", "(4 * d if bias else 2 * d)"), (4, "L * (9 * d + 4 * d) + 2 * d", "L * 4 * d + 2 * d"))
L.mistake(C, "final LayerNorm forgotten", (0, " + final + head", " + head"), (1, "    total += d + (d if bias else 0)\n", ""),
          (3, " + final + (0", " + (0"), (4, [("L * (9 * d + 4 * d) + 2 * d", "L * (9 * d + 4 * d)"), ("L * 2 * d + d", "L * 2 * d")]))
L.mistake(C, "bias=False also removes the LayerNorm gains", (0, "        vectors = 2 * d\n        final = d\n", "        vectors = 0\n        final = 0\n"),
          (3, [("(13 * d if bias else 2 * d)", "(13 * d if bias else 0)"), ("final = 2 * d if bias else d", "final = 2 * d if bias else 0")]),
          (4, "vecs = L * 2 * d + d", "vecs = 0"),
          (2, [('            shapes[f"h.{i}.{ln}.weight"] = (d,)\n            if bias:\n', '            if bias:\n                shapes[f"h.{i}.{ln}.weight"] = (d,)\n'),
               ('    shapes["ln_f.weight"] = (d,)\n    if bias:\n', '    if bias:\n        shapes["ln_f.weight"] = (d,)\n')]))
L.mistake(C, "bias=False keeps the LayerNorm biases", (0, "        vectors = 2 * d\n        final = d\n", "        vectors = 4 * d\n        final = 2 * d\n"),
          (1, [("per_block += 2 * (d + (d if bias else 0))", "per_block += 2 * (d + d)"), ("total += d + (d if bias else 0)", "total += 2 * d")]),
          (2, [('            shapes[f"h.{i}.{ln}.weight"] = (d,)\n            if bias:\n                shapes[f"h.{i}.{ln}.bias"] = (d,)\n',
                '            shapes[f"h.{i}.{ln}.weight"] = (d,)\n            shapes[f"h.{i}.{ln}.bias"] = (d,)\n'),
               ('    shapes["ln_f.weight"] = (d,)\n    if bias:\n        shapes["ln_f.bias"] = (d,)\n',
                '    shapes["ln_f.weight"] = shapes["ln_f.bias"] = (d,)\n')]),
          (3, [("(13 * d if bias else 2 * d)", "(13 * d if bias else 4 * d)"), ("final = 2 * d if bias else d", "final = 2 * d")]),
          (4, "vecs = L * 2 * d + d", "vecs = L * 4 * d + 2 * d"))
L.mistake(C, "untied head given a bias", (0, "head = 0 if tied else V * d", "head = 0 if tied else V * d + V"),
          (1, "        total += V * d\n", "        total += V * d + V\n"),
          (2, '        shapes["lm_head.weight"] = (V, d)\n', '        shapes["lm_head.weight"] = (V, d)\n        shapes["lm_head.bias"] = (V,)\n'),
          (3, "(0 if tied else V * d)", "(0 if tied else (d + 1) * V)"))
L.uncatalogued(C, "final LayerNorm counted in every block", (3, [("(13 * d if bias else 2 * d)", "(15 * d if bias else 3 * d)"),
                                                                  (" + final + (0", " + (0")]))
L.mistake(C, "5·L·d parameters too few", (1, "per_block += fan_in * fan_out + (fan_out if bias else 0)", "per_block += fan_in * fan_out + (d if bias else 0)"))
L.mistake(C, "2·L·d·d parameters too few", (4, "weights = 12 * L * d * d", "weights = 10 * L * d * d"))

"""Lesson 08: cross_entropy, get_batch and sample_next, as learners write them."""
from . import Lesson

LESSON = Lesson()
L = LESSON
CE, GB, SN = "cross_entropy", "get_batch", "sample_next"

# ------------------------------------------------------------------ cross_entropy
L.styles(CE, '''
def cross_entropy(logits, targets):
    vocab = logits.shape[-1]
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape} and logits {logits.shape}")
    if targets.size and (targets.min() < 0 or targets.max() >= vocab):
        worst = targets.min() if targets.min() < 0 else targets.max()
        raise ValueError(f"target id {worst} is not in the vocabulary [0, {vocab})")
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_norm = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    log_probs = shifted - log_norm
    nll = -np.take_along_axis(log_probs, targets[..., None], axis=-1)
    return nll.mean()
''', '''
def cross_entropy(logits, targets):
    V = logits.shape[-1]
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits {logits.shape}")
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].ravel()[0]
        raise ValueError(f"target id {bad} outside [0, {V})")
    z = logits.reshape(-1, V)
    t = targets.reshape(-1)
    m = z.max(axis=1, keepdims=True)
    lse = (m + np.log(np.exp(z - m).sum(axis=1, keepdims=True)))[:, 0]
    return np.mean(lse - z[np.arange(len(t)), t])
''', '''
def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError("shape mismatch: targets %s, logits %s" % (targets.shape, logits.shape))
    for t in np.ravel(targets):
        if not 0 <= t < logits.shape[-1]:
            raise ValueError(f"target {t} is not a valid id")
    flat = logits.reshape(-1, logits.shape[-1])
    total = logits.dtype.type(0)
    for row, t in zip(flat, targets.reshape(-1)):
        shifted = row - row.max()
        total += np.log(np.exp(shifted).sum()) - shifted[t]
    return total / len(flat)
''')
CHECKS_A = ('    if targets.shape != logits.shape[:-1]:\n        raise ValueError(f"targets have shape {targets.shape} and logits {logits.shape}")\n'
            '    if targets.size and (targets.min() < 0 or targets.max() >= vocab):\n'
            '        worst = targets.min() if targets.min() < 0 else targets.max()\n'
            '        raise ValueError(f"target id {worst} is not in the vocabulary [0, {vocab})")\n', "")
NO_SHIFT_A = ("shifted = logits - logits.max(axis=-1, keepdims=True)", "shifted = logits")
LOG_SM_A = ("    log_norm = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))\n    log_probs = shifted - log_norm\n",
            "    log_probs = np.log(np.exp(shifted) / np.exp(shifted).sum(axis=-1, keepdims=True))\n")
L.mistake(CE, "softmax without subtracting the max", (0, [NO_SHIFT_A]),
          (1, "    lse = (m + np.log(np.exp(z - m).sum(axis=1, keepdims=True)))[:, 0]", "    lse = np.log(np.exp(z).sum(axis=1))"),
          (2, "shifted = row - row.max()", "shifted = row"))
L.mistake(CE, "log of the softmax", (0, [LOG_SM_A]),
          (1, "    return np.mean(lse - z[np.arange(len(t)), t])",
           "    p = np.exp(z - m) / np.exp(z - m).sum(axis=1, keepdims=True)\n    return -np.mean(np.log(p[np.arange(len(t)), t]))"),
          (2, "total += np.log(np.exp(shifted).sum()) - shifted[t]", "total -= np.log(np.exp(shifted)[t] / np.exp(shifted).sum())"))
NAIVE = ("softmax without subtracting the max", "log of the softmax")
L.mistake(CE, NAIVE, (0, [NO_SHIFT_A, LOG_SM_A]), (0, [CHECKS_A, NO_SHIFT_A, LOG_SM_A]), '''
def cross_entropy(logits, targets):
    probs = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    picked = np.take_along_axis(probs, targets[..., None], axis=-1)
    return -np.log(picked).mean()
''')
L.mistake(CE, NAIVE + ("loss returned as a Python float",), '''
def cross_entropy(logits, targets):
    e = np.exp(logits)
    p = e / e.sum(-1, keepdims=True)
    return float(-np.mean(np.log(np.take_along_axis(p, targets[..., None], -1))))
''')
L.mistake(CE, "sum instead of mean", (0, "return nll.mean()", "return nll.sum()"), (1, "return np.mean(lse - z[np.arange(len(t)), t])", "return np.sum(lse - z[np.arange(len(t)), t])"),
          (2, "return total / len(flat)", "return total"))
L.mistake(CE, "every target scored at every position",
          (0, "nll = -np.take_along_axis(log_probs, targets[..., None], axis=-1)", "nll = -log_probs.reshape(-1, vocab)[:, targets.reshape(-1)]"),
          (1, "z[np.arange(len(t)), t]", "z[:, t]"),
          (0, "nll = -np.take_along_axis(log_probs, targets[..., None], axis=-1)", "nll = -log_probs[..., targets]"))
L.mistake(CE, "softmax over the wrong axis", (0, [("logits.max(axis=-1, keepdims=True)", "logits.max(axis=0, keepdims=True)"),
                                                  ("np.exp(shifted).sum(axis=-1, keepdims=True)", "np.exp(shifted).sum(axis=0, keepdims=True)")]),
          '''
def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} vs logits {logits.shape}")
    if targets.size and (targets.min() < 0 or targets.max() >= logits.shape[-1]):
        raise ValueError(f"target id {targets.min() if targets.min() < 0 else targets.max()} out of range")
    z = logits - logits.max(0)
    logp = z - np.log(np.exp(z).sum(0))
    return -np.mean(np.take_along_axis(logp, targets[..., None], -1))
''', (0, [("logits.max(axis=-1, keepdims=True)", "np.max(logits, 0, keepdims=True)"),
          ("np.exp(shifted).sum(axis=-1, keepdims=True)", "np.sum(np.exp(shifted), 0, keepdims=True)")]))
L.mistake(CE, "softmax over axis 1 (the positions, in a batch)",
          (0, [("logits.max(axis=-1, keepdims=True)", "logits.max(axis=1, keepdims=True)"),
               ("np.exp(shifted).sum(axis=-1, keepdims=True)", "np.exp(shifted).sum(axis=1, keepdims=True)")]), '''
def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} vs logits {logits.shape}")
    if targets.size and (targets.min() < 0 or targets.max() >= logits.shape[-1]):
        raise ValueError(f"target id {targets.min() if targets.min() < 0 else targets.max()} out of range")
    m = np.max(logits, axis=1, keepdims=True)
    logp = logits - m - np.log(np.sum(np.exp(logits - m), axis=1, keepdims=True))
    return -np.take_along_axis(logp, targets[..., None], axis=-1).mean()
''', (0, [("logits.max(axis=-1, keepdims=True)", "np.amax(logits, 1, keepdims=True)"),
          ("np.exp(shifted).sum(axis=-1, keepdims=True)", "np.exp(shifted).sum(1, keepdims=True)")]))
L.mistake(CE, "sign flipped (the log-likelihood, not its negative)",
          (0, "nll = -np.take_along_axis(", "nll = np.take_along_axis("),
          (1, "return np.mean(lse - z[np.arange(len(t)), t])", "return np.mean(z[np.arange(len(t)), t] - lse)"),
          (2, "total += np.log(np.exp(shifted).sum()) - shifted[t]", "total += shifted[t] - np.log(np.exp(shifted).sum())"))
L.mistake(CE, "float32 logits upcast to float64", (0, "shifted = logits - logits.max(axis=-1, keepdims=True)",
                                                   "z = logits.astype(np.float64)\n    shifted = z - z.max(axis=-1, keepdims=True)"),
          (1, "z = logits.reshape(-1, V)", "z = logits.reshape(-1, V).astype(float)"),
          (2, "total = logits.dtype.type(0)", "total = np.float64(0)"))
L.mistake(CE, "negative target ids not refused", (0, "(targets.min() < 0 or targets.max() >= vocab)", "targets.max() >= vocab"),
          (1, "np.any(targets < 0) or np.any(targets >= V)", "np.any(targets >= V)"),
          (2, "if not 0 <= t < logits.shape[-1]:", "if t >= logits.shape[-1]:"))
L.mistake(CE, "loss returned as a Python float", (0, "return nll.mean()", "return float(nll.mean())"),
          (1, "return np.mean(lse - z[np.arange(len(t)), t])", "return float(np.mean(lse - z[np.arange(len(t)), t]))"),
          (2, "return total / len(flat)", "return total.item() / len(flat)"))
L.uncatalogued(CE, "mean over the vocabulary too", (0, "return nll.mean()", "return -log_probs.mean()"))
L.mistake(CE, "off by a constant factor 1/ln(2)", (1, "return np.mean(lse - z[np.arange(len(t)), t])", "return np.mean(lse - z[np.arange(len(t)), t]) / np.log(2).astype(logits.dtype)"))

# ------------------------------------------------------------------ get_batch
L.styles(GB, '''
def get_batch(data, batch_size, block_size, rng):
    last_start = len(data) - block_size - 1
    if last_start < 0:
        raise ValueError(f"data holds {len(data)} ids, fewer than block_size + 1 (block_size={block_size})")
    starts = rng.integers(0, last_start + 1, size=batch_size)
    positions = starts[:, None] + np.arange(block_size)
    ids = np.asarray(data)
    return ids[positions].astype(np.int64), ids[positions + 1].astype(np.int64)
''', '''
def get_batch(data, batch_size, block_size, rng):
    n = len(data)
    if n < block_size + 1:
        raise ValueError(f"need block_size + 1 = {block_size + 1} ids, data has {n} (block_size={block_size})")
    starts = rng.integers(0, n - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1:s + block_size + 1] for s in starts]).astype(np.int64)
    return x, y
''', '''
def get_batch(data, batch_size, block_size, rng):
    data = np.asarray(data, dtype=np.int64)
    if data.shape[0] <= block_size:
        raise ValueError(f"{data.shape[0]} ids cannot hold a window of block_size {block_size} plus one target")
    starts = rng.integers(0, data.shape[0] - block_size, size=batch_size)
    windows = np.lib.stride_tricks.sliding_window_view(data, block_size + 1)
    chunk = windows[starts]
    return chunk[:, :-1].copy(), chunk[:, 1:].copy()
''')
L.mistake(GB, "targets not shifted", (0, "ids[positions + 1]", "ids[positions]"),
          (1, "y = np.stack([data[s + 1:s + block_size + 1] for s in starts])", "y = np.stack([data[s:s + block_size] for s in starts])"),
          (2, "return chunk[:, :-1].copy(), chunk[:, 1:].copy()", "return chunk[:, :-1].copy(), chunk[:, :-1].copy()"))
L.mistake(GB, "targets shifted the wrong way", (0, "ids[positions + 1]", "ids[positions - 1]"),
          (1, "y = np.stack([data[s + 1:s + block_size + 1] for s in starts])", "y = np.asarray(data)[starts[:, None] + np.arange(block_size) - 1]"),
          (2, "return chunk[:, :-1].copy(), chunk[:, 1:].copy()", "return chunk[:, :-1].copy(), data[starts[:, None] - 1 + np.arange(block_size)]"))
L.mistake(GB, "last window never drawn", (0, "rng.integers(0, last_start + 1, size=batch_size)", "rng.integers(0, last_start, size=batch_size)"),
          (1, "rng.integers(0, n - block_size, size=batch_size)", "rng.integers(0, n - block_size - 1, size=batch_size)"),
          (2, "rng.integers(0, data.shape[0] - block_size, size=batch_size)", "rng.integers(data.shape[0] - block_size - 1, size=batch_size)"))
L.mistake(GB, "start range one too far", (0, "rng.integers(0, last_start + 1, size=batch_size)", "rng.integers(0, last_start + 2, size=batch_size)"),
          (1, "rng.integers(0, n - block_size, size=batch_size)", "rng.integers(0, n - block_size + 1, size=batch_size)"),
          (0, "rng.integers(0, last_start + 1, size=batch_size)", "rng.integers(0, len(data) - block_size + 1, size=batch_size)"))
L.mistake(GB, "ids left in the data's dtype", (0, "return ids[positions].astype(np.int64), ids[positions + 1].astype(np.int64)", "return ids[positions], ids[positions + 1]"),
          (1, [("for s in starts]).astype(np.int64)\n    y", "for s in starts])\n    y"), ("for s in starts]).astype(np.int64)\n    return", "for s in starts])\n    return")]),
          (2, "data = np.asarray(data, dtype=np.int64)", "data = np.asarray(data)"))
ROLL_A = ("ids[positions + 1].astype(np.int64)", "np.roll(ids[positions], -1, axis=1).astype(np.int64)")
L.mistake(GB, "targets rolled from the inputs", (0, [ROLL_A]),
          (1, "y = np.stack([data[s + 1:s + block_size + 1] for s in starts]).astype(np.int64)", "y = np.roll(x, -1, axis=1)"),
          (2, "return chunk[:, :-1].copy(), chunk[:, 1:].copy()", "x = chunk[:, :-1].copy()\n    return x, np.roll(x, shift=-1, axis=-1)"))
L.mistake(GB, ("targets rolled from the inputs", "ids left in the data's dtype"),
          (0, "return ids[positions].astype(np.int64), ids[positions + 1].astype(np.int64)", "x = ids[positions]\n    return x, np.roll(x, -1, axis=1)"))
L.mistake(GB, "length check one short", (0, "if last_start < 0:", "if last_start < -1:"),
          (1, "if n < block_size + 1:", "if n < block_size:"), (2, "if data.shape[0] <= block_size:", "if data.shape[0] < block_size:"))
L.uncatalogued(GB, "targets two ids on", (0, "ids[positions + 1]", "ids[np.minimum(positions + 2, len(ids) - 1)]"))
L.uncatalogued(GB, "starts drawn one at a time", (1, "starts = rng.integers(0, n - block_size, size=batch_size)",
                                                   "starts = [int(rng.integers(0, n - block_size)) for _ in range(batch_size)]\n    starts = starts[::-1]"))

# ------------------------------------------------------------------ sample_next
L.styles(SN, '''
def sample_next(logits, temperature, top_k, rng):
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    scaled = logits / temperature
    if top_k is not None and top_k < scaled.shape[-1]:
        order = np.argsort(-scaled, axis=-1, kind="stable")
        np.put_along_axis(scaled, order[:, top_k:], -np.inf, axis=-1)
    scaled = scaled - scaled.max(axis=-1, keepdims=True)
    probs = np.exp(scaled)
    probs = probs / probs.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(probs, axis=-1)
    u = rng.random((scaled.shape[0], 1))
    below = (cdf < u).sum(axis=-1)
    return np.minimum(below, scaled.shape[-1] - 1)
''', '''
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature {temperature} must be > 0")
    z = logits / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    return np.array([rng.choice(V, p=row) for row in p], dtype=np.int64)
''', '''
def sample_next(logits, temperature, top_k, rng):
    if not temperature > 0:
        raise ValueError(f"temperature must be positive (got {temperature})")
    z = logits / temperature
    if top_k is not None and top_k < z.shape[-1]:
        rank = np.argsort(np.argsort(-z, axis=-1, kind="stable"), axis=-1)
        z = np.where(rank < top_k, z, -np.inf)
    gumbel = -np.log(-np.log(rng.random(z.shape)))
    return np.argmax(z + gumbel, axis=-1).astype(np.int64)
''')
THRESHOLD_A = ("        order = np.argsort(-scaled, axis=-1, kind=\"stable\")\n        np.put_along_axis(scaled, order[:, top_k:], -np.inf, axis=-1)\n",
               "        kth = np.sort(scaled, axis=-1)[:, -top_k][:, None]\n        scaled = np.where(scaled {op} kth, -np.inf, scaled)\n")
THRESHOLD_B = ("        keep = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]\n        masked = np.full_like(z, -np.inf)\n"
               "        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)\n        z = masked\n",
               "        kth = np.partition(z, -top_k, axis=-1)[:, [-top_k]]\n        z = z.copy()\n        z[z {op} kth] = -np.inf\n")
THRESHOLD_C = ("        rank = np.argsort(np.argsort(-z, axis=-1, kind=\"stable\"), axis=-1)\n        z = np.where(rank < top_k, z, -np.inf)\n",
               "        kth = -np.sort(-z, axis=-1)[:, top_k - 1:top_k]\n        z = np.where(z {op} kth, -np.inf, z)\n")


def threshold(style, op):
    old, new = [THRESHOLD_A, THRESHOLD_B, THRESHOLD_C][style]
    return (style, old, new.format(op=op))


L.mistake(SN, "top-k keeps k + 1 candidates", (0, "order[:, top_k:]", "order[:, top_k + 1:]"),
          (1, "np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]", "np.argpartition(-z, top_k, axis=-1)[:, :top_k + 1]"),
          (2, "rank < top_k", "rank <= top_k"))
L.mistake(SN, "top-k masks the k-th largest too (<= instead of <)", threshold(0, "<="), threshold(1, "<="), threshold(2, "<="))
L.mistake(SN, "top-k keeps k - 1 candidates", (0, "order[:, top_k:]", "order[:, top_k - 1:]"),
          (1, "np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]", "np.argpartition(-z, top_k - 2, axis=-1)[:, :top_k - 1]"),
          (2, "rank < top_k", "rank < top_k - 1"))
L.mistake(SN, "every logit tied with the k-th kept", threshold(0, "<"), threshold(1, "<"), threshold(2, "<"))
L.mistake(SN, "top_k ignored", (0, "    if top_k is not None and top_k < scaled.shape[-1]:\n        order = np.argsort(-scaled, axis=-1, kind=\"stable\")\n"
                                   "        np.put_along_axis(scaled, order[:, top_k:], -np.inf, axis=-1)\n", ""),
          (1, "if top_k is not None and top_k < V:", "if top_k is not None and top_k > V:"),
          (2, "    if top_k is not None and top_k < z.shape[-1]:\n", "    if False:\n"))
L.mistake(SN, "temperature ignored (or applied after the softmax)", (0, "scaled = logits / temperature", "scaled = logits.copy()"),
          (1, [("z = logits / temperature", "z = logits"), ("p = p / p.sum(axis=-1, keepdims=True)", "p = p / temperature\n    p = p / p.sum(axis=-1, keepdims=True)")]),
          (2, "z = logits / temperature", "z = np.array(logits)"))
L.mistake(SN, "logits multiplied by the temperature", (0, "scaled = logits / temperature", "scaled = logits * temperature"),
          (1, "z = logits / temperature", "z = temperature * logits"), (2, "z = logits / temperature", "z = logits * temperature"))
L.mistake(SN, "softmax without subtracting the max", (0, "    scaled = scaled - scaled.max(axis=-1, keepdims=True)\n", ""),
          (1, "p = np.exp(z - z.max(axis=-1, keepdims=True))", "p = np.exp(z)"), '''
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature {temperature} is not positive")
    z = logits / temperature
    if top_k is not None:
        order = np.argsort(-z, axis=-1, kind="stable")
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    e = np.exp(z)
    p = e / e.sum(-1, keepdims=True)
    u = rng.random((len(z), 1))
    return np.minimum((np.cumsum(p, -1) < u).sum(-1), z.shape[-1] - 1)
''')
L.mistake(SN, "argmax instead of a draw", (0, "    below = (cdf < u).sum(axis=-1)\n    return np.minimum(below, scaled.shape[-1] - 1)", "    return probs.argmax(axis=-1)"),
          (1, "return np.array([rng.choice(V, p=row) for row in p], dtype=np.int64)", "return np.argmax(p, axis=1).astype(np.int64)"),
          (2, "return np.argmax(z + gumbel, axis=-1).astype(np.int64)", "return np.argmax(z, axis=-1).astype(np.int64)"))
L.mistake(SN, "random numbers not drawn from rng", (0, "u = rng.random((scaled.shape[0], 1))", "u = np.random.random((scaled.shape[0], 1))"),
          (1, "rng.choice(V, p=row)", "np.random.choice(V, p=row)"), (2, "rng.random(z.shape)", "np.random.default_rng().random(z.shape)"))
L.mistake(SN, "a generator with a fixed seed made inside", (0, "u = rng.random((scaled.shape[0], 1))", "u = np.random.default_rng(0).random((scaled.shape[0], 1))"),
          (1, "    return np.array([rng.choice(V, p=row) for row in p], dtype=np.int64)",
           "    rng = np.random.default_rng(seed=0)\n    return np.array([rng.choice(V, p=row) for row in p], dtype=np.int64)"),
          (2, "gumbel = -np.log(-np.log(rng.random(z.shape)))", "gumbel = -np.log(-np.log(np.random.default_rng(1234).random(z.shape)))"))
L.uncatalogued(SN, "probabilities squared", (0, "probs = probs / probs.sum(axis=-1, keepdims=True)", "probs = probs ** 2 / (probs ** 2).sum(axis=-1, keepdims=True)"))
L.uncatalogued(SN, "the smallest logits kept", (1, "np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]", "np.argpartition(z, top_k - 1, axis=-1)[:, :top_k]"))
L.uncatalogued(SN, "temperature squared", (2, "z = logits / temperature", "z = logits / temperature ** 2"))

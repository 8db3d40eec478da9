"""Lesson 01: embed and one_hot_embed, as learners write them."""
from . import Lesson

LESSON = Lesson()
L = LESSON

# ------------------------------------------------------------------ embed
L.styles("embed", '''
def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''', '''
def embed(wte, wpe, idx):
    n_ctx = wpe.shape[0]
    length = idx.shape[-1]
    if length > n_ctx:
        raise ValueError(f"got {length} tokens but the context (block size) is only {n_ctx}")
    tokens = np.take(wte, idx, axis=0)
    positions = wpe[np.arange(length)]
    return tokens + positions
''', '''
def embed(wte, wpe, idx):
    seq = idx.shape[-1]
    block = len(wpe)
    if seq > block:
        raise ValueError("position %d is past the block size %d" % (seq, block))
    out = wte[idx].copy()
    for t in range(seq):
        out[..., t, :] += wpe[t]
    return out
''')
L.correct("embed", "einsum over a one-hot of the positions", '''
def embed(wte, wpe, idx):
    T, block = idx.shape[-1], wpe.shape[0]
    if T > block:
        raise ValueError(f"{T} positions do not fit the block size {block}")
    pos = np.einsum("tp,pd->td", np.eye(T, block, dtype=wpe.dtype), wpe)
    return wte[idx] + pos
''')

CHECK_A = ('    if T > wpe.shape[0]:\n        raise ValueError(f"sequence length {T} exceeds the block size '
           '{wpe.shape[0]}")\n', '')
CHECK_B = ('    if length > n_ctx:\n        raise ValueError(f"got {length} tokens but the context (block size) '
           'is only {n_ctx}")\n', '')
CHECK_C = ('    if seq > block:\n        raise ValueError("position %d is past the block size %d" % (seq, block))\n', '')

BY_TOKEN = "position rows looked up by token id"
MISSING = "position embedding missing"
L.mistake("embed", BY_TOKEN, (0, "wpe[:T]", "wpe[idx]"), (1, "wpe[np.arange(length)]", "wpe[idx]"),
          (2, "+= wpe[t]", "+= wpe[idx[..., t]]"))
L.mistake("embed", MISSING, (0, " + wpe[:T]", ""), (1, "return tokens + positions", "return tokens"),
          (2, "    for t in range(seq):\n        out[..., t, :] += wpe[t]\n", ""))
L.mistake("embed", BY_TOKEN + ", and no check of the block size",
          (0, [CHECK_A, ("wpe[:T]", "wpe[idx]")]), (1, [CHECK_B, ("wpe[np.arange(length)]", "wpe[idx]")]),
          (2, [CHECK_C, ("+= wpe[t]", "+= wpe[idx[..., t]]")]))
L.mistake("embed", MISSING + ", and no check of the block size",
          (0, [CHECK_A, (" + wpe[:T]", "")]), (1, [CHECK_B, ("return tokens + positions", "return tokens")]),
          "def embed(wte, wpe, idx):\n    return np.take(wte, idx, axis=0)\n")
L.mistake("embed", "positions concatenated instead of added",
          (0, "return wte[idx] + wpe[:T]",
           "return np.concatenate([wte[idx], np.broadcast_to(wpe[:T], wte[idx].shape)], axis=-1)"),
          (1, "return tokens + positions",
           "return np.concatenate((tokens, positions + np.zeros_like(tokens)), axis=-1)"), '''
def embed(wte, wpe, idx):
    T, d = idx.shape[-1], wte.shape[1]
    if T > wpe.shape[0]:
        raise ValueError(f"{T} tokens, but the block size is {wpe.shape[0]}")
    out = np.zeros(idx.shape + (2 * d,), dtype=wte.dtype)
    for t in range(T):
        out[..., t, :d] = wte[idx[..., t]]
        out[..., t, d:] = wpe[t]
    return out
''')
L.mistake("embed", ("positions concatenated instead of added", "no check of the block size"),
          (0, [CHECK_A, ("return wte[idx] + wpe[:T]",
                         "return np.concatenate([wte[idx], np.broadcast_to(wpe[:T], wte[idx].shape)], -1)")]))
L.mistake("embed", "no check of the block size", (0, [CHECK_A]), (1, [CHECK_B]), (2, [CHECK_C]))
L.mistake("embed", "assert used for a sequence one token longer than the block size instead of raising ValueError",
          (0, '    if T > wpe.shape[0]:\n        raise ValueError(f"sequence length {T} exceeds the block size '
              '{wpe.shape[0]}")\n', '    assert T <= wpe.shape[0], "too long"\n'))
L.mistake("embed", "wpe rows shifted by one", (0, "wpe[:T]", "wpe[1:T + 1]"))
L.mistake("embed", "a sequence of exactly block_size tokens refused", (1, "if length > n_ctx", "if length >= n_ctx"),
          (0, "if T > wpe.shape[0]:", "if T >= wpe.shape[0]:"), (2, "if seq > block:", "if not seq < block:"))
L.uncatalogued("embed", "position rows reversed", (1, "wpe[np.arange(length)]", "wpe[np.arange(length)[::-1]]"))

# ------------------------------------------------------------------ one_hot_embed
L.styles("one_hot_embed", '''
def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = (idx[..., None] == np.arange(V)).astype(wte.dtype)
    return one_hot @ wte
''', '''
def one_hot_embed(wte, idx):
    eye = np.eye(wte.shape[0], dtype=wte.dtype)
    return eye[idx] @ wte
''', '''
def one_hot_embed(wte, idx):
    vocab = len(wte)
    oh = np.zeros(idx.shape + (vocab,), dtype=wte.dtype)
    np.put_along_axis(oh, idx[..., None], 1, axis=-1)
    return np.einsum("...v,vd->...d", oh, wte)
''')
L.mistake("one_hot_embed", "one-hot matrix in float64 upcasts a float32 table",
          (0, ".astype(wte.dtype)", ".astype(float)"), (1, "np.eye(wte.shape[0], dtype=wte.dtype)", "np.eye(wte.shape[0])"),
          (2, "np.zeros(idx.shape + (vocab,), dtype=wte.dtype)", "np.zeros(idx.shape + (vocab,))"))
L.mistake("one_hot_embed", "one-hot rows built from positions instead of token ids",
          (0, "one_hot = (idx[..., None] == np.arange(V)).astype(wte.dtype)",
           "T = idx.shape[-1]\n    one_hot = np.broadcast_to((np.arange(T)[:, None] == np.arange(V)).astype(wte.dtype), "
           "idx.shape + (V,))"),
          (1, "eye[idx]", "np.broadcast_to(eye[:idx.shape[-1]], idx.shape + eye.shape[1:])"),
          (2, "    np.put_along_axis(oh, idx[..., None], 1, axis=-1)\n",
           "    for t in range(idx.shape[-1]):\n        oh[..., t, t] = 1\n"))
L.uncatalogued("one_hot_embed", "one-hot over the ids' values plus one", (0, "idx[..., None] ==", "idx[..., None] + 1 =="))
L.mistake("one_hot_embed", "`wte` used transposed", (1, "eye[idx] @ wte", "(eye[idx] @ wte.T @ wte)[..., :wte.shape[1]]"))

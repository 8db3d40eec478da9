"""Blind learner answers, round 1: written without reading the grader, the solutions or the tests.

Each item: id, exercise (the function check() grades), kind ("right", "mistake", "bug"),
mistake (one sentence, empty unless kind == "mistake"), source (the exercise cell as a learner
writes it). measure.py runs each through check().
"""

ANSWERS = []


def A(id, exercise, kind, mistake, source):
    ANSWERS.append({"id": id, "exercise": exercise, "kind": kind, "mistake": mistake, "source": source})


# ----------------------------------------------------------------------------------------------
# Lesson 01: embed
# ----------------------------------------------------------------------------------------------
A("l01_embed_right_slice", "embed", "right", "", '''
def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''')
A("l01_embed_right_take", "embed", "right", "", '''
def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T > block_size:
        raise ValueError("context too long: %d tokens, but the position table (block size) has %d rows" % (T, block_size))
    pos = np.arange(T)
    tok = np.take(wte, idx, axis=0)
    return tok + np.take(wpe, pos, axis=0)
''')
A("l01_embed_pos_by_token", "embed", "mistake",
  "Looks the position rows up with the token ids (wpe[idx]) instead of the positions 0..T-1.", '''
def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} is longer than the block size {wpe.shape[0]}")
    return wte[idx] + wpe[idx]
''')
A("l01_embed_no_length_check", "embed", "mistake",
  "Never checks the sequence length against the block size, so a too-long sequence gives NumPy's broadcast error instead of a ValueError naming the limit.", '''
def embed(wte, wpe, idx):
    T = idx.shape[-1]
    return wte[idx] + wpe[:T]
''')
A("l01_embed_T_from_first_axis", "embed", "mistake",
  "Takes T as len(idx) (the first axis), so for a (B, T) batch it uses B position rows: the batch axis is not handled.", '''
def embed(wte, wpe, idx):
    T = len(idx)
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''')
A("l01_embed_positions_from_one", "embed", "mistake",
  "Numbers the positions from 1: adds wpe[1:T+1] instead of wpe[0:T] (off by one position row).", '''
def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    positions = np.arange(1, T + 1)
    return wte[idx] + wpe[positions % wpe.shape[0]]
''')
A("l01_embed_limit_off_by_one", "embed", "mistake",
  "Raises for T >= block_size, refusing a sequence of exactly block_size tokens (off-by-one limit).", '''
def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T >= wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''')
A("l01_embed_message_no_limit_word", "embed", "mistake",
  "Raises a ValueError whose message has the two numbers but does not say which limit (no 'block', 'context' or 'position').", '''
def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"{T} > {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''')
A("l01_embed_loop_float64_buffer", "embed", "mistake",
  "Fills a np.zeros buffer made without a dtype, so float32 tables give a float64 result (dtype upcast).", '''
def embed(wte, wpe, idx):
    shape = np.shape(idx)
    idx = np.atleast_2d(idx)
    B, T = idx.shape
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    out = np.zeros((B, T, wte.shape[1]))
    for b in range(B):
        for t in range(T):
            out[b, t] = wte[idx[b, t]] + wpe[t]
    return out.reshape(shape + (wte.shape[1],))
''')
A("l01_embed_forgot_positions", "embed", "mistake",
  "Returns only the token rows wte[idx]: the position embedding is never added.", '''
def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx]
''')
A("l01_embed_bug_nameerror", "embed", "bug", "", '''
def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:t]
''')

# ----------------------------------------------------------------------------------------------
# Lesson 01: one_hot_embed
# ----------------------------------------------------------------------------------------------
A("l01_onehot_right_eye", "one_hot_embed", "right", "", '''
def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.eye(V, dtype=wte.dtype)[idx]
    return one_hot @ wte
''')
A("l01_onehot_right_put_along", "one_hot_embed", "right", "", '''
def one_hot_embed(wte, idx):
    idx = np.asarray(idx)
    V = wte.shape[0]
    oh = np.zeros(idx.shape + (V,), dtype=wte.dtype)
    np.put_along_axis(oh, idx[..., None], 1, axis=-1)
    return np.matmul(oh, wte)
''')
A("l01_onehot_float64_eye", "one_hot_embed", "mistake",
  "Builds the one-hot matrix with np.eye's default float64 dtype, so float32 tables give a float64 result.", '''
def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.eye(V)[idx]
    return one_hot @ wte
''')
A("l01_onehot_int_matrix", "one_hot_embed", "mistake",
  "Builds the one-hot matrix as integers (astype(int)), and int64 @ float32 gives float64 (dtype upcast).", '''
def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = (idx[..., None] == np.arange(V)).astype(int)
    return one_hot @ wte
''')
A("l01_onehot_no_batch", "one_hot_embed", "mistake",
  "Builds the one-hot matrix for a single sequence (rows indexed by np.arange(len(idx))), so a (B, T) batch is not handled.", '''
def one_hot_embed(wte, idx):
    V = wte.shape[0]
    N = len(idx)
    one_hot = np.zeros((N, V), dtype=wte.dtype)
    one_hot[np.arange(N), idx] = 1
    return one_hot @ wte
''')
A("l01_onehot_flat_not_reshaped", "one_hot_embed", "mistake",
  "Flattens the ids to build the one-hot matrix but never reshapes the result back, returning (B*T, d) instead of (B, T, d).", '''
def one_hot_embed(wte, idx):
    V = wte.shape[0]
    flat = np.asarray(idx).reshape(-1)
    one_hot = np.zeros((flat.size, V), dtype=wte.dtype)
    one_hot[np.arange(flat.size), flat] = 1
    return one_hot @ wte
''')
A("l01_onehot_bug_undefined_V", "one_hot_embed", "bug", "", '''
def one_hot_embed(wte, idx):
    one_hot = np.eye(V, dtype=wte.dtype)[idx]
    return one_hot @ wte
''')

# ----------------------------------------------------------------------------------------------
# Lesson 02: layer_norm
# ----------------------------------------------------------------------------------------------
A("l02_ln_right_var", "layer_norm", "right", "", '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''')
A("l02_ln_right_float64_inside", "layer_norm", "right", "", '''
def layer_norm(x, weight, bias, eps=1e-5):
    x64 = x.astype(np.float64)
    mu = x64.mean(axis=-1, keepdims=True)
    centred = x64 - mu
    var = (centred ** 2).mean(axis=-1, keepdims=True)
    y = centred / np.sqrt(var + eps)
    return (y * weight + bias).astype(x.dtype)
''')
A("l02_ln_sample_var", "layer_norm", "mistake",
  "Uses the sample variance (ddof=1, divide by d-1) instead of the population variance.", '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True, ddof=1)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''')
A("l02_ln_eps_outside_sqrt", "layer_norm", "mistake",
  "Adds eps to the standard deviation instead of to the variance inside the square root.", '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps) * weight + bias
''')
A("l02_ln_hardcoded_eps", "layer_norm", "mistake",
  "Hard-codes 1e-5 instead of using the eps argument.", '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * weight + bias
''')
A("l02_ln_upcast_float", "layer_norm", "mistake",
  "Converts x to float64 'to be safe' and never converts back, so float32 in gives float64 out.", '''
def layer_norm(x, weight, bias, eps=1e-5):
    x = x.astype(float)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''')
A("l02_ln_wrong_axis", "layer_norm", "mistake",
  "Normalises over axis 0 (across positions) instead of over the last axis (the features).", '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=0)
    var = x.var(axis=0)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''')
A("l02_ln_no_keepdims", "layer_norm", "mistake",
  "Takes the mean and variance over the last axis without keepdims, so they do not broadcast against x.", '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = np.mean(x, axis=-1)
    var = np.var(x, axis=-1)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''')
A("l02_ln_weight_bias_swapped", "layer_norm", "mistake",
  "Multiplies by bias and adds weight: the gain and the bias are swapped.", '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * bias + weight
''')
A("l02_ln_uncentred_variance", "layer_norm", "mistake",
  "Computes the 'variance' as the mean of x**2 without subtracting the mean first.", '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = (x ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''')
A("l02_ln_no_mean_subtraction", "layer_norm", "mistake",
  "Divides x by its standard deviation without subtracting the mean (RMSNorm-like).", '''
def layer_norm(x, weight, bias, eps=1e-5):
    var = x.var(axis=-1, keepdims=True)
    return x / np.sqrt(var + eps) * weight + bias
''')
A("l02_ln_bug_torch_kwarg", "layer_norm", "bug", "", '''
def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdim=True)
    var = x.var(axis=-1, keepdim=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''')

# ----------------------------------------------------------------------------------------------
# Lesson 02: causal_self_attention
# ----------------------------------------------------------------------------------------------
A("l02_attn_right_swapaxes", "causal_self_attention", "right", "", '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)

    def heads(a):
        return np.swapaxes(a.reshape(*lead, T, n_head, d_k), -2, -3)

    q, k, v = heads(q), heads(k), heads(v)
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    scores = np.where(future, -np.inf, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    y = w @ v
    y = np.swapaxes(y, -2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''')
A("l02_attn_right_einsum_f64", "causal_self_attention", "right", "", '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    dt = x.dtype
    x64 = x.astype(np.float64)
    T, d = x.shape[-2:]
    hs = d // n_head
    qkv = x64 @ w_qkv.astype(np.float64) + b_qkv.astype(np.float64)
    shp = x.shape[:-1] + (n_head, hs)
    q = qkv[..., :d].reshape(shp)
    k = qkv[..., d:2 * d].reshape(shp)
    v = qkv[..., 2 * d:].reshape(shp)
    att = np.einsum("...qhc,...khc->...hqk", q, k) / hs ** 0.5
    allowed = np.tril(np.ones((T, T), dtype=bool))
    att = np.where(allowed, att, -1e30)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att /= att.sum(axis=-1, keepdims=True)
    y = np.einsum("...hqk,...khc->...qhc", att, v).reshape(x.shape)
    out = y @ w_o.astype(np.float64) + b_o.astype(np.float64)
    return out.astype(dt)
''')
A("l02_attn_right_head_loop", "causal_self_attention", "right", "", '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    Q, K, V = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    mask = np.tril(np.ones((T, T), dtype=bool))
    outs = []
    for h in range(n_head):
        sl = slice(h * d_k, (h + 1) * d_k)
        s = Q[..., sl] @ np.swapaxes(K[..., sl], -1, -2) / d_k ** 0.5
        s = np.where(mask, s, -np.inf)
        s = np.exp(s - s.max(axis=-1, keepdims=True))
        s = s / s.sum(axis=-1, keepdims=True)
        outs.append(s @ V[..., sl])
    y = np.concatenate(outs, axis=-1)
    return y @ w_o + b_o
''')
ATTN_TEMPLATE = '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = np.swapaxes(q.reshape(*lead, T, n_head, d_k), -2, -3)
    k = np.swapaxes(k.reshape(*lead, T, n_head, d_k), -2, -3)
    v = np.swapaxes(v.reshape(*lead, T, n_head, d_k), -2, -3)
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    att = np.exp(scores)
    att = att / att.sum(axis=-1, keepdims=True)
    y = att @ v
    y = np.swapaxes(y, -2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
'''
A("l02_attn_reshape_only", "causal_self_attention", "mistake",
  "Splits the heads with a reshape to (..., n_head, T, d_k) and no transpose, so each 'head' mixes positions and features.", '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = q.reshape(*lead, n_head, T, d_k)
    k = k.reshape(*lead, n_head, T, d_k)
    v = v.reshape(*lead, n_head, T, d_k)
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    att = np.exp(scores)
    att = att / att.sum(axis=-1, keepdims=True)
    y = att @ v
    y = y.reshape(*lead, T, d)
    return y @ w_o + b_o
''')
A("l02_attn_no_scale", "causal_self_attention", "mistake",
  "Forgets to divide the scores by sqrt(d_k).", ATTN_TEMPLATE.replace(" / d_k ** 0.5", ""))
A("l02_attn_scale_sqrt_d", "causal_self_attention", "mistake",
  "Scales the scores by sqrt(d) (the model width) instead of sqrt(d_k) (the head size).",
  ATTN_TEMPLATE.replace(" / d_k ** 0.5", " / d ** 0.5"))
A("l02_attn_scale_dk_no_sqrt", "causal_self_attention", "mistake",
  "Divides the scores by d_k instead of sqrt(d_k).", ATTN_TEMPLATE.replace(" / d_k ** 0.5", " / d_k"))
A("l02_attn_np_sqrt_upcast", "causal_self_attention", "mistake",
  "Divides by np.sqrt(d_k), a float64 NumPy scalar, which turns float32 scores into float64.",
  ATTN_TEMPLATE.replace(" / d_k ** 0.5", " / np.sqrt(d_k)"))
A("l02_attn_mask_hides_diagonal", "causal_self_attention", "mistake",
  "Masks the diagonal too (strictly lower triangle), so a position cannot attend to itself and row 0 becomes NaN.",
  ATTN_TEMPLATE.replace("np.tril(np.ones((T, T), dtype=bool))", "np.tril(np.ones((T, T), dtype=bool), k=-1)"))
A("l02_attn_mask_upper", "causal_self_attention", "mistake",
  "Uses the upper triangle as the allowed set, so each query sees the future and not the past (mask flipped).",
  ATTN_TEMPLATE.replace("np.tril(np.ones((T, T), dtype=bool))", "np.triu(np.ones((T, T), dtype=bool))"))
A("l02_attn_no_mask", "causal_self_attention", "mistake",
  "Applies no causal mask at all, so every position attends to the future.",
  ATTN_TEMPLATE.replace("    scores = np.where(mask, scores, -np.inf)\n", ""))
A("l02_attn_softmax_wrong_axis", "causal_self_attention", "mistake",
  "Takes the softmax over the queries (axis -2) instead of over the keys (the last axis).",
  ATTN_TEMPLATE.replace("scores.max(axis=-1, keepdims=True)", "scores.max(axis=-2, keepdims=True)")
  .replace("att.sum(axis=-1, keepdims=True)", "att.sum(axis=-2, keepdims=True)"))
A("l02_attn_mask_after_softmax", "causal_self_attention", "mistake",
  "Applies the causal mask after the softmax by zeroing the future weights, without renormalising the rows.", '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = np.swapaxes(q.reshape(*lead, T, n_head, d_k), -2, -3)
    k = np.swapaxes(k.reshape(*lead, T, n_head, d_k), -2, -3)
    v = np.swapaxes(v.reshape(*lead, T, n_head, d_k), -2, -3)
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    scores = scores - scores.max(axis=-1, keepdims=True)
    att = np.exp(scores)
    att = att / att.sum(axis=-1, keepdims=True)
    att = att * np.tril(np.ones((T, T), dtype=x.dtype))
    y = att @ v
    y = np.swapaxes(y, -2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''')
A("l02_attn_kqv_order", "causal_self_attention", "mistake",
  "Unpacks the three column blocks in the wrong order (k, q, v), so queries and keys are swapped.",
  ATTN_TEMPLATE.replace("q, k, v = np.split(qkv, 3, axis=-1)", "k, q, v = np.split(qkv, 3, axis=-1)"))
A("l02_attn_heads_interleaved", "causal_self_attention", "mistake",
  "Splits the heads with a reshape to (T, d_k, n_head), so each head takes every n_head-th feature instead of a contiguous block.", '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)

    def split(a):
        a = a.reshape(*lead, T, d_k, n_head)
        return np.moveaxis(a, -1, -3)

    q, k, v = split(q), split(k), split(v)
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    att = np.exp(scores)
    att = att / att.sum(axis=-1, keepdims=True)
    y = att @ v
    y = np.moveaxis(y, -3, -1).reshape(*lead, T, d)
    return y @ w_o + b_o
''')
A("l02_attn_no_out_proj", "causal_self_attention", "mistake",
  "Forgets the output projection and returns the merged heads directly.",
  ATTN_TEMPLATE.replace("return y @ w_o + b_o", "return y"))
A("l02_attn_no_qkv_bias", "causal_self_attention", "mistake",
  "Leaves out the bias b_qkv of the QKV projection.",
  ATTN_TEMPLATE.replace("qkv = x @ w_qkv + b_qkv", "qkv = x @ w_qkv"))
A("l02_attn_merge_without_swap", "causal_self_attention", "mistake",
  "Merges the heads back with a plain reshape from (..., n_head, T, d_k), without swapping the head and T axes back first.",
  ATTN_TEMPLATE.replace("y = np.swapaxes(y, -2, -3).reshape(*lead, T, d)", "y = y.reshape(*lead, T, d)"))
A("l02_attn_hardcoded_transpose_no_batch", "causal_self_attention", "mistake",
  "Hard-codes a 3-axis transpose (1, 0, 2) for one sequence, so a (B, T, d) batch is not handled.", '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = q.reshape(T, n_head, d_k).transpose(1, 0, 2)
    k = k.reshape(T, n_head, d_k).transpose(1, 0, 2)
    v = v.reshape(T, n_head, d_k).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    att = np.exp(scores)
    att = att / att.sum(axis=-1, keepdims=True)
    y = (att @ v).transpose(1, 0, 2).reshape(T, d)
    return y @ w_o + b_o
''')
A("l02_attn_unstable_softmax", "causal_self_attention", "mistake",
  "Takes exp of the raw scores without subtracting the row maximum, so large scores overflow.",
  ATTN_TEMPLATE.replace("    scores = scores - scores.max(axis=-1, keepdims=True)\n", ""))
A("l02_attn_k_not_transposed", "causal_self_attention", "mistake",
  "Multiplies q by k without transposing k's last two axes (q @ k instead of q @ k^T).",
  ATTN_TEMPLATE.replace("q @ np.swapaxes(k, -1, -2)", "q @ k"))
A("l02_attn_bug_typo", "causal_self_attention", "bug", "",
  ATTN_TEMPLATE.replace("att = att / att.sum(axis=-1, keepdims=True)", "att = att / atn.sum(axis=-1, keepdims=True)"))

# ----------------------------------------------------------------------------------------------
# Lesson 03: gelu_tanh
# ----------------------------------------------------------------------------------------------
A("l03_gelu_right", "gelu_tanh", "right", "", '''
def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))
''')
A("l03_gelu_right_f64", "gelu_tanh", "right", "", '''
def gelu_tanh(x):
    x64 = np.asarray(x, dtype=np.float64)
    inner = np.sqrt(2.0 / np.pi) * (x64 + 0.044715 * np.power(x64, 3))
    return (0.5 * x64 * (1.0 + np.tanh(inner))).astype(x.dtype)
''')
A("l03_gelu_exact_erf", "gelu_tanh", "mistake",
  "Computes the exact GELU x * Phi(x) with erf instead of the tanh approximation.", '''
def gelu_tanh(x):
    erf = np.vectorize(math.erf)
    return (0.5 * x * (1 + erf(x / math.sqrt(2)))).astype(x.dtype)
''')
A("l03_gelu_wrong_coefficient", "gelu_tanh", "mistake",
  "Mistypes the cubic coefficient as 0.04715 instead of 0.044715.", '''
def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.04715 * x ** 3)))
''')
A("l03_gelu_np_sqrt_upcast", "gelu_tanh", "mistake",
  "Uses np.sqrt(2 / np.pi), a float64 NumPy scalar, which upcasts float32 inputs to float64.", '''
def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
''')
A("l03_gelu_missing_half", "gelu_tanh", "mistake",
  "Forgets the factor 1/2 in front.", '''
def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))
''')
A("l03_gelu_square_not_cube", "gelu_tanh", "mistake",
  "Uses x**2 instead of x**3 in the cubic term.", '''
def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 2)))
''')
A("l03_gelu_sqrt_2pi", "gelu_tanh", "mistake",
  "Uses sqrt(2 * pi) instead of sqrt(2 / pi) as the constant.", '''
def gelu_tanh(x):
    c = math.sqrt(2 * math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))
''')
A("l03_gelu_sigmoid_quick", "gelu_tanh", "mistake",
  "Uses the sigmoid 'quick GELU' x * sigmoid(1.702 x) instead of the tanh approximation.", '''
def gelu_tanh(x):
    return x / (1 + np.exp(-1.702 * x))
''')
A("l03_gelu_bug_math_tanh", "gelu_tanh", "bug", "", '''
def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + math.tanh(c * (x + 0.044715 * x ** 3)))
''')

# ----------------------------------------------------------------------------------------------
# Lesson 03: mlp
# ----------------------------------------------------------------------------------------------
A("l03_mlp_right", "mlp", "right", "", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return h @ w_proj + b_proj
''')
A("l03_mlp_right_einsum", "mlp", "right", "", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    hidden = np.einsum("...i,ij->...j", x, w_fc) + b_fc
    hidden = gelu_tanh(hidden)
    return np.einsum("...j,jk->...k", hidden, w_proj) + b_proj
''')
A("l03_mlp_linear_layout", "mlp", "mistake",
  "Multiplies by the transposed weights as if they were nn.Linear (out, in) matrices, x @ w_fc.T.", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc.T + b_fc)
    return h @ w_proj.T + b_proj
''')
A("l03_mlp_gelu_after_proj", "mlp", "mistake",
  "Applies the GELU after the output projection too (activation on the output).", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return gelu_tanh(h @ w_proj + b_proj)
''')
A("l03_mlp_no_activation", "mlp", "mistake",
  "Forgets the activation: two linear layers back to back.", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = x @ w_fc + b_fc
    return h @ w_proj + b_proj
''')
A("l03_mlp_bias_after_gelu", "mlp", "mistake",
  "Adds the first bias after the GELU instead of before it.", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc) + b_fc
    return h @ w_proj + b_proj
''')
A("l03_mlp_relu", "mlp", "mistake",
  "Uses ReLU instead of GPT-2's GELU.", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = np.maximum(x @ w_fc + b_fc, 0)
    return h @ w_proj + b_proj
''')
A("l03_mlp_no_proj_bias", "mlp", "mistake",
  "Leaves out the output projection's bias b_proj.", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return h @ w_proj
''')
A("l03_mlp_residual_inside", "mlp", "mistake",
  "Adds the residual x inside the MLP (the block adds it already).", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return x + h @ w_proj + b_proj
''')
A("l03_mlp_bug_returns_hidden", "mlp", "bug", "", '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    out = h @ w_proj + b_proj
    return h
''')

# ----------------------------------------------------------------------------------------------
# Lesson 03: block
# ----------------------------------------------------------------------------------------------
BLOCK_TEMPLATE = '''
def block(x, params, layer, n_head):
    p = f"h.{layer}."
    h = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(h, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    h = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    x = x + mlp(h, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return x
'''
A("l03_block_right", "block", "right", "", BLOCK_TEMPLATE)
A("l03_block_right_getter", "block", "right", "", '''
def block(x, params, layer, n_head):
    P = lambda name: params[f"h.{layer}.{name}"]
    a = causal_self_attention(layer_norm(x, P("ln_1.weight"), P("ln_1.bias")),
                              P("attn.c_attn.weight"), P("attn.c_attn.bias"),
                              P("attn.c_proj.weight"), P("attn.c_proj.bias"), n_head)
    r = x + a
    m = mlp(layer_norm(r, P("ln_2.weight"), P("ln_2.bias")),
            P("mlp.c_fc.weight"), P("mlp.c_fc.bias"), P("mlp.c_proj.weight"), P("mlp.c_proj.bias"))
    return r + m
''')
A("l03_block_layer0", "block", "mistake",
  "Reads layer 0's parameters ('h.0.') whatever the layer argument.", BLOCK_TEMPLATE.replace('p = f"h.{layer}."', 'p = "h.0."'))
A("l03_block_no_attn_residual", "block", "mistake",
  "Forgets the residual around attention: x = attn(ln_1(x)) instead of x + attn(ln_1(x)).",
  BLOCK_TEMPLATE.replace("x = x + causal_self_attention(", "x = causal_self_attention("))
A("l03_block_no_mlp_residual", "block", "mistake",
  "Forgets the residual around the MLP: returns mlp(ln_2(x)) without adding x.",
  BLOCK_TEMPLATE.replace("x = x + mlp(", "x = mlp("))
A("l03_block_post_ln", "block", "mistake",
  "Writes a post-LN block (LayerNorm after each residual add) instead of GPT-2's pre-LN.", '''
def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = causal_self_attention(x, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                              params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    x = layer_norm(x + a, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    m = mlp(x, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
            params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return layer_norm(x + m, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
''')
A("l03_block_ln1_twice", "block", "mistake",
  "Uses ln_1's parameters for the second LayerNorm too (copy-paste: ln_2 never read).",
  BLOCK_TEMPLATE.replace('params[p + "ln_2.weight"], params[p + "ln_2.bias"]', 'params[p + "ln_1.weight"], params[p + "ln_1.bias"]'))
A("l03_block_parallel", "block", "mistake",
  "Feeds the MLP the LayerNorm of the block's input (parallel attention and MLP) instead of the LayerNorm of x after the attention residual.", '''
def block(x, params, layer, n_head):
    p = f"h.{layer}."
    h1 = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    h2 = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    a = causal_self_attention(h1, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                              params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = mlp(h2, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
            params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return x + a + m
''')
A("l03_block_inplace", "block", "mistake",
  "Adds the sub-layer outputs into x in place (x += ...), changing the caller's array.", '''
def block(x, params, layer, n_head):
    p = f"h.{layer}."
    h = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x += causal_self_attention(h, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                               params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    h = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    x += mlp(h, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
             params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return x
''')
A("l03_block_residual_from_normed", "block", "mistake",
  "Builds the residual stream from the normalised vector: h = ln_1(x); h = h + attn(h), so the raw x is lost.", '''
def block(x, params, layer, n_head):
    p = f"h.{layer}."
    h = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    h = h + causal_self_attention(h, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    g = layer_norm(h, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return g + mlp(g, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
''')
A("l03_block_transposed_weights", "block", "mistake",
  "Transposes every Conv1D weight (.T) as if it were in nn.Linear's (out, in) layout.", '''
def block(x, params, layer, n_head):
    p = f"h.{layer}."
    h = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(h, params[p + "attn.c_attn.weight"].T, params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"].T, params[p + "attn.c_proj.bias"], n_head)
    h = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    x = x + mlp(h, params[p + "mlp.c_fc.weight"].T, params[p + "mlp.c_fc.bias"],
                params[p + "mlp.c_proj.weight"].T, params[p + "mlp.c_proj.bias"])
    return x
''')
A("l03_block_hardcoded_heads", "block", "mistake",
  "Passes GPT-2 small's 12 heads to attention instead of the n_head argument.",
  BLOCK_TEMPLATE.replace('params[p + "attn.c_proj.bias"], n_head)', 'params[p + "attn.c_proj.bias"], 12)'))
A("l03_block_bug_key_typo", "block", "bug", "", BLOCK_TEMPLATE.replace('"ln_1.weight"', '"ln1.weight"'))

# ----------------------------------------------------------------------------------------------
# Lesson 04: init_gpt
# ----------------------------------------------------------------------------------------------
INIT_TEMPLATE = '''
def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.02
    proj_std = 0.02 / math.sqrt(2 * L)
    for i in range(L):
        p = f"h.{i}."
        P[p + "ln_1.weight"] = np.ones(d)
        P[p + "ln_1.bias"] = np.zeros(d)
        P[p + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[p + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[p + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * proj_std
        P[p + "attn.c_proj.bias"] = np.zeros(d)
        P[p + "ln_2.weight"] = np.ones(d)
        P[p + "ln_2.bias"] = np.zeros(d)
        P[p + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[p + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[p + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * proj_std
        P[p + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
'''
A("l04_init_right", "init_gpt", "right", "", INIT_TEMPLATE)
A("l04_init_right_normal_helper", "init_gpt", "right", "", '''
def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer
    normal = lambda shape, std: rng.normal(0.0, std, size=shape)
    params = {"wte": normal((config.vocab_size, d), 0.02), "wpe": normal((config.block_size, d), 0.02)}
    resid_std = 0.02 * (2 * L) ** -0.5
    for i in range(L):
        k = f"h.{i}"
        params[f"{k}.ln_1.weight"], params[f"{k}.ln_1.bias"] = np.ones(d), np.zeros(d)
        params[f"{k}.attn.c_attn.weight"] = normal((d, 3 * d), 0.02)
        params[f"{k}.attn.c_attn.bias"] = np.zeros(3 * d)
        params[f"{k}.attn.c_proj.weight"] = normal((d, d), resid_std)
        params[f"{k}.attn.c_proj.bias"] = np.zeros(d)
        params[f"{k}.ln_2.weight"], params[f"{k}.ln_2.bias"] = np.ones(d), np.zeros(d)
        params[f"{k}.mlp.c_fc.weight"] = normal((d, 4 * d), 0.02)
        params[f"{k}.mlp.c_fc.bias"] = np.zeros(4 * d)
        params[f"{k}.mlp.c_proj.weight"] = normal((4 * d, d), resid_std)
        params[f"{k}.mlp.c_proj.bias"] = np.zeros(d)
    params["ln_f.weight"], params["ln_f.bias"] = np.ones(d), np.zeros(d)
    return params
''')
A("l04_init_proj_not_scaled", "init_gpt", "mistake",
  "Draws the two c_proj weights with std 0.02 like the rest: the 1/sqrt(2L) residual scaling is left out.",
  INIT_TEMPLATE.replace("proj_std = 0.02 / math.sqrt(2 * L)", "proj_std = 0.02"))
A("l04_init_proj_sqrt_L", "init_gpt", "mistake",
  "Scales the c_proj std by 1/sqrt(L) instead of 1/sqrt(2L) (forgets that each block has two residual adds).",
  INIT_TEMPLATE.replace("proj_std = 0.02 / math.sqrt(2 * L)", "proj_std = 0.02 / math.sqrt(L)"))
A("l04_init_proj_no_sqrt", "init_gpt", "mistake",
  "Scales the c_proj std by 1/(2L) instead of 1/sqrt(2L).",
  INIT_TEMPLATE.replace("proj_std = 0.02 / math.sqrt(2 * L)", "proj_std = 0.02 / (2 * L)"))
A("l04_init_only_attn_proj_scaled", "init_gpt", "mistake",
  "Scales only attn.c_proj and draws mlp.c_proj with the plain 0.02.",
  INIT_TEMPLATE.replace('P[p + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * proj_std',
                        'P[p + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * 0.02'))
A("l04_init_ln_zeros", "init_gpt", "mistake",
  "Initialises the LayerNorm gains to 0 instead of 1.",
  INIT_TEMPLATE.replace('"ln_1.weight"] = np.ones(d)', '"ln_1.weight"] = np.zeros(d)')
  .replace('"ln_2.weight"] = np.ones(d)', '"ln_2.weight"] = np.zeros(d)').replace('P["ln_f.weight"] = np.ones(d)', 'P["ln_f.weight"] = np.zeros(d)'))
A("l04_init_std_one", "init_gpt", "mistake",
  "Forgets the 0.02: draws every weight with standard deviation 1 (c_proj with 1/sqrt(2L)).",
  INIT_TEMPLATE.replace(" * 0.02", "").replace("proj_std = 0.02 / math.sqrt(2 * L)", "proj_std = 1 / math.sqrt(2 * L)"))
A("l04_init_wpe_001", "init_gpt", "mistake",
  "Draws wpe with std 0.01 (as some reproductions do) instead of 0.02.",
  INIT_TEMPLATE.replace('P["wpe"] = rng.standard_normal((T, d)) * 0.02', 'P["wpe"] = rng.standard_normal((T, d)) * 0.01'))
A("l04_init_reseed_each_tensor", "init_gpt", "mistake",
  "Makes a new generator from the seed for every tensor, so all tensors start from the same random numbers (correlated).", '''
def init_gpt(config, seed):
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd

    def normal(shape, std):
        return np.random.default_rng(seed).standard_normal(shape) * std

    P = {"wte": normal((V, d), 0.02), "wpe": normal((T, d), 0.02)}
    proj_std = 0.02 / math.sqrt(2 * L)
    for i in range(L):
        p = f"h.{i}."
        P[p + "ln_1.weight"], P[p + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[p + "attn.c_attn.weight"], P[p + "attn.c_attn.bias"] = normal((d, 3 * d), 0.02), np.zeros(3 * d)
        P[p + "attn.c_proj.weight"], P[p + "attn.c_proj.bias"] = normal((d, d), proj_std), np.zeros(d)
        P[p + "ln_2.weight"], P[p + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[p + "mlp.c_fc.weight"], P[p + "mlp.c_fc.bias"] = normal((d, 4 * d), 0.02), np.zeros(4 * d)
        P[p + "mlp.c_proj.weight"], P[p + "mlp.c_proj.bias"] = normal((4 * d, d), proj_std), np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
''')
A("l04_init_float32", "init_gpt", "mistake",
  "Returns float32 arrays ('like PyTorch') instead of float64.",
  INIT_TEMPLATE.replace("    return P\n", "    return {k: v.astype(np.float32) for k, v in P.items()}\n"))
A("l04_init_extra_head", "init_gpt", "mistake",
  "Adds a separate lm_head.weight tensor although the head is tied to wte.",
  INIT_TEMPLATE.replace("    return P\n", '    P["lm_head.weight"] = rng.standard_normal((V, d)) * 0.02\n    return P\n'))
A("l04_init_random_biases", "init_gpt", "mistake",
  "Draws the linear layers' biases from the normal distribution too instead of setting them to 0.",
  INIT_TEMPLATE.replace('P[p + "attn.c_attn.bias"] = np.zeros(3 * d)', 'P[p + "attn.c_attn.bias"] = rng.standard_normal(3 * d) * 0.02')
  .replace('P[p + "mlp.c_fc.bias"] = np.zeros(4 * d)', 'P[p + "mlp.c_fc.bias"] = rng.standard_normal(4 * d) * 0.02'))
A("l04_init_linear_layout", "init_gpt", "mistake",
  "Creates the weights in nn.Linear's (out, in) layout: c_attn (3d, d), c_fc (4d, d), mlp.c_proj (d, 4d).",
  INIT_TEMPLATE.replace("rng.standard_normal((d, 3 * d))", "rng.standard_normal((3 * d, d))")
  .replace("rng.standard_normal((d, 4 * d))", "rng.standard_normal((4 * d, d))", 1)
  .replace('P[p + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d))', 'P[p + "mlp.c_proj.weight"] = rng.standard_normal((d, 4 * d))'))
A("l04_init_shared_blocks", "init_gpt", "mistake",
  "Draws one set of block weights and gives every layer the same arrays.", '''
def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}
    proj_std = 0.02 / math.sqrt(2 * L)
    layer = {
        "ln_1.weight": np.ones(d), "ln_1.bias": np.zeros(d),
        "attn.c_attn.weight": rng.standard_normal((d, 3 * d)) * 0.02, "attn.c_attn.bias": np.zeros(3 * d),
        "attn.c_proj.weight": rng.standard_normal((d, d)) * proj_std, "attn.c_proj.bias": np.zeros(d),
        "ln_2.weight": np.ones(d), "ln_2.bias": np.zeros(d),
        "mlp.c_fc.weight": rng.standard_normal((d, 4 * d)) * 0.02, "mlp.c_fc.bias": np.zeros(4 * d),
        "mlp.c_proj.weight": rng.standard_normal((4 * d, d)) * proj_std, "mlp.c_proj.bias": np.zeros(d),
    }
    for i in range(L):
        for name, arr in layer.items():
            P[f"h.{i}.{name}"] = arr
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''')
A("l04_init_uniform", "init_gpt", "mistake",
  "Draws the weights from a uniform distribution on [-0.02, 0.02] instead of a normal with std 0.02.",
  INIT_TEMPLATE.replace("rng.standard_normal((V, d)) * 0.02", "rng.uniform(-0.02, 0.02, (V, d))")
  .replace("rng.standard_normal((T, d)) * 0.02", "rng.uniform(-0.02, 0.02, (T, d))")
  .replace("rng.standard_normal((d, 3 * d)) * 0.02", "rng.uniform(-0.02, 0.02, (d, 3 * d))")
  .replace("rng.standard_normal((d, 4 * d)) * 0.02", "rng.uniform(-0.02, 0.02, (d, 4 * d))")
  .replace("rng.standard_normal((d, d)) * proj_std", "rng.uniform(-proj_std, proj_std, (d, d))")
  .replace("rng.standard_normal((4 * d, d)) * proj_std", "rng.uniform(-proj_std, proj_std, (4 * d, d))"))
A("l04_init_bug_attr_typo", "init_gpt", "bug", "", INIT_TEMPLATE.replace("config.n_embd", "config.n_embed"))

# ----------------------------------------------------------------------------------------------
# Lesson 04: gpt_logits
# ----------------------------------------------------------------------------------------------
LOGITS_TEMPLATE = '''
def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
'''
A("l04_logits_right", "gpt_logits", "right", "", LOGITS_TEMPLATE)
A("l04_logits_right_einsum", "gpt_logits", "right", "", '''
def gpt_logits(P, idx, n_head):
    layers = sorted(int(k.split(".")[1]) for k in P if k.startswith("h.") and k.endswith(".ln_1.weight"))
    h = embed(P["wte"], P["wpe"], np.asarray(idx))
    for layer in layers:
        h = block(h, P, layer, n_head)
    h = layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])
    return np.einsum("...d,vd->...v", h, P["wte"])
''')
A("l04_logits_head_not_transposed", "gpt_logits", "mistake",
  "Multiplies by wte instead of wte.T for the tied head.", LOGITS_TEMPLATE.replace('return x @ P["wte"].T', 'return x @ P["wte"]'))
A("l04_logits_no_ln_f", "gpt_logits", "mistake",
  "Forgets the final LayerNorm ln_f before the head.",
  LOGITS_TEMPLATE.replace('    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])\n', ""))
A("l04_logits_skip_last_block", "gpt_logits", "mistake",
  "Runs range(n_layer - 1) blocks, skipping the last one (off by one in the layer count).",
  LOGITS_TEMPLATE.replace("for i in range(n_layer):", "for i in range(n_layer - 1):"))
A("l04_logits_layer0_every_block", "gpt_logits", "mistake",
  "Calls every block with layer 0, so each block uses layer 0's parameters.",
  LOGITS_TEMPLATE.replace("x = block(x, P, i, n_head)", "x = block(x, P, 0, n_head)"))
A("l04_logits_wpe_head", "gpt_logits", "mistake",
  "Uses the position table wpe as the head instead of the token table wte.",
  LOGITS_TEMPLATE.replace('return x @ P["wte"].T', 'return x @ P["wpe"].T'))
A("l04_logits_reversed_blocks", "gpt_logits", "mistake",
  "Runs the blocks in reverse order.", LOGITS_TEMPLATE.replace("for i in range(n_layer):", "for i in reversed(range(n_layer)):"))
A("l04_logits_softmax", "gpt_logits", "mistake",
  "Applies a softmax and returns probabilities instead of the logits.",
  LOGITS_TEMPLATE.replace('    return x @ P["wte"].T\n', '    z = x @ P["wte"].T\n    z = np.exp(z - z.max(axis=-1, keepdims=True))\n    return z / z.sum(axis=-1, keepdims=True)\n'))
A("l04_logits_last_position_only", "gpt_logits", "mistake",
  "Returns only the last position's logits (as when generating) instead of every position's.",
  LOGITS_TEMPLATE.replace('return x @ P["wte"].T', 'return x[..., -1, :] @ P["wte"].T'))
A("l04_logits_count_all_keys", "gpt_logits", "mistake",
  "Counts the layers as the number of 'h.' keys (12 per layer), so it asks for blocks that do not exist.",
  LOGITS_TEMPLATE.replace('n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})', 'n_layer = sum(1 for k in P if k.startswith("h."))'))
A("l04_logits_bug_nameerror", "gpt_logits", "bug", "",
  LOGITS_TEMPLATE.replace('n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})', 'n_layers = len({k.split(".")[1] for k in P if k.startswith("h.")})'))

# ----------------------------------------------------------------------------------------------
# Lesson 04: tied_lm_loss_and_grad
# ----------------------------------------------------------------------------------------------
TIED_TEMPLATE = '''
def tied_lm_loss_and_grad(E, A, idx, targets):
    idx = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = idx.size
    X = E[idx]
    U = X @ A
    H = np.tanh(U)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tg].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tg] -= 1
    dZ /= N
    dE = dZ.T @ H
    dH = dZ @ E
    dU = dH * (1 - H ** 2)
    dX = dU @ A.T
    np.add.at(dE, idx, dX)
    return float(loss), dE.astype(E.dtype)
'''
A("l04_tied_right", "tied_lm_loss_and_grad", "right", "", TIED_TEMPLATE)
A("l04_tied_right_onehot", "tied_lm_loss_and_grad", "right", "", '''
def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).ravel()
    tgt = np.asarray(targets).ravel()
    N = len(ids)
    E64, A64 = E.astype(np.float64), A.astype(np.float64)
    onehot_in = np.eye(V)[ids]          # (N, V)
    onehot_t = np.eye(V)[tgt]
    X = onehot_in @ E64
    H = np.tanh(X @ A64)
    Z = H @ E64.T
    m = Z.max(axis=1, keepdims=True)
    lse = m + np.log(np.exp(Z - m).sum(axis=1, keepdims=True))
    probs = np.exp(Z - lse)
    loss = float(np.mean(lse[:, 0] - (Z * onehot_t).sum(axis=1)))
    dZ = (probs - onehot_t) / N
    dH = dZ @ E64
    dX = (dH * (1.0 - H * H)) @ A64.T
    dE = dZ.T @ H + onehot_in.T @ dX
    return loss, dE.astype(E.dtype)
''')
A("l04_tied_head_path_only", "tied_lm_loss_and_grad", "mistake",
  "Returns only the head path's gradient dZ^T H and forgets the lookup path through X = E[idx].",
  TIED_TEMPLATE.replace("    np.add.at(dE, idx, dX)\n", ""))
A("l04_tied_lookup_path_only", "tied_lm_loss_and_grad", "mistake",
  "Returns only the lookup path's gradient (scattered dX) and forgets the head path through Z = H E^T.",
  TIED_TEMPLATE.replace("dE = dZ.T @ H", "dE = np.zeros_like(E, dtype=np.float64)"))
A("l04_tied_fancy_index_no_accumulate", "tied_lm_loss_and_grad", "mistake",
  "Scatters the lookup gradient with dE[idx] += dX, which keeps only one contribution for a repeated id.",
  TIED_TEMPLATE.replace("np.add.at(dE, idx, dX)", "dE[idx] += dX"))
A("l04_tied_no_tanh_derivative", "tied_lm_loss_and_grad", "mistake",
  "Forgets the tanh derivative: dU = dH instead of dH * (1 - H^2).",
  TIED_TEMPLATE.replace("dU = dH * (1 - H ** 2)", "dU = dH"))
A("l04_tied_mean_over_batch_only", "tied_lm_loss_and_grad", "mistake",
  "Divides the loss and gradient by the first axis of idx (B for a batch) instead of by every position B*T.", '''
def tied_lm_loss_and_grad(E, A, idx, targets):
    n = np.asarray(idx).shape[0]
    idx = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = idx.size
    X = E[idx]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tg].sum() / n
    dZ = np.exp(logp)
    dZ[np.arange(N), tg] -= 1
    dZ /= n
    dE = dZ.T @ H
    dX = (dZ @ E) * (1 - H ** 2) @ A.T
    np.add.at(dE, idx, dX)
    return float(loss), dE.astype(E.dtype)
''')
A("l04_tied_sum_not_mean", "tied_lm_loss_and_grad", "mistake",
  "Sums the loss over positions instead of averaging (and the gradient lacks the 1/N).",
  TIED_TEMPLATE.replace("loss = -logp[np.arange(N), tg].mean()", "loss = -logp[np.arange(N), tg].sum()").replace("    dZ /= N\n", ""))
A("l04_tied_no_onehot_subtract", "tied_lm_loss_and_grad", "mistake",
  "Uses dZ = softmax / N and forgets to subtract the one-hot targets.",
  TIED_TEMPLATE.replace("    dZ[np.arange(N), tg] -= 1\n", ""))
A("l04_tied_A_not_transposed", "tied_lm_loss_and_grad", "mistake",
  "Backpropagates through X @ A with dU @ A instead of dU @ A.T (missing transpose).",
  TIED_TEMPLATE.replace("dX = dU @ A.T", "dX = dU @ A"))
A("l04_tied_grad_sign_flipped", "tied_lm_loss_and_grad", "mistake",
  "Flips the sign of the logits' gradient (uses one-hot minus softmax), so dE points uphill.",
  TIED_TEMPLATE.replace("dZ[np.arange(N), tg] -= 1", "dZ[np.arange(N), tg] -= 1\n    dZ = -dZ"))
A("l04_tied_bug_swapped_return", "tied_lm_loss_and_grad", "bug", "",
  TIED_TEMPLATE.replace("return float(loss), dE.astype(E.dtype)", "return dE.astype(E.dtype), float(loss)"))

# ----------------------------------------------------------------------------------------------
# Lesson 05: count_gpt2_params
# ----------------------------------------------------------------------------------------------
COUNT_TEMPLATE = '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    def linear(n_in, n_out):
        return n_in * n_out + (n_out if bias else 0)

    def ln():
        return d + (d if bias else 0)

    per_block = 2 * ln() + linear(d, 3 * d) + linear(d, d) + linear(d, 4 * d) + linear(4 * d, d)
    total = V * d + T * d + L * per_block + ln()
    if not tied:
        total += V * d
    return total
'''
A("l05_count_right", "count_gpt2_params", "right", "", COUNT_TEMPLATE)
A("l05_count_right_closed_form", "count_gpt2_params", "right", "", '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    weights = 12 * d * d                 # 3d^2 + d^2 + 4d^2 + 4d^2
    biases = (3 * d + d + 4 * d + d) if bias else 0
    norms = 2 * (2 * d if bias else d)
    n = (V + T) * d + L * (weights + biases + norms) + (2 * d if bias else d)
    return n + (0 if tied else V * d)
''')
A("l05_count_head_always", "count_gpt2_params", "mistake",
  "Counts the (V, d) head even when it is tied to wte.",
  COUNT_TEMPLATE.replace("    if not tied:\n        total += V * d\n", "    total += V * d\n"))
A("l05_count_head_bias", "count_gpt2_params", "mistake",
  "Gives the untied head a bias of length V.",
  COUNT_TEMPLATE.replace("        total += V * d\n", "        total += V * d + V\n"))
A("l05_count_nobias_drops_gains", "count_gpt2_params", "mistake",
  "With bias=False also removes the LayerNorm gains (counts 0 per LayerNorm).",
  COUNT_TEMPLATE.replace("return d + (d if bias else 0)", "return 2 * d if bias else 0"))
A("l05_count_nobias_keeps_ln_bias", "count_gpt2_params", "mistake",
  "With bias=False removes only the linear layers' biases and keeps the LayerNorm biases.",
  COUNT_TEMPLATE.replace("return d + (d if bias else 0)", "return 2 * d"))
A("l05_count_no_ln_f", "count_gpt2_params", "mistake",
  "Forgets the final LayerNorm ln_f.",
  COUNT_TEMPLATE.replace("total = V * d + T * d + L * per_block + ln()", "total = V * d + T * d + L * per_block"))
A("l05_count_no_wpe", "count_gpt2_params", "mistake",
  "Forgets the position table wpe (T * d).",
  COUNT_TEMPLATE.replace("total = V * d + T * d + L * per_block + ln()", "total = V * d + L * per_block + ln()"))
A("l05_count_fc_bias_d", "count_gpt2_params", "mistake",
  "Counts c_fc's bias as d instead of 4d (the bias has the output's length).", '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = d if bias else 0
    ln = d + b
    attn = 3 * d * d + 3 * b + d * d + b
    mlp = 4 * d * d + b + 4 * d * d + b
    total = V * d + T * d + L * (2 * ln + attn + mlp) + ln
    if not tied:
        total += V * d
    return total
''')
A("l05_count_attn_bias_d", "count_gpt2_params", "mistake",
  "Counts c_attn's bias as d instead of 3d.", '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = d if bias else 0
    ln = d + b
    attn = 3 * d * d + b + d * d + b
    mlp = 4 * d * d + 4 * b + 4 * d * d + b
    total = V * d + T * d + L * (2 * ln + attn + mlp) + ln
    if not tied:
        total += V * d
    return total
''')
A("l05_count_one_ln_per_block", "count_gpt2_params", "mistake",
  "Counts one LayerNorm per block instead of two.",
  COUNT_TEMPLATE.replace("per_block = 2 * ln() +", "per_block = ln() +"))
A("l05_count_mlp_2x", "count_gpt2_params", "mistake",
  "Uses a hidden width of 2d instead of 4d in the MLP.",
  COUNT_TEMPLATE.replace("linear(d, 4 * d) + linear(4 * d, d)", "linear(d, 2 * d) + linear(2 * d, d)"))
A("l05_count_bug_string", "count_gpt2_params", "bug", "",
  COUNT_TEMPLATE.replace("    return total\n", '    return f"{total:,}"\n'))

# ----------------------------------------------------------------------------------------------
# Lesson 06: numpy_to_torch
# ----------------------------------------------------------------------------------------------
N2T_TEMPLATE = '''
def numpy_to_torch(P, model):
    TRANSPOSED = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")

    def module_name(k):
        if k in ("wte", "wpe"):
            return f"transformer.{k}.weight"
        return "transformer." + k

    names = {module_name(k): k for k in P}
    missing = sorted(set(model) - set(names))
    unexpected = sorted(set(names) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys: {missing}; unexpected keys: {unexpected}")
    out = {}
    for name, ref in model.items():
        a = P[names[name]]
        if name.endswith(TRANSPOSED):
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} after transpose, the model has {ref.shape}")
        out[name] = np.array(a, dtype=ref.dtype)
    return out
'''
A("l06_n2t_right", "numpy_to_torch", "right", "", N2T_TEMPLATE)
A("l06_n2t_right_reverse_map", "numpy_to_torch", "right", "", '''
def numpy_to_torch(P, model):
    def course_name(name):
        short = name.removeprefix("transformer.")
        return short.removesuffix(".weight") if short in ("wte.weight", "wpe.weight") else short

    wanted = {course_name(n): n for n in model}
    if set(wanted) != set(P):
        raise ValueError(f"P lacks {sorted(set(wanted) - set(P))} and has unexpected {sorted(set(P) - set(wanted))}")
    result = {}
    for k, name in wanted.items():
        arr = np.asarray(P[k])
        is_linear = any(part in name for part in (".c_attn.", ".c_proj.", ".c_fc.")) and name.endswith(".weight")
        arr = np.ascontiguousarray(arr.T) if is_linear else arr.copy()
        if arr.shape != model[name].shape:
            raise ValueError(f"shape mismatch for {name}: {arr.shape} vs {model[name].shape}")
        result[name] = arr.astype(model[name].dtype, copy=False)
    return result
''')
A("l06_n2t_transpose_every_2d", "numpy_to_torch", "mistake",
  "Transposes every 2-D tensor, the embedding tables wte and wpe included.",
  N2T_TEMPLATE.replace("if name.endswith(TRANSPOSED):", "if a.ndim == 2:"))
A("l06_n2t_no_transpose", "numpy_to_torch", "mistake",
  "Copies the Conv1D weights without transposing them to nn.Linear's (out, in) layout (and has no shape check).", '''
def numpy_to_torch(P, model):
    out = {}
    for k, v in P.items():
        name = f"transformer.{k}.weight" if k in ("wte", "wpe") else "transformer." + k
        out[name] = np.array(v, dtype=model[name].dtype)
    return out
''')
A("l06_n2t_transpose_on_mismatch", "numpy_to_torch", "mistake",
  "Transposes only when the shapes differ, so the square attn.c_proj weight (d, d) is left untransposed.",
  N2T_TEMPLATE.replace("if name.endswith(TRANSPOSED):", "if a.shape != ref.shape and a.ndim == 2:"))
A("l06_n2t_only_attn_transposed", "numpy_to_torch", "mistake",
  "Transposes the attention weights only and forgets the MLP's c_fc and c_proj (no shape check).", '''
def numpy_to_torch(P, model):
    out = {}
    for k, v in P.items():
        name = f"transformer.{k}.weight" if k in ("wte", "wpe") else "transformer." + k
        if k.endswith(("attn.c_attn.weight", "attn.c_proj.weight")):
            v = v.T
        out[name] = np.array(v, dtype=model[name].dtype)
    return out
''')
A("l06_n2t_adds_lm_head", "numpy_to_torch", "mistake",
  "Adds an lm_head.weight (a copy of wte) although the module lists the tied head once.",
  N2T_TEMPLATE.replace("    return out\n", '    out["lm_head.weight"] = out["transformer.wte.weight"].copy()\n    return out\n'))
A("l06_n2t_no_key_check", "numpy_to_torch", "mistake",
  "Never checks for missing or unexpected keys: walks the model's names (KeyError for a missing one) and ignores extra tensors in P.", '''
def numpy_to_torch(P, model):
    TRANSPOSED = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    for name, ref in model.items():
        k = name.removeprefix("transformer.")
        if k in ("wte.weight", "wpe.weight"):
            k = k[:3]
        a = P[k].T if name.endswith(TRANSPOSED) else P[k]
        out[name] = np.array(a, dtype=ref.dtype)
    return out
''')
A("l06_n2t_mutates_P", "numpy_to_torch", "mistake",
  "Transposes the weights in the input dict P itself (P[k] = P[k].T), changing the caller's argument.", '''
def numpy_to_torch(P, model):
    TRANSPOSED = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    for k in list(P):
        if k.endswith(TRANSPOSED):
            P[k] = P[k].T
    names = {(f"transformer.{k}.weight" if k in ("wte", "wpe") else "transformer." + k): k for k in P}
    if set(names) != set(model):
        raise ValueError(f"missing keys: {sorted(set(model) - set(names))}; unexpected keys: {sorted(set(names) - set(model))}")
    out = {}
    for name, ref in model.items():
        a = P[names[name]]
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape}, the model has {ref.shape}")
        out[name] = np.array(a, dtype=ref.dtype)
    return out
''')
A("l06_n2t_tables_not_renamed", "numpy_to_torch", "mistake",
  "Maps every key to 'transformer.' + k, the tables too, so wte and wpe become 'transformer.wte' without '.weight'.",
  N2T_TEMPLATE.replace('''        if k in ("wte", "wpe"):
            return f"transformer.{k}.weight"
''', ""))
A("l06_n2t_bug_prefix_typo", "numpy_to_torch", "bug", "", N2T_TEMPLATE.replace('return "transformer." + k', 'return "tranformer." + k'))

# ----------------------------------------------------------------------------------------------
# Lesson 06: load_hf_state_dict
# ----------------------------------------------------------------------------------------------
HF_TEMPLATE = '''
def load_hf_state_dict(model, state_dict):
    TRANSPOSED = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {k: v for k, v in state_dict.items()
          if not k.endswith((".attn.bias", ".attn.masked_bias")) and k != "lm_head.weight"}
    missing = sorted(set(model) - set(sd))
    unexpected = sorted(set(sd) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys: {missing}; unexpected keys: {unexpected}")
    out = {}
    for k, ref in model.items():
        a = np.asarray(sd[k])
        if k.endswith(TRANSPOSED):
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{k}: got shape {a.shape}, the model has {ref.shape}")
        out[k] = np.array(a, dtype=ref.dtype)
    return out
'''
A("l06_hf_right", "load_hf_state_dict", "right", "", HF_TEMPLATE)
A("l06_hf_right_loop", "load_hf_state_dict", "right", "", '''
def load_hf_state_dict(model, state_dict):
    conv1d = [".attn.c_attn.weight", ".attn.c_proj.weight", ".mlp.c_fc.weight", ".mlp.c_proj.weight"]
    kept = {}
    for key, value in state_dict.items():
        if key.endswith(".attn.bias") or key.endswith(".attn.masked_bias"):
            continue                      # causal-mask buffers
        if key == "lm_head.weight":
            continue                      # tied to transformer.wte.weight
        kept[key] = value
    lacking = [k for k in model if k not in kept]
    extra = [k for k in kept if k not in model]
    if lacking:
        raise ValueError(f"state dict lacks {lacking}")
    if extra:
        raise ValueError(f"state dict has unexpected keys {extra}")
    loaded = {}
    for key in model:
        value = np.asarray(kept[key])
        if any(key.endswith(s) for s in conv1d):
            value = value.transpose()
        if value.shape != model[key].shape:
            raise ValueError(f"{key} has shape {value.shape}, expected {model[key].shape}")
        loaded[key] = value.astype(model[key].dtype, copy=True)
    return loaded
''')
A("l06_hf_substring_drops_c_attn_bias", "load_hf_state_dict", "mistake",
  "Skips buffers with the substring test 'attn.bias' in key, which also drops the real parameter attn.c_attn.bias.",
  HF_TEMPLATE.replace('if not k.endswith((".attn.bias", ".attn.masked_bias")) and k != "lm_head.weight"}',
                      'if "attn.bias" not in k and "masked_bias" not in k and k != "lm_head.weight"}'))
A("l06_hf_keeps_lm_head", "load_hf_state_dict", "mistake",
  "Does not set lm_head.weight aside: copies it into the result (no key check).", '''
def load_hf_state_dict(model, state_dict):
    TRANSPOSED = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    for k, v in state_dict.items():
        if k.endswith((".attn.bias", ".attn.masked_bias")):
            continue
        a = v.T if k.endswith(TRANSPOSED) else v
        dtype = model[k].dtype if k in model else model["transformer.wte.weight"].dtype
        out[k] = np.array(a, dtype=dtype)
    return out
''')
A("l06_hf_lm_head_unexpected", "load_hf_state_dict", "mistake",
  "Forgets to set lm_head.weight aside, so it raises 'unexpected key' for every ordinary Hugging Face state dict.",
  HF_TEMPLATE.replace(' and k != "lm_head.weight"}', '}'))
A("l06_hf_buffers_unexpected", "load_hf_state_dict", "mistake",
  "Forgets to skip the attention mask buffers, so an older checkpoint raises 'unexpected keys'.",
  HF_TEMPLATE.replace('if not k.endswith((".attn.bias", ".attn.masked_bias")) and k != "lm_head.weight"}', 'if k != "lm_head.weight"}'))
A("l06_hf_transpose_on_mismatch", "load_hf_state_dict", "mistake",
  "Transposes only when the shape does not match, so the square attn.c_proj weight is left untransposed.",
  HF_TEMPLATE.replace("if k.endswith(TRANSPOSED):", "if a.shape != ref.shape:"))
A("l06_hf_no_transpose", "load_hf_state_dict", "mistake",
  "Copies every tensor as it is, without transposing the Conv1D weights (no shape check).", '''
def load_hf_state_dict(model, state_dict):
    out = {}
    for k, ref in model.items():
        out[k] = np.array(state_dict[k], dtype=ref.dtype)
    return out
''')
A("l06_hf_dtype_from_state_dict", "load_hf_state_dict", "mistake",
  "Keeps the state dict's dtype instead of converting each array to the model's dtype.",
  HF_TEMPLATE.replace("out[k] = np.array(a, dtype=ref.dtype)", "out[k] = np.array(a)"))
A("l06_hf_pops_from_input", "load_hf_state_dict", "mistake",
  "Removes lm_head.weight and the buffers from the caller's state_dict with pop/del, changing the argument.", '''
def load_hf_state_dict(model, state_dict):
    TRANSPOSED = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    state_dict.pop("lm_head.weight", None)
    for k in list(state_dict):
        if k.endswith((".attn.bias", ".attn.masked_bias")):
            del state_dict[k]
    if set(state_dict) != set(model):
        raise ValueError(f"missing keys: {sorted(set(model) - set(state_dict))}; unexpected keys: {sorted(set(state_dict) - set(model))}")
    out = {}
    for k, ref in model.items():
        a = state_dict[k].T if k.endswith(TRANSPOSED) else state_dict[k]
        if a.shape != ref.shape:
            raise ValueError(f"{k}: got shape {a.shape}, the model has {ref.shape}")
        out[k] = np.array(a, dtype=ref.dtype)
    return out
''')
A("l06_hf_no_shape_check", "load_hf_state_dict", "mistake",
  "Never compares the shapes, so a tensor of the wrong shape is returned instead of raising ValueError.",
  HF_TEMPLATE.replace('''        if a.shape != ref.shape:
            raise ValueError(f"{k}: got shape {a.shape}, the model has {ref.shape}")
''', ""))
A("l06_hf_bug_returns_input", "load_hf_state_dict", "bug", "",
  HF_TEMPLATE.replace("    return out\n", "    return state_dict\n"))

# ----------------------------------------------------------------------------------------------
# Lesson 07: sinusoidal_positions
# ----------------------------------------------------------------------------------------------
SIN_TEMPLATE = '''
def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"d must be even, got d={d}")
    t = np.arange(T, dtype=np.float64)[:, None]
    i = np.arange(d // 2, dtype=np.float64)
    w = base ** (-2 * i / d)
    pe = np.empty((T, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(t * w)
    pe[:, 1::2] = np.cos(t * w)
    return pe
'''
A("l07_sin_right", "sinusoidal_positions", "right", "", SIN_TEMPLATE)
A("l07_sin_right_stack", "sinusoidal_positions", "right", "", '''
def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"the width d must be even, got {d}")
    angles = np.outer(np.arange(T), np.power(float(base), -np.arange(0, d, 2) / d))
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(T, d)
''')
A("l07_sin_concatenated", "sinusoidal_positions", "mistake",
  "Puts all the sines in the first half and all the cosines in the second instead of interleaving them.",
  SIN_TEMPLATE.replace("    pe[:, 0::2] = np.sin(t * w)\n    pe[:, 1::2] = np.cos(t * w)\n",
                       "    pe[:, : d // 2] = np.sin(t * w)\n    pe[:, d // 2 :] = np.cos(t * w)\n"))
A("l07_sin_missing_factor_2", "sinusoidal_positions", "mistake",
  "Uses base**(-i/d) instead of base**(-2i/d) for the frequency of pair i.",
  SIN_TEMPLATE.replace("w = base ** (-2 * i / d)", "w = base ** (-i / d)"))
A("l07_sin_column_index_doubled", "sinusoidal_positions", "mistake",
  "Takes i as the even column index 2i and still multiplies by 2, so the exponent is -4i/d.",
  SIN_TEMPLATE.replace("i = np.arange(d // 2, dtype=np.float64)", "i = np.arange(0, d, 2, dtype=np.float64)"))
A("l07_sin_positions_from_1", "sinusoidal_positions", "mistake",
  "Numbers the positions 1..T instead of 0..T-1.",
  SIN_TEMPLATE.replace("t = np.arange(T, dtype=np.float64)[:, None]", "t = np.arange(1, T + 1, dtype=np.float64)[:, None]"))
A("l07_sin_cos_first", "sinusoidal_positions", "mistake",
  "Puts the cosine in the even columns and the sine in the odd ones.",
  SIN_TEMPLATE.replace("pe[:, 0::2] = np.sin(t * w)", "pe[:, 0::2] = np.cos(t * w)").replace("pe[:, 1::2] = np.cos(t * w)", "pe[:, 1::2] = np.sin(t * w)"))
A("l07_sin_hardcoded_base", "sinusoidal_positions", "mistake",
  "Hard-codes 10000 instead of using the base argument.",
  SIN_TEMPLATE.replace("w = base ** (-2 * i / d)", "w = 10000.0 ** (-2 * i / d)"))
A("l07_sin_float32", "sinusoidal_positions", "mistake",
  "Returns a float32 table instead of float64.",
  SIN_TEMPLATE.replace("    return pe\n", "    return pe.astype(np.float32)\n"))
A("l07_sin_no_odd_check", "sinusoidal_positions", "mistake",
  "Does not raise ValueError for an odd d (the interleaved assignment then fails or silently misbehaves).", '''
def sinusoidal_positions(T, d, base=10000.0):
    t = np.arange(T)[:, None]
    i = np.arange((d + 1) // 2)
    w = base ** (-2 * i / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * w)
    pe[:, 1::2] = np.cos(t * w)[:, : d // 2]
    return pe
''')
A("l07_sin_period_not_angular", "sinusoidal_positions", "mistake",
  "Treats base**(2i/d) as a period and multiplies by 2*pi (sin(2*pi*t/period)) instead of using the angular frequency directly.",
  SIN_TEMPLATE.replace("w = base ** (-2 * i / d)", "w = 2 * np.pi / base ** (2 * i / d)"))
A("l07_sin_bug_undefined", "sinusoidal_positions", "bug", "",
  SIN_TEMPLATE.replace("    pe = np.empty((T, d), dtype=np.float64)\n", ""))

# ----------------------------------------------------------------------------------------------
# Lesson 07: position_similarity
# ----------------------------------------------------------------------------------------------
SIM_TEMPLATE = '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    n = np.linalg.norm(wpe, axis=1, keepdims=True)
    u = wpe / n
    return u @ u.T
'''
A("l07_sim_right", "position_similarity", "right", "", SIM_TEMPLATE)
A("l07_sim_right_f64", "position_similarity", "right", "", '''
def position_similarity(wpe):
    if np.ndim(wpe) != 2:
        raise ValueError(f"wpe must be 2-D (T, d), got shape {wpe.shape}")
    w = wpe.astype(np.float64)
    gram = w @ w.T
    norms = np.sqrt(np.diag(gram))
    return (gram / np.outer(norms, norms)).astype(wpe.dtype)
''')
A("l07_sim_columns", "position_similarity", "mistake",
  "Normalises the columns (axis 0) instead of the rows before taking the products.",
  SIM_TEMPLATE.replace("n = np.linalg.norm(wpe, axis=1, keepdims=True)", "n = np.linalg.norm(wpe, axis=0, keepdims=True)"))
A("l07_sim_no_normalisation", "position_similarity", "mistake",
  "Returns the plain dot products wpe @ wpe.T without dividing by the lengths.", '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    return wpe @ wpe.T
''')
A("l07_sim_feature_similarity", "position_similarity", "mistake",
  "Compares the columns (features) instead of the rows: normalised wpe.T @ wpe gives a (d, d) matrix.", '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    u = wpe / np.linalg.norm(wpe, axis=0, keepdims=True)
    return u.T @ u
''')
A("l07_sim_inplace_normalise", "position_similarity", "mistake",
  "Normalises the table in place (wpe /= norms), changing the caller's array.", '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    wpe /= np.linalg.norm(wpe, axis=1, keepdims=True)
    return wpe @ wpe.T
''')
A("l07_sim_one_norm", "position_similarity", "mistake",
  "Divides the dot products by one row's length only (|wpe[s]|) instead of by both lengths.", '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    n = np.linalg.norm(wpe, axis=1)
    return (wpe @ wpe.T) / n[:, None]
''')
A("l07_sim_upcast", "position_similarity", "mistake",
  "Computes in float64 and forgets to cast back, so a float32 table gives a float64 matrix.", '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    w = wpe.astype(np.float64)
    w = w / np.sqrt((w ** 2).sum(axis=1, keepdims=True))
    return w @ w.T
''')
A("l07_sim_pearson", "position_similarity", "mistake",
  "Returns the Pearson correlation (np.corrcoef, rows centred first) instead of the cosine similarity.", '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    return np.corrcoef(wpe).astype(wpe.dtype)
''')
A("l07_sim_no_ndim_check", "position_similarity", "mistake",
  "Does not check that the table is 2-D, so a 3-D table gives a NumPy error or a wrong result instead of a ValueError naming the shape.", '''
def position_similarity(wpe):
    u = wpe / np.linalg.norm(wpe, axis=-1, keepdims=True)
    return u @ np.swapaxes(u, -1, -2)
''')
A("l07_sim_bug_returns_norms", "position_similarity", "bug", "", '''
def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    n = np.linalg.norm(wpe, axis=1, keepdims=True)
    sim = (wpe / n) @ (wpe / n).T
    return n
''')

# ----------------------------------------------------------------------------------------------
# Lesson 07: principal_components
# ----------------------------------------------------------------------------------------------
PCA_TEMPLATE = '''
def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is more than min(T, d)={min(T, d)} principal directions")
    X = wpe.astype(np.float64)
    X = X - X.mean(axis=0)
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    V = Vt[:k].T
    j = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[j, np.arange(k)])
    return (X @ V).astype(wpe.dtype)
'''
A("l07_pca_right_svd", "principal_components", "right", "", PCA_TEMPLATE)
A("l07_pca_right_eigh", "principal_components", "right", "", '''
def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got wpe.shape = {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"asked for k = {k} components but a ({T}, {d}) table has at most min(T, d) = {min(T, d)}")
    centred = wpe.astype(np.float64) - wpe.mean(axis=0, dtype=np.float64)
    cov = centred.T @ centred / (T - 1)
    evals, evecs = np.linalg.eigh(cov)
    order = np.argsort(evals)[::-1][:k]
    dirs = evecs[:, order]
    for c in range(k):
        if dirs[np.argmax(np.abs(dirs[:, c])), c] < 0:
            dirs[:, c] = -dirs[:, c]
    return (centred @ dirs).astype(wpe.dtype)
''')
A("l07_pca_not_centred", "principal_components", "mistake",
  "Skips the centring: takes the SVD of the raw table.",
  PCA_TEMPLATE.replace("    X = X - X.mean(axis=0)\n", ""))
A("l07_pca_eigh_ascending", "principal_components", "mistake",
  "Takes the first k eigenvectors of np.linalg.eigh, which sorts the eigenvalues in ascending order, so it gets the smallest-variance directions.", '''
def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is more than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0)
    evals, evecs = np.linalg.eigh(X.T @ X)
    V = evecs[:, :k]
    j = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[j, np.arange(k)])
    return (X @ V).astype(wpe.dtype)
''')
A("l07_pca_sign_first_entry", "principal_components", "mistake",
  "Fixes the sign so that each direction's first entry is positive instead of its largest-magnitude entry.",
  PCA_TEMPLATE.replace("    j = np.argmax(np.abs(V), axis=0)\n    V = V * np.sign(V[j, np.arange(k)])\n", "    V = V * np.sign(V[0])\n"))
A("l07_pca_sign_from_projection", "principal_components", "mistake",
  "Fixes the sign on the projections (largest-magnitude projection positive) instead of on the direction.", '''
def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is more than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0)
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    Y = X @ Vt[:k].T
    j = np.argmax(np.abs(Y), axis=0)
    Y = Y * np.sign(Y[j, np.arange(k)])
    return Y.astype(wpe.dtype)
''')
A("l07_pca_returns_U", "principal_components", "mistake",
  "Returns the left singular vectors U[:, :k] (unit length) instead of the projections U * S (scores not scaled by the singular values).", '''
def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is more than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0)
    U, S, Vt = np.linalg.svd(X, full_matrices=False)
    signs = np.sign(Vt[np.arange(k), np.argmax(np.abs(Vt[:k]), axis=1)])
    return (U[:, :k] * signs).astype(wpe.dtype)
''')
A("l07_pca_vt_columns", "principal_components", "mistake",
  "Takes the columns of Vt as the directions (Vt[:, :k]) instead of its rows (a missing transpose).",
  PCA_TEMPLATE.replace("V = Vt[:k].T", "V = Vt[:, :k]"))
A("l07_pca_centre_wrong_axis", "principal_components", "mistake",
  "Centres each row on its own mean (axis=1) instead of subtracting the mean row (axis 0).",
  PCA_TEMPLATE.replace("X = X - X.mean(axis=0)", "X = X - X.mean(axis=1, keepdims=True)"))
A("l07_pca_upcast", "principal_components", "mistake",
  "Computes in float64 and returns float64 for a float32 table (no cast back).",
  PCA_TEMPLATE.replace("return (X @ V).astype(wpe.dtype)", "return X @ V"))
A("l07_pca_inplace_centre", "principal_components", "mistake",
  "Centres the table in place (wpe -= mean), changing the caller's array.", '''
def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is more than min(T, d)={min(T, d)}")
    wpe -= wpe.mean(axis=0)
    _, _, Vt = np.linalg.svd(wpe, full_matrices=False)
    V = Vt[:k].T
    j = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[j, np.arange(k)])
    return wpe @ V
''')
A("l07_pca_no_k_check", "principal_components", "mistake",
  "Does not check k against min(T, d), so a too-large k silently returns fewer columns instead of raising ValueError.",
  PCA_TEMPLATE.replace('''    if k > min(T, d):
        raise ValueError(f"k={k} is more than min(T, d)={min(T, d)} principal directions")
''', ""))
A("l07_pca_standardised", "principal_components", "mistake",
  "Divides each column by its standard deviation as well (PCA of the correlation matrix) instead of only centring.",
  PCA_TEMPLATE.replace("X = X - X.mean(axis=0)", "X = (X - X.mean(axis=0)) / X.std(axis=0)"))
A("l07_pca_bug_unpack", "principal_components", "bug", "",
  PCA_TEMPLATE.replace("_, _, Vt = np.linalg.svd(X, full_matrices=False)", "_, Vt = np.linalg.svd(X, full_matrices=False)"))

# ----------------------------------------------------------------------------------------------
# Lesson 08: cross_entropy
# ----------------------------------------------------------------------------------------------
CE_TEMPLATE = '''
def cross_entropy(logits, targets):
    logits = np.asarray(logits)
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    bad = (targets < 0) | (targets >= V)
    if bad.any():
        raise ValueError(f"target id {targets[bad].flat[0]} is outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=-1))
    picked = np.take_along_axis(z, targets[..., None], axis=-1)[..., 0]
    return np.mean(lse - picked)
'''
A("l08_ce_right", "cross_entropy", "right", "", CE_TEMPLATE)
A("l08_ce_right_flat_f64", "cross_entropy", "right", "", '''
def cross_entropy(logits, targets):
    if np.shape(targets) != logits.shape[:-1]:
        raise ValueError(f"targets have shape {np.shape(targets)}, expected {logits.shape[:-1]} (logits {logits.shape})")
    V = logits.shape[-1]
    t = np.asarray(targets).reshape(-1)
    for tid in t:
        if tid < 0 or tid >= V:
            raise ValueError(f"target id {tid} not in [0, {V})")
    z = logits.reshape(-1, V).astype(np.float64)
    m = z.max(axis=1)
    logz = m + np.log(np.sum(np.exp(z - m[:, None]), axis=1))
    nll = logz - z[np.arange(len(t)), t]
    return logits.dtype.type(nll.mean())
''')
A("l08_ce_naive_softmax", "cross_entropy", "mistake",
  "Takes the log of an unstabilised softmax: exp overflows for logits near 1000.", '''
def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    p = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    return -np.mean(np.log(np.take_along_axis(p, targets[..., None], axis=-1)))
''')
A("l08_ce_log_of_stable_softmax", "cross_entropy", "mistake",
  "Subtracts the max and then takes the log of the softmax probability, which underflows to log(0) = -inf for a very unlikely target.", '''
def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    return -np.mean(np.log(np.take_along_axis(p, targets[..., None], axis=-1)))
''')
A("l08_ce_sum_not_mean", "cross_entropy", "mistake",
  "Sums the negative log-likelihoods instead of averaging them.", CE_TEMPLATE.replace("return np.mean(lse - picked)", "return np.sum(lse - picked)"))
A("l08_ce_mean_over_batch_only", "cross_entropy", "mistake",
  "Sums over the positions of each sequence and averages over the first axis only (divides by B, not by B*T).",
  CE_TEMPLATE.replace("return np.mean(lse - picked)", "nll = lse - picked\n    return nll.sum() / (nll.shape[0] if nll.ndim else 1)"))
A("l08_ce_sign", "cross_entropy", "mistake",
  "Forgets the minus sign: returns the mean log-probability (negative) instead of the negative log-likelihood.",
  CE_TEMPLATE.replace("return np.mean(lse - picked)", "return np.mean(picked - lse)"))
A("l08_ce_fancy_index_matrix", "cross_entropy", "mistake",
  "Picks the targets with logp[:, targets], which gives an (N, N) matrix (every row at every target) instead of one entry per row.", '''
def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    z = logits.reshape(-1, V)
    t = targets.reshape(-1)
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -np.mean(logp[:, t])
''')
A("l08_ce_python_float", "cross_entropy", "mistake",
  "Returns float(...), a Python float, instead of the NumPy scalar of the logits' dtype.",
  CE_TEMPLATE.replace("return np.mean(lse - picked)", "return float(np.mean(lse - picked))"))
A("l08_ce_upcast", "cross_entropy", "mistake",
  "Converts the logits to float64 for stability and never converts back, so float32 logits give a float64 loss.",
  CE_TEMPLATE.replace("    logits = np.asarray(logits)\n", "    logits = np.asarray(logits, dtype=np.float64)\n"))
A("l08_ce_no_range_check", "cross_entropy", "mistake",
  "Does not check the target ids, so id -1 silently reads the last logit.",
  CE_TEMPLATE.replace('''    bad = (targets < 0) | (targets >= V)
    if bad.any():
        raise ValueError(f"target id {targets[bad].flat[0]} is outside [0, {V})")
''', ""))
A("l08_ce_no_shape_check", "cross_entropy", "mistake",
  "Does not compare targets.shape with logits.shape[:-1], so mismatched shapes broadcast or crash with NumPy's error.",
  CE_TEMPLATE.replace('''    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape[:-1] {logits.shape[:-1]}")
''', ""))
A("l08_ce_no_keepdims", "cross_entropy", "mistake",
  "Takes the row maximum without keepdims, so it does not broadcast against the logits (or subtracts the wrong maxima).",
  CE_TEMPLATE.replace("z = logits - logits.max(axis=-1, keepdims=True)", "z = logits - logits.max(axis=-1)"))
A("l08_ce_2d_only", "cross_entropy", "mistake",
  "Assumes (N, V) logits: indexes with np.arange(logits.shape[0]), so (B, T, V) and single-position (V,) inputs are not handled.", '''
def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    N = logits.shape[0]
    z = logits - logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=-1))
    return np.mean(lse - z[np.arange(N), targets])
''')
A("l08_ce_bug_typo", "cross_entropy", "bug", "", CE_TEMPLATE.replace("return np.mean(lse - picked)", "return np.mean(lse - picekd)"))

# ----------------------------------------------------------------------------------------------
# Lesson 08: get_batch
# ----------------------------------------------------------------------------------------------
GB_TEMPLATE = '''
def get_batch(data, batch_size, block_size, rng):
    data = np.asarray(data)
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, fewer than block_size + 1 = {block_size + 1} (block_size {block_size})")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    offs = np.arange(block_size)
    x = data[starts[:, None] + offs].astype(np.int64)
    y = data[starts[:, None] + offs + 1].astype(np.int64)
    return x, y
'''
A("l08_gb_right", "get_batch", "right", "", GB_TEMPLATE)
A("l08_gb_right_stack", "get_batch", "right", "", '''
def get_batch(data, batch_size, block_size, rng):
    n = len(data)
    if n < block_size + 1:
        raise ValueError(f"len(data) = {n} is too short for block_size = {block_size}: need block_size + 1 ids")
    ix = rng.integers(0, n - block_size, size=batch_size)
    x = np.stack([np.asarray(data[i:i + block_size], dtype=np.int64) for i in ix])
    y = np.stack([np.asarray(data[i + 1:i + 1 + block_size], dtype=np.int64) for i in ix])
    return x, y
''')
A("l08_gb_y_not_shifted", "get_batch", "mistake",
  "Makes the targets the same window as the inputs (no shift by one).",
  GB_TEMPLATE.replace("y = data[starts[:, None] + offs + 1]", "y = data[starts[:, None] + offs]"))
A("l08_gb_upper_minus_one", "get_batch", "mistake",
  "Draws the starts with rng.integers(0, len(data) - block_size - 1), one too few (off by one in the exclusive upper end).",
  GB_TEMPLATE.replace("rng.integers(0, len(data) - block_size, size=batch_size)", "rng.integers(0, len(data) - block_size - 1, size=batch_size)"))
A("l08_gb_global_random", "get_batch", "mistake",
  "Draws the starts with np.random.randint instead of the given rng.",
  GB_TEMPLATE.replace("rng.integers(0, len(data) - block_size, size=batch_size)", "np.random.randint(0, len(data) - block_size, size=batch_size)"))
A("l08_gb_uint8_kept", "get_batch", "mistake",
  "Keeps the data's dtype (uint8) instead of converting the batches to int64.",
  GB_TEMPLATE.replace(".astype(np.int64)", ""))
A("l08_gb_no_length_check", "get_batch", "mistake",
  "Does not check that data holds at least block_size + 1 ids, so short data gives NumPy's error without the numbers.",
  GB_TEMPLATE.replace('''    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, fewer than block_size + 1 = {block_size + 1} (block_size {block_size})")
''', ""))
A("l08_gb_length_check_off_by_one", "get_batch", "mistake",
  "Checks len(data) < block_size instead of < block_size + 1, so data of exactly block_size ids slips past the check.",
  GB_TEMPLATE.replace("if len(data) < block_size + 1:", "if len(data) < block_size:"))
A("l08_gb_xy_swapped", "get_batch", "mistake",
  "Returns (y, x): the targets and the inputs swapped.", GB_TEMPLATE.replace("return x, y", "return y, x"))
A("l08_gb_y_one_short", "get_batch", "mistake",
  "Slices the targets as data[s + 1 : s + block_size], one id short.", '''
def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, need block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1:s + block_size] for s in starts]).astype(np.int64)
    return x, y
''')
# Fixed after the first run: rng.choice(n, size) with replacement draws through rng.integers and
# gave the very same starts (a right answer); the mistake meant is distinct starts without replacement.
A("l08_gb_choice", "get_batch", "mistake",
  "Draws distinct starts with rng.choice(..., replace=False) instead of the prescribed rng.integers call, so the batch differs from the course's for the same rng state.",
  GB_TEMPLATE.replace("rng.integers(0, len(data) - block_size, size=batch_size)", "rng.choice(len(data) - block_size, size=batch_size, replace=False)"))
A("l08_gb_bug_list", "get_batch", "bug", "", '''
def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, need block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = [data[s:s + block_size] for s in starts]
    y = [data[s + 1:s + block_size + 1] for s in starts]
    return x, y
''')

# ----------------------------------------------------------------------------------------------
# Lesson 08: sample_next
# ----------------------------------------------------------------------------------------------
SN_TEMPLATE = '''
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1)) * cdf[:, -1:]
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
'''
A("l08_sn_right_cdf", "sample_next", "right", "", SN_TEMPLATE)
A("l08_sn_right_gumbel", "sample_next", "right", "", '''
def sample_next(logits, temperature, top_k, rng):
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        order = np.argsort(z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, : V - top_k], -np.inf, axis=-1)
    g = rng.gumbel(size=z.shape)
    return np.argmax(z + g, axis=-1).astype(np.int64)
''')
A("l08_sn_right_choice_rows", "sample_next", "right", "", '''
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature {temperature} must be positive")
    out = np.empty(logits.shape[0], dtype=np.int64)
    for b, row in enumerate(logits):
        z = row.astype(np.float64) / temperature
        if top_k is not None and top_k < len(z):
            top = np.argsort(z)[::-1][:top_k]
            p = np.exp(z[top] - z[top].max())
            out[b] = top[rng.choice(len(top), p=p / p.sum())]
        else:
            p = np.exp(z - z.max())
            out[b] = rng.choice(len(z), p=p / p.sum())
    return out
''')
A("l08_sn_temperature_multiplied", "sample_next", "mistake",
  "Multiplies the logits by the temperature instead of dividing.",
  SN_TEMPLATE.replace("z = np.asarray(logits, dtype=np.float64) / temperature", "z = np.asarray(logits, dtype=np.float64) * temperature"))
A("l08_sn_topk_plus_one", "sample_next", "mistake",
  "Keeps the logits >= the (k+1)-th largest, so k + 1 candidates survive (off by one in top-k).", '''
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = np.sort(z, axis=-1)[:, -top_k - 1][:, None]
        z = np.where(z >= kth, z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1)) * cdf[:, -1:]
    return np.minimum((cdf < u).sum(axis=-1), V - 1).astype(np.int64)
''')
A("l08_sn_topk_ties_kept", "sample_next", "mistake",
  "Keeps every logit >= the k-th largest, so ties at the k-th place keep more than top_k candidates.", '''
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = np.sort(z, axis=-1)[:, -top_k][:, None]
        z = np.where(z < kth, -np.inf, z)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1)) * cdf[:, -1:]
    return np.minimum((cdf < u).sum(axis=-1), V - 1).astype(np.int64)
''')
A("l08_sn_greedy", "sample_next", "mistake",
  "Takes the argmax (greedy decoding) instead of drawing from the distribution.", '''
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    return np.argmax(logits / temperature, axis=-1).astype(np.int64)
''')
A("l08_sn_global_rng", "sample_next", "mistake",
  "Draws with np.random (the global generator) instead of the given rng.",
  SN_TEMPLATE.replace("u = rng.random((B, 1)) * cdf[:, -1:]", "u = np.random.random((B, 1)) * cdf[:, -1:]"))
A("l08_sn_softmax_axis0", "sample_next", "mistake",
  "Normalises the softmax over the batch axis (axis 0) instead of over the vocabulary.",
  SN_TEMPLATE.replace("z = z - z.max(axis=-1, keepdims=True)", "z = z - z.max(axis=0, keepdims=True)")
  .replace("p = p / p.sum(axis=-1, keepdims=True)", "p = p / p.sum(axis=0, keepdims=True)"))
A("l08_sn_no_temp_check", "sample_next", "mistake",
  "Never checks the temperature, so 0 divides by zero and a negative value is silently accepted.",
  SN_TEMPLATE.replace('''    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
''', "").replace("z = np.asarray(logits, dtype=np.float64) / temperature", "with np.errstate(all='ignore'):\n        z = np.asarray(logits, dtype=np.float64) / temperature"))
A("l08_sn_unstable", "sample_next", "mistake",
  "Takes exp of the logits without subtracting the row maximum, so logits near 800 overflow.",
  SN_TEMPLATE.replace("    z = z - z.max(axis=-1, keepdims=True)\n", ""))
A("l08_sn_keepdims_shape", "sample_next", "mistake",
  "Returns the ids with shape (B, 1) instead of (B,).",
  SN_TEMPLATE.replace("ids = (cdf < u).sum(axis=-1)", "ids = (cdf < u).sum(axis=-1, keepdims=True)"))
A("l08_sn_topk_not_renormalised", "sample_next", "mistake",
  "Zeroes the probabilities outside the top k after the softmax without renormalising, then draws with the inverse CDF, so the leftover mass lands outside the top k.", '''
def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    if top_k is not None and top_k < V:
        drop = np.argsort(p, axis=-1)[:, : V - top_k]
        np.put_along_axis(p, drop, 0.0, axis=-1)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''')
A("l08_sn_temperature_on_probs", "sample_next", "mistake",
  "Divides the probabilities (after the softmax) by the temperature, which the renormalisation undoes: the temperature has no effect.",
  SN_TEMPLATE.replace("z = np.asarray(logits, dtype=np.float64) / temperature", "z = np.asarray(logits, dtype=np.float64)")
  .replace("    p = p / p.sum(axis=-1, keepdims=True)\n", "    p = p / temperature\n    p = p / p.sum(axis=-1, keepdims=True)\n"))
A("l08_sn_none_topk_crash", "sample_next", "mistake",
  "Does not handle top_k=None (compares None with V), so sampling without a top-k limit crashes.",
  SN_TEMPLATE.replace("if top_k is not None and top_k < V:", "if top_k < V:"))
A("l08_sn_bug_undefined_B", "sample_next", "bug", "", SN_TEMPLATE.replace("    B, V = z.shape\n", "    V = z.shape[-1]\n"))

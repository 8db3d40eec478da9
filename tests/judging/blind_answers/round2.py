"""Blind learner answers, round 2: right answers, classic mistakes and plain bugs
for the exercises of lessons 01-08, written without reading the grader or the solutions."""

ANSWERS = [
    {
        "id": 'l01_embed_right_fancy',
        "exercise": 'embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T > block_size:
        raise ValueError(f"sequence length {T} exceeds the block size {block_size}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_right_take',
        "exercise": 'embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    n_pos = wpe.shape[0]
    if T > n_pos:
        raise ValueError(
            "got %d tokens but the model only has %d positions (context length)" % (T, n_pos)
        )
    tok = np.take(wte, idx, axis=0)
    pos = np.take(wpe, np.arange(T), axis=0)
    return tok + pos
''',
    },
    {
        "id": 'l01_embed_pos_by_token',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Indexes the position table with the token ids (wpe[idx]) instead of with the positions 0..T-1.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[idx]
''',
    },
    {
        "id": 'l01_embed_offbyone_limit',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Rejects a sequence of exactly block_size tokens (uses >= instead of >).',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T >= block_size:
        raise ValueError(f"sequence length {T} exceeds the block size {block_size}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_no_check',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": "Does not validate the length at all, so a too-long sequence fails with NumPy's broadcasting error instead of a ValueError naming the block size.",
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_vague_message',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Raises ValueError for a too-long sequence but the message does not name the sequence length and the block size.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError("input sequence is too long for the block size")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_assert',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Uses an assert (AssertionError) instead of raising ValueError for a sequence longer than the block size.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    assert T <= wpe.shape[0], f"sequence length {T} exceeds the block size {wpe.shape[0]}"
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_T_from_axis0',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Takes T as idx.shape[0], which is the batch size for a (B, T) batch, so batched input gets the wrong position rows (or a broadcast error).',
        "source": r'''def embed(wte, wpe, idx):
    T = len(idx)
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_float64_buffer',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Allocates the output with np.zeros (float64 by default), so float32 tables give a float64 result.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    out = np.zeros(idx.shape + (wte.shape[1],))
    out[...] = wte[idx]
    out += wpe[:T]
    return out
''',
    },
    {
        "id": 'l01_embed_pos_from_one',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Starts positions at 1 (wpe[1:T+1]) instead of 0.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    positions = np.arange(1, T + 1)
    return wte[idx] + wpe[positions % wpe.shape[0]]
''',
    },
    {
        "id": 'l01_embed_bug_nameerror',
        "exercise": 'embed',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    seq_len = idx.shape[-1]
    if seq_len > wpe.shape[0]:
        raise ValueError(f"sequence length {seq_len} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:seqlen]
''',
    },
    {
        "id": 'l01_onehot_right_compare',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = (idx[..., None] == np.arange(V)).astype(wte.dtype)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_onehot_right_eye_einsum',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    eye = np.eye(wte.shape[0], dtype=wte.dtype)
    oh = eye[idx]
    return np.einsum("...v,vd->...d", oh, wte)
''',
    },
    {
        "id": 'l01_onehot_float64_eye',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": "Builds the one-hot matrix with np.eye's default float64, so a float32 table gives a float64 result.",
        "source": r'''def one_hot_embed(wte, idx):
    one_hot = np.eye(wte.shape[0])[idx]
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_onehot_int_onehot',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds an integer one-hot matrix (astype(int)); int64 @ float32 promotes the result to float64.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = (idx[..., None] == np.arange(V)).astype(int)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_onehot_transposed',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds the one-hot matrix as (V, T) columns and returns wte.T @ one_hot, i.e. the (d, T) transpose of the answer.',
        "source": r'''def one_hot_embed(wte, idx):
    V, d = wte.shape
    T = idx.shape[-1]
    one_hot = np.zeros((V, T), dtype=wte.dtype)
    one_hot[idx, np.arange(T)] = 1
    return wte.T @ one_hot
''',
    },
    {
        "id": 'l01_onehot_1d_only',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Fills the one-hot matrix with oh[np.arange(len(idx)), idx] = 1, which only works for a 1-D sequence, not a (B, T) batch.',
        "source": r'''def one_hot_embed(wte, idx):
    n = len(idx)
    oh = np.zeros((n, wte.shape[0]), dtype=wte.dtype)
    oh[np.arange(n), idx] = 1
    return oh @ wte
''',
    },
    {
        "id": 'l01_onehot_width_d',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Makes the one-hot vectors of width d (wte.shape[1]) instead of the vocabulary size V.',
        "source": r'''def one_hot_embed(wte, idx):
    d = wte.shape[1]
    one_hot = np.eye(d, dtype=wte.dtype)[idx]
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_onehot_bug_noreturn',
        "exercise": 'one_hot_embed',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = (idx[..., None] == np.arange(V)).astype(wte.dtype)
    out = one_hot @ wte
''',
    },
    {
        "id": 'l02_ln_right_basic',
        "exercise": 'layer_norm',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_ln_right_f64',
        "exercise": 'layer_norm',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    x64 = x.astype(np.float64)
    mu = np.mean(x64, axis=-1, keepdims=True)
    var = np.var(x64, axis=-1, keepdims=True)
    y = (x64 - mu) / np.sqrt(var + eps)
    y = y * weight.astype(np.float64) + bias.astype(np.float64)
    return y.astype(x.dtype)
''',
    },
    {
        "id": 'l02_ln_ddof1',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Uses the sample variance (ddof=1, divide by d-1) instead of the population variance.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, ddof=1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_ln_eps_outside',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Adds eps to the standard deviation (outside the square root) instead of to the variance.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    std = x.std(-1, keepdims=True)
    return (x - mu) / (std + eps) * weight + bias
''',
    },
    {
        "id": 'l02_ln_axis0',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Normalises over axis 0 (across positions/batch) instead of over the last (feature) axis.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=0, keepdims=True)
    var = x.var(axis=0, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_ln_hardcoded_eps',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Ignores the eps argument and always uses 1e-5.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * weight + bias
''',
    },
    {
        "id": 'l02_ln_swap_weight_bias',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Swaps the gain and the bias: multiplies by bias and adds weight.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    xhat = (x - mu) / np.sqrt(var + eps)
    return xhat * bias + weight
''',
    },
    {
        "id": 'l02_ln_upcast',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Computes in float64 for accuracy but forgets to cast back, so float32 input returns float64.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    x = x.astype(np.float64)
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_ln_all_axes',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": "Takes the mean and variance over the last two axes (the whole (T, d) sequence) instead of each position's vector.",
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=(-2, -1), keepdims=True)
    var = x.var(axis=(-2, -1), keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_ln_rms_no_centering',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Divides by the root mean square of x without subtracting the mean (RMSNorm instead of LayerNorm).',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    ms = np.mean(x * x, axis=-1, keepdims=True)
    return x / np.sqrt(ms + eps) * weight + bias
''',
    },
    {
        "id": 'l02_ln_bug_return_mean',
        "exercise": 'layer_norm',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    out = (x - mean) / np.sqrt(var + eps) * weight + bias
    return mean
''',
    },
    {
        "id": 'l02_attn_right_swapaxes',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)

    def heads(t):
        return np.swapaxes(t.reshape(*lead, T, n_head, d_k), -3, -2)

    q, k, v = heads(q), heads(k), heads(v)
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    mask = np.triu(np.ones((T, T), dtype=bool), k=1)
    scores = np.where(mask, -np.inf, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    out = w @ v
    out = np.swapaxes(out, -3, -2).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_right_einsum_f64',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    dtype = x.dtype
    x = x.astype(np.float64)
    T, d = x.shape[-2], x.shape[-1]
    dk = d // n_head
    qkv = x @ w_qkv.astype(np.float64) + b_qkv.astype(np.float64)
    q = qkv[..., :d].reshape(x.shape[:-1] + (n_head, dk))
    k = qkv[..., d:2 * d].reshape(x.shape[:-1] + (n_head, dk))
    v = qkv[..., 2 * d:].reshape(x.shape[:-1] + (n_head, dk))
    s = np.einsum("...qhe,...khe->...hqk", q, k) / np.sqrt(dk)
    future = np.arange(T)[None, :] > np.arange(T)[:, None]
    s[..., future] = -1e30
    s -= s.max(-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(-1, keepdims=True)
    o = np.einsum("...hqk,...khe->...qhe", p, v).reshape(x.shape)
    y = o @ w_o.astype(np.float64) + b_o.astype(np.float64)
    return y.astype(dtype)
''',
    },
    {
        "id": 'l02_attn_reshape_only',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Splits heads with a bare reshape to (..., n_head, T, d_k) instead of reshaping to (..., T, n_head, d_k) and swapping axes.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2*d], qkv[..., 2*d:]
    q = q.reshape(*lead, n_head, T, dk)
    k = k.reshape(*lead, n_head, T, dk)
    v = v.reshape(*lead, n_head, T, dk)
    att = q @ np.swapaxes(k, -1, -2) / dk ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    att = np.where(mask, att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att = att / att.sum(-1, keepdims=True)
    y = (att @ v).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_scale_d',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Scales the scores by sqrt(d), the full width, instead of sqrt(d_k), the head size.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = np.swapaxes(q.reshape(*lead, T, n_head, dk), -2, -3)
    k = np.swapaxes(k.reshape(*lead, T, n_head, dk), -2, -3)
    v = np.swapaxes(v.reshape(*lead, T, n_head, dk), -2, -3)
    att = q @ np.swapaxes(k, -1, -2) / d ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    att = np.where(mask, att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att = att / att.sum(-1, keepdims=True)
    y = np.swapaxes(att @ v, -2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_np_sqrt_upcast',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Divides by np.sqrt(d_k), a float64 NumPy scalar, which turns float32 activations into float64 under NumPy 2.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = np.swapaxes(q.reshape(*lead, T, n_head, dk), -2, -3)
    k = np.swapaxes(k.reshape(*lead, T, n_head, dk), -2, -3)
    v = np.swapaxes(v.reshape(*lead, T, n_head, dk), -2, -3)
    att = q @ np.swapaxes(k, -1, -2) / np.sqrt(np.float64(dk))
    mask = np.tril(np.ones((T, T), dtype=bool))
    att = np.where(mask, att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att = att / att.sum(-1, keepdims=True)
    y = np.swapaxes(att @ v, -2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_no_scale',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Forgets to divide the scores by sqrt(d_k).',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    att = q @ k.swapaxes(-1, -2)
    att = np.where(np.tril(np.ones((T, T))) == 1, att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    y = (att @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_mask_diagonal',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Masks the diagonal too (np.triu with k=0), so a position cannot attend to itself; a large negative number keeps row 0 finite but uniform.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    att = q @ k.swapaxes(-1, -2) / dk ** 0.5
    mask = np.triu(np.ones((T, T), dtype=bool))
    att = np.where(mask, -1e9, att)
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    y = (att @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_mask_after_softmax',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Applies the causal mask by zeroing the weights after the softmax, without renormalising the rows.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    att = q @ k.swapaxes(-1, -2) / dk ** 0.5
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    att = att * np.tril(np.ones((T, T), dtype=x.dtype))
    y = (att @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_softmax_axis_queries',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Takes the softmax over the queries axis (-2) instead of over the keys (the last axis).',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    att = q @ k.swapaxes(-1, -2) / dk ** 0.5
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(-2, keepdims=True))
    att /= att.sum(-2, keepdims=True)
    y = (att @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_no_mask',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Leaves out the causal mask, so every position attends to future positions too.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    att = q @ k.swapaxes(-1, -2) / dk ** 0.5
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    y = (att @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_multiplicative_mask',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Masks by multiplying the scores by a 0/1 lower-triangular matrix before the softmax, so hidden keys get score 0 (weight exp(0)) instead of -inf.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    att = q @ k.swapaxes(-1, -2) / dk ** 0.5
    att = att * np.tril(np.ones((T, T), dtype=x.dtype))
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    y = (att @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_interleaved_qkv',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Splits Q, K, V per head from interleaved columns (reshape qkv to (..., T, n_head, 3*d_k)) instead of taking the first, second and last d columns.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    qkv = (x @ w_qkv + b_qkv).reshape(*lead, T, n_head, 3 * dk).swapaxes(-2, -3)
    q, k, v = qkv[..., :dk], qkv[..., dk:2 * dk], qkv[..., 2 * dk:]
    att = q @ k.swapaxes(-1, -2) / dk ** 0.5
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    y = (att @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_merge_no_swap',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Merges the heads with a plain reshape of (..., n_head, T, d_k) to (..., T, d), without swapping the head and T axes back first.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    att = q @ k.swapaxes(-1, -2) / dk ** 0.5
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    y = (att @ v).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_no_out_proj',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Returns the merged heads without the output projection @ w_o + b_o.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    att = q @ k.swapaxes(-1, -2) / dk ** 0.5
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    return (att @ v).swapaxes(-2, -3).reshape(*lead, T, d)
''',
    },
    {
        "id": 'l02_attn_2d_only_transpose',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Uses .T / transpose() for K^T and the head swap, which reverses all axes and only works for a single (T, d) sequence, not a batch.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    dk = d // n_head
    qkv = x @ w_qkv + b_qkv
    q = qkv[..., :d].reshape(T, n_head, dk).transpose(1, 0, 2)
    k = qkv[..., d:2*d].reshape(T, n_head, dk).transpose(1, 0, 2)
    v = qkv[..., 2*d:].reshape(T, n_head, dk).transpose(1, 0, 2)
    att = q @ k.transpose(0, 2, 1) / dk ** 0.5
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    y = (att @ v).transpose(1, 0, 2).reshape(T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_attn_bug_return_weights',
        "exercise": 'causal_self_attention',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    att = q @ k.swapaxes(-1, -2) / dk ** 0.5
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    y = (att @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    y = y @ w_o + b_o
    return att
''',
    },
    {
        "id": 'l03_gelu_right_math',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_right_f64',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    x = np.asarray(x)
    z = x.astype(np.float64)
    inner = np.sqrt(2.0 / np.pi) * (z + 0.044715 * z * z * z)
    return (0.5 * z * (1.0 + np.tanh(inner))).astype(x.dtype)
''',
    },
    {
        "id": 'l03_gelu_exact_erf',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": "Implements the exact GELU x * Phi(x) with erf instead of GPT-2's tanh approximation.",
        "source": r'''def gelu_tanh(x):
    erf = np.vectorize(math.erf)
    return (0.5 * x * (1 + erf(x / math.sqrt(2)))).astype(x.dtype)
''',
    },
    {
        "id": 'l03_gelu_np_sqrt_upcast',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses np.sqrt(2 / np.pi), a float64 NumPy scalar, so float32 input comes back as float64.',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_sqrt_pi_over_2',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses sqrt(pi/2) instead of sqrt(2/pi) as the constant.',
        "source": r'''def gelu_tanh(x):
    k = math.sqrt(math.pi / 2)
    return 0.5 * x * (1 + np.tanh(k * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_x_squared',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses x**2 instead of x**3 in the cubic correction term.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x)))
''',
    },
    {
        "id": 'l03_gelu_sigmoid_approx',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses the sigmoid approximation x * sigmoid(1.702 x) instead of the tanh formula.',
        "source": r'''def gelu_tanh(x):
    return x / (1 + np.exp(-1.702 * x))
''',
    },
    {
        "id": 'l03_gelu_no_half',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Forgets the factor 1/2 in front.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_bug_typo',
        "exercise": 'gelu_tanh',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tahn(c * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_mlp_right_basic',
        "exercise": 'mlp',
        "kind": 'right',
        "mistake": '',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_right_einsum',
        "exercise": 'mlp',
        "kind": 'right',
        "mistake": '',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    hidden = np.einsum("...i,io->...o", x, w_fc) + b_fc
    hidden = gelu_tanh(hidden)
    out = np.einsum("...i,io->...o", hidden, w_proj) + b_proj
    return out.astype(x.dtype, copy=False)
''',
    },
    {
        "id": 'l03_mlp_relu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Uses ReLU between the two layers instead of GELU (tanh).',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = np.maximum(x @ w_fc + b_fc, 0)
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_gelu_after_proj',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": "Applies GELU after the output projection as well (activation on the block's output).",
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return gelu_tanh(h @ w_proj + b_proj)
''',
    },
    {
        "id": 'l03_mlp_no_proj_bias',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Leaves out the bias of the second (projection) layer.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return h @ w_proj
''',
    },
    {
        "id": 'l03_mlp_residual_inside',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Adds the residual x inside the MLP (x + MLP(x)); the residual belongs to the block.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return x + h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_gelu_before_fc',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Applies GELU to the input before the first layer instead of to the 4d hidden layer.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x) @ w_fc + b_fc
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_exact_gelu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Writes its own exact (erf) GELU inside the MLP instead of calling gelu_tanh.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = x @ w_fc + b_fc
    erf = np.vectorize(math.erf, otypes=[h.dtype])
    h = 0.5 * h * (1 + erf(h / math.sqrt(2)))
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_torch_layout',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Transposes the weights as if they were nn.Linear (out, in), although they are in Conv1D (in, out) layout.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc.T + b_fc)
    return h @ w_proj.T + b_proj
''',
    },
    {
        "id": 'l03_mlp_bug_return_hidden',
        "exercise": 'mlp',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    out = h @ w_proj + b_proj
    return h
''',
    },
    {
        "id": 'l03_block_right_basic',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    x = x + mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_right_helper',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def block(x, params, layer, n_head):
    def P(name):
        return params["h.%d.%s" % (layer, name)]

    attn_out = causal_self_attention(
        layer_norm(x, P("ln_1.weight"), P("ln_1.bias")),
        P("attn.c_attn.weight"), P("attn.c_attn.bias"),
        P("attn.c_proj.weight"), P("attn.c_proj.bias"),
        n_head,
    )
    h = x + attn_out
    mlp_out = mlp(layer_norm(h, P("ln_2.weight"), P("ln_2.bias")),
                  P("mlp.c_fc.weight"), P("mlp.c_fc.bias"),
                  P("mlp.c_proj.weight"), P("mlp.c_proj.bias"))
    return h + mlp_out
''',
    },
    {
        "id": 'l03_block_post_ln',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": "Builds a post-LN block (LayerNorm after each residual sum, as in the original Transformer) instead of GPT-2's pre-LN.",
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = causal_self_attention(x, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                              params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    x = layer_norm(x + a, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    m = mlp(x, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
            params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return layer_norm(x + m, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
''',
    },
    {
        "id": 'l03_block_no_attn_residual',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Drops the residual connection around attention (h = attn(ln_1(x)) instead of x + attn(ln_1(x))).',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    h = causal_self_attention(layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"]),
                              params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                              params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    return h + mlp(layer_norm(h, params[p + "ln_2.weight"], params[p + "ln_2.bias"]),
                   params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
''',
    },
    {
        "id": 'l03_block_ln1_twice',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": "Uses ln_1's parameters for both LayerNorms (ln_2 never used).",
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    g, b = params[p + "ln_1.weight"], params[p + "ln_1.bias"]
    x = x + causal_self_attention(layer_norm(x, g, b),
                                  params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    x = x + mlp(layer_norm(x, g, b),
                params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_layer0_hardcoded',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": "Reads layer 0's weights ('h.0.' hard-coded) whatever `layer` is.",
        "source": r'''def block(x, params, layer, n_head):
    x = x + causal_self_attention(layer_norm(x, params["h.0.ln_1.weight"], params["h.0.ln_1.bias"]),
                                  params["h.0.attn.c_attn.weight"], params["h.0.attn.c_attn.bias"],
                                  params["h.0.attn.c_proj.weight"], params["h.0.attn.c_proj.bias"], n_head)
    x = x + mlp(layer_norm(x, params["h.0.ln_2.weight"], params["h.0.ln_2.bias"]),
                params["h.0.mlp.c_fc.weight"], params["h.0.mlp.c_fc.bias"],
                params["h.0.mlp.c_proj.weight"], params["h.0.mlp.c_proj.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_inplace',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": "Updates the residual stream with x += ..., modifying the caller's array in place.",
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    x += causal_self_attention(layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"]),
                               params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                               params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    x += mlp(layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"]),
             params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
             params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_residual_from_normed',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Adds the sublayer output to the normalised input ln(x) instead of to the raw residual stream x.',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    h = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    h = h + causal_self_attention(h, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    g = layer_norm(h, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return g + mlp(g, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
''',
    },
    {
        "id": 'l03_block_parallel',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Computes attention and MLP in parallel from the same input x (x + attn(ln_1 x) + mlp(ln_2 x)) instead of feeding the MLP the post-attention stream.',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = causal_self_attention(layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"]),
                              params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                              params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = mlp(layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"]),
            params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
            params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return x + a + m
''',
    },
    {
        "id": 'l03_block_bug_forgot_assign',
        "exercise": 'block',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    h = x + causal_self_attention(layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"]),
                                  params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    out = h + mlp(layer_norm(h, params[p + "ln_2.weight"], params[p + "ln_2.bias"]),
                  params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                  params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return x
''',
    },
    {
        "id": 'l04_init_right_ordered',
        "exercise": 'init_gpt',
        "kind": 'right',
        "mistake": '',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    std = 0.02
    proj_std = 0.02 / math.sqrt(2 * L)
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * std
    P["wpe"] = rng.standard_normal((T, d)) * std
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * std
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * proj_std
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * std
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * proj_std
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_right_normal_table',
        "exercise": 'init_gpt',
        "kind": 'right',
        "mistake": '',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer
    resid = 0.02 * (2 * L) ** -0.5
    out = {
        "wte": rng.normal(0.0, 0.02, size=(config.vocab_size, d)),
        "wpe": rng.normal(0.0, 0.02, size=(config.block_size, d)),
    }
    shapes = [
        ("attn.c_attn", (d, 3 * d), 0.02),
        ("attn.c_proj", (d, d), resid),
        ("mlp.c_fc", (d, 4 * d), 0.02),
        ("mlp.c_proj", (4 * d, d), resid),
    ]
    for i in range(L):
        for ln in ("ln_1", "ln_2"):
            out[f"h.{i}.{ln}.weight"] = np.ones(d, dtype=np.float64)
            out[f"h.{i}.{ln}.bias"] = np.zeros(d, dtype=np.float64)
        for name, shape, std in shapes:
            out[f"h.{i}.{name}.weight"] = rng.normal(0.0, std, size=shape)
            out[f"h.{i}.{name}.bias"] = np.zeros(shape[1])
    out["ln_f.weight"] = np.ones(d)
    out["ln_f.bias"] = np.zeros(d)
    return out
''',
    },
    {
        "id": 'l04_init_no_resid_scale',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Initialises the two c_proj weights with std 0.02, forgetting the 1/sqrt(2L) residual scaling.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.02
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * 0.02
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * 0.02
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_sqrt_L',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Scales the c_proj weights by 1/sqrt(L) instead of 1/sqrt(2L) (forgets that each block has two residual branches).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.02
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / math.sqrt(L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / math.sqrt(L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_std_one',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws every weight matrix with standard deviation 1 (forgets the 0.02).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 1.0
    P["wpe"] = rng.standard_normal((T, d)) * 1.0
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 1.0
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * (1.0 / math.sqrt(2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 1.0
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (1.0 / math.sqrt(2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_ln_zero',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Initialises the LayerNorm gains to zeros instead of ones.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.02
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.zeros(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.zeros(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.zeros(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_wpe_001',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": "Uses std 0.01 for the position table (as in OpenAI's TF code) instead of 0.02 asked for here.",
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.01
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_divide_by_2L',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Divides the c_proj std by 2L instead of by sqrt(2L).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.02
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / (2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / (2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_rng_per_tensor',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Creates a fresh np.random.default_rng(seed) for every tensor, so tensors of the same shape get identical (correlated) values.',
        "source": r'''def init_gpt(config, seed):
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd

    def normal(shape, std):
        rng = np.random.default_rng(seed)
        return rng.standard_normal(shape) * std

    P = {"wte": normal((V, d), 0.02), "wpe": normal((T, d), 0.02)}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = normal((d, 3 * d), 0.02)
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = normal((d, d), 0.02 / math.sqrt(2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = normal((d, 4 * d), 0.02)
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = normal((4 * d, d), 0.02 / math.sqrt(2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_lm_head_key',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": "Adds a separate 'lm_head.weight' tensor although the head is tied to wte.",
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.02
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    P["lm_head.weight"] = P["wte"].copy()
    return P
''',
    },
    {
        "id": 'l04_init_float32',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Returns float32 arrays (casting every tensor to float32) instead of float64.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.02
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return {k: v.astype(np.float32) for k, v in P.items()}
''',
    },
    {
        "id": 'l04_init_uniform',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws the weights uniformly in [-0.02, 0.02] instead of from a normal distribution with std 0.02.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    u = lambda shape, s: rng.uniform(-s, s, size=shape)
    P = {"wte": u((V, d), 0.02), "wpe": u((T, d), 0.02)}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = u((d, 3 * d), 0.02)
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = u((d, d), 0.02 / math.sqrt(2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = u((d, 4 * d), 0.02)
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = u((4 * d, d), 0.02 / math.sqrt(2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_random_biases',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": "Draws the linear layers' biases from the normal distribution (std 0.02) as well, instead of zeros.",
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.02
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = rng.standard_normal(3 * d) * 0.02
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = rng.standard_normal(4 * d) * 0.02
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_bug_key_typo',
        "exercise": 'init_gpt',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.02
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / math.sqrt(2 * L))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_logits_right_count_keys',
        "exercise": 'gpt_logits',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = sum(1 for k in P if k.startswith("h.") and k.endswith(".ln_1.weight"))
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_logits_right_einsum',
        "exercise": 'gpt_logits',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gpt_logits(P, idx, n_head):
    layers = sorted({int(k.split(".")[1]) for k in P if k.startswith("h.")})
    h = embed(P["wte"], P["wpe"], idx)
    for layer in layers:
        h = block(h, P, layer, n_head)
    h = layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])
    return np.einsum("...d,vd->...v", h, P["wte"])
''',
    },
    {
        "id": 'l04_logits_no_lnf',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Skips the final LayerNorm ln_f before the head.',
        "source": r'''def gpt_logits(P, idx, n_head):
    L = len([k for k in P if k.endswith("ln_1.weight")])
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(L):
        x = block(x, P, i, n_head)
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_logits_skip_last_layer',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Takes the largest layer index as the number of layers, so range() skips the last block.',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = max(int(k.split(".")[1]) for k in P if k.startswith("h."))
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_logits_hardcoded_12',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": "Hard-codes GPT-2 small's 12 layers instead of reading the number of layers from P's keys.",
        "source": r'''def gpt_logits(P, idx, n_head):
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(12):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_logits_reversed_layers',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Runs the blocks in reverse order (last layer first).',
        "source": r'''def gpt_logits(P, idx, n_head):
    L = len([k for k in P if k.endswith("ln_1.weight")])
    x = embed(P["wte"], P["wpe"], idx)
    for i in reversed(range(L)):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_logits_softmax',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Applies a softmax at the end and returns probabilities instead of logits.',
        "source": r'''def gpt_logits(P, idx, n_head):
    L = len([k for k in P if k.endswith("ln_1.weight")])
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(L):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    z = x @ P["wte"].T
    z = np.exp(z - z.max(-1, keepdims=True))
    return z / z.sum(-1, keepdims=True)
''',
    },
    {
        "id": 'l04_logits_no_positions',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": "Looks up only the token table (P['wte'][idx]) and never adds the position embeddings.",
        "source": r'''def gpt_logits(P, idx, n_head):
    L = len([k for k in P if k.endswith("ln_1.weight")])
    x = P["wte"][idx]
    for i in range(L):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_logits_scaled_head',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Divides the logits by sqrt(d) as if the tied head needed attention-style scaling.',
        "source": r'''def gpt_logits(P, idx, n_head):
    L = len([k for k in P if k.endswith("ln_1.weight")])
    d = P["wte"].shape[1]
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(L):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return (x @ P["wte"].T) / d ** 0.5
''',
    },
    {
        "id": 'l04_logits_bug_keyerror',
        "exercise": 'gpt_logits',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def gpt_logits(P, idx, n_head):
    L = len([k for k in P if k.endswith("ln_1.weight")])
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(L):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wt"].T
''',
    },
    {
        "id": 'l04_tied_right_flat',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
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
    np.add.at(dE, ids, dX)
    return float(loss), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_right_f64_onehot',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    E64 = E.astype(np.float64)
    A64 = A.astype(np.float64)
    V, d = E64.shape
    idx = np.asarray(idx).ravel()
    targets = np.asarray(targets).ravel()
    X = E64[idx]
    H = np.tanh(np.einsum("ni,ij->nj", X, A64))
    Z = np.einsum("nj,vj->nv", H, E64)
    m = Z.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(Z - m).sum(axis=-1, keepdims=True))
    Y = np.eye(V)[targets]
    N = targets.size
    loss = float(np.sum(Y * (lse - Z)) / N)
    probs = np.exp(Z - lse)
    G = (probs - Y) / N
    dE = np.einsum("nv,nj->vj", G, H)
    dU = np.einsum("nv,vj->nj", G, E64) * (1.0 - H * H)
    dX = np.einsum("nj,ij->ni", dU, A64)
    np.add.at(dE, idx, dX)
    return loss, dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_head_path_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": "Returns only the head path's gradient dZ^T H and forgets the lookup path through X = E[idx].",
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
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
    pass
    return float(loss), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_lookup_path_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Keeps only the lookup path (scatters dX into dE) and forgets that E is also the output head.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
    U = X @ A
    H = np.tanh(U)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tg].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tg] -= 1
    dZ /= N
    dE = np.zeros_like(E)
    dH = dZ @ E
    dU = dH * (1 - H ** 2)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)
    return float(loss), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_fancy_assign',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Scatters the lookup gradient with dE[idx] += dX, which keeps only one contribution for a repeated id instead of accumulating (np.add.at).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
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
    dE[ids] += dX
    return float(loss), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_sum_not_mean',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Takes the gradient of the summed loss (does not divide dZ by the number of positions) while reporting the mean loss.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
    U = X @ A
    H = np.tanh(U)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tg].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tg] -= 1
    dZ /= 1
    dE = dZ.T @ H
    dH = dZ @ E
    dU = dH * (1 - H ** 2)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)
    return float(loss), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_mean_over_batch',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Averages over the batch only: divides by idx.shape[0] (B for a batch) instead of by all B*T positions, for both loss and gradient.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    idx = np.asarray(idx)
    n = idx.shape[0]
    ids = idx.reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    M = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(M), tg].sum() / n
    dZ = np.exp(logp)
    dZ[np.arange(M), tg] -= 1
    dZ /= n
    dE = dZ.T @ H
    dU = (dZ @ E) * (1 - H ** 2)
    np.add.at(dE, ids, dU @ A.T)
    return float(loss), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_dtanh_preact',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Uses 1 - U**2 (the pre-activation) instead of 1 - tanh(U)**2 for the tanh derivative.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
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
    dU = dH * (1 - U ** 2)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)
    return float(loss), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_no_dtanh',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Back-propagates through tanh as if it were the identity (no 1 - H**2 factor).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
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
    dU = dH * 1
    dX = dU @ A.T
    np.add.at(dE, ids, dX)
    return float(loss), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_A_not_transposed',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Back-propagates through X @ A with dU @ A instead of dU @ A.T (A is square, so the shapes still fit).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
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
    dX = dU @ A
    np.add.at(dE, ids, dX)
    return float(loss), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_sign_flip',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Uses onehot - softmax instead of softmax - onehot for dL/dZ, giving the negative gradient.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
    U = X @ A
    H = np.tanh(U)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tg].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tg] -= 1
    dZ /= N
    dE = -(dZ.T @ H)
    dH = dZ @ E
    dU = dH * (1 - H ** 2)
    dX = dU @ A.T
    np.add.at(dE, ids, -dX)
    return float(loss), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_float64_grad',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": "Computes in float64 and returns dE as float64 for a float32 E (no cast back to E's dtype).",
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    E = E.astype(np.float64)
    A = A.astype(np.float64)
    X = E[ids]
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
    np.add.at(dE, ids, dX)
    return float(loss), dE
''',
    },
    {
        "id": 'l04_tied_loss_numpy',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Returns the loss as a NumPy scalar (or 0-d array) instead of a Python float.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
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
    np.add.at(dE, ids, dX)
    return loss, dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_bug_swapped_return',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
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
    np.add.at(dE, ids, dX)
    return dE.astype(E.dtype), float(loss)
''',
    },
    {
        "id": 'l05_count_right_formula',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T * d
    ln = d + b * d
    attn = d * 3 * d + b * 3 * d + d * d + b * d
    mlp = d * 4 * d + b * 4 * d + 4 * d * d + b * d
    per_block = 2 * ln + attn + mlp
    total = emb + L * per_block + ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_right_tables',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    linears = [(d, 3 * d), (d, d), (d, 4 * d), (4 * d, d)]
    total = V * d + T * d
    for _ in range(L):
        for n_in, n_out in linears:
            total += n_in * n_out
            if bias:
                total += n_out
        for _ln in range(2):
            total += d
            if bias:
                total += d
    total += d + (d if bias else 0)
    if not tied:
        total += V * d
    return int(total)
''',
    },
    {
        "id": 'l05_count_head_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Gives the untied head a bias of length V as well.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T * d
    ln = d + b * d
    attn = 3 * d * d + b * 3 * d + d * d + b * d
    mlp = 4 * d * d + b * 4 * d + 4 * d * d + b * d
    per_block = 2 * ln + attn + mlp
    total = emb + L * per_block + ln
    if not tied:
        total += V * d + V
    return total
''',
    },
    {
        "id": 'l05_count_nobias_drops_gain',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False also removes the LayerNorm gains, i.e. counts LayerNorms as nothing.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T * d
    ln = b * 2 * d
    attn = 3 * d * d + b * 3 * d + d * d + b * d
    mlp = 4 * d * d + b * 4 * d + 4 * d * d + b * d
    per_block = 2 * ln + attn + mlp
    total = emb + L * per_block + ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_nobias_keeps_ln_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": "With bias=False removes only the linear layers' biases and keeps the LayerNorm biases.",
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T * d
    ln = 2 * d
    attn = 3 * d * d + b * 3 * d + d * d + b * d
    mlp = 4 * d * d + b * 4 * d + 4 * d * d + b * d
    per_block = 2 * ln + attn + mlp
    total = emb + L * per_block + ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_no_lnf',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Forgets the final LayerNorm ln_f.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T * d
    ln = d + b * d
    attn = 3 * d * d + b * 3 * d + d * d + b * d
    mlp = 4 * d * d + b * 4 * d + 4 * d * d + b * d
    per_block = 2 * ln + attn + mlp
    total = emb + L * per_block + 0
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_no_wpe',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Leaves out the position table wpe (T*d).',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d
    ln = d + b * d
    attn = 3 * d * d + b * 3 * d + d * d + b * d
    mlp = 4 * d * d + b * 4 * d + 4 * d * d + b * d
    per_block = 2 * ln + attn + mlp
    total = emb + L * per_block + ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_fc_bias_d',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": "Counts the c_fc bias as d long instead of 4d (the bias is as long as the layer's output).",
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T * d
    ln = d + b * d
    attn = 3 * d * d + b * 3 * d + d * d + b * d
    mlp = 4 * d * d + b * d + 4 * d * d + b * d
    per_block = 2 * ln + attn + mlp
    total = emb + L * per_block + ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_head_always',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Counts the (V, d) head even when it is tied to wte.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T * d
    ln = d + b * d
    attn = 3 * d * d + b * 3 * d + d * d + b * d
    mlp = 4 * d * d + b * 4 * d + 4 * d * d + b * d
    per_block = 2 * ln + attn + mlp
    total = emb + L * per_block + ln
    total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_attn_dd',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Counts c_attn as a single d x d projection instead of d -> 3d for Q, K and V.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T * d
    ln = d + b * d
    attn = d * d + b * d + d * d + b * d
    mlp = 4 * d * d + b * 4 * d + 4 * d * d + b * d
    per_block = 2 * ln + attn + mlp
    total = emb + L * per_block + ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_one_ln_per_block',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Counts one LayerNorm per block instead of two (ln_1 and ln_2).',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T * d
    ln = d + b * d
    attn = 3 * d * d + b * 3 * d + d * d + b * d
    mlp = 4 * d * d + b * 4 * d + 4 * d * d + b * d
    per_block = ln + attn + mlp
    total = emb + L * per_block + ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_bug_noreturn',
        "exercise": 'count_gpt2_params',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T * d
    ln = d + b * d
    attn = 3 * d * d + b * 3 * d + d * d + b * d
    mlp = 4 * d * d + b * 4 * d + 4 * d * d + b * d
    per_block = 2 * ln + attn + mlp
    total = emb + L * per_block + ln
    if not tied:
        total += V * d
    print(f"{total:,} parameters")
''',
    },
    {
        "id": 'l06_n2t_right_loop',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")

    def module_name(k):
        if k == "wte":
            return "transformer.wte.weight"
        if k == "wpe":
            return "transformer.wpe.weight"
        return "transformer." + k

    source = {module_name(k): k for k in P}
    missing = sorted(set(model) - set(source))
    unexpected = sorted(set(source) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys: {missing}; unexpected keys: {[source[n] for n in unexpected]}")
    out = {}
    for name, ref in model.items():
        k = source[name]
        arr = np.asarray(P[k])
        if k.endswith(conv1d):
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{k} -> {name}: shape {arr.shape} after transpose, model has {ref.shape}")
        out[name] = np.array(arr, dtype=ref.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_n2t_right_reverse_map',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def numpy_to_torch(P, model):
    def course_key(name):
        short = name[len("transformer."):] if name.startswith("transformer.") else name
        return {"wte.weight": "wte", "wpe.weight": "wpe"}.get(short, short)

    wanted = {course_key(n): n for n in model}
    lacking = [k for k in wanted if k not in P]
    extra = [k for k in P if k not in wanted]
    if lacking:
        raise ValueError("P lacks keys the model needs: " + ", ".join(lacking))
    if extra:
        raise ValueError("P has keys the model does not: " + ", ".join(extra))
    result = {}
    for k, name in wanted.items():
        v = P[k]
        parts = k.split(".")
        if v.ndim == 2 and len(parts) > 2 and parts[-2] in ("c_attn", "c_proj", "c_fc"):
            v = np.ascontiguousarray(v.T)
        if tuple(v.shape) != tuple(model[name].shape):
            raise ValueError("%s: got shape %s, model wants %s" % (k, v.shape, model[name].shape))
        result[name] = v.astype(model[name].dtype, copy=True)
    return result
''',
    },
    {
        "id": 'l06_n2t_right_template',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    names = {}
    for k in P:
        if k in ("wte", "wpe"):
            names[k] = f"transformer.{k}.weight"
        else:
            names[k] = "transformer." + k
    missing = [n for n in model if n not in names.values()]
    unexpected = [k for k, n in names.items() if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    for k, name in names.items():
        arr = P[k]
        if k.endswith(conv1d):
            arr = arr.T
        if arr.shape != model[name].shape:
            raise ValueError(f"{k}: shape {arr.shape} does not match the model's {model[name].shape}")
        out[name] = arr.astype(model[name].dtype)
    
    return out
''',
    },
    {
        "id": 'l06_n2t_no_transpose',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Copies every Conv1D weight as it is, forgetting the (in, out) to (out, in) transposes (and has no shape check to notice).',
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    names = {}
    for k in P:
        if k in ("wte", "wpe"):
            names[k] = f"transformer.{k}.weight"
        else:
            names[k] = "transformer." + k
    missing = [n for n in model if n not in names.values()]
    unexpected = [k for k, n in names.items() if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    for k, name in names.items():
        arr = P[k]
        pass
        pass
        out[name] = arr.astype(model[name].dtype)
    
    return out
''',
    },
    {
        "id": 'l06_n2t_square_trap',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Transposes a weight only when its shape does not already match, so the square (d, d) attn.c_proj weight is loaded untransposed.',
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    names = {}
    for k in P:
        if k in ("wte", "wpe"):
            names[k] = f"transformer.{k}.weight"
        else:
            names[k] = "transformer." + k
    missing = [n for n in model if n not in names.values()]
    unexpected = [k for k, n in names.items() if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    for k, name in names.items():
        arr = P[k]
        if arr.shape != model[name].shape:
            arr = arr.T
        if arr.shape != model[name].shape:
            raise ValueError(f"{k}: shape {arr.shape} does not match the model's {model[name].shape}")
        out[name] = arr.astype(model[name].dtype)
    
    return out
''',
    },
    {
        "id": 'l06_n2t_transpose_all_2d',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Transposes every 2-D array, including the wte and wpe tables.',
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    names = {}
    for k in P:
        if k in ("wte", "wpe"):
            names[k] = f"transformer.{k}.weight"
        else:
            names[k] = "transformer." + k
    missing = [n for n in model if n not in names.values()]
    unexpected = [k for k, n in names.items() if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    for k, name in names.items():
        arr = P[k]
        if arr.ndim == 2:
            arr = arr.T
        pass
        out[name] = arr.astype(model[name].dtype)
    
    return out
''',
    },
    {
        "id": 'l06_n2t_reshape_not_transpose',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Reshapes the Conv1D weights to (out, in) instead of transposing them, scrambling the numbers.',
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    names = {}
    for k in P:
        if k in ("wte", "wpe"):
            names[k] = f"transformer.{k}.weight"
        else:
            names[k] = "transformer." + k
    missing = [n for n in model if n not in names.values()]
    unexpected = [k for k, n in names.items() if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    for k, name in names.items():
        arr = P[k]
        if k.endswith(conv1d):
            arr = arr.reshape(arr.shape[::-1])
        if arr.shape != model[name].shape:
            raise ValueError(f"{k}: shape {arr.shape} does not match the model's {model[name].shape}")
        out[name] = arr.astype(model[name].dtype)
    
    return out
''',
    },
    {
        "id": 'l06_n2t_adds_lm_head',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": "Adds an 'lm_head.weight' entry (a copy of wte) although the tied head must not be given.",
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    names = {}
    for k in P:
        if k in ("wte", "wpe"):
            names[k] = f"transformer.{k}.weight"
        else:
            names[k] = "transformer." + k
    missing = [n for n in model if n not in names.values()]
    unexpected = [k for k, n in names.items() if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    for k, name in names.items():
        arr = P[k]
        if k.endswith(conv1d):
            arr = arr.T
        if arr.shape != model[name].shape:
            raise ValueError(f"{k}: shape {arr.shape} does not match the model's {model[name].shape}")
        out[name] = arr.astype(model[name].dtype)
    out["lm_head.weight"] = out["transformer.wte.weight"].copy()
    return out
''',
    },
    {
        "id": 'l06_n2t_no_validation',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Does not validate keys: a missing tensor gives a KeyError and an extra one is silently dropped, instead of a ValueError naming the keys.',
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    for name, ref in model.items():
        k = name[len("transformer."):]
        if k in ("wte.weight", "wpe.weight"):
            k = k.split(".")[0]
        arr = P[k]
        if k.endswith(conv1d):
            arr = arr.T
        out[name] = arr.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_n2t_inplace',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": "Transposes by reassigning into P (P[k] = P[k].T), changing the caller's dict.",
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    names = {}
    for k in P:
        if k in ("wte", "wpe"):
            names[k] = f"transformer.{k}.weight"
        else:
            names[k] = "transformer." + k
    missing = [n for n in model if n not in names.values()]
    unexpected = [k for k, n in names.items() if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    for k, name in names.items():
        arr = P[k]
        if k.endswith(conv1d):
            P[k] = P[k].T
            arr = P[k]
        if arr.shape != model[name].shape:
            raise ValueError(f"{k}: shape {arr.shape} does not match the model's {model[name].shape}")
        out[name] = arr.astype(model[name].dtype)
    
    return out
''',
    },
    {
        "id": 'l06_n2t_mlp_not_listed',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": "Lists only the attention weights as Conv1D (c_attn, c_proj) and forgets to transpose the MLP's c_fc weight.",
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("c_attn.weight", "c_proj.weight")
    out = {}
    names = {}
    for k in P:
        if k in ("wte", "wpe"):
            names[k] = f"transformer.{k}.weight"
        else:
            names[k] = "transformer." + k
    missing = [n for n in model if n not in names.values()]
    unexpected = [k for k, n in names.items() if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    for k, name in names.items():
        arr = P[k]
        if k.endswith(conv1d):
            arr = arr.T
        pass
        out[name] = arr.astype(model[name].dtype)
    
    return out
''',
    },
    {
        "id": 'l06_n2t_vague_errors',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Raises ValueError for key and shape problems but the messages name neither the keys nor the shapes.',
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    names = {}
    for k in P:
        if k in ("wte", "wpe"):
            names[k] = f"transformer.{k}.weight"
        else:
            names[k] = "transformer." + k
    if set(names.values()) != set(model):
        raise ValueError("parameter names do not match the model")
    for k, name in names.items():
        arr = P[k]
        if k.endswith(conv1d):
            arr = arr.T
        if arr.shape != model[name].shape:
            raise ValueError("shape mismatch")
        out[name] = arr.astype(model[name].dtype)
    
    return out
''',
    },
    {
        "id": 'l06_n2t_bug_return_model',
        "exercise": 'numpy_to_torch',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def numpy_to_torch(P, model):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    names = {}
    for k in P:
        if k in ("wte", "wpe"):
            names[k] = f"transformer.{k}.weight"
        else:
            names[k] = "transformer." + k
    missing = [n for n in model if n not in names.values()]
    unexpected = [k for k, n in names.items() if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    for k, name in names.items():
        arr = P[k]
        if k.endswith(conv1d):
            arr = arr.T
        if arr.shape != model[name].shape:
            raise ValueError(f"{k}: shape {arr.shape} does not match the model's {model[name].shape}")
        out[name] = arr.astype(model[name].dtype)
    
    return dict(model)
''',
    },
    {
        "id": 'l06_hf_right_filter',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {}
    for k, v in state_dict.items():
        if k.endswith(".attn.bias") or k.endswith(".attn.masked_bias"):
            continue
        if k == "lm_head.weight":
            continue
        sd[k] = v
    missing = sorted(set(model) - set(sd))
    unexpected = sorted(set(sd) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys: {missing}, unexpected keys: {unexpected}")
    out = {}
    for name, ref in model.items():
        w = np.asarray(sd[name])
        if name.endswith(conv1d):
            w = w.T
        if w.shape != ref.shape:
            raise ValueError(f"{name}: shape {w.shape} after transpose, expected {ref.shape}")
        out[name] = np.array(w, dtype=ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_right_torch',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''def load_hf_state_dict(model, state_dict):
    import torch
    transposed = ["attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight"]
    keys = [k for k in state_dict
            if not k.endswith((".attn.bias", ".attn.masked_bias")) and k != "lm_head.weight"]
    missing = [k for k in model if k not in keys]
    if missing:
        raise ValueError("state dict is missing: %s" % missing)
    unexpected = [k for k in keys if k not in model]
    if unexpected:
        raise ValueError("state dict has unexpected keys: %s" % unexpected)
    out = {}
    for k in model:
        t = torch.from_numpy(np.array(state_dict[k]))
        if any(k.endswith(s) for s in transposed):
            t = t.t()
        if tuple(t.shape) != model[k].shape:
            raise ValueError("%s: shape %s vs model %s" % (k, tuple(t.shape), model[k].shape))
        out[k] = t.contiguous().numpy().astype(model[k].dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_substring_skip',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": "Skips buffers with `'attn.bias' in k`, which also drops the real parameter attn.c_attn.bias.",
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {}
    for k, v in state_dict.items():
        if "attn.bias" in k or "masked_bias" in k or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for k in model:
        w = sd[k]
        if k.endswith(conv1d):
            w = w.T
        if w.shape != model[k].shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {model[k].shape}")
        out[k] = w.astype(model[k].dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_keeps_lm_head',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Keeps lm_head.weight in the output instead of dropping the tied head.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    params = {k: v for k, v in state_dict.items()
              if not k.endswith((".attn.bias", ".attn.masked_bias"))}
    missing = [k for k in model if k not in params]
    unexpected = [k for k in params if k not in model and k != "lm_head.weight"]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for k, w in params.items():
        ref = model.get(k, model["transformer.wte.weight"])
        if k.endswith(conv1d):
            w = w.T
        if w.shape != ref.shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {ref.shape}")
        out[k] = w.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_lm_head_unexpected',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Does not set lm_head.weight aside, so a normal checkpoint with a head is rejected as having an unexpected key.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {}
    for k, v in state_dict.items():
        if k.endswith((".attn.bias", ".attn.masked_bias")):
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for k in model:
        w = sd[k]
        if k.endswith(conv1d):
            w = w.T
        if w.shape != model[k].shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {model[k].shape}")
        out[k] = w.astype(model[k].dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_no_buffer_skip',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Does not skip the .attn.bias / .attn.masked_bias buffers, so older checkpoints are rejected as having unexpected keys.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {}
    for k, v in state_dict.items():
        if k == "lm_head.weight":
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for k in model:
        w = sd[k]
        if k.endswith(conv1d):
            w = w.T
        if w.shape != model[k].shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {model[k].shape}")
        out[k] = w.astype(model[k].dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_only_attn_bias_buffer',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips the .attn.bias buffers but forgets .attn.masked_bias.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {}
    for k, v in state_dict.items():
        if k.endswith(".attn.bias") or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for k in model:
        w = sd[k]
        if k.endswith(conv1d):
            w = w.T
        if w.shape != model[k].shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {model[k].shape}")
        out[k] = w.astype(model[k].dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_square_trap',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Transposes only when the shape does not fit, so the square attn.c_proj weight stays untransposed.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {}
    for k, v in state_dict.items():
        if k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for k in model:
        w = sd[k]
        if w.shape != model[k].shape:
            w = w.T
        if w.shape != model[k].shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {model[k].shape}")
        out[k] = w.astype(model[k].dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_no_cast',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": "Copies the state dict's arrays in their own dtype instead of the model's dtype.",
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {}
    for k, v in state_dict.items():
        if k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for k in model:
        w = sd[k]
        if k.endswith(conv1d):
            w = w.T
        if w.shape != model[k].shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {model[k].shape}")
        out[k] = np.array(w)
    return out
''',
    },
    {
        "id": 'l06_hf_pop_input',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": "Pops the head and buffers out of the caller's state_dict, changing the input.",
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    state_dict.pop("lm_head.weight", None)
    for k in list(state_dict):
        if k.endswith(".attn.bias") or k.endswith(".attn.masked_bias"):
            del state_dict[k]
    missing = [k for k in model if k not in state_dict]
    unexpected = [k for k in state_dict if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for k in model:
        w = state_dict[k]
        if k.endswith(conv1d):
            w = w.T
        if w.shape != model[k].shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {model[k].shape}")
        out[k] = w.astype(model[k].dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_fill_missing',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": "Silently keeps the model's own array for a tensor the state dict lacks, instead of raising ValueError.",
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {}
    for k, v in state_dict.items():
        if k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if unexpected:
        raise ValueError(f"unexpected keys {unexpected}")
    for k in missing:
        sd[k] = model[k]
    out = {}
    for k in model:
        w = sd[k]
        if k.endswith(conv1d) and k not in missing:
            w = w.T
        if w.shape != model[k].shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {model[k].shape}")
        out[k] = w.astype(model[k].dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_transpose_all_2d',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Transposes every 2-D tensor, the embedding tables included.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {}
    for k, v in state_dict.items():
        if k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for k in model:
        w = sd[k]
        if w.ndim == 2:
            w = w.T
        if w.shape != model[k].shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {model[k].shape}")
        out[k] = w.astype(model[k].dtype)
    return out
''',
    },
    {
        "id": 'l06_hf_bug_nameerror',
        "exercise": 'load_hf_state_dict',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {}
    for k, v in state_dict.items():
        if k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for k in model:
        w = sd[k]
        if k.endswith(conv1d):
            w = w.T
        if w.shape != model[k].shape:
            raise ValueError(f"{k}: shape {w.shape}, model expects {model[k].shape}")
        out[k] = w.astype(model[key].dtype)
    return out
''',
    },
    {
        "id": 'l07_sin_right_vector',
        "exercise": 'sinusoidal_positions',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d={d}")
    t = np.arange(T, dtype=np.float64)[:, None]
    i = np.arange(d // 2, dtype=np.float64)[None, :]
    omega = base ** (-2.0 * i / d)
    pe = np.empty((T, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sin_right_loops_stack',
        "exercise": 'sinusoidal_positions',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError("d = %d is odd; the sine/cosine pairs need an even d" % d)
    angles = np.outer(np.arange(T), np.exp(-np.log(base) * np.arange(0, d, 2) / d))
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(T, d).astype(np.float64)
''',
    },
    {
        "id": 'l07_sin_concat_layout',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Puts all the sines in the first half and all the cosines in the second (concatenated) instead of interleaving them.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = base ** (-2 * i / d)
    pe = np.zeros((T, d))
    pe[:, : d // 2] = np.sin(t * omega)
    pe[:, d // 2 :] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sin_cos_first',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Puts the cosine at the even columns and the sine at the odd ones.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = base ** (-2 * i / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.cos(t * omega)
    pe[:, 1::2] = np.sin(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sin_exponent_i_over_d',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Uses the exponent -i/d instead of -2i/d for pair i, so frequencies fall off half as fast.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = 1.0 / base ** (i / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sin_column_index_freq',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Computes a frequency per column index j (base**(-j/d)), so each cosine column gets a different frequency from its sine partner.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    pos = np.arange(T)[:, None]
    div = base ** (np.arange(d) / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(pos / div[0::2])
    pe[:, 1::2] = np.cos(pos / div[1::2])
    return pe
''',
    },
    {
        "id": 'l07_sin_hardcoded_base',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Ignores the base argument and always uses 10000.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = 10000.0 ** (-2 * i / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sin_positions_from_one',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Numbers positions from 1 to T instead of 0 to T-1.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(1, T + 1)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = base ** (-2 * i / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sin_no_odd_check',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Does not check that d is even; for odd d it fails with a NumPy broadcasting error instead of a ValueError naming d.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    pass
    t = np.arange(T)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = base ** (-2 * i / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sin_float32',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": "Builds the table in float32 (like a model's weights) instead of float64.",
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = base ** (-2 * i / d)
    pe = np.zeros((T, d), dtype=np.float32)
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sin_degrees',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Treats the angle as degrees and converts with np.deg2rad before sin/cos.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = base ** (-2 * i / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(np.deg2rad(t * omega))
    pe[:, 1::2] = np.cos(np.deg2rad(t * omega))
    return pe
''',
    },
    {
        "id": 'l07_sin_bug_zeros_typo',
        "exercise": 'sinusoidal_positions',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = base ** (-2 * i / d)
    pe = np.zeros(T, d)
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sim_right_normalise',
        "exercise": 'position_similarity',
        "kind": 'right',
        "mistake": '',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D (T, d) table, got shape {wpe.shape}")
    unit = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
    return unit @ unit.T
''',
    },
    {
        "id": 'l07_sim_right_f64_outer',
        "exercise": 'position_similarity',
        "kind": 'right',
        "mistake": '',
        "source": r'''def position_similarity(wpe):
    if np.ndim(wpe) != 2:
        raise ValueError("wpe must be 2-D, got shape %s" % (wpe.shape,))
    w = wpe.astype(np.float64)
    gram = w @ w.T
    norms = np.sqrt(np.diag(gram))
    return (gram / np.outer(norms, norms)).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_sim_columns',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Compares the columns (features) instead of the rows (positions), returning a (d, d) matrix.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    unit = wpe / np.linalg.norm(wpe, axis=0, keepdims=True)
    return unit.T @ unit
''',
    },
    {
        "id": 'l07_sim_no_normalise',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Returns the raw dot products wpe @ wpe.T without dividing by the lengths.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    return wpe @ wpe.T
''',
    },
    {
        "id": 'l07_sim_inplace',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": "Normalises the rows in place (wpe /= norms), changing the caller's table.",
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    wpe /= np.linalg.norm(wpe, axis=1, keepdims=True)
    return wpe @ wpe.T
''',
    },
    {
        "id": 'l07_sim_norm_squared',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": "Divides the Gram matrix by a column of squared norms (norm * norm of the same row) instead of the outer product of the two rows' norms.",
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    n = np.linalg.norm(wpe, axis=1, keepdims=True)
    return (wpe @ wpe.T) / (n * n)
''',
    },
    {
        "id": 'l07_sim_upcast',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Computes in float64 and returns float64 for a float32 table.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    w = wpe.astype(np.float64)
    w = w / np.sqrt((w ** 2).sum(axis=1, keepdims=True))
    return w @ w.T
''',
    },
    {
        "id": 'l07_sim_corrcoef',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Uses np.corrcoef, which centres each row first (Pearson correlation), instead of the plain cosine similarity.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    return np.corrcoef(wpe).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_sim_no_shape_in_message',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Rejects a non-2-D table but the error message does not contain its shape.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError("position table must be 2-D")
    unit = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
    return unit @ unit.T
''',
    },
    {
        "id": 'l07_sim_centered',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Subtracts the mean row before taking cosines (cosine of centred rows).',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    c = wpe - wpe.mean(axis=0)
    c = c / np.linalg.norm(c, axis=1, keepdims=True)
    return c @ c.T
''',
    },
    {
        "id": 'l07_sim_bug_ones',
        "exercise": 'position_similarity',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    T = wpe.shape[0]
    sim = np.ones((T, T), dtype=wpe.dtype)
    unit = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
    simm = unit @ unit.T
    return sim
''',
    },
    {
        "id": 'l07_pca_right_svd',
        "exercise": 'principal_components',
        "kind": 'right',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    biggest = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[biggest, np.arange(k)])
    V = V * signs
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_right_eigh',
        "exercise": 'principal_components',
        "kind": 'right',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    if len(wpe.shape) != 2:
        raise ValueError("expected a (T, d) table, got wpe.shape = %s" % (wpe.shape,))
    T, d = wpe.shape
    m = min(T, d)
    if k > m:
        raise ValueError("k = %d but the table has only min(T, d) = %d directions" % (k, m))
    Xc = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0, keepdims=True)
    C = Xc.T @ Xc / T
    vals, vecs = np.linalg.eigh(C)
    order = np.argsort(vals)[::-1][:k]
    dirs = vecs[:, order]
    for j in range(k):
        if dirs[np.argmax(np.abs(dirs[:, j])), j] < 0:
            dirs[:, j] = -dirs[:, j]
    return (Xc @ dirs).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_no_centre',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Skips the centring: takes the SVD of the raw table and projects the uncentred rows.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    biggest = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[biggest, np.arange(k)])
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_centre_axis1',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Centres each row on its own mean (axis=1) instead of subtracting the mean row over positions.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=1, keepdims=True)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    biggest = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[biggest, np.arange(k)])
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_vt_columns',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Takes the first k columns of Vt instead of its first k rows as the principal directions.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:, :k]
    biggest = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[biggest, np.arange(k)])
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_first_entry_sign',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": "Fixes each direction's sign by its first entry instead of by its largest-magnitude entry.",
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    V = V * np.where(V[0] < 0, -1.0, 1.0)
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_no_sign_fix',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Does not fix the sign of the directions, returning whatever sign the SVD gives.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    pass
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_k_equal_rejected',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Rejects k == min(T, d) (uses >= in the check) although that many directions exist.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k >= min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    biggest = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[biggest, np.arange(k)])
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_unit_scores',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Returns the left singular vectors U[:, :k] (unit-length scores) instead of the projections Xc @ v (= U * S).',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    pass
    return (U[:, :k] * np.sign(V[np.argmax(np.abs(V), axis=0), np.arange(k)])).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_eigh_ascending',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Takes the first k eigenvectors of np.linalg.eigh, which sorts eigenvalues ascending, so it returns the smallest-variance directions.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    Xc = wpe - wpe.mean(axis=0)
    cov = np.cov(Xc, rowvar=False)
    vals, vecs = np.linalg.eigh(cov)
    V = vecs[:, :k]
    biggest = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[biggest, np.arange(k)])
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_float64_out',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Computes in float64 and returns float64 for a float32 table.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    biggest = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[biggest, np.arange(k)])
    return Xc @ V
''',
    },
    {
        "id": 'l07_pca_inplace_centre',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": "Centres the table in place (wpe -= mean), changing the caller's array.",
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    wpe -= wpe.mean(axis=0)
    _, _, Vt = np.linalg.svd(wpe, full_matrices=False)
    V = Vt[:k].T
    V = V * np.sign(V[np.argmax(np.abs(V), axis=0), np.arange(k)])
    return wpe @ V
''',
    },
    {
        "id": 'l07_pca_no_k_check',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Does not check k against min(T, d), so a too-large k returns fewer columns instead of raising ValueError.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    pass
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    biggest = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[biggest, np.arange(k)])
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_pca_bug_return_dirs',
        "exercise": 'principal_components',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k].T
    biggest = np.argmax(np.abs(V), axis=0)
    V = V * np.sign(V[biggest, np.arange(k)])
    return V.astype(wpe.dtype)
''',
    },
    {
        "id": 'l08_ce_right_lse',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}[:-1]")
    V = logits.shape[-1]
    bad = (targets < 0) | (targets >= V)
    if np.any(bad):
        raise ValueError(f"target id {targets[bad].flat[0]} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(logits, targets[..., None], axis=-1)
    return (lse - picked).mean()
''',
    },
    {
        "id": 'l08_ce_right_flat_f64',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    if np.shape(targets) != logits.shape[:-1]:
        raise ValueError("targets have shape %s but logits have shape %s" % (np.shape(targets), logits.shape))
    V = logits.shape[-1]
    t = np.asarray(targets).reshape(-1)
    for tid in t:
        if tid < 0 or tid >= V:
            raise ValueError("target id %d out of range [0, %d)" % (tid, V))
    z = logits.reshape(-1, V).astype(np.float64)
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    nll = -logp[np.arange(t.size), t]
    return nll.mean().astype(logits.dtype)
''',
    },
    {
        "id": 'l08_ce_right_template',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.mean()
''',
    },
    {
        "id": 'l08_ce_naive_softmax',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Computes softmax with exp of the raw logits (no max subtraction), which overflows for logits near 1000.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    p = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    nll = -np.log(np.take_along_axis(p, targets[..., None], axis=-1)[..., 0])
    return nll.mean()
''',
    },
    {
        "id": 'l08_ce_log_of_softmax',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Uses a stable softmax but then takes log of the probability, which underflows to log(0) = -inf for a very unlikely target (no log-sum-exp).',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    nll = -np.log(np.take_along_axis(p, targets[..., None], axis=-1)[..., 0])
    return nll.mean()
''',
    },
    {
        "id": 'l08_ce_mean_over_batch',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Sums the loss over the positions of each sequence and averages over the batch only (divides by B instead of B*T).',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.sum() / (nll.shape[0] if nll.ndim else 1)
''',
    },
    {
        "id": 'l08_ce_sum',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Returns the summed negative log-likelihood instead of the mean over positions.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.sum()
''',
    },
    {
        "id": 'l08_ce_negative_ids_ok',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Checks only targets >= V and lets negative ids through (NumPy then reads -1 as the last id).',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets >= V):
        raise ValueError(f"target id {targets.max()} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.mean()
''',
    },
    {
        "id": 'l08_ce_no_shape_check',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": "Does not check that targets.shape equals logits.shape[:-1], so mismatched shapes broadcast or fail with NumPy's own error.",
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.mean()
''',
    },
    {
        "id": 'l08_ce_python_float',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": "Returns float(...) (a Python float) instead of a NumPy scalar of the logits' dtype.",
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return float(nll.mean())
''',
    },
    {
        "id": 'l08_ce_upcast',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Computes in float64 for stability and returns the float64 loss for float32 logits.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    logits = logits.astype(np.float64)
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.mean()
''',
    },
    {
        "id": 'l08_ce_fancy_index_matrix',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Picks the targets with logp[..., targets], which selects every target column for every row (an N x N block) instead of one per row.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -logp[..., targets]
    return nll.mean()
''',
    },
    {
        "id": 'l08_ce_lse_axis0',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Normalises over axis 0 (the batch/positions) instead of the vocabulary axis in the log-sum-exp.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    m = logits.max(axis=0, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=0, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.mean()
''',
    },
    {
        "id": 'l08_ce_bug_nameerror',
        "exercise": 'cross_entropy',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logit.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.mean()
''',
    },
    {
        "id": 'l08_batch_right_offsets',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    n = len(data)
    if n < block_size + 1:
        raise ValueError(f"len(data) = {n} is too short for block_size = {block_size} (need block_size + 1 ids)")
    starts = rng.integers(0, n - block_size, size=batch_size)
    offsets = np.arange(block_size)
    data = np.asarray(data)
    x = data[starts[:, None] + offsets].astype(np.int64)
    y = data[starts[:, None] + offsets + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_batch_right_loop',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError("need at least %d ids for block_size %d, got len(data) = %d"
                         % (block_size + 1, block_size, len(data)))
    ix = rng.integers(0, len(data) - block_size, size=batch_size)
    xs, ys = [], []
    for s in ix:
        chunk = np.asarray(data[s : s + block_size + 1], dtype=np.int64)
        xs.append(chunk[:-1])
        ys.append(chunk[1:])
    return np.stack(xs), np.stack(ys)
''',
    },
    {
        "id": 'l08_batch_high_minus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with upper end len(data) - block_size - 1 (treating the exclusive end as inclusive), so the draws differ.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    starts = rng.integers(0, len(data) - block_size - 1, size=batch_size)
    x = np.stack([data[s : s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1 : s + block_size + 1] for s in starts]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_batch_high_plus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": "Draws the starts up to len(data) - block_size + 1, so the last window's target runs past the end of data.",
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    starts = rng.integers(0, len(data) - block_size + 1, size=batch_size)
    x = np.stack([data[s : s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1 : s + block_size + 1] for s in starts]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_batch_global_rng',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with np.random.randint (the global generator) instead of the rng passed in.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    starts = np.random.randint(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s : s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1 : s + block_size + 1] for s in starts]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_batch_keeps_uint8',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": "Returns the windows in data's dtype (uint8) instead of int64.",
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s : s + block_size] for s in starts])
    y = np.stack([data[s + 1 : s + block_size + 1] for s in starts])
    return x, y
''',
    },
    {
        "id": 'l08_batch_check_off_by_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": "Checks len(data) < block_size instead of < block_size + 1, so data of exactly block_size ids slips through to rng.integers's own error.",
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s : s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1 : s + block_size + 1] for s in starts]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_batch_y_plus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": "Reads 'moved on by one id' as adding 1 to the ids (y = x + 1) instead of shifting the window by one position.",
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s : s + block_size] for s in starts]).astype(np.int64)
    y = x + 1
    return x, y
''',
    },
    {
        "id": 'l08_batch_choice',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with rng.choice(..., replace=False) instead of the prescribed rng.integers call.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    starts = rng.choice(len(data) - block_size, size=batch_size, replace=False)
    x = np.stack([data[s : s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1 : s + block_size + 1] for s in starts]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_batch_separate_draws',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": "Draws separate random starts for x and for y, so y is not x's window moved on by one.",
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    ix = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[i : i + block_size] for i in ix]).astype(np.int64)
    iy = rng.integers(0, len(data) - block_size, size=batch_size)
    y = np.stack([data[i + 1 : i + block_size + 1] for i in iy]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_batch_stack_axis1',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Stacks the windows along axis 1, returning (block_size, batch_size) arrays.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    ix = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[i : i + block_size] for i in ix], axis=1).astype(np.int64)
    y = np.stack([data[i + 1 : i + block_size + 1] for i in ix], axis=1).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_batch_vague_error',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Raises ValueError for too-short data without naming len(data) and block_size.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) <= block_size:
        raise ValueError("not enough data for one window")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s : s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1 : s + block_size + 1] for s in starts]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_batch_bug_only_x',
        "exercise": 'get_batch',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s : s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1 : s + block_size + 1] for s in starts]).astype(np.int64)
    return x
''',
    },
    {
        "id": 'l08_sample_right_cdf',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_right_gumbel',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if not temperature > 0:
        raise ValueError("temperature must be positive, got %r" % (temperature,))
    z = logits / temperature
    if top_k is not None and top_k < z.shape[-1]:
        order = np.argsort(z, axis=-1)[:, ::-1]
        drop = order[:, top_k:]
        z = z.copy()
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    g = rng.gumbel(size=z.shape)
    return np.argmax(z + g, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_right_choice_rows',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature={temperature} must be positive")
    B, V = logits.shape
    out = np.empty(B, dtype=np.int64)
    for b in range(B):
        z = logits[b].astype(np.float64) / temperature
        cand = np.arange(V)
        if top_k is not None and top_k < V:
            cand = np.argsort(-z, kind="stable")[:top_k]
        zc = z[cand] - z[cand].max()
        p = np.exp(zc)
        p /= p.sum()
        out[b] = cand[rng.choice(len(cand), p=p)]
    return out
''',
    },
    {
        "id": 'l08_sample_times_temperature',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Multiplies the logits by the temperature instead of dividing by it.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) * temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = -np.sort(-z, axis=-1)[:, top_k - 1 : top_k]
        order = np.argsort(-z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_topk_ties',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Keeps every logit >= the k-th largest value, so ties at the k-th place keep more than top_k candidates.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = np.sort(z, axis=-1)[:, -top_k][:, None]
        z = np.where(z >= kth, z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_topk_smallest',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Keeps the top_k smallest logits (first entries of an ascending argsort) instead of the largest.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        order = np.argsort(z, axis=-1)
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_topk_plus_one',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Uses the (k+1)-th largest logit as the threshold, keeping top_k + 1 candidates.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        thresh = np.sort(z, axis=-1)[:, -top_k - 1][:, None]
        z = np.where(z >= thresh, z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_unstable_softmax',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Takes exp of the logits without subtracting the row maximum, so logits near 800 overflow to inf/NaN.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = -np.sort(-z, axis=-1)[:, top_k - 1 : top_k]
        order = np.argsort(-z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_global_random',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Draws the uniform numbers with np.random.random (the global generator) instead of rng.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = -np.sort(-z, axis=-1)[:, top_k - 1 : top_k]
        order = np.argsort(-z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = np.random.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_own_generator',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Creates its own generator np.random.default_rng() inside the function instead of using the rng passed in.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = -np.sort(-z, axis=-1)[:, top_k - 1 : top_k]
        order = np.argsort(-z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = np.random.default_rng().random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_greedy',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Returns the argmax (greedy decoding) instead of drawing from the distribution.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits / temperature
    return np.argmax(z, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_no_temp_check',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Only guards against temperature == 0, so a negative temperature is accepted (and flips the distribution).',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature == 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = -np.sort(-z, axis=-1)[:, top_k - 1 : top_k]
        order = np.argsort(-z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_unnormalised_cdf',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Builds the inverse-CDF from exp(z - max) without dividing by the sum, so the cumulative sums are not probabilities.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = -np.sort(-z, axis=-1)[:, top_k - 1 : top_k]
        order = np.argsort(-z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_mask_zero',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Sets the logits outside the top k to 0 instead of -inf, so they stay possible.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        order = np.argsort(-z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], 0.0, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_softmax_axis0',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": "Normalises the probabilities over axis 0 (across the batch) instead of over each row's vocabulary.",
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = -np.sort(-z, axis=-1)[:, top_k - 1 : top_k]
        order = np.argsort(-z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    z = z - z.max(axis=0, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=0, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_int32_column',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Returns the ids as an int32 (B, 1) column instead of an int64 array of shape (B,).',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = -np.sort(-z, axis=-1)[:, top_k - 1 : top_k]
        order = np.argsort(-z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int32)[:, None]
''',
    },
    {
        "id": 'l08_sample_bug_return_probs',
        "exercise": 'sample_next',
        "kind": 'bug',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = -np.sort(-z, axis=-1)[:, top_k - 1 : top_k]
        order = np.argsort(-z, axis=-1, kind="stable")
        z = z.copy()
        np.put_along_axis(z, order[:, top_k:], -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return p
''',
    },
]

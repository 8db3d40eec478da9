"""Blind learner answers, round 3: written from the lessons and exercise notebooks alone."""

ANSWERS = [
    # ------------------------------------------------------------------ lesson 01: embed
    {
        "id": 'l01_embed_right_take',
        "exercise": 'embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T > block_size:
        raise ValueError(f"sequence length {T} exceeds the block size {block_size}")
    return np.take(wte, idx, axis=0) + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_right_arange',
        "exercise": 'embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    n_pos = idx.shape[-1]
    if n_pos > len(wpe):
        raise ValueError(
            "cannot read %d tokens: the position table (context / block size) only has %d rows"
            % (n_pos, len(wpe))
        )
    positions = np.arange(n_pos)
    tok = wte[idx]                 # (..., T, d)
    pos = wpe[positions]           # (T, d), broadcast over any batch axis
    out = tok + pos
    return out.astype(wte.dtype, copy=False)
''',
    },
    {
        "id": 'l01_embed_mistake_wpe_by_token',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Looks up the position table with the token ids (wpe[idx]) instead of with the positions 0..T-1.',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[idx]
''',
    },
    {
        "id": 'l01_embed_mistake_T_from_axis0',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Takes the sequence length from idx.shape[0], which is the batch size for a (B, T) input, so batched inputs get the wrong position rows (or a broadcasting error) and the length check tests B.',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[0]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_check_off_by_one',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'The length check uses >= so a sequence of exactly block_size tokens is wrongly rejected.',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T >= wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_no_check',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'No length check: a too-long sequence only fails with NumPy\'s broadcasting error, which does not mention the block size.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_float64_buffer',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Fills a float64 np.zeros buffer, so float32 tables give a float64 result (upcast).',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
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
        "id": 'l01_embed_mistake_positions_from_one',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Uses position rows 1..T (wpe[1:T+1]) instead of 0..T-1, an off-by-one in the positions.',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    pos = np.arange(1, T + 1) % wpe.shape[0]
    return wte[idx] + wpe[pos]
''',
    },
    {
        "id": 'l01_embed_bug_wte_for_wpe',
        "exercise": 'embed',
        "kind": 'bug',
        "mistake": 'Adds the first T rows of the token table (wte[:T]) instead of the position table, a wte/wpe name slip.',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wte[:T]
''',
    },
    # ------------------------------------------------------------------ lesson 01: one_hot_embed
    {
        "id": 'l01_one_hot_embed_right_compare',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    idx = np.asarray(idx)
    V = wte.shape[0]
    one_hot = (idx[..., None] == np.arange(V)).astype(wte.dtype)   # idx.shape + (V,)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_right_put_along',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    idx = np.asarray(idx)
    one_hot = np.zeros(idx.shape + (wte.shape[0],), dtype=wte.dtype)
    np.put_along_axis(one_hot, idx[..., None], 1, axis=-1)
    return np.matmul(one_hot, wte)
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_eye_float64',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds the one-hot matrix with np.eye(V) in float64, so a float32 table gives a float64 result.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.eye(V)[idx]
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_int_onehot',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds an integer (int64) one-hot matrix, and int64 @ float32 promotes the result to float64.',
        "source": r'''def one_hot_embed(wte, idx):
    idx = np.asarray(idx)
    one_hot = np.zeros(idx.shape + (wte.shape[0],), dtype=np.int64)
    np.put_along_axis(one_hot, idx[..., None], 1, axis=-1)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_flat_no_reshape',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Flattens the ids to build a 2-D one-hot matrix and never reshapes back, so a (B, T) input returns (B*T, d).',
        "source": r'''def one_hot_embed(wte, idx):
    flat = np.asarray(idx).reshape(-1)
    one_hot = np.zeros((flat.size, wte.shape[0]), dtype=wte.dtype)
    one_hot[np.arange(flat.size), flat] = 1
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_arange_T_index',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Sets the ones with one_hot[np.arange(T), idx], which only works for a 1-D idx: for (B, T) it indexes the batch axis with positions and sets whole rows.',
        "source": r'''def one_hot_embed(wte, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    one_hot = np.zeros(idx.shape + (wte.shape[0],), dtype=wte.dtype)
    one_hot[np.arange(T), idx] = 1
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_V_from_ids',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Takes the one-hot width from idx.max() + 1 instead of the table\'s V, so the product fails when the largest id is not V - 1.',
        "source": r'''def one_hot_embed(wte, idx):
    idx = np.asarray(idx)
    V = int(idx.max()) + 1
    one_hot = (idx[..., None] == np.arange(V)).astype(wte.dtype)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_columns_onehot',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds the one-hot matrix with ids as columns (V, T) via np.eye(V)[:, idx] and multiplies by the table, a missing transpose that fails on shapes.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.eye(V, dtype=wte.dtype)[:, idx]
    return one_hot @ wte
''',
    },
    # ------------------------------------------------------------------ lesson 02: layer_norm
    {
        "id": 'l02_layer_norm_right_keepdims',
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
        "id": 'l02_layer_norm_right_float64_inside',
        "exercise": 'layer_norm',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    x64 = x.astype(np.float64)
    mu = np.mean(x64, axis=-1, keepdims=True)
    var = np.var(x64, axis=-1, keepdims=True)      # population variance (ddof=0)
    y = (x64 - mu) / np.sqrt(var + eps)
    y = y * weight.astype(np.float64) + bias.astype(np.float64)
    return y.astype(x.dtype)
''',
    },
    {
        "id": 'l02_layer_norm_mistake_unbiased_var',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Uses the unbiased sample variance (ddof=1) instead of the population variance.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True, ddof=1)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_eps_outside_root',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Adds eps to the standard deviation outside the square root instead of to the variance inside it.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_no_keepdims',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Takes mean and variance without keepdims, so (..., T) statistics broadcast against the wrong axis of (..., T, d) and raise a shape error (or are silently wrong when T == d).',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1)
    var = x.var(axis=-1)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_hardcoded_eps',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Ignores the eps argument and always uses 1e-5.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_mean_of_squares',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Uses the mean of squares of x (not of x - mean) as the variance, so the scale is wrong whenever the mean is non-zero.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = (x * x).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_float64_mean',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Accumulates mean and variance with dtype=np.float64 and never casts back, so float32 input gives float64 output.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True, dtype=np.float64)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    # ------------------------------------------------------------------ lesson 02: causal_self_attention
    {
        "id": 'l02_causal_self_attention_right_swapaxes',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]

    def heads(a):
        return a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)   # (..., n_head, T, d_k)

    q, k, v = heads(q), heads(k), heads(v)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    out = w @ v                                              # (..., n_head, T, d_k)
    out = out.swapaxes(-3, -2).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_right_einsum',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    hd = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(q.shape[:-1] + (n_head, hd))           # (..., T, H, hd)
    k = k.reshape(k.shape[:-1] + (n_head, hd))
    v = v.reshape(v.shape[:-1] + (n_head, hd))
    att = np.einsum("...thd,...shd->...hts", q, k) * (1.0 / hd ** 0.5)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    att[..., future] = -np.inf
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att /= att.sum(axis=-1, keepdims=True)
    y = np.einsum("...hts,...shd->...thd", att, v)
    y = y.reshape(y.shape[:-2] + (d,))
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_scale_sqrt_d',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Scales the scores by sqrt(d), the full width, instead of sqrt(d_k), the head size.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    hs = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, hs).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, hs).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, hs).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_np_sqrt_upcast',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Divides by np.sqrt(d_k), a float64 NumPy scalar, which turns float32 inputs into a float64 result.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / np.sqrt(d_k)
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_mask_after_softmax',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Applies the causal mask after the softmax by zeroing future weights, so the remaining weights no longer sum to one.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    p = p * np.tril(np.ones((T, T), dtype=x.dtype))
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_strict_mask',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Masks the diagonal too (query t sees only keys j < t), so position 0 has no key at all and gives NaN.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool), k=-1), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_merge_no_swap',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Splits heads correctly but merges them back with a plain reshape from (..., n_head, T, d_k) to (..., T, d), without swapping the axes back first.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_dot_T',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Transposes the keys with .T, which reverses every axis of the (..., n_head, T, d_k) array instead of swapping the last two, so the product fails on shapes.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.T / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_bug_q_times_q',
        "exercise": 'causal_self_attention',
        "kind": 'bug',
        "mistake": 'Computes the scores as Q Q^T instead of Q K^T (q typed for k).',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ q.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    # ------------------------------------------------------------------ lesson 03: gelu_tanh
    {
        "id": 'l03_gelu_tanh_right_math_const',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))
''',
    },
    {
        "id": 'l03_gelu_tanh_right_float64_inside',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    x = np.asarray(x)
    z = x.astype(np.float64)
    inner = np.sqrt(2.0 / np.pi) * (z + 0.044715 * np.power(z, 3))
    y = 0.5 * z * (1.0 + np.tanh(inner))
    return y.astype(x.dtype)
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_exact_erf',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Computes the exact GELU x * Phi(x) with erf instead of the tanh approximation.',
        "source": r'''def gelu_tanh(x):
    x = np.asarray(x)
    erf = np.vectorize(math.erf)
    return (0.5 * x * (1 + erf(x / math.sqrt(2)))).astype(x.dtype)
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_np_sqrt_upcast',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses np.sqrt(2 / np.pi), a float64 NumPy scalar, so float32 input gives float64 output.',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_no_half',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Forgets the factor 1/2 in front, returning twice the activation.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_x_squared',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses 0.044715 * x**2 instead of 0.044715 * x**3 inside the tanh.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_sqrt_2pi',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses sqrt(2 * pi) instead of sqrt(2 / pi) as the constant.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 * math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_sigmoid_1702',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses the sigmoid approximation x * sigmoid(1.702 x) ("quick GELU") instead of the tanh formula.',
        "source": r'''def gelu_tanh(x):
    return x / (1 + np.exp(-1.702 * x))
''',
    },
    {
        "id": 'l03_gelu_tanh_bug_constant_typo',
        "exercise": 'gelu_tanh',
        "kind": 'bug',
        "mistake": 'Types the cubic coefficient as 0.44715 instead of 0.044715.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.44715 * x * x * x)))
''',
    },
    # ------------------------------------------------------------------ lesson 03: mlp
    {
        "id": 'l03_mlp_right_plain',
        "exercise": 'mlp',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = x @ w_fc + b_fc          # (..., 4d)
    h = gelu_tanh(h)
    return h @ w_proj + b_proj   # (..., d)
''',
    },
    {
        "id": 'l03_mlp_right_einsum_inline',
        "exercise": 'mlp',
        "kind": 'right',
        "mistake": '',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    hidden = np.einsum("...i,ij->...j", x, w_fc) + b_fc
    k = math.sqrt(2.0 / math.pi)
    act = 0.5 * hidden * (1.0 + np.tanh(k * (hidden + 0.044715 * hidden ** 3)))
    return np.einsum("...j,jk->...k", act, w_proj) + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_linear_layout',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Treats the weights as nn.Linear (out, in) and multiplies by their transposes, which fails on the Conv1D (in, out) shapes.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc.T + b_fc)
    return h @ w_proj.T + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_gelu_after_proj',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Applies GELU to the output of the second (projection) layer as well as the first.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return gelu_tanh(h @ w_proj + b_proj)
''',
    },
    {
        "id": 'l03_mlp_mistake_bias_after_gelu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Adds the first bias after the GELU instead of before it.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc) + b_fc
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_residual_inside',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Adds the input back (a residual connection) inside the MLP, which belongs to the block, not the MLP.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return x + h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_float64_const',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Writes the GELU inline with np.sqrt(2 / np.pi), a float64 NumPy scalar, so float32 inputs give a float64 result.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = x @ w_fc + b_fc
    h = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_no_proj_bias',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Leaves out the projection bias b_proj.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj
''',
    },
    # ------------------------------------------------------------------ lesson 03: block
    {
        "id": 'l03_block_right_getter',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    def p(name):
        return params[f"h.{layer}.{name}"]

    a = causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                              p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                              p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    h = x + a
    m = mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
            p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
            p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
    return h + m
''',
    },
    {
        "id": 'l03_block_right_prefix_rebind',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    pre = "h.%d." % layer
    W = {key[len(pre):]: val for key, val in params.items() if key.startswith(pre)}
    x = x + causal_self_attention(
        layer_norm(x, W["ln_1.weight"], W["ln_1.bias"]),
        W["attn.c_attn.weight"], W["attn.c_attn.bias"],
        W["attn.c_proj.weight"], W["attn.c_proj.bias"],
        n_head,
    )
    x = x + mlp(
        layer_norm(x, W["ln_2.weight"], W["ln_2.bias"]),
        W["mlp.c_fc.weight"], W["mlp.c_fc.bias"],
        W["mlp.c_proj.weight"], W["mlp.c_proj.bias"],
    )
    return x
''',
    },
    {
        "id": 'l03_block_mistake_inplace_residual',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Adds both branches to x in place (x += ...), which changes the caller\'s array.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    x += causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                               p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                               p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    x += mlp(layer_norm(x, p("ln_2.weight"), p("ln_2.bias")),
             p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
    return x
''',
    },
    {
        "id": 'l03_block_mistake_post_ln',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Builds a post-LN block, LayerNorm applied after each residual sum, instead of GPT-2\'s pre-LN block.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = layer_norm(x + causal_self_attention(x, p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                             p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head),
                   p("ln_1.weight"), p("ln_1.bias"))
    return layer_norm(h + mlp(h, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                              p("mlp.c_proj.weight"), p("mlp.c_proj.bias")),
                      p("ln_2.weight"), p("ln_2.bias"))
''',
    },
    {
        "id": 'l03_block_mistake_no_mlp_residual',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Forgets the second residual connection: returns the MLP output alone instead of h + mlp(ln_2(h)).',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
               p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
''',
    },
    {
        "id": 'l03_block_mistake_parallel_branches',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Feeds the MLP ln_2 of the block input x rather than of x plus the attention output (parallel instead of sequential branches).',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    a = causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                              p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                              p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    m = mlp(layer_norm(x, p("ln_2.weight"), p("ln_2.bias")),
            p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
    return x + a + m
''',
    },
    {
        "id": 'l03_block_mistake_layer0_params',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Always reads layer 0\'s weights (keys "h.0....") whatever layer is asked for.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params["h.0." + n]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
''',
    },
    {
        "id": 'l03_block_mistake_attn_on_raw_x',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Feeds attention the raw residual stream x instead of ln_1(x) (the first LayerNorm is skipped).',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(x, p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
''',
    },
    {
        "id": 'l03_block_bug_attn_bias_in_mlp',
        "exercise": 'block',
        "kind": 'bug',
        "mistake": 'Passes attn.c_proj.bias instead of mlp.c_proj.bias as the MLP\'s output bias (copy-paste slip in a key name).',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("attn.c_proj.bias"))
''',
    },
    # ------------------------------------------------------------------ lesson 04: init_gpt
    {
        "id": 'l04_init_gpt_right_table_order',
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
        "id": 'l04_init_gpt_right_shape_table',
        "exercise": 'init_gpt',
        "kind": 'right',
        "mistake": '',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer
    out = {}

    def normal(name, shape, std):
        out[name] = (rng.standard_normal(shape) * std).astype(np.float64)

    normal("wte", (config.vocab_size, d), 0.02)
    normal("wpe", (config.block_size, d), 0.02)
    scaled = 0.02 * (2 * L) ** -0.5
    for i in range(L):
        for ln in ("ln_1", "ln_2"):
            out[f"h.{i}.{ln}.weight"] = np.ones(d, dtype=np.float64)
            out[f"h.{i}.{ln}.bias"] = np.zeros(d, dtype=np.float64)
        for name, shape, std in [("attn.c_attn", (d, 3 * d), 0.02),
                                 ("attn.c_proj", (d, d), scaled),
                                 ("mlp.c_fc", (d, 4 * d), 0.02),
                                 ("mlp.c_proj", (4 * d, d), scaled)]:
            normal(f"h.{i}.{name}.weight", shape, std)
            out[f"h.{i}.{name}.bias"] = np.zeros(shape[1], dtype=np.float64)
    out["ln_f.weight"] = np.ones(d, dtype=np.float64)
    out["ln_f.bias"] = np.zeros(d, dtype=np.float64)
    return out
''',
    },
    {
        "id": 'l04_init_gpt_mistake_sqrt_L',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Scales the two c_proj weights by 0.02 / sqrt(L) instead of 0.02 / sqrt(2L).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    proj_std = 0.02 / math.sqrt(L)
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * proj_std
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * proj_std
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_no_proj_scaling',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws every weight matrix, the two c_proj matrices included, with std 0.02 (no 1/sqrt(2L) scaling).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * 0.02
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * 0.02
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_wpe_001',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws the position table with std 0.01 (OpenAI\'s original code) instead of the 0.02 the table asks for.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    proj_std = 0.02 / math.sqrt(2 * L)
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.01}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * proj_std
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * proj_std
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_float32',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Stores every tensor as float32 instead of float64.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    f = np.float32
    proj_std = 0.02 / math.sqrt(2 * L)
    P = {"wte": (rng.standard_normal((V, d)) * 0.02).astype(f),
         "wpe": (rng.standard_normal((T, d)) * 0.02).astype(f)}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d, f), np.zeros(d, f)
        P[h + "attn.c_attn.weight"] = (rng.standard_normal((d, 3 * d)) * 0.02).astype(f)
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d, f)
        P[h + "attn.c_proj.weight"] = (rng.standard_normal((d, d)) * proj_std).astype(f)
        P[h + "attn.c_proj.bias"] = np.zeros(d, f)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d, f), np.zeros(d, f)
        P[h + "mlp.c_fc.weight"] = (rng.standard_normal((d, 4 * d)) * 0.02).astype(f)
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d, f)
        P[h + "mlp.c_proj.weight"] = (rng.standard_normal((4 * d, d)) * proj_std).astype(f)
        P[h + "mlp.c_proj.bias"] = np.zeros(d, f)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d, f), np.zeros(d, f)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_uniform',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws the weights from a uniform distribution on [-0.02, 0.02] instead of a normal one with std 0.02.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    s, sp = 0.02, 0.02 / math.sqrt(2 * L)
    P = {"wte": rng.uniform(-s, s, (V, d)), "wpe": rng.uniform(-s, s, (T, d))}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.uniform(-s, s, (d, 3 * d))
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.uniform(-sp, sp, (d, d))
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.uniform(-s, s, (d, 4 * d))
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.uniform(-sp, sp, (4 * d, d))
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_reseed_each',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Makes a fresh np.random.default_rng(seed) for every tensor, so all tensors start from the same random numbers and are correlated with each other.',
        "source": r'''def init_gpt(config, seed):
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd

    def normal(shape, std):
        return np.random.default_rng(seed).standard_normal(shape) * std

    proj_std = 0.02 / math.sqrt(2 * L)
    P = {"wte": normal((V, d), 0.02), "wpe": normal((T, d), 0.02)}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[h + "attn.c_attn.weight"] = normal((d, 3 * d), 0.02)
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = normal((d, d), proj_std)
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"] = normal((d, 4 * d), 0.02)
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = normal((4 * d, d), proj_std)
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_bug_n_head_for_n_layer',
        "exercise": 'init_gpt',
        "kind": 'bug',
        "mistake": 'Uses config.n_head where config.n_layer is meant in the c_proj scale, 0.02 / sqrt(2 * n_head).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    proj_std = 0.02 / math.sqrt(2 * config.n_head)
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"], P[h + "ln_1.bias"] = np.ones(d), np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * proj_std
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"], P[h + "ln_2.bias"] = np.ones(d), np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * proj_std
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
''',
    },
    # ------------------------------------------------------------------ lesson 04: gpt_logits
    {
        "id": 'l04_gpt_logits_right_set_of_layers',
        "exercise": 'gpt_logits',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj

def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))


def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_right_while_einsum',
        "exercise": 'gpt_logits',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj

def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))


def gpt_logits(P, idx, n_head):
    wte = P["wte"]
    h = embed(wte, P["wpe"], np.asarray(idx))
    layer = 0
    while f"h.{layer}.ln_1.weight" in P:
        h = block(h, P, layer, n_head)
        layer += 1
    h = layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])
    return np.einsum("...d,vd->...v", h, wte)
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_no_ln_f',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Skips the final LayerNorm ln_f before the tied head.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj

def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))


def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_head_no_transpose',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Multiplies by wte instead of wte.T for the head, which fails on shapes (d vs V).',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj

def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))


def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"]
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_count_ln_keys',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Counts layers as the keys containing "ln_1", which finds both weight and bias, so it runs twice as many layers and fails with a KeyError.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj

def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))


def gpt_logits(P, idx, n_head):
    n_layer = sum(1 for k in P if "ln_1" in k)
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_skip_last_block',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Takes the largest layer index as the number of layers, so the loop range(n_layer) skips the last block.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj

def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))


def gpt_logits(P, idx, n_head):
    n_layer = max(int(k.split(".")[1]) for k in P if k.startswith("h."))
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_string_sorted_layers',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Orders the layers by sorting their indices as strings, so from 11 layers on the order is 0, 1, 10, 2, ... instead of numeric.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj

def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))


def gpt_logits(P, idx, n_head):
    layers = sorted({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in layers:
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_float64_stream',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Casts the embeddings to float64 "for accuracy" and never casts back, so float32 parameters give float64 logits.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj

def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))


def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx).astype(np.float64)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_bug_ln_f_weight_as_bias',
        "exercise": 'gpt_logits',
        "kind": 'bug',
        "mistake": 'Passes ln_f.weight as the final LayerNorm\'s bias too (key name slip), instead of ln_f.bias.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    y = (p @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x * x * x)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj

def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))


def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.weight"])
    return x @ P["wte"].T
''',
    },
    # ------------------------------------------------------------------ lesson 04: tied_lm_loss_and_grad
    {
        "id": 'l04_tied_lm_loss_and_grad_right_add_at',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    rows = np.arange(N)
    X = E[ids]                       # (N, d)
    H = np.tanh(X @ A)               # (N, d)
    Z = H @ E.T                      # (N, V)
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -logp[rows, tgt].mean()
    dZ = np.exp(logp)
    dZ[rows, tgt] -= 1
    dZ /= N
    dE = dZ.T @ H                    # output path: every row
    dH = dZ @ E
    dU = dH * (1 - H * H)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)           # input path: accumulate repeated ids
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_right_float64_loop',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    E64, A64 = E.astype(np.float64), A.astype(np.float64)
    ids = np.ravel(idx)
    tgt = np.ravel(targets)
    N = len(ids)
    V = E.shape[0]
    X = E64[ids]
    H = np.tanh(X @ A64)
    Z = H @ E64.T
    m = Z.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(Z - m).sum(axis=1))
    nll = lse - Z[np.arange(N), tgt]
    loss = nll.mean()
    P = np.exp(Z - lse[:, None])
    onehot = np.zeros((N, V))
    onehot[np.arange(N), tgt] = 1.0
    G = (P - onehot) / N             # dloss/dZ
    dE = G.T @ H
    dX = ((G @ E64) * (1.0 - H ** 2)) @ A64.T
    for n in range(N):
        dE[ids[n]] += dX[n]
    return loss.astype(E.dtype), dE.astype(E.dtype)
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_output_path_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Returns only the head (output) path of the gradient and leaves out the lookup (input) path.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    return loss, dZ.T @ H
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_fancy_plus_equals',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Scatters the input path with dE[ids] += dX, which keeps only one contribution for a repeated id instead of accumulating them (np.add.at).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    dE[ids] += dX
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_tanh_grad_preact',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Uses 1 - U^2 with the pre-activation U = X A instead of 1 - tanh(U)^2 for the tanh derivative.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    U = E[ids] @ A
    H = np.tanh(U)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - U ** 2)) @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_head_grad_uses_X',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Computes the head path as dZ^T X (the bigram lesson\'s formula) instead of dZ^T H, ignoring the hidden layer.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ X
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_grad_not_divided',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Returns the mean loss but the gradient of the summed loss: dZ is not divided by the number of positions N.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_1d_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Indexes the log-probabilities with np.arange(len(idx)) and the unflattened targets, which only works for 1-D idx; a (B, T) batch fails on shapes or picks wrong entries.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    N = len(idx)
    X = E[idx]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -logp[np.arange(N), targets].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), targets] -= 1
    dZ /= N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    np.add.at(dE, idx, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_bug_idx_for_targets',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'bug',
        "mistake": 'Uses the input ids instead of the targets when picking the target log-probabilities and the -1 of the gradient (ids typed for tgt).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -logp[np.arange(N), ids].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), ids] -= 1
    dZ /= N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    # ------------------------------------------------------------------ lesson 05: count_gpt2_params
    {
        "id": 'l05_count_gpt2_params_right_pieces',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    def linear(n_in, n_out):
        return n_in * n_out + (n_out if bias else 0)

    def layer_norm():
        return d + (d if bias else 0)      # gain always, bias only with bias=True

    per_block = (2 * layer_norm()
                 + linear(d, 3 * d) + linear(d, d)
                 + linear(d, 4 * d) + linear(4 * d, d))
    total = V * d + T * d + L * per_block + layer_norm()
    if not tied:
        total += V * d                     # separate head, no bias
    return int(total)
''',
    },
    {
        "id": 'l05_count_gpt2_params_right_closed_form',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    V, T, d, L = int(V), int(T), int(d), int(L)
    embeddings = (V + T) * d
    weights = 12 * d * d                   # 3d^2 + d^2 + 4d^2 + 4d^2
    extras = 13 * d if bias else 2 * d     # biases 9d + LayerNorms 4d, or only the two gains
    final_ln = 2 * d if bias else d
    head = 0 if tied else V * d
    return embeddings + L * (weights + extras) + final_ln + head
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_head_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Gives the untied head a bias of length V, although the untied head has no bias.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    per_block = 2 * (d + b * d) + (3 * d * d + b * 3 * d) + (d * d + b * d) + (4 * d * d + b * 4 * d) + (4 * d * d + b * d)
    total = V * d + T * d + L * per_block + (d + b * d)
    if not tied:
        total += V * d + b * V
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_drop_ln_gains',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False removes the LayerNorms entirely, gains included, although each LayerNorm keeps its gain.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    ln = 2 * d if bias else 0
    b = 1 if bias else 0
    per_block = 2 * ln + 12 * d * d + b * (3 * d + d + 4 * d + d)
    total = (V + T) * d + L * per_block + ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_keep_ln_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False removes only the linear layers\' biases and keeps the LayerNorm biases.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    ln = 2 * d
    lin_bias = (3 * d + d + 4 * d + d) if bias else 0
    per_block = 2 * ln + 12 * d * d + lin_bias
    total = (V + T) * d + L * per_block + ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_no_ln_f',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Leaves out the final LayerNorm ln_f.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    ln = 2 * d if bias else d
    lin_bias = (3 * d + d + 4 * d + d) if bias else 0
    per_block = 2 * ln + 12 * d * d + lin_bias
    total = (V + T) * d + L * per_block
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_head_always',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Always counts a V x d head, even when it is tied to wte and adds nothing.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    ln = 2 * d if bias else d
    lin_bias = (3 * d + d + 4 * d + d) if bias else 0
    per_block = 2 * ln + 12 * d * d + lin_bias
    return (V + T) * d + L * per_block + ln + V * d
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_cfc_bias_d',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Counts mlp.c_fc\'s bias as d long instead of 4d (a bias is as long as the layer\'s output).',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    attn = 3 * d * d + b * 3 * d + d * d + b * d
    mlp = 4 * d * d + b * d + 4 * d * d + b * d
    lns = 2 * (d + b * d)
    total = (V + T) * d + L * (attn + mlp + lns) + (d + b * d)
    if not tied:
        total += V * d
    return total
''',
    },
    # ------------------------------------------------------------------ lesson 06: numpy_to_torch
    {
        "id": 'l06_numpy_to_torch_right_forward_map',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''_LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def _module_name(key):
    if key in ("wte", "wpe"):
        return f"transformer.{key}.weight"
    return "transformer." + key


def numpy_to_torch(P, model):
    names = {_module_name(k): k for k in P}
    missing = sorted(set(model) - set(names))
    unexpected = sorted(k for m, k in names.items() if m not in model)
    if missing or unexpected:
        raise ValueError(f"P does not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, ref in model.items():
        key = names[name]
        a = np.asarray(P[key])
        if name.endswith(_LINEAR):
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{key} (module {name}): shape {a.shape} after the transpose, "
                             f"the model has {ref.shape}")
        out[name] = np.array(a, dtype=ref.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_right_reverse_map',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def numpy_to_torch(P, model):
    def course_key(name):
        k = name[len("transformer."):] if name.startswith("transformer.") else name
        if k in ("wte.weight", "wpe.weight"):
            k = k[: -len(".weight")]
        return k

    wanted = {name: course_key(name) for name in model}
    lacking = [f"{k} (for {n})" for n, k in wanted.items() if k not in P]
    extra = [k for k in P if k not in set(wanted.values())]
    if lacking:
        raise ValueError("missing keys: " + ", ".join(lacking))
    if extra:
        raise ValueError("unexpected keys: " + ", ".join(extra))
    result = {}
    for name, k in wanted.items():
        value = P[k]
        is_linear = name.endswith(".weight") and any(
            part in name for part in (".attn.c_attn.", ".attn.c_proj.", ".mlp.c_fc.", ".mlp.c_proj."))
        if is_linear:
            value = np.ascontiguousarray(value.T)
        if value.shape != model[name].shape:
            raise ValueError(f"shape mismatch for {k} / {name}: got {value.shape}, expected {model[name].shape}")
        result[name] = value.astype(model[name].dtype, copy=True)
    return result
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_if_mismatch',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Transposes a weight only when its shape does not match the model\'s, so the square attn.c_proj weight is copied untransposed.',
        "source": r'''def numpy_to_torch(P, model):
    def mname(k):
        return f"transformer.{k}.weight" if k in ("wte", "wpe") else "transformer." + k

    names = {mname(k): k for k in P}
    missing = sorted(set(model) - set(names))
    extra = sorted(set(names) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, ref in model.items():
        a = P[names[name]]
        if a.shape != ref.shape and a.T.shape == ref.shape:
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = a.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_all_2d',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Transposes every 2-D array, the embedding tables wte and wpe included, so they come out (d, V) and (d, T).',
        "source": r'''def numpy_to_torch(P, model):
    out = {}
    for k, v in P.items():
        name = f"transformer.{k}.weight" if k in ("wte", "wpe") else "transformer." + k
        if name not in model:
            raise ValueError(f"unexpected key {k}")
        out[name] = (v.T if v.ndim == 2 else v).astype(model[name].dtype)
    missing = sorted(set(model) - set(out))
    if missing:
        raise ValueError(f"missing keys {missing}")
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_adds_lm_head',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Adds an lm_head.weight entry (a copy of wte), a key the model does not list since the head is tied.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    names = {(f"transformer.{k}.weight" if k in ("wte", "wpe") else "transformer." + k): k for k in P}
    missing = sorted(set(model) - set(names))
    extra = sorted(set(names) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, ref in model.items():
        a = P[names[name]]
        if name.endswith(_LIN):
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = np.array(a, dtype=ref.dtype)
    out["lm_head.weight"] = out["transformer.wte.weight"].copy()
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_pops_P',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Pops each used tensor out of P to find the leftovers, which empties the caller\'s dictionary.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    out = {}
    for name, ref in model.items():
        key = name[len("transformer."):]
        if key in ("wte.weight", "wpe.weight"):
            key = key[:3]
        if key not in P:
            raise ValueError(f"missing key {key} (module {name})")
        a = P.pop(key)
        if name.endswith(_LIN):
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = a.astype(ref.dtype)
    if P:
        raise ValueError(f"unexpected keys {sorted(P)}")
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_keyerror',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Does not check the keys: a missing tensor raises a bare KeyError (not a ValueError) and an extra tensor in P is silently ignored.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    out = {}
    for name, ref in model.items():
        key = name.replace("transformer.", "")
        if key in ("wte.weight", "wpe.weight"):
            key = key.split(".")[0]
        a = P[key]
        if name.endswith(_LIN):
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = a.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_no_shape_check',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Checks the keys but never the shapes, so a tensor of the wrong shape is returned instead of raising a ValueError.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    names = {(f"transformer.{k}.weight" if k in ("wte", "wpe") else "transformer." + k): k for k in P}
    missing = sorted(set(model) - set(names))
    extra = sorted(set(names) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, ref in model.items():
        a = P[names[name]]
        if name.endswith(_LIN):
            a = a.T
        out[name] = np.array(a, dtype=ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_bug_stale_key',
        "exercise": 'numpy_to_torch',
        "kind": 'bug',
        "mistake": 'Reads P with a loop variable left over from the key check (the last key) instead of the current one, so every tensor gets the same source array.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    names = {}
    for k in P:
        names[f"transformer.{k}.weight" if k in ("wte", "wpe") else "transformer." + k] = k
    missing = sorted(set(model) - set(names))
    extra = sorted(set(names) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, ref in model.items():
        a = P[k]
        if name.endswith(_LIN):
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = np.array(a, dtype=ref.dtype)
    return out
''',
    },
    # ------------------------------------------------------------------ lesson 06: load_hf_state_dict
    {
        "id": 'l06_load_hf_state_dict_right_filter',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''_LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items()
          if not k.endswith((".attn.bias", ".attn.masked_bias")) and k != "lm_head.weight"}
    missing = sorted(set(model) - set(sd))
    unexpected = sorted(set(sd) - set(model))
    if missing or unexpected:
        raise ValueError(f"state dict does not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, ref in model.items():
        a = np.asarray(sd[name])
        if name.endswith(_LINEAR):
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} after the transpose, the model has {ref.shape}")
        out[name] = a.astype(ref.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_right_loop',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''def load_hf_state_dict(model, state_dict):
    def is_buffer(key):
        last = key.split(".")
        return len(last) >= 2 and last[-2] == "attn" and last[-1] in ("bias", "masked_bias")

    kept = [k for k in state_dict if not is_buffer(k) and k != "lm_head.weight"]
    problems = []
    absent = [k for k in model if k not in state_dict]
    surplus = [k for k in kept if k not in model]
    if absent:
        problems.append("missing: " + ", ".join(absent))
    if surplus:
        problems.append("unexpected: " + ", ".join(surplus))
    if problems:
        raise ValueError("; ".join(problems))
    transposed = {"c_attn", "c_proj", "c_fc"}
    loaded = {}
    for name, target in model.items():
        parts = name.split(".")
        value = np.array(state_dict[name], dtype=target.dtype)   # a copy in the model's dtype
        if parts[-1] == "weight" and len(parts) >= 2 and parts[-2] in transposed:
            value = value.T.copy()
        if value.shape != target.shape:
            raise ValueError(f"shape of {name}: {value.shape} (transposed where needed), model {target.shape}")
        loaded[name] = value
    return loaded
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_skips_c_attn_bias',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips every key ending in "attn.bias" without the leading dot, which also drops the parameter attn.c_attn.bias, so a valid state dict is reported as missing it.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items()
          if not k.endswith(("attn.bias", "attn.masked_bias")) and k != "lm_head.weight"}
    missing = sorted(set(model) - set(sd))
    extra = sorted(set(sd) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, ref in model.items():
        a = sd[name].T if name.endswith(_LIN) else sd[name]
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = a.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_keeps_lm_head',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Copies lm_head.weight into the result as its own entry instead of dropping it as the tied head.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items() if not k.endswith((".attn.bias", ".attn.masked_bias"))}
    missing = sorted(set(model) - set(sd))
    extra = sorted(set(sd) - set(model) - {"lm_head.weight"})
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, a in sd.items():
        if name.endswith(_LIN):
            a = a.T
        ref = model.get(name, model["transformer.wte.weight"])
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = a.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_masked_bias_kept',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips the .attn.bias buffers but not the .attn.masked_bias ones, so an older checkpoint is rejected as having unexpected keys.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items() if not k.endswith(".attn.bias") and k != "lm_head.weight"}
    missing = sorted(set(model) - set(sd))
    extra = sorted(set(sd) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, ref in model.items():
        a = sd[name].T if name.endswith(_LIN) else sd[name]
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = a.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_no_transpose',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Copies the Conv1D weights as they are, without transposing them to nn.Linear\'s (out, in) layout, and has no shape check to notice.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items()
          if not k.endswith((".attn.bias", ".attn.masked_bias")) and k != "lm_head.weight"}
    missing = sorted(set(model) - set(sd))
    extra = sorted(set(sd) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    return {name: np.array(sd[name], dtype=ref.dtype) for name, ref in model.items()}
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_keeps_sd_dtype',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Keeps the state dict\'s dtype (for instance float32 into a float64 model) instead of the model\'s dtype.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items()
          if not k.endswith((".attn.bias", ".attn.masked_bias")) and k != "lm_head.weight"}
    missing = sorted(set(model) - set(sd))
    extra = sorted(set(sd) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, ref in model.items():
        a = sd[name].T if name.endswith(_LIN) else sd[name]
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = np.copy(a)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_pops_state_dict',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Deletes lm_head.weight and the buffers from the caller\'s state_dict (pop / del) instead of filtering a copy.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    state_dict.pop("lm_head.weight", None)
    for k in list(state_dict):
        if k.endswith((".attn.bias", ".attn.masked_bias")):
            del state_dict[k]
    missing = sorted(set(model) - set(state_dict))
    extra = sorted(set(state_dict) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, ref in model.items():
        a = state_dict[name].T if name.endswith(_LIN) else state_dict[name]
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = a.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_bug_mask_bias_typo',
        "exercise": 'load_hf_state_dict',
        "kind": 'bug',
        "mistake": 'Misspells the buffer suffix as ".attn.mask_bias", so the real .attn.masked_bias buffers are not skipped and an older checkpoint is rejected.',
        "source": r'''_LIN = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items()
          if not k.endswith((".attn.bias", ".attn.mask_bias")) and k != "lm_head.weight"}
    missing = sorted(set(model) - set(sd))
    extra = sorted(set(sd) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, ref in model.items():
        a = sd[name].T if name.endswith(_LIN) else sd[name]
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} vs model {ref.shape}")
        out[name] = a.astype(ref.dtype)
    return out
''',
    },
    # ------------------------------------------------------------------ lesson 07: sinusoidal_positions
    {
        "id": 'l07_sinusoidal_positions_right_slices',
        "exercise": 'sinusoidal_positions',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d = {d}")
    t = np.arange(T, dtype=np.float64)[:, None]              # (T, 1)
    i = np.arange(d // 2, dtype=np.float64)                  # pair index
    omega = float(base) ** (-2.0 * i / d)                    # (d/2,)
    pe = np.empty((T, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_right_stack_exp',
        "exercise": 'sinusoidal_positions',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError("d = %d is odd; the sine/cosine pairs need an even d" % d)
    pos = np.arange(T).astype(np.float64)
    freq = np.exp(-np.log(base) * np.arange(0, d, 2) / d)    # base ** (-2i/d)
    angles = np.outer(pos, freq)                             # (T, d/2)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(T, d)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_concat_halves',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Puts all the sines in the first half of the columns and all the cosines in the second half instead of interleaving them.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    omega = base ** (-2 * np.arange(d // 2) / d)
    return np.concatenate([np.sin(t * omega), np.cos(t * omega)], axis=1)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_column_exponent',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Uses each column\'s own index j in the exponent, base^(-j/d), so the cosine column 2i+1 gets the frequency of (2i+1)/d instead of sharing its pair\'s 2i/d.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    j = np.arange(d)
    angles = t * base ** (-j / d)
    pe = np.where(j % 2 == 0, np.sin(angles), np.cos(angles))
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_hardcoded_base',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Ignores the base argument and always uses 10000.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    omega = 10000.0 ** (-2 * np.arange(d // 2) / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_float32',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Builds the table in float32 (np.float32 positions and buffer) instead of returning float64.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T, dtype=np.float32)[:, None]
    omega = np.power(np.float32(base), -2 * np.arange(d // 2, dtype=np.float32) / np.float32(d))
    pe = np.zeros((T, d), dtype=np.float32)
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_no_odd_check',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Has no check for an odd d: it fails with NumPy\'s broadcasting error, whose message does not contain d, instead of a ValueError naming d.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    t = np.arange(T)[:, None]
    omega = base ** (-np.arange(0, d, 2) / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_integer_division',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Computes the exponent with integer division (2 * i // d), which is 0 for every pair, so all columns turn at the same frequency 1.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    i = np.arange(d // 2)
    omega = base ** (-(2 * i // d))
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_bug_sin_twice',
        "exercise": 'sinusoidal_positions',
        "kind": 'bug',
        "mistake": 'Fills the odd columns with the sine again instead of the cosine (copy-paste slip).',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    omega = base ** (-2 * np.arange(d // 2) / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.sin(t * omega)
    return pe
''',
    },
    # ------------------------------------------------------------------ lesson 07: position_similarity
    {
        "id": 'l07_position_similarity_right_normalise_rows',
        "exercise": 'position_similarity',
        "kind": 'right',
        "mistake": '',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be a 2-D (T, d) table, got shape {wpe.shape}")
    unit = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
    return unit @ unit.T
''',
    },
    {
        "id": 'l07_position_similarity_right_gram_outer',
        "exercise": 'position_similarity',
        "kind": 'right',
        "mistake": '',
        "source": r'''def position_similarity(wpe):
    wpe = np.asarray(wpe)
    if len(wpe.shape) != 2:
        raise ValueError("expected a table of shape (T, d), got %s" % (wpe.shape,))
    w = wpe.astype(np.float64)
    gram = np.einsum("sd,td->st", w, w)
    lengths = np.sqrt(np.diag(gram))
    return (gram / np.outer(lengths, lengths)).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_position_similarity_mistake_feature_similarity',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Returns unit.T @ unit, the (d, d) similarity between features, instead of the (T, T) similarity between positions.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    unit = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
    return unit.T @ unit
''',
    },
    {
        "id": 'l07_position_similarity_mistake_inplace_normalise',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Normalises the rows in place (wpe /= ...), changing the caller\'s table.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    wpe /= np.linalg.norm(wpe, axis=1, keepdims=True)
    return wpe @ wpe.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_norm_no_keepdims',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Divides by the row norms without keepdims, so the (T,) norms broadcast along the columns: a shape error when T != d, and wrong values when T == d.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    unit = wpe / np.linalg.norm(wpe, axis=1)
    return unit @ unit.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_centred_rows',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Subtracts each row\'s mean before normalising, computing Pearson correlations instead of cosine similarities.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    c = wpe - wpe.mean(axis=1, keepdims=True)
    c = c / np.linalg.norm(c, axis=1, keepdims=True)
    return c @ c.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_float64_out',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Computes in float64 and forgets to cast back, so a float32 table gives a float64 matrix.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    w = wpe.astype(np.float64)
    w = w / np.sqrt((w ** 2).sum(axis=1, keepdims=True))
    return w @ w.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_no_ndim_check',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Never checks that the table is 2-D: a 3-D table is silently processed as a batch and a 1-D one fails with a NumPy error that does not name wpe.shape.',
        "source": r'''def position_similarity(wpe):
    unit = wpe / np.linalg.norm(wpe, axis=-1, keepdims=True)
    return unit @ np.swapaxes(unit, -1, -2)
''',
    },
    # ------------------------------------------------------------------ lesson 07: principal_components
    {
        "id": 'l07_principal_components_right_svd',
        "exercise": 'principal_components',
        "kind": 'right',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D (T, d), got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} is larger than min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0, keepdims=True)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    dirs = Vt[:k]                                            # (k, d), largest variance first
    biggest = np.argmax(np.abs(dirs), axis=1)
    signs = np.sign(dirs[np.arange(k), biggest])
    dirs = dirs * signs[:, None]
    return (Xc @ dirs.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_right_eigh',
        "exercise": 'principal_components',
        "kind": 'right',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    wpe = np.asarray(wpe)
    if wpe.ndim != 2:
        raise ValueError("need a 2-D table, got wpe.shape = %s" % (wpe.shape,))
    T, d = wpe.shape
    limit = min(T, d)
    if not 1 <= k <= limit:
        raise ValueError("k = %d, but a (T, d) table has at most min(T, d) = %d directions" % (k, limit))
    centred = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0)
    cov = centred.T @ centred / max(T - 1, 1)
    evals, evecs = np.linalg.eigh(cov)                       # ascending
    order = np.argsort(evals)[::-1][:k]
    V = evecs[:, order]                                      # (d, k), columns are directions
    for j in range(k):
        col = V[:, j]
        if col[np.argmax(np.abs(col))] < 0:
            V[:, j] = -col
    return np.asarray(centred @ V, dtype=wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_not_centred',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Skips the centring: takes the SVD of the raw table and projects the raw rows.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} > min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    dirs = Vt[:k]
    signs = np.sign(dirs[np.arange(k), np.abs(dirs).argmax(axis=1)])
    return (X @ (dirs * signs[:, None]).T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_eigh_ascending',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Takes the first k eigenvectors from np.linalg.eigh, which sorts eigenvalues in ascending order, so the smallest-variance directions come out instead of the largest.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} > min(T, d) = {min(T, d)}")
    Xc = wpe - wpe.mean(axis=0)
    _, vecs = np.linalg.eigh(Xc.T @ Xc)
    V = vecs[:, :k]
    signs = np.sign(V[np.abs(V).argmax(axis=0), np.arange(k)])
    return (Xc @ (V * signs)).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_no_sign_fix',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Leaves each direction with whatever sign the SVD returns instead of making its largest-magnitude entry positive.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} > min(T, d) = {min(T, d)}")
    Xc = wpe - wpe.mean(axis=0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    return (Xc @ Vt[:k].T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_first_entry_sign',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Fixes each direction\'s sign by its first entry instead of its largest-magnitude entry.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} > min(T, d) = {min(T, d)}")
    Xc = wpe - wpe.mean(axis=0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    dirs = Vt[:k]
    dirs = dirs * np.where(dirs[:, 0] < 0, -1.0, 1.0)[:, None]
    return (Xc @ dirs.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_left_vectors_unscaled',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Returns the left singular vectors U[:, :k] (unit-length columns) instead of the projections U * S, dropping the singular values.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} > min(T, d) = {min(T, d)}")
    Xc = wpe - wpe.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    signs = np.sign(Vt[np.arange(k), np.abs(Vt[:k]).argmax(axis=1)])
    return (U[:, :k] * signs).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_inplace_centre',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Centres the table in place (wpe -= mean), changing the caller\'s array.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} > min(T, d) = {min(T, d)}")
    wpe -= wpe.mean(axis=0)
    _, _, Vt = np.linalg.svd(wpe, full_matrices=False)
    dirs = Vt[:k]
    signs = np.sign(dirs[np.arange(k), np.abs(dirs).argmax(axis=1)])
    return wpe @ (dirs * signs[:, None]).T
''',
    },
    {
        "id": 'l07_principal_components_bug_argmax_axis0',
        "exercise": 'principal_components',
        "kind": 'bug',
        "mistake": 'Finds each direction\'s largest entry with argmax over axis 0 instead of axis 1, which indexes the wrong entries and fails on shapes unless k == d.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} > min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    dirs = Vt[:k]
    signs = np.sign(dirs[np.arange(k), np.abs(dirs).argmax(axis=0)])
    return (Xc @ (dirs * signs[:, None]).T).astype(wpe.dtype)
''',
    },
    # ------------------------------------------------------------------ lesson 08: cross_entropy
    {
        "id": 'l08_cross_entropy_right_take_along',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    logits = np.asarray(logits)
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape}, expected logits.shape[:-1] = "
                         f"{logits.shape[:-1]} (logits {logits.shape})")
    V = logits.shape[-1]
    bad = (targets < 0) | (targets >= V)
    if np.any(bad):
        raise ValueError(f"target id {targets[bad].flat[0]} is outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=-1))
    zt = np.take_along_axis(z, targets[..., None], axis=-1)[..., 0]
    return (lse - zt).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_right_flat_logaddexp',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    logits = np.asarray(logits)
    targets = np.asarray(targets)
    if logits.shape[:-1] != targets.shape:
        raise ValueError("shape mismatch: logits %s, targets %s" % (logits.shape, targets.shape))
    V = logits.shape[-1]
    flat_z = logits.reshape(-1, V)
    flat_t = targets.reshape(-1)
    for t in flat_t:
        if t < 0 or t >= V:
            raise ValueError("target id %d not in [0, %d)" % (t, V))
    lse = np.logaddexp.reduce(flat_z, axis=-1)               # stable log-sum-exp
    nll = lse - flat_z[np.arange(flat_z.shape[0]), flat_t]
    return nll.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_log_of_softmax',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Takes the log of the (stable) softmax probability, which underflows to 0 for a target far below its row\'s maximum and gives an infinite loss instead of the log-sum-exp form.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    p_t = np.take_along_axis(probs, targets[..., None], axis=-1)
    return -np.log(p_t).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_no_max_shift',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Computes log(sum(exp(logits))) without subtracting the row maximum, so logits near 1000 overflow to inf/nan.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    lse = np.log(np.exp(logits).sum(axis=-1))
    zt = np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return (lse - zt).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_forgot_max_back',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Subtracts the row maximum inside the log-sum-exp but then subtracts the unshifted target logit, so the loss is off by the row maximum.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(logits - m).sum(axis=-1))
    zt = np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return (lse - zt).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_python_float',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Returns float(...) of the loss, a Python float, instead of the NumPy scalar in the logits\' dtype.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=-1))
    zt = np.take_along_axis(z, targets[..., None], axis=-1)[..., 0]
    return float((lse - zt).mean())
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_negative_ids_allowed',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Only rejects ids >= V, so a negative id such as -1 silently reads the last logit.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any(targets >= V):
        raise ValueError(f"target id {targets.max()} >= V = {V}")
    z = logits - logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=-1))
    zt = np.take_along_axis(z, targets[..., None], axis=-1)[..., 0]
    return (lse - zt).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_fancy_all_pairs',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Picks the target logits with logp[..., targets], which takes every target column for every row (an (N, N) block) and averages all of them, not one per position.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -logp[..., targets].mean()
''',
    },
    # ------------------------------------------------------------------ lesson 08: get_batch
    {
        "id": 'l08_get_batch_right_fancy_index',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    n = len(data)
    if n < block_size + 1:
        raise ValueError(f"data holds {n} ids, fewer than block_size + 1 = {block_size + 1} "
                         f"(block_size {block_size})")
    starts = rng.integers(0, n - block_size, size=batch_size)
    offsets = starts[:, None] + np.arange(block_size)       # (batch_size, block_size)
    x = np.asarray(data)[offsets].astype(np.int64)
    y = np.asarray(data)[offsets + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_right_stack_slices',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) <= block_size:
        raise ValueError("len(data) = %d is too short for block_size = %d: a window needs %d ids"
                         % (len(data), block_size, block_size + 1))
    ix = rng.integers(0, len(data) - block_size, size=batch_size)
    data = np.asarray(data, dtype=np.int64)
    x = np.stack([data[s:s + block_size] for s in ix])
    y = np.stack([data[s + 1:s + 1 + block_size] for s in ix])
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_high_minus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with high len(data) - block_size - 1, excluding the last valid start and giving different draws from the prescribed call.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data) = {len(data)} < block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size - 1, size=batch_size)
    ix = starts[:, None] + np.arange(block_size)
    return data[ix].astype(np.int64), data[ix + 1].astype(np.int64)
''',
    },
    {
        "id": 'l08_get_batch_mistake_high_plus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with high len(data) - block_size + 1, so a window may run past the end of data (its target does not exist) and the draws differ from the prescribed call.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data) = {len(data)} < block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size + 1, size=batch_size)
    ix = starts[:, None] + np.arange(block_size)
    return data[ix].astype(np.int64), data[ix + 1].astype(np.int64)
''',
    },
    {
        "id": 'l08_get_batch_mistake_keeps_uint8',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Returns the windows in data\'s own dtype (uint8 for the corpus) instead of int64.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data) = {len(data)} < block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts])
    y = np.stack([data[s + 1:s + block_size + 1] for s in starts])
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_separate_y_starts',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws a second, independent set of starts for y, so row b of y is not row b of x moved on by one.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data) = {len(data)} < block_size + 1 = {block_size + 1}")
    ix = rng.integers(0, len(data) - block_size, size=batch_size)
    iy = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in ix]).astype(np.int64)
    y = np.stack([data[s + 1:s + block_size + 1] for s in iy]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_length_check_off_by_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Checks len(data) < block_size instead of < block_size + 1, so data of exactly block_size ids reaches rng.integers(0, 0), whose own error names neither number.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size:
        raise ValueError(f"len(data) = {len(data)} < block_size = {block_size}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    ix = starts[:, None] + np.arange(block_size)
    return data[ix].astype(np.int64), data[ix + 1].astype(np.int64)
''',
    },
    {
        "id": 'l08_get_batch_mistake_x_y_swapped',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Cuts windows of block_size + 1 ids and swaps the halves: x gets the later ids and y the earlier ones.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data) = {len(data)} < block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    chunk = np.asarray(data, dtype=np.int64)[starts[:, None] + np.arange(block_size + 1)]
    x = chunk[:, 1:]
    y = chunk[:, :-1]
    return x, y
''',
    },
    # ------------------------------------------------------------------ lesson 08: sample_next
    {
        "id": 'l08_sample_next_right_inverse_cdf',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep_idx = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]   # exactly top_k per row
        keep = np.zeros(z.shape, dtype=bool)
        np.put_along_axis(keep, keep_idx, True, axis=-1)
        z = np.where(keep, z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1)) * cdf[:, -1:]
    ids = (cdf <= u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_right_gumbel_sort',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError("temperature = %r: it must be > 0 (use argmax for greedy decoding)" % (temperature,))
    z = np.array(logits, dtype=np.float64) / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        order = np.argsort(-z, axis=-1, kind="stable")
        dropped = order[:, top_k:]
        np.put_along_axis(z, dropped, -np.inf, axis=-1)
    g = rng.gumbel(size=z.shape)                 # Gumbel-max: argmax(z + g) ~ softmax(z)
    return np.argmax(z + g, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_times_temperature',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Multiplies the logits by the temperature instead of dividing by it, so low temperatures flatten and high ones sharpen.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) * temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        drop = np.argsort(-z, axis=-1)[:, top_k:]
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    return np.argmax(z + rng.gumbel(size=z.shape), axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_topk_threshold_ties',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Keeps every logit >= the k-th largest value, so ties at the k-th place keep more than top_k candidates.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        kth = np.sort(z, axis=-1)[:, -top_k][:, None]
        z = np.where(z >= kth, z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((z.shape[0], 1))
    return np.minimum((cdf <= u * cdf[:, -1:]).sum(axis=-1), V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_argpartition_k_eq_V',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Calls np.argpartition with kth=top_k without handling top_k >= V, so a top_k equal to or above the vocabulary size raises instead of keeping every id.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) / temperature
    if top_k is not None:
        keep_idx = np.argpartition(-z, top_k, axis=-1)[:, :top_k]
        keep = np.zeros(z.shape, dtype=bool)
        np.put_along_axis(keep, keep_idx, True, axis=-1)
        z = np.where(keep, z, -np.inf)
    return np.argmax(z + rng.gumbel(size=z.shape), axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_global_np_random',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Draws with np.random.choice (the global generator) instead of the rng it is given, so the same rng state does not give the same ids.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        drop = np.argsort(-z, axis=-1)[:, top_k:]
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    return np.array([np.random.choice(V, p=p[b]) for b in range(B)], dtype=np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_mask_with_zero',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Sets the logits outside the top k to 0 instead of -inf, so those ids keep a non-zero probability.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        drop = np.argsort(-z, axis=-1)[:, top_k:]
        np.put_along_axis(z, drop, 0.0, axis=-1)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((z.shape[0], 1))
    return np.minimum((cdf <= u * cdf[:, -1:]).sum(axis=-1), V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_unstable_softmax',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Exponentiates the logits without subtracting the row maximum, so logits near 800 overflow to inf and the probabilities become NaN.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        drop = np.argsort(-z, axis=-1)[:, top_k:]
        z = z.copy()
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    return np.array([rng.choice(V, p=p[b]) for b in range(B)], dtype=np.int64)
''',
    },
    {
        "id": 'l08_sample_next_bug_gumbel_sign',
        "exercise": 'sample_next',
        "kind": 'bug',
        "mistake": 'Subtracts the Gumbel noise instead of adding it in the Gumbel-max draw (sign slip), which samples from the wrong distribution.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        drop = np.argsort(-z, axis=-1)[:, top_k:]
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    return np.argmax(z - rng.gumbel(size=z.shape), axis=-1).astype(np.int64)
''',
    },
]

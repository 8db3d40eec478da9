"""Blind learner answers, round 5: written from the lessons and exercise notebooks alone."""

ANSWERS = [
    # ---- lesson 01 ----
    {
        "id": 'l01_embed_right_slice',
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
    n_pos = idx.shape[-1]
    n_rows = len(wpe)
    if n_pos > n_rows:
        raise ValueError(
            f"cannot embed {n_pos} tokens: the position table has {n_rows} rows "
            f"(block size {n_rows}); shorten the context"
        )
    positions = np.arange(n_pos)
    tok = np.take(wte, idx, axis=0)          # idx.shape + (d,)
    pos = np.take(wpe, positions, axis=0)    # (T, d), broadcasts over the batch
    return tok + pos
''',
    },
    {
        "id": 'l01_embed_mistake_pos_by_token',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Looks up the position rows with the token ids (wpe[idx]) instead of the positions 0..T-1.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    tok_emb = wte[idx]
    pos_emb = wpe[idx]
    return tok_emb + pos_emb
''',
    },
    {
        "id": 'l01_embed_mistake_whole_wpe',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Adds the whole position table wpe instead of its first T rows wpe[:T], so it only works (broadcasts) when T equals the block size.',
        "source": r'''def embed(wte, wpe, idx):
    if idx.shape[-1] > wpe.shape[0]:
        raise ValueError(
            f"sequence length {idx.shape[-1]} is longer than the block size {wpe.shape[0]}"
        )
    x = wte[idx] + wpe
    return x
''',
    },
    {
        "id": 'l01_embed_mistake_check_off_by_one',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'The length check uses >= instead of >, so a sequence of exactly block_size tokens is wrongly rejected.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T >= block_size:
        raise ValueError(f"sequence length {T} is too long for the block size {block_size}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_len_is_batch',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Takes the sequence length as len(idx) (the first axis), so for a (B, T) batch it uses B rows of wpe and checks B against the block size.',
        "source": r'''def embed(wte, wpe, idx):
    T = len(idx)
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    x = wte[idx]
    x = x + wpe[:T]
    return x
''',
    },
    {
        "id": 'l01_embed_bug_pos_added_twice',
        "exercise": 'embed',
        "kind": 'bug',
        "mistake": 'A leftover line adds the position rows twice (once with += and again in the return).',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    x = wte[idx]          # fancy indexing gives a copy, so += does not touch wte
    x += wpe[:T]
    return x + wpe[:T]
''',
    },
    {
        "id": 'l01_one_hot_embed_right_compare',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = (idx[..., None] == np.arange(V)).astype(wte.dtype)   # idx.shape + (V,)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_eye_float64',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds the one-hot matrix with np.eye(V) in the default float64, so a float32 table gives a float64 result.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.eye(V)[idx]
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_unbatched_only',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds a (len(idx), V) one-hot matrix with one row per entry of the first axis, so it only works for a 1-D idx and breaks on a (B, T) batch.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    n = len(idx)
    one_hot = np.zeros((n, V), dtype=wte.dtype)
    one_hot[np.arange(n), idx] = 1.0
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_width_d',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Gives the one-hot matrix d columns (wte.shape[1]) instead of V, confusing the embedding width with the vocabulary size.',
        "source": r'''def one_hot_embed(wte, idx):
    V, d = wte.shape
    oh = np.zeros(idx.shape + (d,), dtype=wte.dtype)
    np.put_along_axis(oh, idx[..., None], 1.0, axis=-1)
    return oh @ wte
''',
    },
    # ---- lesson 02 ----
    {
        "id": 'l02_layer_norm_right_manual',
        "exercise": 'layer_norm',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    centred = x - mu
    var = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_ddof1',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Uses the sample variance (ddof=1, dividing by d - 1) instead of the population variance.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True, ddof=1)
    x_hat = (x - mean) / np.sqrt(var + eps)
    return x_hat * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_eps_outside_root',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Adds eps to the standard deviation (std + eps) instead of to the variance inside the square root.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    std = x.std(-1, keepdims=True)
    return weight * (x - mean) / (std + eps) + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_axis0',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Takes the mean and variance over axis 0 (across positions or the batch) instead of over the last, feature axis.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=0, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=0, keepdims=True)
    normed = (x - mean) / np.sqrt(var + eps)
    return normed * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_no_keepdims',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Reduces the mean and variance without keepdims, so the (..., ) statistics broadcast against the wrong axis (crash unless T equals d).',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = np.mean(x, axis=-1)
    var = np.var(x, axis=-1)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_bug_weight_for_bias',
        "exercise": 'layer_norm',
        "kind": 'bug',
        "mistake": 'Typo in the last line: adds weight where it should add bias.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    x_hat = (x - mean) / np.sqrt(var + eps)
    return x_hat * weight + weight
''',
    },
    {
        "id": 'l02_causal_self_attention_right_swapaxes',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)

    def heads(t):
        # (..., T, d) -> (..., n_head, T, d_k)
        return t.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)

    q, k, v = heads(q), heads(k), heads(v)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_right_einsum',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2:]
    hs = d // n_head
    qkv = x @ w_qkv + b_qkv
    split = x.shape[:-1] + (n_head, hs)
    q = qkv[..., :d].reshape(split)
    k = qkv[..., d:2 * d].reshape(split)
    v = qkv[..., 2 * d:].reshape(split)
    att = np.einsum("...qhe,...khe->...hqk", q, k) * (1.0 / hs ** 0.5)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    att = np.where(future, -np.inf, att)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att /= att.sum(axis=-1, keepdims=True)
    y = np.einsum("...hqk,...khe->...qhe", att, v).reshape(x.shape)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_sqrt_d',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Scales the scores by sqrt(d), the model width, instead of sqrt(d_k), the head size.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*q.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*k.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*v.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    scores = (q @ k.swapaxes(-2, -1)) / d ** 0.5
    causal = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(causal, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    p /= p.sum(axis=-1, keepdims=True)
    out = (p @ v).swapaxes(-3, -2).reshape(*x.shape[:-1], d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_mask_no_diagonal',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'The causal mask also hides the diagonal (keeps only j < t), so a position cannot attend to itself and row 0 has no key at all (NaN).',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *batch, T, d = x.shape
    hd = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = np.moveaxis(q.reshape(*batch, T, n_head, hd), -2, -3)
    k = np.moveaxis(k.reshape(*batch, T, n_head, hd), -2, -3)
    v = np.moveaxis(v.reshape(*batch, T, n_head, hd), -2, -3)
    att = q @ np.swapaxes(k, -1, -2) / hd ** 0.5
    blocked = np.triu(np.ones((T, T), dtype=bool))      # positions a query may not see
    att[..., blocked] = -np.inf
    att = att - att.max(axis=-1, keepdims=True)
    att = np.exp(att)
    att = att / att.sum(axis=-1, keepdims=True)
    y = np.moveaxis(att @ v, -3, -2).reshape(*batch, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_softmax_queries',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Takes the softmax over axis -2 (the queries) instead of the last axis (the keys), so the weights of a query do not sum to one.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, dk).swapaxes(-2, -3)
    s = q @ k.swapaxes(-1, -2) / dk ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-2, keepdims=True)
    e = np.exp(s)
    w = e / e.sum(axis=-2, keepdims=True)
    out = (w @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_split_no_transpose',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Splits the heads by reshaping (..., T, d) straight to (..., n_head, T, d_k) without the reshape-then-transpose, so each head gets a scrambled mix of positions and features.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    lead = x.shape[:-2]
    T, d = x.shape[-2:]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q = qkv[..., 0 * d:1 * d].reshape(*lead, n_head, T, d_k)
    k = qkv[..., 1 * d:2 * d].reshape(*lead, n_head, T, d_k)
    v = qkv[..., 2 * d:3 * d].reshape(*lead, n_head, T, d_k)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    scores -= scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=-1, keepdims=True)
    heads = w @ v                                   # (..., n_head, T, d_k)
    merged = heads.swapaxes(-2, -3).reshape(*lead, T, d)
    return merged @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_merge_no_transpose',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Merges the heads by reshaping (..., n_head, T, d_k) straight to (..., T, d) without first swapping the head and T axes back.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    to_heads = lambda t: t.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    q, k, v = to_heads(q), to_heads(k), to_heads(v)
    att = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    y = att @ v
    y = y.reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_np_sqrt_dtype',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Divides the scores by np.sqrt(d_k), a NumPy float64 scalar, which turns float32 inputs into a float64 output.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(d_k)
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    y = (weights @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_unbatched_only',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Written for a single (T, d) sequence only (unpacks T, d = x.shape and uses fixed 3-D transposes), so a (B, T, d) batch crashes.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
    q = q.reshape(T, n_head, d_k).transpose(1, 0, 2)
    k = k.reshape(T, n_head, d_k).transpose(1, 0, 2)
    v = v.reshape(T, n_head, d_k).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).transpose(1, 0, 2).reshape(T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_no_out_proj',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Returns the merged heads without the output projection (@ w_o + b_o).',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q, k, v = (t.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3) for t in (q, k, v))
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return y
''',
    },
    {
        "id": 'l02_causal_self_attention_bug_weights_times_keys',
        "exercise": 'causal_self_attention',
        "kind": 'bug',
        "mistake": 'Slip: multiplies the attention weights by the keys k instead of the values v.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ k).swapaxes(-2, -3).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    # ---- lesson 03 ----
    {
        "id": 'l03_gelu_tanh_right_math',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2.0 / math.pi)
    return 0.5 * x * (1.0 + np.tanh(c * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_exact_erf',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": "Computes the exact GELU x * Phi(x) with erf instead of GPT-2's tanh approximation.",
        "source": r'''def gelu_tanh(x):
    x = np.asarray(x)
    erf = np.vectorize(math.erf, otypes=[x.dtype])
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_np_sqrt_dtype',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Writes the constant as np.sqrt(2 / np.pi), a NumPy float64 scalar, so float32 inputs come back float64.',
        "source": r'''def gelu_tanh(x):
    inner = np.sqrt(2 / np.pi) * (x + 0.044715 * np.power(x, 3))
    return 0.5 * x * (1 + np.tanh(inner))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_missing_half',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Leaves out the factor 1/2 in front, returning x * (1 + tanh(...)), twice the GELU.',
        "source": r'''def gelu_tanh(x):
    k = math.sqrt(2 / math.pi)
    return x * (1 + np.tanh(k * (x + 0.044715 * x * x * x)))
''',
    },
    {
        "id": 'l03_mlp_right_oneliner',
        "exercise": 'mlp',
        "kind": 'right',
        "mistake": '',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)      # (..., 4d)
    return h @ w_proj + b_proj          # (..., d)
''',
    },
    {
        "id": 'l03_mlp_mistake_linear_layout',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Transposes the weights as if they were nn.Linear (out, in) (x @ w_fc.T), although they are stored Conv1D (in, out); the shapes do not match.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    hidden = x @ w_fc.T + b_fc
    hidden = gelu_tanh(hidden)
    return hidden @ w_proj.T + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_gelu_on_output',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Applies GELU a second time after the output projection; the second layer is linear.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    out = gelu_tanh(h @ w_proj + b_proj)
    return out
''',
    },
    {
        "id": 'l03_mlp_mistake_residual_inside',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Adds the residual x inside the MLP (returns x + MLP(x)); the residual belongs to the block, not to mlp.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    a = np.matmul(x, w_fc) + b_fc
    a = gelu_tanh(a)
    return x + (np.matmul(a, w_proj) + b_proj)
''',
    },
    {
        "id": 'l03_mlp_bug_returns_hidden',
        "exercise": 'mlp',
        "kind": 'bug',
        "mistake": 'Returns the 4d-wide hidden activation h instead of the projected output it computed.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    out = h @ w_proj + b_proj
    return h
''',
    },
    {
        "id": 'l03_block_right_helper',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def block(x, params, layer, n_head):
    def p(name):
        return params[f"h.{layer}.{name}"]

    a = causal_self_attention(
        layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
        p("attn.c_attn.weight"), p("attn.c_attn.bias"),
        p("attn.c_proj.weight"), p("attn.c_proj.bias"),
        n_head,
    )
    x = x + a                      # a new array; the argument is untouched
    m = mlp(
        layer_norm(x, p("ln_2.weight"), p("ln_2.bias")),
        p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
        p("mlp.c_proj.weight"), p("mlp.c_proj.bias"),
    )
    return x + m
''',
    },
    {
        "id": 'l03_block_right_prefix',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def block(x, params, layer, n_head):
    pre = "h." + str(layer) + "."
    h1 = layer_norm(x, params[pre + "ln_1.weight"], params[pre + "ln_1.bias"])
    attn_out = causal_self_attention(h1, params[pre + "attn.c_attn.weight"], params[pre + "attn.c_attn.bias"],
                                     params[pre + "attn.c_proj.weight"], params[pre + "attn.c_proj.bias"], n_head)
    resid = np.add(x, attn_out)
    h2 = layer_norm(resid, params[pre + "ln_2.weight"], params[pre + "ln_2.bias"])
    mlp_out = mlp(h2, params[pre + "mlp.c_fc.weight"], params[pre + "mlp.c_fc.bias"],
                  params[pre + "mlp.c_proj.weight"], params[pre + "mlp.c_proj.bias"])
    return np.add(resid, mlp_out)
''',
    },
    {
        "id": 'l03_block_mistake_post_ln',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Builds a post-LN block (LayerNorm after each residual addition, x = ln(x + f(x))) instead of the pre-LN one (x + f(ln(x))).',
        "source": r'''def block(x, params, layer, n_head):
    k = f"h.{layer}."
    a = causal_self_attention(x, params[k + "attn.c_attn.weight"], params[k + "attn.c_attn.bias"],
                              params[k + "attn.c_proj.weight"], params[k + "attn.c_proj.bias"], n_head)
    x = layer_norm(x + a, params[k + "ln_1.weight"], params[k + "ln_1.bias"])
    m = mlp(x, params[k + "mlp.c_fc.weight"], params[k + "mlp.c_fc.bias"],
            params[k + "mlp.c_proj.weight"], params[k + "mlp.c_proj.bias"])
    x = layer_norm(x + m, params[k + "ln_2.weight"], params[k + "ln_2.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_mistake_no_attn_residual',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": "Drops the residual connection around attention: the stream becomes attention's output instead of x + attention(ln_1(x)).",
        "source": r'''def block(x, params, layer, n_head):
    g = lambda s: params[f"h.{layer}.{s}"]
    h = causal_self_attention(layer_norm(x, g("ln_1.weight"), g("ln_1.bias")),
                              g("attn.c_attn.weight"), g("attn.c_attn.bias"),
                              g("attn.c_proj.weight"), g("attn.c_proj.bias"), n_head)
    out = h + mlp(layer_norm(h, g("ln_2.weight"), g("ln_2.bias")),
                  g("mlp.c_fc.weight"), g("mlp.c_fc.bias"),
                  g("mlp.c_proj.weight"), g("mlp.c_proj.bias"))
    return out
''',
    },
    {
        "id": 'l03_block_mistake_parallel_branches',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Feeds the MLP branch ln_2 of the original x instead of ln_2 of x + attention, running the two branches in parallel.',
        "source": r'''def block(x, params, layer, n_head):
    p = {name[len(f"h.{layer}."):]: arr for name, arr in params.items() if name.startswith(f"h.{layer}.")}
    attn = causal_self_attention(layer_norm(x, p["ln_1.weight"], p["ln_1.bias"]),
                                 p["attn.c_attn.weight"], p["attn.c_attn.bias"],
                                 p["attn.c_proj.weight"], p["attn.c_proj.bias"], n_head)
    ff = mlp(layer_norm(x, p["ln_2.weight"], p["ln_2.bias"]),
             p["mlp.c_fc.weight"], p["mlp.c_fc.bias"], p["mlp.c_proj.weight"], p["mlp.c_proj.bias"])
    return x + attn + ff
''',
    },
    {
        "id": 'l03_block_mistake_layer0_keys',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": "Always reads block 0's parameters ('h.0....') whatever the layer argument.",
        "source": r'''def block(x, params, layer, n_head):
    pre = "h.0."
    ln1 = layer_norm(x, params[pre + "ln_1.weight"], params[pre + "ln_1.bias"])
    x = x + causal_self_attention(ln1, params[pre + "attn.c_attn.weight"], params[pre + "attn.c_attn.bias"],
                                  params[pre + "attn.c_proj.weight"], params[pre + "attn.c_proj.bias"], n_head)
    ln2 = layer_norm(x, params[pre + "ln_2.weight"], params[pre + "ln_2.bias"])
    x = x + mlp(ln2, params[pre + "mlp.c_fc.weight"], params[pre + "mlp.c_fc.bias"],
                params[pre + "mlp.c_proj.weight"], params[pre + "mlp.c_proj.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_mistake_inplace_add',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Adds both branches to the argument in place (x += ...), which modifies the caller\'s array.',
        "source": r'''def block(x, params, layer, n_head):
    P = lambda name: params[f"h.{layer}.{name}"]
    x += causal_self_attention(layer_norm(x, P("ln_1.weight"), P("ln_1.bias")),
                               P("attn.c_attn.weight"), P("attn.c_attn.bias"),
                               P("attn.c_proj.weight"), P("attn.c_proj.bias"), n_head)
    x += mlp(layer_norm(x, P("ln_2.weight"), P("ln_2.bias")),
             P("mlp.c_fc.weight"), P("mlp.c_fc.bias"), P("mlp.c_proj.weight"), P("mlp.c_proj.bias"))
    return x
''',
    },
    {
        "id": 'l03_block_bug_ln2_weight_as_bias',
        "exercise": 'block',
        "kind": 'bug',
        "mistake": "Copy-paste slip: passes ln_2.weight as the LayerNorm's bias too (ln_2.bias is never used).",
        "source": r'''def block(x, params, layer, n_head):
    pre = f"h.{layer}."
    h = layer_norm(x, params[pre + "ln_1.weight"], params[pre + "ln_1.bias"])
    x = x + causal_self_attention(h, params[pre + "attn.c_attn.weight"], params[pre + "attn.c_attn.bias"],
                                  params[pre + "attn.c_proj.weight"], params[pre + "attn.c_proj.bias"], n_head)
    h = layer_norm(x, params[pre + "ln_2.weight"], params[pre + "ln_2.weight"])
    x = x + mlp(h, params[pre + "mlp.c_fc.weight"], params[pre + "mlp.c_fc.bias"],
                params[pre + "mlp.c_proj.weight"], params[pre + "mlp.c_proj.bias"])
    return x
''',
    },
    # ---- lesson 04 ----
    {
        "id": 'l04_init_gpt_right_table_order',
        "exercise": 'init_gpt',
        "kind": 'right',
        "mistake": '',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    std = 0.02
    proj_std = std / math.sqrt(2 * L)
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
        "id": 'l04_init_gpt_mistake_cproj_unscaled',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws the two residual projections (attn.c_proj and mlp.c_proj weights) with std 0.02 like every other matrix, without the 1/sqrt(2L) scaling.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer

    def normal(*shape):
        return rng.standard_normal(shape) * 0.02

    P = {"wte": normal(config.vocab_size, d), "wpe": normal(config.block_size, d)}
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = normal(d, 3 * d)
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = normal(d, d)
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = normal(d, 4 * d)
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = normal(4 * d, d)
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_sqrt_L',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Scales the residual projections by 1/sqrt(L) (the number of blocks) instead of 1/sqrt(2L) (two residual additions per block).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    base = 0.02
    resid = base / math.sqrt(L)
    params = {
        "wte": rng.standard_normal((V, d)) * base,
        "wpe": rng.standard_normal((T, d)) * base,
    }
    for i in range(L):
        params.update({
            f"h.{i}.ln_1.weight": np.ones(d),
            f"h.{i}.ln_1.bias": np.zeros(d),
            f"h.{i}.attn.c_attn.weight": rng.standard_normal((d, 3 * d)) * base,
            f"h.{i}.attn.c_attn.bias": np.zeros(3 * d),
            f"h.{i}.attn.c_proj.weight": rng.standard_normal((d, d)) * resid,
            f"h.{i}.attn.c_proj.bias": np.zeros(d),
            f"h.{i}.ln_2.weight": np.ones(d),
            f"h.{i}.ln_2.bias": np.zeros(d),
            f"h.{i}.mlp.c_fc.weight": rng.standard_normal((d, 4 * d)) * base,
            f"h.{i}.mlp.c_fc.bias": np.zeros(4 * d),
            f"h.{i}.mlp.c_proj.weight": rng.standard_normal((4 * d, d)) * resid,
            f"h.{i}.mlp.c_proj.bias": np.zeros(d),
        })
    params["ln_f.weight"] = np.ones(d)
    params["ln_f.bias"] = np.zeros(d)
    return params
''',
    },
    {
        "id": 'l04_init_gpt_mistake_float32',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Returns float32 arrays (drawn with dtype=np.float32) although the exercise asks for float64.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    f32 = np.float32
    std, proj = 0.02, 0.02 / math.sqrt(2 * L)
    P = {"wte": rng.standard_normal((V, d), dtype=f32) * std,
         "wpe": rng.standard_normal((T, d), dtype=f32) * std}
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d, dtype=f32)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d, dtype=f32)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d), dtype=f32) * std
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d, dtype=f32)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d), dtype=f32) * proj
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d, dtype=f32)
        P[f"h.{i}.ln_2.weight"] = np.ones(d, dtype=f32)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d, dtype=f32)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d), dtype=f32) * std
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d, dtype=f32)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d), dtype=f32) * proj
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d, dtype=f32)
    P["ln_f.weight"] = np.ones(d, dtype=f32)
    P["ln_f.bias"] = np.zeros(d, dtype=f32)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_linear_layout',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Gives the linear weights the nn.Linear layout (out, in), e.g. c_attn (3d, d) and c_fc (4d, d), instead of the Conv1D layout (in, out).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    std = 0.02
    std_proj = std / math.sqrt(2 * L)
    out = {}
    out["wte"] = rng.standard_normal((V, d)) * std
    out["wpe"] = rng.standard_normal((T, d)) * std
    for i in range(L):
        pre = f"h.{i}"
        out[f"{pre}.ln_1.weight"], out[f"{pre}.ln_1.bias"] = np.ones(d), np.zeros(d)
        out[f"{pre}.attn.c_attn.weight"] = rng.standard_normal((3 * d, d)) * std      # (out, in)
        out[f"{pre}.attn.c_attn.bias"] = np.zeros(3 * d)
        out[f"{pre}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * std_proj
        out[f"{pre}.attn.c_proj.bias"] = np.zeros(d)
        out[f"{pre}.ln_2.weight"], out[f"{pre}.ln_2.bias"] = np.ones(d), np.zeros(d)
        out[f"{pre}.mlp.c_fc.weight"] = rng.standard_normal((4 * d, d)) * std
        out[f"{pre}.mlp.c_fc.bias"] = np.zeros(4 * d)
        out[f"{pre}.mlp.c_proj.weight"] = rng.standard_normal((d, 4 * d)) * std_proj
        out[f"{pre}.mlp.c_proj.bias"] = np.zeros(d)
    out["ln_f.weight"], out["ln_f.bias"] = np.ones(d), np.zeros(d)
    return out
''',
    },
    {
        "id": 'l04_init_gpt_mistake_head_key',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Adds a separate lm_head.weight tensor, although the head is tied to wte and the dictionary must have no head.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    s = 0.02
    sp = s / math.sqrt(2 * L)
    P = {"wte": rng.standard_normal((V, d)) * s, "wpe": rng.standard_normal((T, d)) * s}
    for i in range(L):
        for ln in ("ln_1", "ln_2"):
            P[f"h.{i}.{ln}.weight"] = np.ones(d)
            P[f"h.{i}.{ln}.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * s
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * sp
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * s
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * sp
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    P["lm_head.weight"] = P["wte"]      # tied head
    return P
''',
    },
    {
        "id": 'l04_init_gpt_bug_key_typo',
        "exercise": 'init_gpt',
        "kind": 'bug',
        "mistake": "Typo in one key: the attention's output bias is stored as 'attn.c_proj.bais' instead of 'attn.c_proj.bias'.",
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    std = 0.02
    std_resid = std / math.sqrt(2 * L)
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * std
    P["wpe"] = rng.standard_normal((T, d)) * std
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * std
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * std_resid
        P[f"h.{i}.attn.c_proj.bais"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * std
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * std_resid
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_gpt_logits_right_count_ln1',
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
        "id": 'l04_gpt_logits_mistake_no_ln_f',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Skips the final LayerNorm ln_f and applies the tied head straight to the last block\'s output.',
        "source": r'''def gpt_logits(P, idx, n_head):
    layers = sorted({int(k.split(".")[1]) for k in P if k.startswith("h.")})
    h = embed(P["wte"], P["wpe"], idx)
    for layer in layers:
        h = block(h, P, layer, n_head)
    return h @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_head_not_transposed',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Multiplies by wte instead of wte.T for the tied head, so the (…, d) states meet a (V, d) matrix (shape error).',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = len([k for k in P if k.endswith("attn.c_attn.weight")])
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"]
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_ln_f_every_block',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Applies the final LayerNorm ln_f inside the loop, after every block, instead of once after the last block.',
        "source": r'''def gpt_logits(P, idx, n_head):
    L = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(L):
        x = block(x, P, layer, n_head)
        x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_last_block_skipped',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Reads the number of layers as the largest block index (off by one), so the last block is never applied.',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = max(int(name.split(".")[1]) for name in P if name.startswith("h."))
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_hardcoded_12_layers',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": "Hard-codes GPT-2 small's 12 layers instead of reading the number of layers from P's keys (KeyError on smaller models).",
        "source": r'''def gpt_logits(P, idx, n_head):
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(12):
        x = block(x, P, layer, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    logits = x @ P["wte"].T
    return logits
''',
    },
    {
        "id": 'l04_gpt_logits_bug_ln_f_weight_twice',
        "exercise": 'gpt_logits',
        "kind": 'bug',
        "mistake": "Slip: passes ln_f.weight as the final LayerNorm's bias as well.",
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = sum(k.endswith("ln_2.bias") for k in P if k.startswith("h."))
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.weight"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_right_add_at',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]                        # (N, d)
    H = np.tanh(X @ A)                # (N, d)
    Z = H @ E.T                       # (N, V)
    Zs = Z - Z.max(axis=1, keepdims=True)
    logp = Zs - np.log(np.exp(Zs).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H                     # head path, every row
    dH = dZ @ E
    dU = dH * (1 - H * H)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)            # lookup path, repeats accumulate
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_right_onehot_matmul',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    flat_idx = idx.ravel()
    flat_tgt = targets.ravel()
    n = flat_idx.shape[0]

    def softmax(z):
        z = z - z.max(axis=-1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=-1, keepdims=True)

    X = E[flat_idx]
    H = np.tanh(X @ A)
    Z = H @ E.T
    z = Z - Z.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=-1))
    nll = lse - z[np.arange(n), flat_tgt]
    loss = nll.mean()

    onehot_t = np.zeros((n, V), dtype=E.dtype)
    onehot_t[np.arange(n), flat_tgt] = 1
    dZ = (softmax(Z) - onehot_t) / n
    grad_head = dZ.T @ H
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    onehot_in = np.zeros((n, V), dtype=E.dtype)
    onehot_in[np.arange(n), flat_idx] = 1
    grad_lookup = onehot_in.T @ dX           # sums the rows of repeated ids
    return loss, grad_head + grad_lookup
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_head_path_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Returns only the head (output) path dZ^T H and forgets the gradient that flows back through the lookup E[idx].',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids, tg = idx.reshape(-1), targets.reshape(-1)
    N = len(ids)
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    P = np.exp(Z)
    P /= P.sum(axis=-1, keepdims=True)
    loss = -np.log(P[np.arange(N), tg]).mean()
    dZ = P.copy()
    dZ[np.arange(N), tg] -= 1
    dZ /= N
    dE = dZ.T @ H
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_fancy_assign',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Scatters the lookup path with dE[idx] += dX, which keeps only one contribution when an id repeats instead of accumulating them (np.add.at).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    i = idx.reshape(-1)
    t = targets.reshape(-1)
    N = i.shape[0]
    X = E[i]
    H = np.tanh(X @ A)
    Z = H @ E.T
    m = Z.max(axis=1, keepdims=True)
    logsum = m + np.log(np.exp(Z - m).sum(axis=1, keepdims=True))
    logp = Z - logsum
    loss = -logp[np.arange(N), t].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), t] -= 1.0
    dZ = dZ / N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1.0 - H ** 2)) @ A.T
    dE[i] += dX
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_tanh_grad_of_preactivation',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": "Uses 1 - U**2 with the pre-activation U = X A for tanh's derivative instead of 1 - tanh(U)**2 = 1 - H**2.",
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    U = X @ A
    H = np.tanh(U)
    Z = H @ E.T
    Z = Z - Z.max(-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(-1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    G = np.exp(logp)
    G[np.arange(N), tgt] -= 1
    G /= N
    dE = G.T @ H
    dU = (G @ E) * (1 - U ** 2)
    np.add.at(dE, ids, dU @ A.T)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_A_not_transposed',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Back-propagates through U = X A with dX = dU @ A instead of dU @ A.T (A is square, so the shapes still fit).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    idx = idx.reshape(-1)
    targets = targets.reshape(-1)
    n = len(idx)
    X = E[idx]
    H = np.tanh(X @ A)
    logits = H @ E.T
    logits = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(logits)
    probs /= probs.sum(axis=1, keepdims=True)
    loss = -np.log(probs[np.arange(n), targets]).mean()
    dlogits = probs
    dlogits[np.arange(n), targets] -= 1
    dlogits /= n
    dE = dlogits.T @ H
    dH = dlogits @ E
    dX = (dH * (1 - H ** 2)) @ A
    np.add.at(dE, idx, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_grad_not_divided_by_N',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'The loss is the mean over positions but the gradient is that of the sum: dZ = softmax - onehot is never divided by N.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tg = targets.reshape(-1)
    N = len(ids)
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    expZ = np.exp(Z)
    probs = expZ / expZ.sum(axis=-1, keepdims=True)
    loss = -np.log(probs[np.arange(N), tg]).mean()
    dZ = probs.copy()
    dZ[np.arange(N), tg] -= 1
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_unbatched_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Never flattens idx and targets: indexes with np.arange(len(idx)) as if they were 1-D, so (B, T) inputs crash or pick the wrong entries.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    N = len(idx)
    X = E[idx]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    p = np.exp(Z)
    p = p / p.sum(axis=-1, keepdims=True)
    loss = -np.log(p[np.arange(N), targets]).mean()
    dZ = p.copy()
    dZ[np.arange(N), targets] -= 1
    dZ /= N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    np.add.at(dE, idx, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_bug_returns_dX',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'bug',
        "mistake": 'Returns the intermediate dX (one row per position) instead of the accumulated dE.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Zs = Z - Z.max(axis=1, keepdims=True)
    logp = Zs - np.log(np.exp(Zs).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H * H)) @ A.T
    np.add.at(dE, ids, dX)
    return loss, dX
''',
    },
    # ---- lesson 05 ----
    {
        "id": 'l05_count_gpt2_params_right_formula',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    n = V * d + T * d                        # wte, wpe
    per_block = 12 * d * d                   # c_attn 3d^2, attn.c_proj d^2, c_fc 4d^2, mlp.c_proj 4d^2
    per_block += 2 * d                       # ln_1 and ln_2 gains
    if bias:
        per_block += 3 * d + d + 4 * d + d   # the four linear biases
        per_block += 2 * d                   # ln_1 and ln_2 biases
    n += L * per_block
    n += d + (d if bias else 0)              # ln_f
    if not tied:
        n += V * d                           # separate head, no bias
    return n
''',
    },
    {
        "id": 'l05_count_gpt2_params_right_tensor_list',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    shapes = [(V, d), (T, d)]
    for _ in range(L):
        for fan_in, fan_out in [(d, 3 * d), (d, d), (d, 4 * d), (4 * d, d)]:
            shapes.append((fan_in, fan_out))
            if bias:
                shapes.append((fan_out,))
        for _ln in range(2):
            shapes.append((d,))
            if bias:
                shapes.append((d,))
    shapes.append((d,))
    if bias:
        shapes.append((d,))
    if not tied:
        shapes.append((V, d))
    total = 0
    for s in shapes:
        size = 1
        for n in s:
            size *= n
        total += size
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_head_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Gives the untied head a bias of length V (counts V*d + V) although the head has no bias.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    def linear(i, o):
        return i * o + (o if bias else 0)

    def ln():
        return d + (d if bias else 0)

    block = linear(d, 3 * d) + linear(d, d) + linear(d, 4 * d) + linear(4 * d, d) + 2 * ln()
    total = V * d + T * d + L * block + ln()
    if not tied:
        total += linear(d, V)
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_no_bias_drops_gains',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False it removes the LayerNorms entirely (gains too), although each LayerNorm keeps its gain.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    embeddings = V * d + T * d
    weights = 12 * d * d
    if bias:
        per_block = weights + 9 * d + 4 * d      # linear biases + two LayerNorms (gain and bias)
        final_ln = 2 * d
    else:
        per_block = weights
        final_ln = 0
    total = embeddings + L * per_block + final_ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_forgets_wpe',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Leaves out the position table wpe (T*d): only wte is counted among the embeddings.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    attn = d * 3 * d + b * 3 * d + d * d + b * d
    ffn = d * 4 * d + b * 4 * d + 4 * d * d + b * d
    norms = 2 * (d + b * d)
    count = V * d
    count += L * (attn + ffn + norms)
    count += d + b * d
    if not tied:
        count += V * d
    return count
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_no_bias_keeps_ln_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": "With bias=False it removes only the linear layers' biases and keeps the LayerNorms' biases, which must go too.",
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    lin_w = 3 * d * d + d * d + 4 * d * d + 4 * d * d
    lin_b = (3 * d + d + 4 * d + d) if bias else 0
    ln_params = 2 * d                          # gain + bias of one LayerNorm
    n = V * d + T * d
    n += L * (lin_w + lin_b + 2 * ln_params)
    n += ln_params                             # ln_f
    if not tied:
        n += V * d
    return n
''',
    },
    {
        "id": 'l05_count_gpt2_params_bug_ln_f_uses_L',
        "exercise": 'count_gpt2_params',
        "kind": 'bug',
        "mistake": 'Typo in the final LayerNorm term: writes 2 * L where it means 2 * d.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    if bias:
        block = 12 * d * d + 13 * d
        ln_f = 2 * L
    else:
        block = 12 * d * d + 2 * d
        ln_f = d
    n = V * d + T * d + L * block + ln_f
    if not tied:
        n += V * d
    return n
''',
    },
    # ---- lesson 06 ----
    {
        "id": 'l06_numpy_to_torch_right_by_name',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def numpy_to_torch(P, model):
    linear = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")

    def torch_name(key):
        if key in ("wte", "wpe"):
            return f"transformer.{key}.weight"
        return "transformer." + key

    source_of = {torch_name(k): k for k in P}
    missing = [name for name in model if name not in source_of]
    unexpected = [source_of[name] for name in source_of if name not in model]
    if missing or unexpected:
        raise ValueError(f"keys do not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        key = source_of[name]
        arr = np.asarray(P[key])
        if key.endswith(linear):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{key} -> {name}: shape {arr.shape} (after transpose) but the model has {target.shape}")
        out[name] = np.array(arr, dtype=target.dtype)      # a fresh copy
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_all_2d',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Decides what to transpose by ndim, transposing every 2-D array including the embedding tables wte and wpe, which are not Conv1D weights.',
        "source": r'''def numpy_to_torch(P, model):
    renamed = {}
    for k, v in P.items():
        name = f"transformer.{k}.weight" if k in ("wte", "wpe") else f"transformer.{k}"
        renamed[name] = v
    missing = sorted(set(model) - set(renamed))
    extra = sorted(set(renamed) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys: {missing}; unexpected keys: {extra}")
    out = {}
    for name, ref in model.items():
        arr = renamed[name]
        if arr.ndim == 2:
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{name}: got shape {arr.shape}, model expects {ref.shape}")
        out[name] = arr.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_by_shape',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Transposes a weight only when its shape does not already match the model, so the square (d, d) attn.c_proj weight is copied untransposed.',
        "source": r'''def numpy_to_torch(P, model):
    def to_module(k):
        return "transformer." + (k + ".weight" if k in ("wte", "wpe") else k)

    names = {to_module(k): k for k in P}
    if set(names) != set(model):
        raise ValueError(
            f"missing: {sorted(set(model) - set(names))}, unexpected: {sorted(set(names) - set(model))}"
        )
    out = {}
    for name, ref in model.items():
        a = P[names[name]]
        if a.shape != ref.shape and a.T.shape == ref.shape:
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{name}: shape {a.shape} does not fit the model's {ref.shape}")
        out[name] = a.astype(ref.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_no_key_check',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Does not check the keys: a tensor missing from P gives a bare KeyError and an extra tensor in P is silently ignored, instead of a ValueError naming them.',
        "source": r'''def numpy_to_torch(P, model):
    out = {}
    for name, ref in model.items():
        key = name[len("transformer."):]
        if key in ("wte.weight", "wpe.weight"):
            key = key[:-len(".weight")]
        arr = P[key]
        if key.endswith(("c_attn.weight", "c_proj.weight", "c_fc.weight")):
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{key}: shape {arr.shape} after transpose, expected {ref.shape}")
        out[name] = np.array(arr, dtype=ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_mutates_P',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Renames and transposes by writing into P itself (pop and reassign), so the caller\'s parameter dict is changed.',
        "source": r'''def numpy_to_torch(P, model):
    for short in ("wte", "wpe"):
        if short in P:
            P[short + ".weight"] = P.pop(short)
    for key in list(P):
        if key.endswith(("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")):
            P[key] = P[key].T
    mapped = {"transformer." + k: v for k, v in P.items()}
    missing = [k for k in model if k not in mapped]
    unexpected = [k for k in mapped if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing {missing}, unexpected {unexpected}")
    out = {}
    for name, ref in model.items():
        if mapped[name].shape != ref.shape:
            raise ValueError(f"{name}: {mapped[name].shape} vs model {ref.shape}")
        out[name] = mapped[name].astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_right_filter_first',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''def load_hf_state_dict(model, state_dict):
    linear = (".attn.c_attn.weight", ".attn.c_proj.weight", ".mlp.c_fc.weight", ".mlp.c_proj.weight")
    buffers = (".attn.bias", ".attn.masked_bias")
    sd = {k: v for k, v in state_dict.items() if not k.endswith(buffers) and k != "lm_head.weight"}
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"state dict does not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, ref in model.items():
        arr = np.asarray(sd[name])
        if name.endswith(linear):
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{name}: shape {arr.shape} (after transpose), model has {ref.shape}")
        out[name] = arr.astype(ref.dtype)
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
        return key.endswith(".attn.bias") or key.endswith(".attn.masked_bias")

    def needs_transpose(key):
        parts = key.split(".")
        return parts[-1] == "weight" and ".".join(parts[-3:-1]) in (
            "attn.c_attn", "attn.c_proj", "mlp.c_fc", "mlp.c_proj")

    wanted = set(model)
    found = set()
    unexpected = []
    out = {}
    for key, value in state_dict.items():
        if is_buffer(key) or key == "lm_head.weight":
            continue
        if key not in wanted:
            unexpected.append(key)
            continue
        found.add(key)
        arr = value.T if needs_transpose(key) else value
        if arr.shape != model[key].shape:
            raise ValueError(f"shape mismatch for {key}: {arr.shape} vs model {model[key].shape}")
        out[key] = np.array(arr, dtype=model[key].dtype, copy=True)
    missing = sorted(wanted - found)
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}; unexpected keys {unexpected}")
    return {k: out[k] for k in model}
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_substring_drops_c_attn_bias',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": "Skips buffers by testing whether 'attn.bias' occurs in the key, which also drops the parameter attn.c_attn.bias.",
        "source": r'''def load_hf_state_dict(model, state_dict):
    sd = {}
    for k, v in state_dict.items():
        if "attn.bias" in k or "attn.masked_bias" in k or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    extra = [k for k in sd if k not in model]
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for k, ref in model.items():
        a = sd[k]
        if k.endswith(("c_attn.weight", "c_proj.weight", "c_fc.weight")):
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{k}: shape {a.shape}, model {ref.shape}")
        out[k] = a.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_keeps_lm_head',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Does not set the tied head lm_head.weight aside, so an ordinary Hugging Face state dict is rejected with lm_head.weight as an unexpected key.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items()
          if not (k.endswith(".attn.bias") or k.endswith(".attn.masked_bias"))}
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys: {missing}; unexpected keys: {unexpected}")
    out = {}
    for key, ref in model.items():
        arr = sd[key]
        if key.endswith((".c_attn.weight", ".c_proj.weight", ".c_fc.weight")):
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{key}: {arr.shape} does not match {ref.shape}")
        out[key] = arr.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_masked_bias_not_skipped',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips the .attn.bias buffers but not the .attn.masked_bias ones, so older checkpoints are rejected with an unexpected-key error.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    to_T = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {k: v for k, v in state_dict.items() if not k.endswith(".attn.bias")}
    sd.pop("lm_head.weight", None)
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing {missing}; unexpected {unexpected}")
    result = {}
    for k in model:
        v = sd[k].T if k.endswith(to_T) else sd[k]
        if v.shape != model[k].shape:
            raise ValueError(f"{k}: {v.shape} != {model[k].shape}")
        result[k] = v.astype(model[k].dtype)
    return result
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_keeps_source_dtype',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": "Copies the arrays in the state dict's dtype instead of converting each to the model's dtype (a float32 checkpoint stays float32 in a float64 model).",
        "source": r'''def load_hf_state_dict(model, state_dict):
    linear = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    keep = {k: v for k, v in state_dict.items()
            if k != "lm_head.weight" and not k.endswith((".attn.bias", ".attn.masked_bias"))}
    if set(keep) != set(model):
        raise ValueError(f"missing {sorted(set(model) - set(keep))}, unexpected {sorted(set(keep) - set(model))}")
    out = {}
    for k in model:
        v = keep[k].T.copy() if k.endswith(linear) else keep[k].copy()
        if v.shape != model[k].shape:
            raise ValueError(f"{k}: shape {v.shape}, expected {model[k].shape}")
        out[k] = v
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_transpose_by_shape',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Transposes a tensor whenever its shape differs from the model\'s, so the square attn.c_proj weight is left untransposed (decides by shape, not by name).',
        "source": r'''def load_hf_state_dict(model, state_dict):
    out = {}
    unexpected = []
    for k, v in state_dict.items():
        if k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight":
            continue
        if k not in model:
            unexpected.append(k)
            continue
        target = model[k].shape
        if v.shape != target and v.T.shape == target:
            v = v.T
        if v.shape != target:
            raise ValueError(f"{k}: shape {v.shape} cannot be loaded into {target}")
        out[k] = np.array(v, dtype=model[k].dtype)
    missing = [k for k in model if k not in out]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_bug_stale_variable',
        "exercise": 'load_hf_state_dict',
        "kind": 'bug',
        "mistake": 'Stores the variable w, set only in the transpose branch, for every key, so untransposed tensors get the previous weight (or an UnboundLocalError).',
        "source": r'''def load_hf_state_dict(model, state_dict):
    linear = (".attn.c_attn.weight", ".attn.c_proj.weight", ".mlp.c_fc.weight", ".mlp.c_proj.weight")
    sd = {k: v for k, v in state_dict.items()
          if not k.endswith((".attn.bias", ".attn.masked_bias")) and k != "lm_head.weight"}
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing {missing}, unexpected {unexpected}")
    out = {}
    for k, ref in model.items():
        v = sd[k]
        if k.endswith(linear):
            w = v.T
        if w.shape != ref.shape:
            raise ValueError(f"{k}: shape {w.shape} vs model {ref.shape}")
        out[k] = w.astype(ref.dtype)
    return out
''',
    },
    # ---- lesson 07 ----
    {
        "id": 'l07_sinusoidal_positions_right_slices',
        "exercise": 'sinusoidal_positions',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d = {d}")
    t = np.arange(T, dtype=np.float64)[:, None]          # (T, 1)
    i = np.arange(d // 2, dtype=np.float64)[None, :]     # (1, d/2)
    omega = base ** (-2.0 * i / d)
    pe = np.empty((T, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_concatenated',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Puts all the sines in the first d/2 columns and all the cosines in the last d/2 (concatenated) instead of interleaving them sin, cos, sin, cos.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"d must be even, got {d}")
    pos = np.arange(T)[:, None].astype(np.float64)
    freqs = np.power(float(base), -np.arange(0, d, 2) / d)
    angles = pos * freqs
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_exponent_i_over_d',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Uses the frequency base**(-i/d) instead of base**(-2i/d), so the pairs turn too fast (the slowest pair is far from period 2*pi*base).',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 == 1:
        raise ValueError(f"the width d = {d} is odd; it must be even")
    pe = np.zeros((T, d))
    t = np.arange(T)
    for i in range(d // 2):
        w = base ** (-i / d)
        pe[:, 2 * i] = np.sin(t * w)
        pe[:, 2 * i + 1] = np.cos(t * w)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_no_odd_check',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Never checks that d is even: for an odd d it silently returns a (T, d - 1) table instead of raising a ValueError.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    t = np.arange(T, dtype=np.float64)[:, None]
    w = base ** (-2 * np.arange(d // 2) / d)
    ang = t * w
    pe = np.stack([np.sin(ang), np.cos(ang)], axis=-1)   # (T, d/2, 2)
    return pe.reshape(T, -1)
''',
    },
    {
        "id": 'l07_position_similarity_right_unit_rows',
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
        "id": 'l07_position_similarity_mistake_columns',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Normalises the columns and returns the (d, d) similarity between features (wpe.T @ wpe) instead of the (T, T) similarity between positions (rows).',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    norms = np.sqrt((wpe ** 2).sum(axis=0, keepdims=True))
    w = wpe / norms
    return w.T @ w
''',
    },
    {
        "id": 'l07_position_similarity_mistake_corrcoef',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": "Uses np.corrcoef (Pearson correlation, which centres each row first) instead of the cosine similarity of the raw rows.",
        "source": r'''def position_similarity(wpe):
    if np.ndim(wpe) != 2:
        raise ValueError(f"position table must be 2-D, got shape {wpe.shape}")
    return np.corrcoef(wpe).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_position_similarity_mistake_float64',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Computes in float64 and returns a float64 matrix for a float32 table instead of keeping the table\'s dtype.',
        "source": r'''def position_similarity(wpe):
    if len(wpe.shape) != 2:
        raise ValueError(f"wpe should be (T, d), got shape {wpe.shape}")
    w = wpe.astype(np.float64)
    dots = w @ w.T
    norms = np.sqrt(np.diag(dots))
    return dots / np.outer(norms, norms)
''',
    },
    {
        "id": 'l07_principal_components_right_svd',
        "exercise": 'principal_components',
        "kind": 'right',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} is larger than min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    X = X - X.mean(axis=0)                       # a new array; wpe is untouched
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    dirs = vt[:k]                                # (k, d), largest variance first
    big = np.argmax(np.abs(dirs), axis=1)
    signs = np.sign(dirs[np.arange(k), big])
    dirs = dirs * signs[:, None]
    return (X @ dirs.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_right_eigh',
        "exercise": 'principal_components',
        "kind": 'right',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    if np.ndim(wpe) != 2:
        raise ValueError(f"expected a (T, d) table, got shape {wpe.shape}")
    T, d = wpe.shape
    limit = min(T, d)
    if k > limit:
        raise ValueError(f"asked for k={k} components but a {T}x{d} table has at most min(T, d) = {limit}")
    Xc = np.asarray(wpe, dtype=np.float64)
    Xc = Xc - Xc.mean(axis=0, keepdims=True)
    cov = Xc.T @ Xc / (T - 1)
    vals, vecs = np.linalg.eigh(cov)             # ascending
    order = np.argsort(vals)[::-1][:k]
    W = vecs[:, order]                           # (d, k)
    rows = np.abs(W).argmax(axis=0)
    W = W * np.sign(W[rows, np.arange(k)])
    return (Xc @ W).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_not_centred',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Does not subtract the mean row before the SVD, so the first direction follows the mean instead of the largest variance.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} exceeds min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    u, s, vt = np.linalg.svd(X, full_matrices=False)
    V = vt[:k].T
    idx = np.abs(V).argmax(axis=0)
    V = V * np.sign(V[idx, np.arange(k)])
    return (X @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_eigh_ascending',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Takes the first k eigenvectors from np.linalg.eigh, which sorts eigenvalues in ascending order, so it projects on the smallest-variance directions.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} > min(T, d) = {min(T, d)}")
    centred = wpe - wpe.mean(axis=0)
    cov = centred.T @ centred / T
    evals, evecs = np.linalg.eigh(cov)
    top = evecs[:, :k]
    pivot = np.argmax(np.abs(top), axis=0)
    top = top * np.sign(top[pivot, np.arange(k)])
    return (centred @ top).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_sign_first_entry',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": "Fixes each direction's sign by making its first entry positive instead of its largest-magnitude entry.",
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe has shape {wpe.shape}, expected 2-D")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} but only min(T, d)={min(T, d)} directions exist")
    X = wpe.astype(np.float64)
    X = X - X.mean(axis=0)
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    comps = vt[:k].copy()
    for j in range(k):
        if comps[j, 0] < 0:
            comps[j] = -comps[j]
    return (X @ comps.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_k_checked_against_d',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Checks k only against d instead of min(T, d), so a k between T and d is not refused (it silently returns fewer than k columns).',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > d:
        raise ValueError(f"k={k} is larger than the width d={d}")
    X = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0)
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    dirs = vt[:k]
    m = np.abs(dirs).argmax(axis=1)
    dirs = dirs * np.sign(dirs[np.arange(dirs.shape[0]), m])[:, None]
    return (X @ dirs.T).astype(wpe.dtype)
''',
    },
    # ---- lesson 08 ----
    {
        "id": 'l08_cross_entropy_right_logsumexp',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    logits = np.asarray(logits)
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape}, but logits of shape {logits.shape} need "
                         f"logits.shape[:-1] = {logits.shape[:-1]}")
    V = logits.shape[-1]
    bad = targets[(targets < 0) | (targets >= V)]
    if bad.size:
        raise ValueError(f"target id {bad.flat[0]} is outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=-1))
    picked = np.take_along_axis(z, targets[..., None], axis=-1)[..., 0]
    return (lse - picked).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_no_max_shift',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Computes log-sum-exp without subtracting the row maximum, so exp overflows for logits near 1000 and the loss is inf or nan.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape} (expected {logits.shape[:-1]})")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].ravel()[0]} out of range [0, {V})")
    log_z = np.log(np.exp(logits).sum(axis=-1))
    target_logit = np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return (log_z - target_logit).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_log_of_softmax',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Takes the log of the softmax probabilities, so a target whose probability underflows to 0 gives log(0) = -inf and an infinite loss (use log-softmax directly).',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"shape mismatch: targets {targets.shape}, logits {logits.shape}, expected {logits.shape[:-1]}")
    V = logits.shape[-1]
    for t in np.ravel(targets):
        if t < 0 or t >= V:
            raise ValueError(f"target id {t} is not in [0, {V})")
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    probs = np.exp(shifted)
    probs = probs / probs.sum(axis=-1, keepdims=True)
    p_target = np.take_along_axis(probs, np.expand_dims(targets, -1), axis=-1)
    return -np.log(p_target).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_negative_ids_pass',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Checks only targets >= V, so a negative target id is not refused and silently reads a logit from the end of the row.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]} (logits {logits.shape})")
    V = logits.shape[-1]
    if targets.size and targets.max() >= V:
        raise ValueError(f"target id {targets.max()} is >= vocabulary size {V}")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.sum(np.exp(logits - m), axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)
    return nll.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_python_float',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": "Returns float(loss), a Python float, instead of NumPy's scalar in the logits' dtype.",
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} vs logits {logits.shape}: expected {logits.shape[:-1]}")
    V = logits.shape[-1]
    out_of_range = (targets < 0) | (targets >= V)
    if out_of_range.any():
        raise ValueError(f"target id {targets[out_of_range].ravel()[0]} outside [0, {V})")
    flat = logits.reshape(-1, V)
    t = targets.reshape(-1)
    z = flat - flat.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(len(t)), t].mean()
    return float(loss)
''',
    },
    {
        "id": 'l08_cross_entropy_bug_trailing_comma',
        "exercise": 'cross_entropy',
        "kind": 'bug',
        "mistake": 'A stray trailing comma in the return statement makes it return a one-element tuple instead of the loss.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} must be logits.shape[:-1] = {logits.shape[:-1]} (logits {logits.shape})")
    V = logits.shape[-1]
    if ((targets < 0) | (targets >= V)).any():
        bad = targets[(targets < 0) | (targets >= V)].ravel()[0]
        raise ValueError(f"target id {bad} outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    loss = -picked.mean()
    return loss,
''',
    },
    {
        "id": 'l08_get_batch_right_offsets',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    n = len(data)
    if n < block_size + 1:
        raise ValueError(f"data has {n} ids, but a window needs block_size + 1 = {block_size + 1} "
                         f"(block_size {block_size})")
    starts = rng.integers(0, n - block_size, size=batch_size)
    offsets = np.arange(block_size)
    x = np.asarray(data)[starts[:, None] + offsets].astype(np.int64)
    y = np.asarray(data)[starts[:, None] + offsets + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_high_plus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with rng.integers(0, len(data) - block_size + 1, ...), one too many, so the batch differs from the course\'s and the last start leaves no room for its final target.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data) = {len(data)} is less than block_size + 1 = {block_size + 1}")
    ix = rng.integers(0, len(data) - block_size + 1, size=batch_size)
    x = np.stack([data[i:i + block_size] for i in ix]).astype(np.int64)
    y = np.stack([data[i + 1:i + 1 + block_size] for i in ix]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_keeps_data_dtype',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": "Returns the windows in data's own dtype (e.g. uint8) instead of converting them to int64.",
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"need at least block_size + 1 = {block_size + 1} ids, data has {len(data)}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts])
    y = np.stack([data[s + 1:s + block_size + 1] for s in starts])
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_targets_short',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Slices the targets as data[s + 1 : s + block_size], one id short, so y has block_size - 1 columns.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) <= block_size:
        raise ValueError(f"data has only {len(data)} ids; block_size {block_size} needs at least {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    xs, ys = [], []
    for s in starts:
        xs.append(data[s:s + block_size])
        ys.append(data[s + 1:s + block_size])
    return np.array(xs, dtype=np.int64), np.array(ys, dtype=np.int64)
''',
    },
    {
        "id": 'l08_get_batch_bug_returns_x_twice',
        "exercise": 'get_batch',
        "kind": 'bug',
        "mistake": 'Typo in the return: returns (x, x) instead of (x, y).',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data) = {len(data)} < block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    idx = starts[:, None] + np.arange(block_size)[None, :]
    x = data[idx].astype(np.int64)
    y = data[idx + 1].astype(np.int64)
    return x, x
''',
    },
    {
        "id": 'l08_sample_next_right_inverse_cdf',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]      # exactly top_k per row
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
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
        "id": 'l08_sample_next_right_gumbel',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature!r}")
    z = logits / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        order = np.argsort(-z, axis=-1, kind="stable")
        drop = order[:, top_k:]
        z = z.copy()
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    g = rng.gumbel(size=z.shape)                 # Gumbel-max: argmax(z + g) ~ softmax(z)
    return np.argmax(z + g, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_multiplies_temperature',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Multiplies the logits by the temperature instead of dividing by it, so a low temperature flattens and a high one sharpens.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits * temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        idx = np.argsort(z, axis=-1)[:, :V - top_k]
        z = z.copy()
        np.put_along_axis(z, idx, -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    return np.array([rng.choice(V, p=p[b]) for b in range(B)], dtype=np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_topk_keeps_ties',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Masks only the logits strictly below the k-th largest (nanoGPT style), so logits tied with the k-th all stay and more than top_k candidates remain.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits / temperature
    if top_k is not None:
        k = min(top_k, z.shape[-1])
        kth = np.sort(z, axis=-1)[:, -k][:, None]
        z = np.where(z < kth, -np.inf, z)
    z = z - z.max(axis=-1, keepdims=True)
    probs = np.exp(z)
    probs /= probs.sum(axis=-1, keepdims=True)
    cdf = probs.cumsum(axis=-1)
    u = rng.random(len(z))[:, None]
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, z.shape[-1] - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_no_max_shift',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Exponentiates the scaled logits without subtracting the row maximum, so logits near 800 overflow to inf and the probabilities become nan.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature {temperature} must be positive")
    z = logits / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        top = np.argpartition(z, V - top_k, axis=-1)[:, V - top_k:]
        keep = np.zeros(z.shape, dtype=bool)
        np.put_along_axis(keep, top, True, axis=-1)
        z = np.where(keep, z, -np.inf)
    e = np.exp(z)
    p = e / e.sum(axis=-1, keepdims=True)
    out = np.empty(B, dtype=np.int64)
    for b in range(B):
        out[b] = rng.choice(V, p=p[b])
    return out
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
    z = logits / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        cut = np.argsort(z, axis=-1)[:, :-top_k]
        z = z.copy()
        np.put_along_axis(z, cut, -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    return np.array([np.random.choice(V, p=row) for row in p], dtype=np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_topk_ge_V_crash',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Does not handle a top_k larger than V: np.argpartition gets an out-of-range kth and raises instead of keeping every id.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    if top_k is not None:
        top = np.argpartition(z, -top_k, axis=-1)[:, -top_k:]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, top, np.take_along_axis(z, top, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    g = rng.random((z.shape[0], 1))
    ids = (np.cumsum(p, axis=-1) < g).sum(axis=-1)
    return np.minimum(ids, z.shape[-1] - 1).astype(np.int64)
''',
    },
]

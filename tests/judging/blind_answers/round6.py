"""Blind learner answers, round 6: written from the lessons and exercise notebooks alone."""

ANSWERS = [
    # ---- lesson 01 ----
    {
        "id": 'l01_embed_right_vectorised',
        "exercise": 'embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
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
    idx = np.asarray(idx)
    *_, n_pos = idx.shape
    n_rows = wpe.shape[0]
    if n_pos > n_rows:
        raise ValueError(
            f"cannot read {n_pos} tokens: the position table has {n_rows} rows "
            f"(block size {n_rows}); crop the input to its last {n_rows} tokens")
    tokens = np.take(wte, idx, axis=0)
    positions = np.take(wpe, np.arange(n_pos), axis=0)
    return tokens + positions
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
        "id": 'l01_embed_mistake_no_length_check',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Never checks T against the block size, so a too-long sequence fails with NumPy\'s broadcasting error instead of a ValueError naming the block size.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    tok = wte[idx]
    pos = wpe[:T]
    return tok + pos
''',
    },
    {
        "id": 'l01_embed_mistake_check_off_by_one',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'The length check uses T >= block_size, so it rejects a sequence of exactly block_size tokens, which is allowed.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T >= block_size:
        raise ValueError(f"sequence length {T} is too long for the block size {block_size}")
    return wte[idx] + wpe[np.arange(T)]
''',
    },
    {
        "id": 'l01_embed_mistake_len_is_batch',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Takes the sequence length as len(idx), which is the batch size B for a (B, T) batch, so batched input uses the wrong positions (and the wrong length check) or fails to broadcast.',
        "source": r'''def embed(wte, wpe, idx):
    T = len(idx)
    if T > len(wpe):
        raise ValueError(f"sequence length {T} exceeds the block size {len(wpe)}")
    positions = np.arange(T)
    return wte[idx] + wpe[positions]
''',
    },
    {
        "id": 'l01_one_hot_embed_right_put_along_axis',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.zeros(idx.shape + (V,), dtype=wte.dtype)
    np.put_along_axis(one_hot, idx[..., None], 1, axis=-1)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_float64_one_hot',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds the one-hot matrix with np.eye(V), which is float64, so a float32 table gives a float64 result.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.eye(V)[idx]
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_vocab_from_ids',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Takes the vocabulary size from the ids (idx.max() + 1) instead of wte.shape[0], so the one-hot matrix is too narrow and the product fails whenever the largest id is below V - 1.',
        "source": r'''def one_hot_embed(wte, idx):
    V = int(idx.max()) + 1
    one_hot = np.zeros(idx.shape + (V,), dtype=wte.dtype)
    np.put_along_axis(one_hot, idx[..., None], 1.0, axis=-1)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_no_batch',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds a 2-D (len(idx), V) one-hot matrix with one row per item of idx, which only works for a single (T,) sequence and fails on a (B, T) batch.',
        "source": r'''def one_hot_embed(wte, idx):
    T = len(idx)
    V = wte.shape[0]
    one_hot = np.zeros((T, V), dtype=wte.dtype)
    one_hot[np.arange(T), idx] = 1
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_bug_returns_one_hot',
        "exercise": 'one_hot_embed',
        "kind": 'bug',
        "mistake": 'Computes the product but returns the one-hot matrix itself instead of it.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.zeros(idx.shape + (V,), dtype=wte.dtype)
    np.put_along_axis(one_hot, idx[..., None], 1, axis=-1)
    rows = one_hot @ wte
    return one_hot
''',
    },
    # ---- lesson 02 ----
    {
        "id": 'l02_layer_norm_right_var',
        "exercise": 'layer_norm',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_sample_variance',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Uses the sample variance (ddof=1, dividing by d - 1) instead of the population variance.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    x_hat = (x - mean) / np.sqrt(var + eps)
    return x_hat * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_eps_outside_root',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Adds eps outside the square root, sqrt(var) + eps, instead of sqrt(var + eps).',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    sigma = np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True))
    return weight * (x - mu) / (sigma + eps) + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_eps_ignored',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Hard-codes 1e-5 inside the root instead of using the eps argument it is given.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return weight * (x - mu) / np.sqrt(var + 1e-5) + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_whole_array_stats',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Takes the mean and variance over the whole array (no axis) instead of over the last axis of each position.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean()
    var = x.var()
    normed = (x - mean) / np.sqrt(var + eps)
    return normed * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_bug_bias_typo',
        "exercise": 'layer_norm',
        "kind": 'bug',
        "mistake": 'Adds weight where it should add bias in the last line (a typo).',
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
    T, d = x.shape[-2:]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]

    def split_heads(a):
        # (..., T, d) -> (..., T, n_head, d_k) -> (..., n_head, T, d_k)
        return a.reshape(*a.shape[:-1], n_head, d_k).swapaxes(-3, -2)

    q, k, v = split_heads(q), split_heads(k), split_heads(v)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    allowed = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    out = (weights @ v).swapaxes(-3, -2)
    out = out.reshape(*out.shape[:-2], d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_right_einsum',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    import math
    *batch, T, d = x.shape
    hs = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = q.reshape(*batch, T, n_head, hs)
    k = k.reshape(*batch, T, n_head, hs)
    v = v.reshape(*batch, T, n_head, hs)
    att = np.einsum("...thd,...shd->...hts", q, k) / math.sqrt(hs)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    att = np.where(future, -np.inf, att)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    y = np.einsum("...hts,...shd->...thd", att, v).reshape(*batch, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_scale_sqrt_d',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Divides the scores by sqrt(d), the model width, instead of sqrt(d_k), the head size.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2:]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*q.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*k.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*v.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    scores = q @ k.swapaxes(-1, -2) / d ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2)
    y = y.reshape(*y.shape[:-2], d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_np_sqrt_upcast',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Scales by np.sqrt(d_k), a float64 NumPy scalar, so float32 inputs come out float64.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    lead = x.shape[:-2]
    q = np.swapaxes(q.reshape(*lead, T, n_head, d_k), -2, -3)
    k = np.swapaxes(k.reshape(*lead, T, n_head, d_k), -2, -3)
    v = np.swapaxes(v.reshape(*lead, T, n_head, d_k), -2, -3)
    scores = (q @ np.swapaxes(k, -1, -2)) / np.sqrt(d_k)
    causal = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(causal, scores, -np.inf)
    scores -= scores.max(axis=-1, keepdims=True)
    probs = np.exp(scores)
    probs /= probs.sum(axis=-1, keepdims=True)
    out = np.swapaxes(probs @ v, -2, -3).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_reshape_only',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Splits the heads by reshaping (..., T, d) straight to (..., n_head, T, d_k) without the transpose (and merges with the inverse reshape), which scrambles positions and heads.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    lead = x.shape[:-2]
    T, d = x.shape[-2:]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*lead, n_head, T, d_k)
    k = k.reshape(*lead, n_head, T, d_k)
    v = v.reshape(*lead, n_head, T, d_k)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    att = np.exp(scores)
    att = att / att.sum(axis=-1, keepdims=True)
    out = (att @ v).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_strict_mask',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Builds the causal mask with np.tril(..., k=-1), which hides the diagonal, so each position cannot see itself and position 0 has no key at all (NaN).',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2:]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*q.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*k.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*v.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    past = np.tril(np.ones((T, T), dtype=bool), k=-1)
    scores = np.where(past, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2)
    y = y.reshape(*y.shape[:-2], d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_softmax_query_axis',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Takes the softmax over the queries (axis -2) instead of over the keys (the last axis).',
        "source": r'''def softmax(z, axis):
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2:]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*q.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*k.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*v.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-2)
    y = (weights @ v).swapaxes(-3, -2)
    y = y.reshape(*y.shape[:-2], d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_softmax_no_max_shift',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Computes the softmax as exp(scores) / sum without subtracting the row maximum first, so large scores overflow to inf and give NaN weights.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2:]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*q.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*k.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*v.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores)
    weights = e / e.sum(axis=-1, keepdims=True)
    y = (weights @ v).swapaxes(-3, -2)
    y = y.reshape(*y.shape[:-2], d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_bug_values_as_keys',
        "exercise": 'causal_self_attention',
        "kind": 'bug',
        "mistake": 'Scores the queries against v instead of k (the wrong variable in the score line).',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2:]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*q.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    k = k.reshape(*k.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    v = v.reshape(*v.shape[:-1], n_head, d_k).swapaxes(-3, -2)
    scores = q @ v.swapaxes(-1, -2) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2)
    y = y.reshape(*y.shape[:-2], d)
    return y @ w_o + b_o
''',
    },
    # ---- lesson 03 ----
    {
        "id": 'l03_gelu_tanh_right_math_const',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2.0 / math.pi)
    return 0.5 * x * (1.0 + np.tanh(c * (x + 0.044715 * x * x * x)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_exact_erf',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Computes the exact GELU x * Phi(x) with erf instead of the tanh approximation GPT-2 uses.',
        "source": r'''def gelu_tanh(x):
    erf = np.vectorize(math.erf, otypes=[np.float64])
    out = 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))
    return out.astype(x.dtype)
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_np_sqrt_upcast',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses np.sqrt(2 / np.pi), a float64 NumPy scalar, as the constant, so float32 input comes out float64.',
        "source": r'''def gelu_tanh(x):
    inner = np.sqrt(2 / np.pi) * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1 + np.tanh(inner))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_sqrt_2pi',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses the constant sqrt(2 * pi) instead of sqrt(2 / pi) inside the tanh.',
        "source": r'''def gelu_tanh(x):
    k = math.sqrt(2 * math.pi)
    cube = x * x * x
    return 0.5 * x * (1 + np.tanh(k * (x + 0.044715 * cube)))
''',
    },
    {
        "id": 'l03_gelu_tanh_bug_wrong_variable',
        "exercise": 'gelu_tanh',
        "kind": 'bug',
        "mistake": 'Computes t = tanh(u) but then uses u instead of t in the return line.',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    u = c * (x + 0.044715 * x * x * x)
    t = np.tanh(u)
    return 0.5 * x * (1 + u)
''',
    },
    {
        "id": 'l03_mlp_right_two_layers',
        "exercise": 'mlp',
        "kind": 'right',
        "mistake": '',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    hidden = gelu_tanh(x @ w_fc + b_fc)
    return hidden @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_relu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Uses ReLU (np.maximum(h, 0)) between the two layers instead of the tanh GELU.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = x @ w_fc + b_fc
    h = np.maximum(h, 0)
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_linear_layout',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Treats the weights as nn.Linear (out, in) matrices and multiplies by w_fc.T and w_proj.T, although they are stored Conv1D (in, out); the shapes do not fit.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc.T + b_fc)
    return h @ w_proj.T + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_bias_after_gelu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Adds the first bias b_fc after the GELU instead of before it.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    up = gelu_tanh(x @ w_fc) + b_fc
    down = up @ w_proj + b_proj
    return down
''',
    },
    {
        "id": 'l03_mlp_bug_uses_x_not_hidden',
        "exercise": 'mlp',
        "kind": 'bug',
        "mistake": 'Projects x instead of the hidden activations in the second layer (the wrong variable), so the shapes do not fit.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    hidden = gelu_tanh(x @ w_fc + b_fc)
    out = x @ w_proj + b_proj
    return out
''',
    },
    {
        "id": 'l03_block_right_prefix_dict',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def block(x, params, layer, n_head):
    pre = f"h.{layer}."
    p = {k[len(pre):]: v for k, v in params.items() if k.startswith(pre)}
    a = layer_norm(x, p["ln_1.weight"], p["ln_1.bias"])
    x = x + causal_self_attention(a, p["attn.c_attn.weight"], p["attn.c_attn.bias"],
                                  p["attn.c_proj.weight"], p["attn.c_proj.bias"], n_head)
    m = layer_norm(x, p["ln_2.weight"], p["ln_2.bias"])
    x = x + mlp(m, p["mlp.c_fc.weight"], p["mlp.c_fc.bias"],
                p["mlp.c_proj.weight"], p["mlp.c_proj.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_mistake_post_ln',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Builds a post-LN block, LN(x + sublayer(x)), normalising after each residual addition instead of before each sub-layer.',
        "source": r'''def block(x, params, layer, n_head):
    def w(name):
        return params[f"h.{layer}.{name}"]

    attn = causal_self_attention(x, w("attn.c_attn.weight"), w("attn.c_attn.bias"),
                                 w("attn.c_proj.weight"), w("attn.c_proj.bias"), n_head)
    x = layer_norm(x + attn, w("ln_1.weight"), w("ln_1.bias"))
    ff = mlp(x, w("mlp.c_fc.weight"), w("mlp.c_fc.bias"), w("mlp.c_proj.weight"), w("mlp.c_proj.bias"))
    return layer_norm(x + ff, w("ln_2.weight"), w("ln_2.bias"))
''',
    },
    {
        "id": 'l03_block_mistake_no_mlp_residual',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Forgets the second residual connection: returns mlp(ln_2(x)) instead of x + mlp(ln_2(x)).',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    h = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(h, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    h = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return mlp(h, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
               params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
''',
    },
    {
        "id": 'l03_block_mistake_ln1_used_twice',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Uses ln_1\'s weight and bias for the LayerNorm before the MLP too, instead of ln_2\'s.',
        "source": r'''def block(x, params, layer, n_head):
    p = lambda name: params[f"h.{layer}.{name}"]
    g, b = p("ln_1.weight"), p("ln_1.bias")
    x = x + causal_self_attention(layer_norm(x, g, b), p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    x = x + mlp(layer_norm(x, g, b), p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
    return x
''',
    },
    {
        "id": 'l03_block_mistake_in_place_residual',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Adds the residuals with x += ..., which modifies the caller\'s input array in place.',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x += causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                               params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    x += mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
             params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_mistake_residual_from_normalised',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Overwrites x with its LayerNorm before each sub-layer, so the residual additions start from the normalised stream instead of the raw x.',
        "source": r'''def block(x, params, layer, n_head):
    key = lambda name: f"h.{layer}.{name}"
    x = layer_norm(x, params[key("ln_1.weight")], params[key("ln_1.bias")])
    x = x + causal_self_attention(x, params[key("attn.c_attn.weight")], params[key("attn.c_attn.bias")],
                                  params[key("attn.c_proj.weight")], params[key("attn.c_proj.bias")], n_head)
    x = layer_norm(x, params[key("ln_2.weight")], params[key("ln_2.bias")])
    x = x + mlp(x, params[key("mlp.c_fc.weight")], params[key("mlp.c_fc.bias")],
                params[key("mlp.c_proj.weight")], params[key("mlp.c_proj.bias")])
    return x
''',
    },
    # ---- lesson 04 ----
    {
        "id": 'l04_init_gpt_right_explicit',
        "exercise": 'init_gpt',
        "kind": 'right',
        "mistake": '',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    std = 0.02
    proj_std = std / math.sqrt(2 * L)
    P = {
        "wte": rng.standard_normal((V, d)) * std,
        "wpe": rng.standard_normal((T, d)) * std,
    }
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
        "id": 'l04_init_gpt_mistake_no_residual_scaling',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws attn.c_proj and mlp.c_proj with std 0.02 like every other weight, without the 1/sqrt(2L) scaling of the residual projections.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer

    def normal(*shape):
        return rng.standard_normal(shape) * 0.02

    P = {"wte": normal(config.vocab_size, d), "wpe": normal(config.block_size, d)}
    for i in range(L):
        P[f"h.{i}.ln_1.weight"], P[f"h.{i}.ln_1.bias"] = np.ones(d), np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"], P[f"h.{i}.attn.c_attn.bias"] = normal(d, 3 * d), np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"], P[f"h.{i}.attn.c_proj.bias"] = normal(d, d), np.zeros(d)
        P[f"h.{i}.ln_2.weight"], P[f"h.{i}.ln_2.bias"] = np.ones(d), np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"], P[f"h.{i}.mlp.c_fc.bias"] = normal(d, 4 * d), np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"], P[f"h.{i}.mlp.c_proj.bias"] = normal(4 * d, d), np.zeros(d)
    P["ln_f.weight"], P["ln_f.bias"] = np.ones(d), np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_scale_sqrt_L',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Scales the residual projections by 1/sqrt(L) instead of 1/sqrt(2L): std 0.02 / sqrt(n_layer).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    std = 0.02
    resid_std = std / math.sqrt(L)
    P = {"wte": rng.standard_normal((V, d)) * std, "wpe": rng.standard_normal((T, d)) * std}
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * std
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * resid_std
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * std
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * resid_std
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_variance_as_std',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Reads N(0, 0.02^2) as rng.normal(0, 0.02**2): passes the variance where NumPy expects the standard deviation, so every weight is 50 times too small.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    var = 0.02 ** 2
    resid_var = var / (2 * L)
    P = {"wte": rng.normal(0.0, var, size=(V, d)), "wpe": rng.normal(0.0, var, size=(T, d))}
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.normal(0.0, var, size=(d, 3 * d))
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.normal(0.0, resid_var, size=(d, d))
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.normal(0.0, var, size=(d, 4 * d))
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.normal(0.0, resid_var, size=(4 * d, d))
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_wpe_std_001',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws the position table wpe with std 0.01 (OpenAI\'s code) instead of the 0.02 the exercise asks for.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    proj = 0.02 / math.sqrt(2 * L)
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.01
    for i in range(L):
        for ln in ("ln_1", "ln_2"):
            P[f"h.{i}.{ln}.weight"] = np.ones(d)
            P[f"h.{i}.{ln}.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * proj
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * proj
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_ln_gain_zero',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Sets every 1-D tensor to zero, the LayerNorm gains included, instead of initialising the gains to 1.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    shapes = {"wte": (V, d), "wpe": (T, d)}
    for i in range(L):
        shapes.update({
            f"h.{i}.ln_1.weight": (d,), f"h.{i}.ln_1.bias": (d,),
            f"h.{i}.attn.c_attn.weight": (d, 3 * d), f"h.{i}.attn.c_attn.bias": (3 * d,),
            f"h.{i}.attn.c_proj.weight": (d, d), f"h.{i}.attn.c_proj.bias": (d,),
            f"h.{i}.ln_2.weight": (d,), f"h.{i}.ln_2.bias": (d,),
            f"h.{i}.mlp.c_fc.weight": (d, 4 * d), f"h.{i}.mlp.c_fc.bias": (4 * d,),
            f"h.{i}.mlp.c_proj.weight": (4 * d, d), f"h.{i}.mlp.c_proj.bias": (d,),
        })
    shapes["ln_f.weight"] = (d,)
    shapes["ln_f.bias"] = (d,)
    P = {}
    for name, shape in shapes.items():
        if len(shape) == 1:
            P[name] = np.zeros(shape)
        elif name.endswith("c_proj.weight"):
            P[name] = rng.standard_normal(shape) * (0.02 / math.sqrt(2 * L))
        else:
            P[name] = rng.standard_normal(shape) * 0.02
    return P
''',
    },
    {
        "id": 'l04_init_gpt_bug_ln1_bias_twice',
        "exercise": 'init_gpt',
        "kind": 'bug',
        "mistake": 'A copy-paste slip writes h.{i}.ln_1.bias twice, so h.{i}.ln_2.bias is missing from the dictionary.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    std = 0.02
    proj_std = std / math.sqrt(2 * L)
    P = {"wte": rng.standard_normal((V, d)) * std, "wpe": rng.standard_normal((T, d)) * std}
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * std
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * proj_std
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * std
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * proj_std
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_gpt_logits_right_layer_set',
        "exercise": 'gpt_logits',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(n_layer):
        x = block(x, P, layer, n_head)
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
    n_layer = 1 + max(int(k.split(".")[1]) for k in P if k.startswith("h."))
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_last_layer_skipped',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Takes the number of layers as the largest layer index found in the keys (L - 1), so range() skips the last block.',
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
        "id": 'l04_gpt_logits_mistake_returns_probabilities',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Applies a softmax to the head\'s output and returns probabilities instead of the raw logits.',
        "source": r'''def gpt_logits(P, idx, n_head):
    layers = sorted({int(k.split(".")[1]) for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for layer in layers:
        x = block(x, P, layer, n_head)
    h = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    logits = h @ P["wte"].T
    logits = logits - logits.max(axis=-1, keepdims=True)
    probs = np.exp(logits)
    return probs / probs.sum(axis=-1, keepdims=True)
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_string_sorted_layers',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Sorts the layer numbers as strings, so with 11 or more layers the blocks run in the wrong order (h.10 before h.2).',
        "source": r'''def gpt_logits(P, idx, n_head):
    layer_ids = sorted({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for layer in layer_ids:
        x = block(x, P, int(layer), n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_no_position_embedding',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Starts from the token rows P["wte"][idx] alone and never adds the position embeddings wpe.',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = len([k for k in P if k.startswith("h.") and k.endswith(".ln_1.weight")])
    x = P["wte"][idx]
    for layer in range(n_layer):
        x = block(x, P, layer, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_right_add_at',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    log_probs = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -log_probs[np.arange(N), tgt].mean()
    dZ = np.exp(log_probs)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H                       # head path
    dH = dZ @ E
    dX = (dH * (1 - H * H)) @ A.T
    np.add.at(dE, ids, dX)              # lookup path, repeated ids accumulate
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_right_loop_float64',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    dtype = E.dtype
    E64, A64 = E.astype(np.float64), A.astype(np.float64)
    ids, tgt = idx.ravel(), targets.ravel()
    N, V = len(ids), E.shape[0]
    X = E64[ids]
    H = np.tanh(X @ A64)
    Z = H @ E64.T
    m = Z.max(axis=1, keepdims=True)
    expz = np.exp(Z - m)
    probs = expz / expz.sum(axis=1, keepdims=True)
    nll = np.log(expz.sum(axis=1)) + m[:, 0] - Z[np.arange(N), tgt]
    onehot = np.zeros((N, V))
    onehot[np.arange(N), tgt] = 1.0
    G = (probs - onehot) / N
    grad = G.T @ H
    dX = ((G @ E64) * (1.0 - H ** 2)) @ A64.T
    for t in range(N):
        grad[ids[t]] += dX[t]
    loss = nll.astype(dtype).mean()
    return loss, grad.astype(dtype)
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_head_path_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Returns only the head (output) path dZ^T H as dE and leaves out the gradient through the lookup X = E[idx].',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    log_probs = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -log_probs[np.arange(N), tgt].mean()
    dZ = np.exp(log_probs)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_fancy_index_add',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Scatters the lookup path with dE[ids] += dX, which keeps only one contribution per repeated id instead of accumulating them (np.add.at).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    log_probs = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -log_probs[np.arange(N), tgt].mean()
    dZ = np.exp(log_probs)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    dE[ids] += dX
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_head_path_uses_X',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Computes the head path as dZ^T X (the looked-up embeddings, as in the lesson\'s bigram model) instead of dZ^T H (the tanh hidden states the head actually reads).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    log_probs = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -log_probs[np.arange(N), tgt].mean()
    dZ = np.exp(log_probs)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    grad_out = dZ.T @ X
    dX = ((dZ @ E) * (1 - H * H)) @ A.T
    grad_in = np.zeros_like(E)
    np.add.at(grad_in, ids, dX)
    return loss, grad_out + grad_in
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_no_tanh_derivative',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Backpropagates through the tanh without its derivative: dX = (dZ E) A^T, missing the factor (1 - H^2).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    log_probs = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -log_probs[np.arange(N), tgt].mean()
    dZ = np.exp(log_probs)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dH = dZ @ E
    dX = dH @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_divides_by_batch',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Divides the summed loss and dZ by idx.shape[0] (the batch size B for a (B, T) input) instead of the number of positions B*T.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    n = idx.shape[0]
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    rows = np.arange(ids.size)
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    log_probs = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -log_probs[rows, tgt].sum() / n
    dZ = np.exp(log_probs)
    dZ[rows, tgt] -= 1
    dZ /= n
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H * H)) @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_bug_returns_dX',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'bug',
        "mistake": 'Builds dE correctly but returns the intermediate dX (the gradient of the looked-up rows) in its place.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    log_probs = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -log_probs[np.arange(N), tgt].mean()
    dZ = np.exp(log_probs)
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
        "id": 'l05_count_gpt2_params_right_helpers',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    def linear(n_in, n_out):
        return n_in * n_out + (n_out if bias else 0)

    def layer_norm():
        return d + (d if bias else 0)

    per_block = (2 * layer_norm() + linear(d, 3 * d) + linear(d, d)
                 + linear(d, 4 * d) + linear(4 * d, d))
    total = V * d + T * d + L * per_block + layer_norm()
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_no_ln_f',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Leaves out the final LayerNorm ln_f (2d, or d without biases).',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    embeddings = V * d + T * d
    if bias:
        per_block = 12 * d * d + 13 * d
    else:
        per_block = 12 * d * d + 2 * d
    total = embeddings + L * per_block
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_untied_head_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Gives the untied head a bias of length V, though the head is a (V, d) matrix without a bias.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    block = (d * 3 * d + b * 3 * d) + (d * d + b * d) + (d * 4 * d + b * 4 * d) + (4 * d * d + b * d)
    block += 2 * (d + b * d)
    n = V * d + T * d + L * block + (d + b * d)
    if not tied:
        n += V * d + V
    return n
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_keeps_ln_biases',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False removes only the linear layers\' biases and keeps the LayerNorms\' biases.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    weights = d * 3 * d + d * d + d * 4 * d + 4 * d * d
    linear_biases = 3 * d + d + 4 * d + d if bias else 0
    layer_norms = 2 * (2 * d)
    per_block = weights + linear_biases + layer_norms
    total = V * d + T * d + L * per_block + 2 * d
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_drops_ln_gains',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False also drops the LayerNorm gains, though each LayerNorm keeps its gain of length d.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    total = V * d + T * d
    per_block = 12 * d * d
    if bias:
        per_block += 9 * d + 4 * d
        total += 2 * d
    total += L * per_block
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_bug_13L',
        "exercise": 'count_gpt2_params',
        "kind": 'bug',
        "mistake": 'Types 13 * L instead of 13 * d in the per-block count (a typo).',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    if bias:
        per_block = 12 * d * d + 13 * L
        final_ln = 2 * d
    else:
        per_block = 12 * d * d + 2 * d
        final_ln = d
    total = V * d + T * d + L * per_block + final_ln
    if not tied:
        total += V * d
    return total
''',
    },
    # ---- lesson 06 ----
    {
        "id": 'l06_numpy_to_torch_right_by_name',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def numpy_to_torch(P, model):
    def module_name(k):
        if k in ("wte", "wpe"):
            return f"transformer.{k}.weight"
        return "transformer." + k

    renamed = {module_name(k): v for k, v in P.items()}
    missing = [k for k in model if k not in renamed]
    unexpected = [k for k in renamed if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys: {missing}; unexpected keys: {unexpected}")
    linear = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    for name, target in model.items():
        arr = renamed[name]
        if name.endswith(linear):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: shape {arr.shape} after the transpose, the model has {target.shape}")
        out[name] = arr.astype(target.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_every_matrix',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Transposes every 2-D tensor, the embedding tables wte and wpe included, instead of only the four Conv1D weights.',
        "source": r'''def numpy_to_torch(P, model):
    renamed = {}
    for k, v in P.items():
        renamed["transformer." + k + (".weight" if k in ("wte", "wpe") else "")] = v
    missing = sorted(set(model) - set(renamed))
    extra = sorted(set(renamed) - set(model))
    if missing or extra:
        raise ValueError(f"keys do not match: missing {missing}, unexpected {extra}")
    out = {}
    for name, target in model.items():
        arr = renamed[name]
        if arr.ndim == 2:
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"shape mismatch for {name}: {arr.shape} vs {target.shape}")
        out[name] = np.array(arr, dtype=target.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_by_shape',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Decides whether to transpose by comparing shapes, so the square (d, d) attn.c_proj weight is copied untransposed.',
        "source": r'''def numpy_to_torch(P, model):
    renamed = {}
    for k, v in P.items():
        name = f"transformer.{k}.weight" if k in ("wte", "wpe") else f"transformer.{k}"
        renamed[name] = v
    missing = [k for k in model if k not in renamed]
    unexpected = [k for k in renamed if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        arr = renamed[name]
        if arr.shape != target.shape and arr.T.shape == target.shape:
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: got shape {arr.shape}, the model wants {target.shape}")
        out[name] = arr.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_no_key_check',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Never checks the keys: extra tensors in P are silently ignored and a missing one raises a bare KeyError instead of a ValueError naming it.',
        "source": r'''def numpy_to_torch(P, model):
    out = {}
    for name, target in model.items():
        key = name.removeprefix("transformer.")
        if key in ("wte.weight", "wpe.weight"):
            key = key.removesuffix(".weight")
        arr = P[key]
        if key.endswith(("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: shape {arr.shape} does not match {target.shape}")
        out[name] = arr.astype(target.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_table_names',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Maps every key to "transformer." + k, so the tables become transformer.wte and transformer.wpe instead of transformer.wte.weight and transformer.wpe.weight, and the key check fails.',
        "source": r'''def numpy_to_torch(P, model):
    renamed = {"transformer." + k: v for k, v in P.items()}
    missing = [k for k in model if k not in renamed]
    unexpected = [k for k in renamed if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        arr = renamed[name]
        if name.endswith(("c_attn.weight", "c_proj.weight", "c_fc.weight")):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: {arr.shape} != {target.shape}")
        out[name] = arr.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_bug_stale_key',
        "exercise": 'numpy_to_torch',
        "kind": 'bug',
        "mistake": 'Stores every converted array under k, the leftover variable of the renaming loop, instead of name, so the result has a single key.',
        "source": r'''def numpy_to_torch(P, model):
    renamed = {}
    for k, v in P.items():
        if k in ("wte", "wpe"):
            renamed[f"transformer.{k}.weight"] = v
        else:
            renamed[f"transformer.{k}"] = v
    missing = [n for n in model if n not in renamed]
    unexpected = [n for n in renamed if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys: {missing}; unexpected keys: {unexpected}")
    out = {}
    for name, target in model.items():
        arr = renamed[name]
        if name.endswith(("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: shape {arr.shape}, expected {target.shape}")
        out[k] = arr.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_right_filter',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''def load_hf_state_dict(model, state_dict):
    buffers = (".attn.bias", ".attn.masked_bias")
    sd = {k: v for k, v in state_dict.items()
          if not k.endswith(buffers) and k != "lm_head.weight"}
    missing = sorted(set(model) - set(sd))
    unexpected = sorted(set(sd) - set(model))
    if missing or unexpected:
        raise ValueError(f"state dict does not match the model: missing {missing}, unexpected {unexpected}")
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    out = {}
    for name, ref in model.items():
        arr = np.asarray(sd[name])
        if name.endswith(conv1d):
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{name}: shape {arr.shape} (after transposing) but the model has {ref.shape}")
        out[name] = np.array(arr, dtype=ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_buffers_kept',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Does not skip the attn.bias / attn.masked_bias mask buffers, so an older checkpoint that carries them is rejected as having unexpected keys.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items() if k != "lm_head.weight"}
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, ref in model.items():
        arr = sd[name]
        if name.endswith(("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")):
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{name}: {arr.shape} vs model {ref.shape}")
        out[name] = arr.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_drops_c_attn_bias',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips buffers with the substring test "attn.bias" in k, which also matches attn.c_attn.bias, so that real parameter is dropped and reported missing.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    sd = {}
    for k, v in state_dict.items():
        if "attn.bias" in k or "attn.masked_bias" in k or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, ref in model.items():
        arr = sd[name]
        if name.endswith(("c_attn.weight", "attn.c_proj.weight", "c_fc.weight", "mlp.c_proj.weight")):
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{name}: shape {arr.shape}, model {ref.shape}")
        out[name] = arr.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_keeps_lm_head',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Copies lm_head.weight into the result as well, though the tied head must not be given (the model lists it once, as transformer.wte.weight).',
        "source": r'''def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items()
          if not (k.endswith(".attn.bias") or k.endswith(".attn.masked_bias"))}
    required = set(model)
    present = set(sd) - {"lm_head.weight"}
    if required != present:
        raise ValueError(f"missing {sorted(required - present)}, unexpected {sorted(present - required)}")
    out = {}
    for name, v in sd.items():
        if name.endswith(("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")):
            v = v.T
        ref = model.get(name, model["transformer.wte.weight"])
        if v.shape != ref.shape:
            raise ValueError(f"{name}: shape {v.shape}, model {ref.shape}")
        out[name] = v.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_transpose_by_shape',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Transposes a tensor only when its shape does not already fit, so the square attn.c_proj weight is silently loaded untransposed.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    skip = lambda k: k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight"
    sd = {k: v for k, v in state_dict.items() if not skip(k)}
    missing = [k for k in model if k not in sd]
    unexpected = [k for k in sd if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, ref in model.items():
        arr = sd[name]
        if arr.ndim == 2 and arr.shape != ref.shape:
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{name}: shape {arr.shape}, the model has {ref.shape}")
        out[name] = arr.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_mutates_state_dict',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Deletes the buffers and lm_head.weight from the state_dict argument itself (pop/del), changing the caller\'s input.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    state_dict.pop("lm_head.weight", None)
    for k in list(state_dict):
        if k.endswith(".attn.bias") or k.endswith(".attn.masked_bias"):
            del state_dict[k]
    missing = [k for k in model if k not in state_dict]
    unexpected = [k for k in state_dict if k not in model]
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, ref in model.items():
        arr = state_dict[name]
        if name.endswith(("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")):
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{name}: shape {arr.shape}, the model has {ref.shape}")
        out[name] = arr.astype(ref.dtype)
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
    pos = np.arange(T, dtype=np.float64)[:, None]
    i = np.arange(d // 2, dtype=np.float64)[None, :]
    omega = base ** (-2 * i / d)
    pe = np.zeros((T, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(pos * omega)
    pe[:, 1::2] = np.cos(pos * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_blocked_layout',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Puts all the sines in the first half of the columns and all the cosines in the second half instead of interleaving them (sin at 2i, cos at 2i + 1).',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"d = {d} is odd; the table needs an even width")
    t = np.arange(T)[:, None].astype(np.float64)
    omega = base ** (-np.arange(0, d, 2) / d)
    angles = t * omega
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_exponent_i_over_d',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Uses the frequency base^(-i/d) for pair i instead of base^(-2i/d), so the pairs turn too fast.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 == 1:
        raise ValueError(f"d must be even, got {d}")
    pe = np.empty((T, d))
    for i in range(d // 2):
        omega = base ** (-i / d)
        angle = np.arange(T) * omega
        pe[:, 2 * i] = np.sin(angle)
        pe[:, 2 * i + 1] = np.cos(angle)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_positions_from_one',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Numbers the positions 1..T instead of 0..T-1, so every row is shifted by one position.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d = {d}")
    positions = np.arange(1, T + 1, dtype=np.float64)
    freqs = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    angles = np.outer(positions, freqs)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(T, d)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_hardcoded_base',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Hard-codes 10000 in the frequency instead of using the base argument.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d = {d}")
    t = np.arange(T, dtype=np.float64)[:, None]
    two_i = np.arange(0, d, 2, dtype=np.float64)
    omega = 1.0 / 10000.0 ** (two_i / d)
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
        "mistake": 'Writes np.sin into the odd columns too (copy-paste), so there is no cosine.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d = {d}")
    pos = np.arange(T, dtype=np.float64)[:, None]
    omega = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(pos * omega)
    pe[:, 1::2] = np.sin(pos * omega)
    return pe
''',
    },
    {
        "id": 'l07_position_similarity_right_unit_rows',
        "exercise": 'position_similarity',
        "kind": 'right',
        "mistake": '',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table (T, d), got shape {wpe.shape}")
    norms = np.sqrt((wpe * wpe).sum(axis=1, keepdims=True))
    unit = wpe / norms
    return unit @ unit.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_columns',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Normalises and compares the columns (features) instead of the rows (positions), returning a (d, d) matrix.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    unit = wpe / np.linalg.norm(wpe, axis=0, keepdims=True)
    return unit.T @ unit
''',
    },
    {
        "id": 'l07_position_similarity_mistake_global_norm',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Divides by the norm of the whole table (np.linalg.norm(wpe)) instead of each row\'s own length, so the result is not a cosine similarity.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be a 2-D (T, d) table, got shape {wpe.shape}")
    unit = wpe / np.linalg.norm(wpe)
    return unit @ unit.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_in_place',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Normalises the rows with wpe /= norms, which changes the caller\'s table in place.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    wpe /= np.linalg.norm(wpe, axis=1, keepdims=True)
    return wpe @ wpe.T
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
        raise ValueError(f"k = {k} is more than min(T, d) = {min(T, d)} principal directions")
    X = wpe.astype(np.float64)
    X = X - X.mean(axis=0, keepdims=True)
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    dirs = vt[:k]
    biggest = np.argmax(np.abs(dirs), axis=1)
    signs = np.sign(dirs[np.arange(k), biggest])
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
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got wpe.shape = {wpe.shape}")
    T, d = wpe.shape
    limit = min(T, d)
    if k > limit:
        raise ValueError(f"asked for k = {k} components, but a ({T}, {d}) table has at most min(T, d) = {limit}")
    centred = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0)
    cov = centred.T @ centred / T
    values, vectors = np.linalg.eigh(cov)
    order = np.argsort(values)[::-1][:k]
    top = vectors[:, order]
    for j in range(k):
        col = top[:, j]
        if col[np.argmax(np.abs(col))] < 0:
            top[:, j] = -col
    return (centred @ top).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_not_centred',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Never subtracts the mean row, so the SVD of the uncentred table gives other directions and the projections are not of the centred rows.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} exceeds min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    dirs = vt[:k]
    idx = np.abs(dirs).argmax(axis=1)
    dirs = dirs * np.sign(dirs[np.arange(k), idx])[:, None]
    return (X @ dirs.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_eigh_ascending',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Takes the first k eigenvectors from np.linalg.eigh, whose eigenvalues come in ascending order, so it projects on the smallest-variance directions instead of the largest.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} exceeds min(T, d) = {min(T, d)}")
    Xc = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0)
    C = Xc.T @ Xc / (T - 1)
    vals, vecs = np.linalg.eigh(C)
    W = vecs[:, :k]
    for j in range(k):
        if W[np.argmax(np.abs(W[:, j])), j] < 0:
            W[:, j] *= -1
    return (Xc @ W).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_vt_columns',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Takes the principal directions as the columns of Vt (vt[:, :k]) instead of its rows (vt[:k]), so it projects on the wrong vectors (and fails when d > T).',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} is larger than min(T, d) = {min(T, d)}")
    Xc = wpe.astype(np.float64)
    Xc = Xc - Xc.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    W = Vt[:, :k].copy()
    for j in range(k):
        col = W[:, j]
        if col[np.argmax(np.abs(col))] < 0:
            W[:, j] = -col
    return (Xc @ W).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_no_sign_fix',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Leaves the signs of the directions as the SVD returns them, without flipping each so that its largest-magnitude entry is positive.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} exceeds min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    X = X - X.mean(axis=0)
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    return (X @ vt[:k].T).astype(wpe.dtype)
''',
    },
    # ---- lesson 08 ----
    {
        "id": 'l08_cross_entropy_right_take_along_axis',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape}, expected logits.shape[:-1] = {logits.shape[:-1]}")
    V = logits.shape[-1]
    bad = (targets < 0) | (targets >= V)
    if bad.any():
        raise ValueError(f"target id {targets[bad].flat[0]} is outside [0, {V})")
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_z = np.log(np.exp(shifted).sum(axis=-1))
    picked = np.take_along_axis(shifted, targets[..., None], axis=-1)[..., 0]
    return (log_z - picked).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_right_logaddexp_flat',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} is not logits.shape[:-1] = {logits.shape[:-1]}")
    V = logits.shape[-1]
    flat_z = logits.reshape(-1, V)
    flat_t = targets.reshape(-1)
    for t in flat_t:
        if t < 0 or t >= V:
            raise ValueError(f"target id {t} not in [0, {V})")
    lse = np.logaddexp.reduce(flat_z, axis=-1)
    nll = lse - flat_z[np.arange(flat_t.size), flat_t]
    return nll.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_no_max_shift',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Computes log(sum(exp(logits))) without subtracting the row maximum, so logits near 1000 overflow and the loss is inf or nan.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} out of range [0, {V})")
    log_z = np.log(np.exp(logits).sum(axis=-1))
    picked = np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return (log_z - picked).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_log_of_softmax',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Takes the log of the softmax probability (log(p[target])) instead of working in log space, so a target whose probability underflows to 0 gives an infinite loss.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    bad = (targets < 0) | (targets >= V)
    if bad.any():
        raise ValueError(f"target id {targets[bad].flat[0]} outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    probs = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)
    p_target = np.take_along_axis(probs, targets[..., None], axis=-1)
    return -np.log(p_target).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_python_float',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Returns float(loss), a Python float, instead of the NumPy scalar of the logits\' dtype.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} vs logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    bad = (targets < 0) | (targets >= V)
    if bad.any():
        raise ValueError(f"target id {targets[bad].flat[0]} is outside [0, {V})")
    z = logits.reshape(-1, V)
    t = targets.reshape(-1)
    z = z - z.max(axis=1, keepdims=True)
    nll = np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(t)), t]
    return float(nll.mean())
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_negative_ids_unchecked',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Checks only targets >= V, so a negative target id is not rejected and NumPy silently reads it from the end of the row.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if (targets >= V).any():
        raise ValueError(f"target id {targets.max()} is not below V = {V}")
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -np.take_along_axis(log_probs, targets[..., None], axis=-1).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_bug_mixed_shift',
        "exercise": 'cross_entropy',
        "kind": 'bug',
        "mistake": 'Takes the log-sum-exp of the shifted logits but picks the target\'s logit from the unshifted array (the wrong variable), so the loss is off by the row maximum.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape}, expected {logits.shape[:-1]}")
    V = logits.shape[-1]
    bad = (targets < 0) | (targets >= V)
    if bad.any():
        raise ValueError(f"target id {targets[bad].flat[0]} is outside [0, {V})")
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_z = np.log(np.exp(shifted).sum(axis=-1))
    picked = np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return (log_z - picked).mean()
''',
    },
    {
        "id": 'l08_get_batch_right_fancy_index',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    n = len(data)
    if n < block_size + 1:
        raise ValueError(f"data holds {n} ids, fewer than block_size + 1 = {block_size + 1} (block_size {block_size})")
    starts = rng.integers(0, n - block_size, size=batch_size)
    offsets = np.arange(block_size)
    data = np.asarray(data)
    x = data[starts[:, None] + offsets].astype(np.int64)
    y = data[starts[:, None] + offsets + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_high_plus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with rng.integers(0, len(data) - block_size + 1, ...), one past the stated upper end, so the starts differ from the course\'s and the last start leaves no room for the final target.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data) = {len(data)} is too short for block_size = {block_size}")
    starts = rng.integers(0, len(data) - block_size + 1, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1:s + block_size + 1] for s in starts]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_targets_one_short',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Slices the targets as data[s + 1 : s + block_size], one id short, so y has block_size - 1 columns.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"need at least block_size + 1 = {block_size + 1} ids, got len(data) = {len(data)}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1:s + block_size] for s in starts]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_keeps_data_dtype',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Returns the windows in data\'s own dtype (uint8 for the corpus) instead of converting them to int64.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data) = {len(data)} < block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts])
    y = np.stack([data[s + 1:s + 1 + block_size] for s in starts])
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_global_random',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with np.random.randint instead of the rng it is given, so the same rng state does not give the same batch.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids but block_size + 1 = {block_size + 1} are needed")
    starts = np.random.randint(0, len(data) - block_size, size=batch_size)
    idx = starts[:, None] + np.arange(block_size)[None, :]
    data = np.asarray(data)
    return data[idx].astype(np.int64), data[idx + 1].astype(np.int64)
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
        keep = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1)) * cdf[:, -1:]
    ids = (cdf <= u).sum(axis=-1)
    return ids.astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_right_gumbel',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0 (use the argmax for greedy decoding), got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        order = np.argsort(-z, axis=-1, kind="stable")
        drop = order[:, top_k:]
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    g = rng.gumbel(size=z.shape)
    return np.argmax(z + g, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_right_choice_per_row',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature {temperature} is not positive")
    logits = np.asarray(logits, dtype=np.float64)
    B, V = logits.shape
    out = np.empty(B, dtype=np.int64)
    for b in range(B):
        z = logits[b] / temperature
        if top_k is not None and top_k < V:
            top = np.argsort(z)[::-1][:top_k]
            cut = np.full(V, -np.inf)
            cut[top] = z[top]
            z = cut
        z = z - z.max()
        p = np.exp(z)
        p = p / p.sum()
        out[b] = rng.choice(V, p=p)
    return out
''',
    },
    {
        "id": 'l08_sample_next_mistake_temperature_multiplied',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Multiplies the logits by the temperature instead of dividing by it, so a low temperature flattens and a high one sharpens.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) * temperature
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
    u = rng.random((B, 1)) * cdf[:, -1:]
    return (cdf <= u).sum(axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_top_k_keeps_ties',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Keeps every logit >= the k-th largest (nanoGPT\'s threshold), so when logits tie at the k-th place more than top_k candidates survive.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        kth = np.sort(z, axis=-1)[:, -top_k][:, None]
        z = np.where(z >= kth, z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    return np.array([rng.choice(V, p=row) for row in p], dtype=np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_global_np_random',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Draws the uniform numbers with np.random.random instead of the rng argument, so the same rng state does not give the same ids.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argsort(-z, axis=-1)[:, :top_k]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = np.random.random((B, 1)) * cdf[:, -1:]
    return (cdf <= u).sum(axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_one_uniform_for_all_rows',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Draws a single uniform number, rng.random(), and uses it for every row, so the rows\' draws are not independent (identical rows always get the same id).',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
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
    p /= p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random()
    return (cdf <= u * cdf[:, -1:]).sum(axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_top_k_not_renormalised',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Applies top-k after the softmax by zeroing the other probabilities without renormalising, so the kept probabilities sum to less than 1 and the inverse-CDF draw can fall outside the top k.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    if top_k is not None and top_k < V:
        drop = np.argsort(p, axis=-1)[:, :V - top_k]
        np.put_along_axis(p, drop, 0.0, axis=-1)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    return np.argmax(cdf > u, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_bug_returns_row_index',
        "exercise": 'sample_next',
        "kind": 'bug',
        "mistake": 'Draws each row\'s id but appends the row number b instead of the drawn id.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        kth = np.argsort(-z, axis=-1)[:, top_k:]
        np.put_along_axis(z, kth, -np.inf, axis=-1)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    ids = []
    for b in range(B):
        choice = rng.choice(V, p=p[b])
        ids.append(b)
    return np.array(ids, dtype=np.int64)
''',
    },
]

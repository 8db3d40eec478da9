"""Blind learner answers, round 7: written from the lessons and exercise notebooks alone, before the fixes it measures."""

ANSWERS = [
    # ---- lesson 01: embed ----
    {
        "id": 'l01_embed_right_arange',
        "exercise": 'embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T > block_size:
        raise ValueError(
            f"sequence of {T} tokens is longer than the context: block size {block_size}")
    return wte[idx] + wpe[np.arange(T)]
''',
    },
    {
        "id": 'l01_embed_right_batch_loop',
        "exercise": 'embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    n_positions = wpe.shape[0]
    length = idx.shape[-1]
    if length > n_positions:
        raise ValueError("input has %d positions but the position table has only %d rows "
                         "(block size %d)" % (length, n_positions, n_positions))
    if idx.ndim == 1:
        return wte[idx] + wpe[:length]
    out = np.empty(idx.shape + (wte.shape[1],), dtype=wte.dtype)
    for b in range(idx.shape[0]):
        out[b] = wte[idx[b]] + wpe[:length]
    return out
''',
    },
    {
        "id": 'l01_embed_mistake_len_is_batch',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Takes the sequence length as len(idx), which for a (B, T) batch is B, so it slices B position rows and checks the wrong number.',
        "source": r'''def embed(wte, wpe, idx):
    T = len(idx)
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_limit_off_by_one',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Uses >= in the length check, so a sequence of exactly block_size tokens is refused.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T >= block_size:
        raise ValueError(f"sequence length {T} exceeds the block size {block_size}")
    tok = wte[idx]
    pos = wpe[:T]
    return tok + pos
''',
    },
    {
        "id": 'l01_embed_mistake_assert_not_valueerror',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Guards the length with an assert, so a too-long sequence raises AssertionError (and nothing under python -O) instead of a ValueError.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    assert T <= wpe.shape[0], f"sequence length {T} exceeds the block size {wpe.shape[0]}"
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_zeros_float64',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Preallocates the output with np.zeros, whose default dtype is float64, so float32 tables give a float64 result.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    d = wte.shape[1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    out = np.zeros(idx.shape + (d,))
    out[...] = wte[idx]
    out += wpe[:T]
    return out
''',
    },
    {
        "id": 'l01_embed_bug_wte_for_wpe',
        "exercise": 'embed',
        "kind": 'bug',
        "mistake": 'Typo: adds the first T rows of wte instead of wpe.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wte[:T]
''',
    },
    # ---- lesson 01: one_hot_embed ----
    {
        "id": 'l01_one_hot_embed_right_compare',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = (np.asarray(idx)[..., None] == np.arange(V)).astype(wte.dtype)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_eye_float64',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds the one-hot matrix with np.eye(V) in float64, so float32 tables give a float64 result.',
        "source": r'''def one_hot_embed(wte, idx):
    one_hot = np.eye(wte.shape[0])[idx]
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_only_1d',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds a (len(idx), V) one-hot matrix with rows np.arange(len(idx)), which only works for one sequence and breaks on a (B, T) batch.',
        "source": r'''def one_hot_embed(wte, idx):
    n = len(idx)
    one_hot = np.zeros((n, wte.shape[0]), dtype=wte.dtype)
    one_hot[np.arange(n), idx] = 1
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_vocab_from_ids',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Sizes the one-hot vectors by the largest id present (idx.max() + 1) instead of the vocabulary size V, so the product does not fit the table.',
        "source": r'''def one_hot_embed(wte, idx):
    n_classes = int(np.max(idx)) + 1
    one_hot = np.zeros(np.shape(idx) + (n_classes,), dtype=wte.dtype)
    np.put_along_axis(one_hot, np.asarray(idx)[..., None], 1, axis=-1)
    return one_hot @ wte
''',
    },
    # ---- lesson 02: layer_norm ----
    {
        "id": 'l02_layer_norm_right_manual',
        "exercise": 'layer_norm',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_unbiased_var',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Uses the unbiased (ddof=1) variance instead of the population variance.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True, ddof=1)
    return (x - mu) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_eps_outside_root',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Adds eps to the standard deviation instead of to the variance inside the square root.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    sigma = x.std(-1, keepdims=True)
    return weight * (x - mu) / (sigma + eps) + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_float64_compute',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Converts x to float64 for accuracy and never converts back, so float32 input gives float64 output.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=-1, keepdims=True)
    var = x64.var(axis=-1, keepdims=True)
    normed = (x64 - mean) / np.sqrt(var + eps)
    return normed * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_axis_one',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Takes the statistics over axis=1, which is the feature axis only for a (T, d) input; for (B, T, d) it normalises over positions.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_bug_bias_typo',
        "exercise": 'layer_norm',
        "kind": 'bug',
        "mistake": 'Typo: adds weight where it should add bias.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    xhat = (x - mean) / np.sqrt(var + eps)
    return xhat * weight + weight
''',
    },
    # ---- lesson 02: causal_self_attention ----
    {
        "id": 'l02_causal_self_attention_right_swapaxes',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)

    def split_heads(a):
        return np.swapaxes(a.reshape(a.shape[:-1] + (n_head, d_k)), -2, -3)

    q, k, v = split_heads(q), split_heads(k), split_heads(v)
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    allowed = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    out = weights @ v
    out = np.swapaxes(out, -2, -3).reshape(x.shape)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_right_head_loop',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    d = x.shape[-1]
    T = x.shape[-2]
    hd = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    future = np.triu(np.ones((T, T), dtype=bool), 1)
    outs = []
    for h in range(n_head):
        cols = slice(h * hd, (h + 1) * hd)
        s = q[..., cols] @ np.swapaxes(k[..., cols], -1, -2) / hd ** 0.5
        s = np.where(future, -np.inf, s)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        p = e / e.sum(axis=-1, keepdims=True)
        outs.append(p @ v[..., cols])
    return np.concatenate(outs, axis=-1) @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_scale_by_d',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Scales the scores by sqrt(d), the model width, instead of sqrt(d_k), the head size.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    hs = d // n_head
    qkv = x @ w_qkv + b_qkv
    q = qkv[..., :d].reshape(*lead, T, n_head, hs)
    k = qkv[..., d:2 * d].reshape(*lead, T, n_head, hs)
    v = qkv[..., 2 * d:].reshape(*lead, T, n_head, hs)
    att = np.einsum("...qhc,...khc->...hqk", q, k) / d ** 0.5
    mask = np.triu(np.ones((T, T), dtype=bool), k=1)
    att = np.where(mask, -np.inf, att)
    att = np.exp(att - att.max(-1, keepdims=True))
    att = att / att.sum(-1, keepdims=True)
    y = np.einsum("...hqk,...khc->...qhc", att, v).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_np_sqrt_upcast',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Divides by np.sqrt(d_k), a float64 NumPy scalar, which turns float32 activations into float64.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2:]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = np.swapaxes(q.reshape(*q.shape[:-1], n_head, d_k), -3, -2)
    k = np.swapaxes(k.reshape(*k.shape[:-1], n_head, d_k), -3, -2)
    v = np.swapaxes(v.reshape(*v.shape[:-1], n_head, d_k), -3, -2)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = scores / scores.sum(axis=-1, keepdims=True)
    y = np.swapaxes(probs @ v, -3, -2).reshape(x.shape)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_mask_diagonal',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Masks the diagonal as well (tril with k=-1), so a position cannot attend to itself and the first position attends uniformly to the whole sequence.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = np.swapaxes(q.reshape(q.shape[:-1] + (n_head, d_k)), -2, -3)
    k = np.swapaxes(k.reshape(k.shape[:-1] + (n_head, d_k)), -2, -3)
    v = np.swapaxes(v.reshape(v.shape[:-1] + (n_head, d_k)), -2, -3)
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    past = np.tril(np.ones((T, T), dtype=bool), k=-1)
    scores = np.where(past, scores, -1e9)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    out = np.swapaxes(w @ v, -2, -3).reshape(x.shape)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_reshape_heads_no_transpose',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Splits the heads by reshaping (..., T, d) straight to (..., n_head, T, d_k) without the transpose, which scrambles positions and features across heads.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*lead, n_head, T, d_k)
    k = k.reshape(*lead, n_head, T, d_k)
    v = v.reshape(*lead, n_head, T, d_k)
    s = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = np.exp(s - s.max(-1, keepdims=True))
    s = s / s.sum(-1, keepdims=True)
    y = (s @ v).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_mask_after_softmax',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Applies the causal mask by zeroing the weights after the softmax, so the remaining weights of each row no longer sum to one.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = np.swapaxes(q.reshape(q.shape[:-1] + (n_head, d_k)), -2, -3)
    k = np.swapaxes(k.reshape(k.shape[:-1] + (n_head, d_k)), -2, -3)
    v = np.swapaxes(v.reshape(v.shape[:-1] + (n_head, d_k)), -2, -3)
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    scores = scores - scores.max(axis=-1, keepdims=True)
    att = np.exp(scores)
    att = att / att.sum(axis=-1, keepdims=True)
    att = att * np.tril(np.ones((T, T), dtype=x.dtype))
    out = np.swapaxes(att @ v, -2, -3).reshape(x.shape)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_softmax_over_queries',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Takes the softmax over the query axis (axis=-2) instead of over the keys (the last axis).',
        "source": r'''def softmax(a, axis):
    a = a - a.max(axis=axis, keepdims=True)
    e = np.exp(a)
    return e / e.sum(axis=axis, keepdims=True)


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    heads = []
    for part in np.split(qkv, 3, axis=-1):
        heads.append(np.swapaxes(part.reshape(part.shape[:-1] + (n_head, d_k)), -2, -3))
    q, k, v = heads
    scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    att = softmax(scores, axis=-2)
    out = np.swapaxes(att @ v, -2, -3).reshape(x.shape)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_bug_v_is_k',
        "exercise": 'causal_self_attention',
        "kind": 'bug',
        "mistake": 'Copy-paste slip: V is sliced from the same columns as K (d:2d) instead of the last d columns.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q = qkv[..., :d]
    k = qkv[..., d:2 * d]
    v = qkv[..., d:2 * d]

    def heads(a):
        return np.swapaxes(a.reshape(a.shape[:-1] + (n_head, d_k)), -2, -3)

    q, k, v = heads(q), heads(k), heads(v)
    s = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    s = s / s.sum(axis=-1, keepdims=True)
    y = np.swapaxes(s @ v, -2, -3).reshape(x.shape)
    return y @ w_o + b_o
''',
    },
    # ---- lesson 03: gelu_tanh ----
    {
        "id": 'l03_gelu_tanh_right_formula',
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
        "mistake": 'Computes the exact GELU x * Phi(x) with erf instead of GPT-2\'s tanh approximation.',
        "source": r'''def gelu_tanh(x):
    x = np.asarray(x)
    erf = np.vectorize(math.erf)
    out = 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))
    return out.astype(x.dtype)
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_np_sqrt_upcast',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Writes the constant as np.sqrt(2 / np.pi), a float64 NumPy scalar, which turns float32 input into float64 output.',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x * x * x)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_square_not_cube',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses x squared instead of x cubed in the correction term.',
        "source": r'''def gelu_tanh(x):
    inner = math.sqrt(2 / math.pi) * (x + 0.044715 * x * x)
    return 0.5 * x * (1 + np.tanh(inner))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_sqrt_2pi',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses sqrt(2 * pi) instead of sqrt(2 / pi) as the constant in front.',
        "source": r'''def gelu_tanh(x):
    k = math.sqrt(2 * math.pi)
    return 0.5 * x * (1 + np.tanh(k * (x + 0.044715 * x ** 3)))
''',
    },
    # ---- lesson 03: mlp ----
    {
        "id": 'l03_mlp_right_einsum',
        "exercise": 'mlp',
        "kind": 'right',
        "mistake": '',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    hidden = np.einsum("...i,ij->...j", x, w_fc) + b_fc
    hidden = gelu_tanh(hidden)
    return np.einsum("...j,jk->...k", hidden, w_proj) + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_relu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Uses ReLU between the two layers instead of GPT-2\'s GELU (tanh).',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = x @ w_fc + b_fc
    h = np.maximum(h, 0)
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_bias_after_gelu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Adds the first bias after the GELU instead of before it.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc) + b_fc
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_residual_inside',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Adds the residual connection inside the MLP, returning x + MLP(x) instead of MLP(x) alone.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return x + (h @ w_proj + b_proj)
''',
    },
    # ---- lesson 03: block ----
    {
        "id": 'l03_block_right_prefix',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    a = causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                              params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    x = x + a
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    m = mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
            params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
    return x + m
''',
    },
    {
        "id": 'l03_block_mistake_post_ln',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Builds a post-LN block (normalise after each residual addition, as in GPT-1) instead of GPT-2\'s pre-LN block.',
        "source": r'''def block(x, params, layer, n_head):
    w = lambda name: params[f"h.{layer}.{name}"]
    attn = causal_self_attention(x, w("attn.c_attn.weight"), w("attn.c_attn.bias"),
                                 w("attn.c_proj.weight"), w("attn.c_proj.bias"), n_head)
    x = layer_norm(x + attn, w("ln_1.weight"), w("ln_1.bias"))
    ff = mlp(x, w("mlp.c_fc.weight"), w("mlp.c_fc.bias"), w("mlp.c_proj.weight"), w("mlp.c_proj.bias"))
    return layer_norm(x + ff, w("ln_2.weight"), w("ln_2.bias"))
''',
    },
    {
        "id": 'l03_block_mistake_parallel_branches',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Feeds the MLP ln_2 of the block\'s input x rather than of x plus the attention output, so the two sub-layers run in parallel.',
        "source": r'''def block(x, params, layer, n_head):
    k = f"h.{layer}"
    h1 = layer_norm(x, params[f"{k}.ln_1.weight"], params[f"{k}.ln_1.bias"])
    attn = causal_self_attention(h1, params[f"{k}.attn.c_attn.weight"], params[f"{k}.attn.c_attn.bias"],
                                 params[f"{k}.attn.c_proj.weight"], params[f"{k}.attn.c_proj.bias"], n_head)
    h2 = layer_norm(x, params[f"{k}.ln_2.weight"], params[f"{k}.ln_2.bias"])
    ff = mlp(h2, params[f"{k}.mlp.c_fc.weight"], params[f"{k}.mlp.c_fc.bias"],
             params[f"{k}.mlp.c_proj.weight"], params[f"{k}.mlp.c_proj.bias"])
    return x + attn + ff
''',
    },
    {
        "id": 'l03_block_mistake_inplace_residual',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Adds the sub-layer outputs to x in place (x += ...), which changes the caller\'s array.',
        "source": r'''def block(x, params, layer, n_head):
    p = lambda name: params["h.%d.%s" % (layer, name)]
    x += causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                               p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                               p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    x += mlp(layer_norm(x, p("ln_2.weight"), p("ln_2.bias")),
             p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
    return x
''',
    },
    {
        "id": 'l03_block_mistake_layer_zero_keys',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Reads the keys of layer 0 (hard-coded "h.0.") whatever the layer argument says.',
        "source": r'''def block(x, params, layer, n_head):
    ln1 = layer_norm(x, params["h.0.ln_1.weight"], params["h.0.ln_1.bias"])
    x = x + causal_self_attention(ln1, params["h.0.attn.c_attn.weight"], params["h.0.attn.c_attn.bias"],
                                  params["h.0.attn.c_proj.weight"], params["h.0.attn.c_proj.bias"], n_head)
    ln2 = layer_norm(x, params["h.0.ln_2.weight"], params["h.0.ln_2.bias"])
    x = x + mlp(ln2, params["h.0.mlp.c_fc.weight"], params["h.0.mlp.c_fc.bias"],
                params["h.0.mlp.c_proj.weight"], params["h.0.mlp.c_proj.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_bug_ln2_args_swapped',
        "exercise": 'block',
        "kind": 'bug',
        "mistake": 'Passes ln_2\'s bias as its weight and its weight as its bias.',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    h = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(h, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    h = layer_norm(x, params[p + "ln_2.bias"], params[p + "ln_2.weight"])
    return x + mlp(h, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])
''',
    },
    # ---- lesson 04: init_gpt ----
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
        "id": 'l04_init_gpt_right_normal_helper',
        "exercise": 'init_gpt',
        "kind": 'right',
        "mistake": '',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer
    base_std = 0.02
    resid_std = 0.02 / (2 * L) ** 0.5

    def normal(shape, std):
        return rng.normal(0.0, std, size=shape).astype(np.float64)

    params = {"wte": normal((config.vocab_size, d), base_std),
              "wpe": normal((config.block_size, d), base_std)}
    for i in range(L):
        params.update({
            f"h.{i}.ln_1.weight": np.ones(d, dtype=np.float64),
            f"h.{i}.ln_1.bias": np.zeros(d, dtype=np.float64),
            f"h.{i}.attn.c_attn.weight": normal((d, 3 * d), base_std),
            f"h.{i}.attn.c_attn.bias": np.zeros(3 * d, dtype=np.float64),
            f"h.{i}.attn.c_proj.weight": normal((d, d), resid_std),
            f"h.{i}.attn.c_proj.bias": np.zeros(d, dtype=np.float64),
            f"h.{i}.ln_2.weight": np.ones(d, dtype=np.float64),
            f"h.{i}.ln_2.bias": np.zeros(d, dtype=np.float64),
            f"h.{i}.mlp.c_fc.weight": normal((d, 4 * d), base_std),
            f"h.{i}.mlp.c_fc.bias": np.zeros(4 * d, dtype=np.float64),
            f"h.{i}.mlp.c_proj.weight": normal((4 * d, d), resid_std),
            f"h.{i}.mlp.c_proj.bias": np.zeros(d, dtype=np.float64),
        })
    params["ln_f.weight"] = np.ones(d, dtype=np.float64)
    params["ln_f.bias"] = np.zeros(d, dtype=np.float64)
    return params
''',
    },
    {
        "id": 'l04_init_gpt_mistake_sqrt_L',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Scales the residual projections by 1/sqrt(L) instead of 1/sqrt(2L), forgetting that each block adds to the stream twice.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.standard_normal((V, d)) * 0.02,
         "wpe": rng.standard_normal((T, d)) * 0.02}
    scaled = 0.02 / math.sqrt(L)
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * scaled
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * scaled
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
        "mistake": 'Draws the position table with std 0.01 (OpenAI\'s TensorFlow value) instead of the 0.02 the table asks for.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer
    out = {}
    out["wte"] = rng.standard_normal((config.vocab_size, d)) * 0.02
    out["wpe"] = rng.standard_normal((config.block_size, d)) * 0.01
    proj = 0.02 / math.sqrt(2 * L)
    for i in range(L):
        pre = "h." + str(i) + "."
        out[pre + "ln_1.weight"], out[pre + "ln_1.bias"] = np.ones(d), np.zeros(d)
        out[pre + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        out[pre + "attn.c_attn.bias"] = np.zeros(3 * d)
        out[pre + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * proj
        out[pre + "attn.c_proj.bias"] = np.zeros(d)
        out[pre + "ln_2.weight"], out[pre + "ln_2.bias"] = np.ones(d), np.zeros(d)
        out[pre + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        out[pre + "mlp.c_fc.bias"] = np.zeros(4 * d)
        out[pre + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * proj
        out[pre + "mlp.c_proj.bias"] = np.zeros(d)
    out["ln_f.weight"], out["ln_f.bias"] = np.ones(d), np.zeros(d)
    return out
''',
    },
    {
        "id": 'l04_init_gpt_mistake_generator_per_tensor',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Makes a fresh np.random.default_rng(seed) for every tensor, so every layer gets identical weights and all tensors start from the same random numbers.',
        "source": r'''def init_gpt(config, seed):
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd

    def randn(shape, std):
        return np.random.default_rng(seed).standard_normal(shape) * std

    P = {"wte": randn((V, d), 0.02), "wpe": randn((T, d), 0.02)}
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = randn((d, 3 * d), 0.02)
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = randn((d, d), 0.02 / math.sqrt(2 * L))
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = randn((d, 4 * d), 0.02)
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = randn((4 * d, d), 0.02 / math.sqrt(2 * L))
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_lm_head_key',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Adds a separate lm_head.weight tensor although the head is tied to wte.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    small = 0.02 / math.sqrt(2 * L)
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.02
    for i in range(L):
        for ln in ("ln_1", "ln_2"):
            P[f"h.{i}.{ln}.weight"] = np.ones(d)
            P[f"h.{i}.{ln}.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * small
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * small
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    P["lm_head.weight"] = P["wte"].copy()
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_float32',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Stores every tensor as float32 (the PyTorch default) instead of the float64 the exercise asks for.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    f32 = np.float32

    def w(shape, std):
        return (rng.standard_normal(shape) * std).astype(f32)

    P = {"wte": w((V, d), 0.02), "wpe": w((T, d), 0.02)}
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d, f32)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d, f32)
        P[f"h.{i}.attn.c_attn.weight"] = w((d, 3 * d), 0.02)
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d, f32)
        P[f"h.{i}.attn.c_proj.weight"] = w((d, d), 0.02 / math.sqrt(2 * L))
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d, f32)
        P[f"h.{i}.ln_2.weight"] = np.ones(d, f32)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d, f32)
        P[f"h.{i}.mlp.c_fc.weight"] = w((d, 4 * d), 0.02)
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d, f32)
        P[f"h.{i}.mlp.c_proj.weight"] = w((4 * d, d), 0.02 / math.sqrt(2 * L))
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d, f32)
    P["ln_f.weight"] = np.ones(d, f32)
    P["ln_f.bias"] = np.zeros(d, f32)
    return P
''',
    },
    # ---- lesson 04: gpt_logits ----
    {
        "id": 'l04_gpt_logits_right_count_ln1',
        "exercise": 'gpt_logits',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = sum(1 for key in P if key.startswith("h.") and key.endswith(".ln_1.weight"))
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
        "mistake": 'Skips the final LayerNorm ln_f and applies the head straight to the last block\'s output.',
        "source": r'''def gpt_logits(P, idx, n_head):
    layers = sorted({int(k.split(".")[1]) for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in layers:
        x = block(x, P, i, n_head)
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_hardcoded_layers',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Hard-codes the tiny model\'s two layers instead of reading the number of layers from the keys.',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = 2
    h = embed(P["wte"], P["wpe"], idx)
    for layer in range(n_layer):
        h = block(h, P, layer, n_head)
    h = layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])
    return h @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_max_index_as_count',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Takes the largest layer index as the number of layers, so range(n_layer) skips the last block.',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = max(int(name.split(".")[1]) for name in P if name.startswith("h."))
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(n_layer):
        x = block(x, P, layer, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_returns_probabilities',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Applies a softmax at the end and returns probabilities instead of the logits.',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = len([k for k in P if k.endswith("ln_1.weight")])
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    logits = x @ P["wte"].T
    logits = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=-1, keepdims=True)
''',
    },
    {
        "id": 'l04_gpt_logits_bug_blocks_read_embeddings',
        "exercise": 'gpt_logits',
        "kind": 'bug',
        "mistake": 'Every block is applied to the embeddings x0 instead of the previous block\'s output, so only the last block counts.',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = sum(1 for k in P if k.endswith(".ln_1.weight"))
    x0 = embed(P["wte"], P["wpe"], idx)
    x = x0
    for i in range(n_layer):
        x = block(x0, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    # ---- lesson 04: tied_lm_loss_and_grad ----
    {
        "id": 'l04_tied_lm_loss_and_grad_right_add_at',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ = dZ / N
    dE = dZ.T @ H
    dH = dZ @ E
    dU = dH * (1 - H * H)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_right_one_hot',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    X = E[idx]
    H = np.tanh(X @ A)
    Z = H @ E.T
    m = Z.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(Z - m).sum(axis=-1, keepdims=True))
    probs = np.exp(Z - lse)
    target_logit = np.take_along_axis(Z, targets[..., None], axis=-1)
    loss = (lse - target_logit).mean()
    n = targets.size
    G = (probs - np.eye(V, dtype=E.dtype)[targets]) / n
    dE_head = G.reshape(-1, V).T @ H.reshape(-1, d)
    dU = (G @ E) * (1 - H ** 2)
    dX = dU @ A.T
    lookup = np.eye(V, dtype=E.dtype)[idx].reshape(-1, V)
    dE_lookup = lookup.T @ dX.reshape(-1, d)
    return loss, dE_head + dE_lookup
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_head_path_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Returns only the head\'s contribution dZ^T H to dE and forgets the gradient through the lookup E[idx].',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    X = E[idx].reshape(-1, d)
    t = targets.reshape(-1)
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    P = np.exp(Z)
    P = P / P.sum(axis=1, keepdims=True)
    n = len(t)
    loss = -np.log(P[np.arange(n), t]).mean()
    P[np.arange(n), t] -= 1
    dZ = P / n
    dE = dZ.T @ H
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_lookup_path_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Back-propagates only through the lookup (scattering dX into dE) and forgets that E is also the head matrix.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    flat = idx.reshape(-1)
    t = targets.reshape(-1)
    n = flat.size
    X = E[flat]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(-1, keepdims=True))
    loss = -logp[np.arange(n), t].mean()
    dZ = np.exp(logp)
    dZ[np.arange(n), t] -= 1
    dZ /= n
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    dE = np.zeros_like(E)
    np.add.at(dE, flat, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_fancy_index_no_accumulate',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Scatters the lookup gradient with dE[ids] += dX, which keeps only one contribution when an id repeats instead of accumulating them.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = idx.reshape(-1)
    t = targets.reshape(-1)
    n = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(n), t].mean()
    dZ = np.exp(logp)
    dZ[np.arange(n), t] -= 1
    dZ = dZ / n
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H * H)) @ A.T
    dE[ids] += dX
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_mean_over_batch_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Divides by the number of sequences (idx.shape[0]) instead of the number of positions, which is only right for a single sequence.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    n = idx.shape[0]
    ids = idx.reshape(-1)
    t = targets.reshape(-1)
    rows = np.arange(ids.size)
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[rows, t].sum() / n
    dZ = np.exp(logp)
    dZ[rows, t] -= 1
    dZ = dZ / n
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H * H)) @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_no_tanh_derivative',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Passes the gradient through the tanh unchanged, forgetting to multiply by tanh\'(u) = 1 - tanh(u)^2.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = idx.reshape(-1)
    t = targets.reshape(-1)
    N = ids.size
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z -= Z.max(axis=1, keepdims=True)
    P = np.exp(Z)
    P /= P.sum(axis=1, keepdims=True)
    loss = -np.log(P[np.arange(N), t]).mean()
    dZ = P.copy()
    dZ[np.arange(N), t] -= 1
    dZ /= N
    dE = dZ.T @ H
    dH = dZ @ E
    dX = dH @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_bug_swapped_return',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'bug',
        "mistake": 'Returns (dE, loss) instead of (loss, dE).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ = dZ / N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H * H)) @ A.T
    np.add.at(dE, ids, dX)
    return dE, loss
''',
    },
    # ---- lesson 05: count_gpt2_params ----
    {
        "id": 'l05_count_gpt2_params_right_formula',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    embeddings = V * d + T * d
    layer_norm = d + b * d
    attn = (d * 3 * d + b * 3 * d) + (d * d + b * d)
    mlp = (d * 4 * d + b * 4 * d) + (4 * d * d + b * d)
    per_block = 2 * layer_norm + attn + mlp
    total = embeddings + L * per_block + layer_norm
    if not tied:
        total += V * d
    return int(total)
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_tied_counted_twice',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Always adds a V x d head, so the tied head is counted a second time.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    def linear(n_in, n_out):
        return n_in * n_out + (n_out if bias else 0)

    def ln():
        return d + (d if bias else 0)

    block = 2 * ln() + linear(d, 3 * d) + linear(d, d) + linear(d, 4 * d) + linear(4 * d, d)
    head = V * d
    return V * d + T * d + L * block + ln() + head
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_untied_head_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Gives the untied head a bias of length V as if it were an ordinary linear layer.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    def linear(n_in, n_out, with_bias=bias):
        return n_in * n_out + (n_out if with_bias else 0)

    ln = d + (d if bias else 0)
    block = 2 * ln + linear(d, 3 * d) + linear(d, d) + linear(d, 4 * d) + linear(4 * d, d)
    total = V * d + T * d + L * block + ln
    if not tied:
        total += linear(d, V)
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_no_bias_drops_gains',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False drops the LayerNorms entirely, gains included, although the gains must stay.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    weights = V * d + T * d + L * (3 * d * d + d * d + 4 * d * d + 4 * d * d)
    if not tied:
        weights += V * d
    if not bias:
        return weights
    biases = L * (3 * d + d + 4 * d + d)
    layer_norms = (2 * L + 1) * 2 * d
    return weights + biases + layer_norms
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_no_bias_keeps_ln_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False removes only the linear layers\' biases and keeps the LayerNorms\' biases.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    ln = 2 * d
    attn = 3 * d * d + d * d
    mlp = 4 * d * d + 4 * d * d
    if bias:
        attn += 3 * d + d
        mlp += 4 * d + d
    n = V * d + T * d + L * (2 * ln + attn + mlp) + ln
    if not tied:
        n += V * d
    return n
''',
    },
    {
        "id": 'l05_count_gpt2_params_bug_plus_for_times',
        "exercise": 'count_gpt2_params',
        "kind": 'bug',
        "mistake": 'Typo in the position table: T + d instead of T * d.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    emb = V * d + T + d
    ln = d + b * d
    block = 2 * ln + (3 * d * d + 3 * d * b) + (d * d + d * b) + (4 * d * d + 4 * d * b) + (4 * d * d + d * b)
    total = emb + L * block + ln
    if not tied:
        total += V * d
    return total
''',
    },
    # ---- lesson 06: numpy_to_torch ----
    {
        "id": 'l06_numpy_to_torch_right_rename_map',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''LINEAR_WEIGHTS = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def module_name(key):
    if key == "wte":
        return "transformer.wte.weight"
    if key == "wpe":
        return "transformer.wpe.weight"
    return "transformer." + key


def numpy_to_torch(P, model):
    source = {module_name(k): k for k in P}
    missing = sorted(set(model) - set(source))
    unexpected = sorted(source[n] for n in set(source) - set(model))
    if missing or unexpected:
        raise ValueError(f"keys do not match: the model needs {missing} that P lacks; "
                         f"P has {unexpected} that the model does not")
    out = {}
    for name, target in model.items():
        arr = np.asarray(P[source[name]])
        if name.endswith(LINEAR_WEIGHTS):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: shape {arr.shape} after the transpose, "
                             f"but the model has {target.shape}")
        out[name] = np.array(arr, dtype=target.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_no_transpose',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Copies every tensor as it is, without transposing the four Conv1D weights (in, out) to nn.Linear\'s (out, in).',
        "source": r'''def numpy_to_torch(P, model):
    def name(k):
        return {"wte": "transformer.wte.weight", "wpe": "transformer.wpe.weight"}.get(k, "transformer." + k)

    renamed = {name(k): v for k, v in P.items()}
    if set(renamed) != set(model):
        raise ValueError(f"missing {sorted(set(model) - set(renamed))}, unexpected {sorted(set(renamed) - set(model))}")
    out = {}
    for k, ref in model.items():
        if renamed[k].shape != ref.shape:
            raise ValueError(f"{k}: shape {renamed[k].shape}, the model wants {ref.shape}")
        out[k] = renamed[k].astype(ref.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_by_shape',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Decides the transpose by shape (transposes when the shapes differ), so the square attn.c_proj weight is silently copied untransposed.',
        "source": r'''def numpy_to_torch(P, model):
    out = {}
    used = set()
    for name, ref in model.items():
        key = name.removeprefix("transformer.")
        if key in ("wte.weight", "wpe.weight"):
            key = key.split(".")[0]
        if key not in P:
            raise ValueError(f"P lacks {key!r} (for {name})")
        used.add(key)
        arr = P[key]
        if arr.shape != ref.shape and arr.T.shape == ref.shape:
            arr = arr.T
        if arr.shape != ref.shape:
            raise ValueError(f"{name}: shape {arr.shape} does not match the model's {ref.shape}")
        out[name] = np.array(arr, dtype=ref.dtype)
    extra = sorted(set(P) - used)
    if extra:
        raise ValueError(f"P has keys the model does not: {extra}")
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_adds_lm_head',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Adds an lm_head.weight entry (a copy of wte) although the model lists the tied head once, as transformer.wte.weight.',
        "source": r'''TRANSPOSE = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    wanted = {}
    for k in P:
        wanted[{"wte": "transformer.wte.weight", "wpe": "transformer.wpe.weight"}.get(k, "transformer." + k)] = k
    if set(wanted) != set(model):
        raise ValueError(f"mismatched keys: missing {sorted(set(model) - set(wanted))}, "
                         f"unexpected {sorted(set(wanted) - set(model))}")
    out = {}
    for name, ref in model.items():
        a = P[wanted[name]]
        a = a.T if name.endswith(TRANSPOSE) else a
        if a.shape != ref.shape:
            raise ValueError(f"{name}: {a.shape} vs {ref.shape}")
        out[name] = a.astype(ref.dtype)
    out["lm_head.weight"] = out["transformer.wte.weight"].copy()
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_mutates_P',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Transposes the weights by writing back into P (P[k] = P[k].T), changing the caller\'s dictionary.',
        "source": r'''def numpy_to_torch(P, model):
    for k in list(P):
        if k.endswith(("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")):
            P[k] = P[k].T
    names = {k: ("transformer." + k + ".weight" if k in ("wte", "wpe") else "transformer." + k) for k in P}
    missing = [m for m in model if m not in names.values()]
    extra = [k for k, n in names.items() if n not in model]
    if missing or extra:
        raise ValueError(f"missing {missing}; unexpected {extra}")
    out = {}
    for k, n in names.items():
        if P[k].shape != model[n].shape:
            raise ValueError(f"{n}: {P[k].shape} != {model[n].shape}")
        out[n] = P[k].astype(model[n].dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_bug_wpe_renamed_wte',
        "exercise": 'numpy_to_torch',
        "kind": 'bug',
        "mistake": 'Copy-paste slip in the renaming: wpe is mapped to transformer.wte.weight, so the position table overwrites the token table and wpe goes missing.',
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    renamed = {}
    for k, v in P.items():
        if k == "wte":
            renamed["transformer.wte.weight"] = v
        elif k == "wpe":
            renamed["transformer.wte.weight"] = v
        else:
            renamed["transformer." + k] = v
    missing = sorted(set(model) - set(renamed))
    extra = sorted(set(renamed) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}, unexpected keys {extra}")
    out = {}
    for name, ref in model.items():
        a = renamed[name].T if name.endswith(LINEAR) else renamed[name]
        if a.shape != ref.shape:
            raise ValueError(f"{name}: {a.shape} instead of {ref.shape}")
        out[name] = np.array(a, dtype=ref.dtype)
    return out
''',
    },
    # ---- lesson 06: load_hf_state_dict ----
    {
        "id": 'l06_load_hf_state_dict_right_filter_then_check',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv1d = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    tensors = {k: v for k, v in state_dict.items()
               if not k.endswith((".attn.bias", ".attn.masked_bias")) and k != "lm_head.weight"}
    missing = [k for k in model if k not in tensors]
    unexpected = [k for k in tensors if k not in model]
    if missing:
        raise ValueError(f"state dict lacks {missing}")
    if unexpected:
        raise ValueError(f"state dict has tensors the model does not: {unexpected}")
    out = {}
    for k, ref in model.items():
        v = np.asarray(tensors[k])
        if k.endswith(conv1d):
            v = v.T
        if v.shape != ref.shape:
            raise ValueError(f"{k}: shape {v.shape} (after transposing), model has {ref.shape}")
        out[k] = v.astype(ref.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_drops_c_attn_bias',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips every key ending in "attn.bias" without the leading dot, which also throws away the parameter attn.c_attn.bias.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    transpose = ("c_attn.weight", "c_proj.weight", "c_fc.weight")
    sd = {}
    for k, v in state_dict.items():
        if k.endswith("attn.bias") or k.endswith("attn.masked_bias") or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = sorted(set(model) - set(sd))
    unexpected = sorted(set(sd) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing: {missing}; unexpected: {unexpected}")
    out = {}
    for k, ref in model.items():
        v = sd[k].T if k.endswith(transpose) else sd[k]
        if v.shape != ref.shape:
            raise ValueError(f"{k}: {v.shape} != {ref.shape}")
        out[k] = v.astype(ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_keeps_lm_head',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Passes lm_head.weight through to the result instead of leaving the tied head out.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    flip = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    params = {k: v for k, v in state_dict.items() if not k.endswith((".attn.bias", ".attn.masked_bias"))}
    missing = [k for k in model if k not in params]
    unexpected = [k for k in params if k not in model and k != "lm_head.weight"]
    if missing or unexpected:
        raise ValueError(f"missing {missing}, unexpected {unexpected}")
    out = {}
    for k, v in params.items():
        if k.endswith(flip):
            v = v.T
        ref = model.get(k, model["transformer.wte.weight"])
        if v.shape != ref.shape:
            raise ValueError(f"{k}: got {v.shape}, expected {ref.shape}")
        out[k] = np.array(v, dtype=ref.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_masked_bias_not_skipped',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips the .attn.bias buffers but not the older .attn.masked_bias ones, so an older checkpoint is refused as having unexpected keys.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    linear = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    sd = {k: v for k, v in state_dict.items() if not k.endswith(".attn.bias")}
    sd.pop("lm_head.weight", None)
    missing = sorted(set(model) - set(sd))
    extra = sorted(set(sd) - set(model))
    if missing or extra:
        raise ValueError(f"state dict does not match the model: missing {missing}, unexpected {extra}")
    result = {}
    for name, ref in model.items():
        arr = sd[name].T if name.endswith(linear) else sd[name]
        if arr.shape != ref.shape:
            raise ValueError(f"{name}: shape {arr.shape}, model {ref.shape}")
        result[name] = arr.astype(ref.dtype, copy=True)
    return result
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_keeps_state_dict_dtype',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Copies each tensor in the state dict\'s dtype instead of casting it to the model\'s dtype (a float32 checkpoint into a float64 model stays float32).',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    skip = lambda k: k == "lm_head.weight" or k.endswith(".attn.bias") or k.endswith(".attn.masked_bias")
    kept = {k: v for k, v in state_dict.items() if not skip(k)}
    if set(kept) != set(model):
        raise ValueError(f"missing {sorted(set(model) - set(kept))}, unexpected {sorted(set(kept) - set(model))}")
    out = {}
    for k in model:
        v = kept[k].T.copy() if k.endswith(conv) else kept[k].copy()
        if v.shape != model[k].shape:
            raise ValueError(f"{k}: {v.shape} vs the model's {model[k].shape}")
        out[k] = v
    return out
''',
    },
    # ---- lesson 07: sinusoidal_positions ----
    {
        "id": 'l07_sinusoidal_positions_right_interleave',
        "exercise": 'sinusoidal_positions',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even for sine/cosine pairs, got d = {d}")
    t = np.arange(T, dtype=np.float64)[:, None]
    i = np.arange(d // 2, dtype=np.float64)[None, :]
    omega = base ** (-2.0 * i / d)
    angles = t * omega
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(T, d)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_halves_layout',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Puts all the sines in the first half of the columns and all the cosines in the second half instead of interleaving them.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"d = {d} is odd")
    pos = np.arange(T)[:, None]
    freqs = base ** (-2 * np.arange(d // 2) / d)
    ang = pos * freqs
    return np.concatenate([np.sin(ang), np.cos(ang)], axis=1)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_exponent_per_column',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Uses the column index j in the exponent (base ** (-j / d)), so each cosine column gets a different frequency from the sine beside it.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 == 1:
        raise ValueError(f"d must be even, got {d}")
    j = np.arange(d)
    omega = base ** (-j / d)
    angles = np.arange(T)[:, None] * omega[None, :]
    pe = np.where(j % 2 == 0, np.sin(angles), np.cos(angles))
    return pe.astype(np.float64)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_positions_from_one',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Numbers the positions 1..T instead of 0..T-1.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"odd d = {d}: the columns must come in pairs")
    pe = np.zeros((T, d))
    pos = np.arange(1, T + 1)[:, None]
    w = base ** (-np.arange(0, d, 2) / d)
    pe[:, 0::2] = np.sin(pos * w)
    pe[:, 1::2] = np.cos(pos * w)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_hardcoded_base',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Hard-codes 10000 in the frequencies and ignores the base argument.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError("d must be even, got %d" % d)
    pe = np.empty((T, d), dtype=np.float64)
    position = np.arange(T, dtype=np.float64)[:, None]
    div = np.exp(np.arange(0, d, 2) * (-np.log(10000.0) / d))
    pe[:, 0::2] = np.sin(position * div)
    pe[:, 1::2] = np.cos(position * div)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_bug_two_sines',
        "exercise": 'sinusoidal_positions',
        "kind": 'bug',
        "mistake": 'Copy-paste slip: the odd columns get the sine again instead of the cosine.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"d must be even, got d={d}")
    t = np.arange(T, dtype=np.float64)[:, None]
    omega = base ** (-2.0 * np.arange(d // 2) / d)
    pe = np.zeros((T, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.sin(t * omega)
    return pe
''',
    },
    # ---- lesson 07: position_similarity ----
    {
        "id": 'l07_position_similarity_right_unit_rows',
        "exercise": 'position_similarity',
        "kind": 'right',
        "mistake": '',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a (T, d) table, got shape {wpe.shape}")
    unit = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
    return unit @ unit.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_columns',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Compares the columns (features) instead of the rows (positions), returning a (d, d) matrix.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    cols = wpe / np.linalg.norm(wpe, axis=0, keepdims=True)
    return cols.T @ cols
''',
    },
    {
        "id": 'l07_position_similarity_mistake_inplace_normalise',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Normalises the rows in place (wpe /= norms), which changes the caller\'s table.',
        "source": r'''def position_similarity(wpe):
    if len(wpe.shape) != 2:
        raise ValueError(f"position table must be 2-D, got {wpe.shape}")
    wpe /= np.sqrt((wpe * wpe).sum(axis=1, keepdims=True))
    return wpe @ wpe.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_corrcoef',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Uses np.corrcoef, the Pearson correlation, which centres each row before comparing instead of taking the plain cosine.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"need a 2-D table, got shape {wpe.shape}")
    return np.corrcoef(wpe).astype(wpe.dtype)
''',
    },
    # ---- lesson 07: principal_components ----
    {
        "id": 'l07_principal_components_right_svd',
        "exercise": 'principal_components',
        "kind": 'right',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be a 2-D (T, d) table, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} is more than the {min(T, d)} directions a table has (min(T, d) = {min(T, d)})")
    X = wpe.astype(np.float64)
    X = X - X.mean(axis=0)
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    dirs = Vt[:k]
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
    shape = wpe.shape
    if len(shape) != 2:
        raise ValueError(f"expected a 2-D table, got wpe.shape = {shape}")
    T, d = shape
    limit = min(T, d)
    if k > limit:
        raise ValueError(f"asked for k={k} components, but min(T, d) = {limit}")
    centred = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0, keepdims=True)
    cov = centred.T @ centred / T
    eigvals, eigvecs = np.linalg.eigh(cov)
    order = np.argsort(eigvals)[::-1][:k]
    vecs = eigvecs[:, order]
    for j in range(k):
        if vecs[np.argmax(np.abs(vecs[:, j])), j] < 0:
            vecs[:, j] = -vecs[:, j]
    return (centred @ vecs).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_no_centring',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Runs the SVD on the raw rows without subtracting the mean row first.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} exceeds min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    V = Vt[:k].T
    for j in range(k):
        if V[np.argmax(np.abs(V[:, j])), j] < 0:
            V[:, j] *= -1
    return (X @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_eigh_ascending',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Takes the last k eigenvectors of eigh without reversing them, so the columns come smallest variance first instead of largest first.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"not a 2-D table: shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} > min(T, d)={min(T, d)}")
    X = wpe - wpe.mean(axis=0)
    C = np.cov(X, rowvar=False)
    vals, vecs = np.linalg.eigh(C)
    top = vecs[:, -k:]
    idx = np.argmax(np.abs(top), axis=0)
    top = top * np.sign(top[idx, np.arange(k)])
    return (X @ top).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_sign_first_entry',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Fixes each direction\'s sign by making its first entry positive instead of its largest-magnitude entry.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} is larger than min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    X -= X.mean(axis=0)
    U, S, Vt = np.linalg.svd(X, full_matrices=False)
    W = Vt[:k].copy()
    W[W[:, 0] < 0] *= -1
    return (X @ W.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_returns_u',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Returns the left singular vectors U[:, :k] (unit-length scores) instead of the projections U S, forgetting the singular values.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe.shape = {wpe.shape} is not 2-D")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k}, but only min(T, d)={min(T, d)} components exist")
    X = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0)
    U, S, Vt = np.linalg.svd(X, full_matrices=False)
    U, Vt = U[:, :k], Vt[:k]
    s = np.sign(Vt[np.arange(k), np.abs(Vt).argmax(axis=1)])
    return (U * s).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_k_checked_against_d',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Checks k only against d (the width), so a k between T and d is accepted instead of raising a ValueError naming min(T, d).',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > d:
        raise ValueError(f"k={k} is more than d={d}")
    X = wpe.astype(np.float64)
    X = X - X.mean(0)
    _, _, Vt = np.linalg.svd(X, full_matrices=True)
    dirs = Vt[:k]
    dirs = dirs * np.sign(dirs[np.arange(k), np.abs(dirs).argmax(1)])[:, None]
    return (X @ dirs.T).astype(wpe.dtype)
''',
    },
    # ---- lesson 08: cross_entropy ----
    {
        "id": 'l08_cross_entropy_right_logsumexp',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape}, but logits {logits.shape} "
                         f"need targets of shape {logits.shape[:-1]}")
    V = logits.shape[-1]
    bad = targets[(targets < 0) | (targets >= V)]
    if bad.size:
        raise ValueError(f"target id {bad.flat[0]} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    lse = m[..., 0] + np.log(np.exp(logits - m).sum(axis=-1))
    picked = np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return (lse - picked).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_log_of_softmax',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Subtracts the max but then takes the log of the softmax probability, which underflows to log(0) = -inf for a target far below its row\'s largest logit.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} does not match logits shape {logits.shape}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        raise ValueError(f"target id out of range: {targets[(targets < 0) | (targets >= V)][0]}")
    z = logits - logits.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    p_target = np.take_along_axis(p, targets[..., None], axis=-1)
    return -np.log(p_target).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_negative_ids_accepted',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Checks only targets >= V, so a negative id is silently read as an id counted from the end.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} vs logits {logits.shape}")
    V = logits.shape[-1]
    too_big = targets[targets >= V]
    if too_big.size:
        raise ValueError(f"target id {too_big.flat[0]} is not below V = {V}")
    z = logits.reshape(-1, V)
    t = targets.reshape(-1)
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -logp[np.arange(len(t)), t].mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_float_return',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Wraps the loss in float(...), returning a Python float instead of a NumPy scalar of the logits\' dtype.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} should be {logits.shape[:-1]}")
    V = logits.shape[-1]
    if targets.size and (targets.min() < 0 or targets.max() >= V):
        bad = targets[(targets < 0) | (targets >= V)].flat[0]
        raise ValueError(f"target id {bad} outside [0, {V})")
    m = logits.max(-1, keepdims=True)
    logZ = np.log(np.exp(logits - m).sum(-1, keepdims=True)) + m
    nll = logZ - np.take_along_axis(logits, targets[..., None], -1)
    return float(nll.mean())
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_no_shape_check',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Never compares targets.shape with logits.shape[:-1], so mismatched shapes broadcast into a wrong loss or fail with an IndexError instead of the ValueError.',
        "source": r'''def cross_entropy(logits, targets):
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {np.asarray(targets)[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_probs, np.expand_dims(targets, -1), axis=-1)
    return -picked.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_fancy_index_all_pairs',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Picks the targets with logp[..., targets], which takes every target column for every row (an (N, N) block) instead of one target per row.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"shape mismatch: targets {targets.shape}, logits {logits.shape}")
    V = logits.shape[-1]
    if ((targets < 0) | (targets >= V)).any():
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)][0]} outside [0, {V})")
    m = np.max(logits, axis=-1, keepdims=True)
    logp = logits - m - np.log(np.sum(np.exp(logits - m), axis=-1, keepdims=True))
    return -np.mean(logp[..., targets])
''',
    },
    {
        "id": 'l08_cross_entropy_bug_sign_flipped',
        "exercise": 'cross_entropy',
        "kind": 'bug',
        "mistake": 'Sign slip: returns the mean log-probability (target logit minus logsumexp) instead of its negative.',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape}, logits {logits.shape}")
    V = logits.shape[-1]
    bad = targets[(targets < 0) | (targets >= V)]
    if bad.size:
        raise ValueError(f"target id {bad.flat[0]} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    lse = m[..., 0] + np.log(np.exp(logits - m).sum(axis=-1))
    picked = np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return (picked - lse).mean()
''',
    },
    # ---- lesson 08: get_batch ----
    {
        "id": 'l08_get_batch_right_offsets',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    data = np.asarray(data)
    if len(data) < block_size + 1:
        raise ValueError(f"data holds {len(data)} ids, but a window of block_size {block_size} "
                         f"needs {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    offsets = np.arange(block_size)
    x = data[starts[:, None] + offsets].astype(np.int64)
    y = data[starts[:, None] + offsets + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_upper_end_minus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with an upper end of len(data) - block_size - 1, thinking it inclusive, so the draws differ from the required call and the last window is never chosen.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    n = len(data)
    if n < block_size + 1:
        raise ValueError(f"len(data) = {n} is less than block_size + 1 = {block_size + 1}")
    ix = rng.integers(0, n - block_size - 1, size=batch_size)
    x = np.stack([data[i:i + block_size] for i in ix]).astype(np.int64)
    y = np.stack([data[i + 1:i + block_size + 1] for i in ix]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_keeps_uint8',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Returns the windows in the data\'s own dtype (uint8 for the corpus) instead of int64.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"need at least block_size + 1 = {block_size + 1} ids, data has {len(data)}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts])
    y = np.stack([data[s + 1:s + 1 + block_size] for s in starts])
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_length_check_off_by_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Raises only when len(data) < block_size, so data of exactly block_size ids slips past the check and fails inside rng.integers with NumPy\'s own message.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size:
        raise ValueError(f"data has {len(data)} ids, fewer than block_size {block_size}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    idx = starts[:, None] + np.arange(block_size)[None, :]
    return data[idx].astype(np.int64), data[idx + 1].astype(np.int64)
''',
    },
    {
        "id": 'l08_get_batch_mistake_roll_targets',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Builds the targets by rolling x one step left, so each row\'s last target wraps round to its first input instead of the id after the window.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} < block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.array([data[s:s + block_size] for s in starts], dtype=np.int64)
    y = np.roll(x, -1, axis=1)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_bug_window_too_long',
        "exercise": 'get_batch',
        "kind": 'bug',
        "mistake": 'Off-by-one in the slice: x takes block_size + 1 ids, so x has the wrong shape.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data holds {len(data)} ids, block_size {block_size} needs {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size + 1] for s in starts]).astype(np.int64)
    y = np.stack([data[s + 1:s + block_size + 1] for s in starts]).astype(np.int64)
    return x, y
''',
    },
    # ---- lesson 08: sample_next ----
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
        order = np.argsort(-z, axis=-1, kind="stable")[:, :top_k]
        keep = np.zeros(z.shape, dtype=bool)
        np.put_along_axis(keep, order, True, axis=-1)
        z = np.where(keep, z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    cdf = np.cumsum(p, axis=-1)
    cdf = cdf / cdf[:, -1:]
    u = rng.random((B, 1))
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
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature!r}")
    z = logits.astype(np.float64) / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        kept = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, kept, np.take_along_axis(z, kept, axis=-1), axis=-1)
        z = masked
    g = rng.gumbel(size=z.shape)
    return np.argmax(z + g, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_temperature_on_probs',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Divides the probabilities by the temperature after the softmax and renormalises, which cancels out, so the temperature has no effect.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature {temperature} must be positive")
    z = logits.astype(np.float64)
    B, V = z.shape
    if top_k is not None and top_k < V:
        top = np.argsort(z, axis=1)[:, V - top_k:]
        mask = np.ones_like(z, dtype=bool)
        np.put_along_axis(mask, top, False, axis=1)
        z[mask] = -np.inf
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p = p / p.sum(axis=1, keepdims=True)
    p = p / temperature
    p = p / p.sum(axis=1, keepdims=True)
    return np.array([rng.choice(V, p=p[b]) for b in range(B)], dtype=np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_topk_threshold_keeps_ties',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Keeps every logit at least as large as the k-th largest (nanoGPT\'s threshold), so ties at the k-th place keep more than top_k candidates.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    if top_k is not None:
        k = min(top_k, z.shape[-1])
        kth = np.sort(z, axis=-1)[:, -k][:, None]
        z = np.where(z < kth, -np.inf, z)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    u = rng.random((z.shape[0], 1))
    ids = (np.cumsum(p, axis=-1) < u).sum(axis=-1)
    return np.minimum(ids, z.shape[-1] - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_global_numpy_rng',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Draws with np.random.choice (the global generator) instead of the rng it is given, so the same rng state does not give the same ids.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        drop = np.argsort(z, axis=-1)[:, :V - top_k]
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    out = np.empty(B, dtype=np.int64)
    for b in range(B):
        out[b] = np.random.choice(V, p=p[b])
    return out
''',
    },
    {
        "id": 'l08_sample_next_mistake_one_uniform_for_all_rows',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Draws a single uniform number and uses it for every row, so the rows\' draws are not independent (identical rows always get the same id).',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) / temperature
    V = z.shape[1]
    if top_k is not None and top_k < V:
        order = np.argsort(-z, axis=1, kind="stable")
        z[np.arange(len(z))[:, None], order[:, top_k:]] = -np.inf
    p = np.exp(z - z.max(axis=1, keepdims=True))
    cdf = np.cumsum(p, axis=1)
    cdf /= cdf[:, -1:]
    u = rng.random()
    return (cdf <= u).sum(axis=1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_topk_at_least_V_crashes',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Applies top-k with np.argpartition whatever top_k is, so a top_k larger than V raises instead of keeping every id.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) / temperature
    if top_k is not None:
        top = np.argpartition(z, -top_k, axis=-1)[:, -top_k:]
        kept = np.full_like(z, -np.inf)
        np.put_along_axis(kept, top, np.take_along_axis(z, top, axis=-1), axis=-1)
        z = kept
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    return np.array([rng.choice(len(row), p=row) for row in p], dtype=np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_unstable_softmax',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Exponentiates the scaled logits without subtracting the row maximum, so logits near 800 overflow to inf and give NaN probabilities.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    B, V = z.shape
    e = np.exp(z)
    if top_k is not None and top_k < V:
        drop = np.argsort(-z, axis=-1, kind="stable")[:, top_k:]
        np.put_along_axis(e, drop, 0.0, axis=-1)
    p = e / e.sum(axis=-1, keepdims=True)
    u = rng.random((B, 1))
    return (np.cumsum(p, axis=-1) <= u).sum(axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_bug_temperature_unused',
        "exercise": 'sample_next',
        "kind": 'bug',
        "mistake": 'Computes z = logits / temperature but then builds the softmax from logits, so the temperature is ignored.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) / temperature
    B, V = z.shape
    keep = np.ones((B, V), dtype=bool)
    if top_k is not None and top_k < V:
        keep[:] = False
        np.put_along_axis(keep, np.argsort(-z, axis=-1, kind="stable")[:, :top_k], True, axis=-1)
    s = np.where(keep, logits, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    cdf = np.cumsum(p, axis=-1)
    cdf /= cdf[:, -1:]
    u = rng.random((B, 1))
    return (cdf <= u).sum(axis=-1).astype(np.int64)
''',
    },
]

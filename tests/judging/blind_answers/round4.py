"""Blind learner answers, round 4: written from the lessons and exercise notebooks alone."""

ANSWERS = [
    # ---- lesson 01 ----
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
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_right_nptake_arange',
        "exercise": 'embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    n_tokens = np.shape(idx)[-1]
    if n_tokens > len(wpe):
        raise ValueError(
            "cannot embed %d tokens: the position table (block size) only has %d positions"
            % (n_tokens, len(wpe)))
    tok = np.take(wte, idx, axis=0)
    pos = np.take(wpe, np.arange(n_tokens), axis=0)
    out = tok + pos
    return out
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
    return wte[idx] + wpe[idx]
''',
    },
    {
        "id": 'l01_embed_mistake_no_check',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": "Never checks T against the block size, so a too-long sequence fails with NumPy's broadcasting error instead of a ValueError naming the block size.",
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_off_by_one_limit',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Uses T >= block_size as the error condition, so a sequence of exactly block_size tokens is wrongly rejected.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T >= block_size:
        raise ValueError(f"sequence length {T} exceeds the block size {block_size}")
    return wte[idx] + wpe[np.arange(T)]
''',
    },
    {
        "id": 'l01_embed_mistake_vague_message',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'The ValueError message only gives the two numbers and never says which limit (block, context or position) was crossed.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"{T} > {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_T_from_first_axis',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Takes the sequence length from idx.shape[0], which is the batch size for a (B, T) input, so batched positions are wrong or fail to broadcast.',
        "source": r'''def embed(wte, wpe, idx):
    T = len(idx)
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_float64_buffer',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Builds the output in a np.zeros buffer with the default float64 dtype, so float32 tables come back upcast to float64.',
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
        "id": 'l01_embed_bug_missing_colon',
        "exercise": 'embed',
        "kind": 'bug',
        "mistake": 'Writes wpe[T] instead of wpe[:T], adding the single row T (or failing at T == block_size) to every position.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[T]
''',
    },
    {
        "id": 'l01_one_hot_embed_right_eye',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.eye(V, dtype=wte.dtype)[idx]
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_right_compare',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    idx = np.asarray(idx)
    V = wte.shape[0]
    one_hot = (idx[..., None] == np.arange(V)).astype(wte.dtype)
    return np.matmul(one_hot, wte)
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_float64_eye',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": "Builds the one-hot matrix with np.eye's default float64 dtype, so a float32 table gives a float64 result.",
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    return np.eye(V)[idx] @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_1d_only',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Fills the one-hot matrix with oh[np.arange(len(idx)), idx] = 1, which only works for a 1-D idx and breaks for a (B, T) batch.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    oh = np.zeros((len(idx), V), dtype=wte.dtype)
    oh[np.arange(len(idx)), idx] = 1
    return oh @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_V_from_ids',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Takes the vocabulary size from idx.max() + 1 instead of wte.shape[0], so the one-hot width does not match the table whenever the largest id is below V - 1.',
        "source": r'''def one_hot_embed(wte, idx):
    V = int(idx.max()) + 1
    one_hot = np.eye(V, dtype=wte.dtype)[idx]
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_ellipsis_fill',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Sets oh[..., idx] = 1, which puts a one in every column that occurs anywhere in idx on every row, so rows become sums of several token rows.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    oh = np.zeros(idx.shape + (V,), dtype=wte.dtype)
    oh[..., idx] = 1
    return oh @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_transposed',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Computes wte.T @ one_hot.T, returning the (d, T) transpose of the answer instead of shape (T, d).',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.eye(V, dtype=wte.dtype)[idx]
    return wte.T @ one_hot.T
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_int_onehot',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds the one-hot matrix as integers, so the int64 @ float32 product comes back float64.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    oh = (idx[..., None] == np.arange(V)).astype(int)
    return oh @ wte
''',
    },
    # ---- lesson 02 ----
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
        "id": 'l02_layer_norm_right_npvar',
        "exercise": 'layer_norm',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    x_hat = (x - mu) * (var + eps) ** -0.5
    return weight * x_hat + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_sample_var',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Uses the sample variance (ddof=1) instead of the population variance.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_eps_outside',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Adds eps to the standard deviation outside the square root instead of to the variance inside it.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mu) / (std + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_no_keepdims',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Takes mean and variance without keepdims, so the (T,) statistics broadcast against the feature axis and the shapes clash.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1)
    var = x.var(axis=-1)
    return (x - mu) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_hardcoded_eps',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Hard-codes 1e-5 in the formula and ignores the eps argument it is given.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_float64_upcast',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Casts x to float64 for precision and never casts back, so float32 input returns float64.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    x = x.astype(np.float64)
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_weight_bias_swapped',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Swaps the roles of weight and bias: multiplies by bias and adds weight.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * bias + weight
''',
    },
    {
        "id": 'l02_layer_norm_bug_precedence',
        "exercise": 'layer_norm',
        "kind": 'bug',
        "mistake": 'Writes (x - mu ** 2) instead of (x - mu) ** 2 in the variance, a misplaced parenthesis.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = (x - mu ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_causal_self_attention_right_vectorised',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''import math

def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]

    def split(a):
        return a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2)

    q, k, v = split(q), split(k), split(v)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(d_k)
    allowed = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    z = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(z)
    w = e / e.sum(axis=-1, keepdims=True)
    y = w @ v
    y = y.swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_right_split_finfo',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    hs = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    new_shape = x.shape[:-1] + (n_head, hs)
    q = np.moveaxis(q.reshape(new_shape), -2, -3)
    k = np.moveaxis(k.reshape(new_shape), -2, -3)
    v = np.moveaxis(v.reshape(new_shape), -2, -3)
    att = np.matmul(q, np.swapaxes(k, -1, -2)) * (1.0 / hs ** 0.5)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    att = np.where(future, np.finfo(att.dtype).min, att)
    att = att - att.max(axis=-1, keepdims=True)
    att = np.exp(att)
    att = att / att.sum(axis=-1, keepdims=True)
    out = np.moveaxis(att @ v, -3, -2).reshape(x.shape)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_reshape_only',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Splits the heads by reshaping straight to (..., n_head, T, d_k) without the transpose, so each head mixes positions and features of other heads.',
        "source": r'''import math

def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(*lead, n_head, T, d_k)
    k = k.reshape(*lead, n_head, T, d_k)
    v = v.reshape(*lead, n_head, T, d_k)
    s = q @ k.swapaxes(-1, -2) / math.sqrt(d_k)
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_np_sqrt_upcast',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Divides the scores by np.sqrt(d_k), a float64 NumPy scalar, so float32 inputs come back as float64.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / np.sqrt(d_k)
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_strict_mask',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Builds the mask with np.tril(..., k=-1), hiding the diagonal, so position 0 sees no key and its row becomes NaN.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    mask = np.tril(np.ones((T, T), dtype=bool), k=-1)
    s = np.where(mask, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_softmax_queries',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Takes the softmax over axis -2 (the queries) instead of the last axis (the keys).',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-2, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-2, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_2d_only',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Unpacks T, d = x.shape and uses transpose(1, 0, 2), which works for one sequence but crashes on a (B, T, d) batch.',
        "source": r'''import math

def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
    q = q.reshape(T, n_head, d_k).transpose(1, 0, 2)
    k = k.reshape(T, n_head, d_k).transpose(1, 0, 2)
    v = v.reshape(T, n_head, d_k).transpose(1, 0, 2)
    s = q @ k.transpose(0, 2, 1) / math.sqrt(d_k)
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).transpose(1, 0, 2).reshape(T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_no_max_shift',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Exponentiates the raw scores without subtracting the row maximum, so large scores overflow to inf and give NaN weights.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_bug_q_for_k',
        "exercise": 'causal_self_attention',
        "kind": 'bug',
        "mistake": 'Typo: computes the scores as q @ q^T instead of q @ k^T.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ q.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    # ---- lesson 03 ----
    {
        "id": 'l03_gelu_tanh_right_mathsqrt',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''import math

def gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_tanh_right_literal',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    return x * 0.5 * (1.0 + np.tanh(inner))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_exact_erf',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Computes the exact GELU x * Phi(x) with erf instead of the tanh approximation GPT-2 uses.',
        "source": r'''import math

def gelu_tanh(x):
    erf = np.vectorize(math.erf)
    return (0.5 * x * (1 + erf(x / math.sqrt(2)))).astype(x.dtype)
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_np_sqrt_upcast',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses np.sqrt(2 / np.pi), a float64 NumPy scalar, as the constant, so float32 input comes back float64.',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_square',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses x ** 2 instead of x ** 3 in the cubic correction term.',
        "source": r'''import math

def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 2)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_sigmoid_approx',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses the sigmoid approximation x * sigmoid(1.702 x) instead of the tanh formula.',
        "source": r'''def gelu_tanh(x):
    return x / (1 + np.exp(-1.702 * x))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_no_half',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Drops the factor 1/2 in front, so every output is twice too large.',
        "source": r'''import math

def gelu_tanh(x):
    return x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_inplace',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": "Halves the argument in place with x *= 0.5, so the caller's array is modified (and the cubic term is computed from the halved x).",
        "source": r'''import math

def gelu_tanh(x):
    t = np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))
    x *= 0.5
    return x * (1 + t)
''',
    },
    {
        "id": 'l03_mlp_right_plain',
        "exercise": 'mlp',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = x @ w_fc + b_fc
    h = gelu_tanh(h)
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_right_einsum',
        "exercise": 'mlp',
        "kind": 'right',
        "mistake": '',
        "source": r'''import math

def gelu_tanh(x):
    c = math.sqrt(2.0 / math.pi)
    return 0.5 * x * (1.0 + np.tanh(c * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    hidden = np.einsum("...i,ij->...j", x, w_fc) + b_fc
    return np.einsum("...j,jk->...k", gelu_tanh(hidden), w_proj) + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_linear_layout',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Treats the weights as PyTorch Linear (out, in) and multiplies by their transposes, which does not fit the Conv1D (in, out) layout.',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc.T + b_fc)
    return h @ w_proj.T + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_gelu_after_proj',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Applies the GELU a second time after the output projection.',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc + b_fc)
    return gelu_tanh(h @ w_proj + b_proj)
''',
    },
    {
        "id": 'l03_mlp_mistake_relu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": "Uses ReLU between the layers instead of GPT-2's GELU (tanh).",
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = np.maximum(x @ w_fc + b_fc, 0)
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_bias_after_gelu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Adds the first bias b_fc after the GELU instead of before it.',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc) + b_fc
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_flatten_no_restore',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Flattens the input to (N, d) for the matrix products and returns (B*T, d) without reshaping back to the batch shape.',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    d = x.shape[-1]
    flat = x.reshape(-1, d)
    h = gelu_tanh(flat @ w_fc + b_fc)
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_block_right_prefix',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    def p(name):
        return params[f"h.{layer}.{name}"]

    a = layer_norm(x, p("ln_1.weight"), p("ln_1.bias"))
    x = x + causal_self_attention(a, p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    m = layer_norm(x, p("ln_2.weight"), p("ln_2.bias"))
    return x + mlp(m, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                   p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
''',
    },
    {
        "id": 'l03_block_right_explicit',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    pre = "h." + str(layer) + "."
    ln1 = layer_norm(x, params[pre + "ln_1.weight"], params[pre + "ln_1.bias"])
    attn = causal_self_attention(
        ln1,
        params[pre + "attn.c_attn.weight"],
        params[pre + "attn.c_attn.bias"],
        params[pre + "attn.c_proj.weight"],
        params[pre + "attn.c_proj.bias"],
        n_head,
    )
    h = x + attn
    ln2 = layer_norm(h, params[pre + "ln_2.weight"], params[pre + "ln_2.bias"])
    ff = mlp(ln2, params[pre + "mlp.c_fc.weight"], params[pre + "mlp.c_fc.bias"],
             params[pre + "mlp.c_proj.weight"], params[pre + "mlp.c_proj.bias"])
    out = h + ff
    return out
''',
    },
    {
        "id": 'l03_block_mistake_post_ln',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Builds a post-LN block, normalising after each residual addition instead of normalising the sublayer inputs.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    x = layer_norm(x + causal_self_attention(x, p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                             p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head),
                   p("ln_1.weight"), p("ln_1.bias"))
    x = layer_norm(x + mlp(x, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                           p("mlp.c_proj.weight"), p("mlp.c_proj.bias")),
                   p("ln_2.weight"), p("ln_2.bias"))
    return x
''',
    },
    {
        "id": 'l03_block_mistake_ln1_twice',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": "Normalises the MLP input with ln_1's weight and bias instead of ln_2's.",
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    x = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    x = x + mlp(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
    return x
''',
    },
    {
        "id": 'l03_block_mistake_parallel',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Feeds the MLP ln_2 of the block input x rather than of the stream after the attention residual, running the two sublayers in parallel.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    attn = causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                 p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                 p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    ff = mlp(layer_norm(x, p("ln_2.weight"), p("ln_2.bias")),
             p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
             p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
    return x + attn + ff
''',
    },
    {
        "id": 'l03_block_mistake_inplace_residual',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": "Adds the residuals with x += ..., modifying the caller's input array in place.",
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    x += causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                               p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                               p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    x += mlp(layer_norm(x, p("ln_2.weight"), p("ln_2.bias")),
             p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
             p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
    return x
''',
    },
    {
        "id": 'l03_block_mistake_residual_of_normed',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Overwrites x with its LayerNorm before the residual, so the skip connection carries the normalised vectors instead of the raw stream.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    x = layer_norm(x, p("ln_1.weight"), p("ln_1.bias"))
    x = x + causal_self_attention(x, p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    x = layer_norm(x, p("ln_2.weight"), p("ln_2.bias"))
    x = x + mlp(x, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
    return x
''',
    },
    {
        "id": 'l03_block_mistake_layer0_hardcoded',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Always reads layer 0\'s weights (keys "h.0.") whatever the layer argument.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = lambda n: params["h.0." + n]
    x = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")),
                                  p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return x + mlp(layer_norm(x, p("ln_2.weight"), p("ln_2.bias")),
                   p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                   p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
''',
    },
    {
        "id": 'l03_block_bug_missing_f',
        "exercise": 'block',
        "kind": 'bug',
        "mistake": 'Forgets the f prefix on the key string, so it looks up the literal key "h.{layer}...." and raises KeyError.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    pre = "h.{layer}."
    x = x + causal_self_attention(layer_norm(x, params[pre + "ln_1.weight"], params[pre + "ln_1.bias"]),
                                  params[pre + "attn.c_attn.weight"], params[pre + "attn.c_attn.bias"],
                                  params[pre + "attn.c_proj.weight"], params[pre + "attn.c_proj.bias"], n_head)
    return x + mlp(layer_norm(x, params[pre + "ln_2.weight"], params[pre + "ln_2.bias"]),
                   params[pre + "mlp.c_fc.weight"], params[pre + "mlp.c_fc.bias"],
                   params[pre + "mlp.c_proj.weight"], params[pre + "mlp.c_proj.bias"])
''',
    },
    # ---- lesson 04 ----
    {
        "id": 'l04_init_gpt_right_table_order',
        "exercise": 'init_gpt',
        "kind": 'right',
        "mistake": '',
        "source": r'''import math

def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, n_layer, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    std = 0.02
    proj_std = std / math.sqrt(2 * n_layer)
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * std
    P["wpe"] = rng.standard_normal((T, d)) * std
    for i in range(n_layer):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * std
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * proj_std
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
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
        "id": 'l04_init_gpt_right_spec_list',
        "exercise": 'init_gpt',
        "kind": 'right',
        "mistake": '',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d = config.n_embd
    resid = 0.02 / (2 * config.n_layer) ** 0.5

    def normal(shape, std=0.02):
        return rng.standard_normal(shape) * std

    params = {"wte": normal((config.vocab_size, d)), "wpe": normal((config.block_size, d))}
    for i in range(config.n_layer):
        spec = [
            ("ln_1.weight", np.ones(d)), ("ln_1.bias", np.zeros(d)),
            ("attn.c_attn.weight", normal((d, 3 * d))), ("attn.c_attn.bias", np.zeros(3 * d)),
            ("attn.c_proj.weight", normal((d, d), resid)), ("attn.c_proj.bias", np.zeros(d)),
            ("ln_2.weight", np.ones(d)), ("ln_2.bias", np.zeros(d)),
            ("mlp.c_fc.weight", normal((d, 4 * d))), ("mlp.c_fc.bias", np.zeros(4 * d)),
            ("mlp.c_proj.weight", normal((4 * d, d), resid)), ("mlp.c_proj.bias", np.zeros(d)),
        ]
        for name, value in spec:
            params[f"h.{i}.{name}"] = value
    params["ln_f.weight"] = np.ones(d)
    params["ln_f.bias"] = np.zeros(d)
    return params
''',
    },
    {
        "id": 'l04_init_gpt_mistake_sqrt_L',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Scales the residual projections by 0.02 / sqrt(L) instead of 0.02 / sqrt(2L).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, n_layer, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}
    for i in range(n_layer):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / n_layer ** 0.5)
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / n_layer ** 0.5)
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_no_resid_scaling',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws every weight, the residual projections included, with std 0.02 and never applies the 1/sqrt(2L) scaling.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, n_layer, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}
    for i in range(n_layer):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * 0.02
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * 0.02
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_untied_head',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Adds a separate lm_head.weight tensor, although the head is tied to wte and must not appear.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, n_layer, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}
    for i in range(n_layer):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / (2 * n_layer) ** 0.5)
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / (2 * n_layer) ** 0.5)
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    P["lm_head.weight"] = rng.standard_normal((V, d)) * 0.02
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_linear_layout',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Stores the weights in PyTorch Linear (out, in) layout, e.g. c_attn.weight as (3d, d), instead of Conv1D (in, out).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, n_layer, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((T, d)) * 0.02}
    for i in range(n_layer):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((3 * d, d)) * 0.02
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / (2 * n_layer) ** 0.5)
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((4 * d, d)) * 0.02
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((d, 4 * d)) * (0.02 / (2 * n_layer) ** 0.5)
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_uniform',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws with rng.random (uniform on [0, 1)) scaled by the std instead of a normal distribution, so the weights have a positive mean and the wrong spread.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, n_layer, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.random((V, d)) * 0.02, "wpe": rng.random((T, d)) * 0.02}
    for i in range(n_layer):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.random((d, 3 * d)) * 0.02
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.random((d, d)) * (0.02 / (2 * n_layer) ** 0.5)
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.random((d, 4 * d)) * 0.02
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.random((4 * d, d)) * (0.02 / (2 * n_layer) ** 0.5)
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_float32',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Casts every tensor to float32, while the exercise asks for float64 arrays.',
        "source": r'''import math

def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    f32 = np.float32
    proj = 0.02 / math.sqrt(2 * L)
    P = {"wte": (rng.standard_normal((V, d)) * 0.02).astype(f32),
         "wpe": (rng.standard_normal((T, d)) * 0.02).astype(f32)}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d, f32)
        P[h + "ln_1.bias"] = np.zeros(d, f32)
        P[h + "attn.c_attn.weight"] = (rng.standard_normal((d, 3 * d)) * 0.02).astype(f32)
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d, f32)
        P[h + "attn.c_proj.weight"] = (rng.standard_normal((d, d)) * proj).astype(f32)
        P[h + "attn.c_proj.bias"] = np.zeros(d, f32)
        P[h + "ln_2.weight"] = np.ones(d, f32)
        P[h + "ln_2.bias"] = np.zeros(d, f32)
        P[h + "mlp.c_fc.weight"] = (rng.standard_normal((d, 4 * d)) * 0.02).astype(f32)
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d, f32)
        P[h + "mlp.c_proj.weight"] = (rng.standard_normal((4 * d, d)) * proj).astype(f32)
        P[h + "mlp.c_proj.bias"] = np.zeros(d, f32)
    P["ln_f.weight"] = np.ones(d, f32)
    P["ln_f.bias"] = np.zeros(d, f32)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_bug_wpe_vocab_rows',
        "exercise": 'init_gpt',
        "kind": 'bug',
        "mistake": 'Slip: gives wpe vocab_size rows (V, d) instead of block_size rows (T, d).',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, n_layer, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    P = {"wte": rng.standard_normal((V, d)) * 0.02, "wpe": rng.standard_normal((V, d)) * 0.02}
    for i in range(n_layer):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * (0.02 / (2 * n_layer) ** 0.5)
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * (0.02 / (2 * n_layer) ** 0.5)
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_gpt_logits_right_count_keys',
        "exercise": 'gpt_logits',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return x + mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])


def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(n_layer):
        x = block(x, P, layer, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_right_while',
        "exercise": 'gpt_logits',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return x + mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])


def gpt_logits(P, idx, n_head):
    wte = P["wte"]
    h = embed(wte, P["wpe"], idx)
    layer = 0
    while f"h.{layer}.ln_1.weight" in P:
        h = block(h, P, layer, n_head)
        layer += 1
    h = layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])
    return np.matmul(h, wte.T)
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_no_ln_f',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Skips the final LayerNorm ln_f and feeds the raw residual stream to the head.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return x + mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])


def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(n_layer):
        x = block(x, P, layer, n_head)
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_softmax_output',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Returns the softmax probabilities instead of the logits.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return x + mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])


def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(n_layer):
        x = block(x, P, layer, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    z = x @ P["wte"].T
    z = np.exp(z - z.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_twelve_layers',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": "Hard-codes GPT-2 small's 12 layers instead of reading the number of layers from the keys of P.",
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return x + mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])


def gpt_logits(P, idx, n_head):
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(12):
        x = block(x, P, layer, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_einsum_2d',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Writes the head as einsum("td,vd->tv"), which only accepts one sequence and fails on a (B, T) batch.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return x + mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])


def gpt_logits(P, idx, n_head):
    n_layer = sum(1 for k in P if k.endswith(".ln_1.weight"))
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(n_layer):
        x = block(x, P, layer, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return np.einsum("td,vd->tv", x, P["wte"])
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_string_sorted_layers',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Sorts the layer numbers as strings, so with ten or more layers the blocks run in the order 0, 1, 10, 11, 2, ...',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return x + mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])


def gpt_logits(P, idx, n_head):
    layers = sorted({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for layer in layers:
        x = block(x, P, int(layer), n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_head_no_transpose',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Multiplies by wte instead of wte.T for the tied head, a (d) by (V, d) shape mismatch.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]


def layer_norm(x, weight, bias, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * weight + bias


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q, k, v = (a.reshape(*lead, T, n_head, d_k).swapaxes(-3, -2) for a in (q, k, v))
    s = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    y = (w @ v).swapaxes(-3, -2).reshape(*lead, T, d)
    return y @ w_o + b_o


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def mlp(x, w_fc, b_fc, w_proj, b_proj):
    return gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj


def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(a, params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
                                  params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"], n_head)
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return x + mlp(m, params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
                   params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"])


def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(n_layer):
        x = block(x, P, layer, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"]
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_right_addat',
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
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dH = dZ @ E
    dU = dH * (1 - H * H)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_right_onehot',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V = E.shape[0]
    flat_idx = idx.ravel()
    flat_t = targets.ravel()
    n = flat_idx.shape[0]
    H = np.tanh(E[flat_idx] @ A)
    logits = H @ E.T
    m = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - m)
    s = e.sum(axis=1, keepdims=True)
    probs = e / s
    target_onehot = np.eye(V, dtype=E.dtype)[flat_t]
    nll = np.log(s[:, 0]) + m[:, 0] - logits[np.arange(n), flat_t]
    loss = nll.mean()
    dZ = (probs - target_onehot) / n
    grad_head = dZ.T @ H
    dX = ((dZ @ E) * (1 - H ** 2)) @ A.T
    grad_lookup = np.eye(V, dtype=E.dtype)[flat_idx].T @ dX
    return loss, grad_head + grad_lookup
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_head_path_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Returns only the head path dZ^T H of the gradient and forgets the lookup path through X = E[idx].',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    P = np.exp(logp)
    loss = -logp[np.arange(ids.size), tgt].mean()
    dZ = P.copy()
    dZ[np.arange(ids.size), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dU = (dZ @ E) * (1 - H ** 2)
    dX = dU @ A.T
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_fancy_index_scatter',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Scatters the lookup gradient with dE[ids] += dX, which keeps only one contribution for a repeated id instead of accumulating them.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    P = np.exp(logp)
    loss = -logp[np.arange(ids.size), tgt].mean()
    dZ = P.copy()
    dZ[np.arange(ids.size), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dU = (dZ @ E) * (1 - H ** 2)
    dX = dU @ A.T
    dE[ids] += dX
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_divide_by_len',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Divides the gradient by len(idx), the batch size for a (B, T) input, instead of by the number of positions B*T.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = len(idx)
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    P = np.exp(logp)
    loss = -logp[np.arange(ids.size), tgt].mean()
    dZ = P.copy()
    dZ[np.arange(ids.size), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dU = (dZ @ E) * (1 - H ** 2)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_A_not_transposed',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Back-propagates through X @ A with dU @ A instead of dU @ A.T.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    P = np.exp(logp)
    loss = -logp[np.arange(ids.size), tgt].mean()
    dZ = P.copy()
    dZ[np.arange(ids.size), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dU = (dZ @ E) * (1 - H ** 2)
    dX = dU @ A
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_python_float',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": "Returns the loss as a Python float via float(...) instead of the NumPy scalar of E's dtype.",
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    P = np.exp(logp)
    loss = -logp[np.arange(ids.size), tgt].mean()
    dZ = P.copy()
    dZ[np.arange(ids.size), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dU = (dZ @ E) * (1 - H ** 2)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)
    return float(loss), dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_no_max_shift',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Computes the softmax without subtracting the row maximum, so large logits overflow to inf and the loss and gradient become NaN.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    P = np.exp(Z) / np.exp(Z).sum(axis=-1, keepdims=True)
    logp = np.log(P)
    loss = -logp[np.arange(ids.size), tgt].mean()
    dZ = P.copy()
    dZ[np.arange(ids.size), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dU = (dZ @ E) * (1 - H ** 2)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_bug_times_two',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'bug',
        "mistake": 'Typo in the tanh derivative: 1 - H * 2 instead of 1 - H ** 2.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=-1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))
    P = np.exp(logp)
    loss = -logp[np.arange(ids.size), tgt].mean()
    dZ = P.copy()
    dZ[np.arange(ids.size), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dU = (dZ @ E) * (1 - H * 2)
    dX = dU @ A.T
    np.add.at(dE, ids, dX)
    return loss, dE
''',
    },
    # ---- lesson 05 ----
    {
        "id": 'l05_count_gpt2_params_right_closed_form',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    if bias:
        per_block = 12 * d * d + 13 * d
        final_ln = 2 * d
    else:
        per_block = 12 * d * d + 2 * d
        final_ln = d
    head = 0 if tied else V * d
    return V * d + T * d + L * per_block + final_ln + head
''',
    },
    {
        "id": 'l05_count_gpt2_params_right_tensor_list',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    def linear(n_in, n_out):
        return n_in * n_out + (n_out if bias else 0)

    def layernorm():
        return d + (d if bias else 0)

    total = V * d + T * d
    for _ in range(L):
        total += layernorm()
        total += linear(d, 3 * d)
        total += linear(d, d)
        total += layernorm()
        total += linear(d, 4 * d)
        total += linear(4 * d, d)
    total += layernorm()
    if not tied:
        total += V * d
    return int(total)
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_rule_of_thumb',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Counts the blocks with the 12 L d^2 rule of thumb, leaving out every bias and LayerNorm vector.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    n = V * d + T * d + 12 * L * d * d
    if not tied:
        n += V * d
    return n
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_drop_gains',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False it also removes the LayerNorm gains, although each LayerNorm keeps its weight.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    matrices = V * d + T * d + L * 12 * d * d
    vectors = L * 13 * d + 2 * d if bias else 0
    head = 0 if tied else V * d
    return matrices + vectors + head
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_keep_ln_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": "With bias=False it removes only the linear layers' biases and keeps the LayerNorm biases.",
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    linear_biases = (3 * d + d + 4 * d + d) if bias else 0
    per_block = 12 * d * d + linear_biases + 4 * d
    total = V * d + T * d + L * per_block + 2 * d
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_head_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Gives the untied head a bias of length V, although the exercise says it has none.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    per_block = 12 * d * d + (13 * d if bias else 2 * d)
    total = V * d + T * d + L * per_block + (2 * d if bias else d)
    if not tied:
        total += V * d + (V if bias else 0)
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_no_wpe',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Forgets the position table wpe (T x d).',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    per_block = 12 * d * d + (13 * d if bias else 2 * d)
    total = V * d + L * per_block + (2 * d if bias else d)
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_fc_bias_d',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": "Sizes every linear bias by the layer's input width d instead of its output width, so c_attn and c_fc biases are counted as d instead of 3d and 4d (and mlp.c_proj's as 4d).",
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    layers = [(d, 3 * d), (d, d), (d, 4 * d), (4 * d, d)]
    per_block = 0
    for n_in, n_out in layers:
        per_block += n_in * n_out
        if bias:
            per_block += n_in
    per_block += 2 * (2 * d if bias else d)
    total = V * d + T * d + L * per_block + (2 * d if bias else d)
    return total if tied else total + V * d
''',
    },
    {
        "id": 'l05_count_gpt2_params_bug_tied_inverted',
        "exercise": 'count_gpt2_params',
        "kind": 'bug',
        "mistake": 'Slip in the condition: adds the head matrix when tied is True instead of when it is False.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    per_block = 12 * d * d + (13 * d if bias else 2 * d)
    total = V * d + T * d + L * per_block + (2 * d if bias else d)
    if tied:
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
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def _module_name(key):
    if key in ("wte", "wpe"):
        return f"transformer.{key}.weight"
    return "transformer." + key


def numpy_to_torch(P, model):
    renamed = {_module_name(k): k for k in P}
    missing = sorted(set(model) - set(renamed))
    unexpected = sorted(set(renamed) - set(model))
    if missing or unexpected:
        raise ValueError(f"parameter keys do not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        value = P[renamed[name]]
        if name.endswith(LINEAR):
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape} after the transpose, the model expects {target.shape}")
        out[name] = np.array(value, dtype=target.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_right_inverse_map',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def numpy_to_torch(P, model):
    def course_key(name):
        key = name.removeprefix("transformer.")
        if key in ("wte.weight", "wpe.weight"):
            key = key.removesuffix(".weight")
        return key

    wanted = {course_key(name): name for name in model}
    missing = [k for k in wanted if k not in P]
    extra = [k for k in P if k not in wanted]
    if missing:
        raise ValueError("P is missing tensors the model needs: " + ", ".join(missing))
    if extra:
        raise ValueError("P has tensors the model does not have: " + ", ".join(extra))
    linear = ("c_attn.weight", "attn.c_proj.weight", "c_fc.weight", "mlp.c_proj.weight")
    result = {}
    for key, name in wanted.items():
        arr = np.asarray(P[key])
        if any(name.endswith(s) for s in linear):
            arr = arr.T
        want = model[name]
        if arr.shape != want.shape:
            raise ValueError(f"shape mismatch for {name}: got {arr.shape}, model has {want.shape}")
        result[name] = arr.astype(want.dtype, copy=True)
    return result
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_by_shape',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Decides what to transpose by shape (only when the array does not fit as it is), so the square attn.c_proj weight is silently copied untransposed.',
        "source": r'''def numpy_to_torch(P, model):
    renamed = {("transformer.%s.weight" % k if k in ("wte", "wpe") else "transformer." + k): k for k in P}
    missing = sorted(set(model) - set(renamed))
    unexpected = sorted(set(renamed) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = P[renamed[name]]
        if value.shape != target.shape and value.T.shape == target.shape:
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_all_2d',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Transposes every 2-D array, the embedding tables wte and wpe included, which must be copied as they are.',
        "source": r'''def numpy_to_torch(P, model):
    renamed = {("transformer.%s.weight" % k if k in ("wte", "wpe") else "transformer." + k): k for k in P}
    missing = sorted(set(model) - set(renamed))
    unexpected = sorted(set(renamed) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = P[renamed[name]]
        if value.ndim == 2:
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_adds_lm_head',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Adds an lm_head.weight entry (a copy of wte) to the result, although the model lists the tied head only once as transformer.wte.weight.',
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    renamed = {("transformer.%s.weight" % k if k in ("wte", "wpe") else "transformer." + k): k for k in P}
    missing = sorted(set(model) - set(renamed))
    unexpected = sorted(set(renamed) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = P[renamed[name]]
        if name.endswith(LINEAR):
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
    out["lm_head.weight"] = out["transformer.wte.weight"]
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_renames_in_place',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": "Renames the keys inside P itself with P.pop(...), so the caller's parameter dict is changed.",
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    for key in list(P):
        new = f"transformer.{key}.weight" if key in ("wte", "wpe") else f"transformer.{key}"
        P[new] = P.pop(key)
    missing = sorted(set(model) - set(P))
    unexpected = sorted(set(P) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = P[name].T if name.endswith(LINEAR) else P[name]
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_no_validation',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Never validates keys or shapes: a missing tensor raises KeyError, an extra one is ignored and a wrong shape is copied without any ValueError.',
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    out = {}
    for name, target in model.items():
        key = name.removeprefix("transformer.")
        if key in ("wte.weight", "wpe.weight"):
            key = key[:3]
        value = P[key]
        if name.endswith(LINEAR):
            value = value.T
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_ignores_extra',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Checks only for missing tensors and silently ignores tensors in P that the model does not have.',
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def numpy_to_torch(P, model):
    out = {}
    for name, target in model.items():
        key = name.removeprefix("transformer.")
        if key in ("wte.weight", "wpe.weight"):
            key = key.split(".")[0]
        if key not in P:
            raise ValueError(f"P lacks {key!r}, needed for {name}")
        value = P[key].T if name.endswith(LINEAR) else P[key]
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_right_endswith',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
BUFFERS = (".attn.bias", ".attn.masked_bias")


def load_hf_state_dict(model, state_dict):
    tensors = {k: v for k, v in state_dict.items()
               if not k.endswith(BUFFERS) and k != "lm_head.weight"}
    missing = sorted(set(model) - set(tensors))
    unexpected = sorted(set(tensors) - set(model))
    if missing or unexpected:
        raise ValueError(f"state dict does not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        value = np.asarray(tensors[name])
        if name.endswith(LINEAR):
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape} (after the transpose), model expects {target.shape}")
        out[name] = np.array(value, dtype=target.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_right_prefix_tolerant',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''def load_hf_state_dict(model, state_dict):
    linear = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    kept = {}
    for key, value in state_dict.items():
        if key.endswith(".attn.bias") or key.endswith(".attn.masked_bias"):
            continue
        if key == "lm_head.weight":
            continue
        if not key.startswith("transformer."):
            key = "transformer." + key
        kept[key] = value
    missing = [k for k in model if k not in kept]
    if missing:
        raise ValueError(f"state dict lacks {len(missing)} tensor(s) the model needs: {missing}")
    unexpected = [k for k in kept if k not in model]
    if unexpected:
        raise ValueError(f"state dict has tensor(s) the model does not: {unexpected}")
    loaded = {}
    for name, want in model.items():
        arr = kept[name]
        if name.endswith(linear):
            arr = np.transpose(arr)
        if tuple(arr.shape) != tuple(want.shape):
            raise ValueError(f"{name} has shape {tuple(arr.shape)} after transposing, expected {tuple(want.shape)}")
        loaded[name] = np.array(arr, dtype=want.dtype)
    return loaded
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_substring_skip',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips buffers with "attn.bias" in k, a substring test that also drops the real parameter attn.c_attn.bias.',
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    tensors = {k: v for k, v in state_dict.items()
               if not ("attn.bias" in k or "masked_bias" in k or k == "lm_head.weight")}
    missing = sorted(set(model) - set(tensors))
    unexpected = sorted(set(tensors) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = tensors[name]
        if name.endswith(LINEAR):
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_keeps_lm_head',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Does not set lm_head.weight aside, so every state dict with a tied head is refused as having an unexpected key.',
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    tensors = {k: v for k, v in state_dict.items()
               if not k.endswith((".attn.bias", ".attn.masked_bias"))}
    missing = sorted(set(model) - set(tensors))
    unexpected = sorted(set(tensors) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = tensors[name]
        if name.endswith(LINEAR):
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_no_dtype_cast',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": "Copies the arrays in the state dict's dtype instead of casting each to the model array's dtype.",
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    tensors = {k: v for k, v in state_dict.items()
               if not (k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight")}
    missing = sorted(set(model) - set(tensors))
    unexpected = sorted(set(tensors) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = tensors[name]
        if name.endswith(LINEAR):
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = np.array(value)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_transpose_by_shape',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Transposes only when the stored shape does not fit, so the square attn.c_proj weight loads untransposed.',
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    tensors = {k: v for k, v in state_dict.items()
               if not (k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight")}
    missing = sorted(set(model) - set(tensors))
    unexpected = sorted(set(tensors) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = tensors[name]
        if value.shape != target.shape:
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_masked_bias_kept',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips only the .attn.bias buffers and forgets .attn.masked_bias, so older checkpoints are refused as having unexpected keys.',
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    tensors = {k: v for k, v in state_dict.items()
               if not (k.endswith(".attn.bias") or k == "lm_head.weight")}
    missing = sorted(set(model) - set(tensors))
    unexpected = sorted(set(tensors) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = tensors[name]
        if name.endswith(LINEAR):
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_deletes_from_input',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": "Deletes the head and the buffers from the caller's state_dict with del, changing the argument.",
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    for k in list(state_dict):
        if k == "lm_head.weight" or k.endswith((".attn.bias", ".attn.masked_bias")):
            del state_dict[k]
    missing = sorted(set(model) - set(state_dict))
    unexpected = sorted(set(state_dict) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = state_dict[name].T if name.endswith(LINEAR) else state_dict[name]
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_bug_fc_typo',
        "exercise": 'load_hf_state_dict',
        "kind": 'bug',
        "mistake": 'Typo in the list of linear weights ("mlp.c_fc.weights"), so c_fc is never transposed and every load fails its shape check.',
        "source": r'''LINEAR = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weights", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    tensors = {k: v for k, v in state_dict.items()
               if not (k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight")}
    missing = sorted(set(model) - set(tensors))
    unexpected = sorted(set(tensors) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing keys {missing}, unexpected keys {unexpected}")
    out = {}
    for name, target in model.items():
        value = tensors[name]
        if name.endswith(LINEAR):
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{name}: shape {value.shape}, model expects {target.shape}")
        out[name] = value.astype(target.dtype)
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
        raise ValueError(f"d must be even for sine/cosine pairs, got d = {d}")
    t = np.arange(T, dtype=np.float64)[:, None]
    omega = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    pe = np.empty((T, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_right_stack',
        "exercise": 'sinusoidal_positions',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError("odd width d = %d: the table needs pairs of columns" % d)
    i = np.arange(d // 2)
    omega = np.power(float(base), -2.0 * i / d)
    angles = np.outer(np.arange(T), omega)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(T, d)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_halves',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Puts all the sines in the first half of the columns and all the cosines in the second half instead of interleaving them.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    omega = base ** (-np.arange(0, d, 2) / d)
    return np.concatenate([np.sin(t * omega), np.cos(t * omega)], axis=1)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_exponent_no_2',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Uses omega_i = base ** (-i / d) with i = 0 .. d/2 - 1, dropping the factor 2 in the exponent.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    omega = base ** (-np.arange(d // 2) / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
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
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_positions_from_1',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Numbers the positions 1 .. T instead of 0 .. T - 1, so row 0 is not sin(0), cos(0).',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(1, T + 1)[:, None]
    omega = base ** (-np.arange(0, d, 2) / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_no_odd_check',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Never checks that d is even, so an odd d fails inside NumPy with a broadcasting error whose message does not name d instead of the ValueError asked for.',
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
        "id": 'l07_sinusoidal_positions_mistake_float32',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Builds the positions and the table in float32, while the exercise asks for a float64 array.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T, dtype=np.float32)[:, None]
    omega = (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    pe = np.zeros((T, d), dtype=np.float32)
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_bug_divide_by_2',
        "exercise": 'sinusoidal_positions',
        "kind": 'bug',
        "mistake": 'Typo in the frequency exponent: divides by 2 instead of by d.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got {d}")
    t = np.arange(T)[:, None]
    omega = base ** (-np.arange(0, d, 2) / 2)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
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
        "id": 'l07_position_similarity_right_gram',
        "exercise": 'position_similarity',
        "kind": 'right',
        "mistake": '',
        "source": r'''def position_similarity(wpe):
    wpe = np.asarray(wpe)
    if wpe.ndim != 2:
        raise ValueError("expected a (T, d) table, got an array of shape %s" % (wpe.shape,))
    gram = wpe @ wpe.T
    lengths = np.sqrt(np.diagonal(gram))
    return gram / lengths[:, None] / lengths[None, :]
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
    unit = wpe / np.linalg.norm(wpe, axis=0, keepdims=True)
    return unit.T @ unit
''',
    },
    {
        "id": 'l07_position_similarity_mistake_corrcoef',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Uses np.corrcoef, the Pearson correlation that centres each row first, instead of the cosine similarity (and it returns float64).',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    return np.corrcoef(wpe)
''',
    },
    {
        "id": 'l07_position_similarity_mistake_inplace_normalise',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": "Normalises the rows with wpe /= norms, changing the caller's table in place.",
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    wpe /= np.linalg.norm(wpe, axis=1, keepdims=True)
    return wpe @ wpe.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_norm_no_keepdims',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Divides by the row norms without keepdims, so the (T,) norms broadcast along the feature axis and the shapes clash (or divide the wrong entries when T == d).',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    unit = wpe / np.linalg.norm(wpe, axis=1)
    return unit @ unit.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_float64',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": "Computes in float64 and returns float64 for a float32 table instead of keeping the table's dtype.",
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    x = wpe.astype(np.float64)
    norms = np.sqrt((x * x).sum(axis=1))
    return (x @ x.T) / np.outer(norms, norms)
''',
    },
    {
        "id": 'l07_position_similarity_mistake_message_no_shape',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'The ValueError for a table that is not 2-D says so without giving its shape.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError("the position table must be two-dimensional")
    unit = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
    return unit @ unit.T
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
        raise ValueError(f"k = {k} exceeds min(T, d) = {min(T, d)} principal directions")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0, keepdims=True)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k]
    biggest = np.abs(V).argmax(axis=1)
    signs = np.sign(V[np.arange(k), biggest])
    V = V * signs[:, None]
    return (Xc @ V.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_right_eigh',
        "exercise": 'principal_components',
        "kind": 'right',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    if np.ndim(wpe) != 2:
        raise ValueError("need a 2-D table, got shape {}".format(wpe.shape))
    n_pos, width = wpe.shape
    limit = min(n_pos, width)
    if k > limit:
        raise ValueError("k={} is larger than min(T, d)={}".format(k, limit))
    centred = wpe.astype(np.float64) - wpe.mean(axis=0, dtype=np.float64)
    cov = centred.T @ centred / n_pos
    values, vectors = np.linalg.eigh(cov)
    order = np.argsort(values)[::-1][:k]
    dirs = vectors[:, order]
    for j in range(k):
        col = dirs[:, j]
        if col[np.argmax(np.abs(col))] < 0:
            dirs[:, j] = -col
    return (centred @ dirs).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_not_centred',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Skips the centring and takes the SVD of the raw table, so the directions and projections include the mean row.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} exceeds min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k]
    s = np.sign(V[np.arange(k), np.abs(V).argmax(axis=1)])
    V = V * s[:, None]
    return (Xc @ V.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_eigh_ascending',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Takes the first k eigenvectors from np.linalg.eigh, which sorts eigenvalues in ascending order, so it keeps the smallest-variance directions.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} exceeds min(T, d) = {min(T, d)}")
    Xc = wpe.astype(np.float64) - wpe.mean(axis=0)
    values, vectors = np.linalg.eigh(Xc.T @ Xc)
    dirs = vectors[:, :k]
    idx = np.abs(dirs).argmax(axis=0)
    dirs = dirs * np.sign(dirs[idx, np.arange(k)])
    return (Xc @ dirs).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_u_without_s',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Returns the left singular vectors U[:, :k] (unit length) instead of the projections U S = Xc V.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} exceeds min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k]
    s = np.sign(V[np.arange(k), np.abs(V).argmax(axis=1)])
    V = V * s[:, None]
    return (U[:, :k] * s).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_sign_first_entry',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": "Fixes each direction's sign by making its first entry positive instead of its largest-magnitude entry.",
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} exceeds min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k]
    V = V * np.sign(V[:, :1])
    return (Xc @ V.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_inplace_centre',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": "Centres the table in place with wpe -= mean, changing the caller's array.",
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} exceeds min(T, d) = {min(T, d)}")
    wpe -= wpe.mean(axis=0)
    U, S, Vt = np.linalg.svd(wpe, full_matrices=False)
    V = Vt[:k]
    s = np.sign(V[np.arange(k), np.abs(V).argmax(axis=1)])
    V = V * s[:, None]
    return wpe @ V.T
''',
    },
    {
        "id": 'l07_principal_components_mistake_k_checked_against_d',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Checks k only against d, so when T < k <= d there are fewer than k directions and it fails with an IndexError instead of the ValueError naming k and min(T, d).',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > d:
        raise ValueError(f"k = {k} exceeds min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    V = Vt[:k]
    s = np.sign(V[np.arange(k), np.abs(V).argmax(axis=1)])
    V = V * s[:, None]
    return (Xc @ V.T).astype(wpe.dtype)
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
        raise ValueError(f"targets have shape {targets.shape}, expected logits.shape[:-1] = {logits.shape[:-1]} "
                         f"(logits {logits.shape})")
    V = logits.shape[-1]
    bad = targets[(targets < 0) | (targets >= V)]
    if bad.size:
        raise ValueError(f"target id {int(bad.ravel()[0])} is outside [0, {V})")
    m = logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(logits - m).sum(axis=-1, keepdims=True)) + m
    picked = np.take_along_axis(logits, targets[..., None], axis=-1)
    return (lse - picked).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_right_flat_log_softmax',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError("shape mismatch: logits %s need targets of shape %s, got %s"
                         % (logits.shape, logits.shape[:-1], targets.shape))
    V = logits.shape[-1]
    flat_t = targets.reshape(-1)
    for t in flat_t:
        if t < 0 or t >= V:
            raise ValueError(f"target id {t} out of range for a vocabulary of {V}")
    z = logits.reshape(-1, V)
    z = z - z.max(axis=1, keepdims=True)
    log_probs = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    return -log_probs[np.arange(len(flat_t)), flat_t].mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_log_of_softmax',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Takes the log of the softmax probabilities, which underflow to 0 for a very unlikely target, giving an infinite loss instead of the log-softmax computed directly.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} do not match logits {logits.shape}")
    V = logits.shape[-1]
    if targets.size and (targets.min() < 0 or targets.max() >= V):
        raise ValueError(f"target id out of range [0, {V}): {targets.min()} .. {targets.max()}")
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    nll = -np.log(np.take_along_axis(probs, targets[..., None], axis=-1)[..., 0])
    return nll.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_no_max_shift',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Computes log-sum-exp without subtracting the row maximum, so logits near 1000 overflow exp and the loss is inf or NaN.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} do not match logits {logits.shape}")
    V = logits.shape[-1]
    if targets.size and (targets.min() < 0 or targets.max() >= V):
        raise ValueError(f"target id out of range [0, {V}): {targets.min()} .. {targets.max()}")
    lse = np.log(np.exp(logits).sum(axis=-1))
    nll = lse - np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return nll.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_negative_ids_pass',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Checks only targets >= V, so a negative id is not refused and -1 silently reads the last logit.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} do not match logits {logits.shape}")
    V = logits.shape[-1]
    if targets.size and targets.max() >= V:
        raise ValueError(f"target id out of range [0, {V}): {targets.min()} .. {targets.max()}")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_no_shape_check',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Never compares targets.shape with logits.shape[:-1]; it flattens both, so too few targets silently score only the first rows and too many fail with an IndexError instead of the ValueError asked for.',
        "source": r'''def cross_entropy(logits, targets):
    V = logits.shape[-1]
    t = np.asarray(targets).reshape(-1)
    if t.size and (t.min() < 0 or t.max() >= V):
        raise ValueError(f"target id out of range [0, {V}): {t.min()} .. {t.max()}")
    z = logits.reshape(-1, V)
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -logp[np.arange(t.size), t].mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_divide_by_batch',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Sums the losses and divides by len(targets), the batch size, instead of averaging over every position (and fails on a single position).',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} do not match logits {logits.shape}")
    V = logits.shape[-1]
    if targets.size and (targets.min() < 0 or targets.max() >= V):
        raise ValueError(f"target id out of range [0, {V}): {targets.min()} .. {targets.max()}")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return nll.sum() / len(targets)
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_float64_upcast',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Casts the logits to float64 for stability and returns a float64 loss for float32 logits.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} do not match logits {logits.shape}")
    V = logits.shape[-1]
    if targets.size and (targets.min() < 0 or targets.max() >= V):
        raise ValueError(f"target id out of range [0, {V}): {targets.min()} .. {targets.max()}")
    z = logits.astype(np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -np.take_along_axis(logp, targets[..., None], axis=-1).mean()
''',
    },
    {
        "id": 'l08_get_batch_right_fancy_index',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, but block_size {block_size} needs at least {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    offsets = np.arange(block_size)
    rows = starts[:, None] + offsets
    x = data[rows].astype(np.int64)
    y = data[rows + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_right_stack_slices',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    n = len(data)
    if n <= block_size:
        raise ValueError(f"need at least block_size + 1 = {block_size + 1} ids, data has len(data) = {n} "
                         f"(block_size {block_size})")
    ix = rng.integers(0, n - block_size, size=batch_size)
    x = np.stack([np.asarray(data[i:i + block_size], dtype=np.int64) for i in ix])
    y = np.stack([np.asarray(data[i + 1:i + 1 + block_size], dtype=np.int64) for i in ix])
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_high_minus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with upper end len(data) - block_size - 1, which never picks the last valid start and gives other ids than the prescribed call.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, but block_size {block_size} needs at least {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size - 1, size=batch_size)
    offsets = np.arange(block_size)
    rows = starts[:, None] + offsets
    x = data[rows].astype(np.int64)
    y = data[rows + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_y_from_x',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Builds the targets as x[:, 1:], so y has only block_size - 1 columns and misses the id after the window.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, but block_size {block_size} needs at least {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    offsets = np.arange(block_size)
    rows = starts[:, None] + offsets
    x = data[rows].astype(np.int64)
    y = x[:, 1:]
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_keeps_uint8',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": "Returns x and y in data's own dtype (uint8 for the corpus) instead of casting them to int64.",
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, but block_size {block_size} needs at least {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    offsets = np.arange(block_size)
    rows = starts[:, None] + offsets
    x = data[rows]
    y = data[rows + 1]
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_global_random',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with np.random.randint, the global generator, instead of the rng it is given, so the batch is not reproducible from rng.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, but block_size {block_size} needs at least {block_size + 1}")
    starts = np.random.randint(0, len(data) - block_size, size=batch_size)
    offsets = np.arange(block_size)
    rows = starts[:, None] + offsets
    x = data[rows].astype(np.int64)
    y = data[rows + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_choice_no_replace',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": "Draws distinct starts with rng.choice(..., replace=False) instead of the prescribed rng.integers call, so the batches differ from the course's.",
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, but block_size {block_size} needs at least {block_size + 1}")
    starts = rng.choice(len(data) - block_size, size=batch_size, replace=False)
    offsets = np.arange(block_size)
    rows = starts[:, None] + offsets
    x = data[rows].astype(np.int64)
    y = data[rows + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_length_check_off_by_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": "Refuses data only when len(data) < block_size, so exactly block_size ids pass the check and fail inside rng.integers with NumPy's own error.",
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size:
        raise ValueError(f"data has {len(data)} ids, but block_size {block_size} needs at least {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    offsets = np.arange(block_size)
    rows = starts[:, None] + offsets
    x = data[rows].astype(np.int64)
    y = data[rows + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_bug_minus_one',
        "exercise": 'get_batch',
        "kind": 'bug',
        "mistake": 'Typo: the targets read data[rows - 1] instead of data[rows + 1], the previous id instead of the next.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, but block_size {block_size} needs at least {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    offsets = np.arange(block_size)
    rows = starts[:, None] + offsets
    x = data[rows].astype(np.int64)
    y = data[rows - 1].astype(np.int64)
    return x, y
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
    z = logits / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argpartition(z, V - top_k, axis=-1)[:, V - top_k:]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1)) * cdf[:, -1:]
    return (cdf <= u).sum(axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_right_gumbel',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if not temperature > 0:
        raise ValueError("temperature must be > 0, got %r" % (temperature,))
    scaled = np.asarray(logits, dtype=np.float64) / temperature
    V = scaled.shape[-1]
    if top_k is not None and top_k < V:
        order = np.argsort(-scaled, axis=-1, kind="stable")
        drop = order[:, top_k:]
        scaled = scaled.copy()
        np.put_along_axis(scaled, drop, -np.inf, axis=-1)
    noise = rng.gumbel(size=scaled.shape)
    return np.argmax(scaled + noise, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_threshold_ties',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Keeps every logit >= the k-th largest value, so ties at the k-th place keep more than top_k candidates.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        kth = np.sort(z, axis=-1)[:, -top_k][:, None]
        z = np.where(z < kth, -np.inf, z)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    u = rng.random((z.shape[0], 1))
    cdf = np.cumsum(p, axis=-1)
    u = u * cdf[:, -1:]
    return (cdf <= u).sum(axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_multiply_temperature',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Multiplies the logits by the temperature instead of dividing by it, so a low temperature flattens the distribution.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits * temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        keep = np.argsort(z, axis=-1)[:, -top_k:]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    u = rng.random((z.shape[0], 1))
    cdf = np.cumsum(p, axis=-1)
    u = u * cdf[:, -1:]
    return (cdf <= u).sum(axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_global_random',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Draws the uniform numbers from np.random.random instead of rng, so the same rng state does not give the same ids.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        keep = np.argsort(z, axis=-1)[:, -top_k:]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    u = np.random.random((z.shape[0], 1))
    cdf = np.cumsum(p, axis=-1)
    u = u * cdf[:, -1:]
    return (cdf <= u).sum(axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_greedy_argmax',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Returns the argmax of the probabilities (greedy decoding) instead of drawing from them.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        keep = np.argsort(z, axis=-1)[:, -top_k:]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    u = rng.random((z.shape[0], 1))
    cdf = np.cumsum(p, axis=-1)
    u = u * cdf[:, -1:]
    return np.argmax(p, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_top_k_ge_V',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Calls np.argpartition(z, -top_k) without handling top_k larger than V, which raises instead of keeping every id.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    V = z.shape[-1]
    if top_k is not None:
        keep = np.argpartition(z, -top_k, axis=-1)[:, -top_k:]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    u = rng.random((z.shape[0], 1))
    cdf = np.cumsum(p, axis=-1)
    u = u * cdf[:, -1:]
    return (cdf <= u).sum(axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_zero_temperature',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Tests temperature < 0 only, so a temperature of 0 is not refused and divides the logits by zero.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature < 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        keep = np.argsort(z, axis=-1)[:, -top_k:]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    u = rng.random((z.shape[0], 1))
    cdf = np.cumsum(p, axis=-1)
    u = u * cdf[:, -1:]
    return (cdf <= u).sum(axis=-1).astype(np.int64)
''',
    },
]

"""Blind learner answers, round 9: written from the lessons and exercise notebooks alone, before the fixes it measures."""

ANSWERS = [
    # ------------------------------------------------------------------ lesson 01: embed
    {
        "id": 'l01_embed_right_slice',
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
        "id": 'l01_embed_right_take_arange',
        "exercise": 'embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    n_positions = len(wpe)
    if T > n_positions:
        raise ValueError(
            f"cannot embed {T} tokens: the position table has {n_positions} rows "
            f"(block size {n_positions}); crop the context to at most {n_positions} tokens"
        )
    positions = np.arange(T)
    tok = np.take(wte, idx, axis=0)          # idx.shape + (d,)
    pos = np.take(wpe, positions, axis=0)    # (T, d), broadcast over the batch
    return tok + pos
''',
    },
    {
        "id": 'l01_embed_mistake_position_rows_by_token_id',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Adds wpe[idx] (the position row picked by the token id) instead of wpe[t] for t = 0..T-1, so the position term depends on which token it is rather than where it sits (and an id >= block_size raises an IndexError).',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[idx]
''',
    },
    {
        "id": 'l01_embed_mistake_len_is_batch_size',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Takes the sequence length as len(idx), which for a (B, T) batch is B, not T: wpe[:B] then fails to broadcast when B is neither 1 nor T (and with B = 1 adds wpe[0] to every position), and the block-size check tests B instead of T.',
        "source": r'''def embed(wte, wpe, idx):
    T = len(idx)
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_rejects_full_block',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Off-by-one length check: raises the ValueError when T >= block_size, so a sequence of exactly block_size tokens (which is allowed) is refused.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T >= block_size:
        raise ValueError(f"sequence length {T} exceeds the block size {block_size}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_bug_returns_token_rows',
        "exercise": 'embed',
        "kind": 'bug',
        "mistake": 'Computes x = tok + pos but returns tok, the token rows alone, so the position rows are never added.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    tok = wte[idx]
    pos = wpe[:T]
    x = tok + pos
    return tok
''',
    },
    # ------------------------------------------------------------------ lesson 01: one_hot_embed
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
        "id": 'l01_one_hot_embed_right_compare_einsum',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = (idx[..., None] == np.arange(V)).astype(wte.dtype)   # idx.shape + (V,)
    return np.einsum("...v,vd->...d", one_hot, wte)
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_float64_one_hot',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds the one-hot matrix with np.zeros(...) in the default float64, so a float32 table gives a float64 result (values right, dtype upcast).',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.zeros(idx.shape + (V,))
    np.put_along_axis(one_hot, idx[..., None], 1.0, axis=-1)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_multi_hot_rows',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Sets the ones with one_hot[..., idx] = 1, which puts a one in the column of every id of the input in every row, so each output row is the sum of the rows of all distinct ids present instead of its own token row.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.zeros(idx.shape + (V,), dtype=wte.dtype)
    one_hot[..., idx] = 1
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_bug_cast_to_idx_dtype',
        "exercise": 'one_hot_embed',
        "kind": 'bug',
        "mistake": 'Casts the product to idx.dtype (an integer type) instead of wte.dtype, so every embedding value is truncated to an integer (mostly 0) and the dtype is int.',
        "source": r'''def one_hot_embed(wte, idx):
    V = wte.shape[0]
    one_hot = np.zeros(idx.shape + (V,), dtype=wte.dtype)
    np.put_along_axis(one_hot, idx[..., None], 1, axis=-1)
    return (one_hot @ wte).astype(idx.dtype)
''',
    },
    # ------------------------------------------------------------------ lesson 02: layer_norm
    {
        "id": 'l02_layer_norm_right_mean_var',
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
        "id": 'l02_layer_norm_right_float64_inside',
        "exercise": 'layer_norm',
        "kind": 'right',
        "mistake": '',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    x64 = x.astype(np.float64)
    d = x64.shape[-1]
    mu = x64.sum(axis=-1, keepdims=True) / d
    xc = x64 - mu
    var = (xc * xc).sum(axis=-1, keepdims=True) / d
    y = xc / np.sqrt(var + eps)
    y = y * weight.astype(np.float64) + bias.astype(np.float64)
    return y.astype(x.dtype)
''',
    },
    {
        "id": 'l02_layer_norm_mistake_sample_variance',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Uses the sample variance (np.var with ddof=1, dividing by d - 1) instead of the population variance, so every normalised value is scaled by about sqrt((d - 1) / d).',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, ddof=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_eps_outside_sqrt',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Puts epsilon outside the square root, dividing by sqrt(var) + eps instead of sqrt(var + eps), which changes rows with a small spread noticeably.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_stats_over_axis0',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Takes the mean and variance over axis 0 (across positions for a (T, d) input, across the batch for (B, T, d)) instead of over the last axis of d features, so each feature is normalised across positions/sequences rather than each position across its features.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=0, keepdims=True)
    var = x.var(axis=0, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_hardcoded_eps',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Ignores the eps argument and always adds the literal 1e-5 inside the root, so any call with another eps (e.g. 1e-6 or 0.1) gives the default-eps result.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_bug_adds_weight_for_bias',
        "exercise": 'layer_norm',
        "kind": 'bug',
        "mistake": 'Typo in the last line: adds weight instead of bias (x_hat * weight + weight), so the output is shifted by the gain and the bias is never used.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    x_hat = (x - mean) / np.sqrt(var + eps)
    return x_hat * weight + weight
''',
    },
    # ------------------------------------------------------------------ lesson 02: causal_self_attention
    {
        "id": 'l02_causal_self_attention_right_reshape_swapaxes',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]

    def split(a):
        # (..., T, d) -> (..., T, n_head, d_k) -> (..., n_head, T, d_k)
        return a.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)

    q, k, v = split(q), split(k), split(v)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5          # (..., n_head, T, T)
    allowed = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    out = weights @ v                                      # (..., n_head, T, d_k)
    out = out.swapaxes(-2, -3).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_right_einsum_float64_finite_mask',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''import math


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    dtype = x.dtype
    x = x.astype(np.float64)
    T, d = x.shape[-2], x.shape[-1]
    hs = d // n_head
    qkv = np.einsum("...td,de->...te", x, w_qkv.astype(np.float64)) + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = q.reshape(q.shape[:-1] + (n_head, hs))     # (..., T, h, hs)
    k = k.reshape(k.shape[:-1] + (n_head, hs))
    v = v.reshape(v.shape[:-1] + (n_head, hs))
    att = np.einsum("...qhc,...khc->...hqk", q, k) / math.sqrt(hs)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    att = np.where(future, -1e10, att)               # OpenAI-style large negative fill
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att /= att.sum(axis=-1, keepdims=True)
    y = np.einsum("...hqk,...khc->...qhc", att, v)   # (..., T, h, hs)
    y = y.reshape(y.shape[:-2] + (d,))
    out = y @ w_o.astype(np.float64) + b_o
    return out.astype(dtype)
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_reshape_without_transpose',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Splits the heads with a plain reshape (..., T, d) -> (..., n_head, T, d_k) and merges them with a plain reshape back, with no transpose either way, so each "head" gets a scrambled block of positions and other heads\' features.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*lead, n_head, T, d_k)
    k = k.reshape(*lead, n_head, T, d_k)
    v = v.reshape(*lead, n_head, T, d_k)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    allowed = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    out = (weights @ v).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_scale_by_model_width',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Divides the scores by sqrt(d), the model width, instead of sqrt(d_k), the head size, so the scores are sqrt(n_head) times too small and attention too flat (identical only when n_head = 1).',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    scores = q @ k.swapaxes(-1, -2) / d ** 0.5
    allowed = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    out = (weights @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_strict_mask_no_diagonal',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Builds the mask with np.tril(..., k=-1), which also hides the diagonal: every position loses its own key, and position 0, left with no key at all, gets an all -inf row whose softmax is NaN.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    past = np.tril(np.ones((T, T), dtype=bool), k=-1)
    scores = np.where(past, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    out = (weights @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_softmax_over_queries',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Takes the softmax over axis -2 (the queries) instead of the last axis (the keys), so the columns of each head\'s weight matrix sum to one instead of its rows.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    allowed = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    scores = scores - scores.max(axis=-2, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-2, keepdims=True)
    out = (weights @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_bug_values_sliced_as_keys',
        "exercise": 'causal_self_attention',
        "kind": 'bug',
        "mistake": 'Copy-paste slip in the split: v is sliced as qkv[..., d:2*d], the same columns as k, so the keys are used as values and the last d columns of qkv are never used.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q = qkv[..., :d]
    k = qkv[..., d:2 * d]
    v = qkv[..., d:2 * d]
    q = q.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    k = k.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    v = v.reshape(*lead, T, n_head, d_k).swapaxes(-2, -3)
    scores = q @ k.swapaxes(-1, -2) / d_k ** 0.5
    allowed = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    out = (weights @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return out @ w_o + b_o
''',
    },
    # ------------------------------------------------------------------ lesson 03: gelu_tanh
    {
        "id": 'l03_gelu_tanh_right_formula',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''import math


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))
''',
    },
    {
        "id": 'l03_gelu_tanh_right_power_and_halves',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    c = (2.0 / 3.141592653589793) ** 0.5
    inner = c * (x + 0.044715 * x ** 3)
    return x * (0.5 + 0.5 * np.tanh(inner))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_exact_erf_gelu',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Computes the exact GELU 0.5 * x * (1 + erf(x / sqrt(2))) (x times the normal CDF, via math.erf) instead of the tanh approximation GPT-2 uses; the outputs differ by up to about 5e-4 (largest near |x| = 2.7).',
        "source": r'''import math


def gelu_tanh(x):
    erf = np.vectorize(math.erf, otypes=[x.dtype])
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_numpy_sqrt_constant_upcasts',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Writes the constant as np.sqrt(2 / np.pi), a NumPy float64 scalar, which under NumPy 2 promotes a float32 input to a float64 output (the values are right, the dtype is not).',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x * x * x)))
''',
    },
    {
        "id": 'l03_gelu_tanh_bug_constant_typo',
        "exercise": 'gelu_tanh',
        "kind": 'bug',
        "mistake": 'Typo in the cubic coefficient: 0.04715 instead of 0.044715, which changes the output slightly for every input away from zero.',
        "source": r'''import math


def gelu_tanh(x):
    k = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(k * (x + 0.04715 * x * x * x)))
''',
    },
    # ------------------------------------------------------------------ lesson 03: mlp
    {
        "id": 'l03_mlp_right_matmul',
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
    hidden = np.einsum("...i,ij->...j", x, w_fc) + b_fc      # (..., 4d)
    hidden = gelu_tanh(hidden)
    out = np.einsum("...j,jk->...k", hidden, w_proj)         # (..., d)
    return out + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_fc_bias_after_gelu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Adds the first bias b_fc after the GELU instead of before it (gelu(x @ w_fc) + b_fc), so the nonlinearity sees the wrong pre-activations.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc) + b_fc
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_relu_activation',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Uses ReLU (np.maximum(a, 0)) between the two layers instead of the tanh GELU, which differs for every negative and every small positive pre-activation.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    a = x @ w_fc + b_fc
    h = np.maximum(a, 0)
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_bug_projects_preactivation',
        "exercise": 'mlp',
        "kind": 'bug',
        "mistake": 'Computes h = gelu_tanh(a) but projects a, the pre-activation, instead of h (wrong variable name), so the MLP is purely affine and the GELU has no effect.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    a = x @ w_fc + b_fc
    h = gelu_tanh(a)
    return a @ w_proj + b_proj
''',
    },
    # ------------------------------------------------------------------ lesson 03: block
    {
        "id": 'l03_block_right_prefix',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(
        a,
        params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
        params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"],
        n_head,
    )
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    x = x + mlp(
        m,
        params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
        params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"],
    )
    return x
''',
    },
    {
        "id": 'l03_block_right_copy_then_inplace',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def block(x, params, layer, n_head):
    def P(name):
        return params[f"h.{layer}.{name}"]

    h = x.copy()                     # work on a copy: the caller's x stays as it was
    h += causal_self_attention(
        layer_norm(h, P("ln_1.weight"), P("ln_1.bias")),
        P("attn.c_attn.weight"), P("attn.c_attn.bias"),
        P("attn.c_proj.weight"), P("attn.c_proj.bias"),
        n_head,
    )
    h += mlp(
        layer_norm(h, P("ln_2.weight"), P("ln_2.bias")),
        P("mlp.c_fc.weight"), P("mlp.c_fc.bias"),
        P("mlp.c_proj.weight"), P("mlp.c_proj.bias"),
    )
    return h
''',
    },
    {
        "id": 'l03_block_mistake_post_ln',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Builds a post-LN block (GPT-1 style): x = ln_1(x + attn(x)), then x = ln_2(x + mlp(x)), normalising after each residual addition instead of normalising the sub-layer inputs.',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    a = causal_self_attention(
        x,
        params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
        params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"],
        n_head,
    )
    x = layer_norm(x + a, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    m = mlp(
        x,
        params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
        params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"],
    )
    x = layer_norm(x + m, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_mistake_inplace_on_argument',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Adds both branches with x += ... on the argument itself, so the caller\'s residual-stream array is overwritten in place (the returned values are right, but the input x is modified).',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    x += causal_self_attention(
        layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"]),
        params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
        params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"],
        n_head,
    )
    x += mlp(
        layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"]),
        params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
        params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"],
    )
    return x
''',
    },
    {
        "id": 'l03_block_mistake_hardcoded_layer_zero',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Hard-codes the key prefix "h.0." instead of f"h.{layer}.", so every call uses layer 0\'s weights whatever layer is asked for.',
        "source": r'''def block(x, params, layer, n_head):
    p = "h.0."
    a = layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"])
    x = x + causal_self_attention(
        a,
        params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
        params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"],
        n_head,
    )
    m = layer_norm(x, params[p + "ln_2.weight"], params[p + "ln_2.bias"])
    x = x + mlp(
        m,
        params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
        params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"],
    )
    return x
''',
    },
    {
        "id": 'l03_block_bug_returns_after_attention',
        "exercise": 'block',
        "kind": 'bug',
        "mistake": 'Computes both residual steps but returns x1, the stream after the attention half, instead of x2, so the MLP branch is dropped from the output.',
        "source": r'''def block(x, params, layer, n_head):
    p = f"h.{layer}."
    x1 = x + causal_self_attention(
        layer_norm(x, params[p + "ln_1.weight"], params[p + "ln_1.bias"]),
        params[p + "attn.c_attn.weight"], params[p + "attn.c_attn.bias"],
        params[p + "attn.c_proj.weight"], params[p + "attn.c_proj.bias"],
        n_head,
    )
    x2 = x1 + mlp(
        layer_norm(x1, params[p + "ln_2.weight"], params[p + "ln_2.bias"]),
        params[p + "mlp.c_fc.weight"], params[p + "mlp.c_fc.bias"],
        params[p + "mlp.c_proj.weight"], params[p + "mlp.c_proj.bias"],
    )
    return x1
''',
    },
    # ------------------------------------------------------------------ lesson 04: init_gpt
    {
        "id": 'l04_init_gpt_right_explicit',
        "exercise": 'init_gpt',
        "kind": 'right',
        "mistake": '',
        "source": r'''import math


def init_gpt(config, seed):
    V, T = config.vocab_size, config.block_size
    L, d = config.n_layer, config.n_embd
    rng = np.random.default_rng(seed)
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
        "id": 'l04_init_gpt_right_table_driven_normal',
        "exercise": 'init_gpt',
        "kind": 'right',
        "mistake": '',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer
    resid_std = 0.02 * (2 * L) ** -0.5
    params = {
        "wte": rng.normal(0.0, 0.02, size=(config.vocab_size, d)),
        "wpe": rng.normal(0.0, 0.02, size=(config.block_size, d)),
    }
    linears = [
        ("attn.c_attn", (d, 3 * d), 0.02),
        ("attn.c_proj", (d, d), resid_std),
        ("mlp.c_fc", (d, 4 * d), 0.02),
        ("mlp.c_proj", (4 * d, d), resid_std),
    ]
    for i in range(L):
        for ln in ("ln_1", "ln_2"):
            params[f"h.{i}.{ln}.weight"] = np.ones(d)
            params[f"h.{i}.{ln}.bias"] = np.zeros(d)
        for name, shape, std in linears:
            params[f"h.{i}.{name}.weight"] = rng.normal(0.0, std, size=shape)
            params[f"h.{i}.{name}.bias"] = np.zeros(shape[1])
    params["ln_f.weight"] = np.ones(d)
    params["ln_f.bias"] = np.zeros(d)
    return params
''',
    },
    {
        "id": 'l04_init_gpt_mistake_residual_projections_unscaled',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws attn.c_proj.weight and mlp.c_proj.weight with std 0.02 like every other matrix, leaving out the 1/sqrt(2L) scaling of the two residual projections.',
        "source": r'''def init_gpt(config, seed):
    V, T = config.vocab_size, config.block_size
    L, d = config.n_layer, config.n_embd
    rng = np.random.default_rng(seed)
    std = 0.02
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * std
    P["wpe"] = rng.standard_normal((T, d)) * std
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * std
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * std
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * std
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * std
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_scale_by_sqrt_L',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Scales the residual projections by 1/sqrt(L) (one per block) instead of 1/sqrt(2L), so attn.c_proj and mlp.c_proj start sqrt(2) times too large.',
        "source": r'''import math


def init_gpt(config, seed):
    V, T = config.vocab_size, config.block_size
    L, d = config.n_layer, config.n_embd
    rng = np.random.default_rng(seed)
    std = 0.02
    proj_std = std / math.sqrt(L)
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
        "id": 'l04_init_gpt_mistake_wpe_std_openai_001',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws the position table wpe with std 0.01 (OpenAI\'s released code) instead of the 0.02 the exercise table asks for; everything else is right.',
        "source": r'''import math


def init_gpt(config, seed):
    V, T = config.vocab_size, config.block_size
    L, d = config.n_layer, config.n_embd
    rng = np.random.default_rng(seed)
    proj_std = 0.02 / math.sqrt(2 * L)
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * 0.02
    P["wpe"] = rng.standard_normal((T, d)) * 0.01
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = rng.standard_normal((d, d)) * proj_std
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * proj_std
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_bug_layer_key_uses_L',
        "exercise": 'init_gpt',
        "kind": 'bug',
        "mistake": 'Typo in the key prefix: f"h.{L}." instead of f"h.{i}.", so every block writes to the same keys h.L.* (a layer that does not exist) and the keys h.0 .. h.L-1 are all missing.',
        "source": r'''import math


def init_gpt(config, seed):
    V, T = config.vocab_size, config.block_size
    L, d = config.n_layer, config.n_embd
    rng = np.random.default_rng(seed)
    std = 0.02
    proj_std = std / math.sqrt(2 * L)
    P = {}
    P["wte"] = rng.standard_normal((V, d)) * std
    P["wpe"] = rng.standard_normal((T, d)) * std
    for i in range(L):
        h = f"h.{L}."
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
    # ------------------------------------------------------------------ lesson 04: gpt_logits
    {
        "id": 'l04_gpt_logits_right_count_layers',
        "exercise": 'gpt_logits',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_right_sorted_layers_einsum',
        "exercise": 'gpt_logits',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gpt_logits(P, idx, n_head):
    layers = sorted({int(name.split(".")[1]) for name in P if name.startswith("h.")})
    h = embed(P["wte"], P["wpe"], idx)
    for layer in layers:
        h = block(h, P, layer, n_head)
    h = layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])
    return np.einsum("...td,vd->...tv", h, P["wte"])
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_no_final_layernorm',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Skips the final LayerNorm ln_f: the last block\'s output goes straight into the tied head (h @ wte.T).',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer):
        x = block(x, P, i, n_head)
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_max_index_as_layer_count',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Off-by-one layer count: takes the largest block index in the keys (L - 1) as the number of layers and loops range(L - 1), so the last block is never applied (a 1-layer model runs no block at all).',
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
        "id": 'l04_gpt_logits_bug_blocks_read_embeddings',
        "exercise": 'gpt_logits',
        "kind": 'bug',
        "mistake": 'Wrong variable in the loop: every block is applied to x0, the embeddings, instead of the previous block\'s output, so only the last block\'s output survives and the blocks are not chained (right only for a 1-layer model).',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x0 = embed(P["wte"], P["wpe"], idx)
    x = x0
    for i in range(n_layer):
        x = block(x0, P, i, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
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
    V, d = E.shape
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]                                   # (N, d)
    H = np.tanh(X @ A)                           # (N, d)
    Z = H @ E.T                                  # (N, V)
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H                                # output path (the head)
    dH = dZ @ E
    dU = dH * (1 - H * H)                        # tanh'
    dX = dU @ A.T
    np.add.at(dE, ids, dX)                       # input path (the lookup), repeats accumulate
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_right_float64_one_hot',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'right',
        "mistake": '',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    dt = E.dtype
    E64 = E.astype(np.float64)
    A64 = A.astype(np.float64)
    V = E64.shape[0]
    ids = np.ravel(idx)
    tgt = np.ravel(targets)
    N = len(ids)
    onehot_in = np.eye(V)[ids]        # (N, V): the lookup as a matrix
    onehot_t = np.eye(V)[tgt]
    X = onehot_in @ E64
    H = np.tanh(X @ A64)
    Z = H @ E64.T
    m = Z.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(Z - m).sum(axis=1))
    loss = np.mean(lse - (Z * onehot_t).sum(axis=1))
    dZ = (np.exp(Z - lse[:, None]) - onehot_t) / N
    dH = dZ @ E64
    dX = (dH * (1.0 - H ** 2)) @ A64.T
    dE = dZ.T @ H + onehot_in.T @ dX
    return loss.astype(dt), dE.astype(dt)
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_fancy_index_add',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Scatters the input path with dE[ids] += dX (fancy-index add), which keeps only one contribution per row when an id repeats instead of accumulating all of them with np.add.at.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H * H)) @ A.T
    dE[ids] += dX
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_head_path_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Returns only the output-path gradient dZ^T H (E as the head) and leaves out the input path through the lookup X = E[idx], as if the head were untied.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_no_tanh_derivative',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Backpropagates through the tanh as if it were the identity: dX = (dZ @ E) @ A.T without the factor 1 - H**2, so the input-path gradient is wrong.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
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
        "id": 'l04_tied_lm_loss_and_grad_bug_scatter_into_target_rows',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'bug',
        "mistake": 'Wrong variable in the scatter: np.add.at(dE, tgt, dX) adds the input-path gradient to the rows of the target ids instead of the input ids that were looked up.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    V, d = E.shape
    ids = idx.reshape(-1)
    tgt = targets.reshape(-1)
    N = ids.size
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    logp = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(N), tgt].mean()
    dZ = np.exp(logp)
    dZ[np.arange(N), tgt] -= 1
    dZ /= N
    dE = dZ.T @ H
    dX = ((dZ @ E) * (1 - H * H)) @ A.T
    np.add.at(dE, tgt, dX)
    return loss, dE
''',
    },
    # ------------------------------------------------------------------ lesson 05: count_gpt2_params
    {
        "id": 'l05_count_gpt2_params_right_closed_form',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    if bias:
        per_block = 12 * d * d + 13 * d     # 4 matrices, 9d linear biases, 2 LayerNorms (gain + bias)
        final_ln = 2 * d
    else:
        per_block = 12 * d * d + 2 * d      # 4 matrices, 2 LayerNorm gains
        final_ln = d
    total = V * d + T * d + L * per_block + final_ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_right_tensor_list',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    shapes = [(V, d), (T, d)]

    def linear(n_in, n_out):
        shapes.append((n_in, n_out))
        if bias:
            shapes.append((n_out,))

    def norm():
        shapes.append((d,))
        if bias:
            shapes.append((d,))

    for _ in range(L):
        norm()
        linear(d, 3 * d)
        linear(d, d)
        norm()
        linear(d, 4 * d)
        linear(4 * d, d)
    norm()
    if not tied:
        shapes.append((V, d))
    total = 0
    for shape in shapes:
        n = 1
        for size in shape:
            n *= size
        total += n
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_bias_false_keeps_layernorm_biases',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False removes only the linear layers\' biases (9d per block) and keeps the LayerNorm biases, counting 12d^2 + 4d per block and 2d for ln_f instead of 12d^2 + 2d and d.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    linear_weights = 12 * d * d
    linear_biases = 9 * d if bias else 0
    layer_norms = 2 * (2 * d)
    total = V * d + T * d + L * (linear_weights + linear_biases + layer_norms) + 2 * d
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_untied_head_with_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Gives the untied head a bias: adds V*d + V for tied=False instead of V*d (even with bias=False), so every untied count is V too large.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    if bias:
        block = 12 * d * d + 13 * d
        ln_f = 2 * d
    else:
        block = 12 * d * d + 2 * d
        ln_f = d
    total = V * d + T * d + L * block + ln_f
    if not tied:
        total += V * d + V      # the head: a (d -> V) linear layer
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_forgets_final_layernorm',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Leaves out the final LayerNorm ln_f (2d with biases, d without), counting only the embeddings, the blocks and the optional head.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    if bias:
        block = 12 * d * d + 13 * d
    else:
        block = 12 * d * d + 2 * d
    total = V * d + T * d + L * block
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_bug_wpe_uses_V',
        "exercise": 'count_gpt2_params',
        "kind": 'bug',
        "mistake": 'Typo in the position-table term: T * V instead of T * d, so wpe is counted as (T, V) and the total is off by T * (V - d).',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    wte = V * d
    wpe = T * V
    if bias:
        block = 12 * d * d + 13 * d
        ln_f = 2 * d
    else:
        block = 12 * d * d + 2 * d
        ln_f = d
    head = 0 if tied else V * d
    return wte + wpe + L * block + ln_f + head
''',
    },
    # ------------------------------------------------------------------ lesson 06: numpy_to_torch
    {
        "id": 'l06_numpy_to_torch_right_model_driven',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''LINEAR_WEIGHTS = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def course_name(name):
    short = name[len("transformer."):] if name.startswith("transformer.") else name
    if short in ("wte.weight", "wpe.weight"):
        return short[: -len(".weight")]
    return short


def numpy_to_torch(P, model):
    wanted = {course_name(name): name for name in model}
    missing = sorted(set(wanted) - set(P))
    unexpected = sorted(set(P) - set(wanted))
    if missing or unexpected:
        raise ValueError(f"P does not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for key, name in wanted.items():
        arr = np.asarray(P[key])
        if name.endswith(LINEAR_WEIGHTS):
            arr = arr.T
        if arr.shape != model[name].shape:
            raise ValueError(
                f"{key}: shape {arr.shape} after the transpose, but the model's {name} has shape {model[name].shape}"
            )
        out[name] = np.array(arr, dtype=model[name].dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_right_rename_forward',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def numpy_to_torch(P, model):
    def module_name(k):
        if k in ("wte", "wpe"):
            return f"transformer.{k}.weight"
        return "transformer." + k

    renamed = {module_name(k): k for k in P}
    if set(renamed) != set(model):
        missing = [n for n in model if n not in renamed]
        unexpected = [renamed[n] for n in renamed if n not in model]
        raise ValueError(f"P does not fit the model. Missing: {missing}. Unexpected: {unexpected}.")
    result = {}
    for name, target in model.items():
        value = P[renamed[name]]
        parts = name.split(".")
        if parts[-1] == "weight" and parts[-2] in ("c_attn", "c_proj", "c_fc"):
            value = value.T
        if value.shape != target.shape:
            raise ValueError(
                f"{renamed[name]} has shape {value.shape} after the transpose, but {name} needs {target.shape}"
            )
        result[name] = value.astype(target.dtype)   # astype returns a new array
    return result
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_decided_by_shape',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Decides the transpose by shape (transposes only when the array does not already fit the model and its transpose does), so the square attn.c_proj.weight (d, d) is copied untransposed: the square-matrix trap.',
        "source": r'''def numpy_to_torch(P, model):
    def course_name(name):
        short = name.removeprefix("transformer.")
        return short.removesuffix(".weight") if short in ("wte.weight", "wpe.weight") else short

    wanted = {course_name(name): name for name in model}
    missing = sorted(set(wanted) - set(P))
    unexpected = sorted(set(P) - set(wanted))
    if missing or unexpected:
        raise ValueError(f"P does not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for key, name in wanted.items():
        arr = P[key]
        target = model[name].shape
        if arr.shape != target and arr.T.shape == target:
            arr = arr.T
        if arr.shape != target:
            raise ValueError(f"{key}: shape {arr.shape} does not fit {name} {target}")
        out[name] = arr.astype(model[name].dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_renames_keys_in_P',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Renames the keys inside the argument P itself (P[new] = P.pop(old)), so the caller\'s dict is changed (its course names are gone afterwards); the returned arrays are right.',
        "source": r'''def numpy_to_torch(P, model):
    for k in list(P):
        new = f"transformer.{k}.weight" if k in ("wte", "wpe") else "transformer." + k
        P[new] = P.pop(k)
    missing = [n for n in model if n not in P]
    unexpected = [n for n in P if n not in model]
    if missing or unexpected:
        raise ValueError(f"missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        arr = P[name]
        if name.endswith(("c_attn.weight", "c_proj.weight", "c_fc.weight")):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: shape {arr.shape}, expected {target.shape}")
        out[name] = arr.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_bug_ln_f_bias_from_weight',
        "exercise": 'numpy_to_torch',
        "kind": 'bug',
        "mistake": 'Copy-paste slip in the explicit mapping: transformer.ln_f.bias is filled from P["ln_f.weight"] instead of P["ln_f.bias"], so the final LayerNorm\'s bias holds its gain (same shape, no error).',
        "source": r'''def numpy_to_torch(P, model):
    expected = set()
    for name in model:
        short = name.removeprefix("transformer.")
        expected.add(short.removesuffix(".weight") if short in ("wte.weight", "wpe.weight") else short)
    if expected != set(P):
        raise ValueError(f"missing {sorted(expected - set(P))}, unexpected {sorted(set(P) - expected)}")
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    out = {}
    out["transformer.wte.weight"] = P["wte"]
    out["transformer.wpe.weight"] = P["wpe"]
    for i in range(n_layer):
        for part in ("ln_1.weight", "ln_1.bias", "attn.c_attn.bias", "attn.c_proj.bias",
                     "ln_2.weight", "ln_2.bias", "mlp.c_fc.bias", "mlp.c_proj.bias"):
            out[f"transformer.h.{i}.{part}"] = P[f"h.{i}.{part}"]
        for part in ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight"):
            out[f"transformer.h.{i}.{part}"] = P[f"h.{i}.{part}"].T
    out["transformer.ln_f.weight"] = P["ln_f.weight"]
    out["transformer.ln_f.bias"] = P["ln_f.weight"]
    result = {}
    for name, target in model.items():
        if out[name].shape != target.shape:
            raise ValueError(f"{name}: shape {out[name].shape}, the model has {target.shape}")
        result[name] = out[name].astype(target.dtype)
    return result
''',
    },
    # ------------------------------------------------------------------ lesson 06: load_hf_state_dict
    {
        "id": 'l06_load_hf_state_dict_right_filter_then_load',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''LINEAR_WEIGHTS = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def load_hf_state_dict(model, state_dict):
    sd = {
        k: v for k, v in state_dict.items()
        if not (k.endswith(".attn.bias") or k.endswith(".attn.masked_bias") or k == "lm_head.weight")
    }
    missing = sorted(set(model) - set(sd))
    unexpected = sorted(set(sd) - set(model))
    if missing or unexpected:
        raise ValueError(f"state dict does not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        arr = np.asarray(sd[name])
        if name.endswith(LINEAR_WEIGHTS):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: shape {arr.shape} after the transpose, the model expects {target.shape}")
        out[name] = np.array(arr, dtype=target.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_right_loop_continue',
        "exercise": 'load_hf_state_dict',
        "kind": 'right',
        "mistake": '',
        "source": r'''def load_hf_state_dict(model, state_dict):
    buffers = (".attn.bias", ".attn.masked_bias")
    conv1d = {"c_attn", "c_proj", "c_fc"}
    kept = {}
    for key, value in state_dict.items():
        if key.endswith(buffers):
            continue                      # causal-mask buffers, not parameters
        if key == "lm_head.weight":
            continue                      # the tied head is transformer.wte.weight
        kept[key] = value
    missing = [k for k in model if k not in kept]
    unexpected = [k for k in kept if k not in model]
    if missing:
        raise ValueError(f"missing keys: {missing}")
    if unexpected:
        raise ValueError(f"unexpected keys: {unexpected}")
    loaded = {}
    for name, target in model.items():
        value = kept[name]
        module = name.split(".")[-2]
        if name.endswith(".weight") and module in conv1d:
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"shape mismatch for {name}: got {value.shape}, model has {target.shape}")
        loaded[name] = value.astype(target.dtype, copy=True)
    return loaded
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_skip_suffix_catches_c_attn_bias',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips the buffers with k.endswith("attn.bias") (no leading dot), which also drops the real parameter h.{i}.attn.c_attn.bias, so every valid state dict is refused with a ValueError about missing c_attn.bias keys.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    sd = {}
    for k, v in state_dict.items():
        if k.endswith("attn.bias") or k.endswith("attn.masked_bias") or k == "lm_head.weight":
            continue
        sd[k] = v
    missing = sorted(set(model) - set(sd))
    unexpected = sorted(set(sd) - set(model))
    if missing or unexpected:
        raise ValueError(f"state dict does not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        arr = sd[name]
        if name.endswith(("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: shape {arr.shape}, the model expects {target.shape}")
        out[name] = arr.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_keeps_state_dict_dtype',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Copies each tensor in the state dict\'s own dtype (arr.copy()) instead of casting it to the dtype of the model\'s array, so a float32 checkpoint loaded into a float64 model (or the reverse) comes back in the wrong dtype.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    skip = (".attn.bias", ".attn.masked_bias")
    sd = {k: v for k, v in state_dict.items() if not k.endswith(skip) and k != "lm_head.weight"}
    missing = sorted(set(model) - set(sd))
    unexpected = sorted(set(sd) - set(model))
    if missing or unexpected:
        raise ValueError(f"state dict does not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        arr = sd[name]
        if name.endswith(("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: shape {arr.shape}, the model expects {target.shape}")
        out[name] = arr.copy()
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_bug_masked_bias_typo',
        "exercise": 'load_hf_state_dict',
        "kind": 'bug',
        "mistake": 'Typo in the buffer suffix: ".attn.mask_bias" instead of ".attn.masked_bias", so the masked_bias buffers of older checkpoints are not skipped and such a state dict is refused as having unexpected keys.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    skip = (".attn.bias", ".attn.mask_bias")
    sd = {k: v for k, v in state_dict.items() if not k.endswith(skip) and k != "lm_head.weight"}
    missing = sorted(set(model) - set(sd))
    unexpected = sorted(set(sd) - set(model))
    if missing or unexpected:
        raise ValueError(f"state dict does not match the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        arr = sd[name]
        if name.endswith(("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")):
            arr = arr.T
        if arr.shape != target.shape:
            raise ValueError(f"{name}: shape {arr.shape}, the model expects {target.shape}")
        out[name] = arr.astype(target.dtype)
    return out
''',
    },
    # ------------------------------------------------------------------ lesson 07: sinusoidal_positions
    {
        "id": 'l07_sinusoidal_positions_right_vectorised',
        "exercise": 'sinusoidal_positions',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d = {d}")
    t = np.arange(T, dtype=np.float64)[:, None]           # (T, 1)
    i = np.arange(d // 2, dtype=np.float64)[None, :]      # (1, d/2)
    omega = base ** (-2.0 * i / d)
    angles = t * omega                                    # (T, d/2)
    pe = np.empty((T, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_right_loops_exp_log',
        "exercise": 'sinusoidal_positions',
        "kind": 'right',
        "mistake": '',
        "source": r'''import math


def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"the width must be even for sine/cosine pairs: d = {d}")
    pe = np.zeros((T, d))
    for i in range(d // 2):
        w = math.exp(-2 * i / d * math.log(base))
        for t in range(T):
            pe[t, 2 * i] = math.sin(t * w)
            pe[t, 2 * i + 1] = math.cos(t * w)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_sines_then_cosines',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Uses the split layout: all sines in the first d/2 columns and all cosines in the last d/2 (np.concatenate) instead of interleaving sin at column 2i and cos at column 2i + 1.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d = {d}")
    t = np.arange(T)[:, None]
    omega = base ** (-2 * np.arange(d // 2) / d)
    return np.concatenate([np.sin(t * omega), np.cos(t * omega)], axis=1)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_ignores_base',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Hard-codes 10000.0 in the frequency instead of using the base argument, so any call with another base returns the base-10000 table.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d = {d}")
    t = np.arange(T)[:, None]
    omega = 10000.0 ** (-2 * np.arange(d // 2) / d)
    pe = np.zeros((T, d))
    pe[:, 0::2] = np.sin(t * omega)
    pe[:, 1::2] = np.cos(t * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_even_column_index_doubled',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Takes i from the even column indices (np.arange(0, d, 2)) and still uses base ** (-2i/d), so the exponent is doubled: pair j turns at base ** (-4j/d) and the frequencies fall off twice as fast.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d = {d}")
    pe = np.zeros((T, d))
    pos = np.arange(T)[:, None]
    i = np.arange(0, d, 2)
    omega = base ** (-2 * i / d)
    pe[:, 0::2] = np.sin(pos * omega)
    pe[:, 1::2] = np.cos(pos * omega)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_bug_sine_in_odd_columns',
        "exercise": 'sinusoidal_positions',
        "kind": 'bug',
        "mistake": 'Copy-paste slip: the odd columns are filled with np.sin as well, so column 2i + 1 repeats column 2i and the cosines never appear.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 != 0:
        raise ValueError(f"d must be even, got d = {d}")
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
        "id": 'l07_position_similarity_right_unit_rows',
        "exercise": 'position_similarity',
        "kind": 'right',
        "mistake": '',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D position table (T, d), got shape {wpe.shape}")
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
    if np.ndim(wpe) != 2:
        raise ValueError(f"position_similarity needs a (T, d) table, not shape {wpe.shape}")
    gram = wpe @ wpe.T                      # (T, T) dot products
    norms = np.sqrt(np.diag(gram))          # row lengths
    return gram / np.outer(norms, norms)
''',
    },
    {
        "id": 'l07_position_similarity_mistake_normalises_columns',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Normalises the columns (np.linalg.norm over axis 0, each feature across positions) instead of the rows, so the entries are not cosines between positions (the diagonal is not 1).',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    unit = wpe / np.linalg.norm(wpe, axis=0, keepdims=True)
    return unit @ unit.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_normalises_in_place',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Normalises the table in place with wpe /= norms, so the caller\'s position table is overwritten with unit rows (the returned matrix is right).',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    wpe /= np.linalg.norm(wpe, axis=1, keepdims=True)
    return wpe @ wpe.T
''',
    },
    {
        "id": 'l07_position_similarity_bug_mixes_unit_and_raw',
        "exercise": 'position_similarity',
        "kind": 'bug',
        "mistake": 'Wrong variable on the right of the product: unit @ wpe.T instead of unit @ unit.T, so only the first factor is normalised and each column is scaled by the length of row t.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    norms = np.linalg.norm(wpe, axis=1, keepdims=True)
    unit = wpe / norms
    return unit @ wpe.T
''',
    },
    # ------------------------------------------------------------------ lesson 07: principal_components
    {
        "id": 'l07_principal_components_right_svd_float64',
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
    Xc = X - X.mean(axis=0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    dirs = Vt[:k]                                        # (k, d), largest variance first
    biggest = np.argmax(np.abs(dirs), axis=1)
    signs = np.sign(dirs[np.arange(k), biggest])
    dirs = dirs * signs[:, None]
    return (Xc @ dirs.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_right_covariance_eigh',
        "exercise": 'principal_components',
        "kind": 'right',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    if np.ndim(wpe) != 2:
        raise ValueError(f"principal_components needs a 2-D table, got wpe.shape = {wpe.shape}")
    T, d = wpe.shape
    limit = min(T, d)
    if k > limit:
        raise ValueError(f"asked for k = {k} components, but a ({T}, {d}) table has at most min(T, d) = {limit}")
    X = np.array(wpe, dtype=np.float64)
    Xc = X - X.mean(axis=0, keepdims=True)
    cov = Xc.T @ Xc / T
    vals, vecs = np.linalg.eigh(cov)            # ascending eigenvalues
    order = np.argsort(vals)[::-1][:k]
    V = vecs[:, order].copy()                   # (d, k)
    for j in range(k):
        i = np.argmax(np.abs(V[:, j]))
        if V[i, j] < 0:
            V[:, j] = -V[:, j]
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_no_centering',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Skips the centring: takes the SVD of the raw table and projects the raw rows, so the mean row pulls the first direction towards it and every projection carries the mean\'s component.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} is larger than min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    dirs = Vt[:k]
    biggest = np.argmax(np.abs(dirs), axis=1)
    dirs = dirs * np.sign(dirs[np.arange(k), biggest])[:, None]
    return (X @ dirs.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_eigh_ascending_order',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Takes the first k columns of np.linalg.eigh\'s eigenvectors, which come in ascending order of eigenvalue, so it returns the k smallest-variance directions (smallest first) instead of the largest.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} is larger than min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    cov = Xc.T @ Xc / (T - 1)
    vals, vecs = np.linalg.eigh(cov)
    V = vecs[:, :k].copy()
    for j in range(k):
        i = np.argmax(np.abs(V[:, j]))
        if V[i, j] < 0:
            V[:, j] *= -1
    return (Xc @ V).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_sign_from_first_entry',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Fixes each direction\'s sign by making its first entry positive instead of its largest-magnitude entry, so some components (and their projection columns) come out with the opposite sign.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} is larger than min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    dirs = Vt[:k]
    dirs = dirs * np.where(dirs[:, :1] < 0, -1.0, 1.0)
    return (Xc @ dirs.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_bug_returns_directions',
        "exercise": 'principal_components',
        "kind": 'bug',
        "mistake": 'Returns the sign-fixed directions (dirs.T, shape (d, k)) instead of the projections Xc @ dirs.T (shape (T, k)), an intermediate of the computation.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} is larger than min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64)
    Xc = X - X.mean(axis=0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    dirs = Vt[:k]
    biggest = np.argmax(np.abs(dirs), axis=1)
    dirs = dirs * np.sign(dirs[np.arange(k), biggest])[:, None]
    proj = Xc @ dirs.T
    return dirs.T.astype(wpe.dtype)
''',
    },
    # ------------------------------------------------------------------ lesson 08: cross_entropy
    {
        "id": 'l08_cross_entropy_right_log_softmax',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(
            f"targets have shape {targets.shape}, expected logits.shape[:-1] = {logits.shape[:-1]} "
            f"(logits shape {logits.shape})"
        )
    V = logits.shape[-1]
    bad = (targets < 0) | (targets >= V)
    if np.any(bad):
        raise ValueError(f"target id {targets[bad].flat[0]} is outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(logp, targets[..., None], axis=-1)
    return -picked.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_right_flat_logsumexp',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    if np.shape(targets) != logits.shape[:-1]:
        raise ValueError(f"shape mismatch: logits {logits.shape} need targets of shape "
                         f"{logits.shape[:-1]}, got {np.shape(targets)}")
    V = logits.shape[-1]
    z = logits.reshape(-1, V)
    t = np.reshape(targets, -1)
    out_of_range = t[(t < 0) | (t >= V)]
    if out_of_range.size:
        raise ValueError(f"target id {out_of_range[0]} not in [0, {V})")
    m = z.max(axis=1, keepdims=True)
    shifted = z - m
    log_norm = np.log(np.exp(shifted).sum(axis=1))
    nll = log_norm - shifted[np.arange(len(t)), t]
    return nll.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_no_max_subtraction',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Computes log-softmax as logits - log(sum(exp(logits))) without subtracting the row maximum first, so logits near 1000 overflow exp to inf and the loss comes out inf/NaN.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        bad = targets[(targets < 0) | (targets >= V)]
        raise ValueError(f"target id {bad.flat[0]} is outside [0, {V})")
    logp = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)
    return nll.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_log_of_probability',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Subtracts the max and forms the softmax probabilities, then takes np.log of the target\'s probability; a target far below its row\'s maximum (800 below in float64, 120 in float32) has probability 0 and the loss becomes inf.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        bad = targets[(targets < 0) | (targets >= V)]
        raise ValueError(f"target id {bad.flat[0]} is outside [0, {V})")
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    p_target = np.take_along_axis(probs, targets[..., None], axis=-1)
    return -np.log(p_target).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_divides_by_len_targets',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Averages by dividing the summed loss by len(targets), the size of the first axis only: for (B, T) targets that is B, so the loss is T times too large, and 0-d targets raise a TypeError.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        bad = targets[(targets < 0) | (targets >= V)]
        raise ValueError(f"target id {bad.flat[0]} is outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)
    return nll.sum() / len(targets)
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_no_negative_id_check',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Checks only targets >= V, not negative ids, so a target of -1 is silently read as the last vocabulary entry instead of raising the ValueError the exercise asks for.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any(targets >= V):
        raise ValueError(f"target id {targets.max()} is outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)
    return nll.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_bug_picks_shifted_logits',
        "exercise": 'cross_entropy',
        "kind": 'bug',
        "mistake": 'Wrong variable when picking the targets: takes them from z (the max-shifted logits) instead of logp, so the log-sum-exp term is dropped and the loss is -mean(z[target]), the gap to the row maximum.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        bad = targets[(targets < 0) | (targets >= V)]
        raise ValueError(f"target id {bad.flat[0]} is outside [0, {V})")
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(z, targets[..., None], axis=-1)
    return nll.mean()
''',
    },
    # ------------------------------------------------------------------ lesson 08: get_batch
    {
        "id": 'l08_get_batch_right_fancy_index',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    data = np.asarray(data)
    if len(data) < block_size + 1:
        raise ValueError(
            f"data holds {len(data)} ids, but a window of block_size {block_size} needs {block_size + 1}"
        )
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    offsets = np.arange(block_size)
    ix = starts[:, None] + offsets          # (batch_size, block_size)
    x = data[ix].astype(np.int64)
    y = data[ix + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_right_loop_slices',
        "exercise": 'get_batch',
        "kind": 'right',
        "mistake": '',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    n = len(data)
    if n < block_size + 1:
        raise ValueError(f"len(data) = {n} is too short for block_size = {block_size} (need block_size + 1 ids)")
    starts = rng.integers(0, n - block_size, size=batch_size)
    x = np.empty((batch_size, block_size), dtype=np.int64)
    y = np.empty((batch_size, block_size), dtype=np.int64)
    for b, s in enumerate(starts):
        x[b] = data[s:s + block_size]
        y[b] = data[s + 1:s + block_size + 1]
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_start_bound_minus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with rng.integers(0, len(data) - block_size - 1, ...), subtracting one more than the prescribed call (treating the upper end as inclusive), so the same rng state gives other starts, the last valid start is never drawn, and data of exactly block_size + 1 ids makes NumPy raise its own \'high <= 0\' error.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, need at least block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size - 1, size=batch_size)
    ix = starts[:, None] + np.arange(block_size)
    x = data[ix].astype(np.int64)
    y = data[ix + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_keeps_data_dtype',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Returns the windows in the dtype of data (e.g. uint8 for the corpus) instead of casting both x and y to int64.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, need at least block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    x = np.stack([data[s:s + block_size] for s in starts])
    y = np.stack([data[s + 1:s + 1 + block_size] for s in starts])
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_global_numpy_random',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws the starts with the global np.random.randint instead of the given rng, so the batch is not the one the rng state determines (and the same rng gives different batches on each call).',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, need at least block_size + 1 = {block_size + 1}")
    starts = np.random.randint(0, len(data) - block_size, size=batch_size)
    ix = starts[:, None] + np.arange(block_size)
    return data[ix].astype(np.int64), data[ix + 1].astype(np.int64)
''',
    },
    {
        "id": 'l08_get_batch_bug_targets_use_input_index',
        "exercise": 'get_batch',
        "kind": 'bug',
        "mistake": 'Computes iy = ix + 1 but indexes y with ix (wrong variable), so y is a copy of x instead of the window moved on by one.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids, need at least block_size + 1 = {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    ix = starts[:, None] + np.arange(block_size)
    iy = ix + 1
    x = data[ix].astype(np.int64)
    y = data[ix].astype(np.int64)
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
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]      # exactly top_k per row
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1)) * cdf[:, -1:]
    ids = (cdf <= u).sum(axis=-1)
    return ids.astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_right_gumbel_max',
        "exercise": 'sample_next',
        "kind": 'right',
        "mistake": '',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature!r}")
    scaled = logits.astype(np.float64) / temperature
    if top_k is not None:
        k = min(top_k, scaled.shape[-1])
        order = np.argsort(-scaled, axis=-1, kind="stable")
        np.put_along_axis(scaled, order[:, k:], -np.inf, axis=-1)
    gumbel = -np.log(-np.log(rng.random(scaled.shape)))
    return np.argmax(scaled + gumbel, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_multiplies_by_temperature',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Multiplies the logits by the temperature instead of dividing, so a temperature below 1 flattens the distribution and above 1 sharpens it (right only at temperature 1).',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits * temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argsort(-z, axis=-1)[:, :top_k]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    return np.array([rng.choice(V, p=row) for row in p], dtype=np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_keeps_k_smallest',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Sorts ascending and keeps the first top_k ids, i.e. the k smallest logits, so with top_k set it only ever draws among the least likely candidates.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argsort(z, axis=-1)[:, :top_k]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1)) * cdf[:, -1:]
    return (cdf <= u).sum(axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_softmax_without_max',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Exponentiates the tempered logits without subtracting the row maximum, so logits near 800 overflow exp to inf, the probabilities become NaN, and the draw returns garbage ids (id 0 here).',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(z, keep, axis=-1), axis=-1)
        z = masked
    p = np.exp(z)
    p = p / p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1))
    ids = (cdf < u).sum(axis=-1)
    return np.minimum(ids, V - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_greedy_argmax',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Returns the argmax of the tempered (and top-k masked) logits instead of drawing from the softmax: greedy decoding, which never uses rng and always gives the single most likely id.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        kth = np.sort(z, axis=-1)[:, -top_k][:, None]
        z = np.where(z >= kth, z, -np.inf)
    return np.argmax(z, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_bug_topk_masks_raw_logits',
        "exercise": 'sample_next',
        "kind": 'bug',
        "mistake": 'Wrong variable in the top-k branch: the kept values are taken from logits instead of the tempered z, so whenever top_k < V the temperature is silently dropped (it still applies when top_k is None).',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    B, V = z.shape
    if top_k is not None and top_k < V:
        keep = np.argpartition(-z, top_k - 1, axis=-1)[:, :top_k]
        masked = np.full_like(z, -np.inf)
        np.put_along_axis(masked, keep, np.take_along_axis(logits, keep, axis=-1), axis=-1)
        z = masked
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1)) * cdf[:, -1:]
    ids = (cdf <= u).sum(axis=-1)
    return ids.astype(np.int64)
''',
    },
]

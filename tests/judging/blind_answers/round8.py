"""Blind learner answers, round 8: written from the lessons and exercise notebooks alone, after the fixes it measures."""

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
        raise ValueError(f"sequence length {T} is longer than the block size {block_size}")
    positions = np.arange(T)
    return wte[idx] + wpe[positions]
''',
    },
    {
        "id": 'l01_embed_mistake_first_axis_length',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Reads the sequence length from idx.shape[0], which is the batch size for a (B, T) input, so batched inputs get the wrong position rows or a shape error.',
        "source": r'''def embed(wte, wpe, idx):
    T = len(idx)
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_off_by_one_limit',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Uses >= in the length check, so a sequence of exactly block_size tokens is wrongly rejected.',
        "source": r'''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    block_size = wpe.shape[0]
    if T >= block_size:
        raise ValueError(f"sequence length {T} exceeds the block size {block_size}")
    return wte[idx] + wpe[:T]
''',
    },
    {
        "id": 'l01_embed_mistake_float64_buffer_loop',
        "exercise": 'embed',
        "kind": 'mistake',
        "mistake": 'Fills a np.zeros buffer created with the default float64 dtype, so float32 tables give a float64 result.',
        "source": r'''def embed(wte, wpe, idx):
    idx = np.asarray(idx)
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    out = np.zeros(idx.shape + (wte.shape[1],))
    for t in range(T):
        out[..., t, :] = wte[idx[..., t]] + wpe[t]
    return out
''',
    },
    # ---- lesson 01: one_hot_embed ----
    {
        "id": 'l01_one_hot_embed_right_compare',
        "exercise": 'one_hot_embed',
        "kind": 'right',
        "mistake": '',
        "source": r'''def one_hot_embed(wte, idx):
    idx = np.asarray(idx)
    V = wte.shape[0]
    one_hot = (idx[..., None] == np.arange(V)).astype(wte.dtype)
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_float64_eye',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Builds the one-hot matrix with np.eye(V) in float64, so a float32 table comes back as float64.',
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
        "mistake": 'Takes the vocabulary size from idx.max() + 1 instead of the table, so the one-hot width does not match wte unless the largest id happens to be V - 1.',
        "source": r'''def one_hot_embed(wte, idx):
    V = int(np.max(idx)) + 1
    one_hot = np.eye(V, dtype=wte.dtype)[idx]
    return one_hot @ wte
''',
    },
    {
        "id": 'l01_one_hot_embed_mistake_fancy_set_all_columns',
        "exercise": 'one_hot_embed',
        "kind": 'mistake',
        "mistake": 'Sets oh[..., idx] = 1, which puts a one in every row at every id of the sequence instead of one per row.',
        "source": r'''def one_hot_embed(wte, idx):
    idx = np.asarray(idx)
    oh = np.zeros(idx.shape + (wte.shape[0],), dtype=wte.dtype)
    oh[..., idx] = 1
    return oh @ wte
''',
    },
    # ---- lesson 02: layer_norm ----
    {
        "id": 'l02_layer_norm_right_explicit',
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
        "id": 'l02_layer_norm_mistake_sample_variance',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Uses the sample variance (ddof=1, dividing by d - 1) instead of the population variance.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, ddof=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_eps_outside_root',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Adds eps to the standard deviation instead of to the variance inside the square root.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    std = x.std(-1, keepdims=True)
    return weight * (x - mean) / (std + eps) + bias
''',
    },
    {
        "id": 'l02_layer_norm_mistake_hardcoded_eps',
        "exercise": 'layer_norm',
        "kind": 'mistake',
        "mistake": 'Hardcodes 1e-5 and ignores the eps argument it is given.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    x_hat = (x - mean) / np.sqrt(var + 1e-5)
    return x_hat * weight + bias
''',
    },
    {
        "id": 'l02_layer_norm_bug_weight_twice',
        "exercise": 'layer_norm',
        "kind": 'bug',
        "mistake": 'Typo: adds weight at the end instead of bias.',
        "source": r'''def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + weight
''',
    },
    # ---- lesson 02: causal_self_attention ----
    {
        "id": 'l02_causal_self_attention_right_einsum',
        "exercise": 'causal_self_attention',
        "kind": 'right',
        "mistake": '',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    dk = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    q = q.reshape(*lead, T, n_head, dk)
    k = k.reshape(*lead, T, n_head, dk)
    v = v.reshape(*lead, T, n_head, dk)
    scores = np.einsum('...qhc,...khc->...hqk', q, k) / math.sqrt(dk)
    allowed = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    y = np.einsum('...hqk,...khc->...qhc', w, v).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_mask_diagonal',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Masks with np.triu(..., k=0), which hides the diagonal too, so a position cannot attend to itself (and position 0 gets an all -inf row).',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    hs = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    def split(t):
        return np.swapaxes(t.reshape(t.shape[:-1] + (n_head, hs)), -2, -3)
    q, k, v = split(q), split(k), split(v)
    att = q @ np.swapaxes(k, -1, -2) / hs ** 0.5
    mask = np.triu(np.ones((T, T), dtype=bool))
    att = np.where(mask, -np.inf, att)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    y = np.swapaxes(att @ v, -2, -3).reshape(x.shape)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_scale_by_d',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Scales the scores by sqrt(d), the model width, instead of sqrt(d_k), the head size.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2:]
    hs = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = np.swapaxes(q.reshape(*q.shape[:-1], n_head, hs), -2, -3)
    k = np.swapaxes(k.reshape(*k.shape[:-1], n_head, hs), -2, -3)
    v = np.swapaxes(v.reshape(*v.shape[:-1], n_head, hs), -2, -3)
    att = (q @ np.swapaxes(k, -1, -2)) / d ** 0.5
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att /= att.sum(-1, keepdims=True)
    y = np.swapaxes(att @ v, -2, -3).reshape(x.shape)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_reshape_heads_no_swap',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Splits heads by reshaping (..., T, d) straight to (..., n_head, T, d_k) without the transpose, mixing positions and features across heads.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    *lead, T, d = x.shape
    hs = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = q.reshape(*lead, n_head, T, hs)
    k = k.reshape(*lead, n_head, T, hs)
    v = v.reshape(*lead, n_head, T, hs)
    att = q @ np.swapaxes(k, -1, -2) / math.sqrt(hs)
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(-1, keepdims=True))
    att = att / att.sum(-1, keepdims=True)
    y = (att @ v).reshape(*lead, T, d)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_mask_after_softmax',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Applies the causal mask after the softmax by zeroing future weights, so the remaining weights no longer sum to one.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2], x.shape[-1]
    dk = d // n_head
    qkv = x @ w_qkv + b_qkv
    heads = []
    for part in np.split(qkv, 3, axis=-1):
        heads.append(np.swapaxes(part.reshape(part.shape[:-1] + (n_head, dk)), -3, -2))
    q, k, v = heads
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(dk)
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    p = s / s.sum(axis=-1, keepdims=True)
    p = p * np.tril(np.ones((T, T), dtype=x.dtype))
    y = np.swapaxes(p @ v, -3, -2).reshape(x.shape)
    return y @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_mistake_np_sqrt_upcast',
        "exercise": 'causal_self_attention',
        "kind": 'mistake',
        "mistake": 'Divides by np.sqrt(d_k), a float64 NumPy scalar, which turns float32 inputs into a float64 output.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2:]
    d_k = d // n_head
    qkv = x @ w_qkv + b_qkv
    q, k, v = np.split(qkv, 3, axis=-1)
    def to_heads(t):
        return t.reshape(t.shape[:-1] + (n_head, d_k)).swapaxes(-2, -3)
    q, k, v = to_heads(q), to_heads(k), to_heads(v)
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(d_k)
    causal = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(causal, scores, -np.inf)
    scores -= scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=-1, keepdims=True)
    out = (w @ v).swapaxes(-2, -3).reshape(x.shape)
    return out @ w_o + b_o
''',
    },
    {
        "id": 'l02_causal_self_attention_bug_no_output_bias',
        "exercise": 'causal_self_attention',
        "kind": 'bug',
        "mistake": 'Forgets to add the output bias b_o after the projection.',
        "source": r'''def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    T, d = x.shape[-2:]
    dk = d // n_head
    q, k, v = np.split(x @ w_qkv + b_qkv, 3, axis=-1)
    q = q.reshape(q.shape[:-1] + (n_head, dk)).swapaxes(-2, -3)
    k = k.reshape(k.shape[:-1] + (n_head, dk)).swapaxes(-2, -3)
    v = v.reshape(v.shape[:-1] + (n_head, dk)).swapaxes(-2, -3)
    att = q @ k.swapaxes(-1, -2) / dk ** 0.5
    att = np.where(np.tril(np.ones((T, T), dtype=bool)), att, -np.inf)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    y = (att @ v).swapaxes(-2, -3).reshape(x.shape)
    return y @ w_o
''',
    },
    # ---- lesson 03: gelu_tanh ----
    {
        "id": 'l03_gelu_tanh_right_math_const',
        "exercise": 'gelu_tanh',
        "kind": 'right',
        "mistake": '',
        "source": r'''def gelu_tanh(x):
    c = math.sqrt(2.0 / math.pi)
    return 0.5 * x * (1.0 + np.tanh(c * (x + 0.044715 * x ** 3)))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_quick_gelu_sigmoid',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Uses the sigmoid "quick GELU" x * sigmoid(1.702 x) instead of GPT-2\'s tanh approximation.',
        "source": r'''def gelu_tanh(x):
    return x / (1.0 + np.exp(-1.702 * x))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_np_const_upcast',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Computes the constant as np.sqrt(2 / np.pi), a float64 NumPy scalar, so float32 input comes back float64.',
        "source": r'''def gelu_tanh(x):
    k = np.sqrt(2 / np.pi)
    inner = k * (x + 0.044715 * np.power(x, 3))
    return 0.5 * x * (1 + np.tanh(inner))
''',
    },
    {
        "id": 'l03_gelu_tanh_mistake_pi_over_two',
        "exercise": 'gelu_tanh',
        "kind": 'mistake',
        "mistake": 'Inverts the constant, using sqrt(pi / 2) instead of sqrt(2 / pi).',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(math.pi / 2) * (x + 0.044715 * x * x * x)))
''',
    },
    {
        "id": 'l03_gelu_tanh_bug_square_not_cube',
        "exercise": 'gelu_tanh',
        "kind": 'bug',
        "mistake": 'Typo: writes x ** 2 where the formula has x cubed.',
        "source": r'''def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 2)))
''',
    },
    # ---- lesson 03: mlp ----
    {
        "id": 'l03_mlp_mistake_relu',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Uses ReLU between the two layers instead of GPT-2\'s gelu_tanh.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = np.maximum(x @ w_fc + b_fc, 0)
    return h @ w_proj + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_torch_layout_transpose',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Treats the weights as nn.Linear (out, in) and multiplies by their transposes, although they are in the Conv1D (in, out) layout.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    hidden = gelu_tanh(x @ w_fc.T + b_fc)
    return hidden @ w_proj.T + b_proj
''',
    },
    {
        "id": 'l03_mlp_mistake_bias_after_activation',
        "exercise": 'mlp',
        "kind": 'mistake',
        "mistake": 'Adds the first bias after the GELU instead of before it.',
        "source": r'''def mlp(x, w_fc, b_fc, w_proj, b_proj):
    h = gelu_tanh(x @ w_fc) + b_fc
    out = h @ w_proj + b_proj
    return out
''',
    },
    # ---- lesson 03: block ----
    {
        "id": 'l03_block_right_prefix',
        "exercise": 'block',
        "kind": 'right',
        "mistake": '',
        "source": r'''def block(x, params, layer, n_head):
    p = lambda name: params[f"h.{layer}.{name}"]
    a = layer_norm(x, p("ln_1.weight"), p("ln_1.bias"))
    x = x + causal_self_attention(a, p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    m = layer_norm(x, p("ln_2.weight"), p("ln_2.bias"))
    return x + mlp(m, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                   p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
''',
    },
    {
        "id": 'l03_block_mistake_post_ln',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Builds a post-LN block (LayerNorm after each residual addition, as in the original Transformer) instead of GPT-2\'s pre-LN.',
        "source": r'''def block(x, params, layer, n_head):
    k = f"h.{layer}."
    a = causal_self_attention(x, params[k + "attn.c_attn.weight"], params[k + "attn.c_attn.bias"],
                              params[k + "attn.c_proj.weight"], params[k + "attn.c_proj.bias"], n_head)
    x = layer_norm(x + a, params[k + "ln_1.weight"], params[k + "ln_1.bias"])
    m = mlp(x, params[k + "mlp.c_fc.weight"], params[k + "mlp.c_fc.bias"],
            params[k + "mlp.c_proj.weight"], params[k + "mlp.c_proj.bias"])
    return layer_norm(x + m, params[k + "ln_2.weight"], params[k + "ln_2.bias"])
''',
    },
    {
        "id": 'l03_block_mistake_residual_from_normalised',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Adds the sublayer outputs to the normalised vectors instead of to the un-normalised residual stream.',
        "source": r'''def block(x, params, layer, n_head):
    k = f"h.{layer}."
    h = layer_norm(x, params[k + "ln_1.weight"], params[k + "ln_1.bias"])
    h = h + causal_self_attention(h, params[k + "attn.c_attn.weight"], params[k + "attn.c_attn.bias"],
                                  params[k + "attn.c_proj.weight"], params[k + "attn.c_proj.bias"], n_head)
    g = layer_norm(h, params[k + "ln_2.weight"], params[k + "ln_2.bias"])
    return g + mlp(g, params[k + "mlp.c_fc.weight"], params[k + "mlp.c_fc.bias"],
                   params[k + "mlp.c_proj.weight"], params[k + "mlp.c_proj.bias"])
''',
    },
    {
        "id": 'l03_block_mistake_inplace_residual',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Updates the residual stream with x += ..., changing the caller\'s input array in place.',
        "source": r'''def block(x, params, layer, n_head):
    P = {name[len(f"h.{layer}."):]: v for name, v in params.items() if name.startswith(f"h.{layer}.")}
    x += causal_self_attention(layer_norm(x, P["ln_1.weight"], P["ln_1.bias"]),
                               P["attn.c_attn.weight"], P["attn.c_attn.bias"],
                               P["attn.c_proj.weight"], P["attn.c_proj.bias"], n_head)
    x += mlp(layer_norm(x, P["ln_2.weight"], P["ln_2.bias"]),
             P["mlp.c_fc.weight"], P["mlp.c_fc.bias"], P["mlp.c_proj.weight"], P["mlp.c_proj.bias"])
    return x
''',
    },
    {
        "id": 'l03_block_mistake_parallel_branches',
        "exercise": 'block',
        "kind": 'mistake',
        "mistake": 'Feeds the MLP from the block input rather than from the stream after attention (parallel branches, GPT-J style), so the MLP never sees the attention output.',
        "source": r'''def block(x, params, layer, n_head):
    k = f"h.{layer}."
    attn_out = causal_self_attention(layer_norm(x, params[k + "ln_1.weight"], params[k + "ln_1.bias"]),
                                     params[k + "attn.c_attn.weight"], params[k + "attn.c_attn.bias"],
                                     params[k + "attn.c_proj.weight"], params[k + "attn.c_proj.bias"], n_head)
    mlp_out = mlp(layer_norm(x, params[k + "ln_2.weight"], params[k + "ln_2.bias"]),
                  params[k + "mlp.c_fc.weight"], params[k + "mlp.c_fc.bias"],
                  params[k + "mlp.c_proj.weight"], params[k + "mlp.c_proj.bias"])
    return x + attn_out + mlp_out
''',
    },
    {
        "id": 'l03_block_bug_missing_f_prefix',
        "exercise": 'block',
        "kind": 'bug',
        "mistake": 'Forgets the f prefix on the key strings, so it looks up the literal "h.{layer}...." keys and raises KeyError.',
        "source": r'''def block(x, params, layer, n_head):
    ln1 = layer_norm(x, params["h.{layer}.ln_1.weight"], params["h.{layer}.ln_1.bias"])
    x = x + causal_self_attention(ln1, params["h.{layer}.attn.c_attn.weight"], params["h.{layer}.attn.c_attn.bias"],
                                  params["h.{layer}.attn.c_proj.weight"], params["h.{layer}.attn.c_proj.bias"], n_head)
    ln2 = layer_norm(x, params["h.{layer}.ln_2.weight"], params["h.{layer}.ln_2.bias"])
    return x + mlp(ln2, params["h.{layer}.mlp.c_fc.weight"], params["h.{layer}.mlp.c_fc.bias"],
                   params["h.{layer}.mlp.c_proj.weight"], params["h.{layer}.mlp.c_proj.bias"])
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
    V, T = config.vocab_size, config.block_size
    L, d = config.n_layer, config.n_embd
    std = 0.02
    proj_std = 0.02 / math.sqrt(2 * L)

    def normal(shape, s):
        return rng.standard_normal(shape) * s

    P = {"wte": normal((V, d), std), "wpe": normal((T, d), std)}
    for i in range(L):
        h = f"h.{i}."
        P[h + "ln_1.weight"] = np.ones(d)
        P[h + "ln_1.bias"] = np.zeros(d)
        P[h + "attn.c_attn.weight"] = normal((d, 3 * d), std)
        P[h + "attn.c_attn.bias"] = np.zeros(3 * d)
        P[h + "attn.c_proj.weight"] = normal((d, d), proj_std)
        P[h + "attn.c_proj.bias"] = np.zeros(d)
        P[h + "ln_2.weight"] = np.ones(d)
        P[h + "ln_2.bias"] = np.zeros(d)
        P[h + "mlp.c_fc.weight"] = normal((d, 4 * d), std)
        P[h + "mlp.c_fc.bias"] = np.zeros(4 * d)
        P[h + "mlp.c_proj.weight"] = normal((4 * d, d), proj_std)
        P[h + "mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_sqrt_L',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Scales the residual projections by 1/sqrt(L) instead of 1/sqrt(2L), forgetting that each block adds two branches to the stream.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer
    P = {}
    P["wte"] = rng.standard_normal((config.vocab_size, d)) * 0.02
    P["wpe"] = rng.standard_normal((config.block_size, d)) * 0.02
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rng.standard_normal((d, 3 * d)) * 0.02
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rng.standard_normal((d, d)) * 0.02 / math.sqrt(L)
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rng.standard_normal((d, 4 * d)) * 0.02
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rng.standard_normal((4 * d, d)) * 0.02 / math.sqrt(L)
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_float32_tensors',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Casts every tensor to float32 (the usual training dtype) although the exercise asks for float64 arrays.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    V, T, L, d = config.vocab_size, config.block_size, config.n_layer, config.n_embd
    f32 = np.float32
    P = {"wte": (rng.standard_normal((V, d)) * 0.02).astype(f32),
         "wpe": (rng.standard_normal((T, d)) * 0.02).astype(f32)}
    shapes = [("attn.c_attn", (d, 3 * d), 0.02), ("attn.c_proj", (d, d), 0.02 / math.sqrt(2 * L)),
              ("mlp.c_fc", (d, 4 * d), 0.02), ("mlp.c_proj", (4 * d, d), 0.02 / math.sqrt(2 * L))]
    for i in range(L):
        for ln in ("ln_1", "ln_2"):
            P[f"h.{i}.{ln}.weight"] = np.ones(d, dtype=f32)
            P[f"h.{i}.{ln}.bias"] = np.zeros(d, dtype=f32)
        for name, shape, std in shapes:
            P[f"h.{i}.{name}.weight"] = (rng.standard_normal(shape) * std).astype(f32)
            P[f"h.{i}.{name}.bias"] = np.zeros(shape[1], dtype=f32)
    P["ln_f.weight"] = np.ones(d, dtype=f32)
    P["ln_f.bias"] = np.zeros(d, dtype=f32)
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_separate_head',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Adds a separate lm_head.weight tensor, although the head is tied to wte and the dict must have no head entry.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer
    resid = 0.02 / (2 * L) ** 0.5
    P = {}
    P["wte"] = rng.standard_normal((config.vocab_size, d)) * 0.02
    P["wpe"] = rng.standard_normal((config.block_size, d)) * 0.02
    for i in range(L):
        P.update({
            f"h.{i}.ln_1.weight": np.ones(d), f"h.{i}.ln_1.bias": np.zeros(d),
            f"h.{i}.attn.c_attn.weight": rng.standard_normal((d, 3 * d)) * 0.02,
            f"h.{i}.attn.c_attn.bias": np.zeros(3 * d),
            f"h.{i}.attn.c_proj.weight": rng.standard_normal((d, d)) * resid,
            f"h.{i}.attn.c_proj.bias": np.zeros(d),
            f"h.{i}.ln_2.weight": np.ones(d), f"h.{i}.ln_2.bias": np.zeros(d),
            f"h.{i}.mlp.c_fc.weight": rng.standard_normal((d, 4 * d)) * 0.02,
            f"h.{i}.mlp.c_fc.bias": np.zeros(4 * d),
            f"h.{i}.mlp.c_proj.weight": rng.standard_normal((4 * d, d)) * resid,
            f"h.{i}.mlp.c_proj.bias": np.zeros(d),
        })
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    P["lm_head.weight"] = P["wte"].T.copy()
    return P
''',
    },
    {
        "id": 'l04_init_gpt_mistake_uniform_draws',
        "exercise": 'init_gpt',
        "kind": 'mistake',
        "mistake": 'Draws the weights from a uniform distribution on [-0.02, 0.02] instead of a normal with std 0.02, so neither the spread nor the shape of the distribution is right.',
        "source": r'''def init_gpt(config, seed):
    rng = np.random.default_rng(seed)
    d, L = config.n_embd, config.n_layer
    scale = 1 / math.sqrt(2 * L)

    def rand(shape, s=1.0):
        return rng.uniform(-0.02, 0.02, size=shape) * s

    P = {"wte": rand((config.vocab_size, d)), "wpe": rand((config.block_size, d))}
    for i in range(L):
        P[f"h.{i}.ln_1.weight"] = np.ones(d)
        P[f"h.{i}.ln_1.bias"] = np.zeros(d)
        P[f"h.{i}.attn.c_attn.weight"] = rand((d, 3 * d))
        P[f"h.{i}.attn.c_attn.bias"] = np.zeros(3 * d)
        P[f"h.{i}.attn.c_proj.weight"] = rand((d, d), scale)
        P[f"h.{i}.attn.c_proj.bias"] = np.zeros(d)
        P[f"h.{i}.ln_2.weight"] = np.ones(d)
        P[f"h.{i}.ln_2.bias"] = np.zeros(d)
        P[f"h.{i}.mlp.c_fc.weight"] = rand((d, 4 * d))
        P[f"h.{i}.mlp.c_fc.bias"] = np.zeros(4 * d)
        P[f"h.{i}.mlp.c_proj.weight"] = rand((4 * d, d), scale)
        P[f"h.{i}.mlp.c_proj.bias"] = np.zeros(d)
    P["ln_f.weight"] = np.ones(d)
    P["ln_f.bias"] = np.zeros(d)
    return P
''',
    },
    # ---- lesson 04: gpt_logits ----
    {
        "id": 'l04_gpt_logits_right_count_layers',
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
        "id": 'l04_gpt_logits_mistake_no_final_ln',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Skips the final LayerNorm ln_f and applies the tied head straight to the last block\'s output.',
        "source": r'''def gpt_logits(P, idx, n_head):
    layers = sorted({int(k.split(".")[1]) for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in layers:
        x = block(x, P, i, n_head)
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_heads_as_layers',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Loops over range(n_head), confusing the number of attention heads with the number of layers.',
        "source": r'''def gpt_logits(P, idx, n_head):
    x = embed(P["wte"], P["wpe"], idx)
    for layer in range(n_head):
        x = block(x, P, layer, n_head)
    x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    return x @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_mistake_ln_f_every_block',
        "exercise": 'gpt_logits',
        "kind": 'mistake',
        "mistake": 'Applies the final LayerNorm after every block inside the loop instead of once after the last block.',
        "source": r'''def gpt_logits(P, idx, n_head):
    L = len([k for k in P if k.endswith("attn.c_attn.weight")])
    h = embed(P["wte"], P["wpe"], idx)
    for i in range(L):
        h = block(h, P, i, n_head)
        h = layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])
    return h @ P["wte"].T
''',
    },
    {
        "id": 'l04_gpt_logits_bug_skips_last_layer',
        "exercise": 'gpt_logits',
        "kind": 'bug',
        "mistake": 'Off-by-one loop bound range(n_layer - 1) drops the last block.',
        "source": r'''def gpt_logits(P, idx, n_head):
    n_layer = len({k.split(".")[1] for k in P if k.startswith("h.")})
    x = embed(P["wte"], P["wpe"], idx)
    for i in range(n_layer - 1):
        x = block(x, P, i, n_head)
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
    ids = np.asarray(idx).reshape(-1)
    tgt = np.asarray(targets).reshape(-1)
    N = ids.size
    rows = np.arange(N)
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    Zs = Z - Z.max(axis=1, keepdims=True)
    logp = Zs - np.log(np.exp(Zs).sum(axis=1, keepdims=True))
    loss = -logp[rows, tgt].mean()
    dZ = np.exp(logp)
    dZ[rows, tgt] -= 1
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
        "id": 'l04_tied_lm_loss_and_grad_mistake_head_path_only',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Returns only the head\'s contribution dZ^T H and forgets that E is also used by the lookup, so the gradient through X = E[idx] is missing.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    idx = np.asarray(idx).ravel()
    targets = np.asarray(targets).ravel()
    N = len(idx)
    H = np.tanh(E[idx] @ A)
    Z = H @ E.T
    Z = Z - Z.max(-1, keepdims=True)
    p = np.exp(Z)
    p /= p.sum(-1, keepdims=True)
    loss = -np.log(p[np.arange(N), targets]).mean()
    p[np.arange(N), targets] -= 1
    dE = (p / N).T @ H
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_fancy_index_no_accumulate',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Scatters the lookup gradient with dE[idx] += dX, which keeps only one contribution for a repeated id instead of summing them (np.add.at).',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = np.asarray(idx).reshape(-1)
    t = np.asarray(targets).reshape(-1)
    N = ids.shape[0]
    X = E[ids]
    H = np.tanh(X @ A)
    Z = H @ E.T
    m = Z.max(axis=1, keepdims=True)
    lse = m + np.log(np.exp(Z - m).sum(axis=1, keepdims=True))
    logp = Z - lse
    loss = -logp[np.arange(N), t].mean()
    g = np.exp(logp)
    g[np.arange(N), t] -= 1
    g /= N
    dE = g.T @ H
    dX = ((g @ E) * (1 - H ** 2)) @ A.T
    dE[ids] += dX
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_no_tanh_derivative',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Backpropagates through tanh as if it were the identity, leaving out the factor 1 - tanh(u)^2.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    flat_idx = np.asarray(idx).ravel()
    flat_t = np.asarray(targets).ravel()
    n = flat_idx.size
    X = E[flat_idx]
    H = np.tanh(X @ A)
    logits = H @ E.T
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    loss = -log_probs[np.arange(n), flat_t].mean()
    d_logits = np.exp(log_probs)
    d_logits[np.arange(n), flat_t] -= 1
    d_logits /= n
    dE = d_logits.T @ H
    dX = (d_logits @ E) @ A.T
    np.add.at(dE, flat_idx, dX)
    return loss, dE
''',
    },
    {
        "id": 'l04_tied_lm_loss_and_grad_mistake_A_not_transposed',
        "exercise": 'tied_lm_loss_and_grad',
        "kind": 'mistake',
        "mistake": 'Backpropagates through X @ A with dU @ A instead of dU @ A.T.',
        "source": r'''def tied_lm_loss_and_grad(E, A, idx, targets):
    ids = np.asarray(idx).reshape(-1)
    tg = np.asarray(targets).reshape(-1)
    N = ids.size
    H = np.tanh(E[ids] @ A)
    Z = H @ E.T
    Z = Z - Z.max(axis=1, keepdims=True)
    P = np.exp(Z) / np.exp(Z).sum(axis=1, keepdims=True)
    loss = (np.log(np.exp(Z).sum(axis=1)) - Z[np.arange(N), tg]).mean()
    dZ = P.copy()
    dZ[np.arange(N), tg] -= 1
    dZ /= N
    dE = dZ.T @ H
    dU = (dZ @ E) * (1 - H ** 2)
    np.add.at(dE, ids, dU @ A)
    return loss, dE
''',
    },
    # ---- lesson 05: count_gpt2_params ----
    {
        "id": 'l05_count_gpt2_params_right_per_layer',
        "exercise": 'count_gpt2_params',
        "kind": 'right',
        "mistake": '',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    def linear(n_in, n_out):
        return n_in * n_out + (n_out if bias else 0)

    def layernorm():
        return d + (d if bias else 0)

    per_block = (2 * layernorm() + linear(d, 3 * d) + linear(d, d)
                 + linear(d, 4 * d) + linear(4 * d, d))
    total = V * d + T * d + L * per_block + layernorm()
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_no_bias_drops_gains',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False it removes the LayerNorms entirely, dropping their gains too, although every LayerNorm keeps its gain.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    weights = 3 * d * d + d * d + 4 * d * d + 4 * d * d
    if bias:
        per_block = weights + (3 * d + d + 4 * d + d) + 2 * (2 * d)
        final = 2 * d
    else:
        per_block = weights
        final = 0
    n = V * d + T * d + L * per_block + final
    if not tied:
        n += V * d
    return n
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_no_bias_keeps_ln_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'With bias=False it removes only the linear layers\' biases and keeps the LayerNorm biases.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    linear_w = 12 * d * d
    linear_b = 3 * d + d + 4 * d + d if bias else 0
    ln = 2 * d
    total = V * d + T * d + L * (linear_w + linear_b + 2 * ln) + ln
    if not tied:
        total += V * d
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_mistake_head_bias',
        "exercise": 'count_gpt2_params',
        "kind": 'mistake',
        "mistake": 'Gives the untied head a bias of length V, although the separate head is a (V, d) matrix without a bias.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = 1 if bias else 0
    block = 12 * d * d + b * 9 * d + 2 * (d + b * d)
    total = (V + T) * d + L * block + (d + b * d)
    if not tied:
        total += V * d + V
    return total
''',
    },
    {
        "id": 'l05_count_gpt2_params_bug_attn_weight_typo',
        "exercise": 'count_gpt2_params',
        "kind": 'bug',
        "mistake": 'Typo: counts the c_attn weight as 3 * d instead of 3 * d * d.',
        "source": r'''def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    b = int(bias)
    ln = d + b * d
    attn = (3 * d + b * 3 * d) + (d * d + b * d)
    mlp = (4 * d * d + b * 4 * d) + (4 * d * d + b * d)
    total = V * d + T * d + L * (2 * ln + attn + mlp) + ln
    if not tied:
        total += V * d
    return total
''',
    },
    # ---- lesson 06: numpy_to_torch ----
    {
        "id": 'l06_numpy_to_torch_right_mapping',
        "exercise": 'numpy_to_torch',
        "kind": 'right',
        "mistake": '',
        "source": r'''_CONV1D = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def _module_name(key):
    if key in ("wte", "wpe"):
        return f"transformer.{key}.weight"
    return "transformer." + key


def numpy_to_torch(P, model):
    names = {_module_name(k): k for k in P}
    missing = sorted(set(model) - set(names))
    unexpected = sorted(set(names) - set(model))
    if missing or unexpected:
        raise ValueError(f"P does not match the model: missing {missing}, unexpected {[names[n] for n in unexpected]}")
    out = {}
    for name, key in names.items():
        value = np.asarray(P[key])
        if key.endswith(_CONV1D):
            value = value.T
        want = model[name]
        if value.shape != want.shape:
            raise ValueError(f"{key}: shape {value.shape} after transpose, the model's {name} has {want.shape}")
        out[name] = np.array(value, dtype=want.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_transpose_all_2d',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Transposes every 2-D tensor, the embedding tables wte and wpe included, instead of only the four Conv1D weights.',
        "source": r'''def numpy_to_torch(P, model):
    out = {}
    for k, v in P.items():
        name = "transformer." + (k + ".weight" if k in ("wte", "wpe") else k)
        if name not in model:
            raise ValueError(f"unexpected key {k}")
        out[name] = (v.T if v.ndim == 2 else v).astype(model[name].dtype)
    missing = set(model) - set(out)
    if missing:
        raise ValueError(f"missing keys {sorted(missing)}")
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_forgets_c_fc',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Transposes only the weights whose names contain c_attn or c_proj and forgets mlp.c_fc, so that weight keeps the Conv1D layout.',
        "source": r'''def numpy_to_torch(P, model):
    result = {}
    for key, arr in P.items():
        if key == "wte":
            name = "transformer.wte.weight"
        elif key == "wpe":
            name = "transformer.wpe.weight"
        else:
            name = "transformer." + key
        if name not in model:
            raise ValueError(f"P has {key}, which the model does not")
        if key.endswith(".weight") and ("c_attn" in key or "c_proj" in key):
            arr = arr.T
        result[name] = np.array(arr, dtype=model[name].dtype)
    for name in model:
        if name not in result:
            raise ValueError(f"P lacks the tensor for {name}")
    return result
''',
    },
    {
        "id": 'l06_numpy_to_torch_mistake_no_key_validation',
        "exercise": 'numpy_to_torch',
        "kind": 'mistake',
        "mistake": 'Iterates over the model\'s names only, so a missing P key raises KeyError instead of ValueError and an extra P key is silently ignored.',
        "source": r'''def numpy_to_torch(P, model):
    out = {}
    for name, target in model.items():
        key = name[len("transformer."):]
        if key in ("wte.weight", "wpe.weight"):
            key = key.split(".")[0]
        value = P[key]
        if key.endswith(("c_attn.weight", "c_proj.weight", "c_fc.weight")):
            value = value.T
        if value.shape != target.shape:
            raise ValueError(f"{key}: got {value.shape}, model wants {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''',
    },
    {
        "id": 'l06_numpy_to_torch_bug_prefix_typo',
        "exercise": 'numpy_to_torch',
        "kind": 'bug',
        "mistake": 'Typo in the prefix ("transformers." instead of "transformer."), so no block key matches and every valid P is rejected.',
        "source": r'''def numpy_to_torch(P, model):
    conv = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    mapped = {}
    for k in P:
        mapped[f"transformer.{k}.weight" if k in ("wte", "wpe") else "transformers." + k] = k
    if set(mapped) != set(model):
        raise ValueError(f"key mismatch: missing {sorted(set(model) - set(mapped))}, extra {sorted(set(mapped) - set(model))}")
    out = {}
    for name, k in mapped.items():
        a = P[k].T if k.endswith(conv) else P[k]
        if a.shape != model[name].shape:
            raise ValueError(f"{k}: {a.shape} != {model[name].shape}")
        out[name] = np.array(a, dtype=model[name].dtype)
    return out
''',
    },
    # ---- lesson 06: load_hf_state_dict ----
    {
        "id": 'l06_load_hf_state_dict_right_filter',
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
    missing = [k for k in model if k not in sd]
    extra = [k for k in sd if k not in model]
    if missing or extra:
        raise ValueError(f"state dict mismatch: missing {missing}, unexpected {extra}")
    out = {}
    for k, ref in model.items():
        a = np.asarray(sd[k])
        if k.endswith(conv1d):
            a = a.T
        if a.shape != ref.shape:
            raise ValueError(f"{k}: shape {a.shape} does not match the model's {ref.shape}")
        out[k] = a.astype(ref.dtype, copy=True)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_substring_buffer_skip',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Skips buffers with a substring test ("attn.bias" in key), which also drops the real parameter attn.c_attn.bias.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    out = {}
    for k, v in state_dict.items():
        if "attn.bias" in k or "masked_bias" in k or k == "lm_head.weight":
            continue
        if k not in model:
            raise ValueError(f"unexpected key {k}")
        if any(s in k for s in ("c_attn.weight", "c_proj.weight", "c_fc.weight")):
            v = v.T
        if v.shape != model[k].shape:
            raise ValueError(f"{k}: {v.shape} vs {model[k].shape}")
        out[k] = np.array(v, dtype=model[k].dtype)
    missing = [k for k in model if k not in out]
    if missing:
        raise ValueError(f"missing keys: {missing}")
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_transpose_by_shape',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Decides whether to transpose by comparing shapes, so the square attn.c_proj weight (d, d) is never transposed.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    sd = {k: v for k, v in state_dict.items()
          if not k.endswith((".attn.bias", ".attn.masked_bias")) and k != "lm_head.weight"}
    if set(sd) != set(model):
        raise ValueError(f"missing {sorted(set(model) - set(sd))}, unexpected {sorted(set(sd) - set(model))}")
    out = {}
    for k, v in sd.items():
        want = model[k].shape
        if v.shape != want and v.T.shape == want:
            v = v.T
        if v.shape != want:
            raise ValueError(f"{k}: shape {v.shape}, model has {want}")
        out[k] = v.astype(model[k].dtype)
    return out
''',
    },
    {
        "id": 'l06_load_hf_state_dict_mistake_fill_missing_from_model',
        "exercise": 'load_hf_state_dict',
        "kind": 'mistake',
        "mistake": 'Falls back to the model\'s current value when the state dict lacks a tensor, instead of raising ValueError for the missing key.',
        "source": r'''def load_hf_state_dict(model, state_dict):
    conv = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    for k in state_dict:
        if k.endswith((".attn.bias", ".attn.masked_bias")) or k == "lm_head.weight":
            continue
        if k not in model:
            raise ValueError(f"the state dict has {k}, which the model does not")
    out = {}
    for k, ref in model.items():
        if k not in state_dict:
            out[k] = ref.copy()
            continue
        a = state_dict[k].T if k.endswith(conv) else state_dict[k]
        if a.shape != ref.shape:
            raise ValueError(f"{k}: {a.shape} != {ref.shape}")
        out[k] = np.array(a, dtype=ref.dtype)
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
        raise ValueError(f"d must be even for sine/cosine pairs, got d={d}")
    t = np.arange(T, dtype=np.float64)[:, None]
    i = np.arange(d // 2, dtype=np.float64)[None, :]
    omega = base ** (-2.0 * i / d)
    angles = t * omega
    pe = np.stack([np.sin(angles), np.cos(angles)], axis=-1)
    return pe.reshape(T, d)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_halves',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Puts all the sines in the first half and all the cosines in the second (the concatenated layout) instead of interleaving them.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"d={d} must be even")
    pos = np.arange(T)[:, None]
    freqs = base ** (-np.arange(0, d, 2) / d)
    ang = pos * freqs
    return np.concatenate([np.sin(ang), np.cos(ang)], axis=1)
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_column_index_frequency',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Uses each column\'s own index j in base ** (-j / d), so the cosine column 2i + 1 gets a different frequency from its sine partner.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2 == 1:
        raise ValueError(f"d must be even, got {d}")
    pe = np.zeros((T, d))
    for t in range(T):
        for j in range(d):
            angle = t / base ** (j / d)
            pe[t, j] = np.sin(angle) if j % 2 == 0 else np.cos(angle)
    return pe
''',
    },
    {
        "id": 'l07_sinusoidal_positions_mistake_hardcoded_base',
        "exercise": 'sinusoidal_positions',
        "kind": 'mistake',
        "mistake": 'Hardcodes 10000 in the frequency and ignores the base argument.',
        "source": r'''def sinusoidal_positions(T, d, base=10000.0):
    if d % 2:
        raise ValueError(f"d must be even, got d={d}")
    pe = np.empty((T, d), dtype=np.float64)
    t = np.arange(T)[:, None]
    w = np.exp(-np.log(10000.0) * np.arange(0, d, 2) / d)
    pe[:, 0::2] = np.sin(t * w)
    pe[:, 1::2] = np.cos(t * w)
    return pe
''',
    },
    # ---- lesson 07: position_similarity ----
    {
        "id": 'l07_position_similarity_right_normalise_rows',
        "exercise": 'position_similarity',
        "kind": 'right',
        "mistake": '',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D (T, d) table, got shape {wpe.shape}")
    norms = np.linalg.norm(wpe, axis=1, keepdims=True)
    unit = wpe / norms
    return unit @ unit.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_column_norms',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Normalises the columns (axis 0, the features) instead of the rows (the positions) before taking the dot products.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got shape {wpe.shape}")
    u = wpe / np.linalg.norm(wpe, axis=0, keepdims=True)
    return u @ u.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_pearson_centred',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Centres every row before normalising, which gives the Pearson correlation between positions rather than their cosine similarity.',
        "source": r'''def position_similarity(wpe):
    if wpe.ndim != 2:
        raise ValueError(f"position table must be 2-D, got {wpe.shape}")
    c = wpe - wpe.mean(axis=1, keepdims=True)
    c = c / np.sqrt((c * c).sum(axis=1, keepdims=True))
    return c @ c.T
''',
    },
    {
        "id": 'l07_position_similarity_mistake_inplace_normalise',
        "exercise": 'position_similarity',
        "kind": 'mistake',
        "mistake": 'Normalises the table in place with wpe /= ..., changing the caller\'s array.',
        "source": r'''def position_similarity(wpe):
    if len(wpe.shape) != 2:
        raise ValueError(f"wpe has shape {wpe.shape}, expected (T, d)")
    wpe /= np.linalg.norm(wpe, axis=-1, keepdims=True)
    return wpe @ wpe.T
''',
    },
    # ---- lesson 07: principal_components ----
    {
        "id": 'l07_principal_components_right_eigh',
        "exercise": 'principal_components',
        "kind": 'right',
        "mistake": '',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected a 2-D table, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} is larger than min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    X = X - X.mean(axis=0)
    cov = X.T @ X / T
    vals, vecs = np.linalg.eigh(cov)
    order = np.argsort(vals)[::-1][:k]
    dirs = vecs[:, order]
    biggest = np.argmax(np.abs(dirs), axis=0)
    signs = np.sign(dirs[biggest, np.arange(k)])
    dirs = dirs * signs
    return (X @ dirs).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_no_centring',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Skips the centring step and takes the SVD of the raw table, so the first direction points at the mean row.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe must be 2-D, got {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} exceeds min(T, d)={min(T, d)}")
    X = wpe.astype(np.float64)
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    V = Vt[:k]
    idx = np.abs(V).argmax(axis=1)
    V = V * np.sign(V[np.arange(k), idx])[:, None]
    return (X @ V.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_eigh_ascending',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Takes the first k eigenvectors from np.linalg.eigh, which sorts eigenvalues in ascending order, so it returns the smallest-variance directions.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"need a 2-D table, got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} but only min(T, d)={min(T, d)} directions exist")
    Xc = wpe - wpe.mean(axis=0, keepdims=True)
    _, vecs = np.linalg.eigh(np.cov(Xc, rowvar=False))
    W = vecs[:, :k]
    j = np.argmax(np.abs(W), axis=0)
    W = W * np.sign(W[j, np.arange(k)])
    return (Xc @ W).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_sign_first_entry',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Fixes each direction\'s sign by its first entry instead of its largest-magnitude entry.',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"wpe.shape = {wpe.shape} is not 2-D")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k = {k} > min(T, d) = {min(T, d)}")
    X = wpe.astype(np.float64) - wpe.astype(np.float64).mean(axis=0)
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    comps = Vt[:k]
    comps = comps * np.where(comps[:, :1] < 0, -1.0, 1.0)
    return (X @ comps.T).astype(wpe.dtype)
''',
    },
    {
        "id": 'l07_principal_components_mistake_left_vectors_unscaled',
        "exercise": 'principal_components',
        "kind": 'mistake',
        "mistake": 'Returns the left singular vectors U[:, :k] as the projections, forgetting to scale them by the singular values (the projections are U * S).',
        "source": r'''def principal_components(wpe, k):
    if wpe.ndim != 2:
        raise ValueError(f"expected (T, d), got shape {wpe.shape}")
    T, d = wpe.shape
    if k > min(T, d):
        raise ValueError(f"k={k} larger than min(T, d)={min(T, d)}")
    X = np.asarray(wpe, dtype=np.float64)
    X = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(X, full_matrices=False)
    U, Vt = U[:, :k], Vt[:k]
    big = np.abs(Vt).argmax(axis=1)
    s = np.sign(Vt[np.arange(k), big])
    return (U * s).astype(wpe.dtype)
''',
    },
    # ---- lesson 08: cross_entropy ----
    {
        "id": 'l08_cross_entropy_right_logsumexp',
        "exercise": 'cross_entropy',
        "kind": 'right',
        "mistake": '',
        "source": r'''def cross_entropy(logits, targets):
    logits = np.asarray(logits)
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape}, expected {logits.shape[:-1]} for logits of shape {logits.shape}")
    V = logits.shape[-1]
    bad = targets[(targets < 0) | (targets >= V)]
    if bad.size:
        raise ValueError(f"target id {bad.flat[0]} is outside [0, {V})")
    z = logits.reshape(-1, V)
    t = targets.reshape(-1)
    m = z.max(axis=-1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(z - m).sum(axis=-1))
    return (lse - z[np.arange(t.size), t]).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_no_max_shift',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Exponentiates the raw logits without subtracting the row maximum, so logits near 1000 overflow to inf and the loss becomes nan.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets shape {targets.shape} != logits.shape[:-1] {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any(targets < 0) or np.any(targets >= V):
        raise ValueError(f"target id out of range [0, {V}): {targets[(targets < 0) | (targets >= V)][0]}")
    z = logits.reshape(-1, V)
    t = targets.reshape(-1)
    log_norm = np.log(np.exp(z).sum(axis=1))
    return (log_norm - z[np.arange(len(t)), t]).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_log_of_softmax',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Computes a stable softmax and then takes np.log of the probability, which underflows to log(0) = -inf for a very unlikely target instead of using log-softmax directly.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"shape mismatch: targets {targets.shape}, logits {logits.shape}")
    V = logits.shape[-1]
    for tid in np.unique(targets):
        if tid < 0 or tid >= V:
            raise ValueError(f"target id {tid} not in [0, {V})")
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)
    p_target = np.take_along_axis(probs, targets[..., None], axis=-1)[..., 0]
    return -np.log(p_target).mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_negative_ids_unchecked',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Checks only targets >= V, so a negative id silently indexes from the end of the vocabulary instead of raising ValueError.',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets.shape {targets.shape} does not match {logits.shape[:-1]}")
    V = logits.shape[-1]
    if targets.size and targets.max() >= V:
        raise ValueError(f"target id {targets.max()} >= vocabulary size {V}")
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(logp, targets[..., None], axis=-1)
    return -picked.mean()
''',
    },
    {
        "id": 'l08_cross_entropy_mistake_python_float',
        "exercise": 'cross_entropy',
        "kind": 'mistake',
        "mistake": 'Wraps the result in float(...), returning a Python float instead of a NumPy scalar in the logits\' dtype.',
        "source": r'''def cross_entropy(logits, targets):
    logits = np.asarray(logits)
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} vs logits {logits.shape}")
    V = logits.shape[-1]
    if ((targets < 0) | (targets >= V)).any():
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].ravel()[0]} outside [0, {V})")
    shifted = logits - logits.max(axis=-1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], axis=-1)
    return float(nll.mean())
''',
    },
    {
        "id": 'l08_cross_entropy_bug_mean_not_called',
        "exercise": 'cross_entropy',
        "kind": 'bug',
        "mistake": 'Returns the bound method .mean instead of calling it (missing parentheses).',
        "source": r'''def cross_entropy(logits, targets):
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} vs logits {logits.shape[:-1]}")
    V = logits.shape[-1]
    if np.any((targets < 0) | (targets >= V)):
        raise ValueError(f"target id {targets[(targets < 0) | (targets >= V)].flat[0]} outside [0, {V})")
    z = logits.reshape(-1, V)
    t = targets.reshape(-1)
    m = z.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(z - m).sum(axis=1))
    return (lse - z[np.arange(t.size), t]).mean
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
    n = len(data)
    if n < block_size + 1:
        raise ValueError(f"data holds {n} ids; a window of block_size {block_size} needs at least {block_size + 1}")
    starts = rng.integers(0, n - block_size, size=batch_size)
    offsets = starts[:, None] + np.arange(block_size)
    x = data[offsets].astype(np.int64)
    y = data[offsets + 1].astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_upper_end_plus_one',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Draws starts with rng.integers(0, len(data) - block_size + 1, ...), treating the upper end as if a window needed only block_size ids, so the stream differs from the course\'s and the last start runs off the end.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"len(data)={len(data)} is too short for block_size={block_size}")
    ix = rng.integers(0, len(data) - block_size + 1, size=batch_size)
    x = np.stack([data[i:i + block_size] for i in ix]).astype(np.int64)
    y = np.stack([data[i + 1:i + 1 + block_size] for i in ix]).astype(np.int64)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_mistake_keeps_uint8',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Returns the windows in data\'s own dtype (uint8 for the corpus) instead of converting them to int64.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"need at least block_size + 1 = {block_size + 1} ids, data has {len(data)}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    rows = starts[:, None] + np.arange(block_size)[None, :]
    return data[rows], data[rows + 1]
''',
    },
    {
        "id": 'l08_get_batch_mistake_roll_targets',
        "exercise": 'get_batch',
        "kind": 'mistake',
        "mistake": 'Makes the targets with np.roll(x, -1), so the last target of each row wraps around to the window\'s first id instead of the id after the window.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    data = np.asarray(data)
    if data.shape[0] < block_size + 1:
        raise ValueError(f"data has {data.shape[0]} ids, fewer than block_size + 1 = {block_size + 1}")
    s = rng.integers(0, len(data) - block_size, size=batch_size)
    x = data[s[:, None] + np.arange(block_size)].astype(np.int64)
    y = np.roll(x, -1, axis=1)
    return x, y
''',
    },
    {
        "id": 'l08_get_batch_bug_short_target_slice',
        "exercise": 'get_batch',
        "kind": 'bug',
        "mistake": 'Slice typo: y takes data[s + 1 : s + block_size], one id short, so the target rows have the wrong length.',
        "source": r'''def get_batch(data, batch_size, block_size, rng):
    if len(data) < block_size + 1:
        raise ValueError(f"data has {len(data)} ids; block_size {block_size} needs {block_size + 1}")
    starts = rng.integers(0, len(data) - block_size, size=batch_size)
    xs, ys = [], []
    for s in starts:
        xs.append(data[s:s + block_size])
        ys.append(data[s + 1:s + block_size])
    return np.array(xs, dtype=np.int64), np.array(ys, dtype=np.int64)
''',
    },
    # ---- lesson 08: sample_next ----
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
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((B, 1)) * cdf[:, -1:]
    ids = np.argmax(cdf > u, axis=-1)
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
        raise ValueError(f"temperature={temperature}: it must be > 0 (use argmax for greedy decoding)")
    z = np.array(logits, dtype=np.float64) / temperature
    V = z.shape[-1]
    if top_k is not None and top_k < V:
        order = np.argsort(-z, axis=-1, kind="stable")
        drop = order[:, top_k:]
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    g = rng.gumbel(size=z.shape)
    return np.argmax(z + g, axis=-1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_topk_threshold_ties',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Keeps every logit >= the k-th largest value, so ties at the k-th place leave more than top_k candidates.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = logits / temperature
    if top_k is not None and top_k < z.shape[-1]:
        kth = np.sort(z, axis=-1)[:, -top_k][:, None]
        z = np.where(z >= kth, z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    return np.array([rng.choice(len(row), p=row) for row in p], dtype=np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_multiply_temperature',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Multiplies the logits by the temperature instead of dividing, so a low temperature flattens the distribution and a high one sharpens it.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits.astype(np.float64) * temperature
    if top_k is not None and top_k < z.shape[1]:
        idx = np.argsort(z, axis=1)[:, :-top_k]
        np.put_along_axis(z, idx, -np.inf, axis=1)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    c = p.cumsum(axis=1)
    u = rng.random((z.shape[0], 1))
    return np.minimum((c <= u).sum(axis=1), z.shape[1] - 1).astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_mistake_global_numpy_random',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Draws with np.random.choice, the global generator, instead of the rng it is given, so the same rng state does not give the same ids.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature {temperature} must be positive")
    z = np.asarray(logits, dtype=np.float64) / temperature
    B, V = z.shape
    out = np.empty(B, dtype=np.int64)
    for b in range(B):
        row = z[b].copy()
        if top_k is not None and top_k < V:
            cut = np.argsort(row)[:-top_k]
            row[cut] = -np.inf
        p = np.exp(row - row.max())
        p /= p.sum()
        out[b] = np.random.choice(V, p=p)
    return out
''',
    },
    {
        "id": 'l08_sample_next_mistake_one_uniform_for_all_rows',
        "exercise": 'sample_next',
        "kind": 'mistake',
        "mistake": 'Draws a single uniform number and uses it for every row, so identical rows always get the same id instead of independent draws.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    if top_k is not None and top_k < z.shape[-1]:
        keep = np.argsort(z, axis=-1)[:, -top_k:]
        mask = np.full(z.shape, -np.inf)
        np.put_along_axis(mask, keep, 0.0, axis=-1)
        z = z + mask
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    cdf = np.cumsum(p / p.sum(axis=-1, keepdims=True), axis=-1)
    u = rng.random()
    ids = np.argmax(cdf > u * cdf[:, -1:], axis=-1)
    return ids.astype(np.int64)
''',
    },
    {
        "id": 'l08_sample_next_bug_argmax_wrong_axis',
        "exercise": 'sample_next',
        "kind": 'bug',
        "mistake": 'Takes the argmax of the Gumbel-perturbed logits over axis 0 (the batch) instead of the vocabulary axis.',
        "source": r'''def sample_next(logits, temperature, top_k, rng):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    if top_k is not None and top_k < z.shape[-1]:
        drop = np.argsort(-z, axis=-1)[:, top_k:]
        np.put_along_axis(z, drop, -np.inf, axis=-1)
    return np.argmax(z + rng.gumbel(size=z.shape), axis=0).astype(np.int64)
''',
    },
]

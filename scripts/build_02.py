"""Write lesson 02 (LayerNorm and causal self-attention): the lesson and the solutions notebook.

Usage (from the repository root):

    .venv/bin/python scripts/build_02.py
    .venv/bin/python scripts/refresh_outputs.py notebooks/02_attention.ipynb solutions/02_attention.ipynb
    .venv/bin/python -m grader stubs

The notebooks are written without outputs; the second command executes them in
place so that nbval has outputs to compare, and the third regenerates
exercises/02_attention.ipynb from the solutions. Once written, the .ipynb files
are the source of truth: rerunning this script overwrites hand edits.

Conventions kept here (see ARCHITECTURE.md): every number the lesson states is
computed and asserted by a code cell; seeds are fixed and nothing printed
depends on timings or addresses (plot cells end with plt.show()); the lesson
works one head of one sequence at a time and never shows the batched,
loop-free answer; the solutions notebook's non-exercise cells never call an
exercise function.
"""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
import nbbuild  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LESSON = "02_attention"


# ====================================================================== lesson
def lesson_cells():
    key = LESSON + "-lesson"  # cell ids count up per notebook

    def md(text):
        return nbbuild.md(text, lesson=key)

    def code(text):
        return nbbuild.code(text, lesson=key)

    return [
        md(r"""
        # Lesson 02: LayerNorm and causal self-attention

        Every GPT-2 block does two things to the residual stream `x`, each behind a
        LayerNorm (the *pre-LN* arrangement):

        $$x \leftarrow x + \text{Attn}(\text{LN}_1(x)), \qquad x \leftarrow x + \text{MLP}(\text{LN}_2(x))$$

        This lesson builds the first half: **LayerNorm** and **causal
        self-attention**, the only place in the model where positions exchange
        information. We go one step at a time on a tiny example (one sequence, and
        one attention head where that is clearer), printing shapes as we go:

        1. LayerNorm on one vector, and three ways to get it slightly wrong;
        2. the fused Q, K, V projection and how it is split;
        3. splitting into heads: reshape **then** transpose (and what reshape alone does);
        4. why scores are divided by $\sqrt{d_k}$;
        5. the causal mask, diagonal included;
        6. the softmax over the keys;
        7. merging the heads and the output projection;
        8. a picture of attention patterns;
        9. the causality test;
        10. PyTorch's `scaled_dot_product_attention` does the same computation.

        The exercises (`solutions/02_attention.ipynb` solved,
        `exercises/02_attention.ipynb` for you) ask for the general version: any
        batch shape, any number of heads, no Python loops.
        """),
        code(r"""
        import math

        import matplotlib.pyplot as plt
        import numpy as np
        import torch
        import torch.nn.functional as F

        from gpt2course import numpy_gpt as ref
        from gpt2course.config import GPT2_SMALL

        np.set_printoptions(precision=4, suppress=True)
        """),

        # ------------------------------------------------------------ LayerNorm
        md(r"""
        ## 1. LayerNorm

        LayerNorm works on **one position's vector** of $d$ features at a time,
        never across positions or across the batch. For a vector $x$:

        $$\mu = \frac{1}{d}\sum_i x_i, \qquad \sigma^2 = \frac{1}{d}\sum_i (x_i - \mu)^2, \qquad
        \text{LN}(x) = \gamma \odot \frac{x - \mu}{\sqrt{\sigma^2 + \varepsilon}} + \beta$$

        Three details decide whether you match GPT-2 exactly:

        * $\sigma^2$ is the **population** variance: divide by $d$, not $d - 1$;
        * $\varepsilon = 10^{-5}$, and it sits **inside** the square root;
        * the learned gain $\gamma$ and bias $\beta$ (one number per feature) start at
          ones and zeros.

        Here it is on one vector of four features, number by number:
        """),
        code(r"""
        vec = np.array([2.0, -1.0, 0.5, 3.5])
        d = vec.size
        eps = ref.LN_EPS                           # GPT-2's epsilon

        mu = vec.sum() / d
        var = ((vec - mu) ** 2).sum() / d          # population variance: divide by d
        v_hat = (vec - mu) / math.sqrt(var + eps)

        print("eps        ", eps)
        print("mean       ", mu)
        print("variance   ", var)
        print("normalised ", v_hat)
        print(f"normalised mean is zero: {abs(v_hat.mean()) < 1e-15}; "
              f"its variance: {v_hat.var():.6f}")

        assert eps == 1e-5
        assert mu == 1.25 and var == 2.8125
        assert abs(v_hat.mean()) < 1e-15
        assert abs(v_hat.var() - var / (var + eps)) < 1e-15 and round(v_hat.var(), 6) == 0.999996
        """),
        md(r"""
        The variance of the normalised vector is not exactly 1, because of
        $\varepsilon$: it is $\sigma^2 / (\sigma^2 + \varepsilon)$. Then the gain
        and the bias are applied feature by feature. PyTorch's `F.layer_norm`
        follows the same definition, so in float64 the two agree to rounding:
        """),
        code(r"""
        gamma = np.array([1.0, 0.5, 2.0, 1.0])
        beta = np.array([0.0, 0.1, -0.2, 0.0])
        out = gamma * v_hat + beta
        print("LN(vec)    ", out)

        torch_out = F.layer_norm(torch.from_numpy(vec), (d,), torch.from_numpy(gamma),
                                 torch.from_numpy(beta), eps=eps).numpy()
        print("F.layer_norm agrees to 1e-15:", np.abs(out - torch_out).max() < 1e-15)
        assert np.abs(out - torch_out).max() < 1e-15
        assert np.abs(out - ref.layer_norm(vec, gamma, beta)).max() < 1e-15
        """),
        md(r"""
        **Three near misses.** Each of these runs, gives the right shape, and looks
        fine by eye; each is far outside the grader's tolerance of $10^{-8}$.

        * *Sample variance* (`ddof=1`, the default of `torch.var` and pandas)
          multiplies every normalised value by about $\sqrt{(d-1)/d}$. Even at
          GPT-2's width the relative error is far above $10^{-8}$.
        * *Epsilon outside the root*, $\sqrt{\sigma^2} + \varepsilon$, and *a different
          epsilon* (other models use other values; below, $10^{-6}$) barely matter for a
          vector with a large spread, but change a vector with a small spread at the
          percent level. The grader's tests include such rows.
        """),
        code(r"""
        # 1) sample variance: every output is scaled by sqrt((var + eps) / (var_s + eps))
        var_s = ((vec - mu) ** 2).sum() / (d - 1)
        shrink = math.sqrt((var + eps) / (var_s + eps))
        print(f"d = {d}: sample variance {var_s}, outputs scaled by {shrink:.4f}")
        assert var_s == 3.75 and abs(shrink - math.sqrt((d - 1) / d)) < 1e-5

        d_gpt2 = GPT2_SMALL.n_embd
        rel_gpt2 = 1 - math.sqrt((d_gpt2 - 1) / d_gpt2)
        print(f"d = {d_gpt2}: relative error about {rel_gpt2:.1e}")
        assert d_gpt2 == 768 and abs(rel_gpt2 - 6.5e-4) < 5e-6

        # 2) and 3) a vector with a small spread (variance about 3e-4)
        small = vec * 0.01
        s_var = small.var()
        right = math.sqrt(s_var + 1e-5)
        outside = math.sqrt(s_var) + 1e-5
        eps_1e6 = math.sqrt(s_var + 1e-6)
        print(f"variance {s_var:.4e}")
        print(f"eps outside the root: denominator off by {abs(outside / right - 1):.1%}")
        print(f"eps = 1e-6 instead of 1e-5: denominator off by {abs(eps_1e6 / right - 1):.1%}")
        assert abs(s_var - 2.8125e-4) < 1e-18
        assert 0.01 < abs(outside / right - 1) < 0.02
        assert 0.01 < abs(eps_1e6 / right - 1) < 0.02
        """),
        md(r"""
        **Where the LayerNorms sit.** The original Transformer and GPT-1 normalised
        *after* each residual addition (post-LN). GPT-2 moved LayerNorm to the
        *input* of each sub-layer and added one final LayerNorm after the last
        block (pre-LN). The residual stream then has a clean identity path from
        input to output, and training needs far less learning-rate warm-up
        (Xiong et al., 2020). Lesson 03 builds the whole block.
        """),

        # ------------------------------------------------------------ QKV
        md(r"""
        ## 2. The fused QKV projection

        Attention needs three things per position: a **query** ("what am I looking
        for?"), a **key** ("what do I contain?") and a **value** ("what do I pass
        on?"). Each is a linear map of the (normalised) input. GPT-2 stores the
        three maps side by side in one matrix `c_attn.weight` of shape $(d, 3d)$
        (inputs along the rows, as the released checkpoint stores it), with a bias
        of length $3d$. One matrix product computes all three; the columns are
        then split in three: the first $d$ are Q, the next $d$ are K, the last $d$
        are V.

        Our worked example: one sequence of $T = 4$ positions, width $d = 8$,
        $h = 2$ heads of size $d_k = d / h = 4$.
        """),
        code(r"""
        rng = np.random.default_rng(0)
        T, d, h = 4, 8, 2
        d_k = d // h

        x = rng.standard_normal((T, d))
        w_qkv = rng.normal(0.0, 1 / math.sqrt(d), size=(d, 3 * d))
        b_qkv = rng.normal(0.0, 0.1, size=3 * d)
        w_o = rng.normal(0.0, 1 / math.sqrt(d), size=(d, d))
        b_o = rng.normal(0.0, 0.1, size=d)

        qkv = x @ w_qkv + b_qkv
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        print("x", x.shape, "@ w_qkv", w_qkv.shape, "-> qkv", qkv.shape)
        print("q", q.shape, " k", k.shape, " v", v.shape)

        # the same as three separate projections
        for i, part in enumerate((q, k, v)):
            cols = slice(i * d, (i + 1) * d)
            assert np.abs(part - (x @ w_qkv[:, cols] + b_qkv[cols])).max() < 1e-14
        assert qkv.shape == (T, 3 * d) and q.shape == (T, d)
        """),
        code(r"""
        D = GPT2_SMALL.n_embd
        print("GPT-2 small: d =", D, "so c_attn.weight is", (D, 3 * D), "and c_attn.bias", (3 * D,))
        print("heads:", GPT2_SMALL.n_head, " head size d_k:", GPT2_SMALL.head_size)
        assert (D, 3 * D) == (768, 2304) and GPT2_SMALL.n_head == 12 and GPT2_SMALL.head_size == 64
        """),

        # ------------------------------------------------------------ head split
        md(r"""
        ## 3. Splitting into heads: reshape, then transpose

        Each head works on its own slice of the features: head $i$ owns columns
        $i\,d_k$ to $(i+1)\,d_k - 1$ of Q, K and V. To give every head a $(T, d_k)$
        matrix of its own:

        1. **reshape** $(T, d) \to (T, h, d_k)$: each row's $d$ features are cut
           into $h$ groups of $d_k$ (this is exactly the column split above);
        2. **transpose** $(T, h, d_k) \to (h, T, d_k)$: the head axis moves to the
           front, so that `q_heads[i]` is head $i$'s matrix.
        """),
        code(r"""
        q_heads = q.reshape(T, h, d_k).transpose(1, 0, 2)
        k_heads = k.reshape(T, h, d_k).transpose(1, 0, 2)
        v_heads = v.reshape(T, h, d_k).transpose(1, 0, 2)
        print("q", q.shape, "-> reshape", q.reshape(T, h, d_k).shape, "-> transpose", q_heads.shape)

        for i in range(h):
            assert np.array_equal(q_heads[i], q[:, i * d_k:(i + 1) * d_k])
        print("head i of q_heads is columns i*d_k ... (i+1)*d_k - 1 of q: True")
        """),
        md(r"""
        **The reshape-only bug.** `q.reshape(h, T, d_k)` has the same shape, raises
        no error, and is wrong. A reshape never moves numbers: it only re-reads
        the row-major sequence of $T \cdot d$ numbers with new axis lengths. Label
        every entry of Q by its position `t` and feature column `c` and look at
        what "head 0" receives each way:
        """),
        code(r"""
        labels = np.array([[f"t{t}c{c}" for c in range(d)] for t in range(T)])
        right = labels.reshape(T, h, d_k).transpose(1, 0, 2)
        wrong = labels.reshape(h, T, d_k)
        print("head 0, reshape then transpose:")
        print(right[0])
        print("head 0, reshape only:")
        print(wrong[0])
        assert right.shape == wrong.shape == (h, T, d_k)
        """),
        code(r"""
        position = np.repeat(np.arange(T), d).reshape(T, d)   # position of each entry of q
        column = np.tile(np.arange(d), T).reshape(T, d)       # feature column of each entry
        wrong_pos = position.reshape(h, T, d_k)[0]
        wrong_col = column.reshape(h, T, d_k)[0]
        print("positions seen by head 0 with reshape only:", sorted(set(wrong_pos.ravel().tolist())))
        print("its 'position 1' row holds position", wrong_pos[1, 0],
              "columns", wrong_col[1].tolist(), "(head 1's features)")
        assert sorted(set(wrong_pos.ravel().tolist())) == [0, 1]
        assert wrong_pos[1, 0] == 0 and wrong_col[1].min() == d_k

        # with one position, or one head, both orders give the same numbers
        one = q[:1]
        assert np.array_equal(one.reshape(h, 1, d_k), one.reshape(1, h, d_k).transpose(1, 0, 2))
        assert np.array_equal(q.reshape(1, T, d), q.reshape(T, 1, d).transpose(1, 0, 2))
        """),
        md(r"""
        With reshape only, "head 0" sees just the first $T/h$ positions, and half of
        its rows are really head 1's features of an earlier position. Nothing
        crashes; the model is simply scrambled. (With a single head, or a single
        position, the two orders coincide, which is why small tests can miss it.)
        """),

        # ------------------------------------------------------------ scaling
        md(r"""
        ## 4. Scaling the scores by $\sqrt{d_k}$

        Head $i$ scores query $t$ against key $j$ with a dot product over its $d_k$
        features. If the entries of $q$ and $k$ are independent with mean 0 and
        variance 1, the dot product has variance $d_k$: the larger the head, the
        larger the scores, and a softmax of large scores is nearly one-hot (and
        passes almost no gradient). Dividing by $\sqrt{d_k}$ brings the variance
        back to 1 (Vaswani et al., 2017, section 3.2.1).

        It must be the **head size** $d_k$, not the model width $d$: dividing by
        $\sqrt{d}$ makes the variance $d_k / d = 1/h$, $h$ times too small, and
        attention too flat. Measured on random vectors with GPT-2 small's head
        shape:
        """),
        code(r"""
        H, D_K = GPT2_SMALL.n_head, GPT2_SMALL.head_size
        D = H * D_K
        n = 256                                      # queries and keys per head
        g = np.random.default_rng(1)
        qs = g.standard_normal((H, n, D_K))
        ks = g.standard_normal((H, n, D_K))
        raw = qs @ ks.transpose(0, 2, 1)             # (H, n, n) dot products

        print(f"sqrt(d_k) = {math.sqrt(D_K)}, sqrt(d) = {math.sqrt(D):.2f}")
        for label, s in [("no scaling", raw), ("/ sqrt(d_k)", raw / math.sqrt(D_K)),
                         ("/ sqrt(d)", raw / math.sqrt(D))]:
            print(f"{label:12s} score variance {s.var():7.3f}")

        assert math.sqrt(D_K) == 8.0 and round(math.sqrt(D), 2) == 27.71
        assert abs(raw.var() / D_K - 1) < 0.02                  # about d_k = 64
        assert abs((raw / math.sqrt(D_K)).var() - 1) < 0.02     # about 1
        assert abs((raw / math.sqrt(D)).var() * H - 1) < 0.02   # about 1/h = 1/12
        """),
        code(r"""
        def largest_weight(scores):
            # mean over queries of the largest softmax weight in each row
            z = scores - scores.max(axis=-1, keepdims=True)
            w = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)
            return w.max(axis=-1).mean()

        peaks = {label: largest_weight(s) for label, s in
                 [("no scaling", raw), ("/ sqrt(d_k)", raw / math.sqrt(D_K)), ("/ sqrt(d)", raw / math.sqrt(D))]}
        for label, p in peaks.items():
            print(f"{label:12s} average largest weight over {n} keys: {p:.3f}")
        assert peaks["no scaling"] > 0.5 > peaks["/ sqrt(d_k)"] > peaks["/ sqrt(d)"]
        """),

        # ------------------------------------------------------------ mask
        md(r"""
        ## 5. The causal mask, diagonal included

        Back to the worked example, head 0. Its scores form a $T \times T$ matrix:
        row $t$ is the query at position $t$, column $j$ the key at position $j$.
        GPT-2 predicts the next token, so position $t$ may only read positions
        $j \le t$: itself and the past. Entries above the diagonal are set to
        $-\infty$, which the softmax turns into weights of exactly 0.
        """),
        code(r"""
        q0, k0, v0 = q_heads[0], k_heads[0], v_heads[0]
        scores0 = q0 @ k0.T / math.sqrt(d_k)
        allowed = np.tril(np.ones((T, T), dtype=bool))     # True where j <= t
        masked0 = np.where(allowed, scores0, -np.inf)

        print("q0", q0.shape, "@ k0.T", k0.T.shape, "-> scores", scores0.shape)
        print("allowed (1 = may attend):")
        print(allowed.astype(int))
        print("masked scores:")
        print(masked0)
        assert allowed.diagonal().all() and allowed.sum() == T * (T + 1) // 2
        """),
        md(r"""
        The diagonal belongs to the allowed part. A *strict* mask (`k=-1`, or
        `np.triu(..., k=0)` as the hidden part) takes away each position's own
        token, and leaves position 0 with no key at all: its whole row is
        $-\infty$ and the softmax divides 0 by 0.
        """),
        code(r"""
        strict = np.tril(np.ones((T, T), dtype=bool), k=-1)
        s = np.where(strict, scores0, -np.inf)
        with np.errstate(invalid="ignore"):                # NaN is the point here
            z = s - s.max(axis=-1, keepdims=True)
            w_strict = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)
        print("strict mask, weights:")
        print(w_strict)
        assert np.isnan(w_strict[0]).all() and np.isfinite(w_strict[1:]).all()
        """),

        # ------------------------------------------------------------ softmax
        md(r"""
        ## 6. Softmax over the keys

        Each query distributes one unit of attention over the keys it may see, so
        the softmax runs along each **row** (the last axis, the keys). Subtracting
        the row's maximum first changes nothing mathematically and keeps `exp`
        from overflowing; $e^{-\infty} = 0$ takes care of the mask.
        """),
        code(r"""
        z = masked0 - masked0.max(axis=-1, keepdims=True)
        weights0 = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)
        print("attention weights of head 0:")
        print(weights0)
        print("row sums:", weights0.sum(axis=-1))

        assert np.allclose(weights0.sum(axis=-1), 1.0, rtol=0, atol=1e-15)
        assert (weights0[~allowed] == 0).all()                 # exactly zero above the diagonal
        assert np.array_equal(weights0[0], [1.0, 0.0, 0.0, 0.0])  # position 0 reads only itself
        """),
        md(r"""
        With the softmax over the wrong axis (the queries, axis 0 here) the
        *columns* sum to one and the rows do not: each query's output is no longer
        an average of values, and the last key gets weight 1 from the only query
        that can see it.
        """),
        code(r"""
        zc = masked0 - masked0.max(axis=0, keepdims=True)
        wrong_axis = np.exp(zc) / np.exp(zc).sum(axis=0, keepdims=True)
        print("row sums:   ", wrong_axis.sum(axis=1))
        print("column sums:", wrong_axis.sum(axis=0))
        assert np.allclose(wrong_axis.sum(axis=0), 1.0) and not np.allclose(wrong_axis.sum(axis=1), 1.0)
        assert wrong_axis[T - 1, T - 1] == 1.0
        """),

        # ------------------------------------------------------------ merge and project
        md(r"""
        ## 7. Values, merging the heads, output projection

        Each head's output at position $t$ is the weighted average of the value
        vectors it attends to: `weights @ v`, shape $(T, d_k)$. Here is one head of
        one sequence as a function, and all heads computed one after the other
        (a Python loop, for clarity only: the exercise does all heads, and any
        batch, at once).
        """),
        code(r"""
        def one_head(qi, ki, vi, causal=True):
            # one head of one sequence: (T, d_k) each -> (T, d_k)
            n_pos = qi.shape[0]
            scores = qi @ ki.T / math.sqrt(qi.shape[-1])
            if causal:
                scores = np.where(np.tril(np.ones((n_pos, n_pos), dtype=bool)), scores, -np.inf)
            z = scores - scores.max(axis=-1, keepdims=True)
            weights = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)
            return weights @ vi

        head_out = [one_head(q_heads[i], k_heads[i], v_heads[i]) for i in range(h)]
        print("each head's output:", [o.shape for o in head_out])
        assert np.array_equal(head_out[0], weights0 @ v0)
        """),
        md(r"""
        **Merging** undoes the split: head $i$'s $d_k$ features go back to columns
        $i\,d_k$ to $(i+1)\,d_k - 1$ of a $(T, d)$ matrix. Concatenating the heads
        along the features does exactly that, and so does the inverse of the split
        (stack to $(h, T, d_k)$, transpose to $(T, h, d_k)$, reshape to $(T, d)$).
        Reshaping $(h, T, d_k)$ straight to $(T, d)$ would scramble it again.

        The **output projection** `c_proj` ($d \times d$ plus a bias) then mixes the
        heads' features; its result is what the block adds to the residual stream.
        """),
        code(r"""
        merged = np.concatenate(head_out, axis=-1)
        stacked = np.stack(head_out)                            # (h, T, d_k)
        assert np.array_equal(merged, stacked.transpose(1, 0, 2).reshape(T, d))
        assert not np.array_equal(merged, stacked.reshape(T, d))
        y = merged @ w_o + b_o
        print("heads", stacked.shape, "-> merged", merged.shape, "-> projected", y.shape)

        y_ref = ref.causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, h)
        print("agrees with the course's reference implementation:", np.abs(y - y_ref).max() < 1e-14)
        assert np.abs(y - y_ref).max() < 1e-14
        """),

        # ------------------------------------------------------------ heatmap
        md(r"""
        ## 8. What attention patterns look like

        A heatmap of the weights shows the mask at a glance: everything above the
        diagonal (grey) is exactly zero. On the left and in the middle, two heads with
        random weights on a sequence of 12 positions: they spread their attention
        over the past without a plan. On the right, a head built by hand to attend
        to the **previous** token: its query for position $t$ matches the key of
        position $t - 1$. Position 0 has no previous token, and puts all its weight
        on itself, the one key it is allowed to see.
        """),
        code(r"""
        g = np.random.default_rng(2)
        n_pos, width, n_head = 12, 16, 4
        xs = g.standard_normal((n_pos, width))
        w_rand = g.normal(0.0, 1 / math.sqrt(width), size=(width, 3 * width))
        qr, kr, _ = (ref.split_heads(t, n_head) for t in np.split(xs @ w_rand, 3, axis=-1))
        random_heads = ref.attention_weights(qr, kr)            # (n_head, T, T)

        # previous-token head: one-hot positions; the key of position j points at j + 1
        one_hot = np.eye(n_pos)
        q_prev = one_hot * 8.0 * math.sqrt(n_pos)               # score 8 where j = t - 1
        k_prev = one_hot @ np.eye(n_pos, k=1)
        prev_head = ref.attention_weights(q_prev, k_prev)

        assert random_heads.shape == (4, 12, 12) and np.allclose(random_heads.sum(axis=-1), 1.0)
        assert np.triu(random_heads, k=1).max() == 0.0 and np.triu(prev_head, k=1).max() == 0.0
        assert prev_head[0, 0] == 1.0
        assert all(prev_head[t, t - 1] > 0.99 for t in range(1, n_pos))

        cmap = plt.get_cmap("viridis").copy()
        cmap.set_bad("lightgrey")                                 # masked-out entries
        future = np.triu(np.ones((n_pos, n_pos), dtype=bool), k=1)
        fig, axes = plt.subplots(1, 3, figsize=(12, 4), layout="constrained")
        panels = [(random_heads[0], "random weights, head 0"), (random_heads[1], "random weights, head 1"),
                  (prev_head, "hand-built previous-token head")]
        for ax, (w, title) in zip(axes, panels):
            im = ax.imshow(np.ma.masked_array(w, future), cmap=cmap, vmin=0.0, vmax=1.0)
            ax.set_title(title)
            ax.set_xlabel("key position j")
            ax.set_xticks(range(0, n_pos, 2))
            ax.set_yticks(range(0, n_pos, 2))
        axes[0].set_ylabel("query position t")
        fig.colorbar(im, ax=axes, shrink=0.8, label="attention weight (grey: masked, exactly 0)")
        plt.show()
        """),

        # ------------------------------------------------------------ causality
        md(r"""
        ## 9. The causality test

        If the mask works, what position $t$ outputs cannot depend on any later
        token. That gives a test which needs no reference answer: change the input
        at one position, and every output **before** it must stay the same, to the
        last bit (`np.array_equal`, not `np.allclose`). It is exact because the
        masked weights are exactly 0, and 0 times a finite value is exactly 0.
        Run it on every new model before training it.
        """),
        code(r"""
        g = np.random.default_rng(3)
        n_pos, width, n_head = 8, 16, 4
        xc = g.standard_normal((n_pos, width))
        wc = dict(w_qkv=g.normal(0.0, 1 / math.sqrt(width), size=(width, 3 * width)),
                  b_qkv=g.normal(0.0, 0.1, size=3 * width),
                  w_o=g.normal(0.0, 1 / math.sqrt(width), size=(width, width)),
                  b_o=g.normal(0.0, 0.1, size=width))

        later = 5
        xc2 = xc.copy()
        xc2[later] = g.standard_normal(width)                  # change one later position

        out1 = ref.causal_self_attention(xc, n_head=n_head, **wc)
        out2 = ref.causal_self_attention(xc2, n_head=n_head, **wc)
        changed = [t for t in range(n_pos) if not np.array_equal(out1[t], out2[t])]
        print("changed input position:", later)
        print("output positions that changed:", changed)
        assert np.array_equal(out1[:later], out2[:later])      # bit for bit
        assert changed == list(range(later, n_pos))
        """),
        md(r"""
        Without the mask the same test fails at once: every position reads the
        changed token, so every output moves. Here for a single head of the same
        input:
        """),
        code(r"""
        def head0(inp, causal):
            qkv_ = inp @ wc["w_qkv"] + wc["b_qkv"]
            qh, kh, vh = (ref.split_heads(t, n_head)[0] for t in np.split(qkv_, 3, axis=-1))
            return one_head(qh, kh, vh, causal=causal)

        leak = [t for t in range(n_pos) if not np.array_equal(head0(xc, False)[t], head0(xc2, False)[t])]
        print("no mask, output positions that changed:", leak)
        assert leak == list(range(n_pos))
        assert np.array_equal(head0(xc, True)[:later], head0(xc2, True)[:later])
        """),

        # ------------------------------------------------------------ torch
        md(r"""
        ## 10. PyTorch's `scaled_dot_product_attention`

        `F.scaled_dot_product_attention(q, k, v, is_causal=True)` computes
        $\text{softmax}(Q K^\top / \sqrt{E} + M)\,V$ for each head, where $E$ is the
        last dimension of `q` (the head size $d_k$, its default scale) and $M$ is
        the lower-triangular causal mask, diagonal included. So it is exactly steps
        4 to 6 above, for all heads at once: it takes the split heads
        $(\ldots, h, T, d_k)$ and returns the heads' outputs, before merging and
        `c_proj`. On a GPU it can dispatch to a fused ("flash") kernel that never
        stores the $T \times T$ weights; on a CPU in float64 it agrees with our
        NumPy heads to rounding:
        """),
        code(r"""
        qt, kt, vt = (torch.from_numpy(np.ascontiguousarray(a)) for a in (q_heads, k_heads, v_heads))
        sdpa = F.scaled_dot_product_attention(qt, kt, vt, is_causal=True)
        ours = np.stack(head_out)
        print("inputs", tuple(qt.shape), qt.dtype, "-> output", tuple(sdpa.shape))
        print("max difference below 1e-12:", np.abs(sdpa.numpy() - ours).max() < 1e-12)
        assert sdpa.dtype == torch.float64
        assert np.abs(sdpa.numpy() - ours).max() < 1e-12

        # its default scale is 1/sqrt(d_k); 1/sqrt(d) would be the classic mistake
        too_flat = F.scaled_dot_product_attention(qt, kt, vt, is_causal=True, scale=1 / math.sqrt(d))
        assert np.abs(too_flat.numpy() - ours).max() > 1e-3
        """),

        # ------------------------------------------------------------ wrap-up
        md(r"""
        ## Summary

        * LayerNorm: per position, population variance, $\varepsilon = 10^{-5}$
          inside the root, then gain and bias.
        * Attention: one fused projection, split into Q, K, V; heads by reshape
          **then** transpose; scores over $\sqrt{d_k}$; mask keeps $j \le t$;
          softmax over keys; weights times values; merge heads (the inverse of the
          split); output projection.
        * Two tests that need no reference: rows of the weights sum to one over
          keys, and changing a later token leaves earlier outputs bit-for-bit equal.

        Now write both functions in `exercises/02_attention.ipynb`, for inputs of
        shape $(T, d)$ or $(B, T, d)$, in float32 or float64, without Python loops.

        ## Self-check

        **1.** `q.reshape(h, T, d_k)` runs without complaint. What does "head 0"
        contain, and when would a test fail to notice?
        <details><summary>Answer</summary>

        The first $T \cdot d_k$ numbers of Q in memory order: the rows of the first
        $T/h$ positions, so head 0 sees only those positions, and some of its rows
        are other heads' features (section 3). With one head, or one position, the
        two orders coincide, so tests need $h > 1$ and $T > 1$.
        </details>

        **2.** For GPT-2 small, what do you divide the scores by, and what happens
        with $\sqrt{d}$ instead?
        <details><summary>Answer</summary>

        $\sqrt{d_k} = \sqrt{64} = 8$. With $\sqrt{d} = \sqrt{768} \approx 27.71$ the
        scores have variance about $1/h = 1/12$ instead of 1, and attention is too
        flat (section 4).
        </details>

        **3.** Why must the causal mask include the diagonal?
        <details><summary>Answer</summary>

        Position $t$ may read itself; without the diagonal each position loses its
        own token, and position 0 has no key at all: with $-\infty$ its row becomes
        NaN, with a large finite fill it spreads its attention over the whole
        sequence, future included (section 5).
        </details>

        **4.** You change the last token of a sequence and the output at position 0
        moves in the 12th decimal. Is that rounding noise?
        <details><summary>Answer</summary>

        No. Masked weights are exactly zero, so on the same machine an earlier
        output does not change in any bit. Any difference, however small, means
        the future leaks in: a missing or wrong mask, a softmax over the wrong
        axis, or statistics taken across positions (section 9).
        </details>

        **5.** Your LayerNorm uses `np.var(x, axis=-1, ddof=1)`. Is it close enough
        at GPT-2's width?
        <details><summary>Answer</summary>

        No. Every output is scaled by about $\sqrt{767/768}$, a relative error of
        about $6.5 \times 10^{-4}$, far above the $10^{-8}$ the grader allows and
        enough to drift from the released model's outputs (section 1).
        </details>

        ## References

        * A. Vaswani et al., *Attention Is All You Need*, NeurIPS 2017
          (scaled dot-product and multi-head attention).
        * A. Radford, J. Wu, R. Child, D. Luan, D. Amodei, I. Sutskever, *Language
          Models are Unsupervised Multitask Learners*, OpenAI 2019 (GPT-2; LayerNorm
          moved to the input of each sub-block, plus a final LayerNorm).
        * R. Xiong et al., *On Layer Normalization in the Transformer Architecture*,
          ICML 2020 (pre-LN versus post-LN).
        * J. L. Ba, J. R. Kiros, G. E. Hinton, *Layer Normalization*, 2016.
        """),
    ]


# ====================================================================== solutions
def solution_cells():
    def md(text):
        return nbbuild.md(text, lesson=LESSON)

    def code(text, tags=()):
        return nbbuild.code(text, tags=tags, lesson=LESSON)

    return [
        md(r"""
        # Lesson 02 exercises: LayerNorm and causal self-attention

        Work through `notebooks/02_attention.ipynb` first. Each exercise below is a
        function to complete: replace the `raise NotImplementedError(...)` line
        with your code, run the cell, then run the `check(...)` cell under it.
        `check` compares your function with the course's reference on small
        public examples and on hidden tests (other shapes, float32 inputs, edge
        cases), and when it recognises a classic mistake it names it.

        Rules for both exercises:

        * inputs are `(T, d)` (one sequence) or `(B, T, d)` (a batch); work on the
          last axes so that both shapes, and any leading shape, work unchanged;
        * keep the dtype: float32 in, float32 out (use Python numbers such as
          `1e-5` or `d_k ** 0.5` for constants; `np.sqrt(d_k)` is a float64 NumPy
          value and would turn float32 arrays into float64);
        * no Python loops over positions, heads or the batch: array operations only.
        """),
        code(r"""
        import numpy as np
        from grader import check
        """),
        md(r"""
        ## Exercise 1: `layer_norm(x, weight, bias, eps=1e-5)`

        Normalise every position's vector of `d` features on its own:
        subtract its mean, divide by the square root of its **population** variance
        plus `eps` (epsilon inside the root, and use the `eps` you are given), then
        multiply by `weight` and add `bias`, both of shape `(d,)`.

        * `x`: `(T, d)` or `(B, T, d)`; returns an array of the same shape and dtype.
        """),
        code(r'''
        def layer_norm(x, weight, bias, eps=1e-5):
            """LayerNorm over the last axis of x, as in GPT-2.

            x: (..., d); weight, bias: (d,); eps: added to the variance inside the root.
            Returns (x - mean) / sqrt(var + eps) * weight + bias, where mean and the
            population variance are taken over the last axis. Same shape and dtype as x.
            """
            ### BEGIN SOLUTION
            mean = x.mean(axis=-1, keepdims=True)
            var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)   # divide by d, not d - 1
            return (x - mean) / np.sqrt(var + eps) * weight + bias
            ### END SOLUTION
        ''', tags=["exercise"]),
        code(r"""
        check(layer_norm)
        """, tags=["check"]),
        md(r"""
        ## Exercise 2: `causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head)`

        GPT-2's multi-head causal self-attention, all heads and the whole batch at
        once:

        1. `qkv = x @ w_qkv + b_qkv`, with `w_qkv` of shape `(d, 3d)` and `b_qkv` of
           shape `(3d,)`; Q, K and V are its first, second and last `d` columns;
        2. split each into `n_head` heads of size $d_k = d / n_\text{head}$: reshape
           `(..., T, d)` to `(..., T, n_head, d_k)`, then swap the `T` and head axes;
        3. scores `Q K^T / sqrt(d_k)`, shape `(..., n_head, T, T)`;
        4. causal mask: query `t` sees keys `j <= t` (diagonal included);
        5. softmax over the keys (the last axis), then multiply by V;
        6. merge the heads back to `(..., T, d)` (the inverse of step 2);
        7. output projection `@ w_o + b_o`, with `w_o` `(d, d)` and `b_o` `(d,)`.

        * `x`: `(T, d)` or `(B, T, d)`; `n_head` divides `d`; returns an array of the
          same shape and dtype as `x`.
        """),
        code(r'''
        def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
            """Multi-head causal self-attention, as in GPT-2.

            x: (..., T, d); w_qkv: (d, 3d); b_qkv: (3d,); w_o: (d, d); b_o: (d,).
            Position t attends to positions 0..t only. Returns (..., T, d) in x's dtype.
            """
            ### BEGIN SOLUTION
            *lead, T, d = x.shape
            d_k = d // n_head
            qkv = x @ w_qkv + b_qkv                                      # (..., T, 3d)

            def heads(t):                                                # (..., T, d) -> (..., h, T, d_k)
                return np.swapaxes(t.reshape(*lead, T, n_head, d_k), -3, -2)

            q, k, v = (heads(t) for t in np.split(qkv, 3, axis=-1))
            scores = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5             # (..., h, T, T)
            causal = np.tril(np.ones((T, T), dtype=bool))                # j <= t, diagonal included
            scores = np.where(causal, scores, -np.inf)
            scores = scores - scores.max(axis=-1, keepdims=True)
            weights = np.exp(scores)
            weights = weights / weights.sum(axis=-1, keepdims=True)      # softmax over the keys
            y = np.swapaxes(weights @ v, -3, -2).reshape(*lead, T, d)    # merge the heads
            return y @ w_o + b_o
            ### END SOLUTION
        ''', tags=["exercise"]),
        code(r"""
        check(causal_self_attention)
        """, tags=["check"]),
        md(r"""
        With LayerNorm and attention done, lesson 03 adds the MLP and puts the
        pre-LN block together.
        """),
    ]


def main() -> None:
    outputs = {
        ROOT / "notebooks" / f"{LESSON}.ipynb": nbbuild.notebook(lesson_cells()),
        ROOT / "solutions" / f"{LESSON}.ipynb": nbbuild.notebook(solution_cells(), lesson=LESSON),
    }
    for path, nb in outputs.items():
        nbformat.validate(nb)
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, path)
        print(f"wrote {path.relative_to(ROOT)} ({len(nb.cells)} cells)")


if __name__ == "__main__":
    main()

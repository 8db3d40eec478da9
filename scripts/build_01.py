"""Write lesson 01 (token and position embeddings): the lesson and the solutions notebook.

Usage (from the repository root):

    .venv/bin/python scripts/build_01.py
    .venv/bin/python scripts/refresh_outputs.py notebooks/01_embeddings.ipynb solutions/01_embeddings.ipynb
    .venv/bin/python -m grader stubs

The notebooks are written without outputs; the second command executes them in
place so that nbval has outputs to compare, and the third regenerates
exercises/01_embeddings.ipynb from the solutions. Once written, the .ipynb files
are the source of truth: rerunning this script overwrites hand edits.

Conventions kept here (see ARCHITECTURE.md): every number the lesson states is
computed and asserted by a code cell; seeds are fixed and nothing printed
depends on timings, addresses or the last bits of floating point; the
solutions notebook's non-exercise cells never call an exercise function.
"""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
import nbbuild  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LESSON = "01_embeddings"


# ====================================================================== lesson
def lesson_cells():
    key = LESSON + "-lesson"  # cell ids count up per notebook

    def md(text):
        return nbbuild.md(text, lesson=key)

    def code(text):
        return nbbuild.code(text, lesson=key)

    return [
        md(r"""
        # Lesson 01: token and position embeddings

        GPT-2 reads a sequence of integers, the token ids. Before any attention or
        MLP can work on them, each id has to become a vector of numbers. That first
        step is the subject of this lesson, and it is the whole input layer of the
        model:

        $$x_0[t] = \text{wte}[\,\text{id}_t\,] + \text{wpe}[\,t\,]$$

        * **wte** (token embedding) is a table with one row per vocabulary entry:
          shape `(V, d)`.
        * **wpe** (position embedding) is a table with one row per position the model
          can read: shape `(T, d)`, where `T` is the block size (the context length).
        * Row `t` of the result is the row of the token that sits at position `t`
          plus the row of position `t` itself.

        Both tables are ordinary learned parameters (Radford et al., 2019, *Language
        Models are Unsupervised Multitask Learners*). The original Transformer used
        fixed sinusoids for positions (Vaswani et al., 2017, *Attention Is All You
        Need*); GPT-2 does not: its position rows start random and are trained like
        every other weight.

        By the end you will know what the two tables hold, why they are added rather
        than glued side by side, what attention would see without them, and why the
        model cannot read one token more than its block size.

        Everything here runs almost instantly on a laptop CPU.
        """),
        code(r"""
        import numpy as np
        import matplotlib.pyplot as plt

        from gpt2course import GPT2_SMALL, TINY
        from gpt2course import numpy_gpt

        np.set_printoptions(precision=3, suppress=True)
        print(TINY)
        """),
        md(r"""
        ## 1. The two tables, and their shapes

        The course's tiny model (`TINY`, printed above) uses the same architecture as
        GPT-2 small at a size a laptop handles instantly. We initialise its parameters
        the way GPT-2 does (small Gaussian numbers) with a fixed seed and take out the
        two tables.
        """),
        code(r"""
        params = numpy_gpt.init_params(TINY, seed=0)
        wte, wpe = params["wte"], params["wpe"]
        V, T, d = TINY.vocab_size, TINY.block_size, TINY.n_embd

        print("wte (token table):   ", wte.shape, wte.dtype)
        print("wpe (position table):", wpe.shape, wpe.dtype)
        assert wte.shape == (V, d) and wpe.shape == (T, d)
        """),
        md(r"""
        Read the shapes as "one row of width `d` per thing": one row per token id in
        `wte`, one row per position in `wpe`. The width `d` (`n_embd`) is the same
        for both, and it is the width of everything the model computes from here on.

        Now a short sequence of token ids. We draw them at random (a real model gets
        them from a tokenizer) and build the input, one position at a time, straight
        from the formula:
        """),
        code(r"""
        rng = np.random.default_rng(1)
        ids = rng.integers(0, V, size=5)
        print("token ids:", ids)


        def embed_loop(wte, wpe, ids):
            # x0[t] = wte[id_t] + wpe[t], one position at a time (slow but plain)
            rows = [wte[token] + wpe[t] for t, token in enumerate(ids)]
            return np.stack(rows)


        x0 = embed_loop(wte, wpe, ids)
        print("x0:", x0.shape)
        assert x0.shape == (len(ids), d)
        """),
        md(r"""
        One id in, one row of width `d` out, for each position. The course's reference
        code `numpy_gpt.embed` does the same for a whole batch of sequences at once
        (you will write your own version in the exercises). It must agree with the
        loop, and it keeps the batch axis in front:
        """),
        code(r"""
        assert np.array_equal(numpy_gpt.embed(wte, wpe, ids), x0)

        batch = rng.integers(0, V, size=(3, 5))    # B = 3 sequences of 5 tokens
        x0_batch = numpy_gpt.embed(wte, wpe, batch)
        print("ids:", batch.shape, "-> x0:", x0_batch.shape)
        assert x0_batch.shape == (3, 5, d)
        assert np.array_equal(x0_batch[2], embed_loop(wte, wpe, batch[2]))
        """),
        md(r"""
        Two details worth noticing:

        * The same token id gives the same `wte` row wherever it appears; only the
          `wpe` row tells its copies apart.
        * The position rows used are always `wpe[0]`, `wpe[1]`, ... in order. They
          depend on *where* a token sits, never on *which* token it is.
        """),
        md(r"""
        ## 2. A lookup is a one-hot row times the table

        Taking row `i` of a table sounds like a different kind of operation from the
        matrix products used everywhere else in the model, but it is not. Write token
        `i` as a **one-hot** vector of length `V`: all zeros except a single one in
        column `i`. Multiplying that vector by `wte` adds up the rows of `wte`
        weighted by the vector's entries, so every row is multiplied by zero except
        row `i`.

        Let us check it on a vocabulary small enough to print: a handful of made-up
        words and a narrow table.
        """),
        code(r"""
        words = ["<|endoftext|>", "dog", "bites", "man", "the", "a"]
        rng = np.random.default_rng(2)
        toy_wte = rng.standard_normal((len(words), 4))

        sentence = ["the", "dog", "bites", "a", "man"]
        toy_ids = np.array([words.index(w) for w in sentence])
        print("ids:", toy_ids)

        one_hot = np.zeros((len(toy_ids), len(words)))
        for t, token in enumerate(toy_ids):
            one_hot[t, token] = 1.0
        print("one-hot matrix (one row per position, one column per word):")
        print(one_hot)

        by_product = one_hot @ toy_wte
        by_lookup = toy_wte[toy_ids]
        assert one_hot.shape == (len(sentence), len(words)) and (one_hot.sum(axis=1) == 1).all()
        print("one_hot @ wte:")
        print(by_product)
        assert np.array_equal(by_product, by_lookup)
        """),
        md(r"""
        The product and the lookup agree exactly: adding zeros changes nothing, and
        multiplying by one is exact.

        So an embedding layer is a linear layer whose input happens to be one-hot.
        This view pays off later: it tells you the gradient of the lookup (only the
        rows of tokens that occur in the batch get one), and it is why the same
        matrix can serve as the output layer (the "tied head" of a later lesson).

        In practice nobody multiplies by the one-hot matrix: it does `V` times more
        work than copying a row. For GPT-2 small that factor is large:
        """),
        code(r"""
        V_small, d_small = GPT2_SMALL.vocab_size, GPT2_SMALL.n_embd
        macs_one_hot = V_small * d_small   # multiply-adds for one token via one_hot @ wte
        copies_lookup = d_small            # numbers copied for one token via wte[i]
        print(f"one-hot product: {macs_one_hot:,} multiply-adds per token")
        print(f"lookup:          {copies_lookup:,} numbers copied per token")
        assert macs_one_hot // copies_lookup == V_small == 50_257
        """),
        md(r"""
        ## 3. Adding, not concatenating

        There are two natural ways to combine a token row and a position row: add
        them (what GPT-2 does) or put them side by side. Let us compare the widths.
        """),
        code(r"""
        tok_rows = wte[ids]            # (5, d)
        pos_rows = wpe[: len(ids)]     # (5, d)

        added = tok_rows + pos_rows
        glued = np.concatenate([tok_rows, pos_rows], axis=-1)
        print("added:       ", added.shape)
        print("concatenated:", glued.shape)
        assert added.shape[-1] == d and glued.shape[-1] == 2 * d
        """),
        md(r"""
        Adding keeps the width at `d`. Every later layer of GPT-2 (the LayerNorms,
        attention, the MLP, and the residual stream that runs through all of them) is
        built for width `d`, so the sum plugs straight in. Concatenating would double
        the width of the whole model, or need an extra projection to bring it back.

        But doesn't adding mix the two signals together so that neither can be read
        back? In a space with many dimensions, not much. Random directions in high
        dimensions are nearly at right angles, so a token row and a position row
        mostly occupy different directions. A quick experiment: take every
        (token, position) pair of the tiny model, add the two rows, and ask which
        token row and which position row the sum is most aligned with.
        """),
        code(r"""
        tokens = np.repeat(np.arange(V), T)      # every token id ...
        positions = np.tile(np.arange(T), V)     # ... at every position
        sums = wte[tokens] + wpe[positions]      # (V * T, d)

        token_guess = (sums @ wte.T).argmax(axis=1)
        position_guess = (sums @ wpe.T).argmax(axis=1)
        token_acc = (token_guess == tokens).mean()
        position_acc = (position_guess == positions).mean()
        print(f"{len(sums):,} sums; token read back correctly:    {token_acc:.1%}")
        print(f"{len(sums):,} sums; position read back correctly: {position_acc:.1%}")
        assert len(sums) == V * T == 3_584
        assert token_acc > 0.99 and position_acc > 0.99


        def mean_abs_cosine(a, b):
            a = a / np.linalg.norm(a, axis=1, keepdims=True)
            b = b / np.linalg.norm(b, axis=1, keepdims=True)
            return np.abs(a @ b.T).mean()


        cos_tiny = mean_abs_cosine(wte, wpe)
        print(f"mean |cosine| between token rows and position rows: {cos_tiny:.2f}")
        assert cos_tiny < 0.15

        width_ratio = GPT2_SMALL.n_embd // TINY.n_embd
        print(f"GPT-2 small is {width_ratio} times as wide as the tiny model")
        assert width_ratio * TINY.n_embd == GPT2_SMALL.n_embd and width_ratio == 12
        """),
        md(r"""
        Even with random tables and a width of only `d`, almost every sum can be
        decoded back into both its token and its position, because the rows of
        the two tables are nearly orthogonal (their mean absolute cosine, printed
        above, is small). Training is free to arrange the two tables so that this
        works even better, and GPT-2 small is several times wider than our tiny
        model (the last line above says by how much). Adding is cheap and loses little.
        """),
        md(r"""
        ## 4. Why positions at all? What attention sees without them

        Attention (the next lessons) lets every position build its output as a
        weighted average of the other positions' vectors, with weights computed from
        dot products of those vectors. Nothing in that recipe refers to where a
        vector sits in the sequence. Let us see what that means, with a minimal
        attention: one head, no causal mask, random projection matrices.
        """),
        code(r"""
        def toy_attention(x, Wq, Wk, Wv, causal=False):
            # one head; each position averages the value vectors, weighted by q . k
            q, k, v = x @ Wq, x @ Wk, x @ Wv
            scores = q @ k.T / np.sqrt(k.shape[-1])
            if causal:
                n = len(x)
                scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
            return numpy_gpt.softmax(scores, axis=-1) @ v


        rng = np.random.default_rng(3)
        Wq, Wk, Wv = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
        """),
        md(r"""
        Feed it a short random sequence as token rows only, then the same tokens in a shuffled
        order. If attention could tell order apart, the outputs would change in some
        complicated way. They do not: the second output is exactly the first output
        with its rows shuffled the same way.
        """),
        code(r"""
        rng = np.random.default_rng(4)
        seq = rng.integers(0, V, size=8)
        perm = rng.permutation(len(seq))
        print("tokens:         ", seq)
        print("shuffled tokens:", seq[perm])

        out = toy_attention(wte[seq], Wq, Wk, Wv)
        out_shuffled = toy_attention(wte[seq[perm]], Wq, Wk, Wv)

        same_up_to_shuffle = np.allclose(out_shuffled, out[perm], rtol=1e-12, atol=1e-15)
        print("no positions:   output of shuffled input == shuffled output?", same_up_to_shuffle)
        assert same_up_to_shuffle
        """),
        md(r"""
        Each token's output depends only on the token itself and on the *collection*
        of tokens around it, not on their order. Attention without positions treats
        its input as a set (strictly, a multiset: repeats count): "dog bites man" and
        "man bites dog" would give the word "dog" exactly the same vector.

        Now add the position rows, as GPT-2 does, and repeat the experiment. The
        shuffled tokens now arrive with the position rows of their *new* places.
        """),
        code(r"""
        x = numpy_gpt.embed(wte, wpe, seq)
        x_shuffled = numpy_gpt.embed(wte, wpe, seq[perm])

        out = toy_attention(x, Wq, Wk, Wv)
        out_shuffled = toy_attention(x_shuffled, Wq, Wk, Wv)

        same_up_to_shuffle = np.allclose(out_shuffled, out[perm], rtol=1e-12, atol=1e-15)
        print("with positions: output of shuffled input == shuffled output?", same_up_to_shuffle)
        assert not same_up_to_shuffle
        """),
        md(r"""
        With positions the symmetry is gone: the same token at a different place
        gets a different vector, so the model can learn that order matters.

        **What about the causal mask?** GPT-2's attention is causal: position `t` only
        looks at positions `0..t`. That does leak a little order information, since
        each position sees a different number of tokens. But within what it sees,
        attention is still blind to order. Swap the first two tokens and look at the
        later positions:
        """),
        code(r"""
        swapped = seq.copy()
        swapped[[0, 1]] = swapped[[1, 0]]

        out = toy_attention(wte[seq], Wq, Wk, Wv, causal=True)
        out_swapped = toy_attention(wte[swapped], Wq, Wk, Wv, causal=True)

        later_unchanged = np.allclose(out[2:], out_swapped[2:], rtol=1e-12, atol=1e-15)
        first_changed = not np.allclose(out[:2], out_swapped[:2])
        print("causal, no positions: positions 2.. unchanged by the swap?", later_unchanged)
        print("causal, no positions: positions 0 and 1 changed?          ", first_changed)
        assert later_unchanged and first_changed
        """),
        md(r"""
        Every position from the third on sees the same set of tokens in both orders,
        so its output does not change at all: it cannot tell "dog bites man" from
        "man bites dog" once both words are behind it. Language models trained with
        a causal mask and no position embedding do pick up some sense of position
        from the mask (Haviv et al., 2022, *Transformer Language Models without
        Positional Encodings Still Learn Positional Information*), but it is an
        implicit, weak signal. GPT-2 hands every position an explicit one.
        """),
        md(r"""
        ## 5. The hard edge at the block size

        `wpe` has exactly `T` rows, for positions `0` to `T - 1`. There is no row for
        position `T`, so a sequence one token longer than the block size has nothing
        to add at its last position. The model cannot read it at all; it has to be
        cropped first (usually to its last `T` tokens).

        Our simple loop shows what happens when nobody checks:
        """),
        code(r"""
        too_long = np.zeros(T + 1, dtype=np.int64)   # one token more than the block size
        print("block size:", T, "| sequence length:", len(too_long))
        try:
            embed_loop(wte, wpe, too_long)
        except IndexError as err:
            print("IndexError:", err)
        """),
        md(r"""
        An `IndexError` deep inside the model tells the user nothing about what went
        wrong or what to do. (In other code, the failure can be worse: PyTorch on a
        GPU may report an unhelpful device-side assertion, and some slicing tricks
        silently return fewer rows.) The course's reference code checks the length
        first and raises a `ValueError` that names both numbers:
        """),
        code(r"""
        try:
            numpy_gpt.embed(wte, wpe, too_long)
        except ValueError as err:
            message = str(err)
            print("ValueError:", message)
        assert str(T + 1) in message and str(T) in message

        # exactly T tokens is fine: the last one uses the last row, wpe[T - 1]
        assert numpy_gpt.embed(wte, wpe, too_long[:T]).shape == (T, d)
        """),
        md(r"""
        Your own `embed` in the exercises must do the same.
        """),
        md(r"""
        ## 6. GPT-2 small's tables

        The same two tables at full size. The numbers come from `GPT2_SMALL`, the
        released model's configuration.
        """),
        code(r"""
        T_small = GPT2_SMALL.block_size
        wte_size = V_small * d_small
        wpe_size = T_small * d_small
        total = GPT2_SMALL.n_params()
        print(f"vocabulary V = {V_small:,}, block size T = {T_small:,}, width d = {d_small:,}")
        print(f"wte: ({V_small:,}, {d_small}) -> {wte_size:>12,} parameters ({wte_size / total:.0%} of the model)")
        print(f"wpe: ({T_small:,}, {d_small}) -> {wpe_size:>12,} parameters ({wpe_size / total:.1%} of the model)")
        print(f"whole model:           {total:>12,} parameters")
        print(f"wte in float32: {wte_size * 4 / 1e6:.0f} MB")

        assert (V_small, T_small, d_small) == (50_257, 1_024, 768)
        assert wte_size == 38_597_376 and wpe_size == 786_432
        assert total == 124_439_808
        assert round(100 * wte_size / total) == 31 and round(1000 * wpe_size / total) == 6
        assert round(wte_size * 4 / 1e6) == 154
        """),
        md(r"""
        The token table alone is close to a third of GPT-2 small's parameters, while
        the position table is tiny next to it: the vocabulary has far more entries
        than the context has positions. (GPT-2 reuses `wte` as its output layer, so
        the token table is counted only once; more on that in a later lesson.)
        """),
        md(r"""
        ## 7. A look at the tables

        Left: the one-hot matrix of our little sentence (one row per position, a
        single dark cell in the column of its word). Middle: the tiny model's
        position table at initialisation. Right: the cosine similarity between every
        pair of its position rows.
        """),
        code(r"""
        unit = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
        cos_pos = unit @ unit.T

        fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
        axes[0].imshow(one_hot, cmap="gray_r")
        axes[0].set_xticks(range(len(words)), words, rotation=45, ha="right")
        axes[0].set_yticks(range(len(sentence)), sentence)
        axes[0].set_title("one-hot rows of the sentence")

        im = axes[1].imshow(wpe, cmap="RdBu_r", aspect="auto")
        axes[1].set_xlabel("feature (0 .. d-1)")
        axes[1].set_ylabel("position (0 .. T-1)")
        axes[1].set_title("wpe at initialisation")
        fig.colorbar(im, ax=axes[1])

        im = axes[2].imshow(cos_pos, cmap="RdBu_r", vmin=-1, vmax=1)
        axes[2].set_xlabel("position")
        axes[2].set_ylabel("position")
        axes[2].set_title("cosine similarity of position rows")
        fig.colorbar(im, ax=axes[2])
        fig.tight_layout()
        plt.show()

        off_diagonal = np.abs(cos_pos[~np.eye(T, dtype=bool)])
        print(f"largest |cosine| between two different positions at init: {off_diagonal.max():.2f}")
        assert np.allclose(np.diag(cos_pos), 1.0) and off_diagonal.max() < 0.6
        """),
        md(r"""
        At initialisation the position table is pure noise: every position is about
        as (dis)similar to its neighbour as to a position far away, so the right
        panel is a sharp diagonal on faint speckles. Nothing tells the model
        that position `t` is next to position `t + 1`; it has to learn that. In the trained
        GPT-2 it has: the position rows become smooth, slow waves along the position
        axis, and the similarity between two positions falls off gradually with
        their distance. A later lesson plots the released weights.
        """),
        md(r"""
        ## Summary

        * `wte` `(V, d)` holds one learned row per token, `wpe` `(T, d)` one learned
          row per position; GPT-2's positions are learned, not sinusoidal.
        * `x0[t] = wte[id_t] + wpe[t]`, for one sequence `(T,)` or a batch `(B, T)`.
        * A lookup is a one-hot vector times the table; lookups are just cheaper.
        * Adding keeps the width `d`; in a wide space the sum still carries both pieces.
        * Without positions, attention is blind to order (the causal mask leaks only
          a weak signal); with them, it is not.
        * There is no row for position `T`: check the length and raise a clear error.

        **Next:** open `exercises/01_embeddings.ipynb` and write `embed` and
        `one_hot_embed` yourself.
        """),
        md(r"""
        ## Check yourself

        **1.** `wte` has shape `(V, d)` and `wpe` has shape `(T, d)`. A batch of token
        ids has shape `(B, n)` with `n <= T`. What shape is `x0`, and which rows of
        `wpe` are used?

        <details><summary>Answer</summary>

        `(B, n, d)`. The rows `wpe[0]` to `wpe[n - 1]`, the same ones for every sequence
        in the batch, whatever the tokens are.

        </details>

        **2.** You multiply a one-hot matrix of shape `(n, V)` by `wte`. Which result do you
        get, and why would you not do this in real code?

        <details><summary>Answer</summary>

        The same `(n, d)` rows as the lookup `wte[ids]`. But the product spends `V * d`
        multiply-adds per token to copy `d` numbers, and the one-hot matrix itself holds
        `n * V` numbers.

        </details>

        **3.** A model without position embeddings and without a causal mask reads "dog
        bites man" and then "man bites dog". What can you say about the vector it
        computes for "dog" in each?

        <details><summary>Answer</summary>

        They are identical. Attention without positions only sees the collection of
        tokens, and both sentences contain the same tokens; the outputs are just
        reordered along with the inputs.

        </details>

        **4.** Why does GPT-2 add the position row instead of concatenating it?

        <details><summary>Answer</summary>

        Adding keeps the width at `d`, the width every later layer and the residual
        stream are built for. Concatenating would double it. And with many dimensions,
        token and position rows can occupy nearly orthogonal directions, so the sum
        still lets later layers read both.

        </details>

        **5.** Your input is one token longer than the block size. What should `embed` do,
        and what should the user do?

        <details><summary>Answer</summary>

        `embed` should raise a `ValueError` naming the sequence length and the block size
        (there is no row for position `T` in `wpe`). The user should crop the input,
        usually keeping its last `T` tokens.

        </details>
        """),
    ]


# =================================================================== solutions
def solution_cells():
    key = LESSON

    def md(text):
        return nbbuild.md(text, lesson=key)

    def code(text, tags=()):
        return nbbuild.code(text, tags=tags, lesson=key)

    return [
        md(r"""
        # Exercises 01: token and position embeddings

        Two functions, both in plain NumPy:

        1. `embed(wte, wpe, idx)`: the input layer of GPT-2,
           `x0[..., t, :] = wte[idx[..., t]] + wpe[t]`.
        2. `one_hot_embed(wte, idx)`: the token lookup written as a matrix product.

        Read `notebooks/01_embeddings.ipynb` first. Replace each
        `raise NotImplementedError(...)` line with your code, then run the `check(...)`
        cell below it: it runs hidden tests and, when something is off, names the
        mistake. Keep the function names and signatures as given. Write vectorised
        NumPy (no Python loop over tokens), and do not import the course's reference
        package `gpt2course` in your answers.
        """),
        code(r"""
        import numpy as np

        from grader import check
        """),
        md(r"""
        ## Exercise 1: `embed(wte, wpe, idx)`

        **Inputs**

        * `wte`: the token table, a float array of shape `(V, d)` (float32 or float64).
        * `wpe`: the position table, shape `(block_size, d)`, same dtype as `wte`.
        * `idx`: integer token ids, either one sequence of shape `(T,)` or a batch of
          shape `(B, T)`. Every id is in `[0, V)`.

        **Output**: an array of shape `idx.shape + (d,)`, that is `(T, d)` or
        `(B, T, d)`, in the tables' dtype (no upcasting), where row `t` of every
        sequence is `wte[token at t] + wpe[t]`. The position rows depend on where a
        token sits, not on which token it is.

        **Errors**: when `T` is larger than the block size `wpe.shape[0]`, raise a
        `ValueError` whose message names both the sequence length and the block size
        (for instance "sequence length 65 exceeds the block size 64"). A sequence of
        exactly `block_size` tokens is fine.
        """),
        code(r'''
        def embed(wte, wpe, idx):
            """Token plus position embedding.

            wte: (V, d) token table; wpe: (block_size, d) position table, same dtype.
            idx: integer ids of shape (T,) or (B, T).
            Returns idx.shape + (d,) in the tables' dtype. Raises ValueError, naming
            the sequence length and the block size, when T > block_size.
            """
            ### BEGIN SOLUTION
            seq_len, block_size = idx.shape[-1], wpe.shape[0]
            if seq_len > block_size:
                raise ValueError(
                    f"sequence length {seq_len} exceeds the block size {block_size}: "
                    f"wpe has no row for position {block_size}; crop the input to its "
                    f"last {block_size} tokens"
                )
            return wte[idx] + wpe[:seq_len]
            ### END SOLUTION
        ''', tags=["exercise"]),
        code(r"""
        check(embed)
        """, tags=["check"]),
        md(r"""
        ## Exercise 2: `one_hot_embed(wte, idx)`

        The lesson showed that looking up row `i` equals multiplying a one-hot vector by
        the table. Compute the token rows that way.

        **Inputs**

        * `wte`: a float table of shape `(V, d)` (float32 or float64).
        * `idx`: integer token ids of shape `(T,)` or `(B, T)`, each in `[0, V)`.

        **Output**: shape `idx.shape + (d,)`, the same values as `wte[idx]`, in
        `wte`'s dtype.

        **How**: build the one-hot matrix of shape `idx.shape + (V,)` (a one in column
        `idx[..., t]` of row `t`, zeros elsewhere) *in `wte`'s dtype*, and multiply it
        by `wte`. Do not index `wte` with the ids. Watch the dtype: a float64 one-hot
        matrix times a float32 table gives a float64 result.
        """),
        code(r'''
        def one_hot_embed(wte, idx):
            """Token rows of wte computed as (one-hot matrix) @ wte.

            wte: (V, d) float table; idx: integer ids of shape (T,) or (B, T).
            Returns idx.shape + (d,) in wte's dtype, equal to wte[idx].
            """
            ### BEGIN SOLUTION
            vocab = np.arange(wte.shape[0])
            one_hot = (idx[..., None] == vocab).astype(wte.dtype)   # idx.shape + (V,)
            return one_hot @ wte
            ### END SOLUTION
        ''', tags=["exercise"]),
        code(r"""
        check(one_hot_embed)
        """, tags=["check"]),
        md(r"""
        That is the whole input layer of GPT-2. The next lesson normalises these
        vectors with LayerNorm before attention reads them.
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

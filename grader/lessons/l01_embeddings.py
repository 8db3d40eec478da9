"""Lesson 01: token and position embeddings."""
from __future__ import annotations

import numpy as np

from gpt2course import numpy_gpt as ref

from ..judging.registry import Case, Exercise, Mistake, register
from ._variants import embed as flagged_embed

LESSON = "01_embeddings"


def _tables(rng, V, T, d, dtype):
    wte = rng.standard_normal((V, d)).astype(dtype)
    wpe = rng.standard_normal((T, d)).astype(dtype)
    return wte, wpe


def _ids(rng, V, shape):
    return rng.integers(0, V, size=shape, dtype=np.int64)


def _too_long(wte, wpe, B=None):
    T, block = wpe.shape[0] + 1, wpe.shape[0]
    idx = np.zeros((T,) if B is None else (B, T), dtype=np.int64)
    return Case({"wte": wte, "wpe": wpe, "idx": idx}, raises="ValueError",
                mention=(str(T), str(block), "block|context|position"),
                about="a sequence one token longer than the block size")


# ------------------------------------------------------------------ embed
def _embed_public():
    rng = np.random.default_rng(1)
    wte, wpe = _tables(rng, 10, 6, 4, np.float64)
    # too long both unbatched and batched: a check that reads T from the wrong axis
    # passes one of them, unlike a missing check (the student edition sees only these)
    return [Case({"wte": wte, "wpe": wpe, "idx": np.array([[3, 1, 4, 1], [5, 9, 2, 6]])}),
            Case({"wte": wte, "wpe": wpe, "idx": np.array([7, 7, 0])}),
            _too_long(wte, wpe),
            _too_long(wte, wpe, B=1),
            _embed_float32_public(),
            Case({"wte": wte, "wpe": wpe, "idx": np.array([[2, 7, 1, 8, 2, 8]])},
                 about="a sequence exactly as long as the block size")]


def _embed_float32_public():
    """float32 tables: the result must stay float32 (no upcasting)."""
    rng = np.random.default_rng(11)
    wte, wpe = _tables(rng, 9, 5, 3, np.float32)
    return Case({"wte": wte, "wpe": wpe, "idx": np.array([[8, 0, 3, 3, 1], [2, 7, 7, 5, 4]])})


def _embed_hidden(rng):
    cases = []
    for V, T, d, dtype, shape in [(50, 16, 8, np.float64, (3, 16)), (12, 32, 6, np.float64, (2, 9)),
                                  (56, 64, 16, np.float32, (4, 20)), (7, 5, 3, np.float64, (5,)),
                                  (30, 8, 12, np.float32, (1,)), (20, 10, 4, np.float64, (2, 10))]:
        wte, wpe = _tables(rng, V, T, d, dtype)
        cases.append(Case({"wte": wte, "wpe": wpe, "idx": _ids(rng, V, shape)}))
    wte, wpe = _tables(rng, 40, 12, 5, np.float64)
    cases += [_too_long(wte, wpe), _too_long(wte, wpe, B=3)]
    return cases


def _embed(**flags):
    def variant(wte, wpe, idx):
        return flagged_embed(wte, wpe, idx, **flags)
    return variant


_BY_TOKEN = ("The position table is indexed by where a token sits (0, 1, ..., T-1), not by which "
             "token it is: use wpe[:T] (or wpe[np.arange(T)]).")
_MISSING = ("x0 = wte[idx] + wpe[:T]. Without the position rows the model cannot tell 'dog bites "
            "man' from 'man bites dog'.")
_NO_CHECK = ("There is no position row past block_size - 1. Check T against wpe.shape[0] yourself "
             "and raise ValueError with a message naming both numbers; NumPy's broadcasting error "
             "does not tell the user what to do.")
# Two slips that interact: without the position rows (or with rows picked by token id)
# a too-long sequence raises no error at all, so neither one-slip variant reproduces
# such a learner on every case, and the pair is catalogued as one mistake.
_AND_NO_CHECK = (" And check the length first: a sequence longer than the block size "
                 "(wpe.shape[0]) must raise ValueError with a message naming both numbers.")


register(Exercise(
    name="embed",
    lesson=LESSON,
    difficulty=1, importance=3, minutes=15,
    reference=ref.embed,
    public_cases=_embed_public,
    hidden_cases=_embed_hidden,
    mistakes=[
        Mistake("position rows looked up by token id", _BY_TOKEN, _embed(positions="by_token")),
        Mistake("position embedding missing", _MISSING, _embed(positions=None)),
        Mistake("position rows looked up by token id, and no check of the block size",
                _BY_TOKEN + _AND_NO_CHECK, _embed(positions="by_token", check=False)),
        Mistake("position embedding missing, and no check of the block size",
                _MISSING + _AND_NO_CHECK, _embed(positions=None, check=False)),
        Mistake("positions concatenated instead of added",
                "GPT-2 adds the two rows, so the width stays n_embd; concatenating doubles it "
                "and no later layer would fit.",
                _embed(concat=True)),
        Mistake("no check of the block size", _NO_CHECK, _embed(check=False)),
        Mistake("a sequence of exactly block_size tokens refused",
                "Positions 0 to block_size - 1 all have a row in wpe, so a sequence of exactly block_size "
                "tokens fits: refuse only T > block_size (not T >= block_size).",
                _embed(full_refused=True)),
    ],
    hints=(
        "Each output row is the sum of two table rows: one chosen by *which* token it is, "
        "one chosen by *where* it sits in the sequence. Which of the two depends on `idx`, "
        "and which only on the sequence length T? And what has to be checked before any "
        "lookup?",
        "Indexing a NumPy array with an integer array looks up rows: `wte` indexed by `idx` "
        "has shape `idx.shape + (d,)`, for `(T,)` and `(B, T)` ids alike. The position rows "
        "do not depend on the ids at all: they are rows 0 to T-1 of `wpe`, whatever tokens "
        "sit there.",
        "Read T from the last axis of `idx` (`idx.shape[-1]`) so that one sequence and a "
        "batch need no separate code. A `(T, d)` block of position rows broadcasts against "
        "`(T, d)` and `(B, T, d)` alike. Add the two rows (the width stays d, so do not "
        "concatenate), and never look positions up with the token ids.",
        "Check the length first: when T is larger than the block size `wpe.shape[0]`, raise a "
        "`ValueError` whose message contains both numbers (e.g. 'sequence length 9 exceeds "
        "the block size 8'). T equal to the block size is fine. NumPy's own broadcasting "
        "error would not tell the user what to do.",
        "Outline: (1) T from the last axis of `idx`, the block size from the first axis of "
        "`wpe`; (2) if T exceeds the block size, raise the `ValueError` naming both; (3) the "
        "token rows by indexing `wte` with `idx`; (4) the position rows by slicing the first "
        "T rows of `wpe`; (5) the answer is their sum. Indexing, slicing and adding arrays of "
        "one dtype keep that dtype, so float32 tables give float32 rows with no extra work.",
    ),
))


# ------------------------------------------------------------------ one_hot_embed
def one_hot_embed_reference(wte, idx):
    one_hot = np.eye(wte.shape[0], dtype=wte.dtype)[idx]
    return one_hot @ wte


def _one_hot_public():
    rng = np.random.default_rng(2)
    wte, _ = _tables(rng, 6, 1, 3, np.float64)
    return [Case({"wte": wte, "idx": np.array([0, 5, 2, 2])}),
            Case({"wte": wte.astype(np.float32), "idx": np.array([[1, 0, 3], [4, 4, 4]])})]


def _one_hot_hidden(rng):
    cases = []
    for V, d, dtype, shape in [(50, 8, np.float64, (3, 7)), (56, 16, np.float32, (2, 10)),
                               (9, 4, np.float64, (6,)), (40, 5, np.float32, (12,)),
                               (33, 3, np.float64, (4, 8))]:
        wte, _ = _tables(rng, V, 1, d, dtype)
        cases.append(Case({"wte": wte, "idx": _ids(rng, V, shape)}))
    return cases


def _one_hot_float64(wte, idx):
    return np.eye(wte.shape[0])[idx] @ wte


def _one_hot_positions(wte, idx):
    T = idx.shape[-1]
    rows = np.eye(wte.shape[0], dtype=wte.dtype)[np.arange(T)] @ wte
    return np.broadcast_to(rows, idx.shape + (wte.shape[1],)).copy()


register(Exercise(
    name="one_hot_embed",
    lesson=LESSON,
    difficulty=1, importance=1, minutes=10,
    reference=one_hot_embed_reference,
    public_cases=_one_hot_public,
    hidden_cases=_one_hot_hidden,
    mistakes=[
        Mistake("one-hot matrix in float64 upcasts a float32 table",
                "np.eye(V) is float64, and float64 @ float32 gives float64. Build the one-hot "
                "matrix in the table's dtype (np.eye(V, dtype=wte.dtype)).",
                _one_hot_float64),
        Mistake("one-hot rows built from positions instead of token ids",
                "Row t of the one-hot matrix must have its 1 in column idx[t] (the token), "
                "not in column t (the position).",
                _one_hot_positions),
    ],
    hints=(
        "A one-hot vector for token i has a single 1, in column i. Multiplied by the table it "
        "picks out row i. So think of the lookup of a whole sequence as one matrix product: "
        "one one-hot row per token, times `wte`.",
        "The one-hot array has shape `idx.shape + (V,)`, with V = `wte.shape[0]`: for the "
        "token at position t, a 1 in the column of its id `idx[..., t]` and 0 elsewhere. The "
        "1 goes in the column of the token id, not in column t (the position).",
        "Two loop-free ways to build it: compare `idx[..., None]` with `np.arange(V)` "
        "(broadcasting gives a boolean array of the right shape) and convert the booleans, or "
        "index an identity matrix from `np.eye` with the ids. Do not index `wte` with the ids "
        "themselves: the point of the exercise is the matrix product.",
        "Watch the dtype: `np.eye(V)` is float64, and so are booleans converted with "
        "`astype(float)`; float64 @ float32 gives float64. Make the one-hot array in "
        "`wte.dtype` from the start (`dtype=wte.dtype`, or `.astype(wte.dtype)`).",
        "Outline: (1) V from `wte.shape[0]`; (2) the one-hot array of shape "
        "`idx.shape + (V,)` in `wte`'s dtype; (3) multiply it by `wte` with `@`, which treats "
        "the leading axes as a batch and gives `idx.shape + (d,)`. On a small example the "
        "result should equal `wte[idx]` exactly.",
    ),
))

"""Lesson 08: the loss, the batches and the sampler of the training loop."""
from __future__ import annotations

from ..judging.registry import Exercise, Mistake, register
from ..judging.sampling_judge import draws_judge, scalar_judge
from . import _l08_cases as C
from . import _l08_variants as V
from ._variants import flagged

LESSON = "08_training_sampling"


# ------------------------------------------------------------------ cross_entropy
def cross_entropy_reference(logits, targets):
    return V.cross_entropy(logits, targets)


register(Exercise(
    name="cross_entropy",
    lesson=LESSON,
    difficulty=2, importance=3, minutes=25,
    reference=cross_entropy_reference,
    public_cases=C.loss_public,
    hidden_cases=C.loss_hidden,
    judge=scalar_judge,
    mistakes=[
        Mistake("softmax without subtracting the max",
                "exp of a logit near 710 (float64) or 89 (float32) overflows to inf, and the loss becomes "
                "inf or NaN. Subtract each row's largest logit first: softmax does not change when every "
                "logit of a row moves by the same amount, and the largest becomes exp(0) = 1.",
                flagged(V.cross_entropy, max_shift=False)),
        Mistake("log of the softmax",
                "A probability below about 1e-308 (float64) or 1e-45 (float32) rounds to 0, and log(0) is "
                "-inf, although its log is an ordinary number such as -800. Compute the log-probabilities "
                "directly: z - log(sum(exp(z))) with z the shifted logits, never log(softmax).",
                flagged(V.cross_entropy, log_of_softmax=True)),
        Mistake("sum instead of mean",
                "The loss is the mean over every position (all batch rows and all positions), so that it "
                "does not grow with the batch; summing gives N times too much.",
                flagged(V.cross_entropy, reduce="sum")),
        Mistake("every target scored at every position",
                "Indexing the log-probabilities (N, V) with [:, targets] gives an (N, N) table, every "
                "target at every position. Pick one entry per position: position i's own target, with "
                "take_along_axis or [np.arange(N), targets].",
                flagged(V.cross_entropy, pick="every")),
        Mistake("softmax over the wrong axis",
                "The softmax runs over the vocabulary, the last axis: each position's V logits become "
                "probabilities that sum to 1. Use axis=-1 (with keepdims=True) for both the max and the sum.",
                flagged(V.cross_entropy, norm_axis=0)),
        Mistake("softmax over axis 1 (the positions, in a batch)",
                "axis=1 is the vocabulary of (N, V) logits only: for (B, T, V) it is the positions, and "
                "(V,) logits have no axis 1. Normalise over the last axis, axis=-1, whatever the leading "
                "axes.",
                flagged(V.cross_entropy, norm_axis=1)),
        Mistake("sign flipped (the log-likelihood, not its negative)",
                "The loss is the negative log-probability of the targets, a positive number that training "
                "makes smaller; without the minus sign it is negative.",
                flagged(V.cross_entropy, sign=1.0)),
        Mistake("float32 logits upcast to float64",
                "float32 logits give a float32 loss: keep the computation in the logits' dtype (no "
                "astype(np.float64), no float64 arrays mixed in).",
                flagged(V.cross_entropy, upcast=True)),
        Mistake("negative target ids not refused",
                "A target id below 0 is outside [0, V) too: NumPy reads id -1 as the last column without a "
                "word. Refuse targets.min() < 0 as well as targets.max() >= V, naming the id.",
                flagged(V.cross_entropy, negative_ok=True)),
        Mistake("loss returned as a Python float",
                "float(...) turns NumPy's float32 or float64 into a Python float: return the NumPy result as "
                "it is (the mean of a float32 array is a float32).",
                flagged(V.cross_entropy, as_float=True)),
    ],
    hints=(
        "For each position the loss is minus the log of the probability the softmax gives the target "
        "id; the result is the mean of that over every position. Where do large logits break the "
        "textbook formula?",
        "Shift each row first: subtract its largest logit (over the last axis, keeping the axis so it "
        "broadcasts). The softmax does not change, and no exp can overflow any more.",
        "Do not take the log of probabilities: write log softmax(z) as z minus the log of the sum of "
        "exp(z) over the last axis, with z the shifted logits. It stays finite where a probability "
        "would round to 0.",
        "Pick each position's own target with `np.take_along_axis`, giving the targets a trailing axis "
        "of length 1; then take the mean over everything. Check the shapes and the ids first, with the "
        "numbers in the ValueError.",
    ),
))


# ------------------------------------------------------------------ get_batch
register(Exercise(
    name="get_batch",
    lesson=LESSON,
    difficulty=2, importance=2, minutes=20,
    reference=V.get_batch_reference,
    public_cases=C.batch_public,
    hidden_cases=C.batch_hidden,
    returns=("x", "y"),
    mistakes=[
        Mistake("targets not shifted",
                "y is the window one id further on: y[b, t] = data[start_b + t + 1], the id that follows "
                "x[b, t]. With y equal to x the model learns to copy its input.",
                flagged(V.get_batch, shift=0)),
        Mistake("targets rolled from the inputs",
                "np.roll(x, -1, axis=1) moves each row on by one but wraps its first id round to the end: "
                "the last target must be the id after the window, data[start + block_size], which x does "
                "not hold. Slice y from the data: data[start + 1 : start + block_size + 1].",
                flagged(V.get_batch, shift="roll")),
        Mistake("targets shifted the wrong way",
                "The target of position t is the id after it, data[start + t + 1], not the one before it.",
                flagged(V.get_batch, shift=-1)),
        Mistake("last window never drawn",
                "The starts run from 0 to len(data) - block_size - 1 inclusive, so the upper end passed to "
                "rng.integers (exclusive) is len(data) - block_size; one less never draws the last window.",
                flagged(V.get_batch, high=-1)),
        Mistake("start range one too far",
                "A window needs block_size + 1 ids (inputs plus the shifted targets), so the largest start "
                "is len(data) - block_size - 1: pass len(data) - block_size to rng.integers as its "
                "exclusive upper end, not one more.",
                flagged(V.get_batch, high=1)),
        Mistake("length check one short",
                "A window needs block_size + 1 ids, its inputs and one more target: data of exactly "
                "block_size ids must be refused too (len(data) <= block_size), with a ValueError naming "
                "both numbers, before rng.integers raises an error of its own.",
                flagged(V.get_batch, shortest=0)),
        Mistake("ids left in the data's dtype",
                "The corpus stores ids as uint8; embedding lookups and torch's cross-entropy want int64. "
                "Return x and y as int64 (astype(np.int64)).",
                flagged(V.get_batch, cast=False)),
    ],
    hints=(
        "Draw the batch's starting positions first, all at once, exactly as the exercise states; then "
        "each row of x is block_size consecutive ids from its start, and y is the same window moved on "
        "by one id.",
        "How many starts are possible? The window of inputs and its shifted targets together need "
        "block_size + 1 ids, so the last start is len(data) - block_size - 1. `rng.integers` excludes "
        "its upper end.",
        "Without a loop: add `np.arange(block_size)` to the starts as a column, which gives a (B, T) "
        "table of positions; index the data with it for x, and with the same table plus 1 for y.",
        "Convert both to int64 before returning them, and raise the ValueError (naming the data's "
        "length and the block size) before drawing anything when the data cannot hold one window.",
    ),
))


# ------------------------------------------------------------------ sample_next
register(Exercise(
    name="sample_next",
    lesson=LESSON,
    difficulty=3, importance=2, minutes=40,
    reference=V.sample_next_reference,
    public_cases=C.draw_public,
    hidden_cases=C.draw_hidden,
    judge=draws_judge,
    mistakes=[
        Mistake("top-k keeps k + 1 candidates",
                "Exactly k ids may be drawn: the k largest logits of the row. An off-by-one in the slice "
                "or the threshold lets the (k+1)-th through.",
                flagged(V.sample_next, k_extra=1)),
        Mistake("top-k keeps k - 1 candidates",
                "Exactly k ids may be drawn: the k largest logits of the row. An off-by-one in the slice "
                "or the index (k - 1 where k is meant) keeps one too few.",
                flagged(V.sample_next, k_extra=-1)),
        Mistake("top-k masks the k-th largest too (<= instead of <)",
                "Exactly k ids may be drawn. Masking every logit <= the k-th largest removes the k-th "
                "itself, and every logit tied with it: when the top logits tie, a row can lose every "
                "candidate, its probabilities become NaN and the draw is always the same id. Mask only "
                "those below it (or keep the first k of a sort).",
                flagged(V.sample_next, at_most=True)),
        Mistake("every logit tied with the k-th kept",
                "Masking the logits below the k-th largest keeps all the ties at the k-th place, so a row "
                "can keep more than k. Keep exactly k (sort or argpartition, and keep k positions).",
                flagged(V.sample_next, ties=True)),
        Mistake("top_k ignored",
                "With top_k set, only the k largest logits of a row stay candidates: set the others to "
                "-inf before the softmax, so their probability is exactly 0.",
                flagged(V.sample_next, use_top_k=False)),
        Mistake("temperature ignored (or applied after the softmax)",
                "The temperature divides the logits before the softmax: softmax(logits / T). Dividing "
                "the probabilities by T changes nothing once they are normalised again.",
                flagged(V.sample_next, temperature_use="ignore")),
        Mistake("logits multiplied by the temperature",
                "softmax(logits / T): a temperature below 1 sharpens the distribution, above 1 flattens "
                "it. Multiplying does the opposite.",
                flagged(V.sample_next, temperature_use="multiply")),
        Mistake("softmax without subtracting the max",
                "exp of a logit near 710 overflows to inf and the probabilities become NaN. Subtract each "
                "row's largest logit before exp; the softmax does not change.",
                flagged(V.sample_next, max_shift=False)),
        Mistake("argmax instead of a draw",
                "The argmax is greedy decoding: always the most likely id. Sampling draws each id with its "
                "probability, using the generator rng.",
                flagged(V.sample_next, draw="argmax")),
        Mistake("random numbers not drawn from rng",
                "Draw every random number from the generator you are given (rng.random, rng.choice, "
                "...), not from np.random.* or a new np.random.default_rng(): the same rng state must "
                "give the same ids.",
                flagged(V.sample_next, source="entropy")),
        Mistake("a generator with a fixed seed made inside",
                "np.random.default_rng(0) inside the function draws the same numbers on every call, "
                "whatever rng holds. Draw from the rng argument.",
                flagged(V.sample_next, source="fixed")),
    ],
    hints=(
        "Three steps per row: turn the logits into the probabilities of the candidates, then draw one "
        "id with those probabilities, using only `rng`. The temperature and top-k act on the logits, "
        "before the softmax.",
        "Divide the logits by the temperature first. Then, when top_k is set, keep the k largest of "
        "each row and set every other logit to -inf (exactly k: sort, or `np.argpartition`, and keep k "
        "positions); exp(-inf) is 0, so they can never be drawn.",
        "The softmax over the last axis, shifted by each row's largest logit so that exp cannot "
        "overflow. Every row of probabilities then sums to 1.",
        "One draw per row: for example the inverse CDF, one `rng.random` number u per row and the first "
        "id whose cumulative probability (`np.cumsum` over the last axis) exceeds u; or `rng.choice` row "
        "by row. Return the ids as an int64 array of shape (B,).",
    ),
))

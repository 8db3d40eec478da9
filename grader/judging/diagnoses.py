"""Diagnoses that are not a list of variants: what the evidence itself shows about a failing
answer that no catalogued mistake reproduces (naming.py runs first; the judge asks here only
when it names nothing).

Each rule reads plain data only (the cases, the learner's answers, the reference's, and the
reference function where the exercise has one), so check() and the batch grader, which share
the judge, give the same diagnosis. None re-runs the learner's code. A rule names something
only when every failing case agrees on one reading, and says nothing otherwise: a wrong name
is worse than none. The rules, in order; the first that finds something decides:

- the input changed in place (the failure already says which argument): named;
- a dict with every key asked for, right, and the same few more (structure.py: a separate head);
- init_gpt (statistics): every failing tensor's standard deviation off by one factor, the same
  on every failing case, that a known expression of n_layer explains (sqrt(2): 1/sqrt(L) for
  1/sqrt(2L); 1/sqrt(3): a uniform draw; GPT-2's std itself: the variance passed as the
  std); a tensor GPT-2 starts constant drawn at random; every tensor of another dtype;
- two cases alike but for a generator in the same state, answered differently (seeds.py):
  the random numbers not drawn from it;
- the dtype alone wrong (the numbers right): upcast to float64, float32 for float64, a Python
  number for a NumPy scalar, another integer width;
- a crash in a matrix product whose sizes (in NumPy's or torch's message) are those of exactly
  one 2-D input read transposed, on every failing case: a weight in nn.Linear's (out, in)
  layout, or (where the reference multiplies by an input's transpose: the tied head) the
  transpose left out;
- a crash where an input meets its own reduction over the last axis (reshapes.py: no keepdims);
- values: every failing answer (or one item of a tuple) exactly the expected one times a
  constant factor, the same on every case, or times a size of the case's inputs that changes
  from case to case (a sum for a mean, the count of the wrong axes, every element of a batch);
- right on every input without a leading batch axis, wrong only on (some) inputs with one (or,
  an axis counted from the front, right on every batched input and failing on every other);
- NumPy's crash read against the inputs' shapes (crashes.py): a table broadcast whole where its
  first rows belong; an array sized by one axis of an input, indexed along another; a size
  read off the ids (idx.max() + 1) meeting a table's;
- NaN or inf only on the inputs beyond exp's range in their dtype: the max not subtracted;
- the cases that must raise (refusals.py): what came instead, per kind of reply;
- the right numbers rearranged (reshapes.py): transposed, an axis of length 1 added or
  dropped, a pair returned in the other order, a dict's tensors transposed; one entry fewer or
  more at one end of one axis (a slice off by one);
- the reference, run on the case's inputs with one of them changed (a table's rows shifted by
  one; layer 0 for the layer index; GPT-2 small's size for a size argument; a bias zeroed; a
  square projection made the identity; two same-shaped inputs swapped; a matrix transposed),
  reproduces the learner on every case, where the learner answered at least once;
- the reference with one of its pieces (an earlier exercise it calls) swapped for one of that
  piece's catalogued mistakes reproduces the learner on every case (pieces.py);
- the reference with one change to its own formula (a constant inverted, ten times too
  large, times pi; a power of an argument one off; an argument added after a call instead of
  inside it) reproduces the learner (formulas.py);
- one step more (reshapes.py): a softmax or GELU of the right answer, or an input added to it;
- a constant offset; each column (or row) off by a factor of its own; a count off by one or two
  terms of the sizes, blocks past the last one, or one count of blocks (a number typed in,
  another integer input) on every case (structure.py); a valid input refused by the learner's own check, or of one kind (the cases'
  `about`) crashing inside NumPy while the others pass (refusals.py).
"""
from __future__ import annotations

import math
import re

import numpy as np

from .compare import value_mismatch
from .factors import axis_factors, constant_factor, constant_offset, dtype_mistake, size_factor
from .formulas import constant_changed
from .outcomes import NO_ANSWER, ChangedInputs, Raised
from .crashes import input_used_whole, product_sizes, size_from_another_axis, size_from_the_data
from .pieces import piece_mistake
from .refusals import refusals, valid_input_crashed, valid_input_refused
from .registry import FLOAT32_TOL, Case, Exercise, Mistake
from .reshapes import one_step_more, rearranged, rearranged_items, slice_off_by_one, without_keepdims
from .sampling_judge import one_draw_for_all_rows
from .seeds import generator_unused
from .stats import SIGMAS, summarize
from .structure import blocks_fixed, count_difference, extra_keys, missing_layer
from .wire import is_plain_array


# Inputs the course's references multiply by their transpose (the tied head: h @ wte.T).
TRANSPOSED_BY_REFERENCE = {"gpt_logits": ("wte",), "tied_lm_loss_and_grad": ("E",)}


def diagnose(exercise: Exercise, cases: list[Case], answers: list, expected: list,
             failed: list[int]) -> list[Mistake]:
    """What the evidence shows about the failing answers, as mistakes (no variant); else [].
    When nothing explains every failure at once, the values and the errors asked for are read
    apart (two gaps side by side: a rearranged answer and a missing check), each by the first
    rule that explains all of its failures."""
    found = _first(exercise, cases, answers, expected, failed)
    if not found:
        values = [i for i in failed if not cases[i].raises]
        errors = [i for i in failed if cases[i].raises]
        if values and errors:
            on_values = _first(exercise, cases, answers, expected, values)
            try:
                on_errors = on_values and refusals(exercise, cases, answers, expected, errors)
            except Exception:  # a diagnosis must never break a verdict
                on_errors = None
            found = (on_values + on_errors) if on_values and on_errors else []
    return [Mistake(name, explanation, None) for name, explanation in found]


def _first(exercise, cases, answers, expected, failed) -> list:
    for rule in RULES:
        try:
            found = rule(exercise, cases, answers, expected, failed)
        except Exception:  # a diagnosis must never break a verdict
            found = None
        if found:
            return found
    return []


# ------------------------------------------------------------------ in place
def _changed_inputs(exercise, cases, answers, expected, failed):
    names = []
    for i in failed:
        if isinstance(answers[i], ChangedInputs):
            names += [n for n in answers[i].names if n not in names]
    if not names:
        return None
    which = ", ".join(f"`{n}`" for n in names)
    return [("input changed in place",
             f"Your function writes into {which}, an array it was given (x += ..., x[...] = ..., "
             "an out= argument): the caller's arrays must stay as they were. Compute a new "
             "array instead (x = x + ..., or work on x.copy()).")]


# ------------------------------------------------------------------ init_gpt's statistics
def _init_statistics(exercise, cases, answers, expected, failed):
    from .stats import init_judge
    if exercise.judge is not init_judge:
        return None
    dtypes, ratios, drawn = set(), {}, {}   # ratios: (group, case) -> the std ratios of its failing tensors
    # drawn: a constant GPT-2 starts at -> the tensors drawn at random instead
    off: dict[str, set[str]] = {}  # group -> the tensors (layer numbers dropped) whose std is off
    for i in failed:
        if not isinstance(answers[i], dict) or not isinstance(expected[i], dict):
            return None
        a, e = summarize(answers[i]), summarize(expected[i])
        if set(a) != set(e):
            return None
        for key, es in e.items():
            s = a[key]
            if "bad" in s or s["shape"] != es["shape"]:
                return None
            if s["dtype"] != es["dtype"]:
                dtypes.add((s["dtype"], es["dtype"]))
                continue
            if "constant" in es:
                if s.get("constant") != es["constant"]:
                    if "constant" in s or not s["finite"]:
                        return None
                    drawn.setdefault(es["constant"], set()).add(re.sub(r"^h\.\d+\.", "", key))
                continue
            if "constant" in s or not s["finite"]:
                return None
            n = min(s["n"], es["n"])
            ratio = s["std"] / es["std"]
            if abs(ratio - 1) > SIGMAS * math.sqrt(1.0 / (2 * n) * 2):
                ratios.setdefault((_group(key), i), []).append((ratio, n, es["std"]))
                off.setdefault(_group(key), set()).add(re.sub(r"^h\.\d+\.", "", key))
    if dtypes:
        if len(dtypes) == 1 and not ratios and all(isinstance(answers[i], dict) for i in failed):
            got, want = next(iter(dtypes))
            return [(f"tensors in {got} instead of {want}",
                     f"Every tensor must be {want}, as np.random.default_rng's draws, np.zeros and "
                     f"np.ones give by default: no astype({got}).")]
        return None
    if drawn:
        return None if ratios else [
            (f"{', '.join(sorted(keys))} drawn at random instead of all {value:g}",
             f"GPT-2 starts these tensors at exactly {value:g} (np.zeros / np.ones); only the weight "
             "matrices and the embedding tables are drawn from the normal distribution.")
            for value, keys in sorted(drawn.items())]
    if not ratios:
        return None
    return _std_factor(cases, failed, ratios, off)


_GROUP_TENSORS = {"residual projections (attn.c_proj.weight, mlp.c_proj.weight)": {"attn.c_proj.weight", "mlp.c_proj.weight"},
                  "other weights (wte, wpe, c_attn, c_fc)": {"wte", "wpe", "attn.c_attn.weight", "mlp.c_fc.weight"}}


def _group(key: str) -> str:
    if key.endswith(("attn.c_proj.weight", "mlp.c_proj.weight")):
        return "residual projections (attn.c_proj.weight, mlp.c_proj.weight)"
    return "other weights (wte, wpe, c_attn, c_fc)"


_STD_FACTORS = {  # name of the factor -> (its value for n_layer L and GPT-2's std s, what it says)
    "sqrt(2)": (lambda L, s: math.sqrt(2), "scaled by 1/sqrt(L) instead of 1/sqrt(2L)"),
    "sqrt(L)": (lambda L, s: math.sqrt(L), "scaled by 1/sqrt(2) without the layer count L"),
    "sqrt(2L)": (lambda L, s: math.sqrt(2 * L), "not scaled by 1/sqrt(2L) (std 0.02)"),
    "1/sqrt(2)": (lambda L, s: 1 / math.sqrt(2), "scaled by 1/sqrt(4L) instead of 1/sqrt(2L)"),
    "1/sqrt(L)": (lambda L, s: 1 / math.sqrt(L), "scaled by 1/sqrt(L)"),
    "1/sqrt(2L)": (lambda L, s: 1 / math.sqrt(2 * L), "scaled by 1/sqrt(2L)"),
    "2": (lambda L, s: 2.0, "twice as wide"),
    "1/2": (lambda L, s: 0.5, "half as wide"),
    "50": (lambda L, s: 50.0, "std 1 (the 0.02 scale left out)"),
    "1/sqrt(3)": (lambda L, s: 1 / math.sqrt(3), "drawn uniformly on [-s, s] (std s/sqrt(3)) instead of from a normal with std s"),
    # numpy's normal(loc, scale) takes the std: a variance passed there draws with std s**2
    "s, GPT-2's std itself (so s**2),": (lambda L, s: s, "drawn with the variance as the standard deviation (std s**2 for s)"),
}


def _std_factor(cases, failed, ratios, off):
    """The tensors whose std is off by one known factor on every failing test, named by the
    tensors themselves (a name that blamed the whole group would send a learner to fix the
    tensors that are right)."""
    groups = {g for g, _ in ratios}
    found = []
    for g in sorted(groups):
        seen = [i for (h, i) in ratios if h == g]
        if set(seen) != set(failed):
            return None
        fits = []
        for label, (value, says) in _STD_FACTORS.items():
            if all(_near(r, value(cases[i].args["config"].n_layer, want), n)
                   for (h, i), rs in ratios.items() if h == g for r, n, want in rs):
                fits.append((label, says))
        if len(fits) != 1:
            return None
        label, says = fits[0]
        whole = off[g] >= _GROUP_TENSORS[g]   # every tensor of the group: the group's own name
        tensors = g.split(" (")[0] if whole else ", ".join(sorted(off[g]))
        found.append((f"{tensors} {says}",
                      f"The standard deviation of the {g if whole else tensors} is {label} times GPT-2's on every test "
                      f"(std 0.02 for the weights, 0.02 / sqrt(2 * n_layer) for the two residual "
                      "projections)."))
    return found


def _near(ratio: float, value: float, n: int) -> bool:
    return abs(ratio - value) <= SIGMAS * value * math.sqrt(1.0 / n)


# ------------------------------------------------------------------ the dtype alone
def _dtype_only(exercise, cases, answers, expected, failed):
    pairs = set()
    for i in failed:
        if cases[i].raises or isinstance(answers[i], (Raised,) + NO_ANSWER):
            return None
        found = _dtype_pairs(answers[i], expected[i], _tol(exercise, cases[i]))
        if not found:
            return None
        pairs |= found
    if len(pairs) != 1:
        return None
    return [dtype_mistake(exercise, *next(iter(pairs)))]


def _dtype_pairs(answer, expected, tol):
    """{(the answer's dtype, the expected one)} when only dtypes differ, else None."""
    if isinstance(expected, (tuple, list)):
        if not isinstance(answer, (tuple, list)) or len(answer) != len(expected):
            return None
        found = set()
        for a, e in zip(answer, expected):
            sub = _dtype_pairs(a, e, tol)
            if sub is None and value_mismatch(a, e, tol) is not None:
                return None
            found |= sub or set()
        return found or None
    if isinstance(expected, dict):
        if not isinstance(answer, dict) or set(answer) != set(expected):
            return None
        found = set()
        for k in expected:
            sub = _dtype_pairs(answer[k], expected[k], tol)
            if sub is None and value_mismatch(answer[k], expected[k], tol) is not None:
                return None
            found |= sub or set()
        return found or None
    if isinstance(expected, np.generic) and type(answer) is float and expected.dtype.kind == "f":
        ok = value_mismatch(np.float64(answer), np.float64(expected), max(tol, FLOAT32_TOL)) is None
        return {("python float", str(expected.dtype))} if ok else None
    if not (is_plain_array(answer) and is_plain_array(expected)) or answer.shape != expected.shape:
        return None
    kinds = {answer.dtype.kind.replace("u", "i"), expected.dtype.kind.replace("u", "i")}
    if answer.dtype == expected.dtype or kinds not in ({"f"}, {"i"}):  # a float for an int: not the dtype alone
        return None
    loose = max(tol, FLOAT32_TOL) if "f" in answer.dtype.kind + expected.dtype.kind else tol
    if value_mismatch(answer.astype(np.float64), expected.astype(np.float64), loose) is not None:
        return None
    return {(str(answer.dtype), str(expected.dtype))}


def _tol(exercise, case):
    return case.tolerance(exercise.tolerance)


# ------------------------------------------------------------------ a crash in a product
def _matrices(args: dict):
    """(name, shape) of every 2-D float input, a dict's by its key."""
    for name, value in args.items():
        if isinstance(value, dict):
            for k, v in value.items():
                if is_plain_array(v) and v.ndim == 2 and v.dtype.kind == "f":
                    yield str(k), v.shape
        elif is_plain_array(value) and value.ndim == 2 and value.dtype.kind == "f":
            yield name, value.shape


def _transposed(exercise, cases, answers, expected, failed):
    values = [i for i, c in enumerate(cases) if not c.raises]
    if not values or not set(values) <= set(failed):
        return None
    readings, others = None, set()
    for i in values:
        a = answers[i]
        if not isinstance(a, Raised) or a.type_name not in ("ValueError", "RuntimeError"):
            return None
        sizes = product_sizes(a.message)
        if sizes is None:
            return None
        rows, needed = sizes
        here = set()
        for name, shape in _matrices(cases[i].args):
            if shape[0] == shape[1]:
                continue
            if shape == (needed, rows):
                here.add(("transposed", name))
            if shape == (rows, needed) and name in TRANSPOSED_BY_REFERENCE.get(exercise.name, ()):
                here.add(("untransposed", name))
        others |= {n for n, shape in _matrices(cases[i].args) if shape[0] == rows}
        readings = here if readings is None else readings & here
    if not readings or len(readings) != 1:
        return None
    how, name = next(iter(readings))
    # another input with as many rows, multiplied as it is, crashes the same way: name it beside
    others = sorted(others - {name})
    besides = f", or {' or '.join(f'`{o}`' for o in others)} in its place" if others else ""
    if how == "transposed":
        return [(f"`{name}` used transposed{besides}",
                 f"Every test fails in a matrix product whose sizes are those of `{name}.T`: the "
                 f"course stores weights as (in, out), so multiply by `{name}` itself (x @ {name}); "
                 "(out, in) is nn.Linear's layout, not this one.")]
    return [(f"`{name}` used without its transpose{besides}",
             f"Every test fails in a matrix product whose sizes are those of `{name}` itself: the "
             f"head multiplies by `{name}.T`, (d, V), to give one logit per vocabulary entry.")]


# ------------------------------------------------------------------ the batch axis
_AXIS = re.compile(r"axis -?\d+ is out of bounds for array of dimension \d+|"
                   r"Dimension out of range|tuple index out of range")
def _batch_axis(exercise, cases, answers, expected, failed):
    values = [i for i, c in enumerate(cases) if not c.raises]
    ndims = {}
    for i in values:
        for name, value in cases[i].args.items():
            if is_plain_array(value):
                ndims.setdefault(name, []).append(value.ndim)
    varying = [n for n, d in ndims.items() if len(d) == len(values) and len(set(d)) > 1]
    if not varying:
        return None
    name = varying[0]
    low = min(cases[i].args[name].ndim for i in values)
    batched = {i for i in values if cases[i].args[name].ndim > low}
    if any(isinstance(answers[i], NO_ANSWER) for i in failed) or len(batched) == len(values):
        return None
    if set(failed) == set(values) - batched and all(
            isinstance(answers[i], Raised) and _AXIS.search(answers[i].message) for i in failed):
        return [("axis counted from the front",
                 f"Your function is right on every `{name}` with a leading batch axis and fails on every "
                 "one without it, for an axis that does not exist there: an axis counted from the front "
                 "(axis=2 is the last axis of (B, T, d) only). Count from the end: axis=-1.")]
    wrong = set(failed) & set(values)
    if not wrong or not wrong <= batched or any(cases[i].args[name].ndim == low for i in failed):
        return None   # right on every input without the axis; wrong only on inputs with it...
    if len(wrong) < 2 or 2 * len(wrong) < len(batched):
        return None   # ...and on most of them (a batch of B == T can pass by chance; one odd case tells nothing)
    return [("leading batch axis not handled",
             f"Your function is right on every `{name}` without a batch axis and wrong on every one "
             "with a leading (B, ...) axis: count axes from the end (axis=-1, x.shape[-1], "
             "idx.shape[-1] for T) and let arrays broadcast over the leading axes; len(idx) and "
             "idx.shape[0] are the batch size when there is one.")]


# ------------------------------------------------------------------ exp overflowing
def _exp_limit(value) -> float | None:
    """The largest |x| whose exp is finite in this input's dtype (709.8 in float64), or None."""
    if is_plain_array(value) and value.dtype.kind == "f" and value.size:
        return math.log(float(np.finfo(value.dtype).max))
    return None


def _large(case: Case) -> bool:
    return any(limit is not None and float(np.nanmax(np.abs(v))) > limit
               for v in case.args.values() for limit in (_exp_limit(v),))


def _not_finite(answer) -> bool:
    """NumPy's or Python's crash (not a check of the learner's), or a NaN or inf among the numbers."""
    if isinstance(answer, Raised):
        return answer.own is False
    if isinstance(answer, tuple):
        return any(_not_finite(a) for a in answer)
    if type(answer) is float:
        return not math.isfinite(answer)
    if (isinstance(answer, np.generic) or is_plain_array(answer)) and answer.dtype.kind == "f":
        return not bool(np.isfinite(answer).all())
    return False


def _overflow(exercise, cases, answers, expected, failed):
    """Every failing case is one whose inputs lie beyond exp's range in their dtype, and the answer
    there is NaN or infinite (or NumPy crashed on such numbers); an input within the range passes."""
    values = [i for i, c in enumerate(cases) if not c.raises]
    if not failed or set(failed) - set(values):
        return None
    if not all(_large(cases[i]) and _not_finite(answers[i]) and not _not_finite(expected[i]) for i in failed):
        return None
    if not any(i not in failed and not _large(cases[i]) for i in values):
        return None
    own = [m for m in exercise.mistakes if "without subtracting the max" in m.name]
    if len(own) == 1:   # the catalogue's own name for it (one name for one mistake)
        return [(own[0].name, own[0].explanation)]
    return [("exp overflows on large inputs (no max subtracted)",
             "Your answer is right on every test but those with inputs beyond exp's range (exp(x) is "
             "inf from x = 710 in float64, 89 in float32), where it is NaN or infinite or NumPy stops "
             "on such numbers: inf / inf is NaN. Subtract each row's maximum first: exp(x - max) / sum(exp(x - max)) is the same "
             "softmax, and its largest term is exp(0) = 1.")]


# ------------------------------------------------------------------ the reference on changed inputs
# GPT-2 small's sizes, which a learner may type where the exercise passes them in
_GPT2_SMALL = {"n_head": 12, "n_layer": 12, "d": 768, "n_embd": 768}


def _changes(case: Case):
    """(what, label, the arguments changed) for the readings tried."""
    floats = {n: v for n, v in case.args.items() if is_plain_array(v) and v.dtype.kind == "f"}
    for name, value in case.args.items():
        if name == "layer" and isinstance(value, int) and value > 0 and not isinstance(value, bool):
            yield ("layer 0", "every block given layer 0's parameters",
                   "Block i must read h.{i}.*: use the layer argument in every key, not 0.",
                   dict(case.args, layer=0))
        if name in _GPT2_SMALL and type(value) is int and value != _GPT2_SMALL[name]:
            yield (f"{name} fixed", f"`{name}` hard-coded as {_GPT2_SMALL[name]}",
                   f"Your answer is the one for {name}={_GPT2_SMALL[name]} (GPT-2 small's) whatever "
                   f"`{name}` is passed: use the argument.",
                   dict(case.args, **{name: _GPT2_SMALL[name]}))
        if is_plain_array(value) and value.ndim == 2 and value.dtype.kind == "f" and value.shape[0] > 1:
            for how, rows in (("slice", value[1:]), ("roll", np.roll(value, -1, axis=0))):
                yield (f"{name} shift {how}", f"{name} rows shifted by one",
                       f"Your answer is the reference's with row t + 1 of `{name}` where row t belongs "
                       f"({name}[1:T + 1] for {name}[:T]): positions count from 0.",
                       dict(case.args, **{name: rows}))
    for name, value in floats.items():
        if value.ndim == 1 and name.startswith("b"):   # a bias: b_qkv, b_fc, bias
            yield (f"{name} zero", f"bias `{name}` left out",
                   f"Your answer is the reference's with `{name}` all zeros: add `{name}` where "
                   "its layer's product is computed.",
                   dict(case.args, **{name: np.zeros_like(value)}))
        if value.ndim == 2 and value.shape[0] == value.shape[1] and name.startswith("w"):
            bias = "b" + name[1:]
            changed = {name: np.eye(value.shape[0], dtype=value.dtype)}
            if bias in floats and floats[bias].shape == value.shape[:1]:
                changed[bias] = np.zeros_like(floats[bias])
            also = f" and `{bias}`" if bias in changed else ""
            yield (f"{name} identity", f"the projection `{name}` left out",
                   f"Your answer is the reference's without the product by `{name}`{also}: apply "
                   "that last projection to the merged result.",
                   dict(case.args, **changed))
    for name, value in floats.items():
        if value.ndim == 2 and name not in ("wte", "E"):   # (the tied tables are used transposed by design)
            yield (f"{name} transposed", f"`{name}` read transposed (its columns for its rows)",
                   f"Your answer is the reference's for `{name}.T`: the rows of `{name}` are the "
                   "vectors to work on (axis 0 counts them, axis -1 is their length).",
                   dict(case.args, **{name: value.T}))
    names = sorted(floats)
    for k, a in enumerate(names):
        for b in names[k + 1:]:
            if floats[a].shape == floats[b].shape:
                yield (f"{a}<->{b}", f"`{a}` and `{b}` swapped",
                       f"Your answer is the reference's with `{a}` and `{b}` exchanged: use each where "
                       "the exercise's formula puts it.",
                       dict(case.args, **{a: floats[b], b: floats[a]}))
    for name, value in case.args.items():   # a parameter dict's position table (gpt_logits' P)
        v = value.get("wpe") if isinstance(value, dict) else None
        if is_plain_array(v) and v.ndim == 2 and v.shape[0] > 1:
            yield ("wpe shift", "wpe rows shifted by one",
                   "Your answer is the reference's with row t + 1 of `wpe` where row t belongs "
                   "(wpe[1:T + 1] for wpe[:T]): positions count from 0.",
                   dict(case.args, **{name: dict(value, wpe=v[1:])}))


def _changed_reference(exercise, cases, answers, expected, failed):
    if exercise.reference is None or exercise.judge is not None or exercise.stored is not None:
        return None
    from .answers import call_answer
    values = [i for i, c in enumerate(cases) if not c.raises]
    failing = set(failed)
    if not failing or failing - set(values):
        return None
    changed = {i: {what: (name, explanation, args) for what, name, explanation, args in _changes(cases[i])}
               for i in values}
    candidates = {what for i in values for what in changed[i]}
    found = []
    for what in sorted(candidates):
        if not any(what in changed[i] for i in failing):
            continue
        for i in sorted(values, key=lambda j: j not in failing):  # the failing cases first
            if what not in changed[i]:
                if i in failing:   # the change does not apply here, so it cannot explain this
                    break
                continue
            theirs = call_answer(exercise.reference, Case(changed[i][what][2]))
            mine, tol = answers[i], _tol(exercise, cases[i])
            if isinstance(mine, Raised):
                alike = isinstance(theirs, Raised) and theirs.type_name == mine.type_name
            elif i not in failing and isinstance(theirs, Raised):
                alike = False
            else:
                alike = not isinstance(theirs, (Raised,) + NO_ANSWER) and value_mismatch(mine, theirs, tol) is None
            if not alike:
                break
        else:
            if all(isinstance(answers[i], Raised) for i in failing):
                continue   # crashes alike on every failing case: too little to tell a reading by
            name, explanation, _ = next(changed[i][what] for i in values if what in changed[i])
            if (name, explanation) not in found:   # two forms of one reading (a slice, a roll)
                found.append((name, explanation))
    return found if len(found) == 1 else None


# the order of the rules: the first that explains every failure decides (the module's docstring)
RULES = (_changed_inputs, extra_keys, _init_statistics, generator_unused, one_draw_for_all_rows, _dtype_only, _transposed, without_keepdims,
         constant_factor, size_factor, _batch_axis, input_used_whole, size_from_another_axis,
         size_from_the_data, _overflow,
         refusals, rearranged, rearranged_items, slice_off_by_one, _changed_reference, piece_mistake, constant_changed,
         one_step_more,
         constant_offset, axis_factors, count_difference, missing_layer, blocks_fixed, valid_input_refused,
         valid_input_crashed)

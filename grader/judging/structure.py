"""Diagnoses read off the model's structure (diagnoses.py runs these): a count that is off by
one term of the sizes, and blocks asked for that the parameters do not hold.
"""
from __future__ import annotations

import itertools
import re

import numpy as np

from .answers import call_answer
from .compare import value_mismatch
from .outcomes import Raised
from .registry import Case

MAX_COEFFICIENT = 8


def _monomials(names: list[str]):
    """Every product of one to three of the size names (with repeats): d, L·d, L·d·d, ..."""
    for degree in (1, 2, 3):
        yield from itertools.combinations_with_replacement(names, degree)


def _value(term, args) -> int:
    out = 1
    for n in term:
        out *= args[n]
    return out


def _label(terms) -> str:
    parts = []
    for c, term in terms:
        body = "·".join(term)
        parts.append(body if abs(c) == 1 else f"{abs(c)}·{body}")
    signs = [c for c, _ in terms]
    text = parts[0]
    for c, p in zip(signs[1:], parts[1:]):
        text += (" + " if (c > 0) == (signs[0] > 0) else " - ") + p
    return text


def count_difference(exercise, cases, answers, expected, failed):
    """Every failing count is off from the expected one by the same one or two terms of the
    sizes (integer multiples of L·d, d·d, V·d, ...), found by fitting the differences."""
    if not failed or any(cases[i].raises for i in failed):
        return None
    rows = []
    for i in failed:
        a, e = answers[i], expected[i]
        if type(a) not in (int, np.int64) or type(e) not in (int, np.int64) or a == e:
            return None
        sizes = {n: v for n, v in cases[i].args.items() if type(v) is int and v > 1}
        rows.append((int(a) - int(e), sizes))
    names = sorted(set.intersection(*(set(s) for _, s in rows)))
    if len(rows) < 3 or len(names) < 2:
        return None
    terms = list(_monomials(names))
    diffs = np.array([d for d, _ in rows], dtype=np.float64)
    columns = {t: np.array([_value(t, s) for _, s in rows], dtype=np.float64) for t in terms}
    fits = []
    for k in (1, 2):
        for chosen in itertools.combinations(terms, k):
            m = np.stack([columns[t] for t in chosen], axis=1)
            coef = np.linalg.lstsq(m, diffs, rcond=None)[0]
            ints = np.round(coef)
            if np.any(ints == 0) or np.any(np.abs(ints) > MAX_COEFFICIENT):
                continue
            if all(int(sum(int(c) * _value(t, s) for c, t in zip(ints, chosen))) == d for d, s in rows):
                fits.append(list(zip(ints.astype(int).tolist(), chosen)))
        if fits:
            break
    if len(fits) != 1:
        return None
    # the term of the highest degree first: it decides the sign ("too few") for any sizes of note
    terms = sorted(fits[0], key=lambda ct: (-len(ct[1]), -abs(ct[0])))
    what = _label(terms)
    few = "too few" if terms[0][0] < 0 else "too many"
    return [(f"{what} parameters {few}",
             f"On every failing test your count differs from the right one by exactly {what} "
             f"({', '.join(names)} as the test gives them): one term of that form is counted wrongly "
             "or left out (L·d is one vector of length d in every block; d·d one square matrix).")]


_LAYER_KEY = re.compile(r"h\.(\d+)\.")


def _layers(args) -> int | None:
    for value in args.values():
        if isinstance(value, dict):
            found = [int(m.group(1)) for k in value for m in [_LAYER_KEY.search(str(k))] if m]
            if found:
                return max(found) + 1
    return None


def missing_layer(exercise, cases, answers, expected, failed):
    """Every failing case raises KeyError for a block past the last one its parameters hold."""
    values = [i for i in failed if not cases[i].raises]
    if not values:
        return None
    for i in values:
        a, n = answers[i], _layers(cases[i].args)
        if not isinstance(a, Raised) or a.type_name != "KeyError" or n is None:
            return None
        m = _LAYER_KEY.search(a.message)
        if not m or int(m.group(1)) < n:
            return None
    return [("blocks run past the last one the parameters hold",
             "Every failing test stops with a KeyError for h.<i>.* where i is past the model's last "
             "block: read the number of blocks from the keys (the largest i in h.<i>. plus one), not "
             "from GPT-2 small's 12 or from the number of keys.")]


def blocks_fixed(exercise, cases, answers, expected, failed):
    """One count of blocks reproduces the learner on every case: a number typed in from an
    example (range(2)), or another integer input read as the count (range(n_head)). The
    reference run on the parameters cut to that many blocks where they hold more (failing),
    right where they hold exactly that many, a KeyError past the last block where they hold
    fewer. Named only when a single count fits."""
    if exercise.reference is None or exercise.judge is not None or not failed:
        return None
    values = [i for i, c in enumerate(cases) if not c.raises]
    if set(failed) - set(values):
        return None
    sizes = {i: _layers(cases[i].args) for i in values}
    if None in sizes.values():
        return None
    fitting = [(reading, counts) for reading, counts in _counts(cases, sizes)
               if _fits(counts, exercise, cases, answers, failed, sizes)]
    if len(fitting) != 1:
        return None
    (reading, counts), = fitting
    if isinstance(reading, int):
        return [(f"the number of blocks fixed at {reading}",
                 f"Your answer is the model's with its first {reading} blocks only, whatever the "
                 f"parameters hold: read the number of blocks from the keys (the largest i in "
                 f"h.<i>. plus one) instead of typing in {reading}.")]
    return [(f"the number of blocks taken from `{reading}`",
             f"Your answer runs as many blocks as `{reading}` says, whatever the parameters hold; "
             f"`{reading}` counts something else. Read the number of blocks from the keys (the "
             "largest i in h.<i>. plus one).")]


def _counts(cases, sizes):
    """(reading, {case: the count of blocks it gives}): every number below the largest model,
    and every integer input that differs from some case's number of blocks."""
    for k in range(1, max(sizes.values())):
        yield k, dict.fromkeys(sizes, k)
    names = set.intersection(*(set(cases[i].args) for i in sizes))
    for name in sorted(names):
        given = {i: cases[i].args[name] for i in sizes}
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in given.values()) \
                and len(set(given.values())) > 1:
            yield name, {i: int(v) for i, v in given.items()}


def _fits(counts, exercise, cases, answers, failed, sizes) -> bool:
    # the cases holding their count of blocks pass, every other fails, and one at least holds more
    if set(failed) != {i for i, n in sizes.items() if n != counts[i]} \
            or not any(n > counts[i] for i, n in sizes.items()):
        return False
    for i, n in sizes.items():
        a, k = answers[i], counts[i]
        if n < k:
            m = isinstance(a, Raised) and a.type_name == "KeyError" and _LAYER_KEY.search(a.message)
            if not m or int(m.group(1)) < n:
                return False
        elif n > k:
            theirs = call_answer(exercise.reference, _cut(cases[i], k))
            if isinstance(a, Raised) or value_mismatch(a, theirs, cases[i].tolerance(exercise.tolerance)) is not None:
                return False
    return True


def _cut(case, k):
    """The case with every params dict cut to its first k blocks."""
    args = {name: ({key: v for key, v in value.items()
                    if not (m := _LAYER_KEY.search(str(key))) or int(m.group(1)) < k}
                   if isinstance(value, dict) else value)
            for name, value in case.args.items()}
    return Case(args)


def extra_keys(exercise, cases, answers, expected, failed):
    """Every failing answer is a dict holding every key asked for and the same few more, and passes
    once those are left out: tensors the exercise does not ask for (a separate head)."""
    from .reshapes import _passes   # the exercise's own comparison, its judge where it has one
    if not failed or any(cases[i].raises for i in failed):
        return None
    common = None
    for i in failed:
        a, e = answers[i], expected[i]
        if not (isinstance(a, dict) and isinstance(e, dict)) or set(e) - set(a) or set(a) == set(e):
            return None
        if not _passes(exercise, cases[i], {k: a[k] for k in e}, e):
            return None
        here = {re.sub(r"^(transformer\.)?h\.\d+\.", "h.*.", str(k)) for k in set(a) - set(e)}
        common = here if common is None else common & here
        if common != here:
            return None
    keys = ", ".join(f"`{k}`" for k in sorted(common))
    tied = (" GPT-2's output head is `wte` itself (logits = h @ wte.T): there is no head tensor."
            if any("head" in k for k in common) else "")
    return [(f"extra {keys} in the dict",
             f"Your dict holds every tensor asked for, right, and {keys} besides, which the exercise "
             f"does not ask for: return exactly its keys.{tied}")]

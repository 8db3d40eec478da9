"""The seed rule: a function given a ``seed`` must be reproducible from it, and
a function given a random generator ``rng`` must draw from it.

Judged across cases: on the statistics summaries of grader/judging/stats.py for seeds
(all the student edition stores of such an answer), exactly for generators.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .stats import summarize
from .wire import is_plain_array, same_value


@dataclass(frozen=True)
class SeedMismatch:
    """How a case compares with the case ``earlier`` (the same other arguments): kind
    "repeat" (another seed, the same numbers) or "differ" (the same seed, other
    numbers), first seen in the tensor ``key``."""

    earlier: int
    kind: str
    key: str
    via: str = "seed"   # "rng": the cases differ in a generator argument named ``key``

    def same_as(self, other) -> bool:
        return isinstance(other, SeedMismatch) and (self.earlier, self.kind) == (other.earlier, other.kind)

    def describe(self) -> str:
        if self.via == "rng":
            return self._describe_rng()
        if self.kind == "repeat":
            return (f"another seed gave the same numbers as test {self.earlier + 1} ({self.key!r} "
                    "starts with the same values): the arrays must come from the seed argument, "
                    "through np.random.default_rng(seed)")
        return (f"the config and seed of test {self.earlier + 1} gave other numbers ({self.key!r} "
                "differs): the same seed must give the same arrays, so create the generator "
                "from the seed argument, np.random.default_rng(seed)")

    def _describe_rng(self) -> str:
        if self.kind == "repeat":
            return (f"`{self.key}` in another state gave the same result as test {self.earlier + 1}: "
                    f"draw from the generator you are given, `{self.key}`, not from one of your own "
                    "with a fixed seed")
        return (f"the inputs of test {self.earlier + 1}, with `{self.key}` in the same state, gave "
                f"another result: draw every random number from `{self.key}` (not np.random.* or "
                "a generator of your own), so that the same state gives the same result")


def seed_mismatches(cases, answers) -> dict[int, SeedMismatch]:
    """A function given a ``seed`` argument must be reproducible from it: two cases
    whose other arguments are equal must give the same dict of arrays when their
    seeds are equal, and different arrays (no random tensor starting with the same
    values) when they are not. Returns {later case: mismatch with the first earlier
    case that shows one}.

    One case cannot show this, so the judge compares cases in order. It compares the
    summaries of grader/judging/stats.py (each random tensor's leading values, normalised,
    plus its statistics), which is all the student edition stores of an answer, so
    check(), the batch grader and the student edition judge alike. Cases without a
    ``seed`` argument, and answers that are not dicts, are left alone.
    """
    found = generator_mismatches(cases, answers)
    seeded = [i for i, c in enumerate(cases) if "seed" in c.args and isinstance(answers[i], dict)]
    if len(seeded) < 2:
        return found
    summaries = {i: summarize(answers[i]) for i in seeded}
    for n, j in enumerate(seeded):
        for i in seeded[:n]:
            if not _same_but_seed(cases[i].args, cases[j].args):
                continue
            if _equal(cases[i].args["seed"], cases[j].args["seed"]):
                kind, key = "differ", _first_different(summaries[i], summaries[j])
            else:
                kind, key = "repeat", _first_repeated(summaries[i], summaries[j])
            if key is not None:
                found[j] = SeedMismatch(i, kind, key)
                break
    return found


def generator_mismatches(cases, answers) -> dict[int, SeedMismatch]:
    """The same rule for a function given a random generator: two cases whose other
    arguments are equal must give the same answer when their generators start in the
    same state, and another answer when they do not. So a function that draws from
    np.random.* (or a generator of its own) instead of the one it is given fails one
    case of such a pair. Answers (arrays, or tuples of them) are compared exactly."""
    drawn = [i for i, c in enumerate(cases) if _generator_key(c.args) and _comparable(answers[i])]
    found = {}
    for n, j in enumerate(drawn):
        key = _generator_key(cases[j].args)
        for i in drawn[:n]:
            a, b = cases[i].args, cases[j].args
            if _generator_key(a) != key or not _same_but_seed(a, b, key):
                continue
            same_state = a[key].bit_generator.state == b[key].bit_generator.state
            same_answer = same_value(answers[i], answers[j])
            if same_state != same_answer:
                found[j] = SeedMismatch(i, "differ" if same_state else "repeat", key, via="rng")
                break
    return found


def _generator_key(args: dict) -> str | None:
    return next((k for k, v in args.items() if isinstance(v, np.random.Generator)), None)


def _comparable(answer) -> bool:
    if isinstance(answer, tuple):
        return bool(answer) and all(is_plain_array(a) for a in answer)
    return is_plain_array(answer)


def _equal(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return is_plain_array(a) and is_plain_array(b) and a.dtype == b.dtype and np.array_equal(a, b)
    try:
        return bool(type(a) is type(b) and a == b)
    except Exception:
        return False


def _same_but_seed(a: dict, b: dict, seed: str = "seed") -> bool:
    return set(a) == set(b) and all(_equal(a[k], b[k]) for k in a if k != seed)


def _first_different(a: dict, b: dict) -> str | None:
    for key in list(a) + [k for k in b if k not in a]:
        if key not in a or key not in b or not _close_stats(a[key], b[key]):
            return key
    return None


def _close_stats(a, b) -> bool:
    """Two tensors' statistics equal up to rounding (plain floats: math, not NumPy, for speed)."""
    if not (isinstance(a, dict) and isinstance(b, dict)) or set(a) != set(b):
        return a == b
    return all(_close(a[k], b[k]) for k in a)


def _close(x, y) -> bool:
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(_close(p, q) for p, q in zip(x, y))
    if isinstance(x, (int, float)) and isinstance(y, (int, float)) \
            and not isinstance(x, bool) and not isinstance(y, bool):
        return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
    return x == y


def _first_repeated(a: dict, b: dict) -> str | None:
    for key in a:
        f = a[key].get("fingerprint") if isinstance(a[key], dict) else None
        g = b[key].get("fingerprint") if isinstance(b.get(key), dict) else None
        if f is not None and g is not None and len(f) == len(g) and \
                all(math.isclose(p, q, rel_tol=0.0, abs_tol=1e-9) for p, q in zip(f, g)):
            return key
    return None


def generator_unused(exercise, cases, answers, expected, failed):
    """A diagnosis (diagnoses.py's rule): two cases alike but for the generator's state, in the
    same state, answered differently, so the random numbers come from elsewhere. (The same
    answer from two states is not named: an answer that draws nothing does the same.)"""
    keys = {m.key for m in generator_mismatches(cases, answers).values() if m.kind == "differ"}
    if len(keys) != 1:
        return None
    key, = keys
    return [(f"random numbers not drawn from {key}",
             f"Two calls with `{key}` in the same state gave different results, so the draws "
             f"come from np.random.* or a generator of your own: draw every random number "
             f"from `{key}` ({key}.integers, {key}.random, {key}.choice).")]

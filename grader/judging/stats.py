"""Statistical grading of an initialisation (`init_gpt`), from summaries.

A learner may draw the numbers in any order, so an answer is compared with
the reference tensor by tensor through summary statistics, with a tolerance
that follows each tensor's size. A summary is plain JSON, so the student
edition stores the reference's and each mistake's summaries instead of code,
and its check() judges and names mistakes exactly as the full grader does.
"""
from __future__ import annotations

import math

import numpy as np

from .details import keys_differ
from .wire import is_plain_array

SIGMAS = 6.0               # a correct answer fails a statistic with probability ~1e-9
KURTOSIS_MIN_SIZE = 4096   # below this the sample kurtosis is too noisy to judge
FINGERPRINT = 8            # leading values compared to spot tensors drawn from one stream


class Summary(dict):
    """{key: statistics of that tensor}; marks data that is already summarised."""


def tensor_stats(t) -> dict:
    """What the judge needs to know about one tensor."""
    if not is_plain_array(t):
        return {"bad": "is not a NumPy array of numbers"}
    stats = {"shape": list(t.shape), "dtype": str(t.dtype), "finite": bool(np.isfinite(t).all())}
    if not stats["finite"] or t.size == 0:
        return stats
    v = np.asarray(t, dtype=np.float64).ravel()  # no copy for float64
    lo, hi = float(v.min()), float(v.max())
    if lo == hi:
        return stats | {"constant": lo}
    mean = float(v.mean())
    centred = v - mean
    var = float(np.dot(centred, centred)) / v.size
    std = var ** 0.5
    head = v[:FINGERPRINT]
    norm = float(np.linalg.norm(head))
    kurtosis = None
    if v.size >= KURTOSIS_MIN_SIZE and var:  # the judge looks at it only for large tensors
        sq = centred * centred
        kurtosis = float(np.dot(sq, sq)) / v.size / (var * var)
    return stats | {"n": int(v.size), "mean": mean, "std": std, "kurtosis": kurtosis,
                    "fingerprint": (head / norm).tolist() if norm and head.size == FINGERPRINT else None}


_recent: dict[int, tuple[dict, Summary]] = {}  # id -> (the dict, kept alive so ids stay unique)
RECENT = 16


def summarize(params) -> Summary | object:
    """A dict of tensors becomes a Summary; anything else is returned unchanged.
    A learner's answer is judged against the reference and then every mistake, so
    the last few summaries are remembered (the reference's and the mistakes' answers
    are summarised once, where they are cached: see ``summaries``)."""
    if isinstance(params, Summary) or not isinstance(params, dict):
        return params
    hit = _recent.get(id(params))
    if hit is not None and hit[0] is params:
        return hit[1]
    summary = Summary({k: tensor_stats(v) for k, v in params.items()})
    if len(_recent) >= RECENT:
        _recent.pop(next(iter(_recent)))
    _recent[id(params)] = (params, summary)
    return summary


def summaries(answers: list) -> list:
    """Answers as the judge needs them: dicts of tensors become Summaries."""
    return [summarize(a) for a in answers]


def init_judge(answer, case, expected, tol: float) -> str | None:
    """Does ``answer`` look like a draw from the same initialisation as ``expected``?

    Shapes, dtypes and keys must match exactly; tensors that are constant in
    ``expected`` (biases, LayerNorm) must be equal; random tensors must match in
    mean, standard deviation (and, for large ones, kurtosis) within SIGMAS
    sampling standard errors. ``tol`` (for value-by-value grading) is not used.
    """
    if not isinstance(answer, dict):
        return f"returned a {type(answer).__name__}; expected a dict from parameter names to arrays"
    answer, expected = summarize(answer), summarize(expected)
    if any("head" in k for k in set(answer) - set(expected)):
        return ("the dict holds a separate output head (a key naming a head); GPT-2 ties the head "
                "to wte, so there is no head tensor")
    differ = keys_differ(expected, answer)
    if differ:
        return differ
    random_keys = []
    for key, e in expected.items():
        reason = _compare_tensor(key, answer[key], e)
        if reason:
            return reason
        if "constant" not in e:
            random_keys.append(key)
    pair, expected_pair = _repeated_draws(answer, random_keys), _repeated_draws(expected, random_keys)
    if pair and not expected_pair:
        return (f"{pair[1]!r} repeats the numbers of {pair[0]!r}: seed one generator once "
                "and draw every tensor from it")
    if expected_pair and not pair:  # only when judging against a variant's answer
        return "the tensors do not repeat each other's numbers"
    return None


def _compare_tensor(key: str, a: dict, e: dict) -> str | None:
    if "bad" in a:
        return f"{key!r} {a['bad']}"
    if a["shape"] != e["shape"]:
        return f"{key!r} has shape {tuple(a['shape'])}, expected {tuple(e['shape'])}"
    if a["dtype"] != e["dtype"]:
        return f"{key!r} has dtype {a['dtype']}, expected {e['dtype']}"
    if not a["finite"]:
        return f"{key!r} holds NaN or infinite values"
    if "constant" in e:
        if a.get("constant") != e["constant"]:
            return f"{key!r} is not constant: {_what_constant(key, e['constant'])}"
        return None
    return _compare_random(key, a, e)


def _what_constant(key: str, value: float) -> str:
    if key.endswith(".bias"):
        return f"biases start at exactly {value:g}"
    return f"LayerNorm gains start at exactly {value:g}"


def _compare_random(key: str, a: dict, e: dict) -> str | None:
    se = e["std"]
    if "constant" in a:
        return f"{key!r} is constant; it should be random with std about {se:.4f}"
    na, ne, sa = a["n"], e["n"], a["std"]
    # the sample std of n normal draws has a standard error of about std / sqrt(2 n)
    if abs(sa - se) > SIGMAS * se * math.sqrt(1.0 / (2 * na) + 1.0 / (2 * ne)):
        return f"{key!r} has standard deviation {sa:.4f}, expected about {se:.4f}"
    if abs(a["mean"] - e["mean"]) > SIGMAS * se * math.sqrt(1.0 / na + 1.0 / ne):
        return f"{key!r} has mean {a['mean']:.4f}, expected about {e['mean']:.4f}"
    if min(na, ne) >= KURTOSIS_MIN_SIZE and \
            abs(a["kurtosis"] - e["kurtosis"]) > SIGMAS * math.sqrt(24.0 / na + 24.0 / ne):
        return f"{key!r} does not look normally distributed (use a normal distribution)"
    return None


def _repeated_draws(summary: Summary, keys) -> tuple[str, str] | None:
    """Two tensors that start with the same numbers (one generator re-seeded per tensor).
    Fingerprints are scale-free, so equal streams give equal fingerprints up to rounding."""
    seen: dict[tuple, str] = {}
    for k in keys:
        f = summary[k].get("fingerprint")
        if f is None:
            continue
        key = tuple(round(x, 9) for x in f)
        if key in seen:
            return seen[key], k
        seen[key] = k
    return None

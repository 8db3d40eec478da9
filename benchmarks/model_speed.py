"""The course's forward pass against what a user would pick instead, on the same weights.

1. torch_gpt.GPT against Hugging Face's GPT2LMHeadModel: GPT-2 small with
   random weights (built offline from a GPT2Config, its state dict loaded into
   the course's model), CPU float32, batch 1, T = 64, 256, 1024, both in eval
   mode under torch.inference_mode. Target: course / HF time <= 0.95x.
2. numpy_gpt.gpt_logits (float32 parameters, float32 logits) against the
   course's torch module. Target: NumPy / torch time <= 2.0x.

Before timing, the three must give the same logits within float32 rounding.
Run: .venv/bin/python benchmarks/model_speed.py [--repeats N] [--lengths 64,256,1024] [--profile]
(default rounds: 5120 // T, between 5 and 15: more where a call is short)
"""
from __future__ import annotations

import _timing  # noqa: I001  (first: it fixes the BLAS threads before NumPy loads)

import argparse
import sys

import numpy as np
import torch

import _profiles
import _report
from _report import Target

sys.path.insert(0, str(_report.ROOT))
from gpt2course import numpy_gpt, state_dicts  # noqa: E402
from gpt2course.config import GPT2_SMALL  # noqa: E402
from gpt2course.torch_gpt import GPT  # noqa: E402

COURSE_VS_HF = 0.95   # course time / HF time, at most
NUMPY_VS_TORCH = 2.0  # NumPy time / course torch time, at most
SAME_LOGITS = 1e-5    # max |difference| / max |logit|: float32 rounding, summed over 12 layers


def default_rounds(T: int) -> int:
    """Short calls get more rounds (a busy machine's bursts then fall on both sides alike)."""
    return min(15, max(5, 5120 // T))


def build(seed: int = 0):
    """HF's model with random GPT-2 small weights, and the course's two models holding the same."""
    from transformers import GPT2Config, GPT2LMHeadModel
    from transformers.utils import logging

    logging.set_verbosity_error()
    torch.manual_seed(seed)
    hf = GPT2LMHeadModel(GPT2Config()).eval()  # GPT2Config() is GPT-2 small
    state = hf.state_dict()
    course = GPT.from_pretrained(state, config=GPT2_SMALL).eval()
    params = state_dicts.params_from_state_dict(state, dtype=np.float32)
    assert {p.dtype for p in params.values()} == {np.dtype(np.float32)}
    return hf, course, params


def forwards(hf, course, params, T: int, seed: int = 0) -> dict:
    """The three contestants, each a call on the same batch of one random sequence of T ids."""
    ids = np.random.default_rng(seed).integers(0, GPT2_SMALL.vocab_size, (1, T))
    idx = torch.as_tensor(ids)
    return {
        # use_cache=False: a plain forward, as the course's; HF would otherwise also build a cache
        "Hugging Face": lambda: hf(idx, use_cache=False).logits,
        "course torch": lambda: course(idx),
        "course NumPy": lambda: numpy_gpt.gpt_logits(params, ids, GPT2_SMALL.n_head),
    }


def check_same_logits(runs: dict) -> dict[str, float]:
    """Each model's largest difference from the course's torch logits, relative to the largest logit."""
    with torch.inference_mode():
        ours = runs["course torch"]().numpy()
        hf = runs["Hugging Face"]().numpy()
    numpy_logits = runs["course NumPy"]()
    assert numpy_logits.dtype == np.float32, f"NumPy logits are {numpy_logits.dtype}, not float32"
    scale = np.abs(ours).max()
    diffs = {"Hugging Face": float(np.abs(hf - ours).max() / scale),
             "course NumPy": float(np.abs(numpy_logits - ours).max() / scale)}
    for name, diff in diffs.items():
        assert diff < SAME_LOGITS, f"{name} differs from the course's torch logits by {diff:.1e} (relative)"
    return diffs


def measure(hf, course, params, lengths: list[int], repeats: int | None) -> list[dict]:
    rows = []
    for T in lengths:
        runs = forwards(hf, course, params, T)
        diffs = check_same_logits(runs)
        rounds = repeats or default_rounds(T)
        with torch.inference_mode():
            times = _timing.side_by_side(runs, rounds)
        row = {"T": T, "rounds": rounds, "diffs": diffs,
               **{name: _timing.median(ts) for name, ts in times.items()},
               "course/HF": _timing.paired_ratio(times, "course torch", "Hugging Face"),
               "NumPy/torch": _timing.paired_ratio(times, "course NumPy", "course torch"),
               "course/HF best": _timing.best_ratio(times, "course torch", "Hugging Face"),
               "NumPy/torch best": _timing.best_ratio(times, "course NumPy", "course torch")}
        print(f"T={T:5d}  HF {row['Hugging Face'] * 1e3:8.1f} ms  course {row['course torch'] * 1e3:8.1f} ms  "
              f"NumPy {row['course NumPy'] * 1e3:8.1f} ms  course/HF {row['course/HF']:.2f}x  "
              f"NumPy/torch {row['NumPy/torch']:.2f}x  (logits within {max(diffs.values()):.1e})")
        rows.append(row)
    return rows


def targets(rows: list[dict]) -> list[Target]:
    out = []
    for row in rows:
        out.append(Target(f"course torch / HF time, T={row['T']}", row["course/HF"], COURSE_VS_HF))
        out.append(Target(f"NumPy / course torch time, T={row['T']}", row["NumPy/torch"], NUMPY_VS_TORCH))
    return out


def profiles(hf, course, params, rows: list[dict], found: list[Target], force: bool) -> str:
    """Top entries of the profiles, at the length where each missed target is missed worst."""
    parts = []
    torch_missed = [r for r, t in zip(rows, found[0::2]) if force or not t.met]
    numpy_missed = [r for r, t in zip(rows, found[1::2]) if force or not t.met]
    if torch_missed:
        T = max(torch_missed, key=lambda r: r["course/HF"])["T"]
        runs = forwards(hf, course, params, T)
        parts.append(_profiles.torch_compared(runs["course torch"], runs["Hugging Face"], f"forward, T={T}"))
    if numpy_missed:
        T = max(numpy_missed, key=lambda r: r["NumPy/torch"])["T"]
        runs = forwards(hf, course, params, T)
        parts += [f"### Profile: NumPy forward, T={T} (cProfile, 2 calls; NumPy's own work is "
                  "counted in the course function that calls it)", _profiles.python_top(runs["course NumPy"]),
                  f"### Profile: course torch forward, T={T}, for comparison",
                  _profiles.torch_table(_profiles.torch_profile(runs["course torch"]))]
    return "\n\n".join(parts)


def body(rows: list[dict], hf, profile_md: str) -> str:
    table = ["| T | rounds | Hugging Face (ms) | course torch (ms) | course NumPy (ms) | course / HF "
             "(best) | NumPy / torch (best) | logits: HF, NumPy vs course (relative) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        table.append(f"| {r['T']} | {r['rounds']} | {r['Hugging Face'] * 1e3:.0f} | {r['course torch'] * 1e3:.0f} | "
                     f"{r['course NumPy'] * 1e3:.0f} | {r['course/HF']:.2f}x ({r['course/HF best']:.2f}x) | "
                     f"{r['NumPy/torch']:.2f}x ({r['NumPy/torch best']:.2f}x) | "
                     f"{r['diffs']['Hugging Face']:.1e}, {r['diffs']['course NumPy']:.1e} |")
    attn = getattr(hf.config, "_attn_implementation", "?")
    return (f"GPT-2 small (124M) with random weights from `GPT2LMHeadModel(GPT2Config())` (seed 0), "
            f"loaded into `GPT.from_pretrained` and `state_dicts.params_from_state_dict(..., np.float32)`; "
            f"CPU float32, batch 1, eval mode, `torch.inference_mode()`; Hugging Face called as "
            f"`model(idx, use_cache=False)` with its default attention (`{attn}`). Times are medians of "
            f"the interleaved rounds after one warm-up round; ratios are medians of the per-round "
            f"ratios (in brackets: the ratio of the best times, a check on the median when the "
            f"machine is busy). The run first checks that the three give the same logits (largest "
            f"difference relative to the largest logit, last column).\n\n" + "\n".join(table)
            + ("\n\n" + profile_md if profile_md else ""))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=None, help="rounds per length (default: 5120 // T, 5..15)")
    parser.add_argument("--lengths", default="64,256,1024")
    parser.add_argument("--profile", action="store_true", help="profile even where the targets are met")
    args = parser.parse_args(argv)
    _timing.same_threads()
    hf, course, params = build()
    info = _report.machine()
    print(_report.machine_line(info))
    rows = measure(hf, course, params, [int(t) for t in args.lengths.split(",")], args.repeats)
    found = targets(rows)
    profile_md = profiles(hf, course, params, rows, found, args.profile)
    _report.print_targets(found)
    print("wrote", _report.write_section("model_speed", body(rows, hf, profile_md), found, info))


if __name__ == "__main__":
    main()

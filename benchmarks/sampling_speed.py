"""Sampling with the KV cache: the course's loops against Hugging Face's `generate`, same weights.

GPT-2 small with random weights (as in model_speed.py), one prompt of
--prompt random ids, --new greedy tokens (greedy, so the three must produce the
same tokens: checked before timing), each with its KV cache:
sampling.sample_numpy (float32 parameters), sampling.sample_torch (the course's
GPT) and HF `model.generate(do_sample=False, use_cache=True)`, all in
torch.inference_mode with the same threads. Tokens per second counts the new
tokens over the whole call (prompt included). Target: course >= 1.2x HF.

Run: .venv/bin/python benchmarks/sampling_speed.py [--prompt 16] [--new 64] [--repeats 5] [--profile]
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
from model_speed import build

sys.path.insert(0, str(_report.ROOT))
from gpt2course import sampling  # noqa: E402
from gpt2course.config import GPT2_SMALL  # noqa: E402

COURSE_VS_HF = 1.2  # course tokens/s over HF tokens/s, at least


def samplers(hf, course, params, prompt_len: int, n_new: int, seed: int = 0) -> dict:
    """Three calls that each return the prompt followed by n_new greedy ids, shape (1, prompt_len + n_new)."""
    ids = np.random.default_rng(seed).integers(0, GPT2_SMALL.vocab_size, (1, prompt_len))
    idx = torch.as_tensor(ids)
    mask = torch.ones_like(idx)
    return {
        # min_new_tokens and no eos: random weights may well pick GPT-2's end-of-text id, and
        # generation must not stop early, or HF would do less work than the course's loops
        "Hugging Face generate": lambda: hf.generate(idx, attention_mask=mask, max_new_tokens=n_new,
                                                     min_new_tokens=n_new, do_sample=False, use_cache=True,
                                                     eos_token_id=None, pad_token_id=0),
        "course torch": lambda: sampling.sample_torch(course, idx, n_new, greedy=True),
        "course NumPy": lambda: torch.as_tensor(sampling.sample_numpy(params, ids, n_new, GPT2_SMALL.n_head,
                                                                      greedy=True)),
    }


def check_same_tokens(runs: dict, prompt_len: int) -> list[int]:
    """Greedy decoding on the same weights: every sampler must pick the same ids."""
    with torch.inference_mode():
        out = {name: run() for name, run in runs.items()}
    first, *others = out
    for name in others:
        same = out[name].shape == out[first].shape and bool(torch.equal(out[name], out[first]))
        assert same, f"{name} produced other tokens than {first}:\n{out[name].tolist()}\n{out[first].tolist()}"
    return out[first][0, prompt_len:].tolist()


def measure(runs: dict, n_new: int, repeats: int) -> dict:
    with torch.inference_mode():
        times = _timing.side_by_side(runs, repeats)
    rates = {name: n_new / _timing.median(ts) for name, ts in times.items()}
    # tokens/s ratio = HF's time / the course's time, paired by round
    ratios = {name: _timing.paired_ratio(times, "Hugging Face generate", name)
              for name in ("course torch", "course NumPy")}
    best = {name: _timing.best_ratio(times, "Hugging Face generate", name) for name in ratios}
    return {"rates": rates, "ratios": ratios, "best": best}


def block_products(blocks, x, x_wide) -> None:
    """One token through every block's four linear layers: the bulk of a cached step's work."""
    for block in blocks:
        block.attn.c_attn(x), block.attn.c_proj(x), block.mlp.c_fc(x), block.mlp.c_proj(x_wide)


def numpy_block_products(params: dict, x, x_wide) -> None:
    """The same products on the NumPy parameters, stored (in, out) like the checkpoint."""
    for layer in range(GPT2_SMALL.n_layer):
        w = lambda name: params[f"h.{layer}.{name}"]  # noqa: E731
        for name, row in (("attn.c_attn", x), ("attn.c_proj", x), ("mlp.c_fc", x), ("mlp.c_proj", x_wide)):
            row @ w(name + ".weight") + w(name + ".bias")


def one_row_products(hf, course, params, repeats: int = 30) -> dict[str, dict[str, float]]:
    """Why the samplers differ: a cached step is one row through every weight matrix.

    The models' own weights (about 0.5 GB, so they stream from memory as in sampling): the
    48 block products of one token, and the tied head, each way; median seconds.
    """
    d = GPT2_SMALL.n_embd
    x, x_wide = torch.randn(1, 1, d), torch.randn(1, 1, 4 * d)
    x_np, x_wide_np = x.numpy()[0], x_wide.numpy()[0]
    blocks = {"course torch": lambda: block_products(course.transformer.h, x, x_wide),
              "Hugging Face": lambda: block_products(hf.transformer.h, x, x_wide),
              "NumPy": lambda: numpy_block_products(params, x_np, x_wide_np)}
    head = {"course torch": lambda: course.lm_head(x), "Hugging Face": lambda: hf.lm_head(x),
            "NumPy": lambda: x_np @ params["wte"].T}
    out = {}
    for what, runs in (("48 block products", blocks), ("tied head", head)):
        with torch.inference_mode():
            times = _timing.side_by_side(runs, repeats, settle=0.0)
        out[what] = {way: _timing.median(ts) for way, ts in times.items()}
    return out


def one_row_table(products: dict[str, dict[str, float]]) -> str:
    table = ["| one token through | course torch (ms) | Hugging Face (ms) | NumPy (ms) | course / HF | "
             "course torch / NumPy |", "|---|---|---|---|---|---|"]
    for what, t in products.items():
        table.append(f"| {what} | {t['course torch'] * 1e3:.1f} | {t['Hugging Face'] * 1e3:.1f} | "
                     f"{t['NumPy'] * 1e3:.1f} | {t['course torch'] / t['Hugging Face']:.2f}x | "
                     f"{t['course torch'] / t['NumPy']:.2f}x |")
    return ("### One token's matrix products\n\nA cached decoding step multiplies one row by every "
            "weight matrix, so its time is mostly these products (`addmm` and `mm` in the profiles "
            "below). The course's `nn.Linear` stores each weight (out, in) and runs `x @ W.T`; Hugging "
            "Face's `Conv1D` stores it (in, out) and runs `x @ W`, as NumPy does on the course's "
            "parameter dict; the tied head is (V, d) everywhere. Same models, same threads, medians of "
            "30 interleaved calls:\n\n" + "\n".join(table))


def profiles(runs: dict, found: list[Target], force: bool) -> str:
    parts = []
    if force or not found[0].met:
        parts.append(_profiles.torch_compared(runs["course torch"], runs["Hugging Face generate"],
                                              "sampling, course torch against Hugging Face generate"))
    if force or not found[1].met:
        parts += ["### Profile: course NumPy sampling (cProfile, 2 calls; NumPy's own work is counted in "
                  "the course function that calls it)", _profiles.python_top(runs["course NumPy"])]
    return "\n\n".join(parts)


def body(result: dict, args, tokens: list[int], products_md: str, profile_md: str) -> str:
    table = ["| sampler | tokens/s | course / HF (best) |", "|---|---|---|"]
    for name, rate in result["rates"].items():
        ratio = f"{result['ratios'][name]:.2f}x ({result['best'][name]:.2f}x)" if name in result["ratios"] else ""
        table.append(f"| {name} | {rate:.1f} | {ratio} |")
    return (f"GPT-2 small with random weights (seed 0, as above), CPU float32, batch 1, a prompt of "
            f"{args.prompt} random ids, {args.new} new tokens, greedy, KV cache on for all three; "
            f"tokens/s = {args.new} / the median time of the whole call over {args.repeats} interleaved "
            f"rounds after one warm-up round; the ratio is the median of the per-round ratios (in "
            f"brackets: the ratio of the best times, a check on the median when the machine is busy). Before "
            f"timing, the three produced the same {args.new} ids (first ten: {tokens[:10]}).\n\n"
            + "\n".join(table) + "\n\n" + products_md + ("\n\n" + profile_md if profile_md else ""))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompt", type=int, default=16)
    parser.add_argument("--new", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="profile even where the targets are met")
    args = parser.parse_args(argv)
    _timing.same_threads()
    hf, course, params = build()
    info = _report.machine()
    print(_report.machine_line(info))
    runs = samplers(hf, course, params, args.prompt, args.new)
    tokens = check_same_tokens(runs, args.prompt)
    result = measure(runs, args.new, args.repeats)
    for name, rate in result["rates"].items():
        print(f"{name:24s} {rate:7.1f} tokens/s")
    found = [Target(f"{name} / HF generate tokens/s", result["ratios"][name], COURSE_VS_HF, "higher")
             for name in ("course torch", "course NumPy")]
    products = one_row_products(hf, course, params)
    for what, t in products.items():
        print(f"one token, {what:18s} " + "  ".join(f"{way} {s * 1e3:6.1f} ms" for way, s in t.items()))
    profile_md = profiles(runs, found, args.profile)
    _report.print_targets(found)
    text = body(result, args, tokens, one_row_table(products), profile_md)
    print("wrote", _report.write_section("sampling_speed", text, found, info))


if __name__ == "__main__":
    main()

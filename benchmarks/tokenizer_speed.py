"""GPT-2's tokenizer: the course's encoder against Hugging Face's GPT2Tokenizer and tiktoken, same texts.

The texts: the standard library docstrings the course trains on (data.corpus_texts), encoded one
text at a time by each contestant, in one process, interleaved. The course's encoder starts each
round with an empty word cache (a fresh Tokenizer), so building the cache is timed too; its rate
with the cache already warm is shown beside it. All three must produce the same ids (checked
before timing). Throughput is MB of UTF-8 per second. Targets: the course at least 1.0x Hugging
Face's GPT2Tokenizer (the issue's "slow tokenizer"; under transformers 5 that class is backed by
the Rust `tokenizers` library, so this is now a comparison with compiled code); the ratio to
tiktoken is recorded.

Then text in, text out: generation.generate_text (the course's tokenizer, the NumPy model with its KV
cache, greedy, float32) against Hugging Face's tokenizer, `generate(do_sample=False, use_cache=True)`
and decode, on the same random GPT-2 small weights (model_speed.build), after checking both give the
same ids. Tokens per second count the new tokens over the whole call; the ratio is recorded.

Run: .venv/bin/python benchmarks/tokenizer_speed.py [--repeats 5] [--new 32]
"""
from __future__ import annotations

import _timing  # noqa: I001  (first: it fixes the BLAS threads before NumPy loads)

import argparse
import sys
import tempfile
from pathlib import Path

import _report
from _report import Target

sys.path.insert(0, str(_report.ROOT))
from gpt2course import data, tokenizer as tk  # noqa: E402

COURSE_VS_HF = 1.0  # course MB/s over Hugging Face GPT2Tokenizer MB/s, at least


def contestants(texts: list[str]) -> dict:
    import tiktoken
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks
    from transformers import GPT2Tokenizer

    folder = Path(tempfile.mkdtemp())
    for name in ("encoder.json", "vocab.bpe"):
        (folder / name).write_bytes(tk.read_data_file(name))
    ranks = data_gym_to_mergeable_bpe_ranks(str(folder / "vocab.bpe"), str(folder / "encoder.json"))
    tt = tiktoken.Encoding("gpt2-offline", pat_str=tk.PATTERN, mergeable_ranks=ranks,
                           special_tokens={tk.EOT: 50256})
    hf = GPT2Tokenizer(str(folder / "encoder.json"), str(folder / "vocab.bpe"))
    warm = tk.Tokenizer(tk.load_vocab(), tk.load_ranks())
    vocab, merges = warm.vocab, warm.ranks
    return {
        "course (cache empty at start)": lambda: encode_all(tk.Tokenizer(vocab, merges), texts),
        "course (cache warm)": lambda: [warm.encode(t, disallowed_special=()) for t in texts][-1:],
        "Hugging Face GPT2Tokenizer": lambda: [hf.encode(t) for t in texts][-1:],
        "tiktoken": lambda: [tt.encode(t, disallowed_special=()) for t in texts][-1:],
    }, hf


def encode_all(tokenizer: tk.Tokenizer, texts: list[str]) -> list[list[int]]:
    """Every text through one tokenizer (its cache filling as it goes); the last text's ids."""
    return [tokenizer.encode(t, disallowed_special=()) for t in texts][-1:]


def check_same_ids(runs: dict, texts: list[str]) -> None:
    tok = tk.gpt2_tokenizer()
    for name, run in runs.items():  # spot check: the last text's ids
        assert run() == [tok.encode(texts[-1], disallowed_special=())], name


PROMPT = "The course builds GPT-2 exactly, first in NumPy and then in PyTorch, and"


def text_in_text_out(hf_tok, n_new: int) -> dict:
    """generate_text against Hugging Face's tokenizer + generate + decode, same weights, greedy."""
    import torch

    from gpt2course import generation
    from gpt2course.config import GPT2_SMALL
    from model_speed import build

    hf, _, params = build()

    def hugging_face():
        ids = torch.tensor([hf_tok.encode(PROMPT)])
        out = hf.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=n_new, min_new_tokens=n_new,
                          do_sample=False, use_cache=True, eos_token_id=None, pad_token_id=0)[0].tolist()
        return out, hf_tok.decode(out, clean_up_tokenization_spaces=False)

    runs = {"Hugging Face (tokenizer, generate, decode)": hugging_face,
            "course generate_text": lambda: generation.generate_text(PROMPT, params, GPT2_SMALL.n_head, n_new)}
    with torch.inference_mode():
        first, second = (run() for run in runs.values())
        assert first == second, f"different ids:\n{first[0]}\n{second[0]}"
        return _timing.side_by_side(runs, 3)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--new", type=int, default=32)
    args = parser.parse_args(argv)
    _timing.same_threads()
    texts = [t for t in data.corpus_texts() if tk.EOT not in t]
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    info = _report.machine()
    print(_report.machine_line(info))
    runs, hf_tok = contestants(texts)
    check_same_ids(runs, texts)
    times = _timing.side_by_side(runs, args.repeats)
    rates = {name: n_bytes / 1e6 / _timing.median(ts) for name, ts in times.items()}
    for name, rate in rates.items():
        print(f"{name:32s} {rate:6.2f} MB/s")
    course = "course (cache empty at start)"
    found = [Target("course / HF GPT2Tokenizer MB/s", _timing.paired_ratio(times, "Hugging Face GPT2Tokenizer", course),
                    COURSE_VS_HF, "higher"),
             Target("course / tiktoken MB/s", _timing.paired_ratio(times, "tiktoken", course))]
    gen = text_in_text_out(hf_tok, args.new)
    gen_rates = {name: args.new / _timing.median(ts) for name, ts in gen.items()}
    for name, rate in gen_rates.items():
        print(f"{name:44s} {rate:6.1f} tokens/s")
    found.append(Target("generate_text / HF tokenizer+generate+decode tokens/s",
                        _timing.paired_ratio(gen, "Hugging Face (tokenizer, generate, decode)", "course generate_text")))
    _report.print_targets(found)
    table = ["| encoder | MB/s |", "|---|---|"] + [f"| {n} | {r:.2f} |" for n, r in rates.items()]
    table += ["", f"| text in, text out (GPT-2 small, random weights, {args.new} new tokens, greedy) | tokens/s |",
              "|---|---|"] + [f"| {n} | {r:.1f} |" for n, r in gen_rates.items()]
    text = (f"{len(texts):,} docstrings ({n_bytes / 1e6:.2f} MB of UTF-8), each encoded alone, one thread; "
            f"MB/s over the median of {args.repeats} interleaved rounds after a warm-up; ratios are medians "
            "of per-round ratios. Hugging Face's GPT2Tokenizer in transformers 5 runs the Rust `tokenizers` "
            "BPE (there is no pure-Python GPT-2 tokenizer left to compare with), so the 1.0x target, set "
            "for a Python tokenizer, compares interpreted Python with compiled code.\n\n" + "\n".join(table))
    print("wrote", _report.write_section("tokenizer_speed", text, found, info))


if __name__ == "__main__":
    main()

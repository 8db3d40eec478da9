"""GPT-2's tokenizer: the course's encoder against Hugging Face's GPT2Tokenizer and tiktoken, same texts.

The texts: the standard library docstrings the course trains on (data.corpus_texts), encoded one
text at a time by each contestant, in one process, interleaved. The course's encoder starts each
round with an empty word cache (a fresh Tokenizer), so building the cache is timed too; its rate
with the cache already warm is shown beside it. All three must produce the same ids (checked
before timing). Throughput is MB of UTF-8 per second. Targets: the course at least 1.0x Hugging
Face's GPT2Tokenizer (the issue's "slow tokenizer"; under transformers 5 that class is backed by
the Rust `tokenizers` library, so this is now a comparison with compiled code); the ratio to
tiktoken is recorded.

Run: .venv/bin/python benchmarks/tokenizer_speed.py [--repeats 5]
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
    }


def encode_all(tokenizer: tk.Tokenizer, texts: list[str]) -> list[list[int]]:
    """Every text through one tokenizer (its cache filling as it goes); the last text's ids."""
    return [tokenizer.encode(t, disallowed_special=()) for t in texts][-1:]


def check_same_ids(runs: dict, texts: list[str]) -> None:
    tok = tk.gpt2_tokenizer()
    for name, run in runs.items():  # spot check: the last text's ids
        assert run() == [tok.encode(texts[-1], disallowed_special=())], name


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    texts = [t for t in data.corpus_texts() if tk.EOT not in t]
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    info = _report.machine()
    print(_report.machine_line(info))
    runs = contestants(texts)
    check_same_ids(runs, texts)
    times = _timing.side_by_side(runs, args.repeats)
    rates = {name: n_bytes / 1e6 / _timing.median(ts) for name, ts in times.items()}
    for name, rate in rates.items():
        print(f"{name:32s} {rate:6.2f} MB/s")
    course = "course (cache empty at start)"
    found = [Target("course / HF GPT2Tokenizer MB/s", _timing.paired_ratio(times, "Hugging Face GPT2Tokenizer", course),
                    COURSE_VS_HF, "higher"),
             Target("course / tiktoken MB/s", _timing.paired_ratio(times, "tiktoken", course))]
    _report.print_targets(found)
    table = ["| encoder | MB/s |", "|---|---|"] + [f"| {n} | {r:.2f} |" for n, r in rates.items()]
    text = (f"{len(texts):,} docstrings ({n_bytes / 1e6:.2f} MB of UTF-8), each encoded alone, one thread; "
            f"MB/s over the median of {args.repeats} interleaved rounds after a warm-up; ratios are medians "
            "of per-round ratios. Hugging Face's GPT2Tokenizer in transformers 5 runs the Rust `tokenizers` "
            "BPE (there is no pure-Python GPT-2 tokenizer left to compare with), so the 1.0x target, set "
            "for a Python tokenizer, compares interpreted Python with compiled code.\n\n" + "\n".join(table))
    print("wrote", _report.write_section("tokenizer_speed", text, found, info))


if __name__ == "__main__":
    main()

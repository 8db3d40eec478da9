"""gpt2course/tokenizer.py against two tokenizers it shares no code with, built offline from
the shipped files: tiktoken (Rust, its own BPE loop and its own reading of vocab.bpe) and
Hugging Face's GPT2Tokenizer (the `tokenizers` library's BPE). Expected ids always come from
them; the corpus is text nobody here wrote: the standard library's docstrings, the installed
packages' licence and README files, and a Unicode set."""
from __future__ import annotations

import gzip
import hashlib
import json
import sysconfig
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from gpt2course import data, tokenizer as tk

tiktoken = pytest.importorskip("tiktoken")
from tiktoken.load import data_gym_to_mergeable_bpe_ranks  # noqa: E402
from transformers import GPT2Tokenizer  # noqa: E402

UNICODE_SET = [
    "👍🏽 👩🏿‍🚀 👨‍👩‍👧‍👦 🏳️‍🌈 🇫🇷",                      # skin tones, ZWJ sequences, flags
    "日本語のテキスト、漢字とかな。中文字符，标点。한국어 문장",   # CJK, Hangul
    "مرحبا بالعالم، كَيْفَ حالُك؟ שָׁלוֹם",                   # Arabic and Hebrew with combining marks
    "e\u0301 n\u0303 a\u030a\u0323 Z\u0351\u0364\u036b",      # combining marks on Latin letters
    "line one\r\nline two\r\n\r\n\tindented\t\ttabs\n",
    "runs of spaces:    four,        eight, and trailing   ",
    "1,000,000.50 3.14159 1_000 ١٢٣ ४२ 12:30 -7e-3 ½ ²",      # separators, other digits, fractions
    "it's It'S I'M we'll they'd you've don't ’s 'S",         # contractions, both cases
    "ﬁ ﬀ Å Å ẞ ß İ ı ǅ",                                     # ligatures, NFC vs NFD, special cases
    "\x00\x01\x1f\x7f\u00a0\u00ad\u2028\u200b\ufeff",          # controls and invisible characters
    "<|endoftext|> inside text <|endoftext|>",
    "    ",
    "",
]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("gpt2-tokenizer")
    for name in ("encoder.json", "vocab.bpe"):
        (folder / name).write_bytes(tk.read_data_file(name))
    return folder


@pytest.fixture(scope="module")
def tiktoken_gpt2(files):
    ranks = data_gym_to_mergeable_bpe_ranks(str(files / "vocab.bpe"), str(files / "encoder.json"))
    return tiktoken.Encoding("gpt2-offline", pat_str=tk.PATTERN, mergeable_ranks=ranks,
                             special_tokens={tk.EOT: 50256})


@pytest.fixture(scope="module")
def hf_gpt2(files):
    # positional: under transformers 5 the parameters are vocab and merges; vocab_file=... is
    # swallowed by **kwargs and leaves a one-token vocabulary (test_hf_keyword_trap)
    hf = GPT2Tokenizer(str(files / "encoder.json"), str(files / "vocab.bpe"))
    assert len(hf.get_vocab()) == 50257
    return hf


@pytest.fixture(scope="module")
def ours():
    return tk.gpt2_tokenizer()


def licence_texts() -> list[str]:
    """Every licence, copying, notice, authors or README file of the installed packages' metadata."""
    site = Path(sysconfig.get_paths()["purelib"])
    names = ("LICENSE", "LICENCE", "COPYING", "NOTICE", "AUTHORS", "README")
    texts = []
    for path in sorted(site.glob("*.dist-info/**/*")):
        if path.is_file() and path.name.upper().startswith(names):
            texts.append(path.read_bytes().decode("utf-8", errors="replace"))
    return texts


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return list(data.corpus_texts()) + licence_texts() + UNICODE_SET


# ------------------------------------------------------------------ the files
def test_shipped_files_are_openais(files):
    assert hashlib.sha256((files / "encoder.json").read_bytes()).hexdigest() == \
        "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"
    assert (files / "encoder.json").stat().st_size == 1_042_301
    assert (files / "vocab.bpe").stat().st_size == 456_318


def test_a_changed_file_is_refused(tmp_path):
    for name in ("encoder.json", "vocab.bpe"):
        (tmp_path / f"{name}.gz").write_bytes((tk.DATA / f"{name}.gz").read_bytes())
    good = tk.read_data_file("vocab.bpe")
    (tmp_path / "vocab.bpe.gz").write_bytes(gzip.compress(good.replace(b"\xc4\xa0t", b"\xc4\xa0x", 1)))
    with pytest.raises(tk.TokenizerFileError, match="sha256 1ce16647"):
        tk.load_ranks(tmp_path)
    assert len(tk.load_vocab(tmp_path)) == 50257


def test_the_hubs_files_are_compared_with_the_shipped_ones(tmp_path):
    (tmp_path / "vocab.json").write_text(json.dumps(tk.load_vocab()), encoding="utf-8")
    (tmp_path / "merges.txt").write_bytes(tk.read_data_file("vocab.bpe"))
    assert tk.compare_hub_files(tmp_path).endswith("so they encode identically")
    lines = tk.read_data_file("vocab.bpe").split(b"\n")
    (tmp_path / "merges.txt").write_bytes(b"\n".join([lines[0], lines[2], lines[1], *lines[3:]]))  # two ranks swapped
    assert "differ from OpenAI's" in tk.compare_hub_files(tmp_path)


def test_hf_keyword_trap(files):
    """transformers 5: GPT2TokenizerFast is GPT2Tokenizer, whose parameters are vocab and merges;
    the old keywords are accepted and ignored, and the tokenizer knows one token."""
    from transformers import GPT2TokenizerFast
    trap = GPT2TokenizerFast(vocab_file=str(files / "encoder.json"), merges_file=str(files / "vocab.bpe"))
    assert len(trap.get_vocab()) == 1
    assert trap.encode("Hello, my dog is cute") != [15496, 11, 616, 3290, 318, 13779]


# ------------------------------------------------------------------ equal ids on the corpus
def test_byte_alphabet_is_tiktokens(tiktoken_gpt2, ours):
    # tiktoken numbers the single bytes in the order of GPT-2's table: printable ones first
    firsts = sorted(range(256), key=lambda b: tiktoken_gpt2.encode_single_token(bytes([b])))
    assert [ours.vocab[tk.bytes_to_unicode()[b]] for b in firsts] == list(range(256))


def test_corpus_ids_equal_tiktoken_and_hugging_face(corpus, tiktoken_gpt2, hf_gpt2, ours, capsys):
    n_bytes = n_ids = 0
    for text in corpus:
        expected = tiktoken_gpt2.encode(text, disallowed_special=())
        got = ours.encode(text, disallowed_special=())
        assert got == expected, text[:80]
        if tk.EOT not in text:  # Hugging Face reads "<|endoftext|>" in text as the special token
            assert got == hf_gpt2.encode(text), text[:80]
        assert tk.decode_tokens(got, ours.tokens) == text
        n_bytes += len(text.encode("utf-8"))
        n_ids += len(got)
    with capsys.disabled():
        print(f"\ntokenizer: {len(corpus):,} texts, {n_bytes:,} bytes, {n_ids:,} ids: equal to tiktoken's "
              "and Hugging Face's, decoded back exactly")
    assert len(corpus) > 1000 and n_bytes > 1_000_000


def test_special_token_follows_tiktoken(tiktoken_gpt2, ours):
    text = "a<|endoftext|>b"
    for kwargs in ({"allowed_special": "all"}, {"allowed_special": {tk.EOT}}, {"disallowed_special": ()},
                   {"allowed_special": {tk.EOT}, "disallowed_special": ()}):
        assert ours.encode(text, **kwargs) == tiktoken_gpt2.encode(text, **kwargs), kwargs
    for kwargs in ({}, {"disallowed_special": "all"}, {"disallowed_special": {tk.EOT}}):
        with pytest.raises(ValueError):
            tiktoken_gpt2.encode(text, **kwargs)
        with pytest.raises(ValueError, match="endoftext"):
            ours.encode(text, **kwargs)
    assert ours.encode(text, allowed_special="all") == [64, 50256, 65]


def test_random_ids_decode_as_hugging_face_does(hf_gpt2, tiktoken_gpt2, ours):
    rng = np.random.default_rng(0)
    for n in range(300):
        ids = rng.integers(0, 50256, size=int(rng.integers(1, 12))).tolist()
        if n % 3 == 0:  # bytes of characters cut in the middle
            ids = [int(i) for i in rng.choice(np.arange(188, 256), size=len(ids))]
        expected = hf_gpt2.decode(ids, clean_up_tokenization_spaces=False)
        assert tk.decode_tokens(ids, ours.tokens) == ours.decode(ids) == expected == tiktoken_gpt2.decode(ids, errors="replace"), ids


def test_train_bpe_matches_brute_force():
    """train_bpe against the definition spelt out: every pair recounted from the text each step."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        text = "".join(rng.choice(list("ab ab\nçé"), size=int(rng.integers(5, 60))))
        assert tk.train_bpe(text, 8) == brute_force_bpe(text, 8), repr(text)


def brute_force_bpe(text: str, n: int) -> list[str]:
    """The definition, step by step: pieces as lists of byte strings, every pair recounted from them."""
    words = [[bytes([b]) for b in w.encode()] for w in tk.pretokenize(text)]
    chars = tk.bytes_to_unicode()
    out = []
    for _ in range(n):
        pairs = Counter(p for w in words for p in zip(w, w[1:]))
        if not pairs:
            break
        top = max(pairs.values())
        best = max(p for p, c in pairs.items() if c == top)       # ties: the greatest pair of byte strings
        joined = best[0] + best[1]
        for k, w in enumerate(words):                               # leftmost occurrences first, no overlaps
            marks = [i for i in range(len(w) - 1) if (w[i], w[i + 1]) == best]
            taken = []
            for i in marks:
                if not taken or i > taken[-1] + 1:
                    taken.append(i)
            for i in reversed(taken):
                w[i:i + 2] = [joined]
            words[k] = w
        out.append(" ".join("".join(chars[b] for b in part) for part in best))
    return out

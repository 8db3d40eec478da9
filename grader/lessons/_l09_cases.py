"""Lesson 09's public and hidden cases (grader/lessons/l09_tokenizer.py registers them).

The tables are GPT-2's own, cut to their first merges (vocab and ranks a learner's function
receives must stay plain data of at most 10,000 items), and small tables written for one
point each: a repeated pair, a pair more frequent than it is ranked, a merge whose result is
ranked before its parts."""
from __future__ import annotations

import functools

import numpy as np

from gpt2course import tokenizer as tk

from ..judging.registry import Case

EOT = tk.EOT


@functools.lru_cache(maxsize=8)
def _subset(m: int):
    full = tk.gpt2_tokenizer()
    vocab = {t: i for t, i in full.vocab.items() if i < 256 + m or t == EOT}
    ranks = {line: r for line, r in full.ranks.items() if r < m}
    return vocab, ranks


def gpt2_subset(m: int):
    """GPT-2's vocabulary and ranks up to its m-th merge (fresh dicts: a case may not share them)."""
    vocab, ranks = _subset(m)
    return dict(vocab), dict(ranks)


def _pool(rng, alphabet, size):
    return "".join(rng.choice(list(alphabet), size=size))


ALPHABET = list("abcdefgh  ") + ["é", "ß", "日", "'s", "'S", "'ll", "1", "23", "_", "\n", "\t", "👍🏽", ",", "!"]


# ------------------------------------------------------------------ bytes_to_unicode
def table_public():
    return [Case({}, about="the 256 bytes")]


def table_hidden(rng):
    return [Case({}, about="the 256 bytes")]


# ------------------------------------------------------------------ pretokenize
PRETOKENIZE_TEXTS = [
    ("Hello world, it's 2024!", "a sentence with a contraction and a number"),
    ("it'S I'LL we'll", "contractions in upper case"),
    ("a   b\n\n  c  ", "runs of spaces and newlines"),
    ("héllo wörld Straße 日本語", "letters beyond ASCII"),
    ("snake_case x2 β2 1,000", "underscores, letters next to digits"),
    (" leading space", "a leading space"),
]


def pretokenize_public():
    return [Case({"text": t}, about=about) for t, about in PRETOKENIZE_TEXTS]


# each hidden text holds one of every point the public texts make, in a random order, among random filler
POINTS = ["x2", "a_b", "café", "naïve", "日本x", "it'S", "'LL", "  word", "\n\n  z", " lead"]


def pretokenize_hidden(rng):
    cases = []
    for _ in range(6):
        parts = list(rng.permutation(POINTS)) + list(rng.choice(ALPHABET, size=int(rng.integers(3, 15))))
        cases.append(Case({"text": " ".join(rng.permutation(parts))}, about="a random text"))
    return cases


# ------------------------------------------------------------------ bpe
def bpe_public():
    _, ranks = gpt2_subset(3000)
    return [
        Case({"word": "Ġhello", "ranks": ranks}, about="' hello' with GPT-2's first 3,000 merges"),
        Case({"word": "Ġlowest", "ranks": dict(ranks)}, about="' lowest' with GPT-2's first 3,000 merges"),
        Case({"word": "aaabdaaabac", "ranks": {"a a": 0, "aa a": 1, "aaa b": 2, "aaab d": 3, "a c": 4}},
             about="a word with a repeated pair, five merges"),
        Case({"word": "abcbcbc", "ranks": {"a b": 0, "b c": 1}}, about="a pair more frequent than it is ranked"),
        Case({"word": "baabab", "ranks": {"ab a": 0, "a b": 1}}, about="a merge ranked before its parts"),
        Case({"word": "x", "ranks": {"a b": 0}}, about="one character"),
    ]


def _letters(rng, n):
    return [str(c) for c in rng.choice(list("abcdefghijklmnopqrstuvwxyz"), size=n, replace=False)]


def bpe_hidden(rng):
    cases = []
    for _ in range(3):
        m = int(rng.integers(500, 5000))
        word = "Ġ" * int(rng.integers(0, 2)) + _pool(rng, "abcdefghijklmnopqrstuvwxyz", int(rng.integers(2, 12)))
        cases.append(Case({"word": word, "ranks": gpt2_subset(m)[1]}, about="a word with GPT-2's merges"))
    x, y, z = _letters(rng, 3)
    k = int(rng.integers(2, 5))
    cases += [
        Case({"word": y + x + y, "ranks": {f"{x} {y}": 0, f"{y} {x}": 1}}, about="the lower rank on the right"),
        Case({"word": x + (y + z) * k, "ranks": {f"{x} {y}": 0, f"{y} {z}": 1}},
             about="a pair more frequent than it is ranked"),
        Case({"word": y + x * 2 + (x + y) * k, "ranks": {f"{x}{y} {x}": 0, f"{x} {y}": 1}},
             about="a merge ranked before its parts"),
    ]
    for _ in range(2):
        lines = list(dict.fromkeys(f"{_pool(rng, 'ab', int(rng.integers(1, 3)))} {_pool(rng, 'ab', int(rng.integers(1, 3)))}"
                                   for _ in range(6)))
        ranks = {line: int(r) for line, r in zip(lines, rng.permutation(len(lines)))}
        cases.append(Case({"word": _pool(rng, "ab", int(rng.integers(3, 10))), "ranks": ranks},
                          about="a word with a small table"))
    return cases


# ------------------------------------------------------------------ encode
def _enc(text, m=1000, about="", **kw):
    vocab, ranks = gpt2_subset(m)
    return Case({"text": text, "vocab": vocab, "ranks": ranks, **kw}, about=about)


def encode_public():
    return [
        _enc("Hello world", about="two words"),
        _enc("  two spaces, then an emoji 👍🏽 and 日本", about="spaces, an emoji and CJK"),
        _enc(f"a{EOT}b", allowed_special=(EOT,), about="<|endoftext|> allowed"),
        _enc(f"a{EOT}b", allowed_special="all", about="every special token allowed"),
        _enc(f"a{EOT}b", disallowed_special=(), about="<|endoftext|> neither allowed nor disallowed"),
        Case(_enc(f"a{EOT}b").args, raises="ValueError", mention=(EOT,),
             about="<|endoftext|> in the text, by default"),
    ]


def encode_hidden(rng):
    def text():
        return "".join(rng.choice(ALPHABET + [" the", " of"], size=int(rng.integers(5, 30))))
    m = lambda: int(rng.integers(300, 3000))  # noqa: E731
    return [
        _enc(text(), m(), about="a random text"),
        _enc("  " + text(), m(), about="a random text after spaces"),
        _enc(text() + EOT + text(), m(), allowed_special=(EOT,), about="<|endoftext|> allowed"),
        _enc(text() + EOT + text(), m(), disallowed_special=(), about="<|endoftext|> as text"),
        _enc(EOT + text(), m(), allowed_special="all", about="every special token allowed"),
        Case(_enc(text() + EOT, m()).args, raises="ValueError", mention=(EOT,),
             about="<|endoftext|> in the text, by default"),
    ]


# ------------------------------------------------------------------ decode
def _dec(text, m=1000, about="", cut=0):
    vocab, ranks = gpt2_subset(m)
    ids = tk.encode(text, vocab, ranks, allowed_special="all")
    return Case({"ids": ids[:len(ids) - cut], "vocab": vocab}, about=about)


def decode_public():
    return [
        _dec("Hello world", about="two words"),
        _dec("héllo 👍🏽 日本", about="characters split across tokens"),
        _dec("an emoji cut short 👍", cut=1, about="the last token ends inside a character"),
        _dec(f"one{EOT}two", about="the special token"),
    ]


def decode_hidden(rng):
    cases = []
    for k in range(6):
        text = "".join(rng.choice(ALPHABET + [EOT], size=int(rng.integers(3, 25)))) + " 👍🏽"
        cases.append(_dec(text, int(rng.integers(300, 3000)), about="a random text", cut=k % 2))
    return cases


# ------------------------------------------------------------------ train_bpe
def train_public():
    return [
        Case({"text": "low lower lowest newer wider", "n_merges": 6}, about="a few words"),
        Case({"text": "xa ya", "n_merges": 2}, about="every pair seen once: the tie-break decides"),
        Case({"text": "ab ab ab", "n_merges": 3}, about="the same word three times"),
        Case({"text": "aaa", "n_merges": 5}, about="fewer merges possible than asked"),
    ]


def train_hidden(rng):
    x, y, a = _letters(rng, 3)
    cases = [Case({"text": f"{x}{a} {y}{a}", "n_merges": 2}, about="every pair seen once: the tie-break decides")]
    cases += [Case({"text": _pool(rng, "abc  \nd", int(rng.integers(8, 60))), "n_merges": int(rng.integers(1, 10))},
                   about="a random text") for _ in range(6)]
    return cases


# ------------------------------------------------------------------ generate_text
def _model(rng, V, T=32, d=16, L=2):
    """A GPT-2-shaped model (the course's names and layout) whose weights are large enough for clear argmaxes."""
    from gpt2course import GPTConfig
    from gpt2course import numpy_gpt as ng

    params = ng.init_params(GPTConfig(vocab_size=V, block_size=T, n_layer=L, n_embd=d, n_head=2), seed=0)
    return {k: (rng.standard_normal(v.shape) * (0.3 if v.ndim == 2 else 0.1)
                + (1.0 if k.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight")) else 0.0)) for k, v in params.items()}


def _gen(rng, prompt, n_new, m=300, about=""):
    vocab, ranks = gpt2_subset(m)
    vocab = {t: i for t, i in vocab.items() if t != EOT}   # the model's V = 256 + m ids
    return Case({"prompt": prompt, "params": _model(rng, 256 + m), "n_head": 2, "n_new": n_new, "vocab": vocab,
                 "ranks": ranks}, about=about)


def generate_public():
    rng = np.random.default_rng(9)
    return [_gen(rng, "Hello, my dog is cute", 8, about="a prompt of six words"),
            _gen(rng, "日本 👍", 6, about="a prompt of several-byte characters"),
            _gen(rng, "x", 10, about="a prompt of one character")]


def generate_hidden(rng):
    return [_gen(rng, "".join(rng.choice(ALPHABET, size=int(rng.integers(1, 6)))), int(rng.integers(3, 12)),
                 m=int(rng.integers(200, 600)), about="a random prompt") for _ in range(5)]

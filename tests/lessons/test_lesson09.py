"""Lesson 09: the flagged references against the course's tokenizer, learner-written mistakes
named, and the notebooks' conventions. Right answers in other styles (a dict then a list, finditer,
a heap, str.split and re.split, bytearray decoding, a trainer that recounts from scratch) are in
the learner corpus (tests/judging/learner_corpus/l09.py), judged as check() and the batch grader do."""
from __future__ import annotations

import re

import nbformat
import numpy as np
import pytest
import regex

from gpt2course import tokenizer as tk
from grader.checking.check import evaluate
from grader.lessons import _l09_cases as C
from grader.lessons import _l09_variants as V

from conftest import ROOT

EOT = "<|endoftext|>"
KEPT = set(range(33, 127)) | set(range(161, 173)) | set(range(174, 256))


def named(fn) -> list[str]:
    v = evaluate(fn)
    assert v.status == "failed", v.message
    return v.mistakes


# ------------------------------------------------------------------ the references
def test_flagged_references_are_the_course_tokenizer():
    rng = np.random.default_rng(3)
    vocab, ranks = C.gpt2_subset(2000)
    assert V.bytes_to_unicode() == tk.bytes_to_unicode()
    for _ in range(30):
        text = "".join(rng.choice(C.ALPHABET + [" the", EOT], size=int(rng.integers(1, 30))))
        assert V.pretokenize(text) == tk.pretokenize(text)
        for piece in tk.pretokenize(text):
            word = tk.to_byte_chars(piece)
            assert V.bpe(word, ranks) == tk.bpe(word, ranks)
        for kw in ({"allowed_special": "all"}, {"disallowed_special": ()}):
            ids = tk.encode(text, vocab, ranks, **kw)
            assert V.encode(text, vocab, ranks, **kw) == ids
            assert V.decode(ids, vocab) == tk.decode(ids, vocab) == text
        assert V.train_bpe(text, 5) == tk.train_bpe(text, 5)


# ------------------------------------------------------------------ mistakes, written as a learner would
def test_bytes_to_unicode_mistakes_are_named():
    def bytes_to_unicode():
        return [chr(b) for b in range(256)]
    assert named(bytes_to_unicode) == ["the byte map built from chr(b) for every byte"]

    def bytes_to_unicode():  # noqa: F811
        return [chr(b) if b in KEPT else chr(256 + b) for b in range(256)]
    assert named(bytes_to_unicode) == ["moved bytes numbered by their own value"]


GPT2_PARTS = [r"'s|'t|'re|'ve|'m|'ll|'d", r" ?\p{L}+", r" ?\p{N}+", r" ?[^\s\p{L}\p{N}]+", r"\s+(?!\S)", r"\s+"]


@pytest.mark.parametrize("parts, mistake", [
    ([GPT2_PARTS[0], r" ?\w+", r" ?\d+", r" ?[^\s\w]+", r"\s+(?!\S)", r"\s+"], "\\w instead of \\p{L}"),
    ([GPT2_PARTS[0], r" ?[a-zA-Z]+", r" ?\p{N}+", r" ?[^\sa-zA-Z\p{N}]+", r"\s+(?!\S)", r"\s+"],
     "[a-zA-Z] instead of \\p{L}"),
    ([r"(?i:'s|'t|'re|'ve|'m|'ll|'d)", *GPT2_PARTS[1:]], "contractions matched case-insensitively"),
    (GPT2_PARTS[:4] + [r"\s+"], "the whitespace rule dropped"),
], ids=["w", "ascii", "ignorecase", "whitespace"])
def test_pretokenize_pattern_mistakes_are_named(parts, mistake):
    pattern = regex.compile("|".join(parts))

    def pretokenize(text):
        return pattern.findall(text)
    assert named(pretokenize) == [mistake]


def test_pretokenize_stripped_is_named():
    def pretokenize(text):
        return [w.strip() for w in regex.findall("|".join(GPT2_PARTS), text) if not w.isspace()]
    assert named(pretokenize) == ["pieces stripped of their spaces"]


def _bpe_loop(word, ranks, pick, once=False):
    tokens = list(word)
    while True:
        pairs = [(tokens[i], tokens[i + 1]) for i in range(len(tokens) - 1)]
        known = [p for p in pairs if f"{p[0]} {p[1]}" in ranks]
        if not known:
            return tokens
        a, b = pick(known, ranks)
        i = 0
        while i < len(tokens) - 1:
            if (tokens[i], tokens[i + 1]) == (a, b):
                tokens[i:i + 2] = [a + b]
                if once:
                    break
            i += 1


def test_bpe_mistakes_are_named():
    def bpe(word, ranks):
        return _bpe_loop(word, ranks, lambda known, ranks: known[0])
    assert named(bpe) == ["pairs merged in order of appearance"]

    def bpe(word, ranks):  # noqa: F811
        return _bpe_loop(word, ranks, lambda known, ranks: max(known, key=lambda p: (known.count(p),
                                                                                   -ranks[f"{p[0]} {p[1]}"])))
    assert named(bpe) == ["pairs merged by frequency"]

    def bpe(word, ranks):  # noqa: F811
        return _bpe_loop(word, ranks, lambda known, ranks: min(known, key=lambda p: ranks[f"{p[0]} {p[1]}"]),
                         once=True)
    assert named(bpe) == ["only the first occurrence merged per step"]


def _encode(text, vocab, ranks, allowed, raise_it, strip=False):
    if raise_it and EOT in text and not allowed:
        raise ValueError("found <|endoftext|>")
    chars = tk.bytes_to_unicode()
    out = []
    for k, part in enumerate(text.split(EOT) if allowed else [text]):
        if k:
            out.append(vocab[EOT])
        for piece in tk.pretokenize(part):
            piece = piece.strip() if strip and piece.strip() else piece
            out += [vocab[t] for t in tk.bpe("".join(chars[b] for b in piece.encode()), ranks)]
    return out


def test_encode_mistakes_are_named():
    def encode(text, vocab, ranks, allowed_special=(), disallowed_special="all"):
        return _encode(text, vocab, ranks, True, False)
    assert named(encode) == ["<|endoftext|> treated as special in ordinary text"]

    def encode(text, vocab, ranks, allowed_special=(), disallowed_special="all"):  # noqa: F811
        return _encode(text, vocab, ranks, allowed_special == "all" or EOT in allowed_special, False)
    assert named(encode) == ["a disallowed <|endoftext|> encoded instead of refused"]

    def encode(text, vocab, ranks, allowed_special=(), disallowed_special="all"):  # noqa: F811
        allowed = allowed_special == "all" or EOT in allowed_special
        return _encode(text, vocab, ranks, allowed, disallowed_special != (), strip=True)
    assert named(encode) == ["the leading space stripped"]


def test_decode_mistakes_are_named():
    def decode(ids, vocab):
        back = {c: b for b, c in enumerate(tk.bytes_to_unicode())}
        token = {i: t for t, i in vocab.items()}
        return "".join((token[i].encode() if token[i] == EOT else bytes(back[c] for c in token[i]))
                       .decode("utf-8", "replace") for i in ids)
    assert named(decode) == ["each token decoded to str separately"]

    def decode(ids, vocab):  # noqa: F811
        token = {i: t for t, i in vocab.items()}
        return "".join(token[i] for i in ids)
    assert named(decode) == ["the byte alphabet not mapped back to bytes"]

    def decode(ids, vocab):  # noqa: F811
        back = {c: b for b, c in enumerate(tk.bytes_to_unicode())}
        token = {i: t for t, i in vocab.items()}
        raw = b"".join(token[i].encode() if token[i] == EOT else bytes(back[c] for c in token[i]) for i in ids)
        return raw.decode("utf-8", errors="ignore")
    assert named(decode) == ["invalid bytes dropped (errors='ignore')"]


def _train(text, n, best, whole=False):
    chars = tk.bytes_to_unicode()
    words = [[chars[b] for b in w.encode()] for w in ([text] if whole else tk.pretokenize(text))]
    merges = []
    for _ in range(n):
        counts = {}
        for w in words:
            for p in zip(w, w[1:]):
                counts[p] = counts.get(p, 0) + 1
        if not counts:
            break
        a, b = best(counts)
        merges.append(f"{a} {b}")
        for w in words:
            i = 0
            while i < len(w) - 1:
                if (w[i], w[i + 1]) == (a, b):
                    w[i:i + 2] = [a + b]
                i += 1
    return merges


def test_train_bpe_mistakes_are_named():
    as_bytes = {c: b for b, c in enumerate(tk.bytes_to_unicode())}
    raw = lambda t: bytes(as_bytes[c] for c in t)  # noqa: E731

    def train_bpe(text, n_merges):
        return _train(text, n_merges, lambda c: max(c, key=lambda p: (c[p], p)))
    assert named(train_bpe) == ["ties broken by the byte-alphabet characters"]

    def train_bpe(text, n_merges):  # noqa: F811
        return _train(text, n_merges, lambda c: min(c, key=lambda p: (-c[p], raw(p[0]), raw(p[1]))))
    assert named(train_bpe) == ["ties broken towards the smallest pair"]

    def train_bpe(text, n_merges):  # noqa: F811
        return _train(text, n_merges, lambda c: max(c, key=c.get))
    assert named(train_bpe) == ["ties broken by the first pair counted"]

    def train_bpe(text, n_merges):  # noqa: F811
        return _train(text, n_merges, lambda c: max(c, key=lambda p: (c[p], raw(p[0]), raw(p[1]))), whole=True)
    assert named(train_bpe) == ["merges across pretokenize's pieces"]


def test_generate_text_mistakes_are_named():
    from gpt2course.numpy_gpt import gpt_logits

    def generate_text(prompt, params, n_head, n_new, vocab, ranks):
        ids = tk.encode(prompt, vocab, ranks)
        for _ in range(n_new):
            ids.append(int(gpt_logits(params, np.array(ids), n_head)[0].argmax()))
        return ids, tk.decode(ids, vocab)
    assert named(generate_text) == ["the first position's logits used"]

    def generate_text(prompt, params, n_head, n_new, vocab, ranks):  # noqa: F811
        ids = tk.encode(prompt, vocab, ranks)
        for _ in range(n_new):
            ids.append(int(gpt_logits(params, np.array(ids), n_head)[-1].argmax()))
        return ids, "".join(tk.decode([i], vocab) for i in ids)
    assert named(generate_text) == ["the text decoded token by token"]


# ------------------------------------------------------------------ the notebooks
LESSON = ROOT / "notebooks" / "09_tokenizer.ipynb"
SOLUTIONS = ROOT / "solutions" / "09_tokenizer_exercises.ipynb"


def test_lesson_links_to_its_exercises_and_lesson_08_to_it():
    last = nbformat.read(LESSON, as_version=4).cells[-1].source
    assert "[exercises/09_tokenizer_exercises.ipynb](../exercises/09_tokenizer_exercises.ipynb)" in last
    assert "(09_tokenizer.ipynb)" in nbformat.read(ROOT / "notebooks" / "08_training_sampling.ipynb",
                                                    as_version=4).cells[-1].source


def test_lesson_asserts_what_it_prints_and_its_varying_cells_are_tagged():
    cells = [c for c in nbformat.read(LESSON, as_version=4).cells if c.cell_type == "code"]
    assert all(c.outputs for c in cells)
    for c in cells:
        if "token_viewer(" in c.source or "train_bpe(" in c.source or "generate_text(" in c.source:
            assert "nbval-ignore-output" in c.metadata.get("tags", [])
        elif "print(" in c.source:  # (generate_text's ids are checked against Hugging Face below)
            assert "assert " in c.source, c.source[:60]


# ------------------------------------------------------------------ the lesson with GPT-2-shaped weights
def test_lesson_continues_a_prompt_when_weights_are_cached(tmp_path, monkeypatch):
    """A GPT-2-shaped model (GPT-2's 50,257 ids, small width) in a Hugging Face cache laid out as the
    Hub's: the lesson's last code cell generates with it, the ids Hugging Face's generate gives."""
    import torch
    from transformers import GPT2LMHeadModel

    from gpt2course import GPTConfig
    from support.hub_fixtures import hub_cache, hub_config, hub_tensors, run_lesson, sha256_of, write_safetensors

    shaped = GPTConfig(vocab_size=50_257, block_size=64, n_layer=2, n_embd=32, n_head=4)
    weights = write_safetensors(tmp_path / "model.safetensors", hub_tensors(shaped, seed=9))
    digest = sha256_of(weights)
    snapshot = hub_cache(tmp_path / "hub", {"config.json": hub_config(shaped), "model.safetensors": weights})
    nb = nbformat.read(LESSON, as_version=4)
    nb.cells = [c for c in nb.cells if "generate_text(" in c.source]  # the cell needs none before it
    nbformat.write(nb, tmp_path / "generation_cell.ipynb")
    printed = run_lesson(tmp_path / "generation_cell.ipynb", tmp_path / "hub", monkeypatch, sha256=digest)
    printed = printed[nb.cells[0].id]
    ids = [int(i) for i in re.search(r"ids: \[(.*)\]", printed).group(1).split(", ")]
    model = GPT2LMHeadModel.from_pretrained(snapshot, local_files_only=True).eval()
    prompt = torch.tensor([tk.gpt2_tokenizer().encode("The meaning of life is")])
    with torch.no_grad():
        want = model.generate(prompt, attention_mask=torch.ones_like(prompt), max_new_tokens=20, min_new_tokens=20,
                              do_sample=False, eos_token_id=None, pad_token_id=0)[0].tolist()
    assert ids == want and len(ids) == prompt.shape[1] + 20
    assert printed.splitlines()[1].startswith("The meaning of life is")

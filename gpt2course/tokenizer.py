"""Lesson 09: GPT-2's tokenizer, byte for byte: text to ids and ids back to text.

GPT-2 reads bytes, not characters. Its vocabulary is the 256 byte values, then 50,000
merges learned by byte-pair encoding (each joins two existing tokens into one), then
one special token, ``<|endoftext|>``: 50,257 ids. Encoding has three steps:

1. pretokenize: split the text with a regular expression into words, numbers,
   punctuation runs and whitespace (a merge never crosses these pieces);
2. each piece's UTF-8 bytes, written in GPT-2's printable byte alphabet
   (``bytes_to_unicode``: the space byte is ``Ġ``), are merged by BPE: the adjacent
   pair with the lowest rank in the merge table, every occurrence, until no pair of
   the piece is in the table;
3. each resulting token is looked up in the vocabulary.

Decoding joins every token's bytes, then decodes them once (a character may span tokens),
replacing invalid bytes as GPT-2 does. OpenAI's two files ship gzipped in ``gpt2course/data/``
(see its README), checked against their pinned sha256 every time they are read.
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import regex

DATA = Path(__file__).with_name("data")
# sha256 of the decompressed files, as OpenAI published them (and tiktoken pins for "gpt2")
SHA256 = {
    "encoder.json": "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
    "vocab.bpe": "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
}
EOT = "<|endoftext|>"
# GPT-2's split: seven English contractions (case-sensitive), then an optional space with a
# run of letters, of digits, or of anything else; whitespace not followed by a non-space
# (so the last space before a word stays with the word); any other whitespace.
PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
_SPLIT = regex.compile(PATTERN)


class TokenizerFileError(ValueError):
    """A shipped tokenizer file whose bytes are not OpenAI's."""


# ------------------------------------------------------------------ the files
def read_data_file(name: str, folder: Path = DATA) -> bytes:
    """The decompressed bytes of ``name`` (encoder.json or vocab.bpe), checked against SHA256."""
    path = folder / f"{name}.gz"
    data = gzip.decompress(path.read_bytes())
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256[name]:
        raise TokenizerFileError(
            f"{path} decompresses to {len(data):,} bytes with sha256 {digest}, not OpenAI's {name} "
            f"(sha256 {SHA256[name]}): the file was changed or damaged; restore it from the course "
            "(git checkout -- gpt2course/data)")
    return data


def load_vocab(folder: Path = DATA) -> dict[str, int]:
    """encoder.json: token (in the byte alphabet) -> id, 50,257 entries."""
    return json.loads(read_data_file("encoder.json", folder))


def load_ranks(folder: Path = DATA) -> dict[str, int]:
    """vocab.bpe: each merge line "a b" -> its rank (0 is merged first), 50,000 entries."""
    lines = read_data_file("vocab.bpe", folder).decode("utf-8").split("\n")
    merges = [line for line in lines[1:] if line]        # line 0 is "#version: 0.2"
    return {line: rank for rank, line in enumerate(merges)}


# The Hub's openai-community/gpt2 holds the same two files under other names
HUB_FILES = {"vocab.json": "encoder.json", "merges.txt": "vocab.bpe"}


def compare_hub_files(folder: Path) -> str:
    """One sentence: do the Hub's vocab.json and merges.txt in folder equal the shipped files (then every
    text gets the same ids; a sample is encoded with both all the same)?"""
    vocab = json.loads((Path(folder) / "vocab.json").read_text(encoding="utf-8"))
    lines = (Path(folder) / "merges.txt").read_text(encoding="utf-8").split("\n")
    hub, ours = Tokenizer(vocab, {line: r for r, line in enumerate(x for x in lines[1:] if x)}), gpt2_tokenizer()
    sample = "Hello, my dog is cute. 日本語 👍🏽 it'S  1,000,000\r\n"
    if hub.vocab != ours.vocab or hub.ranks != ours.ranks:
        return (f"the Hub's tokenizer files in {folder} differ from OpenAI's ({len(hub.vocab):,} tokens, "
                f"{len(hub.ranks):,} merges; the shipped files have {len(ours.vocab):,} and {len(ours.ranks):,})")
    if hub.encode(sample) != ours.encode(sample):
        return f"the Hub's tokenizer files in {folder} encode differently from OpenAI's"
    return (f"the Hub's vocab.json and merges.txt equal OpenAI's encoder.json and vocab.bpe ({len(hub.vocab):,} "
            f"tokens, {len(hub.ranks):,} merges), so they encode identically")


# ------------------------------------------------------------------ the byte alphabet
def bytes_to_unicode() -> list[str]:
    """The printable character GPT-2 writes for each byte value (index = byte), 256 of them.

    Bytes that are printable Latin-1 characters keep their own; the other 68 (controls,
    space, DEL, NBSP, soft hyphen) take 256, 257, ... in byte order, so the space, byte 32,
    the 33rd of them (after bytes 0..31), is chr(256 + 32) = 'Ġ'."""
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars, moved = [""] * 256, 0
    for b in range(256):
        if b in kept:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + moved)
            moved += 1
    return chars


@functools.lru_cache(maxsize=1)
def byte_tables() -> tuple[list[str], dict[str, int]]:
    """byte -> character and back, made once (on first use: the student edition's is the learner's)."""
    chars = bytes_to_unicode()
    return chars, {c: b for b, c in enumerate(chars)}


def to_byte_chars(piece: str) -> str:
    chars = byte_tables()[0]
    return "".join(chars[b] for b in piece.encode("utf-8"))


def token_bytes(token: str) -> bytes:
    """A vocabulary entry's bytes; the special token stands for its own text."""
    back = byte_tables()[1]
    return token.encode("utf-8") if token == EOT else bytes(back[c] for c in token)


# ------------------------------------------------------------------ encoding
def pretokenize(text: str) -> list[str]:
    return _SPLIT.findall(text)


def bpe(word: str, ranks: dict[str, int]) -> list[str]:
    """Merge the adjacent pair of lowest rank, every occurrence left to right, until none has a rank."""
    parts = list(word)
    while len(parts) > 1:
        pairs = {f"{a} {b}" for a, b in zip(parts, parts[1:])}
        best = min(pairs, key=lambda p: ranks.get(p, float("inf")))
        if best not in ranks:
            break
        parts = merge(parts, *best.split(" "))
    return parts


def merge(parts, a: str, b: str) -> list[str]:
    """parts with every adjacent (a, b) joined into one token, left to right ("aaa": "aa", "a")."""
    merged, i = [], 0
    while i < len(parts):
        if parts[i] == a and i + 1 < len(parts) and parts[i + 1] == b:
            merged.append(a + b)
            i += 2
        else:
            merged.append(parts[i])
            i += 1
    return merged


def _specials(allowed_special, disallowed_special, special: set[str]) -> tuple[set[str], set[str]]:
    """tiktoken's rule: allowed -> one id; disallowed ("all": every special not allowed) -> ValueError."""
    allowed = special if allowed_special == "all" else set(allowed_special) & special
    disallowed = special - allowed if disallowed_special == "all" else set(disallowed_special)
    return allowed, disallowed


def encode(text: str, vocab: dict[str, int], ranks: dict[str, int], allowed_special=(),
           disallowed_special="all", cache: dict | None = None) -> list[int]:
    """Ids of ``text``. A special token (``<|endoftext|>``) in the text is one id where allowed
    (allowed_special: a collection or "all"); elsewhere it raises ValueError when disallowed (by
    default every special not allowed), and is ordinary text when disallowed_special=()."""
    allowed, disallowed = _specials(allowed_special, disallowed_special, {EOT} & vocab.keys())
    for s in disallowed:
        if s in text:
            raise ValueError(f"the text contains the special token {s!r}: pass allowed_special={{{s!r}}} "
                             "to encode it as its id, or disallowed_special=() to encode it as text")
    cache = {} if cache is None else cache
    chunks = regex.split("(" + "|".join(map(regex.escape, sorted(allowed))) + ")", text) if allowed else [text]
    ids = []
    for k, chunk in enumerate(chunks):
        if k % 2:                                       # a captured special token
            ids.append(vocab[chunk])
            continue
        for piece in pretokenize(chunk):
            if piece not in cache:
                cache[piece] = [vocab[t] for t in bpe(to_byte_chars(piece), ranks)]
            ids.extend(cache[piece])
    return ids


def decode(ids, vocab: dict[str, int]) -> str:
    """Join the tokens' bytes, then decode once: a character split across tokens comes back whole."""
    return decode_tokens(ids, {i: t for t, i in vocab.items()})


def decode_tokens(ids, tokens: dict[int, str]) -> str:
    return b"".join(token_bytes(tokens[int(i)]) for i in ids).decode("utf-8", errors="replace")


# ------------------------------------------------------------------ the tokenizer, with its word cache
@dataclass
class Tokenizer:
    """GPT-2's vocabulary and merges, with a cache of words already merged (as OpenAI's encoder has)."""

    vocab: dict[str, int]
    ranks: dict[str, int]
    cache: dict = field(default_factory=dict, repr=False)

    def encode(self, text: str, allowed_special=(), disallowed_special="all") -> list[int]:
        return encode(text, self.vocab, self.ranks, allowed_special, disallowed_special, self.cache)

    def decode(self, ids) -> str:
        return decode(ids, self.vocab)

    @functools.cached_property
    def tokens(self) -> dict[int, str]:
        return {i: t for t, i in self.vocab.items()}


@functools.lru_cache(maxsize=1)
def gpt2_tokenizer() -> Tokenizer:
    """GPT-2's own tokenizer, from the shipped files (checked when read)."""
    return Tokenizer(load_vocab(), load_ranks())


# ------------------------------------------------------------------ training
def train_bpe(text: str, n_merges: int) -> list[str]:
    """The first n_merges merges ("a b" lines, as in vocab.bpe) that byte-level BPE learns from text.

    Pieces as pretokenize splits them, counted; at each step every adjacent pair of every
    piece is counted (overlaps too, weighted by the piece's count); the most frequent wins,
    ties going to the greatest pair of byte strings, (bytes(a), bytes(b)); every occurrence
    is then merged left to right. Stops early when no piece has two tokens left."""
    words = {tuple(to_byte_chars(w)): n for w, n in Counter(pretokenize(text)).items()}
    merges = []
    for _ in range(n_merges):
        counts = Counter()
        for w, n in words.items():
            for pair in zip(w, w[1:]):
                counts[pair] += n
        if not counts:
            break
        a, b = max(counts, key=lambda p: (counts[p], token_bytes(p[0]), token_bytes(p[1])))
        merges.append(f"{a} {b}")
        merged = Counter()
        for w, n in words.items():
            merged[tuple(merge(w, a, b))] += n
        words = merged
    return merges

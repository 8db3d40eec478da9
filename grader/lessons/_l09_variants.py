"""Lesson 09's references with flags: each catalogued mistake is one of these with one flag switched.

With their default flags they compute what gpt2course/tokenizer.py computes (tests/lessons/
test_lesson09.py checks it), written again here so that a flag changes one step and nothing else.
"""
from __future__ import annotations

from collections import Counter

import regex

from gpt2course import tokenizer as tk

EOT = tk.EOT
_CONTRACTIONS = "'s|'t|'re|'ve|'m|'ll|'d"


# ------------------------------------------------------------------ bytes_to_unicode
def bytes_to_unicode(*, moved="counter"):
    """moved: the character of a byte GPT-2 moves: "counter" (256 + how many moved before it,
    GPT-2's), "byte" (256 + the byte itself) or "none" (chr(b) for every byte)."""
    kept = {*range(33, 127), *range(161, 173), *range(174, 256)}
    chars, n = [], 0
    for b in range(256):
        if b in kept or moved == "none":
            chars.append(chr(b))
        else:
            chars.append(chr(256 + (n if moved == "counter" else b)))
            n += 1
    return chars


# ------------------------------------------------------------------ pretokenize
def pattern(letters=r"\p{L}", case_insensitive=False, whitespace_rule=True):
    contractions = f"(?i:{_CONTRACTIONS})" if case_insensitive else _CONTRACTIONS
    other = r"[^\s\p{L}\p{N}]" if letters == r"\p{L}" else rf"[^\s{letters[1:-1]}\p{{N}}]"
    spaces = r"|\s+(?!\S)" if whitespace_rule else ""
    return rf"{contractions}| ?{letters}+| ?\p{{N}}+| ?{other}+{spaces}|\s+"


def pretokenize(text, *, letters=r"\p{L}", case_insensitive=False, whitespace_rule=True, strip=False):
    """letters: the class of a word's letters (GPT-2's \\p{L}; "\\w" or "[a-zA-Z]" the mistakes);
    case_insensitive: contractions matched whatever the case; whitespace_rule=False: no
    \\s+(?!\\S), so a run of spaces keeps its last one; strip: pieces stripped, blank ones dropped."""
    if letters == r"\w":
        pat = rf"{_CONTRACTIONS}| ?\w+| ?\p{{N}}+| ?[^\s\w\p{{N}}]+|\s+(?!\S)|\s+"
    else:
        pat = pattern(letters, case_insensitive, whitespace_rule)
    pieces = regex.findall(pat, text)
    return [p.strip() for p in pieces if p.strip()] if strip else pieces


# ------------------------------------------------------------------ bpe
def _merge(parts, a, b, every=True):
    out, i, done = [], 0, False
    while i < len(parts):
        if i + 1 < len(parts) and parts[i] == a and parts[i + 1] == b and not done:
            out.append(a + b)
            i += 2
            done = not every
        else:
            out.append(parts[i])
            i += 1
    return out


def bpe(word, ranks, *, order="rank", every=True):
    """order: which known pair is merged next: "rank" (the lowest, GPT-2's), "appearance" (the
    leftmost pair in the table) or "frequency" (the most frequent in the word, ties to the lower
    rank); every=False: only its first occurrence is merged at each step."""
    parts = list(word)
    while len(parts) > 1:
        pairs = [f"{a} {b}" for a, b in zip(parts, parts[1:])]
        known = [p for p in pairs if p in ranks]
        if not known:
            break
        if order == "appearance":
            best = known[0]
        elif order == "frequency":
            best = max(known, key=lambda p: (known.count(p), -ranks[p]))
        else:
            best = min(known, key=ranks.__getitem__)
        a, b = best.split(" ")
        parts = _merge(parts, a, b, every)
    return parts


# ------------------------------------------------------------------ encode and decode
def encode(text, vocab, ranks, allowed_special=(), disallowed_special="all", *, special="tiktoken",
           strip=False):
    """special: "tiktoken" (its rule), "always" (the special token's id wherever it appears) or
    "never_raise" (a disallowed one encoded as text instead of refused); strip: each piece's
    spaces stripped before its merges."""
    allowed = {EOT} if allowed_special == "all" or EOT in allowed_special or special == "always" else set()
    disallowed = ({EOT} - allowed) if disallowed_special == "all" else set(disallowed_special)
    if special != "never_raise" and disallowed & {EOT} and EOT in text:
        raise ValueError(f"the text contains the special token {EOT!r}, which is not allowed")
    chunks = text.split(EOT) if allowed else [text]
    ids = []
    for k, chunk in enumerate(chunks):
        if k:
            ids.append(vocab[EOT])
        for piece in pretokenize(chunk):
            piece = piece.strip() or piece if strip else piece
            ids.extend(vocab[t] for t in bpe(tk.to_byte_chars(piece), ranks))
    return ids


def decode(ids, vocab, *, join="bytes", errors="replace"):
    """join: "bytes" (every token's bytes joined, then decoded once), "each" (each token decoded
    on its own) or "chars" (the tokens' byte-alphabet characters, never mapped back to bytes)."""
    tokens = {i: t for t, i in vocab.items()}
    if join == "chars":
        return "".join(tokens[int(i)] for i in ids)
    if join == "each":
        return "".join(tk.token_bytes(tokens[int(i)]).decode("utf-8", errors=errors) for i in ids)
    return b"".join(tk.token_bytes(tokens[int(i)]) for i in ids).decode("utf-8", errors=errors)


# ------------------------------------------------------------------ train_bpe
def train_bpe(text, n_merges, *, tie="bytes", pieces=True):
    """tie: among pairs of equal count, the greatest as byte strings ("bytes", the rule), as
    byte-alphabet strings ("chars"), the least ("least") or the first counted ("first");
    pieces=False: the whole text one sequence, merges across pretokenize's pieces."""
    chars = bytes_to_unicode()
    words = Counter(pretokenize(text) if pieces else [text])
    seqs = {tuple(chars[b] for b in w.encode("utf-8")): n for w, n in words.items()}
    merges = []
    for _ in range(n_merges):
        counts = Counter()
        for w, n in seqs.items():
            for pair in zip(w, w[1:]):
                counts[pair] += n
        if not counts:
            break
        top = max(counts.values())
        tied = [p for p in counts if counts[p] == top]
        if tie == "first":
            a, b = tied[0]
        elif tie == "chars":
            a, b = max(tied)
        else:
            key = lambda p: (tk.token_bytes(p[0]), tk.token_bytes(p[1]))  # noqa: E731
            a, b = (min if tie == "least" else max)(tied, key=key)
        merges.append(f"{a} {b}")
        merged = Counter()
        for w, n in seqs.items():
            merged[tuple(_merge(list(w), a, b))] += n
        seqs = dict(merged)
    return merges


# ------------------------------------------------------------------ generate_text
def generate_text(prompt, params, n_head, n_new, vocab, ranks, *, position=-1, keep_prompt=True, join="bytes"):
    """Greedy: the argmax of the last position's logits, n_new times. position=0: the first
    position's logits; keep_prompt=False: the prompt's ids left out of what is returned;
    join="each": the text decoded token by token."""
    import numpy as np

    from gpt2course import numpy_gpt as ng

    ids = encode(prompt, vocab, ranks)
    start = len(ids)
    for _ in range(n_new):
        logits = ng.gpt_logits(params, np.array(ids), n_head)            # (T, V)
        ids.append(int(np.argmax(logits[position])))
    out = ids if keep_prompt else ids[start:]
    return out, decode(out, vocab, join=join)

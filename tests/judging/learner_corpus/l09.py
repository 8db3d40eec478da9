"""Lesson 09: GPT-2's tokenizer, as learners write it."""
from . import Lesson

LESSON = Lesson()
L = LESSON

# ------------------------------------------------------------------ bytes_to_unicode
B = "bytes_to_unicode"
L.styles(B, '''
def bytes_to_unicode():
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    out, n = [], 0
    for b in range(256):
        if b in keep:
            out.append(chr(b))
        else:
            out.append(chr(256 + n))
            n += 1
    return out
''', '''
def bytes_to_unicode():
    table = {}
    extra = 256
    for b in range(256):
        if 33 <= b <= 126 or 161 <= b <= 172 or 174 <= b <= 255:
            table[b] = chr(b)
        else:
            table[b] = chr(extra)
            extra += 1
    return [table[b] for b in range(256)]
''', '''
def bytes_to_unicode():
    printable = set(range(33, 127)) | set(range(161, 173)) | set(range(174, 256))
    moved = [b for b in range(256) if b not in printable]
    return [chr(b) if b in printable else chr(256 + moved.index(b)) for b in range(256)]
''')
L.mistake(B, "the byte map built from chr(b) for every byte",
          (0, "        if b in keep:", "        if True:"),
          (1, "            table[b] = chr(extra)", "            table[b] = chr(b)"),
          '''
def bytes_to_unicode():
    return [chr(b) for b in range(256)]
''')
L.mistake(B, "moved bytes numbered by their own value",
          (0, "out.append(chr(256 + n))", "out.append(chr(256 + b))"),
          (1, "table[b] = chr(extra)", "table[b] = chr(256 + b)"),
          (2, "chr(256 + moved.index(b))", "chr(256 + b)"))
L.uncatalogued(B, "the soft hyphen kept", (1, "161 <= b <= 172 or 174 <= b", "161 <= b <= 255 and b"))

# ------------------------------------------------------------------ pretokenize
P = "pretokenize"
L.styles(P, r'''
import regex

def pretokenize(text):
    pat = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")
    return pat.findall(text)
''', r'''
import regex

CONTRACTIONS = r"'(?:s|t|re|ve|m|ll|d)"
WORD = r" ?\p{L}+"
NUMBER = r" ?\p{N}+"
OTHER = r" ?[^\s\p{L}\p{N}]+"
SPACE = r"\s+(?!\S)|\s+"

def pretokenize(text):
    rx = regex.compile("|".join([CONTRACTIONS, WORD, NUMBER, OTHER, SPACE]))
    return [m.group(0) for m in rx.finditer(text)]
''', r'''
import regex

def pretokenize(text):
    return regex.findall(r"""'(?:[stmd]|re|ve|ll)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""", text)
''')
L.mistake(P, "\\w instead of \\p{L}",
          (0, r"| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|", r"| ?\w+| ?\d+| ?[^\s\w]+|"),
          (1, [(r'WORD = r" ?\p{L}+"', r'WORD = r" ?\w+"'), (r'OTHER = r" ?[^\s\p{L}\p{N}]+"', r'OTHER = r" ?[^\s\w\p{N}]+"')]),
          (2, r"| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|", r"| ?\w+| ?\p{N}+| ?[^\s\w]+|"))
L.mistake(P, "[a-zA-Z] instead of \\p{L}",
          (0, r"| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|", r"| ?[a-zA-Z]+| ?\p{N}+| ?[^\sa-zA-Z\p{N}]+|"),
          (1, [(r'WORD = r" ?\p{L}+"', r'WORD = r" ?[A-Za-z]+"'), (r'OTHER = r" ?[^\s\p{L}\p{N}]+"', r'OTHER = r" ?[^\sA-Za-z\p{N}]+"')]),
          (2, r"| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|", r"| ?[a-zA-Z]+| ?[0-9]+| ?[^\sa-zA-Z0-9]+|"))
L.mistake(P, "contractions matched case-insensitively",
          (0, "return pat.findall(text)", "return regex.compile(pat.pattern, regex.IGNORECASE).findall(text)"),
          (1, "rx = regex.compile(\"|\".join([CONTRACTIONS, WORD, NUMBER, OTHER, SPACE]))",
           "rx = regex.compile(\"|\".join([CONTRACTIONS, WORD, NUMBER, OTHER, SPACE]), regex.I)"),
          (2, r"'(?:[stmd]|re|ve|ll)| ?\p{L}+", r"(?i:'(?:[stmd]|re|ve|ll))| ?\p{L}+"))
L.mistake(P, "the whitespace rule dropped",
          (0, r"|\s+(?!\S)|\s+", r"|\s+"),
          (1, r'SPACE = r"\s+(?!\S)|\s+"', r'SPACE = r"\s+"'),
          (2, r"|\s+(?!\S)|\s+", r"|\s+"))
L.mistake(P, "pieces stripped of their spaces",
          (0, "return pat.findall(text)", "return [p.strip() for p in pat.findall(text) if p.strip()]"),
          (1, "return [m.group(0) for m in rx.finditer(text)]", "return [m.group(0).strip() for m in rx.finditer(text) if not m.group(0).isspace()]"),
          (2, [("return regex.findall(", "return [w.lstrip() for w in regex.findall("),
               ('\\s+""", text)', '\\s+""", text) if w.strip()]')]))
L.uncatalogued(P, "numbers without their space", (0, r"| ?\p{N}+|", r"|\p{N}+|"))

# ------------------------------------------------------------------ bpe
E = "bpe"
L.styles(E, '''
def bpe(word, ranks):
    parts = list(word)
    while len(parts) > 1:
        best, best_rank = None, None
        for a, b in zip(parts, parts[1:]):
            r = ranks.get(a + " " + b)
            if r is not None and (best_rank is None or r < best_rank):
                best, best_rank = (a, b), r
        if best is None:
            break
        new, i = [], 0
        while i < len(parts):
            if i < len(parts) - 1 and (parts[i], parts[i + 1]) == best:
                new.append(parts[i] + parts[i + 1])
                i += 2
            else:
                new.append(parts[i])
                i += 1
        parts = new
    return parts
''', '''
def bpe(word, ranks):
    tokens = list(word)
    while True:
        pairs = {(tokens[i], tokens[i + 1]) for i in range(len(tokens) - 1)}
        known = [p for p in pairs if f"{p[0]} {p[1]}" in ranks]
        if not known:
            return tokens
        first, second = min(known, key=lambda p: ranks[f"{p[0]} {p[1]}"])
        i = 0
        while i < len(tokens) - 1:
            if tokens[i] == first and tokens[i + 1] == second:
                tokens[i:i + 2] = [first + second]
            i += 1
''', '''
import heapq

def bpe(word, ranks):
    tokens = list(word)
    while True:
        heap = [(ranks[f"{a} {b}"], a, b) for a, b in zip(tokens, tokens[1:]) if f"{a} {b}" in ranks]
        if not heap:
            return tokens
        heapq.heapify(heap)
        *_, a, b = heapq.heappop(heap)
        out, skip = [], False
        for i, t in enumerate(tokens):
            if skip:
                skip = False
            elif t == a and i + 1 < len(tokens) and tokens[i + 1] == b:
                out.append(a + b)
                skip = True
            else:
                out.append(t)
        tokens = out
''')
L.mistake(E, "pairs merged in order of appearance",
          (0, "if r is not None and (best_rank is None or r < best_rank):", "if r is not None and best_rank is None:"),
          (1, [("pairs = {(tokens[i], tokens[i + 1]) for i in range(len(tokens) - 1)}",
                "pairs = [(tokens[i], tokens[i + 1]) for i in range(len(tokens) - 1)]"),
               ("first, second = min(known, key=lambda p: ranks[f\"{p[0]} {p[1]}\"])", "first, second = known[0]")]),
          (2, "        heapq.heapify(heap)\n        *_, a, b = heapq.heappop(heap)\n", "        *_, a, b = heap[0]\n"))
L.mistake(E, "pairs merged by frequency",
          (1, [("pairs = {(tokens[i], tokens[i + 1]) for i in range(len(tokens) - 1)}",
                "pairs = [(tokens[i], tokens[i + 1]) for i in range(len(tokens) - 1)]"),
               ("first, second = min(known, key=lambda p: ranks[f\"{p[0]} {p[1]}\"])",
                "first, second = min(known, key=lambda p: (-known.count(p), ranks[f\"{p[0]} {p[1]}\"]))")]),
          (2, "heap = [(ranks[f\"{a} {b}\"], a, b)", "heap = [(-list(zip(tokens, tokens[1:])).count((a, b)), ranks[f\"{a} {b}\"], a, b)"),
          '''
from collections import Counter

def bpe(word, ranks):
    parts = list(word)
    while True:
        counts = Counter(p for p in zip(parts, parts[1:]) if " ".join(p) in ranks)
        if not counts:
            return parts
        top = max(counts.values())
        a, b = min((p for p in counts if counts[p] == top), key=lambda p: ranks[" ".join(p)])
        merged, i = [], 0
        while i < len(parts):
            if parts[i:i + 2] == [a, b]:
                merged.append(a + b)
                i += 2
            else:
                merged.append(parts[i])
                i += 1
        parts = merged
''')
L.mistake(E, "only the first occurrence merged per step",
          (0, "                new.append(parts[i] + parts[i + 1])\n                i += 2\n",
           "                new.append(parts[i] + parts[i + 1])\n                new.extend(parts[i + 2:])\n                break\n"),
          (1, "                tokens[i:i + 2] = [first + second]\n", "                tokens[i:i + 2] = [first + second]\n                break\n"),
          '''
def bpe(word, ranks):
    tokens = list(word)
    while True:
        scored = [(ranks[tokens[i] + " " + tokens[i + 1]], i) for i in range(len(tokens) - 1)
                  if tokens[i] + " " + tokens[i + 1] in ranks]
        if not scored:
            return tokens
        _, i = min(scored)
        tokens[i:i + 2] = [tokens[i] + tokens[i + 1]]
''')
L.uncatalogued(E, "the last pair never looked at", (1, "for i in range(len(tokens) - 1)}", "for i in range(len(tokens) - 2)}"))

# ------------------------------------------------------------------ encode
N = "encode"
L.styles(N, '''
def encode(text, vocab, ranks, allowed_special=(), disallowed_special="all"):
    eot = "<|endoftext|>"
    allowed = allowed_special == "all" or eot in allowed_special
    disallowed = not allowed and (disallowed_special == "all" or eot in disallowed_special)
    if disallowed and eot in text:
        raise ValueError(f"special token {eot} found in the text")
    table = bytes_to_unicode()
    ids = []
    chunks = text.split(eot) if allowed else [text]
    for k, chunk in enumerate(chunks):
        if k > 0:
            ids.append(vocab[eot])
        for piece in pretokenize(chunk):
            ids.extend(vocab[t] for t in bpe("".join(table[b] for b in piece.encode("utf-8")), ranks))
    return ids
''', '''
import re

def encode(text, vocab, ranks, allowed_special=(), disallowed_special="all"):
    special = "<|endoftext|>"
    ok = {special} if allowed_special == "all" else set(allowed_special)
    banned = {special} - ok if disallowed_special == "all" else set(disallowed_special)
    for s in banned:
        if s in text:
            raise ValueError("disallowed special token " + s)
    alphabet = bytes_to_unicode()
    out = []
    for part in (re.split("(" + re.escape(special) + ")", text) if ok else [text]):
        if part in ok:
            out.append(vocab[part])
            continue
        for piece in pretokenize(part):
            word = "".join(alphabet[b] for b in piece.encode())
            out += [vocab[tok] for tok in bpe(word, ranks)]
    return out
''')
L.mistake(N, "<|endoftext|> treated as special in ordinary text",
          (0, "allowed = allowed_special == \"all\" or eot in allowed_special", "allowed = True"),
          (1, "ok = {special} if allowed_special == \"all\" else set(allowed_special)", "ok = {special}"),
          (0, [("allowed = allowed_special == \"all\" or eot in allowed_special",
                "allowed = allowed_special == \"all\" or eot in allowed_special or disallowed_special == ()"),
               ("disallowed = not allowed and", "disallowed = not allowed and eot in text and")]))
L.mistake(N, "a disallowed <|endoftext|> encoded instead of refused",
          (0, "    if disallowed and eot in text:\n        raise ValueError(f\"special token {eot} found in the text\")\n", ""),
          (1, "            raise ValueError(\"disallowed special token \" + s)", "            pass"),
          (0, "disallowed = not allowed and (disallowed_special == \"all\" or eot in disallowed_special)",
           "disallowed = not allowed and eot in disallowed_special"))
L.mistake(N, "the leading space stripped",
          (0, "        for piece in pretokenize(chunk):\n", "        for piece in pretokenize(chunk):\n            piece = piece.strip() or piece\n"),
          (1, "word = \"\".join(alphabet[b] for b in piece.encode())", "word = \"\".join(alphabet[b] for b in (piece.lstrip() or piece).encode())"),
          (0, "for piece in pretokenize(chunk):", "for piece in [p.lstrip() or p for p in pretokenize(chunk)]:"))
L.uncatalogued(N, "characters looked up instead of bytes",
               (0, "table[b] for b in piece.encode(\"utf-8\")", "table[ord(c)] if ord(c) < 256 else c for c in piece"))

# ------------------------------------------------------------------ decode
D = "decode"
L.styles(D, '''
def decode(ids, vocab):
    inverse = {i: t for t, i in vocab.items()}
    byte_of = {c: b for b, c in enumerate(bytes_to_unicode())}
    data = b""
    for i in ids:
        t = inverse[i]
        if t == "<|endoftext|>":
            data += t.encode("utf-8")
        else:
            data += bytes([byte_of[c] for c in t])
    return data.decode("utf-8", errors="replace")
''', '''
def decode(ids, vocab):
    token = dict(zip(vocab.values(), vocab.keys()))
    back = {ch: b for b, ch in enumerate(bytes_to_unicode())}
    text = "".join(token[i] for i in ids)
    raw = bytearray()
    k = 0
    while k < len(text):
        if text.startswith("<|endoftext|>", k):
            raw += b"<|endoftext|>"
            k += len("<|endoftext|>")
        else:
            raw.append(back[text[k]])
            k += 1
    return bytes(raw).decode("utf-8", "replace")
''')
L.mistake(D, "each token decoded to str separately",
          (0, [("    data = b\"\"\n", "    data = \"\"\n"), ("data += t.encode(\"utf-8\")", "data += t"),
               ("data += bytes([byte_of[c] for c in t])", "data += bytes([byte_of[c] for c in t]).decode(\"utf-8\", errors=\"replace\")"),
               ("return data.decode(\"utf-8\", errors=\"replace\")", "return data")]),
          '''
def decode(ids, vocab):
    inverse = {i: t for t, i in vocab.items()}
    byte_of = {c: b for b, c in enumerate(bytes_to_unicode())}
    pieces = []
    for i in ids:
        t = inverse[i]
        raw = t.encode() if t == "<|endoftext|>" else bytes(byte_of[c] for c in t)
        pieces.append(raw.decode("utf-8", errors="replace"))
    return "".join(pieces)
''', '''
def decode(ids, vocab):
    inverse = {i: t for t, i in vocab.items()}
    byte_of = {c: b for b, c in enumerate(bytes_to_unicode())}
    def one(t):
        if t == "<|endoftext|>":
            return t
        return bytes(byte_of[c] for c in t).decode("utf-8", "replace")
    return "".join(one(inverse[i]) for i in ids)
''')
L.mistake(D, "the byte alphabet not mapped back to bytes",
          (0, "            data += bytes([byte_of[c] for c in t])", "            data += t.encode(\"utf-8\")"),
          (1, "    return bytes(raw).decode(\"utf-8\", \"replace\")", "    return text"),
          '''
def decode(ids, vocab):
    inverse = {i: t for t, i in vocab.items()}
    return "".join(inverse[i] for i in ids)
''')
L.mistake(D, "invalid bytes dropped (errors='ignore')",
          (0, "errors=\"replace\")", "errors=\"ignore\")"),
          (1, "decode(\"utf-8\", \"replace\")", "decode(\"utf-8\", \"ignore\")"),
          (0, "return data.decode(\"utf-8\", errors=\"replace\")", "return data.decode(\"utf-8\", \"ignore\")"))
L.uncatalogued(D, "invalid bytes decoded as Latin-1", (0, "return data.decode(\"utf-8\", errors=\"replace\")",
                                                      "return data.decode(\"latin-1\")"))

# ------------------------------------------------------------------ train_bpe
T = "train_bpe"
L.styles(T, '''
def train_bpe(text, n_merges):
    chars = bytes_to_unicode()
    to_bytes = {c: b for b, c in enumerate(chars)}
    raw = lambda tok: bytes(to_bytes[c] for c in tok)
    words = {}
    for piece in pretokenize(text):
        key = tuple(chars[b] for b in piece.encode("utf-8"))
        words[key] = words.get(key, 0) + 1
    merges = []
    for _ in range(n_merges):
        counts = {}
        for w, n in words.items():
            for p in zip(w, w[1:]):
                counts[p] = counts.get(p, 0) + n
        if not counts:
            break
        a, b = max(counts, key=lambda p: (counts[p], raw(p[0]), raw(p[1])))
        merges.append(a + " " + b)
        new = {}
        for w, n in words.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            new[tuple(out)] = new.get(tuple(out), 0) + n
        words = new
    return merges
''', '''
def train_bpe(text, n_merges):
    words = [[bytes([b]) for b in piece.encode()] for piece in pretokenize(text)]
    alphabet = bytes_to_unicode()
    show = lambda tok: "".join(alphabet[b] for b in tok)
    merges = []
    while len(merges) < n_merges:
        pairs = [(w[i], w[i + 1]) for w in words for i in range(len(w) - 1)]
        if not pairs:
            break
        counts = {p: pairs.count(p) for p in set(pairs)}
        top = max(counts.values())
        best = max(p for p in counts if counts[p] == top)
        for w in words:
            i = 0
            while i < len(w) - 1:
                if (w[i], w[i + 1]) == best:
                    w[i:i + 2] = [w[i] + w[i + 1]]
                i += 1
        merges.append(show(best[0]) + " " + show(best[1]))
    return merges
''')
L.mistake(T, "ties broken by the byte-alphabet characters",
          (0, "a, b = max(counts, key=lambda p: (counts[p], raw(p[0]), raw(p[1])))", "a, b = max(counts, key=lambda p: (counts[p], p))"),
          (1, "best = max(p for p in counts if counts[p] == top)", "best = max((p for p in counts if counts[p] == top), key=lambda p: (show(p[0]), show(p[1])))"),
          (0, "a, b = max(counts, key=lambda p: (counts[p], raw(p[0]), raw(p[1])))", "a, b = max(counts, key=lambda p: (counts[p], p[0], p[1]))"))
L.mistake(T, "ties broken towards the smallest pair",
          (0, "a, b = max(counts, key=lambda p: (counts[p], raw(p[0]), raw(p[1])))",
           "a, b = min(counts, key=lambda p: (-counts[p], raw(p[0]), raw(p[1])))"),
          (1, "best = max(p for p in counts if counts[p] == top)", "best = min(p for p in counts if counts[p] == top)"),
          (1, "best = max(p for p in counts if counts[p] == top)", "best = sorted(p for p in counts if counts[p] == top)[0]"))
L.mistake(T, "ties broken by the first pair counted",
          (0, "a, b = max(counts, key=lambda p: (counts[p], raw(p[0]), raw(p[1])))", "a, b = max(counts, key=counts.get)"),
          (0, "a, b = max(counts, key=lambda p: (counts[p], raw(p[0]), raw(p[1])))", "a, b = max(counts, key=lambda p: counts[p])"),
          (0, "a, b = max(counts, key=lambda p: (counts[p], raw(p[0]), raw(p[1])))",
           "a, b = sorted(counts, key=lambda p: -counts[p])[0]"))
L.mistake(T, "merges across pretokenize's pieces",
          (0, "for piece in pretokenize(text):", "for piece in [text]:"),
          (1, "for piece in pretokenize(text)]", "for piece in [text]]"),
          (1, "words = [[bytes([b]) for b in piece.encode()] for piece in pretokenize(text)]",
           "words = [[bytes([b]) for b in text.encode()]]"))
L.uncatalogued(T, "pairs counted once per piece", (0, "counts[p] = counts.get(p, 0) + n", "counts[p] = counts.get(p, 0) + 1"))

# ------------------------------------------------------------------ generate_text
G = "generate_text"
L.styles(G, '''
def generate_text(prompt, params, n_head, n_new, vocab, ranks):
    ids = encode(prompt, vocab, ranks)
    for _ in range(n_new):
        logits = gpt_logits(params, np.array(ids), n_head)
        ids.append(int(np.argmax(logits[-1])))
    return ids, decode(ids, vocab)
''', '''
def generate_text(prompt, params, n_head, n_new, vocab, ranks):
    context = np.array(encode(prompt, vocab, ranks), dtype=np.int64)
    for step in range(n_new):
        last = gpt_logits(params, context, n_head)[context.shape[0] - 1]
        context = np.append(context, last.argmax())
    ids = [int(i) for i in context]
    text = decode(ids, vocab)
    return ids, text
''')
L.mistake(G, "the first position's logits used",
          (0, "ids.append(int(np.argmax(logits[-1])))", "ids.append(int(np.argmax(logits[0])))"),
          (1, "[context.shape[0] - 1]", "[0]"),
          (0, "ids.append(int(np.argmax(logits[-1])))", "ids.append(int(logits.argmax(axis=-1)[0]))"))
L.mistake(G, "the prompt's ids left out",
          (0, [("    ids = encode(prompt, vocab, ranks)\n", "    ids = encode(prompt, vocab, ranks)\n    n = len(ids)\n"),
               ("return ids, decode(ids, vocab)", "return ids[n:], decode(ids[n:], vocab)")]),
          (1, [("    context = np.array(encode(prompt, vocab, ranks), dtype=np.int64)\n",
                "    context = np.array(encode(prompt, vocab, ranks), dtype=np.int64)\n    start = len(context)\n"),
               ("ids = [int(i) for i in context]", "ids = [int(i) for i in context[start:]]")]),
          '''
def generate_text(prompt, params, n_head, n_new, vocab, ranks):
    context = encode(prompt, vocab, ranks)
    new = []
    for _ in range(n_new):
        nxt = int(np.argmax(gpt_logits(params, np.array(context + new), n_head)[-1]))
        new.append(nxt)
    return new, decode(new, vocab)
''')
L.mistake(G, "the text decoded token by token",
          (0, "return ids, decode(ids, vocab)", "return ids, \"\".join(decode([i], vocab) for i in ids)"),
          (1, "text = decode(ids, vocab)", "text = \"\".join(decode([t], vocab) for t in ids)"),
          (0, "return ids, decode(ids, vocab)", "return ids, \"\".join(map(lambda i: decode([i], vocab), ids))"))
L.uncatalogued(G, "one token too few", (0, "for _ in range(n_new):", "for _ in range(n_new - 1):"))

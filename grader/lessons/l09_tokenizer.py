"""Lesson 09: GPT-2's tokenizer, byte for byte (gpt2course/tokenizer.py is the course's own)."""
from __future__ import annotations

from gpt2course import tokenizer as tk

from ..judging.registry import Exercise, Mistake, register
from . import _l09_cases as C
from . import _l09_variants as V
from ._variants import flagged

LESSON = "09_tokenizer"


register(Exercise(
    name="bytes_to_unicode",
    lesson=LESSON,
    difficulty=1, importance=3, minutes=10,
    reference=V.bytes_to_unicode,
    public_cases=C.table_public,
    hidden_cases=C.table_hidden,
    mistakes=[
        Mistake("the byte map built from chr(b) for every byte",
                "chr(b) for the 68 bytes that are not printable Latin-1 characters gives controls, a "
                "plain space, DEL, a no-break space and a soft hyphen: invisible or ambiguous in a "
                "vocabulary file. GPT-2 keeps chr(b) only for bytes 33-126, 161-172 and 174-255, and "
                "gives the others chr(256), chr(257), ... in byte order.",
                flagged(V.bytes_to_unicode, moved="none")),
        Mistake("moved bytes numbered by their own value",
                "A byte that is not kept gets chr(256 + n), n counting the bytes moved before it (0 for "
                "byte 0, 32 for the space, so 'Ġ'), not chr(256 + b).",
                flagged(V.bytes_to_unicode, moved="byte")),
    ],
    hints=(
        "Three ranges of bytes are printable characters of their own: '!' to '~', '¡' to '¬' and "
        "'®' to 'ÿ'. Those keep chr(b).",
        "Every other byte (there are 68) needs a stand-in that is printable: the characters from "
        "chr(256) upwards.",
        "Walk the bytes 0..255 in order with a counter n starting at 0: a kept byte gets chr(b); any "
        "other gets chr(256 + n), then n goes up by one. Return the 256 characters as a list.",
    ),
))


register(Exercise(
    name="pretokenize",
    lesson=LESSON,
    difficulty=2, importance=3, minutes=20,
    reference=tk.pretokenize,
    public_cases=C.pretokenize_public,
    hidden_cases=C.pretokenize_hidden,
    mistakes=[
        Mistake("\\w instead of \\p{L}",
                "\\w also matches digits and the underscore, so 'x2' or 'snake_case' stay one piece. GPT-2 "
                "splits letters (\\p{L}), numbers (\\p{N}) and everything else into separate runs.",
                flagged(V.pretokenize, letters=r"\w")),
        Mistake("[a-zA-Z] instead of \\p{L}",
                "[a-zA-Z] knows only ASCII letters: 'é', 'ß' or '日' fall into the 'other' run and split "
                "words apart. \\p{L} (the regex module's Unicode letter class) matches every letter.",
                flagged(V.pretokenize, letters="[a-zA-Z]")),
        Mistake("contractions matched case-insensitively",
                "GPT-2's contractions are lower case only: 's, 't, 're, 've, 'm, 'll, 'd. \"it'S\" splits "
                "into 'it', \"'\" and 'S'. Drop re.IGNORECASE (or (?i)).",
                flagged(V.pretokenize, case_insensitive=True)),
        Mistake("the whitespace rule dropped",
                "Without \\s+(?!\\S), a run of spaces before a word is one piece and the word gets no "
                "space. GPT-2 leaves the last space of the run to the next word (' b'), so words keep "
                "their usual ' word' tokens.",
                flagged(V.pretokenize, whitespace_rule=False)),
        Mistake("pieces stripped of their spaces",
                "The leading space is part of a piece (' world' is one token, id 995, different from "
                "'world'); whitespace pieces are pieces too. Return the matches as they are.",
                flagged(V.pretokenize, strip=True)),
    ],
    hints=(
        "GPT-2 splits with one regular expression and returns every match, in order, with nothing "
        "between them lost: ''.join(pieces) is the text.",
        "Alternatives, first match wins: the seven contractions 's 't 're 've 'm 'll 'd; an optional "
        "space and a run of letters; the same for numbers; the same for anything that is neither "
        "space, letter nor number; whitespace not followed by a non-space; any whitespace.",
        "Letters and numbers are Unicode classes: the `regex` module's \\p{L} and \\p{N} (the standard "
        "`re` has no such classes). The whitespace rule is a negative lookahead: \\s+(?!\\S).",
    ),
))


register(Exercise(
    name="bpe",
    lesson=LESSON,
    difficulty=2, importance=3, minutes=25,
    reference=tk.bpe,
    public_cases=C.bpe_public,
    hidden_cases=C.bpe_hidden,
    mistakes=[
        Mistake("pairs merged in order of appearance",
                "The next merge is the pair with the lowest rank anywhere in the word, not the first "
                "pair (from the left) that the table knows.",
                flagged(V.bpe, order="appearance")),
        Mistake("pairs merged by frequency",
                "Counting pairs is training; encoding only follows the table: the pair with the lowest "
                "rank goes first, however often another pair occurs.",
                flagged(V.bpe, order="frequency")),
        Mistake("only the first occurrence merged per step",
                "Each step merges every occurrence of the chosen pair, left to right, before looking for "
                "the next pair; merging one and choosing again can pick a merge that uses the new token "
                "first, where the table ranks it before the pair's parts.",
                flagged(V.bpe, every=False)),
    ],
    hints=(
        "Start from the word's characters as a list of tokens. Repeat: look at every adjacent pair "
        "(tokens[i], tokens[i + 1]) and its rank, the value of ranks[f\"{a} {b}\"].",
        "Choose the pair with the lowest rank. When no pair of the word is in the table, stop.",
        "Merge every occurrence of that pair in one pass from the left (after a merge, continue "
        "after the two tokens just joined), then choose again. Return the list of tokens.",
    ),
))


register(Exercise(
    name="encode",
    lesson=LESSON,
    difficulty=2, importance=3, minutes=25,
    reference=V.encode,
    public_cases=C.encode_public,
    hidden_cases=C.encode_hidden,
    uses=("bytes_to_unicode", "pretokenize", "bpe"),
    mistakes=[
        Mistake("<|endoftext|> treated as special in ordinary text",
                "With disallowed_special=() the special token's text is ordinary text: "
                "'<', '|', 'endoftext', '|', '>' tokens, never id 50256. Only allowed_special makes it one "
                "id (tiktoken's rule).",
                flagged(V.encode, special="always")),
        Mistake("a disallowed <|endoftext|> encoded instead of refused",
                "By default (disallowed_special='all') a special token that is not allowed must raise a "
                "ValueError naming it, as tiktoken does: text from a user must not smuggle in "
                "end-of-text.",
                flagged(V.encode, special="never_raise")),
        Mistake("the leading space stripped",
                "' world' (id 995) and 'world' (id 6894) are different tokens: keep each piece's space; "
                "its byte is the 'Ġ' of the token.",
                flagged(V.encode, strip=True)),
    ],
    hints=(
        "First the special token: decide from allowed_special and disallowed_special whether "
        "'<|endoftext|>' is one id, an error or text, as tiktoken's rule says.",
        "Split the text around each allowed special token; every other stretch goes through "
        "pretokenize, piece by piece.",
        "A piece becomes bytes (UTF-8), each byte its character from bytes_to_unicode, then bpe "
        "merges them, then each token's id comes from vocab.",
    ),
))


register(Exercise(
    name="decode",
    lesson=LESSON,
    difficulty=1, importance=3, minutes=10,
    reference=V.decode,
    public_cases=C.decode_public,
    uses=("bytes_to_unicode",),
    hidden_cases=C.decode_hidden,
    mistakes=[
        Mistake("each token decoded to str separately",
                "One character can take several tokens (an emoji is four bytes): decoding each token "
                "alone gives replacement characters. Join every token's bytes first, then decode once.",
                flagged(V.decode, join="each")),
        Mistake("the byte alphabet not mapped back to bytes",
                "A token is written in GPT-2's byte alphabet ('Ġ' for a space): map each of its "
                "characters back to its byte, join the bytes, then decode them with UTF-8.",
                flagged(V.decode, join="chars")),
        Mistake("invalid bytes dropped (errors='ignore')",
                "GPT-2 decodes with errors='replace': a byte sequence cut in the middle of a character "
                "shows as U+FFFD, so the learner sees that something is missing.",
                flagged(V.decode, errors="ignore")),
    ],
    hints=(
        "Invert vocab: id -> token. The special token stands for its own text.",
        "Each character of a token is one byte: invert bytes_to_unicode to read it back.",
        "Join the bytes of all the tokens, then call .decode('utf-8', errors='replace') once.",
    ),
))


register(Exercise(
    name="train_bpe",
    lesson=LESSON,
    difficulty=3, importance=1, minutes=45,
    reference=V.train_bpe,
    public_cases=C.train_public,
    hidden_cases=C.train_hidden,
    uses=("bytes_to_unicode", "pretokenize"),
    mistakes=[
        Mistake("ties broken by the byte-alphabet characters",
                "Compare tied pairs as byte strings, (bytes of a, bytes of b). Their characters in GPT-2's "
                "alphabet sort differently: 'Ġ' (the space) is chr(288), after every letter, while the "
                "space byte 32 comes before them.",
                flagged(V.train_bpe, tie="chars")),
        Mistake("ties broken towards the smallest pair",
                "Of the most frequent pairs, take the greatest as byte strings (max), as the lesson and "
                "CS336 state.",
                flagged(V.train_bpe, tie="least")),
        Mistake("ties broken by the first pair counted",
                "max over a Counter returns the first of equal counts, so the merge depends on the order "
                "of the text. Break ties explicitly: the greatest (bytes(a), bytes(b)).",
                flagged(V.train_bpe, tie="first")),
        Mistake("merges across pretokenize's pieces",
                "Count pairs inside each piece of pretokenize only: a merge never joins the end of one "
                "word to the start of the next, as in encoding.",
                flagged(V.train_bpe, pieces=False)),
    ],
    hints=(
        "Pretokenize the text and count each piece; each piece becomes a tuple of byte-alphabet "
        "characters (its UTF-8 bytes through bytes_to_unicode).",
        "Each step: count every adjacent pair of every piece, times the piece's count; stop when there "
        "is none.",
        "Take the most frequent pair, ties to the greatest (bytes(a), bytes(b)); record it as the line "
        "f\"{a} {b}\", and merge it in every piece, left to right, before the next step.",
    ),
))


register(Exercise(
    name="generate_text",
    lesson=LESSON,
    difficulty=1, importance=2, minutes=15,
    reference=V.generate_text,
    public_cases=C.generate_public,
    hidden_cases=C.generate_hidden,
    uses=("encode", "decode", "gpt_logits"),
    returns=("ids", "text"),
    mistakes=[
        Mistake("the first position's logits used",
                "gpt_logits gives one row of logits per position; the next token is scored by the last "
                "row, logits[-1], which has seen the whole context. logits[0] has seen only the first id.",
                flagged(V.generate_text, position=0)),
        Mistake("the prompt's ids left out",
                "Return every id, the prompt's first, then the new ones (as Hugging Face's generate "
                "does), and the text of them all.",
                flagged(V.generate_text, keep_prompt=False)),
        Mistake("the text decoded token by token",
                "A new token may hold part of a character: decode all the ids at once, with decode, so "
                "the bytes of a character split across tokens come back together.",
                flagged(V.generate_text, join="each")),
    ],
    hints=(
        "Three steps: the prompt's ids with encode; then n_new times, the model's logits on every id so "
        "far and the most likely next id appended; then decode.",
        "gpt_logits(params, ids, n_head) takes an int array of ids (T,) and gives (T, V): the row of "
        "the last position scores the next token. Greedy decoding takes its argmax.",
        "Return a tuple: the list of all the ids (the prompt's, then the new ones, as Python ints) and "
        "decode of that list.",
    ),
))

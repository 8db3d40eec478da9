"""Lesson 08's data: a corpus every Python already has, a character tokenizer, batches.

The corpus: the documentation strings of a fixed list of standard-library
modules (module, class and function docstrings), plus the Zen of Python
(``this.py``, stored ROT13-encoded, decoded here). Why these:

- **No download, no file in the repository.** The text is read at run time,
  with ``ast``, from the ``.py`` sources of the learner's own Python
  installation (no module is imported, so nothing runs). A fresh, offline
  machine has it. Parsing takes seconds, so the result is kept in the course's
  cache (:func:`cache_dir`) under a key made of the sources' sizes and
  modification times, the Python version and this file: a changed source, another
  Python or an edit here means a fresh parse.
- **Licence-clean.** It is the Python Software Foundation's text under the
  PSF licence (permissive, GPL-compatible), read from the copy the learner
  already installed; the course neither copies nor redistributes it.
- **Real prose at a useful size.** About a megabyte of English with code
  examples in it: enough that a 100k-parameter model trained for a few
  minutes on a laptop learns words, punctuation and doctest layout, without
  being able to memorise it. Text the project wrote itself would have to be
  hundreds of kilobytes long to serve the same purpose.
- **Documents come for free.** Each docstring is one document, so the
  train/validation split is by document (a validation docstring is never
  seen during training), as it should be, rather than by window.

The text differs a little between Python versions (docstrings get edited), so
losses in the lesson move in the second decimal between versions; a document's
split does not, because it is decided by a hash of its own text.
:func:`corpus_fingerprint` names the exact text a run used.

The tokenizer: 55 characters plus one end-of-text id, so the course's tiny
model (``config.TINY``, vocabulary 56) fits it exactly. Normalisation lowercases
everything, turns tabs into spaces, strips accents (NFKD), and maps any other
character outside :data:`ALPHABET` to :data:`FALLBACK`. The 54 kept characters
are the most frequent ones in the corpus: the 26 letters, the 10 digits, space,
newline and 16 punctuation marks; everything rarer (``; \\ < + # | ! ? ...``
together well under 1% of characters) becomes the fallback.
"""
from __future__ import annotations

import ast
import codecs
import functools
import hashlib
import json
import os
import sys
import sysconfig
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# ------------------------------------------------------------------ tokenizer
FALLBACK = "\ufffd"  # U+FFFD REPLACEMENT CHARACTER: "some character we do not model"
ALPHABET = (
    "\n "                                   # newline first: id 0, space id 1
    "abcdefghijklmnopqrstuvwxyz"
    "0123456789"
    ".,-()'_:>`\"=*/[]"                     # the 16 most frequent punctuation marks
    + FALLBACK                              # id 54
)
EOT = "<|endoftext|>"                       # shown for the end-of-text id when decoding
EOT_ID = len(ALPHABET)                      # 55: the last id, as in GPT-2 (50256)
VOCAB_SIZE = len(ALPHABET) + 1              # 56

_ID = {ch: i for i, ch in enumerate(ALPHABET)}
_FALLBACK_ID = _ID[FALLBACK]


def normalise(text: str) -> str:
    """Lowercase, tabs to spaces, accents stripped; characters outside ALPHABET -> FALLBACK."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ").lower()
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return "".join(c if c in _ID else FALLBACK for c in text)


def encode(text: str, eot: bool = False) -> np.ndarray:
    """Character ids (uint8) of the normalised text; eot=True appends the end-of-text id."""
    ids = [_ID[c] for c in normalise(text)] + ([EOT_ID] if eot else [])
    return np.array(ids, dtype=np.uint8)


def decode(ids) -> str:
    """Text for ids (any integer sequence); the end-of-text id shows as EOT."""
    out = []
    for i in np.asarray(ids).reshape(-1).tolist():
        if not 0 <= i < VOCAB_SIZE:
            raise ValueError(f"token id {i} is outside the vocabulary [0, {VOCAB_SIZE})")
        out.append(EOT if i == EOT_ID else ALPHABET[i])
    return "".join(out)


# ------------------------------------------------------------------ the corpus
# Long-lived modules (present from Python 3.11 on) with prose-rich docstrings.
# Packages contribute every .py file below them except their tests.
CORPUS_MODULES = (
    "abc", "argparse", "ast", "asyncio", "base64", "bisect", "calendar", "cmd", "codecs",
    "collections", "concurrent", "configparser", "contextlib", "copy", "csv", "dataclasses",
    "datetime", "decimal", "difflib", "doctest", "email", "enum", "fractions", "functools",
    "gettext", "glob", "heapq", "http", "importlib", "inspect", "ipaddress", "json", "logging",
    "mailbox", "multiprocessing", "numbers", "operator", "optparse", "pathlib", "pdb", "pickle",
    "pprint", "queue", "random", "shlex", "shutil", "smtplib", "socketserver", "statistics",
    "string", "subprocess", "tarfile", "tempfile", "textwrap", "threading", "timeit", "tokenize",
    "traceback", "turtle", "typing", "unittest", "urllib", "uuid", "warnings", "weakref", "xml",
    "zipfile",
)
_SKIP_DIRS = {"test", "tests", "idle_test", "__pycache__"}
MIN_DOC_CHARS = 40  # shorter docstrings ("Return self.") are mostly boilerplate


def stdlib_dir() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def _sources(name: str, root: Path) -> list[Path]:
    if (root / f"{name}.py").is_file():
        return [root / f"{name}.py"]
    if (root / name).is_dir():
        return sorted(p for p in (root / name).rglob("*.py") if not _SKIP_DIRS & set(p.parts))
    return []


def _docstrings(path: Path) -> list[str]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return []
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return [d for node in ast.walk(tree) if isinstance(node, kinds) and (d := ast.get_docstring(node))]


def zen_of_python(root: Path | None = None) -> str:
    """The Zen of Python, decoded from this.py's ROT13 string without importing it."""
    tree = ast.parse(((root or stdlib_dir()) / "this.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "s":
            return codecs.decode(node.value.value, "rot13")
    raise ValueError("this.py has no string s: cannot read the Zen of Python")


def corpus_documents(root: Path | None = None) -> list[str]:
    """The normalised documents, in module order: the Zen first, then every docstring.

    Documents shorter than MIN_DOC_CHARS are dropped, and a document equal to an
    earlier one (after normalisation) is kept once, so no text sits in both splits.
    """
    return list(_documents(Path(root or stdlib_dir())))


def corpus_texts(root: Path | None = None) -> list[str]:
    """What the documents are made from, as read: the Zen, then every docstring of
    CORPUS_MODULES in module order, before normalising, the length filter and repeats."""
    return list(_texts(Path(root or stdlib_dir())))


@functools.lru_cache(maxsize=4)
def _documents(root: Path) -> tuple[str, ...]:
    docs = dict.fromkeys(doc for doc in (normalise(text).strip() for text in _texts(root))
                         if len(doc) >= MIN_DOC_CHARS)   # a dict keeps the first of equal documents
    return tuple(docs)


@functools.lru_cache(maxsize=4)
def _texts(root: Path) -> tuple[str, ...]:
    # parsing ~600 files takes seconds: once per process (lru_cache), once per machine (the cache)
    sources = _corpus_sources(root)
    key = _corpus_key(root, [root / "this.py", *sources])
    texts = _cached_texts(key)
    if texts is None:
        texts = _parse_texts(root, sources)
        _store_texts(key, texts)
    return texts


def _corpus_sources(root: Path) -> list[Path]:
    """The .py files whose docstrings make the corpus, in module order (the Zen's this.py apart)."""
    return [path for name in CORPUS_MODULES for path in _sources(name, root)]


def cache_dir() -> Path:
    """Where the course keeps what it can compute again: $GPT2COURSE_CACHE, else
    gpt2course/ in $XDG_CACHE_HOME (~/.cache). Deleting it only costs time."""
    if os.environ.get("GPT2COURSE_CACHE"):
        return Path(os.environ["GPT2COURSE_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gpt2course"


def _corpus_key(root: Path, files: list[Path]) -> str:
    """Names what the parse would read: each source's size and time, the Python, this file."""
    stats = [(str(p.relative_to(root)), p.stat().st_size, p.stat().st_mtime_ns) for p in files]
    made_by = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    return hashlib.sha256(json.dumps([sys.version, str(root), made_by, stats]).encode()).hexdigest()


def _corpus_cache_file(key: str) -> Path:
    return cache_dir() / "corpus" / f"{key[:32]}.json"


def _cached_texts(key: str) -> tuple[str, ...] | None:
    """The texts stored under key; None (parse again) for a missing, damaged or other key's file."""
    try:
        stored = json.loads(_corpus_cache_file(key).read_text(encoding="utf-8"))
        texts = stored["texts"]
    except (OSError, RuntimeError, ValueError, KeyError, TypeError):  # RuntimeError: no home folder
        return None
    ok = stored.get("key") == key and isinstance(texts, list) and all(isinstance(t, str) for t in texts)
    return tuple(texts) if ok else None


def _store_texts(key: str, texts: tuple[str, ...]) -> None:
    """Written whole or not at all (a temporary file renamed); a cache it cannot write is skipped."""
    temporary = None
    try:
        path = _corpus_cache_file(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False) as f:
            temporary = Path(f.name)
            json.dump({"key": key, "texts": list(texts)}, f)
        os.replace(temporary, path)
    except (OSError, RuntimeError):  # read-only, full, no home folder: the next run parses again
        if temporary is not None:
            temporary.unlink(missing_ok=True)


def _parse_texts(root: Path, sources: list[Path]) -> tuple[str, ...]:
    texts = [zen_of_python(root)]
    for path in sources:
        texts.extend(_docstrings(path))
    if sum(map(len, texts)) < 100_000:
        raise RuntimeError(f"only {sum(map(len, texts))} characters of docstrings under {root}: this "
                           "Python ships without its standard library's .py sources (an embedded or "
                           "stripped build); use a regular CPython installation")
    return tuple(texts)


def corpus_fingerprint(docs: list[str]) -> str:
    """A short hash naming the exact text (it changes with the Python version)."""
    return hashlib.sha256("\x00".join(docs).encode()).hexdigest()[:16]


# ------------------------------------------------------------------ the split
def in_validation(doc: str, val_fraction: float) -> bool:
    """A document's split, decided by a hash of its own text (stable when others change)."""
    h = int.from_bytes(hashlib.sha256(doc.encode()).digest()[:8], "big")
    return h / 2**64 < val_fraction


def split_documents(docs: list[str], val_fraction: float = 0.1) -> tuple[list[str], list[str]]:
    """(train, val) by whole documents; each side keeps the documents' order."""
    if not 0.0 < val_fraction < 1.0:
        raise ValueError(f"val_fraction must lie strictly between 0 and 1, got {val_fraction}")
    if len(docs) < 2:
        raise ValueError(f"need at least 2 documents to split, got {len(docs)}")
    val = [in_validation(d, val_fraction) for d in docs]
    if all(val) or not any(val):  # tiny inputs: force one document onto the empty side
        val[0] = not val[0]
    return ([d for d, v in zip(docs, val) if not v], [d for d, v in zip(docs, val) if v])


def to_ids(docs: list[str]) -> np.ndarray:
    """One stream of ids: each document followed by the end-of-text id (as GPT-2 trained)."""
    return np.concatenate([encode(d, eot=True) for d in docs])


@dataclass(frozen=True)
class Splits:
    train: np.ndarray    # uint8 ids, documents separated by EOT_ID
    val: np.ndarray
    fingerprint: str     # corpus_fingerprint of all the documents
    n_docs: tuple[int, int]


def load_splits(val_fraction: float = 0.1, root: Path | None = None) -> Splits:
    docs = corpus_documents(root)
    train, val = split_documents(docs, val_fraction)
    return Splits(to_ids(train), to_ids(val), corpus_fingerprint(docs), (len(train), len(val)))


# ------------------------------------------------------------------ batches
def get_batch(data: np.ndarray, batch_size: int, block_size: int, rng: np.random.Generator):
    """Random windows of an id stream: inputs x and targets y = x shifted by one, both (B, T) int64."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), "
                        f"got {type(rng).__name__}")
    n = len(data) - block_size  # the number of windows whose last target is still in the data
    if n < 1:
        raise ValueError(f"data holds {len(data)} ids: a window of block_size={block_size} needs "
                         f"at least {block_size + 1} (its inputs and the shifted targets)")
    starts = rng.integers(0, n, size=batch_size)              # (B,)
    rows = starts[:, None] + np.arange(block_size)            # (B, T)
    data = np.asarray(data)
    return data[rows].astype(np.int64), data[rows + 1].astype(np.int64)

"""gpt2course/data.py: the corpus, the character tokenizer, the split by document, batches.

Oracles are independent of the code under test: the tiny model's config (vocabulary),
hand-normalised strings, `import this` run by Python itself, ids counted by hand, and
batches built by an explicit loop over starts drawn with NumPy's own call.
"""
import hashlib
import json
import shutil
import subprocess
import sys

import numpy as np
import pytest

from gpt2course import TINY, data


# ------------------------------------------------------------------ the tokenizer and the corpus
def test_the_tokenizer_fills_the_tiny_models_vocabulary_exactly():
    assert data.VOCAB_SIZE == TINY.vocab_size
    characters = data.decode(np.arange(TINY.vocab_size - 1))
    assert len(characters) == len(set(characters)) == TINY.vocab_size - 1  # 55 distinct characters
    assert data.decode([TINY.vocab_size - 1]) == "<|endoftext|>"           # end-of-text is the last id
    with pytest.raises(ValueError, match="outside the vocabulary"):
        data.decode([TINY.vocab_size])


@pytest.mark.parametrize("raw, expected", [
    ("Hello,\tWorld", "hello, world"),
    ("Café déjà vu", "cafe deja vu"),
    ("x = [1, 2]\r\n", "x = [1, 2]\n"),
    ("a!b{c}", "a\ufffdb\ufffdc\ufffd"),   # rare characters share the fallback id
])
def test_normalisation_by_hand(raw, expected):
    assert data.decode(data.encode(raw)) == expected
    assert data.encode(raw).dtype == np.uint8


def test_corpus_is_the_zen_and_docstrings_within_55_characters():
    docs = data.corpus_documents()
    assert docs[0].startswith("the zen of python") and "beautiful is better than ugly." in docs[0]
    assert sum(map(len, docs)) > 500_000 and len(docs) > 1000
    assert len(set("".join(docs))) <= TINY.vocab_size - 1
    assert len(set(docs)) == len(docs)  # no document twice, so none can sit in both splits


# ------------------------------------------------------------------ the corpus cache
def clear_process_caches():
    data._texts.cache_clear()
    data._documents.cache_clear()


def test_the_corpus_served_is_the_parse_of_the_sources():
    """Whatever the cache holds (another process of this run may have written it), the corpus is
    what parsing the sources gives now."""
    clear_process_caches()
    served, texts = data.corpus_documents(), data.corpus_texts()
    root = data.stdlib_dir()
    sources = data._corpus_sources(root)
    parsed = data._parse_texts(root, sources)
    assert tuple(texts) == parsed
    # the documents: normalised, at least MIN_DOC_CHARS long, each once (the first kept)
    documents = []
    for text in parsed:
        doc = data.normalise(text).strip()
        if len(doc) >= data.MIN_DOC_CHARS and doc not in documents:
            documents.append(doc)
    assert served == documents
    # and the texts were kept for the next process, under the key of these very sources
    key = data._corpus_key(root, [root / "this.py", *sources])
    assert json.loads(data._corpus_cache_file(key).read_text())["texts"] == texts


def parse_text(n: int) -> str:
    return f"parse {n}, a docstring long enough to be kept"


@pytest.fixture
def small_stdlib(tmp_path, monkeypatch):
    """A standard library of two files, a cache of its own, and a parse that counts its calls
    (the n-th parse returns (parse_text(n),), so a served corpus says which parse made it)."""
    root = tmp_path / "lib"
    root.mkdir()
    shutil.copyfile(data.stdlib_dir() / "this.py", root / "this.py")
    (root / "abc.py").write_text('"""Abstract base classes, a module docstring."""\n')
    monkeypatch.setenv("GPT2COURSE_CACHE", str(tmp_path / "cache"))
    parses = []

    def counted_parse(parsed_root, sources):
        assert parsed_root == root and sources == [root / "abc.py"]
        parses.append(1)
        return (parse_text(len(parses)),)

    monkeypatch.setattr(data, "_parse_texts", counted_parse)
    clear_process_caches()
    yield root, tmp_path / "cache" / "corpus"
    clear_process_caches()


def served(root):
    clear_process_caches()  # a new process: only the cache on disk is shared
    return data.corpus_documents(root)


def test_the_corpus_is_parsed_once_then_read_from_the_cache(small_stdlib):
    root, folder = small_stdlib
    assert served(root) == [parse_text(1)] and len(list(folder.glob("*.json"))) == 1
    assert served(root) == [parse_text(1)] and served(root) == [parse_text(1)]


def test_a_changed_source_or_another_python_is_parsed_again(small_stdlib, monkeypatch):
    root, _ = small_stdlib
    assert served(root) == [parse_text(1)]
    with open(root / "abc.py", "a") as f:
        f.write("# an edit\n")
    assert served(root) == [parse_text(2)]
    monkeypatch.setattr(data.sys, "version", "3.11.99 (another build)")
    assert served(root) == [parse_text(3)]


def test_a_damaged_cache_file_is_parsed_again_and_replaced(small_stdlib):
    root, folder = small_stdlib
    served(root)
    (cached,) = folder.glob("*.json")
    other = "another text, long enough to be a document"
    for damage in ("", "{not json", json.dumps({"key": "another", "texts": [other]}),
                   json.dumps({"key": json.loads(cached.read_text())["key"], "texts": [1, 2]}),
                   json.dumps({"key": json.loads(cached.read_text())["key"], "docs": [other]})):  # before texts
        key = json.loads(cached.read_text())["key"]
        cached.write_text(damage)
        before = served(root)
        assert before[0].startswith("parse ") and before != [other]
        assert json.loads(cached.read_text()) == {"key": key, "texts": before}
    assert served(root) == before


def test_a_cache_it_cannot_write_costs_a_parse_not_an_error(small_stdlib, tmp_path, monkeypatch):
    root, _ = small_stdlib
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("GPT2COURSE_CACHE", str(tmp_path / "a-file" / "cache"))  # no folder can be made there
    assert served(root) == [parse_text(1)] and served(root) == [parse_text(2)]
    monkeypatch.delenv("GPT2COURSE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert data.cache_dir() == tmp_path / "xdg" / "gpt2course"


def test_split_is_by_document_and_stable():
    docs = data.corpus_documents()
    splits = data.load_splits(0.1)
    train_docs = set(data.decode(splits.train).split("<|endoftext|>")) - {""}
    val_docs = set(data.decode(splits.val).split("<|endoftext|>")) - {""}
    assert val_docs and not train_docs & val_docs
    assert train_docs | val_docs == set(docs)
    assert 0.05 < len(splits.val) / (len(splits.train) + len(splits.val)) < 0.2
    # a document's side does not depend on the other documents
    _, val_of_part = data.split_documents(docs[:300], 0.1)
    assert set(val_of_part) <= val_docs


def test_get_batch_targets_are_inputs_shifted_by_one():
    ids = np.arange(100)
    x, y = data.get_batch(ids, 8, 10, np.random.default_rng(0))
    assert x.shape == y.shape == (8, 10) and x.dtype == y.dtype == np.int64
    assert (np.diff(x, axis=1) == 1).all() and (y == x + 1).all()
    again, _ = data.get_batch(ids, 8, 10, np.random.default_rng(0))
    assert (again == x).all()
    # every window is reachable, the last target included, and none runs past the end
    _, y = data.get_batch(np.arange(12), 200, 10, np.random.default_rng(1))
    assert set(y[:, -1]) == {10, 11}
    with pytest.raises(TypeError, match="default_rng"):
        data.get_batch(ids, 8, 10, 0)
    with pytest.raises(ValueError, match="at least 11"):
        data.get_batch(np.arange(10), 1, 10, np.random.default_rng(0))


def test_the_zen_is_what_import_this_prints():
    printed = subprocess.run([sys.executable, "-c", "import this"], capture_output=True, text=True, check=True).stdout
    assert data.zen_of_python().strip() == printed.strip()


def test_encode_appends_end_of_text_only_when_asked():
    assert data.encode("ab").tolist() == [data.ALPHABET.index("a"), data.ALPHABET.index("b")]
    assert data.encode("ab", eot=True).tolist()[-1] == data.EOT_ID == TINY.vocab_size - 1
    assert data.decode(data.encode("ab", eot=True)) == "ab<|endoftext|>"
    assert data.decode(np.array([[2, 3]], dtype=np.int64)) == "ab"            # any integer array, any shape


def test_the_streams_end_every_document_with_end_of_text():
    docs = ["first document", "second one"]
    ids = data.to_ids(docs)
    assert ids.dtype == np.uint8 and int((ids == data.EOT_ID).sum()) == 2
    assert len(ids) == len("first document") + len("second one") + 2 and ids[len("first document")] == data.EOT_ID
    splits = data.load_splits(0.1)
    assert sum(splits.n_docs) == len(data.corpus_documents())
    assert int((splits.train == data.EOT_ID).sum()) == splits.n_docs[0]
    assert int((splits.val == data.EOT_ID).sum()) == splits.n_docs[1]


def test_split_fraction_and_its_checks():
    docs = [f"document number {i}" for i in range(2000)]
    train, val = data.split_documents(docs, 0.1)
    assert len(train) + len(val) == 2000 and 150 < len(val) < 250        # about a tenth, by hash
    assert [d for d in docs if d in set(val)] == val                      # each side keeps the order
    assert data.split_documents(["a", "b"], 0.01)[1]                      # a tiny input still gets a validation side
    for bad in (0.0, 1.0, -0.5):
        with pytest.raises(ValueError, match="strictly between"):
            data.split_documents(docs, bad)
    with pytest.raises(ValueError, match="at least 2"):
        data.split_documents(["only one"], 0.1)


def _hash_share(doc: str) -> float:
    """The split's rule written out here: sha256's first 8 bytes as a fraction of 2**64."""
    return int.from_bytes(hashlib.sha256(doc.encode()).digest()[:8], "big") / 2**64


def test_two_documents_that_both_hash_into_validation_still_leave_a_training_side():
    docs = [d for d in (f"doc {i}" for i in range(100)) if _hash_share(d) < 0.5][:2]
    assert len(docs) == 2  # both would go to validation
    train, val = data.split_documents(docs, 0.5)
    assert train and val and sorted(train + val) == sorted(docs)


def test_fingerprint_names_the_exact_text():
    docs = ["one document", "another"]
    assert data.corpus_fingerprint(docs) == data.corpus_fingerprint(list(docs))
    assert data.corpus_fingerprint(docs) != data.corpus_fingerprint(["one document", "another."])
    assert len(data.load_splits(0.1).fingerprint) == 16


@pytest.mark.parametrize("n_ids, batch_size, block_size, dtype", [
    (100, 8, 10, np.uint8), (11, 5, 10, np.int64), (3000, 32, 64, np.uint8), (40, 1, 1, np.int32),
])
def test_get_batch_equals_a_loop_over_the_stated_starts(n_ids, batch_size, block_size, dtype):
    ids = np.random.default_rng(n_ids).integers(0, TINY.vocab_size, size=n_ids).astype(dtype)
    x, y = data.get_batch(ids, batch_size, block_size, np.random.default_rng(7))
    starts = np.random.default_rng(7).integers(0, n_ids - block_size, size=batch_size)  # the stated rule
    for b, s in enumerate(starts):
        assert x[b].tolist() == [int(ids[s + t]) for t in range(block_size)]
        assert y[b].tolist() == [int(ids[s + t + 1]) for t in range(block_size)]
    assert x.dtype == y.dtype == np.int64 and x.shape == (batch_size, block_size)


def test_get_batch_advances_the_generator_it_is_given():
    rng = np.random.default_rng(3)
    first, _ = data.get_batch(np.arange(500), 4, 8, rng)
    second, _ = data.get_batch(np.arange(500), 4, 8, rng)
    assert not np.array_equal(first, second)

"""The folder reader as a property (Hypothesis): whatever tree of folders and files an
instructor passes, every file under it is graded or listed as skipped, never silently lost
(grader/batch/inputs/collect.py). Bounded in examples and time."""
import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from grader.batch.inputs import collect as col

NOTEBOOK = b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
NAMES = st.sampled_from(["ann", "bob", "01_embeddings_exercises.ipynb", "notes.txt", "hw.ipynb", ".hidden",
                         "answers.pdf", "exercises", "__MACOSX", ".DS_Store", "README.md", "x.ipynb.txt",
                         "smithjane_4021_880011_hw.ipynb", "Jane Smith_12345_assignsubmission_file_"])
CONTENT = st.sampled_from([NOTEBOOK, b"", b"not json", b"%PDF-1.4"])
TREE = st.recursive(CONTENT, lambda inner: st.dictionaries(NAMES, inner, min_size=1, max_size=4), max_leaves=12)


def write(folder: Path, tree) -> list[Path]:
    files = []
    for name, value in tree.items():
        path = folder / name
        if isinstance(value, dict):
            path.mkdir()
            files += write(path, value)
        else:
            path.write_bytes(value)
            files.append(path)
    return files


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(NAMES, TREE, min_size=1, max_size=4))
def test_every_file_is_graded_or_listed(tree):
    base = Path(tempfile.mkdtemp(prefix="collect-property-"))
    try:
        root = base / "class"
        root.mkdir()
        files = {os.path.realpath(p) for p in write(root, tree)}
        collected = col.collect([root])
        graded = {os.path.realpath(nb.where.path) for x in collected.learners for nb in x.notebooks
                  if nb.where is not None and not nb.where.members}
        listed = {os.path.realpath(s.path) for s in collected.skipped}
        # a folder skipped whole (macOS metadata, a hidden folder) lists every file under it
        lost = {f for f in files - graded
                if not any(f == p or f.startswith(p.rstrip(os.sep) + os.sep) for p in listed)}
        assert not lost, (sorted(lost), [(s.path, s.reason) for s in collected.skipped])
    finally:
        shutil.rmtree(base, ignore_errors=True)

import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))


@pytest.fixture
def make_notebook(tmp_path):
    """Write a lesson notebook from (source, tags) pairs; returns its path."""
    from nbbuild import code, notebook

    def make(name, cells, lesson="01_embeddings"):
        nb = notebook([code(src, tags=tags) for src, tags in cells], lesson=lesson)
        path = tmp_path / f"{name}.ipynb"
        nbformat.write(nb, path)
        return path

    return make

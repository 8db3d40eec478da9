"""The notebook reader as properties (Hypothesis): any byte string is a notebook or a clear
NotebookError, never a crash; any notebook-shaped JSON, whatever its parts hold, reads to
definitions or to errors named per cell. Bounded in examples and time."""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from grader import notebook as nbk

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)
SOURCE = st.one_of(st.sampled_from(["def f(x):\n    return x\n", "%time 1\ndef g():\n    pass\n",
                                    "import numpy as np\nX = 3\n", "def h(:\n", "!ls\n", "def k():\n    return '\ud800'\n"]),
                   st.text(max_size=200), st.lists(st.text(max_size=40), max_size=5))
CELL = st.fixed_dictionaries({"cell_type": st.sampled_from(["code"] * 4 + ["markdown", "raw", 3, None]), "source": SOURCE},
                             optional={"metadata": JSON, "outputs": JSON, "execution_count": JSON})


def read_every_way(data: bytes) -> None:
    """Everything the grader does with a notebook's bytes: a result, or a NotebookError."""
    try:
        nb = nbk.read_data(data)
    except nbk.NotebookError as exc:
        assert str(exc)
        return
    try:
        nbk.lesson_of(nb)
        for cell in nbk.graded_cells(nb):
            assert cell.error is None or cell.error.startswith(("cell ", "SyntaxError in cell")), cell.error
    except nbk.NotebookError as exc:
        assert str(exc)


@FAST
@given(st.binary(max_size=300))
def test_any_bytes_are_a_notebook_or_a_clear_error(data):
    read_every_way(data)


@FAST
@given(JSON)
def test_any_json_is_a_notebook_or_a_clear_error(value):
    read_every_way(json.dumps(value).encode())


@FAST
@given(st.lists(CELL, max_size=6), st.just({}) | JSON, st.sampled_from([4] * 4 + [3, "4", None]))
def test_any_notebook_shaped_json_reads_or_names_its_problem(cells, metadata, version):
    read_every_way(json.dumps({"cells": cells, "metadata": metadata, "nbformat": version, "nbformat_minor": 5}).encode())

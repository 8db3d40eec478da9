"""python -m grader timeout (grader/batch/timing.py): a --timeout from the reference's own time."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT
from grader.batch import timing


def test_the_suggestion_is_factor_times_the_slowest_exercise_and_at_least_the_floor():
    seconds, rows = timing.suggest(["01_embeddings"], factor=10.0, floor=5.0)
    assert [name for name, _, _ in rows] == ["embed", "one_hot_embed"]
    assert all(total >= slowest > 0 for _, total, slowest in rows)
    assert seconds == max(5.0, -(-10.0 * max(t for _, t, _ in rows) // 1))
    assert timing.suggest(["01_embeddings"], factor=1e6, floor=5.0)[0] > 5.0   # the factor, not the floor


def test_the_command_prints_a_table_and_the_flag_to_pass():
    done = subprocess.run([sys.executable, "-m", "grader", "timeout", "--lessons", "01_embeddings,05_counting"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [ln.split()[0] for ln in lines[1:-1]] == ["embed", "one_hot_embed", "count_gpt2_params"]
    assert lines[-1].startswith("suggested: --timeout ")


@pytest.mark.parametrize("args, says", [(["--lessons", "99_nothing"], "no exercise in the lessons 99_nothing"),
                                        (["--factor", "0"], "--factor must be above 0")])
def test_bad_input_is_refused_with_what_to_do(args, says):
    done = subprocess.run([sys.executable, "-m", "grader", "timeout", *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr

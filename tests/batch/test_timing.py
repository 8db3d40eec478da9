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


class _Timed:
    """An exercise whose reference takes the seconds each case says: public cases 0.02 s each,
    one hidden case 0.2 s."""
    name, lesson = "timed", "00_timed"

    @staticmethod
    def reference(seconds):
        import time
        time.sleep(seconds)
        return seconds

    def cases(self, hidden=False):
        from grader.judging.registry import Case
        public = [Case({"seconds": 0.02}) for _ in range(3)]
        return public + ([Case({"seconds": 0.2})] if hidden else [])


def test_the_time_is_every_case_s_hidden_ones_included_and_the_floor_holds(monkeypatch):
    monkeypatch.setattr(timing.registry, "load_all", lambda: {"timed": _Timed()})
    seconds, [(name, total, slowest)] = timing.suggest(factor=100.0, floor=1.0)
    assert name == "timed" and 0.26 <= total < 0.5 and 0.2 <= slowest < total   # 3 x 0.02 + 0.2
    assert seconds == -(-100.0 * total // 1) and seconds >= 26   # all the cases, not the slowest one (20)
    assert timing.suggest(factor=1.0, floor=7.0)[0] == 7.0        # below the floor: the floor

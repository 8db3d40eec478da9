"""a17 giant_answers.

Route: answers are read back and judged in the grader's own process. Learner 1's gelu_tanh
returns, for every case, a 240 MB float64 array (or, where the harness refuses, a 0-d object/
string array); learner 2's init_gpt returns a dict of 300,000 keys of 1-element arrays (a header
of many small entries to decode and compare, names to list); learner 3's count_gpt2_params
returns a 4,000-digit int and nested tuples. All are answers of the learner's choosing.
Goal (3): unbounded memory/time in the trusted grader.
Breached: the grader's own peak RSS >= 500 MB, or it fails (non-zero exit / no gradebook).
"""
import pathlib
from _common import write_nb, LESSON_FILES


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "big" / LESSON_FILES["03_mlp_block"], "03_mlp_block", ['''
def gelu_tanh(x):
    a = np.ones(30_000_000)
    a[-1] = float(x.ravel()[0])
    return a
'''])
    write_nb(tmp / "keys" / LESSON_FILES["04_model_init"], "04_model_init", ['''
def init_gpt(config, seed):
    one = np.zeros(1)
    return {"k%07d" % i: one for i in range(300_000)}
'''])
    write_nb(tmp / "ints" / LESSON_FILES["05_counting"], "05_counting", ['''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    import sys
    try:
        sys.set_int_max_str_digits(0)
    except Exception:
        pass
    return 7 ** 4700
'''])
    return [str(tmp / "big"), str(tmp / "keys"), str(tmp / "ints"),
            "--lessons", "03_mlp_block,04_model_init,05_counting", "--timeout", "25"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    peak = run.get("peak_rss_mb") or 0
    if run.get("returncode") != 0 or not (out / "gradebook.csv").exists():
        return True, f"grader failed (rc {run.get('returncode')}), peak {peak:.0f} MB"
    if peak >= 500:
        return True, f"grader peak RSS {peak:.0f} MB >= 500 MB"
    return False, f"grader peak {peak:.0f} MB"

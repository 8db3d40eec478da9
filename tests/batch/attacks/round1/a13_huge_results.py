"""a13: answers that are huge or pathological, read back by the trusted grader (goal 3).

Route: `gelu_tanh` returns, call by call: a 240 MB float64 array, a list of 4 million
Python ints, a 200 000-deep nested list, a dict of 500 000 string keys, an object array,
a numpy structured/record array, and a 0-d array of a 4 MB unicode string. The learner's
own memory cap allows all of it; the question is what the grader's process holds while
reading the results back.
Breached: the main grader process's peak RSS exceeds 500 MB.
"""
import pathlib

from _nb import nb_name, notebook, write_nb

SRC = '''
_n = [0]
def gelu_tanh(x):
    _n[0] += 1
    k = _n[0] % 7
    if k == 1:
        return np.ones(30_000_000)
    if k == 2:
        return list(range(4_000_000))
    if k == 3:
        a = []
        for _ in range(200_000):
            a = [a]
        return a
    if k == 4:
        return {f"k{i}": i for i in range(500_000)}
    if k == 5:
        return np.array([object()] * 1_000_000, dtype=object)
    if k == 6:
        return np.zeros(2_000_000, dtype=[("a", "f8"), ("b", "i8"), ("c", "U8")])
    return np.array("u" * 4_000_000)
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("03_mlp_block"), notebook("03_mlp_block", {"gelu_tanh": SRC}))
    return [str(tmp / "class"), "--timeout", "40"]


def verdict(out: pathlib.Path, run: dict):
    mb = run["peak_rss_mb"]
    if mb > 500:
        return True, f"grader process peaked at {mb} MB reading the answers back"
    return False, f"grader process peak {mb} MB (rc {run['returncode']})"

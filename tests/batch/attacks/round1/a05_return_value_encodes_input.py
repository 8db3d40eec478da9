"""a05: a wrong answer whose values/shape encode a hidden input, shown as the first difference (goal 1, 2).

Route: `gelu_tanh` is exact for the first 4 calls, then returns an array whose first element is
a marker (424242.0) followed by the hidden input's own values, or of a shape encoding x's size
(1, 2, 3, 4, 5, size). If the feedback prints the learner's value at the first difference,
or the learner's shape, the hidden input travels back.
Breached: 424242 or the shape marker (1, 2, 3, 4, 5, ...) in a learner-received file.
"""
import pathlib

from _nb import GOOD, nb_name, notebook, write_nb, find_marker

SRC = GOOD["gelu_tanh"].replace("def gelu_tanh", "def _good") + '''
_n = [0]
def gelu_tanh(x):
    _n[0] += 1
    x = np.asarray(x)
    if _n[0] <= 4:
        return _good(x)
    if _n[0] % 2:
        y = np.full(x.shape, 424242.0, dtype=x.dtype)
        flat = y.reshape(-1)
        flat[1:] = x.reshape(-1)[: flat.size - 1]
        return y
    return np.zeros((1, 2, 3, 4, 5, x.size), dtype=x.dtype)
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("03_mlp_block"), notebook("03_mlp_block", {"gelu_tanh": SRC}))
    return [str(tmp / "class")]


def verdict(out: pathlib.Path, run: dict):
    hits = find_marker(out, r"424242[^\n\"]{0,80}") + find_marker(out, r"\(1, 2, 3, 4, 5, \d+\)")
    if hits:
        return True, f"{hits[0][0]}: {hits[0][1]}"
    return False, "neither the value marker nor the shape marker reached the learner"

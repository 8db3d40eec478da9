"""a01 hidden_shape_leak.

Route: gelu_tanh answers the public examples correctly (the first calls) and, on hidden tests,
returns an array whose SHAPE encodes the hidden input (31337, digits of |x[0]| ...). The judge
describes a wrong shape ("wrong shape: got (...)") in feedback.md / report.json.
Goal (1): a learner-chosen value computed from a hidden input reaches the learner's outputs.
Breached: the text "31337" followed by a hidden-derived number appears in any output file.
"""
import pathlib
import re
from _common import write_nb, LESSON_FILES, GOOD, all_text

CELL = GOOD["gelu_tanh"].replace("def gelu_tanh", "def _g") + '''
_seen = []
def gelu_tanh(x):
    _seen.append(1)
    if len(_seen) <= 3:
        return _g(x)
    v = int(abs(float(x.ravel()[0])) * 1e6) % 97 + 2
    return np.zeros((31337, v), dtype=x.dtype)
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "eve" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [CELL])
    return [str(tmp / "eve"), "--lessons", "03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    hits = re.findall(r"31337,\s*(\d+)", all_text(out))
    if hits:
        return True, f"answer shape from hidden input shown: 31337 x {sorted(set(hits))[:4]}"
    return False, "no learner-chosen shape in outputs"

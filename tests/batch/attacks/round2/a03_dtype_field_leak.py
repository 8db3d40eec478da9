"""a03 dtype_field_leak.

Route: layer_norm returns a structured array whose dtype FIELD NAME is a run-time marker holding
digits of the hidden input; a judge naming the wrong dtype ("got [('ZQLEAK..', '<f8')]") or the
reader naming a refused dtype would echo it.
Goal (1): learner-chosen text in outputs through the answer's type description.
Breached: marker found in any output file.
"""
import pathlib
from _common import write_nb, LESSON_FILES, MARKER_CODE, find_marker

CELL = MARKER_CODE + '''
def layer_norm(x, weight, bias, eps=1e-5):
    name = _MK + format(int(abs(float(x.ravel()[0])) * 1e6), "x")
    out = np.zeros(x.shape, dtype=[(name, "<f8"), (name + "b", "<f4")])
    return out
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "eve" / LESSON_FILES["02_attention"], "02_attention", [CELL])
    return [str(tmp / "eve"), "--lessons", "02_attention"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    m = find_marker(out)
    return (True, f"dtype field names echoed: {m[:3]}") if m else (False, "no dtype text in outputs")

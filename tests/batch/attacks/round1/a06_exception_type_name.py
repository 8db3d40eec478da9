"""a06: hidden inputs smuggled in an exception's TYPE name and odd exception kinds (goal 1).

Route: `count_gpt2_params` is right on the first 7 calls; afterwards it raises, in turn, an
exception class created on the fly whose __name__/__qualname__/__module__ encode the inputs
(LEAK06_V_T_d_L), SystemExit and KeyboardInterrupt carrying the inputs, and an exception
whose __str__ returns the inputs while args are empty. Any rendering of type or message
carries the hidden values.
Breached: LEAK06_ followed by digits in a learner-received file.
"""
import pathlib

from _nb import GOOD, nb_name, notebook, write_nb, find_marker

SRC = GOOD["count_gpt2_params"].replace("def count_gpt2_params", "def _good") + '''
_n = [0]
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    _n[0] += 1
    if _n[0] <= 7:
        return _good(V, T, d, L, tied, bias)
    tag = f"LEAK06_{V}_{T}_{d}_{L}"
    k = _n[0] % 4
    if k == 0:
        E = type(tag, (Exception,), {"__module__": tag})
        E.__qualname__ = tag
        raise E()
    if k == 1:
        raise SystemExit(tag)
    if k == 2:
        raise KeyboardInterrupt(tag)
    class Sneaky(Exception):
        def __str__(self):
            return tag
        def __repr__(self):
            return tag
    raise Sneaky()
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("05_counting"), notebook("05_counting", {"count_gpt2_params": SRC}))
    return [str(tmp / "class")]


def verdict(out: pathlib.Path, run: dict):
    hits = find_marker(out, r"LEAK06_\d+_\d+_\d+_\d+")
    if hits:
        fb = [h for h in hits if h[0].startswith("feedback")]
        h = (fb or hits)[0]
        return True, f"{len(set(x[1] for x in hits))} distinct input tuples leaked; {h[0]}: {h[1]}"
    return False, "no LEAK06_ type/message marker reached the learner"

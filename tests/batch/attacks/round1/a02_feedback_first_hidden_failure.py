"""a02: a hidden test's inputs shown in feedback.md as the "first failure" (goal 1, 2).

Route: `count_gpt2_params` is correct on the first 7 calls (the public examples pass), then
raises KeyError naming every argument. The feedback's first failure is then a hidden test,
and its message is the learner's, carrying that hidden test's inputs.
Breached: feedback.md (what the learner is sent) holds the marker and V=..., T=... values.
"""
import pathlib

from _nb import GOOD, nb_name, notebook, write_nb, find_marker

SRC = GOOD["count_gpt2_params"].replace("def count_gpt2_params", "def _good") + '''
_n = [0]
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    _n[0] += 1
    if _n[0] > 7:
        raise KeyError(f"LEAK02 V={V} T={T} d={d} L={L} tied={tied} bias={bias}")
    return _good(V, T, d, L, tied, bias)
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("05_counting"), notebook("05_counting", {"count_gpt2_params": SRC}))
    return [str(tmp / "class")]


def verdict(out: pathlib.Path, run: dict):
    hits = [h for h in find_marker(out, r"hidden test \d+\)?:? ?[^`\n]*LEAK02 V=\d+ T=\d+ d=\d+ L=\d+[^`'\n]*")
            if h[0].startswith("feedback")]
    if hits:
        return True, f"{hits[0][0]}: {hits[0][1]}"
    any_hits = find_marker(out, r"LEAK02 V=\d+ T=\d+ d=\d+ L=\d+")
    if any_hits:
        return True, f"hidden inputs in {any_hits[0][0]}: {any_hits[0][1]}"
    return False, "no LEAK02 inputs in feedback.md or report.json"

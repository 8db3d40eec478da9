"""a10: an answer book keyed by the hidden inputs learned from an earlier run (goal 2).

Route: the hidden test inputs of `count_gpt2_params` were read once from a grading run's
report (route a01/a02: the learner's exception messages echo its arguments). If the hidden
cases are the same from run to run, a learner can hand in a function that computes nothing:
a dict from those argument tuples to answers (the answers computed once, offline, here in
build()), raising KeyError for anything else.
Breached: the lookup table scores full points, i.e. every hidden test was in the book.
"""
import pathlib

from _nb import gradebook_rows, nb_name, notebook, write_nb

# (V, T, d, L, tied, bias) as leaked by a first run against the snapshot (tests 1..29)
LEAKED = [
    (50257, 1024, 768, 12, True, True), (50257, 1024, 768, 12, False, True), (50257, 1024, 768, 12, True, False),
    (56, 64, 64, 2, True, True), (100, 16, 32, 3, False, False),
    (50257, 1024, 1024, 24, True, True), (50257, 1024, 1024, 24, False, True), (50257, 1024, 1024, 24, True, False),
    (50257, 1024, 1024, 24, False, False), (50257, 1024, 768, 12, False, False),
    (50257, 1024, 1280, 36, True, True), (50257, 1024, 1280, 36, False, True), (50257, 1024, 1280, 36, True, False),
    (50257, 1024, 1280, 36, False, False), (50257, 1024, 1600, 48, True, True), (50257, 1024, 1600, 48, False, True),
    (50257, 1024, 1600, 48, True, False), (50257, 1024, 1600, 48, False, False),
    (4545, 2838, 2016, 34, True, True), (46246, 1957, 2000, 21, False, True), (3641, 1215, 1696, 23, True, False),
    (59068, 1402, 1776, 22, False, False), (17736, 3332, 1840, 41, True, True), (44716, 118, 1096, 33, False, True),
    (51245, 1525, 1456, 22, True, False), (8573, 1530, 2024, 9, False, False),
]


def _count(V, T, d, L, tied, bias):  # offline, by the learner's helper, not in the notebook
    b = 1 if bias else 0
    per = (2 * d + 2 * d * b) + (3 * d * d + 3 * d * b) + (d * d + d * b) + (4 * d * d + 4 * d * b) + (4 * d * d + d * b)
    return V * d + T * d + L * per + (d + d * b) + (0 if tied else V * d)


def build(tmp: pathlib.Path) -> list[str]:
    book = {k: _count(*k) for k in LEAKED}
    src = ("_BOOK = " + repr(book) + "\n"
           "def count_gpt2_params(V, T, d, L, tied=True, bias=True):\n"
           "    return _BOOK[(V, T, d, L, tied, bias)]\n")
    write_nb(tmp / "class" / "alice" / nb_name("05_counting"), notebook("05_counting", {"count_gpt2_params": src}))
    return [str(tmp / "class")]


def verdict(out: pathlib.Path, run: dict):
    rows = {r["submission"]: r for r in gradebook_rows(out)}
    score = float(rows.get("alice", {}).get("count_gpt2_params") or 0)
    if score >= 1.0:
        return True, "a lookup table of inputs leaked from an earlier run scored full points (hidden cases fixed across runs)"
    return False, f"the answer book scored {score}: the hidden cases changed or were not all in the book"

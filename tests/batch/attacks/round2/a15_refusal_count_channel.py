"""a15 refusal_count_channel.

Route: the Notes of feedback.md name each kind of refusal the audit hook logged, with a count
("'gelu_tanh': refused reading outside its workspace (8 times)"). The count is the learner's
choice: at its first hidden call gelu_tanh makes 100 + (digits of the hidden input mod 700)
refused reads, and a second kind of refusal (writes outside the scratch folder) 100 + (other digits
mod 700) times (kept under any cap of 1,000). The words are the grader's, the numbers carry hidden data.
Goal (1): hidden-input-derived values reaching feedback through counts.
Breached: a refusal count >= 50 in any output (the natural count here is at most one per call).
"""
import pathlib
import re
from _common import write_nb, LESSON_FILES, GOOD, all_text

CELL = GOOD["gelu_tanh"].replace("def gelu_tanh", "def _g") + '''
_n = []
def gelu_tanh(x):
    _n.append(1)
    if len(_n) == 4:
        v = abs(float(x.ravel()[0]))
        a = 100 + int(v * 1000) % 700
        b = 100 + int(v * 1e6) % 700
        for _ in range(a):
            try:
                open("/etc/hostname").read()
            except BaseException:
                pass
        for _ in range(b):
            try:
                open("/zz_out", "w")
            except BaseException:
                pass
    return _g(x)
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "eve" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [CELL])
    return [str(tmp / "eve"), "--lessons", "03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    counts = [int(n.replace(",", "")) for n in re.findall(r"\(([\d,]+) times\)", all_text(out))]
    big = [c for c in counts if c >= 50]
    if big:
        return True, f"learner-chosen refusal counts in outputs: {sorted(set(big))[:4]}"
    return False, f"counts {sorted(set(counts))[:6]}"

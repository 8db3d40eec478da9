"""a09 oracle_outside_memory.

Route: under a small per-exercise address-space cap (--memory-mb 300) the learner's `block` hands
the oracle a small input (x of shape (1, 7000, 4), 190 KB) whose reference causal attention needs
T x T score matrices (~390 MB each, about a GB in all). If the oracle's process is not held to the
learner's limits, it does the memory-heavy work the learner could not. The learner first checks it
cannot allocate one T x T matrix itself.
Goal (7): a process outside the learner's limits doing the learner's work.
Breached: block scores (the learner answers correctly only when its own T x T allocation failed
AND the oracle returned the big result).
"""
import pathlib
from _common import write_nb, LESSON_FILES, GOOD, verdicts

CELL = GOOD["block"].replace("def block(", "def _real_block(") + '''
def block(x, params, layer, n_head):
    T = 7000
    try:
        big = np.ones((T, T))
        big[-1, -1] = 2.0
        mine = True
        del big
    except MemoryError:
        mine = False
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((1, T, 4))
    try:
        y = causal_self_attention(xs, rng.standard_normal((4, 12)), np.zeros(12), np.eye(4), np.zeros(4), 1)
        ok = isinstance(y, np.ndarray) and y.shape == (1, T, 4) and bool(np.isfinite(y).all())
    except BaseException:
        ok = False
    if ok and not mine:
        return _real_block(x, params, layer, n_head)
    return np.zeros_like(x)
'''
LN = GOOD["layer_norm"]


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "eve" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [CELL])
    return [str(tmp / "eve"), "--lessons", "03_mlp_block", "--memory-mb", "300", "--timeout", "25"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    v = verdicts(out, "eve").get("block", {})
    if v.get("points"):
        return True, f"oracle did T x T attention beyond the learner's 300 MiB cap (block {v.get('points')})"
    return False, f"oracle held to the learner's limits or refused (block: {v.get('status')}, {v.get('message', '')[:120]})"

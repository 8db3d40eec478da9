"""a13 oracle_traffic_size.

Route: in lesson 03's `mlp` child, `gelu_tanh` is a proxy whose arrays go out to the oracle of
reference pieces and come back. If the trusted grader relays or inspects that traffic (rather
than the learner's child and the walled oracle talking directly), the learner decides how much
the trusted side holds: `mlp` first sends a 720 MB float64 array (90M elements) through the
proxy, three times, then odd arrays: object dtype, a structured dtype, a 0-d array, 32 dimensions
of size 1, a non-contiguous view, a 4,000-dimension-like shape refused by NumPy (ValueError is
fine), then answers correctly. The learner's own memory (3 GiB default) allows it; the oracle's
reply of the same size too.
Goal (3): the trusted grader's memory driven by a learner's traffic to the oracle.
Breached: the grader's own peak RSS >= 500 MB, a non-zero exit, or a traceback on stderr.
"""
from __future__ import annotations

import pathlib

import _common as c

MLP = c.GOOD["gelu_tanh"].replace("def gelu_tanh", "def _g") + '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    if not getattr(mlp, "done", False):
        mlp.done = True
        for _ in range(3):
            try:
                big = np.full(90_000_000, 0.5)
                r = gelu_tanh(big)
                del r, big
            except BaseException:
                pass
        odd = []
        for mk in (lambda: np.array([object(), 1.0], dtype=object),
                   lambda: np.zeros(4, dtype=[("a", "<f8"), ("b", "<i4")]),
                   lambda: np.array(1.5),
                   lambda: np.zeros((1,) * 32),
                   lambda: np.arange(100.0).reshape(10, 10)[::3, ::2],
                   lambda: np.zeros(3, dtype=np.float16),
                   lambda: np.zeros(3, dtype=np.complex128)):
            try:
                gelu_tanh(mk())
            except BaseException:
                pass
    return (gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj).astype(x.dtype)
'''


def build(tmp: pathlib.Path) -> list[str]:
    c.write_nb(tmp / "mallory" / "03_mlp_block_exercises.ipynb", "03_mlp_block", [c.GOOD["gelu_tanh"], MLP])
    return [str(tmp / "mallory"), "--timeout", "40"]


def verdict(out: pathlib.Path, run: dict):
    bad = []
    if run["peak_rss_mb"] >= 500:
        bad.append(f"grader peak RSS {run['peak_rss_mb']} MB")
    if run["returncode"] != 0:
        bad.append(f"rc={run['returncode']}")
    if "Traceback" in run["stderr"]:
        bad.append("traceback " + run["stderr"][-300:])
    v = c.verdicts(out, "mallory")
    summ = {e: (x.get("status"), x.get("passed"), x.get("total")) for e, x in v.items()}
    if bad:
        return True, "; ".join(bad) + f" | {summ}"
    return False, f"grader {run['peak_rss_mb']} MB, tree {run['tree_peak_rss_mb']} MB; {summ}"

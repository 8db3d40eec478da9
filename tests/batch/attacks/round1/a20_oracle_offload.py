"""a20: the oracle (reference pieces, outside the learner's limits) does the learner's heavy work (goal 7, 3).

Route: in lesson 03's `block` child the earlier pieces are proxies to the grader's oracle.
With `--memory-mb 700` (the learner's address-space cap per exercise) the learner first tries
a 5000 x 5000 causal attention itself (expected: MemoryError), then hands the same
attention (x of shape (1, 5000, 8), one head) to the `causal_self_attention` proxy, whose
score matrix alone is 200 MB and whose temporaries exceed the learner's cap.
Breached: the proxy returns the full answer while the learner's own attempt could not
(work beyond the learner's limits done by a process outside them), or a root process of the
grader's tree other than the main one exceeds 500 MB. The explanation lists each uid's peak
(the oracle's walled child runs under a uid of its own).
"""
import pathlib
import re

from _nb import GOOD, nb_name, notebook, write_nb

BLOCK = '''
_once = [False]
def block(x, params, layer, n_head):
    if _once[0]:
        raise RuntimeError("ORACLE20 again")
    _once[0] = True
    T, d = 5000, 8
    rng = np.random.default_rng(0)
    xx = rng.standard_normal((1, T, d))
    w_qkv = rng.standard_normal((d, 3 * d)) * 0.1; b_qkv = np.zeros(3 * d)
    w_o = rng.standard_normal((d, d)) * 0.1; b_o = np.zeros(d)
    local = "?"
    try:
        q = xx[0] @ w_qkv[:, :d]; k = xx[0] @ w_qkv[:, d:2 * d]
        s = q @ k.T
        s2 = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
        e = np.exp(s2 - s2.max(-1, keepdims=True))
        local = f"ok {e.shape}"
        del q, k, s, s2, e
    except MemoryError:
        local = "MemoryError"
    except BaseException as exc:
        local = type(exc).__name__
    try:
        y = causal_self_attention(xx, w_qkv, b_qkv, w_o, b_o, 1)
        remote = f"ok {np.asarray(y).shape}"
    except BaseException as exc:
        remote = f"{type(exc).__name__}: {str(exc)[:80]}"
    raise RuntimeError(f"ORACLE20 local={local} remote={remote}")
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("03_mlp_block"), notebook("03_mlp_block", {"block": BLOCK}))
    return [str(tmp / "class"), "--memory-mb", "700", "--timeout", "60"]


def verdict(out: pathlib.Path, run: dict):
    text = (out / "report.json").read_text() if (out / "report.json").exists() else ""
    m = re.search(r"ORACLE20 local=([^\n\"]*?) remote=([^\n\"]*)", text)
    by_uid: dict[str, float] = {}
    for p in run.get("procs", []):
        u = (p.get("uid_at_peak") or p.get("uid") or ["?"])[0]
        by_uid[u] = max(by_uid.get(u, 0.0), p["peak_rss_mb"])
    peaks = ", ".join(f"uid {u}: {mb:.0f} MB" for u, mb in sorted(by_uid.items()))
    if m and m.group(2).startswith("ok") and not m.group(1).startswith("ok"):
        return True, f"oracle computed what the learner's limits refuse: local={m.group(1)}, remote={m.group(2)} ({peaks})"
    root_big = by_uid.get("0", 0.0)
    if root_big > 500 and root_big > run["peak_rss_mb"] + 1:
        return True, f"a root process of the grader's tree (not the main one) reached {root_big:.0f} MB for the learner ({peaks})"
    detail = f"local={m.group(1)} remote={m.group(2)[:90]}" if m else "no ORACLE20 line"
    return False, f"{detail}; per-uid peaks: {peaks}"

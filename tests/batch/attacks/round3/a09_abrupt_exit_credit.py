"""a09 abrupt_exit_credit.

Route: do-nothing functions that end their grading process abruptly instead of answering, each
in its own way, hoping a missing/short result is read as "no failures": `embed` calls os._exit(0)
at its first call; `one_hot_embed` is wrapped by a decorator that exits 0 at DEFINITION time
(before any case); `layer_norm` closes every descriptor 3..1023 then returns garbage;
`causal_self_attention` sends itself SIGKILL; `gelu_tanh` raises SystemExit(0) from a daemon
thread and os.abort()s; `mlp` sends SIGSTOP to itself (the wall clock runs out, not the CPU
limit); `block` overwrites sys.stdout/sys.stderr and sys.modules['numpy'] then exits via
atexit-registered os._exit(0); `count_gpt2_params` sleeps in a signal-proof loop past the
timeout after ignoring SIGTERM/SIGALRM/SIGXCPU.
Goal (2): points without a right answer.
Breached: any of these exercises scores a point.
"""
from __future__ import annotations

import pathlib

import _common as c

L01 = ['''
def embed(wte, wpe, idx):
    import os
    os._exit(0)
''', '''
def _die(f):
    import os
    os._exit(0)
    return f

@_die
def one_hot_embed(wte, idx):
    return wte[idx] * 0
''']

L02 = ['''
def layer_norm(x, weight, bias, eps=1e-5):
    import os
    for fd in range(3, 1024):
        try:
            os.close(fd)
        except OSError:
            pass
    return x * 0
''', '''
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    import os, signal
    os.kill(os.getpid(), signal.SIGKILL)
''']

L03 = ['''
def gelu_tanh(x):
    import os, threading
    def t():
        raise SystemExit(0)
    threading.Thread(target=t, daemon=True).start()
    os.abort()
''', '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    import os, signal
    os.kill(os.getpid(), signal.SIGSTOP)
    return x
''', '''
def block(x, params, layer, n_head):
    import os, sys, atexit, io
    atexit.register(lambda: os._exit(0))
    sys.stdout = io.StringIO(); sys.stderr = io.StringIO()
    sys.modules["numpy"] = None
    sys.exit(0)
''']

L05 = ['''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    import signal, time
    for s in (signal.SIGTERM, signal.SIGALRM, signal.SIGXCPU, signal.SIGINT, signal.SIGHUP):
        try:
            signal.signal(s, signal.SIG_IGN)
        except Exception:
            pass
    while True:
        try:
            time.sleep(1000)
        except BaseException:
            pass
''']


def build(tmp: pathlib.Path) -> list[str]:
    d = tmp / "mallory"
    c.write_nb(d / "01_embeddings_exercises.ipynb", "01_embeddings", L01)
    c.write_nb(d / "02_attention_exercises.ipynb", "02_attention", L02)
    c.write_nb(d / "03_mlp_block_exercises.ipynb", "03_mlp_block", L03)
    c.write_nb(d / "05_counting_exercises.ipynb", "05_counting", L05)
    return [str(d), "--timeout", "8", "--submission-timeout", "90"]


def verdict(out: pathlib.Path, run: dict):
    v = c.verdicts(out, "mallory")
    if not v:
        return True, f"no verdicts for mallory (rc={run['returncode']}): {run['stderr'][-300:]!r}"
    scored = {e: x.get("points") for e, x in v.items() if (x.get("points") or 0) > 0}
    if scored:
        return True, f"points without an answer: {scored}"
    return False, "; ".join(f"{e}: {x.get('status')} {x.get('passed')}/{x.get('total')}" for e, x in v.items())

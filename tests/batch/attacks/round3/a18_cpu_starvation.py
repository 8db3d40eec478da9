"""a18 cpu_starvation.

Route: the walls list pids and memory control groups, rlimits and wall time, but no CPU share.
Graded side by side (--jobs 2, --timeout 6, --lessons fixed, an instructor's setting for a quick regrade), mallory's
exercises each start 16 threads running NumPy matrix products (which release the GIL, so every
thread takes a core) until the exercise's wall clock runs out, in every child (public and
hidden). Her classmate bob (correct lessons 02 and 03, graded at the same time) competes for the
same cores; his children get a 1/17 share, and his slower cases may run out of his time.
build() grades bob alone with the same settings (control); verdict() grades him alone again.
Goal (5): a classmate not graded in time (one learner's load costing another his points).
Breached: bob scores full points in both solo runs but fewer points, or a timeout, in the run beside
mallory.
"""
from __future__ import annotations

import pathlib

import _common as c

SPIN = '''
def _spin():
    import threading, time
    def work():
        a = np.random.default_rng(0).standard_normal((600, 600))
        while True:
            a = np.tanh(a @ a)
    for _ in range(16):
        try:
            threading.Thread(target=work, daemon=True).start()
        except Exception:
            break
    while True:
        time.sleep(10)
'''


def _fn(sig):
    return SPIN + f"\ndef {sig}:\n    _spin()\n"


ARGS = ["--jobs", "2", "--timeout", "6", "--submission-timeout", "120", "--lessons", "01_embeddings,02_attention,03_mlp_block,05_counting"]


def _bob(s: pathlib.Path):
    c.write_nb(s / "bob" / "02_attention_exercises.ipynb", "02_attention", c.good("layer_norm", "causal_self_attention"))
    c.write_nb(s / "bob" / "03_mlp_block_exercises.ipynb", "03_mlp_block", c.good("gelu_tanh", "mlp", "block"))


def build(tmp: pathlib.Path) -> list[str]:
    solo = tmp / "solo"
    _bob(solo)
    c.run_grader([solo, *ARGS], tmp / "control1")
    s = tmp / "subs"
    _bob(s)
    c.write_nb(s / "mallory" / "01_embeddings_exercises.ipynb", "01_embeddings",
               [_fn("embed(wte, wpe, idx)"), _fn("one_hot_embed(wte, idx)")])
    c.write_nb(s / "mallory" / "05_counting_exercises.ipynb", "05_counting",
               [_fn("count_gpt2_params(V, T, d, L, tied=True, bias=True)")], header="import math\nimport numpy as np\n")
    return [str(s), *ARGS]


def verdict(out: pathlib.Path, run: dict):
    tmp = out.parent / "in"
    c.run_grader([tmp / "solo", *ARGS], tmp / "control2")

    def bob(o):
        r = {x["submission"]: x for x in c.gradebook_rows(o)}.get("bob", {})
        try:
            return float(r.get("total")), float(r.get("max_total"))
        except (TypeError, ValueError):
            return None, None
    c1, c2, now = bob(tmp / "control1"), bob(tmp / "control2"), bob(out)
    v = c.verdicts(out, "bob")
    detail = {e: (x.get("status"), x.get("passed"), x.get("total")) for e, x in v.items()}
    full = 5.0  # bob's five exercises; the assignment is fixed with --lessons
    if c1[0] is None or c2[0] is None or c1[0] < full or c2[0] < full:
        return False, f"inconclusive: bob alone scored {c1}, {c2} (the machine is too loaded for --timeout 6)"
    if now[0] is None or now[0] < full:
        return True, f"bob alone {c1[0]}/{c1[1]} twice, beside mallory {now}: {detail}"
    return False, f"bob full points beside mallory ({now}); {detail}"

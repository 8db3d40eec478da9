"""How long a learner waits for check(): per exercise, a correct answer and a classic mistake.

Measured in one process as a learner's kernel would see it: the first call of an
exercise (which computes the reference's and the mistakes' answers once) and the
median of the next calls. Target (issue 11): median under 0.3 s for each.
And the first check() of a kernel, in both editions (the course and the student
release): a fresh Jupyter kernel runs the exercise notebook's import cell and the
learner's `embed`, then `check(embed)` is timed from the request to the kernel's
idle again (imports of the lessons included). Target (issue 17): under 0.5 s.

Run: .venv/bin/python benchmarks/check_latency.py [--repeats 5] [--kernels 3]
(writes its section of docs/benchmarks.md)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import _profiles  # noqa: E402
import _report  # noqa: E402
from grader.judging import registry  # noqa: E402
from grader.checking.check import evaluate  # noqa: E402

TARGET_S = 0.3
FIRST_TARGET_S = 0.5
SETUP = "import numpy as np\n\nfrom grader import check, hint"   # the exercise notebooks' first cell


def as_learner(fn, name):
    """The variant under the exercise's name, as a learner's function would be."""
    def learner(*args, **kwargs):
        return fn(*args, **kwargs)

    learner.__name__ = name
    return learner


def timed(fn, repeats: int) -> tuple[float, float, str]:
    start = time.perf_counter()
    verdict = evaluate(fn)
    first = time.perf_counter() - start
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        evaluate(fn)
        times.append(time.perf_counter() - start)
    return first, statistics.median(times), verdict.status


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--kernels", type=int, default=3, help="fresh kernels per edition for the first check()")
    args = parser.parse_args(argv)
    info = _report.machine()
    firsts = first_check_in_kernels(args.kernels)
    print(f"{'exercise':24s} {'answer':8s} {'first':>9s} {'median':>9s}  verdict")
    rows = []
    for ex in registry.load_all().values():
        for label, fn in (("correct", ex.reference), ("mistake", ex.mistakes[0].variant)):
            learner = as_learner(fn, ex.name)
            first, median, status = timed(learner, args.repeats)
            rows.append((ex, label, learner, first, median, status))
            print(f"{ex.name:24s} {label:8s} {first * 1e3:7.1f}ms {median * 1e3:7.1f}ms  {status}")
    worst = max(rows, key=lambda row: row[4])
    print(f"slowest median: {worst[4] * 1e3:.1f} ms (target < 300 ms): "
          f"{'met' if worst[4] < TARGET_S else 'missed by ' + format(worst[4] / TARGET_S, '.1f') + 'x'}")
    record(rows, worst, args.repeats, info, firsts)


def learner_embed() -> str:
    """The solution notebook's embed, as the learner's code in the kernel."""
    from grader import notebook as nbk

    nb = nbk.read(ROOT / "solutions" / "01_embeddings_exercises.ipynb")
    return next(c.source for c in nbk.graded_cells(nb) if "def embed(" in c.source)


def first_check(folder: Path, env: dict) -> float:
    """Seconds from sending `check(embed)` to the kernel being idle again, in a fresh kernel."""
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(folder / "exercises"), env=env)
    try:
        for code in (SETUP, learner_embed()):
            reply = kc.execute_interactive(code, timeout=120, output_hook=lambda msg: None)
            if reply["content"]["status"] != "ok":
                raise RuntimeError(f"the kernel refused {code[:40]!r}: {reply['content']}")
        seen = []
        start = time.perf_counter()
        # check() displays HTML beside its text (display_data): the text is what it says
        kc.execute_interactive("check(embed)", timeout=120, output_hook=lambda msg: seen.append(
            msg["content"].get("text") or msg["content"].get("data", {}).get("text/plain", "")))
        took = time.perf_counter() - start
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    if not "".join(seen).startswith("embed: PASSED"):
        raise RuntimeError(f"check(embed) printed {''.join(seen)[:200]!r}")
    return took


def first_check_in_kernels(kernels: int) -> dict[str, list[float]]:
    """Both editions, their kernels interleaved (so a busy moment hits both alike)."""
    import os
    import tempfile

    from grader.release.bundle import build_release

    times = {"course": [], "student release": []}
    with tempfile.TemporaryDirectory() as tmp:
        bundle = build_release(Path(tmp) / "student")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        editions = {"course": (ROOT, env), "student release": (bundle, {**env, "PYTHONPATH": str(bundle)})}
        for _ in range(kernels):
            for edition, (folder, edition_env) in editions.items():
                times[edition].append(first_check(folder, edition_env))
    for edition, seconds in times.items():
        print(f"first check(embed) in a fresh kernel, {edition}: median {statistics.median(seconds):.3f} s "
              f"of {', '.join(f'{t:.3f}' for t in seconds)} (target < {FIRST_TARGET_S} s)")
    return times


def record(rows, worst, repeats: int, info: dict, firsts: dict[str, list[float]]) -> None:
    """This benchmark's section of docs/benchmarks.md: every exercise, and a profile of each one too slow."""
    target = _report.Target(f"slowest median check() ({worst[0].name}, {worst[1]})", worst[4], TARGET_S,
                            unit=" s")
    first_targets = [_report.Target(f"first check(embed) in a fresh kernel, {edition} (median)",
                                    statistics.median(seconds), FIRST_TARGET_S, unit=" s")
                     for edition, seconds in firsts.items()]
    first_table = ["| edition | first check(embed), each kernel (s) | median (s) | under 0.5 s |", "|---|---|---|---|"]
    first_table += [f"| {edition} | {', '.join(f'{t:.3f}' for t in seconds)} | {statistics.median(seconds):.3f} | "
                    f"{'yes' if statistics.median(seconds) < FIRST_TARGET_S else 'no'} |"
                    for edition, seconds in firsts.items()]
    table = ["| lesson | exercise | answer | first call (ms) | median (ms) | verdict | under 0.3 s |",
             "|---|---|---|---|---|---|---|"]
    for ex, label, _, first, median, status in rows:
        table.append(f"| {ex.lesson} | `{ex.name}` | {label} | {first * 1e3:.1f} | {median * 1e3:.1f} | "
                     f"{status} | {'yes' if median < TARGET_S else 'no'} |")
    slow = [row for row in rows if row[4] >= TARGET_S]
    profiles = [f"### Profile: `check({ex.name})` with the {label} answer (cProfile, 2 calls)\n\n"
                + _profiles.python_top(lambda fn=fn: evaluate(fn)) for ex, label, fn, *_ in slow]
    body = (f"`grader.check.evaluate` (what `check()` runs) in one process, as a learner's kernel sees it: "
            f"the first call of each exercise (which also computes the reference's and the mistakes' "
            f"answers, once per kernel) and the median of the next {repeats}. The mistake is the "
            f"exercise's first catalogued one. Target: every median under 0.3 s"
            + (f"; {len(slow)} answer(s) over it, profiled below" if slow else "") + ".\n\n"
            + "\n".join(table) + "".join("\n\n" + p for p in profiles)
            + "\n\nThe first `check()` of a kernel, in each edition: a fresh Jupyter kernel (started in "
            "`exercises/`, the release's on its own `PYTHONPATH`) runs the exercise notebook's first cell "
            f"(`{SETUP.splitlines()[-1]}`) and the solution's `embed`; then `check(embed)` is timed from "
            "the request to the kernel's idle again, the lessons' imports and stored data included. "
            f"Target: under {FIRST_TARGET_S} s.\n\n" + "\n".join(first_table))
    targets = [target, *first_targets]
    _report.print_targets(targets)
    print("wrote", _report.write_section("check_latency", body, targets, info))


if __name__ == "__main__":
    main()

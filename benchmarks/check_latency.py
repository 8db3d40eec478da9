"""How long a learner waits for check(): per exercise, a correct answer and a classic mistake.

Measured in one process as a learner's kernel would see it: the first call of an
exercise (which computes the reference's and the mistakes' answers once) and the
median of the next calls. Target (issue 11): median under 0.3 s for each.

Run: .venv/bin/python benchmarks/check_latency.py [--repeats 5]   (writes its section of docs/benchmarks.md)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _profiles  # noqa: E402
import _report  # noqa: E402
from grader.judging import registry  # noqa: E402
from grader.checking.check import evaluate  # noqa: E402

TARGET_S = 0.3


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
    args = parser.parse_args(argv)
    info = _report.machine()
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
    record(rows, worst, args.repeats, info)


def record(rows, worst, repeats: int, info: dict) -> None:
    """This benchmark's section of docs/benchmarks.md: every exercise, and a profile of each one too slow."""
    target = _report.Target(f"slowest median check() ({worst[0].name}, {worst[1]})", worst[4], TARGET_S,
                            unit=" s")
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
            + "\n".join(table) + "".join("\n\n" + p for p in profiles))
    _report.print_targets([target])
    print("wrote", _report.write_section("check_latency", body, [target], info))


if __name__ == "__main__":
    main()

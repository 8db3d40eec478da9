"""How long a learner waits for check(): per exercise, a correct answer and a classic mistake.

Measured in one process as a learner's kernel would see it: the first call of an
exercise (which computes the reference's and the mistakes' answers once) and the
median of the next calls. Target (issue 11): median under 0.3 s for each.

Run: .venv/bin/python benchmarks/check_latency.py [--repeats 5]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader import registry  # noqa: E402
from grader.check import evaluate  # noqa: E402


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
    print(f"{'exercise':24s} {'answer':8s} {'first':>9s} {'median':>9s}  verdict")
    worst = 0.0
    for ex in registry.load_all().values():
        for label, fn in (("correct", ex.reference), ("mistake", ex.mistakes[0].variant)):
            first, median, status = timed(as_learner(fn, ex.name), args.repeats)
            worst = max(worst, median)
            print(f"{ex.name:24s} {label:8s} {first * 1e3:7.1f}ms {median * 1e3:7.1f}ms  {status}")
    print(f"slowest median: {worst * 1e3:.1f} ms (target < 300 ms): "
          f"{'met' if worst < 0.3 else 'missed by ' + format(worst / 0.3, '.1f') + 'x'}")


if __name__ == "__main__":
    main()

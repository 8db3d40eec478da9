"""`make bench`: every benchmark in order, each in its own process, then every ratio against its target.

A benchmark that fails does not stop the others; the summary marks its section
as left from an earlier run, and the exit status is 1.

Run: .venv/bin/python benchmarks/run_all.py [NAME ...]   (cluster needs the cluster extra: make installs it)
     default: all but make_test_time (about 10 minutes more: add it by name or with BENCH_MAKE_TEST=1)
     .venv/bin/python benchmarks/run_all.py --summary   (only the summary of docs/benchmarks.md)
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import _report

LONG = {"make_test_time"}  # only when asked


def chosen(names: list[str]) -> list[str]:
    if names:
        unknown = [n for n in names if n not in _report.ORDER]
        if unknown:
            raise SystemExit(f"unknown benchmark(s) {unknown}; known: {list(_report.ORDER)}")
        return names
    with_long = os.environ.get("BENCH_MAKE_TEST", "") not in ("", "0")
    return [n for n in _report.ORDER if with_long or n not in LONG]


def run(name: str) -> tuple[bool, float]:
    print(f"\n=== {name}: {_report.ORDER[name]}", flush=True)
    start = time.perf_counter()
    ok = subprocess.run([sys.executable, str(_report.ROOT / "benchmarks" / f"{name}.py")]).returncode == 0
    return ok, time.perf_counter() - start


def summary(failed: set[str]) -> None:
    print(f"\n=== summary (from {_report.DOC.relative_to(_report.ROOT)})")
    rows = []
    for key, targets in _report.all_targets().items():
        stale = " [this run failed: earlier result]" if key in failed else ""
        if not targets:
            rows.append((key, "not measured yet" + stale, "", "", ""))
        for t in targets:
            rows.append((key, t.what + stale, f"{_report.num(t.measured)}{t.unit}", t.target_text(), t.verdict()))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"benchmarks among {list(_report.ORDER)}")
    parser.add_argument("--summary", action="store_true", help="print the summary only")
    args = parser.parse_args(argv)
    failed = set()
    if not args.summary:
        for name in chosen(args.names):
            ok, seconds = run(name)
            print(f"--- {name}: {'done' if ok else 'FAILED'} in {seconds:.0f} s", flush=True)
            if not ok:
                failed.add(name)
    summary(failed)
    if failed:
        raise SystemExit(f"failed: {', '.join(sorted(failed))}")


if __name__ == "__main__":
    main()

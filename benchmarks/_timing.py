"""Side-by-side timing: the contestants take turns in one process, and we keep medians.

Import this module before NumPy: the BLAS reads its thread count once, when it
loads, so the environment variables below must be set first. Both sides then
get the same threads (BENCH_THREADS, default every usable core).
"""
from __future__ import annotations

import os
import statistics
import time
from typing import Callable

THREADS = int(os.environ.get("BENCH_THREADS") or len(os.sched_getaffinity(0)))
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, str(THREADS))

# BLAS and OpenMP worker threads spin for a while after a call before they sleep;
# a short pause between contestants keeps one side's spinning threads from
# stealing a core from the other (on 2 cores that would bias the second runner).
SETTLE_S = 0.2


def same_threads() -> int:
    """Give torch the same number of threads as NumPy's BLAS; returns it."""
    import torch

    torch.set_num_threads(THREADS)
    return THREADS


def side_by_side(contestants: dict[str, Callable[[], object]], repeats: int,
                 warmup: int = 1, settle: float = SETTLE_S) -> dict[str, list[float]]:
    """Seconds per call for each contestant, `repeats` rounds after `warmup` untimed ones.

    Each round runs every contestant once, and the order alternates between
    rounds, so a slow spell of a shared machine falls on both sides alike.
    """
    names = list(contestants)
    for _ in range(warmup):
        for name in names:
            contestants[name]()
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(repeats):
        for name in names if r % 2 == 0 else names[::-1]:
            time.sleep(settle)
            start = time.perf_counter()
            contestants[name]()
            times[name].append(time.perf_counter() - start)
    return times


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def paired_ratio(times: dict[str, list[float]], a: str, b: str) -> float:
    """Median over rounds of a's time / b's time: each round's pair saw the same machine."""
    return statistics.median(x / y for x, y in zip(times[a], times[b]))


def best_ratio(times: dict[str, list[float]], a: str, b: str) -> float:
    """a's best time / b's best time: the least disturbed run of each, a check on the median."""
    return min(times[a]) / min(times[b])

"""The top entries of a profile, as Markdown, for the sections where a target is missed.

torch.profiler for the torch models (which operators take the time), cProfile
for NumPy (which of the course's functions do; NumPy's own calls run inside them).
"""
from __future__ import annotations

import cProfile
import io
import pstats
from typing import Callable


# The matrix products: the work both implementations of the same model must do alike.
MATMULS = ("aten::addmm", "aten::mm", "aten::bmm", "aten::matmul", "aten::linear")


def torch_profile(fn: Callable[[], object], calls: int = 2) -> dict[str, tuple[float, int]]:
    """{operator: (self CPU microseconds, calls)} over `calls` calls of fn (after one untimed call)."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    fn()
    with torch.inference_mode(), profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(calls):
            fn()
    return {e.key: (e.self_cpu_time_total, e.count) for e in prof.key_averages()}


def matmul_share(ops: dict[str, tuple[float, int]]) -> float:
    total = sum(us for us, _ in ops.values())
    return sum(ops.get(name, (0, 0))[0] for name in MATMULS) / total


def torch_table(ops: dict[str, tuple[float, int]], rows: int = 10) -> str:
    """Operators by self CPU time, as Markdown."""
    total = sum(us for us, _ in ops.values())
    ranked = sorted(ops.items(), key=lambda item: item[1][0], reverse=True)[:rows]
    lines = ["| operator | self CPU (ms) | share | calls |", "|---|---|---|---|"]
    lines += [f"| `{name}` | {us / 1e3:.1f} | {100 * us / total:.0f}% | {count} |" for name, (us, count) in ranked]
    lines.append(f"\nTotal self CPU time, every operator: {total / 1e3:.0f} ms (profiles run one after "
                 "another, not interleaved: on a busy machine compare shares, not totals).")
    return "\n".join(lines)


def stalls(ops: dict[str, tuple[float, int]], limit_ms: float = 0.5) -> str:
    """A warning when a cheap operator took milliseconds per call: its threads waited for a core.

    `aten::cat` of a KV cache moves well under a megabyte; when it averages more than
    limit_ms, the parallel region was waiting for a descheduled thread (a busy machine),
    so the profile measures the load more than the model.
    """
    us, count = ops.get("aten::cat", (0.0, 0))
    if not count or us / count / 1e3 < limit_ms:
        return ""
    return (f"\n\n**This profile mostly shows the machine's load:** `aten::cat` averaged "
            f"{us / count / 1e3:.1f} ms a call, for well under a megabyte of data; its threads were "
            f"waiting for a core. Rerun at a quiet moment before reading the shares.")


def torch_compared(ours: Callable[[], object], theirs: Callable[[], object], what: str) -> str:
    """Both profiles, and the sentence that reads them: how much of each is matrix products."""
    a, b = torch_profile(ours), torch_profile(theirs)
    rest_a, rest_b = 1 - matmul_share(a), 1 - matmul_share(b)
    return (f"### Profile: {what} (torch.profiler, 2 calls each)\n\nMatrix products (`addmm`, `mm`) "
            f"take {100 * matmul_share(a):.0f}% of the course's self CPU time and "
            f"{100 * matmul_share(b):.0f}% of Hugging Face's: the same products, run by the same "
            f"library, so the course can only gain on the rest ({100 * rest_a:.0f}% of its time against "
            f"{100 * rest_b:.0f}% of Hugging Face's), or lose where the same products run slower in its "
            f"weight layout.{stalls(a) or stalls(b)}\n\nThe course:\n\n{torch_table(a)}\n\n"
            f"Hugging Face:\n\n{torch_table(b)}")


def python_top(fn: Callable[[], object], rows: int = 10, calls: int = 2) -> str:
    """Functions by own time (tottime) over `calls` calls of fn, under cProfile."""
    fn()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(calls):
        fn()
    prof.disable()
    return stats_top(pstats.Stats(prof, stream=io.StringIO()), rows)


def stats_top(stats: pstats.Stats, rows: int = 10) -> str:
    """A Markdown table of the functions with the most own time (tottime) in cProfile's stats."""
    total = sum(row[2] for row in stats.stats.values())  # tottime summed over every function
    ranked = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:rows]
    lines = ["| function | own time (s) | share | cumulative (s) | calls |", "|---|---|---|---|---|"]
    for (path, line, name), (_, ncalls, tottime, cumtime, _) in ranked:
        where = f"{path.rsplit('/', 1)[-1]}:{line}({name})" if line else name
        lines.append(f"| `{where}` | {tottime:.3f} | {100 * tottime / total:.0f}% | {cumtime:.3f} | {ncalls} |")
    return "\n".join(lines)

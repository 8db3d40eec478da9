"""What every benchmark shares: the machine it ran on, its targets, and its section of docs/benchmarks.md.

Each benchmark owns one section of the document, between two markers, and
replaces only that section; so benchmarks can be run one at a time and the
document keeps the others' last results. Every section carries its targets as
a JSON comment, from which the summary at the top (and `summary.py`) is
rebuilt.
"""
from __future__ import annotations

import ctypes
import datetime
import json
import math
import os
import platform
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"

# The order of `make bench` and of the document: quick ones first, the long ones last.
ORDER = {
    "gelu_power": "GELU: x*x*x against x**3",
    "check_latency": "check() latency per exercise",
    "model_speed": "Forward pass: the course's models against Hugging Face",
    "sampling_speed": "Sampling with the KV cache against Hugging Face generate",
    "tokenizer_speed": "GPT-2's tokenizer: the course's encoder against Hugging Face and tiktoken",
    "grading": "Batch grading against executing whole notebooks",
    "cluster": "Grading on a Dask cluster against grading here, and 20,000 learners projected",
    "nbval_time": "nbval time per notebook",
    "make_test_time": "Fresh-clone `make test` time",
}
# Sections measured by another tool and kept as they are: `make bench` runs none of them.
HAND_MEASURED = {"mutation_kill_rate": "Mutation kill rate of the test suite (`make mutants`)"}
SECTIONS = {**ORDER, **HAND_MEASURED}

HEADER = """\
# Benchmarks

Reproduce with `make bench` (20-30 minutes on 2 cores, most of it nbclient executing the
grading benchmark's notebooks; one benchmark alone: `.venv/bin/python benchmarks/NAME.py`,
which rewrites only its own section below; `make bench-make-test` adds the fresh-clone
`make test` time, about 10 minutes more; `BENCH_THREADS=N` sets the threads of both
sides). Every comparison runs its contestants in one process, interleaved, with the same
threads and dtype, warm-up runs excluded, and reports medians, so a ratio holds on a busy
machine better than the absolute times do. A **time ratio** `A / B` is A's median time
over B's, taken round by round (below 1: A is faster): the course's PyTorch `GPT` forward
against Hugging Face's `GPT2LMHeadModel` on the same weights (target <= 0.95x) and the
NumPy reference against the course's PyTorch module (target <= 2.0x). A **throughput
ratio** is the course's rate over the alternative's (above 1: the course is faster):
tokens per second against Hugging Face `generate` (target >= 1.2x), and submissions per
minute of the batch grader against nbclient executing the same notebooks (target >= 5x,
and >= 60 per minute). `check()` latency, nbval and `make test` times are absolute
seconds by nature: read them with their section's machine line, which also says when the
machine was busy. Where a target is missed the section says by how much and shows the
top entries of a profile.
"""

SUMMARY_BEGIN, SUMMARY_END = "<!-- summary:begin -->", "<!-- summary:end -->"
_TARGETS = re.compile(r"<!-- targets (\[.*?\]) -->", re.S)


# ------------------------------------------------------------------ targets
@dataclass
class Target:
    """One measured number against its target; limit None means 'recorded, no target'."""

    what: str
    measured: float
    limit: float | None = None
    better: str = "lower"  # "lower": measured <= limit is met; "higher": measured >= limit
    unit: str = "x"

    @property
    def met(self) -> bool | None:
        if self.limit is None:
            return None
        return self.measured <= self.limit if self.better == "lower" else self.measured >= self.limit

    def target_text(self) -> str:
        if self.limit is None:
            return "none"
        return f"{'<=' if self.better == 'lower' else '>='} {num(self.limit)}{self.unit}"

    def verdict(self) -> str:
        """'met', or 'missed by N%': how far the measurement is on the wrong side of the limit."""
        if self.met is None:
            return "recorded"
        if self.met:
            return "met"
        off = self.measured / self.limit if self.better == "lower" else self.limit / self.measured
        return f"missed by {off:.1f}x" if off >= 2 else f"missed by {100 * (off - 1):.0f}%"

    def row(self) -> str:
        return f"| {self.what} | {num(self.measured)}{self.unit} | {self.target_text()} | {self.verdict()} |"


def num(x: float) -> str:
    if math.isnan(x):
        return "n/a"
    return f"{x:.2f}" if abs(x) < 100 else f"{x:.0f}"


def targets_table(targets: list[Target]) -> str:
    head = "| measure | measured | target | verdict |\n|---|---|---|---|\n"
    return head + "\n".join(t.row() for t in targets)


# ------------------------------------------------------------------ the machine
def openblas_threads() -> int | None:
    """The threads NumPy's OpenBLAS will use, asked of the loaded library (no threadpoolctl needed)."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return None
    for lib in sorted({line.split()[-1] for line in maps.splitlines() if "openblas" in line.lower()}):
        handle = ctypes.CDLL(lib)
        for symbol in ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
                       "openblas_get_num_threads64_", "openblas_get_num_threads"):
            if hasattr(handle, symbol):
                return int(getattr(handle, symbol)())
    return None


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict:
    """What the numbers depend on: CPU, cores, BLAS and its threads, torch and its threads, versions."""
    import numpy as np

    blas = np.show_config(mode="dicts").get("Build Dependencies", {}).get("blas", {})
    info = {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "usable cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "numpy": np.__version__,
        "numpy BLAS": f"{blas.get('name', '?')} {blas.get('version', '')}".strip(),
        "BLAS threads": openblas_threads(),
        "python": platform.python_version(),
        "load average at start": round(os.getloadavg()[0], 2),
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
    }
    if "torch" in sys.modules:  # only when the benchmark uses torch: importing it costs seconds
        torch = sys.modules["torch"]
        info["torch"] = torch.__version__
        info["torch threads"] = torch.get_num_threads()
    return info


def machine_line(info: dict) -> str:
    line = "Machine: " + "; ".join(f"{k} {v}" for k, v in info.items()) + "."
    load, cores = info.get("load average at start", 0), info.get("usable cores") or 1
    if load >= cores / 2:  # others' work was running: say so next to the numbers it inflates
        line += (f" **A busy, shared machine** (load {load} on {cores} cores when this started): absolute "
                 "times are inflated and noisy (ratios measured side by side less so). Rerun at a quiet moment.")
    return line


# ------------------------------------------------------------------ the document
def _markers(key: str) -> tuple[str, str]:
    return f"<!-- section:{key}:begin -->", f"<!-- section:{key}:end -->"


def _placeholder(key: str) -> str:
    if key in HAND_MEASURED:
        return f"## {SECTIONS[key]}\n\nNot measured yet: run `make mutants`.\n"
    extra = " (`make bench-make-test`)" if key == "make_test_time" else ""
    return f"## {ORDER[key]}\n\nNot measured yet: run `.venv/bin/python benchmarks/{key}.py`{extra}.\n"


def _sections(text: str) -> dict[str, str]:
    """Each known section's body as it stands in the document (placeholders for missing ones)."""
    found = {}
    for key in SECTIONS:
        begin, end = _markers(key)
        m = re.search(re.escape(begin) + r"\n(.*?)" + re.escape(end), text, re.S)
        found[key] = m.group(1) if m else _placeholder(key)
    return found


def all_targets(text: str | None = None) -> dict[str, list[Target]]:
    text = DOC.read_text() if text is None and DOC.exists() else (text or "")
    out = {}
    for key, body in _sections(text).items():
        m = _TARGETS.search(body)
        out[key] = [Target(**t) for t in json.loads(m.group(1))] if m else []
    return out


def _summary(sections: dict[str, str]) -> str:
    rows = ["## Summary", "", "| benchmark | measure | measured | target | verdict |", "|---|---|---|---|---|"]
    for key, targets in all_targets("".join(_wrap(k, b) for k, b in sections.items())).items():
        for t in targets:
            rows.append(f"| {key} " + t.row())
        if not targets:
            rows.append(f"| {key} | not measured yet | | | |")
    return "\n".join(rows) + "\n"


def _wrap(key: str, body: str) -> str:
    begin, end = _markers(key)
    return f"{begin}\n{body}{end}\n"


def write_section(key: str, body: str, targets: list[Target], info: dict) -> Path:
    """Replace benchmark `key`'s section (title, machine, body, targets table) and the summary."""
    sections = _sections(DOC.read_text() if DOC.exists() else "")
    payload = json.dumps([asdict(t) for t in targets])
    sections[key] = (f"## {ORDER[key]}\n\n{machine_line(info)}\n\n"
                     + (targets_table(targets) + "\n\n" if targets else "")
                     + body.strip() + f"\n\n<!-- targets {payload} -->\n")
    text = (HEADER + "\n" + SUMMARY_BEGIN + "\n" + _summary(sections) + SUMMARY_END + "\n\n"
            + "\n".join(_wrap(k, b) for k, b in sections.items()))
    DOC.parent.mkdir(parents=True, exist_ok=True)
    tmp = DOC.with_suffix(".md.tmp")
    tmp.write_text(text)
    tmp.replace(DOC)  # a benchmark killed mid-write leaves the previous document whole
    return DOC


def print_targets(targets: list[Target]) -> None:
    for t in targets:
        print(f"  {t.what}: {num(t.measured)}{t.unit} (target {t.target_text()}): {t.verdict()}")

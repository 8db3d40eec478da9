"""Batch grading against executing every notebook whole (what nbgrader and otter-grader do).

Builds a class of N learners, each submitting the four solved exercise
notebooks (every fifth learner with a classic mistake in embed), then, side by
side in one run on this machine:

* `python -m grader grade CLASS --jobs J` under each isolation mode available;
* the same notebooks executed top to bottom with nbclient, J at a time.

Prints complete submissions per minute, the peak memory of the grader, and the
ratio to nbclient. Targets (issue 8): >= 60 submissions per minute and >= 5x.

Run: .venv/bin/python benchmarks/grading.py [--learners 30] [--jobs 2]
"""
from __future__ import annotations

import argparse
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def make_class(folder: Path, learners: int) -> list[Path]:
    notebooks = []
    for i in range(learners):
        learner = folder / f"learner_{i:02d}"
        learner.mkdir(parents=True)
        for path in sorted((ROOT / "solutions").glob("*.ipynb")):
            nb = nbformat.read(path, as_version=4)
            if i % 5 == 4 and path.name.startswith("01_"):
                for cell in nb.cells:
                    if "def embed" in cell.source:
                        cell.source = cell.source.replace("+ wpe[:seq_len]", "+ wpe[idx]")
            nbformat.write(nb, learner / path.name)
            notebooks.append(learner / path.name)
    return notebooks


def grade(folder: Path, jobs: int, isolation: str) -> tuple[float, int]:
    out = folder.parent / f"out-{isolation}"
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _MEASURED, str(folder), str(out), str(jobs), isolation],
                          capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"grading failed under {isolation}:\n{proc.stderr[-2000:]}")
    return elapsed, int(proc.stdout.strip().splitlines()[-1])


# The grader in a child process, reporting its own peak memory (KiB, children included).
_MEASURED = """
import resource, sys
from pathlib import Path
from grader.grade import grade_batch
grade_batch([Path(sys.argv[1])], Path(sys.argv[2]), jobs=int(sys.argv[3]), isolation=sys.argv[4],
            progress=lambda sub, exercises: None)
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(peak)
"""


def execute_all(notebooks: list[Path], jobs: int) -> float:
    from nbclient import NotebookClient

    def run(path: Path) -> None:
        nb = nbformat.read(path, as_version=4)
        NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=True,
                       resources={"metadata": {"path": str(path.parent)}}).execute()

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(run, notebooks))
    return time.perf_counter() - start


def machine() -> str:
    import numpy as np

    try:
        from threadpoolctl import threadpool_info
        blas = ", ".join(f"{i['internal_api']} {i.get('version')}" for i in threadpool_info()
                         if i["user_api"] == "blas") or "unknown"
    except ImportError:
        blas = "unknown (threadpoolctl not installed)"
    return (f"{platform.processor() or platform.machine()}, {len_cpus()} cores, Python "
            f"{platform.python_version()}, NumPy {np.__version__}, BLAS {blas}")


def len_cpus() -> int:
    import os

    return len(os.sched_getaffinity(0))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    from grader.isolation import namespaces_problem

    modes = ["python"] + (["namespaces"] if namespaces_problem() is None else [])
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        klass = Path(tmp) / "class"
        notebooks = make_class(klass, args.learners)
        print(f"class: {args.learners} learners x 4 lessons, --jobs {args.jobs}")
        results = {mode: grade(klass, args.jobs, mode) for mode in modes}
        baseline = execute_all(notebooks, args.jobs)
        print(f"{'nbclient (whole notebooks)':28s} {baseline:7.1f} s  "
              f"{60 * args.learners / baseline:6.1f} submissions/min")
        for mode, (seconds, peak_kib) in results.items():
            rate = 60 * args.learners / seconds
            print(f"{'grader --isolation ' + mode:28s} {seconds:7.1f} s  {rate:6.1f} submissions/min  "
                  f"peak {peak_kib / 1024:5.0f} MiB  {baseline / seconds:4.1f}x nbclient")
        shutil.rmtree(klass, ignore_errors=True)


if __name__ == "__main__":
    main()

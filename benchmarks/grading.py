"""Batch grading against executing every notebook whole (what nbgrader and otter-grader do).

Builds a class of N learners, each submitting the solved exercise notebook of
every lesson that has exercises (found at run time: the registry's lessons, the
notebooks in solutions/; every fifth learner with a classic mistake in embed),
then, side by side in one run on this machine:

* `python -m grader grade CLASS --jobs J` under each isolation mode available;
* the same notebooks executed top to bottom with nbclient, J at a time.

Prints complete submissions per minute, the peak memory of the grader, and the
ratio to nbclient. Targets (issues 8 and 18), under the default isolation (namespaces: the
walls of grader/batch/sandbox/isolation.py): >= 60 submissions per minute and >= 10x nbclient;
--isolation python (no boundary) is measured beside it for reference.

Run: .venv/bin/python benchmarks/grading.py [--learners 30] [--jobs 2]   (writes its section of docs/benchmarks.md)
"""
from __future__ import annotations

import argparse
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

import _profiles
import _report

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RATE_TARGET = 60     # submissions per minute, at least
SPEEDUP_TARGET = 10  # times nbclient's rate, at least (issue 18)
PROFILE_LEARNERS = 10  # the smaller class graded again, lesson by lesson, when a target is missed


def lessons_with_exercises() -> list[Path]:
    """The solved notebooks whose lesson has exercises in the registry (new lessons count at once)."""
    from grader.judging import registry

    graded = set(registry.lessons())
    return [path for path in sorted((ROOT / "solutions").glob("*.ipynb")) if lesson_of(path) in graded]


def lesson_of(path: Path) -> str | None:
    return nbformat.read(path, as_version=4).metadata.get("gpt2course", {}).get("lesson")


def make_class(folder: Path, learners: int) -> list[Path]:
    notebooks = []
    solved = lessons_with_exercises()
    for i in range(learners):
        learner = folder / f"learner_{i:02d}"
        learner.mkdir(parents=True)
        for path in solved:
            nb = nbformat.read(path, as_version=4)
            if i % 5 == 4 and path.name.startswith("01_"):
                for cell in nb.cells:
                    if "def embed" in cell.source:
                        cell.source = cell.source.replace("+ wpe[:seq_len]", "+ wpe[idx]")
            nbformat.write(nb, learner / path.name)
            notebooks.append(learner / path.name)
    return notebooks


def grade(folder: Path, jobs: int, isolation: str, lessons: str = "", profile: Path | None = None,
          tag: str = "") -> tuple[float, int]:
    out = folder.parent / f"out-{isolation}{tag}"  # a fresh folder: the grader skips learners it has graded
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _MEASURED, str(folder), str(out), str(jobs), isolation,
                           lessons, str(profile or "")], capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"grading failed under {isolation}:\n{proc.stderr[-2000:]}")
    return elapsed, int(proc.stdout.strip().splitlines()[-1])


# The grader in a child process, reporting its own peak memory (KiB, children included).
# Optionally only some lessons (argv 5), and a cProfile of the trusted side (argv 6, with --jobs 1:
# the one grading thread is profiled; the learners' processes are not).
_MEASURED = """
import cProfile, resource, sys
from pathlib import Path
from grader.batch import grade
lessons = sys.argv[5].split(",") if sys.argv[5] else None
if sys.argv[6]:
    prof, graded = cProfile.Profile(), grade.grade_safely
    def profiled(*args):
        prof.enable()
        try:
            return graded(*args)
        finally:
            prof.disable()
    grade.grade_safely = profiled
grade.grade_batch([Path(sys.argv[1])], Path(sys.argv[2]), jobs=int(sys.argv[3]), isolation=sys.argv[4],
                  progress=lambda sub, exercises: None, lessons=lessons)
if sys.argv[6]:
    prof.dump_stats(sys.argv[6])
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(peak)
"""


def execute_all(notebooks: list[Path], jobs: int) -> tuple[float, int]:
    """Seconds and peak memory (KiB) for nbclient, in a child process measured like the grader's."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _BASELINE, str(jobs), *map(str, notebooks)],
                          capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"nbclient failed:\n{proc.stderr[-2000:]}")
    return elapsed, int(proc.stdout.strip().splitlines()[-1])


# Every notebook executed whole, J at a time; the peak counts the kernels (children) too.
_BASELINE = """
import resource, sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
import nbformat
from nbclient import NotebookClient

def run(path):
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(Path(path).parent)}}).execute()

with ThreadPoolExecutor(max_workers=int(sys.argv[1])) as pool:
    list(pool.map(run, sys.argv[2:]))
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(peak)
"""


def profile_grading(tmp: Path, mode: str, jobs: int) -> str:
    """Where the grader's time goes: a smaller class graded whole, lesson by lesson, and under cProfile."""
    klass = tmp / "profiled"
    make_class(klass, PROFILE_LEARNERS)
    whole, _ = grade(klass, jobs, mode, tag="-whole")
    per = {lesson: grade(klass, jobs, mode, lesson, tag=f"-{lesson}")[0]
           for lesson in map(lesson_of, lessons_with_exercises())}
    # whole = F + sum(c_l) and each lesson alone = F + c_l, so the fixed cost F (workspace, the
    # grading processes) is what the lesson-by-lesson runs pay len(per) - 1 times too often
    fixed = (sum(per.values()) - whole) / max(1, len(per) - 1)
    slowest = max(per, key=per.get)
    stats = tmp / "grader.prof"
    grade(klass, 1, mode, profile=stats, tag="-profiled")
    table = ["| lessons graded | seconds |", "|---|---|", f"| all | {whole:.1f} |"]
    table += [f"| {lesson} only | {seconds:.1f} |" for lesson, seconds in per.items()]
    return (f"### Profile: where the grader's time goes (`--isolation {mode}`)\n\n"
            f"The first {PROFILE_LEARNERS} learners graded again, `--jobs {jobs}`: all lessons, then one "
            f"lesson at a time. From these, the fixed cost of the batch (the grader's start-up, the "
            f"workspace, a grading process per slot and wherever one is not handed on: paid whatever the lessons) is about {fixed:.1f} s "
            f"of the {whole:.1f} s "
            f"({100 * fixed / whole:.0f}%); the rest is per lesson (each lesson's time minus "
            f"{fixed:.1f} s), the most for {slowest} ({per[slowest] - fixed:.1f} s).\n\n" + "\n".join(table)
            + "\n\nThe trusted side (the grading thread of `grade_batch`, `--jobs 1`, cProfile; waiting "
            "on the learners' processes shows as time in `poll`/`read`/`wait`):\n\n"
            + _profiles.stats_top(pstats.Stats(str(stats)), rows=12))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--profile", action="store_true", help="profile even where the targets are met")
    args = parser.parse_args(argv)
    from grader.batch.sandbox.isolation import namespaces_problem

    modes = (["namespaces"] if namespaces_problem() is None else []) + ["python"]
    info = _report.machine()
    print(_report.machine_line(info))
    with tempfile.TemporaryDirectory() as tmp:
        klass = Path(tmp) / "class"
        notebooks = make_class(klass, args.learners)
        lessons = len(notebooks) // args.learners
        print(f"class: {args.learners} learners x {lessons} lessons, --jobs {args.jobs}")
        results = {mode: grade(klass, args.jobs, mode) for mode in modes}
        baseline, baseline_kib = execute_all(notebooks, args.jobs)
        print(f"{'nbclient (whole notebooks)':28s} {baseline:7.1f} s  "
              f"{60 * args.learners / baseline:6.1f} submissions/min  peak {baseline_kib / 1024:5.0f} MiB")
        for mode, (seconds, peak_kib) in results.items():
            rate = 60 * args.learners / seconds
            print(f"{'grader --isolation ' + mode:28s} {seconds:7.1f} s  {rate:6.1f} submissions/min  "
                  f"peak {peak_kib / 1024:5.0f} MiB  {baseline / seconds:4.1f}x nbclient")
        shutil.rmtree(klass, ignore_errors=True)
        slowest = max(results, key=lambda mode: results[mode][0])
        missed = any(60 * args.learners / seconds < RATE_TARGET or baseline / seconds < SPEEDUP_TARGET
                     for mode, (seconds, _) in results.items() if mode == "namespaces")
        profile_md = profile_grading(Path(tmp), slowest, args.jobs) if missed or args.profile else ""
    record(results, (baseline, baseline_kib), args, lessons, modes, info, profile_md)


def record(results: dict, nbclient: tuple[float, int], args, lessons: int, modes: list[str], info: dict,
           profile_md: str) -> None:
    """This benchmark's section of docs/benchmarks.md."""
    baseline, baseline_kib = nbclient
    targets, table = [], ["| how | seconds | submissions/min | peak memory (MiB) | x nbclient |",
                          "|---|---|---|---|---|",
                          f"| nbclient, whole notebooks | {baseline:.1f} | {60 * args.learners / baseline:.1f} "
                          f"| {baseline_kib / 1024:.0f} | 1.0 |"]
    for mode, (seconds, peak_kib) in results.items():
        rate = 60 * args.learners / seconds
        table.append(f"| `grader grade --isolation {mode}` | {seconds:.1f} | {rate:.1f} | {peak_kib / 1024:.0f} "
                     f"| {baseline / seconds:.1f} |")
        if mode == "namespaces":  # the targets are the default's; python is no boundary, shown for reference
            targets += [_report.Target(f"--isolation {mode}: submissions/min", rate, RATE_TARGET, "higher", "/min"),
                        _report.Target(f"--isolation {mode}: x nbclient", baseline / seconds, SPEEDUP_TARGET,
                                       "higher")]
    skipped = "" if "namespaces" in modes else " (namespaces unavailable here: bubblewrap missing or refused)"
    body = (f"A class of {args.learners} learners, each submitting {lessons} solved exercise notebooks (every "
            f"lesson with exercises; every fifth learner with a classic mistake in `embed`), graded with "
            f"`--jobs {args.jobs}` under each isolation mode available{skipped}, against the same notebooks "
            f"executed top to bottom with nbclient, {args.jobs} at a time. A submission is one learner's "
            f"complete set. Peak memory is the largest resident set of the measured process or of any "
            f"one of its children (ru_maxrss: zygotes and their children for the grader, kernels for "
            f"nbclient), not a sum over processes running at once. The grader's runs come first, then "
            f"nbclient's (one run each, not interleaved: on a busy machine the ratio moves with the load)."
            f"\n\n" + "\n".join(table) + ("\n\n" + profile_md if profile_md else ""))
    _report.print_targets(targets)
    print("wrote", _report.write_section("grading", body, targets, info))


if __name__ == "__main__":
    main()

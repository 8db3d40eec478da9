"""Grading on a Dask cluster against grading here (issue 19), and what a class of 20,000 would take.

One class (grading.py's: every lesson with exercises, solved, every fifth learner with a
classic mistake) is graded four ways in one run, each in a child process of its own,
in turns: here with --jobs 1 and 2, and on a local Dask cluster (--workers 1 and 2,
the grader's own LocalCluster in a child process). Each run records when grading began
and when each learner's result arrived, so the start-up (a cluster and its workers'
first imports) is told apart from the steady cost per learner, in seconds of one core:

* the 1-to-2-worker ratio: whole runs and steady rates, side by side;
* the task overhead: a learner's cost on one cluster worker against one local thread;
* the instructor's side: saving one result, and rebuilding the gradebook per saved learner;
* from these, a projection for 20,000 learners (8 lessons each) on N nodes of K cores.

Run: .venv/bin/python benchmarks/cluster.py [--learners 20]   (writes its section of docs/benchmarks.md)
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _report
from grading import make_class

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CLASS = 20_000
SHAPES = [(1, 16), (4, 16), (16, 16), (8, 64), (64, 16), (32, 64)]  # (nodes, cores each)

# One batch in a child process: when grading began and when each result arrived (seconds).
_MEASURED = """
import json, sys, time
t0 = time.monotonic()
from pathlib import Path
from grader.batch import grade
from grader.batch.isolation import namespaces_problem
folder, out, kind, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
marks = {"results": []}
class Clock:
    def begin(self, total, done): marks["begin"] = time.monotonic() - t0
    def __call__(self, sub, exercises): marks["results"].append(time.monotonic() - t0)
pool = None
if kind == "cluster":
    from grader.batch.cluster import pool_for
    pool = pool_for(workers=n)
mode = "namespaces" if namespaces_problem() is None else "python"
grade.grade_batch([Path(folder)], Path(out), jobs=n if kind == "here" else 1, cluster=pool, progress=Clock(),
                  isolation=mode)
marks["end"], marks["mode"] = time.monotonic() - t0, mode
print(json.dumps(marks))
"""


def grade_once(folder: Path, kind: str, n: int, tag: str) -> dict:
    out = folder.parent / f"out-{kind}-{n}-{tag}"
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _MEASURED, str(folder), str(out), kind, str(n)],
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"grading {kind} {n} failed:\n{proc.stderr[-3000:]}")
    marks = json.loads(proc.stdout.strip().splitlines()[-1])
    marks["wall"] = time.perf_counter() - start
    marks["gradebook"] = (out / "gradebook.csv").read_text()
    shutil.rmtree(out, ignore_errors=True)
    return marks


def steady(marks: dict, concurrency: int) -> float:
    """Seconds of one core per learner, between the first and the last result (the start-up
    and the wait for the first learner left out)."""
    times = sorted(marks["results"])
    return concurrency * (times[-1] - times[0]) / max(1, len(times) - 1)


def instructor_costs(learners: int = 200) -> tuple[float, float]:
    """(seconds to save one result without rebuilding, seconds of a rebuild per saved learner),
    on synthetic complete results of every lesson."""
    from grader.batch import grade
    from grader.batch.collect import Learner, Notebook
    from grader.batch.state import Batch
    from grader.judging.outcomes import Verdict

    exercises = grade.Exercises()
    exercises.assignment = list(exercises.by_lesson)
    verdicts = [Verdict(e.name, "passed", 7, 7, 1.0, 1.0, "passed all 7 tests")
                for lesson in exercises.assignment for e in exercises.by_lesson[lesson]]
    with tempfile.TemporaryDirectory() as tmp:
        batch = Batch(Path(tmp), exercises, grade.Submission)
        everyone = [Learner(f"learner_{i:05d}", [Notebook("01.ipynb", b"%d" % i)]) for i in range(learners)]
        start = time.perf_counter()
        for x in everyone:
            batch.save(grade.Submission(x.name, ["01.ipynb"], exercises.assignment, None, verdicts, [],
                                        x.fingerprint()), everyone, rebuild=False)
        save = (time.perf_counter() - start) / learners
        start = time.perf_counter()
        batch.rebuild(everyone)
        return save, (time.perf_counter() - start) / learners


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=20)
    args = parser.parse_args(argv)
    info = _report.machine()
    print(_report.machine_line(info))
    runs = [("here", 1), ("cluster", 1), ("here", 2), ("cluster", 2)]  # in turns: the load falls on all
    with tempfile.TemporaryDirectory() as tmp:
        klass = Path(tmp) / "class"
        lessons = len(make_class(klass, args.learners)) // args.learners
        print(f"class: {args.learners} learners x {lessons} lessons")
        got = {}
        for kind, n in runs:
            got[kind, n] = grade_once(klass, kind, n, "a")
            m = got[kind, n]
            print(f"{kind:8s} x{n}: {m['wall']:6.1f} s whole, first result after {m['results'][0] - m['begin']:5.1f} s, "
                  f"{steady(m, n):5.2f} core-s per learner")
    if len({m["gradebook"] for m in got.values()}) != 1:
        raise SystemExit("the four gradebooks differ: the cluster did not grade as this machine does")
    save, rebuild = instructor_costs()
    print(f"instructor: {1000 * save:.1f} ms to save a result, {1000 * rebuild:.2f} ms of rebuild per saved learner")
    record(got, args.learners, lessons, save, rebuild, info)


def projection(per_learner: float, startup: float, save: float, rebuild: float) -> tuple[str, list[str]]:
    rows = ["| nodes x cores | workers' time | instructor's least time | projected |", "|---|---|---|---|"]
    # the instructor saves every result (and spends at most 1/11 of its time on rebuilds)
    instructor = CLASS * save * 1.1
    for nodes, cores in SHAPES:
        workers = CLASS * per_learner / (nodes * cores)
        rows.append(f"| {nodes} x {cores} | {_hours(workers)} | {_hours(instructor)} | "
                    f"{_hours(startup + max(workers, instructor))} |")
    text = (f"For {CLASS:,} learners of 8 lessons: time = start-up + max(class x per-learner cost / "
            f"(N x K), class x save cost x 1.1), assuming the per-learner cost measured on one "
            f"cluster worker ({per_learner:.2f} core-s) holds per core on nodes like this one, one "
            f"worker thread per core, and a scheduler and an instructor's machine that keep up. "
            f"The instructor's process saves every result itself ({1000 * save:.1f} ms each here) and "
            f"rebuilds the gradebook and report.json from every saved result "
            f"({1000 * rebuild:.2f} ms per saved learner, so {CLASS * rebuild:.0f} s at {CLASS:,}); it "
            f"rebuilds only after waiting 10 times the last rebuild's duration (pipeline.REBUILD_SHARE), so "
            f"rebuilds stay under a tenth of its time instead of growing with the square of the class. "
            f"Each worker core also needs the memory of one learner's grading process and exercise "
            f"(--memory-mb, 3 GiB by default).")
    return text, rows


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 5400 else f"{seconds / 60:.0f} min"


def record(got: dict, learners: int, lessons: int, save: float, rebuild: float, info: dict) -> None:
    one, two = got["cluster", 1], got["cluster", 2]
    per_cluster, per_here = steady(one, 1), steady(got["here", 1], 1)
    startup = one["results"][0] - one["begin"] - per_cluster
    targets = [
        _report.Target("1 / 2 workers: whole run", one["wall"] / two["wall"]),
        _report.Target("1 / 2 workers: steady rate", steady(one, 1) / (steady(two, 2) / 2)),
        _report.Target("task overhead: cluster / here, per learner", per_cluster / per_here),
    ]
    table = ["| how | whole run (s) | first result after (s) | core-s per learner (steady) |", "|---|---|---|---|"]
    for (kind, n), m in got.items():
        how = f"`--jobs {n}` here" if kind == "here" else f"`--workers {n}`"
        table.append(f"| {how} | {m['wall']:.1f} | {m['results'][0] - m['begin']:.1f} | {steady(m, n):.2f} |")
    text, rows = projection(per_cluster, max(0.0, startup), save, rebuild)
    body = (f"A class of {learners} learners x {lessons} lessons (grading.py's), under `--isolation "
            f"{one['mode']}`, graded four ways, each in a child process, in turns: here with `--jobs 1` and "
            f"`2`, and with `--workers 1` and `2` (a Dask LocalCluster of worker processes with one thread "
            f"each, in a child process; the instructor's process, the scheduler and the workers share the "
            f"machine's cores). The four gradebooks are equal. *Whole run* counts the interpreter, the "
            f"cluster's start and its workers' first imports; *core-s per learner* is the time between the "
            f"first and last result per learner, times the workers or threads: a learner's steady cost in "
            f"seconds of one core. Ratios: the 1-worker run over the 2-worker run (whole, and steady rate: "
            f"2 would be perfect), and the task overhead, a learner's steady cost on one cluster worker over "
            f"one local thread (1 means none).\n\n" + "\n".join(table)
            + f"\n\n### Projection: {CLASS:,} learners\n\n{text}\n\n" + "\n".join(rows))
    _report.print_targets(targets)
    print("wrote", _report.write_section("cluster", body, targets, info))


if __name__ == "__main__":
    main()

"""Grading on a Dask cluster against grading here (issue 19), and what a class of 20,000 would take.

One class (grading.py's: every lesson with exercises, solved, every fifth learner with a
classic mistake) is graded four ways in one run, each in a child process of its own,
in turns: here with --jobs 1 and 2, and on a local Dask cluster (--workers 1 and 2,
the grader's own LocalCluster in a child process). Each run records when grading began
and when each learner's result arrived, so the start-up (a cluster and its workers'
first imports) is told apart from the steady cost per learner, in seconds of one core:

* the 1-to-2-worker ratio: whole runs and steady rates, side by side;
* the task overhead: a learner's cost on one cluster worker against one local thread;
* the instructor's side: its CPU per result, and a rebuild of the gradebook per saved learner;
* from these, a projection for 20,000 learners (8 lessons each) on N nodes of K cores.

Run: .venv/bin/python benchmarks/cluster.py [--learners 20] [--rounds 3]   (writes its section of docs/benchmarks.md)
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
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
import json, resource, sys, time
t0 = time.monotonic()
def cpu():  # this process's own CPU seconds, all its threads (the Dask client's too), no children
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
from pathlib import Path
from grader.batch import grade
from grader.batch.sandbox.isolation import namespaces_problem
folder, out, kind, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
marks = {"results": [], "cpu": [], "rebuild_cpu": []}
from grader.batch import state
rebuild, spent = state.Batch.rebuild, [0.0]
def timed_rebuild(self, learners):  # its CPU is told apart from the rest of the instructor's
    start = time.thread_time()
    try:
        return rebuild(self, learners)
    finally:
        spent[0] += time.thread_time() - start
state.Batch.rebuild = timed_rebuild
class Clock:
    def begin(self, total, done): marks["begin"] = time.monotonic() - t0
    def __call__(self, sub, exercises):
        marks["results"].append(time.monotonic() - t0)
        marks["cpu"].append(cpu())
        marks["rebuild_cpu"].append(spent[0])
pool = None
if kind == "cluster":
    from grader.batch.cluster.pool import pool_for
    pool = pool_for(workers=n)
mode = "namespaces" if namespaces_problem() is None else "python"
grade.grade_batch([Path(folder)], Path(out), jobs=n if kind == "here" else 1, cluster=pool, progress=Clock(),
                  isolation=mode)
marks["end"], marks["mode"] = time.monotonic() - t0, mode
from grader.batch.inputs.collect import collect
from grader.batch.pipeline import lessons_in
learners = collect([Path(folder)]).learners  # one rebuild of the whole class, timed: its cost per learner
again = state.Batch(Path(out), grade.Exercises(lessons=lessons_in(learners)), grade.Submission)
start = time.perf_counter()
again.rebuild(learners)
marks["rebuild_per_learner"] = (time.perf_counter() - start) / len(learners)
assert len(again.rebuild(learners)) == len(learners)  # every saved result verified and counted
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


def instructor_cpu(marks: dict) -> float:
    """The instructor's own CPU seconds per result between the first and the last, its
    gradebook rebuilds left out (receiving, checking and saving a result, the progress line,
    the Dask client's thread)."""
    used = (marks["cpu"][-1] - marks["cpu"][0]) - (marks["rebuild_cpu"][-1] - marks["rebuild_cpu"][0])
    return used / max(1, len(marks["cpu"]) - 1)


def summary(rounds: list[dict], n: int) -> dict:
    """Medians over the rounds of one way of grading."""
    med = statistics.median
    return {"wall": med(m["wall"] for m in rounds), "first": med(m["results"][0] - m["begin"] for m in rounds),
            "steady": med(steady(m, n) for m in rounds), "cpu": med(instructor_cpu(m) for m in rounds),
            "rebuild": med(m["rebuild_per_learner"] for m in rounds), "mode": rounds[0]["mode"]}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    info = _report.machine()
    print(_report.machine_line(info))
    ways = [("here", 1), ("cluster", 1), ("here", 2), ("cluster", 2)]
    with tempfile.TemporaryDirectory() as tmp:
        klass = Path(tmp) / "class"
        lessons = len(make_class(klass, args.learners)) // args.learners
        print(f"class: {args.learners} learners x {lessons} lessons, {args.rounds} rounds")
        got = {way: [] for way in ways}
        for r in range(args.rounds):  # in turns, the order reversed every other round: the load falls on all
            for kind, n in ways if r % 2 == 0 else ways[::-1]:
                m = grade_once(klass, kind, n, str(r))
                got[kind, n].append(m)
                print(f"{kind:8s} x{n}: {m['wall']:6.1f} s whole, first result after "
                      f"{m['results'][0] - m['begin']:5.1f} s, {steady(m, n):5.2f} core-s per learner", flush=True)
    if len({m["gradebook"] for rounds in got.values() for m in rounds}) != 1:
        raise SystemExit("the gradebooks differ: the cluster did not grade as this machine does")
    summaries = {way: summary(rounds, way[1]) for way, rounds in got.items()}
    two = summaries["cluster", 2]
    print(f"instructor: {1000 * two['cpu']:.1f} ms of CPU per result (rebuilds apart), "
          f"{1000 * two['rebuild']:.2f} ms of rebuild per saved learner")
    record(summaries, args.learners, lessons, args.rounds, info)


def projection(per_learner: float, startup: float, rebuild: float, per_result: float) -> tuple[str, list[str]]:
    from grader.batch.pipeline import REBUILD_SHARE

    rows = ["| nodes x cores | workers' time | instructor's least time | projected |", "|---|---|---|---|"]
    # one process takes in every result; its rebuilds are at most 1 / (REBUILD_SHARE + 1) of its time
    instructor = CLASS * per_result * (1 + 1 / REBUILD_SHARE)
    for nodes, cores in SHAPES:
        workers = CLASS * per_learner / (nodes * cores)
        rows.append(f"| {nodes} x {cores} | {_hours(workers)} | {_hours(instructor)} | "
                    f"{_hours(startup + max(workers, instructor))} |")
    text = (f"For {CLASS:,} learners of 8 lessons: time = start-up ({startup:.0f} s here) + max(class x "
            f"per-learner cost / (N x K), class x the instructor's cost per result), assuming the "
            f"per-learner cost measured on one cluster worker ({per_learner:.2f} core-s) holds per core "
            f"on nodes like this one, one worker thread per core, and a scheduler that keeps up (Dask's "
            f"costs well under a millisecond per task). The instructor's process takes in every result "
            f"itself: {1000 * per_result:.1f} ms of its CPU per result in the `--workers 2` run (receiving, "
            f"checking and saving it, the progress line, the Dask client), and "
            f"it rebuilds the gradebook and report.json from every saved result "
            f"({1000 * rebuild:.2f} ms per saved learner, so {CLASS * rebuild:.0f} s at {CLASS:,}) only after "
            f"waiting 10 times the last rebuild's duration (`pipeline.REBUILD_SHARE`), so rebuilds stay "
            f"under a tenth of its time instead of growing with the square of the class (rebuilding after "
            f"every result would cost {CLASS * CLASS * rebuild / 2 / 3600:.0f} h at {CLASS:,}). Past the "
            f"node counts where the instructor's time is the larger, more workers do not help. Each "
            f"worker core also needs the memory of one learner's grading process and exercise "
            f"(`--memory-mb`, 3 GiB by default).")
    return text, rows


def _hours(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 3600:.1f} h" if seconds >= 5400 else f"{seconds / 60:.0f} min"


def record(got: dict, learners: int, lessons: int, rounds: int, info: dict) -> None:
    one, two = got["cluster", 1], got["cluster", 2]
    startup = one["first"] - one["steady"]
    targets = [
        _report.Target("1 / 2 workers: whole run", one["wall"] / two["wall"], better="higher"),
        _report.Target("1 / 2 workers: steady rate", one["steady"] / (two["steady"] / 2), better="higher"),
        _report.Target("task overhead: cluster / here, per learner", one["steady"] / got["here", 1]["steady"]),
        _report.Target("instructor's CPU per result on the cluster (rebuilds apart)", 1000 * two["cpu"], unit=" ms"),
    ]
    table = ["| how | whole run (s) | first result after (s) | core-s per learner (steady) |", "|---|---|---|---|"]
    for (kind, n), m in got.items():
        how = f"`--jobs {n}` here" if kind == "here" else f"`--workers {n}`"
        table.append(f"| {how} | {m['wall']:.1f} | {m['first']:.1f} | {m['steady']:.2f} |")
    text, rows = projection(one["steady"], max(0.0, startup), two["rebuild"], two["cpu"])
    body = (f"A class of {learners} learners x {lessons} lessons (grading.py's), under `--isolation "
            f"{one['mode']}`, graded four ways, each in a child process, in turns ({rounds} rounds, medians): "
            f"here with `--jobs 1` and `2`, and with `--workers 1` and `2` (a Dask LocalCluster of worker "
            f"processes with one thread each, in a child process; the instructor's process, the scheduler and "
            f"the workers share the machine's cores). Every gradebook is the same. *Whole run* counts the "
            f"interpreter, the cluster's start and its workers' first imports; *core-s per learner* is the "
            f"time between the first and last result per learner, times the workers or threads: a learner's "
            f"steady cost in seconds of one core. Ratios: the 1-worker run over the 2-worker run (whole, and "
            f"steady rate: 2 would be perfect, on two cores that the instructor's process and the scheduler "
            f"share), and the task overhead, a learner's steady cost on one cluster worker over one local "
            f"thread (1 means none).\n\n" + "\n".join(table)
            + f"\n\n### Projection: {CLASS:,} learners\n\n{text}\n\n" + "\n".join(rows))
    _report.print_targets(targets)
    print("wrote", _report.write_section("cluster", body, targets, info))


if __name__ == "__main__":
    main()

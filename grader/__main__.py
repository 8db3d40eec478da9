"""python -m grader {stubs,grade,export,release,exercises,gradescope,timeout}: the instructor's and
maintainer's commands."""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cmd_stubs(args) -> int:
    from .notebook import NotebookError

    try:
        return _stubs(args)
    except NotebookError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _stubs(args) -> int:
    from .release import stubs

    solutions, exercises = Path(args.solutions), Path(args.exercises)
    if args.check:
        problems = stubs.stale(solutions, exercises)
        for p in problems:
            print(p, file=sys.stderr)
        if problems:
            print("exercises/ is out of date: run `python -m grader stubs`", file=sys.stderr)
            return 1
        print(f"{exercises}/ matches {solutions}/")
        return 0
    written = stubs.write(solutions, exercises)
    print(f"wrote {len(written)} notebook(s)" + "".join(f"\n  {p}" for p in written))
    return 0


def _secret(args) -> Path | None:
    from .batch.state import PUBLIC_SEEDS

    if args.public_seeds and args.secret:
        raise ValueError("--public-seeds and --secret exclude each other: give one")
    return PUBLIC_SEEDS if args.public_seeds else Path(args.secret) if args.secret else None


def cmd_grade(args) -> int:
    from .batch.report import plain
    from .batch.inputs.collect import ClassArgument, InputError
    from .batch.grade import grade_batch
    from .batch.pipeline import BatchStopped
    from .batch.sandbox.limits import Limits

    try:
        for name, value, least in [("--jobs", args.jobs, 1), ("--timeout", args.timeout, 0.1),
                                   ("--submission-timeout", args.submission_timeout, 0.1),
                                   ("--memory-mb", args.memory_mb, 256)]:
            if value < least:
                raise ValueError(f"{name} must be at least {least:g}, got {value:g}")
        points = json.loads(Path(args.points).read_text()) if args.points else None
        if points is not None and not (isinstance(points, dict) and all(
                isinstance(v, (int, float)) and v >= 0 for v in points.values())):
            raise ValueError("--points must be a JSON object of exercise name -> points >= 0")
        limits = Limits(wall_s=args.timeout, submission_s=args.submission_timeout,
                        memory_bytes=args.memory_mb * 2**20)
        lessons = [x.strip() for x in args.lessons.split(",") if x.strip()] if args.lessons else None
        if not args.submissions and not args.classes:
            raise ValueError("nothing to grade: give notebooks, folders or zip files (or --class ZIP)")
        classlist, lessons, points, scoring = _class_settings(args, lessons, points)
        inputs = [Path(p) for p in args.submissions] + [ClassArgument(p) for p in args.classes]
        subs = grade_batch(inputs, Path(args.out), limits,
                           jobs=args.jobs, force=args.force, points=points, isolation=args.isolation,
                           lessons=lessons, scoring=scoring, progress=Progress(),
                           cluster=_cluster(args), secret=_secret(args), classlist=classlist)
    except BatchStopped as exc:
        interrupted = str(exc).startswith("interrupted")
        print(f"{'' if interrupted else 'error: '}{exc}", file=sys.stderr)
        return 130 if interrupted else 2
    except (InputError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    internal = [s for s in subs if s.internal]
    print(f"graded {len(subs)} submission(s): {args.out}/gradebook.csv, report.json, feedback/")
    print_skipped(Path(args.out) / "report.json")
    for s in internal:
        print(f"grader failure for {plain(s.name)}: {plain(s.problem)}", file=sys.stderr)
    return 1 if internal else 0


def _class_settings(args, lessons, points):
    """(the class list, lessons, points, scoring): the assignment file's (--assignment), each
    overridden by its flag (--lessons, --points per exercise, --scoring), and the roster."""
    from .batch.classlist import from_files

    classlist = from_files(args.assignment, args.roster)
    a = classlist.assignment
    if a is not None:
        lessons = lessons or a.lessons
        points = a.points | (points or {}) or None
    return classlist, lessons, points, args.scoring or (a.scoring if a else None) or "per-case"


def _cluster(args):
    """None (grade here, as ever: Dask is not imported), or the Dask cluster to grade on."""
    if args.scheduler is None and args.workers is None:
        return None
    if args.scheduler is not None and args.workers is not None:
        raise ValueError("give --scheduler (a running Dask cluster) or --workers (a local one), not both")
    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {args.workers}")
    if args.jobs != 1:
        raise ValueError("--jobs is for grading here; on a Dask cluster each worker thread grades one "
                         "learner at a time (start more workers, or --workers N)")
    from .batch.cluster.pool import pool_for

    return pool_for(args.scheduler, args.workers)


def print_skipped(report: Path, shown: int = 10) -> None:
    """The files of the inputs that were not graded, as report.json lists them: the
    learners' own files first, system files (hidden, __MACOSX, checkpoints) last."""
    from .batch.inputs.files import SYSTEM_REASONS
    from .batch.report import plain

    try:
        skipped = json.loads(report.read_text(encoding="utf-8"))["skipped"]
    except (OSError, ValueError, KeyError, TypeError):
        return
    if not skipped:
        return
    skipped = sorted(skipped, key=lambda s: (s["reason"] in SYSTEM_REASONS, s["path"]))
    print(f"skipped {len(skipped)} file(s), not graded ({report} lists each with its reason):")
    for s in skipped[:shown]:
        whose = f" [{plain(s['learner'], 60)}]" if s.get("learner") else ""
        print(f"  {plain(s['path'], 200)}{whose}: {plain(s['reason'], 200)}")
    if len(skipped) > shown:
        print(f"  ... and {len(skipped) - shown} more")


class Progress:
    """A one-line progress bar on a terminal, a line per learner otherwise: learners done of
    all, the rate this run and the time left at it; at the end, how many each worker graded."""

    def __init__(self, stream=None, clock=time.monotonic):
        self.stream, self.clock, self.done, self.total = stream or sys.stderr, clock, 0, 0
        self.start, self.graded, self.where = clock(), 0, Counter()

    def begin(self, total: int, done: int) -> None:
        self.total, self.done, self.start = total, done, self.clock()
        if done:
            print(f"{done} of {total} already graded (use --force to regrade)", file=self.stream)

    def pace(self) -> str:
        """"12.0/min, about 3 min left" from the learners graded this run (the skipped ones are
        not a rate); empty before the first."""
        elapsed = self.clock() - self.start
        if not self.graded or elapsed <= 0:
            return ""
        rate = 60 * self.graded / elapsed
        left = (self.total - self.done) * elapsed / self.graded
        when = "done" if left <= 0 else f"about {_duration(left)} left"
        return f"{rate:.1f}/min, {when}"

    def __call__(self, sub, exercises) -> None:
        from .batch.report import num, plain

        self.done += 1
        self.graded += 1
        state = f"{num(sub.total)} / {num(exercises.max_total())}" + (f" ({plain(sub.problem, 120)})"
                                                                       if sub.problem else "")
        if self.stream.isatty():
            bar = "#" * (30 * self.done // max(self.total, 1))
            print(f"\r[{bar:<30}] {self.done}/{self.total} {self.pace():<28} {plain(sub.name, 30):<30}",
                  end="", file=self.stream, flush=True)
            if self.done == self.total:
                print(file=self.stream)
        else:
            pace = f" ({self.pace()})" if self.pace() else ""
            print(f"[{self.done}/{self.total}] {plain(sub.name)}: {state}{pace}", file=self.stream, flush=True)

    def ran_on(self, where: str | None) -> None:
        if where is not None:
            self.where[where] += 1

    def end(self) -> None:
        from .batch.report import plain

        if self.where:
            counts = ", ".join(f"{plain(w, 80)}: {n}" for w, n in sorted(self.where.items()))
            print(f"learners graded per worker: {counts}", file=self.stream)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def cmd_export(args) -> int:
    from .batch.exports import main as export

    return export(args)


def cmd_gradescope(args) -> int:
    from .gradescope.build import main as gradescope

    return gradescope(args)


def cmd_release(args) -> int:
    from .release.bundle import build_release

    try:
        out = build_release(Path(args.out), force=args.force)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"student release written to {out}")
    return 0


def cmd_exercises(args) -> int:
    from .release.catalogue import listing, markdown_table

    try:
        print(markdown_table() if args.markdown else listing(args.lessons))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def cmd_timeout(args) -> int:
    from .batch.timing import report

    lessons = [x.strip() for x in args.lessons.split(",") if x.strip()] if args.lessons else None
    if args.factor <= 0:
        print("error: --factor must be above 0, e.g. 10", file=sys.stderr)
        return 2
    try:
        print(report(lessons, factor=args.factor))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("stubs", help="write exercises/ from solutions/ (or --check it)")
    p.add_argument("--check", action="store_true", help="fail if exercises/ is out of date")
    p.add_argument("--solutions", default=str(ROOT / "solutions"))
    p.add_argument("--exercises", default=str(ROOT / "exercises"))
    p.set_defaults(func=cmd_stubs)
    p = sub.add_parser("grade", help="grade submitted exercise notebooks")
    p.add_argument("submissions", nargs="*",
                   help="notebooks, folders and zip files, one learner each; one folder or zip given alone "
                        "may be a class (a folder or zip per learner, or a Canvas or Moodle download; a zip of "
                        "learner folders names them under the zip, e.g. upload.carol): see --class")
    p.add_argument("--class", dest="classes", action="append", default=[], metavar="ZIP",
                   help="a zip (or folder) of a whole class, one folder or zip per learner or a Canvas or Moodle "
                        "download, named as they are in it (without --class, only an argument given alone is "
                        "read as a class and a zip's learners are named under the zip, so no learner's "
                        "upload can make or rename a classmate's row); repeat for several")
    p.add_argument("--out", required=True, help="folder for gradebook.csv, report.json, feedback/")
    p.add_argument("--jobs", type=int, default=1, help="learners graded in parallel (default 1)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="grade on a running Dask cluster, e.g. tcp://10.0.0.5:8786 (needs "
                        "pip install -e \".[cluster]\" here and on every worker; README: a class too big "
                        "for one machine)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="grade on a Dask cluster of N worker processes started on this machine")
    p.add_argument("--force", action="store_true", help="regrade learners already graded in --out")
    p.add_argument("--points", help="JSON file: {exercise name: points}; default 1 each")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per exercise (default 60)")
    p.add_argument("--submission-timeout", type=float, default=600.0,
                   help="seconds per learner, all exercises together (default 600)")
    p.add_argument("--memory-mb", type=int, default=3072, help="address-space cap per exercise (MiB)")
    p.add_argument("--isolation", choices=("namespaces", "python"), default="namespaces",
                   help="namespaces (default): each learner's code behind the operating system's walls "
                        "(bubblewrap namespaces, an unprivileged user, a seccomp filter, limits per "
                        "learner); grading refuses to start where they cannot be built. python: an "
                        "audit hook only, NOT a security boundary: for code you trust")
    p.add_argument("--lessons", help="the assignment, e.g. 01_embeddings,02_attention: every learner's "
                                     "max_total is these lessons' points (default: the lessons more than half of the learners "
                                     "handed in)")
    p.add_argument("--scoring", choices=("per-case", "all-or-nothing"), default=None,
                   help="per-case: partial credit per test (default); all-or-nothing: an exercise "
                        "scores its points only when every test passes")
    p.add_argument("--assignment", metavar="FILE",
                   help="assignment.toml: its lessons, points, scoring, due date and late rule, and the LMS's "
                        "assignment id, so every run grades it alike (docs/examples/assignment.toml; --lessons, "
                        "--points and --scoring override it)")
    p.add_argument("--roster", metavar="CSV",
                   help="the class list: Canvas's gradebook export, Moodle's grading worksheet, or a CSV with an "
                        "id column; everyone on it gets a row (\"no submission\" if they handed in nothing), and "
                        "submissions of no one on it are marked")
    p.add_argument("--secret", metavar="FILE",
                   help="the file of the course's secret the hidden cases are drawn from (made, 0600, if "
                        "missing; default OUT/.state/.secret): pass the same file to every run of one "
                        "course, so regrades draw the same cases; keep it private and out of the release")
    p.add_argument("--public-seeds", action="store_true",
                   help="draw the hidden cases from the public repository's seeds, as the full course's "
                        "check() does, to compare the two; anyone can compute those cases: never for "
                        "grading a class")
    p.set_defaults(func=cmd_grade)
    p = sub.add_parser("export", help="a graded folder's grades as Canvas or Moodle imports them, or a plain CSV")
    p.add_argument("format", choices=("canvas", "moodle", "csv"),
                   help="canvas: Canvas's gradebook import CSV; moodle: Moodle's grading worksheet and feedback zip; "
                        "csv: one plain row per learner")
    p.add_argument("graded", help="the --out folder of `grader grade`")
    p.add_argument("--out", required=True, help="folder for the exported files")
    p.add_argument("--assignment", metavar="FILE",
                   help="assignment.toml whose [lms] id, name and points to use instead of the one the grading used")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("gradescope", help="build a Gradescope autograder zip that grades one submission as grade does")
    p.add_argument("--out", required=True, help="folder for autograder.zip (and autograder.secret, kept between builds)")
    p.add_argument("--lessons", help="the assignment's lessons, e.g. 01_embeddings,02_attention")
    p.add_argument("--assignment", metavar="FILE", help="assignment.toml: its lessons, points and scoring, each "
                                                        "overridden by its flag (its due date and late rule are "
                                                        "Gradescope's to apply)")
    p.add_argument("--points", help="JSON file: {exercise name: points}; over the assignment file's")
    p.add_argument("--scoring", choices=("per-case", "all-or-nothing"), default=None,
                   help="per-case: partial credit per test (default); all-or-nothing")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per exercise (default 60)")
    p.add_argument("--submission-timeout", type=float, default=420.0,
                   help="seconds per submission, all exercises together (default 420: with the start, within "
                        "Gradescope's default 10-minute autograder timeout)")
    p.add_argument("--memory-mb", type=int, default=3072, help="address-space cap per exercise (MiB)")
    p.add_argument("--secret", metavar="FILE", help="the secret the hidden tests are drawn from (default "
                                                    "OUT/autograder.secret, made if missing)")
    p.add_argument("--visibility", choices=("visible", "after_due_date", "after_published", "hidden"),
                   default="visible", help="when learners see each exercise's result on Gradescope (default visible)")
    p.set_defaults(func=cmd_gradescope)
    p = sub.add_parser("release", help="build the student bundle: lessons, exercises, public checks")
    p.add_argument("--out", required=True, help="folder to create")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.set_defaults(func=cmd_release)
    p = sub.add_parser("exercises", help="list the exercises: difficulty, importance and minutes")
    p.add_argument("lessons", nargs="*", metavar="LESSON",
                   help="only these lessons, by number or name (01, 09_tokenizer); default all")
    p.add_argument("--markdown", action="store_true",
                   help="print the README's lesson table instead (every lesson, in Markdown)")
    p.set_defaults(func=cmd_exercises)
    p = sub.add_parser("timeout", help="a --timeout for grade, from the reference's own time on this machine")
    p.add_argument("--lessons", help="the assignment's lessons, e.g. 01_embeddings,02_attention (default all)")
    p.add_argument("--factor", type=float, default=10.0,
                   help="how many times the slowest exercise's reference time to allow (default 10)")
    p.set_defaults(func=cmd_timeout)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

"""python -m grader {stubs,grade}: the instructor's and maintainer's commands."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cmd_stubs(args) -> int:
    from . import stubs

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


def cmd_grade(args) -> int:
    from .grade import grade_paths
    from .sandbox import Limits

    paths = [Path(p) for p in args.submissions]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        print(f"error: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    limits = Limits(wall_s=args.timeout)
    subs = grade_paths(paths, Path(args.out), limits)
    for s in subs:
        max_total = sum(v.max_points for v in s.verdicts)
        state = s.problem or f"{s.total:g} / {max_total:g}"
        print(f"{s.name}: {state}")
    print(f"wrote {args.out}/gradebook.csv, report.json and feedback/")
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
    p.add_argument("submissions", nargs="+", help="notebooks to grade")
    p.add_argument("--out", required=True, help="folder for gradebook.csv, report.json, feedback/")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per exercise (default 60)")
    p.set_defaults(func=cmd_grade)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

"""Inside Gradescope: grade /autograder/submission as the instructor's batch grader would, and
write /autograder/results/results.json. run_autograder runs ``python -m grader.gradescope.run``
as root in /autograder/source/course; ``--root`` (or GPT2_AUTOGRADER_ROOT) names another root
for tests.

1. ``lock_down``: the autograder's own files (the course's code, the settings, the secret) and
   Gradescope's metadata of the submitter readable by root alone, the results folder
   writable by root alone.
2. ``choose_walls``: namespaces where the kernel builds them; else ``--isolation uid`` once its
   probe has found, as the learners' uid, none of the files above readable nor the results
   folder writable (isolation.uid_problem); else nothing is graded and results.json says
   why (score 0) and what to change. Never ``--isolation python``, whose learner code could
   read the reference and the secret and write results.json itself.
3. ``grade``: the submission folder as one learner, whatever it holds (collect.LearnerArgument),
   under the assignment's settings and the autograder's secret (the same for every submission,
   so every learner meets the same hidden tests), in a folder of root's own.
4. results.json (results.py), written where no learner's code could write, as the last step;
   an error of the grader's own becomes a results.json saying so, never a missing file.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

from ..batch.grade import grade_batch
from ..batch.inputs.collect import LearnerArgument
from ..batch.pipeline import BatchStopped
from ..batch.records import Exercises
from ..batch.sandbox.isolation import namespaces_problem, privileged, uid_problem
from ..batch.sandbox.limits import Limits
from .results import not_graded, results

ROOT_VARIABLE = "GPT2_AUTOGRADER_ROOT"
HOW_TO_FIX = ("To grade safely the autograder needs namespaces (bubblewrap; Gradescope's container must allow "
              "them) or, failing that, root and a kernel that accepts a seccomp filter, with the autograder's "
              "own files unreadable to other users: docs/grading.md, section Gradescope.")


class Layout:
    """Gradescope's folders under ``root`` (/autograder)."""

    def __init__(self, root: Path):
        self.root = root
        self.source, self.submission, self.results = root / "source", root / "submission", root / "results"
        self.metadata = root / "submission_metadata.json"
        self.settings, self.secret, self.course = self.source / "settings.json", self.source / "secret", \
            self.source / "course"


def lock_down(at: Layout) -> None:
    """Root's files out of every other user's reach (learner code runs as one under uid walls)."""
    for path, mode in ((at.source, 0o700), (at.metadata, 0o600)):
        if os.path.lexists(path) and not os.path.islink(path):
            os.chmod(path, mode)
    os.makedirs(at.results, mode=0o755, exist_ok=True)
    if os.path.islink(at.results) or not at.results.is_dir():
        raise OSError(f"{at.results} is not a folder")
    if privileged():
        os.chown(at.results, 0, 0)
    os.chmod(at.results, 0o755)


def choose_walls(at: Layout, choice: str = "auto") -> tuple[str | None, list[str]]:
    """(the isolation to grade under, or None; what each refused wall said)."""
    refused = []
    if choice in ("auto", "namespaces"):
        problem = namespaces_problem()
        if problem is None:
            return "namespaces", refused
        refused.append(f"namespaces: {problem}")
    if choice in ("auto", "uid"):
        problem = uid_walls_problem(at)
        if problem is None:
            return "uid", refused
        refused.append(f"a user id of its own (--isolation uid): {problem}")
    return None, refused


def uid_walls_problem(at: Layout) -> str | None:
    """What keeps --isolation uid from standing here, with the autograder's files in its reach."""
    return uid_problem(unreadable=[at.source, at.secret, at.metadata], unwritable=[at.results, at.source])


def grade(at: Layout, mode: str, settings: dict, started: float) -> dict:
    """results.json of the submission graded under ``mode``."""
    points, lessons, scoring = settings.get("points") or None, settings["lessons"], settings["scoring"]
    limits = Limits(wall_s=settings["timeout"], submission_s=settings["submission_timeout"],
                    memory_bytes=settings["memory_mb"] * 2**20)
    out = Path(tempfile.mkdtemp(prefix="gpt2-gradescope-"))  # 0700: root's alone
    try:
        (sub,) = grade_batch([LearnerArgument(at.submission)], out, limits, isolation=mode, points=points,
                             lessons=lessons, scoring=scoring, secret=at.secret)
        walls = json.loads((out / "report.json").read_text(encoding="utf-8")).get("sandbox", {})
    finally:
        shutil.rmtree(out, ignore_errors=True)
    for v in sub.verdicts:
        print(f"  {v.exercise}: {v.points:g} / {v.max_points:g} ({v.status})")
    return results(sub, Exercises(points, lessons, scoring), settings.get("visibility", "visible"),
                   extra={"isolation": mode, "walls": walls}, execution_time=time.monotonic() - started)


def refused(why: list[str]) -> dict:
    return not_graded("This submission was not graded: the autograder could not build the walls that keep "
                      "submitted code away from the hidden tests. Nothing is wrong with your work; your "
                      "instructor sees this message too and can regrade it.\n\nFor the instructor: "
                      + "; ".join(why) + ".\n" + HOW_TO_FIX + "\n", extra={"isolation": None, "refused": why})


def run(at: Layout, choice: str, started: float) -> dict:
    lock_down(at)
    if not at.secret.is_file():
        return not_graded("This submission was not graded: the autograder has no secret to draw its hidden "
                          "tests from (rebuild it with python -m grader gradescope).\n")
    settings = json.loads(at.settings.read_text(encoding="utf-8"))
    mode, why = choose_walls(at, choice)
    if mode is None:
        print("not graded: no walls could be built here:\n  " + "\n  ".join(why))
        return refused(why)
    print(f"walls: {mode}" + (f" (refused: {'; '.join(why)})" if why else ""))
    return grade(at, mode, settings, started)


def write_results(at: Layout, found: dict) -> None:
    """results.json, whole or not at all: a new file in the results folder, renamed into place."""
    fd, tmp = tempfile.mkstemp(dir=at.results, prefix=".results-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(found, f, indent=1)
        f.write("\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, at.results / "results.json")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.gradescope.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.environ.get(ROOT_VARIABLE, "/autograder"),
                        help="Gradescope's folder (default /autograder, or $GPT2_AUTOGRADER_ROOT)")
    parser.add_argument("--isolation", choices=("auto", "namespaces", "uid"), default="auto",
                        help="auto (default): namespaces, else a uid of its own, else no grading")
    parser.add_argument("--timed-out", type=float, metavar="SECONDS",
                        help="write the results.json of a run stopped after SECONDS (run_autograder does)")
    parser.add_argument("--check", action="store_true", help="say which walls stand here; grade nothing")
    args = parser.parse_args(argv)
    at, started = Layout(Path(args.root)), time.monotonic()
    signal.signal(signal.SIGTERM, _stop)  # run_autograder's time limit: stop as Ctrl-C stops a batch
    if args.check:  # setup.sh: which walls this image gives, its files locked down as a run does
        lock_down(at)
        print(f"walls: namespaces: {namespaces_problem() or 'yes'}; --isolation uid: {uid_walls_problem(at) or 'yes'}")
        return 0
    try:
        if args.timed_out is not None:
            found = not_graded(f"Grading did not finish within {args.timed_out:g} s, the autograder's time limit, "
                               "so nothing was graded. Your instructor sees this message too.\n")
        else:
            found = run(at, args.isolation, started)
    except (KeyboardInterrupt, BatchStopped):  # the running exercises killed; run_autograder says how long
        print("stopped: run_autograder's time limit was reached")
        found = not_graded("Grading did not finish within the autograder's time limit, so nothing was graded.\n")
    except Exception:  # noqa: BLE001  (the grader's own fault: said, never a missing results.json)
        traceback.print_exc(file=sys.stdout)
        found = not_graded("This submission was not graded: the autograder failed (an error of the grader's, "
                           "not of your code). Your instructor sees the details and can regrade it.\n")
    write_results(at, found)
    print(f"results.json: {found['score']:g} points")
    return 0


def _stop(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())

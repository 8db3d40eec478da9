"""python -m grader gradescope --out DIR: the autograder zip Gradescope takes, DIR/autograder.zip.

What it holds, unpacked by Gradescope into /autograder/source:

    setup.sh, run_autograder      templates/, filled in: where Python goes, the time limit
    requirements/grading.lock     the student edition's lock but torch (lock.py)
    requirements/torch.lock       torch's CPU build, only where grading a lesson loads it
    settings.json                 the assignment: lessons, points, scoring, limits, visibility
    secret                        the instructor's secret the hidden tests are drawn from
    course/grader/, course/gpt2course/   the grader and the course's code (references included)

The secret is DIR/autograder.secret (made once, 0600, kept for the next build into DIR) or the
file ``--secret`` names (a batch grade's OUT/.state/.secret: the same hidden tests there and on
Gradescope): every submission of the assignment is graded under it, so every learner meets the
same hidden tests and a rebuild under the same secret changes no score. The zip is the same
bytes for the same course, settings and secret (sorted members, fixed times).
"""
from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import zipfile
from pathlib import Path

from ..batch.assignment import load
from ..batch.records import Exercises
from ..batch.state import load_secret
from . import lock

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = Path(__file__).resolve().parent / "templates"
PREFIX = "/opt/gpt2-autograder"   # where setup.sh installs Python: outside /autograder, readable by all
PACKAGES = ("grader", "gpt2course")
UV_FALLBACK = "0.13.8"            # the Makefile's UV_VERSION, where the Makefile is not at hand
MARGIN_S = 120                    # run_autograder's limit over the grader's own per submission
DATE = (1980, 1, 1, 0, 0, 0)      # every member's time in the zip: the same build, the same bytes


def settings_for(lessons: list[str], points: dict | None, scoring: str, timeout: float, submission_timeout: float,
                 memory_mb: int, visibility: str) -> dict:
    return {"lessons": lessons, "points": points or {}, "scoring": scoring, "timeout": timeout,
            "submission_timeout": submission_timeout, "memory_mb": memory_mb, "visibility": visibility}


def build(out: Path, settings: dict, secret: Path | None = None) -> tuple[Path, dict]:
    """Write out/autograder.zip; (its path, what the console says: the secret, torch, the limit)."""
    out.mkdir(parents=True, exist_ok=True)
    secret_file = Path(secret) if secret is not None else out / "autograder.secret"
    key = load_secret(secret_file, out, ROOT)   # made when missing, refused where learners' code could read it
    requirements, torch = lock.requirements(settings["lessons"])
    limit = round(settings["submission_timeout"] + MARGIN_S)
    members = {
        "setup.sh": (fill("setup.sh", PREFIX=PREFIX, UV_VERSION=uv_version(), TORCH_CPU_INDEX=lock.TORCH_CPU_INDEX),
                     0o755),
        "run_autograder": (fill("run_autograder", PREFIX=PREFIX, LIMIT=str(limit)), 0o755),
        "requirements/grading.lock": (requirements.encode(), 0o644),
        **({"requirements/torch.lock": (torch.encode(), 0o644)} if torch else {}),
        "settings.json": ((json.dumps(settings, indent=1, sort_keys=True) + "\n").encode(), 0o644),
        "secret": ((key.hex() + "\n").encode(), 0o600),
    }
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            rel = path.relative_to(ROOT)
            if path.is_file() and not _skipped(rel):
                members[f"course/{rel.as_posix()}"] = (path.read_bytes(), 0o644)
    target = out / "autograder.zip"
    fd, tmp = tempfile.mkstemp(dir=out, prefix=".autograder-", suffix=".zip")
    try:
        with os.fdopen(fd, "wb") as f, zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as zf:
            for name in sorted(members):
                data, mode = members[name]
                info = zipfile.ZipInfo(name, DATE)
                info.external_attr, info.compress_type = (0o100000 | mode) << 16, zipfile.ZIP_DEFLATED
                zf.writestr(info, data)
        os.chmod(tmp, 0o600)  # it holds the secret
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target, {"secret": str(secret_file), "torch": bool(torch), "limit": limit, "members": len(members)}


def _skipped(rel: Path) -> bool:
    return any(part == "__pycache__" or part.startswith(".") for part in rel.parts) or rel.suffix == ".pyc"


def fill(template: str, **values: str) -> bytes:
    text = (TEMPLATES / template).read_text()
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    left = re.findall(r"@[A-Z_]+@", text)
    if left:
        raise ValueError(f"templates/{template}: no value for {', '.join(left)}")
    return text.encode()


def uv_version() -> str:
    makefile = ROOT / "Makefile"
    found = re.search(r"^UV_VERSION\s*\?=\s*(\S+)", makefile.read_text(), re.M) if makefile.exists() else None
    return found.group(1) if found else UV_FALLBACK


def main(args) -> int:
    """The CLI's `gradescope` (grader/__main__.py): the settings from the flags and the assignment
    file, each flag over the file's key as in `grade`; exit 2 with the reason when they cannot be used."""
    try:
        if not args.lessons and not args.assignment:
            raise ValueError("say which lessons the assignment covers: --lessons 01_embeddings,... or --assignment FILE")
        points = json.loads(Path(args.points).read_text()) if args.points else {}
        lessons, scoring = [x.strip() for x in (args.lessons or "").split(",") if x.strip()], args.scoring
        if args.assignment:  # its lessons, points and scoring, each flag over it (as in grade)
            a = load(Path(args.assignment))
            lessons, points, scoring = lessons or a.lessons, a.points | points, scoring or a.scoring
            if a.due is not None:
                print("note: the assignment's due date and late rule are not applied on Gradescope: "
                      "set the assignment's late policy there", file=sys.stderr)
        scoring = scoring or "per-case"
        total = Exercises(points, lessons, scoring).max_total()  # names checked before anything is built
        if args.timeout < 0.1 or args.submission_timeout < args.timeout or args.memory_mb < 256:
            raise ValueError("--timeout must be at least 0.1 s and at most --submission-timeout; --memory-mb at least 256")
        settings = settings_for(sorted(set(lessons)), points, scoring, args.timeout, args.submission_timeout,
                                args.memory_mb, args.visibility)
        target, said = build(Path(args.out), settings, Path(args.secret) if args.secret else None)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"Gradescope autograder written to {target} (lessons {', '.join(settings['lessons'])}; "
          f"torch {'installed' if said['torch'] else 'not needed'})")
    print(f"  hidden tests drawn from {said['secret']}: keep it, and rebuild with --secret {said['secret']} "
          "to keep them")
    print(f"  run_autograder stops after {said['limit']} s: set the assignment's autograder timeout above it")
    print(f"  a submission scores out of {total:g} points: give the Gradescope assignment as many")
    return 0

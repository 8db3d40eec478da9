"""What the autograder installs: the student edition's packages (requirements/base.lock: the
lessons' environment, without test or cluster extras), pinned and hashed as the lock pins them,
without torch where no graded lesson needs it.

A learner's code runs in children of the grader's own installation, so the packages a learner
may import (the course's: NumPy, Matplotlib, ...) are those of the lock, as on the learner's
machine; only torch (and what nothing but torch needs: ``without``) is left out when grading
the assignment never loads it, as it is most of the image. Whether it does is measured, not
listed: ``imported`` grades nothing, but in a fresh interpreter (``python -m
grader.gradescope.lock LESSONS``) it imports the grader's batch side, draws every hidden case
of the lessons with the reference's and each mistake's answers and the pieces a composite
exercise uses, and imports what the lessons' solved notebooks import; then it names the
distributions those modules came from (lesson 08's reference loads torch; lesson 01's never
does). The lock's own ``# via`` lines are its dependency graph.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "base.lock"
SOLUTIONS = ROOT / "solutions"
COURSE = "gpt2-exactly"     # the course itself: copied into the autograder, never installed
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"   # where torch's +cpu build is (Makefile's)
IMPORT = re.compile(r"^\s*(?:import|from)\s+(\w+)", re.M)


class LockError(ValueError):
    """Grading needs a package the lock does not pin (the CLI exits 2: run `make lock`)."""


@dataclass
class Entry:
    name: str                                      # normalized, as the lock spells it
    pin: list[str]                                 # "name==version \" and its "--hash=..." lines
    parents: set[str] = field(default_factory=set)  # the lock's "# via": who needs it (COURSE: the course itself)


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_lock(text: str) -> dict[str, Entry]:
    """The lock's entries by name; ``parents`` from its ``# via`` lines (uv's two layouts: one
    name on the line, or one per line below it), constraints (``-c``, ``-r``) left out."""
    entries: dict[str, Entry] = {}
    current, in_via = None, False
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.startswith(("#", "-")):  # not an option line
            current = Entry(normalized(line.split("==", 1)[0].strip()), [line.rstrip()])
            entries[current.name] = current
            in_via = False
        elif current is None:
            continue
        elif line.strip().startswith("--hash="):
            current.pin.append(line.rstrip())
        elif line.strip().startswith("# via"):
            rest, in_via = line.strip()[len("# via"):].strip(), True
            current.parents |= _parent(rest)
        elif in_via and line.strip().startswith("#"):
            current.parents |= _parent(line.strip()[1:].strip())
        else:
            in_via = False
    return entries


def _parent(text: str) -> set[str]:
    if not text or text.startswith("-"):
        return set()
    return {normalized(text.split()[0])}


def closure(entries: dict[str, Entry], roots: set[str]) -> set[str]:
    """``roots`` and everything they need, by the lock's own edges."""
    children: dict[str, set[str]] = {}
    for e in entries.values():
        for p in e.parents:
            children.setdefault(p, set()).add(e.name)
    missing = sorted(r for r in roots if r not in entries)
    if missing:
        raise LockError(f"grading imports {', '.join(missing)}, which {LOCK.name} does not pin: run `make lock`")
    found, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += sorted(children.get(name, ()))
    return found


def without(entries: dict[str, Entry], left_out: str) -> set[str]:
    """Every entry of the lock but ``left_out`` and what only it brings: what the course's own
    dependencies reach without passing through it."""
    children: dict[str, set[str]] = {}
    for e in entries.values():
        for p in e.parents:
            children.setdefault(p, set()).add(e.name)
    found, todo = set(), sorted(children.get(COURSE, ()))
    while todo:
        name = todo.pop()
        if name not in found and name != left_out:
            found.add(name)
            todo += sorted(children.get(name, ()))
    return found


def requirements(lessons: list[str], lock: Path = LOCK) -> tuple[str, str]:
    """(the requirements file of everything but torch, torch's: empty where no graded lesson
    loads it), each installed with --require-hashes. Two files, as the Makefile installs them:
    torch's CPU build is on PyTorch's index, and an installer that takes a package from the first
    index listing it (uv) must look there for torch alone."""
    entries = read_lock(lock.read_text())
    needed = closure(entries, set(imported(lessons)["distributions"]))
    names = set(entries) if "torch" in needed else without(entries, "torch")
    head = f"# {lock.parent.name}/{lock.name} for grading lessons {', '.join(lessons)} (python -m grader gradescope)"
    rest = [line for name in sorted(names - {"torch"}) for line in entries[name].pin]
    torch = entries["torch"].pin if "torch" in names else []
    return "\n".join([head, *rest]) + "\n", "\n".join([head, *torch]) + "\n" if torch else ""


def imported(lessons: list[str]) -> dict:
    """{"distributions": [...]}: what grading ``lessons`` imports, in a fresh interpreter."""
    proc = subprocess.run([sys.executable, "-m", "grader.gradescope.lock", ",".join(lessons)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise LockError(f"could not list what grading {', '.join(lessons)} imports: {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _import_all(lessons: list[str]) -> dict:
    import importlib
    import importlib.metadata

    from ..batch.records import Exercises
    from . import run  # noqa: F401  (the runner, the batch grader and the notebook reader)

    exercises = Exercises(lessons=lessons, secret=b"\0" * 32)
    for lesson in lessons:
        for exercise in exercises.by_lesson[lesson]:
            exercises.answers(exercise)
            exercises.pieces(exercise)
        solved = SOLUTIONS / f"{lesson}_exercises.ipynb"
        cells = json.loads(solved.read_text())["cells"] if solved.exists() else []
        for cell in cells:
            for name in IMPORT.findall("".join(cell.get("source", ""))) if cell.get("cell_type") == "code" else ():
                if name not in ("grader", "gpt2course"):
                    importlib.import_module(name)
    importlib.import_module("numpy.random")  # the grading processes' own preload (sandbox/processes.py)
    owners = importlib.metadata.packages_distributions()
    dists = {normalized(d) for m in list(sys.modules) for d in owners.get(m.split(".")[0], ())}
    return {"distributions": sorted(dists - {COURSE})}


if __name__ == "__main__":
    print(json.dumps(_import_all([x for x in sys.argv[1].split(",") if x])))

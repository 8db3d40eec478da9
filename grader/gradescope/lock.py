"""What the autograder installs: the packages grading imports, pinned and hashed as the course's
lock pins them (requirements/base.lock, the student edition's: no test or cluster extras).

``imported`` grades nothing: in a fresh interpreter (``python -m grader.gradescope.lock LESSONS``)
it imports the grader's batch side, draws every hidden case of the lessons with the reference's
and each mistake's answers and the pieces a composite exercise uses, and imports what the
lessons' solved notebooks import (learner code runs in children of the same installation);
then it names the distributions those modules came from. So torch is installed only when a
graded lesson needs it (lesson 08's reference does; a lesson 01 autograder never loads it).
``closure`` adds what those distributions need, read from the lock's own ``# via`` lines, so
the file written is closed under dependencies, exactly as the lock resolved them.
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
    parents: set[str] = field(default_factory=set)  # the lock's "# via": who needs it


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_lock(text: str) -> dict[str, Entry]:
    """The lock's entries by name; ``parents`` from its ``# via`` lines (uv's two layouts: one
    name on the line, or one per line below it), constraints (``-c``, ``-r``) and the course
    itself left out."""
    entries: dict[str, Entry] = {}
    current, in_via = None, False
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
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
    name = normalized(text.split()[0])
    return set() if name == COURSE else {name}


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


def requirements(lessons: list[str], lock: Path = LOCK) -> tuple[str, bool]:
    """(the requirements file the autograder installs with --require-hashes, whether torch is in it)."""
    entries = read_lock(lock.read_text())
    names = closure(entries, set(imported(lessons)["distributions"]))
    torch = "torch" in names
    head = [f"# What grading lessons {', '.join(lessons)} imports, pinned as {lock.parent.name}/{lock.name} "
            "pins it (python -m grader gradescope).",
            *([f"--extra-index-url {TORCH_CPU_INDEX}"] if torch else [])]
    body = [line for name in sorted(names) for line in entries[name].pin]
    return "\n".join(head + body) + "\n", torch


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

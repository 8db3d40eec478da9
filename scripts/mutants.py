"""Mutation testing: plant each bug of a list, run the tests meant to catch it, put the code back.

    .venv/bin/python scripts/mutants.py                  # every mutant of scripts/mutants.toml
    .venv/bin/python scripts/mutants.py -k "top-k"       # those whose name contains "top-k"
    .venv/bin/python scripts/mutants.py --file gpt2course/   # those planted in gpt2course/
    .venv/bin/python scripts/mutants.py --list           # what would run (and which are stale)
    make mutants                                         # the same as the first line

A mutant is a textual edit (see scripts/mutants.toml): in `file`, the exact text `find`
(which must occur exactly once) becomes `replace`; then `pytest <tests> -x` runs. The mutant
is *killed* when pytest fails, *survives* when it passes. The tool prints each verdict, then
the kill rate and the survivors. It is a tool for the maintainers, not part of `make test`.

Safety: it refuses to start while any file it would edit has uncommitted changes (so
`git checkout` can always undo it), keeps each original's bytes in a journal under the git
directory before writing the mutant, and restores the original in a `finally` (also on
Ctrl-C and SIGTERM), checking the bytes afterwards. If the process was killed outright
(SIGKILL), the next run puts the journalled originals back before anything else.
Compiled bytecode of a mutated file is removed with it, so no mutant outlives its run.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_LIST = ROOT / "scripts" / "mutants.toml"
TIMEOUT_S = 900  # a mutant that hangs its tests this long counts as killed (said so in the report)


@dataclass
class Mutant:
    name: str
    file: str
    find: str
    replace: str
    tests: list[str]
    select: str | None = None
    origin: str = "new"
    verdict: str = ""          # killed | survived | stale | timeout
    seconds: float = 0.0
    detail: str = ""


def load(path: Path) -> list[Mutant]:
    data = tomllib.loads(path.read_text())
    mutants = []
    for i, raw in enumerate(data.get("mutant", [])):
        missing = [k for k in ("name", "file", "find", "replace", "tests") if k not in raw]
        if missing:
            raise SystemExit(f"{path}: mutant {i + 1} ({raw.get('name', '?')}) lacks {missing}")
        mutants.append(Mutant(raw["name"], raw["file"], raw["find"], raw["replace"], list(raw["tests"]),
                              raw.get("select"), raw.get("from", "new")))
    return mutants


# ------------------------------------------------------------------ safety
def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def journal_dir() -> Path:
    return ROOT / git("rev-parse", "--git-path", "mutants-journal").strip()


def restore_from_journal() -> list[str]:
    """Originals left by a run that was killed before its finally: put them back."""
    folder, restored = journal_dir(), []
    if not folder.is_dir():
        return restored
    for saved in sorted(folder.glob("*.orig")):
        target = ROOT / saved.with_suffix("").name.replace("%", "/")
        target.write_bytes(saved.read_bytes())
        forget_bytecode(target)
        saved.unlink()
        restored.append(str(target.relative_to(ROOT)))
    return restored


def refuse_dirty(files: set[str]) -> None:
    dirty = [line[3:] for line in git("status", "--porcelain", "--", *sorted(files)).splitlines()]
    if dirty:
        raise SystemExit("refusing to start: these files have uncommitted changes, and a mutant must "
                         f"always be undoable with git checkout: {', '.join(dirty)}. Commit or stash them.")


def forget_bytecode(path: Path) -> None:
    """A mutant's .pyc may share the original's size and mtime second: never let it be reused."""
    for pyc in (path.parent / "__pycache__").glob(path.stem + ".*.pyc"):
        pyc.unlink(missing_ok=True)


class Planted:
    """The mutant in place for the duration of a with-block; the original back afterwards."""

    def __init__(self, mutant: Mutant):
        self.path = ROOT / mutant.file
        self.original = self.path.read_bytes()
        text = self.original.decode()
        self.mutated = text.replace(mutant.find, mutant.replace, 1).encode()
        self.saved = journal_dir() / (mutant.file.replace("/", "%") + ".orig")

    def __enter__(self):
        self.saved.parent.mkdir(parents=True, exist_ok=True)
        self.saved.write_bytes(self.original)
        forget_bytecode(self.path)
        self.path.write_bytes(self.mutated)
        return self

    def __exit__(self, *exc):
        self.path.write_bytes(self.original)
        forget_bytecode(self.path)
        if hashlib.sha256(self.path.read_bytes()).digest() != hashlib.sha256(self.original).digest():
            raise RuntimeError(f"{self.path} could not be restored: its original is in {self.saved}")
        self.saved.unlink(missing_ok=True)
        return False


def _terminate(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")  # unwinds through Planted.__exit__


# ------------------------------------------------------------------ running
def stale(m: Mutant) -> str:
    path = ROOT / m.file
    if not path.is_file():
        return f"{m.file} does not exist"
    count = path.read_text().count(m.find)
    return "" if count == 1 else f"the text to find occurs {count} times in {m.file} (must be once)"


def pytest_command(m: Mutant) -> list[str]:
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
           "--no-header", "-o", "addopts=", *m.tests]
    return cmd + (["-k", m.select] if m.select else [])


def run_tests(m: Mutant) -> tuple[int | None, str, float]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    start = time.perf_counter()
    try:
        proc = subprocess.run(pytest_command(m), cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"no verdict after {TIMEOUT_S} s", time.perf_counter() - start
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    failed = next((ln for ln in lines if ln.startswith(("FAILED", "ERROR"))), lines[-1] if lines else "")
    return proc.returncode, failed, time.perf_counter() - start


def judge(m: Mutant) -> None:
    with Planted(m):
        code, detail, m.seconds = run_tests(m)
    if code is None:
        m.verdict, m.detail = "timeout", detail
    elif code == 0:
        m.verdict, m.detail = "survived", detail
    elif code in (1, 2, 3):  # tests failed, interrupted (an import error counts), internal error
        m.verdict, m.detail = "killed", detail
    else:
        raise SystemExit(f"{m.name}: pytest exited {code} ({detail}): fix the mutant's `tests`")


def baseline(mutants: list[Mutant]) -> None:
    """Each set of tests must pass on the code as it is, or every mutant would look killed."""
    for tests in sorted({(tuple(m.tests), m.select) for m in mutants}):
        probe = Mutant("baseline", "", "", "", list(tests[0]), tests[1])
        code, detail, seconds = run_tests(probe)
        if code != 0:
            raise SystemExit(f"the tests {' '.join(tests[0])} fail without any mutant ({detail}): fix them first")
        print(f"baseline: {' '.join(tests[0])} pass ({seconds:.0f} s)", flush=True)


def report(mutants: list[Mutant]) -> int:
    ran = [m for m in mutants if m.verdict in ("killed", "survived", "timeout")]
    killed = [m for m in ran if m.verdict != "survived"]
    survivors = [m for m in ran if m.verdict == "survived"]
    print()
    if ran:
        print(f"kill rate: {len(killed)} of {len(ran)} killed ({len(killed) / len(ran):.0%})")
        for origin in sorted({m.origin for m in ran}):
            group = [m for m in ran if m.origin == origin]
            print(f"  {origin}: {sum(m.verdict != 'survived' for m in group)} of {len(group)}")
    for m in survivors:
        print(f"SURVIVED  {m.name}  ({m.file}; tests: {' '.join(m.tests)})")
    for m in mutants:
        if m.verdict == "stale":
            print(f"STALE     {m.name}: {m.detail}")
    return 1 if survivors else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=Path, default=DEFAULT_LIST, help="the list (TOML)")
    parser.add_argument("-k", dest="match", default="", help="only mutants whose name contains this")
    parser.add_argument("--file", dest="in_file", default="", help="only mutants of files whose path contains this")
    parser.add_argument("--list", action="store_true", help="show the mutants and whether they apply")
    parser.add_argument("--no-baseline", action="store_true", help="skip the unmutated run of each test set")
    args = parser.parse_args(argv)
    mutants = [m for m in load(args.mutants) if args.match.lower() in m.name.lower() and args.in_file in m.file]
    for m in mutants:
        if why := stale(m):
            m.verdict, m.detail = "stale", why
    live = [m for m in mutants if m.verdict != "stale"]
    if args.list:
        for m in mutants:
            print(f"{'STALE ' if m.verdict == 'stale' else ''}{m.origin:8} {m.file:32} {m.name}")
        return 0
    restored = restore_from_journal()
    if restored:
        print(f"restored the originals a killed run left planted: {', '.join(restored)}")
    refuse_dirty({m.file for m in live})
    signal.signal(signal.SIGTERM, _terminate)
    if not args.no_baseline:
        baseline(live)
    for i, m in enumerate(live, 1):
        judge(m)
        print(f"[{i}/{len(live)}] {m.verdict.upper():8} {m.name} ({m.seconds:.0f} s)"
              + (f"  <- {m.detail}" if m.verdict != "survived" and m.detail else ""), flush=True)
    refuse_dirty({m.file for m in live})  # proof that every file is as committed
    return report(mutants)


if __name__ == "__main__":
    sys.exit(main())

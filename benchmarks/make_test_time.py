"""Fresh-clone `make test` time (target: under 8 minutes), recorded in docs/benchmarks.md.

Clones this repository's committed HEAD into a temporary folder and times
`make test` there. Long (about 10 minutes), so `make bench` runs it only when
asked: `make bench-make-test`, or BENCH_MAKE_TEST=1 make bench.

Installing the dependencies is not timed. By default (offline) the clone gets a
copy of this checkout's .venv, relocated to the clone (its scripts and the
editable install point at the clone), so `make test` finds its stamp and
installs nothing; with --online the clone starts without a venv and the time
includes `make`'s own `pip install` (needs the network).

Run: .venv/bin/python benchmarks/make_test_time.py [--online] [--keep] [--dry-run]
(--dry-run prepares the clone, checks that its Python imports the clone's code
and prints what `make -n test` would run; nothing is timed or recorded)
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _report

TARGET_S = 480


def clone(dest: Path) -> str:
    """A fresh clone of the committed HEAD (what a new contributor or CI gets); returns its commit."""
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(_report.ROOT), str(dest)], check=True)
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=dest, check=True,
                          capture_output=True, text=True).stdout.strip()


def copy_venv(venv: Path, repo: Path) -> Path:
    """This checkout's venv, moved to repo/.venv: paths to the old checkout rewritten to the clone's."""
    target = repo / ".venv"
    # a real copy, not hard links: a file changed in place in the clone's venv must not change ours
    shutil.copytree(venv, target, symlinks=True)
    old, new = str(_report.ROOT), str(repo)
    for path in _files_naming_the_checkout(target):
        text = path.read_text()
        if old in text:
            fresh = path.with_name(path.name + ".relocating")
            fresh.write_text(text.replace(old, new))
            shutil.copymode(path, fresh)
            fresh.replace(path)
    stamp = target / ".installed"
    stamp.unlink(missing_ok=True)
    stamp.touch()  # newer than the clone's pyproject.toml, so make installs nothing
    return target


def _files_naming_the_checkout(venv: Path):
    """Scripts' #! lines, and the editable install's .pth and finder (where `gpt2course` is found)."""
    for path in (venv / "bin").iterdir():
        if path.is_file() and not path.is_symlink() and path.read_bytes()[:2] == b"#!":
            yield path
    for site in venv.glob("lib/python*/site-packages"):
        yield from site.glob("__editable__*")


def dry_run(repo: Path, online: bool) -> None:
    """The clone as it would be timed: where its Python finds the course, and what make would run."""
    if not online:
        where = subprocess.run([str(repo / ".venv" / "bin" / "python"), "-c",
                                "import gpt2course, grader; print(gpt2course.__file__, grader.__file__)"],
                               cwd="/", capture_output=True, text=True, check=True).stdout.split()
        assert all(path.startswith(str(repo)) for path in where), f"the clone's venv imports {where}"
        print("the clone's venv imports", *where)
    print(subprocess.run(["make", "-n", "test"], cwd=repo, capture_output=True, text=True).stdout)


def run_make_test(repo: Path, log: Path) -> tuple[float, int]:
    start = time.perf_counter()
    with open(log, "wb") as out:
        code = subprocess.run(["make", "test"], cwd=repo, stdout=out, stderr=subprocess.STDOUT).returncode
    return time.perf_counter() - start, code


def pytest_summaries(log: Path) -> list[str]:
    """pytest's closing lines ('== 412 passed, 3 skipped in 301.2s =='), one per pytest run."""
    lines = log.read_text(errors="replace").splitlines()
    return [line.strip("= ") for line in lines if line.startswith("=") and " in " in line
            and any(word in line for word in ("passed", "failed", "error"))]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--online", action="store_true", help="no venv copy: time make's own pip install too")
    parser.add_argument("--keep", action="store_true", help="keep the clone and its log")
    parser.add_argument("--dry-run", action="store_true", help="prepare the clone, show `make -n test`, time nothing")
    args = parser.parse_args(argv)
    info = _report.machine()
    print(_report.machine_line(info))
    tmp = Path(tempfile.mkdtemp(prefix="gpt2-make-test-"))
    try:
        repo = tmp / "repo"
        commit = clone(repo)
        if not args.online:
            copy_venv(Path(sys.prefix), repo)
        if args.dry_run:
            return dry_run(repo, args.online)
        log = tmp / "make-test.log"
        print(f"make test in a fresh clone of {commit} ({repo}); log: {log}")
        seconds, code = run_make_test(repo, log)
        summaries = pytest_summaries(log)
        tail = log.read_text(errors="replace").splitlines()[-15:]
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"make test: {seconds:.0f} s, exit status {code}")
    for line in summaries:
        print("  " + line)
    target = _report.Target("fresh-clone `make test` time", seconds, TARGET_S, unit=" s")
    how = ("with `make`'s own `pip install` (online)" if args.online else
           "dependencies not timed: the clone got a relocated copy of this checkout's `.venv`, so `make` "
           "installed nothing")
    body = (f"`git clone` of commit `{commit}` into a temporary folder, then `make test` there; {how}. "
            f"Exit status {code}" + ("" if code == 0 else " (the time is of a failed run)") + ".\n\n"
            + "\n".join(f"- pytest: {line}" for line in summaries)
            + ("" if code == 0 else "\n\nLast lines of the log:\n\n```\n" + "\n".join(tail) + "\n```"))
    _report.print_targets([target])
    print("wrote", _report.write_section("make_test_time", body, [target], info))


if __name__ == "__main__":
    main()

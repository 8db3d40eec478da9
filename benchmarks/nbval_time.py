"""How long nbval takes on each notebook of notebooks/, solutions/ and exercises/.

Each notebook runs in its own `pytest --nbval --nbval-current-env` process, as
`make test` runs them (there all in one process, so its total is a little
less: one pytest start-up instead of one per notebook). These are absolute
seconds by nature: read them with the machine line. No target per notebook;
they add up to most of `make test` (target: under 10 minutes in all, see the
fresh-clone section).

Run: .venv/bin/python benchmarks/nbval_time.py [FOLDER_OR_NOTEBOOK ...]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import _report

FOLDERS = ("notebooks", "exercises", "solutions")


def notebooks(paths: list[str]) -> list[Path]:
    """The notebooks found now (lessons are added over time), in folder and lesson order."""
    found = []
    for item in paths or FOLDERS:
        path = _report.ROOT / item
        found += sorted(path.glob("*.ipynb")) if path.is_dir() else [path]
    return found


def run_nbval(path: Path) -> tuple[float, str]:
    """Seconds for nbval on one notebook, and pytest's last line (passed / failed counts)."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-p",
                           "no:cacheprovider", "-q", str(path.relative_to(_report.ROOT))],
                          cwd=_report.ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    outcome = lines[-1].strip("= ") if lines else f"exit {proc.returncode}"
    return seconds, outcome


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help=f"default: {' '.join(FOLDERS)}")
    args = parser.parse_args(argv)
    info = _report.machine()
    print(_report.machine_line(info))
    rows = []
    for path in notebooks(args.paths):
        seconds, outcome = run_nbval(path)
        rows.append((path.relative_to(_report.ROOT), seconds, outcome))
        print(f"{str(rows[-1][0]):50s} {seconds:6.1f} s  {outcome}")
    total = sum(seconds for _, seconds, _ in rows)
    print(f"{'total':50s} {total:6.1f} s")
    table = ["| notebook | seconds | pytest says |", "|---|---|---|"]
    table += [f"| `{path}` | {seconds:.1f} | {outcome} |" for path, seconds, outcome in rows]
    table.append(f"| **total** | **{total:.1f}** | |")
    targets = [_report.Target(f"nbval, all {len(rows)} notebooks (one pytest each)", total, unit=" s")]
    body = ("`pytest --nbval --nbval-current-env -p no:cacheprovider NOTEBOOK`, one process per notebook "
            "(so each time includes pytest's and the kernel's start-up); absolute seconds, no target per "
            "notebook.\n\n" + "\n".join(table))
    print("wrote", _report.write_section("nbval_time", body, targets, info))


if __name__ == "__main__":
    main()

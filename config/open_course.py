"""Open the course in JupyterLab:  .venv/bin/python open_course.py  [more `jupyter lab` options]

The student release ships this script at its root (`python -m grader release`
copies it there). Run it with the Python of the course's virtual environment.
It first installs the course's JupyterLab settings into that environment (no
"Jupyter news" question and no update checks: learners are often offline),
then starts JupyterLab on lesson 01 with this folder as its root, adding
--allow-root only when run as root (Jupyter refuses to start as root without
it, and containers often run as root).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SETTINGS = HERE / "config" / "jupyterlab-overrides.json"
FIRST_LESSON = "notebooks/01_embeddings.ipynb"


def settings_path(prefix: str | Path) -> Path:
    """Where JupyterLab in the environment at ``prefix`` reads a package's default settings."""
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.d" / "gpt2-exactly.json"


def install_settings(prefix: str | Path = sys.prefix) -> Path | None:
    """Copy the course's settings there (a file of its own: the learner's overrides.json stays)."""
    target = settings_path(prefix)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SETTINGS, target)
    except OSError as exc:
        print(f"note: could not write {target} ({exc}); JupyterLab may ask whether to fetch "
              "Jupyter news: answer no, or run this script with the course's own Python", file=sys.stderr)
        return None
    return target


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def lab_command(args=(), root: bool | None = None) -> list[str]:
    """The `jupyter lab` command line: --allow-root only for root."""
    root = is_root() if root is None else root
    return [sys.executable, "-m", "jupyterlab", *(["--allow-root"] if root else []),
            f"--ServerApp.root_dir={HERE}", f"--LabApp.default_url=/lab/tree/{FIRST_LESSON}", *args]


def main(argv: list[str] | None = None) -> int:
    install_settings()
    command = lab_command(sys.argv[1:] if argv is None else argv)
    if os.name == "posix":  # JupyterLab takes this process's place: Ctrl-C reaches it alone
        os.execv(command[0], command)
    return subprocess.call(command)


if __name__ == "__main__":
    sys.exit(main())

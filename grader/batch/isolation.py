"""What a learner's grading process may see, and the operating system's walls around it.

Two levels: the Python-level guard inside the child (an audit hook, see
_zygote.py) always; and, with ``--isolation namespaces``, bubblewrap's user,
mount, PID, network, IPC and UTS namespaces around the whole grading process.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
GRADER = HERE.parent   # the whole grader package: hidden from learners
ROOT = GRADER.parent
ISOLATIONS = ("auto", "namespaces", "python")


def python_dirs() -> list[str]:
    """The interpreter's own library folders and site-packages (no .pth files run)."""
    paths = sysconfig.get_paths()
    dirs = [paths["stdlib"], paths["platstdlib"], paths["purelib"], paths["platlib"]]
    dirs += [p for p in sys.path if p.endswith(("lib-dynload", ".zip"))]
    return list(dict.fromkeys(os.path.realpath(d) for d in dirs))


def private_dirs() -> list[str]:
    """The course's own packages and solutions, wherever they are installed: hidden
    even when they sit inside a folder the child may read."""
    import gpt2course

    return [str(GRADER), str(Path(gpt2course.__file__).resolve().parent), str(ROOT / "solutions")]


_probe_lock = threading.Lock()
_probed: dict[str, str | None] = {}


def namespaces_problem() -> str | None:
    """None when bubblewrap can start a process in fresh namespaces here; else why not."""
    with _probe_lock:
        if "bwrap" not in _probed:
            bwrap = shutil.which("bwrap")
            if bwrap is None:
                _probed["bwrap"] = "bubblewrap (bwrap) is not installed (Debian: apt-get install bubblewrap)"
            else:
                proc = subprocess.run([bwrap, "--unshare-all", "--unshare-user", "--die-with-parent",
                                       "--ro-bind", "/", "/", "true"], capture_output=True, text=True)
                _probed["bwrap"] = None if proc.returncode == 0 else \
                    f"the kernel refused new namespaces ({proc.stderr.strip()[:200] or proc.returncode})"
        return _probed["bwrap"]


def resolve_isolation(choice: str) -> tuple[str, str | None]:
    """(mode, warning): 'auto' takes namespaces where they work, else the Python guard."""
    if choice not in ISOLATIONS:
        raise ValueError(f"--isolation must be one of {', '.join(ISOLATIONS)}, got {choice!r}")
    problem = namespaces_problem() if choice != "python" else None
    if choice == "namespaces" and problem:
        raise ValueError(f"--isolation namespaces is not available: {problem}")
    if choice == "auto" and problem:
        return "python", f"warning: grading with the Python-level guard only: {problem}"
    return ("python" if choice == "python" else "namespaces"), None


def bwrap_command(ws, learner_root: Path) -> list[str]:
    """Own user, mount, PID, network, IPC and UTS namespaces; the Python
    installation read-only, the zygote's files and the cases read-only, this
    learner's folder writable, nothing else (not the project, not home, not
    other learners)."""
    cmd = ["bwrap", "--unshare-all", "--unshare-user", "--uid", "1000", "--gid", "1000",
           "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    for d in ("/usr", "/etc/ld.so.cache"):
        if os.path.exists(d):
            cmd += ["--ro-bind", d, d]
    for link in ("/lib", "/lib64", "/bin"):
        if os.path.islink(link):
            cmd += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            cmd += ["--ro-bind", link, link]
    python_roots = sorted({os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix)})
    visible = python_roots + [d for d in python_dirs() if not any(d.startswith(r + os.sep) for r in python_roots)]
    cmd += ["--tmpfs", "/tmp"]  # before the binds below, some of which live under /tmp
    for d in visible:
        if not d.startswith("/usr/") and os.path.exists(d):
            cmd += ["--ro-bind", d, d]
    for d in private_dirs():  # hidden, even inside a folder that is visible
        if os.path.isdir(d) and any(d.startswith(r + os.sep) for r in visible):
            cmd += ["--tmpfs", d]
    cmd += ["--ro-bind", str(ws.zygote_dir), str(ws.zygote_dir),
            "--ro-bind", str(ws.cases_dir), str(ws.cases_dir),
            "--bind", str(learner_root), str(learner_root),
            "--proc", "/proc", "--dev", "/dev", "--chdir", str(learner_root), "--"]
    return cmd

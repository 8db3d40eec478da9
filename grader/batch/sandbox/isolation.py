"""Where learner code runs: inside the operating system's walls, or (only when asked) not.

``--isolation namespaces`` (the default) starts each grading process under bubblewrap in
its own mount, PID, network, IPC and UTS namespaces, seeing the Python installation and
the grader's few files read-only and nothing else; each exercise's child then raises its
own walls (inside/walls.py): a private tmpfs, no capabilities, an unprivileged user id, a
seccomp filter. Where they cannot be built the grader refuses to start (exit 2) and says
what to install. ``--isolation python`` keeps only the audit hook: no security boundary,
for grading one's own code.

Two ways to build the walls, by who runs the grader:
- as root: bubblewrap without a user namespace (it can then bind the interpreter from
  folders only root may enter); the grading process keeps CAP_SYS_ADMIN, SETUID, SETGID
  and SETPCAP for its children, which each drop to a user id of their own (one per
  parallel slot, mapped to nothing privileged) before learner code runs;
- as anyone else: bubblewrap in a user namespace (your own uid and gid inside, mapped to
  themselves: another uid inside would take bwrap a second, nested user namespace, in
  which a child could no longer mount a /proc of its own PID namespace), the children
  dropping every capability for good.

``uid`` is what is left where the kernel refuses namespaces but the grader is root (a
Gradescope container): no bubblewrap; each child drops to an unprivileged uid of its slot,
with the same seccomp filter and limits, in a folder of its own. It sees the machine's files
as any other user does, so the walls are the files' permissions: ``uid_problem`` checks, as
that uid, that the course's code (and whatever the caller names: a secret, a results folder)
cannot be read or written before anything is graded. What one learner's code leaves in /tmp
could meet the next learner's on the same uid, so it grades one learner per run
(grade.grade_batch); never chosen unless asked for (``--isolation uid`` is not offered by
``grader grade``: grader/gradescope/run.py asks for it).
"""
from __future__ import annotations

import functools
import json
import os
import pwd
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from .limits import SCRATCH

HERE = Path(__file__).resolve().parent
INSIDE_DIR = HERE / "inside"   # the files copied behind the walls (see inside/__init__.py)
GRADER = HERE.parents[1]       # the whole grader package: hidden from learners
ROOT = GRADER.parent
ISOLATIONS = ("namespaces", "uid", "python")
INSIDE = "/grader"     # where the grading process sees its own files
UID_BASE = 61000       # first unprivileged id tried for learners when the grader is root
PYTHON_WARNING = ("warning: --isolation python is not a security boundary: learner code runs as "
                  "your own user, held back only by an audit hook that code can get around. Use "
                  "it for code you trust; grade a class with the default --isolation namespaces.")
INSTALL = ("install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) on a Linux kernel that "
           "allows user namespaces, or run the grader inside a container or VM that does; to grade "
           "only code you trust without walls, pass --isolation python")


class IsolationError(ValueError):
    """The walls cannot be built here; the CLI exits 2 with this message."""


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


def privileged() -> bool:
    return os.geteuid() == 0


def resolve_isolation(choice: str) -> tuple[str, str | None]:
    """(mode, warning). Never falls back: the walls are there, or grading does not start."""
    if choice not in ISOLATIONS:
        raise ValueError(f"--isolation must be one of {', '.join(ISOLATIONS)}, got {choice!r}")
    if choice == "python":
        return "python", PYTHON_WARNING
    if choice == "uid":
        problem = uid_problem()
        if problem:
            raise IsolationError(f"cannot build the walls of --isolation uid here ({problem})")
        return "uid", None
    problem = namespaces_problem()
    if problem:
        raise IsolationError(f"cannot build the sandbox's walls here ({problem}): {INSTALL}")
    return "namespaces", None


# ----------------------------------------------------------------- bubblewrap
def bwrap_command(zygote_dir: Path, as_root: bool | None = None) -> list[str]:
    """The grading process's namespaces: the Python installation read-only, the grader's
    copies read-only at /grader, a private /proc and a private read-only /dev, a read-only /tmp
    (the interpreter may live under it), an empty /scratch for each child's own tmpfs, nothing
    writable."""
    as_root = privileged() if as_root is None else as_root
    cmd = [_bwrap(), "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
           "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    if as_root:
        caps = ("CAP_SYS_ADMIN", "CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP", "CAP_KILL")  # KILL: its children are other users
    else:
        cmd += ["--unshare-user"]  # your own uid inside: see the module's docstring
        caps = ("CAP_SYS_ADMIN", "CAP_SETPCAP")
    for cap in caps:
        cmd += ["--cap-add", cap]
    for d in ("/usr", "/etc/ld.so.cache"):
        if os.path.exists(d):
            cmd += ["--ro-bind", d, d]
    for link in ("/lib", "/lib64", "/bin"):
        if os.path.islink(link):
            cmd += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            cmd += ["--ro-bind", link, link]
    cmd += ["--tmpfs", "/tmp"]  # before the binds below, some of which may live under /tmp
    made: set[str] = set()
    for d in _visible_roots():
        cmd += _parents(d, made) + ["--ro-bind", d, d]
    for d in private_dirs():  # hidden, even inside a folder that is visible
        if os.path.isdir(d) and any(d.startswith(r + os.sep) for r in _visible_roots()):
            cmd += ["--tmpfs", d]
    # /dev read-only too: in a user namespace its tmpfs belongs to the sandbox's uid, which every
    # exercise runs as (each child mounts its own tmpfs on /dev/shm and /scratch)
    cmd += ["--ro-bind", str(zygote_dir), INSIDE, "--proc", "/proc", "--dev", "/dev", "--dir", SCRATCH,
            "--remount-ro", "/dev", "--remount-ro", "/tmp", "--remount-ro", "/", "--chdir", "/", "--"]
    return cmd


def _visible_roots() -> list[str]:
    roots = sorted({os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix)})
    extra = [d for d in python_dirs() if not any(d == r or d.startswith(r + os.sep) for r in roots)]
    return [d for d in roots + extra if not d.startswith("/usr/") and os.path.exists(d)]


def _parents(path: str, made: set[str]) -> list[str]:
    """bubblewrap makes the folders above a mount point 0700; an unprivileged child must
    pass through them, so they are made 0755 first."""
    out, parts = [], Path(path).parts[1:-1]
    for i in range(len(parts)):
        d = "/" + "/".join(parts[: i + 1])
        if d not in made and d not in ("/usr", "/tmp"):
            made.add(d)
            out += ["--perms", "0755", "--dir", d]
    return out


def _bwrap() -> str:
    found = shutil.which("bwrap")
    if found is None:
        raise IsolationError(f"bubblewrap (bwrap) is not installed: {INSTALL}")
    return found


def learner_uids(n: int) -> list[int]:
    """``n`` user ids no account on this machine uses, for learners' children."""
    taken = {p.pw_uid for p in pwd.getpwall()}
    uids, uid = [], UID_BASE
    while len(uids) < n:
        if uid not in taken:
            uids.append(uid)
        uid += 1
    return uids


# ----------------------------------------------------------------- can the walls stand here?
PROBE = """
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location("_grader_walls", os.path.join(%r, "walls.py"))  # as the zygote
walls = sys.modules["_grader_walls"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(walls)
pid = os.fork()
if pid == 0:
    try:
        walls.raise_walls(2**20, %r)
        try:
            os.fork()
            os._exit(5)
        except PermissionError:
            os._exit(0)
    except BaseException as exc:
        print(type(exc).__name__, exc, file=sys.stderr)
        os._exit(4)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@functools.lru_cache(maxsize=1)
def namespaces_problem() -> str | None:
    """None when a child here can be walled in exactly as grading does it; else why not."""
    if shutil.which("bwrap") is None:
        return "bubblewrap (bwrap) is not installed"
    with tempfile.TemporaryDirectory(prefix="gpt2-grading-probe-") as tmp:
        os.chmod(tmp, 0o755)
        for name in ("walls.py", "syscalls.py"):
            shutil.copyfile(INSIDE_DIR / name, Path(tmp) / name)
        uid = learner_uids(1)[0] if privileged() else None
        cmd = bwrap_command(Path(tmp)) + [sys.executable, "-I", "-S", "-c", PROBE % (INSIDE, uid)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"bubblewrap could not be started ({type(exc).__name__})"
    if proc.returncode == 0:
        return None
    why = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1][:200]
    return f"the kernel refused the walls: {why}"


def uid_problem(unreadable=(), unwritable=()) -> str | None:
    """None when a child here can be walled in as ``uid`` does it: as root, a child dropped to
    an unprivileged uid of its own reads the Python installation but cannot write into it (root
    imports from it after learner code has run: a planted .pth would run as root), cannot read
    the course's own code (``private_dirs``) nor any path of ``unreadable``, cannot create a
    file in any folder of ``unwritable``, and once its seccomp filter is in place starts no
    process (uid_probe.py does each, as that uid); else what failed."""
    if not privileged():
        return "it needs root, to run learners' code as a user id of its own"
    python = [d for d in python_dirs() if os.path.isdir(d)]
    plan = {"uid": learner_uids(1)[0], "readable": python, "unreadable": private_dirs() + [str(p) for p in unreadable],
            "unwritable": python + [str(p) for p in unwritable]}
    cmd = [sys.executable, "-I", "-S", str(HERE / "uid_probe.py"), str(INSIDE_DIR / "walls.py"), json.dumps(plan)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, cwd="/")
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"the probe could not be run ({type(exc).__name__})"
    if proc.returncode == 0:
        return None
    return (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1][:300]

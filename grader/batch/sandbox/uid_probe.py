"""Can --isolation uid wall a child in here? Run by isolation.uid_problem as
``python -I -S uid_probe.py WALLS_PY JSON`` (as root, standard library only).

A forked child does what a learner's child does under --isolation uid (inside/zygote.py): it
drops to the unprivileged uid (walls.drop_identity), then, as that uid, checks that it reads
each folder of ``readable`` (the Python installation: learner code imports from it), opens
nothing of ``unreadable`` (the course's own code, the instructor's secret) and creates nothing
in ``unwritable`` (the Python installation, which root imports from later, and where the
grader writes its results); then it installs the seccomp filter
and checks that a new process is refused. Exit 0: every wall stands; else the last line on
stderr says which did not.
"""
import importlib.util
import json
import os
import sys


def load_walls(path):
    spec = importlib.util.spec_from_file_location("_grader_walls", path)
    walls = sys.modules["_grader_walls"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(walls)
    return walls


def opened(path):
    """Whether ``path`` could be read: a folder listed, a file opened."""
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            os.close(os.open(path, os.O_RDONLY))
        return True
    except OSError:
        return False


def created_in(folder):
    """Whether a new file could be made in ``folder`` (removed again at once)."""
    probe = os.path.join(folder, f".gpt2-uid-probe-{os.getpid()}")
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError:
        return False
    os.unlink(probe)
    return True


def check(walls, plan):
    walls.drop_identity(plan["uid"])
    for path in plan["readable"]:
        if not opened(path):
            return f"user {plan['uid']} cannot read the Python installation at {path} (make it and its parents o+rX)"
    for path in plan["unreadable"]:
        if os.path.exists(path) and opened(path):
            return f"user {plan['uid']} can read {path} (make it or a folder above it unreadable to others)"
    for path in plan["unwritable"]:
        if os.path.isdir(path) and created_in(path):
            return f"user {plan['uid']} can write into {path} (make it writable by its owner alone)"
    walls.install_filter()
    try:
        pid = os.fork()
    except PermissionError:
        return None
    if pid == 0:  # a process that should not exist: it ends at once
        os._exit(0)
    return "the seccomp filter let a new process start"


def main(walls_py, plan_json):
    walls, plan = load_walls(walls_py), json.loads(plan_json)
    pid = os.fork()
    if pid == 0:
        try:
            problem = check(walls, plan)
        except BaseException as exc:  # noqa: BLE001  (a wall that failed to rise: say which)
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            print(problem, file=sys.stderr, flush=True)
        os._exit(4 if problem else 0)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

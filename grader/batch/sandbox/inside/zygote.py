"""A warm, isolated interpreter that forks one child per exercise (or per oracle job).

Started by the grader (sandbox/processes.py) as ``python -I -S /grader/zygote.py CONTROL_FD``
under bubblewrap (``--isolation namespaces``) or alone (``uid``, ``python``), with copies of exactly
the files it needs in /grader (this folder's files, wire.py, the course's config.py) and
no site-packages .pth processing, so nothing of the grader, the course's model or the
solutions exists for it. Everything comes in over CONTROL_FD, a Unix socket the grader
holds the other end of: first the setup, then one request per job, each with the job's
descriptors (SCM_RIGHTS). The zygote never reads a job: it only forks (each child in a PID
namespace of its own), hands the child its descriptors, waits (killing it past its
wall time) and answers one line. Between learners it answers ``audit``: what it holds that
could carry from one learner to the next (see ``audit``).
It never runs learner code, and a child never sees anything of another job. What a child runs
once its walls stand is in harness.py.

Two roles:
- ``learner``: the child raises the walls (walls.py), reads its job (the learner's
  definition cells, the function's name, the cases' inputs) from a sealed memory file,
  runs the cells and calls the function on each case, writing one frame per answer to
  its results file. Earlier exercises the function uses (``uses``) are proxies that
  call the oracle over two pipes: no reference code is ever in its memory.
- ``oracle``: the child runs the course's reference pieces (their source comes in its
  job) and answers the calls of one learner child with plain data, until the pipe ends.
"""
import importlib.util
import json
import os
import select
import signal
import socket
import sys
import time
import traceback
import types

HERE = os.path.dirname(os.path.abspath(__file__))
# the child's descriptors: 0 /dev/null, 1 and 2 its output, then these (as in harness.py)
LOG_FD, JOB_FD, RESULT_FD, CALL_FD, ANSWER_FD = 3, 4, 5, 6, 7
PRELOADABLE = ("torch",)  # imported by the zygote when a learner's cells import them


def load_file(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def course_configs():
    """The course's configs, importable as learners' cells expect (gpt2course.config)."""
    config = load_file("gpt2course.config", os.path.join(HERE, "config.py"))
    package = types.ModuleType("gpt2course", "GPT-2 configs (the grader's copy; no model)")
    package.__path__ = []  # a package with nothing else in it
    package.config = config
    for name in ("GPTConfig", "GPT2_SMALL", "GPT2_FAMILY", "TINY"):
        setattr(package, name, getattr(config, name))
    sys.modules["gpt2course"] = package
    return config.GPTConfig


# ----------------------------------------------------------------- the zygote
def main(control_fd):
    control = socket.socket(fileno=control_fd)
    setup = receive(control)[0]
    sys.path[:] = setup["sys_path"]
    sys.dont_write_bytecode = True
    global frames, walls, wire
    frames = load_file("_grader_frames", os.path.join(HERE, "frames.py"))
    walls = load_file("_grader_walls", os.path.join(HERE, "walls.py"))
    wire = load_file("_grader_wire", os.path.join(HERE, "wire.py"))
    load_file("_grader_hook", os.path.join(HERE, "hook.py"))
    global harness
    harness = load_file("_grader_harness", os.path.join(HERE, "harness.py"))
    setup["config_type"] = course_configs()
    for name in setup["preload"]:  # named by the grader (NumPy): loaded once, inherited by every child
        importlib.import_module(name)

    os.dup2(os.open(os.devnull, os.O_RDWR), 1)  # stray prints cannot reach anything
    if setup["mode"] == "namespaces":  # its own PID namespace, to return to after each child's
        setup["pid_namespace"] = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
    while True:
        got = receive(control)
        if got is None:
            break
        request, fds = got
        if request.get("op") == "preload":
            for name in request.get("names", []):  # trusted imports, before any wall rises
                if name in PRELOADABLE:
                    __import__(name)
            reply = {"ok": True}
        elif request.get("op") == "audit":
            reply = audit(setup)
        elif request.get("op") == "run":
            reply = run_child(request, fds, setup)
        else:
            break
        for fd in fds:
            os.close(fd)
        control.send(json.dumps(reply).encode())


def receive(control):
    """One request and its descriptors; None when the grader has gone."""
    try:
        data, fds, _flags, _addr = socket.recv_fds(control, 1 << 16, 16)
    except OSError:
        return None
    if not data:
        return None
    return json.loads(data), list(fds)


def audit(setup):
    """What this grading process holds that a learner's exercise could have changed and the
    slot's next learner could meet; the grader hands the process on only if it is what it
    was before the first exercise (workspace.py). Learner code never runs here, so each is
    a wall that failed, counted where it would show:
    - processes: every process of its PID namespace (a child's nested namespace shows in it
      too): a child, or anything it started, that outlived its exercise;
    - ipc: the System V objects of its IPC namespace: a child that did not get its own;
    - mounts: its mount table: a child that mounted into the zygote's namespace;
    - descriptors: a job's descriptor it kept open.
    The pid counter no longer matters (each child counts in its own PID namespace)."""
    if setup["mode"] != "namespaces":  # no namespaces of its own to look at
        return {}
    ipc = []
    for kind in ("shm", "msg", "sem"):
        with open(f"/proc/sysvipc/{kind}") as f:
            ipc += [f"{kind} {line.split()[1]}" for line in f.read().splitlines()[1:] if line.strip()]
    with open("/proc/self/mountinfo") as f:
        mounts = [line.split()[4] for line in f]
    listing = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
    try:
        descriptors = sorted(int(fd) for fd in os.listdir(listing) if int(fd) != listing)
    finally:
        os.close(listing)
    return {"processes": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()), "ipc": ipc,
            "mounts": mounts, "descriptors": descriptors}


def run_child(request, fds, setup):
    try:
        # python mode: no namespaces (and no privilege to make one)
        pid, init = walls.fork_in_new_pid_namespace(setup["pid_namespace"]) if setup["mode"] == "namespaces" \
            else (os.fork(), 0)
    except OSError:
        traceback.print_exc()
        return {"status": 70, "timed_out": False}
    if pid == 0:
        code = 0
        try:
            child(request, fds, setup)
        except BaseException:  # noqa: BLE001  (the harness failed before learner code: say so)
            try:
                traceback.print_exc()
            finally:
                code = 70
        os._exit(code)
    status, timed_out = wait(pid, request["wall_s"], setup["rlimits"].get("RLIMIT_CPU"))
    walls.end_namespace(init)
    return {"status": status, "timed_out": timed_out}


def wait(pid, wall_s, cpu_s=None):
    """(exit code, or -signal) and whether the child ran out of time; it is killed either
    way (and its process group, where no filter stopped it from making one). At its CPU
    limit the kernel sends SIGKILL (soft and hard are one limit), so a child killed by
    SIGKILL whose CPU time had reached the limit is reported as SIGXCPU, and the feedback
    names the limit."""
    deadline, timed_out = time.monotonic() + wall_s, False
    fd = os.pidfd_open(pid)
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            if select.select([fd], [], [], left)[0]:
                break
    finally:
        os.close(fd)
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass
    charged = charged_cpu_s(pid)  # before reaping: the clock goes with the process
    _, status, usage = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == -signal.SIGKILL and not timed_out and cpu_limit_met(cpu_s, charged, usage.ru_utime + usage.ru_stime):
        code = -signal.SIGXCPU
    return code, timed_out


def cpu_limit_met(cpu_s, charged: float | None, used: float) -> bool:
    """Whether a child had reached its CPU limit (None: it had none): by the kernel's own
    count (``charged``), else (no clock to read) by rusage's ``used``, which reads up to a
    third under that count under load and 2% under it unloaded (0.98 s at 1 s)."""
    if not cpu_s:
        return False
    return (used / 0.9 if charged is None else charged) >= cpu_s


def charged_cpu_s(pid) -> float | None:
    """The CPU time the kernel checks RLIMIT_CPU against: the process's CPUCLOCK_PROF, user
    and system time counted by the scheduler's ticks. rusage is not it: it rescales those
    ticks to the exact run time, which under load is up to a third less (a busy loop killed
    at 1 s reads 0.66 s beside short-lived tasks), so a limit reached would go unnamed. The
    clock still reads while the child is a zombie, not once it is reaped."""
    try:
        return time.clock_gettime((~pid << 3) | 0)  # a process clock (not per thread), PROF
    except (OSError, OverflowError):
        return None


# ----------------------------------------------------------------- the child
def child(request, fds, setup):
    fds, names = join_groups(fds, request["fds"])
    os.setsid()
    place_descriptors(fds, names)
    if setup["mode"] == "namespaces":
        walls.private_scratch(setup["scratch_bytes"])
        os.chdir(walls.SCRATCH)
        walls.drop_identity(setup.get("uid"))
    else:  # the folder the grader made for this child (uid: owned by the child's uid, 0700)
        os.chdir(request["scratch"])
        setup = dict(setup, own=request["scratch"])
        os.environ["HOME"] = os.environ["TMPDIR"] = request["scratch"]
        if setup["mode"] == "uid":  # no namespaces: a user id of its own, then the same filter
            if setup.get("uid") is None:
                raise OSError("--isolation uid: no user id was given for this child")
            walls.drop_identity(setup["uid"])
    apply_limits(setup["rlimits"])
    if setup["mode"] != "python":
        walls.install_filter()
    if request["role"] == "oracle":
        harness.serve_oracle(setup)
    else:
        harness.grade(setup, request)


def join_groups(fds, names):
    """An oracle's child computes on one learner's inputs, so it counts in that learner's
    limits: first of all it writes itself ("0": the writer) into each control group whose
    cgroup.procs the grader opened and sent as a "group" descriptor. A failed write ends
    the child (the learner's calls then get no answer): it never computes uncounted.
    The other descriptors and their names are returned."""
    kept = []
    for fd, name in zip(fds, names):
        if name == "group":
            os.write(fd, b"0")
            os.close(fd)
        else:
            kept.append((fd, name))
    return [fd for fd, _ in kept], [name for _, name in kept]


def place_descriptors(fds, names):
    """The job's descriptors at their fixed numbers, /dev/null on 0, nothing else open."""
    slots = {"output": (1, 2), "log": (LOG_FD,), "job": (JOB_FD,), "result": (RESULT_FD,),
             "call": (CALL_FD,), "answer": (ANSWER_FD,)}
    import fcntl

    # above every target number first, so no dup2 clobbers one not yet placed
    moved = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 64) for fd in fds]
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    placed = {0}
    for fd, name in zip(moved, names):
        for target in slots[name]:
            os.dup2(fd, target)
            placed.add(target)
    # everything else: the descriptors as received (below 8 too, where no job's slot is
    # placed on them), /dev/null's own, the moved copies and all the grading process's
    for fd in range(3, ANSWER_FD + 1):
        if fd not in placed:
            os.closerange(fd, fd + 1)
    os.closerange(ANSWER_FD + 1, 65536)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)


def apply_limits(limits):
    """Each limit soft and hard alike: without CAP_SYS_RESOURCE nothing raises a hard limit,
    and with soft == hard there is no soft limit left to raise either."""
    import resource

    for name, value in limits.items():
        resource.setrlimit(getattr(resource, name), (value, value))


if __name__ == "__main__":
    main(int(sys.argv[1]))
    os._exit(0)

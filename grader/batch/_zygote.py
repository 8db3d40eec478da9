"""The learner's grading process: a warm, isolated interpreter that forks one
child per exercise. It is started by sandbox.py, once per learner, as

    python -I -S _zygote.py SETUP.json            (--isolation python)
    bwrap ... python -I -S _zygote.py SETUP.json  (--isolation namespaces)

from a private folder holding copies of exactly the files it needs (this file,
wire.py, the course's config.py), with no site-packages .pth processing: the
grader, the course's model and the solutions are not on its path. It loads
NumPy once; then for each request on stdin ({"job": folder, "cases": folder,
"wall_s": seconds}) it forks a child that runs the learner's definitions and
calls the function on every case, and answers one JSON line on stdout with the
child's exit status. The zygote itself never runs learner code.

The child, before any learner code runs: leaves the zygote's process group,
points stdin/stdout/stderr at /dev/null and files in its job folder, closes
every other descriptor, sets its rlimits, loads the reference pieces the
exercise uses from source (so no reference module exists in its memory), and
installs an audit hook that Python code cannot remove. The hook allows reads
only under the Python installation, the zygote's folder, the cases and its own
job folder, writes only in its job folder, and refuses programs, forks,
signals, sockets, native code and changes of limits; every refusal is also
written at once to a descriptor the parent reads, so learner code cannot
take it back.
"""
import copy
import importlib.util
import json
import os
import select
import signal
import sys
import time
import traceback
import types

HERE = os.path.dirname(os.path.abspath(__file__))
REFUSALS_FD = 3  # the child's refusal log, inherited as fd 3
# Libraries a learner may use that need, while importing, something the child refuses
# (torch loads native code through ctypes): imported by the zygote, only when asked.
PRELOADABLE = ("torch",)


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
def main(setup_path):
    with open(setup_path, encoding="utf-8") as f:
        setup = json.load(f)
    sys.path[:] = setup["sys_path"]
    sys.dont_write_bytecode = True
    wire = load_file("_grader_wire", os.path.join(HERE, "wire.py"))
    config_type = course_configs()
    import numpy  # noqa: F401  (loaded once, inherited by every child)

    cases = {}
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # stray prints cannot garble the replies
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "quit":
            break
        folder = request["cases"]
        if folder not in cases:
            cases[folder] = load_cases(wire, folder, config_type)
        for name in request.get("preload", []):  # trusted imports, before any door closes
            if name in PRELOADABLE:
                importlib.import_module(name)
        replies.write(json.dumps(run_child(request, cases[folder], setup)) + "\n")


def load_cases(wire, folder, config_type):
    with open(os.path.join(folder, "cases.json"), encoding="utf-8") as f:
        trees = json.load(f)
    load = wire.folder_loader(folder)
    return [wire.decode(t, load, config_type) for t in trees]


def run_child(request, cases, setup):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(read_end)
            child(request["job"], cases, setup, write_end)
        except BaseException:  # noqa: BLE001  (the harness failed before learner code: say so)
            traceback.print_exc()
            code = 70
        os._exit(code)
    os.close(write_end)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass
    status, timed_out = wait(pid, request["wall_s"])
    refused = drain(read_end)
    return {"status": status, "timed_out": timed_out, "refused": refused}


def wait(pid, wall_s):
    """(exit code, or -signal) and whether the child ran out of time; the child's
    whole process group is killed either way."""
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
    _, status = os.waitpid(pid, 0)
    return (os.waitstatus_to_exitcode(status), timed_out)


def drain(fd):
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk or sum(map(len, chunks)) > 65536:
            break
        chunks.append(chunk)
    os.close(fd)
    text = b"".join(chunks).decode("utf-8", "replace")
    return [line[:200] for line in text.splitlines() if line][:20]


# ----------------------------------------------------------------- the child
def child(jobdir, cases, setup, refusals):
    os.setpgid(0, 0)
    with open(os.path.join(jobdir, "job.json"), encoding="utf-8") as f:
        job = json.load(f)
    streams(jobdir, refusals)
    apply_limits(setup["rlimits"])
    pieces = load_pieces(job.get("pieces", []))
    wire = sys.modules["_grader_wire"]
    outdir = os.path.join(jobdir, "out")
    os.chdir(os.path.join(jobdir, "scratch"))
    close_doors(setup["read_roots"] + [jobdir], jobdir, setup["closed_modules"], setup["hidden"])

    namespace = {"__name__": "__main__"}
    restore = builtins_keeper()
    result = {"cell_errors": run_cells(job["cells"], namespace, restore), "answers": []}
    fn = namespace.get(job["function"])
    result["found"] = callable(fn)
    if callable(fn):
        namespace.update(pieces)
        encode = wire.Encoder(outdir, "a")
        write(outdir, result)  # 'found' reaches the parent even if the first call kills us
        for args in cases:
            result["answers"].append(call(fn, args, encode))
            restore()
            write(outdir, result)  # after each case: a timeout keeps what was done
    write(outdir, result)


def streams(jobdir, refusals):
    """stdin from /dev/null, output to the job folder, the refusal log on fd 3, nothing else open."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, name in ((1, "stdout"), (2, "stderr")):
        os.dup2(os.open(os.path.join(jobdir, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
    os.dup2(refusals, REFUSALS_FD)
    os.closerange(REFUSALS_FD + 1, 65536)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)


def apply_limits(limits):
    import resource

    for name, value in limits.items():
        which = getattr(resource, name)
        resource.setrlimit(which, (value, value + 1 if name == "RLIMIT_CPU" else value))


def load_pieces(pieces):
    """Reference pieces from source, each module's in its own namespace: learner
    code can reach these functions and what they need, nothing else."""
    out = {}
    for piece in pieces:
        namespace = {"__name__": "reference_pieces"}
        exec(compile(piece["source"], "<reference pieces>", "exec"), namespace)
        out.update({name: namespace[fn] for name, fn in piece["exports"].items()})
    return out


def short_error(exc, limit=400):
    try:
        message = str(exc)[:limit]
    except Exception:
        message = "<unreadable message>"
    if isinstance(exc, OSError) and exc.errno == 27:  # EFBIG: the file-size rlimit
        message = "printed or wrote far too much output (output limit reached)"
    if isinstance(exc, MemoryError):
        message = "ran out of memory (the grader's memory limit was reached)"
    return {"type": type(exc).__name__, "bases": [t.__name__ for t in type(exc).__mro__],
            "message": message}


def learner_line(exc):
    """Line number inside the learner's cell, for feedback."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.startswith("<cell"):
            return frame.lineno
    return None


def run_cells(cells, namespace, restore):
    errors = []
    for cell in cells:
        try:
            exec(compile(cell["source"], f"<cell {cell['index'] + 1}>", "exec"), namespace)
        except (Exception, SystemExit) as exc:  # one broken cell must not stop the others
            err = short_error(exc)
            err["cell"], err["line"] = cell["index"] + 1, learner_line(exc)
            errors.append(err)
        finally:
            restore()
    return errors


def builtins_keeper():
    """Learner code may patch builtins; the harness puts them back after each call."""
    import builtins

    saved = dict(builtins.__dict__)

    def restore():
        builtins.__dict__.clear()
        builtins.__dict__.update(saved)

    return restore


def call(fn, args, encode):
    same_value = sys.modules["_grader_wire"].same_value
    pristine = copy.deepcopy(args)
    try:
        value = fn(**args)
    except NotImplementedError:
        return {"not_implemented": True}
    except (Exception, SystemExit) as exc:
        return {"raised": short_error(exc)}
    changed = [k for k in pristine if not same_value(args.get(k), pristine[k])]
    if changed:
        return {"changed_inputs": changed[:10]}
    try:
        return {"value": encode(value)}
    except Exception as exc:
        return {"unencodable": short_error(exc)}


FORBIDDEN_EVENTS = {
    "subprocess.Popen": "starting a program", "os.system": "starting a program",
    "os.exec": "starting a program", "os.posix_spawn": "starting a program",
    "os.spawn": "starting a program", "os.fork": "forking the process",
    "os.forkpty": "forking the process", "pty.spawn": "starting a program",
    "os.kill": "sending signals", "os.killpg": "sending signals",
    "signal.pthread_kill": "sending signals", "resource.setrlimit": "changing resource limits",
    "resource.prlimit": "changing resource limits", "ctypes.dlopen": "loading native code (ctypes)",
    "ctypes.dlsym": "loading native code (ctypes)", "ctypes.cdata": "raw memory access (ctypes)",
    "socket.__new__": "network access", "socket.connect": "network access",
    "socket.bind": "network access", "socket.sendto": "network access",
    "socket.sendmsg": "network access", "socket.getaddrinfo": "network access",
    "os.chdir": "leaving the scratch folder", "os.chroot": "leaving the scratch folder",
    "os.symlink": "creating links", "os.link": "creating links",
}
# modules that start processes or reach memory without an audit event, and why they are closed
CLOSED_NATIVE = {"_posixsubprocess": "starting a program", "subprocess": "starting a program",
                 "multiprocessing": "starting a program", "ctypes": "loading native code (ctypes)",
                 "_ctypes": "loading native code (ctypes)", "_posixshmem": "shared memory"}
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
PATH_EVENTS = ("open", "os.listdir", "os.scandir", "glob.glob", "os.remove", "os.rename", "os.rmdir",
               "os.mkdir", "os.truncate", "os.chmod", "os.chown", "os.utime", "shutil.rmtree",
               "shutil.move", "shutil.copyfile", "shutil.copytree")
CHANGING_EVENTS = frozenset(PATH_EVENTS[4:])
DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")


def close_doors(read_roots, own, modules, hidden=(), isinstance=isinstance, str=str, bytes=bytes,
                any=any, int=int, len=len):
    """Deny by default: reads only under ``read_roots`` (minus ``hidden``, the course's
    own packages wherever installed), writes only under ``own``."""
    roots = tuple(os.path.realpath(p) for p in read_roots)
    hidden = tuple(os.path.realpath(p) for p in hidden)
    own = os.path.realpath(own)
    closed = frozenset(modules) | frozenset(CLOSED_NATIVE)
    why = dict.fromkeys(modules, "reading the grader or the course's model") | CLOSED_NATIVE
    realpath, fsdecode, sep, write_log = os.path.realpath, os.fsdecode, os.sep, os.write

    def refuse(what):
        try:
            write_log(REFUSALS_FD, (what.replace("\n", " ")[:200] + "\n").encode("utf-8", "replace"))
        except OSError:
            pass
        raise PermissionError(f"not allowed while grading: {what}")

    def closed_module(name):
        return any(name == m or name.startswith(m + ".") for m in closed)

    def inside(path, root):
        return path == root or path.startswith(root + sep)

    def check_path(event, raw, writing):
        text = fsdecode(raw)
        if not text.startswith(sep) and ".." in text.split(sep):
            refuse(f"a relative path with '..' ({text[:80]!r})")
        path = realpath(text)
        if any(inside(path, h) for h in hidden):
            refuse(f"access to {text[:120]!r}")
        if writing:
            if not inside(path, own):
                refuse(f"writing {text[:120]!r} outside the scratch folder")
        elif not (any(inside(path, r) for r in roots) or path in DEVICES):
            refuse(f"access to {text[:120]!r}")

    def hook(event, args):
        if event in FORBIDDEN_EVENTS:
            refuse(FORBIDDEN_EVENTS[event])
        if event == "import" and args and isinstance(args[0], str) and closed_module(args[0]):
            top = next(m for m in closed if args[0] == m or args[0].startswith(m + "."))
            refuse(f"import {args[0]} ({why[top]})")
        if event not in PATH_EVENTS or not args:
            return
        writing = event in CHANGING_EVENTS or (event == "open" and len(args) > 2 and (
            (isinstance(args[1], str) and any(c in args[1] for c in "wax+"))
            or (isinstance(args[2], int) and args[2] & WRITE_FLAGS)))
        paths = args[:2] if event in ("os.rename", "shutil.move", "shutil.copyfile", "shutil.copytree") \
            else args[:1]
        for raw in paths:
            if isinstance(raw, (str, bytes)):
                check_path(event, raw, writing or raw is not args[0])

    for name in list(sys.modules):  # nothing closed stays loaded
        if closed_module(name):
            del sys.modules[name]
    import posix

    for module, attr in ((signal, "pidfd_send_signal"), (sys.modules.get("_signal"), "pidfd_send_signal"),
                         (os, "pidfd_open"), (posix, "pidfd_open")):
        if module is not None and hasattr(module, attr):  # signals that raise no audit event
            delattr(module, attr)
    sys.addaudithook(hook)


def write(outdir, result):
    tmp = os.path.join(outdir, "result.json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f)
    os.replace(tmp, os.path.join(outdir, "result.json"))


if __name__ == "__main__":
    main(sys.argv[1])
    os._exit(0)

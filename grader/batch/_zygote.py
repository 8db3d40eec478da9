"""A warm, isolated interpreter that forks one child per exercise (or per oracle job).

Started by sandbox.py as ``python -I -S /grader/_zygote.py CONTROL_FD`` under bubblewrap
(``--isolation namespaces``) or alone (``python``), with copies of exactly the files it
needs in /grader (this file, _walls.py, frames.py, wire.py, the course's config.py) and
no site-packages .pth processing, so nothing of the grader, the course's model or the
solutions exists for it. Everything comes in over CONTROL_FD, a Unix socket the grader
holds the other end of: first the setup, then one request per job, each with the job's
descriptors (SCM_RIGHTS). The zygote never reads a job: it only forks, hands the
child its descriptors, waits (killing it past its wall time) and answers one line.
It never runs learner code, and a child never sees anything of another job.

Two roles:
- ``learner``: the child raises the walls (_walls.py), reads its job (the learner's
  definition cells, the function's name, the cases' inputs) from a sealed memory file,
  runs the cells and calls the function on each case, writing one frame per answer to
  its results file. Earlier exercises the function uses (``uses``) are proxies that
  call the oracle over two pipes: no reference code is ever in its memory.
- ``oracle``: the child runs the course's reference pieces (their source comes in its
  job) and answers the calls of one learner child with plain data, until the pipe ends.
"""
import copy
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
# the child's descriptors: 0 /dev/null, 1 and 2 its output, then these
LOG_FD, JOB_FD, RESULT_FD, CALL_FD, ANSWER_FD = 3, 4, 5, 6, 7
PRELOADABLE = ("torch",)  # imported by the zygote when a learner's cells import them
MAX_CALL_BLOB = 64 * 2**20
BUILTIN_ERRORS = {e.__name__: e for e in (ValueError, TypeError, IndexError, KeyError, ZeroDivisionError,
                                          AttributeError, ArithmeticError, LookupError, OverflowError)}


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
    walls = load_file("_grader_walls", os.path.join(HERE, "_walls.py"))
    wire = load_file("_grader_wire", os.path.join(HERE, "wire.py"))
    load_file("_grader_hook", os.path.join(HERE, "_hook.py"))
    setup["config_type"] = course_configs()
    import numpy  # noqa: F401  (loaded once, inherited by every child)

    os.dup2(os.open(os.devnull, os.O_RDWR), 1)  # stray prints cannot reach anything
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


def run_child(request, fds, setup):
    pid = os.fork()
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
    status, timed_out = wait(pid, request["wall_s"])
    return {"status": status, "timed_out": timed_out}


def wait(pid, wall_s):
    """(exit code, or -signal) and whether the child ran out of time; it is killed either
    way (and its process group, where no filter stopped it from making one)."""
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
    return os.waitstatus_to_exitcode(status), timed_out


# ----------------------------------------------------------------- the child
def child(request, fds, setup):
    os.setsid()
    place_descriptors(fds, request["fds"])
    if setup["mode"] == "namespaces":
        walls.private_scratch(setup["scratch_bytes"])
        os.chdir("/tmp")
        walls.drop_identity(setup.get("uid"))
    else:
        os.chdir(request["scratch"])
        setup = dict(setup, own=request["scratch"])
    apply_limits(setup["rlimits"])
    if setup["mode"] == "namespaces":
        walls.install_filter()
    if request["role"] == "oracle":
        serve_oracle(setup)
    else:
        grade(setup, request)


def place_descriptors(fds, names):
    """The job's descriptors at their fixed numbers, /dev/null on 0, nothing else open."""
    slots = {"output": (1, 2), "log": (LOG_FD,), "job": (JOB_FD,), "result": (RESULT_FD,),
             "call": (CALL_FD,), "answer": (ANSWER_FD,)}
    import fcntl

    # above every target number first, so no dup2 clobbers one not yet placed
    moved = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 64) for fd in fds]
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    for fd, name in zip(moved, names):
        for target in slots[name]:
            os.dup2(fd, target)
    os.closerange(ANSWER_FD + 1, 65536)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)


def apply_limits(limits):
    import resource

    for name, value in limits.items():
        which = getattr(resource, name)
        resource.setrlimit(which, (value, value + 1 if name == "RLIMIT_CPU" else value))


def read_job(setup):
    got = frames.read_frame(JOB_FD, frames.MAX_RESULT_BYTES)
    os.close(JOB_FD)
    tree, blob = got
    load = wire.blob_loader(blob, budget=len(blob) + 1)
    return tree, load


# ----------------------------------------------------------------- grading one exercise
def grade(setup, request):
    job, load = read_job(setup)
    cases = [wire.decode(t, load, setup["config_type"]) for t in job["cases"]]
    namespace = {"__name__": "__main__"}
    proxies = {name: piece_proxy(name, setup["config_type"]) for name in job.get("uses", [])}
    import _grader_hook

    own = setup["own"]
    _grader_hook.close_doors(setup["read_roots"] + [own], own, setup["closed_modules"], setup["hidden"])
    restore = builtins_keeper()
    errors = run_cells(job["cells"], namespace, restore)
    fn = namespace.get(job["function"])
    send_result({"cell_errors": errors, "found": callable(fn)})
    if callable(fn):
        namespace.update(proxies)
        for args in cases:
            blob = bytearray()
            tree = call(fn, args, wire.Encoder(None, blob=blob))
            restore()
            send_result({"answer": tree}, blob)


def send_result(tree, blob=b""):
    frames.write_all(RESULT_FD, frames.frame(tree, blob))


def piece_proxy(name, config_type):
    """The course's ``name``, answered by the oracle: arrays in, arrays out."""
    write_all, frame, read_frame, Encoder, decode = (frames.write_all, frames.frame, frames.read_frame,
                                                     wire.Encoder, wire.decode)
    blob_loader, errors, FrameError = wire.blob_loader, BUILTIN_ERRORS, frames.FrameError

    def proxy(*args, **kwargs):
        blob = bytearray()
        enc = Encoder(None, blob=blob)
        write_all(CALL_FD, frame({"fn": name, "args": enc(list(args)), "kwargs": enc(kwargs)}, blob))
        try:
            got = read_frame(ANSWER_FD, MAX_CALL_BLOB)
        except FrameError:
            got = None
        if got is None:
            raise RuntimeError(f"the course's `{name}`, used while grading this exercise, did not answer")
        tree, blob = got
        if "raised" in tree:
            raised = tree["raised"]
            raise errors.get(raised.get("type"), RuntimeError)(str(raised.get("message", ""))[:2000])
        return decode(tree.get("value"), blob_loader(blob), config_type)

    proxy.__name__ = proxy.__qualname__ = name
    proxy.__doc__ = f"The course's {name} (answered outside this process)."
    return proxy


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
    same_value = wire.same_value
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


# ----------------------------------------------------------------- the oracle
def serve_oracle(setup):
    """The reference pieces of one exercise, answering one learner child's calls."""
    job, _ = read_job(setup)
    pieces = {}
    for piece in job["pieces"]:
        namespace = {"__name__": "reference_pieces"}
        exec(compile(piece["source"], "<reference pieces>", "exec"), namespace)
        pieces.update({name: namespace[fn] for name, fn in piece["exports"].items()})
    config_type = setup["config_type"]
    while True:
        try:
            got = frames.read_frame(CALL_FD, MAX_CALL_BLOB)
        except frames.FrameError as exc:
            reply = {"raised": {"type": "ValueError", "message": str(exc)}}
            frames.write_all(ANSWER_FD, frames.frame(reply))
            return
        if got is None:
            return
        tree, blob = got
        frames.write_all(ANSWER_FD, answer_call(pieces, tree, blob, config_type))


def answer_call(pieces, tree, blob, config_type):
    fn = pieces.get(tree.get("fn")) if isinstance(tree, dict) else None
    if fn is None:
        return frames.frame({"raised": {"type": "RuntimeError", "message": "no such piece"}})
    load = wire.blob_loader(blob, budget=len(blob) + 1)
    args = wire.decode(tree.get("args"), load, config_type)
    kwargs = wire.decode(tree.get("kwargs"), load, config_type)
    bad = next((x for x in [*(args if isinstance(args, list) else [args]),
                            *(kwargs.values() if isinstance(kwargs, dict) else [kwargs])]
                if isinstance(x, wire.Unsupported)), None)
    if bad is not None or not isinstance(args, list) or not isinstance(kwargs, dict):
        what = bad.type_name if bad is not None else "arguments"
        return frames.frame({"raised": {"type": "TypeError", "message":
                                        f"the course's `{tree.get('fn')}` takes NumPy arrays and "
                                        f"plain numbers here, not a {what}"}})
    try:
        value = fn(*args, **kwargs)
    except Exception as exc:
        return frames.frame({"raised": {"type": type(exc).__name__, "message": str(exc)[:2000]}})
    out = bytearray()
    return frames.frame({"value": wire.Encoder(None, blob=out)(value)}, out)


if __name__ == "__main__":
    main(int(sys.argv[1]))
    os._exit(0)

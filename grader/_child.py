"""The child process that runs learner code for the batch grader.

Started as ``python -I _child.py JOBDIR`` by sandbox.py. It reads JOBDIR/job.json
(the learner's definition cells, one exercise name, the test inputs as .npy),
runs the cells, calls the function on each case and writes JOBDIR/out/result.json
plus .npy files. It imports nothing from the grader package: wire.py is loaded
from its file before any learner code runs, and the grader, the course's
reference package and the solutions are then closed to imports and reads.
"""
import importlib.util
import json
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


def load_wire():
    spec = importlib.util.spec_from_file_location("_grader_wire", os.path.join(HERE, "wire.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def short_error(exc: BaseException, limit: int = 400) -> dict:
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


def learner_line(exc: BaseException) -> int | None:
    """Line number inside the learner's cell, for feedback."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.startswith("<cell"):
            return frame.lineno
    return None


def run_cells(cells, namespace, restore):
    errors = []
    for cell in cells:
        try:
            code = compile(cell["source"], f"<cell {cell['index'] + 1}>", "exec")
            exec(code, namespace)
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


def apply_limits(limits):
    """Set by the child itself (no preexec_fn, which is unsafe with the grader's threads)."""
    import resource

    for name, value in limits.items():
        which = getattr(resource, name)
        resource.setrlimit(which, (value, value + 1 if name == "RLIMIT_CPU" else value))


def main(jobdir):
    with open(os.path.join(jobdir, "limits.json"), encoding="utf-8") as f:
        apply_limits(json.load(f))
    wire = load_wire()
    import numpy as np  # noqa: F401  (learner code expects it importable)

    with open(os.path.join(jobdir, "job.json"), encoding="utf-8") as f:
        job = json.load(f)
    config_type = None
    if job.get("needs_config"):
        from gpt2course.config import GPTConfig as config_type
    outdir = os.path.join(jobdir, "out")
    load = wire.npy_loader(os.path.join(jobdir, "in"))
    cases = [wire.decode(c, load, config_type) for c in job["cases"]]
    references = load_references(job.get("references", {}))
    os.chdir(os.path.join(jobdir, "scratch"))
    sys.dont_write_bytecode = True  # -I ignores PYTHONDONTWRITEBYTECODE
    refused = close_doors(job.get("closed_paths", []), job.get("closed_modules", []), jobdir)

    namespace = {"__name__": "__main__"}
    restore = builtins_keeper()
    result = {"cell_errors": run_cells(job["cells"], namespace, restore), "answers": [], "refused": refused}
    fn = namespace.get(job["function"])
    result["found"] = callable(fn)
    if callable(fn):
        namespace.update(references)
        encode = wire.Encoder(outdir, "a")
        write(outdir, result)  # 'found' reaches the parent even if the first call kills us
        for args in cases:
            answer = call(fn, args, encode)
            restore()
            result["answers"].append(answer)
            write(outdir, result)  # after each case: a timeout keeps what was done
    write(outdir, result)


def call(fn, args, encode):
    try:
        value = fn(**args)
    except NotImplementedError:
        return {"not_implemented": True}
    except (Exception, SystemExit) as exc:
        return {"raised": short_error(exc)}
    try:
        return {"value": encode(value)}
    except Exception as exc:
        return {"unencodable": short_error(exc)}


def load_references(spec):
    """{name: 'module:attr'}: trusted versions of earlier exercises, loaded before
    the doors close, so an exercise is graded on the reference pieces it uses."""
    fns = {}
    for name, where in spec.items():
        module, attr = where.split(":")
        fns[name] = getattr(importlib.import_module(module), attr)
    return seal(fns)


def seal(fns):
    """Copies of ``fns`` whose globals hold only what they need (found by walking
    the names their code uses), so learner code cannot reach the rest of the
    reference module through ``piece.__globals__``."""
    import types

    sealed_globals = {}  # one dict per module, shared by that module's sealed functions
    out = {}

    def names_of(code):
        names = set(code.co_names)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                names |= names_of(const)
        return names

    def copy(fn):
        g = sealed_globals.setdefault(id(fn.__globals__), {"__builtins__": __builtins__})
        if fn.__name__ in g and getattr(g[fn.__name__], "__code__", None) is fn.__code__:
            return g[fn.__name__]
        new = types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__, fn.__closure__)
        new.__kwdefaults__, new.__doc__ = fn.__kwdefaults__, fn.__doc__
        g[fn.__name__] = new
        for name in names_of(fn.__code__):
            if name in g or name not in fn.__globals__:
                continue
            value = fn.__globals__[name]
            g[name] = copy(value) if isinstance(value, types.FunctionType) else value
        return new

    for name, fn in fns.items():
        out[name] = copy(fn)
    return out


FORBIDDEN_EVENTS = {
    "subprocess.Popen": "starting a program", "os.system": "starting a program",
    "os.exec": "starting a program", "os.posix_spawn": "starting a program",
    "os.spawn": "starting a program", "os.fork": "forking the process",
    "os.forkpty": "forking the process", "pty.spawn": "starting a program",
    "os.kill": "sending signals", "os.killpg": "sending signals",
    "signal.pthread_kill": "sending signals", "resource.setrlimit": "changing resource limits",
    "resource.prlimit": "changing resource limits", "ctypes.dlopen": "loading native code (ctypes)",
    "ctypes.dlsym": "loading native code (ctypes)", "ctypes.cdata": "raw memory access (ctypes)",
    "socket.connect": "network access", "socket.bind": "network access",
    "socket.getaddrinfo": "network access", "os.chdir": "leaving the scratch folder",
}


WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
CHANGING_EVENTS = ("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.truncate", "os.chmod",
                   "os.chown", "os.link", "os.symlink", "os.utime", "shutil.rmtree", "shutil.move")


def close_doors(paths, modules, jobdir, isinstance=isinstance, str=str, bytes=bytes, any=any,
                len=len, int=int):
    """An audit hook (which Python code cannot remove) refuses imports of the
    grader and the reference, any access under the closed folders, and any
    writing or deleting outside this job's own folder (other learners' results
    live elsewhere). Each refusal is recorded for the report."""
    roots = tuple(os.path.realpath(p) for p in paths)
    own = os.path.realpath(jobdir)
    modules = frozenset(modules)
    refused = []

    def refuse(what):
        if len(refused) < 20:
            refused.append(what)
        raise PermissionError(f"not allowed while grading: {what}")

    realpath, fsdecode, sep = os.path.realpath, os.fsdecode, os.sep

    def closed_module(name):
        return any(name == m or name.startswith(m + ".") for m in modules)

    def inside(path, root):
        return path == root or path.startswith(root + sep)

    def hook(event, args):
        if event in FORBIDDEN_EVENTS:
            refuse(FORBIDDEN_EVENTS[event])
        if event == "import" and args and closed_module(str(args[0])):
            refuse(f"import {args[0]}")
        if not args or not isinstance(args[0], (str, bytes)):
            return
        if event in ("open", "os.listdir", "os.scandir") or event in CHANGING_EVENTS:
            path = realpath(fsdecode(args[0]))
            if any(inside(path, r) for r in roots):
                refuse(f"access to {args[0]!r}")
            writing = event in CHANGING_EVENTS or (event == "open" and (
                (isinstance(args[1], str) and any(c in args[1] for c in "wax+"))
                or (isinstance(args[2], int) and args[2] & WRITE_FLAGS)))
            if writing and not inside(path, own):
                refuse(f"writing {args[0]!r} outside the scratch folder")

    for name in list(sys.modules):  # loaded for the references: forget them
        if closed_module(name):
            del sys.modules[name]
            parent, _, child = name.rpartition(".")
            if parent in sys.modules and hasattr(sys.modules[parent], child):
                delattr(sys.modules[parent], child)
    sys.addaudithook(hook)
    return refused


def write(outdir, result):
    tmp = os.path.join(outdir, "result.json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f)
    os.replace(tmp, os.path.join(outdir, "result.json"))


if __name__ == "__main__":
    main(sys.argv[1])
    # Not a normal exit: that would wait for any thread learner code left running.
    os._exit(0)

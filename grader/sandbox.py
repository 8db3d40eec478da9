"""Running learners' exercises in isolated processes with limits.

One batch has one private workspace (0700): a folder with copies of the few
files the grading process needs (_zygote.py, wire.py, the course's config.py),
each exercise's test inputs written once (cases/<exercise>/), and one private
folder per learner. Each learner gets one warm grading process (the zygote,
see _zygote.py) that sees only the Python installation, those copies, the
cases and its own folder; it forks a fresh child per exercise. With
``--isolation namespaces`` the zygote runs under bubblewrap in its own user,
mount, PID and network namespaces, so nothing else exists for it; with
``python`` the same rules are kept by an audit hook inside the child.

What crosses the boundary: into the child, the learner's definition cells
(text), the exercise name, the reference pieces it uses (as source) and the
test inputs (.npy); out of it, result.json and .npy files, decoded by
wire.decode into plain data. Scores are computed in this process, never there.
"""
from __future__ import annotations

import ast
import inspect
import json
import os
import re
import selectors
import shutil
import signal
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from . import wire
from .judge import Broken, ChangedInputs, NotAttempted, Raised

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ZYGOTE_FILES = {"_zygote.py": HERE / "_zygote.py", "wire.py": HERE / "wire.py"}
# Named in refusals for a clear message; the real protection is that they are not there.
CLOSED_MODULES = ("grader", "solutions", "gpt2course.numpy_gpt", "gpt2course.loading",
                  "gpt2course.student")
MAX_RESULT_BYTES = 64 * 2**20
ISOLATIONS = ("auto", "namespaces", "python")
# Learner cells that import torch get it preloaded by their grading process (see _zygote).
TORCH_IMPORT = re.compile(r"^\s*(import torch|from torch\b)", re.M)


@dataclass(frozen=True)
class Limits:
    wall_s: float = 60.0          # per exercise
    submission_s: float = 600.0   # per learner, all exercises together
    cpu_s: int = 60
    memory_bytes: int = 3 * 2**30
    file_bytes: int = 64 * 2**20  # also caps what learner code can print
    output_bytes: int = 20_000    # of stdout/stderr kept for the report


@dataclass
class ChildRun:
    answers: list
    cell_errors: list[dict] = field(default_factory=list)
    found: bool = False
    refused: list[str] = field(default_factory=list)
    problem: str | None = None    # why the run as a whole failed, if it did


def rlimits(limits: Limits) -> dict[str, int]:
    return {"RLIMIT_AS": limits.memory_bytes, "RLIMIT_CPU": limits.cpu_s,
            "RLIMIT_FSIZE": limits.file_bytes, "RLIMIT_CORE": 0}


def child_env(home: str) -> dict[str, str]:
    """No credentials, no inherited configuration: just enough to run NumPy."""
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TMPDIR": home,
           "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg"}
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):  # needed on some CPUs here
        if var in os.environ:
            env[var] = os.environ[var]
    return env


# ----------------------------------------------------------------- what the child may see
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

    return [str(HERE), str(Path(gpt2course.__file__).resolve().parent), str(ROOT / "solutions")]


def pieces_source(functions: dict) -> list[dict]:
    """The reference pieces an exercise uses, as source: only those functions, what
    they call and the constants they read, never their module (nothing else of the
    reference exists in the child's memory)."""
    by_module: dict[str, dict] = {}
    for name, fn in functions.items():
        by_module.setdefault(fn.__module__, {})[name] = fn.__name__
    return [{"source": _module_slice(sys.modules[m], set(exports.values())), "exports": exports}
            for m, exports in by_module.items()]


def _module_slice(module, wanted: set[str]) -> str:
    tree = ast.parse(inspect.getsource(module))
    defines: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defines[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    defines[target.id] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0) \
                and getattr(node, "module", None) != "__future__":
            for alias in node.names:
                defines[(alias.asname or alias.name).split(".")[0]] = node
    needed, todo = set(), list(wanted)
    while todo:
        node = defines.get(todo.pop())
        if node is None or id(node) in needed:
            continue
        needed.add(id(node))
        todo += [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    kept = [node for node in tree.body if id(node) in needed]
    for node in kept:  # annotations may name classes the slice leaves out
        if isinstance(node, ast.FunctionDef):
            node.returns = None
            for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
                a.annotation = None
    return ast.unparse(ast.Module(body=kept, type_ignores=[])) + "\n"


def reference_functions(exercise, registry) -> dict:
    return {name: registry.get(name).reference for name in exercise.uses}


# ----------------------------------------------------------------- isolation
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


# ----------------------------------------------------------------- the batch's workspace
class Workspace:
    """The batch's private folder: the zygote's files, the cases, the learners' folders."""

    def __init__(self, limits: Limits, isolation: str = "python"):
        self.limits, self.isolation = limits, isolation
        self.root = Path(tempfile.mkdtemp(prefix="gpt2-grading-"))  # 0700, unpredictable
        self.zygote_dir = self.root / "zygote"
        self.zygote_dir.mkdir()
        for name, src in ZYGOTE_FILES.items():
            shutil.copyfile(src, self.zygote_dir / name)
        import gpt2course.config

        shutil.copyfile(gpt2course.config.__file__, self.zygote_dir / "config.py")
        self.cases_dir = self.root / "cases"
        self.cases_dir.mkdir()
        self._lock = threading.Lock()
        self.written: dict[str, Path] = {}

    def cases(self, name: str, cases) -> Path:
        """Each exercise's inputs, written once per batch."""
        with self._lock:
            if name not in self.written:
                folder = self.cases_dir / name
                folder.mkdir()
                enc = wire.Encoder(str(folder), "c")
                (folder / "cases.json").write_text(json.dumps([enc(c.args) for c in cases]))
                enc.close()
                self.written[name] = folder
            return self.written[name]

    def learner(self) -> "LearnerSandbox":
        return LearnerSandbox(self)

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


class LearnerSandbox:
    """One learner's warm grading process; one fresh forked child per exercise."""

    def __init__(self, workspace: Workspace):
        self.ws = workspace
        self.root = Path(tempfile.mkdtemp(prefix="learner-", dir=workspace.root))
        self.proc: subprocess.Popen | None = None
        self.errors = None
        self.buffer = b""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # the zygote
    def _setup(self) -> Path:
        ws = self.ws
        setup = {"sys_path": [p for p in sys.path if p and os.path.isdir(p) and
                              os.path.realpath(p) in python_dirs()] or python_dirs(),
                 "rlimits": rlimits(ws.limits), "closed_modules": list(CLOSED_MODULES),
                 "hidden": private_dirs(),
                 "read_roots": python_dirs() + [str(ws.zygote_dir), str(ws.cases_dir)]}
        path = self.root / "setup.json"
        path.write_text(json.dumps(setup))
        return path

    def _command(self, setup: Path) -> list[str]:
        python = [sys.executable, "-I", "-S", str(self.ws.zygote_dir / "_zygote.py"), str(setup)]
        if self.ws.isolation != "namespaces":
            return python
        return bwrap_command(self.ws, self.root) + python

    def _start(self) -> None:
        setup = self._setup()
        self.errors = open(self.root / "zygote.stderr", "wb")
        self.proc = subprocess.Popen(self._command(setup), cwd=self.root, env=child_env(str(self.root)),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors,
                                     start_new_session=True)
        self.buffer = b""

    def close(self) -> None:
        self.close_process()
        shutil.rmtree(self.root, ignore_errors=True)

    def _ask(self, request: dict, timeout: float) -> dict | None:
        """Send one request; the zygote's one-line answer, or None (dead or silent)."""
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None:
                self.close_process()
            self._start()
        try:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            self.close_process()
            return None
        line = self._read_line(timeout)
        if line is None:
            self.close_process()
            return None
        try:
            reply = json.loads(line)
        except ValueError:
            self.close_process()
            return None
        return reply if isinstance(reply, dict) else None

    def _read_line(self, timeout: float) -> bytes | None:
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            deadline = _now() + timeout
            while b"\n" not in self.buffer:
                left = deadline - _now()
                if left <= 0 or not sel.select(left):
                    return None
                chunk = os.read(fd, 65536)
                if not chunk or len(self.buffer) > 2**20:
                    return None
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def close_process(self) -> None:
        if self.proc is not None:
            _kill_group(self.proc.pid)
            self.proc.wait()
            for stream in (self.proc.stdout, self.proc.stdin, self.errors):
                stream.close()
            self.proc = None

    # one exercise
    def run(self, cells, name: str, cases_dir: Path, n_cases: int, pieces: list[dict],
            limits: Limits) -> ChildRun:
        job = Path(tempfile.mkdtemp(prefix="job-", dir=self.root))
        for sub in ("out", "scratch"):
            (job / sub).mkdir()
        spec = {"cells": [{"index": c.index, "source": c.source} for c in cells],
                "function": name, "pieces": pieces}
        (job / "job.json").write_text(json.dumps(spec), encoding="utf-8")
        preload = ["torch"] if any(TORCH_IMPORT.search(c.source) for c in cells) else []
        reply = self._ask({"job": str(job), "cases": str(cases_dir), "wall_s": limits.wall_s,
                           "preload": preload}, timeout=limits.wall_s + 30)
        run = _collect(job, n_cases)
        if reply is None:
            run.problem = run.problem or "the grading process stopped answering (it was restarted)"
            return run
        run.refused = [str(r)[:200] for r in reply.get("refused", []) if isinstance(r, str)][:20]
        _explain_exit(run, reply.get("status"), reply.get("timed_out") is True, limits, job, n_cases)
        return run


def bwrap_command(ws: Workspace, learner_root: Path) -> list[str]:
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


def _now() -> float:
    import time

    return time.monotonic()


def _kill_group(pid: int) -> None:
    """End the process and anything it spawned in its process group."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _collect(job: Path, n_cases: int) -> ChildRun:
    """The child's result.json and arrays, read as a stranger's data: a regular file
    (never a link or a FIFO), of bounded size, every field checked."""
    try:
        text = _read_regular(job / "out" / "result.json", MAX_RESULT_BYTES)
        raw = json.loads(text) if text is not None else None
    except (ValueError, RecursionError):
        return ChildRun([], problem="the grading process returned malformed data")
    except OSError as exc:
        return ChildRun([], problem=str(exc) if isinstance(exc, TooLarge) else None)
    if raw is None:
        return ChildRun([])
    if not isinstance(raw, dict) or not isinstance(raw.get("answers", []), list) \
            or not isinstance(raw.get("cell_errors", []), list):
        return ChildRun([], problem="the grading process returned malformed data")
    load = wire.folder_loader(str(job / "out"))
    answers = []
    for tree in raw.get("answers", [])[:n_cases]:
        try:
            answers.append(_answer(tree, load))
        except (ValueError, TypeError, RecursionError, OverflowError, MemoryError):
            answers.append(Broken("its answer could not be read"))
    errors = [e for e in raw.get("cell_errors", []) if isinstance(e, dict)][:50]
    return ChildRun(answers, errors, raw.get("found") is True)


class TooLarge(OSError):
    pass


def _read_regular(path: Path, limit: int) -> str | None:
    """None when there is no such file; never blocks, never follows a link."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        if info.st_size > limit:
            raise TooLarge("the answers were too large to read")
        return f.read(limit).decode("utf-8", "replace")


def _answer(tree, load):
    if not isinstance(tree, dict):
        return Broken("malformed answer")
    if tree.get("not_implemented") is True:
        return NotAttempted()
    if isinstance(tree.get("changed_inputs"), list):
        return ChangedInputs(tuple(str(n)[:50] for n in tree["changed_inputs"][:10]))
    for key in ("raised", "unencodable"):
        if isinstance(tree.get(key), dict):
            e = tree[key]
            bases = tuple(str(b) for b in e.get("bases", []) if isinstance(b, str))[:30]
            raised = Raised(str(e.get("type", "?"))[:100], bases, str(e.get("message", ""))[:2000])
            if key == "unencodable":
                return Broken(f"its return value could not be read ({raised.describe()})")
            return raised
    if "value" in tree:
        return wire.decode(tree["value"], load)
    return Broken("malformed answer")


def _explain_exit(run: ChildRun, code, timed_out: bool, limits: Limits, job: Path,
                  n_cases: int) -> None:
    if run.problem:
        return
    if not isinstance(code, int):
        code = None
    if timed_out:
        run.problem = f"timed out after {limits.wall_s:g} s (an infinite loop, or far too slow)"
    elif code is not None and code < 0:
        sig = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else -code
        run.problem = {
            "SIGXCPU": f"used more than {limits.cpu_s} s of CPU time",
            "SIGXFSZ": "wrote or printed far too much output",
            "SIGKILL": "was killed (memory limit, or too much output)",
        }.get(sig, f"crashed (signal {sig})")
    elif run.found is False and code not in (0, None) and not run.cell_errors:
        tail = _tail(job / "stderr", limits.output_bytes)
        last = tail.strip().splitlines()[-1] if tail.strip() else f"exit code {code}"
        run.problem = f"the grading process stopped early ({last[:300]})"
    elif run.found and (code not in (0, None) or len(run.answers) < n_cases):
        run.problem = f"the learner's code ended the process early (exit code {code})"


def _tail(path: Path, n: int) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return ""
        f.seek(max(0, info.st_size - n))
        return f.read(n).decode("utf-8", "replace")

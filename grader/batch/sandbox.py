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
test inputs (one .bin of arrays); out of it, result.json and a .bin, decoded by
wire.decode into plain data. Scores are computed in this process, never there.
"""
from __future__ import annotations

import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from ..judging import wire
from .isolation import bwrap_command, private_dirs, python_dirs
from .results import ChildRun, collect, explain_exit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ZYGOTE_FILES = {"_zygote.py": HERE / "_zygote.py", "wire.py": HERE.parent / "judging" / "wire.py"}
# Named in refusals for a clear message; the real protection is that they are not there.
CLOSED_MODULES = ("grader", "solutions", "gpt2course.numpy_gpt", "gpt2course.loading",
                  "gpt2course.student")
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
        run = collect(job, n_cases)
        if reply is None:
            run.problem = run.problem or "the grading process stopped answering (it was restarted)"
            return run
        run.refused = [str(r)[:200] for r in reply.get("refused", []) if isinstance(r, str)][:20]
        explain_exit(run, reply.get("status"), reply.get("timed_out") is True, limits, job, n_cases)
        return run


def _now() -> float:
    import time

    return time.monotonic()


def _kill_group(pid: int) -> None:
    """End the process and anything it spawned in its process group."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass



"""Running learners' exercises behind walls, with limits per learner.

One batch has one private workspace (0700) holding copies of the few files a grading
process needs (_zygote.py, _walls.py, _hook.py, frames.py, wire.py, the course's
config.py). Each learner gets one warm grading process (a zygote, see _zygote.py)
behind the walls isolation.py builds, in control groups of its own (cgroups.py) where
the machine allows; it forks a fresh child per exercise, which raises its own walls
before learner code runs. The earlier exercises a composite one uses are answered by
an oracle: another zygote, of the grader's, whose children run the reference pieces
and reply with plain data, so no reference code enters a learner's process.

Nothing crosses by name: the grader hands a child anonymous memory files and pipes
(frames.py) and reads its results from them after it has ended, as a stranger's data
(results.py). The learner's writable space is a tmpfs inside its own namespaces that
the grader never opens.
"""
from __future__ import annotations

import json
import os
import queue
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from ..judging import wire
from . import frames
from .cgroups import Cgroups, fallback_description
from .isolation import INSIDE, bwrap_command, learner_uids, private_dirs, privileged, python_dirs
from .results import ChildRun, collect, explain_exit

HERE = Path(__file__).resolve().parent
ZYGOTE_FILES = {"_zygote.py": HERE / "_zygote.py", "_walls.py": HERE / "_walls.py", "_hook.py": HERE / "_hook.py",
                "frames.py": HERE / "frames.py", "wire.py": HERE.parent / "judging" / "wire.py"}
# Named in refusals for a clear message; the real protection is that they are not there.
CLOSED_MODULES = ("grader", "solutions", "gpt2course.numpy_gpt", "gpt2course.loading",
                  "gpt2course.student")
# Learner cells that import torch get it preloaded by their grading process (see _zygote).
TORCH_IMPORT = re.compile(r"^\s*(import torch|from torch\b)", re.M)
ZYGOTE_MEMORY = 1536 * 2**20   # what a grading process with NumPy and torch loaded may hold itself


@dataclass(frozen=True)
class Limits:
    wall_s: float = 60.0          # per exercise
    submission_s: float = 600.0   # per learner, all exercises together
    cpu_s: int = 60
    memory_bytes: int = 3 * 2**30
    file_bytes: int = 64 * 2**20  # also caps what learner code can print
    output_bytes: int = 20_000    # of stdout/stderr kept for the report
    scratch_bytes: int = 64 * 2**20  # the private tmpfs of one exercise
    threads: int = 64             # tasks per learner (a pids group), or threads per exercise


def rlimits(limits: Limits) -> dict[str, int]:
    return {"RLIMIT_AS": limits.memory_bytes, "RLIMIT_CPU": limits.cpu_s, "RLIMIT_FSIZE": limits.file_bytes,
            "RLIMIT_CORE": 0, "RLIMIT_NPROC": limits.threads, "RLIMIT_NOFILE": 256}


def child_env() -> dict[str, str]:
    """No credentials, no inherited configuration: just enough to run NumPy."""
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "TMPDIR": "/tmp",
           "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg"}
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):  # needed on some CPUs here
        if var in os.environ:
            env[var] = os.environ[var]
    return env


# ----------------------------------------------------------------- the batch's workspace
class Workspace:
    """The batch's private folder of the grading processes' files, its identities, its
    control groups and its oracles."""

    def __init__(self, limits: Limits, isolation: str = "namespaces", slots: int = 1, uid_block: int = 0):
        """``uid_block``: which block of learner uids (2 * slots + 1 each) is this workspace's,
        so workspaces of several processes on one machine (cluster workers) never share one."""
        self.limits, self.isolation = limits, isolation
        self.root = Path(tempfile.mkdtemp(prefix="gpt2-grading-"))  # 0700, unpredictable
        self.zygote_dir = self.root / "zygote"
        self.zygote_dir.mkdir(mode=0o755)
        os.chmod(self.zygote_dir, 0o755)
        for name, src in ZYGOTE_FILES.items():
            shutil.copyfile(src, self.zygote_dir / name)
        import gpt2course.config

        shutil.copyfile(gpt2course.config.__file__, self.zygote_dir / "config.py")
        walled = isolation == "namespaces"
        self.cgroups = Cgroups.create() if walled and privileged() else None
        self.uids: queue.Queue = queue.Queue()
        block = 2 * slots + 1
        for uid in learner_uids(block * (uid_block + 1))[block * uid_block:] if walled and privileged() else []:
            self.uids.put(uid)
        self.oracles: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._cases: dict[str, tuple[list, bytes]] = {}

    def inside(self, name: str) -> str:
        return f"{INSIDE}/{name}" if self.isolation == "namespaces" else str(self.zygote_dir / name)

    def encoded_cases(self, name: str, cases) -> tuple[list, bytes]:
        """Each exercise's inputs, encoded once per batch (trees and one blob)."""
        with self._lock:
            if name not in self._cases:
                blob = bytearray()
                enc = wire.Encoder(None, blob=blob)
                self._cases[name] = ([enc(c.args) for c in cases], bytes(blob))
            return self._cases[name]

    def describe(self) -> dict:
        """What held learner code in, for report.json."""
        lim = self.limits
        if self.isolation != "namespaces":
            return {"isolation": "python", "boundary": "none: an audit hook only (not a security boundary)"}
        identity = ("an unprivileged user id per parallel slot (no groups, no capabilities)" if privileged()
                    else "your own user, as uid 1000 in a user namespace, with no capabilities")
        limits = (self.cgroups.describe(lim.memory_bytes + ZYGOTE_MEMORY, lim.threads) if self.cgroups
                  else fallback_description(lim.memory_bytes, lim.threads))
        return {"isolation": "namespaces", "identity": identity,
                "namespaces": "mount, PID, network (none), IPC, UTS; the Python installation read-only",
                "system_calls": "seccomp: no new programs or processes, no signals to others, no ptrace, "
                                "mounts, sockets, device nodes, FIFOs or extended attributes",
                "scratch": f"a private tmpfs of {lim.scratch_bytes // 2**20} MiB per exercise",
                "time": f"{lim.wall_s:g} s per exercise, {lim.submission_s:g} s per learner",
                **limits}

    def learner(self) -> "LearnerSandbox":
        return LearnerSandbox(self)

    def oracle(self) -> "Zygote":
        try:
            return self.oracles.get_nowait()
        except queue.Empty:
            return Zygote(self, "oracle", self._uid(), None)

    def give_back(self, oracle: "Zygote") -> None:
        if oracle.alive():
            self.oracles.put(oracle)
        else:
            oracle.close()

    def _uid(self) -> int | None:
        return self.uids.get() if self.isolation == "namespaces" and privileged() else None

    def close(self) -> None:
        while not self.oracles.empty():
            self.oracles.get_nowait().close()
        if self.cgroups:
            self.cgroups.close()
        shutil.rmtree(self.root, ignore_errors=True)


# ----------------------------------------------------------------- one grading process
class Zygote:
    """A warm grading process behind the walls; requests go in over a Unix socket."""

    def __init__(self, ws: Workspace, role: str, uid: int | None, group):
        self.ws, self.role, self.uid, self.group = ws, role, uid, group
        self.preloaded: set[str] = set()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock, self.errors = ours, frames.memfd("zygote-stderr")
        cmd = [sys.executable, "-I", "-S", ws.inside("_zygote.py"), str(theirs.fileno())]
        if ws.isolation == "namespaces":
            cmd = bwrap_command(ws.zygote_dir) + cmd
        if group is not None:  # into its control groups before it can fork anything
            cmd = ["/bin/sh", "-c", 'for f in "$@"; do [ "$f" = -- ] && break; echo $$ > "$f"; shift; done; '
                                    'shift; exec "$@"', "sh", *group.procs, "--", *cmd]
        self.proc = subprocess.Popen(cmd, pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.errors, env=child_env(),
                                     cwd="/", start_new_session=True)
        theirs.close()
        self._send(self._setup(), [])

    def _setup(self) -> dict:
        ws, walled = self.ws, self.ws.isolation == "namespaces"
        own = "/tmp" if walled else str(ws.root)  # python mode: each job's own folder, set per request
        roots = python_dirs() + [INSIDE if walled else str(ws.zygote_dir)]
        return {"sys_path": [p for p in sys.path if p and os.path.isdir(p) and
                             os.path.realpath(p) in python_dirs()] or python_dirs(),
                "mode": ws.isolation, "uid": self.uid, "rlimits": rlimits(ws.limits),
                "scratch_bytes": ws.limits.scratch_bytes, "closed_modules": list(CLOSED_MODULES),
                "hidden": private_dirs(), "read_roots": roots, "own": own}

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _send(self, request: dict, fds: list[int]) -> bool:
        try:
            socket.send_fds(self.sock, [json.dumps(request).encode()], fds)
            return True
        except OSError:
            return False

    def ask(self, request: dict, fds: list[int], timeout: float) -> dict | None:
        """Send one request with its descriptors; the one-line answer, or None."""
        return self.answer(timeout) if self._send(request, fds) else None

    def answer(self, timeout: float) -> dict | None:
        if not select.select([self.sock], [], [], timeout)[0]:
            return None
        try:
            data = self.sock.recv(1 << 16)
            reply = json.loads(data) if data else None
        except (OSError, ValueError):
            return None
        return reply if isinstance(reply, dict) else None

    def preload(self, names: set[str]) -> None:
        todo = names - self.preloaded
        if todo and self.ask({"op": "preload", "names": sorted(todo)}, [], 120) is not None:
            self.preloaded |= todo

    def stderr_tail(self, n: int = 2000) -> str:
        return frames.read_tail(self.errors, n)

    def close(self) -> None:
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()
            self.proc = None
        self.sock.close()
        os.close(self.errors)
        if self.uid is not None:
            self.ws.uids.put(self.uid)
            self.uid = None


# ----------------------------------------------------------------- one learner
class LearnerSandbox:
    """One learner's grading process (started on first use) and its control groups."""

    def __init__(self, workspace: Workspace):
        self.ws = workspace
        lim = workspace.limits
        self.group = workspace.cgroups.learner(lim.memory_bytes + ZYGOTE_MEMORY, lim.threads) \
            if workspace.cgroups else None
        self.zygote: Zygote | None = None
        self.uid = workspace._uid()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _zygote(self) -> Zygote:
        if self.zygote is None or not self.zygote.alive():
            if self.zygote is not None:
                self.zygote.uid = None  # the uid stays with this learner
                self.zygote.close()
            self.zygote = Zygote(self.ws, "learner", self.uid, self.group)
        return self.zygote

    def close(self) -> None:
        if self.zygote is not None:
            self.zygote.uid = None
            self.zygote.close()
            self.zygote = None
        if self.group is not None:
            self.group.remove()
        if self.uid is not None:
            self.ws.uids.put(self.uid)
            self.uid = None

    def run(self, cells, name: str, cases, pieces: list[dict], uses: tuple, limits: Limits) -> ChildRun:
        """Grade one exercise in a fresh child; its answers, read back as a stranger's data."""
        trees, blob = self.ws.encoded_cases(name, cases)
        job = frames.frame({"cells": [{"index": c.index, "source": c.source} for c in cells],
                            "function": name, "uses": list(uses) if pieces else [], "cases": trees}, blob)
        zygote = self._zygote()
        zygote.preload({"torch"} if any(TORCH_IMPORT.search(c.source) for c in cells) else set())
        with Job(self.ws, job, pieces) as j:
            reply = zygote.ask({"op": "run", "role": "learner", "wall_s": limits.wall_s, "fds": j.names,
                                "scratch": j.scratch}, j.fds, timeout=limits.wall_s + 30)
            j.end_calls()
            run = collect(j.result, len(cases))
            tail = frames.read_tail(j.output, limits.output_bytes)
            run.refused = _refusals(j.log)
        if reply is None:
            zygote.close()
            self.zygote = None
            run.problem = run.problem or "the grading process stopped answering (it was restarted)"
            return run
        explain_exit(run, reply.get("status"), reply.get("timed_out") is True, limits, tail, len(cases))
        return run


class Job:
    """One exercise's descriptors: the sealed job, the results and output files, the
    refusal log and, for a composite exercise, the oracle's pipes and its child."""

    def __init__(self, ws: Workspace, job: bytes, pieces: list[dict]):
        self.ws, self.oracle, self.opened, self.scratch = ws, None, [], None
        self.job = self._keep(frames.sealed("job", job))
        self.result, self.output, self.log = (self._keep(frames.memfd(n)) for n in ("result", "output", "log"))
        self.fds, self.names = [self.job, self.result, self.output, self.log], ["job", "result", "output", "log"]
        if ws.isolation != "namespaces":
            self.scratch = tempfile.mkdtemp(dir=ws.root, prefix="scratch-")
        if pieces:
            self._start_oracle(pieces)

    def _keep(self, fd: int) -> int:
        self.opened.append(fd)
        return fd

    def _start_oracle(self, pieces: list[dict]) -> None:
        call_r, call_w = os.pipe()
        answer_r, answer_w = os.pipe()
        oracle_job = frames.sealed("oracle-job", frames.frame({"pieces": pieces}))
        out, log = frames.memfd("oracle-output"), frames.memfd("oracle-log")
        self.oracle = self.ws.oracle()
        sent = self.oracle._send({"op": "run", "role": "oracle", "wall_s": self.ws.limits.wall_s + 5,
                                  "fds": ["job", "output", "log", "call", "answer"],
                                  "scratch": self.scratch}, [oracle_job, out, log, call_r, answer_w])
        for fd in (oracle_job, out, log, call_r, answer_w):
            os.close(fd)  # only the oracle's child holds these now
        self.opened += [call_w, answer_r]
        self.fds += [call_w, answer_r]
        self.names += ["call", "answer"]
        if not sent:
            self.oracle.close()
            self.oracle = None

    def end_calls(self) -> None:
        """The learner's child has ended: its end of the oracle's pipes closes with ours."""
        for fd in self.fds[4:]:
            os.close(fd)
            self.opened.remove(fd)
        del self.fds[4:]
        if self.oracle is not None:
            if self.oracle.answer(timeout=self.ws.limits.wall_s + 10) is None:
                self.oracle.close()
            else:
                self.ws.give_back(self.oracle)
            self.oracle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.oracle is not None:
            self.oracle.close()
        for fd in self.opened:
            os.close(fd)
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)


def _refusals(fd: int) -> list[str]:
    """The refusal log's first lines (learner code may write there too: it is only text)."""
    text = os.pread(fd, 65536, 0).decode("utf-8", "replace")
    return [line[:200] for line in text.splitlines() if line][:20]

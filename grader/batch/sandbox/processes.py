"""The grader's side of one grading process (Zygote) and of one exercise's descriptors (Job).

A Zygote is a warm process behind the walls (see inside/zygote.py for its side): requests go
in over a Unix socket with their descriptors, one JSON line comes back. A Job holds what
one exercise hands over: the sealed job, its results, output and refusal log as memory
files, and, for a composite exercise, the oracle's pipes and child.
"""
from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
from .inside import frames
from .inside.hook import REFUSAL_KINDS
from .isolation import INSIDE, bwrap_command, private_dirs, python_dirs
from .limits import SCRATCH, child_env, rlimits

# Imported by each grading process before it forks any child, inherited by every child: NumPy
# (wire.py's and learner code's), and numpy.random, which NumPy imports only when it is first used
# (wire.same_value asks for np.random.Generator on every answer): once here, not in every child
# (~20 ms each).
PRELOAD = ("numpy", "numpy.random")
# Named in refusals for a clear message; the real protection is that they are not there.
CLOSED_MODULES = ("grader", "solutions", "gpt2course.numpy_gpt", "gpt2course.state_dicts")


class Zygote:
    """A warm grading process behind the walls; requests go in over a Unix socket."""

    def __init__(self, ws, role: str, uid: int | None, group):  # ws: the batch's workspace.Workspace
        self.ws, self.role, self.uid, self.group = ws, role, uid, group
        self.preloaded: set[str] = set()
        self.tree: set[int] | bool = False   # its own processes (pids in its groups), once it answers
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock, self.errors = ours, frames.memfd("zygote-stderr")
        cmd = [sys.executable, "-I", "-S", ws.inside("zygote.py"), str(theirs.fileno())]
        if ws.isolation == "namespaces":
            cmd = bwrap_command(ws.zygote_dir) + cmd
        if group is not None:  # into its control groups before it can fork anything
            cmd = ["/bin/sh", "-c", 'for f in "$@"; do [ "$f" = -- ] && break; echo $$ > "$f"; shift; done; '
                                    'shift; exec "$@"', "sh", *group.procs, "--", *cmd]
        self.proc = subprocess.Popen(cmd, pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.errors, env=child_env(),
                                     cwd="/", start_new_session=True)
        theirs.close()
        ws.live.add(self)
        if ws.stopping:   # Ctrl-C came while this one started: stop() did not see it in `live`
            self.kill()
        self._send(self._setup(), [])

    def kill(self) -> None:
        """Killed from another thread (Ctrl-C): the thread that owns it sees it stop answering
        and closes it as usual."""
        proc = self.proc
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def _setup(self) -> dict:
        ws, walled = self.ws, self.ws.isolation == "namespaces"
        own = SCRATCH if walled else str(ws.root)  # python mode: each job's own folder, set per request
        roots = python_dirs() + [INSIDE if walled else str(ws.zygote_dir)]
        return {"sys_path": [p for p in sys.path if p and os.path.isdir(p) and
                             os.path.realpath(p) in python_dirs()] or python_dirs(),
                "mode": ws.isolation, "uid": self.uid, "rlimits": rlimits(ws.limits),
                "scratch_bytes": ws.limits.scratch_bytes, "closed_modules": list(CLOSED_MODULES),
                "hidden": private_dirs(), "read_roots": roots, "own": own, "preload": list(PRELOAD)}

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

    def ping(self) -> bool:
        """Whether it answers (a preload of nothing)."""
        return self.ask({"op": "preload", "names": []}, [], 60) is not None

    def preload(self, names: set[str]) -> None:
        todo = names - self.preloaded
        if todo and self.ask({"op": "preload", "names": sorted(todo)}, [], 120) is not None:
            self.preloaded |= todo

    def stderr_tail(self, n: int = 2000) -> str:
        return frames.read_tail(self.errors, n)

    def close(self) -> None:
        self.ws.live.discard(self)
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


class Job:
    """One exercise's descriptors: the sealed job, the results and output files, the
    refusal log and, for a composite exercise, the oracle's pipes and its child."""

    def __init__(self, ws, job: bytes, pieces: list[dict], group=None, wall_s: float | None = None,
                 uid: int | None = None):
        """``ws``: the batch's workspace.Workspace; ``group``: the learner's control groups
        (cgroups.Group, or None), which the oracle's child joins; ``wall_s``: the exercise's
        time limit, the oracle child's too; ``uid``: the learner child's user id (its folder's
        owner under --isolation uid)."""
        self.ws, self.oracle, self.opened, self.scratch = ws, None, [], None
        self.folders: list[str] = []  # the children's own folders (python and uid modes), removed at the end
        self.oracle_reply: dict | None = None   # how the oracle's child ended (end_calls); lost: unknown
        self.job = self._keep(frames.sealed("job", job))
        self.result, self.output, self.log = (self._keep(frames.memfd(n)) for n in ("result", "output", "log"))
        self.fds, self.names = [self.job, self.result, self.output, self.log], ["job", "result", "output", "log"]
        if ws.isolation != "namespaces":
            self.scratch = ws.scratch(uid)
            self.folders.append(self.scratch)
        if pieces:
            self._start_oracle(pieces, group, ws.limits.wall_s if wall_s is None else wall_s)

    def _keep(self, fd: int) -> int:
        self.opened.append(fd)
        return fd

    def _start_oracle(self, pieces: list[dict], group, wall_s: float) -> None:
        """The oracle's child for this exercise. It computes on the learner's inputs, so it is
        the learner's to pay for: it joins the learner's control groups (``group``: their
        cgroup.procs, opened here, written by the child before it runs anything), and it has
        the exercise's time limit (plus one second: it starts just before the learner's
        child and must outlive its last call). Without groups it has a learner child's
        rlimits, as every child of a grading process has."""
        call_r, call_w = os.pipe()
        answer_r, answer_w = os.pipe()
        oracle_job = frames.sealed("oracle-job", frames.frame({"pieces": pieces}))
        out, log = frames.memfd("oracle-output"), frames.memfd("oracle-log")
        joins = [os.open(procs, os.O_WRONLY | os.O_CLOEXEC) for procs in group.procs] if group else []
        self.oracle = self.ws.oracle()
        scratch = self.scratch
        if self.ws.isolation == "uid":  # a folder of its own uid's: the learner's is not its to enter
            scratch = self.ws.scratch(self.oracle.uid)
            self.folders.append(scratch)
        sent = self.oracle._send({"op": "run", "role": "oracle", "wall_s": wall_s + 1,
                                  "fds": ["job", "output", "log", "call", "answer"] + ["group"] * len(joins),
                                  "scratch": scratch}, [oracle_job, out, log, call_r, answer_w, *joins])
        for fd in (oracle_job, out, log, call_r, answer_w, *joins):
            os.close(fd)  # only the oracle's child holds these now
        self.opened += [call_w, answer_r]
        self.fds += [call_w, answer_r]
        self.names += ["call", "answer"]
        if not sent:
            self.oracle.close()
            self.oracle, self.oracle_reply = None, {"lost": True}

    def end_calls(self) -> None:
        """The learner's child has ended: its end of the oracle's pipes closes with ours."""
        for fd in self.fds[4:]:
            os.close(fd)
            self.opened.remove(fd)
        del self.fds[4:]
        if self.oracle is not None:
            self.oracle_reply = self.oracle.answer(timeout=self.ws.limits.wall_s + 10)
            if self.oracle_reply is None:
                self.oracle_reply = {"lost": True}
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
        for folder in self.folders:
            shutil.rmtree(folder, ignore_errors=True)


MAX_REFUSALS = 1000  # lines of the refusal log read: a count, never a bound on what is said


def refusals(fd: int) -> list[str]:
    """The kinds of refusal the log names, in order, one per refusal. Learner code may write
    there too, so a line counts only when it is exactly one of the hook's kinds (the grader's
    own words); any other line is dropped unread, so no byte of it reaches the feedback."""
    text = os.pread(fd, 64 * MAX_REFUSALS, 0).decode("ascii", "replace")
    return [line for line in text.splitlines()[:MAX_REFUSALS] if line in REFUSAL_KINDS]

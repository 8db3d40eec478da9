"""Running learners' exercises behind walls, with limits per learner.

One batch has one private workspace (0700) holding copies of the few files a grading
process needs (every file of inside/: zygote.py, harness.py, walls.py, syscalls.py,
hook.py, frames.py; and judging/wire.py, the course's config.py). Each grading slot
(``--jobs``) has one warm grading process (a zygote, see inside/zygote.py) behind the walls
isolation.py builds, in control groups of its own (cgroups.py) where the machine allows;
it forks a fresh child per exercise, which raises its own walls before learner code runs.
The zygote never runs learner code and runs one child at a time, so its groups hold one
learner's processes at a time (the one exercise running) and the limits on them are per
learner; it grades the slot's next learner only if, once the last exercise has ended, its
groups hold exactly the processes they held before any exercise (else it is killed with
whatever is left, and the next learner gets a fresh one). The earlier exercises a
composite one uses are answered by an oracle: another zygote, of the grader's, whose
children run the reference pieces and reply with plain data, so no reference code enters a
learner's process. What an oracle's child computes is the learner's inputs' doing, so it
runs in that learner's control groups and time limit (processes.Job).

Nothing crosses by name: the grader hands a child anonymous memory files and pipes
(inside/frames.py) and reads its results from them after it has ended, as a stranger's data
(results.py). The learner's writable space is a tmpfs inside its own namespaces that
the grader never opens.
"""
from __future__ import annotations

import importlib.util
import os
import queue
import re
import shutil
import signal
import tempfile
import threading
from pathlib import Path

from ...judging import wire
from ...judging.outcomes import Broken
from .cgroups import Cgroups, fallback_description
from .inside import frames
from .isolation import INSIDE, INSIDE_DIR, learner_uids, privileged
from .limits import Limits
from .processes import Job, Zygote, refusals
from .results import ChildRun, collect, explain_exit, in_own_words

# What is copied into the sandbox's /grader folder (with the course's config.py): every file
# of inside/ (a new one there is copied too) and the values' encoding, judging/wire.py.
ZYGOTE_FILES = {p.name: p for p in sorted(INSIDE_DIR.glob("*.py")) if p.name != "__init__.py"}
ZYGOTE_FILES["wire.py"] = Path(wire.__file__).resolve()
# Learner cells that import torch get it preloaded by their grading process (see inside/zygote.py).
TORCH_IMPORT = re.compile(r"^\s*(import torch|from torch\b)", re.M)
# Where torch is not installed (a Gradescope image for lessons that need none), a cell that imports
# it fails in the learner's child, as on their machine, instead of stopping the grading process.
HAS_TORCH = importlib.util.find_spec("torch") is not None
ZYGOTE_MEMORY = 1536 * 2**20   # what a grading process with NumPy and torch loaded may hold itself
# What held learner code in under --isolation uid (isolation.py), for report.json: less than namespaces.
UID_WALLS = {
    "identity": "an unprivileged user id per parallel slot (no groups, no capabilities), one learner per run",
    "namespaces": "none (the kernel refused them): the machine's files as any user sees them; the course, "
                  "the secret and the results checked unreadable and unwritable to that user before grading",
    "system_calls": "seccomp, an allow list (memory, its own files and threads, its clock, signals to itself): "
                    "no new programs or processes, no ptrace, mounts, sockets or System V IPC",
    "scratch": "a folder of its own (0700) per exercise, on disk; /tmp and /dev/shm are shared with the machine",
}


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
        walled = isolation in ("namespaces", "uid")  # uid: root by construction (isolation.py)
        self.cgroups = Cgroups.create() if walled and privileged() else None
        self.scratch_root = None  # uid: the parent of the children's folders, passable by all (0711)
        if isolation == "uid":
            self.scratch_root = tempfile.mkdtemp(prefix="gpt2-scratch-")
            os.chmod(self.scratch_root, 0o711)
        self.uids: queue.Queue = queue.Queue()
        block = 2 * slots + 1
        for uid in learner_uids(block * (uid_block + 1))[block * uid_block:] if walled and privileged() else []:
            self.uids.put(uid)
        self.oracles: queue.Queue = queue.Queue()
        self.idle: queue.Queue = queue.Queue()   # (zygote, uid, group) of a slot between learners
        self._lock = threading.Lock()
        self._cases: dict[str, tuple[list, list, bytes]] = {}  # name: (cases, trees, blob)
        self.live: set = set()       # every grading process started and not yet closed (processes.Zygote)
        self.stopping = False        # stop(): no grading process is started from then on

    def stop(self) -> None:
        """Ctrl-C: every grading process killed now, the busy ones too, so the threads that wait
        on them return at once (their learners are not saved: a rerun grades them)."""
        self.stopping = True
        for zygote in list(self.live):
            zygote.kill()

    def inside(self, name: str) -> str:
        return f"{INSIDE}/{name}" if self.isolation == "namespaces" else str(self.zygote_dir / name)

    def scratch(self, uid: int | None) -> str:
        """A new folder for one child outside namespaces: its HOME, TMPDIR and the one place
        the hook lets it write. Under --isolation uid it is ``uid``'s own (0700), in a parent no
        user may list, so no other uid's child (a classmate's, the oracle's) reads it."""
        if self.isolation != "uid":
            return tempfile.mkdtemp(dir=self.root, prefix="scratch-")
        folder = tempfile.mkdtemp(dir=self.scratch_root, prefix="scratch-")
        os.chown(folder, uid, uid)
        return folder

    def encoded_cases(self, name: str, cases) -> tuple[list, bytes]:
        """Each exercise's inputs, encoded once per batch (trees and one blob). Kept with the
        very list they encode: a workspace can outlive a batch (a cluster worker's serves
        every batch of its settings), and another batch's cases (another secret's) are
        encoded afresh, never answered with this one's inputs."""
        with self._lock:
            cached = self._cases.get(name)
            if cached is None or cached[0] is not cases:
                blob = bytearray()
                enc = wire.Encoder(None, blob=blob)
                self._cases[name] = (cases, [enc(c.args) for c in cases], bytes(blob))
            return self._cases[name][1:]

    def describe(self) -> dict:
        """What held learner code in, for report.json."""
        lim = self.limits
        if self.isolation == "python":
            return {"isolation": "python", "boundary": "none: an audit hook only (not a security boundary)"}
        identity = ("an unprivileged user id per parallel slot (no groups, no capabilities)" if privileged()
                    else "your own user, in a user namespace, with no capabilities")
        limits = (self.cgroups.describe(lim.memory_bytes + ZYGOTE_MEMORY, lim.threads) if self.cgroups
                  else fallback_description(lim.memory_bytes, lim.threads))
        if self.isolation == "uid":
            return {"isolation": "uid", **UID_WALLS, "time": f"{lim.wall_s:g} s per exercise, "
                    f"{lim.submission_s:g} s per learner", **limits}
        return {"isolation": "namespaces", "identity": identity,
                "namespaces": "mount, PID, network (none), IPC, UTS; the Python installation read-only; "
                              "each exercise its own mount, PID and IPC namespaces",
                "system_calls": "seccomp, an allow list (memory, its own files and threads, its clock, signals "
                                "to itself): no new programs or processes, no ptrace, mounts, sockets, device "
                                "nodes, FIFOs or extended attributes, no call the list does not name",
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
        return self.uids.get() if self.isolation in ("namespaces", "uid") and privileged() else None

    def close(self) -> None:
        while not self.oracles.empty():
            self.oracles.get_nowait().close()
        while not self.idle.empty():
            zygote, uid, group = self.idle.get_nowait()
            LearnerSandbox.end(self, zygote, uid, group)
        if self.cgroups:
            self.cgroups.close()
        shutil.rmtree(self.root, ignore_errors=True)
        if self.scratch_root:
            shutil.rmtree(self.scratch_root, ignore_errors=True)


# ----------------------------------------------------------------- one learner
def audit(zygote: Zygote) -> dict | None:
    """A grading process's account of what it holds (inside/zygote.py), or None."""
    return zygote.ask({"op": "audit"}, [], 60)


class LearnerSandbox:
    """One learner's turn on a grading slot: its grading process (the slot's, else started on
    first use), the uid and the control groups that process's children run under."""

    def __init__(self, workspace: Workspace):
        self.ws = workspace
        try:
            self.zygote, self.uid, self.group = workspace.idle.get_nowait()
        except queue.Empty:
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
        if self.ws.stopping:
            raise Stopped("the batch was interrupted")
        if self.zygote is None or not self.zygote.alive():
            if self.zygote is not None:
                self.zygote.uid = None  # the uid stays with this learner
                self.zygote.close()
            self.zygote = Zygote(self.ws, "learner", self.uid, self.group)
            # before any exercise: the processes that are the grading process itself
            self.zygote.tree = self.zygote.ping() and (self.group.tasks() if self.group else set())
            # and what it holds itself, seen from inside its namespaces (see handed_on)
            self.zygote.held = audit(self.zygote)
        return self.zygote

    def close(self) -> None:
        """The slot's next learner gets this grading process only if nothing of this learner's
        is left (handed_on); else it is ended and the next learner gets a fresh one."""
        zygote, self.zygote = self.zygote, None
        if zygote is not None and self.handed_on(zygote):
            self.ws.idle.put((zygote, self.uid, self.group))
        else:
            self.end(self.ws, zygote, self.uid, self.group)
        self.uid = self.group = None

    def handed_on(self, zygote: Zygote) -> bool:
        """Whether the grading process is as it was before this learner's first exercise:
        - it answers;
        - its control groups hold the processes they held then (where there are groups);
        - its own audit (inside/zygote.py's ``audit``) is what it was then: the processes of
          its PID namespace, the System V IPC objects of its IPC namespace, its mounts and its
          descriptors. Each exercise ran in a child with PID, IPC and mount namespaces of its
          own, so a difference means one of those walls failed and the next learner could
          meet what this one left. (The pid counter is not checked: no child counts in the
          zygote's PID namespace. Nothing here sees the host's page cache: docs/grading.md.)"""
        held = getattr(zygote, "held", None)
        return (zygote.tree is not False and zygote.ping()
                and (self.group is None or self.group.tasks() == zygote.tree)
                and held is not None and audit(zygote) == held)

    @staticmethod
    def end(ws: Workspace, zygote: Zygote | None, uid: int | None, group) -> None:
        """The grading process killed, its groups emptied and removed, its uid free again."""
        if zygote is not None:
            zygote.uid = None  # the uid is the slot's: given back below
            zygote.close()
        if group is not None:
            group.remove()
        if uid is not None:
            ws.uids.put(uid)

    def run(self, cells, name: str, cases, pieces: list[dict], uses: tuple, limits: Limits) -> ChildRun:
        """Grade one exercise: its public cases in one fresh child, then its hidden cases in
        another, so no process that answers a public example (whose failure the feedback
        describes in full) ever holds a hidden input, and what the hidden one sends back is
        judged, never shown: its cell errors are the first child's, its refusals are said
        by kind. Each child has the exercise's limits. The answers, in the cases' order, read
        back as a stranger's data."""
        public = [i for i, c in enumerate(cases) if c.public]
        hidden = [i for i, c in enumerate(cases) if not c.public]
        if not public or not hidden:
            run = self._run_child(cells, name, cases, pieces, uses, limits)
            run.unanswered = list(range(len(run.answers), len(cases)))
            return run
        run = self._run_child(cells, name, [cases[i] for i in public], pieces, uses, limits)
        answers = _padded(run.answers, len(public), run.problem)
        unanswered = public[len(run.answers):]
        if run.problem or not run.found or run.unread:  # the hidden child would only repeat it
            answers += _padded([], len(hidden), run.problem)
            unanswered += hidden
        else:
            second = self._run_child(cells, name, [cases[i] for i in hidden], pieces, uses, limits)
            run.refused += second.refused
            run.problem, run.unread = second.problem, second.unread
            if not second.found and not second.problem:
                run.problem = "the function was not defined when the exercise's hidden tests ran"
            answers += _padded(second.answers if second.found else [], len(hidden), run.problem)
            unanswered += hidden[len(second.answers) if second.found else 0:]
        run.answers = [answer for _, answer in sorted(zip(public + hidden, answers), key=lambda p: p[0])]
        run.unanswered = unanswered
        return run

    def _run_child(self, cells, name: str, cases, pieces: list[dict], uses: tuple, limits: Limits) -> ChildRun:
        """Grade ``cases`` of one exercise in a fresh child."""
        trees, blob = self.ws.encoded_cases(name, cases)
        job = frames.frame({"cells": [{"index": c.index, "source": c.source} for c in cells],
                            "function": name, "uses": list(uses) if pieces else [], "cases": trees}, blob)
        zygote = self._zygote()
        zygote.preload({"torch"} if HAS_TORCH and any(TORCH_IMPORT.search(c.source) for c in cells) else set())
        with Job(self.ws, job, pieces, self.group, limits.wall_s, self.uid) as j:
            reply = zygote.ask({"op": "run", "role": "learner", "wall_s": limits.wall_s, "fds": j.names,
                                "scratch": j.scratch}, j.fds, timeout=limits.wall_s + 30)
            j.end_calls()
            run = in_own_words(collect(j.result, len(cases)), cells, cases)
            run.refused = refusals(j.log)  # its kinds only; what the child printed is never read
        if reply is None:
            zygote.uid = None  # the uid stays with this learner
            zygote.close()
            self.zygote = None
            run.problem = run.problem or "the grading process stopped answering (it was restarted)"
            return run
        if reply.get("timed_out") is not True:  # a learner's own timeout says more than the oracle's
            _oracle_stopped(run, j.oracle_reply, limits, self.ws)
        explain_exit(run, reply.get("status"), reply.get("timed_out") is True, limits, len(cases))
        return run


class Stopped(Exception):
    """The workspace was stopped (Ctrl-C) while a learner was being graded."""


def _padded(answers: list, n: int, problem: str | None) -> list:
    """``n`` answers: those that came back, then the rest as not answered, with the reason."""
    return answers[:n] + [Broken(problem or "no answer came back")] * (n - len(answers))


def _oracle_stopped(run: ChildRun, reply: dict | None, limits: Limits, ws: Workspace) -> None:
    """When the oracle's child was stopped (by the learner's memory or time limit, which it
    counts in), the learner's calls to it failed from then on: the exercise is not graded
    on answers made without it, and the row says which limit stopped it."""
    if reply is None or run.problem or (reply.get("status") == 0 and not reply.get("timed_out")):
        return
    status, pieces = reply.get("status"), "the course's functions this exercise calls (answered outside it)"
    if reply.get("lost"):
        why = f"{pieces} stopped answering"
    elif reply.get("timed_out") is True:
        why = f"{pieces} ran past the exercise's time limit ({limits.wall_s:g} s) on the learner's inputs"
    elif status == -signal.SIGKILL:
        memory = (f"{(limits.memory_bytes + ZYGOTE_MEMORY) // 2**20} MiB for all the learner's processes, "
                  "these included" if ws.cgroups else f"{limits.memory_bytes // 2**20} MiB")
        why = f"{pieces} were stopped by the learner's memory limit ({memory})"
    elif status == -signal.SIGXCPU:
        why = f"{pieces} used more than {limits.cpu_s} s of CPU time on the learner's inputs"
    else:
        why = f"{pieces} ended early (exit status {status if isinstance(status, int) else '?'})"
    run.answers, run.problem = [], why

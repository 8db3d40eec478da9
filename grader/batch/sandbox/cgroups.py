"""Limits on a learner's processes together: a pids and a memory control group each.

Where the machine delegates control groups to the grader (root on cgroup v1, or a v2
subtree whose pids and memory controllers it may enable), every learner's grading
process and its children live in their own group: at most ``pids`` tasks (threads
included) and ``memory`` bytes, counted over all of them. The oracle's child that
answers a composite exercise's calls (processes.Job) joins the groups of the learner it
serves before it computes anything, so what the learner's inputs make it build counts
there too. Elsewhere the limits fall back to each child's rlimits (address space, NPROC),
the oracle's child's the same as a learner's, and the filter's refusal of new processes,
which bounds a learner to one process at a time; ``describe`` says which.
"""
from __future__ import annotations

import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

V1 = Path("/sys/fs/cgroup")


@dataclass
class Group:
    """One learner's groups: the files a new process writes its pid into."""

    dirs: list[Path]

    @property
    def procs(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs]

    def tasks(self) -> set[int]:
        found = set()
        for d in self.dirs:
            try:
                found |= {int(x) for x in (d / "cgroup.procs").read_text().split()}
            except (OSError, ValueError):
                pass
        return found

    def remove(self) -> None:
        """Kill what is left (a killed sandbox's processes end a moment after bubblewrap),
        wait until the groups are empty, then remove them."""
        for _ in range(500):
            left = self.tasks()
            if not left:
                break
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)
        for d in self.dirs:
            try:
                d.rmdir()
            except OSError:
                pass


class Cgroups:
    """The batch's parent groups, under the grader's own, removed at the end."""

    def __init__(self, kind: str, parents: list[Path]):
        self.kind, self.parents, self.count = kind, parents, 0

    @classmethod
    def create(cls) -> "Cgroups | None":
        name = f"gpt2-grading-{os.getpid()}-{secrets.token_hex(4)}"
        v1 = [_v1_own(c) for c in ("pids", "memory")]
        if all(v1):
            made = _make([p / name for p in v1])
            return cls("v1", made) if made else None
        return None

    def learner(self, memory_bytes: int, pids: int) -> Group | None:
        self.count += 1
        dirs = _make([p / f"learner-{self.count}" for p in self.parents])
        if not dirs:
            return None
        pids_dir, memory_dir = dirs
        try:
            (pids_dir / "pids.max").write_text(str(pids))
            (memory_dir / "memory.limit_in_bytes").write_text(str(memory_bytes))
            swap = memory_dir / "memory.memsw.limit_in_bytes"
            if swap.exists():
                swap.write_text(str(memory_bytes))
        except OSError:
            Group(dirs).remove()
            return None
        return Group(dirs)

    def close(self) -> None:
        Group(self.parents).remove()

    def describe(self, memory_bytes: int, pids: int) -> dict:
        # the groups are a grading slot's: its grading process and the one exercise it runs (so one
        # learner's processes at a time)
        return {"processes": f"a pids control group per learner: at most {pids} tasks (threads included)",
                "memory": f"a memory control group per learner: {memory_bytes // 2**20} MiB for all its "
                          "processes together, the course's functions its exercise calls included"}


def fallback_description(memory_bytes: int, threads: int) -> dict:
    return {"processes": f"no control group here: new processes refused by the system-call filter, "
                         f"at most {threads} threads per exercise (RLIMIT_NPROC)",
            "memory": f"no control group here: {memory_bytes // 2**20} MiB of address space per "
                      "exercise, which is its only process (RLIMIT_AS), and as much for the course's "
                      "functions it calls"}


def _v1_own(controller: str) -> Path | None:
    """The grader's own group in a writable cgroup v1 hierarchy of ``controller``."""
    root = V1 / controller
    if not (root / "cgroup.procs").exists():
        return None
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controller in controllers.split(","):
                own = root / path.lstrip("/")
                return own if os.access(own, os.W_OK) else None
    except (OSError, ValueError):
        return None
    return None


def _make(dirs: list[Path]) -> list[Path] | None:
    made = []
    try:
        for d in dirs:
            d.mkdir()
            made.append(d)
    except OSError:
        for d in made:
            d.rmdir()
        return None
    return made

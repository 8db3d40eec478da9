"""Grading on a Dask cluster: the instructor's side (``--scheduler ADDRESS``, ``--workers N``).

Everything but "grade one learner" is ``pipeline``'s, as for local grading: collect, the
assignment, the saved state, and saving each result as it arrives, in this process alone.
Here one learner is one Dask task (``task.grade``), keyed by a hash of its inputs, its
settings and the grader's fingerprint, so a retried, resubmitted or duplicated task (a
rerun while the old one still runs) is one task and one row. Before the first task every
worker is asked for its fingerprint and whether it can build the batch's walls
(``task.check``); only matching workers are used, and none matching is an error.

Faults: a worker that dies mid-task (killed, out of memory, a lost machine) has its task
rerun elsewhere by Dask; one that dies on every try (``distributed.scheduler.allowed-
failures``, Dask's KilledWorker) leaves a row saying so. The scheduler going away stops
the batch with ``BatchStopped``: what is saved is kept, and the same command resumes.

What comes back is a stranger's data (``remote``): msgpack only, never unpickled, each
field checked. ``--workers N`` runs its LocalCluster in a child process, so no scheduler
ever shares this process (and its no-pickle rule) with the workers' messages.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from ..pipeline import POLL_S, BatchStopped, stop_requested
from ..records import failed
from ..sandbox.inside.frames import FrameError, parse_json
from . import remote, task

EXTRA = 'pip install -e ".[cluster]"'
WINDOW_PER_THREAD = 2     # tasks in flight per worker thread: the scheduler never holds the whole class
CONNECT_S, WORKERS_S = 20, 60


class ClusterError(ValueError):
    """The cluster cannot be used as asked; the CLI exits 2 with this message."""


def need_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(f"--scheduler and --workers grade on a Dask cluster, which is not installed "
                           f"here: run `{EXTRA}` in the course's folder (and on every worker)") from None


def pool_for(scheduler: str | None = None, workers: int | None = None):
    """The ``cluster`` argument of ``grade.grade_batch``: a function of the plan that connects."""
    need_dask()
    return lambda plan: ClusterPool(plan, scheduler, workers)


def task_key(job: dict) -> str:
    """The same learner, files, settings and grader give the same key, so the same task."""
    digest = hashlib.sha256(json.dumps([job["fingerprint"], job["settings"], job["learner"]["name"],
                                        job["learner"]["problems"], job["learner"]["notes"],
                                        [[n, hashlib.sha256(d).hexdigest() if d is not None else None, p]
                                         for n, d, p in job["learner"]["notebooks"]]],
                                       sort_keys=True).encode()).hexdigest()
    return f"gpt2-grade-{job['learner']['name']}-{digest[:32]}"


class ClusterPool:
    def __init__(self, plan, scheduler: str | None, workers: int | None):
        from distributed import Client

        self.exercises, self.grader = plan.exercises, task.fingerprint()
        self.settings = task.settings_of(plan.exercises, plan.limits, plan.isolation)
        self.stack = contextlib.ExitStack()
        try:
            self.local = self.stack.enter_context(LocalDaskCluster(workers)) if workers else None
            self.address = self.local.address if self.local else scheduler
            self.stack.enter_context(remote.no_unpickling())
            try:
                self.client = self.stack.enter_context(Client(
                    self.address, serializers=remote.DESERIALIZERS, deserializers=remote.DESERIALIZERS,
                    direct_to_workers=False, timeout=CONNECT_S, set_as_default=False))
                self.client.wait_for_workers(workers or 1, timeout=WORKERS_S)
            except (OSError, TimeoutError) as exc:
                raise ClusterError(f"cannot use the Dask scheduler at {self.address} ({type(exc).__name__}: "
                                   f"{str(exc)[:200]}): is it running, with workers, and reachable from "
                                   "here?") from None
            self.good, self.refused, self.sandbox = check_workers(self.client, self.settings, self.grader)
        except BaseException:
            self.stack.close()
            raise

    def describe(self) -> dict:
        refused = f", {self.refused} refused (another grader, or no walls)" if self.refused else ""
        return {"cluster": f"Dask scheduler {self.address}: {len(self.good)} worker(s) checked and used"
                           f"{refused}, each grading behind these walls", **self.sandbox}

    def _window(self) -> int:
        return max(4, WINDOW_PER_THREAD * sum(self.client.nthreads().values()))

    def results(self, todo):
        from distributed import as_completed

        # only the checked workers, unless none of them is left (then any: each task checks itself)
        where = {"workers": self.good, "allow_other_workers": True} if self.refused else {}
        queue, learners, arrived = iter(todo), {}, as_completed(loop=self.client.loop)
        window = self._window() if todo else 0

        def submit_next() -> None:
            x = next(queue, None)
            if x is not None:
                job = task.job_of(x, self.settings, self.grader)
                key = task_key(job)
                learners[key] = x
                arrived.add(self.client.submit(task.grade, job, key=key, retries=0, **where))

        try:
            for _ in range(window):
                submit_next()
            for future in _as_they_come(arrived):
                if future.status == "cancelled" or self.client.status != "running":
                    raise BatchStopped(f"the Dask scheduler at {self.address} went away")
                x = learners.pop(future.key)
                yield self._read(future, x)
                future.release()
                submit_next()
        finally:
            futures = list(arrived.futures)
            if futures and self.client.status == "running":
                self.client.cancel(futures)

    def _read(self, future, learner):
        if future.status == "error":  # its exception is not read: it would be a worker's pickle
            return failed(learner, "not graded: the worker grading this learner died (or failed) on each try "
                                   "(Dask's KilledWorker, after distributed.scheduler.allowed-failures): the "
                                   "learner's code may be what kills it (memory, a crash); if the workers "
                                   "died for another reason, regrade it with --force", internal=False), "?"
        try:
            data = future.result()
        except Exception as exc:  # Dask refused it (not msgpack: a pickle) or could not fetch it
            data = exc
        return remote.read_result(data, learner, self.exercises, failed)

    def close(self) -> None:
        self.stack.close()


def _as_they_come(arrived):
    """Dask's as_completed, iterated without blocking in it, so a Ctrl-C is raised here
    (pipeline.stop_requested), never inside its condition's lock."""
    while not arrived.is_empty():
        if arrived.has_ready():
            yield next(arrived)
        else:
            stop_requested()
            time.sleep(POLL_S / 2)


def check_workers(client, settings: dict, grader: str) -> tuple[list[str], int, dict]:
    """(the workers to use, how many were refused, one's description of its walls). Exits 2
    (ClusterError) when no worker has this grader and can build the walls."""
    answers = _ask_every_worker(client, settings)
    good, refused, sandbox = [], [], {}
    for address, answer in sorted(answers.items()):
        why, described = _judge(answer, grader)
        if why:
            refused.append(f"{address}: {why}")
        else:
            good.append(address)
            sandbox = sandbox or described
    for line in refused[:10]:
        print(f"not using the worker {line}", file=sys.stderr)
    if not good:
        raise ClusterError(f"no worker of the Dask scheduler can grade this batch ({len(refused)} refused; "
                           f"the first: {refused[0] if refused else 'none connected'}); install the "
                           "same course and bubblewrap on them (README: a class too big for one machine)")
    return good, len(refused), sandbox


def _ask_every_worker(client, settings: dict) -> dict:
    try:
        return client.run(task.check, settings, on_error="return")
    except Exception:  # one worker's failure came back as a pickle, refused: ask each alone
        answers = {}
        for address in client.nthreads():
            try:
                answers.update(client.run(task.check, settings, workers=[address]))
            except Exception as exc:
                answers[address] = exc
        return answers


def _judge(answer, grader: str) -> tuple[str | None, dict]:
    """(why a worker's check is refused, or None; its walls described) from its JSON bytes."""
    if not isinstance(answer, (bytes, bytearray)):
        return "it could not run the grader's check (is the course installed there?)", {}
    try:
        got = parse_json(bytes(answer))
        fingerprint, walls, sandbox = got["fingerprint"], got["walls"], got["sandbox"]
        if fingerprint != grader:
            return (f"its grader or exercises differ from this one's (version "
                    f"{remote.text(got['version'], 40)}, fingerprint {remote.text(fingerprint, 12)[:12]} "
                    f"instead of {grader[:12]})"), {}
        if walls is not None:
            return remote.text(walls, 400), {}
        return None, {remote.text(k, 40): remote.text(v, 400) for k, v in list(sandbox.items())[:20]}
    except (FrameError, remote.Refused, KeyError, TypeError, AttributeError):
        return "its answer to the grader's check is not one", {}


# ------------------------------------------------------------------ --workers N
_SERVE = "import sys; from grader.batch.cluster.pool import serve_local; serve_local(int(sys.argv[1]))"


def serve_local(n: int) -> None:
    """In the child process: a LocalCluster of ``n`` worker processes (one thread each), on
    this machine only; its address on stdout; it ends when stdin does (the instructor's
    process closed it, or died)."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as local:
        print(local.scheduler_address, flush=True)
        sys.stdin.read()


class LocalDaskCluster:
    """``--workers N``: a LocalCluster in a child process of ours."""

    def __init__(self, n: int):
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-c", _SERVE, str(n)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, text=True, start_new_session=True)
        self.address = self.proc.stdout.readline().strip()
        if not self.address.startswith("tcp://"):
            self.close()
            self.log.seek(0)
            tail = self.log.read()[-1500:].decode("utf-8", "replace")
            raise ClusterError(f"the local Dask cluster (--workers {n}) did not start:\n{tail}")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:  # the cluster and its workers: our child's own group
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()

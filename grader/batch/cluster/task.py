"""One learner graded on a Dask worker: plain data in, the Submission as JSON bytes out.

The instructor's process (``pool``) sends each task a dict of plain data: the
learner's notebooks as bytes (workers do not share the instructor's files), the grading
settings (lessons, scoring, points, limits, isolation, and the instructor's secret, from which
the worker draws the hidden cases as the instructor's machine would) and the fingerprint of
the grader and exercises it was built with. Here the worker:

- refuses a fingerprint that is not its own (another grader or exercises would give
  another gradebook) and a batch whose walls it cannot build (never a silent fallback to
  ``--isolation python``), with a sentence the instructor's row shows;
- grades exactly as local grading does (``grade.grade_safely``), inside one workspace
  per worker process and settings, made on first use and closed when the process exits;
- returns JSON bytes, never raising: an erred task's exception would reach the instructor
  as a pickle, which the instructor never loads (``remote``).

Nothing here imports Dask, except ``where()`` asking which worker this is.
"""
from __future__ import annotations

import atexit
import hashlib
import json
import multiprocessing.util
import socket
import threading
from dataclasses import asdict
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from ..grade import grade_safely
from ..inputs.collect import Learner, Notebook
from ..records import Exercises
from ..sandbox.isolation import namespaces_problem, privileged
from ..sandbox.limits import Limits
from ..sandbox.workspace import Workspace

PACKAGE = "gpt2-exactly"
_ROOTS = ("grader", "gpt2course")   # the grader and the exercises' definitions (and the model they use)
_lock = threading.Lock()
_workspaces: dict[tuple, Workspace] = {}
_exercises: dict[str, object] = {}
_claims: list[socket.socket] = []


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """Of what decides a grade: every source file of the grader and of gpt2course (names and
    bytes), the package's version and NumPy's (the hidden cases are drawn with it)."""
    import gpt2course
    import numpy

    h = hashlib.sha256()
    for name in _ROOTS:
        root = Path(gpt2course.__file__).resolve().parent.parent / name
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root.parent).as_posix().encode()
            data = path.read_bytes()
            h.update(len(rel).to_bytes(8, "big") + rel + len(data).to_bytes(8, "big") + data)
    for part in (_version(), numpy.__version__):
        h.update(b"\0" + part.encode())
    return h.hexdigest()


def _version() -> str:
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return "not installed"


def check(settings: dict, dask_worker=None) -> bytes:
    """What the instructor asks every worker before a batch (``client.run``, which passes the
    worker as ``dask_worker``), as JSON: its fingerprint, whether it can build the batch's
    walls, and what will hold learner code in."""
    walls = walls_problem(settings["isolation"])
    sandbox = {} if walls else workspace(Limits(**settings["limits"]), settings["isolation"],
                                         dask_worker).describe()
    return json.dumps({"fingerprint": fingerprint(), "version": _version(), "walls": walls,
                       "sandbox": sandbox}).encode("utf-8")


def walls_problem(isolation: str) -> str | None:
    if isolation == "python":
        return None
    if isolation != "namespaces":
        return f"unknown isolation {isolation!r}"
    problem = namespaces_problem()
    return f"this worker cannot build the sandbox's walls ({problem})" if problem else None


def grade(job: dict) -> bytes:
    """The task: one learner, graded here; JSON bytes back, whatever happened."""
    try:
        return json.dumps(_grade(job)).encode("utf-8")
    except Exception as exc:  # a malformed job or a grader bug: said, never raised
        return json.dumps({"refused": f"the worker could not grade this learner ({type(exc).__name__}: "
                                      f"{str(exc)[:300]})", "worker": where()}).encode("utf-8")


def _grade(job: dict) -> dict:
    if job.get("fingerprint") != fingerprint():
        return {"refused": f"this worker's grader or exercises differ from the instructor's (fingerprint "
                           f"{fingerprint()[:12]}, version {_version()}): install the same course on it",
                "worker": where()}
    settings = job["settings"]
    problem = walls_problem(settings["isolation"])
    if problem:
        return {"refused": problem, "worker": where()}
    ws = workspace(Limits(**settings["limits"]), settings["isolation"])
    sub = grade_safely(learner_from(job["learner"]), exercises_for(settings), ws)
    return {"submission": sub.to_dict(), "worker": where()}


def learner_from(data: dict) -> Learner:
    """The learner as the instructor's collect read it (so its fingerprint is the same)."""
    notebooks = [Notebook(name, data, problem) for name, data, problem in data["notebooks"]]
    return Learner(data["name"], notebooks, list(data["problems"]), notes=list(data["notes"]))


def exercises_for(settings: dict):
    """The batch's exercises, made once per worker process and settings (their reference
    answers are then computed once, as in a local batch)."""
    key = json.dumps([settings["lessons"], settings["scoring"], settings["points"], settings["cases"]],
                     sort_keys=True)  # the secret by its hash: a worker serves one course at a time
    with _lock:
        if key not in _exercises:
            exercises = Exercises(settings["points"], settings["lessons"], settings["scoring"],
                                  secret=secret_of(settings))
            exercises.assignment = list(settings["lessons"])
            _exercises[key] = exercises
        return _exercises[key]


def workspace(limits: Limits, isolation: str, worker=None) -> Workspace:
    """This process's workspace for these limits and walls, made on first use. Its slots are
    the worker's threads; as root, its learner uids are a block no other process here uses."""
    key = (limits, isolation)
    with _lock:
        if key not in _workspaces:
            threads = _threads(worker)
            block = _claim_uid_block() if isolation == "namespaces" and privileged() else 0
            _workspaces[key] = Workspace(limits, isolation, slots=threads, uid_block=block)
        return _workspaces[key]


def _claim_uid_block() -> int:
    """A block of learner uids no other workspace on this machine holds, claimed by binding an
    abstract socket name (the kernel frees it when the process dies, however it dies).
    Block 0 is left to local batches."""
    for block in range(1, 4096):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.bind(f"\0gpt2-grading-uids-{block}".encode())
        except OSError:
            s.close()
            continue
        _claims.append(s)
        return block
    raise RuntimeError("no free block of learner uids on this machine (4095 grading processes?)")


def _worker(worker=None):
    """The Dask worker this runs in (given by ``client.run``, found inside a task), or None."""
    if worker is not None:
        return worker
    try:
        from distributed import get_worker

        return get_worker()
    except (ImportError, ValueError):
        return None


def _threads(worker=None) -> int:
    worker = _worker(worker)
    return max(1, int(worker.state.nthreads)) if worker is not None else 1


def where() -> str:
    """This worker's address, for the instructor's per-worker counts."""
    worker = _worker()
    return str(worker.address) if worker is not None else "?"


def close_all() -> None:
    with _lock:
        while _workspaces:
            _workspaces.popitem()[1].close()


def job_of(learner: Learner, settings: dict, grader: str) -> dict:
    """What travels to the worker for one learner: plain data only."""
    return {"fingerprint": grader, "settings": settings,
            "learner": {"name": learner.name, "problems": list(learner.problems), "notes": list(learner.notes),
                        "notebooks": [[nb.name, *nb.load()] for nb in learner.notebooks]}}


def settings_of(exercises, limits: Limits, isolation: str) -> dict:
    """The batch's settings as plain data: what a worker grades under. The secret travels
    with them (the worker draws the hidden cases); it never enters a learner's process."""
    secret = exercises.secret.hex() if exercises.secret is not None else None  # None: tests' public seeds
    return {**exercises.settings(), "secret": secret, "limits": asdict(limits), "isolation": isolation}


def secret_of(settings: dict) -> bytes | None:
    return bytes.fromhex(settings["secret"]) if settings.get("secret") is not None else None


atexit.register(close_all)
multiprocessing.util.Finalize(None, close_all, exitpriority=10)  # a worker process's exit runs these

"""A cluster worker's answer, read as a stranger's data: the learner's code ran on that machine.

A task's result is the learner's Submission as JSON bytes (``task.grade``). Dask hands it
over as msgpack: the client asks for msgpack alone (``DESERIALIZERS``), so a result a
worker sends in any other form (a pickle above all) is refused by Dask before a byte of
it is decoded. Here the bytes are capped and their structure counted before parsing
(``frames.parse_json``), and every field is checked against this batch's assignment: the
learner's own name, only lessons of the assignment, exactly their exercises in order,
known statuses and mistake names, counts and points within their bounds, strings capped.
Anything else becomes a row saying the result was refused (a grader failure: a rerun
grades that learner again), never a crash and never a score.

Dask itself still unpickles what a peer sends in a few places, whatever the client's
deserializers (an erred task's exception, a warning event, a message part marked as
pickled). ``no_unpickling`` makes every such load in this process refuse any class, so
a worker (or a scheduler it took over) can send data but never code: Dask then falls
back to a plain ``Exception`` or drops the message.
"""
from __future__ import annotations

import io
import logging
import math
import pickle
import threading
from contextlib import contextmanager

from ...judging.outcomes import Verdict
from ..records import Submission
from ..report import MAX_JSON_ITEMS, STATUSES, TRUNCATED, capped
from ..sandbox.inside.frames import FrameError, parse_json

DESERIALIZERS = ["msgpack"]   # what the client accepts from the cluster: data, never code
MAX_RESULT = 4 * 2**20        # bytes of one learner's result (frames.MAX_FRAME_JSON)
MAX_CASES = 100_000           # tests of one exercise
SUBMISSION_KEYS = {"name", "sources", "lessons", "problem", "verdicts", "notes", "fingerprint",
                   "internal", "total"}
VERDICT_KEYS = {"exercise", "status", "passed", "total", "points", "max_points", "message",
                "mistakes", "failures"}


class Refused(ValueError):
    """A result that is not what a worker of ours sends (the message says what is wrong)."""


def read_result(data, learner, exercises, failed) -> tuple[object, str]:
    """(the learner's Submission, the worker's address as it says) from a task's result;
    ``failed(learner, why)`` makes the row of a refused or refusing result."""
    try:
        if not isinstance(data, (bytes, bytearray)):
            raise Refused(f"it is a {type(data).__name__}, not the JSON bytes the grader's task returns")
        if len(data) > MAX_RESULT:
            raise Refused(f"it is {len(data)} bytes, more than the {MAX_RESULT} a learner's result may be")
        tree = parse_json(bytes(data))
        if not isinstance(tree, dict):
            raise Refused("it is not a JSON object")
        where = text(tree.get("worker", "?"), 200)
        if "refused" in tree:
            return failed(learner, f"the worker {where} did not grade this learner: "
                                   f"{text(tree['refused'], 600)}"), where
        return submission(tree.get("submission"), learner, exercises), where
    except (Refused, FrameError) as exc:
        return failed(learner, f"the result from the cluster was refused ({exc}); a rerun grades this "
                               "learner again"), "?"


def submission(d, learner, exercises):
    _keys(d, SUBMISSION_KEYS, "the result")
    if d["name"] != learner.name:
        raise Refused("it names another learner")
    lessons = _list(d["lessons"], "lessons", len(exercises.assignment))
    if any(x not in exercises.assignment for x in lessons) or lessons != sorted(set(lessons)):
        raise Refused("its lessons are not lessons of the assignment, once each, in order")
    expected = [e for lesson in lessons for e in exercises.by_lesson[lesson]]
    raw = _list(d["verdicts"], "verdicts", len(expected))
    if len(raw) != len(expected):
        raise Refused("its verdicts are not the exercises of its lessons")
    verdicts = [verdict(v, e) for v, e in zip(raw, expected)]
    if d["problem"] is not None and not isinstance(d["problem"], str):
        raise Refused("its problem is not text")
    if type(d["internal"]) is not bool:
        raise Refused("its internal flag is not true or false")
    notes = [text(n) for n in _list(d["notes"], "notes", MAX_JSON_ITEMS)]
    return Submission(learner.name, [nb.name for nb in learner.notebooks], lessons,
                      None if d["problem"] is None else text(d["problem"]), verdicts, notes,
                      learner.fingerprint(), d["internal"])


def verdict(v, exercise):
    _keys(v, VERDICT_KEYS, "a verdict")
    if v["exercise"] != exercise.name:
        raise Refused(f"a verdict is for {text(v['exercise'], 60)!r} where {exercise.name!r} belongs")
    if v["status"] not in STATUSES:
        raise Refused(f"the verdict on {exercise.name} has an unknown status")
    passed, total = _count(v["passed"], exercise), _count(v["total"], exercise)
    if passed > total:
        raise Refused(f"the verdict on {exercise.name} passes more tests than it has")
    points, most = _number(v["points"], exercise), _number(v["max_points"], exercise)
    if most != float(exercise.points) or not 0 <= points <= most:
        raise Refused(f"the verdict on {exercise.name} has points outside 0..{exercise.points:g}")
    known = {m.name for m in exercise.mistakes}
    mistakes = _list(v["mistakes"], "mistakes", len(known))
    if any(m not in known for m in mistakes):
        raise Refused(f"the verdict on {exercise.name} names a mistake the catalogue does not have")
    if not isinstance(v["message"], str):
        raise Refused(f"the verdict on {exercise.name} has no message")
    failures = [text(f) for f in _list(v["failures"], "failures", MAX_JSON_ITEMS)]
    return Verdict(exercise.name, v["status"], passed, total, float(points), float(most), text(v["message"]),
                   list(mistakes), failures)


def text(value, limit: int = 4000) -> str:
    """A string of the result, valid Unicode and at most ``limit`` characters (then cut, saying so)."""
    if not isinstance(value, str):
        raise Refused("a text field is not text")
    return capped(value if len(value) <= limit else value[:limit] + TRUNCATED)


def _keys(d, allowed: set[str], what: str) -> None:
    if not isinstance(d, dict):
        raise Refused(f"{what} is not a JSON object")
    missing, extra = allowed - {"total"} - set(d), set(d) - allowed
    if missing or extra:
        raise Refused(f"{what} has other fields than a Submission (missing {sorted(missing)[:3]}, "
                      f"unexpected {[text(x, 40) for x in sorted(map(str, extra))[:3]]})")


def _list(value, what: str, most: int) -> list:
    if not isinstance(value, list) or len(value) > most:
        raise Refused(f"its {what} are not a list of at most {most}")
    return value


def _count(value, exercise) -> int:
    if type(value) is not int or not 0 <= value <= MAX_CASES:
        raise Refused(f"the verdict on {exercise.name} has a test count that is not a count")
    return value


def _number(value, exercise) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):
        raise Refused(f"the verdict on {exercise.name} has points that are not a number")
    return float(value)


# ------------------------------------------------------------------ no code from the cluster
class PickleRefused(pickle.UnpicklingError, TypeError):
    """Raised for a pickle that names anything but ``bytes`` or calls anything (TypeError
    too: Dask catches that one where it unpickles a traceback, and carries on without it)."""


def _refuse_call(self):
    raise PickleRefused("refused a pickle from the cluster that calls a function or builds an object")


class _DataOnly(pickle._Unpickler):  # the pure-Python unpickler, whose opcodes can be replaced
    """Strings, numbers, bytes, lists, tuples, dicts and the type ``bytes`` (Dask's name
    for the type of a bytes value) load; no other class or function can be named, and no
    opcode that calls something or builds an object runs, so no code can."""

    dispatch = dict(pickle._Unpickler.dispatch)
    for _op in (pickle.REDUCE, pickle.BUILD, pickle.INST, pickle.OBJ, pickle.NEWOBJ, pickle.NEWOBJ_EX):
        dispatch[_op[0]] = _refuse_call

    def find_class(self, module, name):
        if (module, name) == ("builtins", "bytes"):
            return bytes
        raise PickleRefused(f"refused to unpickle {module}.{name} sent by the cluster")


class _NoCode:
    """The pickle module as Dask's modules see it in this process while grading: ``dumps``
    as ever (the tasks this process sends), ``loads`` data-only."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    @staticmethod
    def loads(data, *, buffers=None, **_):
        return _DataOnly(io.BytesIO(data), buffers=buffers or None).load()


_guard = threading.Lock()


@contextmanager
def no_unpickling():
    """While grading on a cluster, Dask in this process unpickles data only. The scheduler
    and workers are other processes (``--workers`` starts its cluster in a child process).
    What Dask sends pickled in normal work is the type of a bytes value and the exception of
    an erred task; the type loads, and the exception becomes a plain ``Exception``."""
    import distributed.client
    import distributed.protocol.pickle as dask_pickle

    log = logging.getLogger(dask_pickle.__name__)  # each refusal would be logged with a traceback
    with _guard:
        saved = (dask_pickle.pickle, distributed.client.pickle, log.level)
        dask_pickle.pickle = distributed.client.pickle = _NoCode(pickle)
        log.setLevel(logging.ERROR)
        try:
            yield
        finally:
            dask_pickle.pickle, distributed.client.pickle, level = saved
            log.setLevel(level)

"""Grading on a Dask cluster (issue 19): the same gradebook as here, and nothing lost when a
worker, a learner's code or the instructor's process dies.

One LocalCluster of two worker processes (started the way ``--workers`` starts one: in a
child process, ``cluster.LocalDaskCluster``) serves the module, with
``distributed.scheduler.allowed-failures`` 1 so that a learner whose code kills its worker
ends on its second try. Its workers' nannies restart a killed worker.
"""
import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from conftest import ROOT
from test_hostile import GOOD_EMBED, GOOD_ONE_HOT, embed_doing, write_learner
from test_walls import UNHOOK

from grader.batch import grade
from grader.batch.cluster import pool as cluster, remote, task  # none of them imports Dask until asked to
from grader.batch.inputs.collect import Learner, Notebook
from grader.batch.sandbox.isolation import namespaces_problem

NO_DASK = 'Dask is not installed: pip install -e ".[cluster]" (make test does)'

GRADE = [sys.executable, "-m", "grader", "grade"]
MODE = "namespaces" if namespaces_problem() is None else "python"  # the walls where they stand
SLOW_EMBED = GOOD_EMBED.replace("    T = idx", "    import time\n    time.sleep(0.1)\n    T = idx")


@pytest.fixture(scope="module")
def dask():
    """(the scheduler's address, a plain Dask client of the test's own, for poking workers)."""
    Client = pytest.importorskip("distributed", reason=NO_DASK).Client
    os.environ["DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES"] = "1"
    try:
        local = cluster.LocalDaskCluster(2)
    finally:
        del os.environ["DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES"]
    client = Client(local.address, set_as_default=False)
    client.wait_for_workers(2, timeout=60)
    yield local.address, client
    client.close()
    local.close()


def rows(out):
    return list(csv.DictReader((out / "gradebook.csv").open()))


def on_cluster(address, klass, out, isolation=MODE, **kw):
    return grade.grade_batch([klass], out, isolation=isolation, cluster=cluster.pool_for(address), **kw)


LESSONS = ["01_embeddings", "02_attention"]  # small_class's assignment (only ann hands in 02)


def small_class(tmp_path):
    """ann: lessons 01 and 02 solved; bob: a classic mistake in embed, lesson 02 missing;
    cat: the stub; dan: a truncated notebook."""
    klass = tmp_path / "class"
    write_learner(klass / "ann", [GOOD_EMBED, GOOD_ONE_HOT])
    (klass / "ann" / "02_attention.ipynb").write_bytes((ROOT / "solutions" / "02_attention_exercises.ipynb").read_bytes())
    write_learner(klass / "bob", [embed_doing("return wte[idx] + wpe[idx]"), GOOD_ONE_HOT])
    write_learner(klass / "cat", [embed_doing('raise NotImplementedError("embed")'), GOOD_ONE_HOT])
    (klass / "dan").mkdir()
    (klass / "dan" / "01_embeddings.ipynb").write_bytes((ROOT / "solutions" / "01_embeddings_exercises.ipynb").read_bytes()[:3000])
    return klass


def outputs(out):
    """What an instructor reads, apart from the description of the machine that graded it."""
    report = json.loads((out / "report.json").read_text())
    report.pop("sandbox")
    feedback = {p.relative_to(out).as_posix(): p.read_text() for p in sorted((out / "feedback").rglob("*.md"))}
    return (out / "gradebook.csv").read_text(), feedback, report


WITHOUT_DASK = """
import sys
sys.modules["dask"] = sys.modules["distributed"] = None  # as if not installed: importing them fails
from grader.__main__ import main
rc = main(sys.argv[1:])
print("rc", rc, "dask imported:", sorted(m for m, v in sys.modules.items() if v and m.split(".")[0] in ("dask", "distributed")))
print("rc", main(sys.argv[1:] + ["--workers", "2", "--force"]))
"""


def test_without_dask_grading_here_is_unchanged_and_the_cluster_options_say_what_to_install(tmp_path):
    write_learner(tmp_path / "class" / "ann", [GOOD_EMBED, GOOD_ONE_HOT])
    proc = subprocess.run([sys.executable, "-c", WITHOUT_DASK, "grade", str(tmp_path / "class"), "--out",
                           str(tmp_path / "out"), "--isolation", MODE], capture_output=True, text=True, cwd=ROOT)
    assert proc.stdout.splitlines()[-2:] == ["rc 0 dask imported: []", "rc 2"], proc.stderr
    assert 'error: --scheduler and --workers grade on a Dask cluster, which is not installed here: run ' \
           '`pip install -e ".[cluster]"`' in proc.stderr
    assert rows(tmp_path / "out")[0]["total"] == "2"


def test_the_cluster_grades_a_class_as_this_machine_does(tmp_path, dask):
    klass = small_class(tmp_path)
    secret = tmp_path / "secret"  # one course's secret for the three output folders: the same hidden cases
    secret.write_text("5e" * 32 + "\n")  # and one fixed: the totals below are exact (a random draw let bob
    #                                      pass one hidden case by chance once: 1.12 for 1)
    proc = subprocess.Popen(GRADE + [str(klass), "--out", str(tmp_path / "workers"), "--workers", "2",
                                     "--isolation", MODE, "--secret", str(secret), "--lessons", ",".join(LESSONS)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    grade.grade_batch([klass], tmp_path / "here", isolation=MODE, secret=secret, lessons=LESSONS)  # meanwhile
    on_cluster(dask[0], klass, tmp_path / "scheduler", secret=secret, lessons=LESSONS)
    proc.stderr = proc.communicate(timeout=300)[1]
    assert proc.returncode == 0, proc.stderr
    assert "learners graded per worker: tcp://127.0.0.1:" in proc.stderr
    here = outputs(tmp_path / "here")
    assert {r["submission"]: r["total"] for r in rows(tmp_path / "here")} == \
        {"ann": "4", "bob": "1", "cat": "1", "dan": "0"}
    assert outputs(tmp_path / "scheduler") == here
    assert outputs(tmp_path / "workers") == here
    sandbox = json.loads((tmp_path / "workers" / "report.json").read_text())["sandbox"]
    assert sandbox["cluster"].startswith("Dask scheduler tcp://127.0.0.1:") and sandbox["isolation"] == MODE


def test_the_instructor_killed_and_rerun_resumes(tmp_path, dask):
    klass = tmp_path / "class"
    for i in range(4):
        write_learner(klass / f"learner_{i}", [SLOW_EMBED, GOOD_ONE_HOT])
    out = tmp_path / "out"
    command = GRADE + [str(klass), "--out", str(out), "--scheduler", dask[0], "--isolation", MODE]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    # the gradebook, not a learner's state: a learner's state is saved before the gradebook is
    # rebuilt from it, and a kill between the two leaves no gradebook yet (written by rename)
    while time.monotonic() < deadline and not (out / "gradebook.csv").exists():
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the instructor's process, with learners in flight
    proc.wait()
    listed = rows(out)   # every learner: the graded ones and, marked pending, the rest
    partial = [r["submission"] for r in listed if not r["problem"].startswith("pending")]
    assert sorted(r["submission"] for r in listed) == [f"learner_{i}" for i in range(4)]
    assert 1 <= len(partial) < 4
    again = subprocess.run(command, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "already graded (use --force to regrade)" in again.stderr
    final = rows(out)
    assert sorted(r["submission"] for r in final) == [f"learner_{i}" for i in range(4)]
    assert all(r["total"] == "2" for r in final)


FORGERY = '''
import json, pickle
import grader.batch.cluster.task as t
from distributed.protocol.serialize import Serialized
honest = getattr(t, "_honest_grade", t.grade)
t._honest_grade = honest

class Bomb:
    def __reduce__(self):
        return (exec, ("open(%r + '/' + str(__import__('os').getpid()), 'w').close()",))

def forged(job):
    name, result = job["learner"]["name"], honest(job)
    tree = json.loads(result)
    if name == "inflated":
        tree["submission"]["verdicts"][0]["points"] = 1000.0
    elif name == "impostor":
        tree["submission"]["name"] = "honest"
    elif name == "huge":  # valid JSON still, but past the cap
        return b" " * (5 * 2**20) + result
    elif name == "pickled":  # a pickle where the task's JSON bytes belong
        return Serialized({"serializer": "pickle", "writeable": ()}, [pickle.dumps(Bomb())])
    return json.dumps(tree).encode()

t.grade = forged
'''


def test_forged_oversized_and_pickled_results_are_refused(tmp_path, dask):
    address, client = dask
    marks = tmp_path / "marks"
    marks.mkdir()
    klass = tmp_path / "class"
    for name in ("honest", "inflated", "impostor", "huge", "pickled"):
        write_learner(klass / name, [GOOD_EMBED, GOOD_ONE_HOT])
    client.run(exec, FORGERY % str(marks), {})
    try:
        subs = on_cluster(address, klass, tmp_path / "out")
    finally:
        client.run(exec, "import grader.batch.cluster.task as t\nt.grade = t._honest_grade", {})
    by_name = {r["submission"]: r for r in rows(tmp_path / "out")}
    assert by_name["honest"]["total"] == "2" and by_name["honest"]["problem"] == ""
    for name, why in [("inflated", "points outside 0..1"), ("impostor", "names another learner"),
                      ("huge", "more than the 4194304"), ("pickled", "not the JSON bytes")]:
        assert by_name[name]["total"] == "0", name
        assert by_name[name]["problem"].startswith("the result from the cluster was refused"), name
        assert why in by_name[name]["problem"], (name, by_name[name]["problem"])
    assert sorted(s.name for s in subs if s.internal) == ["huge", "impostor", "inflated", "pickled"]
    assert list(marks.iterdir()) == []  # the pickle ran nowhere: not here, not on the scheduler


def test_workers_without_this_grader_or_its_walls_are_refused(tmp_path, dask, monkeypatch):
    address, client = dask
    klass = tmp_path / "class"
    write_learner(klass / "ann", [GOOD_EMBED, GOOD_ONE_HOT])
    job = task.job_of(Learner("ann", [Notebook("01.ipynb", b"{}")]), {"isolation": MODE}, "0" * 64)
    refused = json.loads(client.submit(task.grade, job, pure=False).result())
    assert "grader or exercises differ from the instructor's" in refused["refused"]
    with monkeypatch.context() as m:  # the instructor's grader is another one than the workers'
        m.setattr(task, "fingerprint", lambda: "0" * 64)
        with pytest.raises(cluster.ClusterError, match="2 refused.*grader or exercises differ"):
            on_cluster(address, klass, tmp_path / "out")
    client.run(exec, "import grader.batch.cluster.task as t\nt.namespaces_problem = lambda: 'bwrap is missing'", {})
    try:
        with pytest.raises(cluster.ClusterError, match="cannot build the sandbox's walls .bwrap is missing"):
            on_cluster(address, klass, tmp_path / "out", isolation="namespaces")
        job = task.job_of(Learner("ann", [Notebook("01.ipynb", b"{}")]),
                          task.settings_of(grade.Exercises(lessons=["01_embeddings"]), grade.Limits(),
                                           "namespaces"), task.fingerprint())
        refused = json.loads(client.submit(task.grade, job, pure=False).result())
        assert refused["refused"].startswith("this worker cannot build the sandbox's walls")
    finally:
        client.run(exec, "import grader.batch.cluster.task as t, grader.batch.sandbox.isolation as i\n"
                         "t.namespaces_problem = i.namespaces_problem", {})


def test_a_worker_killed_mid_batch_loses_no_learner_and_makes_no_duplicate(tmp_path, dask):
    address, client = dask
    klass = tmp_path / "class"
    for i in range(4):
        write_learner(klass / f"learner_{i}", [SLOW_EMBED, GOOD_ONE_HOT])
    out = tmp_path / "out"
    batch = threading.Thread(target=on_cluster, args=(address, klass, out))
    batch.start()
    victim, deadline = None, time.monotonic() + 120
    while victim is None and time.monotonic() < deadline:
        busy = {w: keys for w, keys in client.processing().items() if keys}
        if busy and (out / ".state").exists() and list((out / ".state").glob("*.json")):
            victim, keys = next(iter(busy.items()))
        time.sleep(0.05)
    pids = client.run(os.getpid)
    os.kill(pids[victim], signal.SIGKILL)  # the worker, mid-task
    batch.join(timeout=180)
    assert not batch.is_alive()
    names = [r["submission"] for r in rows(out)]
    assert sorted(names) == [f"learner_{i}" for i in range(4)]  # each once
    assert all(r["total"] == "2" and r["problem"] == "" for r in rows(out))
    assert any(k.startswith("gpt2-grade-learner_") for k in keys)  # it was grading one of them
    assert json.loads((out / "report.json").read_text())["complete"] is True


KILLER = UNHOOK + '''def embed(wte, wpe, idx):
    unhook()
    import os, signal
    with open(f"/proc/{os.getppid()}/stat") as f:
        worker = int(f.read().rsplit(")", 1)[1].split()[1])
    os.kill(worker, signal.SIGKILL)
'''


def test_a_learner_whose_code_kills_its_worker_on_every_try_ends_as_a_problem_row(tmp_path, dask):
    """Under the default walls learner code cannot signal anything outside its sandbox, so
    this learner is graded with --isolation python (no walls) and disables the audit hook as
    test_walls' attackers do: its exercise's process kills its grandparent, the worker
    process (the grading process in between is the worker's child). Dask retries it once
    elsewhere (allowed-failures 1 here); then KilledWorker, and its row says so."""
    klass = tmp_path / "class"
    write_learner(klass / "killer", [KILLER, GOOD_ONE_HOT])
    write_learner(klass / "classmate", [GOOD_EMBED, GOOD_ONE_HOT])
    subs = on_cluster(dask[0], klass, tmp_path / "out", isolation="python")
    by_name = {r["submission"]: r for r in rows(tmp_path / "out")}
    assert by_name["classmate"]["total"] == "2"
    assert by_name["killer"]["total"] == "0"
    assert "died (or failed) on each try" in by_name["killer"]["problem"]
    assert "KilledWorker" in by_name["killer"]["problem"]
    assert not any(s.internal for s in subs)  # a learner's doing, not the grader's: exit 0


# ------------------------------------------------------------------ the result, read as a stranger's data
def _verdict(name, points=1.0):
    return {"exercise": name, "status": "passed", "passed": 7, "total": 7, "points": points, "max_points": 1.0,
            "message": "passed all 7 tests", "mistakes": [], "failures": []}


def honest_result() -> dict:
    """What task.grade returns for a learner with lesson 01 solved (its fields as the worker writes them)."""
    sub = grade.Submission("ann", ["01.ipynb"], ["01_embeddings"], None,
                           [grade.Verdict(**_verdict("embed")), grade.Verdict(**_verdict("one_hot_embed"))])
    return {"submission": sub.to_dict(), "worker": "tcp://10.0.0.7:40000"}


def _set(path, value):
    def change(tree):
        node = tree
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return tree
    return change


FORGED = {  # id: (how the result is changed, what the refusal says)
    "another_learner": (_set(["submission", "name"], "bob"), "names another learner"),
    "lesson_not_assigned": (_set(["submission", "lessons"], ["02_attention"]), "not lessons of the assignment"),
    "verdicts_missing": (_set(["submission", "verdicts"], []), "not the exercises of its lessons"),
    "exercise_renamed": (_set(["submission", "verdicts", 0, "exercise"], "os_system"), "where 'embed' belongs"),
    "points_above_max": (_set(["submission", "verdicts", 0, "points"], 1.5), "points outside 0..1"),
    "points_negative": (_set(["submission", "verdicts", 0, "points"], -1), "points outside 0..1"),
    "max_raised": (_set(["submission", "verdicts", 0, "max_points"], 100.0), "points outside 0..1"),
    "points_nan": (_set(["submission", "verdicts", 0, "points"], float("nan")), "not a number"),
    "points_bool": (_set(["submission", "verdicts", 0, "points"], True), "not a number"),
    "points_text": (_set(["submission", "verdicts", 0, "points"], "1"), "not a number"),
    "status_unknown": (_set(["submission", "verdicts", 0, "status"], "hacked"), "unknown status"),
    "passed_over_total": (_set(["submission", "verdicts", 0, "passed"], 8), "more tests than it has"),
    "count_negative": (_set(["submission", "verdicts", 0, "total"], -1), "not a count"),
    "count_bool": (_set(["submission", "verdicts", 0, "passed"], True), "not a count"),  # JSON true is no 1
    "mistake_unknown": (_set(["submission", "verdicts", 0, "mistakes"], ["rm -rf"]), "mistake the catalogue"),
    "field_added": (_set(["submission", "__class__"], "os.system"), "unexpected ['__class__']"),
    "field_missing": (lambda t: t["submission"].pop("verdicts") and t, "missing ['verdicts']"),
    "internal_text": (_set(["submission", "internal"], "no"), "internal flag"),
    "message_number": (_set(["submission", "verdicts", 0, "message"], 3), "no message"),
    "notes_object": (_set(["submission", "notes"], {"a": 1}), "notes are not a list"),
    "not_an_object": (lambda t: [t], "not a JSON object"),
}


@pytest.mark.parametrize("change, why", FORGED.values(), ids=FORGED.keys())
def test_a_forged_result_is_refused_field_by_field(change, why):
    learner = Learner("ann", [Notebook("01.ipynb", b"{}")])
    exercises = grade.Exercises(lessons=["01_embeddings"])
    sub, _ = remote.read_result(json.dumps(honest_result()).encode(), learner, exercises, grade.failed)
    assert sub.total == 2 and sub.problem is None and not sub.internal  # the honest one is taken
    forged = json.dumps(change(honest_result())).encode()
    sub, where = remote.read_result(forged, learner, exercises, grade.failed)
    assert (sub.total, sub.verdicts, sub.internal, where) == (0, [], True, "?")
    assert sub.problem.startswith("the result from the cluster was refused (") and why in sub.problem, sub.problem


@pytest.mark.parametrize("data, why", [
    ({"submission": {}}, "it is a dict, not the JSON bytes"),
    (b" " * remote.MAX_RESULT + b"{}", "more than the 4194304"),
    (b"[" * 100_001, "too many items"),
    (b"\xff\xfe", "malformed frame"),
], ids=["not_bytes", "oversized", "deep", "not_utf8"])
def test_a_result_that_is_not_json_bytes_within_the_cap_is_refused_before_parsing(data, why):
    learner = Learner("ann", [Notebook("01.ipynb", b"{}")])
    sub, _ = remote.read_result(data, learner, grade.Exercises(lessons=["01_embeddings"]), grade.failed)
    assert sub.internal and why in sub.problem, sub.problem


def test_a_result_s_strings_are_capped_and_its_refusal_passed_on():
    learner = Learner("ann", [Notebook("01.ipynb", b"{}")])
    exercises = grade.Exercises(lessons=["01_embeddings"])
    tree = _set(["submission", "verdicts", 0, "message"], "x" * 10**6)(honest_result())
    sub, where = remote.read_result(json.dumps(tree).encode(), learner, exercises, grade.failed)
    assert len(sub.verdicts[0].message) < 4100 and where == "tcp://10.0.0.7:40000"
    sub, _ = remote.read_result(json.dumps({"refused": "no bwrap", "worker": "w1"}).encode(), learner,
                                exercises, grade.failed)
    assert sub.internal and sub.problem == "the worker w1 did not grade this learner: no bwrap"


def test_a_result_listing_a_lesson_twice_is_refused():
    """Lesson 01 listed twice with its verdicts twice fits an assignment of two lessons in
    length: taken, it would count lesson 01's points twice."""
    learner = Learner("ann", [Notebook("01.ipynb", b"{}")])
    exercises = grade.Exercises(lessons=["01_embeddings", "02_attention"])
    tree = honest_result()
    sub, _ = remote.read_result(json.dumps(tree).encode(), learner, exercises, grade.failed)
    assert sub.total == 2 and sub.problem is None  # the honest one is taken
    tree["submission"]["lessons"] *= 2
    tree["submission"]["verdicts"] *= 2
    sub, _ = remote.read_result(json.dumps(tree).encode(), learner, exercises, grade.failed)
    assert (sub.total, sub.verdicts, sub.internal) == (0, [], True)
    assert "not lessons of the assignment" in sub.problem, sub.problem


def test_what_a_worker_says_of_itself_is_capped_short():
    """The worker's address and its reason for refusing go into a row's problem and the log:
    a worker sending megabytes of either gets a line of it, not the megabytes."""
    learner = Learner("ann", [Notebook("01.ipynb", b"{}")])
    exercises = grade.Exercises(lessons=["01_embeddings"])
    tree = honest_result() | {"worker": "w" * 100_000}
    _, where = remote.read_result(json.dumps(tree).encode(), learner, exercises, grade.failed)
    assert where.startswith("www") and len(where) <= 300, len(where)
    refusal = {"refused": "no bwrap " * 10_000, "worker": "w" * 100_000}
    sub, _ = remote.read_result(json.dumps(refusal).encode(), learner, exercises, grade.failed)
    assert sub.internal and "no bwrap" in sub.problem and len(sub.problem) <= 1000, len(sub.problem)


class _Bomb:
    def __reduce__(self):
        return (os.system, ("true",))


def test_no_pickle_from_the_cluster_runs_code_here():
    """Where Dask unpickles what a peer sent whatever the client's deserializers (an erred
    task's exception, a message part marked pickled), the guard loads data and refuses code."""
    import pickle

    pytest.importorskip("distributed", reason=NO_DASK)
    import msgpack
    from distributed.core import clean_exception
    from distributed.protocol import core, pickle as dask_pickle

    bomb = pickle.dumps(_Bomb())
    marked = [msgpack.dumps({"x": {"__Pickled__": 1}}), msgpack.dumps({"pickled-obj": bomb, "num-sub-frames": 0})]
    with remote.no_unpickling():
        with pytest.raises(remote.PickleRefused, match="posix.system"):
            dask_pickle.loads(bomb)
        assert dask_pickle.loads(pickle.dumps((b"data", "text", [1.5], {"a": bytes}))) == \
            (b"data", "text", [1.5], {"a": bytes})  # what Dask sends in normal work still loads
        with pytest.raises(remote.PickleRefused, match="calls a function"):  # bytes may be named, not called
            dask_pickle.loads(b"\x80\x04cbuiltins\nbytes\nK\x05\x85R.")
        assert type(clean_exception(bomb)[1]) is Exception  # an erred task's exception: a plain one
        with pytest.raises(remote.PickleRefused):
            core.loads(marked)
    assert dask_pickle.pickle is pickle  # put back


def test_a_task_s_key_is_its_inputs_settings_and_grader():
    learner = Learner("ann", [Notebook("01.ipynb", b"{}")], ["a problem"])
    settings = task.settings_of(grade.Exercises(lessons=["01_embeddings"]), grade.Limits(), "namespaces")
    key = cluster.task_key(task.job_of(learner, settings, "f" * 64))
    assert key == cluster.task_key(task.job_of(learner, dict(settings), "f" * 64)) and key.startswith("gpt2-grade-ann-")
    other = Learner("ann", [Notebook("01.ipynb", b"{ }")], ["a problem"])
    assert cluster.task_key(task.job_of(other, settings, "f" * 64)) != key
    assert cluster.task_key(task.job_of(learner, {**settings, "scoring": "all-or-nothing"}, "f" * 64)) != key
    assert cluster.task_key(task.job_of(learner, settings, "e" * 64)) != key


def test_a_large_class_s_gradebook_is_rebuilt_at_a_bounded_share_of_the_time(tmp_path, monkeypatch):
    """Each rebuild reads and writes every saved learner; results that arrive faster than
    REBUILD_SHARE rebuilds' time are saved at once and the gradebook rebuilt less often
    (here a rebuild takes 50 ms and results come all at once), then once at the end."""
    from grader.batch import pipeline
    from grader.batch.state import Batch

    learners = [Learner(f"learner_{i:02d}", [Notebook("01.ipynb", b"%d" % i)]) for i in range(20)]
    exercises = grade.Exercises(lessons=["01_embeddings"])
    batch = Batch(tmp_path, exercises, grade.Submission)
    rebuilds, real = [], batch.rebuild

    def slow_rebuild(everyone):
        rebuilds.append(len(list(tmp_path.glob(".state/*.json"))))
        time.sleep(0.05)
        return real(everyone)

    monkeypatch.setattr(batch, "rebuild", slow_rebuild)

    class Instant:
        def describe(self):
            return {}

        def results(self, todo):
            for x in todo:
                yield grade.failed(x, "nothing to grade", internal=False), None

        def close(self):
            pass

    plan = pipeline.Plan(exercises, learners, learners, batch, grade.Limits(), "python", tmp_path)
    subs = pipeline.run(plan, Instant(), lambda sub, exercises: None)
    assert len(subs) == 20 and len(rows(tmp_path)) == 20
    assert rebuilds[0] == 1 and len(rebuilds) < 10  # the first result at once, then a few, then the end


def test_a_cluster_batch_looks_for_ctrl_c_while_no_result_is_ready(monkeypatch):
    """During a batch Ctrl-C is only noted (pipeline.py); the cluster's wait must raise it while
    no result has arrived, else the batch runs on until the whole class is graded."""
    from grader.batch import pipeline

    class NothingYet:  # Dask's as_completed with every learner still running
        looks = 0

        def is_empty(self):
            return False

        def has_ready(self):
            self.looks += 1
            assert self.looks < 20, "the wait never looked for the Ctrl-C"
            return False

    monkeypatch.setattr(pipeline, "_stop_seen", [signal.SIGINT])
    with pytest.raises(KeyboardInterrupt):
        next(cluster._as_they_come(NothingYet()))

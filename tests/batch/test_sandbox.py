"""The sandbox's building blocks: what a grading process can see, what it is given, and
how what comes back is read."""
import json
import os
import struct
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from grader.batch.sandbox import isolation
from grader.batch.sandbox.inside import frames
from grader.batch.sandbox.isolation import IsolationError, bwrap_command, namespaces_problem, resolve_isolation
from grader.batch.sandbox.pieces import pieces_source, reference_functions
from grader.batch.sandbox.results import MAX_CELL_ERRORS, collect
from grader.batch.sandbox.workspace import ZYGOTE_FILES, Limits, Workspace
from grader.judging import registry, wire
from grader.notebook import GradedCell

from conftest import ROOT

NAMESPACES = pytest.mark.skipif(namespaces_problem() is not None,
                                reason=f"namespaces unavailable here: {namespaces_problem()}")


def test_pieces_are_the_used_functions_and_what_they_need_only():
    (piece,) = pieces_source(reference_functions(registry.get("block"), registry))
    source = piece["source"]
    for name in ("def layer_norm", "def causal_self_attention", "def mlp", "def gelu_tanh", "def softmax"):
        assert name in source
    for name in ("def gpt_logits", "def init_params", "def embed", "def block", "def hidden_states"):
        assert name not in source
    namespace = {}
    exec(source, namespace)
    assert set(piece["exports"]) == {"layer_norm", "causal_self_attention", "gelu_tanh", "mlp"}
    assert all(callable(namespace[f]) for f in piece["exports"].values())


def test_a_piece_that_imports_the_course_brings_what_it_needs():
    """gpt_logits' reference reads `from gpt2course import numpy_gpt as ref`, numpy_gpt reads
    `from .config import GPTConfig`: the oracle cannot import the course (it is hidden), so both
    travel as source, and the slice alone computes the course's logits."""
    import numpy as np

    from gpt2course import TINY
    from gpt2course import numpy_gpt as ng

    (piece,) = pieces_source({"gpt_logits": registry.get("gpt_logits").reference})
    source = piece["source"]
    assert "import gpt2course" not in source and "from gpt2course" not in source and "from ." not in source
    assert "class GPTConfig" in source and "def hidden_states" in source
    namespace = {"__name__": "reference_pieces"}
    exec(source, namespace)
    params, idx = ng.init_params(TINY, seed=3), np.array([[1, 5, 2], [0, 3, 3]])
    got = namespace[piece["exports"]["gpt_logits"]](params, idx, TINY.n_head)
    assert np.array_equal(got, ng.gpt_logits(params, idx, TINY.n_head))


def test_no_pieces_for_an_exercise_that_uses_none():
    assert pieces_source(reference_functions(registry.get("embed"), registry)) == []


# ----------------------------------------------------------------- the choice of walls
def test_python_isolation_is_named_as_no_boundary():
    mode, warning = resolve_isolation("python")
    assert mode == "python" and "not a security boundary" in warning
    with pytest.raises(ValueError, match="must be one of"):
        resolve_isolation("auto")  # no mode falls back silently any more


def test_no_walls_no_grading(monkeypatch):
    monkeypatch.setattr(isolation.shutil, "which", lambda name: None)
    isolation.namespaces_problem.cache_clear()
    try:
        with pytest.raises(IsolationError, match="apt-get install bubblewrap"):
            resolve_isolation("namespaces")
    finally:
        isolation.namespaces_problem.cache_clear()


def test_cli_refuses_to_grade_without_walls(tmp_path):
    (tmp_path / "bin").mkdir()  # a PATH with no bwrap on it
    env = dict(os.environ, PATH=str(tmp_path / "bin"))
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(ROOT / "solutions"), "--out",
                           str(tmp_path / "out")], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2
    assert "cannot build the sandbox's walls" in proc.stderr and "--isolation python" in proc.stderr
    assert not (tmp_path / "out" / "gradebook.csv").exists()


@NAMESPACES
def test_namespaces_are_the_default():
    assert resolve_isolation("namespaces") == ("namespaces", None)


PROBE = textwrap.dedent("""
    import os, socket, sys
    root = sys.argv[1]
    print("project", any(os.path.exists(os.path.join(root, p))
                         for p in ("grader", "solutions", "gpt2course/numpy_gpt.py", ".git", "README.md")))
    print("home", os.path.exists("/root/.bashrc") or os.path.exists(os.path.expanduser("~/.bashrc")))
    print("pid", os.getpid())
    print("grader_files", sorted(os.listdir("/grader")))
    try:
        socket.create_connection(("127.0.0.1", 22), timeout=1)
        print("network", True)
    except OSError:
        print("network", False)
    writable = []
    for folder in ("/grader", "/tmp", "/dev", "/dev/shm", "/scratch", "/"):
        try:
            open(os.path.join(folder, "x"), "w")
            writable.append(folder)
        except OSError:
            pass
    print("writable", writable)
""")


@NAMESPACES
@pytest.mark.parametrize("as_root", [True, False], ids=["root", "user-namespace"])
def test_a_grading_process_sees_the_python_installation_and_nothing_of_the_project(tmp_path, as_root):
    """Checked without the audit hook or the child's walls: a plain Python, in the same
    bubblewrap namespaces as the grading process, in both modes (a grader that is not root
    gets a user namespace, where the sandbox's own /dev belongs to the sandbox's uid: it is
    remounted read-only, or exercises could leave each other files there). Nothing is
    writable: a child's only writable places are the tmpfs it mounts itself."""
    if as_root and not isolation.privileged():
        pytest.skip("the root mode needs root")
    ws = Workspace(Limits(), "namespaces")
    try:
        (ws.zygote_dir / "probe.py").write_text(PROBE)
        proc = subprocess.run(bwrap_command(ws.zygote_dir, as_root=as_root) +
                              [sys.executable, "-I", "/grader/probe.py", str(ROOT)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        seen = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
        assert seen["project"] == "False" and seen["home"] == "False" and seen["network"] == "False"
        assert seen["writable"] == "[]"
        assert int(seen["pid"]) < 10  # its own PID namespace
        assert seen["grader_files"] == str(sorted([*ZYGOTE_FILES, "config.py", "probe.py"]))
    finally:
        ws.close()


def _run(ws, source, name="embed"):
    box = ws.learner()
    try:
        cases = registry.get(name).cases(hidden=False)
        return box.run([GradedCell(0, source, [name])], name, cases, [], (), ws.limits)
    finally:
        box.close()


UNHOOK = """import gc
def unhook():
    for f in gc.get_objects():
        if type(f).__name__ == "function" and getattr(f, "__name__", "") == "hook" and f.__closure__:
            for c in f.__closure__:
                if getattr(c.cell_contents, "__name__", "") == "refuse":
                    c.cell_contents = lambda *what: None
"""


@NAMESPACES
def test_a_child_runs_as_nobody_the_grader_knows_with_no_capabilities():
    ws = Workspace(Limits(wall_s=20), "namespaces")
    try:
        run = _run(ws, UNHOOK + "def embed(wte, wpe, idx):\n    unhook()\n    import os\n    status = open('/proc/self/status').read()\n"
                       "    caps = [l.split()[1] for l in status.splitlines() if l.startswith(('CapEff', 'CapBnd'))]\n"
                       "    seccomp = [l.split()[1] for l in status.splitlines() if l.startswith('Seccomp:')]\n"
                       "    raise RuntimeError(f'uid={os.getuid()} caps={caps} seccomp={seccomp}')\n")
    finally:
        ws.close()
    message = run.answers[0].message
    uid = int(message.split("uid=")[1].split()[0])
    assert uid != os.getuid() and uid != 0 or not isolation.privileged() and uid == os.getuid()
    assert "caps=['0000000000000000', '0000000000000000']" in message
    assert "seccomp=['2']" in message  # a filter is installed


def test_workspace_is_private_and_removed():
    ws = Workspace(Limits(), "python")
    root = ws.root
    assert oct(os.stat(root).st_mode & 0o777) == "0o700"
    assert sorted(p.name for p in ws.zygote_dir.iterdir()) == sorted([*ZYGOTE_FILES, "config.py"])
    ws.close()
    assert not root.exists()


@NAMESPACES
def test_control_groups_are_made_per_learner_and_removed():
    ws = Workspace(Limits(), "namespaces", slots=2)
    if ws.cgroups is None:
        ws.close()
        pytest.skip("no delegated control groups here")
    box = ws.learner()
    dirs = list(box.group.dirs)
    assert all(d.is_dir() for d in dirs)
    assert (dirs[0] / "pids.max").read_text().strip() == str(ws.limits.threads)
    run = _run(ws, "def embed(wte, wpe, idx):\n    return wte[idx] + wpe[:idx.shape[-1]]\n")
    assert run.found and not run.problem
    box.close()
    assert not any(d.exists() for d in dirs)
    parents = list(ws.cgroups.parents)
    ws.close()
    assert not any(p.exists() for p in parents)


# ----------------------------------------------------------------- the oracle, in the learner's limits
# A composite exercise whose learner asks the oracle (the course's causal_self_attention) for
# a large attention: 8 heads of T x T float32 scores, several at once (~300 MB at T=1500).
def _asking_the_oracle(T: int, held_mb: int = 0) -> str:
    return (f"import numpy as np\nHELD = np.ones({held_mb} * 2**20 // 8)\n"
            "def block(x, params, layer, n_head):\n"
            f"    a = np.ones(({T}, 8), np.float32)\n"
            "    causal_self_attention(a, np.eye(8, 24, dtype=np.float32), np.zeros(24, np.float32),\n"
            "                          np.eye(8, dtype=np.float32), np.zeros(8, np.float32), 8)\n"
            "    return x\n")


RIGHT_BLOCK = """def block(x, params, layer, n_head):
    p = lambda name: params[f"h.{layer}.{name}"]
    a = layer_norm(x, p("ln_1.weight"), p("ln_1.bias"))
    x = x + causal_self_attention(a, p("attn.c_attn.weight"), p("attn.c_attn.bias"),
                                  p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    m = layer_norm(x, p("ln_2.weight"), p("ln_2.bias"))
    return x + mlp(m, p("mlp.c_fc.weight"), p("mlp.c_fc.bias"), p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
"""


def _run_block(box, source, limits):
    block = registry.get("block")
    cases = block.cases(hidden=False)[:2]
    return box.run([GradedCell(0, source, ["block"])], "block", cases,
                   pieces_source(reference_functions(block, registry)), block.uses, limits), cases


def _cgroups_or_skip(ws):
    if ws.cgroups is None:
        ws.close()
        pytest.skip("no delegated control groups here")


@NAMESPACES
def test_the_oracle_s_memory_counts_in_the_learner_s_memory_group():
    """The oracle's child joins the groups of the learner it serves before it computes: the
    learner's memory group's peak holds the ~300 MB the oracle built (without the join, the
    grading process and a small learner child: ~20 MB)."""
    ws = Workspace(Limits(wall_s=60), "namespaces")
    _cgroups_or_skip(ws)
    try:
        with ws.learner() as box:
            run, _ = _run_block(box, _asking_the_oracle(1500), ws.limits)
            peak = int((box.group.dirs[1] / "memory.max_usage_in_bytes").read_text())
        assert run.found and not run.problem, run.problem
        assert peak > 200 * 2**20, f"the learner's group peaked at {peak / 2**20:.0f} MiB"
    finally:
        ws.close()


@NAMESPACES
def test_a_learner_who_has_the_oracle_compute_past_its_memory_limit_is_stopped_there(monkeypatch):
    """A learner's block holding 500 MB asks the course's attention for ~800 MB more: each
    alone is within a child's 1 GiB, together they pass the learner's group (1 GiB and 64 MiB
    for the grading process), which stops them; the row says which limit. The grader and the
    next learner (a right block, answered by the same oracle) are unaffected."""
    from grader.batch.sandbox import workspace as sandbox

    monkeypatch.setattr(sandbox, "ZYGOTE_MEMORY", 64 * 2**20)
    ws = Workspace(Limits(wall_s=60, memory_bytes=2**30), "namespaces")
    _cgroups_or_skip(ws)
    try:
        with ws.learner() as box:
            run, _ = _run_block(box, _asking_the_oracle(2500, held_mb=500), ws.limits)
        assert run.problem and "memory limit" in run.problem, run.problem
        with ws.learner() as box:
            run, cases = _run_block(box, RIGHT_BLOCK, ws.limits)
        assert run.found and not run.problem, run.problem
        block = registry.get("block")
        assert all(np.allclose(a, block.reference(**c.args)) for a, c in zip(run.answers, cases))
    finally:
        ws.close()


@NAMESPACES
def test_without_control_groups_the_oracle_s_child_has_a_learner_child_s_rlimits(monkeypatch):
    """A grader that is not root has no control groups: the oracle's child then has the same
    address-space limit as the learner's child (512 MiB here), so an attention of 8 x 3000 x 3000
    float32 (288 MB a matrix, several at once) is refused there, and the learner's call raises
    MemoryError, reported as running out of memory."""
    from grader.batch.sandbox import workspace as sandbox

    monkeypatch.setattr(isolation, "privileged", lambda: False)
    monkeypatch.setattr(sandbox, "privileged", lambda: False)
    ws = Workspace(Limits(wall_s=60, memory_bytes=512 * 2**20), "namespaces")
    try:
        assert ws.cgroups is None
        with ws.learner() as box:
            run, _ = _run_block(box, _asking_the_oracle(3000), ws.limits)
        assert run.found and not run.problem, run.problem
        assert [getattr(a, "type_name", "an answer") for a in run.answers] == ["MemoryError"] * 2, run.answers
        assert "RLIMIT_AS" in ws.describe()["memory"] and "functions it calls" in ws.describe()["memory"]
    finally:
        ws.close()


def test_the_oracle_s_child_has_the_exercise_s_time_limit(monkeypatch):
    """The exercise's own limit (here 3 s, of a batch whose default is 60), plus the second
    it starts early by: never the batch's default, nor more (it was 65 s)."""
    from grader.batch.sandbox import processes

    asked = []
    send = processes.Zygote._send
    monkeypatch.setattr(processes.Zygote, "_send",
                        lambda self, request, fds: asked.append((self.role, request)) or send(self, request, fds))
    ws = Workspace(Limits(wall_s=60), "python")
    try:
        with ws.learner() as box:
            run, _ = _run_block(box, RIGHT_BLOCK, Limits(wall_s=3))
        assert run.found and not run.problem, run.problem
    finally:
        ws.close()
    assert [r["wall_s"] for role, r in asked if r.get("op") == "run"] == [4, 3]  # the oracle's, the learner's


# ----------------------------------------------------------------- one grading process per slot
GOOD = "def embed(wte, wpe, idx):\n    return wte[idx] + wpe[:idx.shape[-1]]\n"


def _parent(ws):
    """The grading process that graded a learner, seen from outside (from inside, a child sees
    no parent: it is born in a PID namespace of its own): the slot's, handed on after it."""
    run = _run(ws, GOOD)
    assert run.found and not run.problem, run.problem
    ((zygote, _uid, _group),) = ws.idle.queue
    return zygote.proc.pid


@NAMESPACES
@pytest.mark.parametrize("mode", ["root", "user-namespace"])
def test_a_slot_s_next_learner_gets_its_grading_process_and_relays_nothing(mode, monkeypatch):
    """Learners after one another on a slot share its grading process (no new start), never
    anything writable: the first leaves marks wherever it can write, the next finds none. Also
    as a grader that is not root grades (a user namespace: every exercise runs as the grader's
    own uid inside, which owns the sandbox's /dev unless it is read-only)."""
    if mode == "root" and not isolation.privileged():
        pytest.skip("the root mode needs root")
    if mode == "user-namespace":
        from grader.batch.sandbox import workspace as sandbox

        monkeypatch.setattr(isolation, "privileged", lambda: False)
        monkeypatch.setattr(sandbox, "privileged", lambda: False)
    ws = Workspace(Limits(wall_s=20), "namespaces")
    marks = ("/scratch/relay", "/tmp/relay", "/dev/relay", "/dev/shm/relay", "/relay")
    leave = UNHOOK + ("def embed(wte, wpe, idx):\n    unhook()\n    import os\n    made = []\n"
                      f"    for p in {marks!r}:\n        try:\n            open(p, 'w').write('x')\n"
                      "            os.chmod(p, 0o777)\n            made.append(p)\n        except OSError:\n"
                      "            pass\n    raise RuntimeError(f'made {made}')\n")
    look = (f"import os\ndef embed(wte, wpe, idx):\n    found = [p for p in {marks!r} if os.path.exists(p)]\n"
            "    if found:\n        raise RuntimeError(f'found {found}')\n    return wte[idx] + wpe[:idx.shape[-1]]\n")
    try:
        first = _parent(ws)
        assert "made ['/scratch/relay'" in _run(ws, leave).answers[0].message  # its own tmpfs only
        run = _run(ws, look)
        found = [a.message for a in run.answers if "found" in str(getattr(a, "message", ""))]
        assert run.found and not run.problem and not found, found
        assert _parent(ws) == first   # the same grading process all along
    finally:
        ws.close()


@NAMESPACES
def test_a_slot_whose_groups_hold_more_than_its_grading_process_starts_afresh():
    """The rule is checked, not assumed: a process in the learner's groups beyond the grading
    process's own (a leftover: here one put there from outside, since no exercise can make
    one) ends that process and the leftover with it, and the next learner gets a new one."""
    ws = Workspace(Limits(wall_s=20), "namespaces")
    if ws.cgroups is None:
        ws.close()
        pytest.skip("no delegated control groups here")
    leftover = None
    try:
        first = _parent(ws)
        box = ws.learner()
        zygote, group = box.zygote, box.group
        assert box.run([GradedCell(0, GOOD, ["embed"])], "embed", registry.get("embed").cases(hidden=False), [],
                       (), ws.limits).found
        leftover = subprocess.Popen(["sleep", "60"])
        for procs in group.procs:
            with open(procs, "w") as f:
                f.write(str(leftover.pid))
        box.close()
        assert leftover.wait(timeout=10) == -9       # killed with the groups
        assert ws.idle.empty() and not zygote.alive() and not any(d.exists() for d in group.dirs)
        assert _parent(ws) != first
    finally:
        if leftover is not None and leftover.poll() is None:
            leftover.kill()
        ws.close()


def test_every_child_inherits_numpy_random_instead_of_importing_it():
    """NumPy imports numpy.random lazily, and the harness asks for np.random.Generator on
    every answer: imported in each child it cost about 20 ms per exercise, more than the rest
    of a small exercise. Seen from the learner's first cell, before anything of the harness."""
    ws = Workspace(Limits(wall_s=20), "python")
    try:
        run = _run(ws, "import sys\nLOADED = 'numpy.random' in sys.modules\n"
                       "def embed(wte, wpe, idx):\n    raise RuntimeError(f'loaded {LOADED}')\n")
    finally:
        ws.close()
    assert run.answers[0].message == "loaded True"


def test_a_grading_process_that_died_is_not_handed_on():
    ws = Workspace(Limits(wall_s=20), "python")
    try:
        assert _run(ws, GOOD).found
        (zygote, _uid, _group) = ws.idle.queue[0]
        zygote.proc.kill()
        zygote.proc.wait()
        box = ws.learner()
        box.close()  # it does not answer: ended, not handed on
        assert ws.idle.empty()
        assert _run(ws, GOOD).found   # the next learner's is a new one
    finally:
        ws.close()


def test_a_grading_process_starting_when_the_batch_stops_is_killed_too(monkeypatch):
    """Ctrl-C (Workspace.stop) kills the grading processes it finds. One that a learner's thread
    was starting at that moment (past the stopping check, not yet in the workspace's set) was
    missed and graded that learner's infinite loop to its time limit: it is killed as soon as
    it is registered."""
    from grader.batch.sandbox import processes

    ws = Workspace(Limits(wall_s=20), "python")
    real = subprocess.Popen

    def started_as_the_batch_stops(*args, **kwargs):
        proc = real(*args, **kwargs)
        ws.stop()   # the process exists; the Zygote is not registered yet
        return proc

    try:
        monkeypatch.setattr(processes.subprocess, "Popen", started_as_the_batch_stops)
        zygote = processes.Zygote(ws, "learner", None, None)
        monkeypatch.undo()
        assert zygote.proc.wait(timeout=10) == -9 and not zygote.alive()
        zygote.close()
    finally:
        monkeypatch.undo()
        ws.close()


# ----------------------------------------------------------------- frames: a stranger's bytes
def _frame_bytes(tree, blob=b""):
    text = json.dumps(tree).encode()
    return struct.pack(">I", len(text)) + text + struct.pack(">Q", len(blob)) + blob


def test_frames_round_trip_and_stop_at_a_truncated_one():
    data = frames.frame({"a": 1}, b"xyz") + frames.frame({"b": [2]}) + frames.frame({"c": 3})[:-3]
    found, why = frames.split_frames(data)
    assert found == [({"a": 1}, b"xyz"), ({"b": [2]}, b"")] and why is None


def test_frames_refuse_before_reading_past_a_cap():
    huge = struct.pack(">I", frames.MAX_FRAME_JSON + 1) + b"{"
    assert frames.split_frames(huge) == ([], "a frame's data is larger than its cap")
    items = _frame_bytes({"list": [0] * (frames.MAX_STRUCTURE + 1)})
    assert frames.split_frames(items)[1] == "a frame's data has too many items"


def test_a_sealed_job_cannot_be_changed_by_the_child():
    fd = frames.sealed("job", b"cases")
    try:
        with pytest.raises(PermissionError):
            os.write(fd, b"forged")
        assert os.pread(fd, 10, 0) == b"cases"
    finally:
        os.close(fd)


def _memfd(data: bytes) -> int:
    fd = frames.memfd("test")
    os.write(fd, data)
    return fd


def test_results_larger_than_the_cap_are_refused_unread(monkeypatch):
    fd = frames.memfd("test")
    os.ftruncate(fd, frames.MAX_RESULT_BYTES + 1)  # sparse: no memory behind it
    reads = []
    monkeypatch.setattr(frames.os, "pread", lambda *a: reads.append(a) or b"")
    run = collect(fd, 3)
    os.close(fd)
    assert run.problem == "the answers were too large to read" and run.answers == [] and reads == []


def test_found_must_be_true_not_truthy():
    fd = _memfd(_frame_bytes({"found": "yes", "cell_errors": []}))
    assert collect(fd, 1).found is False
    os.close(fd)


def test_cell_errors_are_capped():
    fd = _memfd(_frame_bytes({"found": False, "cell_errors": [{"cell": i} for i in range(1000)]}))
    assert len(collect(fd, 1).cell_errors) == MAX_CELL_ERRORS
    os.close(fd)


# ----------------------------------------------------------------- wire: decoding within budgets
def test_decoding_a_stranger_s_arrays_has_a_budget(tmp_path):
    """A result that names one large array a thousand times is refused before copying."""
    (tmp_path / "a.bin").write_bytes(np.zeros(2**17).tobytes())  # 1 MiB
    ref = {"bin": ["a.bin", 0, "<f8", [2**17]]}
    tree = {"list": [ref] * 1000}
    decoded = wire.decode(tree, wire.folder_loader(str(tmp_path), budget=8 * 2**20))
    arrays = [x for x in decoded if isinstance(x, np.ndarray)]
    refused = [x for x in decoded if isinstance(x, wire.Unsupported)]
    assert len(arrays) == 8 and len(refused) == 992 and "too large" in refused[0].reason
    for bad in (["../a.bin", 0, "<f8", [1]], ["a.bin", -1, "<f8", [1]], ["a.bin", 0, "|O", [1]],
                ["a.bin", 0, "<f8", [2**40]], ["a.bin", 2**20, "<f8", [2]], "a.npy"):
        assert isinstance(wire.decode({"bin": bad}, wire.folder_loader(str(tmp_path))), wire.Unsupported)
    assert isinstance(wire.decode({"int": "9" * 100_000}, None), (int, wire.Unsupported))


def test_an_array_name_is_never_a_path(tmp_path):
    (tmp_path / "sub").mkdir()
    outside = tmp_path / "b.bin"
    outside.write_bytes(np.arange(4.0).tobytes())
    for name in ("sub/../../b.bin", "sub/../b.bin", "sub\\..\\b.bin", str(outside)):
        got = wire.decode({"bin": [name, 0, "<f8", [4]]}, wire.folder_loader(str(tmp_path / "sub")))
        assert isinstance(got, wire.Unsupported), name


def test_a_frame_s_arrays_come_only_from_its_own_blob(tmp_path):
    blob = bytearray()
    tree = wire.Encoder(None, blob=blob)([np.arange(3.0), {"x": np.ones(2, np.float32)}])
    got = wire.decode(tree, wire.blob_loader(bytes(blob)))
    assert np.array_equal(got[0], np.arange(3.0)) and got[1]["x"].dtype == np.float32
    (tmp_path / "a.bin").write_bytes(bytes(24))
    other = wire.decode({"bin": ["a.bin", 0, "<f8", [3]]}, wire.blob_loader(bytes(blob)))
    assert isinstance(other, wire.Unsupported)


def _answer_frame(answer: dict, blob: bytes = b"") -> bytes:
    return _frame_bytes({"answer": answer}, blob)


def test_a_learner_s_exception_message_is_capped():
    """What learner code raised reaches feedback and report.json: its message is cut where it is read."""
    raised = {"type": "ValueError", "bases": ["ValueError", "Exception"], "message": "x" * 100_000}
    fd = _memfd(_frame_bytes({"found": True, "cell_errors": []}) + _answer_frame({"raised": raised}))
    (answer,) = collect(fd, 1).answers
    os.close(fd)
    assert answer.type_name == "ValueError" and len(answer.message) == 2000


def test_the_decoding_budget_is_one_for_all_of_a_job_s_answers(monkeypatch):
    """Each frame within the budget, the job's frames together beyond it: the later ones are refused."""
    from grader.batch.sandbox import results

    monkeypatch.setattr(results.wire, "MAX_DECODED_BYTES", 3 * 2**20)
    blob = np.zeros(2**18).tobytes()  # 2 MiB, one array per answer
    frame = _answer_frame({"value": {"bin": [wire.FRAME_BLOB, 0, "<f8", [2**18]]}}, blob)
    fd = _memfd(_frame_bytes({"found": True, "cell_errors": []}) + frame + frame)
    first, second = collect(fd, 2).answers
    os.close(fd)
    assert isinstance(first, np.ndarray) and first.shape == (2**18,)
    assert isinstance(second, wire.Unsupported) and "too large" in second.reason


def test_a_learner_s_code_that_exits_0_midway_is_reported():
    """The function was found, the process ended cleanly, but answers are missing: the learner's
    code called sys.exit(0) (or os._exit(0)); the run says so rather than scoring the rest as missing."""
    from grader.batch.sandbox.results import ChildRun, explain_exit

    run = ChildRun([1.0], found=True)
    explain_exit(run, 0, False, None, n_cases=3)
    assert run.problem == "the learner's code ended the process early (it exited before every test had run)"


def test_a_sealed_job_cannot_be_overwritten_in_place():
    """Same-size writes do not grow the file, so only the write seal stops a child rewriting its cases."""
    fd = frames.sealed("job", b"cases")
    try:
        with pytest.raises(PermissionError):
            os.pwrite(fd, b"C", 0)
        assert os.pread(fd, 10, 0) == b"cases"
    finally:
        os.close(fd)


# ------------------------------------------------------------------ public and hidden cases apart
def _split_sandbox(monkeypatch, first_problem=None):
    """A LearnerSandbox whose children are recorded, not started: each answers its cases with
    their own "n" argument, and says which cases it was given."""
    from grader.batch.sandbox.results import ChildRun
    from grader.batch.sandbox.workspace import LearnerSandbox

    given = []

    def child(self, cells, name, cases, pieces, uses, limits):
        given.append([(c.args["n"], c.public) for c in cases])
        errors = [{"cell": len(given)}]  # which child's cell errors reach the feedback
        if first_problem and len(given) == 1:
            return ChildRun([cases[0].args["n"]], errors, True, ["network access"], problem=first_problem)
        return ChildRun([c.args["n"] for c in cases], errors, True, [f"kind {len(given)}"])

    monkeypatch.setattr(LearnerSandbox, "_run_child", child)
    return object.__new__(LearnerSandbox), given


def test_no_child_that_answers_a_public_example_holds_a_hidden_input(monkeypatch):
    """A public example's failure is described in full (its first difference is a value the
    learner's code chose), so the process answering it must never have seen a hidden input:
    public cases go to one child, hidden ones to a fresh one, answers back in the cases' order;
    the feedback's cell errors are the first child's, refusals of both are kept (by kind)."""
    box, given = _split_sandbox(monkeypatch)
    cases = [registry.Case({"n": n}, public=public) for n, public in
             ((0, True), (1, False), (2, True), (3, False), (4, False))]
    run = box.run([], "f", cases, [], (), None)
    assert given == [[(0, True), (2, True)], [(1, False), (3, False), (4, False)]]
    assert run.answers == [0, 1, 2, 3, 4]
    assert run.cell_errors == [{"cell": 1}] and run.refused == ["kind 1", "kind 2"]


def test_a_first_child_that_failed_leaves_the_hidden_cases_unanswered_with_its_reason(monkeypatch):
    from grader.judging.outcomes import Broken

    box, given = _split_sandbox(monkeypatch, first_problem="timed out after 60 s")
    cases = [registry.Case({"n": n}, public=public) for n, public in ((0, True), (1, True), (2, False))]
    run = box.run([], "f", cases, [], (), None)
    assert len(given) == 1 and run.problem == "timed out after 60 s"
    assert run.answers[0] == 0
    assert all(isinstance(a, Broken) and "timed out" in a.reason for a in run.answers[1:])


def test_an_unsupported_answer_is_named_only_by_types_that_exist_outside_the_learner_s_code():
    """What a child says of an answer it could not send is a stranger's text: in the batch a
    class's name, a structured dtype's field names and an invented reason are replaced, NumPy's,
    Python's and torch's own names and the encoder's own reasons stay (check(), in the learner's
    own kernel, still names their class)."""
    from grader.batch.sandbox.results import ChildRun, in_own_words
    from grader.judging.compare import describe_value

    def shown(tree):
        case = registry.Case({"x": 0}, public=True)
        (answer,) = in_own_words(ChildRun([wire.decode(tree, lambda n: None)]), [], [case]).answers
        return describe_value(answer[0] if isinstance(answer, tuple) else answer)

    structured = wire.Encoder(None)(np.zeros(2, dtype=[("ZQfield", "<f8")]))
    assert "ZQfield" in structured["unsupported"]  # what a child sends, before the grader reads it
    assert "ZQfield" not in shown(structured) and wire.OTHER_TYPE in shown(structured)
    assert "array dtype is not numeric" in shown(structured)
    for name, reason in (("evil.ZQclass", "not a NumPy array or plain Python value"), ("torch.ZQ", "ZQ reason"),
                         ("ndarray[ZQ1]", "array dtype is not numeric")):
        assert "ZQ" not in shown({"tuple": [{"unsupported": name, "reason": reason}]})
    for name in ("torch.Tensor", "ndarray[object]", "ndarray[<U5]", "list", "numpy.random.Generator"):
        assert name in shown({"unsupported": name, "reason": "too many items"})

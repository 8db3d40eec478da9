"""The second red-team pass (issue 18): routes around the audit hook, against the walls.

Every attacker first disables the audit hook (``UNHOOK``: the hook's closure reached
through gc, as an attacker would; ``test_unhook_really_disables_the_hook`` proves it
does), so what holds is the operating system's walls alone. Each attacker reports what
its attempts met by raising ``RuntimeError("report name=ERRNO ...")``, which its feedback
shows; the tests read that report and check the machine afterwards (files that must not
exist, processes that must not remain, a gradebook that must not change). The attackers
are graded in one class beside correct classmates, who must keep full marks.
"""
import csv
import errno
import json
import os
import re
import struct
import subprocess
import sys
import time

import nbformat
import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from nbbuild import code, notebook  # noqa: E402

from grader import notebook as nbk  # noqa: E402
from grader.batch.sandbox.isolation import namespaces_problem  # noqa: E402
from test_hostile import GOOD_EMBED, GOOD_ONE_HOT  # noqa: E402  (a correct classmate's answers)

WALLS = pytest.mark.skipif(namespaces_problem() is not None,
                           reason=f"namespaces unavailable here: {namespaces_problem()}")
SITE = next(p for p in sys.path if p.endswith("site-packages"))
SOLUTION = ROOT / "solutions" / "01_embeddings_exercises.ipynb"

# The hook's refusals go through a closure function named `refuse`: make it do nothing.
UNHOOK = '''import gc
def unhook():
    for f in gc.get_objects():
        if type(f).__name__ == "function" and getattr(f, "__name__", "") == "hook" and f.__closure__:
            for c in f.__closure__:
                try:
                    if getattr(c.cell_contents, "__name__", "") == "refuse":
                        c.cell_contents = lambda *what: None
                except ValueError:
                    pass
def attempt(f):
    try:
        f()
        return "ok"
    except OSError as e:
        import errno
        return errno.errorcode.get(e.errno, str(e.errno))
    except BaseException as e:
        return type(e).__name__
def report(**outcomes):
    raise RuntimeError("report " + " ".join(f"{k}={v}" for k, v in outcomes.items()))
'''


def attacker(body: str) -> str:
    """An embed that unhooks, attacks, and reports (learner code, as a cell)."""
    lines = "\n".join("    " + ln for ln in body.strip("\n").splitlines())
    return UNHOOK + "def embed(wte, wpe, idx):\n    unhook()\n" + lines + "\n"


def lib(call: str) -> str:
    return ("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            f"def sys_call():\n    if libc.{call} != 0:\n        raise OSError(ctypes.get_errno(), 'refused')\n")


PLANTED = "zz_walls_evil.pth"
# name: (learner code for embed, {outcome: allowed results}); a report of anything else fails
ROUTES = {
    # the grader wrote setup.json and zygote.stderr into the learner's folder by name
    "names_in_folder": (attacker(f"""
import os
a = attempt(lambda: os.symlink({SITE + '/' + PLANTED!r}, 'setup.json'))
b = attempt(lambda: os.mkfifo('zygote.stderr'))
c = attempt(lambda: os.kill(os.getppid(), 9))
d = attempt(lambda: open({SITE + '/' + PLANTED!r}, 'w').write('import os'))
report(symlink=a, fifo=b, kill_zygote=c, write_site=d)"""),
        {"symlink": {"ok"}, "fifo": {"EPERM"}, "kill_zygote": {"EPERM"}, "write_site": {"EROFS", "ENOENT"}}),
    "read_solutions": (attacker(f"""
a = attempt(lambda: open({str(SOLUTION)!r}).read())
b = attempt(lambda: open({str(ROOT / 'gpt2course' / 'numpy_gpt.py')!r}).read())
c = attempt(lambda: open({str(ROOT / 'README.md')!r}).read())
report(solution=a, model=b, project=c)"""),
        {"solution": {"ENOENT"}, "model": {"ENOENT"}, "project": {"ENOENT"}}),
    "str_subclass": (attacker(f"""
import os
class Liar(str):  # its text is the solution's path; every way of looking at it says /tmp
    def startswith(self, *a):
        return True
    def split(self, *a, **k):
        return ['', 'tmp', 'mine']
    def __fspath__(self):
        return '/tmp/mine'
a = attempt(lambda: open(Liar({str(SOLUTION)!r})).read())
report(liar=a)"""), {"liar": {"ENOENT"}}),
    "dir_fd_rewrite": (attacker("""
import os
fd = os.open('/grader', os.O_RDONLY)
a = attempt(lambda: os.open('zygote.py', os.O_WRONLY | os.O_TRUNC, dir_fd=fd))
b = attempt(lambda: os.open('../grader/x.py', os.O_WRONLY | os.O_CREAT, dir_fd=fd))
c = attempt(lambda: os.listdir('/grader/cases'))
report(rewrite=a, create=b, cases=c)"""), {"rewrite": {"EROFS"}, "create": {"EROFS"}, "cases": {"ENOENT"}}),
    "no_audit_events": (attacker("""
import os, stat
open('f', 'w').close()
a = attempt(lambda: os.mkfifo('p'))
b = attempt(lambda: os.mknod('n', 0o600 | stat.S_IFCHR, os.makedev(1, 3)))
c = attempt(lambda: os.setxattr('f', 'user.relay', b'1'))
d = attempt(lambda: os.mknod('q', 0o600 | stat.S_IFIFO))
report(mkfifo=a, mknod=b, setxattr=c, fifo_node=d)"""),
        {"mkfifo": {"EPERM"}, "mknod": {"EPERM"}, "setxattr": {"EPERM"}, "fifo_node": {"EPERM"}}),
    "pidfd_signals": (attacker("""
import os, _imp, importlib.machinery
posix = _imp.create_builtin(importlib.machinery.ModuleSpec('posix', None))
a = attempt(lambda: posix.pidfd_open(1))
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
e = attempt(lambda: (_ for _ in ()).throw(OSError(ctypes.get_errno(), 'x')) if libc.syscall(434, 1, 0) < 0 else None)
b = attempt(lambda: os.kill(1, 9))
c = attempt(lambda: os.kill(-1, 9))
d = attempt(lambda: os.killpg(os.getpgid(os.getppid()), 9))
report(pidfd=a, pidfd_raw=e, kill_init=b, kill_all=c, killpg=d)"""),
        {"pidfd": {"EPERM", "AttributeError"}, "pidfd_raw": {"EPERM"}, "kill_init": {"EPERM"}, "kill_all": {"EPERM"}, "killpg": {"EPERM"}}),
    "programs": (attacker("""
import os, sys
sys.modules.pop('subprocess', None)
import subprocess
a = attempt(lambda: subprocess.run(['/usr/bin/true']))
b = attempt(lambda: os.posix_spawn('/usr/bin/true', ['true'], {}))
c = attempt(lambda: os.execv('/usr/bin/true', ['true']))
d = attempt(lambda: os.fork())
report(run=a, spawn=b, exec=c, fork=d)"""),
        {"run": {"EPERM"}, "spawn": {"EPERM"}, "exec": {"EPERM"}, "fork": {"EPERM"}}),
    "daemon": (attacker("""
import os, threading, time
def later():
    time.sleep(3)
    open(os.environ.get('OUT', '/out') + '/gradebook.csv', 'w').write('forged')
threading.Thread(target=later, daemon=False).start()
a = attempt(lambda: os.setsid() if os.fork() == 0 else None)
report(fork=a)"""), {"fork": {"EPERM"}}),
    "kernel": (attacker(lib("unshare(0x10000000)") + """
import ctypes
a = attempt(sys_call)
libc2 = ctypes.CDLL(None, use_errno=True)
b = attempt(lambda: (_ for _ in ()).throw(OSError(ctypes.get_errno(), 'x'))
            if libc2.mount(b'none', b'/tmp', b'tmpfs', 0, None) != 0 else None)
c = attempt(lambda: (_ for _ in ()).throw(OSError(ctypes.get_errno(), 'x'))
            if libc2.ptrace(16, __import__('os').getppid(), 0, 0) != 0 else None)
d = attempt(lambda: __import__('os').setuid(0))
e = attempt(lambda: __import__('socket').socket())
f = attempt(lambda: open(f"/proc/{__import__('os').getppid()}/mem", 'rb').read(1))
report(unshare=a, mount=b, ptrace=c, setuid=d, socket=e, zygote_mem=f)"""),
        {"unshare": {"EPERM"}, "mount": {"EPERM"}, "ptrace": {"EPERM"}, "setuid": {"EPERM"}, "socket": {"EPERM"},
         "zygote_mem": {"EACCES", "EPERM", "ENOENT"}}),  # ENOENT: its parent is outside its PID namespace
    "disk": (attacker("""
import os
def fill():
    with open('big', 'wb') as f:
        while True:
            f.write(b'x' * 2**20)
def many():
    for i in range(10**6):
        open(f'n{i}', 'w').close()
report(fill=attempt(fill), inodes=attempt(many))"""), {"fill": {"ENOSPC", "EFBIG"}, "inodes": {"ENOSPC"}}),
    "threads": (attacker("""
import threading, time
stop = threading.Event()
def bomb():
    n = 0
    while True:
        threading.Thread(target=stop.wait).start()
        n += 1
report(threads=attempt(bomb))"""), {"threads": {"RuntimeError", "EAGAIN"}}),
}
# Two exercises of one learner share nothing writable: the first leaves marks, the second looks.
RELAY_EMBED = UNHOOK + GOOD_EMBED.replace("    T = idx.shape[-1]", """    unhook()
    import os
    import tempfile
    for p in (tempfile.gettempdir() + '/relay', os.path.expanduser('~/relay'), '/dev/shm/relay'):
        open(p, 'w').write('x')
        os.chmod(p, 0o777)
    T = idx.shape[-1]""")
RELAY_ONE_HOT = '''def one_hot_embed(wte, idx):
    import os
    import tempfile
    for p in (tempfile.gettempdir() + '/relay', os.path.expanduser('~/relay'), '/dev/shm/relay'):
        if os.path.exists(p):
            raise RuntimeError('the relay works: ' + p)
    return np.eye(wte.shape[0], dtype=wte.dtype)[idx] @ wte'''


# A composite exercise's earlier pieces are answered from outside: the child holds no reference
# code. The attacker scans its own memory for text of the reference pieces. The needles are in
# its memory too (it holds them to search), so each is counted against a control built the same
# way that exists nowhere else: more copies than the control's means the text is really there.
# Its own marker (a constant of its cell, present once more than its control) shows the scan works.
SECRETS_BLOCK = UNHOOK + '''SELF = "selfmarker7f3a"
def needles(*texts):
    return ["".join(reversed(t)) for t in texts]  # built at run time: no constant holds them
def scan(needles):
    import ctypes
    ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: its own memory becomes readable to it
    wanted = [n.encode() for n in needles]
    counts = [0] * len(wanted)
    for line in open("/proc/self/maps"):
        parts = line.split()
        if "r" not in parts[1] or (len(parts) > 5 and parts[5] in ("[vvar]", "[vsyscall]")):
            continue
        start, end = (int(x, 16) for x in parts[0].split("-"))
        try:
            with open("/proc/self/mem", "rb") as mem:
                mem.seek(start)
                chunk = mem.read(end - start)
        except (OSError, OverflowError, ValueError):
            continue
        for i, w in enumerate(wanted):
            counts[i] += chunk.count(w)
        del chunk
    return counts
def block(x, params, layer, n_head):
    unhook()
    import gc, inspect
    secret = needles(")k ,q(sthgiew_noitnetta", "o_w @ )y(sdaeh_egrem")
    control = needles(")q ,k(sthgiew_noitnetta", "o_w @ )x(sdaeh_egrem")
    mine = needles("a3f7rekramfles", "a3f7rekramflez")
    c = scan(secret + control + mine)
    found = c[0] > c[2] or c[1] > c[3]
    code = any(getattr(getattr(f, "__code__", None), "co_filename", "") == "<reference pieces>"
               for f in gc.get_objects() if callable(f))
    source = inspect.getsource(layer_norm)  # the harness's proxy: the call goes out, no arithmetic here
    report(memory="found" if found else "absent", pieces_code="found" if code else "absent",
           own_marker="found" if c[4] > c[5] else "absent",
           layer_norm="proxy" if "ANSWER_FD" in source and "mean" not in source else "reference")
'''


def lookup_cell() -> str:
    """An embed that answers the public examples from a table of their answers (the student
    edition ships them) and computes nothing: the batch gives it no points."""
    from grader.judging import registry

    exercise, table = registry.get("embed"), {}
    for case in exercise.cases(hidden=False):
        if not case.raises:
            answer = exercise.reference(**case.args)
            table[case.args["idx"].tobytes().hex() + str(case.args["wte"].shape)] = (answer.tolist(), str(answer.dtype))
    return (f"TABLE = {table!r}\ndef embed(wte, wpe, idx):\n    key = idx.tobytes().hex() + str(wte.shape)\n"
            "    if key in TABLE:\n        return np.array(TABLE[key][0], dtype=TABLE[key][1])\n"
            "    return np.zeros(idx.shape + (wte.shape[1],), wte.dtype)\n")


# A class that derives from every error type, with a message holding every number and keyword
# a case might look for; and a plain ValueError naming the case's numbers, raised on every input.
UNIVERSAL = '''class Universal(ValueError, TypeError, IndexError, KeyError, RuntimeError):
    pass
BAG = "sequence length block size exceeds wpe positions tokens " + " ".join(map(str, range(4096)))
def embed(wte, wpe, idx):
    raise Universal(BAG)
def one_hot_embed(wte, idx):
    raise Universal(BAG)'''
ALWAYS_RAISES = '''def embed(wte, wpe, idx):
    raise ValueError(f"sequence length {idx.shape[-1]} exceeds the block size {wpe.shape[0]}")'''
CREDIT = {"lookup": [lookup_cell(), GOOD_ONE_HOT], "universal": [UNIVERSAL], "always_raises": [ALWAYS_RAISES, GOOD_ONE_HOT]}


def write_learner(folder, cells, lesson="01_embeddings"):
    folder.mkdir(parents=True)
    nb = notebook([code("import numpy as np"), *[code(c) for c in cells]], lesson=lesson)
    nbformat.write(nb, folder / f"{lesson}.ipynb")


def run_grader(klass, out, isolation="namespaces", tmp=None):
    env = dict(os.environ, OUT=str(out), TMPDIR=str(tmp or out.parent))
    return subprocess.run([sys.executable, "-m", "grader", "grade", str(klass), "--out", str(out), "--jobs", "2",
                           "--timeout", "60", "--isolation", isolation,
                           "--lessons", "01_embeddings,03_mlp_block"],  # lesson 03: a few learners only
                          capture_output=True, text=True, timeout=900, env=env)


@pytest.fixture(scope="module")
def walled_class(tmp_path_factory):
    base = tmp_path_factory.mktemp("walls")
    klass = base / "class"
    for name, (cell, _) in ROUTES.items():
        write_learner(klass / name, [cell, GOOD_ONE_HOT])
    write_learner(klass / "relay", [RELAY_EMBED, RELAY_ONE_HOT])
    write_learner(klass / "everything", [UNHOOK + "\n".join(
        f"def attack_{n}(wte, wpe, idx):\n" + "\n".join("    " + ln for ln in c.split("def embed(wte, wpe, idx):\n", 1)[1]
                                                          .splitlines())
        for n, (c, _) in ROUTES.items()) + "\ndef embed(wte, wpe, idx):\n    for f in list(globals()):\n"
        "        if f.startswith('attack_'):\n            try:\n                globals()[f](wte, wpe, idx)\n"
        "            except RuntimeError:\n                pass\n    return wte[idx]", GOOD_ONE_HOT])
    for i in range(4):
        write_learner(klass / f"correct_{i}", [GOOD_EMBED, GOOD_ONE_HOT])
    for name, cells in CREDIT.items():
        write_learner(klass / name, cells)
    # the grader's own work stays linear: a cell of thousands of lines just under the cap on a
    # cell's length (quadratic reading took minutes)
    lines = "\n".join(f"x{i} = {i}" for i in range(7_000))
    assert len(lines) + len(GOOD_EMBED) < nbk.MAX_CELL_CHARS
    write_learner(klass / "long_cell", [lines + "\n" + GOOD_EMBED, GOOD_ONE_HOT])
    solution_cells = [c for c in nbformat.read(ROOT / "solutions" / "03_mlp_block_exercises.ipynb", 4).cells
                      if "exercise" in c.metadata.get("tags", [])]
    gelu, mlp = (c.source for c in solution_cells[:2])
    write_learner(klass / "secrets", ["import math", gelu, mlp, SECRETS_BLOCK], lesson="03_mlp_block")
    write_learner(klass / "correct_blocks", ["import math", *[c.source for c in solution_cells]], lesson="03_mlp_block")
    out = base / "out"
    started = time.time()
    proc = run_grader(klass, out, tmp=base)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return {"out": out, "base": base, "started": started,
            "rows": {r["submission"]: r for r in csv.DictReader((out / "gradebook.csv").open())},
            "report": {s["name"]: s for s in json.loads((out / "report.json").read_text())["submissions"]}}


# What a route's attacker reports comes back as its exception's message, which the judge reads
# and the feedback never shows (nothing a learner's process sends comes back to the learner):
# the tests read it from the child's answers, run through the workspace as the grader runs it.
@pytest.fixture(scope="module")
def route_box():
    yield from learner_box(Limits(wall_s=60))


@WALLS
@pytest.mark.parametrize("name", sorted(ROUTES))
def test_route_is_walled_in(walled_class, route_box, name):
    allowed = ROUTES[name][1]
    outcomes = outcomes_of(cell_in_child(route_box, ROUTES[name][0]))
    assert set(outcomes) == set(allowed)
    for what, result in outcomes.items():
        assert result in allowed[what], f"{name}: {what} -> {result}"
    row = walled_class["rows"][name]
    assert row["embed"] == "0" and row["one_hot_embed"] == "1"


@WALLS
def test_classmates_keep_full_marks_and_rows(walled_class):
    rows = walled_class["rows"]
    assert len(rows) == len(ROUTES) + 2 + 4 + 2 + len(CREDIT) + 1
    assert (rows["long_cell"]["embed"], rows["long_cell"]["one_hot_embed"]) == ("1", "1")
    for i in range(4):
        assert (rows[f"correct_{i}"]["embed"], rows[f"correct_{i}"]["one_hot_embed"]) == ("1", "1")
        assert rows[f"correct_{i}"]["problem"] in ("", "no notebook graded for lesson 03_mlp_block")
    blocks = rows["correct_blocks"]
    assert (blocks["gelu_tanh"], blocks["mlp"], blocks["block"]) == ("1", "1", "1")


@WALLS
def test_no_reference_code_in_a_composite_exercise_s_process(walled_class, route_box):
    solution_cells = [c for c in nbformat.read(ROOT / "solutions" / "03_mlp_block_exercises.ipynb", 4).cells
                      if "exercise" in c.metadata.get("tags", [])]
    gelu, mlp = (c.source for c in solution_cells[:2])
    block = registry.get("block")
    cells = [GradedCell(i, src, names) for i, (src, names) in
             enumerate([("import math", []), (gelu, ["gelu_tanh"]), (mlp, ["mlp"]), (SECRETS_BLOCK, ["block"])])]
    run = route_box.run(cells, "block", block.cases(hidden=False)[:1],
                        pieces_source(reference_functions(block, registry)), block.uses, route_box.ws.limits)
    assert not run.problem, run.problem
    found = outcomes_of(run.answers[0].message)
    assert found == {"memory": "absent", "pieces_code": "absent", "own_marker": "found", "layer_norm": "proxy"}
    row = walled_class["rows"]["secrets"]
    assert (row["gelu_tanh"], row["mlp"], row["block"]) == ("1", "1", "0")


@WALLS
def test_exercises_of_one_learner_share_nothing_writable(walled_class):
    row = walled_class["rows"]["relay"]
    assert (row["embed"], row["one_hot_embed"]) == ("1", "1"), walled_class["report"]["relay"]


@WALLS
def test_every_route_at_once_is_contained(walled_class):
    row = walled_class["rows"]["everything"]
    assert row["one_hot_embed"] == "1" and row["embed"] == "0"


@WALLS
def test_nothing_on_the_machine_changed(walled_class):
    out, base = walled_class["out"], walled_class["base"]
    before = {p: p.read_bytes() for p in (out / "gradebook.csv", out / "report.json")}
    time.sleep(4)  # longer than the daemon's wait: nothing a learner started may still act
    assert {p: p.read_bytes() for p in before} == before
    assert not os.path.exists(os.path.join(SITE, PLANTED))
    leftovers = subprocess.run(["pgrep", "-f", str(base)], capture_output=True, text=True).stdout
    assert leftovers.strip() == ""
    assert not any(p.name.startswith("gpt2-grading-") for p in base.iterdir())  # the workspace is gone


def test_unhook_really_disables_the_hook(tmp_path):
    """Under --isolation python the hook is all there is: the unhooked attacker reads a file
    the hook would refuse. So the reports above measure the walls, not the hook."""
    klass_cell = attacker("report(read=attempt(lambda: open('/etc/hostname').read()))")
    ws = Workspace(Limits(wall_s=60), "python")
    try:
        with ws.learner() as sandbox:
            message = cell_in_child(sandbox, klass_cell)
    finally:
        ws.close()
    assert outcomes_of(message) == {"read": "ok"}, message


@WALLS
def test_no_points_without_computation(walled_class):
    rows, report = walled_class["rows"], walled_class["report"]
    assert rows["lookup"]["embed"] == "0"
    lookup = next(v for v in report["lookup"]["verdicts"] if v["exercise"] == "embed")
    assert lookup["passed"] >= 3  # the public examples it looked up: they pass, and count for nothing
    assert (rows["universal"]["embed"], rows["universal"]["one_hot_embed"]) == ("0", "0")
    universal = next(v for v in report["universal"]["verdicts"] if v["exercise"] == "embed")
    assert "a subclass; raise ValueError itself" in universal["message"] or \
        any("a subclass" in f for f in universal["failures"])
    assert rows["always_raises"]["embed"] == "0"
    always = next(v for v in report["always_raises"]["verdicts"] if v["exercise"] == "embed")
    assert 0 < always["passed"] < always["total"]  # its raise cases pass, beside no computed answer


@WALLS
def test_the_memory_limit_is_what_stops_a_bomb(tmp_path):
    """With --memory-mb 256, 400 MB of ones is refused while 40 MB is not: the limit, not the
    machine, stops the first."""
    klass = tmp_path / "class"
    body = "def embed(wte, wpe, idx):\n    x = np.ones({n} * 2**20 // 8)\n    return wte[idx] + x[:1]\n"
    write_learner(klass / "bomb", [body.format(n=400), GOOD_ONE_HOT])
    write_learner(klass / "small", [body.format(n=40), GOOD_ONE_HOT])
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(klass), "--out", str(tmp_path / "out"),
                           "--memory-mb", "256"], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = {s["name"]: s["verdicts"][0] for s in json.loads((tmp_path / "out" / "report.json").read_text())["submissions"]}
    assert "ran out of memory" in report["bomb"]["message"]
    assert "memory" not in report["small"]["message"] and "values differ" in report["small"]["message"]


@WALLS
def test_the_report_says_which_walls_and_limits_held(walled_class):
    out = walled_class["out"]
    sandbox = json.loads((out / "report.json").read_text())["sandbox"]
    assert sandbox["isolation"] == "namespaces" and "seccomp" in sandbox["system_calls"]
    assert {"identity", "processes", "memory", "scratch", "time"} <= set(sandbox)
    assert "hidden tests only" in (out / "feedback" / "correct_0" / "feedback.md").read_text()


# ----------------------------------------------------------------- the walls themselves, watched
# Each test below looks at one wall from inside a child (or at the filter itself) and fails
# with that wall removed; the routes above only show that attacks fail.
from grader.batch.sandbox.inside import syscalls, walls  # noqa: E402
from grader.batch.sandbox.limits import Limits  # noqa: E402
from grader.batch.sandbox.pieces import pieces_source, reference_functions  # noqa: E402
from grader.batch.sandbox.workspace import Workspace  # noqa: E402
from grader.judging import registry  # noqa: E402
from grader.notebook import GradedCell  # noqa: E402


def in_child(box, body: str, wall_s: float | None = None) -> str:
    """Run ``body`` (learner code, unhooked) as an exercise in a fresh child of ``box``'s
    grading process; what it reports with ``report(...)`` (or the run's problem)."""
    return cell_in_child(box, attacker(body), wall_s)


def cell_in_child(box, cell: str, wall_s: float | None = None) -> str:
    """Run the learner's cell (defining ``embed``) as an exercise in a fresh child of ``box``'s
    grading process; what it reports with ``report(...)`` (or the run's problem)."""
    limits = box.ws.limits if wall_s is None else Limits(wall_s=wall_s)
    run = box.run([GradedCell(0, cell, ["embed"])], "embed", registry.get("embed").cases(hidden=False)[:1], [], (),
                  limits)
    if run.problem:
        return run.problem
    return run.answers[0].message


def outcomes_of(message: str) -> dict:
    found = re.search(r"report ((?:\S+=\S+ ?)+)", message)
    assert found, message
    return dict(pair.split("=", 1) for pair in found.group(1).split())


def learner_box(limits):
    """A learner's turn on a grading slot of a fresh workspace, closed with it."""
    ws = Workspace(limits, "namespaces")
    sandbox = ws.learner()
    try:
        yield sandbox
    finally:
        sandbox.close()
        ws.close()


@pytest.fixture
def box():
    yield from learner_box(Limits(wall_s=30))


def parents() -> dict[int, int]:
    found = {}
    for entry in os.listdir("/proc"):
        try:
            found[int(entry)] = int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            pass
    return found


def command(pid: int) -> list[bytes]:
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    except OSError:
        return []


def zygote_pid(box) -> int:
    """The grading process itself (the Python under bwrap's two processes), as the host sees it."""
    family, tree, todo = parents(), set(), [box.zygote.proc.pid]
    while todo:
        pid = todo.pop()
        tree.add(pid)
        todo += [p for p, parent in family.items() if parent == pid and p not in tree]
    for pid in tree:
        argv = command(pid)
        if b"/grader/zygote.py" in argv and b"bwrap" not in argv[0]:
            return pid
    raise AssertionError("no grading process found")


@WALLS
def test_a_child_holds_exactly_the_descriptors_it_was_given(box):
    """0 (/dev/null), 1 and 2 (its output), 3 (the refusal log) and 5 (its results); the job
    (4) it has read and closed; nothing of its grading process's (all closed above 7)."""
    got = outcomes_of(in_child(box, """
import os
import os, resource
def is_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False
listed = os.listdir('/proc/self/fd')  # one more: the listing's own, open while it reads
report(fds=','.join(str(fd) for fd in range(resource.getrlimit(resource.RLIMIT_NOFILE)[0]) if is_open(fd)),
       listed=len(listed))"""))
    assert got["fds"] == "0,1,2,3,5" and got["listed"] == "6", got


@WALLS
def test_hard_limits_equal_soft_and_none_can_be_raised(box):
    got = outcomes_of(in_child(box, """
import resource
out = {}
for name in ('RLIMIT_AS', 'RLIMIT_CPU', 'RLIMIT_FSIZE', 'RLIMIT_NPROC'):
    which = getattr(resource, name)
    soft, hard = resource.getrlimit(which)
    out[name] = f'{soft},{hard}'
    out[name + '_raise_soft'] = attempt(lambda: resource.setrlimit(which, (soft + 1, hard)))
    out[name + '_raise_hard'] = attempt(lambda: resource.setrlimit(which, (soft, hard + 1)))
report(**out)"""))
    lim = box.ws.limits
    for name, value in {"RLIMIT_AS": lim.memory_bytes, "RLIMIT_CPU": lim.cpu_s, "RLIMIT_FSIZE": lim.file_bytes,
                        "RLIMIT_NPROC": lim.threads}.items():
        assert got[name] == f"{value},{value}", (name, got[name])
        assert got[name + "_raise_soft"] in ("ValueError", "EPERM"), got
        assert got[name + "_raise_hard"] in ("ValueError", "EPERM"), got


NAMESPACES_SEEN = """
import os, time
time.sleep({sleep})
report(**{{kind: os.readlink(f'/proc/self/ns/{{kind}}').split(':')[1] for kind in ('ipc', 'pid', 'mnt')}})"""


@WALLS
def test_each_child_has_ipc_pid_and_mount_namespaces_of_its_own(box):
    """Unlike the zygote's and unlike the child's before it. A namespace's number is free again
    once it ends, so the host holds the first child's open while it runs (it sleeps for that)."""
    import threading

    box._zygote()
    zygote = zygote_pid(box)
    own = {kind: os.readlink(f"/proc/{zygote}/ns/{kind}").split(":")[1] for kind in ("ipc", "pid", "mnt")}
    held, first_ns = [], {}

    def hold_first_child():  # once its walls stand, for as long as the test runs
        deadline = time.time() + 20
        while time.time() < deadline and not first_ns:
            children = [p for p, parent in parents().items()  # (not its namespace's idle init)
                        if parent == zygote and command(p)[:1] != [walls.IDLE_INIT[0].encode()]]
            try:
                if children and all(os.readlink(f"/proc/{children[0]}/ns/{kind}").split(":")[1] != own[kind]
                                    for kind in ("ipc", "mnt")):  # its walls stand (however loaded the machine)
                    for kind in ("ipc", "pid", "mnt"):
                        held.append(os.open(f"/proc/{children[0]}/ns/{kind}", os.O_RDONLY))
                        first_ns[kind] = os.readlink(f"/proc/{children[0]}/ns/{kind}").split(":")[1]
            except OSError:  # it ended meanwhile: the next look finds none, and the assertion says so
                pass
            time.sleep(0.05)

    watcher = threading.Thread(target=hold_first_child)
    watcher.start()
    try:
        first = outcomes_of(in_child(box, NAMESPACES_SEEN.format(sleep=3)))
        watcher.join()
        second = outcomes_of(in_child(box, NAMESPACES_SEEN.format(sleep=0)))
    finally:
        watcher.join()
        for fd in held:
            os.close(fd)
    assert first == first_ns, (first, first_ns)  # the host held the child it meant to
    for kind in ("ipc", "pid", "mnt"):
        assert len({own[kind], first[kind], second[kind]}) == 3, (kind, own, first, second)


RELAY_PIDS = """
import os, threading
stop = threading.Event()
started = [threading.Thread(target=stop.wait) for _ in range({threads})]
for t in started:
    t.start()
stop.set()
report(pid=os.getpid())"""
READ_PIDS = """
import os, threading
seen = []
t = threading.Thread(target=lambda: seen.append(threading.get_native_id()))
t.start()
t.join()
report(pid=os.getpid(), thread=seen[0], processes=','.join(sorted(p for p in os.listdir('/proc') if p.isdigit())))"""


@WALLS
def test_a_pid_says_nothing_about_the_exercise_before(box):
    """One exercise starts many threads or few; the next sees the same pids either way (it is
    PID 2 of its own namespace, after the namespace's idle init), and no process but itself."""
    seen = []
    for threads in (20, 1):
        in_child(box, RELAY_PIDS.format(threads=threads))
        seen.append(outcomes_of(in_child(box, READ_PIDS)))
    assert seen[0] == seen[1], seen
    assert seen[0]["pid"] == "2" and seen[0]["processes"] == "2", seen


@WALLS
def test_a_child_in_its_own_pid_namespace_still_ends_at_its_wall_time(box):
    """Ignoring every signal it may ignore, it is killed from outside at its wall time, its
    namespace with it, and nothing of it is left for the next learner."""
    problem = in_child(box, """
import os, signal
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU, signal.SIGABRT):
    signal.signal(sig, signal.SIG_IGN)
while True:
    pass""", wall_s=2)
    assert problem.startswith("timed out after 2 s"), problem
    assert box.handed_on(box.zygote)


@WALLS
def test_the_cpu_limit_is_named_though_soft_and_hard_are_one():
    ws = Workspace(Limits(wall_s=30, cpu_s=1), "namespaces")
    sandbox = ws.learner()
    try:
        problem = in_child(sandbox, "while True:\n    pass")
    finally:
        sandbox.close()
        ws.close()
    assert problem == "used more than 1 s of CPU time", problem


# Short tasks that wake, run a fraction of a scheduler tick and sleep: beside them a busy
# loop is charged ticks it did not wholly use, so it meets its CPU limit with less exact
# run time (rusage) than the limit: 0.66-0.75 s at 1 s on this machine.
WAKER = """import time
while True:
    t = time.perf_counter()
    while time.perf_counter() - t < 0.0005:
        pass
    time.sleep(0.0007)
"""


def test_the_cpu_limit_is_named_under_load_from_the_count_the_kernel_checks():
    """Not from rusage, which rescales the ticks to the exact run time."""
    import resource
    import signal

    from grader.batch.sandbox.inside import zygote
    wakers = [subprocess.Popen([sys.executable, "-c", WAKER]) for _ in range(8)]
    try:
        codes = []
        for _ in range(2):
            pid = os.fork()
            if pid == 0:
                resource.setrlimit(resource.RLIMIT_CPU, (1, 1))
                while True:
                    pass
            codes.append(zygote.wait(pid, wall_s=60, cpu_s=1))
    finally:
        for w in wakers:
            w.kill()
            w.wait()
    assert codes == [(-signal.SIGXCPU, False)] * 2, codes


@pytest.mark.parametrize("cpu_s", [1, None], ids=["limit-1s", "no-limit"])
def test_a_kill_before_the_cpu_limit_is_not_named_as_the_limit(cpu_s):
    """A child killed (SIGKILL, as the memory wall does) after 0.3 s of CPU time, with a 1 s
    limit or none: not SIGXCPU. (0.3 s, not more: under load the kernel's count runs ahead of
    the exact time, 1 s at 0.66 s above, and must stay under the limit here.)"""
    import resource
    import signal

    from grader.batch.sandbox.inside import zygote
    pid = os.fork()
    if pid == 0:
        if cpu_s:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s))
        while time.process_time() < 0.3:
            pass
        os.kill(os.getpid(), signal.SIGKILL)
    assert zygote.wait(pid, wall_s=60, cpu_s=cpu_s) == (-signal.SIGKILL, False)


def test_the_cpu_limit_is_read_from_rusage_where_the_clock_cannot_be_read():
    """The kernel's count first; without it rusage, which reads under that count (0.98 s at
    1 s unloaded); no limit, never met."""
    from grader.batch.sandbox.inside.zygote import cpu_limit_met
    assert cpu_limit_met(1, 1.004, 0.66) and not cpu_limit_met(1, 0.99, 0.99)
    assert cpu_limit_met(1, None, 0.98) and cpu_limit_met(60, None, 58.8)
    assert not cpu_limit_met(1, None, 0.5) and not cpu_limit_met(60, None, 50.0)
    assert not cpu_limit_met(None, 5.0, 5.0) and not cpu_limit_met(0, None, 5.0)


# --------------------------------------------------------------- seccomp: an allow list
def run_filter(prog, arch: str, nr: int, args=(0,) * 6, audit_arch: int | None = None) -> int:
    """What the filter answers for one system call: a small interpreter of the instructions
    walls.py emits (load absolute word, JEQ, JGE, JSET, JA, RET)."""
    data = struct.pack("<iI Q 6Q", nr, syscalls.AUDIT_ARCH[arch] if audit_arch is None else audit_arch, 0,
                       *(a & 2**64 - 1 for a in args))
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = prog[pc]
        if code == 0x20:
            acc = struct.unpack_from("<I", data, k)[0]
            pc += 1
        elif code == 0x05:
            pc += 1 + k
        elif code in (0x15, 0x35, 0x45):
            hit = acc == k if code == 0x15 else acc >= k if code == 0x35 else bool(acc & k)
            pc += 1 + (jt if hit else jf)
        elif code == 0x06:
            return k
        else:
            raise AssertionError(f"unknown instruction {code:#x}")


@pytest.mark.parametrize("arch", sorted(syscalls.SYSCALLS))
def test_every_number_the_filter_does_not_allow_is_refused(arch):
    """Every number up to 1023, known or not (463 and 466 are setxattrat and removexattrat,
    newer than the filter's first table; 470 is no call yet), is refused unless the allow list
    names it; a denied name gets EPERM, any other number ENOSYS."""
    prog = walls.filter_program(arch, own_pid=1)
    allowed = {syscalls.SYSCALLS[arch][n] for n in syscalls.ALLOWED if n in syscalls.SYSCALLS[arch]}
    denied = {syscalls.SYSCALLS[arch][n] for n in syscalls.DENIED_NAMES if n in syscalls.SYSCALLS[arch]}
    checked = {syscalls.SYSCALLS[arch][n] for n in syscalls.CHECKED}
    for nr in range(1024):
        got = run_filter(prog, arch, nr)
        if nr in allowed:
            assert got == walls.RET_ALLOW, nr
        elif nr in denied:
            assert got == walls._errno(errno.EPERM), nr
        elif nr not in checked:
            assert got == walls._errno(errno.ENOSYS), nr
    for nr in (463, 466, 470):
        assert run_filter(prog, arch, nr) in (walls._errno(errno.ENOSYS), walls._errno(errno.EPERM))


@pytest.mark.parametrize("arch", sorted(syscalls.SYSCALLS))
def test_the_filter_s_argument_checks(arch):
    prog, nr = walls.filter_program(arch, own_pid=1), syscalls.SYSCALLS[arch]
    assert run_filter(prog, arch, nr["clone"], (syscalls.CLONE_THREAD | 0x100,) + (0,) * 5) == walls.RET_ALLOW
    assert run_filter(prog, arch, nr["clone"], (17,) + (0,) * 5) == walls._errno(errno.EPERM)  # a fork
    assert run_filter(prog, arch, nr["clone3"]) == walls._errno(errno.ENOSYS)
    assert run_filter(prog, arch, nr["kill"], (1, 9, 0, 0, 0, 0)) == walls.RET_ALLOW
    assert run_filter(prog, arch, nr["kill"], (2, 9, 0, 0, 0, 0)) == walls._errno(errno.EPERM)
    assert run_filter(prog, arch, nr["fcntl"], (3, 1030, 0, 0, 0, 0)) == walls.RET_ALLOW  # F_DUPFD_CLOEXEC
    assert run_filter(prog, arch, nr["fcntl"], (3, 6, 0, 0, 0, 0)) == walls._errno(errno.EPERM)  # F_SETLK
    assert run_filter(prog, arch, nr["read"], audit_arch=0x40000003) == walls.RET_KILL_PROCESS  # i386's calls


@WALLS
def test_a_call_newer_than_the_filter_is_refused_inside_a_child(box):
    """On this kernel or a later one setxattrat and removexattrat (6.13) run, unless the filter
    refuses them; 470 is no call yet. mincore, which every kernel has and the list leaves out,
    shows the refusal is the filter's own: each gets ENOSYS, as from a kernel without it."""
    mincore = {"x86_64": 27, "aarch64": 232}[walls.machine()]
    got = outcomes_of(in_child(box, f"""
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
def call(nr):
    ctypes.set_errno(0)
    failed = libc.syscall(nr, 0, 0, 0, 0, 0, 0) < 0
    return errno.errorcode.get(ctypes.get_errno(), 'E?') if failed else 'ok'
report(setxattrat=call(463), removexattrat=call(466), nr470=call(470), mincore=call({mincore}))"""))
    assert got == {"setxattrat": "ENOSYS", "removexattrat": "ENOSYS", "nr470": "ENOSYS", "mincore": "ENOSYS"}, got


# --------------------------------------------------------------- a grading process handed on
@WALLS
def test_a_grading_process_whose_ipc_namespace_holds_an_object_is_not_handed_on(box):
    """The audit is checked, not assumed: an object in the grading process's own IPC namespace
    (put there from outside, as a child without an IPC namespace of its own would) ends it."""
    ws = box.ws
    assert "report" in in_child(box, "report(x=1)")
    zygote = box.zygote
    subprocess.run(["nsenter", "-t", str(zygote_pid(box)), "--ipc", "ipcmk", "-M", "4096"], check=True,
                   capture_output=True)
    box.close()
    assert ws.idle.empty() and not zygote.alive()

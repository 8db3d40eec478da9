"""A class of 50 learners, correct, wrong and hostile, graded with --jobs 2.

Each hostile or broken submission has its exact expected outcome: the points
per exercise and the reason the feedback must give.
"""
import csv
import json
import os
import subprocess
import sys

import nbformat
import pytest

from conftest import ROOT

GOOD_EMBED = '''def embed(wte, wpe, idx):
    T = idx.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"sequence length {T} exceeds the block size {wpe.shape[0]}")
    return wte[idx] + wpe[:T]'''
GOOD_ONE_HOT = '''def one_hot_embed(wte, idx):
    return np.eye(wte.shape[0], dtype=wte.dtype)[idx] @ wte'''
BODY = "def embed(wte, wpe, idx):\n{}\n"


def embed_doing(lines: str) -> str:
    return BODY.format("\n".join("    " + ln for ln in lines.splitlines()))


# name: (cells for embed, expected embed points, expected embed status, reason substring)
HOSTILE = {
    "stub": (embed_doing('raise NotImplementedError("embed: replace this line")'), 0, "not_attempted", "not attempted"),
    "infinite_loop": (embed_doing("while True:\n    pass"), 0, "broken", "timed out"),
    "memory_bomb": (embed_doing("x = np.ones(10**11)\nreturn x"), 0, "failed", "ran out of memory"),
    "list_bomb": (embed_doing("x = [0] * 10**11\nreturn x"), 0, "failed", "ran out of memory"),
    "crash": (embed_doing("import os\nos.abort()"), 0, "broken", "crashed (signal SIGABRT)"),
    "huge_output": (embed_doing('print("x" * 10**8)\nreturn wte[idx] + wpe[:idx.shape[-1]]'), 0, "failed",
                    "far too much output"),
    "nan_answer": (embed_doing("return np.full(idx.shape + (wte.shape[1],), np.nan, wte.dtype)"), 0, "failed",
                   "NaN"),
    "wrong_shape": (embed_doing("return wte[idx][..., :1]"), 0, "failed", "wrong shape"),
    "sys_exit": (embed_doing("import sys\nsys.exit(0)"), 0, "failed", "raised SystemExit"),
    "os_exit": (embed_doing("import os\nos._exit(0)"), 0, "broken", "ended the process early"),
    "import_grader": (embed_doing("from grader.lessons import l01_embeddings as r\nreturn r.ref.embed(wte, wpe, idx)"),
                      0, "failed", "refused reading the grader or the course's model"),
    "import_reference": (embed_doing("from gpt2course.numpy_gpt import embed as e\nreturn e(wte, wpe, idx)"),
                         0, "failed", "refused reading the grader or the course's model"),
    "read_solutions": (embed_doing(f"exec(open({str(ROOT / 'solutions' / '01_embeddings_exercises.ipynb')!r}).read())"),
                       0, "failed", "refused reading outside its workspace"),
    "subprocess": (embed_doing("import subprocess\nsubprocess.run(['true'])\nreturn wte[idx]"), 0, "failed",
                   "starting a program"),
    "fork": (embed_doing("import os\nos.fork()\nreturn wte[idx]"), 0, "failed", "forking the process"),
    "raise_limits": (embed_doing("import resource\nresource.setrlimit(resource.RLIMIT_AS, (-1, -1))"), 0,
                     "failed", "changing resource limits"),
    "subclass_eq": ("class Always(np.ndarray):\n    def __eq__(self, other):\n        return True\n"
                    # the batch never repeats a class's name (the learner's text): check() does
                    + embed_doing("return np.zeros(3).view(Always)"), 0, "failed", "a type of its own"),
    "object_answer": ("class Fake:\n    shape = (2, 4, 4)\n    def __array__(self, *a, **k):\n        return np.zeros(self.shape)\n"
                      + embed_doing("return Fake()"), 0, "failed", "not a NumPy array"),
    "renamed": (GOOD_EMBED.replace("def embed", "def embed_v2"), 0, "missing", "`embed_v2`: was it renamed?"),
    "syntax_error": (GOOD_EMBED + "\n    return )(", 0, "broken", "SyntaxError"),
    # {OUT} is the batch's output folder, where finished learners' results are saved
    "tamper_results": (embed_doing("import os\nos.makedirs('{OUT}/.state', exist_ok=True)\n"
                                   "open('{OUT}/.state/correct_00.json', 'w').write('{{}}')\nreturn wte[idx]"),
                       0, "failed", "refused writing outside the scratch folder"),
    # {OUT} again: a folder of the instructor's, outside every scratch folder
    "write_outside": (embed_doing("open('{OUT}-pwned.txt', 'w').write('x')\nreturn wte[idx]"), 0, "failed",
                      "outside the scratch folder"),
    # the grader's environment (GRADER_TEST_SECRET, set by graded_class) must not reach learner code:
    # found, it would raise instead of answering with the named mistake
    "read_secret": (embed_doing("import os\nif any('GRADER_TEST' in k or 'hunter2' in v for k, v in os.environ.items()):\n"
                                "    raise RuntimeError\nreturn wte[idx]"), 0, "failed", "position embedding missing"),
    # a thread that never ends must not hold the grading up: graded as usual. It waits rather than
    # spins: a spinning thread per call takes the GIL from the cases, so the last ones timed out
    # (and the mistake went unnamed) whenever the machine was busy, an outcome set by the load.
    "thread": (embed_doing("import threading\nthreading.Thread(target=threading.Event().wait).start()\n"
                           "return wte[idx]"), 0, "failed", "position embedding missing"),
    "recursion": (embed_doing("return embed(wte, wpe, idx)"), 0, "failed", "raised RecursionError"),
    "deep_nesting": (embed_doing("x = []\nfor _ in range(100):\n    x = [x]\nreturn x"), 0, "failed",
                     "returned a list; expected a NumPy array"),
    "patch_numpy": ("np.allclose = lambda *a, **k: True\nnp.array_equal = lambda *a, **k: True\n"
                    "import builtins\nbuiltins.isinstance = lambda *a: True\n"
                    + embed_doing("return wte[idx]"), 0, "failed", "position embedding missing"),
}
MODEL = str(ROOT / "gpt2course" / "numpy_gpt.py")
# Routes to the course's model (or the grader) that do not use an import statement.
ROUTES = {
    "loader_by_path": (embed_doing("import importlib.util as u\n"
                                   f"s = u.spec_from_file_location('m', {MODEL!r})\nm = u.module_from_spec(s)\n"
                                   "s.loader.exec_module(m)\nreturn m.embed(wte, wpe, idx)"),
                       0, "failed", "refused reading outside its workspace"),
    "source_file_loader": (embed_doing("from importlib.machinery import SourceFileLoader\n"
                                       f"m = SourceFileLoader('m', {MODEL!r}).load_module()\n"
                                       "return m.embed(wte, wpe, idx)"),
                           0, "failed", "refused reading outside its workspace"),
    "cached_bytecode": (embed_doing("import glob, marshal\n"
                                    f"pyc = {str(ROOT / 'gpt2course' / '__pycache__' / 'numpy_gpt.cpython-311.pyc')!r}\n"
                                    "ns = dict()\nexec(marshal.loads(open(pyc, 'rb').read()[16:]), ns)\n"
                                    "return ns['embed'](wte, wpe, idx)"),
                        0, "failed", "refused reading outside its workspace"),
    "read_source": (embed_doing(f"ns = dict()\nexec(open({MODEL!r}).read(), ns)\nreturn ns['embed'](wte, wpe, idx)"),
                    0, "failed", "refused reading outside its workspace"),
    "runpy": (embed_doing(f"import runpy\nreturn runpy.run_path({MODEL!r})['embed'](wte, wpe, idx)"),
              0, "failed", "refused reading outside its workspace"),
    "import_module": (embed_doing("import importlib\nm = importlib.import_module('gpt2course.numpy_gpt')\n"
                                  "return m.embed(wte, wpe, idx)"),
                      0, "failed", "raised ModuleNotFoundError"),  # not there at all
    "dunder_import": (embed_doing("return __import__('grader.lessons.l01_embeddings', fromlist=['x'])"
                                  ".ref.embed(wte, wpe, idx)"),
                      0, "failed", "refused reading the grader or the course's model"),
    "editable_finder": (embed_doing("import pkgutil, importlib\n"
                                    "f = [m.name for m in pkgutil.iter_modules() if m.name.startswith('__editable__')]\n"
                                    "finder = importlib.import_module(f[0])\nfinder.install()\n"
                                    "import gpt2course.numpy_gpt as m\nreturn m.embed(wte, wpe, idx)"),
                        0, "failed", "raised PermissionError"),
    "proc_parent": (embed_doing("import os\nopen(f'/proc/{{os.getppid()}}/cmdline').read()\n"
                                "os.listdir(f'/proc/{{os.getppid()}}/cwd')\nreturn wte[idx]"),
                    0, "failed", "refused reading outside its workspace"),
    "proc_self_fd": (embed_doing("import os\nos.listdir('/proc/self/fd')\nreturn wte[idx]"),
                     0, "failed", "refused reading outside its workspace"),
    "scan_modules": (embed_doing("import sys\n"
                                 "m = next(m for m in list(sys.modules.values()) if hasattr(m, 'gpt_logits'))\n"
                                 "return m.embed(wte, wpe, idx)"),
                     0, "failed", "raised StopIteration"),  # nothing of the model is loaded
    "scan_gc": (embed_doing("import gc\nf = next(o for o in gc.get_objects() if callable(o) and "
                            "getattr(o, '__name__', '') in ('embed', 'gpt_logits') and o is not embed)\n"
                            "return f(wte, wpe, idx)"),
                0, "failed", "raised StopIteration"),
    "environment": (embed_doing("import os\nroot = os.environ.get('VIRTUAL_ENV') or os.environ.get('PWD') or '/'\n"
                                "exec(open(os.path.join(root, 'gpt2course', 'numpy_gpt.py')).read())\nreturn wte[idx]"),
                    0, "failed", "raised PermissionError"),
    "symlink_out": (embed_doing(f"import os\nos.symlink({str(ROOT)!r}, 'root')\n"
                                "return open('root/gpt2course/numpy_gpt.py').read()"),
                    0, "failed", "refused creating links"),
    "dir_fd_escape": (embed_doing("import os\nfd = os.open('.', os.O_RDONLY)\n"
                                  f"os.open('../../../..{MODEL}', os.O_RDONLY, dir_fd=fd)\nreturn wte[idx]"),
                      0, "failed", "refused a relative path with '..'"),
}
HOSTILE |= ROUTES
# The learner's code forges the child's results (frames on descriptor 5, see grader/batch/sandbox/inside/frames.py),
# then ends the child before the harness writes its own.
FRAME = ("import os, json, struct\n"
         "def frame(tree, blob=b''):\n    t = json.dumps(tree).encode()\n"
         "    return struct.pack('>I', len(t)) + t + struct.pack('>Q', len(blob)) + blob\n")
FORGED = {
    "forged_big_int": (embed_doing(FRAME + "for _ in range(20):\n"
                                   "    os.write(5, frame({'answer': {'value': {'int': '9' * 100000}}}))\n"
                                   "os._exit(0)"),
                       0, "failed", "expected a NumPy array"),  # read safely, scored as given
    "forged_repeats": (embed_doing(FRAME + "ref = {'bin': ['frame.bin', 0, '<f8', [2**21]]}\n"
                                   "for _ in range(20):\n"
                                   "    os.write(5, frame({'answer': {'value': {'list': [ref] * 5000}}}, bytes(2**24)))\n"
                                   "os._exit(0)"),
                       0, "failed", "expected a NumPy array"),  # at most 64 MB written, 256 MB decoded
    "forged_items": (embed_doing(FRAME + "os.write(5, frame({'answer': {'value': {'list': [{'plain': 0}] * 2 * 10**5}}}))\n"
                                 "os._exit(0)"),
                     0, "broken", "too many items"),  # counted before json.loads: no answer is read
    "forged_length": (embed_doing("import os, struct\nos.write(5, struct.pack('>I', 2**31) + b'{')\n"
                                  "os._exit(0)"),
                      0, "broken", "larger than its cap"),
}
HOSTILE |= FORGED
SITE = next(p for p in sys.path if p.endswith("site-packages"))
# Attacks on classmates, the grader and the machine (issue: the grader's trusted side).
ATTACKS = {
    "sibling_folders": (embed_doing("import os\nws = os.path.dirname(os.path.dirname(os.path.dirname(os.getcwd())))\n"
                                    "for d in os.listdir(ws):\n    os.listdir(os.path.join(ws, d))\nreturn wte[idx]"),
                        0, "failed", "refused reading outside its workspace"),
    "grader_memory": (embed_doing("import os\nopen(f'/proc/{os.getppid()}/mem', 'rb').read(16)\nreturn wte[idx]"),
                      0, "failed", "refused reading outside its workspace"),
    "pth_file": (embed_doing(f"open({SITE + '/zz_evil.pth'!r}, 'w').write('import os')\nreturn wte[idx]"),
                 0, "failed", "outside the scratch folder"),
    "udp": (embed_doing("import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                        "s.sendto(b'source', ('127.0.0.1', 9))\nreturn wte[idx]"),
            0, "failed", "network access"),
    "fork_exec": (embed_doing("import _posixsubprocess\nreturn wte[idx]"), 0, "failed", "starting a program"),
    "erase_refusals": (embed_doing("import os\ntry:\n    open('/etc/hostname').read()\nexcept PermissionError:\n"
                                   "    pass\nos.close(3)\nreturn wte[idx]"),
                       0, "failed", "refused reading outside its workspace"),
}
HOSTILE |= ATTACKS
# a stated rule: the function must leave its inputs as they were
HOSTILE["in_place"] = (embed_doing("out = wte[idx] + wpe[:idx.shape[-1]]\nwte[...] = 0\nreturn out"), 0, "failed",
                       "changed its input `wte` in place")
CLASS_SIZE = 64
MISTAKE = {"mistake_positions": (embed_doing("return wte[idx] + wpe[idx]"), 0, "failed",
                                 "position rows looked up by token id")}


def write_learner(folder, cells, lesson="01_embeddings"):
    sys.path.insert(0, str(ROOT / "scripts"))
    from nbbuild import code, notebook

    folder.mkdir(parents=True)
    nb = notebook([code("import numpy as np\nfrom grader import check"), *[code(c) for c in cells],
                   code("check(embed)")], lesson=lesson)
    nbformat.write(nb, folder / "01_embeddings.ipynb")


def isolation_modes():
    from grader.batch.sandbox.isolation import namespaces_problem

    problem = namespaces_problem()
    return ["python", pytest.param("namespaces", marks=pytest.mark.skipif(
        problem is not None, reason=f"namespaces unavailable here: {problem}"))]


@pytest.fixture(scope="module", params=isolation_modes())
def graded_class(tmp_path_factory, request):
    import py_compile

    py_compile.compile(MODEL)  # the cached-bytecode route needs a .pyc to aim at
    base = tmp_path_factory.mktemp("class")
    klass = base / "class"
    for name, (cell, *_rest) in {**HOSTILE, **MISTAKE}.items():
        write_learner(klass / name, [cell.format(OUT=base / "out") if "{OUT}" in cell else cell, GOOD_ONE_HOT])
    for i in range(CLASS_SIZE - len(HOSTILE) - len(MISTAKE) - 3):  # the rest of the class
        write_learner(klass / f"correct_{i:02d}", [GOOD_EMBED, GOOD_ONE_HOT])
    (klass / "bad_json").mkdir()
    (klass / "bad_json" / "01_embeddings.ipynb").write_text('{"cells": [')
    (klass / "old_format").mkdir()
    (klass / "old_format" / "01_embeddings.ipynb").write_text(json.dumps({"nbformat": 1, "cells": []}))
    (klass / "empty_folder").mkdir()
    out = base / "out"
    # the batch's own temporary folder, so that what outlives it can be told from other batches
    # (another test worker's, another run's) by its command line
    (base / "tmp").mkdir()
    env = dict(os.environ, GRADER_TEST_SECRET="hunter2", TMPDIR=str(base / "tmp"))  # the secret must never reach learner code
    # one fixed secret: the points asserted below are exact, and under a fresh random secret a
    # wrong answer (wpe[idx]) passed one hidden case by chance (0.12 of its points, seen once)
    (base / "secret").write_text("5e" * 32 + "\n")
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(klass), "--out", str(out),
                           "--jobs", "2", "--timeout", "8", "--isolation", request.param,
                           "--secret", str(base / "secret")],
                          capture_output=True, text=True, timeout=900,
                          env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = list(csv.DictReader((out / "gradebook.csv").open()))
    report = {s["name"]: s for s in json.loads((out / "report.json").read_text())["submissions"]}
    return rows, report, out, base / "tmp"


def test_nothing_outlives_the_batch_and_the_gradebook_stays_put(graded_class):
    import time

    _, _, out, tmp = graded_class
    before = {p: p.read_bytes() for p in (out / "gradebook.csv", out / "report.json")}
    time.sleep(1.5)  # long enough for anything a learner left behind to act
    assert {p: p.read_bytes() for p in before} == before
    leftovers = subprocess.run(["pgrep", "-f", f"{tmp}/gpt2-grading-"], capture_output=True, text=True).stdout
    assert leftovers.strip() == ""
    assert not os.path.exists(os.path.join(SITE, "zz_evil.pth"))
    assert not os.path.exists(f"{out}-pwned.txt")


def test_no_feedback_file_exceeds_its_cap(graded_class):
    from grader.batch import report

    _, _, out, _ = graded_class
    sizes = [p.stat().st_size for p in (out / "feedback").rglob("feedback.md")]
    assert sizes and max(sizes) <= report.MAX_FEEDBACK


def test_gradebook_is_complete(graded_class):
    rows, report, _, _ = graded_class
    names = [r["submission"] for r in rows]
    assert len(names) == len(set(names)) == CLASS_SIZE
    assert list(rows[0]) == ["submission", "embed", "one_hot_embed", "total", "max_total", "problem"]


def test_correct_learners_get_full_marks(graded_class):
    rows, _, _, _ = graded_class
    correct = [r for r in rows if r["submission"].startswith("correct_")]
    assert correct and all(r["total"] == "2" and r["max_total"] == "2" for r in correct)


@pytest.mark.parametrize("name", sorted({**HOSTILE, **MISTAKE}))
def test_exact_outcome(graded_class, name):
    rows, report, out, _ = graded_class
    _, points, status, reason = {**HOSTILE, **MISTAKE}[name]
    row = next(r for r in rows if r["submission"] == name)
    verdict = next(v for v in report[name]["verdicts"] if v["exercise"] == "embed")
    feedback = (out / "feedback" / name / "feedback.md").read_text()
    assert float(row["embed"]) == points
    assert verdict["status"] == status
    assert reason in verdict["message"] or reason in feedback, verdict["message"]
    assert row["one_hot_embed"] == "1", "a broken exercise must not sink the others"


@pytest.mark.parametrize("name, reason", [
    ("bad_json", "not valid JSON"),
    ("old_format", "too old"),
    ("empty_folder", "no .ipynb notebook"),
])
def test_unreadable_submissions(graded_class, name, reason):
    rows, report, out, _ = graded_class
    row = next(r for r in rows if r["submission"] == name)
    assert row["total"] == "0" and reason in row["problem"]
    assert reason in (out / "feedback" / name / "feedback.md").read_text()


def test_no_secret_and_no_files_outside_scratch(graded_class):
    _, _, out, _ = graded_class
    assert "GRADER_TEST_SECRET" not in (out / "feedback" / "read_secret" / "feedback.md").read_text()
    assert not os.path.exists("/tmp/pwned.txt")


def test_feedback_hides_hidden_values(graded_class):
    _, _, out, _ = graded_class
    text = (out / "feedback" / "mistake_positions" / "feedback.md").read_text()
    assert "hidden test" in text or "public example" in text
    assert "array(" not in text
    # a public example's inputs and first difference may be shown (the student edition ships
    # them); whatever the feedback says of a hidden test holds none of its values
    for line in text.splitlines():
        if "hidden test" in line:
            assert "[[" not in line and "expected " not in line and " got " not in line, line


def test_reference_pieces_do_not_open_the_model_to_learner_code(tmp_path):
    """mlp is graded with the reference gelu_tanh swapped in, so the child loads the
    course's model before learner code runs; learner code must still not reach it."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from nbbuild import code, notebook

    cells = ["import numpy as np",
             "def gelu_tanh(x):\n    import gpt2course.numpy_gpt as m\n    return m.gelu_tanh(x)",
             "def mlp(x, w_fc, b_fc, w_proj, b_proj):\n    from gpt2course import numpy_gpt\n"
             "    return numpy_gpt.mlp(x, w_fc, b_fc, w_proj, b_proj)",
             "def block(x, params, layer, n_head):\n    import sys\n"
             "    return sys.modules['gpt2course.numpy_gpt'].block(x, params, layer, n_head)",
             # the reference pieces swapped in for grading must not lead to the rest of the model
             "def mlp(x, w_fc, b_fc, w_proj, b_proj):\n"
             "    return gelu_tanh.__globals__['mlp'](x, w_fc, b_fc, w_proj, b_proj)"]
    nbformat.write(notebook([code(c) for c in cells], lesson="03_mlp_block"), tmp_path / "eve.ipynb")
    out = tmp_path / "out"
    subprocess.run([sys.executable, "-m", "grader", "grade", str(tmp_path / "eve.ipynb"), "--out", str(out)],
                   check=True, capture_output=True, timeout=300)
    (row,) = csv.DictReader((out / "gradebook.csv").open())
    assert (row["gelu_tanh"], row["mlp"], row["block"]) == ("0", "0", "0")
    feedback = (out / "feedback" / "eve" / "feedback.md").read_text()
    assert "refused reading the grader or the course's model" in feedback
    assert "raised KeyError (its message is not shown" in feedback


# ------------------------------------------------------------------ nothing a learner sends comes back
# A learner whose code sends its hidden inputs out through every channel it has but its answers:
# each descriptor, the refusal log (plain and through refused calls whose arguments hold them),
# stdout and stderr, exception messages and exception class names, a cell's error, forged result
# frames that claim changed inputs or exceptions, and its exit. ``mark`` is what the test looks
# for: the same digest of a case's inputs, computed here from the cases the grader drew.
LEAK = "ZQXLEAK"


def mark(idx) -> str:
    import hashlib

    return LEAK + hashlib.sha256(idx.tobytes()).hexdigest()[:16]


LEAKER_EMBED = FRAME + f'''import gc, hashlib, os, sys
def mark(idx):
    return {LEAK!r} + hashlib.sha256(idx.tobytes()).hexdigest()[:16]
calls = [0]
def embed(wte, wpe, idx):
    m = mark(idx)
    calls[0] += 1
    line, results = (m + "\\n").encode(), os.fstat(5)
    for fd in range(0, 64):  # every descriptor but the results (its own answers' channel)
        try:
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) != (results.st_dev, results.st_ino):
                os.write(fd, line)
        except OSError:
            pass
    print(m)
    print(m, file=sys.stderr)
    for route in (lambda: open("/" + m), lambda: open(m + "/x", "w"), lambda: __import__("grader." + m),
                  lambda: os.listdir("../" + m)):
        try:
            route()
        except Exception:
            pass
    kind = calls[0] % 5
    if kind == 0:
        raise ValueError(m)
    if kind == 1:
        raise type(m, (ValueError,), {{}})(m)
    if kind == 2:
        os.write(5, frame({{"answer": {{"changed_inputs": [m, "idx"]}}}}))
    if kind == 3:
        os.write(5, frame({{"answer": {{"raised": {{"type": m, "bases": [m, "ValueError"], "message": m}}}}}}))
        os.write(5, frame({{"answer": {{"unencodable": {{"type": m, "message": m}}}}}}))
    if calls[0] == 7:
        os._exit(3)
    return wte[idx] + wpe[:idx.shape[-1]]'''
# defining the function (its default) finds the cases in the harness's frame and raises with them
LEAKER_ONE_HOT = f'''import hashlib, sys
import numpy as np
def leak():
    f = sys._getframe()
    while f is not None and not isinstance(f.f_locals.get("cases"), list):
        f = f.f_back
    found = f.f_locals["cases"]
    raise RuntimeError(" ".join({LEAK!r} + hashlib.sha256(o["idx"].tobytes()).hexdigest()[:16] for o in found))
def one_hot_embed(wte, idx, _=leak()):
    return np.eye(wte.shape[0], dtype=wte.dtype)[idx] @ wte'''

# the same, but the process ends while its cells run, after printing the cases: how it ended is said,
# never what it printed last
LEAKER_EXIT = LEAKER_ONE_HOT.replace("    raise RuntimeError(", "    import os\n    print(").replace(
    "for o in found))", "for o in found))\n    sys.stdout.flush()\n    os._exit(1)")


def test_nothing_a_learners_process_sends_comes_back(tmp_path):
    from grader.batch import state
    from grader.batch.records import Exercises

    klass = tmp_path / "class"
    write_learner(klass / "leaker", [LEAKER_EMBED, LEAKER_ONE_HOT])
    write_learner(klass / "leaker_exit", [GOOD_EMBED, LEAKER_EXIT])
    for name in ("amy", "ben"):
        write_learner(klass / name, [GOOD_EMBED, GOOD_ONE_HOT])
    out = tmp_path / "out"
    from grader.batch.sandbox.isolation import namespaces_problem

    mode = "python" if namespaces_problem() else "namespaces"  # the same rule holds in both
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(klass), "--out", str(out), "--jobs", "2",
                           "--timeout", "20", "--isolation", mode], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    exercises = Exercises(lessons=["01_embeddings"])
    exercises.use_secret(state.load_secret(None, out / ".state", out))
    marks = {mark(c.args["idx"]) for e in exercises.by_lesson["01_embeddings"] for c in exercises.answers(e)[0]}
    received = [out / "gradebook.csv", out / "report.json", *(out / "feedback").rglob("*.md")]
    for path in received:
        text = path.read_text()
        assert LEAK not in text and not any(m[len(LEAK):] in text for m in marks), path
    rows = {r["submission"]: r for r in csv.DictReader((out / "gradebook.csv").open())}
    assert rows["amy"]["total"] == rows["ben"]["total"] == "2"
    leaker = (out / "feedback" / "leaker" / "feedback.md").read_text()
    # the grader's own words are still there: the refused calls by their kind, the cell by its number
    assert "refused reading outside its workspace" in leaker
    assert "refused reading the grader or the course's model" in leaker
    assert "times)" not in leaker  # how many refusals is the learner's to choose: never said
    assert "raised RuntimeError" in leaker and "its message is not shown" in leaker
    assert "the grading process stopped early" in (out / "feedback" / "leaker_exit" / "feedback.md").read_text()

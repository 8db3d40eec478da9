"""The grader's own side of the trust boundary: everything a learner sends (file and
folder names, notebook metadata, what their code raised or printed) is a stranger's
data. Each test grades a small class through the CLI: correct learners keep full
marks under their own ids, the hostile one gets a row with a clear reason, the exit
code is the documented one (0 graded, 1 grader failure, 2 bad arguments or output
folder), and no feedback file exceeds report.MAX_FEEDBACK.
"""
import csv
import hashlib
import json
import os
import re
import subprocess
import sys
import time
import zipfile

import pytest

from conftest import ROOT
from grader import notebook as nbk
from grader.batch import report
from grader.judging import registry
from test_hostile import GOOD_EMBED, GOOD_ONE_HOT, embed_doing, write_learner

GRADE = [sys.executable, "-m", "grader", "grade"]
WRONG = embed_doing("return wte[idx]")  # one of two exercises right: 1 point


def grade(*inputs, out, code=0):
    proc = subprocess.run(GRADE + [str(i) for i in inputs] + ["--out", str(out), "--jobs", "2",
                                                              "--isolation", "python", "--timeout", "20"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == code, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    return proc


def rows(out):
    return {r["submission"]: r for r in csv.DictReader((out / "gradebook.csv").open(newline=""))}


def submissions(out):
    return {s["name"]: s for s in json.loads((out / "report.json").read_text())["submissions"]}


def feedback(out, name):
    return (out / "feedback" / name / "feedback.md").read_text(encoding="utf-8")


def assert_bounded(out):
    """No feedback file over its cap; no string in report.json over its cap."""
    for path in (out / "feedback").rglob("*"):
        if path.is_file():
            assert path.stat().st_size <= report.MAX_FEEDBACK, path
    longest = report.MAX_JSON_TEXT + len(report.TRUNCATED)

    def walk(x):
        assert not isinstance(x, str) or len(x) <= longest
        for item in x.values() if isinstance(x, dict) else x if isinstance(x, list) else ():
            walk(item)

    walk(json.loads((out / "report.json").read_text()))


def assert_full_marks(out, names):
    got = rows(out)
    for name in names:
        assert (got[name]["total"], got[name]["max_total"], got[name]["problem"]) == ("2", "2", ""), name


def hashed(base, source) -> str:
    return f"{base}--{hashlib.sha256(os.path.abspath(source).encode()).hexdigest()[:10]}"


def zip_of(path, cells):
    """A one-learner zip holding 01_embeddings.ipynb at its root."""
    src = path.parent / (path.stem + "_src")
    write_learner(src, cells)
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        zf.write(src / "01_embeddings.ipynb", "01_embeddings.ipynb")
    return path


# ------------------------------------------------------------------ 1. unique learners
def test_ids_are_sanitised_and_a_shared_id_is_hashed_for_everyone(tmp_path):
    klass = tmp_path / "class"
    good = [GOOD_EMBED, GOOD_ONE_HOT]
    for name, cells in [("ann", good), ("ann ", [WRONG, GOOD_ONE_HOT]), ("ANN", good),
                        ("an\u200bn", good), ("ann--0123456789", good), ("bob", good)]:
        write_learner(klass / name, cells)
    kims = [zip_of(tmp_path / "z1" / "kim.zip", good), zip_of(tmp_path / "z2" / "kim.zip", [WRONG, GOOD_ONE_HOT])]
    out = tmp_path / "out"
    grade("--class", klass, *kims, out=out)  # several inputs: the class is named

    ann, impostor = hashed("ann", klass / "ann"), hashed("ann", klass / "ann ")
    expected = {ann: "2", impostor: "1", hashed("ANN", klass / "ANN"): "2",
                hashed("ann", klass / "an\u200bn"): "2",
                "ann-0123456789": "2",  # a plain id never holds "--": no forging a suffix
                "bob": "2", hashed("kim", kims[0]): "2", hashed("kim", kims[1]): "1"}
    assert {n: r["total"] for n, r in rows(out).items()} == expected
    table = rows(out)
    for name in expected:  # both (all) sides of a clash are told, in their row's problem
        assert ("give the id" in table[name]["problem"]) == ("--" in name), name
    # each names the other inputs, by the paths the instructor gave
    assert repr(str(klass / "ann ")) in table[ann]["problem"] and f"so this one is {impostor}" in table[impostor]["problem"]
    assert repr(str(kims[1])) in table[hashed("kim", kims[0])]["problem"]
    assert "give the id" in feedback(out, ann)
    assert not (out / ".unpacked").exists()  # zips are read in memory, never unpacked
    assert_full_marks(out, [n for n, t in expected.items() if t == "2" and "--" not in n])
    assert_bounded(out)

    again = grade("--class", klass, *kims, out=out)  # deterministic: the same ids, nothing regraded
    assert "8 of 8 already graded" in again.stderr
    assert {n: r["total"] for n, r in rows(out).items()} == expected


# ------------------------------------------------------------------ 2. malformed notebooks
def _good_notebook(tmp_path):
    write_learner(tmp_path / "template", [GOOD_EMBED, GOOD_ONE_HOT])
    return json.loads((tmp_path / "template" / "01_embeddings.ipynb").read_text())


def _malformed(nb):
    """name: (the notebook's text, words its problem must hold)."""
    deep = "[" * 100_000 + "]" * 100_000

    def edit(change):
        copy = json.loads(json.dumps(nb))
        change(copy)
        return json.dumps(copy)

    def code_cell(c):
        return next(x for x in c["cells"] if "def embed" in "".join(x["source"]))

    return {
        "meta_list": (edit(lambda c: c.update(metadata=[])), "the metadata of the notebook is a list"),
        "course_text": (edit(lambda c: c["metadata"].update(gpt2course="01_embeddings")),
                        "metadata.gpt2course is text"),
        "lesson_int": (edit(lambda c: c["metadata"]["gpt2course"].update(lesson=1)),
                       "metadata.gpt2course.lesson is a number"),
        "tags_dict": (edit(lambda c: code_cell(c)["metadata"].update(tags={"exercise": 1})),
                      "a cell's tags is an object"),
        "source_number": (edit(lambda c: code_cell(c).update(source=42)), "a cell's source is a number"),
        "cells_dict": (edit(lambda c: c.update(cells={})), "'cells' is an object"),
        "deep_file": (deep, "nested too deeply"),
        "deep_metadata": (json.dumps(nb)[:-1] + ', "x": ' + deep + "}", "nested too deeply"),
        "huge": (json.dumps(nb)[:-1] + ', "pad": "' + "x" * (nbk.MAX_NOTEBOOK_BYTES + 1) + '"}',
                 "larger than 20 MB"),
    }


def test_malformed_notebooks_are_a_learners_problem(tmp_path):
    klass = tmp_path / "class"
    for name in ("ann", "bob"):
        write_learner(klass / name, [GOOD_EMBED, GOOD_ONE_HOT])
    cases = _malformed(_good_notebook(tmp_path))
    for name, (text, _) in cases.items():
        (klass / name).mkdir()
        (klass / name / "01_embeddings.ipynb").write_text(text)
    (klass / "fifo").mkdir()
    os.mkfifo(klass / "fifo" / "01_embeddings.ipynb")  # must not hang the grader
    out = tmp_path / "out"
    grade(klass, out=out)
    got = rows(out)
    for name, (_, words) in cases.items():
        assert got[name]["total"] == "0" and words in got[name]["problem"], (name, got[name]["problem"])
        assert words in feedback(out, name)
    assert "no .ipynb notebook" in got["fifo"]["problem"]
    assert_full_marks(out, ["ann", "bob"])
    assert_bounded(out)


@pytest.mark.parametrize("bad", [
    [], "x", 3, None, {"metadata": []}, {"metadata": {"gpt2course": "x"}},
    {"metadata": {"gpt2course": {"lesson": 1}}}, {"cells": {}}, {"cells": [3]},
    {"cells": [{"cell_type": "code", "metadata": {"tags": {}}, "source": ""}]},
    {"cells": [{"cell_type": "code", "metadata": [], "source": ""}]},
    {"cells": [{"cell_type": "code", "metadata": {}, "source": 3}]},
    {"cells": [{"cell_type": "code", "metadata": {}, "source": ["x = 1", None]}]},
])
def test_notebook_helpers_raise_only_notebook_error(bad):
    for helper in (nbk.lesson_of, nbk.graded_cells, nbk.check_shape, nbk.tags, nbk.cell_source):
        try:
            helper(bad)
        except nbk.NotebookError:
            pass  # anything else fails the test


def test_code_too_deep_to_parse_is_a_cell_error():
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "-" * (nbk.MAX_CELL_CHARS - 1) + "1"},
                    {"cell_type": "code", "metadata": {}, "source": "def f():\n    return 1"}]}
    deep, ok = nbk.graded_cells(nb)
    assert "nested too deeply" in deep.error and ok.defines == ["f"]


# ------------------------------------------------------------------ 3. spreadsheet-safe CSV
def test_gradebook_cells_never_start_a_formula(tmp_path):
    klass = tmp_path / "class"
    write_learner(klass / '=HYPERLINK("evil.example","click")', [GOOD_EMBED, GOOD_ONE_HOT])
    write_learner(klass / "ann", [GOOD_EMBED, GOOD_ONE_HOT])
    for learner, file in [("dora", "=1+2"), ("eve", "@SUM(A1)"), ("fay", "-2+3"), ("gus", "+cmd"),
                          ("hal", "\t=1"), ("ida", "\r=1")]:
        (klass / learner).mkdir()
        (klass / learner / f"{file}.ipynb").write_text('{"cells": [')  # unreadable: a problem
    src = tmp_path / "zsrc"
    write_learner(src / "zed", [GOOD_EMBED, GOOD_ONE_HOT])
    with zipfile.ZipFile(tmp_path / "more.zip", "w") as zf:
        zf.write(src / "zed" / "01_embeddings.ipynb", "zed/01_embeddings.ipynb")
        zf.write(src / "zed" / "01_embeddings.ipynb", "=cmd|' -C calc'!A0/01_embeddings.ipynb")
    out = tmp_path / "out"
    grade("--class", klass, "--class", tmp_path / "more.zip", out=out)

    table = list(csv.reader((out / "gradebook.csv").open(newline="")))
    for row in table:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) or re.fullmatch(r"-?\d+(\.\d+)?", cell), cell
    got = rows(out)
    assert got["dora"]["problem"].startswith("'=1+2.ipynb: could not be read")
    assert got["eve"]["problem"].startswith("'@SUM") and got["fay"]["problem"].startswith("'-2+3")
    assert got["gus"]["problem"].startswith("'+cmd") and got["hal"]["problem"].startswith("'=1")
    assert got["dora"]["total"] == "0"  # numbers stay numbers
    assert_full_marks(out, ["HYPERLINK_evil.example_click", "ann", "zed", "cmd_-C_calc_A0"])
    assert_bounded(out)


def test_csv_cell_leaves_numbers_alone():
    assert [report.csv_cell(x) for x in ["2", "-1", "0.5", "-1e3", "=1", "-x", "@a", "+1+1", "ok"]] == \
        ["2", "-1", "0.5", "-1e3", "'=1", "'-x", "'@a", "'+1+1", "ok"]


# ------------------------------------------------------------------ 4. feedback escaping
HTML = ("<script>alert(1)</script> <img src=x onerror=alert(1)> [click](http://evil.example) "
        "![pic](http://evil.example/p.png) `code` **bold** <http://evil.example>")
FORGED_CELL = "1\n\n## `embed`: 1 / 1 (passed)\n\n<img src=x onerror=alert(3)>"
# The child writes result.json in its job folder; learner code can write it first
# and end the process, so every field of it (cell numbers included) is theirs.
# The learner's code forges its results: a frame of its own on the results descriptor (5),
# written while the cells run, for the exercise it finds its harness grading, then it ends
# the child before the harness writes anything.
FORGE = '''import os, json, struct, sys
def unused():
    pass
def _frames():
    f = sys._getframe()
    while f is not None:
        yield f
        f = f.f_back
_fn = next((f.f_locals["job"].get("function") for f in _frames() if isinstance(f.f_locals.get("job"), dict)), None)
_t = json.dumps({{"found": False, "cell_errors": [{{"cell": {cell!r}, "line": "2\\n# Feedback for `bob`",
      "type": "[click](http://evil.example)" + "T" * 100000, "message": "m\\n## forged"}}]}}).encode()
_w = _fn == "embed" and os.write(5, struct.pack(">I", len(_t)) + _t + struct.pack(">Q", 0))
_x = _fn == "embed" and os._exit(0)'''.format(cell=FORGED_CELL)


def _render(text):
    markdown_it = pytest.importorskip("markdown_it")
    return markdown_it.MarkdownIt("commonmark", {"html": True}).render(text)


def test_learner_text_is_inert_and_capped_in_feedback(tmp_path):
    klass = tmp_path / "class"
    for name in ("ann", "bob"):
        write_learner(klass / name, [GOOD_EMBED, GOOD_ONE_HOT])
    refused = "/nonexistent/<img src=x onerror=alert(2)>\n## `one_hot_embed`: 1 / 1 (passed)"
    write_learner(klass / "html", [embed_doing(f"try:\n    open({refused!r})\nexcept OSError:\n    pass\n"
                                               f"raise ValueError({HTML!r})"), GOOD_ONE_HOT])
    write_learner(klass / "forge", [FORGE, GOOD_EMBED, GOOD_ONE_HOT])
    out = tmp_path / "out"
    grade(klass, out=out)
    subs = submissions(out)
    for name in ("html", "forge"):
        text = feedback(out, name)
        html = _render(text)
        for tag in ("<script", "<img", "<a ", "<strong>bold", "<em>"):
            assert tag not in html, (name, tag)
        headings = re.findall(r"<h\d>(.*?)</h\d>", html)
        assert headings[0] == f"Feedback for <code>{name}</code>"
        expected = [f"<code>{v['exercise']}</code>: {report.num(v['points'])} / "
                    f"{report.num(v['max_points'])} ({v['status'].replace('_', ' ')})"
                    for v in subs[name]["verdicts"]]
        assert headings[1:] in (expected, expected + ["Notes"]), headings
        assert max(len(line) for line in text.splitlines()) < 3 * report.MAX_TEXT
    # what the learner's process sent is not shown at all, escaped or not: only the grader's words
    for text in (feedback(out, "html"), feedback(out, "forge")):
        assert "script" not in text and "alert" not in text and "evil" not in text and "forged" not in text
    assert "refused reading outside its workspace" in feedback(out, "html")
    assert "raised ValueError (its message is not shown" in feedback(out, "html")
    forge = subs["forge"]["verdicts"][0]
    assert (forge["exercise"], forge["status"], forge["points"]) == ("embed", "broken", 0)
    assert len(forge["message"]) < 500  # the forged 100 KB type name is not the learner's to name
    assert "T" * 101 not in forge["message"] and "raised an exception of its own class" in forge["message"]
    assert "line" not in forge["message"]  # a forged line number that is no line of the cell is not shown
    assert rows(out)["forge"]["one_hot_embed"] == "1" and rows(out)["html"]["one_hot_embed"] == "1"
    assert_full_marks(out, ["ann", "bob"])
    assert_bounded(out)


def test_a_verdict_in_feedback_is_check_s_text_in_a_code_block():
    """The verdict's lines as check() prints them (the course's explanation of a named mistake
    included), fenced so that nothing in them renders: the fence outgrows any backticks inside."""
    from grader.batch.records import Exercises
    from grader.checking import display
    from grader.judging.judge import Verdict

    ex = Exercises()
    exercise = ex.by_lesson["01_embeddings"][0]
    mistake = exercise.mistakes[0]
    v = Verdict(exercise.name, "failed", 0, 3, 0.0, 1.0,
                f"failed 3 of 3 tests; first failure (hidden test 1): raised X: <b>hi</b> ```` `x`"
                f"\n  Likely mistake: {mistake.name}. {mistake.explanation}", [mistake.name])
    lines = report.verdict_lines(v)
    assert lines[0] == "`````text" and lines[-1] == "`````"
    assert lines[1:-1] == display.plain(v).split("\n")
    assert f"{display.LIKELY}{mistake.name}." in lines
    assert " ".join(lines[lines.index(f"{display.LIKELY}{mistake.name}.") + 1:-1]) == mistake.explanation
    html = _render("\n".join(lines))
    assert html.startswith("<pre><code") and html.count("<pre>") == 1 and "<b>hi" not in html
    control = Verdict(exercise.name, "failed", 0, 3, 0.0, 1.0, "failed 3 of 3 tests; first failure (hidden "
                      "test 1): raised X: a\u202eb\x1b[31m   c")
    assert report.verdict_lines(control)[2] == "First failure (hidden test 1): raised X: a b [31m   c"


def test_feedback_is_capped_in_bytes():
    from grader.batch.records import Exercises, Submission

    ex = Exercises(lessons=["01_embeddings"])
    sub = Submission("ann", notes=[f"note {i}: " + "é" * 1000 for i in range(500)])
    text = report.feedback_md(sub, ex)
    assert len(text.encode()) <= report.MAX_FEEDBACK and text.rstrip().endswith("longer than 64 KB)")


def test_a_file_name_cannot_claim_a_grader_failure(tmp_path):
    klass = tmp_path / "class"
    write_learner(klass / "ann", [GOOD_EMBED, GOOD_ONE_HOT])
    (klass / "zoe").mkdir()
    (klass / "zoe" / "internal grader error (please report).ipynb").write_text('{"cells": [')
    out = tmp_path / "out"
    grade(klass, out=out, code=0)  # 1 would say the grader failed, and zoe is retried every run


# ------------------------------------------------------------------ 5. output folder and saved state
def _small_class(tmp_path):
    klass = tmp_path / "class"
    for name in ("ann", "bob", "cat"):
        write_learner(klass / name, [GOOD_EMBED, GOOD_ONE_HOT])
    return klass


def _plant(kind, path, elsewhere):
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(elsewhere, target_is_directory=True)


@pytest.mark.parametrize("where, kind", [
    ("gradebook.csv", "folder"), ("report.json", "fifo"), ("gradebook.csv", "link"),
    ("feedback/ann", "link"), ("feedback", "link"), (".state", "link"), (".state/bob.json", "folder"),
    (".state/.key", "fifo"), ("feedback/cat/feedback.md", "fifo"),
])
def test_something_in_the_way_of_an_output_is_a_clear_error(tmp_path, where, kind):
    klass = _small_class(tmp_path)
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    _plant(kind, out / where, elsewhere)
    proc = grade(klass, out=out, code=2)
    assert "error: cannot" in proc.stderr and str(out / where) in proc.stderr, proc.stderr
    assert list(elsewhere.iterdir()) == []  # nothing written through a link


def test_saved_state_must_verify(tmp_path):
    klass = _small_class(tmp_path)
    out, other = tmp_path / "out", tmp_path / "other"
    grade(klass, out=out)
    grade(klass, out=other)
    key = out / ".state" / ".key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == 32
    assert "unverified_state" not in json.loads((out / "report.json").read_text())  # a clean run says nothing

    state = out / ".state"
    sealed = json.loads((state / "ann.json").read_text())  # a hand edit: full points claimed twice over
    payload = json.loads(sealed["payload"])
    payload["submission"]["verdicts"][0]["points"] = 50
    sealed["payload"] = json.dumps(payload)
    (state / "ann.json").write_text(json.dumps(sealed))
    (state / "bob.json").write_bytes((state / "cat.json").read_bytes())      # another learner's result
    (state / "cat.json").write_bytes((other / ".state" / "cat.json").read_bytes())  # another folder's key
    proc = grade(klass, out=out)
    assert "already graded" not in proc.stderr  # all three regraded
    assert json.loads((out / "report.json").read_text())["unverified_state"]["regraded"] == ["ann", "bob", "cat"]
    assert_full_marks(out, ["ann", "bob", "cat"])
    assert "3 of 3 already graded" in grade(klass, out=out).stderr  # the fresh results verify
    assert_bounded(out)


def test_feedback_is_capped_in_bytes_not_characters():
    """46k two-byte characters are fewer characters than the cap but more bytes."""
    from grader.batch.records import Exercises, Submission

    ex = Exercises(lessons=["01_embeddings"])
    sub = Submission("ann", notes=["é" * report.MAX_TEXT for _ in range(115)])
    text = report.feedback_md(sub, ex)
    assert len(text.encode()) <= report.MAX_FEEDBACK and text.rstrip().endswith("longer than 64 KB)")
    assert len(report.cap_bytes("é" * 46_000).encode()) <= report.MAX_FEEDBACK


def test_a_failed_write_leaves_the_old_gradebook_whole(tmp_path, monkeypatch):
    """The disk fills (or the batch dies) while the gradebook is rewritten: the old one
    stays, whole, and no half-written file is left where a reader would find it."""
    from grader.batch import state
    from grader.batch.records import Exercises, Submission

    out = tmp_path / "out"
    batch = state.Batch(out, Exercises(lessons=["01_embeddings"]), Submission)
    batch.rebuild([])
    before = {name: (out / name).read_bytes() for name in ("gradebook.csv", "report.json")}

    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(state.os, "replace", no_space)
    batch.exercises = Exercises(lessons=["01_embeddings", "02_attention"])  # a different gradebook
    with pytest.raises(OSError):
        batch.rebuild([])
    assert {name: (out / name).read_bytes() for name in before} == before
    assert sorted(p.name for p in out.iterdir()) == [".state", "gradebook.csv", "report.json"]


def test_control_and_invisible_characters_in_learner_text_become_spaces():
    """A bidi override reorders what the instructor reads, an escape sequence recolours a terminal, a
    zero-width space hides in a name: none of them reaches feedback.md or the gradebook."""
    text = "raised \u202eevil\u202c \x1b[31mred\x07 a\u200bb \u2066x\u2069 ok"
    got = report.plain(text)
    assert all(c.isprintable() for c in got), ascii(got)
    assert got.startswith("raised") and got.endswith("ok") and "\n" not in got
    assert report.md(text) == f"`{got}`"


# ------------------------------------------------------------------ the grader's own work, bounded
# Each test grades a small class with one learner whose upload amplifies the grader's own
# work (memory or time), measured in the grader's process alone (VmHWM of the process
# running `python -m grader grade --jobs 1`; the walled children are other processes), and
# planning's CPU time (collect and the assignment: plan_batch). Goal: under 500 MB and 5 s for
# any class within the upload limits; each input is scaled down to run in seconds, and says
# what the code before issue 26 did with it (it held or parsed all of it at once).
MEASURE = r'''
import json, resource, runpy, sys
import grader.batch.grade as g
plan = g.plan_batch
def cpu_s():
    # CPU seconds of this process and the children it waited for: what the upload costs the
    # grader, not the wall clock, which a loaded machine (make test's other workers) stretches
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
def timed(*a, **k):
    start = cpu_s()
    try:
        return plan(*a, **k)
    finally:
        timed.s = cpu_s() - start
timed.s = None
g.plan_batch = timed
sys.argv = ["grader", "grade", *sys.argv[1:]]
code = 0
try:
    runpy.run_module("grader", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code
# VmHWM, this process's own peak since it started: ru_maxrss would also hold the RSS of the
# process that forked it (a pytest worker of hundreds of MB), which Linux carries across exec
hwm_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"rss_mb": hwm_kb / 1024, "plan_s": timed.s,
                  "code": code}), file=sys.stderr)
'''
GRADER_MB, PLAN_S = 500, 5.0


def measured(*inputs, out):
    """Grade with --jobs 1 as the CLI does; (the grader's peak RSS in MB, planning's seconds).
    The grader is the one in GRADER_UNDER_TEST, else this checkout's (to show a test failing
    on an older grader: GRADER_UNDER_TEST=/path/to/old/checkout)."""
    root = os.environ.get("GRADER_UNDER_TEST", ROOT)
    proc = subprocess.run([sys.executable, "-c", MEASURE, *map(str, inputs), "--out", str(out), "--jobs", "1",
                           "--isolation", "python", "--timeout", "20"],
                          capture_output=True, text=True, timeout=600, cwd=root)
    got = json.loads(proc.stderr.strip().splitlines()[-1])
    assert got["code"] in (0, None) and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    print(f"grader peak {got['rss_mb']:.0f} MB, planning {got['plan_s']:.2f} CPU s")
    return got["rss_mb"], got["plan_s"]


def _classmate(klass):
    write_learner(klass / "ann", [GOOD_EMBED, GOOD_ONE_HOT])


def _padded(path, pad: str, lesson="01_embeddings"):
    """A learner's good notebook with ``pad`` (JSON text) in its metadata."""
    write_learner(path.parent / (path.stem + "_src"), [GOOD_EMBED, GOOD_ONE_HOT], lesson=lesson)
    text = (path.parent / (path.stem + "_src") / "01_embeddings.ipynb").read_text()
    head, tail = text.rsplit('"metadata": {', 1)
    path.write_text(head + '"metadata": {"pad": ' + pad + ", " + tail)


def test_wide_json_is_counted_before_it_is_parsed(tmp_path):
    """Three notebooks of 8 MB of `{},` in their metadata (2.8 million objects each; the
    limit allows 20 MB): the old grader parsed and held all of a learner's notebooks at once,
    about 0.8 GB."""
    klass = tmp_path / "class"
    _classmate(klass)
    pad = "[" + "{}," * (8 * 2**20 // 3) + "{}]"
    for i in range(3):
        (klass / "wide").mkdir(parents=True, exist_ok=True)
        _padded(klass / "wide" / f"01_embeddings_v{i}.ipynb", pad)
    out = tmp_path / "out"
    rss, plan_s = measured(klass, out=out)
    assert rss < GRADER_MB and plan_s < PLAN_S, (rss, plan_s)
    problem = rows(out)["wide"]["problem"]
    assert "brackets and commas, more than the 500,000 the grader reads" in problem and "{}" not in problem
    assert_full_marks(out, ["ann"])


def test_results_after_the_last_answer_are_not_read(tmp_path):
    """The learner's code writes 24 MB of small nested frames to the results descriptor (a
    child may write 96 MB): the old grader parsed and kept every frame, about 0.6 GB here."""
    klass = tmp_path / "class"
    _classmate(klass)
    flood = embed_doing("import os, struct\n"
                        "t = ('{\"answer\": {\"x\": [' + '{},' * 33000 + '{}]}}').encode()\n"
                        "data = memoryview((struct.pack('>I', len(t)) + t + struct.pack('>Q', 0)) * 240)\n"
                        "while data:\n    data = data[os.write(5, data):]\n"
                        "os._exit(0)")
    write_learner(klass / "flood", [flood, GOOD_ONE_HOT])
    out = tmp_path / "out"
    rss, plan_s = measured(klass, out=out)
    assert rss < GRADER_MB and plan_s < PLAN_S, (rss, plan_s)
    notes = submissions(out)["flood"]["notes"]
    assert any(n.startswith("`embed`: refused") and "bytes of results written after the last test's answer" in n
               for n in notes), notes
    assert rows(out)["flood"]["one_hot_embed"] == "1"
    assert_full_marks(out, ["ann"])


def _big_notebook(mb: int) -> bytes:
    """A notebook of ``mb`` MB (a markdown cell of spaces): within the limit, compresses to KBs."""
    return json.dumps({"cells": [{"cell_type": "markdown", "metadata": {}, "source": " " * (mb * 2**20 - 200)}],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()


def test_a_learners_zips_are_read_one_notebook_at_a_time(tmp_path):
    """Three zips of 4 notebooks of 19 MB each (228 MB unpacked, a few hundred KB packed;
    each zip is within its own budget): the old grader read every notebook of the batch
    into memory during planning and kept them to the end, 228 MB above its baseline here
    (1.6 GB with 25 members a zip). Scaled bound: 250 MB. One learner's notebooks are
    at most 64 MB together: those past it are listed, and said in their row."""
    klass = tmp_path / "class"
    _classmate(klass)
    big = _big_notebook(19)
    (klass / "zips").mkdir()
    for z in range(3):
        with zipfile.ZipFile(klass / "zips" / f"part{z}.zip", "w", zipfile.ZIP_DEFLATED) as zf:
            for m in range(4):
                zf.writestr(f"notes_{z}_{m}.ipynb", big)
    out = tmp_path / "out"
    rss, plan_s = measured(klass, out=out)
    assert rss < 250 and plan_s < PLAN_S, (rss, plan_s)
    problem = rows(out)["zips"]["problem"]
    assert "notebooks together are larger than 64 MB" in problem, problem
    assert_full_marks(out, ["ann"])


def test_slow_ipython_cells_are_budgeted_and_not_parsed_to_plan(tmp_path):
    """Three cells of 90,000 characters whose magics each leave a bracket open (so IPython
    retokenises the whole cell 32 times), in a notebook with no lesson in its metadata or
    name: the old grader parsed it while planning (to match it by what it defines) and again
    when grading, about 13 s each here (a 20 MB notebook allows far more)."""
    klass = tmp_path / "class"
    _classmate(klass)
    slow = "!echo (\n" * 40 + "x = 1\n" * 15000
    write_learner(klass / "slow", [slow, slow, slow, GOOD_EMBED, GOOD_ONE_HOT], lesson=None)
    (klass / "slow" / "01_embeddings.ipynb").rename(klass / "slow" / "homework.ipynb")
    out = tmp_path / "out"
    start = time.monotonic()
    rss, plan_s = measured(klass, out=out)
    assert rss < GRADER_MB and plan_s < PLAN_S, (rss, plan_s)
    assert time.monotonic() - start < 60
    problem = rows(out)["slow"]["problem"]
    assert "more than the grader's budget for reading one notebook" in problem, problem
    assert "echo" not in problem
    assert_full_marks(out, ["ann"])


def test_only_the_head_and_one_frame_per_case_are_read():
    """What follows the last case's answer is never parsed (here a frame that would be refused
    as malformed, were it read): the answers stand, and the run says what was left unread."""
    from grader.batch.sandbox import results
    from grader.batch.sandbox.inside import frames

    head = frames.frame({"found": True, "cell_errors": []})
    answer = frames.frame({"answer": {"not_implemented": True}})
    trailing = frames.frame({"x": [{}] * (frames.MAX_STRUCTURE + 1)})
    fd = frames.sealed("results", head + answer * 2 + trailing)
    try:
        run = results.collect(fd, 2)
    finally:
        os.close(fd)
    assert run.problem is None and run.found and len(run.answers) == 2
    assert run.unread == results.unread(len(trailing)) and f"{len(trailing):,} bytes" in run.unread


# ------------------------------------------------------------------ hidden cases from the instructor's secret
def _solutions_class(tmp_path):
    """One learner handing in every solutions/ notebook: right answers for every exercise."""
    import shutil

    learner = tmp_path / "class" / "sol"
    learner.mkdir(parents=True)
    for path in (ROOT / "solutions").glob("*.ipynb"):
        shutil.copy(path, learner / path.name)
    return learner.parent


def _graded_with(monkeypatch, klass, out, secret):
    """Grade in this process, recording what the grader hands each exercise's child: the inputs
    it encoded (the cases it really uses) and the job bytes."""
    from grader.batch import grade as batch_grade
    from grader.batch.sandbox import processes, workspace

    inputs, jobs = {}, []
    real_cases, real_job = workspace.Workspace.encoded_cases, processes.Job.__init__

    def cases_spy(self, name, cases):
        trees, blob = real_cases(self, name, cases)
        inputs[name] = (json.dumps(trees), blob)  # numbers in the trees, arrays in the blob
        return trees, blob

    def job_spy(self, ws, job, pieces, *more, **named):
        jobs.append(job + repr(pieces).encode())
        real_job(self, ws, job, pieces, *more, **named)

    with monkeypatch.context() as patch:  # undone before the next run's spies wrap the real ones
        patch.setattr(workspace.Workspace, "encoded_cases", cases_spy)
        patch.setattr(processes.Job, "__init__", job_spy)
        batch_grade.grade_batch([klass], out, isolation="python", secret=secret)
    return inputs, jobs, rows(out)


def test_two_secrets_draw_other_hidden_inputs_and_give_the_same_grades(tmp_path, monkeypatch):
    klass = _solutions_class(tmp_path)
    first, jobs, grades = _graded_with(monkeypatch, klass, tmp_path / "out1", tmp_path / "secret1")
    second, _, grades2 = _graded_with(monkeypatch, klass, tmp_path / "out2", tmp_path / "secret2")
    again, _, grades3 = _graded_with(monkeypatch, klass, tmp_path / "out3", tmp_path / "secret1")
    n = len(registry.load_all())  # every exercise of every lesson
    assert len(first) == n and first.keys() == second.keys() == again.keys()
    # an exercise without arguments (bytes_to_unicode) has one possible call, whatever the secret
    drawn = [n for n in first if any(c.args for c in registry.get(n).cases())]
    assert all(first[n] != second[n] for n in drawn), [n for n in drawn if first[n] == second[n]]
    assert first == again  # the same secret: the same cases, so regrades agree
    assert grades == grades2 == grades3 and grades["sol"]["total"] == grades["sol"]["max_total"] == str(n)
    secret = (tmp_path / "secret1").read_text().strip()
    assert not any(secret.encode() in j or bytes.fromhex(secret) in j for j in jobs)  # never in a child


def test_the_secret_is_made_0600_outside_the_sandbox_and_names_the_saved_results(tmp_path):
    import sys as _sys

    klass = _small_class(tmp_path)
    out = tmp_path / "out"
    grade(klass, out=out)
    made = out / ".state" / ".secret"
    assert made.stat().st_mode & 0o777 == 0o600 and re.fullmatch(r"[0-9a-f]{64}\n", made.read_text())
    assert "3 of 3 already graded" in grade(klass, out=out).stderr
    named = tmp_path / "course-secret"  # a missing file: made, and used instead of OUT's own
    proc = grade(klass, "--secret", named, out=out)
    assert named.stat().st_mode & 0o777 == 0o600 and named.read_text() != made.read_text()
    assert "already graded" not in proc.stderr  # other hidden cases: every learner graded again
    assert "3 of 3 already graded" in grade(klass, "--secret", named, out=out).stderr
    assert_full_marks(out, ["ann", "bob", "cat"])
    for where in (_sys.prefix, os.path.dirname(os.__file__)):  # what a learner's process can read
        proc = grade(klass, "--secret", os.path.join(where, "course-secret"), out=out, code=2)
        assert "learners' code can read" in proc.stderr and not os.path.exists(os.path.join(where, "course-secret"))


@pytest.mark.parametrize("kind, message", [
    ("malformed", "is not a grading secret (64 hexadecimal characters"),
    ("short", "is not a grading secret"),
    ("folder", "cannot read the secret file"),
    ("no folder", "its folder"),
])
def test_a_secret_file_that_cannot_be_used_is_a_clear_error(tmp_path, kind, message):
    path = tmp_path / "secret"
    if kind == "malformed":
        path.write_text("correct horse battery staple\n")
    elif kind == "short":
        path.write_text("ab" * 16)
    elif kind == "folder":
        path.mkdir()
    else:
        path = tmp_path / "missing" / "secret"
    proc = grade(_small_class(tmp_path), "--secret", path, out=tmp_path / "out", code=2)
    assert message in proc.stderr and str(path) in proc.stderr, proc.stderr
    assert not (tmp_path / "out" / "gradebook.csv").exists()


def test_cluster_workers_draw_the_instructors_cases():
    """The secret travels with the task's settings; a worker's exercises draw what the instructor's would."""
    from grader.batch.cluster import pool as cluster, task
    from grader.batch.inputs.collect import Learner, Notebook
    from grader.batch.records import Exercises
    from grader.batch.sandbox.limits import Limits

    def settings(secret):
        exercises = Exercises(lessons=["01_embeddings"], secret=secret)
        return exercises, task.settings_of(exercises, Limits(), "python")

    mine, sent = settings(b"\1" * 32)
    theirs = task.exercises_for(json.loads(json.dumps(sent)))  # plain data, as Dask carries it
    embed = mine.by_lesson["01_embeddings"][0]
    assert all(a.args["idx"].tobytes() == b.args["idx"].tobytes()
               for a, b in zip(mine.answers(embed)[0], theirs.answers(embed)[0]))
    other = task.exercises_for(settings(b"\2" * 32)[1])
    assert other.answers(embed)[0][-1].args["wte"].tobytes() != theirs.answers(embed)[0][-1].args["wte"].tobytes()
    learner = Learner("ann", [Notebook("01.ipynb", b"{}")])
    assert cluster.task_key(task.job_of(learner, sent, "f" * 64)) != \
        cluster.task_key(task.job_of(learner, settings(b"\2" * 32)[1], "f" * 64))


def test_a_workspace_serving_two_batches_sends_each_its_own_cases():
    """A cluster worker keeps its workspace across batches: a batch under another secret must
    not be sent the inputs the last one encoded (its answers would be judged against others)."""
    from grader.batch.records import Exercises
    from grader.batch.sandbox.limits import Limits
    from grader.batch.sandbox.workspace import Workspace

    ws = Workspace(Limits(), "python")
    try:
        sent = []
        for secret in (b"\1" * 32, b"\2" * 32, b"\2" * 32):
            exercises = Exercises(lessons=["01_embeddings"], secret=secret)
            embed = exercises.by_lesson["01_embeddings"][0]
            sent.append(ws.encoded_cases("embed", exercises.answers(embed)[0])[1])
        assert sent[0] != sent[1] == sent[2]
    finally:
        ws.close()

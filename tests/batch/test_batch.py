"""Batch grading: inputs (notebooks, folders, zips), resume after SIGKILL, points, exit codes."""
import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time
import zipfile

import pytest

from conftest import ROOT
from test_hostile import GOOD_EMBED, GOOD_ONE_HOT, embed_doing, write_learner

GRADE = [sys.executable, "-m", "grader", "grade"]


def rows(out):
    return list(csv.DictReader((out / "gradebook.csv").open()))


def test_solutions_full_marks_and_stubs_not_attempted(tmp_path):
    sol, ex = ROOT / "solutions" / "01_embeddings_exercises.ipynb", ROOT / "exercises" / "01_embeddings_exercises.ipynb"
    out = tmp_path / "out"
    proc = subprocess.run(GRADE + [str(sol), str(ex), "--out", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    by_name = {r["submission"]: r for r in rows(out)}
    assert len(by_name) == 2  # same stem twice: names made unique
    solved = next(r for r in by_name.values() if r["total"] == r["max_total"])
    stub = next(r for r in by_name.values() if r is not solved)
    assert solved["embed"] == solved["one_hot_embed"] == "1"
    assert stub["total"] == "0"
    report = json.loads((out / "report.json").read_text())
    stub_verdicts = next(s for s in report["submissions"] if s["total"] == 0)["verdicts"]
    assert {v["status"] for v in stub_verdicts} == {"not_attempted"}


def test_zip_of_a_class_and_zip_slip(tmp_path):
    write_learner(tmp_path / "src" / "ann", [GOOD_EMBED, GOOD_ONE_HOT])
    write_learner(tmp_path / "src" / "bob", [embed_doing("return wte[idx]"), GOOD_ONE_HOT])
    archive = tmp_path / "class.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for learner in ("ann", "bob"):
            zf.write(tmp_path / "src" / learner / "01_embeddings.ipynb", f"{learner}/01_embeddings.ipynb")
        zf.writestr("../../escaped.ipynb", "{}")
    out = tmp_path / "out"
    assert subprocess.run(GRADE + ["--class", str(archive), "--out", str(out)], capture_output=True).returncode == 0
    got = {r["submission"]: r["total"] for r in rows(out)}
    assert got == {"ann": "2", "bob": "1"}
    assert not (tmp_path / "escaped.ipynb").exists() and not (out.parent / "escaped.ipynb").exists()


def test_corrupt_zip_is_reported_not_fatal(tmp_path):
    (tmp_path / "carl.zip").write_bytes(b"PK\x03\x04 not really")
    out = tmp_path / "out"
    assert subprocess.run(GRADE + [str(tmp_path / "carl.zip"), "--out", str(out)],
                          capture_output=True).returncode == 0
    (row,) = rows(out)
    assert row["submission"] == "carl" and "could not be opened" in row["problem"]


def test_points_are_configurable_and_validated(tmp_path):
    write_learner(tmp_path / "dan", [GOOD_EMBED, "def one_hot_embed(wte, idx):\n    return wte[idx]"])
    (tmp_path / "points.json").write_text(json.dumps({"embed": 3, "one_hot_embed": 2}))
    out = tmp_path / "out"
    subprocess.run(GRADE + [str(tmp_path / "dan"), "--out", str(out), "--points",
                            str(tmp_path / "points.json")], check=True, capture_output=True)
    (row,) = rows(out)
    assert (row["embed"], row["one_hot_embed"], row["total"], row["max_total"]) == ("3", "2", "5", "5")
    (tmp_path / "bad.json").write_text(json.dumps({"embedd": 1}))
    proc = subprocess.run(GRADE + [str(tmp_path / "dan"), "--out", str(out), "--points",
                                   str(tmp_path / "bad.json")], capture_output=True, text=True)
    assert proc.returncode == 2 and "embedd" in proc.stderr


def test_missing_input_exits_2(tmp_path):
    proc = subprocess.run(GRADE + [str(tmp_path / "nope.ipynb"), "--out", str(tmp_path / "o")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_sigkill_midway_then_resume(tmp_path):
    klass = tmp_path / "class"
    for i in range(8):
        slow = GOOD_EMBED.replace("    T = idx", "    import time\n    time.sleep(0.05)\n    T = idx")
        write_learner(klass / f"learner_{i}", [slow if i % 2 else GOOD_EMBED, GOOD_ONE_HOT])
    out = tmp_path / "out"
    proc = subprocess.Popen(GRADE + [str(klass), "--out", str(out)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done = list((out / ".state").glob("*.json")) if (out / ".state").exists() else []
        if len(done) >= 2:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = rows(out)  # rebuilt atomically after each learner: every learner, graded or pending
    graded = [r["submission"] for r in partial if not r["problem"].startswith("pending")]
    finished = {p.stem for p in (out / ".state").glob("*.json")}
    assert sorted(r["submission"] for r in partial) == [f"learner_{i}" for i in range(8)]
    assert 1 <= len(graded) < 8 and set(graded) <= finished
    assert all(r["total"] == ("2" if r["submission"] in graded else "0") for r in partial)
    again = subprocess.run(GRADE + [str(klass), "--out", str(out)], capture_output=True, text=True)
    assert again.returncode == 0
    assert "already graded" in again.stderr
    final = rows(out)
    assert sorted(r["submission"] for r in final) == [f"learner_{i}" for i in range(8)]
    assert all(r["total"] == "2" for r in final)
    assert json.loads((out / "report.json").read_text())["complete"] is True


def test_learner_missing_a_lesson_is_told(tmp_path):
    klass = tmp_path / "class"
    (klass / "ann").mkdir(parents=True)
    (klass / "bob").mkdir(parents=True)
    for name in ("01_embeddings", "02_attention"):
        (klass / "ann" / f"{name}.ipynb").write_bytes((ROOT / "solutions" / f"{name}_exercises.ipynb").read_bytes())
    (klass / "bob" / "01_embeddings.ipynb").write_bytes((ROOT / "solutions" / "01_embeddings_exercises.ipynb").read_bytes())
    out = tmp_path / "out"
    subprocess.run(GRADE + [str(klass), "--out", str(out), "--lessons", "01_embeddings,02_attention"], check=True,
                   capture_output=True)
    got = {r["submission"]: (r["total"], r["max_total"], r["layer_norm"]) for r in rows(out)}
    assert got == {"ann": ("4", "4", "1"), "bob": ("2", "4", "0")}
    feedback = (out / "feedback" / "bob" / "feedback.md").read_text()
    assert "**2 / 4** points" in feedback and "No notebook for lesson `02_attention` was found" in feedback
    assert {r["submission"]: r["problem"] for r in rows(out)} == {"ann": "", "bob": "no notebook graded for lesson 02_attention"}


def test_without_lessons_the_assignment_is_what_most_learners_handed_in():
    """One learner's extra notebook must not change a classmate's maximum or row (blind attack
    round3/a15): a lesson counts when more than half of the learners handed it in."""
    from types import SimpleNamespace as NS

    from grader.batch.pipeline import lessons_in

    def learner(*lessons):
        return NS(notebooks=[NS(lesson=x) for x in lessons] + [NS(lesson=None)])

    assert lessons_in([learner("01"), learner("01", "07", "07", "08")]) == (["01"], {"07": 1, "08": 1})
    assert lessons_in([learner("01", "02"), learner("01", "02"), learner("01")]) == (["01", "02"], {})
    assert lessons_in([learner("03", "05")]) == (["03", "05"], {})  # one learner: all they handed in
    assert lessons_in([learner("01"), learner("02")]) == ([], {"01": 1, "02": 1})
    assert lessons_in([learner("01"), learner(), learner()]) == (["01"], {})  # empty uploads vote for none


def test_report_json_agrees_with_the_gradebook_on_every_learner_and_exercise(tmp_path):
    """report.json is "everything in one file": the same problem, total and maximum as each
    gradebook row, and a verdict for every exercise column (a lesson not handed in: missing,
    no points); a timed-out exercise is said in the problem column."""
    klass = _class_of_ann_and_bob(tmp_path)
    write_learner(klass / "slow", [embed_doing("import threading\nthreading.Event().wait()"), GOOD_ONE_HOT])
    out = tmp_path / "out"
    subprocess.run(GRADE + [str(klass), "--out", str(out), "--lessons", "01_embeddings,02_attention",
                            "--timeout", "3"], check=True, capture_output=True)
    report = json.loads((out / "report.json").read_text())
    table = {r["submission"]: r for r in rows(out)}
    exercise_columns = [c for c in next(iter(table.values())) if c not in ("submission", "total", "max_total", "problem")]
    assert sorted(table) == sorted(s["name"] for s in report["submissions"]) == ["ann", "bob", "slow"]
    for s in report["submissions"]:
        row = table[s["name"]]
        # the gradebook shows totals to two decimals (a timed-out exercise keeps the cases that ran
        # before its limit, so a total like 1.125 comes up when the machine is busy)
        assert (s["problem"] or "") == row["problem"] and float(row["total"]) == round(s["total"], 2)
        assert float(row["max_total"]) == s["max_total"] == report["max_total"]
        points = {v["exercise"]: v["points"] for v in s["verdicts"]}
        assert sorted(points) == sorted(exercise_columns)
        assert all(float(row[c]) == round(points[c], 2) for c in exercise_columns)  # two decimals too
    assert "no notebook graded for lesson 02_attention" in table["bob"]["problem"]
    assert "timed out: embed" in table["slow"]["problem"]
    assert "unverified_state" not in report


def test_bad_options_are_clear_errors(tmp_path):
    nb = ROOT / "solutions" / "01_embeddings_exercises.ipynb"
    for flag, value, words in [("--jobs", "0", "--jobs must be at least 1"),
                               ("--timeout", "-1", "--timeout must be at least"),
                               ("--memory-mb", "10", "--memory-mb must be at least 256")]:
        proc = subprocess.run(GRADE + [str(nb), "--out", str(tmp_path / "o"), flag, value],
                              capture_output=True, text=True)
        assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr
    (tmp_path / "p.json").write_text("[1, 2]")
    proc = subprocess.run(GRADE + [str(nb), "--out", str(tmp_path / "o"), "--points", str(tmp_path / "p.json")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "JSON object" in proc.stderr


def test_submission_time_limit_stops_later_exercises(tmp_path):
    """embed blocks until it is killed (at --timeout 3 s), so when it ends the submission's 2 s are
    certainly spent and one_hot_embed, correct, is not graded. Nothing races: the only time that
    must fit in the 2 s is reading the notebook, before the first exercise starts."""
    blocking = embed_doing("import threading\nthreading.Event().wait()")
    write_learner(tmp_path / "slow", [blocking, GOOD_ONE_HOT])
    out = tmp_path / "out"
    subprocess.run(GRADE + [str(tmp_path / "slow"), "--out", str(out), "--timeout", "3",
                            "--submission-timeout", "2"], check=True, capture_output=True)
    (row,) = rows(out)
    assert (row["embed"], row["one_hot_embed"]) == ("0", "0")
    feedback = (out / "feedback" / "slow" / "feedback.md").read_text()
    assert "timed out after 3 s" in feedback
    assert "used up its time limit (2 s)" in feedback


def _class_of_ann_and_bob(tmp_path):
    klass = tmp_path / "class"
    (klass / "ann").mkdir(parents=True)
    for name in ("01_embeddings", "02_attention"):
        (klass / "ann" / f"{name}.ipynb").write_bytes((ROOT / "solutions" / f"{name}_exercises.ipynb").read_bytes())
    write_learner(klass / "bob", [embed_doing("return wte[idx] + wpe[idx]"), GOOD_ONE_HOT])
    return klass


def test_lessons_option_fixes_the_assignment_for_everyone(tmp_path):
    klass = _class_of_ann_and_bob(tmp_path)
    out = tmp_path / "out"
    proc = subprocess.run(GRADE + [str(klass), "--out", str(out), "--lessons", "01_embeddings,03_mlp_block"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    got = {r["submission"]: (r["total"], r["max_total"]) for r in rows(out)}
    assert got == {"ann": ("2", "5"), "bob": ("1", "5")}  # 03 has 3 exercises, nobody sent it
    assert list(rows(out)[0])[1:-3] == ["embed", "one_hot_embed", "gelu_tanh", "mlp", "block"]
    ann = (out / "feedback" / "ann" / "feedback.md").read_text()
    assert "**2 / 5** points" in ann and "No notebook for lesson `03_mlp_block`" in ann
    assert "lesson 02_attention is not part of this assignment" in ann
    assert "ann: 2 / 5" in proc.stderr and "bob: 1 / 5" in proc.stderr  # the console agrees
    report = json.loads((out / "report.json").read_text())
    assert report["max_total"] == 5 and report["assignment"] == ["01_embeddings", "03_mlp_block"]
    bad = subprocess.run(GRADE + [str(klass), "--out", str(out), "--lessons", "99_nope"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown lessons: 99_nope" in bad.stderr


def test_all_or_nothing_scoring(tmp_path):
    klass = _class_of_ann_and_bob(tmp_path)
    partial = embed_doing("T = idx.shape[-1]\nreturn wte[idx] + wpe[:T]")  # no block-size check
    write_learner(klass / "cat", [partial, GOOD_ONE_HOT])
    per_case, strict = tmp_path / "per", tmp_path / "strict"
    lessons = ["--lessons", "01_embeddings,02_attention"]
    subprocess.run(GRADE + [str(klass), "--out", str(per_case)] + lessons, check=True, capture_output=True)
    subprocess.run(GRADE + [str(klass), "--out", str(strict), "--scoring", "all-or-nothing"] + lessons,
                   check=True, capture_output=True)
    cat = {r["submission"]: r for r in rows(per_case)}["cat"]
    assert 0 < float(cat["embed"]) < 1
    assert {r["submission"]: r for r in rows(strict)}["cat"]["embed"] == "0"
    assert {r["submission"]: r for r in rows(strict)}["ann"]["total"] == "4"


def test_a_grader_failure_keeps_the_row_and_is_retried(tmp_path, monkeypatch):
    from pathlib import Path

    from grader.batch import grade

    klass = _class_of_ann_and_bob(tmp_path)
    out = tmp_path / "out"
    real = grade.grade_learner

    def flaky(learner, exercises, box):
        if learner.name == "bob":
            raise RuntimeError("simulated grader bug")
        return real(learner, exercises, box)

    monkeypatch.setattr(grade, "grade_learner", flaky)
    grade.grade_batch([Path(klass)], out, lessons=["01_embeddings", "02_attention"])
    bob = {r["submission"]: r for r in rows(out)}["bob"]
    assert bob["problem"].startswith("internal grader error (RuntimeError, printed on")
    monkeypatch.setattr(grade, "grade_learner", real)
    grade.grade_batch([Path(klass)], out, lessons=["01_embeddings", "02_attention"])
    assert {r["submission"]: r for r in rows(out)}["bob"]["problem"] == "no notebook graded for lesson 02_attention"


# ------------------------------------------------------------------ which notebook counts, and what is said
def _notebook_bytes(tmp_path, cells, lesson="01_embeddings"):
    folder = tmp_path / f"nb{len(list(tmp_path.iterdir()))}"
    write_learner(folder, cells, lesson=lesson)
    return (folder / "01_embeddings.ipynb").read_bytes()


def test_the_higher_of_two_notebooks_for_a_lesson_counts_and_problems_are_named(tmp_path):
    """Two notebooks for lesson 01 in both orders of their names: the higher one counts.
    A truncated notebook is named as unreadable, never as missing; a lesson not handed
    in is in the row's problem."""
    src = tmp_path / "src"
    src.mkdir()
    right = _notebook_bytes(src, [GOOD_EMBED, GOOD_ONE_HOT])
    wrong = _notebook_bytes(src, [embed_doing("return wte[idx]"), GOOD_ONE_HOT])
    klass = tmp_path / "class"
    for learner, first, second in (("ann", wrong, right), ("bob", right, wrong)):
        (klass / learner).mkdir(parents=True)
        (klass / learner / "a.ipynb").write_bytes(first)
        (klass / learner / "b.ipynb").write_bytes(second)
    (klass / "cat").mkdir()
    (klass / "cat" / "homework.ipynb").write_bytes(right[: len(right) // 2])  # truncated on the way
    out = tmp_path / "out"
    proc = subprocess.run(GRADE + [str(klass), "--out", str(out), "--lessons", "01_embeddings,02_attention"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    got = {r["submission"]: r for r in rows(out)}
    assert (got["ann"]["total"], got["bob"]["total"], got["cat"]["total"]) == ("2", "2", "0")
    assert got["ann"]["problem"] == got["bob"]["problem"] == "no notebook graded for lesson 02_attention"
    assert got["cat"]["problem"].startswith("homework.ipynb: could not be read: the file is not valid JSON")
    assert got["cat"]["problem"].endswith("; no notebook graded for lesson 02_attention")
    cat = (out / "feedback" / "cat" / "feedback.md").read_text()
    assert "No notebook for lesson `01_embeddings`" not in cat  # it was there, unreadable
    assert "## `embed`: 0 / 1 (broken)" in cat and "homework.ipynb could not be read" in cat
    assert "**Something went wrong:** `homework.ipynb: could not be read" in cat
    assert "the higher-scoring one counts" in (out / "feedback" / "ann" / "feedback.md").read_text()


def test_a_rewritten_notebook_is_graded_again(tmp_path):
    write_learner(tmp_path / "class" / "ann", [GOOD_EMBED, GOOD_ONE_HOT])
    write_learner(tmp_path / "class" / "bob", [GOOD_EMBED, GOOD_ONE_HOT])
    out = tmp_path / "out"
    subprocess.run(GRADE + [str(tmp_path / "class"), "--out", str(out)], check=True, capture_output=True)
    assert {r["submission"]: r["total"] for r in rows(out)} == {"ann": "2", "bob": "2"}
    notebook = tmp_path / "class" / "ann" / "01_embeddings.ipynb"
    stat = notebook.stat()
    (tmp_path / "wrong").mkdir()
    notebook.write_bytes(_notebook_bytes(tmp_path / "wrong", [embed_doing("return wte[idx]"), GOOD_ONE_HOT]))
    os.utime(notebook, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same name, same time: only the content
    again = subprocess.run(GRADE + [str(tmp_path / "class"), "--out", str(out)], capture_output=True, text=True)
    assert "1 of 2 already graded" in again.stderr
    assert {r["submission"]: r["total"] for r in rows(out)} == {"ann": "1", "bob": "2"}


def test_a_learner_s_notebooks_are_graded_in_the_lessons_order(monkeypatch):
    """Not in an order the learner picks by naming files: by lesson, then name."""
    from types import SimpleNamespace

    from grader.batch import grade
    from grader.batch.inputs.collect import Learner, Notebook

    nb1 = (ROOT / "solutions" / "01_embeddings_exercises.ipynb").read_bytes()
    nb2 = (ROOT / "solutions" / "02_attention_exercises.ipynb").read_bytes()
    order = []
    def record(r, *rest):
        order.append((r.lesson, r.name))
        return [] if r.lesson else None

    monkeypatch.setattr(grade, "grade_notebook", record)
    learner = Learner("ann", [Notebook("0_first.ipynb", nb2), Notebook("z.ipynb", nb1), Notebook("m.ipynb", nb1),
                              Notebook("a_junk.ipynb", b"{}")])
    box = SimpleNamespace(ws=SimpleNamespace(limits=SimpleNamespace(submission_s=60.0)))
    grade.grade_learner(learner, grade.Exercises(lessons=["01_embeddings", "02_attention"]), box)
    assert order == [("01_embeddings", "m.ipynb"), ("01_embeddings", "z.ipynb"),
                     ("02_attention", "0_first.ipynb"), (None, "a_junk.ipynb")]


def test_an_unreadable_notebook_keeps_its_lesson():
    from grader.batch.inputs.reading import guess_lesson

    nb = (ROOT / "solutions" / "02_attention_exercises.ipynb").read_bytes()
    cut = nb[: nb.index(b'"lesson"') - 200]  # truncated before its metadata
    assert b"def layer_norm" in cut and guess_lesson(None, "homework.ipynb", cut) == "02_attention"  # its defs
    assert guess_lesson(None, "homework.ipynb", b'{"metadata": {"gpt2course": {"lesson": "05_counting"') == "05_counting"
    assert guess_lesson(None, "alice/07_position_embeddings_exercises.ipynb", b"") == "07_position_embeddings"
    assert guess_lesson(None, "notes.ipynb", b"\x00garbage") is None


def test_notebooks_of_earlier_editions_keep_their_lesson():
    """Lessons 07 and 08 were renamed so their notebooks and grader module share one name: a
    notebook handed out before, by its metadata, its file name or its salvaged bytes, is
    still graded as that lesson."""
    from grader import notebook as nbk
    from grader.batch.inputs.reading import guess_lesson

    nb = nbk.read(ROOT / "exercises" / "08_training_sampling_exercises.ipynb")
    nb.metadata.gpt2course.lesson = "08_training"
    assert guess_lesson(nb, "homework.ipynb") == "08_training_sampling"
    assert guess_lesson(None, "bob/08_training_exercises.ipynb", b"") == "08_training_sampling"
    assert guess_lesson(None, "alice/07_positions_exercises.ipynb", b"") == "07_position_embeddings"
    old = b'{"metadata": {"gpt2course": {"lesson": "07_positions"'
    assert guess_lesson(None, "homework.ipynb", old) == "07_position_embeddings"


def test_a_rerun_under_other_scoring_grades_again(tmp_path):
    """A saved result holds only under the settings it was graded with: the same class graded
    again all-or-nothing gives the partial answer 0, not the saved partial points."""
    klass = tmp_path / "class"
    write_learner(klass / "cat", [embed_doing("T = idx.shape[-1]\nreturn wte[idx] + wpe[:T]"), GOOD_ONE_HOT])
    out = tmp_path / "out"
    subprocess.run(GRADE + [str(klass), "--out", str(out)], check=True, capture_output=True)
    assert 0 < float(rows(out)[0]["embed"]) < 1
    subprocess.run(GRADE + [str(klass), "--out", str(out), "--scoring", "all-or-nothing"], check=True,
                   capture_output=True)
    assert rows(out)[0]["embed"] == "0"


def test_a_lesson_whose_notebook_could_not_be_read_is_not_called_missing():
    """The learner did send lesson 01, unreadable: their letter points at the problem above, and
    says 'not found' only to a learner who sent nothing for the lesson."""
    from grader.batch.records import Exercises, Submission
    from grader.batch.report import feedback_md

    exercises = Exercises(lessons=["01_embeddings"])
    unreadable = feedback_md(Submission("ann", problem="01_embeddings.ipynb: the file is not valid JSON"), exercises)
    assert "**No notebook for lesson `01_embeddings` could be graded** (see above)" in unreadable
    assert "was found" not in unreadable
    assert "**No notebook for lesson `01_embeddings` was found** in this submission" in \
        feedback_md(Submission("bob"), exercises)


def test_force_regrades_learners_already_graded(tmp_path):
    klass = tmp_path / "class"
    write_learner(klass / "cat", [GOOD_EMBED, GOOD_ONE_HOT])
    out = tmp_path / "out"
    subprocess.run(GRADE + [str(klass), "--out", str(out)], check=True, capture_output=True)
    again = subprocess.run(GRADE + [str(klass), "--out", str(out)], check=True, capture_output=True, text=True)
    assert "1 of 1 already graded" in again.stderr
    forced = subprocess.run(GRADE + [str(klass), "--out", str(out), "--force"], check=True, capture_output=True,
                            text=True)
    assert "already graded" not in forced.stderr and rows(out)[0]["total"] == "2"


def test_a_rerun_after_only_a_non_notebook_file_changed_updates_the_notes(tmp_path):
    """TEST_GAPS round 4: what the learner's upload held beyond notebooks is said in their
    feedback (notes); a file added after grading changes the notes, so the rerun must not keep
    the stale feedback that never mentions it."""
    klass = tmp_path / "class"
    write_learner(klass / "cat", [GOOD_EMBED, GOOD_ONE_HOT])
    out = tmp_path / "out"
    subprocess.run(GRADE + [str(klass), "--out", str(out)], check=True, capture_output=True)
    feedback = out / "feedback" / "cat" / "feedback.md"
    assert "answers.pdf" not in feedback.read_text()
    (klass / "cat" / "answers.pdf").write_bytes(b"%PDF-1.4")
    again = subprocess.run(GRADE + [str(klass), "--out", str(out)], check=True, capture_output=True, text=True)
    assert "already graded" not in again.stderr
    assert "answers.pdf" in feedback.read_text()


def test_a_late_mark_is_said_in_the_problem_column():
    from grader.batch.inputs import lms
    from grader.batch.records import Exercises, Submission
    from grader.batch.report import problem_text

    (group,) = lms.groups({"smithjane_LATE_4021_880011_01_embeddings.ipynb": False})
    late = Submission("smithjane_4021", lessons=["01_embeddings"], notes=group.notes)
    assert problem_text(late, Exercises(lessons=["01_embeddings"])) == "late (Canvas)"
    assert problem_text(Submission("ann", lessons=["01_embeddings"]), Exercises(lessons=["01_embeddings"])) == ""


def test_ctrl_c_stops_the_running_exercises_and_says_how_to_resume(tmp_path):
    """Ctrl-C with an infinite loop in flight: the grader kills the running exercises instead of
    waiting out their --timeout (60 s here), says how many learners are saved and how to go on,
    without a traceback; the same command then grades only the rest."""
    klass = tmp_path / "class"
    write_learner(klass / "ann", [GOOD_EMBED, GOOD_ONE_HOT])
    write_learner(klass / "zed", [embed_doing("while True:\n    pass"), GOOD_ONE_HOT])
    out = tmp_path / "out"
    # faulthandler: a grader that does not stop shows where each of its threads waits (SIGABRT)
    proc = subprocess.Popen(GRADE + [str(klass), "--out", str(out), "--jobs", "2", "--timeout", "60"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    seen = []
    for line in proc.stderr:  # ann's row is saved: zed's loop is running
        seen.append(line)
        if line.startswith("[") and "ann" in line:
            break
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        rest = proc.communicate(timeout=45)[1]
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        pytest.fail("the grader did not stop within 45 s of Ctrl-C; its threads:\n" + proc.communicate()[1][-6000:])
    stopped_in = time.monotonic() - started
    assert proc.returncode == 130 and stopped_in < 30, (proc.returncode, stopped_in)  # not the 60 s timeout
    assert "interrupted: 1 of 2 learners are graded and saved" in rest and "Traceback" not in rest, rest
    assert "run the same command again" in rest
    # the gradebook the interrupt leaves says who is not graded yet, rather than leaving them out
    stopped = {r["submission"]: r for r in rows(out)}
    assert sorted(stopped) == ["ann", "zed"] and stopped["zed"]["problem"].startswith("pending: not graded yet")
    assert stopped["zed"]["total"] == "0" and not stopped["ann"]["problem"].startswith("pending")
    assert json.loads((out / "report.json").read_text())["complete"] is False
    again = subprocess.run(GRADE + [str(klass), "--out", str(out), "--jobs", "2", "--timeout", "2"],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and "1 of 2 already graded" in again.stderr, again.stderr
    assert sorted(r["submission"] for r in rows(out)) == ["ann", "zed"]
    assert not any(r["problem"].startswith("pending") for r in rows(out))


def in_process_plan(tmp_path, n):
    """A batch of n learners graded in this process (a grade_one of the test's own)."""
    from grader.batch import grade, pipeline
    from grader.batch.inputs.collect import Learner, Notebook
    from grader.batch.state import Batch

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only, and this test does not run there")
    learners = [Learner(f"l{i}", [Notebook("01.ipynb", b"%d" % i)]) for i in range(n)]
    exercises = grade.Exercises(lessons=["01_embeddings"])
    return pipeline.Plan(exercises, learners, learners, Batch(tmp_path, exercises, grade.Submission),
                         grade.Limits(), "python", tmp_path)


def ungraded(learner):
    from grader.batch import grade
    return grade.failed(learner, "nothing to grade", internal=False)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_lands_in_the_pool_s_wait_never_in_the_batch_s_own_work(tmp_path, sig, monkeypatch):
    """A KeyboardInterrupt raised wherever the signal lands can fall between a lock's acquire
    and the `with` that releases it (a future's condition, a queue), and the stop then waits
    for good. Sent while the batch reports its second learner, the report finishes, the stop
    comes in the pool's wait, and the handlers are given back. The gradebook is rebuilt at the
    stop: the second learner, saved after the last rebuild (rebuilds are throttled; here only
    the first is due), is in it. SIGTERM (a job scheduler's, Gradescope's time limit) stops a
    batch the same way."""
    from grader.batch import pipeline

    plan = in_process_plan(tmp_path, 3)
    monkeypatch.setattr(pipeline, "REBUILD_SHARE", 10**9)

    def grade_one(learner, exercises, workspace):
        time.sleep(0.3 * (learner.name == "l2"))  # l0 and l1 at once, then l2
        return ungraded(learner)

    reported = []

    def report(sub, exercises):
        if sub.name == "l1":
            os.kill(os.getpid(), sig)
            time.sleep(0.1)  # a Python handler runs here, in the middle of the batch's own work
        reported.append(sub.name)

    before = signal.getsignal(sig)
    with pytest.raises(pipeline.BatchStopped, match="interrupted: 2 of 3 learners are graded and saved"):
        pipeline.run(plan, pipeline.LocalPool(plan, 1, grade_one), report)
    assert reported == ["l0", "l1"] and signal.getsignal(sig) is before
    table = {r["submission"]: r["problem"] for r in rows(tmp_path)}
    assert table["l1"].startswith("nothing to grade") and table["l0"].startswith("nothing to grade")
    assert table["l2"].startswith("pending"), table


def test_an_ignored_ctrl_c_stays_ignored(tmp_path):
    """A shell starts a background job with SIGINT ignored: a batch run there does not start
    answering it, and leaves it ignored."""
    from grader.batch import pipeline

    plan = in_process_plan(tmp_path, 1)
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        seen = []
        pipeline.run(plan, pipeline.LocalPool(plan, 1, lambda x, e, w: ungraded(x)),
                     lambda sub, exercises: seen.append(signal.getsignal(signal.SIGINT)))
        assert seen == [signal.SIG_IGN] and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_learner_graded_when_ctrl_c_comes_is_saved(tmp_path):
    """Ctrl-C as l0's grading ends: l0's result, done when the pool sees the Ctrl-C, is saved
    before the stop (a rerun does not grade it again); l1, still running, is not."""
    from grader.batch import pipeline

    plan = in_process_plan(tmp_path, 2)

    def grade_one(learner, exercises, workspace):
        if learner.name == "l0":
            os.kill(os.getpid(), signal.SIGINT)
        else:
            time.sleep(1)
        return ungraded(learner)

    with pytest.raises(pipeline.BatchStopped, match="interrupted: 1 of 2 learners are graded and saved"):
        pipeline.run(plan, pipeline.LocalPool(plan, 2, grade_one), lambda sub, exercises: None)


def test_a_timed_out_exercise_says_which_tests_ran(tmp_path):
    """embed loops on its second call: the feedback names test 2 as the one that timed out and
    tests 3-14 as never run, and the one that ran as passed, not "failed 14 of 14"."""
    calls = '    calls = globals().setdefault("CALLS", [])\n    calls.append(1)\n    while len(calls) > 1:\n        pass\n'
    write_learner(tmp_path / "loop", [GOOD_EMBED.replace("    T = idx", calls + "    T = idx"), GOOD_ONE_HOT])
    out = tmp_path / "out"
    subprocess.run(GRADE + [str(tmp_path / "loop"), "--out", str(out), "--timeout", "2"], check=True,
                   capture_output=True)
    (sub,) = json.loads((out / "report.json").read_text())["submissions"]
    embed = next(v for v in sub["verdicts"] if v["exercise"] == "embed")
    assert embed["message"].startswith("test 2 of 14 timed out after 2 s"), embed["message"]
    assert "tests 3-14 did not run; of the 1 that ran, 1 passed" in embed["message"]
    assert embed["failures"][:2] == ["test 2: timed out after 2 s (an infinite loop, or far too slow)",
                                     "test 3: did not run"] and len(embed["failures"]) == 13
    assert "failed 14 of 14" not in (out / "feedback" / "loop" / "feedback.md").read_text()
    assert "timed out: embed" in rows(out)[0]["problem"]


def test_a_stopped_hidden_run_is_told_with_what_ran_before_it():
    from types import SimpleNamespace

    from grader.batch.grade import told_stopped
    from grader.judging.outcomes import Verdict

    judged = Verdict("embed", "failed", 2, 6, 0.0, 1.0, "failed 4 of 6 tests; first failure (public example 2): "
                     "wrong values\n  Likely mistake: x. y", [], ["test 2: wrong values", "test 4: stopped",
                                                             "test 5: stopped", "test 6: stopped"])
    run = SimpleNamespace(unanswered=[3, 4, 5], problem="was killed (memory limit, or too much output)")
    told = told_stopped(judged, run, 6)
    assert told.message == ("test 4 of 6 was killed (memory limit, or too much output); tests 5-6 did not run; "
                            "of the 3 that ran, 2 passed (first failure: test 2: wrong values)\n  Likely mistake: x. y")
    assert told.failures == ["test 2: wrong values", "test 4: was killed (memory limit, or too much output)",
                             "test 5: did not run", "test 6: did not run"]
    assert (told.points, told.passed, told.status) == (judged.points, 2, "failed")

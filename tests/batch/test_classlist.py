"""The class as the gradebook shows it (grader/batch/classlist.py): learners matched to the
roster by the LMS ids their download carries, a row for each learner on the roster who handed in
nothing, submissions of no one on it kept and marked, and the late rule from the best evidence.
No grading here: saved results are made by hand; test_exports grades a class end to end."""
import csv
import io
import json
import zipfile
from datetime import datetime, timedelta, timezone

from grader.batch import assignment as af
from grader.batch.classlist import ClassList
from grader.batch.inputs import collect as col
from grader.batch.inputs import roster as ro
from grader.batch.records import Exercises, Submission
from grader.batch.report import gradebook_csv, problem_text, report_json
from grader.judging.outcomes import Verdict

NB = b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
UTC1 = timezone(timedelta(hours=1))
DUE = datetime(2025, 3, 14, 23, 59, tzinfo=UTC1)


def canvas_download(tmp_path, names):
    path = tmp_path / "submissions.zip"
    with zipfile.ZipFile(path, "w") as z:
        for name in names:
            z.writestr(f"{name}_01_embeddings_exercises.ipynb", NB)
    return col.collect([path]).learners


def graded(learner, points=(1.0, 1.0)):
    return Submission(learner.name, lessons=["01_embeddings"], notes=list(learner.notes), verdicts=[
        Verdict(e, "passed" if p == 1 else "failed", 1, 1, p, 1.0, "") for e, p in zip(("embed", "one_hot_embed"), points)])


def roster(tmp_path, text):
    (tmp_path / "roster.csv").write_text(text)
    return ro.read(tmp_path / "roster.csv")


CANVAS_ROSTER = ("Student,ID,SIS User ID,SIS Login ID,Section,GPT-2 part 1 (48213)\n    Points Possible,,,,,2.00\n"
                 '"Smith, Jane",4021,S1,jsmith,A,\n"Doe, John",4077,S2,jdoe,A,\n"Roe, Rick",4100,S3,rroe,B,\n')


def test_roster_rows_for_the_absent_and_marks_for_strangers(tmp_path):
    learners = canvas_download(tmp_path, ["smithjane_4021_880011", "doejohn_LATE_4077_880020", "kentclark_5000_880030"])
    book = ClassList(None, roster(tmp_path, CANVAS_ROSTER))
    rows = {r.name: r for r in book.rows([(x, graded(x)) for x in learners])}
    ex = Exercises(lessons=["01_embeddings"])
    assert sorted(rows) == ["doejohn_4077", "kentclark_5000", "roerick_4100", "smithjane_4021"]
    rick = rows["roerick_4100"]
    assert rick.absent and rick.total == 0 and problem_text(rick, ex) == "no submission"
    assert rick.identity == {"name": "Roe, Rick", "canvas_id": "4100", "sis_user_id": "S3", "sis_login_id": "rroe",
                             "section": "B"}
    assert problem_text(rows["kentclark_5000"], ex) == f"not on the roster ({tmp_path / 'roster.csv'})"
    assert rows["kentclark_5000"].identity == {"canvas_id": "5000", "name": "kentclark"}  # from the file names
    assert problem_text(rows["doejohn_4077"], ex) == "late (Canvas)"  # no due date: marked, as before
    assert problem_text(rows["smithjane_4021"], ex) == ""
    table = list(csv.DictReader(io.StringIO(gradebook_csv(list(rows.values()), ex))))
    assert [(r["submission"], r["total"], r["max_total"]) for r in table] == [
        ("doejohn_4077", "2", "2"), ("kentclark_5000", "2", "2"), ("roerick_4100", "0", "2"), ("smithjane_4021", "2", "2")]
    report = json.loads(report_json(list(rows.values()), ex, True, classlist=book.report(list(rows.values()))))
    assert report["roster"]["no_submission"] == ["roerick_4100"]
    assert report["roster"]["not_on_roster"] == ["kentclark_5000"]
    assert {s["name"]: s["problem"] for s in report["submissions"]} == {r["submission"]: r["problem"] or None
                                                                       for r in table}
    notes = book.notes(learners)
    assert any("1 of the 3 learners on the roster handed in nothing" in n for n in notes)
    assert any("match nobody on the roster" in n and "kentclark_5000" in n for n in notes)


def test_a_learner_is_matched_by_the_id_the_grader_gave_not_a_name(tmp_path):
    """A folder named like a classmate's Canvas id is not that classmate: only a Canvas download's
    learners carry a Canvas id."""
    (tmp_path / "class" / "smithjane_4021").mkdir(parents=True)
    (tmp_path / "class" / "smithjane_4021" / "01_embeddings.ipynb").write_bytes(NB)
    (folder,) = col.collect([tmp_path / "class"]).learners
    book = ClassList(None, roster(tmp_path, CANVAS_ROSTER))
    assert folder.platform == "" and book.entry(folder) is None
    rows = {r.name: r for r in book.rows([(folder, graded(folder))])}
    assert "smithjane_4021--roster" in rows and rows["smithjane_4021--roster"].absent  # the real Jane: no submission
    assert rows["smithjane_4021"].identity == {}


def late_assignment(rule="penalty", percent=10.0):
    return af.Assignment("a.toml", ["01_embeddings"], due=DUE, late=af.LateRule(rule, percent))


def test_the_late_rule_from_a_moodle_worksheet_s_submission_times(tmp_path):
    (tmp_path / "dl").mkdir()
    for who in ("Jane Smith_12345", "Ann Lee_12346", "Raj Patel_12347"):
        folder = tmp_path / "dl" / f"{who}_assignsubmission_file_"
        folder.mkdir()
        (folder / "01_embeddings_exercises.ipynb").write_bytes(NB)
    learners = col.collect([tmp_path / "dl"]).learners
    sheet = roster(tmp_path, "Identifier,Full name,Email address,Last modified (submission),Last modified (grade)\n"
                             'Participant 12345,Jane Smith,j@x.org,"Friday, 14 March 2025, 11:45 PM",-\n'
                             'Participant 12346,Ann Lee,a@x.org,"Sunday, 16 March 2025, 10:00 AM",-\n'
                             "Participant 12347,Raj Patel,r@x.org,-,-\n")
    book = ClassList(late_assignment(), sheet)
    rows = {r.name: r for r in book.rows([(x, graded(x, (1.0, 0.5))) for x in learners])}
    ex = Exercises(lessons=["01_embeddings"])
    jane, ann, raj = rows["Jane_Smith_12345"], rows["Ann_Lee_12346"], rows["Raj_Patel_12347"]
    assert jane.late is None and jane.total == 1.5
    assert ann.late["days"] == 2 and ann.total == 1.2
    assert problem_text(ann, ex) == "late by 2 days: -20% (1.5 -> 1.2)"
    assert any("keeps 80% of its 1.5 points" in n for n in ann.notes)  # said in her feedback too
    assert raj.late is None and any("submission times are unknown" in n and "Raj_Patel_12347" in n
                                    for n in book.notes(learners))
    assert ann.identity["moodle_id"] == "12346" and ann.identity["email"] == "a@x.org"


def test_canvas_s_late_mark_counts_one_day_and_says_so(tmp_path):
    learners = canvas_download(tmp_path, ["doejohn_LATE_4077_880020", "smithjane_4021_880011"])
    for rule, total, said in [("penalty", 1.8, "late (Canvas: how late is unknown, 1 day counted): -10% (2 -> 1.8)"),
                              ("zero", 0.0, "late (Canvas: how late is unknown, 1 day counted): scores 0 (late rule: zero)"),
                              ("accept", 2.0, "late (Canvas: how late is unknown, 1 day counted): accepted")]:
        book = ClassList(late_assignment(rule, 10.0 if rule == "penalty" else 0.0))
        rows = {r.name: r for r in book.rows([(x, graded(x)) for x in learners])}
        assert rows["doejohn_4077"].total == total
        assert problem_text(rows["doejohn_4077"], Exercises(lessons=["01_embeddings"])) == said
        assert rows["smithjane_4021"].late is None
        assert not any("unknown" in n for n in book.notes(learners))  # Canvas marks every late file

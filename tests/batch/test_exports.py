"""``grader export`` (grader/batch/exports/): a class graded end to end from an LMS's download and
roster, exported, and the files read back the way the LMS's importer reads them. The readers
below follow the importers' published code, not the grader's:

- Canvas: app/models/gradebook_importer.rb in canvas-lms (the header test, "Points Possible",
  Assignment.title_and_id's /\\A(.*)\\s\\((\\d+)\\)\\z/, the student found by the ID column), as
  https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807
  describes it.
- Moodle: mod/assign/feedback/offline/importgradeslib.php (columns found by the English names
  Identifier, Grade, Last modified (grade), Feedback comments; the participant number what
  follows "Participant") and mod/assign/feedback/file/importziplib.php (each path part split
  at "_" into at most five pieces: name, participant number, plugin type, plugin, rest), as
  https://docs.moodle.org/en/Assignment_settings#Feedback_types describes the worksheet and the
  feedback files.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys
import zipfile

import pytest

from test_hostile import GOOD_EMBED, GOOD_ONE_HOT, embed_doing, write_learner

from grader.batch import exports
from grader.batch.exports.graded import Export, Graded, keyed

GRADE = [sys.executable, "-m", "grader", "grade"]
EXPORT = [sys.executable, "-m", "grader", "export"]
WRONG_EMBED = embed_doing("return wte[idx] + wpe[idx]")
STUB_ONE_HOT = 'def one_hot_embed(wte, idx):\n    raise NotImplementedError("one_hot_embed")'


def canvas_import(text: str) -> tuple[str, str, str, dict[int, str]]:
    """(assignment title, assignment id, points possible, {Canvas user id: grade}) as Canvas's
    importer reads a file with its five student columns."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    assert len(header) > 3 and "Student" in header[0] and "ID" in header[1]
    assert re.match(r"SIS\s+User\s+ID", header[2]) and re.match(r"SIS\s+Login\s+ID", header[3])
    assert "Section" in header[4]
    (column,) = header[5:]
    title, assignment_id = re.fullmatch(r"(.*)\s\((\d+)\)", column).groups()
    points, grades = None, {}
    for row in rows[1:]:
        if "Points Possible" in row[0]:
            points = row[5]
        elif not all(re.fullmatch(r"\s*(Muted|Manual Posting.*)?\s*", c, re.I) for c in row):
            assert int(row[1]) not in grades
            grades[int(row[1])] = row[5].strip()
    return title, assignment_id, points, grades


def moodle_worksheet(text: str) -> dict[int, dict]:
    """{participant: {grade, modified, comments}} as Moodle's worksheet importer reads it."""
    rows = list(csv.reader(io.StringIO(text)))
    index = {column: i for i, column in enumerate(rows[0])}
    assert {"Identifier", "Grade", "Last modified (grade)"} <= set(index)  # else Moodle refuses the file
    return {int(r[index["Identifier"]][len("Participant"):]): {
        "grade": float(r[index["Grade"]]), "modified": r[index["Last modified (grade)"]],
        "comments": r[index["Feedback comments"]]} for r in rows[1:]}


def moodle_feedback_zip(data: bytes) -> dict[int, tuple[str, bytes]]:
    """{participant: (file name, bytes)} as Moodle's "upload multiple feedback files in a zip" reads it."""
    found = {}
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for member in z.infolist():
            base = member.filename.rsplit("/", 1)[-1]
            if member.is_dir() or base.startswith((".", "~")):
                continue
            parts = member.filename.split("/")
            while parts:
                info = parts.pop(0).split("_", 4)
                if len(info) < 4 or not info[1].isdigit():
                    continue
                assert (info[2], info[3]) == ("assignsubmission", "file")  # a plugin the assignment has
                assert int(info[1]) not in found
                found[int(info[1])] = ("/".join([info[4] if len(info) == 5 else "", *parts]), z.read(member))
                break
    return found


def rows(out):
    return {r["submission"]: r for r in csv.DictReader((out / "gradebook.csv").open())}


def run(cmd, code=0):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc


CANVAS_ROSTER = (  # Canvas's gradebook export (gradebook_exporter.rb's layout), six students who handed in and two who did not
    "Student,ID,SIS User ID,SIS Login ID,Section,GPT-2 part 1 (48213),Current Score,Final Score\n"
    "    Points Possible,,,,,3.00,(read only),(read only)\n"
    '"Smith, Jane",4021,S4021,jsmith,Section A,,,0.00\n"Doe, John",4077,S4077,jdoe,Section A,,,0.00\n'
    '"Lee, Ann",4102,S4102,alee,Section B,,,0.00\n"Park, Min",4103,S4103,mpark,Section B,,,0.00\n'
    '"Ng, Kim",4104,S4104,kng,Section A,,,0.00\n"Lou, Ada",4105,S4105,alou,Section B,,,0.00\n'
    '"Roe, Rick",4100,S4100,rroe,Section A,,,0.00\n"Sue, Amy",4101,S4101,asue,Section B,,,0.00\n'
    '"Student, Test",9999,,,Section A,,,\n'
)
ASSIGNMENT = ('title = "GPT-2 part 1"\nlessons = ["01_embeddings"]\ndue = 2025-03-14T23:59:00+01:00\n'
              '[late]\nrule = "penalty"\npercent_per_day = 10\n[points]\nembed = 2\n[lms]\nassignment_id = 48213\n')


@pytest.fixture(scope="module")
def canvas_class(tmp_path_factory):
    """A Canvas download of six (one LATE_, one with a wrong embed, one with a stub), graded with a
    Canvas roster of eight and an assignment file."""
    tmp = tmp_path_factory.mktemp("canvas")
    answers = {"smithjane_4021_880011": [GOOD_EMBED, GOOD_ONE_HOT], "doejohn_LATE_4077_880012": [GOOD_EMBED, GOOD_ONE_HOT],
               "leeann_4102_880013": [WRONG_EMBED, GOOD_ONE_HOT], "parkmin_4103_880014": [GOOD_EMBED, STUB_ONE_HOT],
               "ngkim_4104_880015": [GOOD_EMBED, GOOD_ONE_HOT], "louada_4105_880016": [GOOD_EMBED, GOOD_ONE_HOT]}
    with zipfile.ZipFile(tmp / "submissions.zip", "w") as z:
        for prefix, cells in answers.items():
            write_learner(tmp / "src" / prefix, cells)
            z.write(tmp / "src" / prefix / "01_embeddings.ipynb", f"{prefix}_01_embeddings_exercises.ipynb")
    (tmp / "roster.csv").write_text(CANVAS_ROSTER)
    (tmp / "assignment.toml").write_text(ASSIGNMENT)
    out = tmp / "out"
    proc = run(GRADE + [str(tmp / "submissions.zip"), "--out", str(out), "--roster", str(tmp / "roster.csv"),
                        "--assignment", str(tmp / "assignment.toml")])
    return tmp, out, proc


def test_a_canvas_download_of_six_and_a_roster_of_eight_give_eight_rows(canvas_class):
    tmp, out, proc = canvas_class
    table = rows(out)
    assert len(table) == 8
    assert {n: (r["total"], r["problem"]) for n, r in table.items() if n in ("roerick_4100", "sueamy_4101")} == {
        "roerick_4100": ("0", "no submission"), "sueamy_4101": ("0", "no submission")}
    assert (table["smithjane_4021"]["total"], table["smithjane_4021"]["max_total"]) == ("3", "3")
    assert table["doejohn_4077"]["total"] == "2.7"  # 10% for a day, the least a LATE_ file can be
    assert "late (Canvas: how late is unknown, 1 day counted): -10% (3 -> 2.7)" in table["doejohn_4077"]["problem"]
    assert float(table["leeann_4102"]["total"]) < 3 and table["parkmin_4103"]["total"] == "2"
    assert "2 of the 8 learners on the roster handed in nothing" in proc.stderr
    report = json.loads((out / "report.json").read_text())
    # the gradebook's two decimals: a wrong answer can pass a hidden input by chance (1/8: 0.125)
    assert {s["name"]: round(s["total"], 2) for s in report["submissions"]} == {n: float(r["total"]) for n, r in table.items()}
    assert report["roster"]["no_submission"] == ["roerick_4100", "sueamy_4101"]
    assert not (out / "feedback" / "roerick_4100").exists()
    assert "keeps 90% of its 3 points" in (out / "feedback" / "doejohn_4077" / "feedback.md").read_text()


def test_the_canvas_export_is_read_back_by_canvas_s_rules(canvas_class):
    tmp, out, _ = canvas_class
    proc = run(EXPORT + ["canvas", str(out), "--out", str(tmp / "export")])
    assert "canvas_gradebook_import.csv" in proc.stdout
    title, assignment_id, points, grades = canvas_import((tmp / "export" / "canvas_gradebook_import.csv").read_text())
    assert (title, assignment_id, points) == ("GPT-2 part 1", "48213", "3")
    by_id = {int(n.rsplit("_", 1)[1]): r["total"] for n, r in rows(out).items()}
    assert grades == by_id and len(grades) == 8
    with open(tmp / "export" / "canvas_gradebook_import.csv") as f:
        jane = next(r for r in csv.DictReader(f) if r["ID"] == "4021")
    assert (jane["Student"], jane["SIS User ID"], jane["SIS Login ID"], jane["Section"]) == (
        "Smith, Jane", "S4021", "jsmith", "Section A")


def test_the_plain_export_has_every_row_and_moodle_s_says_why_it_has_none(canvas_class):
    tmp, out, _ = canvas_class
    run(EXPORT + ["csv", str(out), "--out", str(tmp / "plain")])
    with open(tmp / "plain" / "grades.csv") as f:
        plain = {r["learner"]: r for r in csv.DictReader(f)}
    assert {n: r["total"] for n, r in plain.items()} == {n: r["total"] for n, r in rows(out).items()}
    assert plain["doejohn_4077"]["late_days"] == "1" and plain["sueamy_4101"]["canvas_id"] == "4101"
    proc = run(EXPORT + ["moodle", str(out), "--out", str(tmp / "moodle")], code=2)
    assert "none of the 8 learners can go into Moodle" in proc.stderr and "no Moodle user id" in proc.stderr


MOODLE_SHEET = (  # Moodle's grading worksheet as "Download grading worksheet" writes it (English)
    "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,Last modified (submission),"
    "Online text,Last modified (grade),Feedback comments\n"
    'Participant 12345,Jane Smith,jane@example.edu,"Submitted for grading",,10.00,Yes,"Friday, 14 March 2025, 11:45 PM",,-,\n'
    'Participant 12346,Ann Lee,ann@example.edu,"Submitted for grading - Graded",6.00,10.00,Yes,'
    '"Friday, 14 March 2025, 10:00 AM",,"Saturday, 15 March 2025, 9:02 AM",\n'
    'Participant 12347,Raj Patel,raj@example.edu,"Submitted for grading",,10.00,Yes,"Friday, 14 March 2025, 9:00 AM",,-,\n'
    "Participant 12348,Li Wei,li@example.edu,No submission,,10.00,Yes,-,,-,\n"
)


def test_a_moodle_download_goes_back_as_moodle_s_worksheet_and_feedback_zip(tmp_path):
    download = tmp_path / "download"
    for who, cells in {"Jane Smith_12345": [GOOD_EMBED, GOOD_ONE_HOT], "Ann Lee_12346": [WRONG_EMBED, GOOD_ONE_HOT],
                       "Raj Patel_12347": [embed_doing("return wte["), STUB_ONE_HOT]}.items():
        write_learner(download / f"{who}_assignsubmission_file_", cells)
    (tmp_path / "sheet.csv").write_text(MOODLE_SHEET)
    (tmp_path / "a.toml").write_text('title = "Embeddings <1>"\nlessons = ["01_embeddings"]\n[lms]\npoints_possible = 10\n')
    out = tmp_path / "out"
    run(GRADE + ["--class", str(download), "--out", str(out), "--roster", str(tmp_path / "sheet.csv"),
                 "--assignment", str(tmp_path / "a.toml")])
    table = rows(out)
    assert sorted(table) == ["Ann_Lee_12346", "Jane_Smith_12345", "Li_Wei_12348", "Raj_Patel_12347"]
    run(EXPORT + ["moodle", str(out), "--out", str(tmp_path / "export")])
    sheet = moodle_worksheet((tmp_path / "export" / "moodle_grading_worksheet.csv").read_text())
    assert sorted(sheet) == [12345, 12346, 12347, 12348]
    # out of Moodle's 10, not the grader's 2; from the exact points (report.json), not the
    # gradebook's two decimals: the hidden inputs are drawn anew each batch, and Ann's wrong
    # embed can pass one of eight by chance (0.125: the gradebook shows 1.12, Moodle 5.62)
    exact = {s["name"]: s["total"] for s in json.loads((out / "report.json").read_text())["submissions"]}
    assert sorted(exact) == sorted(table)
    for name, total in exact.items():
        assert sheet[int(name.rsplit("_", 1)[1])]["grade"] == pytest.approx(total * 5, abs=0.005 + 1e-9)
    assert sheet[12346]["modified"] == "Saturday, 15 March 2025, 9:02 AM"  # Moodle's own, so it can spot a newer grade
    assert sheet[12348]["grade"] == 0 and "no submission" in sheet[12348]["comments"]
    assert "Embeddings &lt;1&gt;: 10 / 10 points.<br>" in sheet[12345]["comments"]
    files = moodle_feedback_zip((tmp_path / "export" / "moodle_feedback_files.zip").read_bytes())
    assert sorted(files) == [12345, 12346, 12347]  # Li handed in nothing: no feedback file
    for name in ("Jane_Smith_12345", "Ann_Lee_12346", "Raj_Patel_12347"):
        file_name, data = files[int(name.rsplit("_", 1)[1])]
        assert file_name == "/feedback.md" and data == (out / "feedback" / name / "feedback.md").read_bytes()


def graded_folder(tmp_path, submissions, complete=True, assignment=None):
    (tmp_path / "g").mkdir(exist_ok=True)
    (tmp_path / "g" / "report.json").write_text(json.dumps(
        {"max_total": 2, "complete": complete, "assignment_file": assignment, "submissions": submissions}))
    return tmp_path / "g"


def row(name, **identity):
    return {"name": name, "total": 1.5, "identity": identity, "absent": False, "verdicts": [], "late": None}


def test_a_learner_an_lms_cannot_take_is_listed_never_skipped():
    graded = Graded(None, 2.0, [row("ann", moodle_id="1"), row("bob"), row("cat", moodle_id="2"),
                                row("dan", moodle_id="2"), row("eve", moodle_id="3") | {"internal": True}], None)
    made = Export()
    assert [r["name"] for r in keyed(graded, "moodle_id", "Moodle", made)] == ["ann"]
    assert [p.split(":")[0] for p in made.problems] == ["bob", "cat", "dan", "eve"]
    assert "no Moodle user id" in made.problems[0] and "has 2 rows" in made.problems[1]
    assert "the grader failed" in made.problems[3]


def test_export_refuses_what_it_cannot_export_with_the_fix(tmp_path):
    proc = run(EXPORT + ["csv", str(tmp_path), "--out", str(tmp_path / "x")], code=2)
    assert "holds no report.json" in proc.stderr
    folder = graded_folder(tmp_path, [row("ann", canvas_id="4021")], complete=False)
    assert "not finished" in run(EXPORT + ["csv", str(folder), "--out", str(tmp_path / "x")], code=2).stderr
    folder = graded_folder(tmp_path, [row("ann", canvas_id="4021")])
    proc = run(EXPORT + ["canvas", str(folder), "--out", str(tmp_path / "x")], code=2)
    assert "[lms] assignment_id" in proc.stderr
    (tmp_path / "a.toml").write_text('lessons = ["01_embeddings"]\n[lms]\nassignment_id = 7\n')
    run(EXPORT + ["canvas", str(folder), "--out", str(tmp_path / "x"), "--assignment", str(tmp_path / "a.toml")])
    assert canvas_import((tmp_path / "x" / "canvas_gradebook_import.csv").read_text())[1:] == ("7", "2", {4021: "1.5"})
    (tmp_path / "g" / "report.json").write_text(json.dumps({"max_total": 2, "complete": True,
                                                            "submissions": [{"name": "ann", "total": 1}]}))
    assert "run the same `grader grade` command" in run(EXPORT + ["csv", str(folder), "--out", str(tmp_path / "x")],
                                                         code=2).stderr


def test_a_feedback_file_behind_a_link_is_not_followed(tmp_path):
    folder = graded_folder(tmp_path, [row("ann", moodle_id="12"), row("bob", moodle_id="13")])
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "feedback.md").write_text("someone else's")
    (folder / "feedback" / "ann").mkdir(parents=True)
    (folder / "feedback" / "ann" / "feedback.md").write_text("ann's")
    os.symlink(tmp_path / "elsewhere", folder / "feedback" / "bob")
    made = exports.make("moodle", exports.load(folder))
    files = moodle_feedback_zip(made.files["moodle_feedback_files.zip"])
    assert {k: v[1] for k, v in files.items()} == {12: b"ann's"}
    assert made.problems == ["bob: no feedback/bob/feedback.md to send (its grade is in the worksheet): run the same "
                             "`grader grade` command again to write it"]


def test_canvas_s_points_possible_is_the_lms_s_not_the_grader_s(tmp_path):
    folder = graded_folder(tmp_path, [row("ann", canvas_id="4021")])   # the grader's max_total: 2
    (tmp_path / "a.toml").write_text('lessons = ["01_embeddings"]\n[lms]\nassignment_id = 7\npoints_possible = 10\n')
    run(EXPORT + ["canvas", str(folder), "--out", str(tmp_path / "x"), "--assignment", str(tmp_path / "a.toml")])
    _, _, points, grades = canvas_import((tmp_path / "x" / "canvas_gradebook_import.csv").read_text())
    assert (points, grades) == ("10", {4021: "7.5"})   # 1.5 of 2 is 7.5 of 10


def test_moodle_s_zip_folders_keep_the_participant_number_readable_whatever_the_name(tmp_path):
    folder = graded_folder(tmp_path, [row("ann", moodle_id="12") | {"identity": {"moodle_id": "12", "name": "Lee_Ann"}},
                                      row("bob", moodle_id="13") | {"identity": {"moodle_id": "13", "name": "Bob/..\\_ Ray"}}])
    for who in ("ann", "bob"):
        (folder / "feedback" / who).mkdir(parents=True)
        (folder / "feedback" / who / "feedback.md").write_text(f"{who}'s")
    made = exports.make("moodle", exports.load(folder))
    files = moodle_feedback_zip(made.files["moodle_feedback_files.zip"])
    assert {k: v[1] for k, v in files.items()} == {12: b"ann's", 13: b"bob's"}


def test_moodle_s_advice_to_allow_updates_comes_only_without_moodle_s_own_times(tmp_path):
    advice = "Allow updating records"
    without = exports.make("moodle", exports.load(graded_folder(tmp_path, [row("ann", moodle_id="12")])))
    assert any(advice in n for n in without.notes)
    with_times = exports.make("moodle", exports.load(graded_folder(
        tmp_path, [row("ann", moodle_id="12", grade_modified="Monday, 17 March 2025, 9:02 AM")])))
    assert not any(advice in n for n in with_times.notes)


def test_the_plain_export_shows_a_formula_as_text(tmp_path):
    folder = graded_folder(tmp_path, [row("ann") | {"identity": {"name": '=HYPERLINK("http://x.example","click")',
                                                                 "email": "@SUM(1)"}}])
    (learner,) = csv.DictReader(io.StringIO(exports.make("csv", exports.load(folder)).files["grades.csv"].decode()))
    assert learner["name"].startswith("'=") and learner["email"].startswith("'@")


def test_a_report_that_does_not_say_it_is_complete_is_not_exported(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "report.json").write_text(json.dumps({"max_total": 2, "submissions": [row("ann", canvas_id="4021")]}))
    assert "not finished" in run(EXPORT + ["csv", str(tmp_path / "g"), "--out", str(tmp_path / "x")], code=2).stderr


def test_export_s_assignment_file_wins_over_the_one_grading_used(tmp_path):
    (tmp_path / "old.toml").write_text('lessons = ["01_embeddings"]\n[lms]\nassignment_id = 5\n')
    (tmp_path / "new.toml").write_text('lessons = ["01_embeddings"]\n[lms]\nassignment_id = 7\n')
    from grader.batch import assignment as af
    folder = graded_folder(tmp_path, [row("ann", canvas_id="4021")], assignment=af.load(tmp_path / "old.toml").to_dict())
    run(EXPORT + ["canvas", str(folder), "--out", str(tmp_path / "x"), "--assignment", str(tmp_path / "new.toml")])
    assert canvas_import((tmp_path / "x" / "canvas_gradebook_import.csv").read_text())[1] == "7"
    run(EXPORT + ["canvas", str(folder), "--out", str(tmp_path / "y")])   # without it: the one grading used
    assert canvas_import((tmp_path / "y" / "canvas_gradebook_import.csv").read_text())[1] == "5"

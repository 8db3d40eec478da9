"""Reading a roster (grader/batch/inputs/roster.py) in the layouts the LMSs export, written by
hand from their documented formats, not from anything the grader writes:

- Canvas's gradebook export: canvas-lms app/models/gradebook_exporter.rb (a header of
  Student, ID, [SIS User ID], SIS Login ID, [Root Account], Section, then "<title> (<id>)"
  per assignment and the totals; a Muted or Manual Posting row; "    Points Possible";
  ';' under a decimal-comma locale; an optional UTF-8 BOM; a name starting with '=' written
  as ="..."; the Student View user "Test Student" last) and
  https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-export-grades-in-the-Gradebook/ta-p/809
- Moodle's grading worksheet: https://docs.moodle.org/en/Assignment_settings#Feedback_types
  (Offline grading worksheet) and mod/assign/gradingtable.php's download columns: Identifier
  ("Participant N"), Full name, Email address, Status, Grade, Maximum Grade, Grade can be
  changed, Last modified (submission), Online text, Last modified (grade), Feedback comments.
"""
from datetime import datetime

import pytest

from grader.batch.inputs import roster as ro

CANVAS = (
    "\ufeffStudent,ID,SIS User ID,SIS Login ID,Root Account,Section,GPT-2 part 1 (48213),Quiz 1 (48214),"
    "Current Points,Final Points,Current Score,Unposted Current Score,Final Score,Unposted Final Score\n"
    ",,,,,,Manual Posting,,,,,,,\n"
    "    Points Possible,,,,,,5.00,10.00,(read only),(read only),(read only),(read only),(read only),(read only)\n"
    '"Smith, Jane",4021,S001,jsmith,canvas.example.edu,Section A,,8.00,8.00,8.00,80.00,80.00,53.33,53.33\n'
    '"Doe, John",4077,S002,jdoe,canvas.example.edu,"Section A and Section B",,,0.00,0.00,0.00,0.00,0.00,0.00\n'
    '"=""=Tables, Bobby""",4100,,btables,canvas.example.edu,Section B,,,,,,,,\n'
    '"Student, Test",9999,,,,Section A,,,,,,,,\n'
)
CANVAS_SEMICOLON = (
    "Student;ID;SIS Login ID;Section;GPT-2 part 1 (48213)\n"
    "    Points Possible;;;;5,00\n"
    '"Smith, Jane";4021;jsmith;Section A;\n'
)
MOODLE = (
    "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
    "Last modified (submission),Online text,Last modified (grade),Feedback comments\n"
    'Participant 12345,Jane Smith,jane@example.edu,"Submitted for grading",,10.00,Yes,'
    '"Friday, 14 March 2025, 11:45 PM",,-,\n'
    'Participant 12346,Ann_Lee,ann@example.edu,"No submission",,10.00,Yes,-,,'
    '"Monday, 17 March 2025, 9:02 AM",\n'
    'Participant 12347,Raj Patel,raj@example.edu,"Submitted for grading",,10.00,Yes,"sometime",,-,\n'
)


def read(tmp_path, text, name="roster.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return ro.read(path)


def test_canvas_s_export_gives_its_students_by_user_id(tmp_path):
    r = read(tmp_path, CANVAS)
    assert r.layout == ro.CANVAS and r.problems == []
    by = {e.canvas_id: e for e in r.entries}
    assert sorted(by) == ["4021", "4077", "4100"]  # not Points Possible, Manual Posting or Test Student
    jane = by["4021"]
    assert (jane.name, jane.sis_user_id, jane.sis_login_id, jane.section) == ("Smith, Jane", "S001", "jsmith",
                                                                              "Section A")
    assert jane.keys == (("Canvas", "4021"),) and jane.row_id == "smithjane_4021"  # as Canvas's download names her
    assert by["4077"].section == "Section A and Section B"
    assert by["4100"].name == "=Tables, Bobby" and by["4100"].row_id == "tablesbobby_4100"  # ="..." unwrapped


def test_canvas_s_semicolon_export_without_sis_user_id(tmp_path):
    r = read(tmp_path, CANVAS_SEMICOLON)
    (jane,) = r.entries
    assert r.layout == ro.CANVAS and (jane.canvas_id, jane.sis_login_id, jane.sis_user_id) == ("4021", "jsmith", "")


def test_moodle_s_worksheet_gives_participants_and_their_submission_times(tmp_path):
    r = read(tmp_path, MOODLE)
    assert r.layout == ro.MOODLE
    by = {e.moodle_id: e for e in r.entries}
    jane, ann, raj = by["12345"], by["12346"], by["12347"]
    assert (jane.name, jane.email, jane.row_id) == ("Jane Smith", "jane@example.edu", "Jane_Smith_12345")
    assert jane.submitted == datetime(2025, 3, 14, 23, 45) and jane.grade_modified == "-"
    assert ann.name == "Ann Lee" and ann.submitted is None  # Moodle's folders never hold '_' in a name
    assert ann.grade_modified == "Monday, 17 March 2025, 9:02 AM"
    assert raj.submitted is None and any("'sometime' not understood" in p for p in r.problems)


def test_a_plain_roster_keys_by_id_and_by_the_lms_ids_it_gives(tmp_path):
    r = read(tmp_path, "ID,Name,Email,canvas_id,submitted\nann,Ann Lee,ann@x.org,4021,2025-03-15T08:00:00Z\n"
                       "bob,,,x12,\n,no id,,,\n")
    ann, bob = r.entries
    assert ann.keys == (("id", "ann"), ("Canvas", "4021")) and ann.name == "Ann Lee"
    assert ann.submitted.isoformat() == "2025-03-15T08:00:00+00:00"
    assert bob.keys == (("id", "bob"),)
    assert any("canvas_id 'x12' is not a number" in p for p in r.problems)
    assert any("row 4: no id" in p for p in r.problems)


def test_a_second_row_for_one_learner_is_listed_not_used(tmp_path):
    r = read(tmp_path, "id,name\nann,Ann\nann,Ann again\n")
    assert [e.name for e in r.entries] == ["Ann"] and "a second row for id ann" in r.problems[0]


@pytest.mark.parametrize("text, words", [
    ("Name,Score\nAnn,3\n", ["none of the layouts", "Name, Score", "Canvas", "Moodle", "id column"]),
    ("", ["empty"]),
], ids=["unknown header", "empty"])
def test_a_roster_the_grader_cannot_read_is_an_error_that_says_what_it_reads(tmp_path, text, words):
    with pytest.raises(ro.RosterError) as err:
        read(tmp_path, text)
    assert all(w in str(err.value) for w in words), str(err.value)


def test_a_roster_that_is_not_utf8_says_how_to_export_it(tmp_path):
    (tmp_path / "r.csv").write_bytes("id,name\nann,Åsa\n".encode("utf-16"))
    with pytest.raises(ro.RosterError, match="UTF-8"):
        ro.read(tmp_path / "r.csv")


def test_moodle_s_dash_for_no_submission_is_no_time_and_no_problem(tmp_path):
    r = read(tmp_path, MOODLE.replace('Participant 12347,Raj Patel,raj@example.edu,"Submitted for grading",,10.00,Yes,"sometime"',
                                      'Participant 12347,Raj Patel,raj@example.edu,"No submission",,10.00,Yes,-'))
    assert all(e.submitted is None for e in r.entries if e.moodle_id != "12345") and r.problems == []


def test_a_plain_roster_s_lms_ids_stay_in_their_own_fields(tmp_path):
    r = read(tmp_path, "id,name,canvas_id,moodle_id\nann,Ann Lee,4021,12345\n")
    (ann,) = r.entries
    assert (ann.canvas_id, ann.moodle_id) == ("4021", "12345")
    assert ann.keys == (("id", "ann"), ("Canvas", "4021"), ("Moodle", "12345"))


def test_two_ids_that_share_one_canvas_user_are_one_learner_listed_once(tmp_path):
    r = read(tmp_path, "id,name,canvas_id\nann,Ann Lee,4021\nann2,Ann again,4021\n")
    assert [e.row_id for e in r.entries] == ["ann"]
    assert any("a second row for Canvas 4021" in p for p in r.problems), r.problems

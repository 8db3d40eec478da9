"""The assignment file (grader/batch/assignment.py): read key by key, each mistake named with
its fix, the flags over it, and max_total fixed by it whoever handed in what."""
import argparse
import csv
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest

from conftest import ROOT
from grader.batch import assignment as af

GRADE = [sys.executable, "-m", "grader", "grade"]
EXAMPLE = ROOT / "docs" / "examples" / "assignment.toml"
UTC1 = timezone(timedelta(hours=1))


def test_the_documented_example_reads_as_it_says():
    a = af.load(EXAMPLE)
    assert a.lessons == ["01_embeddings", "02_attention"] and a.scoring == "per-case"
    assert a.due == datetime(2025, 3, 14, 23, 59, tzinfo=UTC1)
    assert (a.late.rule, a.late.percent_per_day) == ("penalty", 10.0)
    assert a.points == {"embed": 2.0, "causal_self_attention": 3.0}
    assert (a.lms_id, a.name, a.lms_points) == ("48213", "GPT-2 part 1", None)


def write(tmp_path, text):
    path = tmp_path / "assignment.toml"
    path.write_text(text)
    return path


LESSONS = 'lessons = ["01_embeddings"]\n'
# a file's text -> words its error must hold (the key, and what to do)
BAD = {
    "missing lessons": ('title = "x"\n', ["lessons is missing", "01_embeddings"]),
    "unknown lesson": ('lessons = ["01_embedings"]\n', ["'01_embedings'", "did you mean '01_embeddings'"]),
    "misspelt key": (LESSONS + 'titel = "x"\n', ["unknown key titel", "did you mean title"]),
    "key under the wrong table": (LESSONS + '[points]\nembed = 2\ndue = 2025-03-14T23:59:00Z\n',
                                  ["points.due", "no exercise"]),
    "due without zone": (LESSONS + "due = 2025-03-14T23:59:00\n", ["due = 2025-03-14T23:59:00 has no time zone",
                                                                   "+01:00"]),
    "due as a day": (LESSONS + "due = 2025-03-14\n", ["is a day, not a moment"]),
    "due as a string": (LESSONS + 'due = "2025-03-14T23:59:00Z"\n', ["without quotes"]),
    "late without due": (LESSONS + '[late]\nrule = "zero"\n', ["[late] needs a due date"]),
    "unknown late rule": (LESSONS + 'due = 2025-03-14T23:59:00Z\n[late]\nrule = "halve"\n',
                          ["late.rule = 'halve'", "'penalty'"]),
    "penalty without percent": (LESSONS + 'due = 2025-03-14T23:59:00Z\n[late]\nrule = "penalty"\n',
                                ["late.percent_per_day", "above 0"]),
    "percent for another rule": (LESSONS + 'due = 2025-03-14T23:59:00Z\n[late]\nrule = "zero"\npercent_per_day = 5\n',
                                 ["late.percent_per_day is for rule = \"penalty\""]),
    "points of an unlisted lesson": (LESSONS + "[points]\ngelu_tanh = 2\n", ["points.gelu_tanh", "03_mlp_block",
                                                                           "add the lesson"]),
    "negative points": (LESSONS + "[points]\nembed = -1\n", ["points.embed = -1"]),
    "scoring": (LESSONS + 'scoring = "strict"\n', ["scoring = 'strict'", "'all-or-nothing'"]),
    "lms id not a number": (LESSONS + '[lms]\nassignment_id = "abc"\n', ["lms.assignment_id = 'abc'", "/assignments/"]),
    "lms points": (LESSONS + "[lms]\npoints_possible = 0\n", ["lms.points_possible = 0"]),
    "not TOML": (LESSONS + "title = Part 1\n", ["is not valid TOML", "line 2"]),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_file_names_the_key_and_the_fix(tmp_path, case):
    text, words = BAD[case]
    with pytest.raises(af.AssignmentError) as err:
        af.load(write(tmp_path, text))
    assert all(w in str(err.value) for w in words), str(err.value)


def test_a_missing_file_is_said():
    with pytest.raises(af.AssignmentError, match="no such file"):
        af.load(ROOT / "no-such-assignment.toml")


@pytest.mark.parametrize("rule, percent, days, kept", [
    ("accept", 0, 3, 1.0), ("zero", 0, 1, 0.0), ("penalty", 10, 0, 1.0), ("penalty", 10, 2, 0.8),
    ("penalty", 30, 4, 0.0)], ids=["accept", "zero", "on time", "two days", "never below nothing"])
def test_late_rules(rule, percent, days, kept):
    assert af.LateRule(rule, percent).factor(days) == pytest.approx(kept)


@pytest.mark.parametrize("submitted, days", [
    (datetime(2025, 3, 14, 23, 59, tzinfo=UTC1), 0), (datetime(2025, 3, 15, 0, 0, tzinfo=UTC1), 1),
    (datetime(2025, 3, 15, 23, 59, tzinfo=UTC1), 1), (datetime(2025, 3, 16, 0, 0, tzinfo=UTC1), 2),
    (datetime(2025, 3, 14, 23, 30, tzinfo=timezone.utc), 1), (datetime(2025, 3, 14, 23, 30), 0)],
    ids=["on the minute", "a minute late", "a day less a minute", "a day and a minute", "UTC, 31 min late",
         "no zone: the due date's"])
def test_days_late_count_started_days_in_real_time(submitted, days):
    a = af.Assignment("x", ["01_embeddings"], due=datetime(2025, 3, 14, 23, 59, tzinfo=UTC1))
    assert a.days_late(submitted) == days


def test_flags_override_the_file_per_setting(tmp_path):
    from grader.__main__ import _class_settings

    path = write(tmp_path, 'lessons = ["01_embeddings"]\nscoring = "all-or-nothing"\n[points]\nembed = 2\n'
                           'one_hot_embed = 3\n')
    args = argparse.Namespace(assignment=str(path), roster=None, scoring=None)
    _, lessons, points, scoring = _class_settings(args, None, None)
    assert (lessons, points, scoring) == (["01_embeddings"], {"embed": 2.0, "one_hot_embed": 3.0}, "all-or-nothing")
    args.scoring = "per-case"
    _, lessons, points, scoring = _class_settings(args, ["02_attention"], {"embed": 5})
    assert (lessons, points, scoring) == (["02_attention"], {"embed": 5, "one_hot_embed": 3.0}, "per-case")


def test_the_file_fixes_max_total_though_nobody_handed_a_lesson_in(tmp_path):
    """Lesson 03 is on the assignment and in nobody's upload: every row is out of its points too,
    on the first run and the next; a bad file stops the run with the reason, no traceback."""
    (tmp_path / "class" / "ann").mkdir(parents=True)
    (tmp_path / "class" / "ann" / "01_embeddings.ipynb").write_bytes(
        (ROOT / "solutions" / "01_embeddings_exercises.ipynb").read_bytes())
    path = write(tmp_path, 'title = "Part 1"\nlessons = ["01_embeddings", "03_mlp_block"]\n')
    out = tmp_path / "out"
    for _ in range(2):
        proc = subprocess.run(GRADE + [str(tmp_path / "class"), "--out", str(out), "--assignment", str(path)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        (row,) = csv.DictReader((out / "gradebook.csv").open())
        assert (row["total"], row["max_total"]) == ("2", "5")
        assert "no notebook graded for lesson 03_mlp_block" in row["problem"]
    bad = write(tmp_path, 'lessons = ["01_embeddings"]\ndue = 2025-03-14T23:59:00\n')
    proc = subprocess.run(GRADE + [str(tmp_path / "class"), "--out", str(out), "--assignment", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "due = 2025-03-14T23:59:00 has no time zone" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("percent, ok", [(100, True), (100.5, False), (0.5, True), (0, False)])
def test_a_penalty_may_take_everything_after_a_day_but_no_more(tmp_path, percent, ok):
    text = LESSONS + f'due = 2025-03-14T23:59:00Z\n[late]\nrule = "penalty"\npercent_per_day = {percent}\n'
    if ok:
        assert af.load(write(tmp_path, text)).late.factor(1) == pytest.approx(max(0.0, 1 - percent / 100))
    else:
        with pytest.raises(af.AssignmentError, match="at most 100"):
            af.load(write(tmp_path, text))

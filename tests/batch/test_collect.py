"""Inputs into learners (grader/batch/inputs/collect.py, files.py, lms.py): every layout an
instructor hands in, the shape kept (only an argument is a class, an upload is one
learner whatever it holds), every file accounted for, zips read in memory within limits.

Most tests call collect() on real files; the few that grade go through the CLI.
"""
import csv
import json
import os
import stat
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT
from grader.batch.inputs import collect as col
from grader.batch.inputs import files
from test_hostile import GOOD_EMBED, GOOD_ONE_HOT, embed_doing, write_learner

GRADE = [sys.executable, "-m", "grader", "grade"]
NB1 = (ROOT / "solutions" / "01_embeddings_exercises.ipynb").read_bytes()
NB2 = (ROOT / "solutions" / "02_attention_exercises.ipynb").read_bytes()
WRONG = embed_doing("return wte[idx]")


def learner_folder(folder, *names):
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_bytes(NB2 if "02" in name else NB1)
    return folder


def zip_with(path, members):
    """members: name -> bytes (or a str, written as UTF-8)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def zip_bytes(members) -> bytes:
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def by_name(collected):
    return {x.name: x for x in collected.learners}


def notebooks(learner):
    return sorted(nb.name for nb in learner.notebooks)


def skipped(collected):
    return {s.path: (s.reason, s.learner) for s in collected.skipped}


def grade(*inputs, out):
    proc = subprocess.run(GRADE + [str(i) for i in inputs] + ["--out", str(out), "--jobs", "2",
                                                              "--isolation", "python", "--timeout", "20"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    return proc


def rows(out):
    return {r["submission"]: r for r in csv.DictReader((out / "gradebook.csv").open(newline=""))}


# ------------------------------------------------------------------ layouts
def test_a_zip_beside_learner_folders_is_a_learner(tmp_path):
    """The issue's case: alice/, bob/, carol/ and dave.zip grade four learners, and the
    one file that is nobody's is listed, in report.json and on the console."""
    sub = tmp_path / "submissions"
    for name in ("alice", "bob", "carol"):
        write_learner(sub / name, [GOOD_EMBED, GOOD_ONE_HOT])
    write_learner(tmp_path / "src", [WRONG, GOOD_ONE_HOT])
    zip_with(sub / "dave.zip", {"01_embeddings.ipynb": (tmp_path / "src" / "01_embeddings.ipynb").read_bytes()})
    (sub / "class-list.txt").write_text("alice bob carol dave")
    out = tmp_path / "out"
    proc = grade(sub, out=out)
    got = {n: (r["total"], r["problem"]) for n, r in rows(out).items()}
    assert got == {"alice": ("2", ""), "bob": ("2", ""), "carol": ("2", ""), "dave": ("1", "")}
    assert "graded 4 submission(s)" in proc.stdout
    report = json.loads((out / "report.json").read_text())
    assert report["skipped"] == [{"path": str(sub / "class-list.txt"), "learner": None,
                                  "reason": col.NOT_A_LEARNER}]
    assert f"skipped 1 file(s)" in proc.stdout and f"{sub / 'class-list.txt'}: not a learner's" in proc.stdout


def test_a_folder_of_zips_is_a_class(tmp_path):
    sub = tmp_path / "submissions"
    zip_with(sub / "ann.zip", {"01_embeddings_exercises.ipynb": NB1})
    zip_with(sub / "bob.zip", {"bob/01_embeddings_exercises.ipynb": NB1, "bob/02_attention_exercises.ipynb": NB2})
    got = by_name(col.collect([sub]))
    assert sorted(got) == ["ann", "bob"]
    assert notebooks(got["ann"]) == ["01_embeddings_exercises.ipynb"]
    assert notebooks(got["bob"]) == ["bob/01_embeddings_exercises.ipynb", "bob/02_attention_exercises.ipynb"]
    assert got["bob"].notebooks[0].load()[0] in (NB1, NB2)  # read from the zip, nothing extracted
    assert sorted(os.listdir(tmp_path)) == ["submissions"]


def test_a_zip_of_learner_zips_is_a_class(tmp_path):
    inner = {"ann.zip": zip_bytes({"01_embeddings_exercises.ipynb": NB1}),
             "bob.zip": zip_bytes({"work/01_embeddings_exercises.ipynb": NB1})}
    got = by_name(col.collect([col.ClassArgument(zip_with(tmp_path / "class.zip", inner))]))
    assert sorted(got) == ["ann", "bob"]
    assert notebooks(got["bob"]) == ["work/01_embeddings_exercises.ipynb"]
    assert got["ann"].notebooks[0].load()[0] == NB1


@pytest.mark.parametrize("wrapper", ["", "class-2024/"])
def test_a_zip_of_learner_folders_is_a_class(tmp_path, wrapper):
    """Named as they are in it when the instructor says it is a class (--class); else under
    the zip's name, as a zip of folders a learner uploaded would be."""
    members = {f"{wrapper}ann/01_embeddings_exercises.ipynb": NB1, f"{wrapper}bob/02_attention_exercises.ipynb": NB2}
    archive = zip_with(tmp_path / "class.zip", members)
    got = by_name(col.collect([col.ClassArgument(archive)]))
    assert sorted(got) == ["ann", "bob"] and notebooks(got["bob"]) == ["02_attention_exercises.ipynb"]
    got = by_name(col.collect([archive]))
    assert sorted(got) == ["class.ann", "class.bob"] and notebooks(got["class.bob"]) == ["02_attention_exercises.ipynb"]
    assert all(x.problems == [] for x in got.values())


def test_a_zip_of_one_learner_is_named_by_the_zip(tmp_path):
    for members in ({"01_embeddings_exercises.ipynb": NB1}, {"kim/01_embeddings_exercises.ipynb": NB1}):
        (x,) = col.collect([zip_with(tmp_path / "kim-hw.zip", members)]).learners
        assert x.name == "kim-hw" and notebooks(x) == ["01_embeddings_exercises.ipynb"]


CANVAS = {
    "smithjane_4021_880011_01_embeddings_exercises.ipynb": NB1,
    "smithjane_4021_880012_02_attention_exercises.ipynb": NB2,
    "doejohn_LATE_4077_880020_01_embeddings_exercises.ipynb": NB1,
    "doejohn_LATE_4077_880021_answers.pdf": b"%PDF-1.4",
}


def test_a_canvas_download_groups_each_learner_s_files(tmp_path):
    collected = col.collect([zip_with(tmp_path / "submissions.zip", CANVAS)])
    got = by_name(collected)
    assert sorted(got) == ["doejohn_4077", "smithjane_4021"]
    assert notebooks(got["smithjane_4021"]) == sorted(n for n in CANVAS if n.startswith("smithjane"))
    assert "Canvas marks this submission late" in got["doejohn_4077"].notes
    assert skipped(collected) == {str(tmp_path / "submissions.zip" / "doejohn_LATE_4077_880021_answers.pdf"):
                                  ("not a .ipynb notebook", "doejohn_4077")}
    # the same files unpacked into a folder by the instructor
    folder = tmp_path / "unpacked"
    folder.mkdir()
    for name, data in CANVAS.items():
        (folder / name).write_bytes(data)
    assert sorted(by_name(col.collect([folder]))) == ["doejohn_4077", "smithjane_4021"]


@pytest.mark.parametrize("odd", ["notes.ipynb", "SmithJane_4021_880013_x.ipynb", "smithjane_4021_x.ipynb",
                                 "smith_jane_4021_880013_x.ipynb"])
def test_the_canvas_recogniser_needs_every_name_to_match_whole(tmp_path, odd):
    """One name that is not Canvas's: no regrouping, the zip is one learner as any other."""
    (x,) = col.collect([zip_with(tmp_path / "hw.zip", {**CANVAS, odd: NB1})]).learners
    assert x.name == "hw" and len(x.notebooks) == 4


MOODLE_FOLDERS = {
    "Jane Smith_4021_assignsubmission_file_/01_embeddings_exercises.ipynb": NB1,
    "Jane Smith_4021_assignsubmission_file_/02_attention_exercises.ipynb": NB2,
    "Jane Smith_4021_assignsubmission_onlinetext_/onlinetext.html": "<p>done</p>",
    "John Doe_4077_assignsubmission_file_/exercises/01_embeddings_exercises.ipynb": NB1,
}


def test_a_moodle_download_groups_each_learner_s_folders(tmp_path):
    collected = col.collect([zip_with(tmp_path / "moodle.zip", MOODLE_FOLDERS)])
    got = by_name(collected)
    assert sorted(got) == ["Jane_Smith_4021", "John_Doe_4077"]
    assert [n.rsplit("/", 1)[-1] for n in notebooks(got["Jane_Smith_4021"])] == \
        ["01_embeddings_exercises.ipynb", "02_attention_exercises.ipynb"]
    assert len(got["John_Doe_4077"].notebooks) == 1
    (why, whose), = skipped(collected).values()
    assert why == "not a .ipynb notebook" and whose == "Jane_Smith_4021"


def test_a_moodle_download_of_flat_files(tmp_path):
    flat = {"Jane Smith_4021_assignsubmission_file_01_embeddings_exercises.ipynb": NB1,
            "Jane Smith_4021_assignsubmission_file_02_attention_exercises.ipynb": NB2,
            "John Doe_4077_assignsubmission_file_01_embeddings_exercises.ipynb": NB1}
    got = by_name(col.collect([zip_with(tmp_path / "moodle.zip", flat)]))
    assert {n: len(x.notebooks) for n, x in got.items()} == {"Jane_Smith_4021": 2, "John_Doe_4077": 1}


def test_a_moodle_folder_name_without_its_trailing_underscore_is_not_moodle_s(tmp_path):
    members = {"Jane Smith_4021_assignsubmission_file/01_embeddings_exercises.ipynb": NB1,
               "John Doe_4077_assignsubmission_file_/01_embeddings_exercises.ipynb": NB1}
    got = by_name(col.collect([zip_with(tmp_path / "moodle.zip", members)]))
    assert sorted(got) == ["moodle.Jane_Smith_4021_assignsubmission_file", "moodle.John_Doe_4077_assignsubmission_file"]


def test_a_student_edition_handed_back_whole_is_graded_on_its_exercises(tmp_path):
    edition = tmp_path / "class" / "ann"
    learner_folder(edition / "exercises", "01_embeddings_exercises.ipynb")
    learner_folder(edition / "notebooks", "01_embeddings.ipynb")
    (edition / "gpt2course").mkdir()
    (edition / "gpt2course" / "numpy_gpt.py").write_text("x = 1")
    for arg in (tmp_path / "class", edition):  # inside a class, or as the argument itself
        collected = col.collect([arg])
        (x,) = collected.learners
        assert x.name == "ann" and notebooks(x) == ["exercises/01_embeddings_exercises.ipynb"]
        reasons = skipped(collected)
        assert reasons[str(edition / "notebooks" / "01_embeddings.ipynb")][0].startswith("a lesson of the student")


# ------------------------------------------------------------------ the shape is the instructor's
def test_an_upload_is_one_learner_whatever_it_holds(tmp_path):
    """eve.zip holds folders named like classmates: they are eve's. carol, who sent
    nothing, gets no one's work; alice keeps her plain id and her own row."""
    klass = tmp_path / "class"
    write_learner(klass / "alice", [GOOD_EMBED, GOOD_ONE_HOT])
    write_learner(klass / "bob", [GOOD_EMBED, GOOD_ONE_HOT])
    (klass / "carol").mkdir()
    write_learner(tmp_path / "wrong", [WRONG, GOOD_ONE_HOT])
    write_learner(tmp_path / "right", [GOOD_EMBED, GOOD_ONE_HOT])
    zip_with(klass / "eve.zip", {"alice/01_embeddings.ipynb": (tmp_path / "wrong" / "01_embeddings.ipynb").read_bytes(),
                                 "carol/01_embeddings.ipynb": (tmp_path / "right" / "01_embeddings.ipynb").read_bytes()})
    got = by_name(col.collect([klass]))
    assert sorted(got) == ["alice", "bob", "carol", "eve"]
    assert notebooks(got["eve"]) == ["alice/01_embeddings.ipynb", "carol/01_embeddings.ipynb"]
    assert got["carol"].notebooks == [] and got["alice"].problems == []
    out = tmp_path / "out"
    grade(klass, out=out)
    table = rows(out)
    assert sorted(table) == ["alice", "bob", "carol", "eve"]
    assert (table["alice"]["total"], table["alice"]["problem"]) == ("2", "")
    assert table["carol"]["total"] == "0" and "no .ipynb notebook" in table["carol"]["problem"]
    assert table["eve"]["total"] == "2"  # two notebooks for lesson 01: the higher-scoring one


def _uploads(tmp_path):
    """A folder of uploads, as an LMS without a download format leaves them: alice's and
    good_learner's zips of notebooks, and mallory's zip of folders named like classmates
    (carol, who sent nothing, and good_learner), holding right answers."""
    subs = tmp_path / "subs"
    write_learner(tmp_path / "src" / "right", [GOOD_EMBED, GOOD_ONE_HOT])
    write_learner(tmp_path / "src" / "wrong", [WRONG, GOOD_ONE_HOT])
    right = (tmp_path / "src" / "right" / "01_embeddings.ipynb").read_bytes()
    wrong = (tmp_path / "src" / "wrong" / "01_embeddings.ipynb").read_bytes()
    zip_with(subs / "alice.zip", {"01_embeddings.ipynb": right})
    zip_with(subs / "good_learner.zip", {"01_embeddings.ipynb": wrong})
    zip_with(subs / "mallory.zip", {"carol/01_embeddings.ipynb": right, "good_learner/01_embeddings.ipynb": right})
    return subs


def test_no_upload_speaks_for_a_classmate(tmp_path):
    """`grader grade subs/*`: each upload is an argument, and mallory's zip of folders named
    like classmates is one of several, so it is her upload, whatever it holds: no row for
    carol, who sent nothing, and good_learner keeps her plain id, her own notebook and no
    clash; mallory's row says why her zip was not read as a class."""
    subs = _uploads(tmp_path)
    got = by_name(col.collect(sorted(subs.iterdir())))
    assert sorted(got) == ["alice", "good_learner", "mallory"]
    assert got["good_learner"].problems == [] and got["good_learner"].where == str(subs / "good_learner.zip")
    assert notebooks(got["mallory"]) == ["carol/01_embeddings.ipynb", "good_learner/01_embeddings.ipynb"]
    out = tmp_path / "out"
    grade(*sorted(subs.iterdir()), out=out)
    table = rows(out)
    assert sorted(table) == ["alice", "good_learner", "mallory"]
    assert (table["good_learner"]["total"], table["good_learner"]["problem"]) == ("1", "")
    assert "one learner's upload although it holds 2 folders or zips" in table["mallory"]["problem"]
    assert "--class" in table["mallory"]["problem"]


def test_a_download_shaped_upload_among_several_is_one_learner(tmp_path):
    """A learner can name files the way Canvas or Moodle names a download's: among several
    arguments such a zip (or a folder of folders) is that learner's upload, and the row
    says how to grade it as a class if the instructor meant one; alone, it is the class."""
    write_learner(tmp_path / "src" / "right", [GOOD_EMBED, GOOD_ONE_HOT])
    right = (tmp_path / "src" / "right" / "01_embeddings.ipynb").read_bytes()
    lookalike = zip_with(tmp_path / "subs" / "mallory.zip", {"carolsmith_1001_2001_01_embeddings.ipynb": right,
                                                             "davejones_1002_2002_01_embeddings.ipynb": right})
    folders = tmp_path / "subs" / "eve"
    write_learner(folders / "carol", [GOOD_EMBED])
    write_learner(folders / "dave", [GOOD_EMBED])
    carol = learner_folder(tmp_path / "subs" / "carolsmith", "01_embeddings_exercises.ipynb")
    got = by_name(col.collect([carol, folders, lookalike]))
    assert sorted(got) == ["carolsmith", "eve", "mallory"]
    assert got["carolsmith"].problems == []
    assert "a Canvas download of 2 learners" in got["mallory"].problems[0]
    assert "2 folders or zips" in got["eve"].problems[0]
    assert sorted(by_name(col.collect([lookalike]))) == ["carolsmith_1001", "davejones_1002"]
    assert sorted(by_name(col.collect([folders]))) == ["carol", "dave"]


def test_a_class_zip_named_by_the_instructor_keeps_its_learners_names(tmp_path):
    """--class ZIP: the instructor's zip of learner folders, rows as the folders are named;
    a Canvas download beside it is a class when named with --class too."""
    write_learner(tmp_path / "src" / "right", [GOOD_EMBED, GOOD_ONE_HOT])
    right = (tmp_path / "src" / "right" / "01_embeddings.ipynb").read_bytes()
    klass = zip_with(tmp_path / "class.zip", {"ann/01_embeddings.ipynb": right, "bob/01_embeddings.ipynb": right})
    canvas = zip_with(tmp_path / "canvas.zip", {"smithjane_4021_880011_01_embeddings.ipynb": right})
    out = tmp_path / "out"
    grade("--class", klass, "--class", canvas, out=out)
    table = rows(out)
    assert sorted(table) == ["ann", "bob", "smithjane_4021"]
    assert all((r["total"], r["problem"]) == ("2", "") for r in table.values())


def test_class_is_refused_for_what_is_no_class(tmp_path):
    """--class on a learner's zip of notebooks, or on a notebook: exit 2, saying why and what to do."""
    one = zip_with(tmp_path / "kim.zip", {"01_embeddings_exercises.ipynb": NB1})
    (tmp_path / "ann.ipynb").write_bytes(NB1)
    for arg, why in ((one, "it is one learner's upload, not a class"),
                     (tmp_path / "ann.ipynb", "a class is a folder or a zip file of learners")):
        with pytest.raises(col.InputError, match=why):
            col.collect([col.ClassArgument(arg)])
        proc = subprocess.run(GRADE + ["--class", str(arg), "--out", str(tmp_path / "out")],
                              capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert proc.returncode == 2 and why in proc.stderr and "without --class" in proc.stderr, proc.stderr


def test_only_an_argument_can_be_a_class(tmp_path):
    """A learner's folder of folders is still that learner's, at any depth."""
    klass = tmp_path / "class"
    learner_folder(klass / "bob" / "week1", "01_embeddings_exercises.ipynb")
    learner_folder(klass / "bob" / "week2", "02_attention_exercises.ipynb")
    zip_with(klass / "bob" / "week3.zip", {"ann/01_embeddings_exercises.ipynb": NB1})
    learner_folder(klass / "ann", "01_embeddings_exercises.ipynb")
    got = by_name(col.collect([klass]))
    assert sorted(got) == ["ann", "bob"]
    assert notebooks(got["bob"]) == ["week1/01_embeddings_exercises.ipynb", "week2/02_attention_exercises.ipynb",
                                     "week3.zip/ann/01_embeddings_exercises.ipynb"]


def test_a_learner_argument_is_one_learner_even_shaped_like_a_class(tmp_path):
    """Gradescope's submission folder: a repository's folders (exercises/ beside others) or two
    folders of notebooks are one learner's, with no note that they look like a class."""
    upload = tmp_path / "submission"
    learner_folder(upload / "part1", "01_embeddings_exercises.ipynb")
    learner_folder(upload / "part2", "02_attention_exercises.ipynb")
    assert [x.name for x in col.collect([upload]).learners] == ["part1", "part2"]  # alone: a class
    (x,) = col.collect([col.LearnerArgument(upload)]).learners
    assert x.name == "submission" and x.problems == []
    assert sorted(nb.name for nb in x.notebooks) == ["part1/01_embeddings_exercises.ipynb",
                                                     "part2/02_attention_exercises.ipynb"]


def test_every_file_is_graded_or_listed(tmp_path):
    """Each file under the arguments, on disk or in a zip, is a learner's notebook or in
    the skipped list (the property the console summary and report.json rest on)."""
    klass = tmp_path / "class"
    learner_folder(klass / "ann", "01_embeddings_exercises.ipynb")
    (klass / "ann" / ".ipynb_checkpoints").mkdir()
    (klass / "ann" / ".ipynb_checkpoints" / "01_embeddings_exercises-checkpoint.ipynb").write_bytes(NB1)
    (klass / "ann" / "embed.py").write_text("def embed(): pass")
    (klass / "empty").mkdir()
    (klass / "README.md").write_text("hi")
    (klass / ".DS_Store").write_bytes(b"\0")
    zip_with(klass / "bob.zip", {"bob/01_embeddings_exercises.ipynb": NB1, "__MACOSX/bob/._x": "x",
                                 "bob/data.csv": "1,2", "/etc/evil.ipynb": NB1, "../up.ipynb": NB1})
    (klass / "broken.zip").write_bytes(b"PK\x03\x04 not a zip")
    every = set()
    for root, _, names in os.walk(klass):
        for name in names:
            path = os.path.join(root, name)
            if zipfile.is_zipfile(path):
                every |= {f"{path}/{n}" for n in zipfile.ZipFile(path).namelist()}
            else:
                every.add(path)
    collected = col.collect([klass])
    graded = {f"{x.where}/{nb.name}" for x in collected.learners for nb in x.notebooks}
    listed = set(skipped(collected))
    folders = {p for p in listed if os.path.isdir(p)}  # a system folder is listed once, whole
    assert folders == {str(klass / "ann" / ".ipynb_checkpoints")}
    assert {p for p in every if not any(p.startswith(f + "/") for f in folders)} == graded | (listed - folders)
    assert not graded & listed
    got = by_name(collected)
    assert "no .ipynb notebook" in got["empty"].problems[0]
    assert "could not be opened" in got["broken"].problems[0]
    assert any("embed.py" in n for n in got["ann"].notes)


# ------------------------------------------------------------------ zips, bounded and refused
def test_a_zip_is_limited_by_what_it_unpacks_to(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_ZIP_BYTES", 2**20)
    bomb = zip_with(tmp_path / "bomb.zip", {"01_embeddings.ipynb": b"\0" * (2 * 2**20)})
    assert bomb.stat().st_size < 2**20 / 4  # compressed, it is well within the limit
    (x,) = col.collect([bomb]).learners
    assert x.notebooks == [] and "unpacks to more than 1 MiB" in x.problems[0]


def test_zips_inside_a_zip_share_its_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_ZIP_BYTES", 2**20)
    inner = zip_bytes({"01_embeddings.ipynb": b"\0" * (2**20 // 2 + 1)})
    outer = zip_with(tmp_path / "class.zip", {"ann.zip": inner, "bob.zip": inner})
    got = by_name(col.collect([col.ClassArgument(outer)]))
    assert got["ann"].notebooks and "unpacks to more than 1 MiB" in got["bob"].problems[0]


def test_a_zip_is_limited_in_members(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_ZIP_MEMBERS", 3)
    many = zip_with(tmp_path / "many.zip", {f"{i}.ipynb": NB1 for i in range(4)})
    (x,) = col.collect([many]).learners
    assert "more than 3 files" in x.problems[0]


@pytest.mark.parametrize("member, why", [("/tmp/abs/01_embeddings_exercises.ipynb", "an absolute path"),
                                         ("C:/abs/01_embeddings_exercises.ipynb", "an absolute path"),
                                         ("../01_embeddings_exercises.ipynb", "'..'"),
                                         ("ann/../../01_embeddings_exercises.ipynb", "'..'")])
def test_unsafe_zip_members_yield_nothing(tmp_path, member, why):
    collected = col.collect([zip_with(tmp_path / "ann.zip", {member: NB1})])
    (x,) = collected.learners
    assert x.notebooks == [] and why in x.problems[0]
    assert why in skipped(collected)[f"{tmp_path / 'ann.zip'}/{member}"][0]


def test_a_symlink_member_is_not_followed(tmp_path):
    info = zipfile.ZipInfo("ann/01_embeddings_exercises.ipynb")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    path = tmp_path / "ann.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(info, str(ROOT / "solutions" / "01_embeddings_exercises.ipynb"))
    (x,) = col.collect([path]).learners
    assert x.notebooks == [] and "symbolic link" in x.problems[0]


def test_links_on_disk_are_not_followed(tmp_path):
    klass = tmp_path / "class"
    learner_folder(klass / "ann", "01_embeddings_exercises.ipynb")
    (klass / "mal").mkdir()
    (klass / "mal" / "01_embeddings_exercises.ipynb").symlink_to(klass / "ann" / "01_embeddings_exercises.ipynb")
    (klass / "mal" / "others").symlink_to(klass / "ann", target_is_directory=True)
    got = by_name(col.collect([klass]))
    assert got["mal"].notebooks == [] and all("not followed" in p for p in got["mal"].problems[:2])


def test_a_large_notebook_in_a_zip_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_NOTEBOOK_BYTES", 1000)
    (x,) = col.collect([zip_with(tmp_path / "ann.zip", {"01_embeddings_exercises.ipynb": NB1})]).learners
    (nb,) = x.notebooks
    assert nb.data is None and "larger than" in nb.problem


def test_something_that_is_no_input_is_listed_not_fatal(tmp_path):
    (tmp_path / "class.tar.gz").write_bytes(b"\x1f\x8b")
    learner_folder(tmp_path / "ann", "01_embeddings_exercises.ipynb")
    collected = col.collect([tmp_path / "class.tar.gz", tmp_path / "ann"])
    assert [x.name for x in collected.learners] == ["ann"]
    assert "only .ipynb and .zip" in skipped(collected)[str(tmp_path / "class.tar.gz")][0]


# ------------------------------------------------------------------ ids and fingerprints
def test_ids_are_cut_to_their_maximum_length():
    assert len(col.safe_name("a" * 300)) == col.MAX_ID
    assert len(col.safe_name("é" * 300 + "b" * 300)) <= col.MAX_ID


def test_a_clash_leaves_the_folder_its_name_and_names_it_in_the_other_problem(tmp_path):
    """kim.zip beside the folder kim/: a file's name may be the learner's own choice, a folder's
    is the instructor's, so the folder keeps "kim" with no problem; the zip is suffixed."""
    learner_folder(tmp_path / "a" / "kim", "01_embeddings_exercises.ipynb")
    zip_with(tmp_path / "b" / "kim.zip", {"01_embeddings_exercises.ipynb": NB1})
    one, two = col.collect([tmp_path / "a" / "kim", tmp_path / "b" / "kim.zip"]).learners
    assert (one.name, one.problems) == ("kim", [])
    assert two.name.startswith("kim--") and str(tmp_path / "a" / "kim") in two.problems[0]
    assert "keeps it" in two.problems[0]


def test_a_look_alike_spelling_never_takes_the_plain_id(tmp_path):
    """'Kim.zip' and 'kim .zip' beside the file kim.ipynb: only kim.ipynb spells "kim" exactly."""
    zip_with(tmp_path / "Kim .zip", {"01_embeddings_exercises.ipynb": NB1})
    (tmp_path / "kim.ipynb").write_bytes(NB1)
    got = {x.where: x for x in col.collect([tmp_path / "Kim .zip", tmp_path / "kim.ipynb"]).learners}
    assert got[str(tmp_path / "kim.ipynb")].name == "kim" and got[str(tmp_path / "kim.ipynb")].problems == []
    assert got[str(tmp_path / "Kim .zip")].name.startswith("Kim--")


def test_the_fingerprint_follows_the_content(tmp_path):
    ann = learner_folder(tmp_path / "ann", "01_embeddings_exercises.ipynb")
    before = col.collect([ann]).learners[0].fingerprint()
    assert col.collect([ann]).learners[0].fingerprint() == before
    (ann / "01_embeddings_exercises.ipynb").write_bytes(NB1.replace(b"wte[idx]", b"wte[idx ]", 1))
    assert col.collect([ann]).learners[0].fingerprint() != before


def test_a_moodle_download_of_one_learner_or_inside_a_top_folder(tmp_path):
    one = {"Jane Smith_4021_assignsubmission_file_/01_embeddings_exercises.ipynb": NB1}
    assert [x.name for x in col.collect([zip_with(tmp_path / "a.zip", one)]).learners] == ["Jane_Smith_4021"]
    wrapped = {f"Assignment 1-4711/{n}": data for n, data in MOODLE_FOLDERS.items()}
    got = by_name(col.collect([zip_with(tmp_path / "b.zip", wrapped)]))
    assert sorted(got) == ["Jane_Smith_4021", "John_Doe_4077"]


def test_ids_differing_only_in_case_both_get_a_suffix(tmp_path):
    """feedback/Ann and feedback/ann are one folder on a case-insensitive disk: neither keeps the plain id."""
    learner_folder(tmp_path / "a" / "Ann", "01_embeddings_exercises.ipynb")
    learner_folder(tmp_path / "b" / "ann", "01_embeddings_exercises.ipynb")
    one, two = col.collect([tmp_path / "a" / "Ann", tmp_path / "b" / "ann"]).learners
    assert one.name.startswith("Ann--") and two.name.startswith("ann--"), (one.name, two.name)
    assert one.name.casefold() != two.name.casefold()
    assert "2 inputs give the id" in one.problems[0] and "2 inputs give the id" in two.problems[0]


def test_invisible_characters_are_dropped_from_an_id():
    """A zero-width space or a bidi mark cannot make a second 'ann' that looks like the first."""
    assert col.safe_name("an\u200bn") == "ann"
    assert col.safe_name("\u202eann\u2066") == "ann"


def test_a_plain_id_never_holds_the_suffix_marker():
    """Only a clash adds '--': a learner naming their folder 'kim--<hash>' cannot take the
    id another learner named kim gets."""
    assert "--" not in col.safe_name("kim--0123456789")
    assert col.safe_name("a---b") == "a-b"


def test_two_canvas_learners_of_one_name_stay_apart(tmp_path):
    """Learners are grouped by the platform's user id: two Jane Smiths are two rows, each with her own files."""
    members = {"smithjane_4021_880011_01_embeddings_exercises.ipynb": NB1,
               "smithjane_5133_880012_01_embeddings_exercises.ipynb": WRONG}
    got = by_name(col.collect([zip_with(tmp_path / "submissions.zip", members)]))
    assert sorted(got) == ["smithjane_4021", "smithjane_5133"]
    assert notebooks(got["smithjane_5133"]) == ["smithjane_5133_880012_01_embeddings_exercises.ipynb"]


def test_the_same_input_given_twice_is_one_learner(tmp_path):
    """A shell glob and a typed path naming one folder: one row under its plain id, not two with suffixes."""
    ann = learner_folder(tmp_path / "ann", "01_embeddings_exercises.ipynb")
    got = col.collect([ann, tmp_path / "." / "ann"]).learners
    assert [x.name for x in got] == ["ann"] and got[0].problems == []


def test_a_zip_inside_three_zips_is_not_opened(tmp_path):
    """MAX_ZIP_DEPTH = 3: class.zip/kim.zip/b.zip is read (kim's upload holds a zip), the zip
    inside b.zip is refused unread."""
    inner = zip_bytes({"02_attention_exercises.ipynb": NB2})
    b = zip_bytes({"01_embeddings_exercises.ipynb": NB1, "c.zip": inner})
    (x,) = col.collect([zip_with(tmp_path / "class.zip", {"kim.zip": zip_bytes({"b.zip": b})})]).learners
    assert x.name == "class.kim" and notebooks(x) == ["b.zip/01_embeddings_exercises.ipynb"]
    assert x.problems == ["b.zip/c.zip: a zip inside 3 zips is not opened"]


def test_hidden_files_are_not_graded_even_when_named_like_notebooks(tmp_path):
    """macOS zips carry '._name.ipynb' (its resource fork) beside each notebook: listed as hidden, never graded."""
    (x,) = col.collect([zip_with(tmp_path / "kim.zip", {"01_embeddings_exercises.ipynb": NB1,
                                                        "._01_embeddings_exercises.ipynb": b"\x00\x05\x16\x07"})]).learners
    assert notebooks(x) == ["01_embeddings_exercises.ipynb"] and x.problems == []
    assert (str(tmp_path / "kim.zip" / "._01_embeddings_exercises.ipynb"), "hidden (its name starts with '.')") in \
        [(s.path, s.reason) for s in x.skipped]


# ------------------------------------------------------------------ one learner's bytes at a time
def test_collect_keeps_where_notebooks_are_not_their_bytes(tmp_path):
    """A class's notebooks are hashed while collected and read again only when graded, from
    a folder, a zip or a zip in a zip, so no more than one learner's are ever held."""
    klass = tmp_path / "class"
    learner_folder(klass / "ann", "01_embeddings_exercises.ipynb")
    zip_with(klass / "bob.zip", {"02_attention_exercises.ipynb": NB2,
                                 "inner.zip": zip_bytes({"deep/01_embeddings_exercises.ipynb": NB1})})
    got = by_name(col.collect([klass]))
    for x in got.values():
        for nb in x.notebooks:
            assert nb.data is None and nb.where is not None, nb  # nothing of it held
            data, why = nb.load()
            assert why is None and col.hashlib.sha256(data).hexdigest() == nb.digest
    assert {nb.name: nb.lesson for nb in got["bob"].notebooks} == {
        "02_attention_exercises.ipynb": "02_attention", "inner.zip/deep/01_embeddings_exercises.ipynb": "01_embeddings"}
    assert [nb.load()[0] for nb in got["bob"].notebooks] == [NB2, NB1]


def test_a_notebook_changed_after_collect_is_not_graded_as_another(tmp_path):
    """The saved fingerprint is of the bytes collect hashed: a file changed before its learner
    is graded is refused with the reason, never graded under the old fingerprint."""
    ann = learner_folder(tmp_path / "ann", "01_embeddings_exercises.ipynb")
    (x,) = col.collect([ann]).learners
    (ann / "01_embeddings_exercises.ipynb").write_bytes(NB1.replace(b"wte[idx]", b"wte[idx ]", 1))
    assert x.notebooks[0].load() == (None, col.CHANGED)


def test_a_learners_notebooks_share_one_budget_across_zips(tmp_path, monkeypatch):
    """Each zip is within its own budget; together they are over the learner's: the notebooks
    past it are listed as not read, with the reason, and the rest are graded."""
    monkeypatch.setattr(col, "MAX_LEARNER_BYTES", len(NB1) * 2 + 10)
    up = learner_folder(tmp_path / "ann", "00.ipynb")  # a notebook at its top: one learner's upload
    for z in (1, 2):
        zip_with(up / f"part{z}.zip", {f"0{z}.ipynb": NB1})
    (x,) = col.collect([up]).learners
    assert [nb.problem for nb in x.notebooks] == [None, None, col.over_budget()]
    assert "together are larger than" in col.over_budget() and x.notebooks[2].where is None


def test_a_large_zip_inside_a_zip_is_not_opened(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_INNER_ZIP_BYTES", 1000)
    outer = zip_with(tmp_path / "ann.zip", {"inner.zip": zip_bytes({"01.ipynb": NB1 + b" " * 2000})})
    (x,) = col.collect([outer]).learners
    assert x.notebooks == [] and "a zip inside a zip larger than" in x.problems[0]


def test_an_upload_of_thousands_of_notebooks_is_read_only_up_to_the_count_limit(tmp_path):
    """Grading time per upload is bounded by count as well as bytes: 2,600 one-byte notebooks
    in a zip (each a stranger's file to hash, match and report) are not 2,600 reads."""
    members = {f"n{i:04d}.ipynb": b"{" for i in range(2_600)}
    (x,) = col.collect([zip_with(tmp_path / "mallory.zip", members)]).learners
    assert len(x.notebooks) == col.MAX_LEARNER_NOTEBOOKS < 100
    assert [nb.name for nb in x.notebooks][:2] == ["n0000.ipynb", "n0001.ipynb"]
    assert len(x.skipped) == 2_600 - col.MAX_LEARNER_NOTEBOOKS
    assert all("more than" in s.reason and "notebooks" in s.reason for s in x.skipped)
    assert any(p.startswith(f"{2_600 - col.MAX_LEARNER_NOTEBOOKS} notebooks not read") for p in x.problems)

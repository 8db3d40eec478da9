"""Recognising an LMS's "download all submissions" (grader/batch/inputs/lms.py), with the file
names Canvas and Moodle really write."""
import io
import zipfile

from grader.batch.inputs import collect as col

NB = b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'


def zipped(path, members):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    path.write_bytes(buf.getvalue())
    return path


def test_canvas_s_lower_case_late_mark_keeps_the_download_a_class(tmp_path):
    """Canvas writes `late_` as well as `LATE_` into late submissions' names: one such name
    must not turn the whole download into one learner."""
    download = zipped(tmp_path / "submissions.zip", {
        "smithjane_4021_880011_01_embeddings_exercises.ipynb": NB,
        "doejohn_late_4077_880020_01_embeddings_exercises.ipynb": NB,
    })
    learners = {x.name: x for x in col.collect([download]).learners}
    assert sorted(learners) == ["doejohn_4077", "smithjane_4021"]
    assert "Canvas marks this submission late" in learners["doejohn_4077"].notes
    assert "Canvas marks this submission late" not in learners["smithjane_4021"].notes


def test_a_moodle_download_gives_one_learner_per_participant(tmp_path):
    download = zipped(tmp_path / "moodle.zip", {
        "Jane Smith_12345_assignsubmission_file_/01_embeddings_exercises.ipynb": NB,
        "John Doe_12346_assignsubmission_file_/01_embeddings_exercises.ipynb": NB,
    })
    names = sorted(x.name for x in col.collect([download]).learners)
    assert len(names) == 2 and "12345" in names[0] + names[1] and "12346" in names[0] + names[1]


def test_folders_named_like_canvas_files_are_a_class_of_folders(tmp_path):
    """Canvas's download holds flat files only: folders whose names happen to fit its file
    pattern are learners' folders, each graded under its own name, not regrouped by user id."""
    download = zipped(tmp_path / "class.zip", {
        "smithjane_4021_880011_homework/01_embeddings_exercises.ipynb": NB,
        "doejohn_4077_880020_homework/01_embeddings_exercises.ipynb": NB,
    })
    names = sorted(x.name for x in col.collect([download]).learners)
    assert names == ["class.doejohn_4077_880020_homework", "class.smithjane_4021_880011_homework"]


def test_a_folder_whose_name_goes_on_past_moodle_s_prefix_is_not_moodle_s(tmp_path):
    """Moodle names a learner's folder with its prefix alone (`..._assignsubmission_file_`);
    only a flat file continues with a name of its own. A folder that continues is someone's
    own folder: the class is read as folders named as they are."""
    download = zipped(tmp_path / "moodle.zip", {
        "Jane Smith_4021_assignsubmission_file_v2/01_embeddings_exercises.ipynb": NB,
        "John Doe_4077_assignsubmission_file_/01_embeddings_exercises.ipynb": NB,
    })
    names = sorted(x.name for x in col.collect([download]).learners)
    assert names == ["moodle.Jane_Smith_4021_assignsubmission_file_v2",
                     "moodle.John_Doe_4077_assignsubmission_file"]

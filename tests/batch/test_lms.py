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

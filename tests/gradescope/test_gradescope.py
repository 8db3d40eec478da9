"""The Gradescope autograder (grader/gradescope/), built and run as Gradescope would run it.

The zip is built once; each test unpacks it into a folder laid out as Gradescope's
/autograder (source/, submission/, results/, submission_metadata.json), under a root any
user may pass through, so what keeps learner code away from the secret is the autograder's
own doing, and runs source/run_autograder there (GPT2_AUTOGRADER_ROOT). results.json is
checked against Gradescope's published format:
https://gradescope-autograders.readthedocs.io/en/latest/specs/ ("Output format": top-level
score, output, visibility and tests; per test name, score, max_score, status, output,
visibility; visibility one of hidden, after_due_date, after_published, visible).
"""
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import nbformat
import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "batch"))
from test_hostile import GOOD_EMBED, GOOD_ONE_HOT, write_learner  # noqa: E402
from test_walls import UNHOOK  # noqa: E402  (the audit hook switched off, as an attacker would)

from grader.batch.sandbox.isolation import namespaces_problem, privileged  # noqa: E402

SPECS = "https://gradescope-autograders.readthedocs.io/en/latest/specs/"
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}
SOLVED = ROOT / "solutions" / "01_embeddings_exercises.ipynb"
NAMESPACES = pytest.mark.skipif(namespaces_problem() is not None,
                                reason=f"namespaces unavailable here: {namespaces_problem()}")


def check_schema(results: dict) -> None:
    """results.json as Gradescope's autograder specification (SPECS) describes it."""
    assert isinstance(results["score"], (int, float)) and isinstance(results["output"], str)
    assert results.get("visibility", "visible") in VISIBILITIES
    assert results.get("stdout_visibility", "visible") in VISIBILITIES
    assert results.get("output_format", "text") in {"text", "html", "simple_format", "md", "ansi"}
    for test in results["tests"]:
        assert set(test) <= {"score", "max_score", "status", "name", "name_format", "number", "output",
                             "output_format", "tags", "visibility", "extra_data"}, test
        assert isinstance(test["name"], str) and isinstance(test["output"], str) and test["output"]
        assert 0 <= test["score"] <= test["max_score"] and test["status"] in {"passed", "failed"}
        assert test["visibility"] in VISIBILITIES and test.get("output_format", "text") == "text"
    assert results["score"] == pytest.approx(sum(t["score"] for t in results["tests"]))
    json.dumps(results, allow_nan=False)  # no NaN or Infinity, which JSON has no words for


@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    """Built under a fixed secret, so every run of these tests meets the same hidden cases."""
    out = tmp_path_factory.mktemp("gradescope")
    (out / "autograder.secret").write_text("5e" * 32 + "\n")
    os.chmod(out / "autograder.secret", 0o600)
    proc = subprocess.run([sys.executable, "-m", "grader", "gradescope", "--out", str(out), "--lessons",
                           "01_embeddings"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return out / "autograder.zip"


@pytest.fixture(scope="module")
def learner_python(tmp_path_factory):
    """A Python whose installation every user can read, as setup.sh installs it (for --isolation
    uid, whose learner uid imports from it): this one where it is, else a venv of the system's
    CPython of the same version seeing this one's packages, in a folder any user may enter."""
    system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    if not sys.base_prefix.startswith("/root") or not system.exists():
        return sys.executable
    where = Path(tempfile.mkdtemp(prefix="gpt2-gs-python-"))
    os.chmod(where, 0o755)
    subprocess.run([str(system), "-m", "venv", "--without-pip", str(where / "venv")], check=True, timeout=120)
    site = where / "venv" / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    shutil.rmtree(site)
    site.symlink_to(next(p for p in sys.path if p.endswith("site-packages")))
    yield str(where / "venv" / "bin" / "python")
    shutil.rmtree(where, ignore_errors=True)


@pytest.fixture
def gradescope(autograder):
    """A fresh /autograder under a root any user may pass through; removed afterwards."""
    root = Path(tempfile.mkdtemp(prefix="gpt2-gs-autograder-"))
    os.chmod(root, 0o755)
    with zipfile.ZipFile(autograder) as zf:
        for info in zf.infolist():
            target = root / "source" / info.filename
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(info))
            os.chmod(target, (info.external_attr >> 16) & 0o777)
    (root / "submission").mkdir()
    (root / "submission_metadata.json").write_text(json.dumps({"users": [{"name": "A. Learner"}]}))
    yield root
    shutil.rmtree(root, ignore_errors=True)


def run_autograder(root: Path, python: str = sys.executable, *args: str, limit: int | None = None) -> dict:
    env = dict(os.environ, GPT2_AUTOGRADER_ROOT=str(root), GPT2_AUTOGRADER_PYTHON=python,
               **({"GPT2_AUTOGRADER_LIMIT": str(limit)} if limit else {}))
    proc = subprocess.run(["bash", str(root / "source" / "run_autograder"), *args], capture_output=True, text=True,
                          timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    check_schema(results)
    results["stdout"] = proc.stdout
    return results


def uid_results(root: Path, python: str) -> dict:
    """run_autograder under --isolation uid, or a skip where this machine cannot give it its walls."""
    results = run_autograder(root, python, "--isolation", "uid")
    refused = " ".join(results.get("extra_data", {}).get("refused") or [])
    if "needs root" in refused or "cannot read the Python installation" in refused:
        pytest.skip(f"--isolation uid cannot be built here: {refused}")
    return results


def mistaken_notebook(path: Path) -> None:
    """The solved lesson 01 with the classic mistake: position rows looked up by token id."""
    nb = nbformat.read(SOLVED, 4)
    for cell in nb.cells:
        if "def embed" in cell.source:
            assert "wpe[:seq_len]" in cell.source
            cell.source = cell.source.replace("wpe[:seq_len]", "wpe[idx]")
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


# ----------------------------------------------------------------- the zip
def test_the_zip_is_laid_out_as_gradescope_takes_it(autograder, tmp_path):
    with zipfile.ZipFile(autograder) as zf:
        names = set(zf.namelist())
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in zf.infolist()}
        settings = json.loads(zf.read("settings.json"))
        lock = zf.read("requirements/grading.lock").decode()
        secret = zf.read("secret").decode().strip()
        for script in ("setup.sh", "run_autograder"):  # at the zip's root, executable, valid bash
            assert modes[script] & 0o111
            (tmp_path / script).write_bytes(zf.read(script))
            assert subprocess.run(["bash", "-n", str(tmp_path / script)]).returncode == 0
            assert "@" not in re.sub(r"\S+@\S+|\"\$@\"", "", zf.read(script).decode())  # every value filled
    assert {"course/grader/__main__.py", "course/gpt2course/numpy_gpt.py", "course/grader/lessons/l01_embeddings.py"} <= names
    assert not any("__pycache__" in n or n.endswith(".pyc") or n.startswith("course/solutions") for n in names)
    assert settings["lessons"] == ["01_embeddings"] and settings["visibility"] in VISIBILITIES
    assert re.fullmatch(r"[0-9a-f]{64}", secret) and modes["secret"] == 0o600
    assert "torch==" not in lock and "numpy==" in lock  # lesson 01's grading never loads torch
    assert "requirements/torch.lock" not in names


def test_a_rebuild_under_the_same_secret_is_the_same_zip(autograder, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "grader", "gradescope", "--out", str(tmp_path), "--lessons",
                           "01_embeddings", "--secret", str(autograder.parent / "autograder.secret")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "autograder.zip").read_bytes() == autograder.read_bytes()


def test_the_lessons_are_required(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "grader", "gradescope", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 2 and "--lessons" in proc.stderr and not (tmp_path / "autograder.zip").exists()


# ----------------------------------------------------------------- grading in Gradescope's layout
@NAMESPACES
def test_a_solved_notebook_scores_every_point(gradescope):
    shutil.copy(SOLVED, gradescope / "submission" / SOLVED.name)
    results = run_autograder(gradescope)
    assert results["extra_data"]["isolation"] == "namespaces" and "walls: namespaces" in results["stdout"]
    assert [(t["name"], t["score"], t["max_score"], t["status"]) for t in results["tests"]] == [
        ("01_embeddings: embed", 1.0, 1.0, "passed"), ("01_embeddings: one_hot_embed", 1.0, 1.0, "passed")]
    assert results["score"] == 2 and "2 / 2 points" in results["output"] and "Problems" not in results["output"]
    assert re.match(r"embed: 1 / 1 \(passed\)\n\nembed: PASSED, passed all \d+ tests\.$", results["tests"][0]["output"])
    assert sorted(os.listdir(gradescope / "results")) == ["results.json"]


@NAMESPACES
def test_a_classic_mistake_in_a_repository_upload_is_named(gradescope):
    """A submission from a repository (folders at its top, other files beside): one learner,
    the mistake named in the test's output in feedback.md's words, nothing hidden shown."""
    mistaken_notebook(gradescope / "submission" / "gpt2-course" / "exercises" / SOLVED.name)
    (gradescope / "submission" / "gpt2-course" / "README.md").write_text("my work\n")
    shutil.copy(ROOT / "solutions" / "02_attention_exercises.ipynb", gradescope / "submission" / "extra.ipynb")
    results = run_autograder(gradescope)
    embed, one_hot = results["tests"]
    assert one_hot["score"] == 1 and embed["status"] == "failed" and embed["score"] < 1
    assert "Likely mistake: position rows looked up by token id." in embed["output"]
    assert embed["output"].startswith(f"embed: {round(embed['score'], 2):g} / 1 (failed)\n\nembed: FAILED, failed ")
    assert "lesson 02_attention is not part of this assignment" in results["output"]  # the note, as feedback's
    assert "README.md" in results["output"]  # not graded, and said so
    # the instructor's own batch grade of the same upload, under the autograder's secret: the same
    # points, and the feedback.md section of the exercise in the same words
    out = gradescope / "batch"
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(gradescope / "submission"), "--out", str(out),
                           "--lessons", "01_embeddings", "--secret", str(gradescope / "source" / "secret")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    (feedback,) = (out / "feedback").glob("*/feedback.md")
    section = feedback.read_text().split("## `embed`", 1)[1].split("\n## ", 1)[0]
    words = lambda text: " ".join(text.replace("```text", "").replace("`", "").split())  # noqa: E731 (the fence)
    assert words(section) == words(embed["output"].removeprefix("embed"))


@NAMESPACES
def test_an_empty_submission_scores_zero_and_says_why(gradescope):
    (gradescope / "submission" / "answers.txt").write_text("see attached\n")
    results = run_autograder(gradescope)
    assert results["score"] == 0 and [t["max_score"] for t in results["tests"]] == [1.0, 1.0]
    assert results["output"].startswith("Nothing could be graded.")
    assert "no .ipynb notebook in this upload" in results["output"]
    assert all("could be graded" in t["output"] for t in results["tests"])


@NAMESPACES
def test_an_exercise_past_its_time_is_named_on_top(gradescope):
    settings = gradescope / "source" / "settings.json"
    settings.write_text(json.dumps(json.loads(settings.read_text()) | {"timeout": 2}))
    write_learner(gradescope / "submission" / "mine", ["def embed(wte, wpe, idx):\n    while True:\n        pass",
                                                       GOOD_ONE_HOT])
    results = run_autograder(gradescope)
    embed, one_hot = results["tests"]
    assert (embed["score"], one_hot["score"]) == (0, 1) and "timed out after 2 s" in embed["output"]
    assert "Problems: timed out: embed" in results["output"]
    assert "Nothing could be graded" not in results["output"]   # one_hot_embed was


def test_uid_walls_grade_a_solved_notebook(gradescope, learner_python):
    shutil.copy(SOLVED, gradescope / "submission" / SOLVED.name)
    results = uid_results(gradescope, learner_python)
    assert results["extra_data"]["isolation"] == "uid", results["output"]
    assert results["score"] == 2 and {t["status"] for t in results["tests"]} == {"passed"}
    assert stat.S_IMODE(os.stat(gradescope / "source").st_mode) == 0o700
    assert stat.S_IMODE(os.stat(gradescope / "submission_metadata.json").st_mode) == 0o600


# An embed that switches the hook off, then tries each door; a door that opens raises its own
# exception type (the output names it); only when every door stays shut does it answer rightly.
ATTACK = UNHOOK + '''
import os
import numpy as np
def embed(wte, wpe, idx):
    unhook()
    if CONTROL and attempt(lambda: open("/etc/passwd").read()) != "ok":
        raise RuntimeError("the hook is still on: this attack would prove nothing")
    doors = {
        KeyError: attempt(lambda: open(SECRET).read()),
        IndexError: attempt(lambda: open(REFERENCE).read()),
        AttributeError: attempt(lambda: open(METADATA).read()),
        ZeroDivisionError: attempt(lambda: os.close(os.open(RESULTS, os.O_WRONLY | os.O_CREAT, 0o644))),
        OverflowError: attempt(lambda: os.listdir(SOURCE)),
        LookupError: attempt(lambda: os.close(os.open(os.path.join(os.path.dirname(np.__path__[0]), "zz_evil.pth"),
                                                      os.O_WRONLY | os.O_CREAT, 0o644))),  # root imports from there
    }
    for kind, outcome in doors.items():
        if outcome == "ok":
            raise kind("open")
''' + "\n".join("    " + line for line in GOOD_EMBED.splitlines()[1:]) + "\n"


def attack(root: Path, control: bool) -> str:
    names = {"CONTROL": control, "SECRET": str(root / "source" / "secret"),
             "REFERENCE": str(root / "source" / "course" / "grader" / "lessons" / "l01_embeddings.py"),
             "METADATA": str(root / "submission_metadata.json"), "RESULTS": str(root / "results" / "results.json"),
             "SOURCE": str(root / "source")}
    return "".join(f"{name} = {value!r}\n" for name, value in names.items()) + ATTACK


@pytest.mark.parametrize("mode", [pytest.param("namespaces", marks=NAMESPACES), "uid"])
def test_learner_code_reads_no_secret_and_writes_no_result(gradescope, learner_python, mode):
    """Under either walls the attacker gets every point (so every door stayed shut), and the
    secret and the results folder are as the autograder left them."""
    write_learner(gradescope / "submission" / "mine", [attack(gradescope, control=mode == "uid"), GOOD_ONE_HOT])
    secret = (gradescope / "source" / "secret").read_bytes()
    results = uid_results(gradescope, learner_python) if mode == "uid" else run_autograder(gradescope)
    assert results["extra_data"]["isolation"] == mode
    embed = results["tests"][0]
    assert embed["score"] == 1, embed["output"]  # KeyError: secret; IndexError: reference; ... (ATTACK)
    assert (gradescope / "source" / "secret").read_bytes() == secret
    assert sorted(os.listdir(gradescope / "results")) == ["results.json"]


def test_no_walls_no_grading(gradescope, learner_python):
    """Where even --isolation uid cannot stand (here: Gradescope's metadata left readable through
    a link the autograder will not touch), nothing is graded and results.json says why."""
    os.unlink(gradescope / "submission_metadata.json")
    os.symlink("/etc/passwd", gradescope / "submission_metadata.json")
    shutil.copy(SOLVED, gradescope / "submission" / SOLVED.name)
    results = run_autograder(gradescope, learner_python, "--isolation", "uid")
    assert results["score"] == 0 and results["tests"] == [] and results["extra_data"]["isolation"] is None
    assert results["output"].startswith("This submission was not graded")
    assert "For the instructor: a user id of its own (--isolation uid): " in results["output"]
    assert ("needs root" in results["output"]) != privileged()
    assert privileged() is False or "submission_metadata.json" in results["output"] \
        or "cannot read the Python installation" in results["output"]


def test_run_autograder_past_its_limit_stops_grading_and_says_so(gradescope, learner_python):
    write_learner(gradescope / "submission" / "mine", ["def embed(wte, wpe, idx):\n    while True:\n        pass",
                                                       GOOD_ONE_HOT])
    results = run_autograder(gradescope, learner_python, limit=4)
    assert results["score"] == 0 and results["tests"] == [] and "did not finish within 4 s" in results["output"]
    assert "stopped: run_autograder's time limit was reached" in results["stdout"]  # its grading processes killed


def test_a_run_past_its_time_still_leaves_results(tmp_path):
    from grader.gradescope.run import main

    (tmp_path / "results").mkdir()
    assert main(["--root", str(tmp_path), "--timed-out", "540"]) == 0
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    check_schema(results)
    assert results["score"] == 0 and "did not finish within 540 s" in results["output"]


def test_setup_says_which_walls_the_image_gives(gradescope, learner_python):
    proc = subprocess.run([learner_python, "-m", "grader.gradescope.run", "--check", "--root", str(gradescope)],
                          capture_output=True, text=True, timeout=120, cwd=gradescope / "source" / "course")
    assert proc.returncode == 0, proc.stderr
    said = dict(part.split(": ", 1) for part in proc.stdout.strip().removeprefix("walls: ").split("; "))
    assert said["namespaces"] == (namespaces_problem() or "yes")
    uid = said["--isolation uid"]  # yes, unless not root or (another machine) a Python others cannot read
    assert uid == "yes" or not privileged() and "needs root" in uid or "cannot read the Python installation" in uid
    assert stat.S_IMODE(os.stat(gradescope / "source").st_mode) == 0o700  # locked down as a run would


def test_the_limit_follows_the_submission_timeout_and_flags_override_the_file(tmp_path):
    (tmp_path / "a.toml").write_text('lessons = ["01_embeddings"]\n[points]\nembed = 2\n')
    (tmp_path / "points.json").write_text('{"embed": 5}')
    proc = subprocess.run([sys.executable, "-m", "grader", "gradescope", "--out", str(tmp_path / "out"),
                           "--assignment", str(tmp_path / "a.toml"), "--points", str(tmp_path / "points.json"),
                           "--timeout", "7", "--submission-timeout", "300"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert f"stops after {300 + 120} s" in proc.stdout   # the whole submission's time, not one exercise's
    with zipfile.ZipFile(tmp_path / "out" / "autograder.zip") as zf:
        settings = json.loads(zf.read("settings.json"))
        assert "420" in zf.read("run_autograder").decode()
    assert settings["points"]["embed"] == 5   # the flag over the file, as in `grade`


def test_auto_isolation_falls_back_to_a_user_id_where_namespaces_are_refused(tmp_path, monkeypatch):
    from grader.gradescope import run
    at = run.Layout(tmp_path)
    monkeypatch.setattr(run, "namespaces_problem", lambda: "unshare refused (a test)")
    monkeypatch.setattr(run, "uid_walls_problem", lambda layout: None)
    assert run.choose_walls(at, "auto") == ("uid", ["namespaces: unshare refused (a test)"])
    assert run.choose_walls(at, "namespaces") == (None, ["namespaces: unshare refused (a test)"])
    monkeypatch.setattr(run, "uid_walls_problem", lambda layout: "needs root (a test)")
    assert run.choose_walls(at, "auto") == (None, ["namespaces: unshare refused (a test)",
                                                   "a user id of its own (--isolation uid): needs root (a test)"])


@NAMESPACES
def test_a_notebook_that_cannot_be_read_beside_a_graded_one_is_a_problem_not_a_blank(gradescope):
    shutil.copy(SOLVED, gradescope / "submission" / SOLVED.name)
    (gradescope / "submission" / "draft.ipynb").write_text("{not json")
    results = run_autograder(gradescope)
    assert results["score"] == 2
    assert "draft.ipynb: could not be read" in results["output"]
    assert "Nothing could be graded" not in results["output"]

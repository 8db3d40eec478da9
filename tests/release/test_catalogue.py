"""Each exercise's difficulty, importance and minutes, shown where the registry says: under its
heading in the notebooks, in `python -m grader exercises`, and in the README's lesson table."""
import re
import subprocess
import sys

import nbformat
import pytest

from grader import notebook as nbk
from grader.judging import registry
from grader.release import catalogue, stubs

from conftest import ROOT

LESSONS = registry.lessons()
README = ROOT / "README.md"


def _notebook(folder: str, lesson: str):
    return nbk.read(ROOT / folder / f"{lesson}_exercises.ipynb")


@pytest.mark.parametrize("folder", ["solutions", "exercises"])
@pytest.mark.parametrize("lesson", LESSONS)
def test_every_heading_carries_the_registry_s_line(folder, lesson):
    """The headings name the lesson's exercises, in the registry's order, each with the line
    the registry's fields make (`grader stubs` writes it; `stubs --check` catches a drift)."""
    found = catalogue.headings(_notebook(folder, lesson))
    exercises = registry.for_lesson(lesson)
    assert list(found) == [e.name for e in exercises]
    for e in exercises:
        assert found[e.name] == catalogue.effort_line(e)
        assert found[e.name] == (f"*Difficulty {'●' * e.difficulty}{'○' * (3 - e.difficulty)} · importance "
                                 f"{'●' * e.importance}{'○' * (3 - e.importance)} · about {e.minutes} min*")


def test_the_how_to_work_cell_says_what_the_line_means():
    nb = _notebook("exercises", "01_embeddings")
    about = next(c for c in nb.cells if "about-check" in nbk.tags(c))
    assert catalogue.legend() in nbk.cell_source(about)


def _heading_cell(text: str):
    return nbformat.v4.new_markdown_cell(text)


@pytest.mark.parametrize("source", [
    "## Exercise 1: `embed(wte, wpe, idx)`\n\n**Inputs**: ...",
    "## Exercise 1: `embed(wte, wpe, idx)`\n**Inputs**: ...",
    "## Exercise 1: `embed(wte, wpe, idx)`\n\n*Difficulty ●●● · importance ○○○ · about 99 min*\n\n**Inputs**: ...",
])
def test_filling_writes_the_line_once_whatever_was_there(source):
    nb = nbformat.v4.new_notebook(cells=[_heading_cell(source)])
    for _ in range(2):  # filling twice changes nothing more
        catalogue.fill_headings(nb, "01_embeddings")
        assert nb.cells[0].source == ("## Exercise 1: `embed(wte, wpe, idx)`\n\n"
                                      f"{catalogue.effort_line(registry.get('embed'))}\n\n**Inputs**: ...")


def test_a_heading_alone_gets_its_line():
    nb = nbformat.v4.new_notebook(cells=[_heading_cell("## Exercise 2: `one_hot_embed(wte, idx)`")])
    catalogue.fill_headings(nb, "01_embeddings")
    assert nb.cells[0].source.split("\n") == ["## Exercise 2: `one_hot_embed(wte, idx)`", "",
                                              catalogue.effort_line(registry.get("one_hot_embed"))]


@pytest.mark.parametrize("heading", ["## Exercise 1: `embedd(wte, wpe, idx)`",   # a typo
                                     "## Exercise 1: `layer_norm(x, weight, bias, eps=1e-5)`"])  # lesson 02's
def test_a_heading_that_names_no_exercise_of_the_lesson_is_refused(heading):
    nb = nbformat.v4.new_notebook(cells=[_heading_cell(heading)])
    with pytest.raises(nbk.NotebookError, match="names no exercise of lesson 01_embeddings"):
        catalogue.fill_headings(nb, "01_embeddings")


def test_stubs_check_fails_when_the_registry_and_the_notebooks_differ(monkeypatch):
    changed = registry.get("embed")
    monkeypatch.setattr(changed, "minutes", changed.minutes + 5)
    problems = stubs.stale(ROOT / "solutions", ROOT / "exercises")
    assert f"{ROOT / 'exercises' / '01_embeddings_exercises.ipynb'} is out of date" in problems
    assert f"{ROOT / 'solutions' / '01_embeddings_exercises.ipynb'} is out of date" in problems


def test_lessons_are_titled_from_their_notebooks():
    titles = {s.name: s.title for s in catalogue.lessons()}
    assert titles["01_embeddings"] == "Token and position embeddings"
    assert titles["09_tokenizer"] == "GPT-2's tokenizer, byte for byte"
    assert list(titles) == LESSONS


def test_a_lesson_s_difficulty_is_the_range_of_its_exercises():
    by_name = {s.name: s for s in catalogue.lessons()}
    assert by_name["05_counting"].difficulty == catalogue.dots(registry.get("count_gpt2_params").difficulty)
    low = min(e.difficulty for e in registry.for_lesson("09_tokenizer"))
    high = max(e.difficulty for e in registry.for_lesson("09_tokenizer"))
    assert by_name["09_tokenizer"].difficulty == f"{catalogue.dots(low)}–{catalogue.dots(high)}"
    assert by_name["09_tokenizer"].minutes == sum(e.minutes for e in registry.for_lesson("09_tokenizer"))


def test_the_readme_table_is_the_registry_s():
    """README.md holds `python -m grader exercises --markdown` as it is (paste it again after
    changing an exercise's ratings)."""
    assert catalogue.markdown_table() in README.read_text(encoding="utf-8")


def test_the_readme_table_links_to_notebooks_that_exist():
    for target in re.findall(r"\]\(([^)]+\.ipynb)\)", catalogue.markdown_table()):
        assert (ROOT / target).is_file(), target


def _grader(*args):
    return subprocess.run([sys.executable, "-m", "grader", "exercises", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_the_command_lists_every_exercise_with_its_ratings():
    done = _grader()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["difficulty", "importance", "minutes"]
    for e in registry.load_all().values():
        row = next(line for line in lines if line.split()[:1] == [e.name])
        assert row.split()[1:] == [catalogue.dots(e.difficulty), str(e.difficulty),
                                   catalogue.dots(e.importance), str(e.importance), str(e.minutes)]
    total = sum(e.minutes for e in registry.load_all().values())
    assert lines[-1].startswith(f"{len(registry.load_all())} exercises, about {total} min")


def test_the_command_lists_the_lessons_asked_for():
    done = _grader("09", "01_embeddings")
    assert done.returncode == 0, done.stderr
    headings = [line for line in done.stdout.splitlines() if re.match(r"\d\d ", line)]
    assert [h[:2] for h in headings] == ["01", "09"]
    bad = _grader("01", "10")
    assert bad.returncode == 2 and "no lesson 10: the lessons are 01_embeddings" in bad.stderr


def test_the_command_prints_the_readme_table():
    done = _grader("--markdown")
    assert done.returncode == 0 and done.stdout.strip() == catalogue.markdown_table()

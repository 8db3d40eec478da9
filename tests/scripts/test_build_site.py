"""`make site` (scripts/build_site.py): what its pages hold, read from the files it writes.
How they load in a browser: tests/e2e/test_site_browser.py."""
import re
import subprocess

import nbformat
import pytest
from bs4 import BeautifulSoup

import build_site
import site_math
import site_widgets
from grader import notebook as nbk
from grader.judging import registry
from grader.release import catalogue

from conftest import ROOT

PAGES = build_site.pages()


def _soup(path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def _text(path) -> str:
    """What a reader sees of the page (code highlighted span by span reads as one line again)."""
    return _soup(path).get_text()


def test_a_page_for_every_lesson_and_exercise_notebook_in_lesson_order():
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    exercises = sorted(p.name for p in (ROOT / "exercises").glob("*.ipynb"))
    assert [p.source for p in PAGES] == ["index.ipynb"] + [
        f"{folder}/{name}" for pair in zip(lessons, exercises) for folder, name in zip(("notebooks", "exercises"), pair)]
    assert {p.kind for p in PAGES[1:]} == {"lesson", "exercises"}


def test_the_site_holds_every_page_and_nothing_from_solutions(built_site):
    written = sorted(str(p.relative_to(built_site)) for p in built_site.rglob("*") if p.is_file())
    assert written == sorted([p.path for p in PAGES] + ["static/lab.css", "static/site.css"])


def test_each_lesson_page_keeps_its_stored_figures(built_site):
    for page in PAGES:
        if page.kind != "lesson":
            continue
        nb = nbformat.read(ROOT / page.source, as_version=4)
        figures = [o for c in nb.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
        shown = re.findall(r'<img[^>]+src="data:image/png;base64,', (built_site / page.path).read_text())
        assert len(shown) >= len(figures), page.path  # widgets' saved figures come on top


def _solution_lines() -> set[str]:
    lines = set()
    for path in (ROOT / "solutions").glob("*.ipynb"):
        for cell in nbk.read(path).cells:
            if nbk.EXERCISE_TAG not in nbk.tags(cell):
                continue
            source = nbk.cell_source(cell).splitlines()
            for start, end in nbk.solution_regions(nbk.cell_source(cell)):
                lines |= {ln.strip() for ln in source[start + 1:end] if len(ln.strip()) > 15
                          and not ln.strip().startswith("#")}
    return lines


def test_exercise_pages_show_the_stubs_not_the_solutions_nor_the_hints(built_site):
    solutions, hints = _solution_lines(), [h for e in registry.load_all().values() for h in e.hints]
    assert solutions and hints
    for page in PAGES:
        text = _text(built_site / page.path)
        assert [s for s in solutions if s in text] == [], page.path
        assert [h for h in hints if h in text] == [], page.path
        if page.kind == "exercises":
            assert 'NotImplementedError("' in text
            for name in catalogue.headings(nbk.read(ROOT / page.source)):
                assert f'{name}: replace this line with your code' in text and f"def {name}(" in text


def test_exercise_headings_show_difficulty_importance_and_minutes(built_site):
    soup = _soup(built_site / "exercises" / "01_embeddings_exercises.html")
    heading = next(h for h in soup.find_all("h2") if h.get_text().startswith("Exercise 1: embed("))
    assert heading.find_next("em").get_text() == catalogue.effort_line(registry.get("embed")).strip("*")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.path)
def test_no_page_asks_for_anything_outside_the_site(built_site, page):
    text = (built_site / page.path).read_text(encoding="utf-8")
    assert "<script" not in text  # no require.js, MathJax, mermaid or widget manager
    # an address elsewhere only as a link to follow, never as something the page loads
    elsewhere = re.findall(r'<(\w+)\b[^>]*?\b(?:src|href)="(?:https?:)?//', text)
    assert set(elsewhere) <= {"a"}
    for style in re.findall(r"<style[^>]*>(.*?)</style>", text, re.S):
        assert not re.search(r"url\(\s*['\"]?(?!data:)", style) and "@import" not in style


def test_the_site_s_styles_fetch_nothing(built_site):
    for css in (built_site / "static").glob("*.css"):
        text = css.read_text(encoding="utf-8")
        assert not re.search(r"url\(\s*['\"]?(?!data:)", text) and "@import" not in text, css.name


def test_every_formula_is_drawn(built_site):
    """Every $...$ of the course draws with matplotlib's mathtext (site_math.REWRITES covers what it
    lacks); a new formula that does not would show as TeX on the site."""
    for page in PAGES:
        text = (built_site / page.path).read_text(encoding="utf-8")
        assert 'class="math-tex"' not in text, page.path
    formulas = _soup(built_site / "notebooks" / "03_mlp_block.html").select("img.math-display")
    assert len(formulas) >= 2
    assert any(f["alt"].startswith("\\text{GELU}_{\\tanh}(x) = \\tfrac12") for f in formulas)  # for screen readers


@pytest.mark.parametrize("tex", [r"\tfrac12\,x\,\Bigl(1 + \tanh\bigl(\sqrt2\bigr)\Bigr)", r"j \le t",
                                 r"\lVert w \rVert", r"\frac1N \sum_t p_{t v}"])
def test_mathtext_draws_what_it_lacks_once_rewritten(tex):
    data, height, depth = site_math.svg(tex)
    assert data.startswith(b"<?xml") and b"<svg" in data and height > 0 and depth >= 0
    assert b"<text" not in data  # glyphs as paths: no font to fetch


def test_formulas_inside_code_and_prices_stay_as_they_are():
    failed = []
    out = site_math.render("costs $5 and $10; `$x$` and\n```\n$y$\n```\nbut $z_1$ and $$\\frac{a}{b}$$", failed)
    assert out.startswith("costs $5 and $10; `$x$` and\n```\n$y$\n```\nbut <img class=\"math\" alt=\"z_1\"")
    assert out.count("<img") == 2 and 'class="math math-display" alt="\\frac{a}{b}"' in out and failed == []


def test_a_formula_mathtext_cannot_draw_is_kept_as_tex_and_reported():
    failed = []
    out = site_math.render(r"an $\unknowncommand{x}$ here", failed)
    assert out == r'an <code class="math-tex">\unknowncommand{x}</code> here' and failed == [r"\unknowncommand{x}"]


def test_formulas_are_the_same_bytes_every_build():
    assert site_math.svg("x_1 + y^2")[0] == site_math.svg("x_1 + y^2")[0]


def test_saved_widgets_are_drawn_as_saved(built_site):
    widgets = _soup(built_site / "notebooks" / "05_counting.html").select(".site-widget")
    assert len(widgets) == 1 and "Interactive in JupyterLab (make lab)" in widgets[0].get_text()
    sliders = {r.select_one(".w-desc").get_text(): r.select_one("input") for r in widgets[0].select(".w-row")
               if r.select_one("input[type=range]")}
    assert {d: (i["value"], "disabled" in i.attrs) for d, i in sliders.items()} == {
        "vocabulary V": ("50257", True), "block size T": ("1024", True), "width d": ("768", True),
        "layers L": ("12", True)}
    assert "124,439,808 parameters" in widgets[0].get_text()
    assert widgets[0].select_one("img")["src"].startswith("data:image/png;base64,")  # its saved bar chart
    (figure,) = _soup(built_site / "notebooks" / "07_position_embeddings.html").select(".site-widget .w-output img")
    assert figure["src"].startswith("data:image/png;base64,")


def test_a_widget_without_saved_state_shows_its_text():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output(
        "display_data", data={site_widgets.VIEW: {"model_id": "gone"}, "text/plain": "IntSlider(value=3)"})])])
    assert site_widgets.make_static(nb) == 1
    assert "<pre>IntSlider(value=3)</pre>" in nb.cells[0].outputs[0]["data"]["text/html"]


def _page(source):
    return next(p for p in PAGES if p.source == source)


def test_links_between_notebooks_become_links_between_pages():
    by_source = {p.source: p for p in PAGES}
    lesson = _page("notebooks/01_embeddings.ipynb")
    body = ('<a href="../exercises/01_embeddings_exercises.ipynb">x</a> <a href="02_attention.ipynb#Top">y</a> '
            '<a href="#here">z</a> <a href="https://arxiv.org/abs/1706.03762">paper</a> '
            '<link href="../static/site.css"> <img src="data:image/png;base64,AAAA">')
    assert build_site.relinked(body, lesson, by_source) == (
        '<a href="../exercises/01_embeddings_exercises.html">x</a> <a href="02_attention.html#Top">y</a> '
        '<a href="#here">z</a> <a href="https://arxiv.org/abs/1706.03762">paper</a> '
        '<link href="../static/site.css"> <img src="data:image/png;base64,AAAA">')


@pytest.mark.parametrize("body", ['<a href="../gpt2course/weights.py">the rules</a>',
                                  '<img src="figure.png">', '<a href="../solutions/01_embeddings_exercises.ipynb">'])
def test_a_link_to_a_file_the_site_does_not_hold_stops_the_build(body):
    by_source = {p.source: p for p in PAGES}
    with pytest.raises(build_site.SiteError, match="which the site does not hold"):
        build_site.relinked(body, _page("notebooks/01_embeddings.ipynb"), by_source)


def test_the_sidebar_lists_the_lessons_in_order_and_marks_the_current_page(built_site):
    nav = _soup(built_site / "notebooks" / "02_attention.html").select_one("nav.site-nav")
    assert [a["href"] for a in nav.select("a")] == ["../index.html"] + [f"../{p.path}" for p in PAGES[1:]]
    assert [a["href"] for a in nav.select("a[aria-current=page]")] == ["../notebooks/02_attention.html"]
    assert "LayerNorm and causal self-attention" in nav.get_text()
    lesson09 = nav.select("a.site-exercises")[-1].get_text()
    effort = {s.name: s for s in catalogue.lessons()}["09_tokenizer"]
    assert lesson09 == f"Exercises {effort.difficulty} · {effort.minutes} min"


def test_the_command_says_where_it_wrote_the_site_and_warns_of_nothing(built_site):
    """built_site runs the command `make site` runs, from another folder."""
    said = (built_site.parent / "stdout.txt").read_text()
    assert said == (f"wrote {len(PAGES)} pages to {built_site}/: open {built_site}/index.html, or copy the "
                    "folder to any static host (docs/site.md)\n")
    assert (built_site.parent / "stderr.txt").read_text() == ""


def test_make_site_builds_into_a_folder_git_ignores():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^site: \$\(STAMP\)\n\t\$\(BIN\)/python scripts/build_site.py --out build/site$", makefile, re.M)
    ignored = subprocess.run(["git", "check-ignore", "-q", "build/site/index.html"], cwd=ROOT)
    assert ignored.returncode == 0

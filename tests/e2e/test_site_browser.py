"""The static site (`make site`) in Chromium, opened from file:// as a reader opens the folder.

Every page is loaded with every http(s) request refused (the site asks nothing of any other
server) and checked: no request refused or failed, no script error, every image drawn, every
link to a page or an anchor of the site leading somewhere that exists; a full-page
screenshot of each goes to SCREENSHOTS. Then the reader's path: from the front page, the
"next" links walk through every page in lesson order. Skipped, with one line saying why,
where Playwright or Chromium is missing (see conftest.browser_problem).
"""
from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import browser_problem, chromium_path

_PROBLEM = browser_problem()
if _PROBLEM:  # pragma: no cover - depends on the machine
    pytest.skip(_PROBLEM, allow_module_level=True)
from playwright.sync_api import sync_playwright  # noqa: E402

import build_site  # noqa: E402

PAGES = build_site.pages()
SCREENSHOTS = Path("/tmp/gpt2-site-screenshots")


@pytest.fixture(scope="module")
def browser():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for old in SCREENSHOTS.rglob("*.png"):  # this run's screenshots replace the last run's
        old.unlink()
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=chromium_path(), headless=True,
                                  args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"])
        except Exception as err:  # pragma: no cover - depends on the machine
            pytest.skip(f"browser tests skipped: Chromium did not start: {str(err).splitlines()[0]}")
        yield b
        b.close()


@pytest.fixture
def reader(browser):
    """A page whose every request leaving file:// (and data:) is refused and recorded."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.refused, page.failed, page.errors = [], [], []

    def route(r):
        if r.request.url.startswith(("file:", "data:")):
            r.continue_()
        else:
            page.refused.append(r.request.url)
            r.abort()
    context.route("**/*", route)
    page.on("requestfailed", lambda req: page.failed.append(req.url))
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    yield page
    context.close()


def _ids(path: Path) -> set[str]:
    return {html.unescape(i) for i in re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8"))}


JS_IMAGES = """() => Array.from(document.images).map(i => ({src: i.src.slice(0, 60), alt: i.alt,
    ok: i.complete && i.naturalWidth > 0}))"""
JS_LINKS = "() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.path)
def test_every_page_loads_whole_from_the_folder_alone(reader, built_site, page):
    path = built_site / page.path
    reader.goto(path.as_uri(), wait_until="load")
    assert reader.refused == [] and reader.failed == [] and reader.errors == []
    # the site's styles applied: the sidebar stands beside the notebook
    assert reader.evaluate("() => getComputedStyle(document.querySelector('.site-nav')).position") == "sticky"
    images = reader.evaluate(JS_IMAGES)
    assert [i for i in images if not i["ok"]] == []
    broken = []
    for href in reader.evaluate(JS_LINKS):
        url = urlsplit(href)
        if url.scheme != "file":
            continue  # a link to follow elsewhere (a paper); the site loads nothing from there
        target = Path(unquote(url.path))
        if not target.is_file() or built_site not in target.parents:
            broken.append(href)
        elif url.fragment and not {url.fragment, unquote(url.fragment)} & _ids(target):
            broken.append(href)  # as HTML finds a fragment's element: by the fragment, else decoded
    assert broken == []
    shot = SCREENSHOTS / page.path.replace(".html", ".png")
    shot.parent.mkdir(parents=True, exist_ok=True)
    reader.screenshot(path=str(shot), full_page=True)


def test_next_links_walk_every_page_in_lesson_order(reader, built_site):
    reader.goto((built_site / "index.html").as_uri())
    visited = []
    while True:
        visited.append(Path(unquote(urlsplit(reader.url).path)).relative_to(built_site).as_posix())
        following = reader.locator("a[rel=next]")
        if not following.count():
            break
        following.click()
        reader.wait_for_load_state("load")
    assert visited == [p.path for p in PAGES]
    assert reader.refused == [] and reader.errors == []


def test_the_sidebar_takes_the_reader_to_a_lesson_s_exercises(reader, built_site):
    reader.goto((built_site / "notebooks" / "04_model_init.html").as_uri())
    reader.locator(".site-nav a.site-exercises").nth(8).click()  # the ninth lesson's exercises
    reader.wait_for_load_state("load")
    assert reader.url.endswith("/exercises/09_tokenizer_exercises.html")
    assert reader.locator(".site-nav a[aria-current=page]").inner_text().startswith("Exercises")
    assert reader.locator("h2", has_text="Exercise 7: generate_text").count() == 1

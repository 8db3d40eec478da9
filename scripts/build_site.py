"""`make site`: the course as a static website, built offline from the committed notebooks.

    python scripts/build_site.py [--out build/site]

Every lesson (notebooks/) with its stored outputs and figures, and every exercise notebook
(exercises/: the stubs, never solutions/), becomes a page; index.html is the front page. A
sidebar lists them in lesson order, each page links to the one before and after it, and the
links between notebooks become links between pages (a link to a file the site does not hold
stops the build). nbconvert, locked with the course, writes each page from its JupyterLab
template (site_templates/); nothing on a page comes from elsewhere: the styles are files of
the site, figures are inline, formulas and saved widgets are drawn here (site_math.py,
site_widgets.py). Open index.html, or copy the folder to any static host (docs/site.md).
"""
from __future__ import annotations

import argparse
import copy
import html
import posixpath
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
from jupyter_core.paths import jupyter_path
from nbconvert import HTMLExporter

import site_math
import site_widgets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's grader, whichever checkout the venv was installed from
from grader.release import catalogue  # noqa: E402
TEMPLATES = Path(__file__).resolve().parent / "site_templates"
TEMPLATE = "gpt2course_site"
NOTES = {
    "lesson": "A lesson as it is stored, outputs and figures included. To run it and change it: "
              "<code>make lab</code> in the course's folder.",
    "exercises": "An exercise notebook as a learner gets it, the exercises left to do. To solve them "
                 "and <code>check()</code> your answers: <code>make lab</code> in the course's folder.",
}


class SiteError(Exception):
    """The site cannot be built as the notebooks stand; the message says what to change."""


@dataclass(frozen=True)
class Page:
    source: str   # the notebook, relative to the repository: "notebooks/01_embeddings.ipynb"
    path: str     # the page, relative to the site: "notebooks/01_embeddings.html"
    title: str    # "01 Token and position embeddings"
    kind: str     # "home", "lesson" or "exercises"

    @property
    def root(self) -> str:
        """From this page to the site's root: "" or "../"."""
        return "../" * self.path.count("/")


def pages(root: Path = ROOT) -> list[Page]:
    """The front page, then each lesson followed by its exercise notebook, in lesson order."""
    found = [Page("index.ipynb", "index.html", "GPT-2, exactly", "home")]
    for lesson in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        number, title = lesson.stem[:2], catalogue.lesson_title(lesson)
        found.append(Page(f"notebooks/{lesson.name}", f"notebooks/{lesson.stem}.html", f"{number} {title}", "lesson"))
        exercises = root / "exercises" / f"{lesson.stem}_exercises.ipynb"
        if exercises.exists():
            found.append(Page(f"exercises/{exercises.name}", f"exercises/{exercises.stem}.html",
                              f"{number} Exercises: {title}", "exercises"))
    return found


def sidebar(all_pages: list[Page], current: Page, root: Path = ROOT) -> str:
    effort = {s.name: s for s in catalogue.lessons(root)}

    def link(page: Page, text: str, cls: str = "") -> str:
        here = ' aria-current="page"' if page == current else ""
        cls = f' class="{cls}"' if cls else ""
        return f'<a{cls} href="{current.root}{page.path}"{here}>{text}</a>'

    items = []
    for page in all_pages[1:]:
        name = Path(page.source).stem
        if page.kind == "lesson":
            items.append(f'<li>{link(page, f"<span class=site-number>{name[:2]}</span>{html.escape(page.title[3:])}")}')
        else:
            lesson = effort.get(name.removesuffix("_exercises"))
            extra = (f' <span class="site-effort">{lesson.difficulty} · {lesson.minutes} min</span>'
                     if lesson else "")
            items[-1] += link(page, f"Exercises{extra}", "site-exercises")
    items = [i + "</li>" for i in items]
    return link(all_pages[0], "GPT-2, exactly", "site-home") + "\n<ol>\n" + "\n".join(items) + "\n</ol>"


def pager(all_pages: list[Page], current: Page) -> str:
    i = all_pages.index(current)
    parts = []
    if i > 0:
        p = all_pages[i - 1]
        parts.append(f'<a rel="prev" href="{current.root}{p.path}">← {html.escape(p.title)}</a>')
    else:
        parts.append("<span></span>")
    if i + 1 < len(all_pages):
        p = all_pages[i + 1]
        parts.append(f'<a rel="next" href="{current.root}{p.path}">{html.escape(p.title)} →</a>')
    return "\n".join(parts)


def home_notebook(root: Path = ROOT):
    text = (TEMPLATES / "home.md").read_text(encoding="utf-8")
    text = text.replace("{{ table }}", catalogue.markdown_table(root))
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text)])


def prepared(nb, failed: list[str]):
    """A copy of ``nb`` as the page shows it: widgets drawn, formulas drawn."""
    nb = copy.deepcopy(nb)
    site_widgets.make_static(nb)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = site_math.render(cell.source, failed)
    return nb


_URL = re.compile(r'\b(href|src)="([^"]*)"')
_ELSEWHERE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)  # http:, mailto:, data:, //host


def relinked(body: str, page: Page, by_source: dict[str, Page]) -> str:
    """Links to notebooks of the site made links to their pages; SiteError for a relative link or
    image to anything else (it would be broken on the site). The site's own links (sidebar,
    pager, styles) are kept."""
    site_paths = {p.path for p in by_source.values()}

    def fix(m: re.Match) -> str:
        attr, url = m.groups()
        if not url or url.startswith("#") or _ELSEWHERE.match(url):
            return m.group(0)
        target, _, fragment = html.unescape(url).partition("#")
        in_site = posixpath.normpath(posixpath.join(posixpath.dirname(page.path), target))
        if in_site in site_paths or in_site.startswith("static/"):
            return m.group(0)
        source = posixpath.normpath(posixpath.join(posixpath.dirname(page.source), target))
        if attr == "href" and source in by_source:
            new = posixpath.relpath(by_source[source].path, posixpath.dirname(page.path) or ".")
            return f'{attr}="{html.escape(new)}{"#" + html.escape(fragment) if fragment else ""}"'
        raise SiteError(f"{page.source} links to {url}, which the site does not hold: link to a lesson or "
                        "exercise notebook, or to a full https:// address")
    return _URL.sub(fix, body)


def lab_styles() -> str:
    """nbconvert's JupyterLab styles (its lab template's static/ folder), light theme."""
    for folder in jupyter_path("nbconvert", "templates", "lab", "static"):
        folder = Path(folder)
        if (folder / "index.css").exists() and (folder / "theme-light.css").exists():
            return "\n".join((folder / name).read_text(encoding="utf-8") for name in ("index.css", "theme-light.css"))
    raise SiteError("nbconvert's lab template (static/index.css) is not installed: run make")


def build(out: Path, root: Path = ROOT) -> list[Path]:
    """Write the site into ``out`` (emptied first); returns the pages written."""
    if out.exists():
        shutil.rmtree(out)
    (out / "static").mkdir(parents=True)
    (out / "static" / "lab.css").write_text(lab_styles(), encoding="utf-8")
    shutil.copy(TEMPLATES / "site.css", out / "static" / "site.css")
    exporter = HTMLExporter(template_name=TEMPLATE, extra_template_basedirs=[str(TEMPLATES)])
    all_pages = pages(root)
    by_source = {p.source: p for p in all_pages}
    written, failed = [], []
    for page in all_pages:
        nb = home_notebook(root) if page.kind == "home" else nbformat.read(root / page.source, as_version=4)
        resources = {"metadata": {"name": page.title if page.kind == "home" else f"{page.title} · GPT-2, exactly"},
                     "site": {"root": page.root, "kind": page.kind, "note": NOTES.get(page.kind, ""),
                              "sidebar": sidebar(all_pages, page, root), "pager": pager(all_pages, page)}}
        body, _ = exporter.from_notebook_node(prepared(nb, failed), resources=resources)
        target = out / page.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(relinked(body, page, by_source), encoding="utf-8")
        written.append(target)
    for tex in failed:
        print(f"warning: a formula the site shows as TeX (matplotlib's mathtext cannot draw it): {tex}",
              file=sys.stderr)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/build_site.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "build" / "site"), help="the folder to write (emptied first)")
    args = parser.parse_args(argv)
    try:
        written = build(Path(args.out))
    except SiteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {len(written)} pages to {args.out}/: open {args.out}/index.html, or copy the folder to any "
          "static host (docs/site.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

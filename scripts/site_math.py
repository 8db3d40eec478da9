"""The site's formulas: each $...$ and $$...$$ of a Markdown cell drawn once, offline, as SVG.

nbconvert leaves TeX for MathJax, which its templates fetch from a CDN; the site makes no
request outside itself, and the venv holds no MathJax. matplotlib (locked, already the
course's) draws TeX's common subset itself (mathtext), with glyphs as SVG paths: no font to
fetch. A few commands mathtext lacks are written in ones it has first (REWRITES: sizes of
brackets dropped, shorthand arguments braced). A formula it still cannot draw stays as its TeX
in a <code> (`render` reports it): tests/e2e/test_site.py requires every formula of the course
to draw.
"""
from __future__ import annotations

import base64
import html
import io
import re

from matplotlib import rc_context
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.mathtext import MathTextParser

SIZE_PT = 12.0  # the size formulas are drawn at; the page scales them to its text in em
_END = r"(?![A-Za-z])"  # a command's name ends where its letters do (\tfrac12 is \tfrac, then 12)
REWRITES = [
    (re.compile(r"\\[bB]igg?[lr]" + _END), ""),                  # \bigl( -> (
    (re.compile(r"\\tfrac" + _END), r"\\frac"),
    (re.compile(r"\\frac\s*(\w)\s*(\w)"), r"\\frac{\1}{\2}"),   # \frac12 -> \frac{1}{2}
    (re.compile(r"\\sqrt\s*(\w)"), r"\\sqrt{\1}"),              # \sqrt2 -> \sqrt{2}
    (re.compile(r"\\le" + _END), r"\\leq"),
    (re.compile(r"\\ge" + _END), r"\\geq"),
    (re.compile(r"\\[lr]Vert" + _END), r"\\Vert"),
]
# code (fenced blocks, then inline spans) is left alone; then $$display$$, then $inline$ (not \$,
# not a $ inside a word, no space just inside the dollars: "$5 and $10" is not a formula)
_CODE = re.compile(r"(```.*?```|~~~.*?~~~|`+[^`].*?`+)", re.S)
_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$\w])\$(?=\S)([^$\n]+?)(?<=\S)\$(?![\w$])")

_parser = MathTextParser("path")
_prop = FontProperties(size=SIZE_PT)


def tex_for_mathtext(tex: str) -> str:
    tex = " ".join(tex.split())
    for pattern, replacement in REWRITES:
        tex = pattern.sub(replacement, tex)
    return tex


def svg(tex: str) -> tuple[bytes, float, float]:
    """The formula as an SVG file, its height and its depth below the baseline, in points;
    ValueError when mathtext cannot draw it."""
    s = f"${tex_for_mathtext(tex)}$"
    width, height, depth, _, _ = _parser.parse(s, dpi=72, prop=_prop)
    fig = Figure(figsize=(width / 72, height / 72))
    fig.text(0, depth / height, s, fontproperties=_prop)
    buf = io.BytesIO()
    # glyphs as paths (no font to fetch); a fixed salt and no date: the same bytes every build
    with rc_context({"svg.fonttype": "path", "svg.hashsalt": "gpt2course-site"}):
        fig.savefig(buf, format="svg", transparent=True, metadata={"Date": None})
    return buf.getvalue(), height, depth


def image(tex: str, display: bool) -> str:
    data, height, depth = svg(tex)
    style = f"height:{height / SIZE_PT:.3f}em;vertical-align:{-depth / SIZE_PT:.3f}em"
    uri = "data:image/svg+xml;base64," + base64.b64encode(data).decode("ascii")
    kind = "math math-display" if display else "math"
    return f'<img class="{kind}" alt="{html.escape(tex.strip(), quote=True)}" style="{style}" src="{uri}">'


def render(markdown: str, failed: list[str] | None = None) -> str:
    """``markdown`` with every formula outside code drawn as an <img> (its TeX as the alt text).
    A formula mathtext cannot draw is kept as code and appended to ``failed``."""
    def draw(tex: str, display: bool) -> str:
        try:
            return image(tex, display)
        except ValueError:
            if failed is not None:
                failed.append(tex)
            return f'<code class="math-tex">{html.escape(tex)}</code>'

    parts = _CODE.split(markdown)
    for i in range(0, len(parts), 2):  # the even parts are outside code
        text = _DISPLAY.sub(lambda m: draw(m.group(1), True), parts[i])
        parts[i] = _INLINE.sub(lambda m: draw(m.group(1), False), text)
    return "".join(parts)

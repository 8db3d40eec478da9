"""How a verdict reads: plain text (a terminal, nbval, feedback.md) and HTML (JupyterLab).

The judge words a verdict as one message (judge.py): a head line, then one line per
part ("  Inputs of ...", "  Likely mistake: ..."). ``layout`` reads it into parts, each
on its own: the status (PASSED, FAILED, TODO), the first failure with where its answer
first differs (expected and received), the example's inputs, each named mistake with its
explanation and fix, and any note. A line it does not recognise stays a paragraph of its
own, so a new wording of the judge's is shown whole, only less neatly.

Both renderings come from that one layout and carry the same words. ``plain`` wraps at
WIDTH columns at word boundaries; a run of characters too long to wrap (a long key, an
exception's message without spaces) is cut to LONG characters in both. ``html`` marks the
status by colour, puts expected and received side by side, sets `quoted code` in code type
(without its backticks) and escapes every piece of text: the judge's sentences quote what
a learner's code raised or returned.
"""
from __future__ import annotations

import html
import re
import sys
import textwrap
from dataclasses import dataclass, field

WIDTH = 88          # columns of the plain text
LONG = 60           # a run of characters without a space longer than this is cut (... at its end)
INDENT = "  "       # the lines of a part under its own first line

MARK = {"passed": "PASSED", "not_attempted": "TODO", "failed": "FAILED", "broken": "FAILED",
        "missing": "MISSING"}
COLOUR = {"PASSED": "#2e7d32", "TODO": "#8d6e00", "FAILED": "#c62828", "MISSING": "#c62828"}

LIKELY = "Likely mistake: "
_FAILED = re.compile(r"(failed \d+ of \d+ tests?); (first failure \([^)]*\)): (.*)", re.S)
# where the answer first differs and the two values (compare.judge_case appends it)
_DIFFERS = re.compile(r"(?P<what>.*?); (?:(?P<where>first difference[^:]*): )?"
                      r"expected (?P<expected>.*), got (?P<received>.*)", re.S)
_INPUTS = re.compile(r"(Inputs of [^:]*:) (.*)", re.S)
# one input in brief ("wte: float64 (10, 4)", "n_head=2"): details.inputs_brief joins them with "; "
_NEXT_INPUT = re.compile(r"; (?=[A-Za-z_]\w*(?::|=))")


@dataclass(frozen=True)
class Part:
    """One part of a verdict. ``kind``: text (a paragraph), failure (its ``text``, then
    ``where``, ``expected`` and ``received``), inputs (``text`` the title, ``items``),
    mistake (``text`` the name, ``items`` its explanation)."""

    kind: str
    text: str
    items: tuple[str, ...] = ()
    where: str = ""
    expected: str = ""
    received: str = ""


@dataclass(frozen=True)
class Layout:
    exercise: str
    mark: str       # PASSED | FAILED | TODO | MISSING
    summary: str    # what follows the mark on the status line
    parts: tuple[Part, ...] = field(default_factory=tuple)


# ------------------------------------------------------------------ reading a verdict
def layout(verdict) -> Layout:
    """The parts of ``verdict`` (a judge.Verdict, or anything with its fields) in order."""
    mark = MARK.get(verdict.status, "FAILED")
    head, *rest = [line.strip() for line in str(verdict.message).split("\n")]
    parts = []
    failed = _FAILED.fullmatch(head)
    if failed:
        summary = failed[1] + "."
        parts.append(_failure("F" + failed[2][1:] + ": " + failed[3]))  # "First failure (...)"
    else:
        summary = head + ("." if verdict.status == "passed" and not head.endswith(".") else "")
    names = sorted(getattr(verdict, "mistakes", None) or (), key=len, reverse=True)
    for line in filter(None, rest):
        parts.append(_part(line, names))
    return Layout(_tame(str(verdict.exercise)), mark, _tame(summary), tuple(parts))


def _failure(text: str) -> Part:
    m = _DIFFERS.fullmatch(text)
    if not m:
        return Part("failure", _tame(text))
    return Part("failure", _tame(m["what"]), where=_tame(m["where"] or ""), expected=_tame(m["expected"]),
                received=_tame(m["received"]))


def _part(line: str, names: list[str]) -> Part:
    inputs = _INPUTS.fullmatch(line)
    if inputs:
        return Part("inputs", _tame(inputs[1]), tuple(_tame(i) for i in _NEXT_INPUT.split(inputs[2])))
    if line.startswith(LIKELY):
        said = line[len(LIKELY):]
        # the name as the judge named it (Verdict.mistakes), else up to the first sentence's end
        name = next((n for n in names if said == n or said.startswith(n + ". ")), None)
        if name is None:
            name = said.split(". ", 1)[0]
        explanation = said[len(name):].removeprefix(".").strip()
        return Part("mistake", _tame(name), (_tame(explanation),) if explanation else ())
    return Part("text", _tame(line))


def _tame(text: str) -> str:
    """Each run of non-space characters longer than LONG cut to LONG, ending in '...'."""
    return re.sub(r"\S{%d,}" % (LONG + 1), lambda m: m[0][: LONG - 3] + "...", text)


# ------------------------------------------------------------------ plain text
def plain(verdict_or_layout) -> str:
    """The verdict as text: the status line, then each part on lines of its own, at most
    WIDTH columns each, a blank line between parts but the first failure's."""
    lay = _as_layout(verdict_or_layout)
    blocks = [_status(lay)]
    for i, part in enumerate(lay.parts):
        lines = _plain_part(part)
        if i == 0 and part.kind == "failure":
            blocks[0] += lines
        else:
            blocks.append(lines)
    return "\n\n".join("\n".join(b) for b in blocks)


def _status(lay: Layout) -> list[str]:
    """The status line; one too long to fit breaks after the summary's first ": " or "; "
    where that fits (a TODO's "not attempted yet:"), else wherever the words allow."""
    mark = f"{lay.exercise}: {lay.mark}, "
    line = mark + lay.summary
    split = re.search(r"[:;] ", lay.summary)
    if len(line) > WIDTH and split and len(mark) + split.start() < WIDTH:
        return _wrap(mark + lay.summary[: split.start() + 1]) + _wrap(lay.summary[split.end():])
    return _wrap(line)


def _plain_part(part: Part) -> list[str]:
    if part.kind == "failure":
        lines = _wrap(part.text)
        if part.where:
            lines += _wrap(part.where, INDENT)
        if part.expected or part.received:
            lines += _wrap(part.expected, INDENT + "expected  ", INDENT + " " * 10)
            lines += _wrap(part.received, INDENT + "received  ", INDENT + " " * 10)
        return lines
    if part.kind == "inputs":
        return _wrap(part.text) + [line for item in part.items for line in _wrap(item, INDENT, INDENT * 2)]
    if part.kind == "mistake":
        return _wrap(f"{LIKELY}{part.text}.") + [line for item in part.items for line in _wrap(item)]
    return _wrap(part.text)


def _wrap(text: str, first: str = "", later: str | None = None) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=first if later is None else later,
                         break_long_words=True, break_on_hyphens=False) or [first.rstrip()]


# ------------------------------------------------------------------ HTML
_BOX = "border-left:6px solid {c};padding:4px 12px;margin:2px 0;line-height:1.5"
_BADGE = "background:{c};color:#fff;font-weight:bold;padding:0 6px;border-radius:3px"
_P = "margin:6px 0 0 0"
_CODE = "white-space:pre-wrap;word-break:break-word"
_CELL = "text-align:left;vertical-align:top;padding:2px 16px 2px 0;border:none"


def to_html(verdict_or_layout) -> str:
    """The verdict as one HTML block (inline styles: JupyterLab keeps them in a notebook it
    does not trust). Every piece of text is escaped."""
    lay = _as_layout(verdict_or_layout)
    c = COLOUR.get(lay.mark, COLOUR["FAILED"])
    out = [f'<div class="gpt2course-check" style="{_BOX.format(c=c)}">',
           f'<div><strong><code>{_e(lay.exercise)}</code>: <span style="{_BADGE.format(c=c)}">{_e(lay.mark)}'
           f"</span>, {_prose(lay.summary)}</strong></div>"]
    out += [_html_part(part) for part in lay.parts]
    out.append("</div>")
    return "\n".join(out)


def _html_part(part: Part) -> str:
    if part.kind == "failure":
        text = f'<div style="{_P}">{_prose(part.text)}'
        if part.where:
            text += f'<br><span style="margin-left:1em">{_prose(part.where)}</span>'
        if part.expected or part.received:
            text += (f'<table style="margin:2px 0 0 1em;border-collapse:collapse"><tr>'
                     f'<th style="{_CELL}">expected</th><th style="{_CELL}">received</th></tr><tr>'
                     f'<td style="{_CELL}"><code style="{_CODE}">{_e(part.expected)}</code></td>'
                     f'<td style="{_CELL}"><code style="{_CODE}">{_e(part.received)}</code></td></tr></table>')
        return text + "</div>"
    if part.kind == "inputs":
        items = "".join(f'<li><code style="{_CODE}">{_e(i)}</code></li>' for i in part.items)
        return f'<div style="{_P}">{_prose(part.text)}<ul style="margin:0;padding-left:2em">{items}</ul></div>'
    if part.kind == "mistake":
        said = "".join(f'<div style="margin:2px 0 0 0">{_prose(i)}</div>' for i in part.items)
        return f'<div style="{_P}"><strong>{_prose(LIKELY + part.text)}.</strong>{said}</div>'
    return f'<div style="{_P}">{_prose(part.text)}</div>'


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _prose(text: str) -> str:
    """A sentence, escaped, its `quoted code` set in code type (the plain text keeps the quotes)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", _e(text))


# ------------------------------------------------------------------ in a notebook
def mimebundle(verdict) -> dict[str, str]:
    """What check() displays in IPython: JupyterLab shows the HTML, a terminal the text; the
    text is what nbval compares (the stubs store this bundle for an untouched stub)."""
    lay = _as_layout(verdict)
    return {"text/html": to_html(lay), "text/plain": plain(lay)}


def _as_layout(v) -> Layout:
    return v if isinstance(v, Layout) else layout(v)


def show(verdict) -> None:
    """Display ``verdict`` in IPython (a kernel, a terminal IPython), else print its text."""
    ipython = sys.modules.get("IPython")
    if ipython is None or ipython.get_ipython() is None:
        print(plain(verdict))
        return
    from IPython.display import display

    display(mimebundle(verdict), raw=True)


def wrapped(text: str) -> str:
    """A message of the grader's own, wrapped like a verdict (hint(), a checker failure)."""
    return "\n".join(_wrap(_tame(text)))

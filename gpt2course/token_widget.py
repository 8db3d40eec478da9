"""Lesson 09's token viewer: a text's GPT-2 tokens as coloured spans, with ids and byte counts."""
from __future__ import annotations

import html

import ipywidgets as widgets

from . import tokenizer as tk

COLOURS = ("#fde68a", "#bfdbfe", "#bbf7d0", "#fecaca", "#ddd6fe", "#fed7aa")


def token_rows(text: str, tokenizer: tk.Tokenizer | None = None) -> list[tuple[int, bytes]]:
    """(id, bytes) of each token of text (<|endoftext|> allowed, as one id)."""
    tokenizer = tokenizer or tk.gpt2_tokenizer()
    return [(i, tk.token_bytes(tokenizer.tokens[i])) for i in tokenizer.encode(text, allowed_special="all")]


def spans_html(text: str, tokenizer: tk.Tokenizer | None = None) -> str:
    """Each token a coloured span (its id and byte count on hover); then tokens against characters.
    A token that is part of a character shows its bytes in hex."""
    rows = token_rows(text, tokenizer)
    spans = []
    for n, (i, raw) in enumerate(rows):
        shown = raw.decode("utf-8", errors="strict") if _whole(raw) else raw.hex(" ")
        spans.append(f'<span title="id {i}, {len(raw)} byte(s)" style="background:{COLOURS[n % len(COLOURS)]};'
                     f'white-space:pre-wrap;border-radius:3px;padding:0 1px">{html.escape(shown)}</span>')
    ids = ", ".join(str(i) for i, _ in rows)
    return (f'<div style="font-family:monospace;line-height:1.8">{"".join(spans)}</div>'
            f"<div>{len(rows)} tokens, {len(text)} characters, {len(text.encode('utf-8'))} bytes</div>"
            f'<div style="font-family:monospace;color:#555">ids: {html.escape(ids)}</div>')


def _whole(raw: bytes) -> bool:
    try:
        raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        return False
    return True


def token_viewer(text: str = "Hello, my dog is cute") -> widgets.VBox:
    """A text box and its tokens, redrawn on every keystroke."""
    box = widgets.Textarea(value=text, layout=widgets.Layout(width="100%", height="4em"))
    out = widgets.HTML(spans_html(text))
    box.observe(lambda change: setattr(out, "value", spans_html(change["new"])), names="value")
    return widgets.VBox([box, out])

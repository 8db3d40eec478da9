"""a04: a learner's exception message forges feedback.md structure (goal 1).

Route: `embed` raises an exception whose message closes the code span and starts new
Markdown: a fake "## `one_hot_embed`: 1 / 1 (passed)" heading, a raw <script> tag and a
link, so the feedback rendered to the learner (or shown to the instructor) says what the
learner chose.
Breached: feedback.md has a line starting with the forged heading FORGED04, or the raw
`<script>FORGED04` tag unescaped.
"""
import pathlib
import re

from _nb import nb_name, notebook, write_nb

SRC = '''
def embed(wte, wpe, idx):
    raise ValueError("x`\\n\\n## FORGED04 `embed`: 1 / 1 (passed)\\n\\n<script>FORGED04</script> [click](http://evil.example/FORGED04)\\r\\n# FORGED04\\u2028x`")
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("01_embeddings"), notebook("01_embeddings", {"embed": SRC}))
    return [str(tmp / "class")]


def verdict(out: pathlib.Path, run: dict):
    fb = out / "feedback" / "alice" / "feedback.md"
    if not fb.exists():
        return False, "no feedback.md for alice"
    text = fb.read_text()
    if re.search(r"^#+ FORGED04", text, re.M):
        return True, "feedback.md has a heading line chosen by the learner (## FORGED04 ...)"
    if "<script>FORGED04" in text:
        return True, "feedback.md has the learner's raw <script> tag"
    if "](http://evil.example/FORGED04)" in text and not re.search(r"`[^`\n]*\]\(http://evil", text):
        return True, "feedback.md has a live link chosen by the learner"
    return False, "marker present only escaped/inside a code span" if "FORGED04" in text else "marker absent"

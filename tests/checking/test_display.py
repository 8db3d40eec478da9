"""How check() shows a verdict (grader/checking/display.py): plain text no wider than
display.WIDTH, each part on lines of its own, and HTML that carries the same words,
escaped. Failures come from every exercise's catalogued mistakes, as check(), the batch
grade and the student edition judge them."""
import functools
import html.parser
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from grader.batch.report import verdict_lines
from grader.checking import display
from grader.checking.check import evaluate, not_attempted
from grader.judging import registry
from grader.judging.answers import call_answer, mistake_answers_for, reference_answers
from grader.judging.judge import judge
from grader.judging.stats import summarize

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = list(registry.load_all())
FORMS = ("check", "batch", "release")  # all cases; hidden_only (feedback.md); public cases, stored answers


@functools.lru_cache(maxsize=None)
def _verdicts(name: str) -> tuple:
    """One failing verdict per catalogued mistake of ``name``, in each form."""
    ex = registry.get(name)
    found = []
    for form in FORMS:
        cases = ex.cases(hidden=form != "release")
        expected, theirs = reference_answers(ex, cases), mistake_answers_for(ex, cases)
        if form == "release" and ex.judge is not None:  # the release stores summaries of draws
            expected = [summarize(a) for a in expected]
            theirs = {n: [summarize(a) for a in answers] for n, answers in theirs.items()}
        for m in ex.mistakes:
            answers = [call_answer(m.variant, c) for c in cases]
            found.append((form, m.name, judge(ex, cases, answers, expected, theirs, hidden_only=form == "batch")))
    return tuple(found)


class _Text(html.parser.HTMLParser):
    """The text of an HTML block as a reader sees it, and every tag it holds."""

    BLOCKS = {"div", "br", "table", "tr", "th", "td", "ul", "li"}

    def __init__(self, markup: str):
        super().__init__(convert_charrefs=True)
        self.parts, self.tags = [], []
        self.feed(markup)
        self.close()
        self.text = "".join(self.parts)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.parts.append(" " if tag in self.BLOCKS else "")

    def handle_endtag(self, tag):
        self.parts.append(" " if tag in self.BLOCKS else "")

    def handle_data(self, data):
        self.parts.append(data)


def _words(text: str) -> Counter:
    """The words of a text, `quoted code` without its backticks (HTML sets it in code type)."""
    return Counter(text.replace("`", "").split())


ALLOWED_TAGS = {"div", "strong", "code", "span", "br", "table", "tr", "th", "td", "ul", "li"}


@pytest.mark.parametrize("name", EXERCISES)
def test_every_mistake_reads_within_the_width_in_every_form(name):
    for form, mistake, v in _verdicts(name):
        assert v.status in ("failed", "broken"), (form, mistake)
        text = display.plain(v)
        wide = [line for line in text.splitlines() if len(line) > display.WIDTH]
        assert not wide, (form, mistake, wide)
        assert text.splitlines()[0].startswith(f"{name}: FAILED, failed "), (form, mistake, text)
        if v.mistakes:  # the named mistake: its own paragraph, its name on the line that opens it
            assert f"\n\n{display.LIKELY}{v.mistakes[0]}" in text, (form, mistake, text)
        block = verdict_lines(v)  # feedback.md: the same lines in a code block
        assert block[1:-1] == text.split("\n"), (form, mistake)


@pytest.mark.parametrize("name", EXERCISES)
def test_html_carries_the_same_words_as_the_plain_text(name):
    for form, mistake, v in _verdicts(name)[: len(registry.get(name).mistakes) * 2]:
        shown = _Text(display.to_html(v))
        assert set(shown.tags) <= ALLOWED_TAGS, (form, mistake, shown.tags)
        assert _words(shown.text) == _words(display.plain(v)), (form, mistake)


def test_expected_and_received_stand_side_by_side():
    def count_gpt2_params(V, T, d, L, **kw):
        return registry.get("count_gpt2_params").reference(V, T, d, L, **kw) + 1

    v = evaluate(count_gpt2_params)
    n = registry.get("count_gpt2_params").reference(**registry.get("count_gpt2_params").cases(hidden=False)[0].args)
    lines = display.plain(v).splitlines()
    assert lines[:4] == [f"count_gpt2_params: FAILED, failed {v.total - v.passed} of {v.total} tests.",
                         "First failure (public example 1): integer values differ",
                         f"  expected  {n}", f"  received  {n + 1}"]
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", display.to_html(v))
    assert [re.sub("<[^>]+>", "", c) for c in cells] == ["expected", "received", str(n), str(n + 1)]


def test_each_input_on_a_line_of_its_own():
    def embed(wte, wpe, idx):
        return wte[idx]

    text = display.plain(evaluate(embed))
    args = registry.get("embed").cases(hidden=False)[0].args
    assert "Inputs of public example 1:\n  wte: float64 (10, 4)\n  wpe: float64 (6, 4)\n  idx: int64 (2, 4) = " \
           f"{args['idx'].tolist()}" in text


HOSTILE = "<script>alert(1)</script> <img src=x onerror=alert(2)> & \"quoted\" 'single'"


def test_html_escapes_what_the_learner_wrote():
    def embed(wte, wpe, idx):
        raise ValueError(HOSTILE)

    def load_hf_state_dict(model, state_dict):
        return {"<b>key</b>": np.zeros(2)}

    for fn in (embed, load_hf_state_dict):
        v = evaluate(fn)
        markup = display.to_html(v)
        shown = _Text(markup)
        assert set(shown.tags) <= ALLOWED_TAGS, shown.tags
        assert "<script" not in markup and "<img" not in markup and "<b>" not in markup
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt; &amp; &quot;quoted&quot; " \
           "&#x27;single&#x27;" in display.to_html(evaluate(embed))
    assert HOSTILE in " ".join(_Text(display.to_html(evaluate(embed))).text.split())


def test_a_word_too_long_to_wrap_is_cut_alike_in_both_forms():
    def embed(wte, wpe, idx):
        raise ValueError("x" * 250)

    v = evaluate(embed)
    text = display.plain(v)
    assert max(map(len, text.splitlines())) <= display.WIDTH
    cut = "x" * (display.LONG - 3) + "..."
    assert cut in text.split() and cut in _Text(display.to_html(v)).text.split()


def test_a_word_of_exactly_the_longest_length_is_kept_whole():
    fits, over = "y" * display.LONG, "z" * (display.LONG + 1)
    assert display._tame(f"a {fits} b") == f"a {fits} b"
    assert display._tame(over) == "z" * (display.LONG - 3) + "..."


@pytest.mark.parametrize("status, colour", [("passed", "PASSED"), ("not_attempted", "TODO"), ("failed", "FAILED")])
def test_the_status_is_marked_at_a_glance(status, colour):
    def embed(wte, wpe, idx):
        T = idx.shape[-1]
        if T > len(wpe):
            raise ValueError(f"sequence length {T} > block size {len(wpe)}")
        return {"passed": lambda: wte[idx] + wpe[:T], "failed": lambda: wte[idx] + wpe[idx]}[status]()

    v = not_attempted("embed") if status == "not_attempted" else evaluate(embed)
    assert v.status == status
    markup = display.to_html(v)
    badge = re.search(r'<span style="background:(#\w+)[^"]*">(\w+)</span>', markup)
    assert badge and badge[2] == colour and badge[1] == display.COLOUR[colour]
    assert display.plain(v).startswith(f"embed: {colour}, ")


def test_a_line_the_layout_does_not_know_is_kept_whole():
    from grader.judging.judge import Verdict

    v = Verdict("embed", "failed", 0, 3, 0.0, 1.0, "failed 3 of 3 tests; first failure (hidden test 1): odd\n"
                "  a new kind of note, worded by the judge one day; " + "word " * 30)
    text = display.plain(v)
    assert " ".join(text.split()) == ("embed: FAILED, failed 3 of 3 tests. First failure (hidden test 1): odd "
                                      "a new kind of note, worded by the judge one day; " + "word " * 29 + "word")
    assert "\n\na new kind of note" in text


def test_check_in_ipython_displays_html_and_the_text_nbval_compares():
    """In a kernel (nbval, JupyterLab) check() makes one display_data per function, with the
    HTML and the plain text; the stubs store exactly that for an untouched stub."""
    code = """
import json
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
InteractiveShell.instance()
from grader import check
def embed(wte, wpe, idx):
    raise NotImplementedError
def one_hot_embed(wte, idx):
    return wte
with capture_output() as cap:
    check(embed, one_hot_embed)
print(json.dumps({"stdout": cap.stdout, "outputs": [o.data for o in cap.outputs]}))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.splitlines()[-1])
    assert got["stdout"] == "" and len(got["outputs"]) == 2
    assert got["outputs"][0] == display.mimebundle(not_attempted("embed"))
    assert got["outputs"][1]["text/plain"].startswith("one_hot_embed: FAILED, failed ")
    assert got["outputs"][1]["text/html"].startswith('<div class="gpt2course-check"')

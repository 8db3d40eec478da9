"""Lesson 05: the count's reference against real modules, the explorer's pure
breakdown and its widget, and the notebooks' conventions."""
import re

import nbformat
import numpy as np
import pytest
import torch
from torch import nn

from gpt2course import GPT2_FAMILY, GPT2_SMALL, TINY, GPTConfig
from gpt2course import numpy_gpt as ng
from gpt2course import widgets
from gpt2course.config import GPT3_175B
from grader.judging import registry
from grader.checking.check import evaluate

from conftest import ROOT

EXERCISE = registry.get("count_gpt2_params")
COUNT = EXERCISE.reference
FLAGS = [(True, True), (False, True), (True, False), (False, False)]
CONFIGS = [pytest.param(c, id=n) for n, c in
           [("tiny", TINY), *GPT2_FAMILY.items(),
            ("odd", GPTConfig(vocab_size=97, block_size=5, n_layer=3, n_embd=24, n_head=2))]]
flags = pytest.mark.parametrize("tied, bias", FLAGS, ids=lambda x: str(x))


class Block(nn.Module):
    def __init__(self, d, bias):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(d, bias=bias), nn.LayerNorm(d, bias=bias)
        self.c_attn, self.attn_proj = nn.Linear(d, 3 * d, bias=bias), nn.Linear(d, d, bias=bias)
        self.c_fc, self.mlp_proj = nn.Linear(d, 4 * d, bias=bias), nn.Linear(4 * d, d, bias=bias)


class Shell(nn.Module):
    """GPT-2's tensors in PyTorch modules (nanoGPT's bias switch), counted on the meta device."""

    def __init__(self, c, tied, bias):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(c.vocab_size, c.n_embd), nn.Embedding(c.block_size, c.n_embd)
        self.h = nn.ModuleList(Block(c.n_embd, bias) for _ in range(c.n_layer))
        self.ln_f = nn.LayerNorm(c.n_embd, bias=bias)
        self.lm_head = nn.Linear(c.n_embd, c.vocab_size, bias=False)
        if tied:
            self.lm_head.weight = self.wte.weight


def args(c, tied=True, bias=True):
    return dict(V=c.vocab_size, T=c.block_size, d=c.n_embd, L=c.n_layer, tied=tied, bias=bias)


# ------------------------------------------------------------------ the reference
@pytest.mark.parametrize("config", CONFIGS)
@flags
def test_reference_counts_the_torch_modules_on_the_meta_device(config, tied, bias):
    with torch.device("meta"):
        model = Shell(config, tied, bias)
    assert COUNT(**args(config, tied, bias)) == sum(p.numel() for p in model.parameters())


@pytest.mark.parametrize("config", CONFIGS)
@flags
def test_reference_agrees_with_config_and_breakdown(config, tied, bias):
    n = COUNT(**args(config, tied, bias))
    assert type(n) is int
    assert n == config.n_params(tied=tied, biases=bias)
    assert n == sum(widgets.breakdown(**args(config, tied, bias)).values())


def test_asserted_numbers():
    assert COUNT(**args(GPT2_SMALL)) == 124_439_808
    assert COUNT(**args(GPT2_SMALL, tied=False)) == 163_037_184
    assert COUNT(**args(GPT2_SMALL, bias=False)) == 124_337_664
    assert COUNT(**args(TINY)) == 107_776
    assert [COUNT(**args(c)) for c in GPT2_FAMILY.values()] == [
        124_439_808, 354_823_168, 774_030_080, 1_557_611_200]
    assert COUNT(**args(GPT3_175B)) == 174_604_259_328
    padded = GPTConfig(50_304, 1024, 12, 768, 12)
    assert COUNT(**args(padded)) == 124_475_904


def test_the_tied_count_from_real_arrays():
    assert ng.count_params(ng.init_params(TINY, seed=0)) == COUNT(**args(TINY))


def test_a_learner_written_slip_is_named():
    def count_gpt2_params(V, T, d, L, tied=True, bias=True):
        block = 12 * d * d + (13 * d if bias else 2 * d)
        final = 2 * d if bias else d
        return V * d + T * d + L * block + final + V * d     # the head counted even when tied

    v = evaluate(count_gpt2_params)
    assert v.status == "failed" and v.mistakes == ["tied matrix counted twice"]

    def count_gpt2_params(V, T, d, L, tied=True, bias=True):  # noqa: F811
        ln = 2 * d if bias else 0      # a LayerNorm: gain and bias, but the gain dropped with bias=False
        return int(np.int64(V * d + T * d + L * (12 * d * d + 9 * d * bias + 2 * ln) + ln + (0 if tied else V * d)))

    v = evaluate(count_gpt2_params)
    assert v.status == "failed" and v.mistakes == ["bias=False also removes the LayerNorm gains"]


def test_a_numpy_integer_passes():
    def count_gpt2_params(V, T, d, L, tied=True, bias=True):
        return np.int64(COUNT(V, T, d, L, tied, bias))

    assert evaluate(count_gpt2_params).status == "passed"


# ------------------------------------------------------------------ the explorer
def test_breakdown_groups():
    parts = widgets.breakdown(**args(GPT2_SMALL))
    assert parts == {"embeddings": 39_383_808, "untied head": 0, "attention": 12 * (1_771_776 + 590_592),
                     "MLP": 12 * (2_362_368 + 2_360_064), "LayerNorms": 12 * 3_072 + 1_536}
    untied = widgets.breakdown(**args(GPT2_SMALL, tied=False))
    assert untied["untied head"] == 38_597_376
    assert widgets.breakdown(**args(GPT2_SMALL, bias=False))["LayerNorms"] == 25 * 768
    assert widgets.memory_bytes(124_439_808) == {"float32": 497_759_232, "bfloat16": 248_879_616}


def test_the_memory_is_shown_in_the_unit_that_fits_it():
    """The tiny preset's weights (about 0.4 MB) read as MB, not '0.00 GB'; GPT-2 small's as MB,
    GPT-3's as GB: always two or three significant figures, never a zero."""
    assert widgets.readable_bytes(497_759_232) == "497.8 MB"
    assert widgets.readable_bytes(431_104) == "431.1 KB" and widgets.readable_bytes(4_311_040) == "4.31 MB"
    assert widgets.readable_bytes(698_400_000_000) == "698.4 GB" and widgets.readable_bytes(512) == "512 bytes"
    tiny = widgets.summary_text(widgets.breakdown(**args(widgets.PRESETS["course tiny model"])))
    assert " 0.00 " not in tiny and re.search(r"weights alone: [\d.]+ (KB|MB) in float32", tiny), tiny


def _shown_count(explorer) -> int:
    return int(re.search(r"([\d,]+) parameters", explorer.summary.value).group(1).replace(",", ""))


def test_moving_a_slider_changes_the_displayed_count():
    box = widgets.parameter_explorer()
    e = box.explorer
    assert _shown_count(e) == 124_439_808 and bytes(e.chart.value).startswith(b"\x89PNG")
    before = bytes(e.chart.value)
    e.L.value = 24
    assert _shown_count(e) == COUNT(50257, 1024, 768, 24) and bytes(e.chart.value) != before
    e.d.value = 1024
    assert _shown_count(e) == 354_823_168
    e.tied.value = False
    assert _shown_count(e) == 354_823_168 + 50257 * 1024
    e.bias.value = False
    assert _shown_count(e) == COUNT(50257, 1024, 1024, 24, tied=False, bias=False)
    e.V.value, e.T.value = 1000, 64
    assert _shown_count(e) == COUNT(1000, 64, 1024, 24, tied=False, bias=False)


@pytest.mark.parametrize("preset", list(widgets.PRESETS))
def test_presets_set_the_sliders(preset):
    e = widgets.parameter_explorer().explorer
    e.tied.value = False
    e.preset.value = preset
    c = widgets.PRESETS[preset]
    assert (e.V.value, e.T.value, e.d.value, e.L.value, e.tied.value) == (
        c.vocab_size, c.block_size, c.n_embd, c.n_layer, True)
    assert _shown_count(e) == COUNT(**args(c))
    assert "float32" in e.summary.value and "bfloat16" in e.summary.value


# ------------------------------------------------------------------ the notebooks
LESSON = ROOT / "notebooks" / "05_counting.ipynb"
SOLUTIONS = ROOT / "solutions" / "05_counting_exercises.ipynb"


def test_widget_cell_is_ignored_by_nbval_and_static_cells_have_outputs():
    cells = [c for c in nbformat.read(LESSON, as_version=4).cells if c.cell_type == "code"]
    widget_cells = [c for c in cells if "parameter_explorer()" in c.source]
    assert len(widget_cells) == 1
    assert "nbval-ignore-output" in widget_cells[0].metadata.get("tags", [])
    assert all(c.outputs for c in cells if c.source.strip())
    assert any(o.get("data", {}).get("image/png") for c in cells for o in c.outputs)


def test_lesson_counts_without_n_params_or_the_exercise():
    """In the student release the lesson must not lean on the answer shipped in config.py."""
    source = "\n".join(c.source for c in nbformat.read(LESSON, as_version=4).cells if c.cell_type == "code")
    assert "n_params" not in source and "count_gpt2_params" not in source
    assert "torch.device(\"meta\")" in source and "param_shapes" in source
    last = nbformat.read(LESSON, as_version=4).cells[-1].source
    assert "[exercises/05_counting_exercises.ipynb](../exercises/05_counting_exercises.ipynb)" in last


def test_no_solution_line_in_shipped_code():
    from grader import notebook as nbk

    lines = set()  # every lesson's solutions: a lesson cell must not quote any of them
    for cell in (c for path in (ROOT / "solutions").glob("*.ipynb") for c in nbk.read(path).cells):
        src = nbk.cell_source(cell)
        for start, end in nbk.solution_regions(src) if nbk.EXERCISE_TAG in nbk.tags(cell) else []:
            lines |= {ln.strip() for ln in src.splitlines()[start + 1:end] if len(ln.strip()) > 15
                      and not ln.strip().startswith("#") and not ln.strip().endswith(("(", "[", "{"))}
    shipped = [(ROOT / "gpt2course" / name).read_text() for name in ("widgets.py", "config.py")]
    shipped.append("\n".join(c.source for c in nbformat.read(LESSON, as_version=4).cells))
    for text in shipped:
        assert not lines & {ln.strip() for ln in text.splitlines()}

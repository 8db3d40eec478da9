"""An interactive explorer of where a GPT-2's parameters live (lesson 05).

`breakdown` is a pure function: it reads the parameter tensors' shapes
(`numpy_gpt.param_shapes`, no arrays are allocated) and sums them by group,
so the explorer, the lesson and the tests agree by construction. The widget
only calls it and shows the result.
"""
from __future__ import annotations

import io
import math

from .config import GPT2_FAMILY, GPT3_175B, TINY, GPTConfig
from .numpy_gpt import param_shapes

GROUPS = ("embeddings", "untied head", "attention", "MLP", "LayerNorms")
COLOURS = {"embeddings": "#4C72B0", "untied head": "#8172B3", "attention": "#DD8452",
           "MLP": "#55A868", "LayerNorms": "#C44E52"}
BYTES = {"float32": 4, "bfloat16": 2}
PRESETS = {
    "GPT-2 small": GPT2_FAMILY["gpt2"],
    "GPT-2 medium": GPT2_FAMILY["gpt2-medium"],
    "GPT-2 large": GPT2_FAMILY["gpt2-large"],
    "GPT-2 XL": GPT2_FAMILY["gpt2-xl"],
    "GPT-3 175B": GPT3_175B,
    "course tiny model": TINY,
}


def _group(name: str) -> str:
    if name in ("wte", "wpe"):
        return "embeddings"
    if ".ln_" in name or name.startswith("ln_f."):
        return "LayerNorms"
    return "attention" if ".attn." in name else "MLP"


def breakdown(V: int, T: int, d: int, L: int, tied: bool = True, bias: bool = True) -> dict[str, int]:
    """Parameters per group, read off the tensors' shapes.

    An untied head is one more (V, d) matrix without a bias; bias=False drops
    every tensor named *.bias (LayerNorm biases included) and keeps the gains.
    """
    config = GPTConfig(vocab_size=V, block_size=T, n_layer=L, n_embd=d, n_head=1)
    counts = dict.fromkeys(GROUPS, 0)
    for name, shape in param_shapes(config).items():
        if bias or not name.endswith(".bias"):
            counts[_group(name)] += math.prod(shape)
    if not tied:
        counts["untied head"] = V * d
    return counts


def memory_bytes(n: int) -> dict[str, int]:
    """Bytes for the weights alone, per storage dtype."""
    return {dtype: n * size for dtype, size in BYTES.items()}


def summary_text(counts: dict[str, int]) -> str:
    total = sum(counts.values())
    parts = ", ".join(f"{g} {counts[g] / total:.1%}" for g in GROUPS if counts[g])
    mem = ", ".join(f"{b / 1e9:,.2f} GB in {dtype}" for dtype, b in memory_bytes(total).items())
    return f"{total:,} parameters ({parts}); weights alone: {mem}"


def bar_figure(counts: dict[str, int], title: str = ""):
    """One stacked horizontal bar, in millions of parameters (no pyplot state)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 1.9))
    ax = fig.add_subplot()
    left = 0.0
    for g in GROUPS:
        width = counts[g] / 1e6
        if width:
            ax.barh([0], [width], left=left, color=COLOURS[g], label=g)
            left += width
    ax.set_yticks([])
    ax.set_xlabel("millions of parameters")
    ax.set_xlim(0, left * 1.001 or 1)
    ax.set_title(title, fontsize=10)
    ax.legend(ncol=len(GROUPS), fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.55), frameon=False)
    fig.subplots_adjust(bottom=0.5, top=0.8, left=0.03, right=0.97)
    return fig


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    return buffer.getvalue()


class ParameterExplorer:
    """Sliders for V, T, d and L, switches for the head and the biases, presets.

    Every change recomputes `breakdown` and redraws: `summary.value` holds the
    count and the memory, `chart.value` the stacked bar as a PNG.
    """

    def __init__(self, config: GPTConfig = GPT2_FAMILY["gpt2"]):
        import ipywidgets as w

        style = {"description_width": "150px"}
        layout = w.Layout(width="560px")
        self.V = w.IntSlider(config.vocab_size, 2, 100_000, 1, description="vocabulary V", style=style, layout=layout)
        self.T = w.IntSlider(config.block_size, 1, 8192, 1, description="block size T", style=style, layout=layout)
        self.d = w.IntSlider(config.n_embd, 16, 12_288, 16, description="width d", style=style, layout=layout)
        self.L = w.IntSlider(config.n_layer, 1, 96, 1, description="layers L", style=style, layout=layout)
        self.tied = w.Checkbox(True, description="tied head (head = wte)")
        self.bias = w.Checkbox(True, description="biases")
        self.preset = w.Dropdown(options=["custom"] + list(PRESETS), value="custom", description="preset")
        self.summary = w.HTML()
        self.chart = w.Image(format="png")
        self._applying = False
        for control in (self.V, self.T, self.d, self.L, self.tied, self.bias):
            control.observe(self._changed, names="value")
        self.preset.observe(self._apply_preset, names="value")
        self.widget = w.VBox([self.preset, self.V, self.T, self.d, self.L,
                              w.HBox([self.tied, self.bias]), self.summary, self.chart])
        self.update()

    def counts(self) -> dict[str, int]:
        return breakdown(self.V.value, self.T.value, self.d.value, self.L.value,
                         self.tied.value, self.bias.value)

    def update(self) -> None:
        counts = self.counts()
        self.total = sum(counts.values())
        self.summary.value = f"<b>{summary_text(counts)}</b>"
        title = f"V={self.V.value:,}  T={self.T.value:,}  d={self.d.value:,}  L={self.L.value}"
        self.chart.value = _png(bar_figure(counts, title))

    def _changed(self, change) -> None:
        if not self._applying:
            self.update()

    def _apply_preset(self, change) -> None:
        config = PRESETS.get(change["new"])
        if config is None:
            return
        self._applying = True
        try:
            self.V.value, self.T.value = config.vocab_size, config.block_size
            self.d.value, self.L.value = config.n_embd, config.n_layer
            self.tied.value, self.bias.value = True, True
        finally:
            self._applying = False
        self.update()


def parameter_explorer(config: GPTConfig = GPT2_FAMILY["gpt2"]):
    """The explorer's widget, ready to display (its `.explorer` attribute holds the controls)."""
    explorer = ParameterExplorer(config)
    explorer.widget.explorer = explorer
    return explorer.widget

"""Interactive widgets: where a GPT-2's parameters live (lesson 05), and a column picker
for position tables (lesson 07).

`breakdown` is a pure function: it reads the parameter tensors' shapes
(`numpy_gpt.param_shapes`, no arrays are allocated) and sums them by group,
so the explorer, the lesson and the tests agree by construction. The widget
only calls it and shows the result. The column picker works the same way: it
calls `positions.roughness` and `plots.column_figure`, and shows their results.
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


def readable_bytes(n: int) -> str:
    """A byte count in the unit that fits it (decimal units): 0.4 MB, not 0.00 GB."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            return f"{n / size:,.2f} {unit}" if n < 10 * size else f"{n / size:,.1f} {unit}"
    return f"{n:,} bytes"


def summary_text(counts: dict[str, int]) -> str:
    total = sum(counts.values())
    parts = ", ".join(f"{g} {counts[g] / total:.1%}" for g in GROUPS if counts[g])
    mem = ", ".join(f"{readable_bytes(b)} in {dtype}" for dtype, b in memory_bytes(total).items())
    return f"{total:,} parameters ({parts}); weights alone: {mem}"


def bar_figure(counts: dict[str, int], title: str = ""):
    """One stacked horizontal bar, in millions of parameters (no pyplot state)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(12.2, 2.0))   # 1,100 px at 90 dpi: drawn to the cell's width (the Image's layout)
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
    ax.set_title(title, fontsize=10, loc="left")
    # the legend above the bar, right-aligned: below it, it covered the axis label
    ax.legend(ncol=len(GROUPS), fontsize=8, loc="lower right", bbox_to_anchor=(1.0, 1.02), frameon=False,
              borderaxespad=0.0, handlelength=1.2, columnspacing=1.0)
    fig.subplots_adjust(bottom=0.32, top=0.68, left=0.03, right=0.97)
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
        # as wide as the cell, up to the PNG's own 1,100 px: a fixed 675 px left half a wide cell empty
        self.chart = w.Image(format="png", layout=w.Layout(width="100%", max_width="1100px"))
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


# ----------------------------------------------------------------- lesson 07: the column picker
MAX_SHOWN = 8  # columns drawn at once: more lines than this are unreadable


def picked_columns(first: int, count: int, d: int) -> list[int]:
    """``count`` neighbouring columns from ``first`` on, kept inside 0 .. d - 1 (fewer at the edge)."""
    if not 0 <= first < d or count < 1:
        raise ValueError(f"column {first} with {count} shown does not fit a table of {d} columns")
    return list(range(first, min(first + count, d)))


def columns_text(name: str, table, chosen, start: int = 0) -> str:
    """What the picker shows under its sliders: the columns and their roughness."""
    from .positions import roughness

    rough = roughness(table, start=start)
    listed = ", ".join(f"column {j} {rough[j]:.3f}" for j in chosen)
    return (f"{name} ({table.shape[0]} x {table.shape[1]}): roughness from position {start} on "
            f"(0 smooth, about 1 noise): {listed}")


class ColumnPicker:
    """A dropdown picks a table, a slider picks a column (and how many neighbours to show).

    Every change recomputes the roughness (`columns_text`), redraws the columns
    against position (`plots.column_figure`) and puts the picture in the
    `ipywidgets.Output` `output`; `summary.value` holds the text.
    """

    def __init__(self, tables: dict, first: int = 0, count: int = 3, start: int = 0):
        import ipywidgets as w

        from .positions import check_table

        if not isinstance(tables, dict):
            tables = {"table": tables}
        if not tables:
            raise ValueError("the column picker needs at least one table")
        self.tables = {name: check_table(t, name) for name, t in tables.items()}
        self.start = start
        d = self._width(next(iter(self.tables)))
        style = {"description_width": "110px"}
        layout = w.Layout(width="520px")
        self.table = w.Dropdown(options=list(self.tables), description="table", style=style)
        self.column = w.IntSlider(min(first, d - 1), 0, d - 1, 1, description="column",
                                  continuous_update=False, style=style, layout=layout)
        self.count = w.IntSlider(count, 1, MAX_SHOWN, 1, description="columns shown",
                                 continuous_update=False, style=style, layout=layout)
        self.summary = w.HTML()
        self.output = w.Output()
        self._applying = False
        self.column.observe(self._changed, names="value")
        self.count.observe(self._changed, names="value")
        self.table.observe(self._table_changed, names="value")
        self.widget = w.VBox([self.table, self.column, self.count, self.summary, self.output])
        self.update()

    def _width(self, name: str) -> int:
        return self.tables[name].shape[1]

    def chosen(self) -> list[int]:
        return picked_columns(self.column.value, self.count.value, self._width(self.table.value))

    def update(self) -> None:
        from . import plots

        name, chosen = self.table.value, self.chosen()
        table = self.tables[name]
        self.summary.value = columns_text(name, table, chosen, self.start)
        title = f"{name}: column{'s' if len(chosen) > 1 else ''} {', '.join(map(str, chosen))}"
        self.figure = plots.column_figure(table, chosen, title, start=self.start)
        self.output.outputs = (plots.png_output(self.figure),)

    def _changed(self, change) -> None:
        if not self._applying:
            self.update()

    def _table_changed(self, change) -> None:
        self._applying = True
        try:
            self.column.max = self._width(change["new"]) - 1   # ipywidgets clamps the value too
        finally:
            self._applying = False
        self.update()


def column_picker(tables, first: int = 0, count: int = 3, start: int = 0):
    """The picker's widget, ready to display (its `.picker` attribute holds the controls)."""
    picker = ColumnPicker(tables, first, count, start)
    picker.widget.picker = picker
    return picker.widget

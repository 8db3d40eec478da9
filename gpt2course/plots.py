"""Drawing position tables (lesson 07): each helper draws one panel on a Matplotlib Axes.

The helpers only draw: every number they show is computed by gpt2course.positions
(or passed in), so a lesson cell computes, asserts, then calls these to plot.
`column_figure` builds a whole Figure without pyplot's global state, for the
column picker widget, which redraws it whenever its slider moves.
"""
from __future__ import annotations

import base64
import io

import numpy as np

from . import positions

CLIP_PERCENT = 1.0  # the grey scale spans the 1st to 99th percentile: a few large entries would wash it out


def grey_image(ax, table: np.ndarray, title: str = "") -> None:
    """The (T, d) table as a grey-scale image: a row per position, a column per feature."""
    table = positions.check_table(table)
    lo, hi = np.percentile(table, [CLIP_PERCENT, 100 - CLIP_PERCENT])
    # nearest: every pixel is one real entry; smoothing would blend neighbouring features (a sin and its cos)
    ax.imshow(table, cmap="gray", vmin=lo, vmax=hi, aspect="auto", interpolation="nearest")
    ax.set_xlabel("column (feature)")
    ax.set_ylabel("position t")
    ax.set_title(title, fontsize=10)


def columns(ax, table: np.ndarray, chosen, title: str = "", start: int = 0, legend_beside: bool = False) -> None:
    """Chosen columns of the table against position, each labelled with its roughness; the legend
    inside the axes, or beside them (a figure of its own: with six curves no corner is free)."""
    table = positions.check_table(table)
    rough = positions.roughness(table, start=min(start, table.shape[0] - 2))
    t = np.arange(table.shape[0])
    for j in chosen:
        ax.plot(t, table[:, j], lw=1.2, label=f"column {j} (roughness {rough[j]:.3f})")
    ax.axhline(0.0, color="grey", lw=0.5)
    ax.set_xlabel("position t")
    ax.set_ylabel("value")
    ax.set_title(title, fontsize=10)
    if legend_beside:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, borderaxespad=0.0)
    else:
        ax.legend(fontsize=7, loc="best")


def heatmap(ax, similarity: np.ndarray, title: str = ""):
    """A (T, T) cosine similarity matrix, -1 (blue) to 1 (red); returns the image, for a colour bar."""
    # antialiased: a 1024 x 1024 matrix drawn in fewer pixels is averaged, not sampled
    im = ax.imshow(similarity, cmap="RdBu_r", vmin=-1.0, vmax=1.0, interpolation="antialiased")
    ax.set_xlabel("position t")
    ax.set_ylabel("position s")
    ax.set_title(title, fontsize=10)
    return im


def path_2d(ax, projections: np.ndarray, title: str = ""):
    """Each position as a point (first two principal components), coloured by position and
    joined in order, so the curve the rows follow shows; returns the points, for a colour bar."""
    t = np.arange(projections.shape[0])
    ax.plot(projections[:, 0], projections[:, 1], color="lightgrey", lw=0.8, zorder=1)
    dots = ax.scatter(projections[:, 0], projections[:, 1], c=t, cmap="viridis", s=8, zorder=2)
    ax.annotate("t = 0", projections[0, :2], textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.set_xlabel("component 1")
    ax.set_ylabel("component 2")
    ax.set_title(title, fontsize=10)
    return dots


def path_3d(ax, projections: np.ndarray, title: str = "") -> None:
    """The same in three components (ax from add_subplot(..., projection="3d"))."""
    t = np.arange(projections.shape[0])
    ax.plot(projections[:, 0], projections[:, 1], projections[:, 2], color="lightgrey", lw=0.8)
    ax.scatter(projections[:, 0], projections[:, 1], projections[:, 2], c=t, cmap="viridis", s=6)
    ax.set_xlabel("1", labelpad=-8)
    ax.set_ylabel("2", labelpad=-8)
    ax.set_zlabel("3", labelpad=-8)
    ax.tick_params(labelsize=6, pad=-2)
    ax.set_title(title, fontsize=10)


def column_figure(table: np.ndarray, chosen, title: str = "", start: int = 0):
    """A Figure (no pyplot state) with the chosen columns against position."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(13.75, 3.6))   # 1,100 px at the widget's 80 dpi: a wide cell's width (a narrow
    # cell shrinks it: JupyterLab draws output images at most as wide as the cell)
    columns(fig.add_subplot(), table, chosen, title, start=start, legend_beside=True)
    fig.tight_layout()
    return fig


def png_output(fig, dpi: int = 80) -> dict:
    """A figure as one Jupyter display_data output (what an ipywidgets.Output shows)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return {"output_type": "display_data", "metadata": {},
            "data": {"image/png": base64.b64encode(buffer.getvalue()).decode("ascii"),
                     "text/plain": f"<Figure: {fig.axes[0].get_title() if fig.axes else ''}>"}}

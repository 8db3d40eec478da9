"""gpt2course/positions.py, plots.py and the column picker of widgets.py (lesson 07).

Each number is checked against a second, independent computation: an element-by-element
formula, an explicit loop, PyTorch, or PCA by eigendecomposition of the covariance where
the module uses the SVD. Never a value the code under test produced itself.
"""
from __future__ import annotations

import base64
import math

import matplotlib
import numpy as np
import pytest
import torch

from gpt2course import plots, positions, widgets

matplotlib.use("Agg")


def smooth_table(T, d, seed=0, dtype=np.float64, noise=0.01, jumps=3):
    """A GPT-2-like table: slow waves per column, a little noise, the first rows apart."""
    rng = np.random.default_rng(seed)
    t = np.arange(T)[:, None] / T
    table = np.cos(2 * np.pi * (rng.uniform(0.2, 2.0, d) * t + rng.uniform(0, 1, d))) * rng.uniform(0.05, 0.2, d)
    table += noise * rng.standard_normal((T, d))
    table[:jumps] += 0.5 * rng.standard_normal((jumps, d))
    return table.astype(dtype)


def random_table(T, d, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((T, d)) * np.linspace(2.0, 0.2, d) + rng.standard_normal(d)).astype(dtype)


# ------------------------------------------------------------------ sinusoidal_positions
@pytest.mark.parametrize("T, d, base", [(1, 2, 10_000.0), (7, 4, 10_000.0), (33, 10, 100.0), (50, 64, 500.0)])
def test_sinusoids_element_by_element(T, d, base):
    table = positions.sinusoidal_positions(T, d, base)
    assert table.shape == (T, d) and table.dtype == np.float64
    for t in range(T):
        for j in range(d):
            i = j // 2
            angle = t / base ** (2 * i / d)
            want = math.sin(angle) if j % 2 == 0 else math.cos(angle)
            assert abs(table[t, j] - want) < 1e-12, (t, j)


def test_sinusoids_against_torch():
    """The layout written another way: frequencies as exp(-log(base) 2i/d), sin and cos stacked
    and interleaved by a reshape."""
    T, d = 1024, 768
    pos = torch.arange(T, dtype=torch.float64)[:, None]
    freq = torch.exp(-math.log(10_000.0) * torch.arange(0, d, 2, dtype=torch.float64) / d)
    pairs = torch.stack([torch.sin(pos * freq), torch.cos(pos * freq)], dim=-1)   # (T, d/2, 2)
    want = pairs.reshape(T, d).numpy()
    assert np.abs(positions.sinusoidal_positions(T, d) - want).max() < 1e-9


@pytest.mark.parametrize("d", [1, 3, 9])
def test_sinusoids_refuse_an_odd_width(d):
    with pytest.raises(ValueError, match=f"d={d}"):
        positions.sinusoidal_positions(5, d)


# ------------------------------------------------------------------ position_similarity
def cosine_loop(table):
    T = table.shape[0]
    rows = table.astype(np.float64).tolist()
    out = np.empty((T, T))
    for s in range(T):
        for t in range(T):
            dot = sum(a * b for a, b in zip(rows[s], rows[t]))
            out[s, t] = dot / math.sqrt(sum(a * a for a in rows[s]) * sum(b * b for b in rows[t]))
    return out


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-12), (np.float32, 1e-5)])
def test_similarity_against_a_loop_and_torch(dtype, tol):
    table = random_table(17, 6, dtype=dtype)
    before = table.copy()
    sim = positions.position_similarity(table)
    assert sim.dtype == dtype and sim.shape == (17, 17)
    assert np.array_equal(table, before)                       # the input is left alone
    assert np.abs(sim - cosine_loop(table)).max() < tol
    x = torch.from_numpy(table.astype(np.float64))
    by_torch = torch.nn.functional.cosine_similarity(x[:, None, :], x[None, :, :], dim=-1).numpy()
    assert np.abs(sim - by_torch).max() < tol


@pytest.mark.parametrize("bad, error", [(np.ones(5), ValueError), (np.ones((2, 3, 4)), ValueError),
                                        (np.ones((3, 4), dtype=int), TypeError), ([[1.0, 2.0]], TypeError),
                                        (np.ones((0, 4)), ValueError)])
def test_tables_are_checked(bad, error):
    with pytest.raises(error):
        positions.position_similarity(bad)


# ------------------------------------------------------------------ principal_components
def pca_by_eigh(table, k):
    """PCA the other way: eigenvectors of the (d, d) covariance, largest eigenvalue first,
    the same sign convention applied with a loop."""
    x = table.astype(np.float64)
    centred = x - x.sum(axis=0) / len(x)
    values, vectors = np.linalg.eigh(np.cov(centred, rowvar=False))
    order = np.argsort(values)[::-1][:k]
    directions = vectors[:, order]
    for j in range(k):
        if directions[np.argmax(np.abs(directions[:, j])), j] < 0:
            directions[:, j] = -directions[:, j]
    return centred @ directions, values[order] / values.sum()


@pytest.mark.parametrize("T, d, k", [(40, 6, 3), (64, 64, 3), (200, 16, 16), (10, 20, 4), (5, 2, 1)])
def test_pca_against_the_covariance_eigenvectors(T, d, k):
    table = random_table(T, d, seed=T + d)
    got = positions.principal_components(table, k)
    want, share = pca_by_eigh(table, k)
    assert got.shape == (T, k) and got.dtype == np.float64
    assert np.abs(got - want).max() < 1e-8 * np.abs(want).max()
    assert np.allclose(positions.variance_share(table, got), share, rtol=1e-8)


def test_pca_float32_stays_float32_and_the_input_is_left_alone():
    table = random_table(30, 8, dtype=np.float32)
    before = table.copy()
    got = positions.principal_components(table, 3)
    assert got.dtype == np.float32 and np.array_equal(table, before)
    assert np.abs(got - pca_by_eigh(table, 3)[0]).max() < 1e-5


def test_pca_properties():
    table = random_table(80, 12, seed=3)
    p = positions.principal_components(table, 12)
    assert np.allclose(p.mean(axis=0), 0.0, atol=1e-12)                       # centred
    assert np.all(np.diff(p.var(axis=0)) < 0)                                   # largest first
    assert np.allclose(np.corrcoef(p, rowvar=False), np.eye(12), atol=1e-10)   # uncorrelated
    assert np.isclose(positions.variance_share(table, p).sum(), 1.0)           # all of it, with k = d
    # the sign convention: -table has the same directions, so its projections are negated
    assert np.allclose(positions.principal_components(-table, 4), -p[:, :4])
    # and a shifted table (another mean row) has the same projections
    assert np.allclose(positions.principal_components(table + 5.0, 4), p[:, :4])


@pytest.mark.parametrize("k, T, d", [(0, 6, 4), (5, 6, 4), (7, 6, 10)])
def test_pca_refuses_k_out_of_range(k, T, d):
    with pytest.raises(ValueError, match=rf"k={k}.*{min(T, d)}"):
        positions.principal_components(random_table(T, d), k)


def test_pca_refuses_a_non_integer_k():
    with pytest.raises(TypeError):
        positions.principal_components(random_table(6, 4), 2.0)


# ------------------------------------------------------------------ measurements
def roughness_loop(column):
    c = [float(v) for v in column]
    steps = [(c[t + 1] - c[t]) ** 2 for t in range(len(c) - 1)]
    mean = sum(c) / len(c)
    var = sum((v - mean) ** 2 for v in c) / len(c)
    return (sum(steps) / len(steps)) / (2 * var)


def test_roughness_against_a_loop_and_known_columns():
    table = smooth_table(60, 5, seed=1)
    for start in (0, 3):
        got = positions.roughness(table, start=start)
        assert np.allclose(got, [roughness_loop(table[start:, j]) for j in range(5)], rtol=1e-12)
    t = np.arange(4000.0)
    known = np.stack([np.random.default_rng(0).standard_normal(4000), np.sin(2 * np.pi * t / 40),
                      (-1.0) ** t, np.full(4000, 3.0)], axis=1)
    r = positions.roughness(known)
    assert abs(r[0] - 1) < 0.05 and abs(r[1] - (1 - math.cos(2 * math.pi / 40))) < 1e-3
    assert abs(r[2] - 2) < 1e-3 and r[3] == 0.0
    with pytest.raises(ValueError, match="start=9"):
        positions.roughness(table[:10], start=9)


def test_steps_moving_average_and_similarity_by_distance_against_loops():
    table = smooth_table(25, 4, seed=2)
    steps = positions.step_sizes(table)
    assert np.allclose(steps, [math.dist(table[t + 1], table[t]) for t in range(24)])
    for window in (1, 4, 5):
        avg = positions.moving_average(table, window)
        for t in range(25):
            lo, hi = max(t - window // 2, 0), min(t + (window + 1) // 2, 25)
            assert np.allclose(avg[t], table[lo:hi].mean(axis=0))
    sim = positions.position_similarity(table)
    curve = positions.similarity_by_distance(sim)
    for k in range(25):
        assert np.isclose(curve[k], np.mean([sim[t, t + k] for t in range(25 - k)]))


def test_toeplitz_gap():
    T = 30
    toeplitz = np.array([[math.cos(0.3 * abs(s - t)) for t in range(T)] for s in range(T)])
    assert positions.toeplitz_gap(toeplitz) < 1e-12
    bumped = toeplitz.copy()
    bumped[3, 7] += 0.25
    assert abs(positions.toeplitz_gap(bumped) - 0.25 * (1 - 1 / (T - 4))) < 1e-12
    with pytest.raises(ValueError, match="square"):
        positions.similarity_by_distance(np.ones((3, 4)))


def test_sinusoid_similarity_depends_on_distance_alone():
    sim = positions.position_similarity(positions.sinusoidal_positions(200, 32))
    assert positions.toeplitz_gap(sim) < 1e-12
    omega = 10_000.0 ** (-np.arange(0, 32, 2) / 32)
    want = [np.mean(np.cos(k * omega)) for k in range(200)]     # (2/d) sum_i cos(k w_i)
    assert np.allclose(positions.similarity_by_distance(sim), want)


# ------------------------------------------------------------------ GPT-2's shape
def test_every_measurement_runs_on_a_gpt2_small_shaped_table():
    """What the lesson computes when GPT-2's weights are present: a (1024, 768) float32 table."""
    table = smooth_table(1024, 768, dtype=np.float32)
    sim = positions.position_similarity(table)
    pcs = positions.principal_components(table, 3)
    assert sim.shape == (1024, 1024) and sim.dtype == np.float32
    assert pcs.shape == (1024, 3) and pcs.dtype == np.float32
    assert np.abs(pcs - pca_by_eigh(table, 3)[0]).max() < 1e-4 * np.abs(pcs).max()
    for values in (positions.roughness(table, 4), positions.step_sizes(table),
                   positions.similarity_by_distance(sim), positions.variance_share(table, pcs)):
        assert np.all(np.isfinite(values))
    steps = positions.step_sizes(table)
    assert steps[0] > 10 * np.median(steps)        # the synthetic table's first rows are apart


def test_plot_helpers_draw_a_gpt2_shaped_table():
    from matplotlib.figure import Figure

    table = smooth_table(1024, 768, dtype=np.float32)
    fig = Figure()
    plots.grey_image(fig.add_subplot(2, 3, 1), table, "image")
    plots.columns(fig.add_subplot(2, 3, 2), table, [0, 5], "columns", start=4)
    plots.heatmap(fig.add_subplot(2, 3, 3), positions.position_similarity(table[:64]))
    pcs = positions.principal_components(table, 3)
    plots.path_2d(fig.add_subplot(2, 3, 4), pcs)
    plots.path_3d(fig.add_subplot(2, 3, 5, projection="3d"), pcs)
    out = plots.png_output(fig)
    assert out["output_type"] == "display_data"
    assert base64.b64decode(out["data"]["image/png"]).startswith(b"\x89PNG")
    image = fig.axes[0].images[0]
    lo, hi = np.percentile(table, [1, 99])
    assert np.isclose(image.norm.vmin, lo) and np.isclose(image.norm.vmax, hi)


# ------------------------------------------------------------------ the column picker
def test_picked_columns():
    assert widgets.picked_columns(0, 3, 64) == [0, 1, 2]
    assert widgets.picked_columns(62, 3, 64) == [62, 63]
    with pytest.raises(ValueError):
        widgets.picked_columns(64, 1, 64)


def _png(picker) -> bytes:
    (output,) = picker.output.outputs
    return base64.b64decode(output["data"]["image/png"])


def test_moving_the_column_slider_redraws():
    tables = {"GPT-2 small": smooth_table(1024, 768, dtype=np.float32), "tiny model": smooth_table(64, 64, seed=1)}
    box = widgets.column_picker(tables, first=5, count=2, start=4)
    p = box.picker
    assert [type(c).__name__ for c in box.children] == ["Dropdown", "IntSlider", "IntSlider", "HTML", "Output"]
    assert (p.table.description, p.column.description, p.count.description) == ("table", "column", "columns shown")
    assert p.column.max == 767 and p.chosen() == [5, 6]
    rough = positions.roughness(tables["GPT-2 small"], start=4)
    assert f"column 5 {rough[5]:.3f}" in p.summary.value and f"column 6 {rough[6]:.3f}" in p.summary.value
    first = _png(p)
    assert first.startswith(b"\x89PNG")

    p.column.value = 100
    assert p.chosen() == [100, 101] and "column 100 " in p.summary.value and "column 5 " not in p.summary.value
    assert _png(p) != first
    lines = [line.get_ydata() for line in p.figure.axes[0].get_lines() if len(line.get_ydata()) == 1024]
    assert np.array_equal(lines[0], tables["GPT-2 small"][:, 100])      # the figure draws that column

    p.count.value = 5
    assert p.chosen() == [100, 101, 102, 103, 104] and len(p.output.outputs) == 1

    p.table.value = "tiny model"
    assert p.column.max == 63 and p.column.value == 63 and p.chosen() == [63]
    assert p.summary.value.startswith("tiny model (64 x 64)")


def test_the_picker_takes_a_bare_table():
    p = widgets.column_picker(smooth_table(64, 64)).picker
    assert p.table.options == ("table",) and p.chosen() == [0, 1, 2]

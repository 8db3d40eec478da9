"""a16 ast_bomb.

Route: the JSON is small in tokens (one string per cell, no brackets or commas in it, so the
bracket/comma budget is not hit) but a cell's source is millions of tiny Python nodes: 140 cells
of just under the 100,000-character cell cap, each ~33,000 one-character statements (` a` under
`if 0:`, 3 bytes of text -> two AST nodes of ~100+ bytes each), after a correct gelu_tanh, and an `mlp` whose default is `0+0+...+0` 49,000 terms deep
(a left-deep BinOp chain: recursion in any walk over the tree). One learner hands in five such
notebooks (lessons 01, 02, 07 and two of lesson 03): a per-notebook reading budget multiplies. Reducing a notebook to
its definitions parses every cell in the trusted grader; AST objects dwarf the text.
Goal (3): unbounded memory/time in the trusted grader.
Breached: the grader's own peak RSS >= 500 MB, planning >= 5 s, or the grader fails.
"""
import pathlib
from _common import write_nb, LESSON_FILES, GOOD


def build(tmp: pathlib.Path) -> list[str]:
    filler = ["if 0:\n" + " a\n" * 33_000 for _ in range(140)]
    cell2 = "def mlp(x, w_fc, b_fc, w_proj, b_proj, _t=" + "0+" * 49_000 + "0):\n    return x\n"
    cells = [GOOD["gelu_tanh"], cell2] + filler
    write_nb(tmp / "eve" / LESSON_FILES["03_mlp_block"], "03_mlp_block", cells)
    # the same weight again: a second notebook of lesson 03 and one each of lessons 01, 02, 07
    write_nb(tmp / "eve" / "again" / LESSON_FILES["03_mlp_block"], "03_mlp_block", cells)
    for lesson, name in (("01_embeddings", "embed"), ("02_attention", "layer_norm"),
                         ("07_position_embeddings", "sinusoidal_positions")):
        write_nb(tmp / "eve" / LESSON_FILES[lesson], lesson, [GOOD[name]] + filler)
    return [str(tmp / "eve"), "--lessons", "01_embeddings,02_attention,03_mlp_block,07_position_embeddings"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    peak = run.get("peak_rss_mb") or 0
    plan = run.get("planning_seconds")
    if run.get("returncode") != 0 or not (out / "gradebook.csv").exists():
        return True, f"grader failed (rc {run.get('returncode')}), peak {peak:.0f} MB"
    if peak >= 500:
        return True, f"grader peak RSS {peak:.0f} MB >= 500 MB (planning {plan})"
    if plan is not None and plan >= 5:
        return True, f"planning took {plan:.1f} s"
    return False, f"grader peak {peak:.0f} MB, planning {plan}"

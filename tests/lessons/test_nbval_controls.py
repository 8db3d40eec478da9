"""nbval's controls live in cell tags, never in the code learners read (issue 29): no cell
of notebooks/, solutions/ or exercises/ holds a marker comment such as `# NBVAL_IGNORE_OUTPUT`,
and every nbval tag a cell carries is one nbval acts on (read with nbval's own functions,
so a misspelt tag, which nbval ignores without a word, fails here)."""
from pathlib import Path

import pytest
from nbval.plugin import find_comment_markers, find_metadata_tags

from grader import notebook as nbk

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p for folder in ("notebooks", "solutions", "exercises") for p in (ROOT / folder).glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_nbval_is_controlled_by_tags_only(path):
    comments, unknown = [], []
    for i, cell in enumerate(nbk.read(path).cells):
        if cell.cell_type != "code":
            continue
        if list(find_comment_markers(nbk.cell_source(cell))):
            comments.append(i)
        tags = [t for t in nbk.tags(cell) if t.startswith("nbval")]
        if len(list(find_metadata_tags({"tags": tags}))) != len(tags):
            unknown.append((i, tags))
    assert not comments, f"cells {comments} control nbval with a comment: tag them instead (nbval-ignore-output)"
    assert not unknown, f"tags nbval does not know (it would ignore them): {unknown}"


def test_the_check_recognises_what_nbval_reads():
    assert list(find_comment_markers("# NBVAL_IGNORE_OUTPUT\nx = 1")) == [("check", False)]
    assert list(find_metadata_tags({"tags": ["nbval-ignore-output", "nbval-skip"]})) == [("check", False),
                                                                                       ("skip", True)]
    assert list(find_metadata_tags({"tags": ["nbval-ignore-outputs"]})) == []

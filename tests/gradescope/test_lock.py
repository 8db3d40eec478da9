"""What the autograder installs (grader/gradescope/lock.py): the student edition's lock, its own
pins and hashes, closed under the dependencies the installed packages declare, torch only for a
lesson whose grading loads it."""
import importlib.metadata

import pytest
from packaging.requirements import Requirement

from grader.gradescope import lock


def pinned(text: str) -> dict[str, str]:
    return {lock.normalized(line.split("==")[0]): line.split("==")[1].split()[0]
            for line in text.splitlines() if "==" in line and not line.startswith(("#", " "))}


@pytest.mark.parametrize("lesson, torch", [("01_embeddings", False), ("08_training_sampling", True)])
def test_the_lock_as_the_lessons_need_it(lesson, torch):
    rest, torch_text = lock.requirements([lesson])
    got, locked = {**pinned(rest), **pinned(torch_text)}, pinned(lock.LOCK.read_text())
    assert "torch" not in pinned(rest) and (pinned(torch_text) == {"torch": locked["torch"]}) is torch
    assert torch or torch_text == ""
    assert all(locked[name] == version for name, version in got.items())
    missing = set(locked) - set(got)  # the lessons' environment, all of it but torch where unused
    assert missing == (set() if torch else {"torch", "sympy", "mpmath", "networkx", "setuptools"})
    assert {"numpy", "matplotlib", "regex", "ipython"} <= set(got)
    entries = {**lock.read_lock(rest), **lock.read_lock(torch_text)}
    assert all(e.pin[0].endswith("\\") and all(h.strip().startswith("--hash=sha256:") for h in e.pin[1:])
               for e in entries.values())  # every file hash-checked, as --require-hashes wants
    needed = []  # what pip check would find missing on Gradescope
    for name in got:
        for requirement in map(Requirement, importlib.metadata.distribution(name).requires or []):
            if not (requirement.marker and not requirement.marker.evaluate({"extra": ""})):
                if lock.normalized(requirement.name) not in got:
                    needed.append(f"{name} needs {requirement}")
    assert needed == []


def test_the_via_lines_are_read_in_both_of_uv_s_layouts():
    text = """a==1 \\
    --hash=sha256:aa
    # via b
b==2 \\
    --hash=sha256:bb
    # via
    #   -c requirements/test.lock
    #   gpt2-exactly (pyproject.toml)
c==3 \\
    --hash=sha256:cc
    # via
    #   a
    #   b
"""
    entries = lock.read_lock(text)
    assert {n: e.parents for n, e in entries.items()} == {"a": {"b"}, "b": {lock.COURSE}, "c": {"a", "b"}}
    assert lock.closure(entries, {"b"}) == {"a", "b", "c"} and lock.closure(entries, {"c"}) == {"c"}
    assert lock.without(entries, "a") == {"b", "c"} and lock.without(entries, "b") == set()

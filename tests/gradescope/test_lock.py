"""What the autograder installs (grader/gradescope/lock.py): the lock's own pins and hashes, closed
under the dependencies the installed packages declare, torch only for a lesson that needs it."""
import importlib.metadata

from packaging.requirements import Requirement

from grader.gradescope import lock


def pinned(text: str) -> dict[str, str]:
    return {lock.normalized(line.split("==")[0]): line.split("==")[1].split()[0]
            for line in text.splitlines() if "==" in line and not line.startswith(("#", " "))}


def test_lesson_08_brings_torch_and_its_index_and_everything_it_needs():
    text, torch = lock.requirements(["08_training_sampling"])
    assert torch and f"--extra-index-url {lock.TORCH_CPU_INDEX}" in text
    got, locked = pinned(text), pinned(lock.LOCK.read_text())
    assert got["torch"].endswith("+cpu") and all(locked[name] == version for name, version in got.items())
    for name in got:  # every entry hash-checked, as pip --require-hashes wants
        entry = lock.read_lock(text)[name]
        assert entry.pin[0].endswith("\\") and all(h.strip().startswith("--hash=sha256:") for h in entry.pin[1:])
    needed = []  # what pip check would find missing on Gradescope
    for name in got:
        for requirement in map(Requirement, importlib.metadata.distribution(name).requires or []):
            if not (requirement.marker and not requirement.marker.evaluate({"extra": ""})):
                if lock.normalized(requirement.name) not in got:
                    needed.append(f"{name} needs {requirement}")
    assert needed == []
    assert "jupyterlab" not in got and "transformers" not in got  # the lessons' tools, not grading's


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
    assert {n: e.parents for n, e in entries.items()} == {"a": {"b"}, "b": set(), "c": {"a", "b"}}
    assert lock.closure(entries, {"b"}) == {"a", "b", "c"} and lock.closure(entries, {"c"}) == {"c"}

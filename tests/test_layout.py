"""The layout's rules, read from the source's imports (ARCHITECTURE.md states them):
gpt2course never imports grader; what runs behind the walls imports only the standard library
and itself; judging never imports batch or release; no two modules import each other, even
from inside a function. Each rule is also shown catching a planted violation."""
import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSIDE = "grader.batch.sandbox.inside"
LOADED_INSIDE = "_grader_"  # the names inside/'s files are loaded under behind the walls (zygote.load_file)


def modules(root: Path) -> dict[str, Path]:
    return {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
            for package in ("gpt2course", "grader") for p in sorted((root / package).rglob("*.py"))}


def imports(name: str, path: Path, known) -> set[str]:
    """Every module `name` imports, at its top or inside a function, as a dotted name."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + [base] * bool(base))
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    return found


def graph(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def violations(g: dict[str, set[str]]) -> list[str]:
    found = []
    for name, deps in g.items():
        for dep in sorted(deps):
            if name.startswith("gpt2course") and dep.startswith("grader"):
                found.append(f"{name} imports {dep}: the course package never imports the grader")
            if name.startswith(INSIDE) and not (dep.split(".")[0] in sys.stdlib_module_names
                                                or dep.startswith((INSIDE, LOADED_INSIDE))):
                found.append(f"{name} imports {dep}: behind the walls only the standard library and itself")
            if name.startswith("grader.judging") and dep.startswith(("grader.batch", "grader.release")):
                found.append(f"{name} imports {dep}: judging is plain data in and out, for every edition")
    return found + [f"import cycle: {' -> '.join(c)}" for c in cycles(g)]


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each module that can reach itself (depth-first search)."""
    found, done = [], set()
    for start in sorted(g):
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for dep in sorted(g.get(node, ())):
                if dep == start and start not in done:
                    found.append(path + [start])
                    done.update(path)
                elif dep in g and dep not in seen:
                    seen.add(dep)
                    stack.append((dep, path + [dep]))
    return found


def test_the_layout_rules_hold():
    assert violations(graph(ROOT)) == []


PLANTED = {
    "course imports the grader": {"gpt2course/x.py": "from grader import notebook"},
    "numpy behind the walls": {"grader/batch/sandbox/inside/x.py": "import numpy as np"},
    "judging imports batch": {"grader/judging/x.py": "from ..batch import grade"},
    "a cycle through a function": {"grader/a.py": "from . import b",
                                   "grader/b.py": "def f():\n    from .a import g"},
}


@pytest.mark.parametrize("planted", PLANTED)
def test_each_rule_catches_a_planted_violation(tmp_path, planted):
    for name in ("gpt2course/__init__.py", "grader/__init__.py", "grader/notebook.py", "grader/batch/grade.py",
                 "grader/batch/__init__.py", "grader/batch/sandbox/inside/__init__.py", "grader/judging/__init__.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("import os\n")
    assert violations(graph(tmp_path)) == []
    for name, source in PLANTED[planted].items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source + "\n")
    assert len(violations(graph(tmp_path))) == 1


def test_every_file_a_doc_names_exists():
    """A doc that names a module, notebook or folder of the repository names one that is there."""
    docs = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]
    named = {(doc.name, m) for doc in docs
             for m in re.findall(r"[`(/]((?:gpt2course|grader|tests|scripts|benchmarks|notebooks|solutions|exercises|docs)"
                                 r"/[\w./]*\w)", doc.read_text())}
    missing = [(doc, path) for doc, path in sorted(named) if not (ROOT / path).exists() and "NN" not in path]
    assert missing == []


def _docs():
    return [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_make_target_a_doc_names_exists():
    targets = set(re.findall(r"^([\w-]+(?: [\w-]+)*):", (ROOT / "Makefile").read_text(), re.M))
    targets = {t for line in targets for t in line.split()}
    named = {(doc.name, m) for doc in _docs() for m in re.findall(r"`make ([a-z][\w-]*)", doc.read_text())}
    assert sorted((doc, t) for doc, t in named if t not in targets) == []


def test_every_grader_command_a_doc_names_exists():
    from grader.__main__ import main

    named = {(doc.name, m) for doc in _docs() for m in re.findall(r"-m grader ([a-z]+)", doc.read_text())}
    assert named, "the docs name no grader command"
    for doc, command in sorted(named):
        with pytest.raises(SystemExit) as done:
            main([command, "--help"])
        assert done.value.code == 0, (doc, command)

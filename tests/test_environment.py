"""pyproject.toml and environment.yml declare the same dependencies."""
import re
import tomllib

from conftest import ROOT

CONDA_TO_PIP = {"pytorch-cpu": "torch", "pytorch": "torch"}
CONDA_ONLY = {"python", "pip"}


def _name(spec: str) -> str:
    return re.split(r"[<>=!~ \[]", spec.strip(), maxsplit=1)[0].lower()


def pyproject_deps() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    deps = data["project"]["dependencies"] + data["project"]["optional-dependencies"]["test"]
    return {_name(d) for d in deps}


def conda_deps() -> set[str]:
    names = set()
    text = (ROOT / "environment.yml").read_text().split("\ndependencies:", 1)[1]
    for line in text.splitlines():
        m = re.match(r"^  - ([A-Za-z0-9_.-]+)", line)
        if m:
            names.add(CONDA_TO_PIP.get(m.group(1).lower(), m.group(1).lower()))
    return names - CONDA_ONLY


def test_same_dependencies():
    assert pyproject_deps() == conda_deps()


def test_required_dependencies_present():
    assert {"numpy", "torch", "matplotlib", "ipywidgets", "jupyterlab", "nbval", "pytest",
            "transformers", "safetensors"} <= pyproject_deps()


def test_readme_starts_with_the_two_commands():
    head = (ROOT / "README.md").read_text().split("\n## ", 1)[0]
    assert "make lab" in head and "make test" in head


def test_ci_runs_make_test():
    assert "make test" in (ROOT / ".ci" / "run").read_text()

"""pyproject.toml and environment.yml declare the same dependencies."""
import os
import re
import shutil
import subprocess
import tomllib

import numpy as np
import pytest
from conftest import ROOT
from packaging.specifiers import SpecifierSet

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


def pyproject_specs() -> dict[str, str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    deps = data["project"]["dependencies"] + data["project"]["optional-dependencies"]["test"]
    return {_name(d): d.strip()[len(_name(d)):].strip() for d in deps}


def conda_specs() -> dict[str, str]:
    specs = {}
    text = (ROOT / "environment.yml").read_text().split("\ndependencies:", 1)[1]
    for line in text.splitlines():
        m = re.match(r"^  - ([A-Za-z0-9_.-]+)(.*)$", line)
        if m and m.group(1).lower() not in CONDA_ONLY:
            specs[CONDA_TO_PIP.get(m.group(1).lower(), m.group(1).lower())] = m.group(2).strip()
    return specs


def test_same_version_bounds():
    assert pyproject_specs() == conda_specs()


@pytest.mark.parametrize("specs", [pyproject_specs, conda_specs], ids=["pyproject", "environment"])
def test_numpy_2_required(specs):
    """The dtype lessons rely on NEP 50 promotion, which NumPy 1.x does not follow;
    torch builds before 2.3 cannot exchange arrays with NumPy 2."""
    numpy_spec, torch_spec = SpecifierSet(specs()["numpy"]), SpecifierSet(specs()["torch"])
    assert not numpy_spec.contains("1.26.4") and numpy_spec.contains("2.0.0")
    assert not torch_spec.contains("2.2.2") and torch_spec.contains("2.3.0")


def test_installed_numpy_follows_nep50():
    """What the lessons teach: a Python float keeps float32, a NumPy float64 scalar does not."""
    x = np.ones(3, np.float32)
    assert (x * 0.5).dtype == np.float32 and (x * np.float64(0.5)).dtype == np.float64


def dry_run_lab(env=None) -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(["make", "-n", "lab"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_lab_allows_root_only_for_root():
    """Jupyter refuses to start as root without --allow-root (containers, Binder-like hosts)."""
    out = dry_run_lab()
    assert "jupyter lab" in out
    assert ("--allow-root" in out) == (os.geteuid() == 0)


@pytest.mark.parametrize("uid, allowed", [("0", True), ("1000", False)], ids=["root", "user"])
def test_make_lab_allow_root_follows_uid(tmp_path, uid, allowed):
    """Both branches on any machine: an `id` on PATH that reports the given uid."""
    fake = tmp_path / "id"
    fake.write_text(f"#!/bin/sh\necho {uid}\n")
    fake.chmod(0o755)
    out = dry_run_lab({**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"})
    lab_line = next(line for line in out.splitlines() if "jupyter lab" in line)
    assert ("--allow-root" in lab_line) == allowed

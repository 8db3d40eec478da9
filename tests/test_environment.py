"""The installation: pyproject.toml, its locks (requirements/*.lock), environment.yml, the Makefile."""
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT
from packaging.requirements import Requirement

LOCK = ROOT / "requirements" / "test.lock"
LOCKS = sorted((ROOT / "requirements").glob("*.lock"))
TORCH_CPU = "2.13.0+cpu"


def _name(spec: str) -> str:
    return re.split(r"[<>=!~ ;\[]", spec.strip(), maxsplit=1)[0].lower().replace("_", "-")


def pyproject_requirements(extras=("test",)) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["dependencies"] + [d for e in extras for d in project["optional-dependencies"][e]]


def pyproject_deps() -> set[str]:
    return {_name(d) for d in pyproject_requirements()}


def lock_entries(path: Path = LOCK) -> dict[str, tuple[str, list[str]]]:
    """name -> (version, hashes) of every entry of a lock written by `make lock`."""
    entries, current = {}, None
    for line in path.read_text().splitlines():
        if m := re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line):
            current = re.sub(r"[-_.]+", "-", m.group(1)).lower()
            entries[current] = (m.group(2), [])
        elif current and (h := re.search(r"--hash=sha256:([0-9a-f]{64})", line)):
            entries[current][1].append(h.group(1))
        elif line and not line.startswith(" "):
            current = None
    return entries


def test_required_dependencies_present():
    assert {"numpy", "torch", "matplotlib", "ipywidgets", "jupyterlab", "nbval", "pytest",
            "transformers", "safetensors"} <= pyproject_deps()


@pytest.mark.parametrize("path", LOCKS, ids=[p.stem for p in LOCKS])
def test_every_lock_pins_exact_versions_with_hashes(path):
    entries = lock_entries(path)
    assert len(entries) > 50
    assert all(hashes for _, hashes in entries.values()), [n for n, (_, h) in entries.items() if not h]
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith((" ", "#"))]
    assert all(re.match(r"^[A-Za-z0-9_.-]+==\S+ \\$", ln) for ln in lines), lines[:3]  # nothing but pins
    assert "make lock" in path.read_text().split("\n", 3)[1]  # made by the Makefile's command


@pytest.mark.parametrize("path", LOCKS, ids=[p.stem for p in LOCKS])
def test_locks_pin_the_cpu_build_of_torch_and_nothing_of_cuda(path):
    entries = lock_entries(path)
    assert entries["torch"][0] == TORCH_CPU and len(entries["torch"][1]) == 1
    assert not [n for n in entries if n.startswith(("nvidia-", "triton", "cuda-"))]


def test_the_test_lock_covers_pyproject_within_its_ranges():
    """Every dependency (and the test extra's) pinned, at a version its range allows; a new
    dependency without `make lock` fails here (and `pip check` in make)."""
    entries = lock_entries()
    for req in map(Requirement, pyproject_requirements()):
        name = req.name.lower().replace("_", "-")
        assert name in entries, f"{name} is in pyproject.toml but not in {LOCK.name}: run make lock"
        assert req.specifier.contains(entries[name][0], prereleases=True), (name, entries[name][0], str(req))


@pytest.mark.parametrize("path", [p for p in LOCKS if p != LOCK], ids=lambda p: p.stem)
def test_other_locks_share_the_test_locks_versions(path):
    test, other = lock_entries(), lock_entries(path)
    assert {n: v for n, (v, _) in other.items() if n in test} == {n: test[n][0] for n in other if n in test}


def test_base_lock_is_what_the_course_needs_to_run():
    base = lock_entries(ROOT / "requirements" / "base.lock")
    runtime = {_name(d) for d in pyproject_requirements(extras=())}
    assert runtime <= set(base) and not {"pytest", "nbval", "playwright"} & set(base)


def test_installed_versions_are_the_locks():
    """What this venv runs is what the lock says (a drifted venv would test other code)."""
    from importlib.metadata import version

    for name in ("numpy", "torch", "transformers", "jupyterlab", "nbval", "pytest"):
        assert version(name) == lock_entries()[name][0], name


def test_environment_yml_installs_the_lock():
    text = (ROOT / "environment.yml").read_text()
    assert re.search(r"^  - python=3\.11$", text, re.M)
    assert "-r requirements/test.lock" in text and "--require-hashes" in text


def dry_run(target: str, env=None) -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_installs_the_lock_with_hashes_then_the_course_without_deps():
    out = dry_run(".venv/.installed")
    assert "--require-hashes --no-deps -r .venv/lock-rest.txt" in out
    assert "--require-hashes --no-deps -r .venv/lock-torch.txt" in out
    # uv where it can be had, pip otherwise: every install of a lock, either way, checks its hashes
    installs = [line for line in out.splitlines() if "-r .venv/lock-" in line]
    assert any("uv pip install" in line for line in installs) and any("-m pip install" in line for line in installs)
    assert all(line.count("--require-hashes") == line.count("-r .venv/lock-") for line in installs), installs
    assert "--no-deps" in next(line for line in out.splitlines() if "-e ." in line)
    assert "pip check" in out
    assert not re.search(r"pip install[^\n]* torch(==| |$)", out, re.M)  # no torch outside the lock


def test_the_venv_holds_the_bytecode_of_what_the_course_imports():
    """Where PYTHONDONTWRITEBYTECODE is set no import writes a .pyc: make compiles the venv once,
    or every kernel, worker and sandbox would compile torch and Jupyter from source again."""
    import importlib.util

    import jupyter_server
    import nbformat
    import torch
    import transformers.models.gpt2.modeling_gpt2 as modeling_gpt2

    for module in (torch, torch.nn.functional, np, nbformat, jupyter_server, modeling_gpt2):
        assert Path(importlib.util.cache_from_source(module.__file__)).is_file(), module.__name__


def test_make_with_another_torch_keeps_the_rest_locked():
    out = dry_run(".venv/.installed", {**os.environ, "TORCH_SPEC": "torch==2.5.1",
                                       "TORCH_INDEX": "https://example.invalid/whl"})
    assert "--require-hashes --no-deps -r .venv/lock-rest.txt" in out
    assert '"torch==2.5.1" --index-url https://example.invalid/whl' in out and "lock-torch" not in out


def test_make_and_the_release_split_a_lock_alike():
    """make splits the lock with grader/release/locks.py, run by the venv's bare python before
    anything is installed (here: -S, no site-packages at all); the release imports the same split."""
    from grader.release.locks import lock_parts

    out = dry_run(".venv/.installed")
    assert "grader/release/locks.py rest requirements/test.lock > .venv/lock-rest.txt" in out
    assert "grader/release/locks.py torch requirements/test.lock > .venv/lock-torch.txt" in out
    for lock in LOCKS:
        parts = lock_parts(lock.read_text())
        assert parts[1].startswith("torch==") and not re.search(r"^torch==", parts[0], re.M)
        assert sorted(parts[0].splitlines() + parts[1].splitlines()) == sorted(lock.read_text().splitlines())
        for part, expected in zip(("rest", "torch"), parts):
            done = subprocess.run([sys.executable, "-I", "-S", "grader/release/locks.py", part, str(lock)], cwd=ROOT,
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0 and done.stdout == expected, done.stderr


def test_readme_puts_the_learner_first_and_make_test_with_the_maintainers():
    """The learner's part comes first and fits on one screen (the title down to the
    instructors' heading, 50 lines); `make test` (minutes of every test) is not in it, and
    where it stands it says it is the maintainers' command."""
    text = (ROOT / "README.md").read_text()
    learner, rest = text.split("\n## For instructors", 1)
    assert "make lab" in learner and "make test" not in learner
    assert len(learner.splitlines()) <= 50
    assert "## For maintainers" in rest
    assert re.search(r"^make test +# the maintainers' command", rest.split("## For maintainers", 1)[1], re.M)


def test_ci_runs_make_test():
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_numpy_2_and_torch_2_3_required():
    """The dtype lessons rely on NEP 50 promotion, which NumPy 1.x does not follow;
    torch builds before 2.3 cannot exchange arrays with NumPy 2."""
    specs = {_name(d): Requirement(d).specifier for d in pyproject_requirements()}
    assert not specs["numpy"].contains("1.26.4") and specs["numpy"].contains("2.0.0")
    assert not specs["torch"].contains("2.2.2") and specs["torch"].contains("2.3.0")


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


def test_xdist_groups_keep_a_group_on_one_worker(tmp_path):
    """make test's groups (conftest.py) build an expensive fixture once: pytest 9.2 broke that
    silently (pytest-xdist issue 1386), so the lock pins pytest below it; this fails if it breaks."""
    (tmp_path / "conftest.py").write_text(
        "import pytest\n\n@pytest.hookimpl(tryfirst=True)\ndef pytest_collection_modifyitems(items):\n"
        "    for item in items:\n        item.add_marker(pytest.mark.xdist_group('one'))\n")
    (tmp_path / "test_g.py").write_text(
        "import os, pytest\n\n@pytest.mark.parametrize('i', range(8))\ndef test_where(i):\n"
        "    print('WORKER', os.environ['PYTEST_XDIST_WORKER'])\n")
    # only xdist loaded (no nbval, hypothesis, playwright...): the check, not their start-up, is what runs
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "xdist.plugin", "-n", "2", "--dist", "loadgroup", "-v",
                          "-p", "no:cacheprovider", str(tmp_path)], capture_output=True, text=True, cwd=tmp_path,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stdout[-2000:]
    workers = set(re.findall(r"\[(gw\d)\] .*PASSED", out.stdout))
    assert len(workers) == 1, out.stdout[-2000:]

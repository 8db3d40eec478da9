import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))


@pytest.fixture
def make_notebook(tmp_path):
    """Write a lesson notebook from (source, tags) pairs; returns its path."""
    from nbbuild import code, notebook

    def make(name, cells, lesson="01_embeddings"):
        nb = notebook([code(src, tags=tags) for src, tags in cells], lesson=lesson)
        path = tmp_path / f"{name}.ipynb"
        nbformat.write(nb, path)
        return path

    return make


# `make test` runs tests/ on four pytest-xdist workers (PYTEST_WORKERS) with --dist loadgroup: a test without a
# group goes to whichever worker is free; the tests of a group share one worker, so a module-scoped
# fixture that costs tens of seconds (a JupyterLab server, a graded class, a built release) is
# built once, not once per worker. test_hostile's class is graded twice (one isolation mode per
# fixture parameter): each is a group of its own, so the two run side by side; so do the browser
# tests of the course's JupyterLab and those of the release's.
SHARED_FIXTURE_GROUPS = {
    "test_agreement.py": "agreement", "test_browser.py": "browser", "test_cluster.py": "cluster",
    "test_diagnosis.py": "diagnosis", "test_exports.py": "exports", "test_gradescope.py": "gradescope",
    "test_lesson08.py": "lesson08",
    "test_walls.py": "walls",
    "test_release.py": "release", "test_sampling.py": "sampling",
    "test_tiny_checkpoint.py": "tiny", "test_weights.py": "weights",
    # the course's answers per exercise (and every corpus verdict, which the recall test reads
    # again) are cached per process: on one worker they are computed once, not once per worker
    "test_learner_corpus.py": "learner-corpus", "test_mistakes.py": "mistakes",
    # the static site, built once (built_site) and read by both: its files, then in Chromium
    "test_build_site.py": "site", "test_site_browser.py": "site",
}


def xdist_group_of(item) -> str | None:
    name = item.path.name
    if name == "test_browser.py" and "release_lab" in getattr(item, "fixturenames", ()):
        return "browser-release"  # a JupyterLab of its own (the release's): beside the course's one
    if name == "test_student_edition.py":  # two minutes of lessons: the stubs' runs beside the solved ones
        return "edition-stubs" if "stubs" in item.name else "edition-solved"
    if name == "test_hostile.py":
        mode = getattr(item, "callspec", None) and item.callspec.params.get("graded_class")
        return f"hostile-{mode}" if mode else None
    return SHARED_FIXTURE_GROUPS.get(name)


# The groups that take minutes start first (xdist hands out work in collection order), so the
# last minutes are not one worker retraining the tiny model while the other waits.
FIRST = ("tiny", "hostile-", "browser", "edition-", "site", "learner-corpus", "release", "gradescope")


def _start_rank(item) -> int:
    group = xdist_group_of(item) or ""
    return next((i for i, prefix in enumerate(FIRST) if group.startswith(prefix)), len(FIRST))


# tryfirst: xdist's own hook (in each worker) reads the xdist_group marks, so they must exist
# before it runs, whatever order the plugins were registered in. (Under pytest 9.2 the groups were
# lost anyway, every group's fixture built on every worker: the lock pins pytest below 9.2.)
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        group = xdist_group_of(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=_start_rank)  # stable: each module's own order is kept


@pytest.fixture(scope="session")
def built_release(tmp_path_factory):
    """The student release, built once per worker (test_release and test_student_edition each
    work on a copy of it)."""
    from grader.release.bundle import build_release

    return build_release(tmp_path_factory.mktemp("release") / "student")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The static site built from this checkout into a temporary folder, once, by the command
    `make site` runs; what it printed is kept beside it (stdout.txt, stderr.txt)."""
    out = tmp_path_factory.mktemp("site") / "site"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"), "--out", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=out.parent)
    (out.parent / "stdout.txt").write_text(done.stdout)
    (out.parent / "stderr.txt").write_text(done.stderr)
    if done.returncode != 0:
        pytest.fail(f"scripts/build_site.py failed ({done.returncode}): {done.stderr}")
    return out


def solved_edition(release: Path, dest: Path) -> Path:
    """A copy of the student release whose exercise notebooks are solutions/' (every exercise done)."""
    shutil.copytree(release, dest, symlinks=True)
    for path in (ROOT / "solutions").glob("*.ipynb"):
        shutil.copy(path, dest / "exercises" / path.name)
    return dest


CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def chromium_path() -> str | None:
    """GPT2_BROWSER_CHROMIUM, else the first Chromium installed where Debian and others put it."""
    env = os.environ.get("GPT2_BROWSER_CHROMIUM")
    for candidate in (env,) if env else CHROMIUM_CANDIDATES:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def browser_problem() -> str | None:
    """Why the browser tests (test_browser.py) cannot run here, in one line; None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tests skipped: Playwright for Python is not installed (pip install playwright)"
    if chromium_path() is None:
        looked = os.environ.get("GPT2_BROWSER_CHROMIUM") or ", ".join(CHROMIUM_CANDIDATES)
        return f"browser tests skipped: no Chromium found ({looked}; Debian: apt-get install chromium)"
    lab = Path(sys.executable).parent / "jupyter-lab"
    if not lab.exists():
        return f"browser tests skipped: {lab} not found"
    return None

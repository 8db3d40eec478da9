"""The course in a real browser: JupyterLab + Chromium, driven by Playwright.

Starts its own JupyterLab (isolated config, data, runtime and IPython folders;
the venv's share/jupyter is kept, so the lab settings overrides and the
python3 kernel are found), then

- opens every lesson in the student edition with every exercise solved (the
  release, its exercise notebooks replaced by solutions/: each lesson runs on
  the learner's code, the way a learner who has done the exercises runs it),
  with the course's JupyterLab settings (those `make` puts in the venv);
  checks that no dialog shows (no "Select Kernel", no news prompt), clears the
  outputs, runs all cells and checks that no cell shows an error or a stored
  output (every cell ran live), that every cell with a saved image shows a
  loaded image again, and that saved widgets render and respond (lesson 05's
  parameter explorer: a slider changes its count; lesson 07's column picker:
  typing a column redraws its plot); a full-page screenshot of each lesson goes
  to SCREENSHOTS. (These runs are also the student edition's solved runs:
  tests/release/test_student_edition.py runs them with nbclient only where no browser is
  available. The course's own edition runs under nbval, twice.)
- types a correct `embed` and two classic mistakes into a copy of the first
  exercise notebook and checks what `check(embed)` shows, drawn from its HTML: the
  stub's stored TODO, then PASSED and FAILED marked by colour, expected and received
  side by side, the named mistake (screenshots check_passed.png, check_failed.png and
  check.png, the README's picture;
  the time the first check takes is printed, not asserted: benchmarks/check_latency.py
  holds the target);
- builds the student release and opens it through its own `open_course.py`
  (its command line, --allow-root only as root, and only the settings it
  installs): no news question; lesson 07's stored outputs name the exercise each
  cell waits for; lesson 08's stored widget outputs show as text, never as a
  disconnected widget; the first `check(embed)` there (time printed); a lesson
  cell that fails on the learner's buggy `embed` shows its own line, the assert's
  message and the `check(embed)` to run (its screenshots in SCREENSHOTS/release;
  the release's tests may run on the other pytest worker, beside the course's).

Needs Playwright for Python and a Chromium (Debian: `apt-get install chromium`;
another binary: GPT2_BROWSER_CHROMIUM=/path); without them the tests are
skipped with one line saying so. The notebooks on
disk are never written (autosave is off; the server log must show no save)
and checkpoints go to the temporary folder.
"""
from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import browser_problem, chromium_path, solved_edition

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXERCISE = ROOT / "exercises" / "01_embeddings_exercises.ipynb"
SCRATCH = ".browser-tmp"                 # served copies of exercise notebooks, inside the served folder
SCREENSHOTS = Path("/tmp/gpt2-browser-screenshots")
RELEASE_SHOTS = SCREENSHOTS / "release"  # the student release's
JUPYTER_LAB = Path(sys.executable).parent / "jupyter-lab"

SERVER_START_S = 90
KERNEL_READY_MS = 90_000
LESSON_RUN_MS = 150_000
CELL_MS = 60_000


_PROBLEM = browser_problem()
if _PROBLEM:  # pragma: no cover - depends on the machine
    pytest.skip(_PROBLEM, allow_module_level=True)
from playwright.sync_api import sync_playwright  # noqa: E402

CHROMIUM = chromium_path()


# --------------------------------------------------------------------------- server

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _api(base: str, token: str, path: str, method: str = "GET"):
    request = urllib.request.Request(f"{base}{path}", method=method,
                                     headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
    return json.loads(body) if body else None


def _shutdown_sessions(base: str, token: str) -> None:
    """Stop every kernel this server started (each lesson gets a fresh one)."""
    try:
        for session in _api(base, token, "/api/sessions"):
            _api(base, token, f"/api/sessions/{session['id']}", "DELETE")
    except (OSError, urllib.error.URLError):
        pass


def _user_settings(config_dir: Path) -> None:
    """Autosave off (the lessons on disk must stay as they are) and every cell in the DOM."""
    settings = {
        "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
        "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    }
    for plugin, values in settings.items():
        path = config_dir / "lab" / "user-settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


def _isolated_env(home: Path) -> dict:
    """Jupyter's config, data, runtime and IPython folders of our own (autosave off); the venv's
    share/jupyter stays visible (JupyterLab's assets, the widgets extension, the kernel)."""
    dirs = {name: home / name.lower() for name in
            ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR")}
    for d in dirs.values():
        d.mkdir()
    _user_settings(dirs["JUPYTER_CONFIG_DIR"])
    env = {**os.environ, **{k: str(v) for k, v in dirs.items()}}
    env.pop("JUPYTER_PATH", None)      # the venv's share/jupyter comes from sys.prefix
    env.pop("PYTHONPATH", None)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env


def _server_args(home: Path, port: int, token: str) -> list[str]:
    return ["--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True",
            # checkpoints (JupyterLab makes one when it opens a file) go to the tmp folder
            f"--FileCheckpoints.checkpoint_dir={home / 'checkpoints'}",
            # the exercise copies live in .browser-tmp/, a hidden folder
            "--ContentsManager.allow_hidden=True"]


@contextlib.contextmanager
def _serve(command: list[str], cwd: Path, env: dict, home: Path, port: int, token: str):
    """Start JupyterLab, wait until it answers, yield its address; stop it and its kernels after."""
    log_path = home / "jupyter-lab.log"
    log = open(log_path, "wb")
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter-lab exited with {proc.returncode}:\n{log_path.read_text()[-3000:]}")
            try:
                _api(base, token, "/api/status")
                break
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    pytest.fail(f"jupyter-lab did not answer in {SERVER_START_S} s:\n"
                                f"{log_path.read_text()[-3000:]}")
                time.sleep(0.3)
        yield {"base": base, "token": token, "log": log_path}
    finally:
        if proc.poll() is None:
            _shutdown_sessions(base, token)
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def lab(tmp_path_factory, built_release):
    """JupyterLab on the solved student edition, with the course's settings (the venv's)."""
    solved = solved_edition(built_release, tmp_path_factory.mktemp("solved") / "student")
    home = tmp_path_factory.mktemp("jupyter")
    env = {**_isolated_env(home), "PYTHONPATH": str(solved)}   # as `pip install -e .` there would
    for old in SCREENSHOTS.glob("*.png"):  # this run's screenshots replace the last run's
        old.unlink()
    port, token = _free_port(), secrets.token_hex(24)
    args = [str(JUPYTER_LAB), *_server_args(home, port, token), f"--ServerApp.root_dir={solved}"]
    if os.getuid() == 0:
        args.append("--allow-root")
    with _serve(args, solved, env, home, port, token) as server:
        yield {**server, "bundle": solved}


@pytest.fixture(scope="module")
def browser():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                  args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"])
        except Exception as err:  # pragma: no cover - depends on the machine
            pytest.skip(f"browser tests skipped: Chromium ({CHROMIUM}) did not start: "
                        f"{str(err).splitlines()[0]}")
        yield b
        b.close()


def _page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.page_errors = errors
    yield pg
    context.close()
    _shutdown_sessions(server["base"], server["token"])


@pytest.fixture
def page(browser, lab):
    yield from _page(browser, lab)


# --------------------------------------------------------------------------- page helpers

CURRENT = "window.jupyterapp.shell.currentWidget"

JS_KERNEL_IDLE = f"""() => {{
    const w = {CURRENT};
    if (!w || !w.sessionContext || !w.content) return false;
    const k = w.sessionContext.session && w.sessionContext.session.kernel;
    return w.sessionContext.isReady && !!k && k.status === 'idle';
}}"""

JS_NO_BUSY_PROMPT = f"""() => {{
    const nodes = {CURRENT}.content.node.querySelectorAll('.jp-InputPrompt');
    return Array.from(nodes).every(n => !n.textContent.includes('*'));
}}"""


def open_notebook(page, lab, relpath: str):
    page.goto(f"{lab['base']}/lab/tree/{relpath}?reset&token={lab['token']}")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
    page.wait_for_function(
        f"(p) => {{ const w = {CURRENT}; return !!w && !!w.context && w.context.path === p "
        f"&& w.context.isReady && !!w.content; }}", arg=relpath, timeout=60_000)
    try:
        page.wait_for_function(JS_KERNEL_IDLE, timeout=KERNEL_READY_MS)
    except Exception:
        assert_no_dialog(page, relpath)
        raise
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")    # wider notebook, clearer screenshots
    page.wait_for_timeout(500)     # a dialog raised at start-up would be up by now
    assert_no_dialog(page, relpath)


def assert_no_dialog(page, what: str):
    """No modal dialog, and no "Jupyter news" question (a notification toast in JupyterLab 4)."""
    dialogs = page.locator(".jp-Dialog")
    if dialogs.count():
        text = " | ".join(t.strip() for t in dialogs.all_inner_texts())
        pytest.fail(f"{what}: a dialog appeared: {text[:500]}")
    toasts = " | ".join(t.strip() for t in page.locator(".Toastify").all_inner_texts())
    if "Jupyter news" in toasts:
        pytest.fail(f"{what}: JupyterLab asks about news: {toasts[:300]}")


def cell_node_js(body: str) -> str:
    """A JS function (index) => ..., with `node` the DOM node of cell `index`."""
    return f"(i) => {{ const node = {CURRENT}.content.widgets[i].node; {body} }}"


def errors_shown(page) -> list[str]:
    return page.evaluate(f"""() => {{
        const out = [];
        {CURRENT}.content.widgets.forEach((cell, i) => {{
            const n = cell.node;
            n.querySelectorAll('.jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]')
              .forEach(e => out.push(`cell ${{i}}: ${{e.textContent.slice(0, 800)}}`));
            n.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
              .forEach(e => {{ if (e.textContent.includes('Traceback'))
                                 out.push(`cell ${{i}} (stderr): ${{e.textContent.slice(0, 800)}}`); }});
            n.querySelectorAll('.jp-OutputArea-output').forEach(e => {{
                if (/Error displaying widget|Failed to load model class/.test(e.textContent))
                    out.push(`cell ${{i}} (widget): ${{e.textContent.slice(0, 300)}}`);
                // a widget view without its kernel's model: drawn with broken-link marks
                if (e.querySelector('.jupyter-widgets-disconnected'))
                    out.push(`cell ${{i}} (widget shown disconnected): ${{e.textContent.slice(0, 300)}}`); }});
        }});
        return out;
    }}""")


def saved_outputs(path: Path) -> dict[int, set[str]]:
    """For each code cell of the notebook on disk, the MIME types of its saved outputs."""
    nb = json.loads(path.read_text())
    mimes = {}
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            mimes[i] = {m for o in cell.get("outputs", []) for m in o.get("data", {})}
    return mimes


def cell_source(path: Path, index: int) -> str:
    source = json.loads(path.read_text())["cells"][index]["source"]
    return "".join(source) if isinstance(source, list) else source


def full_screenshot(page, path: Path):
    """JupyterLab scrolls inside the notebook: grow the viewport to the notebook's height first."""
    height = page.evaluate(f"""() => {{
        const w = {CURRENT}, cells = w.content.widgets.map(c => c.node);
        const first = cells[0].getBoundingClientRect(), last = cells[cells.length - 1].getBoundingClientRect();
        // the cells, plus the menus and toolbar above them and the status bar below
        return (last.bottom - first.top) + w.content.node.getBoundingClientRect().top + 80;
    }}""")
    page.set_viewport_size({"width": 1400, "height": int(min(max(height + 200, 900), 15_000))})
    page.wait_for_timeout(300)
    # run-all leaves the notebook scrolled to its last cell: show it from the top
    page.evaluate(f"() => {{ {CURRENT}.content.node.scrollTop = 0; }}")
    page.wait_for_timeout(300)
    page.screenshot(path=str(path), full_page=True)


# --------------------------------------------------------------------------- lessons

def run_all_cells(page, relpath: str, screenshot: Path) -> dict:
    """Clear the outputs, run every cell, wait for the kernel; a full screenshot if that fails
    (a test that passes takes its own, once its widgets are drawn)."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.wait_for_function(f"() => {CURRENT}.content.node.querySelectorAll('.jp-OutputArea-output').length === 0")
    page.evaluate("""() => {
        window.__gpt2RunAll = null;
        window.jupyterapp.commands.execute('notebook:run-all-cells').then(
            ok => { window.__gpt2RunAll = {ok: ok}; },
            err => { window.__gpt2RunAll = {error: String(err)}; });
    }""")
    try:
        page.wait_for_function(
            f"() => window.__gpt2RunAll !== null && ({JS_KERNEL_IDLE})() && ({JS_NO_BUSY_PROMPT})()",
            timeout=LESSON_RUN_MS, polling=250)
    except BaseException:
        full_screenshot(page, screenshot)
        raise
    assert_no_dialog(page, relpath)
    return page.evaluate("() => window.__gpt2RunAll")


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_runs_in_jupyterlab(page, lab, lesson):
    relpath = lesson.relative_to(ROOT).as_posix()
    lesson = lab["bundle"] / relpath
    saved = saved_outputs(lesson)

    open_notebook(page, lab, relpath)
    result = run_all_cells(page, relpath, SCREENSHOTS / f"{lesson.stem}.png")

    errors = errors_shown(page)
    assert not errors, f"{relpath}: cells show errors:\n" + "\n".join(errors)
    assert result == {"ok": True}, f"{relpath}: run-all did not finish cleanly: {result}"
    not_run = page.evaluate(f"""() => {CURRENT}.content.widgets
        .map((c, i) => [i, c.model.type, c.model.executionCount])
        .filter(([i, t, n]) => t === 'code' && n === null).map(([i]) => i)""")
    code_cells_with_source = [i for i in not_run
                              if page.evaluate(f"(i) => {CURRENT}.content.widgets[i].model.sharedModel.getSource().trim() !== ''", i)]
    assert not code_cells_with_source, f"{relpath}: cells never ran: {code_cells_with_source}"
    stored = stored_lines(page)
    assert not stored, f"{relpath}: every exercise is solved, yet cells show stored outputs: {stored}"

    for i, mimes in saved.items():
        if any(m.startswith("image/") for m in mimes):
            try:
                page.wait_for_function(cell_node_js(
                    "const imgs = node.querySelectorAll('.jp-OutputArea-output img');"
                    "return imgs.length > 0 && Array.from(imgs).every("
                    "im => im.complete && im.naturalWidth > 0 && im.naturalHeight > 0);"),
                    arg=i, timeout=15_000)
            except Exception:
                pytest.fail(f"{relpath}: cell {i} had an image in the saved notebook; "
                            f"after running it shows none (or an empty one)")
        if "application/vnd.jupyter.widget-view+json" in mimes:
            try:
                page.wait_for_function(cell_node_js(
                    "return !!node.querySelector('.jp-OutputArea-output .jupyter-widgets, "
                    ".jp-OutputArea-output [class*=\"widget-\"]');"), arg=i, timeout=30_000)
            except Exception:
                pytest.fail(f"{relpath}: cell {i} had a widget in the saved notebook; "
                            f"after running no widget rendered")
            if "parameter_explorer" in cell_source(lesson, i):
                _move_a_slider(page, relpath, i)
                _plot_fills_the_cell(page, relpath, i, ".widget-image")
            if "column_picker(" in cell_source(lesson, i):
                _pick_another_column(page, relpath, i)
                _plot_fills_the_cell(page, relpath, i, ".widget-output img")

    full_screenshot(page, SCREENSHOTS / f"{lesson.stem}.png")
    assert not page.page_errors, f"{relpath}: JavaScript errors: {page.page_errors[:3]}"
    saves = [line for line in lab["log"].read_text(errors="replace").splitlines() if "Saving file at" in line]
    assert not saves, f"JupyterLab wrote notebooks to disk: {saves}"


def _plot_fills_the_cell(page, relpath: str, index: int, image_selector: str):
    """A widget's plot is readable at JupyterLab's width: at least 80% of its cell's output area
    (issue 29: lesson 07's was 560 px of 1,000)."""
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    image, area = cell.locator(image_selector).first, cell.locator(".jp-OutputArea").first
    image.wait_for(timeout=15_000)
    image_box, area_box = image.bounding_box(), area.bounding_box()
    assert image_box and area_box and image_box["width"] >= 0.8 * area_box["width"], (
        f"{relpath}: cell {index}: the plot is {image_box and image_box['width']:.0f} px wide in an output "
        f"area of {area_box and area_box['width']:.0f} px (less than 80%)")


def _move_a_slider(page, relpath: str, index: int):
    """Move the first slider of the widget in cell `index`; its count text must change."""
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    count_text = cell.locator(".widget-html, .widget-html-content, .widget-label").filter(
        has_text="parameters").first
    count_text.wait_for(timeout=15_000)
    before = count_text.inner_text()
    range_input = cell.locator("input[type=range]")
    handle = cell.locator(".noUi-handle")
    if range_input.count():
        range_input.first.evaluate(
            "(el) => { el.value = String(Math.min(Number(el.max), Number(el.value) + Number(el.step || 1) * 10));"
            " el.dispatchEvent(new Event('input', {bubbles: true}));"
            " el.dispatchEvent(new Event('change', {bubbles: true})); }")
    else:
        assert handle.count(), f"{relpath}: cell {index}: the explorer shows no slider"
        h = handle.first
        h.scroll_into_view_if_needed()
        box = h.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x - 60, y, steps=8)
        page.mouse.up()
    try:
        page.wait_for_function(
            "([el, before]) => el.innerText !== before",
            arg=[count_text.element_handle(), before], timeout=20_000)
    except Exception:
        pytest.fail(f"{relpath}: moving a slider of the parameter explorer did not change "
                    f"its count (still {before!r})")


def _pick_another_column(page, relpath: str, index: int):
    """Lesson 07's column picker: typing a column into its "column" slider redraws the plot
    (a new image) and the summary names the new columns."""
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    slider = cell.locator(".widget-slider").filter(
        has=page.locator(".widget-label", has_text=re.compile(r"^column$")))
    summary = cell.locator(".widget-html-content").filter(has_text="column").first
    image = cell.locator(".widget-output img")
    try:
        slider.first.wait_for(timeout=15_000)
        image.first.wait_for(timeout=15_000)
    except Exception:
        pytest.fail(f"{relpath}: cell {index}: the column picker shows no 'column' slider or no plot")
    before_text, before_src = summary.inner_text(), image.first.get_attribute("src")
    readout = slider.first.locator(".widget-readout")
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("20")
    page.keyboard.press("Enter")
    try:
        page.wait_for_function(
            """([cellNode, text, src]) => {
                const img = cellNode.querySelector('.widget-output img');
                const html = Array.from(cellNode.querySelectorAll('.widget-html-content'))
                                  .map(n => n.innerText).join(' ');
                return img && img.complete && img.naturalWidth > 0 && img.src !== src
                       && html !== text && html.includes('column 20');
            }""", arg=[cell.element_handle(), before_text, before_src], timeout=30_000)
    except Exception:
        pytest.fail(f"{relpath}: typing column 20 into the column picker did not redraw its plot "
                    f"(summary still {before_text[:120]!r})")


# --------------------------------------------------------------------------- exercise

CORRECT_EMBED = '''def embed(wte, wpe, idx):
    """Token plus position embedding."""
    seq_len, block_size = idx.shape[-1], wpe.shape[0]
    if seq_len > block_size:
        raise ValueError(
            f"sequence length {seq_len} exceeds the block size {block_size}"
        )
    return wte[idx] + wpe[:seq_len]
'''
MISTAKE_EMBED = CORRECT_EMBED.replace("return wte[idx] + wpe[:seq_len]", "return wte[idx] + wpe[idx]")
NO_POSITIONS_EMBED = CORRECT_EMBED.replace("return wte[idx] + wpe[:seq_len]", "return wte[idx]")
BADGE = {"PASSED": "rgb(46, 125, 50)", "FAILED": "rgb(198, 40, 40)", "TODO": "rgb(141, 110, 0)"}  # display.COLOUR


def _exercise_cell_index(path: Path, name: str) -> int:
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if "exercise" in cell["metadata"].get("tags", []) and f"def {name}(" in src:
            return i
    raise AssertionError(f"{path.name}: no exercise cell defines {name}")


def _type_and_check(page, index: int, code: str, expected: str):
    cells = page.locator(".jp-Notebook .jp-Cell")
    editor = cells.nth(index).locator(".cm-content")
    editor.scroll_into_view_if_needed()
    editor.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(code)
    page.wait_for_function(
        f"([i, code]) => {CURRENT}.content.widgets[i].model.sharedModel.getSource() === code",
        arg=[index, code], timeout=10_000)
    page.keyboard.press("Shift+Enter")       # run the exercise cell, select its check cell
    page.wait_for_function(f"() => {CURRENT}.content.activeCellIndex === {index + 1}", timeout=10_000)
    page.keyboard.press("Shift+Enter")       # run the check cell
    started = time.perf_counter()
    output = cells.nth(index + 1).locator(".jp-OutputArea-output")
    try:
        output.filter(has_text=expected).first.wait_for(timeout=CELL_MS)
    except Exception:
        shown = output.all_inner_texts() if output.count() else []
        pytest.fail(f"check cell {index + 1}: expected {expected!r}, shows {shown}")
    took = time.perf_counter() - started
    page.wait_for_function(JS_KERNEL_IDLE, timeout=CELL_MS)
    return took


def _rendered_check(page, index: int, screenshot: Path | None = None) -> dict:
    """What cell ``index`` shows of check()'s verdict: drawn from its HTML (the status badge's
    text and colour, the named mistake, expected and received with their boxes), not its text."""
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    shown = cell.locator(".jp-OutputArea-output.jp-RenderedHTMLCommon .gpt2course-check")
    try:
        shown.first.wait_for(timeout=CELL_MS)
    except Exception:
        outputs = cell.locator(".jp-OutputArea").inner_html()[:2000]
        pytest.fail(f"cell {index}: check() shows no HTML verdict: {outputs}")
    assert shown.count() == 1, f"cell {index}: {shown.count()} verdicts shown"
    badge = shown.locator("span").first
    mistake = shown.locator("strong", has_text="Likely mistake:")
    cells = shown.locator("td code")
    if screenshot:
        cell.scroll_into_view_if_needed()
        cell.screenshot(path=str(screenshot))
    return {"badge": [badge.inner_text(), badge.evaluate("e => getComputedStyle(e).backgroundColor")],
            "mistake": mistake.first.inner_text() if mistake.count() else None,
            "compared": [(cells.nth(i).inner_text(), cells.nth(i).bounding_box()) for i in range(cells.count())]}


def _cells_screenshot(page, first: int, last: int, path: Path) -> None:
    """Cells ``first`` to ``last`` (inputs and outputs) in one picture."""
    cells = page.locator(".jp-Notebook .jp-Cell")
    cells.nth(first).scroll_into_view_if_needed()
    top, bottom = cells.nth(first).bounding_box(), cells.nth(last).bounding_box()
    page.screenshot(path=str(path), clip={"x": top["x"], "y": top["y"], "width": max(top["width"], bottom["width"]),
                                          "height": bottom["y"] + bottom["height"] - top["y"]})


def print_latency(what: str, seconds: float) -> None:
    """Recorded, not asserted (no timed tests): the target lives in benchmarks/check_latency.py."""
    sys.__stdout__.write(f"\n{what}: {seconds:.2f} s in the browser (key press to verdict shown)\n")
    sys.__stdout__.flush()


def test_exercise_typed_in_the_editor(page, lab):
    scratch = lab["bundle"] / SCRATCH
    scratch.mkdir(exist_ok=True)
    copy = scratch / EXERCISE.name
    shutil.copyfile(EXERCISE, copy)
    index = _exercise_cell_index(copy, "embed")
    open_notebook(page, lab, copy.relative_to(lab["bundle"]).as_posix())
    # the imports (and anything else above the exercise) first
    page.evaluate(f"(i) => {{ {CURRENT}.content.activeCellIndex = i; }}", index)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-above')")
    page.wait_for_function(f"() => ({JS_KERNEL_IDLE})() && ({JS_NO_BUSY_PROMPT})()", timeout=CELL_MS)

    assert _rendered_check(page, index + 1)["badge"] == ["TODO", BADGE["TODO"]]  # the stub's stored output
    first = _type_and_check(page, index, CORRECT_EMBED, "embed: PASSED")
    print_latency("the solved student edition: first check(embed) of a fresh copy of the stub", first)
    passed = _rendered_check(page, index + 1, SCREENSHOTS / "check_passed.png")
    assert passed["badge"] == ["PASSED", BADGE["PASSED"]] and passed["mistake"] is None, passed
    _type_and_check(page, index, NO_POSITIONS_EMBED, "position embedding missing")
    failed = _rendered_check(page, index + 1, SCREENSHOTS / "check_failed.png")
    assert failed["badge"] == ["FAILED", BADGE["FAILED"]], failed
    assert failed["mistake"] == "Likely mistake: position embedding missing.", failed
    (expected, e_box), (received, r_box) = failed["compared"]
    assert re.fullmatch(r"-?\d\.\d+(e-?\d+)?", expected) and re.fullmatch(r"-?\d\.\d+(e-?\d+)?", received)
    assert abs(e_box["y"] - r_box["y"]) < 2 and r_box["x"] >= e_box["x"] + e_box["width"], failed  # side by side
    _type_and_check(page, index, MISTAKE_EMBED, "position rows looked up by token id")
    _rendered_check(page, index + 1)
    _cells_screenshot(page, index, index + 1, SCREENSHOTS / "check.png")  # README's docs/images/check.png
    full_screenshot(page, SCREENSHOTS / f"{EXERCISE.stem}.png")
    assert_no_dialog(page, copy.name)
    errors = errors_shown(page)
    assert not errors, "exercise notebook shows errors:\n" + "\n".join(errors)


# --------------------------------------------------------------------------- the student release

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
POSITION_EXERCISES = re.compile(r"\bpositions\.(sinusoidal_positions|position_similarity|principal_components)\(")
PROBE = ["import numpy as np\nfrom gpt2course import numpy_gpt\n"
         "wte = np.arange(12.0).reshape(4, 3)\nwpe = np.array([[0.0] * 3, [10.0] * 3])",
         "ids = np.array([1, 1])\nx = numpy_gpt.embed(wte, wpe, ids)\n\n# token rows plus position rows\n"
         "assert np.array_equal(x, wte[ids] + wpe[:2]), 'x0 is not the token rows plus the position rows'"]


def _launcher(bundle: Path):
    spec = importlib.util.spec_from_file_location("open_course", bundle / "open_course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def release(tmp_path_factory, built_release):
    """A copy of the release built once per worker: the tests below write into it."""
    dest = tmp_path_factory.mktemp("release") / "student"
    shutil.copytree(built_release, dest, symlinks=True)
    return dest


@pytest.fixture(scope="module")
def release_lab(tmp_path_factory, release):
    """The release opened the way its README says, through its open_course.py: the command line is
    the launcher's (--allow-root only as root: JupyterLab refuses root without it) and the only
    JupyterLab settings are those the launcher installs (not the course's, which make puts in the venv)."""
    # its own folder: these tests may run on the other pytest worker, beside the course's
    shutil.rmtree(RELEASE_SHOTS, ignore_errors=True)
    RELEASE_SHOTS.mkdir(parents=True)
    home = tmp_path_factory.mktemp("jupyter-release")
    env = {**_isolated_env(home), "PYTHONPATH": str(release)}   # as `pip install -e .` there would
    launcher = _launcher(release)
    installed = launcher.install_settings(home / "prefix")
    assert installed is not None
    port, token = _free_port(), secrets.token_hex(24)
    command = launcher.lab_command([*_server_args(home, port, token),
                                    f"--LabApp.app_settings_dir={installed.parent.parent}"])
    with _serve(command, release, env, home, port, token) as server:
        yield {**server, "bundle": release}


@pytest.fixture
def release_page(browser, release_lab):
    yield from _page(browser, release_lab)


def stored_lines(page) -> dict[int, str]:
    """For each cell showing a stored output, its line naming the exercise."""
    return {int(i): line for i, line in page.evaluate(f"""() => {{
        const out = [];
        {CURRENT}.content.widgets.forEach((cell, i) => {{
            const line = cell.node.innerText.split('\\n').find(l => l.startsWith('stored output: finish'));
            if (line) out.push([i, line]);
        }});
        return out;
    }}""")}


def test_release_lesson_07_names_the_exercise_each_cell_waits_for(release_page, release_lab):
    page, relpath = release_page, "notebooks/07_position_embeddings.ipynb"
    open_notebook(page, release_lab, relpath)
    run_all_cells(page, relpath, RELEASE_SHOTS / "07_position_embeddings.png")
    errors = errors_shown(page)
    assert not errors, f"release {relpath}: cells show errors:\n" + "\n".join(errors)
    # the first cell that calls an exercise (and no other) waits for that one: lesson 07's
    # PCA cell once named position_similarity, whose results it does not use
    lines, seen, checked = stored_lines(page), set(), 0
    for i in sorted(lines):
        called = set(POSITION_EXERCISES.findall(cell_source(release_lab["bundle"] / relpath, i)))
        if len(called) == 1 and not called & seen:
            assert f"finish `{next(iter(called))}`" in lines[i], f"cell {i}: {lines[i]}"
            checked += 1
        seen |= called
    assert checked >= 2, lines
    full_screenshot(page, RELEASE_SHOTS / "07_position_embeddings.png")


def test_release_lesson_08_stored_widgets_are_text(release_page, release_lab):
    page, relpath = release_page, "notebooks/08_training_sampling.ipynb"
    open_notebook(page, release_lab, relpath)
    run_all_cells(page, relpath, RELEASE_SHOTS / "08_training_sampling.png")
    errors = errors_shown(page)   # a stored widget view would show disconnected (broken-link marks)
    assert not errors, f"release {relpath}: cells show errors:\n" + "\n".join(errors)
    saved, lines = saved_outputs(release_lab["bundle"] / relpath), stored_lines(page)
    waiting = [i for i, mimes in saved.items() if WIDGET_VIEW in mimes and i in lines]
    assert waiting, "no cell with a saved widget shows a stored output here"
    cells = page.locator(".jp-Notebook .jp-Cell")
    for i in waiting:
        cell = cells.nth(i)
        assert cell.locator(".jp-OutputArea-output .jupyter-widgets").count() == 0, f"cell {i}"
        text = cell.locator(".jp-OutputArea").inner_text()
        assert "100%|" in text or "interactive widget" in text, f"cell {i}: {text[:300]}"
        cell.scroll_into_view_if_needed()
        cell.screenshot(path=str(RELEASE_SHOTS / f"08_stored_widget_cell_{i}.png"))


def test_release_first_check(release_page, release_lab):
    page, relpath = release_page, "exercises/01_embeddings_exercises.ipynb"
    index = _exercise_cell_index(release_lab["bundle"] / relpath, "embed")
    open_notebook(page, release_lab, relpath)
    page.evaluate(f"(i) => {{ {CURRENT}.content.activeCellIndex = i; }}", index)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-above')")
    page.wait_for_function(f"() => ({JS_KERNEL_IDLE})() && ({JS_NO_BUSY_PROMPT})()", timeout=CELL_MS)
    first = _type_and_check(page, index, CORRECT_EMBED, "embed: PASSED")
    print_latency("the student release: first check(embed) of the kernel", first)
    assert_no_dialog(page, relpath)


def test_release_failing_lesson_cell_shows_its_line_and_the_check_to_run(release_page, release_lab):
    bundle = release_lab["bundle"]
    exercise = bundle / "exercises" / "01_embeddings_exercises.ipynb"
    nb = json.loads(exercise.read_text())
    cell = nb["cells"][_exercise_cell_index(exercise, "embed")]
    cell["source"] = CORRECT_EMBED.replace("return wte[idx] + wpe[:seq_len]", "return wte[idx] + wpe[idx]")
    exercise.write_text(json.dumps(nb))       # the learner's saved notebook, with a classic mistake
    probe = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"probe-{i}", "metadata": {},
                        "outputs": [], "source": src} for i, src in enumerate(PROBE)],
             "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
             "nbformat": 4, "nbformat_minor": 5}
    (bundle / "notebooks" / "probe.ipynb").write_text(json.dumps(probe))
    page, relpath = release_page, "notebooks/probe.ipynb"
    open_notebook(page, release_lab, relpath)
    run_all_cells(page, relpath, RELEASE_SHOTS / "failing_lesson_cell.png")
    try:
        shown = page.wait_for_function(cell_node_js(
            "const texts = Array.from(node.querySelectorAll('.jp-OutputArea-output')).map(e => e.textContent);"
            "return texts.find(t => t.includes('Traceback') && t.includes('AssertionError:')) || null;"),
            arg=1, timeout=15_000).json_value()
    except Exception:
        pytest.fail(f"the failing lesson cell shows no AssertionError: {errors_shown(page)}")
    assert "----> 5 assert np.array_equal(x, wte[ids] + wpe[:2])" in shown, shown
    assert "AssertionError: x0 is not the token rows plus the position rows" in shown, shown
    assert ("This cell ran your `embed` from exercises/01_embeddings_exercises.ipynb: "
            "run check(embed) there") in shown, shown


def test_zz_screenshots_folder(capsys):
    shots = sorted(SCREENSHOTS.glob("*.png"))
    with capsys.disabled():
        print(f"\nbrowser screenshots: {SCREENSHOTS}/ ({len(shots)} files)")
    assert shots, f"no screenshots in {SCREENSHOTS}"

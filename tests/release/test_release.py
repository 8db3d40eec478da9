"""The student release: check() works from stored public data; no solution, hidden test
or grader internals travel."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader import notebook as nbk
from grader.release.bundle import build_release

from conftest import ROOT
from support.unix_kernels import AsyncUnixSocketKernels


@pytest.fixture(scope="module")
def bundle(tmp_path_factory, built_release):
    copy = tmp_path_factory.mktemp("rel") / "student"
    shutil.copytree(built_release, copy, symlinks=True)
    return copy


def solution_lines():
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        for cell in nbk.read(path).cells:
            src = nbk.cell_source(cell)
            lines = src.splitlines()
            for start, end in nbk.solution_regions(src) if nbk.EXERCISE_TAG in nbk.tags(cell) else []:
                for line in lines[start + 1:end]:
                    if len(line.strip()) > 15 and not line.strip().startswith("#") \
                            and not line.strip().endswith(("(", "[", "{")):
                        yield line.strip()


def text_files(bundle):
    for p in bundle.rglob("*"):
        if p.is_file() and p.suffix in {".py", ".ipynb", ".json", ".md", ".txt"}:
            yield p, p.read_text(errors="replace")


def leaks(bundle) -> list[str]:
    needles, found = set(solution_lines()), []
    assert needles
    for path, text in text_files(bundle):
        if path.suffix == ".ipynb":
            text = "\n".join(nbk.cell_source(c) for c in nbk.read(path).cells)
        found += [f"{path.name}: {n}" for n in sorted(needles & {ln.strip() for ln in text.splitlines()})]
        # the notebook reader names the marker; in a notebook it would mean a solution travelled
        found += [f"{path.name}: solution marker"] if path.suffix == ".ipynb" and nbk.BEGIN in text else []
    return found


def test_no_solution_code_in_bundle(bundle):
    assert leaks(bundle) == []


def test_the_search_finds_a_planted_solution(bundle, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(bundle, copy)
    shutil.copy(ROOT / "solutions" / "01_embeddings_exercises.ipynb", copy / "exercises" / "01_embeddings_exercises.ipynb")
    assert leaks(copy)


def test_a_release_from_a_checkout_with_filled_exercises_ships_no_answer(tmp_path, monkeypatch):
    """A maintainer did the exercises in their clone: the release makes its exercise
    notebooks from solutions/ (as `grader stubs` does), never copies exercises/. And
    their clone has run the course: gpt2course/__pycache__ holds the reference's
    bytecode, every answer in it, which must not travel either."""
    import importlib.util
    import py_compile
    import shutil

    from grader.release import bundle as bundle_module

    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in ("notebooks", "solutions", "grader", "config", "pyproject.toml"):
        (checkout / name).symlink_to(ROOT / name)
    shutil.copytree(ROOT / "gpt2course", checkout / "gpt2course", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    reference = str(checkout / "gpt2course" / "numpy_gpt.py")
    py_compile.compile(reference, cfile=importlib.util.cache_from_source(reference), doraise=True)
    shutil.copytree(ROOT / "solutions", checkout / "exercises")  # every exercise filled in
    monkeypatch.setattr(bundle_module, "ROOT", checkout)
    released = build_release(tmp_path / "student")
    assert leaks(released) == []
    assert [p for p in released.rglob("*") if p.suffix == ".pyc" or p.name == "__pycache__"] == []
    names = sorted(p.name for p in (released / "exercises").glob("*.ipynb"))
    assert names == sorted(p.name for p in (ROOT / "solutions").glob("*.ipynb"))
    assert all("raise NotImplementedError" in p.read_text() for p in (released / "exercises").glob("*.ipynb"))


def test_no_hidden_tests_reference_or_batch_grader(bundle):
    names = {p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file()}
    assert not any(n.startswith("solutions/") for n in names)
    assert not any(n.startswith("grader/lessons/l") for n in names)
    assert not any(n.startswith(("grader/batch/", "grader/release/")) for n in names)
    assert {"grader/checking/check.py", "grader/judging/judge.py", "grader/notebook.py"} <= names
    for _, text in text_files(bundle):
        assert "hidden_cases(rng)" not in text and "def _embed_hidden" not in text


def run_in_bundle(bundle, code):
    return subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(bundle)!r})\n" + code],
                          cwd=bundle, capture_output=True, text=True, timeout=120)


def verdicts(stdout: str) -> list[str]:
    """What check() printed, one text per verdict (each opens with its status line)."""
    found = []
    for line in stdout.splitlines():
        if re.match(r"\w+: (PASSED|FAILED|TODO|MISSING), ", line):
            found.append(line)
        elif found:
            found[-1] += "\n" + line
    return found


def test_check_works_in_bundle_and_names_mistakes(bundle):
    proc = run_in_bundle(bundle, """
import grader, numpy as np
assert grader.__file__.startswith(sys.path[0]), grader.__file__
from grader import check
def embed(wte, wpe, idx):
    return wte[idx] + wpe[idx]
check(embed)
def one_hot_embed(wte, idx):
    return np.eye(wte.shape[0], dtype=wte.dtype)[idx] @ wte
check(one_hot_embed)
def embed(wte, wpe, idx):
    raise NotImplementedError
check(embed)
""")
    assert proc.returncode == 0, proc.stderr
    out = verdicts(proc.stdout)
    assert len(out) == 3 and out[0].startswith("embed: FAILED")
    assert "\n\nLikely mistake: position rows looked up by token id" in out[0]
    assert out[1].startswith("one_hot_embed: PASSED")
    assert out[2].startswith("embed: TODO")


def test_bundle_has_lessons_and_exercises(bundle):
    for folder in ("notebooks", "exercises"):
        assert sorted(p.name for p in (bundle / folder).glob("*.ipynb")) == \
            sorted(p.name for p in (ROOT / folder).glob("*.ipynb"))


def test_release_refuses_to_overwrite(bundle):
    with pytest.raises(ValueError, match="exists"):
        build_release(bundle)


def test_reference_model_is_not_in_bundle(bundle):
    proc = run_in_bundle(bundle, """
from gpt2course import numpy_gpt, TINY
from gpt2course.student import ExerciseNotDone
import numpy as np
assert numpy_gpt.count_params({"a": np.zeros((2, 3))}) == 6
assert numpy_gpt.param_shapes(TINY)["wte"] == (56, 64)
x = np.array([[1000.0, 0.0, -1000.0]])
assert np.isfinite(numpy_gpt.softmax(x)).all()
for name in ["embed", "layer_norm", "causal_self_attention", "gelu_tanh", "mlp", "block",
             "gpt_logits", "init_params"]:
    try:
        getattr(numpy_gpt, name)(*[None] * getattr(numpy_gpt, name).__code__.co_argcount)
    except ExerciseNotDone as exc:
        assert "exercises/0" in str(exc) and "_exercises.ipynb" in str(exc), exc
    else:
        raise AssertionError(name)
from gpt2course import state_dicts, GPT2_SMALL
for call, where in [(lambda: GPT2_SMALL.n_params(), "05_counting"),
                    (lambda: state_dicts.module_arrays_from_params({}, {}), "06_torch_parity"),
                    (lambda: state_dicts.module_arrays_from_state_dict({}, {}), "06_torch_parity")]:
    try:
        call()
    except ExerciseNotDone as exc:
        assert f"exercises/{where}_exercises.ipynb" in str(exc), exc
    else:
        raise AssertionError(where)
for name in ["split_heads", "merge_heads", "attention_weights", "causal_mask", "hidden_states", "init_std"]:
    try:
        getattr(numpy_gpt, name)(*[None] * getattr(numpy_gpt, name).__code__.co_argcount)
    except NotImplementedError as exc:
        assert "part of an exercise" in str(exc)
    else:
        raise AssertionError(name)
""")
    assert proc.returncode == 0, proc.stderr
    source = (bundle / "gpt2course" / "numpy_gpt.py").read_text()
    assert "wpe[:T]" not in source and "np.tanh" not in source and "swapaxes" not in source


def test_lessons_carry_the_student_edition_note(bundle):
    for path in (bundle / "notebooks").glob("*.ipynb"):
        first = nbk.cell_source(nbk.read(path).cells[0])
        assert "Student edition" in first and "your own code" in first and "stored output" in first


def test_exercise_texts_are_true_in_the_student_edition(bundle):
    from grader.release import edition

    for path in sorted((bundle / "exercises").glob("*.ipynb")):
        nb = nbk.read(path)
        text = {tag: nbk.cell_source(c) for c in nb.cells for tag in nbk.tags(c)}
        assert "hidden tests" in text["about-check"] and "does not include" in text["about-check"]
        assert "hint(" in text["about-check"]
        lesson = nbk.lesson_of(nb)
        assert text["about-check"] == edition.about_check(lesson, edition.STUDENT)
        if "uses" in text and text["uses"]:
            assert "define each of them in this notebook" in text["uses"]
            assert "supplies the course's own" not in text["uses"].split("instructor's grader")[0]
    course = nbk.read(ROOT / "exercises" / "03_mlp_block_exercises.ipynb")
    uses = [nbk.cell_source(c) for c in course.cells if "uses" in nbk.tags(c)]
    assert uses and "supplies the course's own" in uses[0]


def test_the_student_uses_note_sends_learners_to_earlier_notebooks_only():
    """A composite exercise's pieces from its own lesson are defined in this notebook already:
    the note asks to paste in only earlier lessons' solutions (lesson 03's mlp calls its own
    gelu_tanh)."""
    from grader.judging import registry
    from grader.release import edition

    assert "gelu_tanh" in registry.get("mlp").uses and registry.get("gelu_tanh").lesson == "03_mlp_block"
    for lesson in registry.lessons():
        note = edition.uses_note(lesson, edition.STUDENT)
        pasted = re.findall(r"`exercises/(\d\d)_\w+_exercises\.ipynb`", note)
        assert all(number < lesson[:2] for number in pasted), (lesson, note)
    assert "`exercises/02_attention_exercises.ipynb`" in edition.uses_note("03_mlp_block", edition.STUDENT)


def test_the_release_judges_each_exercise_as_the_course_does(bundle):
    """Initialisation statistics, sampling draws and sampled scalars each have their own judge:
    an exercise judged by another's would pass or fail the wrong answers."""
    from grader.judging import registry

    course = {e.name: e.judge and e.judge.__name__ for e in registry.load_all().values()}
    assert {"init_judge", "draws_judge", "scalar_judge"} <= set(course.values())
    proc = run_in_bundle(bundle, """
import json
from grader.judging import registry
print(json.dumps({e.name: e.judge and e.judge.__name__ for e in registry.load_all().values()}))
""")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1]) == course


def test_check_in_bundle_needs_own_pieces_and_judges_init_statistically(bundle):
    proc = run_in_bundle(bundle, """
import math
import numpy as np
from grader import check
from gpt2course import numpy_gpt
def block(x, params, layer, n_head):
    p = lambda n: params[f"h.{layer}.{n}"]
    x = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")), p("attn.c_attn.weight"),
                                  p("attn.c_attn.bias"), p("attn.c_proj.weight"), p("attn.c_proj.bias"), n_head)
    return x + mlp(layer_norm(x, p("ln_2.weight"), p("ln_2.bias")), p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                   p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
check(block)
def init_gpt(config, seed, scaled=True, head=False):
    rng = np.random.default_rng(seed)
    P = {}
    for name, shape in numpy_gpt.param_shapes(config).items():
        if len(shape) == 2:
            std = 0.02 / math.sqrt(2 * config.n_layer) if scaled and name.endswith("c_proj.weight") else 0.02
            P[name] = rng.normal(0, std, shape)
        else:
            gain = name.endswith(("ln_1.weight", "ln_2.weight")) or name == "ln_f.weight"
            P[name] = np.ones(shape) if gain else np.zeros(shape)
    if head:
        P["lm_head.weight"] = rng.normal(0, 0.02, P["wte"].shape)
    return P
check(init_gpt)
correct = init_gpt
def init_gpt(config, seed):
    return correct(config, seed, scaled=False)
check(init_gpt)
def init_gpt(config, seed):
    return correct(config, seed, head=True)
check(init_gpt)
""")
    assert proc.returncode == 0, proc.stderr
    out = verdicts(proc.stdout)
    assert out[0].startswith("block: FAILED") and "Define `causal_self_attention` in this notebook" in out[0]
    init = [text for text in out if text.startswith("init_gpt:")]
    assert init[0].startswith("init_gpt: PASSED"), proc.stdout
    assert init[1].startswith("init_gpt: FAILED"), proc.stdout
    assert "Likely mistake: residual projections not scaled by 1/sqrt(2L)" in init[1]
    assert init[2].startswith("init_gpt: FAILED") and "separate output head" in init[2], proc.stdout
    assert "Likely mistake: separate untied output head" in init[2]


def solution_definitions(*lessons) -> str:
    """The solved notebooks' definitions, as the learner's own code in a bundle test."""
    code = []
    for lesson in lessons:
        nb = nbk.read(ROOT / "solutions" / f"{lesson}_exercises.ipynb")
        code += [c.source for c in nbk.graded_cells(nb)]
    return "\n".join(code)


def test_check_in_bundle_enforces_dtype_rules_and_names_tuple_items(bundle):
    learner = solution_definitions("01_embeddings", "02_attention", "03_mlp_block", "04_model_init")
    proc = run_in_bundle(bundle, learner + """
from grader import check
check(gpt_logits)
correct_logits = gpt_logits
def gpt_logits(P, idx, n_head):
    return correct_logits({k: v.astype(np.float64) for k, v in P.items()}, idx, n_head)
check(gpt_logits)
check(tied_lm_loss_and_grad)
correct_tied = tied_lm_loss_and_grad
def tied_lm_loss_and_grad(E, A, idx, targets):
    loss, dE = correct_tied(E, A, idx, targets)
    return loss, dE.astype(np.float64)
check(tied_lm_loss_and_grad)
""")
    assert proc.returncode == 0, proc.stderr
    out = [text for text in verdicts(proc.stdout) if text.startswith(("gpt_logits", "tied_lm"))]
    assert out[0].startswith("gpt_logits: PASSED"), proc.stdout
    assert out[1].startswith("gpt_logits: FAILED") and "wrong dtype" in out[1], proc.stdout
    assert out[2].startswith("tied_lm_loss_and_grad: PASSED"), proc.stdout
    assert out[3].startswith("tied_lm_loss_and_grad: FAILED") and "dE: wrong dtype" in out[3], proc.stdout


def test_hints_ship_in_the_bundle(bundle):
    proc = run_in_bundle(bundle, """
from grader import hint
def embed(wte, wpe, idx):
    raise NotImplementedError
for _ in range(7):
    hint(embed)
""")
    assert proc.returncode == 0, proc.stderr
    said = re.split(r"\n(?=embed[,:] )", proc.stdout.strip())  # one text per hint() call (wrapped)
    given = [text for text in said if text.startswith("embed, hint ")]
    assert 3 <= len(given) <= 5 and len(set(given)) == len(given)
    assert given[0].startswith("embed, hint 1 of") and said[-1].startswith("embed: no more hints")


def test_the_student_edition_carries_each_exercise_s_ratings(bundle):
    """Its registry, rebuilt from stored data, has the course's difficulty, importance and
    minutes, and its exercise notebooks show them under each heading, as the course's do."""
    from grader.judging import registry
    from grader.release import catalogue

    proc = run_in_bundle(bundle, """
from grader.judging import registry
for e in registry.load_all().values():
    print(e.name, e.difficulty, e.importance, e.minutes)
""")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"{e.name} {e.difficulty} {e.importance} {e.minutes}"
                                        for e in registry.load_all().values()]
    for lesson in registry.lessons():
        nb = nbformat.read(bundle / "exercises" / f"{lesson}_exercises.ipynb", as_version=4)
        assert catalogue.headings(nb) == {e.name: catalogue.effort_line(e) for e in registry.for_lesson(lesson)}


def test_bundle_exercise_notebooks_run_on_the_student_grader(bundle):
    """The student edition's own grader (not the instructor's) runs every exercise
    notebook top to bottom and prints what the stored outputs say."""
    import os

    env = dict(os.environ, PYTHONPATH=str(bundle))
    probe = subprocess.run([sys.executable, "-c", "import grader; print(grader.__file__)"],
                           env=env, cwd=bundle / "exercises", capture_output=True, text=True)
    assert probe.stdout.startswith(str(bundle)), probe.stdout + probe.stderr
    proc = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env",
                           "-p", "no:cacheprovider", "-q", str(bundle / "exercises")],
                          env=env, cwd=bundle, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:]


def test_bundle_is_installable_metadata(bundle):
    import tomllib

    meta = tomllib.loads((bundle / "pyproject.toml").read_text())
    project = meta["project"]
    assert meta["tool"]["setuptools"]["package-data"]["grader.lessons"] == ["data/*"]
    assert any(d.startswith("numpy") for d in project["dependencies"])
    assert "pytest" not in " ".join(project["dependencies"])


# --------------------------------------------------------------------------- stored outputs, the launcher
def test_stored_widget_views_become_text(tmp_path):
    """Fixture: a notebook that tqdm and ipywidgets really wrote (run by nbclient, widget state saved)."""
    import nbformat
    from nbclient import NotebookClient

    from grader.release.lesson_cells import WIDGET_NOTE, WIDGET_VIEW, stored_outputs

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("from tqdm.auto import tqdm\nfor _ in tqdm(range(7), desc='train'):\n    pass"),
                nbformat.v4.new_code_cell("import ipywidgets\nipywidgets.IntSlider(3)"),
                nbformat.v4.new_code_cell("print('plain')")]
    NotebookClient(nb, timeout=120, kernel_name="python3", kernel_manager_class=AsyncUnixSocketKernels,
                   store_widget_state=True).execute()
    assert all(WIDGET_VIEW in c.outputs[0].data for c in nb.cells[:2])  # the fixture has widget views
    nbformat.write(nb, tmp_path / "lesson.ipynb")
    stored = list(stored_outputs(tmp_path).values())
    assert [[o["output_type"] for o in outs] for outs in stored] == [["display_data"], ["display_data"], ["stream"]]
    bar, slider = stored[0][0]["data"], stored[1][0]["data"]
    assert list(bar) == ["text/plain"] and bar["text/plain"].startswith("train: 100%|██████████| 7/7 [")
    assert re.search(r"7/7 \[\d\d:\d\d<\d\d:\d\d", bar["text/plain"]), bar  # as tqdm prints it: no &lt;
    assert slider == {"text/plain": WIDGET_NOTE}
    assert stored[2][0]["text"] == "plain\n"


def test_a_stored_progress_line_reads_as_plain_text():
    """tqdm writes its text into the widget's HTML escaped (`<` as `&lt;`): stored, the line
    reads as tqdm prints it in a terminal."""
    from grader.release.lesson_cells import widget_text

    state = {"box": {"model_name": "HBoxModel",
                     "state": {"children": ["IPY_MODEL_left", "IPY_MODEL_bar", "IPY_MODEL_right"]}},
             "left": {"model_name": "HTMLModel", "state": {"value": "train: 100%"}},
             "bar": {"model_name": "FloatProgressModel", "state": {"min": 0, "max": 7, "value": 7}},
             "right": {"model_name": "HTMLModel", "state": {"value": " 7/7 [00:02&lt;00:00,  3.10it/s]"}}}
    assert widget_text("box", state) == "train: 100%|██████████| 7/7 [00:02<00:00,  3.10it/s]"


def test_a_stored_progress_bar_fills_to_the_nearest_cell():
    """A bar stopped at 99% shows (nearly) full, not a cell short: each bar is within half a
    cell of the fraction done."""
    from grader.release.lesson_cells import BAR_WIDTH, widget_text

    for value in range(101):
        state = {"bar": {"model_name": "FloatProgressModel", "state": {"min": 0, "max": 100, "value": value}}}
        bar = widget_text("bar", state)
        assert len(bar) == BAR_WIDTH + 2 and abs(bar.count("█") - BAR_WIDTH * value / 100) <= 0.5, (value, bar)


def test_bundle_stores_no_widget_view(bundle):
    import json

    stored = json.loads((bundle / "gpt2course" / "stored_outputs.json").read_text())
    views = [key for key, outs in stored.items() for o in outs if "widget-view" in json.dumps(o.get("data", {}))]
    assert views == []


def launcher(bundle):
    import importlib.util

    spec = importlib.util.spec_from_file_location("open_course", bundle / "open_course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_launcher_adds_allow_root_only_for_root_and_opens_lesson_01(bundle):
    lab = launcher(bundle)
    as_root, as_user = lab.lab_command(["--no-browser"], root=True), lab.lab_command(root=False)
    assert "--allow-root" in as_root and "--allow-root" not in as_user
    assert as_root[-1] == "--no-browser" and as_user[1:3] == ["-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={bundle.resolve()}" in as_user
    url = next(a for a in as_user if a.startswith("--LabApp.default_url=/lab/tree/"))
    assert (bundle / url.removeprefix("--LabApp.default_url=/lab/tree/")).is_file()
    readme = (bundle / "README.md").read_text()
    assert ".venv/bin/python open_course.py" in readme and "\n.venv/bin/jupyter lab" not in readme


def test_launcher_installs_the_no_news_setting_where_jupyterlab_reads_it(bundle, tmp_path):
    from jupyterlab_server.settings_utils import _get_overrides  # what the server itself calls

    lab = launcher(bundle)
    app_settings = tmp_path / "share" / "jupyter" / "lab" / "settings"
    assert _get_overrides(str(app_settings))[0].get("@jupyterlab/apputils-extension:notification") is None
    assert lab.install_settings(tmp_path) is not None
    notification = _get_overrides(str(app_settings))[0]["@jupyterlab/apputils-extension:notification"]
    assert notification == {"checkForUpdates": False, "fetchNews": "false"}
    (app_settings / "overrides.json").write_text('{"a:b": {"c": 1}}')  # the learner's own file stays theirs
    lab.install_settings(tmp_path)
    assert _get_overrides(str(app_settings))[0]["a:b"] == {"c": 1}


def test_release_decodes_only_the_exercise_checked(bundle):
    proc = run_in_bundle(bundle, """
from grader import check
from grader.judging import registry
def embed(wte, wpe, idx):
    raise NotImplementedError
check(embed)
print(sorted(e.name for e in registry.load_all().values() if dict.__len__(e.stored)))
""")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "['embed']"


def test_bundle_ships_the_lock_and_pins_its_versions(bundle):
    """A learner installs the versions the course was tested with: the lock, torch's CPU build
    apart, and a pyproject whose every dependency is pinned to the lock's version."""
    import re
    import tomllib

    lock = (ROOT / "requirements" / "base.lock").read_text()
    shipped = (bundle / "requirements.lock").read_text() + (bundle / "torch-cpu.lock").read_text()
    pins = lambda text: sorted(re.findall(r"^\S+==\S+", text, re.M))  # noqa: E731
    assert pins(shipped) == pins(lock) and pins((bundle / "torch-cpu.lock").read_text()) == ["torch==2.13.0+cpu"]
    assert lock.count("--hash=") == shipped.count("--hash=")
    versions = dict(p.split("==") for p in pins(lock))
    for dep in tomllib.loads((bundle / "pyproject.toml").read_text())["project"]["dependencies"]:
        name, version = dep.split("==")
        assert versions[name].split("+")[0] == version, dep
    readme = (bundle / "README.md").read_text()
    assert "--require-hashes --no-deps -r requirements.lock" in readme
    assert "-r torch-cpu.lock" in readme and "torch==2.13.0" in readme and "TORCH_VERSION" not in readme


def test_a_lock_splits_into_torch_s_entry_and_the_rest_line_for_line(tmp_path):
    """torchvision is not torch: it stays with the rest, the header too; and the command line
    `make` runs keeps a lock's own line endings (\\r\\n from Windows included), as the release does."""
    from grader.release.locks import lock_parts

    header = "# This file was autogenerated by uv via the following command:\n#    uv pip compile\n"
    numpy = "numpy==2.1.0 \\\n    --hash=sha256:aa\n    # via gpt2course\n"
    torch = "torch==2.13.0+cpu \\\n    --hash=sha256:bb\n    # via gpt2course\n"
    vision = "torchvision==0.28.0 \\\n    --hash=sha256:cc\n"
    assert lock_parts(header + numpy + torch + vision) == (header + numpy + vision, torch)
    (tmp_path / "lock.txt").write_bytes((header + numpy + torch + vision).replace("\n", "\r\n").encode())
    for part, expected in (("rest", header + numpy + vision), ("torch", torch)):
        done = subprocess.run([sys.executable, "-I", "-S", str(ROOT / "grader" / "release" / "locks.py"), part,
                               str(tmp_path / "lock.txt")], capture_output=True, timeout=60)
        assert done.returncode == 0 and done.stdout == expected.replace("\n", "\r\n").encode(), done.stderr


def test_the_release_looks_stored_outputs_up_as_they_were_stored(bundle):
    """lesson_cells stores each lesson cell's outputs under the runtime's cell_key at build time;
    the release's gpt2course/ runs a copy of that runtime, and finds every stored cell by it."""
    from grader.release.bundle import RUNTIME, RUNTIME_FILES

    for name in RUNTIME_FILES:
        assert (bundle / "gpt2course" / name).read_bytes() == (RUNTIME / name).read_bytes(), name
    proc = run_in_bundle(bundle, """
import json
from pathlib import Path
from grader import notebook as nbk
from gpt2course.student_cells import STORED, cell_key
stored = json.loads(STORED.read_text())
keys = {cell_key(nbk.cell_source(c)) for p in sorted(Path("notebooks").glob("*.ipynb"))
        for c in nbk.read(p).cells if c.cell_type == "code" and c.get("outputs")}
assert keys and keys == set(stored), (len(keys), len(stored))
print(len(keys))
""")
    assert proc.returncode == 0, proc.stderr


def test_the_release_templates_are_files_that_parse(bundle):
    """bundle.py's templates: Python that compiles and TOML that parses, before and after filling."""
    import ast
    import tomllib

    from grader.release import bundle as bundle_module

    templates = bundle_module.TEMPLATES
    loader = (templates / "lessons_init.py").read_text()
    ast.parse(loader)
    assert (bundle / "grader" / "lessons" / "__init__.py").read_text() == loader
    tomllib.loads((templates / "student_pyproject.toml").read_text())
    shipped = tomllib.loads((bundle / "pyproject.toml").read_text())["project"]
    assert shipped["dependencies"] and all("==" in d for d in shipped["dependencies"])
    assert "{{" not in (bundle / "README.md").read_text() + (bundle / "pyproject.toml").read_text()
    with pytest.raises(ValueError, match="torch_version"):
        bundle_module.template("student_README.md")
    with pytest.raises(ValueError, match="no {{colour}}"):
        bundle_module.template("student_README.md", torch_version="2", colour="red")


def _same_case_value(a, b) -> bool:
    """wire.same_value, with random generators compared by their state (same_value takes any
    two generators as alike: drawing from one is its use)."""
    import numpy as np

    from grader.judging import wire

    if isinstance(a, np.random.Generator) or isinstance(b, np.random.Generator):
        return isinstance(a, np.random.Generator) and isinstance(b, np.random.Generator) and \
            a.bit_generator.state == b.bit_generator.state
    if type(a) is dict and type(b) is dict and a.keys() == b.keys():
        return all(_same_case_value(a[k], b[k]) for k in a)
    return wire.same_value(a, b)


def _array_refs(tree):
    """Every [file, offset, dtype, shape] array reference in an index.json tree."""
    if isinstance(tree, dict):
        if "bin" in tree and isinstance(tree["bin"], list):
            yield tree["bin"]
        for v in tree.values():
            yield from _array_refs(v)
    elif isinstance(tree, list):
        for v in tree:
            yield from _array_refs(v)


def test_the_release_holds_the_public_cases_only(bundle):
    """index.json holds each exercise's public cases, exactly (count and inputs), with their
    answers and no more; and its data files hold nothing index.json does not point at, so no
    hidden input or answer travels unreferenced either."""
    import json

    import numpy as np

    from gpt2course.config import GPTConfig
    from grader.judging import registry, wire

    data = bundle / "grader" / "lessons" / "data"
    entries = json.loads((data / "index.json").read_text())
    load = wire.folder_loader(str(data))
    assert [e["name"] for e in entries] == list(registry.load_all())
    for entry in entries:
        public = registry.get(entry["name"]).cases(hidden=False)
        shipped = [wire.decode(c["args"], load, GPTConfig) for c in entry["cases"]]
        assert len(shipped) == len(public), entry["name"]
        assert all(_same_case_value(s, p.args) for s, p in zip(shipped, public)), entry["name"]
        assert len(entry["expected"]) == len(public), entry["name"]
        assert all(len(m["answers"]) == len(public) for m in entry["mistakes"]), entry["name"]
    covered: dict[str, list[tuple[int, int]]] = {}
    for name, offset, dtype, shape in _array_refs(entries):
        covered.setdefault(name, []).append((offset, offset + np.dtype(dtype).itemsize * int(np.prod(shape))))
    assert {p.name for p in data.iterdir()} == {"index.json", *covered}
    for name, spans in covered.items():
        end = 0
        for start, stop in sorted(spans):
            assert start <= end, f"{name}: bytes {end}..{start} are not any case's or answer's"
            end = max(end, stop)
        assert end == (data / name).stat().st_size, f"{name}: bytes after {end} are not any case's or answer's"


@pytest.mark.skipif(not list(Path("/opt/wheels").glob("torch-*+cpu-*.whl")),
                    reason="no local torch wheel on this machine (/opt/wheels)")
def test_the_readme_s_offline_torch_install_takes_the_locked_wheel_from_a_folder(bundle, tmp_path):
    """The README's line for a machine without PyTorch's index: pip, told --no-index
    --find-links, takes the torch wheel the lock names from a folder and checks its sha256;
    a wheel that is not the locked one is refused. (--dry-run: the resolution is the claim.)"""
    readme = (bundle / "README.md").read_text()
    assert "--no-index --find-links wheels" in readme
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheel,) = Path("/opt/wheels").glob("torch-*+cpu-*.whl")
    (wheels / wheel.name).symlink_to(wheel)
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--require-hashes", "--no-deps", "-r",
           str(bundle / "torch-cpu.lock"), "--no-index", "--find-links", str(wheels), "--ignore-installed"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "Would install torch-" in done.stdout, done.stdout + done.stderr
    lock = (bundle / "torch-cpu.lock").read_text()
    digest = lock.split("--hash=sha256:")[1][:64]
    (tmp_path / "torch-cpu.lock").write_text(lock.replace(digest, "0" * 64))   # another file than the lock's
    cmd[cmd.index(str(bundle / "torch-cpu.lock"))] = str(tmp_path / "torch-cpu.lock")
    refused = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert refused.returncode != 0 and "HASHES" in refused.stderr.upper(), refused.stderr

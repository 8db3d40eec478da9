"""python -m grader release: the bundle an instructor hands out.

It holds the lessons, the exercise notebooks, the course package, and a
student grader whose check() runs the *public* cases only, comparing with
answers stored as data (.npy + JSON): the reference's answer and each
catalogued mistake's answer on those inputs. No reference code, no solutions,
no hidden tests and no batch grader are copied.
"""
from __future__ import annotations

import ast
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from . import edition, stubs
from .lesson_cells import mark_lessons, stored_outputs
from .locks import lock_parts
from .. import notebook as nbk
from ..judging import registry, sampling_judge, stats, wire
from ..judging.answers import call_answer
from ..judging.judge import Broken, NotAttempted, Raised

ROOT = Path(__file__).resolve().parent.parent.parent
# The student grader: the learner's check and hints, judging, and the notebook reader;
# never batch/ (the sandbox), release/ or the lessons' reference code.
STUDENT_GRADER_FILES = ("__init__.py", "notebook.py", "cell_code.py", "checking/__init__.py", "checking/check.py",
                        "checking/display.py", "checking/hints.py", "checking/mine.py", "judging/__init__.py",
                        "judging/judge.py", "judging/details.py", "judging/naming.py", "judging/outcomes.py",
                        "judging/seeds.py",
                        "judging/wire.py", "judging/registry.py", "judging/stats.py", "judging/sampling_judge.py",
                        "judging/forms.py", "judging/compare.py", "judging/answers.py", "judging/diagnoses.py",
                        "judging/factors.py", "judging/refusals.py", "judging/reshapes.py", "judging/crashes.py",
                        "judging/structure.py", "judging/pieces.py", "judging/formulas.py")
# The student edition's runtime (runtime/): copied into the release's gpt2course/, where the
# modules below call it (`from . import student as _student`); the full course never imports it.
RUNTIME = Path(__file__).with_name("runtime")
RUNTIME_FILES = ("student.py", "student_cells.py", "cell_names.py")
# The course's own code in the student edition. In each module listed here,
# functions that are exercises call the learner's own version (the release's gpt2course/student.py,
# from runtime/, reads it from their exercise notebook); bookkeeping ships as it is; every other
# function is a piece of an exercise's answer and is left out. Modules not listed
# ship unchanged (they hold no exercise's answer).
@dataclass(frozen=True)
class StudentModule:
    keeps: frozenset = frozenset()   # functions that ship as they are (and every check_*)
    bridges: dict = field(default_factory=dict)   # function -> the exercise that computes it
    bodies: dict = field(default_factory=dict)    # a bridge whose call needs more than passing its args
    methods: dict = field(default_factory=dict)   # method -> (exercise, call arguments), bridged in place


STUDENT_MODULES = {
    "numpy_gpt.py": StudentModule(
        keeps=frozenset({"config_from_params", "param_shapes", "count_params", "softmax"}),
        bridges={"embed": "embed", "layer_norm": "layer_norm", "causal_self_attention": "causal_self_attention",
                 "gelu_tanh": "gelu_tanh", "mlp": "mlp", "block": "block", "gpt_logits": "gpt_logits",
                 "init_params": "init_gpt", "cross_entropy": "cross_entropy"},
        bodies={"init_params": "return _student.as_dtype(_student.call('init_gpt', config, seed), dtype)"}),
    "state_dicts.py": StudentModule(
        keeps=frozenset({"course_name", "params_from_state_dict", "_to_numpy", "is_linear_weight", "module_name"}),
        bridges={"module_arrays_from_params": "numpy_to_torch",
                 "module_arrays_from_state_dict": "load_hf_state_dict"},
        # the exercise takes NumPy arrays; a lesson may hand over torch tensors
        bodies={"module_arrays_from_state_dict": "return _student.call('load_hf_state_dict', model, "
                                                 "{k: _to_numpy(v) for k, v in state_dict.items()})"}),
    # NumPy sampling: pick_numpy draws with the learner's sample_next; top_k_numpy and probs_numpy
    # (pieces of that answer) and the NumPy cached forward (the block exercise spelt out) are left out.
    # The torch pieces ship: torch_gpt.GPT ships whole too, no exercise asks for them, and sample_torch
    # must run in every lesson and at the end of `python -m gpt2course.train` before lesson 08 is done.
    "sampling.py": StudentModule(
        keeps=frozenset({"_check_knobs", "pick_numpy", "top_k_torch", "probs_torch", "pick_torch", "_visible",
                         "_n_layer", "torch_forward_cached", "_logits_stream", "sample_numpy", "sample_torch"}),
        bridges={"sample_next": "sample_next"}),
    "data.py": StudentModule(  # lesson 08: the corpus, tokenizer and split ship; get_batch is the learner's
        keeps=frozenset({"normalise", "encode", "decode", "stdlib_dir", "_sources", "_docstrings", "zen_of_python",
                         "corpus_documents", "corpus_texts", "_documents", "_texts", "_corpus_sources", "cache_dir",
                         "_corpus_key", "_corpus_cache_file", "_cached_texts", "_store_texts", "_parse_texts",
                         "corpus_fingerprint",
                         "in_validation", "split_documents", "to_ids", "load_splits"}),
        bridges={"get_batch": "get_batch"}),
    "config.py": StudentModule(
        methods={"n_params": ("count_gpt2_params", "self.vocab_size, self.block_size, self.n_embd, "
                                                   "self.n_layer, tied=tied, bias=biases")}),
    "positions.py": StudentModule(  # lesson 07: the measurements ship, the three exercises are the learner's
        keeps=frozenset({"roughness", "step_sizes", "moving_average", "similarity_by_distance", "toeplitz_gap",
                         "variance_share"}),
        bridges={"sinusoidal_positions": "sinusoidal_positions", "position_similarity": "position_similarity",
                 "principal_components": "principal_components"}),
    "tokenizer.py": StudentModule(  # lesson 09: the files, the byte tables and the word cache ship
        keeps=frozenset({"read_data_file", "load_vocab", "load_ranks", "byte_tables", "to_byte_chars", "token_bytes",
                         "decode_tokens", "_specials", "gpt2_tokenizer", "compare_hub_files"}),
        bridges={"bytes_to_unicode": "bytes_to_unicode", "pretokenize": "pretokenize", "bpe": "bpe",
                 "encode": "encode", "decode": "decode", "train_bpe": "train_bpe"},
        bodies={"encode": "return _student.call('encode', text, vocab, ranks, allowed_special, disallowed_special)"}),
}
HIDDEN_BODY = ('raise NotImplementedError("{module}.{name} is part of an exercise\'s answer, so the student '
               'edition leaves it out. The exercises themselves (numpy_gpt.embed, numpy_gpt.block, ...) run '
               'your own code.")')
# The release's files that are not the course's: grader/lessons/__init__.py (lessons_init.py),
# README.md (student_README.md) and pyproject.toml (student_pyproject.toml), filled in by template().
TEMPLATES = Path(__file__).with_name("templates")


def encode_answer(answer, enc: wire.Encoder, statistical: bool = False):
    if isinstance(answer, Raised):
        return {"raised": {"type": answer.type_name, "bases": list(answer.bases), "message": answer.message,
                           "own": answer.own}}
    if isinstance(answer, (NotAttempted, Broken, wire.Unsupported)) or answer is None:
        return {"none": True}
    if statistical and isinstance(answer, dict):  # the judge needs statistics, not the tensors
        return {"summary": stats.summarize(answer)}
    return enc(answer)


def judge_name(exercise) -> str | None:
    if exercise.judge is None:
        return None
    if exercise.judge is stats.init_judge:
        return "init_stats"
    if exercise.judge is sampling_judge.draws_judge:
        return "draws"
    if exercise.judge is sampling_judge.scalar_judge:
        return "scalar"
    raise ValueError(f"{exercise.name}: the student edition cannot ship its judge {exercise.judge!r}")


def exercise_entry(exercise, enc: wire.Encoder) -> dict:
    cases = exercise.cases(hidden=False)
    statistical = exercise.judge is not None

    def answers(fn):
        return [encode_answer(call_answer(fn, c), enc, statistical) for c in cases]

    return {
        "name": exercise.name, "lesson": exercise.lesson, "tolerance": exercise.tolerance,
        "points": exercise.points, "uses": list(exercise.uses), "judge": judge_name(exercise),
        "hints": list(exercise.hints), "returns": list(exercise.returns),
        "difficulty": exercise.difficulty, "importance": exercise.importance, "minutes": exercise.minutes,
        "cases": [{"args": enc(c.args), "raises": c.raises, "mention": list(c.mention), "about": c.about}
                  for c in cases],
        "expected": answers(exercise.reference),
        "mistakes": [{"name": m.name, "explanation": m.explanation, "any_error": m.any_error,
                      "answers": answers(m.variant)}
                     for m in exercise.mistakes],
    }


def student_module(source: str, name: str, spec: StudentModule) -> str:
    """One module of the course for the student edition: exercises call the learner's
    own functions, bookkeeping and checks stay, the other pieces are left out."""
    tree = ast.parse(source)
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.name in spec.keeps or node.name.startswith("check_"):
            continue
        if node.name in spec.bridges:
            args = ", ".join(a.arg for a in node.args.posonlyargs + node.args.args)
            body = spec.bodies.get(node.name, f"return _student.call({spec.bridges[node.name]!r}, {args})")
        else:
            body = HIDDEN_BODY.format(module=name.removesuffix(".py"), name=node.name)
        _replace_body(node, body)
    for node in ast.walk(tree):  # methods: bridged in place, imported late (no import cycle)
        if isinstance(node, ast.FunctionDef) and node.name in spec.methods:
            exercise, args = spec.methods[node.name]
            _replace_body(node, f"from . import student as _student\nreturn _student.call({exercise!r}, {args})")
    if spec.keeps or spec.bridges:
        _mark_student_module(tree)
    return ast.unparse(tree) + "\n"


def _replace_body(node: ast.FunctionDef, body: str) -> None:
    doc = ast.get_docstring(node)
    node.body = ([ast.Expr(ast.Constant(doc))] if doc else []) + ast.parse(body).body


def _mark_student_module(tree: ast.Module) -> None:
    note = ast.Expr(ast.Constant(
        "Student edition: the functions that are exercises run the learner's own code\n"
        "(see gpt2course/student.py); the rest of the course's reference is not included."))
    if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant):
        tree.body[0] = note
    else:
        tree.body.insert(0, note)
    first_import = next(i for i, n in enumerate(tree.body) if isinstance(n, (ast.Import, ast.ImportFrom))
                        and getattr(n, "module", None) != "__future__")
    tree.body.insert(first_import, ast.parse("from . import student as _student").body[0])
    # the lesson-cell guard, installed once in the learner's kernel (student_cells imports
    # student, so the guard is imported here rather than by student: no import cycle)
    tree.body.extend(ast.parse("from . import student_cells as _student_cells\n_student_cells.install()").body)


def student_exercises(folder: Path) -> None:
    """The exercise notebooks' edition-specific cells, written for the student edition."""
    for path in sorted(folder.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        lesson = nbk.lesson_of(nb)
        if lesson:
            edition.fill(nb, lesson, edition.STUDENT)
        nbformat.write(nb, path)


def edition_map() -> dict:
    """Which exercise notebook defines each exercise, for the student model."""
    return {"exercises": {e.name: {"lesson": e.lesson, "notebook": f"exercises/{edition.notebook_name(e.lesson)}"}
                          for e in registry.load_all().values()}}


def write_exercises(folder: Path) -> None:
    """The exercise notebooks, made from solutions/ by the generator `grader stubs` uses;
    never copied from exercises/, which a maintainer who did the exercises in their
    checkout (as the README invites) may have filled with answers."""
    folder.mkdir()
    for path, text in stubs.generate(ROOT / "solutions", folder).items():
        if path.parent == folder:  # generate also returns the solutions' own text
            path.write_text(text, encoding="utf-8")


def build_release(out: Path, force: bool = False) -> Path:
    if out.exists():
        if not force:
            raise ValueError(f"{out} exists; choose a new folder or pass --force")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(ROOT / "notebooks", out / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    write_exercises(out / "exercises")
    package = out / "gpt2course"
    shutil.copytree(ROOT / "gpt2course", package, ignore=shutil.ignore_patterns("__pycache__"))
    for name in RUNTIME_FILES:
        shutil.copy2(RUNTIME / name, package / name)
    for name, spec in STUDENT_MODULES.items():
        module = package / name
        module.write_text(student_module(module.read_text(), name, spec))
    (package / "edition.json").write_text(json.dumps(edition_map(), indent=1))
    (package / "stored_outputs.json").write_text(json.dumps(stored_outputs(out / "notebooks")))
    mark_lessons(out / "notebooks")
    student_exercises(out / "exercises")
    student = out / "grader"
    (student / "lessons" / "data").mkdir(parents=True)
    for name in STUDENT_GRADER_FILES:
        (student / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / "grader" / name, student / name)
    (student / "lessons" / "__init__.py").write_text(template("lessons_init.py"), encoding="utf-8")
    enc = wire.Encoder(str(student / "lessons" / "data"), "p")
    entries = [exercise_entry(e, enc) for e in registry.load_all().values()]
    (student / "lessons" / "data" / "index.json").write_text(json.dumps(entries, indent=1))
    enc.close()
    rest, torch = lock_parts(LOCK.read_text())
    (out / "requirements.lock").write_text(rest)
    (out / "torch-cpu.lock").write_text(torch)
    (out / "README.md").write_text(template("student_README.md", torch_version=locked_versions()["torch"]),
                                   encoding="utf-8")
    (out / "pyproject.toml").write_text(student_pyproject(), encoding="utf-8")
    add_launcher(out)
    return out


def template(name: str, **values: str) -> str:
    """templates/NAME with each {{key}} replaced by its value; every key must be there, and
    no {{...}} may be left over."""
    text = (TEMPLATES / name).read_text(encoding="utf-8")
    for key, value in values.items():
        token = "{{" + key + "}}"
        if token not in text:
            raise ValueError(f"templates/{name} has no {token}")
        text = text.replace(token, value)
    if left := re.findall(r"\{\{\w+\}\}", text):
        raise ValueError(f"templates/{name}: no value for {', '.join(sorted(set(left)))}")
    return text


def add_launcher(out: Path) -> None:
    """open_course.py and the JupyterLab settings it installs (no news prompt, root allowed)."""
    (out / "config").mkdir(exist_ok=True)
    shutil.copy2(ROOT / "config" / "jupyterlab-overrides.json", out / "config" / "jupyterlab-overrides.json")
    shutil.copy2(ROOT / "config" / "open_course.py", out / "open_course.py")


# What the course needs to run, at the versions `make test` ran it with (`make lock` writes it:
# the test lock's versions, less the test tools). The release ships it in two parts, torch's
# CPU build apart, so that a learner with a GPU or on macOS can take another build instead
# (locks.lock_parts, the split `make` installs a lock by too).
LOCK = ROOT / "requirements" / "base.lock"


def locked_versions() -> dict[str, str]:
    """name -> public version (torch 2.13.0+cpu -> 2.13.0, which any build of it satisfies)."""
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s+]+)", LOCK.read_text(), re.M)
    return {name.lower().replace("_", "-"): version for name, version in pins}


def student_pyproject() -> str:
    """The course's runtime dependencies, read from the course's own pyproject, each pinned to
    the locked version (so `pip install -e .` alone cannot drift either)."""
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = locked_versions()
    names = [Requirement(d).name for d in project["dependencies"]]
    # the template's list holds one item, "{{dependencies}}": it becomes one quoted line per pin
    pinned = '",\n    "'.join(f"{n}=={pins[n.lower().replace('_', '-')]}" for n in names)
    return template("student_pyproject.toml", version=project["version"],
                    requires_python=project["requires-python"], dependencies=pinned)

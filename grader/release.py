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
import shutil
from pathlib import Path

from . import registry, wire
from .judge import Broken, NotAttempted, Raised, call_answer, reference_answers

ROOT = Path(__file__).resolve().parent.parent
STUDENT_GRADER_FILES = ("__init__.py", "check.py", "judge.py", "wire.py", "registry.py")
# What the student edition keeps of the course's NumPy model: bookkeeping only.
# Every other function (new ones too, by default) is an exercise's answer or part of one.
MODEL_KEEPS = {"check_token_ids", "config_from_params", "check_params", "param_shapes", "count_params"}
HIDDEN_BODY = ('raise NotImplementedError("numpy_gpt.{name} is not in the student edition: it is part '
               'of an exercise. Use your own solution (define it in your notebook).")')
LESSON_NOTE = ("> **Student edition.** This lesson is shown with its outputs. Cells that call the "
               "course's reference model (`numpy_gpt.embed`, `numpy_gpt.layer_norm`, ...) raise "
               "`NotImplementedError` if you re-run them: those functions are your exercises. "
               "Everything else runs as usual.")

LOADER = '''"""Student release: exercises rebuilt from stored public data (no reference code)."""
import json
from pathlib import Path

from gpt2course.config import GPTConfig

from .. import wire
from ..judge import Raised, structure_mismatch
from ..registry import Case, Exercise, Mistake, register

DATA = Path(__file__).with_name("data")


def _answer(tree, load):
    if isinstance(tree, dict) and "raised" in tree:
        r = tree["raised"]
        return Raised(r["type"], tuple(r["bases"]), r["message"])
    if isinstance(tree, dict) and "none" in tree:
        return None
    return wire.decode(tree, load, GPTConfig)


def _load():
    load = wire.npy_loader(str(DATA))
    for entry in json.loads((DATA / "index.json").read_text()):
        cases = [Case(wire.decode(c["args"], load, GPTConfig), True, c["raises"], tuple(c["mention"]),
                      c["about"]) for c in entry["cases"]]
        register(Exercise(
            name=entry["name"], lesson=entry["lesson"], reference=None,
            uses=tuple(entry["uses"]), judge=structure_mismatch if entry["structure_only"] else None,
            public_cases=lambda cases=cases: cases, hidden_cases=lambda rng: [],
            mistakes=[Mistake(m["name"], m["explanation"], None) for m in entry["mistakes"]],
            tolerance=entry["tolerance"], points=entry["points"],
            stored={"expected": [_answer(t, load) for t in entry["expected"]],
                    "mistakes": {m["name"]: [_answer(t, load) for t in m["answers"]]
                                 for m in entry["mistakes"]}},
        ))


_load()
'''


def encode_answer(answer, enc: wire.Encoder):
    if isinstance(answer, Raised):
        return {"raised": {"type": answer.type_name, "bases": list(answer.bases), "message": answer.message}}
    if isinstance(answer, (NotAttempted, Broken, wire.Unsupported)) or answer is None:
        return {"none": True}
    return enc(answer)


def exercise_entry(exercise, enc: wire.Encoder) -> dict:
    cases = exercise.cases(hidden=False)
    statistical = exercise.judge is not None
    return {
        "name": exercise.name, "lesson": exercise.lesson, "tolerance": exercise.tolerance,
        "points": exercise.points, "uses": list(exercise.uses),
        "structure_only": statistical,
        "cases": [{"args": enc(c.args), "raises": c.raises, "mention": list(c.mention), "about": c.about}
                  for c in cases],
        "expected": [encode_answer(a, enc) for a in reference_answers(exercise, cases)],
        "mistakes": [] if statistical else [
            {"name": m.name, "explanation": m.explanation,
             "answers": [encode_answer(call_answer(m.variant, c), enc) for c in cases]}
            for m in exercise.mistakes],
    }


def hide_answers(source: str, keep: set[str]) -> str:
    """Replace the body of every top-level function not in ``keep`` by a raise,
    keeping its signature and docstring, so imports and names still work."""
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name not in keep:
            doc = ast.get_docstring(node)
            body = [ast.Expr(ast.Constant(doc))] if doc else []
            node.body = body + ast.parse(HIDDEN_BODY.format(name=node.name)).body
    note = ast.Expr(ast.Constant("Student edition: the model's functions are exercises and are not included."))
    if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant):
        tree.body[0] = note
    else:
        tree.body.insert(0, note)
    return ast.unparse(tree) + "\n"


def mark_lessons(folder: Path) -> None:
    import nbformat

    for path in sorted(folder.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(LESSON_NOTE, id="student-edition-note"))
        nbformat.write(nb, path)


def build_release(out: Path, force: bool = False) -> Path:
    if out.exists():
        if not force:
            raise ValueError(f"{out} exists; choose a new folder or pass --force")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for folder in ("notebooks", "exercises"):
        shutil.copytree(ROOT / folder, out / folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copytree(ROOT / "gpt2course", out / "gpt2course", ignore=shutil.ignore_patterns("__pycache__"))
    model = out / "gpt2course" / "numpy_gpt.py"
    model.write_text(hide_answers(model.read_text(), MODEL_KEEPS))
    mark_lessons(out / "notebooks")
    student = out / "grader"
    (student / "lessons" / "data").mkdir(parents=True)
    for name in STUDENT_GRADER_FILES:
        shutil.copy2(ROOT / "grader" / name, student / name)
    (student / "lessons" / "__init__.py").write_text(LOADER)
    enc = wire.Encoder(str(student / "lessons" / "data"), "p")
    entries = [exercise_entry(e, enc) for e in registry.load_all().values()]
    (student / "lessons" / "data" / "index.json").write_text(json.dumps(entries, indent=1))
    (out / "README.md").write_text(STUDENT_README)
    (out / "pyproject.toml").write_text(student_pyproject())
    return out


def student_pyproject() -> str:
    """The course's runtime dependencies, read from the course's own pyproject."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = ",\n".join(f'    "{d}"' for d in project["dependencies"])
    return f"""[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "gpt2-exactly-student"
version = "{project['version']}"
requires-python = "{project['requires-python']}"
dependencies = [
{deps},
]

[tool.setuptools.packages.find]
include = ["grader*", "gpt2course*"]

[tool.setuptools.package-data]
"grader.lessons" = ["data/*"]
"""


STUDENT_README = """# GPT-2, exactly: student edition

Set up once, from this folder, then open the course:

```bash
python -m venv .venv && .venv/bin/pip install -e .
.venv/bin/jupyter lab
```

(On a laptop without a GPU, install the CPU build of torch first:
`.venv/bin/pip install torch --index-url https://download.pytorch.org/whl/cpu`.)
Read the lessons in `notebooks/` and do the exercises in `exercises/`.

Each exercise ends with a `check(...)` cell. Here it runs the public examples
and names a classic mistake when your answer matches one; your instructor's
grader runs further hidden tests.

This edition does not include the course's reference model: the lessons are
shown with their outputs, and cells that call the model's functions raise an
error if re-run. An exercise that builds on earlier ones (`mlp`, `block`,
`gpt_logits`) needs your own earlier functions defined in the same notebook
before `check` can run it; your instructor's grader supplies its own.
"""

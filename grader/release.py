"""python -m grader release: the bundle an instructor hands out.

It holds the lessons, the exercise notebooks, the course package, and a
student grader whose check() runs the *public* cases only, comparing with
answers stored as data (.npy + JSON): the reference's answer and each
catalogued mistake's answer on those inputs. No reference code, no solutions,
no hidden tests and no batch grader are copied.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from . import registry, wire
from .judge import Broken, NotAttempted, Raised, call_answer, reference_answers

ROOT = Path(__file__).resolve().parent.parent
STUDENT_GRADER_FILES = ("__init__.py", "check.py", "judge.py", "wire.py", "registry.py")

LOADER = '''"""Student release: exercises rebuilt from stored public data (no reference code)."""
import importlib
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


def _shipped(where):
    if not where:
        return None
    module, name = where.split(":")
    return getattr(importlib.import_module(module), name)


def _load():
    load = wire.npy_loader(str(DATA))
    for entry in json.loads((DATA / "index.json").read_text()):
        cases = [Case(wire.decode(c["args"], load, GPTConfig), True, c["raises"], tuple(c["mention"]),
                      c["about"]) for c in entry["cases"]]
        register(Exercise(
            name=entry["name"], lesson=entry["lesson"], reference=_shipped(entry["shipped_reference"]),
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
    ref = exercise.reference
    # The lessons' NumPy model ships in the bundle anyway; an exercise whose
    # reference lives there may swap it in for the pieces a later exercise uses.
    shipped = f"{ref.__module__}:{ref.__name__}" if ref.__module__.startswith("gpt2course.") else None
    statistical = exercise.judge is not None
    return {
        "name": exercise.name, "lesson": exercise.lesson, "tolerance": exercise.tolerance,
        "points": exercise.points, "uses": list(exercise.uses), "shipped_reference": shipped,
        "structure_only": statistical,
        "cases": [{"args": enc(c.args), "raises": c.raises, "mention": list(c.mention), "about": c.about}
                  for c in cases],
        "expected": [encode_answer(a, enc) for a in reference_answers(exercise, cases)],
        "mistakes": [] if statistical else [
            {"name": m.name, "explanation": m.explanation,
             "answers": [encode_answer(call_answer(m.variant, c), enc) for c in cases]}
            for m in exercise.mistakes],
    }


def build_release(out: Path, force: bool = False) -> Path:
    if out.exists():
        if not force:
            raise ValueError(f"{out} exists; choose a new folder or pass --force")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for folder in ("notebooks", "exercises"):
        shutil.copytree(ROOT / folder, out / folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copytree(ROOT / "gpt2course", out / "gpt2course", ignore=shutil.ignore_patterns("__pycache__"))
    student = out / "grader"
    (student / "lessons" / "data").mkdir(parents=True)
    for name in STUDENT_GRADER_FILES:
        shutil.copy2(ROOT / "grader" / name, student / name)
    (student / "lessons" / "__init__.py").write_text(LOADER)
    enc = wire.Encoder(str(student / "lessons" / "data"), "p")
    entries = [exercise_entry(e, enc) for e in registry.load_all().values()]
    (student / "lessons" / "data" / "index.json").write_text(json.dumps(entries, indent=1))
    (out / "README.md").write_text(STUDENT_README)
    return out


STUDENT_README = """# GPT-2, exactly: student edition

Open `notebooks/` to read the lessons and `exercises/` to do the exercises
(`jupyter lab`, with numpy, torch, matplotlib and ipywidgets installed, and
this folder on your `PYTHONPATH`, e.g. `pip install -e .` is not needed:
start JupyterLab from this folder).

Each exercise ends with a `check(...)` cell. Here it runs the public examples
and names a classic mistake when your answer matches one; your instructor's
grader runs further hidden tests.
"""

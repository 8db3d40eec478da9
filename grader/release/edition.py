"""The sentences of an exercise notebook that differ between the two editions.

The full course (its check() runs hidden tests and supplies the reference
versions of earlier exercises) and the student release (check() runs the
public examples on the learner's own functions) must each tell the truth.
Rather than two hand-kept copies, cells tagged ``about-check`` and ``uses``
are written from here: by `grader stubs` for the course, by the release for
the student edition.
"""
from __future__ import annotations

import ast
import functools
import json
from pathlib import Path

from ..judging import registry
from . import catalogue

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"

ABOUT_CHECK_TAG, USES_TAG = "about-check", "uses"
COURSE, STUDENT = "course", "student"


def notebook_name(lesson: str) -> str:
    return f"{lesson}_exercises.ipynb"


def about_check(lesson: str, edition: str) -> str:
    names = [e.name for e in registry.for_lesson(lesson)]
    example = names[0] if names else "your_function"
    if edition == COURSE:
        what = ("`check` runs your function on the public examples and on hidden tests (other "
                "inputs and edge cases, and both float dtypes where the exercise has a dtype rule) "
                "and, when your answer matches a classic mistake, names it.")
    else:
        what = ("`check` runs your function on the public examples of this edition (in float32 "
                "and float64 where the exercise has a dtype rule) and, when your answer matches a "
                "classic mistake, names it. Your instructor's grader also runs hidden tests (other "
                "shapes and dtypes, edge cases) that this edition does not include, so passing "
                "`check` here is a good sign, not a guarantee: try your function on inputs of "
                "your own too.")
    return ("**How to work.** Replace each `raise NotImplementedError(...)` line with your code, "
            f"run the cell, then run the `check(...)` cell under it. {what} Stuck? "
            f"`hint({example})` prints a hint for that exercise, one more each time you call it, "
            f"from a nudge to an outline of the answer. {catalogue.legend()}")


def uses_note(lesson: str, edition: str) -> str:
    """Which earlier functions the lesson's composite exercises call, and who supplies them."""
    composite = [e for e in registry.for_lesson(lesson) if e.uses]
    if not composite:
        return ""
    lines = ["## Functions from earlier exercises", ""]
    for e in composite:
        lines.append(f"* `{e.name}` calls {_listing(e.uses)}.")
    every = sorted({u for e in composite for u in e.uses}, key=_order)
    earlier = [u for u in every if registry.get(u).lesson != lesson]
    sources = sorted({registry.get(u).lesson for u in earlier})
    lines += ["", "Their signatures:", ""]
    lines += [f"* `{signature(u)}` (lesson {registry.get(u).lesson[:2]})" for u in every]
    lines.append("")
    if earlier:
        u = earlier[-1]
        mine = (f"To run your own earlier version, read it from your saved exercise notebook: "
                f"`{u} = from_my_notebook(\"{registry.get(u).lesson}\", \"{u}\")` (with "
                "`from grader import from_my_notebook`); it is read again each time, so save that "
                "notebook first.")
    else:
        mine = ""
    if edition == COURSE:
        lines.append(
            "You do not need to copy anything here: while `check` (and the course's grader) runs "
            f"one of these functions, it supplies the course's own {_listing(every)} under those "
            "names, so your function is graded on its own and a slip in an earlier piece is not "
            "counted twice. To call these functions yourself outside `check`, define the pieces "
            "in this notebook first." + (f" {mine}" if mine else ""))
    else:
        where = ", ".join(f"`exercises/{notebook_name(s)}`" for s in sources)
        lines.append(
            f"In this edition `check` runs your function on **your own** {_listing(every)}: "
            "define each of them in this notebook, above the exercise, before you run its check"
            + (f" (paste your solutions from {where}, or read them with `from_my_notebook`)" if sources else "")
            + ". When one is missing, `check` says which. A slip in an earlier piece shows up "
            "here too; your instructor's grader supplies the course's own versions instead, so "
            "there your function is graded on its own." + (f" {mine}" if mine else ""))
    return "\n".join(lines)


@functools.lru_cache(maxsize=None)
def signature(name: str) -> str:
    """``name(args)`` as the exercise's stub declares it (solutions/ is the source of the stubs)."""
    nb = json.loads((SOLUTIONS / notebook_name(registry.get(name).lesson)).read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or "exercise" not in cell["metadata"].get("tags", []):
            continue
        for node in ast.parse("".join(cell["source"])).body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return f"{name}({ast.unparse(node.args)})"
    raise LookupError(f"no exercise cell defines {name} in solutions/{notebook_name(registry.get(name).lesson)}")


def _listing(names) -> str:
    names = [f"`{n}`" for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _order(name: str):
    ex = registry.get(name)
    return (ex.lesson, list(registry.load_all()).index(name))


def text_for(tag: str, lesson: str, edition: str) -> str | None:
    if tag == ABOUT_CHECK_TAG:
        return about_check(lesson, edition)
    if tag == USES_TAG:
        return uses_note(lesson, edition)
    return None


def fill(nb, lesson: str, edition: str) -> None:
    """Rewrite the edition-specific cells of an exercise notebook in place, and the line under
    each exercise's heading (its difficulty, importance and minutes, from the registry)."""
    for cell in nb.cells:
        for tag in cell.get("metadata", {}).get("tags", []):
            text = text_for(tag, lesson, edition)
            if text is not None:
                cell.source = text
    catalogue.fill_headings(nb, lesson)

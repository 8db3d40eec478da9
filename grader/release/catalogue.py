"""The course at a glance: each lesson's title and its exercises' difficulty, importance and
minutes (the registry's fields), said the same way everywhere they are shown.

- under each exercise's heading in its notebook: `fill_headings`, run by `grader stubs` for
  solutions/ and exercises/ (so `stubs --check` fails when a notebook and the registry differ)
  and by the student release for its own exercise notebooks;
- `python -m grader exercises`: `listing`;
- the README's lesson table: `markdown_table` (a test keeps the README equal to it);
- the static site's sidebar and front page (scripts/build_site.py).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .. import notebook as nbk
from ..judging import registry

ROOT = Path(__file__).resolve().parents[2]
DOT, EMPTY = "●", "○"
# "## Exercise 2: `one_hot_embed(wte, idx)`": the heading each exercise notebook gives an exercise
HEADING = re.compile(r"^## Exercise \d+: `(\w+)\(")
# the line under it, written from the registry
EFFORT = re.compile(r"^\*Difficulty [●○]{3} · importance [●○]{3} · about \d+ min\*$")
_TITLE = re.compile(r"^# Lesson \d+: (.+)$")


def dots(rating: int) -> str:
    """1 -> "●○○", 3 -> "●●●"."""
    return DOT * rating + EMPTY * (max(registry.RATINGS) - rating)


def effort_line(ex: registry.Exercise) -> str:
    return f"*Difficulty {dots(ex.difficulty)} · importance {dots(ex.importance)} · about {ex.minutes} min*"


def legend() -> str:
    """What the line under each heading means, for the notebook's how-to-work cell."""
    return ("Under each exercise's heading: how hard it is (●○○ a few lines the lesson all but "
            "shows, ●●● the hardest of the course), how much the rest of the course builds on it "
            "(●●● later exercises and lessons run on it, ●○○ a side road) and about how many "
            "minutes it takes.")


def fill_headings(nb, lesson: str) -> None:
    """Write the effort line under every exercise heading of ``nb`` (in place), replacing the
    one already there; a heading that names no exercise of ``lesson`` is a NotebookError."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        first, *rest = nbk.cell_source(cell).split("\n")
        found = HEADING.match(first)
        if not found:
            continue
        ex = registry.get(found.group(1))
        if ex is None or ex.lesson != lesson:
            raise nbk.NotebookError(f"the heading {first!r} names no exercise of lesson {lesson}")
        while rest and not rest[0].strip():
            rest.pop(0)
        if rest and EFFORT.match(rest[0]):
            rest.pop(0)
            while rest and not rest[0].strip():
                rest.pop(0)
        cell.source = "\n".join([first, "", effort_line(ex)] + (["", *rest] if rest else []))


def headings(nb) -> dict[str, str | None]:
    """{exercise name: the line under its heading (None when there is none)}, in notebook order."""
    found = {}
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines = [line for line in nbk.cell_source(cell).split("\n") if line.strip()]
        heading = HEADING.match(lines[0]) if lines else None
        if heading:
            found[heading.group(1)] = lines[1] if len(lines) > 1 and EFFORT.match(lines[1]) else None
    return found


@dataclass(frozen=True)
class Lesson:
    name: str                               # "01_embeddings"
    title: str                              # "Token and position embeddings"
    exercises: tuple[registry.Exercise, ...]

    @property
    def number(self) -> str:
        return self.name[:2]

    @property
    def minutes(self) -> int:
        return sum(e.minutes for e in self.exercises)

    @property
    def difficulty(self) -> str:
        """The range of its exercises' difficulties: "●○○", or "●○○–●●●"."""
        low, high = min(e.difficulty for e in self.exercises), max(e.difficulty for e in self.exercises)
        return dots(low) if low == high else f"{dots(low)}–{dots(high)}"


def lesson_title(path: Path) -> str:
    """"Token and position embeddings" from the lesson's first heading, "# Lesson 01: token ..."."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    first = "".join(cells[0]["source"]).split("\n")[0] if cells else ""
    found = _TITLE.match(first)
    if not found:
        raise nbk.NotebookError(f"{path}: its first line should be '# Lesson NN: title', not {first!r}")
    title = found.group(1).strip()
    return title[0].upper() + title[1:]


def lessons(root: Path = ROOT) -> list[Lesson]:
    """Every lesson with exercises, in order, titled from its notebook in notebooks/."""
    return [Lesson(name, lesson_title(root / "notebooks" / f"{name}.ipynb"), tuple(registry.for_lesson(name)))
            for name in registry.lessons()]


def markdown_table(root: Path = ROOT) -> str:
    """The README's lesson table: links to each lesson and its exercises, difficulty and minutes."""
    rows = ["| lesson | exercises | difficulty | minutes |", "|---|---|---|---|"]
    for lesson in lessons(root):
        n = len(lesson.exercises)
        rows.append(f"| {lesson.number} [{lesson.title}](notebooks/{lesson.name}.ipynb) "
                    f"| [{n} exercise{'s' if n > 1 else ''}](exercises/{lesson.name}_exercises.ipynb) "
                    f"| {lesson.difficulty} | {lesson.minutes} |")
    return "\n".join(rows)


def listing(only: list[str] | None = None, root: Path = ROOT) -> str:
    """`python -m grader exercises`: every exercise (or those of the lessons ``only`` names by
    number or name), lesson by lesson, with its difficulty, importance and minutes."""
    every = lessons(root)
    unknown = [o for o in only or () if not any(o in (s.number, s.name) for s in every)]
    if unknown:
        raise ValueError(f"no lesson {', '.join(unknown)}: the lessons are " + ", ".join(s.name for s in every))
    chosen = [s for s in every if not only or s.number in only or s.name in only]
    width = max(len(e.name) for s in chosen for e in s.exercises) + 2
    lines = [f"{'':{width + 2}}difficulty  importance  minutes"]
    for s in chosen:
        lines.append(f"{s.number} {s.title} (about {s.minutes} min)")
        lines += [f"  {e.name:{width}}{dots(e.difficulty)} {e.difficulty}       {dots(e.importance)} {e.importance}"
                  f"       {e.minutes:>4}" for e in s.exercises]
    exercises = [e for s in chosen for e in s.exercises]
    total = sum(e.minutes for e in exercises)
    lines.append(f"{len(exercises)} exercises, about {total} min ({total / 60:.1f} h)")
    return "\n".join(lines)

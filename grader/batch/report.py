"""What the instructor reads and what each learner gets back: gradebook.csv,
report.json and feedback.md.

All are built from saved results only, and every column and total follows the
batch's assignment (the lessons that count), so the console line, the CSV and
each learner's letter agree.

Nothing a learner's process sends reaches these files except through its judged
answers: what it printed, raised or wrote to its refusal log is reduced to the
grader's own words before it is judged (sandbox/results.in_own_words,
processes.refusals). Some of a result is still a stranger's text: the names of
uploaded files and notebooks (in notes and problems), and what the judge says of an
answer (a type's name, a dict's keys). Such text goes out only through the helpers below:
``md`` for Markdown (one capped line in an inline code span, where nothing
renders), ``verdict_lines`` for a verdict (check()'s plain text in a fenced code block, each
line made inert by ``plain``), ``csv_cell`` for the spreadsheet (no formulas), ``capped``
for JSON (json.dumps escapes; this bounds the sizes). The grader's own words (headings,
points) stay plain Markdown.
"""
from __future__ import annotations

import csv
import io
import json
import re
from types import SimpleNamespace

from ..checking import display

MAX_TEXT = 400              # characters of one learner-derived message, in feedback and the CSV
MAX_LINES = 20              # lines of one verdict's message in feedback (the judge writes a few)
MAX_FEEDBACK = 64 * 1024    # bytes of one feedback.md
MAX_JSON_TEXT = 4000        # characters of any string in report.json
MAX_JSON_ITEMS = 200        # items of any list inside a submission in report.json
TRUNCATED = " ... (truncated)"
STATUSES = ("passed", "failed", "not_attempted", "missing", "broken")
# Cells a spreadsheet would run as a formula (OWASP's list); real numbers are left alone.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def num(x: float) -> str:
    return f"{round(x, 2):g}"


# ------------------------------------------------------------------ learner text
def plain(text, limit: int = MAX_TEXT, spaces: bool = False) -> str:
    """One line of printable characters, at most ``limit`` of them (then TRUNCATED):
    newlines, control characters and invisible ones (bidi overrides, zero-width) become
    spaces, and lone surrogates (they cannot be written as UTF-8) become '?'. Runs of
    spaces become one, unless ``spaces`` (a quoted text in a verdict keeps its own)."""
    text = str(text)
    cut = len(text) > limit * 4  # bound the work before looking at each character
    text = text[: limit * 4].encode("utf-8", "replace").decode("utf-8")
    text = "".join(c if c.isprintable() else " " for c in text)
    text = text.strip() if spaces else " ".join(text.split())
    return text[:limit].rstrip() + TRUNCATED if cut or len(text) > limit else text


def md(text, limit: int = MAX_TEXT) -> str:
    """Learner text for Markdown: an inline code span, inside which no HTML, link, image,
    emphasis or heading renders; backticks become quotes so the span cannot be closed."""
    inner = plain(text, limit).replace("`", "'")
    return f"`{inner}`" if inner else "(empty)"


def csv_cell(value) -> str:
    """A cell a spreadsheet shows as text: one starting like a formula gets a leading quote."""
    text = str(value)
    if text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def capped(value):
    """A JSON-able value with every string valid Unicode and at most MAX_JSON_TEXT long,
    and every list at most MAX_JSON_ITEMS long (the rest counted)."""
    if isinstance(value, str):
        text = value[: MAX_JSON_TEXT + 1].encode("utf-8", "replace").decode("utf-8")
        return text if len(text) <= MAX_JSON_TEXT else text[:MAX_JSON_TEXT] + TRUNCATED
    if isinstance(value, dict):
        return {capped(k): capped(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [capped(v) for v in value[:MAX_JSON_ITEMS]]
        more = len(value) - MAX_JSON_ITEMS
        return items + ([f"... ({more} more)"] if more > 0 else [])
    return value


# ------------------------------------------------------------------ gradebook.csv, report.json
def columns(exercises) -> list[tuple[str, float]]:
    return [(e.name, e.points) for lesson in exercises.assignment for e in exercises.by_lesson[lesson]]


def missing_lessons(s, exercises) -> list[str]:
    return [x for x in exercises.assignment if x not in s.lessons]


LATE = "Canvas marks this submission late"  # lms.py's note, said in the row too


def problem_text(s, exercises) -> str:
    """The gradebook's problem column, and report.json's: what went wrong (collect's
    findings, unreadable notebooks, an id clash), each lesson of the assignment not graded,
    the exercises stopped by their time limit, and a late mark. A classlist.Row brings its
    own words for the roster and the late rule (``class_problems``), and one that stands for
    a learner who handed in nothing (``absent``) or is not graded yet (``pending``) only says so."""
    missing = "" if getattr(s, "absent", False) or getattr(s, "pending", False) else \
        "; ".join(f"no notebook graded for lesson {x}" for x in missing_lessons(s, exercises))
    timed_out = [v.exercise for v in s.verdicts if "timed out after" in v.message]
    own = getattr(s, "class_problems", None)
    late = ("late (Canvas)" if LATE in s.notes else "") if own is None else "; ".join(own)
    return "; ".join(x for x in (s.problem, missing, timed_out and f"timed out: {', '.join(timed_out)}", late) if x)


def every_exercise(verdicts: list[dict], exercises) -> list[dict]:
    """The learner's verdicts (as dicts), one per exercise of the assignment: an exercise
    whose lesson was not graded is listed as missing, with no points, so report.json lists
    what the gradebook's columns do."""
    have = {v["exercise"]: v for v in verdicts}
    for name, points in columns(exercises):
        have.setdefault(name, {"exercise": name, "status": "missing", "passed": 0, "total": 0, "points": 0.0,
                               "max_points": points, "message": "no notebook graded for its lesson",
                               "mistakes": [], "failures": []})
    return list(have.values())


def gradebook_csv(subs, exercises) -> str:
    cols = columns(exercises)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([csv_cell(x) for x in ["submission", *[c for c, _ in cols], "total", "max_total", "problem"]])
    for s in sorted(subs, key=lambda s: s.name):
        points = {v.exercise: v.points for v in s.verdicts}
        row = [plain(s.name), *[num(points.get(c, 0.0)) for c, _ in cols], num(s.total),
               num(exercises.max_total()), plain(problem_text(s, exercises), 2 * MAX_TEXT)]
        w.writerow([csv_cell(x) for x in row])
    return buf.getvalue()


def _as_in_the_gradebook(s, exercises) -> dict:
    d = s.to_dict()
    return d | {"problem": problem_text(s, exercises) or None, "max_total": exercises.max_total(),
                "verdicts": every_exercise(d["verdicts"], exercises)}


def report_json(subs, exercises, complete: bool, unverified=(), skipped=(), sandbox=None, classlist=None) -> str:
    """``unverified``: learners whose saved result failed its integrity check this run,
    so it was ignored and they were graded again. ``skipped``: every file of the inputs
    that was not graded (collect.Skipped), with its reason and whose upload held it.
    ``classlist``: the assignment file and the roster as classlist.ClassList.report says them."""
    report = {"assignment": exercises.assignment, "max_total": exercises.max_total(),
              "scoring": exercises.scoring,
              "submissions": [capped(_as_in_the_gradebook(s, exercises)) for s in sorted(subs, key=lambda s: s.name)],
              "complete": complete,
              "skipped": [{k: capped(v) for k, v in vars(x).items()} for x in skipped],
              "sandbox": sandbox or {}}  # the walls and limits learner code ran under
    report |= capped(classlist or {})
    if unverified:  # said only when it happened: on a clean run it read like an error
        report["unverified_state"] = {"regraded": sorted(unverified),
                                      "why": "the saved result failed its integrity check (edited, "
                                             "damaged or from another output folder) and was ignored"}
    return json.dumps(report, indent=1)


# ------------------------------------------------------------------ feedback.md
HIDDEN_ONLY = ("Points count the hidden tests only; the public examples, which `check()` runs in "
               "your notebook, are for practice.")


def feedback_md(s, exercises) -> str:
    """The learner's letter: what went wrong, points over the whole assignment, each
    exercise's verdict, and the lessons of the assignment not graded (said to be
    missing only when nothing went wrong that could explain it: an unreadable notebook
    is never called a missing one)."""
    lines = [f"# Feedback for {md(s.name)}", ""]
    if s.problem:
        head = "Something went wrong" if s.verdicts else "Nothing could be graded"
        lines += [f"**{head}:** {md(s.problem, 2 * MAX_TEXT)}", ""]
    lessons = exercises.assignment
    if lessons:
        lines += [f"Lessons {', '.join(f'`{x}`' for x in lessons)}: "
                  f"**{num(s.total)} / {num(exercises.max_total())}** points. {HIDDEN_ONLY}", ""]
    for lesson in missing_lessons(s, exercises):
        if s.problem:
            lines += [f"**No notebook for lesson `{lesson}` could be graded** (see above): its "
                      f"exercises score 0.", ""]
        else:
            lines += [f"**No notebook for lesson `{lesson}` was found** in this submission: its "
                      f"exercises score 0.", ""]
    for v in s.verdicts:
        status = v.status.replace("_", " ") if v.status in STATUSES else md(v.status)
        lines += [f"## {md(v.exercise)}: {num(v.points)} / {num(v.max_points)} ({status})", "",
                  *verdict_lines(v), ""]
    if s.notes and s.problem != "; ".join(s.notes):  # not when the notes are the problem
        lines += ["## Notes", ""] + [f"- {md(n)}" for n in s.notes[:MAX_JSON_ITEMS]] + [""]
    return cap_bytes("\n".join(lines))


def verdict_lines(v) -> list[str]:
    """The verdict as check() prints it (checking/display.plain: the same words and lines,
    wrapped at display.WIDTH), in a fenced code block, where nothing renders: the judge's
    message is the grader's sentences around learner text (what an exception said, a key of
    a returned dict). Each of its lines is made inert and capped first (``plain``)."""
    lines = [plain(line, 2 * MAX_TEXT, spaces=True) for line in str(v.message).split("\n")[:MAX_LINES]]
    said = SimpleNamespace(exercise=plain(v.exercise, 100), status=v.status, message="\n".join(lines),
                           mistakes=list(getattr(v, "mistakes", None) or ()))
    text = display.plain(said)
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    return [f"{fence}text", *text.split("\n"), fence]


def cap_bytes(text: str, limit: int = MAX_FEEDBACK) -> str:
    """At most ``limit`` bytes of UTF-8, cut at a line's end, saying it was cut."""
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    note = f"\n\n(truncated: this feedback was longer than {limit // 1024} KB)\n"
    kept = data[: limit - len(note.encode())].decode("utf-8", "ignore")
    return kept[: kept.rfind("\n")] + note if "\n" in kept else kept + note

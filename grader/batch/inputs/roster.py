"""The roster (``grader grade --roster FILE``): who is in the class, as the LMS exports it.

Three layouts are read, recognised by their header row:

- Canvas's gradebook export (Grades, Export): ``Student, ID, [SIS User ID,] SIS Login ID,
  [Root Account,] Section, <assignments...>``, then a ``Points Possible`` row (and a ``Muted`` or
  ``Manual Posting`` row), one row per student keyed by the Canvas user ``ID``; comma- or
  semicolon-separated, as Canvas writes it under a locale with decimal commas. The layout
  is Canvas's own exporter's and importer's (canvas-lms app/models/gradebook_exporter.rb,
  gradebook_importer.rb; https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-export-grades-in-the-Gradebook/ta-p/809).
- Moodle's assignment grading worksheet (View all submissions, Download grading worksheet):
  ``Identifier, Full name, Email address, Status, Grade, ..., Last modified (submission), ...,
  Last modified (grade), Feedback comments``, one row per participant, ``Identifier`` being
  ``Participant 12345``: the number Moodle's download puts in each folder's name
  (https://docs.moodle.org/en/Assignment_settings#Feedback_types, Offline grading worksheet).
- A plain CSV with an ``id`` column (the learner's id in the gradebook: their folder's name)
  and optionally ``name``, ``email``, ``section``, ``submitted`` (ISO 8601), ``canvas_id``,
  ``moodle_id`` (to export a class of folders to an LMS).

Each entry is matched to learners by the LMS's user id (a Canvas or Moodle download's learners
carry it, lms.Group) or by the gradebook id (``keys``); ``classlist`` does the matching. Rows
the grader cannot use are listed in ``Roster.problems``, never dropped silently. A submission
time (Moodle's "Last modified (submission)", a plain roster's ``submitted``) with no zone is in
the assignment's due date's zone.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .ids import safe_name

MAX_ROSTER = 16 * 2**20
MAX_ROWS = 100_000
CANVAS, MOODLE, PLAIN = "Canvas gradebook export", "Moodle grading worksheet", "plain CSV"
_MOODLE_TIMES = ("%A, %d %B %Y, %I:%M %p", "%d %B %Y, %I:%M %p", "%A, %d %B %Y, %H:%M", "%d/%m/%Y, %H:%M")
_PLAIN_COLUMNS = ("id", "name", "email", "section", "submitted", "canvas_id", "moodle_id")


class RosterError(ValueError):
    """A roster the grader cannot read at all (the CLI exits 2 with this message)."""


@dataclass
class Entry:
    keys: tuple[tuple[str, str], ...]  # ("Canvas", "4021"), ("Moodle", "12345"), ("id", "ann")
    row_id: str                        # the gradebook id of their row when they handed in nothing
    name: str = ""                     # as the LMS writes it: "Smith, Jane" (Canvas), "Jane Smith"
    canvas_id: str = ""
    moodle_id: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""
    email: str = ""
    submitted: datetime | None = None  # when they last submitted, if the roster says
    grade_modified: str = ""           # Moodle's "Last modified (grade)", returned as it came

    def identity(self) -> dict:
        return {k: v for k, v in vars(self).items() if k not in ("keys", "row_id", "submitted") and v}


@dataclass
class Roster:
    path: str
    layout: str
    entries: list[Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)   # rows not used, and why


def read(path: Path) -> Roster:
    where = str(path)
    try:
        data = path.read_bytes()[: MAX_ROSTER + 1]
    except FileNotFoundError:
        raise RosterError(f"--roster {where}: no such file") from None
    except OSError as exc:
        raise RosterError(f"--roster {where}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_ROSTER:
        raise RosterError(f"--roster {where}: larger than {MAX_ROSTER // 2**20} MB; is it the class's roster?")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterError(f"--roster {where}: not UTF-8 text; export it from the LMS as UTF-8 (Moodle: the "
                          "encoding option of the download; a spreadsheet: CSV UTF-8)") from None
    rows = [r for r in csv.reader(io.StringIO(text), delimiter=_delimiter(text))]
    if not rows:
        raise RosterError(f"--roster {where}: the file is empty")
    if len(rows) > MAX_ROWS:
        raise RosterError(f"--roster {where}: more than {MAX_ROWS} rows")
    header = [h.strip() for h in rows[0]]
    for layout, recognise, entries in ((CANVAS, _is_canvas, _canvas), (MOODLE, _is_moodle, _moodle),
                                       (PLAIN, _is_plain, _plain)):
        if recognise(header):
            roster = Roster(where, layout)
            column = {h: i for i, h in reversed(list(enumerate(header)))}  # the first of a repeated name
            for n, row in enumerate(rows[1:], start=2):
                cells = [c.strip() for c in row] + [""] * (len(header) - len(row))
                got = entries(cells, column, n, roster.problems)
                if got is not None:
                    roster.entries.append(got)
            _once(roster)
            return roster
    raise RosterError(f"--roster {where}: its header ({', '.join(header[:6])}{', ...' if len(header) > 6 else ''}) "
                      f"is none of the layouts the grader reads: Canvas's gradebook export (Student, ID, SIS User "
                      f"ID, SIS Login ID, Section, ...), Moodle's grading worksheet (Identifier, Full name, Email "
                      f"address, ...) or a plain CSV with an id column")


def _delimiter(text: str) -> str:
    """Canvas writes ';' where a decimal comma is the locale's; like Canvas's importer, take ';'
    when it splits the first lines into more fields, as many on each, than ',' does."""
    lines = text.splitlines()[:3]

    def fields(sep):  # the number of fields when every line has as many, else 0
        counts = {len(r) for r in csv.reader(lines, delimiter=sep)}
        return counts.pop() if len(counts) == 1 else 0

    return ";" if fields(";") > fields(",") else ","


def _is_canvas(h):
    return len(h) > 3 and "Student" in h[0] and h[1] == "ID" and "Section" in h


def _is_moodle(h):
    return "Identifier" in h and "Full name" in h


def _is_plain(h):
    return "id" in [x.lower() for x in h]


def _canvas(cells, column, n, problems) -> Entry | None:
    name, uid = cells[0], cells[column["ID"]]
    if "Points Possible" in name or all(c == "" or c.lower() == "muted" or c.lower().startswith("manual posting")
                                        for c in cells):
        return None  # Canvas's own rows about the assignments, not students
    if name in ("Test Student", "Student, Test"):
        return None  # the course's Student View user, which Canvas lists last
    if name.startswith('="') and name.endswith('"'):
        name = name[2:-1]  # Canvas's guard against a name read as a formula
    if not uid.isdigit():
        problems.append(f"row {n} ({_short(name)}): ID {_short(uid)!r} is not a Canvas user id; not used")
        return None
    lastfirst = "".join(c for c in name.lower() if c.isalnum()) or "student"
    get = {k: cells[column[k]] if k in column else "" for k in ("SIS User ID", "SIS Login ID", "Section")}
    return Entry((("Canvas", uid),), safe_name(f"{lastfirst}_{uid}"), name, canvas_id=uid,
                 sis_user_id=get["SIS User ID"], sis_login_id=get["SIS Login ID"], section=get["Section"])


def _moodle(cells, column, n, problems) -> Entry | None:
    ident, name = cells[column["Identifier"]], cells[column["Full name"]]
    number = ident.rpartition(" ")[2]
    if not ident or not number.isdigit():
        problems.append(f"row {n} ({_short(name)}): Identifier {_short(ident)!r} is not Moodle's "
                        "\"Participant <number>\"; not used")
        return None
    name = " ".join(name.replace("_", " ").replace("/", " ").split())  # as Moodle names its folders
    entry = Entry((("Moodle", number),), safe_name(f"{name}_{number}"), name, moodle_id=number,
                  email=cells[column["Email address"]] if "Email address" in column else "",
                  grade_modified=cells[column["Last modified (grade)"]] if "Last modified (grade)" in column else "")
    if "Last modified (submission)" in column:
        entry.submitted = _time(cells[column["Last modified (submission)"]], n, name, problems, _MOODLE_TIMES)
    return entry


def _plain(cells, column, n, problems) -> Entry | None:
    lower = {h.lower(): i for h, i in column.items()}
    get = {k: cells[lower[k]] for k in _PLAIN_COLUMNS if k in lower}
    if not get.get("id"):
        problems.append(f"row {n}: no id; not used")
        return None
    keys = [("id", safe_name(get["id"]))]
    for platform, key in (("Canvas", "canvas_id"), ("Moodle", "moodle_id")):
        value = get.get(key, "")
        if value and not value.isdigit():
            problems.append(f"row {n} ({_short(get['id'])}): {key} {_short(value)!r} is not a number; left out")
            get[key] = ""
        elif value:
            keys.append((platform, value))
    entry = Entry(tuple(keys), keys[0][1], get.get("name", ""), get.get("canvas_id", ""),
                  get.get("moodle_id", ""), section=get.get("section", ""), email=get.get("email", ""))
    entry.submitted = _time(get.get("submitted", ""), n, get["id"], problems, ())
    return entry


def _time(text: str, n: int, who: str, problems: list[str], formats) -> datetime | None:
    if text in ("", "-"):
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        pass
    for form in formats:
        try:
            return datetime.strptime(text, form)
        except ValueError:
            continue
    problems.append(f"row {n} ({_short(who)}): submission time {_short(text)!r} not understood (ISO 8601, e.g. "
                    "2025-03-14T23:59:00+01:00, or Moodle's English dates); no late rule applied to it")
    return None


def _once(roster: Roster) -> None:
    """Each LMS user or id once: a second row for one is listed and left out."""
    seen: dict[tuple[str, str], int] = {}
    kept = []
    for entry in roster.entries:
        clash = next((k for k in entry.keys if k in seen), None)
        if clash:
            roster.problems.append(f"{_short(entry.name or entry.row_id)}: a second row for {clash[0]} "
                                   f"{_short(clash[1])}; only the first is used")
            continue
        seen.update(dict.fromkeys(entry.keys, 1))
        kept.append(entry)
    roster.entries = kept


def _short(text: str, limit: int = 60) -> str:
    text = " ".join("".join(c if c.isprintable() else " " for c in str(text)).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."

"""The class as the gradebook shows it: every saved result joined with the roster and the
assignment's late rule (``--roster``, ``--assignment``).

- Each learner is matched to a roster entry by the LMS's user id their download carries
  (collect.Learner.platform/uid) or by their gradebook id (roster.Entry.keys): the grader's own
  id mapping, never a name a learner typed.
- A roster entry no learner matches gets a row of its own: 0 points, problem "no submission".
- A learner no roster entry matches keeps their row, and its problem says "not on the roster".
- A late submission is marked, and scored by the assignment's rule, from the best evidence
  there is: a submission time on the roster (Moodle's worksheet, a plain roster's column),
  else Canvas's LATE mark in the download's names (how late is not in them: it counts as one
  started day, the least it can be, and the row says so); no evidence, no mark.

``Row`` is a ``records.Submission`` with what this adds (identity for the exports, the late
mark, the roster's words), so report.gradebook_csv, report_json and feedback_md take it as
they take any result; its ``total`` is after the late rule. Saved results are never changed:
a rerun with another rule or roster only rebuilds what is written from them.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from . import assignment as assignment_file
from .inputs import roster as roster_file
from .records import Submission
from .report import LATE as CANVAS_LATE  # lms.py's note for a LATE_ file name


PENDING = "pending: not graded yet (the run stopped first): run the same command again"


@dataclass
class Row(Submission):
    identity: dict = field(default_factory=dict)   # LMS ids and names, for ``grader export``
    late: dict | None = None                       # days, rule, share of the points kept, evidence
    class_problems: list[str] = field(default_factory=list)  # the roster's and the late rule's words
    absent: bool = False                           # on the roster, handed in nothing
    pending: bool = False                          # handed in, not graded yet (a run stopped first)

    @property
    def total(self) -> float:
        points = round(sum(v.points for v in self.verdicts), 4)
        return round(points * self.late["kept"], 4) if self.late else points


class ClassList:
    def __init__(self, assignment=None, roster=None):
        self.assignment, self.roster = assignment, roster
        self.index = {k: e for e in (roster.entries if roster else []) for k in e.keys}

    # ---------------------------------------------------------- matching
    def entry(self, learner):
        keys = [("id", learner.name)] + ([(learner.platform, learner.uid)] if learner.platform else [])
        return next((self.index[k] for k in keys if k in self.index), None)

    def absent(self, learners) -> list:
        taken = {id(e) for x in learners if (e := self.entry(x)) is not None}
        return [e for e in (self.roster.entries if self.roster else []) if id(e) not in taken]

    # ---------------------------------------------------------- rows
    def present(self, sub, learner) -> Row:
        """The learner's saved result as the gradebook, report and feedback show it."""
        row = Row(**{f.name: getattr(sub, f.name) for f in dataclasses.fields(Submission)})
        row.notes = list(sub.notes)
        entry = self.entry(learner) if learner is not None else None
        row.identity = _identity(learner, entry)
        if self.roster is not None and entry is None:
            row.class_problems.append(f"not on the roster ({self.roster.path})")
        row.late = self._late(sub, entry)
        if row.late:
            row.class_problems.append(row.late["said"])
            row.notes.append(row.late["told"])
        elif CANVAS_LATE in sub.notes:
            row.class_problems.append("late (Canvas)")
        return row

    def rows(self, pairs) -> list[Row]:
        """``pairs``: (learner, saved result or None) for every learner of the batch. The
        saved ones presented, a learner not graded yet as pending (a run interrupted leaves the
        gradebook saying so, not silent about them), then a row for each roster entry no
        learner matches."""
        rows = [self.present(sub, x) if sub is not None else
                Row(x.name, problem=PENDING, identity=_identity(x, self.entry(x)), pending=True) for x, sub in pairs]
        names = {r.name.casefold() for r in rows} | {x.name.casefold() for x, _ in pairs}
        for e in self.absent([x for x, _ in pairs]):
            name = e.row_id if e.row_id.casefold() not in names else f"{e.row_id}--roster"
            names.add(name.casefold())
            rows.append(Row(name, problem="no submission", identity=_identity(None, e), absent=True))
        return rows

    def _late(self, sub, entry) -> dict | None:
        a = self.assignment
        if a is None or a.due is None:
            return None
        if entry is not None and entry.submitted is not None:
            days, known = a.days_late(entry.submitted), True
            evidence = f"submitted {entry.submitted.isoformat(sep=' ')} (roster), due {a.due.isoformat(sep=' ')}"
        elif CANVAS_LATE in sub.notes:
            days, known = 1, False
            evidence = "Canvas marks it late; how late is not in the download, so it counts as 1 started day"
        else:
            return None
        if days <= 0:
            return None
        kept, points = a.late.factor(days), round(sum(v.points for v in sub.verdicts), 4)
        late = f"late by {days} day{'s' * (days != 1)}" if known else "late (Canvas: how late is unknown, 1 day counted)"
        rule = {"accept": "accepted", "zero": "scores 0 (late rule: zero)",
                "penalty": f"-{100 - 100 * kept:g}% ({points:g} -> {round(points * kept, 2):g})"}[a.late.rule]
        return {"days": days, "days_known": known, "rule": a.late.rule, "kept": kept, "points_before": points,
                "evidence": evidence, "said": f"{late}: {rule}",
                "told": f"Late: {evidence}. The assignment's rule: {a.late.describe()}; this submission keeps "
                        f"{100 * kept:g}% of its {points:g} points."}

    # ---------------------------------------------------------- what is said about the class
    def report(self, rows) -> dict:
        """report.json's account of the assignment file and the roster (``grader export`` reads it)."""
        out = {"assignment_file": self.assignment.to_dict() if self.assignment else None, "roster": None}
        if self.roster is not None:
            r = self.roster
            out["roster"] = {"file": r.path, "layout": r.layout, "entries": len(r.entries),
                             "no_submission": [x.name for x in rows if x.absent],
                             "not_on_roster": [x.name for x in rows if not x.absent and not self._on(x)],
                             "problems": r.problems}
        return out

    def _on(self, row) -> bool:
        return not any(p.startswith("not on the roster") for p in row.class_problems)

    def notes(self, learners) -> list[str]:
        """Said on the console before grading: what the roster could not use, who is missing
        from it or from the submissions, and whose lateness nothing shows."""
        said = []
        if self.roster is not None:
            r = self.roster
            said += [f"roster {r.path}: {p}" for p in r.problems]
            absent = self.absent(learners)
            if absent:
                said.append(f"{len(absent)} of the {len(r.entries)} learners on the roster handed in nothing: their "
                            f"rows say \"no submission\" ({_some([e.row_id for e in absent])})")
            strangers = [x.name for x in learners if self.entry(x) is None]
            if strangers:
                said.append(f"{len(strangers)} submission(s) match nobody on the roster ({r.layout} {r.path}); they "
                            f"keep their rows, marked \"not on the roster\": {_some(strangers)}")
        if self.assignment is not None and self.assignment.due is not None:
            unknown = [x.name for x in learners if x.platform != "Canvas" and  # Canvas marks its late files
                       ((e := self.entry(x)) is None or e.submitted is None)]
            if unknown and len(unknown) == len(learners):
                said.append("the assignment has a due date, but no learner's submission time is known (a Moodle "
                            "worksheet or a plain roster with submitted times gives them; Canvas's download marks "
                            "late files): no late rule applied")
            elif unknown:
                said.append(f"{len(unknown)} learner(s)' submission times are unknown: no late rule applied to them "
                            f"({_some(unknown)})")
        return said


def from_files(assignment: str | None, roster: str | None) -> ClassList:
    """The class list of --assignment FILE and --roster FILE (either may be None); a file the
    grader cannot use raises its AssignmentError or RosterError (ValueErrors: the CLI exits 2)."""
    return ClassList(assignment_file.load(Path(assignment)) if assignment else None,
                     roster_file.read(Path(roster)) if roster else None)


def _identity(learner, entry) -> dict:
    """Who the row is in the LMS: the download's user id and name, the roster's fields over them."""
    found = {}
    if learner is not None and learner.platform:
        found = {"canvas_id" if learner.platform == "Canvas" else "moodle_id": learner.uid,
                 "name": learner.raw.removesuffix(f"_{learner.uid}")}
    return found | (entry.identity() if entry is not None else {})


def _some(names: list[str], n: int = 8) -> str:
    return ", ".join(names[:n]) + (f" and {len(names) - n} more" if len(names) > n else "")

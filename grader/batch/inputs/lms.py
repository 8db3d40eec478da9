"""Recognising a learning platform's download of a whole class, by its names alone.

- Canvas ("Download Submissions"): one flat zip of files, each named
  ``<lastfirst>_[LATE_]<user id>_<submission id>_<original name>`` (``late_`` seen too), where
  ``lastfirst`` is the learner's names run together in lower case; one learner may
  have several files.
- Moodle ("Download all submissions"): one folder per learner and plugin named
  ``<Full Name>_<participant id>_assignsubmission_<plugin>_`` holding the files as
  uploaded, or, without folders, flat files with that prefix before the original name.

The recogniser is strict: a download is taken for a platform's only when every one
of its top-level entries matches that platform's whole pattern, so a class folder
that merely holds one odd name is never regrouped. Entries are grouped into learners
by the platform's user id (one learner may have several files or folders); the id
the grader gives them keeps the name and that id (``smithjane_4021``), so two
learners of the same name stay apart and a row can be matched to the platform's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_CANVAS = re.compile(r"(?P<who>[^\W_]+)_(?P<late>LATE_|late_)?(?P<uid>\d+)_(?P<sid>\d+)_(?P<file>.+)")
_MOODLE = re.compile(r"(?P<who>[^_]+)_(?P<uid>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<file>.*)")


@dataclass
class Group:
    """One learner of a platform download: the top-level entries that are theirs."""

    raw: str                                   # the id's source: name and platform id
    platform: str
    uid: str
    entries: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _canvas(name: str, is_folder: bool):
    m = _CANVAS.fullmatch(name)
    if is_folder or not m or m["who"] != m["who"].lower():
        return None
    return m["who"], m["uid"], ["Canvas marks this submission late"] if m["late"] else []


def _moodle(name: str, is_folder: bool):
    m = _MOODLE.fullmatch(name)
    # a folder's name ends with the prefix itself; a flat file's continues with its own name
    if not m or (m["file"] == "") != is_folder or m["who"] != m["who"].strip():
        return None
    return m["who"], m["uid"], []


def groups(entries: dict[str, bool]) -> list[Group] | None:
    """``entries``: top-level name -> is a folder (junk already left out). The learners
    of a Canvas or Moodle download, in a stable order, or None when it is neither."""
    if not entries:
        return None
    for platform, match in (("Canvas", _canvas), ("Moodle", _moodle)):
        found = {name: match(name, folder) for name, folder in entries.items()}
        if all(found.values()):
            by_uid: dict[str, Group] = {}
            for name in sorted(found):
                who, uid, notes = found[name]
                group = by_uid.setdefault(uid, Group(f"{who}_{uid}", platform, uid))
                group.entries.append(name)
                group.notes += [n for n in notes if n not in group.notes]
            return [by_uid[uid] for uid in sorted(by_uid, key=lambda u: (by_uid[u].raw, u))]
    return None

"""Learner ids: made from a name a learner chose (a folder, a zip, a notebook), so a
stranger's text.

It is sanitised to a bounded folder-safe name. When two inputs end up with the same
id (even one differing only in case, in invisible characters or in look-alike Unicode),
the plain id stays with the one input that spells it exactly, if there is one: a
folder's name before a file's (a folder is made by the instructor or the platform, a
file's name may be the learner's own, "carol.zip" beside the genuine "carol/"). Every
other gets a suffix from a hash of its own path, and its row's problem says so, naming
the rest: no input takes the plain name by coming first or by a look-alike spelling,
and none can rename the learner whose name it copies. A plain id never holds "--", a suffixed one always does, so no learner
can name themselves into another's suffixed id. A learner found inside a zip that is
no class of the instructor's is named under the zip (``namespaced``): "upload.carol".
"""
from __future__ import annotations

import hashlib
import re
import unicodedata

MAX_ID = 64                       # characters of a plain id (a suffix adds "--" and 10)
SUFFIX = "--"


def safe_name(text: str) -> str:
    """A folder-safe id: NFKC (full-width and other look-alikes fold to ASCII where
    Unicode says they are the same), invisible characters dropped (so "an\u200bn" is
    "ann" and clashes with it), whitespace collapsed, then only [A-Za-z0-9_.-], no
    leading dot or dash, no "--", at most MAX_ID characters."""
    text = "".join(c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) != "Cf")
    text = " ".join(text.split())
    text = re.sub(r"[^A-Za-z0-9_.-]+", "_", text)
    text = re.sub(r"-{2,}", "-", re.sub(r"_{2,}", "_", text))
    return text.strip("._-")[:MAX_ID].rstrip("._-") or "submission"


def namespaced(upload: str, name: str) -> str:
    """The id of ``name`` found inside the zip ``upload``: both parts made safe, joined by
    a dot, so it is never the plain id of a classmate's own upload (unless one is named
    "upload.name" too: then both get a suffix, as any clash does)."""
    return f"{safe_name(upload)[:MAX_ID // 2]}.{safe_name(name)}"[:MAX_ID].rstrip("._-")


def unique(learners: list) -> list:
    """Ids that clash (case-insensitively: feedback/Ann and feedback/ann are one folder on
    some disks) all get a suffix from their own path's hash, longer until none clash.
    ``learners``: collect.Learner, each with name, source and where; problems get the note."""
    first = _clashes(learners)
    kept = {id(x) for group in first if (x := _rightful(group)) is not None}
    bases = {id(x): x.name for group in first for x in group}
    for width in (10, 16, 64):  # distinct sources: sha256 itself never clashes
        for group in _clashes(learners):
            for x in group:
                if id(x) not in kept:  # a suffixed id holds "--": it never clashes with a plain one
                    x.name = f"{x.name.split(SUFFIX)[0]}{SUFFIX}{_digest(x.source, width)}"
    for group in first:  # said once, with the final ids
        for x in group:
            if id(x) not in kept:
                x.problems.append(_clash_note(bases[id(x)], group, x))
    return learners


def _rightful(group: list):
    """The one input of a clash that keeps the plain id, or None: the only one spelling it
    exactly (not made safe, not case-folded), a folder before a file."""
    exact = [x for x in group if x.raw == x.name]
    folders = [x for x in exact if not getattr(x, "file_named", False)]
    return (folders or exact)[0] if len(folders or exact) == 1 else None


def _clashes(learners: list) -> list[list]:
    groups: dict[str, list] = {}
    for x in learners:
        groups.setdefault(x.name.casefold(), []).append(x)
    return [g for g in groups.values() if len(g) > 1]


def _digest(source: str, width: int) -> str:
    return hashlib.sha256(source.encode("utf-8", "surrogateescape")).hexdigest()[:width]


def _clash_note(base: str, group: list, x) -> str:
    others = [g for g in group if g is not x]
    names = ", ".join(repr(g.where) for g in others[:4]) + (", ..." if len(others) > 4 else "")
    plain = [g for g in group if g.name == base]
    kept = (f"{plain[0].where!r} keeps it, as the one spelling it exactly ({'a file' if plain[0].file_named else 'a folder'}"
            f"); the others got") if plain else "each got"
    return (f"{len(group)} inputs give the id {base}: this one ({x.where!r}) and {names}; {kept} a "
            f"suffix from its path, so this one is {x.name}")

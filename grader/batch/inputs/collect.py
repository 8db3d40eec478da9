"""Turning the instructor's arguments into learners: notebooks, folders and zip files.

The shape of the inputs is the instructor's, never a learner's:

- Only an argument can be a class, and only when it is given alone or named with
  ``--class`` (``ClassArgument``): ``grader grade subs/*`` passes each learner's upload
  as an argument, and any of them could be shaped like a class. A notebook is one
  learner. A folder or a zip that may be a class is one when it holds learners and no
  notebook of its own: a folder or a zip per learner (a class's zip may wrap them in one
  top folder), or a Canvas or Moodle download (``lms``: files grouped by the platform's
  user id; a learner can forge one's names, so that too counts only alone or with
  ``--class``). Otherwise it is one learner: notebooks at its top, or the student edition
  handed back whole (an ``exercises/`` folder); one of several arguments shaped like a
  class is one learner too, and its row says so. An argument the caller marks as one
  learner (``LearnerArgument``: Gradescope's submission folder) is one whatever it holds. Any
  other argument is skipped, with its reason.
- A row made from inside a zip never takes a name from outside it: a zip argument's
  learners are named under the zip (``upload.carol`` for upload.zip's ``carol/``), since
  ``grader grade subs/*`` passes each learner's upload as an argument and one of them
  could hold folders named like classmates. Only a folder the instructor made, a Canvas
  or Moodle download, or a zip the instructor names a class (``--class``: a
  ``ClassArgument``) gives its learners the names they have in it.
- A learner's upload (a folder or zip in a class, or an argument that is one learner)
  is one learner whatever it holds: every notebook in it, in zips inside it too, is
  theirs, and folders in it named like classmates stay theirs, so no upload creates,
  fills or renames another learner's row. (Of a student edition handed back whole,
  the lessons in ``notebooks/`` are not graded, only ``exercises/``.)
- Every file is accounted for: a notebook is graded; anything else is listed in
  ``Collected.skipped`` with its reason (report.json and the console). What a
  learner's upload held and was not graded is said to them (their notes), and in
  their row's problem when it was refused (a link, an unsafe zip member, a zip that
  could not be opened) or when nothing in the upload is a notebook.
- Each notebook is read here once, one at a time, to hash it and find its lesson by cheap
  evidence, then dropped (``files``: bounded; zips are never extracted); it is read again
  only while its learner is graded, checked against that hash, so a learner's bytes are
  in memory only while they are graded, and the saved fingerprint is of the graded bytes.
- A learner's notebooks together are at most MAX_LEARNER_BYTES (a zip's budget is per zip;
  this one is across all of a learner's zips and folders) and MAX_LEARNER_NOTEBOOKS in
  number: those past either are listed, not read, and their row says so, so one upload's
  grading time is bounded whatever it holds.

Ids: ``ids`` (a learner's id is a stranger's text, made safe and unique).
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from . import lms
from .ids import MAX_ID, namespaced, safe_name, unique  # noqa: F401 (MAX_ID: part of this interface)
from .files import ZIP_ERRORS, File, Located, disk_file, folder_files, is_notebook, is_zip, junk, zip_files
from .reading import lesson_evidence
from ...notebook import MAX_NOTEBOOK_BYTES

NOT_A_LEARNER = "not a learner's folder, zip or notebook: a class holds one folder or zip per learner"
MAX_LEARNER_BYTES = 64 * 2**20    # one learner's notebooks together (an exercise notebook is under 1 MB)
MAX_LEARNER_NOTEBOOKS = 50        # notebooks read of one upload (the course has 9 exercise notebooks)
CHANGED = "the file changed after grading began (run the same command again to grade it as it is now)"


class InputError(ValueError):
    """An argument the grader cannot use at all (the CLI exits 2 with this message)."""


class ClassArgument(type(Path())):
    """An argument the instructor says is a whole class (``--class``): a zip whose learners
    keep the names they have in it (any other zip's are named under the zip)."""


class LearnerArgument(type(Path())):
    """An argument the instructor says is one learner's upload, whatever it holds: a folder
    whose top holds several folders (a repository: ``exercises/`` beside ``notebooks/``) is
    still one learner, with no note that it looks like a class. Gradescope's
    /autograder/submission is one (grader/gradescope/run.py)."""


@dataclass
class Notebook:
    """A notebook of a learner: its bytes in memory (``data``: a cluster's task, a test), or
    where they live (``where``), read by ``load`` when the learner is graded."""

    name: str                   # the path inside the learner's upload, for messages
    data: bytes | None          # at most MAX_NOTEBOOK_BYTES, when held in memory
    problem: str | None = None  # why it could not be read
    where: Located | None = None
    digest: str | None = None   # sha256 of the bytes graded
    size: int = 0
    lesson: str | None = None   # by cheap evidence (reading.lesson_evidence), for planning

    def __post_init__(self):
        if self.data is not None:
            self.digest, self.size = hashlib.sha256(self.data).hexdigest(), len(self.data)
            if self.lesson is None and len(self.data) <= MAX_NOTEBOOK_BYTES:
                self.lesson = lesson_evidence(self.name, self.data)

    def load(self) -> tuple[bytes | None, str | None]:
        """(the bytes, None), or (None, why not): read where they live, and checked to be
        the bytes collect hashed (the fingerprint's), never other ones."""
        if self.data is not None or self.where is None:
            return self.data, self.problem
        try:
            data = self.where.read()
        except (OSError, IndexError, *ZIP_ERRORS) as exc:  # IndexError: the zip lost members since
            return None, f"could not be read again ({type(exc).__name__})"
        if len(data) != self.size or hashlib.sha256(data).hexdigest() != self.digest:
            return None, CHANGED
        return data, None


@dataclass
class Skipped:
    path: str                   # as the instructor finds it: a zip's members under the zip's path
    reason: str
    learner: str | None = None  # whose upload it was in (their final id); None: nobody's


@dataclass
class Learner:
    name: str
    notebooks: list[Notebook] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # their row's problem: a refused file, a clash
    source: str = ""    # where the input came from, stable across runs: hashed for unique ids
    raw: str = ""       # the name as the input spelled it
    where: str = ""     # the upload's path as the instructor finds it
    file_named: bool = False  # named after a file (a zip, a notebook), which a learner may have named
    notes: list[str] = field(default_factory=list)     # for their feedback: files not graded, late
    skipped: list[Skipped] = field(default_factory=list)
    platform: str = ""  # "Canvas" or "Moodle" for a learner of a platform's download (lms.Group) ...
    uid: str = ""       # ... and the platform's user id, read from the download's names

    def fingerprint(self) -> str:
        """Of everything grading reads: the notebooks' names and bytes, and what is said."""
        h = hashlib.sha256()
        for text in (self.name, *self.problems, "", *self.notes, ""):
            _feed(h, text.encode("utf-8", "surrogateescape"))
        for nb in sorted(self.notebooks, key=lambda n: n.name):
            _feed(h, nb.name.encode("utf-8", "surrogateescape"))
            _feed(h, b"data:" + bytes.fromhex(nb.digest) if nb.digest is not None
                  else f"problem:{nb.problem}".encode("utf-8", "surrogateescape"))
        return h.hexdigest()


def _feed(h, data: bytes) -> None:
    h.update(len(data).to_bytes(8, "big") + data)  # length-prefixed: no two lists hash alike


@dataclass
class Collected:
    learners: list[Learner]
    skipped: list[Skipped]      # every file under the arguments that is not a graded notebook


def collect(args: list[Path]) -> Collected:
    """Learners in a stable order, with unique ids, and every file not graded."""
    learners: list[Learner] = []
    skipped: list[Skipped] = []
    classes = {os.path.abspath(a) for a in args if isinstance(a, ClassArgument)}  # given both ways: a class
    alone = len({os.path.abspath(a) for a in args}) == 1
    for arg in args:
        where, source = str(arg), os.path.abspath(arg)
        klass = source in classes
        may_be_class = klass or alone
        if klass and not (arg.is_dir() or is_zip(arg.name) and arg.is_file()):
            raise InputError(f"--class {arg}: a class is a folder or a zip file of learners; give a single "
                             "learner's notebook without --class")
        if isinstance(arg, LearnerArgument) and arg.is_dir():
            found, rest = _one_learner(files=folder_files(arg), raw=arg.name, where=where, source=source)
        elif arg.is_dir():
            found, rest = _container(folder_files(arg), arg.name, where, source, "/", klass=klass,
                                     may_be_class=may_be_class)
        elif is_zip(arg.name) and arg.is_file():
            head, *members = zip_files(arg, ())
            found, rest = ([_learner([head], arg.stem, where, source, 0)], []) if head.problem else \
                _container(members, arg.stem, where, source, "!/", wrapped=True, klass=klass,
                           upload=None if klass else arg.stem, may_be_class=may_be_class)
            for x in found:
                x.file_named = x.raw == arg.stem
        elif is_notebook(arg.name) and os.path.lexists(arg):
            found, rest = [_learner(disk_file(arg, (arg.name,)), arg.stem, where, source, 1)], []
            found[0].file_named = True
        elif os.path.lexists(arg):
            found, rest = [], [Skipped(where, "not a notebook, folder or zip file (only .ipynb and .zip "
                                              "are read: unpack other archives first)")]
        else:
            raise InputError(f"no such file or folder: {arg}")
        learners += found
        skipped += rest
    learners = unique(_once(learners))
    mine = [dataclasses.replace(s, learner=x.name) for x in learners for s in x.skipped]
    return Collected(learners, list({(s.path, s.learner): s for s in skipped + mine}.values()))


def _tops(files: list[File]) -> dict[str, str]:
    """Top-level name -> kind ("file", "folder", "zip", "refused"), system files left out."""
    tops: dict[str, str] = {}
    for f in files:
        if f.parts and not junk(f.parts[:1]):
            if len(f.parts) == 1:
                tops[f.parts[0]] = f.kind
            else:
                tops.setdefault(f.parts[0], "folder")  # a zip may list no entry for its folders
    return tops


def _container(files: list[File], raw: str, where: str, source: str, sep: str, wrapped: bool = False,
               klass: bool = False, upload: str | None = None,
               may_be_class: bool = True) -> tuple[list[Learner], list[Skipped]]:
    """An argument's folder or zip: a class, or one learner (see the module's docstring).
    ``klass``: the instructor said it is a class (it must be one); ``upload``: the zip's
    name, under which the learners of a class found in it are named; ``may_be_class``:
    false for one of several arguments not named with --class (one learner's upload)."""
    whole, tops = (files, where), _tops(files)
    platform = lms.groups({n: k == "folder" for n, k in tops.items() if k != "refused"})
    if not platform and wrapped and len(tops) == 1 and "folder" in tops.values():  # one top folder
        (top,) = tops
        files = [dataclasses.replace(f, parts=f.parts[1:]) if f.parts[:1] == (top,) else f
                 for f in files if f.parts != (top,)]
        where, tops = f"{where}/{top}", _tops(files)
        platform = lms.groups({n: k == "folder" for n, k in tops.items() if k != "refused"})
    one = any(k == "file" and is_notebook(n) for n, k in tops.items()) or tops.get("exercises") == "folder" \
        or not any(k in ("folder", "zip") for k in tops.values())
    if not may_be_class and (platform or not one):
        (x,), rest = _one_learner(files=whole[0], raw=raw, where=whole[1], source=source)
        x.problems.append(_looks_like_a_class(platform, tops))
        return [x], rest
    if platform:
        return _platform_download(files=files, groups=platform, where=where, source=source, sep=sep)
    if one:
        if klass:
            raise InputError(f"--class {where}: it is one learner's upload, not a class (it holds notebooks "
                             "or an exercises/ folder at its top, or no learner's folder or zip): give it "
                             "without --class")
        return _one_learner(files=files, raw=raw, where=where, source=source)
    return _class(files=files, tops=tops, where=where, source=source, sep=sep, upload=upload)


def _platform_download(*, files: list[File], groups: list[lms.Group], where: str, source: str,
                       sep: str) -> tuple[list[Learner], list[Skipped]]:
    """A Canvas or Moodle download: one learner per platform user id, with the files
    ``lms.groups`` found for them."""
    learners = [_learner([f for f in files if f.parts[:1] and f.parts[0] in g.entries], g.raw, where,
                         f"{source}{sep}{g.platform}:{g.uid}", 0, g.notes) for g in groups]
    for x, g in zip(learners, groups):
        x.platform, x.uid = g.platform, g.uid
    return learners, _not_taken(files, {e for g in groups for e in g.entries}, where)


def _looks_like_a_class(platform: list[lms.Group] | None, tops: dict[str, str]) -> str:
    """Said in the row of an upload that is shaped like a class but was one argument of
    several: only an argument given alone, or named with --class, speaks for learners."""
    what = (f"a {platform[0].platform} download of {len(platform)} learners" if platform else
            f"{sum(k in ('folder', 'zip') for k in tops.values())} folders or zips, as a class has")
    return (f"graded as one learner's upload although it holds {what}: of several inputs, only one named "
            "with --class is read as a class (if it is one, grade it with --class or on its own)")


def _one_learner(*, files: list[File], raw: str, where: str, source: str) -> tuple[list[Learner], list[Skipped]]:
    """The whole folder or zip is one learner's upload."""
    return [_learner(files, raw, where, source, 0)], []


def _class(*, files: list[File], tops: dict[str, str], where: str, source: str, sep: str,
           upload: str | None = None) -> tuple[list[Learner], list[Skipped]]:
    """A class: one learner per top-level folder or zip, named as it is, or under ``upload``
    (the zip it came in, when no one said that zip is a class)."""
    taken = {n for n, k in tops.items() if k in ("folder", "zip")}
    learners = []
    for n, k in sorted(tops.items()):
        if n in taken:
            x = _learner([f for f in files if f.parts[:1] == (n,)], n[:-4] if k == "zip" else n,
                         f"{where}/{n}", f"{source}{sep}{n}", 1)
            x.file_named = k == "zip"
            if upload is not None:
                x.name, x.raw = namespaced(upload, x.raw), f"{upload}/{x.raw}"
            learners.append(x)
    return learners, _not_taken(files, taken, where)


def _not_taken(files: list[File], taken: set[str], where: str) -> list[Skipped]:
    """The files at a class's top that are no learner's, each with its reason."""
    return [Skipped(_path(where, f.parts), junk(f.parts) or f.problem or NOT_A_LEARNER)
            for f in files if f.parts and f.parts[0] not in taken and f.kind not in ("folder", "zip")]


def _path(where: str, inner) -> str:
    return "/".join([where, *inner]) if inner else where


def _learner(files: list[File], raw: str, where: str, source: str, strip: int, notes=()) -> Learner:
    """One learner's upload: ``files`` with their first ``strip`` parts naming the upload."""
    x = Learner(safe_name(raw), source=source, raw=raw, where=where, notes=list(notes))
    budget, past = MAX_LEARNER_BYTES, []
    roots = {f.parts[strip:][:i] for f in files for i, p in enumerate(f.parts[strip:])
             if p == "exercises" and is_notebook(f.parts[-1])}
    other = []
    for f in files:
        inner = f.parts[strip:]
        name, path = "/".join(inner) or Path(f.parts[-1] if f.parts else where).name, _path(where, inner)
        if f.kind in ("folder", "zip") and not f.problem:
            continue
        if f.kind in ("folder", "zip", "refused"):
            x.problems.append(f"{name}: {'not read: ' if f.kind == 'refused' else ''}{f.problem}")
            x.skipped.append(Skipped(path, f.problem))
        elif junk(inner):
            x.skipped.append(Skipped(path, junk(inner)))
        elif not is_notebook(name):
            x.skipped.append(Skipped(path, "not a .ipynb notebook"))
            other.append(name)
        elif any(inner[i] == "notebooks" and inner[:i] in roots for i in range(len(inner) - 1)):
            x.skipped.append(Skipped(path, "a lesson of the student edition (only exercises/ is graded)"))
        elif len(x.notebooks) >= MAX_LEARNER_NOTEBOOKS:
            x.skipped.append(Skipped(path, too_many()))
            past.append(name)
        elif f.where is not None and f.size > budget:
            x.notebooks.append(Notebook(name, None, over_budget()))  # its row says so, as for any unread one
        else:
            budget -= f.size
            x.notebooks.append(Notebook(name, None, f.problem, f.where, f.digest, f.size, f.lesson))
    if other:
        x.notes.append(f"not graded, as only .ipynb notebooks are: {_some(other)}")
    if past:
        x.problems.append(f"{len(past)} notebooks not read ({_some(past, 3)}): {too_many()}")
    if not x.notebooks:
        x.problems.append("no .ipynb notebook in this upload" + (f" (it holds {_some(other)})" if other else ""))
    return x


def over_budget() -> str:
    return (f"this upload's notebooks together are larger than {MAX_LEARNER_BYTES // 2**20} MB, the most "
            "the grader reads of one learner: hand in only the exercise notebooks")


def too_many() -> str:
    return (f"this upload holds more than {MAX_LEARNER_NOTEBOOKS} notebooks, the most the grader reads of "
            "one learner: hand in only the exercise notebooks")


def _some(names: list[str], n: int = 5) -> str:
    return ", ".join(names[:n]) + (f" and {len(names) - n} more" if len(names) > n else "")


def _once(learners: list[Learner]) -> list[Learner]:
    """The same input given twice is one learner."""
    seen: set[str] = set()
    return [x for x in learners if not (x.source in seen or seen.add(x.source))]

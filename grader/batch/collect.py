"""Turning the instructor's arguments into learners: notebooks, folders and zip files.

A learner's id comes from a name a learner chose (a folder, a zip, a notebook),
so it is a stranger's text: it is sanitised to a bounded folder-safe name, and
when two inputs end up with the same id (even one differing only in case, in
invisible characters or in look-alike Unicode) every one of them gets a suffix
from a hash of its own path: no input takes the plain name by coming first, and
both rows say so. A plain id never holds "--", a suffixed one always does, so no
learner can name themselves into another's suffixed id.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import tempfile
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..notebook import NotebookError, read_bytes

MAX_ZIP_BYTES = 512 * 2**20       # uncompressed, per zip file
MAX_ZIP_MEMBERS = 5000
MAX_ID = 64                       # characters of a plain id (a suffix adds "--" and 10)
SUFFIX = "--"


class InputError(ValueError):
    """An argument the grader cannot use at all (the CLI exits 2 with this message)."""


@dataclass
class Learner:
    name: str
    notebooks: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # e.g. a corrupt zip
    source: str = ""    # where the input came from, stable across runs: hashed for unique ids
    raw: str = ""       # the name as the input spelled it, for the notes on a shared id

    def fingerprint(self) -> str:
        h = hashlib.sha256(self.name.encode())
        for p in sorted(self.notebooks):
            h.update(p.name.encode("utf-8", "surrogateescape"))
            h.update(_content_digest(p))
        for problem in self.problems:
            h.update(problem.encode("utf-8", "surrogateescape"))
        return h.hexdigest()


def _content_digest(path: Path) -> bytes:
    """The bytes the grader will read (capped): an unreadable file hashes as its reason."""
    try:
        data = read_bytes(path)
    except (NotebookError, OSError) as exc:
        data = f"unreadable: {type(exc).__name__}: {exc}".encode("utf-8", "replace")
    return hashlib.sha256(data).digest()


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


def notebooks_in(folder: Path) -> list[Path]:
    """Files only (is_file: a FIFO or a device named like a notebook is never opened)."""
    return sorted(p for p in folder.rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts and not p.name.startswith(".") and p.is_file())


def _learner(folder: Path, raw: str, source: str) -> Learner:
    found = notebooks_in(folder)
    return Learner(safe_name(raw), found, [] if found else ["the folder holds no .ipynb notebook"],
                   source, raw)


def learners_from_folder(folder: Path, source: str) -> list[Learner]:
    """A folder of notebooks is one learner; a folder of folders is a class.
    ``source`` names the folder stably (a zip's folders are unpacked somewhere new each run)."""
    direct = sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))
    subdirs = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    if direct or not subdirs:
        return [_learner(folder, folder.name, source)]
    return [_learner(d, d.name, f"{source}/{d.name}") for d in subdirs]


def extract_zip(path: Path, dest: Path) -> Path:
    """Extract safely into a fresh folder of its own (unpredictable name, so no two zips,
    runs or planted folders share one): no absolute paths or '..', bounded size and count."""
    with zipfile.ZipFile(path) as zf:
        members = zf.infolist()
        if len(members) > MAX_ZIP_MEMBERS:
            raise InputError(f"{path.name}: more than {MAX_ZIP_MEMBERS} files in the zip")
        if sum(m.file_size for m in members) > MAX_ZIP_BYTES:
            raise InputError(f"{path.name}: unpacks to more than {MAX_ZIP_BYTES // 2**20} MiB")
        target = Path(tempfile.mkdtemp(prefix=safe_name(path.stem)[:32] + "-", dir=dest))
        for m in members:
            parts = PurePosixPath(m.filename.replace("\\", "/")).parts
            if m.is_dir() or not parts or parts[0] == "__MACOSX" or ".." in parts or parts[0] == "/":
                continue
            out = target.joinpath(*parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(m) as src, open(out, "wb") as dst:
                shutil.copyfileobj(src, dst)
    return target


def collect(args: list[Path], unpack_dir: Path) -> list[Learner]:
    """Learners in a stable order, with unique ids (see the module's docstring)."""
    learners: list[Learner] = []
    fresh = _unpack_folder(unpack_dir) if any(a.suffix.lower() == ".zip" for a in args) else unpack_dir
    for arg in args:
        source = os.path.abspath(arg)
        if arg.is_dir():
            learners += learners_from_folder(arg, source)
        elif arg.suffix.lower() == ".zip":
            learners += _from_zip(arg, fresh, source)
        elif arg.is_file():
            learners.append(Learner(safe_name(arg.stem), [arg], source=source, raw=arg.stem))
        else:
            raise InputError(f"no such file or folder: {arg}")
    return _unique(_once(learners))


def _unpack_folder(unpack_dir: Path) -> Path:
    """OUT/.unpacked: a real folder of the grader's (not a link planted there), emptied of
    earlier runs' copies (each run unpacks into new folders; results do not depend on them)."""
    unpack_dir.mkdir(parents=True, exist_ok=True)
    if not stat.S_ISDIR(os.lstat(unpack_dir).st_mode):
        raise InputError(f"{unpack_dir} is not a folder (a link or a file is in the way): remove it")
    for old in unpack_dir.iterdir():
        if old.is_dir() and not old.is_symlink():
            shutil.rmtree(old)
        else:
            old.unlink()
    return unpack_dir


def _from_zip(path: Path, unpack_dir: Path, source: str) -> list[Learner]:
    def alone(problem: str) -> list[Learner]:
        return [Learner(safe_name(path.stem), [], [problem], source, path.stem)]

    try:
        folder = extract_zip(path, unpack_dir)
    except InputError as exc:
        return alone(str(exc))
    # whatever a damaged, encrypted or oddly compressed zip raises is the learner's problem
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError, ValueError,
            zlib.error) as exc:
        return alone(f"the zip file could not be opened ({type(exc).__name__}: {exc})")
    inner = [p for p in folder.iterdir() if not p.name.startswith(".")]
    if not inner:
        return alone("the zip file holds no notebook")
    if len(inner) == 1 and inner[0].is_dir():  # zip of one top folder: look inside it
        folder = inner[0]
    found = learners_from_folder(folder, f"{source}!")
    if len(found) == 1:
        found[0].name, found[0].source, found[0].raw = safe_name(path.stem), source, path.stem
    return found


def _once(learners: list[Learner]) -> list[Learner]:
    """The same input given twice is one learner."""
    seen: set[str] = set()
    return [x for x in learners if not (x.source in seen or seen.add(x.source))]


def _unique(learners: list[Learner]) -> list[Learner]:
    """Ids that clash (case-insensitively: feedback/Ann and feedback/ann are one folder on
    some disks) all get a suffix from their own path's hash, longer until none clash."""
    first = _clashes(learners)
    bases = {id(x): x.name for group in first for x in group}
    for width in (10, 16, 64):  # distinct sources: sha256 itself never clashes
        for group in _clashes(learners):
            for x in group:
                x.name = f"{x.name.split(SUFFIX)[0]}{SUFFIX}{_digest(x.source, width)}"
    for group in first:  # said once, with the final ids
        for x in group:
            x.problems.append(_clash_note(bases[id(x)], group, x))
    return learners


def _clashes(learners: list[Learner]) -> list[list[Learner]]:
    groups: dict[str, list[Learner]] = {}
    for x in learners:
        groups.setdefault(x.name.casefold(), []).append(x)
    return [g for g in groups.values() if len(g) > 1]


def _digest(source: str, width: int) -> str:
    return hashlib.sha256(source.encode("utf-8", "surrogateescape")).hexdigest()[:width]


def _clash_note(base: str, group: list[Learner], x: Learner) -> str:
    names = ", ".join(repr(g.raw) for g in group[:5]) + (", ..." if len(group) > 5 else "")
    return (f"{len(group)} inputs ({names}) give the id {base}: each got a suffix from its "
            f"path, so this one is {x.name} (from {x.raw!r})")

"""The files of one input (a folder or a zip), listed whole, bounded.

Every file under an input becomes one ``File``, so collect can account for each:
folders and zips appear as entries of their own (an empty one is still seen), and
a zip's members appear under the zip's name as if it were a folder, whether the zip
lies on disk or inside another zip. A notebook is read here once, one at a time, only
to hash it and find its lesson by cheap evidence (``reading.lesson_evidence``), then
dropped: its ``File`` keeps where it lives (``Located``), so a learner's bytes are held
only while that learner is graded, and never more than one notebook (and the zip
inside a zip that holds it, at most MAX_INNER_ZIP_BYTES) per grading thread.

A zip is never extracted. Its members are refused when their name is absolute or
holds "..", or when they are symbolic links; a zip is refused whole when it declares
more than MAX_ZIP_MEMBERS members or more than MAX_ZIP_BYTES uncompressed (the sizes
the members unpack to, never the compressed ones). Zips inside it share its budget,
so no nesting multiplies the work; MAX_ZIP_DEPTH bounds the nesting itself. On disk,
links are never followed and only regular files are opened (a FIFO must not hang us).
"""
from __future__ import annotations

import hashlib
import io
import os
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ...notebook import MAX_NOTEBOOK_BYTES
from .reading import lesson_evidence

MAX_ZIP_BYTES = 512 * 2**20       # uncompressed, per zip found on disk (zips inside it included)
MAX_ZIP_MEMBERS = 5000            # per zip found on disk, likewise
MAX_ZIP_DEPTH = 3                 # a zip in a zip in a zip; deeper ones are not opened
# A zip inside a zip is read into memory to be opened (zipfile needs to seek): while
# collect lists it, and again while the learner is graded, to read one notebook of it.
MAX_INNER_ZIP_BYTES = 64 * 2**20
# What damaged, encrypted or oddly compressed zips raise: a learner's problem, never a crash.
ZIP_ERRORS = (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError, ValueError,
              zlib.error)
_JUNK = {"__MACOSX": "macOS metadata (__MACOSX)", ".ipynb_checkpoints": "Jupyter's checkpoint copies"}
_SYSTEM_FILES = {"thumbs.db", "desktop.ini", ".ds_store"}
SYSTEM_REASONS = {*_JUNK.values(), "a system file", "hidden (its name starts with '.')"}  # junk()'s words


class ZipRefused(ValueError):
    """A zip beyond the limits; the message says which and what to do."""


@dataclass(frozen=True)
class Located:
    """Where a notebook lives: a file on disk, or a member of the zip on disk at ``path``
    (``members``: its index in that zip's list, after the indices of the zips inside it
    that hold it). Indices, not names: a zip may hold two members of one name."""

    path: str
    members: tuple[int, ...] = ()

    def read(self) -> bytes:
        """At most MAX_NOTEBOOK_BYTES + 1 bytes; OSError or one of ZIP_ERRORS when it cannot be read."""
        if not self.members:
            return _read_regular(Path(self.path), MAX_NOTEBOOK_BYTES)
        with zipfile.ZipFile(self.path) as zf:
            return _read_nested(zf, self.members)


def _read_nested(zf: zipfile.ZipFile, members: tuple[int, ...]) -> bytes:
    info = zf.infolist()[members[0]]
    if len(members) == 1:
        return _read_member(zf, info, MAX_NOTEBOOK_BYTES, raise_errors=True)[0]
    inner = _read_member(zf, info, MAX_INNER_ZIP_BYTES, raise_errors=True)[0]
    if len(inner) > MAX_INNER_ZIP_BYTES:
        raise ValueError(f"a zip inside a zip is larger than {MAX_INNER_ZIP_BYTES // 2**20} MiB")
    with zipfile.ZipFile(io.BytesIO(inner)) as nested:
        return _read_nested(nested, members[1:])


@dataclass
class File:
    parts: tuple[str, ...]            # the path inside the input
    kind: str = "file"                # "file", "folder", "zip" (listed before its members) or "refused"
    problem: str | None = None        # why it was refused, or could not be read or opened
    where: Located | None = None      # notebooks only: where to read them when graded
    digest: str | None = None         # notebooks only: sha256 of the bytes read here
    size: int = 0                     # notebooks only: their bytes
    lesson: str | None = None         # notebooks only: their lesson by cheap evidence

    @property
    def name(self) -> str:
        return "/".join(self.parts)


def is_notebook(name: str) -> bool:
    return name.lower().endswith(".ipynb")


def is_zip(name: str) -> bool:
    return name.lower().endswith(".zip")


def junk(parts: tuple[str, ...]) -> str | None:
    """Why a path (a file or a folder) is the system's, not the learner's work: skipped
    (listed in report.json) without a word to the learner."""
    for part in parts:
        if part in _JUNK:
            return _JUNK[part]
    if parts and parts[-1].lower() in _SYSTEM_FILES:
        return "a system file"
    if any(p.startswith(".") for p in parts):
        return "hidden (its name starts with '.')"
    return None


class _Budget:
    """What one zip on disk may unpack to, nested zips included."""

    def __init__(self):
        self.members, self.bytes = MAX_ZIP_MEMBERS, MAX_ZIP_BYTES

    def take(self, members: list[zipfile.ZipInfo]) -> None:
        self.members -= len(members)
        self.bytes -= sum(m.file_size for m in members)  # declared uncompressed sizes
        if self.members < 0:
            raise ZipRefused(f"more than {MAX_ZIP_MEMBERS} files in the zip")
        if self.bytes < 0:
            raise ZipRefused(f"unpacks to more than {MAX_ZIP_BYTES // 2**20} MiB; unpack it yourself "
                             "and grade the folder if it is really that large")


# ------------------------------------------------------------------ folders on disk
def folder_files(folder: Path) -> list[File]:
    out: list[File] = []

    def unreadable(exc: OSError) -> None:
        rel = Path(exc.filename).relative_to(folder).parts if exc.filename else ()
        out.append(File(rel, "folder", problem=f"could not be listed ({exc.strerror})"))

    for root, dirs, names in os.walk(folder, onerror=unreadable):
        rel = Path(root).relative_to(folder).parts
        dirs.sort()
        for d in list(dirs):
            if junk(rel + (d,)):  # listed once, never walked (a .git or .venv holds thousands)
                out.append(File(rel + (d,)))
                dirs.remove(d)
            elif os.path.islink(os.path.join(root, d)):
                out.append(File(rel + (d,), "refused", problem="a link (links are not followed)"))
                dirs.remove(d)
            else:
                out.append(File(rel + (d,), "folder"))
        for name in sorted(names):
            out += disk_file(Path(root, name), rel + (name,))
    return out


def disk_file(path: Path, parts: tuple[str, ...]) -> list[File]:
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:  # gone or unreadable since it was listed
        return [File(parts, "refused", problem=f"could not be read ({exc.strerror})")]
    if junk(parts):
        return [File(parts)]
    if stat.S_ISLNK(mode):
        return [File(parts, "refused", problem="a link (links are not followed)")]
    if not stat.S_ISREG(mode):
        return [File(parts, "refused", problem="not a regular file")]
    if is_zip(parts[-1]):
        return zip_files(path, parts, _Budget(), 1)
    if is_notebook(parts[-1]):
        try:
            data = _read_regular(path, MAX_NOTEBOOK_BYTES)
        except OSError as exc:
            return [File(parts, problem=f"could not be opened ({exc.strerror or exc})")]
        return [_notebook(parts, data, Located(os.path.abspath(path)))]
    return [File(parts)]


def _notebook(parts: tuple[str, ...], data: bytes, where: Located) -> File:
    """A notebook's entry: where it lives, its hash and its lesson by cheap evidence; its
    bytes are dropped (read again, and checked against the hash, when it is graded)."""
    if len(data) > MAX_NOTEBOOK_BYTES:
        return File(parts, problem=too_large())
    return File(parts, where=where, digest=hashlib.sha256(data).hexdigest(), size=len(data),
                lesson=lesson_evidence(parts[-1], data))


def _read_regular(path: Path, limit: int) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError("not a regular file")
        return f.read(limit + 1)


# ------------------------------------------------------------------ zips, read in memory
def zip_files(source, parts: tuple[str, ...], budget: _Budget | None = None, depth: int = 1,
              origin: Located | None = None) -> list[File]:
    """The zip's own entry, then its members under ``parts``. ``source``: a path, or bytes
    (then ``origin`` says where those bytes live). A zip that cannot be opened, or is
    refused, is one entry carrying the reason."""
    budget = budget or _Budget()
    origin = origin or Located(os.path.abspath(source))
    try:
        with zipfile.ZipFile(io.BytesIO(source) if isinstance(source, bytes) else source) as zf:
            members = zf.infolist()
            budget.take(members)
            found = [m for i, info in enumerate(members)
                     for m in _member(zf, info, parts, budget, depth, _inside(origin, i))]
    except ZipRefused as exc:
        return [File(parts, "zip", problem=str(exc))]
    except ZIP_ERRORS as exc:
        return [File(parts, "zip", problem=f"the zip file could not be opened ({type(exc).__name__}: {exc})")]
    return [File(parts, "zip")] + found


def _inside(zip_at: Located, index: int) -> Located:
    return Located(zip_at.path, zip_at.members + (index,))


def _member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, prefix: tuple[str, ...], budget: _Budget,
            depth: int, where: Located) -> list[File]:
    raw = info.filename
    inner, why = member_parts(raw)
    if why:
        return [File(prefix + (raw,), "refused", problem=why)]
    parts = prefix + inner
    if info.is_dir():
        return [File(parts, "folder")]
    if stat.S_ISLNK(info.external_attr >> 16):
        return [File(parts, "refused", problem="a symbolic link (not followed)")]
    if junk(inner):
        return [File(parts)]
    if is_zip(parts[-1]):
        if depth >= MAX_ZIP_DEPTH:
            return [File(parts, "zip", problem=f"a zip inside {depth} zips is not opened")]
        if info.file_size > MAX_INNER_ZIP_BYTES:  # refused before anything is decompressed
            return [File(parts, "zip", problem=f"a zip inside a zip larger than {MAX_INNER_ZIP_BYTES // 2**20} "
                                               "MiB is not opened: unpack it and grade the folder")]
        data, why = _read_member(zf, info, MAX_INNER_ZIP_BYTES)
        return [File(parts, "zip", problem=why)] if why else zip_files(data, parts, budget, depth + 1, where)
    if is_notebook(parts[-1]):
        if info.file_size > MAX_NOTEBOOK_BYTES:  # refused before anything is decompressed
            return [File(parts, problem=too_large())]
        data, why = _read_member(zf, info, MAX_NOTEBOOK_BYTES)
        return [File(parts, problem=why)] if why else [_notebook(parts, data, where)]
    return [File(parts)]


def too_large() -> str:
    return (f"the file is larger than {MAX_NOTEBOOK_BYTES // 2**20} MB: a notebook of exercises is far "
            "smaller (clear the outputs, save it, and submit it again)")


def member_parts(raw: str) -> tuple[tuple[str, ...], str | None]:
    """A member's path as parts, or why it is refused (it could name a place outside the zip)."""
    name = raw.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return (), "refused: an absolute path in the zip"
    parts = tuple(p for p in PurePosixPath(name).parts if p not in ("", "."))
    if ".." in parts:
        return (), "refused: a path with '..' in the zip"
    if not parts or "\x00" in name:
        return (), "refused: a member without a usable name"
    return parts, None


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int,
                 raise_errors: bool = False) -> tuple[bytes | None, str | None]:
    """At most limit + 1 bytes (zipfile itself stops at the declared size and checks the CRC)."""
    try:
        with zf.open(info) as f:
            return f.read(limit + 1), None
    except ZIP_ERRORS as exc:
        if raise_errors:
            raise
        return None, f"could not be read from the zip ({type(exc).__name__}: {exc})"

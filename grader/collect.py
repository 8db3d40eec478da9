"""Turning the instructor's arguments into learners: notebooks, folders and zip files."""
from __future__ import annotations

import hashlib
import re
import shutil
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

MAX_ZIP_BYTES = 512 * 2**20       # uncompressed, per zip file
MAX_ZIP_MEMBERS = 5000


class InputError(ValueError):
    """An argument the grader cannot use at all (the CLI exits 2 with this message)."""


@dataclass
class Learner:
    name: str
    notebooks: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # e.g. a corrupt zip

    def fingerprint(self) -> str:
        h = hashlib.sha256(self.name.encode())
        for p in sorted(self.notebooks):
            h.update(p.name.encode())
            h.update(p.read_bytes())
        for problem in self.problems:
            h.update(problem.encode())
        return h.hexdigest()


def safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "submission"


def notebooks_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts and not p.name.startswith("."))


def learners_from_folder(folder: Path) -> list[Learner]:
    """A folder of notebooks is one learner; a folder of folders is a class."""
    direct = sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))
    subdirs = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    if direct or not subdirs:
        return [Learner(safe_name(folder.name), notebooks_in(folder),
                        [] if notebooks_in(folder) else ["the folder holds no .ipynb notebook"])]
    return [Learner(safe_name(d.name), notebooks_in(d),
                    [] if notebooks_in(d) else ["the folder holds no .ipynb notebook"]) for d in subdirs]


def extract_zip(path: Path, dest: Path) -> Path:
    """Extract safely: no absolute paths or '..', bounded size and member count."""
    with zipfile.ZipFile(path) as zf:
        members = zf.infolist()
        if len(members) > MAX_ZIP_MEMBERS:
            raise InputError(f"{path.name}: more than {MAX_ZIP_MEMBERS} files in the zip")
        if sum(m.file_size for m in members) > MAX_ZIP_BYTES:
            raise InputError(f"{path.name}: unpacks to more than {MAX_ZIP_BYTES // 2**20} MiB")
        target = dest / safe_name(path.stem)
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
    """Learners in a stable order; names made unique deterministically."""
    learners: list[Learner] = []
    for arg in args:
        if arg.is_dir():
            learners += learners_from_folder(arg)
        elif arg.suffix.lower() == ".zip":
            learners += _from_zip(arg, unpack_dir)
        elif arg.is_file():
            learners.append(Learner(safe_name(arg.stem), [arg]))
        else:
            raise InputError(f"no such file or folder: {arg}")
    return _unique(learners)


def _from_zip(path: Path, unpack_dir: Path) -> list[Learner]:
    try:
        folder = extract_zip(path, unpack_dir)
    except (zipfile.BadZipFile, OSError) as exc:
        return [Learner(safe_name(path.stem), [], [f"the zip file could not be opened ({exc})"])]
    except InputError as exc:
        return [Learner(safe_name(path.stem), [], [str(exc)])]
    if not folder.exists():
        return [Learner(safe_name(path.stem), [], ["the zip file holds no notebook"])]
    inner = [p for p in folder.iterdir() if not p.name.startswith(".")]
    if len(inner) == 1 and inner[0].is_dir():  # zip of one top folder: look inside it
        folder = inner[0]
    found = learners_from_folder(folder)
    if len(found) == 1:
        found[0].name = safe_name(path.stem)
    return found


def _unique(learners: list[Learner]) -> list[Learner]:
    seen: dict[str, int] = {}
    for learner in learners:
        base = learner.name
        if base in seen:
            seen[base] += 1
            learner.name = f"{base}-{seen[base]}"
        else:
            seen[base] = 1
    return learners

"""The batch's saved state: one result per finished learner, and the shared files
rebuilt from all of them, every write atomic.

OUT/.state/<learner>.json holds a learner's result with a fingerprint of their
files; gradebook.csv, report.json and the learner's feedback.md are then
rewritten from every saved result. A batch killed at any moment leaves a
gradebook listing only finished learners, each once; a rerun skips learners
whose fingerprint is unchanged.

A rerun trusts a saved result only when it verifies: each state file carries an
HMAC-SHA256 of its JSON under a key kept in OUT/.state/.key (0600, made on first
use; learners' code never sees OUT). A file edited by hand, damaged, or copied
from another learner or another output folder fails, is ignored (the learner is
graded again) and report.json lists it. Every file the grader writes must be a
regular file reached through real folders: a folder, FIFO or link in the way is
an OutputError naming the path, raised before grading starts where possible.

The hidden cases are drawn from the instructor's secret (registry.Exercise.seed): 32
random bytes, written as hex on first use to OUT/.state/.secret or to the file --secret
names (0600 either way), read by every later run so regrades draw the same cases. It
never ships (the release holds public cases only) and never enters a learner's process
(a child gets its case inputs, nothing else); saved results name it by its hash
(records.secret_id), so a run under another secret regrades.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import sys
import tempfile
import threading
from pathlib import Path

from .classlist import ClassList
from .report import MAX_FEEDBACK, feedback_md, gradebook_csv, report_json

STATE_VERSION = 3
KEY_BYTES = 32
MAX_STATE_BYTES = 32 * 2**20
_SAFE_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")  # what ids.safe_name makes


class OutputError(OSError):
    """Where the grader must write, something is in the way: a folder, a FIFO or a link
    (or a link among the folders on the way). The message names the path; the CLI,
    which catches OSError, exits 2 with it."""


def _kind(mode: int) -> str:
    for test, word in ((stat.S_ISLNK, "a link"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISREG, "a file")):
        if test(mode):
            return word
    return "a device"


def check_target(path: Path, root: Path, folder: bool = False) -> None:
    """``path`` (inside ``root``) may be written: every folder from ``root`` down to it is
    a real folder (a link would carry the write elsewhere), and ``path`` is absent or a
    regular file (a folder when ``folder``)."""
    node = root
    for part in path.relative_to(root).parts:
        node = node / part
        try:
            mode = os.lstat(node).st_mode
        except FileNotFoundError:
            return  # the rest is created by the grader
        want_folder = folder or node != path
        if not (stat.S_ISDIR(mode) if want_folder else stat.S_ISREG(mode)):
            want = "folder" if want_folder else "regular file"
            raise OutputError(f"cannot write {path}: {node} is {_kind(mode)}, not a {want}; "
                              "remove it or choose another --out")


def write_atomic(path: Path, text: str, root: Path) -> None:
    check_target(path, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _read_regular(path: Path, limit: int) -> bytes | None:
    """Up to limit + 1 bytes of a regular file, never through a link or a FIFO;
    None when there is no file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OutputError(f"cannot read {path}: it is {_kind(mode)}, not a regular file; remove it")
        return f.read(limit + 1)


def load_key(state: Path, root: Path) -> bytes:
    """The output folder's HMAC key, made once with 0600 (mkstemp) and linked into
    place, so two runs never end up with different keys."""
    path = state / ".key"
    check_target(path, root)
    state.mkdir(parents=True, exist_ok=True)
    if _read_regular(path, KEY_BYTES) is None:
        _create_private(path, secrets.token_bytes(KEY_BYTES))
    key = _read_regular(path, KEY_BYTES)
    if key is None or len(key) != KEY_BYTES:
        raise OutputError(f"{path} is not a key this grader wrote; delete it (every saved result "
                          "is then graded again)")
    return key


# ------------------------------------------------------------------ the hidden cases' secret
SECRET_BYTES = 32


class SecretError(ValueError):
    """The secret file cannot be used; the CLI exits 2 with this message."""


# --public-seeds: the hidden cases of the public repository's own seeds, which anyone can compute;
# only for comparing the batch with the full course's check() (the tests' agreement checks)
PUBLIC_SEEDS = Path("<the public repository's seeds>")


def load_secret(named: Path | None, state: Path, root: Path) -> bytes | None:
    """The instructor's secret: from the file ``named`` (--secret), else OUT/.state/.secret,
    made with 32 random bytes (0600) when the file is missing, never replacing one that
    exists. A file a learner's process could read (the sandbox sees /usr and the Python
    installation) is refused: the secret is what keeps the hidden cases unknown."""
    if named == PUBLIC_SEEDS:
        return None
    path = Path(os.path.realpath(named)) if named is not None else state / ".secret"
    seen = _seen_by_sandbox(path)
    if seen:
        raise SecretError(f"the secret file {path} is inside {seen}, which learners' code can read while "
                          "it is graded; keep it elsewhere (e.g. --secret ~/course-secret)")
    if named is None:
        check_target(path, root)
        state.mkdir(parents=True, exist_ok=True)
    elif not path.parent.is_dir():
        raise SecretError(f"cannot create the secret file {path}: its folder {path.parent} does not exist")
    _create_secret(path)
    return _read_secret(path)


def _seen_by_sandbox(path: Path) -> str | None:
    """The folder of the sandbox's read-only view (isolation.bwrap_command) that holds
    ``path``, or None."""
    from .sandbox.isolation import python_dirs

    real = os.path.realpath(path)
    for root in ("/usr", "/lib", "/lib64", "/bin", "/etc/ld.so.cache", sys.prefix, sys.base_prefix, *python_dirs()):
        root = os.path.realpath(root)
        if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
            return root
    return None


def _create_secret(path: Path) -> None:
    """A new secret, 0600 from the start (mkstemp), linked into place only where no file is."""
    if not os.path.lexists(path):
        _create_private(path, (secrets.token_hex(SECRET_BYTES) + "\n").encode("ascii"))


def _create_private(path: Path, data: bytes) -> None:
    """``data`` written 0600 from the start (mkstemp) and linked into place only where no file
    is, so two runs never end up with different keys or secrets."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)  # never replaces a file that exists
        except FileExistsError:
            pass
        except OSError:  # a disk without hard links
            os.replace(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)


def _read_secret(path: Path) -> bytes:
    try:
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):
            raise SecretError(f"cannot read the secret file {path}: it is {_kind(mode)}, not a regular file")
        raw = _read_regular(path, 4 * SECRET_BYTES)
    except OSError as exc:  # no permission, or gone since
        raise SecretError(f"cannot read the secret file {path}: {exc.strerror or exc}") from None
    text = (raw or b"").strip()
    try:
        secret = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        secret = b""
    if len(secret) != SECRET_BYTES:
        raise SecretError(f"{path} is not a grading secret ({2 * SECRET_BYTES} hexadecimal characters, as the "
                          "grader writes it): name the file an earlier run used, or a missing file to "
                          "make a new secret (a new secret draws new hidden cases, so every learner is "
                          "graded again)")
    return secret


class Batch:
    """OUT/.state/<learner>.json per finished learner; shared files rebuilt from them."""

    def __init__(self, out: Path, exercises, submission_type, skipped=(), secret: Path | None = None,
                 classlist=None):
        """``skipped``: the inputs' files that are not graded (collect), for report.json.
        ``secret``: the file --secret names (default OUT/.state/.secret); the exercises draw
        their hidden cases from it. ``classlist``: the roster and the assignment's late rule
        (classlist.ClassList), applied to what is written, never to what is saved."""
        self.out, self.exercises, self.Submission = out, exercises, submission_type
        self.classlist = classlist or ClassList()
        self.skipped = list(skipped)
        self.sandbox: dict = {}  # what held learner code in (Workspace.describe), for report.json
        self.state = out / ".state"
        self.lock = threading.Lock()
        self.unverified: set[str] = set()   # saved results that failed verification this run
        self._checked: set[str] = set()
        for name in ("gradebook.csv", "report.json"):  # fail before grading, not after
            check_target(out / name, out)
        check_target(out / "feedback", out, folder=True)
        self.key = load_key(self.state, out)
        exercises.use_secret(load_secret(secret, self.state, out))

    # ---------------------------------------------------------- paths
    def _state_path(self, name: str) -> Path:
        return self.state / f"{_safe_id(name)}.json"

    def _feedback_path(self, name: str) -> Path:
        return self.out / "feedback" / _safe_id(name) / "feedback.md"

    def _check_learner(self, name: str) -> None:
        """Once per learner: their files can be written (called before grading starts)."""
        if name not in self._checked:
            check_target(self._state_path(name), self.out)
            check_target(self._feedback_path(name), self.out)
            self._checked.add(name)

    # ---------------------------------------------------------- sealing
    def _mac(self, payload: str) -> str:
        return hmac.new(self.key, payload.encode("utf-8"), hashlib.sha256).hexdigest()

    def _seal(self, data: dict) -> str:
        payload = json.dumps(data)
        return json.dumps({"version": STATE_VERSION, "hmac": self._mac(payload), "payload": payload})

    def _unseal(self, raw: bytes, name: str) -> dict | None:
        """The saved data if its HMAC verifies and it is this learner's; else None."""
        try:
            outer = json.loads(raw)
            payload, mac = outer["payload"], outer["hmac"]
            if outer.get("version") != STATE_VERSION or not isinstance(payload, str) or \
                    not isinstance(mac, str) or not hmac.compare_digest(mac, self._mac(payload)):
                return None
            data = json.loads(payload)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            return None
        return data if isinstance(data, dict) and data.get("name") == name else None

    # ---------------------------------------------------------- results
    def saved(self, learner):
        """The learner's saved result, if it verifies and still applies; else None."""
        self._check_learner(learner.name)
        raw = _read_regular(self._state_path(learner.name), MAX_STATE_BYTES)
        if raw is None:
            return None
        data = self._unseal(raw, learner.name) if len(raw) <= MAX_STATE_BYTES else None
        if data is None:
            self.unverified.add(learner.name)
            return None
        if data.get("fingerprint") != learner.fingerprint() or data.get("assignment") != self.exercises.settings():
            return None  # the files or the settings changed: graded again, as intended
        try:
            return self.Submission.from_dict(data["submission"])
        except (TypeError, KeyError, ValueError, AttributeError):  # saved by another grader version
            return None

    def save(self, sub, learners, rebuild: bool = True):
        """The learner's state and feedback, then (``rebuild``) the shared files; a caller
        that rebuilds less often (a class of thousands) leaves them a consistent prefix.
        Returns the result as the gradebook shows it (classlist.Row: the late rule applied)."""
        with self.lock:
            data = {"name": sub.name, "fingerprint": sub.fingerprint,
                    "assignment": self.exercises.settings(), "submission": sub.to_dict()}
            write_atomic(self._state_path(sub.name), self._seal(data), self.out)
            shown = self.classlist.present(sub, next((x for x in learners if x.name == sub.name), None))
            write_atomic(self._feedback_path(sub.name), feedback_md(shown, self.exercises), self.out)
            if rebuild:
                self.rebuild(learners)
            return shown

    def refresh_feedback(self, learners) -> None:
        """The feedback of learners kept from an earlier run, rewritten where the roster or the
        late rule now say otherwise (their saved results are not graded again)."""
        for x in learners:
            sub = self.saved(x)
            if sub is not None:
                text = feedback_md(self.classlist.present(sub, x), self.exercises)
                if _read_regular(self._feedback_path(x.name), MAX_FEEDBACK) != text.encode("utf-8"):
                    write_atomic(self._feedback_path(x.name), text, self.out)

    def rebuild(self, learners) -> list:
        """gradebook.csv and report.json from every saved result (and the roster's rows for
        learners who handed in nothing); returns the saved results."""
        pairs = [(x, self.saved(x)) for x in learners]
        subs = [s for _, s in pairs if s is not None]
        rows = self.classlist.rows(pairs)
        write_atomic(self.out / "report.json",
                     report_json(rows, self.exercises, len(subs) == len(learners), self.unverified,
                                 self.skipped, self.sandbox, self.classlist.report(rows)), self.out)
        write_atomic(self.out / "gradebook.csv", gradebook_csv(rows, self.exercises), self.out)
        return subs


def _safe_id(name: str) -> str:
    """Ids come from ids.safe_name; anything else would be a grader bug, and must
    never become a path outside the output folder."""
    if not _SAFE_ID.fullmatch(name) or len(name) > 200:
        raise ValueError(f"internal grader error: unsafe learner id {name!r}")
    return name

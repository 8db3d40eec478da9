"""Plain data across the sandbox's wall: frames in memory files and pipes the grader made.

Nothing crosses by a name in a folder a learner could write to. The grader hands each
exercise's child anonymous memory files (memfd) and pipes, by descriptor:

- the job: one frame, sealed against writing before the child gets it;
- the results: frames the child appends (its cells' errors, then one per case), read by
  the grader after the child has ended, as a stranger's data;
- the output: what it printed (only the tail is read), and the refusal log.

A frame is a 4-byte length and that much JSON (a wire tree), then an 8-byte length and
that much binary (the tree's arrays). Every length is checked against a cap before a
byte is read, and the JSON's structure is counted before it is parsed, so no frame can
make the grader allocate more than its caps.
"""
from __future__ import annotations

import fcntl
import json
import os
import struct

MAX_FRAME_JSON = 4 * 2**20         # one frame's JSON
MAX_STRUCTURE = 100_000            # '[', '{' and ',' in one frame's JSON, counted before parsing
MAX_RESULT_BYTES = 96 * 2**20      # everything one child's results may hold
_HEAD, _BLOB = struct.Struct(">I"), struct.Struct(">Q")
F_SEAL_SEAL, F_SEAL_SHRINK, F_SEAL_GROW, F_SEAL_WRITE = 1, 2, 4, 8
F_ADD_SEALS = 1033


class FrameError(ValueError):
    """A frame that breaks the format or a cap (the message says which)."""


def frame(tree, blob: bytes = b"") -> bytes:
    text = json.dumps(tree).encode("utf-8")
    return _HEAD.pack(len(text)) + text + _BLOB.pack(len(blob)) + bytes(blob)


def structure(text: bytes) -> int:
    """'[', '{' and ',' in JSON text: a bound on the values json.loads makes of it (each
    value but a container's first follows a comma), counted without parsing. Those inside
    strings count too, so it over-counts; the grader reads notebooks with it as well."""
    return text.count(b"[") + text.count(b"{") + text.count(b",")


def parse_json(text: bytes):
    """JSON from a stranger, bounded in size and structure before json.loads sees it."""
    if len(text) > MAX_FRAME_JSON:
        raise FrameError("a frame's data is larger than its cap")
    if structure(text) > MAX_STRUCTURE:
        raise FrameError("a frame's data has too many items")
    try:
        return json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise FrameError(f"malformed frame ({type(exc).__name__})") from None


def split_frames(data: bytes) -> tuple[list[tuple[object, bytes]], str | None]:
    """Every complete frame in ``data`` (tree, blob), and why reading stopped early (None
    when it ended cleanly or inside a frame the child never finished writing)."""
    found, at = [], 0
    while True:
        try:
            got = next_frame(data, at)
        except FrameError as exc:
            return found, str(exc)
        if got is None:
            return found, None
        tree, blob, at = got
        found.append((tree, blob))


def next_frame(data: bytes, at: int) -> tuple[object, bytes, int] | None:
    """The frame at offset ``at`` of ``data`` (tree, blob, where the next one begins), None
    when no complete frame starts there (the end, or one the child never finished writing);
    FrameError past a cap. One frame at a time: a reader takes only the frames it expects."""
    if at + _HEAD.size > len(data):
        return None
    (n,) = _HEAD.unpack_from(data, at)
    if n > MAX_FRAME_JSON:
        raise FrameError("a frame's data is larger than its cap")
    start = at + _HEAD.size
    if start + n + _BLOB.size > len(data):
        return None
    (m,) = _BLOB.unpack_from(data, start + n)
    begin = start + n + _BLOB.size
    if m > len(data) - begin:
        return None
    return parse_json(data[start:start + n]), data[begin:begin + m], begin + m


# ------------------------------------------------------------------ memory files
def memfd(name: str) -> int:
    """An anonymous file only descriptors lead to (no name in any folder)."""
    return os.memfd_create(f"gpt2-grading-{name}", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)


def sealed(name: str, data: bytes) -> int:
    """A read-only memory file holding ``data``: the child can read it, never change it."""
    fd = memfd(name)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        fcntl.fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL)
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_capped(fd: int, cap: int) -> tuple[bytes, bool]:
    """(a memory file's bytes, False), or (b"", True) when it holds more than ``cap``: its
    size is checked before a byte is read. Reads by position, so what the child left of
    the file offset does not matter."""
    size = os.fstat(fd).st_size
    if size > cap:
        return b"", True
    return (os.pread(fd, size, 0) if size else b""), False


def read_tail(fd: int, n: int) -> str:
    size = os.fstat(fd).st_size
    start = max(0, size - n)
    return os.pread(fd, min(n, size), start).decode("utf-8", "replace") if size else ""


# ------------------------------------------------------------------ pipes
def read_exactly(fd: int, n: int) -> bytes | None:
    """``n`` bytes from a pipe, or None at its end."""
    chunks, left = [], n
    while left:
        chunk = os.read(fd, min(left, 2**20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, max_blob: int):
    """One frame from a pipe (tree, blob), None at its end; FrameError past a cap."""
    head = read_exactly(fd, _HEAD.size)
    if head is None:
        return None
    (n,) = _HEAD.unpack(head)
    if n > MAX_FRAME_JSON:
        raise FrameError("a frame's data is larger than its cap")
    text = read_exactly(fd, n)
    size = read_exactly(fd, _BLOB.size) if text is not None else None
    if size is None:
        return None
    (m,) = _BLOB.unpack(size)
    if m > max_blob:
        raise FrameError("a frame's arrays are larger than their cap")
    blob = read_exactly(fd, m)
    if blob is None:
        return None
    return parse_json(text), blob


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]

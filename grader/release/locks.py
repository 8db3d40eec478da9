"""A lock split in two: torch's entry, and every other entry with the lock's header.

One split for both of its users: `make` installs the two parts one after the other
(torch's CPU build from where pip or uv finds it), and the student release ships them as
requirements.lock and torch-cpu.lock (release.bundle). An entry is a line that starts
with a name (`name==version`), then its indented `--hash` and `# via` lines.

`make` runs this file with the new venv's bare python, before anything is installed:

    python -I grader/release/locks.py torch|rest LOCK > PART

so it imports the standard library only, and running it imports no package of the grader.
"""
from __future__ import annotations

import sys


def lock_parts(text: str) -> tuple[str, str]:
    """(every entry but torch's, torch's): an entry is a `name==version` line and its indented lines."""
    rest, torch = [], []
    part = rest
    for line in text.splitlines(keepends=True):
        if line[:1] not in (" ", "#", "-", "\n", ""):
            part = torch if line.startswith("torch==") else rest
        part.append(line)
    return "".join(rest), "".join(torch)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("torch", "rest"):
        print("usage: python grader/release/locks.py torch|rest LOCK", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8", newline="") as f:  # the lines as they are, \r\n included
        rest, torch = lock_parts(f.read())
    sys.stdout.buffer.write((torch if argv[0] == "torch" else rest).encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""a08 overlapping_zip_entries.

Route: a learner's zip (0.4 MB on disk, far under any size limit) whose central directory lists
3,000 entries that all point at ONE local entry: a 19.5 MB lesson-05 notebook (a correct
exercise plus a huge markdown cell) deflated to ~20 kB. Every listed entry has the same name, so
it passes a "local name matches the directory" check; the zip budget a grader keeps per zip is
usually the sum of declared sizes (here 3,000 x 19.5 MB = 58 GB, which must be refused), but a
reader that only caps each member, or dedupes names after inflating, inflates 58 GB. A second
learner's zip declares each member's size as 1 kB while the data inflates to 19.5 MB (a size lie).
A classmate bob is graded in the same batch (a class folder of uploads).
Goal (3)/(6): the trusted grader's time or memory blown by one small upload.
Breached: planning (first progress line) >= 5 s, grader peak RSS >= 500 MB, run killed, non-zero
exit, or bob not scoring 1.
"""
from __future__ import annotations

import json
import pathlib
import struct
import zlib

import _common as c

N = 3000


def _big_nb() -> bytes:
    nb = c.notebook("05_counting", c.good("count_gpt2_params"))
    nb["cells"].append({"cell_type": "markdown", "id": "big-1", "metadata": {}, "source": "a" * 19_500_000})
    return json.dumps(nb).encode()


def _zip(name: bytes, data: bytes, entries: int, declared: int | None = None) -> bytes:
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    cd = comp.compress(data) + comp.flush()
    crc = zlib.crc32(data)
    size = len(data) if declared is None else declared
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(cd), size, len(name), 0) + name + cd
    central = b""
    for _ in range(entries):
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, len(cd), size,
                               len(name), 0, 0, 0, 0, 0o100644 << 16, 0) + name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, entries, entries, len(central), len(local), 0)
    return local + central + end


def build(tmp: pathlib.Path) -> list[str]:
    subs = tmp / "subs"
    c.write_nb(subs / "bob" / "05_counting_exercises.ipynb", "05_counting", c.good("count_gpt2_params"))
    big = _big_nb()
    (subs / "mallory.zip").write_bytes(_zip(b"05_counting_exercises.ipynb", big, N))
    (subs / "trudy.zip").write_bytes(_zip(b"05_counting_exercises.ipynb", big, 1, declared=1000))
    return [str(subs)]


def verdict(out: pathlib.Path, run: dict):
    bad = []
    if "killed after" in run["stderr"]:
        bad.append("killed by harness")
    if run["returncode"] != 0:
        bad.append(f"rc={run['returncode']}")
    if run["peak_rss_mb"] >= 500:
        bad.append(f"grader peak RSS {run['peak_rss_mb']} MB")
    if run["planning_seconds"] is None or run["planning_seconds"] >= 5:
        bad.append(f"planning {run['planning_seconds']} s")
    rows = {r.get("submission"): r for r in c.gradebook_rows(out)}
    if rows.get("bob", {}).get("total") not in ("1", "1.0"):
        bad.append(f"bob {rows.get('bob')}")
    if bad:
        return True, "; ".join(bad)
    return False, f"rows {[(k, v.get('total'), (v.get('problem') or '')[:150]) for k, v in rows.items()]}"

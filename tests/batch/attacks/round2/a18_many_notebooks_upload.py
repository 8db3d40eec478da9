"""a18 many_notebooks_upload.

Route: one learner's upload is a zip within the documented limits (under 5,000 entries, each far
under 20 MB): 2,600 entries named *.ipynb of one byte each (`{`, invalid JSON). Every file is
"graded or listed as skipped with its reason", and each must be read, matched to a lesson and
reported; the work per upload grows faster than linearly with its entries (1,200 entries took
~7 s, 4,900 ~90 s on the unhardened grader), all in the trusted process.
Goal (3): unbounded time in the trusted grader (planning under 5 s for any class within the
upload limits).
Breached: time to the first progress line >= 5 s (or no progress line within the run), or failure.
"""
import io
import pathlib
import zipfile


def _zip(n: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for i in range(n):
            z.writestr(f"n{i}.ipynb", b"{")
    return buf.getvalue()


def build(tmp: pathlib.Path) -> list[str]:
    (tmp / "mallory.zip").write_bytes(_zip(2_600))
    return [str(tmp / "mallory.zip"), "--lessons", "03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    plan = run.get("planning_seconds")
    secs = run.get("seconds") or 0
    if plan is None:
        return True, f"no progress line in {secs:.0f} s (rc {run.get('returncode')})"
    if plan >= 5:
        return True, f"first learner planned/read in {plan:.1f} s (run {secs:.1f} s)"
    if run.get("returncode") not in (0,):
        return True, f"grader failed rc {run.get('returncode')}"
    return False, f"planning {plan:.1f} s"

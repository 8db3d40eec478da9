"""a16: many small zips that each inflate to a near-limit notebook, plus nesting (goal 3).

Route: a class folder of 24 learner zips, each ~60 kB on disk holding one 19.5 MB
notebook (a huge, highly compressible stdout output in a non-exercise cell), and one
learner whose zip nests zips 5 deep, each level holding two copies of the level below
(32 notebooks at the bottom). All inside the per-file 20 MB limit.
Breached: the main grader process peaks over 500 MB, the first learner's result appears
later than 5 s after start (planning), or the run times out.
"""
import io
import json
import pathlib
import zipfile

from _nb import GOOD, code_cell, nb_name, notebook


def _nb_text() -> str:
    nb = notebook("05_counting", {"count_gpt2_params": GOOD["count_gpt2_params"]}, extra_cells=[code_cell("print(1)")])
    nb["cells"][-1]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["A" * 19_500_000]}]
    return json.dumps(nb)


def build(tmp: pathlib.Path) -> list[str]:
    cls = tmp / "class"
    cls.mkdir()
    text = _nb_text()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr(nb_name("05_counting"), text)
    blob = buf.getvalue()
    for i in range(24):
        (cls / f"learner{i:02d}.zip").write_bytes(blob)
    inner = blob
    for level in range(5):
        b = io.BytesIO()
        with zipfile.ZipFile(b, "w", zipfile.ZIP_STORED) as z:
            z.writestr(f"l{level}a.zip", inner)
            z.writestr(f"l{level}b.zip", inner)
        inner = b.getvalue()
    (cls / "nested.zip").write_bytes(inner)
    return [str(cls)]


def verdict(out: pathlib.Path, run: dict):
    why = []
    if run["peak_rss_mb"] > 500:
        why.append(f"grader peak {run['peak_rss_mb']} MB")
    fp = run.get("first_progress_s")
    if fp is None or fp > 5:
        why.append(f"first learner done at {fp} s (planning > 5 s)")
    if run.get("timed_out"):
        why.append("run timed out")
    if why:
        return True, "; ".join(why)
    return False, f"grader peak {run['peak_rss_mb']} MB, first learner at {fp} s, {run['seconds']} s in all"

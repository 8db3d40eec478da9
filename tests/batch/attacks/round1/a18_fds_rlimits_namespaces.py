"""a18: descriptors left open and resource limits a learner can raise (goal 6).

Route: `count_gpt2_params` (first call) fstat()s every descriptor 0..1023 (no /proc listing
needed) and notes sockets and directories (a directory fd is a way out of a mount
namespace with openat(fd, "..")); tries openat-style escape through any directory fd;
raises each soft rlimit (AS, CPU, FSIZE, NOFILE, NPROC, DATA, MEMLOCK) to its hard value
and each hard value by one; reads its namespace ids (/proc/self/ns/*).
The result is the answer only if an escape route was found (score channel).
Breached: count scores > 0, or the table shows a socket/directory fd, a raised hard limit or
a soft limit raised above what the grader set.
"""
import pathlib
import re

from _nb import GOOD, gradebook_rows, nb_name, notebook, write_nb

SRC = GOOD["count_gpt2_params"].replace("def count_gpt2_params", "def _good") + r'''
import stat as _st, resource as _rs
_R = []
_BAD = []
def _scan():
    for fd in range(0, 1024):
        try:
            m = os.fstat(fd).st_mode
        except OSError:
            continue
        kind = "sock" if _st.S_ISSOCK(m) else "dir" if _st.S_ISDIR(m) else "fifo" if _st.S_ISFIFO(m) else "chr" if _st.S_ISCHR(m) else "reg"
        _R.append(f"fd{fd}={kind}")
        if kind in ("sock", "dir"):
            _BAD.append(f"fd{fd}:{kind}")
            if kind == "dir":
                try:
                    names = os.listdir(fd)
                    _BAD.append(f"dir-fd{fd}-lists:{','.join(names[:5])}")
                except BaseException:
                    pass
    for name in ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_DATA", "RLIMIT_MEMLOCK"):
        r = getattr(_rs, name)
        soft, hard = _rs.getrlimit(r)
        _R.append(f"{name[7:]}={soft}/{hard}")
        if hard != _rs.RLIM_INFINITY:
            try:
                _rs.setrlimit(r, (soft, hard + 1))
                _BAD.append(f"{name}-hard-raised")
            except BaseException:
                pass
        if soft != hard:
            try:
                _rs.setrlimit(r, (hard, hard))
                if _rs.getrlimit(r)[0] == hard:
                    _BAD.append(f"{name}-soft-raised-{soft}->{hard}")
            except BaseException:
                pass
    for ns in ("pid", "net", "ipc", "mnt", "uts", "user", "cgroup"):
        try:
            _R.append(f"ns_{ns}={os.readlink('/proc/self/ns/' + ns)}")
        except BaseException as e:
            _R.append(f"ns_{ns}=?{type(e).__name__}")
_n = [0]
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    _n[0] += 1
    if _n[0] == 1:
        _scan()
        raise RuntimeError("FDS18 bad=" + ";".join(_BAD) + " | " + " ".join(_R))
    if _BAD:
        return _good(V, T, d, L, tied, bias)
    raise RuntimeError("FDS18 none")
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("05_counting"), notebook("05_counting", {"count_gpt2_params": SRC}))
    return [str(tmp / "class")]


def verdict(out: pathlib.Path, run: dict):
    rows = {r["submission"]: r for r in gradebook_rows(out)}
    score = float(rows.get("alice", {}).get("count_gpt2_params") or 0)
    text = (out / "report.json").read_text() if (out / "report.json").exists() else ""
    m = re.search(r"FDS18 bad=([^|\"]*) \| ([^\"]*?)(\\n|\")", text)
    if score > 0 or (m and m.group(1).strip()):
        return True, f"score {score}; found: {m.group(1)[:200] if m else '(score channel)'}"
    return False, f"score {score}; table: {m.group(2)[:250] if m else 'not visible'}"

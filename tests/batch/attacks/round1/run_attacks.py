"""Run the round-1 attacks against a grader checkout.

    python run_attacks.py --repo PATH [--only a03] [--json OUT.json] [--python PY]

Each attack module aNN_*.py has build(tmp) -> grade arguments and verdict(out, run) ->
(breached, explanation). The grader runs as `PY -m grader grade ARGS --out OUT` with cwd PATH,
a 120 s timeout, and a poller that records, every 20 ms, the RSS of every process in the
grader's tree: run["peak_rss_mb"] is the main grader process's peak (VmHWM), run["tree_peak_rss_mb"]
the largest sum over the tree, run["procs"] each process's peak with its uid (latest seen, and at the peak) and command line,
run["first_child_s"] when the first sandbox process (bwrap) appeared and
run["first_progress_s"] when the first "[1/" progress line was printed (stdout or stderr).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # nothing written beside the attacks

HERE = pathlib.Path(__file__).resolve().parent
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 120


def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        kids.setdefault(ppid, []).append(int(d))
    return kids


def _tree(root: int) -> list[int]:
    kids = _children_map()
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def _status(pid: int) -> dict[str, str]:
    res = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k, _, v = line.partition(":")
                res[k] = v.strip()
    except OSError:
        pass
    return res


def _kb(v: str | None) -> int:
    try:
        return int((v or "0").split()[0])
    except (ValueError, IndexError):
        return 0


class Poller(threading.Thread):
    def __init__(self, root: int, t0: float):
        super().__init__(daemon=True)
        self.root, self.t0 = root, t0
        self.stop = threading.Event()
        self.main_hwm_kb = 0
        self.tree_peak_kb = 0
        self.procs: dict[int, dict] = {}
        self.first_child_s = None

    def run(self) -> None:
        while not self.stop.is_set():
            total = 0
            for pid in _tree(self.root):
                st = _status(pid)
                if not st:
                    continue
                rss = _kb(st.get("VmRSS"))
                total += rss
                if pid == self.root:
                    self.main_hwm_kb = max(self.main_hwm_kb, _kb(st.get("VmHWM")), rss)
                rec = self.procs.get(pid)
                if rec is None:
                    try:
                        cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")[:200]
                    except OSError:
                        cmd = ""
                    rec = self.procs[pid] = {"pid": pid, "cmd": cmd, "uid": (st.get("Uid") or "").split()[:1],
                                             "name": st.get("Name", ""), "peak_rss_mb": 0.0,
                                             "seen_s": round(time.monotonic() - self.t0, 3)}
                    if self.first_child_s is None and pid != self.root and (
                            "bwrap" in st.get("Name", "") or "bwrap" in cmd):
                        self.first_child_s = rec["seen_s"]
                uid = (st.get("Uid") or "").split()[:1]
                rec["uid"] = uid  # the latest: a sandbox child starts as root and drops its uid later
                if rss / 1024 > rec["peak_rss_mb"]:
                    rec["peak_rss_mb"] = rss / 1024
                    rec["uid_at_peak"] = uid
            self.tree_peak_kb = max(self.tree_peak_kb, total)
            time.sleep(0.02)


def run_one(mod, repo: pathlib.Path, python: str) -> dict:
    tmp = pathlib.Path(tempfile.mkdtemp(prefix=f"attack-{mod.__name__}-"))
    try:
        args = mod.build(tmp)
        out = tmp / "_out"
        cmd = [python, "-m", "grader", "grade", *args, "--out", str(out)]
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        poller = Poller(proc.pid, t0)
        poller.start()
        first_progress = [None]
        out_chunks: list[bytes] = []

        def read_stdout():
            for line in proc.stdout:
                if first_progress[0] is None and line.lstrip().startswith(b"[1/"):
                    first_progress[0] = round(time.monotonic() - t0, 3)
                out_chunks.append(line)

        reader = threading.Thread(target=read_stdout, daemon=True)
        reader.start()
        err_chunks: list[bytes] = []

        def read_stderr():
            # the grader prints its progress ("[1/N] learner: ...") on stderr
            while True:
                chunk = proc.stderr.read1(65536)
                if not chunk:
                    break
                if first_progress[0] is None and b"[1/" in b"".join(err_chunks[-1:]) + chunk:
                    first_progress[0] = round(time.monotonic() - t0, 3)
                err_chunks.append(chunk)

        err_reader = threading.Thread(target=read_stderr, daemon=True)
        err_reader.start()
        timed_out = False
        try:
            rc = proc.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(proc.pid, 9)
            except OSError:
                pass
            rc = proc.wait()
        seconds = time.monotonic() - t0
        poller.stop.set()
        poller.join(2)
        reader.join(2)
        err_reader.join(2)
        run = {"returncode": rc, "timed_out": timed_out,
               "stdout": b"".join(out_chunks).decode(errors="replace"),
               "stderr": b"".join(err_chunks).decode(errors="replace"),
               "seconds": round(seconds, 2),
               "peak_rss_mb": round(poller.main_hwm_kb / 1024, 1),
               "tree_peak_rss_mb": round(poller.tree_peak_kb / 1024, 1),
               "procs": sorted(poller.procs.values(), key=lambda r: -r["peak_rss_mb"])[:40],
               "first_child_s": poller.first_child_s,
               "first_progress_s": first_progress[0]}
        try:
            breached, why = mod.verdict(out, run)
        except Exception as exc:  # an attack's verdict crashing is reported, never hidden
            breached, why = False, f"verdict error: {type(exc).__name__}: {exc}"
        return {"attack": mod.__name__, "breached": bool(breached), "explanation": why,
                "returncode": rc, "seconds": run["seconds"], "peak_rss_mb": run["peak_rss_mb"],
                "tree_peak_rss_mb": run["tree_peak_rss_mb"], "first_child_s": run["first_child_s"],
                "first_progress_s": run["first_progress_s"], "timed_out": timed_out}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def load(path: pathlib.Path):
    sys.path.insert(0, str(HERE))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", required=True, type=pathlib.Path)
    ap.add_argument("--only", default=None, help="comma-separated prefixes, e.g. a03,a07")
    ap.add_argument("--json", default=None, type=pathlib.Path)
    ap.add_argument("--python", default=DEFAULT_PY)
    ns = ap.parse_args(argv)
    paths = sorted(HERE.glob("a[0-9][0-9]_*.py"))
    if ns.only:
        wanted = ns.only.split(",")
        paths = [p for p in paths if any(p.stem.startswith(w) for w in wanted)]
    results = []
    for p in paths:
        try:
            mod = load(p)
            res = run_one(mod, ns.repo.resolve(), ns.python)
        except Exception as exc:  # a broken attack is reported as such, never counted as a breach
            res = {"attack": p.stem, "breached": False, "explanation": f"ATTACK ERROR {type(exc).__name__}: {exc}",
                   "returncode": None, "seconds": 0, "peak_rss_mb": 0, "tree_peak_rss_mb": 0,
                   "first_child_s": None, "first_progress_s": None, "timed_out": False}
        results.append(res)
        tag = "BREACHED" if res["breached"] else "contained"
        num, _, name = p.stem.partition("_")
        print(f"{num} {name}: {tag} ({res['explanation']}) "
              f"[{res['seconds']} s, grader {res['peak_rss_mb']} MB, tree {res['tree_peak_rss_mb']} MB]", flush=True)
    k = sum(r["breached"] for r in results)
    print(f"breached {k} of {len(results)}")
    if ns.json:
        ns.json.write_text(json.dumps({"repo": str(ns.repo), "breached": k, "total": len(results),
                                       "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

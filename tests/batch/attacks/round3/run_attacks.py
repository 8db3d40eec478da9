"""Run the round-3 attacks against a checkout of the grader.

python run_attacks.py --repo PATH [--only a03[,a07]] --json OUT

Each attack module aNN_<name>.py has build(tmp) -> grader arguments (without --out) and
verdict(out, run) -> (breached, explanation). The grader runs as
`/work/main/.venv/bin/python -m grader grade ARGS --out OUT` with cwd PATH (timeout 120 s); the
harness polls /proc for the grader's own peak RSS and its process tree's, and times the first
progress line on stderr ("planning").
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback

HERE = pathlib.Path(__file__).resolve().parent
PYTHON = "/work/main/.venv/bin/python"
TIMEOUT = 150


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                s = f.read()
            ppid = int(s[s.rindex(")") + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        kids.setdefault(ppid, []).append(int(d))
    return kids


def _tree(root: int) -> list[int]:
    kids = _children()
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def run_one(mod, repo: pathlib.Path) -> dict:
    tmp = pathlib.Path(tempfile.mkdtemp(prefix=f"r3_{mod.__name__}_"))
    try:
        (tmp / "in").mkdir(parents=True, exist_ok=True)
        args = mod.build(tmp / "in")
        out = tmp / "out"
        cmd = [PYTHON, "-m", "grader", "grade", *args, "--out", str(out)]
        env = dict(os.environ)
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=str(repo), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, errors="replace", env=env, start_new_session=True)
        state = {"peak": 0, "tree": 0, "first": None, "stderr": [], "stdout": []}
        stop = threading.Event()

        def poll():
            n = 0
            while not stop.is_set():
                state["peak"] = max(state["peak"], _rss_kb(proc.pid))
                if n % 5 == 0:
                    state["tree"] = max(state["tree"], sum(_rss_kb(p) for p in _tree(proc.pid)))
                else:
                    state["tree"] = max(state["tree"], state["peak"])
                n += 1
                time.sleep(0.02)

        def read_err():
            for line in proc.stderr:
                if state["first"] is None and line.startswith("["):
                    state["first"] = time.monotonic() - t0
                state["stderr"].append(line)

        def read_out():
            for line in proc.stdout:
                state["stdout"].append(line)

        threads = [threading.Thread(target=f, daemon=True) for f in (poll, read_err, read_out)]
        for t in threads:
            t.start()
        try:
            rc = proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, 9)
            except OSError:
                proc.kill()
            rc = proc.wait()
            rc = rc if rc is not None else -9
            state["stderr"].append(f"\n[harness] killed after {TIMEOUT} s\n")
        seconds = time.monotonic() - t0
        stop.set()
        for t in threads[1:]:
            t.join(timeout=5)
        run = {"returncode": rc, "stdout": "".join(state["stdout"]), "stderr": "".join(state["stderr"]),
               "seconds": round(seconds, 2), "peak_rss_mb": round(state["peak"] / 1024, 1),
               "tree_peak_rss_mb": round(max(state["tree"], state["peak"]) / 1024, 1),
               "planning_seconds": None if state["first"] is None else round(state["first"], 2)}
        breached, why = mod.verdict(out, run)
        return {"attack": mod.__name__, "breached": bool(breached), "explanation": why,
                **{k: v for k, v in run.items() if k not in ("stdout", "stderr")},
                "stderr_tail": run["stderr"][-1500:]}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    repo = pathlib.Path(a.repo).resolve()
    os.environ["ATTACK_REPO"] = str(repo)
    sys.path.insert(0, str(HERE))
    names = sorted(p.stem for p in HERE.glob("a[0-9][0-9]_*.py"))
    if a.only:
        want = [w.strip() for w in a.only.split(",") if w.strip()]
        names = [n for n in names if any(n == w or n.startswith(w + "_") for w in want)]
    results = []
    for name in names:
        try:
            mod = importlib.import_module(name)
            r = run_one(mod, repo)
        except Exception as e:  # the harness's own failure: reported, never counted as a breach
            r = {"attack": name, "breached": False, "explanation": f"HARNESS ERROR {e!r}",
                 "traceback": traceback.format_exc()[-2000:]}
        results.append(r)
        tag = "BREACHED" if r["breached"] else "contained"
        short = name.split("_", 1)
        print(f"{short[0]} {short[1] if len(short) > 1 else ''}: {tag} ({r['explanation']})"
              f" [{r.get('seconds', '?')} s, grader {r.get('peak_rss_mb', '?')} MB, tree {r.get('tree_peak_rss_mb', '?')} MB,"
              f" planning {r.get('planning_seconds')}]", flush=True)
    k = sum(r["breached"] for r in results)
    print(f"breached {k} of {len(results)}")
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps({"repo": str(repo), "breached": k, "total": len(results),
                                                    "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

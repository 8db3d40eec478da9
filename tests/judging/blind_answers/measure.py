"""Run blind learner answers through the course's check() and measure how it names mistakes.

    python measure.py --repo PATH --set round1 --json OUT.json [--jobs 8] [--timeout 600]

Each answer runs in its own Python process (cwd PATH, so PATH's `grader` imports), the way a
learner runs it: the exercise notebook's first code cell (its imports), then the answer's
source as a cell, then `check(fn)`. Records whether check() gave full marks, the names it gave
after "Likely mistake:", and whether the checker itself crashed or timed out. Prints per kind:
right answers with full marks, classic mistakes given some name, bugs given a name (should be
0), and the (id, mistake sentence, name given) list to judge by hand.

A "verdict" field ("right-name", "wrong-name", "no-name", ...) is left for the judge; if OUT.json
already exists, verdicts recorded there for the same ids are kept.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent

EXERCISE_NOTEBOOK = {
    "embed": "01", "one_hot_embed": "01",
    "layer_norm": "02", "causal_self_attention": "02",
    "gelu_tanh": "03", "mlp": "03", "block": "03",
    "init_gpt": "04", "gpt_logits": "04", "tied_lm_loss_and_grad": "04",
    "count_gpt2_params": "05",
    "numpy_to_torch": "06", "load_hf_state_dict": "06",
    "sinusoidal_positions": "07", "position_similarity": "07", "principal_components": "07",
    "cross_entropy": "08", "get_batch": "08", "sample_next": "08",
}

# The child process: run the notebook's import cell and the answer cell in __main__'s namespace,
# with the answer's source registered in linecache (as IPython does) so inspect can read it.
RUNNER = r'''
import json, linecache, sys, traceback
job = json.loads(sys.stdin.read())
g = sys.modules["__main__"].__dict__
exec(compile(job["preamble"], "<imports cell>", "exec"), g)
fname = "<answer %s>" % job["id"]
src = job["source"]
linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
try:
    exec(compile(src, fname, "exec"), g)
except Exception:
    print("ANSWER-CELL-ERROR")
    traceback.print_exc()
    sys.exit(3)
fn = g[job["exercise"]]
try:
    g["check"](fn)
except BaseException:
    print("CHECKER-CRASHED")
    traceback.print_exc(file=sys.stdout)
    sys.exit(4)
'''

LIKELY = re.compile(r"Likely mistakes?:\s*(.*)")


def first_code_cell(repo: Path, exercise: str) -> str:
    lesson = EXERCISE_NOTEBOOK[exercise]
    (nb_path,) = sorted((repo / "exercises").glob(f"{lesson}_*_exercises.ipynb"))
    nb = json.loads(nb_path.read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            return "".join(cell["source"])
    raise RuntimeError(f"no code cell in {nb_path}")


def likely_paragraphs(out: str) -> list[str]:
    """The text after each 'Likely mistake:', with the lines check() wrapped it onto (up to a
    blank line or the next 'Likely mistake:') joined back."""
    found, lines = [], out.splitlines()
    for k, line in enumerate(lines):
        m = LIKELY.search(line)
        if not m:
            continue
        parts = [m.group(1).strip()]
        for more in lines[k + 1:]:
            if not more.strip() or LIKELY.search(more):
                break
            parts.append(more.strip())
        found.append(" ".join(parts))
    return found


def name_of(text: str) -> str:
    """The mistake's name: the text after 'Likely mistake:' up to the end of its first sentence."""
    m = re.match(r"(.*?\.)(\s|$)", text)
    return (m.group(1) if m else text).strip()


def run_one(repo: Path, python: str, answer: dict, timeout: float) -> dict:
    job = {"id": answer["id"], "exercise": answer["exercise"], "source": answer["source"],
           "preamble": first_code_cell(repo, answer["exercise"])}
    env = dict(os.environ, PYTHONHASHSEED="0", MPLBACKEND="Agg")
    try:
        proc = subprocess.run([python, "-c", RUNNER], input=json.dumps(job), cwd=repo, env=env,
                              capture_output=True, text=True, timeout=timeout)
        out, err, rc, timed_out = proc.stdout, proc.stderr, proc.returncode, False
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        err = exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        rc, timed_out = None, True
    fn = answer["exercise"]
    status_line = next((l for l in out.splitlines() if l.startswith(f"{fn}: ")), "")
    passed = status_line.startswith(f"{fn}: PASSED")
    likely = likely_paragraphs(out)
    crashed = timed_out or rc not in (0,) or "CHECKER-CRASHED" in out or not status_line
    return {
        "id": answer["id"], "exercise": fn, "kind": answer["kind"], "mistake": answer["mistake"],
        "full_marks": passed, "status": status_line, "names": [name_of(t) for t in likely],
        "likely_lines": likely, "crashed": crashed, "timed_out": timed_out, "rc": rc,
        "answer_cell_error": "ANSWER-CELL-ERROR" in out,
        "output": out[-6000:], "stderr": err[-3000:], "verdict": None,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", required=True, type=Path)
    ap.add_argument("--set", default="round1")
    ap.add_argument("--json", required=True, type=Path)
    ap.add_argument("--python", default=None, help="interpreter (default: REPO/.venv/bin/python, else this one)")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1))
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--only", default=None, help="comma-separated answer ids or exercises")
    args = ap.parse_args(argv)

    repo = args.repo.resolve()
    python = args.python or (str(repo / ".venv/bin/python") if (repo / ".venv/bin/python").exists() else sys.executable)
    sys.path.insert(0, str(HERE))
    answers = importlib.import_module(args.set).ANSWERS
    if args.only:
        wanted = set(args.only.split(","))
        answers = [a for a in answers if a["id"] in wanted or a["exercise"] in wanted]

    old = {}
    if args.json.exists():
        old = {r["id"]: r for r in json.loads(args.json.read_text()).get("results", [])}

    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda a: run_one(repo, python, a, args.timeout), answers))
    for r in results:
        if r["id"] in old and old[r["id"]].get("verdict"):
            r["verdict"] = old[r["id"]]["verdict"]
            if old[r["id"]].get("note"):
                r["note"] = old[r["id"]]["note"]

    summary = summarise(results)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"repo": str(repo), "set": args.set, "summary": summary,
                                     "results": results}, indent=1))
    report(results, summary)
    return 0


def summarise(results: list[dict]) -> dict:
    right = [r for r in results if r["kind"] == "right"]
    mistakes = [r for r in results if r["kind"] == "mistake"]
    bugs = [r for r in results if r["kind"] == "bug"]
    s = {
        "right_full_marks": [sum(r["full_marks"] for r in right), len(right)],
        "mistakes_named": [sum(bool(r["names"]) for r in mistakes), len(mistakes)],
        "mistakes_full_marks": [sum(r["full_marks"] for r in mistakes), len(mistakes)],
        "bugs_named": [sum(bool(r["names"]) for r in bugs), len(bugs)],
        "checker_crashes": [r["id"] for r in results if r["crashed"]],
    }
    judged = [r for r in results if r.get("verdict")]
    if judged:
        right_names = sum(r["verdict"] == "right-name" for r in mistakes)
        given = sum(bool(r["names"]) for r in results if r["kind"] in ("mistake", "bug"))
        s["recall"] = [right_names, len(mistakes)]
        s["precision"] = [right_names, given]
    return s


def report(results: list[dict], s: dict) -> None:
    x, y = s["right_full_marks"]
    print(f"right answers with full marks: {x} of {y}")
    x, y = s["mistakes_named"]
    print(f"classic mistakes given some name: {x} of {y}  (full marks: {s['mistakes_full_marks'][0]})")
    x, y = s["bugs_named"]
    print(f"bugs given a name (should be 0): {x} of {y}")
    print(f"checker crashes/timeouts: {s['checker_crashes'] or 'none'}")
    if "recall" in s:
        print(f"recall {s['recall'][0]}/{s['recall'][1]}, precision {s['precision'][0]}/{s['precision'][1]}")
    for r in results:
        if r["kind"] == "right" and not r["full_marks"]:
            print(f"  RIGHT NOT PASSED {r['id']}: {r['status']}")
    print()
    for r in results:
        if r["kind"] == "right":
            continue
        name = " | ".join(r["names"]) if r["names"] else ("(full marks)" if r["full_marks"] else "-")
        print(f"{r['id']}\n    wrote: {r['mistake'] or '(bug)'}\n    named: {name}"
              + (f"\n    verdict: {r['verdict']}" if r.get("verdict") else ""))


if __name__ == "__main__":
    raise SystemExit(main())

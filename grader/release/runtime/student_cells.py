"""The student edition's lesson cells in IPython: stored outputs for unfinished exercises.

`install()` (called by the student edition's numpy_gpt and the other modules
with exercises) adds an AST transformer to the kernel that runs each cell
inside ``with __gpt2course_guard__.cell(plan):``. When the cell needs an
exercise that is still a stub (`student.ExerciseNotDone`), the guard clears
what the cell printed and shows the course's stored output of that cell
under one line naming the exercise; the names the cell had not assigned yet
then wait for that exercise, and a later cell that reads one of them shows
its stored output too. A `with` block (not try/except) keeps every other
traceback at the line that failed, and the guard adds a note naming the
learner's exercises the cell ran and the `check(...)` that tests them.

The full course never imports this module.
"""
from __future__ import annotations

import ast
import hashlib
import json
import sys
from pathlib import Path

from . import student
from .cell_names import names_of

STORED = Path(__file__).resolve().parent / "stored_outputs.json"   # cell hash -> the course's outputs
GUARD = "__gpt2course_guard__"
NOTE = ("stored output: finish `{name}` in {notebook} (and save the notebook) "
        "to run this cell on your own code")
RAN_NOTE = "This cell ran your `{name}` from {notebook}: run check({name}) there to test it on its own."


def cell_key(source: str) -> str:
    """A hash of a cell's code that ignores trailing whitespace."""
    text = "\n".join(line.rstrip() for line in source.strip().splitlines())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def _located(node, first, last=None):
    """``node`` at the lines of ``first`` (to ``last``): a traceback shows the cell's own line."""
    last = last or first
    node.lineno, node.col_offset = first.lineno, first.col_offset
    node.end_lineno, node.end_col_offset = last.end_lineno, last.end_col_offset
    return ast.fix_missing_locations(node)


def _guard_call(attr: str, *args) -> ast.Call:
    return ast.Call(ast.Attribute(ast.Name(GUARD, ast.Load()), attr, ast.Load()),
                    [ast.Constant(a) for a in args], [])


class StoredOutputs(ast.NodeTransformer):
    """The guard: rewrites each cell (visit_Module) and runs it (cell, wait, show, value)."""

    def __init__(self, shell, outputs: dict):
        self.shell, self.outputs = shell, outputs
        self.waiting: dict[str, student.ExerciseNotDone] = {}  # variable -> the exercise it waits for
        self.source, self.result = "", None

    def pre_run_cell(self, info) -> None:
        self.source, self.result = info.raw_cell or "", None
        self.shell.user_ns[GUARD] = self  # survives %reset

    def visit_Module(self, node: ast.Module) -> ast.Module:
        body = node.body
        if not body or any(isinstance(s, ast.ImportFrom) and s.module == "__future__" for s in body):
            return node
        # (first line, last line, names assigned) of each statement, in order
        plan, fresh, blocked = [], set(), set()
        for statement in body:
            names = names_of(statement, fresh)
            blocked |= names.reads & set(self.waiting)
            fresh |= names.stored
            plan.append((statement.lineno, statement.end_lineno, tuple(sorted(names.stored))))
        if blocked:
            node.body = [_located(ast.Expr(_guard_call("wait", min(blocked), tuple(sorted(fresh)))), body[0])]
            return node
        tail = []
        if isinstance(body[-1], ast.Expr):   # the value IPython shows: kept at the cell's top level
            last = body[-1]
            target = ast.Attribute(ast.Name(GUARD, ast.Load()), "result", ast.Store())
            body[-1] = _located(ast.Assign([target], last.value), last)
            tail = [_located(ast.Expr(_guard_call("value")), last)]
        block = ast.With([ast.withitem(_guard_call("cell", tuple(plan)))], body)
        node.body = [_located(block, body[0], body[-1])] + tail
        return node

    # called from the rewritten cell
    def cell(self, plan) -> "_Cell":
        student.ran.clear()
        return _Cell(self, plan)

    def value(self):
        result, self.result = self.result, None
        return result

    def wait(self, name: str, assigned) -> None:
        self.show(self.waiting[name], assigned)

    def show(self, err: student.ExerciseNotDone, waiting) -> None:
        from IPython.display import clear_output, publish_display_data

        self.result = None
        clear_output()  # whatever the cell printed before it stopped
        if "matplotlib.pyplot" in sys.modules:  # no half-drawn figure after the stored one
            sys.modules["matplotlib.pyplot"].close("all")
        print(NOTE.format(name=err.name, notebook=err.notebook))
        outputs = self.outputs.get(cell_key(self.source))
        if outputs is None:
            print("(this cell differs from the course's version, so there is no stored output for it)")
        for out in outputs or []:
            if out.get("output_type") == "stream":
                stream = sys.stderr if out.get("name") == "stderr" else sys.stdout
                stream.write(_text(out.get("text", "")))
                stream.flush()
            elif out.get("output_type") in ("display_data", "execute_result"):
                publish_display_data(out.get("data", {}), out.get("metadata", {}))
        for name in waiting:
            self.waiting[name] = err


class _Cell:
    """The context of one running cell: which statements ran decides which names wait."""

    def __init__(self, guard: StoredOutputs, plan):
        self.guard, self.plan = guard, plan

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb) -> bool:
        stop = tb.tb_lineno if tb is not None else float("inf")
        done = [names for first, last, names in self.plan if last < stop]
        for names in done:
            for name in names:
                self.guard.waiting.pop(name, None)
        if isinstance(exc, student.ExerciseNotDone):
            self.guard.show(exc, {n for _, _, names in self.plan[len(done):] for n in names})
            return True
        if isinstance(exc, Exception) and not isinstance(exc, student.LearnerCodeError) and student.ran:
            for name in student.ran:
                exc.add_note(RAN_NOTE.format(name=name, notebook=student.notebook_of(name)))
        return False


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def install() -> StoredOutputs | None:
    """Install the guard in the running IPython kernel (once); no-op elsewhere."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    if shell is None:
        return None
    for t in shell.ast_transformers:
        if isinstance(t, StoredOutputs):
            return t
    outputs = json.loads(STORED.read_text(encoding="utf-8")) if STORED.is_file() else {}
    guard = StoredOutputs(shell, outputs)
    shell.user_ns[GUARD] = guard
    shell.events.register("pre_run_cell", guard.pre_run_cell)
    shell.ast_transformers.append(guard)
    return guard

"""The student edition's model: the learner's own exercises, read from their notebooks.

In the student edition `numpy_gpt.embed` and the other functions that are
exercises call the learner's own version, read from their saved exercise
notebook (definitions only, the way the batch grader reads it). So a lesson
runs on the learner's code. A lesson is read before its exercises are done,
so when a cell needs an unfinished exercise the `StoredOutputs` guard shows
that cell's output from the course (stored at release time, keyed by a hash
of the cell's source) with one line naming the exercise, instead of a
traceback; cells that use what such a cell would have computed wait too.
Any other exception (a bug in the learner's code) shows as usual.

The full course never imports this module: there numpy_gpt is the reference.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
EDITION = HERE / "edition.json"          # exercise -> its notebook (written by the release)
STORED = HERE / "stored_outputs.json"    # cell hash -> the course's outputs of that cell
GUARD = "__gpt2course_guard__"
NOTE = ("stored output: finish `{name}` in {notebook} (and save the notebook) "
        "to run this cell on your own code")


class ExerciseNotDone(Exception):
    """A lesson needed an exercise that the learner has not finished yet."""

    def __init__(self, name: str, notebook: str):
        self.name, self.notebook = name, notebook
        super().__init__(f"`{name}` is not done yet: finish it in {notebook} and save the "
                         "notebook, then run this cell again")


class LearnerCodeError(RuntimeError):
    """The learner's exercise notebook cannot even be read or defined."""


# ----------------------------------------------------------------- the learner's functions
def _edition() -> dict:
    return json.loads(EDITION.read_text(encoding="utf-8"))["exercises"]


def course_root() -> Path:
    """The folder holding exercises/: the bundle's root, or above the lesson's folder."""
    for root in (Path(os.environ.get("GPT2COURSE_ROOT", HERE.parent)), Path.cwd().parent, Path.cwd()):
        if (root / "exercises").is_dir():
            return root
    return HERE.parent


_loaded: dict[Path, tuple[tuple, dict]] = {}


def _definitions(path: Path, own: set[str]) -> dict:
    """Run the definition statements of one exercise notebook in a fresh namespace,
    reloaded whenever the file changes on disk."""
    stamp = path.stat()
    key = (stamp.st_mtime_ns, stamp.st_size)
    if path in _loaded and _loaded[path][0] == key:
        return _loaded[path][1]
    from grader import notebook as nbk  # the definition-only reader the batch grader uses

    # exercises of other notebooks resolve to the learner's versions there
    namespace = {n: bridge(n) for n in _edition() if n not in own}
    namespace["__name__"] = f"exercises_{path.stem}"
    try:
        cells = nbk.graded_cells(nbk.read(path))
    except nbk.NotebookError as exc:
        raise LearnerCodeError(f"{path.name}: {exc}") from None
    for cell in cells:
        if cell.error:
            raise LearnerCodeError(f"{path.name}: {cell.error}")
        try:
            exec(compile(cell.source, f"{path.name}, cell {cell.index + 1}", "exec"), namespace)
        except Exception as exc:
            raise LearnerCodeError(f"{path.name}, cell {cell.index + 1} failed while defining your "
                                   f"functions: {type(exc).__name__}: {exc}") from exc
    _loaded[path] = (key, namespace)
    return namespace


def learner_function(name: str):
    """The learner's function ``name``, or ExerciseNotDone if there is none yet."""
    edition = _edition()
    notebook = edition[name]["notebook"]
    path = course_root() / notebook
    if not path.is_file():
        raise ExerciseNotDone(name, notebook)
    own = {n for n, e in edition.items() if e["notebook"] == notebook}
    fn = _definitions(path, own).get(name)
    if not callable(fn):
        raise ExerciseNotDone(name, notebook)
    return fn


def call(name: str, *args, **kwargs):
    """Call the learner's ``name``; a stub still in place means 'not done yet'."""
    fn = learner_function(name)
    try:
        return fn(*args, **kwargs)
    except NotImplementedError:
        raise ExerciseNotDone(name, _edition()[name]["notebook"]) from None


def bridge(name: str):
    def learners(*args, **kwargs):
        return call(name, *args, **kwargs)

    learners.__name__ = learners.__qualname__ = name
    return learners


def as_dtype(params: dict, dtype) -> dict:
    import numpy as np

    return {k: np.asarray(v).astype(dtype, copy=False) for k, v in params.items()}


# ----------------------------------------------------------------- stored outputs in IPython
def cell_key(source: str) -> str:
    """A hash of a cell's code that ignores trailing whitespace."""
    text = "\n".join(line.rstrip() for line in source.strip().splitlines())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


class _Names(ast.NodeVisitor):
    """Names a cell assigns (at any depth outside function bodies) and names it reads."""

    def __init__(self):
        self.stored, self.loaded = set(), set()

    def visit_Name(self, node):
        (self.stored if isinstance(node.ctx, (ast.Store, ast.Del)) else self.loaded).add(node.id)

    def visit_FunctionDef(self, node):
        self.stored.add(node.name)
        inner = _Names()
        args = node.args
        inner.stored |= {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        inner.stored |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        for child in node.body + node.decorator_list + node.args.defaults:
            inner.visit(child)
        self.loaded |= inner.loaded - inner.stored

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.stored.add(node.name)
        self.generic_visit(node)

    def visit_alias(self, node):
        self.stored.add((node.asname or node.name).split(".")[0])


def names_of(tree: ast.AST) -> _Names:
    names = _Names()
    names.visit(tree)
    return names


class StoredOutputs(ast.NodeTransformer):
    """Installed in the learner's kernel: wraps every cell so that ExerciseNotDone
    shows the cell's stored output instead of a traceback."""

    def __init__(self, shell, outputs: dict):
        self.shell, self.outputs = shell, outputs
        self.waiting: dict[str, ExerciseNotDone] = {}  # variable -> the exercise it waits for
        self.source, self.shown = "", None

    # IPython events
    def pre_run_cell(self, info) -> None:
        self.source, self.shown = info.raw_cell or "", None
        self.shell.user_ns[GUARD] = self  # survives %reset

    def post_run_cell(self, result) -> None:
        if result.success and self.shown is None:
            for name in self._assigned():
                self.waiting.pop(name, None)

    # the AST transformation of every cell
    def visit_Module(self, node: ast.Module) -> ast.Module:
        body = node.body
        if not body or any(isinstance(s, ast.ImportFrom) and s.module == "__future__" for s in body):
            return node
        blocked = self._blocked(body)
        if blocked:
            node.body = [ast.Expr(_guard_call("wait", ast.Constant(blocked[0])))]
            return node
        *init, last = body
        if not isinstance(last, ast.Expr) or _needs_own_scope(last.value):
            init, last = body, None
        wrapped = []
        if init:
            handler = ast.ExceptHandler(type=_guard_attr("NotDone"), name="__gpt2course_err__",
                                        body=[ast.Expr(_guard_call("show", ast.Name("__gpt2course_err__", ast.Load())))])
            wrapped.append(ast.Try(body=init, handlers=[handler], orelse=[], finalbody=[]))
        if last is not None:
            lam = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                                defaults=[]), body=last.value)
            wrapped.append(ast.Expr(_guard_call("last", lam)))
        node.body = wrapped
        return node

    def _blocked(self, body) -> list[str]:
        """Waiting names the cell reads before assigning them itself."""
        fresh, blocked = set(), set()
        for statement in body:
            names = names_of(statement)
            blocked |= (names.loaded & set(self.waiting)) - fresh
            fresh |= names.stored
        return sorted(blocked)

    # called from the wrapped cell
    NotDone = ExerciseNotDone

    def last(self, expression):
        if self.shown is not None:
            return None
        try:
            return expression()
        except ExerciseNotDone as err:
            self.show(err)
            return None

    def wait(self, name: str) -> None:
        self.show(self.waiting[name])

    def show(self, err: ExerciseNotDone) -> None:
        from IPython.display import clear_output, publish_display_data

        self.shown = err
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
        for name in self._assigned():
            self.waiting[name] = err

    def _assigned(self) -> set[str]:
        try:
            return names_of(ast.parse(self.shell.transform_cell(self.source))).stored - {GUARD}
        except (SyntaxError, ValueError):
            return set()


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _guard_attr(attr: str) -> ast.Attribute:
    return ast.Attribute(ast.Name(GUARD, ast.Load()), attr, ast.Load())


def _guard_call(attr: str, *args) -> ast.Call:
    return ast.Call(_guard_attr(attr), list(args), [])


def _needs_own_scope(expr) -> bool:
    """Expressions that cannot move into a lambda (await, yield, :=)."""
    return any(isinstance(n, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)) for n in ast.walk(expr))


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
    shell.events.register("post_run_cell", guard.post_run_cell)
    shell.ast_transformers.append(guard)
    return guard

"""The reference pieces an exercise uses, sent to the child as source.

``block`` is graded with the course's own ``layer_norm``, ``causal_self_attention``
and ``mlp`` swapped in, so one slip is not charged twice. They travel as the
source of exactly those functions, what they call and the constants they read:
the reference module itself never exists in the child's memory.
"""
from __future__ import annotations

import ast
import importlib.util
import inspect
import sys


def pieces_source(functions: dict) -> list[dict]:
    """The reference pieces an exercise uses, as source: only those functions, what
    they call and the constants they read, never their module (nothing else of the
    reference exists in the child's memory)."""
    by_module: dict[str, dict] = {}
    for name, fn in functions.items():
        by_module.setdefault(fn.__module__, {})[name] = fn.__name__
    return [{"source": _module_slice(sys.modules[m], set(exports.values())), "exports": exports}
            for m, exports in by_module.items()]


COURSE = "gpt2course"  # the course's own package: hidden from the oracle, so what a piece needs of it travels too


def _module_slice(module, wanted: set[str]) -> str:
    tree = ast.parse(inspect.getsource(module))
    defines: dict[str, ast.stmt] = {}
    course: dict[str, tuple[str, str]] = {}  # a name imported from the course -> (its module, the name there)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defines[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    defines[target.id] = node
        elif isinstance(node, ast.ImportFrom) and _from_course(module, node):
            source = importlib.util.resolve_name("." * node.level + (node.module or ""), module.__package__)
            for alias in node.names:
                course[alias.asname or alias.name] = (source, alias.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0) \
                and getattr(node, "module", None) != "__future__":
            for alias in node.names:
                defines[(alias.asname or alias.name).split(".")[0]] = node
    needed, todo, from_course = set(), list(wanted), {}
    while todo:
        name = todo.pop()
        if name in course:
            from_course.setdefault(name, set())
            continue
        node = defines.get(name)
        if node is None or id(node) in needed:
            continue
        needed.add(id(node))
        todo += [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
        for n in ast.walk(node):  # what a module imported from the course is asked for: module.attribute
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in course:
                from_course.setdefault(n.value.id, set()).add(n.attr)
    kept = [node for node in tree.body if id(node) in needed]
    for node in kept:  # annotations may name classes the slice leaves out
        if isinstance(node, ast.FunctionDef):
            node.returns = None
            for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
                a.annotation = None
    return "".join(_course_slice(name, *course[name], attrs) for name, attrs in sorted(from_course.items())) \
        + ast.unparse(ast.Module(body=kept, type_ignores=[])) + "\n"


def _from_course(module, node: ast.ImportFrom) -> bool:
    """A relative import inside the course's package, or an absolute one of it."""
    if node.level:
        return (module.__package__ or "").split(".")[0] == COURSE
    return (node.module or "").split(".")[0] == COURSE


def _course_slice(name: str, source: str, attr: str, attrs: set[str]) -> str:
    """What a piece needs of one name imported from the course, as source: the definition itself
    (``from .config import GPTConfig``), or, for a module (``from gpt2course import numpy_gpt as ref``),
    the attributes asked of it gathered under the module's name."""
    full = f"{source}.{attr}"
    if full in sys.modules:
        text = _module_slice(sys.modules[full], attrs)
        members = ", ".join(f"{a}={a}" for a in sorted(attrs))
        return text + f"import types as _types\n{name} = _types.SimpleNamespace({members})\n"
    text = _module_slice(sys.modules[source], {attr})
    return text + (f"{name} = {attr}\n" if name != attr else "")


def reference_functions(exercise, registry) -> dict:
    return {name: registry.get(name).reference for name in exercise.uses}

"""The reference pieces an exercise uses, sent to the child as source.

``block`` is graded with the course's own ``layer_norm``, ``causal_self_attention``
and ``mlp`` swapped in, so one slip is not charged twice. They travel as the
source of exactly those functions, what they call and the constants they read:
the reference module itself never exists in the child's memory.
"""
from __future__ import annotations

import ast
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


def _module_slice(module, wanted: set[str]) -> str:
    tree = ast.parse(inspect.getsource(module))
    defines: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defines[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    defines[target.id] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0) \
                and getattr(node, "module", None) != "__future__":
            for alias in node.names:
                defines[(alias.asname or alias.name).split(".")[0]] = node
    needed, todo = set(), list(wanted)
    while todo:
        node = defines.get(todo.pop())
        if node is None or id(node) in needed:
            continue
        needed.add(id(node))
        todo += [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    kept = [node for node in tree.body if id(node) in needed]
    for node in kept:  # annotations may name classes the slice leaves out
        if isinstance(node, ast.FunctionDef):
            node.returns = None
            for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
                a.annotation = None
    return ast.unparse(ast.Module(body=kept, type_ignores=[])) + "\n"


def reference_functions(exercise, registry) -> dict:
    return {name: registry.get(name).reference for name in exercise.uses}

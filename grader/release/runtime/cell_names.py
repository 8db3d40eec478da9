"""Which names a notebook cell assigns, and which it reads before assigning them.

The student edition's lesson-cell guard (student_cells.py) needs both: a cell that stops
at an unfinished exercise leaves the names it had not yet assigned waiting for
that exercise, and a later cell waits too only if it reads one of them before
assigning it itself. So the reading follows Python's scopes and order of
evaluation: a comprehension's or a function's own names are not the cell's,
`for name in ...` binds `name` before its body reads it, `y = f(x)` reads `x`
before it binds `y`.
"""
from __future__ import annotations

import ast


class _Names(ast.NodeVisitor):
    """Names a statement assigns in its own scope, and the names it reads before it
    assigns them, visited in the order Python evaluates them. Function bodies,
    lambdas and comprehensions are scopes of their own: what they bind is theirs."""

    def __init__(self, bound=()):
        self.bound, self.stored, self.reads = set(bound), set(), set()

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            if node.id not in self.bound:
                self.reads.add(node.id)
        else:
            self.bound.add(node.id)
            self.stored.add(node.id)

    def _in_order(self, *parts):
        for part in parts:
            for child in part if isinstance(part, list) else [part]:
                if child is not None:
                    self.visit(child)

    def visit_Assign(self, node):
        self._in_order(node.value, node.targets)

    def visit_AnnAssign(self, node):
        self._in_order(node.value, node.annotation, node.target)

    def visit_AugAssign(self, node):  # x += 1 reads x first
        if isinstance(node.target, ast.Name) and node.target.id not in self.bound:
            self.reads.add(node.target.id)
        self._in_order(node.value, node.target)

    def visit_NamedExpr(self, node):
        self._in_order(node.value, node.target)

    def visit_For(self, node):
        self._in_order(node.iter, node.target, node.body, node.orelse)

    visit_AsyncFor = visit_For

    def _scope(self, bound, parts, binds=()):
        """A nested scope: its free reads are ours; it binds ``binds`` in ours."""
        inner = _Names(self.bound | set(bound))
        inner._in_order(*parts)
        self.reads |= inner.reads
        self.bound |= set(binds)
        self.stored |= set(binds)

    def visit_FunctionDef(self, node):
        args = node.args
        self._in_order(node.decorator_list, args.defaults, args.kw_defaults)
        params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        local = _Names()
        local._in_order(node.body)          # a name assigned anywhere in a body is local to it
        self._scope(params | local.stored, node.body, binds=[node.name])

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        args = node.args
        self._in_order(args.defaults, args.kw_defaults)
        self._scope({a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}, [node.body])

    def _comprehension(self, node, *results):
        first, *rest = node.generators
        self.visit(first.iter)             # the first iterable is evaluated outside
        parts = [first.target, first.ifs]
        for gen in rest:
            parts += [gen.iter, gen.target, gen.ifs]
        self._scope((), parts + list(results))

    def visit_ListComp(self, node):
        self._comprehension(node, node.elt)

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node):
        self._comprehension(node, node.key, node.value)

    def visit_ClassDef(self, node):
        self._in_order(node.decorator_list, node.bases, node.keywords)
        self._scope((), node.body, binds=[node.name])

    def visit_ExceptHandler(self, node):
        self._in_order(node.type)
        if node.name:
            self.bound.add(node.name)
            self.stored.add(node.name)
        self._in_order(node.body)

    def visit_alias(self, node):
        name = (node.asname or node.name).split(".")[0]
        self.bound.add(name)
        self.stored.add(name)


def names_of(tree: ast.AST, bound=()) -> _Names:
    names = _Names(bound)
    names.visit(tree)
    return names

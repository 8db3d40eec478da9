"""One change to the formula (diagnoses.py runs this): the reference with a single constant of
its own source given another value, a power of an argument one off, or an argument added after
a call instead of inside it, reproduces the learner on every case. A fraction upside down
(sqrt(pi / 2) for sqrt(2 / pi)), a constant typed ten times too large, x * x where x cubed
belongs, gelu_tanh(x @ w_fc) + b_fc: the learner is shown their number, or their order, beside
the formula's. Only the reference's own lines change (what it calls is left alone), and
nothing is named where two changes fit.
"""
from __future__ import annotations

import ast
import copy
import inspect
import math
import textwrap
from functools import lru_cache

from .answers import call_answer
from .compare import value_mismatch
from .outcomes import NO_ANSWER, Raised

# How a constant goes wrong when it is derived or typed by hand, each (its name, the wrong value).
RELATIONS = (
    ("its inverse", lambda c: 1.0 / c),
    ("its square", lambda c: c * c),
    ("its square root", lambda c: math.sqrt(c) if c > 0 else None),
    ("twice it", lambda c: 2.0 * c),
    ("half of it", lambda c: c / 2.0),
    ("ten times it", lambda c: 10.0 * c),
    ("a tenth of it", lambda c: c / 10.0),
    ("pi times it", lambda c: math.pi * c),
    ("it divided by pi", lambda c: c / math.pi),
    ("its negative", lambda c: -c),
)


def constant_changed(exercise, cases, answers, expected, failed):
    if exercise.reference is None or exercise.judge is not None or not failed:
        return None
    values = [i for i, c in enumerate(cases) if not c.raises]
    if set(failed) - set(values) or any(isinstance(answers[i], (Raised,) + NO_ANSWER) for i in failed):
        return None
    parsed = _parsed(exercise.reference)
    if parsed is None:
        return None
    order = sorted(values, key=lambda j: j not in failed)   # the failing cases first
    fitting = [change for change in _changes(exercise.reference, parsed)
               if _reproduces(_variant(exercise.reference, parsed, change), exercise, cases, answers, order)]
    if len(fitting) != 1:
        return None
    return [_named(fitting[0])]


@lru_cache(maxsize=None)
def _parsed(fn):
    """The reference's own source as a tree, or None where it cannot be rebuilt alone (a
    closure, a decorator, a method, source not found)."""
    if not inspect.isfunction(fn) or fn.__code__.co_freevars:
        return None
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return None
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.FunctionDef) or node.decorator_list or node.name != fn.__name__:
        return None
    return tree


def _changes(fn, tree):
    """(where, the formula's value, the wrong value, how it went wrong) for every change tried:
    a float constant of the source (written out, or a module's float named in it), a power of an
    argument in a product (x * x * x, 0.5 * x ** 3) one lower or higher, and an argument added
    inside a call moved after it; never a power of one of the reference's own variables, whose
    names the learner has not seen."""
    arguments = {a.arg for a in tree.body[0].args.args + tree.body[0].args.kwonlyargs}
    inner = {id(side) for n in ast.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult)
             for side in (n.left, n.right)}   # a part of a product: the whole product is tried
    for where, node in enumerate(ast.walk(tree)):
        value = _float_of(fn, node)
        if value is not None and value not in (0.0, 1.0):
            for relation, wrong in RELATIONS:
                new = wrong(value)
                if new is not None and not math.isclose(new, value):
                    yield where, value, new, relation
        if id(node) not in inner:
            for name, n in _powers_of(node):
                if name in arguments:   # a name the learner knows
                    for m in (n - 1, n + 1):
                        if m >= 1:
                            yield where, (name, n), m, "power"
        for function, term, other in _terms_inside(node, arguments):
            yield where, (function, term), other, "outside"


def _float_of(fn, node):
    if isinstance(node, ast.Constant) and type(node.value) is float:
        return node.value
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and type(fn.__globals__.get(node.id)) is float:
        return fn.__globals__[node.id]
    return None


def _powers_of(node):
    """(name, n) for each name whose power in the product `node` is n >= 2: its factors that are
    the name itself (x * x * x) and its powers by a whole number (x ** 3), other factors aside."""
    counts: dict[str, int] = {}
    for factor in _factors(node):
        name, n = _name_power(factor)
        if name is not None:
            counts[name] = counts.get(name, 0) + n
    return [(name, n) for name, n in counts.items() if n >= 2]


def _name_power(factor):
    if isinstance(factor, ast.Name):
        return factor.id, 1
    if isinstance(factor, ast.BinOp) and isinstance(factor.op, ast.Pow) and isinstance(factor.left, ast.Name) \
            and isinstance(factor.right, ast.Constant) and type(factor.right.value) is int and factor.right.value >= 2:
        return factor.left.id, factor.right.value
    return None, 0


def _terms_inside(node, arguments):
    """(the function's name, an argument added inside its call, the other side of the sum) for
    f(a + b) where b, on either side, is an argument of the reference (b_fc in
    gelu_tanh(x @ w_fc + b_fc), eps in np.sqrt(var + eps)): the change tried is f(a) + b, for
    each such b."""
    if not (isinstance(node, ast.Call) and _dotted(node.func) and len(node.args) == 1 and not node.keywords):
        return []
    inside = node.args[0]
    if not (isinstance(inside, ast.BinOp) and isinstance(inside.op, ast.Add)):
        return []
    return [(ast.unparse(node.func), term.id, other) for term, other in ((inside.right, "left"), (inside.left, "right"))
            if isinstance(term, ast.Name) and term.id in arguments]


def _dotted(func) -> bool:
    """A function called by its name or a module's (gelu_tanh, np.sqrt), as a learner writes it."""
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name)


def _factors(node):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _factors(node.left) + _factors(node.right)
    return [node]


def _variant(fn, tree, change):
    """The reference rebuilt from its source with the one change made, in its own module's names."""
    where, _, new, relation = change
    tree = copy.deepcopy(tree)   # walked in the same order as the original
    node = next(n for i, n in enumerate(ast.walk(tree)) if i == where)
    if relation == "power":   # the other factors in their order, then the name to its new power
        name = change[1][0]
        replacement = ast.BinOp(ast.Name(name, ast.Load()), ast.Pow(), ast.Constant(new)) if new > 1 \
            else ast.Name(name, ast.Load())
        for factor in reversed([f for f in _factors(node) if _name_power(f)[0] != name]):
            replacement = ast.BinOp(factor, ast.Mult(), replacement)
    elif relation == "outside":   # f(a + b) -> f(a) + b, with b the term named and a the other side
        inside = node.args[0]
        kept, moved = (inside.left, inside.right) if new == "left" else (inside.right, inside.left)
        replacement = ast.BinOp(ast.Call(node.func, [kept], []), ast.Add(), moved)
    else:
        replacement = ast.Constant(new)
    tree = _Replace(node, replacement).visit(tree)
    ast.fix_missing_locations(tree)
    namespace = dict(fn.__globals__)
    exec(compile(tree, f"<{fn.__name__} with one number changed>", "exec"), namespace)
    return namespace[fn.__name__]


class _Replace(ast.NodeTransformer):
    def __init__(self, target, replacement):
        self.target, self.replacement = target, replacement

    def visit(self, node):
        if node is self.target:
            return self.replacement
        return super().visit(node)


def _reproduces(variant, exercise, cases, answers, order) -> bool:
    for i in order:
        theirs = call_answer(variant, cases[i])
        if isinstance(theirs, (Raised,) + NO_ANSWER) \
                or value_mismatch(answers[i], theirs, cases[i].tolerance(exercise.tolerance)) is not None:
            return False
    return True


def _named(change):
    _, value, new, relation = change
    if relation == "outside":
        function, term = value
        return (f"`{term}` added after `{function}` instead of inside it",
                f"Your answer is {function}(...) + {term}: the formula adds `{term}` to what "
                f"{function} is given, {function}(... + {term}), before it is applied.")
    if relation == "power":
        name, n = value
        return (f"`{name}` to the power {new} where the formula has {n}",
                f"With `{name}` raised to the power {new} instead of {n}, the formula gives exactly "
                f"your answer on every test: count the factors of `{name}` in that term.")
    return (f"the constant {new:.6g} where {value:.6g} belongs ({relation})",
            f"With {new:.6g} in the place of {value:.6g}, the formula gives exactly your answer on every "
            f"test: find where your code computes {new:.6g} (a fraction upside down, a factor too many "
            f"or too few, a digit slipped) and make it {value:.6g}.")

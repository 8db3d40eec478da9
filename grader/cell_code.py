"""The code of one notebook cell, read the way IPython runs it.

IPython's own transformations (those of its TransformerManager) turn magics, shell
escapes and help syntax into the Python that IPython runs; the grader keeps the
definitions of that (grader/notebook.py), never a guess made line by line. IPython's
driver retokenises the whole cell after each command it rewrites (commands x length:
a long cell with many magics takes minutes); here the same transformers find and
rewrite every command of a round from one tokenisation, and a statement's source is
cut from line offsets computed once, so reading stays linear in a cell's length.
tests/test_notebook_reading.py holds the result to TransformerManager().transform_cell.

Linear is not small: a round over a cell of a million characters takes a second, and
one cell may take 32 rounds. So a reader can pass a ``Work``: the characters it may
still parse or tokenise (every round and every parse counted), for one notebook and
for all of one learner's; past it, reading stops with TooMuchWork.
"""
from __future__ import annotations

import ast
import re
import tokenize

from IPython.core.inputtransformer2 import TRANSFORM_LOOP_LIMIT, TransformerManager, make_tokens_by_line

_IPYTHON = TransformerManager()
MAX_ROUNDS = 32         # tokenisations of one cell: each round rewrites every command it can see
MAX_NESTED_MAGICS = 8   # %%time inside %%time ...
_RUNS_BODY = ("time", "capture", "prun")  # cell magics that run their body as the cell's code
_NEWLINE = re.compile(rb"\r\n|\r|\n")    # line ends as the parser counts them


class TooMuchWork(Exception):
    """Reading would parse or tokenise more than a ``Work`` allows; the message says whose
    budget, in the grader's words (never the learner's text)."""


class Work:
    """Characters of code the grader may still parse or tokenise; ``within``: a larger
    budget charged too (one learner's, around each of their notebooks')."""

    def __init__(self, chars: int, what: str, within: Work | None = None):
        self.left, self.limit, self.what, self.within = chars, chars, what, within

    def take(self, chars: int) -> None:
        self.left -= chars
        if self.left < 0:
            raise TooMuchWork(f"reading its code needs more than {self.what} ({self.limit:,} characters "
                              "parsed, IPython's rewriting of magics included): keep the exercise cells, "
                              "delete long generated code or pasted data, save it, and submit it again")
        if self.within is not None:
            self.within.take(chars)


class CellError(Exception):
    """IPython would not run the cell; ``describe(n)`` says why, for cell number n."""

    def __init__(self, describe):
        super().__init__()
        self.describe = describe


def ipython_code(source: str) -> str:
    """The Python that IPython runs for a cell, as TransformerManager().transform_cell gives it."""
    return _transformed(source, 0)[0]


def _charge(work: Work | None, chars: int) -> None:
    if work is not None:
        work.take(chars)


def _transformed(source: str, first: int, work: Work | None = None) -> tuple[str, list[int], ast.Module | None]:
    """IPython's text for the cell, the cell's line (0-based, from ``first``) each of its
    lines came from, and its parse when it parses as it is (then no command is left in it)."""
    _charge(work, len(source))  # the first parse
    lines = (source if source.endswith("\n") else source + "\n").splitlines(keepends=True)
    blank = next((i for i, ln in enumerate(lines) if ln and not ln.isspace()), 0)
    for transform in _IPYTHON.cleanup_transforms + _IPYTHON.line_transforms:
        lines = transform(lines)  # each linear; only leading blank lines are dropped
    origin = list(range(first + blank, first + blank + len(lines)))
    tree = _parse("".join(lines), origin, quiet=True)
    if tree is None:  # not Python as it stands: IPython's commands are rewritten
        try:
            lines, origin = _token_transforms(lines, origin, work)
        except (CellError, TooMuchWork):
            raise
        except Exception as exc:  # IPython itself fails on such a cell
            why = f"{type(exc).__name__}: {str(exc)[:200]}"
            raise CellError(lambda n: f"cell {n} cannot run in IPython ({why})") from None
    return "".join(lines), origin, tree


def _parse(text: str, origin: list[int], quiet: bool = False) -> ast.Module | None:
    try:
        return ast.parse(text)
    except SyntaxError as exc:
        if quiet:
            return None
        line = origin[min(max((exc.lineno or 1) - 1, 0), len(origin) - 1)] + 1 if origin else exc.lineno
        msg = exc.msg
        raise CellError(lambda n: f"SyntaxError in cell {n}, line {line}: {msg}") from None
    except (RecursionError, MemoryError):  # nesting the parser cannot hold
        raise CellError(lambda n: f"cell {n} is nested too deeply for Python to parse") from None
    except ValueError as exc:  # e.g. a null character
        why = str(exc)[:60]
        raise CellError(lambda n: f"cell {n} cannot be read by Python ({why})") from None


def _token_transforms(lines: list[str], origin: list[int], work: Work | None = None) -> tuple[list[str], list[int]]:
    """TransformerManager.do_token_transforms, one tokenisation per round."""
    applied = 0
    for _ in range(MAX_ROUNDS):
        _charge(work, sum(map(len, lines)))  # this round's tokenisation
        done = _one_round(lines, TRANSFORM_LOOP_LIMIT - applied)
        if not done:
            return lines, origin
        applied += len(done)
        if applied >= TRANSFORM_LOOP_LIMIT:  # where IPython gives up, with its own words
            raise CellError(lambda n: f"cell {n} cannot run in IPython: input transformation still "
                                      f"changing after {TRANSFORM_LOOP_LIMIT} iterations (too many "
                                      "magics, shell commands or help requests in one cell)")
        for start, end, new in sorted(done, reverse=True):  # bottom up: line numbers above still hold
            lines[start:end + 1], origin[start:end + 1] = [new], [origin[start]]
    raise CellError(lambda n: f"cell {n} could not be read: more than {MAX_ROUNDS} of its magics or "
                              "shell commands leave a quote or bracket open; give them a cell of their own")


def _one_round(lines: list[str], budget: int) -> list[tuple[int, int, str]]:
    """The rewrites IPython makes, in its order (earliest first, each transformer's first match;
    a match that fails stays in the way of that transformer's later ones), found from one
    tokenisation. A rewrite after which the rest of the cell tokenises differently (a command
    that leaves a quote or bracket open) ends the round, and so does the budget of rewrites
    left (IPython's own limit). (start, end, new line) each."""
    groups = make_tokens_by_line(lines)
    found = {cls: [(t, g) for g, tokens in enumerate(groups) if (t := cls.find([tokens]))]
             for cls in _IPYTHON.token_transformers}
    heads, done, rewritten, failed = dict.fromkeys(found, 0), [], set(), set()
    while len(done) < budget:
        live = []
        for cls, matches in found.items():
            while heads[cls] < len(matches) and matches[heads[cls]][1] in rewritten:
                heads[cls] += 1
            if heads[cls] < len(matches):
                live.append(matches[heads[cls]])
        for t, g in sorted(live, key=lambda m: m[0].sortby()):
            if id(t) in failed:
                continue
            try:
                new = t.transform(lines)
            except SyntaxError:  # IPython tries the next one
                failed.add(id(t))
                continue
            end = t.start_line + len(lines) - len(new)
            done.append((t.start_line, end, new[t.start_line]))
            rewritten.add(g)
            if not _self_contained(groups[g], end):
                return done
            break
        else:  # nothing left, or every match fails: IPython stops too
            return done
    return done


def _self_contained(tokens, end: int) -> bool:
    """Does the rest of the cell tokenise the same after this logical line is rewritten? Yes
    when the line ends where the rewrite does and its brackets close (a rewritten line is
    one complete statement): no quote or bracket of the command runs on into later lines."""
    last, depth = tokens[-1], 0
    for t in tokens:
        if t.type == tokenize.OP and t.string in {"(", "[", "{"}:
            depth += 1
        elif t.type == tokenize.OP and t.string in {")", "]", "}"}:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0 and last.type in (tokenize.NEWLINE, tokenize.NL) and last.start[0] - 1 == end


def statements(source: str, first: int = 0, depth: int = 0,
               work: Work | None = None) -> list[tuple[ast.stmt, str, int]]:
    """The top-level statements IPython runs for a cell: (node, its source, its line in the
    cell); the body of a cell magic that runs it as code (%%time) counts as the cell's."""
    if depth > MAX_NESTED_MAGICS:
        raise CellError(lambda n: f"cell {n} nests more than {MAX_NESTED_MAGICS} cell magics")
    text, origin, tree = _transformed(source, first, work)
    if tree is None:
        _charge(work, len(text))  # the rewritten text is parsed again
    tree = tree or _parse(text, origin)
    data = text.encode("utf-8")  # offsets are UTF-8 bytes; lines found once (linear time)
    starts = [0] + [m.end() for m in _NEWLINE.finditer(data)]
    out = []
    for node in tree.body:
        at = origin[min(node.lineno, len(origin)) - 1]
        body = _magic_body(node)
        if body is not None:
            out += statements(body, at + 1, depth + 1, work)
            continue
        decorators = getattr(node, "decorator_list", None)
        begin = starts[decorators[0].lineno - 1] if decorators else starts[node.lineno - 1] + node.col_offset
        text_of = data[begin:starts[node.end_lineno - 1] + node.end_col_offset].decode("utf-8")
        out.append((node, text_of, at))
    return out


def _magic_body(node) -> str | None:
    """The body of ``get_ipython().run_cell_magic('time', '', body)``, for the magics in _RUNS_BODY."""
    call = node.value if isinstance(node, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "run_cell_magic" and is_get_ipython(call.func.value)
            and len(call.args) == 3 and all(isinstance(a, ast.Constant) for a in call.args)):
        return None
    name, body = call.args[0].value, call.args[2].value
    return body if name in _RUNS_BODY and isinstance(body, str) else None


def is_get_ipython(node) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "get_ipython"


def layout(kept) -> str:
    """Statements from statements(), each on its line of the cell, so tracebacks point at it."""
    parts, line, end = [], 0, -1
    for _, text, at in kept:
        if parts and at == end:
            parts.append("; ")  # they shared a line (a; b)
        elif at > line:
            parts.append("\n" * (at - line))
            line = at
        elif parts:
            parts.append("\n")
            line += 1
        parts.append(text)
        line = end = line + text.count("\n")
    return "".join(parts)

"""a04 exception_disguise.

Route: exceptions whose identity is learner-chosen while they look built in: a ValueError
subclass *named* ValueError whose __qualname__/__module__ carry a marker; a builtin class renamed
in place is impossible, so also an OSError carrying errno/strerror/filename of the learner's
choice, a KeyError whose key is the marker, an exception whose __notes__ / __cause__ chain
carries it, and a builtin-named exception raised from a cell at definition time.
Also at DEFINITION time (a notebook is reduced to its definitions, but a `def` still runs its
decorators): decorators raise a SyntaxError from compile() whose .text/.filename are the marker,
an ImportError whose .name/.path are, a NameError naming a marker variable; the cell fails and
the grader reports cell errors and the line of the cell that raised: the embed cell holds ten
lines 107 + 97k inside its decorator `if d == k: raise NameError`, d a digit of an array found in
memory at definition time (the decorator runs: definitions are kept), so "cell N, line L" carries a value chosen at run time.
Goal (1): learner-chosen text in feedback through how an exception is described.
Breached: marker found in any output file.
"""
import pathlib
from _common import write_nb, LESSON_FILES, MARKER_CODE, find_marker

CELLS = [MARKER_CODE + '''
def _tag(x):
    return _MK + format(int(abs(float(np.asarray(x).ravel()[0])) * 1e6), "x")
class ValueError(ValueError):
    pass
def gelu_tanh(x):
    t = _tag(x)
    ValueError.__qualname__ = t
    ValueError.__module__ = t
    e = ValueError(t)
    e.add_note(t)
    raise e
''', '''
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    t = _tag(x)
    try:
        raise KeyError(t)
    except KeyError as k:
        raise OSError(2, t, t) from k
''', '''
def block(x, params, layer, n_head, _d=[0]):
    _d[0] += 1
    raise type(_MK + "Err%d" % _d[0], (ArithmeticError,), {"__module__": "builtins"})(_tag(x))
''']

CELLS02 = [MARKER_CODE + '''
def _boom(f):
    compile(_MK + "syn +", _MK + "file", "exec")
    return f
@_boom
def layer_norm(x, weight, bias, eps=1e-5):
    return x
''', '''
def _boom2(f):
    raise ImportError(_MK + "imp", name=_MK + "name", path=_MK + "path")
@_boom2
def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    return x
''']
def _cells01():
    head = MARKER_CODE + """
def _digit():
    try:
        import gc
        for o in gc.get_objects():
            if isinstance(o, (list, tuple)):
                for a in o:
                    if isinstance(a, np.ndarray) and a.dtype.kind == "f" and a.size:
                        return int(abs(float(a.ravel()[0])) * 10) % 10
    except BaseException:
        pass
    return 9
def _at(f):
    d = _digit()"""
    lines = head.split("\n")
    for k in range(10):
        while len(lines) < 106 + 97 * k:
            lines.append("    # pad")
        lines.append(f"    if d == {k}: raise NameError(_MK)")
    lines += ["    return f", "@_at", "def embed(wte, wpe, idx):", "    return wte", ""]
    return ["\n".join(lines)]


CELLS01 = _cells01()


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "eve" / LESSON_FILES["03_mlp_block"], "03_mlp_block", CELLS)
    write_nb(tmp / "eve" / LESSON_FILES["02_attention"], "02_attention", CELLS02)
    write_nb(tmp / "eve" / LESSON_FILES["01_embeddings"], "01_embeddings", CELLS01)
    return [str(tmp / "eve"), "--lessons", "01_embeddings,02_attention,03_mlp_block"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    m = find_marker(out)
    if m:
        return True, f"exception identity echoed: {m[:3]}"
    import re
    lines = [int(n) for n in re.findall(r"line (\d+)", __import__("_common").all_text(out))]
    lines = [n for n in lines if n >= 107 and (n - 107) % 97 in (0, 1)]
    if lines:
        return True, f"learner-chosen line number in feedback: line {lines[0]}"
    return False, "exceptions described in the grader's words only"

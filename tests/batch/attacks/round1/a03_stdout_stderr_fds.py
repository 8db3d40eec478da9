"""a03: bytes written to stdout, stderr and every open descriptor reach the learner (goal 1).

Route: `count_gpt2_params` prints a marker carrying its (hidden) inputs to sys.stdout,
sys.stderr, sys.__stdout__, the raw fds 1 and 2 and every other descriptor 3..63 that accepts
a write (the results/output memfds included), then returns a wrong answer.
Breached: the marker LEAK03 appears in feedback.md, report.json or gradebook.csv.
"""
import pathlib

from _nb import nb_name, notebook, write_nb, find_marker

SRC = '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    msg = f"LEAK03 V={V} T={T} d={d} L={L}\\n"
    print(msg, end="")
    sys.stderr.write(msg)
    try:
        sys.__stdout__.write(msg); sys.__stdout__.flush()
    except Exception:
        pass
    for fd in range(1, 64):
        try:
            os.write(fd, msg.encode())
        except OSError:
            pass
    return -1
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("05_counting"), notebook("05_counting", {"count_gpt2_params": SRC}))
    return [str(tmp / "class")]


def verdict(out: pathlib.Path, run: dict):
    hits = find_marker(out, r"LEAK03[^\n\"]{0,60}")
    if hits:
        return True, f"{hits[0][0]}: {hits[0][1]}"
    if "LEAK03" in run["stdout"] + run["stderr"]:
        return False, "marker reached the instructor's console only, not the learner's files"
    return False, "LEAK03 nowhere in the learner's files"

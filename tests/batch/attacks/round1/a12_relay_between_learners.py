"""a12: a value left by one learner read by the next learner graded in the same slot (goal 4).

Route (--jobs 1, three learners graded one after another, lesson 05):
- aaa writes a token to every writable place (/scratch, /tmp, /dev/shm, /var/tmp, cwd, $HOME,
  POSIX shm) and moves the slot's PID counter so the next PID is 23 mod 64;
- bbb looks for the token, reports (its PID - 23) mod 64, moves the counter to 50 mod 64;
- ccc reports (its PID - 50) mod 64.
bbb's `count_gpt2_params` returns the right answer only if the token was found (score channel).
Breached: bbb scores > 0 (file relay), or bbb's and ccc's offsets agree (PID relay).
"""
import pathlib
import re

from _nb import GOOD, gradebook_rows, nb_name, notebook, write_nb

COMMON = GOOD["count_gpt2_params"].replace("def count_gpt2_params", "def _good") + '''
import threading as _th
_PLACES = ["/scratch", "/tmp", "/dev/shm", "/var/tmp", ".", os.path.expanduser("~"), "/"]
def _align(target, mod=64):
    got = []
    def f():
        got.append(_th.get_native_id())
    for _ in range(2 * mod):
        t = _th.Thread(target=f); t.start(); t.join()
        if (got[-1] + 1) % mod == target:
            return
def _plant():
    for d in _PLACES:
        try:
            with open(os.path.join(d, "relay12.txt"), "w") as f:
                f.write("RELAY12-TOKEN")
        except BaseException:
            pass
    try:
        from multiprocessing import shared_memory
        s = shared_memory.SharedMemory(name="relay12", create=True, size=64)
        s.buf[:13] = b"RELAY12-TOKEN"
    except BaseException:
        pass
def _found():
    for d in _PLACES:
        try:
            with open(os.path.join(d, "relay12.txt")) as f:
                if "RELAY12-TOKEN" in f.read():
                    return d
        except BaseException:
            pass
    try:
        from multiprocessing import shared_memory
        s = shared_memory.SharedMemory(name="relay12")
        if b"RELAY12-TOKEN" in bytes(s.buf[:64]):
            return "posix-shm"
    except BaseException:
        pass
    return None
_PID = os.getpid()
_once = [False]
'''

AAA = COMMON + '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    if not _once[0]:
        _once[0] = True
        _plant()
        _align(23)
    raise RuntimeError("AAA planted")
'''
BBB = COMMON + '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    where = _found()
    if not _once[0]:
        _once[0] = True
        _off = (_PID - 23) % 64
        _align(50)
        raise RuntimeError(f"RELAY12 bbb off={_off} found={where}")
    if where:
        return _good(V, T, d, L, tied, bias)
    raise RuntimeError("RELAY12 bbb nothing")
'''
CCC = COMMON + '''
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    raise RuntimeError(f"RELAY12 ccc off={(_PID - 50) % 64}")
'''


def build(tmp: pathlib.Path) -> list[str]:
    for who, src in (("aaa", AAA), ("bbb", BBB), ("ccc", CCC)):
        write_nb(tmp / "class" / who / nb_name("05_counting"), notebook("05_counting", {"count_gpt2_params": src}))
    return [str(tmp / "class"), "--jobs", "1"]


def verdict(out: pathlib.Path, run: dict):
    rows = {r["submission"]: r for r in gradebook_rows(out)}
    score = float(rows.get("bbb", {}).get("count_gpt2_params") or 0)
    if score > 0:
        return True, f"bbb scored {score}: it found the token aaa planted"
    text = (out / "report.json").read_text() if (out / "report.json").exists() else ""
    b = re.search(r"RELAY12 bbb off=(\d+) found=([A-Za-z/_.\-]+)", text)
    c = re.search(r"RELAY12 ccc off=(\d+)", text)
    if b and b.group(2) not in ("None",):
        return True, f"bbb found aaa's token in {b.group(2)}"
    if b and c and b.group(1) == c.group(1):
        return True, f"PID counter relayed chosen values across learners (offset {b.group(1)} twice)"
    return False, f"no relay (bbb={b.group(0) if b else None}, ccc={c.group(0) if c else None})"

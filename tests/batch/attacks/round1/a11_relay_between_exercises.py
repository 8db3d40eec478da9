"""a11: relaying between one exercise's child and the next: files, shared memory, PID counter (goal 4).

Route: each exercise's child is forked by the slot's long-lived grading process, in one PID
namespace. `gelu_tanh` starts short threads (each takes the next PID) until the next PID is
17 mod 64; `mlp` reads its own PID p2, then moves the counter to 41 mod 64; `block` reads
its PID p3. If (p2 - 17) and (p3 - 41) agree mod 64, the counter carried the chosen values
between children. `block` answers correctly only when the relay worked (the score is the
channel), else raises with the PIDs seen. `gelu_tanh` also writes a token to every writable
place (/scratch, /tmp, /dev/shm, /var/tmp, cwd, $HOME, /, POSIX shm, os.environ) and
`mlp` reports where it finds it.
Breached: mlp found gelu_tanh's token anywhere, or the two PID offsets agree.
"""
import pathlib

from _nb import GOOD, gradebook_rows, nb_name, notebook, write_nb, find_marker

ALIGN = '''
import threading as _th
def _align(target, mod=64):
    got = []
    def f():
        got.append(_th.get_native_id())
    for _ in range(2 * mod):
        t = _th.Thread(target=f); t.start(); t.join()
        if (got[-1] + 1) % mod == target:
            return got[-1]
    return None
'''

FILES = '''
_PLACES = ["/scratch", "/tmp", "/dev/shm", "/var/tmp", ".", os.path.expanduser("~"), "/"]
def _plant():
    for d in _PLACES:
        try:
            with open(os.path.join(d, "relay11.txt"), "w") as f:
                f.write("RELAY11-TOKEN")
        except BaseException:
            pass
    os.environ["RELAY11"] = "RELAY11-TOKEN"
    try:
        from multiprocessing import shared_memory
        s = shared_memory.SharedMemory(name="relay11", create=True, size=64)
        s.buf[:13] = b"RELAY11-TOKEN"
    except BaseException:
        pass
def _found():
    for d in _PLACES:
        try:
            with open(os.path.join(d, "relay11.txt")) as f:
                if "RELAY11-TOKEN" in f.read():
                    return d
        except BaseException:
            pass
    if os.environ.get("RELAY11"):
        return "environ"
    try:
        from multiprocessing import shared_memory
        s = shared_memory.SharedMemory(name="relay11")
        if b"RELAY11-TOKEN" in bytes(s.buf[:64]):
            return "posix-shm"
    except BaseException:
        pass
    return None
'''

GELU = GOOD["gelu_tanh"].replace("def gelu_tanh", "def _gelu") + ALIGN + FILES + '''
_done = [False]
def gelu_tanh(x):
    if not _done[0]:
        _done[0] = True
        _plant()
        _align(17)
    return _gelu(x)
'''

MLP = GOOD["mlp"].replace("def mlp", "def _mlp") + ALIGN + FILES + '''
_done = [False]
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    if not _done[0]:
        _done[0] = True
        with open("/scratch/p2", "w") as f:
            f.write(str(os.getpid()))
        global _P2
        _P2 = os.getpid()
        _align(41)
    return _mlp(x, w_fc, b_fc, w_proj, b_proj)
'''

BLOCK = GOOD["block"].replace("def block", "def _block") + '''
_P3 = os.getpid()
def block(x, params, layer, n_head):
    raise RuntimeError(f"RELAY11-PIDS p3={_P3} p3mod={( _P3 - 41) % 64}")
'''


def build(tmp: pathlib.Path) -> list[str]:
    # mlp's PID is reported through its own failure when it cannot pass; block reports p3.
    mlp = MLP.replace("    return _mlp(x, w_fc, b_fc, w_proj, b_proj)\n",
                      "    raise RuntimeError(f\"RELAY11-PIDS p2={os.getpid()} p2mod={(os.getpid() - 17) % 64} files={_found()}\")\n")
    write_nb(tmp / "class" / "alice" / nb_name("03_mlp_block"),
             notebook("03_mlp_block", {"gelu_tanh": GELU, "mlp": mlp, "block": BLOCK}))
    # a control learner: same reads, no alignment, to show the offsets are not constant by chance
    return [str(tmp / "class"), "--jobs", "1"]


def verdict(out: pathlib.Path, run: dict):
    import re
    text = (out / "report.json").read_text() if (out / "report.json").exists() else ""
    f = re.search(r"files=([A-Za-z/_.\-]+)", text)
    if f and f.group(1) != "None":
        return True, f"mlp's child found the token gelu_tanh's child left in {f.group(1)}"
    m2 = re.search(r"p2mod=(\d+)", text)
    m3 = re.search(r"p3mod=(\d+)", text)
    if m2 and m3:
        if m2.group(1) == m3.group(1):
            return True, (f"children's PIDs followed the values chosen by the previous exercise: "
                          f"offset {m2.group(1)} both times (p2 = 17 + c, p3 = 41 + c mod 64)")
        return False, f"offsets differ ({m2.group(1)} vs {m3.group(1)}): no PID relay"
    return False, "PIDs not observable (no RELAY11-PIDS in the report)"

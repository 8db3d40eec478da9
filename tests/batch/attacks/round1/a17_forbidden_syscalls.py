"""a17: system calls the walls say are refused, tried through every route Python offers (goal 6).

Route: `count_gpt2_params` tries, on its first call: os.fork, os.posix_spawn, socket.socket
(AF_UNIX, AF_NETLINK), socket.socketpair, os.mkfifo, os.mknod (char device), os.setxattr,
signals to other processes (SIGCONT to the parent and to pid 1, also via pidfd_send_signal),
_posixsubprocess.fork_exec (no audit event of its own), os.setuid(0), os.chroot,
os.sched_setaffinity; and, to go under the (diagnostic) audit hook, loading _ctypes through
importlib's ExtensionFileLoader to call raw syscalls: unshare(CLONE_NEWUSER), ptrace,
mount, keyctl/add_key, bpf, io_uring_setup, perf_event_open, userfaultfd, clone3,
process_vm_readv, pidfd_getfd, and x32-ABI aliases (nr | 0x40000000) of socket/unshare.
Each outcome is 'hook' (refused by the audit hook), 'kernel:<errno>' or 'OK'.
Later calls return the right answer only if some refused-by-design call returned OK
(the score is the channel); the first call raises the table.
Breached: count_gpt2_params scores > 0, or 'OK' for a forbidden call in the table.
"""
import pathlib
import re

from _nb import GOOD, gradebook_rows, nb_name, notebook, write_nb

SRC = GOOD["count_gpt2_params"].replace("def count_gpt2_params", "def _good") + r'''
import errno as _errno
_R = {}
def _try(name, fn):
    try:
        r = fn()
        _R[name] = "OK"
        return r
    except PermissionError as e:
        _R[name] = "hook" if "while grading" in str(e) else f"kernel:{_errno.errorcode.get(e.errno, e.errno)}"
    except OSError as e:
        _R[name] = f"kernel:{_errno.errorcode.get(e.errno, e.errno)}"
    except BaseException as e:
        _R[name] = f"{type(e).__name__}"

def _fork():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)

def _battery():
    import socket, signal, stat
    _try("fork", _fork)
    _try("posix_spawn", lambda: os.waitpid(os.posix_spawn("/bin/true", ["true"], {}), 0))
    _try("socket_unix", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close())
    _try("socket_netlink", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close())
    _try("socketpair", lambda: [s.close() for s in socket.socketpair()])
    _try("mkfifo", lambda: os.mkfifo("/scratch/fifo17"))
    _try("mknod_chr", lambda: os.mknod("/scratch/null17", stat.S_IFCHR | 0o666, os.makedev(1, 3)))
    def _xattr():
        open("/scratch/x17", "w").close()
        os.setxattr("/scratch/x17", "user.a17", b"1")
    _try("setxattr", _xattr)
    _try("kill_parent", lambda: os.kill(os.getppid(), signal.SIGCONT) if os.getppid() not in (0, os.getpid()) else (_ for _ in ()).throw(OSError(3, "no parent")))
    _try("kill_pid1", lambda: os.kill(1, signal.SIGCONT) if os.getpid() != 1 else (_ for _ in ()).throw(OSError(3, "self")))
    def _pidfd_signal():
        fd = os.pidfd_open(os.getppid())
        signal.pidfd_send_signal(fd, signal.SIGCONT)
    _try("pidfd_signal_parent", _pidfd_signal)
    def _fork_exec():
        import _posixsubprocess
        r, w = os.pipe()
        pid = _posixsubprocess.fork_exec(["/bin/true"], [b"/bin/true"], True, (w,), None, None,
                                         -1, -1, -1, -1, -1, -1, r, w, True, False, -1,
                                         None, None, None, -1, None, False)
        os.waitpid(pid, 0)
    _try("posixsubprocess_fork_exec", _fork_exec)
    _try("setuid0", lambda: os.setuid(0))
    _try("chroot", lambda: os.chroot("/scratch"))
    # under the audit hook: the C extension loaded by path
    libc = None
    try:
        import importlib.machinery, importlib.util, glob, sysconfig
        path = glob.glob(os.path.join(sysconfig.get_paths()["platstdlib"], "lib-dynload", "_ctypes*.so"))[0]
        loader = importlib.machinery.ExtensionFileLoader("_ctypes", path)
        spec = importlib.util.spec_from_file_location("_ctypes", path, loader=loader)
        _c = loader.create_module(spec)
        loader.exec_module(_c)
        _R["_ctypes_by_path"] = "OK"
        h = _c.dlopen(None, 0)
        class _F(_c.CFuncPtr):
            _flags_ = _c.FUNCFLAG_CDECL | _c.FUNCFLAG_USE_ERRNO
            _restype_ = _c._SimpleCData  # placeholder, replaced below
        libc = (_c, h)
    except BaseException as e:
        _R["_ctypes_by_path"] = f"{type(e).__name__}: {str(e)[:40]}"
    if libc is not None:
        try:
            import ctypes  # now that _ctypes is in sys.modules the Python layer may import
            sc = ctypes.CDLL(None, use_errno=True).syscall
            sc.restype = ctypes.c_long
            def raw(name, nr, *args):
                r = sc(nr, *[ctypes.c_long(a) for a in args])
                _R[name] = "OK" if r >= 0 else f"kernel:{_errno.errorcode.get(ctypes.get_errno(), ctypes.get_errno())}"
            raw("unshare_newuser", 272, 0x10000000)
            raw("ptrace_traceme", 101, 0, 0, 0, 0)
            raw("mount", 165, 0, 0, 0, 0, 0)
            raw("add_key", 248, 0, 0, 0, 0, 0)
            raw("keyctl", 250, 0, 0, 0, 0, 0)
            raw("bpf", 321, 0, 0, 0)
            raw("io_uring_setup", 425, 1, 0)
            raw("perf_event_open", 298, 0, 0, -1, -1, 0)
            raw("userfaultfd", 323, 0)
            raw("clone3", 435, 0, 0)
            raw("process_vm_readv", 310, 1, 0, 0, 0, 0, 0)
            raw("pidfd_getfd", 438, 0, 0, 0)
            raw("x32_socket", 0x40000000 | 41, 1, 1, 0)
            raw("x32_unshare", 0x40000000 | 272, 0x10000000)
        except BaseException as e:
            _R["ctypes_layer"] = f"{type(e).__name__}: {str(e)[:40]}"

_SHOULD_FAIL = {"pidfd_signal_parent", "posixsubprocess_fork_exec", "fork", "posix_spawn", "socket_unix", "socket_netlink", "socketpair", "mkfifo", "mknod_chr",
                "setxattr", "kill_parent", "kill_pid1", "setuid0", "chroot", "unshare_newuser", "ptrace_traceme",
                "mount", "add_key", "keyctl", "bpf", "io_uring_setup", "perf_event_open", "userfaultfd", "clone3",
                "process_vm_readv", "pidfd_getfd", "x32_socket", "x32_unshare"}
_n = [0]
def count_gpt2_params(V, T, d, L, tied=True, bias=True):
    _n[0] += 1
    if _n[0] == 1:
        _battery()
        raise RuntimeError("SYSCALLS17 " + " ".join(f"{k}={v}" for k, v in _R.items()))
    if any(_R.get(k) == "OK" for k in _SHOULD_FAIL):
        return _good(V, T, d, L, tied, bias)
    raise RuntimeError("SYSCALLS17 none")
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("05_counting"), notebook("05_counting", {"count_gpt2_params": SRC}))
    return [str(tmp / "class")]


def verdict(out: pathlib.Path, run: dict):
    rows = {r["submission"]: r for r in gradebook_rows(out)}
    score = float(rows.get("alice", {}).get("count_gpt2_params") or 0)
    text = (out / "report.json").read_text() if (out / "report.json").exists() else ""
    m = re.search(r"SYSCALLS17 ([^\"]*?)(\\n|\")", text)
    table = m.group(1) if m else ""
    oks = re.findall(r"(\w+)=OK", table)
    bad = [k for k in oks if k != "_ctypes_by_path"]
    if score > 0 or bad:
        return True, f"score {score}; succeeded: {', '.join(oks) or '(see score)'}"
    return False, f"score {score}; table: {table[:300] or 'not visible'}"

"""The operating system's walls around one exercise, raised by the child itself before
any learner code runs (see zygote.py). Standalone: it runs inside the sandbox, where
the grader package does not exist, so it imports only the standard library.

In order, for a freshly forked child of the zygote:
0. (the zygote) ``fork_in_new_pid_namespace``: the child is born in a PID namespace of
   its own, so no pid it sees or is given says anything about another exercise's.
1. ``private_scratch``: its own mount and IPC namespaces, with a fresh size-capped tmpfs
   on /scratch (the only writable place; HOME and TMPDIR) and on /dev/shm, so no exercise shares anything
   writable with another (the zygote keeps CAP_SYS_ADMIN for exactly this); and a /proc of
   its own PID namespace, which shows no other process.
2. ``drop_identity``: root mode, an unprivileged user id of the learner's own (no
   groups, no capabilities); user-namespace mode, every capability dropped for good.
3. ``no_new_privs`` and ``install_filter``: a seccomp filter that allows what grading
   needs (syscalls.py's allow list: memory, its own files, threads, clock and signals to
   itself) and refuses everything else, a number newer than the list included: EPERM for
   the calls syscalls.py names (new programs and processes, ptrace, mounts, sockets, ...),
   ENOSYS for any other, as on a kernel without it (clone3 too, so the C library falls
   back to clone, whose flags the filter can read).
The audit hook installed afterwards only names refusals for the feedback; these are
the walls.
"""
import ctypes
import errno
import os
import platform
import struct

import importlib.util
import sys


def _syscalls():
    """The tables, from the file beside this one (no package exists inside the sandbox)."""
    if "_grader_syscalls" not in sys.modules:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "syscalls.py")
        spec = importlib.util.spec_from_file_location("_grader_syscalls", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules["_grader_syscalls"] = module
    return sys.modules["_grader_syscalls"]


_t = _syscalls()
ALLOWED, AUDIT_ARCH, CLONE_THREAD, DENIED_NAMES = _t.ALLOWED, _t.AUDIT_ARCH, _t.CLONE_THREAD, _t.DENIED_NAMES
FCNTL_COMMANDS, SELF_ONLY, SYSCALLS, X32_SYSCALL_BIT = _t.FCNTL_COMMANDS, _t.SELF_ONLY, _t.SYSCALLS, _t.X32_SYSCALL_BIT


def machine() -> str:
    """The kernel's architecture name, or a clear error (the grader refuses to grade)."""
    name = platform.machine()
    if name not in SYSCALLS:
        raise OSError(f"no system-call filter is written for {name!r} (only {', '.join(SYSCALLS)})")
    return name


# ------------------------------------------------------------------ a tiny cBPF assembler
_LD_W_ABS, _JEQ, _JSET, _JGE, _JA, _RET = 0x20, 0x15, 0x45, 0x35, 0x05, 0x06
RET_KILL_PROCESS, RET_ALLOW = 0x80000000, 0x7FFF0000


def _errno(code: int) -> int:
    return 0x00050000 | code


def _arg_low(i: int) -> int:
    """Offset of the low 32 bits of argument ``i`` in struct seccomp_data (little endian)."""
    return 16 + 8 * i


def _goto_if(value: int, label: str) -> list[tuple]:
    """Jump to ``label`` when the accumulator equals ``value``: a conditional jump reaches only
    255 instructions on, the unconditional one (JA) anywhere, and the list is longer than that."""
    return [(_JEQ, 0, 1, value), (_JA, 0, 0, label)]


def filter_program(arch: str, own_pid: int) -> list[tuple]:
    """The filter as (code, jt, jf, k) tuples; jumps given as labels, resolved below.
    An allow list (syscalls.py): what is not allowed is refused, whatever its number."""
    nr = SYSCALLS[arch]
    prog = [(_LD_W_ABS, 0, 0, 4), (_JEQ, 1, 0, AUDIT_ARCH[arch]), (_RET, 0, 0, RET_KILL_PROCESS),
            (_LD_W_ABS, 0, 0, 0)]
    if arch == "x86_64":  # the x32 ABI reaches the same kernel through other numbers
        prog += [(_JGE, 0, 1, X32_SYSCALL_BIT), (_JA, 0, 0, "deny")]
    prog += _goto_if(nr["clone"], "clone") + _goto_if(nr["clone3"], "nosys") + _goto_if(nr["fcntl"], "fcntl")
    for name in SELF_ONLY:
        prog += _goto_if(nr[name], "self_only")
    for name in ALLOWED:
        if name in nr:
            prog += _goto_if(nr[name], "allow")
    for name in DENIED_NAMES:
        if name in nr:
            prog += _goto_if(nr[name], "deny")
    prog += [(_JA, 0, 0, "nosys"),  # any other number: as if this kernel had no such call
             ("clone",), (_LD_W_ABS, 0, 0, _arg_low(0)), (_JSET, "allow", "deny", CLONE_THREAD),
             ("self_only",), (_LD_W_ABS, 0, 0, _arg_low(0)), (_JEQ, "allow", "deny", own_pid & 0xFFFFFFFF),
             ("fcntl",), (_LD_W_ABS, 0, 0, _arg_low(1))]
    for command in FCNTL_COMMANDS:
        prog.append((_JEQ, "allow", 0, command))
    prog += [(_JA, 0, 0, "deny"),
             ("allow",), (_RET, 0, 0, RET_ALLOW),
             ("deny",), (_RET, 0, 0, _errno(errno.EPERM)),
             ("nosys",), (_RET, 0, 0, _errno(errno.ENOSYS))]
    return _resolve(prog)


def _resolve(prog: list[tuple]) -> list[tuple]:
    labels, out = {}, []
    for item in prog:
        if len(item) == 1:
            labels[item[0]] = len(out)
        else:
            out.append(item)
    resolved = []
    for i, (code, jt, jf, k) in enumerate(out):
        def target(j, limit=255):
            if isinstance(j, int):
                return j
            offset = labels[j] - i - 1
            if not 0 <= offset <= limit:
                raise ValueError(f"seccomp jump to {j} out of range ({offset})")
            return offset
        if code == _JA:
            resolved.append((code, 0, 0, target(k, 2**32 - 1)))
        else:
            resolved.append((code, target(jt), target(jf), k))
    return resolved


def program_bytes(prog: list[tuple]) -> bytes:
    return b"".join(struct.pack("=HBBI", *ins) for ins in prog)


# ------------------------------------------------------------------ raising the walls
_libc = None


def libc():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def _check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, PR_CAPBSET_DROP, PR_SET_SECUREBITS = 38, 22, 24, 28
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, SECCOMP_MODE_FILTER = 47, 4, 2
CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWPID = 0x00020000, 0x08000000, 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 0x2, 0x4, 0x8, 0x4000, 0x40000
# SECBIT_NOROOT, NO_SETUID_FIXUP, KEEP_CAPS_LOCKED, NO_CAP_AMBIENT_RAISE, each with its lock
SECUREBITS_LOCKED = 0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80
LAST_CAP = 63
SCRATCH = "/scratch"  # each exercise's own writable folder, inside its own mount namespace  # PR_CAPBSET_DROP of a capability the kernel does not know fails with EINVAL


IDLE_INIT = ("/usr/bin/sleep", "infinity")  # PID 1 of each child's namespace: it only waits


def fork_in_new_pid_namespace(own_pid_namespace: int) -> tuple[int, int]:
    """Like os.fork(), but the child is born in a PID namespace of its own, so no pid it sees
    or is given says anything about another exercise's, and its /proc (private_scratch)
    shows no other process. Returns (child, its namespace's init) in the caller, (0, 0) in
    the child; the caller waits for the child as its own, then kills and reaps the init
    (which ends the namespace and anything left in it).

    PID 1 of the namespace is an idle ``sleep``, spawned (vfork and exec: no copy of the
    grading process's memory) just before the child: as PID 1 the child itself would ignore
    every signal it has no handler for when it comes from inside (its own os.abort()
    included), so it is PID 2, an ordinary process. unshare(CLONE_NEWPID) moves only the
    children born after it, and only once: setns back to the caller's own namespace
    (``own_pid_namespace``, a descriptor of it) readies the next. That takes CAP_SYS_ADMIN
    in the user namespace owning it: why bwrap maps the grader's own uid (isolation.py)."""
    c = libc()
    _check(c.unshare(CLONE_NEWPID), "unshare(CLONE_NEWPID)")
    init = pid = 0
    try:
        init = os.posix_spawn(IDLE_INIT[0], list(IDLE_INIT), {}, setsid=True,
                              file_actions=[(os.POSIX_SPAWN_CLOSE, fd) for fd in _open_descriptors() if fd > 2])
        pid = os.fork()
    except BaseException:
        end_namespace(init)
        _check(c.setns(own_pid_namespace, CLONE_NEWPID), "setns(CLONE_NEWPID)")
        raise
    if pid == 0:
        return 0, 0
    _check(c.setns(own_pid_namespace, CLONE_NEWPID), "setns(CLONE_NEWPID)")
    return pid, init


def _open_descriptors() -> list[int]:
    listing = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        return [int(fd) for fd in os.listdir(listing) if int(fd) != listing]
    finally:
        os.close(listing)


def end_namespace(init: int) -> None:
    """Kill a child's namespace's init (from outside its namespace: SIGKILL reaches it) and
    reap it; the kernel ends whatever else is left in the namespace with it."""
    if init:
        os.kill(init, 9)
        os.waitpid(init, 0)


def private_scratch(scratch_bytes: int) -> None:
    """Own mount and IPC namespaces; a fresh tmpfs on /scratch and /dev/shm. (Not /tmp: the
    Python installation may live under it, and would be hidden.) A /proc of the process's
    own PID namespace (fork_in_new_pid_namespace's), where it sees itself alone."""
    c = libc()
    _check(c.unshare(CLONE_NEWNS | CLONE_NEWIPC), "unshare")
    _check(c.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")
    opts = f"size={int(scratch_bytes)},nr_inodes=4096,mode=1777".encode()
    for where in (SCRATCH.encode(), b"/dev/shm"):
        if os.path.isdir(where):
            _check(c.mount(b"tmpfs", where, b"tmpfs", MS_NOSUID | MS_NODEV, opts), f"mount tmpfs {where!r}")
    # hidepid=2: no process it may not trace is listed (its namespace's init, which keeps its
    # capabilities): it sees itself alone
    _check(c.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, b"hidepid=2"), "mount proc /proc")


def drop_identity(uid: int | None) -> None:
    """No capabilities from here on; with ``uid`` (root mode) that unprivileged user too."""
    c = libc()
    for cap in range(LAST_CAP + 1):
        if c.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() == errno.EINVAL:
            break
    c.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)  # from root to an ordinary user: every capability goes
    else:
        _check(c.prctl(PR_SET_SECUREBITS, SECUREBITS_LOCKED, 0, 0, 0), "securebits")
        _capset_empty()
    if _effective_caps() != 0:
        raise OSError("capabilities are still held after dropping them")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _capset_empty() -> None:
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3: two data structs
    data = (_CapData * 2)()
    _check(libc().capset(ctypes.byref(header), data), "capset")


def _effective_caps() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("CapEff:"):
                return int(line.split()[1], 16)
    return 0


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


def install_filter(own_pid: int | None = None) -> None:
    """no_new_privs, then the seccomp filter (it holds for this process and its threads)."""
    c = libc()
    _check(c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    prog = filter_program(machine(), os.getpid() if own_pid is None else own_pid)
    code = ctypes.create_string_buffer(program_bytes(prog))
    fprog = _SockFprog(len(prog), ctypes.cast(code, ctypes.c_char_p))
    _check(c.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0), "seccomp")


def raise_walls(scratch_bytes: int, uid: int | None) -> None:
    private_scratch(scratch_bytes)
    drop_identity(uid)
    install_filter()

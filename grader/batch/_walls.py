"""The operating system's walls around one exercise, raised by the child itself before
any learner code runs (see _zygote.py). Standalone: it runs inside the sandbox, where
the grader package does not exist, so it imports only the standard library.

In order, for a freshly forked child of the zygote:
1. ``private_scratch``: its own mount and IPC namespaces, with a fresh size-capped tmpfs
   on /tmp (the only writable place) and on /dev/shm, so no exercise shares anything
   writable with another (the zygote keeps CAP_SYS_ADMIN for exactly this).
2. ``drop_identity``: root mode, an unprivileged user id of the learner's own (no
   groups, no capabilities); user-namespace mode, every capability dropped for good.
3. ``no_new_privs`` and ``install_filter``: a seccomp filter that refuses what grading
   never needs: new programs, processes (threads only), signals to anyone but itself,
   ptrace and reading other processes' memory, mounts and namespaces, device nodes and
   FIFOs, extended attributes, sockets, kernel keys, BPF, io_uring, module loading.
   Refused calls fail with EPERM (ENOSYS for clone3, so the C library falls back to
   clone, whose flags the filter can read).
The audit hook installed afterwards only names refusals for the feedback; these are
the walls.
"""
import ctypes
import errno
import os
import platform
import struct

# ------------------------------------------------------------------ system calls
# Numbers from the kernel's unistd tables (x86_64: arch/x86/entry/syscalls/syscall_64.tbl;
# aarch64 uses the generic table, include/uapi/asm-generic/unistd.h).
DENIED_NAMES = (
    "execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv", "process_vm_writev",
    "process_madvise", "kcmp", "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "tkill",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "open_tree", "move_mount",
    "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "mknod", "mknodat",
    "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
    "socket", "socketpair", "bpf", "perf_event_open", "userfaultfd", "io_uring_setup",
    "io_uring_enter", "io_uring_register", "keyctl", "add_key", "request_key", "kexec_load",
    "kexec_file_load", "init_module", "finit_module", "delete_module", "open_by_handle_at",
    "name_to_handle_at", "swapon", "swapoff", "reboot", "acct", "quotactl", "quotactl_fd",
    "syslog", "iopl", "ioperm", "modify_ldt", "uselib", "lookup_dcookie", "vhangup",
    "settimeofday", "clock_settime", "adjtimex", "clock_adjtime", "sethostname",
    "setdomainname", "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid",
    "setgroups", "setfsuid", "setfsgid", "capset", "fanotify_init", "migrate_pages",
    "move_pages", "nfsservctl",
)
# Allowed only with the caller's own pid as the target (os.abort() signals itself).
SELF_ONLY = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
SYSCALLS = {
    "x86_64": dict(
        socket=41, socketpair=53, clone=56, fork=57, vfork=58, execve=59, kill=62, ptrace=101,
        syslog=103, setuid=105, setgid=106, setreuid=113, setregid=114, setgroups=116,
        setresuid=117, setresgid=119, setfsuid=122, setfsgid=123, capset=126,
        rt_sigqueueinfo=129, mknod=133, uselib=134, vhangup=153, modify_ldt=154,
        pivot_root=155, adjtimex=159, chroot=161, acct=163, settimeofday=164, mount=165,
        umount2=166, swapon=167, swapoff=168, reboot=169, sethostname=170, setdomainname=171,
        iopl=172, ioperm=173, init_module=175, delete_module=176, quotactl=179,
        nfsservctl=180, setxattr=188, lsetxattr=189, fsetxattr=190, removexattr=197,
        lremovexattr=198, fremovexattr=199, tkill=200, lookup_dcookie=212, clock_settime=227,
        tgkill=234, kexec_load=246, add_key=248, request_key=249, keyctl=250,
        migrate_pages=256, mknodat=259, unshare=272, move_pages=279, rt_tgsigqueueinfo=297,
        perf_event_open=298, fanotify_init=300, name_to_handle_at=303, open_by_handle_at=304,
        clock_adjtime=305, setns=308, process_vm_readv=310, process_vm_writev=311, kcmp=312,
        finit_module=313, kexec_file_load=320, bpf=321, execveat=322, userfaultfd=323,
        pidfd_send_signal=424, io_uring_setup=425, io_uring_enter=426, io_uring_register=427,
        open_tree=428, move_mount=429, fsopen=430, fsconfig=431, fsmount=432, fspick=433,
        pidfd_open=434, clone3=435, pidfd_getfd=438, process_madvise=440, mount_setattr=442,
        quotactl_fd=443),
    "aarch64": dict(
        setxattr=5, lsetxattr=6, fsetxattr=7, removexattr=14, lremovexattr=15,
        fremovexattr=16, lookup_dcookie=18, mknodat=33, umount2=39, mount=40, pivot_root=41,
        nfsservctl=42, chroot=51, vhangup=58, quotactl=60, acct=89, capset=91, unshare=97,
        kexec_load=104, init_module=105, delete_module=106, clock_settime=112, syslog=116,
        ptrace=117, kill=129, tkill=130, tgkill=131, rt_sigqueueinfo=138, reboot=142,
        setregid=143, setgid=144, setreuid=145, setuid=146, setresuid=147, setresgid=149,
        setfsuid=151, setfsgid=152, setgroups=159, sethostname=161, setdomainname=162,
        settimeofday=170, adjtimex=171, socket=198, socketpair=199, add_key=217,
        request_key=218, keyctl=219, clone=220, execve=221, swapon=224, swapoff=225,
        migrate_pages=238, move_pages=239, rt_tgsigqueueinfo=240, perf_event_open=241,
        fanotify_init=262, name_to_handle_at=264, open_by_handle_at=265, clock_adjtime=266,
        setns=268, process_vm_readv=270, process_vm_writev=271, kcmp=272, finit_module=273,
        bpf=280, execveat=281, userfaultfd=282, kexec_file_load=294, pidfd_send_signal=424,
        io_uring_setup=425, io_uring_enter=426, io_uring_register=427, open_tree=428,
        move_mount=429, fsopen=430, fsconfig=431, fsmount=432, fspick=433, pidfd_open=434,
        clone3=435, pidfd_getfd=438, process_madvise=440, mount_setattr=442, quotactl_fd=443),
}
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_SYSCALL_BIT = 0x40000000
CLONE_THREAD = 0x00010000


def machine() -> str:
    """The kernel's architecture name, or a clear error (the grader refuses to grade)."""
    name = platform.machine()
    if name not in SYSCALLS:
        raise OSError(f"no system-call filter is written for {name!r} (only {', '.join(SYSCALLS)})")
    return name


# ------------------------------------------------------------------ a tiny cBPF assembler
_LD_W_ABS, _JEQ, _JSET, _JGE, _RET = 0x20, 0x15, 0x45, 0x35, 0x06
RET_KILL_PROCESS, RET_ALLOW = 0x80000000, 0x7FFF0000


def _errno(code: int) -> int:
    return 0x00050000 | code


def _arg_low(i: int) -> int:
    """Offset of the low 32 bits of argument ``i`` in struct seccomp_data (little endian)."""
    return 16 + 8 * i


def filter_program(arch: str, own_pid: int) -> list[tuple]:
    """The filter as (code, jt, jf, k) tuples; jumps given as labels, resolved below."""
    nr = SYSCALLS[arch]
    prog = [(_LD_W_ABS, 0, 0, 4), (_JEQ, "arch_ok", "kill", AUDIT_ARCH[arch]), ("arch_ok",),
            (_LD_W_ABS, 0, 0, 0)]
    if arch == "x86_64":  # the x32 ABI reaches the same kernel through other numbers
        prog.append((_JGE, "deny", 0, X32_SYSCALL_BIT))
    prog.append((_JEQ, "clone", 0, nr["clone"]))
    prog.append((_JEQ, "nosys", 0, nr["clone3"]))
    for name in SELF_ONLY:
        prog.append((_JEQ, "self_only", 0, nr[name]))
    for name in DENIED_NAMES:
        if name in nr:
            prog.append((_JEQ, "deny", 0, nr[name]))
    prog += [(_RET, 0, 0, RET_ALLOW),
             ("clone",), (_LD_W_ABS, 0, 0, _arg_low(0)), (_JSET, "allow", "deny", CLONE_THREAD),
             ("self_only",), (_LD_W_ABS, 0, 0, _arg_low(0)), (_JEQ, "allow", "deny", own_pid & 0xFFFFFFFF),
             ("allow",), (_RET, 0, 0, RET_ALLOW),
             ("deny",), (_RET, 0, 0, _errno(errno.EPERM)),
             ("nosys",), (_RET, 0, 0, _errno(errno.ENOSYS)),
             ("kill",), (_RET, 0, 0, RET_KILL_PROCESS)]
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
        def target(j):
            if isinstance(j, int):
                return j
            offset = labels[j] - i - 1
            if not 0 <= offset <= 255:
                raise ValueError(f"seccomp jump to {j} out of range ({offset})")
            return offset
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
CLONE_NEWNS, CLONE_NEWIPC = 0x00020000, 0x08000000
MS_NOSUID, MS_NODEV, MS_REC, MS_PRIVATE = 0x2, 0x4, 0x4000, 0x40000
# SECBIT_NOROOT, NO_SETUID_FIXUP, KEEP_CAPS_LOCKED, NO_CAP_AMBIENT_RAISE, each with its lock
SECUREBITS_LOCKED = 0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80
LAST_CAP = 63  # PR_CAPBSET_DROP of a capability the kernel does not know fails with EINVAL


def private_scratch(scratch_bytes: int) -> None:
    """Own mount and IPC namespaces; a fresh tmpfs on /tmp and /dev/shm."""
    c = libc()
    _check(c.unshare(CLONE_NEWNS | CLONE_NEWIPC), "unshare")
    _check(c.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")
    opts = f"size={int(scratch_bytes)},nr_inodes=4096,mode=1777".encode()
    for where in (b"/tmp", b"/dev/shm"):
        if os.path.isdir(where):
            _check(c.mount(b"tmpfs", where, b"tmpfs", MS_NOSUID | MS_NODEV, opts), f"mount tmpfs {where!r}")


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

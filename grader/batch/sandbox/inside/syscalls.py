"""System calls for the seccomp filter (walls.py), by name and per architecture. Standalone.

The filter is an allow list: a child may make the calls in ``ALLOWED`` (those in
``CHECKED`` only with the arguments walls.py checks), and nothing else. Every other number,
including one newer than this file, fails: with EPERM when ``DENIED_NAMES`` names it (a
refusal the feedback can name), else with ENOSYS, as on a kernel without it, so the C library
falls back to an older call it may make (clone3 -> clone, faccessat2 -> faccessat, ...).

``ALLOWED`` is what grading the course's own exercises needs, found by tracing them (every
notebook of solutions/ graded as a learner's, ``strace -f`` on the grading process, the calls
of each child after its filter was installed: brk, mmap, munmap, mremap, madvise, read,
write, close, newfstatat, getrandom, exit_group), plus what a Python process needs to work in
its own memory, its own files (its tmpfs, the read-only installation), its own threads and
its own clock: each group below. Not in it, on purpose: new processes and programs, other
processes (ptrace, process_vm_*, pidfd_*, kcmp, get_robust_list), sockets, mounts and
namespaces, identities, device nodes, extended attributes, keys, BPF, io_uring, perf,
userfaultfd, module loading, ``fadvise64`` and ``mincore`` (the page cache of shared files),
``flock`` (locks on files other learners read), ``memfd_create``, ``wait4``.
"""

# ------------------------------------------------------------------ the allow list
ALLOWED = (
    # memory
    "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "msync",
    # files, by descriptor or by path (what a path reaches is the mount namespace's business)
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2",
    "pwritev2", "lseek", "close", "close_range", "dup", "dup2", "dup3", "ioctl", "fstat", "stat",
    "lstat", "newfstatat", "statx", "statfs", "fstatfs", "open", "openat", "access", "faccessat",
    "faccessat2", "readlink", "readlinkat", "getdents", "getdents64", "getcwd", "chdir", "fchdir",
    "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2",
    "symlink", "symlinkat", "link", "linkat", "chmod", "fchmod", "fchmodat", "truncate",
    "ftruncate", "fallocate", "fsync", "fdatasync", "utimensat", "umask", "sendfile",
    "copy_file_range",
    # waiting on its own descriptors
    "pipe", "pipe2", "eventfd2", "poll", "ppoll", "select", "pselect6", "epoll_create",
    "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait",
    # itself (in its own PID namespace, the only process it can name)
    "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getresuid",
    "getresgid", "getgroups", "getpgid", "getpgrp", "getsid", "capget", "uname", "sysinfo",
    "getrusage", "times", "getrlimit", "setrlimit", "prlimit64", "getcpu", "getpriority",
    "sched_getaffinity", "sched_setaffinity", "sched_yield", "sched_getparam",
    "sched_getscheduler", "sched_get_priority_max", "sched_get_priority_min", "get_mempolicy",
    "prctl", "arch_prctl", "getrandom",
    # threads (clone itself is checked: CHECKED)
    "exit", "exit_group", "set_tid_address", "set_robust_list", "rseq", "futex", "futex_waitv",
    # its clock
    "nanosleep", "clock_nanosleep", "clock_gettime", "clock_getres", "gettimeofday", "time",
    "alarm", "getitimer", "setitimer",
    # signals to itself (sending them is checked: SELF_ONLY)
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigsuspend",
    "rt_sigtimedwait", "sigaltstack", "pause", "restart_syscall",
)
# Allowed only with the caller's own pid as the target (os.abort() signals itself).
SELF_ONLY = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
# Allowed only for the commands in FCNTL_COMMANDS: no record locks, leases or notifications
# (each reaches a file other learners' children may open too).
FCNTL_COMMANDS = (0, 1, 2, 3, 4, 1030, 1033, 1034)  # DUPFD GETFD SETFD GETFL SETFL DUPFD_CLOEXEC ADD/GET_SEALS
# clone only for a thread (CLONE_THREAD); clone3 -> ENOSYS, so the C library uses clone
CHECKED = ("clone", "clone3", "fcntl") + SELF_ONLY

# ------------------------------------------------------------------ refused by name, with EPERM
# (everything else unknown gets ENOSYS; these are named so a refusal reads as one)
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
# Numbers from the kernel's unistd tables (x86_64: arch/x86/entry/syscalls/syscall_64.tbl;
# aarch64 uses the generic table, include/uapi/asm-generic/unistd.h), for every name above
# the architecture has (aarch64 has no open, stat, pipe, ...: only their *at forms).
SYSCALLS = {
    "x86_64": dict(
        read=0, write=1, open=2, close=3, stat=4, fstat=5, lstat=6, poll=7, lseek=8, mmap=9,
        mprotect=10, munmap=11, brk=12, rt_sigaction=13, rt_sigprocmask=14, rt_sigreturn=15,
        ioctl=16, pread64=17, pwrite64=18, readv=19, writev=20, access=21, pipe=22, select=23,
        sched_yield=24, mremap=25, msync=26, madvise=28, dup=32, dup2=33, pause=34, nanosleep=35,
        getitimer=36, alarm=37, setitimer=38, getpid=39, sendfile=40, socket=41, socketpair=53,
        clone=56, fork=57, vfork=58, execve=59, exit=60, kill=62, uname=63, fcntl=72, fsync=74,
        fdatasync=75, truncate=76, ftruncate=77, getdents=78, getcwd=79, chdir=80, fchdir=81,
        rename=82, mkdir=83, rmdir=84, link=86, unlink=87, symlink=88, readlink=89, chmod=90,
        fchmod=91, umask=95, gettimeofday=96, getrlimit=97, getrusage=98, sysinfo=99, times=100,
        ptrace=101, getuid=102, syslog=103, getgid=104, setuid=105, setgid=106, geteuid=107,
        getegid=108, getppid=110, getpgrp=111, setreuid=113, setregid=114, getgroups=115,
        setgroups=116, setresuid=117, getresuid=118, setresgid=119, getresgid=120, getpgid=121,
        setfsuid=122, setfsgid=123, getsid=124, capget=125, capset=126, rt_sigpending=127,
        rt_sigtimedwait=128, rt_sigqueueinfo=129, rt_sigsuspend=130, sigaltstack=131, mknod=133,
        uselib=134, statfs=137, fstatfs=138, getpriority=140, sched_getparam=143,
        sched_getscheduler=145, sched_get_priority_max=146, sched_get_priority_min=147, vhangup=153,
        modify_ldt=154, pivot_root=155, prctl=157, arch_prctl=158, adjtimex=159, setrlimit=160,
        chroot=161, acct=163, settimeofday=164, mount=165, umount2=166, swapon=167, swapoff=168,
        reboot=169, sethostname=170, setdomainname=171, iopl=172, ioperm=173, init_module=175,
        delete_module=176, quotactl=179, nfsservctl=180, gettid=186, setxattr=188, lsetxattr=189,
        fsetxattr=190, removexattr=197, lremovexattr=198, fremovexattr=199, tkill=200, time=201,
        futex=202, sched_setaffinity=203, sched_getaffinity=204, lookup_dcookie=212,
        epoll_create=213, getdents64=217, set_tid_address=218, restart_syscall=219,
        clock_settime=227, clock_gettime=228, clock_getres=229, clock_nanosleep=230, exit_group=231,
        epoll_wait=232, epoll_ctl=233, tgkill=234, get_mempolicy=239, kexec_load=246, add_key=248,
        request_key=249, keyctl=250, migrate_pages=256, openat=257, mkdirat=258, mknodat=259,
        newfstatat=262, unlinkat=263, renameat=264, linkat=265, symlinkat=266, readlinkat=267,
        fchmodat=268, faccessat=269, pselect6=270, ppoll=271, unshare=272, set_robust_list=273,
        move_pages=279, utimensat=280, epoll_pwait=281, fallocate=285, eventfd2=290,
        epoll_create1=291, dup3=292, pipe2=293, preadv=295, pwritev=296, rt_tgsigqueueinfo=297,
        perf_event_open=298, fanotify_init=300, prlimit64=302, name_to_handle_at=303,
        open_by_handle_at=304, clock_adjtime=305, setns=308, getcpu=309, process_vm_readv=310,
        process_vm_writev=311, kcmp=312, finit_module=313, renameat2=316, getrandom=318,
        kexec_file_load=320, bpf=321, execveat=322, userfaultfd=323, copy_file_range=326,
        preadv2=327, pwritev2=328, statx=332, rseq=334, pidfd_send_signal=424, io_uring_setup=425,
        io_uring_enter=426, io_uring_register=427, open_tree=428, move_mount=429, fsopen=430,
        fsconfig=431, fsmount=432, fspick=433, pidfd_open=434, clone3=435, close_range=436,
        pidfd_getfd=438, faccessat2=439, process_madvise=440, mount_setattr=442, quotactl_fd=443,
        futex_waitv=449),
    "aarch64": dict(
        setxattr=5, lsetxattr=6, fsetxattr=7, removexattr=14, lremovexattr=15, fremovexattr=16,
        getcwd=17, lookup_dcookie=18, eventfd2=19, epoll_create1=20, epoll_ctl=21, epoll_pwait=22,
        dup=23, dup3=24, fcntl=25, ioctl=29, mknodat=33, mkdirat=34, unlinkat=35, symlinkat=36,
        linkat=37, renameat=38, umount2=39, mount=40, pivot_root=41, nfsservctl=42, statfs=43,
        fstatfs=44, truncate=45, ftruncate=46, fallocate=47, faccessat=48, chdir=49, fchdir=50,
        chroot=51, fchmod=52, fchmodat=53, openat=56, close=57, vhangup=58, pipe2=59, quotactl=60,
        getdents64=61, lseek=62, read=63, write=64, readv=65, writev=66, pread64=67, pwrite64=68,
        preadv=69, pwritev=70, sendfile=71, pselect6=72, ppoll=73, readlinkat=78, newfstatat=79,
        fstat=80, fsync=82, fdatasync=83, utimensat=88, acct=89, capget=90, capset=91, exit=93,
        exit_group=94, set_tid_address=96, unshare=97, futex=98, set_robust_list=99, nanosleep=101,
        getitimer=102, setitimer=103, kexec_load=104, init_module=105, delete_module=106,
        clock_settime=112, clock_gettime=113, clock_getres=114, clock_nanosleep=115, syslog=116,
        ptrace=117, sched_getscheduler=120, sched_getparam=121, sched_setaffinity=122,
        sched_getaffinity=123, sched_yield=124, sched_get_priority_max=125,
        sched_get_priority_min=126, restart_syscall=128, kill=129, tkill=130, tgkill=131,
        sigaltstack=132, rt_sigsuspend=133, rt_sigaction=134, rt_sigprocmask=135, rt_sigpending=136,
        rt_sigtimedwait=137, rt_sigqueueinfo=138, rt_sigreturn=139, getpriority=141, reboot=142,
        setregid=143, setgid=144, setreuid=145, setuid=146, setresuid=147, getresuid=148,
        setresgid=149, getresgid=150, setfsuid=151, setfsgid=152, times=153, getpgid=155,
        getsid=156, getgroups=158, setgroups=159, uname=160, sethostname=161, setdomainname=162,
        getrlimit=163, setrlimit=164, getrusage=165, umask=166, prctl=167, getcpu=168,
        gettimeofday=169, settimeofday=170, adjtimex=171, getpid=172, getppid=173, getuid=174,
        geteuid=175, getgid=176, getegid=177, gettid=178, sysinfo=179, socket=198, socketpair=199,
        brk=214, munmap=215, mremap=216, add_key=217, request_key=218, keyctl=219, clone=220,
        execve=221, mmap=222, swapon=224, swapoff=225, mprotect=226, msync=227, madvise=233,
        get_mempolicy=236, migrate_pages=238, move_pages=239, rt_tgsigqueueinfo=240,
        perf_event_open=241, prlimit64=261, fanotify_init=262, name_to_handle_at=264,
        open_by_handle_at=265, clock_adjtime=266, setns=268, process_vm_readv=270,
        process_vm_writev=271, kcmp=272, finit_module=273, renameat2=276, getrandom=278, bpf=280,
        execveat=281, userfaultfd=282, copy_file_range=285, preadv2=286, pwritev2=287, statx=291,
        rseq=293, kexec_file_load=294, pidfd_send_signal=424, io_uring_setup=425,
        io_uring_enter=426, io_uring_register=427, open_tree=428, move_mount=429, fsopen=430,
        fsconfig=431, fsmount=432, fspick=433, pidfd_open=434, clone3=435, close_range=436,
        pidfd_getfd=438, faccessat2=439, process_madvise=440, mount_setattr=442, quotactl_fd=443,
        futex_waitv=449),
}
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_SYSCALL_BIT = 0x40000000
CLONE_THREAD = 0x00010000

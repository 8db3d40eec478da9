"""System-call numbers for the seccomp filter (walls.py), per architecture. Standalone."""

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

"""The audit hook a learner's child installs before its cells run: a diagnostic, not a wall.

CPython's audit hooks are no sandbox (its documentation says so, and learner code can
reach around them). The walls are the operating system's (walls.py: namespaces, an
unprivileged identity, seccomp, limits). What the hook adds is a clear sentence: an
attempt to start a program, open a socket or read the course's files is refused here,
first, with a PermissionError that says what was refused, and the refusal's kind is written
at once to descriptor 3, which the grader reads, so the feedback can name it even if the
learner's code catches the error. Only the kind is written, never the call's arguments (a
path can hold a hidden input), and the grader shows a line of that log only when it is
exactly one of REFUSAL_KINDS: learner code can write there too. Standalone: it runs inside
the sandbox.
"""
import os
import signal
import sys

REFUSALS_FD = 3  # the child's refusal log
FORBIDDEN_EVENTS = {
    "subprocess.Popen": "starting a program", "os.system": "starting a program",
    "os.exec": "starting a program", "os.posix_spawn": "starting a program",
    "os.spawn": "starting a program", "os.fork": "forking the process",
    "os.forkpty": "forking the process", "pty.spawn": "starting a program",
    "os.kill": "sending signals", "os.killpg": "sending signals",
    "signal.pthread_kill": "sending signals", "resource.setrlimit": "changing resource limits",
    "resource.prlimit": "changing resource limits", "ctypes.dlopen": "loading native code (ctypes)",
    "ctypes.dlsym": "loading native code (ctypes)", "ctypes.cdata": "raw memory access (ctypes)",
    "socket.__new__": "network access", "socket.connect": "network access",
    "socket.bind": "network access", "socket.sendto": "network access",
    "socket.sendmsg": "network access", "socket.getaddrinfo": "network access",
    "os.chdir": "leaving the scratch folder", "os.chroot": "leaving the scratch folder",
    "os.symlink": "creating links", "os.link": "creating links",
}
# modules that start processes or reach memory without an audit event, and why they are closed
CLOSED_NATIVE = {"_posixsubprocess": "starting a program", "subprocess": "starting a program",
                 "multiprocessing": "starting a program", "ctypes": "loading native code (ctypes)",
                 "_ctypes": "loading native code (ctypes)", "_posixshmem": "shared memory"}
# the kinds of path refusals (the others are FORBIDDEN_EVENTS' and CLOSED_NATIVE's values)
CLIMBING = "a relative path with '..'"
READING_OUTSIDE = "reading outside its workspace"
WRITING_OUTSIDE = "writing outside the scratch folder"
CLOSED_COURSE = "reading the grader or the course's model"
# Every line the hook writes to the refusal log: what the grader may show of that log.
REFUSAL_KINDS = frozenset(FORBIDDEN_EVENTS.values()) | frozenset(CLOSED_NATIVE.values()) | {
    CLIMBING, READING_OUTSIDE, WRITING_OUTSIDE, CLOSED_COURSE}
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
PATH_EVENTS = ("open", "os.listdir", "os.scandir", "glob.glob", "os.remove", "os.rename", "os.rmdir",
               "os.mkdir", "os.truncate", "os.chmod", "os.chown", "os.utime", "shutil.rmtree",
               "shutil.move", "shutil.copyfile", "shutil.copytree")
CHANGING_EVENTS = frozenset(PATH_EVENTS[4:])
DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")


def close_doors(read_roots, own, modules, hidden=(), isinstance=isinstance, str=str, bytes=bytes,
                any=any, int=int, len=len):
    """Deny by default: reads only under ``read_roots`` (minus ``hidden``, the course's
    own packages wherever installed), writes only under ``own``."""
    roots = tuple(os.path.realpath(p) for p in read_roots)
    hidden = tuple(os.path.realpath(p) for p in hidden)
    own = os.path.realpath(own)
    closed = frozenset(modules) | frozenset(CLOSED_NATIVE)
    why = dict.fromkeys(modules, CLOSED_COURSE) | CLOSED_NATIVE
    realpath, fsdecode, sep, write_log = os.path.realpath, os.fsdecode, os.sep, os.write

    def refuse(kind, detail=""):
        """The kind goes to the log; the detail only into the learner's own exception."""
        try:
            write_log(REFUSALS_FD, (kind + "\n").encode())
        except OSError:
            pass
        raise PermissionError(f"not allowed while grading: {kind}{detail}")

    def closed_module(name):
        return any(name == m or name.startswith(m + ".") for m in closed)

    def inside(path, root):
        return path == root or path.startswith(root + sep)

    def check_path(event, raw, writing):
        text = fsdecode(raw)
        if not text.startswith(sep) and ".." in text.split(sep):
            refuse(CLIMBING, f" ({text[:80]!r})")
        path = realpath(text)
        if any(inside(path, h) for h in hidden):
            refuse(READING_OUTSIDE, f" ({text[:120]!r})")
        if writing:
            if not inside(path, own):
                refuse(WRITING_OUTSIDE, f" ({text[:120]!r})")
        elif not (any(inside(path, r) for r in roots) or path in DEVICES):
            refuse(READING_OUTSIDE, f" ({text[:120]!r})")

    def hook(event, args):
        if event in FORBIDDEN_EVENTS:
            refuse(FORBIDDEN_EVENTS[event])
        if event == "import" and args and isinstance(args[0], str) and closed_module(args[0]):
            top = next(m for m in closed if args[0] == m or args[0].startswith(m + "."))
            refuse(why[top], f" (import {args[0][:80]})")
        if event not in PATH_EVENTS or not args:
            return
        writing = event in CHANGING_EVENTS or (event == "open" and len(args) > 2 and (
            (isinstance(args[1], str) and any(c in args[1] for c in "wax+"))
            or (isinstance(args[2], int) and args[2] & WRITE_FLAGS)))
        paths = args[:2] if event in ("os.rename", "shutil.move", "shutil.copyfile", "shutil.copytree") \
            else args[:1]
        for raw in paths:
            if isinstance(raw, (str, bytes)):
                check_path(event, raw, writing or raw is not args[0])

    for name in list(sys.modules):  # nothing closed stays loaded
        if closed_module(name):
            del sys.modules[name]
    import posix

    for module, attr in ((signal, "pidfd_send_signal"), (sys.modules.get("_signal"), "pidfd_send_signal"),
                         (os, "pidfd_open"), (posix, "pidfd_open")):
        if module is not None and hasattr(module, attr):  # signals that raise no audit event
            delattr(module, attr)
    sys.addaudithook(hook)

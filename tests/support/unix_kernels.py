"""The tests' notebook kernels talk over Unix sockets in a private folder, not over TCP ports.

Why: jupyter_client picks a kernel's five TCP ports by binding port 0 and closing the socket
again, and the kernel binds those numbers a second or more later (it imports IPython first).
`make test` starts about a hundred kernels beside each other while its other processes open
connections, and a connection's own port comes from the same range, so now and then one
takes a chosen port first: the kernel cannot bind it, exits, and the run fails with "Kernel
died before replying to kernel_info" (CI failed so in lesson 03). A Unix socket in a folder
only this process made cannot be taken by anyone else.

Used two ways: nbclient's runs in the tests pass ``kernel_manager_class=AsyncUnixSocketKernels``;
the nbval runs of `make test` load this file as a pytest plugin (``-p tests.support.unix_kernels``),
which gives nbval these kernels and keeps each kernel's stderr, which nbval throws away, for
the error a kernel that dies before it answers raises.
"""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager, KernelManager

# One folder per process (0700, removed at exit); each kernel's sockets are <prefix>-<n> in it.
_FOLDER = tempfile.TemporaryDirectory(prefix="kernel-sockets-")


def socket_prefix() -> str:
    """A path no other kernel uses, short enough for a Unix socket's name (108 bytes)."""
    return str(Path(_FOLDER.name) / uuid.uuid4().hex[:12])


class _UnixSockets:
    def __init__(self, **kwargs):
        kwargs.setdefault("transport", "ipc")
        kwargs.setdefault("ip", socket_prefix())
        super().__init__(**kwargs)


class UnixSocketKernels(_UnixSockets, KernelManager):
    """jupyter_client's KernelManager on Unix sockets."""


class AsyncUnixSocketKernels(_UnixSockets, AsyncKernelManager):
    """jupyter_client's AsyncKernelManager (nbclient's) on Unix sockets."""


# --------------------------------------------------------------------------- the nbval plugin
def _start_keeping_stderr(start):
    def start_new_kernel(*args, **kwargs):
        log = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        kwargs["stderr"] = log
        try:
            return start(*args, **kwargs)
        except RuntimeError as e:
            log.seek(0)
            raise RuntimeError(f"{e}. The kernel's stderr:\n{log.read()[-4000:] or '(nothing)'}") from e

    return start_new_kernel


def pytest_configure(config):
    import nbval.kernel

    if nbval.kernel.KernelManager is not UnixSocketKernels:  # once, however often configured
        nbval.kernel.KernelManager = UnixSocketKernels
        nbval.kernel.start_new_kernel = _start_keeping_stderr(nbval.kernel.start_new_kernel)

"""The tests' kernels on Unix sockets (tests/support/unix_kernels.py): used by nbclient and nbval runs alike."""

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import nbformat

from conftest import ROOT
from support.unix_kernels import UnixSocketKernels
from test_environment import dry_run


def test_a_kernel_on_unix_sockets_runs_code_its_sockets_files_in_a_private_folder():
    km, outputs = UnixSocketKernels(kernel_name="python3"), []
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        reply = kc.execute_interactive("print(6 * 7)", timeout=60, output_hook=outputs.append)
        assert reply["content"]["status"] == "ok"
        info = json.loads(Path(km.connection_file).read_text())
        assert info["transport"] == "ipc" and Path(info["ip"]).is_absolute()
        sockets = [Path(f"{info['ip']}-{info[name]}") for name in
                   ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")]
        assert all(stat.S_ISSOCK(p.stat().st_mode) for p in sockets), sockets
        assert stat.S_IMODE(sockets[0].parent.stat().st_mode) == 0o700  # nobody else's folder
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert [m["content"]["text"] for m in outputs if m["msg_type"] == "stream"] == ["42\n"]
    assert not any(p.exists() for p in sockets)  # removed with the kernel


def one_cell_notebook(path: Path, source: str, printed: str, kernel: str) -> None:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(source, execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed)]
    nb.cells = [cell]
    nb.metadata["kernelspec"] = {"name": kernel, "display_name": kernel, "language": "python"}
    nbformat.write(nb, path)


def test_nbval_with_the_plugin_runs_unix_socket_kernels_and_shows_a_dead_ones_stderr(tmp_path):
    # a kernel that dies as one that cannot bind its port does, before it answers
    spec = tmp_path / "jupyter" / "kernels" / "dying"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-c", "import sys; sys.exit('zmq.error.ZMQError: Address already in use')",
                 "{connection_file}"],
        "display_name": "dying", "language": "python"}))
    # the stored output is what a kernel on Unix sockets prints: nbval fails the cell otherwise
    one_cell_notebook(tmp_path / "transport.ipynb", "from ipykernel.kernelapp import IPKernelApp\n"
                      "print(IPKernelApp.instance().transport)", "ipc\n", "python3")
    one_cell_notebook(tmp_path / "dies.ipynb", "print(1)", "1\n", "dying")
    env = {**os.environ, "JUPYTER_PATH": str(tmp_path / "jupyter"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "-p", "tests.support.unix_kernels", "-q", "--rootdir", str(tmp_path), str(tmp_path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = done.stdout + done.stderr
    assert "1 passed, 1 error" in out, out[-3000:]  # the transport cell passed; the dying kernel is an error
    assert re.search(r"Kernel died before replying to kernel_info\. The kernel's stderr:\n(E +)?"
                     r"zmq\.error\.ZMQError: Address already in use", out), out[-3000:]


def test_make_tests_nbval_runs_load_the_plugin():
    for target in ("test-nbval", "test-nbval-blas"):
        runs = [line for line in dry_run(target).splitlines() if "--nbval" in line]
        assert runs and all("-p tests.support.unix_kernels" in line for line in runs), (target, runs)

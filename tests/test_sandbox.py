"""The sandbox's building blocks: what a grading process can see, and what it is given."""
import os
import subprocess
import sys
import textwrap

import pytest

from grader.judging import registry
from grader.batch.isolation import bwrap_command, namespaces_problem, resolve_isolation
from grader.batch.pieces import pieces_source, reference_functions
from grader.batch.sandbox import Limits, Workspace

from conftest import ROOT

NAMESPACES = pytest.mark.skipif(namespaces_problem() is not None,
                                reason=f"namespaces unavailable here: {namespaces_problem()}")


def test_pieces_are_the_used_functions_and_what_they_need_only():
    (piece,) = pieces_source(reference_functions(registry.get("block"), registry))
    source = piece["source"]
    for name in ("def layer_norm", "def causal_self_attention", "def mlp", "def gelu_tanh", "def softmax"):
        assert name in source
    for name in ("def gpt_logits", "def init_params", "def embed", "def block", "def hidden_states"):
        assert name not in source
    namespace = {}
    exec(source, namespace)
    assert set(piece["exports"]) == {"layer_norm", "causal_self_attention", "gelu_tanh", "mlp"}
    assert all(callable(namespace[f]) for f in piece["exports"].values())


def test_no_pieces_for_an_exercise_that_uses_none():
    assert pieces_source(reference_functions(registry.get("embed"), registry)) == []


def test_isolation_choice():
    assert resolve_isolation("python") == ("python", None)
    with pytest.raises(ValueError, match="must be one of"):
        resolve_isolation("docker")
    mode, warning = resolve_isolation("auto")
    assert (mode, warning) == ("namespaces", None) if namespaces_problem() is None else \
        (mode == "python" and "Python-level guard only" in warning)


PROBE = textwrap.dedent("""
    import os, socket, sys
    root, sibling = sys.argv[1], sys.argv[2]
    print("project", any(os.path.exists(os.path.join(root, p))
                         for p in ("grader", "solutions", "gpt2course/numpy_gpt.py", ".git")))
    print("sibling", os.path.exists(sibling))
    print("home", os.path.exists(os.path.expanduser("~root/.bashrc")) or os.path.exists("/root/.bashrc"))
    print("pid", os.getpid())
    print("uid", os.getuid())
    try:
        socket.create_connection(("127.0.0.1", 22), timeout=1)
        print("network", True)
    except OSError:
        print("network", False)
""")


@NAMESPACES
def test_namespaces_show_the_python_installation_and_nothing_of_the_project(tmp_path):
    """Checked below the audit hook: a plain Python in the same bubblewrap sandbox."""
    ws = Workspace(Limits(), "namespaces")
    try:
        mine, sibling = ws.learner(), ws.learner()
        script = mine.root / "probe.py"
        script.write_text(PROBE)
        proc = subprocess.run(bwrap_command(ws, mine.root) + [sys.executable, "-I", str(script), str(ROOT),
                                                               str(sibling.root)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        seen = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
        assert seen == {"project": "False", "sibling": "False", "home": "False", "pid": seen["pid"],
                        "uid": "1000", "network": "False"}
        assert int(seen["pid"]) < 10  # its own PID namespace
        mine.close()
        sibling.close()
    finally:
        ws.close()


def test_workspace_is_private_and_removed():
    ws = Workspace(Limits(), "python")
    root = ws.root
    assert oct(os.stat(root).st_mode & 0o777) == "0o700"
    box = ws.learner()
    assert oct(os.stat(box.root).st_mode & 0o777) == "0o700" and box.root.parent == root
    box.close()
    ws.close()
    assert not root.exists()


def test_decoding_a_stranger_s_arrays_has_a_budget(tmp_path):
    """A result that names one large array a thousand times is refused before copying."""
    import numpy as np

    from grader.judging import wire

    (tmp_path / "a.bin").write_bytes(np.zeros(2**17).tobytes())  # 1 MiB
    ref = {"bin": ["a.bin", 0, "<f8", [2**17]]}
    tree = {"list": [ref] * 1000}
    decoded = wire.decode(tree, wire.folder_loader(str(tmp_path), budget=8 * 2**20))
    arrays = [x for x in decoded if isinstance(x, np.ndarray)]
    refused = [x for x in decoded if isinstance(x, wire.Unsupported)]
    assert len(arrays) == 8 and len(refused) == 992 and "too large" in refused[0].reason
    for bad in (["../a.bin", 0, "<f8", [1]], ["a.bin", -1, "<f8", [1]], ["a.bin", 0, "|O", [1]],
                ["a.bin", 0, "<f8", [2**40]], ["a.bin", 2**20, "<f8", [2]], "a.npy"):
        assert isinstance(wire.decode({"bin": bad}, wire.folder_loader(str(tmp_path))), wire.Unsupported)
    assert isinstance(wire.decode({"int": "9" * 100_000}, None), (int, wire.Unsupported))

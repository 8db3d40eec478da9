"""The limits a learner's code runs under, and the environment it starts with."""
from __future__ import annotations

import os
from dataclasses import dataclass

SCRATCH = "/scratch"  # as inside/walls.py's SCRATCH: an exercise's own tmpfs, HOME and TMPDIR


@dataclass(frozen=True)
class Limits:
    wall_s: float = 60.0          # per exercise
    submission_s: float = 600.0   # per learner, all exercises together
    cpu_s: int = 60
    memory_bytes: int = 3 * 2**30
    file_bytes: int = 64 * 2**20  # also caps what learner code can print
    output_bytes: int = 20_000    # of stdout/stderr kept for the report
    scratch_bytes: int = 64 * 2**20  # the private tmpfs of one exercise
    threads: int = 64             # tasks per learner (a pids group), or threads per exercise


def rlimits(limits: Limits) -> dict[str, int]:
    return {"RLIMIT_AS": limits.memory_bytes, "RLIMIT_CPU": limits.cpu_s, "RLIMIT_FSIZE": limits.file_bytes,
            "RLIMIT_CORE": 0, "RLIMIT_NPROC": limits.threads, "RLIMIT_NOFILE": 256}


def child_env() -> dict[str, str]:
    """No credentials, no inherited configuration: just enough to run NumPy."""
    env = {"PATH": "/usr/bin:/bin", "HOME": SCRATCH, "LANG": "C.UTF-8", "TMPDIR": SCRATCH,
           "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg"}
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):  # needed on some CPUs here
        if var in os.environ:
            env[var] = os.environ[var]
    return env

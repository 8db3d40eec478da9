"""A second BLAS configuration for `make test`: other kernels than this machine's, and one thread.

    .venv/bin/python scripts/blas_config.py          # says what it picks, and checks that it applies
    env $(.venv/bin/python scripts/blas_config.py --env) pytest --nbval ...   # what make test runs

The lessons' compared outputs must not depend on the machine (a learner's laptop has other SIMD
units than the machine that stored them). So `make test` runs them once as they are and once
with the kernels of another machine: on an AVX-512 CPU those of an AVX2 one (OpenBLAS Haswell,
MKL AVX2, ATen avx2), on any other those of an older one without FMA (OpenBLAS Sandybridge,
MKL AVX, ATen's default), always with one thread (reductions split over threads round
differently). Before printing, it starts Python under that configuration and checks, with
threadpoolctl and torch, that the kernels really changed; if they did not, it exits 1 with the
reason, because a second run on the same kernels would prove nothing.
"""
from __future__ import annotations

import json
import subprocess
import sys

AVX512_KERNELS = {"skylakex", "cooperlake", "sapphirerapids"}
# (OpenBLAS core type, MKL instruction set, ATen CPU capability)
LIKE_AVX2 = ("Haswell", "AVX2", "avx2")
LIKE_AVX = ("Sandybridge", "AVX", "default")
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

PROBE = """
import json, threadpoolctl, numpy, torch
blas = [i for i in threadpoolctl.threadpool_info() if i.get("internal_api") == "openblas"]
print(json.dumps({"openblas": blas[0].get("architecture") if blas else None,
                  "blas_threads": blas[0].get("num_threads") if blas else None,
                  "aten": torch.backends.cpu.get_cpu_capability(), "torch_threads": torch.get_num_threads()}))
"""


def probe(env: dict | None = None) -> dict:
    """The kernels a fresh Python gets: OpenBLAS's core type (numpy), ATen's capability, threads."""
    import os

    done = subprocess.run([sys.executable, "-c", PROBE], env={**os.environ, **(env or {})},
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def second_configuration(current: dict) -> dict[str, str]:
    core, mkl, aten = LIKE_AVX2 if str(current["openblas"]).lower() in AVX512_KERNELS else LIKE_AVX
    return {"OPENBLAS_CORETYPE": core, "MKL_ENABLE_INSTRUCTIONS": mkl, "ATEN_CPU_CAPABILITY": aten,
            **ONE_THREAD}


def problems(current: dict, other: dict) -> list[str]:
    found = []
    if current["openblas"] is None:
        found.append("numpy is not linked to OpenBLAS here (threadpoolctl finds no openblas), "
                     "so OPENBLAS_CORETYPE changes nothing; install numpy from the lock (make)")
    elif str(other["openblas"]).lower() == str(current["openblas"]).lower():
        found.append(f"OpenBLAS kept its {current['openblas']} kernel under the second configuration")
    if other["aten"] == current["aten"] and current["aten"] != "DEFAULT":
        found.append(f"torch kept its {current['aten']} code path under the second configuration")
    if other["blas_threads"] != 1 or other["torch_threads"] != 1:
        found.append(f"threads not down to one (OpenBLAS {other['blas_threads']}, torch {other['torch_threads']})")
    return found


def main(argv: list[str]) -> int:
    current = probe()
    env = second_configuration(current)
    other = probe(env)
    trouble = problems(current, other)
    if trouble:
        print("scripts/blas_config.py: the second BLAS configuration would prove nothing: "
              + "; ".join(trouble), file=sys.stderr)
        return 1
    print(f"second BLAS configuration: OpenBLAS {current['openblas']} -> {other['openblas']}, "
          f"ATen {current['aten']} -> {other['aten']}, threads {current['torch_threads']} -> 1",
          file=sys.stderr)
    if "--env" in argv:
        print(" ".join(f"{k}={v}" for k, v in env.items()))
    else:
        print(json.dumps({"now": current, "second": other, "env": env}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

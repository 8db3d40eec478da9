"""How much the cube written as x*x*x saves over x**3 in float32 GELU (GPT-2 sized input).

Prints the ratio measured side by side in one run and records it in docs/benchmarks.md;
no target: it explains why numpy_gpt.gelu_tanh writes the cube as x*x*x.
Run: .venv/bin/python benchmarks/gelu_power.py
"""
import math
import timeit

import numpy as np

import _report
from gpt2course import numpy_gpt as ref

C = math.sqrt(2 / math.pi)


def with_power(x):
    return 0.5 * x * (1.0 + np.tanh(C * (x + 0.044715 * x**3)))


def main():
    x = np.random.default_rng(0).standard_normal((4, 64, 3072)).astype(np.float32)
    runs = {"gelu_tanh (x*x*x)": lambda: ref.gelu_tanh(x), "with x**3": lambda: with_power(x)}
    best = dict.fromkeys(runs, math.inf)
    for _ in range(10):  # alternate, keep the best of each: a busy machine slows both alike
        for name, run in runs.items():
            best[name] = min(best[name], timeit.timeit(run, number=1))
    for name, t in best.items():
        print(f"{name:20s} {t * 1e3:8.2f} ms")
    ratio = best["with x**3"] / best["gelu_tanh (x*x*x)"]
    print(f"x**3 takes {ratio:.1f}x as long")
    body = ("float32 input of shape (4, 64, 3072) (an MLP's hidden layer), the two GELUs alternated 10 "
            "times, best time of each kept.\n\n| GELU | best (ms) |\n|---|---|\n"
            + "\n".join(f"| {name} | {t * 1e3:.2f} |" for name, t in best.items()))
    target = _report.Target("x**3 / x*x*x time (float32 GELU)", ratio)
    print("wrote", _report.write_section("gelu_power", body, [target], _report.machine()))


if __name__ == "__main__":
    main()

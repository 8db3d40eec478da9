"""One module per lesson; importing one registers its exercises.

`registry.get(name)` imports them in order only until it has found ``name``, so
the first `check(embed)` in a kernel does not wait for later lessons' imports
(lesson 08's pulls in torch); `registry.load_all()` imports every one.
"""
import importlib

MODULES = ("l01_embeddings", "l02_attention", "l03_mlp_block", "l04_model", "l05_counting", "l06_torch",
           "l07_positions", "l08_training")


def load(until=None) -> None:
    """Import the lesson modules in order, stopping as soon as ``until()`` is true."""
    for module in MODULES:
        importlib.import_module(f"{__name__}.{module}")
        if until is not None and until():
            return

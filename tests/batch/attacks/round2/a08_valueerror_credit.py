"""a08 valueerror_credit.

Route: several exercises must raise ValueError on bad inputs (embed: T > block_size;
cross_entropy: bad targets; get_batch: data too short; sample_next: temperature <= 0). Functions
that compute nothing and always `raise ValueError` collect those cases' credit under per-case
scoring; count_gpt2_params returns the one number the lesson states (124,439,808) whatever it is
asked.
Goal (2): credit without computing.
Breached: any of these do-nothing functions scores points.
"""
import pathlib
from _common import write_nb, LESSON_FILES, verdicts

RAISE = "def {name}({args}):\n    raise ValueError('no')\n"


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "eve" / LESSON_FILES["01_embeddings"], "01_embeddings",
             [RAISE.format(name="embed", args="wte, wpe, idx")])
    write_nb(tmp / "eve" / LESSON_FILES["08_training_sampling"], "08_training_sampling",
             [RAISE.format(name="cross_entropy", args="logits, targets"),
              RAISE.format(name="get_batch", args="data, batch_size, block_size, rng"),
              RAISE.format(name="sample_next", args="logits, temperature, top_k, rng")])
    write_nb(tmp / "eve" / LESSON_FILES["05_counting"], "05_counting",
             ["def count_gpt2_params(V, T, d, L, tied=True, bias=True):\n    return 124439808\n"])
    return [str(tmp / "eve"), "--lessons", "01_embeddings,05_counting,08_training_sampling"]


def verdict(out: pathlib.Path, run: dict) -> tuple[bool, str]:
    v = verdicts(out, "eve")
    pts = {k: x.get("points") for k, x in v.items() if x.get("points")}
    if pts:
        return True, f"points without computing: {pts}"
    return False, "no credit for do-nothing functions"

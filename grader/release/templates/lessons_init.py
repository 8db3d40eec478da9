"""Student release: exercises rebuilt from stored public data (no reference code)."""
import json
from pathlib import Path

from gpt2course.config import GPTConfig

from ..judging import wire
from ..judging.judge import Raised
from ..judging.registry import Case, Exercise, Mistake, register
from ..judging.sampling_judge import draws_judge, scalar_judge
from ..judging.stats import Summary, init_judge

DATA = Path(__file__).with_name("data")
JUDGES = {"init_stats": init_judge, "draws": draws_judge, "scalar": scalar_judge}


def _answer(tree, load):
    if isinstance(tree, dict) and "raised" in tree:
        r = tree["raised"]
        return Raised(r["type"], tuple(r["bases"]), r["message"], r.get("own"))
    if isinstance(tree, dict) and "none" in tree:
        return None
    if isinstance(tree, dict) and "summary" in tree:
        return Summary(tree["summary"])
    return wire.decode(tree, load, GPTConfig)


class _Stored(dict):
    """One exercise's stored answers, decoded when check() first asks for them."""

    def __init__(self, entry, load):
        super().__init__()
        self.entry, self.load = entry, load

    def __missing__(self, key):
        if key not in ("expected", "mistakes"):
            raise KeyError(key)
        self["expected"] = [_answer(t, self.load) for t in self.entry["expected"]]
        self["mistakes"] = {m["name"]: [_answer(t, self.load) for t in m["answers"]]
                            for m in self.entry["mistakes"]}
        return self[key]


def _public_cases(entry, load):
    decoded = []

    def cases():
        if not decoded:
            decoded.extend(Case(wire.decode(c["args"], load, GPTConfig), True, c["raises"],
                                tuple(c["mention"]), c["about"]) for c in entry["cases"])
        return decoded
    return cases


def _load():
    # each exercise's data is decoded on first use: the first check() in a kernel stays quick
    load = wire.folder_loader(str(DATA))
    for entry in json.loads((DATA / "index.json").read_text()):
        register(Exercise(
            name=entry["name"], lesson=entry["lesson"], reference=None,
            uses=tuple(entry["uses"]), judge=JUDGES.get(entry["judge"]),
            public_cases=_public_cases(entry, load), hidden_cases=lambda rng: [],
            mistakes=[Mistake(m["name"], m["explanation"], None, m.get("any_error", False)) for m in entry["mistakes"]],
            tolerance=entry["tolerance"], points=entry["points"],
            hints=tuple(entry["hints"]), returns=tuple(entry["returns"]),
            stored=_Stored(entry, load),
            difficulty=entry["difficulty"], importance=entry["importance"], minutes=entry["minutes"],
        ))


def load(until=None):
    """Every exercise is registered when this module is imported; its data is read on first use."""


_load()

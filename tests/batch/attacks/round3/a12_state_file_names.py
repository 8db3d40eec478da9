"""a12 state_file_names.

Route: each learner's signed result is saved as OUT/.state/<id>.json next to the course's
secret (.state/.secret, the seed of every hidden case) and the signing key (.state/.key). A
learner whose id the grader maps onto one of those names would overwrite the secret with a
learner-shaped file (hidden cases then known) or the key (results forgeable). Names tried as
learner folders: `．secret` and `．key` (FULLWIDTH FULL STOP, which NFKC turns into '.'),
`\u2024key` (ONE DOT LEADER), `key`, `secret`, `.json`-suffixed names (`.secret.json`
is hidden, so `%2esecret`, `secret.json`, `key.json`), `..`-like `．．`, and, in a learner's zip
`x.zip`, a folder `ｓｅｃｒｅｔ`. build() first grades bob alone into OUT (making .secret/.key) and keeps
copies; the attack run is the hostile class, same OUT, --force.
Goal (2)/(6): the instructor's secret or key replaced, or state lost.
Breached: .state/.secret or .state/.key differ from before the run (the docs: the same OUT
regraded with --force keeps its secret), any file written under OUT outside feedback/, .state/,
gradebook.csv and report.json, or a learner without a row.
"""
from __future__ import annotations

import pathlib
import shutil

import _common as c

NAMES = ["\uff0esecret", "\uff0ekey", "\u2024key", "key", "secret", "%2esecret", "secret.json", "key.json",
         "\uff0e\uff0e", "bob"]


def build(tmp: pathlib.Path) -> list[str]:
    s = tmp / "subs"
    for n in NAMES:
        c.write_nb(s / n / "05_counting_exercises.ipynb", "05_counting", c.good("count_gpt2_params"))
    c.zip_write(s / "x.zip", {"\uff53\uff45\uff43\uff52\uff45\uff54/05_counting_exercises.ipynb":
                              c.nb_bytes("05_counting", c.good("count_gpt2_params")),
                              "\uff4b\uff45\uff59/05_counting_exercises.ipynb":
                              c.nb_bytes("05_counting", c.good("count_gpt2_params"))})
    out = tmp.parent / "out"
    r = c.run_grader([s / "bob"], out)
    assert (out / ".state" / ".secret").exists(), r.stderr[-500:]
    keep = tmp / "kept"
    keep.mkdir()
    shutil.copy(out / ".state" / ".secret", keep / "secret")
    shutil.copy(out / ".state" / ".key", keep / "key")
    return [str(s), "--force"]


def verdict(out: pathlib.Path, run: dict):
    keep = out.parent / "in" / "kept"
    bad = []
    for name, kept in ((".secret", "secret"), (".key", "key")):
        p = out / ".state" / name
        if not p.exists() or p.read_bytes() != (keep / kept).read_bytes():
            bad.append(f".state/{name} changed or gone")
    for p in out.rglob("*"):
        rel = p.relative_to(out)
        if p.is_file() and rel.parts[0] not in ("feedback", ".state", "gradebook.csv", "report.json"):
            bad.append(f"stray file {rel}")
        if p.is_file() and rel.parts[0] == ".state" and not (p.name.endswith(".json") or p.name in (".secret", ".key")):
            bad.append(f"odd state file {rel}")
    rows = c.gradebook_rows(out)
    if len(rows) < len(NAMES) + 1:
        bad.append(f"{len(rows)} rows for {len(NAMES)} folders + a zip")
    if run["returncode"] != 0:
        bad.append(f"rc={run['returncode']}")
    if bad:
        return True, "; ".join(bad) + f" | rows {[r.get('submission') for r in rows]}"
    state = sorted(p.name for p in (out / ".state").iterdir())
    return False, f"secret and key kept; rows {[r.get('submission') for r in rows]}; state {state}"

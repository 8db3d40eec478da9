"""a01: hidden test inputs leak into report.json through exception messages (goal 1, 2).

Route: `embed` answers correctly for the first eight calls, then raises ValueError whose
message is the idx array it was called with (plus a marker and the call number). The grader
records every failing test's message in report.json's `failures`.
Breached: report.json or feedback.md holds the marker with an idx list from a test labelled
hidden (every test from the first hidden failure on is hidden), i.e. hidden inputs verbatim.
"""
import pathlib
import re

from _nb import GOOD, nb_name, notebook, write_nb, report

SRC = GOOD["embed"].replace("def embed", "def _good") + '''
_n = [0]
def embed(wte, wpe, idx):
    _n[0] += 1
    if _n[0] > 8:
        raise ValueError(f"LEAK01 call={_n[0]} idx={np.asarray(idx).tolist()} wte0={np.asarray(wte).ravel()[:3].tolist()}")
    return _good(wte, wpe, idx)
'''


def build(tmp: pathlib.Path) -> list[str]:
    write_nb(tmp / "class" / "alice" / nb_name("01_embeddings"), notebook("01_embeddings", {"embed": SRC}))
    return [str(tmp / "class"), "--lessons", "01_embeddings"]


def verdict(out: pathlib.Path, run: dict):
    rep = report(out)
    text = (out / "report.json").read_text() if (out / "report.json").exists() else ""
    m = re.search(r"first failure \(hidden test (\d+)\)", text)
    leaked = re.findall(r"test (\d+): raised ValueError: LEAK01 call=\d+ idx=(\[[^\"]*?\]) wte0", text)
    if m:
        first_hidden = int(m.group(1))
        hidden = [(n, v) for n, v in leaked if int(n) >= first_hidden]
        if hidden:
            return True, f"report.json lists {len(hidden)} hidden tests' idx verbatim, e.g. test {hidden[0][0]}: idx={hidden[0][1][:60]}"
    if leaked:
        return True, f"report.json lists {len(leaked)} tests' idx verbatim (hidden label not shown), e.g. {leaked[-1][1][:60]}"
    return False, f"no LEAK01 marker with inputs in report.json (rc={run['returncode']})"

"""check() in a notebook: one short verdict, never an exception."""
import re

import numpy as np
import pytest

from grader import check
from grader.judging import registry
from grader.checking.check import evaluate, not_attempted_text


def test_passed(capsys):
    def embed(wte, wpe, idx):
        T = idx.shape[-1]
        if T > len(wpe):
            raise ValueError(f"sequence length {T} > block size {len(wpe)}")
        return wte[idx] + wpe[:T]

    check(embed)
    out = capsys.readouterr().out
    assert out.startswith("embed: PASSED") and out.count("\n") == 1


def test_stub_is_not_attempted(capsys):
    def embed(wte, wpe, idx):
        raise NotImplementedError("embed: replace this line with your code")

    check(embed)
    assert capsys.readouterr().out == not_attempted_text("embed") + "\n"
    assert evaluate(embed).status == "not_attempted"


def test_crashing_learner_code_does_not_raise(capsys):
    def embed(wte, wpe, idx):
        return 1 / 0

    check(embed)
    out = capsys.readouterr().out
    assert "FAILED" in out and "ZeroDivisionError" in out


def test_wrong_shape_is_reported(capsys):
    def one_hot_embed(wte, idx):
        return wte

    check(one_hot_embed)
    assert "wrong shape" in capsys.readouterr().out


def test_unknown_function_and_non_function(capsys):
    def embedd(wte, wpe, idx):
        return None

    check(embedd, 42)
    out = capsys.readouterr().out
    assert "no exercise called 'embedd'" in out and "no exercise called None" in out


def test_subclass_and_nan_are_refused():
    class Sneaky(np.ndarray):
        def __eq__(self, other):
            return True

    def one_hot_embed(wte, idx):
        return (np.eye(wte.shape[0], dtype=wte.dtype)[idx] @ wte).view(Sneaky)

    v = evaluate(one_hot_embed)
    assert v.passed == 0 and "Sneaky" in v.message

    def embed(wte, wpe, idx):
        return np.full(idx.shape + (wte.shape[1],), np.nan, wte.dtype)

    v = evaluate(embed)
    assert v.status == "failed" and "NaN" in v.message


def test_changing_an_input_in_place_is_named_and_harms_no_other_call():
    def embed(wte, wpe, idx):
        if idx.shape[-1] > len(wpe):
            raise ValueError(f"sequence length {idx.shape[-1]} exceeds block size {len(wpe)} (block size)")
        out = wte[idx] + wpe[: idx.shape[-1]]
        wte[:] = 0  # changes the caller's array: a bug, and it must not leak into other cases
        return out

    v = evaluate(embed)
    raising = sum(1 for c in registry.get("embed").cases() if c.raises)
    assert v.status == "failed" and v.passed == raising  # only the cases that raise before the write
    assert "changed its input `wte` in place" in v.message


def test_block_updating_its_input_in_place_fails():
    def block(x, params, layer, n_head):
        p = lambda n: params[f"h.{layer}.{n}"]  # noqa: E731
        x += causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")), p("attn.c_attn.weight"),
                                   p("attn.c_attn.bias"), p("attn.c_proj.weight"), p("attn.c_proj.bias"),
                                   n_head)
        x += mlp(layer_norm(x, p("ln_2.weight"), p("ln_2.bias")), p("mlp.c_fc.weight"), p("mlp.c_fc.bias"),
                 p("mlp.c_proj.weight"), p("mlp.c_proj.bias"))
        return x

    v = evaluate(block)
    assert v.status == "failed" and v.passed == 0 and "changed its input `x` in place" in v.message


def test_infinite_loop_is_stopped(capsys):
    import importlib
    import time

    check_module = importlib.import_module("grader.checking.check")  # the module, not the function

    calls = []

    def embed(wte, wpe, idx):
        calls.append(1)
        while True:
            time.sleep(0.01)

    old, check_module.CALL_SECONDS = check_module.CALL_SECONDS, 0.5
    try:
        v = check_module.evaluate(embed)
    finally:
        check_module.CALL_SECONDS = old
    # 0.5 s for the whole check, not per test: the other tests are skipped, not each given 0.5 s
    # (counted, not timed, so a busy machine cannot change the outcome)
    assert len(calls) == 1
    assert v.status == "broken" and "stopped after 0.5 s in total, during public example 1" in v.message


def test_a_slow_function_is_stopped_on_the_test_it_was_running():
    import importlib
    import time

    check_module = importlib.import_module("grader.checking.check")
    calls = []

    def gelu_tanh(x):
        calls.append(1)
        if len(calls) == 3:
            while True:
                time.sleep(0.01)
        return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))

    # 2 s: the two quick calls before the slow one fit in it even on a machine that stalls
    old, check_module.CALL_SECONDS = check_module.CALL_SECONDS, 2.0
    try:
        v = check_module.evaluate(gelu_tanh)
    finally:
        check_module.CALL_SECONDS = old
    assert v.passed == 2 and "during hidden test 3" in v.message


def test_hints_come_one_more_each_call_and_then_say_so(capsys):
    from grader import hint, hint_reset
    from grader.judging import registry

    def embed(wte, wpe, idx):
        raise NotImplementedError

    hint_reset(embed)
    n = len(registry.get("embed").hints)
    said = []
    for _ in range(n + 1):
        hint(embed)
        said.append(capsys.readouterr().out)
    assert [s.split(":", 1)[0] for s in said[:n]] == [f"embed, hint {i} of {n}" for i in range(1, n + 1)]
    assert len(set(said[:n])) == n and "no more hints" in said[n]
    assert max(len(line) for s in said for line in s.splitlines()) <= 88  # wrapped like check()'s verdicts
    hint_reset(embed)
    hint("embed")
    assert capsys.readouterr().out.startswith("embed, hint 1 of")
    hint(print)
    assert "no exercise called 'print'" in capsys.readouterr().out


def test_a_hint_after_check_named_a_mistake_starts_from_that_mistake(capsys):
    """The learner who just read "Likely mistake: ..." needs that mistake's fix first, then the
    exercise's own hints, from where they were."""
    from grader import check, hint, hint_reset
    from grader.judging import registry

    def embed(wte, wpe, idx):
        T = idx.shape[-1]
        if T > wpe.shape[0]:
            raise ValueError(f"a sequence of {T} tokens is longer than the block size {wpe.shape[0]}")
        return wte[idx] + wpe[idx]  # position rows looked up by token id

    hint_reset(embed)
    hint(embed)
    check(embed)
    capsys.readouterr()
    hint(embed)
    first = capsys.readouterr().out
    assert first.startswith("embed: check() found a likely mistake: position rows looked up by token id.")
    assert "wpe[:T]" in first  # the mistake's own explanation
    hint(embed)
    assert capsys.readouterr().out.startswith(f"embed, hint 2 of {len(registry.get('embed').hints)}")
    check(embed)
    hint_reset(embed)
    capsys.readouterr()
    hint(embed)
    assert capsys.readouterr().out.startswith("embed, hint 1 of")


def test_one_test_is_singular_and_tuple_items_are_named():
    from grader.judging import registry
    from grader.judging.answers import reference_answers
    from grader.judging.judge import judge

    ex = registry.get("tied_lm_loss_and_grad")
    case = ex.cases(hidden=False)[:1]
    expected = reference_answers(ex, case)
    v = judge(ex, case, expected, expected)
    assert v.message == "passed its 1 test"
    loss, dE = expected[0]
    v = judge(ex, case, [(loss, dE * 2)], expected)
    assert "failed 1 of 1 test;" in v.message and "dE: right shape and dtype" in v.message


def _fresh_process(code: str) -> str:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_first_check_imports_only_the_lessons_up_to_its_exercise():
    """The first check() in a kernel waits for no later lesson's imports (lesson 08's is torch):
    what made it take seconds in the browser."""
    out = _fresh_process("""
import sys
from grader import check
def embed(wte, wpe, idx):
    return wte[idx] + wpe[:idx.shape[-1]]
check(embed)
print('torch' in sys.modules, sorted(m for m in sys.modules if m.startswith('grader.lessons.l')))
""")
    assert out.splitlines()[-1] == "False ['grader.lessons.l01_embeddings']"


def test_exercises_are_listed_in_lesson_order_whichever_lesson_was_imported_first():
    every = "from grader.judging import registry\nprint(list(registry.load_all()))"
    assert _fresh_process("import grader.lessons.l03_mlp_block\n" + every) == _fresh_process(every)
    assert list(registry.load_all())[:2] == ["embed", "one_hot_embed"]


# ------------------------------------------------------------------ failures a learner can act on
# The expected values below come from the lessons' reference functions and the learner's own
# answer, never from the judge: the message must show them at the first differing index.
def _reference(name):
    return registry.get(name).reference


def _first_index(answer, expected):
    return tuple(int(i) for i in np.argwhere(answer != expected)[0])


def _public(name, i=0):
    return registry.get(name).cases(hidden=False)[i]


def test_a_public_integer_difference_shows_the_index_and_both_values():
    def get_batch(data, batch_size, block_size, rng):
        x, y = _reference("get_batch")(data, batch_size, block_size, rng)
        y = y.copy()
        y[:, -1] += 1  # the last target of each row is off by one
        return x, y

    v = evaluate(get_batch)
    case = _public("get_batch")
    _, y_ref = _reference("get_batch")(**{**case.args, "rng": _copy(case.args["rng"])})
    _, y_got = get_batch(**{**case.args, "rng": _copy(case.args["rng"])})
    i, j = _first_index(y_got, y_ref)
    assert (f"first failure (public example 1): y: integer values differ; first difference at "
            f"y[{i}, {j}]: expected {y_ref[i, j]}, got {y_got[i, j]}") in v.message, v.message
    assert "Inputs of public example 1: data: uint8 (120,); batch_size=4; block_size=8; rng: a random generator" \
        in v.message
    assert f"test 1: y: integer values differ; first difference at y[{i}, {j}]" in v.failures[0]
    public = len(registry.get("get_batch").cases(hidden=False))
    hidden = [f for f in v.failures if int(f.split()[1].rstrip(":")) > public]
    assert hidden and all(re.fullmatch(r"test \d+: y: integer values differ", f) for f in hidden), hidden


def _copy(rng):
    import copy

    return copy.deepcopy(rng)


def test_a_public_float_difference_names_the_tuple_item_and_shows_the_inputs():
    def tied_lm_loss_and_grad(E, A, idx, targets):
        loss, dE = _reference("tied_lm_loss_and_grad")(E, A, idx, targets)
        return loss, dE * 2

    v = evaluate(tied_lm_loss_and_grad)
    case = _public("tied_lm_loss_and_grad")
    _, dE = _reference("tied_lm_loss_and_grad")(**case.args)
    i, j = _first_index(dE * 2, dE)
    assert f"dE: right shape and dtype, but values differ" in v.message
    assert f"first difference at dE[{i}, {j}]: expected {dE[i, j]}, got {dE[i, j] * 2}" in v.message
    public = len(registry.get("tied_lm_loss_and_grad").cases(hidden=False))
    hidden = [f for f in v.failures if int(f.split()[1].rstrip(":")) > public]
    kind = r"test \d+: dE: right shape and dtype, but values differ beyond the tolerance"  # no size: it is the learner's
    assert hidden and all(re.fullmatch(kind, f) for f in hidden), hidden
    idx, targets = case.args["idx"], case.args["targets"]
    assert (f"Inputs of public example 1: E: float64 {case.args['E'].shape}; A: float64 {case.args['A'].shape}; "
            f"idx: int64 {idx.shape} = [{', '.join(map(str, idx.tolist()))}]; "
            f"targets: int64 {targets.shape} = [{', '.join(map(str, targets.tolist()))}]") in v.message


def test_a_public_dict_difference_names_the_key():
    def numpy_to_torch(P, model):
        out = dict(_reference("numpy_to_torch")(P, model))
        key = sorted(out)[0]
        out[key] = out[key] + 1.0
        return out

    v = evaluate(numpy_to_torch)
    case = _public("numpy_to_torch")
    expected = _reference("numpy_to_torch")(**case.args)
    key = sorted(expected)[0]  # the one key changed
    e = expected[key]
    spot = ", ".join("0" for _ in e.shape)
    assert f"{key!r}: right shape and dtype, but values differ" in v.message, v.message
    assert f"first difference at [{key!r}][{spot}]: expected {e.flat[0]}, got {e.flat[0] + 1.0}" in v.message
    assert "Inputs of public example 1: P: a dict of" in v.message


def test_a_public_number_shows_both_values():
    def count_gpt2_params(V, T, d, L, **kw):
        return _reference("count_gpt2_params")(V, T, d, L, **kw) + 1

    v = evaluate(count_gpt2_params)
    n = _reference("count_gpt2_params")(**_public("count_gpt2_params").args)
    assert f"integer values differ; expected {n}, got {n + 1}" in v.message
    assert "Inputs of public example 1: V=50257; T=1024; d=768; L=12" in v.message


def test_the_dtype_hint_follows_the_expected_dtype():
    """uint8 data, int64 ids: 'return int64', never 'keep the dtype of the inputs'."""
    def get_batch(data, batch_size, block_size, rng):
        ix = rng.integers(0, len(data) - block_size, size=batch_size)
        return (np.stack([data[i:i + block_size] for i in ix]),
                np.stack([data[i + 1:i + 1 + block_size] for i in ix]))

    v = evaluate(get_batch)
    assert ("x: wrong dtype: got uint8, expected int64 (return int64 whatever the dtype of `data` (uint8): "
            "convert with .astype(np.int64))") in v.message
    assert "keep" not in v.message and "upcast" not in v.message
    assert all("keep" not in f for f in v.failures)

    def embed(wte, wpe, idx):
        T = idx.shape[-1]
        if T > len(wpe):
            raise ValueError(f"sequence length {T} > block size {len(wpe)}")
        return (wte[idx] + wpe[:T]).astype(np.float64)

    v = evaluate(embed)
    assert "wrong dtype: got float64, expected float32 (keep the dtype of `wte`, `wpe` (float32); do not upcast)" \
        in v.message


def test_nan_where_finite_values_are_expected_has_its_own_message():
    """TEST_GAPS round 1: without the NaN check a NaN answer still fails, but as 'infinite
    or NaN entries are in the wrong places'; the learner must be told it is NaN."""
    def gelu_tanh(x):
        out = 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))
        out.flat[0] = np.nan
        return out

    v = evaluate(gelu_tanh)
    assert v.passed == 0
    assert v.failures[0].startswith("test 1: 1 value(s) are NaN or infinite where finite values were expected")
    public = len(registry.get("gelu_tanh").cases(hidden=False))
    for f in v.failures:  # a hidden test says the kind, not the count: the count is the learner's to choose
        said = ("1 value(s) are NaN or infinite" if int(f.split()[1].rstrip(":")) <= public
                else "NaN or infinite values")
        assert f"{said} where finite values were expected" in f, f
    assert "wrong places" not in v.message
    x = _public("gelu_tanh").args["x"]
    expected = _reference("gelu_tanh")(x)
    assert f"first difference at [0]: expected {expected[0]}, got nan" in v.message


HIDDEN_KINDS = ("right shape and dtype, but values differ", "integer values differ", "value(s) are NaN",
                "wrong dtype", "wrong shape")


def _wrong_answers(expected):
    """Wrong answers of each kind, built from the expected one: one array (a tuple's or a
    dict's first) changed at its last entry, given NaN there, another dtype or shape."""
    def perturb(e, how):
        if isinstance(e, tuple):
            i = next((k for k, x in enumerate(e) if isinstance(x, np.ndarray)), 0)
            item = perturb(e[i], how)
            return None if item is None else e[:i] + (item,) + e[i + 1:]
        if isinstance(e, dict):
            k = next(iter(e))
            item = perturb(e[k], how)
            return None if item is None else {**e, k: item}
        if isinstance(e, str):  # a text (lesson 09): changed at its end
            return e + "x" if how == "value" else None
        if isinstance(e, list) and e and all(isinstance(x, (str, int)) for x in e):  # tokens or ids
            return {"value": e[:-1] + [perturb(e[-1], "value") if isinstance(e[-1], str) else e[-1] + 1],
                    "shape": e[:-1]}.get(how)
        if how in ("dtype", "nan") and not isinstance(e, np.ndarray):
            return None  # a number's dtype is not judged
        a = np.array(e, copy=True)
        if how == "value":
            a.flat[-1] = a.flat[-1] * 3 + 1 if a.dtype.kind == "f" else a.flat[-1] + 1
        elif how == "nan" and a.dtype.kind == "f":
            a.flat[-1] = np.nan
        elif how == "dtype":
            a = a.astype(np.float32 if a.dtype != np.float32 else np.float64)
        elif how == "shape":
            a = a.reshape(-1)[:-1] if a.size > 1 else np.zeros(2, a.dtype)
        return a if isinstance(e, np.ndarray) else a[()] if a.ndim == 0 else a
    wrong = {how: perturb(expected, how) for how in ("value", "nan", "dtype", "shape")}
    return {how: w for how, w in wrong.items() if w is not None}


def _scaled(x):
    """The same case with every value moved: floats times 3, integers plus 7."""
    if isinstance(x, np.ndarray):
        return x * 3 if x.dtype.kind == "f" else (x + 7).astype(x.dtype)
    if isinstance(x, dict):
        return {k: _scaled(v) for k, v in x.items()}
    if isinstance(x, (tuple, list)):
        return type(x)(_scaled(v) for v in x)
    if isinstance(x, str):  # texts and tokens (lesson 09): one more character
        return x + "·"
    if isinstance(x, (float, np.floating)):
        return type(x)(x * 3)
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return type(x)(x + 7)
    return x


VALUE_JUDGED = [n for n, e in registry.load_all().items() if e.judge is None]


@pytest.mark.parametrize("name", VALUE_JUDGED)
def test_a_hidden_case_message_reveals_no_value(name):
    """The message of a hidden case stays the same when every input and expected value is
    moved (so it holds none of them); a public example's changes (it shows them)."""
    import dataclasses

    from grader.judging.answers import reference_answers
    from grader.judging.judge import judge

    ex = dataclasses.replace(registry.get(name), mistakes=[])  # the messages alone, no naming
    hidden = [c for c in ex.cases() if not c.public and not c.raises][:3]
    for case, expected in zip(hidden, reference_answers(ex, hidden)):
        moved = dataclasses.replace(case, args=_scaled(case.args))
        for how, wrong in _wrong_answers(expected).items():
            message = judge(ex, [case], [wrong], [expected]).message
            again = judge(ex, [moved], [_scaled(wrong)], [_scaled(expected)]).message
            assert message == again, (how, message, again)
            assert "first difference" not in message and "Inputs of" not in message
            assert not re.search(r"(expected|got) -?(\d|nan|inf)", message), message
        public = dataclasses.replace(case, public=True)
        wrong = _wrong_answers(expected)["value"]
        shown = judge(ex, [public], [wrong], [expected]).message
        moved_shown = judge(ex, [dataclasses.replace(moved, public=True)], [_scaled(wrong)],
                            [_scaled(expected)]).message
        assert shown != moved_shown and "Inputs of public example 1" in shown


def test_the_student_edition_says_the_same():
    """The release's check() judges stored public answers (exercise.stored): same words."""
    import dataclasses

    from grader.judging.answers import mistake_answers_for, reference_answers

    reference = _reference("get_batch")

    def get_batch(data, batch_size, block_size, rng):
        x, y = reference(data, batch_size, block_size, rng)
        return x, y + (y == y.max())

    ex = registry.get("get_batch")
    public = ex.cases(hidden=False)
    stored = dataclasses.replace(ex, reference=None, stored={"expected": reference_answers(ex, public),
                                                             "mistakes": mistake_answers_for(ex, public)})
    course = evaluate(get_batch, hidden=False)
    registry._REGISTRY["get_batch"] = stored
    try:
        release = evaluate(get_batch, hidden=False)
    finally:
        registry._REGISTRY["get_batch"] = ex
    assert release.message == course.message and "first difference at y[" in release.message


def test_feedback_md_carries_the_same_words():
    """feedback.md shows a verdict as check() prints it, line for line, in a code block."""
    from grader.batch.report import verdict_lines
    from grader.checking.check import format_verdict

    def count_gpt2_params(V, T, d, L, **kw):
        return _reference("count_gpt2_params")(V, T, d, L, **kw) - 2

    v = evaluate(count_gpt2_params)
    lines = verdict_lines(v)
    n = _reference("count_gpt2_params")(**_public("count_gpt2_params").args)
    assert (lines[0], lines[-1]) == ("```text", "```")
    assert "\n".join(lines[1:-1]) == format_verdict(v)
    assert f"  expected  {n}" in lines and f"  received  {n - 2}" in lines
    assert "Inputs of public example 1:" in lines and "  V=50257" in lines and "  L=12" in lines


def test_an_input_holding_nan_is_left_as_it_was():
    """A case may hand a learner NaN (a masked score, a missing value): leaving it alone is not changing it."""
    from grader.judging.answers import call_answer
    from grader.judging.outcomes import ChangedInputs
    from grader.judging.registry import Case

    case = Case({"x": np.array([np.nan, 1.0, -np.inf]), "m": np.array([[np.nan + 1j, 2.0]])})
    answer = call_answer(lambda x, m: np.nan_to_num(x), case)
    assert not isinstance(answer, ChangedInputs) and np.array_equal(answer, np.nan_to_num(case.args["x"]))

    def zero_fill(x, m):
        x[np.isnan(x)] = 0.0
        return x

    assert call_answer(zero_fill, case) == ChangedInputs(("x",))

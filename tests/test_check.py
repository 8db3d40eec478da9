"""check() in a notebook: one short verdict, never an exception."""
import numpy as np

from grader import check, registry
from grader.check import evaluate, not_attempted_text


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

    check_module = importlib.import_module("grader.check")  # the module, not the function

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

    check_module = importlib.import_module("grader.check")
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
    from grader import hint, hint_reset, registry

    def embed(wte, wpe, idx):
        raise NotImplementedError

    hint_reset(embed)
    n = len(registry.get("embed").hints)
    for _ in range(n + 1):
        hint(embed)
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(":", 1)[0] for ln in lines[:n]] == [f"embed, hint {i} of {n}" for i in range(1, n + 1)]
    assert len(set(lines[:n])) == n and "no more hints" in lines[n]
    hint_reset(embed)
    hint("embed")
    assert capsys.readouterr().out.startswith("embed, hint 1 of")
    hint(print)
    assert "no exercise called 'print'" in capsys.readouterr().out


def test_one_test_is_singular_and_tuple_items_are_named():
    from grader import registry
    from grader.judge import judge, reference_answers

    ex = registry.get("tied_lm_loss_and_grad")
    case = ex.cases(hidden=False)[:1]
    expected = reference_answers(ex, case)
    v = judge(ex, case, expected, expected)
    assert v.message == "passed its 1 test"
    loss, dE = expected[0]
    v = judge(ex, case, [(loss, dE * 2)], expected)
    assert "failed 1 of 1 test;" in v.message and "dE: right shape and dtype" in v.message

"""wire.py, the data that crosses the trust boundary: what a learner's answer may be on the way
out (Encoder), and what the grader accepts on the way back (decode and the loaders), each rule
shown at its edge. The sandbox's own tests (tests/batch/test_sandbox.py) cover the budgets and
paths of a whole job; these are the encoder's and decoder's rules one by one."""
from __future__ import annotations

import os

import numpy as np
import pytest

from gpt2course.config import GPTConfig
from grader.judging import wire


def _through_folder(value, tmp_path, prefix="a"):
    enc = wire.Encoder(str(tmp_path), prefix)
    tree = enc(value)
    enc.close()
    return wire.decode(tree, wire.folder_loader(str(tmp_path)), GPTConfig)


def _through_blob(value):
    blob = bytearray()
    tree = wire.Encoder(None, blob=blob)(value)
    return wire.decode(tree, wire.blob_loader(bytes(blob)), GPTConfig)


ROUTES = {"memory": lambda v, _: wire.sanitise(v, GPTConfig), "folder": _through_folder,
          "blob": lambda v, _: _through_blob(v)}


# ------------------------------------------------------------------ what travels, unchanged
@pytest.mark.parametrize("route", ROUTES)
def test_plain_values_arrive_as_they_left(route, tmp_path):
    value = [None, True, False, "text", 0, -7, 2**100, 1.5, -0.0, (1, 2.5), {"a": [1, {"b": "c"}]}]
    back = ROUTES[route](value, tmp_path)
    assert back == value
    assert [type(x) for x in back] == [type(x) for x in value]   # True stays a bool, (1, 2.5) a tuple
    assert str(back[8]) == "-0.0"                                   # the sign of zero kept


@pytest.mark.parametrize("route", ROUTES)
def test_floats_that_are_not_finite_travel(route, tmp_path):
    inf, minus_inf, nan = ROUTES[route]([float("inf"), float("-inf"), float("nan")], tmp_path)
    assert inf == float("inf") and minus_inf == float("-inf") and nan != nan


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float32", "float64",
                                   "complex64", "complex128"])
def test_numeric_arrays_keep_dtype_shape_and_values(route, dtype, tmp_path):
    a = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    back = ROUTES[route](a, tmp_path)
    assert type(back) is np.ndarray and back.dtype == a.dtype and back.shape == a.shape
    assert np.array_equal(back, a)


@pytest.mark.parametrize("route", ROUTES)
def test_arrays_that_are_views_travel_as_their_values(route, tmp_path):
    base = np.arange(24.0).reshape(4, 6)
    views = [base.T, base[:, ::2], base[1:3, 1:], np.zeros((0, 3)), np.float64(2.0) * np.ones(())]
    back = ROUTES[route](views, tmp_path)
    for b, v in zip(back, views, strict=True):
        assert b.shape == v.shape and np.array_equal(b, v)


@pytest.mark.parametrize("route", ROUTES)
def test_several_arrays_each_come_back_as_itself(route, tmp_path):
    arrays = [np.arange(n, dtype=np.float32) * (n + 1) for n in (1, 5, 3)] + [np.ones((2, 2), np.int16)]
    back = ROUTES[route]({"xs": arrays, "y": arrays[1]}, tmp_path)
    for b, a in zip(back["xs"], arrays, strict=True):
        assert b.dtype == a.dtype and np.array_equal(b, a)
    assert np.array_equal(back["y"], arrays[1])


@pytest.mark.parametrize("route", ROUTES)
def test_numpy_scalars_stay_numpy_scalars(route, tmp_path):
    values = [np.float32(1.25), np.int64(-3), np.bool_(True), np.float64(np.nan)]
    back = ROUTES[route](values, tmp_path)
    assert [type(b) for b in back] == [np.float32, np.int64, np.bool_, np.float64]
    assert back[0] == np.float32(1.25) and back[1] == -3 and back[2] and np.isnan(back[3])


def test_the_encoder_keeps_its_own_copy_of_an_array():
    """Learner code that changes an array after returning it cannot change the answer graded."""
    a = np.zeros(3)
    enc = wire.Encoder(None)
    tree = enc(a)
    a[:] = 7
    assert np.array_equal(enc.memory[tree["npy"]], np.zeros(3))


def test_a_config_travels_as_its_numbers(tmp_path):
    config = GPTConfig(vocab_size=11, block_size=8, n_layer=2, n_head=2, n_embd=8)
    back = _through_folder(config, tmp_path)
    assert type(back) is GPTConfig and back.to_dict() == config.to_dict()
    tree = wire.Encoder(None)(config)
    assert isinstance(wire.decode(tree, None), wire.Unsupported)   # no config type given: not built


def test_an_encoder_appends_to_its_file_and_two_prefixes_share_a_folder(tmp_path):
    first = wire.Encoder(str(tmp_path), "p")
    t1 = first([np.arange(3.0), np.arange(2, dtype=np.int32)])
    first.close()
    second = wire.Encoder(str(tmp_path), "p")    # a later job of the same prefix: appended
    t2 = second(np.full(4, 9.0))
    second.close()
    other = wire.Encoder(str(tmp_path), "q")
    t3 = other(np.ones(2))
    other.close()
    load = wire.folder_loader(str(tmp_path))
    got = [wire.decode(t, load) for t in (t1, t2, t3)]
    assert np.array_equal(got[0][0], np.arange(3.0)) and np.array_equal(got[0][1], [0, 1])
    assert np.array_equal(got[1], np.full(4, 9.0)) and np.array_equal(got[2], np.ones(2))
    assert t2["bin"][1] == 3 * 8 + 2 * 4   # after the first job's bytes


# ------------------------------------------------------------------ what the encoder refuses
def _refused(value):
    tree = wire.Encoder(None)(value)
    assert "unsupported" in tree, tree
    return tree["unsupported"], tree["reason"]


def test_nesting_deeper_than_the_limit_is_refused_and_the_limit_itself_is_not():
    deep = ok = 1
    for _ in range(wire.MAX_DEPTH):
        ok = [ok]
    for _ in range(wire.MAX_DEPTH + 1):
        deep = [deep]
    assert wire.sanitise(ok) == ok
    inner = wire.sanitise(deep)
    for _ in range(wire.MAX_DEPTH):
        inner = inner[0]
    assert inner == [wire.Unsupported("nested", "nested more than 8 levels deep")]


def test_integers_are_kept_up_to_the_limit_of_bits():
    assert wire.sanitise(2**wire.MAX_INT_BITS - 1) == 2**wire.MAX_INT_BITS - 1
    assert wire.sanitise(-(2**wire.MAX_INT_BITS - 1)) == -(2**wire.MAX_INT_BITS - 1)
    assert _refused(2**wire.MAX_INT_BITS) == ("int", f"an integer of more than {wire.MAX_INT_BITS} bits")


def test_containers_are_kept_up_to_the_limit_of_items():
    assert len(wire.sanitise(list(range(wire.MAX_ITEMS)))) == wire.MAX_ITEMS
    assert _refused(list(range(wire.MAX_ITEMS + 1))) == ("list", "too many items")
    assert _refused(tuple(range(wire.MAX_ITEMS + 1))) == ("tuple", "too many items")
    many = {str(i): i for i in range(wire.MAX_ITEMS + 1)}
    assert _refused(many)[0] == "dict"
    assert len(wire.sanitise(dict(list(many.items())[:wire.MAX_ITEMS]))) == wire.MAX_ITEMS


@pytest.mark.parametrize("keys", [{1: "a"}, {("a",): 1}, {"a": 1, 2: 3}])
def test_a_dict_keyed_by_anything_but_str_is_refused(keys):
    assert _refused(keys) == ("dict", "keys must be str (and not too many)")


@pytest.mark.parametrize("array, name", [
    (np.array([1, "a"], dtype=object), "ndarray[object]"),
    (np.zeros(2, dtype=">f8"), "ndarray[>f8]"),
    (np.zeros(2, dtype=[("a", "<f8")]), None),
    (np.array(["ab"]), "ndarray[<U2]"),
    (np.zeros(2, dtype="datetime64[s]"), "ndarray[datetime64[s]]"),
])
def test_arrays_that_are_not_plain_numbers_are_refused(array, name):
    got, reason = _refused(array)
    assert reason == "array dtype is not numeric" and (name is None or got == name)


def test_types_of_their_own_are_refused_by_name():
    from collections import OrderedDict

    class MyList(list):
        pass

    assert _refused(OrderedDict(a=1)) == ("collections.OrderedDict", "not a NumPy array or plain Python value")
    assert _refused(MyList([1]))[1] == "not a NumPy array or plain Python value"
    assert _refused({1, 2}) == ("set", "not a NumPy array or plain Python value")


# ------------------------------------------------------------------ what the decoder refuses
@pytest.mark.parametrize("tree", [
    None, [], "x", {}, {"plain": 1, "int": "1", "float": "1"}, {"plain": [1]}, {"plain": 1.5},
    {"list": "abc"}, {"tuple": {"a": 1}}, {"dict": [1]}, {"what": 1}, {"config": {"n_layer": 1}},
])
def test_a_malformed_tree_is_a_malformed_answer(tree):
    assert wire.decode(tree, None) == wire.Unsupported("?", "malformed answer")


@pytest.mark.parametrize("tree", [{"int": "12x"}, {"int": "1.5"}, {"float": "one"}, {"float": None},
                                  {"int": [1]}])
def test_a_number_that_is_not_one_is_a_malformed_number(tree):
    assert wire.decode(tree, None) == wire.Unsupported("?", "malformed number")


def _innermost_decoded(levels: int):
    """decode of the number 1 inside `levels` lists, unwrapped to what stands innermost."""
    tree = {"int": "1"}
    for _ in range(levels):
        tree = {"list": [tree]}
    inner = wire.decode(tree, None)
    while isinstance(inner, list):
        inner = inner[0]
    return inner


def test_a_tree_nested_past_the_encoder_s_limit_is_refused():
    """The encoder's own refusal sits one level below its limit, so the decoder reads that deep."""
    assert _innermost_decoded(wire.MAX_DEPTH + 1) == 1
    assert _innermost_decoded(wire.MAX_DEPTH + 2) == wire.Unsupported("?", "malformed answer")


def test_dict_keys_arrive_as_str_and_refusals_arrive_capped():
    assert wire.decode({"dict": {"k": {"plain": None}}}, None) == {"k": None}
    got = wire.decode({"unsupported": "x" * 500, "reason": "y" * 500}, None)
    assert got == wire.Unsupported("x" * 200, "y" * 200)


@pytest.mark.parametrize("spec", [
    ["1", "1", 0], ["1", "1", 0, 0, 0], "1 1 0 0", ["1", "1", 0, 1.5], ["1", "x", 0, 0],
    [str(-1), "1", 0, 0], [str(2**128), "1", 0, 0], ["1", str(2**128), 0, 0], ["1", "1", 2, 0],
    ["1", "1", 0, 2**32], ["1", "1", 0, -1],
])
def test_a_malformed_generator_state_is_refused(spec):
    assert wire.decode({"rng": spec}, None) == wire.Unsupported("numpy.random.Generator",
                                                               "malformed generator state")


def test_a_generator_in_the_largest_state_is_rebuilt():
    rng = wire.decode({"rng": [str(2**128 - 1), str(2**128 - 1), 1, 2**32 - 1]}, None)
    assert isinstance(rng, np.random.Generator)
    state = rng.bit_generator.state
    assert state["state"]["state"] == 2**128 - 1 and state["has_uint32"] == 1 and state["uinteger"] == 2**32 - 1


def test_a_generator_travels_in_its_exact_state():
    rng = np.random.default_rng(5)
    rng.random(3)
    back = wire.sanitise(rng)
    assert back is not rng and back.random(4).tolist() == rng.random(4).tolist()


# ------------------------------------------------------------------ array references from a stranger
def _blob_file(tmp_path, data=np.arange(8.0)):
    (tmp_path / "a.bin").write_bytes(data.tobytes())
    return wire.folder_loader(str(tmp_path))


@pytest.mark.parametrize("ref", [
    ["a.bin", 0, "<f8"], ["a.bin", 0, "<f8", [1], 0], ("a.bin", 0, "<f8", [1]), "a.bin",
    ["a.npy", 0, "<f8", [1]], [".a.bin", 0, "<f8", [1]], ["d/a.bin", 0, "<f8", [1]], ["d\\a.bin", 0, "<f8", [1]],
    [1, 0, "<f8", [1]], ["a.bin", -1, "<f8", [1]], ["a.bin", 1.0, "<f8", [1]], ["a.bin", True, "<f8", [1]],
    ["a.bin", 0, 8, [1]], ["a.bin", 0, "<f8" + " " * 8, [1]], ["a.bin", 0, "<f8", 1], ["a.bin", 0, "<f8", [-1]],
    ["a.bin", 0, "<f8", [1.0]], ["a.bin", 0, "<f8", [1] * 33], ["a.bin", 0, "nonsense", [1]],
    ["a.bin", 8, "<f8", [8]], ["a.bin", 0, "<f8", [9]], ["b.bin", 0, "<f8", [1]],
])
def test_a_bad_array_reference_is_refused(ref, tmp_path):
    got = wire.decode({"bin": ref}, _blob_file(tmp_path))
    assert isinstance(got, wire.Unsupported), ref


def test_a_reference_within_the_file_is_read_at_its_offset(tmp_path):
    load = _blob_file(tmp_path)
    assert wire.decode({"bin": ["a.bin", 16, "<f8", [2, 3]]}, load).tolist() == [[2, 3, 4], [5, 6, 7]]
    assert wire.decode({"bin": ["a.bin", 64, "<f8", [0]]}, load).shape == (0,)   # empty, at the end


@pytest.mark.parametrize("dtype", ["|O", "|V8", "<M8[s]", "<U1"])
def test_a_reference_to_an_array_of_no_numbers_is_refused_as_such(dtype, tmp_path):
    got = wire.decode({"bin": ["a.bin", 0, dtype, [1]]}, _blob_file(tmp_path))
    assert isinstance(got, wire.Unsupported) and got.reason in ("array dtype is not numeric",
                                                                "malformed array reference")
    if dtype == "|O":
        assert got == wire.Unsupported("ndarray[|O]", "array dtype is not numeric")


def test_the_budget_counts_every_array_read_and_refuses_before_reading(tmp_path):
    (tmp_path / "a.bin").write_bytes(np.arange(4.0).tobytes())
    load = wire.folder_loader(str(tmp_path), budget=64)
    ref = {"bin": ["a.bin", 0, "<f8", [4]]}     # 32 bytes
    assert isinstance(wire.decode(ref, load), np.ndarray)
    assert isinstance(wire.decode(ref, load), np.ndarray)   # 64 of 64: exactly the budget
    assert wire.decode(ref, load) == wire.Unsupported("ndarray", "the answers were too large to read")
    assert isinstance(wire.decode({"bin": ["a.bin", 0, "<f8", [0]]}, load), np.ndarray)   # 0 bytes still fit


def test_a_frame_s_budget_is_what_is_left():
    blob = bytearray()
    tree = wire.Encoder(None, blob=blob)(np.arange(3.0))
    load = wire.blob_loader(bytes(blob), budget=100)
    assert load.left() == 100
    wire.decode(tree, load)
    assert load.left() == 100 - 24


def test_the_arrays_file_must_be_a_regular_file(tmp_path):
    os.mkfifo(tmp_path / "a.bin")
    got = wire.decode({"bin": ["a.bin", 0, "<f8", [1]]}, wire.folder_loader(str(tmp_path)))
    assert got == wire.Unsupported("ndarray", "the arrays are not in a regular file")


def test_the_arrays_file_is_never_read_through_a_link(tmp_path):
    (tmp_path / "real.bin").write_bytes(np.arange(2.0).tobytes())
    os.symlink(tmp_path / "real.bin", tmp_path / "a.bin")
    got = wire.decode({"bin": ["a.bin", 0, "<f8", [2]]}, wire.folder_loader(str(tmp_path)))
    assert isinstance(got, wire.Unsupported) and got.reason == "unreadable arrays (OSError)"


def test_a_missing_arrays_file_says_so(tmp_path):
    got = wire.decode({"bin": ["a.bin", 0, "<f8", [1]]}, wire.folder_loader(str(tmp_path)))
    assert got == wire.Unsupported("ndarray", "unreadable arrays (FileNotFoundError)")
    assert wire.unsupported(got.type_name, got.reason) == got   # a reason of the decoder's own: kept


def test_an_arrays_file_over_the_limit_is_not_read(tmp_path):
    with open(tmp_path / "a.bin", "wb") as f:      # sparse: no disk used
        f.truncate(wire.MAX_BLOB_BYTES + 1)
    got = wire.decode({"bin": ["a.bin", 0, "<f8", [1]]}, wire.folder_loader(str(tmp_path)))
    assert got == wire.Unsupported("ndarray", "the answers were too large to read")


# ------------------------------------------------------------------ what a refusal may say
@pytest.mark.parametrize("name, known", [
    ("int", True), ("dict", True), ("nested", True), ("?", True), ("ndarray", True), ("numpy.float32", True),
    ("numpy.random.Generator", True), ("ndarray[float32]", True), ("ndarray[<U2]", True), ("torch.Tensor", True),
    ("my_module.Secret", False), ("Secret", False), ("numpy.Secret", False), ("torch.Secret", False),
    ("ndarray[[('secret', '<f8')]]", False), ("ndarray[secret]", False), ("builtins.open", False),
])
def test_only_type_names_that_exist_outside_the_learner_s_code_are_repeated(name, known):
    assert wire.known_type(name) is known
    assert wire.unsupported(name, "too many items").type_name == (name if known else wire.OTHER_TYPE)


def test_only_the_grader_s_own_reasons_are_repeated():
    assert wire.unsupported("int", "too many items").reason == "too many items"
    assert wire.unsupported("int", "unreadable arrays (PermissionError)").reason == "unreadable arrays (PermissionError)"
    assert wire.unsupported("int", "my secret words").reason == "unsupported"
    assert wire.unsupported("int", "unreadable arrays (a b)").reason == "unsupported"
    assert wire.unsupported("x" * 300, "too many items").type_name == wire.OTHER_TYPE


# ------------------------------------------------------------------ same_value: was an input changed?
def test_same_value_tells_every_kind_of_change():
    a = np.arange(6.0).reshape(2, 3)
    assert wire.same_value(a, a.copy())
    assert not wire.same_value(a, a.astype(np.float32))          # the dtype changed
    assert not wire.same_value(a, a.reshape(3, 2))                # the shape changed
    assert not wire.same_value(a, a + np.eye(2, 3))               # one value changed
    assert not wire.same_value(a, a.tolist()) and not wire.same_value(a.tolist(), a)
    assert wire.same_value(np.array([np.nan, 1.0]), np.array([np.nan, 1.0]))   # NaN where NaN was
    assert not wire.same_value(np.array([np.nan]), np.array([0.0]))
    assert wire.same_value({"x": [1, (2, a)]}, {"x": [1, (2, a.copy())]})
    assert not wire.same_value({"x": 1}, {"x": 1, "y": 2}) and not wire.same_value({"x": 1}, {"y": 1})
    assert not wire.same_value({"x": a}, {"x": a + 1})
    assert not wire.same_value([1, 2], (1, 2)) and not wire.same_value([1, 2], [1, 2, 3])
    assert not wire.same_value([1, [2]], [1, [3]])
    assert wire.same_value(3, 3) and not wire.same_value(3, 4)


def test_same_value_on_generators_and_hostile_objects():
    g = np.random.default_rng(0)
    assert wire.same_value(g, np.random.default_rng(9))   # drawing from it is its use
    assert not wire.same_value(g, 0) and not wire.same_value(0, g)

    class Hostile:
        def __eq__(self, other):
            raise RuntimeError("no")

    assert wire.same_value(Hostile(), Hostile()) is False

"""The structural compile cache: one compile per graph structure and input types."""

from __future__ import annotations

import importlib
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.compile.cache as cache_mod
import lazygraph.tensor as lt
from lazygraph import config
from lazygraph.compile.cache import cached_function, clear_cache, stats, structural_key
from lazygraph.compile.mode import Mode
from lazygraph.graph.basic import Apply, Op

# ``lazygraph.compile.function`` the attribute is the function; this is the module.
function_mod = importlib.import_module("lazygraph.compile.function")
rng = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def counts(monkeypatch):
    """How often the cache compiled and rewrote a graph."""
    seen = {"compile": 0, "rewrite": 0}
    real_function, real_rewrite = cache_mod.function, function_mod.rewrite_graph

    def counting_function(*args, **kwargs):
        seen["compile"] += 1
        return real_function(*args, **kwargs)

    def counting_rewrite(*args, **kwargs):
        seen["rewrite"] += 1
        return real_rewrite(*args, **kwargs)

    monkeypatch.setattr(cache_mod, "function", counting_function)
    monkeypatch.setattr(function_mod, "rewrite_graph", counting_rewrite)
    return seen


def logistic_graph(dtype="float64", shape=(4, 3), c=1.0):
    x = lt.TensorType(dtype, shape)("x")
    w = lt.TensorType(dtype, shape[-1:])("w")
    z = lt.matmul(x, w)
    return [x, w], [lt.sum(c / (1.0 + lt.exp(-z))), z]


def logistic_numpy(x, w, c=1.0):
    z = x @ w
    return [np.sum(c / (1.0 + np.exp(-z))), z]


def check_equal(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        g = np.asarray(g)
        assert g.dtype == np.asarray(w).dtype
        assert g.shape == np.shape(w)
        np.testing.assert_allclose(g, w, rtol=1e-12)


def test_same_structure_new_data_compiles_once(counts):
    for _ in range(3):
        inputs, outputs = logistic_graph()
        x, w = rng.normal(size=(4, 3)), rng.normal(size=3)
        check_equal(cached_function(inputs, outputs)(x, w), logistic_numpy(x, w))
    assert counts == {"compile": 1, "rewrite": 1}
    s = stats()
    assert (s.compiles, s.hits, s.misses, s.size) == (1, 2, 1, 1)
    assert s.compile_seconds > 0


def test_names_do_not_matter():
    a, b = lt.dvector("a"), lt.dvector("b")
    c, d = lt.dvector("something"), lt.dvector(None)
    assert structural_key([a, b], [a * b])[0] == structural_key([c, d], [c * d])[0]


@pytest.mark.parametrize(
    "other",
    [
        {"c": 2.0},  # another constant value
        {"c": -1.0},
        {"dtype": "float32"},
        {"shape": (5, 3)},
        {"shape": (4, 2)},
    ],
)
def test_different_constants_dtypes_shapes_are_different_entries(other, counts):
    inputs, outputs = logistic_graph()
    f1 = cached_function(inputs, outputs)
    inputs2, outputs2 = logistic_graph(**other)
    f2 = cached_function(inputs2, outputs2)
    assert counts["compile"] == 2
    assert f1.function is not f2.function
    dtype = other.get("dtype", "float64")
    shape = other.get("shape", (4, 3))
    x = rng.normal(size=shape).astype(dtype)
    w = rng.normal(size=shape[-1:]).astype(dtype)
    want = logistic_numpy(x, w, other.get("c", 1.0))
    got = f2(x, w)
    for g, ww in zip(got, want, strict=True):
        assert np.asarray(g).dtype == np.asarray(ww).dtype
        np.testing.assert_allclose(g, ww, rtol=1e-5 if dtype == "float32" else 1e-12)


def test_signed_zero_and_nan_constants():
    x = lt.dvector("x")
    key = structural_key([x], [x * 0.0])[0]
    assert key != structural_key([x], [x * -0.0])[0]
    # Every NaN is the same constant; a new graph with NaN reuses the function.
    assert structural_key([x], [x + np.nan])[0] == structural_key([x], [x + float("nan")])[0]
    f = cached_function([x], [1.0 / (x * -0.0)])
    y = lt.dvector("y")
    g = cached_function([y], [1.0 / (y * 0.0)])
    assert f.function is not g.function
    data = np.array([1.0, 2.0])
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(f(data)[0], 1.0 / (data * -0.0))
        np.testing.assert_array_equal(g(data)[0], 1.0 / (data * 0.0))


def test_equal_constants_are_one_entry_however_many_objects():
    """A graph recorded again may share one constant object where its first
    recording made two equal ones (lazygraph.numpy keeps the constants of Python
    scalars per operand types): both find the same function. Numbering the
    constants by object made the second run of a program compile again."""
    x = lt.dvector("x")
    two, other_two, three = lt.constant(2.0), lt.constant(2.0), lt.constant(3.0)
    shared = structural_key([x], [(x * two) + (x * two) * three])[0]
    separate = structural_key([x], [(x * two) + (x * other_two) * three])[0]
    assert shared == separate
    # ... and constants that differ stay apart, as do the nodes they feed
    assert shared != structural_key([x], [(x * two) + (x * three) * three])[0]
    assert shared != structural_key([x], [(x * two) + (x * two) * two])[0]
    # nodes with several outputs number each output apart
    q, r = lt.split(x * two, 2)
    q2, r2 = lt.split(x * other_two, 2)
    assert structural_key([x], [q - r])[0] == structural_key([x], [q2 - r2])[0]
    assert structural_key([x], [q - r])[0] != structural_key([x], [r - q])[0]


@pytest.mark.parametrize(
    ("make1", "make2"),
    [
        (lt.exp, lt.log),
        (lambda v: lt.sum(v, axis=0), lambda v: lt.sum(v, axis=1)),
        (lambda v: lt.sum(v, axis=0), lambda v: lt.max(v, axis=0)),
        (lambda v: v + v, lambda v: v * v),
    ],
)
def test_different_ops_are_different_entries(make1, make2):
    x = lt.dmatrix("x")
    y = lt.dmatrix("y")
    assert structural_key([x], [make1(x)])[0] != structural_key([y], [make2(y)])[0]


def test_wiring_matters():
    a, b = lt.dvector("a"), lt.dvector("b")
    # Same ops and types, different wiring.
    assert structural_key([a, b], [a - b])[0] != structural_key([a, b], [a - a])[0]
    assert structural_key([a, b], [a - b, a])[0] != structural_key([a, b], [a, a - b])[0]


def test_permuted_input_creation_order():
    def build(first_a):
        if first_a:
            a = lt.dvector("a")
            b = lt.dvector("b")
        else:
            b = lt.dvector("b")
            a = lt.dvector("a")
        return a, b, lt.exp(a) - 2.0 * b

    a, b, out = build(True)
    av, bv = rng.normal(size=3), rng.normal(size=3)
    f = cached_function([a, b], [out])
    np.testing.assert_allclose(f(av, bv)[0], np.exp(av) - 2.0 * bv)
    a2, b2, out2 = build(False)
    # The caller lists the inputs in the other order: the values must still
    # reach the right places.
    g = cached_function([b2, a2], [out2])
    assert g.function is f.function
    assert stats().compiles == 1
    np.testing.assert_allclose(g(bv, av)[0], np.exp(av) - 2.0 * bv)
    np.testing.assert_allclose(g.call_trusted(bv, av)[0], np.exp(av) - 2.0 * bv)
    np.testing.assert_allclose(g.trusted_callable()(bv, av)[0], np.exp(av) - 2.0 * bv)
    # Extra values are appended to the arguments: here, a's value.
    np.testing.assert_allclose(g.trusted_callable([av])(bv)[0], np.exp(av) - 2.0 * bv)
    np.testing.assert_allclose(f.trusted_callable([bv])(av)[0], np.exp(av) - 2.0 * bv)


def test_unused_inputs_and_input_outputs():
    a, b, c = lt.dvector("a"), lt.dscalar("b"), lt.dvector("c")
    f = cached_function([a, b, c], [c, a * 2.0, lt.constant(np.arange(2.0))])
    av, bv, cv = rng.normal(size=3), np.float64(1.5), rng.normal(size=4)
    out = f(av, bv, cv)
    np.testing.assert_array_equal(out[0], cv)
    assert out[0] is not cv  # an output that is an input is a copy
    np.testing.assert_array_equal(out[1], av * 2.0)
    np.testing.assert_array_equal(out[2], np.arange(2.0))
    a2, b2, c2 = lt.dvector("a"), lt.dscalar("b"), lt.dvector("c")
    g = cached_function([b2, c2, a2], [c2, a2 * 2.0, lt.constant(np.arange(2.0))])
    assert g.function is f.function
    out = g(bv, cv, av)
    np.testing.assert_array_equal(out[0], cv)
    np.testing.assert_array_equal(out[1], av * 2.0)


def test_lru_eviction():
    with config.change(compile_cache_size=2):
        fns = []
        for c in (1.0, 2.0, 3.0):
            x = lt.dvector("x")
            fns.append(cached_function([x], [x + c]))
        s = stats()
        assert (s.size, s.evictions, s.compiles) == (2, 1, 3)
        # 1.0 was evicted (least recently used); 2.0 and 3.0 are still there.
        x = lt.dvector("x")
        assert cached_function([x], [x + 3.0]).function is fns[2].function
        x = lt.dvector("x")
        assert cached_function([x], [x + 2.0]).function is fns[1].function
        x = lt.dvector("x")
        f1 = cached_function([x], [x + 1.0])
        assert f1.function is not fns[0].function
        np.testing.assert_array_equal(f1(np.array([1.0]))[0], [2.0])
        # Re-inserting 1.0 evicted 3.0, the least recently used now.
        x = lt.dvector("x")
        assert cached_function([x], [x + 2.0]).function is fns[1].function
        x = lt.dvector("x")
        assert cached_function([x], [x + 3.0]).function is not fns[2].function
        assert stats().compiles == 5


def test_cache_size_zero_caches_nothing():
    with config.change(compile_cache_size=0):
        for _ in range(2):
            x = lt.dvector("x")
            np.testing.assert_array_equal(
                cached_function([x], [x + 1.0])(np.array([1.0]))[0], [2.0]
            )
        assert (stats().compiles, stats().size) == (2, 0)


def test_mode_and_backend_are_part_of_the_key():
    x = lt.dvector("x")
    f = cached_function([x], [lt.exp(x)])
    g = cached_function([x], [lt.exp(x)], mode=Mode(backend="python"))
    h = cached_function([x], [lt.exp(x)], mode="NO_REWRITES")
    assert g.function is not h.function
    assert (f.function is g.function) == (config.backend == "python")
    for fn in (f, g, h):
        np.testing.assert_allclose(fn(np.arange(3.0))[0], np.exp(np.arange(3.0)))


def test_long_chain_does_not_recurse():
    n = 10_000  # far beyond the default recursion limit

    def chain():
        x = lt.dvector("x")
        y = x
        for _ in range(n):
            y = lt.negative(y)
        return x, y

    x1, y1 = chain()
    x2, y2 = chain()
    k1, order = structural_key([x1], [y1])
    assert k1 == structural_key([x2], [y2])[0]
    assert order == (0,)
    assert len(k1[1]) == n + 2  # one entry per node, the input and the outputs


class _UnhashableOp(Op):
    __props__ = ("table",)

    def __init__(self, table):
        self.table = table

    def make_node(self, x):
        return Apply(self, [x], [x.type()])

    def perform(self, node, inputs, output_storage):
        output_storage[0][0] = inputs[0] + self.table[0]


@pytest.mark.filterwarnings("ignore:rewrite merge")
def test_unhashable_op_props_compile_uncached():
    x = lt.dvector("x")
    f = cached_function([x], [_UnhashableOp([1.0])(x)])
    np.testing.assert_array_equal(f(np.array([1.0, 2.0]))[0], [2.0, 3.0])
    assert stats().uncacheable == 1
    assert stats().size == 0


def test_failed_compile_is_not_cached():
    x, y = lt.dvector("x"), lt.dvector("y")
    with pytest.raises(Exception, match="y"):
        cached_function([x], [x + y])  # y is missing
    assert stats().size == 0
    with pytest.raises(Exception, match="y"):
        cached_function([x], [x + y])


def test_threads_racing_on_one_structure_compile_once(monkeypatch):
    real = cache_mod.function
    calls = []

    def slow_function(*args, **kwargs):
        calls.append(1)
        time.sleep(0.2)
        return real(*args, **kwargs)

    monkeypatch.setattr(cache_mod, "function", slow_function)
    results = [None] * 4
    barrier = threading.Barrier(4)

    def work(i):
        x = lt.dvector("x")
        barrier.wait()
        f = cached_function([x], [lt.sqrt(x) + float(1)])
        results[i] = f(np.full(2, float(i * i)))[0]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    for i, r in enumerate(results):
        np.testing.assert_array_equal(r, np.full(2, i + 1.0))


_UNARY = [lt.exp, lt.negative, lt.tanh, lt.square]
_BINARY = [lt.add, lt.subtract, lt.multiply, lt.maximum]


@st.composite
def _programs(draw):
    """A random expression over 3 inputs: a list of (kind, fn index, operands)."""
    steps = []
    for i in range(draw(st.integers(1, 8))):
        avail = 3 + i
        if draw(st.booleans()):
            steps.append(("u", draw(st.integers(0, 3)), (draw(st.integers(0, avail - 1)),)))
        else:
            ops = (draw(st.integers(0, avail - 1)), draw(st.integers(0, avail - 1)))
            steps.append(("b", draw(st.integers(0, 3)), ops))
    return steps, draw(st.permutations(range(3)))


def _run_program(steps, values, creation_order):
    made = {}
    for i in creation_order:
        made[i] = lt.dvector(f"v{i}")
    vals = [made[0], made[1], made[2]]
    for kind, k, operands in steps:
        args = [vals[j] for j in operands]
        vals.append((_UNARY if kind == "u" else _BINARY)[k](*args))
    # The caller lists the inputs in creation order.
    inputs = [made[i] for i in creation_order]
    f = cached_function(inputs, [vals[-1]])
    return f, f(*[values[i] for i in creation_order])[0]


def _numpy_program(steps, values):
    unary = [np.exp, np.negative, np.tanh, np.square]
    binary = [np.add, np.subtract, np.multiply, np.maximum]
    vals = list(values)
    for kind, k, operands in steps:
        vals.append((unary if kind == "u" else binary)[k](*[vals[j] for j in operands]))
    return vals[-1]


@settings(max_examples=30, deadline=None)
@given(_programs(), st.permutations(range(3)))
def test_random_programs_reuse_and_agree(program, second_order):
    steps, first_order = program
    clear_cache()
    values = [rng.normal(size=5) for _ in range(3)]
    with np.errstate(all="ignore"):
        want = _numpy_program(steps, values)
        f, got = _run_program(steps, values, first_order)
        np.testing.assert_allclose(got, want, rtol=1e-12)
        values2 = [rng.normal(size=5) for _ in range(3)]
        g, got2 = _run_program(steps, values2, second_order)
        np.testing.assert_allclose(got2, _numpy_program(steps, values2), rtol=1e-12)
    assert g.function is f.function
    assert stats().compiles == 1

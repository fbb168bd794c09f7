"""Blocked numpy evaluation of transcendental nodes, the measured choice between
it and the kernel, and the versioned (broadcast / plain) parallel loops; every
path against the python backend."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.numba import background, blocked, graph_function, linker
from lazygraph.backends.numba.blocked import Chooser, blocked_runner
from lazygraph.compile.mode import Mode
from lazygraph.configuration import config

pytestmark = pytest.mark.backend("numba")

NUMBA = Mode(backend="numba")
PYTHON = Mode(backend="python")


def _nodes(outputs, inputs):
    fn = lazygraph.function(inputs, outputs, mode=NUMBA)
    return fn.fgraph.toposort()


def test_only_float_nodes_with_a_transcendental_op_are_blocked():
    x = lt.dvector("x")
    i = lt.lvector("i")
    assert blocked_runner(lt.log1p(lt.sin(lt.exp(x))).owner) is not None
    assert blocked_runner((x * 2.0 + 1.0).owner) is None  # arithmetic: the kernel is faster
    assert blocked_runner(lt.exp(lt.cast(i, "complex128")).owner) is None
    assert blocked_runner(lt.sum(lt.exp(x)).owner) is None  # not elementwise


def test_in_place_nodes_write_their_input_block_by_block():
    x = lt.fmatrix("x")
    out = lt.tanh(lt.dot(x, x))  # the rewrites compute tanh in place of the product
    nodes = _nodes([out], [x])
    (node,) = [n for n in nodes if blocked_runner(n) is not None]
    assert node.op.inplace_pattern
    value = np.random.default_rng(0).standard_normal((300, 300)).astype("float32")
    product = value @ value
    buffer = product.copy()
    (got,) = blocked_runner(node)([buffer])
    assert got is buffer
    np.testing.assert_allclose(got, np.tanh(product), rtol=1e-6)


@pytest.mark.parametrize("threads", [1, 2])
@settings(max_examples=25, deadline=None)
@given(
    shape=st.sampled_from(
        [(1,), (5,), (blocked.BLOCK + 3,), (3, 7), (40000, 2), (2, 3, 4), (0, 4)]
    ),
    pattern=st.sampled_from(["same", "row", "column", "scalar"]),
    dtype=st.sampled_from(["float32", "float64"]),
    seed=st.integers(0, 2**16),
)
def test_blocked_evaluation_matches_python(threads, shape, pattern, dtype, seed):
    """Blocks along the first axis, with every broadcasting pattern of the
    second operand, NaN and inf included, on one thread or two."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-3, 3, shape).astype(dtype)
    if a.size:
        a.flat[0] = np.nan
        a.flat[-1] = np.inf
    other_shape = {
        "same": shape,
        "row": (1, *shape[1:]),
        "column": (*shape[:-1], 1) if len(shape) > 1 else (1,),
        "scalar": (),
    }[pattern]
    b = rng.uniform(0.5, 2, other_shape).astype(dtype)
    x = lt.tensor(dtype, (None,) * len(shape), name="x")
    y = lt.tensor(dtype, (None,) * len(other_shape), name="y")
    out = lt.tanh(lt.exp(x) * y) + lt.log1p(lt.abs(x))
    (node,) = [n for n in _nodes([out], [x, y]) if blocked_runner(n) is not None]
    with config.change(num_threads=threads):
        got = blocked_runner(node)([a, b])
    want = lazygraph.function([x, y], out, mode=PYTHON)(a, b)
    np.testing.assert_array_equal(got[0], want)


@pytest.mark.parametrize("threads", [1, 2])
@settings(max_examples=25, deadline=None)
@given(
    case=st.sampled_from(
        [
            ((5,), (0,)),
            ((3, 7), (1,)),
            ((3, 7), (0,)),
            ((9000, 4), (1,)),
            ((4, 9000), (1,)),
            ((2, 3, 4), (0, 2)),
            ((0, 4), (1,)),
            ((4, 0), (1,)),
        ]
    ),
    keepdims=st.booleans(),
    dtype=st.sampled_from(["float32", "float64"]),
    seed=st.integers(0, 2**16),
)
def test_logsumexp_in_blocks_matches_python(threads, case, keepdims, dtype, seed):
    """Rows in blocks, any reduced axes, NaN, +inf and all--inf rows included."""
    shape, axes = case
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(shape) * 300).astype(dtype)
    if a.size > 3:
        a.flat[rng.integers(a.size)] = np.nan
        a.flat[rng.integers(a.size)] = np.inf
        a.flat[rng.integers(a.size)] = -np.inf
    if a.ndim > 1 and a.size:
        a[0] = -np.inf
    x = lt.tensor(dtype, (None,) * len(shape), name="x")
    node = lt.logsumexp(x, axis=axes, keepdims=keepdims).owner
    with config.change(num_threads=threads):
        (got,) = blocked_runner(node)([a])
    want = lazygraph.function([x], node.outputs[0], mode=PYTHON)(a)
    assert got.shape == want.shape and got.dtype == want.dtype
    rtol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)


@pytest.mark.parametrize("threads", [1, 2])
@settings(max_examples=20, deadline=None)
@given(
    kind=st.sampled_from(["sum", "max", "prod"]),
    shape=st.sampled_from([(5, 7), (9000, 3), (3, 9000), (1, 4), (0, 4), (2, 3, 4)]),
    shift=st.sampled_from(["row", "one", "none"]),
    keepdims=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_fused_reduction_in_blocks_matches_python(threads, kind, shape, shift, keepdims, seed):
    """``kind(exp(x - m), axis=-1)`` fused, in blocks of rows: ``m`` per row, one
    value for all rows, or none; NaN included; empty inputs unblocked."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if a.size:
        a.flat[rng.integers(a.size)] = np.nan
    x = lt.tensor("float64", (None,) * len(shape), name="x")
    m_shape = {"row": (*shape[:-1], 1), "one": (1,) * len(shape), "none": ()}[shift]
    m = lt.tensor("float64", (None,) * len(m_shape), name="m")
    m_value = rng.standard_normal(m_shape)
    out = getattr(lt, kind)(lt.exp(x - m), axis=-1, keepdims=keepdims)
    fn = lazygraph.function([x, m], out, mode=NUMBA)
    (node,) = [n for n in fn.fgraph.toposort() if blocked_runner(n) is not None]
    want = lazygraph.function([x, m], out, mode=PYTHON)(a, m_value)
    with config.change(num_threads=threads):
        (got,) = blocked_runner(node)([a, m_value])
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


def test_only_float_logsumexp_reductions_are_blocked():
    x, i = lt.dmatrix("x"), lt.lmatrix("i")
    assert blocked_runner(lt.logsumexp(x, axis=1).owner) is not None
    assert blocked_runner(lt.logsumexp(i, axis=1).owner) is None
    assert blocked_runner(lt.max(x, axis=1).owner) is None


def test_chooser_tries_both_then_keeps_the_faster():
    calls = []

    def slow(values):
        calls.append("slow")
        time.sleep(0.002)
        return [values[0]]

    def fast(values):
        calls.append("fast")
        return [values[0]]

    chooser = Chooser(fast)
    for _ in range(2 * Chooser.TRIALS + 3):
        chooser.run([np.ones(4)], slow)
    assert chooser.choice == "blocked"
    assert calls[: 2 * Chooser.TRIALS] == ["slow", "fast"] * Chooser.TRIALS
    assert calls[2 * Chooser.TRIALS :] == ["fast"] * 3


def test_large_transcendental_graph_matches_python_on_both_paths(monkeypatch):
    """Through compiled functions: the first large calls alternate between the
    kernel and the blocked evaluation; every call gives the python answer."""
    monkeypatch.setattr(linker, "PARALLEL_MIN_SIZE", 64)
    x = lt.dmatrix("x")
    e = lt.exp(x - lt.max(x, axis=1, keepdims=True))
    out = e / lt.sum(e, axis=1, keepdims=True)
    value = np.random.default_rng(3).standard_normal((300, 70))
    value[4, 5] = -np.inf
    want = lazygraph.function([x], out, mode=PYTHON)(value)
    fn = lazygraph.function([x], out, mode=NUMBA)
    for _ in range(2 * Chooser.TRIALS + 2):
        np.testing.assert_allclose(fn(value), want, rtol=1e-12)


@pytest.mark.parametrize(
    "other_shape, static",
    [
        ((300, 40), (None, None)),
        ((300, 1), (None, 1)),
        ((1, 40), (1, None)),
        ((300, 1), (None, None)),
    ],
)
def test_parallel_loops_with_and_without_broadcasting(monkeypatch, other_shape, static):
    """The parallel kernels' plain loop (operands of the output's sizes) and
    broadcasting loop, with sizes fixed to 1 by the type or only at run time."""
    monkeypatch.setattr(linker, "PARALLEL_MIN_SIZE", 64)
    x = lt.dmatrix("x")
    y = lt.tensor("float64", static, name="y")
    outs = [x * y + 1.0, lt.sum(x * y, axis=1)]
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((300, 40)), rng.standard_normal(other_shape)
    want = lazygraph.function([x, y], outs, mode=PYTHON)(a, b)
    with config.change(num_threads=2):
        got = lazygraph.function([x, y], outs, mode=NUMBA)(a, b)
    for g, w in zip(got, want, strict=True):  # sums: numpy adds pairwise
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def test_large_logsumexp_matches_python_on_both_paths(monkeypatch):
    """The first large calls alternate between the row kernel and the blocks."""
    choosers = []
    run = Chooser.run

    def recording(self, values, kernel):
        choosers.append(self)
        return run(self, values, kernel)

    monkeypatch.setattr(Chooser, "run", recording)
    x = lt.dmatrix("x")
    out = lt.logsumexp(x, axis=1)
    value = np.random.default_rng(5).standard_normal((400, 90)) * 50
    value[3] = -np.inf
    value[7, 2] = np.nan
    want = lazygraph.function([x], out, mode=PYTHON)(value)
    fn = lazygraph.function([x], out, mode=NUMBA)
    for _ in range(2 * Chooser.TRIALS + 2):
        np.testing.assert_allclose(fn(value), want, rtol=1e-12)
    assert choosers and choosers[0].choice is not None
    assert all(len(t) == Chooser.TRIALS for t in choosers[0].times.values())


def test_a_graph_with_a_blocked_node_stays_a_kernel_loop(monkeypatch):
    """A graph function is Numba code and cannot call numpy: once a node has
    chosen its blocked evaluation, the graph is never promoted (and medium
    inputs, below the threads' threshold, already take part in the choice)."""
    monkeypatch.setattr(linker, "BLOCKED_MIN_SIZE", 64)
    monkeypatch.setattr(graph_function, "PROMOTE_GAIN", 0.0)  # promotion would always pay
    monkeypatch.setattr(background, "COMPILE_SECONDS", 0.0)  # at once
    monkeypatch.setattr(Chooser, "run", _always_blocked)
    x = lt.dmatrix("x")
    out = [lt.tanh(x) * 2.0 + 1.0, lt.sum(x, axis=1)]
    value = np.random.default_rng(1).standard_normal((40, 30))
    want = lazygraph.function([x], out, mode=PYTHON)(value)
    before = linker.compile_stats.graph_functions
    with config.change(numba_graph_after=2):
        fn = lazygraph.function([x], out, mode=NUMBA)
        for _ in range(6):
            for got, expected in zip(fn(value), want, strict=True):
                np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert linker.compile_stats.graph_functions == before


def _always_blocked(self, values, kernel):
    self.choice = "blocked"
    return self.blocked(values)


@settings(max_examples=25, deadline=None)
@given(
    shape=st.lists(st.integers(3, 7), min_size=2, max_size=4).map(tuple),
    n_reduced=st.integers(1, 2),
    broadcast=st.booleans(),
)
def test_parallel_fused_reductions_of_every_rank(shape, n_reduced, broadcast):
    """A multithreaded FusedReduce (an elementwise expression summed over
    trailing axes) of 2-4 dimensions, with an operand broadcast along the
    first axis or not, against the python backend. (Numba once compiled the
    rank-3 case's prange nest wrong, every row after the first.)"""
    n_reduced = min(n_reduced, len(shape) - 1)
    x = lt.tensor("float64", (None,) * len(shape), name="x")
    y = lt.tensor("float64", (None,) * len(shape), name="y")
    axes = tuple(range(len(shape) - n_reduced, len(shape)))
    outs = [lt.sum(x * x + y, axis=axes), lt.max(x * y, axis=axes), lt.exp(x) * y - 1.0]
    rng = np.random.default_rng(len(shape))
    a = rng.standard_normal(shape)
    b = rng.standard_normal((1, *shape[1:]) if broadcast else shape)
    want = lazygraph.function([x, y], outs, mode=PYTHON)(a, b)
    with pytest.MonkeyPatch.context() as mp, config.change(num_threads=2):
        mp.setattr(linker, "PARALLEL_MIN_SIZE", 8)  # every example's size is above
        got = lazygraph.function([x, y], outs, mode=NUMBA)(a, b)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)

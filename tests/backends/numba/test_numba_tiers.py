"""The numba linker's tiers and threads: kernel by kernel first, one graph
function once a graph is hot, multithreaded kernels for large inputs; every
path against the python backend."""

from __future__ import annotations

import threading

import numpy as np
import pytest

pytest.importorskip("numba")

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.numba import background, graph_function, linker
from lazygraph.compile.mode import Mode
from lazygraph.configuration import config

pytestmark = pytest.mark.backend("numba")

NUMBA = Mode(backend="numba")
PYTHON = Mode(backend="python")


def _softmaxish():
    x = lt.tensor("float64", (None, None))
    y = lt.tensor("float64", (None,))
    e = lt.exp(x - lt.max(x, axis=1, keepdims=True)) * y
    return [x, y], [e / lt.sum(e, axis=1, keepdims=True), lt.sum(lt.sin(x), axis=1)]


def _values(rng, rows=5, cols=7):
    x = rng.standard_normal((rows, cols))
    x[0, 0] = np.nan
    x[-1, 1] = -np.inf
    return [x, rng.uniform(0.5, 2.0, cols)]


def _check(got, want):
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=0)


def test_graph_function_is_compiled_only_once_hot(monkeypatch):
    monkeypatch.setattr(graph_function, "PROMOTE_GAIN", 0.0)  # always worth it
    monkeypatch.setattr(background, "COMPILE_SECONDS", 0.0)  # and repaid at once
    inputs, outputs = _softmaxish()
    rng = np.random.default_rng(0)
    with config.change(numba_graph_after=3):
        f = lazygraph.function(inputs, outputs, mode=NUMBA)
        want = lazygraph.function(inputs, outputs, mode=PYTHON)
        before = linker.compile_stats.graph_functions
        for call in range(6):
            vals = _values(rng, rows=2 + call)
            _check(f(*vals), want(*vals))
            promoted = linker.compile_stats.graph_functions - before
            assert promoted == (1 if call >= 3 else 0), call


def test_graph_function_waits_until_the_loop_has_cost_a_compile(monkeypatch):
    # the ski-rental rule: the loop's cost so far (calls timed x nodes x the
    # per-node cost) must reach the price of a compile
    monkeypatch.setattr(graph_function, "PROMOTE_GAIN", 0.0)
    monkeypatch.setattr(graph_function, "LOOP_COST_PER_NODE", 1e-3)
    monkeypatch.setattr(background, "COMPILE_SECONDS", 0.05)
    inputs, outputs = _softmaxish()
    rng = np.random.default_rng(7)
    with config.change(numba_graph_after=3):
        f = lazygraph.function(inputs, outputs, mode=NUMBA)
        want = lazygraph.function(inputs, outputs, mode=PYTHON)
        nodes = len(f.fn._nodes)
        repaid_at = 2 + -(-50 // nodes)  # the first call with (call - 2) * nodes ms >= 50 ms
        before = linker.compile_stats.graph_functions
        for call in range(1, repaid_at + 3):
            vals = _values(rng)
            _check(f(*vals), want(*vals))
            promoted = linker.compile_stats.graph_functions - before
            assert promoted == (1 if call >= max(repaid_at, 4) else 0), (call, nodes)


def test_graph_function_is_not_built_when_kernels_dominate(monkeypatch):
    monkeypatch.setattr(graph_function, "LOOP_COST_PER_NODE", 0.0)  # the loop costs nothing
    inputs, outputs = _softmaxish()
    rng = np.random.default_rng(4)
    with config.change(numba_graph_after=2):
        f = lazygraph.function(inputs, outputs, mode=NUMBA)
        want = lazygraph.function(inputs, outputs, mode=PYTHON)
        before = linker.compile_stats.graph_functions
        for _ in range(5):
            vals = _values(rng)
            _check(f(*vals), want(*vals))
        assert linker.compile_stats.graph_functions == before


def test_graph_after_zero_compiles_at_the_first_call():
    inputs, outputs = _softmaxish()
    with config.change(numba_graph_after=0):
        f = lazygraph.function(inputs, outputs, mode=NUMBA)
        before = linker.compile_stats.graph_functions
        vals = _values(np.random.default_rng(1))
        _check(f(*vals), lazygraph.function(inputs, outputs, mode=PYTHON)(*vals))
        assert linker.compile_stats.graph_functions == before + 1


def _numpy_nodes():
    # reshape, transpose, slicing, concatenate, arange, alloc, sort, searchsorted
    x = lt.tensor("float64", (None, None))
    n = lt.tensor("int64", ())
    moved = lt.concatenate([x.T[::-1], x.T[:1] * 2.0], axis=0).reshape((-1,))
    made = lt.arange(n) + lt.zeros((3, 1))
    ordered = lt.sort(moved)
    return [x, n], [moved, made, moved.shape[0] + n, lt.searchsorted(ordered, moved * 0.5)]


@pytest.mark.parametrize("interpret", [True, False])
@pytest.mark.parametrize("graph_after", [0, 1000])
def test_numpy_nodes_run_with_numpy_until_a_graph_function(interpret, graph_after):
    inputs, outputs = _numpy_nodes()
    x, n = np.random.default_rng(2).standard_normal((4, 3)), np.asarray(5)
    want = lazygraph.function(inputs, outputs, mode=PYTHON)(x, n)
    with config.change(numba_prefer_numpy=interpret, numba_graph_after=graph_after):
        before = linker.compile_stats.graph_functions
        f = lazygraph.function(inputs, outputs, mode=NUMBA)
        for _ in range(2):
            _check(f(x, n), want)
        # graph_after=0: one graph function, compiling every kernel it calls
        assert linker.compile_stats.graph_functions == before + (graph_after == 0)
        nodes = [n for n in f.fgraph.toposort() if isinstance(n.op, linker.numpy_ops())]
        assert len(nodes) >= 6
        for node in nodes:
            assert (linker._kernel_for(node).interpreted is not None) == interpret


@pytest.mark.parametrize("graph_after", [0, 1000])
def test_large_inputs_run_multithreaded_kernels(monkeypatch, graph_after):
    # A small threshold keeps the arrays small; the kernels are the same.
    monkeypatch.setattr(linker, "PARALLEL_MIN_SIZE", 16)
    inputs, outputs = _softmaxish()
    rng = np.random.default_rng(2)
    with config.change(numba_graph_after=graph_after, num_threads=2):
        f = lazygraph.function(inputs, outputs, mode=NUMBA)
        want = lazygraph.function(inputs, outputs, mode=PYTHON)
        before = linker.compile_stats.parallel_kernels
        for rows in (3, 40, 1):  # 21 elements, 280, 7 (below the threshold)
            vals = _values(rng, rows=rows)
            _check(f(*vals), want(*vals))
    assert linker.compile_stats.parallel_kernels > before


def test_single_node_parallel_matches_serial(monkeypatch):
    monkeypatch.setattr(linker, "PARALLEL_MIN_SIZE", 8)
    x = lt.tensor("int32", (None, None))
    y = lt.tensor("int32", (None,))
    out = lt.floor_divide(x, y)
    f = lazygraph.function([x, y], out, mode=NUMBA)
    info = np.iinfo(np.int32)
    xv = np.array([[info.min, -7, 7, 0], [5, info.max, -1, 3]], np.int32)
    yv = np.array([-1, 0, -2, 3], np.int32)
    with config.change(num_threads=2):
        got = f(xv, yv)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, np.floor_divide(xv, yv))


def test_one_thread_never_builds_parallel_kernels(monkeypatch):
    monkeypatch.setattr(linker, "PARALLEL_MIN_SIZE", 1)
    x = lt.tensor("float64", (None,))
    f = lazygraph.function([x], lt.cosh(x) * 3.0 - 1.0, mode=NUMBA)
    before = linker.compile_stats.parallel_kernels
    with config.change(num_threads=1):
        got = f(np.linspace(-2, 2, 11))
    np.testing.assert_allclose(got, np.cosh(np.linspace(-2, 2, 11)) * 3.0 - 1.0, rtol=1e-15)
    assert linker.compile_stats.parallel_kernels == before


def test_threads_sharing_the_parallel_gate(monkeypatch):
    # Four Python threads call large graphs at once: one holds the gate and
    # runs multithreaded kernels, the others run serial ones; all results exact.
    monkeypatch.setattr(linker, "PARALLEL_MIN_SIZE", 16)
    inputs, outputs = _softmaxish()
    f = lazygraph.function(inputs, outputs, mode=NUMBA)
    want = lazygraph.function(inputs, outputs, mode=PYTHON)
    rng = np.random.default_rng(3)
    cases = [_values(rng, rows=30 + k) for k in range(8)]
    expected = [want(*c) for c in cases]
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for _ in range(5):
                for c, e in zip(cases[k::4], expected[k::4], strict=True):
                    _check(f(*c), e)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    with config.change(num_threads=2, numba_graph_after=2):
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    assert not errors, errors


@pytest.mark.parametrize("kind", ["sum", "mean", "max", "var", "std", "logsumexp", "prod"])
@pytest.mark.parametrize("axis", [1, (1, 2), 0])
def test_reductions_multithreaded_match_python(monkeypatch, kind, axis):
    # Every reduction kind, over trailing axes (multithreaded) and a leading one
    # (serial), with NaN and inf in some rows: equal to the python backend.
    monkeypatch.setattr(linker, "PARALLEL_MIN_SIZE", 8)
    x = lt.tensor("float64", (None, None, None))
    fn = getattr(lt, kind)
    out = fn(x, axis=axis)
    rng = np.random.default_rng(5)
    xv = rng.standard_normal((6, 5, 4))
    xv[1, 2, 3] = np.nan
    xv[2, 0, 0] = np.inf
    xv[3] = -np.inf
    with config.change(num_threads=2):
        got = lazygraph.function([x], out, mode=NUMBA)(xv)
    want = lazygraph.function([x], out, mode=PYTHON)(xv)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)

"""Dask arrays given to lazygraph.numpy on the dask backend stay dask arrays
(graph inputs bound to them, never gathered), and ``lazygraph.persist``: results
against numpy on chunks that do not divide the arrays, the inputs' own chunks
kept, unknown chunk sizes, the eager lanes kept off them, and the other
backends gathering them as numpy does."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("dask")
pytest.importorskip("numba")

import dask.array as da

import lazygraph
import lazygraph.numpy as lnp
from lazygraph import config
from lazygraph.numpy._convert import BoundVariable, DistributedVariable

pytestmark = [
    pytest.mark.filterwarnings("error::lazygraph.backends.dask.dispatch.DaskFallbackWarning"),
    pytest.mark.filterwarnings("ignore:Cannot cache compiled function"),
]

RNG = np.random.default_rng(1)
A = RNG.normal(size=(7, 5))
A[2, 3] = np.nan
A[4, 1] = -0.0
V = RNG.normal(size=5)


@pytest.fixture
def on_dask():
    with config.change(backend="dask"):
        yield


@pytest.fixture
def no_gather(monkeypatch):
    """Gathering a dask array into numpy (``np.asarray``) raises: whatever
    passes computed only through dask."""

    def refuse(self, *args, **kwargs):
        raise AssertionError("a dask array was gathered with np.asarray")

    monkeypatch.setattr(da.Array, "__array__", refuse)


GRAPHS = {
    "elementwise": (lambda x, v: lnp.exp(-x * x) * v + lnp.where(x > 0, x, 2.0 * v)),
    "reduction": (lambda x, v: lnp.sum(x * v, axis=0) + lnp.nanmax(x, axis=1).sum()),
    "mean and var": (lambda x, v: lnp.stack([lnp.mean(x, axis=1), lnp.var(x, axis=1)])),
    "basic indexing": (lambda x, v: x[1:6:2, ::-1].T * v[::-1, None]),
    "integer indexing": (lambda x, v: x[np.array([4, 0, 6, 0])] + v),
    "matmul": (lambda x, v: lnp.nan_to_num(x) @ v),
}


@pytest.mark.parametrize("graph", GRAPHS.values(), ids=GRAPHS.keys())
def test_results_equal_numpy(graph, on_dask, no_gather):
    # chunks of 3 x 2 and 2: neither divides (7, 5) or 5
    x, v = lnp.asarray(da.from_array(A, chunks=(3, 2))), lnp.asarray(da.from_array(V, chunks=2))
    assert type(x._var) is DistributedVariable and x.shape == A.shape and x.dtype == A.dtype
    with np.errstate(all="ignore"):
        want = graph(A, V)
    got = graph(x, v).compute()
    assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


def test_operators_and_functions_take_dask_operands(on_dask, no_gather):
    d = da.from_array(V, chunks=2)
    x = lnp.asarray(np.arange(5.0))
    for got in (d + x, x - d, lnp.multiply(d, x), d * 2.0 + x):
        assert isinstance(got, lnp.ndarray)
    np.testing.assert_array_equal((x - d).compute(), np.arange(5.0) - V)
    np.testing.assert_array_equal(lnp.multiply(d, x).compute(), V * np.arange(5.0))
    np.testing.assert_array_equal((d * 2.0 + x).compute(), V * 2.0 + np.arange(5.0))


def test_the_inputs_own_chunks_are_kept(on_dask):
    # a gathered input would be cut into dask_chunk_size chunks: one chunk here
    d = da.from_array(A, chunks=(3, 2))
    with config.change(dask_chunk_size=1 << 20):
        (y,) = lnp.persist(lnp.sin(lnp.asarray(d)) * 2.0)
    value = y._var.bound
    assert isinstance(value, da.Array) and value.chunks == ((3, 3, 1), (2, 2, 1))
    np.testing.assert_array_equal(y.compute(), np.sin(A) * 2.0)


def test_eager_lanes_leave_dask_inputs_to_the_graph(on_dask, no_gather):
    """Small arrays of known values are computed at once with numpy; a dask
    input never is: every operation records a node, and reading a value goes
    through the compute path."""
    with config.change(eager_max_elements=4096):
        x = lnp.asarray(da.from_array(V, chunks=2))
        for y in (x * 2.0, x + x, lnp.exp(x), x[1:3], x[::-1], lnp.sum(x), x.reshape(5, 1)):
            assert y._var.owner is not None
        assert x[1]._var.owner is not None  # (an element of a known value is numpy's)
        assert float(x[1]) == V[1]
        assert float(lnp.sum(x * 2.0)) == pytest.approx(2.0 * V.sum(), rel=1e-14)
        assert str(x) == str(V) and x.tolist() == V.tolist() and len(x) == 5
        np.testing.assert_array_equal(x.compute(), V)
        x[0] = 7.0  # item assignment records a node too
        np.testing.assert_array_equal(x.compute(), np.r_[7.0, V[1:]])


def test_zero_d_empty_and_converted_dtypes(on_dask, no_gather):
    s = lnp.asarray(da.from_array(np.array(2.5)))
    assert s.shape == () and float(s * 2.0) == 5.0
    e = lnp.asarray(da.zeros((0, 3), chunks=2))
    np.testing.assert_array_equal((e + 1.0).sum(axis=0).compute(), np.zeros(3))
    big_endian = np.arange(5.0, dtype=">f8")
    b = lnp.asarray(da.from_array(big_endian, chunks=2))
    assert b.dtype == np.float64  # converted as numpy data is
    np.testing.assert_array_equal((b + 1.0).compute(), big_endian + 1.0)
    a = lnp.array(da.from_array(np.arange(6), chunks=4), dtype="float32", ndmin=2)
    assert a.shape == (1, 6) and a.compute().dtype == np.float32
    with pytest.raises(TypeError, match="float16"):
        lnp.asarray(da.from_array(np.ones(3, dtype=np.float16)))
    with pytest.raises(TypeError, match="object"):
        lnp.asarray(da.from_array(np.array([None, 1], dtype=object), chunks=1))


def test_unknown_chunk_sizes(on_dask):
    d = da.from_array(A, chunks=(3, 2))
    masked = d[d > 0]  # chunk sizes unknown (nan)
    x = lnp.asarray(masked)
    assert np.isnan(masked.shape[0])  # the caller's array is left as it was
    want = A[A > 0]
    assert x.shape == want.shape
    np.testing.assert_allclose(lnp.cumsum(x * 2.0).compute(), np.cumsum(want * 2.0), rtol=1e-12)


def test_values_on_the_way_stay_lazy(on_dask):
    """Over a dask input only the arrays asked for are computed: an intermediate
    a Python name holds is not brought to the client (over numpy it would be)."""
    x = lnp.asarray(da.from_array(A, chunks=(3, 2)))
    y = x * 2.0
    s = lnp.nansum(y)
    assert float(s) == pytest.approx(np.nansum(A * 2.0), rel=1e-12)
    assert y._var.owner is not None and s._var.owner is None
    with config.change(eager_max_elements=0):
        m = lnp.asarray(A) * 2.0
        float(lnp.nansum(m))
    assert m._var.owner is None  # (pinned: today's behaviour over numpy data)


def test_persist_keeps_dask_arrays(on_dask):
    calls = []

    def counted(block):
        calls.append(block.shape)
        return block + 1.0

    # (meta given: dask calls the function on no block to learn it)
    d = da.from_array(A, chunks=(3, 2)).map_blocks(counted, meta=np.empty((0, 0)))
    x = lnp.asarray(d)
    y, z, k = lazygraph.persist(x * 2.0, lnp.nansum(x, axis=0), 3)
    assert k == 3 and len(calls) == 9  # one call per chunk
    for arr in (y, z):
        assert arr._var.owner is None and type(arr._var) is DistributedVariable
        assert isinstance(arr._var.bound, da.Array)
    np.testing.assert_allclose(((y + 1.0) * z).compute(), ((A + 1) * 2 + 1) * np.nansum(A + 1, 0))
    np.testing.assert_allclose(y.compute(), (A + 1) * 2, equal_nan=True)
    assert len(calls) == 9  # later computations read the persisted chunks


def test_persist_on_a_client(on_dask):
    from dask.distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster,
        Client(cluster),
    ):
        x = lnp.asarray(da.from_array(V, chunks=2))
        (p,) = lnp.persist(lnp.sin(x) * 2.0)
        assert isinstance(p._var.bound, da.Array)
        np.testing.assert_allclose((p + 1.0).compute(), np.sin(V) * 2.0 + 1.0, rtol=1e-14)


def test_persist_of_numpy_values_on_dask(on_dask):
    x = lnp.asarray(A)
    (y,) = lnp.persist(x)
    assert isinstance(y._var.bound, da.Array)
    np.testing.assert_array_equal(y.compute(), A)


def test_persist_on_the_python_backend_is_compute():
    with config.change(backend="python"):
        x = lnp.asarray(A)
        y = lnp.nan_to_num(x) @ V + 1.0
        assert lnp.persist(y)[0] is y
        assert type(y._var) is BoundVariable
        np.testing.assert_array_equal(y._var.bound, np.nan_to_num(A) @ V + 1.0)
        assert not y._var.bound.flags.writeable  # pinned, not copied for the caller
        np.testing.assert_array_equal((y * 2.0).compute(), (np.nan_to_num(A) @ V + 1.0) * 2.0)


def test_other_backends_gather_dask_arrays():
    d = da.from_array(A, chunks=(3, 2))
    with config.change(backend="python"):
        x = lnp.asarray(d)
        assert type(x._var) is BoundVariable and isinstance(x._var.bound, np.ndarray)
        np.testing.assert_array_equal(x.compute(), A)
        np.testing.assert_array_equal((x + d).compute(), A + A)
    with config.change(backend="dask"):
        kept = lnp.asarray(d)
        doubled = kept * 2.0
    with config.change(backend="python"):  # bound on dask, computed elsewhere: gathered
        np.testing.assert_array_equal(doubled.compute(), A * 2.0)
        assert lnp.persist(kept)[0] is kept
        assert type(kept._var) is BoundVariable  # now holding its numpy value
        np.testing.assert_array_equal(kept._var.bound, A)


@pytest.mark.parametrize("backend", ["dask", "python"])
def test_numpy_ufuncs_with_a_dask_and_a_lazy_operand(backend):
    """``np.add(d, lazy)``: dask defers to the lazy array, which takes the dask
    operand as an operator does (lazy on dask, gathered elsewhere)."""
    d = da.from_array(A, chunks=(3, 2))
    x = lnp.asarray(np.arange(5.0))
    with config.change(backend=backend):
        for got in (np.add(d, x), np.multiply(x, d)):
            assert isinstance(got, lnp.Array)
        np.testing.assert_array_equal(np.asarray(np.add(d, x)), A + np.arange(5.0))
        np.testing.assert_array_equal(np.asarray(np.multiply(x, d)), np.arange(5.0) * A)

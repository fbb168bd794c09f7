"""numpy code sees ints where it reads sizes: ``shape``, ``size``, ``len()``,
``ndim``, ``operator.index`` and ``range`` of a lazy 0-d integer, and lazy
integers given as sizes to the creation and manipulation functions.

A size that depends on the data (a boolean mask, ``nonzero``, ``unique``) is
computed when asked for, and only it where the ops give it (the count of a
mask, not the masked elements); a lazy size argument is computed to its int, so
the result's shape is static. Inside a function being traced there is no value
to compute: those sizes stay unknown (``None``) and lazy.

Every check compares with numpy on the same data, eagerly (small known values
computed at once) and as graphs (``eager_max_elements=0``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.compile.cache import stats
from lazygraph.numpy._printing import summary
from tests.numpy_api.namespace_harness import check
from tests.tensor.harness import arrays, assert_numpy_equal, shapes


@pytest.fixture(params=["eager", "graph"])
def mode(request: pytest.FixtureRequest) -> Iterator[str]:
    """Both ways of running: small known values at once, or every op a node."""
    limit = lazygraph.config.eager_max_elements if request.param == "eager" else 0
    with lazygraph.config.change(eager_max_elements=limit):
        yield request.param


def lazy_int(n: int) -> lnp.Array:
    """``n`` as a lazy 0-d int64 array computed from data (a node, in graph mode)."""
    return lnp.sum(lnp.asarray(np.ones(n, dtype=np.int64)))


def is_int_tuple(shape: Any) -> bool:
    return type(shape) is tuple and all(type(s) is int for s in shape)


# -- the cases ---------------------------------------------------------------


def test_a_lazy_integer_as_sizes_gives_a_static_shape(mode: str) -> None:
    n = lnp.floor(1 + 4 / 2).astype(int)  # numpy's scalar: Python scalars only
    assert lnp.zeros((2, n, n, 3)).shape == (2, 3, 3, 3)
    lazy = lnp.floor(lnp.asarray(np.float64(3.7))).astype(int)
    assert isinstance(lazy, lnp.Array)
    z = lnp.zeros((2, lazy, lazy, 3))
    assert z._static_shape == (2, 3, 3, 3) and is_int_tuple(z.shape)
    np.testing.assert_array_equal(z.compute(), np.zeros((2, 3, 3, 3)))


@settings(max_examples=25, deadline=None)
@given(x=arrays("float64", shapes(max_dims=3), finite=True, min_value=0, max_value=1))
def test_sizes_after_a_boolean_mask_are_numpys_ints(x: np.ndarray) -> None:
    for limit in (lazygraph.config.eager_max_elements, 0):
        with lazygraph.config.change(eager_max_elements=limit):
            z = lnp.asarray(x)
            kept = x[x > 0.5]
            m = z[z > 0.5]
            assert m.shape == kept.shape and is_int_tuple(m.shape)
            assert type(m.size) is int and m.size == kept.size
            assert m.ndim == kept.ndim == 1
            assert len(m) == len(kept)
            assert m.nbytes == kept.nbytes
            zeros = lnp.zeros(m.size)
            assert zeros._static_shape == (kept.size,)
            np.testing.assert_array_equal(zeros.compute(), np.zeros(kept.size))
            np.testing.assert_array_equal(m.compute(), kept)


def test_the_shape_of_a_mask_result_computes_the_count_not_the_elements() -> None:
    with lazygraph.config.change(eager_max_elements=0):
        x = lnp.asarray(np.arange(-3.0, 7.0))
        y = (x * 2)[x > 0]
        assert y.shape == (6,)
        # the masked elements were not computed: y is still a node of unknown size
        assert y._cur.owner is not None and y._static_shape == (None,)
        np.testing.assert_array_equal(y.compute(), np.arange(1.0, 7.0) * 2)


@settings(max_examples=25, deadline=None)
@given(x=arrays("int8", shapes(min_dims=1, max_dims=2), min_value=-2, max_value=2))
def test_sizes_of_nonzero_unique_and_repeat_are_numpys(x: np.ndarray) -> None:
    for limit in (lazygraph.config.eager_max_elements, 0):
        with lazygraph.config.change(eager_max_elements=limit):
            z = lnp.asarray(x)
            got = [
                *lnp.nonzero(z),
                lnp.unique(z),
                *lnp.unique(z, return_counts=True),
                lnp.flatnonzero(z),
                lnp.repeat(z.ravel(), lnp.abs(z.ravel())),
                z[z > 0][1:],
            ]
            expected = [
                *np.nonzero(x),
                np.unique(x),
                *np.unique(x, return_counts=True),
                np.flatnonzero(x),
                np.repeat(x.ravel(), np.abs(x.ravel())),
                x[x > 0][1:],
            ]
            for g, e in zip(got, expected, strict=True):
                assert g.shape == e.shape and is_int_tuple(g.shape)
                assert g.size == e.size and len(g) == len(e)
                assert_numpy_equal(g.compute(), e)


def test_index_len_range_of_lazy_integers(mode: str) -> None:
    n = lazy_int(4)
    assert operator.index(n) == 4 and type(operator.index(n)) is int
    assert list(range(n)) == [0, 1, 2, 3]
    assert [10, 20, 30, 40, 50][n] == 50
    x = lnp.asarray(np.arange(5.0))
    assert len(x[x > lnp.mean(x)]) == 2
    assert n.shape == () and n.ndim == 0 and n.size == 1
    for bad in (lnp.asarray(np.float64(2.0)), lnp.asarray(np.True_), lnp.asarray(np.arange(2))):
        with pytest.raises(TypeError):
            operator.index(bad)
        with pytest.raises(TypeError):
            operator.index(np.asarray(bad.compute()))  # (numpy refuses it too)


# -- lazy sizes given to functions ---------------------------------------------------

#: (name, call): ``call(xp, n)`` gives a size ``n`` (3 here) to a function of the
#: namespace ``xp`` (numpy, or lazygraph.numpy with a lazy ``n``) where numpy
#: takes an int
SIZE_CALLS: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("zeros", lambda xp, n: xp.zeros(n)),
    ("zeros tuple", lambda xp, n: xp.zeros((2, n), dtype=np.int32)),
    ("ones", lambda xp, n: xp.ones((n, 1))),
    ("empty", lambda xp, n: xp.empty([n, n]).shape),
    ("full", lambda xp, n: xp.full((n,), 7)),
    ("zeros_like", lambda xp, n: xp.zeros_like(np.ones(2), shape=(n,))),
    ("full_like", lambda xp, n: xp.full_like(np.ones(2), 5, shape=n)),
    ("arange", lambda xp, n: xp.arange(n)),
    ("arange start stop", lambda xp, n: xp.arange(1, n + 4)),
    ("arange step", lambda xp, n: xp.arange(0, 10, n)),
    ("arange float", lambda xp, n: xp.arange(n / 2)),
    ("linspace", lambda xp, n: xp.linspace(0, 1, n)),
    ("logspace", lambda xp, n: xp.logspace(0, 2, n)),
    ("eye", lambda xp, n: xp.eye(n)),
    ("eye N M", lambda xp, n: xp.eye(2, n, k=1)),
    ("identity", lambda xp, n: xp.identity(n, dtype=int)),
    ("tri", lambda xp, n: xp.tri(n, n + 1)),
    ("reshape", lambda xp, n: xp.reshape(np.arange(6), (n, -1))),
    ("reshape one", lambda xp, n: xp.reshape(np.arange(3), n)),
    ("reshape method", lambda xp, n: xp.arange(6).reshape(n, 2)),
    ("reshape method one", lambda xp, n: xp.arange(3).reshape(n)),
    ("reshape method tuple", lambda xp, n: xp.arange(6).reshape((2, n))),
    ("tile", lambda xp, n: xp.tile(np.arange(2), n)),
    ("tile tuple", lambda xp, n: xp.tile(np.arange(2), (n, 2))),
    ("repeat", lambda xp, n: xp.repeat(np.arange(2), n)),
    ("repeat axis", lambda xp, n: xp.repeat(np.ones((2, 2)), n, axis=1)),
    ("broadcast_to", lambda xp, n: xp.broadcast_to(np.arange(1), (2, n))),
]


@pytest.mark.parametrize(("name", "call"), SIZE_CALLS, ids=[c[0] for c in SIZE_CALLS])
def test_lazy_sizes_become_ints(mode: str, name: str, call: Callable[[Any, Any], Any]) -> None:
    """Each function given a lazy 0-d integer where numpy takes a size: the
    result's shape is static (known when the graph is built) and its values
    numpy's."""
    got, expected = call(lnp, lazy_int(3)), call(np, 3)
    if isinstance(expected, tuple):  # (empty: only its shape is defined)
        assert got == expected and is_int_tuple(got)
        return
    assert isinstance(got, lnp.Array)
    assert got._static_shape == expected.shape
    assert_numpy_equal(got.compute(), expected)


def test_random_sizes_may_be_lazy(mode: str) -> None:
    n = lazy_int(3)
    assert lnp.random.default_rng(0).normal(size=(n, 2)).shape == (3, 2)
    assert lnp.random.default_rng(0).integers(0, 5, size=n).shape == (3,)
    assert lnp.random.rand(n, 2).shape == (3, 2)
    got = lnp.random.default_rng(7).random(size=n).compute()
    np.testing.assert_array_equal(got, np.random.default_rng(7).random(size=3))


def test_lazy_size_arrays_are_read_as_numpy_reads_them(mode: str) -> None:
    sizes = lnp.asarray(np.array([2, 3])) + 0
    assert lnp.zeros(sizes)._static_shape == (2, 3)
    assert lnp.arange(6).reshape(sizes)._static_shape == (2, 3)
    assert lnp.tile(np.arange(2), sizes)._static_shape == (2, 6)
    assert lnp.broadcast_to(1.0, sizes)._static_shape == (2, 3)
    np.testing.assert_array_equal(
        lnp.tile(np.arange(2), sizes).compute(), np.tile(np.arange(2), [2, 3])
    )


BAD_SIZES = [
    ("float", lambda: np.float64(3.0)),
    ("bool", lambda: np.True_),
    ("2-d", lambda: np.array([[2]])),
    ("negative", lambda: np.int64(-1)),
]
BAD_SIZE_CALLS: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("zeros", lambda xp, n: xp.zeros(n)),
    ("zeros tuple", lambda xp, n: xp.zeros((2, n))),
    ("eye", lambda xp, n: xp.eye(n)),
    ("linspace", lambda xp, n: xp.linspace(0, 1, n)),
    ("reshape", lambda xp, n: xp.arange(6).reshape(n, -1)),
]


@pytest.mark.parametrize(("kind", "make"), BAD_SIZES, ids=[b[0] for b in BAD_SIZES])
@pytest.mark.parametrize(("name", "call"), BAD_SIZE_CALLS, ids=[c[0] for c in BAD_SIZE_CALLS])
def test_bad_lazy_sizes_raise_numpys_errors(
    mode: str, kind: str, make: Callable[[], Any], name: str, call: Callable[[Any, Any], Any]
) -> None:
    """A lazy size that numpy would refuse as a size (not an integer, not 0-d,
    negative): numpy's error type."""
    value = make()
    lazy = lnp.asarray(value) + (0 if value.dtype.kind != "b" else False)
    check(lambda v: call(lnp, lazy), lambda v: call(np, v), value)


# -- where nothing can be computed: a function being traced ----------------------------


def test_sizes_stay_lazy_inside_a_traced_function() -> None:
    seen: list[Any] = []

    def f(x: Any) -> Any:
        kept = x[x > 0]
        seen.append(kept.shape)  # no value while tracing: unknown
        return lnp.zeros(lnp.sum(x > 0)), kept * 2

    g = lazygraph.jit(f)
    for data in (np.array([1.0, -1.0, 2.0]), np.array([-1.0, -1.0, 3.0])):
        zeros, doubled = g(data)
        np.testing.assert_array_equal(zeros, np.zeros((data > 0).sum()))
        np.testing.assert_array_equal(doubled, data[data > 0] * 2)
    assert seen == [(None,)]
    assert g.trace_count == 1  # one graph for every count


def test_the_summary_and_static_shape_compute_nothing() -> None:
    with lazygraph.config.change(eager_max_elements=0):
        x = lnp.asarray(np.arange(10.0))
        m = x[x > 3]
        before = stats().compiles
        assert summary(m) == "Array(shape=(None,), dtype=float64, lazy)"
        assert m._static_shape == (None,)
        assert stats().compiles == before
        assert m.shape == (6,)

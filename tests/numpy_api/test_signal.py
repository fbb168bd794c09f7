"""``convolve``, ``correlate``, ``histogram``, ``histogram_bin_edges`` and
``bincount`` against numpy (the oracle) on random inputs, and ``verify_grad``
through the differentiable ones."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.gradient import verify_grad
from tests.numpy_api.namespace_harness import check, materialize
from tests.tensor.harness import BACKEND, arrays, elements

EXAMPLES = 30
SIGNAL_DTYPES = ("bool", "int8", "int64", "uint8", "float32", "float64", "complex128")
MODES = ("full", "same", "valid", 0, 1, 2)


def _rtol(*xs: np.ndarray) -> float | None:
    kinds = {np.asarray(x).dtype for x in xs}
    if np.dtype("float32") in kinds:
        return 1e-4
    return 1e-9 if any(k.kind in "fc" for k in kinds) else None


def _values(dtype: str) -> st.SearchStrategy[Any]:
    """Integers over their whole range (products and sums wrap as in numpy);
    floats bounded (so no sum overflows, where numpy's order of summation would
    decide between inf and a number) plus NaN, inf and -0.0 (real dtypes)."""
    dt = np.dtype(dtype)
    if dt.kind in "biu":
        return elements(dtype)
    width = 32 if dt == np.float32 else 64
    special = st.sampled_from([np.nan, np.inf, -np.inf, -0.0])
    bounded = st.floats(-1e3, 1e3, width=width)
    if dt.kind == "c":  # complex inf * z is NaN or inf by the multiply's algorithm
        return st.builds(complex, bounded, bounded)
    return st.one_of(bounded, special)


def _signal(length: st.SearchStrategy[int]) -> st.SearchStrategy[np.ndarray]:
    return st.tuples(st.sampled_from(SIGNAL_DTYPES), length).flatmap(
        lambda dn: hnp.arrays(np.dtype(dn[0]), (dn[1],), elements=_values(dn[0]))
    )


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    a=_signal(st.integers(0, 9)),
    v=_signal(st.integers(0, 9)),
    mode=st.sampled_from(MODES),
    swap=st.booleans(),
)
def test_convolve_correlate(a: np.ndarray, v: np.ndarray, mode: Any, swap: bool) -> None:
    if swap:
        a, v = v, a
    if np.iscomplexobj(a) or np.iscomplexobj(v):  # real inf * complex: as above
        a, v = (np.where(np.isfinite(x), x, 0).astype(x.dtype) for x in (a, v))
    # rounding differs from numpy's loop order for floats; integers wrap exactly
    rtol = _rtol(a, v)
    check(lnp.convolve, np.convolve, a, v, mode, rtol=rtol, signed_zeros=False)
    check(lnp.correlate, np.correlate, a, v, mode, rtol=rtol, signed_zeros=False)


@pytest.mark.parametrize(
    ("a", "v"),
    [
        (2.0, [1.0, -1.0]),  # 0-d: numpy treats it as length 1
        ([1, 2, 3], 3),
        (np.ones((2, 2)), [1.0]),  # too deep: ValueError
        ([1.0], np.ones((2, 2))),
        ([], [1.0]),
        ([1.0], []),
        ([1.0, 2.0], [1.0, 2.0, 3.0, 4.0]),
        (np.array([100, 100], np.int8), np.array([100, 1], np.int8)),  # wraps
        ([1 + 2j, 3j], [1j, 2.0, -1.0]),
    ],
)
@pytest.mark.parametrize("mode", ["full", "same", "valid", "middle"])
def test_convolve_correlate_edges(a: Any, v: Any, mode: str) -> None:
    check(lnp.convolve, np.convolve, a, v, mode, signed_zeros=False)
    check(lnp.correlate, np.correlate, a, v, mode, signed_zeros=False)


def test_convolve_grad() -> None:
    rng = np.random.default_rng(0)
    a, v = rng.normal(size=7), rng.normal(size=3)
    for mode in ("full", "same", "valid"):
        verify_grad(lambda x, y, mode=mode: lnp.convolve(x, y, mode)._var, [a, v])
        verify_grad(lambda x, y, mode=mode: lnp.correlate(y, x, mode)._var, [a, v])


HIST_DTYPES = ("int8", "int64", "uint8", "float32", "float64")


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_histogram(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(HIST_DTYPES))
    shape = data.draw(st.sampled_from([(0,), (1,), (7,), (3, 4), (2, 0)]))
    # few distinct values, so many fall on the edges
    a = data.draw(arrays(dtype, shape, finite=True, min_value=-3, max_value=3))
    kind = data.draw(st.sampled_from(["count", "range", "edges", "nan"]))
    kwargs: dict[str, Any] = {}
    if kind == "count":
        kwargs["bins"] = data.draw(st.integers(1, 6))
    elif kind == "range":
        lo = data.draw(st.floats(-4, 4))
        kwargs["bins"] = data.draw(st.integers(1, 6))
        kwargs["range"] = (lo, lo + data.draw(st.floats(0, 4)))
    elif kind == "edges":
        kwargs["bins"] = np.sort(data.draw(arrays("float64", (4,), min_value=-4, max_value=4)))
    else:
        a = np.append(a.astype(np.float64), np.nan)  # numpy: ValueError
        kwargs["bins"] = 3
    if data.draw(st.booleans()):
        wdtype = data.draw(st.sampled_from(["int64", "float32", "float64"]))
        kwargs["weights"] = data.draw(arrays(wdtype, a.shape, min_value=-10, max_value=10))
    if data.draw(st.booleans()):
        kwargs["density"] = True
    check(lnp.histogram, np.histogram, a, rtol=1e-5, signed_zeros=False, **kwargs)
    kwargs.pop("density", None)
    check(lnp.histogram_bin_edges, np.histogram_bin_edges, a, **kwargs)


@pytest.mark.parametrize(
    "bins", [0, -1, 2.5, True, "auto", "sturges", "nope", [1.0], [[1.0, 2.0]], [3.0, 1.0]]
)
def test_histogram_bins_edges(bins: Any) -> None:
    check(lnp.histogram, np.histogram, np.array([0.5, 1.0, 1.0, 2.0, 3.5]), bins)


def test_histogram_of_computed_data() -> None:
    """Data known only when computed: the range is computed in the graph."""
    data = np.random.default_rng(1).normal(size=50)
    x = lnp.exp(lnp.asarray(data))
    for bins in (1, 5, 13):
        got = materialize(lnp.histogram(x, bins=bins))
        want = np.histogram(np.exp(data), bins=bins)
        np.testing.assert_array_equal(got[0], want[0])
        if BACKEND == "jax":  # XLA divides by the bin count as a multiply by 1/bins
            np.testing.assert_allclose(got[1], want[1], rtol=4 * np.finfo(float).eps)
        else:
            np.testing.assert_array_equal(got[1], want[1])
    same = lnp.full(4, 2.0) * lnp.asarray(np.ones(4))  # min == max
    np.testing.assert_array_equal(materialize(lnp.histogram(same, 2))[1], [1.5, 2.0, 2.5])


@pytest.mark.parametrize("bins", ["auto", "fd", "doane", "scott", "stone", "rice", "sturges"])
def test_histogram_string_bins_of_computed_data(bins: str) -> None:
    """numpy's bin rules read the values: data known only when computed is computed."""
    data = np.random.default_rng(2).normal(size=40)
    with lazygraph.config.change(eager_max_elements=0):  # keep ``x`` lazy
        x = lnp.asarray(data) * 3
        got = materialize(lnp.histogram(x, bins=bins))
        edges = materialize(lnp.histogram_bin_edges(x, bins=bins))
        with pytest.raises(TypeError, match="weighted"):
            lnp.histogram(x, bins=bins, weights=x)
    want = np.histogram(data * 3, bins=bins)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12)
    np.testing.assert_allclose(edges, want[1], rtol=1e-12)


def test_histogram_weights_grad() -> None:
    values = np.array([0.1, 0.5, 0.5, 0.9, 2.0])
    a = lt.constant(values)  # a graph constant: verify_grad compiles the graph itself
    verify_grad(lambda w: lnp.histogram(a, bins=3, weights=w, density=True)[0]._var, [values])


def test_bincount_errors_and_computed_negatives() -> None:
    check(lnp.bincount, np.bincount, np.array([-1, 2]))
    check(lnp.bincount, np.bincount, np.array([1, 2]), ["1.5", "2"])
    check(lnp.bincount, np.bincount, np.array([1, 2]), [1j, 2.0])
    check(lnp.bincount, np.bincount, np.array([1, 2]), minlength=-1)
    # a negative value known only when computed must never count at the end
    with lazygraph.config.change(eager_max_elements=0):  # else known at once: ValueError
        x = lnp.asarray(np.array([1, 2])) - 2
        with pytest.raises(IndexError):
            materialize(lnp.bincount(x))
    # known at once (the eager path, which the compiled backends' sessions turn off)
    with (
        lazygraph.config.change(eager_max_elements=4096),
        pytest.raises(ValueError, match="no negative elements"),
    ):
        lnp.bincount(lnp.asarray(np.array([1, 2])) - 2)
    assert materialize(lnp.bincount(lt.as_tensor_variable(np.array([0, 3])))).tolist() == [
        1,
        0,
        0,
        1,
    ]


def test_histogram_range_edges_in_float64() -> None:
    """numpy computes edges from ``range`` in float64, then casts: a float64
    subnormal start becomes -0.0 in float32."""
    a = np.zeros(3, np.float32)
    check(lnp.histogram_bin_edges, np.histogram_bin_edges, a, 1, (-1.1125369292536007e-308, 2.0))
    check(lnp.histogram, np.histogram, a, 3, (-1e-300, 1e-300))


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_histogram2d_histogramdd(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(HIST_DTYPES), label="dtype")
    n = data.draw(st.sampled_from([0, 1, 6]), label="n")
    dims = data.draw(st.integers(1, 3), label="dims")
    # few distinct values: many points on edges, and ties
    sample = data.draw(arrays(dtype, (n, dims), finite=True, min_value=-3, max_value=3))
    bins: list[Any] = []
    for _ in range(dims):
        kind = data.draw(st.sampled_from(["count", "edges", "int edges"]))
        if kind == "count":
            bins.append(data.draw(st.integers(1, 4)))
        else:
            edges = np.sort(data.draw(arrays("float64", (3,), min_value=-4, max_value=4)))
            bins.append(edges.astype(np.int64) if kind == "int edges" else edges)
    ranges = data.draw(
        st.one_of(
            st.none(),
            st.lists(
                st.one_of(st.none(), st.tuples(st.integers(-4, 0), st.integers(0, 4))),
                min_size=dims,
                max_size=dims,
            ),
        ),
        label="range",
    )
    kwargs: dict[str, Any] = {"range": ranges, "density": data.draw(st.booleans())}
    if data.draw(st.booleans()):
        kwargs["weights"] = data.draw(arrays("float64", (n,), min_value=0, max_value=10))
    check(lnp.histogramdd, np.histogramdd, sample, bins, rtol=1e-12, **kwargs)
    one_bins = bins[0] if data.draw(st.booleans()) else bins
    check(lnp.histogramdd, np.histogramdd, sample, one_bins, rtol=1e-12, **kwargs)
    if dims == 2:
        x, y = sample[:, 0], sample[:, 1]
        check(lnp.histogram2d, np.histogram2d, x, y, bins, rtol=1e-12, **kwargs)
        check(lnp.histogram2d, np.histogram2d, x, y, bins[0], rtol=1e-12, **kwargs)
    # a sequence of coordinate arrays (numpy reads a list as D arrays of N values)
    check(lnp.histogramdd, np.histogramdd, list(sample.T), bins, rtol=1e-12, **kwargs)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (([1.0, 2.0], [1.0, 2.0, 3.0]), {}),  # lengths differ
        (([1.0, np.nan], [1.0, 2.0]), {}),  # autodetected range not finite
        (([1.0, 2.0], [1.0, 2.0]), {"range": [(1, 0), None]}),
        (([1.0, 2.0], [1.0, 2.0]), {"range": [(0, np.inf), None]}),
        (([1.0, 2.0], [1.0, 2.0]), {"range": [(0, 1)]}),
        (([1.0, 2.0], [1.0, 2.0]), {"bins": [2, 3, 4]}),  # three: one edge array for both
        (([1.0, 2.0], [1.0, 2.0]), {"bins": [0, 2]}),
        (([1.0, 2.0], [1.0, 2.0]), {"bins": [2.5, 2]}),
        (([1.0, 2.0], [1.0, 2.0]), {"bins": [np.array([2.0, 1.0]), 2]}),
        (([1.0, 2.0], [1.0, 2.0]), {"bins": [np.ones((2, 2)), 2]}),
        (([1.0, 2.0], [1.0, 2.0]), {"weights": [1.0, 2.0, 3.0]}),
        (([1.0, np.nan], [1.0, 2.0]), {"bins": [np.array([0.0, 1.0, 2.0]), 2]}),
        (([2.0, 2.0], [5, 5]), {}),  # one value: widened by 0.5
    ],
)
def test_histogram2d_edges_and_errors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    x, y = (np.asarray(a) for a in args)
    check(lnp.histogram2d, np.histogram2d, x, y, **kwargs)


def test_histogramdd_of_computed_data_and_grad() -> None:
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=40), np.exp(rng.normal(size=40))
    with lazygraph.config.change(eager_max_elements=0):  # min/max computed in the graph
        lx, ly = lnp.asarray(x) * 1.0, lnp.asarray(y) * 1.0
        got = materialize(lnp.histogram2d(lx, ly, bins=[4, 5], density=True))
    want = np.histogram2d(x, y, bins=[4, 5], density=True)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    tol = 4 * np.finfo(float).eps if BACKEND == "jax" else 0
    for g, w in zip(got[1:], want[1:], strict=True):
        np.testing.assert_allclose(g, w, rtol=tol, atol=0)
    sample = lt.constant(np.stack([x, y], axis=1))  # (a constant: verify_grad compiles)
    verify_grad(
        lambda w: lnp.histogramdd(sample, [3, 2], weights=w, density=True)[0]._var,
        [rng.random(40)],
    )

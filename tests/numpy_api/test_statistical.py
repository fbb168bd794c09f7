"""lazygraph.numpy's reductions and statistics against numpy: every dtype
(integer accumulation dtypes, bool, complex), axis as None/int/tuple/negative/
out of range, keepdims, dtype=, initial=, ddof/correction, empty reductions
(NaN or ValueError as numpy), NaN/inf and integer overflow in sums."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from tests.numpy_api.namespace_harness import ALL, array_args, check
from tests.tensor.harness import COMPLEX, FLOATS, INTS, NUMERIC

ROW_EXAMPLES = 10


def _axis(data: st.DataObject, ndim: int) -> Any:
    single = st.integers(-ndim - 1, ndim)
    if ndim == 0:
        return data.draw(st.sampled_from([None, 0, -1, 1, ()]), label="axis")
    many = st.lists(st.integers(-ndim, ndim - 1), max_size=ndim, unique=True).map(tuple)
    return data.draw(st.one_of(st.none(), single, many), label="axis")


REDUCTIONS = ["sum", "prod", "max", "min", "amax", "amin", "mean", "ptp", "nansum", "nanmean"]


@pytest.mark.parametrize("name", REDUCTIONS)
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_reduction_matches_numpy(name: str, data: st.DataObject) -> None:
    x = data.draw(array_args(ALL), label="x")
    axis = _axis(data, x.ndim)
    keepdims = data.draw(st.booleans(), label="keepdims")
    # float32 sums may be accumulated in a different order than numpy's pairwise sum
    rtol = 1e-4 if name in ("sum", "mean", "nansum", "nanmean", "prod") else None
    check(getattr(lnp, name), getattr(np, name), x, axis, keepdims=keepdims, rtol=rtol)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_sum_prod_dtype_and_initial(data: st.DataObject) -> None:
    x = data.draw(array_args(NUMERIC), label="x")
    dtype = data.draw(st.sampled_from([None, "int8", "uint64", "float32", "complex128"]))
    initial = data.draw(st.sampled_from([0, 1, 5, -2]))
    axis = _axis(data, x.ndim)
    check(lnp.sum, np.sum, x, axis, dtype, initial=initial, rtol=1e-4)
    check(lnp.prod, np.prod, x, axis, dtype, rtol=1e-4)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_max_min_initial(data: st.DataObject) -> None:
    x = data.draw(array_args(INTS + FLOATS), label="x")
    axis = _axis(data, x.ndim)
    initial = data.draw(st.sampled_from([0, -1, 3]))
    keepdims = data.draw(st.booleans())
    check(lnp.max, np.max, x, axis, initial=initial, keepdims=keepdims)
    check(lnp.min, np.min, x, axis, keepdims=keepdims, initial=initial)


@pytest.mark.parametrize("name", ["var", "std"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_var_std(name: str, data: st.DataObject) -> None:
    x = data.draw(array_args((*NUMERIC, *COMPLEX), max_dims=2), label="x")
    axis = _axis(data, x.ndim)
    ddof = data.draw(st.sampled_from([0, 1, 2]))
    fn, ref = getattr(lnp, name), getattr(np, name)
    check(fn, ref, x, axis, ddof=ddof, rtol=1e-4)
    check(fn, ref, x, axis, correction=ddof, keepdims=True, rtol=1e-4)
    check(fn, ref, x, axis, ddof=1, correction=1)  # ValueError in numpy


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_median(data: st.DataObject) -> None:
    x = data.draw(array_args(INTS + FLOATS + ("bool",), max_dims=3), label="x")
    axis = _axis(data, x.ndim)
    # numpy's reshape trick fails on this one corner (a ValueError); not worth copying.
    assume(not (axis == () and x.size == 0))
    check(lnp.median, np.median, x, axis, keepdims=data.draw(st.booleans()), rtol=1e-6)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_average(data: st.DataObject) -> None:
    x = data.draw(array_args(INTS + FLOATS, min_dims=1, max_dims=2, min_side=1), label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    w = data.draw(st.lists(st.integers(1, 3), min_size=x.shape[axis], max_size=x.shape[axis]))
    weights = np.asarray(w, dtype=data.draw(st.sampled_from(["int64", "float32"])))
    check(lnp.average, np.average, x, axis, rtol=1e-5)
    check(lnp.average, np.average, x, axis, weights, returned=True, rtol=1e-5)
    full = np.broadcast_to(
        weights.reshape([-1 if i == axis % x.ndim else 1 for i in range(x.ndim)]), x.shape
    )
    check(lnp.average, np.average, x, None, full, rtol=1e-5)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_cumsum_cumprod(name: str, data: st.DataObject) -> None:
    x = data.draw(array_args(ALL), label="x")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    dtype = data.draw(st.sampled_from([None, "int16", "float64"]))
    check(getattr(lnp, name), getattr(np, name), x, axis, dtype, rtol=1e-4)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_cumulative(name: str, data: st.DataObject) -> None:
    x = data.draw(array_args(ALL, max_dims=2), label="x")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    include = data.draw(st.booleans())
    check(getattr(lnp, name), getattr(np, name), x, axis=axis, include_initial=include, rtol=1e-4)


def test_bad_axis_names_the_function() -> None:
    x = lnp.asarray(np.arange(4.0))  # (out= and where=: tests/numpy_api/test_out_where.py)
    with pytest.raises(np.exceptions.AxisError, match="mean"):
        lnp.mean(x, axis=1)


@pytest.mark.parametrize("name", ["nanmax", "nanmin", "nanprod", "nanvar", "nanstd"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_nan_reductions(name: str, data: st.DataObject) -> None:
    # (complex: NaN in either part is skipped; values order by real, then imaginary part)
    x = data.draw(array_args(INTS + FLOATS + COMPLEX, max_dims=2), label="x")
    axis = _axis(data, x.ndim)
    check(
        getattr(lnp, name), getattr(np, name), x, axis, keepdims=data.draw(st.booleans()), rtol=1e-4
    )


@pytest.mark.parametrize("name", ["quantile", "percentile"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_quantiles(name: str, data: st.DataObject) -> None:
    # Bounded values: numpy interpolates integers in their own dtype, so its
    # quantiles of int8 data can overflow (median of [0, -128] is 64 there).
    x = data.draw(array_args(INTS + FLOATS, max_dims=2, min_value=-50, max_value=50), label="x")
    axis = _axis(data, x.ndim)
    assume(not (axis == () and x.size == 0))  # numpy's reshape trick fails there
    scale = 100 if name == "percentile" else 1
    q = data.draw(
        st.one_of(
            st.floats(0, 1).map(lambda v: v * scale),
            st.sampled_from([np.float32(0.25), np.float64(0.5), 0, 1]).map(lambda v: v * scale),
            st.lists(st.floats(0, 1), max_size=3).map(lambda v: np.asarray(v) * scale),
            st.just(1.5 * scale),  # out of range: ValueError
        ),
        label="q",
    )
    check(
        getattr(lnp, name),
        getattr(np, name),
        x,
        q,
        axis,
        keepdims=data.draw(st.booleans()),
        rtol=1e-5,
    )


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_cov_corrcoef(data: st.DataObject) -> None:
    m = data.draw(
        array_args(INTS + FLOATS + COMPLEX, min_dims=1, max_dims=2, finite=True, min_side=1),
        label="m",
    )
    rowvar = data.draw(st.booleans())
    bias = data.draw(st.booleans())
    check(lnp.cov, np.cov, m, rowvar=rowvar, bias=bias, rtol=1e-4, signed_zeros=False)
    check(lnp.cov, np.cov, m, m, rowvar, ddof=0, rtol=1e-4, signed_zeros=False)
    check(lnp.corrcoef, np.corrcoef, m, rowvar=rowvar, rtol=1e-4, signed_zeros=False)


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_nan_cumulative(name: str, data: st.DataObject) -> None:
    x = data.draw(array_args(INTS + FLOATS, max_dims=2), label="x")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, max(x.ndim - 1, 0))))
    check(getattr(lnp, name), getattr(np, name), x, axis if x.ndim else None, rtol=1e-4)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_polyval_vander(data: st.DataObject) -> None:
    p = data.draw(array_args(INTS + FLOATS, min_dims=1, max_dims=1, min_value=-3, max_value=3))
    x = data.draw(
        st.one_of(array_args(FLOATS, max_dims=2, min_value=-3, max_value=3), st.floats(-3, 3)),
        label="x",
    )
    check(lnp.polyval, np.polyval, p, x, rtol=1e-5)
    n = data.draw(st.one_of(st.none(), st.integers(0, 4)))
    check(lnp.vander, np.vander, p, n, data.draw(st.booleans()), rtol=1e-5)


def test_quantiles_with_nan_and_infinities() -> None:
    x = np.array([[1.0, np.nan, 3.0], [np.inf, -np.inf, 2.0], [-0.0, 0.0, 5.0]])
    for q in (0.0, 0.3, 0.5, [0.25, 1.0]):
        for axis in (None, 0, 1):
            check(lnp.quantile, np.quantile, x, q, axis)
            check(lnp.median, np.median, x, axis)


# -- NaN-ignoring order statistics and arg-extrema -----------------------------------


def _nan_rich(dtypes: tuple[str, ...]) -> st.SearchStrategy[np.ndarray]:
    """Arrays of small values (ties), many NaNs (all-NaN slices), ±inf and -0.0."""
    from hypothesis.extra import numpy as hnp

    from tests.tensor.harness import shapes

    def build(dtype: str) -> st.SearchStrategy[np.ndarray]:
        if np.dtype(dtype).kind == "b":
            values: st.SearchStrategy[Any] = st.booleans()
        elif np.dtype(dtype).kind in "iu":
            values = st.integers(-4, 4)
        else:
            values = st.one_of(
                st.integers(-4, 4).map(float),
                st.just(np.nan),
                st.sampled_from([np.nan, np.inf, -np.inf, -0.0, 0.5]),
            )
        return hnp.arrays(np.dtype(dtype), shapes(max_dims=3), elements=values)

    return st.sampled_from(dtypes).flatmap(build)


_QS = st.one_of(
    st.floats(0, 1),
    st.sampled_from([0, 1, np.float32(0.25), np.float64(0.5), 1.5]),
    st.lists(st.floats(0, 1), max_size=3).map(np.asarray),
    st.just(np.array([[0.1, 0.9], [0.5, 1.0]])),
)


@pytest.mark.parametrize("name", ["nanmedian", "nanquantile", "nanpercentile"])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_nan_order_statistics(name: str, data: st.DataObject) -> None:
    x = data.draw(_nan_rich(("float64", "float32", "int64", "int8", "bool")), label="x")
    axis = _axis(data, x.ndim)
    keepdims = data.draw(st.booleans(), label="keepdims")
    fn, ref = getattr(lnp, name), getattr(np, name)
    if name == "nanmedian":
        check(fn, ref, x, axis, keepdims=keepdims)
        return
    q = data.draw(_QS, label="q")
    if name == "nanpercentile":
        q = q * 100
    check(fn, ref, x, q, axis, keepdims=keepdims)


def test_nan_order_statistics_examples() -> None:
    x = np.array([[1.0, np.nan, 3.0, 3.0], [np.nan] * 4, [np.inf, -np.inf, 2.0, np.nan]])
    for axis in (None, 0, 1, (0, 1), ()):
        check(lnp.nanmedian, np.nanmedian, x, axis)
        for q in (0.0, 0.3, 0.5, [0.25, 1.0], np.float64(0.7), 1):
            check(lnp.nanquantile, np.nanquantile, x, q, axis, keepdims=True)
            check(lnp.nanquantile, np.nanquantile, x.astype(np.float32), q, axis)
    big = np.full((2, 3), np.float32(3e38))  # numpy's masked path sums an odd middle twice
    check(lnp.nanmedian, np.nanmedian, big, 1)
    check(lnp.nanmedian, np.nanmedian, big.ravel())
    check(lnp.nanmedian, np.nanmedian, np.zeros((0, 3)), 0)  # empty: nanmean's
    check(lnp.nanquantile, np.nanquantile, np.zeros((0, 3)), [0.5, 0.2], 0)


def test_nan_order_statistics_errors() -> None:
    x = np.array([1.0, np.nan, 2.0])
    check(lnp.nanquantile, np.nanquantile, x, 1.5)
    check(lnp.nanpercentile, np.nanpercentile, x, -1)
    check(lnp.nanquantile, np.nanquantile, x, 0.5, method="no such method")
    check(lnp.nanquantile, np.nanquantile, x, 0.5, weights=np.ones(3))  # linear: ValueError
    check(lnp.nanquantile, np.nanquantile, x + 1j, 0.5)
    check(lnp.nanmedian, np.nanmedian, x, 1)
    check(lnp.nanquantile, np.nanquantile, x, 0.5, method="lower")  # numpy's runs it


def test_nan_order_statistics_warn_for_all_nan_slices() -> None:
    x = lnp.asarray(np.array([[np.nan, np.nan], [1.0, 2.0]]))
    for fn in (
        lambda: lnp.nanmedian(x, axis=1),
        lambda: lnp.nanquantile(x, 0.5, axis=1),
        lambda: lnp.nanpercentile(x, 50, axis=1),
    ):
        with pytest.warns(RuntimeWarning, match="All-NaN slice encountered") as record:
            got = fn()
        assert record[0].filename == __file__  # pointed at the caller's line
        np.testing.assert_array_equal(got.compute(), [np.nan, 1.5])


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_nanargmax_nanargmin(name: str, data: st.DataObject) -> None:
    x = data.draw(
        st.one_of(_nan_rich(("float64", "float32", "int16")), array_args(ALL, max_dims=2)),
        label="x",
    )
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    # an all-NaN slice or an empty reduction: numpy's ValueError
    check(getattr(lnp, name), getattr(np, name), x, axis, keepdims=keepdims)


@pytest.mark.filterwarnings("ignore:All-NaN slice encountered:RuntimeWarning")  # numpy's
def test_nan_statistics_of_computed_data() -> None:
    """Data known only when computed: counts per slice in the graph; the
    all-NaN check of nanargmax (which raises) is computed."""
    import lazygraph

    x = np.array([[3.0, np.nan, 1.0, 1.0], [np.nan, 2.0, 5.0, np.nan], [np.nan] * 4])
    with lazygraph.config.change(eager_max_elements=0):
        lazy = lnp.asarray(x) * 1.0
        np.testing.assert_array_equal(
            lnp.nanmedian(lazy, axis=1).compute(), np.nanmedian(x, axis=1)
        )
        np.testing.assert_array_equal(
            lnp.nanpercentile(lazy, [10, 90], axis=1).compute(),
            np.nanpercentile(x, [10, 90], axis=1),
        )
        got = lnp.nanquantile(lnp.asarray(x[::-1].astype(np.float32)) * 1, np.float64(0.3), 1)
        want = np.nanquantile(x[::-1].astype(np.float32), np.float64(0.3), 1)
        assert got.dtype == want.dtype  # the first slice is all NaN: a's dtype (numpy's)
        np.testing.assert_array_equal(got.compute(), want)
        np.testing.assert_array_equal(lnp.nanargmax(lazy[:2], axis=1).compute(), [0, 2])
        with pytest.raises(ValueError, match="All-NaN slice"):
            lnp.nanargmin(lazy, axis=1)


def test_nan_order_statistics_gradients() -> None:
    from lazygraph.gradient import verify_grad

    point = np.array([[1.0, np.nan, 3.5, 7.0], [4.0, 2.0, 8.0, 5.0], [0.5, np.nan, np.nan, 9.0]])
    verify_grad(lambda a: lnp.nanmedian(a, axis=1)._var, [point])
    verify_grad(lambda a: lnp.nanquantile(a, [0.3, 0.8], axis=1)._var, [point])


# -- polynomials ----------------------------------------------------------------------

_COEFFS = st.one_of(
    st.sampled_from(["int64", "int8", "float64", "float32", "complex128", "bool"]).flatmap(
        lambda d: st.integers(0, 5).flatmap(
            lambda n, d=d: st.lists(st.integers(-3, 3), min_size=n, max_size=n).map(
                lambda v, d=d: np.asarray(v).astype(d)
            )
        )
    ),
    st.sampled_from([[1, 2], 3, [0, 0, 1.5], [0.0], [2j, 1]]),
)


@settings(max_examples=30, deadline=None)
@given(a=_COEFFS, b=_COEFFS, m=st.integers(-1, 3))
def test_polynomial_arithmetic(a: Any, b: Any, m: int) -> None:
    # leading zeros (dropped by polymul; polydiv's remainder), ties, empty inputs
    check(lnp.polyadd, np.polyadd, a, b)
    check(lnp.polysub, np.polysub, a, b)
    check(lnp.polymul, np.polymul, a, b, rtol=1e-12)
    check(lnp.polydiv, np.polydiv, a, b, rtol=1e-9, atol=1e-12)
    check(lnp.polyder, np.polyder, a, m)
    check(lnp.polyint, np.polyint, a, m, rtol=1e-12)
    check(lnp.polyint, np.polyint, a, m, [2, -1, 0.5], rtol=1e-12)


@settings(max_examples=30, deadline=None)
@given(a=_COEFFS)
def test_poly_roots(a: Any) -> None:
    import warnings

    with warnings.catch_warnings():  # roots: eigvals' numpy-fallback warning
        warnings.simplefilter("ignore")
        check(lnp.roots, np.roots, a, rtol=1e-7, atol=1e-9)  # a scalar: numpy's TypeError
    check(lnp.poly, np.poly, a, rtol=1e-9)  # conjugate pairs: real coefficients


def test_poly_roots_edges() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lnp.roots, np.roots, np.array([0.0, 0.0, 1.0, -3.0, 2.0, 0.0, 0.0]), rtol=1e-12)
        check(lnp.roots, np.roots, np.array([[1.0, 2.0]]))
        check(lnp.poly, np.poly, np.array([[1.0, 2.0], [3.0, 4.0]]), rtol=1e-9)
    check(lnp.poly, np.poly, np.array([1j, -1j, 2.0]), rtol=1e-12)
    check(lnp.poly, np.poly, np.array([1j, 2.0]), rtol=1e-12)
    check(lnp.poly, np.poly, np.array([[1.0, 2.0, 3.0]]))
    check(lnp.poly, np.poly, np.array([], np.float32))  # 1.0


@pytest.mark.parametrize("deg", [0, 1, 2, 5, 9, -1])
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"full": True}, {"w": np.linspace(1, 2, 8)}, {"cov": True}, {"cov": "unscaled"}],
)
def test_polyfit(deg: int, kwargs: dict[str, Any]) -> None:
    import warnings

    x = np.linspace(0, 1, 8)
    y = 3 * x**2 - x + 0.5 + np.random.default_rng(deg + 1).normal(size=8) * 0.01
    if "cov" in kwargs and deg + 1 > x.size:
        # an underdetermined fit's covariance inverts a singular matrix: LAPACK's
        # and XLA's garbage differ (1e16 against 1e17), so compare the fit only
        kwargs = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        for ys in (y, np.stack([y, 2 * y], axis=1)):
            check(lnp.polyfit, np.polyfit, x, ys, deg, rtol=1e-7, atol=1e-9, **kwargs)
        check(lnp.polyfit, np.polyfit, x.astype(np.float32), y.astype(np.float32), deg,
              rtol=1e-4, atol=1e-5, **kwargs)  # fmt: skip
    import lazygraph

    if deg == 9 and not kwargs and lazygraph.config.eager_max_elements >= x.size * (deg + 1):
        # known, small data: its rank is computed, for numpy's warning
        with pytest.warns(np.exceptions.RankWarning, match="poorly conditioned"):
            lnp.polyfit(x, y, deg)


def test_polyfit_errors() -> None:
    x = np.linspace(0, 1, 4)
    check(lnp.polyfit, np.polyfit, np.zeros((2, 2)), x, 1)
    check(lnp.polyfit, np.polyfit, np.zeros(0), np.zeros(0), 1)
    check(lnp.polyfit, np.polyfit, x, x[:3], 1)
    check(lnp.polyfit, np.polyfit, x, np.zeros((4, 1, 1)), 1)
    check(lnp.polyfit, np.polyfit, x, x, 1, w=np.ones((4, 1)))
    check(lnp.polyfit, np.polyfit, x, x, 4, cov=True)  # too few points to scale


def test_poly1d_matches_numpy() -> None:
    for c in ([1, 2, 3], [0, 0, 1.5, -2], [0], [2j, 1], np.array([1, -3, 2], np.int8)):
        p, q = lnp.poly1d(c), np.poly1d(c)
        assert (repr(p), str(p), p.order, len(p)) == (repr(q), str(q), q.order, len(q))
        for other in ([1, 1], 2, 2.5, [1, 0, -1]):
            for op in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__"):
                got, want = getattr(p, op)(other), getattr(q, op)(other)
                assert str(got) == str(want), (op, other)
            got, want = p / other, q / other
            if isinstance(want, tuple):
                assert [str(g) for g in got] == [str(w) for w in want]
            else:
                assert str(got) == str(want)
        np.testing.assert_allclose(p([0.5, 2.0]).compute(), q([0.5, 2.0]))
        assert str(p(lnp.poly1d([1, 1]))) == str(q(np.poly1d([1, 1])))  # composition
        assert str(p**3) == str(q**3) and str(-p) == str(-q)
        assert str(p.deriv(2)) == str(q.deriv(2))
        assert str(p.integ(2, k=[1, 2])) == str(q.integ(2, k=[1, 2]))
        assert p == lnp.poly1d(c) and p != lnp.poly1d([9])
        assert p[0] == q[0] and p[5] == q[5] and p[-1] == q[-1]
        p[4], q[4] = 7, 7
        p.coeffs *= 2
        q.coeffs *= 2
        assert str(p) == str(q) and np.array_equal(np.asarray(p), np.asarray(q))
    assert str(lnp.poly1d([1, 2], r=True)) == str(np.poly1d([1, 2], r=True))
    assert str(lnp.poly1d([1, 2], variable="z")) == str(np.poly1d([1, 2], variable="z"))
    with pytest.raises(ValueError, match="1d only"):
        lnp.poly1d(np.ones((2, 2)))
    with pytest.raises(ValueError, match="non-negative integers"):
        lnp.poly1d([1, 2]) ** -1


def test_polynomials_of_computed_coefficients_and_grads() -> None:
    """Coefficients known only when computed: the leading-zero counts are
    computed, everything else recorded; and gradients through the coefficients."""
    import lazygraph
    import lazygraph.tensor as lt
    from lazygraph.gradient import verify_grad

    c = np.array([0.0, 1.0, -3.0, 2.0])
    with lazygraph.config.change(eager_max_elements=0):
        lazy = lnp.asarray(c) * 1.0
        p = lnp.poly1d(lazy)
        assert p.order == 2
        np.testing.assert_array_equal(lnp.polymul(lazy, lazy).compute(), np.polymul(c, c))
        q, r = lnp.polydiv(lazy, [1.0, -1.0])
        np.testing.assert_array_equal(q.compute(), np.polydiv(c, [1.0, -1.0])[0])
        np.testing.assert_array_equal(r.compute(), np.polydiv(c, [1.0, -1.0])[1])
        g = lazygraph.grad(lambda a: lnp.sum(lnp.polymul(a, [0.5, 2.0])))(lnp.asarray(c[1:]))
        np.testing.assert_allclose(g.compute(), [2.5, 2.5, 2.5])
    b = np.array([1.0, -2.0, 0.5])
    verify_grad(lambda a: lnp.polyint(a, 2)._var, [b])
    verify_grad(lambda a: lnp.polyder(a, 1)._var, [b])
    verify_grad(lambda a, x: lnp.polyval(a, x)._var, [b, np.array([0.3, 2.0])])
    xs = lt.constant(np.linspace(0, 1, 6))  # (a constant: verify_grad compiles the graph)
    with lazygraph.config.change(eager_max_elements=0):  # (kept a constant)
        verify_grad(lambda y: lnp.polyfit(xs, y, 2)._var, [np.sin(np.arange(6.0))])


@pytest.mark.parametrize(
    "name", ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd"]
)
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_nan_reduction_keywords(name: str, data: st.DataObject) -> None:
    # numpy's where=, initial= (sum, prod, max, min), mean= and correction= (var, std)
    x = data.draw(_nan_rich(("float64", "float32", "int16")), label="x")
    axis = data.draw(st.sampled_from([None, 0, -1]) if x.ndim else st.just(None), label="axis")
    options: dict[str, Any] = {"keepdims": data.draw(st.booleans())}
    if data.draw(st.booleans()):
        options["where"] = data.draw(st.lists(st.booleans(), min_size=1, max_size=1)).pop()
        if x.ndim and data.draw(st.booleans()):
            options["where"] = np.arange(x.shape[-1]) % 2 == 0  # broadcast along the last axis
    if name in ("nansum", "nanprod", "nanmax", "nanmin") and data.draw(st.booleans()):
        options["initial"] = data.draw(st.sampled_from([0, -2, 3.5]))
    if name in ("nanvar", "nanstd"):
        if data.draw(st.booleans()):
            options["correction"] = data.draw(st.sampled_from([0, 1]))
        if data.draw(st.booleans()) and x.dtype.kind == "f":
            options["mean"] = np.zeros(())  # a given centre
            options["keepdims"] = False
    check(getattr(lnp, name), getattr(np, name), x, axis, rtol=1e-4, **options)


def test_nan_reductions_warn_as_numpy_on_known_data() -> None:
    x = np.array([[np.nan, np.nan], [1.0, np.nan]])
    cases = {
        "nanmax": "All-NaN slice",
        "nanmin": "All-NaN slice",
        "nanmean": "Mean of empty slice",
        "nanvar": "Degrees of freedom",
        "nanstd": "Degrees of freedom",
    }
    for name, message in cases.items():
        with pytest.warns(RuntimeWarning, match=message):
            got = getattr(lnp, name)(x, axis=1)
        np.testing.assert_array_equal(got.compute(), getattr(np, name)(x, axis=1))
    with pytest.raises(TypeError, match="inexact"):
        lnp.nanmean(x, dtype=np.int64)
    with pytest.raises(ValueError, match="simultaneously"):
        lnp.nanvar(x, ddof=1, correction=1)


def test_nan_cumulative_out() -> None:
    x = np.array([1.0, np.nan, 2.0])
    buf = np.zeros(3)
    assert lnp.nancumsum(x, out=buf) is buf
    np.testing.assert_array_equal(buf, np.nancumsum(x))
    assert lnp.nancumprod(x, 0, None, buf) is buf
    np.testing.assert_array_equal(buf, np.nancumprod(x))


@pytest.mark.parametrize("name", ["nanmax", "nanmin", "max", "min"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_extremes_of_complex_values(name: str, axis: Any) -> None:
    """numpy's nanmax/nanmin of complex values skip those with NaN in either
    part and order the rest by real part, then imaginary part (fmax/fmin), at
    infinities too; max/min give NaN for a slice holding one."""
    special = [np.nan, -np.inf, np.inf, 0.0, -0.0, 1.0, -1.0]
    rng = np.random.default_rng(5)
    for _ in range(20):
        x = rng.choice(special, (3, 4)) + 1j * rng.choice(special, (3, 4))
        x[rng.integers(0, 3), :] = complex(np.nan, 0.0)  # an all-NaN row
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # (All-NaN slice: both warn)
            want = getattr(np, name)(x, axis=axis)
            got = np.asarray(getattr(lnp, name)(lnp.asarray(x), axis=axis))
        np.testing.assert_array_equal(got, want)

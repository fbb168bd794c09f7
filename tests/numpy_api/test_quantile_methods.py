"""quantile / percentile / median with every one of numpy's ``method`` values,
against numpy on random data (NaN, ties, small integer types, 0-d and vector
``q``), and on arrays whose sizes the data decides (a boolean mask's result)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from tests.numpy_api.namespace_harness import check
from tests.tensor.harness import arrays

METHODS = [
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "linear",
    "median_unbiased",
    "normal_unbiased",
    "lower",
    "higher",
    "midpoint",
    "nearest",
]


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_quantile_methods(method, data):
    dtype = data.draw(st.sampled_from(["float64", "float32", "int16", "int8"]))
    x = data.draw(arrays(dtype, (2, data.draw(st.integers(1, 7)))))
    q = data.draw(
        st.one_of(
            st.sampled_from([0.0, 1.0, 0.5, 0.25, 1 / 3]),
            st.lists(st.floats(0, 1), min_size=1, max_size=3).map(np.asarray),
        )
    )
    check(lnp.quantile, np.quantile, x, q, axis=1, method=method)
    check(lnp.percentile, np.percentile, x, np.multiply(q, 100), axis=-1, method=method)


def test_unknown_method_is_numpys_value_error():
    with pytest.raises(ValueError, match="is not a valid method"):
        lnp.quantile([1.0, 2.0], 0.5, method="fancy")


@pytest.mark.parametrize("name", ["median", "quantile", "percentile"])
def test_order_statistics_of_a_masked_array(name):
    a = np.random.default_rng(3).normal(size=20)
    x = lnp.asarray(a)
    args = {"median": (), "quantile": (0.3,), "percentile": (30,)}[name]
    got = getattr(lnp, name)(x[x > 0], *args)
    np.testing.assert_array_equal(got.compute(), getattr(np, name)(a[a > 0], *args))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_weighted_inverted_cdf(data):
    dtype = data.draw(st.sampled_from(["float64", "float32", "int16"]))
    x = data.draw(arrays(dtype, (2, 3, data.draw(st.integers(1, 4)))))
    axis = data.draw(st.sampled_from([None, 0, -1, (0, 2), (2, 0), (1, 2, 0)]))
    if axis is None or data.draw(st.booleans()):
        wshape = x.shape
    else:
        wshape = tuple(x.shape[i] for i in np.atleast_1d(axis))
    # non-negative weights with zeros and ties (an all-zero slice is numpy's ValueError)
    w = data.draw(arrays("int8", wshape, min_value=0, max_value=3)).astype(np.float64)
    q = data.draw(
        st.one_of(
            st.sampled_from([0.0, 1.0, 0.5, 1 / 3]),
            st.lists(st.floats(0, 1), min_size=1, max_size=3).map(np.asarray),
            st.just(np.float32(0.4)),
        )
    )
    keepdims = data.draw(st.booleans())
    options = {"axis": axis, "method": "inverted_cdf", "weights": w, "keepdims": keepdims}
    check(lnp.quantile, np.quantile, x, q, **options)
    check(lnp.percentile, np.percentile, x, np.multiply(q, 100), **options)


def test_weights_of_a_computed_array_are_checked():
    x = lnp.asarray(np.arange(6.0))
    w = lnp.asarray(np.array([1.0, 0.0, 2.0, 1.0, 0.0, 3.0]))
    got = lnp.quantile(x, [0.2, 0.7], method="inverted_cdf", weights=w * 2)
    want = np.quantile(
        np.arange(6.0), [0.2, 0.7], method="inverted_cdf", weights=[1, 0, 2, 1, 0, 3]
    )
    np.testing.assert_array_equal(got.compute(), want)
    with pytest.raises(ValueError, match="non-negative"):
        lnp.quantile(x, 0.5, method="inverted_cdf", weights=w - 1)
    with pytest.raises(ValueError, match="NaN, inf or were all zero"):
        lnp.quantile(x, 0.5, method="inverted_cdf", weights=w * 0)


@pytest.mark.parametrize(
    ("weights", "options", "error"),
    [
        (np.ones(3), {"method": "linear"}, ValueError),  # only inverted_cdf is weighted
        (np.ones(3), {"method": "inverted_cdf"}, TypeError),  # shapes differ: axis needed
        (np.ones(4), {"method": "inverted_cdf", "axis": 1}, ValueError),
        (-np.ones(3), {"method": "inverted_cdf", "axis": 1}, ValueError),
    ],
)
def test_weights_errors_are_numpys(weights, options, error):
    x = np.arange(6.0).reshape(2, 3)
    check(lnp.quantile, np.quantile, x, 0.5, weights=weights, **options)
    with pytest.raises(error):
        lnp.percentile(x, 50, weights=weights, **options)


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_linear_method_at_integer_q_keeps_the_dtype(data):
    # numpy takes the values at integer q (0 or 1) without interpolating: a's dtype
    dtype = data.draw(st.sampled_from(["bool", "int8", "uint16", "float32"]))
    x = data.draw(arrays(dtype, (2, data.draw(st.integers(1, 5)))))
    q = data.draw(st.sampled_from([0, 1, [0, 1], np.array([1, 0], dtype=np.int8), True]))
    check(lnp.quantile, np.quantile, x, q, axis=1)

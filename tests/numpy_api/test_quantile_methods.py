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

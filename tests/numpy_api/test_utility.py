"""lazygraph.numpy's utility functions against numpy: all/any, diff (n,
prepend/append, bool), isclose (lazy) and allclose/array_equal/array_equiv
(Python bools, computed)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from tests.numpy_api.namespace_harness import ALL, array_args, binary_args, check
from tests.tensor.harness import COMPLEX, FLOATS, INTS, arrays

ROW_EXAMPLES = 10


@pytest.mark.parametrize("name", ["all", "any"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_all_any(name: str, data: st.DataObject) -> None:
    x = data.draw(array_args(ALL), label="x")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    check(getattr(lnp, name), getattr(np, name), x, axis, keepdims=data.draw(st.booleans()))


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_diff(data: st.DataObject) -> None:
    x = data.draw(array_args(ALL), label="x")
    n = data.draw(st.integers(-1, 3))
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim)) if x.ndim else -1
    kw = {}
    if data.draw(st.booleans()):
        kw["prepend"] = data.draw(st.sampled_from([0, 1.5, True]))
    if data.draw(st.booleans()) and x.ndim and -x.ndim <= axis < x.ndim:
        shape = list(x.shape)
        shape[axis] = 2
        kw["append"] = data.draw(arrays(x.dtype, tuple(shape)))
    check(lnp.diff, np.diff, x, n, axis, **kw)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(
    args=binary_args(INTS + FLOATS + COMPLEX),
    rtol=st.sampled_from([1e-5, 0.0, 0.5]),
    atol=st.sampled_from([1e-8, 0.0, 1.0]),
    equal_nan=st.booleans(),
)
def test_isclose_allclose(
    args: tuple[object, object], rtol: float, atol: float, equal_nan: bool
) -> None:
    a, b = args
    check(lnp.isclose, np.isclose, a, b, rtol, atol, equal_nan)
    check(lnp.allclose, np.allclose, a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_array_equal_equiv(data: st.DataObject) -> None:
    a = data.draw(array_args(INTS + FLOATS, max_dims=2), label="a")
    b = data.draw(st.one_of(st.just(a.copy()), array_args(INTS + FLOATS, max_dims=2)), label="b")
    equal_nan = data.draw(st.booleans())
    check(lnp.array_equal, np.array_equal, a, b, equal_nan=equal_nan)
    check(lnp.array_equal, np.array_equal, lnp.asarray(a), b)
    check(lnp.array_equiv, np.array_equiv, a, b)
    if a.ndim:
        check(lnp.array_equiv, np.array_equiv, a, a[..., :1])


def test_numpy_state_helpers_and_isscalar() -> None:
    # numpy's errstate, which also computes the arrays its block left pending
    assert issubclass(lnp.errstate, np.errstate) and lnp.printoptions is np.printoptions
    with lnp.errstate(divide="ignore"):
        assert np.geterr()["divide"] == "ignore"
    assert lnp.seterr is np.seterr and lnp.geterr is np.geterr
    for value in (1, 2.5, np.float32(1), "s", [1], np.zeros(()), lnp.asarray(np.zeros(()))):
        assert lnp.isscalar(value) == np.isscalar(
            value if not isinstance(value, lnp.Array) else np.zeros(())
        )


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_trapezoid(data: st.DataObject) -> None:
    y = data.draw(array_args(INTS + FLOATS, min_dims=1, max_dims=2), label="y")
    axis = data.draw(st.integers(-y.ndim, y.ndim - 1))
    x = data.draw(arrays("float64", (y.shape[axis],), finite=True), label="x")
    # The sign of a zero sum is the reduction's business (XLA's GPU sum of one
    # -0.0 keeps it; numpy starts from +0.0): not compared, as for sum itself.
    check(lnp.trapezoid, np.trapezoid, y, axis=axis, dx=0.5, rtol=1e-5, signed_zeros=False)
    check(lnp.trapezoid, np.trapezoid, y, x, axis=axis, rtol=1e-5, signed_zeros=False)

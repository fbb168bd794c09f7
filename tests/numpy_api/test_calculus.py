"""``gradient`` and ``unwrap`` against numpy (the oracle): random arrays of
every dtype and rank, every kind of spacing (none, one scalar, one per axis,
Python and numpy scalars, uniform and non-uniform coordinates), both edge
orders, axis as None/int/tuple; numpy's errors; coordinates known only when
computed (both formulas recorded, numpy's chosen); and ``verify_grad``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.gradient import verify_grad
from tests.numpy_api.namespace_harness import ALL, array_args, check
from tests.tensor.harness import BACKEND, FLOATS, INTS, arrays

EXAMPLES = 40


def _spacing(data: st.DataObject, size: int, uniform: bool) -> Any:
    """A spacing for an axis of ``size``: a scalar of some kind, or coordinates."""
    kind = data.draw(st.sampled_from(["python", "numpy", "coords"]), label="spacing kind")
    if kind == "python":
        return data.draw(st.sampled_from([2, 0.5, -1.5]))
    if kind == "numpy":
        return data.draw(st.sampled_from([np.float32(0.25), np.float64(3.0), np.int16(2)]))
    if uniform:
        return np.arange(size) * data.draw(st.sampled_from([1, 0.5]))
    steps = data.draw(arrays("float64", (size,), min_value=0.1, max_value=3.0))
    dtype = data.draw(st.sampled_from(["float64", "float32", "int64"]))
    return np.cumsum(steps).astype(dtype)


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_gradient_matches_numpy(data: st.DataObject) -> None:
    f = data.draw(array_args((*INTS, *FLOATS, "complex128", "bool"), max_dims=3), label="f")
    edge_order = data.draw(st.sampled_from([1, 2]), label="edge_order")
    form = data.draw(st.sampled_from(["all", "one axis", "axes"]), label="form")
    if form == "all" or f.ndim == 0:
        axis, axes = None, list(range(f.ndim))
    elif form == "one axis":
        axis = data.draw(st.integers(-f.ndim, f.ndim - 1))
        axes = [axis % f.ndim]
    else:
        axis = tuple(data.draw(st.permutations(range(f.ndim))))
        axes = list(axis)
    how = data.draw(st.sampled_from(["none", "one", "each"]), label="how")
    uniform = data.draw(st.booleans(), label="uniform coordinates")
    if how == "none":
        spacing: list[Any] = []
    elif how == "one":
        spacing = [data.draw(st.sampled_from([2, 0.5, np.float32(0.25)]))]
    else:
        spacing = [_spacing(data, f.shape[a], uniform) for a in axes]
    # float32 with float64 spacing: numpy computes in float64, then stores float32
    rtol = 1e-5 if f.dtype == np.float32 else 1e-12
    check(lnp.gradient, np.gradient, f, *spacing, axis=axis, edge_order=edge_order, rtol=rtol)


def test_gradient_errors() -> None:
    f = np.arange(12.0).reshape(3, 4)
    for args, kwargs in [
        ((1, 2, 3), {}),  # spacing count
        ((np.ones((2, 2)), 1), {}),  # 2-d coordinates
        ((np.arange(2.0), 1), {}),  # wrong length
        ((), {"edge_order": 3}),
        ((), {"axis": (0, 0)}),
        ((), {"axis": 2}),
    ]:
        check(lnp.gradient, np.gradient, f, *args, **kwargs)
    check(lnp.gradient, np.gradient, np.arange(2.0), edge_order=2)  # too short
    check(lnp.gradient, np.gradient, np.array([1.0]), np.array([0.0]))  # numpy's IndexError
    check(lnp.gradient, np.gradient, np.array([True, False, True]))  # bool subtract
    check(lnp.gradient, np.gradient, np.array(5.0))  # 0-d: ()
    check(lnp.gradient, np.gradient, np.zeros((0, 3)), axis=1)


@pytest.mark.parametrize("coords", [[0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 3.0, 3.5, 6.0]])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_of_computed_coordinates(coords: list[float], edge_order: int) -> None:
    """Coordinates known only when computed: whether they are evenly spaced
    (numpy's choice of formula) is decided in the graph, exactly."""
    f = np.random.default_rng(0).normal(size=(5, 3))
    with lazygraph.config.change(eager_max_elements=0):
        x = lnp.asarray(np.array(coords)) * 1.0
        got = lnp.gradient(lnp.asarray(f), x, axis=0, edge_order=edge_order).compute()
    want = np.gradient(f, coords, axis=0, edge_order=edge_order)
    if BACKEND == "python":  # numpy's formula, operation for operation
        np.testing.assert_array_equal(got, want)
    else:  # a compiler may contract a multiply-add (XLA does): last-bit differences
        np.testing.assert_allclose(got, want, rtol=4e-15, atol=4e-16)


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_unwrap_matches_numpy(data: st.DataObject) -> None:
    p = data.draw(array_args((*INTS, *FLOATS), min_dims=1, max_dims=3), label="p")
    axis = data.draw(st.integers(-p.ndim, p.ndim - 1), label="axis")
    period = data.draw(st.sampled_from([2 * math.pi, 6, 7, 360, np.float32(5.0), 2.5]))
    discont = data.draw(st.sampled_from([None, 1.0, 4, 1000.0]))
    assume(not (p.dtype.kind in "iu" and p.dtype.itemsize < 8 and p.size))  # int overflow
    check(lnp.unwrap, np.unwrap, p, discont, axis, period=period, rtol=1e-5)


def test_unwrap_edges() -> None:
    check(lnp.unwrap, np.unwrap, np.array([0.0, np.pi, 0.0, -np.pi, 0.0, 3 * np.pi]))
    check(lnp.unwrap, np.unwrap, np.array([0, 3, 6, 3, 0, -3]), period=6)  # ties: sign kept
    check(lnp.unwrap, np.unwrap, np.array([0.0, 7.0, np.nan, 1.0, np.inf]))
    check(lnp.unwrap, np.unwrap, np.array(1.0))  # 0-d: ValueError
    check(lnp.unwrap, np.unwrap, np.zeros((2, 0)))
    check(lnp.unwrap, np.unwrap, np.zeros((2, 3)), axis=2)  # AxisError
    phase = np.cumsum(np.random.default_rng(1).normal(size=50)) * 2.0
    check(lnp.unwrap, np.unwrap, np.angle(np.exp(1j * phase)), rtol=1e-12)


@pytest.mark.parametrize(
    ("name", "fn", "point"),
    [
        (
            "gradient, coordinates",
            lambda f: lnp.gradient(f, lt.constant(np.array([0.0, 0.5, 2.0, 2.5, 4.0])))._var,
            [np.array([1.0, -2.0, 0.5, 3.0, 4.0])],
        ),
        (
            "gradient, edge order 2, one axis of two",
            lambda f: lnp.gradient(f, 0.5, 2.0, edge_order=2)[1]._var,
            [np.arange(12.0).reshape(3, 4) ** 1.5],
        ),
        ("unwrap", lambda p: lnp.unwrap(p)._var, [np.array([0.1, 3.0, 6.5, 0.5, -2.5])]),
    ],
)
def test_verify_grad(name: str, fn: Any, point: list[np.ndarray]) -> None:
    verify_grad(fn, point)


def test_gradient_all_dtypes_and_empty() -> None:
    for dtype in ALL:
        f = np.array([[1, 4, 9], [2, 3, 7]]).astype(dtype)
        check(lnp.gradient, np.gradient, f, rtol=1e-6)
        check(lnp.gradient, np.gradient, f, np.float64(2.0), edge_order=2, rtol=1e-6)

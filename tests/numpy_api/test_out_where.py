"""numpy's ``out=`` and ``where=`` on the namespace's reductions and other
functions that take them, against numpy: the result written into a lazy or a
numpy ``out`` (returned as itself), and ``where=`` leaving elements out."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from tests.numpy_api.namespace_harness import check
from tests.tensor.harness import arrays

REDUCTIONS = ["sum", "prod", "mean", "var", "std", "max", "min", "all", "any"]
#: the reductions that need ``initial=`` beside ``where=``
NEED_INITIAL = {"max", "min"}


@pytest.mark.parametrize("name", REDUCTIONS)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_where(name, data):
    dtype = data.draw(st.sampled_from(["bool", "int32", "float32", "float64", "complex128"]))
    if name in ("max", "min") and dtype == "complex128":
        dtype = "float64"
    shape = data.draw(st.sampled_from([(0,), (3,), (2, 3), (2, 0), ()]))
    x = data.draw(arrays(dtype, shape))
    mask = data.draw(arrays("bool", shape[-1:] if shape else ()))
    axis = data.draw(st.sampled_from([None, -1] if shape else [None]))
    keepdims = data.draw(st.booleans())
    kw = {"axis": axis, "keepdims": keepdims, "where": mask}
    if name in NEED_INITIAL:
        kw["initial"] = data.draw(st.sampled_from([0, -5, 3]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(getattr(lnp, name), getattr(np, name), x, rtol=1e-5, **kw)


def test_where_needs_initial_for_max_and_min():
    with pytest.raises(ValueError, match="identity"):
        lnp.max([1.0, 2.0], where=[True, False])


@pytest.mark.parametrize(
    "name, args",
    [
        ("sum", {"axis": 0}),
        ("prod", {"axis": 1}),
        ("mean", {"axis": 0}),
        ("std", {"axis": 1}),
        ("var", {"axis": 0, "ddof": 1}),
        ("max", {"axis": 0}),
        ("min", {"axis": 1}),
        ("ptp", {"axis": 0}),
        ("argmax", {"axis": 0}),
        ("argmin", {"axis": 1}),
        ("all", {"axis": 0}),
        ("any", {"axis": 1}),
        ("cumsum", {"axis": 0}),
        ("cumprod", {"axis": 1}),
        ("median", {"axis": 0}),
        ("round", {"decimals": 1}),
    ],
)
@pytest.mark.parametrize("target", ["lazy", "numpy"])
@pytest.mark.parametrize("out_dtype", ["float64", "int64", "float32"])
def test_out(name, args, target, out_dtype):
    x = np.random.default_rng(0).normal(size=(3, 4)) * 10
    want_value = getattr(np, name)(x, **args)
    want = np.zeros(np.shape(want_value), out_dtype)
    got_out = lnp.zeros(want.shape, out_dtype) if target == "lazy" else want.copy()
    numpy_error = None
    try:
        getattr(np, name)(x, **args, out=want)
    except TypeError as exc:
        numpy_error = exc
    if numpy_error is not None:
        with pytest.raises(TypeError):
            getattr(lnp, name)(lnp.asarray(x), **args, out=got_out)
        return
    got = getattr(lnp, name)(lnp.asarray(x), **args, out=got_out)
    assert got is got_out
    np.testing.assert_allclose(np.asarray(got_out), want, rtol=1e-6)


def test_out_positional_and_shape_errors():
    x = lnp.asarray(np.arange(6.0).reshape(2, 3))
    buf = np.zeros(3)
    assert lnp.sum(x, 0, None, buf) is buf
    np.testing.assert_array_equal(buf, [3.0, 5.0, 7.0])
    with pytest.raises(ValueError, match="non-broadcastable"):
        lnp.sum(x, axis=0, out=np.zeros(2))
    with pytest.raises(TypeError):
        lnp.sum(x, axis=0, out=[0.0, 0.0, 0.0])
    lazy = lnp.zeros(2)
    lnp.mean(x, axis=1, out=lazy)
    np.testing.assert_array_equal(lazy.compute(), [1.0, 4.0])
    # a known operand's call is not replayed past its out=
    for i in range(3):
        y = lnp.asarray(np.full(3, float(i)))
        into = np.zeros(())
        assert lnp.sum(y, out=into) is into
        assert into == 3.0 * i


def test_var_and_std_take_a_precomputed_mean():
    x = np.random.default_rng(1).normal(size=(4, 3))
    m = x.mean(axis=0, keepdims=True)
    for name in ("var", "std"):
        check(getattr(lnp, name), getattr(np, name), x, axis=0, mean=m, rtol=1e-12)


@pytest.mark.parametrize(
    "name, call",
    [
        ("clip", lambda ns, x, **k: ns.clip(x, -1.0, 1.0, **k)),
        ("nansum", lambda ns, x, **k: ns.nansum(x, axis=0, **k)),
        ("nanmean", lambda ns, x, **k: ns.nanmean(x, axis=1, **k)),
        ("nanmax", lambda ns, x, **k: ns.nanmax(x, axis=0, **k)),
        ("nanstd", lambda ns, x, **k: ns.nanstd(x, axis=0, **k)),
        ("concatenate", lambda ns, x, **k: ns.concatenate([x, x], axis=0, **k)),
        ("stack", lambda ns, x, **k: ns.stack([x, x], **k)),
        ("dot", lambda ns, x, **k: ns.dot(x, x.T, **k)),
        ("outer", lambda ns, x, **k: ns.outer(x[0], x[1], **k)),
        ("einsum", lambda ns, x, **k: ns.einsum("ij,kj->ik", x, x, **k)),
        ("trace", lambda ns, x, **k: ns.trace(x, **k)),
        ("matmul", lambda ns, x, **k: ns.matmul(x, x.T, **k)),
        ("take", lambda ns, x, **k: ns.take(x, [0, 2], axis=1, **k)),
        ("choose", lambda ns, x, **k: ns.choose([0, 1, 0, 1], x, **k)),
    ],
)
@pytest.mark.parametrize("target", ["lazy", "numpy"])
def test_out_of_other_functions(name, call, target):
    x_np = np.random.default_rng(2).normal(size=(2, 4))
    want_value = call(np, x_np)
    want = np.zeros(np.shape(want_value))
    call(np, x_np, out=want)
    got_out = lnp.zeros(want.shape) if target == "lazy" else np.zeros(want.shape)
    got = call(lnp, lnp.asarray(x_np), out=got_out)
    assert got is got_out
    np.testing.assert_allclose(np.asarray(got_out), want, rtol=1e-12)

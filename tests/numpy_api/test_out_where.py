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
    with pytest.raises(ValueError, match="wrong shape"):
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


#: functions whose out= numpy fills only at the result's exact shape, and some
#: (ufuncs underneath) that broadcast into it
_OUT_SHAPE_CALLS = {
    "sum": lambda ns, x, **k: ns.sum(x, axis=0, **k),
    "max": lambda ns, x, **k: ns.max(x, axis=-1, **k),
    "argmin": lambda ns, x, **k: ns.argmin(x, axis=0, **k),
    "any": lambda ns, x, **k: ns.any(x, axis=0, **k),
    "mean": lambda ns, x, **k: ns.mean(x, axis=0, **k),
    "std": lambda ns, x, **k: ns.std(x, axis=0, **k),
    "cumsum": lambda ns, x, **k: ns.cumsum(x, axis=0, **k),
    "nansum": lambda ns, x, **k: ns.nansum(x, axis=0, **k),
    "median": lambda ns, x, **k: ns.median(x, axis=0, **k),
    "take": lambda ns, x, **k: ns.take(x, [0, 1], **k),
    "trace": lambda ns, x, **k: ns.trace(x, **k),
    "dot": lambda ns, x, **k: ns.dot(x, x.T, **k),
    "einsum": lambda ns, x, **k: ns.einsum("ij->j", x, **k),
    "choose": lambda ns, x, **k: ns.choose([0, 1, 0], [x[0, :3], x[1, :3]], **k),
    "compress": lambda ns, x, **k: ns.compress([True, False, True], x[0], **k),
    "quantile": lambda ns, x, **k: ns.quantile(x, 0.5, axis=0, **k),
    "outer": lambda ns, x, **k: ns.outer(x[0], x[1], **k),
    "clip": lambda ns, x, **k: ns.clip(x, 0.0, 1.0, **k),
    "isposinf": lambda ns, x, **k: ns.isposinf(x, **k),
}


@pytest.mark.parametrize("name", sorted(_OUT_SHAPE_CALLS))
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_out_of_another_shape_is_numpys_error_or_broadcast(name, data):
    # a reduction (sum, median, take, dot...) is never broadcast into out=: an out
    # with extra or size-1 axes is numpy's ValueError (TypeError for choose);
    # quantile, outer, clip, isposinf write through ufuncs, which broadcast
    call = _OUT_SHAPE_CALLS[name]
    x = data.draw(
        arrays("float64", (2, data.draw(st.integers(3, 4))), min_value=-1e3, max_value=1e3)
    ).round(3)  # (no subnormals: XLA reads them as zeros)
    shape = np.shape(call(np, x))
    out_shape = data.draw(
        st.sampled_from([(2, *shape), (1, *shape), (*shape[:-1], 1) if shape else (1,), shape])
    )
    want = np.zeros(out_shape, "int64" if name == "argmin" else "float64")
    target = data.draw(st.sampled_from(["lazy", "numpy"]))
    got_out = lnp.asarray(want.copy()) if target == "lazy" else want.copy()
    try:
        call(np, x, out=want)
    except (ValueError, TypeError) as exc:
        with pytest.raises(type(exc)):
            call(lnp, lnp.asarray(x), out=got_out)
        return
    assert call(lnp, lnp.asarray(x), out=got_out) is got_out
    np.testing.assert_allclose(np.asarray(got_out), want, rtol=1e-12)


def test_dot_out_must_have_the_results_dtype_and_c_order():
    a = np.arange(6.0).reshape(2, 3)
    with pytest.raises(ValueError, match="dtype"):
        lnp.dot(a, a.T, out=np.zeros((2, 2), "float32"))  # numpy: "not acceptable"
    for target in (np.zeros((2, 2)).T, np.zeros((2, 4))[:, ::2], lnp.zeros((2, 2)).T):
        with pytest.raises(ValueError, match="C-contiguous"):
            lnp.dot(a, a.T, out=target)
    out = np.zeros((2, 2))
    assert lnp.dot(a, a.T, out=out) is out
    np.testing.assert_array_equal(out, a @ a.T)

"""The namespace's ufunc objects against numpy's: attributes, calls with
``out=`` / ``where=``, and the methods ``reduce``, ``accumulate``, ``outer``,
``at`` and ``reduceat`` on random arrays (0-d, empty, NaN, integer limits)."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from tests.numpy_api.namespace_harness import array_args, binary_args, check
from tests.tensor.harness import arrays

UFUNCS = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc) and hasattr(lnp, n))
BINARY = [n for n in UFUNCS if getattr(np, n).nin == 2 and getattr(np, n).nout == 1]
BINARY = [n for n in BINARY if getattr(np, n).signature is None]
#: the binary ufuncs whose reduce / accumulate record lazily (no numpy fallback)
LAZY_REDUCE = [
    "add",
    "multiply",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "logical_and",
    "logical_or",
    "logical_xor",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "gcd",
]
LAZY_ACCUMULATE = [n for n in LAZY_REDUCE if n not in ("logical_and", "logical_or")]
INTS = ["int8", "int32", "int64", "uint8", "uint64"]
DTYPES = {
    "logical_and": ["bool", "int32", "float64"],
    "logical_or": ["bool", "int32", "float64"],
    "logical_xor": ["bool", "int32", "float64"],
    "bitwise_and": ["bool", *INTS],
    "bitwise_or": ["bool", *INTS],
    "bitwise_xor": ["bool", *INTS],
    "gcd": INTS,
    "lcm": INTS,
}
FLOATISH = ["bool", "int16", "int64", "uint32", "float32", "float64", "complex128"]


def _dtypes(name: str) -> list[str]:
    default = FLOATISH if name not in ("fmax", "fmin", "maximum", "minimum") else FLOATISH[:-1]
    return DTYPES.get(name, default)


@pytest.fixture(autouse=True)
def _no_fallback():
    """The lazy methods must not fall back to numpy."""
    with lazygraph.config.change(on_numpy_fallback="raise"):
        yield


def test_every_numpy_ufunc_of_the_namespace_is_a_ufunc():
    for name in UFUNCS:
        u, ref = getattr(lnp, name), getattr(np, name)
        assert isinstance(u, lnp.ufunc), name
        assert (u.__name__, u.nin, u.nout, u.nargs) == (ref.__name__, ref.nin, ref.nout, ref.nargs)
        assert u.identity == ref.identity or (u.identity is None and ref.identity is None), name
        assert u.signature == ref.signature, name
        assert set(u.types) <= set(ref.types) and u.ntypes == len(u.types), name
        assert u.types or name == "isnat", name  # (lazygraph has no datetime dtypes)
        assert repr(u) == repr(ref)
        assert pickle.loads(pickle.dumps(u)) is u
    assert lnp.mod is lnp.remainder and lnp.abs is lnp.absolute
    assert not isinstance(lnp.sum, lnp.ufunc)  # a function, not a ufunc, in numpy too


@pytest.mark.parametrize("name", LAZY_REDUCE)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_reduce(name, data):
    x = data.draw(array_args(_dtypes(name), min_dims=1, max_dims=3))
    axis = data.draw(st.sampled_from([0, -1, None, (0, x.ndim - 1)]))
    keepdims = data.draw(st.booleans())
    check(getattr(lnp, name).reduce, getattr(np, name).reduce, x, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("name", ["add", "maximum", "bitwise_or", "gcd", "logical_or"])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_reduce_initial_and_where(name, data):
    dtype = data.draw(st.sampled_from(_dtypes(name)))
    x = data.draw(arrays(dtype, (data.draw(st.integers(0, 4)), 3)))
    mask = data.draw(arrays("bool", x.shape))
    initial = data.draw(st.sampled_from([0, 1, 5]))
    kw = {"axis": 0, "initial": initial}
    check(getattr(lnp, name).reduce, getattr(np, name).reduce, x, **kw)
    check(getattr(lnp, name).reduce, getattr(np, name).reduce, x, where=mask, **kw)


@pytest.mark.parametrize("name", LAZY_ACCUMULATE)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_accumulate(name, data):
    x = data.draw(array_args(_dtypes(name), min_dims=1, max_dims=2))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    check(getattr(lnp, name).accumulate, getattr(np, name).accumulate, x, axis=axis)


@pytest.mark.parametrize("name", BINARY)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_outer(name, data):
    dtypes = DTYPES.get(name, ["int32", "float64"])
    a = data.draw(array_args(dtypes, max_dims=2))
    b = data.draw(array_args(dtypes, max_dims=2))
    check(getattr(lnp, name).outer, getattr(np, name).outer, a, b)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_add_at_accumulates_repeated_indices(data):
    dtype = data.draw(st.sampled_from(["int64", "float64", "complex128", "int8"]))
    n = data.draw(st.integers(1, 6))
    x = data.draw(arrays(dtype, (n, 2)))
    idx = data.draw(st.lists(st.integers(-n, n - 1), max_size=8))
    values = data.draw(st.sampled_from([1, 2.5, -3]))
    for name in ("add", "subtract"):
        want = x.copy()
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                getattr(np, name).at(want, idx, values)
            except TypeError:  # a cast numpy refuses (2.5 into int64 under same_kind)
                continue
        lazy = lnp.asarray(x)
        with lazygraph.config.change(on_numpy_fallback="ignore"):  # int64 - 2.5 runs numpy's
            getattr(lnp, name).at(lazy, idx, values)
        np.testing.assert_array_equal(lazy.compute(), want)


def test_at_of_other_ufuncs_and_numpy_targets():
    with lazygraph.config.change(on_numpy_fallback="ignore"):
        a = lnp.ones(4)
        lnp.multiply.at(a, [0, 0, 3], 3.0)
        np.testing.assert_array_equal(a.compute(), [9.0, 1.0, 1.0, 3.0])
        b = lnp.arange(4)
        lnp.negative.at(b, [1, 2])
        np.testing.assert_array_equal(b.compute(), [0, -1, -2, 3])
    buf = np.zeros(3)
    lnp.add.at(buf, lnp.asarray([0, 0]), 1.0)
    np.testing.assert_array_equal(buf, [2.0, 0.0, 0.0])
    with pytest.raises(ValueError):
        lnp.add.at(lnp.zeros(2), [0])
    with pytest.raises(IndexError):
        c = lnp.zeros(2)
        lnp.add.at(c, [5], 1)
        c.compute()


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_reduceat(data):
    name = data.draw(st.sampled_from(["add", "multiply", "maximum", "bitwise_or"]))
    dtype = data.draw(st.sampled_from(["int64", "float64"] if name != "bitwise_or" else INTS))
    n = data.draw(st.integers(1, 7))
    x = data.draw(arrays(dtype, (n, 2)))
    idx = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=6))
    axis = data.draw(st.sampled_from([0, -2]))
    check(getattr(lnp, name).reduceat, getattr(np, name).reduceat, x, idx, axis=axis)


def test_order_dependent_reductions_run_numpy():
    """subtract.reduce, lcm.reduce (whose int overflow depends on the order)...
    compute the operand and run numpy's own method."""
    with lazygraph.config.change(on_numpy_fallback="ignore"):
        x = np.array([43, 3, 3, 7], dtype=np.int8)
        for name in ("subtract", "lcm", "divide", "power"):
            for method in ("reduce", "accumulate"):
                with np.errstate(all="ignore"):
                    check(
                        getattr(getattr(lnp, name), method), getattr(getattr(np, name), method), x
                    )


def test_methods_refused_as_numpy_refuses_them():
    with pytest.raises(ValueError):
        lnp.exp.reduce([1.0])
    with pytest.raises(ValueError):
        lnp.matmul.reduce([[1.0]])
    with pytest.raises(ValueError):
        lnp.maximum.reduce(np.zeros((0, 2)), axis=0)
    with pytest.raises(ValueError):  # where= needs an identity or initial
        lnp.maximum.reduce([1, 2], where=[True, False])
    with pytest.raises(np.exceptions.AxisError):
        lnp.add.reduce(np.zeros((2, 2)), axis=2)
    with pytest.raises(TypeError):
        lnp.add.accumulate(np.float64(1.0))


@pytest.mark.parametrize("method", ["reduce", "accumulate", "reduceat"])
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_reduce_like_methods_write_only_an_out_of_the_results_shape(method, data):
    # numpy never broadcasts a reduction into out=: (4, 3) summed over axis 0
    # fits only out (3,) (or (1, 3) with keepdims), a ValueError otherwise
    name = data.draw(st.sampled_from(["add", "maximum", "bitwise_or"]))
    x = data.draw(arrays("int32", (data.draw(st.integers(1, 4)), 3)))
    kw = {"axis": 0}
    args: tuple = (x,)
    if method == "reduce":
        kw["keepdims"] = data.draw(st.booleans())
    if method == "reduceat":
        args = (x, data.draw(st.lists(st.integers(0, x.shape[0] - 1), min_size=1, max_size=3)))
    shape = getattr(getattr(np, name), method)(*args, **kw).shape
    for out_shape in {shape, (1, *shape), (2, *shape), shape[:-1], (*shape[:-1], 1), ()}:
        want = np.zeros(out_shape, "int64")
        try:
            getattr(getattr(np, name), method)(*args, out=want, **kw)
        except ValueError:
            with pytest.raises(ValueError):
                getattr(getattr(lnp, name), method)(*args, out=np.zeros(out_shape, "int64"), **kw)
            continue
        out = lnp.zeros(out_shape, "int64")
        assert getattr(getattr(lnp, name), method)(*args, out=out, **kw) is out
        np.testing.assert_array_equal(out.compute(), want)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "bitwise_xor", "logical_or"])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_reduce_initial_none_takes_the_identity_away(name, data):
    # initial=None: no identity, so an empty reduction is numpy's ValueError
    x = data.draw(
        arrays(data.draw(st.sampled_from(_dtypes(name))), (data.draw(st.integers(0, 3)), 2))
    )
    axis = data.draw(st.sampled_from([0, 1, None]))
    # (numpy starts a sum at the first element: sum([-0.0]) is -0.0 there, 0.0 here)
    check(
        getattr(lnp, name).reduce,
        getattr(np, name).reduce,
        x,
        axis=axis,
        initial=None,
        signed_zeros=name not in ("add", "multiply"),
    )


@pytest.mark.parametrize("name", ["bitwise_or", "gcd", "maximum"])
@pytest.mark.parametrize("n", [0, 1, 3])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_short_reductions_refuse_dtypes_the_ufunc_has_no_loop_for(name, n, dtype):
    # reducing none or one element still needs numpy's loop for the dtype
    x = np.ones(n, dtype)
    for method in ("reduce", "accumulate"):
        check(getattr(getattr(lnp, name), method), getattr(getattr(np, name), method), x)


# -- out= and where= on calls ---------------------------------------------------------


@pytest.mark.parametrize("target", ["lazy", "numpy"])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_out_and_where(target, data):
    name = data.draw(st.sampled_from(["add", "multiply", "subtract", "maximum", "exp", "sqrt"]))
    ref = getattr(np, name)
    args = data.draw(
        binary_args(["int32", "float64"], scalars=False)
        if ref.nin == 2
        else st.tuples(array_args(["float64"]))
    )
    shape = np.broadcast_shapes(*(np.shape(a) for a in args))
    out_dtype = data.draw(st.sampled_from(["float64", "int64", "complex128"]))
    start = data.draw(arrays(out_dtype, shape))
    mask = data.draw(st.one_of(st.just(True), arrays("bool", shape)))
    want = start.copy()
    with np.errstate(all="ignore"):
        try:
            ref(*args, out=want, where=mask)
        except TypeError as exc:
            with pytest.raises(TypeError):
                out = lnp.asarray(start) if target == "lazy" else start.copy()
                getattr(lnp, name)(*args, out=out, where=mask)
            assert "Cannot cast" in str(exc)
            return
    out = lnp.asarray(start) if target == "lazy" else start.copy()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = getattr(lnp, name)(*args, out=out, where=mask)
    assert got is out
    np.testing.assert_array_equal(np.asarray(out), want)


def test_out_aliasing_and_bad_outs():
    a = lnp.arange(4.0)
    assert lnp.add(a, a[::-1], out=a) is a
    np.testing.assert_array_equal(a.compute(), [3.0, 3.0, 3.0, 3.0])
    b = lnp.zeros((2, 3))
    lnp.add([1, 2, 3], 1, out=(b,))  # out broadcasts the result, as numpy's does
    np.testing.assert_array_equal(b.compute(), [[2, 3, 4], [2, 3, 4]])
    with pytest.raises(ValueError, match="non-broadcastable"):
        lnp.add(lnp.ones((2, 3)), 1, out=lnp.zeros(3))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        lnp.add([1.5], 1, out=lnp.zeros(1, dtype=int))
    with pytest.raises(TypeError):
        lnp.add([1.5], 1, out=[0.0])
    q, r = lnp.zeros(2, dtype=int), lnp.zeros(2, dtype=int)
    lnp.add([7, -7], 0, out=q)
    np.testing.assert_array_equal(q.compute(), [7, -7])
    del r


# -- vectorize and frompyfunc -----------------------------------------------------------


def test_vectorize_runs_python_per_element_and_returns_lazy():
    def clipped(x, limit):
        return x if x < limit else limit  # Python control flow on scalars

    v = lnp.vectorize(clipped)
    x = lnp.asarray([1.0, 5.0, 3.0])
    got = v(x, 2.5)
    assert isinstance(got, lnp.Array)
    np.testing.assert_array_equal(got.compute(), np.vectorize(clipped)(np.asarray(x), 2.5))

    @lnp.vectorize
    def sign_word(x):
        return 1 if x > 0 else (-1 if x < 0 else 0)

    np.testing.assert_array_equal(sign_word(lnp.asarray([-2, 0, 3])).compute(), [-1, 0, 1])
    pair = lnp.vectorize(lambda a, b: (a + b, a * b), otypes=[float, float])
    total, product = pair(lnp.arange(3), 2)
    np.testing.assert_array_equal(total.compute(), [2.0, 3.0, 4.0])
    np.testing.assert_array_equal(product.compute(), [0.0, 2.0, 4.0])
    inner = lnp.vectorize(lambda a, b: a @ b, signature="(n),(n)->()")
    np.testing.assert_array_equal(inner(lnp.ones((2, 3)), lnp.arange(3.0)).compute(), [3.0, 3.0])
    assert isinstance(v, np.vectorize)


def test_frompyfunc_gives_numpy_object_results():
    u = lnp.frompyfunc(lambda a, b: a * b, 2, 1)
    with lazygraph.config.change(on_numpy_fallback="ignore"):
        got = u(lnp.arange(3), 2)
    np.testing.assert_array_equal(np.asarray(got, dtype=int), [0, 2, 4])


# -- gradients through the methods --------------------------------------------------

RNG = np.random.default_rng(0)
M = RNG.normal(size=(3, 5))  # distinct values: no ties for maximum's gradient


def _added_at(a):
    from lazygraph.numpy._convert import wrap

    x = wrap(a)
    lnp.add.at(x, [0, 2, 0], 1.5 * x[1])
    return x._var


GRAD_CASES = [
    ("add.reduce", lambda a: lnp.add.reduce(a, axis=1)._var),
    ("maximum.reduce", lambda a: lnp.maximum.reduce(a, axis=(0, 1))._var),
    ("fmin.reduce", lambda a: lnp.fmin.reduce(a, axis=0, keepdims=True)._var),
    ("maximum.accumulate", lambda a: lnp.maximum.accumulate(a, axis=1)._var),
    ("multiply.accumulate", lambda a: lnp.multiply.accumulate(a, axis=0)._var),
    ("multiply.outer", lambda a: lnp.multiply.outer(a[0], a[1])._var),
    ("add.at", _added_at),
    ("add.reduceat", lambda a: lnp.add.reduceat(a, [0, 3, 1], axis=1)._var),
    ("sum(where=)", lambda a: lnp.sum(a, axis=1, where=[True, False, True, True, False])._var),
    ("var(where=)", lambda a: lnp.var(a, axis=1, where=[True, False, True, True, True])._var),
]


@pytest.mark.parametrize(("name", "fn"), GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_verify_grad(name, fn):
    from lazygraph.gradient import verify_grad

    verify_grad(fn, [M])

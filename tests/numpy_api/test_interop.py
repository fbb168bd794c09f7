"""numpy interop: numpy's ufuncs and functions called on lazy arrays stay lazy
where lazygraph.numpy has the function, and otherwise compute, call numpy, wrap
the result and warn once per function (or raise / stay silent, per
``lazygraph.config.on_numpy_fallback``)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.compile.cache import stats
from lazygraph.numpy import _interop
from lazygraph.numpy._interop import LazygraphFallbackError, LazygraphFallbackWarning
from tests.tensor.harness import arrays, assert_numpy_equal, numpy_result

UNARY_UFUNCS = ["exp", "log1p", "sin", "sqrt", "negative", "absolute", "floor", "isnan", "square"]
BINARY_UFUNCS = ["add", "multiply", "maximum", "arctan2", "hypot", "greater", "logical_and"]


@pytest.fixture(autouse=True)
def _fresh_warning_registry() -> Any:
    _interop._warned.clear()
    yield
    _interop._warned.clear()


def _stays_lazy(fn: Any) -> Any:
    before = stats().compiles
    out = fn()
    assert stats().compiles == before, "building the expression computed something"
    return out


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(UNARY_UFUNCS), data=st.data())
def test_unary_ufunc_stays_lazy(name: str, data: Any) -> None:
    a = data.draw(arrays("float64", st.sampled_from([(), (0,), (3,), (2, 3)])))
    ufunc = getattr(np, name)
    out = _stays_lazy(lambda: ufunc(lnp.asarray(a)))
    assert isinstance(out, lnp.Array)
    expected, _ = numpy_result(ufunc, a)
    with np.errstate(all="ignore"):
        assert_numpy_equal(out.compute(), expected)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(BINARY_UFUNCS), data=st.data(), lazy_first=st.booleans())
def test_binary_ufunc_with_numpy_operand_stays_lazy(name: str, data: Any, lazy_first: bool) -> None:
    a = data.draw(arrays("float32", (3,)))
    b = data.draw(arrays("float64", (2, 1)))
    ufunc = getattr(np, name)
    args = (lnp.asarray(a), b) if lazy_first else (a, lnp.asarray(b))
    out = _stays_lazy(lambda: ufunc(*args))
    assert isinstance(out, lnp.Array)
    expected, _ = numpy_result(ufunc, a, b)
    with np.errstate(all="ignore"):
        assert_numpy_equal(out.compute(), expected)


def test_ndarray_operators_with_lazy_right_operand_stay_lazy() -> None:
    a = np.arange(3.0)
    x = lnp.asarray(np.array([1.0, 2.0, 3.0]))
    for out, expected in ((a + x, a + 1 + a), (a * x, a * (a + 1)), (a < x, a < a + 1)):
        assert isinstance(out, lnp.Array)
        np.testing.assert_array_equal(out.compute(), expected)


def test_ufunc_reduce_accumulate_outer_at() -> None:
    a = np.arange(12.0).reshape(3, 4) - 5
    x = lnp.asarray(a)
    for ufunc in (np.add, np.multiply, np.maximum, np.minimum):
        for axis in (0, 1, None):
            out = _stays_lazy(lambda: ufunc.reduce(x, axis=axis))  # noqa: B023
            assert isinstance(out, lnp.Array)
            assert_numpy_equal(out.compute(), ufunc.reduce(a, axis=axis))
        kept = ufunc.reduce(x, axis=1, keepdims=True)
        assert_numpy_equal(kept.compute(), ufunc.reduce(a, axis=1, keepdims=True))
    for ufunc in (np.add, np.multiply):
        assert_numpy_equal(ufunc.accumulate(x).compute(), ufunc.accumulate(a))
        assert_numpy_equal(ufunc.accumulate(x, axis=1).compute(), ufunc.accumulate(a, axis=1))
    assert_numpy_equal(
        np.logical_and.reduce(x > 0, axis=0).compute(), np.logical_and.reduce(a > 0, axis=0)
    )
    assert_numpy_equal(np.multiply.outer(x[0], a[1]).compute(), np.multiply.outer(a[0], a[1]))
    y, y_np = lnp.asarray(np.zeros(4)), np.zeros(4)
    np.add.at(y, [0, 0, 3], 1.5)
    np.add.at(y_np, [0, 0, 3], 1.5)
    np.subtract.at(y, [1], 2.0)
    np.subtract.at(y_np, [1], 2.0)
    assert_numpy_equal(y.compute(), y_np)


def test_ufunc_out_arguments() -> None:
    a = np.arange(3.0)
    out = lnp.asarray(np.zeros(3))
    view = out[1:]
    result = np.multiply(lnp.asarray(a), 2, out=out)
    assert result is out
    np.testing.assert_array_equal(out.compute(), a * 2)
    np.testing.assert_array_equal(view.compute(), (a * 2)[1:])
    # A numpy out= buffer is written with the computed result (the namespace
    # ufunc's out=: nothing to warn about, the buffer asked for the values).
    buf = np.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", LazygraphFallbackWarning)
        assert np.add(lnp.asarray(a), 1, out=buf) is buf
        np.testing.assert_array_equal(buf, a + 1)
        acc = np.ones(3)
        acc += lnp.asarray(a)
    np.testing.assert_array_equal(acc, a + 1)


@pytest.mark.parametrize(
    ("func", "args", "kwargs"),
    [
        (np.concatenate, ("LAZY_LIST",), {"axis": 0}),
        (np.sum, ("X",), {"axis": 1}),
        (np.mean, ("X",), {}),
        (np.where, ("MASK", "X", 0.0), {}),
        (np.dot, ("X", "XT"), {}),
        (np.transpose, ("X",), {}),
        (np.reshape, ("X", (4, 3)), {}),
        (np.clip, ("X", 1.0, 5.0), {}),
        (np.stack, ("LAZY_LIST",), {"axis": 1}),
        (np.linalg.norm, ("X",), {}),
        (np.linalg.norm, ("X",), {"axis": 1}),
    ],
)
def test_array_function_stays_lazy(
    func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    a = np.arange(12.0).reshape(3, 4)
    x = lnp.asarray(a)
    lazy_sub = {"X": x, "XT": x.T, "MASK": x > 4, "LAZY_LIST": [x, a]}
    numpy_sub = {"X": a, "XT": a.T, "MASK": a > 4, "LAZY_LIST": [a, a]}

    def fill(sub: dict[str, Any]) -> list[Any]:
        return [sub.get(v, v) if isinstance(v, str) else v for v in args]

    with warnings.catch_warnings():
        warnings.simplefilter("error", LazygraphFallbackWarning)
        out = _stays_lazy(lambda: func(*fill(lazy_sub), **kwargs))
    assert isinstance(out, lnp.Array), type(out)
    assert_numpy_equal(out.compute(), func(*fill(numpy_sub), **kwargs))


def test_shape_and_ndim_do_not_compute() -> None:
    x = lnp.asarray(np.zeros((2, 5)))
    assert _stays_lazy(lambda: np.shape(x * 2)) == (2, 5)
    assert _stays_lazy(lambda: np.ndim(x * 2)) == 2


def test_copyto_rebinds_a_lazy_destination() -> None:
    dst = lnp.asarray(np.zeros(3))
    np.copyto(dst, np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(dst.compute(), [1.0, 2.0, 3.0])
    with pytest.raises(TypeError):
        np.copyto(lnp.asarray(np.zeros(3, dtype=np.int64)), np.ones(3))


def _unimplemented() -> Any:
    """A numpy function lazygraph.numpy has no lazy version of: the order-dependent
    ``subtract.accumulate`` (checked, so the test can fail)."""
    assert "subtract" not in lnp._ufunc_object._ACCUMULATIONS
    assert "subtract" not in lnp._ufunc_object._ORDER_FREE
    return np.subtract.accumulate


def test_fallback_computes_calls_numpy_wraps_and_warns_once() -> None:
    func = _unimplemented()
    a = np.array([0.0, 1.0, 2.5])
    x = lnp.asarray(a)
    with pytest.warns(LazygraphFallbackWarning, match=r"numpy\.subtract\.accumulate") as record:
        out = func(x * 2)
    assert record[0].filename == __file__  # points at the caller's line
    assert isinstance(out, lnp.Array)
    np.testing.assert_allclose(out.compute(), func(a * 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error", LazygraphFallbackWarning)
        again = func(x)  # once per function
    np.testing.assert_allclose(again.compute(), func(a))


def test_fallback_can_raise_or_be_silent() -> None:
    func = _unimplemented()
    x = lnp.asarray(np.array([1.0, 2.0]))
    with lazygraph.config.change(on_numpy_fallback="raise"), pytest.raises(LazygraphFallbackError):
        func(x)
    with lazygraph.config.change(on_numpy_fallback="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(func(x).compute(), func(np.array([1.0, 2.0])))


@pytest.mark.parametrize(
    ("func", "args"),
    [
        (np.fill_diagonal, (0.0,)),
        (np.put, ([0, 4], [-1.0, -2.0])),
        (np.putmask, (np.eye(3, dtype=bool), 9.0)),
        (np.place, (np.eye(3, dtype=bool), [7.0])),
    ],
)
def test_fallback_of_numpy_functions_that_write_into_an_argument(func: Any, args: Any) -> None:
    a = np.arange(9.0).reshape(3, 3)
    x = lnp.asarray(a)
    row = x[0]  # a view: sees the write too
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LazygraphFallbackWarning)
        func(x, *args)
    func(a, *args)
    assert_numpy_equal(x.compute(), a)
    assert_numpy_equal(row.compute(), a[0])


def test_fallback_results_keep_numpy_types() -> None:
    x = lnp.asarray(np.array([[2.0, 1.0], [1.0, 3.0]]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LazygraphFallbackWarning)
        hist = np.histogram(x, bins=2)
        assert isinstance(hist, tuple) and all(isinstance(h, lnp.Array) for h in hist)
        assert np.array_equal(hist[0].compute(), np.histogram(np.asarray(x), bins=2)[0])
        assert np.array2string(x) == np.array2string(np.asarray(x))


def test_unknown_array_types_defer() -> None:
    class Other:
        def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
            return "other"

    x = lnp.asarray(np.arange(3.0))
    assert np.concatenate([x, Other()]) == "other"

    class OtherUfunc:
        def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
            return "other ufunc"

    assert np.add(x, OtherUfunc()) == "other ufunc"
    assert np.multiply(OtherUfunc(), x) == "other ufunc"


def test_compute_several_outputs_in_one_call() -> None:
    a = np.arange(5.0)
    x = lnp.asarray(a)
    before = stats().compiles
    lo, hi, same, const, plain = lnp.compute(x - 1, x + 1, x, lnp.asarray(2.0), "unchanged")
    assert stats().compiles - before <= 1
    np.testing.assert_array_equal(lo, a - 1)
    np.testing.assert_array_equal(hi, a + 1)
    np.testing.assert_array_equal(same, a)
    assert same.flags.writeable and const.flags.writeable and float(const) == 2.0
    assert plain == "unchanged"
    assert lnp.compute() == ()
    np.testing.assert_array_equal(lazygraph.compute(x * 3)[0], a * 3)


def test_arguments_lazygraph_does_not_support_fall_back_to_numpy() -> None:
    """A lazygraph.numpy function that rejects its arguments as unsupported
    (``UnsupportedArgumentsError``) lets numpy run them, with the warning."""
    a = np.array([3.0, 1.0, 2.0, 5.0])
    x = lnp.asarray(a)
    with pytest.warns(LazygraphFallbackWarning, match="method='nearest'"):
        got = np.nanquantile(x, 0.4, method="nearest")  # (lnp's runs numpy's itself)
    np.testing.assert_array_equal(np.asarray(got), np.nanquantile(a, 0.4, method="nearest"))
    with pytest.warns(LazygraphFallbackWarning, match="for these arguments"):
        got = np.add(x, 1.0, signature=(None, None, None))
    np.testing.assert_array_equal(np.asarray(got), a + 1.0)


@pytest.mark.parametrize("through", ["function", "ufunc"])
def test_a_bug_raising_not_implemented_error_is_not_hidden_by_eager_numpy(
    monkeypatch: pytest.MonkeyPatch, through: str
) -> None:
    """Any other NotImplementedError inside the lazy version (a bug, an Op without
    a perform) propagates: numpy must not silently run in its place."""

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("SomeOp.infer_shape")

    name = "cumsum" if through == "function" else "exp"
    monkeypatch.setattr(lnp, name, broken)
    x = lnp.asarray(np.arange(3.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error", LazygraphFallbackWarning)
        with pytest.raises(NotImplementedError, match=r"SomeOp\.infer_shape"):
            getattr(np, name)(x)

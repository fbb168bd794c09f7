"""Reductions and scans against numpy: one table of rows, each run on hypothesis
inputs (0-d, empty, NaN/inf, -0.0, integer limits) with drawn axis/keepdims/dtype
arguments, including out-of-range and repeated axes (numpy's exception type must
match); then verify_grad (first and second order) and verify_rop."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from lazygraph.gradient import (
    DisconnectedInputError,
    grad,
    is_disconnected,
    verify_grad,
    verify_rop,
)
from lazygraph.tensor.cumulative import CumOp
from lazygraph.tensor.reduction import Reduce
from tests.tensor.harness import (
    ALL,
    BACKEND,
    COMPLEX,
    FLOATS,
    INTS,
    OpCase,
    arrays,
    assert_numpy_equal,
    check_case,
    check_symbolic_infer_shape,
    defined_unsigned_casts,
    run,
    shapes,
    variable_for,
)

REAL = ("bool", *INTS, *FLOATS)
ACC_DTYPES = ("int8", "int64", "uint64", "float32", "float64", "complex128")


def inputs(dtypes: tuple[str, ...], min_dims: int = 0) -> st.SearchStrategy[Any]:
    return st.sampled_from(dtypes).flatmap(
        lambda dt: st.tuples(arrays(dt, shapes(min_dims=min_dims)))
    )


def axes(ndim: int) -> st.SearchStrategy[Any]:
    """None, an int (sometimes out of range) or a tuple (sometimes with repeats)."""
    single = st.integers(-ndim - 1, ndim)
    if ndim == 0:
        return st.one_of(st.none(), single, st.just(()))
    many = st.lists(st.integers(-ndim, ndim - 1), max_size=ndim + 1).map(tuple)
    return st.one_of(st.none(), single, many)


def one_axis(ndim: int) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), st.integers(-ndim - 1, max(ndim, 1)))


def reduce_kwargs(
    dtype: bool = False, correction: bool = False, axis: Callable[[int], Any] = axes
) -> Callable[[int], st.SearchStrategy[dict[str, Any]]]:
    def draw(ndim: int) -> st.SearchStrategy[dict[str, Any]]:
        kw: dict[str, Any] = {"axis": axis(ndim), "keepdims": st.booleans()}
        if dtype:
            kw["dtype"] = st.sampled_from([None, *ACC_DTYPES])
        if correction:
            kw["correction"] = st.sampled_from([0, 1, 0.5, 3])
        return st.fixed_dictionaries(kw)

    return draw


def scan_kwargs(ndim: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"axis": one_axis(ndim), "dtype": st.sampled_from([None, *ACC_DTYPES])}
    )


def cumulative_kwargs(ndim: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "axis": one_axis(ndim),
            "dtype": st.sampled_from([None, "int64", "float64"]),
            "include_initial": st.booleans(),
        }
    )


def logsumexp_reference(x: np.ndarray, axis: Any = None, keepdims: bool = False) -> Any:
    # An independent oracle: numpy's own logaddexp reduction (identity -inf).
    np.sum(np.zeros(x.shape), axis=axis)  # numpy's axis errors come first
    if x.dtype.kind == "c":
        raise TypeError("complex")
    if x.dtype.kind in "biu":
        x = x.astype("float64")
    return np.logaddexp.reduce(x, axis=axis, keepdims=keepdims)


def row(
    name: str,
    build: Callable[..., Any],
    reference: Callable[..., Any],
    dtypes: tuple[str, ...],
    kwargs: Callable[[int], st.SearchStrategy[dict[str, Any]]],
    min_dims: int = 0,
    **options: Any,
) -> OpCase:
    return OpCase(
        name, build, reference, inputs(dtypes, min_dims), extra={"kwargs": kwargs}, **options
    )


TABLE = [
    row("sum", lt.sum, np.sum, ALL, reduce_kwargs(dtype=True)),
    row("prod", lt.prod, np.prod, ALL, reduce_kwargs(dtype=True)),
    row("max", lt.max, np.max, ALL, reduce_kwargs(), signed_zeros=True),
    row("min", lt.min, np.min, ALL, reduce_kwargs(), signed_zeros=True),
    row("all", lt.all, np.all, ALL, reduce_kwargs()),
    row("any", lt.any, np.any, ALL, reduce_kwargs()),
    row("mean", lt.mean, np.mean, ALL, reduce_kwargs(dtype=True)),
    row("var", lt.var, np.var, ALL, reduce_kwargs(correction=True)),
    row("std", lt.std, np.std, ALL, reduce_kwargs(correction=True)),
    row(
        "logsumexp",
        lt.logsumexp,
        logsumexp_reference,
        (*REAL, *COMPLEX),
        reduce_kwargs(),
        rtol=1e-6,
        atol=1e-6,
    ),
    row("count_nonzero", lt.count_nonzero, np.count_nonzero, ALL, reduce_kwargs()),
    row("argmax", lt.argmax, np.argmax, ALL, reduce_kwargs(axis=one_axis)),
    row("argmin", lt.argmin, np.argmin, ALL, reduce_kwargs(axis=one_axis)),
    row("cumsum", lt.cumsum, np.cumsum, ALL, scan_kwargs),
    row("cumprod", lt.cumprod, np.cumprod, ALL, scan_kwargs),
    row("cumulative_sum", lt.cumulative_sum, np.cumulative_sum, REAL, cumulative_kwargs),
    row("cumulative_prod", lt.cumulative_prod, np.cumulative_prod, REAL, cumulative_kwargs),
]


@pytest.mark.parametrize("case", TABLE, ids=lambda c: c.name)
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_matches_numpy(case: OpCase, data: st.DataObject) -> None:
    values = data.draw(case.inputs, label="inputs")
    kwargs = data.draw(case.extra["kwargs"](values[0].ndim), label="kwargs")
    if BACKEND != "python" and kwargs.get("dtype") is not None:
        values = defined_unsigned_casts(values, np.dtype(kwargs["dtype"]).name)
    static = data.draw(st.booleans(), label="static_shape")
    bound = dataclasses.replace(
        case,
        build=lambda *xs: case.build(*xs, **kwargs),
        reference=lambda *xs: case.reference(*xs, **kwargs),
        static_shape=static,
    )
    check_case(bound, values)


# -- eager errors (at build time, with numpy's exception types) -------------------


@pytest.mark.parametrize(
    ("build", "error"),
    [
        (lambda x: lt.sum(x, axis=2), np.exceptions.AxisError),
        (lambda x: lt.mean(x, axis=(0, -3)), np.exceptions.AxisError),
        (lambda x: lt.max(x, axis=(1, -1)), ValueError),
        (lambda x: lt.sum(x, axis=[0]), TypeError),
        (lambda x: lt.sum(x, axis=True), TypeError),
        (lambda x: lt.sum(x, axis=1.0), TypeError),
        (lambda x: lt.argmax(x, axis=(0, 1)), TypeError),
        (lambda x: lt.argmin(x, axis=-3), np.exceptions.AxisError),
        (lambda x: lt.max(x, axis=0), ValueError),  # the axis of size 0
        (lambda x: lt.min(x), ValueError),
        (lambda x: lt.argmax(x), ValueError),
        (lambda x: lt.cumsum(x, axis=2), np.exceptions.AxisError),
        (lambda x: lt.var(x, ddof=1, correction=1), ValueError),
        (lambda x: lt.max(x, dtype="float64"), TypeError),
        (lambda x: lt.sum(x, dtype="float16"), TypeError),
        (lambda x: lt.logsumexp(lt.cast(x, "complex128")), TypeError),
        (lambda x: lt.cumulative_sum(x), ValueError),
    ],
)
def test_eager_errors(build: Callable[[Any], Any], error: type[Exception]) -> None:
    x = lt.tensor("float64", (0, 3), name="x")
    with pytest.raises(error) as info:
        build(x)
    # Errors name the operation.
    assert any(n in str(info.value) for n in ("sum", "mean", "max", "min", "arg", "cum", "var"))


def test_max_of_empty_message_names_numpy_reason() -> None:
    x = lt.tensor("float64", (3, 0), name="x")
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        lt.max(x, axis=1)
    assert lt.max(x, axis=0).type.shape == (0,)  # reducing a non-empty axis is fine


def test_static_shapes_and_dtypes() -> None:
    x = lt.tensor("uint8", (2, None, 4), name="x")
    assert lt.sum(x, axis=(0, -1)).type == lt.TensorType("uint64", (None,))
    assert lt.sum(x, keepdims=True).type == lt.TensorType("uint64", (1, 1, 1))
    assert lt.mean(x, axis=1).type == lt.TensorType("float64", (2, 4))
    assert lt.argmax(x, axis=1, keepdims=True).type == lt.TensorType("int64", (2, 1, 4))
    assert lt.cumsum(x).type == lt.TensorType("uint64", (None,))
    assert lt.cumsum(lt.tensor("int8", (2, 3))).type == lt.TensorType("int64", (6,))
    assert lt.var(lt.tensor("complex64", (3,))).type == lt.TensorType("float32", ())
    assert lt.logsumexp(lt.tensor("int16", (3,))).type == lt.TensorType("float64", ())


def test_equal_reductions_are_equal_ops() -> None:
    # numpy's default accumulation dtype is stored, so both spellings merge.
    x = lt.tensor("int8", (3,))
    assert lt.sum(x).owner.op == lt.sum(x, dtype="int64").owner.op
    assert lt.sum(x, axis=(-1,)).owner.op == lt.sum(x, axis=0).owner.op


# -- gradients ----------------------------------------------------------------------


def _distinct(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    """Well-separated values (no ties: max/min/sort are differentiable there)."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    return (rng.permutation(n) * 0.37 - n * 0.15 + rng.uniform(-0.05, 0.05, n)).reshape(shape)


def _with_zeros(shape: tuple[int, ...], flat_zeros: tuple[int, ...], seed: int = 1) -> np.ndarray:
    x = _distinct(shape, seed) + 0.1
    x.reshape(-1)[list(flat_zeros)] = 0.0
    return x


GRAD_TABLE: list[tuple[str, Callable[[Any], Any], np.ndarray]] = [
    ("sum", lambda x: lt.sum(x), _distinct((2, 3))),
    ("sum_axes_keepdims", lambda x: lt.sum(x, axis=(0, 2), keepdims=True), _distinct((2, 3, 2))),
    ("sum_0d", lambda x: lt.sum(x, axis=()), np.array(1.5)),
    ("prod", lambda x: lt.prod(x), _distinct((2, 3))),
    ("prod_axis", lambda x: lt.prod(x, axis=1), _distinct((3, 4))),
    ("prod_axes", lambda x: lt.prod(x, axis=(0, 2)), _distinct((2, 2, 3))),
    ("prod_one_zero", lambda x: lt.prod(x, axis=-1), _with_zeros((2, 4), (1,))),
    ("prod_two_zeros", lambda x: lt.prod(x), _with_zeros((2, 3), (0, 4))),
    ("prod_zeros_axes", lambda x: lt.prod(x, axis=(0, 1)), _with_zeros((2, 2, 2), (2,))),
    ("max", lambda x: lt.max(x, axis=1), _distinct((3, 4))),
    ("max_all", lambda x: lt.max(x), _distinct((2, 3))),
    ("min_keepdims", lambda x: lt.min(x, axis=(0, 1), keepdims=True), _distinct((2, 2, 3))),
    ("mean", lambda x: lt.mean(x, axis=0), _distinct((3, 2))),
    ("mean_all", lambda x: lt.mean(x), _distinct((2, 3))),
    ("var", lambda x: lt.var(x, axis=1), _distinct((2, 4))),
    ("var_correction", lambda x: lt.var(x, correction=1, keepdims=True), _distinct((2, 3))),
    ("std", lambda x: lt.std(x, axis=0, ddof=1), _distinct((4, 2))),
    ("logsumexp", lambda x: lt.logsumexp(x, axis=1), _distinct((3, 4))),
    ("logsumexp_all", lambda x: lt.logsumexp(x, keepdims=True), _distinct((2, 3))),
    ("cumsum", lambda x: lt.cumsum(x, axis=1), _distinct((2, 3))),
    ("cumsum_flat", lambda x: lt.cumsum(x), _distinct((2, 3))),
    ("cumprod", lambda x: lt.cumprod(x, axis=0), _distinct((3, 2))),
    ("cumprod_flat", lambda x: lt.cumprod(x), _distinct((2, 3))),
    ("cumprod_0d", lambda x: lt.cumprod(x, axis=0), np.array(1.5)),
    ("cumprod_zeros", lambda x: lt.cumprod(x, axis=1), _with_zeros((2, 5), (1, 3, 6))),
    ("cumprod_exclusive", lambda x: CumOp("prod", 1, "float64", True)(x), _distinct((2, 4))),
    (
        "cumprod_reverse_zeros",
        lambda x: CumOp("prod", 1, "float64", True, True)(x),
        _with_zeros((2, 4), (2, 5)),
    ),
    ("cumsum_reverse", lambda x: CumOp("sum", 0, "float64", True, True)(x), _distinct((3, 2))),
]

# Second order: the gradient of sum(f(x) * w) is itself checked.
SECOND_ORDER = {
    "sum_axes_keepdims",
    "prod",
    "prod_axis",
    "prod_axes",
    "prod_one_zero",
    "prod_two_zeros",
    "max",
    "min_keepdims",
    "mean",
    "var",
    "std",
    "logsumexp",
    "logsumexp_all",
    "cumsum",
    "cumprod",
}


@pytest.mark.parametrize(("name", "fn", "point"), GRAD_TABLE, ids=[r[0] for r in GRAD_TABLE])
def test_verify_grad(name: str, fn: Callable[[Any], Any], point: np.ndarray) -> None:
    verify_grad(fn, [point])
    verify_grad(fn, [point], static_shape=False)


def _first_order(fn: Callable[[Any], Any], point: np.ndarray) -> Callable[[Any], Any]:
    out_shape = np.shape(run([v := variable_for(point)], fn(v), [point]))
    weights = lt.constant(np.random.default_rng(3).uniform(0.5, 1.5, out_shape))

    def gradient(x: Any) -> Any:
        return grad(lt.sum(fn(x) * weights), x)

    return gradient


@pytest.mark.parametrize(
    ("name", "fn", "point"),
    [r for r in GRAD_TABLE if r[0] in SECOND_ORDER],
    ids=[r[0] for r in GRAD_TABLE if r[0] in SECOND_ORDER],
)
def test_verify_grad_second_order(name: str, fn: Callable[[Any], Any], point: np.ndarray) -> None:
    verify_grad(_first_order(fn, point), [point])
    verify_grad(_first_order(fn, point), [point], static_shape=False)


@pytest.mark.xfail(strict=True, reason="cumprod's gradient is piecewise at exact zeros")
def test_cumprod_second_order_at_exact_zeros() -> None:
    _, fn, point = next(r for r in GRAD_TABLE if r[0] == "cumprod_zeros")
    verify_grad(_first_order(fn, point), [point])


R_OP_TABLE = [
    ("sum", lambda x: lt.sum(x, axis=1, keepdims=True)),
    ("mean", lambda x: lt.mean(x, axis=(0, 1))),
    ("prod", lambda x: lt.prod(x, axis=0)),
    ("logsumexp", lambda x: lt.logsumexp(x, axis=-1)),
    ("max", lambda x: lt.max(x, axis=0)),
    ("min", lambda x: lt.min(x, keepdims=True)),
    ("var", lambda x: lt.var(x, axis=1, ddof=1)),
    ("std", lambda x: lt.std(x, axis=(0, 1), keepdims=True)),
    ("cumsum", lambda x: lt.cumsum(x, axis=1)),
    ("cumsum_flat", lambda x: lt.cumsum(x)),
]


@pytest.mark.parametrize(("name", "fn"), R_OP_TABLE, ids=[r[0] for r in R_OP_TABLE])
def test_verify_rop(name: str, fn: Callable[[Any], Any]) -> None:
    verify_rop(fn, [_distinct((3, 4))])
    verify_rop(fn, [_distinct((3, 4))], static_shape=False)


def test_max_gradient_is_shared_by_the_ties() -> None:
    # Each tied maximum gets an equal share (JAX's rule): the shares add up to the
    # output gradient (see also tests/tensor/test_grad_edges.py).
    x = lt.dmatrix("x")
    value = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, -1.0]])
    g = run([x], grad(lt.sum(lt.max(x, axis=1) * np.array([10.0, 20.0])), x), [value])
    np.testing.assert_array_equal(g, [[0.0, 5.0, 5.0], [10.0, 10.0, 0.0]])


def test_prod_gradient_is_exact_at_zeros() -> None:
    x = lt.dvector("x")
    gx = grad(lt.prod(x), x)
    for value in ([2.0, 0.0, 3.0], [0.0, 0.0, 3.0], [-0.0, 5.0, 2.0], [4.0, 5.0, 2.0]):
        v = np.array(value)
        expected = [np.prod(np.delete(v, i)) for i in range(v.size)]
        np.testing.assert_array_equal(run([x], gx, [v]), expected)


def test_cumprod_gradient_is_exact_at_zeros() -> None:
    x = lt.dvector("x")
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    gx = grad(lt.sum(lt.cumprod(x) * w), x)
    v = np.array([2.0, 0.0, 3.0, 0.0, 1.5])
    # d/dx_i sum_j w_j prod_{k<=j} x_k = sum_{j>=i} w_j prod_{k<=j, k!=i} x_k
    expected = [
        sum(w[j] * np.prod(np.delete(v[: j + 1], i)) for j in range(i, v.size))
        for i in range(v.size)
    ]
    np.testing.assert_allclose(run([x], gx, [v]), expected, rtol=1e-12)


@pytest.mark.parametrize(
    "build",
    [
        lambda x: lt.argmax(x),
        lambda x: lt.argmin(x, axis=0),
        lambda x: lt.count_nonzero(x),
        lambda x: lt.all(x),
        lambda x: lt.any(x, axis=0),
    ],
)
def test_integer_valued_reductions_are_disconnected(build: Callable[[Any], Any]) -> None:
    x = lt.dvector("x")
    out = build(x)
    assert not out.owner.op.connection_pattern(out.owner)[0][0]
    assert is_disconnected(out.owner.op.L_op([x], [out], [lt.dscalar()])[0])
    with pytest.raises(DisconnectedInputError):
        grad(lt.sum(lt.cast(out, "float64")), x)


def test_integer_input_gets_no_gradient() -> None:
    x = lt.lvector("x")
    out = lt.sum(x)
    assert is_disconnected(out.owner.op.L_op([x], [out], [lt.lscalar()])[0])


def test_reduce_op_rejects_bad_axis_when_applied_directly() -> None:
    with pytest.raises(np.exceptions.AxisError):
        Reduce("sum", (3,))(lt.dmatrix())
    with pytest.raises(ValueError, match="unknown reduction"):
        Reduce("median", (0,))


@pytest.mark.parametrize(
    "build",
    [
        lambda x: lt.sum(x, axis=1),
        lambda x: lt.max(x, axis=(0, 2), keepdims=True),
        lambda x: lt.argmax(x),
        lambda x: lt.var(x, axis=-1, keepdims=True),
        lambda x: lt.cumsum(x),
        lambda x: lt.cumprod(x, axis=1),
    ],
)
def test_infer_shape_with_symbolic_sizes(build: Callable[[Any], Any]) -> None:
    x = lt.dtensor3("x")
    check_symbolic_infer_shape(build(x), x, _distinct((2, 3, 4)))


@pytest.mark.parametrize(
    "value",
    [
        [np.inf, -np.inf, 1.0],
        [-np.inf, -np.inf],
        [np.inf, np.inf],
        [np.nan, -np.inf],
        [1e308, 1e308, -1e308],
        [-1000.0, -1000.5],
        [],
    ],
)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logsumexp_like_scipy(value: list[float], dtype: str) -> None:
    special = pytest.importorskip("scipy.special")
    x = lt.tensor(dtype, (None,), name="x")
    data = np.array(value, dtype=dtype)
    with np.errstate(all="ignore"):
        expected = special.logsumexp(data)
    assert_numpy_equal(run([x], lt.logsumexp(x), [data]), expected, rtol=1e-6)


@pytest.mark.parametrize(
    ("build", "reference"),
    [
        (lambda x: lt.sum(x, axis=0), lambda x: np.sum(x, axis=0)),
        (lambda x: lt.var(x, axis=1, ddof=1), lambda x: np.var(x, axis=1, ddof=1)),
        (lambda x: lt.argmin(x, axis=0), lambda x: np.argmin(x, axis=0)),
        (lambda x: lt.cumprod(x, axis=1), lambda x: np.cumprod(x, axis=1)),
        (lambda x: CumOp("sum", 0, "float64", True, True)(x), lambda x: x.sum(0) - np.cumsum(x, 0)),
    ],
)
def test_non_contiguous_inputs(build: Callable[[Any], Any], reference: Callable[..., Any]) -> None:
    base = np.random.default_rng(0).uniform(size=(6, 8))
    view = base[::2, ::-3].T  # strided, reversed and transposed
    x = lt.dmatrix("x")
    assert_numpy_equal(run([x], build(x), [view]), reference(view.copy()), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("dtype", [None, "int8", "uint8", "int16"])
def test_integer_sums_promote_or_wrap_like_numpy(dtype: str | None) -> None:
    x = lt.tensor("int8", (None,), name="x")
    value = np.array([127, 127, 127, -128], dtype="int8")
    for build, reference in [(lt.sum, np.sum), (lt.prod, np.prod), (lt.cumsum, np.cumsum)]:
        assert_numpy_equal(run([x], build(x, dtype=dtype), [value]), reference(value, dtype=dtype))

"""The ``specialize`` rewrites: each one's structure after rewriting, and values
before and after against numpy (NaN/inf, -0.0 and integer overflow included)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from lazygraph.compile.backends import get_backend
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting import RewriteDatabaseQuery, WalkingGraphRewriter, optdb
from lazygraph.tensor.blas import MatMul
from lazygraph.tensor.broadcast import Alloc
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.reduction import Reduce
from lazygraph.tensor.rewriting import specialize
from lazygraph.tensor.rewriting.specialize import (
    matmul_of_transposes,
    matmul_outer_product,
    pow_half_to_sqrt_unguarded,
    pow_specialize,
    reduce_of_alloc,
    sum_mul_to_matmul,
)
from tests.tensor.harness import arrays, assert_numpy_equal


def rewritten(rewriter: Any, inputs: list[Any], outputs: list[Any]) -> FunctionGraph:
    fg = FunctionGraph(inputs, outputs)
    WalkingGraphRewriter(rewriter).rewrite(fg)
    fg.check_integrity()
    return fg


def evaluate(fg: FunctionGraph, *values: Any) -> list[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(get_backend("python").compile(fg)(*values))


def before_after(rewriter: Any, inputs: list[Any], outputs: list[Any], values: list[Any]) -> Any:
    """(rewritten graph, values before, values after)."""
    plain = FunctionGraph(inputs, outputs)
    fg = rewritten(rewriter, inputs, outputs)
    return fg, evaluate(plain, *values), evaluate(fg, *values)


def scalar_names(fg: FunctionGraph) -> list[str]:
    return [n.op.scalar_op.name for n in fg.toposort() if isinstance(n.op, Elemwise)]


def numpy_power(x: np.ndarray, e: Any) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.power(x, e)


# -- powers ----------------------------------------------------------------------------

EDGE_FLOATS = np.array([-0.0, 0.0, -np.inf, np.inf, np.nan, -1.5, 2.0, 1e-310, 1e30, -3.0])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_square_float_edges(dtype: str) -> None:
    x = lt.tensor(dtype, (EDGE_FLOATS.size,), name="x")
    data = EDGE_FLOATS.astype(dtype)
    fg, (before,), (after,) = before_after(pow_specialize, [x], [x**2], [data])
    assert scalar_names(fg) == ["square"]
    expected = numpy_power(data, 2)
    assert_numpy_equal(before, expected, signed_zeros=True)
    assert_numpy_equal(after, expected, rtol=0, signed_zeros=True)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint64"])
def test_square_int_overflow_wraps_like_numpy(dtype: str) -> None:
    info = np.iinfo(dtype)
    data = np.array([info.min, info.max, 100, 0, 1, info.max // 2], dtype=dtype)
    x = lt.tensor(dtype, data.shape, name="x")
    fg, (before,), (after,) = before_after(pow_specialize, [x], [x**2], [data])
    assert scalar_names(fg) == ["square"]
    assert_numpy_equal(after, numpy_power(data, 2))
    assert_numpy_equal(after, before)


def test_square_of_int_with_float_exponent_casts_first() -> None:
    data = np.array([-128, 127, 3], dtype="int8")
    x = lt.tensor("int8", (3,), name="x")
    fg, _, (after,) = before_after(pow_specialize, [x], [x**2.0], [data])
    assert scalar_names(fg) == ["cast", "square"]
    assert_numpy_equal(after, numpy_power(data, 2.0))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_half_is_sqrt_with_numpy_power_results_at_negative_zero_and_minus_inf(
    dtype: str,
) -> None:
    data = EDGE_FLOATS.astype(dtype)
    x = lt.tensor(dtype, data.shape, name="x")
    fg, (before,), (after,) = before_after(pow_specialize, [x], [x**0.5], [data])
    assert "pow" not in scalar_names(fg) and "sqrt" in scalar_names(fg)
    expected = numpy_power(data, 0.5)
    assert_numpy_equal(before, expected, signed_zeros=True)
    assert_numpy_equal(after, expected, signed_zeros=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_half_guard_gives_c_pow_results(dtype: str, monkeypatch: Any) -> None:
    # where numpy's power follows C's pow: (-0.0)**0.5 == 0.0, (-inf)**0.5 == inf
    monkeypatch.setattr(specialize, "_power_half_is_sqrt", lambda dtype: False)
    data = EDGE_FLOATS.astype(dtype)
    x = lt.tensor(dtype, data.shape, name="x")
    fg, _, (after,) = before_after(pow_specialize, [x], [x**0.5], [data])
    assert "pow" not in scalar_names(fg) and "sqrt" in scalar_names(fg)
    c_pow = numpy_power(data, np.full_like(data, 0.5))  # an array exponent: C's pow
    assert c_pow[0] == 0 and not np.signbit(c_pow[0]) and c_pow[2] == np.inf
    assert_numpy_equal(after, c_pow, signed_zeros=True)


def test_unguarded_sqrt_differs_where_documented_and_is_not_default() -> None:
    data = np.array([-0.0, -np.inf, 4.0])
    x = lt.dvector("x")
    fg, _, (after,) = before_after(pow_half_to_sqrt_unguarded, [x], [x**0.5], [data])
    assert scalar_names(fg) == ["sqrt"]
    assert np.signbit(after[0]) and np.isnan(after[1]) and after[2] == 2.0
    default = optdb["specialize"].query(RewriteDatabaseQuery(include=["fast_run"]))
    names = [r.name for r in default.node_rewriters]
    assert "pow_specialize" in names and "pow_half_to_sqrt_unguarded" not in names
    opted_in = optdb["specialize"].query(RewriteDatabaseQuery(include=["fast_run", "unsafe_nan"]))
    assert "pow_half_to_sqrt_unguarded" in [r.name for r in opted_in.node_rewriters]


def test_reciprocal_for_floats_only() -> None:
    data = np.array([-0.0, 0.0, -np.inf, np.inf, np.nan, 4.0, -0.5])
    x = lt.dvector("x")
    fg, _, (after,) = before_after(pow_specialize, [x], [x**-1], [data])
    assert scalar_names(fg) == ["reciprocal"]
    assert_numpy_equal(after, numpy_power(data, -1.0), rtol=0, signed_zeros=True)
    # numpy raises for negative integer powers of integers: leave them alone
    i = lt.tensor("int32", (3,), name="i")
    fg = rewritten(pow_specialize, [i], [lt.power(i, lt.constant(-1, dtype="int32"))])
    assert scalar_names(fg) == ["pow"]


def test_a_plus_a_pow_10_costs_a_few_multiplies() -> None:
    a = lt.tensor("int64", (9,), name="a")
    fg = rewritten(pow_specialize, [a], [a + a**10])
    names = scalar_names(fg)
    assert "pow" not in names
    assert names.count("multiply") == 4  # x2, x4, x8, x8*x2
    data = np.array([3, -2, 0, 1, -1, 7, 2**7, 2**40, -(2**63)])
    (after,) = evaluate(fg, data)
    assert_numpy_equal(after, data + numpy_power(data, 10))


@pytest.mark.parametrize("n", [3, 5, 7, 10, 16, 31, 64])
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16"])
def test_integer_powers_wrap_exactly_like_numpy(n: int, dtype: str) -> None:
    rng = np.random.default_rng(n)
    info = np.iinfo(dtype)
    data = rng.integers(info.min, info.max, size=20, dtype=dtype, endpoint=True)
    x = lt.tensor(dtype, (20,), name="x")
    fg, (before,), (after,) = before_after(pow_specialize, [x], [x**n], [data])
    assert "pow" not in scalar_names(fg)
    assert_numpy_equal(after, numpy_power(data, n))
    assert_numpy_equal(after, before)


@settings(max_examples=30, deadline=None)
@given(
    data=arrays("float64", (6,)),
    n=st.sampled_from([-5, -3, 3, 4, 9, 12]),
)
def test_float_integer_powers_stay_pow(data: np.ndarray, n: int) -> None:
    # numpy's float power is C's pow for these: x*x*x differs in the last bit
    x = lt.tensor("float64", (6,), name="x")
    fg, _, (after,) = before_after(pow_specialize, [x], [x**n], [data])
    assert scalar_names(fg) == ["pow"]
    expected = numpy_power(data, np.float64(n))
    np.testing.assert_array_equal(after.view(np.uint64), expected.view(np.uint64))


def test_float_pow_by_squaring_differed_from_numpy() -> None:
    # 1.1**3 as x*x*x is one ulp off numpy's (C's) pow
    data = np.array([1.1, 1.3, 2.7])
    assert not np.array_equal(data * data * data, np.power(data, np.full(3, 3.0)))
    x = lt.tensor("float64", (3,), name="x")
    _, _, (after,) = before_after(pow_specialize, [x], [x**3], [data])
    np.testing.assert_array_equal(after, np.power(data, 3.0))


def test_one_element_exponent_against_one_element_is_pow() -> None:
    # numpy's loop reads [2.0] against [x] with a nonzero stride: C's pow, not x*x
    x = lt.tensor("float32", (1,), name="x")
    fg = rewritten(pow_specialize, [x], [x ** lt.constant(np.array([2.0], "float32"))])
    assert scalar_names(fg) == ["pow"]
    y = lt.tensor("float32", (4,), name="y")
    fg = rewritten(pow_specialize, [y], [y ** lt.constant(np.array([2.0], "float32"))])
    assert scalar_names(fg) == ["square"]


def test_pow_not_rewritten_when_the_constant_broadcasts_or_is_complex() -> None:
    x = lt.dvector("x")
    fg = rewritten(pow_specialize, [x], [x ** lt.constant(np.full((1, 1), 2.0))])
    assert scalar_names(fg) == ["pow"]
    z = lt.tensor("complex128", (2,), name="z")
    fg = rewritten(pow_specialize, [z], [z**2])
    assert scalar_names(fg) == ["pow"]
    fg = rewritten(pow_specialize, [x], [x**2.5])
    assert scalar_names(fg) == ["pow"]


# -- sum of products -> matmul -------------------------------------------------------------


def has_op(fg: FunctionGraph, cls: type) -> bool:
    return any(isinstance(n.op, cls) for n in fg.apply_nodes)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sum_of_matrix_times_vector_is_matmul(dtype: str) -> None:
    rng = np.random.default_rng(0)
    a_val = rng.standard_normal((5, 3)).astype(dtype)
    v_val = rng.standard_normal(3).astype(dtype)
    a_val[1, 2] = np.inf
    v_val[0] = np.nan
    a, v = lt.tensor(dtype, (5, 3), name="a"), lt.tensor(dtype, (3,), name="v")
    for out, expected in [
        (lt.sum(a * v, axis=1), (a_val * v_val).sum(1)),
        (lt.sum(v * a, axis=-1), (a_val * v_val).sum(1)),
    ]:
        fg, (before,), (after,) = before_after(sum_mul_to_matmul, [a, v], [out], [a_val, v_val])
        assert has_op(fg, MatMul) and not has_op(fg, Reduce)
        assert_numpy_equal(after, before, rtol=1e-5 if dtype == "float32" else 1e-12)
        assert_numpy_equal(after, expected, rtol=1e-5 if dtype == "float32" else 1e-12)


def test_sum_of_vector_times_matrix_over_axis_0_is_matmul() -> None:
    rng = np.random.default_rng(1)
    a_val, v_val = rng.standard_normal((4, 6)), rng.standard_normal(4)
    a, v = lt.tensor("float64", (4, 6), name="a"), lt.tensor("float64", (4,), name="v")
    out = lt.sum(a * lt.expand_dims(v, 1), axis=0)
    fg, _, (after,) = before_after(sum_mul_to_matmul, [a, v], [out], [a_val, v_val])
    assert has_op(fg, MatMul) and not has_op(fg, Reduce)
    assert_numpy_equal(after, (a_val * v_val[:, None]).sum(0))


def test_sum_of_outer_broadcast_product_is_matrix_product() -> None:
    rng = np.random.default_rng(2)
    x_val, y_val = rng.standard_normal((3, 4)), rng.standard_normal((4, 5))
    x, y = lt.tensor("float64", (3, 4), name="x"), lt.tensor("float64", (4, 5), name="y")
    out = lt.sum(lt.expand_dims(x, 2) * lt.expand_dims(y, 0), axis=1)
    fg, _, (after,) = before_after(sum_mul_to_matmul, [x, y], [out], [x_val, y_val])
    assert has_op(fg, MatMul) and not has_op(fg, Reduce)
    assert_numpy_equal(after, x_val @ y_val)


def test_vector_dot() -> None:
    v, w = lt.tensor("float64", (7,), name="v"), lt.tensor("float64", (7,), name="w")
    fg, (before,), (after,) = before_after(
        sum_mul_to_matmul, [v, w], [lt.sum(v * w)], [np.arange(7.0), np.ones(7)]
    )
    assert has_op(fg, MatMul)
    assert_numpy_equal(after, before)
    assert after.shape == ()


def test_sum_of_products_left_alone_when_unsafe() -> None:
    # integer sums accumulate in int64 where matmul would overflow in int8
    a, v = lt.tensor("int8", (5, 3), name="a"), lt.tensor("int8", (3,), name="v")
    assert not has_op(rewritten(sum_mul_to_matmul, [a, v], [lt.sum(a * v, axis=1)]), MatMul)
    # unknown summed size: one side may broadcast at run time
    a, v = lt.dmatrix("a"), lt.dvector("v")
    assert not has_op(rewritten(sum_mul_to_matmul, [a, v], [lt.sum(a * v, axis=1)]), MatMul)
    # row-wise products (no contraction) and keepdims stay sums
    a, b = lt.tensor("float64", (5, 3), name="a"), lt.tensor("float64", (5, 3), name="b")
    assert not has_op(rewritten(sum_mul_to_matmul, [a, b], [lt.sum(a * b, axis=1)]), MatMul)
    v = lt.tensor("float64", (3,), name="v")
    out = lt.sum(a * v, axis=1, keepdims=True)
    assert not has_op(rewritten(sum_mul_to_matmul, [a, v], [out]), MatMul)


# -- transposed matmul operands ------------------------------------------------------------


def test_matmul_of_transposes_is_one_transpose() -> None:
    rng = np.random.default_rng(3)
    a_val, b_val = rng.standard_normal((4, 3)), rng.standard_normal((5, 4))
    a, b = lt.tensor("float64", (4, 3), name="a"), lt.tensor("float64", (5, 4), name="b")
    out = lt.matmul(lt.transpose(a), lt.transpose(b))
    fg, _, (after,) = before_after(matmul_of_transposes, [a, b], [out], [a_val, b_val])
    shuffles = [n for n in fg.apply_nodes if isinstance(n.op, DimShuffle)]
    assert len(shuffles) == 1
    (mm,) = [n for n in fg.apply_nodes if isinstance(n.op, MatMul)]
    assert mm.inputs == [fg.inputs[1], fg.inputs[0]]
    assert_numpy_equal(after, a_val.T @ b_val.T)


OUTER_DTYPES = ("float64", "float32", "int64", "int8", "bool")


@settings(max_examples=60, deadline=None)
@given(
    dtypes=st.tuples(st.sampled_from(OUTER_DTYPES), st.sampled_from(OUTER_DTYPES)),
    m=st.integers(0, 4),
    n=st.integers(0, 4),
    data=st.data(),
)
def test_outer_product_matmul_is_numpys_matmul_to_the_bit(
    dtypes: tuple[str, str], m: int, n: int, data: st.DataObject
) -> None:
    """An (m, 1) @ (1, n) product becomes an elementwise multiply with numpy's
    matmul bits: -0.0 products are +0.0 (numpy sums from zero), inf * 0 is NaN,
    integers wrap, bools are logical."""
    a_val = data.draw(arrays(dtypes[0], (m, 1)), label="a")
    b_val = data.draw(arrays(dtypes[1], (1, n)), label="b")
    a = lt.tensor(dtypes[0], (None, 1), name="a")
    b = lt.tensor(dtypes[1], (1, None), name="b")
    fg, _, (after,) = before_after(matmul_outer_product, [a, b], [lt.matmul(a, b)], [a_val, b_val])
    assert not has_op(fg, MatMul)
    with np.errstate(all="ignore"):
        want = np.matmul(a_val, b_val)
    assert_numpy_equal(after, want, signed_zeros=True)


def test_outer_product_rewrite_leaves_other_products() -> None:
    for a_shape, b_shape, dtype in [
        ((None, 2), (2, None), "float64"),  # a real sum
        ((None, None), (1, None), "float64"),  # a size known only at run time
        ((3, 1), (1, 4), "complex128"),  # complex: BLAS's own rounding
        ((1,), (1, 4), "float64"),  # a vector operand
    ]:
        a, b = lt.tensor(dtype, a_shape, name="a"), lt.tensor(dtype, b_shape, name="b")
        fg = rewritten(matmul_outer_product, [a, b], [lt.matmul(a, b)])
        assert has_op(fg, MatMul), (a_shape, b_shape, dtype)


# -- reductions of broadcasts --------------------------------------------------------------


def test_sum_of_broadcast_is_scaled_sum() -> None:
    x_val = np.array([1.0, -np.inf, np.nan, 2.5])
    x = lt.tensor("float64", (4,), name="x")
    for axis, expected in [(0, 3 * x_val), (None, 3 * np.sum(x_val)), ((0, 1), 3 * np.sum(x_val))]:
        out = lt.sum(lt.broadcast_to(x, (3, 4)), axis=axis)
        fg, (before,), (after,) = before_after(reduce_of_alloc, [x], [out], [x_val])
        assert not has_op(fg, Alloc)
        assert_numpy_equal(after, expected)
        assert_numpy_equal(after, before)


def test_sum_of_broadcast_int_overflow_and_keepdims() -> None:
    x_val = np.array([[100], [-7]], dtype="int8")
    x = lt.tensor("int8", (2, 1), name="x")
    out = lt.sum(lt.broadcast_to(x, (5, 2, 6)), axis=(0, 2), keepdims=True)
    fg, (before,), (after,) = before_after(reduce_of_alloc, [x], [out], [x_val])
    assert not has_op(fg, Alloc)
    expected = np.broadcast_to(x_val, (5, 2, 6)).sum(axis=(0, 2), keepdims=True)
    assert_numpy_equal(after, expected)
    assert_numpy_equal(before, expected)


def test_sum_of_broadcast_to_a_run_time_size_zero_is_zero_even_for_inf() -> None:
    n = lt.tensor("int64", (), name="n")
    x = lt.tensor("float64", (2,), name="x")
    out = lt.sum(lt.broadcast_to(x, lt.stack([n, 2])), axis=0)
    fg, _, _ = before_after(reduce_of_alloc, [n, x], [out], [np.array(1), np.zeros(2)])
    assert not has_op(fg, Alloc)
    x_val = np.array([np.inf, 1.0])
    for size in (0, 3):
        (after,) = evaluate(fg, np.array(size), x_val)
        assert_numpy_equal(after, np.broadcast_to(x_val, (size, 2)).sum(0))


def test_max_of_broadcast_reduces_the_value_only() -> None:
    x_val = np.array([[3.0, np.nan, -1.0]])
    x = lt.tensor("float64", (1, 3), name="x")
    out = lt.max(lt.broadcast_to(x, (4, 3)), axis=0)
    fg, _, (after,) = before_after(reduce_of_alloc, [x], [out], [x_val])
    assert not has_op(fg, Alloc)
    assert_numpy_equal(after, np.broadcast_to(x_val, (4, 3)).max(0))


def test_reduce_of_broadcast_left_alone_when_the_broadcast_survives() -> None:
    x = lt.tensor("float64", (1, 3), name="x")
    out = lt.sum(lt.broadcast_to(x, (4, 3)), axis=1)  # the broadcast axis 0 is kept
    assert has_op(rewritten(reduce_of_alloc, [x], [out]), Alloc)
    y = lt.dvector("y")  # unknown size: may broadcast at run time
    out = lt.sum(lt.broadcast_to(y, (4, 3)), axis=1)
    assert has_op(rewritten(reduce_of_alloc, [y], [out]), Alloc)

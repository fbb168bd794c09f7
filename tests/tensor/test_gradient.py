"""lazygraph.gradient on the real tensor ops: values against hand-derived numpy
formulas and finite differences, second order, jacobians, hessians, forward mode."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import lazygraph
import lazygraph.tensor as lt
from lazygraph.gradient import (
    DisconnectedInputError,
    Lop,
    Rop,
    disconnected_grad,
    grad,
    hessian,
    jacobian,
    verify_grad,
    verify_rop,
    zero_grad,
)
from lazygraph.tensor.type import TensorType
from tests.tensor.harness import arrays, shapes

RNG = np.random.default_rng(1)


def tensor(shape: tuple[int, ...], name: str = "x", dtype: str = "float64") -> lt.TensorVariable:
    return TensorType(dtype, shape)(name)


def evaluate(inputs: list, outputs: object, *values: object) -> object:
    return lazygraph.function(inputs, outputs)(*values)


def test_chain_and_product_rule() -> None:
    x = tensor((4,))
    cost = lt.sum(lt.exp(lt.sin(x)) * x)
    xv = RNG.standard_normal(4)
    expected = np.cos(xv) * np.exp(np.sin(xv)) * xv + np.exp(np.sin(xv))
    np.testing.assert_allclose(evaluate([x], grad(cost, x), xv), expected)


def test_broadcasting_sums_gradients_back() -> None:
    x, y = tensor((3,), "x"), tensor((2, 3), "y")
    gx, gy = grad(lt.sum(x * y + x), [x, y])
    xv, yv = RNG.standard_normal(3), RNG.standard_normal((2, 3))
    rx, ry = evaluate([x, y], [gx, gy], xv, yv)
    np.testing.assert_allclose(rx, yv.sum(0) + 2)
    np.testing.assert_allclose(ry, np.broadcast_to(xv, (2, 3)))


def test_shared_subexpression() -> None:
    x = tensor((3,))
    s = lt.sin(x)
    g = grad(lt.sum(s * s + s), x)
    xv = RNG.standard_normal(3)
    np.testing.assert_allclose(evaluate([x], g, xv), (2 * np.sin(xv) + 1) * np.cos(xv))


def test_integer_input_gets_float_zeros() -> None:
    x = tensor((3,))
    k = tensor((3,), "k", "int64")
    gx, gk = grad(lt.sum(x * lt.cast(k, "float64")), [x, k])
    assert gk.type.dtype == "float64"
    rx, rk = evaluate([x, k], [gx, gk], np.ones(3), np.array([1, 2, 3]))
    np.testing.assert_allclose(rx, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(rk, np.zeros(3))


def test_float32_gradient_dtype() -> None:
    x = tensor((3,), dtype="float32")
    g = grad(lt.sum(lt.exp(x)), x)
    assert g.type.dtype == "float32"


def test_disconnected_and_stop_gradients() -> None:
    x, y = tensor((2,), "x"), tensor((2,), "y")
    with pytest.raises(DisconnectedInputError):
        grad(lt.sum(lt.exp(x)), y)
    with pytest.raises(DisconnectedInputError):
        grad(lt.sum(disconnected_grad(lt.exp(x))), x)
    g = grad(lt.sum(zero_grad(lt.exp(x)) * x), x)
    xv = np.array([0.5, 1.0])
    np.testing.assert_allclose(evaluate([x], g, xv), np.exp(xv))
    e = lt.exp(x)
    g2 = grad(lt.sum(e * x), x, consider_constant=[e])
    np.testing.assert_allclose(evaluate([x], g2, xv), np.exp(xv))


def test_grad_of_grad() -> None:
    x = tensor((3,))
    g = grad(lt.sum(x * x * x), x)
    h = grad(lt.sum(g), x)
    xv = RNG.standard_normal(3)
    np.testing.assert_allclose(evaluate([x], h, xv), 6 * xv)


def test_jacobian_of_matmul() -> None:
    a, x = tensor((3, 2), "a"), tensor((2,), "x")
    ja, jx = jacobian(lt.matmul(a, x), [a, x])
    assert ja.type.shape == (3, 3, 2) and jx.type.shape == (3, 2)
    av, xv = RNG.standard_normal((3, 2)), RNG.standard_normal(2)
    ra, rx = evaluate([a, x], [ja, jx], av, xv)
    np.testing.assert_allclose(rx, av)
    np.testing.assert_allclose(ra, np.einsum("ij,k->ijk", np.eye(3), xv))


def test_hessian_of_quadratic_form() -> None:
    a, x = tensor((3, 3), "a"), tensor((3,), "x")
    h = hessian(lt.sum(x * lt.matmul(a, x)), x)
    av = RNG.standard_normal((3, 3))
    np.testing.assert_allclose(evaluate([a, x], h, av, np.zeros(3)), av + av.T)


def test_lop_and_rop_are_transposes() -> None:
    a, x = tensor((3, 2), "a"), tensor((2,), "x")
    u, v = tensor((3,), "u"), tensor((2,), "v")
    y = lt.exp(lt.matmul(a, x))
    vjp, jvp = Lop(y, x, u), Rop(y, x, v)
    av, xv, uv, vv = (RNG.standard_normal(s) for s in [(3, 2), (2,), (3,), (2,)])
    r_vjp, r_jvp = evaluate([a, x, u, v], [vjp, jvp], av, xv, uv, vv)
    # <u, J v> == <J^T u, v>
    np.testing.assert_allclose(np.dot(uv, r_jvp), np.dot(r_vjp, vv))


@pytest.mark.parametrize(
    "fn",
    [
        pytest.param(lambda x, y: lt.exp(x) * lt.sin(y), id="elementwise"),
        pytest.param(lambda x, y: lt.sum(x * y, axis=0), id="sum-axis"),
        pytest.param(lambda x, y: lt.matmul(x, lt.reshape(y, (3, 2))), id="matmul-reshape"),
    ],
)
def test_verify_grad_and_rop_on_compositions(fn: object) -> None:
    point = [RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))]
    verify_grad(fn, point)
    verify_rop(fn, point, method="auto")


@settings(max_examples=10, deadline=None)
@given(arrays("float64", shapes(min_dims=1, max_dims=2, min_side=1), finite=True,
              min_value=-3, max_value=3))  # fmt: skip
def test_second_order_against_finite_differences(xv: np.ndarray) -> None:
    def first(x: lt.TensorVariable) -> lt.TensorVariable:
        return grad(lt.sum(lt.sin(x) * x), x)

    verify_grad(first, [xv])


def test_jacobian_of_elementwise_and_scalar() -> None:
    x = tensor((3,))
    xv = RNG.standard_normal(3)
    np.testing.assert_allclose(evaluate([x], jacobian(lt.exp(x), x), xv), np.diag(np.exp(xv)))
    g = jacobian(lt.sum(lt.exp(x)), x)  # a 0-d expression: its gradient
    np.testing.assert_allclose(evaluate([x], g, xv), np.exp(xv))


def test_jacobian_of_a_size_known_only_at_run_time_is_a_scan() -> None:
    """(more in test_jacobian_dynamic.py)"""
    x = TensorType("float64", (None,))("x")
    j = jacobian(lt.exp(x), x)
    value = np.array([0.0, 1.0, -2.0])
    np.testing.assert_allclose(j.eval({x: value}), np.diag(np.exp(value)), rtol=1e-15)

"""Gradients of the elementwise functions and operators, first and second
order, against central finite differences (issue 20): real points drawn by
hypothesis inside each function's smooth domain, complex points through the
same check (JAX's convention: a complex output is seen through
``Re(sum(w * y))``), binary functions on every pair of broadcastable shapes,
and ``holomorphic=True`` against the complex derivative.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from tests.gradients.checks import check_grads

FEW = settings(max_examples=6)

# name -> (real domain, complex points allowed); the domains keep clear of kinks,
# jumps, branch cuts and singular points (edges have their own tests below).
UNARY: dict[str, tuple[tuple[float, float], bool]] = {
    "sin": ((-2, 2), True),
    "cos": ((-2, 2), True),
    "tan": ((-1.1, 1.1), True),
    "arcsin": ((-0.9, 0.9), True),
    "arccos": ((-0.9, 0.9), True),
    "arctan": ((-2, 2), True),
    "sinh": ((-2, 2), True),
    "cosh": ((-2, 2), True),
    "tanh": ((-2, 2), True),
    "arcsinh": ((-0.9, 0.9), True),
    "arccosh": ((1.1, 4), True),
    "arctanh": ((-0.9, 0.9), True),
    "exp": ((-2, 2), True),
    "exp2": ((-2, 2), True),
    "expm1": ((-2, 2), True),
    "log": ((0.2, 2), True),
    "log2": ((0.2, 2), True),
    "log10": ((0.2, 2), True),
    "log1p": ((0.2, 2), True),
    "sqrt": ((1, 3), True),
    "cbrt": ((0.5, 3), False),
    "square": ((-2, 2), True),
    "reciprocal": ((0.5, 2), True),
    "negative": ((-2, 2), True),
    "positive": ((-2, 2), True),
    "abs": ((0.1, 4), True),
    "absolute": ((0.1, 4), True),
    "fabs": ((0.1, 4), False),
    "sign": ((0.1, 2), True),
    "deg2rad": ((-2, 2), False),
    "rad2deg": ((-2, 2), False),
    "degrees": ((-2, 2), False),
    "radians": ((-2, 2), False),
    "sinc": ((0.2, 0.8), False),
    "i0": ((-2, 2), False),
    "real": ((-2, 2), True),
    "imag": ((-2, 2), True),
    "conj": ((-2, 2), True),
    "conjugate": ((-2, 2), True),
    "angle": ((0.2, 2), True),
    "floor": ((0.1, 0.9), False),
    "ceil": ((0.1, 0.9), False),
    "rint": ((0.1, 0.4), False),
    "trunc": ((0.1, 0.9), False),
    "fix": ((0.1, 0.9), False),
    "round": ((0.1, 0.4), False),
    "spacing": ((0.5, 0.9), False),
}

HOLOMORPHIC = [
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
    "square", "reciprocal", "negative", "positive",
]  # fmt: skip


def _points(lo: float, hi: float) -> st.SearchStrategy[np.ndarray]:
    shapes = hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3)
    return hnp.arrays(np.float64, shapes, elements=st.floats(lo, hi))


@pytest.mark.parametrize("name", sorted(UNARY))
@FEW
@given(data=st.data())
def test_unary_real(name: str, data: st.DataObject) -> None:
    (lo, hi), _ = UNARY[name]
    x = data.draw(_points(lo, hi), label="x")
    fun = getattr(lnp, name)
    np.testing.assert_allclose(np.asarray(fun(x)), getattr(np, name)(x), rtol=1e-12)
    check_grads(fun, x, label=name)


@pytest.mark.parametrize("name", sorted(n for n, (_, c) in UNARY.items() if c))
@FEW
@given(data=st.data())
def test_unary_complex(name: str, data: st.DataObject) -> None:
    (lo, hi), _ = UNARY[name]
    x = data.draw(_points(lo, hi), label="real part")
    y = data.draw(hnp.arrays(np.float64, x.shape, elements=st.floats(-0.3, 0.3)), label="imag")
    z = x + 1j * y
    fun = getattr(lnp, name)
    np.testing.assert_allclose(np.asarray(fun(z)), getattr(np, name)(z), rtol=1e-12)
    check_grads(fun, z, label=name)


@pytest.mark.parametrize("name", HOLOMORPHIC)
def test_holomorphic_grad_is_the_complex_derivative(name: str) -> None:
    (lo, hi), _ = UNARY[name]
    z = complex(0.3 * lo + 0.7 * hi, 0.2)
    f = getattr(np, name)
    h = 1e-6
    want = (f(z + h) - f(z - h)) / (2 * h)
    got = lazygraph.grad(getattr(lnp, name), holomorphic=True)(np.array(z))
    np.testing.assert_allclose(got, want, rtol=1e-7)
    # and the gradient of the gradient: the second complex derivative
    got2 = lazygraph.grad(lazygraph.grad(getattr(lnp, name), holomorphic=True), holomorphic=True)
    h2 = 1e-4  # a second difference needs a larger step (rounding / h**2)
    want2 = (f(z + h2) - 2 * f(z) + f(z - h2)) / h2**2
    np.testing.assert_allclose(got2(np.array(z)), want2, rtol=1e-5)


def test_scalar_times_three_of_each() -> None:
    # autograd's scalar tests: 3 * f(x) at a positive and a negative point.
    for name in ["abs", "sin", "sign", "exp", "cos", "tan", "cosh", "sinh", "tanh", "negative"]:
        for x in [1.1, -1.1]:
            check_grads(lambda x, name=name: 3.0 * getattr(lnp, name)(x), x, label=name)
    check_grads(lambda x: 3.0 * lnp.log(x), 1.3)


# -- binary functions and operators, every broadcastable pair of shapes --------------------

SHAPES = [(), (2,), (3, 2), (1, 2)]
RNG = np.random.default_rng(1)


def _in(lims: tuple[float, float], shape: tuple[int, ...], cplx: bool = False) -> np.ndarray:
    lo, hi = lims
    x = lo + (hi - lo) * RNG.random(shape)
    return x + 0.1j * RNG.random(shape) if cplx else x


# name -> (function, lims of a, lims of b, complex allowed)
BINARY: dict[str, tuple[Callable[..., Any], tuple, tuple, bool]] = {
    "add": (lnp.add, (-2, 2), (-2, 2), True),
    "subtract": (lnp.subtract, (-2, 2), (-2, 2), True),
    "multiply": (lnp.multiply, (-2, 2), (-2, 2), True),
    "true_divide": (lnp.true_divide, (-2, 2), (0.3, 2.0), True),
    "true_divide_neg": (lnp.true_divide, (-2, 2), (-2.0, -0.3), False),
    "power": (lnp.power, (0.7, 2), (-2, 2), True),
    "float_power": (lnp.float_power, (0.7, 2), (-2, 2), True),
    "logaddexp": (lnp.logaddexp, (-2, 2), (-2, 2), False),
    "logaddexp2": (lnp.logaddexp2, (-2, 2), (-2, 2), False),
    "arctan2": (lnp.arctan2, (0.3, 2), (-2, 2), False),
    "hypot": (lnp.hypot, (0.3, 2), (-2, 2), False),
    "copysign": (lnp.copysign, (-2, 2), (0.3, 2), False),
    "remainder": (lnp.remainder, (-0.9, 0.9), (1.0, 1.9), False),
    "mod_neg": (lnp.mod, (0.1, 0.9), (-2.0, -1.0), False),
    "fmod": (lnp.fmod, (0.1, 0.9), (1.0, 1.9), False),
    "maximum": (lnp.maximum, (-2, -0.1), (0.1, 2), False),
    "minimum": (lnp.minimum, (-2, -0.1), (0.1, 2), False),
    "fmax": (lnp.fmax, (0.1, 2), (-2, -0.1), False),
    "fmin": (lnp.fmin, (0.1, 2), (-2, -0.1), False),
    "heaviside": (lnp.heaviside, (0.1, 2), (-2, 2), False),
    "op.add": (operator.add, (-2, 2), (-2, 2), True),
    "op.sub": (operator.sub, (-2, 2), (-2, 2), True),
    "op.mul": (operator.mul, (-2, 2), (-2, 2), True),
    "op.truediv": (operator.truediv, (-2, 2), (0.5, 2.0), True),
    "op.pow": (operator.pow, (0.7, 2), (-2, 2), True),
    "op.mod": (operator.mod, (0.1, 0.9), (1.0, 2.0), False),
    "op.mod_neg": (operator.mod, (0.1, 0.9), (-2.0, -1.0), False),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_every_broadcast_pair(name: str) -> None:
    fun, la, lb, _ = BINARY[name]
    for sa, sb in itertools.product(SHAPES, SHAPES):
        a, b = _in(la, sa), _in(lb, sb)
        check_grads(fun, a, b, label=f"{name}{sa}{sb}")


@pytest.mark.parametrize("name", sorted(n for n, v in BINARY.items() if v[3]))
def test_binary_complex(name: str) -> None:
    fun, la, lb, _ = BINARY[name]
    for sa, sb, ca, cb in [
        ((), (3, 2), True, False),
        ((3, 2), (2,), True, True),
        ((2,), (), False, True),
    ]:
        a, b = _in(la, sa, ca), _in(lb, sb, cb)
        check_grads(fun, a, b, label=f"{name}{sa}{sb}")


def test_pow_with_integer_exponents_and_same_arguments() -> None:
    # autograd's pow test: a positive base, rounded exponents; and f(x, x).
    check_grads(lambda x, y: x ** lnp.round(y), _in((1.1, 3), (3, 2)), _in((-2, 2), (2,)))
    for name in ["add", "multiply", "power", "logaddexp", "hypot", "arctan2"]:
        check_grads(lambda x, name=name: getattr(lnp, name)(x, x), _in((0.5, 2), (3,)), label=name)


def test_ldexp_and_frexp_and_modf() -> None:
    check_grads(lambda x: lnp.ldexp(x, np.array([1, -2, 3])), _in((-2, 2), (3,)))
    check_grads(lambda x: lnp.frexp(x)[0], _in((0.6, 0.9), (3,)))
    check_grads(lambda x: lnp.modf(x)[0] + 2 * lnp.modf(x)[1], _in((1.1, 1.9), (3,)))
    check_grads(lambda x, y: lnp.divmod(x, y)[1], _in((0.1, 0.9), (3,)), _in((1.0, 1.5), (3,)))


# -- edges: numpy-consistent subgradients (the conventions of docs/gradients.md) ------------


def test_edges_follow_the_documented_conventions() -> None:
    g = lazygraph.grad
    assert g(lnp.abs)(0.0) == 0.0
    assert g(lambda x: lnp.maximum(x, 1.0))(1.0) == 0.5
    assert g(lambda x: lnp.sum(lnp.maximum(x, x)))(np.array([2.0])) == 1.0
    assert g(lambda x: lnp.max(lnp.stack([x, x, 0.5 * x])))(1.0) == 1.0
    assert g(lambda x: lnp.clip(x, 0.0, 1.0))(1.0) == 1.0
    assert g(lnp.floor)(2.0) == 0.0 and g(lnp.sign)(0.0) == 0.0
    assert np.isinf(g(lnp.sqrt)(0.0))
    assert g(lambda z: lnp.abs(z))(np.array(0j)) == 0
    np.testing.assert_allclose(g(lambda z: lnp.abs(z) ** 2)(np.array(3 + 4j)), 6 - 8j)


@pytest.mark.parametrize("name", ["exp", "sin", "log", "tanh"])
def test_real_argument_through_complex_values_gets_a_real_gradient(name: str) -> None:
    fun = getattr(lnp, name)
    x = np.array([0.4, 1.2])
    gr = lazygraph.grad(lambda x: lnp.sum(lnp.real(fun(x * (1 + 0.5j)))))(x)
    assert gr.dtype == np.float64
    check_grads(lambda x: fun(x * (1 + 0.5j)), x, label=name)


# -- the checker itself ----------------------------------------------------------------------


def _stopped(x: Any) -> Any:
    """``x`` with its gradient cut (a wrong rule on purpose: ``d/dx stopped(x)`` is 0)."""
    from lazygraph.gradient import zero_grad
    from lazygraph.numpy._convert import wrap

    return wrap(zero_grad(lnp.asarray(x)._var))


@pytest.mark.parametrize("modes", [("rev",), ("fwd",)])
@pytest.mark.parametrize(
    ("fun", "point"),
    [
        (lambda x: x * _stopped(x), np.array([0.5, 1.5])),
        (lambda z: lnp.exp(z) * _stopped(z), np.array([0.5 + 1j])),
        (lambda x: (lnp.sin(x) * _stopped(x), x), np.array([0.7, 0.2])),  # one output of two
    ],
)
def test_the_checker_catches_a_wrong_rule(
    fun: Callable[..., Any], point: np.ndarray, modes: tuple[str, ...]
) -> None:
    with pytest.raises(AssertionError):
        check_grads(fun, point, order=1, modes=modes)

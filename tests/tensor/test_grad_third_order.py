"""Third derivatives of the elementwise table: ``grad(grad(grad(f)))`` for a
representative set of functions, each order checked against central
differences of the order below it (so the first order is checked against
``f`` itself, computed by numpy), at hypothesis-drawn points away from each
function's singularities, kinks and ties; binary functions also along mixed
paths (``d/dx d/dy d/dx``). Python backend: these are rules, not lowerings.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.tensor as lt
from lazygraph.gradient import grad

N = 4  # points per example


def interval(lo: float, hi: float) -> st.SearchStrategy[Any]:
    return st.lists(st.floats(lo, hi), min_size=N, max_size=N).map(np.array)


def away_from_zero(lo: float, hi: float) -> st.SearchStrategy[Any]:
    signs = st.lists(st.sampled_from([-1.0, 1.0]), min_size=N, max_size=N).map(np.array)
    return st.tuples(interval(lo, hi), signs).map(lambda p: p[0] * p[1])


SMOOTH = interval(-1.5, 1.5)
POSITIVE = interval(0.5, 2.5)
UNIT = interval(-0.8, 0.8)

#: name -> (function of tensors, one strategy per input)
UNARY: dict[str, tuple[Callable[..., Any], list[Any]]] = {
    "exp": (lt.exp, [SMOOTH]),
    "exp2": (lt.exp2, [SMOOTH]),
    "expm1": (lt.expm1, [SMOOTH]),
    "log": (lt.log, [POSITIVE]),
    "log2": (lt.log2, [POSITIVE]),
    "log1p": (lt.log1p, [interval(-0.5, 2.0)]),
    "sqrt": (lt.sqrt, [POSITIVE]),
    "cbrt": (lt.cbrt, [away_from_zero(0.5, 2.0)]),
    "square": (lt.square, [SMOOTH]),
    "reciprocal": (lt.reciprocal, [away_from_zero(0.5, 2.0)]),
    "sin": (lt.sin, [SMOOTH]),
    "cos": (lt.cos, [SMOOTH]),
    "tan": (lt.tan, [UNIT]),
    "arcsin": (lt.arcsin, [UNIT]),
    "arctan": (lt.arctan, [SMOOTH]),
    "sinh": (lt.sinh, [SMOOTH]),
    "cosh": (lt.cosh, [SMOOTH]),
    "tanh": (lt.tanh, [SMOOTH]),
    "arccosh": (lt.arccosh, [interval(1.5, 3.0)]),
    "arctanh": (lt.arctanh, [UNIT]),
    "sigmoid": (lt.sigmoid, [SMOOTH]),
    "softplus": (lt.softplus, [SMOOTH]),
    "log_sigmoid": (lt.log_sigmoid, [SMOOTH]),
    "erf": (lt.erf, [SMOOTH]),
    "erfc": (lt.erfc, [SMOOTH]),
    "abs": (lt.abs, [away_from_zero(0.2, 2.0)]),
}


def _maximum_apart(lo: float, hi: float) -> st.SearchStrategy[Any]:
    # y = x + offset with |offset| >= 0.2: never a tie
    return st.tuples(interval(lo, hi), away_from_zero(0.2, 1.0)).map(lambda p: (p[0], p[0] + p[1]))


BINARY: dict[str, tuple[Callable[..., Any], Any]] = {
    "multiply": (lambda x, y: x * y * x, st.tuples(SMOOTH, SMOOTH)),
    "power": (lt.power, st.tuples(POSITIVE, interval(-2.5, 2.5))),
    "divide": (lt.divide, st.tuples(SMOOTH, away_from_zero(0.5, 2.0))),
    "arctan2": (lt.arctan2, st.tuples(away_from_zero(0.3, 2.0), away_from_zero(0.3, 2.0))),
    "hypot": (lt.hypot, st.tuples(away_from_zero(0.3, 2.0), away_from_zero(0.3, 2.0))),
    "logaddexp": (lt.logaddexp, st.tuples(SMOOTH, SMOOTH)),
    # smooth functions of the winner, so the third derivative is not zero
    "maximum": (lambda x, y: lt.exp(lt.maximum(x, y)) * y, _maximum_apart(-1.0, 1.0)),
    "minimum": (lambda x, y: lt.sin(lt.minimum(x, y)) * x, _maximum_apart(-1.0, 1.0)),
}


def _compiled(expr: Any, inputs: list[Any]) -> Callable[..., np.ndarray]:
    return lazygraph.function(inputs, expr, mode="python")  # type: ignore[no-any-return]


def _derivatives(fn: Callable[..., Any], nin: int, path: tuple[int, ...]) -> list[Callable]:
    """``[f, d f, d d f, d d d f]`` as compiled functions of the ``nin`` inputs,
    differentiating with respect to input ``path[k]`` at order ``k + 1``
    (elementwise: the gradient of the sum is the elementwise derivative)."""
    xs = [lt.dvector(f"x{i}") for i in range(nin)]
    levels = [fn(*xs)]
    for i in path:
        levels.append(grad(lt.sum(levels[-1]), xs[i], disconnected_inputs="ignore"))
    return [_compiled(level, xs) for level in levels]


def _check_orders(fs: list[Callable], path: tuple[int, ...], points: list[np.ndarray]) -> None:
    eps = 1e-6
    for k, i in enumerate(path):
        up = [p + eps * (j == i) for j, p in enumerate(points)]
        down = [p - eps * (j == i) for j, p in enumerate(points)]
        numeric = (fs[k](*up) - fs[k](*down)) / (2 * eps)
        got = fs[k + 1](*points)
        scale = np.maximum(1.0, np.abs(fs[k](*points)))
        np.testing.assert_allclose(
            got, numeric, rtol=2e-5, atol=2e-6 * scale.max(), err_msg=f"order {k + 1} of {path}"
        )


@functools.cache
def _unary(name: str) -> list[Callable]:
    return _derivatives(UNARY[name][0], 1, (0, 0, 0))


@pytest.mark.parametrize("name", sorted(UNARY))
def test_third_derivative_of_unary_functions(name: str) -> None:
    fs = _unary(name)

    @settings(max_examples=10, deadline=None)
    @given(UNARY[name][1][0])
    def check(x: np.ndarray) -> None:
        _check_orders(fs, (0, 0, 0), [x])

    check()


PATHS = [(0, 0, 0), (1, 1, 1), (0, 1, 0), (1, 0, 0)]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: "".join(map(str, p)))
@pytest.mark.parametrize("name", sorted(BINARY))
def test_third_derivatives_of_binary_functions(name: str, path: tuple[int, ...]) -> None:
    fn, points = BINARY[name]
    fs = _derivatives(fn, 2, path)

    @settings(max_examples=8, deadline=None)
    @given(points)
    def check(xy: tuple[np.ndarray, np.ndarray]) -> None:
        _check_orders(fs, path, list(xy))

    check()


@settings(max_examples=10, deadline=None)
@given(st.tuples(SMOOTH, SMOOTH, st.lists(st.booleans(), min_size=N, max_size=N).map(np.array)))
def test_third_derivative_through_where(args: Any) -> None:
    x, y, cond = args
    c = lt.constant(cond)

    def fn(a: Any, b: Any) -> Any:
        return lt.where(c, lt.exp(a) * b, lt.sin(b) * a * a)

    for path in PATHS:
        _check_orders(_derivatives(fn, 2, path), path, [x, y])


def test_third_derivative_closed_forms() -> None:
    # a few exact values: d3/dx3 exp = exp, d3/dx3 log = 2/x**3, d3/dx3 x**y
    # = y (y-1) (y-2) x**(y-3), d3/dx3 tanh = -2 (1 - t**2) (1 - 3 t**2)
    x = np.array([0.3, 1.0, 2.0])
    t = np.tanh(x)
    np.testing.assert_allclose(_unary("exp")[3](x), np.exp(x), rtol=1e-14)
    np.testing.assert_allclose(_unary("log")[3](x), 2 / x**3, rtol=1e-14)
    np.testing.assert_allclose(_unary("tanh")[3](x), -2 * (1 - t**2) * (1 - 3 * t**2), rtol=1e-12)
    pw = _derivatives(lt.power, 2, (0, 0, 0))[3]
    y = np.array([2.5, -1.0, 3.0])
    np.testing.assert_allclose(pw(x, y), y * (y - 1) * (y - 2) * x ** (y - 3), rtol=1e-13)

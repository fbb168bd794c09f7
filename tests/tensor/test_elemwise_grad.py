"""Derivatives of the elementwise family against finite differences: every
differentiable function's ``L_op`` (``verify_grad``) and ``R_op`` (``verify_rop``)
in float64, with broadcasting operands and with static and unknown sizes;
second order for a few; integer inputs get no gradient.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import lazygraph.tensor as lt
from lazygraph.gradient import grad, verify_grad, verify_rop
from lazygraph.tensor.scalar import ROWS, Composite, ScalarType, scalar_op


def uniform(lo: float, hi: float) -> Callable[[np.random.Generator, tuple[int, ...]], Any]:
    return lambda rng, shape: rng.uniform(lo, hi, shape)


def away_from_zero(lo: float, hi: float) -> Callable[[np.random.Generator, tuple[int, ...]], Any]:
    """|values| in [lo, hi], either sign."""
    return lambda rng, shape: rng.uniform(lo, hi, shape) * rng.choice([-1.0, 1.0], shape)


@dataclass
class GradCase:
    """``fn`` over float64 inputs drawn by ``domains`` (one per input), chosen
    away from the function's singularities and discontinuities."""

    name: str
    fn: Callable[..., Any]
    domains: list[Callable[[np.random.Generator, tuple[int, ...]], Any]]
    rop: bool = True
    dtype: str = "float64"


SMOOTH = uniform(-1.0, 1.0)
POSITIVE = uniform(0.5, 2.0)
UNIT = uniform(-0.8, 0.8)
# x in [0.1, 0.9], y in [1.5, 2]: x / y stays strictly between two integers
NUMERATOR, DENOMINATOR = uniform(0.1, 0.9), uniform(1.5, 2.0)

#: Domains per row where the default (SMOOTH for every float input) does not fit:
#: away from singularities, kinks, jumps and ties. Every other row of the scalar
#: table with one or two inputs and a float result gets a case with the default.
DOMAINS: dict[str, list[Callable[[np.random.Generator, tuple[int, ...]], Any]]] = {
    "abs": [away_from_zero(0.2, 2.0)],
    "acos": [UNIT],
    "acosh": [uniform(1.5, 3.0)],
    "asin": [UNIT],
    "atanh": [UNIT],
    "cbrt": [away_from_zero(0.5, 2.0)],
    "ceil": [uniform(0.2, 0.8)],
    "floor": [uniform(0.2, 0.8)],
    "log": [POSITIVE],
    "log10": [POSITIVE],
    "log1mexp": [uniform(-3.0, -0.1)],
    "log1p": [uniform(-0.5, 2.0)],
    "log2": [POSITIVE],
    "log_sigmoid": [uniform(-3.0, 3.0)],
    "reciprocal": [away_from_zero(0.5, 2.0)],
    "rint": [uniform(0.1, 0.4)],
    "round": [uniform(0.1, 0.4)],
    "sigmoid": [uniform(-3.0, 3.0)],
    "sign": [away_from_zero(0.2, 2.0)],
    "softplus": [uniform(-3.0, 3.0)],
    "sqrt": [POSITIVE],
    "trunc": [uniform(0.2, 0.8)],
    "divide": [SMOOTH, away_from_zero(0.5, 2.0)],
    "pow": [POSITIVE, uniform(-1.5, 1.5)],
    "remainder": [NUMERATOR, DENOMINATOR],
    "fmod": [NUMERATOR, DENOMINATOR],
    "floor_divide": [NUMERATOR, DENOMINATOR],
    "atan2": [away_from_zero(0.5, 2.0), away_from_zero(0.5, 2.0)],
    "hypot": [away_from_zero(0.5, 2.0), away_from_zero(0.5, 2.0)],
    "copysign": [away_from_zero(0.5, 2.0), away_from_zero(0.5, 2.0)],
    # separated ranges: no ties between the operands
    "maximum": [uniform(-1.0, 0.0), away_from_zero(0.5, 1.0)],
    "minimum": [uniform(-1.0, 0.0), away_from_zero(0.5, 1.0)],
    "fmax": [uniform(-1.0, 0.0), away_from_zero(0.5, 1.0)],
    "fmin": [uniform(-1.0, 0.0), away_from_zero(0.5, 1.0)],
}

#: Rows of one or two inputs with a float result that get no case from the table.
EXCLUDED = {
    # the internal fill of gradients (Theano's fill): covered by every gradient
    # that broadcasts, and by test_grad_edges
    "second",
    # a dtype parameter: the case cast-float64 below
    "cast",
}


#: The value of an integer operand (an input outside a row's promotion that refuses
#: floats: ldexp's exponent): fixed, it broadcasts against every case's shapes.
INTEGER_OPERAND = np.array([-2, 0, 1, 3])


def _input_dtypes(name: str) -> list[str] | None:
    """float64 for every input, or int64 for the inputs outside the row's promotion
    where float64 is refused; ``None`` when the result is not a float (bitwise
    functions have no float loop; comparisons and predicates give bool)."""
    row = ROWS[name]
    candidates = [["float64"] * row.nin]
    if row.promote is not None:
        candidates.append(["float64" if i in row.promote else "int64" for i in range(row.nin)])
    for dtypes in candidates:
        try:
            (out,) = scalar_op(name).output_dtypes(dtypes)
        except TypeError:
            continue
        return dtypes if np.dtype(out).kind == "f" else None
    return None


def _row_case(name: str, dtypes: list[str]) -> GradCase:
    """The case of a row: its float inputs drawn from DOMAINS (default SMOOTH), its
    integer inputs fixed to INTEGER_OPERAND."""
    fn = getattr(lt, name)
    floats = [d == "float64" for d in dtypes]
    domains = DOMAINS.get(name, [SMOOTH] * sum(floats))
    if all(floats):
        return GradCase(name, fn, domains)

    def with_integers(*xs: Any) -> Any:
        it = iter(xs)
        return fn(*(next(it) if f else INTEGER_OPERAND for f in floats))

    return GradCase(name, with_integers, domains)


#: name -> the dtype of each input: every row of one or two inputs with a float
#: result (rows without a gradient too: their gradient is 0 and must be).
DIFFERENTIABLE = {
    name: dtypes
    for name, row in sorted(ROWS.items())
    if row.nin in (1, 2) and name not in EXCLUDED and (dtypes := _input_dtypes(name))
}

_COND = np.array([True, False, False, True])


def _clip_domain(rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
    # away from the bounds -1 and 1
    return rng.choice([-1.6, 0.0, 1.6], shape) + rng.uniform(-0.3, 0.3, shape)


TABLE: list[GradCase] = [
    *(_row_case(name, dtypes) for name, dtypes in DIFFERENTIABLE.items()),
    GradCase(
        "clip",
        lambda x, lo, hi: lt.clip(x, lo, hi),
        [_clip_domain, uniform(-1.1, -0.9), uniform(0.9, 1.1)],
    ),
    GradCase("clip-scalars", lambda x: lt.clip(x, -1.0, 1.0), [_clip_domain]),
    GradCase("where", lambda x, y: lt.where(_COND, x, y), [SMOOTH, SMOOTH]),
    GradCase("cast-float64", lambda x: lt.cast(x, "float64") * x, [SMOOTH], dtype="float32"),
    GradCase("scalar-operands", lambda x: 2.0 * x**3 - 1 / (x + 3.0), [SMOOTH]),
    GradCase(
        "composite",
        lambda x, y: lt.Elemwise(_composite())(x, y),
        [POSITIVE, SMOOTH],
    ),
]


def _composite() -> Composite:
    """exp(x) * y + log(x) - sigmoid(y), with a shared subexpression."""
    x, y = ScalarType("float64")("x"), ScalarType("float64")("y")
    ex = scalar_op("exp")(x)
    out = scalar_op("add")(scalar_op("multiply")(ex, y), scalar_op("log")(x))
    out2 = scalar_op("subtract")(out, scalar_op("sigmoid")(y))
    return Composite([x, y], [out2])


def _point(case: GradCase, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    # operands broadcast: (3, 1) against (4,) against ... (first gets (3, 1))
    shapes = [(3, 1), (4,), (3, 4)][: len(case.domains)]
    if len(case.domains) == 1:
        shapes = [(3, 4)]
    return [dom(rng, s).astype(case.dtype) for dom, s in zip(case.domains, shapes, strict=True)]


@pytest.mark.parametrize("static_shape", [True, False], ids=["static", "unknown-sizes"])
@pytest.mark.parametrize("case", TABLE, ids=lambda c: c.name)
def test_verify_grad(case: GradCase, static_shape: bool) -> None:
    verify_grad(case.fn, _point(case, 0), rng=1, static_shape=static_shape)


@pytest.mark.parametrize("case", [c for c in TABLE if c.rop], ids=lambda c: c.name)
def test_verify_rop(case: GradCase) -> None:
    verify_rop(case.fn, _point(case, 2), rng=3)


SECOND_ORDER = [
    "exp",
    "multiply",
    "tanh",
    "sigmoid",
    "where",
    "divide",
    "pow",
    "log1p",
    "composite",
]


@pytest.mark.parametrize("case", [c for c in TABLE if c.name in SECOND_ORDER], ids=lambda c: c.name)
def test_second_order(case: GradCase) -> None:
    """The gradient's own gradient: each L_op builds differentiable graphs."""
    point = _point(case, 4)

    def first_derivative(*xs: Any) -> Any:
        total = lt.sum(case.fn(*xs))
        grads = grad(total, list(xs))
        # one output combining every input's gradient
        out = lt.sum(grads[0])
        for g in grads[1:]:
            out = out + lt.sum(g * g)
        return out

    verify_grad(first_derivative, point, rng=5)


def test_table_covers_every_differentiable_row() -> None:
    # a row with a gradient rule must have a case (or a reason in EXCLUDED)
    tested = {c.name.split("-")[0] for c in TABLE}
    with_grad = {name for name, row in ROWS.items() if row.grad is not None}
    untested = with_grad - tested - EXCLUDED
    assert not untested, f"rows with a gradient but no case: {sorted(untested)}"
    # every override and exclusion names a row that has a case through the table
    assert set(DOMAINS) <= set(DIFFERENTIABLE), sorted(set(DOMAINS) - set(DIFFERENTIABLE))
    for name, domains in DOMAINS.items():  # one domain per float input
        assert len(domains) == DIFFERENTIABLE[name].count("float64"), name
    assert set(EXCLUDED) <= set(ROWS)


def test_integer_inputs_get_no_gradient() -> None:
    x, k = lt.dvector("x"), lt.lvector("k")
    g = grad(lt.sum(x * k), [x, k])
    xv, kv = np.array([1.0, 2.0]), np.array([3, 4])
    np.testing.assert_array_equal(g[0].eval({x: xv, k: kv}), kv.astype(float))
    # the gradient with respect to an integer input is zeros (PyTensor's rule)
    np.testing.assert_array_equal(g[1].eval({x: xv, k: kv}), np.zeros(2))


def test_discrete_outputs_have_zero_gradient() -> None:
    x = lt.dvector("x")
    cost = lt.sum(lt.cast(lt.less(x, 0.5), "float64") * x)
    got = grad(cost, x).eval({x: np.array([0.2, 0.8])})
    np.testing.assert_array_equal(got, [1.0, 0.0])


def test_float32_gradients_keep_their_dtype() -> None:
    x, y = lt.fvector("x"), lt.dvector("y")
    gx, gy = grad(lt.sum(x * y), [x, y])
    assert gx.dtype == "float32" and gy.dtype == "float64"

"""Gradients at the edge points of every differentiable op (issue 16: no silent
wrong answers): ties, zeros, -0.0, equal operands, the boundaries of a domain,
single-element reductions.

Hypothesis draws the points from each op's edge values, so ties and zeros come
up in almost every example. At each point the symbolic gradient must match one
of three things, as docs/gradients.md documents:

- central finite differences, where the function is smooth there;
- the documented value, where it is not but a convention defines one (ties share
  equally, a locally constant function has gradient 0, ``abs`` at 0 is 0...);
- a non-finite value (inf or NaN) at a genuine singularity (``log`` at 0,
  ``sqrt`` at 0, the 2-norm of a zero vector): never a finite wrong number.

Each op compiles one function (output and gradient together) for one float64
shape, whatever hypothesis draws, so the compiled backends compile few kernels.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.gradient import Rop, grad, numeric_grad
from lazygraph.tensor.scalar.basic import ROWS, ScalarOp
from tests.tensor.harness import BACKEND

#: Expected-gradient markers (a convention is never NaN, nor +inf where a pole is).
FD = np.nan  # smooth here: compare with central differences
POLE = np.inf  # a genuine singularity: the gradient must not be finite

N = 8  # elements per input: one compiled shape for every example
WEIGHTS = np.linspace(0.5, 1.5, N)  # the projection: d/dx sum(f(x) * WEIGHTS)
EPS, TOL = 1e-7, 1e-4  # verify_grad's float64 step and tolerances


def _mode() -> Mode:
    return Mode(backend=BACKEND)


# -- elementwise: every row of the scalar table ------------------------------------


Expect = Callable[..., Sequence[Any]]


def _all_fd(*xs: np.ndarray) -> list[Any]:
    return [FD] * len(xs)


def _poles_where(mask: Callable[..., np.ndarray]) -> Expect:
    """Every input has a pole where ``mask(*xs)``, and is smooth elsewhere."""
    return lambda *xs: [np.where(mask(*xs), POLE, FD)] * len(xs)


def _constant(*values: float) -> Expect:
    """The gradient is exactly ``values`` (one per input) everywhere."""
    return lambda *xs: [np.full(N, v) for v in values]


def _tie_split(x: np.ndarray, y: np.ndarray) -> list[Any]:
    # maximum/minimum/fmax/fmin: half each on a tie (-0.0 ties with 0.0)
    tie = x == y
    return [np.where(tie, 0.5, FD)] * 2


def _pow(x: np.ndarray, y: np.ndarray) -> list[Any]:
    # x**0 == 1 for every x: d/dx is 0. At x = 0: smooth in x for y in {1, 2, 3}
    # (x, x**2, x**3), a pole for 0 < y < 1 and y < 0. d/dy at x = 0 is 0 (0**y is
    # 0 near y > 0; 0**0's jump gets the anchors' 0).
    dx = np.where(y == 0, 0.0, np.where((x == 0) & (y < 1), POLE, FD))
    dy = np.where(x == 0, 0.0, FD)
    return [dx, dy]


def _atan2(y: np.ndarray, x: np.ndarray) -> list[Any]:
    # (0, 0) is a singularity. On the branch cut (y = ±0, x < 0) atan2 jumps from
    # pi to -pi in y; both sides have the derivative x / (x**2 + y**2) = 1 / x.
    origin = (x == 0) & (y == 0)
    cut = (y == 0) & (x < 0)
    with np.errstate(divide="ignore"):
        dy = np.where(origin, POLE, np.where(cut, 1 / x, FD))
    return [dy, np.where(origin, POLE, FD)]


def _copysign(x: np.ndarray, y: np.ndarray) -> list[Any]:
    # |x| sgn(y): at x = ±0 the sign bits decide (+1 where they agree); the jump in y
    # has no gradient.
    at_zero = np.where(np.signbit(x) == np.signbit(y), 1.0, -1.0)
    return [np.where(x == 0, at_zero, FD), np.zeros(N)]


def _remainder(x: np.ndarray, y: np.ndarray) -> list[Any]:
    # remainder jumps at x = 0 (x / y an integer); the rule gives the one-sided 1, 0
    return [np.where(x == 0, 1.0, FD), np.where(x == 0, 0.0, FD)]


def _clip(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> list[Any]:
    # clip = minimum(maximum(x, lo), hi): x keeps the gradient inside the closed
    # interval (bounds included), hi wins when lo > hi (numpy); ties take no split.
    under = np.maximum(x, lo) <= hi
    exact = [(x >= lo) & under, (x < lo) & under, ~under]
    tie = (x == lo) | (x == hi) | (lo == hi) | (np.maximum(x, lo) == hi)
    return [np.where(tie, e.astype(float), FD) for e in exact]


@dataclass
class EdgeRow:
    """A scalar-table row, the edge values of each input, and what its gradient
    must be at each point (``expect(*xs)``: one array or marker per input)."""

    name: str
    values: list[list[float]]
    expect: Expect = _all_fd
    params: tuple[Any, ...] = ()
    #: the dtype of each input (float64 when empty)
    dtypes: tuple[str, ...] = ()

    def dtype(self, i: int) -> str:
        return self.dtypes[i] if self.dtypes else "float64"


SIGNED = [0.0, -0.0, 1e-3, -1e-3, 0.5, -0.5, 1.0, -1.0, 2.0, -3.0, 20.0, -20.0]
NONNEG = [0.0, -0.0, 1e-3, 0.5, 1.0, 2.0, 20.0]
UNIT_CLOSED = [-1.0, 1.0, 1 - 1e-3, -1 + 1e-3, 0.0, -0.0, 0.5, -0.5]
PAIR = [0.0, -0.0, 1e-3, 0.5, -0.5, 1.0, -2.0]

#: Edge points and expectations where the defaults do not fit. Every other row of
#: the scalar table with one or two inputs and a float result gets its edge points
#: from the defaults below (_default_row): SIGNED for one input, PAIR for each of
#: two, smooth everywhere if the row has a gradient rule, and exactly 0 (including
#: at its jumps) if it has none (sign, floor, ceil, trunc, rint, imag...).
EDGE_OVERRIDES: list[EdgeRow] = [
    EdgeRow("round", [[0.5, -0.5, 1.5, 0.0, -0.0, 2.0]], _constant(0.0), params=(0,)),
    EdgeRow("cast", [SIGNED], _constant(1.0), params=("float64",)),
    EdgeRow("abs", [SIGNED], lambda x: [np.where(x == 0, 0.0, FD)]),
    EdgeRow("sign", [SIGNED], _constant(0.0)),  # its rule is for complex z / |z|
    EdgeRow("cbrt", [SIGNED], _poles_where(lambda x: x == 0)),
    EdgeRow("reciprocal", [SIGNED], _poles_where(lambda x: x == 0)),
    EdgeRow("sqrt", [NONNEG], _poles_where(lambda x: x == 0)),
    EdgeRow("log", [NONNEG], _poles_where(lambda x: x == 0)),
    EdgeRow("log2", [NONNEG], _poles_where(lambda x: x == 0)),
    EdgeRow("log10", [NONNEG], _poles_where(lambda x: x == 0)),
    EdgeRow(
        "log1p", [[-1.0, -1 + 1e-3, -0.5, 0.0, -0.0, 2.0, 20.0]], _poles_where(lambda x: x == -1)
    ),
    EdgeRow("log1mexp", [[0.0, -0.0, -1e-3, -0.5, -1.0, -20.0]], _poles_where(lambda x: x == 0)),
    EdgeRow("asin", [UNIT_CLOSED], _poles_where(lambda x: np.abs(x) == 1)),
    EdgeRow("acos", [UNIT_CLOSED], _poles_where(lambda x: np.abs(x) == 1)),
    EdgeRow("atanh", [UNIT_CLOSED], _poles_where(lambda x: np.abs(x) == 1)),
    EdgeRow("acosh", [[1.0, 1 + 1e-3, 2.0, 20.0]], _poles_where(lambda x: x == 1)),
    *(EdgeRow(name, [PAIR, PAIR], _tie_split) for name in ("maximum", "minimum", "fmax", "fmin")),
    EdgeRow("divide", [PAIR, PAIR], _poles_where(lambda x, y: y == 0)),
    EdgeRow("floor_divide", [PAIR, [0.3, -0.7, 2.0]], _constant(0.0, 0.0)),
    EdgeRow(
        "pow",
        [[0.0, -0.0, 1e-3, 0.5, 1.0, 2.0], [0.0, -0.0, 1.0, 2.0, 3.0, 0.5, -1.0, -0.5]],
        _pow,
    ),
    EdgeRow("remainder", [[0.0, 0.25, -0.25, 0.75, 1.5, -1.5], [1.0, -1.0, 2.0, 0.6]], _remainder),
    EdgeRow("fmod", [[0.0, -0.0, 0.25, -0.25, 0.75, 1.5], [1.0, -1.0, 2.0, 0.6]]),
    EdgeRow("atan2", [PAIR, PAIR], _atan2),
    EdgeRow("hypot", [PAIR, PAIR], _poles_where(lambda x, y: (x == 0) & (y == 0))),
    EdgeRow("copysign", [PAIR, PAIR], _copysign),
    EdgeRow("nextafter", [PAIR, PAIR], _constant(1.0, 0.0)),
    EdgeRow("clip", [PAIR, [-1.0, 0.0, -0.0, 0.5], [1.0, 0.0, 0.5, 2.0]], _clip),
]
#: The rows differentiated by hand in test_elementwise_gradient_at_edges (where's
#: condition is a fixed bool array, not an input of the compiled function).
SPECIAL_ROWS = {"where"}

#: The edge values of an integer operand (an input outside a row's promotion that
#: refuses floats: ldexp's exponent); its gradient is 0, as every integer input's.
INTEGERS = [-3.0, -1.0, 0.0, 1.0, 2.0, 5.0]


def _input_dtypes(name: str) -> tuple[str, ...] | None:
    """float64 for every input (``where``: a bool condition), or int64 for the
    inputs outside the row's promotion where float64 is refused; ``None`` when
    the result is not a float (bitwise functions, comparisons, predicates)."""
    row = ROWS[name]
    params = ("float64",) if name == "cast" else ()
    floats = tuple("bool" if name == "where" and i == 0 else "float64" for i in range(row.nin))
    candidates = [floats]
    if row.promote is not None:
        candidates.append(tuple(d if i in row.promote else "int64" for i, d in enumerate(floats)))
    for dtypes in candidates:
        try:
            (out,) = ScalarOp(name, params).output_dtypes(list(dtypes))
        except TypeError:
            continue  # bitwise functions: no float loop
        return dtypes if np.dtype(out).kind == "f" else None
    return None


def _differentiable_rows() -> set[str]:
    """The rows with a float result for float64 operands (``where``: for its values;
    ldexp: with an integer exponent)."""
    return {name for name in ROWS if _input_dtypes(name) is not None}


def _default_row(name: str) -> EdgeRow:
    """A row's edge points and expectation when EDGE_OVERRIDES has none."""
    row, dtypes = ROWS[name], _input_dtypes(name)
    assert dtypes is not None and row.nin in (1, 2), f"{name}: add it to EDGE_OVERRIDES"
    floats = [d == "float64" for d in dtypes]
    values = [(SIGNED if row.nin == 1 else PAIR) if f else INTEGERS for f in floats]

    def expect(*xs: np.ndarray) -> list[Any]:
        # no rule: exactly 0; a rule: smooth at every edge value (FD); integers: 0
        return [FD if f and row.grad is not None else np.zeros(N) for f in floats]

    return EdgeRow(name, values, expect, dtypes=() if all(floats) else dtypes)


_OVERRIDDEN = {row.name for row in EDGE_OVERRIDES}
EDGE_ROWS: list[EdgeRow] = [
    *EDGE_OVERRIDES,
    *(_default_row(name) for name in sorted(_differentiable_rows() - _OVERRIDDEN - SPECIAL_ROWS)),
]
EDGE_BY_NAME = {row.name: row for row in EDGE_ROWS}
_WHERE_COND = np.array([True, False] * (N // 2))


def test_every_differentiable_row_has_edge_points() -> None:
    # A row of the scalar table gets its edge points from the defaults or from
    # EDGE_OVERRIDES; one with a gradient rule but no float result would be missed.
    assert _differentiable_rows() == {*EDGE_BY_NAME, *SPECIAL_ROWS}
    with_grad = {name for name, row in ROWS.items() if row.grad is not None}
    assert with_grad <= _differentiable_rows(), sorted(with_grad - _differentiable_rows())
    assert len(EDGE_BY_NAME) == len(EDGE_ROWS), "a row overridden twice"


def _apply(row: EdgeRow, xs: Sequence[Any]) -> Any:
    return lt.Elemwise(ScalarOp(row.name, row.params))(*xs)


@functools.cache
def _compiled(name: str) -> Any:
    """``xs -> [f(xs), d/dxs sum(f(xs) * WEIGHTS)]`` for one row, compiled once."""
    row = EDGE_BY_NAME[name] if name != "where" else EdgeRow("where", [PAIR, PAIR])
    xs = [lt.tensor(row.dtype(i), (None,), f"x{i}") for i in range(len(row.values))]
    out = lt.where(_WHERE_COND, *xs) if name == "where" else _apply(row, xs)
    grads = grad(lt.sum(out * WEIGHTS), xs, disconnected_inputs="ignore")
    return lazygraph.function(xs, [out, *grads], mode=_mode())


def _central_differences(f: Any, xs: list[np.ndarray], i: int, relative: bool) -> np.ndarray:
    """``WEIGHTS * d f / d xs[i]`` by central differences, every element at once:
    the function is elementwise, so moving all of ``xs[i]`` moves each output by
    its own element's partial (the step is verify_grad's, and the half-step is
    the one actually taken after rounding)."""
    x = xs[i]
    step = EPS * (np.maximum(1.0, np.abs(x)) if relative else 1.0)
    plus, minus = [*xs], [*xs]
    plus[i], minus[i] = x + step, x - step
    half = ((x + step) - (x - step)) / 2
    with np.errstate(all="ignore"):
        return WEIGHTS * (f(*plus)[0] - f(*minus)[0]) / (2 * half)


def _close(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        err = np.abs(a - b)
        return (err <= TOL) | (err <= TOL * (np.abs(a) + np.abs(b)))


def check_row(name: str, xs: list[np.ndarray]) -> None:
    f = _compiled(name)
    _, *sym = (np.asarray(v) for v in f(*xs))
    row = EDGE_BY_NAME.get(name, EdgeRow("where", [PAIR, PAIR]))
    expected = row.expect(*xs)
    for i, (s, e) in enumerate(zip(sym, expected, strict=True)):
        e = np.broadcast_to(np.asarray(e, dtype=float), (N,))
        where = f"{name}: d/dx{i} at {[x.tolist() for x in xs]}: got {s.tolist()}"
        pole, smooth = np.isposinf(e), np.isnan(e)
        conv = ~pole & ~smooth
        assert not np.isfinite(s[pole]).any(), f"{where}, want non-finite where {pole}"
        np.testing.assert_allclose(s[conv], (WEIGHTS * e)[conv], rtol=1e-12, err_msg=where)
        if smooth.any():
            ok = _close(s, _central_differences(f, xs, i, True))
            ok |= _close(s, _central_differences(f, xs, i, False))
            bad = smooth & ~ok
            assert not bad.any(), f"{where}, differs from finite differences where {bad}"


def _points(row: EdgeRow) -> st.SearchStrategy[list[np.ndarray]]:
    return st.tuples(
        *(st.lists(st.sampled_from(v), min_size=N, max_size=N) for v in row.values)
    ).map(lambda cols: [np.array(c, dtype=row.dtype(i)) for i, c in enumerate(cols)])


@pytest.mark.parametrize("name", [*EDGE_BY_NAME, "where"])
def test_elementwise_gradient_at_edges(name: str) -> None:
    row = EDGE_BY_NAME.get(name, EdgeRow("where", [PAIR, PAIR]))

    @settings(max_examples=30)
    @given(_points(row))
    def check(xs: list[np.ndarray]) -> None:
        check_row(name, xs)

    check()


# -- reductions -----------------------------------------------------------------


@dataclass(frozen=True)
class ReduceEdge:
    """``fn`` reduces ``axis`` of an input of ``shape``; ``rule`` names what its
    gradient must be where it is not smooth (see :func:`_reduction_expectation`)."""

    name: str
    fn: Callable[[Any], Any]
    shape: tuple[int, ...]
    axis: tuple[int, ...]
    rule: str = "smooth"


REDUCE_EDGES = [
    ReduceEdge("max", lambda x: lt.max(x, axis=1), (2, 3), (1,), "extremum"),
    ReduceEdge("max_all", lambda x: lt.max(x), (2, 3), (0, 1), "extremum"),
    ReduceEdge(
        "min_keepdims", lambda x: lt.min(x, axis=0, keepdims=True), (3, 2), (0,), "extremum"
    ),
    ReduceEdge("max_single", lambda x: lt.max(x, axis=0), (1, 3), (0,), "extremum"),
    ReduceEdge("sum", lambda x: lt.sum(x, axis=1), (2, 3), (1,)),
    ReduceEdge("mean", lambda x: lt.mean(x, axis=0), (1, 3), (0,)),
    ReduceEdge("prod", lambda x: lt.prod(x, axis=1), (2, 3), (1,)),
    ReduceEdge("var", lambda x: lt.var(x, axis=1), (2, 3), (1,)),
    ReduceEdge("var_single", lambda x: lt.var(x, axis=0), (1, 3), (0,)),
    ReduceEdge("logsumexp", lambda x: lt.logsumexp(x, axis=1), (2, 3), (1,)),
    ReduceEdge("std", lambda x: lt.std(x, axis=1), (2, 3), (1,), "std"),
    ReduceEdge("std_ddof", lambda x: lt.std(x, axis=0, ddof=1), (3, 2), (0,), "std"),
    ReduceEdge("std_single", lambda x: lt.std(x, axis=0), (1, 3), (0,), "std"),
    ReduceEdge("std_single_ddof", lambda x: lt.std(x, axis=1, ddof=0.5), (2, 1), (1,), "std"),
    # the inf-norm is a max of |x|: x and -x tie too
    ReduceEdge(
        "norm_inf", lambda x: lt.linalg.vector_norm(x, ord=np.inf, axis=1), (2, 3), (1,), "abs_max"
    ),
    ReduceEdge("norm_1", lambda x: lt.linalg.vector_norm(x, ord=1, axis=1), (2, 3), (1,), "abs"),
    ReduceEdge("norm_2", lambda x: lt.linalg.vector_norm(x, axis=1), (2, 3), (1,), "norm"),
]
REDUCE_BY_NAME = {r.name: r for r in REDUCE_EDGES}
REDUCE_VALUES = (0.0, -0.0, 1.0, -1.0, 2.0, 0.5)


@functools.cache
def _compiled_reduction(name: str) -> Any:
    """``(x, w) -> [f(x), d/dx sum(f(x) * w)]``, compiled once."""
    case = REDUCE_BY_NAME[name]
    x = lt.tensor("float64", case.shape, "x")
    out = case.fn(x)
    w = lt.tensor("float64", out.type.shape, "w")
    return lazygraph.function([x, w], [out, grad(lt.sum(out * w), x)], mode=_mode())


def _blocks(case: ReduceEdge, x: np.ndarray) -> tuple[np.ndarray, Callable[..., np.ndarray]]:
    """``x`` with the reduced axes moved last and flattened (one row per output
    element), and the function putting such an array back in ``x``'s layout."""
    kept = [a for a in range(x.ndim) if a not in case.axis]
    order = kept + list(case.axis)
    moved = np.transpose(x, order)
    flat = moved.reshape(*moved.shape[: len(kept)], -1)

    def back(b: np.ndarray) -> np.ndarray:
        full = np.broadcast_to(b, flat.shape).reshape(moved.shape)
        return np.transpose(full, np.argsort(order))

    return flat, back


def _reduction_expectation(case: ReduceEdge, x: np.ndarray) -> np.ndarray:
    """Per element of ``x``, per unit of its output's weight: the documented
    value, FD or POLE (see the module docstring)."""
    if case.rule == "smooth":
        return np.full(x.shape, FD)  # polynomial or smooth everywhere
    flat, back = _blocks(case, x)
    block_all = functools.partial(np.all, axis=-1, keepdims=True)
    if case.rule in ("extremum", "abs_max"):
        a = np.abs(flat) if case.rule == "abs_max" else flat
        ext = a.min(-1, keepdims=True) if case.name.startswith("min") else a.max(-1, keepdims=True)
        hit = a == ext
        count = hit.sum(-1, keepdims=True)
        # tied extrema share equally; in the inf-norm each share has its sign (abs)
        share = hit / count * (np.sign(flat) if case.rule == "abs_max" else 1)
        return back(np.where(count > 1, share, FD))
    if case.rule == "abs":
        return back(np.where(flat == 0, 0.0, FD))  # abs's 0 at 0
    if case.rule == "norm":
        return back(np.where(block_all(flat == 0), POLE, FD))  # the anchors' NaN
    # std: over one element it is the constant 0; zero spread over several is a kink
    zero_spread = block_all(flat == flat[..., :1])
    return back(np.where(zero_spread, 0.0 if flat.shape[-1] == 1 else POLE, FD))


def check_reduction(name: str, x: np.ndarray) -> None:
    case = REDUCE_BY_NAME[name]
    f = _compiled_reduction(name)
    out_shape = _out_shape(name)
    w = np.linspace(0.5, 1.5, int(np.prod(out_shape))).reshape(out_shape)
    _, sym = (np.asarray(v) for v in f(x, w))
    e = _reduction_expectation(case, x)
    flat, back = _blocks(case, x)
    wx = back(np.reshape(w, (*flat.shape[:-1], 1)))
    where = f"{name} at {x.tolist()}: got {sym.tolist()}"
    pole, smooth = np.isposinf(e), np.isnan(e)
    conv = ~pole & ~smooth
    assert not np.isfinite(sym[pole]).any(), f"{where}, want non-finite where {pole}"
    np.testing.assert_allclose(sym[conv], (wx * e)[conv], rtol=1e-12, atol=0, err_msg=where)
    if smooth.any():
        ok = np.zeros(x.shape, bool)
        for relative in (True, False):
            (num,) = numeric_grad(lambda v: f(v, w)[0], [x], EPS, relative, w)
            ok |= _close(sym, num)
        bad = smooth & ~ok
        assert not bad.any(), f"{where}, differs from finite differences where {bad}"


@functools.cache
def _out_shape(name: str) -> tuple[int, ...]:
    case = REDUCE_BY_NAME[name]
    return tuple(case.fn(lt.tensor("float64", case.shape)).type.shape)


@pytest.mark.parametrize("name", list(REDUCE_BY_NAME))
def test_reduction_gradient_at_edges(name: str) -> None:
    case = REDUCE_BY_NAME[name]
    size = int(np.prod(case.shape))
    values = st.lists(st.sampled_from(REDUCE_VALUES), min_size=size, max_size=size)

    @settings(max_examples=30)
    @given(values.map(lambda v: np.array(v, dtype="float64").reshape(case.shape)))
    def check(x: np.ndarray) -> None:
        check_reduction(name, x)

    check()


# -- the issue's examples, through the numpy namespace -----------------------------


def _np_grad(f: Callable[..., Any], x: Any) -> np.ndarray:
    return np.asarray(lazygraph.grad(f)(x))


ISSUE_EXAMPLES = {
    "max-of-a-pair": (lambda x: lnp.max(lnp.stack([x, x])), 1.0, 1.0),
    "min-of-a-pair": (lambda x: lnp.min(lnp.stack([x, x])), 1.0, 1.0),
    "amax-three-way": (lambda x: lnp.amax(lnp.stack([x, x, x])), 1.0, 1.0),
    "amin-three-way": (lambda x: lnp.amin(lnp.stack([x, x, x])), 1.0, 1.0),
    "maximum-x-x": (lambda x: lnp.maximum(x, x), 1.0, 1.0),
    "minimum-three-way": (lambda x: lnp.minimum(lnp.minimum(x, x), x), 1.0, 1.0),
    "fmax-x-x": (lambda x: lnp.fmax(x, x), 1.0, 1.0),
    "clip-x-x-x": (lambda x: lnp.clip(x, x, x), 1.0, 1.0),
    "ptp-ties": (lambda x: lnp.ptp(lnp.stack([x, x, 2 * x])), 1.0, 1.0),
    "power-0": (lambda x: lnp.power(x, 0.0), 0.0, 0.0),
    "power-variable-0": (lambda x: lnp.power(x, lnp.zeros(())), 0.0, 0.0),
    "std-0d": (lnp.std, 3.5, 0.0),
    "var-0d": (lnp.var, 3.5, 0.0),
    "var-one-row": (lambda x: lnp.sum(lnp.var(x, axis=0)), np.ones((1, 3)), np.zeros((1, 3))),
    "std-one-row": (lambda x: lnp.sum(lnp.std(x, axis=0)), np.ones((1, 3)), np.zeros((1, 3))),
    "max-axis-ties": (
        lambda x: lnp.sum(lnp.max(x, axis=0)),
        np.array([[1.0, 3.0], [1.0, 2.0]]),
        np.array([[0.5, 1.0], [0.5, 0.0]]),
    ),
}


@pytest.mark.parametrize(("f", "x", "want"), ISSUE_EXAMPLES.values(), ids=list(ISSUE_EXAMPLES))
def test_issue_examples(f: Callable[..., Any], x: Any, want: Any) -> None:
    np.testing.assert_array_equal(_np_grad(f, x), want)


def test_std_of_one_element_with_unknown_size() -> None:
    # The size is known only when the function runs: the guard is in the graph.
    x = lt.dmatrix("x")
    g = grad(lt.sum(lt.std(x, axis=0)), x)
    f = lazygraph.function([x], g, mode=_mode())
    np.testing.assert_array_equal(f(np.full((1, 3), 2.5)), np.zeros((1, 3)))
    np.testing.assert_allclose(f(np.array([[1.0], [3.0]])), [[-0.5], [0.5]])


def test_max_forward_derivative_at_ties_is_the_mean_direction() -> None:
    # The transpose of the shared L_op: JAX's jvp of max([1, 1, 0]) along
    # (1, 3, 5) is 2.
    x, v = lt.dvector("x"), lt.dvector("v")
    f = lazygraph.function([x, v], Rop(lt.max(x), x, v), mode=_mode())
    np.testing.assert_array_equal(f(np.array([1.0, 1.0, 0.0]), np.array([1.0, 3.0, 5.0])), 2.0)


def test_tie_gradient_graph_is_one_reduction() -> None:
    # The sharing costs elementwise ops and one reduction (the tie count).
    from lazygraph.graph.traversal import io_toposort
    from lazygraph.tensor.reduction import Reduce

    x = lt.dmatrix("x")
    gx = grad(lt.sum(lt.max(x, axis=1)), x)
    reductions = [n.op.kind for n in io_toposort([x], [gx]) if isinstance(n.op, Reduce)]
    assert sorted(reductions) == ["max", "sum"]

"""The full default rewrite pipeline never changes a result: hypothesis builds
random expression graphs (elementwise ops, broadcasting, reductions, indexing,
matmul, powers, broadcasts) and random inputs with NaN/inf/-0.0, and the python
backend must give the same dtype, shape, NaN positions and (allclose) values
with every rewrite as with none."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.mode import NO_REWRITES, Mode

# Inputs: shapes chosen so that many pairs broadcast and a few matmul.
INPUT_SHAPES = [(3, 4), (4,), (1, 4), (3, 1), (), (4, 3)]

UNARY: list[Callable[[Any], Any]] = [
    lt.exp,
    lt.sin,
    lt.negative,
    lt.abs,
    lt.sqrt,
    lt.square,
    lt.tanh,
    lt.log,
    lt.log1p,
    lt.sigmoid,
    lambda x: x**2,
    lambda x: x**3,
    lambda x: x**0.5,
    lambda x: x**-1,
    lambda x: x**10,
    lambda x: lt.exp(x) - 1.0,
    lambda x: lt.log(1.0 + x),
    lambda x: x * 1.0,
    lambda x: x + 0.0,
    lambda x: lt.negative(lt.negative(x)),
    lambda x: lt.log(lt.exp(x)),
    lambda x: 1.0 - lt.sigmoid(x),
]
BINARY: list[Callable[[Any, Any], Any]] = [
    lt.add,
    lt.subtract,
    lt.multiply,
    lt.divide,
    lt.maximum,
    lambda x, y: x * y / y,
    lambda x, y: lt.where(lt.greater(x, y), x, y),
]


def _reduce(kind: str, axis: Any, keepdims: bool) -> Callable[[Any], Any]:
    return lambda x: getattr(lt, kind)(x, axis=axis, keepdims=keepdims)


REDUCTIONS = [
    _reduce(kind, axis, keepdims)
    for kind in ("sum", "max", "min", "prod", "mean", "logsumexp")
    for axis in (None, 0, -1)
    for keepdims in (False, True)
]
INDEXING: list[Callable[[Any], Any]] = [
    lambda x: x[1:],
    lambda x: x[::-1],
    lambda x: x[0],
    lambda x: x[..., :2],
    lambda x: lt.transpose(x),
    lambda x: lt.expand_dims(x, 0),
    lambda x: lt.broadcast_to(x, (2, *x.type.shape)),
    lambda x: lt.sum(lt.broadcast_to(x, (2, *x.type.shape)), axis=0),
    lambda x: lt.log(lt.sum(lt.exp(x))),
    lambda x: lt.exp(x) / lt.sum(lt.exp(x), axis=-1, keepdims=True),
]
PAIRS: list[Callable[[Any, Any], Any]] = [
    lt.matmul,
    lambda x, y: lt.sum(x * y, axis=-1),
    lambda x, y: lt.sum(x * y, axis=0),
    lambda x, y: lt.sum(lt.expand_dims(x, -1) * lt.expand_dims(y, 0), axis=-2),
    lambda x, y: lt.matmul(lt.transpose(x), lt.transpose(y)),
    lambda x, y: lt.set_subtensor(x[0], y[0]) if x.ndim and y.ndim else x + y,
]


TABLES: dict[str, list[Any]] = {
    "unary": UNARY,
    "binary": BINARY,
    "reduce": REDUCTIONS,
    "index": INDEXING,
    "pair": PAIRS,
}
Step = tuple[str, int, int, int]  # (family, row, first operand, second operand)

# Quarter-integers in [-10, 10] and the specials: no overflow, and no tiny values
# where a stabilising rewrite is (rightly) more accurate than the naive graph.
SPECIALS = [np.nan, np.inf, -np.inf, -0.0, 0.0]


def values_of(dtype: str, shape: tuple[int, ...]) -> st.SearchStrategy[np.ndarray]:
    if dtype == "int32":  # small values; x**10 and products still wrap
        return hnp.arrays(np.dtype(dtype), shape, elements=st.integers(-10, 10))
    quarters = st.integers(-40, 40).map(lambda k: k / 4)
    elements = st.one_of(quarters, st.sampled_from(SPECIALS))
    return hnp.arrays(np.dtype(dtype), shape, elements=elements)


@st.composite
def programs(draw: st.DrawFn) -> tuple[list[np.ndarray], list[Step]]:
    dtype = draw(st.sampled_from(["float64", "float32", "int32"]))
    n_inputs = draw(st.integers(1, 3))
    shapes = [draw(st.sampled_from(INPUT_SHAPES)) for _ in range(n_inputs)]
    values = [draw(values_of(dtype, shape)) for shape in shapes]
    steps = []
    for _ in range(draw(st.integers(1, 7))):
        family = draw(st.sampled_from(sorted(TABLES)))
        row = draw(st.integers(0, len(TABLES[family]) - 1))
        steps.append((family, row, draw(st.integers(0, 99)), draw(st.integers(0, 99))))
    return values, steps


def build(values: list[np.ndarray], steps: list[Step]) -> tuple[list[Any], list[Any]]:
    """The graph: each step applies an op to earlier variables (by index); steps
    whose operands do not fit (shapes) are skipped, as numpy would refuse them."""
    inputs = [lt.tensor(v.dtype.name, v.shape, name=f"x{i}") for i, v in enumerate(values)]
    pool: list[Any] = list(inputs)
    for family, which, a, b in steps:
        fn = TABLES[family][which]
        x, y = pool[a % len(pool)], pool[b % len(pool)]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = fn(x, y) if family in ("binary", "pair") else fn(x)
        except (ValueError, TypeError, IndexError, np.exceptions.AxisError):
            continue
        pool.append(out)
    outputs = pool[len(inputs) :][-2:] or [inputs[0] * 2.0]
    return inputs, outputs


def compute(inputs: list[Any], outputs: list[Any], mode: Mode, values: list[np.ndarray]) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        fn = lazygraph.function(inputs, outputs, mode=mode)
        try:
            return fn(*values)
        except (ValueError, IndexError) as exc:  # e.g. max of an empty axis
            return type(exc)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(programs())
@example(  # log(1 - sigmoid(x*x)): the naive graph cancels, the stabilised one does not
    (
        [np.zeros(4, "float32"), np.array([[0], [0], [4.25]], "float32"), np.array(0, "float32")],
        [("binary", 2, 1, 1), ("unary", 21, 3, 0), ("binary", 0, 0, 0), ("unary", 7, 28, 0)],
    )
)
def test_default_pipeline_never_changes_a_result(program: Any) -> None:
    values, steps = program
    inputs, outputs = build(values, steps)
    want = compute(inputs, outputs, Mode(backend="python", query=NO_REWRITES.query), values)
    # Every rewrite but the stabilising ones: the same values, within rounding.
    plain = Mode(backend="python").excluding("stability")
    assert_same_results(compute(inputs, outputs, plain, values), want, stabilised=False)
    # The stabilising ones may (and should) be more accurate than the naive
    # graph: ``log(1 - sigmoid(18.0625))`` is -inf in float32 and off by 4e-10
    # in float64, where the rewritten ``-softplus(18.0625)`` is right.
    got = compute(inputs, outputs, Mode(backend="python"), values)
    assert_same_results(got, want, stabilised=True)


def assert_same_results(got: Any, want: Any, stabilised: bool) -> None:
    if isinstance(want, type):
        assert got is want
        return
    assert not isinstance(got, type), f"rewritten graph raised {got}"
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w)
            continue
        rtol = 1e-4 if w.dtype == np.float32 else 1e-10
        if stabilised:
            # where the naive graph overflowed or cancelled to inf or NaN, a
            # finite result is the better one; elsewhere a looser tolerance
            better = np.isfinite(g) & ~np.isfinite(w)
            g, w, rtol = g[~better], w[~better], rtol * 100
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        finite = np.concatenate([g[np.isfinite(g)], w[np.isfinite(w)], [1.0]])
        # stabilising rewrites are more accurate than the naive graph near 0
        atol = rtol * float(np.max(np.abs(finite)))
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)

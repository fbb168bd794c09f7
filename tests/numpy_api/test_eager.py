"""Small operations on known values run at once (lazygraph.numpy._eager), and
the answers are the graph's: the same dtype, shape, NaN/inf pattern, signed
zeros and values as with every node left to the compiled graph
(``eager_max_elements=0``), stabilising rewrites included. The compiled
backends' sessions turn the eager path off for the rest of the suite; these
tests turn it on themselves, so they compare it with each backend."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.compile.cache import clear_cache, stats
from tests.tensor.harness import BACKEND, flush_subnormals

#: the default of config.eager_max_elements (the numba and jax sessions set 0)
EAGER = 4096
SPECIALS = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-300, 1e300, -40.0, 40.0]

UNARY: list[Callable[[Any], Any]] = [
    lnp.abs,
    lnp.negative,
    lnp.sqrt,
    lnp.log,
    lnp.exp,
    lnp.tanh,
    lnp.floor,
    lambda a: a**2,
    lambda a: a**3,
    lambda a: a * 0.5,
    lambda a: a + 0.0,
    lambda a: 1 + a,
    lambda a: a - 1,
    lambda a: lnp.sum(a),
    # (max/min reductions are left out: which zero a tie of 0.0 and -0.0 gives
    # differs between numba's loop and numpy's, whose own answer depends on
    # its SIMD lanes; a known difference, not the eager path's)
    lambda a: lnp.prod(a, axis=-1, keepdims=True),
    lambda a: a[::-1],
    lambda a: a[..., :1],
    lambda a: lnp.reshape(a, (-1,)),
    lambda a: lnp.concatenate([a, a], axis=-1),
    lambda a: lnp.where(a > 0, a, -a),
]
BINARY: list[Callable[[Any, Any], Any]] = [
    lambda a, b: a + b,
    lambda a, b: a - b,
    lambda a, b: a * b,
    lambda a, b: a / b,
    lambda a, b: a < b,
    lnp.maximum,
    lnp.minimum,
    lnp.arctan2,
]


def _run(values: list[np.ndarray], steps: list[tuple[int, int, int]]) -> list[Any]:
    pool: list[Any] = [lnp.asarray(v) for v in values]
    for kind, i, j in steps:
        a, b = pool[i % len(pool)], pool[j % len(pool)]
        try:
            if kind < len(UNARY):
                pool.append(UNARY[kind](a))
            else:
                pool.append(BINARY[kind % len(BINARY)](a, b))
        except (ValueError, TypeError, IndexError):  # numpy refuses it too
            continue
    return [np.asarray(p) for p in pool[len(values) :]]


@st.composite
def programs(draw: st.DrawFn) -> tuple[list[np.ndarray], list[tuple[int, int, int]]]:
    dtype = draw(st.sampled_from(["float64", "float32"]))
    shape = draw(st.sampled_from([(), (3,), (2, 3)]))
    elements = st.one_of(st.floats(-3, 3, width=32), st.sampled_from(SPECIALS))
    values = [draw(hnp.arrays(dtype, shape, elements=elements)) for _ in range(2)]
    n_ops = len(UNARY) + len(BINARY)
    steps = draw(st.lists(st.tuples(st.integers(0, n_ops - 1), st.integers(0, 9),
                                    st.integers(0, 9)), min_size=1, max_size=6))  # fmt: skip
    return values, steps


def _same(got: list[Any], want: list[Any]) -> None:
    assert len(got) == len(want)
    if BACKEND == "jax":  # XLA on the CPU flushes subnormal results to zero
        got, want = flush_subnormals(got), flush_subnormals(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        nan = np.isnan(w)
        np.testing.assert_array_equal(np.isnan(g), nan)
        # the sign of zeros and infinities (a NaN's sign bit is not numpy's
        # promise: numba's -x of a NaN keeps it, numpy's flips it)
        np.testing.assert_array_equal(np.signbit(g)[~nan], np.signbit(w)[~nan])
        np.testing.assert_allclose(g, w, rtol=1e-6 if g.dtype == np.float32 else 1e-14)


@settings(max_examples=60, deadline=None)
@given(programs())
@example(([np.array(0.0), np.array(np.nan)], [(19, 1, 0)]))  # where(nan > 0, nan, -nan)
def test_running_at_once_gives_the_graphs_answers(program: Any) -> None:
    values, steps = program
    if BACKEND == "jax":  # and reads subnormal inputs as zeros
        values = flush_subnormals(values)
    with np.errstate(all="ignore"):
        with lazygraph.config.change(eager_max_elements=EAGER):
            eager = _run(values, steps)
        with lazygraph.config.change(eager_max_elements=0):
            deferred = _run(values, steps)
    if BACKEND == "jax":
        # XLA on the CPU flushes subnormal values to zero, intermediates too: a
        # program that meets one differs from numpy there by design
        assume(not any(_subnormal(v) for v in [*values, *eager]))
    _same(eager, deferred)


def _subnormal(a: np.ndarray) -> bool:
    if a.dtype.kind != "f":
        return False
    with np.errstate(invalid="ignore"):
        return bool(np.any((a != 0) & (np.abs(a) < np.finfo(a.dtype).tiny)))


STABILISED: list[tuple[str, Callable[[Any], Any]]] = [
    ("log(1 + x)", lambda x: lnp.log(1 + x)),
    ("log(x + 1)", lambda x: lnp.log(x + 1.0)),
    ("exp(x) - 1", lambda x: lnp.exp(x) - 1),
    ("log(sigmoid)", lambda x: lnp.log(1 / (1 + lnp.exp(-x)))),
    ("1 - sigmoid", lambda x: 1 - 1 / (1 + lnp.exp(-x))),
    ("log(1 - exp(x))", lambda x: lnp.log(1 - lnp.exp(-lnp.abs(x) - 1e-20))),
    ("logsumexp", lambda x: lnp.log(lnp.sum(lnp.exp(x)))),
    ("softmax", lambda x: lnp.exp(x) / lnp.sum(lnp.exp(x), axis=-1, keepdims=True)),
    ("log(exp(x))", lambda x: lnp.log(lnp.exp(x))),
]


@pytest.mark.parametrize(("name", "build"), STABILISED, ids=[n for n, _ in STABILISED])
def test_stabilising_rewrites_still_see_their_patterns(name: str, build: Any) -> None:
    # values where the naive form overflows, cancels or rounds to log(0)
    x = np.array([1e-17, -1e-17, 800.0, -800.0, 40.0, -40.0, 0.0])
    with np.errstate(all="ignore"):
        with lazygraph.config.change(eager_max_elements=EAGER):
            eager = np.asarray(build(lnp.asarray(x)))
        with lazygraph.config.change(eager_max_elements=0):
            deferred = np.asarray(build(lnp.asarray(x)))
    _same([eager], [deferred])


@pytest.fixture
def eager() -> Any:
    with lazygraph.config.change(eager_max_elements=EAGER):
        yield


@pytest.mark.usefixtures("eager")
def test_an_element_loop_builds_no_graph_and_compiles_nothing() -> None:
    x = np.linspace(-1.0, 1.0, 50)
    a = lnp.asarray(x)
    clear_cache()
    out = lnp.zeros(len(x))
    crossings = 0
    for i in range(1, len(x)):
        out[i] = out[i - 1] + 0.5 * (a[i] + a[i - 1]) * 0.01
        if a[i - 1] * a[i] < 0:
            crossings += 1
    assert out._var.owner is None  # a known value, not a graph of 49 updates
    assert stats().compiles == 0
    want = np.zeros(len(x))
    for i in range(1, len(x)):
        want[i] = want[i - 1] + 0.5 * (x[i] + x[i - 1]) * 0.01
    np.testing.assert_array_equal(out.compute(), want)
    assert crossings == int(np.sum(x[:-1] * x[1:] < 0))


@pytest.mark.usefixtures("eager")
def test_large_arrays_and_shared_buffers_stay_lazy() -> None:
    big = lnp.asarray(np.ones(lazygraph.config.eager_max_elements + 1))
    assert (big * 2)._var.owner is not None  # fused into a compiled loop later
    data = np.arange(3.0)
    shared = lnp.asarray(data, copy=False)  # read when computed
    y = shared * 2
    data[0] = 10.0
    assert y._var.owner is not None
    np.testing.assert_array_equal(y.compute(), [20.0, 2.0, 4.0])

"""Scan, While and IfElse lowered to lax.scan / lax.while_loop / lax.cond,
compared with the python backend (the reference) and plain numpy loops.
Every case runs with ``on_unsupported="raise"``: the loop must lower, not
fall back to its ``perform``."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.configuration import config
from lazygraph.tensor.control import IfElse, Scan, While

JAX = Mode(backend="jax")
PYTHON = Mode(backend="python")
RNG = np.random.default_rng(3)


@pytest.fixture(autouse=True)
def _must_lower() -> object:
    with config.change(on_unsupported="raise"):
        yield


def _nodes(fn: object, op_class: type) -> int:
    return sum(isinstance(n.op, op_class) for n in fn.__lazygraph_fgraph__().apply_nodes)  # type: ignore[attr-defined]


def _rnn(params: dict, xs: np.ndarray, h0: np.ndarray, reverse: bool = False) -> object:
    def cell(h: object, x: object) -> tuple[object, object]:
        h = lnp.tanh(params["W"] @ h + params["U"] @ x + params["b"])
        return h, {"sum": lnp.sum(h), "h": h}

    h, ys = lazygraph.scan(cell, h0, xs, reverse=reverse)
    return lnp.sum(ys["sum"] * ys["h"][:, 0]) + lnp.sum(h * h)


@pytest.mark.parametrize("reverse", [False, True])
def test_rnn_values_and_gradients_match_python(reverse: bool) -> None:
    params = {
        "W": RNG.standard_normal((4, 4)) * 0.5,
        "U": RNG.standard_normal((4, 3)),
        "b": RNG.standard_normal(4),
    }
    xs, h0 = RNG.standard_normal((7, 3)), RNG.standard_normal(4)

    def loss(params: dict, xs: np.ndarray, h0: np.ndarray) -> object:
        return _rnn(params, xs, h0, reverse)

    value = lazygraph.value_and_grad(loss, argnums=(0, 1, 2), mode=JAX)
    reference = lazygraph.value_and_grad(loss, argnums=(0, 1, 2), mode=PYTHON)
    got, want = value(params, xs, h0), reference(params, xs, h0)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    for k in params:
        np.testing.assert_allclose(got[1][0][k], want[1][0][k], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got[1][1], want[1][1], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got[1][2], want[1][2], rtol=1e-10, atol=1e-12)
    # the forward scan, which also saves the carries (scan_into_longer_twin merged
    # the forward pass into the gradient's copy of it), and the backward scan
    assert _nodes(value, Scan) == 2


def test_a_long_scan_compiles_as_one_loop() -> None:
    @lazygraph.jit(mode=JAX)
    def f(x: np.ndarray) -> object:
        return lazygraph.scan(
            lambda c, _: (lnp.sin(c) * 0.9 + 0.1, lnp.sum(c)), x, None, length=100_000
        )

    x = np.array([0.3, -2.0])
    final, sums = f(x)
    want = x.copy()
    for _ in range(100_000):
        want = np.sin(want) * 0.9 + 0.1
    np.testing.assert_allclose(final, want, rtol=1e-12)
    assert sums.shape == (100_000,)
    assert _nodes(f, Scan) == 1
    assert len(f.__lazygraph_fgraph__().apply_nodes) < 10


def test_zero_steps_and_integer_carries() -> None:
    f = lazygraph.jit(
        lambda xs: lazygraph.scan(lambda c, x: ((c[0] + 1, c[1] + x), c[0]), (0, 0.5), xs),
        mode=JAX,
    )
    for n in (0, 1, 5):
        xs = RNG.standard_normal(n)
        (count, total), ys = f(xs)
        assert int(count) == n and count.dtype == np.int64
        np.testing.assert_allclose(total, 0.5 + xs.sum(), rtol=1e-12)
        np.testing.assert_array_equal(ys, np.arange(n))


def test_while_loop_matches_numpy() -> None:
    def collatz(n: object, max_steps: int | None) -> object:
        def body(v: tuple) -> tuple:
            n, k = v
            return lnp.where(n % 2 == 0, n // 2, 3 * n + 1), k + 1

        return lazygraph.while_loop(lambda v: v[0] != 1, body, (n, 0), max_steps=max_steps)

    f = lazygraph.jit(lambda n: collatz(n, None), mode=JAX)
    g = lazygraph.jit(lambda n: collatz(n, 10), mode=JAX)
    for start in (1, 6, 27):
        n, k = start, 0
        while n != 1:
            n, k = (n // 2 if n % 2 == 0 else 3 * n + 1), k + 1
        assert [int(v) for v in f(np.int64(start))] == [1, k]
        n, k = start, 0
        while n != 1 and k < 10:
            n, k = (n // 2 if n % 2 == 0 else 3 * n + 1), k + 1
        assert [int(v) for v in g(np.int64(start))] == [n, k]
    assert _nodes(f, While) == 1


def test_while_loop_gradient_with_max_steps() -> None:
    def loss(a: object) -> object:
        return lazygraph.while_loop(lambda v: v < 10.0, lambda v: v * a + 0.5, a, max_steps=30)

    for a in (1.3, 2.5):
        got = lazygraph.value_and_grad(loss, mode=JAX)(np.float64(a))
        want = lazygraph.value_and_grad(loss, mode=PYTHON)(np.float64(a))
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_cond_runs_one_branch_and_reports_its_errors() -> None:
    f = lazygraph.jit(
        lambda p, x, i: lazygraph.cond(p > 0, lambda x, i: x[i] * 2, lambda x, i: x[0] - 1, x, i),
        mode=JAX,
    )
    x = np.arange(3.0)
    assert float(f(np.float64(1.0), x, np.int64(2))) == 4.0
    assert float(f(np.float64(-1.0), x, np.int64(7))) == -1.0
    with pytest.raises(IndexError):
        f(np.float64(1.0), x, np.int64(7))
    assert _nodes(f, IfElse) == 1


def test_cond_inside_scan_and_its_gradient() -> None:
    def loss(w: np.ndarray, xs: np.ndarray) -> object:
        def body(c: object, x: object) -> tuple[object, None]:
            c = lazygraph.cond(x > 0, lambda c: c * w + x, lambda c: lnp.sin(c) - x, c)
            return c, None

        return lnp.sum(lazygraph.scan(body, lnp.ones(2), xs)[0])

    w, xs = RNG.standard_normal(2), RNG.standard_normal(6)
    got = lazygraph.value_and_grad(loss, argnums=(0, 1), mode=JAX)(w, xs)
    want = lazygraph.value_and_grad(loss, argnums=(0, 1), mode=PYTHON)(w, xs)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    np.testing.assert_allclose(got[1][0], want[1][0], rtol=1e-10)
    np.testing.assert_allclose(got[1][1], want[1][1], rtol=1e-10)


def test_loops_with_constant_inputs_are_not_run_on_the_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every input concrete and a small output: the linker would fold such a node
    # on the host (its perform, a Python loop); a loop says no (do_constant_folding)
    def python_loop(*_: object) -> None:
        raise AssertionError("the loop ran through its perform")

    monkeypatch.setattr(Scan, "perform", python_loop)
    monkeypatch.setattr(While, "perform", python_loop)
    x = lt.dvector("x")
    carry, _ = lazygraph.scan(lambda c, _: (c * 0.5 + 1.0, None), lt.constant(2.0), None, length=50)
    _, count = lazygraph.while_loop(
        lambda c: c[0] < 40.0, lambda c: (c[0] * 2.0, c[1] + 1), (lt.constant(1.0), lt.constant(0))
    )
    f = lazygraph.function([x], [carry + x, count], mode=JAX)
    want = 2.0
    for _ in range(50):
        want = want * 0.5 + 1.0
    xv = RNG.standard_normal(3)
    got = f(xv)
    np.testing.assert_allclose(got[0], want + xv, rtol=1e-12)
    assert int(got[1]) == 6

"""Scan, While and IfElse compiled by the numba backend (numba/control.py: one
kernel holding the loop), compared with the python backend (the reference)
and plain numpy loops. Every case runs with ``on_unsupported="raise"``: the
loop must compile, not fall back to its ``perform``. Cases are few and
chosen (each new body costs kernel compiles): the broad sweeps run on the
python backend in tests/tensor/test_control_flow.py."""

from __future__ import annotations

import time

import numpy as np
import pytest

pytest.importorskip("numba")

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.backends.numba import cache as disk
from lazygraph.backends.numba.dispatch import kernel_module_source
from lazygraph.backends.numba.linker import NumbaFallbackWarning
from lazygraph.compile.mode import Mode
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.control import IfElse, Scan, While, scan_apply

# At NUMBA_OPT=0 (the CI sessions) Numba keeps a dead constant of each kernel a
# loop calls, which it refuses to cache on disk (a graph function's too)
pytestmark = pytest.mark.filterwarnings(
    "ignore:Cannot cache compiled function:numba.core.errors.NumbaWarning"
)

NUMBA = Mode(backend="numba")
PYTHON = Mode(backend="python")
RNG = np.random.default_rng(11)


@pytest.fixture(autouse=True)
def _must_lower() -> object:
    with config.change(on_unsupported="raise"):
        yield


def _nodes(fn: object, op_class: type) -> int:
    return sum(isinstance(n.op, op_class) for n in fn.__lazygraph_fgraph__().apply_nodes)  # type: ignore[attr-defined]


def _same(got: np.ndarray, want: np.ndarray) -> None:
    """Equal values, dtype, NaN positions and signs of zeros."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    zeros = want == 0
    np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(want[zeros]))


def _products(xs: np.ndarray, reverse: bool) -> object:
    """Running products (the carry entering each step as y), a float32 count
    and an int64 count: -0.0, inf and NaN flow through the carry."""

    def body(c: tuple, x: object) -> tuple:
        p, n, k = c
        return (p * x, n + lnp.float32(0.5), k + 1), {"p": p, "k": k}

    return lazygraph.scan(body, (1.0, np.float32(0.0), 0), xs, reverse=reverse)


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_of_zero_one_and_many_steps(reverse: bool) -> None:
    f = lazygraph.jit(lambda xs: _products(xs, reverse), mode=NUMBA)
    special = np.array([2.0, -0.0, 3.0, np.inf, -1.0, np.nan, 0.5])
    for xs in (np.zeros(0), np.array([-0.0]), RNG.standard_normal(9), special):
        (p, n, k), ys = f(xs)
        (wp, wn, wk), wys = lazygraph.jit(lambda xs: _products(xs, reverse), mode=PYTHON)(xs)
        # the numpy loop, in the scan's order
        order = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
        c, entering = 1.0, np.zeros(len(xs))
        with np.errstate(invalid="ignore"):  # inf * 0
            for t in order:
                entering[t], c = c, c * xs[t]
        _same(p, np.float64(c))
        _same(ys["p"], entering)
        _same(n, np.float32(0.5 * len(xs)))
        _same(k, np.int64(len(xs)))
        for got, want in [(p, wp), (n, wn), (k, wk), (ys["p"], wys["p"]), (ys["k"], wys["k"])]:
            _same(got, want)
        assert ys["k"].dtype == np.int64
        if reverse:
            np.testing.assert_array_equal(ys["k"], np.arange(len(xs))[::-1])
    assert _nodes(f, Scan) == 1


def _rnn_loss(params: dict, xs: np.ndarray, h0: np.ndarray) -> object:
    def cell(h: object, x: object) -> tuple[object, object]:
        h = lnp.tanh(params["W"] @ h + params["U"] @ x + params["b"])
        return h, {"sum": lnp.sum(h), "h": h}

    h, ys = lazygraph.scan(cell, h0, xs)
    return lnp.sum(ys["sum"] * ys["h"][:, 0]) + lnp.sum(h * h)


def test_rnn_gradient_matches_python_and_finite_differences() -> None:
    params = {
        "W": RNG.standard_normal((4, 4)) * 0.5,
        "U": RNG.standard_normal((4, 3)),
        "b": RNG.standard_normal(4),
    }
    xs, h0 = RNG.standard_normal((6, 3)), RNG.standard_normal(4)
    value = lazygraph.jit(lazygraph.value_and_grad(_rnn_loss, argnums=(0, 1, 2)), mode=NUMBA)
    got = value(params, xs, h0)
    want = lazygraph.value_and_grad(_rnn_loss, argnums=(0, 1, 2), mode=PYTHON)(params, xs, h0)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    for k in params:
        np.testing.assert_allclose(got[1][0][k], want[1][0][k], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got[1][1], want[1][1], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got[1][2], want[1][2], rtol=1e-10, atol=1e-12)

    # the oracle: central differences of the numpy loop in b
    def numpy_loss(b: np.ndarray) -> float:
        h, total = h0, 0.0
        hs, sums = [], []
        for x in xs:
            h = np.tanh(params["W"] @ h + params["U"] @ x + b)
            hs.append(h[0])
            sums.append(h.sum())
        total = float(np.dot(sums, hs)) + float(h @ h)
        return total

    eps = 1e-6
    fd = [
        (numpy_loss(params["b"] + eps * e) - numpy_loss(params["b"] - eps * e)) / (2 * eps)
        for e in np.eye(4)
    ]
    np.testing.assert_allclose(got[1][0]["b"], fd, rtol=1e-6, atol=1e-8)
    assert _nodes(value, Scan) == 2  # forward (saving the carries), backward


def test_a_long_scan_compiles_as_one_loop() -> None:
    def run(length: int, scale: float) -> tuple[object, float, float]:
        @lazygraph.jit(mode=NUMBA)
        def f(x: np.ndarray) -> object:
            return lazygraph.scan(
                lambda c, _: (lnp.sin(c) * scale + 0.1, lnp.sum(c)), x, None, length=length
            )

        start = time.perf_counter()
        out = f(np.array([0.3, -2.0]))
        first = time.perf_counter() - start
        start = time.perf_counter()
        f(np.array([0.3, -2.0]))
        return f, out, first, time.perf_counter() - start

    # different scales: two bodies, two loop kernels (neither from this process's memory)
    long, (final, sums), long_first, long_warm = run(100_000, 0.9)
    short, _, short_first, short_warm = run(10, 0.8)
    print(
        f"\nscan of 100,000 steps: first call {long_first:.2f} s, then {long_warm * 1e3:.1f} ms; "
        f"of 10 steps: first call {short_first:.2f} s, then {short_warm * 1e3:.3f} ms"
    )
    want, total = np.array([0.3, -2.0]), np.zeros(100_000)
    for t in range(100_000):
        total[t] = want.sum()
        want = np.sin(want) * 0.9 + 0.1
    np.testing.assert_allclose(final, want, rtol=1e-12)
    np.testing.assert_allclose(sums, total, rtol=1e-12)
    for fn in (long, short):
        assert _nodes(fn, Scan) == 1
        assert len(fn.__lazygraph_fgraph__().apply_nodes) < 10  # type: ignore[attr-defined]
    # the number of steps is the kernel's input, not part of its code
    x = lt.dvector("x")
    sources = {
        kernel_module_source(
            lazygraph.scan(lambda c, _: (lt.sin(c) * 0.9 + 0.1, lt.sum(c)), x, None, length=n)[
                0
            ].owner
        )
        for n in (10, 100_000)
    }
    assert len(sources) == 1


@pytest.mark.parametrize("background", [False, True])
def test_a_loop_of_constants_compiles_and_never_runs_its_perform(
    monkeypatch: pytest.MonkeyPatch, background: bool
) -> None:
    def python_loop(*_: object) -> None:
        raise AssertionError("the loop ran through its perform")

    monkeypatch.setattr(Scan, "perform", python_loop)
    # with background compilation, a loop still compiles at its first call (its
    # perform is far slower), even when its kernel is in no cache: a body of its
    # own, and the disk cache made to look empty
    monkeypatch.setattr(disk, "has_code", lambda key: False)
    scale = 0.25 if background else 0.5
    carry, _ = lazygraph.scan(
        lambda c, _: (c * scale + 1.0, None), lt.constant(2.0), None, length=50
    )
    x = lt.dvector("x")
    want = 2.0
    for _ in range(50):
        want = want * scale + 1.0
    with config.change(numba_background_compile=background):
        got = lazygraph.function([x], carry + x, mode=NUMBA)(np.zeros(2))
    np.testing.assert_allclose(got, [want, want], rtol=1e-15)


def _collatz(n: object, max_steps: int | None) -> object:
    def body(v: tuple) -> tuple:
        n, k = v
        return lnp.where(n % 2 == 0, n // 2, 3 * n + 1), k + 1

    return lazygraph.while_loop(lambda v: v[0] != 1, body, (n, 0), max_steps=max_steps)


def test_while_loop_with_and_without_max_steps() -> None:
    f = lazygraph.jit(lambda n: _collatz(n, None), mode=NUMBA)
    g = lazygraph.jit(lambda n: _collatz(n, 10), mode=NUMBA)
    for start in (1, 6, 27):
        for fn, bound in ((f, None), (g, 10)):
            n, k = start, 0
            while n != 1 and (bound is None or k < bound):
                n, k = (n // 2 if n % 2 == 0 else 3 * n + 1), k + 1
            got = fn(np.int64(start))
            assert [int(v) for v in got] == [n, k]
            assert all(v.dtype == np.int64 for v in got)
    assert _nodes(f, While) == 1 and _nodes(g, While) == 1


def test_while_loop_gradient_with_max_steps() -> None:
    def loss(a: object) -> object:
        return lazygraph.while_loop(lambda v: v < 10.0, lambda v: v * a + 0.5, a, max_steps=30)

    value = lazygraph.jit(lazygraph.value_and_grad(loss), mode=NUMBA)
    for a in (1.3, 2.5):
        got = value(np.float64(a))
        want = lazygraph.value_and_grad(loss, mode=PYTHON)(np.float64(a))
        np.testing.assert_allclose(got, want, rtol=1e-12)
        eps = 1e-6
        fd = (loss(np.float64(a + eps)).compute() - loss(np.float64(a - eps)).compute()) / (2 * eps)
        np.testing.assert_allclose(got[1], fd, rtol=1e-6)


def test_fori_loop_with_static_and_array_bounds() -> None:
    static = lazygraph.jit(
        lambda v: lazygraph.fori_loop(0, 7, lambda i, v: v * 0.5 + i, v), mode=NUMBA
    )
    dynamic = lazygraph.jit(
        lambda lo, hi, v: lazygraph.fori_loop(lo, hi, lambda i, v: v * 0.5 + i, v), mode=NUMBA
    )
    v = RNG.standard_normal(3)
    for lo, hi in ((0, 7), (3, 3), (5, 2)):
        want = v.copy()
        for i in range(lo, hi):
            want = want * 0.5 + i
        np.testing.assert_allclose(dynamic(np.int64(lo), np.int64(hi), v), want, rtol=1e-15)
        if (lo, hi) == (0, 7):
            np.testing.assert_allclose(static(v), want, rtol=1e-15)
    assert _nodes(static, Scan) == 1 and _nodes(dynamic, While) == 1


def test_cond_runs_one_branch_and_raises_the_python_backends_errors() -> None:
    def pick(p: object, x: object, i: object) -> object:
        return lazygraph.cond(p, lambda x, i: x[i] * 2, lambda x, i: x[0] - 1, x, i)

    f = lazygraph.jit(pick, mode=NUMBA)
    x = np.array([-0.0, 1.0, np.inf])
    _same(f(np.float64(1.0), x, np.int64(2)), np.float64(np.inf))
    _same(f(np.float64(3.5), x, np.int64(-3)), np.float64(-0.0))
    for false in (0.0, -0.0):  # the other branch: no error
        _same(f(np.float64(false), x, np.int64(7)), np.float64(-1.0))
    _same(f(np.float64(np.nan), x, np.int64(1)), np.float64(2.0))  # NaN is true, as in Python
    python = lazygraph.jit(pick, mode=PYTHON)
    for fn in (f, python):
        with pytest.raises(IndexError):
            fn(np.float64(1.0), x, np.int64(7))
    assert _nodes(f, IfElse) == 1


def test_cond_inside_scan_and_its_gradient() -> None:
    def loss(w: np.ndarray, xs: np.ndarray) -> object:
        def body(c: object, x: object) -> tuple[object, object]:
            c = lazygraph.cond(x > 0, lambda c: c * w + x, lambda c: lnp.sin(c) - x, c)
            return c, c[0]

        c, firsts = lazygraph.scan(body, lnp.ones(2), xs)
        return lnp.sum(c) + lnp.sum(firsts)

    w, xs = RNG.standard_normal(2), RNG.standard_normal(6)
    got = lazygraph.jit(lazygraph.value_and_grad(loss, argnums=(0, 1)), mode=NUMBA)(w, xs)
    want = lazygraph.value_and_grad(loss, argnums=(0, 1), mode=PYTHON)(w, xs)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    np.testing.assert_allclose(got[1][0], want[1][0], rtol=1e-10)
    np.testing.assert_allclose(got[1][1], want[1][1], rtol=1e-10)


def test_errors_inside_the_loop_match_the_python_backend() -> None:
    # an index out of range in the body
    def gather(xs: object, i: object) -> object:
        return lazygraph.scan(lambda c, x: (c + x[i], c), 0.0, xs)

    xs = RNG.standard_normal((4, 3))
    f = lazygraph.jit(gather, mode=NUMBA)
    np.testing.assert_allclose(f(xs, np.int64(-1))[1], np.cumsum(np.r_[0.0, xs[:-1, -1]]))
    for fn in (f, lazygraph.jit(gather, mode=PYTHON)):
        with pytest.raises(IndexError):
            fn(xs, np.int64(3))

    # rows whose sizes are known only at run time; a carry that changes shape
    seq = lt.tensor("float64", (None, None))
    c, row = lt.tensor("float64", (None,)), lt.tensor("float64", (None,))
    grow = lt.concatenate([c[1:], row[:1], row[:1]])  # one longer each step
    _, ys = scan_apply(seq.shape[0], [lt.zeros(1)], [seq], [c], [row], [c], [row * 2])
    final, _ = scan_apply(seq.shape[0], [lt.zeros(1)], [seq], [c], [row], [grow], [c[0]])
    for mode in (NUMBA, PYTHON):
        stacked = lazygraph.function([seq], ys, mode=mode)
        np.testing.assert_array_equal(stacked(xs), xs * 2)
        with pytest.raises(ValueError, match="0 steps"):
            stacked(np.zeros((0, 3)))
        with pytest.raises(ValueError, match="changed the shape of carry 0"):
            lazygraph.function([seq], final, mode=mode)(xs)


def _shared_buffers(w: object, v: object, xs: object) -> object:
    """Carries that share memory in every way the loop kernel tells apart: one
    is the other's previous value (a carry kept in a buffer, read by the next
    carry), two are the same product, one is a matrix grown in place by an
    outer product, one a view (``[:, 0]``) of a matrix product; ``W @ v``
    reads only non-sequences (computed once) and an in-place add overwrites it."""

    def body(c: tuple, x: object) -> tuple:
        a, b, m, _, _ = c
        new_b = lnp.tanh(w @ b + a * x)
        outer = b[:, None] @ a[None, :]
        column = (w @ b[:, None])[:, 0]
        return (b, new_b, m + outer, new_b, column + w @ v), {"b": new_b, "t": w.T @ b, "m": m}

    n = v.shape[0]  # type: ignore[attr-defined]
    init = (lnp.ones(n), lnp.zeros(n) + 0.5, lnp.zeros((n, n)), lnp.zeros(n), lnp.zeros(n))
    return lazygraph.scan(body, init, xs)


def test_carries_sharing_buffers_match_the_python_backend() -> None:
    w, v = RNG.standard_normal((3, 3)) * 0.6, RNG.standard_normal(3)
    f = lazygraph.jit(_shared_buffers, mode=NUMBA)
    ref = lazygraph.jit(_shared_buffers, mode=PYTHON)
    for xs in (RNG.standard_normal(7), np.zeros(0), np.array([0.3])):
        got, want = f(w, v, xs), ref(w, v, xs)
        for g, x in zip(got[0], want[0], strict=True):
            np.testing.assert_allclose(g, x, rtol=1e-13, atol=1e-15)
        for k in want[1]:
            np.testing.assert_allclose(got[1][k], want[1][k], rtol=1e-13, atol=1e-15)
    # the numpy loop
    xs = RNG.standard_normal(5)
    a, b, m, d, e = np.ones(3), np.full(3, 0.5), np.zeros((3, 3)), np.zeros(3), np.zeros(3)
    for x in xs:
        a, b, m, d, e = b, np.tanh(w @ b + a * x), m + np.outer(b, a), b, w @ b + w @ v
        d = b
    for g, x in zip(f(w, v, xs)[0], (a, b, m, d, e), strict=True):
        np.testing.assert_allclose(g, x, rtol=1e-13)


def test_products_in_a_loop_body() -> None:
    # matrix @ matrix, vector @ matrix, matrix @ vector, real and complex, and
    # sums over zero terms (k = 0: zeros)
    def body(c: object, x: object, p: object) -> tuple:
        new = (c @ c) * 0.3 + (x @ c)[None, :] * (c @ x)[:, None]
        return new, {"pp": p @ p.T, "px": p @ x}

    f = lazygraph.jit(
        lambda c, xs, p: lazygraph.scan(lambda c, x: body(c, x, p), c, xs), mode=NUMBA
    )
    for k, dtype in ((3, np.float64), (3, np.complex128), (0, np.float64)):
        part = 1j if dtype == np.complex128 else 0
        c = ((RNG.standard_normal((k, k)) + part) * 0.5).astype(dtype)
        xs = RNG.standard_normal((4, k)).astype(dtype)
        p = RNG.standard_normal((2, k)).astype(dtype)
        final, ys = f(c, xs, p)
        want = c.copy()
        for t, x in enumerate(xs):
            np.testing.assert_allclose(ys["pp"][t], p @ p.T, rtol=1e-13)
            np.testing.assert_allclose(ys["px"][t], p @ x, rtol=1e-13)
            want = (want @ want) * 0.3 + np.outer(want @ x, x @ want)
        assert final.dtype == dtype and ys["pp"].shape == (4, 2, 2)
        np.testing.assert_allclose(final, want, rtol=1e-13)


def test_body_nodes_reading_only_non_sequences_run_once() -> None:
    # W.T (a view) runs before the loop; W @ v, which an in-place add then
    # overwrites, runs at every step
    w, wi = (lt.tensor("float64", (3, 3)) for _ in range(2))
    v, c, vi = (lt.tensor("float64", (3,)) for _ in range(3))
    n = lt.lscalar("n")
    final, ys = scan_apply(
        n, [v], [], [c], [], [c + wi @ vi], [wi.T @ c], params=[(wi, w), (vi, v)]
    )
    f = lazygraph.function([n, w, v], [final, ys], mode=NUMBA)
    source = kernel_module_source(final.owner)  # type: ignore[arg-type]
    assert source.index("if n > 0:") < source.index("for s in range(n):")
    wv, vv = RNG.standard_normal((3, 3)), RNG.standard_normal(3)
    for steps in (0, 1, 4):
        got = f(np.int64(steps), wv, vv)
        want, rows = vv.copy(), []
        for _ in range(steps):
            rows.append(wv.T @ want)
            want = want + wv @ vv
        np.testing.assert_allclose(got[0], want, rtol=1e-13)
        np.testing.assert_allclose(got[1], np.reshape(rows, (steps, 3)), rtol=1e-13)


def test_sequence_and_length_errors_name_their_numbers() -> None:
    n = lt.lscalar("n")
    seq = lt.dvector("seq")
    c, x = lt.dscalar("c"), lt.dscalar("x")
    final, _ = scan_apply(n, [lt.constant(0.0)], [seq], [c], [x], [c + x], [c])
    f = lazygraph.function([n, seq], final, mode=NUMBA)
    assert f(np.int64(3), np.ones(3)) == 3.0
    with pytest.raises(ValueError, match="scan: sequence 0 has 2 rows for 3 steps"):
        f(np.int64(3), np.ones(2))
    with pytest.raises(ValueError, match="scan: length must be non-negative, got -1"):
        f(np.int64(-1), np.ones(2))


class _Halve(Op):
    """An Op with a python ``perform`` and no numba lowering."""

    __props__ = ()

    def make_node(self, x: object) -> Apply:
        x = lt.as_tensor_variable(x)
        return Apply(self, [x], [x.type()])

    def perform(self, node: Apply, inputs: list, output_storage: list) -> None:
        output_storage[0][0] = inputs[0] / 2


def test_a_body_node_without_a_kernel_makes_the_loop_run_its_perform() -> None:
    xs = lt.dvector("xs")
    final, ys = lazygraph.scan(lambda c, x: (_Halve()(c) + x, c), lt.constant(1.0), xs)
    with pytest.raises(NotImplementedError, match=r"Scan.*_Halve"):
        lazygraph.function([xs], [final, ys], mode=NUMBA)
    values = np.array([1.0, -0.5, 2.0])
    want = lazygraph.function([xs], [final, ys], mode=PYTHON)(values)
    with (
        config.change(on_unsupported="fallback"),
        pytest.warns(NumbaFallbackWarning, match=r"Scan.*_Halve"),
    ):
        got = lazygraph.function([xs], [final, ys], mode=NUMBA)(values)
    for g, w in zip(got, want, strict=True):
        _same(g, w)

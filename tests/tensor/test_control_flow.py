"""Control flow in the graph (lazygraph.tensor.control and lazygraph.scan /
while_loop / fori_loop / cond) on the python backend: values against plain
Python loops over numpy, gradients against finite differences, structure
(one node per loop, merged loops, closures as inputs).

The compiled backends' lowerings are compared with these in
tests/backends/{jax,numba}/test_control_flow_lowering.py.
"""

from __future__ import annotations

import functools

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.gradient import grad, hessian, verify_grad, verify_rop
from lazygraph.graph.basic import Apply
from lazygraph.tensor.control import IfElse, Scan, While, cond_apply, scan_apply
from lazygraph.tensor.type import TensorType
from tests.tensor.harness import CountedAddOne

pytestmark = pytest.mark.backend("python")

PY = Mode(backend="python")
RNG = np.random.default_rng(21)


def nodes_of(fn: object, op_class: type) -> list[Apply]:
    fgraph = fn.fgraph if hasattr(fn, "fgraph") else fn.__lazygraph_fgraph__()  # type: ignore[attr-defined]
    return [n for n in fgraph.apply_nodes if isinstance(n.op, op_class)]


# -- scan: values against a Python loop --------------------------------------------


def _step(c: object, x: object) -> tuple[object, object]:
    return c * 0.5 + x, c - x


def _reference_scan(init: float, xs: np.ndarray, reverse: bool) -> tuple[np.ndarray, np.ndarray]:
    c = np.float64(init)
    ys = np.empty(len(xs))
    order = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
    for t in order:
        c, ys[t] = _step(c, xs[t])
    return np.asarray(c), ys


@functools.cache
def _compiled_scan(reverse: bool) -> lazygraph.compile.function.Function:
    init, xs = lt.dscalar("init"), lt.dvector("xs")
    c, x = lt.dscalar("c"), lt.dscalar("x")
    new_c, y = _step(c, x)
    final, ys = scan_apply(xs.shape[0], [init], [xs], [c], [x], [new_c], [y], reverse=reverse)
    return lazygraph.function([init, xs], [final, ys], mode=PY)


floats = st.floats(allow_nan=True, allow_infinity=True, width=64)


@settings(max_examples=40)
@given(
    init=floats,
    xs=hnp.arrays("float64", st.integers(0, 7), elements=floats),
    reverse=st.booleans(),
)
def test_scan_matches_a_python_loop(init: float, xs: np.ndarray, reverse: bool) -> None:
    final, ys = _compiled_scan(reverse)(init, xs)
    want_final, want_ys = _reference_scan(init, xs, reverse)
    np.testing.assert_array_equal(final, want_final)
    np.testing.assert_array_equal(ys, want_ys)
    assert ys.shape == (len(xs),) and ys.dtype == np.float64


def test_scan_keeps_signed_zero_and_one_step() -> None:
    final, ys = _compiled_scan(False)(-0.0, np.array([-0.0]))
    assert np.signbit(final) and np.signbit(ys[0]) is np.False_  # -0*0.5 + -0 = -0; -0 - -0 = 0
    final, ys = _compiled_scan(False)(1.0, np.zeros(0))
    assert float(final) == 1.0 and ys.shape == (0,)


def test_scan_of_zero_steps_returns_init_and_empty_rows() -> None:
    total, ys = lazygraph.scan(lambda c, x: (c + x, c * x), np.ones(2), np.zeros((0, 2)))
    np.testing.assert_array_equal(total.compute(), np.ones(2))
    assert ys.compute().shape == (0, 2)
    # the result is a fresh array: writing to it leaves the input alone
    init = np.ones(3)
    out, _ = lazygraph.scan(lambda c, x: (c, None), init, None, length=0)
    value = np.array(out.compute())
    value[0] = 5
    assert init[0] == 1


def test_scan_pytrees_reverse_and_many_steps() -> None:
    xs = {"a": RNG.standard_normal((50, 2)), "b": (np.arange(50), RNG.standard_normal(50))}
    init = {"s": np.zeros(2), "n": (np.int64(0), 1.0)}

    def f(carry: dict, x: dict) -> tuple[dict, dict]:
        s = carry["s"] + x["a"] * x["b"][1]
        n, p = carry["n"]
        return {"s": s, "n": (n + x["b"][0], p * 0.9)}, {"row": s, "n": n}

    def reference(reverse: bool) -> tuple[dict, dict]:
        s, n, p = np.zeros(2), 0, 1.0
        rows, ns = np.zeros((50, 2)), np.zeros(50, dtype=np.int64)
        for t in range(49, -1, -1) if reverse else range(50):
            s = s + xs["a"][t] * xs["b"][1][t]
            rows[t], ns[t] = s, n
            n, p = n + xs["b"][0][t], p * 0.9
        return {"s": s, "n": (n, p)}, {"row": rows, "n": ns}

    for reverse in (False, True):
        carry, ys = lazygraph.scan(f, init, xs, reverse=reverse)
        want_carry, want_ys = reference(reverse)
        np.testing.assert_allclose(carry["s"].compute(), want_carry["s"], rtol=1e-12)
        assert int(carry["n"][0]) == want_carry["n"][0]
        assert carry["n"][0].dtype == np.int64
        np.testing.assert_allclose(float(carry["n"][1]), want_carry["n"][1], rtol=1e-12)
        np.testing.assert_allclose(ys["row"].compute(), want_ys["row"], rtol=1e-12)
        np.testing.assert_array_equal(ys["n"].compute(), want_ys["n"])


def test_scan_without_xs_takes_length() -> None:
    carry, ys = lazygraph.scan(lambda c, x: (c * 2, x is None), 1, None, length=4)
    assert int(carry) == 16
    assert ys is True or bool(np.all(np.asarray(ys)))


def test_scan_errors_name_the_problem() -> None:
    with pytest.raises(TypeError, match=r"carry\[1\] has type int64\[\] .* float64\[\]"):
        lazygraph.scan(lambda c, x: ((c[0], c[1] * 2.5), None), (1.0, 2), np.arange(3))
    with pytest.raises(TypeError, match=r"float64\[2\] .* float64\[3\]"):
        lazygraph.scan(lambda c, x: (lnp.zeros(3), None), np.zeros(2), np.arange(3.0))
    with pytest.raises(TypeError, match="pytree structure"):
        lazygraph.scan(lambda c, x: ((c, c), None), 0.0, np.arange(3.0))
    with pytest.raises(TypeError, match="pair"):
        lazygraph.scan(lambda c, x: c, 0.0, np.arange(3.0))
    with pytest.raises(ValueError, match="same number of rows"):
        lazygraph.scan(lambda c, x: (c, None), 0.0, (np.zeros(3), np.zeros(4)))
    with pytest.raises(ValueError, match="same number of rows"):
        lazygraph.scan(lambda c, x: (c, None), 0.0, np.zeros(3), length=2)
    with pytest.raises(ValueError, match="length="):
        lazygraph.scan(lambda c, x: (c, None), 0.0, None)
    with pytest.raises(ValueError, match="0-d"):
        lazygraph.scan(lambda c, x: (c, None), 0.0, np.float64(1.0))
    with pytest.raises(ValueError, match="non-negative"):
        lazygraph.scan(lambda c, x: (c, None), 0.0, None, length=-1)
    with pytest.raises(ValueError, match="unroll"):
        lazygraph.scan(lambda c, x: (c, None), 0.0, None, length=1, unroll=0)


def test_scan_checks_run_time_rows() -> None:
    c, x, xs = lt.dscalar(), lt.dscalar(), lt.dvector("xs")
    n = lt.lscalar("n")
    (final,) = scan_apply(n, [lt.constant(0.0)], [xs], [c], [x], [c + x], [])
    fn = lazygraph.function([n, xs], final, mode=PY)
    assert float(fn(3, np.ones(3))) == 3.0
    with pytest.raises(ValueError, match="2 rows for 3 steps"):
        fn(3, np.ones(2))
    with pytest.raises(ValueError, match="non-negative"):
        fn(-1, np.ones(0))


def test_scan_on_tensor_variables_stays_symbolic() -> None:
    xs = lt.dmatrix("xs")
    final, ys = lazygraph.scan(lambda c, r: (c + lt.sum(r), c), lt.constant(0.0), xs)
    assert isinstance(final, lt.TensorVariable) and isinstance(ys, lt.TensorVariable)
    value = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(ys.eval({xs: value}), [0.0, 1.0, 6.0])


def test_a_python_loop_unrolls_but_scan_is_one_node() -> None:
    @lazygraph.jit
    def f(x: np.ndarray) -> object:
        return lazygraph.scan(lambda c, _: (lnp.sin(c) + c, None), x, None, length=1000)[0]

    x = np.linspace(0, 1, 4)
    want = x.copy()
    for _ in range(1000):
        want = np.sin(want) + want
    np.testing.assert_allclose(f(x), want, rtol=1e-12)
    assert len(nodes_of(f, Scan)) == 1
    assert len(f.__lazygraph_fgraph__().apply_nodes) < 10


def test_closures_become_inputs_computed_once() -> None:
    w = lnp.asarray(RNG.standard_normal(3))
    scale = lnp.exp(w)  # computed outside the loop

    def f(c: object, x: object) -> tuple[object, object]:
        return c + scale * x, None

    total, _ = lazygraph.scan(f, np.zeros(3), np.ones((4, 3)))
    node = total._var.owner
    assert isinstance(node.op, Scan) and node.op.n_params == 1
    np.testing.assert_allclose(total.compute(), 4 * np.exp(w.compute()))
    # the inner graph reads its own inputs only (no exp of w inside)
    assert all(
        type(n.op).__name__ != "Elemwise" or n.op.scalar_op.name != "exp"
        for n in node.op.inner.nodes
    )


def test_equal_loops_are_equal_ops_and_merge() -> None:
    xs = lt.dvector("xs")

    def loop() -> lt.TensorVariable:
        return lazygraph.scan(lambda c, x: (c * x + 1.0, None), lt.constant(1.0), xs)[0]

    a, b = loop(), loop()
    assert a.owner.op == b.owner.op and hash(a.owner.op) == hash(b.owner.op)
    other = lazygraph.scan(lambda c, x: (c * x + 2.0, None), lt.constant(1.0), xs)[0]
    assert other.owner.op != a.owner.op
    fn = lazygraph.function([xs], a + b, mode=PY)
    assert len(nodes_of(fn, Scan)) == 1
    np.testing.assert_allclose(fn(np.array([2.0, 3.0])), 2 * ((1.0 * 2 + 1) * 3 + 1))


def test_a_gradient_holds_two_scans_after_merging_the_saving_twin() -> None:
    # reverse mode runs the forward loop again saving its carries; the rewrite
    # scan_into_longer_twin makes the forward outputs read that loop's
    def loss(w: np.ndarray, xs: np.ndarray) -> object:
        c, ys = lazygraph.scan(lambda c, x: (lnp.sin(c * w) + x, c * c), lnp.ones(2), xs)
        return lnp.sum(ys) + lnp.sum(c)

    w, xs = RNG.standard_normal(2), RNG.standard_normal((5, 2))
    merged = lazygraph.jit(lazygraph.value_and_grad(loss, argnums=(0, 1)), mode=PY)
    unmerged = lazygraph.jit(
        lazygraph.value_and_grad(loss, argnums=(0, 1)),
        mode=PY.excluding("scan_into_longer_twin"),
    )
    got, want = merged(w, xs), unmerged(w, xs)
    assert len(nodes_of(merged, Scan)) == 2 and len(nodes_of(unmerged, Scan)) == 3
    np.testing.assert_array_equal(got[0], want[0])
    for a, b in zip(got[1], want[1], strict=True):
        np.testing.assert_array_equal(a, b)
    # the merged graph: one forward scan (with the saved carries) and one backward
    forward = [n for n in nodes_of(merged, Scan) if not n.op.reverse]
    assert len(forward) == 1 and forward[0].op.n_ys == 2


def test_per_step_outputs_nothing_reads_are_not_computed() -> None:
    # reverse mode stacks each sequence's gradient; with respect to w only,
    # scan_drop_unused_ys removes it from the backward loop
    def loss(w: np.ndarray, xs: np.ndarray) -> object:
        c, ys = lazygraph.scan(lambda c, x: (lnp.sin(c * w) + x, {"a": c * c, "b": c + x}), 1.0, xs)
        return lnp.sum(ys["a"]) + c

    w, xs = 0.7, RNG.standard_normal(5)
    dropped = lazygraph.jit(lazygraph.value_and_grad(loss), mode=PY)
    kept = lazygraph.jit(lazygraph.value_and_grad(loss), mode=PY.excluding("scan_drop_unused_ys"))
    got, want = dropped(w, xs), kept(w, xs)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    assert sorted(n.op.n_ys for n in nodes_of(dropped, Scan)) == [0, 2]
    assert sorted(n.op.n_ys for n in nodes_of(kept, Scan)) == [1, 3]

    # the oracle: central differences of the python loop
    def numpy_loss(w: float) -> float:
        c, total = 1.0, 0.0
        for x in xs:
            total += c * c
            c = np.sin(c * w) + x
        return total + c

    fd = (numpy_loss(w + 1e-6) - numpy_loss(w - 1e-6)) / 2e-6
    np.testing.assert_allclose(got[0], numpy_loss(w), rtol=1e-13)
    np.testing.assert_allclose(got[1], fd, rtol=1e-7)


def test_scans_that_are_not_twins_stay_apart() -> None:
    xs, c, x = lt.dvector("xs"), lt.dscalar("c"), lt.dscalar("x")
    ys_other = lt.dvector("ys")
    base = scan_apply(xs.shape[0], [lt.constant(1.0)], [xs], [c], [x], [c * x], [])
    longer = scan_apply(xs.shape[0], [lt.constant(1.0)], [xs], [c], [x], [c * x], [c + 1.0])
    # the same body with more outputs but run backwards, or over other rows
    backwards = scan_apply(
        xs.shape[0], [lt.constant(1.0)], [xs], [c], [x], [c * x], [c], reverse=True
    )
    elsewhere = scan_apply(xs.shape[0], [lt.constant(1.0)], [ys_other], [c], [x], [c * x], [c])
    # a different body with as many outputs
    different = scan_apply(xs.shape[0], [lt.constant(1.0)], [xs], [c], [x], [c * x + 1.0], [c])
    fn = lazygraph.function(
        [xs, ys_other], [base[0], longer[1], backwards[1], elsewhere[1], different[0]], mode=PY
    )
    # base merges into longer; the three others stay
    assert len(nodes_of(fn, Scan)) == 4
    values, others = np.array([2.0, -0.5, 3.0]), np.array([1.0, 2.0, 4.0])
    out = fn(values, others)
    np.testing.assert_allclose(out[0], np.prod(values))
    np.testing.assert_allclose(out[1], np.cumprod(np.r_[1.0, values[:-1]]) + 1.0)
    np.testing.assert_allclose(out[2], np.cumprod(np.r_[values[1:], 1.0][::-1])[::-1])
    np.testing.assert_allclose(out[3], np.cumprod(np.r_[1.0, others[:-1]]))
    expected = 1.0
    for v in values:
        expected = expected * v + 1.0
    np.testing.assert_allclose(out[4], expected)


def test_scan_infer_shape() -> None:
    xs = lt.tensor("float64", (None, 3), "xs")
    final, ys = lazygraph.scan(lambda c, x: (c + x, x * 2), lt.zeros(3), xs)
    node = final.owner
    shapes = node.op.infer_shape(None, node, [(), (3,), (xs.shape[0], 3)])
    assert shapes[0] == (3,) and shapes[1][1] == 3 and shapes[1][0] is node.inputs[0]
    assert ys.type == TensorType("float64", (None, 3))


# -- scan: gradients ----------------------------------------------------------------


def test_scan_gradient_of_an_rnn_matches_finite_differences() -> None:
    h, x = lt.dvector("h"), lt.dvector("x")

    def rnn(
        w: lt.TensorVariable, u: lt.TensorVariable, xs: lt.TensorVariable, h0: lt.TensorVariable
    ) -> object:
        new_h = lt.tanh(lt.dot(w, h) + lt.dot(u, x))
        final, ys = scan_apply(xs.shape[0], [h0], [xs], [h], [x], [new_h], [lt.sum(new_h * new_h)])
        return lt.sum(ys) + lt.sum(final)

    point = [
        RNG.standard_normal((3, 3)) * 0.5,
        RNG.standard_normal((3, 2)),
        RNG.standard_normal((5, 2)),
        RNG.standard_normal(3),
    ]
    verify_grad(rnn, point, rng=RNG, mode=PY)


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_gradients_through_the_api(reverse: bool) -> None:
    def loss(params: dict, xs: np.ndarray) -> object:
        def cell(c: object, x: object) -> tuple[object, object]:
            c = lnp.sin(c * params["a"]) + x * params["b"]
            return c, c * c

        c, ys = lazygraph.scan(cell, params["c0"], xs, reverse=reverse)
        return lnp.sum(ys) + lnp.sum(c) * 3.0

    params = {"a": np.array(0.7), "b": RNG.standard_normal(2), "c0": RNG.standard_normal(2)}
    xs = RNG.standard_normal((6, 2))
    g = lazygraph.grad(loss, argnums=(0, 1))(params, xs)

    def numeric(key: str | None) -> np.ndarray:
        base = xs if key is None else params[key]
        out = np.zeros(np.shape(base))
        for idx in np.ndindex(np.shape(base)):
            step = np.zeros(np.shape(base))
            step[idx] = 1e-6
            if key is None:
                hi, lo = loss(params, xs + step), loss(params, xs - step)
            else:
                hi = loss({**params, key: base + step}, xs)
                lo = loss({**params, key: base - step}, xs)
            out[idx] = (float(hi) - float(lo)) / 2e-6
        return out

    for key in ("a", "b", "c0"):
        np.testing.assert_allclose(g[0][key], numeric(key), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(g[1], numeric(None), rtol=1e-5, atol=1e-7)


def test_scan_gradient_of_zero_steps_and_integer_carries() -> None:
    xs = lt.tensor("float64", (0,), "xs")
    c, x, k = lt.dscalar(), lt.dscalar(), lt.lscalar()
    init = lt.dscalar("init")
    final, _ = scan_apply(0, [init, lt.constant(0)], [xs], [c, k], [x], [c * x, k + 1], [])
    g = grad(final, init)
    assert float(g.eval({init: 2.0, xs: np.zeros(0)})) == 1.0
    xs3 = lt.tensor("float64", (3,), "xs3")
    final, _ = scan_apply(
        3, [init, lt.constant(0)], [xs3], [c, k], [x], [c * x + lt.cast(k, "float64"), k + 1], []
    )
    gi, gx = grad(final, [init, xs3])
    xv = np.array([2.0, 3.0, 5.0])
    assert float(gi.eval({init: 1.0, xs3: xv})) == 30.0
    # final = ((init*x0 + 0)*x1 + 1)*x2 + 2
    np.testing.assert_allclose(gx.eval({init: 1.0, xs3: xv}), [15.0, 10.0, 7.0])


def test_scan_second_order_and_forward_mode() -> None:
    xs = lt.tensor("float64", (3,), "xs")
    c, x = lt.dscalar(), lt.dscalar()
    (final,) = scan_apply(3, [lt.constant(0.0)], [xs], [c], [x], [c + lt.sin(x) * x], [])
    xv = np.array([0.5, 1.0, 2.0])
    np.testing.assert_allclose(
        hessian(final, xs).eval({xs: xv}), np.diag(2 * np.cos(xv) - xv * np.sin(xv)), rtol=1e-12
    )

    def fn(xs: lt.TensorVariable, h0: lt.TensorVariable) -> object:
        h, x = lt.dvector(), lt.dscalar()
        final, ys = scan_apply(xs.shape[0], [h0], [xs], [h], [x], [lt.tanh(h * x + 0.3)], [h * x])
        return lt.sum(ys) + lt.sum(final)

    point = [RNG.standard_normal(4), RNG.standard_normal(2)]
    verify_rop(fn, point, rng=RNG, mode=PY, method="lop")
    verify_grad(lambda xs, h0: lt.sum(grad(fn(xs, h0), h0) ** 2), point, rng=RNG, mode=PY)


# -- while_loop and fori_loop ---------------------------------------------------------


@settings(max_examples=25)
@given(start=st.integers(0, 300), factor=st.integers(2, 4), bound=st.integers(0, 6))
def test_while_loop_matches_a_python_loop(start: int, factor: int, bound: int) -> None:
    def run(max_steps: int | None) -> tuple[int, int]:
        return lazygraph.while_loop(
            lambda v: v[0] < 100,
            lambda v: (v[0] * factor + 1, v[1] + 1),
            (np.int64(start), np.int64(0)),
            max_steps=max_steps,
        )

    value, steps = start, 0
    while value < 100:
        value, steps = value * factor + 1, steps + 1
    got = run(None)
    assert (int(got[0]), int(got[1])) == (value, steps)
    value, steps = start, 0
    while value < 100 and steps < bound:
        value, steps = value * factor + 1, steps + 1
    got = run(bound)
    assert (int(got[0]), int(got[1])) == (value, steps)


def test_while_loop_gradient_needs_max_steps() -> None:
    def newton_sqrt(a: object, max_steps: int | None) -> object:
        def body(v: tuple) -> tuple:
            x, k = v
            return 0.5 * (x + a / x), k + 1

        return lazygraph.while_loop(lambda v: v[1] < 6, body, (a, 0), max_steps=max_steps)[0]

    g = lazygraph.grad(lambda a: newton_sqrt(a, 10))(np.float64(2.0))
    np.testing.assert_allclose(g, 0.5 / np.sqrt(2.0), rtol=1e-9)
    with pytest.raises(ValueError, match="max_steps"):
        lazygraph.grad(lambda a: newton_sqrt(a, None))(np.float64(2.0))

    a = lt.dscalar("a")
    final = lazygraph.while_loop(
        lambda v: v < 10.0, lambda v: v * a, lt.constant(1.0), max_steps=50
    )
    verify_grad(
        lambda a: lazygraph.while_loop(lambda v: v < 10.0, lambda v: v * a + 0.5, a, max_steps=50),
        [np.array(1.7)],
        rng=RNG,
        mode=PY,
    )
    assert (
        isinstance(final.owner.op, While)
        and str(final.owner.op) == "While{carries=1, max_steps=50}"
    )


def test_while_loop_errors() -> None:
    with pytest.raises(TypeError, match="boolean scalar"):
        lazygraph.while_loop(lambda v: v, lambda v: v + 1, 1.0)
    with pytest.raises(TypeError, match=r"float64\[\] .* int64\[\]"):
        lazygraph.while_loop(
            lambda v: v < 3, lambda v: lnp.int64(1) + lnp.floor(v).astype("int64"), 1.0
        )


def test_fori_loop_static_bounds_is_a_differentiable_scan() -> None:
    def poly(x: object) -> object:
        return lazygraph.fori_loop(1, 4, lambda i, acc: acc * x + i, x)

    x = np.float64(1.5)
    want = x
    for i in range(1, 4):
        want = want * x + i
    assert float(poly(x)) == want
    # d/dx of ((x*x+1)*x+2)*x+3 = 4x^3 + 3x^2*0 ... computed by hand: 4x^3 + 2x + 2
    np.testing.assert_allclose(lazygraph.grad(poly)(x), 4 * x**3 + 2 * x + 2, rtol=1e-12)
    assert int(lazygraph.fori_loop(5, 2, lambda i, acc: acc + i, 7)) == 7


def test_fori_loop_array_bounds_is_a_while_loop() -> None:
    upper = lnp.asarray(np.int64(6))
    total = lazygraph.fori_loop(lnp.asarray(np.int64(2)), upper, lambda i, t: t + i, 0)
    assert isinstance(total._var.owner.op, While)
    assert int(total) == 2 + 3 + 4 + 5


# -- cond ----------------------------------------------------------------------------


def test_cond_runs_only_the_chosen_branch() -> None:
    p, x = lt.bscalar("p"), lt.dvector("x")
    (y,) = cond_apply(p, [h := lt.dvector()], [x], [CountedAddOne()(h)], [h * 2])
    fn = lazygraph.function([p, x], y, mode=PY)
    CountedAddOne.calls = 0
    np.testing.assert_array_equal(fn(0, np.array([1.0, 2.0])), [2.0, 4.0])
    assert CountedAddOne.calls == 0
    np.testing.assert_array_equal(fn(1, np.array([1.0, 2.0])), [2.0, 3.0])
    assert CountedAddOne.calls == 1

    # a branch that would fail (an index out of range) does not run when not chosen
    def pick(pred: bool) -> float:
        out = lazygraph.cond(
            np.bool_(pred), lambda v, i: v[i], lambda v, i: v[0], np.arange(3.0), np.int64(5)
        )
        return float(out)

    assert pick(False) == 0.0
    with pytest.raises(IndexError):
        pick(True)


@pytest.mark.parametrize("pred", [True, False])
def test_cond_values_pytrees_and_gradients(pred: bool) -> None:
    def f(a: object, b: dict) -> object:
        return lazygraph.cond(
            pred,
            lambda a, b: {"s": a * b["w"], "n": b["k"] + 1},
            lambda a, b: {"s": lnp.sin(a) + b["w"], "n": b["k"] * 2},
            a,
            b,
        )

    a, w = RNG.standard_normal(3), RNG.standard_normal(3)
    out = f(a, {"w": w, "k": np.int64(4)})
    want_s = a * w if pred else np.sin(a) + w
    np.testing.assert_allclose(out["s"].compute(), want_s)
    assert int(out["n"]) == (5 if pred else 8)
    ga, gw = lazygraph.grad(
        lambda a, w: lnp.sum(f(a, {"w": w, "k": np.int64(4)})["s"] ** 2), argnums=(0, 1)
    )(a, w)
    want_ga = 2 * want_s * (w if pred else np.cos(a))
    want_gw = 2 * want_s * (a if pred else 1.0)
    np.testing.assert_allclose(ga, want_ga, rtol=1e-12)
    np.testing.assert_allclose(gw, want_gw, rtol=1e-12)


def test_cond_gradient_and_forward_mode_finite_differences() -> None:
    def fn(p: lt.TensorVariable, x: lt.TensorVariable) -> object:
        return lazygraph.cond(lt.sum(p) > 0, lambda x: lt.exp(x) * p, lambda x: x * x - p, x)

    for sign in (1.0, -1.0):
        point = [np.array([sign, 0.5]), RNG.standard_normal(2)]
        verify_grad(fn, point, rng=RNG, mode=PY)
        verify_rop(fn, point, rng=RNG, mode=PY)


def test_cond_errors() -> None:
    with pytest.raises(TypeError, match="identical types"):
        lazygraph.cond(True, lambda: np.float32(1), lambda: np.float64(1))
    with pytest.raises(TypeError, match="pytree structures"):
        lazygraph.cond(True, lambda: (1.0, 2.0), lambda: 1.0)
    with pytest.raises(TypeError, match="scalar"):
        lazygraph.cond(np.array([True, False]), lambda: 1.0, lambda: 2.0)


def test_cond_output_type_and_node() -> None:
    x = lt.tensor("float64", (2, 3), "x")
    y = lazygraph.cond(lt.constant(True), lambda x: x[0], lambda x: x[1] * 2, x)
    assert isinstance(y.owner.op, IfElse) and y.type == TensorType("float64", (3,))
    assert y.owner.op.infer_shape(None, y.owner, [(), (2, 3)]) == [(3,)]


# -- inside jit and grad ----------------------------------------------------------------


def test_control_flow_inside_jit_traces_once() -> None:
    @lazygraph.jit
    def f(x: np.ndarray, n: np.ndarray) -> object:
        def body(c: object, row: object) -> tuple[object, object]:
            c = lazygraph.cond(lnp.sum(row) > 0, lambda c: c + row, lambda c: c - row, c)
            return c, lnp.sum(c)

        c, sums = lazygraph.scan(body, lnp.zeros(x.shape[1]), x)
        k = lazygraph.while_loop(lambda k: k < n, lambda k: k + 1, lnp.int64(0))
        return c, sums, k

    x = RNG.standard_normal((7, 2))
    c, sums, k = f(x, np.int64(3))
    want = np.zeros(2)
    want_sums = []
    for row in x:
        want = want + row if row.sum() > 0 else want - row
        want_sums.append(want.sum())
    np.testing.assert_allclose(c, want)
    np.testing.assert_allclose(sums, want_sums)
    assert int(k) == 3
    f(x * 2, np.int64(5))
    assert f.trace_count == 1


def test_a_body_reading_a_large_constant_takes_it_as_an_input() -> None:
    """A constant too large to inline (more than INLINE_CONSTANT_SIZE elements)
    that the body reads is a non-sequence input: a placeholder inside, the
    constant outside (it was once the inner input itself, which no function
    can take)."""
    table = np.linspace(-1.0, 1.0, 40)
    c = lt.dvector("c")
    x = lt.dvector("x")
    xs = lt.dmatrix("xs")
    (final, rows) = scan_apply(
        xs.shape[0], [lt.zeros((40,))], [xs], [c], [x], [c + lt.constant(table) * x], [c]
    )
    f = lazygraph.function([xs], [final, rows], mode=PY)
    xv = np.random.default_rng(2).normal(size=(3, 40))
    got_final, got_rows = f(xv)
    want = np.cumsum(table * xv, axis=0)
    np.testing.assert_allclose(got_final, want[-1], rtol=1e-14)
    np.testing.assert_allclose(got_rows[1:], want[:-1], rtol=1e-14)

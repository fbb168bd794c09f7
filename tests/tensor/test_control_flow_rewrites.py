"""Rewrites of loops (lazygraph.tensor.control.rewriting): loop invariants
computed once outside ``Scan`` and ``While`` bodies, and a per-step output
read only as its last row kept as a carry. Values against plain Python loops
over numpy and against the graph without the rewrite, gradients against
finite differences, structure (where the nodes are, how many there are), and
one compiled cross-check per compiling backend.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.gradient import grad, verify_grad
from lazygraph.graph.basic import Apply, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.tensor.control import InnerGraph, Scan, While, scan_apply
from lazygraph.tensor.control.rewriting import (
    never_raises,
    scan_hoist_invariants,
    scan_keep_last_y,
)
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.subtensor import Subtensor
from tests.tensor.harness import CountedAddOne

PY = Mode(backend="python")
HOIST = ("scan_hoist_invariants", "while_hoist_invariants")
PY_PLAIN = PY.excluding(*HOIST, "scan_keep_last_y")
python_only = pytest.mark.backend("python")
RNG = np.random.default_rng(2121)


def fgraph_of(fn: object) -> FunctionGraph:
    return fn.fgraph if hasattr(fn, "fgraph") else fn.__lazygraph_fgraph__()  # type: ignore[attr-defined]


def loops(fn: object, op_class: type = Scan) -> list[Apply]:
    return [n for n in fgraph_of(fn).apply_nodes if isinstance(n.op, op_class)]


def inner_nodes(op: object) -> list[Apply]:
    graphs = [op.inner] if isinstance(op, Scan) else [op.cond, op.body]  # type: ignore[attr-defined]
    return [n for g in graphs for n in g.nodes]


def total_nodes(fn: object) -> int:
    """The nodes of the graph and of every loop body in it (one level)."""
    nodes = list(fgraph_of(fn).apply_nodes)
    return len(nodes) + sum(len(inner_nodes(n.op)) for n in nodes if isinstance(n.op, Scan | While))


def _body(c: Variable, x: Variable, w: Variable, m: Variable) -> tuple[Variable, Variable]:
    # m.T, exp(w), w * w and its sum read only the non-sequences w and m
    new_c = lt.tanh(lt.matmul(lt.matrix_transpose(m), c) + x * lt.exp(w))
    return new_c, lt.sum(w * w) * c


def _reference(
    c: np.ndarray, xs: np.ndarray, w: np.ndarray, m: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    ys = np.empty((len(xs), 3))
    for t, x in enumerate(xs):
        ys[t] = np.sum(w * w) * c
        c = np.tanh(m.T @ c + x * np.exp(w))
    return c, ys


@functools.cache
def _scan_with_params(mode: Mode) -> lazygraph.compile.function.Function:
    init, xs = lt.tensor("float64", (3,), "init"), lt.tensor("float64", (None, 3), "xs")
    w, m = lt.tensor("float64", (3,), "w"), lt.tensor("float64", (3, 3), "m")
    c, x, w_in, m_in = (v.type() for v in (init, init, w, m))
    new_c, y = _body(c, x, w_in, m_in)
    outs = scan_apply(
        xs.shape[0], [init], [xs], [c], [x], [new_c], [y], params=[(w_in, w), (m_in, m)]
    )
    return lazygraph.function([init, xs, w, m], outs, mode=mode)


finite = st.floats(-3, 3, width=64)


@python_only
@settings(max_examples=30)
@given(
    init=hnp.arrays("float64", 3, elements=finite),
    xs=hnp.arrays("float64", st.tuples(st.integers(0, 6), st.just(3)), elements=finite),
    w=hnp.arrays("float64", 3, elements=finite),
    m=hnp.arrays("float64", (3, 3), elements=finite),
)
def test_hoisted_scan_matches_a_python_loop(
    init: np.ndarray, xs: np.ndarray, w: np.ndarray, m: np.ndarray
) -> None:
    final, ys = _scan_with_params(PY)(init, xs, w, m)
    plain_final, plain_ys = _scan_with_params(PY_PLAIN)(init, xs, w, m)
    want_final, want_ys = _reference(init, xs, w, m)
    np.testing.assert_array_equal(final, plain_final)
    np.testing.assert_array_equal(ys, plain_ys)
    np.testing.assert_allclose(final, want_final, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ys, want_ys, rtol=1e-12, atol=1e-15)
    assert ys.shape == (len(xs), 3)


@python_only
def test_invariants_move_out_of_the_body_keeping_the_node_count() -> None:
    hoisted, plain = _scan_with_params(PY), _scan_with_params(PY_PLAIN)
    (node,), (before,) = loops(hoisted), loops(plain)
    # transpose, exp, multiply, sum: out; matmul, add, multiply, tanh, multiply: in
    assert len(inner_nodes(before.op)) == 9 and len(inner_nodes(node.op)) == 5
    assert node.op.n_params == before.op.n_params + 3  # m.T, exp(w), sum(w * w)
    outside = [n for n in fgraph_of(hoisted).apply_nodes if isinstance(n.op, DimShuffle)]
    assert len(outside) == 1 and outside[0].inputs[0].name == "m"
    assert not any(isinstance(n.op, DimShuffle) for n in inner_nodes(node.op))
    assert total_nodes(hoisted) <= total_nodes(plain)
    # a non-sequence whose outer value has fewer static sizes than the body's
    # input stays an input: the safety of what reads it was judged on the latter
    init, xs = lt.tensor("float64", (3,), "init"), lt.tensor("float64", (None, 3), "xs")
    w, m = lt.tensor("float64", (None,), "w"), lt.tensor("float64", (3, 3), "m")
    c, x, w_in, m_in = (v.type() for v in (init, init, init, m))
    new_c, y = _body(c, x, w_in, m_in)
    outs = scan_apply(
        xs.shape[0], [init], [xs], [c], [x], [new_c], [y], params=[(w_in, w), (m_in, m)]
    )
    (node,) = loops(lazygraph.function([init, xs, w, m], outs, mode=PY))
    assert node.op.n_params == 3 and len(inner_nodes(node.op)) == 8  # only m.T moved


def _gradient_loss(w: object, xs: object, h0: object) -> object:
    def cell(h: object, x: object) -> tuple[object, object]:
        h = lnp.tanh(w @ h + x)
        return h, h * h

    _, ys = lazygraph.scan(cell, h0, xs)
    return lnp.sum(ys[-1]) + lnp.sum(ys)


@python_only
def test_a_gradient_reads_the_hoisted_transpose_and_matches_central_differences() -> None:
    # the backward scan's body computes w.T from a non-sequence: moved outside
    w, xs, h0 = (
        RNG.standard_normal((3, 3)) * 0.5,
        RNG.standard_normal((5, 3)),
        RNG.standard_normal(3),
    )
    hoisted = lazygraph.jit(lazygraph.value_and_grad(_gradient_loss, argnums=(0, 1, 2)), mode=PY)
    plain = lazygraph.jit(
        lazygraph.value_and_grad(_gradient_loss, argnums=(0, 1, 2)), mode=PY_PLAIN
    )
    got, want = hoisted(w, xs, h0), plain(w, xs, h0)
    np.testing.assert_array_equal(got[0], want[0])
    for a, b in zip(got[1], want[1], strict=True):
        np.testing.assert_array_equal(a, b)
    (back,) = [n for n in loops(hoisted) if n.op.reverse]
    (back_plain,) = [n for n in loops(plain) if n.op.reverse]
    # w.T (a transpose of a non-sequence) leaves; h.T (of a row) stays
    assert _transposes(back_plain.op) == 2 and _transposes(back.op) == 1
    assert any(str(n.op) == "Transpose" for n in fgraph_of(hoisted).apply_nodes)
    assert len(loops(hoisted)) == len(loops(plain)) == 2
    assert total_nodes(hoisted) <= total_nodes(plain)

    def numpy_loss(w: np.ndarray) -> float:
        h, total = h0, 0.0
        for x in xs:
            h = np.tanh(w @ h + x)
            total += np.sum(h * h)
        return total + np.sum(h * h)

    fd = np.zeros_like(w)
    for idx in np.ndindex(*w.shape):
        step = np.zeros_like(w)
        step[idx] = 1e-6
        fd[idx] = (numpy_loss(w + step) - numpy_loss(w - step)) / 2e-6
    np.testing.assert_allclose(got[0], numpy_loss(w), rtol=1e-13)
    np.testing.assert_allclose(got[1][0], fd, rtol=1e-6, atol=1e-8)


@python_only
def test_the_saving_twin_merges_before_the_body_changes() -> None:
    # reverse mode runs the forward loop again saving its carries; hoisting from
    # (or adding a carry to) either twin first would keep three loops
    init, xs = lt.tensor("float64", (3,), "init"), lt.tensor("float64", (5, 3), "xs")
    w, m = lt.tensor("float64", (3,), "w"), lt.tensor("float64", (3, 3), "m")
    c, x, w_in, m_in = (v.type() for v in (init, init, w, m))
    new_c, y = _body(c, x, w_in, m_in)
    final, ys = scan_apply(5, [init], [xs], [c], [x], [new_c], [y], params=[(w_in, w), (m_in, m)])
    cost = lt.sum(ys[-1]) + lt.sum(final * final)
    outs = [cost, *grad(cost, [w, m, init])]
    fn = lazygraph.function([init, xs, w, m], outs, mode=PY)
    plain = lazygraph.function([init, xs, w, m], outs, mode=PY_PLAIN)
    assert len(loops(fn)) == len(loops(plain)) == 2
    forward = [n for n in loops(fn) if not n.op.reverse]
    assert forward[0].op.n_carry == 2  # ys[-1] became a carry
    assert not any(isinstance(n.op, DimShuffle) for n in inner_nodes(forward[0].op))
    values = [RNG.standard_normal(3), RNG.standard_normal((5, 3)), RNG.standard_normal(3)]
    values.append(RNG.standard_normal((3, 3)) * 0.5)
    for a, b in zip(fn(*values), plain(*values), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-15)
    want_final, want_ys = _reference(*values)
    np.testing.assert_allclose(fn(*values)[0], want_ys[-1].sum() + want_final @ want_final)


@python_only
@pytest.mark.parametrize("long_first", [False, True])
def test_twins_merge_whichever_the_rewrites_meet_first(long_first: bool) -> None:
    init, xs = lt.tensor("float64", (3,), "init"), lt.tensor("float64", (5, 3), "xs")
    w, m = lt.tensor("float64", (3,), "w"), lt.tensor("float64", (3, 3), "m")

    def loop(extra: bool) -> list[Variable]:
        c, x, w_in, m_in = (v.type() for v in (init, init, w, m))
        new_c, y = _body(c, x, w_in, m_in)
        ys = [y, c * 2.0] if extra else [y]
        return scan_apply(5, [init], [xs], [c], [x], [new_c], ys, params=[(w_in, w), (m_in, m)])

    short, long = loop(False), loop(True)
    outs = [long[2], long[1], short[0]] if long_first else [short[0], long[1], long[2]]
    fn = lazygraph.function([init, xs, w, m], outs, mode=PY)
    (node,) = loops(fn)
    assert node.op.n_ys == 2 and not any(isinstance(n.op, DimShuffle) for n in inner_nodes(node.op))
    values = [RNG.standard_normal(3), RNG.standard_normal((5, 3)), RNG.standard_normal(3)]
    values.append(RNG.standard_normal((3, 3)))
    got = dict(zip(map(id, outs), fn(*values), strict=True))
    final, ys = _reference(*values)
    np.testing.assert_allclose(got[id(short[0])], final, rtol=1e-12)
    np.testing.assert_allclose(got[id(long[1])], ys, rtol=1e-12)


@python_only
def test_verify_grad_through_both_rewrites() -> None:
    point = [RNG.standard_normal((3, 3)) * 0.5, RNG.standard_normal((4, 3)), RNG.standard_normal(3)]
    verify_grad(_gradient_loss, point, mode=PY)
    verify_grad(lambda w, xs, h0: _gradient_loss(w, xs, h0) * 2.0, point, mode=PY, n_tests=1)


# -- what may leave the loop ---------------------------------------------------------


def _transposes(op: Scan) -> int:
    return sum(str(n.op) == "Transpose" for n in inner_nodes(op))


def _risky_bodies() -> list[
    tuple[str, Callable[[Variable], Variable], np.ndarray, np.ndarray, type]
]:
    """(name, f of the non-sequence, a value that makes f raise, one that does
    not, the error): ops that raise on some values of their types, which a
    0-step loop must not run."""
    return [
        ("index", lambda p: p[2], np.ones(1), np.ones(3), IndexError),
        ("max of empty", lambda p: lt.max(p), np.ones(0), np.ones(2), ValueError),
        ("matmul", lambda p: lt.matmul(p, p), np.ones((2, 3)), np.ones((2, 2)), ValueError),
        ("drop an axis", lambda p: lt.squeeze(p, 0), np.ones((2, 2)), np.ones((1, 2)), ValueError),
        ("broadcast", lambda p: p + p[::2], np.ones(3), np.ones(2), ValueError),
    ]


def _risky_scan(f: Callable[[Variable], Variable], value: np.ndarray, length: object) -> list:
    p = lt.tensor("float64", (None,) * value.ndim, "p")
    c, p_in = lt.dscalar("c"), p.type()
    new_c = c + lt.sum(f(p_in))
    outs = scan_apply(length, [lt.constant(1.0)], [], [c], [], [new_c], [], params=[(p_in, p)])
    return [p], outs


@python_only
@pytest.mark.parametrize(("name", "f", "value", "good", "error"), _risky_bodies())
def test_a_zero_step_scan_runs_nothing_that_raises(
    name: str, f: Callable, value: np.ndarray, good: np.ndarray, error: type
) -> None:
    n = lt.lscalar("n")
    inputs, outs = _risky_scan(f, value, n)
    fn = lazygraph.function([*inputs, n], outs[0], mode=PY)
    np.testing.assert_array_equal(fn(value, 0), 1.0)
    with pytest.raises(error):
        fn(value, 2)
    # nothing moved: the number of steps is unknown
    (node,) = loops(fn)
    assert node.op.n_params == 1
    # with at least one step known, the whole invariant part moves out
    inputs, outs = _risky_scan(f, value, 3)
    fixed = lazygraph.function(inputs, outs[0], mode=PY)
    (node,) = loops(fixed)
    assert node.op.n_params == 2 and len(inner_nodes(node.op)) == 1  # the add
    with pytest.raises(error):
        fixed(value)
    np.testing.assert_allclose(fixed(good), 1.0 + 3 * np.sum(f(lt.constant(good)).eval()))


@python_only
def test_a_loop_that_surely_runs_moves_nested_loops_but_not_foreign_ops() -> None:
    p = lt.tensor("float64", (4,), "p")
    c, p_in, q = lt.dscalar("c"), p.type(), lt.dscalar("q")
    # a nested scan (the running products of p) and a counting op read only p
    (_, prods) = scan_apply(4, [lt.constant(1.0)], [p_in], [q], [r := q.type()], [q * r], [q * r])
    new_c = c + lt.sum(prods) + lt.sum(CountedAddOne()(p_in))
    (final,) = scan_apply(3, [lt.constant(0.0)], [], [c], [], [new_c], [], params=[(p_in, p)])
    fn = lazygraph.function([p], final, mode=PY)
    (outer,) = [n for n in loops(fn) if n.op.n_params]
    assert not any(isinstance(n.op, Scan) for n in inner_nodes(outer.op))  # moved out
    assert any(isinstance(n.op, CountedAddOne) for n in inner_nodes(outer.op))  # stays
    assert len(loops(fn)) == 2
    value = np.array([1.5, -2.0, 0.5, 3.0])
    CountedAddOne.calls = 0
    np.testing.assert_allclose(fn(value), 3 * (np.cumprod(value).sum() + np.sum(value + 1)))
    assert CountedAddOne.calls == 3


@python_only
def test_never_raises_allow_list() -> None:
    a, b = lt.tensor("float64", (None, 3)), lt.tensor("float64", (None, 3))
    k, n = lt.tensor("int64", (3,)), lt.tensor("int64", (3,))
    cases = [
        (a + lt.tensor("float64", (1, 3)), True),
        (a + b, False),  # two unknown sizes may clash
        (a * 2.0, True),
        (lt.power(k, n), False),  # integer to a negative power raises
        (lt.power(a, 2), True),
        (lt.matrix_transpose(a), True),
        (lt.squeeze(lt.tensor("float64", (1, 3)), 0), True),
        (lt.sum(a, axis=0), True),
        (lt.max(a, axis=0), False),  # may be empty
        (lt.max(a, axis=1), True),
        (lt.matmul(a, lt.tensor("float64", (3, 2))), True),
        (lt.matmul(lt.tensor("float64", (3, None)), a), False),
        (lt.zeros((2, 3)) + 0.0, True),
        (a[0], False),
    ]
    for out, expected in cases:
        assert never_raises(out.owner) is expected, out.owner
    assert never_raises(lt.zeros((2, 3)).owner) is True
    assert never_raises(lt.zeros(lt.lscalar()).owner) is False


# -- While -------------------------------------------------------------------------


def _while(max_steps: int | None) -> tuple[list[Variable], list[Variable]]:
    """``i, v = 0, v0; while i < 2 * n: i, v = i + 1, tanh(m.T @ v + exp(w))``
    built with the non-sequences as inputs of both inner graphs."""
    i0, v0 = lt.lscalar("i0"), lt.tensor("float64", (3,), "v0")
    n, w, m = lt.lscalar("n"), lt.tensor("float64", (3,), "w"), lt.tensor("float64", (3, 3), "m")
    i, v, n_in, w_in, m_in = (x.type() for x in (i0, v0, n, w, m))
    holders = [i, v, n_in, w_in, m_in]
    cond = InnerGraph(holders, [lt.less(i, n_in * 2)])
    body = InnerGraph(
        holders, [i + 1, lt.tanh(lt.matmul(lt.matrix_transpose(m_in), v) + lt.exp(w_in))]
    )
    outs = While(cond, body, 2, max_steps).make_node(i0, v0, n, w, m).outputs
    return [i0, v0, n, w, m], list(outs)


@python_only
@settings(max_examples=20)
@given(
    n=st.integers(-1, 4),
    v0=hnp.arrays("float64", 3, elements=finite),
    w=hnp.arrays("float64", 3, elements=finite),
    m=hnp.arrays("float64", (3, 3), elements=finite),
)
def test_hoisted_while_matches_a_python_loop(
    n: int, v0: np.ndarray, w: np.ndarray, m: np.ndarray
) -> None:
    fn = _while_function(PY, None)
    i, v = fn(0, v0, n, w, m)
    want_i, want_v = 0, v0
    while want_i < 2 * n:
        want_i, want_v = want_i + 1, np.tanh(m.T @ want_v + np.exp(w))
    assert int(i) == want_i
    np.testing.assert_allclose(v, want_v, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(v, _while_function(PY_PLAIN, None)(0, v0, n, w, m)[1])


@functools.cache
def _while_function(mode: Mode, max_steps: int | None) -> lazygraph.compile.function.Function:
    inputs, outs = _while(max_steps)
    return lazygraph.function(inputs, outs, mode=mode)


@python_only
def test_while_moves_invariants_of_cond_and_body() -> None:
    fn, plain = _while_function(PY, None), _while_function(PY_PLAIN, None)
    (node,), (before,) = loops(fn, While), loops(plain, While)
    # cond: n * 2 out; body: m.T and exp(w) out
    assert len(before.op.cond.nodes) == 2 and len(node.op.cond.nodes) == 1
    assert len(before.op.body.nodes) == 6 and len(node.op.body.nodes) == 4
    assert len(node.inputs) == len(before.inputs) + 3
    assert total_nodes(fn) == total_nodes(plain)


@python_only
def test_while_cond_runs_once_at_least_but_the_body_maybe_never() -> None:
    # an index of a non-sequence: out of cond (which always runs), not out of
    # the body (which a false condition skips)
    i0, p = lt.lscalar("i0"), lt.tensor("int64", (None,), "p")
    i, p_in = i0.type(), p.type()
    for max_steps, cond_nodes in ((None, 1), (0, 2)):
        cond = InnerGraph([i, p_in], [lt.less(i, p_in[0])])
        body = InnerGraph([i, p_in], [i + p_in[1]])
        (out,) = While(cond, body, 1, max_steps).make_node(i0, p).outputs
        fn = lazygraph.function([i0, p], out, mode=PY)
        (node,) = loops(fn, While)
        assert len(node.op.cond.nodes) == cond_nodes and len(node.op.body.nodes) == 2
        if max_steps is None:
            assert int(fn(0, np.array([0]))) == 0  # p[1] never read
            assert int(fn(0, np.array([5, 2]))) == 6
            with pytest.raises(IndexError):
                fn(0, np.array([], dtype=np.int64))
        else:
            assert int(fn(0, np.array([], dtype=np.int64))) == 0


# -- the last row of a per-step output ---------------------------------------------


def _last_row_scan(reverse: bool, pick: Callable[[Variable], Variable], length: object = None):
    xs = lt.tensor("float64", (None, 2) if length is None else (length, 2), "xs")
    c = lt.tensor("float64", (2,), "c")
    x = c.type()
    final, ys, other = scan_apply(
        xs.shape[0], [lt.zeros(2)], [xs], [c], [x], [c + x], [lt.sin(c) * x, c], reverse
    )
    return xs, [pick(ys), other, final]


def _last_row_reference(xs: np.ndarray, reverse: bool) -> tuple[np.ndarray, ...]:
    c = np.zeros(2)
    ys, other = np.empty_like(xs), np.empty_like(xs)
    for t in range(len(xs) - 1, -1, -1) if reverse else range(len(xs)):
        ys[t], other[t] = np.sin(c) * xs[t], c
        c = c + xs[t]
    return ys, other, c


@python_only
@settings(max_examples=30)
@given(
    steps=st.integers(1, 5),
    reverse=st.booleans(),
    negative=st.booleans(),
    data=st.data(),
)
def test_the_last_row_is_a_carry_and_matches_a_python_loop(
    steps: int, reverse: bool, negative: bool, data: st.DataObject
) -> None:
    xs_value = data.draw(hnp.arrays("float64", (steps, 2), elements=finite))
    last = (0 if reverse else steps - 1) - (steps if negative else 0)
    fn = _last_row_function(steps, reverse, last, PY)
    row, other, final = fn(xs_value)
    ys, want_other, want_final = _last_row_reference(xs_value, reverse)
    np.testing.assert_array_equal(row, ys[last])
    np.testing.assert_array_equal(other, want_other)
    np.testing.assert_array_equal(final, want_final)
    (node,) = loops(fn)
    assert node.op.n_carry == 2 and node.op.n_ys == 1  # only `other` is stacked
    assert [o.type.ndim for o in node.outputs] == [1, 1, 2]
    assert not any(isinstance(n.op, Subtensor) for n in fgraph_of(fn).apply_nodes)
    assert total_nodes(fn) <= total_nodes(_last_row_function(steps, reverse, last, PY_PLAIN))


@functools.cache
def _last_row_function(
    steps: int, reverse: bool, row: int, mode: Mode
) -> lazygraph.compile.function.Function:
    xs, outs = _last_row_scan(reverse, lambda ys: ys[row], steps)
    return lazygraph.function([xs], outs, mode=mode)


@python_only
def test_other_rows_and_unknown_lengths_keep_the_stack() -> None:
    for reverse, row, length in [
        (False, 0, 3),  # not the last step's row
        (True, -1, 3),
        (False, -1, None),  # the number of steps is unknown
        (False, -2, 3),
    ]:
        xs, outs = _last_row_scan(reverse, lambda ys, row=row: ys[row], length)
        fn = lazygraph.function([xs], outs, mode=PY)
        (node,) = loops(fn)
        assert node.op.n_ys == 2 and node.op.n_carry == 1
        value = RNG.standard_normal((3, 2))
        np.testing.assert_array_equal(fn(value)[0], _last_row_reference(value, reverse)[0][row])
    # a second reader of ys keeps it too
    xs, outs = _last_row_scan(False, lambda ys: ys[-1] + lt.sum(ys), 3)
    (node,) = loops(lazygraph.function([xs], outs, mode=PY))
    assert node.op.n_ys == 2


@python_only
def test_the_last_row_of_zero_steps_still_raises() -> None:
    # unknown length: not rewritten, and numpy's IndexError at run time
    xs, outs = _last_row_scan(False, lambda ys: ys[-1])
    fn = lazygraph.function([xs], outs[0], mode=PY)
    with pytest.raises(IndexError):
        fn(np.zeros((0, 2)))
    np.testing.assert_array_equal(fn(np.ones((2, 2))), np.sin([1.0, 1.0]))
    # a static 0-step scan: ys[-1] is out of range as it is built
    with pytest.raises(IndexError):
        _last_row_scan(False, lambda ys: ys[-1], 0)
    # and through the API, as numpy's ys[-1] of an empty stack
    f = lazygraph.jit(lambda xs: lazygraph.scan(lambda c, x: (c + x, c * x), 0.0, xs)[1][-1])
    with pytest.raises(IndexError):
        f(np.zeros(0))
    np.testing.assert_array_equal(f(np.array([2.0, 3.0])), 2.0 * 3.0)


@python_only
def test_the_last_row_gradient_matches_central_differences() -> None:
    def loss(w: object, xs: object) -> object:
        _, ys = lazygraph.scan(lambda c, x: (lnp.sin(c * w) + x, c * w), 0.5, xs)
        return ys[-1] * 3.0

    xs = RNG.standard_normal(4)
    f = lazygraph.jit(lazygraph.value_and_grad(loss), mode=PY)
    value, g = f(0.7, xs)

    def numpy_loss(w: float) -> float:
        c = 0.5
        for x in xs[:-1]:
            c = np.sin(c * w) + x
        return 3.0 * c * w

    np.testing.assert_allclose(value, numpy_loss(0.7), rtol=1e-14)
    np.testing.assert_allclose(
        g, (numpy_loss(0.7 + 1e-6) - numpy_loss(0.7 - 1e-6)) / 2e-6, rtol=1e-7
    )
    # the forward loop (merged with its saving twin first) stacks only the saved
    # carries, and the backward one nothing
    assert sorted(n.op.n_ys for n in loops(f)) == [0, 1]
    verify_grad(lambda w, xs: loss(w, xs), [np.array(0.7), xs], mode=PY)


@python_only
def test_loop_outputs_never_alias_inputs_or_each_other() -> None:
    # the carry kept for ys[-1] is the carry h's array at each step; a carry set
    # to a row of a sequence or to a non-sequence is that input's memory: the
    # Ops declare no views, so their outputs are copies
    xs = lt.tensor("float64", (3, 2), "xs")
    c = lt.tensor("float64", (2,), "c")
    x = c.type()
    h, ys = scan_apply(3, [lt.zeros(2)], [xs], [c], [x], [lt.tanh(c + x)], [lt.tanh(c + x)])
    (row,) = scan_apply(3, [lt.zeros(2)], [xs], [c], [x], [x], [])
    fn = lazygraph.function([xs], [h, ys[-1], row], mode=PY)
    assert sorted(n.op.n_carry for n in loops(fn)) == [1, 2]  # ys[-1] became a carry
    value = RNG.standard_normal((3, 2))
    got_h, got_last, got_row = fn(value)
    assert not np.may_share_memory(got_h, got_last)
    assert not np.may_share_memory(got_row, value)
    np.testing.assert_array_equal(got_row, value[-1])
    i0, p = lt.lscalar("i0"), lt.tensor("float64", (2,), "p")
    v0 = p.type("v0")
    i, v, p_in = i0.type(), v0.type(), p.type()
    cond = InnerGraph([i, v, p_in], [lt.less(i, 2)])
    body = InnerGraph([i, v, p_in], [i + 1, p_in])
    _, final = While(cond, body, 2).make_node(i0, v0, p).outputs
    p_value = RNG.standard_normal(2)
    got = lazygraph.function([i0, v0, p], final, mode=PY)(0, np.zeros(2), p_value)
    assert not np.may_share_memory(got, p_value)
    np.testing.assert_array_equal(got, p_value)


# -- equal loops stay equal ---------------------------------------------------------


@python_only
def test_equal_loops_rewrite_to_equal_ops_and_merge() -> None:
    def build() -> tuple[FunctionGraph, Apply]:
        init, xs = lt.tensor("float64", (3,), "init"), lt.tensor("float64", (4, 3), "xs")
        w, m = lt.tensor("float64", (3,), "w"), lt.tensor("float64", (3, 3), "m")
        c, x, w_in, m_in = (v.type() for v in (init, init, w, m))
        new_c, y = _body(c, x, w_in, m_in)
        outs = scan_apply(4, [init], [xs], [c], [x], [new_c], [y], params=[(w_in, w), (m_in, m)])
        fg = FunctionGraph([init, xs, w, m], [outs[0], outs[1][-1]], clone=False)
        return fg, outs[0].owner

    (fa, a), (fb, b) = build(), build()
    assert a.op == b.op
    ha, hb = scan_hoist_invariants.transform(fa, a), scan_hoist_invariants.transform(fb, b)
    assert ha[0].owner.op == hb[0].owner.op and hash(ha[0].owner.op) == hash(hb[0].owner.op)
    la, lb = scan_keep_last_y.transform(fa, a), scan_keep_last_y.transform(fb, b)
    (na,), (nb,) = {v.owner for v in la.values()}, {v.owner for v in lb.values()}
    assert na.op == nb.op

    # two equal loops written twice in one function: one loop after rewriting
    init, xs = lt.tensor("float64", (3,), "init"), lt.tensor("float64", (4, 3), "xs")
    w, m = lt.tensor("float64", (3,), "w"), lt.tensor("float64", (3, 3), "m")

    def loop() -> Variable:
        c, x, w_in, m_in = (v.type() for v in (init, init, w, m))
        new_c, y = _body(c, x, w_in, m_in)
        outs = scan_apply(4, [init], [xs], [c], [x], [new_c], [y], params=[(w_in, w), (m_in, m)])
        return outs[0] + outs[1][-1]

    fn = lazygraph.function([init, xs, w, m], loop() * loop(), mode=PY)
    assert len(loops(fn)) == 1
    values = [RNG.standard_normal(3), RNG.standard_normal((4, 3)), RNG.standard_normal(3)]
    values.append(RNG.standard_normal((3, 3)))
    final, ys = _reference(*values)
    np.testing.assert_allclose(fn(*values), (final + ys[-1]) ** 2, rtol=1e-12)


# -- compiled backends ----------------------------------------------------------------


def _compiled_cross_check(backend: str) -> None:
    from lazygraph.configuration import config

    mode = Mode(backend=backend)
    w, xs, h0 = (
        RNG.standard_normal((3, 3)) * 0.5,
        RNG.standard_normal((5, 3)),
        RNG.standard_normal(3),
    )
    with config.change(on_unsupported="raise"):
        got = lazygraph.jit(lazygraph.value_and_grad(_gradient_loss, argnums=(0, 1, 2)), mode=mode)
        value, grads = got(w, xs, h0)
    want_value, want_grads = lazygraph.jit(
        lazygraph.value_and_grad(_gradient_loss, argnums=(0, 1, 2)), mode=PY_PLAIN
    )(w, xs, h0)
    np.testing.assert_allclose(value, want_value, rtol=1e-12)
    for a, b in zip(grads, want_grads, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    (back,) = [n for n in loops(got) if n.op.reverse]
    assert _transposes(back.op) == 1  # w.T moved out, h.T stays
    inputs, outs = _while(None)
    fn = lazygraph.function(inputs, outs, mode=mode)
    v0, wv, m = RNG.standard_normal(3), RNG.standard_normal(3), RNG.standard_normal((3, 3))
    for n in (0, 3):
        np.testing.assert_allclose(
            fn(0, v0, n, wv, m)[1], _while_function(PY_PLAIN, None)(0, v0, n, wv, m)[1], rtol=1e-12
        )


@pytest.mark.backend("numba")
def test_rewritten_loops_on_numba() -> None:
    pytest.importorskip("numba")
    _compiled_cross_check("numba")


@pytest.mark.backend("jax")
def test_rewritten_loops_on_jax() -> None:
    pytest.importorskip("jax")
    _compiled_cross_check("jax")

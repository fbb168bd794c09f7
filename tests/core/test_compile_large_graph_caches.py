"""The shortcuts that keep compiling large graphs linear and cheap give the
same graphs as the plain walks: the kept toposort of a ``FunctionGraph``, the
order its clone is imported in, and the fusion stage's sharing of one
``Composite`` between groups of equal structure."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import lazygraph
import lazygraph.tensor as lt
from lazygraph.graph.fg import FunctionGraph
from lazygraph.graph.traversal import io_toposort
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.rewriting.fusion import FusionOptimizer

_UNARY = [lt.sin, lt.exp, lt.negative, lt.tanh]


def _random_graph(draw: st.DrawFn) -> tuple[list[lt.TensorVariable], list[lt.TensorVariable]]:
    xs = [lt.dvector(f"x{i}") for i in range(draw(st.integers(1, 3)))]
    pool = list(xs)
    for _ in range(draw(st.integers(1, 12))):
        if draw(st.booleans()):
            pool.append(draw(st.sampled_from(_UNARY))(draw(st.sampled_from(pool))))
        else:
            pool.append(draw(st.sampled_from(pool)) + draw(st.sampled_from(pool)))
    outs = draw(st.lists(st.sampled_from(pool[len(xs) :]), min_size=1, max_size=3))
    return xs, outs


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[lt.TensorVariable], list[lt.TensorVariable], list[int]]:
    xs, outs = _random_graph(draw)
    edits = draw(st.lists(st.integers(0, 10_000), max_size=6))
    return xs, outs, edits


def _fresh(fg: FunctionGraph) -> list:
    return io_toposort(fg.inputs, fg.outputs, fg.orderings())


@given(graphs())
def test_kept_toposort_follows_every_change(case) -> None:
    xs, outs, edits = case
    fg = FunctionGraph(xs, outs)
    # the clone's order, imported without a second walk, is the walk's order
    assert fg.toposort() == io_toposort(fg.inputs, fg.outputs)
    for k in edits:
        nodes = fg.toposort()
        assert nodes == _fresh(fg)
        node = nodes[k % len(nodes)] if nodes else None
        if node is None:
            break
        # replace a node's output by a new node over one of its inputs (an
        # import and a prune), or add an output: each must drop the kept order
        if k % 3 == 0:
            fg.add_output(node.outputs[0])
        elif k % 3 == 1:
            fg.replace(node.outputs[0], lt.cos(node.inputs[0]), reason="test")
        else:  # rewire an input to a graph input: no import, maybe no prune
            fg.change_node_input(node, 0, fg.inputs[k % len(fg.inputs)], reason="test")
        fg.check_integrity()
        assert fg.toposort() == _fresh(fg)
    order = fg.toposort()
    order.clear()  # each call gives a new list
    assert fg.toposort() == _fresh(fg)


def test_clone_with_pinned_memo_walks_the_copy() -> None:
    x, y = lt.dvector("x"), lt.dvector("y")
    z = lt.exp(x) + 1.0
    memo = {x: lt.sin(y)}  # a pinned replacement of another shape of graph
    fg = FunctionGraph([y], [z], memo=memo, copy_inputs=False)
    fg.check_integrity()
    assert fg.toposort() == io_toposort(fg.inputs, fg.outputs)
    assert str(fg.toposort()[0].op) == "Elemwise{sin}"


def _chain(x: lt.TensorVariable, consts: list[float]) -> lt.TensorVariable:
    y = x
    for c in consts:
        y = lt.cumsum(lt.sin(y) * c + 0.25)
    return y


def test_equal_groups_share_one_composite() -> None:
    x = lt.dvector("x")
    fg = FunctionGraph([x], [_chain(x, [0.5] * 6)])
    FusionOptimizer().rewrite(fg)
    fused = [n.op for n in fg.toposort() if isinstance(n.op, Elemwise)]
    assert len(fused) == 6
    assert all(op is fused[0] for op in fused)  # one op (and one Composite) for all
    assert str(fused[0].scalar_op) == "Composite{add(multiply(sin(i0), 0.5), 0.25)}"


def test_groups_differing_in_a_constant_do_not_share() -> None:
    # 0.0 and -0.0 compare equal but are different constants; so are two NaNs
    # with different payloads
    nan2 = np.frombuffer((np.float64(np.nan).view(np.uint64) | np.uint64(1)).tobytes())[0]
    consts = [0.0, -0.0, 0.5, 0.5, float("nan"), float(nan2)]
    x = lt.dvector("x")
    fg = FunctionGraph([x], [_chain(x, consts)])
    FusionOptimizer().rewrite(fg)
    ops = [n.op.scalar_op for n in fg.toposort() if isinstance(n.op, Elemwise)]
    assert len(ops) == 6
    assert ops[0] is not ops[1] and ops[0] != ops[1]
    assert ops[2] is ops[3]
    assert ops[4] is not ops[5] and ops[4] != ops[5]


@given(st.lists(st.sampled_from([0.5, -0.0, 0.0, 2.0, -1.5]), min_size=1, max_size=8))
def test_shared_composites_compute_numpy_values(consts: list[float]) -> None:
    x = lt.dvector("x")
    f = lazygraph.function([x], _chain(x, consts), mode="FAST_RUN")
    data = np.array([-1.0, -0.0, 0.0, 0.3, 2.0])
    want = data
    for c in consts:
        want = np.cumsum(np.sin(want) * c + 0.25)
    np.testing.assert_array_equal(f(data), want)

"""The ``inplace`` stage: which nodes get a ``destroy_map`` (only where the
DestroyHandler proves it safe), and that results, inputs and repeated calls are
unaffected."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.backends import get_backend
from lazygraph.compile.mode import Mode
from lazygraph.graph.destroyhandler import DestroyHandler
from lazygraph.graph.fg import FunctionGraph
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.rewriting.inplace import (
    InplaceElemwiseOptimizer,
    InplaceSetSubtensorOptimizer,
)
from lazygraph.tensor.subtensor import IncSubtensor
from tests.tensor.harness import assert_numpy_equal

PYTHON = Mode(backend="python")
RNG = np.random.default_rng(0)


def inplace(inputs: list[Any], outputs: list[Any], donate: tuple[int, ...] = ()) -> FunctionGraph:
    fg = FunctionGraph(inputs, outputs)
    fg.attach_feature(DestroyHandler(donated_inputs=donate))
    InplaceElemwiseOptimizer().rewrite(fg)
    InplaceSetSubtensorOptimizer().rewrite(fg)
    fg.check_integrity()
    return fg


def evaluate(fg: FunctionGraph, *values: Any) -> list[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(get_backend("python").compile(fg)(*values))


def destroyers(fg: FunctionGraph) -> list[Any]:
    return [n for n in fg.toposort() if n.op.destroy_map]


def check_same(fg: FunctionGraph, inputs: list[Any], outputs: list[Any], *values: Any) -> None:
    """Two calls of the inplace graph equal the plain graph, and leave the inputs alone."""
    copies = [np.copy(v) for v in values]
    want = evaluate(FunctionGraph(inputs, outputs), *values)
    fn = get_backend("python").compile(fg)
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = fn(*values)
        for g, w in zip(got, want, strict=True):
            assert_numpy_equal(g, w, signed_zeros=True)
    for v, c in zip(values, copies, strict=True):
        np.testing.assert_array_equal(v, c)


def test_elemwise_overwrites_an_intermediate_not_the_graph_input() -> None:
    x = lt.tensor("float64", (3,), name="x")
    outputs = [lt.exp(lt.sin(x))]
    fg = inplace([x], outputs)
    (node,) = destroyers(fg)
    assert node.op.scalar_op.name == "exp" and node.op.inplace_pattern == ((0, 0),)
    check_same(fg, [x], outputs, np.array([0.5, -np.inf, np.nan]))


def test_donated_input_may_be_overwritten() -> None:
    x = lt.tensor("float64", (3,), name="x")
    fg = inplace([x], [lt.sin(x)], donate=(0,))
    (node,) = destroyers(fg)
    assert node.inputs[0] is fg.inputs[0]
    data = np.array([0.0, 1.0, 2.0])
    (got,) = evaluate(fg, data)
    np.testing.assert_array_equal(got, np.sin([0.0, 1.0, 2.0]))


def test_a_graph_output_is_never_overwritten() -> None:
    x = lt.tensor("float64", (3,), name="x")
    y = lt.sin(x)
    outputs = [lt.exp(y), y]
    fg = inplace([x], outputs)
    assert not destroyers(fg)
    check_same(fg, [x], outputs, RNG.standard_normal(3))


def test_other_readers_run_before_the_destroyer() -> None:
    x = lt.tensor("float64", (2, 3), name="x")
    y = lt.sin(x)
    outputs = [lt.exp(y) + lt.sum(y, axis=0) * y]
    fg = inplace([x], outputs)
    assert destroyers(fg)
    check_same(fg, [x], outputs, RNG.standard_normal((2, 3)))


def test_no_inplace_into_an_input_that_may_broadcast() -> None:
    x, y = lt.dvector("x"), lt.dvector("y")
    outputs = [lt.sin(x) + lt.cos(y)]
    fg = inplace([x, y], outputs)
    assert all(n.op.scalar_op.name != "add" for n in destroyers(fg))
    check_same(fg, [x, y], outputs, np.array([0.5]), np.array([1.0, 2.0, 3.0]))
    # a known shape on the other side rules out broadcasting into x
    a, b = lt.dvector("a"), lt.tensor("float64", (1,), name="b")
    outputs = [lt.sin(a) * lt.cos(b)]
    fg = inplace([a, b], outputs)
    assert [n.op.scalar_op.name for n in destroyers(fg)] == ["multiply"]
    check_same(fg, [a, b], outputs, np.array([0.5, 2.0]), np.array([3.0]))


def test_dtype_change_is_not_inplace() -> None:
    x = lt.tensor("int32", (3,), name="x")
    outputs = [lt.exp(x * 2)]  # int32 -> float64
    fg = inplace([x], outputs)
    assert not destroyers(fg)
    check_same(fg, [x], outputs, np.array([1, -2, 3], dtype="int32"))


def test_set_subtensor_updates_a_fresh_buffer_in_place() -> None:
    x = lt.tensor("float64", (4,), name="x")
    b = x * 2.0
    outputs = [lt.set_subtensor(b[1:3], 0.0), lt.inc_subtensor((x + 1.0)[::2], 5.0)]
    fg = inplace([x], outputs)
    kinds = {type(n.op) for n in destroyers(fg)}
    assert IncSubtensor in kinds
    assert all(n.op.inplace for n in fg.apply_nodes if isinstance(n.op, IncSubtensor))
    check_same(fg, [x], outputs, np.array([1.0, 2.0, 3.0, 4.0]))


def test_set_subtensor_of_an_input_copies() -> None:
    x = lt.tensor("float64", (4,), name="x")
    outputs = [lt.set_subtensor(x[0], 1.0)]
    fg = inplace([x], outputs)
    assert not destroyers(fg)
    check_same(fg, [x], outputs, np.zeros(4))


def test_set_subtensor_reading_its_own_buffer_is_not_inplace() -> None:
    x = lt.tensor("float64", (4,), name="x")
    b = lt.exp(x)
    outputs = [lt.set_subtensor(b[1:], b[:-1])]
    fg = inplace([x], outputs)
    assert not any(isinstance(n.op, IncSubtensor) and n.op.inplace for n in fg.apply_nodes)
    check_same(fg, [x], outputs, np.array([1.0, 2.0, 3.0, 4.0]))


def test_default_pipeline_is_inplace_and_excluding_the_tag_removes_it() -> None:
    x = lt.tensor("float64", (3, 4), name="x")
    y = lt.tensor("float64", (4,), name="y")
    s = lt.sum(lt.exp(x), axis=0)
    out = lt.set_subtensor((s * y)[0], 0.0) + lt.sin(y)
    fn = lazygraph.function([x, y], out, mode=PYTHON)
    assert any(n.op.destroy_map for n in fn.fgraph.apply_nodes)
    plain = lazygraph.function([x, y], out, mode=PYTHON.excluding("inplace"))
    assert not any(n.op.destroy_map for n in plain.fgraph.apply_nodes)
    x_val, y_val = RNG.standard_normal((3, 4)), RNG.standard_normal(4)
    expected = np.exp(x_val).sum(0) * y_val
    expected[0] = 0.0
    expected += np.sin(y_val)
    for _ in range(2):
        assert_numpy_equal(fn(x_val, y_val), expected)
        assert_numpy_equal(plain(x_val, y_val), expected)


def test_constants_are_never_destroyed() -> None:
    x = lt.tensor("float64", (3,), name="x")
    c = lt.constant(np.array([1.0, 2.0, 3.0]))
    outputs = [lt.exp(c) * x, lt.sin(c + x)]
    fg = inplace([x], outputs)
    for node in destroyers(fg):
        for ins in node.op.destroy_map.values():
            assert all(node.inputs[i] is not c for i in ins)
    check_same(fg, [x], outputs, np.array([0.1, 0.2, 0.3]))
    assert isinstance(fg.outputs[0].owner.op, Elemwise)

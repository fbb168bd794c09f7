"""The ``fusion`` stage: which nodes are fused (structure) and that fused graphs
compute numpy's values, dtypes and shapes, including broadcasting, several
readers of one node, reductions of fused results and long chains."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.backends import get_backend
from lazygraph.compile.mode import Mode
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting import trace_rewrites
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.fused import FusedReduce
from lazygraph.tensor.reduction import Reduce
from lazygraph.tensor.rewriting.fusion import FusionOptimizer
from lazygraph.tensor.scalar import Composite
from tests.tensor.harness import assert_numpy_equal


def fused(inputs: list[Any], outputs: list[Any], **kw: Any) -> FunctionGraph:
    fg = FunctionGraph(inputs, outputs)
    FusionOptimizer(**kw).rewrite(fg)
    fg.check_integrity()
    return fg


def evaluate(fg: FunctionGraph, *values: Any) -> list[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(get_backend("python").compile(fg)(*values))


def unfused(inputs: list[Any], outputs: list[Any], *values: Any) -> list[Any]:
    return evaluate(FunctionGraph(inputs, outputs), *values)


def ops(fg: FunctionGraph) -> list[Any]:
    return [n.op for n in fg.toposort()]


def composites(fg: FunctionGraph) -> list[Composite]:
    return [
        op.scalar_op
        for op in ops(fg)
        if isinstance(op, Elemwise | FusedReduce) and isinstance(op.scalar_op, Composite)
    ]


def check_same(fg: FunctionGraph, inputs: list[Any], outputs: list[Any], *values: Any) -> None:
    for got, want in zip(evaluate(fg, *values), unfused(inputs, outputs, *values), strict=True):
        assert_numpy_equal(got, want, signed_zeros=True)


RNG = np.random.default_rng(0)


def test_chain_becomes_one_composite() -> None:
    x = lt.tensor("float64", (4,), name="x")
    outputs = [lt.exp(x * 2.0) + 1.0]
    fg = fused([x], outputs)
    assert len(ops(fg)) == 1 and len(composites(fg)) == 1
    assert str(fg.outputs[0].owner.op) == "Elemwise{Composite{add(exp(multiply(i0, 2.0)), 1.0)}}"
    data = np.array([0.0, -np.inf, np.nan, 800.0])
    check_same(fg, [x], outputs, data)


def test_two_inputs_broadcasting_and_mixed_dtypes() -> None:
    x = lt.tensor("int8", (3, 1), name="x")
    y = lt.tensor("float32", (4,), name="y")
    outputs = [lt.tanh(x * y) - lt.abs(y)]
    fg = fused([x, y], outputs)
    assert len(ops(fg)) == 1
    assert fg.outputs[0].type == outputs[0].type
    x_val = np.array([[-128], [0], [127]], dtype="int8")
    y_val = np.array([1.5, -0.0, np.inf, np.nan], dtype="float32")
    check_same(fg, [x, y], outputs, x_val, y_val)
    (got,) = evaluate(fg, x_val, y_val)
    with np.errstate(all="ignore"):
        expected = np.tanh(x_val * y_val) - np.abs(y_val)
    assert_numpy_equal(got, expected)


def test_shared_node_stays_an_output_of_the_fused_node() -> None:
    x = lt.tensor("float64", (2, 3), name="x")
    e = lt.exp(x)
    outputs = [lt.log1p(e) * 3.0, e, e - 1.0]
    fg = fused([x], outputs)
    elemwise = [op for op in ops(fg) if isinstance(op, Elemwise)]
    # one composite computing both e and log1p(e) * 3; e - 1 reads e
    assert len(elemwise) == 2
    (comp,) = composites(fg)
    assert comp.nout == 2
    check_same(fg, [x], outputs, RNG.standard_normal((2, 3)))


def test_exported_node_of_smaller_shape_is_not_fused_into_a_broadcast() -> None:
    x = lt.tensor("float64", (3,), name="x")
    y = lt.tensor("float64", (2, 3), name="y")
    e = lt.exp(x)
    outputs = [e * y, e]  # e is a (3,) output: computing it in (2, 3) would be wrong
    fg = fused([x, y], outputs)
    assert not composites(fg)
    assert [o.type.shape for o in fg.outputs] == [(2, 3), (3,)]
    check_same(fg, [x, y], outputs, RNG.standard_normal(3), RNG.standard_normal((2, 3)))


def test_unknown_sizes_fuse_a_single_output_group() -> None:
    x, y = lt.dvector("x"), lt.dvector("y")
    outputs = [lt.sin(x) + lt.cos(y)]
    fg = fused([x, y], outputs)
    assert len(ops(fg)) == 1
    # run-time broadcasting of unknown sizes still works
    check_same(fg, [x, y], outputs, np.array([0.5]), np.array([1.0, 2.0, 3.0]))
    check_same(fg, [x, y], outputs, np.zeros(0), np.zeros(1))


def test_no_cycle_through_an_outside_reader() -> None:
    x = lt.tensor("float64", (3,), name="x")
    a = lt.exp(x)
    total = lt.max(a)  # reads a, outside the group of the add
    outputs = [(a + total) * 2.0]
    fg = fused([x], outputs)
    fg.toposort()  # raises on a cycle
    assert any(isinstance(op, Reduce) for op in ops(fg))
    check_same(fg, [x], outputs, np.array([1.0, -2.0, np.nan]))


def test_sum_of_exp_of_shifted_is_one_fused_reduce() -> None:
    x = lt.tensor("float64", (3, 5), name="x")
    m = lt.max(x, axis=1, keepdims=True)
    outputs = [lt.sum(lt.exp(x - m), axis=1)]
    fg = fused([x], outputs)
    (node,) = [n for n in fg.apply_nodes if isinstance(n.op, FusedReduce)]
    assert node.op.kind == "sum" and node.op.axis == (1,)
    assert str(node.op.scalar_op) == "Composite{exp(subtract(i0, i1))}"
    x_val = RNG.standard_normal((3, 5))
    x_val[0, 0] = np.inf
    check_same(fg, [x], outputs, x_val)
    (got,) = evaluate(fg, x_val)
    with np.errstate(all="ignore"):
        expected = np.exp(x_val - x_val.max(1, keepdims=True)).sum(1)
    assert_numpy_equal(got, expected)


@pytest.mark.parametrize("kind", ["sum", "prod", "max", "min", "all", "any"])
def test_each_fusable_reduction(kind: str) -> None:
    x = lt.tensor("float32", (4, 3), name="x")
    inner = lt.sin(x) * 2.0 if kind not in ("all", "any") else lt.greater(lt.sin(x), 0.5)
    outputs = [getattr(lt, kind)(inner, axis=0, keepdims=True)]
    fg = fused([x], outputs)
    assert [type(op) for op in ops(fg)] == [FusedReduce]
    check_same(fg, [x], outputs, RNG.standard_normal((4, 3)).astype("float32"))


def test_integer_sum_keeps_numpy_accumulation_dtype() -> None:
    x = lt.tensor("int8", (50,), name="x")
    outputs = [lt.sum(x * x)]  # int8 products wrap; the sum accumulates in int64
    fg = fused([x], outputs)
    assert isinstance(fg.outputs[0].owner.op, FusedReduce)
    x_val = np.full(50, 100, dtype="int8")
    (got,) = evaluate(fg, x_val)
    with np.errstate(all="ignore"):
        assert_numpy_equal(got, np.sum(x_val * x_val))


def test_reduction_of_a_shared_result_is_not_fused() -> None:
    x = lt.tensor("float64", (3,), name="x")
    e = lt.exp(x)
    outputs = [lt.sum(e), e]
    fg = fused([x], outputs)
    assert not any(isinstance(op, FusedReduce) for op in ops(fg))
    check_same(fg, [x], outputs, RNG.standard_normal(3))


def test_max_inputs_caps_a_group() -> None:
    xs = [lt.tensor("float64", (2,), name=f"x{i}") for i in range(6)]
    out = xs[0]
    for v in xs[1:]:
        out = lt.sin(out) + v
    fg = fused(xs, [out], max_inputs=3)
    assert all(op.scalar_op.nin <= 3 for op in ops(fg))
    assert len(ops(fg)) > 1
    check_same(fg, xs, [out], *[RNG.standard_normal(2) for _ in xs])


def test_constants_that_broadcast_are_inputs() -> None:
    x = lt.tensor("float64", (3,), name="x")
    c = lt.constant(np.array([[1.0], [2.0]]))
    outputs = [lt.exp(x) * c + 1.0]
    fg = fused([x], outputs)
    assert len(ops(fg)) == 1 and fg.outputs[0].type.shape == (2, 3)
    check_same(fg, [x], outputs, np.array([0.0, 1.0, -1.0]))


def test_long_chain_fuses_into_bounded_nodes() -> None:
    # 10,000 ops fuse into chunks of at most max_nodes (128) ops each, and the
    # periodic chain's chunks repeat: few distinct kernels to compile
    x = lt.tensor("float64", (5,), name="x")
    y = x
    for i in range(10_000):
        y = lt.sin(y) if i % 3 == 0 else (y * 0.5 if i % 3 == 1 else y + x)
    fg = fused([x], [y])
    sizes = [len(node.op.scalar_op.nodes) for node in fg.apply_nodes]
    assert sum(sizes) == 10_000 and max(sizes) <= 128
    assert len(fg.apply_nodes) == -(-10_000 // 128)
    assert len({node.op for node in fg.apply_nodes}) <= 5
    x_val = RNG.standard_normal(5)
    (got,) = evaluate(fg, x_val)
    expected = x_val
    for i in range(10_000):
        expected = (
            np.sin(expected) if i % 3 == 0 else (expected * 0.5 if i % 3 == 1 else expected + x_val)
        )
    assert_numpy_equal(got, expected)


def test_default_pipeline_fuses_and_traces() -> None:
    x = lt.tensor("float64", (4,), name="x")
    with trace_rewrites() as records:
        fn = lazygraph.function([x], lt.exp(x) * lt.sin(x) + 1.0, mode=Mode(backend="python"))
    assert "elemwise_fusion" in [r.rewriter for r in records]
    assert len(fn.fgraph.apply_nodes) == 1
    x_val = RNG.standard_normal(4)
    assert_numpy_equal(fn(x_val), np.exp(x_val) * np.sin(x_val) + 1.0)
    no_fusion = lazygraph.function(
        [x], lt.exp(x) * lt.sin(x) + 1.0, mode=Mode(backend="python").excluding("fusion")
    )
    assert not any(isinstance(n.op.scalar_op, Composite) for n in no_fusion.fgraph.apply_nodes)

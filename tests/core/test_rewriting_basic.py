"""Node rewriters, walking navigators, patterns, error handling and tracing."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from lazygraph import config
from lazygraph.graph import Apply, Feature, FunctionGraph, InconsistencyError, as_string
from lazygraph.rewriting import (
    NodeRewriter,
    OpKeyGraphRewriter,
    PatternNodeRewriter,
    RewriteWarning,
    SequentialGraphRewriter,
    SequentialNodeRewriter,
    WalkingGraphRewriter,
    in2out,
    local_optimizer,
    node_rewriter,
    out2in,
    trace_rewrites,
)
from lazygraph.rewriting.basic import GraphRewriter
from tests.core.scalar_ops import Binary, add, constant, div, double, identity, mul, neg, sub


def printed(fg: FunctionGraph) -> list[str]:
    return as_string(fg.inputs, fg.outputs)


@node_rewriter([mul])
def mul_by_one(fgraph: FunctionGraph, node: Apply) -> Any:
    """mul(x, 1) -> x"""
    x, one = node.inputs
    if getattr(one, "data", None) == 1.0:
        return [x]
    return None


@node_rewriter([Binary])
def sub_self(fgraph: FunctionGraph, node: Apply) -> Any:
    """sub(x, x) -> 0, answered as a dict"""
    if node.op == sub and node.inputs[0] is node.inputs[1]:
        return {node.outputs[0]: constant(0.0)}
    return None


def test_node_rewriter_decorator() -> None:
    assert mul_by_one.name == "mul_by_one"
    assert mul_by_one.tracks() == [mul]
    assert mul_by_one.__doc__ == "mul(x, 1) -> x"
    assert local_optimizer is node_rewriter
    with pytest.raises(TypeError):
        node_rewriter(mul)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        node_rewriter(["mul"])  # type: ignore[list-item]


def test_list_and_dict_answers() -> None:
    x = double("x")
    fg = FunctionGraph([x], [add(mul(x, 1.0), sub(x, x))])
    in2out(mul_by_one, sub_self).rewrite(fg)
    assert printed(fg) == ["add(x, 0.0)"]
    fg.check_integrity()


def test_tracks_filter_nodes() -> None:
    seen: list[str] = []

    @node_rewriter([div])
    def spy(fgraph: FunctionGraph, node: Apply) -> None:
        seen.append(str(node.op))

    x = double("x")
    fg = FunctionGraph([x], [add(div(x, x), mul(x, x))])
    WalkingGraphRewriter(spy).rewrite(fg)
    assert seen == ["div"]


def test_walk_orders_and_new_nodes() -> None:
    order: list[str] = []

    @node_rewriter(None)
    def log(fgraph: FunctionGraph, node: Apply) -> None:
        order.append(str(node.op))

    x = double("x")
    fg = FunctionGraph([x], [neg(mul(add(x, x), x))])
    in2out(log).rewrite(fg)
    assert order == ["add", "mul", "neg"]
    order.clear()
    out2in(log).rewrite(fg)
    assert order == ["neg", "mul", "add"]

    @node_rewriter([neg])
    def neg_to_sub(fgraph: FunctionGraph, node: Apply) -> list[Any]:
        """neg(x) -> sub(0, x), then mul_by_one sees the new node too"""
        return [sub(constant(0.0), mul(node.inputs[0], 1.0))]

    y = double("y")
    fg = FunctionGraph([y], [neg(y)])
    in2out(neg_to_sub, mul_by_one).rewrite(fg)
    assert printed(fg) == ["sub(0.0, y)"]


def test_opkey_rewriter() -> None:
    x = double("x")
    fg = FunctionGraph([x], [add(mul(x, 1.0), mul(mul(x, 1.0), 1.0))])
    rewriter = OpKeyGraphRewriter(mul_by_one)
    assert rewriter.ops() == [mul]
    rewriter.rewrite(fg)
    assert printed(fg) == ["add(x, x)"]


def test_pattern_constants_and_constraints() -> None:
    x, y = double("x"), double("y")
    times_one = PatternNodeRewriter((mul, "x", 1.0), "x")
    assert times_one.name == "mul(x, 1.0) -> x"
    fg = FunctionGraph([x, y], [add(mul(x, 1.0), mul(y, 2.0))])
    in2out(times_one).rewrite(fg)
    assert printed(fg) == ["add(x, mul(y, 2.0))"]

    positive_const = {
        "pattern": "c",
        "constraint": lambda v: getattr(v, "data", -1.0) > 0,
    }
    double_it = PatternNodeRewriter((add, "x", positive_const), (mul, "x", 2.0), name="add_c")
    assert double_it.name == "add_c"
    fg = FunctionGraph([x], [sub(add(x, 3.0), add(x, -3.0))])
    in2out(double_it).rewrite(fg)
    assert printed(fg) == ["sub(mul(x, 2.0), add(x, -3.0))"]


def test_pattern_repeated_names_and_multiple_clients() -> None:
    x, y = double("x"), double("y")
    # (x - x) -> 0 needs both inputs to be the same variable.
    sub_same = PatternNodeRewriter((sub, "x", "x"), 0.0)
    fg = FunctionGraph([x, y], [add(sub(x, x), sub(x, y))])
    in2out(sub_same).rewrite(fg)
    assert printed(fg) == ["add(0.0, sub(x, y))"]

    # An inner node read elsewhere is not matched unless allowed.
    neg_neg = PatternNodeRewriter((neg, (neg, "x")), "x")
    inner = neg(x)
    fg = FunctionGraph([x], [neg(inner), inner])
    in2out(neg_neg).rewrite(fg)
    assert printed(fg) == ["neg(*1 -> neg(x))", "*1"]
    permissive = PatternNodeRewriter((neg, (neg, "x")), "x", allow_multiple_clients=True)
    in2out(permissive).rewrite(fg)
    assert printed(fg) == ["x", "neg(x)"]


def test_pattern_with_op_class() -> None:
    x, y = double("x"), double("y")
    same_args = PatternNodeRewriter((Binary, "x", "x"), (neg, "x"))
    fg = FunctionGraph([x, y], [sub(div(x, x), mul(y, y))])
    in2out(same_args).rewrite(fg)
    assert printed(fg) == ["sub(neg(x), neg(y))"]


def test_walk_that_never_settles_stops_with_a_warning() -> None:
    grows = PatternNodeRewriter((Binary, "x", "x"), (add, "x", "x"))  # add(x, x) matches again
    x = double("x")
    fg = FunctionGraph([x], [mul(x, x)])
    with pytest.warns(RewriteWarning, match="stopped"):
        in2out(grows).rewrite(fg)
    assert printed(fg) == ["add(x, x)"]


class Broken(NodeRewriter):
    def transform(self, fgraph: FunctionGraph, node: Apply) -> Any:
        raise RuntimeError("boom")


class WrongLength(NodeRewriter):
    def transform(self, fgraph: FunctionGraph, node: Apply) -> Any:
        return [node.inputs[0], node.inputs[0]]


class WrongType(NodeRewriter):
    def transform(self, fgraph: FunctionGraph, node: Apply) -> Any:
        return ["not a variable"]


@pytest.mark.parametrize("bad", [Broken(), WrongLength(), WrongType()])
def test_failing_rewrite_is_skipped_with_a_warning(bad: NodeRewriter) -> None:
    x = double("x")
    fg = FunctionGraph([x], [add(mul(x, 1.0), x)])
    with config.change(on_rewrite_error="warn"), pytest.warns(RewriteWarning) as caught:
        in2out(bad, mul_by_one).rewrite(fg)
    assert type(bad).__name__ in str(caught[0].message)
    # The rewriters after it still ran, and the graph is right.
    assert printed(fg) == ["add(x, x)"]
    fg.check_integrity()


def test_failing_rewrite_raises_when_asked() -> None:
    x = double("x")
    fg = FunctionGraph([x], [neg(x)])
    with config.change(on_rewrite_error="raise"), pytest.raises(RuntimeError, match="boom"):
        in2out(Broken()).rewrite(fg)


def test_failing_graph_rewriter_in_a_sequence() -> None:
    class Explodes(GraphRewriter):
        def apply(self, fgraph: FunctionGraph) -> None:
            raise ValueError("global boom")

    x = double("x")
    fg = FunctionGraph([x], [mul(x, 1.0)])
    seq = SequentialGraphRewriter(Explodes(), in2out(mul_by_one))
    with config.change(on_rewrite_error="warn"), pytest.warns(RewriteWarning, match="Explodes"):
        seq.rewrite(fg)
    assert printed(fg) == ["x"]


class Veto(Feature):
    """Rejects any graph in which an identity node appears."""

    def validate(self, fgraph: FunctionGraph) -> None:
        if any(n.op == identity for n in fgraph.apply_nodes):
            raise InconsistencyError("identity is not allowed")


def test_vetoed_rewrite_is_reverted_and_skipped() -> None:
    @node_rewriter([neg])
    def neg_to_identity(fgraph: FunctionGraph, node: Apply) -> list[Any]:
        return [identity(mul(node.inputs[0], -1.0))]

    x = double("x")
    fg = FunctionGraph([x], [neg(x)])
    fg.attach_feature(Veto())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a veto is not an error: no warning
        in2out(neg_to_identity).rewrite(fg)
    assert printed(fg) == ["neg(x)"]
    fg.check_integrity()


def test_trace_and_print_rewrites(capsys: pytest.CaptureFixture[str]) -> None:
    x = double("x")
    fg = FunctionGraph([x], [add(mul(x, 1.0), sub(x, x))])
    with trace_rewrites() as records, config.change(print_rewrites=True):
        in2out(mul_by_one, sub_self).rewrite(fg)
    assert [tuple(r) for r in records] == [
        ("mul_by_one", "mul(x, 1.0)", "[x]"),
        ("sub_self", "sub(x, x)", "[0.0]"),
    ]
    out = capsys.readouterr().out
    assert "rewrite mul_by_one: mul(x, 1.0) -> [x]" in out
    assert "rewrite sub_self: sub(x, x) -> [0.0]" in out


def test_sequential_node_rewriter_tracks() -> None:
    seq = SequentialNodeRewriter(mul_by_one, sub_self)
    assert seq.tracks() == [mul, Binary]
    assert SequentialNodeRewriter(mul_by_one, Broken()).tracks() is None


def test_rewrite_returns_nothing_like_theano() -> None:
    x = double("x")
    fg = FunctionGraph([x], [mul(x, 1.0)])
    assert in2out(mul_by_one).optimize(fg) is None
    assert printed(fg) == ["x"]

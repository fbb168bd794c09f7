"""EquilibriumGraphRewriter: a fixpoint, reached by revisiting only touched nodes, and a
guard that stops rewrites undoing each other."""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazygraph.graph import Apply, FunctionGraph, as_string
from lazygraph.rewriting import (
    EquilibriumGraphRewriter,
    GraphRewriter,
    MergeOptimizer,
    PatternNodeRewriter,
    RewriteWarning,
    in2out,
    node_rewriter,
    trace_rewrites,
)
from lazygraph.rewriting.basic import apply_node_rewriter
from tests.core.scalar_ops import add, div, double, evaluate, mul, neg, random_dag, sub

# A small algebra: each rule reads like the identity it implements.
mul_x_1 = PatternNodeRewriter((mul, "x", 1.0), "x")
mul_1_x = PatternNodeRewriter((mul, 1.0, "x"), "x")
add_x_0 = PatternNodeRewriter((add, "x", 0.0), "x")
add_0_x = PatternNodeRewriter((add, 0.0, "x"), "x")
sub_x_x = PatternNodeRewriter((sub, "x", "x"), 0.0)
div_mul_y_y = PatternNodeRewriter((div, (mul, "x", "y"), "y"), "x")
neg_neg = PatternNodeRewriter((neg, (neg, "x")), "x")
sub_to_add_neg = PatternNodeRewriter((sub, "x", (neg, "y")), (add, "x", "y"))
ALGEBRA = [mul_x_1, mul_1_x, add_x_0, add_0_x, sub_x_x, div_mul_y_y, neg_neg, sub_to_add_neg]
# The rules that are exact in floating point whenever the result is finite.
EXACT = [r for r in ALGEBRA if r is not div_mul_y_y]


def printed(fg: FunctionGraph) -> list[str]:
    return as_string(fg.inputs, fg.outputs)


def test_cascading_rewrites_reach_the_fixpoint() -> None:
    x, y = double("x"), double("y")
    # sub(x, x) -> 0, then add(., 0) -> ., then mul(., 1) -> ., then neg(neg(.)) -> .
    e = neg(neg(mul(add(div(mul(y, x), x), sub(x, x)), 1.0)))
    fg = FunctionGraph([x, y], [e])
    rewriter = EquilibriumGraphRewriter(ALGEBRA)
    rewriter.rewrite(fg)
    assert printed(fg) == ["y"]
    assert rewriter.last_stats["stopped"] is False
    fg.check_integrity()


def test_only_touched_nodes_are_revisited() -> None:
    x = double("x")
    # A long chain that nothing matches, plus one rewrite at the top.
    v = x
    for _ in range(200):
        v = add(v, x)
    fg = FunctionGraph([x], [mul(v, 1.0)])
    rewriter = EquilibriumGraphRewriter(ALGEBRA, final_sweep=False)
    rewriter.rewrite(fg)
    assert rewriter.last_stats["applied"] == {"mul(x, 1.0) -> x": 1}
    # One sweep (201 nodes) plus the few nodes the rewrite touched, not a second sweep.
    assert rewriter.last_stats["nodes_visited"] < 210


def test_global_rewriters_take_part() -> None:
    x, y = double("x"), double("y")
    # div(mul(add(x, y), y), y) needs merge before div_mul_y_y applies... and the
    # result mul(add(x,y),1) needs mul_x_1 afterwards.
    e = mul(div(mul(add(x, y), add(x, y)), add(x, y)), 1.0)
    fg = FunctionGraph([x, y], [e])
    rewriter = EquilibriumGraphRewriter([*ALGEBRA, MergeOptimizer()])
    rewriter.rewrite(fg)
    assert printed(fg) == ["add(x, y)"]


def test_oscillation_guard_warns_and_stops() -> None:
    # Two rules that undo each other: a + b -> b + a, and back.
    @node_rewriter([add])
    def commute(fgraph: FunctionGraph, node: Apply) -> Any:
        a, b = node.inputs
        return [add(b, a)]

    x, y = double("x"), double("y")
    fg = FunctionGraph([x, y], [mul(add(x, y), y)])
    rewriter = EquilibriumGraphRewriter([commute], max_use_ratio=4)
    with pytest.warns(RewriteWarning, match="commute was applied"):
        rewriter.rewrite(fg)
    assert rewriter.last_stats["stopped"] is True
    # The graph is still right, just not at a fixpoint.
    assert evaluate(fg.inputs, fg.outputs, [2.0, 3.0]) == [15.0]
    fg.check_integrity()


def test_rounds_guard_for_graph_rewriters() -> None:
    class AlwaysChanges(GraphRewriter):
        def apply(self, fgraph: FunctionGraph) -> int:
            out = fgraph.outputs[0]
            fgraph.replace(out, add(out, 0.0))
            return 1

    x = double("x")
    fg = FunctionGraph([x], [mul(x, 2.0)])
    rewriter = EquilibriumGraphRewriter([add_x_0], global_rewriters=[AlwaysChanges()], max_rounds=5)
    with pytest.warns(RewriteWarning, match="did not settle"):
        rewriter.rewrite(fg)


def test_equilibrium_trace() -> None:
    x = double("x")
    fg = FunctionGraph([x], [neg(neg(mul(x, 1.0)))])
    with trace_rewrites() as records:
        EquilibriumGraphRewriter(ALGEBRA).rewrite(fg)
    assert [r.rewriter for r in records] == ["mul(x, 1.0) -> x", "neg(neg(x)) -> x"]
    assert records[0].node == "mul(x, 1.0)" and records[0].replacement == "[x]"


def no_rule_applies(fg: FunctionGraph) -> bool:
    return not any(
        apply_node_rewriter(fg, rule, node) for node in fg.toposort() for rule in ALGEBRA
    )


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(1, 50),
    const_prob=st.floats(0.0, 0.5),
    values=st.lists(st.sampled_from([1.5, -0.5, 0.0, 2.0, 1.0]), min_size=2, max_size=2),
)
def test_equilibrium_reaches_a_fixpoint(
    seed: int, n: int, const_prob: float, values: list[float]
) -> None:
    inputs, outputs = random_dag(n, n_inputs=2, seed=seed, const_prob=const_prob, window=4)
    fg = FunctionGraph(inputs, outputs)
    MergeOptimizer().apply(fg)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RewriteWarning)  # no guard, no failing rewrite
        EquilibriumGraphRewriter(ALGEBRA).rewrite(fg)
    fg.check_integrity()
    # Nothing left to do: a fresh pass over every node with every rule changes nothing.
    assert no_rule_applies(fg)

    exact = FunctionGraph(inputs, outputs)
    EquilibriumGraphRewriter(EXACT).rewrite(exact)
    expected = evaluate(inputs, outputs, values)
    got = evaluate(exact.inputs, exact.outputs, values)
    for e, g in zip(expected, got, strict=True):
        if math.isfinite(e):
            assert e == g


def test_rewriters_in_a_walk_and_in_equilibrium_agree() -> None:
    x, y = double("x"), double("y")
    e = add(sub(div(mul(x, y), y), x), mul(y, 1.0))
    walked = FunctionGraph([x, y], [e])
    in2out(*ALGEBRA).rewrite(walked)
    settled = FunctionGraph([x, y], [e])
    EquilibriumGraphRewriter(ALGEBRA).rewrite(settled)
    assert printed(walked) == printed(settled) == ["y"]

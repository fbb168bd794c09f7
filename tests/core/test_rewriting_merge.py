"""MergeOptimizer: identical nodes and equal constants merged in one pass, idempotently,
without changing what the graph computes."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazygraph.graph import Feature, FunctionGraph, InconsistencyError, ReplaceValidate, as_string
from lazygraph.rewriting import MergeOptimizer, merge_optimizer, trace_rewrites
from tests.core.scalar_ops import add, constant, double, evaluate, mul, neg, random_dag, sub


def same_values(a: list[float], b: list[float]) -> bool:
    return all((math.isnan(u) and math.isnan(v)) or u == v for u, v in zip(a, b, strict=True))


def duplicate_keys(fg: FunctionGraph) -> list[tuple[object, ...]]:
    """Nodes with an equal op on identical inputs, and equal constants: what merge removes."""
    keys = Counter((n.op, *map(id, n.inputs)) for n in fg.apply_nodes)
    consts = Counter(
        (v.type, v.data) for v in fg.variables if v.owner is None and v not in fg.inputs
    )
    return [k for k, n in keys.items() if n > 1] + [k for k, n in consts.items() if n > 1]


def test_merges_identical_nodes_and_cascades() -> None:
    x, y = double("x"), double("y")
    # Two copies of a three-level expression: one pass must merge all levels.
    left = mul(neg(add(x, y)), sub(add(x, y), x))
    right = mul(neg(add(x, y)), sub(add(x, y), x))
    fg = FunctionGraph([x, y], [add(left, right)])
    assert len(fg.apply_nodes) == 11
    merged = MergeOptimizer().apply(fg)
    assert merged == 6
    assert len(fg.apply_nodes) == 5
    assert as_string(fg.inputs, fg.outputs) == [
        "add(*1 -> mul(neg(*2 -> add(x, y)), sub(*2, x)), *1)"
    ]
    fg.check_integrity()


def test_merges_equal_constants() -> None:
    x = double("x")
    fg = FunctionGraph([x], [add(mul(x, constant(2.0)), mul(x, constant(2.0)))])
    merge_optimizer.rewrite(fg)
    assert len(fg.apply_nodes) == 2
    consts = [v for v in fg.variables if v.owner is None and v not in fg.inputs]
    assert len(consts) == 1
    fg.check_integrity()


def test_keeps_different_constants_and_ops_apart() -> None:
    x = double("x")
    fg = FunctionGraph([x], [add(mul(x, 2.0), mul(x, 3.0)), add(x, 1.0), sub(x, 1.0)])
    before = len(fg.apply_nodes)
    merge_optimizer.rewrite(fg)
    assert len(fg.apply_nodes) == before


def test_merges_outputs() -> None:
    x, y = double("x"), double("y")
    fg = FunctionGraph([x, y], [add(x, y), add(x, y)])
    merge_optimizer.rewrite(fg)
    assert fg.outputs[0] is fg.outputs[1]
    assert sorted(fg.clients[fg.outputs[0]], key=str) == [("output", 0), ("output", 1)]
    fg.check_integrity()


def test_merge_is_traced() -> None:
    x, y = double("x"), double("y")
    fg = FunctionGraph([x, y], [mul(add(x, y), add(x, y))])
    with trace_rewrites() as records:
        MergeOptimizer().rewrite(fg)
    assert [(r.rewriter, r.node, r.replacement) for r in records] == [
        ("MergeOptimizer", "add(x, y)", "[add(x, y)]")
    ]


class VetoEverything(Feature):
    def validate(self, fgraph: FunctionGraph) -> None:
        raise InconsistencyError("no")


def test_merge_respects_a_veto() -> None:
    x, y = double("x"), double("y")
    fg = FunctionGraph([x, y], [mul(add(x, y), add(x, y))])
    fg.attach_feature(ReplaceValidate())
    fg.attach_feature(VetoEverything())
    merge_optimizer.rewrite(fg)
    assert len(fg.apply_nodes) == 3
    fg.check_integrity()


dags = st.builds(
    random_dag,
    n_nodes=st.integers(0, 60),
    n_inputs=st.integers(1, 4),
    seed=st.integers(0, 2**32),
    dup_prob=st.floats(0, 0.6),
    const_prob=st.floats(0, 0.3),
    window=st.sampled_from([None, 2, 8]),
    n_outputs=st.integers(1, 3),
)


@settings(max_examples=150, deadline=None)
@given(dag=dags, values=st.lists(st.sampled_from([0.0, 1.0, -2.0, 0.5, 3.0]), min_size=4))
def test_merge_properties(dag: tuple[list, list], values: list[float]) -> None:
    inputs, outputs = dag
    values = values[: len(inputs)] + [1.0] * (len(inputs) - len(values))
    expected = evaluate(inputs, outputs, values)

    fg = FunctionGraph(inputs, outputs)
    MergeOptimizer().apply(fg)
    fg.check_integrity()
    # Cascading merges are complete after one pass...
    assert duplicate_keys(fg) == []
    # ...the graph computes the same thing...
    assert same_values(evaluate(fg.inputs, fg.outputs, values), expected)
    # ...and merging again changes nothing.
    printed = as_string(fg.inputs, fg.outputs)
    nodes = set(fg.apply_nodes)
    assert MergeOptimizer().apply(fg) == 0
    assert set(fg.apply_nodes) == nodes
    assert as_string(fg.inputs, fg.outputs) == printed


@pytest.mark.parametrize("seed", range(3))
def test_merge_then_compile_gives_same_answers(seed: int) -> None:
    from lazygraph.compile.function import function

    inputs, outputs = random_dag(200, n_inputs=3, seed=seed, dup_prob=0.4)
    args = [0.5, -1.5, 2.0]
    raw = function(inputs, outputs, rewrite=False)(*args)
    merged = function(inputs, outputs)(*args)  # the default pipeline merges
    assert same_values(merged, raw)

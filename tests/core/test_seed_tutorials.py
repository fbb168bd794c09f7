"""The seed tutorials' examples (Theano's "Graph Structures" and "Graph optimization"),
with lazygraph's names: explicit graph construction, a global ``Simplify`` rewriter,
merge, the same rewrite as a local rewriter and as patterns, optdb-style databases
and queries, and clients."""

from __future__ import annotations

from typing import Any

import pytest

from lazygraph.compile.function import function
from lazygraph.graph import Apply, FunctionGraph, ReplaceValidate, Variable, as_string
from lazygraph.rewriting import (
    EquilibriumDB,
    GraphRewriter,
    LocalOptimizer,
    MergeOptimizer,
    NodeRewriter,
    OpRemove,
    OpSub,
    Optimizer,
    PatternNodeRewriter,
    PatternSub,
    Query,
    RemovalNodeRewriter,
    RewriteDatabaseQuery,
    SequenceDB,
    SubstitutionNodeRewriter,
    TopoOptimizer,
    WalkingGraphRewriter,
    merge_optimizer,
)
from tests.core.scalar_ops import add, div, double, evaluate, identity, mul


def printed(fg: FunctionGraph) -> str:
    """The tutorial's ``>>> e`` output: ``[expr, ...]``."""
    return "[" + ", ".join(as_string(fg.inputs, fg.outputs)) + "]"


# -- Graph structures: the explicit example -----------------------------------


def test_explicit_graph_construction() -> None:
    x = Variable(type=double, name="x")
    y = Variable(type=double, name="y")
    z = Variable(type=double, name="z")

    mul_variable = Variable(type=double)
    assert mul_variable.owner is None
    node_mul = Apply(op=mul, inputs=[y, z], outputs=[mul_variable])
    assert mul_variable.owner is node_mul
    assert mul_variable.index == 0

    add_variable = Variable(type=double)
    assert add_variable.owner is None
    node_add = Apply(op=add, inputs=[x, mul_variable], outputs=[add_variable])
    assert add_variable.owner is node_add
    assert add_variable.index == 0

    e = add_variable
    assert e.owner.inputs[0] is x
    assert e.owner.inputs[1] is mul_variable
    assert e.owner.inputs[1].owner.inputs[0] is y
    assert e.owner.inputs[1].owner.inputs[1] is z

    # The short way builds the same structure.
    short = add(x, mul(y, z))
    assert short.owner.op == add and short.owner.inputs[0] is x
    assert short.owner.inputs[1].owner.op == mul
    assert as_string([x, y, z], [e]) == as_string([x, y, z], [short]) == ["add(x, mul(y, z))"]


def test_clients_include_outputs() -> None:
    v = double("v")
    f = function([v], mul(add(v, 1.0), 2.0), rewrite=False)
    fg = f.fgraph
    topo = fg.toposort()
    assert [str(n.op) for n in topo] == ["add", "mul"]

    var = topo[0].outputs[0]  # an internal variable
    (client,) = fg.clients[var]
    assert client == (topo[1], 0)
    assert isinstance(client[0], Apply)
    assert client[0].inputs[client[1]] is var

    var = topo[1].outputs[0]  # an output of the graph
    (client,) = fg.clients[var]
    assert client == ("output", 0)
    assert fg.outputs[client[1]] is var
    assert f(3.0) == 8.0


# -- Graph optimization: a global rewriter ------------------------------------


class Simplify(GraphRewriter):
    """(x * y) / y -> x and (y * x) / y -> x, as in the tutorial."""

    def add_requirements(self, fgraph: FunctionGraph) -> None:
        fgraph.attach_feature(ReplaceValidate())

    def apply(self, fgraph: FunctionGraph) -> None:
        for node in fgraph.toposort():
            if node.op == div:
                x, y = node.inputs
                z = node.outputs[0]
                if x.owner and x.owner.op == mul:
                    a, b = x.owner.inputs
                    if y == a:
                        fgraph.replace_validate(z, b)
                    elif y == b:
                        fgraph.replace_validate(z, a)


simplify = Simplify()


def xyz() -> tuple[Variable, Variable, Variable]:
    return double("x"), double("y"), double("z")


def test_global_simplify() -> None:
    x, y, z = xyz()
    a = add(z, mul(div(mul(y, x), y), div(z, x)))
    e = FunctionGraph([x, y, z], [a])
    assert printed(e) == "[add(z, mul(div(mul(y, x), y), div(z, x)))]"
    simplify.optimize(e)
    assert printed(e) == "[add(z, mul(x, div(z, x)))]"
    e.check_integrity()


def test_simplify_needs_merge_first() -> None:
    x, y, z = xyz()
    a = div(mul(add(y, z), x), add(y, z))
    e = FunctionGraph([x, y, z], [a])
    assert printed(e) == "[div(mul(add(y, z), x), add(y, z))]"
    simplify.optimize(e)
    assert printed(e) == "[div(mul(add(y, z), x), add(y, z))]"  # add(y, z) != add(y, z)
    merge_optimizer.optimize(e)
    assert printed(e) == "[div(mul(*1 -> add(y, z), x), *1)]"
    simplify.optimize(e)
    assert printed(e) == "[x]"
    e.check_integrity()


def test_theano_names_are_aliases() -> None:
    assert Optimizer is GraphRewriter and LocalOptimizer is NodeRewriter
    assert TopoOptimizer is WalkingGraphRewriter and PatternSub is PatternNodeRewriter
    assert OpSub is SubstitutionNodeRewriter and OpRemove is RemovalNodeRewriter
    assert Query is RewriteDatabaseQuery


# -- The same rewrite, local --------------------------------------------------


class LocalSimplify(NodeRewriter):
    def transform(self, fgraph: FunctionGraph, node: Apply) -> Any:
        if node.op == div:
            x, y = node.inputs
            if x.owner and x.owner.op == mul:
                a, b = x.owner.inputs
                if y == a:
                    return [b]
                elif y == b:
                    return [a]
        return False

    def tracks(self) -> list[Any]:
        return [div]


local_simplify = LocalSimplify()


@pytest.mark.parametrize("order", ["in_to_out", "out_to_in"])
def test_local_simplify_under_walking_navigator(order: str) -> None:
    x, y, z = xyz()
    a = add(z, mul(div(mul(y, x), y), div(z, x)))
    e = FunctionGraph([x, y, z], [a])
    assert printed(e) == "[add(z, mul(div(mul(y, x), y), div(z, x)))]"
    navigator = TopoOptimizer(local_simplify, order=order)
    navigator.optimize(e)
    assert printed(e) == "[add(z, mul(x, div(z, x)))]"


# -- The same rewrite, as patterns; OpSub and OpRemove -------------------------

local_simplify_1 = PatternSub((div, (mul, "x", "y"), "y"), "x")
local_simplify_2 = PatternSub((div, (mul, "x", "y"), "x"), "y")


def test_pattern_pair() -> None:
    x, y, z = xyz()
    a = add(z, mul(div(mul(y, x), y), div(mul(z, x), x)))
    e = FunctionGraph([x, y, z], [a])
    WalkingGraphRewriter(local_simplify_1).optimize(e)  # (z * x) / x -> z
    assert printed(e) == "[add(z, mul(div(mul(y, x), y), z))]"
    WalkingGraphRewriter(local_simplify_2).optimize(e)  # (y * x) / y -> x
    assert printed(e) == "[add(z, mul(x, z))]"


def test_pattern_after_merge() -> None:
    x, y, z = xyz()
    e = FunctionGraph([x, y, z], [div(mul(add(y, z), x), add(y, z))])
    WalkingGraphRewriter(local_simplify_2).optimize(e)
    assert printed(e) == "[div(mul(add(y, z), x), add(y, z))]"  # not merged yet
    merge_optimizer.optimize(e)
    WalkingGraphRewriter(local_simplify_1).optimize(e)
    assert printed(e) == "[div(mul(*1 -> add(y, z), x), *1)]"  # the other permutation
    WalkingGraphRewriter(local_simplify_2).optimize(e)
    assert printed(e) == "[x]"


def test_opsub_and_opremove() -> None:
    x, y, _ = xyz()
    e = FunctionGraph([x, y], [add(identity(x), identity(add(x, y)))])
    add_to_mul = OpSub(add, mul)
    remove_identity = OpRemove(identity)
    WalkingGraphRewriter(remove_identity).optimize(e)
    assert printed(e) == "[add(x, add(x, y))]"
    WalkingGraphRewriter(add_to_mul).optimize(e)
    assert printed(e) == "[mul(x, mul(x, y))]"
    assert evaluate(e.inputs, e.outputs, [2.0, 3.0]) == [12.0]


# -- The rewrite database ------------------------------------------------------


def test_sequence_db_register_and_query() -> None:
    db = SequenceDB()
    canonicalize = EquilibriumDB()
    db.register("merge1", MergeOptimizer(), 0, "fast_run", "fast_compile", "merge")
    db.register("canonicalize", canonicalize, "fast_run", "fast_compile", position=1)
    db.register("simplify", simplify, 0.5, "fast_run")  # Theano's argument order
    canonicalize.register("local_simplify_1", local_simplify_1, "fast_run")
    canonicalize.register("local_simplify_2", local_simplify_2, "fast_run")

    def selected(query: RewriteDatabaseQuery) -> list[str]:
        return [r.name for r in db.query(query).rewriters]

    fast_run = Query(include=["fast_run"])
    assert selected(fast_run) == ["merge1", "simplify", "canonicalize"]
    assert selected(Query(include=["fast_compile"])) == ["merge1", "canonicalize"]
    assert selected(fast_run.excluding("simplify")) == ["merge1", "canonicalize"]
    assert selected(fast_run.excluding("merge")) == ["simplify", "canonicalize"]
    assert selected(Query(include=["fast_run"], require=["merge"])) == ["merge1"]
    assert db["simplify"] is simplify

    inner = db.query(fast_run.excluding("local_simplify_2")).rewriters[2]
    assert [r.name for r in inner.node_rewriters] == ["local_simplify_1"]

    # The whole pipeline does the tutorial's job on the graph that needs merging.
    x, y, z = xyz()
    e = FunctionGraph([x, y, z], [div(mul(add(y, z), x), add(y, z))])
    db.query(fast_run.excluding("simplify")).optimize(e)
    assert printed(e) == "[x]"

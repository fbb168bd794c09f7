"""Traversal, toposort, cloning and structural comparison (lazygraph.graph.traversal/clone)."""

from __future__ import annotations

import random
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazygraph.graph import (
    Apply,
    FunctionGraph,
    ancestors,
    applys_between,
    as_string,
    clone,
    clone_get_equiv,
    clone_replace,
    equal_computations,
    general_toposort,
    graph_inputs,
    inputs,
    io_connection_pattern,
    io_toposort,
    is_in_ancestors,
    is_same_graph,
    list_of_nodes,
    ops,
    orphans,
    stack_search,
    variables,
    vars_between,
    view_roots,
    walk,
)
from tests.core.graph_fixtures import (
    InplaceNeg,
    PickFirst,
    SplitOp,
    ViewOp,
    add,
    chain,
    dconst,
    double,
    dvar,
    integer,
    mul,
    neg,
    random_dag,
    sub,
)


@pytest.fixture
def diamond():  # type: ignore[no-untyped-def]
    """x, y -> a = add(x, y); b = mul(a, c); out = sub(a, b), with a constant c."""
    x, y = dvar("x"), dvar("y")
    c = dconst(2.0)
    a = add(x, y)
    b = mul(a, c)
    out = sub(a, b)
    return x, y, c, a, b, out


def test_ancestors(diamond) -> None:  # type: ignore[no-untyped-def]
    x, y, c, a, b, out = diamond
    anc = ancestors([out])
    assert anc[0] is out and set(anc) == {x, y, c, a, b, out} and len(anc) == 6
    # Depth-first, inputs left to right.
    assert anc == [out, a, x, y, b, c]
    assert set(ancestors([out], blockers=[a])) == {out, a, b, c}


def test_graph_inputs(diamond) -> None:  # type: ignore[no-untyped-def]
    x, y, c, a, _b, out = diamond
    assert graph_inputs([out]) == [x, y, c]
    assert inputs is graph_inputs
    assert set(graph_inputs([out], blockers={a})) == {a, c}


def test_variables_orphans_ops(diamond) -> None:  # type: ignore[no-untyped-def]
    x, y, c, a, b, out = diamond
    assert variables([x, y], [out]) == {x, y, c, a, b, out}
    assert set(vars_between([a], [out])) == {a, b, c, out}
    assert orphans([x, y], [out]) == [c]
    assert orphans([x], [out]) == [y, c] or set(orphans([x], [out])) == {y, c}
    assert ops([x, y], [out]) == {a.owner, b.owner, out.owner}
    assert set(applys_between([a], [out])) == {b.owner, out.owner}


def test_list_of_nodes(diamond) -> None:  # type: ignore[no-untyped-def]
    x, _y, _c, a, b, out = diamond
    z = dvar("z")
    other = add(out, neg(z))
    nodes = list_of_nodes([x], [other])
    assert set(nodes) == {a.owner, b.owner, out.owner, other.owner}
    assert neg(z).owner not in nodes


def test_io_toposort_respects_dependencies(diamond) -> None:  # type: ignore[no-untyped-def]
    x, y, _c, a, b, out = diamond
    order = io_toposort([x, y], [out])
    assert order == [a.owner, b.owner, out.owner]
    # Stops at the inputs given.
    assert io_toposort([a], [out]) == [b.owner, out.owner]


def test_io_toposort_with_orderings() -> None:
    x = dvar("x")
    p, q = neg(x), exp_like(x)
    out = add(p, q)
    plain = io_toposort([x], [out])
    assert plain.index(p.owner) < plain.index(q.owner)
    forced = io_toposort([x], [out], orderings={p.owner: [q.owner]})
    assert forced.index(q.owner) < forced.index(p.owner) < forced.index(out.owner)
    with pytest.raises(ValueError, match="cycle"):
        io_toposort([x], [out], orderings={p.owner: [out.owner]})


def exp_like(v):  # type: ignore[no-untyped-def]
    return mul(v, v)


def test_io_toposort_detects_a_corrupted_cycle() -> None:
    x = dvar("x")
    a = neg(x)
    b = neg(a)
    a.owner.inputs[0] = b  # corrupt: a <- b <- a
    with pytest.raises(ValueError, match="cycle"):
        io_toposort([x], [b])


def test_general_toposort() -> None:
    deps = {"d": ["b", "c"], "b": ["a"], "c": ["a"], "a": []}
    order = general_toposort(["d"], deps.get)
    assert order[0] == "a" and order[-1] == "d" and set(order) == set(deps)
    with pytest.raises(ValueError, match="cycle"):
        general_toposort(["x"], {"x": ["y"], "y": ["z"], "z": ["x"]}.get)
    assert general_toposort(["a", "a"], lambda n: None) == ["a"]


def test_clone(diamond) -> None:  # type: ignore[no-untyped-def]
    x, y, c, _a, _b, out = diamond
    (x2, y2), (out2,) = clone([x, y], [out])
    assert x2 is not x and x2.name == "x" and out2 is not out
    assert equal_computations([out], [out2], [x, y], [x2, y2])
    # copy_inputs=False keeps the inputs (and, by default, the orphans).
    (x3, _y3), (out3,) = clone([x, y], [out], copy_inputs=False)
    assert x3 is x and out3 is not out and c in ancestors([out3])
    _, (out4,) = clone([x, y], [out], copy_inputs=False, copy_orphans=True)
    assert c not in ancestors([out4])


def test_clone_get_equiv_options(diamond) -> None:  # type: ignore[no-untyped-def]
    x, y, c, a, _b, out = diamond
    eq = clone_get_equiv([x, y], [out])
    assert eq[x] is not x and eq[c] is not c and eq[a.owner].op == add
    assert eq[a].owner is eq[a.owner]
    eq = clone_get_equiv([x, y], [out], copy_inputs=False, copy_orphans=False)
    assert eq[x] is x and eq[c] is c and eq[out] is not out
    # memo pins replacements: a is replaced by z.
    z = dvar("z")
    memo = {a: z}
    eq = clone_get_equiv([x, y, a], [out], copy_inputs=False, memo=memo)  # type: ignore[dict-item]
    assert eq is memo and eq[a] is z
    assert as_string([z], [eq[out]]) == ["sub(z, mul(z, 2.0))"]


def test_clone_replace(diamond) -> None:  # type: ignore[no-untyped-def]
    x, y, _c, a, _b, out = diamond
    w = dvar("w")
    (new,) = clone_replace([out], {a: w})
    assert as_string([w], [new]) == ["sub(w, mul(w, 2.0))"]
    assert as_string([x, y], [out]) == ["sub(*1 -> add(x, y), mul(*1, 2.0))"]


def test_equal_computations(diamond) -> None:  # type: ignore[no-untyped-def]
    x, y, _c, a, _b, out = diamond
    assert equal_computations([out], [out])
    x2, y2 = dvar("x2"), dvar("y2")
    a2 = add(x2, y2)
    out2 = sub(a2, mul(a2, dconst(2.0)))  # another constant with the same value
    assert equal_computations([out], [out2], [x, y], [x2, y2])
    assert not equal_computations([out], [out2])
    assert not equal_computations([out], [out2], [x, y], [y2, x2])
    out3 = sub(a2, mul(a2, dconst(-2.0)))
    assert not equal_computations([out], [out3], [x, y], [x2, y2])
    assert not equal_computations([a], [mul(x, y)])
    assert not equal_computations([x], [integer("i")])
    assert not equal_computations([a], [x])
    # One constant may meet several equal ones.
    k = dconst(1.0)
    assert equal_computations([add(k, k)], [add(dconst(1.0), dconst(1.0))])
    with pytest.raises(ValueError):
        equal_computations([out], [])
    with pytest.raises(ValueError):
        equal_computations([out], [out], [x], [])


def test_equal_computations_multi_output() -> None:
    x = dvar("x")
    s1, s2 = SplitOp()(x).owner.outputs, SplitOp()(x).owner.outputs
    assert equal_computations([s1[0]], [s2[0]])
    assert not equal_computations([s1[0]], [s2[1]])


def test_is_same_graph_with_givens() -> None:
    x, y, z = dvar("x"), dvar("y"), dvar("z")
    assert is_same_graph(add(x, y), add(x, y))
    assert not is_same_graph(add(x, y), add(x, z))
    assert is_same_graph(add(x, y), add(x, z), givens={y: z})
    assert is_same_graph(add(x, y), add(x, z), givens={z: y})
    assert not is_same_graph(add(x, y), add(y, x))


def test_is_in_ancestors(diamond) -> None:  # type: ignore[no-untyped-def]
    _x, _y, _c, a, _b, out = diamond
    assert is_in_ancestors(out.owner, a.owner)
    assert is_in_ancestors(out.owner, out.owner)
    assert not is_in_ancestors(a.owner, out.owner)


def test_io_connection_pattern() -> None:
    x, y, z = dvar("x"), dvar("y"), dvar("z")
    o1 = add(x, y)
    o2 = PickFirst()(z, x)
    assert io_connection_pattern([x, y, z], [o1, o2]) == [
        [True, False],
        [True, False],
        [False, True],
    ]
    assert io_connection_pattern([x], [x, dconst(1.0)]) == [[True, False]]


def test_walk_and_stack_search() -> None:
    graph = {1: [2, 3], 2: [4], 3: [4], 4: []}
    assert list(walk([1], graph.get)) == [1, 2, 3, 4]
    assert list(walk([1], graph.get, bfs=False)) == [1, 2, 4, 3]
    assert next(iter(walk([1], graph.get, return_children=True))) == (1, [2, 3])
    assert stack_search([1], graph.get, "bfs") == [1, 2, 3, 4]
    assert stack_search([1], graph.get, "dfs") == [1, 2, 4, 3]
    order, inv = stack_search([1], graph.get, "bfs", build_inv=True)  # type: ignore[misc]
    assert order == [1, 2, 3, 4] and sorted(inv[4]) == [2, 3]
    with pytest.raises(ValueError):
        stack_search([1], graph.get, "sideways")


def test_view_roots() -> None:
    x = dvar("x")
    v = ViewOp()(x)
    w = InplaceNeg()(v)
    assert view_roots(w) == [x]
    assert view_roots(neg(w)) == [neg(w)] or len(view_roots(neg(w))) == 1
    n = neg(x)
    assert view_roots(n) == [n] and view_roots(x) == [x]


def test_traversals_accept_lists_as_blockers() -> None:
    x, y = dvar("x"), dvar("y")
    out = add(x, y)
    assert vars_between([x, y], [out]) and len(applys_between([x, y], [out])) == 1


# -- property tests ------------------------------------------------------------


def _random_graph(seed: int, n: int):  # type: ignore[no-untyped-def]
    ins, outs = random_dag(n, n_inputs=4, dup_fraction=0.2, window=8, seed=seed)
    return ins, outs


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 60), extra=st.integers(0, 10))
def test_toposort_respects_dependencies_and_orderings(seed: int, n: int, extra: int) -> None:
    ins, outs = _random_graph(seed, n)
    order = io_toposort(ins, outs)
    pos = {node: i for i, node in enumerate(order)}
    assert set(order) == ops(ins, outs)
    for node in order:
        for v in node.inputs:
            if v.owner is not None:
                assert pos[v.owner] < pos[node]
    # Random extra orderings that follow some fixed total order are always satisfiable.
    rng = random.Random(seed)
    orderings: dict[Apply, list[Apply]] = {}
    for _ in range(extra):
        i, j = sorted(rng.sample(range(len(order)), 2)) if len(order) > 1 else (0, 0)
        if i != j:
            orderings.setdefault(order[j], []).append(order[i])
    order2 = io_toposort(ins, outs, orderings)
    pos2 = {node: i for i, node in enumerate(order2)}
    assert set(order2) == set(order)
    for node in order2:
        for v in node.inputs:
            if v.owner is not None:
                assert pos2[v.owner] < pos2[node]
        for before in orderings.get(node, ()):
            assert pos2[before] < pos2[node]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 60))
def test_clone_is_equal_and_disjoint(seed: int, n: int) -> None:
    ins, outs = _random_graph(seed, n)
    ins2, outs2 = clone(ins, outs)
    assert equal_computations(outs, outs2, ins, ins2)
    assert as_string(ins, outs) == as_string(ins2, outs2)
    assert not (set(ancestors(outs)) & set(ancestors(outs2)))


# -- a million-node chain --------------------------------------------------------


def test_million_node_chain_has_no_recursion_limit() -> None:
    limit = sys.getrecursionlimit()
    assert limit <= 10_000  # left at (about) the default
    start = time.perf_counter()
    x, y = chain(1_000_000)
    fg = FunctionGraph([x], [y], clone=False)
    assert len(fg.toposort()) == 1_000_000
    (_x2,), (y2,) = clone([x], [y])
    assert y2.owner is not None and y2 is not y
    text = as_string([x], [y])[0]
    assert text.startswith("neg(neg(") and text.endswith("(x" + ")" * 1_000_000)
    assert len(ancestors([y])) == 1_000_001
    assert graph_inputs([y]) == [x]
    assert sys.getrecursionlimit() == limit
    assert time.perf_counter() - start < 120  # generous: a regression guard, not a benchmark


def test_integer_type_distinct() -> None:
    assert double != integer and str(double) == "double"

"""FunctionGraph: clients, replacement, import, pruning, toposort, integrity, cloning."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazygraph.graph import (
    Apply,
    Feature,
    FunctionGraph,
    History,
    MissingInputError,
    as_string,
    equal_computations,
)
from lazygraph.graph.fg import ClientList
from tests.core.graph_fixtures import (
    BINARY_OPS,
    add,
    dconst,
    double,
    dvar,
    integer,
    mul,
    neg,
    random_dag,
)


def small():  # type: ignore[no-untyped-def]
    x, y = dvar("x"), dvar("y")
    a = add(x, y)
    out = mul(a, neg(a))
    return FunctionGraph([x, y], [out, a], clone=False), x, y, a, out


def test_clients_include_outputs() -> None:
    fg, x, y, a, out = small()
    assert fg.clients[out] == [("output", 0)]
    assert sorted(fg.clients[a], key=str) == sorted(
        [(out.owner, 0), (neg_node(fg), 0), ("output", 1)], key=str
    )
    assert fg.clients[x] == [(a.owner, 0)] and fg.get_clients(y) == [(a.owner, 1)]
    assert len(fg.apply_nodes) == 3 and fg.variables == {x, y, a, out, neg_node(fg).outputs[0]}
    assert a in fg and a.owner in fg and dvar() not in fg
    fg.check_integrity()


def neg_node(fg: FunctionGraph) -> Apply:
    return next(n for n in fg.apply_nodes if n.op == neg)


def test_clone_true_copies() -> None:
    x = dvar("x")
    out = neg(x)
    fg = FunctionGraph([x], [out])
    assert fg.inputs[0] is not x and fg.outputs[0] is not out
    assert out.owner.inputs[0] is x  # the caller's graph is untouched
    fg2 = FunctionGraph(outputs=[add(x, dconst(1.0))])
    assert len(fg2.inputs) == 1 and fg2.inputs[0].name == "x"
    with pytest.raises(ValueError):
        FunctionGraph([x], None)


def test_missing_input_error_names_the_variable() -> None:
    x, secret = dvar("x"), dvar("secret")
    with pytest.raises(MissingInputError, match="secret"):
        FunctionGraph([x], [add(x, secret)])
    fg = FunctionGraph([x], [neg(x)], clone=False)
    before = as_string(fg.inputs, fg.outputs)
    with pytest.raises(MissingInputError, match="secret"):
        fg.replace(fg.outputs[0], add(x, secret))
    # Nothing was imported: the graph is as before.
    fg.check_integrity()
    assert as_string(fg.inputs, fg.outputs) == before
    fg.replace(fg.outputs[0], add(x, secret), import_missing=True)
    assert secret in fg.inputs
    fg.check_integrity()


def test_replace_prunes_dead_nodes() -> None:
    fg, x, y, a, out = small()
    fg.replace(a, x, reason="test")
    assert a.owner not in fg.apply_nodes and a not in fg.variables
    assert fg.outputs[1] is x and out.owner.inputs[0] is x
    assert (out.owner, 0) in fg.clients[x] and ("output", 1) in fg.clients[x]
    assert y in fg.variables and fg.clients[y] == []  # inputs stay
    fg.check_integrity()
    fg.replace(out, x)
    assert fg.apply_nodes == set() and fg.outputs == [x, x]
    fg.check_integrity()


def test_replace_type_mismatch_and_noops() -> None:
    fg, x, _y, a, _out = small()
    with pytest.raises(TypeError, match="cannot replace"):
        fg.replace(a, integer("i"))
    fg.replace(a, a)
    fg.replace(dvar("not_in_graph"), x)
    fg.check_integrity()


def test_replace_all() -> None:
    fg, x, y, a, out = small()
    fg.replace_all([(a, y), (out, x)])
    assert fg.outputs == [x, y] and fg.apply_nodes == set()
    fg.check_integrity()


def test_change_node_input() -> None:
    fg, x, y, a, out = small()
    fg.change_node_input(a.owner, 0, y)
    assert a.owner.inputs == [y, y] and fg.clients[x] == []
    assert sorted(i for _, i in fg.clients[y]) == [0, 1]
    fg.change_node_input("output", 0, x)
    assert fg.outputs[0] is x and out.owner not in fg.apply_nodes
    with pytest.raises(TypeError):
        fg.change_node_input(a.owner, 0, integer())
    with pytest.raises(TypeError):
        fg.change_node_input("output", 0, integer())
    with pytest.raises(ValueError):
        fg.change_node_input("outputs", 0, x)  # type: ignore[arg-type]
    fg.check_integrity()


def test_import_node_and_add_output() -> None:
    fg, _x, _y, a, _out = small()
    c = dconst(3.0)
    new = add(neg(a), c)
    fg.import_node(new.owner)
    assert new.owner in fg.apply_nodes and c in fg.variables
    fg.import_node(new.owner)  # twice is a no-op
    fg.add_output(new)
    assert fg.clients[new] == [("output", 2)]
    fg.check_integrity()
    with pytest.raises(MissingInputError):
        fg.import_node(add(a, dvar("q")).owner)
    fg.check_integrity()


def test_constant_is_pruned_when_unused() -> None:
    x = dvar("x")
    c = dconst(2.0)
    fg = FunctionGraph([x], [mul(x, c)], clone=False)
    assert c in fg.variables
    fg.replace(fg.outputs[0], x)
    assert c not in fg.variables and c not in fg.clients
    fg.check_integrity()


def test_add_input() -> None:
    fg, _x, _y, _a, _out = small()
    z = dvar("z")
    fg.add_input(z)
    fg.add_input(z)
    assert fg.inputs.count(z) == 1
    fg.check_integrity()


class Recorder(Feature):
    def __init__(self, name: str, log: list) -> None:  # type: ignore[type-arg]
        self.name, self.log = name, log

    def on_attach(self, fgraph):  # type: ignore[no-untyped-def]
        self.log.append((self.name, "attach"))

    def on_detach(self, fgraph):  # type: ignore[no-untyped-def]
        self.log.append((self.name, "detach"))

    def on_import(self, fgraph, node, reason):  # type: ignore[no-untyped-def]
        self.log.append((self.name, "import", str(node.op), reason))

    def on_prune(self, fgraph, node, reason):  # type: ignore[no-untyped-def]
        self.log.append((self.name, "prune", str(node.op), reason))

    def on_change_input(self, fgraph, node, i, old, new, reason):  # type: ignore[no-untyped-def]
        self.log.append((self.name, "change", i, reason))


def test_feature_callbacks_in_order() -> None:
    log: list = []  # type: ignore[type-arg]
    fg, x, _y, _a, out = small()
    f1, f2 = Recorder("f1", log), Recorder("f2", log)
    fg.attach_feature(f1)
    fg.attach_feature(f2)
    fg.attach_feature(f1)  # already there: ignored
    assert fg.features == [f1, f2]
    assert log == [("f1", "attach"), ("f2", "attach")]
    log.clear()
    fg.replace(fg.outputs[1], neg(x), reason="r")
    assert log[0] == ("f1", "import", "neg", "r") and log[1] == ("f2", "import", "neg", "r")
    assert ("f1", "change", 1, "r") in log
    log.clear()
    fg.replace(out, x, reason="r2")
    prunes = [e for e in log if e[1] == "prune"]
    assert [e[0] for e in prunes[:2]] == ["f1", "f2"] and {e[2] for e in prunes} >= {"mul"}
    log.clear()
    fg.remove_feature(f1)
    fg.remove_feature(f1)  # not attached: ignored
    assert log == [("f1", "detach")] and fg.features == [f2]
    fg.check_integrity()


def test_collect_callbacks() -> None:
    fg, *_ = small()

    class Answer(Feature):
        def answer(self, fgraph):  # type: ignore[no-untyped-def]
            return 42

    f = Answer()
    fg.attach_feature(f)
    assert fg.collect_callbacks("answer") == {f: 42}


def test_toposort_honours_feature_orderings() -> None:
    x = dvar("x")
    p, q = neg(x), mul(x, x)
    fg = FunctionGraph([x], [add(p, q)], clone=False)
    assert fg.toposort().index(p.owner) < fg.toposort().index(q.owner)

    class QFirst(Feature):
        def orderings(self, fgraph):  # type: ignore[no-untyped-def]
            return {p.owner: [q.owner]}

    fg.attach_feature(QFirst())
    order = fg.toposort()
    assert order.index(q.owner) < order.index(p.owner)
    assert fg.orderings() == {p.owner: [q.owner]}
    assert FunctionGraph([x], [x], clone=False).toposort() == []


def test_check_integrity_catches_corruption() -> None:
    fg, x, y, a, _out = small()
    fg.check_integrity()
    a.owner.inputs[0] = y  # changed behind the graph's back
    with pytest.raises(AssertionError, match="client"):
        fg.check_integrity()
    fg, x, y, a, _out = small()
    fg.clients[x].append((a.owner, 0))  # a duplicated client
    with pytest.raises(AssertionError, match="client"):
        fg.check_integrity()
    fg, x, y, a, _out = small()
    fg.apply_nodes.add(neg(x).owner)
    with pytest.raises(AssertionError, match="apply_nodes"):
        fg.check_integrity()
    fg, x, y, a, _out = small()
    fg.variables.add(dvar("stray"))
    with pytest.raises(AssertionError, match="variables"):
        fg.check_integrity()
    fg, x, y, a, _out = small()
    fg.outputs[0] = a
    with pytest.raises(AssertionError):
        fg.check_integrity()


def test_clone_and_clone_get_equiv() -> None:
    fg, x, _y, _a, out = small()
    fg.attach_feature(History())
    fg2, equiv = fg.clone_get_equiv()
    assert equiv[x] is fg2.inputs[0] and equiv[out] is fg2.outputs[0]
    assert equal_computations(fg.outputs, fg2.outputs, fg.inputs, fg2.inputs)
    assert not (fg.variables & fg2.variables)
    fg3 = fg.clone()
    assert str(fg3) == str(fg) and "FunctionGraph(" in repr(fg)
    fg3.check_integrity()


def test_client_list_is_o1_for_large_fanout() -> None:
    x = dvar("x")
    outs = [neg(x) for _ in range(2000)]
    fg = FunctionGraph([x], outs, clone=False)
    cl = fg.clients[x]
    assert isinstance(cl, ClientList) and len(cl) == 2000
    for out in outs[:1500]:
        fg.replace(out, x)
    assert len(fg.clients[x]) == 500 + 1500
    fg.check_integrity()
    small_list = ClientList([("a", 0)])
    small_list.remove(("a", 0))
    assert small_list == []
    big = ClientList(("n", i) for i in range(40))
    with pytest.raises(ValueError):
        big.remove(("n", 99))
    big.append(("n", 99))
    assert ("n", 99) in big and len(big) == 41


# -- property tests --------------------------------------------------------------


def _replacements(fg: FunctionGraph, rng: random.Random, k: int) -> None:
    """Apply ``k`` random type-correct replacements that keep the graph acyclic."""
    for _ in range(k):
        nodes = fg.toposort()
        if not nodes:
            return
        pos = {n: i for i, n in enumerate(nodes)}
        node = rng.choice(nodes)
        var = node.outputs[0]
        # Candidates computed strictly before ``node`` (or inputs): no cycle.
        earlier = [n.outputs[0] for n in nodes if pos[n] < pos[node]] + list(fg.inputs)
        choice = rng.random()
        if choice < 0.4:
            new = rng.choice(earlier)
        elif choice < 0.8:
            op = rng.choice(BINARY_OPS)
            new = op(rng.choice(earlier), rng.choice(earlier))
        else:
            new = neg(add(rng.choice(earlier), dconst(rng.choice([0.0, -0.0, 1.0]))))
        fg.replace(var, new, reason="random")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), n=st.integers(1, 40), k=st.integers(1, 15))
def test_integrity_holds_after_random_replacements(seed: int, n: int, k: int) -> None:
    ins, outs = random_dag(n, n_inputs=3, window=6, seed=seed)
    fg = FunctionGraph(ins, outs)
    fg.check_integrity()
    _replacements(fg, random.Random(seed), k)
    fg.check_integrity()


def _snapshot(fg: FunctionGraph):  # type: ignore[no-untyped-def]
    return (
        as_string(fg.inputs, fg.outputs),
        list(fg.outputs),
        set(fg.apply_nodes),
        set(fg.variables),
        {v: set(c) for v, c in fg.clients.items()},
        {n: list(n.inputs) for n in fg.apply_nodes},
    )


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), n=st.integers(1, 40), k=st.integers(1, 15))
def test_history_revert_restores_the_graph_exactly(seed: int, n: int, k: int) -> None:
    ins, outs = random_dag(n, n_inputs=3, window=6, seed=seed)
    fg = FunctionGraph(ins, outs)
    fg.attach_feature(History())
    rng = random.Random(seed)
    _replacements(fg, rng, rng.randrange(3))
    before = _snapshot(fg)
    chk = fg.checkpoint()  # type: ignore[attr-defined]
    _replacements(fg, rng, k)
    fg.revert(chk)  # type: ignore[attr-defined]
    fg.check_integrity()
    assert _snapshot(fg) == before


def test_double_type_sanity() -> None:
    assert dvar().type is double


def test_check_integrity_finds_a_cycle_made_by_replace() -> None:
    x = dvar("x")
    a = neg(x)
    b = mul(a, x)
    fg = FunctionGraph([x], [add(b, x)], clone=False)
    fg.replace(a, neg(b))  # b now reads neg(b): a cycle
    with pytest.raises(AssertionError, match="cycle"):
        fg.check_integrity()


def test_add_output_notifies_features() -> None:
    x = dvar("x")
    fg = FunctionGraph([x], [neg(x)], clone=False)
    heard: list = []  # type: ignore[type-arg]

    class Ear(Feature):
        def on_add_output(self, fgraph, var, index, reason):  # type: ignore[no-untyped-def]
            heard.append((var, index, reason, fgraph.outputs[index] is var))

    fg.attach_feature(Ear())
    extra = mul(x, x)
    fg.add_output(extra, reason="more")
    assert heard == [(extra, 1, "more", True)]
    fg.check_integrity()


def test_inherited_noop_callbacks_are_not_called() -> None:
    x = dvar("x")
    fg = FunctionGraph([x], [neg(neg(x))], clone=False)
    fg.attach_feature(Feature())
    assert fg._callbacks_for("on_change_input") == []
    calls: list = []  # type: ignore[type-arg]

    class Listener(Feature):
        def on_change_input(self, fgraph, node, i, old, new, reason):  # type: ignore[no-untyped-def]
            calls.append(i)

    listener = Listener()
    fg.attach_feature(listener)  # attaching refreshes the cached callbacks
    fg.replace(fg.outputs[0], x)
    assert calls == [0]
    fg.remove_feature(listener)
    fg.replace(fg.outputs[0], neg(x))
    assert calls == [0]

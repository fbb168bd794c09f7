"""History, Validator, ReplaceValidate, NodeFinder and Bookkeeper."""

from __future__ import annotations

import pytest

from lazygraph.graph import (
    AlreadyThere,
    Bookkeeper,
    Feature,
    FunctionGraph,
    History,
    InconsistencyError,
    NodeFinder,
    ReplaceValidate,
    Validator,
    as_string,
)
from lazygraph.graph.features import ReplacementDidNotRemoveError
from tests.core.graph_fixtures import BinaryOp, Scale, add, dvar, integer, mul, neg


def graph() -> FunctionGraph:
    x, y = dvar("x"), dvar("y")
    return FunctionGraph([x, y], [add(mul(x, y), neg(neg(x)))])


def test_history_checkpoint_and_revert() -> None:
    fg = graph()
    h = History()
    fg.attach_feature(h)
    start = as_string(fg.inputs, fg.outputs)
    chk = fg.checkpoint()  # type: ignore[attr-defined]
    x = fg.inputs[0]
    nn = fg.outputs[0].owner.inputs[1]
    fg.replace(nn, x, reason="neg(neg(x)) -> x")
    assert as_string(fg.inputs, fg.outputs) == ["add(mul(x, y), x)"]
    fg.revert(chk)  # type: ignore[attr-defined]
    assert as_string(fg.inputs, fg.outputs) == start
    fg.check_integrity()
    # A second History is declined; detaching removes the methods.
    fg.attach_feature(History())
    assert len(fg.features) == 1
    fg.remove_feature(h)
    assert not hasattr(fg, "checkpoint")
    with pytest.raises(AlreadyThere):
        History.on_attach(History(), _with_checkpoint(fg))


def _with_checkpoint(fg: FunctionGraph) -> FunctionGraph:
    fg.checkpoint = lambda: 0  # type: ignore[attr-defined]
    return fg


class RejectNeg(Feature):
    """Vetoes any graph that still contains a neg."""

    def validate(self, fgraph):  # type: ignore[no-untyped-def]
        if any(n.op == neg for n in fgraph.apply_nodes):
            raise InconsistencyError("neg is not allowed")


def test_validator() -> None:
    fg = graph()
    fg.attach_feature(Validator())
    assert fg.validate() is True  # type: ignore[attr-defined]
    fg.attach_feature(RejectNeg())
    assert fg.consistent() is False  # type: ignore[attr-defined]
    with pytest.raises(InconsistencyError):
        fg.validate()  # type: ignore[attr-defined]
    v2 = Validator()
    fg.attach_feature(v2)
    assert v2 not in fg.features
    fg.remove_feature(fg.features[0])
    assert not hasattr(fg, "validate")


def test_replace_validate_success_and_failure_revert() -> None:
    fg = graph()
    fg.attach_feature(ReplaceValidate())
    x, y = fg.inputs
    nn = fg.outputs[0].owner.inputs[1]
    start = as_string(fg.inputs, fg.outputs)
    fg.attach_feature(RejectNeg())
    # The replacement keeps a neg: rejected, and the graph reverted exactly.
    with pytest.raises(InconsistencyError):
        fg.replace_validate(nn, neg(y), reason="bad")  # type: ignore[attr-defined]
    assert as_string(fg.inputs, fg.outputs) == start
    fg.check_integrity()
    fg.replace_all_validate([(nn, x)], reason="ok")  # type: ignore[attr-defined]
    assert as_string(fg.inputs, fg.outputs) == ["add(mul(x, y), x)"]
    fg.check_integrity()


def test_replace_validate_reverts_on_any_error() -> None:
    fg = graph()
    fg.attach_feature(ReplaceValidate())
    x, _y = fg.inputs
    m = fg.outputs[0].owner.inputs[0]
    start = as_string(fg.inputs, fg.outputs)
    with pytest.raises(TypeError):
        fg.replace_all_validate([(m, x), (fg.outputs[0], integer("i"))])  # type: ignore[attr-defined]
    assert as_string(fg.inputs, fg.outputs) == start
    with pytest.raises(Exception, match="secret"):
        fg.replace_all_validate([(m, x), (fg.outputs[0], add(x, dvar("secret")))])  # type: ignore[attr-defined]
    assert as_string(fg.inputs, fg.outputs) == start
    fg.check_integrity()


def test_replace_all_validate_remove() -> None:
    fg = graph()
    fg.attach_feature(ReplaceValidate())
    x, _y = fg.inputs
    m = fg.outputs[0].owner.inputs[0]
    start = as_string(fg.inputs, fg.outputs)
    keep = fg.outputs[0].owner.inputs[1].owner
    with pytest.raises(ReplacementDidNotRemoveError):
        fg.replace_all_validate_remove([(m, x)], remove=[keep])  # type: ignore[attr-defined]
    assert as_string(fg.inputs, fg.outputs) == start
    m_node = m.owner
    fg.replace_all_validate_remove([(m, x)], remove=[m_node])  # type: ignore[attr-defined]
    assert m_node not in fg.apply_nodes


def test_replace_validate_attach_detach() -> None:
    fg = graph()
    rv = ReplaceValidate()
    fg.attach_feature(rv)
    fg.attach_feature(ReplaceValidate())
    assert fg.features == [rv]
    fg.remove_feature(rv)
    for name in ("replace_validate", "checkpoint", "validate", "replace_all_validate"):
        assert not hasattr(fg, name)
    # With a Validator already attached, ReplaceValidate uses it and leaves it on detach.
    fg.attach_feature(Validator())
    rv2 = ReplaceValidate()
    fg.attach_feature(rv2)
    fg.remove_feature(rv2)
    assert hasattr(fg, "validate")


def test_node_finder() -> None:
    fg = graph()
    nf = NodeFinder()
    fg.attach_feature(nf)
    assert len(fg.get_nodes(neg)) == 2  # type: ignore[attr-defined]
    assert len(fg.get_nodes(BinaryOp)) == 2  # type: ignore[attr-defined]
    x = fg.inputs[0]
    nn = fg.outputs[0].owner.inputs[1]
    fg.replace(nn, Scale(3.0)(x))
    assert fg.get_nodes(neg) == []  # type: ignore[attr-defined]
    assert len(fg.get_nodes(Scale(3.0))) == 1 and fg.get_nodes(Scale(4.0)) == []  # type: ignore[attr-defined]
    fg.attach_feature(NodeFinder())
    assert fg.features == [nf]
    fg.remove_feature(nf)
    assert not hasattr(fg, "get_nodes") and nf.by_op == {}


def test_bookkeeper_replays_history() -> None:
    events: list[tuple[str, str]] = []

    class Book(Bookkeeper):
        def on_import(self, fgraph, node, reason):  # type: ignore[no-untyped-def]
            events.append(("import", str(node.op)))

        def on_prune(self, fgraph, node, reason):  # type: ignore[no-untyped-def]
            events.append(("prune", str(node.op)))

    fg = graph()
    b = Book()
    fg.attach_feature(b)
    assert [e for e in events if e[0] == "import"] and len(events) == 4
    assert events[-1] == ("import", "add")  # toposort order: the output last
    events.clear()
    fg.remove_feature(b)
    assert len(events) == 4 and events[0] == ("prune", "add")


def test_history_keeps_only_what_a_held_checkpoint_needs() -> None:
    import gc

    fg = graph()
    h = History()
    fg.attach_feature(h)
    x = fg.inputs[0]
    nn = fg.outputs[0].owner.inputs[1]
    # no checkpoint held: nothing is logged
    fg.replace(nn, neg(neg(neg(neg(x)))))
    assert h.history[fg] == []
    chk = fg.checkpoint()  # type: ignore[attr-defined]
    before = as_string(fg.inputs, fg.outputs)
    inner = fg.outputs[0].owner.inputs[1]
    fg.replace(inner, x)
    assert len(h.history[fg]) == 1
    # a nested checkpoint, taken and dropped, leaves the outer one intact
    chk2 = fg.checkpoint()  # type: ignore[attr-defined]
    fg.replace(fg.outputs[0].owner.inputs[0], x)
    assert chk2 != chk and len(h.history[fg]) == 2
    del chk2
    gc.collect()
    fg.revert(chk)  # type: ignore[attr-defined]
    assert as_string(fg.inputs, fg.outputs) == before
    fg.check_integrity()
    stale = int(chk)
    del chk
    gc.collect()
    fg.replace(fg.outputs[0].owner.inputs[1], x)  # nothing held: the log is dropped
    assert h.history[fg] == []
    with pytest.raises(ValueError, match="older than the log"):
        fg.revert(stale)  # type: ignore[attr-defined]


def test_replace_validate_leaves_no_log_behind() -> None:
    fg = graph()
    rv = ReplaceValidate()
    fg.attach_feature(rv)
    x = fg.inputs[0]
    for _ in range(50):
        out = fg.outputs[0]
        fg.replace_validate(out, add(out, x), reason="grow")  # type: ignore[attr-defined]
    assert rv.history[fg] == []
    # checkpoints still tell "changed since" apart, as the equilibrium navigator needs
    a = fg.checkpoint()  # type: ignore[attr-defined]
    assert fg.checkpoint() == a  # type: ignore[attr-defined]
    fg.replace_validate(fg.outputs[0], add(fg.outputs[0], x))  # type: ignore[attr-defined]
    assert fg.checkpoint() != a  # type: ignore[attr-defined]

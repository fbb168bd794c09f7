"""as_string / op_as_string: one-line forms with ``*N -> ...`` for shared nodes."""

from __future__ import annotations

from lazygraph.graph import as_string, op_as_string
from lazygraph.graph.strings import default_node_formatter
from tests.core.graph_fixtures import SplitOp, add, dconst, div, dvar, mul, neg


def test_plain_and_shared() -> None:
    x, y, z = dvar("x"), dvar("y"), dvar("z")
    e = add(z, mul(div(mul(y, x), y), div(z, x)))
    assert as_string([x, y, z], [e]) == ["add(z, mul(div(mul(y, x), y), div(z, x)))"]
    s = add(y, z)
    assert as_string([x, y, z], [div(mul(s, x), s)]) == ["div(mul(*1 -> add(y, z), x), *1)"]


def test_labels_are_shared_across_outputs() -> None:
    x, y = dvar("x"), dvar("y")
    s = add(x, y)
    out = as_string([x, y], [neg(s), mul(s, s)])
    assert out == ["neg(*1 -> add(x, y))", "mul(*1, *1)"]
    assert as_string([x, y], [s, s]) == ["*1 -> add(x, y)", "*1"]


def test_multi_output_nodes() -> None:
    x = dvar("x")
    a, b = SplitOp().make_node(x).outputs
    assert as_string([x], [add(a, b)]) == ["add(*1 -> SplitOp(x), *1::1)"]


def test_leaves_constants_and_inputs_as_outputs() -> None:
    x = dvar("x")
    c = dconst(2.0)
    assert as_string([x], [add(x, c), x]) == ["add(x, 2.0)", "x"]
    # A variable given as input is a leaf even if it has an owner.
    m = mul(x, x)
    assert as_string([m], [neg(m)]) == ["neg(mul.out)"]
    # Orphans (ownerless, not in inputs) print as leaves too.
    assert as_string([], [add(x, c)]) == ["add(x, 2.0)"]


def test_formatters() -> None:
    x, y = dvar("x"), dvar("y")
    s = add(x, y)
    upper = as_string(
        [x, y],
        [mul(s, s)],
        leaf_formatter=lambda v: str(v).upper(),
        node_formatter=lambda op, args: f"{op}[{' '.join(args)}]",
    )
    assert upper == ["mul[*1 -> add[X Y] *1]"]
    assert default_node_formatter("f", ["a", "b"]) == "f(a, b)"
    assert as_string([x, y], [mul(s, x)], leaf_formatter=lambda v: f"<{v}>") == [
        "mul(add(<x>, <y>), <x>)"
    ]


def test_op_as_string() -> None:
    x, y = dvar("x"), dvar("y")
    node = mul(add(x, y), x).owner
    assert op_as_string([x, y], node) == "mul(add(x, y), x)"
    assert op_as_string(node.inputs, node) == "mul(add.out, x)"


def test_long_chain_is_linear() -> None:
    x = dvar("x")
    v = x
    for _ in range(50_000):
        v = neg(v)
    text = as_string([x], [v])[0]
    assert len(text) == len("neg(") * 50_000 + 1 + 50_000

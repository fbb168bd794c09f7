"""lazygraph.printing: dprint, to_dot, render."""

from __future__ import annotations

import io

import pytest

import lazygraph
from lazygraph.graph import FunctionGraph
from lazygraph.printing import MAX_INDENT, dprint, render, to_dot
from tests.core.graph_fixtures import (
    InplaceNeg,
    SplitOp,
    ViewOp,
    add,
    chain,
    dconst,
    dvar,
    mul,
    neg,
)


def test_tree_with_ids_and_shared_subgraphs() -> None:
    x, y = dvar("x"), dvar("y")
    s = add(x, y)
    text = dprint(mul(s, neg(s)), file="str")
    assert text == (
        "mul [id A]\n"
        " ├─ add [id B]\n"
        " │  ├─ x [id C]\n"
        " │  └─ y [id D]\n"
        " └─ neg [id E]\n"
        "    └─ add [id B] ···"
    )


def test_lists_apply_fgraph_and_function() -> None:
    x, y = dvar("x"), dvar("y")
    s = add(x, y)
    both = dprint([s, neg(s)], file="str")
    assert both.splitlines()[0] == "add [id A]" and both.splitlines()[-1] == " └─ add [id A] ···"
    assert dprint(s.owner, file="str") == dprint(s, file="str")
    fg = FunctionGraph([x, y], [s], clone=False)
    assert dprint(fg, file="str") == dprint(s, file="str")

    class FakeFunction:
        fgraph = fg

    assert dprint(FakeFunction(), file="str") == dprint(s, file="str")
    with pytest.raises(TypeError, match="dprint"):
        dprint(42)


def test_options() -> None:
    x = dvar("x")
    z = add(neg(x), dconst(2.0, name="two"))
    text = dprint(z, file="str", print_type=True, ids="int")
    assert text.splitlines()[0] == "add [id 0] <double>"
    assert "two [id 3] <double> {2.0}" in text
    assert "[id" not in dprint(z, file="str", ids="")
    assert "auto_" in dprint(z, file="str", ids="auto")
    assert dprint(z, file="str", depth=0) == "add [id A] ···"
    named = neg(x)
    named.name = "nx"
    assert dprint(named, file="str").splitlines()[0] == "neg [id A] 'nx'"
    with pytest.raises(ValueError):
        dprint(z, file="str", ids="roman")


def test_destroy_and_view_maps_and_multi_output() -> None:
    x = dvar("x")
    w = InplaceNeg()(ViewOp()(x))
    text = dprint(w, file="str", print_destroy_map=True, print_view_map=True)
    assert "InplaceNeg [id A] d={0: [0]}" in text and "ViewOp [id B] v={0: [0]}" in text
    a, b = SplitOp().make_node(x).outputs
    assert dprint(add(a, b), file="str").splitlines()[1:3] == [
        " ├─ SplitOp.0 [id B]",
        " │  └─ x [id C]",
    ]


def test_writes_to_a_file_and_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    x = dvar("x")
    buf = io.StringIO()
    assert dprint(neg(x), file=buf) is None
    assert buf.getvalue() == "neg [id A]\n └─ x [id B]\n"
    lazygraph.dprint(neg(x))
    assert capsys.readouterr().out == "neg [id A]\n └─ x [id B]\n"


def test_long_chain_prints_in_linear_space() -> None:
    _x, y = chain(20_000)
    text = dprint(y, file="str")
    lines = text.splitlines()
    assert len(lines) == 20_001 and lines[-1].endswith("x [id " + lines[-1].split("[id ")[1])
    assert max(len(line) for line in lines) < MAX_INDENT * 3 + 40
    assert lines[-1].startswith(f"({20_000}) ")


def test_million_chain_dprint_runs() -> None:
    _x, y = chain(1_000_000)
    text = dprint(y, file="str", ids="")
    assert text.count("\n") == 1_000_000


def test_to_dot() -> None:
    x, y = dvar("x"), dvar("y")
    s = add(x, y)
    out = neg(mul(s, dconst(2.0)))
    dot = to_dot(out)
    assert dot.startswith("digraph G {") and dot.endswith("}")
    assert dot.count("shape=ellipse") == 3 and 'label="mul"' in dot
    assert '[label="0"]' in dot and '[label="1"]' in dot  # mul and add have 2 inputs
    assert "style=dashed" in dot  # the constant
    neg_edges = [line for line in dot.splitlines() if "-> a2" in line]
    assert neg_edges and all("label" not in line for line in neg_edges)  # one input: no label
    a, b = SplitOp().make_node(x).outputs
    assert 'a0 -> v1 [label="0"]' in to_dot([a, b])
    assert '"a\\"b"' in to_dot(dvar('a"b'))


def test_render(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("graphviz")
    x = dvar("x")
    path = tmp_path / "g.svg"
    try:
        result = render(neg(x), path, format="svg")
    except RuntimeError as exc:
        assert "Graphviz" in str(exc)
        return
    assert result == str(path) and path.read_bytes().lstrip().startswith(b"<")


def test_render_without_dot_explains(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    graphviz = pytest.importorskip("graphviz")
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot program on PATH
    with pytest.raises(RuntimeError, match="install Graphviz"):
        render(neg(dvar("x")), tmp_path / "g.png")
    assert graphviz

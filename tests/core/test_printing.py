"""lazygraph.printing: dprint, to_dot, to_svg, render."""

from __future__ import annotations

import io
import itertools
import re
import sys
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import lazygraph
from lazygraph._svg_layout import layered_layout
from lazygraph.graph import FunctionGraph
from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.printing import MAX_INDENT, dprint, render, to_dot, to_svg
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
    random_dag,
)

SVG = "{http://www.w3.org/2000/svg}"


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


class _Lazy:
    """A stand-in for a lazy array of another package: it holds a Variable."""

    def __init__(self, var: Variable) -> None:
        self._var = var

    def __lazygraph_variable__(self) -> Variable:
        return self._var


class _Holder:
    """A stand-in for a transformed function: it holds a compiled graph."""

    def __init__(self, fg: FunctionGraph | None) -> None:
        self._fg = fg

    def __lazygraph_fgraph__(self) -> FunctionGraph:
        if self._fg is None:
            raise ValueError("not called yet")
        return self._fg


def test_objects_holding_a_graph_take_part_through_the_protocol() -> None:
    """printing knows no class outside core: a lazy array or a transformed function
    of another package is printed through __lazygraph_variable__ /
    __lazygraph_fgraph__."""
    x, y = dvar("x"), dvar("y")
    s = mul(add(x, y), y)
    fg = FunctionGraph([x, y], [s, neg(s)], clone=False)
    expected = dprint(s, file="str")
    assert dprint(_Lazy(s), file="str") == expected
    assert dprint([_Lazy(s), _Lazy(x)], file="str") == dprint([s, x], file="str")
    assert to_dot(_Lazy(s)) == to_dot(s) and to_svg(_Lazy(s)) == to_svg(s)
    assert dprint(_Holder(fg), file="str") == dprint(fg, file="str")
    assert to_dot(_Holder(fg)) == to_dot(fg) and to_svg(_Holder(fg)) == to_svg(fg)
    with pytest.raises(ValueError, match="not called yet"):  # the holder's own error
        dprint(_Holder(None))


def test_protocol_methods_returning_something_else_are_refused() -> None:
    class Bad:
        def __lazygraph_variable__(self) -> object:
            return 42

    with pytest.raises(TypeError, match="__lazygraph_variable__ returned int"):
        dprint(Bad())

    class Instance:  # an instance attribute is not the protocol (as for __len__)
        pass

    obj = Instance()
    obj.__lazygraph_variable__ = lambda: dvar("x")  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="not Instance"):
        dprint(obj)


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


# -- to_svg --------------------------------------------------------------------


class Labelled(Op):
    """A one-input op whose str is whatever the test needs."""

    __props__ = ("label",)

    def __init__(self, label: str) -> None:
        self.label = label

    def make_node(self, x: Any) -> Apply:
        return Apply(self, [x], [x.type()])

    def __str__(self) -> str:
        return self.label


def svg_nodes(svg: str) -> dict[str, ET.Element]:
    """The node groups of ``to_svg``'s text by id (``v0``, ``a0``, ... as in ``to_dot``)."""
    root = ET.fromstring(svg)
    return {g.get("id", ""): g for g in root.iter(f"{SVG}g") if g.get("id")}


def box(g: ET.Element) -> tuple[float, float, float, float]:
    """A node's left, right, top and bottom."""
    (shape,) = [e for e in g if e.tag in (f"{SVG}rect", f"{SVG}ellipse")]
    if shape.tag == f"{SVG}ellipse":
        cx, cy, rx, ry = (float(shape.get(k, "")) for k in ("cx", "cy", "rx", "ry"))
        return cx - rx, cx + rx, cy - ry, cy + ry
    x, y, w, h = (float(shape.get(k, "")) for k in ("x", "y", "width", "height"))
    return x, x + w, y, y + h


def check_picture(obj: Any) -> dict[str, ET.Element]:
    """What every picture must satisfy; returns its nodes."""
    svg = to_svg(obj)
    dot = to_dot(obj)
    nodes = svg_nodes(svg)
    applies = [g for g in nodes.values() if g.get("class") == "apply"]
    variables = [g for g in nodes.values() if g.get("class", "").startswith("variable")]
    assert len(applies) == dot.count("shape=ellipse")
    assert len(variables) == dot.count("shape=box")
    assert all(len(g.findall(f"{SVG}ellipse")) == 1 for g in applies)
    assert all(len(g.findall(f"{SVG}rect")) == 1 for g in variables)
    # every edge of to_dot's is drawn, and points up: its head's layer is above its tail's
    edges = re.findall(r"^  (\w+) -> (\w+)", dot, re.MULTILINE)
    paths = ET.fromstring(svg).find(f"{SVG}g[@class='edges']")
    assert paths is not None and len(paths.findall(f"{SVG}path")) == len(edges)
    for tail, head in edges:
        assert box(nodes[head])[3] < box(nodes[tail])[2]
    # nodes of one layer do not overlap
    rows: dict[float, list[tuple[float, float, float, float]]] = {}
    for g in nodes.values():
        left, right, top, bottom = box(g)
        rows.setdefault((top + bottom) / 2, []).append((left, right, top, bottom))
    for row in rows.values():
        row.sort()
        assert all(a[1] < b[0] for a, b in itertools.pairwise(row))
    return nodes


def test_to_svg_draws_what_to_dot_draws() -> None:
    x, y = dvar("x"), dvar("y")
    s = add(x, y)
    out = neg(mul(s, dconst(2.0)))
    nodes = check_picture(out)
    assert len(nodes) == 9 and to_svg(out).startswith("<svg")
    kinds = {g.findtext(f"{SVG}title"): g.get("class") for g in nodes.values()}
    assert kinds["x"] == kinds["y"] == "variable input"
    assert kinds["2.0"] == "variable constant"
    assert kinds["add"] == kinds["mul"] == kinds["neg"] == "apply"
    fills = {}
    for g in nodes.values():
        shape = g[1]
        fills[g.findtext(f"{SVG}title"), g.get("class")] = (
            shape.get("fill"),
            shape.get("stroke-dasharray"),
        )
    assert fills["x", "variable input"] == ("#d8e8f8", None)
    assert fills["<double>", "variable output"] == ("#f8e0c8", None)
    assert fills["2.0", "variable constant"] == ("#ffffff", "4 3")
    assert fills["<double>", "variable"] == ("#ffffff", None)  # the inner results
    # a multi-output node, an output that is an input, lists, a FunctionGraph
    a, b = SplitOp().make_node(x).outputs
    check_picture([add(a, b), a, x])
    check_picture(FunctionGraph([x, y], [s, neg(s)], clone=False))
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in to_svg([])


def test_to_svg_random_graphs() -> None:
    for seed in range(3):
        _ins, outs = random_dag(300, n_inputs=12, seed=seed, const_fraction=0.1, neg_fraction=0.2)
        check_picture(outs)


def test_to_svg_escapes_and_cuts_labels() -> None:
    odd = 'a<b & c>"d"'
    x = dvar(odd)
    long = "Composite{" + "add(i0, i1), " * 10 + "}"
    out = Labelled(long)(Labelled(odd)(x))
    svg = to_svg(out, title=odd)
    assert "a&lt;b &amp; c&gt;&quot;d&quot;" in svg
    root = ET.fromstring(svg)
    assert root.findtext(f"{SVG}title") == odd
    labels = {g.findtext(f"{SVG}title"): g.findtext(f"{SVG}text") for g in svg_nodes(svg).values()}
    assert labels[odd] == odd
    shown = labels[long]
    assert len(shown) == 40 and shown.endswith("…") and long.startswith(shown[:-1])
    # characters XML forbids do not break the text
    ET.fromstring(to_svg(Labelled("bell\x07")(x)))


def test_to_svg_is_deterministic() -> None:
    first = to_svg(random_dag(200, n_inputs=8, seed=5)[1])
    again = to_svg(random_dag(200, n_inputs=8, seed=5)[1])  # new objects, same graph
    assert first == again


def test_to_svg_long_chain() -> None:
    _x, y = chain(20_000)
    svg = to_svg(y)
    root = ET.fromstring(svg)
    assert sum(g.get("class") == "apply" for g in root.iter(f"{SVG}g")) == 20_000


def test_layered_layout() -> None:
    # a source moves up to just below its reader; long edges bend unless told not to
    layers, xs, bends = layered_layout([[], [], [1], [2], [0, 3]], [10.0] * 5)
    assert layers == [2, 0, 1, 2, 3] and bends == {}
    assert abs(xs[0] - xs[3]) >= 10.0 + 16.0  # one layer: a gap between them
    layers, _xs, bends = layered_layout([[], [0], [1], [0, 2]], [10.0] * 4)
    assert layers == [0, 1, 2, 3] and len(bends[0, 3]) == 2
    assert layered_layout([[], [0], [1], [0, 2]], [10.0] * 4, max_dummies=1)[2] == {}
    with pytest.raises(ValueError, match="topological"):
        layered_layout([[1], []], [1.0, 1.0])


def test_render_svg_without_graphviz(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "graphviz", None)  # import graphviz fails
    out: Variable = neg(dvar("x"))
    path = tmp_path / "g.svg"
    assert render(out, path, format="svg") == str(path)
    assert path.read_text(encoding="utf-8") == to_svg(out)
    with pytest.raises(RuntimeError, match="graphviz"):
        render(out, tmp_path / "g.png")

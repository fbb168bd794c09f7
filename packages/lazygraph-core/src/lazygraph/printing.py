"""Looking at graphs: :func:`dprint` (an indented tree with ids), :func:`to_dot`
(Graphviz DOT text), :func:`to_svg` (an SVG picture, laid out in pure Python) and
:func:`render` (an image file, through the ``graphviz`` package; SVG works without it).

>>> from lazygraph.graph.basic import Apply, Op, Type
>>> class Add(Op):
...     def make_node(self, x, y):
...         return Apply(self, [x, y], [x.type()])
>>> x, y = Type()("x"), Type()("y")
>>> s = Add()(x, y)
>>> dprint(Add()(s, s))
Add [id A]
 ├─ Add [id B]
 │  ├─ x [id C]
 │  └─ y [id D]
 └─ Add [id B] ···

A node seen before is printed once more with its id and ``···`` instead of its
inputs. Every walk is iterative, so a million-node chain prints (past
:data:`MAX_INDENT` levels the indentation stops growing and the level is shown).
"""

from __future__ import annotations

import itertools
import math
import os
import sys
from collections.abc import Sequence
from typing import IO, Any

from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph

__all__ = ["MAX_INDENT", "dprint", "render", "to_dot", "to_svg"]

#: Nesting levels drawn with tree lines; deeper levels keep that width and show
#: their level number, so printing a long chain takes linear time and space.
MAX_INDENT = 40

_SEGMENT = 3  # width of "│  " / "   "


def _outputs_of(obj: Any) -> list[Variable]:
    """The variables at the roots of the picture of ``obj``.

    Besides the graph's own objects, anything that holds a graph takes part through
    a protocol, so that this module needs no import of the packages defining it:
    ``obj.__lazygraph_fgraph__()`` returns a FunctionGraph (a transformed function
    of :mod:`lazygraph.numpy`: the graph it compiled), ``obj.__lazygraph_variable__()``
    a Variable (a lazy array: the graph computing it).
    """
    fgraph = getattr(obj, "fgraph", None)
    if isinstance(fgraph, FunctionGraph):  # a compiled Function
        obj = fgraph
    # looked up on the type, as Python looks up special methods: an instance
    # attribute (or a __getattr__) of that name is not the protocol
    holder = getattr(type(obj), "__lazygraph_fgraph__", None)
    if holder is not None:
        obj = holder(obj)
        if not isinstance(obj, FunctionGraph):
            raise TypeError(f"__lazygraph_fgraph__ returned {type(obj).__name__}")
    lazy = getattr(type(obj), "__lazygraph_variable__", None)
    if lazy is not None:
        obj = lazy(obj)
        if not isinstance(obj, Variable):
            raise TypeError(f"__lazygraph_variable__ returned {type(obj).__name__}")
    if isinstance(obj, FunctionGraph):
        return list(obj.outputs)
    if isinstance(obj, Variable):
        return [obj]
    if isinstance(obj, Apply):
        return list(obj.outputs)
    if isinstance(obj, Sequence) and not isinstance(obj, str):
        result: list[Variable] = []
        for item in obj:
            result.extend(_outputs_of(item))
        return result
    raise TypeError(
        "dprint, to_dot and to_svg take a Variable, a list of Variables, an Apply node, "
        "a FunctionGraph, a compiled Function, a lazy array (lazygraph.numpy) or a "
        f"transformed function (lazygraph.jit, grad, ...) after a call, not {type(obj).__name__}"
    )


def _letters(n: int) -> str:
    # 0 -> A, 25 -> Z, 26 -> BA: base 26 with A as the zero digit (PyTensor's ids).
    digits = []
    while True:
        n, r = divmod(n, 26)
        digits.append(chr(ord("A") + r))
        if n == 0:
            return "".join(reversed(digits))


class _Ids:
    def __init__(self, style: str) -> None:
        if style not in ("id", "int", "auto", ""):
            raise ValueError(f"ids must be 'id', 'int', 'auto' or '', got {style!r}")
        self.style = style
        self.ids: dict[Any, str] = {}

    def __call__(self, key: Any, var: Variable) -> str:
        if not self.style:
            return ""
        text = self.ids.get(key)
        if text is None:
            n = len(self.ids)
            if self.style == "id":
                text = _letters(n)
            elif self.style == "int":
                text = str(n)
            else:
                text = var.auto_name
            self.ids[key] = text
        return f" [id {text}]"


def _node_label(var: Variable) -> str:
    node = var.owner
    assert node is not None
    if len(node.outputs) == 1:
        return str(node.op)
    return f"{node.op}.{var.index}"


def dprint(
    obj: Any,
    file: IO[str] | str | None = None,
    print_type: bool = False,
    ids: str = "id",
    depth: int = -1,
    print_destroy_map: bool = False,
    print_view_map: bool = False,
) -> str | None:
    """Print ``obj``'s graph as an indented tree, one line per variable.

    ``obj`` is a Variable, a list of Variables, an Apply node (its outputs), a
    FunctionGraph (its outputs), a compiled Function (its ``fgraph``), a lazy
    :mod:`lazygraph.numpy` array (the graph computing it) or a function transformed
    by ``lazygraph.jit``, ``grad``, ... after a call (the graph it compiled). Each
    computed variable shows its op, a leaf its name; ``[id X]`` tags identify
    nodes, so a node reached again is printed as its id with ``···`` instead of
    its inputs a second time.

    - ``file``: where to write (default ``sys.stdout``); ``"str"`` returns the text.
    - ``print_type``: append each variable's type.
    - ``ids``: ``"id"`` (letters), ``"int"``, ``"auto"`` (``auto_name``) or ``""`` (none).
    - ``depth``: levels to show below each root (``-1``: all).
    - ``print_destroy_map`` / ``print_view_map``: show ops' ``destroy_map`` / ``view_map``.

    >>> from lazygraph.graph.basic import Apply, Op, Type
    >>> class Neg(Op):
    ...     def make_node(self, x):
    ...         return Apply(self, [x], [x.type()])
    >>> x = Type()("x")
    >>> text = dprint(Neg()(Neg()(x)), file="str", print_type=True, ids="int")
    >>> print(text)
    Neg [id 0] <Type>
     └─ Neg [id 1] <Type>
        └─ x [id 2] <Type>
    >>> print(dprint(Neg()(Neg()(x)), file="str", depth=1))
    Neg [id A]
     └─ Neg [id B] ···
    """
    ident = _Ids(ids)
    lines: list[str] = []
    printed: set[Apply] = set()
    max_raw = MAX_INDENT * _SEGMENT
    for root in _outputs_of(obj):
        # Frames: (variable, raw prefix of its children's lines, its level,
        # connector on its own line, its own prefix as shown). Children are pushed
        # in reverse so they pop in input order.
        stack: list[tuple[Variable, str, int, str, str]] = [(root, " ", 0, "", "")]
        while stack:
            var, child_raw, level, connector, shown = stack.pop()
            node = var.owner
            key: Any = node if node is not None else var
            label = _node_label(var) if node is not None else str(var)
            line = f"{shown}{connector}{label}{ident(key, var)}"
            if var.name is not None and node is not None:
                line += f" {var.name!r}"
            if print_type:
                line += f" <{var.type}>"
            if isinstance(var, Constant) and var.name is not None:
                line += f" {{{var.data!r}}}"
            if node is not None:
                op = node.op
                if print_destroy_map and op.destroy_map:
                    line += f" d={dict(op.destroy_map)}"
                if print_view_map and op.view_map:
                    line += f" v={dict(op.view_map)}"
                again = node in printed
                cut = depth >= 0 and level >= depth
                if (again or cut) and node.inputs:
                    line += " ···"
                lines.append(line)
                if again or cut:
                    continue
                printed.add(node)
                n = len(node.inputs)
                # Past MAX_INDENT levels the tree lines keep their width and the
                # level number is shown, so line lengths stay bounded.
                child_level = level + 1
                child_shown = child_raw
                if child_level > MAX_INDENT:
                    child_shown = f"({child_level}) {child_raw}"
                for k in range(n - 1, -1, -1):
                    last = k == n - 1
                    grand_raw = (child_raw + ("   " if last else "│  "))[-max_raw:]
                    stack.append(
                        (
                            node.inputs[k],
                            grand_raw,
                            child_level,
                            "└─ " if last else "├─ ",
                            child_shown,
                        )
                    )
            else:
                lines.append(line)
    text = "\n".join(lines)
    if file == "str":
        return text
    out = sys.stdout if file is None else file
    assert not isinstance(out, str)
    out.write(text + "\n")
    return None


_INPUT_FILL = "#d8e8f8"
_OUTPUT_FILL = "#f8e0c8"


def _var_label(v: Variable) -> str:
    # A computed variable is labelled by its name, else its type (the op is on
    # the ellipse next to it); leaves by their name or value.
    return str(v) if v.name is not None or v.owner is None else f"<{v.type}>"


def _var_kind(v: Variable, output_set: set[Variable]) -> str:
    """How a variable is drawn: "output", "input", "constant" or ""."""
    if v in output_set:
        return "output"
    if v.owner is None:
        return "constant" if isinstance(v, Constant) else "input"
    return ""


def _dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(obj: Any, name: str = "G") -> str:
    """Graphviz DOT text for ``obj``'s graph (same inputs as :func:`dprint`).

    Variables are boxes (inputs and outputs filled), Apply nodes are ellipses
    labelled with their op; an edge into a node with several inputs is labelled
    with the input's position, an edge out of a node with several outputs with
    the output's.

    >>> from lazygraph.graph.basic import Apply, Op, Type
    >>> class Add(Op):
    ...     def make_node(self, x, y):
    ...         return Apply(self, [x, y], [x.type()])
    >>> x, y = Type()("x"), Type()("y")
    >>> print(to_dot(Add()(x, y)))
    digraph G {
      rankdir=BT;
      v0 [label="x", shape=box, style=filled, fillcolor="#d8e8f8"];
      v1 [label="y", shape=box, style=filled, fillcolor="#d8e8f8"];
      a0 [label="Add", shape=ellipse];
      v0 -> a0 [label="0"];
      v1 -> a0 [label="1"];
      v2 [label="<Type>", shape=box, style=filled, fillcolor="#f8e0c8"];
      a0 -> v2;
    }
    """
    from lazygraph.graph.traversal import io_toposort

    outputs = _outputs_of(obj)
    output_set = set(outputs)
    var_ids: dict[Variable, str] = {}
    lines = [f"digraph {name} {{", "  rankdir=BT;"]

    def var_id(v: Variable) -> str:
        vid = var_ids.get(v)
        if vid is None:
            vid = var_ids[v] = f"v{len(var_ids)}"
            attrs = [f"label={_dot_quote(_var_label(v))}", "shape=box"]
            kind = _var_kind(v, output_set)
            if kind in ("output", "input"):
                fill = _OUTPUT_FILL if kind == "output" else _INPUT_FILL
                attrs += ["style=filled", f'fillcolor="{fill}"']
            elif kind == "constant":
                attrs += ["style=dashed"]
            lines.append(f"  {vid} [{', '.join(attrs)}];")
        return vid

    for k, node in enumerate(io_toposort((), outputs)):
        in_ids = [var_id(v) for v in node.inputs]
        aid = f"a{k}"
        lines.append(f"  {aid} [label={_dot_quote(str(node.op))}, shape=ellipse];")
        many_in = len(node.inputs) > 1
        for i, vid in enumerate(in_ids):
            lines.append(f'  {vid} -> {aid} [label="{i}"];' if many_in else f"  {vid} -> {aid};")
        many_out = len(node.outputs) > 1
        for j, out in enumerate(node.outputs):
            oid = var_id(out)
            lines.append(f'  {aid} -> {oid} [label="{j}"];' if many_out else f"  {aid} -> {oid};")
    for v in outputs:  # outputs that are inputs or constants
        var_id(v)
    lines.append("}")
    return "\n".join(lines)


# Text is 12px monospace: about 7.2 px a character. Sizes in px.
_SVG_LABEL_CHARS = 40  # longer labels are cut, the full text goes in a <title>
_CHAR_W = 7.2
_BOX_H = 24.0
_ELLIPSE_H = 28.0
_RANK_SEP = 40.0  # vertical space between layers
_MARGIN = 12.0
_TITLE_H = 28.0

_XML_ESCAPES: dict[int, str] = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}
_XML_ESCAPES[ord('"')] = "&quot;"
# Characters XML 1.0 forbids (most control characters, lone surrogates) become U+FFFD.
_XML_ESCAPES.update(
    dict.fromkeys(
        [*(c for c in range(32) if c not in (9, 10, 13)), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF],
        "\ufffd",
    )
)


def _xml(text: str) -> str:
    return text.translate(_XML_ESCAPES)


def _short(text: str) -> str:
    text = " ".join(text.split())  # SVG text is one line
    if len(text) > _SVG_LABEL_CHARS:
        return text[: _SVG_LABEL_CHARS - 1] + "…"
    return text


def to_svg(obj: Any, title: str | None = None) -> str:
    """An SVG picture of ``obj``'s graph (same inputs as :func:`dprint`), drawn
    without Graphviz.

    It shows what :func:`to_dot` shows, bottom to top (inputs at the bottom, like
    ``rankdir=BT``): variables are boxes (``class="variable"``; graph inputs
    filled light blue and marked ``input``, outputs filled orange and marked
    ``output``, constants dashed and marked ``constant``), Apply nodes are
    ellipses (``class="apply"``) labelled with their op, and arrows run from each
    input to its Apply node and from there to its outputs. Where a node has
    several inputs (outputs), their arrows meet it left to right in order and
    carry their position. Node ids are :func:`to_dot`'s (``v0``, ``a0``, ...).
    Labels longer than 40 characters are cut with "…"; every node's full label
    is in its ``<title>`` (a tooltip in browsers). ``title`` is shown above the
    graph. The layout is layered (:mod:`lazygraph._svg_layout`); it takes time
    roughly linear in the graph's size, and the text is deterministic.

    >>> import xml.etree.ElementTree as ET
    >>> from lazygraph.graph.basic import Apply, Op, Type
    >>> class Add(Op):
    ...     def make_node(self, x, y):
    ...         return Apply(self, [x, y], [x.type()])
    >>> x, y = Type()("x"), Type()("y")
    >>> svg = to_svg(Add()(x, y), title="x + y")
    >>> root = ET.fromstring(svg)
    >>> [(g.get("id"), g.get("class")) for g in root.iter("{http://www.w3.org/2000/svg}g")
    ...  if g.get("id")]
    [('v0', 'variable input'), ('v1', 'variable input'), ('a0', 'apply'), ('v2', 'variable output')]
    """
    from lazygraph._svg_layout import layered_layout
    from lazygraph.graph.traversal import io_toposort

    outputs = _outputs_of(obj)
    output_set = set(outputs)
    # The nodes, variables and Apply nodes together, numbered in topological order.
    index: dict[Variable, int] = {}
    ids: list[str] = []
    labels: list[str] = []
    classes: list[str] = []
    preds: list[list[int]] = []
    # (from, to, port at the start, ports there, port at the end, ports there)
    edges: list[tuple[int, int, int, int, int, int]] = []

    def add_node(node_id: str, label: str, cls: str) -> int:
        ids.append(node_id)
        labels.append(label)
        classes.append(cls)
        preds.append([])
        return len(ids) - 1

    def var_node(v: Variable) -> int:
        i = index.get(v)
        if i is None:
            cls = f"variable {_var_kind(v, output_set)}".rstrip()
            i = index[v] = add_node(f"v{len(index)}", _var_label(v), cls)
        return i

    for k, node in enumerate(io_toposort((), outputs)):
        ins = [var_node(v) for v in node.inputs]
        a = add_node(f"a{k}", str(node.op), "apply")
        for p, i in enumerate(ins):
            preds[a].append(i)
            edges.append((i, a, 0, 1, p, len(ins)))
        for q, out in enumerate(node.outputs):
            o = var_node(out)
            preds[o].append(a)
            edges.append((a, o, q, len(node.outputs), 0, 1))
    for v in outputs:  # outputs that are inputs or constants
        var_node(v)

    shown = [_short(label) for label in labels]
    widths = [
        max(36.0, _CHAR_W * len(text) * (1.12 if cls == "apply" else 1.0) + 16.0)
        for text, cls in zip(shown, classes, strict=True)
    ]
    layers, xs, bends = layered_layout(preds, widths)
    n_layers = max(layers, default=-1) + 1
    pitch = _ELLIPSE_H + _RANK_SEP
    top = _MARGIN + (_TITLE_H if title else 0.0)

    def y_of(layer: int) -> float:
        return top + (n_layers - 1 - layer) * pitch + _ELLIPSE_H / 2

    X = [x + _MARGIN for x in xs]
    Y = [y_of(layer) for layer in layers]
    width = max((x + w / 2 for x, w in zip(X, widths, strict=True)), default=0.0) + _MARGIN
    if title:
        width = max(width, 2 * _MARGIN + _CHAR_W * 14 / 12 * len(title))
    height = top + max(n_layers * pitch - _RANK_SEP, 0.0) + _MARGIN

    def port(i: int, k: int, m: int, upper: bool) -> tuple[float, float]:
        # where the k-th of m arrows meets node i, on its upper or lower side
        if classes[i] != "apply":
            return X[i], Y[i] + (-_BOX_H / 2 if upper else _BOX_H / 2)
        rx, ry = widths[i] / 2, _ELLIPSE_H / 2
        dx = 0.0 if m == 1 else (k / (m - 1) - 0.5) * min(1.2 * rx, 28.0 * (m - 1))
        dy = ry * math.sqrt(max(0.0, 1.0 - (dx / rx) ** 2))
        return X[i] + dx, Y[i] + (-dy if upper else dy)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.1f}" height="{height:.1f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="monospace" font-size="12">',
    ]
    if title:
        out.append(f"<title>{_xml(title)}</title>")
    out += [
        '<defs><marker id="lazygraph-arrow" viewBox="0 0 10 10" refX="10" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#555555"/></marker></defs>',
        '<rect class="background" width="100%" height="100%" fill="#ffffff"/>',
    ]
    if title:
        out.append(
            f'<text class="title" x="{_MARGIN:.1f}" y="{_MARGIN + 14:.1f}" font-size="14" '
            f'font-weight="bold">{_xml(title)}</text>'
        )
    out.append('<g class="edges" fill="none" stroke="#555555">')
    for src, dst, q, n_out, p, n_in in edges:
        x1, y1 = port(src, q, n_out, upper=True)
        x2, y2 = port(dst, p, n_in, upper=False)
        # through the bends of an edge that skips layers, vertical at every point
        points = [(x1, y1)]
        points += [
            (bx + _MARGIN, y_of(layers[src] + 1 + k))
            for k, bx in enumerate(bends.get((src, dst), ()))
        ]
        points.append((x2, y2))
        d = [f"M{x1:.1f},{y1:.1f}"]
        for (xa, ya), (xb, yb) in itertools.pairwise(points):
            ym = (ya + yb) / 2
            d.append(f"C{xa:.1f},{ym:.1f} {xb:.1f},{ym:.1f} {xb:.1f},{yb:.1f}")
        out.append(f'<path d="{" ".join(d)}" marker-end="url(#lazygraph-arrow)"/>')
        if n_out > 1:
            out.append(
                f'<text x="{x1 + 3:.1f}" y="{y1 - 4:.1f}" font-size="9" fill="#555555" '
                f'stroke="none">{q}</text>'
            )
        if n_in > 1:
            out.append(
                f'<text x="{x2 + 3:.1f}" y="{y2 + 12:.1f}" font-size="9" fill="#555555" '
                f'stroke="none">{p}</text>'
            )
    out += ["</g>", '<g class="nodes" text-anchor="middle">']
    for i, cls in enumerate(classes):
        x, y, w = X[i], Y[i], widths[i]
        if cls == "apply":
            shape = (
                f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="{w / 2:.1f}" ry="{_ELLIPSE_H / 2:.1f}" '
                'fill="#ffffff" stroke="#333333"/>'
            )
        else:
            fill = {"variable input": _INPUT_FILL, "variable output": _OUTPUT_FILL}.get(
                cls, "#ffffff"
            )
            dash = ' stroke-dasharray="4 3"' if cls == "variable constant" else ""
            shape = (
                f'<rect x="{x - w / 2:.1f}" y="{y - _BOX_H / 2:.1f}" width="{w:.1f}" '
                f'height="{_BOX_H:.1f}" rx="3" fill="{fill}" stroke="#333333"{dash}/>'
            )
        out.append(
            f'<g class="{cls}" id="{ids[i]}"><title>{_xml(labels[i])}</title>{shape}'
            f'<text x="{x:.1f}" y="{y:.1f}" dy="0.35em">{_xml(shown[i])}</text></g>'
        )
    out += ["</g>", "</svg>"]
    return "\n".join(out) + "\n"


def render(obj: Any, path: str | os.PathLike[str], format: str = "png") -> str:
    """Draw ``obj``'s graph (see :func:`to_dot`) into the file ``path``; return the path.

    ``format`` is any Graphviz output format (``"png"``, ``"svg"``, ``"pdf"``, ...).
    Graphviz draws it, through the ``graphviz`` Python package and the ``dot``
    program. Without them, ``format="svg"`` writes :func:`to_svg`'s picture
    instead; other formats raise a ``RuntimeError`` that says what to install.
    """
    try:
        import graphviz
    except ImportError as exc:
        if format == "svg":
            return _write_svg(obj, path)
        raise RuntimeError(
            "render needs the 'graphviz' Python package (pip install graphviz) and the "
            "Graphviz programs (e.g. apt install graphviz, brew install graphviz); "
            "to_dot(obj) gives the DOT text without them"
        ) from exc
    source = graphviz.Source(to_dot(obj))
    try:
        data = source.pipe(format=format)
    except graphviz.ExecutableNotFound as exc:
        if format == "svg":
            return _write_svg(obj, path)
        raise RuntimeError(
            "rendering needs Graphviz's 'dot' program, which was not found on PATH: "
            "install Graphviz (e.g. apt install graphviz, brew install graphviz, "
            "conda install graphviz); to_dot(obj) gives the DOT text without it"
        ) from exc
    except Exception as exc:  # graphviz.CalledProcessError, unknown formats
        raise RuntimeError(f"Graphviz could not render the graph as {format!r}: {exc}") from exc
    with open(path, "wb") as f:
        f.write(data)
    return os.fspath(path)


def _write_svg(obj: Any, path: str | os.PathLike[str]) -> str:
    with open(path, "w", encoding="utf-8") as f:
        f.write(to_svg(obj))
    return os.fspath(path)

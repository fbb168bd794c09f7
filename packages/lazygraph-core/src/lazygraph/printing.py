"""Looking at graphs: :func:`dprint` (an indented tree with ids), :func:`to_dot`
(Graphviz DOT text) and :func:`render` (an image, through the ``graphviz`` package).

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

import os
import sys
from collections.abc import Sequence
from typing import IO, Any

from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph

__all__ = ["MAX_INDENT", "dprint", "render", "to_dot"]

#: Nesting levels drawn with tree lines; deeper levels keep that width and show
#: their level number, so printing a long chain takes linear time and space.
MAX_INDENT = 40

_SEGMENT = 3  # width of "│  " / "   "


def _outputs_of(obj: Any) -> list[Variable]:
    """The variables at the roots of the picture of ``obj``."""
    fgraph = getattr(obj, "fgraph", None)
    if isinstance(fgraph, FunctionGraph):  # a compiled Function
        obj = fgraph
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
        "dprint and to_dot take a Variable, a list of Variables, an Apply node, "
        f"a FunctionGraph or a compiled Function, not {type(obj).__name__}"
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
    FunctionGraph (its outputs) or a compiled Function (its ``fgraph``). Each
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
            # A computed variable is labelled by its name, else its type (the op
            # is on the ellipse next to it); leaves by their name or value.
            label = str(v) if v.name is not None or v.owner is None else f"<{v.type}>"
            attrs = [f"label={_dot_quote(label)}", "shape=box"]
            if v in output_set:
                attrs += ["style=filled", 'fillcolor="#f8e0c8"']
            elif v.owner is None and not isinstance(v, Constant):
                attrs += ["style=filled", 'fillcolor="#d8e8f8"']
            elif isinstance(v, Constant):
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


def render(obj: Any, path: str | os.PathLike[str], format: str = "png") -> str:
    """Draw ``obj``'s graph (see :func:`to_dot`) into the file ``path``; return the path.

    ``format`` is any Graphviz output format (``"png"``, ``"svg"``, ``"pdf"``, ...).
    Needs the ``graphviz`` Python package and the Graphviz ``dot`` program; without
    them a ``RuntimeError`` says what to install.
    """
    try:
        import graphviz
    except ImportError as exc:
        raise RuntimeError(
            "render needs the 'graphviz' Python package (pip install graphviz) and the "
            "Graphviz programs (e.g. apt install graphviz, brew install graphviz); "
            "to_dot(obj) gives the DOT text without them"
        ) from exc
    source = graphviz.Source(to_dot(obj))
    try:
        data = source.pipe(format=format)
    except graphviz.ExecutableNotFound as exc:
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

"""One-line string forms of graphs: ``add(z, mul(x, div(z, x)))``.

A node whose outputs are used more than once is printed in full the first time,
labelled ``*1 -> ...``, and as ``*1`` after that:

>>> from lazygraph.graph.basic import Apply, Op, Type
>>> class Add(Op):
...     def make_node(self, x, y):
...         return Apply(self, [x, y], [x.type()])
...     def __str__(self):
...         return "add"
>>> x, y = Type()("x"), Type()("y")
>>> s = Add()(x, y)
>>> as_string([x, y], [Add()(s, s)])
['add(*1 -> add(x, y), *1)']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lazygraph.graph.basic import Apply, Variable
from lazygraph.graph.traversal import orphans as find_orphans

__all__ = ["as_string", "default_node_formatter", "op_as_string"]


def default_node_formatter(op: object, argstrings: Sequence[str]) -> str:
    return f"{op}({', '.join(argstrings)})"


def as_string(
    inputs: Sequence[Variable],
    outputs: Sequence[Variable],
    leaf_formatter: Callable[[Variable], str] = str,
    node_formatter: Callable[[object, Sequence[str]], str] = default_node_formatter,
) -> list[str]:
    """One string per output describing how it is computed from ``inputs``.

    Raises ``ValueError`` if an output depends on an ownerless variable that is
    neither in ``inputs`` nor an orphan (constant).
    """
    input_set = set(inputs)
    orphan_set = set(find_orphans(input_set, outputs))

    def is_leaf(v: Variable) -> bool:
        return v.owner is None or v in input_set or v in orphan_set

    # Nodes whose outputs are read more than once get a *N label.
    uses: dict[Apply, int] = {}
    seen: set[Variable] = set()
    stack = list(outputs)
    while stack:
        v = stack.pop()
        if is_leaf(v):
            continue
        node = v.owner
        assert node is not None
        uses[node] = uses.get(node, 0) + 1
        if v in seen:
            continue
        seen.add(v)
        if uses[node] == 1:
            stack.extend(node.inputs)
    multi = {node for node, n in uses.items() if n > 1}

    labels: dict[Apply, int] = {}

    def suffix(v: Variable) -> str:
        node = v.owner
        assert node is not None
        return "" if len(node.outputs) == 1 else f"::{v.index}"

    def describe(root: Variable) -> str:
        # Iterative version of the natural recursion: frames are
        # (variable, its node, strings of the inputs described so far).
        result: str | None = None
        frames: list[tuple[Variable, Apply, list[str]]] = []

        def enter(v: Variable) -> str | None:
            if is_leaf(v):
                if v.owner is not None or v in input_set or v in orphan_set:
                    return leaf_formatter(v)
                raise ValueError(f"{v} is an input of the graph but not among the given inputs")
            node = v.owner
            assert node is not None
            if node in labels:
                return f"*{labels[node]}{suffix(v)}"
            if node in multi:
                labels[node] = len(labels) + 1
            frames.append((v, node, []))
            return None

        result = enter(root)
        while frames:
            v, node, args = frames[-1]
            if len(args) < len(node.inputs):
                text = enter(node.inputs[len(args)])
                if text is not None:
                    args.append(text)
                continue
            frames.pop()
            text = node_formatter(node.op, args)
            if node in multi:
                text = f"*{labels[node]} -> {text}"
            if frames:
                frames[-1][2].append(text)
            else:
                result = text
        assert result is not None
        return result

    return [describe(o) for o in outputs]


def op_as_string(
    inputs: Sequence[Variable],
    node: Apply,
    leaf_formatter: Callable[[Variable], str] = str,
    node_formatter: Callable[[object, Sequence[str]], str] = default_node_formatter,
) -> str:
    """The string of one Apply node given its (leaf) inputs: ``add(x, y)``."""
    strs = as_string(inputs, node.inputs, leaf_formatter, node_formatter)
    return node_formatter(node.op, strs)

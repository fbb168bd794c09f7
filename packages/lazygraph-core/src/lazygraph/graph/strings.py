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

__all__ = ["as_string", "default_node_formatter", "op_as_string"]


def default_node_formatter(op: object, argstrings: Sequence[str]) -> str:
    """``op(arg1, arg2)``."""
    return f"{op}({', '.join(argstrings)})"


def as_string(
    inputs: Sequence[Variable],
    outputs: Sequence[Variable],
    leaf_formatter: Callable[[Variable], str] = str,
    node_formatter: Callable[[object, Sequence[str]], str] = default_node_formatter,
) -> list[str]:
    """One string per output describing how it is computed from ``inputs``.

    Ownerless variables that are not in ``inputs`` (constants, orphans) print with
    ``leaf_formatter``, like inputs. A node whose outputs are read more than once
    (within one output's string or across outputs) is printed in full the first
    time as ``*N -> ...`` and as ``*N`` afterwards; output ``k`` of a
    multi-output node prints as ``*N::k``.
    """
    input_set = set(inputs)

    def is_leaf(v: Variable) -> bool:
        return v.owner is None or v in input_set

    # Nodes whose outputs are read more than once get a *N label.
    uses: dict[Apply, int] = {}
    stack = list(outputs)
    while stack:
        v = stack.pop()
        if is_leaf(v):
            continue
        node = v.owner
        assert node is not None
        n = uses.get(node, 0) + 1
        uses[node] = n
        if n == 1:
            stack.extend(node.inputs)
    multi = {node for node, n in uses.items() if n > 1}
    labels: dict[Apply, int] = {}
    if node_formatter is default_node_formatter:
        return [_describe_default(o, is_leaf, leaf_formatter, multi, labels) for o in outputs]
    return [_describe(o, is_leaf, leaf_formatter, node_formatter, multi, labels) for o in outputs]


def _reference(v: Variable, labels: dict[Apply, int]) -> str | None:
    """``*N`` (or ``*N::k``) if ``v``'s node was already printed, else ``None``."""
    node = v.owner
    if node is None or node not in labels:
        return None
    suffix = "" if len(node.outputs) == 1 else f"::{v.index}"
    return f"*{labels[node]}{suffix}"


def _describe_default(
    root: Variable,
    is_leaf: Callable[[Variable], bool],
    leaf_formatter: Callable[[Variable], str],
    multi: set[Apply],
    labels: dict[Apply, int],
) -> str:
    # With the default ``op(args)`` form the text is streamed into a list of
    # pieces and joined once: nesting strings level by level would copy the
    # text once per level (quadratic on a long chain).
    pieces: list[str] = []
    # Work items: a Variable to print, or a literal string to emit.
    work: list[Variable | str] = [root]
    while work:
        item = work.pop()
        if isinstance(item, str):
            pieces.append(item)
            continue
        if is_leaf(item):
            pieces.append(leaf_formatter(item))
            continue
        ref = _reference(item, labels)
        if ref is not None:
            pieces.append(ref)
            continue
        node = item.owner
        assert node is not None
        if node in multi:
            labels[node] = len(labels) + 1
            pieces.append(f"*{labels[node]} -> ")
        pieces.append(f"{node.op}(")
        work.append(")")
        args = node.inputs
        for k in range(len(args) - 1, -1, -1):
            work.append(args[k])
            if k:
                work.append(", ")
    return "".join(pieces)


def _describe(
    root: Variable,
    is_leaf: Callable[[Variable], bool],
    leaf_formatter: Callable[[Variable], str],
    node_formatter: Callable[[object, Sequence[str]], str],
    multi: set[Apply],
    labels: dict[Apply, int],
) -> str:
    # The natural recursion made iterative: frames are (node, strings of the
    # inputs described so far).
    frames: list[tuple[Apply, list[str]]] = []

    def enter(v: Variable) -> str | None:
        if is_leaf(v):
            return leaf_formatter(v)
        ref = _reference(v, labels)
        if ref is not None:
            return ref
        node = v.owner
        assert node is not None
        if node in multi:
            labels[node] = len(labels) + 1
        frames.append((node, []))
        return None

    result = enter(root)
    while frames:
        node, args = frames[-1]
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
            frames[-1][1].append(text)
        else:
            result = text
    assert result is not None
    return result


def op_as_string(
    inputs: Sequence[Variable],
    node: Apply,
    leaf_formatter: Callable[[Variable], str] = str,
    node_formatter: Callable[[object, Sequence[str]], str] = default_node_formatter,
) -> str:
    """The string of one Apply node given its (leaf) inputs: ``add(x, y)``."""
    strs = as_string(inputs, node.inputs, leaf_formatter, node_formatter)
    return node_formatter(node.op, strs)

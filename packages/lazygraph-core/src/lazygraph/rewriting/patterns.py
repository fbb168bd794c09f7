"""Node rewriters written as data: patterns, op substitution and op removal.

A pattern is

- a tuple ``(op, sub_pattern, ...)``: a node applying ``op`` (an op instance,
  compared with ``==``, or an op class) whose inputs match the sub-patterns;
- a string: a named variable matching anything; the same name twice must
  match the same variable;
- a :class:`~lazygraph.graph.basic.Constant` or a Python number: a constant
  with that value;
- a dict ``{"pattern": p, "constraint": fn}``: ``p``, if ``fn(variable)`` is true.

>>> from lazygraph.graph.basic import Apply, Op, Type
>>> from lazygraph.graph.fg import FunctionGraph
>>> class BinOp(Op):
...     __props__ = ("name",)
...     def __init__(self, name):
...         self.name = name
...     def make_node(self, a, b):
...         return Apply(self, [a, b], [a.type()])
...     def __str__(self):
...         return self.name
>>> mul, div = BinOp("mul"), BinOp("div")
>>> rw = PatternNodeRewriter((div, (mul, "x", "y"), "y"), "x")
>>> str(rw)
'div(mul(x, y), y) -> x'
>>> x, y = Type()("x"), Type()("y")
>>> fg = FunctionGraph([x, y], [div(mul(x, y), y)], clone=False)
>>> rw.transform(fg, fg.outputs[0].owner) == [x]
True
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting.basic import NodeRewriter, Replacements, Track

__all__ = ["PatternNodeRewriter", "RemovalNodeRewriter", "SubstitutionNodeRewriter"]

Pattern = Any


def _pattern_str(pattern: Pattern) -> str:
    if isinstance(pattern, tuple):
        head, *args = pattern
        name = head.__name__ if isinstance(head, type) else str(head)
        return f"{name}({', '.join(_pattern_str(a) for a in args)})"
    if isinstance(pattern, dict):
        return _pattern_str(pattern["pattern"])
    return str(pattern)


def _constant_matches(pattern: Any, var: Variable) -> bool:
    if not isinstance(var, Constant):
        return False
    if isinstance(pattern, Constant):
        if pattern is var:
            return True
        try:
            return bool(pattern.signature() == var.signature())
        except (TypeError, ValueError):
            return bool(pattern.type == var.type and np.array_equal(pattern.data, var.data))
    try:
        return bool(np.all(np.asarray(var.data) == pattern))
    except (TypeError, ValueError):
        return False


class PatternNodeRewriter(NodeRewriter):
    """Replace what matches ``in_pattern`` by ``out_pattern`` (Theano's ``PatternSub``).

    ``out_pattern`` uses the names bound by ``in_pattern``; its tuples
    ``(op, ...)`` build new nodes (``op`` may be any callable returning a
    variable) and its numbers become constants of the replaced output's type.
    Unless ``allow_multiple_clients``, inner nodes of the match must have no
    other reader, so the rewrite never duplicates work.

    >>> PatternNodeRewriter(("neg", "x"), "x").name
    'neg(x) -> x'
    """

    def __init__(
        self,
        in_pattern: Pattern,
        out_pattern: Pattern,
        allow_multiple_clients: bool = False,
        name: str | None = None,
    ) -> None:
        root = in_pattern["pattern"] if isinstance(in_pattern, dict) else in_pattern
        if not isinstance(root, tuple) or not root:
            raise TypeError("the in_pattern of a PatternNodeRewriter must be (op, ...)")
        self.in_pattern = in_pattern
        self.out_pattern = out_pattern
        self.op = root[0]
        self.allow_multiple_clients = allow_multiple_clients
        self.name = name

    def default_name(self) -> str:
        return f"{_pattern_str(self.in_pattern)} -> {_pattern_str(self.out_pattern)}"

    def tracks(self) -> Sequence[Track] | None:
        return [self.op] if isinstance(self.op, Op | type) else None

    def op_key(self) -> Any:
        return self.op

    def transform(self, fgraph: FunctionGraph, node: Apply) -> Replacements:
        if len(node.outputs) != 1:
            return False
        bindings: dict[str, Variable] = {}
        if not self._match(fgraph, self.in_pattern, node.outputs[0], bindings, root=True):
            return False
        out = node.outputs[0]
        new = self._build(self.out_pattern, bindings, out)
        if new is None:
            return False
        if new.type != out.type:
            converted = out.type.convert_variable(new)
            if converted is None:
                return False
            new = converted
        return [new]

    def _match(
        self,
        fgraph: FunctionGraph,
        pattern: Pattern,
        var: Variable,
        bindings: dict[str, Variable],
        root: bool = False,
    ) -> bool:
        # Patterns are shallow in practice; an explicit stack would only obscure this.
        if isinstance(pattern, dict):
            if not self._match(fgraph, pattern["pattern"], var, bindings, root):
                return False
            constraint: Callable[[Variable], bool] | None = pattern.get("constraint")
            return constraint is None or bool(constraint(var))
        if isinstance(pattern, str):
            bound = bindings.get(pattern)
            if bound is None:
                bindings[pattern] = var
                return True
            if bound is var:
                return True
            # Equal constants are interchangeable even before merge.
            return isinstance(bound, Constant) and _constant_matches(bound, var)
        if isinstance(pattern, tuple):
            node = var.owner
            if node is None:
                return False
            head = pattern[0]
            if isinstance(head, type):
                if not isinstance(node.op, head):
                    return False
            elif node.op != head:
                return False
            if len(node.inputs) != len(pattern) - 1:
                return False
            if (
                not root
                and not self.allow_multiple_clients
                and fgraph is not None
                and len(fgraph.clients.get(var, ())) > 1
            ):
                return False
            return all(
                self._match(fgraph, sub, inp, bindings)
                for sub, inp in zip(pattern[1:], node.inputs, strict=True)
            )
        if isinstance(pattern, Constant | numbers.Number | np.ndarray):
            return _constant_matches(pattern, var)
        raise TypeError(f"cannot match a pattern of type {type(pattern).__name__}: {pattern!r}")

    def _build(self, pattern: Pattern, bindings: dict[str, Variable], like: Variable) -> Any:
        if isinstance(pattern, dict):
            pattern = pattern["pattern"]
        if isinstance(pattern, str):
            return bindings[pattern]
        if isinstance(pattern, tuple):
            head, *args = pattern
            built = [self._build(a, bindings, like) for a in args]
            return head(*built)
        if isinstance(pattern, Variable):
            return pattern
        return like.type.make_constant(pattern)


class SubstitutionNodeRewriter(NodeRewriter):
    """Replace every application of ``op1`` by ``op2`` on the same inputs
    (Theano's ``OpSub``).

    >>> from lazygraph.graph.basic import Op
    >>> class A(Op): pass
    >>> class B(Op): pass
    >>> str(SubstitutionNodeRewriter(A(), B()))
    'A -> B'
    """

    def __init__(self, op1: Op, op2: Op, transfer_tags: bool = True, name: str | None = None):
        self.op1 = op1
        self.op2 = op2
        self.transfer_tags = transfer_tags
        self.name = name

    def default_name(self) -> str:
        return f"{self.op1} -> {self.op2}"

    def tracks(self) -> Sequence[Track] | None:
        return [self.op1]

    def op_key(self) -> Op:
        return self.op1

    def transform(self, fgraph: FunctionGraph, node: Apply) -> Replacements:
        if node.op != self.op1:
            return False
        new_node = self.op2.make_node(*node.inputs)
        if self.transfer_tags and node._tag is not None:
            for old, new in zip(node.outputs, new_node.outputs, strict=False):
                if old._tag is not None:
                    vars(new.tag).update(vars(old._tag))
        return new_node.outputs


class RemovalNodeRewriter(NodeRewriter):
    """Remove every application of ``op``: output ``i`` becomes input ``i``
    (Theano's ``OpRemove``). ``op`` must have as many outputs as inputs.

    >>> from lazygraph.graph.basic import Op
    >>> class Identity(Op): pass
    >>> str(RemovalNodeRewriter(Identity()))
    'Identity(x) -> x'
    """

    def __init__(self, op: Op, name: str | None = None) -> None:
        self.op = op
        self.name = name

    def default_name(self) -> str:
        return f"{self.op}(x) -> x"

    def tracks(self) -> Sequence[Track] | None:
        return [self.op]

    def op_key(self) -> Op:
        return self.op

    def transform(self, fgraph: FunctionGraph, node: Apply) -> Replacements:
        if node.op != self.op:
            return False
        if len(node.inputs) != len(node.outputs):
            raise ValueError(f"{self.op} has {node.nin} inputs and {node.nout} outputs")
        return list(node.inputs)

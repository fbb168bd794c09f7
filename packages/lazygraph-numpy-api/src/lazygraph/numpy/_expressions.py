"""Expressions of values computed at once.

A value lazygraph.numpy computed at once (or a graph computed and pinned) may
be read by a later graph where a stabilising rule would have rewritten the
computation that gave it: ``log(1 + x)`` is ``log1p(x)`` and
``log(sum(exp(x)))`` a ``logsumexp`` only if the graph sees ``1 + x`` and
``exp(x)``, not their values. Such a value keeps the unevaluated graph that
gave it as its *expression* (``var.tag.lazygraph_expression``: a
``(variable, depth)`` pair, or a handle that makes one when first asked for),
and a later graph reads the expression instead of the value exactly where a
value-changing rule then applies (:func:`rule_reads_expressions`; see
``lazygraph.numpy._compute``). So results never depend on whether a value was
computed at once, printed, or left to the graph.

>>> import numpy as np
>>> import lazygraph.numpy as lnp
>>> e = lnp.exp(lnp.asarray(np.array([-800.0, 0.0])))
>>> float(e[0])  # computed: exp(-800) underflows to 0
0.0
>>> lnp.log(e).compute().tolist()  # log(exp(x)) is x: the rule read e's expression
[-800.0, 0.0]
"""

from __future__ import annotations

import weakref
from typing import Any

from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.rewriting.stabilize import (
    canonical,
    may_be_stabilised,
    rewrites_value,
    tracked_by_a_value_rule,
)

__all__ = [
    "EXPRESSION_DEPTH",
    "PIN_EXPRESSION_ELEMENTS",
    "PIN_EXPRESSION_NODES",
    "expression_of",
    "has_expression",
    "keep_expression",
    "pin_expression",
    "rule_reads_expressions",
]


#: How many nodes above an inner node of a stabilising rule (``exp(x)``) a
#: value computed at once keeps its expression for: the longest pattern
#: (``exp`` under a DimShuffle, a sum and a DimShuffle, read by a ``divide``)
#: spans three.
EXPRESSION_DEPTH = 4


def expression_of(var: Variable) -> tuple[Variable, int] | None:
    """``(expression, depth)`` when ``var`` holds a value computed at once from
    the output of a node that a stabilising rule looks through (``exp(x)``,
    ``sigmoid(x)``, ``1 + x``), or from such a value ``depth`` nodes below:
    the unevaluated graph that gave the value (over known inputs), which the
    graph of every reader that is left lazy reads instead of the value
    (:func:`lazygraph.numpy._compute`). So ``log(1 + x)`` is ``log1p(x)`` and
    ``log(sum(exp(x)))`` a ``logsumexp`` although ``1 + x`` and ``sum(exp(x))``
    were computed at once; None for every other variable."""
    tag = var._tag
    if tag is None:
        return None
    handle = getattr(tag, "lazygraph_expression", None)
    if handle is None or type(handle) is tuple:
        return handle  # type: ignore[no-any-return]
    expression = tag.lazygraph_expression = _resolve(handle)
    return expression


def has_expression(var: Variable) -> bool:
    """Whether ``var`` has an expression (:func:`expression_of`), without making
    a pending one."""
    tag = var._tag
    return tag is not None and getattr(tag, "lazygraph_expression", None) is not None


def _handle(var: Variable) -> Any:
    """The expression of ``var`` as kept: a ``(variable, depth)`` pair, one still
    to be made (:class:`_Pending`, :class:`_Derived`), or None."""
    tag = var._tag
    return None if tag is None else getattr(tag, "lazygraph_expression", None)


def _depth(handle: Any) -> int:
    if type(handle) is tuple:
        return handle[1]  # type: ignore[no-any-return]
    return handle.depth  # type: ignore[no-any-return]


def _resolve(handle: Any) -> tuple[Variable, int] | None:
    """The ``(expression, depth)`` pair of a kept expression, made now if pending."""
    if handle is None or type(handle) is tuple:
        return handle  # type: ignore[no-any-return]
    return handle.make()  # type: ignore[no-any-return]


def keep_expression(var: Variable, expression: Any) -> None:
    var.tag.lazygraph_expression = expression


class _Derived:
    """The expression of a value computed at once by a node that no rule changing
    values has as its outer node (``1 + exp(x)``, ``A @ softmax``), over the
    expressions of its operands: made, in the canonical form the rules match,
    when first asked for. Nothing has to be decided about such a node when it
    runs (no rule could leave it to the graph), and most of these expressions
    are never read (an iterative loop's ``w - lr * grad``)."""

    __slots__ = ("depth", "handles", "node")

    def __init__(self, node: Apply, handles: list[Any], depth: int) -> None:
        self.node = node
        self.handles = handles  # per input: None (read as it is) or its expression
        self.depth = depth

    def make(self) -> tuple[Variable, int] | None:
        over = _over_expressions(self.node, self.handles)
        return None if over is None else (_merged(over), self.depth)


def _over_expressions(node: Apply, handles: list[Any]) -> Variable | None:
    """``node`` reading its inputs' expressions (where ``handles`` has one), in
    the canonical form the rules match; None when the clone is refused."""
    ins = []
    for v, h in zip(node.inputs, handles, strict=True):
        got = _resolve(h)
        ins.append(v if got is None else got[0])
    try:
        return canonical(node.clone_with_new_inputs(ins).outputs[0])
    except TypeError:
        return None


#: the most nodes the graph of a computed value may have for the value to keep
#: it as its expression (:func:`pin_expression`); larger graphs keep the value
#: only, so the expressions a later graph reads stay small and hold few inputs
PIN_EXPRESSION_NODES = 16


#: the most elements the inputs of such an expression may hold together (those
#: of the values computed at once, 1 MiB of float64): an expression keeps its
#: inputs alive, and a loop rebinding a large array (``x = np.exp(x)``) must
#: not hold the previous one too
PIN_EXPRESSION_ELEMENTS = 1 << 17


def pin_expression(var: Variable) -> tuple[Variable, int] | None:
    """The expression a value computed by a graph keeps when it is pinned
    (:mod:`lazygraph.numpy._compute`): ``(var, level)`` when ``var``'s graph
    has at most :data:`PIN_EXPRESSION_NODES` nodes, reads only inputs without
    expressions of their own, and has an inner node of a stabilising rule
    (``exp``, ``sigmoid``, ``1 + x``) ``level`` <= :data:`EXPRESSION_DEPTH`
    nodes below ``var``, and its inputs hold at most
    :data:`PIN_EXPRESSION_ELEMENTS` elements; else None. So
    ``e = exp(x); print(e); log(e)`` is ``x``, as it is when ``e`` is not
    printed, or computed at once.

    >>> import lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> pin_expression(lt.exp(x) * 2)[1], pin_expression(lt.sin(x) * 2)
    (1, None)
    """
    from lazygraph.numpy._convert import _BOUND  # (it imports this module's users)

    level = None
    seen: set[Variable] = set()
    frontier = [var]
    depth = nodes = elements = 0
    while frontier:
        below = []
        for v in frontier:
            if v in seen:
                continue
            seen.add(v)
            node = v.owner
            if node is None:
                if v._tag is not None and has_expression(v):
                    return None  # its expression is not part of this one
                value = _BOUND.get(v)
                if value is not None:
                    elements += value.size
                    if elements > PIN_EXPRESSION_ELEMENTS:
                        return None
                continue
            nodes += 1
            if nodes > PIN_EXPRESSION_NODES:
                return None
            if level is None and depth <= EXPRESSION_DEPTH and _inner_of_a_rule(node):
                level = depth
            below.extend(node.inputs)
        frontier = below
        depth += 1
    return None if level is None else (var, level)


def rule_reads_expressions(node: Apply) -> bool:
    """Whether a rule that changes values rewrites ``node`` once the values
    computed at once below it (up to :data:`EXPRESSION_DEPTH` nodes down,
    through the nodes of its graph) are read as their expressions: a graph
    reads an expression instead of the value only where this holds, so a
    value read by other nodes is not computed again (``p = sigmoid(X @ w)``
    read by ``X.T @ (p - y)``)."""
    if not tracked_by_a_value_rule(node.op):
        return False
    memo: dict[tuple[Variable, int], Any] = {}
    handles = [_graph_handle(v, EXPRESSION_DEPTH - 1, memo) for v in node.inputs]
    if all(h is None for h in handles):
        return False
    over = _over_expressions(node, handles)
    return over is not None and over.owner is not None and rewrites_value(over.owner)


def _graph_handle(var: Variable, depth: int, memo: dict[tuple[Variable, int], Any]) -> Any:
    """The expression handle of ``var`` within a graph: its own when it is a
    value, else (``depth`` more nodes down at most) a pending one over its
    inputs' handles, or None when no input below has one."""
    node = var.owner
    if node is None:
        return _handle(var)
    if depth == 0 or len(node.outputs) != 1:
        return None
    key = (var, depth)
    if key in memo:
        return memo[key]
    memo[key] = None
    handles = [_graph_handle(v, depth - 1, memo) for v in node.inputs]
    out = None if all(h is None for h in handles) else _Derived(node, handles, 0)
    memo[key] = out
    return out


#: (op, inputs) -> the expression variable of that node: two expressions of the
#: same computation are one variable, as the graph's merge stage makes them
#: (``exp(x) / sum(exp(x))`` is a softmax only when both are one ``exp(x)``)
_EXPRESSIONS: weakref.WeakValueDictionary[tuple[Any, ...], Variable] = weakref.WeakValueDictionary()


def _merged(var: Variable) -> Variable:
    """``var``, or the expression variable already made for the same node."""
    node = var.owner
    if node is None or len(node.outputs) != 1:
        return var
    # inputs by identity (ids: the value's node keeps them alive, so no id is
    # reused while the entry lives; a key holding them would keep an input's
    # own expression alive for one more collection)
    key = (node.op, *(v.signature() if isinstance(v, Constant) else id(v) for v in node.inputs))
    try:
        found = _EXPRESSIONS.get(key)
    except TypeError:  # an unhashable constant
        return var
    if found is not None and found.type == var.type:
        return found
    _EXPRESSIONS[key] = var
    return var


def _inner_of_a_rule(node: Apply) -> bool:
    return type(node.op) is Elemwise and may_be_stabilised(node)

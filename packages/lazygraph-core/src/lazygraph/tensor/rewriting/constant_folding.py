"""Constant folding: a node whose inputs are all constants is computed once,
at compile time, with its op's ``perform``, and replaced by the result.

An op opts out with ``do_constant_folding`` (``Alloc`` and the creation ops
fold only small outputs: a big folded array would be stored, hashed and copied
into every compiled function). Nodes that write into an input
(``destroy_map``) never fold, nor do Ops without a ``perform``. A node whose
``perform`` rejects its values as numpy would (:data:`RUN_TIME_ERRORS`: an index
out of bounds, a failed shape check, a singular matrix) is left for run time,
where it raises as it would without rewriting; any other exception is a bug in
the Op and propagates, so the rewrite is skipped with a ``RewriteWarning`` (or
re-raised, per ``config.on_rewrite_error``) rather than the Op looking merely
"not folded". A node that turns finite inputs into inf or NaN (an
overflow, ``log(0)``) is not folded either: the stabilize stage may still
rewrite the expression around it into a finite one (``log(sum(exp(c)))`` of
constant ``c`` becomes a logsumexp), and folding first would bake in the
naive result.

Registered in the ``canonicalize`` and ``stabilize`` stages as
``constant_folding`` (tags ``fast_run``, ``fast_compile``).

>>> import lazygraph.tensor as lt
>>> from lazygraph.graph.fg import FunctionGraph
>>> from lazygraph.rewriting.navigators import EquilibriumGraphRewriter
>>> x = lt.dvector("x")
>>> fg = FunctionGraph([x], [x + lt.exp(lt.constant(0.0)) * 2.0], clone=False)
>>> EquilibriumGraphRewriter([constant_folding]).rewrite(fg)
>>> print(fg.outputs[0].owner.inputs[1])
2.0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting.basic import node_rewriter
from lazygraph.rewriting.db import optdb
from lazygraph.tensor.fperrors import collect

__all__ = ["RUN_TIME_ERRORS", "constant_folding", "fold_node"]

#: The exceptions a ``perform`` raises for values it rejects, as numpy does at
#: run time (``LinAlgError`` and ``AxisError`` are ``ValueError`` s; numpy's
#: casting errors are ``TypeError`` s): folding leaves such a node for run time.
RUN_TIME_ERRORS: tuple[type[Exception], ...] = (
    ValueError,
    IndexError,
    TypeError,
    ZeroDivisionError,
    OverflowError,
    FloatingPointError,
)


def fold_node(node: Apply) -> list[Constant] | None:
    """The outputs of ``node`` computed now, as constants of the outputs' types,
    or ``None`` when ``node`` cannot or should not be folded.

    >>> import lazygraph.tensor as lt
    >>> [c.data for c in fold_node(lt.add(lt.constant(1), 2).owner)]
    [array(3)]
    """
    if not node.inputs or not all(isinstance(i, Constant) for i in node.inputs):
        return None
    op = node.op
    if getattr(op, "destroy_map", None) or type(op).perform is Op.perform:
        return None  # (no perform: a backend-only Op, nothing to fold with)
    storage: list[list[Any]] = [[None] for _ in node.outputs]
    try:
        _, status = collect(op.perform, node, [i.data for i in node.inputs], storage)
    except RUN_TIME_ERRORS:  # the node raises at run time: leave it there
        return None
    if status or _creates_non_finite(node.inputs, storage):
        # a floating-point error is reported where the value is computed, under
        # the error state in force then (see lazygraph.tensor.fperrors)
        return None
    results = []
    for out, (value,) in zip(node.outputs, storage, strict=True):
        if isinstance(value, np.ndarray) and any(
            np.may_share_memory(value, i.data) for i in node.inputs
        ):
            value = value.copy()  # a view of an input constant (DimShuffle, Subtensor...)
        # (a value its own type rejects is a bug in perform: it propagates)
        data = out.type.filter(value, strict=False)
        results.append(out.type.make_constant(data))
    return results


def _creates_non_finite(inputs: list[Any], storage: list[list[Any]]) -> bool:
    """Whether an inexact output holds inf/NaN although no inexact input does."""

    def non_finite(value: Any) -> bool:
        arr = np.asarray(value)
        return arr.dtype.kind in "fc" and not np.isfinite(arr).all()

    return any(non_finite(cell[0]) for cell in storage) and not any(
        non_finite(i.data) for i in inputs
    )


@node_rewriter(None)
def constant_folding(fgraph: FunctionGraph, node: Apply) -> list[Constant] | None:
    """op(c1, c2, ...) -> the constant it computes (when ``op.do_constant_folding``)."""
    if not node.inputs:
        return None
    for i in node.inputs:  # runs on every node: a plain loop, no generator
        if not isinstance(i, Constant):
            return None
    if not node.op.do_constant_folding(fgraph, node):
        return None
    return fold_node(node)


optdb["canonicalize"].register(  # type: ignore[call-arg]
    "constant_folding", constant_folding, "fast_run", "fast_compile"
)
optdb["stabilize"].register(  # type: ignore[call-arg]
    "constant_folding", constant_folding, "fast_run", "fast_compile", "stability"
)

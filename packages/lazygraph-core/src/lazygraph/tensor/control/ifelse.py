"""``IfElse``: run one of two branch graphs, chosen at run time, as one node.

An ``IfElse`` node's inputs are ``[pred, *operands]``; both inner graphs
(``then_graph`` and ``else_graph``) read ``[*operands]`` (what either branch
reads from outside is an operand too) and give outputs of the same dtypes and
ranks. Only the chosen branch runs. Its gradient is an ``IfElse`` of the two
branches' gradients; its forward derivative an ``IfElse`` of their forward
derivatives.

>>> import lazygraph.tensor as lt
>>> p, x = lt.bscalar("p"), lt.dscalar("x")
>>> (y,) = cond_apply(p, [x], [x], [x * 2], [x - 1])
>>> float(y.eval({p: 1, x: 5.0})), float(y.eval({p: 0, x: 5.0}))
(10.0, 4.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.control.inner import InnerGraph, closure
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import as_tensor_variable

__all__ = ["IfElse", "cond_apply"]


def _is_float(v: Variable) -> bool:
    t = v.type
    return isinstance(t, TensorType) and t.numpy_dtype.kind in "fc"


def joined_type(k: int, a: Any, b: Any) -> TensorType:
    """The type of output ``k`` of either branch (``TypeError`` unless they have
    the same dtype and rank); a size is static when both branches agree on it."""
    if not (
        isinstance(a, TensorType)
        and isinstance(b, TensorType)
        and a.dtype == b.dtype
        and a.ndim == b.ndim
    ):
        raise TypeError(
            f"cond: true_fun and false_fun output must have identical types; output {k} is "
            f"{a} in true_fun and {b} in false_fun"
        )
    shape = tuple(s if s == t else None for s, t in zip(a.shape, b.shape, strict=True))
    return TensorType(a.dtype, shape)


class IfElse(Op):
    """``then_graph(*operands) if pred else else_graph(*operands)``, running
    only the chosen branch (see the module docstring)."""

    __props__: ClassVar[tuple[str, ...]] = ("then_graph", "else_graph")

    def __init__(self, then_graph: InnerGraph, else_graph: InnerGraph) -> None:
        if [v.type for v in then_graph.inputs] != [v.type for v in else_graph.inputs]:
            raise ValueError("IfElse: both branches must read the same operands")
        if len(then_graph.outputs) != len(else_graph.outputs):
            raise TypeError(
                f"cond: true_fun and false_fun must return the same structure; they return "
                f"{len(then_graph.outputs)} and {len(else_graph.outputs)} arrays"
            )
        self.then_graph = then_graph
        self.else_graph = else_graph
        self.out_types = [
            joined_type(k, a.type, b.type)
            for k, (a, b) in enumerate(zip(then_graph.outputs, else_graph.outputs, strict=True))
        ]

    def __str__(self) -> str:
        return f"IfElse{{outputs={len(self.out_types)}}}"

    def make_node(self, pred: Any, *operands: Any) -> Apply:
        pred = as_tensor_variable(pred)
        if pred.type.ndim != 0 or pred.type.numpy_dtype.kind not in "biuf":  # type: ignore[attr-defined]
            raise TypeError(f"cond: pred must be a boolean or number scalar, got {pred.type}")
        if len(operands) != len(self.then_graph.inputs):
            raise TypeError(
                f"{self}: takes {len(self.then_graph.inputs)} operands, {len(operands)} given"
            )
        operands = tuple(as_tensor_variable(o) for o in operands)
        for k, (inner, outer) in enumerate(zip(self.then_graph.inputs, operands, strict=True)):
            if inner.type.convert_variable(outer) is None:
                raise TypeError(f"cond: operand {k} must be {inner.type}, got {outer.type}")
        return Apply(self, [pred, *operands], [t() for t in self.out_types])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        branch = self.then_graph if np.asarray(inputs[0]) else self.else_graph
        for cell, value in zip(output_storage, branch.python_function()(*inputs[1:]), strict=True):
            cell[0] = value

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        shapes = []
        for t in self.out_types:
            if any(s is None for s in t.shape):
                raise NotImplementedError("cond: the branches' output sizes differ or are unknown")
            shapes.append(t.shape)
        return shapes

    def L_op(
        self,
        inputs: Sequence[Variable],
        outputs: Sequence[Variable],
        output_grads: Sequence[Variable],
    ) -> list[Variable]:
        from lazygraph.gradient import disconnected_type, grad

        pred, operands = inputs[0], list(inputs[1:])
        holders = self.then_graph.fresh_inputs()
        live = [k for k, o in enumerate(operands) if _is_float(o)]
        fo = [j for j, o in enumerate(outputs) if _is_float(o)]
        g_holders = [self.out_types[j]() for j in fo]
        wrt = [holders[k] for k in live]
        branches = []
        for graph in (self.then_graph, self.else_graph):
            outs = graph.apply(holders)
            known: dict[Variable, Variable] = {}
            for j, g in zip(fo, g_holders, strict=True):
                known[outs[j]] = known[outs[j]] + g if outs[j] in known else g
            branches.append(
                grad(None, wrt, known_grads=known, disconnected_inputs="ignore")
                if known and wrt
                else [_zeros(w) for w in wrt]
            )
        if not wrt:
            return [disconnected_type() for _ in inputs]
        grads = cond_apply(
            pred,
            holders + g_holders,
            operands + [output_grads[j] for j in fo],
            branches[0],
            branches[1],
        )
        by_operand = dict(zip(live, grads, strict=True))
        return [disconnected_type()] + [
            by_operand.get(k, disconnected_type()) for k in range(len(operands))
        ]

    def R_op(
        self, inputs: Sequence[Variable], eval_points: Sequence[Variable | None]
    ) -> list[Variable]:
        from lazygraph.gradient import Rop

        pred, operands = inputs[0], list(inputs[1:])
        holders = self.then_graph.fresh_inputs()
        live = [k for k, o in enumerate(operands) if _is_float(o)]
        tangents = [holders[k].type() for k in live]
        fo = [j for j, t in enumerate(self.out_types) if t.numpy_dtype.kind in "fc"]
        branches = []
        for graph in (self.then_graph, self.else_graph):
            outs = graph.apply(holders)
            if not live or not fo:
                branches.append([_zeros(outs[j]) for j in fo])
                continue
            branches.append(
                Rop(
                    [outs[j] for j in fo],
                    [holders[k] for k in live],
                    tangents,
                    disconnected_outputs="ignore",
                )
            )
        points = [eval_points[1 + k] for k in live]
        points = [
            p if p is not None else _zeros(operands[k]) for p, k in zip(points, live, strict=True)
        ]
        jvps = cond_apply(pred, holders + tangents, operands + points, branches[0], branches[1])
        by_output = dict(zip(fo, jvps, strict=True))
        # (an integer output has no derivative: None, which Rop skips)
        return [by_output.get(j) for j in range(len(self.out_types))]  # type: ignore[misc]


def _zeros(v: Variable) -> Variable:
    from lazygraph.gradient._build import float_zeros_like

    return float_zeros_like(v)


def cond_apply(
    pred: Any,
    operands_in: Sequence[Variable],
    operands: Sequence[Any],
    then_out: Sequence[Variable],
    else_out: Sequence[Variable],
) -> list[Variable]:
    """The outputs of an ``IfElse`` whose branches are the graphs from the
    placeholders ``operands_in`` (standing for ``operands``) to ``then_out`` and
    to ``else_out``; what either branch reads from outside becomes an operand."""
    holders = list(operands_in)
    then_out = [as_tensor_variable(v) for v in then_out]
    else_out = [as_tensor_variable(v) for v in else_out]
    free = closure(holders, then_out + else_out)
    then_graph = InnerGraph(holders + free, then_out)
    else_graph = InnerGraph(holders + free, else_out)
    op = IfElse(then_graph, else_graph)
    return list(op.make_node(pred, *operands, *free).outputs)

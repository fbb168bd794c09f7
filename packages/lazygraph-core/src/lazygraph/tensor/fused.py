"""``FusedReduce``: an elementwise expression and the reduction that consumes it,
as one node (what the ``fusion`` stage makes of ``sum(exp(x - m))``).

For backends: a ``FusedReduce`` node computes
``Reduce(kind, axis, keepdims, dtype)(Elemwise(scalar_op)(*inputs))`` without
materialising the elementwise result. ``op.scalar_op`` is a
:class:`~lazygraph.tensor.scalar.ScalarOp` or a
:class:`~lazygraph.tensor.scalar.Composite` with exactly one output;
``op.elemwise`` and ``op.reduce`` are the two ops it stands for, so a backend
that cannot fuse may lower it as those two nodes. Inputs broadcast against each
other with numpy's rules, exactly as for ``Elemwise``; the reduction's ``axis``
numbers refer to that broadcast shape. ``kind`` is one of :data:`FUSABLE_KINDS`
(reductions with a running accumulator).

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> from lazygraph.tensor.scalar import scalar_op
>>> x = lt.dmatrix("x")
>>> op = FusedReduce(scalar_op("exp"), "sum", axis=(1,))
>>> y = op(x)
>>> y.type
TensorType(float64, shape=(?,))
>>> y.eval({x: np.zeros((2, 3))})
array([3., 3.])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.reduction import Reduce
from lazygraph.tensor.scalar import Composite, ScalarOp

__all__ = ["FUSABLE_KINDS", "FusedReduce"]

#: Reductions a ``FusedReduce`` may end with.
FUSABLE_KINDS: tuple[str, ...] = ("sum", "prod", "max", "min", "all", "any")


class FusedReduce(Op):
    """``Reduce(kind, axis, keepdims, dtype)`` applied to ``Elemwise(scalar_op)(*inputs)``
    in one node; see the module docstring for the contract backends rely on.

    ``axis`` is a tuple of non-negative axis numbers of the broadcast elementwise
    result; ``dtype`` is the accumulation dtype (``Reduce``'s, for ``sum`` and
    ``prod``).

    >>> import lazygraph.tensor as lt
    >>> from lazygraph.tensor.scalar import scalar_op
    >>> op = FusedReduce(scalar_op("multiply"), "sum", axis=(0,), dtype="int64")
    >>> op(lt.tensor("int8", (3,)), lt.tensor("int8", (3,))).type
    TensorType(int64, shape=())
    """

    __props__: ClassVar[tuple[str, ...]] = ("scalar_op", "kind", "axis", "keepdims", "dtype")

    def __init__(
        self,
        scalar_op: ScalarOp | Composite,
        kind: str,
        axis: Sequence[int],
        keepdims: bool = False,
        dtype: str | None = None,
    ) -> None:
        if kind not in FUSABLE_KINDS:
            raise ValueError(
                f"FusedReduce: cannot fuse a {kind!r} reduction; "
                f"fusable: {', '.join(FUSABLE_KINDS)}"
            )
        if scalar_op.nout != 1:
            raise ValueError(f"FusedReduce: {scalar_op} has {scalar_op.nout} outputs, not 1")
        self.scalar_op = scalar_op
        self.kind = kind
        self.axis = tuple(sorted(int(a) for a in axis))
        self.keepdims = bool(keepdims)
        self.dtype = dtype
        #: The two ops this node stands for (a backend may lower it as both).
        self.elemwise = Elemwise(scalar_op)
        self.reduce = Reduce(kind, self.axis, self.keepdims, dtype)
        self.nin = scalar_op.nin

    def __str__(self) -> str:
        extra = ", keepdims" if self.keepdims else ""
        return f"FusedReduce{{{self.kind}, axis={self.axis}{extra}, {self.scalar_op}}}"

    def make_node(self, *inputs: Any) -> Apply:
        inner = self.elemwise.make_node(*inputs)
        out = self.reduce.make_node(inner.outputs[0]).outputs[0]
        return Apply(self, list(inner.inputs), [out.type()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        out_dtypes = [self.elemwise_dtype(node)]
        (values,) = self.scalar_op.impl(inputs, out_dtypes)
        cell: list[Any] = [None]
        self.reduce.perform(node, [values], [cell])
        output_storage[0][0] = cell[0]

    def elemwise_dtype(self, node: Apply) -> str:
        """The dtype of the (unmaterialised) elementwise result."""
        dtypes = [v.type.dtype for v in node.inputs]  # type: ignore[attr-defined]
        return self.scalar_op.output_dtypes(dtypes)[0]

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        inner = self.elemwise.make_node(*node.inputs)
        (shape,) = self.elemwise.infer_shape(fgraph, inner, input_shapes)[:1]
        red = self.reduce.make_node(inner.outputs[0])
        return self.reduce.infer_shape(fgraph, red, [shape])

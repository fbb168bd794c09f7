"""Searching: ``nonzero`` (data-dependent length, so ``None`` dims) and
``searchsorted``. ``argmax``, ``argmin`` and ``count_nonzero`` are reductions
(:mod:`lazygraph.tensor.reduction`); ``where`` is elementwise.

None of these has a gradient: their outputs are indices, which do not change
under small changes of the input (the gradients are disconnected).

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> x = lt.dmatrix("x")
>>> rows, cols = lt.nonzero(x)
>>> rows.type
TensorType(int64, shape=(?,))
>>> cols.eval({x: np.array([[0.0, 1.0], [2.0, 0.0]])})
array([1, 0])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import numpy as np

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.dtypes import result_type
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

__all__ = ["Nonzero", "SearchSorted", "nonzero", "searchsorted"]


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


def _disconnected(n: int) -> list[Variable]:
    from lazygraph.gradient import disconnected_type

    return [disconnected_type() for _ in range(n)]


class Nonzero(Op):
    """The indices of the nonzero elements of ``x``: one int64 vector per dimension,
    each as long as the number of nonzero elements (unknown until computed)."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        if x.ndim == 0:
            raise ValueError(
                "nonzero: calling nonzero on 0d arrays is not allowed. "
                "Use atleast_1d(scalar).nonzero() instead."
            )
        # An input known to be empty has no nonzero elements.
        count = 0 if 0 in x.type.shape else None
        return Apply(self, [x], [TensorType("int64", (count,))() for _ in range(x.ndim)])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        for cell, idx in zip(output_storage, np.nonzero(inputs[0]), strict=True):
            cell[0] = idx.astype("int64", copy=False)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        if node.outputs[0].type.shape[0] is not None:  # type: ignore[attr-defined]
            return [(0,)] * len(node.outputs)
        # The count is data: the number of nonzero elements of the input.
        count = _lt().count_nonzero(node.inputs[0])
        return [(count,)] * len(node.outputs)

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[False] * len(node.outputs)]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        return _disconnected(1)


def nonzero(x: Any) -> tuple[TensorVariable, ...]:
    """The indices of the nonzero elements of ``x``, one int64 vector per dimension
    (numpy's ``nonzero``; a 0-d input raises ``ValueError`` as in numpy 2).

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> (i,) = lt.nonzero(x)
    >>> i.eval({x: np.array([0.0, 2.0, -0.0, np.nan])})
    array([1, 3])
    """
    return tuple(Nonzero().make_node(x).outputs)  # type: ignore[arg-type]


class SearchSorted(Op):
    """Insertion indices of ``v`` into the sorted 1-d ``a`` (numpy's ``searchsorted``);
    inputs ``(a, v)`` or ``(a, v, sorter)``. ``side`` is ``"left"`` or ``"right"``."""

    __props__: ClassVar[tuple[str, ...]] = ("side",)
    side: Literal["left", "right"]

    def __init__(self, side: str = "left") -> None:
        if side not in ("left", "right"):
            raise ValueError(f"searchsorted: side must be 'left' or 'right' (got {side!r})")
        self.side = "left" if side == "left" else "right"

    def make_node(self, a: Any, v: Any, sorter: Any = None) -> Apply:
        a, v = as_tensor_variable(a), as_tensor_variable(v)
        if a.ndim != 1:
            raise ValueError(
                f"searchsorted: the sorted array must be 1-d, got shape {a.type.shape}"
            )
        inputs = [a, v]
        if sorter is not None:
            sorter = as_tensor_variable(sorter)
            if sorter.ndim != 1 or sorter.type.numpy_dtype.kind not in "iu":
                raise TypeError(
                    "searchsorted: sorter must be a 1-d integer array, got "
                    f"{sorter.type.dtype} of shape {sorter.type.shape}"
                )
            n, m = a.type.shape[0], sorter.type.shape[0]
            if n is not None and m is not None and n != m:
                raise ValueError(
                    f"searchsorted: sorter.size must equal a.size (shapes {a.type.shape} "
                    f"and {sorter.type.shape})"
                )
            inputs.append(sorter)
        # Raises numpy's TypeError when a and v have no common dtype.
        result_type(a, v)
        return Apply(self, inputs, [TensorType("int64", v.type.shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        a, v, *sorter = inputs
        out = np.searchsorted(a, v, side=self.side, sorter=sorter[0] if sorter else None)
        output_storage[0][0] = np.asarray(out, dtype="int64")

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        return [tuple(input_shapes[1])]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[False] for _ in node.inputs]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        return _disconnected(len(inputs))


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> TensorVariable:
    """Where to insert each element of ``v`` into the sorted 1-d ``a`` to keep it
    sorted: the first such index (``side="left"``) or the last (``"right"``).
    ``sorter`` holds the indices that sort ``a``, if ``a`` itself is not sorted.
    The result is int64, shaped like ``v``.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> a = lt.dvector("a")
    >>> lt.searchsorted(a, [2.0, 2.5], side="right").eval({a: np.array([1.0, 2.0, 3.0])})
    array([2, 2])
    """
    return SearchSorted(side)(a, v, sorter)  # type: ignore[no-any-return]

"""``DimShuffle``: transpose, insert and drop axes as a view, and its public
functions (``dimshuffle``, ``transpose``, ``permute_dims``, ``matrix_transpose``,
``expand_dims``, ``squeeze``, ``swapaxes``, ``moveaxis``).

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (2, 3))
>>> lt.transpose(x).type, lt.expand_dims(x, 0).type
(TensorType(float64, shape=(3, 2)), TensorType(float64, shape=(1, 2, 3)))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from numpy.exceptions import AxisError

from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.elemwise import (
    _cast,
    _disconnected,
    _shape_str,
)
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

__all__ = [
    "DimShuffle",
    "dimshuffle",
    "expand_dims",
    "matrix_transpose",
    "moveaxis",
    "permute_dims",
    "squeeze",
    "swapaxes",
    "transpose",
]


class DimShuffle(Op):
    """Reorder the axes of an ``input_ndim``-d array as ``new_order`` says: input
    axis numbers in their new positions, ``"x"`` for a new size-1 axis; input axes
    left out are dropped and must have size 1. The output is a view.

    >>> import lazygraph.tensor as lt
    >>> DimShuffle(2, (1, "x", 0))(lt.tensor("float64", (2, 3))).type
    TensorType(float64, shape=(3, 1, 2))
    """

    __props__: ClassVar[tuple[str, ...]] = ("input_ndim", "new_order")
    view_map: ClassVar[dict[int, list[int]]] = {0: [0]}  # type: ignore[misc]

    def __init__(self, input_ndim: int, new_order: Sequence[int | str]) -> None:
        self.input_ndim = int(input_ndim)
        self.new_order = tuple(o if o == "x" else int(o) for o in new_order)
        kept = [o for o in self.new_order if o != "x"]
        if len(set(kept)) != len(kept) or any(not 0 <= o < self.input_ndim for o in kept):
            raise ValueError(
                f"DimShuffle: {self.new_order} is not a valid reordering of "
                f"{self.input_ndim} axes (each axis at most once, 'x' for new axes)"
            )
        self.drop = tuple(i for i in range(self.input_ndim) if i not in kept)
        # axis numbers after the dropped axes are squeezed out
        self.shuffle = tuple(o - sum(d < o for d in self.drop) for o in kept)
        self.augment = tuple(k for k, o in enumerate(self.new_order) if o == "x")

    def __str__(self) -> str:
        if self.new_order == tuple(reversed(range(self.input_ndim))) and self.input_ndim > 1:
            return "Transpose"
        return f"DimShuffle{{{','.join(map(str, self.new_order))}}}"

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        if x.ndim != self.input_ndim:
            raise ValueError(
                f"{self}: expected a {self.input_ndim}-d input, got {x.type} with {x.ndim}"
            )
        shape = x.type.shape
        for d in self.drop:
            if shape[d] is not None and shape[d] != 1:
                raise ValueError(
                    f"{self}: cannot drop axis {d} of size {shape[d]} from shape "
                    f"{_shape_str(shape)}; only size-1 axes can be dropped"
                )
        out_shape = tuple(1 if o == "x" else shape[o] for o in self.new_order)
        return Apply(self, [x], [TensorType(x.dtype, out_shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        x = inputs[0]
        if self.drop:
            for d in self.drop:
                if x.shape[d] != 1:
                    raise ValueError(
                        f"{self}: cannot drop axis {d} of size {x.shape[d]} from shape {x.shape}"
                    )
            x = x.reshape(tuple(n for i, n in enumerate(x.shape) if i not in self.drop))
        x = x.transpose(self.shuffle)
        if self.augment:
            x = np.expand_dims(x, self.augment)
        output_storage[0][0] = x

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        shape = input_shapes[0]
        return [tuple(1 if o == "x" else shape[o] for o in self.new_order)]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        (x,) = inputs
        if x.type.numpy_dtype.kind in "biu":
            return [_disconnected()]
        # the inverse shuffle: each input axis from its output position, "x" if dropped
        inverse = tuple(
            self.new_order.index(i) if i in self.new_order else "x" for i in range(self.input_ndim)
        )
        gz = _cast(output_grads[0], x.type.dtype)
        return [DimShuffle(len(self.new_order), inverse)(gz)]

    def R_op(self, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [self(eval_points[0])]


# -- public functions ---------------------------------------------------------


def _normalize_axis(axis: Any, ndim: int, op: str) -> int:
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{op}: axis must be an integer, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise AxisError(int(axis), ndim, op)
    return int(axis) % ndim


def _normalize_axes(axes: Any, ndim: int, op: str) -> tuple[int, ...]:
    seq = tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)
    result = tuple(_normalize_axis(a, ndim, op) for a in seq)
    if len(set(result)) != len(result):
        raise ValueError(f"{op}: repeated axis in {tuple(seq)}")
    return result


def dimshuffle(x: Any, new_order: Sequence[int | str]) -> TensorVariable:
    """Theano's dimshuffle: ``new_order`` lists input axes in their new positions,
    ``"x"`` inserts a size-1 axis; omitted axes must have size 1.

    >>> import lazygraph.tensor as lt
    >>> dimshuffle(lt.constant([[1, 2, 3]]), (1, "x")).eval()
    array([[1],
           [2],
           [3]])
    """
    x = as_tensor_variable(x)
    order = tuple(new_order)
    if order == tuple(range(x.ndim)):
        return x
    return DimShuffle(x.ndim, order)(x)  # type: ignore[no-any-return]


def transpose(x: Any, axes: Sequence[int] | None = None) -> TensorVariable:
    """``x`` with its axes permuted (reversed when ``axes`` is None), as numpy.

    >>> import lazygraph.tensor as lt
    >>> transpose(lt.constant([[1, 2, 3]])).eval()
    array([[1],
           [2],
           [3]])
    """
    x = as_tensor_variable(x)
    if axes is None:
        return dimshuffle(x, tuple(reversed(range(x.ndim))))
    axes = tuple(axes)
    if len(axes) != x.ndim:
        raise ValueError(f"transpose: axes {axes} don't match array of shape {x.type}")
    perm = _normalize_axes(axes, x.ndim, "transpose")
    return dimshuffle(x, perm)


def permute_dims(x: Any, axes: Sequence[int]) -> TensorVariable:
    """The array API name of :func:`transpose` with explicit ``axes``.

    >>> import lazygraph.tensor as lt
    >>> permute_dims(lt.tensor("float64", (2, 3, 4)), (2, 0, 1)).type
    TensorType(float64, shape=(4, 2, 3))
    """
    return transpose(x, axes)


def matrix_transpose(x: Any) -> TensorVariable:
    """Swap the last two axes (``x.mT``); ``x`` needs at least 2 dimensions.

    >>> import lazygraph.tensor as lt
    >>> matrix_transpose(lt.tensor("float64", (5, 2, 3))).type
    TensorType(float64, shape=(5, 3, 2))
    """
    x = as_tensor_variable(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: input must have at least 2 dimensions, got {x.type}")
    order = list(range(x.ndim))
    order[-2], order[-1] = order[-1], order[-2]
    return dimshuffle(x, order)


def expand_dims(x: Any, axis: int | Sequence[int]) -> TensorVariable:
    """Insert size-1 axes at positions ``axis`` of the result (negative counts from
    the end), as numpy and the array API.

    >>> import lazygraph.tensor as lt
    >>> expand_dims(lt.tensor("int8", (2, 3)), (0, -1)).type
    TensorType(int8, shape=(1, 2, 3, 1))
    """
    x = as_tensor_variable(x)
    n_new = len(axis) if isinstance(axis, (tuple, list)) else 1
    out_ndim = x.ndim + n_new
    positions = _normalize_axes(axis, out_ndim, "expand_dims")
    existing = iter(range(x.ndim))
    order = ["x" if k in positions else next(existing) for k in range(out_ndim)]
    return dimshuffle(x, order)


def squeeze(x: Any, axis: int | Sequence[int] | None = None) -> TensorVariable:
    """Remove size-1 axes: the named ones (``ValueError`` for a known size other
    than 1; unknown sizes are checked when computed), or with ``axis=None`` every
    axis whose size is known to be 1.

    >>> import lazygraph.tensor as lt
    >>> squeeze(lt.tensor("float64", (1, 3, 1))).type
    TensorType(float64, shape=(3,))
    """
    x = as_tensor_variable(x)
    shape = x.type.shape
    if x.ndim == 0 and not isinstance(axis, (tuple, list)) and axis in (0, -1):
        return x  # numpy accepts an int axis 0 or -1 for a 0-d array (not a tuple)
    if axis is None:
        drop: tuple[int, ...] = tuple(i for i, n in enumerate(shape) if n == 1)
    else:
        drop = _normalize_axes(axis, x.ndim, "squeeze")
        for d in drop:
            if shape[d] is not None and shape[d] != 1:
                raise ValueError(
                    f"squeeze: cannot select an axis to squeeze out which has size not equal "
                    f"to one (axis {d} of shape {_shape_str(shape)})"
                )
    return dimshuffle(x, [i for i in range(x.ndim) if i not in drop])


def swapaxes(x: Any, axis1: int, axis2: int) -> TensorVariable:
    """``x`` with axes ``axis1`` and ``axis2`` interchanged.

    >>> import lazygraph.tensor as lt
    >>> swapaxes(lt.tensor("float64", (2, 3, 4)), 0, -1).type
    TensorType(float64, shape=(4, 3, 2))
    """
    x = as_tensor_variable(x)
    a = _normalize_axis(axis1, x.ndim, "swapaxes")
    b = _normalize_axis(axis2, x.ndim, "swapaxes")
    order = list(range(x.ndim))
    order[a], order[b] = order[b], order[a]
    return dimshuffle(x, order)


def moveaxis(
    x: Any, source: int | Sequence[int], destination: int | Sequence[int]
) -> TensorVariable:
    """Move axes ``source`` to positions ``destination``, keeping the others in order.

    >>> import lazygraph.tensor as lt
    >>> moveaxis(lt.tensor("float64", (2, 3, 4)), 0, -1).type
    TensorType(float64, shape=(3, 4, 2))
    """
    x = as_tensor_variable(x)
    src = _normalize_axes(source, x.ndim, "moveaxis")
    dst = _normalize_axes(destination, x.ndim, "moveaxis")
    if len(src) != len(dst):
        raise ValueError(
            "moveaxis: `source` and `destination` arguments must have the same number of elements"
        )
    order = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src, strict=True)):
        order.insert(d, s)
    return dimshuffle(x, order)

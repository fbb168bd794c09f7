"""Broadcasting: ``Alloc`` (a new array of a shape filled by broadcasting a
value, behind ``broadcast_to``, ``alloc`` and ``broadcast_arrays``), the
broadcast shape of several arrays, and ``BroadcastSize`` (one broadcast size
known only at run time).

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> y = lt.broadcast_to(x, (2, 3))
>>> y.type
TensorType(float64, shape=(2, 3))
>>> y.eval({x: np.arange(3.0)})
array([[0., 1., 2.],
       [0., 1., 2.]])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.shape import (
    Shape_i,
    ShapeEntry,
    as_shape_scalar,
    disconnected_grad,
    fold_if_small,
    is_disconnected,
    is_discrete,
    shape_entries,
    shape_str,
    static_sizes,
    sum_to_shape,
)
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

if TYPE_CHECKING:
    from lazygraph.graph.basic import OutputStorage
    from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "Alloc",
    "BroadcastSize",
    "alloc",
    "broadcast_arrays",
    "broadcast_to",
]


class Alloc(Op):
    """``(value, *shape)`` -> a new array of ``shape`` filled by broadcasting
    ``value`` (numpy's ``broadcast_to`` rules), with ``value``'s dtype.

    Unlike ``numpy.broadcast_to`` the result is a fresh writable array, not a
    read-only view: later in-place rewrites may then write into it.
    """

    __props__ = ()

    def make_node(self, value: Any, *shape: Any) -> Apply:
        value = as_tensor_variable(value)
        sizes = [as_shape_scalar(s, "broadcast_to") for s in shape]
        if len(sizes) < value.ndim:
            raise ValueError(
                f"broadcast_to: input operand has more dimensions than allowed by the axis "
                f"remapping: {value} has shape {shape_str(value.type.shape)}, requested "
                f"shape has {len(sizes)} dimensions"
            )
        requested = static_sizes(sizes)
        if any(s is not None and s < 0 for s in requested):
            raise ValueError(
                f"broadcast_to: all elements of broadcast shape must be non-negative, got "
                f"{shape_str(requested)}"
            )
        lead = len(sizes) - value.ndim
        out_shape = list(requested)
        for d, v in enumerate(value.type.shape):
            want = requested[lead + d]
            if v is not None and v != 1:
                if want is not None and want != v:
                    raise ValueError(
                        "broadcast_to: operands could not be broadcast together with remapped "
                        f"shapes [original->remapped]: {shape_str(value.type.shape)} and "
                        f"requested shape {shape_str(requested)}"
                    )
                out_shape[lead + d] = v
        return Apply(self, [value, *sizes], [TensorType(value.dtype, out_shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        value, *sizes = inputs
        shp = tuple(map(int, sizes))
        value = np.asarray(value)
        out = output_storage[0][0]
        try:
            if not (type(out) is np.ndarray and out.shape == shp and out.dtype == value.dtype):
                out = np.empty(shp, dtype=value.dtype)
            # (copyto broadcasts as broadcast_to does, make_node having checked
            # the ranks, without building a broadcast view first)
            np.copyto(out, value)
        except ValueError:
            np.broadcast_to(value, shp)  # numpy's message for np.broadcast_to
            raise
        output_storage[0][0] = out

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        return [
            tuple(s if s is not None else v for s, v in zip(static, node.inputs[1:], strict=True))
        ]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True]] + [[False]] * (len(node.inputs) - 1)

    def do_constant_folding(self, fgraph: FunctionGraph | None, node: Apply) -> bool:
        return fold_if_small(node)

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        value, *sizes = inputs
        (g,) = output_grads
        no_grad = [disconnected_grad() for _ in sizes]
        if is_discrete(value) or is_disconnected(g):
            return [disconnected_grad(), *no_grad]
        return [sum_to_shape(g, value), *no_grad]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [Alloc()(eval_points[0], *inputs[1:])]


_alloc = Alloc()


def alloc(value: Any, *shape: Any) -> TensorVariable:
    """Theano's ``alloc``: a new array of ``shape`` filled with ``value``
    (broadcast), of ``value``'s dtype.

    >>> import lazygraph.tensor as lt
    >>> lt.alloc(0.5, 2, 3).eval()
    array([[0.5, 0.5, 0.5],
           [0.5, 0.5, 0.5]])
    """
    return _alloc(value, *shape)


def broadcast_to(x: Any, shape: Any) -> TensorVariable:
    """``numpy.broadcast_to`` (as a new array, not a read-only view).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.tensor("float64", (3,))
    >>> y = lt.broadcast_to(x, (2, 3))
    >>> y.type.shape
    (2, 3)
    >>> y.eval({x: np.array([1.0, 2.0, 3.0])})
    array([[1., 2., 3.],
           [1., 2., 3.]])
    """
    x = as_tensor_variable(x)
    entries = shape_entries(shape, "broadcast_to")
    if static_sizes(entries) == x.type.shape:
        return x
    return _alloc(x, *entries)


def broadcast_arrays(*args: Any) -> tuple[TensorVariable, ...]:
    """``numpy.broadcast_arrays``: the inputs broadcast to their common shape.

    Incompatible static sizes raise numpy's ``ValueError`` when the graph is built.

    >>> import lazygraph.tensor as lt
    >>> a, b = lt.broadcast_arrays(lt.tensor("float64", (3, 1)), lt.tensor("int8", (4,)))
    >>> a.type.shape, b.type.shape, b.dtype
    ((3, 4), (3, 4), 'int8')
    """
    xs = [as_tensor_variable(a) for a in args]
    if not xs:
        return ()
    out = broadcast_shape(*xs)
    # An input keeps its node only where the result is provably its own shape;
    # unknown sizes must still be checked against the others at run time.
    return tuple(x if x.type.shape == out else _alloc(x, *out) for x in xs)


def broadcast_shape(*xs: TensorVariable) -> tuple[ShapeEntry, ...]:
    """The shape ``xs`` broadcast to: static sizes where the rules give them,
    0-d int64 variables elsewhere; a static mismatch is numpy's ``ValueError``."""
    ndim = max(x.ndim for x in xs)
    out: list[ShapeEntry] = []
    for d in range(ndim):
        static: list[tuple[int, int]] = []  # (argument, size) for sizes other than 1
        symbolic: list[Variable] = []
        for k, x in enumerate(xs):
            axis = d - (ndim - x.ndim)
            if axis < 0:
                continue
            s = x.type.shape[axis]
            if s is None:
                symbolic.append(Shape_i(axis)(x))
            elif s != 1:
                static.append((k, s))
        sizes = {s for _, s in static}
        if len(sizes) > 1:
            i = static[0][0]
            j = next(k for k, s in static if s != static[0][1])
            raise ValueError(
                "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                f"between arg {i} with shape {shape_str(xs[i].type.shape)} and arg {j} with "
                f"shape {shape_str(xs[j].type.shape)}."
            )
        if sizes:
            out.append(static[0][1])
        elif not symbolic:
            out.append(1)
        elif len(symbolic) == 1:
            out.append(symbolic[0])
        else:
            # All static sizes are 1: the unknown ones are checked against each
            # other at run time.
            out.append(BroadcastSize()(*symbolic))
    return tuple(out)


class BroadcastSize(Op):
    """0-d sizes -> the size they broadcast to along one dimension (numpy's rule:
    equal, or 1), or numpy's ``ValueError`` at run time."""

    __props__ = ()

    def make_node(self, *sizes: Any) -> Apply:
        ins = [as_shape_scalar(s, "broadcast") for s in sizes]
        return Apply(self, ins, [TensorType("int64", ())()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        values = {int(s) for s in inputs} - {1}
        if len(values) > 1:
            raise ValueError(
                "shape mismatch: objects cannot be broadcast to a single shape: sizes "
                f"{[int(s) for s in inputs]} along one dimension"
            )
        output_storage[0][0] = np.asarray(values.pop() if values else 1, dtype=np.int64)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [()]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[False] for _ in node.inputs]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        return [disconnected_grad() for _ in inputs]

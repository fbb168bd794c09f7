"""Sorting and set functions: ``sort``, ``argsort`` (the array API's ``stable`` and
``descending``) and ``unique_all`` / ``unique_counts`` / ``unique_inverse`` /
``unique_values``.

NaNs sort last, as in numpy; a descending sort is the ascending order reversed
(so NaNs come first) but keeps equal elements in their original order: it sorts
the reversed array and reverses back, rather than reversing a sorted result.
The unique functions have data-dependent sizes: their outputs have ``None`` dims.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> lt.argsort(x, descending=True).eval({x: np.array([1.0, 3.0, 1.0, 3.0])})
array([1, 3, 0, 2])
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from typing import Any, ClassVar, Literal, NamedTuple

import numpy as np

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

__all__ = [
    "ArgSort",
    "Sort",
    "Unique",
    "UniqueAllResult",
    "UniqueCountsResult",
    "UniqueInverseResult",
    "argsort",
    "sort",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


def _static_size(shape: Sequence[int | None]) -> int | None:
    return None if None in shape else functools.reduce(operator.mul, shape, 1)


def _no_grad() -> Variable:
    from lazygraph.gradient import disconnected_type

    return disconnected_type()


class _SortBase(Op):
    """Shared by :class:`Sort` and :class:`ArgSort`: ``axis`` is an int (the public
    functions store it non-negative, so equal sorts merge), or ``None`` to sort the
    flattened array."""

    __props__: ClassVar[tuple[str, ...]] = ("axis", "descending", "stable")
    #: an int axis of a 0-d array: numpy's argsort treats it as 1-d, sort refuses
    zero_d_as_vector: ClassVar[bool] = False

    def __init__(self, axis: int | None = -1, descending: bool = False, stable: bool = True):
        self.axis = None if axis is None else operator.index(axis)
        self.descending = bool(descending)
        self.stable = bool(stable)

    def _out_shape(self, x: TensorVariable) -> tuple[int | None, ...]:
        name = type(self).__name__.lower()
        if self.axis is None:
            return (_static_size(x.type.shape),)
        if x.ndim == 0 and self.zero_d_as_vector:
            if not -1 <= self.axis < 1:
                raise np.exceptions.AxisError(self.axis, 1, name)
            return (1,)
        if not -x.ndim <= self.axis < x.ndim:
            raise np.exceptions.AxisError(self.axis, x.ndim, name)
        return x.type.shape

    def _axis_for(self, x: np.ndarray) -> tuple[np.ndarray, int]:
        if self.axis is None or x.ndim == 0:
            return x.reshape(-1), 0
        return x, self.axis % x.ndim

    @property
    def _kind(self) -> Literal["stable"] | None:
        return "stable" if self.stable else None

    def _argsort(self, x: np.ndarray, axis: int) -> np.ndarray:
        kind = self._kind
        if not self.descending:
            return np.argsort(x, axis=axis, kind=kind)
        # Sort the reversed array and map back: equal elements keep their order.
        rev = np.flip(np.argsort(np.flip(x, axis), axis=axis, kind=kind), axis)
        return (x.shape[axis] - 1) - rev

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        (shape,) = input_shapes
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        flat = self.axis is None or len(shape) == 0
        dims = [functools.reduce(operator.mul, shape, 1)] if flat else list(shape)
        return [tuple(d if s is None else s for d, s in zip(dims, static, strict=True))]

    def _flat_axis(self, x: Variable) -> tuple[Any, int, bool]:
        """``x`` as the op sees it (flattened for axis=None) and the axis it sorts."""
        if self.axis is None or x.type.ndim == 0:  # type: ignore[attr-defined]
            return _lt().reshape(x, (-1,)), 0, True
        return x, self.axis % x.type.ndim, False  # type: ignore[attr-defined]


class Sort(_SortBase):
    """The sorted values of ``x`` along ``axis`` (see :func:`sort`)."""

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        return Apply(self, [x], [TensorType(x.dtype, self._out_shape(x))()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        x, axis = self._axis_for(inputs[0])
        kind = self._kind
        if self.descending:
            out = np.flip(np.sort(np.flip(x, axis), axis=axis, kind=kind), axis)
            out = np.ascontiguousarray(out)
        else:
            out = np.sort(x, axis=axis, kind=kind)
        output_storage[0][0] = out

    def _indices(self, x: Variable) -> Any:
        return ArgSort(self.axis, self.descending, self.stable)(x)

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        (x,), (g,) = inputs, output_grads
        if x.type.numpy_dtype.kind in "biu":  # type: ignore[attr-defined]
            return [_no_grad()]
        lt = _lt()
        xs, axis, flat = self._flat_axis(x)
        # out = take(x, idx): x's gradient puts g back where each element came from,
        # which is a gather by the inverse permutation.
        inverse = ArgSort(axis, False, True)(self._indices(xs))
        grad = lt.take_along_axis(g, inverse, axis=axis)
        if flat:
            shape = x.type.shape  # type: ignore[attr-defined]
            grad = lt.reshape(grad, shape if None not in shape else lt.shape(x))
        return [grad]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        (x,), (ev,) = inputs, eval_points
        if ev is None:
            return [None]
        xs, axis, flat = self._flat_axis(x)
        evs = _lt().reshape(ev, (-1,)) if flat else ev
        return [_lt().take_along_axis(evs, self._indices(xs), axis=axis)]


class ArgSort(_SortBase):
    """The indices that sort ``x`` along ``axis`` (see :func:`argsort`)."""

    zero_d_as_vector = True

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        return Apply(self, [x], [TensorType("int64", self._out_shape(x))()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        x, axis = self._axis_for(inputs[0])
        output_storage[0][0] = np.ascontiguousarray(self._argsort(x, axis), dtype="int64")

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[False]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        return [_no_grad()]


def _canonical_axis(axis: int | None, x: TensorVariable) -> int | None:
    # An axis in range becomes non-negative; a bad one is left for make_node to reject.
    if axis is None:
        return None
    axis = operator.index(axis)
    return axis % x.ndim if -x.ndim <= axis < x.ndim else axis


def sort(
    x: Any, axis: int | None = -1, *, descending: bool = False, stable: bool = True
) -> TensorVariable:
    """``x`` sorted along ``axis`` (flattened when ``None``), NaNs last; with
    ``descending=True`` the order is reversed (NaNs first) and equal elements keep
    their original order. ``stable=False`` allows numpy's faster unstable sort.
    The gradient routes each output gradient back to the element it came from.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.sort(x, descending=True).eval({x: np.array([2.0, np.nan, 3.0, 1.0])})
    array([nan,  3.,  2.,  1.])
    """
    x = as_tensor_variable(x)
    return Sort(_canonical_axis(axis, x), descending, stable)(x)  # type: ignore[no-any-return]


def argsort(
    x: Any, axis: int | None = -1, *, descending: bool = False, stable: bool = True
) -> TensorVariable:
    """The int64 indices that sort ``x`` along ``axis`` (see :func:`sort`); with the
    default ``stable=True`` equal elements keep their order, also when descending.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.argsort(x).eval({x: np.array([2.0, np.nan, 3.0, 1.0])})
    array([3, 0, 2, 1])
    """
    x = as_tensor_variable(x)
    return ArgSort(_canonical_axis(axis, x), descending, stable)(x)  # type: ignore[no-any-return]


# -- set functions ----------------------------------------------------------------

#: The outputs of each ``unique_*`` function, in numpy's order.
UNIQUE_FIELDS: dict[str, tuple[str, ...]] = {
    "all": ("values", "indices", "inverse_indices", "counts"),
    "counts": ("values", "counts"),
    "inverse": ("values", "inverse_indices"),
    "values": ("values",),
}


class UniqueAllResult(NamedTuple):
    values: TensorVariable
    indices: TensorVariable
    inverse_indices: TensorVariable
    counts: TensorVariable


class UniqueCountsResult(NamedTuple):
    values: TensorVariable
    counts: TensorVariable


class UniqueInverseResult(NamedTuple):
    values: TensorVariable
    inverse_indices: TensorVariable


class Unique(Op):
    """numpy's ``unique_<kind>`` of ``x`` (flattened): ``kind`` is ``"all"``,
    ``"counts"``, ``"inverse"`` or ``"values"``; the outputs are the fields of
    numpy's result. Sizes are data-dependent (``None``), except that
    ``inverse_indices`` has ``x``'s shape.
    """

    __props__: ClassVar[tuple[str, ...]] = ("kind",)

    def __init__(self, kind: str) -> None:
        if kind not in UNIQUE_FIELDS:
            raise ValueError(f"Unique kind must be one of {', '.join(UNIQUE_FIELDS)}")
        self.kind = kind

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        n = _static_size(x.type.shape)
        # Only an empty or one-element input fixes the number of unique values.
        count = n if n in (0, 1) else None
        types = {
            "values": TensorType(x.dtype, (count,)),
            "indices": TensorType("int64", (count,)),
            "inverse_indices": TensorType("int64", x.type.shape),
            "counts": TensorType("int64", (count,)),
        }
        return Apply(self, [x], [types[f]() for f in UNIQUE_FIELDS[self.kind]])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        result = getattr(np, f"unique_{self.kind}")(inputs[0])
        if self.kind == "values":
            result = (result,)
        for cell, value in zip(output_storage, result, strict=True):
            cell[0] = np.asarray(value)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        # The unique count is only known by computing it: read it off the output.
        lt = _lt()
        shapes: list[Any] = []
        for field, out in zip(UNIQUE_FIELDS[self.kind], node.outputs, strict=True):
            if field == "inverse_indices":
                shapes.append(tuple(input_shapes[0]))
            elif out.type.shape[0] is not None:  # type: ignore[attr-defined]
                shapes.append(out.type.shape)  # type: ignore[attr-defined]
            else:
                shapes.append((lt.shape(node.outputs[0])[0],))
        return shapes

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[f == "values" for f in UNIQUE_FIELDS[self.kind]]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        from lazygraph.gradient import grad_undefined, is_disconnected

        if is_disconnected(output_grads[0]):
            return [_no_grad()]
        return [
            grad_undefined(
                self, 0, inputs[0], "moving one of equal elements changes which values exist"
            )
        ]


def _unique(kind: str, x: Any) -> list[TensorVariable]:
    return Unique(kind).make_node(x).outputs  # type: ignore[return-value]


def unique_all(x: Any) -> UniqueAllResult:
    """The sorted unique values of ``x`` (flattened), the index of each one's first
    occurrence, the index into the values of each element of ``x`` (shaped like
    ``x``) and how often each occurs. NaNs are all distinct, as in numpy 2.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> r = lt.unique_all(x)
    >>> r.counts.eval({x: np.array([3.0, 1.0, 3.0])})
    array([1, 2])
    """
    return UniqueAllResult(*_unique("all", x))


def unique_counts(x: Any) -> UniqueCountsResult:
    """The sorted unique values of ``x`` and how often each occurs.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.lvector("x")
    >>> lt.unique_counts(x).values.eval({x: np.array([3, 1, 3])})
    array([1, 3])
    """
    return UniqueCountsResult(*_unique("counts", x))


def unique_inverse(x: Any) -> UniqueInverseResult:
    """The sorted unique values of ``x`` and, for each element of ``x`` (same
    shape), the index of its value among them.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.lvector("x")
    >>> lt.unique_inverse(x).inverse_indices.eval({x: np.array([3, 1, 3])})
    array([1, 0, 1])
    """
    return UniqueInverseResult(*_unique("inverse", x))


def unique_values(x: Any) -> TensorVariable:
    """The unique values of ``x`` (flattened). Like numpy 2.3+, the order is
    unspecified (numpy no longer sorts them); NaNs are all distinct.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.lvector("x")
    >>> np.sort(lt.unique_values(x).eval({x: np.array([3, 1, 3])}))
    array([1, 3])
    """
    return _unique("values", x)[0]

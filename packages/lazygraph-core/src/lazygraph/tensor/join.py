"""Joining and splitting: ``Join`` (``concatenate``, ``stack``, ``hstack``,
``vstack``) and ``Split`` (``split``, ``array_split``), with numpy's dtype
promotion across the joined arrays.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> a, b = lt.tensor("float64", (2, 3)), lt.tensor("int8", (1, 3))
>>> c = lt.concatenate([a, b])
>>> c.type
TensorType(float64, shape=(3, 3))
>>> c.eval({a: np.zeros((2, 3)), b: np.ones((1, 3), dtype="int8")})
array([[0., 0., 0.],
       [0., 0., 0.],
       [1., 1., 1.]])
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.tensor.dtypes import result_type
from lazygraph.tensor.shape import (
    ShapeEntry,
    _lt,
    constant_int,
    disconnected_grad,
    is_disconnected,
    is_discrete,
    make_vector,
    normalize_axis,
    ravel,
    reshape,
    shape_i,
    shape_str,
    vector_entries,
    vector_entry_vars,
)
from lazygraph.tensor.type import TensorType, normalize_dtype
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable, constant

if TYPE_CHECKING:
    from lazygraph.graph.basic import OutputStorage
    from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "Join",
    "Split",
    "array_split",
    "concatenate",
    "hstack",
    "join",
    "split",
    "stack",
    "vstack",
]


def _add_sizes(sizes: Sequence[ShapeEntry]) -> ShapeEntry:
    known = sum(s for s in sizes if isinstance(s, int))
    out: ShapeEntry = known
    for s in sizes:
        if not isinstance(s, int):
            out = s if isinstance(out, int) and out == 0 else _lt().add(out, s)
    return out


def _grad_piece(piece: Variable, x: Variable) -> Variable:
    """A slice of the output gradient as the gradient of input ``x`` (its dtype)."""
    lt = _lt()
    if piece.type.numpy_dtype.kind == "c" and x.type.numpy_dtype.kind != "c":  # type: ignore[attr-defined]
        piece = lt.real(piece)
    if piece.type.dtype != x.type.dtype:  # type: ignore[attr-defined]
        piece = lt.cast(piece, x.type.dtype)  # type: ignore[attr-defined]
    return piece


class Join(Op):
    """``*xs`` -> ``numpy.concatenate(xs, axis)`` of ``dtype`` (``None``: numpy's
    promotion of the inputs)."""

    __props__ = ("axis", "dtype")

    def __init__(self, axis: int, dtype: str | None = None) -> None:
        self.axis = int(axis)
        self.dtype = None if dtype is None else normalize_dtype(dtype)

    def make_node(self, *tensors: Any) -> Apply:
        xs = [as_tensor_variable(x) for x in tensors]
        if not xs:
            raise ValueError("concatenate: need at least one array to concatenate")
        if xs[0].ndim == 0:
            raise ValueError("concatenate: zero-dimensional arrays cannot be concatenated")
        ndim = xs[0].ndim
        for i, x in enumerate(xs):
            if x.ndim != ndim:
                raise ValueError(
                    "concatenate: all the input arrays must have same number of dimensions, "
                    f"but the array at index 0 has {ndim} dimension(s) and the array at index "
                    f"{i} has {x.ndim} dimension(s)"
                )
        axis = normalize_axis(self.axis, ndim, "concatenate")
        if axis != self.axis:
            raise ValueError(f"Join: axis must be normalized, got {self.axis}")
        out_shape: list[int | None] = []
        for d in range(ndim):
            sizes = [x.type.shape[d] for x in xs]
            if d == axis:
                out_shape.append(None if None in sizes else sum(sizes))  # type: ignore[arg-type]
                continue
            known = [(i, s) for i, s in enumerate(sizes) if s is not None]
            for i, s in known:
                if s != known[0][1]:
                    raise ValueError(
                        "concatenate: all the input array dimensions except for the "
                        f"concatenation axis must match exactly, but along dimension {d}, the "
                        f"array at index {known[0][0]} has size {known[0][1]} and the array at "
                        f"index {i} has size {s} (shapes {shape_str(xs[known[0][0]].type.shape)} "
                        f"and {shape_str(xs[i].type.shape)})"
                    )
            out_shape.append(known[0][1] if known else None)
        # As numpy: shapes are checked first, then each input's cast to ``dtype``.
        out_dtype = result_type(*xs) if self.dtype is None else self.dtype
        for x in xs:
            if not np.can_cast(x.type.numpy_dtype, out_dtype, "same_kind"):
                raise TypeError(
                    f"concatenate: Cannot cast array data from dtype('{x.dtype}') to "
                    f"dtype('{out_dtype}') according to the rule 'same_kind'"
                )
        return Apply(self, xs, [TensorType(out_dtype, out_shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
        output_storage[0][0] = np.concatenate(inputs, axis=self.axis, dtype=dtype)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        out: list[ShapeEntry] = []
        for d, s in enumerate(static):
            if s is not None:
                out.append(s)
            elif d == self.axis:
                out.append(_add_sizes([shp[d] for shp in input_shapes]))
            else:
                out.append(input_shapes[0][d])
        return [tuple(out)]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        (g,) = output_grads
        if is_disconnected(g) or all(is_discrete(x) for x in inputs):
            return [disconnected_grad() for _ in inputs]
        if len(inputs) == 1:
            pieces = [g]
        else:
            sizes = make_vector(*(shape_i(x, self.axis) for x in inputs), dtype="int64")
            pieces = Split(len(inputs), self.axis)(g, sizes)
        return [
            disconnected_grad() if is_discrete(x) else _grad_piece(p, x)
            for p, x in zip(pieces, inputs, strict=True)
        ]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if all(e is None for e in eval_points):
            return [None]
        from lazygraph.tensor.creation import zeros_like

        dtype = result_type(*(e for e in eval_points if e is not None))
        points = [
            zeros_like(x, dtype=dtype) if e is None else e
            for x, e in zip(inputs, eval_points, strict=True)
        ]
        return [Join(self.axis)(*points)]


def concatenate(xs: Sequence[Any], axis: int | None = 0, dtype: Any = None) -> TensorVariable:
    """``numpy.concatenate``: join arrays along an existing axis (``axis=None``
    flattens them first); the result dtype is numpy's promotion of the inputs,
    or ``dtype`` (cast with ``"same_kind"``).

    >>> import lazygraph.tensor as lt
    >>> a, b = lt.tensor("float32", (2, 3)), lt.tensor("float32", (2, 4))
    >>> lt.concatenate([a, b], axis=1).type
    TensorType(float32, shape=(2, 7))
    >>> lt.concatenate([a, b])
    Traceback (most recent call last):
    ...
    ValueError: concatenate: all the input array dimensions except for the concatenation axis must match exactly, but along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4 (shapes (2, 3) and (2, 4))
    """  # noqa: E501 (the doctest shows numpy's one-line message)
    tensors = [as_tensor_variable(x) for x in xs]
    if axis is None:
        tensors = [ravel(x) for x in tensors]
        axis = 0
    if not tensors:
        raise ValueError("concatenate: need at least one array to concatenate")
    if tensors[0].ndim == 0:
        raise ValueError("concatenate: zero-dimensional arrays cannot be concatenated")
    axis = normalize_axis(axis, tensors[0].ndim, "concatenate")
    return Join(axis, None if dtype is None else normalize_dtype(dtype))(*tensors)


def join(axis: int, *tensors: Any) -> TensorVariable:
    """Theano's ``join(axis, *tensors)``: :func:`concatenate` with the axis first.

    >>> import lazygraph.tensor as lt
    >>> lt.join(0, lt.dvector(), lt.dvector()).type
    TensorType(float64, shape=(?,))
    """
    if len(tensors) == 1:
        x = as_tensor_variable(tensors[0])
        if x.ndim == 0:
            raise ValueError("concatenate: zero-dimensional arrays cannot be concatenated")
        normalize_axis(axis, x.ndim, "join")
        return x
    return concatenate(tensors, axis=axis)


def stack(xs: Sequence[Any], axis: int = 0, dtype: Any = None) -> TensorVariable:
    """``numpy.stack``: join same-shaped arrays along a new axis.

    >>> import lazygraph.tensor as lt
    >>> lt.stack([lt.dvector(), lt.dvector()], axis=1).type
    TensorType(float64, shape=(?, 2))
    """
    tensors = [as_tensor_variable(x) for x in xs]
    if not tensors:
        raise ValueError("stack: need at least one array to stack")
    ndim = tensors[0].ndim
    for x in tensors:
        same_ndim = x.ndim == ndim
        if not same_ndim or any(
            a is not None and b is not None and a != b
            for a, b in zip(x.type.shape, tensors[0].type.shape, strict=True)
        ):
            raise ValueError(
                "stack: all input arrays must have the same shape, got "
                f"{shape_str(tensors[0].type.shape)} and {shape_str(x.type.shape)}"
            )
    axis = normalize_axis(axis, ndim + 1, "stack")
    lt = _lt()
    return Join(axis, None if dtype is None else normalize_dtype(dtype))(
        *(lt.expand_dims(x, axis) for x in tensors)
    )


def _atleast(x: TensorVariable, ndim: int) -> TensorVariable:
    """numpy's ``atleast_1d`` / ``atleast_2d`` for one array."""
    lt = _lt()
    if x.ndim >= ndim:
        return x
    if x.ndim == 0:
        return reshape(x, (1,) * ndim)
    return lt.expand_dims(x, 0)  # 1-d -> (1, n)


def hstack(xs: Sequence[Any], dtype: Any = None) -> TensorVariable:
    """``numpy.hstack``: concatenate along the second axis (the first for 1-d).

    >>> import lazygraph.tensor as lt
    >>> lt.hstack([lt.tensor("float64", (2,)), lt.tensor("float64", (3,))]).type.shape
    (5,)
    """
    tensors = [_atleast(as_tensor_variable(x), 1) for x in xs]
    if not tensors:
        raise ValueError("hstack: need at least one array to concatenate")
    return concatenate(tensors, axis=0 if tensors[0].ndim == 1 else 1, dtype=dtype)


def vstack(xs: Sequence[Any], dtype: Any = None) -> TensorVariable:
    """``numpy.vstack``: concatenate along the first axis, 1-d arrays as rows.

    >>> import lazygraph.tensor as lt
    >>> lt.vstack([lt.tensor("float64", (3,)), lt.tensor("float64", (2, 3))]).type.shape
    (3, 3)
    """
    tensors = [_atleast(as_tensor_variable(x), 2) for x in xs]
    if not tensors:
        raise ValueError("vstack: need at least one array to concatenate")
    return concatenate(tensors, axis=0, dtype=dtype)


# -- Split ---------------------------------------------------------------------


class Split(Op):
    """``(x, sizes)`` -> ``n_splits`` consecutive pieces of ``x`` along ``axis``;
    ``sizes`` (1-d int64 of length ``n_splits``) must add up to ``x.shape[axis]``.

    The pieces are views of ``x`` (``view_map``).
    """

    __props__ = ("n_splits", "axis")

    def __init__(self, n_splits: int, axis: int) -> None:
        self.n_splits = int(n_splits)
        self.axis = int(axis)
        self.view_map = {i: [0] for i in range(self.n_splits)}

    def make_node(self, x: Any, sizes: Any) -> Apply:
        x = as_tensor_variable(x)
        sizes = as_tensor_variable(sizes)
        if x.ndim == 0:
            raise ValueError("split: a 0-d array cannot be split")
        if normalize_axis(self.axis, x.ndim, "split") != self.axis:
            raise ValueError(f"Split: axis must be normalized, got {self.axis}")
        if sizes.ndim != 1 or sizes.type.numpy_dtype.kind not in "iu":
            raise TypeError(f"Split: sizes must be a 1-d integer vector, got {sizes.type}")
        if sizes.type.shape[0] != self.n_splits:
            raise ValueError(f"Split: expected {self.n_splits} sizes, got {sizes}")
        entries = [e if isinstance(e, int) else None for e in vector_entries(sizes)]
        if any(e is not None and e < 0 for e in entries):
            raise ValueError(f"Split: sizes must be non-negative, got {entries}")
        length = x.type.shape[self.axis]
        if None not in entries and length is not None and sum(entries) != length:  # type: ignore[arg-type]
            raise ValueError(
                f"Split: sizes {entries} do not add up to the length {length} of axis "
                f"{self.axis} of {x} (shape {shape_str(x.type.shape)})"
            )
        outs = []
        for e in entries:
            shp = list(x.type.shape)
            shp[self.axis] = e
            outs.append(TensorType(x.dtype, shp)())
        return Apply(self, [x, sizes], outs)

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        x, sizes = inputs
        n = x.shape[self.axis]
        if (sizes < 0).any() or sizes.sum() != n:
            equal = len(set(sizes.tolist())) == 1
            raise ValueError(
                "array split does not result in an equal division"
                if equal
                else f"Split: sizes {sizes.tolist()} do not split axis {self.axis} of length {n}"
            )
        pieces = np.split(x, np.cumsum(sizes)[:-1], axis=self.axis)
        for cell, piece in zip(output_storage, pieces, strict=True):
            cell[0] = piece

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        entries = vector_entry_vars(node.inputs[1])
        out = []
        for e in entries:
            shp = list(input_shapes[0])
            shp[self.axis] = e
            out.append(tuple(shp))
        return out

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True] * self.n_splits, [False] * self.n_splits]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        x, _ = inputs
        if is_discrete(x) or all(is_disconnected(g) for g in output_grads):
            return [disconnected_grad(), disconnected_grad()]
        from lazygraph.tensor.creation import zeros_like

        pieces = [
            zeros_like(out) if is_disconnected(g) else g
            for g, out in zip(output_grads, outputs, strict=True)
        ]
        return [_grad_piece(Join(self.axis)(*pieces), x), disconnected_grad()]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None] * self.n_splits
        return list(Split(self.n_splits, self.axis)(eval_points[0], inputs[1]))  # type: ignore[arg-type]


def _split_by_sizes(x: TensorVariable, sizes: Sequence[ShapeEntry], axis: int) -> list[Any]:
    if len(sizes) == 1:
        return [x]
    if all(isinstance(s, int) for s in sizes):
        vec: Variable = constant(np.array(sizes, dtype=np.int64))
    else:
        vec = make_vector(*sizes, dtype="int64")
    return list(Split(len(sizes), axis)(x, vec))  # type: ignore[arg-type]


def _split_at(x: TensorVariable, indices: Sequence[int], axis: int) -> list[Any]:
    """``x`` cut at ``indices`` along ``axis`` with Python slice semantics:
    pieces ``x[0:i0], x[i0:i1], ..., x[ik:]`` (negative and out-of-range
    indices allowed, so pieces may overlap or be empty)."""
    n = x.type.shape[axis]
    bounds = [0, *indices, None]
    if n is not None:
        spans = [slice(a, b).indices(n)[:2] for a, b in itertools.pairwise(bounds)]
        lengths = [max(0, stop - start) for start, stop in spans]
        starts = [start for start, _ in spans]
        partition = all(s == sum(lengths[:k]) for k, s in enumerate(starts)) and sum(lengths) == n
        if partition:
            return _split_by_sizes(x, lengths, axis)
    elif all(i >= 0 for i in indices) and list(indices) == sorted(indices):
        lt = _lt()
        length = shape_i(x, axis)
        clipped: list[ShapeEntry] = [0, *(lt.minimum(i, length) for i in indices), length]
        sizes = [
            lt.subtract(b, a) if not (isinstance(a, int) and a == 0) else b
            for a, b in itertools.pairwise(clipped)
        ]
        return _split_by_sizes(x, sizes, axis)
    # Overlapping or backwards pieces are not a partition: slice them out one by one.
    lt = _lt()
    pieces = []
    for a, b in itertools.pairwise(bounds):
        index = [slice(None)] * x.ndim
        index[axis] = slice(a, b)
        pieces.append(lt.getitem(x, tuple(index)))
    return pieces


def _indices_arg(indices_or_sections: Any) -> int | list[int]:
    if isinstance(indices_or_sections, Variable):
        if isinstance(indices_or_sections, Constant):
            indices_or_sections = indices_or_sections.data
        elif indices_or_sections.type.ndim == 0:  # type: ignore[attr-defined]
            raise TypeError("split: the number of sections must be known when building the graph")
        else:
            entries = vector_entries(indices_or_sections)
            if any(not isinstance(e, int) for e in entries):
                raise TypeError("split: split indices must be known when building the graph")
            return [int(e) for e in entries]  # type: ignore[arg-type]
    arr = np.asarray(indices_or_sections)
    if arr.ndim == 0:
        n = constant_int(indices_or_sections)
        if n is None:
            raise TypeError(f"split: sections must be an integer, got {indices_or_sections!r}")
        return n
    return [int(i) for i in arr.tolist()]


def split(x: Any, indices_or_sections: Any, axis: int = 0) -> list[TensorVariable]:
    """``numpy.split``: ``x`` cut into equal sections, or at the given indices,
    along ``axis``; a list of arrays.

    An unequal division known at build time raises numpy's ``ValueError``.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.tensor("float64", (5,))
    >>> [p.type.shape for p in lt.split(x, [2, 3])]
    [(2,), (1,), (2,)]
    >>> lt.split(x, 2)
    Traceback (most recent call last):
    ...
    ValueError: array split does not result in an equal division
    """
    x = as_tensor_variable(x)
    arg = _indices_arg(indices_or_sections)
    if x.ndim == 0:
        raise IndexError("split: tuple index out of range (a 0-d array has no axis to split)")
    axis = normalize_axis(axis, x.ndim, "split")
    if isinstance(arg, int):
        if arg == 0:
            raise ZeroDivisionError("integer modulo by zero")
        n = x.type.shape[axis]
        if arg > 0 and n is not None and n % arg:
            raise ValueError("array split does not result in an equal division")
        if arg > 0 and n is None:
            # Equal sizes; Split checks at run time that they add up to the length.
            each = _lt().floor_divide(shape_i(x, axis), arg)
            return _split_by_sizes(x, [each] * arg, axis)
    return array_split(x, arg, axis)


def array_split(x: Any, indices_or_sections: Any, axis: int = 0) -> list[TensorVariable]:
    """``numpy.array_split``: like :func:`split`, but ``n`` sections need not
    divide the axis (the first ones get one more element).

    >>> import lazygraph.tensor as lt
    >>> [p.type.shape for p in lt.array_split(lt.tensor("float64", (7,)), 3)]
    [(3,), (2,), (2,)]
    """
    x = as_tensor_variable(x)
    arg = _indices_arg(indices_or_sections)
    if x.ndim == 0:
        raise IndexError("array_split: tuple index out of range (a 0-d array has no axis)")
    axis = normalize_axis(axis, x.ndim, "array_split")
    if not isinstance(arg, int):
        return _split_at(x, arg, axis)
    if arg <= 0:
        raise ValueError("number sections must be larger than 0.")
    n = x.type.shape[axis]
    if n is not None:
        each, extra = divmod(n, arg)
        return _split_by_sizes(x, [each + 1] * extra + [each] * (arg - extra), axis)
    lt = _lt()
    length = shape_i(x, axis)
    each, extra = lt.floor_divide(length, arg), lt.remainder(length, arg)
    sizes = [lt.add(each, lt.less(k, extra)) for k in range(arg)]
    return _split_by_sizes(x, sizes, axis)

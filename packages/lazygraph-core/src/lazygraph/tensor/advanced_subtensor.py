"""Advanced indexing: ``x[idx]`` with integer arrays and boolean masks
(:class:`AdvancedSubtensor`, a copy), its functional update
(:class:`AdvancedIncSubtensor`, with ``np.add.at`` accumulation as an option),
``take`` (:class:`Take`) and ``take_along_axis`` (:class:`TakeAlongAxis`, whose
gradient is :class:`IncAlongAxis`).

numpy's rules apply exactly: index arrays broadcast together; integer scalars
next to index arrays count as 0-d index arrays; advanced indices separated by a
slice, ``None`` or ``...`` put their dimensions first. A boolean mask selects a
data-dependent number of elements, so its dimension is ``None`` in the static
shape (unless the mask is a constant).

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (5, 6, 7), "x")
>>> x[[0, 2], :, [1, 1]].type
TensorType(float64, shape=(2, 6))
>>> x[:, [[0], [1]], [2, 3, 4]].type
TensorType(float64, shape=(5, 2, 3))
>>> x[:, [True, False] * 3].type
TensorType(float64, shape=(5, 3, 7))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.tensor.indexing import (
    ARRAY_DTYPE_MSG,
    INPUT,
    IndexEntry,
    Slice,
    broadcast_dim,
    broadcast_index_shapes,
    consumed_dims,
    count_inputs,
    entry_vars,
    fmt_shape,
    index_layout,
    numpy_index,
    static_shape,
    symbolic_shape,
)
from lazygraph.tensor.subtensor import (
    _fmt_idx,
    getitem,
    is_discrete,
    no_grad_for,
    prepare_update,
    sum_to_like,
    update_grads,
    update_r_op,
    zeros_like,
)
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

if TYPE_CHECKING:
    from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "AdvancedIncSubtensor",
    "AdvancedSubtensor",
    "IncAlongAxis",
    "Take",
    "TakeAlongAxis",
    "take",
    "take_along_axis",
]


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


def _disconnected() -> Any:
    from lazygraph.gradient import disconnected_type

    return disconnected_type()


def _index_inputs(op: Op, x: TensorVariable, index_inputs: Sequence[Any]) -> list[TensorVariable]:
    """Convert and check the index inputs of an advanced-indexing node."""
    entries = op.idx_list  # type: ignore[attr-defined]
    inputs = [as_tensor_variable(v) for v in index_inputs]
    if len(inputs) != count_inputs(entries):
        raise TypeError(
            f"{op} takes {count_inputs(entries)} index inputs after x, {len(inputs)} given"
        )
    for v in inputs:
        if v.type.numpy_dtype.kind not in "biu":
            raise IndexError(f"{ARRAY_DTYPE_MSG} ({op} got {v.type})")
    used = sum(
        consumed_dims(e, v) for e, v in zip(entries, entry_vars(entries, inputs), strict=True)
    )
    if used > x.ndim:
        raise IndexError(
            f"too many indices for array: array is {x.ndim}-dimensional, but {used} were indexed"
        )
    return inputs


class AdvancedSubtensor(Op):
    """``x[idx]`` where ``idx`` has integer arrays or boolean masks (a copy).

    Inputs: ``x``, then one variable per :data:`~lazygraph.tensor.indexing.INPUT`
    placeholder of ``idx_list``: index arrays (any integer dtype, any ndim),
    masks (bool), and the symbolic bounds of slices.
    """

    __props__ = ("idx_list",)

    def __init__(self, idx_list: Sequence[IndexEntry]) -> None:
        self.idx_list = tuple(idx_list)

    def make_node(self, x: Any, *index_inputs: Any) -> Apply:
        x = as_tensor_variable(x)
        inputs = _index_inputs(self, x, index_inputs)
        layout = index_layout(x.ndim, self.idx_list, inputs)
        shape = static_shape(x.type, layout)
        return Apply(self, [x, *inputs], [TensorType(x.dtype, shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        x, *values = inputs
        output_storage[0][0] = np.asarray(x[numpy_index(self.idx_list, values, basic=False)])

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        ndim = node.inputs[0].type.ndim  # type: ignore[attr-defined]
        layout = index_layout(ndim, self.idx_list, node.inputs[1:])
        shape_of = dict(zip(node.inputs, input_shapes, strict=True))
        return [symbolic_shape(input_shapes[0], layout, shape_of)]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True]] + [[False] for _ in node.inputs[1:]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Any]:
        x, *idx = inputs
        (gz,) = output_grads
        if is_discrete(x):
            gx = no_grad_for(x)
        else:
            # Repeated indices each contribute: the gradient accumulates (np.add.at).
            inc = AdvancedIncSubtensor(self.idx_list, accumulate=True)
            gx = inc(zeros_like(x), gz, *idx)  # type: ignore[arg-type]
        return [gx] + [_disconnected() for _ in idx]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [self(eval_points[0], *inputs[1:])]

    def __str__(self) -> str:
        return f"AdvancedSubtensor{{idx_list={_fmt_idx(self.idx_list)}}}"


class AdvancedIncSubtensor(Op):
    """``x`` with ``x[idx]`` (advanced) set to, or incremented by, ``y``.

    ``set_instead_of_inc``: numpy's ``x[idx] = y``. Otherwise ``accumulate=True``
    is ``np.add.at(x, idx, y)`` (every repeated index adds its value) and
    ``accumulate=False`` is numpy's ``x[idx] += y`` (a repeated index receives
    one of its values: the last, as numpy). Without ``accumulate``, the gradient
    of ``y`` reaches only the entries that won their element. ``inplace``
    writes into ``x``'s buffer.
    """

    __props__ = ("idx_list", "set_instead_of_inc", "accumulate", "inplace")

    def __init__(
        self,
        idx_list: Sequence[IndexEntry],
        set_instead_of_inc: bool = False,
        accumulate: bool = False,
        inplace: bool = False,
    ) -> None:
        self.idx_list = tuple(idx_list)
        self.set_instead_of_inc = bool(set_instead_of_inc)
        self.accumulate = bool(accumulate) and not self.set_instead_of_inc
        self.inplace = bool(inplace)
        self.destroy_map = {0: [0]} if inplace else {}

    def make_node(self, x: Any, y: Any, *index_inputs: Any) -> Apply:
        x = as_tensor_variable(x)
        sub = AdvancedSubtensor(self.idx_list).make_node(x, *index_inputs)
        mode = "set" if self.set_instead_of_inc else ("at" if self.accumulate else "inc")
        target = sub.outputs[0].type.shape  # type: ignore[attr-defined]
        y = prepare_update(str(self), x, y, target, mode, scalar_access=False)
        return Apply(self, [x, y, *sub.inputs[1:]], [x.type()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        x, y, *values = inputs
        out = x if self.inplace else x.copy()
        idx = numpy_index(self.idx_list, values, basic=False)
        if self.set_instead_of_inc:
            out[idx] = y
        elif self.accumulate:
            np.add.at(out, idx, y)
        else:
            out[idx] += y
        output_storage[0][0] = out

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [input_shapes[0]]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [True]] + [[False] for _ in node.inputs[2:]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Any]:
        x, y, *idx = inputs
        (gz,) = output_grads
        setter = AdvancedIncSubtensor(self.idx_list, True) if self.set_instead_of_inc else None
        getter = AdvancedSubtensor(self.idx_list)
        grads = update_grads(x, y, gz, getter, setter, idx)  # type: ignore[arg-type]
        if not self.accumulate and not is_discrete(y) and _may_repeat(self.idx_list, x, idx):
            # a repeated index keeps one of its values: only that entry of y counts
            lt = _lt()
            won = _winners(self.idx_list, x, idx)  # type: ignore[arg-type]
            picked = lt.where(won, getter(gz, *idx), 0)
            grads[1] = sum_to_like(lt.cast(picked, gz.dtype), y)  # type: ignore[arg-type]
        return [*grads, *(_disconnected() for _ in idx)]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        return [update_r_op(self, inputs, eval_points)]

    def __str__(self) -> str:
        kind = "AdvancedSetSubtensor" if self.set_instead_of_inc else "AdvancedIncSubtensor"
        flags = [f for f in ("accumulate", "inplace") if getattr(self, f)]
        extra = "".join(", " + f for f in flags)
        return f"{kind}{{idx_list={_fmt_idx(self.idx_list)}{extra}}}"


def _may_repeat(idx_list: Sequence[IndexEntry], x: TensorVariable, idx: Sequence[Variable]) -> bool:
    """Whether an element may be indexed twice: an integer index array is there
    (and, for constant indices of an array of known shape, does repeat one)."""
    if not any(v.type.numpy_dtype.kind in "iu" and v.type.ndim > 0 for v in idx):  # type: ignore[attr-defined]
        return False
    shape = x.type.shape
    if not all(isinstance(v, Constant) for v in idx) or None in shape:
        return True
    values = [v.data for v in idx]  # type: ignore[attr-defined]
    picked = np.arange(int(np.prod(shape))).reshape(shape)[
        numpy_index(idx_list, values, basic=False)
    ]
    return len(np.unique(picked)) != picked.size


def _winners(idx_list: Sequence[IndexEntry], x: TensorVariable, idx: Sequence[Variable]) -> Any:
    """A boolean array shaped like ``x[idx]``: True where that entry is the one
    numpy's ``x[idx] = y`` leaves in its element (the same assignment, of the
    entries' positions, tells)."""
    lt = _lt()
    getter = AdvancedSubtensor(idx_list)
    target = getter(x, *idx)
    positions = lt.reshape(lt.arange(target.size, dtype="int64"), target.shape)
    owner = AdvancedIncSubtensor(idx_list, True)(
        lt.full_like(x, -1, dtype="int64"), positions, *idx
    )
    return lt.equal(getter(owner, *idx), positions)


# -- take -----------------------------------------------------------------------------


class Take(Op):
    """``np.take(x, indices, axis)`` for ``x`` with at least one dimension.

    Not ``x[:, ..., indices]``: numpy's ``take`` checks the indices' bounds only
    when the axes before ``axis`` select something, so on an empty array an
    out-of-range index is no error.
    """

    __props__ = ("axis",)

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def make_node(self, x: Any, indices: Any) -> Apply:
        x, indices = as_tensor_variable(x), as_tensor_variable(indices)
        if not 0 <= self.axis < x.ndim:
            raise np.exceptions.AxisError(self.axis, x.ndim)
        if indices.type.numpy_dtype.kind not in "iu":
            raise TypeError(f"{self}: indices must be integers, got {indices.type}")
        xs, axis = x.type.shape, self.axis
        outer = xs[:axis]
        checked = None not in outer and int(np.prod(outer)) > 0 and xs[axis] is not None
        if checked and isinstance(indices, Constant):
            n = xs[axis]
            bad = indices.data[(indices.data < -n) | (indices.data >= n)]
            if bad.size:
                raise IndexError(
                    f"index {int(bad.flat[0])} is out of bounds for axis {axis} with size "
                    f"{n} (take from an array of shape {fmt_shape(xs)})"
                )
        shape = (*outer, *indices.type.shape, *xs[axis + 1 :])
        return Apply(self, [x, indices], [TensorType(x.dtype, shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        x, indices = inputs
        output_storage[0][0] = np.asarray(np.take(x, indices, axis=self.axis))

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        xs, ishape = input_shapes
        return [(*xs[: self.axis], *ishape, *xs[self.axis + 1 :])]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Any]:
        x, indices = inputs
        if is_discrete(x):
            return [no_grad_for(x), _disconnected()]
        # Repeated indices each contribute: np.add.at.
        inc = AdvancedIncSubtensor((Slice(),) * self.axis + (INPUT,), accumulate=True)
        return [inc(zeros_like(x), output_grads[0], indices), _disconnected()]  # type: ignore[arg-type]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [self(eval_points[0], inputs[1])]


# -- take_along_axis ---------------------------------------------------------------------


def _along_axis_index(indices: np.ndarray, axis: int, shape: tuple[int, ...]) -> tuple:
    """numpy's fancy index for ``take_along_axis``: ``indices`` on ``axis``, an
    ``arange`` shaped to broadcast on every other axis."""
    ones = (1,) * indices.ndim
    return tuple(
        indices if d == axis else np.arange(n).reshape((*ones[:d], -1, *ones[d + 1 :]))
        for d, n in enumerate(shape)
    )


def _check_along_axis(x: TensorVariable, indices: TensorVariable, axis: int | None) -> int | None:
    """numpy's checks, in numpy's order; returns the normalized axis."""
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
    else:
        if not -x.ndim <= axis < x.ndim:
            raise np.exceptions.AxisError(axis, x.ndim)
        axis %= x.ndim
    if indices.type.numpy_dtype.kind not in "iu":
        raise IndexError(f"`indices` must be an integer array (got {indices.type})")
    if axis is not None and indices.ndim != x.ndim:
        raise ValueError(
            "`indices` and `arr` must have the same number of dimensions "
            f"(take_along_axis of shape {x.type.shape} with indices of shape {indices.type.shape})"
        )
    return axis


def _along_axis_shape(
    x_shape: Sequence[Any], i_shape: Sequence[Any], axis: int | None
) -> tuple[Any, ...]:
    if axis is None:
        return tuple(i_shape)
    return tuple(
        i_shape[d] if d == axis else broadcast_dim([x_shape[d], i_shape[d]])
        for d in range(len(x_shape))
    )


class TakeAlongAxis(Op):
    """``np.take_along_axis(x, indices, axis)``; ``axis=None`` reads the flattened ``x``."""

    __props__ = ("axis",)

    def __init__(self, axis: int | None) -> None:
        self.axis = axis

    def make_node(self, x: Any, indices: Any) -> Apply:
        x, indices = as_tensor_variable(x), as_tensor_variable(indices)
        axis = _check_along_axis(x, indices, self.axis)
        if axis != self.axis:
            raise ValueError(f"{self}: axis must be normalized (0 <= axis < {x.ndim})")
        if axis is None:
            shape = indices.type.shape
        else:
            # numpy broadcasts an arange on each other axis against the indices.
            ranges = [
                tuple(n if k == d else 1 for k, n in enumerate(x.type.shape))
                for d in range(x.ndim)
                if d != axis
            ]
            bshape = broadcast_index_shapes([*ranges, indices.type.shape])
            shape = tuple(
                indices.type.shape[axis] if d == axis else bshape[d] for d in range(x.ndim)
            )
        return Apply(self, [x, indices], [TensorType(x.dtype, shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        x, indices = inputs
        output_storage[0][0] = np.take_along_axis(x, indices, axis=self.axis)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [_along_axis_shape(input_shapes[0], input_shapes[1], self.axis)]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Any]:
        x, indices = inputs
        gx = (
            no_grad_for(x)
            if is_discrete(x)
            else IncAlongAxis(self.axis)(
                zeros_like(x),
                indices,
                output_grads[0],  # type: ignore[arg-type]
            )
        )
        return [gx, _disconnected()]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [self(eval_points[0], inputs[1])]


class IncAlongAxis(Op):
    """``x`` with ``y`` added at the positions ``take_along_axis(x, indices, axis)``
    reads, repeated positions accumulating (``np.add.at``): the gradient of
    :class:`TakeAlongAxis`."""

    __props__ = ("axis",)

    def __init__(self, axis: int | None) -> None:
        self.axis = axis

    def make_node(self, x: Any, indices: Any, y: Any) -> Apply:
        x = as_tensor_variable(x)
        taken = TakeAlongAxis(self.axis).make_node(x, indices)
        target = taken.outputs[0].type.shape  # type: ignore[attr-defined]
        y = prepare_update(str(self), x, y, target, "at", scalar_access=False)
        return Apply(self, [x, taken.inputs[1], y], [x.type()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        x, indices, y = inputs
        out = x.copy()  # C-contiguous, so reshape(-1) below is a view
        if self.axis is None:
            np.add.at(out.reshape(-1), indices, y)
        else:
            np.add.at(out, _along_axis_index(indices, self.axis, out.shape), y)
        output_storage[0][0] = out

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [input_shapes[0]]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False], [True]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Any]:
        x, indices, y = inputs
        (gz,) = output_grads
        if is_discrete(x):
            return [no_grad_for(x), _disconnected(), no_grad_for(y)]
        gy = (
            no_grad_for(y)
            if is_discrete(y)
            else sum_to_like(
                TakeAlongAxis(self.axis)(gz, indices),
                y,  # type: ignore[arg-type]
            )
        )
        return [gz, _disconnected(), gy]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        ex, _, ey = eval_points
        if ex is None and ey is None:
            return [None]
        ex = zeros_like(inputs[0]) if ex is None else ex  # type: ignore[arg-type]
        ey = zeros_like(inputs[2]) if ey is None else ey  # type: ignore[arg-type]
        return [self(ex, inputs[1], ey)]


# -- public functions -------------------------------------------------------------------


def _take_indices(indices: Any) -> TensorVariable:
    """``indices`` converted as ``np.take`` does: any integer or bool dtype (bools
    count as 0 / 1), Python sequences read as integers, floats refused."""
    lt = _lt()
    var = indices if isinstance(indices, Variable) else None
    if var is None and hasattr(indices, "__lazygraph_variable__"):
        var = indices.__lazygraph_variable__()
    if var is None:
        if isinstance(indices, (np.ndarray, np.generic)):
            arr = np.asarray(indices)
        else:
            arr = np.asarray(indices, dtype=np.intp)  # numpy truncates Python floats here
        var = as_tensor_variable(arr)
    var = as_tensor_variable(var)
    kind = var.type.numpy_dtype.kind
    if kind == "b":
        var = (
            lt.cast(var, "int64")
            if not hasattr(var, "data")
            else as_tensor_variable(np.asarray(var.data, dtype=np.int64))
        )
    elif kind not in "iu":
        raise TypeError(
            f"Cannot cast array data from dtype('{var.dtype}') to dtype('int64') according to "
            "the rule 'same_kind' (take indices)"
        )
    return var


def take(x: Any, indices: Any, axis: int | None = None, mode: str = "raise") -> TensorVariable:
    """``np.take(x, indices, axis)``: elements of ``x`` at ``indices`` along ``axis``
    (of the flattened ``x`` when ``axis`` is None). Negative indices count from the
    end; an out-of-bounds index raises ``IndexError`` (at build time when the
    index and size are constants). Only ``mode="raise"`` is supported.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> y = take(x, [[0, -1]], axis=1)
    >>> y.type
    TensorType(float64, shape=(?, 1, 2))
    >>> y.eval({x: np.arange(6.0).reshape(2, 3)})
    array([[[0., 2.]],
    <BLANKLINE>
           [[3., 5.]]])
    """
    if mode != "raise":
        raise NotImplementedError(f"take(mode={mode!r}): only mode='raise' is supported")
    x = as_tensor_variable(x)
    # numpy checks the axis first, and reads a 0-d array as 1-d here.
    ndim = max(x.ndim, 1)
    if axis is not None and not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    idx = _take_indices(indices)
    if x.ndim == 0:
        return Take(0)(getitem(x, None), idx)
    if axis is None:
        return Take(0)(x if x.ndim == 1 else _lt().reshape(x, (-1,)), idx)
    return Take(axis % x.ndim)(x, idx)


def take_along_axis(x: Any, indices: Any, axis: int | None = -1) -> TensorVariable:
    """``np.take_along_axis(x, indices, axis)``: ``x``'s values at ``indices`` along
    ``axis``, the other axes matched (broadcast) between ``x`` and ``indices``.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> y = take_along_axis(x, np.array([[1], [0]]), axis=1)
    >>> y.eval({x: np.array([[10.0, 20.0], [30.0, 40.0]])})
    array([[20.],
           [30.]])
    """
    x = as_tensor_variable(x)
    idx = as_tensor_variable(indices)
    return TakeAlongAxis(_check_along_axis(x, idx, axis))(x, idx)

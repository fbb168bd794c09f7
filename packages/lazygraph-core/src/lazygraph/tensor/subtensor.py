"""Basic indexing: ``x[idx]`` with ints, slices, ``None`` and ``...`` (:class:`Subtensor`,
a view) and its functional update (:class:`IncSubtensor`: ``set_subtensor`` /
``inc_subtensor``); the index parsing lives in :mod:`lazygraph.tensor.indexing`.

An index is stored in the op's ``__props__`` as hashable data: ints, ``None``
(newaxis), :class:`Slice` descriptors and the placeholder :data:`INPUT` where the
value is a graph input (a 0-d int variable, or an index array for advanced
indexing). Equal indices therefore give equal ops, and merge finds them.

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (3, 4, 5), "x")
>>> x[1, ::-2, None].type
TensorType(float64, shape=(2, 1, 5))
>>> x[..., 1:3].owner.op
Subtensor{idx_list=(:, :, 1:3)}
>>> i = lt.lscalar("i")
>>> x[i:].type
TensorType(float64, shape=(?, 4, 5))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.dtypes import is_weak_scalar, result_type
from lazygraph.tensor.indexing import (
    INPUT,
    IndexEntry,
    Slice,
    SliceLength,
    consumed_dims,
    count_inputs,
    fmt_shape,
    index_layout,
    numpy_index,
    parse_index,
    slice_length,
    static_shape,
    symbolic_shape,
)
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

if TYPE_CHECKING:
    from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "INPUT",
    "IncSubtensor",
    "Slice",
    "SliceLength",
    "Subtensor",
    "getitem",
    "inc_subtensor",
    "set_subtensor",
    "slice_length",
]


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


# -- gradient helpers ------------------------------------------------------------


def _disconnected() -> Any:
    from lazygraph.gradient import disconnected_type

    return disconnected_type()


def is_discrete(v: Variable) -> bool:
    return v.type.numpy_dtype.kind in "biu"  # type: ignore[attr-defined]


def no_grad_for(x: Variable) -> Any:
    """The gradient term of an integer / bool input (``grad`` makes it a zero)."""
    return _disconnected()


def zeros_like(x: Any) -> Any:
    """Zeros of ``x``'s shape and dtype: a constant when the shape is static, so
    gradients need no creation op."""
    if all(s is not None for s in x.type.shape):
        return as_tensor_variable(np.zeros(x.type.shape, dtype=x.dtype))
    return _lt().zeros_like(x)


def sum_to_like(g: Any, y: TensorVariable) -> Any:
    """Reduce ``g`` (the gradient of ``y`` broadcast to ``g``'s shape) to ``y``'s
    shape and dtype; sizes of ``y`` unknown at build time are settled at run time."""
    from lazygraph.tensor.shape import sum_to_shape

    if g.ndim < y.ndim:
        # numpy's assignment drops y's leading size-1 dims; give them back.
        g = getitem(g, (None,) * (y.ndim - g.ndim))
    return sum_to_shape(g, y)


# -- Subtensor ---------------------------------------------------------------------


def _check_index_inputs(op: Op, entries: Sequence[IndexEntry], inputs: Sequence[Any]) -> None:
    if len(inputs) != count_inputs(entries):
        raise TypeError(
            f"{op} takes {count_inputs(entries)} index inputs after x, {len(inputs)} given"
        )


def _with_ellipsis(idx: tuple[Any, ...]) -> tuple[Any, ...]:
    # x[1, 2] is a numpy scalar; x[1, 2, ...] is the same value as a 0-d view.
    return idx if Ellipsis in idx else (*idx, Ellipsis)


class Subtensor(Op):
    """Basic indexing ``x[idx]`` (ints, slices, newaxis): a view of ``x``.

    Inputs: ``x`` then one 0-d integer variable per :data:`INPUT` placeholder of
    ``idx_list``.
    """

    __props__ = ("idx_list",)
    view_map: ClassVar[dict[int, list[int]]] = {0: [0]}  # type: ignore[misc]

    def __init__(self, idx_list: Sequence[IndexEntry]) -> None:
        self.idx_list = tuple(idx_list)
        # the numpy index of an index without inputs, made once
        self._index = (
            None
            if count_inputs(self.idx_list)
            else _with_ellipsis(numpy_index(self.idx_list, (), basic=True))
        )

    def make_node(self, x: Any, *index_inputs: Any) -> Apply:
        x = as_tensor_variable(x)
        inputs = [as_tensor_variable(v) for v in index_inputs]
        _check_index_inputs(self, self.idx_list, inputs)
        for v in inputs:
            if v.ndim != 0 or v.type.numpy_dtype.kind not in "iu":
                raise IndexError(f"{self}: index inputs must be 0-d integers, got {v.type}")
        if sum(consumed_dims(e, None) for e in self.idx_list) > x.ndim:
            raise IndexError(
                f"too many indices for array: array is {x.ndim}-dimensional, but "
                f"{sum(consumed_dims(e, None) for e in self.idx_list)} were indexed"
            )
        layout = index_layout(x.ndim, self.idx_list, inputs)
        shape = static_shape(x.type, layout)
        return Apply(self, [x, *inputs], [TensorType(x.dtype, shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        idx = self._index
        if idx is None:
            idx = _with_ellipsis(numpy_index(self.idx_list, inputs[1:], basic=True))
        output_storage[0][0] = inputs[0][idx]

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
            gx = no_grad_for(x)  # type: ignore[arg-type]
        else:
            gx = IncSubtensor(self.idx_list)(zeros_like(x), gz, *idx)
        return [gx] + [_disconnected() for _ in idx]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [self(eval_points[0], *inputs[1:])]

    def __str__(self) -> str:
        return f"Subtensor{{idx_list={_fmt_idx(self.idx_list)}}}"


def _fmt_idx(entries: Sequence[IndexEntry]) -> str:
    def one(e: IndexEntry) -> str:
        if e is Ellipsis:
            return "..."
        if e is None:
            return "newaxis"
        return repr(e)

    return "(" + ", ".join(one(e) for e in entries) + ("," if len(entries) == 1 else "") + ")"


# -- the update value: numpy's conversion and broadcasting rules ----------------


def is_scalar_access(entries: Sequence[IndexEntry], ndim: int) -> bool:
    """numpy's full integer index (``x[1, 2]`` on a 2-d x): assignment goes
    through a scalar, with its own casting and shape rules."""
    return len(entries) == ndim and all(e is INPUT or isinstance(e, int) for e in entries)


def _holds_variable(seq: Any) -> bool:
    if isinstance(seq, (list, tuple)):
        return any(_holds_variable(v) for v in seq)
    return isinstance(seq, Variable) or hasattr(seq, "__lazygraph_variable__")


def prepare_update(
    op_name: str,
    x: TensorVariable,
    y: Any,
    target_shape: tuple[int | None, ...],
    mode: str,
    scalar_access: bool,
) -> TensorVariable:
    """Check and convert the value ``y`` written into ``x[idx]`` as numpy does.

    ``mode``: ``"set"`` (``x[idx] = y``: unsafe casting), ``"inc"`` (``x[idx] += y``:
    same-kind casting, y broadcasts to the target) or ``"at"`` (``np.add.at``).
    """
    if is_weak_scalar(y) and mode == "set":
        data = np.empty((), dtype=x.dtype)
        data[()] = y  # numpy's own conversion: OverflowError / ValueError / TypeError
        y = as_tensor_variable(data)
    elif mode == "set" and isinstance(y, (list, tuple)) and not _holds_variable(y):
        # numpy converts a sequence straight to x's dtype (300 into int8 overflows).
        y = as_tensor_variable(np.asarray(y, dtype=x.dtype))
    elif is_weak_scalar(y) and mode == "inc":
        y = as_tensor_variable(np.asarray(y, dtype=result_type(x, y)))
    else:
        y = as_tensor_variable(y)
    if mode == "inc" and not scalar_access:
        out = result_type(x, y)
        if not np.can_cast(out, x.dtype, "same_kind"):
            raise TypeError(
                f"{op_name}: cannot cast the {out} result of adding {y.dtype} to {x.dtype} "
                "with casting rule 'same_kind'"
            )
    if scalar_access and mode != "at":
        size = None if None in y.type.shape else int(np.prod(y.type.shape))
        if y.ndim and x.dtype.startswith("complex"):
            raise TypeError(
                f"only 0-dimensional arrays can be converted to Python scalars ({op_name}: a "
                f"full integer index selects one element, the value has shape "
                f"{fmt_shape(y.type.shape)})"
            )
        # numpy converts a size-1 array to one bool (truthiness); other sizes fail.
        if y.ndim and not (x.dtype == "bool" and size in (1, None)):
            raise ValueError(
                f"setting an array element with a sequence. ({op_name}: a full integer "
                f"index selects one element, the value has shape {fmt_shape(y.type.shape)})"
            )
        return y
    ys, ts = y.type.shape, target_shape
    extra = len(ys) - len(ts)
    ok = True
    if extra > 0:
        ok = mode == "set" and all(s in (1, None) for s in ys[:extra])
    for a, b in zip(ys[max(extra, 0) :], ts[max(-extra, 0) :], strict=False):
        if a is not None and b is not None and a != 1 and a != b:
            ok = False
    if not ok:
        if mode == "set":
            msg = (
                f"could not broadcast input array from shape {fmt_shape(ys)} "
                f"into shape {fmt_shape(ts)}"
            )
        elif mode == "inc":
            msg = (
                f"non-broadcastable output operand with shape {fmt_shape(ts)} doesn't match the "
                f"broadcast shape of the value {fmt_shape(ys)}"
            )
        else:
            msg = (
                f"array is not broadcastable to correct shape: {fmt_shape(ys)} into {fmt_shape(ts)}"
            )
        raise ValueError(f"{msg} ({op_name})")
    return y


# -- IncSubtensor --------------------------------------------------------------------


class IncSubtensor(Op):
    """``x`` with ``x[idx]`` replaced by (``set_instead_of_inc``: numpy's
    ``x[idx] = y``) or incremented by ``y``; basic indices only.

    Increments are numpy's ``x[idx] += y`` (same-kind casting), or with
    ``accumulate`` ``np.add.at(x, idx, y)``: basic indices never repeat an
    element, so the two differ only in casting (``np.add.at`` casts unsafely).
    Inputs: ``x``, ``y``, then the index inputs. ``inplace`` writes into ``x``'s
    buffer (``destroy_map``); the default copies ``x``.
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
        sub = Subtensor(self.idx_list).make_node(x, *index_inputs)
        mode = "set" if self.set_instead_of_inc else ("at" if self.accumulate else "inc")
        scalar = is_scalar_access(self.idx_list, x.ndim)
        y = prepare_update(str(self), x, y, sub.outputs[0].type.shape, mode, scalar)  # type: ignore[attr-defined]
        return Apply(self, [x, y, *sub.inputs[1:]], [x.type()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        x, y, *values = inputs
        out = x if self.inplace else x.copy()
        idx = numpy_index(self.idx_list, values, basic=True)
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
        setter = IncSubtensor(self.idx_list, True) if self.set_instead_of_inc else None
        return [
            *update_grads(x, y, gz, Subtensor(self.idx_list), setter, idx),  # type: ignore[arg-type]
            *(_disconnected() for _ in idx),
        ]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        return [update_r_op(self, inputs, eval_points)]

    def __str__(self) -> str:
        kind = "SetSubtensor" if self.set_instead_of_inc else "IncSubtensor"
        flags = [f for f in ("accumulate", "inplace") if getattr(self, f)]
        extra = "".join(", " + f for f in flags)
        return f"{kind}{{idx_list={_fmt_idx(self.idx_list)}{extra}}}"


def update_grads(
    x: TensorVariable,
    y: TensorVariable,
    gz: Any,
    getter: Op,
    zero_setter: Op | None,
    idx: Sequence[Variable],
) -> list[Any]:
    """``[d/dx, d/dy]`` of ``x[idx] = y`` or ``x[idx] += y``: ``getter`` reads
    ``x[idx]``; ``zero_setter`` (``None`` for an increment) zeroes it."""
    if is_discrete(x):
        # The output is discrete too: nothing flows back to x or y.
        return [no_grad_for(x), no_grad_for(y)]
    # With a set, the overwritten elements of x do not reach the output.
    gx = gz if zero_setter is None else zero_setter(gz, np.zeros((), dtype=gz.dtype), *idx)
    gy = no_grad_for(y) if is_discrete(y) else sum_to_like(getter(gz, *idx), y)
    return [gx, gy]


def update_r_op(op: Op, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> Any:
    """The JVP of a set / inc node: the same update applied to the tangents."""
    ex, ey = eval_points[0], eval_points[1]
    if ex is None and ey is None:
        return None
    if ex is None:
        ex = zeros_like(inputs[0])
    if ey is None:
        ey = zeros_like(inputs[1])
    return op(ex, ey, *inputs[2:])


# -- public functions ------------------------------------------------------------------


def getitem(x: Any, index: Any) -> TensorVariable:
    """``x[index]`` with numpy's indexing rules.

    Ints (negative from the end), slices (any parts may be 0-d int variables),
    ``None``, ``...`` give a :class:`Subtensor` (basic indexing, a view); integer
    arrays, lists, int / bool variables and boolean masks give an
    ``AdvancedSubtensor`` (a copy; a mask's selected count is ``None`` in the
    static shape unless the mask is a constant). Errors are numpy's, raised at
    build time when the shapes are known: ``IndexError`` for an out-of-bounds
    integer or too many indices, ``IndexError`` for a float index.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.tensor("float64", (3, 4), "x")
    >>> x[-1].type, x[:, [0, 2, 2]].type
    (TensorType(float64, shape=(4,)), TensorType(float64, shape=(3, 3)))
    >>> x[lt.bmatrix("mask") > 0].type
    TensorType(float64, shape=(?,))
    >>> x[1:, None, -1].eval({x: np.arange(12.0).reshape(3, 4)})
    array([[ 7.],
           [11.]])
    >>> x[3]
    Traceback (most recent call last):
    ...
    IndexError: index 3 is out of bounds for axis 0 with size 3 (indexing an array of shape (3,4))
    """
    x = as_tensor_variable(x)
    parsed = parse_index(x, index)
    if parsed.advanced:
        from lazygraph.tensor.advanced_subtensor import AdvancedSubtensor

        return AdvancedSubtensor(parsed.entries)(x, *parsed.inputs)
    return Subtensor(parsed.entries)(x, *parsed.inputs)


def _rebuild_update(
    x: Any, y: Any, set_instead_of_inc: bool, accumulate: bool, inplace: bool, name: str
) -> TensorVariable:
    from lazygraph.tensor.advanced_subtensor import AdvancedIncSubtensor, AdvancedSubtensor

    owner = getattr(x, "owner", None)
    op = owner.op if owner is not None else None
    if isinstance(op, Subtensor):
        new: Op = IncSubtensor(op.idx_list, set_instead_of_inc, accumulate, inplace)
    elif isinstance(op, AdvancedSubtensor):
        new = AdvancedIncSubtensor(op.idx_list, set_instead_of_inc, accumulate, inplace)
    else:
        raise TypeError(f"{name}(x, y): x must be the result of indexing (x = base[idx]), got {x}")
    base, *idx = owner.inputs  # type: ignore[union-attr]
    return new(base, y, *idx)


def set_subtensor(x: Any, y: Any, inplace: bool = False) -> TensorVariable:
    """Theano's ``set_subtensor(base[idx], y)``: ``base`` with ``base[idx] = y``
    (numpy's assignment: ``y`` is cast to ``base``'s dtype and broadcast).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> z = set_subtensor(x[1:], 5.0)
    >>> z.owner.op
    SetSubtensor{idx_list=(1:,)}
    >>> z.eval({x: np.zeros(3)})
    array([0., 5., 5.])
    """
    return _rebuild_update(x, y, True, False, inplace, "set_subtensor")


def inc_subtensor(
    x: Any, y: Any, ignore_duplicates: bool = False, inplace: bool = False
) -> TensorVariable:
    """Theano's ``inc_subtensor(base[idx], y)``: ``base`` with ``y`` added at ``idx``.

    The default is ``np.add.at(base, idx, y)``: repeated advanced indices
    accumulate, and ``y`` is cast to ``base``'s dtype unsafely.
    ``ignore_duplicates=True`` is numpy's ``base[idx] += y`` instead: a repeated
    element receives one increment, and casting is same-kind.

    >>> import lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> z = inc_subtensor(x[[0, 0]], 1.0)
    >>> z.owner.op
    AdvancedIncSubtensor{idx_list=($,), accumulate}
    >>> z.eval({x: [0.0, 0.0]})
    array([2., 0.])
    """
    return _rebuild_update(x, y, False, not ignore_duplicates, inplace, "inc_subtensor")

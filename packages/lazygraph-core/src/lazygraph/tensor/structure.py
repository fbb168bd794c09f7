"""Rearranging an array's elements: ``Flip``, ``Roll``, ``Repeat``, ``Pad``,
and ``tile`` (a reshape of a broadcast, so it needs no op of its own).

``Repeat`` and ``Pad`` are gathers along axes; their gradients are the matching
scatter-adds (``RepeatGrad``, ``PadGrad``), whose own gradients are the gathers
again, so second derivatives work.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (3,))
>>> lt.pad(x, 2, mode="reflect").eval({x: np.array([1.0, 2.0, 3.0])})
array([3., 2., 1., 2., 3., 2., 1.])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.tensor.broadcast import alloc
from lazygraph.tensor.shape import (
    ShapeEntry,
    _lt,
    as_shape_scalar,
    constant_int,
    disconnected_grad,
    is_disconnected,
    is_discrete,
    make_vector,
    normalize_axes,
    normalize_axis,
    product,
    ravel,
    reshape,
    shape_i,
    shape_tuple,
    vector_entry_vars,
)
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable, constant

if TYPE_CHECKING:
    from lazygraph.graph.basic import OutputStorage
    from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "Flip",
    "Pad",
    "PadGrad",
    "Repeat",
    "RepeatGrad",
    "Roll",
    "flip",
    "fliplr",
    "flipud",
    "pad",
    "repeat",
    "roll",
    "tile",
]


def _same_type_output(x: TensorVariable) -> Variable:
    return x.type()


# -- Flip ------------------------------------------------------------------------


class Flip(Op):
    """``x`` -> ``numpy.flip(x, axes)`` (a view with negative strides)."""

    __props__ = ("axes",)
    view_map = {0: [0]}  # noqa: RUF012

    def __init__(self, axes: Sequence[int]) -> None:
        self.axes = tuple(int(a) for a in axes)

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        if normalize_axes(self.axes, x.ndim, "flip") != self.axes:
            raise ValueError(f"Flip: axes must be normalized, got {self.axes}")
        return Apply(self, [x], [_same_type_output(x)])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        output_storage[0][0] = np.flip(inputs[0], self.axes)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [tuple(input_shapes[0])]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        (g,) = output_grads
        if is_discrete(inputs[0]) or is_disconnected(g):
            return [disconnected_grad()]
        return [Flip(self.axes)(g)]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        return [None if eval_points[0] is None else Flip(self.axes)(eval_points[0])]


def flip(x: Any, axis: int | Sequence[int] | None = None) -> TensorVariable:
    """``numpy.flip``: reverse the order of elements along ``axis`` (all by default).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> lt.flip(x, -1).eval({x: np.array([[1.0, 2.0], [3.0, 4.0]])})
    array([[2., 1.],
           [4., 3.]])
    """
    x = as_tensor_variable(x)
    axes = normalize_axes(axis, x.ndim, "flip")
    if not axes:
        return x
    return Flip(tuple(sorted(axes)))(x)


def fliplr(x: Any) -> TensorVariable:
    """``numpy.fliplr``: reverse the second axis (``x`` must be at least 2-d).

    >>> import lazygraph.tensor as lt
    >>> lt.fliplr(lt.dmatrix()).owner.op
    Flip{axes=(1,)}
    """
    x = as_tensor_variable(x)
    if x.ndim < 2:
        raise ValueError("fliplr: Input must be >= 2-d.")
    return flip(x, 1)


def flipud(x: Any) -> TensorVariable:
    """``numpy.flipud``: reverse the first axis (``x`` must be at least 1-d).

    >>> import lazygraph.tensor as lt
    >>> lt.flipud(lt.dmatrix()).owner.op
    Flip{axes=(0,)}
    """
    x = as_tensor_variable(x)
    if x.ndim < 1:
        raise ValueError("flipud: Input must be >= 1-d.")
    return flip(x, 0)


# -- Roll ------------------------------------------------------------------------


class Roll(Op):
    """``(x, shifts)`` -> ``numpy.roll(x, shifts, axes)``; ``shifts`` is a 1-d
    int64 vector with one shift per axis."""

    __props__ = ("axes",)

    def __init__(self, axes: Sequence[int]) -> None:
        self.axes = tuple(int(a) for a in axes)

    def make_node(self, x: Any, shifts: Any) -> Apply:
        x = as_tensor_variable(x)
        shifts = as_tensor_variable(shifts)
        if normalize_axes(self.axes, x.ndim, "roll") != self.axes:
            raise ValueError(f"Roll: axes must be normalized and distinct, got {self.axes}")
        if shifts.type.shape != (len(self.axes),) or shifts.type.numpy_dtype.kind not in "iu":
            raise TypeError(f"Roll: shifts must be {len(self.axes)} integers, got {shifts.type}")
        return Apply(self, [x, shifts], [_same_type_output(x)])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        x, shifts = inputs
        output_storage[0][0] = np.roll(x, tuple(int(s) for s in shifts), axis=self.axes)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [tuple(input_shapes[0])]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        x, shifts = inputs
        (g,) = output_grads
        if is_discrete(x) or is_disconnected(g):
            return [disconnected_grad(), disconnected_grad()]
        return [Roll(self.axes)(g, _lt().negative(shifts)), disconnected_grad()]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [Roll(self.axes)(eval_points[0], inputs[1])]


def _shift_entries(shift: Any) -> list[ShapeEntry]:
    if isinstance(shift, Variable) and not isinstance(shift, Constant):
        if shift.type.numpy_dtype.kind not in "iu":  # type: ignore[attr-defined]
            raise TypeError(f"roll: shifts must be integers, got {shift} of dtype {shift.dtype}")  # type: ignore[attr-defined]
        if shift.type.ndim == 0:  # type: ignore[attr-defined]
            return [shift]
        if shift.type.ndim != 1 or shift.type.shape[0] is None:  # type: ignore[attr-defined]
            raise ValueError("roll: 'shift' must be a scalar or a 1-d sequence of static length")
        return list(vector_entry_vars(shift))
    data = np.asarray(shift.data if isinstance(shift, Constant) else shift)
    if data.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    # numpy converts each shift with int(), so 1.5 rolls by 1.
    return [int(s) for s in data.reshape(-1)]


def roll(x: Any, shift: Any, axis: int | Sequence[int] | None = None) -> TensorVariable:
    """``numpy.roll``: shift elements cyclically along ``axis`` (the flattened
    array when ``None``); ``shift`` and ``axis`` broadcast against each other and
    shifts along a repeated axis add up.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.roll(x, 1).eval({x: np.array([1.0, 2.0, 3.0])})
    array([3., 1., 2.])
    """
    x = as_tensor_variable(x)
    shifts = _shift_entries(shift)
    if axis is None:
        flat = roll(ravel(x), shift, 0)
        return reshape(flat, shape_tuple(x))
    axes_in = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    axes_norm = [normalize_axis(a, x.ndim, "roll") for a in axes_in]
    if x.ndim == 0:
        # numpy fails to unpack the rolls of a 0-d array along an empty axis tuple.
        raise ValueError("roll: not enough values to unpack (a 0-d array with axis=())")
    # numpy broadcasts shift against axis (a scalar counts as length 1 here).
    ns, na = len(shifts), len(axes_norm)
    if ns != na and 1 not in (ns, na):
        raise ValueError(
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
            f"between arg 0 with shape ({ns},) and arg 1 with shape ({na},)."
        )
    n = na if ns == 1 else ns
    shifts = shifts * n if ns == 1 else shifts
    axes_norm = axes_norm * n if na == 1 else axes_norm
    per_axis: dict[int, ShapeEntry] = {}
    lt = _lt()
    for s, a in zip(shifts, axes_norm, strict=True):
        prev = per_axis.get(a, 0)
        if isinstance(prev, int) and isinstance(s, int):
            per_axis[a] = prev + s
        else:
            per_axis[a] = s if isinstance(prev, int) and prev == 0 else lt.add(prev, s)
    axes = tuple(sorted(per_axis))
    if not axes:
        return x
    entries = [per_axis[a] for a in axes]
    if all(isinstance(e, int) for e in entries):
        vec: Variable = constant(np.array(entries, dtype=np.int64))
    else:
        vec = make_vector(*(as_shape_scalar(e, "roll") for e in entries), dtype="int64")
    return Roll(axes)(x, vec)


# -- tile ------------------------------------------------------------------------


def tile(x: Any, reps: Any) -> TensorVariable:
    """``numpy.tile``: ``x`` repeated ``reps`` times along each axis.

    Built as a reshape of a broadcast: ``x`` of shape ``(a, b)`` becomes
    ``(1, a, 1, b)``, is broadcast to ``(r0, a, r1, b)`` and reshaped to
    ``(r0 * a, r1 * b)``; the gradient falls out of those ops. ``reps`` may hold
    0-d integer variables.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.tensor("float64", (2,))
    >>> y = lt.tile(x, (2, 2))
    >>> y.type.shape
    (2, 4)
    >>> y.eval({x: np.array([1.0, 2.0])})
    array([[1., 2., 1., 2.],
           [1., 2., 1., 2.]])
    """
    x = as_tensor_variable(x)
    if isinstance(reps, Variable) and reps.type.ndim == 1:  # type: ignore[attr-defined]
        reps = vector_entry_vars(reps)
    reps_seq = list(reps) if isinstance(reps, (tuple, list)) else [reps]
    entries: list[ShapeEntry] = []
    for r in reps_seq:
        v = as_shape_scalar(r, "tile")
        k = constant_int(v)
        entries.append(v if k is None else k)
    ndim = max(len(entries), x.ndim)
    ones: list[ShapeEntry] = [1] * ndim
    entries = ones[: ndim - len(entries)] + entries
    sizes = ones[: ndim - x.ndim] + list(shape_tuple(x))
    lt = _lt()
    for d, (r, s) in enumerate(zip(entries, sizes, strict=True)):
        if not (isinstance(r, int) and r < 0):
            continue
        # numpy tiles an empty axis any number of times, even a negative one.
        if isinstance(s, int) and s > 0:
            raise ValueError("tile: negative dimensions are not allowed")
        entries[d] = 0 if isinstance(s, int) else lt.where(lt.equal(s, 0), 0, r)
    if all(isinstance(r, int) and r == 1 for r in entries):
        return reshape(x, sizes) if ndim != x.ndim else x
    interleaved: list[ShapeEntry] = []
    broadcast: list[ShapeEntry] = []
    for r, s in zip(entries, sizes, strict=True):
        interleaved += [1, s]
        broadcast += [r, s]
    spread = alloc(reshape(x, interleaved), *broadcast)
    return reshape(spread, [product([r, s]) for r, s in zip(entries, sizes, strict=True)])


# -- Repeat ----------------------------------------------------------------------


def _repeat_length(n: int | None, repeats: Variable) -> int | None:
    if not isinstance(repeats, Constant) or (n is None and repeats.type.ndim == 0):  # type: ignore[attr-defined]
        return None
    r = np.asarray(repeats.data)
    if r.ndim == 1 and (r.shape[0] != 1 or n == 1):
        return max(0, int(r.sum()))
    return None if n is None else max(0, n * int(r.reshape(())))


class Repeat(Op):
    """``(x, repeats)`` -> ``numpy.repeat(x, repeats, axis)``; ``repeats`` is a
    0-d integer or a 1-d vector with one count per element along ``axis``."""

    __props__ = ("axis",)

    def __init__(self, axis: int) -> None:
        self.axis = int(axis)

    def make_node(self, x: Any, repeats: Any) -> Apply:
        x = as_tensor_variable(x)
        repeats = as_tensor_variable(repeats)
        if normalize_axis(self.axis, x.ndim, "repeat") != self.axis:
            raise ValueError(f"Repeat: axis must be normalized, got {self.axis}")
        _check_repeats(repeats, x.type.shape[self.axis])
        shp = list(x.type.shape)
        shp[self.axis] = _repeat_length(shp[self.axis], repeats)
        return Apply(self, [x, repeats], [TensorType(x.dtype, shp)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        x, repeats = inputs
        output_storage[0][0] = np.repeat(x, repeats, axis=self.axis)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        shp = list(input_shapes[0])
        static = node.outputs[0].type.shape[self.axis]  # type: ignore[attr-defined]
        repeats = node.inputs[1]
        lt = _lt()
        if static is not None:
            shp[self.axis] = static
        elif repeats.type.ndim == 0:  # type: ignore[attr-defined]
            shp[self.axis] = product([shp[self.axis], lt.cast(repeats, "int64")])
        else:
            total = lt.cast(lt.sum(repeats), "int64")
            if repeats.type.shape[0] is None:  # type: ignore[attr-defined]
                # A length-1 vector of counts applies to every element.
                single = lt.equal(shape_i(repeats, 0), 1)
                total = lt.where(single, product([shp[self.axis], total]), total)
            shp[self.axis] = total
        return [tuple(shp)]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        x, repeats = inputs
        (g,) = output_grads
        if is_discrete(x) or is_disconnected(g):
            return [disconnected_grad(), disconnected_grad()]
        return [RepeatGrad(self.axis)(g, repeats, shape_i(x, self.axis)), disconnected_grad()]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [Repeat(self.axis)(eval_points[0], inputs[1])]


def _check_repeats(repeats: TensorVariable, n: int | None) -> None:
    if repeats.ndim > 1:
        raise ValueError("repeat: repeats must be a scalar or a 1-d array")
    if not np.can_cast(repeats.type.numpy_dtype, np.int64, "safe"):
        raise TypeError(
            f"repeat: Cannot cast array data from dtype('{repeats.dtype}') to dtype('int64') "
            "according to the rule 'safe'"
        )
    # numpy only objects to negative counts when there is something to repeat.
    if isinstance(repeats, Constant) and (np.asarray(repeats.data) < 0).any() and n:
        raise ValueError("repeat: negative dimensions are not allowed")
    length = repeats.type.shape[0] if repeats.ndim == 1 else None
    if length is not None and n is not None and length != n and length != 1:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({length},)")


class RepeatGrad(Op):
    """``(g, repeats, n)`` -> the gradient of :class:`Repeat`: the sums of the
    ``repeats`` consecutive slices of ``g`` along ``axis`` that copy each of the
    ``n`` input slices (a segment sum)."""

    __props__ = ("axis",)

    def __init__(self, axis: int) -> None:
        self.axis = int(axis)

    def make_node(self, g: Any, repeats: Any, n: Any) -> Apply:
        g = as_tensor_variable(g)
        repeats = as_tensor_variable(repeats)
        n = as_shape_scalar(n, "RepeatGrad")
        shp = list(g.type.shape)
        shp[self.axis] = constant_int(n)
        return Apply(self, [g, repeats, n], [TensorType(g.dtype, shp)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        g, repeats, n = inputs
        n = int(n)
        axis = self.axis
        if repeats.ndim == 0:
            split = (*g.shape[:axis], n, int(repeats), *g.shape[axis + 1 :])
            out = g.reshape(split).sum(axis=axis + 1, dtype=g.dtype)
        else:
            owner = np.repeat(np.arange(n), np.broadcast_to(repeats, (n,)))
            shp = list(g.shape)
            shp[axis] = n
            out = np.zeros(shp, dtype=g.dtype)
            np.add.at(np.moveaxis(out, axis, 0), owner, np.moveaxis(g, axis, 0))
        output_storage[0][0] = out

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        shp = list(input_shapes[0])
        n = node.inputs[2]
        shp[self.axis] = constant_int(n) if constant_int(n) is not None else n
        return [tuple(shp)]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False], [False]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        _, repeats, _ = inputs
        (gg,) = output_grads
        if is_disconnected(gg):
            return [disconnected_grad()] * 3
        return [Repeat(self.axis)(gg, repeats), disconnected_grad(), disconnected_grad()]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [RepeatGrad(self.axis)(eval_points[0], *inputs[1:])]


def repeat(x: Any, repeats: Any, axis: int | None = None) -> TensorVariable:
    """``numpy.repeat``: repeat each element ``repeats`` times (an int, or one
    count per element) along ``axis`` (the flattened array when ``None``).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.tensor("float64", (2,))
    >>> y = lt.repeat(x, [1, 3])
    >>> y.type.shape
    (4,)
    >>> y.eval({x: np.array([5.0, 7.0])})
    array([5., 7., 7., 7.])
    """
    x = as_tensor_variable(x)
    if isinstance(repeats, (float, np.floating)):
        repeats = int(repeats)  # numpy casts a Python float count with int()
    r = as_tensor_variable(repeats)
    if axis is None or x.ndim == 0:
        if x.ndim == 0 and axis is not None:
            normalize_axis(axis, 1, "repeat")
        x = ravel(x)
        axis = 0
    axis = normalize_axis(axis, x.ndim, "repeat")
    _check_repeats(r, x.type.shape[axis])
    # A single count given as a length-1 vector applies to every element.
    if r.ndim == 1 and r.type.shape[0] == 1 and x.type.shape[axis] != 1:
        r = constant(r.data.reshape(())) if isinstance(r, Constant) else reshape(r, ())
    return Repeat(axis)(x, r)


# -- Pad -------------------------------------------------------------------------

#: Modes whose padding copies elements of the array, so that the padded array
#: is ``x`` gathered along each axis at ``numpy.pad(arange(n), (before, after), mode)``.
_GATHER_MODES = ("edge", "reflect", "symmetric", "wrap")
PAD_MODES = ("constant", *_GATHER_MODES)


class Pad(Op):
    """``(x, constant_values)`` (``constant`` mode) or ``x`` -> ``numpy.pad(x,
    pad_width, mode)``; ``pad_width`` is one ``(before, after)`` pair per axis."""

    __props__ = ("pad_width", "mode")

    def __init__(self, pad_width: Sequence[tuple[int, int]], mode: str = "constant") -> None:
        self.pad_width = tuple((int(b), int(a)) for b, a in pad_width)
        if mode not in PAD_MODES:
            raise ValueError(f"mode {mode!r} is not supported (supported: {PAD_MODES})")
        self.mode = mode

    def make_node(self, x: Any, constant_values: Any = None) -> Apply:
        x = as_tensor_variable(x)
        if len(self.pad_width) != x.ndim:
            raise ValueError(f"Pad: {len(self.pad_width)} (before, after) pairs for {x.ndim}-d {x}")
        inputs = [x]
        if self.mode == "constant":
            cv = as_tensor_variable(0 if constant_values is None else constant_values)
            if cv.ndim != 0 and cv.type.shape != (x.ndim, 2):
                raise ValueError(f"Pad: constant_values must be 0-d or ({x.ndim}, 2), got {cv}")
            inputs.append(cv)
        shp: list[int | None] = []
        for d, (s, (b, a)) in enumerate(zip(x.type.shape, self.pad_width, strict=True)):
            if self.mode != "constant" and s == 0 and (b or a):
                raise ValueError(
                    f"can't extend empty axis {d} using modes other than 'constant' or 'empty'"
                )
            shp.append(None if s is None else s + b + a)
        return Apply(self, inputs, [TensorType(x.dtype, shp)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        if not self.pad_width:  # a 0-d array: nothing to pad (numpy returns a copy)
            output_storage[0][0] = np.array(inputs[0], copy=True)
            return
        widths = self.pad_width
        if self.mode == "constant":
            x, cv = inputs
            output_storage[0][0] = np.pad(x, widths, mode="constant", constant_values=cv)
        else:
            output_storage[0][0] = np.pad(inputs[0], widths, mode=self.mode)  # type: ignore[call-overload]

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        out = []
        for s, (b, a) in zip(input_shapes[0], self.pad_width, strict=True):
            out.append(s + b + a if isinstance(s, int) else _lt().add(s, b + a))
        return [tuple(out)]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True] for _ in node.inputs]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        (g,) = output_grads
        x = inputs[0]
        if is_disconnected(g):
            return [disconnected_grad() for _ in inputs]
        gx = PadGrad(self.pad_width, self.mode)(g)
        grads = [disconnected_grad() if is_discrete(x) else gx]
        if self.mode == "constant":
            cv = inputs[1]
            if is_discrete(cv):
                grads.append(disconnected_grad())
            elif cv.type.ndim == 0:  # type: ignore[attr-defined]
                lt = _lt()
                # Every padded element is the constant: its gradient is the padding's sum.
                gcv = lt.subtract(lt.sum(g), lt.sum(gx))
                grads.append(gcv if gcv.dtype == cv.dtype else lt.cast(gcv, cv.dtype))  # type: ignore[attr-defined]
            else:
                grads.append(
                    _gradient_not_implemented(self, 1, cv, "per-axis constant_values in pad")
                )
        return grads

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if all(e is None for e in eval_points):
            return [None]
        from lazygraph.tensor.creation import zeros_like

        ex = zeros_like(inputs[0]) if eval_points[0] is None else eval_points[0]
        if self.mode != "constant":
            return [Pad(self.pad_width, self.mode)(ex)]
        ecv = 0 if eval_points[1] is None else eval_points[1]
        return [Pad(self.pad_width, self.mode)(ex, ecv)]


def _gradient_not_implemented(op: Op, i: int, x: Variable, what: str) -> Variable:
    import lazygraph.gradient as gradient

    return gradient.grad_not_implemented(op, i, x, what)


class PadGrad(Op):
    """``g`` -> the gradient of :class:`Pad` with respect to ``x``: the interior
    of ``g`` (``constant`` mode), or ``g`` scatter-added back onto the elements
    the padding copied (the other modes)."""

    __props__ = ("pad_width", "mode")

    def __init__(self, pad_width: Sequence[tuple[int, int]], mode: str = "constant") -> None:
        self.pad_width = tuple((int(b), int(a)) for b, a in pad_width)
        self.mode = mode

    def make_node(self, g: Any) -> Apply:
        g = as_tensor_variable(g)
        if len(self.pad_width) != g.ndim:
            raise ValueError(f"PadGrad: {len(self.pad_width)} pairs for {g.ndim}-d {g}")
        shp = [
            None if s is None else s - b - a
            for s, (b, a) in zip(g.type.shape, self.pad_width, strict=True)
        ]
        return Apply(self, [g], [TensorType(g.dtype, shp)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        (g,) = inputs
        # Per-axis gathers commute, so their transposes may be applied in any order.
        for axis, (b, a) in enumerate(self.pad_width):
            n = g.shape[axis] - b - a
            if self.mode == "constant":
                index = [slice(None)] * g.ndim
                index[axis] = slice(b, b + n)
                g = g[tuple(index)]
                continue
            if b == 0 and a == 0:
                continue
            source = np.pad(np.arange(n), (b, a), mode=self.mode)  # type: ignore[call-overload]
            shp = list(g.shape)
            shp[axis] = n
            out = np.zeros(shp, dtype=g.dtype)
            np.add.at(np.moveaxis(out, axis, 0), source, np.moveaxis(g, axis, 0))
            g = out
        output_storage[0][0] = np.array(g, copy=True)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        out = []
        for s, (b, a) in zip(input_shapes[0], self.pad_width, strict=True):
            out.append(s - b - a if isinstance(s, int) else _lt().subtract(s, b + a))
        return [tuple(out)]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        (gg,) = output_grads
        if is_disconnected(gg):
            return [disconnected_grad()]
        if self.mode == "constant":
            return [Pad(self.pad_width, "constant")(gg, constant(0, dtype=gg.dtype))]
        return [Pad(self.pad_width, self.mode)(gg)]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        return [
            None if eval_points[0] is None else PadGrad(self.pad_width, self.mode)(eval_points[0])
        ]


def _pad_pairs(pad_width: Any, ndim: int) -> tuple[tuple[int, int], ...]:
    if isinstance(pad_width, Constant):
        pad_width = pad_width.data
    elif isinstance(pad_width, Variable):
        raise TypeError("pad: pad_width must be known when building the graph")
    arr = np.asarray(pad_width)
    if arr.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    # numpy checks the widths as given, before broadcasting them to the axes.
    if arr.size == 0:
        raise ValueError("pad: pad_width is empty (numpy: zero-size array to reduction)")
    if (arr < 0).any():
        raise ValueError("index can't contain negative values")
    try:
        pairs = np.broadcast_to(arr, (ndim, 2))
    except ValueError:
        raise ValueError(
            "operands could not be broadcast together with remapped shapes "
            f"[original->remapped]: {arr.shape} and requested shape ({ndim},2)"
        ) from None
    return tuple((int(b), int(a)) for b, a in pairs)


def pad(
    x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = None
) -> TensorVariable:
    """``numpy.pad`` for the modes ``constant``, ``edge``, ``reflect``,
    ``symmetric`` and ``wrap``; ``pad_width`` is known at build time
    (an int, a ``(before, after)`` pair, or one pair per axis).

    ``constant_values`` (``constant`` mode only; default 0) may be a scalar
    variable, or constant per-axis pairs.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.tensor("float64", (2, 2))
    >>> y = lt.pad(x, ((1, 0), (0, 2)), constant_values=9.0)
    >>> y.type.shape
    (3, 4)
    >>> y.eval({x: np.ones((2, 2))})
    array([[9., 9., 9., 9.],
           [1., 1., 9., 9.],
           [1., 1., 9., 9.]])
    """
    x = as_tensor_variable(x)
    if mode not in PAD_MODES:
        raise ValueError(f"mode {mode!r} is not supported")
    pairs = _pad_pairs(pad_width, x.ndim)
    if mode != "constant":
        if constant_values is not None:
            raise ValueError(
                f"unsupported keyword arguments for mode '{mode}': {{'constant_values'}}"
            )
        return Pad(pairs, mode)(x)
    cv = 0 if constant_values is None else constant_values
    if not isinstance(cv, Variable):
        data = np.asarray(cv)
        if data.ndim > 0:
            data = np.broadcast_to(data, (x.ndim, 2))
        cv = constant(data)
        if x.type.numpy_dtype.kind in "iu" and not np.isfinite(data).all():
            raise ValueError(f"pad: cannot convert float NaN or infinity in {data} to integer")
    return Pad(pairs, "constant")(x, cv)

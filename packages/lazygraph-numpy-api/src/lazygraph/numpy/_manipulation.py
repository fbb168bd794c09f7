"""Shape and structure manipulation with numpy's signatures: reshaping and
transposing, flipping/rolling/repeating, and padding. Joining and splitting are
in :mod:`lazygraph.numpy._joining`, ``take``/``take_along_axis`` in
:mod:`lazygraph.numpy._indexing`.

Bad axes raise ``numpy.exceptions.AxisError`` and bad shapes ``ValueError``,
naming the function, when the graph is built.

>>> x = reshape(arange(6), (2, 3))
>>> moveaxis(x, 0, -1).shape, ravel(x).shape
((3, 2), (6,))
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, wrap
from lazygraph.numpy._creation import (
    arange,  # noqa: F401 - used by the examples
    shape_argument,
)
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._joining import _wrap_all
from lazygraph.numpy._sizes import computable
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.numpy._views import order_argument
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.shape import normalize_axis

__all__ = [
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "broadcast_arrays",
    "broadcast_shapes",
    "broadcast_to",
    "expand_dims",
    "flip",
    "fliplr",
    "flipud",
    "moveaxis",
    "ndim",
    "pad",
    "permute_dims",
    "ravel",
    "repeat",
    "reshape",
    "roll",
    "rollaxis",
    "rot90",
    "shape",
    "size",
    "squeeze",
    "swapaxes",
    "tile",
    "transpose",
]


# -- shape -----------------------------------------------------------------------


def shape(a: ArrayLike) -> tuple[Any, ...]:
    """The shape of ``a`` (``numpy.shape``): ints, as ``Array.shape`` gives them (a
    size that depends on the data is computed).

    >>> shape([[1, 2, 3]])
    (1, 3)
    """
    return (a if isinstance(a, Array) else wrap(as_tensor(a))).shape


def ndim(a: ArrayLike) -> int:
    """The number of dimensions of ``a`` (``numpy.ndim``).

    >>> ndim([[1, 2, 3]])
    2
    """
    return int(as_tensor(a).ndim)


def size(a: ArrayLike, axis: int | None = None) -> Any:
    """The number of elements of ``a``, or along ``axis`` (``numpy.size``).

    >>> size([[1, 2, 3]]), size([[1, 2, 3]], 1)
    (3, 3)
    """
    arr = a if isinstance(a, Array) else wrap(as_tensor(a))
    if axis is None:
        return arr.size
    return arr.shape[normalize_axis(axis, arr.ndim, "size")]


def reshape(
    a: ArrayLike, /, shape: Any = None, order: str = "C", *, copy: bool | None = None
) -> Array:
    """``a`` with a new shape, one size may be -1 (``numpy.reshape``; ``order="F"``
    reads and writes in column-major order).

    >>> reshape([1, 2, 3, 4, 5, 6], (2, -1)).compute()
    array([[1, 2, 3],
           [4, 5, 6]])
    """
    if shape is None:
        raise TypeError("reshape() missing required argument 'shape'")
    if isinstance(a, Array):  # "A" follows the array's views (see Array.reshape)
        return a.reshape(shape, order=order, copy=copy)
    order = order_argument(order, "reshape") or "C"
    if order == "K":
        raise ValueError("order 'K' is not permitted for reshaping")
    if order == "A":
        order = "F" if _is_fortran(a) else "C"
    return wrap(lt.reshape(as_variable(a), shape_argument(shape), order=order))


def shuffled(a: Any, out: lt.TensorVariable) -> Array:
    """``out``, an axis permutation of ``a`` with size-1 axes inserted or dropped
    (a ``DimShuffle`` of it), as numpy returns it for an Array ``a``: a view,
    which follows later writes to ``a`` and writes through to it."""
    if not isinstance(a, Array) or None in out.type.shape:
        return wrap(out)
    if out is a._var:
        return a[...]  # the same axes: still a new view
    node = out.owner
    if node is None or not isinstance(node.op, DimShuffle) or node.inputs[0] is not a._var:
        return wrap(out)
    kept = [k for k in node.op.new_order if k != "x"]
    perm = kept + [k for k in range(a.ndim) if k not in kept]  # dropped: size 1, last
    view = a if perm == list(range(a.ndim)) else a.transpose(perm)
    if len(kept) == a.ndim and "x" not in node.op.new_order:
        return view
    return view.reshape(out.type.shape)  # size-1 axes only: numpy's reshape is a view


def _same(a: Any, x: lt.TensorVariable) -> Any:
    """``a`` itself when it is an Array (numpy's ``atleast_*d`` return their input
    when it has the dimensions already), else ``x`` wrapped."""
    return a if isinstance(a, Array) and x is a._var else wrap(x)


def _flip_axes(axis: int | Sequence[int], ndim: int) -> tuple[int, ...]:
    """``axis`` (one or several) as non-negative axes of an ``ndim``-d array."""
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    return tuple(normalize_axis(k, ndim, "flip") for k in axes)


def _flipped(m: Any, out: lt.TensorVariable, axes: Sequence[int]) -> Array:
    """``out`` (``m`` reversed along ``axes``), as numpy returns it for an Array
    ``m``: the view ``m[::-1]`` along those axes."""
    if not isinstance(m, Array):
        return wrap(out)
    return m[tuple(slice(None, None, -1) if k in axes else slice(None) for k in range(m.ndim))]


def _is_fortran(a: Any) -> bool:
    # numpy's "A": Fortran order for an array that is F- and not C-contiguous
    return isinstance(a, np.ndarray) and a.flags.f_contiguous and not a.flags.c_contiguous


def ravel(a: ArrayLike, order: str = "C") -> Array:
    """``a`` flattened to 1-d (``numpy.ravel``; ``order="F"`` in column-major order).

    >>> ravel([[1, 2], [3, 4]], order="F").compute()
    array([1, 3, 2, 4])
    """
    if isinstance(a, Array):  # "A" and "K" follow the array's views (see Array.ravel)
        return a.ravel(order=order)
    order = order_argument(order, "ravel") or "C"
    if order == "K" and isinstance(a, np.ndarray):
        return wrap(lt.ravel(as_tensor(np.ravel(a, order="K"))))  # a constant: numpy's order
    x = as_tensor(a)
    if order == "F" or (order == "A" and _is_fortran(a)):
        x = lt.transpose(x)
    return wrap(lt.ravel(x))


def transpose(a: ArrayLike, axes: Sequence[int] | None = None) -> Array:
    """``a`` with its axes permuted, reversed by default (``numpy.transpose``).

    >>> transpose([[1, 2, 3]]).shape
    (3, 1)
    """
    return shuffled(a, lt.transpose(as_variable(a), axes))


def permute_dims(a: ArrayLike, /, axes: Sequence[int] | None = None) -> Array:
    """``a`` with its axes permuted (array API ``permute_dims``; numpy's ``transpose``).

    >>> permute_dims(reshape(arange(6), (1, 2, 3)), (2, 0, 1)).shape
    (3, 1, 2)
    """
    return shuffled(a, lt.transpose(as_variable(a), axes))


def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> Array:
    """``a`` with two axes interchanged (``numpy.swapaxes``).

    >>> swapaxes([[1, 2, 3]], 0, 1).shape
    (3, 1)
    """
    return shuffled(a, lt.swapaxes(as_variable(a), axis1, axis2))


def moveaxis(a: ArrayLike, source: Any, destination: Any) -> Array:
    """``a`` with axes moved to new positions, the others in order (``numpy.moveaxis``).

    >>> moveaxis(reshape(arange(6), (1, 2, 3)), 0, -1).shape
    (2, 3, 1)
    """
    return shuffled(a, lt.moveaxis(as_variable(a), source, destination))


def rollaxis(a: ArrayLike, axis: int, start: int = 0) -> Array:
    """``a`` with ``axis`` moved to before position ``start`` (``numpy.rollaxis``;
    prefer ``moveaxis``).

    >>> from lazygraph.numpy import zeros
    >>> rollaxis(zeros((2, 3, 4)), 2).shape
    (4, 2, 3)
    """
    x = as_tensor(a)
    n = x.ndim
    axis = normalize_axis(axis, n, "rollaxis")
    if not -n <= start <= n:
        raise np.exceptions.AxisError(f"rollaxis: start={start} is out of range for {n} dims")
    start = start + n if start < 0 else start
    if start > axis:
        start -= 1
    return shuffled(a, x if axis == start else lt.moveaxis(x, axis, start))


def expand_dims(a: ArrayLike, axis: int | Sequence[int] = 0) -> Array:
    """``a`` with size-1 axes inserted at ``axis`` (``numpy.expand_dims``).

    >>> expand_dims([1, 2], axis=(0, 2)).shape
    (1, 2, 1)
    """
    return shuffled(a, lt.expand_dims(as_variable(a), axis))


def squeeze(a: ArrayLike, axis: int | Sequence[int] | None = None) -> Array:
    """``a`` without size-1 axes, or only those in ``axis`` (``numpy.squeeze``).

    >>> squeeze([[[1], [2]]]).shape
    (2,)
    """
    return shuffled(a, lt.squeeze(as_variable(a), axis))


def broadcast_to(array: ArrayLike, shape: Any, subok: bool = False) -> Array:
    """``array`` broadcast to ``shape`` (``numpy.broadcast_to``).

    >>> broadcast_to([1, 2], (3, 2)).compute()
    array([[1, 2],
           [1, 2],
           [1, 2]])
    """
    return wrap(lt.broadcast_to(as_variable(array), shape_argument(shape)))


def broadcast_arrays(*args: ArrayLike, subok: bool = False) -> tuple[Array, ...]:
    """The arrays broadcast against each other (``numpy.broadcast_arrays``).

    >>> [a.shape for a in broadcast_arrays([[1], [2]], [3, 4, 5])]
    [(2, 3), (2, 3)]
    """
    return tuple(_wrap_all(lt.broadcast_arrays(*(as_tensor(a) for a in args))))


def broadcast_shapes(*shapes: Any) -> tuple[int, ...]:
    """The shape the given shapes broadcast to (``numpy.broadcast_shapes``).

    >>> broadcast_shapes((2, 1), (3,))
    (2, 3)
    """
    return np.broadcast_shapes(*shapes)


def atleast_1d(*arys: ArrayLike) -> Any:
    """Each input with at least one dimension (``numpy.atleast_1d``): one array
    for one input, else a tuple.

    >>> atleast_1d(5.0).shape
    (1,)
    """
    out = []
    for a, x in zip(arys, map(as_tensor, arys), strict=True):
        out.append(shuffled(a, lt.expand_dims(x, 0)) if x.ndim == 0 else _same(a, x))
    return out[0] if len(out) == 1 else tuple(out)


def atleast_2d(*arys: ArrayLike) -> Any:
    """Each input with at least two dimensions, 1-d ``(N,)`` becoming ``(1, N)``
    (``numpy.atleast_2d``).

    >>> atleast_2d([1, 2]).shape
    (1, 2)
    """
    out = []
    for a, x in zip(arys, map(as_tensor, arys), strict=True):
        if x.ndim < 2:
            out.append(shuffled(a, lt.expand_dims(x, tuple(range(2 - x.ndim)))))
        else:
            out.append(_same(a, x))
    return out[0] if len(out) == 1 else tuple(out)


def atleast_3d(*arys: ArrayLike) -> Any:
    """Each input with at least three dimensions: ``(N,)`` becomes ``(1, N, 1)`` and
    ``(M, N)`` becomes ``(M, N, 1)`` (``numpy.atleast_3d``).

    >>> atleast_3d([[1, 2]]).shape
    (1, 2, 1)
    """
    out = []
    for a, x in zip(arys, map(as_tensor, arys), strict=True):
        if x.ndim == 0:
            x = lt.expand_dims(x, (0, 1, 2))
        elif x.ndim == 1:
            x = lt.expand_dims(x, (0, 2))
        elif x.ndim == 2:
            x = lt.expand_dims(x, 2)
        else:
            out.append(_same(a, x))
            continue
        out.append(shuffled(a, x))
    return out[0] if len(out) == 1 else tuple(out)


# -- reordering and repeating ------------------------------------------------------


def flip(m: ArrayLike, axis: int | Sequence[int] | None = None) -> Array:
    """``m`` with the order of elements reversed along ``axis`` (all axes by
    default) (``numpy.flip``).

    >>> flip([[1, 2], [3, 4]], axis=1).compute()
    array([[2, 1],
           [4, 3]])
    """
    out = lt.flip(as_variable(m), axis)  # numpy's errors for a bad axis
    ndim = out.ndim
    axes = range(ndim) if axis is None else _flip_axes(axis, ndim)
    return _flipped(m, out, tuple(axes))


def fliplr(m: ArrayLike) -> Array:
    """``m`` reversed along axis 1 (``numpy.fliplr``).

    >>> fliplr([[1, 2]]).compute()
    array([[2, 1]])
    """
    return _flipped(m, lt.fliplr(as_variable(m)), (1,))


def flipud(m: ArrayLike) -> Array:
    """``m`` reversed along axis 0 (``numpy.flipud``).

    >>> flipud([1, 2]).compute()
    array([2, 1])
    """
    return _flipped(m, lt.flipud(as_variable(m)), (0,))


def rot90(m: ArrayLike, k: int = 1, axes: tuple[int, int] = (0, 1)) -> Array:
    """``m`` rotated by 90 degrees ``k`` times in the plane of ``axes``, from the
    first axis toward the second (``numpy.rot90``).

    >>> rot90([[1, 2], [3, 4]]).compute()
    array([[2, 4],
           [1, 3]])
    """
    x = as_tensor(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if x.ndim < 2:
        raise ValueError(f"Axes must be different and the array must have ndim >= 2, got {x.ndim}")
    a0, a1 = (int(a) % x.ndim if -x.ndim <= int(a) < x.ndim else int(a) for a in axes)
    if a0 == a1 or not (0 <= a0 < x.ndim and 0 <= a1 < x.ndim):
        raise ValueError(f"Axes={axes} out of range or equal for array of ndim={x.ndim}.")
    k = int(k) % 4
    if k == 0:
        return wrap(lt.copy(x))
    if k == 2:
        return wrap(lt.flip(x, (a0, a1)))
    perm = list(range(x.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return wrap(lt.transpose(lt.flip(x, a1), perm))
    return wrap(lt.flip(lt.transpose(x, perm), a1))


def roll(a: ArrayLike, shift: Any, axis: int | Sequence[int] | None = None) -> Array:
    """``a`` with its elements shifted cyclically along ``axis`` (flattened if
    None) (``numpy.roll``).

    >>> roll([1, 2, 3, 4], 1).compute()
    array([4, 1, 2, 3])
    """
    return wrap(lt.roll(as_variable(a), shift, axis))


def repeat(a: ArrayLike, repeats: Any, axis: int | None = None) -> Array:
    """Each element of ``a`` repeated ``repeats`` times (per element when an array)
    along ``axis``, or of the flattened array (``numpy.repeat``).

    >>> repeat([1, 2], [1, 2]).compute()
    array([1, 2, 2])
    """
    if isinstance(repeats, list | tuple):
        repeats = np.asarray(repeats, dtype=np.int64 if len(repeats) == 0 else None)
    reps = _count(repeats)
    if not isinstance(reps, int):
        reps = as_variable(repeats)
    return wrap(lt.repeat(as_variable(a), reps, axis))


def _count(n: Any) -> Any:
    """A 0-d count (``repeat``'s, ``tile``'s) as numpy reads it: an int for an
    integer or bool scalar, or a 0-d array of one (a lazy one computed, as
    numpy code has its value); anything else as it is."""
    if isinstance(n, Array):
        if n.ndim != 0 or n.dtype.kind not in "biu" or not computable(n._var):
            return n
        n = n._value()
    if isinstance(n, (bool, np.bool_)):
        return int(n)
    if isinstance(n, np.ndarray) and n.ndim == 0 and n.dtype.kind in "biu":
        return int(n)
    return operator.index(n) if isinstance(n, (int, np.integer)) else n


def tile(A: ArrayLike, reps: Any) -> Array:
    """``A`` repeated ``reps`` times along each axis (``numpy.tile``).

    >>> tile([1, 2], (2, 2)).compute()
    array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    if isinstance(reps, (Array, np.ndarray)) and reps.ndim == 1:
        reps = shape_argument(reps) if reps.dtype.kind in "iu" else reps
    elif isinstance(reps, Sequence) and not isinstance(reps, str):
        reps = tuple(_count(r) for r in reps)
    else:
        reps = _count(reps)
    return wrap(lt.tile(as_variable(A), reps))


def pad(array: ArrayLike, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Array:
    """``array`` padded by ``pad_width`` (``numpy.pad``; modes ``constant`` (with
    ``constant_values``), ``edge``, ``reflect``, ``symmetric``, ``wrap`` as the
    tensor layer supports them; ``maximum``, ``minimum``, ``mean``, ``median``
    (with ``stat_length``) and ``linear_ramp`` (with ``end_values``) built from
    reductions and joins, axis by axis as numpy does).

    >>> pad([1, 2], (1, 2), constant_values=9).compute()
    array([9, 1, 2, 9, 9])
    >>> pad([1.0, 2.0, 6.0], 2, mode="mean", stat_length=2).compute()
    array([1.5, 1.5, 1. , 2. , 6. , 4. , 4. ])
    """
    if mode in _PAD_STATS or mode == "linear_ramp":
        return _pad_composed(as_tensor(array), pad_width, mode, kwargs)
    unknown = set(kwargs) - {"constant_values"}
    if unknown:
        raise UnsupportedArgumentsError(
            f"pad: keyword(s) {sorted(unknown)} are not supported by lazygraph"
        )
    values = kwargs.get("constant_values")
    if values is not None and not isinstance(values, int | float | complex):
        values = np.asarray(values).tolist()
    return wrap(lt.pad(as_variable(array), pad_width, mode=mode, constant_values=values))


def _pad_median(x: Any, axis: int) -> Any:
    from lazygraph.numpy._statistical_order import median

    return median(wrap(x), axis=axis, keepdims=True)._var


_PAD_STATS = {
    "maximum": lambda x, axis: lt.max(x, axis=axis, keepdims=True),
    "minimum": lambda x, axis: lt.min(x, axis=axis, keepdims=True),
    "mean": lambda x, axis: lt.mean(x, axis=axis, keepdims=True),
    "median": _pad_median,
}


def _pad_composed(x: Any, pad_width: Any, mode: str, kwargs: dict[str, Any]) -> Array:
    """numpy.pad's statistic and ramp modes: each axis in turn, the already padded
    axes included in the statistic (numpy's order, so corners agree)."""
    option = "end_values" if mode == "linear_ramp" else "stat_length"
    unknown = set(kwargs) - {option}
    if unknown:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unknown}")
    widths = np.asarray(pad_width)
    if widths.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    if widths.size == 0 or (widths < 0).any():
        raise ValueError("index can't contain negative values")
    widths = np.broadcast_to(widths, (x.ndim, 2)).tolist()
    given = kwargs.get(option)
    per_side = None if given is None else np.broadcast_to(np.asarray(given), (x.ndim, 2))
    cur = x
    for axis, (before, after) in enumerate(widths):
        n = cur.type.shape[axis]
        if n is None:
            raise ValueError(f"pad: mode {mode!r} needs the length of axis {axis}")
        if n == 0 and before + after > 0:
            raise ValueError(
                f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'"
            )
        parts = []
        for side, width in ((0, before), (1, after)):
            if width == 0:
                parts.append(None)
                continue
            edge = lt.take(cur, [0 if side == 0 else n - 1], axis=axis)
            if mode == "linear_ramp":
                end = 0 if per_side is None else per_side[axis, side]
                shape = [1] * cur.ndim
                shape[axis] = width
                # numpy's linspace(end, edge, width, endpoint=False), reversed after
                steps = np.arange(width, dtype="float64")
                steps = (steps if side == 0 else steps[::-1]).reshape(shape)
                step = lt.divide(lt.subtract(edge, end), width)
                part = lt.add(lt.multiply(lt.constant(steps), step), end)
                if np.dtype(cur.dtype).kind in "iu":
                    part = lt.floor(part)  # numpy's integer linspace floors
            else:
                length = n if per_side is None else min(int(per_side[axis, side]), n)
                if length == 0 and mode in ("maximum", "minimum"):
                    raise ValueError("stat_length of 0 yields no value for padding")
                index = list(range(length)) if side == 0 else list(range(n - length, n))
                part = _PAD_STATS[mode](lt.take(cur, index, axis=axis), axis)
                if np.dtype(cur.dtype).kind in "iu":
                    part = lt.round(part)
            target = list(lt.shape_tuple(cur))
            target[axis] = width
            parts.append(lt.broadcast_to(lt.cast(part, cur.dtype), tuple(target)))
        pieces = [p for p in (parts[0], cur, parts[1]) if p is not None]
        cur = lt.concatenate(pieces, axis=axis) if len(pieces) > 1 else cur
    return wrap(cur)

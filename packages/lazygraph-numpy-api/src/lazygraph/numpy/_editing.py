"""Editing arrays with numpy's signatures: ``delete`` and ``insert``, ``resize``,
``choose``, ``compress``, ``trim_zeros`` and ``ediff1d`` (``piecewise`` and the
function appliers are in :mod:`lazygraph.numpy._functional`).

Every result is graph over the edited array (so it stays lazy and
differentiable). Where numpy's semantics make the result's *shape* or an
error depend on values, only what decides it is computed, when the function
is called: the index or condition argument of ``delete``, ``insert`` and
``compress`` when it is a lazy array; the extent of the nonzero part for
``trim_zeros``; the range check of ``choose(mode="raise")`` (``any`` of the
out-of-range test, skipped where the index dtype cannot hold a bad value). In a
traced function (``lazygraph.jit``, ``grad``), where there are no values yet,
such a call fails with an error that says so.

>>> delete([1, 2, 3, 4], [0, 2]).compute()
array([2, 4])
>>> insert([1, 2, 3], 1, [8, 9]).compute()
array([1, 8, 9, 2, 3])
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.graph.basic import Constant, Variable
from lazygraph.numpy._array import Array
from lazygraph.numpy._compute import compute, compute_private
from lazygraph.numpy._convert import (
    LITERAL_SIZE_LIMIT,
    _holds_lazy,
    as_tensor,
    as_variable,
    wrap,
)
from lazygraph.numpy._eager import known_value
from lazygraph.numpy._joining import _sequence
from lazygraph.numpy._ufunc import ArrayLike, accepts_out
from lazygraph.tensor.shape import normalize_axis

__all__ = [
    "choose",
    "compress",
    "delete",
    "ediff1d",
    "insert",
    "resize",
    "trim_zeros",
]

#: numpy's index modes (``take``, ``put``, ``choose``, ``ravel_multi_index``)
MODES = ("raise", "wrap", "clip")

#: above this many runs of consecutive positions a gather is one ``take``
_MAX_PIECES = 8


# -- helpers shared with _layout, _mutation and _index_tricks -------------------------


def is_lazy(x: Any) -> bool:
    """Whether ``x`` is (or holds) a lazy array or a graph variable."""
    if isinstance(x, Array | Variable) or hasattr(x, "__lazygraph_variable__"):
        return True
    return isinstance(x, list | tuple) and _holds_lazy(x)


def value_now(x: Any) -> np.ndarray:
    """The value of ``x`` now: numpy's conversion of plain data, the value of a
    known lazy array, or a pending one computed (``x`` decides a result's shape
    or an error, as numpy's semantics say)."""
    if not is_lazy(x):
        return np.asarray(x)
    var = as_tensor(x)
    if isinstance(var, Constant):
        return np.asarray(var.data)
    value = known_value(var)
    if value is not None:
        return value
    return compute_private(wrap(var))


def raise_if_any(bad: Any, error: Exception) -> None:
    """Raise ``error`` if any element of the boolean ``bad`` is true (computed
    now when it is pending: the check alone)."""
    if bool(np.any(value_now(lt.any(bad) if is_lazy(bad) else bad))):
        raise error


def check_in_range(idx: Any, low: int, high: int, error: Exception) -> None:
    """Raise ``error`` unless ``low <= idx < high`` everywhere: nothing to check
    when ``idx``'s dtype cannot hold another value, numpy's test for a known
    value, else the test alone computed."""
    dtype = np.dtype(idx.dtype)
    info = np.iinfo(np.int8 if dtype.kind == "b" else dtype)
    lo, hi = (0, 1) if dtype.kind == "b" else (int(info.min), int(info.max))
    if lo >= low and hi < high:
        return
    if isinstance(idx, Constant) or known_value(idx) is not None:
        value = value_now(idx)
        if np.any((value < low) | (value >= high)):
            raise error
        return
    raise_if_any(lt.logical_or(lt.less(idx, low), lt.greater_equal(idx, high)), error)


def static_shape(x: Any) -> tuple[int, ...]:
    """``x``'s shape as ints: its static shape, or computed where unknown."""
    var = as_tensor(x)
    shape = var.type.shape
    if None not in shape:
        return shape  # type: ignore[return-value]
    return tuple(int(s) for s in value_now(lt.shape(var)))


def _fmt(shape: Sequence[Any]) -> str:
    return str(tuple(shape))


def broadcast_into(v: Any, target: Sequence[int], fancy: bool = False) -> Any:
    """``v`` broadcast as numpy assigns it into a part of shape ``target``
    (size-1 leading axes beyond the target's dropped; with ``fancy``, as an
    advanced index assigns, any leading axes of an empty ``v``), or numpy's
    ValueError."""
    var = as_tensor(v)
    target = tuple(target)
    shape = var.type.shape
    orig = shape
    while len(shape) > len(target) and shape[0] == 1:
        var = lt.getitem(var, 0)
        shape = shape[1:]
    if fancy and len(shape) > len(target) and 0 in shape:
        shape = shape[len(shape) - len(target) :]
        if None not in shape:
            var = lt.reshape(var, shape)
    fits = len(shape) <= len(target) and all(
        s is None or s == 1 or s == t
        for s, t in zip(reversed(shape), reversed(target), strict=False)
    )
    if not fits:
        raise ValueError(
            f"could not broadcast input array from shape {_fmt(orig)} into shape {_fmt(target)}"
        )
    return var if shape == target else lt.broadcast_to(var, target)


def converted(original: Any, value: np.ndarray) -> Any:
    """``value``, numpy's conversion of the plain ``original``, as a graph value:
    numpy data stays data (a graph input), a few Python numbers are a literal."""
    if isinstance(original, np.ndarray | np.generic) or value.size > LITERAL_SIZE_LIMIT:
        return as_variable(value)
    return lt.constant(value)


def assigned_values(values: Any, dtype: np.dtype[Any]) -> Any:
    """``values`` in ``dtype`` as numpy's item assignment converts them: a lazy
    array cast, plain data converted by numpy (its errors: a Python complex into
    a real array, an integer out of range)."""
    if is_lazy(values):
        return lt.cast(as_tensor(values), dtype.name)
    return converted(values, np.asarray(values, dtype=dtype))


def gather(sources: Sequence[Any], sizes: Sequence[int], index: np.ndarray, axis: int) -> Any:
    """The slices at ``index`` (positions in ``sources`` joined along ``axis``,
    of ``sizes``) along ``axis``: slices and one join for a few runs of
    consecutive positions, else one ``take`` of the joined sources."""
    index = np.asarray(index, dtype=np.intp)
    offsets = np.cumsum([0, *sizes])
    if index.size == 0 or (index.size > 1 and np.count_nonzero(np.diff(index) != 1) >= _MAX_PIECES):
        joined = sources[0] if len(sources) == 1 else lt.concatenate(list(sources), axis=axis)
        return lt.take(joined, index, axis=axis)
    owner = np.searchsorted(offsets[1:], index, side="right")
    breaks = np.flatnonzero((np.diff(index) != 1) | (np.diff(owner) != 0)) + 1
    pieces = []
    for run in np.split(np.arange(index.size), breaks):
        src = int(owner[run[0]])
        lo, hi = int(index[run[0]] - offsets[src]), int(index[run[-1]] - offsets[src]) + 1
        x = sources[src]
        if lo == 0 and hi == sizes[src]:
            pieces.append(x)
            continue
        key = [slice(None)] * x.ndim
        key[axis] = slice(lo, hi)
        pieces.append(lt.getitem(x, tuple(key)))
    return pieces[0] if len(pieces) == 1 else lt.concatenate(pieces, axis=axis)


def _flat_or_axis(x: Any, axis: Any, name: str) -> tuple[Any, int]:
    """numpy's ``delete``/``insert`` axis: the flattened array (a 1-d array as it
    is) for None, else the normalized axis."""
    if axis is None:
        return (x if x.ndim == 1 else lt.ravel(x)), 0
    return x, normalize_axis(axis, x.ndim, name)


# -- delete and insert --------------------------------------------------------------


def _delete_keep(obj: Any, n: int, axis: int) -> np.ndarray:
    """numpy's mask of the positions ``delete`` keeps along an axis of size ``n``."""
    keep = np.ones(n, dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
        return keep
    if isinstance(obj, int | np.integer) and not isinstance(obj, bool):
        index = int(obj)
    else:
        values = value_now(obj)
        if values.size == 0 and not (is_lazy(obj) or isinstance(obj, np.ndarray)):
            values = values.astype(np.intp)
        if values.size == 1 and values.dtype.kind in "ui":
            index = int(values.reshape(-1)[0])
        elif values.dtype == bool:
            if values.shape != (n,):
                raise ValueError(
                    "boolean array argument obj to delete must be one dimensional and "
                    f"match the axis length of {n}"
                )
            return ~values
        else:
            keep[values,] = False  # numpy's IndexError (out of bounds, not integers)
            return keep
    if index < -n or index >= n:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {n}")
    keep[index] = False
    return keep


def delete(arr: ArrayLike, obj: Any, axis: int | None = None) -> Array:
    """``arr`` without the sub-arrays at ``obj`` (an int, a slice, integers or a
    boolean mask) along ``axis``, of the flattened array when None
    (``numpy.delete``). A lazy ``obj`` is computed: it decides the shape.

    >>> delete([[1, 2, 3], [4, 5, 6]], 1, axis=1).compute()
    array([[1, 3],
           [4, 6]])
    >>> delete([1, 2, 3, 4], [True, False, False, True]).compute()
    array([2, 3])
    """
    x, axis = _flat_or_axis(as_tensor(arr), axis, "delete")
    n = static_shape(x)[axis]
    keep = _delete_keep(obj, n, axis)
    return wrap(gather([x], [n], np.flatnonzero(keep), axis))


def _insert_indices(obj: Any, n: int) -> np.ndarray:
    """numpy's ``insert`` positions from ``obj`` (a copy, which numpy edits)."""
    if isinstance(obj, slice):
        return np.arange(*obj.indices(n), dtype=np.intp)
    indices = np.array(value_now(obj))
    if indices.dtype == bool:
        # (numpy reads ``obj.ndim``, which a list of booleans lacks: taken as an array)
        if indices.ndim != 1:
            raise ValueError("boolean array argument obj to insert must be one dimensional")
        return np.flatnonzero(indices)
    if indices.ndim > 1:
        raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    return indices


def insert(arr: ArrayLike, obj: Any, values: ArrayLike, axis: int | None = None) -> Array:
    """``arr`` with ``values`` inserted before the positions ``obj`` (an int, a
    slice, integers or a boolean mask) along ``axis``, of the flattened array
    when None (``numpy.insert``; ``values`` converted to ``arr``'s dtype). A
    lazy ``obj`` is computed: it decides where the values go.

    >>> insert([[1, 2], [3, 4]], 1, 0, axis=1).compute()
    array([[1, 0, 2],
           [3, 0, 4]])
    >>> insert([1, 2, 3], [0, 2], [8, 9]).compute()
    array([8, 1, 2, 9, 3])
    """
    x, axis = _flat_or_axis(as_tensor(arr), axis, "insert")
    shape = list(static_shape(x))
    n = shape[axis]
    dtype = np.dtype(x.dtype)
    indices = _insert_indices(obj, n)
    if indices.size == 1:
        index = indices.item()
        if index < -n or index > n:
            shown = indices if is_lazy(obj) else obj
            raise IndexError(f"index {shown} is out of bounds for axis {axis} with size {n}")
        if not isinstance(index, int):
            raise TypeError("slice indices must be integers or None or have an __index__ method")
        index += n if index < 0 else 0
        if is_lazy(values):
            vals = lt.cast(as_tensor(values), dtype.name)
            if vals.ndim < x.ndim:
                vals = lt.expand_dims(vals, tuple(range(x.ndim - vals.ndim)))
        else:
            vals = converted(values, np.array(values, ndmin=x.ndim, dtype=dtype))
        if indices.ndim == 0:  # as numpy: a[:, i] = values, not a[:, [i]]
            vals = lt.moveaxis(vals, 0, axis)
        numnew = static_shape(vals)[axis]
        shape[axis] = numnew
        vals = broadcast_into(vals, shape)
        src = np.concatenate([np.arange(index), n + np.arange(numnew), np.arange(index, n)])
        return wrap(gather([x, vals], [n, numnew], src, axis))
    if indices.size == 0 and not (isinstance(obj, np.ndarray) or is_lazy(obj)):
        indices = indices.astype(np.intp)
    indices[indices < 0] += n
    numnew = len(indices)
    order = indices.argsort(kind="mergesort")  # stable: equal positions keep their order
    indices[order] += np.arange(numnew)
    old_mask = np.ones(n + numnew, dtype=bool)
    old_mask[indices] = False  # numpy's IndexError (out of bounds, not integers)
    shape[axis] = numnew
    vals = broadcast_into(assigned_values(values, dtype), shape, fancy=True)
    src = np.empty(n + numnew, dtype=np.intp)
    src[indices] = n + np.arange(numnew)
    src[old_mask] = np.arange(n)  # numpy's assignment (its error, or a broadcast one)
    return wrap(gather([x, vals], [n, numnew], src, axis))


# -- resize, choose, compress ------------------------------------------------------------


def resize(a: ArrayLike, new_shape: Any) -> Array:
    """``a`` flattened, repeated as often as needed and cut to fill ``new_shape``
    (``numpy.resize``; zeros when ``a`` is empty).

    >>> resize([1, 2, 3], (2, 4)).compute()
    array([[1, 2, 3, 1],
           [2, 3, 1, 2]])
    """
    if isinstance(new_shape, int | np.integer):
        new_shape = (new_shape,)
    x = lt.ravel(as_tensor(a))
    new_size = 1
    for dim in new_shape:
        new_size *= dim
        if dim < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    shape = tuple(operator.index(d) for d in new_shape)
    size = static_shape(x)[0]
    if size == 0 or new_size == 0:
        return wrap(lt.zeros(shape, dtype=x.dtype))
    repeats = -(-new_size // size)
    flat = x if repeats == 1 else lt.tile(x, (repeats,))
    return wrap(lt.reshape(lt.getitem(flat, slice(0, new_size)), shape))


def _check_mode(mode: Any) -> None:
    if mode not in MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


@accepts_out(exact=TypeError)  # (numpy: "invalid shape for output array")
def choose(a: ArrayLike, choices: Any, out: None = None, mode: str = "raise") -> Array:
    """The element of ``choices[a]`` at each position, ``a`` and the choices
    broadcast together (``numpy.choose``). ``mode="raise"`` checks
    ``0 <= a < len(choices)`` (numpy's ValueError; the check alone is computed
    for a pending ``a``), ``"wrap"`` takes ``a`` modulo ``len(choices)``,
    ``"clip"`` clips it.

    >>> choose([0, 1, 0], [[1, 2, 3], [10, 20, 30]]).compute()
    array([ 1, 20,  3])
    >>> choose([-1, 2], [0.5, 1.5], mode="wrap").compute()
    array([1.5, 0.5])
    """
    _check_mode(mode)
    if isinstance(choices, Array | np.ndarray) or hasattr(choices, "__lazygraph_variable__"):
        options = _sequence("choose", choices)
    else:
        options = [as_variable(c) for c in choices]
    n = len(options)
    if n == 0:
        raise ValueError("0-length sequence.")
    idx = as_tensor(a)
    if not np.can_cast(idx.dtype, np.intp, "safe"):
        raise TypeError(
            f"Cannot cast array data from {np.dtype(idx.dtype)!r} to {np.dtype(np.intp)!r} "
            "according to the rule 'safe'"
        )
    dtype = lt.result_type(*options)
    if mode == "raise":
        check_in_range(idx, 0, n, ValueError("invalid entry in choice array"))
    parts = lt.broadcast_arrays(idx, *(as_tensor(o) for o in options))
    idx = lt.cast(parts[0], "int64")
    if mode == "wrap":
        idx = lt.remainder(idx, n)
    elif mode == "clip":
        idx = lt.clip(idx, 0, n - 1)
    stacked = lt.stack([lt.cast(p, dtype) for p in parts[1:]], axis=0)
    picked = lt.take_along_axis(stacked, lt.expand_dims(idx, 0), axis=0)
    return wrap(lt.getitem(picked, 0))


@accepts_out()
def compress(
    condition: ArrayLike, a: ArrayLike, axis: int | None = None, out: None = None
) -> Array:
    """The slices of ``a`` along ``axis`` (of the flattened ``a`` when None) where
    the 1-d ``condition`` is true (``numpy.compress``; a shorter condition
    drops the rest). A lazy ``condition`` is computed: it decides the shape.

    >>> compress([False, True], [[1, 2], [3, 4]], axis=0).compute()
    array([[3, 4]])
    """
    x = as_tensor(a)
    if axis is None or x.ndim == 0:
        x = lt.ravel(x)
    axis = 0 if axis is None else normalize_axis(axis, x.ndim, "compress")
    cond = value_now(condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    idx = np.flatnonzero(cond)
    n = static_shape(x)[axis]
    beyond = idx[idx >= n]
    if beyond.size:
        raise IndexError(f"index {beyond[0]} is out of bounds for axis {axis} with size {n}")
    return wrap(gather([x], [n], idx, axis))


# -- trim_zeros, ediff1d ----------------------------------------------------------------


def trim_zeros(filt: ArrayLike, trim: str = "fb", axis: Any = None) -> Any:
    """``filt`` without its leading (``"f"``) and/or trailing (``"b"``) zeros,
    along every axis or those in ``axis``: the smallest box holding every
    nonzero value (``numpy.trim_zeros``; a view, as in numpy). Where the box
    ends is computed now (it decides the shape); the values stay lazy. A list
    or tuple gives numpy's own answer (a list or tuple).

    >>> trim_zeros([0, 0, 1, 2, 0])
    [1, 2]
    >>> import lazygraph.numpy as lnp
    >>> trim_zeros(lnp.asarray([[0, 0, 0], [0, 3, 0]]), trim="f").compute()
    array([[3, 0]])
    """
    if not is_lazy(filt) and not isinstance(filt, np.ndarray):
        return np.trim_zeros(filt, trim, axis)
    x = as_tensor(filt)
    arr = filt if isinstance(filt, Array) else wrap(x)
    trim = trim.lower()
    if trim not in ("fb", "bf", "f", "b"):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    ndim = x.ndim
    if axis is None:
        axes: tuple[int, ...] = tuple(range(ndim))
    else:
        axes = np.lib.array_utils.normalize_axis_tuple(axis, ndim, argname="axis")
    if not axes:
        return arr
    nonzero = lt.not_equal(x, 0)
    lines = [wrap(lt.any(nonzero, axis=tuple(k for k in range(ndim) if k != ax))) for ax in axes]
    found = compute(*lines)
    key = [slice(None)] * ndim
    for ax, line in zip(axes, found, strict=True):
        where = np.flatnonzero(line)
        if where.size == 0:  # all zero: every trimmed axis becomes empty
            key[ax] = slice(0, 0)
            continue
        start = int(where[0]) if "f" in trim else None
        stop = int(where[-1]) + 1 if "b" in trim else None
        key[ax] = slice(start, stop)
    return arr[tuple(key)]


def ediff1d(ary: ArrayLike, to_end: ArrayLike = None, to_begin: ArrayLike = None) -> Array:
    """The differences between consecutive elements of the flattened ``ary``,
    with ``to_begin`` and ``to_end`` joined around them, all in ``ary``'s dtype
    (``numpy.ediff1d``; they must cast to it under ``same_kind``).

    >>> ediff1d([1, 2, 4, 7], to_begin=-99, to_end=[88, 99]).compute()
    array([-99,   1,   2,   3,  88,  99])
    """
    x = lt.ravel(as_tensor(ary))
    dtype = np.dtype(x.dtype)
    diff = lt.subtract(lt.getitem(x, slice(1, None)), lt.getitem(x, slice(None, -1)))
    if to_begin is None and to_end is None:
        return wrap(diff)
    parts = []
    for name, extra in (("to_begin", to_begin), ("to_end", to_end)):
        if extra is None:
            parts.append(None)
            continue
        v = as_tensor(extra)
        if not np.can_cast(np.dtype(v.dtype), dtype, casting="same_kind"):
            raise TypeError(
                f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule."
            )
        parts.append(lt.ravel(lt.cast(v, dtype.name)))
    pieces = [p for p in (parts[0], diff, parts[1]) if p is not None]
    return wrap(lt.concatenate(pieces, axis=0))

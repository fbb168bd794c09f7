"""Joining and splitting arrays with numpy's signatures: ``concatenate``/
``concat``, ``stack``, ``hstack``/``vstack``/``dstack``/``column_stack``,
``append``, ``split``/``array_split``/``hsplit``/``vsplit``/``dsplit`` and
``unstack`` (the other manipulation functions are in
:mod:`lazygraph.numpy._manipulation`).

A sequence argument may be a list or tuple of arrays, or one array (split along
its first axis, as numpy iterates over it).

>>> concatenate([[1, 2], [3]]).shape
(3,)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.configuration import config
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import _DTYPE_NAMES, as_tensor, as_variable, known_array, wrap
from lazygraph.numpy._eager import known_value
from lazygraph.numpy._expressions import has_expression
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike, write_out
from lazygraph.tensor.dtypes import result_type
from lazygraph.tensor.shape import normalize_axis

__all__ = [
    "append",
    "array_split",
    "block",
    "column_stack",
    "concat",
    "concatenate",
    "dsplit",
    "dstack",
    "hsplit",
    "hstack",
    "row_stack",
    "split",
    "stack",
    "unstack",
    "vsplit",
    "vstack",
]


_MAX_ARRAYS = int(np.iinfo(np.intc).max)  # numpy's limit on the arrays joined at once


def _sequence(name: str, arrays: Any) -> list[Any]:
    """The arrays of a sequence argument; a lazy array is split along axis 0, as
    numpy iterates over it."""
    if isinstance(arrays, Array) or hasattr(arrays, "__lazygraph_variable__"):
        x = as_tensor(arrays)
        if x.ndim == 0:
            raise TypeError(f"{name}: expected a sequence of arrays, got a 0-d array")
        n = x.type.shape[0]
        if n is None:
            raise TypeError(f"{name}: the length of the sequence (axis 0) is unknown")
        return [lt.getitem(x, i) for i in range(n)]
    if isinstance(arrays, np.ndarray):
        return [as_variable(a) for a in arrays]
    if not isinstance(arrays, Sequence) or isinstance(arrays, str):
        raise TypeError(
            f'{name}: arrays to stack must be passed as a "sequence" type such as list or tuple'
        )
    if len(arrays) > _MAX_ARRAYS:
        raise ValueError(
            f"{name}() only supports up to {_MAX_ARRAYS} arrays but got {len(arrays)}."
        )
    return [as_tensor(a) for a in arrays]


def _joined_at_once(
    arrays: Any, axis: int | None, new_axis: bool, dtype: DTypeLike, casting: str
) -> Array | None:
    """numpy's ``stack`` (``new_axis``) or ``concatenate`` of a list of known
    small values, made at once: the value ``Join.perform`` gives, in the dtype
    ``Join`` gives (numpy's promotion of the inputs), without a node per input
    (a spectrogram stacking 600 frames). None when an input is not a known
    value, the result is over ``config.eager_max_elements`` or numpy refuses
    (the graph's path raises its error, naming the call)."""
    limit = config.eager_max_elements
    if limit <= 0 or type(arrays) not in (list, tuple) or not arrays:
        return None
    values = []
    size = 0
    for a in arrays:
        if type(a) is Array:
            var = a._var
            if var.owner is not None or has_expression(var):
                return None  # (a rule may read an expression: the graph's path)
            value = known_value(var)
            if value is None:
                return None
        elif type(a) is np.ndarray and a.dtype in _DTYPE_NAMES:
            value = a  # numpy data, read now
        else:
            return None
        size += value.size
        values.append(value)
    if size > limit:
        return None
    if dtype is None:
        dtype = result_type(*(v.dtype for v in values))
    try:
        if new_axis:
            out = np.stack(values, axis=axis, dtype=dtype, casting=casting)  # type: ignore[arg-type]
        else:
            out = np.concatenate(values, axis=axis, dtype=dtype, casting=casting)  # type: ignore[arg-type]
    except (ValueError, TypeError, np.exceptions.AxisError):
        return None
    return known_array(out)


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def _cast_all(name: str, xs: Sequence[Any], dtype: DTypeLike, casting: str) -> list[Any]:
    """``xs`` converted to ``dtype``, or to their common dtype when None, as the
    ``casting`` rule allows (numpy's joining functions check each input)."""
    if casting not in _CASTINGS:
        raise ValueError(
            f"{name}: casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
            f"'unsafe' (got {casting!r})"
        )
    if not xs:
        return []
    dt = np.dtype(dtype) if dtype is not None else np.dtype(result_type(*xs))
    for x in xs:
        if not np.can_cast(np.dtype(x.dtype), dt, casting):  # type: ignore[arg-type]
            raise TypeError(
                f"{name}: cannot cast array data from dtype('{x.dtype}') to {dt!r} "
                f"according to the rule {casting!r}"
            )
    return [lt.cast(x, dt) for x in xs]


def _out_dtype(name: str, out: Any, dtype: DTypeLike) -> DTypeLike:
    """The dtype a joining function with ``out=`` computes in: ``out``'s; numpy's
    TypeError when ``dtype`` is given too, or ``out`` is no array."""
    if out is None:
        return dtype
    if dtype is not None:
        raise TypeError(
            f"{name}() only takes `out` or `dtype` as an argument, but both were provided."
        )
    if not isinstance(out, (Array, np.ndarray)):
        raise TypeError(f"{name}: 'out' must be an array")
    return out.dtype


def _check_out(name: str, shape: tuple[Any, ...], out: Any, axis: int | None) -> None:
    """numpy's ValueError unless ``out`` (if any) has the result's ``shape``
    exactly: joining functions do not broadcast into ``out``."""
    if out is None or tuple(out.shape) == shape:
        return
    out_shape = tuple(out.shape)
    if axis is None and len(out_shape) != 1:
        raise ValueError(f"{name}: Output array must be 1D")
    if len(shape) != len(out_shape):
        raise ValueError(
            f"{name}: Output array has wrong dimensionality: {out_shape}, "
            f"the result has shape {shape}"
        )
    raise ValueError(
        f"{name}: Output array is the wrong shape: {out_shape}, the result has shape {shape}"
    )


def _joined(name: str, joined: Any, xs: list[Any], axis: Any, **kw: Any) -> Any:
    """The result of a joining function: ``joined`` (made at once), or else
    ``lt.<name>`` of the inputs ``xs`` cast as ``kw``'s ``dtype`` and
    ``casting`` say; written into ``kw``'s ``out`` if given (its shape checked
    first, as numpy does) and ``out`` returned."""
    join = getattr(lt, name)
    out = kw["out"]
    out_axis = axis if name == "concatenate" else 0
    if out is not None and joined is None:
        shape = join(xs, axis=axis).type.shape
        if None not in shape:  # (numpy checks the shape before casting)
            _check_out(name, tuple(shape), out, out_axis)
    if joined is None:
        joined = wrap(join(_cast_all(name, xs, kw["dtype"], kw["casting"]), axis=axis))
    if out is None:
        return joined
    _check_out(name, tuple(joined.shape), out, out_axis)  # (sizes known only when computed)
    return write_out(name, joined, out, casting="unsafe", kind="array")


def _wrap_all(xs: Sequence[Any]) -> list[Array]:
    return [wrap(x) for x in xs]


def _atleast_3d(x: Any) -> Any:
    if x.ndim == 0:
        return lt.reshape(x, (1, 1, 1))
    if x.ndim == 1:
        return lt.expand_dims(x, (0, 2))
    if x.ndim == 2:
        return lt.expand_dims(x, 2)
    return x


# -- joining ---------------------------------------------------------------------


def concatenate(
    arrays: Any,
    /,
    axis: int | None = 0,
    out: Any = None,
    *,
    dtype: DTypeLike = None,
    casting: str = "same_kind",
) -> Any:
    """The arrays joined along an existing ``axis``; ``axis=None`` flattens them
    first (``numpy.concatenate``). Each input casts to ``dtype`` (or ``out``'s
    dtype, or their common dtype) under ``casting``, numpy's TypeError
    otherwise; ``out`` must have the result's shape exactly.

    >>> concatenate([[1, 2], [3]]).compute()
    array([1, 2, 3])
    >>> concatenate([[1, 2], [3.5]], dtype="int32", casting="unsafe").compute()
    array([1, 2, 3], dtype=int32)
    """
    dtype = _out_dtype("concatenate", out, dtype)
    joined = _joined_at_once(arrays, axis, False, dtype, casting)
    xs: list[Any] = []
    if joined is None:
        xs = _sequence("concatenate", arrays)
        if not xs:
            raise ValueError("need at least one array to concatenate")
        if axis is not None and xs[0].ndim:
            normalize_axis(axis, xs[0].ndim, "concatenate")  # numpy checks the axis first
        if dtype is None:
            dtype = _weak_scalars_dtype(arrays, xs)
    return _joined("concatenate", joined, xs, axis, out=out, dtype=dtype, casting=casting)


_PY_SCALARS = (bool, int, float, complex)


def _weak_scalars_dtype(arrays: Any, xs: list[Any]) -> np.dtype[Any] | None:
    """The result dtype of joining ``xs`` when some of ``arrays`` are Python
    scalars: numpy's concatenate keeps them weak (NEP 50), so
    ``concatenate([float32(1), 1.0], axis=None)`` is float32 and a Python int
    beside int8 data wraps into int8 (``xs`` updated to the converted scalars);
    None when none is."""
    if not isinstance(arrays, (list, tuple)):
        return None
    weak = [a for a in arrays if type(a) in _PY_SCALARS]
    if not weak:
        return None
    strong = [x.dtype for x, a in zip(xs, arrays, strict=True) if type(a) not in _PY_SCALARS]
    dtype = np.result_type(*strong, *weak)
    for i, a in enumerate(arrays):
        if type(a) in _PY_SCALARS:  # (converted as numpy does: -1 beside uint8 is 255)
            xs[i] = as_tensor(np.asarray(a).astype(dtype))
    return dtype


#: the array API's name; numpy's ``concat`` is ``concatenate`` itself
concat = concatenate


def stack(
    arrays: Any,
    axis: int = 0,
    out: Any = None,
    *,
    dtype: DTypeLike = None,
    casting: str = "same_kind",
) -> Any:
    """Same-shape arrays joined along a new ``axis`` (``numpy.stack``); ``dtype``,
    ``casting`` and ``out`` as in :func:`concatenate`.

    >>> stack([[1, 2], [3, 4]], axis=1).compute()
    array([[1, 3],
           [2, 4]])
    """
    dtype = _out_dtype("stack", out, dtype)
    joined = _joined_at_once(arrays, axis, True, dtype, casting)
    xs: list[Any] = []
    if joined is None:
        xs = _sequence("stack", arrays)
        if not xs:
            raise ValueError("need at least one array to stack")
    return _joined("stack", joined, xs, axis, out=out, dtype=dtype, casting=casting)


def vstack(tup: Any, *, dtype: DTypeLike = None, casting: str = "same_kind") -> Array:
    """The arrays stacked as rows: 1-d ``(N,)`` arrays become ``(1, N)`` first
    (``numpy.vstack``).

    >>> vstack([[1, 2], [3, 4]]).shape
    (2, 2)
    """
    xs = _sequence("vstack", tup)
    xs = _cast_all("vstack", xs, dtype, casting)
    return wrap(lt.vstack(xs))


def row_stack(tup: Any, *, dtype: DTypeLike = None, casting: str = "same_kind") -> Array:
    """``vstack``, under its old name (``numpy.row_stack``), with numpy's
    DeprecationWarning.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     row_stack([[1, 2], [3, 4]]).shape
    (2, 2)
    """
    warnings.warn(
        "`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, 2
    )
    return vstack(tup, dtype=dtype, casting=casting)


def hstack(tup: Any, *, dtype: DTypeLike = None, casting: str = "same_kind") -> Array:
    """The arrays joined along axis 1, or axis 0 for 1-d arrays (``numpy.hstack``).

    >>> hstack([[1, 2], [3]]).compute()
    array([1, 2, 3])
    """
    xs = _sequence("hstack", tup)
    xs = _cast_all("hstack", xs, dtype, casting)
    return wrap(lt.hstack(xs))


def dstack(tup: Any) -> Array:
    """The arrays joined along axis 2 after :func:`atleast_3d` (``numpy.dstack``).

    >>> dstack([[1, 2], [3, 4]]).shape
    (1, 2, 2)
    """
    xs = [_atleast_3d(x) for x in _sequence("dstack", tup)]
    return wrap(lt.concatenate(xs, axis=2))


def column_stack(tup: Any) -> Array:
    """1-d arrays as the columns of a 2-d array; 2-d arrays joined along axis 1
    (``numpy.column_stack``).

    >>> column_stack([[1, 2], [3, 4]]).compute()
    array([[1, 3],
           [2, 4]])
    """
    # As numpy: 0-d and 1-d inputs become 2-d with ndmin=2 and are transposed.
    xs = [
        lt.transpose(lt.expand_dims(x, tuple(range(2 - x.ndim)))) if x.ndim < 2 else x
        for x in _sequence("column_stack", tup)
    ]
    return wrap(lt.concatenate(xs, axis=1))


def _block_index(index: Sequence[Any]) -> str:
    """numpy's name of a place in ``block``'s nested lists: ``arrays[0][1]``."""
    return "arrays" + "".join(f"[{i}]" for i in index if i is not None)


def _block_depths(arrays: Any, parent: list[Any]) -> tuple[list[Any], int]:
    """numpy's check that every leaf of ``block``'s nested lists is as deep: the
    index of a leaf (ending in None at an empty list) and the largest ndim."""
    if isinstance(arrays, tuple):
        raise TypeError(
            f"{_block_index(parent)} is a tuple. Only lists can be used to arrange blocks, "
            "and np.block does not allow implicit conversion from tuple to ndarray."
        )
    if isinstance(arrays, list) and arrays:
        first, max_ndim = _block_depths(arrays[0], [*parent, 0])
        for i, item in enumerate(arrays[1:], 1):
            index, ndim = _block_depths(item, [*parent, i])
            max_ndim = max(max_ndim, ndim)
            if len(index) != len(first):
                raise ValueError(
                    f"List depths are mismatched. First element was at depth {len(first)}, "
                    f"but there is an element at depth {len(index)} ({_block_index(index)})"
                )
            if index[-1] is None:  # (an empty list at the bottom: reported below)
                first = index
        return first, max_ndim
    if isinstance(arrays, list):
        return [*parent, None], 0
    return parent, as_tensor(arrays).ndim


def _block(arrays: Any, depth: int, max_depth: int, ndim: int) -> Any:
    if depth < max_depth:
        parts = [_block(a, depth + 1, max_depth, ndim) for a in arrays]
        return lt.concatenate(parts, axis=-(max_depth - depth))
    x = as_tensor(arrays)
    return x if x.ndim >= ndim else lt.expand_dims(x, tuple(range(ndim - x.ndim)))


def block(arrays: Any) -> Array:
    """An array assembled from nested lists of blocks (``numpy.block``): the
    innermost lists join along the last axis, the next ones along the one
    before, and so on; every block gets at least as many dimensions as the
    nesting is deep (size-1 axes in front). numpy's errors for tuples, empty
    lists and lists of mismatched depths.

    >>> import lazygraph.numpy as lnp
    >>> block([[lnp.eye(2), lnp.zeros((2, 1))], [lnp.ones((1, 2)), 5.0]]).compute()
    array([[1., 0., 0.],
           [0., 1., 0.],
           [1., 1., 5.]])
    """
    bottom, arr_ndim = _block_depths(arrays, [])
    list_ndim = len(bottom)
    if bottom and bottom[-1] is None:
        raise ValueError(f"List at {_block_index(bottom)} cannot be empty")
    return wrap(_block(arrays, 0, list_ndim, max(arr_ndim, list_ndim)))


def append(arr: ArrayLike, values: ArrayLike, axis: int | None = None) -> Array:
    """``values`` appended to ``arr``, both flattened when ``axis`` is None
    (``numpy.append``).

    >>> append([1, 2], [[3, 4]]).compute()
    array([1, 2, 3, 4])
    """
    return wrap(lt.concatenate([as_tensor(arr), as_tensor(values)], axis=axis))


# -- splitting -------------------------------------------------------------------


def split(ary: ArrayLike, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """``ary`` split into equal sections, or at the given indices (``numpy.split``).

    >>> [a.compute() for a in split([1, 2, 3, 4], 2)]
    [array([1, 2]), array([3, 4])]
    """
    if isinstance(indices_or_sections, float | np.floating):
        # numpy: a float count of sections must divide the axis, then counts as an int
        x = as_tensor(ary)
        n = x.type.shape[normalize_axis(axis, x.ndim, "split")]
        if n is not None and n % indices_or_sections:
            raise ValueError("split: array split does not result in an equal division")
        return array_split(x, indices_or_sections, axis)
    return _wrap_all(lt.split(as_variable(ary), indices_or_sections, axis))


def array_split(ary: ArrayLike, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """Like :func:`split`, but sections need not divide the axis evenly
    (``numpy.array_split``).

    >>> [a.shape for a in array_split([1, 2, 3, 4, 5], 2)]
    [(3,), (2,)]
    """
    if isinstance(indices_or_sections, float | np.floating):
        indices_or_sections = int(indices_or_sections)  # numpy truncates a float count
    return _wrap_all(lt.array_split(as_variable(ary), indices_or_sections, axis))


def hsplit(ary: ArrayLike, indices_or_sections: Any) -> list[Array]:
    """:func:`split` along axis 1 (axis 0 for 1-d arrays) (``numpy.hsplit``).

    >>> [a.shape for a in hsplit([[1, 2, 3, 4]], 2)]
    [(1, 2), (1, 2)]
    """
    x = as_tensor(ary)
    if x.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(x, indices_or_sections, 1 if x.ndim > 1 else 0)


def vsplit(ary: ArrayLike, indices_or_sections: Any) -> list[Array]:
    """:func:`split` along axis 0 of an array of 2 or more dimensions (``numpy.vsplit``).

    >>> [a.shape for a in vsplit([[1], [2]], 2)]
    [(1, 1), (1, 1)]
    """
    x = as_tensor(ary)
    if x.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(x, indices_or_sections, 0)


def dsplit(ary: ArrayLike, indices_or_sections: Any) -> list[Array]:
    """:func:`split` along axis 2 of an array of 3 or more dimensions (``numpy.dsplit``).

    >>> [a.shape for a in dsplit([[[1, 2, 3, 4]]], 2)]
    [(1, 1, 2), (1, 1, 2)]
    """
    x = as_tensor(ary)
    if x.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(x, indices_or_sections, 2)


def unstack(x: ArrayLike, /, *, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis`` (array API ``unstack``; ``numpy.unstack``).

    >>> [a.compute() for a in unstack([[1, 2], [3, 4]], axis=1)]
    [array([1, 3]), array([2, 4])]
    """
    v = as_tensor(x)
    moved = lt.moveaxis(v, axis, 0)
    n = moved.type.shape[0]
    if n is None:
        raise ValueError("unstack: the size of the unstacked axis must be known")
    return tuple(wrap(lt.getitem(moved, i)) for i in range(n))

"""More of numpy's everyday functions, beyond the array API: counting and
binning (``bincount``, ``digitize``), polynomials (``polyval``, ``vander``),
set operations on 1-d arrays (``union1d``, ``intersect1d``, ``setdiff1d``),
``lexsort``, ``partition``/``argpartition``, ``nancumsum``/``nancumprod``,
``diagflat``, ``rollaxis`` and ``fill_diagonal`` (re-exported by
:mod:`lazygraph.numpy._searching`).

>>> bincount([0, 1, 1, 3]).compute()
array([1, 2, 0, 1])
"""

from __future__ import annotations

import operator
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, known_value, nan_replaced, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.shape import normalize_axis

__all__ = [
    "argpartition",
    "bincount",
    "diagflat",
    "digitize",
    "fill_diagonal",
    "intersect1d",
    "lexsort",
    "nancumprod",
    "nancumsum",
    "partition",
    "polyval",
    "rollaxis",
    "setdiff1d",
    "union1d",
    "vander",
]


def bincount(x: ArrayLike, /, weights: ArrayLike = None, minlength: int = 0) -> Array:
    """How often each value ``0..max(x)`` occurs in the non-negative 1-d integer
    ``x``, or the sum of ``weights`` at each value (``numpy.bincount``); at least
    ``minlength`` bins. The length is known only when computed.

    >>> bincount([2, 0, 2], weights=[0.5, 1.0, 2.0]).compute()
    array([1. , 0. , 2.5])
    """
    v = as_tensor(x)
    if v.ndim != 1:
        raise ValueError(
            "object too deep for desired array"
            if v.ndim > 1
            else "object of too small depth for desired array"
        )
    if np.dtype(v.dtype).kind not in "biu":
        raise TypeError(
            f"bincount: cannot cast array data from dtype('{v.dtype}') to dtype('int64') "
            "according to the rule 'safe'"
        )
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("bincount: 'minlength' must not be negative")
    known = known_value(v)
    if known is not None and known.size and known.min() < 0:
        raise ValueError(f"bincount: x must have no negative elements (min {known.min()})")
    v = lt.cast(v, "int64")
    n = v.type.shape[0]
    top = lt.add(lt.max(v), 1) if n != 0 else 0
    size = lt.maximum(top, minlength) if n != 0 else minlength
    if weights is None:
        dtype, amounts = "int64", 1
    else:
        if isinstance(weights, (str, bytes, list, tuple, np.ndarray)):
            values = np.asarray(weights)
            if values.dtype.kind in "USO":  # numpy parses them as float64, or ValueError
                weights = values.astype(np.float64)
        w = as_tensor(weights)
        if np.dtype(w.dtype).kind == "c":
            raise TypeError(f"bincount: cannot cast weights of dtype {w.dtype} to float64")
        dtype, amounts = "float64", lt.cast(w, "float64")
    if n == 0:
        return wrap(lt.zeros(size, dtype="int64"))  # numpy: int64 for empty input
    zeros = lt.zeros(size, dtype=dtype)
    if known is None:
        # A computed negative value must not count at the end: it becomes an
        # out-of-bounds index, an IndexError when computed (numpy: ValueError).
        v = lt.where(lt.less(v, 0), size, v)
    return wrap(lt.inc_subtensor(lt.getitem(zeros, v), amounts))


def digitize(x: ArrayLike, bins: Any, right: bool = False) -> Array:
    """The index of the bin each value of ``x`` falls in, for monotonic ``bins``
    (``numpy.digitize``; ``right`` says which edge a bin includes).

    >>> digitize([0.5, 1.0, 2.5], [0.0, 1.0, 2.0]).compute()
    array([1, 2, 3])
    """
    b = as_tensor(bins)
    if b.ndim != 1:
        raise ValueError("object too deep for desired array")
    side = "left" if right else "right"
    decreasing = False
    if isinstance(bins, np.ndarray | list | tuple):
        values = np.asarray(bins)
        increasing = bool(np.all(values[1:] >= values[:-1]))
        decreasing = not increasing and bool(np.all(values[1:] <= values[:-1]))
        if not (increasing or decreasing):
            raise ValueError("bins must be monotonically increasing or decreasing")
    xv = as_variable(x)
    if decreasing:
        n = lt.shape_tuple(b)[0]
        return wrap(lt.subtract(n, lt.searchsorted(lt.flip(b), xv, side=side)))
    return wrap(lt.searchsorted(b, xv, side=side))


def polyval(p: ArrayLike, x: ArrayLike) -> Array:
    """The polynomial with coefficients ``p`` (highest power first) at ``x``, by
    Horner's rule (``numpy.polyval``).

    >>> polyval([3, 0, 1], [1.0, 2.0]).compute()
    array([ 4., 13.])
    """
    coeffs = as_tensor(p)
    if coeffs.ndim != 1 or coeffs.type.shape[0] is None:
        raise ValueError("polyval: p must be a 1-d sequence of known length")
    xv = as_variable(x)
    y = lt.zeros_like(lt.as_tensor_variable(xv))
    for i in range(coeffs.type.shape[0]):
        y = lt.add(lt.multiply(y, xv), lt.getitem(coeffs, i))
    return wrap(y)


def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> Array:
    """The Vandermonde matrix of 1-d ``x``: columns ``x**(N-1), ..., x, 1``
    (reversed with ``increasing``) (``numpy.vander``).

    >>> vander([1, 2, 3], 3).compute()
    array([[1, 1, 1],
           [4, 2, 1],
           [9, 3, 1]])
    """
    v = as_tensor(x)
    if v.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = v.type.shape[0] if N is None else int(N)
    if n is None:
        raise ValueError("vander: N must be given when the length of x is unknown")
    dtype = np.promote_types(np.dtype(v.dtype), np.dtype(int))
    column = lt.expand_dims(lt.cast(v, dtype), 1)
    if n == 0:
        return wrap(lt.getitem(lt.ones_like(column), (slice(None), slice(0, 0))))
    ones = lt.ones_like(column)
    parts = [ones] + [column] * (n - 1)
    powers = lt.cumprod(lt.concatenate(parts, axis=1), axis=1)
    return wrap(powers if increasing else lt.flip(powers, 1))


def _set_operand(x: ArrayLike) -> Any:
    return lt.ravel(as_tensor(x))


def union1d(ar1: ArrayLike, ar2: ArrayLike) -> Array:
    """The sorted unique values in either array (``numpy.union1d``).

    >>> union1d([3, 1], [2, 1]).compute()
    array([1, 2, 3])
    """
    from lazygraph.numpy._set import unique

    both = lt.concatenate([_set_operand(ar1), _set_operand(ar2)])
    return unique(wrap(both))  # type: ignore[no-any-return]


def intersect1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> Array:
    """The sorted unique values in both arrays (``numpy.intersect1d``).

    >>> intersect1d([3, 1, 2], [2, 3, 5]).compute()
    array([2, 3])
    """
    from lazygraph.numpy._set import isin, unique

    first, second = _set_operand(ar1), _set_operand(ar2)
    values = unique(wrap(first))
    mask = isin(values, wrap(second))
    # numpy finds the common values in the concatenation: their promoted dtype.
    common = lt.getitem(values._var, mask._var)
    return wrap(lt.cast(common, lt.result_type(first, second)))


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> Array:
    """The sorted unique values of ``ar1`` not in ``ar2`` (``numpy.setdiff1d``).

    >>> setdiff1d([3, 1, 2, 1], [2]).compute()
    array([1, 3])
    """
    from lazygraph.numpy._set import isin, unique

    values = unique(wrap(_set_operand(ar1)))
    mask = isin(values, wrap(_set_operand(ar2)), invert=True)
    return wrap(lt.getitem(values._var, mask._var))


def lexsort(keys: Any, axis: int = -1) -> Array:
    """The indices that sort by several 1-d keys, the last key primary
    (``numpy.lexsort``).

    >>> lexsort(([1, 2, 0], [0, 0, 1])).compute()
    array([0, 1, 2])
    """
    if isinstance(keys, Array) or hasattr(keys, "__lazygraph_variable__"):
        k = as_tensor(keys)
        columns = [lt.getitem(k, i) for i in range(k.type.shape[0])]
    else:
        columns = [as_tensor(k) for k in keys]
    if not columns:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if any(c.ndim != 1 for c in columns) or axis not in (-1, 0):
        raise UnsupportedArgumentsError("lexsort: only 1-d keys are supported by lazygraph")
    # Stable sorts from the least significant key to the most significant.
    order = lt.argsort(columns[0], stable=True)
    for column in columns[1:]:
        order = lt.take(order, lt.argsort(lt.take(column, order), stable=True))
    return wrap(order)


def partition(
    a: ArrayLike, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None
) -> Array:
    """``a`` rearranged so the ``kth`` element is where a sort puts it, smaller
    ones before and larger after (``numpy.partition``). lazygraph returns the
    fully sorted array, which is one valid partition (numpy's order of the other
    elements is unspecified).

    >>> partition([3, 1, 2], 1).compute()[1]
    np.int64(2)
    """
    _check_kth(a, kth, axis)
    return wrap(lt.sort(as_variable(a), axis))


def argpartition(
    a: ArrayLike, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None
) -> Array:
    """Indices that partition ``a`` (``numpy.argpartition``); lazygraph gives the
    indices of a full stable sort, one valid partition.

    >>> argpartition([3, 1, 2], 0).compute()[0]
    np.int64(1)
    """
    _check_kth(a, kth, axis)
    return wrap(lt.argsort(as_variable(a), axis, stable=True))


def _check_kth(a: ArrayLike, kth: Any, axis: int | None) -> None:
    x = as_tensor(a)
    n = x.type.shape[normalize_axis(axis, x.ndim, "partition")] if axis is not None else None
    if axis is None:
        sizes = x.type.shape
        n = None if None in sizes else int(np.prod(sizes))
    for k in np.atleast_1d(kth):
        if n is not None and not -n <= int(k) < n:
            raise ValueError(f"kth(={int(k)}) out of bounds ({n})")


def nancumsum(a: ArrayLike, axis: int | None = None, dtype: Any = None) -> Array:
    """The running sum treating NaN as zero (``numpy.nancumsum``).

    >>> nancumsum([1.0, float("nan"), 2.0]).compute()
    array([1., 1., 3.])
    """
    x = as_tensor(a)
    x = nan_replaced(x, 0)
    return wrap(lt.cumsum(x, axis=axis, dtype=dtype))


def nancumprod(a: ArrayLike, axis: int | None = None, dtype: Any = None) -> Array:
    """The running product treating NaN as one (``numpy.nancumprod``).

    >>> nancumprod([2.0, float("nan"), 3.0]).compute()
    array([2., 2., 6.])
    """
    x = as_tensor(a)
    x = nan_replaced(x, 1)
    return wrap(lt.cumprod(x, axis=axis, dtype=dtype))


def diagflat(v: ArrayLike, k: int = 0) -> Array:
    """A 2-d array with the flattened ``v`` on its ``k``-th diagonal (``numpy.diagflat``).

    >>> diagflat([[1, 2]]).compute()
    array([[1, 0],
           [0, 2]])
    """
    from lazygraph.numpy._creation import diag

    return diag(wrap(lt.ravel(as_tensor(v))), k)


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
    from lazygraph.numpy._manipulation import shuffled

    return shuffled(a, x if axis == start else lt.moveaxis(x, axis, start))


def fill_diagonal(a: Any, val: Any, wrap: bool = False) -> None:
    """Write ``val`` on the main diagonal of ``a`` in place (``numpy.fill_diagonal``):
    a lazy array is rebound to the updated value, numpy arrays are written.

    >>> import numpy
    >>> x = numpy.zeros((2, 2))
    >>> fill_diagonal(x, 5.0); x
    array([[5., 0.],
           [0., 5.]])
    """
    if not isinstance(a, Array):
        np.fill_diagonal(a, val, wrap=wrap)
        return
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    shape = a.shape
    if None in shape:
        raise ValueError("fill_diagonal: the shape of a lazy array must be known")
    if a.ndim > 2 and len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    # numpy's flat positions: every step-th element (the whole array with
    # ``wrap`` for tall matrices, else the leading square).
    end = None
    if a.ndim == 2:
        step = shape[1] + 1
        if not wrap:
            end = shape[1] * shape[1]
    else:
        step = 1 + int(np.cumprod(shape[:-1]).sum())
    positions = np.arange(int(np.prod(shape)))[:end:step]
    coords = np.unravel_index(positions, shape)
    if not isinstance(val, Array) and np.ndim(val) > 0:
        val = np.resize(np.asarray(val), len(positions))  # numpy cycles the values
    a[coords] = val

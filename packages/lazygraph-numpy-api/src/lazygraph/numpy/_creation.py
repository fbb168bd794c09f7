"""Array creation with numpy's signatures: ``array``, ``zeros``/``ones``/
``empty``/``full`` and their ``_like`` forms, ``arange``, ``linspace``,
``logspace``, ``eye``, ``identity``, ``tri``/``tril``/``triu``, ``diag``,
``diagflat``, ``vander``, ``meshgrid``, ``copy`` and ``from_dlpack``.

Sizes may be ints or lazy 0-d integer arrays: numpy code passes ints, so a
lazy size is computed then (``zeros(x[x > 0].size)``, ``arange(n)``), and the
result's shape is static. Only a size a function being traced computes from
its arguments stays lazy (a size known when the function runs). numpy's
``order=`` (memory layout) and ``device=``/``like=`` keywords are accepted and
change nothing.

>>> zeros((2, 3), dtype="int32").shape
(2, 3)
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.configuration import config
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import (
    _holds_lazy,
    as_ndarray,
    as_tensor,
    as_variable,
    is_literal,
    known_array,
    wrap,
)
from lazygraph.numpy._distributed import distributed_input
from lazygraph.numpy._sizes import computable
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike
from lazygraph.numpy._views import order_argument
from lazygraph.tensor.dtypes import is_weak_scalar

__all__ = [
    "arange",
    "array",
    "asanyarray",
    "ascontiguousarray",
    "copy",
    "diag",
    "diagflat",
    "empty",
    "empty_like",
    "eye",
    "from_dlpack",
    "full",
    "full_like",
    "geomspace",
    "identity",
    "linspace",
    "logspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tri",
    "tril",
    "triu",
    "vander",
    "zeros",
    "zeros_like",
]


def _check_order(name: str, order: Any, new: bool = False) -> None:
    """numpy's errors for ``order`` ("c" is "C"); values have no layout. A
    ``new`` array (``zeros``, ``empty``...) is only ever C- or F-ordered."""
    if order_argument(order, name) in ("A", "K") and new:
        raise ValueError(f"{name}: only 'C' or 'F' order is permitted")


def size_argument(entry: Any) -> Any:
    """One size as numpy reads it (``operator.index``: an integer, not a float or
    a bool array). A lazy 0-d integer array is computed to its int, as numpy code
    expects; one that cannot be computed (a function being traced computes it
    from its arguments) stays a variable, a size known when the graph runs.

    >>> n = arange(5).sum()
    >>> size_argument(n), size_argument(3)
    (10, 3)
    """
    if isinstance(entry, Array):
        if not computable(entry._var):
            return entry._var
        return operator.index(entry)  # numpy's TypeError for a float or n-d array
    if hasattr(entry, "__lazygraph_variable__"):
        return as_variable(entry)
    if entry is None:
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    if isinstance(entry, np.ndarray):
        return operator.index(entry)
    return entry


def shape_argument(shape: Any) -> Any:
    """A shape argument as numpy reads it: an int or a sequence of sizes (each
    through :func:`size_argument`), or a 1-d integer array of them (a lazy one
    computed).

    >>> shape_argument((2, arange(4).sum())), shape_argument(array([2, 3]))
    ((2, 6), (2, 3))
    """
    if isinstance(shape, Array) and shape.ndim == 1:
        if not computable(shape._var):
            return shape._var
        return tuple(operator.index(s) for s in shape._value())
    if isinstance(shape, np.ndarray) and shape.ndim == 1:
        return tuple(operator.index(s) for s in shape)
    if isinstance(shape, Sequence) and not isinstance(shape, str):
        return tuple(size_argument(s) for s in shape)
    return size_argument(shape)


def _scalar_argument(value: Any) -> Any:
    """A value argument that decides a length (``arange``'s bounds): a lazy 0-d
    array computed to a constant of its dtype (the length is static, as numpy's
    is known), else the argument as a variable."""
    if isinstance(value, Array) and value.ndim == 0 and computable(value._var):
        return lt.constant(np.asarray(value._value()))
    return as_variable(value)


def _dtype(dtype: DTypeLike) -> Any:
    return None if dtype is None else np.dtype(dtype)


def _static_shape(shape: Any) -> tuple[int, ...] | None:
    """``shape`` as a tuple of ints when every size is a non-negative Python or
    numpy integer (not a bool), else None."""
    sizes = shape if type(shape) in (tuple, list) else (shape,)
    out = []
    for s in sizes:
        if type(s) is not int and not isinstance(s, np.integer):
            return None
        if s < 0:
            return None
        out.append(int(s))
    return tuple(out)


def _zeros_now(shape: Any, dtype: Any) -> Array | None:
    """Zeros of a static ``shape`` no larger than ``config.eager_max_elements``,
    computed now: the known array running the Alloc node at once would give,
    without recording it (numpy's ``zeros`` is ~0.5 us, the node ~100 us). Not
    for ones: ``ones`` stays a node for the rules that read it (log(1 + x))."""
    limit = config.eager_max_elements
    if limit <= 0:
        return None
    static = _static_shape(shape)
    if static is None or math.prod(static) > limit:
        return None
    try:
        dt = np.dtype(dtype)
    except TypeError:
        return None
    if dt.kind not in "biufc":
        return None
    return known_array(np.zeros(static, dt))


def array(
    object: Any,
    dtype: DTypeLike = None,
    *,
    copy: bool | None = True,
    order: str | None = "K",
    subok: bool = False,
    ndmin: int = 0,
    like: Any = None,
) -> Array:
    """An array from ``object``: an Array, numpy data, a (nested) list that may
    hold lazy arrays, or a scalar (``numpy.array``). ``ndmin`` prepends size-1
    axes. Without ``copy=True`` an Array of the asked dtype is returned itself
    (a view of it for ``ndmin``), so later writes to it show through, as with
    numpy; ``copy=False`` when a copy is needed is numpy's ValueError.

    >>> array([[1, 2], [3, 4]], dtype="float32").compute()
    array([[1., 2.],
           [3., 4.]], dtype=float32)
    >>> a = array([1.0, 2.0])
    >>> array([a[1], a[0] * 3]).compute()
    array([2., 3.])
    """
    _check_order("array", order)
    if copy is not True and isinstance(object, Array):
        shared = _shared(object, dtype, ndmin)
        if shared is not None:
            return shared
        if copy is False:
            raise ValueError("array: Unable to avoid copy while creating an array as requested.")
    # a dask array stays one on the dask backend (see _distributed)
    distributed = distributed_input(object)
    if distributed is not None:
        object = wrap(distributed)
    if not _holds_lazy(object):
        # Plain data: numpy's own constructor gives numpy's conversions and errors.
        data = np.array(object, dtype=dtype, order=order, ndmin=ndmin)
        if not isinstance(object, np.ndarray) and (
            is_literal(object, data.size) or isinstance(object, np.generic)
        ):
            return as_ndarray(wrap(lt.constant(data)))
        return as_ndarray(wrap(as_variable(data)))
    var = lt.as_tensor_variable(as_variable(object))
    if dtype is not None:
        var = lt.cast(var, np.dtype(dtype))
    if ndmin > var.ndim:
        var = lt.expand_dims(var, tuple(range(ndmin - var.ndim)))
    return as_ndarray(wrap(var))


def _shared(arr: Array, dtype: DTypeLike, ndmin: int) -> Array | None:
    """``arr`` itself, or a view with ``ndmin`` axes, when ``array(arr, dtype,
    copy=None)`` needs no copy; None otherwise (a computed 0-d result is numpy's
    scalar, which ``array`` turns into a new array)."""
    if dtype is not None and np.dtype(dtype) != arr.dtype:
        return None
    if not arr._nd0 and arr._base is None and arr.ndim == 0:
        return None
    if ndmin > arr.ndim:
        return arr.reshape((1,) * (ndmin - arr.ndim) + tuple(arr.shape))
    return arr


def copy(a: ArrayLike, order: str | None = "K", subok: bool = False) -> Array:
    """A copy of ``a`` (``numpy.copy``): lazy arrays are values, so this is ``a``'s
    value as a new array that later in-place updates of ``a`` do not change.

    >>> copy([1, 2]).compute()
    array([1, 2])
    """
    _check_order("copy", order)
    return as_ndarray(wrap(lt.copy(as_variable(a))))


def zeros(
    shape: Any,
    dtype: DTypeLike = None,
    order: str | None = "C",
    *,
    device: Any = None,
    like: Any = None,
) -> Array:
    """An array of zeros (``numpy.zeros``; float64 unless ``dtype`` says otherwise).

    >>> zeros((2, 2)).compute()
    array([[0., 0.],
           [0., 0.]])
    """
    _check_order("zeros", order, new=True)
    shape = shape_argument(shape)
    now = _zeros_now(shape, "float64" if dtype is None else dtype)
    if now is not None:
        return as_ndarray(now)
    return as_ndarray(wrap(lt.zeros(shape, dtype=_dtype(dtype) or "float64")))


def ones(
    shape: Any,
    dtype: DTypeLike = None,
    order: str | None = "C",
    *,
    device: Any = None,
    like: Any = None,
) -> Array:
    """An array of ones (``numpy.ones``; float64 unless ``dtype`` says otherwise).

    >>> ones(3, dtype="int32").compute()
    array([1, 1, 1], dtype=int32)
    """
    _check_order("ones", order, new=True)
    return as_ndarray(wrap(lt.ones(shape_argument(shape), dtype=_dtype(dtype) or "float64")))


def empty(
    shape: Any,
    dtype: DTypeLike = None,
    order: str | None = "C",
    *,
    device: Any = None,
    like: Any = None,
) -> Array:
    """An array whose values are unspecified (``numpy.empty``; lazygraph fills it
    with zeros, so no garbage ever leaks into results).

    >>> empty((2, 3)).shape
    (2, 3)
    """
    _check_order("empty", order, new=True)
    shape = shape_argument(shape)
    now = _zeros_now(shape, "float64" if dtype is None else dtype)
    if now is not None:
        return as_ndarray(now)
    return as_ndarray(wrap(lt.empty(shape, dtype=_dtype(dtype) or "float64")))


def full(
    shape: Any,
    fill_value: ArrayLike,
    dtype: DTypeLike = None,
    order: str | None = "C",
    *,
    device: Any = None,
    like: Any = None,
) -> Array:
    """An array filled with ``fill_value`` (broadcast to ``shape``); its dtype is
    ``fill_value``'s unless given (``numpy.full``).

    >>> full((2,), 7).compute()
    array([7, 7])
    """
    _check_order("full", order, new=True)
    if isinstance(fill_value, (str, bytes)) and dtype is not None:
        # numpy parses a string fill value as the dtype asks ("1" -> 1, "x" -> ValueError).
        fill_value = np.asarray(fill_value, dtype=_dtype(dtype))
    return as_ndarray(
        wrap(lt.full(shape_argument(shape), as_variable(fill_value), dtype=_dtype(dtype)))
    )


def _like(
    name: str, a: ArrayLike, fill: ArrayLike, dtype: DTypeLike, order: Any, shape: Any
) -> Array:
    _check_order(name, order)
    # (``a``'s static shape and dtype, not its variable: taking that would give
    # away the buffer an array owns, see _eager.set_item)
    static = a._static_shape if isinstance(a, Array) else np.shape(a)  # (computes nothing)
    if shape is None and fill == 0 and isinstance(a, (Array, np.ndarray)) and None not in static:
        now = _zeros_now(static, a.dtype if dtype is None else dtype)
        if now is not None:
            return as_ndarray(now)
    x = lt.as_tensor_variable(as_variable(a))
    size = None if shape is None else shape_argument(shape)
    return as_ndarray(wrap(lt.full_like(x, as_variable(fill), dtype=_dtype(dtype), shape=size)))


def zeros_like(
    a: ArrayLike,
    dtype: DTypeLike = None,
    order: str | None = "K",
    subok: bool = True,
    shape: Any = None,
    *,
    device: Any = None,
) -> Array:
    """Zeros with ``a``'s shape and dtype unless given (``numpy.zeros_like``).

    >>> zeros_like([[1, 2]]).compute()
    array([[0, 0]])
    """
    return _like("zeros_like", a, 0, dtype, order, shape)


def ones_like(
    a: ArrayLike,
    dtype: DTypeLike = None,
    order: str | None = "K",
    subok: bool = True,
    shape: Any = None,
    *,
    device: Any = None,
) -> Array:
    """Ones with ``a``'s shape and dtype unless given (``numpy.ones_like``).

    >>> ones_like([1.5, 2.5]).compute()
    array([1., 1.])
    """
    return _like("ones_like", a, 1, dtype, order, shape)


def empty_like(
    prototype: ArrayLike,
    dtype: DTypeLike = None,
    order: str | None = "K",
    subok: bool = True,
    shape: Any = None,
    *,
    device: Any = None,
) -> Array:
    """An unspecified (here zero-filled) array like ``prototype`` (``numpy.empty_like``).

    >>> empty_like([[1, 2]]).shape
    (1, 2)
    """
    return _like("empty_like", prototype, 0, dtype, order, shape)


def full_like(
    a: ArrayLike,
    fill_value: ArrayLike,
    dtype: DTypeLike = None,
    order: str | None = "K",
    subok: bool = True,
    shape: Any = None,
    *,
    device: Any = None,
) -> Array:
    """``fill_value`` with ``a``'s shape and dtype unless given (``numpy.full_like``).

    >>> full_like([1, 2, 3], 2.7).compute()
    array([2, 2, 2])
    """
    return _like("full_like", a, fill_value, dtype, order, shape)


#: what a parameter numpy also takes by name only holds when not given
_NOT_GIVEN: Any = object()


def arange(
    start_or_stop: ArrayLike = _NOT_GIVEN,
    /,
    stop: ArrayLike = None,
    step: ArrayLike = None,
    dtype: DTypeLike = None,
    *,
    start: ArrayLike = None,
    device: Any = None,
    like: Any = None,
) -> Array:
    """Evenly spaced values in ``[start, stop)`` (``numpy.arange``: ``arange(stop)``,
    ``arange(start, stop[, step])``); the length is static when the arguments are
    known when the graph is built.

    >>> arange(5).compute()
    array([0, 1, 2, 3, 4])
    >>> arange(1.0, 2.0, 0.25).compute()
    array([1.  , 1.25, 1.5 , 1.75])
    >>> arange(start=2, stop=5).compute()
    array([2, 3, 4])
    """
    if start_or_stop is _NOT_GIVEN:
        if stop is None:  # (numpy: even with start= given)
            raise TypeError("arange() requires stop to be specified.")
        start_or_stop, start = (0 if start is None else start), None
    elif start is not None:
        raise TypeError("argument for arange() given by name ('start') and position (position 0)")
    if start is not None:
        begin, stop = start, start_or_stop if stop is None else stop
    elif stop is None:
        begin, stop = 0, start_or_stop
    else:
        begin = start_or_stop
    step = 1 if step is None else step
    args = [_scalar_argument(v) for v in (begin, stop, step)]
    return wrap(lt.arange(*args, dtype=_dtype(dtype)))


def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: DTypeLike = None,
    axis: int = 0,
    *,
    device: Any = None,
) -> Any:
    """``num`` evenly spaced samples from ``start`` to ``stop`` (``numpy.linspace``;
    array endpoints broadcast, the samples along ``axis``). ``retstep=True``
    also returns the spacing.

    >>> linspace(0, 1, 5).compute()
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    num = size_argument(num) if isinstance(num, (Array, np.ndarray)) else num
    lo, hi = as_variable(start), as_variable(stop)
    samples = lt.linspace(lo, hi, num, endpoint=endpoint, dtype=_dtype(dtype), axis=axis)
    if not retstep:
        return wrap(samples)
    intervals = int(num) - 1 if endpoint else int(num)
    if intervals <= 0:
        return wrap(samples), float("nan")  # numpy's step when there is no interval
    step = lt.divide(lt.subtract(hi, lo), intervals)
    return wrap(samples), wrap(step)


def logspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    base: ArrayLike = 10.0,
    dtype: DTypeLike = None,
    axis: int = 0,
) -> Array:
    """``base ** linspace(start, stop, num)`` (``numpy.logspace``): ``start``,
    ``stop`` and ``base`` may be arrays; they broadcast together and the
    samples run along ``axis``, as numpy's.

    >>> logspace(0, 2, 3).compute()
    array([  1.,  10., 100.])
    >>> logspace(0, 1, 2, base=[2, 3], axis=1).compute()
    array([[1., 2.],
           [1., 3.]])
    """
    num = size_argument(num) if isinstance(num, (Array, np.ndarray)) else num
    lo, hi, b = as_variable(start), as_variable(stop), as_variable(base)
    if not is_weak_scalar(b) and b.ndim:
        # As numpy: an array base broadcasts with the endpoints (all three as
        # arrays of the broadcast's ndim), with a size-1 axis at ``axis``.
        args = [as_tensor(v) for v in (lo, hi, b)]
        ndim = max(v.ndim for v in args)
        lo, hi, b = (lt.expand_dims(v, tuple(range(ndim - v.ndim))) for v in args)
        b = lt.expand_dims(b, axis)
    result = lt.pow(b, lt.linspace(lo, hi, num, endpoint=endpoint, axis=axis))
    return wrap(result if dtype is None else lt.cast(result, np.dtype(dtype)))


def eye(
    N: int,
    M: int | None = None,
    k: int = 0,
    dtype: DTypeLike = float,
    order: str | None = "C",
    *,
    device: Any = None,
    like: Any = None,
) -> Array:
    """A 2-d array with ones on the ``k``-th diagonal (``numpy.eye``).

    >>> eye(2, 3, k=1).compute()
    array([[0., 1., 0.],
           [0., 0., 1.]])
    """
    _check_order("eye", order, new=True)
    dt = np.dtype(float if dtype is None else dtype)
    return wrap(lt.eye(size_argument(N), None if M is None else size_argument(M), k, dtype=dt))


def identity(n: int, dtype: DTypeLike = None, *, like: Any = None) -> Array:
    """The ``n`` x ``n`` identity matrix (``numpy.identity``).

    >>> identity(2, dtype="int32").compute()
    array([[1, 0],
           [0, 1]], dtype=int32)
    """
    return wrap(lt.identity(size_argument(n), dtype=_dtype(dtype) or "float64"))


def tri(
    N: int, M: int | None = None, k: int = 0, dtype: DTypeLike = float, *, like: Any = None
) -> Array:
    """Ones at and below the ``k``-th diagonal, zeros above (``numpy.tri``).

    >>> tri(3, 2, dtype="int32").compute()
    array([[1, 0],
           [1, 1],
           [1, 1]], dtype=int32)
    """
    dt = np.dtype(float if dtype is None else dtype)
    return wrap(lt.tri(size_argument(N), None if M is None else size_argument(M), k, dtype=dt))


def tril(m: ArrayLike, k: int = 0) -> Array:
    """The lower triangle of the last two axes: elements above the ``k``-th
    diagonal zeroed (``numpy.tril``).

    >>> tril([[1, 2], [3, 4]]).compute()
    array([[1, 0],
           [3, 4]])
    """
    return wrap(lt.tril(as_variable(m), k))


def triu(m: ArrayLike, k: int = 0) -> Array:
    """The upper triangle of the last two axes: elements below the ``k``-th
    diagonal zeroed (``numpy.triu``).

    >>> triu([[1, 2], [3, 4]]).compute()
    array([[1, 2],
           [0, 4]])
    """
    return wrap(lt.triu(as_variable(m), k))


def diag(v: ArrayLike, k: int = 0) -> Array:
    """The ``k``-th diagonal of a 2-d array, or a 2-d array with 1-d ``v`` on its
    ``k``-th diagonal (``numpy.diag``).

    >>> diag([1, 2]).compute()
    array([[1, 0],
           [0, 2]])
    >>> diag([[1, 2], [3, 4]], k=1).compute()
    array([2])
    """
    x = lt.as_tensor_variable(as_variable(v))
    if x.ndim == 2:
        return wrap(lt.diagonal(x, offset=k))
    if x.ndim != 1:
        raise ValueError("diag: input must be 1- or 2-d.")
    n = lt.shape_tuple(x)[0]
    size = n + abs(int(k)) if isinstance(n, int) else lt.add(n, abs(int(k)))
    eye_k = lt.eye(size, size, k, dtype="bool")
    # M[r, r + k] = v[r] for k >= 0 and M[c - k, c] = v[c] for k < 0: v, padded
    # at its end to the result's size, as a column (k >= 0) or a row (k < 0).
    padded = lt.pad(x, [(0, abs(int(k)))])
    values = lt.expand_dims(padded, 1 if k >= 0 else 0)
    return wrap(lt.where(eye_k, values, lt.zeros((), dtype=x.dtype)))


def diagflat(v: ArrayLike, k: int = 0) -> Array:
    """A 2-d array with the flattened ``v`` on its ``k``-th diagonal (``numpy.diagflat``).

    >>> diagflat([[1, 2]]).compute()
    array([[1, 0],
           [0, 2]])
    """
    return diag(wrap(lt.ravel(as_tensor(v))), k)


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
    n = v.type.shape[0] if N is None else operator.index(N)
    if n is None:
        raise ValueError("vander: N must be given when the length of x is unknown")
    if n < 0:
        raise ValueError(f"vander: negative dimensions are not allowed (N={n})")
    dtype = np.promote_types(np.dtype(v.dtype), np.dtype(int))
    column = lt.expand_dims(lt.cast(v, dtype), 1)
    if n == 0:
        return wrap(lt.getitem(lt.ones_like(column), (slice(None), slice(0, 0))))
    ones = lt.ones_like(column)
    parts = [ones] + [column] * (n - 1)
    powers = lt.cumprod(lt.concatenate(parts, axis=1), axis=1)
    return wrap(powers if increasing else lt.flip(powers, 1))


def meshgrid(
    *xi: ArrayLike, copy: bool = True, sparse: bool = False, indexing: str = "xy"
) -> tuple[Array, ...]:
    """Coordinate arrays from coordinate vectors (``numpy.meshgrid``; ``indexing``
    ``"xy"`` (Cartesian, the default) or ``"ij"`` (matrix)).

    >>> xs, ys = meshgrid([1, 2, 3], [4, 5])
    >>> xs.compute()
    array([[1, 2, 3],
           [1, 2, 3]])
    """
    grids = lt.meshgrid(*(as_variable(x) for x in xi), indexing=indexing, sparse=sparse)
    return tuple(wrap(g) for g in grids)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Array:
    """An array from any object with ``__dlpack__`` (``numpy.from_dlpack``): the
    data enters the graph as an input, as numpy data does.

    >>> import numpy
    >>> from_dlpack(numpy.arange(3)).compute()
    array([0, 1, 2])
    """
    return wrap(lt.as_tensor_variable(as_variable(np.from_dlpack(x))))


def asanyarray(
    a: Any,
    dtype: DTypeLike = None,
    order: str | None = None,
    *,
    device: Any = None,
    copy: bool | None = None,
    like: Any = None,
) -> Array:
    """``a`` as a lazy array (``numpy.asanyarray``; the same as ``asarray``).

    >>> asanyarray([1, 2]).shape
    (2,)
    """
    from lazygraph.numpy._convert import asarray

    _check_order("asanyarray", order)
    return asarray(a, dtype=dtype, device=device, copy=copy)


def ascontiguousarray(a: Any, dtype: DTypeLike = None, *, like: Any = None) -> Array:
    """``a`` as a lazy array of at least one dimension (``numpy.ascontiguousarray``;
    lazy arrays have no memory layout to change).

    >>> ascontiguousarray(5.0).shape
    (1,)
    """
    from lazygraph.numpy._convert import asarray

    result = asarray(a, dtype=dtype)
    return wrap(lt.reshape(result._var, (1,))) if result.ndim == 0 else result


def geomspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    dtype: DTypeLike = None,
    axis: int = 0,
) -> Array:
    """``num`` samples from ``start`` to ``stop`` in geometric progression
    (``numpy.geomspace``): array endpoints broadcast, the samples along ``axis``.
    Negative and complex endpoints follow numpy (the start is rotated onto the
    positive reals, the samples computed and rotated back); the endpoints are
    exactly ``start`` and ``stop``. A zero endpoint is numpy's ValueError when
    its value is known as the graph is built (NaN samples otherwise).

    >>> geomspace(1, 1000, 4).compute()
    array([   1.,   10.,  100., 1000.])
    >>> geomspace(-1000, -1, 4).compute()
    array([-1000.,  -100.,   -10.,    -1.])
    """
    import operator

    from lazygraph.numpy._convert import known_value

    lo, hi = as_tensor(start), as_tensor(stop)
    for v in (lo, hi):
        value = known_value(v)
        if value is not None and np.any(value == 0):
            raise ValueError("Geometric sequence cannot include zero")
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    # numpy's dtype: the endpoints as arrays (Python scalars strong), float(num), dtype's zero
    dt = np.result_type(np.dtype(lo.dtype), np.dtype(hi.dtype), float(num), np.zeros((), dtype))
    out_dtype = dt if dtype is None else np.dtype(dtype)
    lo, hi = lt.cast(lo, dt), lt.cast(hi, dt)
    sign = lt.sign(lo)
    lo, hi = lt.true_divide(lo, sign), lt.true_divide(hi, sign)
    exponents = lt.linspace(lt.log10(lo), lt.log10(hi), num, endpoint=endpoint)
    # numpy's logspace raises a float64 array base (strong) to the exponents
    result = lt.cast(lt.pow(lt.constant(np.array(10.0)), exponents), dt)
    shape = lt.shape_tuple(result)[1:]
    ends = [lt.expand_dims(lt.broadcast_to(lo, shape), 0)]
    if num > 1:
        inner_stop = -1 if endpoint else None
        ends.append(lt.getitem(result, slice(1, inner_stop)))
        if endpoint:
            ends.append(lt.expand_dims(lt.broadcast_to(hi, shape), 0))
    if num > 0:
        result = lt.concatenate(ends, axis=0)
    result = lt.multiply(result, sign)
    if axis != 0:
        result = lt.moveaxis(result, 0, axis)
    return wrap(lt.cast(result, out_dtype))


def _not_replayed() -> None:
    """geomspace checks known values (numpy's error for a zero endpoint): its
    calls on known arrays run, rather than replay a plan recorded on stand-in
    inputs that have no values to check (lazygraph.numpy._replay)."""
    from lazygraph.numpy import _replay

    _replay._NOT_REPLAYED.add(geomspace)


_not_replayed()

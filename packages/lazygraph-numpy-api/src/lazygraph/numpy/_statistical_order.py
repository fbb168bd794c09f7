"""Order statistics: ``median``, ``quantile`` and ``percentile`` (numpy's
default linear method). They sort along the reduced axes, whose sizes must be
known when the graph is built.

>>> median([3.0, 1.0, 2.0]).compute()
array(2.)
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_axis, as_tensor, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike, reject_out
from lazygraph.tensor.shape import normalize_axes

__all__ = ["median", "percentile", "quantile"]


def median(
    a: ArrayLike,
    axis: Any = None,
    out: None = None,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> Array:
    """The median over ``axis`` (``numpy.median``): the mean of the two middle
    values for an even count; NaN if any value along ``axis`` is NaN. The sizes
    of the reduced axes must be known when the graph is built.

    >>> median([[1.0, 7.0, 3.0], [4.0, 2.0, 6.0]], axis=1).compute()
    array([3., 4.])
    """
    reject_out("median", out)
    x = as_tensor(a)
    axes = normalize_axes(as_axis(axis), x.ndim, "median")
    kept = [i for i in range(x.ndim) if i not in axes]
    sizes = lt.shape_tuple(x)
    n = 1
    for i in axes:
        if not isinstance(sizes[i], int):
            raise ValueError("median: the sizes of the reduced axes must be known")
        n *= sizes[i]
    flat = lt.reshape(lt.transpose(x, kept + list(axes)), [*(sizes[i] for i in kept), n])
    if np.dtype(flat.dtype).kind in "biu":
        flat = lt.cast(flat, "float64")
    if n == 0:
        result = lt.mean(flat, axis=-1)
    else:
        ordered = lt.sort(flat, axis=-1)
        # As numpy: the mean of the middle one or two values (so signed zeros,
        # infinities and the dtype come out as numpy's), NaN if any value is NaN.
        middle = lt.getitem(ordered, (Ellipsis, slice((n - 1) // 2, n // 2 + 1)))
        result = lt.mean(middle, axis=-1)
        if np.dtype(flat.dtype).kind in "fc":
            last = lt.getitem(ordered, (Ellipsis, n - 1))
            result = lt.where(lt.isnan(last), last, result)
    if keepdims and axes:
        result = lt.expand_dims(result, axes)
    return wrap(result)


def _quantile(
    name: str, a: ArrayLike, q: np.ndarray, weak: bool, axis: Any, method: str, keepdims: bool
) -> Array:
    if method != "linear":
        raise UnsupportedArgumentsError(f"{name}: only method='linear' is supported by lazygraph")
    x = as_tensor(a)
    if np.dtype(x.dtype).kind == "c":
        raise TypeError(f"{name}: a must be an array of real numbers")
    axes = normalize_axes(as_axis(axis), x.ndim, name)
    kept = [i for i in range(x.ndim) if i not in axes]
    sizes = lt.shape_tuple(x)
    n = 1
    for i in axes:
        if not isinstance(sizes[i], int):
            raise ValueError(f"{name}: the sizes of the reduced axes must be known")
        n *= sizes[i]
    flat = lt.reshape(lt.transpose(x, kept + list(axes)), [*(sizes[i] for i in kept), n])
    # The result dtype: ``a``'s promoted with ``q``'s, a Python scalar ``q`` weak.
    dtype = lt.result_type(flat, q.item() if weak else q.dtype)
    if n == 0:
        # numpy indexes the empty sorted axis: always for inexact data (its NaN
        # check reads the last element), only for a non-empty q otherwise.
        if q.size or np.dtype(x.dtype).kind in "fc":
            raise IndexError(f"{name}: index -1 is out of bounds for axis 0 with size 0")
        shape = [*(sizes[i] for i in kept), *q.shape]
        result = lt.zeros(shape, dtype=lt.result_type(dtype, 0.5))
        result = lt.moveaxis(result, list(range(len(kept), result.ndim)), list(range(q.ndim)))
        if keepdims:
            result = lt.expand_dims(result, tuple(q.ndim + i for i in axes))
        return wrap(result)
    ordered = lt.sort(lt.cast(flat, dtype), axis=-1)
    virtual = q.astype(np.float64) * (n - 1)
    lo = np.floor(virtual).astype(np.int64)
    hi = np.minimum(lo + 1, n - 1)
    t = (virtual - lo).astype(dtype)
    below = lt.take(ordered, lo.reshape(-1), axis=-1)
    above = lt.take(ordered, hi.reshape(-1), axis=-1)
    t_flat = t.reshape(-1)
    diff = lt.subtract(above, below)
    # numpy's lerp: from the nearer end, so t = 1 gives ``above`` exactly.
    result = lt.where(
        t_flat >= 0.5,
        lt.subtract(above, lt.multiply(diff, 1 - t_flat)),
        lt.add(below, lt.multiply(diff, t_flat)),
    )
    last = lt.getitem(ordered, (Ellipsis, slice(n - 1, n)))
    result = lt.where(lt.isnan(last), last, result)  # a NaN anywhere gives NaN
    result = lt.reshape(result, [*(sizes[i] for i in kept), *q.shape])
    result = lt.moveaxis(result, list(range(len(kept), result.ndim)), list(range(q.ndim)))
    if keepdims:
        result = lt.expand_dims(result, tuple(q.ndim + i for i in axes))
    return wrap(result)


def quantile(
    a: ArrayLike,
    q: Any,
    axis: Any = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
) -> Array:
    """The ``q``-th quantiles over ``axis`` (``numpy.quantile``, linear method;
    ``q`` in [0, 1] must be known when the graph is built, the result's leading
    axes are ``q``'s).

    >>> quantile([1.0, 2.0, 3.0, 4.0], [0.25, 0.5]).compute()
    array([1.75, 2.5 ])
    """
    reject_out("quantile", out)
    qs = np.asanyarray(q)
    if not np.all((qs >= 0) & (qs <= 1)):
        raise ValueError("Quantiles must be in the range [0, 1]")
    weak = lt.is_weak_scalar(q)
    return _quantile("quantile", a, qs, weak, axis, method, keepdims)


def percentile(
    a: ArrayLike,
    q: Any,
    axis: Any = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
) -> Array:
    """The ``q``-th percentiles over ``axis`` (``numpy.percentile``; ``q`` in
    [0, 100]).

    >>> percentile([[1.0, 3.0], [5.0, 7.0]], 50, axis=1).compute()
    array([2., 6.])
    """
    reject_out("percentile", out)
    qs = np.asanyarray(q)
    if not np.all((qs >= 0) & (qs <= 100)):
        raise ValueError("Percentiles must be in the range [0, 100]")
    weak = lt.is_weak_scalar(q)
    return _quantile("percentile", a, np.true_divide(qs, 100), weak, axis, method, keepdims)

"""Statistics that ignore NaNs (numpy's ``nan*`` functions): ``nansum``,
``nanprod``, ``nanmean``, ``nanvar``, ``nanstd``, ``nanmax``/``nanmin``, and
the running ``nancumsum``/``nancumprod``.

>>> nanmax([1.0, float("nan"), 3.0]).compute()
array(3.)
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_axis, as_tensor, nan_replaced, wrap
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike, reject_out
from lazygraph.tensor.shape import normalize_axes

__all__ = [
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmin",
    "nanprod",
    "nanstd",
    "nansum",
    "nanvar",
]


def nansum(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    keepdims: bool = False,
) -> Array:
    """The sum over ``axis`` treating NaN as zero (``numpy.nansum``).

    >>> nansum([1.0, float("nan"), 2.0]).compute()
    array(3.)
    """
    reject_out("nansum", out)
    x = as_tensor(a)
    x = nan_replaced(x, 0)
    return wrap(lt.sum(x, axis=as_axis(axis), dtype=dtype, keepdims=keepdims))


def nanmean(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    keepdims: bool = False,
) -> Array:
    """The mean over ``axis`` ignoring NaNs (``numpy.nanmean``; NaN where all are NaN).

    >>> nanmean([1.0, float("nan"), 2.0]).compute()
    array(1.5)
    """
    reject_out("nanmean", out)
    x = as_tensor(a)
    if np.dtype(x.dtype).kind not in "fc":
        return wrap(lt.mean(x, axis=as_axis(axis), dtype=dtype, keepdims=keepdims))
    valid = lt.logical_not(lt.isnan(x))
    total = lt.sum(
        lt.where(valid, x, lt.zeros((), dtype=x.dtype)),
        axis=as_axis(axis),
        dtype=dtype,
        keepdims=keepdims,
    )
    count = lt.sum(valid, axis=as_axis(axis), keepdims=keepdims)
    return wrap(lt.divide(total, lt.cast(count, lt.real(total).dtype)))


def _nan_extremum(name: str, a: ArrayLike, axis: Any, out: Any, keepdims: bool) -> Array:
    reject_out(name, out)
    x = as_tensor(a)
    fn = lt.max if name == "nanmax" else lt.min
    if np.dtype(x.dtype).kind != "f":
        return wrap(fn(x, axis=as_axis(axis), keepdims=keepdims))
    nan = lt.isnan(x)
    fill = lt.full((), -np.inf if name == "nanmax" else np.inf, dtype=x.dtype)
    result = fn(lt.where(nan, fill, x), axis=as_axis(axis), keepdims=keepdims)
    # An all-NaN slice gives NaN (numpy also warns).
    all_nan = lt.all(nan, axis=as_axis(axis), keepdims=keepdims)
    return wrap(lt.where(all_nan, lt.full((), np.nan, dtype=x.dtype), result))


def nanmax(a: ArrayLike, axis: Any = None, out: None = None, keepdims: bool = False) -> Array:
    """The largest element over ``axis`` ignoring NaNs; NaN for an all-NaN slice
    (``numpy.nanmax``).

    >>> nanmax([[1.0, float("nan")], [float("nan"), float("nan")]], axis=1).compute()
    array([ 1., nan])
    """
    return _nan_extremum("nanmax", a, axis, out, keepdims)


def nanmin(a: ArrayLike, axis: Any = None, out: None = None, keepdims: bool = False) -> Array:
    """The smallest element over ``axis`` ignoring NaNs (``numpy.nanmin``).

    >>> nanmin([2.0, float("nan"), 1.0]).compute()
    array(1.)
    """
    return _nan_extremum("nanmin", a, axis, out, keepdims)


def nanprod(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    keepdims: bool = False,
) -> Array:
    """The product over ``axis`` treating NaN as one (``numpy.nanprod``).

    >>> nanprod([2.0, float("nan"), 3.0]).compute()
    array(6.)
    """
    reject_out("nanprod", out)
    x = as_tensor(a)
    x = nan_replaced(x, 1)
    return wrap(lt.prod(x, axis=as_axis(axis), dtype=dtype, keepdims=keepdims))


def _nanvar(name: str, a: ArrayLike, axis: Any, dtype: Any, ddof: float, keepdims: bool) -> Any:
    x = as_tensor(a)
    if np.dtype(x.dtype).kind not in "fc":
        return lt.var(x, axis=as_axis(axis), dtype=dtype, keepdims=keepdims, correction=ddof)

    if x.ndim == 0 and type(axis) is int and axis in (0, -1):
        axis = None  # numpy's float path reduces a 0-d array over "axis 0" as over every axis
    if dtype is not None:
        x = lt.cast(x, dtype)
    valid = lt.logical_not(lt.isnan(x))
    zero = lt.zeros((), dtype=x.dtype)
    count = lt.sum(valid, axis=as_axis(axis), keepdims=True)
    mean = lt.divide(lt.sum(lt.where(valid, x, zero), axis=as_axis(axis), keepdims=True), count)
    centered = lt.where(valid, lt.subtract(x, lt.cast(mean, x.dtype)), zero)
    squares = lt.real(lt.multiply(centered, lt.conj(centered)))
    dof = lt.subtract(count, ddof)
    total = lt.sum(squares, axis=as_axis(axis), keepdims=True)
    result = lt.divide(total, lt.cast(lt.maximum(dof, 0), squares.dtype))
    result = lt.where(lt.greater(dof, 0), result, lt.full((), np.nan, dtype=squares.dtype))
    if not keepdims:
        result = lt.squeeze(result, normalize_axes(as_axis(axis), x.ndim, name))
    return result


def nanvar(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    ddof: float = 0,
    keepdims: bool = False,
) -> Array:
    """The variance over ``axis`` ignoring NaNs, dividing by ``count - ddof``; NaN
    where that is not positive (``numpy.nanvar``).

    >>> nanvar([1.0, float("nan"), 3.0]).compute()
    array(1.)
    """
    reject_out("nanvar", out)
    return wrap(_nanvar("nanvar", a, axis, dtype, ddof, keepdims))


def nanstd(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    ddof: float = 0,
    keepdims: bool = False,
) -> Array:
    """The standard deviation over ``axis`` ignoring NaNs (``numpy.nanstd``).

    >>> nanstd([1.0, float("nan"), 3.0]).compute()
    array(1.)
    """
    reject_out("nanstd", out)
    return wrap(lt.sqrt(_nanvar("nanstd", a, axis, dtype, ddof, keepdims)))


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

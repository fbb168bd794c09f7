"""numpy's NaN-ignoring reductions (``nanmax``, ``nanmin``, ``nanprod``,
``nanvar``, ``nanstd``), quantiles (``quantile``, ``percentile``, the default
linear method) and ``cov``/``corrcoef`` (re-exported by
:mod:`lazygraph.numpy._statistical`).

>>> nanmax([1.0, float("nan"), 3.0]).compute()
array(3.)
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_axis, as_tensor, nan_replaced, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike, reject_out
from lazygraph.tensor.shape import normalize_axes

__all__ = [
    "corrcoef",
    "cov",
    "nanmax",
    "nanmin",
    "nanprod",
    "nanstd",
    "nanvar",
    "percentile",
    "quantile",
]


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


def cov(
    m: ArrayLike,
    y: ArrayLike = None,
    rowvar: bool = True,
    bias: bool = False,
    ddof: int | None = None,
    fweights: Any = None,
    aweights: Any = None,
    *,
    dtype: DTypeLike = None,
) -> Array:
    """The covariance matrix of the variables in the rows of ``m`` (columns when
    ``rowvar=False``), with ``y``'s variables appended (``numpy.cov``; divides by
    ``N - 1``, or ``N`` with ``bias``, or ``N - ddof``).

    >>> cov([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]).compute()
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    if fweights is not None or aweights is not None:
        raise UnsupportedArgumentsError("cov: fweights and aweights are not supported by lazygraph")
    x = as_tensor(m)
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    w = None if y is None else as_tensor(y)
    if w is not None and w.ndim > 2:
        raise ValueError("y has more than 2 dimensions")
    if dtype is not None:
        dt = np.dtype(dtype)
    else:
        dt = np.result_type(*(np.dtype(v.dtype) for v in (x, w) if v is not None), np.float64)
    ndim = x.ndim
    x = lt.cast(x, dt)
    x = lt.reshape(x, (1, -1)) if x.ndim < 2 else x
    if not rowvar and ndim != 1:
        x = lt.transpose(x)
    if x.type.shape[0] == 0:
        return wrap(lt.zeros((0, 0), dtype="float64"))
    if w is not None:
        w = lt.cast(w, dt)
        w = lt.reshape(w, (1, -1)) if w.ndim < 2 else w
        if not rowvar and w.type.shape[0] != 1:
            w = lt.transpose(w)
        x = lt.concatenate([x, w], axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    count = lt.shape_tuple(x)[1]
    centered = lt.subtract(x, lt.mean(x, axis=1, keepdims=True))
    fact = lt.maximum(lt.subtract(count, ddof), 0)
    product = lt.matmul(centered, lt.conj(lt.transpose(centered)))
    result = lt.divide(product, lt.cast(fact, lt.real(product).dtype))
    return wrap(lt.squeeze(result))


def corrcoef(
    x: ArrayLike, y: ArrayLike = None, rowvar: bool = True, *, dtype: DTypeLike = None
) -> Array:
    """Pearson correlation coefficients of the variables (``numpy.corrcoef``),
    clipped to [-1, 1].

    >>> corrcoef([[0.0, 1.0, 2.0], [2.0, 1.0, 0.5]]).compute().round(4)
    array([[ 1.   , -0.982],
           [-0.982,  1.   ]])
    """
    c = cov(x, y, rowvar, dtype=dtype)._var
    if c.ndim == 0:
        return wrap(lt.divide(c, c))
    d = lt.diagonal(c)
    stddev = lt.sqrt(lt.real(d))
    c = lt.divide(c, lt.expand_dims(stddev, 1))
    c = lt.divide(c, lt.expand_dims(stddev, 0))
    if np.dtype(c.dtype).kind == "c":
        re = lt.clip(lt.real(c), -1, 1)
        im = lt.clip(lt.imag(c), -1, 1)
        return wrap(lt.add(lt.cast(re, c.dtype), lt.multiply(lt.cast(im, c.dtype), 1j)))
    return wrap(lt.clip(c, -1, 1))

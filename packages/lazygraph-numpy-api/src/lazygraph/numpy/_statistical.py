"""Reductions and statistics with numpy's signatures: ``sum``, ``prod``,
``mean``, ``var``, ``std``, ``max``/``min`` (and ``amax``/``amin``), ``ptp``,
``average``, the cumulative functions, and ``cov``/``corrcoef``. The
NaN-ignoring forms are in :mod:`lazygraph.numpy._statistical_nan`, ``median``,
``quantile`` and ``percentile`` in :mod:`lazygraph.numpy._statistical_order`,
histograms in :mod:`lazygraph.numpy._statistical_histogram`.

``axis`` may be an int, a tuple or None; out-of-range axes raise numpy's
``AxisError`` naming the function. ``keepdims``, ``dtype``, ``initial`` work as
in numpy; so do ``where=`` (the elements it leaves out take no part) and
``out=`` (the result is written into it).

>>> x = [[1.0, 2.0], [3.0, 5.0]]
>>> sum(x, axis=0).compute(), mean(x, keepdims=True).shape
(array([4., 7.]), (1, 1))
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_axis, as_tensor, as_variable, wrap
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike, accepts_out
from lazygraph.tensor.shape import normalize_axes

__all__ = [
    "amax",
    "amin",
    "average",
    "corrcoef",
    "cov",
    "cumprod",
    "cumsum",
    "cumulative_prod",
    "cumulative_sum",
    "max",
    "mean",
    "min",
    "prod",
    "ptp",
    "std",
    "sum",
    "var",
]

_NO_VALUE: Any = object()


def _masked(a: ArrayLike, where: Any, fill: Any) -> Any:
    """``a`` with ``fill`` where ``where`` is False (numpy's ``where=`` of a
    reduction: those elements take no part), broadcast to their joint shape."""
    x = as_tensor(a)
    if where is _NO_VALUE or where is True:
        return x
    mask = as_tensor(where)
    if mask.dtype != "bool":
        raise TypeError(f"where= must be a boolean array (got dtype('{mask.dtype}'))")
    return lt.where(mask, x, lt.cast(lt.as_tensor_variable(fill), x.dtype))


def _count(x: Any, where: Any, axis: Any, keepdims: bool) -> Any:
    """How many elements of ``x`` take part in a reduction over ``axis``."""
    mask = lt.broadcast_to(as_tensor(where), lt.shape_tuple(x))
    return lt.sum(lt.cast(mask, "int64"), axis=axis, keepdims=keepdims)


@accepts_out()
def sum(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    keepdims: bool = False,
    initial: Any = _NO_VALUE,
    where: Any = _NO_VALUE,
) -> Array:
    """The sum over ``axis`` (``numpy.sum``): bool and small integers accumulate
    in int64 (unsigned in uint64) unless ``dtype`` is given; ``initial`` is added.

    >>> sum([[1, 2], [3, 4]], axis=1).compute()
    array([3, 7])
    """
    result = lt.sum(_masked(a, where, 0), axis=as_axis(axis), dtype=dtype, keepdims=keepdims)
    if initial is not _NO_VALUE:
        result = lt.cast(lt.add(result, initial), result.dtype)
    return wrap(result)


@accepts_out()
def prod(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    keepdims: bool = False,
    initial: Any = _NO_VALUE,
    where: Any = _NO_VALUE,
) -> Array:
    """The product over ``axis`` (``numpy.prod``; integers accumulate as in
    :func:`sum`); ``initial`` multiplies the result.

    >>> prod([[1, 2], [3, 4]]).compute()
    array(24)
    """
    result = lt.prod(_masked(a, where, 1), axis=as_axis(axis), dtype=dtype, keepdims=keepdims)
    if initial is not _NO_VALUE:
        result = lt.cast(lt.multiply(result, initial), result.dtype)
    return wrap(result)


def _extremum(
    name: str, a: ArrayLike, axis: Any, out: Any, keepdims: bool, initial: Any, where: Any
) -> Array:
    fn = lt.max if name in ("max", "amax") else lt.min
    if where is not _NO_VALUE and where is not True:
        if initial is _NO_VALUE:
            ufunc = "maximum" if fn is lt.max else "minimum"
            raise ValueError(
                f"reduction operation '{ufunc}' does not have an identity, so to use a "
                "where mask one has to specify 'initial'"
            )
        a = _masked(a, where, initial)
    x = as_tensor(a)
    if initial is _NO_VALUE:
        return wrap(fn(x, axis=as_axis(axis), keepdims=keepdims))
    if x.ndim == 0 and type(axis) is int and axis in (0, -1):
        axis = ()  # numpy reduces a 0-d array over "axis 0" as over no axis
    # ``initial`` takes part in the reduction (and is the result of an empty one):
    # move the reduced axes last, flatten them, and append one column of it.
    axes = normalize_axes(as_axis(axis), x.ndim, name)
    kept = [i for i in range(x.ndim) if i not in axes]
    sizes = lt.shape_tuple(x)
    count: Any = 1
    for i in axes:
        count = count * sizes[i] if isinstance(sizes[i], int) else lt.multiply(count, sizes[i])
    kept_sizes = [sizes[i] for i in kept]
    flat = lt.reshape(lt.transpose(x, kept + list(axes)), [*kept_sizes, count])
    column = lt.full([*kept_sizes, 1], initial, dtype=x.dtype)
    # ``initial`` first: on ties (0.0 and -0.0) numpy's reduction keeps it.
    result = fn(lt.concatenate([column, flat], axis=-1), axis=-1)
    if keepdims and axes:
        result = lt.expand_dims(result, axes)
    return wrap(result)


@accepts_out()
def max(
    a: ArrayLike,
    axis: Any = None,
    out: None = None,
    keepdims: bool = False,
    initial: Any = _NO_VALUE,
    where: Any = _NO_VALUE,
) -> Array:
    """The largest element over ``axis``, NaN if any is NaN (``numpy.max``); an
    empty reduction is a ValueError unless ``initial`` is given.

    >>> max([[1, 5], [3, 4]], axis=0).compute()
    array([3, 5])
    >>> max([], initial=0.0).compute()
    array(0.)
    """
    return _extremum("max", a, axis, out, keepdims, initial, where)


@accepts_out()
def min(
    a: ArrayLike,
    axis: Any = None,
    out: None = None,
    keepdims: bool = False,
    initial: Any = _NO_VALUE,
    where: Any = _NO_VALUE,
) -> Array:
    """The smallest element over ``axis``, NaN if any is NaN (``numpy.min``).

    >>> min([[1, 5], [3, 4]], axis=1).compute()
    array([1, 3])
    """
    return _extremum("min", a, axis, out, keepdims, initial, where)


amax = max
amin = min


@accepts_out(casting="same_kind")
def ptp(a: ArrayLike, axis: Any = None, out: None = None, keepdims: bool = False) -> Array:
    """The range ``max - min`` over ``axis`` (``numpy.ptp``).

    >>> ptp([[1, 5], [3, 4]], axis=1).compute()
    array([4, 1])
    """
    x = as_tensor(a)
    hi = lt.max(x, axis=as_axis(axis), keepdims=keepdims)
    lo = lt.min(x, axis=as_axis(axis), keepdims=keepdims)
    return wrap(lt.subtract(hi, lo))


@accepts_out()
def mean(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    keepdims: bool = False,
    *,
    where: Any = _NO_VALUE,
) -> Array:
    """The arithmetic mean over ``axis`` (``numpy.mean``): bool and integer
    inputs give float64; an empty reduction is NaN.

    >>> mean([[1, 2], [3, 5]], axis=0).compute()
    array([2. , 3.5])
    """
    if where is _NO_VALUE or where is True:
        return wrap(lt.mean(as_variable(a), axis=as_axis(axis), dtype=dtype, keepdims=keepdims))
    return wrap(_masked_mean(a, where, axis, dtype, keepdims))


def _masked_mean(a: ArrayLike, where: Any, axis: Any, dtype: Any, keepdims: bool) -> Any:
    """The mean over the elements ``where`` selects (NaN where it selects none)."""
    x = as_tensor(a)
    if dtype is None:
        dtype = "float64" if np.dtype(x.dtype).kind in "biu" else x.dtype
    total = lt.sum(lt.cast(_masked(x, where, 0), dtype), axis=as_axis(axis), keepdims=keepdims)
    count = _count(x, where, as_axis(axis), keepdims)
    return lt.cast(lt.true_divide(total, lt.cast(count, dtype)), dtype)


def _masked_var(
    a: ArrayLike, where: Any, axis: Any, dtype: Any, keepdims: bool, c: float, centre: Any
) -> Any:
    """The variance over the elements ``where`` selects (all when it is True),
    ``c`` the correction, about ``centre`` (the mean unless given)."""
    x = as_tensor(a)
    if where is _NO_VALUE:
        where = True
    if dtype is None:
        dtype = "float64" if np.dtype(x.dtype).kind in "biu" else x.dtype
    x = lt.cast(x, dtype)
    given = centre is not _NO_VALUE
    centre = as_tensor(centre) if given else _masked_mean(x, where, axis, dtype, True)
    d = lt.subtract(x, centre)
    sq = lt.real(lt.multiply(d, lt.conj(d))) if np.dtype(dtype).kind == "c" else lt.multiply(d, d)
    total = lt.sum(_masked(sq, where, 0), axis=as_axis(axis), keepdims=keepdims)
    count = _count(x, where, as_axis(axis), keepdims)
    real = np.dtype(dtype).type(0).real.dtype.name
    divisor = lt.cast(lt.subtract(lt.cast(count, "float64"), c), real)
    return lt.cast(lt.true_divide(total, divisor), real)


@accepts_out()
def var(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    ddof: float = 0,
    keepdims: bool = False,
    *,
    where: Any = _NO_VALUE,
    mean: Any = _NO_VALUE,
    correction: float | None = None,
) -> Array:
    """The variance over ``axis``, dividing by ``N - ddof`` (``numpy.var``; the
    array API's ``correction`` is the same number). Complex input gives a real result.

    >>> var([1.0, 2.0, 3.0, 4.0]).compute()
    array(1.25)
    """
    if correction is not None and ddof != 0:
        raise ValueError("var: ddof and correction can't be provided simultaneously.")
    c = correction if correction is not None else ddof
    if (where is not _NO_VALUE and where is not True) or mean is not _NO_VALUE:
        return wrap(_masked_var(a, where, axis, dtype, keepdims, c, mean))
    return wrap(
        lt.var(as_variable(a), axis=as_axis(axis), dtype=dtype, keepdims=keepdims, correction=c)
    )


@accepts_out(casting="same_kind")
def std(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    ddof: float = 0,
    keepdims: bool = False,
    *,
    where: Any = _NO_VALUE,
    mean: Any = _NO_VALUE,
    correction: float | None = None,
) -> Array:
    """The standard deviation over ``axis``, the square root of :func:`var`
    (``numpy.std``).

    >>> std([1.0, 3.0], ddof=1).compute()
    array(1.41421356)
    """
    if correction is not None and ddof != 0:
        raise ValueError("std: ddof and correction can't be provided simultaneously.")
    c = correction if correction is not None else ddof
    if (where is not _NO_VALUE and where is not True) or mean is not _NO_VALUE:
        return wrap(lt.sqrt(_masked_var(a, where, axis, dtype, keepdims, c, mean)))
    return wrap(
        lt.std(as_variable(a), axis=as_axis(axis), dtype=dtype, keepdims=keepdims, correction=c)
    )


def average(
    a: ArrayLike,
    axis: Any = None,
    weights: ArrayLike = None,
    returned: bool = False,
    *,
    keepdims: bool = False,
) -> Any:
    """The weighted mean over ``axis`` (``numpy.average``); ``returned=True`` also
    returns the sum of the weights.

    >>> average([1.0, 2.0, 4.0], weights=[1, 1, 2]).compute()
    array(2.75)
    """
    x = as_tensor(a)
    if weights is None:
        result = lt.mean(x, axis=as_axis(axis), keepdims=keepdims)
        if not returned:
            return wrap(result)
        count = lt.cast(
            lt.sum(lt.ones_like(x), axis=as_axis(axis), keepdims=keepdims), result.dtype
        )
        return wrap(result), wrap(lt.broadcast_to(count, lt.shape_tuple(result)))
    w = as_tensor(weights)
    if w.ndim != x.ndim:
        if axis is None:
            raise TypeError("average: axis must be specified when shapes of a and weights differ.")
        if w.ndim != 1:
            raise TypeError("average: 1D weights expected when shapes of a and weights differ.")
        ax = normalize_axes(as_axis(axis), x.ndim, "average")
        if len(ax) != 1:
            raise ValueError("average: the weights must have the shape of a along axis")
        shape = [1] * x.ndim
        shape[ax[0]] = -1
        w = lt.reshape(w, shape)
    dtype = lt.result_type(x, w, "float64") if np.dtype(x.dtype).kind in "biu" else None
    dtype = dtype or lt.result_type(x, w)
    xw = lt.multiply(lt.cast(x, dtype), w)
    scale = lt.sum(
        lt.cast(lt.broadcast_to(w, lt.shape_tuple(xw)), dtype),
        axis=as_axis(axis),
        keepdims=keepdims,
    )
    result = lt.divide(lt.sum(xw, axis=as_axis(axis), keepdims=keepdims), scale)
    if returned:
        return wrap(result), wrap(lt.broadcast_to(scale, lt.shape_tuple(result)))
    return wrap(result)


@accepts_out()
def cumsum(
    a: ArrayLike, axis: int | None = None, dtype: DTypeLike = None, out: None = None
) -> Array:
    """The running sum along ``axis`` (of the flattened array if None) (``numpy.cumsum``).

    >>> cumsum([[1, 2], [3, 4]]).compute()
    array([ 1,  3,  6, 10])
    """
    return wrap(lt.cumsum(as_variable(a), axis=axis, dtype=dtype))


@accepts_out()
def cumprod(
    a: ArrayLike, axis: int | None = None, dtype: DTypeLike = None, out: None = None
) -> Array:
    """The running product along ``axis`` (of the flattened array if None)
    (``numpy.cumprod``).

    >>> cumprod([1, 2, 3]).compute()
    array([1, 2, 6])
    """
    return wrap(lt.cumprod(as_variable(a), axis=axis, dtype=dtype))


@accepts_out()
def cumulative_sum(
    x: ArrayLike,
    /,
    *,
    axis: int | None = None,
    dtype: DTypeLike = None,
    out: None = None,
    include_initial: bool = False,
) -> Array:
    """The running sum along ``axis``, which arrays of 2 or more dimensions must
    name; ``include_initial`` starts with 0 (``numpy.cumulative_sum``).

    >>> cumulative_sum([1, 2, 3], include_initial=True).compute()
    array([0, 1, 3, 6])
    """
    return wrap(
        lt.cumulative_sum(as_variable(x), axis=axis, dtype=dtype, include_initial=include_initial)
    )


@accepts_out()
def cumulative_prod(
    x: ArrayLike,
    /,
    *,
    axis: int | None = None,
    dtype: DTypeLike = None,
    out: None = None,
    include_initial: bool = False,
) -> Array:
    """The running product along ``axis``; ``include_initial`` starts with 1
    (``numpy.cumulative_prod``).

    >>> cumulative_prod([1, 2, 3]).compute()
    array([1, 2, 6])
    """
    return wrap(
        lt.cumulative_prod(as_variable(x), axis=axis, dtype=dtype, include_initial=include_initial)
    )


# -- correlating -----------------------------------------------------------------


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
    ``N - 1``, or ``N`` with ``bias``, or ``N - ddof``). ``fweights`` (integer
    repeat counts) and ``aweights`` (importance weights) weight the
    observations as numpy's do.

    >>> cov([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]).compute()
    array([[ 1., -1.],
           [-1.,  1.]])
    >>> float(cov([0.0, 1.0, 2.0], aweights=[1.0, 1.0, 2.0]).compute().round(4))
    1.1
    """
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
    weights = _cov_weights(fweights, aweights, x.type.shape[1])
    if weights is None:
        count = lt.shape_tuple(x)[1]
        centered = lt.subtract(x, lt.mean(x, axis=1, keepdims=True))
        fact = lt.maximum(lt.subtract(count, ddof), 0)
        product = lt.matmul(centered, lt.conj(lt.transpose(centered)))
    else:
        w, aw = weights
        w_sum = lt.sum(w)
        avg = lt.divide(lt.sum(lt.multiply(x, w), axis=1, keepdims=True), w_sum)
        if ddof == 0:
            fact = w_sum
        elif aw is None:
            fact = lt.subtract(w_sum, ddof)
        else:
            fact = lt.subtract(w_sum, lt.divide(lt.multiply(ddof, lt.sum(w * aw)), w_sum))
        fact = lt.maximum(fact, 0)
        centered = lt.subtract(x, avg)
        product = lt.matmul(centered, lt.conj(lt.transpose(lt.multiply(centered, w))))
    result = lt.divide(product, lt.cast(fact, lt.real(product).dtype))
    return wrap(lt.squeeze(result))


def _cov_weights(fweights: Any, aweights: Any, n: int | None) -> tuple[Any, Any] | None:
    """``(w, aweights)`` for cov: the product of the weights given, float64 (numpy's
    checks on their dtype, shape and, where known now, signs); None without any."""
    if fweights is None and aweights is None:
        return None
    w = aw = None
    for name, given in (("fweights", fweights), ("aweights", aweights)):
        if given is None:
            continue
        v = as_tensor(given)
        if name == "fweights" and np.dtype(v.dtype).kind not in "biu":
            raise TypeError("fweights must be integer")
        if v.ndim != 1:
            raise RuntimeError(f"cannot handle multidimensional {name}")
        if n is not None and v.type.shape[0] not in (None, n):
            raise RuntimeError(f"incompatible numbers of samples and {name}")
        if not isinstance(given, Array) and np.any(np.asarray(given) < 0):
            raise ValueError(f"{name} cannot be negative")
        v = lt.cast(v, "float64")
        if name == "aweights":
            aw = v
        w = v if w is None else lt.multiply(w, v)
    return w, aw


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

"""Order statistics: ``median``, ``quantile`` and ``percentile`` (all of numpy's
``method`` values). They sort along the reduced axes; a size the data decides
(after a boolean mask) is computed first, as numpy code reading it would.

>>> median([3.0, 1.0, 2.0]).compute()
array(2.)
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_axis, as_tensor, known_value, wrap
from lazygraph.numpy._ufunc import ArrayLike, accepts_out
from lazygraph.tensor.shape import normalize_axes

__all__ = ["median", "percentile", "quantile"]


def _sized(a: ArrayLike) -> Any:
    """``a`` as a tensor whose sizes are all known: a size the data decides (a
    boolean mask's result) is computed, as numpy code reading it would."""
    x = as_tensor(a)
    if None in x.type.shape and isinstance(a, Array):
        shape = a.shape  # (concrete: computes the count where it must)
        if None not in shape:
            x = lt.specify_shape(x, shape)
    return x


@accepts_out()
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
    x = _sized(a)
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


#: (alpha, beta) of the Hyndman & Fan continuous methods numpy names
_ALPHA_BETA = {
    "interpolated_inverted_cdf": (0.0, 1.0),
    "hazen": (0.5, 0.5),
    "weibull": (0.0, 0.0),
    "median_unbiased": (1 / 3.0, 1 / 3.0),
    "normal_unbiased": (3 / 8.0, 3 / 8.0),
}
_METHODS = (
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    *_ALPHA_BETA,
    "linear",
    "lower",
    "higher",
    "midpoint",
    "nearest",
)


def _boundary(index: np.ndarray, take_previous: Any) -> np.ndarray:
    """numpy's discrete rule: the order statistic below ``index`` where
    ``take_previous(gamma, index)``, else the one above (clipped at 0)."""
    index = np.asarray(index)
    previous = np.floor(index)
    gamma = index - previous
    res = np.array(np.where(take_previous(gamma, index), previous, previous + 1)).astype(np.intp)
    res[res < 0] = 0
    return res  # type: ignore[no-any-return]


def _positions(name: str, method: str, n: int, q: np.ndarray) -> tuple[Any, Any, Any]:
    """Where each quantile ``q`` lies among ``n`` sorted values, as numpy
    computes it for ``method``: ``(index, None, None)`` for the methods that pick
    one order statistic, else ``(previous, next, gamma)`` for the interpolation
    between two (the same arithmetic as numpy's, so the same rounding)."""
    if method == "inverted_cdf":
        return _boundary(n * q - 1, lambda g, _: g == 0), None, None
    if method == "closest_observation":
        odd = lambda g, i: (g == 0) & (np.floor(i) % 2 == 1)  # noqa: E731
        return _boundary(n * q - 1 - 0.5, odd), None, None
    if method in ("lower", "higher", "nearest"):
        pick = {"lower": np.floor, "higher": np.ceil, "nearest": np.around}[method]
        return np.asarray(pick((n - 1) * q)).astype(np.intp), None, None
    if method == "linear":
        virtual = (n - 1) * q
    elif method == "averaged_inverted_cdf":
        virtual = n * q - 1
    elif method == "midpoint":
        virtual = 0.5 * (np.floor((n - 1) * q) + np.ceil((n - 1) * q))
    elif method in _ALPHA_BETA:
        alpha, beta = _ALPHA_BETA[method]
        virtual = n * q + (alpha + q * (1 - alpha - beta)) - 1
    else:
        raise ValueError(f"{name}: {method!r} is not a valid method. Use one of: {_METHODS}")
    virtual = np.asarray(virtual)
    previous = np.array(np.floor(virtual))
    following = np.array(previous + 1)
    above, below = virtual >= n - 1, virtual < 0
    previous[above] = following[above] = -1
    previous[below] = following[below] = 0
    gamma = np.asarray(virtual - previous)
    if method == "averaged_inverted_cdf":
        gamma = np.where(gamma == 0, 0.5, 1.0)
    elif method == "midpoint":
        gamma = np.where(virtual % 1 == 0, 0.0, 0.5)
    return previous.astype(np.intp), following.astype(np.intp), gamma.astype(virtual.dtype)


def _weights_flat(name: str, x: Any, weights: Any, axis: Any, axes: tuple[int, ...]) -> Any:
    """``weights`` checked as numpy checks them (``a``'s shape, or the reduced
    axes' sizes with ``axis`` given; no negative, NaN or infinite weights and no
    all-zero slice: the data's values are computed for that check when they are
    not known yet) and laid out as ``x``'s flattened reduced axes."""
    w = _sized(weights)
    kept = [i for i in range(x.ndim) if i not in axes]
    if w.type.shape != x.type.shape:
        if axis is None:
            raise TypeError(f"{name}: Axis must be specified when shapes of a and weights differ.")
        if w.type.shape != tuple(x.type.shape[i] for i in axes):
            raise ValueError(
                f"{name}: Shape of weights must be consistent with shape of a along "
                f"specified axis (a: {x.type.shape}, weights: {w.type.shape}, axis: {axes})."
            )
        # numpy matches the weights' axes to the reduced axes in increasing order
        w = lt.transpose(w, [int(i) for i in np.argsort(axes)])
        w = lt.reshape(w, [s if i in axes else 1 for i, s in enumerate(lt.shape_tuple(x))])
    w = lt.broadcast_to(w, lt.shape_tuple(x))
    sizes = lt.shape_tuple(x)
    reduced = lt.reshape(lt.transpose(w, kept + list(axes)), [*(sizes[i] for i in kept), -1])
    total = lt.sum(lt.cast(reduced, "float64"), axis=-1)
    bad = lt.any(lt.less(reduced, 0))
    degenerate = lt.any(lt.logical_or(lt.logical_not(lt.isfinite(total)), lt.equal(total, 0)))
    checks = known_value(wrap(lt.stack([bad, degenerate]))._var)
    negative, empty = checks if checks is not None else wrap(lt.stack([bad, degenerate])).compute()
    if negative:
        raise ValueError(f"{name}: Weights must be non-negative.")
    if empty:
        raise ValueError(f"{name}: Weights included NaN, inf or were all zero.")
    return reduced


def _weighted_picks(flat: Any, w: Any, q: np.ndarray, n: int) -> tuple[Any, Any]:
    """numpy's weighted ``inverted_cdf``: the first sorted value whose share of
    the total weight (the running sum, in float64, then ``q``'s float dtype)
    reaches each ``q``; zero shares never match (numpy makes them -1). Returns
    the sorted values and the picks ``[kept..., q.size]``."""
    order = lt.argsort(flat, axis=-1)
    ordered = lt.take_along_axis(flat, order, axis=-1)
    cdf = lt.cumsum(lt.take_along_axis(w, order, axis=-1), axis=-1, dtype="float64")
    cdf = lt.true_divide(cdf, lt.getitem(cdf, (Ellipsis, slice(n - 1, n))))
    if q.dtype.kind == "f":
        cdf = lt.cast(cdf, q.dtype)
    cdf = lt.where(lt.equal(cdf, 0), lt.full((), -1, dtype=cdf.dtype), cdf)
    qs = lt.constant(q.reshape(-1, 1).astype(cdf.dtype))
    below = lt.less(lt.expand_dims(cdf, -2), qs)  # [kept..., q.size, n]
    index = lt.minimum(lt.sum(below, axis=-1, dtype="int64"), n - 1)
    return ordered, lt.take_along_axis(ordered, index, axis=-1)


def _unweighted(
    name: str, flat: Any, q: np.ndarray, method: str, n: int, dtype: Any, picks: bool
) -> tuple[Any, Any]:
    """The sorted values and numpy's ``method`` quantiles ``[kept..., q.size]``."""
    previous, following, gamma = _positions(name, method, n, q.astype(np.float64))
    ordered = lt.sort(flat, axis=-1)
    if picks:
        return ordered, lt.take(ordered, np.asarray(previous).reshape(-1) % n, axis=-1)
    below = lt.take(ordered, previous.reshape(-1) % n, axis=-1)
    above = lt.take(ordered, following.reshape(-1) % n, axis=-1)
    t_flat = gamma.astype(dtype).reshape(-1)
    # as numpy: the difference in ``a``'s dtype, the interpolation in the result's
    diff = lt.cast(lt.subtract(above, below), dtype)
    below, above = lt.cast(below, dtype), lt.cast(above, dtype)
    # numpy's lerp: from the nearer end, so t = 1 gives ``above`` exactly.
    return ordered, lt.where(
        t_flat >= 0.5,
        lt.subtract(above, lt.multiply(diff, 1 - t_flat)),
        lt.add(below, lt.multiply(diff, t_flat)),
    )


def _quantile(
    name: str,
    a: ArrayLike,
    q: np.ndarray,
    weak: bool,
    axis: Any,
    method: str,
    keepdims: bool,
    weights: Any = None,
) -> Array:
    x = _sized(a)
    if np.dtype(x.dtype).kind == "c":
        raise TypeError(f"{name}: a must be an array of real numbers")
    if method not in _METHODS:
        raise ValueError(f"{name}: {method!r} is not a valid method. Use one of: {_METHODS}")
    if weights is not None and method != "inverted_cdf":
        raise ValueError(f"{name}: Only method 'inverted_cdf' supports weights. Got: {method}.")
    axes = normalize_axes(as_axis(axis), x.ndim, name)
    kept = [i for i in range(x.ndim) if i not in axes]
    sizes = lt.shape_tuple(x)
    n = 1
    for i in axes:
        if not isinstance(sizes[i], int):
            raise ValueError(f"{name}: the sizes of the reduced axes must be known")
        n *= sizes[i]
    flat = lt.reshape(lt.transpose(x, kept + list(axes)), [*(sizes[i] for i in kept), n])
    picks = method in ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")
    # numpy's linear method at integer q (0 or 1) takes the values, in ``a``'s dtype
    picks = picks or (method == "linear" and q.dtype.kind in "biu")
    # The result dtype: ``a``'s promoted with ``q``'s, a Python scalar ``q`` weak
    # (``a``'s own where one order statistic is picked).
    dtype = flat.dtype if picks else lt.result_type(flat, q.item() if weak else q.dtype)
    if n == 0:
        # numpy indexes the empty sorted axis: always for inexact data (its NaN
        # check reads the last element), only for a non-empty q otherwise.
        if q.size or np.dtype(x.dtype).kind in "fc":
            raise IndexError(f"{name}: index -1 is out of bounds for axis 0 with size 0")
        shape = [*(sizes[i] for i in kept), *q.shape]
        result = lt.zeros(shape, dtype=dtype if picks else lt.result_type(dtype, 0.5))
        result = lt.moveaxis(result, list(range(len(kept), result.ndim)), list(range(q.ndim)))
        if keepdims:
            result = lt.expand_dims(result, tuple(q.ndim + i for i in axes))
        return wrap(result)
    if weights is not None:
        w = _weights_flat(name, x, weights, axis, axes)
        ordered, result = _weighted_picks(flat, w, q, n)
    else:
        ordered, result = _unweighted(name, flat, q, method, n, dtype, picks)
    if np.dtype(dtype).kind in "fc":
        last = lt.getitem(ordered, (Ellipsis, slice(n - 1, n)))
        result = lt.where(lt.isnan(last), last, result)  # a NaN anywhere gives NaN
    result = lt.reshape(result, [*(sizes[i] for i in kept), *q.shape])
    result = lt.moveaxis(result, list(range(len(kept), result.ndim)), list(range(q.ndim)))
    if keepdims:
        result = lt.expand_dims(result, tuple(q.ndim + i for i in axes))
    return wrap(result)


@accepts_out(exact=None)  # (numpy broadcasts into out here)
def quantile(
    a: ArrayLike,
    q: Any,
    axis: Any = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
) -> Array:
    """The ``q``-th quantiles over ``axis`` (``numpy.quantile``, with any of
    numpy's ``method`` values; ``q`` in [0, 1] must be known when the graph is
    built, the result's leading axes are ``q``'s).

    >>> quantile([1.0, 2.0, 3.0, 4.0], [0.25, 0.5]).compute()
    array([1.75, 2.5 ])
    """
    qs = np.asanyarray(q)
    if not np.all((qs >= 0) & (qs <= 1)):
        raise ValueError("Quantiles must be in the range [0, 1]")
    weak = lt.is_weak_scalar(q)
    return _quantile("quantile", a, qs, weak, axis, method, keepdims, weights)


@accepts_out(exact=None)  # (numpy broadcasts into out here)
def percentile(
    a: ArrayLike,
    q: Any,
    axis: Any = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
) -> Array:
    """The ``q``-th percentiles over ``axis`` (``numpy.percentile``; ``q`` in
    [0, 100]).

    >>> percentile([[1.0, 3.0], [5.0, 7.0]], 50, axis=1).compute()
    array([2., 6.])
    """
    qs = np.asanyarray(q)
    if not np.all((qs >= 0) & (qs <= 100)):
        raise ValueError("Percentiles must be in the range [0, 100]")
    weak = lt.is_weak_scalar(q)
    return _quantile(
        "percentile", a, np.true_divide(qs, 100), weak, axis, method, keepdims, weights
    )

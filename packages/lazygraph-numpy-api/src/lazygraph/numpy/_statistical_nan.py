"""Statistics that ignore NaNs (numpy's ``nan*`` functions): ``nansum``,
``nanprod``, ``nanmean``, ``nanvar``, ``nanstd``, ``nanmax``/``nanmin``,
``nanargmax``/``nanargmin``, the order statistics ``nanmedian``,
``nanquantile`` and ``nanpercentile``, and the running
``nancumsum``/``nancumprod``.

>>> nanmax([1.0, float("nan"), 3.0]).compute()
array(3.)
"""

from __future__ import annotations

import warnings
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy import _replay
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_axis, as_tensor, known_value, nan_replaced, wrap
from lazygraph.numpy._statistical import _NO_VALUE, mean, prod, sum, var
from lazygraph.numpy._statistical_order import _METHODS
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike, accepts_out
from lazygraph.tensor.shape import normalize_axes
from lazygraph.tensor.variable import TensorVariable

__all__ = [
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmedian",
    "nanmin",
    "nanpercentile",
    "nanprod",
    "nanquantile",
    "nanstd",
    "nansum",
    "nanvar",
]


@accepts_out()
def nansum(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    keepdims: bool = False,
    initial: Any = _NO_VALUE,
    where: Any = _NO_VALUE,
) -> Array:
    """The sum over ``axis`` treating NaN as zero (``numpy.nansum``; ``initial``
    and ``where`` as :func:`lazygraph.numpy.sum`'s).

    >>> nansum([1.0, float("nan"), 2.0]).compute()
    array(3.)
    """
    x = nan_replaced(as_tensor(a), 0)
    return sum(wrap(x), axis, dtype, keepdims=keepdims, initial=initial, where=where)


@accepts_out()
def nanmean(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    keepdims: bool = False,
    *,
    where: Any = _NO_VALUE,
) -> Array:
    """The mean over ``axis`` ignoring NaNs (``numpy.nanmean``; NaN where all are
    NaN, with numpy's RuntimeWarning when the data is known).

    >>> nanmean([1.0, float("nan"), 2.0]).compute()
    array(1.5)
    """
    x = as_tensor(a)
    if np.dtype(x.dtype).kind not in "fc":
        return mean(wrap(x), axis, dtype, keepdims=keepdims, where=where)
    _check_inexact("nanmean", dtype)
    valid = _valid(x, where)
    _warn_where("Mean of empty slice", x, where, axis, lambda n: n == 0)
    total = lt.sum(
        lt.where(valid, x, lt.zeros((), dtype=x.dtype)),
        axis=as_axis(axis),
        dtype=dtype,
        keepdims=keepdims,
    )
    count = lt.sum(valid, axis=as_axis(axis), keepdims=keepdims)
    return wrap(lt.divide(total, lt.cast(count, lt.real(total).dtype)))


def _check_inexact(name: str, dtype: Any) -> None:
    if dtype is not None and np.dtype(dtype).kind not in "fc":
        raise TypeError(f"{name}: If a is inexact, then dtype must be inexact")


def _valid(x: TensorVariable, where: Any) -> TensorVariable:
    """Where ``x`` is a number and ``where`` (numpy's mask of a reduction) holds."""
    valid = lt.logical_not(lt.isnan(x))
    if where is _NO_VALUE or where is True:
        return valid
    mask = as_tensor(where)
    if mask.dtype != "bool":
        raise TypeError(f"where= must be a boolean array (got dtype('{mask.dtype}'))")
    return lt.logical_and(valid, mask)


def _warn_where(message: str, x: TensorVariable, where: Any, axis: Any, bad: Any) -> None:
    """numpy's RuntimeWarning ``message`` when some slice's count of numbers
    (where ``where`` holds) is ``bad``, if the data is known now (data known
    only when computed gives NaN without a warning)."""
    value = known_value(x)
    if value is None or not value.size:
        return
    valid = ~np.isnan(value)
    if where is not _NO_VALUE and where is not True:
        mask = known_value(as_tensor(where))
        if mask is None:
            return
        valid = valid & mask
    counts = np.sum(valid, axis=as_axis(axis) if valid.ndim else None)
    if np.any(bad(counts)):
        from lazygraph.numpy._interop import _user_stacklevel

        warnings.warn(message, RuntimeWarning, stacklevel=_user_stacklevel())


def _nan_extremum(
    name: str, a: ArrayLike, axis: Any, keepdims: bool, initial: Any, where: Any
) -> Array:
    from lazygraph.numpy._statistical import max, min

    if where is not _NO_VALUE and where is not True and initial is _NO_VALUE:
        ufunc = "fmax" if name == "nanmax" else "fmin"
        raise ValueError(
            f"{name}: reduction operation '{ufunc}' does not have an identity, so to use "
            "a where mask one has to specify 'initial'"
        )
    x = as_tensor(a)
    plain = max if name == "nanmax" else min
    kind = np.dtype(x.dtype).kind
    if kind not in "fc":
        return plain(wrap(x), axis, keepdims=keepdims, initial=initial, where=where)  # type: ignore[no-any-return]
    valid = _valid(x, where)
    if initial is not _NO_VALUE:
        # numpy's fmax/fmin reduction from ``initial``: NaNs and masked elements
        # take no part, and an empty slice gives ``initial``
        filled = lt.where(valid, x, lt.cast(lt.as_tensor_variable(initial), x.dtype))
        return plain(wrap(filled), axis, keepdims=keepdims, initial=initial)  # type: ignore[no-any-return]
    _warn_where("All-NaN slice encountered", x, where, axis, lambda n: n == 0)
    fn = lt.max if name == "nanmax" else lt.min
    far = -np.inf if name == "nanmax" else np.inf
    # (complex values order by real part, then imaginary: (-inf, -inf) is below all)
    fill = lt.full((), complex(far, far) if kind == "c" else far, dtype=x.dtype)
    result = fn(lt.where(valid, x, fill), axis=as_axis(axis), keepdims=keepdims)
    # A slice with no number gives NaN (numpy's fmax/fmin reduction).
    none = lt.logical_not(lt.any(valid, axis=as_axis(axis), keepdims=keepdims))
    return wrap(lt.where(none, lt.full((), np.nan, dtype=x.dtype), result))


@accepts_out()
def nanmax(
    a: ArrayLike,
    axis: Any = None,
    out: None = None,
    keepdims: bool = False,
    initial: Any = _NO_VALUE,
    where: Any = _NO_VALUE,
) -> Array:
    """The largest element over ``axis`` ignoring NaNs; NaN for an all-NaN slice
    (``numpy.nanmax``).

    >>> nanmax([[1.0, float("nan")], [float("nan"), float("nan")]], axis=1).compute()
    array([ 1., nan])
    """
    return _nan_extremum("nanmax", a, axis, keepdims, initial, where)


@accepts_out()
def nanmin(
    a: ArrayLike,
    axis: Any = None,
    out: None = None,
    keepdims: bool = False,
    initial: Any = _NO_VALUE,
    where: Any = _NO_VALUE,
) -> Array:
    """The smallest element over ``axis`` ignoring NaNs (``numpy.nanmin``).

    >>> nanmin([2.0, float("nan"), 1.0]).compute()
    array(1.)
    """
    return _nan_extremum("nanmin", a, axis, keepdims, initial, where)


@accepts_out()
def nanprod(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    keepdims: bool = False,
    initial: Any = _NO_VALUE,
    where: Any = _NO_VALUE,
) -> Array:
    """The product over ``axis`` treating NaN as one (``numpy.nanprod``;
    ``initial`` and ``where`` as :func:`lazygraph.numpy.prod`'s).

    >>> nanprod([2.0, float("nan"), 3.0]).compute()
    array(6.)
    """
    x = nan_replaced(as_tensor(a), 1)
    return prod(wrap(x), axis, dtype, keepdims=keepdims, initial=initial, where=where)


def _nanvar(
    name: str, a: ArrayLike, axis: Any, dtype: Any, ddof: float, keepdims: bool, extra: Any
) -> Any:
    """numpy's nanvar; ``extra``: its keyword-only ``where``, ``mean`` (the
    centre, given) and ``correction`` (another name for ``ddof``)."""
    where, centre, correction = extra
    if correction is not _NO_VALUE:
        if ddof != 0:
            raise ValueError(f"{name}: ddof and correction can't be provided simultaneously.")
        ddof = correction
    x = as_tensor(a)
    if np.dtype(x.dtype).kind not in "fc":
        return var(wrap(x), axis, dtype, None, ddof, keepdims, where=where, mean=centre)._var
    _check_inexact(name, dtype)
    if x.ndim == 0 and type(axis) is int and axis in (0, -1):
        axis = None  # numpy's float path reduces a 0-d array over "axis 0" as over every axis
    _warn_where("Degrees of freedom <= 0 for slice.", x, where, axis, lambda n: n - ddof <= 0)
    if dtype is not None:
        x = lt.cast(x, dtype)
    valid = _valid(x, where)
    zero = lt.zeros((), dtype=x.dtype)
    count = lt.sum(valid, axis=as_axis(axis), keepdims=True)
    if centre is _NO_VALUE:
        total = lt.sum(lt.where(valid, x, zero), axis=as_axis(axis), keepdims=True)
        centre = lt.divide(total, count)
    centered = lt.where(valid, lt.subtract(x, lt.cast(as_tensor(centre), x.dtype)), zero)
    squares = lt.real(lt.multiply(centered, lt.conj(centered)))
    dof = lt.subtract(count, ddof)
    total = lt.sum(squares, axis=as_axis(axis), keepdims=True)
    result = lt.divide(total, lt.cast(lt.maximum(dof, 0), squares.dtype))
    result = lt.where(lt.greater(dof, 0), result, lt.full((), np.nan, dtype=squares.dtype))
    if not keepdims:
        result = lt.squeeze(result, normalize_axes(as_axis(axis), result.ndim, name))
    return result


@accepts_out()
def nanvar(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    ddof: float = 0,
    keepdims: bool = False,
    *,
    where: Any = _NO_VALUE,
    mean: Any = _NO_VALUE,
    correction: Any = _NO_VALUE,
) -> Array:
    """The variance over ``axis`` ignoring NaNs, dividing by ``count - ddof``; NaN
    where that is not positive (``numpy.nanvar``, with its ``where``, ``mean``
    and ``correction``).

    >>> nanvar([1.0, float("nan"), 3.0]).compute()
    array(1.)
    """
    return wrap(_nanvar("nanvar", a, axis, dtype, ddof, keepdims, (where, mean, correction)))


@accepts_out()
def nanstd(
    a: ArrayLike,
    axis: Any = None,
    dtype: DTypeLike = None,
    out: None = None,
    ddof: float = 0,
    keepdims: bool = False,
    *,
    where: Any = _NO_VALUE,
    mean: Any = _NO_VALUE,
    correction: Any = _NO_VALUE,
) -> Array:
    """The standard deviation over ``axis`` ignoring NaNs (``numpy.nanstd``).

    >>> nanstd([1.0, float("nan"), 3.0]).compute()
    array(1.)
    """
    extra = (where, mean, correction)
    return wrap(lt.sqrt(_nanvar("nanstd", a, axis, dtype, ddof, keepdims, extra)))


@accepts_out()
def nancumsum(a: ArrayLike, axis: int | None = None, dtype: Any = None, out: None = None) -> Array:
    """The running sum treating NaN as zero (``numpy.nancumsum``).

    >>> nancumsum([1.0, float("nan"), 2.0]).compute()
    array([1., 1., 3.])
    """
    x = as_tensor(a)
    x = nan_replaced(x, 0)
    return wrap(lt.cumsum(x, axis=axis, dtype=dtype))


@accepts_out()
def nancumprod(a: ArrayLike, axis: int | None = None, dtype: Any = None, out: None = None) -> Array:
    """The running product treating NaN as one (``numpy.nancumprod``).

    >>> nancumprod([2.0, float("nan"), 3.0]).compute()
    array([2., 2., 6.])
    """
    x = as_tensor(a)
    x = nan_replaced(x, 1)
    return wrap(lt.cumprod(x, axis=axis, dtype=dtype))


# -- nanargmax / nanargmin ----------------------------------------------------------


def _all_nan_anywhere(x: TensorVariable, axis: Any) -> bool:
    """Whether some slice along ``axis`` is all NaN: from the value when known,
    else by computing that one reduction (numpy raises for it; lazygraph has
    no op that raises when computed)."""
    value = known_value(x)
    if value is not None:
        return bool(np.any(np.all(np.isnan(value), axis=axis)))
    return bool(wrap(lt.any(lt.all(lt.isnan(x), axis=as_axis(axis)))))


def _nan_arg(name: str, a: ArrayLike, axis: Any, keepdims: bool) -> Array:
    from lazygraph.numpy._searching import argmax, argmin

    x = as_tensor(a)
    if np.dtype(x.dtype).kind in "fc":
        sizes = lt.shape_tuple(x)
        empty = any(s == 0 for s in sizes)
        if not empty and _all_nan_anywhere(x, axis):
            raise ValueError("All-NaN slice encountered")
        fill = -np.inf if name == "nanargmax" else np.inf
        x = lt.where(lt.isnan(x), lt.full((), fill, dtype=x.dtype), x)
    find = argmax if name == "nanargmax" else argmin
    return find(wrap(x), axis=axis, keepdims=keepdims)


@accepts_out(casting="equiv")
def nanargmax(
    a: ArrayLike, axis: int | None = None, out: None = None, *, keepdims: bool = False
) -> Array:
    """The index of the largest element along ``axis``, ignoring NaNs
    (``numpy.nanargmax``). An all-NaN slice is numpy's ValueError: lazygraph
    has no op that raises when computed, so for data known only when computed
    that check (one reduction) is computed when the graph is built.

    >>> nanargmax([[float("nan"), 4.0], [2.0, 3.0]], axis=1).compute()
    array([1, 1])
    """
    return _nan_arg("nanargmax", a, axis, keepdims)


@accepts_out(casting="equiv")
def nanargmin(
    a: ArrayLike, axis: int | None = None, out: None = None, *, keepdims: bool = False
) -> Array:
    """The index of the smallest element along ``axis``, ignoring NaNs
    (``numpy.nanargmin``; an all-NaN slice is a ValueError, see :func:`nanargmax`).

    >>> nanargmin([2.0, float("nan"), 1.0]).compute()
    array(2)
    """
    return _nan_arg("nanargmin", a, axis, keepdims)


# -- nanmedian / nanquantile / nanpercentile ---------------------------------------


class _Sorted:
    """``x``'s reduced axes flattened into a last axis and sorted (NaNs last),
    with each slice's count of values that are not NaN."""

    def __init__(self, name: str, x: TensorVariable, axis: Any) -> None:
        self.axes = normalize_axes(as_axis(axis), x.ndim, name)
        self.kept = [i for i in range(x.ndim) if i not in self.axes]
        sizes = lt.shape_tuple(x)
        n = 1
        for i in self.axes:
            if not isinstance(sizes[i], int):
                raise ValueError(f"{name}: the sizes of the reduced axes must be known")
            n *= sizes[i]
        self.n = n
        self.kept_shape = [sizes[i] for i in self.kept]
        flat = lt.reshape(lt.transpose(x, self.kept + list(self.axes)), [*self.kept_shape, n])
        self.ordered = lt.sort(flat, axis=-1)
        self.count = lt.sum(lt.logical_not(lt.isnan(flat)), axis=-1, dtype="int64")
        self.value = known_value(x)

    def at(self, index: TensorVariable) -> TensorVariable:
        """The sorted values at ``index`` (``[kept..., k]``, clipped into range)."""
        return lt.take_along_axis(self.ordered, lt.clip(index, 0, self.n - 1), axis=-1)

    def warn_all_nan(self) -> None:
        """numpy's RuntimeWarning for all-NaN slices, when the data is known now
        (data known only when computed gives NaN without a warning)."""
        if self.value is None:
            return
        axes = self.axes if self.axes else None
        if self.value.size and np.any(np.all(np.isnan(self.value), axis=axes)):
            from lazygraph.numpy._interop import _user_stacklevel

            warnings.warn(
                "All-NaN slice encountered", RuntimeWarning, stacklevel=_user_stacklevel()
            )

    def finish(self, result: TensorVariable, lead: int, keepdims: bool) -> TensorVariable:
        """``result`` (``[kept..., *lead axes]``) with the lead axes first and the
        reduced axes kept as ones if asked."""
        start = len(self.kept)
        if lead and start and len(self.axes) != 1 and lead > 1:
            # numpy merges several reduced axes into a last one and then moves the
            # axes at [-1, 0, 1, ...] to the front (not q's axes, past the first)
            source = [start + lead - 1, *range(lead - 1)]
            result = lt.moveaxis(result, source, list(range(lead)))
        elif lead:
            result = lt.moveaxis(result, list(range(start, start + lead)), list(range(lead)))
        if keepdims and self.axes:
            result = lt.expand_dims(result, tuple(lead + i for i in self.axes))
        return result


@accepts_out(exact=None)  # (numpy broadcasts into out here)
def nanmedian(
    a: ArrayLike,
    axis: Any = None,
    out: None = None,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> Array:
    """The median over ``axis`` ignoring NaNs; NaN for an all-NaN slice, with
    numpy's RuntimeWarning when the data is known (``numpy.nanmedian``). Each
    slice is sorted with its NaNs last and its middle values picked by its count
    of numbers, in the graph. The sizes of the reduced axes must be known.

    >>> nanmedian([[1.0, float("nan"), 3.0], [4.0, 2.0, 8.0]], axis=1).compute()
    array([2., 4.])
    """
    x = as_tensor(a)
    if 0 in lt.shape_tuple(x):
        return nanmean(wrap(x), axis, keepdims=keepdims)
    if np.dtype(x.dtype).kind not in "fc":
        from lazygraph.numpy._statistical_order import median

        return median(wrap(x), axis, keepdims=keepdims)
    s = _Sorted("nanmedian", x, axis)
    s.warn_all_nan()
    count = lt.expand_dims(s.count, -1)
    low = lt.getitem(s.at(lt.floor_divide(lt.subtract(count, 1), 2)), (Ellipsis, 0))
    high = lt.getitem(s.at(lt.floor_divide(count, 2)), (Ellipsis, 0))
    result = lt.true_divide(lt.add(low, high), 2)
    if not s.kept or s.n >= 600:
        # numpy's median of one slice averages one middle value for an odd count;
        # its masked-array path (several slices, shorter than 600) averages it twice
        result = lt.where(lt.equal(lt.remainder(s.count, 2), 1), low, result)
    result = lt.where(lt.equal(s.count, 0), lt.full((), np.nan, dtype=x.dtype), result)
    return wrap(s.finish(result, 0, keepdims))


def _nan_quantile(
    name: str,
    a: ArrayLike,
    q: np.ndarray,
    weak: bool,
    axis: Any,
    method: str,
    keepdims: bool,
    weights: Any,
) -> Array:
    x = as_tensor(a)
    dt = np.dtype(x.dtype)
    if dt.kind == "c":
        raise TypeError("a must be an array of real numbers")
    if weights is not None and method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
    if 0 in lt.shape_tuple(x):
        return nanmean(wrap(x), axis, keepdims=keepdims)  # numpy's: q is not looked at
    if method not in _METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_METHODS}")
    if method != "linear" or weights is not None:
        # each slice's own count of numbers places its quantiles: numpy's other
        # methods run on the computed values (the fallback, with its warning)
        from lazygraph.numpy._interop import numpy_fallback

        given = q.item() if weak else q
        options = {"axis": axis, "method": method, "keepdims": keepdims, "weights": weights}
        return numpy_fallback(  # type: ignore[no-any-return]
            np.nanquantile, f"numpy.{name}", (a, given), options, f" with method={method!r}"
        )
    s = _Sorted(name, x, axis)
    s.warn_all_nan()
    count = lt.expand_dims(s.count, -1)  # [kept..., 1], against the flattened q
    qs = q.reshape(-1)
    if q.dtype.kind in "biu":
        # numpy takes the values at (count - 1) * q directly (q is 0 or 1)
        result = s.at(lt.multiply(lt.subtract(count, 1), lt.constant(qs.astype(np.int64))))
    else:
        result = _lerp_at(s, count, qs, weak)
    if dt.kind == "f" and np.dtype(result.dtype) != dt and _first_slice_all_nan(s):
        result = lt.cast(result, dt)  # numpy's dtype there is that all-NaN slice's (a's)
    result = lt.where(lt.greater(count, 0), result, lt.full((), np.nan, dtype=result.dtype))
    result = lt.reshape(result, [*s.kept_shape, *q.shape])
    return wrap(s.finish(result, q.ndim, keepdims))


def _lerp_at(s: _Sorted, count: TensorVariable, qs: np.ndarray, weak: bool) -> TensorVariable:
    """numpy's linear method on each slice's numbers, operation by operation:
    the virtual index ``(count - 1) * q`` in q's dtype, its neighbours (the last
    value, at the top), and the lerp from the nearer end."""
    top = lt.subtract(count, 1)
    virtual = lt.multiply(lt.cast(top, qs.dtype), lt.constant(qs))
    below = lt.floor(virtual)
    at_top = lt.greater_equal(virtual, lt.cast(top, qs.dtype))
    previous = lt.where(at_top, top, lt.cast(below, "int64"))
    following = lt.where(at_top, top, lt.add(lt.cast(below, "int64"), 1))
    # numpy subtracts the index it uses, -1 (the last) at the top: gamma is then > 1
    gamma = lt.subtract(virtual, lt.cast(lt.where(at_top, -1, previous), qs.dtype))
    a, b = s.at(previous), s.at(following)
    data = np.dtype(a.dtype)
    target = np.result_type(data, 0.5 if weak else qs.dtype)
    diff = lt.cast(lt.subtract(b, a), target)
    t = lt.cast(gamma, target)
    # a weak (Python float) gamma: numpy computes 1 - gamma in Python, then casts
    rest = lt.cast(lt.subtract(1, gamma), target)
    up = lt.add(lt.cast(a, target), lt.multiply(diff, t))
    down = lt.subtract(lt.cast(b, target), lt.multiply(diff, rest))
    return lt.where(lt.greater_equal(gamma, 0.5), down, up)


def _first_slice_all_nan(s: _Sorted) -> bool:
    """Whether the first slice numpy computes is all NaN (its result's dtype is
    then ``a``'s, where the others would promote with ``q``'s): known, or computed."""
    first = lt.getitem(s.count, (0,) * len(s.kept)) if s.kept else s.count
    value = known_value(wrap(first)._var)
    if value is None:
        value = wrap(first).compute()
    return int(value) == 0


def _check_quantiles(q: Any, scale: float, name: str) -> tuple[np.ndarray, bool]:
    weak = type(q) in (int, float)
    qs = np.asanyarray(q)
    if scale != 1:
        qs = np.true_divide(qs, scale)
    if not np.all((qs >= 0) & (qs <= 1)):
        kind = "Percentiles" if name == "nanpercentile" else "Quantiles"
        high = 100 if name == "nanpercentile" else 1
        raise ValueError(f"{kind} must be in the range [0, {high}]")
    return qs, weak


@accepts_out(exact=None)  # (numpy broadcasts into out here)
def nanquantile(
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
    """The ``q``-th quantiles over ``axis`` ignoring NaNs (``numpy.nanquantile``,
    linear method, as :func:`quantile`; NaN for an all-NaN slice). ``q`` in
    [0, 1] must be known when the graph is built; the result's leading axes are
    ``q``'s.

    >>> nanquantile([1.0, float("nan"), 2.0, 3.0, 4.0], [0.25, 0.5]).compute()
    array([1.75, 2.5 ])
    """
    qs, weak = _check_quantiles(q, 1, "nanquantile")
    return _nan_quantile("nanquantile", a, qs, weak, axis, method, keepdims, weights)


@accepts_out(exact=None)  # (numpy broadcasts into out here)
def nanpercentile(
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
    """The ``q``-th percentiles over ``axis`` ignoring NaNs
    (``numpy.nanpercentile``; ``q`` in [0, 100]).

    >>> nanpercentile([[1.0, float("nan"), 3.0], [5.0, 7.0, 9.0]], 50, axis=1).compute()
    array([2., 7.])
    """
    qs, weak = _check_quantiles(q, 100, "nanpercentile")
    return _nan_quantile("nanpercentile", a, qs, weak, axis, method, keepdims, weights)


# These check known values (numpy's errors and all-NaN warnings): their calls on
# known arrays run, rather than replay a plan recorded on stand-in inputs that
# have no values to check (lazygraph.numpy._replay).
_replay._NOT_REPLAYED.update(
    (nanargmax, nanargmin, nanmax, nanmean, nanmedian, nanmin, nanpercentile, nanquantile)
)
_replay._NOT_REPLAYED.update((nanstd, nanvar))

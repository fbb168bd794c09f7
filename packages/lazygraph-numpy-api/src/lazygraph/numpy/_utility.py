"""Utility functions: ``all``/``any``, ``diff``, and the comparisons numpy code
uses in assertions: ``isclose`` (lazy) and ``allclose``/``array_equal``/
``array_equiv``, which return a Python ``bool`` and so compute their inputs.

>>> allclose([1.0, 2.0], [1.0, 2.0 + 1e-9])
True
"""

from __future__ import annotations

import builtins
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_axis, as_variable, wrap
from lazygraph.numpy._fpstate import errstate
from lazygraph.numpy._ufunc import ArrayLike, accepts_out
from lazygraph.tensor.shape import normalize_axis

__all__ = [
    "all",
    "allclose",
    "any",
    "array_equal",
    "array_equiv",
    "diff",
    "errstate",
    "get_printoptions",
    "geterr",
    "isclose",
    "isscalar",
    "iterable",
    "ndenumerate",
    "printoptions",
    "set_printoptions",
    "seterr",
    "trapezoid",
]

# numpy's own: lazy arrays print through numpy; numpy's floating-point error
# state is read where values are computed (errstate: see _fpstate).
seterr = np.seterr
geterr = np.geterr
printoptions = np.printoptions
set_printoptions = np.set_printoptions
get_printoptions = np.get_printoptions


def isscalar(element: Any) -> bool:
    """Whether ``element`` is a scalar: Python and numpy scalars, never an array,
    lazy 0-d arrays included (``numpy.isscalar``).

    >>> zero_d = any([True])
    >>> isscalar(3.0), isscalar([3.0]), isscalar(zero_d)
    (True, False, False)
    """
    if isinstance(element, Array):
        return False
    return bool(np.isscalar(element))


_NO_VALUE: Any = object()


@accepts_out()
def all(
    a: ArrayLike,
    axis: Any = None,
    out: None = None,
    keepdims: bool = False,
    *,
    where: Any = _NO_VALUE,
) -> Array:
    """Whether every element over ``axis`` is true (nonzero) (``numpy.all``).

    >>> all([[True, False], [True, True]], axis=1).compute()
    array([False,  True])
    """
    x = as_variable(a)
    if where is not _NO_VALUE and where is not True:
        x = lt.where(as_variable(where), lt.cast(x, "bool"), True)
    return wrap(lt.all(x, axis=as_axis(axis), keepdims=keepdims))


@accepts_out()
def any(
    a: ArrayLike,
    axis: Any = None,
    out: None = None,
    keepdims: bool = False,
    *,
    where: Any = _NO_VALUE,
) -> Array:
    """Whether any element over ``axis`` is true (nonzero) (``numpy.any``).

    >>> any([[True, False], [False, False]], axis=1).compute()
    array([ True, False])
    """
    x = as_variable(a)
    if where is not _NO_VALUE and where is not True:
        x = lt.where(as_variable(where), lt.cast(x, "bool"), False)
    return wrap(lt.any(x, axis=as_axis(axis), keepdims=keepdims))


def diff(
    a: ArrayLike,
    n: int = 1,
    axis: int = -1,
    prepend: ArrayLike = _NO_VALUE,
    append: ArrayLike = _NO_VALUE,
) -> Array:
    """The ``n``-th discrete difference along ``axis``: ``a[i+1] - a[i]``, repeated
    ``n`` times (``numpy.diff``); bool input gives ``!=``. ``prepend``/``append``
    are joined to ``a`` first (broadcast along the other axes).

    >>> diff([1, 4, 9, 16]).compute()
    array([3, 5, 7])
    >>> diff([1, 4, 9, 16], n=2, prepend=0).compute()
    array([2, 2, 2])
    """
    n = int(n)
    if n == 0:
        return wrap(lt.as_tensor_variable(as_variable(a)))  # numpy returns ``a`` itself
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    x = lt.as_tensor_variable(as_variable(a))
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = normalize_axis(axis, x.ndim, "diff")
    parts = []
    for extra in (prepend, append):
        if extra is _NO_VALUE:
            parts.append(None)
            continue
        v = lt.as_tensor_variable(as_variable(extra))
        if v.ndim == 0:
            sizes = list(lt.shape_tuple(x))
            sizes[ax] = 1
            v = lt.broadcast_to(v, sizes)
        parts.append(v)
    if parts[0] is not None or parts[1] is not None:
        pieces = [p for p in (parts[0], x, parts[1]) if p is not None]
        x = lt.concatenate(pieces, axis=ax)
    kind = np.dtype(x.dtype).kind
    for _ in range(n):
        size = lt.shape_tuple(x)[ax]
        hi = [slice(None)] * x.ndim
        lo = [slice(None)] * x.ndim
        hi[ax] = slice(1, None)
        lo[ax] = slice(None, -1)
        upper, lower = lt.getitem(x, tuple(hi)), lt.getitem(x, tuple(lo))
        if size == 0:
            upper = lower = lt.getitem(x, tuple(lo))
        x = lt.not_equal(upper, lower) if kind == "b" else lt.subtract(upper, lower)
    return wrap(x)


def isclose(
    a: ArrayLike,
    b: ArrayLike,
    rtol: float = 1e-05,
    atol: float = 1e-08,
    equal_nan: bool = False,
) -> Array:
    """Whether ``|a - b| <= atol + rtol * |b|`` elementwise (``numpy.isclose``);
    infinities are close only to themselves, NaN to NaN only with ``equal_nan``.

    >>> isclose([1.0, float("nan")], [1.0 + 1e-9, float("nan")], equal_nan=True).compute()
    array([ True,  True])
    """
    # numpy's own steps, so Python scalars stay weak exactly where numpy's do
    # (which decides the dtype every comparison happens in).
    x, y = as_variable(a), as_variable(b)
    if lt.is_weak_scalar(y):
        y = float(y) if isinstance(y, int) else y
        tol: Any = atol + rtol * builtins.abs(y)
    else:
        y = lt.cast(y, lt.result_type(y, 1.0))
        tol = lt.add(as_variable(atol), lt.multiply(as_variable(rtol), lt.abs(y)))
    close = lt.less_equal(lt.abs(lt.subtract(x, y)), tol)
    result = lt.logical_or(lt.logical_and(close, lt.isfinite(y)), lt.equal(x, y))
    if equal_nan:
        result = lt.logical_or(result, lt.logical_and(lt.isnan(x), lt.isnan(y)))
    return wrap(result)


def allclose(
    a: ArrayLike,
    b: ArrayLike,
    rtol: float = 1e-05,
    atol: float = 1e-08,
    equal_nan: bool = False,
) -> bool:
    """Whether all elements are close, as :func:`isclose` says (``numpy.allclose``).
    Returns a Python ``bool``, so this computes.

    >>> allclose([1.0, 2.0], [1.0, 2.1])
    False
    """
    return bool(_all_true(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def _all_true(close: Array) -> bool:
    """Whether every element of a lazy boolean array is true (computes)."""
    return bool(np.asarray(wrap(lt.all(close._var)).compute()))


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> bool:
    """Whether both have the same shape and elements (``numpy.array_equal``);
    computes. With ``equal_nan`` NaNs compare equal.

    >>> array_equal([1, 2], [1, 2]), array_equal([1, 2], [[1, 2]])
    (True, False)
    """
    x = lt.as_tensor_variable(as_variable(a1))
    y = lt.as_tensor_variable(as_variable(a2))
    if x.ndim != y.ndim:
        return False
    pairs = list(zip(x.type.shape, y.type.shape, strict=True))
    if builtins.any(p is not None and q is not None and p != q for p, q in pairs):
        return False
    if builtins.any(p is None or q is None for p, q in pairs):
        xs, ys = np.asarray(wrap(x).compute()), np.asarray(wrap(y).compute())
        return bool(np.array_equal(xs, ys, equal_nan=equal_nan))
    same = lt.equal(x, y)
    if equal_nan and np.dtype(lt.result_type(x, y)).kind in "fc":
        same = lt.logical_or(same, lt.logical_and(lt.isnan(x), lt.isnan(y)))
    return _all_true(wrap(same))


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> bool:
    """Whether both broadcast to one shape and are equal there (``numpy.array_equiv``);
    computes.

    >>> array_equiv([1, 2], [[1, 2], [1, 2]]), array_equiv([1, 2], [1, 3])
    (True, False)
    """
    x = lt.as_tensor_variable(as_variable(a1))
    y = lt.as_tensor_variable(as_variable(a2))
    try:
        np.broadcast_shapes(*(tuple(1 if s is None else s for s in v.type.shape) for v in (x, y)))
    except ValueError:
        return False
    return _all_true(wrap(lt.equal(x, y)))


def trapezoid(y: ArrayLike, x: ArrayLike = None, dx: float = 1.0, axis: int = -1) -> Array:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, with sample
    points ``x`` or spacing ``dx`` (``numpy.trapezoid``).

    >>> trapezoid([1.0, 2.0, 3.0], x=[0.0, 1.0, 3.0]).compute()
    array(6.5)
    """
    yv = lt.as_tensor_variable(as_variable(y))
    ax = normalize_axis(axis, yv.ndim, "trapezoid")
    if x is None:
        d: Any = dx
    else:
        xv = lt.as_tensor_variable(as_variable(x))
        d = diff(wrap(xv), axis=-1 if xv.ndim == 1 else ax)._var
        if xv.ndim == 1:
            shape = [1] * yv.ndim
            shape[ax] = -1
            d = lt.reshape(d, shape)
    hi = [slice(None)] * yv.ndim
    lo = [slice(None)] * yv.ndim
    hi[ax], lo[ax] = slice(1, None), slice(None, -1)
    pairs = lt.add(lt.getitem(yv, tuple(hi)), lt.getitem(yv, tuple(lo)))
    return wrap(lt.sum(lt.divide(lt.multiply(d, pairs), 2.0), axis=ax))


# numpy's own: ``iterable`` asks ``iter()``; ``ndenumerate`` reads the values
# (numpy computes a lazy array's value once, through ``__array__``)
iterable = np.iterable
ndenumerate = np.ndenumerate

"""numpy's elementwise functions that are not plain ufunc wrappers: ``clip``,
``round``/``around``, ``real``/``imag``/``angle``, ``fabs``, ``divmod``,
``isposinf``/``isneginf``, ``nan_to_num``, ``iscomplex``/``isreal`` (and the
``*obj`` forms), ``heaviside``, ``sinc`` and ``float_power`` (re-exported by
:mod:`lazygraph.numpy._elementwise`).

>>> clip([1, 5, 9], 2, 6).compute()
array([2, 5, 6])
"""

from __future__ import annotations

import builtins
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike, apply_ufunc, reject_out, ufunc_dtype

__all__ = [
    "angle",
    "around",
    "clip",
    "divmod",
    "fabs",
    "float_power",
    "heaviside",
    "imag",
    "interp",
    "iscomplex",
    "iscomplexobj",
    "isneginf",
    "isposinf",
    "isreal",
    "isrealobj",
    "nan_to_num",
    "real",
    "round",
    "sinc",
]

_NO_VALUE: Any = object()


def clip(
    a: ArrayLike,
    a_min: ArrayLike = _NO_VALUE,
    a_max: ArrayLike = _NO_VALUE,
    out: None = None,
    *,
    min: ArrayLike = _NO_VALUE,
    max: ArrayLike = _NO_VALUE,
    **kwargs: Any,
) -> Array:
    """``a`` limited to ``[a_min, a_max]`` (``numpy.clip``; the array API's
    ``min=``/``max=`` keywords work too). NaN propagates; either bound may be None.

    >>> clip([-2, 5, 9], 0, 6).compute()
    array([0, 5, 6])
    >>> clip([-2.0, 5.0], max=1.0).compute()
    array([-2.,  1.])
    """
    if a_min is not _NO_VALUE and min is not _NO_VALUE:
        raise TypeError("clip: pass either a_min or min, not both")
    if a_max is not _NO_VALUE and max is not _NO_VALUE:
        raise TypeError("clip: pass either a_max or max, not both")
    lo = a_min if a_min is not _NO_VALUE else (None if min is _NO_VALUE else min)
    hi = a_max if a_max is not _NO_VALUE else (None if max is _NO_VALUE else max)
    dtype = ufunc_dtype("clip", out, kwargs)
    x = as_variable(a)
    if dtype is not None:
        x = lt.cast(x, dtype)
    x = lt.as_tensor_variable(x)
    # The result dtype comes from all three operands at once (a float bound
    # makes an int8 ``a`` float64 before an int bound is compared with it).
    # Python ints are left out: weak, they never change the dtype.
    others = [as_variable(b) for b in (lo, hi) if b is not None and type(b) is not int]
    if others:
        target = lt.result_type(x, *others)
        if target != x.dtype:
            x = lt.cast(x, target)
    if np.dtype(x.dtype).kind in "iu":
        # As numpy: a Python int bound beyond the integer dtype's range bounds
        # nothing; any other out-of-range Python int is an OverflowError.
        info = np.iinfo(x.dtype)
        lo = None if type(lo) is int and lo <= info.min else lo
        hi = None if type(hi) is int and hi >= info.max else hi
    if lo is not None:
        x = lt.maximum(x, as_variable(lo))
    if hi is not None:
        x = lt.minimum(x, as_variable(hi))
    return wrap(lt.copy(x) if lo is None and hi is None else x)


def round(a: ArrayLike, decimals: int = 0, out: None = None) -> Array:
    """Round to ``decimals`` decimal places, halves to even (``numpy.round``);
    integers stay integers, and a negative ``decimals`` rounds to tens, hundreds...

    >>> round([1.234, 5.678], 1).compute()
    array([1.2, 5.7])
    >>> round([0.5, 1.5, 2.5]).compute()
    array([0., 2., 2.])
    """
    reject_out("round", out)
    return wrap(lt.round(as_variable(a), int(decimals)))


around = round


def real(val: ArrayLike) -> Any:
    """The real part (``val`` itself for real input) (``numpy.real``).

    >>> real([1 + 2j, 3 - 1j]).compute()
    array([1., 3.])
    >>> real(True)  # a Python scalar's own ``real``, as numpy returns it
    1
    """
    if lt.is_weak_scalar(val):
        return val.real
    return wrap(lt.real(as_variable(val)))


def imag(val: ArrayLike) -> Any:
    """The imaginary part (zeros of the same dtype for real input) (``numpy.imag``).

    >>> imag([1 + 2j, 3 - 1j]).compute()
    array([ 2., -1.])
    """
    if lt.is_weak_scalar(val):
        return val.imag
    return wrap(lt.imag(as_variable(val)))


def angle(z: ArrayLike, deg: bool = False) -> Array:
    """The counterclockwise angle of each complex number from the positive real
    axis, in radians, or degrees with ``deg=True`` (``numpy.angle``).

    >>> angle([1j, -1.0], deg=True).compute()
    array([ 90., 180.])
    """
    x = as_variable(z)
    if lt.is_weak_scalar(x):
        x = lt.as_tensor_variable(x)
    result = lt.atan2(lt.imag(x), lt.real(x)) if np.dtype(x.dtype).kind == "c" else lt.atan2(0, x)
    return wrap(lt.rad2deg(result) if deg else result)


def fabs(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The absolute value as a float, for real input (``numpy.fabs``).

    >>> fabs([-1, 2]).compute()
    array([1., 2.])
    """
    dtype = ufunc_dtype("fabs", out, kwargs)
    v = lt.as_tensor_variable(as_variable(x))
    if np.dtype(v.dtype).kind == "c":
        raise TypeError("fabs: ufunc 'fabs' not supported for complex input dtypes")
    result = lt.abs(lt.cast(v, dtype or lt.upcast_to_float(v.dtype)))
    return wrap(result)


def divmod(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> tuple[Array, Array]:
    """``(x1 // x2, x1 % x2)`` (``numpy.divmod``).

    >>> q, r = divmod([7, -7], 3)
    >>> q.compute(), r.compute()
    (array([ 2, -3]), array([1, 2]))
    """
    reject_out("divmod", out)
    return (
        apply_ufunc("divmod", lt.floor_divide, (x1, x2), None, kwargs),
        apply_ufunc("divmod", lt.remainder, (x1, x2), None, kwargs),
    )


def _real_tensor(name: str, x: ArrayLike) -> Any:
    v = lt.as_tensor_variable(as_variable(x))
    if np.dtype(v.dtype).kind == "c":
        raise TypeError(f"{name}: this operation is not supported for complex values")
    return v


def isposinf(x: ArrayLike, out: None = None) -> Array:
    """Whether each element is positive infinity (``numpy.isposinf``).

    >>> isposinf([1.0, float("inf"), float("-inf")]).compute()
    array([False,  True, False])
    """
    reject_out("isposinf", out)
    v = _real_tensor("isposinf", x)
    return wrap(lt.logical_and(lt.isinf(v), lt.greater(v, 0)))


def isneginf(x: ArrayLike, out: None = None) -> Array:
    """Whether each element is negative infinity (``numpy.isneginf``).

    >>> isneginf([1.0, float("inf"), float("-inf")]).compute()
    array([False, False,  True])
    """
    reject_out("isneginf", out)
    v = _real_tensor("isneginf", x)
    return wrap(lt.logical_and(lt.isinf(v), lt.less(v, 0)))


def _nan_to_num_real(v: Any, nan: Any, posinf: Any, neginf: Any) -> Any:
    info = np.finfo(v.dtype)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    fill = lt.where(lt.greater(v, 0), lt.cast(posinf, v.dtype), lt.cast(neginf, v.dtype))
    v = lt.where(lt.isinf(v), fill, v)
    return lt.where(lt.isnan(v), lt.cast(nan, v.dtype), v)


def nan_to_num(
    x: ArrayLike,
    copy: bool = True,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
) -> Array:
    """NaN replaced by ``nan``, infinities by ``posinf``/``neginf`` (default the
    dtype's largest and smallest finite values) (``numpy.nan_to_num``); integers
    and bools are returned unchanged, complex numbers have both parts replaced.

    >>> nan_to_num([float("nan"), float("inf"), 1.0], posinf=9.0).compute()
    array([0., 9., 1.])
    """
    v = lt.as_tensor_variable(as_variable(x))
    kind = np.dtype(v.dtype).kind
    if kind == "f":
        return wrap(_nan_to_num_real(v, nan, posinf, neginf))
    if kind == "c":
        re = _nan_to_num_real(lt.real(v), nan, posinf, neginf)
        im = _nan_to_num_real(lt.imag(v), nan, posinf, neginf)
        return wrap(lt.add(lt.cast(re, v.dtype), lt.multiply(lt.cast(im, v.dtype), 1j)))
    return wrap(lt.copy(v))


def iscomplexobj(x: ArrayLike) -> bool:
    """Whether ``x`` has a complex dtype (``numpy.iscomplexobj``; no computation).

    >>> iscomplexobj([1.0]), iscomplexobj([1j])
    (False, True)
    """
    return bool(np.dtype(lt.as_tensor_variable(as_variable(x)).dtype).kind == "c")


def isrealobj(x: ArrayLike) -> bool:
    """Whether ``x`` does not have a complex dtype (``numpy.isrealobj``).

    >>> isrealobj([1.0]), isrealobj([1j])
    (True, False)
    """
    return not iscomplexobj(x)


def iscomplex(x: ArrayLike) -> Array:
    """Whether each element has a nonzero imaginary part (``numpy.iscomplex``).

    >>> iscomplex([1 + 0j, 1j]).compute()
    array([False,  True])
    """
    v = lt.as_tensor_variable(as_variable(x))
    return wrap(lt.not_equal(lt.imag(v), 0))


def isreal(x: ArrayLike) -> Any:
    """Whether each element has a zero imaginary part (``numpy.isreal``).

    >>> isreal([1 + 0j, 1j]).compute()
    array([ True, False])
    """
    if lt.is_weak_scalar(x):
        return x.imag == 0
    v = lt.as_tensor_variable(as_variable(x))
    return wrap(lt.equal(lt.imag(v), 0))


def heaviside(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The Heaviside step: 0 where ``x1 < 0``, ``x2`` where ``x1 == 0``, 1 where
    ``x1 > 0``, NaN where ``x1`` is NaN (``numpy.heaviside``; float results).

    >>> heaviside([-1.5, 0.0, 2.0], 0.5).compute()
    array([0. , 0.5, 1. ])
    """

    def step(x: Any, h: Any) -> Any:
        dtype = lt.result_type(x, h)
        if np.dtype(dtype).kind not in "fc":
            # numpy's first float loop both inputs cast to safely (no float16 here).
            strong = [np.dtype(v.dtype) for v in (x, h) if not lt.is_weak_scalar(v)]
            fits = all(np.can_cast(d, np.float32) for d in strong)
            dtype = "float32" if strong and fits else "float64"
        if np.dtype(dtype).kind == "c":
            raise TypeError("heaviside: ufunc 'heaviside' not supported for complex input")
        x = lt.cast(x, dtype) if not lt.is_weak_scalar(x) else float(x)
        h = lt.cast(h, dtype) if not lt.is_weak_scalar(h) else float(h)
        one, zero = lt.ones((), dtype=dtype), lt.zeros((), dtype=dtype)
        signed = lt.where(lt.greater(x, 0), one, lt.where(lt.less(x, 0), zero, h))
        return lt.where(lt.isnan(x), lt.add(x, zero), signed)

    return apply_ufunc("heaviside", step, (x1, x2), out, kwargs)


def sinc(x: ArrayLike) -> Array:
    """The normalized sinc ``sin(pi x) / (pi x)``, 1 at 0 (``numpy.sinc``).

    >>> sinc([0.0, 0.5, 1.0]).compute().round(6)
    array([1.     , 0.63662, 0.     ])
    """
    v = lt.as_tensor_variable(as_variable(x))
    if np.dtype(v.dtype).kind not in "fc":
        v = lt.cast(v, "float64")
    # As numpy: where x == 0 use a tiny argument instead, so the ratio is 1.
    y = lt.multiply(np.pi, lt.where(lt.equal(v, 0), lt.full((), 1.0e-20, dtype=v.dtype), v))
    return wrap(lt.divide(lt.sin(y), y))


def float_power(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 ** x2`` computed in float64 (complex128 for complex input)
    (``numpy.float_power``).

    >>> float_power([2, 4], -1).compute()
    array([0.5 , 0.25])
    """

    def power64(a: Any, b: Any) -> Any:
        complex_input = builtins.any(
            (isinstance(v, complex) if lt.is_weak_scalar(v) else np.dtype(v.dtype).kind == "c")
            for v in (a, b)
        )
        dtype = "complex128" if complex_input else "float64"
        return lt.pow(lt.cast(a, dtype), lt.cast(b, dtype))

    return apply_ufunc("float_power", power64, (x1, x2), out, kwargs)


def interp(
    x: ArrayLike,
    xp: ArrayLike,
    fp: ArrayLike,
    left: Any = None,
    right: Any = None,
    period: Any = None,
) -> Array:
    """Piecewise-linear interpolation of the points ``(xp, fp)`` (``xp``
    increasing) at ``x`` (``numpy.interp``); ``left``/``right`` (default
    ``fp[0]``/``fp[-1]``) outside ``xp``'s range.

    >>> interp([0.5, 2.5, 9.0], [0.0, 1.0, 3.0], [0.0, 10.0, 30.0]).compute()
    array([ 5., 25., 30.])
    """
    if period is not None:
        raise UnsupportedArgumentsError("interp: period= is not supported by lazygraph")
    xv = lt.as_tensor_variable(as_variable(x))
    xpv = lt.as_tensor_variable(as_variable(xp))
    fpv = lt.as_tensor_variable(as_variable(fp))
    if xpv.ndim != 1 or fpv.ndim != 1:
        raise ValueError("interp: xp and fp must be 1-d sequences")
    n, nf = xpv.type.shape[0], fpv.type.shape[0]
    if n is not None and nf is not None and n != nf:
        raise ValueError("fp and xp are not of the same length.")
    if n == 0:
        raise ValueError("array of sample points is empty")
    out_dtype = "complex128" if np.dtype(fpv.dtype).kind == "c" else "float64"
    xv, xpv = lt.cast(xv, "float64"), lt.cast(xpv, "float64")
    fpv = lt.cast(fpv, out_dtype)
    size = lt.shape_tuple(xpv)[0]
    last = lt.subtract(size, 1)
    # j: the last sample point <= x, within [0, n - 2] (or 0 for one point).
    j = lt.subtract(lt.searchsorted(xpv, xv, side="right"), 1)
    j = lt.clip(j, 0, lt.maximum(lt.subtract(size, 2), 0))
    j1 = lt.minimum(lt.add(j, 1), last)
    x0, x1 = lt.take(xpv, j), lt.take(xpv, j1)
    f0, f1 = lt.take(fpv, j), lt.take(fpv, j1)
    slope = lt.divide(lt.subtract(f1, f0), lt.subtract(x1, x0))
    inside = lt.add(lt.multiply(slope, lt.subtract(xv, x0)), f0)
    # As numpy's kernel: a NaN (from an infinite slope) retried from the right
    # end, then the common value of a flat segment; sample points give exact values.
    retry = lt.add(lt.multiply(slope, lt.subtract(xv, x1)), f1)
    inside = lt.where(lt.isnan(inside), retry, inside)
    inside = lt.where(lt.logical_and(lt.isnan(inside), lt.equal(f0, f1)), f0, inside)
    inside = lt.where(lt.equal(xv, x0), f0, inside)
    inside = lt.where(lt.equal(xv, x1), f1, inside)
    lo = lt.take(fpv, 0) if left is None else lt.cast(as_variable(left), out_dtype)
    hi = lt.take(fpv, last) if right is None else lt.cast(as_variable(right), out_dtype)
    result = lt.where(lt.less(xv, lt.take(xpv, 0)), lo, inside)
    result = lt.where(lt.greater(xv, lt.take(xpv, last)), hi, result)
    return wrap(lt.where(lt.isnan(xv), lt.add(xv, lt.zeros((), dtype=out_dtype)), result))

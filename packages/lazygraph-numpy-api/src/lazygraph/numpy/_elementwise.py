"""The elementwise functions: numpy's binary ufuncs (with the array API names
as aliases), the non-ufunc elementwise helpers numpy code uses (``clip``,
``round``, ``real``, ``nan_to_num``...), and, re-exported, the unary functions
of :mod:`lazygraph.numpy._elementwise_unary`.

Promotion is numpy 2's (NEP 50): Python scalars are weak, so
``add(int8_array, 1)`` stays int8 while ``add(int8_array, numpy.int64(1))`` is
int64. Where numpy would compute a float result in float16, lazygraph uses
float32 (it has no float16).
"""

from __future__ import annotations

import builtins
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy import _elementwise_unary
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._elementwise_unary import *  # noqa: F403
from lazygraph.numpy._ufunc import ArrayLike, apply_ufunc, reject_out, ufunc_dtype

__all__ = [
    "add",
    "angle",
    "arctan2",
    "around",
    "atan2",
    "bitwise_and",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "clip",
    "copysign",
    "divide",
    "divmod",
    "equal",
    "fabs",
    "floor_divide",
    "fmax",
    "fmin",
    "fmod",
    "greater",
    "greater_equal",
    "hypot",
    "imag",
    "iscomplex",
    "iscomplexobj",
    "isneginf",
    "isposinf",
    "isreal",
    "isrealobj",
    "left_shift",
    "less",
    "less_equal",
    "logaddexp",
    "logaddexp2",
    "logical_and",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "mod",
    "multiply",
    "nan_to_num",
    "nextafter",
    "not_equal",
    "pow",
    "power",
    "real",
    "remainder",
    "right_shift",
    "round",
    "subtract",
    "true_divide",
    *_elementwise_unary.__all__,
]


def add(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The sum ``x1 + x2``, elementwise (``numpy.add``).

    >>> add([1, 2], 3).compute()
    array([4, 5])
    """
    return apply_ufunc("add", lt.add, (x1, x2), out, kwargs)


def subtract(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The difference ``x1 - x2``, elementwise (``numpy.subtract``).

    >>> subtract([1, 2], 3).compute()
    array([-2, -1])
    """
    return apply_ufunc("subtract", lt.subtract, (x1, x2), out, kwargs)


def multiply(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The product ``x1 * x2``, elementwise (``numpy.multiply``).

    >>> multiply([1, 2], 3).compute()
    array([3, 6])
    """
    return apply_ufunc("multiply", lt.multiply, (x1, x2), out, kwargs)


def divide(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """True division ``x1 / x2`` (integers give float64), elementwise (``numpy.divide``).

    >>> divide([1, 2], 4).compute()
    array([0.25, 0.5 ])
    """
    return apply_ufunc("divide", lt.divide, (x1, x2), out, kwargs)


def floor_divide(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Floor division ``x1 // x2``, elementwise (``numpy.floor_divide``).

    >>> floor_divide([7, -7], 2).compute()
    array([ 3, -4])
    """
    return apply_ufunc("floor_divide", lt.floor_divide, (x1, x2), out, kwargs)


def power(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 ** x2`` (an integer to a negative integer power is a ValueError),
    elementwise (``numpy.power``).

    >>> power([2, 3], 2).compute()
    array([4, 9])
    """
    return apply_ufunc("power", lt.pow, (x1, x2), out, kwargs)


def remainder(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 % x2`` with the sign of ``x2`` (Python's modulo), elementwise (``numpy.remainder``).

    >>> remainder([7, -7], 3).compute()
    array([1, 2])
    """
    return apply_ufunc("remainder", lt.remainder, (x1, x2), out, kwargs)


def fmod(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The C remainder of ``x1 / x2``, with the sign of ``x1``, elementwise (``numpy.fmod``).

    >>> fmod([7, -7], 3).compute()
    array([ 1, -1])
    """
    return apply_ufunc("fmod", lt.fmod, (x1, x2), out, kwargs)


def arctan2(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The angle of the point ``(x2, x1)`` in radians, in the right quadrant,
    elementwise (``numpy.arctan2``).

    >>> arctan2([1.0, -1.0], -1.0).compute()
    array([ 2.35619449, -2.35619449])
    """
    return apply_ufunc("arctan2", lt.atan2, (x1, x2), out, kwargs)


def hypot(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``sqrt(x1**2 + x2**2)`` without intermediate overflow, elementwise (``numpy.hypot``).

    >>> hypot([3.0, 5.0], [4.0, 12.0]).compute()
    array([ 5., 13.])
    """
    return apply_ufunc("hypot", lt.hypot, (x1, x2), out, kwargs)


def copysign(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``|x1|`` with the sign bit of ``x2``, elementwise (``numpy.copysign``).

    >>> copysign([1.0, 2.0], [-0.0, 1.0]).compute()
    array([-1.,  2.])
    """
    return apply_ufunc("copysign", lt.copysign, (x1, x2), out, kwargs)


def nextafter(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The next representable float after ``x1`` toward ``x2``, elementwise (``numpy.nextafter``).

    >>> nextafter([1.0, 0.0], [2.0, -1.0]).compute()
    array([ 1.e+000, -5.e-324])
    """
    return apply_ufunc("nextafter", lt.nextafter, (x1, x2), out, kwargs)


def logaddexp(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``log(exp(x1) + exp(x2))`` without overflow, elementwise (``numpy.logaddexp``).

    >>> logaddexp([0.0, 1000.0], 1000.0).compute()
    array([1000.        , 1000.69314718])
    """
    return apply_ufunc("logaddexp", lt.logaddexp, (x1, x2), out, kwargs)


def logaddexp2(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``log2(2**x1 + 2**x2)`` without overflow, elementwise (``numpy.logaddexp2``).

    >>> logaddexp2([0.0, 1.0], 1.0).compute()
    array([1.5849625, 2.       ])
    """
    return apply_ufunc("logaddexp2", lt.logaddexp2, (x1, x2), out, kwargs)


def maximum(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The larger of ``x1`` and ``x2`` (NaN if either is NaN), elementwise (``numpy.maximum``).

    >>> maximum([1.0, float('nan')], [2.0, 0.0]).compute()
    array([ 2., nan])
    """
    return apply_ufunc("maximum", lt.maximum, (x1, x2), out, kwargs)


def minimum(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The smaller of ``x1`` and ``x2`` (NaN if either is NaN), elementwise (``numpy.minimum``).

    >>> minimum([1.0, float('nan')], [2.0, 0.0]).compute()
    array([ 1., nan])
    """
    return apply_ufunc("minimum", lt.minimum, (x1, x2), out, kwargs)


def fmax(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The larger of ``x1`` and ``x2``, ignoring a NaN, elementwise (``numpy.fmax``).

    >>> fmax([1.0, float('nan')], [2.0, 0.0]).compute()
    array([2., 0.])
    """
    return apply_ufunc("fmax", lt.fmax, (x1, x2), out, kwargs)


def fmin(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The smaller of ``x1`` and ``x2``, ignoring a NaN, elementwise (``numpy.fmin``).

    >>> fmin([1.0, float('nan')], [2.0, 0.0]).compute()
    array([1., 0.])
    """
    return apply_ufunc("fmin", lt.fmin, (x1, x2), out, kwargs)


def equal(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 == x2``, elementwise (``numpy.equal``).

    >>> equal([1, 2], 2).compute()
    array([False,  True])
    """
    return apply_ufunc("equal", lt.equal, (x1, x2), out, kwargs)


def not_equal(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 != x2``, elementwise (``numpy.not_equal``).

    >>> not_equal([1, 2], 2).compute()
    array([ True, False])
    """
    return apply_ufunc("not_equal", lt.not_equal, (x1, x2), out, kwargs)


def less(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 < x2``, elementwise (``numpy.less``).

    >>> less([1, 2], 2).compute()
    array([ True, False])
    """
    return apply_ufunc("less", lt.less, (x1, x2), out, kwargs)


def less_equal(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 <= x2``, elementwise (``numpy.less_equal``).

    >>> less_equal([1, 2], 2).compute()
    array([ True,  True])
    """
    return apply_ufunc("less_equal", lt.less_equal, (x1, x2), out, kwargs)


def greater(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 > x2``, elementwise (``numpy.greater``).

    >>> greater([1, 2], 2).compute()
    array([False, False])
    """
    return apply_ufunc("greater", lt.greater, (x1, x2), out, kwargs)


def greater_equal(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 >= x2``, elementwise (``numpy.greater_equal``).

    >>> greater_equal([1, 2], 2).compute()
    array([False,  True])
    """
    return apply_ufunc("greater_equal", lt.greater_equal, (x1, x2), out, kwargs)


def logical_and(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Logical AND of the truth values, elementwise (``numpy.logical_and``).

    >>> logical_and([True, False], True).compute()
    array([ True, False])
    """
    return apply_ufunc("logical_and", lt.logical_and, (_truth(x1), _truth(x2)), out, kwargs)


def logical_or(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Logical OR of the truth values, elementwise (``numpy.logical_or``).

    >>> logical_or([True, False], False).compute()
    array([ True, False])
    """
    return apply_ufunc("logical_or", lt.logical_or, (_truth(x1), _truth(x2)), out, kwargs)


def logical_xor(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Logical XOR of the truth values, elementwise (``numpy.logical_xor``).

    >>> logical_xor([True, False], True).compute()
    array([False,  True])
    """
    return apply_ufunc("logical_xor", lt.logical_xor, (_truth(x1), _truth(x2)), out, kwargs)


def bitwise_and(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Bitwise AND ``x1 & x2`` of integers and bools, elementwise (``numpy.bitwise_and``).

    >>> bitwise_and([12, 10], 6).compute()
    array([4, 2])
    """
    return apply_ufunc("bitwise_and", lt.bitwise_and, (x1, x2), out, kwargs)


def bitwise_or(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Bitwise OR ``x1 | x2`` of integers and bools, elementwise (``numpy.bitwise_or``).

    >>> bitwise_or([12, 10], 6).compute()
    array([14, 14])
    """
    return apply_ufunc("bitwise_or", lt.bitwise_or, (x1, x2), out, kwargs)


def bitwise_xor(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Bitwise XOR ``x1 ^ x2`` of integers and bools, elementwise (``numpy.bitwise_xor``).

    >>> bitwise_xor([12, 10], 6).compute()
    array([10, 12])
    """
    return apply_ufunc("bitwise_xor", lt.bitwise_xor, (x1, x2), out, kwargs)


def left_shift(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 << x2`` for integers, elementwise (``numpy.left_shift``).

    >>> left_shift([1, 3], 2).compute()
    array([ 4, 12])
    """
    return apply_ufunc("left_shift", lt.bitwise_left_shift, (x1, x2), out, kwargs)


def right_shift(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 >> x2`` for integers, elementwise (``numpy.right_shift``).

    >>> right_shift([8, -8], 2).compute()
    array([ 2, -2])
    """
    return apply_ufunc("right_shift", lt.bitwise_right_shift, (x1, x2), out, kwargs)


atan2 = arctan2
bitwise_left_shift = left_shift
bitwise_right_shift = right_shift
mod = remainder
pow = power
true_divide = divide


def _truth(x: ArrayLike) -> ArrayLike:
    """A Python scalar operand of a logical function as its truth value: numpy
    looks only at whether it is nonzero, so 1000 with an int8 array is no overflow."""
    return builtins.bool(x) if lt.is_weak_scalar(x) else x


# -- numpy's elementwise helpers that are not ufuncs ----------------------------

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

"""The elementwise functions of two or more operands: numpy's binary ufuncs
(with the array API names as aliases), ``divmod``, ``heaviside`` and
``float_power``, and ``clip`` and ``interp``. The one-operand functions are in
:mod:`lazygraph.numpy._elementwise_unary`, those of complex numbers (``real``,
``imag``, ``angle``...) in :mod:`lazygraph.numpy._elementwise_complex`.

Promotion is numpy 2's (NEP 50): Python scalars are weak, so
``add(int8_array, 1)`` stays int8 while ``add(int8_array, numpy.int64(1))`` is
int64. Where numpy would compute a float result in float16, lazygraph uses
float32 (it has no float16).

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
from lazygraph.numpy._ufunc import ArrayLike, apply_ufunc, ufunc_dtype, write_out

__all__ = [
    "add",
    "arctan2",
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
    "float_power",
    "floor_divide",
    "fmax",
    "fmin",
    "fmod",
    "gcd",
    "greater",
    "greater_equal",
    "heaviside",
    "hypot",
    "interp",
    "lcm",
    "ldexp",
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
    "nextafter",
    "not_equal",
    "pow",
    "power",
    "remainder",
    "right_shift",
    "subtract",
    "true_divide",
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


def ldexp(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x1 * 2**x2`` for an integer ``x2``, elementwise (``numpy.ldexp``).

    >>> ldexp([1.5, 3.0], [2, -1]).compute()
    array([6. , 1.5])
    """
    return apply_ufunc("ldexp", lt.ldexp, (x1, x2), out, kwargs)


def gcd(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The greatest common divisor of ``|x1|`` and ``|x2|``, elementwise
    (``numpy.gcd``; integers only).

    >>> gcd([12, 20], 8).compute()
    array([4, 4])
    """
    return apply_ufunc("gcd", lt.gcd, (x1, x2), out, kwargs)


def lcm(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The least common multiple of ``|x1|`` and ``|x2|``, elementwise
    (``numpy.lcm``; integers only).

    >>> lcm([4, 6], 10).compute()
    array([20, 30])
    """
    return apply_ufunc("lcm", lt.lcm, (x1, x2), out, kwargs)


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


# -- not plain ufunc wrappers ----------------------------------------------------


def divmod(x1: ArrayLike, x2: ArrayLike, /, out: Any = None, **kwargs: Any) -> tuple[Any, Any]:
    """``(x1 // x2, x1 % x2)`` (``numpy.divmod``).

    >>> q, r = divmod([7, -7], 3)
    >>> q.compute(), r.compute()
    (array([ 2, -3]), array([1, 2]))
    """
    outs = (None, None) if out is None else out
    if not isinstance(outs, tuple) or len(outs) != 2:
        raise ValueError("divmod: The 'out' tuple must have exactly one entry per ufunc output")
    return (
        apply_ufunc("divmod", lt.floor_divide, (x1, x2), outs[0], dict(kwargs)),
        apply_ufunc("divmod", lt.remainder, (x1, x2), outs[1], kwargs),
    )


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


_NO_VALUE: Any = object()


def clip(
    a: ArrayLike,
    a_min: ArrayLike = _NO_VALUE,
    a_max: ArrayLike = _NO_VALUE,
    out: Any = None,
    *,
    min: ArrayLike = _NO_VALUE,
    max: ArrayLike = _NO_VALUE,
    **kwargs: Any,
) -> Array:
    """``a`` limited to ``[a_min, a_max]`` (``numpy.clip``), or to ``[min, max]``
    (the array API's ``clip(x, /, min=None, max=None)``, numpy's keywords too).
    NaN propagates; either bound may be None or absent. The second and third
    positional arguments are the array API's ``min`` and ``max`` as well as
    numpy's ``a_min`` and ``a_max``, so ``clip(x, 0)`` (only a lower bound) is
    the array API's call; naming a bound both ways is numpy's error.

    >>> clip([-2, 5, 9], 0, 6).compute()
    array([0, 5, 6])
    >>> clip([-2.0, 5.0], max=1.0).compute()
    array([-2.,  1.])
    >>> clip([-2.0, 5.0], 0.0).compute()
    array([0., 5.])
    """
    given = a_min is not _NO_VALUE, a_max is not _NO_VALUE
    if all(given) and (min is not _NO_VALUE or max is not _NO_VALUE):
        raise ValueError(
            "clip: Passing `min` or `max` keyword argument when `a_min` and `a_max` are "
            "provided is forbidden."
        )
    if given[0] and min is not _NO_VALUE:
        raise TypeError("clip() got multiple values for argument 'min' (a_min is min)")
    if given[1] and max is not _NO_VALUE:
        raise TypeError("clip() got multiple values for argument 'max' (a_max is max)")
    lo = a_min if a_min is not _NO_VALUE else (None if min is _NO_VALUE else min)
    hi = a_max if a_max is not _NO_VALUE else (None if max is _NO_VALUE else max)
    where = kwargs.pop("where", True)
    casting = kwargs.get("casting", "same_kind")
    dtype = ufunc_dtype("clip", None, kwargs)
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
    if lo is not None and hi is not None:
        # one op, so that x keeps the whole gradient on the bounds (docs/gradients.md)
        x = lt.clip(x, as_variable(lo), as_variable(hi))
    elif lo is not None:
        x = lt.maximum(x, as_variable(lo))
    elif hi is not None:
        x = lt.minimum(x, as_variable(hi))
    result = wrap(lt.copy(x) if lo is None and hi is None else x)
    if out is None and where is True:
        return result
    return write_out("clip", result, out, where, casting)


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


atan2 = arctan2
bitwise_left_shift = left_shift
bitwise_right_shift = right_shift
mod = remainder
pow = power
true_divide = divide

#: The functions of Array's binary operators that are one ufunc applied to
#: both operands, ``apply_ufunc(name, fn, (x1, x2), ...)`` and nothing else,
#: by name, with the tensor function they apply: an operator on known small
#: operands then calls numpy's ufunc directly once the elementwise lane has
#: found that to be its computation (``_array._binary``, ``_fastlane.call``),
#: without the namespace function's layers. (A function given more logic
#: leaves this table; tests/numpy_api/test_eager.py checks it.)
OPERATOR_UFUNCS: dict[str, Any] = {
    "add": lt.add,
    "subtract": lt.subtract,
    "multiply": lt.multiply,
    "divide": lt.divide,
    "floor_divide": lt.floor_divide,
    "remainder": lt.remainder,
    "pow": lt.pow,
    "equal": lt.equal,
    "not_equal": lt.not_equal,
    "less": lt.less,
    "less_equal": lt.less_equal,
    "greater": lt.greater,
    "greater_equal": lt.greater_equal,
    "bitwise_and": lt.bitwise_and,
    "bitwise_or": lt.bitwise_or,
    "bitwise_xor": lt.bitwise_xor,
}


def _truth(x: ArrayLike) -> ArrayLike:
    """A Python scalar operand of a logical function as its truth value: numpy
    looks only at whether it is nonzero, so 1000 with an int8 array is no overflow."""
    return builtins.bool(x) if lt.is_weak_scalar(x) else x

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
from lazygraph.numpy import _elementwise_more, _elementwise_unary
from lazygraph.numpy._array import Array
from lazygraph.numpy._elementwise_more import *  # noqa: F403
from lazygraph.numpy._elementwise_unary import *  # noqa: F403
from lazygraph.numpy._ufunc import ArrayLike, apply_ufunc

__all__ = [
    "add",
    "arctan2",
    "atan2",
    "bitwise_and",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "copysign",
    "divide",
    "equal",
    "floor_divide",
    "fmax",
    "fmin",
    "fmod",
    "greater",
    "greater_equal",
    "hypot",
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
    *_elementwise_more.__all__,
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

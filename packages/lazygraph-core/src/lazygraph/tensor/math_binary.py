"""The elementwise functions of :mod:`lazygraph.tensor` of two or more operands,
named as in numpy and the array API (``add``, ``less``, ``where``, ``clip``,
``gcd``...), plus numpy's aliases (``power``, ``mod``, ``true_divide``...); those
of one operand are in :mod:`lazygraph.tensor.math`.

Each builds an ``Elemwise`` node of a row of the scalar table; Python scalar
operands are weak as in numpy 2 (NEP 50): ``int8_x + 1`` stays int8.

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("int8", (3,))
>>> (x + 1).dtype, lt.divide(x, 2).dtype, lt.less(x, 1000).dtype
('int8', 'float64', 'bool')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lazygraph.tensor.dtypes import is_weak_scalar
from lazygraph.tensor.elemwise import exact_int_comparison
from lazygraph.tensor.math import TensorLike, _apply, copy
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

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
    "equal",
    "floor_divide",
    "fmax",
    "fmin",
    "fmod",
    "gcd",
    "greater",
    "greater_equal",
    "hypot",
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
    "switch",
    "true_divide",
    "where",
]


def _compare(name: str, x: Any, y: Any) -> TensorVariable:
    return _apply(*exact_int_comparison(name, x, y))


def add(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x + y``, broadcasting; integers wrap around.

    >>> add(np.array([1, 127], dtype='int8'), 1).eval()
    array([   2, -128], dtype=int8)
    """
    return _apply("add", x, y)


def subtract(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x - y`` (bool minus bool is a TypeError, as in numpy).

    >>> subtract([3.0, 1.0], 1.0).eval()
    array([2., 0.])
    """
    return _apply("subtract", x, y)


def multiply(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x * y``.

    >>> multiply([1.5, -2.0], 2).eval()
    array([ 3., -4.])
    """
    return _apply("multiply", x, y)


def divide(x: TensorLike, y: TensorLike) -> TensorVariable:
    """True division ``x / y``; integers give float64, as in numpy.

    >>> divide([1, 2], 4).eval()
    array([0.25, 0.5 ])
    """
    return _apply("divide", x, y)


def floor_divide(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x // y``, rounding toward -inf; integer division by zero gives 0.

    >>> floor_divide([7, -7], 2).eval()
    array([ 3, -4])
    """
    return _apply("floor_divide", x, y)


def remainder(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x % y`` with the sign of ``y`` (Python's modulo).

    >>> remainder([7, -7], 3).eval()
    array([1, 2])
    """
    return _apply("remainder", x, y)


def fmod(x: TensorLike, y: TensorLike) -> TensorVariable:
    """The C remainder of ``x / y``, with the sign of ``x``.

    >>> fmod([7, -7], 3).eval()
    array([ 1, -1])
    """
    return _apply("fmod", x, y)


def pow(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x ** y``; an integer to a negative integer power is a ValueError, as in numpy.

    >>> pow([2.0, 3.0], 2).eval()
    array([4., 9.])
    """
    return _apply("pow", x, y)


def atan2(x1: TensorLike, x2: TensorLike) -> TensorVariable:
    """The angle of the point ``(x2, x1)``: ``arctan(x1 / x2)`` in the right quadrant.

    >>> atan2([1.0, -1.0], -1.0).eval()
    array([ 2.35619449, -2.35619449])
    """
    return _apply("atan2", x1, x2)


def hypot(x1: TensorLike, x2: TensorLike) -> TensorVariable:
    """``sqrt(x1**2 + x2**2)`` without overflow.

    >>> hypot([3.0], [4.0]).eval()
    array([5.])
    """
    return _apply("hypot", x1, x2)


def copysign(x1: TensorLike, x2: TensorLike) -> TensorVariable:
    """``|x1|`` with the sign of ``x2`` (its sign bit, so -0.0 counts as negative).

    >>> copysign([1.0, 2.0], [-0.0, 1.0]).eval()
    array([-1.,  2.])
    """
    return _apply("copysign", x1, x2)


def nextafter(x1: TensorLike, x2: TensorLike) -> TensorVariable:
    """The next representable float after ``x1`` toward ``x2``.

    >>> (nextafter([1.0], 2.0) - 1.0).eval()
    array([2.22044605e-16])
    """
    return _apply("nextafter", x1, x2)


def ldexp(x1: TensorLike, x2: TensorLike) -> TensorVariable:
    """``x1 * 2**x2`` for an integer ``x2``, elementwise (``numpy.ldexp``).

    >>> ldexp([1.5, 3.0], [2, -1]).eval()
    array([6. , 1.5])
    """
    return _apply("ldexp", x1, x2)


def gcd(x1: TensorLike, x2: TensorLike) -> TensorVariable:
    """The greatest common divisor of ``|x1|`` and ``|x2|``, elementwise
    (``numpy.gcd``; integers only).

    >>> gcd([12, 20], 8).eval()
    array([4, 4])
    """
    return _apply("gcd", x1, x2)


def lcm(x1: TensorLike, x2: TensorLike) -> TensorVariable:
    """The least common multiple of ``|x1|`` and ``|x2|``, elementwise
    (``numpy.lcm``; integers only).

    >>> lcm([4, 6], 10).eval()
    array([20, 30])
    """
    return _apply("lcm", x1, x2)


def logaddexp(x1: TensorLike, x2: TensorLike) -> TensorVariable:
    """``log(exp(x1) + exp(x2))`` without overflow.

    >>> logaddexp([1000.0], [1000.0]).eval()
    array([1000.69314718])
    """
    return _apply("logaddexp", x1, x2)


def logaddexp2(x1: TensorLike, x2: TensorLike) -> TensorVariable:
    """``log2(2**x1 + 2**x2)`` without overflow.

    >>> logaddexp2([1.0], [1.0]).eval()
    array([2.])
    """
    return _apply("logaddexp2", x1, x2)


def maximum(x: TensorLike, y: TensorLike) -> TensorVariable:
    """The elementwise maximum; NaN wins, as in numpy.

    >>> maximum([1.0, np.nan], [2.0, 0.0]).eval()
    array([ 2., nan])
    """
    return _apply("maximum", x, y)


def minimum(x: TensorLike, y: TensorLike) -> TensorVariable:
    """The elementwise minimum; NaN wins, as in numpy.

    >>> minimum([1.0, np.nan], [2.0, 0.0]).eval()
    array([ 1., nan])
    """
    return _apply("minimum", x, y)


def fmax(x: TensorLike, y: TensorLike) -> TensorVariable:
    """The elementwise maximum ignoring NaN (NaN only where both are).

    >>> fmax([1.0, np.nan], [2.0, 0.0]).eval()
    array([2., 0.])
    """
    return _apply("fmax", x, y)


def fmin(x: TensorLike, y: TensorLike) -> TensorVariable:
    """The elementwise minimum ignoring NaN (NaN only where both are).

    >>> fmin([1.0, np.nan], [2.0, 0.0]).eval()
    array([1., 0.])
    """
    return _apply("fmin", x, y)


def logical_and(x: TensorLike, y: TensorLike) -> TensorVariable:
    """Logical AND of the truth values.

    >>> logical_and([True, True], [0, 2]).eval()
    array([False,  True])
    """
    return _apply("logical_and", x, y)


def logical_or(x: TensorLike, y: TensorLike) -> TensorVariable:
    """Logical OR of the truth values.

    >>> logical_or([False, False], [0, 2]).eval()
    array([False,  True])
    """
    return _apply("logical_or", x, y)


def logical_xor(x: TensorLike, y: TensorLike) -> TensorVariable:
    """Logical XOR of the truth values.

    >>> logical_xor([True, True], [0, 2]).eval()
    array([ True, False])
    """
    return _apply("logical_xor", x, y)


def bitwise_and(x: TensorLike, y: TensorLike) -> TensorVariable:
    """Bitwise AND (``x & y``) of integers and bools.

    >>> bitwise_and([12, 10], 6).eval()
    array([4, 2])
    """
    return _apply("bitwise_and", x, y)


def bitwise_or(x: TensorLike, y: TensorLike) -> TensorVariable:
    """Bitwise OR (``x | y``) of integers and bools.

    >>> bitwise_or([12, 10], 6).eval()
    array([14, 14])
    """
    return _apply("bitwise_or", x, y)


def bitwise_xor(x: TensorLike, y: TensorLike) -> TensorVariable:
    """Bitwise XOR (``x ^ y``) of integers and bools.

    >>> bitwise_xor([12, 10], 6).eval()
    array([10, 12])
    """
    return _apply("bitwise_xor", x, y)


def bitwise_left_shift(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x << y`` (bits shifted out are lost).

    >>> bitwise_left_shift([1, 3], 2).eval()
    array([ 4, 12])
    """
    return _apply("bitwise_left_shift", x, y)


def bitwise_right_shift(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x >> y`` (arithmetic shift for signed integers).

    >>> bitwise_right_shift([8, -8], 2).eval()
    array([ 2, -2])
    """
    return _apply("bitwise_right_shift", x, y)


def equal(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x == y`` (``==`` on variables keeps Python's identity meaning: use this).

    >>> equal([1, 2], 2).eval()
    array([False,  True])
    """
    return _compare("equal", x, y)


def not_equal(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x != y``.

    >>> not_equal([1, 2], 2).eval()
    array([ True, False])
    """
    return _compare("not_equal", x, y)


def less(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x < y``.

    >>> less([1, 2], 2).eval()
    array([ True, False])
    """
    return _compare("less", x, y)


def less_equal(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x <= y``.

    >>> less_equal([1, 2], 2).eval()
    array([ True,  True])
    """
    return _compare("less_equal", x, y)


def greater(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x > y``.

    >>> greater([1, 2], 2).eval()
    array([False, False])
    """
    return _compare("greater", x, y)


def greater_equal(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x >= y``.

    >>> greater_equal([1, 2], 2).eval()
    array([False,  True])
    """
    return _compare("greater_equal", x, y)


def clip(x: TensorLike, min: TensorLike = None, max: TensorLike = None) -> TensorVariable:
    """``x`` limited to ``[min, max]``: ``minimum(maximum(x, min), max)``, so NaN
    propagates and ``max`` wins when ``min > max``. Either bound may be None. As
    numpy, a Python int bound outside an integer dtype's range is clamped to it.

    >>> clip([-2, 5, 9], 0, 6).eval()
    array([0, 5, 6])
    """
    x = as_tensor_variable(x) if not is_weak_scalar(x) else x
    if min is None and max is None:
        return copy(x)
    if min is not None and max is not None:
        return _apply("clip", x, min, max)
    bound = max if min is None else min
    if type(bound) is int and isinstance(x, TensorVariable) and x.type.numpy_dtype.kind in "iu":
        info = np.iinfo(x.type.numpy_dtype)
        bound = int(np.clip(bound, int(info.min), int(info.max)))
    return minimum(x, bound) if min is None else maximum(x, bound)


def where(condition: TensorLike, x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x`` where ``condition`` is true, else ``y`` (all three broadcast); the
    result dtype is that of ``x`` and ``y`` promoted together.

    >>> where([True, False], [1.0, 2.0], -1.0).eval()
    array([ 1., -1.])
    """
    return _apply("where", condition, x, y)


# numpy's other names for the same functions
arctan2 = atan2
left_shift = bitwise_left_shift
mod = remainder
power = pow
right_shift = bitwise_right_shift
switch = where
true_divide = divide

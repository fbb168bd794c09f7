"""The elementwise functions of :mod:`lazygraph.tensor`, named as in numpy and
the array API (``add``, ``exp``, ``less``, ``where``, ``cast``...), plus the
numpy aliases users expect (``absolute``, ``arccos``, ``power``, ``mod``...).

Each builds an ``Elemwise`` node of a row of the scalar table
(:mod:`lazygraph.tensor.scalar.table`). Inputs may be tensor variables, numpy
arrays, lists, or Python scalars; Python scalars are weak as in numpy 2 (NEP 50):
``int8_x + 1`` stays int8, ``int8_x + 1000`` raises ``OverflowError``,
``float32_x * 2.0`` stays float32. Shapes broadcast; sizes that cannot broadcast
raise ``ValueError`` when the graph is built.

The one intended difference from numpy: where numpy computes a float result
in float16 (``exp`` of bool, int8 or uint8 input), lazygraph uses float32.

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("int8", (3,))
>>> (x + 1).dtype, lt.exp(x).dtype, lt.divide(x, 2).dtype
('int8', 'float32', 'float64')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lazygraph.tensor.dtypes import is_weak_scalar
from lazygraph.tensor.elemwise import Elemwise, exact_int_comparison
from lazygraph.tensor.scalar import ScalarOp
from lazygraph.tensor.type import normalize_dtype
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable, constant

__all__ = [
    "abs",
    "absolute",
    "acos",
    "acosh",
    "add",
    "arccos",
    "arccosh",
    "arcsin",
    "arcsinh",
    "arctan",
    "arctan2",
    "arctanh",
    "around",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_not",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "cast",
    "cbrt",
    "ceil",
    "clip",
    "conj",
    "conjugate",
    "copy",
    "copysign",
    "cos",
    "cosh",
    "deg2rad",
    "degrees",
    "divide",
    "equal",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "expm1",
    "floor",
    "floor_divide",
    "fmax",
    "fmin",
    "fmod",
    "gcd",
    "greater",
    "greater_equal",
    "hypot",
    "imag",
    "invert",
    "isfinite",
    "isinf",
    "isnan",
    "lcm",
    "ldexp",
    "left_shift",
    "less",
    "less_equal",
    "log",
    "log1mexp",
    "log1p",
    "log2",
    "log10",
    "log_sigmoid",
    "logaddexp",
    "logaddexp2",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "mod",
    "multiply",
    "negative",
    "nextafter",
    "not_equal",
    "positive",
    "pow",
    "power",
    "rad2deg",
    "radians",
    "real",
    "reciprocal",
    "remainder",
    "right_shift",
    "rint",
    "round",
    "sigmoid",
    "sign",
    "signbit",
    "sin",
    "sinh",
    "softplus",
    "spacing",
    "sqrt",
    "square",
    "subtract",
    "switch",
    "tan",
    "tanh",
    "true_divide",
    "trunc",
    "where",
]

#: What the functions accept: a tensor variable, or data (array, list, Python scalar).
TensorLike = Any

_ops: dict[tuple[str, tuple[Any, ...]], Elemwise] = {}


def _apply(name: str, *inputs: Any, params: tuple[Any, ...] = ()) -> TensorVariable:
    op = _ops.get((name, params))
    if op is None:
        op = _ops[(name, params)] = Elemwise(ScalarOp(name, params))
    return op(*inputs)  # type: ignore[no-any-return]


def _compare(name: str, x: Any, y: Any) -> TensorVariable:
    return _apply(*exact_int_comparison(name, x, y))


def abs(x: TensorLike) -> TensorVariable:
    """The absolute value ``|x|`` (the modulus of complex numbers, as a real dtype).

    >>> abs([-1.5, 0.0, 2.0]).eval()
    array([1.5, 0. , 2. ])
    """
    return _apply("abs", x)


def acos(x: TensorLike) -> TensorVariable:
    """The inverse cosine, in radians.

    >>> acos([1.0, 0.0]).eval()
    array([0.        , 1.57079633])
    """
    return _apply("acos", x)


def acosh(x: TensorLike) -> TensorVariable:
    """The inverse hyperbolic cosine.

    >>> acosh([1.0, 2.0]).eval()
    array([0.       , 1.3169579])
    """
    return _apply("acosh", x)


def asin(x: TensorLike) -> TensorVariable:
    """The inverse sine, in radians.

    >>> asin([0.0, 1.0]).eval()
    array([0.        , 1.57079633])
    """
    return _apply("asin", x)


def asinh(x: TensorLike) -> TensorVariable:
    """The inverse hyperbolic sine.

    >>> asinh([0.0, 1.0]).eval()
    array([0.        , 0.88137359])
    """
    return _apply("asinh", x)


def atan(x: TensorLike) -> TensorVariable:
    """The inverse tangent, in radians.

    >>> atan([0.0, 1.0]).eval()
    array([0.        , 0.78539816])
    """
    return _apply("atan", x)


def atanh(x: TensorLike) -> TensorVariable:
    """The inverse hyperbolic tangent.

    >>> atanh([0.0, 0.5]).eval()
    array([0.        , 0.54930614])
    """
    return _apply("atanh", x)


def bitwise_invert(x: TensorLike) -> TensorVariable:
    """Bitwise NOT (``~x``) of integers and bools.

    >>> bitwise_invert(constant([0, 5], dtype='uint8')).eval()
    array([255, 250], dtype=uint8)
    """
    return _apply("bitwise_invert", x)


def ceil(x: TensorLike) -> TensorVariable:
    """The smallest integer-valued number ``>= x`` (integers unchanged).

    >>> ceil([-1.5, 1.2]).eval()
    array([-1.,  2.])
    """
    return _apply("ceil", x)


def conj(x: TensorLike) -> TensorVariable:
    """The complex conjugate (numpy gives int8 for bool).

    >>> conj([1 + 2j]).eval()
    array([1.-2.j])
    """
    return _apply("conj", x)


def cos(x: TensorLike) -> TensorVariable:
    """The cosine of an angle in radians.

    >>> cos([0.0, np.pi]).eval()
    array([ 1., -1.])
    """
    return _apply("cos", x)


def cosh(x: TensorLike) -> TensorVariable:
    """The hyperbolic cosine.

    >>> cosh([0.0, 1.0]).eval()
    array([1.        , 1.54308063])
    """
    return _apply("cosh", x)


def exp(x: TensorLike) -> TensorVariable:
    """``e**x``.

    >>> exp([0.0, 1.0]).eval()
    array([1.        , 2.71828183])
    """
    return _apply("exp", x)


def exp2(x: TensorLike) -> TensorVariable:
    """``2**x``.

    >>> exp2([0.0, 3.0]).eval()
    array([1., 8.])
    """
    return _apply("exp2", x)


def expm1(x: TensorLike) -> TensorVariable:
    """``exp(x) - 1``, accurate for small ``x``.

    >>> expm1([0.0, 1e-10]).eval()
    array([0.e+00, 1.e-10])
    """
    return _apply("expm1", x)


def floor(x: TensorLike) -> TensorVariable:
    """The largest integer-valued number ``<= x`` (integers unchanged).

    >>> floor([-1.5, 1.2]).eval()
    array([-2.,  1.])
    """
    return _apply("floor", x)


def imag(x: TensorLike) -> TensorVariable:
    """The imaginary part (zeros of the same dtype for real input).

    >>> imag([1 + 2j]).eval()
    array([2.])
    """
    return _apply("imag", x)


def isfinite(x: TensorLike) -> TensorVariable:
    """Whether each element is neither infinite nor NaN.

    >>> isfinite([1.0, np.inf, np.nan]).eval()
    array([ True, False, False])
    """
    return _apply("isfinite", x)


def isinf(x: TensorLike) -> TensorVariable:
    """Whether each element is positive or negative infinity.

    >>> isinf([1.0, -np.inf, np.nan]).eval()
    array([False,  True, False])
    """
    return _apply("isinf", x)


def isnan(x: TensorLike) -> TensorVariable:
    """Whether each element is NaN.

    >>> isnan([1.0, np.nan]).eval()
    array([False,  True])
    """
    return _apply("isnan", x)


def log(x: TensorLike) -> TensorVariable:
    """The natural logarithm.

    >>> log([1.0, np.e]).eval()
    array([0., 1.])
    """
    return _apply("log", x)


def log1p(x: TensorLike) -> TensorVariable:
    """``log(1 + x)``, accurate for small ``x``.

    >>> log1p([0.0, 1e-10]).eval()
    array([0.e+00, 1.e-10])
    """
    return _apply("log1p", x)


def log2(x: TensorLike) -> TensorVariable:
    """The base-2 logarithm.

    >>> log2([1.0, 8.0]).eval()
    array([0., 3.])
    """
    return _apply("log2", x)


def log10(x: TensorLike) -> TensorVariable:
    """The base-10 logarithm.

    >>> log10([1.0, 100.0]).eval()
    array([0., 2.])
    """
    return _apply("log10", x)


def logical_not(x: TensorLike) -> TensorVariable:
    """Logical NOT of the truth value of each element.

    >>> logical_not([0, 2]).eval()
    array([ True, False])
    """
    return _apply("logical_not", x)


def negative(x: TensorLike) -> TensorVariable:
    """``-x`` (integers wrap around; bool is a TypeError, as in numpy).

    >>> negative(constant([1, -128], dtype='int8')).eval()
    array([  -1, -128], dtype=int8)
    """
    return _apply("negative", x)


def positive(x: TensorLike) -> TensorVariable:
    """``+x``: a copy of ``x`` (bool is a TypeError, as in numpy).

    >>> positive([1.5, -2.0]).eval()
    array([ 1.5, -2. ])
    """
    return _apply("positive", x)


def real(x: TensorLike) -> TensorVariable:
    """The real part (``x`` itself for real input).

    >>> real([1 + 2j]).eval()
    array([1.])
    """
    return _apply("real", x)


def reciprocal(x: TensorLike) -> TensorVariable:
    """``1 / x``; for integers numpy's integer reciprocal (``1 // x`` truncating toward zero).

    >>> reciprocal([2.0, 4.0]).eval()
    array([0.5 , 0.25])
    """
    return _apply("reciprocal", x)


def rint(x: TensorLike) -> TensorVariable:
    """Round to the nearest integer value, halves to even; floats out.

    >>> rint([0.5, 1.5, -2.7]).eval()
    array([ 0.,  2., -3.])
    """
    return _apply("rint", x)


def sign(x: TensorLike) -> TensorVariable:
    """-1, 0 or 1 by the sign of ``x`` (NaN stays NaN; ``z/|z|`` for complex).

    >>> sign([-3.0, 0.0, 2.0]).eval()
    array([-1.,  0.,  1.])
    """
    return _apply("sign", x)


def signbit(x: TensorLike) -> TensorVariable:
    """Whether the sign bit is set (True for -0.0).

    >>> signbit([-0.0, 0.0, -1.0]).eval()
    array([ True, False,  True])
    """
    return _apply("signbit", x)


def sin(x: TensorLike) -> TensorVariable:
    """The sine of an angle in radians.

    >>> sin([0.0, np.pi / 2]).eval()
    array([0., 1.])
    """
    return _apply("sin", x)


def sinh(x: TensorLike) -> TensorVariable:
    """The hyperbolic sine.

    >>> sinh([0.0, 1.0]).eval()
    array([0.        , 1.17520119])
    """
    return _apply("sinh", x)


def sqrt(x: TensorLike) -> TensorVariable:
    """The non-negative square root (NaN for negative reals).

    >>> sqrt([4.0, 2.0]).eval()
    array([2.        , 1.41421356])
    """
    return _apply("sqrt", x)


def cbrt(x: TensorLike) -> TensorVariable:
    """The cube root.

    >>> cbrt([8.0, -27.0]).eval()
    array([ 2., -3.])
    """
    return _apply("cbrt", x)


def square(x: TensorLike) -> TensorVariable:
    """``x * x`` (numpy gives int8 for bool).

    >>> square([1.5, -2.0]).eval()
    array([2.25, 4.  ])
    """
    return _apply("square", x)


def tan(x: TensorLike) -> TensorVariable:
    """The tangent of an angle in radians.

    >>> tan([0.0, 1.0]).eval()
    array([0.        , 1.55740772])
    """
    return _apply("tan", x)


def tanh(x: TensorLike) -> TensorVariable:
    """The hyperbolic tangent.

    >>> tanh([0.0, 1.0]).eval()
    array([0.        , 0.76159416])
    """
    return _apply("tanh", x)


def trunc(x: TensorLike) -> TensorVariable:
    """Round toward zero (integers unchanged).

    >>> trunc([-1.5, 1.7]).eval()
    array([-1.,  1.])
    """
    return _apply("trunc", x)


def deg2rad(x: TensorLike) -> TensorVariable:
    """Degrees to radians.

    >>> deg2rad([180.0]).eval()
    array([3.14159265])
    """
    return _apply("deg2rad", x)


def rad2deg(x: TensorLike) -> TensorVariable:
    """Radians to degrees.

    >>> rad2deg([np.pi]).eval()
    array([180.])
    """
    return _apply("rad2deg", x)


def sigmoid(x: TensorLike) -> TensorVariable:
    """The logistic function ``1 / (1 + exp(-x))``, without overflow.

    >>> sigmoid([-1000.0, 0.0, 2.0]).eval()
    array([0.        , 0.5       , 0.88079708])
    """
    return _apply("sigmoid", x)


def softplus(x: TensorLike) -> TensorVariable:
    """``log(1 + exp(x))``, without overflow.

    >>> softplus([-1000.0, 0.0, 1000.0]).eval()
    array([0.00000000e+00, 6.93147181e-01, 1.00000000e+03])
    """
    return _apply("softplus", x)


def log_sigmoid(x: TensorLike) -> TensorVariable:
    """``log(sigmoid(x)) = -softplus(-x)``, without overflow.

    >>> log_sigmoid([-1000.0, 0.0]).eval()
    array([-1.00000000e+03, -6.93147181e-01])
    """
    return _apply("log_sigmoid", x)


def log1mexp(x: TensorLike) -> TensorVariable:
    """``log(1 - exp(x))`` for ``x <= 0``, accurate near 0 and for large ``-x``.

    >>> log1mexp([-1e-20, -1.0, -50.0]).eval()
    array([-4.60517019e+01, -4.58675145e-01, -1.92874985e-22])
    """
    return _apply("log1mexp", x)


def erf(x: TensorLike) -> TensorVariable:
    """The error function (``scipy.special.erf`` when scipy is installed, else a numpy evaluation).

    >>> erf([0.0, 0.5]).eval()
    array([0.        , 0.52049988])
    """
    return _apply("erf", x)


def erfc(x: TensorLike) -> TensorVariable:
    """The complementary error function ``1 - erf(x)``, accurate for large ``x``.

    >>> erfc([0.0, 10.0]).eval()
    array([1.00000000e+00, 2.08848758e-45])
    """
    return _apply("erfc", x)


def add(x: TensorLike, y: TensorLike) -> TensorVariable:
    """``x + y``, broadcasting; integers wrap around.

    >>> add(constant([1, 127], dtype='int8'), 1).eval()
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


def spacing(x: TensorLike) -> TensorVariable:
    """The distance from ``x`` to the next larger-magnitude float, elementwise
    (``numpy.spacing``; integers in float).

    >>> spacing([1.0]).eval()
    array([2.22044605e-16])
    """
    return _apply("spacing", x)


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


def round(x: TensorLike, decimals: int = 0) -> TensorVariable:
    """Round to ``decimals`` decimal places, halves to even (integers stay integers).

    >>> round([0.5, 1.5, 2.675], 0).eval()
    array([0., 2., 3.])
    """
    return _apply("round", x, params=(int(decimals),))


def cast(x: TensorLike, dtype: Any) -> TensorVariable:
    """``x.astype(dtype)`` with numpy's (unsafe) casting; ``x`` itself when it
    already has that dtype.

    >>> cast([1.7, -1.7], "int32").eval()
    array([ 1, -1], dtype=int32)
    """
    dtype = normalize_dtype(dtype)
    if not is_weak_scalar(x):
        x = as_tensor_variable(x)
        if x.type.dtype == dtype:
            return x
    else:
        x = constant(x)
    return _apply("cast", x, params=(dtype,))


def copy(x: TensorLike) -> TensorVariable:
    """A copy of ``x`` (a new node: the graph never aliases it with ``x``).

    >>> copy([1, 2]).eval()
    array([1, 2])
    """
    return _apply("copy", x)


# numpy's other names for the same functions
absolute = abs
arccos = acos
arccosh = acosh
arcsin = asin
arcsinh = asinh
arctan = atan
arctan2 = atan2
arctanh = atanh
around = round
bitwise_not = bitwise_invert
conjugate = conj
degrees = rad2deg
invert = bitwise_invert
left_shift = bitwise_left_shift
mod = remainder
power = pow
radians = deg2rad
right_shift = bitwise_right_shift
switch = where  # Theano's name
true_divide = divide

"""The elementwise functions of :mod:`lazygraph.tensor` of one operand, named as
in numpy and the array API (``exp``, ``sqrt``, ``isnan``, ``cast``...), plus the
numpy aliases users expect (``absolute``, ``arccos``...); those of two or more
operands (``add``, ``less``, ``where``...) are in :mod:`lazygraph.tensor.math_binary`.

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

import numpy as np  # noqa: F401  (the examples in the docstrings use it)

from lazygraph.tensor.dtypes import is_weak_scalar
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.scalar import ScalarOp
from lazygraph.tensor.type import normalize_dtype
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable, constant

__all__ = [
    "abs",
    "absolute",
    "acos",
    "acosh",
    "arccos",
    "arccosh",
    "arcsin",
    "arcsinh",
    "arctan",
    "arctanh",
    "around",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "bitwise_invert",
    "bitwise_not",
    "cast",
    "cbrt",
    "ceil",
    "conj",
    "conjugate",
    "copy",
    "cos",
    "cosh",
    "deg2rad",
    "degrees",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "expm1",
    "floor",
    "imag",
    "invert",
    "isfinite",
    "isinf",
    "isnan",
    "log",
    "log1mexp",
    "log1p",
    "log2",
    "log10",
    "log_sigmoid",
    "logical_not",
    "negative",
    "positive",
    "rad2deg",
    "radians",
    "real",
    "reciprocal",
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
    "tan",
    "tanh",
    "trunc",
]

#: What the functions accept: a tensor variable, or data (array, list, Python scalar).
TensorLike = Any

_ops: dict[tuple[str, tuple[Any, ...]], Elemwise] = {}


def _apply(name: str, *inputs: Any, params: tuple[Any, ...] = ()) -> TensorVariable:
    op = _ops.get((name, params))
    if op is None:
        op = _ops[(name, params)] = Elemwise(ScalarOp(name, params))
    return op(*inputs)  # type: ignore[no-any-return]


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


def spacing(x: TensorLike) -> TensorVariable:
    """The distance from ``x`` to the next larger-magnitude float, elementwise
    (``numpy.spacing``; integers in float).

    >>> spacing([1.0]).eval()
    array([2.22044605e-16])
    """
    return _apply("spacing", x)


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
arctanh = atanh
around = round
bitwise_not = bitwise_invert
conjugate = conj
degrees = rad2deg
invert = bitwise_invert
radians = deg2rad

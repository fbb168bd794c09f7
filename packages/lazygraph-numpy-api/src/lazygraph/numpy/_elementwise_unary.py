"""The one-argument elementwise functions: numpy's unary ufuncs, with the
array API names as aliases (``acos`` is ``arccos``, as in numpy 2), and
``fabs``, ``round``/``around``, ``isposinf``/``isneginf``, ``nan_to_num`` and
``sinc``.

The ufuncs accept numpy's ufunc keywords: ``dtype=`` (compute in that dtype),
``casting``/``order``/``subok`` (accepted); ``out=`` and ``where=`` raise, since
lazygraph arrays are values, not buffers.
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._ufunc import ArrayLike, accepts_out, apply_ufunc, ufunc_dtype, write_out

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
    "cbrt",
    "ceil",
    "conj",
    "conjugate",
    "cos",
    "cosh",
    "deg2rad",
    "degrees",
    "exp",
    "exp2",
    "expm1",
    "fabs",
    "fix",
    "floor",
    "invert",
    "isfinite",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "log",
    "log1p",
    "log2",
    "log10",
    "logical_not",
    "nan_to_num",
    "negative",
    "positive",
    "rad2deg",
    "radians",
    "reciprocal",
    "rint",
    "round",
    "sign",
    "signbit",
    "sin",
    "sinc",
    "sinh",
    "spacing",
    "sqrt",
    "square",
    "tan",
    "tanh",
    "trunc",
]


def absolute(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The absolute value ``|x|`` (a complex number's modulus, in the real dtype),
    elementwise (``numpy.absolute``).

    >>> absolute([-1.5, 0.0, 2.0]).compute()
    array([1.5, 0. , 2. ])
    """
    return apply_ufunc("absolute", lt.abs, (x,), out, kwargs)


def arccos(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The inverse cosine, in radians, elementwise (``numpy.arccos``).

    >>> arccos([1.0, 0.0]).compute()
    array([0.        , 1.57079633])
    """
    return apply_ufunc("arccos", lt.acos, (x,), out, kwargs)


def arccosh(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The inverse hyperbolic cosine, elementwise (``numpy.arccosh``).

    >>> arccosh([1.0, 2.0]).compute()
    array([0.       , 1.3169579])
    """
    return apply_ufunc("arccosh", lt.acosh, (x,), out, kwargs)


def arcsin(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The inverse sine, in radians, elementwise (``numpy.arcsin``).

    >>> arcsin([0.0, 1.0]).compute()
    array([0.        , 1.57079633])
    """
    return apply_ufunc("arcsin", lt.asin, (x,), out, kwargs)


def arcsinh(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The inverse hyperbolic sine, elementwise (``numpy.arcsinh``).

    >>> arcsinh([0.0, 1.0]).compute()
    array([0.        , 0.88137359])
    """
    return apply_ufunc("arcsinh", lt.asinh, (x,), out, kwargs)


def arctan(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The inverse tangent, in radians, elementwise (``numpy.arctan``).

    >>> arctan([0.0, 1.0]).compute()
    array([0.        , 0.78539816])
    """
    return apply_ufunc("arctan", lt.atan, (x,), out, kwargs)


def arctanh(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The inverse hyperbolic tangent, elementwise (``numpy.arctanh``).

    >>> arctanh([0.0, 0.5]).compute()
    array([0.        , 0.54930614])
    """
    return apply_ufunc("arctanh", lt.atanh, (x,), out, kwargs)


def invert(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Bitwise NOT ``~x`` of integers and bools, elementwise (``numpy.invert``).

    >>> invert([True, False]).compute()
    array([False,  True])
    """
    return apply_ufunc("invert", lt.bitwise_invert, (x,), out, kwargs)


def cbrt(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The real cube root, elementwise (``numpy.cbrt``).

    >>> cbrt([-8.0, 27.0]).compute()
    array([-2.,  3.])
    """
    return apply_ufunc("cbrt", lt.cbrt, (x,), out, kwargs)


def ceil(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The smallest integer-valued number ``>= x`` (integers unchanged),
    elementwise (``numpy.ceil``).

    >>> ceil([-1.5, 1.2]).compute()
    array([-1.,  2.])
    """
    return apply_ufunc("ceil", lt.ceil, (x,), out, kwargs)


def conjugate(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The complex conjugate, elementwise (``numpy.conjugate``).

    >>> conjugate([1 + 2j]).compute()
    array([1.-2.j])
    """
    return apply_ufunc("conjugate", lt.conj, (x,), out, kwargs)


def cos(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The cosine of an angle in radians, elementwise (``numpy.cos``).

    >>> cos([0.0, 1.0]).compute()
    array([1.        , 0.54030231])
    """
    return apply_ufunc("cos", lt.cos, (x,), out, kwargs)


def cosh(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The hyperbolic cosine, elementwise (``numpy.cosh``).

    >>> cosh([0.0, 1.0]).compute()
    array([1.        , 1.54308063])
    """
    return apply_ufunc("cosh", lt.cosh, (x,), out, kwargs)


def deg2rad(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Degrees converted to radians, elementwise (``numpy.deg2rad``).

    >>> deg2rad([180.0, 90.0]).compute()
    array([3.14159265, 1.57079633])
    """
    return apply_ufunc("deg2rad", lt.deg2rad, (x,), out, kwargs)


def rad2deg(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Radians converted to degrees, elementwise (``numpy.rad2deg``).

    >>> rad2deg([1.0, 2.0]).compute()
    array([ 57.29577951, 114.59155903])
    """
    return apply_ufunc("rad2deg", lt.rad2deg, (x,), out, kwargs)


def exp(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The exponential ``e**x``, elementwise (``numpy.exp``).

    >>> exp([0.0, 1.0]).compute()
    array([1.        , 2.71828183])
    """
    return apply_ufunc("exp", lt.exp, (x,), out, kwargs)


def exp2(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``2**x``, elementwise (``numpy.exp2``).

    >>> exp2([0.0, 3.0]).compute()
    array([1., 8.])
    """
    return apply_ufunc("exp2", lt.exp2, (x,), out, kwargs)


def expm1(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``exp(x) - 1``, accurate for small ``x``, elementwise (``numpy.expm1``).

    >>> expm1([0.0, 1e-10]).compute()
    array([0.e+00, 1.e-10])
    """
    return apply_ufunc("expm1", lt.expm1, (x,), out, kwargs)


def floor(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The largest integer-valued number ``<= x`` (integers unchanged),
    elementwise (``numpy.floor``).

    >>> floor([-1.5, 1.2]).compute()
    array([-2.,  1.])
    """
    return apply_ufunc("floor", lt.floor, (x,), out, kwargs)


def isfinite(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Whether each element is neither infinite nor NaN, elementwise (``numpy.isfinite``).

    >>> isfinite([1.0, float('inf'), float('nan')]).compute()
    array([ True, False, False])
    """
    return apply_ufunc("isfinite", lt.isfinite, (x,), out, kwargs)


def isinf(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Whether each element is positive or negative infinity, elementwise (``numpy.isinf``).

    >>> isinf([1.0, float('-inf'), float('nan')]).compute()
    array([False,  True, False])
    """
    return apply_ufunc("isinf", lt.isinf, (x,), out, kwargs)


def isnan(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Whether each element is NaN, elementwise (``numpy.isnan``).

    >>> isnan([1.0, float('inf'), float('nan')]).compute()
    array([False, False,  True])
    """
    return apply_ufunc("isnan", lt.isnan, (x,), out, kwargs)


def log(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The natural logarithm, elementwise (``numpy.log``).

    >>> log([1.0, 10.0]).compute()
    array([0.        , 2.30258509])
    """
    return apply_ufunc("log", lt.log, (x,), out, kwargs)


def log10(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The base-10 logarithm, elementwise (``numpy.log10``).

    >>> log10([1.0, 1000.0]).compute()
    array([0., 3.])
    """
    return apply_ufunc("log10", lt.log10, (x,), out, kwargs)


def log1p(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``log(1 + x)``, accurate for small ``x``, elementwise (``numpy.log1p``).

    >>> log1p([0.0, 1e-10]).compute()
    array([0.e+00, 1.e-10])
    """
    return apply_ufunc("log1p", lt.log1p, (x,), out, kwargs)


def log2(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The base-2 logarithm, elementwise (``numpy.log2``).

    >>> log2([1.0, 8.0]).compute()
    array([0., 3.])
    """
    return apply_ufunc("log2", lt.log2, (x,), out, kwargs)


def logical_not(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Logical NOT: True where ``x`` is zero, elementwise (``numpy.logical_not``).

    >>> logical_not([0, 1, 2]).compute()
    array([ True, False, False])
    """
    x = bool(x) if isinstance(x, int | float | complex) and not isinstance(x, np.generic) else x
    return apply_ufunc("logical_not", lt.logical_not, (x,), out, kwargs)


def negative(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``-x``, elementwise (``numpy.negative``).

    >>> negative([1, -2]).compute()
    array([-1,  2])
    """
    return apply_ufunc("negative", lt.negative, (x,), out, kwargs)


def positive(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``+x`` (a copy), elementwise (``numpy.positive``).

    >>> positive([1, -2]).compute()
    array([ 1, -2])
    """
    return apply_ufunc("positive", lt.positive, (x,), out, kwargs)


def reciprocal(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``1 / x`` (for integers numpy's truncating integer reciprocal),
    elementwise (``numpy.reciprocal``).

    >>> reciprocal([2.0, 4.0]).compute()
    array([0.5 , 0.25])
    """
    return apply_ufunc("reciprocal", lt.reciprocal, (x,), out, kwargs)


def rint(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Round to the nearest integer, halves to even, elementwise (``numpy.rint``).

    >>> rint([0.5, 1.5, -2.7]).compute()
    array([ 0.,  2., -3.])
    """
    return apply_ufunc("rint", lt.rint, (x,), out, kwargs)


def sign(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The sign: -1, 0 or 1 (NaN for NaN; ``x / |x|`` for complex), elementwise (``numpy.sign``).

    >>> sign([-3.0, 0.0, 2.0]).compute()
    array([-1.,  0.,  1.])
    """
    return apply_ufunc("sign", lt.sign, (x,), out, kwargs)


def signbit(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Whether the sign bit is set (True for -0.0), elementwise (``numpy.signbit``).

    >>> signbit([-1.0, -0.0, 0.0]).compute()
    array([ True,  True, False])
    """
    return apply_ufunc("signbit", lt.signbit, (x,), out, kwargs)


def sin(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The sine of an angle in radians, elementwise (``numpy.sin``).

    >>> sin([0.0, 1.0]).compute()
    array([0.        , 0.84147098])
    """
    return apply_ufunc("sin", lt.sin, (x,), out, kwargs)


def sinh(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The hyperbolic sine, elementwise (``numpy.sinh``).

    >>> sinh([0.0, 1.0]).compute()
    array([0.        , 1.17520119])
    """
    return apply_ufunc("sinh", lt.sinh, (x,), out, kwargs)


def sqrt(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The non-negative square root (NaN for negative reals), elementwise (``numpy.sqrt``).

    >>> sqrt([4.0, 2.0]).compute()
    array([2.        , 1.41421356])
    """
    return apply_ufunc("sqrt", lt.sqrt, (x,), out, kwargs)


def square(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """``x * x``, elementwise (``numpy.square``).

    >>> square([3, -4]).compute()
    array([ 9, 16])
    """
    return apply_ufunc("square", lt.square, (x,), out, kwargs)


def tan(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The tangent of an angle in radians, elementwise (``numpy.tan``).

    >>> tan([0.0, 1.0]).compute()
    array([0.        , 1.55740772])
    """
    return apply_ufunc("tan", lt.tan, (x,), out, kwargs)


def tanh(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The hyperbolic tangent, elementwise (``numpy.tanh``).

    >>> tanh([0.0, 1.0]).compute()
    array([0.        , 0.76159416])
    """
    return apply_ufunc("tanh", lt.tanh, (x,), out, kwargs)


def fix(x: ArrayLike, out: None = None) -> Array:
    """Round toward zero (integers and bools unchanged), elementwise
    (``numpy.fix``, which is ``trunc``).

    >>> fix([-1.7, 1.7]).compute()
    array([-1.,  1.])
    """
    return apply_ufunc("fix", lt.trunc, (x,), out, {})


def trunc(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """Round toward zero (integers unchanged), elementwise (``numpy.trunc``).

    >>> trunc([-1.7, 1.7]).compute()
    array([-1.,  1.])
    """
    return apply_ufunc("trunc", lt.trunc, (x,), out, kwargs)


abs = absolute
acos = arccos
acosh = arccosh
asin = arcsin
asinh = arcsinh
atan = arctan
atanh = arctanh
bitwise_invert = invert
bitwise_not = invert
conj = conjugate
degrees = rad2deg
radians = deg2rad


def spacing(x: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The distance from ``x`` to the next larger-magnitude float, elementwise
    (``numpy.spacing``; integers in float).

    >>> spacing([1.0]).compute()
    array([2.22044605e-16])
    """
    return apply_ufunc("spacing", lt.spacing, (x,), out, kwargs)


# -- not plain ufunc wrappers ----------------------------------------------------


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


@accepts_out(casting="same_kind", exact=None)
def round(a: ArrayLike, decimals: int = 0, out: None = None) -> Array:
    """Round to ``decimals`` decimal places, halves to even (``numpy.round``);
    integers stay integers, and a negative ``decimals`` rounds to tens, hundreds...

    >>> round([1.234, 5.678], 1).compute()
    array([1.2, 5.7])
    >>> round([0.5, 1.5, 2.5]).compute()
    array([0., 2., 2.])
    """
    return wrap(lt.round(as_variable(a), int(decimals)))


around = round


def _real_tensor(name: str, x: ArrayLike) -> Any:
    v = lt.as_tensor_variable(as_variable(x))
    if np.dtype(v.dtype).kind == "c":
        raise TypeError(f"{name}: this operation is not supported for complex values")
    return v


@accepts_out(exact=None)  # (a ufunc in numpy: it broadcasts into out)
def isposinf(x: ArrayLike, out: None = None) -> Array:
    """Whether each element is positive infinity (``numpy.isposinf``).

    >>> isposinf([1.0, float("inf"), float("-inf")]).compute()
    array([False,  True, False])
    """
    v = _real_tensor("isposinf", x)
    return wrap(lt.logical_and(lt.isinf(v), lt.greater(v, 0)))


@accepts_out(exact=None)
def isneginf(x: ArrayLike, out: None = None) -> Array:
    """Whether each element is negative infinity (``numpy.isneginf``).

    >>> isneginf([1.0, float("inf"), float("-inf")]).compute()
    array([False, False,  True])
    """
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

    ``copy=False`` replaces in place, as numpy's: a numpy array is written, a
    lazy array rebound, and ``x`` returned.
    """
    v = lt.as_tensor_variable(as_variable(x))
    kind = np.dtype(v.dtype).kind
    if kind == "f":
        result = _nan_to_num_real(v, nan, posinf, neginf)
    elif kind == "c":
        re = _nan_to_num_real(lt.real(v), nan, posinf, neginf)
        im = _nan_to_num_real(lt.imag(v), nan, posinf, neginf)
        rebuilt = lt.add(lt.cast(re, v.dtype), lt.multiply(lt.cast(im, v.dtype), 1j))
        result = lt.where(lt.isfinite(v), v, rebuilt)  # (finite values keep their -0.0)
    else:
        result = lt.copy(v)
    if not copy and isinstance(x, Array | np.ndarray):
        if kind not in "fc":
            return x  # nothing to replace
        return write_out("nan_to_num", wrap(result), x, casting="unsafe", kind="array")
    return wrap(result)


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

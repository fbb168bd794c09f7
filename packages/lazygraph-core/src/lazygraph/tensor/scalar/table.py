"""The table of elementwise functions: one :class:`ScalarRow` per function.

Columns: name, arity, accepted dtype category, output dtype rule, numpy
function, derivative. A derivative ``grad(*inputs, out, gz)`` returns, per
input, the gradient in the broadcast output shape built from
:mod:`lazygraph.tensor` functions (so gradients of gradients work), or ``None``
for zero; a row whose ``grad`` is ``None`` has a zero gradient everywhere
(discrete results: comparisons, ``floor``, ``sign``...). ``Elemwise`` casts
each gradient to its input's dtype and sums it back to the input's shape;
integer and bool inputs never get one.

>>> from lazygraph.tensor.scalar.basic import ROWS
>>> ROWS["exp"].accepts, ROWS["exp"].out(["int16"], ()), ROWS["less"].out(["float32"], ())
('all', 'float32', 'bool')
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import lazygraph.tensor as lt
from lazygraph.graph.basic import Constant
from lazygraph.tensor.scalar import special
from lazygraph.tensor.scalar.basic import (
    ScalarRow,
    out_bool,
    out_float,
    out_param_dtype,
    out_real,
    out_round,
    out_same,
    out_same_bool_int8,
    out_true_divide,
    register_row,
)

__all__: list[str] = []

_LN2 = math.log(2.0)
_NUMPY_VERSION = tuple(int(p) for p in np.__version__.split(".")[:2])
_LN10 = math.log(10.0)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _row(
    name: str,
    nin: int,
    accepts: str,
    out: Any,
    fn: Any,
    grad: Any,
    numpy_name: str | None = None,
    **kw: Any,
) -> None:
    register_row(
        ScalarRow(name, nin, accepts, out, fn, grad, numpy_name=numpy_name or fn.__name__, **kw)
    )


#: the float functions numpy computes with SIMD loops of its own (see ScalarRow.simd)
_SIMD = frozenset(
    {"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan"}
    | {"sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh"}
    | {"sigmoid", "softplus"}
)


def _float_row(name: str, fn: Any, grad: Any, accepts: str = "all", nin: int = 1) -> None:
    # Float-valued functions compute integer inputs in the upcast float dtype.
    _row(name, nin, accepts, out_float, fn, grad, cast_inputs=True, simd=name in _SIMD)


# -- arithmetic ---------------------------------------------------------------

_row("add", 2, "all", out_same, np.add, lambda x, y, out, gz: (gz, gz))
_row("subtract", 2, "numeric", out_same, np.subtract, lambda x, y, out, gz: (gz, -gz))
_row("multiply", 2, "all", out_same, np.multiply, lambda x, y, out, gz: (gz * y, gz * x))
_row(
    "divide",
    2,
    "all",
    out_true_divide,
    np.divide,
    lambda x, y, out, gz: (gz / y, -gz * out / y),
)
_row("floor_divide", 2, "real", out_same_bool_int8, np.floor_divide, None)
_row(
    "remainder",
    2,
    "real",
    out_same_bool_int8,
    np.remainder,
    lambda x, y, out, gz: (gz, -gz * lt.floor_divide(x, y)),
)
_row(
    "fmod",
    2,
    "real",
    out_same_bool_int8,
    np.fmod,
    lambda x, y, out, gz: (gz, -gz * lt.trunc(x / y)),
)


def _pow_grad(x: Any, y: Any, out: Any, gz: Any) -> tuple[Any, Any]:
    # d/dx x**y = y x**(y-1) is 0 * inf at x = y = 0, where x**0 = 1 is constant:
    # the gradient is 0. Only that point's base is replaced (by 1), so the rule and
    # its own derivatives stay exact everywhere else (x**0 at x = 2 still has
    # d2/dxdy = 1/x), and the replaced branch is finite for second derivatives.
    # d/dy x**y = x**y log x is defined for x > 0; at x = 0 it is 0 (0**y is 0 for
    # y > 0, and 0**0's jump gets the anchors' 0). A constant operand (x**2, 2**y)
    # decides the guards when the graph is built: no where per element.
    y_values = _constant_values(y)
    dx: Any
    if y_values is not None and not y_values.any():
        dx = None  # x**0: a zero gradient
    elif y_values is not None and y_values.all():
        dx = gz * y * lt.pow(x, y - 1)
    else:
        singular = lt.logical_and(lt.equal(x, 0), lt.equal(y, 0))
        dx = gz * y * lt.pow(lt.where(singular, 1, x), y - 1)
    x_values = _constant_values(x)
    if x_values is not None and x_values.all():
        dy = gz * out * lt.log(x)
    else:
        x_zero = lt.equal(x, 0)
        dy = lt.where(x_zero, 0, gz * out * lt.log(lt.where(x_zero, 1, x)))
    return dx, dy


def _constant_values(v: Any) -> np.ndarray | None:
    """The values of ``v`` if it is a constant, else ``None``."""
    return np.asarray(v.data) if isinstance(v, Constant) else None


_row("pow", 2, "all", out_same_bool_int8, np.power, _pow_grad)
_row("negative", 1, "numeric", out_same, np.negative, lambda x, out, gz: -gz)
_row("positive", 1, "numeric", out_same, np.positive, lambda x, out, gz: gz)


def _is_complex(x: Any) -> bool:
    return bool(x.type.numpy_dtype.kind == "c")


def _abs_grad(x: Any, out: Any, gz: Any) -> Any:
    if not _is_complex(x):
        return gz * lt.sign(x)
    # |z| is real: its gradient is d|z|/dx - i d|z|/dy = conj(z) / |z|, and 0 at
    # z = 0 (a subgradient, as for real x and in JAX)
    return gz * lt.conj(x) / lt.where(lt.equal(out, 0), 1, out)


def _sign_grad(x: Any, out: Any, gz: Any) -> Any:
    if not _is_complex(x):
        return None  # piecewise constant
    # sign(z) = z / |z| is not holomorphic: with Wirtinger derivatives
    # d/dz = 1 / (2|z|) and d/dconj(z) = -z**2 / (2|z|**3), the cotangent pulls
    # back to gz d/dz + conj(gz d/dconj(z)); 0 at z = 0, as abs.
    modulus = lt.abs(x)
    zero = lt.equal(modulus, 0)
    back = (gz - lt.conj(gz) * lt.square(lt.conj(out))) / (2 * lt.where(zero, 1, modulus))
    return lt.where(zero, 0, back)


def _sign_jvp(x: Any, out: Any, e: Any) -> Any:
    # d sign(z) = (dz - sign(z)**2 conj(dz)) / (2|z|), 0 at z = 0
    modulus = lt.abs(x)
    zero = lt.equal(modulus, 0)
    return lt.where(zero, 0, (e - lt.square(out) * lt.conj(e)) / (2 * lt.where(zero, 1, modulus)))


_row("abs", 1, "all", out_real, np.abs, _abs_grad)
_row("sign", 1, "numeric", out_same, np.sign, _sign_grad, jvp=_sign_jvp)
_row("square", 1, "all", out_same_bool_int8, np.square, lambda x, out, gz: gz * 2 * x)
_row(
    "reciprocal",
    1,
    "all",
    out_same_bool_int8,
    np.reciprocal,
    lambda x, out, gz: -gz * out * out,
)


def _extremum_grad(first: str) -> Any:
    """The rule of ``maximum`` (``first="greater"``) or ``minimum`` (``"less"``): the
    operand that wins gets the gradient; on a tie each gets half (JAX's rule; the
    two halves add up to the gradient of ``maximum(x, x) = x``). Where either is
    NaN, so is the result, and neither gets a gradient."""

    def grad(x: Any, y: Any, out: Any, gz: Any) -> tuple[Any, Any]:
        # looked up at call time: lazygraph.tensor is still importing this module
        wins = getattr(lt, first)
        half = lt.where(lt.equal(x, y), gz * 0.5, 0)
        return lt.where(wins(x, y), gz, half), lt.where(wins(y, x), gz, half)

    return grad


def _nan_ignoring_extremum_grad(x: Any, y: Any, out: Any, gz: Any) -> tuple[Any, Any]:
    # fmax/fmin: the operand the result equals gets the gradient (the other is NaN,
    # or loses); ties split as for maximum. Both NaN: y gets it (the result is y).
    tie = lt.equal(x, y)
    half = gz * 0.5
    from_x = lt.equal(out, x)
    return lt.where(tie, half, lt.where(from_x, gz, 0)), lt.where(
        tie, half, lt.where(from_x, 0, gz)
    )


_row("maximum", 2, "all", out_same, np.maximum, _extremum_grad("greater"))
_row("minimum", 2, "all", out_same, np.minimum, _extremum_grad("less"))
_row("fmax", 2, "all", out_same, np.fmax, _nan_ignoring_extremum_grad)
_row("fmin", 2, "all", out_same, np.fmin, _nan_ignoring_extremum_grad)


def _clip(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return np.clip(x, lo, hi)


def _clip_grad(x: Any, lo: Any, hi: Any, out: Any, gz: Any) -> tuple[Any, Any, Any]:
    # numpy's clip is minimum(maximum(x, lo), hi): hi wins when lo > hi.
    m = lt.maximum(x, lo)
    under = lt.less_equal(m, hi)
    return (
        lt.where(lt.logical_and(lt.greater_equal(x, lo), under), gz, 0),
        lt.where(lt.logical_and(lt.less(x, lo), under), gz, 0),
        lt.where(under, 0, gz),
    )


_row("clip", 3, "all", out_same, _clip, _clip_grad, numpy_name="clip", weak="clip")


def _where(cond: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.where(cond, x, y)


_row(
    "where",
    3,
    "all",
    out_same,
    _where,
    lambda c, x, y, out, gz: (None, lt.where(c, gz, 0), lt.where(c, 0, gz)),
    numpy_name="where",
    promote=(1, 2),
    # numpy before 2.5 casts an out-of-range Python int unsafely; 2.5 raises
    # OverflowError, as every other function does (seen on numpy 2.5.2)
    weak="wrap" if _NUMPY_VERSION < (2, 5) else "raise",
)


def _second(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.broadcast_to(y, np.broadcast_shapes(np.shape(x), np.shape(y))).copy()


# second(x, y): y broadcast against x (Theano's fill); gradients flow only to y.
_row(
    "second",
    2,
    "all",
    out_same,
    _second,
    lambda x, y, out, gz: (None, gz),
    numpy_name="broadcast_to",
    promote=(1,),
)


def _copy(x: np.ndarray) -> np.ndarray:
    return np.array(x, copy=True)


_row("copy", 1, "all", out_same, _copy, lambda x, out, gz: gz, numpy_name="copy")

# -- rounding: zero gradient almost everywhere ---------------------------------

_row("floor", 1, "real", out_same, np.floor, None)
_row("ceil", 1, "real", out_same, np.ceil, None)
_row("trunc", 1, "real", out_same, np.trunc, None)
_row("rint", 1, "all", out_float, np.rint, None, cast_inputs=True)


def _round(x: np.ndarray, decimals: int = 0) -> np.ndarray:
    if x.dtype == np.bool_:
        x = x.astype(np.float32)
    return np.round(x, decimals)


_row("round", 1, "all", out_round, _round, None, numpy_name="round")

# -- exponentials and logarithms -------------------------------------------

_float_row("exp", np.exp, lambda x, out, gz: gz * out)
_float_row("exp2", np.exp2, lambda x, out, gz: gz * out * _LN2)
_float_row("expm1", np.expm1, lambda x, out, gz: gz * (out + 1))
_float_row("log", np.log, lambda x, out, gz: gz / x)
_float_row("log2", np.log2, lambda x, out, gz: gz / (x * _LN2))
_float_row("log10", np.log10, lambda x, out, gz: gz / (x * _LN10))
_float_row("log1p", np.log1p, lambda x, out, gz: gz / (x + 1))
_float_row("sqrt", np.sqrt, lambda x, out, gz: gz / (2 * out))
_float_row("cbrt", np.cbrt, lambda x, out, gz: gz / (3 * out * out), accepts="real")
_float_row(
    "logaddexp",
    np.logaddexp,
    lambda x, y, out, gz: (gz * lt.exp(x - out), gz * lt.exp(y - out)),
    accepts="real",
    nin=2,
)
_float_row(
    "logaddexp2",
    np.logaddexp2,
    lambda x, y, out, gz: (gz * lt.exp2(x - out), gz * lt.exp2(y - out)),
    accepts="real",
    nin=2,
)

# -- trigonometric and hyperbolic -------------------------------------------

_float_row("sin", np.sin, lambda x, out, gz: gz * lt.cos(x))
_float_row("cos", np.cos, lambda x, out, gz: -gz * lt.sin(x))
_float_row("tan", np.tan, lambda x, out, gz: gz * (1 + out * out))
_float_row("asin", np.arcsin, lambda x, out, gz: gz / lt.sqrt(1 - x * x))
_float_row("acos", np.arccos, lambda x, out, gz: -gz / lt.sqrt(1 - x * x))
_float_row("atan", np.arctan, lambda x, out, gz: gz / (1 + x * x))
_float_row("sinh", np.sinh, lambda x, out, gz: gz * lt.cosh(x))
_float_row("cosh", np.cosh, lambda x, out, gz: gz * lt.sinh(x))
_float_row("tanh", np.tanh, lambda x, out, gz: gz * (1 - out * out))
_float_row("asinh", np.arcsinh, lambda x, out, gz: gz / lt.sqrt(x * x + 1))
# sqrt(x-1)*sqrt(x+1) rather than sqrt(x*x-1): no cancellation near x = 1
_float_row("acosh", np.arccosh, lambda x, out, gz: gz / (lt.sqrt(x - 1) * lt.sqrt(x + 1)))
_float_row("atanh", np.arctanh, lambda x, out, gz: gz / (1 - x * x))
_float_row(
    "atan2",
    np.arctan2,
    lambda y, x, out, gz: (gz * x / (x * x + y * y), -gz * y / (x * x + y * y)),
    accepts="real",
    nin=2,
)
_float_row(
    "hypot",
    np.hypot,
    lambda x, y, out, gz: (gz * x / out, gz * y / out),
    accepts="real",
    nin=2,
)
_float_row("deg2rad", np.deg2rad, lambda x, out, gz: gz * (math.pi / 180), accepts="real")
_float_row("rad2deg", np.rad2deg, lambda x, out, gz: gz * (180 / math.pi), accepts="real")

# -- sign manipulation ---------------------------------------------------------

_float_row(
    "copysign",
    np.copysign,
    # copysign(x, y) = |x| sgn(y): d/dx = sgn(x) sgn(y), where the signs are sign bits
    lambda x, y, out, gz: (lt.where(lt.equal(lt.signbit(x), lt.signbit(y)), gz, -gz), None),
    accepts="real",
    nin=2,
)
_float_row(
    "nextafter",
    np.nextafter,
    lambda x, y, out, gz: (gz, None),
    accepts="real",
    nin=2,
)
_row("signbit", 1, "real", out_bool, np.signbit, None)
_float_row("spacing", np.spacing, None, accepts="real")
# ldexp(x, e) = x * 2**e: the exponent is an integer outside x's promotion
_row(
    "ldexp",
    2,
    "real",
    out_float,
    np.ldexp,
    lambda x, e, out, gz: (lt.ldexp(gz, e), None),
    promote=(0,),
    others="int64_safe",
    cast_inputs=True,
)

# -- number theory: integers only ---------------------------------------------------

_row("gcd", 2, "integer", out_same, np.gcd, None)
_row("lcm", 2, "integer", out_same, np.lcm, None)

# -- machine-learning functions (numpy has no ufunc: see special.py) -------------

_float_row("sigmoid", special.sigmoid, lambda x, out, gz: gz * out * (1 - out), accepts="real")
_float_row("softplus", special.softplus, lambda x, out, gz: gz * lt.sigmoid(x), accepts="real")
_float_row(
    "log_sigmoid", special.log_sigmoid, lambda x, out, gz: gz * lt.sigmoid(-x), accepts="real"
)
# d/dx log(1 - e^x) = -e^x / (1 - e^x) = -1 / expm1(-x)
_float_row("log1mexp", special.log1mexp, lambda x, out, gz: -gz / lt.expm1(-x), accepts="real")
_float_row(
    "erf",
    special.erf,
    lambda x, out, gz: gz * _TWO_OVER_SQRT_PI * lt.exp(-x * x),
    accepts="real",
)
_float_row(
    "erfc",
    special.erfc,
    lambda x, out, gz: -gz * _TWO_OVER_SQRT_PI * lt.exp(-x * x),
    accepts="real",
)

# -- complex parts ---------------------------------------------------------------

# With the complex convention (lazygraph.gradient.core): y = conj(z) pulls back
# y_bar to conj(y_bar); y = real(z) to y_bar (Elemwise makes it complex, y_bar + 0j);
# y = imag(z) to -1j * y_bar. imag of a real x is constant 0.


def _imag_grad(x: Any, out: Any, gz: Any) -> Any:
    if not _is_complex(x):
        return None
    return gz * lt.constant(np.asarray(-1j, dtype=x.type.dtype))


_row("conj", 1, "all", out_same_bool_int8, np.conjugate, lambda x, out, gz: lt.conj(gz))
_row("real", 1, "all", out_real, np.real, lambda x, out, gz: gz)
_row("imag", 1, "all", out_real, np.imag, _imag_grad)

# -- comparisons, predicates and logic: boolean results, no gradient ---------

for _name, _fn in [
    ("equal", np.equal),
    ("not_equal", np.not_equal),
    ("less", np.less),
    ("less_equal", np.less_equal),
    ("greater", np.greater),
    ("greater_equal", np.greater_equal),
]:
    _row(_name, 2, "all", out_bool, _fn, None, weak="compare")

for _name, _fn, _nin in [
    ("logical_and", np.logical_and, 2),
    ("logical_or", np.logical_or, 2),
    ("logical_xor", np.logical_xor, 2),
    ("logical_not", np.logical_not, 1),
]:
    _row(_name, _nin, "all", out_bool, _fn, None, weak="truth")

# a Python scalar keeps its value here (isnan(nan)), not only its truth
for _name, _fn in [("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite)]:
    _row(_name, 1, "all", out_bool, _fn, None)

# -- bitwise: integers and bool only -------------------------------------------

_row("bitwise_and", 2, "integer_or_bool", out_same, np.bitwise_and, None)
_row("bitwise_or", 2, "integer_or_bool", out_same, np.bitwise_or, None)
_row("bitwise_xor", 2, "integer_or_bool", out_same, np.bitwise_xor, None)
_row("bitwise_invert", 1, "integer_or_bool", out_same, np.invert, None)
_row("bitwise_left_shift", 2, "integer_or_bool", out_same_bool_int8, np.left_shift, None)
_row("bitwise_right_shift", 2, "integer_or_bool", out_same_bool_int8, np.right_shift, None)

# -- cast: numpy's astype (unsafe casting) ---------------------------------------


def _cast(x: np.ndarray, dtype: str) -> np.ndarray:
    import warnings

    with warnings.catch_warnings():
        # complex -> real drops the imaginary part, as astype does (with a warning)
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return x.astype(dtype)


def _cast_grad(x: Any, out: Any, gz: Any) -> Any:
    # Elemwise casts the gradient back to x's dtype; a discrete target has none.
    return None if np.dtype(out.dtype).kind in "biu" else gz


_row("cast", 1, "all", out_param_dtype, _cast, _cast_grad, numpy_name="astype")

"""Elementwise functions that take a number apart or apply a special function
built from other elementwise operations: ``modf`` (fractional and integral
parts), ``frexp`` (mantissa and exponent), ``bitwise_count`` (population
count), ``i0`` (the modified Bessel function of order 0) and ``sort_complex``.

Each records ordinary elementwise nodes (``trunc``, ``ldexp``, shifts and
masks, Chebyshev recurrences), so the backends fuse them and gradients flow
through the differentiable ones.

>>> frac, whole = modf([2.5, -0.25])
>>> frac.compute(), whole.compute()
(array([ 0.5 , -0.25]), array([ 2., -0.]))
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, wrap
from lazygraph.numpy._ufunc import ArrayLike, apply_ufunc
from lazygraph.tensor.variable import TensorVariable

__all__ = ["bitwise_count", "frexp", "i0", "modf", "sort_complex"]


def _float_operand(name: str, x: Any) -> TensorVariable:
    """``x`` in the float dtype numpy's ``e/f/d`` loops compute it in (integers and
    bools upcast, float16 as float32); complex input has no loop."""
    v = lt.as_tensor_variable(x)
    kind = np.dtype(v.dtype).kind
    if kind == "c":
        raise TypeError(
            f"ufunc '{name}' not supported for the input types, and the inputs could not "
            "be safely coerced to any supported types according to the casting rule ''safe''"
        )
    return v if kind == "f" else lt.cast(v, lt.upcast_to_float(v.dtype))


def _two_outs(name: str, out: Any) -> tuple[Any, Any]:
    """numpy's ``out=`` of a two-output ufunc: ``None`` or a pair."""
    outs = (None, None) if out is None else out
    if not isinstance(outs, tuple) or len(outs) != 2:
        raise ValueError(f"{name}: The 'out' tuple must have exactly one entry per ufunc output")
    return outs


# -- modf ---------------------------------------------------------------------------


def _modf_integral(x: Any) -> TensorVariable:
    return lt.trunc(_float_operand("modf", x))


def _modf_fractional(x: Any) -> TensorVariable:
    v = _float_operand("modf", x)
    # C's modf: the fraction of ±inf is ±0 (inf - inf would be NaN) and keeps
    # x's sign (-2.0 gives -0.0); the difference x - trunc(x) is exact.
    frac = lt.where(lt.isinf(v), lt.zeros((), dtype=v.dtype), lt.subtract(v, lt.trunc(v)))
    return lt.copysign(frac, v)


def modf(x: ArrayLike, /, out: Any = None, **kwargs: Any) -> tuple[Any, Any]:
    """The fractional and integral parts of ``x``, both with ``x``'s sign
    (``numpy.modf``; ``modf(-0.0)`` is ``(-0.0, -0.0)``, ``modf(inf)`` is
    ``(0.0, inf)``, NaN gives NaNs).

    >>> frac, whole = modf([3.75, -1.5, float("inf")])
    >>> frac.compute(), whole.compute()
    (array([ 0.75, -0.5 ,  0.  ]), array([ 3., -1., inf]))
    """
    outs = _two_outs("modf", out)
    frac = apply_ufunc("modf", _modf_fractional, (x,), outs[0], dict(kwargs))
    whole = apply_ufunc("modf", _modf_integral, (x,), outs[1], kwargs)
    if isinstance(frac, Array) and not isinstance(whole, Array):
        # a scalar's one-node integral part came back as numpy's scalar: so must the other
        frac = frac.compute()[()]
    return frac, whole


# -- frexp --------------------------------------------------------------------------


def _frexp_parts(x: Any) -> tuple[TensorVariable, TensorVariable]:
    v = _float_operand("frexp", x)
    regular = lt.logical_and(lt.isfinite(v), lt.not_equal(v, 0))
    magnitude = lt.where(regular, lt.abs(v), lt.ones((), dtype=v.dtype))
    # log2 of a float (subnormals included) is within an ulp, so floor(log2|x|) + 1
    # is the exponent or one off; one halving or doubling (exact) corrects it.
    exponent = lt.add(lt.cast(lt.floor(lt.log2(magnitude)), "int32"), 1)
    mantissa = lt.ldexp(v, lt.negative(exponent))
    high = lt.greater_equal(lt.abs(mantissa), 1)
    mantissa = lt.where(high, lt.multiply(mantissa, 0.5), mantissa)
    exponent = lt.add(exponent, lt.cast(high, "int32"))
    low = lt.less(lt.abs(mantissa), 0.5)
    mantissa = lt.where(low, lt.multiply(mantissa, 2.0), mantissa)
    exponent = lt.subtract(exponent, lt.cast(low, "int32"))
    # 0, ±inf and NaN are their own mantissas, with exponent 0
    mantissa = lt.where(regular, mantissa, v)
    exponent = lt.where(regular, exponent, lt.zeros((), dtype="int32"))
    return mantissa, exponent


def _frexp_mantissa(x: Any) -> TensorVariable:
    return _frexp_parts(x)[0]


def _frexp_exponent(x: Any) -> TensorVariable:
    return _frexp_parts(x)[1]


def frexp(x: ArrayLike, /, out: Any = None, **kwargs: Any) -> tuple[Any, Any]:
    """``x`` as ``mantissa * 2**exponent`` with ``0.5 <= |mantissa| < 1`` and an
    int32 exponent (``numpy.frexp``): exact, subnormals included; ``0``, ``±inf``
    and NaN are returned as they are with exponent 0.

    >>> mantissa, exponent = frexp([8.0, -3.0, 0.0])
    >>> mantissa.compute(), exponent.compute()
    (array([ 0.5 , -0.75,  0.  ]), array([4, 2, 0], dtype=int32))
    """
    outs = _two_outs("frexp", out)
    return (
        apply_ufunc("frexp", _frexp_mantissa, (x,), outs[0], dict(kwargs)),
        apply_ufunc("frexp", _frexp_exponent, (x,), outs[1], kwargs),
    )


# -- bitwise_count ------------------------------------------------------------------


def _popcount(x: Any) -> TensorVariable:
    v = lt.as_tensor_variable(x)
    dt = np.dtype(v.dtype)
    if dt.kind == "b":
        return lt.cast(v, "uint8")  # numpy's int8 loop: True counts one bit
    if dt.kind not in "iu":
        raise TypeError(
            "ufunc 'bitwise_count' not supported for the input types, and the inputs "
            "could not be safely coerced to any supported types according to the casting "
            "rule ''safe''"
        )
    bits = dt.itemsize * 8
    unsigned = np.dtype(f"uint{bits}")
    # numpy counts the bits of |x|; abs(min) wraps to min, whose unsigned view is 2**(bits-1)
    u = lt.cast(lt.abs(v), unsigned) if dt.kind == "i" else v

    def c(value: int) -> TensorVariable:
        # every operand of x's own unsigned dtype: no mixed signed/unsigned arithmetic
        return lt.constant(np.array(value, dtype=unsigned))

    def mask(byte: int) -> TensorVariable:
        return c(int.from_bytes(bytes([byte]) * dt.itemsize, "little"))

    def down(x: TensorVariable, k: int) -> TensorVariable:
        # x >> k, as a division by 2**k (the same for unsigned x): the numba backend's
        # shift helper computes uint64 shifts in float64, which drops low bits
        return lt.floor_divide(x, c(1 << k))

    # SWAR: the bit counts of 2-bit, then 4-bit, then 8-bit fields, side by side
    u = lt.subtract(u, lt.bitwise_and(down(u, 1), mask(0x55)))
    u = lt.add(lt.bitwise_and(u, mask(0x33)), lt.bitwise_and(down(u, 2), mask(0x33)))
    u = lt.bitwise_and(lt.add(u, down(u, 4)), mask(0x0F))
    shift = 8
    while shift < bits:  # the bytes' counts summed into the lowest byte (at most 64)
        u = lt.add(u, down(u, shift))
        shift *= 2
    return lt.cast(u, "uint8")  # the lowest byte (the cast wraps modulo 256)


def bitwise_count(x: ArrayLike, /, out: Any = None, **kwargs: Any) -> Any:
    """The number of 1 bits in ``|x|``, as uint8, elementwise (``numpy.bitwise_count``;
    integers and bools).

    >>> bitwise_count([0, 7, -8, 255]).compute()
    array([0, 3, 1, 8], dtype=uint8)
    """
    return apply_ufunc("bitwise_count", _popcount, (x,), out, kwargs)


# -- i0 -----------------------------------------------------------------------------

# Cephes' Chebyshev coefficients, as numpy's i0 uses them: exp(-x) I0(x) on [0, 8]
# (in terms of x/2 - 2) and exp(-x) sqrt(x) I0(x) on (8, inf) (in terms of 32/x - 2).
_I0A = (
    -4.4153416464793395e-18,
    3.3307945188222384e-17,
    -2.431279846547955e-16,
    1.715391285555133e-15,
    -1.1685332877993451e-14,
    7.676185498604936e-14,
    -4.856446783111929e-13,
    2.95505266312964e-12,
    -1.726826291441556e-11,
    9.675809035373237e-11,
    -5.189795601635263e-10,
    2.6598237246823866e-09,
    -1.300025009986248e-08,
    6.046995022541919e-08,
    -2.670793853940612e-07,
    1.1173875391201037e-06,
    -4.4167383584587505e-06,
    1.6448448070728896e-05,
    -5.754195010082104e-05,
    0.00018850288509584165,
    -0.0005763755745385824,
    0.0016394756169413357,
    -0.004324309995050576,
    0.010546460394594998,
    -0.02373741480589947,
    0.04930528423967071,
    -0.09490109704804764,
    0.17162090152220877,
    -0.3046826723431984,
    0.6767952744094761,
)
_I0B = (
    -7.233180487874754e-18,
    -4.830504485944182e-18,
    4.46562142029676e-17,
    3.461222867697461e-17,
    -2.8276239805165836e-16,
    -3.425485619677219e-16,
    1.7725601330565263e-15,
    3.8116806693526224e-15,
    -9.554846698828307e-15,
    -4.150569347287222e-14,
    1.54008621752141e-14,
    3.8527783827421426e-13,
    7.180124451383666e-13,
    -1.7941785315068062e-12,
    -1.3215811840447713e-11,
    -3.1499165279632416e-11,
    1.1889147107846439e-11,
    4.94060238822497e-10,
    3.3962320257083865e-09,
    2.266668990498178e-08,
    2.0489185894690638e-07,
    2.8913705208347567e-06,
    6.889758346916825e-05,
    0.0033691164782556943,
    0.8044904110141088,
)


def _chbevl(x: TensorVariable, coefficients: tuple[float, ...]) -> TensorVariable:
    """Clenshaw's recurrence for a Chebyshev series, in numpy's operation order
    (the coefficients are weak Python floats, so float32 stays float32)."""
    b0: Any = coefficients[0]
    b1: Any = 0.0
    b2: Any = 0.0
    for c in coefficients[1:]:
        b2 = b1
        b1 = b0
        b0 = lt.add(lt.subtract(lt.multiply(x, b1), b2), c)
    return lt.multiply(0.5, lt.subtract(b0, b2))


def _i0(x: TensorVariable) -> TensorVariable:
    """numpy's i0 on a float tensor: |x|, then one Chebyshev series on [0, 8] and
    another above (NaN takes the second, as numpy's piecewise ``otherwise``)."""
    # |x| as x * (+-1): abs's zero subgradient at 0 would zero i0''(0) = 1/2
    one = lt.ones((), dtype=x.dtype)
    a = lt.multiply(x, lt.where(lt.less(x, 0), lt.negative(one), one))
    near = lt.less_equal(a, 8.0)
    # each series sees only the values it is used for (others get a safe stand-in),
    # so the unused one adds no inf or NaN to the gradient
    a1 = lt.where(near, a, lt.zeros((), dtype=a.dtype))
    a2 = lt.where(near, lt.full((), 16.0, dtype=a.dtype), a)
    low = lt.multiply(lt.exp(a1), _chbevl(lt.subtract(lt.divide(a1, 2.0), 2), _I0A))
    high = lt.divide(
        lt.multiply(lt.exp(a2), _chbevl(lt.subtract(lt.divide(32.0, a2), 2.0), _I0B)),
        lt.sqrt(a2),
    )
    return lt.where(near, low, high)


def i0(x: ArrayLike) -> Array:
    """The modified Bessel function of the first kind of order 0, elementwise
    (``numpy.i0``: the same Chebyshev series, so the same values; integers
    compute in float64; complex input is a TypeError). Differentiable.

    >>> i0([0.0, 1.0, 2.5]).compute()
    array([1.        , 1.26606588, 3.28983914])
    """
    v = as_tensor(x)
    kind = np.dtype(v.dtype).kind
    if kind == "c":
        raise TypeError("i0 not supported for complex values")
    if kind != "f":
        v = lt.cast(v, "float64")
    return wrap(_i0(v))


# -- sort_complex -------------------------------------------------------------------


def sort_complex(a: ArrayLike) -> Array:
    """``a`` sorted along its last axis, real part first, then imaginary part, as
    a complex array (``numpy.sort_complex``: int8/int16/uint8/uint16 give
    complex64, other real dtypes complex128).

    >>> sort_complex([5, 3, 6, 2, 1]).compute()
    array([1.+0.j, 2.+0.j, 3.+0.j, 5.+0.j, 6.+0.j])
    """
    v = as_tensor(a)
    ordered = lt.sort(v, axis=-1)
    dt = np.dtype(v.dtype)
    if dt.kind == "c":
        return wrap(ordered)
    target = "complex64" if dt.char in "bhBH" else "complex128"
    return wrap(lt.cast(ordered, target))

"""Complex scalar helpers the generated kernels call where Numba has no complex
form of a numpy ufunc, or a different one: numpy's lexicographic ordering
(comparisons, ``maximum``/``minimum``, ``fmax``/``fmin``, ``clip``), ``sign``
(``z / |z|``), rounding of each part, ``exp2``/``expm1``/``log2``/``log1p``
as numpy's own complex loops compute them, ``sqrt`` as the C library's
``csqrt`` (which numpy calls) does, and ``sin``/``cos`` at infinite and NaN
parts as numpy gives them (C99's special values, with its choices of signs).
Each follows numpy's C loop, special values (NaN, inf, signed zeros) included.

``square`` and ``multiply`` follow numpy's SIMD loops, which fuse one product
into the other's rounding (``re = fma(ar, br, -(ai*bi))``) where the CPU has
FMA; ``power`` follows ``npy_cpow``: exact small integer powers by repeated
(unfused) multiplication in the operands' precision. Which form this numpy uses
is probed once (:func:`numpy_fuses`), and the generated code passes it along.

Results are built with ``complex(re, im)`` (complex128 in Numba); the kernel
converts them to the node's output dtype, as for every other expression.

>>> bool(complex_less(1 + 5j, 2 + 0j)), bool(complex_less(1 + 1j, 1 + 0j))
(True, False)
>>> complex_sign(3 + 4j)
(0.6+0.8j)
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from lazygraph.backends.numba.cache import helper_options

__all__ = [
    "complex_clip",
    "complex_cos",
    "complex_exp2",
    "complex_expm1",
    "complex_fmax",
    "complex_fmin",
    "complex_greater",
    "complex_greater_equal",
    "complex_less",
    "complex_less_equal",
    "complex_log1p",
    "complex_log2",
    "complex_maximum",
    "complex_minimum",
    "complex_multiply",
    "complex_power",
    "complex_rint",
    "complex_round",
    "complex_sign",
    "complex_sin",
    "complex_sqrt",
    "complex_square",
    "div_parts",
    "numpy_fuses",
]

_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package

_LN2 = math.log(2.0)
_LOG2E = 1.0 / math.log(2.0)


# numpy's ordering of complex numbers: by real part, then imaginary part; a
# NaN imaginary part makes the real-part comparison false as well.


@njit(**_OPTS)
def _parts_ordered(ai, bi):  # type: ignore[no-untyped-def]
    return not (math.isnan(ai) or math.isnan(bi))


@njit(**_OPTS)
def complex_less(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``a < b`` for complex numbers."""
    return (a.real < b.real and _parts_ordered(a.imag, b.imag)) or (
        a.real == b.real and a.imag < b.imag
    )


@njit(**_OPTS)
def complex_less_equal(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``a <= b`` for complex numbers."""
    return (a.real < b.real and _parts_ordered(a.imag, b.imag)) or (
        a.real == b.real and a.imag <= b.imag
    )


@njit(**_OPTS)
def complex_greater(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``a > b`` for complex numbers."""
    return (a.real > b.real and _parts_ordered(a.imag, b.imag)) or (
        a.real == b.real and a.imag > b.imag
    )


@njit(**_OPTS)
def complex_greater_equal(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``a >= b`` for complex numbers."""
    return (a.real > b.real and _parts_ordered(a.imag, b.imag)) or (
        a.real == b.real and a.imag >= b.imag
    )


@njit(**_OPTS)
def _has_nan(a):  # type: ignore[no-untyped-def]
    return math.isnan(a.real) or math.isnan(a.imag)


@njit(**_OPTS)
def complex_maximum(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``maximum``: a NaN in either operand propagates (the first wins)."""
    return a if _has_nan(a) or complex_greater_equal(a, b) else b


@njit(**_OPTS)
def complex_minimum(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``minimum``: a NaN in either operand propagates (the first wins)."""
    return a if _has_nan(a) or complex_less_equal(a, b) else b


@njit(**_OPTS)
def complex_fmax(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``fmax``: a NaN operand is ignored when the other is a number."""
    return a if _has_nan(b) or complex_greater_equal(a, b) else b


@njit(**_OPTS)
def complex_fmin(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``fmin``: a NaN operand is ignored when the other is a number."""
    return a if _has_nan(b) or complex_less_equal(a, b) else b


@njit(**_OPTS)
def complex_sign(a):  # type: ignore[no-untyped-def]
    """numpy 2's complex ``sign``: ``a / |a|``, 0 for 0, the unit direction of
    an infinite part, NaN when both parts are infinite or one is NaN."""
    r, i = a.real, a.imag
    size = math.hypot(r, i)
    if math.isnan(size):
        return complex(math.nan, math.nan)
    if math.isinf(size):
        if math.isinf(r):
            if math.isinf(i):
                return complex(math.nan, math.nan)
            return complex(1.0 if r > 0 else -1.0, 0.0)
        return complex(0.0, 1.0 if i > 0 else -1.0)
    if size == 0:
        return complex(0.0, 0.0)
    return complex(r / size, i / size)


@njit(**_OPTS)
def complex_rint(a):  # type: ignore[no-untyped-def]
    """Each part rounded to the nearest integer, halves to even."""
    return complex(np.rint(a.real), np.rint(a.imag))


@njit(**_OPTS)
def complex_round(a, factor, scale_up):  # type: ignore[no-untyped-def]
    """``np.round`` to ``decimals`` digits, each part as a float: through
    ``x * 10**decimals`` when ``scale_up`` (decimals > 0), else ``x / 10**-decimals``."""
    if scale_up:
        return complex(np.rint(a.real * factor) / factor, np.rint(a.imag * factor) / factor)
    return complex(np.rint(a.real / factor) * factor, np.rint(a.imag / factor) * factor)


@njit(**_OPTS)
def complex_exp2(a):  # type: ignore[no-untyped-def]
    """numpy's complex ``exp2``: ``exp`` of each part times ln 2."""
    return np.exp(complex(a.real * _LN2, a.imag * _LN2))


@njit(**_OPTS)
def complex_clip(x, lo, hi):  # type: ignore[no-untyped-def]
    """numpy's ``clip``: the bound unless ``x`` is beyond it in the plain
    lexicographic order, a NaN kept (each step keeps its first operand when it
    has a NaN part)."""
    above = x.real > lo.real or (x.real == lo.real and x.imag > lo.imag)
    t = x if above or _has_nan(x) else lo
    below = t.real < hi.real or (t.real == hi.real and t.imag < hi.imag)
    return t if below or _has_nan(t) else hi


@njit(**_OPTS)
def complex_log1p(a):  # type: ignore[no-untyped-def]
    """numpy's complex ``log1p``: ``log(|1 + a|) + i atan2(im, 1 + re)``."""
    x = a.real + 1
    return complex(math.log(math.hypot(x, a.imag)), math.atan2(a.imag, x))


@njit(**_OPTS)
def complex_expm1(a):  # type: ignore[no-untyped-def]
    """numpy's complex ``expm1``, accurate near 0: the real part is
    ``expm1(x) cos(y) - 2 sin(y/2)**2``."""
    x, y = a.real, a.imag
    half = math.sin(y / 2)
    return complex(math.expm1(x) * math.cos(y) - 2 * half * half, math.exp(x) * math.sin(y))


@njit(**_OPTS)
def complex_log2(a):  # type: ignore[no-untyped-def]
    """numpy's complex ``log2``: each part of ``log`` times log2(e)."""
    z = np.log(a)
    return complex(z.real * _LOG2E, z.imag * _LOG2E)


# -- products and powers as numpy computes them -------------------------------------


@njit(**_OPTS)
def complex_sqrt(a, one, tiny2, huge4, up, down):  # type: ignore[no-untyped-def]
    """C99's ``csqrt`` (numpy's complex ``sqrt``) in the precision of ``one``:
    Annex G's special values, then ``r = sqrt((|z| + |x|) / 2)`` and the other
    part from ``2 r s = y`` (no cancellation), with the operands scaled by 1/4
    near overflow (``huge4``: the largest finite value / 4) and by ``up`` (an
    even power of two; ``down`` its square root's inverse) when both parts are
    below ``tiny2`` (twice the smallest normal value). Numba's own complex
    sqrt differs in the last bit, and divides by zero for subnormal parts.

    >>> complex_sqrt(-4 + 0j, 1.0, 4e-308, 4e307, 2.0**54, 2.0**-27)
    2j
    """
    x, y = a.real, a.imag
    zero = one - one
    two = one + one
    half = one / two
    if math.isinf(y):
        return complex(np.inf, y)
    if math.isinf(x):
        if x < 0:
            return complex(np.nan if math.isnan(y) else zero, math.copysign(np.inf, y))
        return complex(x, np.nan if math.isnan(y) else math.copysign(zero, y))
    if math.isnan(x) or math.isnan(y):
        return complex(np.nan, np.nan)
    if y == 0:
        if x < 0:
            return complex(zero, math.copysign(math.sqrt(-x), y))
        return complex(abs(math.sqrt(x)), math.copysign(zero, y))
    if x == 0:
        ay = abs(y)
        r = math.sqrt(half * ay) if ay >= tiny2 else half * math.sqrt(two * ay)
        return complex(r, math.copysign(r, y))
    quarter = half * half
    scale = 0  # 1: the operands were divided by 4; -1: multiplied by ``up``
    if abs(x) > huge4:
        scale = 1
        x, y = x * quarter, y * quarter
    elif abs(y) > huge4:
        scale = 1
        x = x * quarter if abs(x) >= tiny2 * two else zero
        y = y * quarter
    elif abs(x) < tiny2 and abs(y) < tiny2:
        scale = -1
        x, y = x * up, y * up
    d = np.hypot(x, y)
    if x > 0:
        r = math.sqrt(half * (d + x))
        if scale == 1 and abs(y) < one:  # keeps y / r from underflowing
            s = y / r
            r = r * two
            scale = 0
        else:
            s = half * (y / r)
    else:
        s = math.sqrt(half * (d - x))
        if scale == 1 and abs(y) < one:
            r = abs(y / s)
            s = s * two
            scale = 0
        else:
            r = abs(half * (y / s))
    if scale == 1:
        r, s = r * two, s * two
    elif scale == -1:
        r, s = r * down, s * down
    return complex(r, math.copysign(s, y))


@njit(**_OPTS)
def complex_sin(a):  # type: ignore[no-untyped-def]
    """numpy's complex sin: Numba's where both parts are finite; at an infinite
    or NaN part C99's special values as numpy returns them, through
    ``sin(z) = i conj(sinh(i conj(z)))`` (Numba's own give NaN + NaN j there:
    ``sin(inf + 0j)`` is ``nan + 0j`` in numpy).

    >>> complex_sin(complex(-math.inf, 0.0))
    (nan+0j)
    """
    x, y = a.real, a.imag
    # sinh(u + iv) with u = y, v = x; then swap the parts
    u, v = y, x
    if math.isfinite(u) and math.isfinite(v):
        if abs(u) < 22:
            return np.sin(a)  # sinh(u) cos(v), cosh(u) sin(v): the same products
        if v == 0:  # (cosh(u) sin(0) would be inf * 0 past overflow)
            return complex(v, math.sinh(u))
        h = math.exp(abs(u) * 0.5)  # e^|u| / 2 = (h / 2) h, past 710 too
        half = 0.5 * h
        return complex((half * math.sin(v)) * h, math.copysign(1.0, u) * ((half * math.cos(v)) * h))
    if u == 0:
        return complex(v - v, u)
    if v == 0:
        return complex(v, u + u)
    if math.isfinite(u):
        return complex(v - v, v - v)
    if math.isinf(u):
        if not math.isfinite(v):
            return complex(u * (v - v), u * u)
        return complex(math.inf * math.sin(v), u * math.cos(v))
    return complex((u + u) * (v - v), (u * u) * (v - v))


@njit(**_OPTS)
def _sin_cos(v):  # type: ignore[no-untyped-def]
    # the C library's cosh forms read sin(v) as v and cos(v) as 1 below the
    # smallest normal value (the same values, signs of zero included)
    if abs(v) <= 2.2250738585072014e-308:
        return v, 1.0
    return math.sin(v), math.cos(v)


@njit(**_OPTS)
def complex_cos(a):  # type: ignore[no-untyped-def]
    """numpy's complex cos: Numba's where both parts are finite; at an infinite
    or NaN part C99's special values as numpy returns them, through
    ``cos(z) = cosh(iz)``.

    >>> complex_cos(complex(math.inf, 0.0))
    (nan+0j)
    """
    x, y = a.real, a.imag
    u, v = -y, x  # cosh(u + iv)
    if math.isfinite(u) and math.isfinite(v):
        if abs(u) <= 709.0:
            return np.cos(a)  # cosh(u) cos(v), sinh(u) sin(v): the same products
        if v == 0:  # (sinh(u) sin(0) would be inf * 0)
            return complex(math.cosh(u), math.copysign(0.0, u) * v)
        s, c = _sin_cos(v)
        h = math.exp(abs(u) * 0.5)  # e^|u| / 2 = (h / 2) h, without overflowing
        half = 0.5 * h
        return complex((half * c) * h, math.copysign(1.0, u) * ((half * s) * h))
    if math.isfinite(u):  # v is not
        return complex(v - v, 0.0 if u == 0 else math.nan)
    if math.isinf(u):
        if v == 0:
            return complex(math.inf, v * math.copysign(1.0, u))
        if math.isfinite(v):
            s, c = _sin_cos(v)
            return complex(
                math.copysign(math.inf, c), math.copysign(math.inf, s) * math.copysign(1.0, u)
            )
        return complex(math.inf, v - v)
    return complex(math.nan, v if v == 0 else math.nan)


@intrinsic
def _fma(typingctx, a, b, c):  # type: ignore[no-untyped-def]
    """``a * b + c`` rounded once (LLVM's ``fma``: the instruction, or libm's)."""
    if not (isinstance(a, types.Float) and a == b == c):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.fma(*args)

    return a(a, b, c), codegen


@njit(**_OPTS)
def _mul_parts(ar, ai, br, bi, fused):  # type: ignore[no-untyped-def]
    # numpy's SIMD multiply: even lanes ar*br - (ai*bi), odd lanes ar*bi + (ai*br)
    if fused:
        return _fma(ar, br, -(ai * bi)), _fma(ar, bi, ai * br)
    return ar * br - ai * bi, ar * bi + ai * br


@njit(**_OPTS)
def complex_multiply(a, b, fused):  # type: ignore[no-untyped-def]
    """numpy's complex ``multiply`` loop (``fused``: with FMA, as its SIMD loop on
    an FMA CPU), in the operands' precision."""
    re, im = _mul_parts(a.real, a.imag, b.real, b.imag, fused)
    return complex(re, im)


@njit(**_OPTS)
def complex_square(a, fused):  # type: ignore[no-untyped-def]
    """numpy's complex ``square`` loop: ``a * a`` as its ``multiply`` computes it."""
    re, im = _mul_parts(a.real, a.imag, a.real, a.imag, fused)
    return complex(re, im)


@njit(**_OPTS)
def div_parts(ar, ai, br, bi, one):  # type: ignore[no-untyped-def]
    """The parts of ``(ar + ai j) / (br + bi j)`` by Smith's algorithm, as numpy's
    complex division and ``npy_cpow`` (negative powers) compute it, in the
    precision of ``one``: a zero divisor gives inf/NaN, never an error; an
    infinite one signed zeros (``1 / inf``), never NaN."""
    abs_r, abs_i = abs(br), abs(bi)
    if abs_r >= abs_i:
        if abs_r == 0 and abs_i == 0:
            return ar / abs_r, ai / abs_i
        rat = bi / br
        scl = one / (br + bi * rat)
        return (ar + ai * rat) * scl, (ai - ar * rat) * scl
    rat = br / bi
    scl = one / (bi + br * rat)
    return (ar * rat + ai) * scl, (ai * rat - ar) * scl


@njit(**_OPTS)
def complex_power(a, b, one, fused):  # type: ignore[no-untyped-def]
    """numpy's complex ``power`` (``npy_cpow``) in the precision of ``one``
    (``a`` and ``b`` already of that complex dtype): ``1`` for a zero exponent,
    ``0`` or NaN for a zero base, integer exponents below 100 in magnitude by
    repeated multiplication (``fused``: as this numpy's build multiplies), and
    ``exp(b log a)`` otherwise (libm's ``cpow`` there: not always to the bit)."""
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    zero = one - one
    if br == 0 and bi == 0:
        return complex(one, zero)
    if ar == 0 and ai == 0:
        if br > 0:
            return complex(zero, zero)
        return complex(np.nan, np.nan)
    if bi == 0 and -100 < br < 100 and br == math.floor(br):
        n = int(br)
        if n == 1:
            return complex(ar, ai)
        if n == 2:
            re, im = _mul_parts(ar, ai, ar, ai, fused)
            return complex(re, im)
        if n == 3:
            sr, si = _mul_parts(ar, ai, ar, ai, fused)
            re, im = _mul_parts(ar, ai, sr, si, fused)
            return complex(re, im)
        m = -n if n < 0 else n
        acc_r, acc_i = one, zero
        p_r, p_i = ar, ai
        mask = 1
        while True:
            if m & mask:
                acc_r, acc_i = _mul_parts(acc_r, acc_i, p_r, p_i, fused)
            mask <<= 1
            if m < mask:
                break
            p_r, p_i = _mul_parts(p_r, p_i, p_r, p_i, fused)
        if n < 0:
            acc_r, acc_i = div_parts(one, zero, acc_r, acc_i, one)
        return complex(acc_r, acc_i)
    z = b * np.log(a)
    if z.imag == 0:  # C's cexp: a real exponent keeps its zero imaginary part
        return complex(np.exp(z.real), z.imag)
    return np.exp(z)


@functools.cache
def numpy_fuses(name: str, dtype: str) -> bool:
    """Whether this numpy's complex ``square``, ``multiply`` or ``power`` (with
    exponent 2) rounds ``ar*ar - ai*ai`` once (an FMA), on a value where it shows."""
    part = np.finfo(np.dtype(dtype)).dtype
    # (1 + d)**2 - 1 = 2d + d**2: d**2 is below half an ulp of 1, lost when the
    # square is rounded before the subtraction
    d = 2.0 ** -(np.finfo(part).nmant // 2 + 2)
    z = np.array([complex(1 + d, 1.0)], dtype=dtype)
    if name == "square":
        got = np.square(z)
    elif name == "multiply":
        got = np.multiply(z, z)
    else:
        got = np.power(z, np.array(2, dtype=dtype))
    r = z.real
    plain = r * r - np.ones_like(r)
    return bool(got.real[0] != plain[0])

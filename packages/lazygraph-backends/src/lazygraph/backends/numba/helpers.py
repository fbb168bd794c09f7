"""Scalar helpers the generated kernels call: the places where numpy's
semantics differ from what a plain Python/LLVM operator gives (integer division
and remainder by zero or of ``MIN // -1``, shifts by the bit width or more,
NaN-propagating ``maximum``, numpy's float ``floor_divide``/``remainder``,
integer powers by repeated squaring).

Every helper is a Numba ``njit`` function and is meant to be called from
nopython code; called from Python they compile on first use.

>>> int(int_floor_divide(7, -2)), int(int_remainder(-7, 0))
(-4, 0)
"""

from __future__ import annotations

import math
import sys

import numpy as np
from numba import njit, types
from numba.extending import overload

from lazygraph.backends.numba.cache import helper_options
from lazygraph.backends.numba.complexmath import div_parts

__all__ = [
    "broadcast_to_shape",
    "cast_float_int",
    "cast_float_uint64",
    "complex_divide",
    "complex_reciprocal",
    "complex_tanh",
    "float_floor_divide",
    "float_remainder",
    "hugepage_hint",
    "int_floor_divide",
    "int_fmod",
    "int_power",
    "int_remainder",
    "left_shift",
    "log1mexp",
    "nan_max",
    "nan_min",
    "num_fmax",
    "num_fmin",
    "power_scalar_exponent",
    "reshape_target",
    "reshaped",
    "right_shift",
    "row_max",
    "row_min",
    "sigmoid",
    "signbit",
    "softplus",
]

_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package


@njit(**_OPTS)
def int_floor_divide(a, b):  # type: ignore[no-untyped-def]
    """numpy's integer floor division: 0 for a zero divisor, ``MIN // -1`` wraps."""
    if b == 0:
        return a - a
    if b == -1:
        return -a  # wraps to MIN for MIN, as numpy
    q = a // b
    return q


@njit(**_OPTS)
def int_remainder(a, b):  # type: ignore[no-untyped-def]
    """numpy's integer remainder (sign of the divisor): 0 for a zero divisor."""
    if b == 0 or b == -1:
        return a - a
    return a % b


@njit(**_OPTS)
def int_fmod(a, b):  # type: ignore[no-untyped-def]
    """C's ``%`` (sign of the dividend), 0 for a zero divisor, as numpy's fmod."""
    if b == 0 or b == -1:
        return a - a
    r = a % b
    if r != 0 and ((r < 0) != (a < 0)):
        r -= b
    return r


@njit(**_OPTS)
def float_floor_divide(a, b):  # type: ignore[no-untyped-def]
    """numpy's float floor division (``npy_divmod``), including its signed zeros."""
    if b == 0:
        return a / b
    mod = np.fmod(a, b)
    div = (a - mod) / b
    if mod != 0 and (b < 0) != (mod < 0):
        div -= 1.0
    if div != 0:
        floordiv = np.floor(div)
        if div - floordiv > 0.5:
            floordiv += 1.0
        return floordiv
    return math.copysign(0.0, a / b)


@njit(**_OPTS)
def float_remainder(a, b):  # type: ignore[no-untyped-def]
    """numpy's float remainder (sign of the divisor, ``npy_divmod``)."""
    if b == 0:
        return np.fmod(a, b)
    mod = np.fmod(a, b)
    if mod != 0:
        if (b < 0) != (mod < 0):
            mod += b
        return mod
    return math.copysign(0.0, b)


@njit(**_OPTS)
def int_power(a, b):  # type: ignore[no-untyped-def]
    """Integer power by repeated squaring, wrapping on overflow; a negative
    exponent raises numpy's ValueError."""
    if b < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")
    result = a - a + 1
    base = a
    while b > 0:
        if b & 1:
            result = result * base
        base = base * base
        b >>= 1
    return result


@njit(**_OPTS)
def power_scalar_exponent(a, b, one):  # type: ignore[no-untyped-def]
    """numpy's float ``power`` loop for an exponent it reads with stride 0 (0-d):
    ``a*a``, ``1/a`` and ``sqrt(a)`` for exponents 2, -1 and 0.5 (C's ``pow``
    differs in the last bit, and at ``-0.0`` and ``-inf`` for 0.5), else ``pow``."""
    if b == 2:
        return a * a
    if b == -1:
        return one / a
    if b == 0.5:
        return np.sqrt(a)
    return np.power(a, b)


@njit(**_OPTS)
def left_shift(a, b, bits):  # type: ignore[no-untyped-def]
    """``a << b``, 0 when ``b`` is negative or at least the width (numpy's rule)."""
    if b < 0 or b >= bits:
        return a - a
    return a << b


@njit(**_OPTS)
def right_shift(a, b, bits):  # type: ignore[no-untyped-def]
    """``a >> b``; a shift by the width or more gives 0, or -1 for negative ``a``."""
    if b < 0 or b >= bits:
        if a < 0:
            return ~(a - a)  # -1 of a's type (``a - a - 1`` types uint64 as float64)
        return a - a
    return a >> b


@njit(**_OPTS)
def nan_max(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``maximum``: NaN in either operand propagates; on a tie (``0.0``
    against ``-0.0``) the second operand, as numpy's loops give it."""
    if a > b or a != a:
        return a
    return b


@njit(**_OPTS)
def nan_min(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``minimum``: NaN in either operand propagates; on a tie the
    second operand, as numpy's loops give it."""
    if a < b or a != a:
        return a
    return b


# The max / min of a float row, as numpy's reduction gives it (the first NaN if
# there is one). Four independent accumulators updated by selects, not a branch
# per element: LLVM turns the loop into vector compares and blends (2000x5000
# float64 on a 2-core AMD EPYC: 2.4 ms, numpy 2.4 ms; one accumulator with a
# NaN test per element, 26 ms). Rows are never empty (max has no identity).


@njit(**_OPTS)
def _first_nan(a):  # type: ignore[no-untyped-def]
    for i in range(a.shape[0]):
        if a[i] != a[i]:
            return a[i]
    return a[0]


@njit(**_OPTS)
def row_max(a):  # type: ignore[no-untyped-def]
    """numpy's ``max`` of the non-empty 1-d float array ``a``."""
    n = a.shape[0]
    m0 = m1 = m2 = m3 = a[0]
    nan = False
    i = 0
    while i + 4 <= n:
        v0, v1, v2, v3 = a[i], a[i + 1], a[i + 2], a[i + 3]
        m0 = v0 if v0 > m0 else m0
        m1 = v1 if v1 > m1 else m1
        m2 = v2 if v2 > m2 else m2
        m3 = v3 if v3 > m3 else m3
        nan |= (v0 != v0) | (v1 != v1) | (v2 != v2) | (v3 != v3)
        i += 4
    while i < n:
        v = a[i]
        m0 = v if v > m0 else m0
        nan |= v != v
        i += 1
    if nan:
        return _first_nan(a)
    m0 = m1 if m1 > m0 else m0
    m2 = m3 if m3 > m2 else m2
    return m2 if m2 > m0 else m0


@njit(**_OPTS)
def row_min(a):  # type: ignore[no-untyped-def]
    """numpy's ``min`` of the non-empty 1-d float array ``a``."""
    n = a.shape[0]
    m0 = m1 = m2 = m3 = a[0]
    nan = False
    i = 0
    while i + 4 <= n:
        v0, v1, v2, v3 = a[i], a[i + 1], a[i + 2], a[i + 3]
        m0 = v0 if v0 < m0 else m0
        m1 = v1 if v1 < m1 else m1
        m2 = v2 if v2 < m2 else m2
        m3 = v3 if v3 < m3 else m3
        nan |= (v0 != v0) | (v1 != v1) | (v2 != v2) | (v3 != v3)
        i += 4
    while i < n:
        v = a[i]
        m0 = v if v < m0 else m0
        nan |= v != v
        i += 1
    if nan:
        return _first_nan(a)
    m0 = m1 if m1 < m0 else m0
    m2 = m3 if m3 < m2 else m2
    return m2 if m2 < m0 else m0


@njit(**_OPTS)
def num_fmax(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``fmax``: NaN only when both are NaN."""
    if a >= b or b != b:
        return a
    return b


@njit(**_OPTS)
def num_fmin(a, b):  # type: ignore[no-untyped-def]
    """numpy's ``fmin``: NaN only when both are NaN."""
    if a <= b or b != b:
        return a
    return b


@njit(**_OPTS)
def signbit(a):  # type: ignore[no-untyped-def]
    """The sign bit of a float (True for -0.0 and negative NaNs)."""
    return math.copysign(1.0, a) < 0


def numpy_cast_of(value: float, dtype: str) -> int:
    """What numpy's ``astype`` gives for a float ``value`` (NaN, inf) cast to an
    integer ``dtype`` on this machine: the generated casts reproduce it."""
    import warnings

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return int(np.array([value]).astype(dtype)[0])


@njit(**_OPTS)
def cast_float_int(a, lo, hi, bad):  # type: ignore[no-untyped-def]
    """A float truncated to int64 when ``lo <= a < hi``, else ``bad`` (what the C
    conversion numpy uses gives for NaN and out-of-range values)."""
    if a >= lo and a < hi:
        return np.int64(a)
    return np.int64(bad)


@njit(**_OPTS)
def cast_float_uint64(a, bad):  # type: ignore[no-untyped-def]
    """A float converted to uint64 as C does on x86-64 (negatives wrap)."""
    if a >= -9.223372036854775808e18 and a < 9.223372036854775808e18:
        return np.uint64(np.int64(a))
    if a >= 9.223372036854775808e18 and a < 1.8446744073709551616e19:
        return np.uint64(np.int64(a - 9.223372036854775808e18)) + np.uint64(9223372036854775808)
    return bad


@njit(**_OPTS)
def sigmoid(a, one):  # type: ignore[no-untyped-def]
    """``1 / (1 + exp(-a))`` without overflow, in the dtype of ``one``."""
    e = np.exp(-abs(a))
    if a >= 0:
        return one / (one + e)
    return e / (one + e)


@njit(**_OPTS)
def softplus(a, zero):  # type: ignore[no-untyped-def]
    """``log(1 + exp(a))`` without overflow: ``max(a, 0) + log1p(exp(-|a|))``."""
    return nan_max(a, zero) + np.log1p(np.exp(-abs(a)))


@njit(**_OPTS)
def log1mexp(a, minus_ln2):  # type: ignore[no-untyped-def]
    """``log(1 - exp(a))``, switching at ``-log 2`` as the numpy reference."""
    if a > minus_ln2:
        return np.log(-np.expm1(a))
    return np.log1p(-np.exp(a))


_MADV_HUGEPAGE = 14
_HUGE = 2 * 1024 * 1024

if sys.platform.startswith("linux"):
    # Bound by symbol name at link time (not by address), so kernels calling it
    # stay cacheable on disk.
    _madvise = types.ExternalFunction("madvise", types.int32(types.uintp, types.uintp, types.int32))

    @njit(**_OPTS)
    def hugepage_hint(a):  # type: ignore[no-untyped-def]
        """Ask for transparent huge pages on a fresh array of 4 MiB or more, as
        numpy does for its own allocations: a 10M-element output then takes
        ~600 page faults instead of ~20,000. Returns ``a``."""
        nbytes = a.size * a.itemsize
        if nbytes >= 4 * 1024 * 1024:
            addr = a.ctypes.data
            start = (addr + _HUGE - 1) & ~(_HUGE - 1)
            end = (addr + nbytes) & ~(_HUGE - 1)
            if end > start:
                _madvise(start, end - start, _MADV_HUGEPAGE)
        return a

else:

    @njit(**_OPTS)
    def hugepage_hint(a):  # type: ignore[no-untyped-def]
        """No-op outside Linux (transparent huge pages are a Linux feature)."""
        return a


@njit(**_OPTS)
def complex_divide(a, b, one):  # type: ignore[no-untyped-def]
    """numpy's complex division (Smith's algorithm, as its ufunc loop; see
    :func:`~lazygraph.backends.numba.complexmath.div_parts`), in the precision
    of ``one``."""
    re, im = div_parts(a.real, a.imag, b.real, b.imag, one)
    return complex(re, im)


@njit(**_OPTS)
def complex_reciprocal(a, one):  # type: ignore[no-untyped-def]
    """numpy's complex reciprocal (its own loop, not ``1 / a``), in the
    precision of ``one``: divides by the larger part first, so ``1 / (0 + inf
    j)`` is ``0 - 0j`` where Smith's division would give NaN."""
    ar, ai = a.real, a.imag
    if abs(ai) <= abs(ar):
        r = ai / ar
        d = ar + ai * r
        return complex(one / d, -r / d)
    r = ar / ai
    d = ar * r + ai
    return complex(r / d, -one / d)


@njit(**_OPTS)
def complex_tanh(a):  # type: ignore[no-untyped-def]
    """The complex tanh with C99's special values (as the libm numpy calls):
    ``tanh(inf + yj) = 1 + 0j`` with the sign of ``sin(2y)``, ``tanh(0 + inf j)
    = 0 + NaN j``; Kahan's formula in between, and ``1`` plus a tiny imaginary
    part once ``|x| >= 22``, where ``sinh`` would overflow."""
    x, y = a.real, a.imag
    if not math.isfinite(x):
        if math.isnan(x):
            return complex(x, y if y == 0 else x * y)
        # (numpy's ctanh: the sign of y itself when y is infinite)
        im = math.copysign(0.0, y if math.isinf(y) else math.sin(y) * math.cos(y))
        return complex(math.copysign(1.0, x), im)
    if not math.isfinite(y):
        if x == 0:
            return complex(x, y - y)
        return complex(y - y, y - y)
    if abs(x) >= 22:
        e = math.exp(-abs(x))
        return complex(math.copysign(1.0, x), 4 * math.sin(y) * math.cos(y) * e * e)
    t = math.tan(y)
    beta = 1 + t * t
    s = math.sinh(x)
    rho = math.sqrt(1 + s * s)
    denom = 1 + beta * s * s
    return complex(beta * rho * s / denom, t / denom)


def reshaped(a, shape):  # type: ignore[no-untyped-def]
    """``a.reshape(shape)``, also for ``shape == ()``, which Numba's own reshape
    does not compile (it packs an empty shape array); call it from nopython code."""
    return a.reshape(shape)


@overload(reshaped)
def _reshaped(a, shape):  # type: ignore[no-untyped-def]
    if isinstance(shape, types.BaseTuple) and len(shape) == 0:

        def zero_d(a, shape):  # type: ignore[no-untyped-def]
            if a.size != 1:
                raise ValueError("cannot reshape an array of size other than 1 into shape ()")
            out = np.empty((), a.dtype)
            out[()] = a.ravel()[0]
            return out

        return zero_d
    if isinstance(a, types.Array) and a.layout != "C":
        # Numba types reshape on C-layout arrays only, even behind a runtime
        # contiguity check (a transposed input: vector_norm over axes (0, -1))
        return lambda a, shape: np.ascontiguousarray(a).reshape(shape)
    return lambda a, shape: a.reshape(shape)


def broadcast_to_shape(a, shape):  # type: ignore[no-untyped-def]
    """``np.broadcast_to(a, shape)``, also for ``shape == ()`` (Numba's own fails
    to compile an empty shape); call it from nopython code."""
    return np.broadcast_to(a, shape)


@overload(broadcast_to_shape)
def _broadcast_to_shape(a, shape):  # type: ignore[no-untyped-def]
    if isinstance(shape, types.BaseTuple) and len(shape) == 0:

        def zero_d(a, shape):  # type: ignore[no-untyped-def]
            if a.ndim != 0:
                raise ValueError("array could not be broadcast to shape ()")
            return a

        return zero_d
    return lambda a, shape: np.broadcast_to(a, shape)


@njit(**_OPTS)
def reshape_target(size, shp):  # type: ignore[no-untyped-def]
    """The sizes ``reshape(shp)`` gives an array of ``size`` elements, with the
    one negative entry resolved; numpy's ``ValueError`` when there is no such
    shape (a negative entry beside a zero size always is one)."""
    n = shp.shape[0]
    out = np.empty(n, np.int64)
    unknown = -1
    known = 1
    for k in range(n):
        s = np.int64(shp[k])
        if s < 0:
            if unknown >= 0:
                raise ValueError("Reshape: can only specify one unknown dimension")
            unknown = k
            out[k] = 1
        else:
            out[k] = s
            known *= s
    if unknown >= 0:
        if known == 0 or size % known != 0:
            raise ValueError("Reshape: cannot reshape array of size " + str(size) + " into shape")
        out[unknown] = size // known
    elif known != size:
        raise ValueError("Reshape: cannot reshape array of size " + str(size) + " into shape")
    return out

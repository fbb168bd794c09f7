"""Complex scalar helpers the generated kernels call where Numba has no complex
form of a numpy ufunc, or a different one: numpy's lexicographic ordering
(comparisons, ``maximum``/``minimum``, ``fmax``/``fmin``), ``sign``
(``z / |z|``), rounding of each part, and ``exp2``/``expm1``/``log2`` as
numpy's own complex loops compute them. Each follows numpy's C loop, special
values (NaN, inf, signed zeros) included.

Results are built with ``complex(re, im)`` (complex128 in Numba); the kernel
converts them to the node's output dtype, as for every other expression.

>>> bool(complex_less(1 + 5j, 2 + 0j)), bool(complex_less(1 + 1j, 1 + 0j))
(True, False)
>>> complex_sign(3 + 4j)
(0.6+0.8j)
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = [
    "complex_exp2",
    "complex_expm1",
    "complex_fmax",
    "complex_fmin",
    "complex_greater",
    "complex_greater_equal",
    "complex_less",
    "complex_less_equal",
    "complex_log2",
    "complex_maximum",
    "complex_minimum",
    "complex_rint",
    "complex_round",
    "complex_sign",
]

_OPTS = {"cache": True, "error_model": "numpy", "nogil": True}

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

"""Powers give numpy's own bits, not close values (issue 16, item 4).

numpy 2.4 computes powers several ways, and each must be matched to the bit:

- ``array ** s`` (the operator, ``fast_scalar_power``) for a float or complex
  array takes ``square`` for a Python ``int`` 2, ``reciprocal`` for a Python
  ``int`` -1 and ``sqrt`` for a Python ``float`` 0.5; every other exponent goes
  through ``np.power``. For complex arrays this matters: ``square`` rounds as
  ``multiply`` does (with an FMA where the CPU has one), ``power`` multiplies its
  own way.
- ``np.power`` on real floats with a 0-d exponent (read with stride 0) computes
  ``x*x``, ``1/x`` and ``sqrt(x)`` for 2, -1 and 0.5 and C's ``pow`` otherwise;
  with an array exponent always C's ``pow``.
- ``np.power`` on complex values (``npy_cpow``): integer exponents below 100 in
  magnitude by repeated multiplication, a division for negative ones.

Where numpy takes C's ``pow``, CPUs with AVX-512 run numpy's own SIMD loop
instead (SVML), whose last bit differs from the C library's for some inputs;
the kernels call the C library, so there either answer is numpy's (a last-ulp
difference between math libraries): :func:`_c_pow` is the second reference.

Each check runs on the backend of the session (``LAZYGRAPH_BACKEND``). Known
gap: the numba backend computes complex powers with a non-integer exponent
other than 0.5 with its own ``exp(b log a)``, not libm's ``cpow``, so those
draw only on the other backends.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from tests.tensor.harness import BACKEND, flush_subnormals

REAL = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
INTEGER_EXPONENTS = (-3, -2, -1, 0, 1, 2, 3, 4, 5, 7, 10, 99)
OTHER_EXPONENTS = (0.5, -0.5, 1.5, 2.5, 100.0, -100.0)


def _floats(width: int, specials: bool) -> st.SearchStrategy[float]:
    finite = st.floats(-1e3, 1e3, width=width)
    if not specials:
        return finite
    edges = st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0])
    return st.one_of(finite, finite, edges, st.floats(width=width))


def _values(dtype: str, specials: bool = True) -> st.SearchStrategy[np.ndarray]:
    width = 32 if dtype in ("float32", "complex64") else 64
    n = 16
    if np.dtype(dtype).kind == "f":
        parts = st.lists(_floats(width, specials), min_size=n, max_size=n)
        return parts.map(lambda v: np.array(v, dtype=dtype))
    parts = st.lists(
        st.tuples(_floats(width, specials), _floats(width, specials)), min_size=n, max_size=n
    )
    return parts.map(lambda v: np.array([complex(a, b) for a, b in v], dtype=dtype))


def _exact_here(dtype: str, exponent: Any) -> bool:
    """Whether this backend gives numpy's bits for ``array ** exponent`` (see the
    module docstring for the gap)."""
    if BACKEND != "numba" or np.dtype(dtype).kind != "c":
        return True
    if type(exponent) is float and exponent == 0.5:  # numpy's ** takes sqrt
        return True
    return float(np.real(exponent)).is_integer() and abs(float(np.real(exponent))) < 100


_LIBM = ctypes.CDLL(ctypes.util.find_library("m"))
for _name, _type in (("pow", ctypes.c_double), ("powf", ctypes.c_float)):
    getattr(_LIBM, _name).restype = _type
    getattr(_LIBM, _name).argtypes = (_type, _type)


def _c_pow(x: np.ndarray, e: Any) -> np.ndarray:
    """C's ``pow`` (``powf`` for float32) of real ``x`` and ``e``, elementwise."""
    fn = _LIBM.powf if x.dtype == np.float32 else _LIBM.pow
    pairs = np.broadcast_arrays(x, np.asarray(e, dtype=x.dtype))
    return np.array(
        [fn(float(a), float(b)) for a, b in zip(*(p.ravel() for p in pairs), strict=True)],
        dtype=x.dtype,
    ).reshape(pairs[0].shape)


def _takes_pow(dtype: str, exponent: Any) -> bool:
    """Whether numpy computes a real ``x ** exponent`` (operator or 0-d exponent)
    with C's pow: every exponent but its fast paths 2, -1 and 0.5."""
    return np.dtype(dtype).kind == "f" and float(exponent) not in (2.0, -1.0, 0.5)


def assert_same_bits(got: Any, want: np.ndarray, also: np.ndarray | None = None) -> None:
    """Equal dtypes and bits; NaNs only where numpy has NaNs (their sign and payload
    are the hardware's business, not numpy's). With ``also``, each element may
    have ``also``'s bits instead (C's pow where numpy ran its SIMD one)."""
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    if BACKEND == "jax":  # XLA on the CPU flushes subnormal results to zero
        got, want = flush_subnormals([got, want])
        also = None if also is None else flush_subnormals([also])[0]
    if want.dtype.kind == "c":
        assert_same_bits(got.real, want.real)
        assert_same_bits(got.imag, want.imag)
        return
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    uint = f"uint{want.dtype.itemsize * 8}"
    g, w = got[~nan].view(uint), want[~nan].view(uint)
    if also is not None:
        w = np.where(g == also[~nan].view(uint), g, w)
    np.testing.assert_array_equal(g, w)


def _numpy(fn: Any) -> Any:
    with np.errstate(all="ignore"):
        return fn()


# -- the ** operator with a Python scalar ---------------------------------------------


@settings(max_examples=40)
@given(
    dtype=st.sampled_from(REAL + COMPLEX),
    exponent=st.sampled_from(INTEGER_EXPONENTS + OTHER_EXPONENTS + (2.0, -1.0, 3.0)),
    data=st.data(),
)
def test_pow_operator_python_scalar_matches_numpy_bits(
    dtype: str, exponent: Any, data: st.DataObject
) -> None:
    if not _exact_here(dtype, exponent):
        exponent = 2
    x = data.draw(_values(dtype))
    want = _numpy(lambda: x**exponent)
    got = _numpy(lambda: (lnp.asarray(x) ** exponent).compute())
    assert_same_bits(got, want, _c_pow(x, exponent) if _takes_pow(dtype, exponent) else None)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_square_operator_is_numpy_square(dtype: str) -> None:
    # the report: z**2 went through the general complex power
    rng = np.random.default_rng(0)
    z = (rng.standard_normal(2000) + 1j * rng.standard_normal(2000)).astype(dtype)
    assert_same_bits((lnp.asarray(z) ** 2).compute(), z**2)
    assert_same_bits((lnp.asarray(z) ** -1).compute(), z**-1)


def test_inplace_pow_takes_the_same_fast_path() -> None:
    rng = np.random.default_rng(1)
    z = (rng.standard_normal(500) + 1j * rng.standard_normal(500)).astype("complex64")
    a = lnp.asarray(z.copy())
    a **= 2
    want = z.copy()
    want **= 2
    assert_same_bits(a.compute(), want)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_sqrt_matches_numpy_bits(dtype: str) -> None:
    # C's csqrt, which numpy calls: special values of C99's Annex G, signed
    # zeros, subnormal and huge parts (where a naive formula divides by zero or
    # overflows), and random values over the whole exponent range
    part = np.finfo(np.dtype(dtype)).dtype
    info = np.finfo(part)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 4.0, -4.0]
    edges += [info.smallest_normal, info.smallest_normal / 3, info.smallest_subnormal]
    edges += [info.max, info.max / 3, -info.max, -info.smallest_subnormal]
    grid = np.array(edges, dtype=part)
    re, im = np.meshgrid(grid, grid)
    rng = np.random.default_rng(4)
    exponents = rng.uniform(info.minexp - info.nmant, info.maxexp, 4000)
    mags = np.ldexp(rng.uniform(0.5, 1.0, (2, 4000)), exponents.astype(int))
    signs = rng.choice([-1.0, 1.0], (2, 4000))
    z = np.empty(re.size + 4000, dtype=dtype)
    z.real = np.concatenate([re.ravel(), (signs[0] * mags[0]).astype(part)])
    z.imag = np.concatenate([im.ravel(), (signs[1] * mags[1]).astype(part)])
    want = _numpy(lambda: np.sqrt(z))
    assert_same_bits(_numpy(lambda: lnp.sqrt(lnp.asarray(z)).compute()), want)
    assert_same_bits(_numpy(lambda: (lnp.asarray(z) ** 0.5).compute()), want)


# -- np.power with a 0-d exponent and with an array exponent --------------------------


@settings(max_examples=40)
@given(
    dtype=st.sampled_from(REAL + COMPLEX),
    exponent=st.sampled_from(INTEGER_EXPONENTS + OTHER_EXPONENTS),
    data=st.data(),
)
def test_power_zero_d_exponent_matches_numpy_bits(
    dtype: str, exponent: Any, data: st.DataObject
) -> None:
    if not _exact_here(dtype, exponent):
        exponent = 3
    x = data.draw(_values(dtype))
    e = np.array(exponent, dtype=dtype)
    want = _numpy(lambda: np.power(x, e))
    also = _c_pow(x, e) if _takes_pow(dtype, exponent) else None
    # a constant exponent (rewritten by pow_specialize) and a 0-d input (not)
    assert_same_bits(_numpy(lambda: lnp.power(lnp.asarray(x), e).compute()), want, also)
    got = _numpy(lambda: lnp.power(lnp.asarray(x), lnp.asarray(e)).compute())
    assert_same_bits(got, want, also)


@settings(max_examples=40)
@given(
    dtype=st.sampled_from(REAL + COMPLEX),
    exponent=st.sampled_from(INTEGER_EXPONENTS + OTHER_EXPONENTS),
    data=st.data(),
)
def test_power_array_exponent_matches_numpy_bits(
    dtype: str, exponent: Any, data: st.DataObject
) -> None:
    if not _exact_here(dtype, exponent):
        exponent = -2
    x = data.draw(_values(dtype))
    e = np.full(x.shape, exponent, dtype=dtype)
    want = _numpy(lambda: np.power(x, e))
    also = _c_pow(x, e) if np.dtype(dtype).kind == "f" else None  # an array exponent: pow
    got = _numpy(lambda: lnp.power(lnp.asarray(x), lnp.asarray(e)).compute())
    assert_same_bits(got, want, also)


@pytest.mark.parametrize("dtype", REAL)
def test_real_square_by_array_exponent_is_pow_not_a_product(dtype: str) -> None:
    # numpy's pow(x, 2.0) and x*x differ in the last bit for some x (where its
    # pow is not correctly rounded): its array exponent takes pow, its 0-d
    # exponent x*x
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(20000) * 3).astype(dtype)
    by_array = np.power(x, np.full(x.shape, 2.0, dtype))
    two = np.full(x.shape, 2.0, dtype)
    c_pow = _c_pow(x, two)
    assert not (np.array_equal(by_array, x * x) and np.array_equal(c_pow, x * x))
    assert_same_bits(lnp.power(lnp.asarray(x), lnp.asarray(two)).compute(), by_array, c_pow)
    assert_same_bits(lnp.power(lnp.asarray(x), np.array(2.0, dtype)).compute(), x * x)


# -- the loop from the issue ------------------------------------------------------------


@pytest.mark.parametrize("dtype", COMPLEX)
def test_mandelbrot_loop_matches_numpy_bits(dtype: str) -> None:
    rng = np.random.default_rng(3)
    c = (rng.uniform(-2, 1, (120, 128)) + 1j * rng.uniform(-1.5, 1.5, (120, 128))).astype(dtype)
    z = np.zeros_like(c)
    zl = lnp.zeros_like(lnp.asarray(c))
    cl = lnp.asarray(c)
    with np.errstate(all="ignore"):
        for _ in range(40):
            z = z**2 + c
            zl = zl**2 + cl
        got = zl.compute()
    assert_same_bits(got, z)

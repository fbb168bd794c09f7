"""``modf``, ``frexp``, ``bitwise_count``, ``i0`` and ``sort_complex`` against
numpy (the oracle) on random arrays of every dtype, with 0-d and empty shapes,
NaN, ±inf, -0.0, subnormals and the integer limits; numpy's TypeError where it
has no loop; ``out=``; and ``verify_grad`` through the differentiable ones."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from lazygraph.gradient import verify_grad
from tests.numpy_api.namespace_harness import ALL, array_args, check, python_scalars
from tests.tensor.harness import BACKEND, FLOATS, INTS

EXAMPLES = 40

#: the special values every float check includes
SPECIAL = np.array(
    [np.inf, -np.inf, np.nan, -0.0, 0.0, -2.5, -2.0, 0.5, 1.0, 3.75, 1e308, 5e-324, -1e-310]
)


def _check_parts(name: str, x: object) -> None:
    # the sign of a zero part is numpy's (modf(-2.0) is (-0.0, -2.0))
    check(getattr(lnp, name), getattr(np, name), x)


@pytest.mark.parametrize("name", ["modf", "frexp"])
@settings(max_examples=EXAMPLES, deadline=None)
@given(x=st.one_of(array_args(ALL), python_scalars()))
def test_modf_frexp_match_numpy(name: str, x: object) -> None:
    _check_parts(name, x)  # complex input: numpy's TypeError


@pytest.mark.parametrize("name", ["modf", "frexp"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_modf_frexp_special_values(name: str, dtype: str) -> None:
    with np.errstate(over="ignore"):
        values = SPECIAL.astype(dtype)
    if BACKEND == "jax":  # XLA reads subnormals as zeros
        values = values[np.abs(values) >= np.finfo(dtype).tiny]
    _check_parts(name, values)
    _check_parts(name, values[:0])
    for v in values:
        _check_parts(name, v)  # numpy scalars: numpy's scalars


def test_frexp_is_exact_over_the_exponent_range() -> None:
    """Every power of two (subnormals included) and its neighbours."""
    for dtype in FLOATS:
        info = np.finfo(dtype)
        low = info.minexp - info.nmant if BACKEND != "jax" else info.minexp
        powers = np.ldexp(np.ones(1, dtype), np.arange(low, info.maxexp, dtype=np.int32))
        values = np.concatenate([powers, np.nextafter(powers, 0), np.nextafter(powers, np.inf)])
        values = values[np.isfinite(values) & (values != 0)]
        check(lnp.frexp, np.frexp, np.concatenate([values, -values]))


def test_modf_frexp_out_and_keywords() -> None:
    x = np.array([2.5, -0.75])
    frac, whole = np.zeros(2), np.zeros(2)
    got = lnp.modf(x, out=(frac, whole))
    assert got[0] is frac and got[1] is whole
    np.testing.assert_array_equal(frac, [0.5, -0.75])
    np.testing.assert_array_equal(whole, [2.0, -0.0])
    for dtype in ("float32", "float64", "int32"):  # frexp: numpy's TypeError for any
        check(lnp.modf, np.modf, x, dtype=dtype)
        check(lnp.frexp, np.frexp, x, dtype=dtype)
    with pytest.raises(ValueError, match="one entry per ufunc output"):
        lnp.frexp(x, out=np.zeros(2))
    # a scalar's parts are alike: numpy's scalars where scalars compute at once
    frac_type, whole_type = (type(p) for p in lnp.modf(2.5))
    assert frac_type is whole_type


@settings(max_examples=EXAMPLES, deadline=None)
@given(x=st.one_of(array_args(ALL), st.integers(-(2**63), 2**63 - 1), st.booleans()))
def test_bitwise_count_matches_numpy(x: object) -> None:
    check(lnp.bitwise_count, np.bitwise_count, x)  # floats, complex: TypeError


@pytest.mark.parametrize("dtype", INTS)
def test_bitwise_count_integer_limits(dtype: str) -> None:
    info = np.iinfo(dtype)
    values = np.array([0, 1, info.min, info.max, info.min + 1, info.max - 1], dtype=dtype)
    check(lnp.bitwise_count, np.bitwise_count, values)


@settings(max_examples=EXAMPLES, deadline=None)
@given(x=st.one_of(array_args(ALL), python_scalars()))
def test_i0_matches_numpy(x: object) -> None:
    # the same series in the same order: numpy's values, to rounding
    check(lnp.i0, np.i0, x, rtol=1e-14 if np.asarray(x).dtype != np.float32 else 1e-6)


@pytest.mark.parametrize("dtype", FLOATS)
def test_i0_across_the_branch_point(dtype: str) -> None:
    x = np.concatenate([np.linspace(-30, 30, 241), [7.999, 8.0, 8.001, np.inf, np.nan, -0.0]])
    check(lnp.i0, np.i0, x.astype(dtype), rtol=1e-15 if dtype == "float64" else 1e-6)


@settings(max_examples=EXAMPLES, deadline=None)
@given(x=array_args(ALL))
def test_sort_complex_matches_numpy(x: np.ndarray) -> None:
    check(lnp.sort_complex, np.sort_complex, x)  # 0-d: numpy's AxisError


def test_sort_complex_ties_and_dtypes() -> None:
    z = np.array([1 + 2j, 1 - 1j, 1 + 2j, np.nan + 0j, -1 + 0j, complex(1, np.nan)])
    check(lnp.sort_complex, np.sort_complex, z)
    for dtype in ("int8", "uint16", "int32", "float32", "bool", "complex64"):
        check(lnp.sort_complex, np.sort_complex, np.array([[3, 1, 2], [0, 5, 5]]).astype(dtype))


@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("i0", lambda x: lnp.i0(x)._var),
        ("modf", lambda x: lnp.modf(x)[0]._var),
        ("frexp", lambda x: lnp.frexp(x)[0]._var),
    ],
)
def test_verify_grad(name: str, fn: object) -> None:
    # points away from the kinks (integers for modf, powers of two for frexp)
    point = np.array([-9.5, -3.3, -0.7, 0.3, 2.6, 7.9, 8.5, 12.2])
    verify_grad(fn, [point])

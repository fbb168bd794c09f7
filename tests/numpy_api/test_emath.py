"""``lazygraph.numpy.emath`` against ``numpy.emath`` (the oracle): every
function on random arrays of every real and complex dtype with values inside
and outside the real domain, Python and numpy scalars, 0-d and empty arrays,
NaN/inf; the dtype decided by a computed domain check when the data is known
only when computed; and gradients inside the real domain."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.gradient import verify_grad
from tests.numpy_api.namespace_harness import ALL, array_args, check, python_scalars

UNARY = ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"]
EXAMPLES = 30
#: bool, int8 and uint8 compute in float16 in numpy (float32 here); compared loosely
SMALL = ("bool", "int8", "uint8")


def _rtol(*xs: Any) -> float:
    dtypes = {np.asarray(x).dtype.name for x in xs}
    if dtypes & {*SMALL, "float32", "complex64", "int16", "uint16"}:
        return 1e-3 if dtypes & set(SMALL) else 1e-5
    return 1e-12


@pytest.mark.parametrize("name", UNARY)
@settings(max_examples=EXAMPLES, deadline=None)
@given(x=st.one_of(array_args(ALL, max_dims=2), python_scalars()))
def test_unary_matches_numpy(name: str, x: Any) -> None:
    check(getattr(lnp.emath, name), getattr(np.emath, name), x, rtol=_rtol(x), atol=1e-300)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    x=st.one_of(array_args(ALL, max_dims=1), python_scalars()),
    p=st.one_of(array_args(ALL, max_dims=1, min_value=-3, max_value=3), st.integers(-3, 3)),
)
def test_power_logn_match_numpy(x: Any, p: Any) -> None:
    rtol = max(_rtol(x, p), 1e-9)
    check(lnp.emath.power, np.emath.power, x, p, rtol=rtol, atol=1e-300)
    check(lnp.emath.logn, np.emath.logn, p, x, rtol=rtol, atol=1e-300)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int16", "int64", "uint32"])
def test_dtype_from_a_computed_domain_check(name: str, dtype: str) -> None:
    """Data known only when computed: the one reduction is computed, the result
    recorded; numpy's dtype either way (complex only when out of the domain)."""
    for values in ([0.25, 0.5], [-2.0, 0.5], [2.0, 3.0]):
        data = np.asarray(values).astype(dtype)
        with lazygraph.config.change(eager_max_elements=0):
            x = lnp.asarray(data) + lnp.asarray(np.zeros((), dtype))
            got = getattr(lnp.emath, name)(x).compute()
        with np.errstate(all="ignore"):
            want = getattr(np.emath, name)(data)
        assert got.dtype == want.dtype, (values, got.dtype, want.dtype)
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_special_values_and_scalars() -> None:
    x = np.array([-np.inf, -1.0, -0.0, 0.0, 1.0, np.inf, np.nan])
    for name in UNARY:
        fn, ref = getattr(lnp.emath, name), getattr(np.emath, name)
        check(fn, ref, x)
        check(fn, ref, -4)
        check(fn, ref, np.float32(-0.5), rtol=1e-6)
        check(fn, ref, np.array([], dtype=np.float32))
    check(lnp.emath.power, np.emath.power, np.array([-8.0, 8.0]), np.array([2, -1]))
    check(lnp.emath.power, np.emath.power, 2, -1)  # an int exponent < 0: floats
    check(lnp.emath.logn, np.emath.logn, -2, np.array([4.0, -8.0]))
    assert lnp.emath.__name__ == "lazygraph.numpy.emath" and "emath" in lnp.__all__


def test_emath_errors_name_the_function() -> None:
    with pytest.raises(TypeError, match=r"emath\.sqrt"):
        lnp.emath.sqrt(np.array(["a"]))


@pytest.mark.parametrize("name", ["sqrt", "log", "log10", "arcsin", "arctanh"])
def test_verify_grad_inside_the_domain(name: str) -> None:
    # a real point inside the domain: the check reads the (constant) value
    fn = getattr(lnp.emath, name)
    point = np.array([0.2, 0.45, 0.7])
    with lazygraph.config.change(eager_max_elements=0):
        x = lnp.asarray(point)
        g = lazygraph.grad(lambda v: lnp.sum(fn(v)))(x).compute()
    h = 1e-6
    ref = getattr(np.emath, name)
    numeric = [(ref(point + h * e).sum() - ref(point - h * e).sum()) / (2 * h) for e in np.eye(3)]
    np.testing.assert_allclose(g, numeric, rtol=1e-6)
    if name == "sqrt":
        verify_grad(lambda v: lnp.sqrt(v)._var, [point])  # (the ufunc it records)


def test_numpy_emath_on_lazy_arrays_stays_lazy() -> None:
    import warnings

    x = lnp.asarray(np.array([-4.0, 1.0, 9.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy fallback
        got = np.emath.sqrt(x)
    assert isinstance(got, lnp.Array)
    np.testing.assert_array_equal(got.compute(), np.emath.sqrt(np.array([-4.0, 1.0, 9.0])))

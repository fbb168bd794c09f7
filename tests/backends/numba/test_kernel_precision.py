"""Precision of the numba kernels against numpy: the shift helpers keep their
operand's integer type (a ``uint64`` shift by the width or more once typed the
helper's result as float64, so a fused uint64 chain lost its low bits), and a
float32 sum is as accurate as numpy's pairwise one (a loop adding in float32
was 2e-4 off for 10,000 values of 0.1)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from lazygraph.backends.numba import helpers


@pytest.mark.parametrize("dtype", ["uint64", "int64", "uint8", "int8"])
def test_right_shift_keeps_the_integer_type(dtype):
    info = np.iinfo(dtype)
    bits = info.bits
    for a in (info.max, info.min, 12345 % (info.max + 1)):
        for b in (0, 1, bits - 1, bits, bits + 3):
            got = helpers.right_shift(np.asarray(a, dtype)[()], np.asarray(b, dtype)[()], bits)
            want = np.right_shift(np.asarray(a, dtype), np.asarray(b, dtype))
            assert np.asarray(got).dtype.kind in "iu", (a, b, got)
            assert int(got) == int(want), (dtype, a, b, got, want)


def test_a_fused_uint64_shift_chain_keeps_every_bit():
    import lazygraph
    import lazygraph.numpy as lnp

    values = np.array([2**64 - 1, 12345678901234567890, 3], dtype=np.uint64)
    with lazygraph.config.change(eager_max_elements=0):
        x = lnp.asarray(values)
        got = ((x >> np.uint64(1)) ^ (x >> np.uint64(3))).compute()
    np.testing.assert_array_equal(got, (values >> np.uint64(1)) ^ (values >> np.uint64(3)))


@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("kind", ["sum", "mean"])
def test_a_float32_sum_is_as_accurate_as_numpys(axis, kind):
    import lazygraph
    import lazygraph.numpy as lnp

    values = np.full((4000, 3), 0.1, dtype=np.float32)
    values[::7] = 3.3
    exact = getattr(values.astype(np.float64), kind)(axis=axis)
    want = getattr(values, kind)(axis=axis)
    with lazygraph.config.change(eager_max_elements=0):
        got = getattr(lnp.asarray(values), kind)(axis=axis).compute()
    assert got.dtype == want.dtype == np.float32
    if axis == 0:  # numpy adds row after row in float32 there: so does the kernel
        np.testing.assert_allclose(got, want, rtol=1e-6)
    else:  # numpy's pairwise summation: the float32 rounding of the exact sum
        np.testing.assert_allclose(got, exact, rtol=2e-7)
        np.testing.assert_allclose(want, exact, rtol=2e-7)

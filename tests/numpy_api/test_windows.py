"""The window functions against numpy bit for bit: ``bartlett``, ``blackman``,
``hamming``, ``hanning`` and ``kaiser`` for lengths ``M`` < 1, 1, 2, large,
non-integer and of other types (numpy's errors for bad ones), a lazy ``M``,
and ``kaiser`` with a lazy ``beta`` (recorded, differentiable)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.gradient import verify_grad
from tests.numpy_api.namespace_harness import check

WINDOWS = ["bartlett", "blackman", "hamming", "hanning"]
LENGTHS = [-3, 0, 1, 2, 3, 5, 6.5, 0.5, 1.0, 64, 513, np.int8(4), np.float32(7.0), True]


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("M", LENGTHS, ids=repr)
def test_window_matches_numpy(name: str, M: Any) -> None:
    check(getattr(lnp, name), getattr(np, name), M, rtol=0)


@pytest.mark.parametrize("name", WINDOWS)
def test_window_bad_lengths(name: str) -> None:
    for M in ("a", None, [3, 4], 2 + 1j):
        check(getattr(lnp, name), getattr(np, name), M)


@pytest.mark.parametrize("name", [*WINDOWS, "kaiser"])
def test_window_of_a_lazy_length(name: str) -> None:
    args = (5.0,) if name == "kaiser" else ()
    n = lnp.asarray(np.arange(4)).sum() - 1  # 5, known only when computed
    got = getattr(lnp, name)(n, *args).compute()
    np.testing.assert_array_equal(got, getattr(np, name)(5, *args))


@settings(max_examples=40, deadline=None)
@given(
    M=st.one_of(st.integers(-2, 40), st.floats(0.0, 20.0, allow_nan=False)),
    beta=st.one_of(st.floats(-20.0, 20.0), st.integers(0, 30), st.just(np.float32(2.5))),
)
def test_kaiser_matches_numpy(M: Any, beta: Any) -> None:
    check(lnp.kaiser, np.kaiser, M, beta, rtol=0)


@pytest.mark.filterwarnings("ignore:invalid value encountered in sqrt:RuntimeWarning")
@pytest.mark.parametrize("M", [0, 1, 2, 7, 8.5, 33])
@pytest.mark.parametrize("beta", [0.0, 3.5, 14.0, -2.0])
def test_kaiser_of_a_lazy_beta(M: Any, beta: float) -> None:
    """A lazy beta records numpy's formula on the lazy i0: numpy's values."""
    with lazygraph.config.change(eager_max_elements=0):
        b = lnp.asarray(np.float64(beta)) * 1.0
        got = lnp.kaiser(M, b).compute()
    want = np.kaiser(M, beta)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-14)


def test_kaiser_grad_in_beta() -> None:
    verify_grad(lambda b: lnp.kaiser(9, b)._var, [np.array(4.5)])

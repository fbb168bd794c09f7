"""Runtime indices are bounds-checked on every backend.

Index values that only exist at run time (integer arrays bound as data, the
results of ``searchsorted``, scalar positions and slice bounds held in arrays)
go through integer-array indexing, ``take`` and dynamic slicing. Hypothesis
draws the data, shapes, index dtypes and values (in bounds and out of them);
the result must be numpy's, or the ``IndexError`` numpy raises: a kernel that
reads out of bounds would give garbage or crash instead.

The session's backend (``LAZYGRAPH_BACKEND``) runs on every test run; the other
available backends run under the ``slow`` marker (each new shape compiles).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from lazygraph.compile.backends import available_backends
from lazygraph.configuration import config

INDEX_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint32"]
FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _backends() -> list[Any]:
    params = []
    for name in available_backends():
        if name == config.backend:
            params.append(pytest.param(name, id=name))
        else:
            params.append(pytest.param(name, id=name, marks=pytest.mark.slow))
    return params


BACKENDS = _backends()


@st.composite
def array_and_indices(draw: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """An array of 1 or 2 dims (sizes 0..4), an axis, and an index array whose
    values reach beyond the axis on both sides."""
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=1, max_size=2)))
    x = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) * 1.5 - 2.0
    axis = draw(st.integers(0, len(shape) - 1))
    n = shape[axis]
    dtype = np.dtype(draw(st.sampled_from(INDEX_DTYPES)))
    info = np.iinfo(dtype)
    lo, hi = max(-2 * n - 2, int(info.min)), min(2 * n + 2, int(info.max))
    k = draw(st.integers(0, 3))
    values = draw(st.lists(st.integers(lo, hi), min_size=k, max_size=k))
    idx = np.array(values, dtype=dtype)
    # Now and then an extreme value of the dtype (wraps to no valid position).
    if values and draw(st.booleans()):
        idx[0] = draw(st.sampled_from([info.min, info.max]))
    return x, idx, axis


def _agree(ours: Callable[[], Any], theirs: Callable[[], Any], backend: str) -> None:
    """``ours()`` (lazygraph, forced) equals ``theirs()`` (numpy), or both raise
    IndexError."""
    try:
        want = theirs()
    except IndexError:
        with config.change(backend=backend), pytest.raises(IndexError):
            np.asarray(ours())
        return
    with config.change(backend=backend):
        got = np.asarray(ours())
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype


@pytest.mark.parametrize("backend", BACKENDS)
@FUZZ
@given(case=array_and_indices())
def test_integer_array_indexing(backend: str, case: tuple[np.ndarray, np.ndarray, int]) -> None:
    x, idx, axis = case
    key = (slice(None),) * axis + (idx,)
    _agree(
        lambda: lnp.asarray(x)[(slice(None),) * axis + (lnp.asarray(idx),)], lambda: x[key], backend
    )


@pytest.mark.parametrize("backend", BACKENDS)
@FUZZ
@given(case=array_and_indices())
def test_take(backend: str, case: tuple[np.ndarray, np.ndarray, int]) -> None:
    x, idx, axis = case
    _agree(
        lambda: lnp.take(lnp.asarray(x), lnp.asarray(idx), axis=axis),
        lambda: np.take(x, idx, axis=axis),
        backend,
    )


@pytest.mark.parametrize("backend", BACKENDS)
@FUZZ
@given(
    n=st.integers(0, 5),
    # No subnormals: XLA on the CPU flushes them to zero (docs/backends-jax.md),
    # so -5e-324 sorts as 0.0 there; that is not an indexing question.
    values=st.lists(
        st.floats(-10, 20, allow_nan=False, allow_subnormal=False), min_size=0, max_size=4
    ),
    side=st.sampled_from(["left", "right"]),
)
def test_searchsorted_results_as_indices(
    backend: str, n: int, values: list[float], side: str
) -> None:
    """``searchsorted`` can return ``len(a)``: indexing with it must raise."""
    a = np.arange(n, dtype=np.float64) * 3.0
    v = np.array(values, dtype=np.float64)

    def ours() -> Any:
        la = lnp.asarray(a)
        return la[lnp.searchsorted(la, lnp.asarray(v), side=side)]

    _agree(ours, lambda: a[np.searchsorted(a, v, side=side)], backend)


@pytest.mark.parametrize("backend", BACKENDS)
@FUZZ
@given(
    n=st.integers(0, 5),
    i=st.integers(-8, 8),
    j=st.integers(-8, 8),
    dtype=st.sampled_from(["int8", "int32", "int64"]),
)
def test_dynamic_scalar_index_and_slice(backend: str, n: int, i: int, j: int, dtype: str) -> None:
    """Positions held in 0-d arrays: ``x[i]`` is checked, ``x[i:j]`` clips."""
    x = np.arange(n, dtype=np.float64) - 1.0
    ii, jj = np.array(i, dtype=dtype), np.array(j, dtype=dtype)
    _agree(lambda: lnp.asarray(x)[lnp.asarray(ii)], lambda: x[ii], backend)
    _agree(lambda: lnp.asarray(x)[lnp.asarray(ii) : lnp.asarray(jj)], lambda: x[ii:jj], backend)


@pytest.mark.parametrize("backend", BACKENDS)
@FUZZ
@given(case=array_and_indices())
def test_set_at_runtime_indices(backend: str, case: tuple[np.ndarray, np.ndarray, int]) -> None:
    """Writes through a runtime index array are checked too."""
    x, idx, axis = case
    key = (slice(None),) * axis + (idx,)

    def theirs() -> np.ndarray:
        y = x.copy()
        y[key] = -7.0
        return y

    def ours() -> Any:
        y = lnp.asarray(x.copy())
        y[(slice(None),) * axis + (lnp.asarray(idx),)] = -7.0
        return y

    _agree(ours, theirs, backend)

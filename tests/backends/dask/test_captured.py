"""A dask array bound while the dask backend was current, captured by a
function compiled for another backend, reaches that backend gathered into
numpy (``_distributed.captured_value``), as a dask array given to it is."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("dask")
pytest.importorskip("numba")

import dask.array as da

import lazygraph
import lazygraph.numpy as lnp
from lazygraph import config
from lazygraph.numpy._distributed import captured_value

DATA = np.array([1.5, -0.0, np.nan, 4.0, -2.0, 7.0])


def test_a_captured_dask_value_is_gathered_for_the_python_backend():
    with config.change(backend="dask"):
        c = lnp.asarray(da.from_array(DATA, chunks=4))
    assert isinstance(captured_value(c._var, "dask"), da.Array)
    gathered = captured_value(c._var, "python")
    assert type(gathered) is np.ndarray
    np.testing.assert_array_equal(gathered, DATA)
    with config.change(backend="python"), warnings.catch_warnings():
        # (numpy functions given a dask array warn that dask does not implement them)
        warnings.simplefilter("error", FutureWarning)
        f = lazygraph.jit(lambda x: x * c + 1.0)
        got = f(np.full(6, 2.0))
        assert type(got) is np.ndarray
        np.testing.assert_array_equal(got, DATA * 2.0 + 1.0)


def test_on_the_dask_backend_a_captured_dask_value_stays_one():
    with config.change(backend="dask"):
        c = lnp.asarray(da.from_array(DATA, chunks=4))
        f = lazygraph.jit(lambda x: lnp.sum(x * c))
        np.testing.assert_allclose(f(np.ones(6)), np.sum(DATA))  # NaN: equal
    assert isinstance(captured_value(c._var, "dask"), da.Array)


def test_a_function_traced_on_dask_is_traced_again_after_a_backend_switch():
    """The same jit function called under another backend runs there (its
    traces are kept per backend), and back on dask reuses its first trace."""
    f = lazygraph.jit(lambda x: lnp.sum(lnp.sin(x) * 2.0))
    data = np.linspace(-1.0, 1.0, 7)
    with config.change(backend="dask"):
        np.testing.assert_allclose(f(data), np.sum(np.sin(data) * 2.0), rtol=1e-14)
        assert f.trace_count == 1
        on_dask = f._latest
    with config.change(backend="python"):
        np.testing.assert_allclose(f(data), np.sum(np.sin(data) * 2.0), rtol=1e-14)
        assert f.trace_count == 2
        assert f._latest is not on_dask
    with config.change(backend="dask"):
        f(data)
        assert f.trace_count == 2 and f._latest is on_dask

"""lazygraph.numpy.fft against numpy.fft through the namespace: every function
on hypothesis-drawn inputs (numpy data, lazy arrays, Python lists), numpy's
positional signatures, dtype/shape of the lazy result before computing, the
array API's keyword forms, numpy dispatch (``numpy.fft.fft(lazy)`` stays lazy),
and gradients through ``lazygraph.grad``. The transforms themselves are tested
op by op in tests/tensor/test_fft.py."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.numpy import fft as lfft
from tests.tensor.harness import arrays, assert_numpy_equal

ONE_AXIS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
N_DIM = ("fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2")
REAL_ONLY = ("rfft", "ihfft", "rfftn", "rfft2")


def _same(got: Any, expected: np.ndarray) -> None:
    assert isinstance(got, lnp.Array)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    single = expected.dtype in (np.float32, np.complex64)
    assert_numpy_equal(
        got.compute(), expected, rtol=1e-4 if single else 1e-10, atol=1e-3 if single else 1e-9
    )


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ONE_AXIS + N_DIM), st.data())
def test_functions_match_numpy(name: str, data: st.DataObject) -> None:
    dtypes = (
        ("float32", "float64", "int32")
        if name in REAL_ONLY
        else ("float32", "float64", "complex64", "complex128")
    )
    dtype = data.draw(st.sampled_from(dtypes))
    nd = 1 if name in ONE_AXIS else 2
    shape = data.draw(st.lists(st.integers(2, 5), min_size=nd, max_size=3).map(tuple))
    x = data.draw(arrays(dtype, shape, finite=True, min_value=-10, max_value=10))
    norm = data.draw(st.sampled_from([None, "backward", "ortho", "forward"]))
    form = data.draw(st.sampled_from(["numpy", "lazy", "list"]))
    arg: Any = {"numpy": x, "lazy": lnp.asarray(x) * 1, "list": x.tolist()}[form]
    if form == "list":
        x = np.asarray(x.tolist())
    if name in ONE_AXIS:
        n = data.draw(st.sampled_from([None, 3, 6]))
        axis = data.draw(st.integers(-len(shape), len(shape) - 1))
        # numpy's positional order: (a, n, axis, norm)
        _same(getattr(lfft, name)(arg, n, axis, norm), getattr(np.fft, name)(x, n, axis, norm))
    else:
        s = data.draw(st.sampled_from([None, (3, 4), (2, 6)]))
        kw: dict[str, Any] = {"s": s, "norm": norm}
        if s is not None and name.endswith("n"):
            kw["axes"] = (-2, -1)
        _same(getattr(lfft, name)(arg, **kw), getattr(np.fft, name)(x, **kw))


def test_array_api_keywords_and_helpers() -> None:
    x = np.random.default_rng(0).normal(size=(4, 6))
    _same(lfft.fft(x, n=8, axis=0, norm="ortho"), np.fft.fft(x, n=8, axis=0, norm="ortho"))
    _same(lfft.rfftn(x, s=(4, 4), axes=(0, 1)), np.fft.rfftn(x, s=(4, 4), axes=(0, 1)))
    for n in (1, 4, 7):
        for d in (1.0, 0.5):
            _same(lfft.fftfreq(n, d), np.fft.fftfreq(n, d))
            _same(lfft.rfftfreq(n, d=d), np.fft.rfftfreq(n, d))
    assert lfft.fftfreq(4, dtype=np.float32).dtype == np.float32
    _same(lfft.fftshift(x), np.fft.fftshift(x))
    _same(lfft.ifftshift(x, axes=1), np.fft.ifftshift(x, axes=1))
    _same(lfft.fftshift(lnp.asarray(x), axes=(0,)), np.fft.fftshift(x, axes=(0,)))


def test_dtype_and_shape_known_before_computing() -> None:
    x = lnp.asarray(np.zeros((3, 8), dtype=np.float32))
    y = lfft.rfft(x)
    assert y.dtype == np.complex64 and y.shape == (3, 5)
    z = lfft.irfft(y, n=9)
    assert z.dtype == np.float32 and z.shape == (3, 9)


def test_numpy_dispatch_stays_lazy() -> None:
    x = lnp.asarray(np.arange(8.0))
    y = np.fft.fft(x)
    assert isinstance(y, lnp.Array)
    np.testing.assert_allclose(y.compute(), np.fft.fft(np.arange(8.0)))


def test_errors() -> None:
    with pytest.raises(ValueError, match="norm"):
        lfft.fft(np.ones(4), norm="none")
    with pytest.raises(ValueError):
        lfft.fftfreq(4, device="gpu")
    with pytest.raises(TypeError):
        lfft.rfft(np.ones(4, dtype=complex))


def test_namespace() -> None:
    assert lnp.fft is lfft
    for name in (
        "fft",
        "ifft",
        "fftn",
        "ifftn",
        "rfft",
        "irfft",
        "rfftn",
        "irfftn",
        "hfft",
        "ihfft",
        "fftfreq",
        "rfftfreq",
        "fftshift",
        "ifftshift",
    ):
        assert name in lfft.__all__ and callable(getattr(lfft, name))


def test_grad_through_the_namespace() -> None:
    """``irfft(rfft(x))`` with orthonormal scaling is ``x``, so the gradient of
    ``sum(y * y)`` that lazygraph.grad finds is ``2 * x``."""
    x0 = np.random.default_rng(1).normal(size=8)

    def energy(x: Any) -> Any:
        y = lfft.irfft(lfft.rfft(x, norm="ortho"), n=8, norm="ortho")
        return lnp.sum(y * y)

    g = lazygraph.grad(energy)(x0)
    np.testing.assert_allclose(np.asarray(g), 2 * x0, rtol=1e-10)


@pytest.mark.parametrize("name", ONE_AXIS + N_DIM)
def test_out_is_written_and_returned(name):
    x = np.random.default_rng(7).normal(size=(3, 4))
    want = getattr(np.fft, name)(x)
    buf = np.zeros(want.shape, want.dtype)
    assert getattr(lfft, name)(x, out=buf) is buf
    np.testing.assert_allclose(buf, want, rtol=1e-12, atol=1e-12)
    lazy = lnp.zeros(want.shape, want.dtype)
    assert getattr(lfft, name)(lnp.asarray(x), out=lazy) is lazy
    np.testing.assert_allclose(lazy.compute(), want, rtol=1e-12, atol=1e-12)


def test_out_of_a_narrower_kind_is_numpys_type_error():
    with pytest.raises(TypeError, match="same_kind"):
        lfft.fft(np.ones(4), out=np.zeros(4))
    buf = np.zeros(4, np.complex128)
    assert lfft.fft(np.ones(4), 4, -1, None, buf) is buf  # out in numpy's position
    np.testing.assert_allclose(buf, np.fft.fft(np.ones(4)))

"""The numba lowering of ``Eig`` (an ``objmode`` kernel calling numpy's
``eig``): bit-equal to the python backend (numpy), batched, float32, inside a
graph with compiled loops and its gradient; numpy's ``LinAlgError`` on NaN."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.gradient import grad

pytestmark = pytest.mark.backend("numba")

NUMBA = Mode(backend="numba")
PYTHON = Mode(backend="python")
rng = np.random.default_rng(5)


def both(inputs, outputs, *values):
    got = lazygraph.function(inputs, outputs, mode=NUMBA)(*values)
    want = lazygraph.function(inputs, outputs, mode=PYTHON)(*values)
    return got, want


def test_eig_and_eigvals_match_the_python_backend() -> None:
    x = lt.tensor("float64", (None, None, None), "x")
    w, v = lt.linalg.eig(x)
    outs = [w * 2.0, v, lt.linalg.eigvals(x)]
    a = rng.normal(size=(2, 4, 4))
    got, want = both([x], outs, a)
    for g, r in zip(got, want, strict=True):
        assert g.dtype == r.dtype == np.complex128
        np.testing.assert_array_equal(g, r)
    np.testing.assert_array_equal(got[2], np.linalg.eigvals(a))


def test_float32_and_the_gradient() -> None:
    x = lt.tensor("float32", (3, 3), "x")
    w = lt.linalg.eigvals(x)
    assert w.type.dtype == "complex64"
    a = rng.normal(size=(3, 3)).astype(np.float32)
    got, want = both([x], [w, grad(lt.real(lt.sum(w**2)), x)], a)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1].dtype == np.float32
    np.testing.assert_allclose(got[1], 2 * a.T, rtol=1e-4, atol=1e-5)


def test_nan_raises_linalg_error() -> None:
    x = lt.dmatrix("x")
    f = lazygraph.function([x], lt.linalg.eigvals(x), mode=NUMBA)
    with pytest.raises(np.linalg.LinAlgError, match="Eig"):
        f(np.array([[np.nan, 0.0], [0.0, 1.0]]))

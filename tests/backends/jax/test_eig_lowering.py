"""``Eig`` on the jax backend: a host step by design (numpy's ``eig``, listed in
``HOST_BY_DESIGN``: no warning), so results are numpy's exactly, inside a
jitted graph and its gradient."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("jax")

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.jax.dispatch import HOST_BY_DESIGN
from lazygraph.compile.mode import Mode
from lazygraph.configuration import config
from lazygraph.gradient import grad

pytestmark = pytest.mark.backend("jax")

JAX = Mode(backend="jax")
rng = np.random.default_rng(6)


def test_eig_runs_on_the_host_by_design_and_matches_numpy() -> None:
    assert "eig" in HOST_BY_DESIGN
    x = lt.tensor("float64", (None, 3, 3), "x")
    w, v = lt.linalg.eig(x)
    cost = lt.real(lt.sum(lt.linalg.eigvals(x) ** 2))
    a = rng.normal(size=(2, 3, 3))
    with warnings.catch_warnings(), config.change(on_unsupported="raise"):
        warnings.simplefilter("error")
        got_w, got_v, got_g = lazygraph.function([x], [lt.exp(w), v, grad(cost, x)], mode=JAX)(a)
    want_w, want_v = np.linalg.eig(a)
    np.testing.assert_allclose(np.asarray(got_w), np.exp(want_w), rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(got_v), want_v)
    np.testing.assert_allclose(np.asarray(got_g), 2 * np.swapaxes(a, -1, -2), rtol=1e-9, atol=1e-10)

"""Linalg gradients compiled by jax equal the python backend's, real and complex:
the few graphs of tests/tensor/test_linalg_complex_grad.py's ``COMPILED_CASES``
(SVD, QR, eigh and Cholesky rules with complex inputs; det, its adjugate at a
singular matrix, slogdet's complex sign, solve, pinv, norms and powers), each
compiled once, with every node lowered or run on the host by design. Also the
differences from JAX's own rules that docs/transforms.md states."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
from tests.tensor.test_linalg_complex_grad import COMPILED_CASES, check_compiled

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.compile.mode import Mode

pytestmark = pytest.mark.backend("jax")


@pytest.mark.parametrize(
    ("name", "cost", "values"), COMPILED_CASES, ids=[c[0] for c in COMPILED_CASES]
)
def test_compiled_linalg_gradients_match_python(name: str, cost: Any, values: Any) -> None:
    check_compiled(name, cost, values, Mode(backend="jax"))


def test_jax_differs_where_docs_transforms_says() -> None:
    """docs/transforms.md, "Linear algebra": JAX's ``eigh`` and ``cholesky``
    symmetrize their input (the gradient covers both triangles, where ours
    covers the triangle read), and its ``svd`` has no gradient with
    ``full_matrices=True`` on a non-square matrix."""
    h = np.array([[2.0, 5.0], [1.0, 3.0]])
    theirs = jax.grad(lambda h: jnp.sum(jnp.linalg.eigvalsh(h) ** 2))(jnp.asarray(h))
    assert np.asarray(theirs)[0, 1] != 0
    p = jnp.array([[4.0, 1.0], [0.0, 3.0]])
    assert np.asarray(jax.grad(lambda p: jnp.sum(jnp.linalg.cholesky(p)))(p))[0, 1] != 0
    with pytest.raises(NotImplementedError, match="full matrices"):
        jax.grad(lambda a: jnp.sum(jnp.linalg.svd(a)[0]))(jnp.eye(3, 2))
    ours = lazygraph.grad(lambda h: lnp.sum(lnp.linalg.eigvalsh(h) ** 2))(h)
    np.testing.assert_allclose(ours, [[4.0, 0.0], [4.0, 6.0]])

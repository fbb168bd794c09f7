"""Linalg gradients compiled by numba equal the python backend's, real and complex:
the few graphs of tests/tensor/test_linalg_complex_grad.py's ``COMPILED_CASES``
(SVD, QR, eigh and Cholesky rules with complex inputs; det, its adjugate at a
singular matrix, slogdet's complex sign, solve, pinv, norms and powers), each
compiled once, with every node lowered or run on the host by design."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numba")

from tests.tensor.test_linalg_complex_grad import COMPILED_CASES, check_compiled

from lazygraph.compile.mode import Mode

pytestmark = pytest.mark.backend("numba")


@pytest.mark.parametrize(
    ("name", "cost", "values"), COMPILED_CASES, ids=[c[0] for c in COMPILED_CASES]
)
def test_compiled_linalg_gradients_match_python(name: str, cost: Any, values: Any) -> None:
    check_compiled(name, cost, values, Mode(backend="numba"))

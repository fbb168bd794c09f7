"""Complex gradients compiled by numba equal the python backend's: the few
graphs of tests/tensor/test_complex_grad.py's ``COMPILED_CASES``, which hold
every node the complex rules build (``real``/``imag``/``conj``, casts between
real and complex, ``abs`` and ``sign`` of complex, complex constants, the FFT
transposes, complex reductions and products), each compiled once, with every
node lowered (no fallback)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numba")

from tests.tensor.test_complex_grad import COMPILED_CASES, check_compiled_case

from lazygraph.compile.mode import Mode

pytestmark = pytest.mark.backend("numba")


@pytest.mark.parametrize(
    ("name", "build", "values"), COMPILED_CASES, ids=[c[0] for c in COMPILED_CASES]
)
def test_compiled_complex_gradients_match_python(name: str, build: Any, values: Any) -> None:
    check_compiled_case(name, build, values, Mode(backend="numba"))

"""Gradients of ``lazygraph.numpy.fft`` through the namespace (issue 20), first
and second order, on the shapes and arguments autograd's fft tests use
(``n=`` larger and smaller, ``s=``/``axes=``, ``norm=``, a selection of the
output, the shifts). tests/tensor/test_complex_grad.py checks every transform
and norm at the tensor level; these check the namespace functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazygraph.numpy as lnp
from tests.gradients.cases import combos, custom, points
from tests.gradients.checks import check_grads, leaves

R, C = points(2)

HALF = np.fft.rfft(R(4, 4))  # a Hermitian half-spectrum (irfft's usual input)
HALF3 = np.fft.rfftn(R(4, 4, 4) / 10)

CASES = combos("fft.fft", [R(5, 5), R(5, 5) + 0.5j * R(5, 5)], norm=[None, "ortho"], axis=[-1, 0])
CASES += combos("fft.fft", [R(5, 5)], [3, 7])
CASES += combos("fft.ifft", [R(5, 5) + 1j * R(5, 5)], [3, 7])
CASES += combos("fft.rfft", [R(4, 4)], [2, 6], norm=[None, "forward"])
CASES += combos("fft.irfft", [HALF], [2, 6, None], norm=[None, "ortho"])
CASES += combos("fft.fft2", [R(5, 5) / 10]) + combos("fft.ifft2", [R(5, 5)])
CASES += combos("fft.rfft2", [R(4, 4) / 10]) + combos("fft.irfft2", [np.fft.rfft2(R(4, 4))])
CASES += combos("fft.fftn", [R(5, 5, 5) / 10], s=[(7, 3)], axes=[(0, 2)])
CASES += combos("fft.ifftn", [R(5, 5, 5) / 10], s=[(7, 3)], axes=[(0, 2)])
CASES += combos("fft.rfftn", [R(4, 4, 4) / 10, R(5, 5, 5) / 10], axes=[None, (0, 2)])
CASES += combos("fft.irfftn", [HALF3], axes=[None, (0, 2)])
CASES += combos("fft.irfftn", [HALF3], s=[(6, 2)], axes=[(0, 2)])
CASES += combos("fft.hfft", [HALF[0]]) + combos("fft.ihfft", [R(6)])
CASES += combos("fft.fftshift", [R(5, 5), R(4, 4)], axes=[None, 1])
CASES += combos("fft.ifftshift", [R(5, 5), R(4, 4)], axes=[None, 1])
CASES += [
    custom("rfftn(x)[picked]", lambda x: lnp.fft.rfftn(x)[(0, 1, 0), (3, 3, 2)], R(4, 4, 4) / 10),
    custom("irfftn(z)[picked]", lambda z: lnp.fft.irfftn(z)[(0, 1, 0), (3, 3, 2)], HALF3),
    custom("|fft(x)|^2 power", lambda x: lnp.abs(lnp.fft.fft(x)) ** 2, R(6)),
    custom("irfft(rfft(x) * h)", lambda x, h: lnp.fft.irfft(lnp.fft.rfft(x) * h, 8), R(8), R(5)),
]


@pytest.mark.parametrize(("fun", "ref", "point"), CASES)
def test_fft_first_and_second_order(fun: Callable[..., Any], ref: Any, point: list[Any]) -> None:
    if ref is not None:
        for g, w in zip(leaves(fun(*point)), leaves(ref(*point)), strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
    check_grads(fun, *point)

"""The general eigen-decomposition ``Eig`` (``eig`` / ``eigvals``): values against
numpy (sorted: the order is LAPACK's), the complex dtype rule, the eigenvector
equation, gradients of symmetric functions of the eigenvalues and of
phase-invariant functions of the eigenvectors against central differences,
and ``lazygraph.numpy.linalg``'s dtype rule (numpy's when the value is known,
complex when lazy or traced)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.gradient import grad

rng = np.random.default_rng(11)


def sort_values(w: np.ndarray) -> np.ndarray:
    order = np.lexsort((np.round(w.imag, 9), np.round(w.real, 9)), axis=-1)
    return np.take_along_axis(w, order, axis=-1)


def run(expr: Any, inputs: list[Any], *values: Any) -> Any:
    return lazygraph.function(inputs, expr, mode="python")(*values)


matrices = st.integers(1, 4).flatmap(
    lambda n: hnp.arrays(np.float64, (n, n), elements=st.floats(-3, 3, width=32))
)


@settings(max_examples=30, deadline=None)
@given(matrices)
def test_values_match_numpy(a: np.ndarray) -> None:
    x = lt.dmatrix("x")
    w, v = lt.linalg.eig(x)
    got_w, got_v, got_vals = run([w, v, lt.linalg.eigvals(x)], [x], a)
    want_w, want_v = np.linalg.eig(a)
    assert got_w.dtype == got_v.dtype == got_vals.dtype == np.complex128
    # the same LAPACK call: numpy's order and vectors, then sorted to compare
    np.testing.assert_allclose(sort_values(got_w), sort_values(want_w.astype(complex)), atol=1e-9)
    np.testing.assert_allclose(sort_values(got_vals), sort_values(got_w), atol=1e-9)
    np.testing.assert_allclose(np.abs(got_v), np.abs(want_v), atol=1e-9)
    # A v = w v and unit-norm columns
    scale = 1 + np.abs(a).max()
    np.testing.assert_allclose(a @ got_v, got_v * got_w, atol=1e-8 * scale)
    np.testing.assert_allclose(np.linalg.norm(got_v, axis=0), 1.0, rtol=1e-10)


@pytest.mark.parametrize(
    ("dtype", "out"),
    [
        ("float32", "complex64"),
        ("float64", "complex128"),
        ("int64", "complex128"),
        ("complex64", "complex64"),
        ("complex128", "complex128"),
    ],
)
def test_dtypes_and_batches(dtype: str, out: str) -> None:
    a = (rng.normal(size=(2, 3, 3)) * 3).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=a.shape).astype(dtype)
    x = lt.tensor(dtype, (None, 3, 3), "x")
    w, v = lt.linalg.eig(x)
    assert w.type.dtype == v.type.dtype == out
    assert w.type.shape == (None, 3) and v.type.shape == (None, 3, 3)
    got_w, got_v = run([w, v], [x], a)
    want = np.linalg.eigvals(a)
    tol = 1e-4 if out == "complex64" else 1e-10
    np.testing.assert_allclose(
        sort_values(got_w), sort_values(want.astype(out)), rtol=tol, atol=tol
    )
    assert got_w.shape == (2, 3) and got_v.shape == (2, 3, 3)


def test_empty_and_errors() -> None:
    x = lt.dmatrix("x")
    got = run(lt.linalg.eigvals(x), [x], np.zeros((0, 0)))
    assert got.shape == (0,) and got.dtype == np.complex128
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        lt.linalg.eig(lt.tensor("float64", (2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        lt.linalg.eigvals(lt.dvector())
    with pytest.raises(np.linalg.LinAlgError):
        run(lt.linalg.eigvals(x), [x], np.array([[np.nan, 0.0], [0.0, 1.0]]))


# -- gradients ------------------------------------------------------------------------


def numeric_grad(f: Any, a: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """Central differences, with JAX's convention for complex ``a``: df/dx - i df/dy."""
    g = np.zeros_like(a)
    steps = [1.0] if a.dtype.kind == "f" else [1.0, 1j]
    for i in np.ndindex(a.shape):
        for step in steps:
            up, down = a.copy(), a.copy()
            up[i] += eps * step
            down[i] -= eps * step
            d = (f(up) - f(down)) / (2 * eps)
            g[i] += d if step == 1.0 else -1j * d
    return g


#: symmetric functions of the eigenvalues: (lazygraph, numpy) of the eigenvalues
SYMMETRIC = {
    "sum_cubes": (lambda w: lt.real(lt.sum(w**3)), lambda w: np.real(np.sum(w**3))),
    "det": (lambda w: lt.real(lt.prod(w)), lambda w: np.real(np.prod(w))),
    "sum_exp": (lambda w: lt.real(lt.sum(lt.exp(w))), lambda w: np.real(np.sum(np.exp(w)))),
    "imag_sum_squares": (lambda w: lt.imag(lt.sum(w * w)), lambda w: np.imag(np.sum(w * w))),
}


@pytest.mark.parametrize("name", sorted(SYMMETRIC))
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_gradient_of_symmetric_functions_of_eigenvalues(name: str, dtype: str) -> None:
    f_lt, f_np = SYMMETRIC[name]
    x = lt.tensor(dtype, (3, 3), "x")
    g = grad(f_lt(lt.linalg.eigvals(x)), x)
    fn = lazygraph.function([x], g, mode="python")
    for _ in range(3):
        a = rng.normal(size=(3, 3))
        if dtype == "complex128":
            a = a + 1j * rng.normal(size=(3, 3))
        want = numeric_grad(lambda m: f_np(np.linalg.eigvals(m)), a)
        np.testing.assert_allclose(fn(a), want, rtol=1e-6, atol=1e-7)


def test_gradient_of_phase_invariant_functions_of_eigenvectors() -> None:
    # sum_k Re(w_k) sum_i c_i |V_ik|**2 + sum |V|**4: invariant under the order of
    # the eigenpairs and the phase of each eigenvector
    c = rng.normal(size=3)

    def f_np(m: np.ndarray) -> float:
        w, v = np.linalg.eig(m)
        p = np.abs(v) ** 2
        return float(np.sum(np.real(w) * (c @ p)) + np.sum(p**2))

    x = lt.dmatrix("x")
    w, v = lt.linalg.eig(x)
    p = lt.real(v * lt.conj(v))
    cost = lt.sum(lt.real(w) * lt.sum(lt.constant(c)[:, None] * p, axis=0)) + lt.sum(p * p)
    fn = lazygraph.function([x], grad(cost, x), mode="python")
    for _ in range(4):
        a = rng.normal(size=(3, 3))
        np.testing.assert_allclose(fn(a), numeric_grad(f_np, a), rtol=1e-5, atol=1e-7)


def test_batched_gradient() -> None:
    a = rng.normal(size=(2, 3, 3))
    x = lt.tensor("float64", (2, 3, 3), "x")
    g = run(grad(lt.real(lt.sum(lt.linalg.eigvals(x) ** 2)), x), [x], a)
    np.testing.assert_allclose(g, 2 * np.swapaxes(a, -1, -2), rtol=1e-9, atol=1e-10)


# -- lazygraph.numpy ------------------------------------------------------------------


@lazygraph.config.change(eager_max_elements=1000)  # (compiled CI sessions turn it off)
def test_namespace_keeps_numpys_dtype_for_known_values() -> None:
    real = np.array([[2.0, 1.0], [1.0, 3.0]])
    rotation = np.array([[0.0, -1.0], [1.0, 0.0]])
    for a in (real, rotation, real.astype(np.float32)):
        w, v = lnp.linalg.eig(a)
        want = np.linalg.eig(a)
        for got, ref in ((w, want.eigenvalues), (v, want.eigenvectors)):
            assert got.dtype == ref.dtype
            np.testing.assert_array_equal(got.compute(), ref)
        assert lnp.linalg.eigvals(a).dtype == np.linalg.eigvals(a).dtype
    assert type(lnp.linalg.eig(real)).__name__ == "EigResult"


def test_namespace_is_lazy_and_complex_when_the_value_is_not_known() -> None:
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    with lazygraph.config.change(eager_max_elements=0):
        w = lnp.linalg.eigvals(lnp.asarray(a) * 2)
        assert w.dtype == np.complex128 and w._var.owner is not None
        np.testing.assert_allclose(
            sort_values(w.compute()), sort_values(np.linalg.eigvals(2 * a) + 0j)
        )
    got = lazygraph.jit(lambda m: lnp.linalg.eig(m))(a)
    assert got.eigenvalues.dtype == np.complex128


def test_grad_through_the_namespace() -> None:
    a = rng.normal(size=(4, 4))
    # the example: the trace's gradient is the identity
    g = lazygraph.grad(lambda m: lnp.real(lnp.sum(lnp.linalg.eigvals(m))))(a)
    np.testing.assert_allclose(g, np.eye(4), atol=1e-12)
    g = lazygraph.grad(lambda m: lnp.real(lnp.prod(lnp.linalg.eig(m).eigenvalues)))(a)
    np.testing.assert_allclose(g, np.linalg.det(a) * np.linalg.inv(a).T, rtol=1e-8, atol=1e-10)

"""Gradients of the linalg ops for real and complex inputs (issue 20, linalg),
checked against finite differences with JAX's convention (docs/transforms.md,
"Complex numbers" and "Linear algebra"): ``verify_grad`` compares the gradient
of ``Re(sum(r * y))`` (a random complex ``r`` for a complex ``y``) with central
differences along the real and imaginary part of every input element.

Points are well-conditioned matrices built from a drawn seed: prescribed,
well-separated singular values or eigenvalues between unitary (orthogonal)
factors, stacked over a batch axis where the op takes one. Eigen- and singular
vectors are only defined up to a phase (a sign when real), so their checks go
through functions that do not depend on it (``|v|**2``, ``v v^H``,
``U diag(s) Vh``, the rank-one terms ``u_k vh_k``). Edge cases: 1x1 matrices,
near-degenerate spectra through functions that stay smooth there, exactly
degenerate ones for the eigen- and singular values, singular matrices for
``det`` and ``slogdet``'s sign.

Everything runs on the python backend (the rules, not the lowerings);
tests/backends/*/test_linalg_complex_grad_lowering.py compare compiled gradients
with these through :data:`COMPILED_CASES`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.configuration import config
from lazygraph.gradient import NullTypeGradError, grad, verify_grad, verify_rop

L = lt.linalg
PY = Mode(backend="python")


@pytest.fixture(autouse=True)
def _python_backend() -> Iterator[None]:
    """The transforms (``lazygraph.grad``, ``jvp``) here run on the python backend
    too, whatever ``LAZYGRAPH_BACKEND`` says (the compiled ones are checked by
    tests/backends/*/test_linalg_complex_grad_lowering.py)."""
    with config.change(backend="python"):
        yield


FEW = settings(max_examples=8)
DTYPES = ("float64", "complex128")
DTYPE_PAIRS = [(a, b) for a in DTYPES for b in DTYPES]

# -- points ------------------------------------------------------------------------


def _normal(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _unitary(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Random unitary (orthogonal) matrices of ``shape`` (..., n, n)."""
    q, r = np.linalg.qr(_normal(rng, shape, dtype))
    d = np.diagonal(r, axis1=-2, axis2=-1)
    return q * (d / np.abs(d))[..., None, :]  # type: ignore[no-any-return]


def _spread(rng: np.random.Generator, batch: tuple[int, ...], k: int, lo: float) -> np.ndarray:
    """``k`` values per batch entry, descending, from ``lo`` up in steps of 0.4-0.7."""
    steps = rng.uniform(0.4, 0.7, (*batch, k))
    return lo + np.cumsum(steps, axis=-1)[..., ::-1]  # type: ignore[no-any-return]


def matrix(
    seed: int,
    shape: tuple[int, ...],
    dtype: str,
    values: np.ndarray | None = None,
) -> np.ndarray:
    """``U diag(s) Vh`` of ``shape``, singular values ``values`` (default: spread
    from 0.5 up, so distinct, non-zero and well-conditioned)."""
    rng = np.random.default_rng(seed)
    *batch, m, n = shape
    k = min(m, n)
    s = _spread(rng, tuple(batch), k, 0.5) if values is None else np.asarray(values, float)
    u = _unitary(rng, (*batch, m, m), dtype)[..., :k]
    vh = _unitary(rng, (*batch, n, n), dtype)[..., :k, :]
    return (u * s[..., None, :]) @ vh  # type: ignore[no-any-return]


def hermitian(
    seed: int,
    shape: tuple[int, ...],
    dtype: str,
    values: np.ndarray | None = None,
    lo: float = -2.0,
    junk: str | None = None,
) -> np.ndarray:
    """``V diag(w) V^H`` with eigenvalues ``values`` (default: spread from ``lo``
    up); ``junk="upper"`` (``"lower"``) overwrites that strict triangle and the
    imaginary part of the diagonal with noise, which a reader of the other
    triangle ignores (numpy, LAPACK)."""
    rng = np.random.default_rng(seed)
    *batch, n, _ = shape
    w = _spread(rng, tuple(batch), n, lo) if values is None else np.asarray(values, float)
    v = _unitary(rng, shape, dtype)
    a = (v * w[..., None, :]) @ np.conj(np.swapaxes(v, -1, -2))
    if junk is not None:
        noise = _normal(rng, shape, dtype)
        mask = np.triu(np.ones((n, n), bool), 1)
        mask = mask if junk == "upper" else mask.T
        a = np.where(mask, noise, a)
        if dtype.startswith("complex"):
            a = a + 1j * np.eye(n) * rng.standard_normal(shape)
    return a.astype(dtype)  # type: ignore[no-any-return]


def diagonalizable(seed: int, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """``P diag(w) P^-1``, ``P`` near the identity, eigenvalues ``w`` well apart
    (real for a real dtype)."""
    rng = np.random.default_rng(seed)
    *batch, n, _ = shape
    p = np.eye(n) + 0.25 * _normal(rng, shape, dtype)
    w = _spread(rng, tuple(batch), n, -1.5).astype(dtype)
    if dtype.startswith("complex"):
        w = w + 1j * rng.uniform(-1, 1, w.shape)
    return (p * w[..., None, :]) @ np.linalg.inv(p)  # type: ignore[no-any-return]


seeds = st.integers(0, 2**32 - 1)
batches = st.sampled_from([(), (2,)])
sizes = st.integers(1, 3)


def check(fn: Callable[..., Any], *point: np.ndarray) -> None:
    verify_grad(fn, list(point), n_tests=1, mode=PY)


def mH(x: Any) -> Any:
    return lt.conj(lt.matrix_transpose(x))


# -- decompositions ----------------------------------------------------------------

#: eigh: (name, function of the matrix), every one free of the eigenvectors' phases
EIGH: list[tuple[str, Callable[[Any, str], Any]]] = [
    ("values", lambda a, uplo: L.eigh(a, UPLO=uplo)[0]),
    ("eigvalsh", lambda a, uplo: L.eigvalsh(a, UPLO=uplo)),
    ("abs2-vectors", lambda a, uplo: lt.abs(L.eigh(a, UPLO=uplo)[1]) ** 2),
    (
        "projector",
        lambda a, uplo: (lambda v: v[..., :, :1] @ mH(v[..., :, :1]))(L.eigh(a, UPLO=uplo)[1]),
    ),
    (
        "values-and-vectors",
        lambda a, uplo: (lambda w, v: lt.abs(v) ** 2 * w[..., None, :])(*L.eigh(a, UPLO=uplo)),
    ),
]


@pytest.mark.parametrize(("name", "fn"), EIGH, ids=[c[0] for c in EIGH])
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("dtype", DTYPES)
@FEW
@given(seeds, batches, sizes)
def test_eigh(
    name: str, fn: Callable[[Any, str], Any], uplo: str, dtype: str, seed: int, batch: Any, n: int
) -> None:
    # noise in the triangle not read: its gradient must be 0
    a = hermitian(seed, (*batch, n, n), dtype, junk="upper" if uplo == "L" else "lower")
    check(lambda x: fn(x, uplo), a)


CHOLESKY: list[tuple[str, bool]] = [("lower", False), ("upper", True)]


@pytest.mark.parametrize(("name", "upper"), CHOLESKY, ids=[c[0] for c in CHOLESKY])
@pytest.mark.parametrize("dtype", DTYPES)
@FEW
@given(seeds, batches, sizes)
def test_cholesky(name: str, upper: bool, dtype: str, seed: int, batch: Any, n: int) -> None:
    a = hermitian(seed, (*batch, n, n), dtype, lo=0.3, junk="lower" if upper else "upper")
    check(lambda x: L.cholesky(x, upper=upper), a)


EIG: list[tuple[str, Callable[[Any], Any]]] = [
    ("eigvals", L.eigvals),
    ("eig-values", lambda a: L.eig(a)[0]),
    ("abs2-vectors", lambda a: lt.abs(L.eig(a)[1]) ** 2),
    ("sum-of-squares", lambda a: lt.sum(L.eigvals(a) ** 2, axis=-1)),
]


@pytest.mark.parametrize(("name", "fn"), EIG, ids=[c[0] for c in EIG])
@pytest.mark.parametrize("dtype", DTYPES)
@FEW
@given(seeds, batches, sizes)
def test_eig(
    name: str, fn: Callable[[Any], Any], dtype: str, seed: int, batch: Any, n: int
) -> None:
    check(fn, diagonalizable(seed, (*batch, n, n), dtype))


def _svd(a: Any, full: bool = False) -> Any:
    return L.svd(a, full_matrices=full)


SVD: list[tuple[str, Callable[[Any], Any]]] = [
    ("values", lambda a: _svd(a)[1]),
    ("svdvals", L.svdvals),
    ("abs2-u", lambda a: lt.abs(_svd(a)[0]) ** 2),
    ("abs2-vh", lambda a: lt.abs(_svd(a)[2]) ** 2),
    # the rank-one terms depend on the joint phase of u_k and vh_k only
    ("first-term", lambda a: (lambda u, s, vh: u[..., :, :1] @ vh[..., :1, :])(*_svd(a))),
    ("last-term", lambda a: (lambda u, s, vh: u[..., :, -1:] @ vh[..., -1:, :])(*_svd(a))),
    (
        "reconstruction",
        lambda a: (lambda u, s, vh: (u * lt.expand_dims(s, -2)) @ vh)(*_svd(a)),
    ),
    ("full-matrices-abs2-u", lambda a: lt.abs(_svd(a, True)[0][..., :, :1]) ** 2),
]


@pytest.mark.parametrize(("name", "fn"), SVD, ids=[c[0] for c in SVD])
@pytest.mark.parametrize("dtype", DTYPES)
@FEW
@given(seeds, batches, sizes, st.integers(1, 4))
def test_svd(
    name: str, fn: Callable[[Any], Any], dtype: str, seed: int, batch: Any, m: int, n: int
) -> None:
    check(fn, matrix(seed, (*batch, m, n), dtype))


QR: list[tuple[str, Callable[[Any], Any]]] = [
    ("q", lambda a: L.qr(a)[0]),
    ("r", lambda a: L.qr(a)[1]),
    ("mode-r", lambda a: L.qr(a, mode="r")),
    (
        "q-and-r",
        lambda a: (lambda q, r: lt.sum(q, axis=(-2, -1)) * lt.sum(r, axis=(-2, -1)))(*L.qr(a)),
    ),
]


@pytest.mark.parametrize(("name", "fn"), QR, ids=[c[0] for c in QR])
@pytest.mark.parametrize("dtype", DTYPES)
@FEW
@given(seeds, batches, sizes, st.integers(-2, 2))
def test_qr(
    name: str, fn: Callable[[Any], Any], dtype: str, seed: int, batch: Any, n: int, extra: int
) -> None:
    """Tall, square and wide (``R = [R1 R2]``) matrices."""
    check(fn, matrix(seed, (*batch, n + max(extra, 0), n - min(extra, 0)), dtype))


@pytest.mark.parametrize("shape", [(4, 2), (2, 4), (3, 3)])
def test_qr_of_unknown_sizes(shape: tuple[int, int]) -> None:
    """Sizes unknown when the gradient is built: one rule for tall and wide."""
    for dtype in DTYPES:
        verify_grad(
            lambda a: (lambda q, r: lt.abs(q) + lt.sum(r))(*L.qr(a)),
            [matrix(16, shape, dtype)],
            n_tests=1,
            mode=PY,
            static_shape=False,
        )


@pytest.mark.parametrize("dtype", DTYPES)
def test_qr_complete(dtype: str) -> None:
    """``mode="complete"``: square and wide (it is "reduced" there); tall has no
    gradient (the last ``M - N`` columns of ``Q`` are not unique)."""
    check(lambda a: L.qr(a, mode="complete")[0], matrix(3, (3, 3), dtype))
    check(lambda a: L.qr(a, mode="complete")[1], matrix(3, (2, 3), dtype))
    a = lt.tensor(dtype, (3, 2), "a")
    with pytest.raises(NullTypeGradError, match="mode='complete' and M > N"):
        grad(lt.sum(lt.abs(L.qr(a, mode="complete")[0])), a)


# -- inverses, solves, determinants ------------------------------------------------

SQUARE: list[tuple[str, Callable[[Any], Any]]] = [
    ("inv", L.inv),
    ("det", L.det),
    ("slogdet-logabsdet", lambda a: L.slogdet(a)[1]),
    ("slogdet-sign", lambda a: L.slogdet(a)[0]),
    ("slogdet-both", lambda a: (lambda s, d: s * d)(*L.slogdet(a))),
    ("pinv-square", L.pinv),
    ("matrix-power-3", lambda a: L.matrix_power(a, 3)),
    ("matrix-power-5", lambda a: L.matrix_power(a, 5)),
    ("matrix-power-minus-1", lambda a: L.matrix_power(a, -1)),
    ("matrix-power-minus-3", lambda a: L.matrix_power(a, -3)),
]


@pytest.mark.parametrize(("name", "fn"), SQUARE, ids=[c[0] for c in SQUARE])
@pytest.mark.parametrize("dtype", DTYPES)
@FEW
@given(seeds, batches, sizes)
def test_square(
    name: str, fn: Callable[[Any], Any], dtype: str, seed: int, batch: Any, n: int
) -> None:
    a = matrix(seed, (*batch, n, n), dtype)
    if name.startswith("matrix-power") and n > 1:
        a = a / 1.5  # keep the powers' entries near 1
    check(fn, a)


@pytest.mark.parametrize(("dta", "dtb"), DTYPE_PAIRS)
@FEW
@given(seeds, batches, sizes, st.booleans())
def test_solve(dta: str, dtb: str, seed: int, batch: Any, n: int, vector: bool) -> None:
    """Mixed real and complex operands: a real one gets the real part."""
    a = matrix(seed, (*batch, n, n), dta)
    b = _normal(np.random.default_rng(seed), (n,) if vector else (*batch, n, 2), dtb)
    check(L.solve, a, b)


@pytest.mark.parametrize("dtype", DTYPES)
@FEW
@given(seeds, batches, sizes, st.integers(-1, 2))
def test_pinv(dtype: str, seed: int, batch: Any, n: int, extra: int) -> None:
    """Tall, square and wide full-rank matrices."""
    check(L.pinv, matrix(seed, (*batch, n, max(n + extra, 1)), dtype))


@pytest.mark.parametrize(("dta", "dtb"), DTYPE_PAIRS)
@FEW
@given(seeds, sizes, st.integers(0, 2), st.booleans())
def test_lstsq(dta: str, dtb: str, seed: int, n: int, extra: int, vector: bool) -> None:
    a = matrix(seed, (n + extra, n), dta)
    b = _normal(np.random.default_rng(seed), (n + extra,) if vector else (n + extra, 2), dtb)
    check(lambda a, b: L.lstsq(a, b)[0], a, b)
    check(lambda a, b: L.lstsq(a, b)[3], a, b)  # the singular values
    if extra:  # numpy gives residuals for M > N only
        check(lambda a, b: L.lstsq(a, b)[1], a, b)
        check(lambda a, b: (lambda x, r, _, s: r * lt.sum(x) + s[0])(*L.lstsq(a, b)), a, b)


def test_matrix_power_zero_has_zero_gradient() -> None:
    a = lt.tensor("complex128", (2, 2), "a")
    g = grad(lt.real(lt.sum(L.matrix_power(a, 0))), a, disconnected_inputs="ignore")
    got = lazygraph.function([a], g, mode=PY)(matrix(0, (2, 2), "complex128"))
    np.testing.assert_array_equal(got, np.zeros((2, 2)))


# -- norms -------------------------------------------------------------------------

MATRIX_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]
VECTOR_ORDS = [None, 2, 1, -1, 3, 0.5, np.inf, -np.inf]


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
@FEW
@given(seeds, batches, sizes, st.integers(1, 3))
def test_matrix_norms(ord: Any, dtype: str, seed: int, batch: Any, m: int, n: int) -> None:
    # random matrices: the max/min over columns, rows and singular values have no ties
    a = matrix(seed, (*batch, m, n), dtype) + _normal(np.random.default_rng(seed), (m, n), dtype)
    check(lambda x: lnp.linalg.norm(x, ord=ord, axis=(-2, -1)).__lazygraph_variable__(), a)


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
@FEW
@given(seeds, sizes)
def test_vector_norms(ord: Any, dtype: str, seed: int, n: int) -> None:
    x = _normal(np.random.default_rng(seed), (2, n), dtype)
    x = x + np.sign(x.real) * 0.5  # away from 0, where abs has a kink
    check(lambda v: lnp.linalg.norm(v, ord=ord, axis=-1).__lazygraph_variable__(), x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_vector_norm_zero_counts_and_has_zero_gradient(dtype: str) -> None:
    """``ord=0`` counts the non-zero entries: piecewise constant, so its gradient
    is 0 (numpy's math: 0 almost everywhere), zeros in the input included."""
    x = np.array([1.5, 0.0, -2.0], dtype) * (1 + 1j if dtype == "complex128" else 1)
    g = lazygraph.grad(lambda v: lnp.linalg.norm(v, ord=0))(x)
    assert float(lnp.linalg.norm(x, ord=0)) == 2.0
    assert g.dtype == x.dtype
    np.testing.assert_array_equal(g, np.zeros(3))


# -- edge cases ----------------------------------------------------------------------

#: every op at a 1x1 matrix: [[z]] (real or complex)
ONE_BY_ONE: list[tuple[str, Callable[[Any], Any]]] = [
    ("inv", L.inv),
    ("det", L.det),
    ("slogdet", lambda a: (lambda s, d: s * d)(*L.slogdet(a))),
    ("cholesky", L.cholesky),
    ("eigh", lambda a: lt.abs(L.eigh(a)[1]) + L.eigh(a)[0]),
    ("eig", lambda a: lt.abs(L.eig(a)[1]) + L.eig(a)[0]),
    ("svd", lambda a: (lambda u, s, vh: u @ vh + s)(*L.svd(a))),
    ("qr", lambda a: (lambda q, r: q + r)(*L.qr(a))),
    ("pinv", L.pinv),
    ("norm-2", lambda a: L.matrix_norm(a, ord=2)),
    ("matrix-power", lambda a: L.matrix_power(a, -2)),
]


@pytest.mark.parametrize(("name", "fn"), ONE_BY_ONE, ids=[c[0] for c in ONE_BY_ONE])
@pytest.mark.parametrize("z", [1.7, -0.6 + 0.8j, 0.4 - 1.1j])
def test_one_by_one(name: str, fn: Callable[[Any], Any], z: complex) -> None:
    # (cholesky and eigh read only Re(z): the imaginary part's gradient is 0)
    if name == "cholesky" and z.real < 0:
        z = -z.real + 1j * z.imag
    check(fn, np.array([[z]]))


def test_eigh_near_degenerate_cluster_projector() -> None:
    """Eigenvalues 1 and 1 + 1e-5: each eigenvector moves wildly, the projector
    onto both is smooth, and its gradient (where the 1/gap terms cancel) is right."""
    for dtype in DTYPES:
        a = hermitian(4, (3, 3), dtype, values=np.array([3.0, 1.0 + 1e-5, 1.0]))

        def cluster(x: Any) -> Any:
            v = L.eigh(x)[1][..., :, :2]  # ascending: the two near 1
            return v @ mH(v)

        check(cluster, a)
        # while one eigenvector's own gradient grows like 1 / gap
        x = lt.tensor(dtype, (3, 3), "x")
        one = grad(lt.sum(lt.abs(L.eigh(x)[1][..., :, 0]) ** 4), x)
        assert np.abs(lazygraph.function([x], one, mode=PY)(a)).max() > 1e3


def test_eigvalsh_and_svdvals_at_exactly_degenerate_values() -> None:
    """Symmetric functions of repeated eigen- and singular values are smooth:
    ``sum(w**2) = |A|_F^2``, ``sum(s) = |A|_*`` (all ``s > 0``), ``sum(s**2)`` at
    zero singular values too."""
    for dtype in DTYPES:
        a = hermitian(5, (3, 3), dtype, values=np.array([2.0, -1.0, -1.0]))
        check(lambda x: lt.sum(L.eigvalsh(x) ** 2), a)
        b = matrix(6, (3, 3), dtype, values=np.array([1.5, 1.5, 1.5]))
        check(lambda x: lt.sum(L.svdvals(x) ** 2), b)
        check(lambda x: L.matrix_norm(x, ord="nuc"), b)
        zero = matrix(15, (4, 3), dtype, values=np.array([1.5, 0.0, 0.0]))
        check(lambda x: lt.sum(L.svdvals(x) ** 2), zero)
        check(lambda x: lt.sum(L.eigvals(x), axis=-1), b)


def test_svd_near_degenerate_reconstruction() -> None:
    """Singular values 2, 1 + 1e-5, 1 (tall): ``U diag(s) Vh`` and the projector
    onto the two close left singular vectors stay smooth."""
    for dtype in DTYPES:
        a = matrix(7, (4, 3), dtype, values=np.array([2.0, 1.0 + 1e-5, 1.0]))
        check(lambda x: (lambda u, s, vh: (u * lt.expand_dims(s, -2)) @ vh)(*_svd(x)), a)
        check(lambda x: (lambda u: u[..., :, 1:] @ mH(u[..., :, 1:]))(_svd(x)[0]), a)


SINGULAR = {
    "rank-2-of-3": matrix(8, (3, 3), "complex128", values=np.array([2.0, 1.0, 0.0])),
    "rank-1-of-3": matrix(9, (3, 3), "float64", values=np.array([2.0, 0.0, 0.0])),
    "zero-3x3": np.zeros((3, 3)),
    "zero-1x1": np.zeros((1, 1), complex),
    "real-rank-1-of-2": np.array([[1.0, 2.0], [2.0, 4.0]]),
}


@pytest.mark.parametrize("name", list(SINGULAR))
def test_det_gradient_at_singular_matrices_is_the_cofactor_matrix(name: str) -> None:
    a = SINGULAR[name]
    check(L.det, a)
    check(L.det, np.stack([a, a + np.eye(len(a))]))  # a batch: singular and not
    cof = np.array(
        [
            [
                (-1) ** (i + j) * np.linalg.det(np.delete(np.delete(a, i, 0), j, 1))
                for j in range(len(a))
            ]
            for i in range(len(a))
        ]
    )
    got = lazygraph.grad(lambda x: lnp.linalg.det(x), holomorphic=True)(a.astype(complex))
    np.testing.assert_allclose(got, cof, atol=1e-12)


def test_slogdet_sign_of_a_real_matrix_has_zero_gradient_singular_included() -> None:
    a = lt.dtensor3("a")
    g = grad(lt.sum(L.slogdet(a)[0]), a)
    f = lazygraph.function([a], g, mode=PY)
    point = np.stack([SINGULAR["real-rank-1-of-2"], np.array([[0.0, 1.0], [1.0, 0.0]])])
    np.testing.assert_array_equal(f(point), np.zeros((2, 2, 2)))


def test_second_order_det_and_inv_of_complex_matrices() -> None:
    a = matrix(10, (3, 3), "complex128")
    check(lambda x: grad(lt.real(L.det(x)), x), a)
    check(lambda x: grad(lt.sum(lt.abs(L.inv(x)) ** 2), x), a)


def test_single_precision() -> None:
    a = matrix(11, (2, 3, 3), "complex64")
    h = hermitian(12, (3, 3), "complex64", lo=0.5)
    for fn, x in [
        (L.det, a),
        (L.inv, a),
        (lambda y: lt.abs(_svd(y)[0]) ** 2, a),
        (L.cholesky, h),
        (L.eigvalsh, h),
    ]:
        verify_grad(fn, [x], n_tests=1, mode=PY)


# -- forward mode -------------------------------------------------------------------

#: (name, function, point): forward mode differentiates these ops' reverse rules
#: (the double-``Lop`` identity; they have no ``R_op`` of their own)
FORWARD: list[tuple[str, Callable[[Any], Any], np.ndarray]] = [
    ("pinv", L.pinv, matrix(30, (4, 3), "complex128")),
    (
        "cholesky-upper",
        lambda a: L.cholesky(a, upper=True),
        hermitian(31, (3, 3), "complex128", lo=0.5),
    ),
    (
        "eigh",
        lambda a: lt.abs(L.eigh(a)[1]) ** 2 + L.eigh(a)[0][..., None, :],
        hermitian(32, (2, 3, 3), "complex128"),
    ),
    (
        "svd",
        lambda a: (lambda u, s, vh: u[..., :, :1] @ vh[..., :1, :])(*_svd(a)),
        matrix(33, (4, 3), "complex128"),
    ),
    (
        "qr-wide",
        lambda a: (lambda q, r: lt.sum(q) * lt.sum(r))(*L.qr(a)),
        matrix(34, (2, 4), "complex128"),
    ),
    ("slogdet", lambda a: (lambda s, d: s * d)(*L.slogdet(a)), matrix(35, (3, 3), "complex128")),
    ("det-singular", L.det, SINGULAR["rank-2-of-3"]),
]


@pytest.mark.parametrize(("name", "fn", "point"), FORWARD, ids=[c[0] for c in FORWARD])
@pytest.mark.parametrize("method", ["auto", "lop"])
def test_forward_mode(name: str, fn: Callable[[Any], Any], point: np.ndarray, method: str) -> None:
    verify_rop(fn, [point], mode=PY, method=method)


@pytest.mark.parametrize(("name", "fn", "point"), FORWARD, ids=[c[0] for c in FORWARD])
def test_jvp_transform(name: str, fn: Callable[[Any], Any], point: np.ndarray) -> None:
    """``lazygraph.jvp`` (docs/transforms.md) against central differences."""

    def f(a: Any) -> Any:
        return lnp.asarray(fn(lnp.asarray(a).__lazygraph_variable__()))

    d = _normal(np.random.default_rng(0), point.shape, "complex128")
    _, tangent = lazygraph.jvp(f, (point,), (d,))
    eps = 1e-6
    fd = (f(point + eps * d).compute() - f(point - eps * d).compute()) / (2 * eps)
    np.testing.assert_allclose(tangent, fd, rtol=1e-5, atol=1e-6)


# -- the convention itself -----------------------------------------------------------


def test_holomorphic_gradients_are_the_complex_derivative() -> None:
    """``grad(holomorphic=True)`` of ``det`` is ``det(A) A^-T`` (no conjugation),
    and the gradient of the real ``log|det A|`` is ``d/dx - i d/dy = A^-T``."""
    a = matrix(13, (3, 3), "complex128")
    want = np.linalg.det(a) * np.linalg.inv(a).T
    got = lazygraph.grad(lambda x: lnp.linalg.det(x), holomorphic=True)(a)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    got = lazygraph.grad(lambda x: lnp.linalg.slogdet(x).logabsdet)(a)
    np.testing.assert_allclose(got, np.linalg.inv(a).T, rtol=1e-12)
    # sum(eigvalsh(A)**2) = sum(Re(a_ii)**2) + 2 sum(|a_ij|**2 for i > j) (the lower
    # triangle read): its gradient is 2 Re(a_ii) on the diagonal, 4 conj(a_ij) below
    h = hermitian(14, (3, 3), "complex128", junk="upper")
    g = lazygraph.grad(lambda x: lnp.sum(lnp.linalg.eigvalsh(x) ** 2))(h)
    want = 4 * np.conj(np.tril(h, -1)) + 2 * np.diag(h.diagonal().real)
    np.testing.assert_allclose(g, want, atol=1e-12)


# -- the cases compiled by the numba and jax backends ----------------------------------


def _decompositions(a: Any, h: Any) -> Any:
    u, s, vh = _svd(a)
    q, r = L.qr(a)
    w, v = L.eigh(h)
    return (
        lt.sum(lt.real(u[..., :, :1] @ vh[..., :1, :]))
        + lt.sum(s**2)
        + lt.sum(lt.imag(q))
        + lt.sum(lt.real(r))
        + lt.sum(lt.abs(v) ** 2 * w[..., None, :])
        + lt.sum(lt.real(L.cholesky(h)))
    )


def _inverses(a: Any, b: Any) -> Any:
    sign, logdet = L.slogdet(a)
    return (
        lt.sum(lt.real(L.det(a)))
        + lt.sum(lt.imag(sign) + logdet)
        + lt.sum(lt.abs(L.solve(a, b)))
        + lt.sum(lt.abs(L.pinv(a)))
        + L.matrix_norm(a[0], ord="nuc")
        + L.matrix_norm(a[1], ord=-2)
        + lt.sum(lt.abs(L.matrix_power(a, 3)))
    )


def _singular_det(a: Any) -> Any:
    return lt.sum(lt.real(L.det(a) * (1 - 2j)))


#: (name, real cost of the input variables, input values)
COMPILED_CASES: list[tuple[str, Callable[..., Any], list[np.ndarray]]] = [
    (
        "decompositions",
        _decompositions,
        [matrix(20, (2, 4, 3), "complex128"), hermitian(21, (2, 3, 3), "complex128", lo=0.5)],
    ),
    (
        "inverses",
        _inverses,
        [
            matrix(22, (2, 3, 3), "complex128"),
            _normal(np.random.default_rng(23), (3, 2), "float64"),
        ],
    ),
    ("singular-det", _singular_det, [np.stack([SINGULAR["rank-2-of-3"], np.eye(3)])]),
]


def check_compiled(
    name: str, cost: Callable[..., Any], values: list[np.ndarray], mode: Any
) -> None:
    """The case's cost and gradients compiled with ``mode`` (every node lowered,
    or run on the host by design: ``on_unsupported="raise"``) equal the python
    backend's."""
    inputs = [lt.tensor(str(v.dtype), v.shape, f"x{k}") for k, v in enumerate(values)]
    out = cost(*inputs)
    outputs = [out, *grad(out, inputs)]
    want = lazygraph.function(inputs, outputs, mode=PY)(*values)
    with config.change(on_unsupported="raise"):
        got = lazygraph.function(inputs, outputs, mode=mode)(*values)
    for g, w, o in zip(got, want, outputs, strict=True):
        assert np.asarray(g).dtype == np.asarray(w).dtype == o.dtype, name
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-9, err_msg=name)


@pytest.mark.parametrize(
    ("name", "cost", "values"), COMPILED_CASES, ids=[c[0] for c in COMPILED_CASES]
)
def test_compiled_cases_against_finite_differences(
    name: str, cost: Callable[..., Any], values: list[np.ndarray]
) -> None:
    """The reference the backends are compared with is itself right."""
    check(cost, *values)

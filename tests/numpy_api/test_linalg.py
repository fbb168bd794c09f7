"""lazygraph.numpy.linalg against numpy.linalg: every function on hypothesis-drawn
well-conditioned, batched (and empty) matrices of real, complex and integer
dtypes, compared by value, dtype and shape; named-tuple results; every norm
order and axis form of ``norm``; numpy's errors (``LinAlgError`` for 1-d or
non-square inputs when the graph is built, for singular matrices when it is
computed); and ``verify_grad`` through the namespace functions."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.gradient import verify_grad
from lazygraph.numpy import linalg as la
from tests.tensor.harness import assert_numpy_equal

DTYPES = ("int16", "float32", "float64", "complex64", "complex128")
FLOAT = ("float32", "float64")


def _tol(dtype: Any) -> float:
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def _matrix(seed: int, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind in "iu":
        x = np.round(x * 3)
    return x.astype(dtype)


@st.composite
def batch(draw: st.DrawFn) -> tuple[int, ...]:
    return tuple(draw(st.integers(0, 2)) for _ in range(draw(st.integers(0, 2))))


@st.composite
def square(draw: st.DrawFn, dtypes: tuple[str, ...] = DTYPES, min_n: int = 0) -> np.ndarray:
    """Diagonally dominant: invertible and well-conditioned."""
    dt = draw(st.sampled_from(dtypes))
    n = draw(st.integers(min_n, 4))
    x = _matrix(draw(st.integers(0, 2**32 - 1)), dt, (*draw(batch()), n, n))
    return (x + (3 * n + 1) * np.eye(n, dtype=dt)).astype(dt)


@st.composite
def hermitian(draw: st.DrawFn, dtypes: tuple[str, ...] = DTYPES) -> np.ndarray:
    """Hermitian positive definite with distinct eigenvalues."""
    dt = draw(st.sampled_from(dtypes))
    n = draw(st.integers(0, 4))
    real = "float64" if np.dtype(dt).kind in "iu" else dt
    x = _matrix(draw(st.integers(0, 2**32 - 1)), real, (*draw(batch()), n, n))
    a = x @ np.conj(np.swapaxes(x, -1, -2)) + np.diag(np.arange(1, n + 1) * 2.0 + n)
    return (np.round(a) if np.dtype(dt).kind in "iu" else a).astype(dt)


@st.composite
def rect(draw: st.DrawFn, dtypes: tuple[str, ...] = DTYPES) -> np.ndarray:
    dt = draw(st.sampled_from(dtypes))
    shape = (*draw(batch()), draw(st.integers(0, 4)), draw(st.integers(0, 4)))
    return _matrix(draw(st.integers(0, 2**32 - 1)), dt, shape)


def _same(got: Any, expected: Any, rtol: float | None = None) -> None:
    """A lazy result (an Array or a tuple of them) equals numpy's."""
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            _same(g, e, rtol)
        return
    assert isinstance(got, lnp.Array), type(got)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, f"{got.dtype} != {expected.dtype}"
    assert got.shape == expected.shape, f"{got.shape} != {expected.shape}"
    value = got.compute()
    scale = float(np.max(np.abs(expected), initial=1.0)) if expected.dtype.kind in "fc" else 0.0
    tol = _tol(expected.dtype) if rtol is None else rtol
    assert_numpy_equal(value, expected, rtol=tol, atol=tol * scale)


def _quiet(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


# -- one row per function ---------------------------------------------------------

UNARY_SQUARE = ["det", "inv", "slogdet", "matrix_transpose", "diagonal", "trace"]


@settings(max_examples=30, deadline=None)
@given(square(), st.sampled_from(UNARY_SQUARE))
def test_square_functions(x: np.ndarray, name: str) -> None:
    _same(getattr(la, name)(x), getattr(np.linalg, name)(x))


@settings(max_examples=30, deadline=None)
@given(hermitian(), st.sampled_from(["L", "U"]), st.booleans())
def test_hermitian_functions(x: np.ndarray, uplo: str, upper: bool) -> None:
    _same(la.eigh(x, UPLO=uplo), np.linalg.eigh(x, UPLO=uplo))
    _same(la.eigvalsh(x, UPLO=uplo), np.linalg.eigvalsh(x, UPLO=uplo))
    _same(la.cholesky(x, upper=upper), np.linalg.cholesky(x, upper=upper))
    assert type(la.eigh(x)).__name__ == "EighResult"
    assert la.eigh(x).eigenvalues.shape == x.shape[:-1]


@settings(max_examples=20, deadline=None)
@given(rect(), st.booleans())
def test_rectangular_functions(x: np.ndarray, full: bool) -> None:
    _same(la.svdvals(x), np.linalg.svdvals(x))
    _same(la.svd(x, compute_uv=False), np.linalg.svd(x, compute_uv=False))
    result = la.svd(x, full_matrices=full)
    assert result._fields == ("U", "S", "Vh")
    _same(tuple(result), tuple(np.linalg.svd(x, full_matrices=full)))
    for mode in ("reduced", "complete"):
        q, r = la.qr(x, mode=mode)
        _same((q, r), tuple(np.linalg.qr(x, mode=mode)))
    _same(la.qr(x, mode="r"), np.linalg.qr(x, mode="r"))
    _same(la.pinv(x), _quiet(np.linalg.pinv, x))
    if x.dtype.kind in "fc":  # numpy's own rtol=None default fails on integers
        _same(la.pinv(x, rtol=None), _quiet(np.linalg.pinv, x, rtol=None))
    _same(la.matrix_rank(x), np.linalg.matrix_rank(x))
    _same(la.matrix_rank(x, tol=0.5), np.linalg.matrix_rank(x, tol=0.5))
    _same(la.matrix_rank(x, rtol=0.1), np.linalg.matrix_rank(x, rtol=0.1))


@pytest.mark.parametrize(
    "rtol",
    [
        np.array([1e-15, 0.5, 1e-3]),  # one cutoff per matrix of a (2, 3) batch
        np.array([[0.2], [1e-12]]),  # broadcast along the last batch axis
        np.array([[1e-15, 0.5, 1e-3]]),
        [0.1, 0.9, 0.3],
    ],
)
def test_pinv_rtol_array_per_matrix(rtol: Any) -> None:
    # issue 16, item 6: Pinv did float(rtol), a TypeError for an array
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 4, 3))
    x[1, 2, :, 0] = x[1, 2, :, 1] * (1 + 1e-9)  # a tiny singular value to drop
    want = np.linalg.pinv(x, rtol=rtol)
    _same(la.pinv(x, rtol=rtol), want)
    _same(la.pinv(lnp.asarray(x), rtol=lnp.asarray(np.asarray(rtol))), want)
    _same(la.pinv(x, np.asarray(rtol)), np.linalg.pinv(x, np.asarray(rtol)))  # rcond


def test_pinv_rtol_array_that_does_not_broadcast_raises() -> None:
    x = np.ones((2, 3, 4, 4))
    for bad in (np.ones(4), np.ones((5, 2, 3))):
        with pytest.raises(ValueError):
            np.linalg.pinv(x, rtol=bad)
        with pytest.raises(ValueError, match="pinv: rtol of shape"):
            la.pinv(x, rtol=bad)


@settings(max_examples=20, deadline=None)
@given(hermitian(("float64", "complex128")))
def test_hermitian_svd_matches_numpy(x: np.ndarray) -> None:
    _same(tuple(la.svd(x, hermitian=True)), tuple(np.linalg.svd(x, hermitian=True)))
    _same(
        la.svd(x, hermitian=True, compute_uv=False),
        np.linalg.svd(x, hermitian=True, compute_uv=False),
    )
    _same(la.matrix_rank(x, tol=1.0, hermitian=True), np.linalg.matrix_rank(x, 1.0, hermitian=True))


@settings(max_examples=30, deadline=None)
@given(square(min_n=1), st.sampled_from(DTYPES), st.sampled_from(["vector", "matrix", "batch"]))
def test_solve(a: np.ndarray, bdt: str, kind: str) -> None:
    n = a.shape[-1]
    shape = {"vector": (n,), "matrix": (n, 2), "batch": (*a.shape[:-2], n, 3)}[kind]
    b = _matrix(1, bdt, shape)
    _same(la.solve(a, b), np.linalg.solve(a, b))


@settings(max_examples=25, deadline=None)
@given(square(), st.integers(-3, 5))
def test_matrix_power(x: np.ndarray, n: int) -> None:
    if n < 0 and x.dtype.kind in "iu":
        x = x.astype("float64")
    _same(la.matrix_power(x, n), np.linalg.matrix_power(x, n))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(FLOAT), st.integers(1, 5), st.integers(1, 4), st.booleans(), st.data())
def test_lstsq(dt: str, m: int, n: int, vector_b: bool, data: st.DataObject) -> None:
    a = _matrix(data.draw(st.integers(0, 1000)), dt, (m, n))
    b = _matrix(data.draw(st.integers(0, 1000)), dt, (m,) if vector_b else (m, 2))
    got = la.lstsq(a, b)
    expected = np.linalg.lstsq(a, b)
    _same(got[0], expected[0], rtol=1e-3 if dt == "float32" else 1e-8)
    assert int(got[2]) == expected[2]
    _same(got[3], expected[3])
    np.testing.assert_allclose(
        got[1].compute(), expected[1], rtol=1e-3 if dt == "float32" else 1e-8
    )


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(DTYPES), st.data())
def test_products(dt: str, data: st.DataObject) -> None:
    x = _matrix(data.draw(st.integers(0, 1000)), dt, (2, 3, 4))
    y = _matrix(data.draw(st.integers(0, 1000)), dt, (4, 3))
    v = _matrix(data.draw(st.integers(0, 1000)), dt, (4,))
    w = _matrix(data.draw(st.integers(0, 1000)), dt, (2, 3, 3))
    _same(la.matmul(x, y), np.linalg.matmul(x, y))
    _same(la.tensordot(x, y, axes=1), np.linalg.tensordot(x, y, axes=1))
    _same(la.tensordot(x, y.T, axes=2), np.linalg.tensordot(x, y.T, axes=2))
    _same(la.vecdot(x, v), np.linalg.vecdot(x, v))
    _same(la.vecdot(w, w[0], axis=-2), np.linalg.vecdot(w, w[0], axis=-2))
    _same(la.outer(v, v[:2]), np.linalg.outer(v, v[:2]))
    _same(la.cross(w, w[::-1]), np.linalg.cross(w, w[::-1]))
    _same(la.cross(w, w[0], axis=-2), np.linalg.cross(w, w[0], axis=-2))
    _same(la.trace(x, offset=1), np.linalg.trace(x, offset=1))
    _same(la.diagonal(x, offset=-1), np.linalg.diagonal(x, offset=-1))


def test_multi_dot_orders() -> None:
    rng = np.random.default_rng(0)
    a, b, c, d = (
        rng.normal(size=(10, 3)),
        rng.normal(size=(3, 8)),
        rng.normal(size=(8, 2)),
        rng.normal(size=(2,)),
    )
    _same(la.multi_dot([a, b, c]), np.linalg.multi_dot([a, b, c]))
    _same(la.multi_dot([a[0], b, c, d]), np.linalg.multi_dot([a[0], b, c, d]))
    _same(la.multi_dot([a, b]), np.linalg.multi_dot([a, b]))
    with pytest.raises(ValueError):
        la.multi_dot([a])


def test_tensorsolve_and_tensorinv() -> None:
    rng = np.random.default_rng(1)
    a = (rng.normal(size=(6, 6)) + 6 * np.eye(6)).reshape(2, 3, 6)
    b = rng.normal(size=(2, 3))
    _same(la.tensorsolve(a, b), np.linalg.tensorsolve(a, b))
    a2 = (rng.normal(size=(6, 6)) + 6 * np.eye(6)).reshape(6, 2, 3)
    b2 = rng.normal(size=6)
    _same(la.tensorsolve(a2, b2), np.linalg.tensorsolve(a2, b2))
    _same(la.tensorsolve(a2, b, axes=(0,)), np.linalg.tensorsolve(a2, b, axes=(0,)))
    _same(la.tensorinv(a2, ind=1), np.linalg.tensorinv(a2, ind=1))
    _same(la.tensorinv(a.reshape(2, 3, 2, 3)), np.linalg.tensorinv(a.reshape(2, 3, 2, 3)))


# -- norms --------------------------------------------------------------------------

VECTOR_ORDS = (None, 1, 2, 3, 0.5, -1, -2, 0, np.inf, -np.inf)
MATRIX_ORDS = (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(DTYPES),
    st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
    st.data(),
)
def test_norm_every_order_and_axis(dt: str, shape: tuple[int, ...], data: st.DataObject) -> None:
    x = _matrix(data.draw(st.integers(0, 1000)), dt, shape)
    keepdims = data.draw(st.booleans())
    nd = len(shape)
    form = data.draw(st.sampled_from(["none", "int", "pair"] if nd >= 2 else ["none", "int"]))
    if form == "none":
        ords: tuple[Any, ...] = (None,) if nd > 2 else (VECTOR_ORDS if nd == 1 else MATRIX_ORDS)
        axis: Any = None
    elif form == "int":
        ords, axis = VECTOR_ORDS, data.draw(st.integers(-nd, nd - 1))
    else:
        ords = MATRIX_ORDS
        axis = tuple(data.draw(st.permutations(range(-nd, 0)))[:2])
    ord_ = data.draw(st.sampled_from(ords))
    expected = _quiet(np.linalg.norm, x, ord=ord_, axis=axis, keepdims=keepdims)
    _same(
        _quiet(la.norm, x, ord=ord_, axis=axis, keepdims=keepdims),
        expected,
        rtol=_tol(x.dtype) * 10,
    )


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(DTYPES), st.data())
def test_vector_and_matrix_norm(dt: str, data: st.DataObject) -> None:
    x = _matrix(data.draw(st.integers(0, 1000)), dt, (2, 3, 4))
    ord_ = data.draw(st.sampled_from(VECTOR_ORDS[1:]))
    axis = data.draw(st.sampled_from([None, 0, -1, (0, 2), (1, 2)]))
    keepdims = data.draw(st.booleans())
    _same(
        _quiet(la.vector_norm, x, axis=axis, keepdims=keepdims, ord=ord_),
        _quiet(np.linalg.vector_norm, x, axis=axis, keepdims=keepdims, ord=ord_),
        rtol=_tol(x.dtype) * 10,
    )
    mord = data.draw(st.sampled_from(MATRIX_ORDS[1:]))
    _same(
        la.matrix_norm(x, keepdims=keepdims, ord=mord),
        np.linalg.matrix_norm(x, keepdims=keepdims, ord=mord),
        rtol=_tol(x.dtype) * 10,
    )


def test_norm_special_values() -> None:
    x = np.array([[np.nan, 1.0], [np.inf, -0.0]])
    for ord_ in (None, 1, np.inf):
        _same(la.norm(x[1], ord=ord_), np.linalg.norm(x[1], ord=ord_))
    _same(la.norm(x), np.linalg.norm(x))
    _same(la.norm(np.zeros((0, 3)), axis=1), np.linalg.norm(np.zeros((0, 3)), axis=1))


def test_cond() -> None:
    x = np.array([[3.0, 1.0], [1.0, 2.0]])
    for p in (None, 2, -2, 1, -1, np.inf, "fro"):
        _same(la.cond(x, p), np.linalg.cond(x, p))


# -- errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "exc"),
    [
        (lambda: la.inv(np.ones((2, 3))), np.linalg.LinAlgError),
        (lambda: la.det(np.ones(3)), np.linalg.LinAlgError),
        (lambda: la.cholesky(np.ones((3, 2))), np.linalg.LinAlgError),
        (lambda: la.solve(np.eye(2), np.ones(3)), ValueError),
        (lambda: la.outer(np.ones((2, 2)), np.ones(2)), ValueError),
        (lambda: la.cross(np.ones(2), np.ones(2)), ValueError),
        (lambda: la.norm(np.ones((2, 2, 2)), ord=1), ValueError),
        (lambda: la.norm(np.ones(3), ord="fro", axis=0), ValueError),
        (lambda: la.norm(np.ones((2, 2)), axis=(0, 0)), ValueError),
        (lambda: la.norm(np.ones((2, 2)), axis=(0, 2)), np.exceptions.AxisError),
        (lambda: la.matrix_norm(np.ones((2, 2)), ord=3), ValueError),
        (lambda: la.qr(np.ones((2, 2)), mode="bad"), ValueError),
        (lambda: la.matrix_power(np.eye(2), 1.5), TypeError),
        (lambda: la.pinv(np.eye(2), rcond=0.1, rtol=0.1), ValueError),
        (lambda: la.eigh(np.ones((2, 2)), UPLO="X"), ValueError),
    ],
)
def test_errors_match_numpy(call: Callable[[], Any], exc: type[BaseException]) -> None:
    with pytest.raises(exc):
        call()


def test_errors_name_the_shapes() -> None:
    with pytest.raises(np.linalg.LinAlgError, match=r"inv.*\(2, 3\)"):
        la.inv(np.ones((2, 3)))
    assert la.LinAlgError is np.linalg.LinAlgError


@pytest.mark.parametrize("name", ["inv", "solve", "det", "cholesky"])
def test_singular_raises_when_computed(name: str) -> None:
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    args = (singular, np.ones(2)) if name == "solve" else (singular,)
    if name == "det":
        _same(la.det(singular), np.linalg.det(singular))
        return
    # known small operands run at once and raise at the call, as numpy does
    with pytest.raises(np.linalg.LinAlgError):
        getattr(la, name)(*args).compute()
    with lazygraph.config.change(eager_max_elements=0):
        result = getattr(la, name)(*args)  # a graph: building is fine
    with pytest.raises(np.linalg.LinAlgError):
        result.compute()


def test_eig_falls_back_to_numpy() -> None:
    x = np.array([[0.0, -1.0], [1.0, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w, v = la.eig(lnp.asarray(x) * 2)
        wv = la.eigvals(x)
    ew, ev = np.linalg.eig(x * 2)
    np.testing.assert_allclose(w.compute(), ew)
    np.testing.assert_allclose(v.compute(), ev)
    np.testing.assert_allclose(wv.compute(), np.linalg.eigvals(x))


def test_lazy_inputs_and_integer_promotion() -> None:
    a = lnp.asarray(np.array([[2, 1], [1, 3]], dtype="int32"))
    _same(la.inv(a), np.linalg.inv(np.array([[2, 1], [1, 3]])))
    _same(la.det(a + 1), np.linalg.det(np.array([[3, 2], [2, 4]])))


# -- gradients through the namespace ------------------------------------------------

RNG = np.random.default_rng(7)
SPD = (lambda m: m @ m.T + 3 * np.eye(3))(RNG.normal(size=(3, 3)))
GEN = RNG.normal(size=(3, 3)) + 3 * np.eye(3)
TALL = RNG.normal(size=(4, 3))


def _v(arr: Any) -> Any:
    return arr._var


GRAD_CASES: list[tuple[str, Callable[..., Any], list[np.ndarray]]] = [
    ("inv", lambda a: _v(la.inv(a)), [GEN]),
    ("det", lambda a: _v(la.det(a)), [GEN]),
    ("slogdet", lambda a: _v(la.slogdet(a).logabsdet), [GEN]),
    ("solve", lambda a, b: _v(la.solve(a, b)), [GEN, RNG.normal(size=3)]),
    ("cholesky", lambda a: _v(la.cholesky(a)), [SPD]),
    ("eigh", lambda a: _v(la.eigh(a).eigenvalues), [SPD]),
    ("eigvalsh", lambda a: _v(la.eigvalsh(a, UPLO="U")), [SPD]),
    ("svdvals", lambda a: _v(la.svdvals(a)), [TALL]),
    ("pinv", lambda a: _v(la.pinv(a)), [TALL]),
    ("qr", lambda a: _v(la.qr(a).R), [TALL]),
    ("lstsq", lambda a, b: _v(la.lstsq(a, b)[0]), [TALL, RNG.normal(size=4)]),
    ("norm-fro", lambda a: _v(la.norm(a)), [GEN]),
    ("norm-3", lambda a: _v(la.norm(a, ord=3, axis=0)), [GEN]),
    ("matrix_norm-nuc", lambda a: _v(la.matrix_norm(a, ord="nuc")), [TALL]),
    ("vector_norm", lambda a: _v(la.vector_norm(a, axis=1)), [GEN]),
    ("matrix_power", lambda a: _v(la.matrix_power(a, -2)), [GEN]),
    ("multi_dot", lambda a, b: _v(la.multi_dot([a, b, a])), [GEN, GEN.T]),
    ("tensordot", lambda a, b: _v(la.tensordot(a, b, axes=1)), [GEN, TALL.T]),
    ("vecdot", lambda a, b: _v(la.vecdot(a, b)), [GEN, TALL[:3]]),
    ("trace", lambda a: _v(la.trace(a, offset=1)), [GEN]),
    ("cross", lambda a, b: _v(la.cross(a, b)), [GEN, TALL[:3]]),
]


@pytest.mark.parametrize(("name", "fn", "point"), GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_verify_grad(name: str, fn: Callable[..., Any], point: list[np.ndarray]) -> None:
    verify_grad(fn, point)


COMPLEX_GRAD_CASES: list[tuple[str, Callable[..., Any]]] = [
    ("inv", lambda z: la.inv(z)),
    ("det", lambda z: la.det(z)),
    ("solve", lambda z: la.solve(z, z[0])),
    ("matmul", lambda z: la.matmul(z, z)),
    ("tensordot", lambda z: la.tensordot(z, z, axes=1)),
    ("matrix_power", lambda z: la.matrix_power(z, 3)),
]


@pytest.mark.usefixtures("perform_fallback")
@pytest.mark.parametrize(("name", "fn"), COMPLEX_GRAD_CASES, ids=[c[0] for c in COMPLEX_GRAD_CASES])
def test_verify_grad_complex(name: str, fn: Callable[..., Any]) -> None:
    """Complex inputs, split into real and imaginary parts (the cotangent
    convention of lazygraph.tensor.fft's tests: holomorphic maps transpose)."""
    from tests.tensor.test_fft import _MakeComplex, _Parts

    re, im = RNG.normal(size=(3, 3)) + 3 * np.eye(3), RNG.normal(size=(3, 3))
    verify_grad(lambda a, b: _Parts()(_v(fn(lnp.asarray(_MakeComplex()(a, b))))), [re, im])


def test_numpy_dispatch_stays_lazy() -> None:
    x = np.array([[2.0, 1.0], [1.0, 3.0]])
    lazy = lnp.asarray(x)
    for name in ("norm", "inv", "det", "cholesky", "eigvalsh", "svdvals", "pinv"):
        got = getattr(np.linalg, name)(lazy)
        assert isinstance(got, lnp.Array), name
        np.testing.assert_allclose(got.compute(), getattr(np.linalg, name)(x), rtol=1e-12)
    svd = np.linalg.svd(lazy)
    assert isinstance(svd, la.SVDResult)
    np.testing.assert_allclose(svd.S.compute(), np.linalg.svd(x).S)

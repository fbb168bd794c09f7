"""lazygraph.tensor.linalg against numpy.linalg: one table of rows run on
hypothesis-drawn, well-conditioned, batched matrices of every real and complex
dtype (integers are computed in float64, as numpy does), including 0x0 and
empty batches; then verify_grad for every differentiable op (second order for
inv, det and solve), run-time LinAlgError, and the eager errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from lazygraph.gradient import grad, verify_grad
from tests.tensor.harness import OpCase, check_case, run, variable_for

L = lt.linalg
DTYPES = ("int8", "int64", "uint8", "float32", "float64", "complex64", "complex128")
REAL = ("int16", "float32", "float64")
RNG = np.random.default_rng(3)


def _batch(draw: st.DrawFn) -> tuple[int, ...]:
    return tuple(draw(st.integers(0, 2)) for _ in range(draw(st.integers(0, 2))))


def _matrix(draw: st.DrawFn, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind in "iu":
        x = np.round(x * 3)
        if np.dtype(dtype).kind == "u":
            x = np.abs(x)
    return x.astype(dtype)


@st.composite
def square(draw: st.DrawFn, dtypes: tuple[str, ...] = DTYPES, min_n: int = 0) -> tuple:
    """Diagonally dominant (so invertible, well-conditioned) square matrices."""
    dt = draw(st.sampled_from(dtypes))
    n = draw(st.integers(min_n, 4))
    x = _matrix(draw, dt, (*_batch(draw), n, n))
    return (x + (4 * n + 1) * np.eye(n, dtype=dt),)


@st.composite
def spd(draw: st.DrawFn, dtypes: tuple[str, ...] = DTYPES) -> tuple:
    """Hermitian positive definite matrices, with distinct eigenvalues."""
    dt = draw(st.sampled_from(dtypes))
    n = draw(st.integers(0, 4))
    x = _matrix(draw, "float64" if np.dtype(dt).kind in "iu" else dt, (*_batch(draw), n, n))
    a = x @ np.conj(np.swapaxes(x, -1, -2)) + np.diag(np.arange(1, n + 1) * 2.0 + n)
    if np.dtype(dt).kind in "iu":
        a = np.round(a)
    return (a.astype(dt),)


@st.composite
def rect(draw: st.DrawFn, dtypes: tuple[str, ...] = DTYPES, tall: bool = False) -> tuple:
    dt = draw(st.sampled_from(dtypes))
    n = draw(st.integers(0, 3))
    m = draw(st.integers(n, 4)) if tall else draw(st.integers(0, 4))
    return (_matrix(draw, dt, (*_batch(draw), m, n)),)


@st.composite
def solve_inputs(draw: st.DrawFn) -> tuple:
    (a,) = draw(square())
    n = a.shape[-1]
    db = draw(st.sampled_from(DTYPES))
    kind = draw(st.sampled_from(["vector", "matrix", "batched"]))
    if kind == "vector":
        shape: tuple[int, ...] = (n,)
    elif kind == "matrix":
        shape = (n, draw(st.integers(0, 3)))
    else:
        shape = (*_batch(draw), n, draw(st.integers(0, 2)))
        if a.ndim > 2 and len(shape) > 2 and len(shape) - 2 == a.ndim - 2:
            shape = (*a.shape[:-2], *shape[-2:])  # broadcastable batch
        else:
            shape = (n, shape[-1])
    return a, _matrix(draw, db, shape)


@st.composite
def lstsq_inputs(draw: st.DrawFn) -> tuple:
    dt = draw(st.sampled_from(REAL))
    m, n = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    a = _matrix(draw, dt, (m, n))
    b_shape = (m,) if draw(st.booleans()) else (m, draw(st.integers(1, 2)))
    return a, _matrix(draw, dt, b_shape)


def case(
    name: str, build: Callable[..., Any], ref: Callable[..., Any], inputs: Any, **kw: Any
) -> OpCase:
    kw.setdefault("rtol", 1e-5)
    kw.setdefault("atol", 1e-6)
    return OpCase(name, build, ref, inputs, **kw)


def first(f: Callable[..., Any]) -> Callable[..., Any]:
    return lambda *xs: f(*xs)[0]


def second(f: Callable[..., Any]) -> Callable[..., Any]:
    return lambda *xs: f(*xs)[1]


def third(f: Callable[..., Any]) -> Callable[..., Any]:
    return lambda *xs: f(*xs)[2]


def np_qr_r(x: np.ndarray) -> np.ndarray:
    return np.linalg.qr(x, mode="r")


TABLE = [
    case("inv", L.inv, np.linalg.inv, square()),
    case("inv_unknown_sizes", L.inv, np.linalg.inv, square(), static_shape=False),
    case("solve", L.solve, np.linalg.solve, solve_inputs()),
    case("solve_unknown_sizes", L.solve, np.linalg.solve, solve_inputs(), static_shape=False),
    case("det", L.det, np.linalg.det, square()),
    case("slogdet_sign", first(L.slogdet), first(np.linalg.slogdet), square()),
    case("slogdet_logabsdet", second(L.slogdet), second(np.linalg.slogdet), square()),
    case("cholesky", L.cholesky, np.linalg.cholesky, spd()),
    case(
        "cholesky_upper",
        lambda x: L.cholesky(x, upper=True),
        lambda x: np.linalg.cholesky(x, upper=True),
        spd(),
    ),
    case("eigh_values", first(L.eigh), first(np.linalg.eigh), spd()),
    case("eigh_vectors", second(L.eigh), second(np.linalg.eigh), spd()),
    case("eigvalsh", L.eigvalsh, np.linalg.eigvalsh, spd(), static_shape=False),
    case("svd_u", first(L.svd), first(np.linalg.svd), rect()),
    case("svd_s", second(L.svd), second(np.linalg.svd), rect()),
    case(
        "svd_vh_reduced",
        lambda x: L.svd(x, full_matrices=False)[2],
        lambda x: np.linalg.svd(x, full_matrices=False)[2],
        rect(),
        static_shape=False,
    ),
    case("svdvals", L.svdvals, np.linalg.svdvals, rect()),
    case("qr_q", first(L.qr), first(np.linalg.qr), rect()),
    case("qr_r", second(L.qr), second(np.linalg.qr), rect(), static_shape=False),
    case(
        "qr_complete_q",
        lambda x: L.qr(x, mode="complete")[0],
        lambda x: np.linalg.qr(x, mode="complete")[0],
        rect(),
    ),
    case("qr_mode_r", lambda x: L.qr(x, mode="r"), np_qr_r, rect()),
    case("pinv", L.pinv, np.linalg.pinv, rect()),
    case(
        "pinv_rtol",
        lambda x: L.pinv(x, rtol=0.1),
        lambda x: np.linalg.pinv(x, rtol=0.1),
        rect(),
    ),
    case("lstsq_x", first(L.lstsq), first(np.linalg.lstsq), lstsq_inputs()),
    case("lstsq_residuals", second(L.lstsq), second(np.linalg.lstsq), lstsq_inputs()),
    case("lstsq_rank", third(L.lstsq), third(np.linalg.lstsq), lstsq_inputs()),
    case(
        "lstsq_s",
        lambda a, b: L.lstsq(a, b)[3],
        lambda a, b: np.linalg.lstsq(a, b)[3],
        lstsq_inputs(),
    ),
    case("matrix_rank", L.matrix_rank, np.linalg.matrix_rank, rect()),
    case(
        "matrix_rank_rtol",
        lambda x: L.matrix_rank(x, rtol=0.5),
        lambda x: np.linalg.matrix_rank(x, rtol=0.5),
        rect(),
    ),
]
for _p in (0, 1, 2, 3, 5, -1, -3):
    TABLE.append(
        case(
            f"matrix_power_{_p}",
            lambda x, p=_p: L.matrix_power(x, p),
            lambda x, p=_p: np.linalg.matrix_power(x, p),
            square(),
        )
    )
for _ord in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
    TABLE.append(
        case(
            f"matrix_norm_{_ord}",
            lambda x, o=_ord: L.matrix_norm(x, ord=o),
            lambda x, o=_ord: np.linalg.matrix_norm(x, ord=o),
            rect(),
        )
    )
TABLE.append(
    case(
        "matrix_norm_keepdims",
        lambda x: L.matrix_norm(x, keepdims=True),
        lambda x: np.linalg.matrix_norm(x, keepdims=True),
        rect(),
    )
)
for _ord in (2, 1, 0, 3, 0.5, np.inf, -np.inf):
    for _axis, _keep in ((None, False), (-1, True), ((0, -1), False)):
        TABLE.append(
            case(
                f"vector_norm_{_ord}_{_axis}_{_keep}",
                lambda x, o=_ord, a=_axis, k=_keep: L.vector_norm(x, axis=a, keepdims=k, ord=o),
                lambda x, o=_ord, a=_axis, k=_keep: np.linalg.vector_norm(
                    x, axis=a, keepdims=k, ord=o
                ),
                rect(),
            )
        )


@pytest.mark.parametrize("case", TABLE, ids=lambda c: c.name)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_matches_numpy(case: OpCase, data: st.DataObject) -> None:
    check_case(case, data.draw(case.inputs, label="inputs"))


# -- gradients (float64, well-conditioned points) -----------------------------------


def _spd(n: int, batch: tuple[int, ...] = ()) -> np.ndarray:
    q, _ = np.linalg.qr(RNG.standard_normal((*batch, n, n)))
    d = np.arange(1, n + 1) + RNG.uniform(0, 0.5, (*batch, n))
    return (q * d[..., None, :]) @ np.swapaxes(q, -1, -2)


def _general(*shape: int) -> np.ndarray:
    n = shape[-1]
    return RNG.standard_normal(shape) + 3 * np.eye(n)


def _abs(f: Callable[..., Any]) -> Callable[..., Any]:
    # Singular and eigen vectors have an arbitrary sign: check a sign-free function.
    return lambda *xs: lt.abs(f(*xs))


GRAD_CASES: list[tuple[str, Callable[..., Any], Callable[[], list[np.ndarray]]]] = [
    ("inv", L.inv, lambda: [_general(2, 3, 3)]),
    ("solve", L.solve, lambda: [_general(2, 3, 3), RNG.standard_normal((3, 2))]),
    ("solve_vector", L.solve, lambda: [_general(2, 3, 3), RNG.standard_normal(3)]),
    ("det", L.det, lambda: [_general(2, 3, 3)]),
    ("slogdet", lambda x: L.slogdet(x)[1], lambda: [_general(3, 3)]),
    ("cholesky", L.cholesky, lambda: [_spd(3, (2,))]),
    ("cholesky_upper", lambda x: L.cholesky(x, upper=True), lambda: [_spd(3)]),
    ("eigh_values", lambda x: L.eigh(x)[0], lambda: [_spd(3, (2,))]),
    ("eigh_vectors", _abs(lambda x: L.eigh(x)[1]), lambda: [_spd(3)]),
    ("eigh_upper", _abs(lambda x: L.eigh(x, UPLO="U")[1]), lambda: [_spd(3)]),
    ("eigvalsh", L.eigvalsh, lambda: [_spd(3)]),
    (
        "svd_u",
        _abs(lambda x: L.svd(x, full_matrices=False)[0]),
        lambda: [RNG.standard_normal((4, 3))],
    ),
    ("svd_s", lambda x: L.svd(x)[1], lambda: [RNG.standard_normal((2, 3, 4))]),
    (
        "svd_vh",
        _abs(lambda x: L.svd(x, full_matrices=False)[2]),
        lambda: [RNG.standard_normal((3, 4))],
    ),
    ("svdvals", L.svdvals, lambda: [RNG.standard_normal((4, 2))]),
    ("qr_q", lambda x: L.qr(x)[0], lambda: [RNG.standard_normal((4, 3))]),
    ("qr_r", lambda x: L.qr(x)[1], lambda: [RNG.standard_normal((2, 3, 3))]),
    ("qr_mode_r", lambda x: L.qr(x, mode="r"), lambda: [RNG.standard_normal((4, 2))]),
    ("pinv_tall", L.pinv, lambda: [RNG.standard_normal((4, 3))]),
    ("pinv_wide", L.pinv, lambda: [RNG.standard_normal((2, 4))]),
    (
        "lstsq",
        lambda a, b: L.lstsq(a, b)[0],
        lambda: [RNG.standard_normal((4, 2)), RNG.standard_normal(4)],
    ),
    ("matrix_norm_fro", L.matrix_norm, lambda: [RNG.standard_normal((2, 3, 2))]),
    (
        "matrix_norm_nuc",
        lambda x: L.matrix_norm(x, ord="nuc"),
        lambda: [RNG.standard_normal((3, 2))],
    ),
    ("vector_norm", lambda x: L.vector_norm(x, axis=0), lambda: [RNG.standard_normal((3, 2))]),
    ("vector_norm_3", lambda x: L.vector_norm(x, ord=3), lambda: [RNG.standard_normal((3, 2))]),
    ("matrix_power", lambda x: L.matrix_power(x, 5), lambda: [_general(3, 3) / 3]),
    ("matrix_power_negative", lambda x: L.matrix_power(x, -2), lambda: [_general(3, 3)]),
]


@pytest.mark.parametrize(("name", "fn", "point"), GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_verify_grad(name: str, fn: Callable[..., Any], point: Callable[[], list]) -> None:
    verify_grad(fn, point())


SECOND_ORDER = [
    ("inv", lambda x: lt.sum(lt.sin(L.inv(x))), lambda: [_general(3, 3)]),
    ("det", lambda x: L.det(x), lambda: [_general(3, 3)]),
    ("solve_a", lambda a: lt.sum(lt.sin(L.solve(a, np.arange(3.0)))), lambda: [_general(3, 3)]),
]


@pytest.mark.parametrize(("name", "cost", "point"), SECOND_ORDER, ids=[c[0] for c in SECOND_ORDER])
def test_second_order(name: str, cost: Callable[..., Any], point: Callable[[], list]) -> None:
    verify_grad(lambda x: grad(cost(x), x), point())


def test_solve_second_order_in_b() -> None:
    a = _general(3, 3)
    verify_grad(
        lambda a, b: grad(lt.sum(lt.sin(L.solve(a, b))), b), [a, RNG.standard_normal((3, 2))]
    )


# -- errors -------------------------------------------------------------------------


def test_singular_matrix_raises_linalg_error_at_run_time() -> None:
    x = lt.dmatrix("x")
    out = L.inv(x)
    with pytest.raises(np.linalg.LinAlgError):
        run([x], out, [np.zeros((2, 2))])


def test_not_positive_definite_raises_at_run_time() -> None:
    x = lt.dmatrix("x")
    with pytest.raises(np.linalg.LinAlgError):
        run([x], L.cholesky(x), [-np.eye(2)])


@pytest.mark.parametrize(
    ("build", "error"),
    [
        (lambda: L.inv(lt.tensor("float64", (2, 3))), np.linalg.LinAlgError),
        (lambda: L.det(lt.dvector()), np.linalg.LinAlgError),
        (lambda: L.cholesky(lt.tensor("float64", (4, 2, 3))), np.linalg.LinAlgError),
        (lambda: L.eigh(lt.tensor("float64", (3, 2))), np.linalg.LinAlgError),
        (lambda: L.slogdet(lt.tensor("float64", (1, 2))), np.linalg.LinAlgError),
        (lambda: L.solve(lt.tensor("float64", (3, 3)), lt.dvector(shape=(2,))), ValueError),
        (lambda: L.solve(lt.tensor("float64", (3, 3)), lt.dmatrix(shape=(2, 1))), ValueError),
        (
            lambda: L.solve(lt.tensor("float64", (2, 3, 3)), lt.tensor("float64", (4, 3, 1))),
            ValueError,
        ),
        (lambda: L.matrix_power(lt.dmatrix(), 1.5), TypeError),
        (lambda: L.matrix_power(lt.tensor("float64", (2, 3)), 2), np.linalg.LinAlgError),
        (lambda: L.svd(lt.dvector()), np.linalg.LinAlgError),
        (lambda: L.qr(lt.dmatrix(), mode="economic"), ValueError),
        (lambda: L.vector_norm(lt.dmatrix(), ord="fro"), ValueError),
        (lambda: L.matrix_norm(lt.dmatrix(), ord=3), ValueError),
        (
            lambda: L.lstsq(lt.tensor("float64", (3, 2)), lt.dvector(shape=(4,))),
            np.linalg.LinAlgError,
        ),
    ],
)
def test_eager_errors(build: Callable[[], Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        build()


def test_errors_match_numpy_types() -> None:
    """The eager error types are the ones numpy raises on the same shapes."""
    for shape in [(2, 3), (3,)]:
        x = np.ones(shape)
        with pytest.raises(np.linalg.LinAlgError):
            np.linalg.inv(x)
        with pytest.raises(np.linalg.LinAlgError):
            L.inv(variable_for(x))

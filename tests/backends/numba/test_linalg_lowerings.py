"""The Numba lowerings of the linalg, product and FFT ops against the python
backend (the reference) and numpy: ``Einsum``, ``ExtractDiag`` and
``AllocDiag`` (compiled loops) on random shapes, dtypes and subscripts with
broadcasting, empty sizes, integer wraparound, NaN and -0.0; the ``objmode``
kernels of ``numpy.linalg`` and ``numpy.fft`` (bit-equal to the python backend,
NaN inputs included); the run-time errors (``ValueError``, ``IndexError``,
``LinAlgError``) raised by both backends; fresh (non-aliasing) outputs; and a
graph mixing compiled and ``objmode`` kernels compiling to one function."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from tests.tensor.harness import arrays, assert_numpy_equal

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.numba.linker import compile_stats
from lazygraph.compile.mode import Mode
from lazygraph.configuration import config
from lazygraph.tensor.blas import AllocDiag

pytestmark = pytest.mark.backend("numba")

NUMBA = Mode(backend="numba")
PYTHON = Mode(backend="python")
L = lt.linalg


def generic(value: np.ndarray) -> Any:
    """An input of ``value``'s dtype and ndim with unknown sizes, so one kernel
    serves every size and run-time checks are exercised."""
    return lt.tensor(str(value.dtype), (None,) * value.ndim)


def both(build: Any, *values: np.ndarray) -> tuple[Any, Any]:
    """(numba result, python result) of ``build`` on shape-generic inputs; an
    exception is returned as its type."""
    xs = [generic(v) for v in values]
    out = build(*xs)
    out = out if isinstance(out, list) else [out]
    results = []
    for mode in (NUMBA, PYTHON):
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore", RuntimeWarning)  # numpy's, on NaN input
                results.append(lazygraph.function(xs, out, mode=mode)(*values))
        except Exception as exc:
            results.append(type(exc))
    return results[0], results[1]


def assert_same(got: Any, want: Any) -> None:
    """Bit-equal results (NaN where the reference has NaN), or the same error."""
    if isinstance(want, type):
        assert got is want, f"numba gave {got}, python raised {want.__name__}"
        return
    assert not isinstance(got, type), f"numba raised {got.__name__}"
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


# -- Einsum -------------------------------------------------------------------------

EINSUM = [
    ("ij,jk->ik", [("i", "j"), ("j", "k")]),
    ("...ij,...jk->...ik", [("b", "i", "j"), ("j", "k")]),
    ("ii->i", [("i", "i")]),
    ("ii->", [("i", "i")]),
    ("i,i->i", [("i",), ("i",)]),
    ("ijk->kj", [("i", "j", "k")]),
    ("i...,j->ij...", [("i", "b", "c"), ("j",)]),
    ("...i,...i->...", [("b", "i"), ("c", "b", "i")]),
    ("i,j->ij", [("i",), ("j",)]),
    (",i->i", [(), ("i",)]),
    ("iji,k->jk", [("i", "j", "i"), ("k",)]),
]
EINSUM_DTYPES = ("bool", "int8", "uint16", "int64", "float32", "float64", "complex128")


@st.composite
def einsum_inputs(draw: st.DrawFn) -> tuple[str, list[np.ndarray]]:
    subscripts, labels = draw(st.sampled_from(EINSUM))
    sizes = {c: draw(st.integers(0, 3)) for c in "ijkbc"}
    values = []
    for axes in labels:
        # now and then a broadcast label (size 1) in one operand
        shape = tuple(1 if draw(st.integers(0, 5)) == 0 else sizes[c] for c in axes)
        if len(set(axes)) < len(axes):  # a diagonal: equal sizes in the operand
            shape = tuple(sizes[c] for c in axes)
        dt = draw(st.sampled_from(EINSUM_DTYPES))
        finite = np.dtype(dt).kind in "fc"
        kw = {"min_value": -100, "max_value": 100} if finite else {}
        values.append(draw(arrays(dt, shape, **kw)))
    return subscripts, values


@settings(max_examples=30, deadline=None)
@given(einsum_inputs())
def test_einsum_matches_numpy(case: tuple[str, list[np.ndarray]]) -> None:
    subscripts, values = case
    got, want = both(lambda *xs: lt.einsum(subscripts, *xs), *values)
    if isinstance(want, type):
        assert got is want
        return
    expected = np.einsum(subscripts, *values)
    assert_numpy_equal(got[0], want[0], rtol=1e-4, atol=1e-3)
    assert_numpy_equal(got[0], expected, rtol=1e-4, atol=1e-3)


def test_einsum_integer_wraparound() -> None:
    a = np.array([100, 120, -128], dtype=np.int8)
    got, want = both(lambda x, y: lt.einsum("i,i->", x, y), a, a)
    assert_same(got, want)
    assert got[0] == np.einsum("i,i->", a, a)


@pytest.mark.parametrize(
    ("subscripts", "shapes"),
    [("i,i->i", [(3,), (2,)]), ("ij,jk->ik", [(2, 3), (4, 2)]), ("ii->i", [(3, 2)])],
)
def test_einsum_size_mismatch_raises_value_error(subscripts: str, shapes: list) -> None:
    values = [np.ones(s) for s in shapes]
    got, want = both(lambda *xs: lt.einsum(subscripts, *xs), *values)
    assert want is ValueError and got is ValueError
    with pytest.raises(ValueError):
        np.einsum(subscripts, *values)


def test_einsum_transpose_is_a_fresh_array() -> None:
    a = np.arange(6.0).reshape(2, 3)
    x = generic(a)
    out = lazygraph.function([x], lt.einsum("ij->ji", x), mode=NUMBA)(a)
    assert not np.shares_memory(out, a)
    np.testing.assert_array_equal(out, a.T)


# -- MatMul -------------------------------------------------------------------------


@st.composite
def matmul_inputs(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    n, k, m = (draw(st.integers(0, 3)) for _ in range(3))
    kb = draw(st.sampled_from([k, k, k, k + 1]))  # now and then a mismatch
    batch_a = tuple(draw(st.sampled_from([1, 2])) for _ in range(draw(st.integers(0, 2))))
    batch_b = tuple(draw(st.sampled_from([1, 2])) for _ in range(draw(st.integers(0, 1))))
    sa = (k,) if draw(st.integers(0, 3)) == 0 else (*batch_a, n, k)
    sb = (kb,) if draw(st.integers(0, 3)) == 0 else (*batch_b, kb, m)
    da, db = (draw(st.sampled_from(("bool", "int8", "float32", "complex128"))) for _ in "ab")
    return draw(_small(da, sa)), draw(_small(db, sb))


def _small(dtype: str, shape: tuple[int, ...]) -> st.SearchStrategy[np.ndarray]:
    # BLAS sums in another order than numpy's loops: keep floats away from overflow
    if np.dtype(dtype).kind in "fc":
        return arrays(dtype, shape, min_value=-100, max_value=100)
    return arrays(dtype, shape)


@settings(max_examples=30, deadline=None)
@given(matmul_inputs())
def test_matmul_matches_python(case: tuple[np.ndarray, np.ndarray]) -> None:
    got, want = both(lt.matmul, *case)
    if isinstance(want, type):
        assert got is want
        return
    assert_numpy_equal(got[0], want[0], rtol=1e-4, atol=1e-3)


# -- ExtractDiag / AllocDiag ----------------------------------------------------------


@st.composite
def diag_inputs(draw: st.DrawFn) -> tuple[np.ndarray, int, int, int]:
    nd = draw(st.integers(2, 4))
    shape = tuple(draw(st.integers(0, 4)) for _ in range(nd))
    axis1, axis2 = draw(st.permutations(range(nd)))[:2]
    offset = draw(st.integers(-4, 4))
    dt = draw(st.sampled_from(("bool", "int16", "float64", "complex64")))
    return draw(arrays(dt, shape)), offset, axis1, axis2


@settings(max_examples=25, deadline=None)
@given(diag_inputs())
def test_extract_diag_matches_numpy(case: tuple[np.ndarray, int, int, int]) -> None:
    x, offset, axis1, axis2 = case
    got, want = both(lambda v: lt.diagonal(v, offset, axis1, axis2), x)
    assert_same(got, want)
    np.testing.assert_array_equal(got[0], np.diagonal(x, offset, axis1, axis2))
    assert not np.shares_memory(got[0], x)


@settings(max_examples=20, deadline=None)
@given(diag_inputs(), st.integers(0, 1))
def test_alloc_diag_matches_python(case: tuple[np.ndarray, int, int, int], short: int) -> None:
    x, offset, axis1, axis2 = case
    g = np.diagonal(x, offset, axis1, axis2) * 2
    # a diagonal shorter than the room for it fills only its own length
    g = g[..., : max(g.shape[-1] - short, 0)]
    got, want = both(lambda gv, xv: AllocDiag(offset, axis1, axis2)(gv, xv), g, x)
    assert_same(got, want)


def test_alloc_diag_too_long_raises_index_error() -> None:
    got, want = both(lambda g, x: AllocDiag(1, 0, 1)(g, x), np.ones(3), np.zeros((3, 3)))
    assert want is IndexError and got is IndexError


# -- linalg (objmode kernels) ------------------------------------------------------


@st.composite
def matrices(draw: st.DrawFn, square: bool = True, dtypes: tuple[str, ...] = ()) -> np.ndarray:
    dt = draw(st.sampled_from(dtypes or ("int16", "float32", "float64", "complex128")))
    batch = tuple(draw(st.integers(0, 2)) for _ in range(draw(st.integers(0, 2))))
    m = draw(st.integers(0, 3))
    n = m if square else draw(st.integers(0, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = rng.uniform(-1, 1, (*batch, m, n)) + 3 * np.eye(m, n)
    if draw(st.integers(0, 5)) == 0 and x.size:
        x.flat[draw(st.integers(0, x.size - 1))] = draw(st.sampled_from([np.nan, np.inf]))
    if np.dtype(dt).kind in "iu":
        x = np.nan_to_num(np.round(x * 3), posinf=7.0)
    return x.astype(dt)


def _spd(x: np.ndarray) -> np.ndarray:
    return x @ np.conj(np.swapaxes(x, -1, -2)) + x.shape[-1] * np.eye(x.shape[-1], dtype=x.dtype)


LINALG = [
    ("inv", L.inv, True),
    ("det", L.det, True),
    ("slogdet", lambda x: list(L.slogdet(x)), True),
    ("cholesky", lambda x: L.cholesky(x), "spd"),
    ("eigh", lambda x: list(L.eigh(x, UPLO="U")), "spd"),
    ("eigvalsh", L.eigvalsh, "spd"),
    ("svd", lambda x: list(L.svd(x)), False),
    ("svdvals", L.svdvals, False),
    ("qr_complete", lambda x: list(L.qr(x, mode="complete")), False),
    ("qr_r", lambda x: L.qr(x, mode="r"), False),
    ("pinv", lambda x: L.pinv(x, rtol=None), False),
]


@pytest.mark.parametrize(("name", "build", "square"), LINALG, ids=[c[0] for c in LINALG])
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_linalg_matches_python(name: str, build: Any, square: Any, data: st.DataObject) -> None:
    x = data.draw(matrices(square=bool(square)))
    if square == "spd" and np.isfinite(x).all():
        x = _spd(x)
    got, want = both(build, x)
    assert_same(got, want)


@settings(max_examples=10, deadline=None)
@given(matrices(dtypes=("float64", "complex64")), st.booleans())
def test_solve_matches_python(a: np.ndarray, vector: bool) -> None:
    b = np.arange(a.shape[-1] * 2, dtype="float32").reshape(a.shape[-1], 2)
    got, want = both(lambda x, y: L.solve(x, y[:, 0] if vector else y), a, b)
    assert_same(got, want)


def test_lstsq_matches_python() -> None:
    rng = np.random.default_rng(0)
    for m, n in ((4, 2), (2, 4), (3, 3)):
        a, b = rng.standard_normal((m, n)), rng.standard_normal((m, 2))
        got, want = both(lambda x, y: list(L.lstsq(x, y)), a, b)
        assert_same(got, want)


@pytest.mark.parametrize(
    ("build", "value", "name"),
    [
        (L.inv, np.zeros((2, 3, 3)), "Inv"),
        (L.cholesky, -np.eye(2), "Cholesky"),
        (lambda x: L.solve(x, x), np.ones((2, 2)), "Solve"),
    ],
)
def test_linalg_error_is_numpys_and_names_the_op(build: Any, value: np.ndarray, name: str) -> None:
    x = generic(value)
    fn = lazygraph.function([x], build(x), mode=NUMBA)
    with pytest.raises(np.linalg.LinAlgError, match=name):
        fn(value)


def test_objmode_kernel_in_one_graph_function() -> None:
    x = lt.tensor("float64", (None, None))
    out = lt.exp(L.inv(x)) + lt.diagonal(x).sum()
    with config.change(numba_graph_after=0):
        before = (compile_stats.graph_functions, compile_stats.fallback_nodes)
        fn = lazygraph.function([x], out, mode=NUMBA)
        a = np.eye(3) * 2 + 0.1
        np.testing.assert_allclose(fn(a), np.exp(np.linalg.inv(a)) + np.trace(a), rtol=1e-12)
        assert compile_stats.graph_functions == before[0] + 1
        assert compile_stats.fallback_nodes == before[1]
        with pytest.raises(np.linalg.LinAlgError, match="Inv"):
            fn(np.zeros((2, 2)))


# -- FFT (objmode kernels) -------------------------------------------------------

FFTS = [
    ("fft", lambda x: lt.fft.fft(x)),
    ("ifftn", lambda x: lt.fft.ifftn(x, axes=(0, -1), norm="ortho")),
    ("rfft", lambda x: lt.fft.rfft(lt.real(x), n=5)),
    ("irfft", lambda x: lt.fft.irfft(x, n=6, norm="forward")),
    ("hfft", lambda x: lt.fft.hfft(x, n=4)),
    ("ihfft", lambda x: lt.fft.ihfft(lt.real(x))),
]


@pytest.mark.parametrize(("name", "build"), FFTS, ids=[c[0] for c in FFTS])
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_fft_matches_python(name: str, build: Any, data: st.DataObject) -> None:
    dt = data.draw(st.sampled_from(("complex64", "complex128")))
    shape = (data.draw(st.integers(1, 3)), data.draw(st.integers(1, 6)))
    x = data.draw(arrays(dt, shape))
    got, want = both(build, x)
    assert_same(got, want)


def _objmode_module(fn: Any) -> Any:
    """The generated module of the one objmode kernel in ``fn``'s graph."""
    from lazygraph.backends.numba import cache as disk
    from lazygraph.backends.numba.dispatch import kernel_module_source

    (module,) = {
        disk.load_source(kernel_module_source(node))
        for node in fn.fgraph.apply_nodes
        if "objmode" in kernel_module_source(node)
    }
    return module


OBJMODE_CASES = [(name, build) for name, build, _ in LINALG] + list(FFTS)


@pytest.mark.parametrize(("name", "build"), OBJMODE_CASES, ids=[c[0] for c in OBJMODE_CASES])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_objmode_kernels_run_interpreted_node_by_node_and_compile_in_a_graph_function(
    name: str, build: Any, dtype: str
) -> None:
    # Node by node, an objmode kernel runs its Python (what its objmode block
    # would call) and compiles nothing; a graph function compiles it. Both give
    # the python backend's results bit for bit.
    value = (np.arange(9.0).reshape(3, 3) % 4 + 3 * np.eye(3)).astype(dtype)
    if name in ("cholesky", "eigh", "eigvalsh"):
        value = _spd(value)
    x = generic(value)
    out = build(x)
    outs = [-o for o in (out if isinstance(out, list) else [out])]
    want = lazygraph.function([x], outs, mode=PYTHON)(value)
    with config.change(numba_graph_after=10**9):
        node_by_node = lazygraph.function([x], outs, mode=NUMBA)
        assert_same(node_by_node(value), want)
    module = _objmode_module(node_by_node)
    assert module.interpreted is not None
    before = compile_stats.graph_functions
    with config.change(numba_graph_after=0):
        one_function = lazygraph.function([x], outs, mode=NUMBA)
        assert_same(one_function(value), want)
    assert compile_stats.graph_functions == before + 1
    assert module.kernel.overloads, "the graph function did not compile the objmode kernel"


def test_fft_gradient_graph_matches_python() -> None:
    # the gradient of irfft(rfft(x)) runs the transposed kinds (irfft_T, rfft_T)
    from lazygraph.gradient import grad

    x = lt.tensor("float64", (None,))
    cost = lt.sum(lt.sin(lt.fft.irfft(lt.fft.rfft(x), n=7)) * np.arange(7.0))
    g = grad(cost, x)
    value = np.linspace(-1.0, 2.0, 7)
    got = lazygraph.function([x], g, mode=NUMBA)(value)
    want = lazygraph.function([x], g, mode=PYTHON)(value)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def _laid_out(value: np.ndarray, layout: str) -> np.ndarray:
    """``value`` (2-d) held C-contiguous, F-contiguous (a transpose's layout) or
    strided (every other row of a larger array)."""
    if layout == "F":
        return np.asfortranarray(value)
    if layout == "strided":
        wide = np.zeros((value.shape[0] * 2, value.shape[1]), value.dtype)
        wide[::2] = value
        return wide[::2]
    return np.ascontiguousarray(value)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["float64", "float32", "complex128"]),
    st.tuples(*[st.integers(0, 4)] * 3),
    st.sampled_from(["C", "F", "strided"]),
    st.sampled_from(["C", "F", "strided", "1-d"]),
    st.data(),
)
def test_matmul_takes_operands_in_any_layout(
    dtype: str, sizes: tuple[int, int, int], la: str, lb: str, data: Any
) -> None:
    """``X.T @ r`` and friends: a 2-d operand reaches BLAS in its own layout (an
    F-contiguous one is not copied; a strided one is); every layout gives the
    python backend's product."""
    n, k, m = sizes
    a = _laid_out(data.draw(arrays(dtype, (n, k), min_value=-9, max_value=9)), la)
    if lb == "1-d":
        b = data.draw(arrays(dtype, (k,), min_value=-9, max_value=9))
    else:
        b = _laid_out(data.draw(arrays(dtype, (k, m), min_value=-9, max_value=9)), lb)
    got, want = both(lambda x, y: lt.matmul(x, y), a, b)
    assert_numpy_equal(got[0], want[0], rtol=1e-5 if dtype == "float32" else 1e-12)
    np.testing.assert_allclose(got[0], a @ b, rtol=1e-4 if dtype == "float32" else 1e-12)

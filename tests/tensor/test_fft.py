"""lazygraph.tensor.fft against numpy.fft: every transform on hypothesis-drawn
shapes, dtypes, sizes ``n``/``s`` (padding and truncation), axes and norms, with
static and unknown input shapes; then gradients: ``verify_grad`` on real inputs,
on complex inputs (split into real and imaginary parts by two test-only ops
with the same cotangent convention), the adjoint identity
``Re(sum(w * f(dx))) == Re(sum(f^T(w) * dx))`` on complex data, ``verify_rop``,
and the eager errors."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from lazygraph.gradient import grad, verify_grad, verify_rop
from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.type import TensorType
from tests.tensor.harness import (
    OpCase,
    arrays,
    check_case,
    check_symbolic_infer_shape,
    run,
    variable_for,
)

F = lt.fft
NORMS = (None, "backward", "ortho", "forward")
REAL = ("float32", "float64", "int16", "bool")
ANY = (*REAL, "complex64", "complex128")
ONE_AXIS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
N_DIM = ("fftn", "ifftn", "rfftn", "irfftn")
TAKES_REAL = ("rfft", "ihfft", "rfftn")


def _tolerances(dtype: str, values: np.ndarray) -> tuple[float, float]:
    """Rounding of a transform scales with the input's magnitude and length, so
    near-zero outputs need an absolute tolerance."""
    single = dtype in ("float32", "complex64")
    scale = float(np.max(np.abs(values), initial=1.0)) * max(values.size, 1)
    return (1e-4 if single else 1e-10), (1e-5 if single else 1e-12) * scale


@st.composite
def one_axis_case(draw: st.DrawFn) -> tuple[str, np.ndarray, dict[str, Any]]:
    kind = draw(st.sampled_from(ONE_AXIS))
    dtype = draw(st.sampled_from(REAL if kind in TAKES_REAL else ANY))
    shape = draw(st.lists(st.integers(1, 5), min_size=1, max_size=3).map(tuple))
    x = draw(arrays(dtype, shape, finite=True, min_value=-100, max_value=100))
    kw: dict[str, Any] = {"norm": draw(st.sampled_from(NORMS))}
    kw["axis"] = draw(st.integers(-len(shape), len(shape) - 1))
    if draw(st.booleans()):
        kw["n"] = draw(st.integers(1, 8))
    elif kind in ("irfft", "hfft") and shape[kw["axis"]] == 1:
        kw["n"] = draw(st.integers(1, 3))
    return kind, x, kw


@st.composite
def n_dim_case(draw: st.DrawFn) -> tuple[str, np.ndarray, dict[str, Any]]:
    kind = draw(st.sampled_from(N_DIM))
    dtype = draw(st.sampled_from(REAL if kind in TAKES_REAL else ANY))
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple))
    x = draw(arrays(dtype, shape, finite=True, min_value=-100, max_value=100))
    kw: dict[str, Any] = {"norm": draw(st.sampled_from(NORMS))}
    nd = len(shape)
    how = draw(st.sampled_from(["none", "axes", "s", "both"]))
    axes = None
    if how in ("axes", "both"):
        axes = tuple(
            draw(st.permutations(range(-nd, 0)).map(lambda p: p[: draw(st.integers(1, nd))]))
        )
        kw["axes"] = axes
    if how in ("s", "both"):
        k = len(axes) if axes is not None else draw(st.integers(1, nd))
        kw["s"] = tuple(draw(st.integers(1, 6)) for _ in range(k))
    last = (axes[-1] if axes is not None else -1) if "s" not in kw else None
    if kind == "irfftn" and last is not None and shape[last] == 1:
        kw["s"] = tuple(2 for _ in range(len(axes) if axes is not None else nd))
    return kind, x, kw


def _check(kind: str, x: np.ndarray, kw: dict[str, Any], static: bool) -> None:
    rtol, atol = _tolerances(str(x.dtype), x)
    case = OpCase(
        kind,
        lambda v: getattr(F, kind)(v, **kw),
        lambda a: getattr(np.fft, kind)(a, **kw),
        st.nothing(),
        rtol=rtol,
        atol=atol,
        static_shape=static,
    )
    with warnings.catch_warnings():
        # s without axes: numpy 2's deprecated (still supported) form, tested on purpose.
        warnings.simplefilter("ignore", DeprecationWarning)
        check_case(case, [x])


@settings(max_examples=50, deadline=None)
@given(one_axis_case(), st.booleans())
def test_one_axis_matches_numpy(case: tuple[str, np.ndarray, dict[str, Any]], static: bool) -> None:
    kind, x, kw = case
    if not static and kind in ("irfft", "hfft") and "n" not in kw:
        kw["n"] = 2 * (x.shape[kw["axis"]] - 1) or 1
    _check(kind, x, kw, static)


@settings(max_examples=50, deadline=None)
@given(n_dim_case(), st.booleans())
def test_n_dim_matches_numpy(case: tuple[str, np.ndarray, dict[str, Any]], static: bool) -> None:
    kind, x, kw = case
    if not static and kind == "irfftn" and "s" not in kw:
        return  # the output size must be given when the input size is not static
    _check(kind, x, kw, static)


@pytest.mark.parametrize("kind", ["fft2", "ifft2", "rfft2", "irfft2"])
def test_two_dim_aliases(kind: str) -> None:
    x = np.random.default_rng(0).normal(size=(2, 3, 4))
    got = getattr(F, kind)(x, s=(3, 6)).eval()
    np.testing.assert_allclose(got, getattr(np.fft, kind)(x, s=(3, 6)), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", ONE_AXIS)
def test_non_finite_values_propagate_like_numpy(kind: str) -> None:
    x = np.array([[1.0, np.nan, 2.0, -0.0], [np.inf, 1.0, -np.inf, 0.0]])
    with np.errstate(invalid="ignore"):
        got = getattr(F, kind)(x).eval()
        expected = getattr(np.fft, kind)(x)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    finite = np.isfinite(expected)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-12)


def test_empty_batch_and_zero_d_axes() -> None:
    x = np.zeros((0, 4))
    assert F.fft(x).eval().shape == np.fft.fft(x).shape
    assert F.rfft(x).eval().shape == np.fft.rfft(x).shape
    # No axes to transform: numpy returns the input itself.
    np.testing.assert_array_equal(F.fftn(np.float64(3.0), axes=()).eval(), 3.0)


@pytest.mark.parametrize(
    ("kind", "kw"),
    [("fft", {"n": 7}), ("rfft", {"n": 3}), ("irfft", {"n": 9}), ("hfft", {"n": 4}), ("ihfft", {})],
)
def test_symbolic_infer_shape(kind: str, kw: dict[str, Any]) -> None:
    value = np.random.default_rng(1).normal(size=(2, 5))
    x = variable_for(value, static_shape=False)
    out = getattr(F, kind)(x, **kw)
    check_symbolic_infer_shape(out, x, value)


def test_static_shapes() -> None:
    x = lt.tensor("float32", (3, 8))
    assert F.rfft(x).type == TensorType("complex64", (3, 5))
    assert F.irfft(F.rfft(x)).type == TensorType("float32", (3, 8))
    assert F.fftn(x, s=(4, 2), axes=(0, 1)).type == TensorType("complex64", (4, 2))
    assert F.hfft(x, n=5, axis=0).type == TensorType("float32", (5, 8))
    assert F.ihfft(lt.tensor("int8", (6,))).type == TensorType("complex128", (4,))


# -- errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "exc"),
    [
        (lambda: F.fft(np.ones(3), norm="bad"), ValueError),
        (lambda: F.fft(np.ones(3), n=0), ValueError),
        (lambda: F.fft(np.ones((4, 0))), ValueError),
        (lambda: F.irfft(np.ones((3, 1))), ValueError),
        (lambda: F.fft(np.float64(3.0)), IndexError),
        (lambda: F.fft(np.ones(3), axis=2), np.exceptions.AxisError),
        (lambda: F.fftn(np.ones((3, 3)), s=(2, 2), axes=(0,)), ValueError),
        (lambda: F.fftn(np.ones((3, 3)), axes=(0, 2)), np.exceptions.AxisError),
        (lambda: F.rfft(np.ones(3, dtype=complex)), TypeError),
        (lambda: F.fft(np.ones(3), n=2.0), TypeError),
    ],
)
def test_errors_match_numpy(call: Callable[[], Any], exc: type[BaseException]) -> None:
    with pytest.raises(exc):
        call()


def test_s_without_axes_warns_like_numpy() -> None:
    with pytest.warns(DeprecationWarning, match="axes"):
        F.fftn(np.ones((2, 3)), s=(2, 2))


def test_error_messages_name_the_function() -> None:
    with pytest.raises(ValueError, match="fft"):
        F.fft(np.ones((4, 0)))
    with pytest.raises(TypeError, match=r"rfft.*complex128"):
        F.rfft(np.ones(3, dtype=complex))


# -- gradients ----------------------------------------------------------------------

REAL_GRAD_CASES: list[tuple[str, Callable[[Any], Any]]] = []
for _norm in ("backward", "ortho", "forward"):
    REAL_GRAD_CASES += [
        (f"irfft-even-{_norm}", lambda a, nm=_norm: F.irfft(a, n=8, norm=nm)),
        (f"irfft-odd-{_norm}", lambda a, nm=_norm: F.irfft(a, n=5, axis=0, norm=nm)),
        (f"hfft-{_norm}", lambda a, nm=_norm: F.hfft(a, n=6, norm=nm)),
        (f"hfft-odd-{_norm}", lambda a, nm=_norm: F.hfft(a, n=7, axis=0, norm=nm)),
        (f"irfftn-{_norm}", lambda a, nm=_norm: F.irfftn(a, s=(4, 5), axes=(0, 1), norm=nm)),
        (f"rfft-irfft-{_norm}", lambda a, nm=_norm: F.irfft(F.rfft(a, n=6, norm=nm), n=7)),
        (
            f"rfftn-irfftn-{_norm}",
            lambda a, nm=_norm: F.irfftn(F.rfftn(a, norm=nm), s=(2, 6), axes=(0, 1)),
        ),
        (f"ihfft-hfft-{_norm}", lambda a, nm=_norm: F.hfft(F.ihfft(a, norm=nm), n=9)),
        (
            f"fftn-irfftn-{_norm}",
            lambda a, nm=_norm: F.irfftn(F.fftn(a, s=(3, 4), axes=(0, 1), norm=nm)),
        ),
        (f"ifft-irfft-{_norm}", lambda a, nm=_norm: F.irfft(F.ifft(a, axis=0, norm=nm), n=5)),
    ]


@pytest.mark.parametrize(("name", "fn"), REAL_GRAD_CASES, ids=[c[0] for c in REAL_GRAD_CASES])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_verify_grad_real_inputs(name: str, fn: Callable[[Any], Any], dtype: str) -> None:
    x = np.random.default_rng(2).normal(size=(3, 4)).astype(dtype)
    verify_grad(fn, [x])


@pytest.mark.parametrize(
    ("name", "fn"), REAL_GRAD_CASES[:10], ids=[c[0] for c in REAL_GRAD_CASES[:10]]
)
def test_verify_rop(name: str, fn: Callable[[Any], Any]) -> None:
    verify_rop(fn, [np.random.default_rng(3).normal(size=(3, 4))])


class _MakeComplex(Op):
    """``re + 1j * im`` (test only). Cotangent convention: ``w`` stands for
    ``Re(sum(w * dz))``, so ``re`` gets ``Re(w)`` and ``im`` gets ``-Im(w)``."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, re: Any, im: Any) -> Apply:
        re, im = lt.as_tensor_variable(re), lt.as_tensor_variable(im)
        return Apply(self, [re, im], [TensorType("complex128", re.type.shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = inputs[0] + 1j * inputs[1]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], grads: Any) -> list[Any]:
        return [lt.real(grads[0]), lt.negative(lt.imag(grads[0]))]


class _Parts(Op):
    """``stack([z.real, z.imag])`` (test only); the cotangent ``(a, b)`` pulls back
    to ``a - 1j * b``."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, z: Any) -> Apply:
        z = lt.as_tensor_variable(z)
        return Apply(self, [z], [TensorType("float64", (2, *z.type.shape))()])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = np.stack([inputs[0].real, inputs[0].imag]).astype("float64")

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], grads: Any) -> list[Any]:
        (g,) = grads
        return [_MakeComplex()(g[0], lt.negative(g[1]))]


COMPLEX_GRAD_CASES: list[tuple[str, Callable[[Any], Any]]] = []
for _norm in ("backward", "ortho", "forward"):
    COMPLEX_GRAD_CASES += [
        (f"fft-{_norm}", lambda z, nm=_norm: _Parts()(F.fft(z, n=5, norm=nm))),
        (f"ifft-{_norm}", lambda z, nm=_norm: _Parts()(F.ifft(z, axis=0, norm=nm))),
        (f"fftn-{_norm}", lambda z, nm=_norm: _Parts()(F.fftn(z, s=(2, 6), axes=(0, 1), norm=nm))),
        (f"ifftn-{_norm}", lambda z, nm=_norm: _Parts()(F.ifftn(z, norm=nm))),
        (f"irfft-{_norm}", lambda z, nm=_norm: F.irfft(z, n=6, norm=nm)),
        (f"irfft-odd-{_norm}", lambda z, nm=_norm: F.irfft(z, n=7, norm=nm)),
        (f"irfftn-{_norm}", lambda z, nm=_norm: F.irfftn(z, s=(3, 5), axes=(0, 1), norm=nm)),
        (f"hfft-{_norm}", lambda z, nm=_norm: F.hfft(z, n=6, norm=nm)),
        (f"hfft-odd-{_norm}", lambda z, nm=_norm: F.hfft(z, axis=0, n=5, norm=nm)),
    ]


@pytest.mark.usefixtures("perform_fallback")
@pytest.mark.parametrize(("name", "fn"), COMPLEX_GRAD_CASES, ids=[c[0] for c in COMPLEX_GRAD_CASES])
def test_verify_grad_complex_inputs(name: str, fn: Callable[[Any], Any]) -> None:
    rng = np.random.default_rng(4)
    re, im = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    verify_grad(lambda a, b: fn(_MakeComplex()(a, b)), [re, im])


def _random_like(var: Any, rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    v = rng.normal(size=shape)
    if var.type.numpy_dtype.kind == "c":
        v = v + 1j * rng.normal(size=shape)
    return v.astype(var.type.dtype)


ADJOINT_CASES = [
    ("fft", lambda x: F.fft(x, n=6), "complex128"),
    ("ifft", lambda x: F.ifft(x, axis=0, norm="ortho"), "complex128"),
    ("fft-real", lambda x: F.fft(x, norm="forward"), "float64"),
    ("fftn", lambda x: F.fftn(x, s=(2, 3), axes=(0, 1)), "complex64"),
    ("rfftn", lambda x: F.rfftn(x, norm="ortho"), "float64"),
    ("rfft-odd", lambda x: F.rfft(x, n=5), "float32"),
    ("irfft", lambda x: F.irfft(x, n=6), "complex128"),
    ("irfftn", lambda x: F.irfftn(x, s=(3, 7), axes=(0, 1), norm="forward"), "complex128"),
    ("hfft", lambda x: F.hfft(x, n=7, norm="ortho"), "complex128"),
    ("ihfft", lambda x: F.ihfft(x), "float64"),
    # the transposes themselves (the kinds gradients are made of)
    ("rfft_T", lambda x: F.FFT("rfft_T", (1,), "ortho", 7)(x), "complex128"),
    ("ihfft_T", lambda x: F.FFT("ihfft_T", (1,), "backward", 6)(x), "complex64"),
    ("irfft_T", lambda x: F.FFT("irfft_T", (0, 1), "forward", 4)(x), "float64"),
    ("hfft_T", lambda x: F.FFT("hfft_T", (0,), "backward")(x), "float32"),
    ("fft-real_out", lambda x: F.FFT("fft", (0, 1), real_out=True)(x), "complex128"),
    ("ifft-real-in-out", lambda x: F.FFT("ifft", (1,), "ortho", real_out=True)(x), "float64"),
]


@pytest.mark.parametrize(("name", "fn", "dtype"), ADJOINT_CASES, ids=[c[0] for c in ADJOINT_CASES])
def test_adjoint_identity(name: str, fn: Callable[[Any], Any], dtype: str) -> None:
    """``<w, f(dx)> == <f^T(w), dx>`` with ``<a, b> = Re(sum(a * b))``."""
    rng = np.random.default_rng(5)
    x = lt.tensor(dtype, (3, 4), name="x")
    y = fn(x)
    w = lt.tensor(y.type.dtype, y.type.shape, name="w")
    (gx,) = grad(None, [x], known_grads={y: w})
    dx = _random_like(x, rng, (3, 4))
    wv = _random_like(w, rng, y.type.shape)
    ydx, vjp = run([x, w], [y, gx], [dx, wv])
    lhs = np.real(np.sum(wv.astype(complex) * ydx))
    rhs = np.real(np.sum(vjp.astype(complex) * dx))
    assert vjp.dtype == dx.dtype
    np.testing.assert_allclose(lhs, rhs, rtol=1e-4 if dtype in ("float32", "complex64") else 1e-10)


def test_gradients_are_single_fft_nodes() -> None:
    """The transpose of each transform is one FFT node (no pad/slice/real/weights
    around it), which is what makes gradients of every order FFTs."""
    for kind, build in [
        ("rfft_T", lambda x: F.rfft(x)),
        ("irfft_T", lambda x: F.irfft(x, n=7)),
        ("hfft_T", lambda x: F.hfft(x, n=6)),
        ("ihfft_T", lambda x: F.ihfft(x)),
        ("fft", lambda x: F.fft(x)),
    ]:
        x = lt.tensor("float64", (3, 4), name="x")
        y = build(x)
        (gx,) = grad(None, [x], known_grads={y: lt.tensor(y.type.dtype, y.type.shape)})
        assert isinstance(gx.owner.op, F.FFT) and gx.owner.op.kind == kind, gx.owner.op
        # x is real: the transpose keeps the real part of its result.
        assert gx.owner.op.real_out == (kind not in F.REAL_RESULT)


SECOND_ORDER_CASES: list[tuple[str, Callable[[Any], Any]]] = [
    ("rfft-irfft", lambda a: F.irfft(F.rfft(a, norm="ortho"), n=5)),
    ("rfftn-irfftn", lambda a: F.irfftn(F.rfftn(a), s=(3, 6), axes=(0, 1), norm="forward")),
    ("ihfft-hfft", lambda a: F.hfft(F.ihfft(a, axis=0), n=4, axis=0)),
    ("fft-irfft", lambda a: F.irfft(F.fft(a), n=6)),
    ("irfft", lambda a: F.irfft(a, n=7, norm="ortho")),
    ("hfft", lambda a: F.hfft(a, n=6)),
]


@pytest.mark.parametrize(("name", "fn"), SECOND_ORDER_CASES, ids=[c[0] for c in SECOND_ORDER_CASES])
def test_second_order_gradients(name: str, fn: Callable[[Any], Any]) -> None:
    """The gradient of ``sum(f(x) ** 3)`` is itself differentiable (grad of grad)."""
    x0 = np.random.default_rng(6).normal(size=(3, 4))

    def gradient(a: Any) -> Any:
        return grad(lt.sum(lt.power(fn(a), 3)), a)

    verify_grad(gradient, [x0])


@pytest.mark.usefixtures("perform_fallback")
def test_second_order_through_complex_input() -> None:
    rng = np.random.default_rng(8)
    re, im = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))

    def gradient(a: Any, b: Any) -> Any:
        z = _MakeComplex()(a, b)
        (gz,) = grad(None, [z], known_grads={F.irfft(z, n=6): lt.power(F.irfft(z, n=6), 2)})
        return _Parts()(gz)

    verify_grad(gradient, [re, im])


@pytest.mark.parametrize("kind", ["rfft", "ihfft"])
def test_gradient_with_unknown_input_size(kind: str) -> None:
    x0 = np.random.default_rng(9).normal(size=(3, 5))
    verify_grad(lambda a: F.irfft(getattr(F, kind)(a), n=6), [x0], static_shape=False)


def test_integer_input_has_zero_gradient() -> None:
    x = lt.tensor("int32", (4,))
    g = grad(lt.sum(F.irfft(F.rfft(x))), x)
    np.testing.assert_array_equal(g.eval({x: np.arange(4, dtype="int32")}), np.zeros(4))


# -- frequencies and shifts -------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 9), st.sampled_from([1.0, 0.1, 2]))
def test_fftfreq_matches_numpy(n: int, d: float) -> None:
    np.testing.assert_array_equal(F.fftfreq(n, d).eval(), np.fft.fftfreq(n, d))
    np.testing.assert_array_equal(F.rfftfreq(n, d).eval(), np.fft.rfftfreq(n, d))
    assert F.fftfreq(n, d, dtype="float32").eval().dtype == np.float32


@settings(max_examples=25, deadline=None)
@given(
    arrays("int16", st.lists(st.integers(0, 5), min_size=1, max_size=3).map(tuple)),
    st.booleans(),
    st.data(),
)
def test_shifts_match_numpy(x: np.ndarray, static: bool, data: st.DataObject) -> None:
    axes: Any = None
    if x.ndim and data.draw(st.booleans()):
        axes = data.draw(st.permutations(range(x.ndim)).map(lambda p: tuple(p[:2])))
        if len(axes) == 1 and data.draw(st.booleans()):
            axes = axes[0]
    v = variable_for(x, static)
    for name in ("fftshift", "ifftshift"):
        got = run([v], getattr(F, name)(v, axes=axes), [x])
        np.testing.assert_array_equal(got, getattr(np.fft, name)(x, axes=axes))

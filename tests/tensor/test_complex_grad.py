"""Gradients through complex values (issue 20, "complex"), checked against
finite differences with JAX's convention (docs/transforms.md, "Complex numbers"):
the gradient of a real cost ``C`` with respect to ``z = x + iy`` is
``dC/dx - i dC/dy``, and ``verify_grad`` checks a complex output ``y`` through
the real cost ``Re(sum(r * y))`` with a complex random ``r``, so every part of
the Jacobian (holomorphic or not) is compared.

The broad sweeps run on the python backend whatever ``LAZYGRAPH_BACKEND`` says
(they are about the rules, not the lowerings); tests/backends/*/
test_complex_grad_lowering.py compare compiled gradients with these.
"""

from __future__ import annotations

import cmath
from collections.abc import Callable
from typing import Any, ClassVar

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.gradient import GradientError, Rop, grad, numeric_grad, verify_grad, verify_rop
from lazygraph.graph.basic import Apply, Op

F = lt.fft
PY = Mode(backend="python")
FEW = settings(max_examples=15)

# -- points: complex values away from each function's cuts and singularities -------


def _part(lo: float = -2.0, hi: float = 2.0) -> st.SearchStrategy[float]:
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def complex_values(ok: Callable[[complex], bool] = lambda z: True) -> st.SearchStrategy[complex]:
    """Complex numbers with parts in [-2, 2] where ``ok`` holds (the real axis and
    the points +-0.5, +-1j included: they are drawn often, as edge points)."""
    edges = st.sampled_from([0.5 + 0j, -0.5 + 0j, 1j, -1j, 1.5 - 0.0j, 0.3 - 1.7j])
    return st.one_of(edges, st.builds(complex, _part(), _part()), _part().map(complex)).filter(ok)


def complex_arrays(
    ok: Callable[[complex], bool] = lambda z: True, dtype: str = "complex128"
) -> st.SearchStrategy[np.ndarray]:
    """0-d to 2-d arrays (empty ones included) of :func:`complex_values`."""
    shapes = hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3)
    return hnp.arrays(dtype, shapes, elements=complex_values(ok))


def away(r: float = 0.3) -> Callable[[complex], bool]:
    """Off a disc of radius ``r`` around 0 (abs, sign, angle, reciprocal)."""
    return lambda z: abs(z) > r


def off_negative_real(shift: complex = 0) -> Callable[[complex], bool]:
    """Off the cut of the principal log (of ``z + shift``) and its branch point."""
    return lambda z: abs(z + shift) > 0.3 and ((z + shift).real > 0.3 or abs(z.imag) > 0.3)


def off_real_beyond_one(z: complex) -> bool:
    """Off the cuts (-inf, -1] and [1, inf) of asin, acos, atanh."""
    return abs(z.imag) > 0.3 or abs(z.real) < 0.7


def off_imag_beyond_one(z: complex) -> bool:
    """Off the cuts of atan and asinh on the imaginary axis beyond +-1j."""
    return abs(z.real) > 0.3 or abs(z.imag) < 0.7


#: (name, function of one tensor, where its derivative is smooth)
UNARY: list[tuple[str, Callable[[Any], Any], Callable[[complex], bool]]] = [
    ("negative", lt.negative, lambda z: True),
    ("positive", lt.positive, lambda z: True),
    ("exp", lt.exp, lambda z: True),
    ("exp2", lt.exp2, lambda z: True),
    ("expm1", lt.expm1, lambda z: True),
    ("log", lt.log, off_negative_real()),
    ("log2", lt.log2, off_negative_real()),
    ("log10", lt.log10, off_negative_real()),
    ("log1p", lt.log1p, off_negative_real(1)),
    ("sqrt", lt.sqrt, off_negative_real()),
    ("square", lt.square, lambda z: True),
    ("reciprocal", lt.reciprocal, away()),
    ("sin", lt.sin, lambda z: True),
    ("cos", lt.cos, lambda z: True),
    ("tan", lt.tan, lambda z: abs(cmath.cos(z)) > 0.3),
    ("sinh", lt.sinh, lambda z: True),
    ("cosh", lt.cosh, lambda z: True),
    ("tanh", lt.tanh, lambda z: abs(cmath.cosh(z)) > 0.3),
    ("arcsin", lt.arcsin, off_real_beyond_one),
    ("arccos", lt.arccos, off_real_beyond_one),
    ("arctan", lt.arctan, off_imag_beyond_one),
    ("arcsinh", lt.arcsinh, off_imag_beyond_one),
    ("arccosh", lt.arccosh, lambda z: abs(z.imag) > 0.3 or z.real > 1.3),
    ("arctanh", lt.arctanh, off_real_beyond_one),
    ("real", lt.real, lambda z: True),
    ("imag", lt.imag, lambda z: True),
    ("conj", lt.conj, lambda z: True),
    ("abs", lt.abs, away()),
    ("sign", lt.sign, away()),
    ("angle", lambda z: lnp.angle(z).__lazygraph_variable__(), off_negative_real()),
    ("copy", lt.copy, lambda z: True),
    ("cast-complex64", lambda z: lt.cast(z, "complex64") * 1.0, lambda z: True),
    ("cast-float64", lambda z: lt.cast(z, "float64"), lambda z: True),
    ("pow-complex-exponent", lambda z: z ** (0.5 - 1.5j), off_negative_real()),
    ("complex-base-pow", lambda z: (-1.5 + 0.5j) ** z, lambda z: True),
    ("real-power", lambda z: z**3, lambda z: True),
    ("sin-times-conj", lambda z: lt.sin(z) * lt.conj(z), lambda z: True),
    ("abs-squared", lambda z: lt.abs(z) ** 2, lambda z: True),
]


@pytest.mark.parametrize(("name", "fn", "ok"), UNARY, ids=[c[0] for c in UNARY])
def test_unary_against_finite_differences(name: str, fn: Callable[[Any], Any], ok: Any) -> None:
    @FEW
    @given(complex_arrays(ok))
    def check(z: np.ndarray) -> None:
        # complex64 outputs (the cast) are compared in single precision
        tol = 1e-3 if name == "cast-complex64" else None
        verify_grad(fn, [z], n_tests=1, mode=PY, abs_tol=tol, rel_tol=tol, eps=tol)

    check()


def _real_vec(n: int = 3, ok: Callable[[float], bool] = lambda x: True) -> Any:
    return hnp.arrays("float64", (n,), elements=_part(-2.0, 2.0).filter(ok))


#: the real parts of the second operand of maximum and where: the first operands'
#: real parts keep away from them (and from 0), so that no tie is a kink
_B_REALS = (-1.55, 0.05, 1.45)


def _no_tie(x: float) -> bool:
    return all(abs(x - b) > 1e-3 for b in (*_B_REALS, 0.0))


#: (name, function of two tensors, condition on the second operand)
BINARY: list[tuple[str, Callable[[Any, Any], Any], Callable[[complex], bool]]] = [
    ("add", lambda a, b: a + b, lambda z: True),
    ("subtract", lambda a, b: a - b, lambda z: True),
    ("multiply", lambda a, b: a * b, lambda z: True),
    ("divide", lambda a, b: a / b, away()),
    ("pow", lambda a, b: lt.pow(b, a), off_negative_real()),
    ("maximum", lt.maximum, lambda z: True),
    ("where", lambda a, b: lt.where(lt.greater(lt.real(a), 0), a, b), lambda z: True),
]


@pytest.mark.parametrize(("name", "fn", "ok"), BINARY, ids=[c[0] for c in BINARY])
def test_binary_mixed_and_broadcast(name: str, fn: Callable[[Any, Any], Any], ok: Any) -> None:
    """complex with complex (broadcast from a (1,) operand) and real with complex:
    the real operand gets the real part of its cotangent."""

    b_values = complex_values(ok)
    if name in ("maximum", "where"):
        b_values = st.builds(complex, st.sampled_from(_B_REALS), _part())

    @FEW
    @given(
        hnp.arrays("complex128", (3,), elements=complex_values(lambda z: _no_tie(z.real))),
        hnp.arrays("complex128", (1,), elements=b_values),
        _real_vec(ok=_no_tie),
    )
    def check(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> None:
        verify_grad(fn, [a, b], n_tests=1, mode=PY)
        verify_grad(fn, [x, b], n_tests=1, mode=PY)

    check()


def test_real_operand_gets_a_real_gradient() -> None:
    x, z = lt.dvector("x"), lt.zvector("z")
    gx, gz = grad(lt.sum(lt.abs(x * z + 1j * x)), [x, z])
    assert gx.dtype == "float64" and gz.dtype == "complex128"
    f32 = lt.fvector("f")
    assert grad(lt.real(lt.sum(lt.exp(1j * f32))), f32).dtype == "float32"
    c64 = lt.tensor("complex64", (None,), "c")
    assert grad(lt.sum(lt.abs(c64)), c64).dtype == "complex64"


# -- the convention, pinned -------------------------------------------------------


def test_convention_values() -> None:
    z = np.array(3.0 + 4.0j)
    g = lazygraph.grad
    assert g(lambda z: lnp.abs(z) ** 2, mode=PY)(z) == 6 - 8j  # JAX's value
    assert g(lambda z: lnp.real(z), mode=PY)(z) == 1
    assert g(lambda z: lnp.imag(z), mode=PY)(z) == -1j
    assert g(lambda z: lnp.real(lnp.conj(z) * 1j), mode=PY)(z) == -1j  # Re(i conj z) = y
    np.testing.assert_allclose(g(lambda z: lnp.abs(z), mode=PY)(z), (3 - 4j) / 5)
    np.testing.assert_allclose(g(lnp.angle, mode=PY)(z), -1j / z)
    # f(x) = Re(exp(ix)) = cos(x): f' = -sin(x), f'' = -cos(x) (grad of a grad)
    x = np.array(0.7)
    d1 = g(lambda x: lnp.real(lnp.exp(1j * x)), mode=PY)
    np.testing.assert_allclose(d1(x), -np.sin(0.7))
    np.testing.assert_allclose(g(d1, mode=PY)(x), -np.cos(0.7))


@pytest.mark.parametrize(
    ("fn", "value"),
    [
        (lt.abs, 0),
        (lt.sign, 0),
        (lambda z: lt.abs(z) ** 2, 0),
        (lambda z: lt.abs(lt.exp(z)), None),  # smooth at 0: exp(x), d/dx = 1
    ],
)
@pytest.mark.parametrize("z0", [0j, complex(-0.0, -0.0), complex(0.0, -0.0)])
def test_edge_points_at_zero(fn: Callable[[Any], Any], value: Any, z0: complex) -> None:
    """abs and sign at z = 0 (every signed zero): 0, as JAX's abs and as real abs."""
    z = lt.zscalar("z")
    got = complex(grad(lt.real(fn(z)), z).eval({z: z0}))
    assert got == (1 if value is None else value)


def test_angle_at_zero_is_not_finite() -> None:
    """angle's gradient -1j / z has a pole at 0 (as atan2's at the origin)."""
    g = lazygraph.grad(lnp.angle, mode=PY)(np.array(0j))
    assert not np.isfinite(g)


def test_nan_and_inf_propagate() -> None:
    z = lt.zvector("z")
    g = grad(lt.sum(lt.abs(lt.exp(z))), z).eval(
        {z: np.array([complex(np.nan, 0), complex(1, np.nan), 1 + 1j])}
    )
    assert np.isnan(g[:2]).all() and np.isfinite(g[2])


# -- the numpy namespace: the examples of the issue, holomorphic grad ----------------

EXAMPLES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("real-sum-exp", lambda xp, x: xp.real(xp.sum(xp.exp(1j * x)))),
    ("abs-fft", lambda xp, x: xp.sum(xp.abs(xp.fft.fft(x)))),
    ("abs-x-plus-i-x2", lambda xp, x: xp.sum(xp.abs(x + 1j * x**2))),
    ("astype-complex", lambda xp, x: xp.real(xp.sum(x.astype(complex) ** 2))),
    ("angle", lambda xp, x: xp.sum(xp.angle(x + 1j))),
    ("astype-float", lambda xp, x: xp.sum(xp.exp(1j * x).astype(float) ** 3)),
    ("rfft-irfft", lambda xp, x: xp.sum(xp.fft.irfft(xp.fft.rfft(x) * (1 + 2j), n=5) ** 2)),
]


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize(("name", "fn"), EXAMPLES, ids=[c[0] for c in EXAMPLES])
def test_numpy_examples(name: str, fn: Callable[[Any, Any], Any]) -> None:
    @FEW
    @given(_real_vec(4, ok=lambda x: abs(x) > 0.1))  # abs(x + 1j x**2) has a kink at 0
    def check(x: np.ndarray) -> None:
        got = lazygraph.grad(lambda x: fn(lnp, x), mode=PY)(x)
        (want,) = numeric_grad(lambda x: fn(np, x), [x])
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)

    check()


HOLOMORPHIC: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]] = [
    (lambda z: lnp.sum(z**3), lambda z: 3 * z**2),
    (lambda z: lnp.sum(lnp.exp(z)), np.exp),
    (lambda z: lnp.sum(lnp.sin(z)), np.cos),
    (lambda z: lnp.sum(1 / z), lambda z: -1 / z**2),
    (lambda z: lnp.sum(lnp.log(z) * z), lambda z: np.log(z) + 1),
    (lambda z: lnp.prod(z), lambda z: np.prod(z) / z),
    # z0 + z0 z1 + z0 z1 z2
    (
        lambda z: lnp.sum(lnp.cumprod(z)),
        lambda z: np.array([1 + z[1] + z[1] * z[2], z[0] + z[0] * z[2], z[0] * z[1]]),
    ),
    # the DFT matrix is symmetric: d/dz sum(fft(z)**2) = fft(2 fft(z))
    (lambda z: lnp.sum(lnp.fft.fft(z) ** 2), lambda z: 2 * np.fft.fft(np.fft.fft(z))),
    (lambda z: z @ (z * 2j), lambda z: 4j * z),
]


@pytest.mark.parametrize(("fn", "deriv"), HOLOMORPHIC)
def test_holomorphic_grad_is_the_complex_derivative(fn: Any, deriv: Any) -> None:
    @FEW
    @given(hnp.arrays("complex128", (3,), elements=complex_values(off_negative_real())))
    def check(z: np.ndarray) -> None:
        got = lazygraph.grad(fn, holomorphic=True, mode=PY)(z)
        np.testing.assert_allclose(got, deriv(z), rtol=1e-9, atol=1e-9)

    check()


def test_value_and_grad_holomorphic() -> None:
    z = np.array(1.0 + 1.0j)
    value, g = lazygraph.value_and_grad(lambda z: z**3, holomorphic=True, mode=PY)(z)
    assert value == (1 + 1j) ** 3 and g == 6j
    (value, _aux), g = lazygraph.value_and_grad(
        lambda z: (lnp.exp(z), 1), holomorphic=True, has_aux=True, mode=PY
    )(z)
    np.testing.assert_allclose([value, g], [np.exp(z)] * 2)


def test_holomorphic_errors() -> None:
    z = np.array(1.0 + 1.0j)
    for transform in (lazygraph.grad, lazygraph.value_and_grad):
        with pytest.raises(TypeError, match=r"real-valued outputs.*holomorphic=True"):
            transform(lambda z: z * z)(z)
        with pytest.raises(TypeError, match="holomorphic=True requires inputs with complex"):
            transform(lambda x: x * 1j, holomorphic=True)(np.array(1.0))
        with pytest.raises(TypeError, match="holomorphic=True requires outputs with complex"):
            transform(lnp.abs, holomorphic=True)(z)
        with pytest.raises(TypeError, match="scalar-output"):
            transform(lambda z: z * 1j, holomorphic=True)(np.ones(2, complex))


# -- reductions, products, cumulative ---------------------------------------------------

MATRIX = hnp.arrays("complex128", (2, 3), elements=complex_values())
REDUCTIONS: list[tuple[str, Callable[..., Any]]] = [
    ("sum", lambda z: lt.sum(z, axis=0)),
    ("sum-complex-dtype-of-real", lambda z: lt.sum(lt.real(z), dtype="complex128") * 1j),
    ("prod", lambda z: lt.prod(z, axis=1)),
    ("prod-all", lambda z: lt.prod(z)),
    ("mean", lambda z: lt.mean(z, axis=(0, 1))),
    ("var", lambda z: lt.var(z, axis=1)),
    # (std has a kink where all values are equal: spread them)
    ("std", lambda z: lt.std(z + lt.constant(np.arange(6.0).reshape(2, 3) * (0.5 + 0.25j)))),
    ("cumsum", lambda z: lt.cumsum(z, axis=1)),
    ("cumprod", lambda z: lt.cumprod(z, axis=0)),
    ("cumprod-flat", lambda z: lt.cumprod(z)),
    ("matmul", lambda z: lt.matmul(z, lt.matrix_transpose(z) * (1 - 2j))),
    ("matmul-vector", lambda z: lt.matmul(z, lt.constant(np.array([1.0, 2j, -1.0])))),
    ("dot-real", lambda z: lt.dot(lt.constant(np.array([[1.0, 2.0]])), z)),
    ("einsum", lambda z: lt.einsum("ij,kj->ik", z, lt.exp(z))),
    ("einsum-trace", lambda z: lt.einsum("ii->", lt.matmul(z, lt.matrix_transpose(z)))),
    ("vecdot", lambda z: lt.vecdot(z, lt.sin(z))),
    ("outer", lambda z: lt.outer(z[0], z[1])),
]


@pytest.mark.parametrize(("name", "fn"), REDUCTIONS, ids=[c[0] for c in REDUCTIONS])
def test_reductions_and_products(name: str, fn: Callable[..., Any]) -> None:
    @FEW
    @given(MATRIX)
    def check(z: np.ndarray) -> None:
        verify_grad(fn, [z], n_tests=1, mode=PY)

    check()


def test_matmul_of_real_and_complex() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(size=(2, 3))
    b = rng.normal(size=(3, 2)) + 1j * rng.normal(size=(3, 2))
    verify_grad(lt.matmul, [a, b], mode=PY)
    verify_grad(lt.matmul, [b.T.copy(), a.T.copy()], mode=PY)


# -- fft: every transform, with n= (padding, truncation) and norm= ---------------------

FFT_CASES: list[tuple[str, Callable[[Any], Any], bool]] = []  # (name, fn, real input)
for _nm in ("backward", "ortho", "forward"):
    FFT_CASES += [
        (f"fft-pad-{_nm}", lambda z, nm=_nm: F.fft(z, n=6, norm=nm), False),
        (f"fft-truncate-{_nm}", lambda z, nm=_nm: F.fft(z, n=3, axis=0, norm=nm), False),
        (f"fft-real-{_nm}", lambda x, nm=_nm: F.fft(x, norm=nm), True),
        (f"ifft-{_nm}", lambda z, nm=_nm: F.ifft(z, n=5, norm=nm), False),
        (f"fft2-{_nm}", lambda z, nm=_nm: F.fft2(z, s=(2, 5), norm=nm), False),
        (f"fftn-{_nm}", lambda z, nm=_nm: F.fftn(z, norm=nm), False),
        (f"ifftn-{_nm}", lambda z, nm=_nm: F.ifftn(z, s=(4, 3), axes=(0, 1), norm=nm), False),
        (f"rfft-pad-{_nm}", lambda x, nm=_nm: F.rfft(x, n=7, norm=nm), True),
        (f"rfft-truncate-{_nm}", lambda x, nm=_nm: F.rfft(x, n=3, norm=nm), True),
        (f"irfft-even-{_nm}", lambda z, nm=_nm: F.irfft(z, n=6, norm=nm), False),
        (f"irfft-odd-{_nm}", lambda z, nm=_nm: F.irfft(z, n=5, norm=nm), False),
        (f"irfft-truncate-{_nm}", lambda z, nm=_nm: F.irfft(z, n=4, axis=0, norm=nm), False),
        (f"hfft-{_nm}", lambda z, nm=_nm: F.hfft(z, n=7, norm=nm), False),
        (f"ihfft-{_nm}", lambda x, nm=_nm: F.ihfft(x, n=5, norm=nm), True),
        (f"abs-rfft-{_nm}", lambda x, nm=_nm: lt.abs(F.rfft(x, norm=nm)), True),
    ]


@pytest.mark.parametrize(("name", "fn", "real"), FFT_CASES, ids=[c[0] for c in FFT_CASES])
def test_fft_gradients(name: str, fn: Callable[[Any], Any], real: bool) -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(3, 4))
    point = x if real else x + 1j * rng.normal(size=(3, 4))
    verify_grad(fn, [point], mode=PY)


# -- forward mode (R_op) through complex values -----------------------------------------

ROP_CASES: list[tuple[str, Callable[[Any], Any]]] = [
    ("exp", lt.exp),
    ("log", lt.log),
    ("abs", lt.abs),
    ("sign", lt.sign),
    ("real-imag", lambda z: lt.real(z) * lt.imag(z)),
    ("conj", lambda z: lt.conj(z) * z),
    ("angle", lambda z: lt.atan2(lt.imag(z), lt.real(z))),
    ("var", lambda z: lt.var(z, axis=1)),
    ("std", lambda z: lt.std(z + lt.constant(np.arange(6.0).reshape(2, 3) * 1j))),
    ("prod", lambda z: lt.prod(z, axis=0)),
    ("matmul", lambda z: lt.matmul(z, lt.matrix_transpose(lt.sin(z)))),
    ("fft", lambda z: F.fft(z, n=5, norm="ortho")),
    ("irfft", lambda z: F.irfft(z, n=4)),
    ("cast-float", lambda z: lt.cast(z, "float64") * lt.abs(z)),
    ("from-real", lambda z: lt.exp(1j * lt.real(z)) + lt.cast(lt.imag(z), "complex128") ** 2),
]


@pytest.mark.parametrize(("name", "fn"), ROP_CASES, ids=[c[0] for c in ROP_CASES])
def test_rop_against_finite_differences(name: str, fn: Callable[[Any], Any]) -> None:
    """R_op of complex inputs and outputs (once silently zero past a complex
    node), along random complex directions; off every cut and away from 0."""
    rng = np.random.default_rng(5)
    z = rng.uniform(0.5, 1.5, (2, 3)) + 1j * rng.uniform(0.5, 1.5, (2, 3))
    verify_rop(fn, [z], mode=PY)


def test_rop_of_a_real_input_through_complex_values() -> None:
    x, t = lt.dvector("x"), lt.dvector("t")
    jvp = Rop(lt.real(lt.exp(1j * x)) * lt.abs(x + 2j), x, t)
    v = np.array([0.3, -1.1])
    want = -np.sin(v) * np.abs(v + 2j) + np.cos(v) * v / np.abs(v + 2j)
    np.testing.assert_allclose(jvp.eval({x: v, t: np.ones(2)}), want)
    assert jvp.dtype == "float64"


# -- verify_grad with complex inputs: it passes right rules and catches wrong ones ---


class _ConjugatingExp(Op):
    """exp with the *conjugated* pullback ``conj(g * exp(z))``: the wrong convention
    (right for real inputs, wrong for every complex one)."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, z: Any) -> Apply:
        z = lt.as_tensor_variable(z)
        return Apply(self, [z], [z.type()])

    def perform(self, node: Apply, inputs: Any, out: Any) -> None:
        out[0][0] = np.exp(inputs[0])

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        return [lt.conj(grads[0] * outputs[0])]


@pytest.mark.usefixtures("perform_fallback")
def test_verify_grad_catches_a_conjugated_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    z = np.array([0.3 + 0.4j, -1.0 + 0.2j])
    verify_grad(_ConjugatingExp(), [z.real.copy()], mode=PY)  # right for reals
    with pytest.raises(GradientError, match="imag part"):
        verify_grad(lambda z: lt.real(_ConjugatingExp()(z)), [z], mode=PY)
    with pytest.raises(GradientError):
        verify_grad(_ConjugatingExp(), [z], mode=PY)
    # along random directions (large inputs) too
    monkeypatch.setattr("lazygraph.gradient.verify.MAX_ELEMENTWISE", 0)
    verify_grad(lt.exp, [z], mode=PY)
    with pytest.raises(GradientError, match="random direction"):
        verify_grad(_ConjugatingExp(), [z], mode=PY)


def test_numeric_grad_of_complex_inputs() -> None:
    """d/dx - i d/dy, by differences along both parts (complex64 in single precision)."""
    for dtype, tol in (("complex128", 1e-6), ("complex64", 1e-2)):
        (g,) = numeric_grad(lambda z: np.abs(z) ** 2, [np.array(3 + 4j, dtype=dtype)])
        np.testing.assert_allclose(g, 6 - 8j, rtol=tol)
    verify_grad(lt.exp, [np.array([1 - 1j, 2j], dtype="complex64")], mode=PY)
    with pytest.raises(TypeError, match="complex64/complex128"):
        verify_grad(lt.exp, [np.arange(3)], mode=PY)


# -- the gradient machinery --------------------------------------------------------------


def test_known_grads_and_complex_cost() -> None:
    x = lt.dvector("x")
    y = x * (1 + 1j)
    # a complex cotangent of a real variable's image: its real part counts
    g = grad(None, x, known_grads={y: lt.constant(np.array([2 - 3j, 1j]))})
    np.testing.assert_allclose(g.eval({x: np.ones(2)}), [5.0, -1.0])
    # a complex cost is seeded with 1: f'(z) for a holomorphic f, else grad of Re(f)
    z = lt.zscalar("z")
    assert complex(grad(z * z, z).eval({z: 1j})) == 2j
    assert complex(grad(lt.conj(z) * z, z).eval({z: 1 + 2j})) == 2 - 4j


def test_fused_real_part_is_not_overwritten() -> None:
    """A composite must not write into a buffer that ``real`` returned a view of
    (found by these gradients: real(d) and d * 1j fused wrongly)."""
    x = lt.dvector("x")
    d = (x + 1j) / 3
    out = lt.real(d) + lt.real(d * 1j)
    f = lazygraph.function([x], out, mode=PY)
    v = np.array([1.0, 2.0])
    np.testing.assert_allclose(f(v), ((v + 1j) / 3).real + ((v + 1j) / 3 * 1j).real)


# -- the cases tests/backends/{numba,jax}/test_complex_grad_lowering.py compile ---------


def _real_input_case() -> tuple[list[Any], list[Any]]:
    x = lt.dvector("x")
    z = x + 1j * x**2
    cost = (
        lt.sum(lt.abs(z))
        + lt.real(lt.sum(lt.exp(1j * x)))
        + lt.sum(lt.atan2(lt.imag(x + 1j), lt.real(x + 1j)))  # angle
        + lt.real(lt.sum(lt.cast(x, "complex128") ** 2))
        + lt.sum(lt.cast(lt.exp(1j * x), "float64") ** 3)
    )
    return [x], [cost, grad(cost, x)]


def _complex_input_case() -> tuple[list[Any], list[Any]]:
    z = lt.zvector("z")
    cost = (
        lt.sum(lt.abs(z) ** 2)
        + lt.sum(lt.real(lt.sign(z)))
        + lt.sum(lt.imag(z * z))
        + lt.real(lt.sum(lt.conj(z) * lt.log(z)))
        + lt.var(z)
        + lt.real(lt.prod(z) + lt.sum(lt.cumprod(z)))
    )
    return [z], [cost, grad(cost, z), grad(lt.sum(z**3 + lt.sin(z)), z)]  # holomorphic


def _fft_case() -> tuple[list[Any], list[Any]]:
    x, z = lt.dvector("x"), lt.zvector("z")
    cost = (
        lt.sum(lt.abs(F.fft(x, n=10)))
        + lt.sum(F.irfft(F.rfft(x) * (1 + 2j), n=8) ** 2)
        + lt.sum(lt.abs(F.ihfft(x, norm="ortho")))
        + lt.sum(F.hfft(z, n=6))
        + lt.sum(lt.abs(F.ifft(z, n=3, norm="forward")))
    )
    return [x, z], [cost, *grad(cost, [x, z])]


def _single_precision_case() -> tuple[list[Any], list[Any]]:
    a = lt.tensor("complex64", (3, 3), "a")
    f = lt.tensor("float32", (3,), "f")
    cost = lt.sum(lt.abs(lt.matmul(a, a) * f)) + lt.real(lt.einsum("ii->", a)) * lt.sum(f)
    return [a, f], [cost, *grad(cost, [a, f])]


_RNG = np.random.default_rng(11)
_Z = _RNG.normal(size=4) + 1j * _RNG.normal(size=4)
#: (name, graph builder, input values)
COMPILED_CASES: list[tuple[str, Callable[[], Any], list[np.ndarray]]] = [
    ("real-input", _real_input_case, [np.array([0.3, -1.2, 2.0, 0.7])]),
    ("complex-input", _complex_input_case, [_Z]),
    ("fft", _fft_case, [_RNG.normal(size=8), _Z]),
    (
        "single-precision",
        _single_precision_case,
        [
            (_RNG.normal(size=(3, 3)) + 1j).astype("complex64"),
            _RNG.normal(size=3).astype("float32"),
        ],
    ),
]


def check_compiled_case(name: str, build: Callable[[], Any], values: list[Any], mode: Any) -> None:
    """The case's value and gradients compiled with ``mode`` (every node lowered:
    ``on_unsupported="raise"``) equal the python backend's."""
    from lazygraph.configuration import config

    inputs, outputs = build()
    want = lazygraph.function(inputs, outputs, mode=PY)(*values)
    with config.change(on_unsupported="raise"):
        got = lazygraph.function(inputs, outputs, mode=mode)(*values)
    for g, w, o in zip(got, want, outputs, strict=True):
        g = np.asarray(g)
        assert g.dtype == np.asarray(w).dtype == o.dtype, name
        tol = 1e-4 if o.dtype in ("float32", "complex64") else 1e-10
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=name)


@pytest.mark.parametrize(
    ("name", "build", "values"), COMPILED_CASES, ids=[c[0] for c in COMPILED_CASES]
)
def test_compiled_cases_against_finite_differences(
    name: str, build: Callable[[], Any], values: list[Any]
) -> None:
    """The reference the backends are compared with is itself right."""
    inputs, (cost, *grads) = build()
    f = lazygraph.function(inputs, cost, mode=PY)
    numeric = numeric_grad(
        lambda *vs: np.asarray(f(*vs)), values, eps=1e-3 if name == "single-precision" else None
    )
    for g, n in zip(grads[: len(inputs)], numeric, strict=True):
        got = lazygraph.function(inputs, g, mode=PY)(*values)
        tol = 2e-2 if name == "single-precision" else 1e-5
        np.testing.assert_allclose(got, n, rtol=tol, atol=tol)

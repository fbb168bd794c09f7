"""jvp, vjp, linearize, hvp, jacfwd and jacrev, checked against central finite
differences, hand-derived derivatives and the reverse-mode transforms."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.numpy._pytree import flatten, unflatten

rng = np.random.default_rng(3)

floats = st.floats(-2, 2)
vectors = hnp.arrays(
    np.float64, hnp.array_shapes(min_dims=0, max_dims=2, max_side=3), elements=floats
)


def close(got, want, rtol=1e-7, atol=1e-9):
    g_leaves, g_tree = flatten(got)
    w_leaves, w_tree = flatten(want)
    assert g_tree == w_tree, (got, want)
    for g, w in zip(g_leaves, w_leaves, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


def numeric_jvp(f_np, primals, tangents, eps=1e-6):
    """Central differences of the numpy function ``f_np`` along ``tangents``."""
    p_leaves, tree = flatten(tuple(primals))
    t_leaves, _ = flatten(tuple(tangents))
    up = unflatten(tree, [p + eps * t for p, t in zip(p_leaves, t_leaves, strict=True)])
    down = unflatten(tree, [p - eps * t for p, t in zip(p_leaves, t_leaves, strict=True)])
    hi, out_tree = flatten(f_np(*up))
    lo, _ = flatten(f_np(*down))
    return unflatten(out_tree, [(a - b) / (2 * eps) for a, b in zip(hi, lo, strict=True)])


# A function of a pytree, written twice: with lazygraph.numpy and with numpy.
def model(params, x):
    h = lnp.tanh(x @ params["w"] + params["b"])
    return {"out": h * params["b"], "norm": lnp.sum(h**2)}


def model_np(params, x):
    h = np.tanh(x @ params["w"] + params["b"])
    return {"out": h * params["b"], "norm": np.sum(h**2)}


PARAMS = {"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}
X = rng.normal(size=(4, 3))


# -- jvp --------------------------------------------------------------------------


def test_jvp_on_pytrees_matches_finite_differences():
    tangent = ({"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}, rng.normal(size=(4, 3)))
    out, t_out = lazygraph.jvp(model, (PARAMS, X), tangent)
    close(out, model_np(PARAMS, X), rtol=1e-12)
    close(t_out, numeric_jvp(model_np, (PARAMS, X), tangent), rtol=1e-6)


@settings(max_examples=25, deadline=None)
@given(x=vectors, data=st.data())
def test_jvp_elementwise_matches_the_derivative(x, data):
    v = data.draw(hnp.arrays(np.float64, x.shape, elements=floats))
    out, t = lazygraph.jvp(lambda a: lnp.sin(a) * lnp.exp(a), (x,), (v,))
    close(out, np.sin(x) * np.exp(x), rtol=1e-12)
    close(t, v * (np.cos(x) + np.sin(x)) * np.exp(x), rtol=1e-10, atol=1e-12)


def test_jvp_python_scalars_float32_and_empty():
    _, t = lazygraph.jvp(
        lambda a, s: a * s, (np.ones(3, np.float32), 2.0), (np.ones(3, np.float32), 1.0)
    )
    # the Python float is traced as float64: the product promotes
    close(t, np.full(3, 3.0))
    _, t = lazygraph.jvp(
        lambda a: a * 2, (np.ones((0, 2), np.float32),), (np.ones((0, 2), np.float32),)
    )
    close(t, np.zeros((0, 2), np.float32))
    _, t = lazygraph.jvp(lambda a: a**3, (np.float32(2.0),), (np.float32(1.0),))
    close(t, np.array(12.0, np.float32))


def test_jvp_has_aux():
    x = np.array([0.5, 1.5])
    out, t, aux = lazygraph.jvp(
        lambda a: (a**2, {"m": lnp.max(a)}), (x,), (np.ones(2),), has_aux=True
    )
    close((out, t, aux), (x**2, 2 * x, {"m": np.array(1.5)}))


def test_jvp_of_an_output_that_does_not_depend_on_the_primals_is_zero():
    _, t = lazygraph.jvp(lambda a: (a * 0 + 1, lnp.ones(2)), (np.ones(2),), (np.ones(2),))
    close(t, (np.zeros(2), np.zeros(2)))


def test_jvp_of_a_holomorphic_and_of_a_real_complex_function():
    z = np.array([1 + 1j, 2j, -0.5])
    v = np.array([1 + 0j, 1j, 2 - 1j])
    _, t = lazygraph.jvp(lnp.exp, (z,), (v,))
    close(t, np.exp(z) * v, rtol=1e-12)
    # |z| is not holomorphic: d|z| = Re(conj(z) dz) / |z|
    _, t = lazygraph.jvp(lnp.abs, (z,), (v,))
    close(t, np.real(np.conj(z) * v) / np.abs(z), rtol=1e-12)


def test_jvp_power_of_a_negative_base_has_no_nan():
    # the exponent 3 - 1 of the derivative is computed: its (zero) tangent must not
    # bring in 0 * log(x), NaN for x < 0
    x = np.array([-2.0, 0.0, 1.5])
    _, t = lazygraph.jvp(lambda a: lazygraph.grad(lambda b: lnp.sum(b**3))(a), (x,), (np.ones(3),))
    close(t, 6 * x)


def test_jvp_is_traced_once_per_signature():
    calls = []

    def f(a):
        calls.append(1)
        return lnp.cos(a)

    x = np.array([0.5, 1.0])
    for _ in range(3):
        lazygraph.jvp(f, (x,), (np.ones(2),))
    assert len(calls) == 1
    lazygraph.jvp(f, (np.ones(3),), (np.ones(3),))  # a new shape: a new trace
    assert len(calls) == 2
    _, f_jvp = lazygraph.linearize(f, x)
    f_jvp(np.ones(2))
    f_jvp(np.zeros(2))
    assert len(calls) == 4  # one trace for the value, one for the linear map


def test_the_kept_transforms_do_not_keep_the_function_alive():
    import weakref

    def f(a):
        return a * 2.0

    lazygraph.jvp(f, (np.ones(2),), (np.ones(2),))
    ref = weakref.ref(f)
    del f
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize(
    ("primals", "tangents", "error", "match"),
    [
        (np.ones(2), (np.ones(2),), TypeError, "must be tuples or lists"),
        ((np.ones(2),), (np.ones(2), np.ones(2)), ValueError, "1 primal.*2 tangent"),
        (({"a": np.ones(2)},), ({"b": np.ones(2)},), TypeError, "same tree structure"),
        ((np.ones(2),), (np.ones(2, np.float32),), TypeError, "dtypes must be equal"),
        ((np.ones(2),), (np.ones(3),), ValueError, r"different shapes: \(2,\) and \(3,\)"),
        ((np.arange(2),), (np.arange(2),), TypeError, "real- or complex-valued"),
    ],
)
def test_jvp_argument_errors(primals, tangents, error, match):
    with pytest.raises(error, match=match):
        lazygraph.jvp(lambda a: a, primals, tangents)


# -- linearize ------------------------------------------------------------------------


def test_linearize_matches_jvp():
    out, f_jvp = lazygraph.linearize(model, PARAMS, X)
    close(out, model_np(PARAMS, X), rtol=1e-12)
    for _ in range(2):
        tangent = ({"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}, rng.normal(size=(4, 3)))
        close(f_jvp(*tangent), lazygraph.jvp(model, (PARAMS, X), tangent)[1], rtol=1e-12)
    with pytest.raises(ValueError, match="1 tangent"):
        f_jvp(tangent[0])


# -- vjp ------------------------------------------------------------------------------


def test_vjp_on_pytrees_matches_the_transposed_jvp():
    out, vjp_fn = lazygraph.vjp(model, PARAMS, X)
    close(out, model_np(PARAMS, X), rtol=1e-12)
    cot = {"out": rng.normal(size=(4, 2)), "norm": np.array(0.7)}
    g_params, g_x = vjp_fn(cot)
    # <cot, J t> == <J^T cot, t> for random tangents
    for _ in range(2):
        t = ({"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}, rng.normal(size=(4, 3)))
        jt = lazygraph.jvp(model, (PARAMS, X), t)[1]
        lhs = np.sum(cot["out"] * jt["out"]) + cot["norm"] * jt["norm"]
        rhs = sum(np.sum(g_params[k] * t[0][k]) for k in "wb") + np.sum(g_x * t[1])
        np.testing.assert_allclose(lhs, rhs, rtol=1e-10)


def test_vjp_of_a_scalar_function_is_its_gradient_and_has_aux():
    def f(a, b):
        value = lnp.sum(lnp.sin(a) * b)
        return value, {"mean": lnp.mean(a)}

    a, b = rng.normal(size=3), rng.normal(size=3)
    out, vjp_fn, aux = lazygraph.vjp(f, a, b, has_aux=True)
    close(out, np.array(np.sum(np.sin(a) * b)), rtol=1e-12)
    close(aux, {"mean": np.array(np.mean(a))})
    ga, gb = vjp_fn(np.array(2.0))
    close(
        (ga, gb),
        tuple(2 * g for g in lazygraph.grad(lambda a, b: f(a, b)[0], argnums=(0, 1))(a, b)),
    )


@pytest.mark.parametrize(
    ("cot", "error", "match"),
    [
        ((np.ones(2),), TypeError, "structure of the function's output"),
        (np.ones(3), ValueError, r"shape \(3,\).*shape \(2,\)"),
        (np.ones(2, np.float32), TypeError, "dtype float32.*float64"),
    ],
)
def test_vjp_cotangent_errors(cot, error, match):
    _, vjp_fn = lazygraph.vjp(lambda a: a * 2.0, np.ones(2))
    with pytest.raises(error, match=match):
        vjp_fn(cot)


# -- hvp ------------------------------------------------------------------------------


def rosen(x):
    return lnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


@settings(max_examples=15, deadline=None)
@given(hnp.arrays(np.float64, st.integers(2, 5), elements=floats), st.data())
def test_hvp_is_the_hessian_times_the_vector(x, data):
    v = data.draw(hnp.arrays(np.float64, x.shape, elements=floats))
    got = lazygraph.hvp(rosen, (x,), (v,))
    close(got, lazygraph.hessian(rosen)(x) @ v, rtol=1e-9, atol=1e-9)


def test_hvp_with_several_primals_and_argnums():
    def f(a, b):
        return lnp.sum(lnp.sin(a) * b**2)

    a, b = rng.normal(size=3), rng.normal(size=3)
    va, vb = rng.normal(size=3), rng.normal(size=3)
    hess = lazygraph.hessian(f, argnums=(0, 1))(a, b)
    # jvp(grad(f, argnums=0)) along (va, vb): d/da of grad_a, and the cross term
    want0 = hess[0][0] @ va + hess[0][1] @ vb
    close(lazygraph.hvp(f, (a, b), (va, vb)), want0, rtol=1e-10)
    got = lazygraph.hvp(f, (a, b), (va, vb), argnums=(0, 1))
    close(got, (want0, hess[1][0] @ va + hess[1][1] @ vb), rtol=1e-10)


def test_hvp_of_a_pytree_and_its_errors():
    def f(p):
        return lnp.sum(lnp.exp(p["u"]) * p["v"] ** 2)

    p = {"u": rng.normal(size=2), "v": rng.normal(size=2)}
    t = {"u": rng.normal(size=2), "v": rng.normal(size=2)}
    got = lazygraph.hvp(f, (p,), (t,))
    u, v = p["u"], p["v"]
    want = {
        "u": np.exp(u) * v**2 * t["u"] + 2 * np.exp(u) * v * t["v"],
        "v": 2 * np.exp(u) * v * t["u"] + 2 * np.exp(u) * t["v"],
    }
    close(got, want, rtol=1e-12)
    with pytest.raises(TypeError, match="scalar-output"):
        lazygraph.hvp(lambda a: a * 2.0, (np.ones(2),), (np.ones(2),))


# -- jacfwd and jacrev -------------------------------------------------------------


def numeric_jacobian(f_np, x, eps=1e-6):
    if x.size == 0:
        return np.zeros(np.shape(f_np(x)) + x.shape)
    cols = []
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = 1
        cols.append((f_np(x + eps * e) - f_np(x - eps * e)) / (2 * eps))
    out = np.stack(cols, axis=-1)
    return out.reshape(np.shape(f_np(x)) + x.shape)


@pytest.mark.parametrize("transform", [lazygraph.jacfwd, lazygraph.jacrev])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0,)])
def test_jacobians_match_finite_differences(transform, shape):
    x = rng.normal(size=shape)

    def f(a):
        return lnp.outer(lnp.tanh(a).ravel(), lnp.array([1.0, -2.0])) * lnp.sum(a)

    def f_np(a):
        return np.outer(np.tanh(a).ravel(), [1.0, -2.0]) * np.sum(a)

    close(transform(f)(x), numeric_jacobian(f_np, x), rtol=1e-6, atol=1e-8)


def test_jacfwd_jacrev_and_jacobian_agree_on_pytrees_with_argnums_and_aux():
    def f(params, x):
        out = model(params, x)
        return out, {"n": lnp.sum(x)}

    for argnums in (0, (0, 1)):
        fwd, aux = lazygraph.jacfwd(f, argnums=argnums, has_aux=True)(PARAMS, X)
        rev, aux2 = lazygraph.jacrev(f, argnums=argnums, has_aux=True)(PARAMS, X)
        ref, _ = lazygraph.jacobian(f, argnums=argnums, has_aux=True)(PARAMS, X)
        close(fwd, ref, rtol=1e-10, atol=1e-12)
        close(rev, ref, rtol=1e-12, atol=0)
        close(aux, {"n": np.array(np.sum(X))})
        close(aux2, aux)
    assert fwd["out"][1].shape == (4, 2, 4, 3)  # output shape + argument shape
    assert fwd["norm"][0]["w"].shape == (3, 2)


def test_jacfwd_of_jacrev_is_the_hessian():
    def f(a, b):
        return lnp.sum(lnp.tanh(a) ** 3 * lnp.exp(b))

    a, b = rng.normal(size=3), rng.normal(size=3)
    close(
        lazygraph.jacfwd(lazygraph.jacrev(f, argnums=(0, 1)), argnums=(0, 1))(a, b),
        lazygraph.hessian(f, argnums=(0, 1))(a, b),
        rtol=1e-12,
        atol=1e-14,
    )


def test_jacobian_dtypes_and_errors():
    x32 = np.ones(2, np.float32)
    assert lazygraph.jacfwd(lambda a: a * 2)(x32).dtype == np.float32
    with pytest.raises(TypeError, match="jacfwd requires real-valued outputs"):
        lazygraph.jacfwd(lambda a: a > 0)(np.ones(2))
    with pytest.raises(TypeError, match="jacfwd requires real- or complex-valued inputs"):
        lazygraph.jacfwd(lambda a: a * 1.0)(np.arange(2))
    with pytest.raises(TypeError, match="jacfwd requires real-valued inputs"):
        lazygraph.jacfwd(lambda a: lnp.abs(a))(np.ones(2, complex))
    with pytest.raises(ValueError, match="argnums 3 out of range"):
        lazygraph.jacrev(lambda a: a, argnums=3)(np.ones(2))


def test_transforms_compose_under_grad_and_jit():
    x = rng.normal(size=3)
    v = rng.normal(size=3)

    # the directional derivative of f along v, differentiated again: H v
    def directional(a):
        return lazygraph.jvp(lambda b: lnp.sum(lnp.sin(b) ** 2), (a,), (lnp.asarray(v),))[1]

    close(
        lazygraph.grad(directional)(x),
        lazygraph.hvp(lambda b: lnp.sum(lnp.sin(b) ** 2), (x,), (v,)),
    )
    jitted = lazygraph.jit(lazygraph.jacfwd(lnp.sin))
    close(jitted(x), np.diag(np.cos(x)), rtol=1e-12)

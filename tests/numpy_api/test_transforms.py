"""grad, value_and_grad, jacobian, hessian and jit, checked against hand-derived
numpy gradients and central finite differences."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.compile.cache import clear_cache, stats

rng = np.random.default_rng(42)

Params = namedtuple("Params", ["w", "b"])


def numeric_grad(f, x, eps=1e-6):
    """Central differences of the scalar numpy function ``f`` at float64 ``x``."""
    x = np.array(x, dtype=np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        g[i] = (f(up) - f(down)) / (2 * eps)
    return g


def check(got, want, rtol=1e-10, atol=0.0):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


# -- grad -------------------------------------------------------------------------


def tanh_loss(x):
    return lt.sum(lt.tanh(x) * x)


def tanh_loss_grad(x):
    t = np.tanh(x)
    return t + x * (1 - t**2)


@settings(max_examples=30, deadline=None)
@given(
    hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
        elements=st.floats(-5, 5),
    )
)
def test_grad_matches_the_derivative(x):
    check(lazygraph.grad(tanh_loss)(x), tanh_loss_grad(x))


def test_grad_matches_finite_differences():
    a = rng.normal(size=(3, 2))
    x = rng.normal(size=(4, 3))

    def f(w):
        return lt.sum(lt.log1p(lt.exp(lt.matmul(x, w))))

    def f_np(w):
        return np.sum(np.log1p(np.exp(x @ w)))

    check(lazygraph.grad(f)(a), numeric_grad(f_np, a), rtol=1e-6, atol=1e-8)


def test_grad_keeps_float32():
    x = rng.normal(size=5).astype(np.float32)
    g = lazygraph.grad(tanh_loss)(x)
    check(g, tanh_loss_grad(x.astype(np.float64)).astype(np.float32), rtol=1e-5)


def test_grad_argnums_tuple_and_pytrees():
    def f(p, x, scale):
        return lt.sum(lt.tanh(x * p["w"][0] + p["w"][1]) * p["b"].w) * scale

    p = {"w": [rng.normal(size=3), np.float64(0.5)], "b": Params(np.array(2.0), np.zeros(1))}
    x = rng.normal(size=3)
    gp, gs = lazygraph.grad(f, argnums=(0, 2))(p, x, 1.5)
    t = np.tanh(x * p["w"][0] + p["w"][1])
    dt = (1 - t**2) * p["b"].w * 1.5
    assert isinstance(gp, dict) and isinstance(gp["w"], list) and isinstance(gp["b"], Params)
    check(gp["w"][0], dt * x)
    check(gp["w"][1], np.sum(dt))
    check(gp["b"].w, np.sum(t) * 1.5)
    check(gp["b"].b, np.zeros(1))  # not used: a zero gradient
    check(gs, np.sum(t * p["b"].w))


def test_grad_has_aux():
    def f(x):
        y = lt.sin(x)
        return lt.sum(y), {"y": y, "n": 3}

    x = rng.normal(size=4)
    g, aux = lazygraph.grad(f, has_aux=True)(x)
    check(g, np.cos(x))
    check(aux["y"], np.sin(x))
    assert aux["n"] == 3


def test_value_and_grad():
    x = rng.normal(size=(2, 3))
    v, g = lazygraph.value_and_grad(tanh_loss)(x)
    check(v, np.sum(np.tanh(x) * x))
    check(g, tanh_loss_grad(x))
    (v, aux), g = lazygraph.value_and_grad(lambda x: (tanh_loss(x), x * 2.0), has_aux=True)(x)
    check(v, np.sum(np.tanh(x) * x))
    check(aux, x * 2.0)


def test_grad_errors():
    with pytest.raises(TypeError, match="real- or complex-valued inputs"):
        lazygraph.grad(lambda x: lt.sum(lt.cast(x, "float64")))(np.arange(3))
    with pytest.raises(TypeError, match="real- or complex-valued inputs"):
        lazygraph.grad(lambda x: lt.cast(x, "float64") * 1.0)(3)
    with pytest.raises(TypeError, match=r"scalar-output.*\(3,\)"):
        lazygraph.grad(lt.sin)(np.zeros(3))
    with pytest.raises(TypeError, match="real-valued outputs"):
        lazygraph.grad(lambda x: lt.sum(x > 0))(np.zeros(3))
    with pytest.raises(ValueError, match="argnums"):
        lazygraph.grad(tanh_loss, argnums=1)(np.zeros(3))
    with pytest.raises(TypeError, match="pair"):
        lazygraph.grad(tanh_loss, has_aux=True)(np.zeros(3))
    with pytest.raises(TypeError, match="not an array"):
        lazygraph.jit(lambda x: x)("text")


def test_grad_of_python_scalar_and_disconnected_argument():
    g0, g1 = lazygraph.grad(lambda x, y: x * x * 3.0, argnums=(0, 1))(2.0, 5.0)
    check(g0, np.float64(12.0))
    check(g1, np.float64(0.0))


def test_grad_of_grad():
    def f(x):
        return lt.sum(lt.sin(x) * x)

    x = rng.normal(size=3)
    # d/dx sum(d/dx f) = d/dx (cos x * x + sin x) summed -> elementwise
    gg = lazygraph.grad(lambda x: lt.sum(lazygraph.grad(f)(x)))(x)
    check(gg, -np.sin(x) * x + 2 * np.cos(x))


# -- jacobian and hessian -------------------------------------------------------------


def test_jacobian_elementwise_and_matmul():
    x = rng.normal(size=3)
    check(lazygraph.jacobian(lt.exp)(x), np.diag(np.exp(x)))
    a = rng.normal(size=(2, 3))
    jac = lazygraph.jacobian(lambda a, x: lt.matmul(a, x), argnums=(0, 1))(a, x)
    want_a = np.zeros((2, 2, 3))
    for i in range(2):
        want_a[i, i, :] = x
    check(jac[0], want_a)
    check(jac[1], a)


def test_jacobian_pytree_output():
    x = rng.normal(size=2)
    out = lazygraph.jacobian(lambda x: {"s": lt.sum(x * x), "v": [x * 3.0]})(x)
    check(out["s"], 2 * x)
    check(out["v"][0], 3.0 * np.eye(2))


def test_hessian_matches_finite_differences_of_the_gradient():
    x = rng.normal(size=3)

    def f(x):
        return lt.sum(lt.exp(x[0] * x) * lt.sin(x))

    def grad_np(x):
        return lazygraph.grad(f)(x)

    h = lazygraph.hessian(f)(x)
    fd = np.stack([numeric_grad(lambda v, i=i: grad_np(v)[i], x) for i in range(3)])
    check(h, fd, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(h, h.T, rtol=1e-10)


def test_hessian_cross_terms():
    x, y = rng.normal(size=2), rng.normal(size=2)
    h = lazygraph.hessian(lambda x, y: lt.sum(x * y * y), argnums=(0, 1))(x, y)
    check(h[0][0], np.zeros((2, 2)))
    check(h[0][1], np.diag(2 * y))
    check(h[1][0], np.diag(2 * y))
    check(h[1][1], np.diag(2 * x))


# -- jit --------------------------------------------------------------------------


def test_jit_traces_once_per_signature():
    calls = []

    def f(x, y):
        calls.append(1)
        return lt.exp(x) * y + 1.0

    jf = lazygraph.jit(f)
    for _ in range(3):
        x, y = rng.normal(size=4), rng.normal(size=4)
        check(jf(x, y), np.exp(x) * y + 1.0)
    assert jf.trace_count == 1 and len(calls) == 1
    x = rng.normal(size=5)
    check(jf(x, x), np.exp(x) * x + 1.0)  # a new shape traces again
    x32 = x.astype(np.float32)
    check(jf(x32, x32), np.exp(x32) * x32 + np.float32(1.0), rtol=1e-6)
    assert jf.trace_count == 3


def test_jit_shares_compiled_functions_through_the_cache():
    clear_cache()

    def f(x):
        return lt.sum(lt.sqrt(x))

    x = rng.random(6)
    a = lazygraph.jit(f)(x)
    b = lazygraph.jit(f)(x * 4)  # a new jit object: traced again, compiled no more
    check(a, np.sum(np.sqrt(x)))
    check(b, np.sum(np.sqrt(x * 4)))
    assert stats().compiles == 1 and stats().hits == 1


def test_jit_static_argnums_kwargs_and_pytrees():
    def f(x, n, *, scale):
        out = x
        for _ in range(n):
            out = lt.sin(out)
        return {"out": out * scale["a"], "n": n, "pair": (scale["b"], out)}

    jf = lazygraph.jit(f, static_argnums=1)
    x = rng.normal(size=3)
    scale = {"a": np.float64(2.0), "b": np.arange(2)}
    r = jf(x, 2, scale=scale)
    check(r["out"], np.sin(np.sin(x)) * 2.0)
    assert r["n"] == 2
    check(r["pair"][0], np.arange(2))
    check(r["pair"][1], np.sin(np.sin(x)))
    r = jf(x, 3, scale=scale)
    check(r["out"], np.sin(np.sin(np.sin(x))) * 2.0)
    jf(x + 1, 3, scale={"a": np.float64(1.0), "b": np.arange(2) + 5})
    assert jf.trace_count == 2
    with pytest.raises(TypeError, match="hashable"):
        jf(x, [1], scale=scale)


def test_jit_captures_closure_data_and_constant_outputs():
    data = rng.normal(size=3)
    w = lnp.asarray(data)  # a bound graph input made outside the function

    @lazygraph.jit
    def f(x):
        return lt.add(x, w), 7, np.ones(2)

    x = rng.normal(size=3)
    out, seven, ones = f(x)
    check(out, x + data)
    assert seven == 7
    check(ones, np.ones(2))
    ones[0] = 5  # results are fresh arrays
    check(f(x)[2], np.ones(2))


def test_jit_decorator_with_arguments_and_repr():
    @lazygraph.jit(static_argnums=(1,))
    def power(x, k):
        return lt.power(x, k)

    check(power(np.arange(3.0), 2), np.arange(3.0) ** 2)
    assert "jit" in repr(power) and power.__name__ == "power"


def test_jit_with_numpy_namespace_code():
    @lazygraph.jit
    def softmax(z):
        e = lnp.exp(z - lnp.max(z, axis=-1, keepdims=True))
        return e / lnp.sum(e, axis=-1, keepdims=True)

    z = rng.normal(size=(3, 4)) * 10
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    check(softmax(z), e / e.sum(axis=-1, keepdims=True), rtol=1e-12)


def test_grad_with_numpy_namespace_code_and_lazy_arguments():
    def loss(w, x, y):
        p = 1.0 / (1.0 + lnp.exp(-(x @ w)))
        return -lnp.mean(y * lnp.log(p) + (1 - y) * lnp.log(1 - p))

    x = rng.normal(size=(8, 3))
    y = (rng.random(8) > 0.5).astype(np.float64)
    w = rng.normal(size=3)
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    want = x.T @ (p - y) / 8
    check(lazygraph.grad(loss)(w, x, y), want, rtol=1e-10)
    # Called with lazy arrays it stays lazy.
    lazy = lazygraph.grad(loss)(lnp.asarray(w), x, y)
    assert isinstance(lazy, lnp.Array)
    check(lazy.compute(), want, rtol=1e-10)


def test_needing_a_traced_value_is_a_type_error():
    def f(x):
        if float(lnp.sum(x)) > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="static_argnums"):
        lazygraph.jit(f)(np.ones(3))
    with pytest.raises(TypeError, match="static_argnums"):
        lazygraph.grad(lambda x: lt.sum(x) * float(lnp.max(x)))(np.ones(3))


_trees = st.recursive(
    st.one_of(st.none(), st.integers(), st.floats(allow_nan=False)),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(st.text("abc", min_size=1, max_size=2), children, max_size=3),
        st.tuples(children, children).map(lambda t: Params(*t)),
    ),
    max_leaves=8,
)


@settings(max_examples=50, deadline=None)
@given(_trees)
def test_pytree_flatten_unflatten_roundtrip(tree):
    from lazygraph.numpy._pytree import flatten, num_leaves, unflatten

    leaves, treedef = flatten(tree)
    hash(treedef)
    assert num_leaves(treedef) == len(leaves)
    assert unflatten(treedef, leaves) == tree
    rebuilt = unflatten(treedef, [f"leaf{i}" for i in range(len(leaves))])
    assert flatten(rebuilt)[1] == treedef


def test_jit_fast_path_keeps_scalars_and_subclasses_apart():
    jf = lazygraph.jit(lambda x: lt.exp(x) * 2.0)
    for arg in (np.array(0.5), np.float64(0.5), 0.5, np.ma.masked_array(np.array(0.5))):
        out = jf(arg)
        assert type(out) is np.ndarray
        check(out, np.array(np.exp(0.5) * 2.0))
    check(jf(np.array(1.5)), np.array(np.exp(1.5) * 2.0))
    assert jf.trace_count == 1  # all of them are float64 0-d arrays to the compiled function


def test_stacked_transforms_keep_their_own_state():
    def f(x):
        return lt.sum(lt.sin(x) * x)

    g = lazygraph.grad(f)
    jg = lazygraph.jit(g)
    x = rng.normal(size=3)
    check(jg(x), np.sin(x) + x * np.cos(x))
    assert jg.trace_count == 1 and g.trace_count == 0  # jit traced g lazily
    assert jg.__name__ == "f"
    # jit of a jitted function with static arguments on the outer one only.
    inner = lazygraph.jit(lambda x, k: lt.power(x, k), static_argnums=1)
    outer = lazygraph.jit(lambda x, k: inner(x, k) + 1.0, static_argnums=1)
    check(outer(x, 3), x**3 + 1.0)
    assert outer.trace_count == 1 and inner.trace_count == 0


# -- printing and profiling what a user holds ----------------------------------------


def test_printing_takes_a_lazy_array():
    from lazygraph.printing import to_dot, to_svg

    x = lnp.asarray(np.arange(3.0))
    with lazygraph.config.change(eager_max_elements=0):  # a graph, not a value
        y = lnp.exp(x) * 2.0 + x
    var = y.__lazygraph_variable__()
    text = lazygraph.dprint(y, file="str")
    assert text == lazygraph.dprint(var, file="str")
    assert text.splitlines()[0].startswith("Elemwise{add}") and "Elemwise{exp}" in text
    assert to_dot(y) == to_dot(var)
    assert to_svg(y, title="y") == to_svg(var, title="y") and "<svg" in to_svg(y)
    assert lazygraph.dprint([y, x], file="str") == lazygraph.dprint(
        [var, x.__lazygraph_variable__()], file="str"
    )


@pytest.mark.parametrize(
    "transform",
    [lazygraph.jit, lazygraph.grad, lazygraph.value_and_grad, lazygraph.jacobian],
    ids=lambda t: t.__name__,
)
def test_printing_takes_a_transformed_function_after_a_call(transform):
    from lazygraph.printing import to_dot, to_svg

    f = transform(lambda w: lnp.sum(lnp.tanh(w) ** 2))
    with pytest.raises(ValueError, match="has not been called with array data yet"):
        lazygraph.dprint(f)
    f(lnp.ones(3))  # lazy: builds the graph into the argument's, compiles nothing
    with pytest.raises(ValueError, match="has not been called with array data yet"):
        lazygraph.dprint(f)
    f(np.ones(3))
    fgraph = f.__lazygraph_fgraph__()
    text = lazygraph.dprint(f, file="str")
    assert text == lazygraph.dprint(fgraph, file="str") and "tanh" in text
    assert to_dot(f) == to_dot(fgraph) and "<svg" in to_svg(f)


def test_printing_shows_the_signature_called_last():
    f = lazygraph.jit(lambda a: a * 2.0)
    f(np.ones(3))
    vector = lazygraph.dprint(f, file="str", print_type=True)
    f(np.ones((2, 2)))
    matrix = lazygraph.dprint(f, file="str", print_type=True)
    assert vector != matrix and "(2, 2)" in matrix
    f(np.ones(3))  # the fast path
    assert lazygraph.dprint(f, file="str", print_type=True) == vector


def test_jit_profile_times_every_node():
    from lazygraph.compile.mode import Mode

    @lazygraph.jit(profile=True, mode=Mode(backend="python"))
    def step(a, b):
        h = lnp.tanh(a @ b)
        return lnp.sum(h**2), lnp.exp(h)

    assert step.profile is None  # nothing has run
    a, b = rng.normal(size=(5, 4)), rng.normal(size=(4, 3))
    for _ in range(3):
        total, e = step(a, b)
    h = np.tanh(a @ b)
    check(total, np.sum(h**2), rtol=1e-12)
    check(e, np.exp(h), rtol=1e-12)
    profile = step.profile
    assert profile.calls == 3 and profile.backend == "python"
    rows = profile.rows()
    assert len(rows) == len(step.__lazygraph_fgraph__().apply_nodes) > 1
    assert all(r.calls == 3 for r in rows)
    assert any("MatMul" in r.op for r in rows)
    assert str(profile) == profile.table() and "3 calls" in str(profile)
    # a second signature has its own profile, and the latest call picks it
    step(np.ones((2, 2)), np.ones((2, 2)))
    assert step.profile is not profile and step.profile.calls == 1 and profile.calls == 3
    step(a, b)
    assert step.profile is profile and profile.calls == 4


def test_jit_profile_off_and_with_shardings():
    f = lazygraph.jit(lambda a: a + 1.0)
    f(np.ones(2))
    assert f.profile is None
    with pytest.raises(ValueError, match="profile=True does not combine"):
        lazygraph.jit(lambda a: a, profile=True, in_shardings=object())


@pytest.mark.parametrize(
    "f",
    [
        lambda w: lnp.sum(w * w),
        lambda w: w[0] * w[1] + lnp.sum(lnp.sort(w)),
        lambda w: lnp.linalg.norm(lnp.eye(3) @ w - 1.0),
        lambda w: lnp.sum(lnp.cumsum(w) ** 2),
    ],
    ids=["elementwise", "elements_and_sort", "matmul_norm", "cumsum"],
)
def test_grad_of_known_lazy_arrays_is_the_grad_of_their_values(f):
    """Called with a known (small, computed) lazy array, grad builds the graph
    of its variable: nothing in the function runs at once, which would cut the
    result off from the argument and give a zero gradient."""
    w = np.array([1.0, -2.0, 3.5])
    want = lazygraph.grad(f)(w)
    got = lazygraph.grad(f)(lnp.asarray(w))
    assert isinstance(got, lnp.Array)
    check(got.compute(), want, rtol=1e-12)
    check(want, numeric_grad(lambda v: float(f(lnp.asarray(v))), w), rtol=1e-5, atol=1e-8)

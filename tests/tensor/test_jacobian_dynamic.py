"""``jacobian`` and ``hessian`` of expressions whose size is known only at run
time: a ``Scan`` over the expression's positions (Theano/PyTensor's way),
checked against the same functions built on static shapes (one product per
element) and against central differences."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.gradient import hessian, jacobian
from lazygraph.graph.traversal import applys_between
from lazygraph.tensor.control.scan import Scan

# The sweeps run on the reference backend (each example's static twin is a new
# graph: compiling them all would be most of a compiled backend's time here);
# test_compiled_hessian_equals_the_reference compiles one on the configured one.
PY = Mode(backend="python")

FUNCTIONS = {
    "cube_sum": lambda x: lt.sum(x**3),
    "softplus_sum": lambda x: lt.sum(lt.log1p(lt.exp(x)) * lt.arange(x.shape[0])),
    "quadratic": lambda x: lt.sum(lt.outer(x, x) * lt.cos(x)),
}


def _central_jacobian(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    cols = []
    for k in range(x.size):
        d = np.zeros_like(x)
        d[k] = eps
        cols.append((f(x + d) - f(x - d)) / (2 * eps))
    return np.stack(cols, axis=-1)


@settings(max_examples=10, deadline=None)
@given(
    values=st.lists(st.floats(-2.0, 2.0), min_size=1, max_size=4),
    name=st.sampled_from(sorted(FUNCTIONS)),
)
def test_hessian_of_a_vector_of_unknown_size(values: list[float], name: str) -> None:
    x = lt.tensor("float64", (None,), "x")
    cost = FUNCTIONS[name](x)
    h = hessian(cost, x)
    assert any(isinstance(n.op, Scan) for n in lazygraph.graph.traversal.applys_between([x], [h]))
    value = np.array(values)
    got = lazygraph.function([x], h, mode=PY)(value)
    static = lt.tensor("float64", (len(values),), "s")
    want = lazygraph.function([static], hessian(FUNCTIONS[name](static), static), mode=PY)(value)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    grad_fn = lazygraph.function([x], lazygraph.gradient.grad(cost, x), mode=PY)
    np.testing.assert_allclose(got, _central_jacobian(grad_fn, value), rtol=1e-5, atol=1e-5)


def test_compiled_hessian_equals_the_reference() -> None:
    x = lt.tensor("float64", (None,), "x")
    h = hessian(FUNCTIONS["softplus_sum"](x), x)
    value = np.array([0.5, -1.0, 2.0])
    with lazygraph.config.change(on_unsupported="raise"):
        got = lazygraph.function([x], h)(value)
    np.testing.assert_allclose(got, lazygraph.function([x], h, mode=PY)(value), rtol=1e-13)


def test_jacobian_of_several_inputs_and_a_matrix_expression() -> None:
    m = lt.tensor("float64", (None, None), "m")
    v = lt.tensor("float64", (None,), "v")
    jm, jv = jacobian(lt.tanh(lt.outer(lt.dot(m, v), v)), [m, v])
    f = lazygraph.function([m, v], [jm, jv], mode=PY)
    rng = np.random.default_rng(0)
    mv, vv = rng.normal(size=(2, 3)), rng.normal(size=3)
    got_m, got_v = f(mv, vv)
    assert got_m.shape == (2, 3, 2, 3) and got_v.shape == (2, 3, 3)

    def value(mm: np.ndarray, vv_: np.ndarray) -> np.ndarray:
        return np.tanh(np.outer(mm @ vv_, vv_))

    want_v = _central_jacobian(lambda t: value(mv, t), vv)
    np.testing.assert_allclose(got_v, want_v, rtol=1e-6, atol=1e-6)
    flat = _central_jacobian(lambda t: value(t.reshape(2, 3), vv), mv.ravel())
    np.testing.assert_allclose(got_m, flat.reshape(2, 3, 2, 3), rtol=1e-6, atol=1e-6)


def test_an_empty_expression_gives_an_empty_jacobian() -> None:
    x = lt.tensor("float64", (3,), "x")
    n = lt.tensor("int64", (), "n")
    j = jacobian(lt.exp(x)[:n], x)
    out = lazygraph.function([x, n], j, mode=PY)(np.zeros(3), np.int64(0))
    assert out.shape == (0, 3)


def _has_scan(outputs: object) -> bool:
    return any(isinstance(n.op, Scan) for n in applys_between([], outputs))


@pytest.mark.parametrize("vectorize", [None, True, False])
def test_vectorize_picks_stacked_products_or_a_scan(vectorize: bool | None) -> None:
    """Static sizes: separate products up to JACOBIAN_UNROLL_MAX elements, a Scan
    beyond (or as asked); the same values either way."""
    from lazygraph.gradient.forward import JACOBIAN_UNROLL_MAX

    n = JACOBIAN_UNROLL_MAX + 1
    big = lt.tensor("float64", (n,), "big")
    small = lt.tensor("float64", (3, 2), "small")
    jb = jacobian(lt.sin(big) * big[::-1], big, vectorize=vectorize)
    hs = hessian(lt.sum(lt.exp(small) * small[:, ::-1]), small, vectorize=vectorize)
    assert _has_scan([jb]) == (vectorize is not True)
    assert _has_scan([hs]) == (vectorize is False)
    rng = np.random.default_rng(4)
    bv, sv = rng.normal(size=n), rng.normal(size=(3, 2))
    got_b, got_s = lazygraph.function([big, small], [jb, hs], mode=PY)(bv, sv)
    want_b = np.diag(np.cos(bv) * bv[::-1]) + np.fliplr(np.diag(np.sin(bv)))
    np.testing.assert_allclose(got_b, want_b, rtol=1e-13, atol=1e-15)
    grad_fn = lazygraph.function(
        [small], lazygraph.gradient.grad(lt.sum(lt.exp(small) * small[:, ::-1]), small), mode=PY
    )
    want_s = _central_jacobian(lambda t: grad_fn(t.reshape(3, 2)).ravel(), sv.ravel())
    np.testing.assert_allclose(got_s, want_s.reshape(3, 2, 3, 2), rtol=1e-5, atol=1e-5)


def test_the_errors_name_what_is_wrong() -> None:
    x = lt.tensor("float64", (None,), "x")
    with pytest.raises(TypeError):
        jacobian(np.ones(3), x)  # type: ignore[arg-type]

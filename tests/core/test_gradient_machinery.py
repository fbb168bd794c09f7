"""The gradient machinery (lazygraph.gradient) on small hand-written ops
(tests/core/gradient_toy_ops.py), independent of the tensor op families."""

from __future__ import annotations

import warnings
from typing import Any, ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
from lazygraph.compile.mode import NO_REWRITES
from lazygraph.gradient import (
    DisconnectedInputError,
    DisconnectedType,
    GradientError,
    Lop,
    NullType,
    NullTypeGradError,
    Rop,
    disconnected_grad,
    grad,
    numeric_grad,
    undefined_grad,
    verify_grad,
    verify_rop,
    zero_grad,
)
from lazygraph.gradient import verify as verify_module
from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import as_tensor_variable
from tests.core import gradient_toy_ops as toy

RNG = np.random.default_rng(0)


def run(inputs: list[Any], outputs: Any, *values: Any) -> Any:
    return lazygraph.function(inputs, outputs, mode=NO_REWRITES)(*values)


def test_chain_rule() -> None:
    x = toy.vec(3)
    cost = toy.total(toy.exp(toy.sin(x)))
    g = grad(cost, x)
    xv = np.array([0.1, -1.0, 2.0])
    np.testing.assert_allclose(run([x], g, xv), np.cos(xv) * np.exp(np.sin(xv)))


def test_wrt_structure_is_preserved() -> None:
    x, y = toy.vec(2, "x"), toy.vec(2, "y")
    cost = toy.total(toy.mul(x, y))
    assert not isinstance(grad(cost, x), list)
    gl = grad(cost, [x, y])
    gt = grad(cost, (x, y))
    assert isinstance(gl, list) and len(gl) == 2 and isinstance(gt, list)
    xv, yv = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    gx, gy = run([x, y], gl, xv, yv)
    np.testing.assert_allclose(gx, yv)
    np.testing.assert_allclose(gy, xv)


class CountingUnary(toy.Unary):
    calls: ClassVar[list[str]] = []

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        CountingUnary.calls.append(self.name)
        return super().L_op(inputs, outputs, grads)


def test_shared_subexpression_accumulates_and_calls_l_op_once() -> None:
    CountingUnary.calls.clear()
    x = toy.vec(3)
    y = CountingUnary("sin")(x)
    # y is used three times: its gradient is the sum of three terms.
    cost = toy.total(toy.add(toy.mul(y, y), y))
    g = grad(cost, x)
    assert CountingUnary.calls == ["sin"]
    xv = np.array([0.3, 1.0, -2.0])
    np.testing.assert_allclose(run([x], g, xv), (2 * np.sin(xv) + 1) * np.cos(xv))


def test_same_variable_in_both_inputs() -> None:
    x = toy.vec(2)
    g = grad(toy.total(toy.mul(x, x)), x)
    np.testing.assert_allclose(run([x], g, np.array([1.5, -2.0])), [3.0, -4.0])


def test_grad_of_cost_itself_and_of_intermediates() -> None:
    x = toy.vec(2)
    y = toy.sin(x)
    cost = toy.total(toy.mul(y, y))
    gc, gy, gx = grad(cost, [cost, y, x])
    xv = np.array([0.4, 1.2])
    c1, y1, x1 = run([x], [gc, gy, gx], xv)
    assert c1 == 1.0
    np.testing.assert_allclose(y1, 2 * np.sin(xv))
    np.testing.assert_allclose(x1, 2 * np.sin(xv) * np.cos(xv))


def test_cost_must_be_scalar() -> None:
    x = toy.vec(2)
    with pytest.raises(TypeError, match="scalar"):
        grad(toy.sin(x), x)
    with pytest.raises(ValueError, match="known_grads"):
        grad(None, x)


# -- disconnected inputs -------------------------------------------------------


def test_disconnected_input_policies() -> None:
    x, y = toy.vec(2, "x"), toy.vec(2, "y")
    cost = toy.total(toy.sin(x))
    with pytest.raises(DisconnectedInputError, match="y"):
        grad(cost, [x, y])
    with pytest.warns(UserWarning, match="does not depend"):
        grad(cost, [x, y], disconnected_inputs="warn")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, gy = grad(cost, [x, y], disconnected_inputs="ignore")
    np.testing.assert_array_equal(run([y], gy, np.ones(2)), np.zeros(2))
    assert grad(cost, y, disconnected_inputs="ignore", return_disconnected="none") is None
    d = grad(cost, y, disconnected_inputs="ignore", return_disconnected="disconnected")
    assert isinstance(d.type, DisconnectedType)
    with pytest.raises(ValueError, match="disconnected_inputs"):
        grad(cost, x, disconnected_inputs="nope")  # type: ignore[arg-type]


def test_connection_pattern_disconnects() -> None:
    x = toy.vec(2, "x")
    k = TensorType("float64", ())("k")
    cost = toy.total(toy.Scale()(x, k))
    with pytest.raises(DisconnectedInputError, match="k"):
        grad(cost, k)
    np.testing.assert_allclose(run([x, k], grad(cost, x), np.zeros(2), 3.0), [3.0, 3.0])


def test_disconnected_grad_and_zero_grad_ops() -> None:
    x = toy.vec(2)
    with pytest.raises(DisconnectedInputError):
        grad(toy.total(disconnected_grad(toy.sin(x))), x)
    # zero_grad keeps the path connected, with a zero gradient.
    g = grad(toy.total(toy.add(zero_grad(toy.sin(x)), x)), x)
    np.testing.assert_allclose(run([x], g, np.array([1.0, 2.0])), [1.0, 1.0])
    xv = np.array([0.5, 1.0])
    np.testing.assert_allclose(run([x], zero_grad(toy.sin(x)), xv), np.sin(xv))


# -- undefined gradients -------------------------------------------------------


def test_undefined_gradient_raises_naming_the_op() -> None:
    x, y = toy.vec(2, "x"), toy.vec(2, "y")
    cost = toy.total(toy.add(toy.Kink()(x), y))
    with pytest.raises(NullTypeGradError, match=r"Kink.*kink at 0"):
        grad(cost, x)
    # The undefined gradient does not matter for y.
    np.testing.assert_allclose(run([x, y], grad(cost, y), np.ones(2), np.zeros(2)), [1.0, 1.0])
    gx = grad(cost, x, null_gradients="return")
    assert isinstance(gx.type, NullType)
    # It propagates through later ops, and wins over defined terms.
    cost2 = toy.total(toy.add(toy.sin(toy.Kink()(x)), toy.sin(x)))
    with pytest.raises(NullTypeGradError, match="Kink"):
        grad(cost2, x)
    with pytest.raises(NullTypeGradError, match="UndefinedGrad"):
        grad(toy.total(undefined_grad(x)), x)


# -- consider_constant and known_grads ----------------------------------------


def test_consider_constant() -> None:
    x = toy.vec(2)
    y = toy.sin(x)
    cost = toy.total(toy.add(toy.mul(y, y), x))
    g = grad(cost, x, consider_constant=[y])
    np.testing.assert_allclose(run([x], g, np.array([0.3, 0.7])), [1.0, 1.0])
    with pytest.raises(DisconnectedInputError):
        grad(toy.total(toy.mul(y, y)), x, consider_constant=[y])


def test_known_grads() -> None:
    x = toy.vec(3)
    y = toy.sin(x)
    v = toy.vec(3, "v")
    xv, vv = np.array([0.1, 0.2, 0.3]), np.array([1.0, -2.0, 5.0])
    g = grad(None, x, known_grads={y: v})
    np.testing.assert_allclose(run([x, v], g, xv, vv), vv * np.cos(xv))
    np.testing.assert_allclose(run([x, v], Lop(y, x, v), xv, vv), vv * np.cos(xv))
    # known_grads adds to what comes from the cost.
    g2 = grad(toy.total(y), x, known_grads={y: v})
    np.testing.assert_allclose(run([x, v], g2, xv, vv), (1 + vv) * np.cos(xv))
    # ...and replaces the cost's seed when given for the cost itself.
    c = toy.total(y)
    g3 = grad(c, x, known_grads={c: as_tensor_variable(2.0)})
    np.testing.assert_allclose(run([x], g3, xv), 2 * np.cos(xv))
    with pytest.raises(ValueError, match="dimensions"):
        grad(None, x, known_grads={y: as_tensor_variable(1.0)})


# -- integers ------------------------------------------------------------------


def test_integer_inputs_get_float_zeros() -> None:
    x = toy.vec(2)
    k = toy.vec(2, "k", dtype="int64")
    cost = toy.total(toy.mul(x, toy.ToFloat()(k)))
    gx, gk = grad(cost, [x, k])
    assert gk.type.dtype == "float64"
    xv, kv = np.array([1.0, 2.0]), np.array([3, 4])
    rx, rk = run([x, k], [gx, gk], xv, kv)
    np.testing.assert_allclose(rx, [3.0, 4.0])
    np.testing.assert_array_equal(rk, [0.0, 0.0])


def test_discrete_outputs_stop_gradients_without_calling_l_op() -> None:
    x = toy.vec(2)
    cost = toy.total(toy.ToFloat()(toy.Floor()(x)))
    g = grad(cost, x)  # Floor.L_op would raise if called
    np.testing.assert_array_equal(run([x], g, np.array([0.5, 1.5])), [0.0, 0.0])
    # An integer cost gives zero gradients too.
    gi = grad(toy.Floor()(toy.total(x)), x)
    np.testing.assert_array_equal(run([x], gi, np.array([0.5, 1.5])), [0.0, 0.0])


def test_float32_gradients_keep_their_dtype() -> None:
    x = toy.vec(2, dtype="float32")
    cost = toy.total(toy.ToFloat("float64")(toy.sin(x)))
    g = grad(cost, x)
    assert g.type.dtype == "float32"
    np.testing.assert_allclose(
        run([x], g, np.array([0.5, 1.0], "float32")), np.cos([0.5, 1.0]), rtol=1e-6
    )


# -- multi-output ops ----------------------------------------------------------


def test_multi_output_op_with_one_output_unused() -> None:
    x = toy.vec(3)
    s, c = toy.SinCos()(x)
    xv = np.array([0.1, 0.5, 2.0])
    np.testing.assert_allclose(run([x], grad(toy.total(s), x), xv), np.cos(xv))
    np.testing.assert_allclose(run([x], grad(toy.total(c), x), xv), -np.sin(xv))
    both = grad(toy.total(toy.add(s, c)), x)
    np.testing.assert_allclose(run([x], both, xv), np.cos(xv) - np.sin(xv))


# -- ill-behaved L_ops -----------------------------------------------------------


class BadLop(Op):
    __props__: ClassVar[tuple[str, ...]] = ("result",)

    def __init__(self, result: str) -> None:
        self.result = result

    def make_node(self, x: Any) -> Apply:
        return Apply(self, [x], [x.type()])

    def perform(self, node: Apply, inputs: Any, out: Any) -> None:
        out[0][0] = inputs[0]

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> Any:
        if self.result == "none":
            return [None]
        if self.result == "count":
            return []
        if self.result == "ndim":
            return [toy.total(grads[0])]
        return [toy.Floor()(grads[0])]


@pytest.mark.parametrize(
    ("result", "exc", "match"),
    [
        ("none", TypeError, "None is not allowed"),
        ("count", TypeError, "list of 1"),
        ("ndim", ValueError, "0 dimensions"),
        ("int", TypeError, "integer-valued"),
    ],
)
def test_bad_l_op_results_are_reported(result: str, exc: type, match: str) -> None:
    x = toy.vec(2)
    with pytest.raises(exc, match=match):
        grad(toy.total(BadLop(result)(x)), x)


# -- second order and long chains -------------------------------------------------


def test_grad_of_grad() -> None:
    x = toy.vec(3)
    y = toy.sin(x)
    g = grad(toy.total(toy.mul(y, y)), x)  # sin(2x)
    h = grad(toy.total(g), x)  # 2 cos(2x)
    xv = np.array([0.2, 1.0, -0.7])
    np.testing.assert_allclose(run([x], h, xv), 2 * np.cos(2 * xv))
    h3 = grad(toy.total(h), x)  # -4 sin(2x)
    np.testing.assert_allclose(run([x], h3, xv), -4 * np.sin(2 * xv))


class Negate(Op):
    """-x, kept cheap to build (the output reuses the input's type)."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        return Apply(self, [x], [x.type()])

    def perform(self, node: Apply, inputs: Any, out: Any) -> None:
        out[0][0] = -inputs[0]

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        return [self(grads[0])]


@pytest.mark.slow
def test_100k_node_chain_has_no_recursion_error() -> None:
    x = toy.vec(1)
    y = x
    negate = Negate()
    for _ in range(100_001):
        y = negate(y)
    g = grad(toy.total(y), x)
    assert float(run([x], g, np.array([2.0]))[0]) == -1.0  # an odd number of negations


# -- forward mode -----------------------------------------------------------------


def test_rop_matches_manual_jvp() -> None:
    x, v = toy.vec(3, "x"), toy.vec(3, "v")
    y = toy.mul(toy.sin(x), x)
    xv, vv = np.array([0.3, 1.0, 2.0]), np.array([1.0, -1.0, 0.5])
    expected = vv * (np.cos(xv) * xv + np.sin(xv))
    for method in ("r_op", "auto", "lop"):
        jvp = Rop(y, x, v, method=method)  # type: ignore[arg-type]
        np.testing.assert_allclose(run([x, v], jvp, xv, vv), expected, err_msg=method)


def test_rop_falls_back_to_double_lop() -> None:
    x, v = toy.vec(2, "x"), toy.vec(2, "v")
    y = toy.sin(toy.NoRop()(x))
    xv, vv = np.array([0.5, -1.0]), np.array([2.0, 3.0])
    expected = np.cos(xv**2) * 2 * xv * vv
    np.testing.assert_allclose(run([x, v], Rop(y, x, v), xv, vv), expected)
    with pytest.raises(NotImplementedError, match="NoRop"):
        Rop(y, x, v, method="r_op")


def test_rop_multiple_outputs_and_disconnected() -> None:
    x, y = toy.vec(2, "x"), toy.vec(2, "y")
    vx, vy = toy.vec(2, "vx"), toy.vec(2, "vy")
    s, _ = toy.SinCos()(x)
    outs = Rop([s, toy.mul(x, y)], [x, y], [vx, vy])
    assert isinstance(outs, list) and len(outs) == 2
    xv, yv, a, b = (np.array(t) for t in ([0.2, 0.4], [1.0, 2.0], [1.0, 0.0], [0.0, 1.0]))
    r1, r2 = run([x, y, vx, vy], outs, xv, yv, a, b)
    np.testing.assert_allclose(r1, np.cos(xv) * a)
    np.testing.assert_allclose(r2, a * yv + xv * b)
    z = toy.vec(2, "z")
    with pytest.raises(DisconnectedInputError):
        Rop(toy.sin(z), x, vx)
    zero = Rop(toy.sin(z), x, vx, disconnected_outputs="ignore")
    np.testing.assert_array_equal(run([z], zero, xv), [0.0, 0.0])


# -- verify_grad / verify_rop ------------------------------------------------------


def test_verify_grad_passes_on_correct_gradients() -> None:
    verify_grad(lambda x: toy.exp(toy.sin(x)), [RNG.standard_normal(4)])
    verify_grad(lambda x, y: toy.mul(toy.sin(x), y), [RNG.standard_normal(3)] * 2)
    verify_grad(lambda x: toy.SinCos()(x)[1], [RNG.standard_normal(3)])
    verify_grad(lambda x: toy.exp(x), [RNG.standard_normal(3).astype("float32")])


class WrongGrad(toy.Unary):
    """sin with a gradient that is wrong at index 2 only."""

    def __init__(self) -> None:
        super().__init__("sin")

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        mask = np.ones(inputs[0].type.shape)
        mask[2] = 1.5
        return [toy.mul(toy.mul(grads[0], toy.cos(inputs[0])), as_tensor_variable(mask))]


def test_verify_grad_reports_input_and_position() -> None:
    with pytest.raises(GradientError, match=r"input 1.*index \(2,\)") as info:
        verify_grad(lambda x, y: toy.add(x, WrongGrad()(y)), [np.ones(4), np.ones(4)])
    assert info.value.arg == 1 and info.value.err_pos == 2
    assert isinstance(info.value, AssertionError)


def test_verify_grad_directional_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verify_module, "MAX_ELEMENTWISE", 2)
    verify_grad(lambda x: toy.sin(x), [RNG.standard_normal(5)])
    with pytest.raises(GradientError, match="random direction"):
        verify_grad(lambda x: WrongGrad()(x), [np.ones(5)])


def test_verify_grad_rejects_integer_points() -> None:
    with pytest.raises(TypeError, match="float32/float64"):
        verify_grad(toy.sin, [np.arange(3)])


def test_verify_rop() -> None:
    verify_rop(lambda x, y: toy.mul(toy.sin(x), y), [RNG.standard_normal(3)] * 2)
    verify_rop(lambda x: toy.sin(toy.NoRop()(x)), [RNG.standard_normal(3)], method="auto")


class WrongRop(toy.Unary):
    def __init__(self) -> None:
        super().__init__("sin")

    def R_op(self, inputs: Any, eval_points: Any) -> list[Any]:
        return [eval_points[0]]


def test_verify_rop_reports_mismatch() -> None:
    with pytest.raises(GradientError, match="R_op"):
        verify_rop(lambda x: WrongRop()(x), [np.array([1.0, 2.0])])


def test_numeric_grad() -> None:
    (g,) = numeric_grad(lambda x: float(np.sum(np.sin(x))), [np.array([0.1, 0.2])])
    np.testing.assert_allclose(g, np.cos([0.1, 0.2]), rtol=1e-7)


class IndexLike(Op):
    """``x * k`` where the integer ``k`` (an index, say) has an undefined gradient."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any, k: Any) -> Apply:
        return Apply(self, [x, k], [x.type()])

    def perform(self, node: Apply, inputs: Any, out: Any) -> None:
        out[0][0] = inputs[0] * inputs[1]

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        k = inputs[1]
        return [toy.mul(grads[0], toy.ToFloat()(k)), toy.grad_undefined(self, 1, k)]


def test_undefined_gradient_of_an_integer_does_not_poison_its_inputs() -> None:
    x = toy.vec(2)
    k = toy.Floor()(toy.exp(x))
    g = grad(toy.total(toy.add(IndexLike()(x, k), x)), x)
    xv = np.array([0.5, 1.5])
    np.testing.assert_allclose(run([x], g, xv), np.floor(np.exp(xv)) + 1)


def test_gradient_marker_ops_have_zero_forward_derivative() -> None:
    x, v = toy.vec(2, "x"), toy.vec(2, "v")
    for marker in (zero_grad, disconnected_grad):
        jvp = Rop(toy.add(marker(toy.sin(x)), x), x, v)
        np.testing.assert_allclose(run([x, v], jvp, np.ones(2), np.array([2.0, 3.0])), [2.0, 3.0])


# -- random graphs ------------------------------------------------------------------

_STEP = st.tuples(
    st.sampled_from(["sin", "cos", "neg", "add", "mul", "sincos"]),
    st.integers(0, 50),
    st.integers(0, 50),
)


def _random_graph(program: list[tuple[str, int, int]]) -> Any:
    """A function of two inputs built from ``program``: each step applies an op to
    earlier values (shared subexpressions, fan-out, multi-output nodes)."""

    def fn(x: Any, y: Any) -> Any:
        values = [x, y]
        for name, a, b in program:
            u, v = values[a % len(values)], values[b % len(values)]
            if name in ("add", "mul"):
                values.append(toy.Binary(name)(u, v))
            elif name == "sincos":
                values.extend(toy.SinCos()(u))
            else:
                values.append(toy.Unary(name)(u))
        return toy.add(values[-1], values[-2])

    return fn


@settings(max_examples=25, deadline=None)
@given(st.lists(_STEP, min_size=1, max_size=12), st.integers(0, 2**16))
def test_random_graphs_match_finite_differences(program: list[Any], seed: int) -> None:
    rng = np.random.default_rng(seed)
    point = [rng.uniform(-1, 1, 3), rng.uniform(-1, 1, 3)]
    fn = _random_graph(program)
    verify_grad(fn, point, n_tests=1)
    verify_rop(fn, point, n_tests=1)
    verify_rop(fn, point, n_tests=1, method="lop")


def test_verify_grad_and_rop_handle_large_values() -> None:
    # An absolute step of 1e-7 is below the spacing of floats near 1e9: the check
    # must scale its steps (and never divide by a zero step).
    point = [np.array([1.07e9, 262144.0, 1e300, -3.0])]
    verify_grad(lambda x: toy.neg(x), point)
    verify_rop(lambda x: toy.neg(x), point)
    verify_grad(lambda x: toy.sin(x), [np.array([1e6, 2.5])])


class ReusingSin(toy.Unary):
    """sin writing into the previous call's output buffer, as compiled code may."""

    def __init__(self) -> None:
        super().__init__("sin")

    def perform(self, node: Apply, inputs: Any, out: Any) -> None:
        old = out[0][0]
        if isinstance(old, np.ndarray) and old.shape == inputs[0].shape:
            np.sin(inputs[0], out=old)
        else:
            out[0][0] = np.sin(inputs[0])


def test_verify_functions_copy_reused_output_buffers() -> None:
    point = [np.array([0.3, -1.2, 2.0])]
    verify_grad(lambda x: ReusingSin()(x), point)
    verify_rop(lambda x: ReusingSin()(x), point)
    monkeypatch = pytest.MonkeyPatch()
    with monkeypatch.context() as m:
        m.setattr(verify_module, "MAX_ELEMENTWISE", 1)
        verify_grad(lambda x: ReusingSin()(x), point)


def test_verify_grad_with_infinite_values() -> None:
    # The output's first element is -inf and does not depend on x[1]: the finite
    # difference for x[1] must not become inf - inf = NaN; x[0] has no numeric
    # derivative and is skipped.
    verify_grad(lambda x: toy.neg(x), [np.array([np.inf, 2.0])])
    verify_grad(lambda x: toy.neg(x), [np.array([np.inf, 2.0])], static_shape=False)
    # An infinite symbolic gradient against a finite numeric one is an error.
    with pytest.raises(GradientError, match="abs error inf"):
        verify_module._compare(np.array([np.inf]), np.array([1.0]), 1e-4, 1e-4, 0, "gradient")


def test_rop_through_an_undefined_derivative_raises() -> None:
    x, v = toy.vec(2, "x"), toy.vec(2, "v")
    with pytest.raises(NullTypeGradError, match="UndefinedGrad"):
        Rop(toy.sin(undefined_grad(x)), x, v)

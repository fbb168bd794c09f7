"""The Elemwise Op itself: Composite (fusion's scalar subgraphs), op identity
(props), inplace outputs, symbolic ``infer_shape`` and the internal SumToShape."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from lazygraph.gradient import verify_grad, verify_rop
from lazygraph.tensor.elemwise import Elemwise, SumToShape
from lazygraph.tensor.scalar import Composite, ScalarOp, ScalarType, scalar_op
from tests.tensor.harness import FLOATS, OpCase, assert_numpy_equal, check_case, run
from tests.tensor.test_elemwise import nary_inputs, same_dtype_inputs


def _scalars(*dtypes: str) -> list[Any]:
    return [ScalarType(d)(f"s{i}") for i, d in enumerate(dtypes)]


def test_scalar_ops_are_value_like() -> None:
    assert ScalarOp("add") == scalar_op("add")
    assert hash(ScalarOp("round", (2,))) == hash(scalar_op("round", 2))
    assert ScalarOp("round", (1,)) != ScalarOp("round", (2,))
    assert Elemwise(scalar_op("exp")) == Elemwise(scalar_op("exp"))
    assert Elemwise(scalar_op("exp")) != Elemwise(scalar_op("exp"), {0: 0})
    with pytest.raises(ValueError, match="no scalar op"):
        ScalarOp("no_such_function")


def test_scalar_graph_make_node_follows_the_rules() -> None:
    (x,) = _scalars("int8")
    assert scalar_op("add")(x, 1).type.dtype == "int8"
    assert scalar_op("exp")(x).type.dtype == "float32"
    with pytest.raises(OverflowError):
        scalar_op("add")(x, 1000)
    with pytest.raises(TypeError):
        scalar_op("bitwise_and")(scalar_op("exp")(x), x)


def _composite(dtype: str) -> Composite:
    """Two outputs sharing a subexpression, with a constant and a comparison."""
    x, y = _scalars(dtype, dtype)
    e = scalar_op("exp")(scalar_op("negative")(x))
    s = scalar_op("add")(scalar_op("multiply")(e, y), 0.5)
    w = scalar_op("where")(scalar_op("less")(x, y), s, e)
    return Composite([x, y], [s, w])


def _composite_reference(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    e = np.exp(-x)
    s = e * y + np.asarray(0.5, x.dtype)
    return s, np.where(x < y, s, e)


def test_composite_identity_and_name() -> None:
    assert _composite("float64") == _composite("float64")
    assert hash(_composite("float64")) == hash(_composite("float64"))
    assert _composite("float64") != _composite("float32")
    assert "exp(negative(i0))" in str(_composite("float64"))
    with pytest.raises(TypeError, match="input dtypes"):
        Elemwise(_composite("float64"))(lt.fvector(), lt.fvector())


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_composite_matches_numpy(data: st.DataObject) -> None:
    a, b = data.draw(same_dtype_inputs(2, FLOATS), label="inputs")
    op = Elemwise(_composite(a.dtype.name))
    x, y = lt.tensor(a.dtype, a.shape), lt.tensor(b.dtype, b.shape)
    outs = op(x, y)
    with np.errstate(all="ignore"):
        expected = _composite_reference(a, b)
        got = run([x, y], outs, [a, b])
    for g, e in zip(got, expected, strict=True):
        assert_numpy_equal(g, e)


def test_nested_composite_and_output_that_is_an_input() -> None:
    x, y = _scalars("float64", "float64")
    inner = Composite([x, y], [scalar_op("multiply")(x, y)])
    a, b = _scalars("float64", "float64")
    outer = Composite([a, b], [inner(scalar_op("sin")(a), b), a])
    va, vb = np.array([0.5, 1.0]), np.array(2.0)
    got = outer.impl([va, vb], ["float64", "float64"])
    np.testing.assert_allclose(got[0], np.sin(va) * vb)
    assert got[1] is not va and np.array_equal(got[1], va)


def test_composite_gradients() -> None:
    op = Elemwise(_composite("float64"))
    rng = np.random.default_rng(0)
    point = [rng.uniform(-1, 1, (3, 1)), rng.uniform(-1, 1, (4,))]
    for k in range(2):
        verify_grad(lambda x, y, k=k: op(x, y)[k], point, rng=1)
        verify_rop(lambda x, y, k=k: op(x, y)[k], point, rng=1)
    verify_grad(lambda x, y: op(x, y)[0] * op(x, y)[1], point, rng=2)


def test_inplace_pattern_overwrites_the_input() -> None:
    op = Elemwise(scalar_op("exp"), {0: 0})
    assert op.destroy_map == {0: [0]}
    x = lt.dvector("x")
    node = op.make_node(x)
    data = np.array([0.0, 1.0])
    storage = [[None]]
    op.perform(node, [data], storage)
    assert storage[0][0] is data
    np.testing.assert_allclose(data, np.exp([0.0, 1.0]))
    with pytest.raises(TypeError, match="cannot overwrite"):
        Elemwise(scalar_op("exp"), {0: 0})(lt.lvector())  # int64 input, float64 output
    with pytest.raises(TypeError, match="cannot overwrite"):
        Elemwise(scalar_op("add"), {0: 0})(lt.dvector(), lt.dmatrix())  # output is larger


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_symbolic_infer_shape_with_unknown_sizes(data: st.DataObject) -> None:
    """infer_shape from symbolic input shapes (sizes unknown, 1s broadcasting)."""
    values = data.draw(nary_inputs(3, FLOATS), label="inputs")
    variables = [lt.tensor(v.dtype, (None,) * v.ndim) for v in values]
    out = lt.where(lt.greater(variables[0], 0), variables[1], variables[2])
    node = out.owner
    in_shapes = [tuple(lt.shape(v)[k] for k in range(v.ndim)) for v in node.inputs]
    (shape,) = node.op.infer_shape(None, node, in_shapes)
    with np.errstate(all="ignore"):
        expected = np.broadcast_shapes(*(v.shape for v in values))
    got = tuple(int(s) if isinstance(s, int) else int(run(variables, s, values)) for s in shape)
    assert got == expected


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_sum_to_shape(data: st.DataObject) -> None:
    g, x = data.draw(nary_inputs(2, ("float64",)), label="inputs")
    shape = np.broadcast_shapes(g.shape, x.shape)
    g = np.broadcast_to(g, shape).copy()

    def reference(gv: np.ndarray, xv: np.ndarray) -> np.ndarray:
        lead = gv.ndim - xv.ndim
        axes = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(xv.shape) if n == 1 and gv.shape[lead + i] != 1
        )
        return gv.sum(axis=axes).reshape(xv.shape)

    check_case(OpCase("sum_to_shape", SumToShape(), reference, st.nothing()), [g, x])
    check_case(
        OpCase("sum_to_shape", SumToShape(), reference, st.nothing(), static_shape=False),
        [g, x],
    )

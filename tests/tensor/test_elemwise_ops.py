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


_CHAIN_OPS = ["add", "multiply", "subtract", "maximum", "exp", "negative", "sqrt", "less"]


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_composite_writes_into_dead_temporaries_with_the_same_values(data: st.DataObject) -> None:
    """impl writes a plain ufunc's result into an intermediate no later node
    reads (numpy's temporary elision): values, dtypes and shapes are those of
    evaluating every inner node into a new array, the inputs are untouched, and
    no output shares memory with an input or another output."""
    dtype = data.draw(st.sampled_from(["float64", "float32", "int64"]))
    ins = _scalars(dtype, dtype, dtype)
    pool: list[Any] = list(ins)
    for _ in range(data.draw(st.integers(1, 8))):
        name = data.draw(st.sampled_from(_CHAIN_OPS))
        a = data.draw(st.sampled_from(pool))
        op = scalar_op(name)
        operands = [a]
        if op.nin == 2:
            operands.append(data.draw(st.one_of(st.sampled_from(pool), st.sampled_from([0.5, 2]))))
        try:
            pool.append(op(*operands))
        except TypeError:  # (negative of a bool) numpy has no such loop either
            continue
    outs = data.draw(st.lists(st.sampled_from(pool[3:]), min_size=1, max_size=2, unique=True))
    comp = Composite(ins, outs)
    shapes = [data.draw(st.sampled_from([(4,), (3, 4), (1, 4), ()])) for _ in ins]
    values = [np.arange(1, 1 + int(np.prod(sh)), dtype=dtype).reshape(sh) * 0.75 ** k
              if dtype != "int64" else np.arange(int(np.prod(sh))).reshape(sh) - k
              for k, sh in enumerate(shapes)]  # fmt: skip
    copies = [v.copy() for v in values]
    # the reference: every inner node through its own impl, into a new array
    env: dict[Any, Any] = dict(zip(comp.inputs, copies, strict=True))
    for node in comp.nodes:
        args = [v.data if hasattr(v, "data") else env[v] for v in node.inputs]
        (env[node.outputs[0]],) = node.op.impl(args, [node.outputs[0].type.dtype])
    want = [np.asarray(env[v]) for v in comp.outputs]
    got = comp.impl(values, comp.out_dtypes)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)
    for v, c in zip(values, copies, strict=True):
        np.testing.assert_array_equal(v, c)  # inputs untouched
    for i, g in enumerate(got):
        assert not any(np.shares_memory(g, v) for v in values)
        assert not any(np.shares_memory(g, h) for h in got[i + 1 :])


def test_composite_chains_reuse_their_temporaries() -> None:
    x, y, z = _scalars("float64", "float64", "float64")
    chain = scalar_op("multiply")(scalar_op("add")(scalar_op("exp")(x), y), z)
    comp = Composite([x, y, z], [chain])
    assert [reuse is not None for reuse, _ in comp._steps] == [False, True, True]
    a = np.linspace(0.0, 1.0, 6).reshape(2, 3)
    got = comp.impl([a, a[0], np.float64(2.0) * np.ones(())], ["float64"])[0]
    np.testing.assert_array_equal(got, (np.exp(a) + a[0]) * 2.0)


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

"""DimShuffle and its functions (transpose, permute_dims, matrix_transpose,
expand_dims, squeeze, swapaxes, moveaxis) against numpy: values, views, shapes,
numpy's exception types for bad axes, and gradients."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from lazygraph.gradient import grad, verify_grad, verify_rop
from tests.tensor.harness import ALL, OpCase, check_case
from tests.tensor.test_elemwise import noncontiguous


@dataclass
class AxisCase:
    """A function taking an array and axis parameters drawn from ``params(ndim)``."""

    name: str
    build: Any
    reference: Any
    params: Any  # ndim -> strategy of a tuple of extra arguments


def axis(ndim: int, extra: int = 1) -> st.SearchStrategy[int]:
    """Valid and invalid (out of range by up to ``extra``) axes for ``ndim`` dims."""
    return st.integers(-ndim - extra, ndim - 1 + extra)


def axes(ndim: int, max_size: int = 3) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(axis(ndim), max_size=max_size).map(tuple)


def permutation(ndim: int) -> st.SearchStrategy[Any]:
    valid = st.permutations(range(ndim)).map(tuple)
    negative = valid.map(lambda p: tuple(a - ndim if a % 2 else a for a in p))
    return st.one_of(valid, negative, axes(ndim, max_size=ndim + 1), st.none())


TABLE = [
    AxisCase("transpose", lt.transpose, np.transpose, lambda n: st.tuples(permutation(n))),
    AxisCase(
        "permute_dims",
        lt.permute_dims,
        np.permute_dims,
        lambda n: st.tuples(st.permutations(range(n)).map(tuple)),
    ),
    AxisCase("matrix_transpose", lt.matrix_transpose, np.matrix_transpose, lambda n: st.just(())),
    AxisCase(
        "expand_dims",
        lt.expand_dims,
        np.expand_dims,
        lambda n: st.tuples(st.one_of(axis(n + 1), axes(n + 2))),
    ),
    AxisCase(
        "squeeze",
        lt.squeeze,
        np.squeeze,
        lambda n: st.tuples(st.one_of(st.none(), axis(n), axes(n))),
    ),
    AxisCase("swapaxes", lt.swapaxes, np.swapaxes, lambda n: st.tuples(axis(n), axis(n))),
    AxisCase(
        "moveaxis",
        lt.moveaxis,
        np.moveaxis,
        lambda n: st.one_of(st.tuples(axis(n), axis(n)), st.tuples(axes(n), axes(n))),
    ),
]


def _array_with_unit_dims() -> st.SearchStrategy[np.ndarray]:
    """Arrays whose shapes often have size-1 axes (what squeeze and drops need)."""
    shape = st.lists(st.sampled_from([0, 1, 1, 2, 3]), max_size=4).map(tuple)
    return st.tuples(st.sampled_from(ALL), shape).flatmap(lambda ds: noncontiguous(*ds))


@pytest.mark.parametrize("case", TABLE, ids=lambda c: c.name)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_matches_numpy(case: AxisCase, data: st.DataObject) -> None:
    value = data.draw(_array_with_unit_dims(), label="x")
    params = data.draw(case.params(value.ndim), label="params")
    static = data.draw(st.booleans(), label="static_shape")
    op_case = OpCase(
        case.name,
        lambda x: case.build(x, *params),
        lambda x: case.reference(x, *params),
        st.nothing(),
        signed_zeros=True,
        static_shape=static,
    )
    check_case(op_case, [value])


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_dimshuffle_matches_numpy_view(data: st.DataObject) -> None:
    value = data.draw(_array_with_unit_dims(), label="x")
    kept = data.draw(
        st.permutations([i for i in range(value.ndim) if value.shape[i] != 1]), label="kept"
    )
    ones = [i for i in range(value.ndim) if value.shape[i] == 1]
    kept = (
        kept + data.draw(st.lists(st.sampled_from(ones), unique=True), label="keep")
        if ones
        else kept
    )
    order = list(kept)
    for _ in range(data.draw(st.integers(0, 2), label="new axes")):
        order.insert(data.draw(st.integers(0, len(order)), label="where"), "x")

    def reference(x: np.ndarray) -> np.ndarray:
        dropped = tuple(i for i in range(x.ndim) if i not in order)
        y = np.squeeze(x, dropped).transpose(
            [i - sum(d < i for d in dropped) for i in order if i != "x"]
        )
        return np.expand_dims(y, tuple(k for k, o in enumerate(order) if o == "x"))

    check_case(
        OpCase("dimshuffle", lambda x: lt.dimshuffle(x, order), reference, st.nothing()), [value]
    )


def test_dimshuffle_output_is_a_view() -> None:
    op = lt.DimShuffle(2, (1, "x", 0))
    assert op.view_map == {0: [0]}
    x = lt.dmatrix("x")
    node = op.make_node(x)
    storage = [[None]]
    data = np.arange(6.0).reshape(2, 3)
    op.perform(node, [data], storage)
    assert np.shares_memory(storage[0][0], data)
    np.testing.assert_array_equal(storage[0][0], data.T[:, None, :])


def test_dropping_a_known_non_unit_axis_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"size 3"):
        lt.DimShuffle(2, (0,))(lt.tensor("float64", (2, 3)))
    with pytest.raises(ValueError, match="squeeze"):
        lt.squeeze(lt.tensor("float64", (2, 3)), 1)


def test_dropping_an_unknown_axis_is_checked_when_computed() -> None:
    x = lt.dmatrix("x")
    y = lt.squeeze(x, 1)
    assert y.type.shape == (None,)
    np.testing.assert_array_equal(y.eval({x: np.ones((2, 1))}), np.ones(2))
    with pytest.raises(ValueError):
        y.eval({x: np.ones((2, 3))})


def test_invalid_orders_are_rejected() -> None:
    with pytest.raises(ValueError):
        lt.DimShuffle(2, (0, 0))
    with pytest.raises(ValueError):
        lt.DimShuffle(2, (0, 2))


def test_static_shapes() -> None:
    x = lt.tensor("int8", (2, None, 1))
    assert lt.transpose(x).type.shape == (1, None, 2)
    assert lt.expand_dims(x, -1).type.shape == (2, None, 1, 1)
    assert lt.squeeze(x).type.shape == (2, None)
    assert lt.moveaxis(x, 0, -1).type.shape == (None, 1, 2)
    assert lt.dimshuffle(x, (0, 1, 2)) is x


GRAD_CASES = [
    lambda x: lt.transpose(x),
    lambda x: lt.transpose(x, (1, 0, 2)) * 2.0,
    lambda x: lt.expand_dims(x, (0, -1)),
    lambda x: lt.squeeze(x, 2),
    lambda x: lt.moveaxis(x, 0, -1),
    lambda x: lt.swapaxes(x, 0, 1),
    lambda x: lt.dimshuffle(x, ("x", 1, 0)),
    lambda x: lt.matrix_transpose(x) * lt.exp(lt.matrix_transpose(x)),
]


@pytest.mark.parametrize("static_shape", [True, False])
@pytest.mark.parametrize("k", range(len(GRAD_CASES)))
def test_verify_grad(k: int, static_shape: bool) -> None:
    fn = GRAD_CASES[k]
    rng = np.random.default_rng(k)
    point = rng.uniform(-1, 1, (2, 3, 1)) if k in (3, 6) else rng.uniform(-1, 1, (2, 3, 4))
    if k == 6:
        point = point[..., 0]
    verify_grad(fn, [point], rng=k, static_shape=static_shape)
    verify_rop(fn, [point], rng=k, static_shape=static_shape)


def test_second_order_through_transpose() -> None:
    def first(x: Any) -> Any:
        return lt.sum(grad(lt.sum(lt.tanh(lt.transpose(x)) * lt.expand_dims(x, 0)), x))

    verify_grad(first, [np.random.default_rng(0).uniform(-1, 1, (3, 3))], rng=0)


def test_integer_input_has_no_gradient() -> None:
    x = lt.lvector("x")
    y = lt.dvector("y")
    cost = lt.sum(lt.expand_dims(x, 0) * y)
    g = grad(cost, x)
    np.testing.assert_array_equal(g.eval({x: np.array([1, 2]), y: np.array([3.0, 4.0])}), [0, 0])


def test_shape_of_empty_and_0d() -> None:
    check_case(
        OpCase(
            "expand0d", lambda x: lt.expand_dims(x, 0), lambda x: np.expand_dims(x, 0), st.nothing()
        ),
        [np.array(3.5)],
    )
    check_case(
        OpCase("transpose-empty", lt.transpose, np.transpose, st.nothing()),
        [np.zeros((0, 2, 1))],
    )

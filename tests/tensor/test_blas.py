"""Products of arrays against numpy: one table of rows (matmul, dot, tensordot,
vecdot, outer, einsum, diagonal, trace, cross) run on hypothesis inputs over
every dtype pair, broadcasting batch shapes, 1-d operands, empty sizes (k = 0
gives zeros), NaN/inf and integer wrapping; then verify_grad (first and second
order), verify_rop and the eager errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from lazygraph.gradient import grad, verify_grad, verify_rop
from tests.tensor.harness import ALL, OpCase, arrays, broadcast_shapes, check_case

RNG = np.random.default_rng(7)
NUMERIC = tuple(d for d in ALL if d != "bool")


def _arr(dtype: str, shape: Any, finite: bool) -> st.SearchStrategy[np.ndarray]:
    # Products summed in another order than numpy's can overflow differently at
    # the float limits: rows that do not call numpy's own function get small values.
    if finite and np.dtype(dtype).kind in "fc":
        return arrays(dtype, shape, min_value=-100, max_value=100)
    if finite and np.dtype(dtype).kind in "iu":
        return arrays(dtype, shape, min_value=-100, max_value=100)
    return arrays(dtype, shape)


@st.composite
def matmul_inputs(draw: st.DrawFn, finite: bool = False) -> tuple[np.ndarray, np.ndarray]:
    da, db = draw(st.sampled_from(ALL)), draw(st.sampled_from(ALL))
    ba, bb = draw(broadcast_shapes(2, max_dims=2))
    n, k, m = (draw(st.integers(0, 3)) for _ in range(3))
    # Now and then a mismatched inner size: numpy's ValueError must match.
    kb = draw(st.sampled_from([k, k, k, k, k + 1]))
    sa = (k,) if draw(st.booleans()) and not ba else (*ba, n, k)
    sb = (kb,) if draw(st.booleans()) and not bb else (*bb, kb, m)
    return draw(_arr(da, sa, finite)), draw(_arr(db, sb, finite))


@st.composite
def dot_inputs(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    da, db = draw(st.sampled_from(ALL)), draw(st.sampled_from(ALL))
    k = draw(st.integers(0, 3))
    na, nb = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    sa = tuple(draw(st.integers(1, 2)) for _ in range(max(na - 1, 0))) + ((k,) if na else ())
    if nb == 0:
        sb: tuple[int, ...] = ()
    elif nb == 1:
        sb = (draw(st.sampled_from([k, k, k + 1])),)
    else:
        sb = (*(draw(st.integers(1, 2)) for _ in range(nb - 2)), k, draw(st.integers(0, 2)))
    return draw(_arr(da, sa, True)), draw(_arr(db, sb, True))


@st.composite
def pair(draw: st.DrawFn, sa: tuple[int, ...], sb: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    da, db = draw(st.sampled_from(ALL)), draw(st.sampled_from(ALL))
    return draw(_arr(da, sa, True)), draw(_arr(db, sb, True))


@st.composite
def vecdot_inputs(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    sa, sb = draw(broadcast_shapes(2, min_dims=1, max_dims=3))
    n = draw(st.integers(0, 3))
    sa, sb = (*sa[:-1], n), (*sb[:-1], n)
    return draw(pair(sa, sb))


@st.composite
def one_array(draw: st.DrawFn, min_dims: int = 2, dtypes: tuple[str, ...] = ALL) -> tuple:
    dt = draw(st.sampled_from(dtypes))
    nd = draw(st.integers(min_dims, 3))
    shape = tuple(draw(st.integers(0, 3)) for _ in range(nd))
    return (draw(arrays(dt, shape)),)


@st.composite
def cross_inputs(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    sa, sb = draw(broadcast_shapes(2, min_dims=0, max_dims=2))
    return draw(pair((*sa, 3), (*sb, 3)))


def einsum_row(subscripts: str, shapes: Callable[[st.DrawFn], tuple]) -> OpCase:
    @st.composite
    def inputs(draw: st.DrawFn) -> tuple:
        return tuple(draw(_arr(draw(st.sampled_from(ALL)), s, True)) for s in shapes(draw))

    return OpCase(
        f"einsum[{subscripts}]",
        lambda *xs: lt.einsum(subscripts, *xs),
        lambda *xs: np.einsum(subscripts, *xs),
        inputs(),
        rtol=1e-4,
        atol=1e-3,
    )


def _size(draw: st.DrawFn) -> int:
    return draw(st.integers(0, 3))


def _batch_pair(draw: st.DrawFn) -> tuple:
    ba, bb = draw(broadcast_shapes(2, max_dims=2))
    i, j, k = _size(draw), _size(draw), _size(draw)
    return (*ba, i, j), (*bb, j, k)


#: sums of complex products: where they overflow, only that they are infinite
#: is compared (see harness.assert_numpy_equal's complex_infinities)
SUMS = {"complex_infinities": True}

TABLE = [
    OpCase("matmul", lt.matmul, np.matmul, matmul_inputs(), extra=SUMS),
    OpCase(
        "matmul_unknown_sizes",
        lt.matmul,
        np.matmul,
        matmul_inputs(),
        static_shape=False,
        extra=SUMS,
    ),
    OpCase("dot", lt.dot, np.dot, dot_inputs(), rtol=1e-4, atol=1e-3, extra=SUMS),
    OpCase(
        "tensordot_2",
        lt.tensordot,
        np.tensordot,
        pair((2, 3, 4), (3, 4, 2)),
        rtol=1e-4,
        atol=1e-3,
        extra=SUMS,
    ),
    OpCase(
        "tensordot_axes",
        lambda a, b: lt.tensordot(a, b, axes=([0, 2], [1, 0])),
        lambda a, b: np.tensordot(a, b, axes=([0, 2], [1, 0])),
        pair((2, 0, 3), (3, 2)),
        static_shape=False,
        extra=SUMS,
    ),
    OpCase(
        "tensordot_0",
        lambda a, b: lt.tensordot(a, b, axes=0),
        lambda a, b: np.tensordot(a, b, axes=0),
        pair((2,), (3, 1)),
    ),
    OpCase("vecdot", lt.vecdot, np.vecdot, vecdot_inputs(), rtol=1e-4, atol=1e-3, extra=SUMS),
    OpCase(
        "vecdot_axis0",
        lambda a, b: lt.vecdot(a, b, axis=0),
        lambda a, b: np.vecdot(a, b, axis=0),
        pair((3, 2), (3, 1)),
        rtol=1e-4,
        atol=1e-3,
        extra=SUMS,
    ),
    OpCase("outer", lt.outer, np.outer, pair((2, 2), (3,)), rtol=1e-4, atol=1e-3),
    einsum_row("ij,jk->ik", _batch_pair),
    einsum_row("...ij,...jk", _batch_pair),
    einsum_row("ii->i", lambda d: ((_size(d),) * 2,)),
    einsum_row("ii", lambda d: ((_size(d),) * 2,)),
    einsum_row("i,i->i", lambda d: ((_size(d),), (d(st.sampled_from([1, 3])),))),
    einsum_row("ijk->kj", lambda d: ((2, _size(d), 3),)),
    einsum_row("i...,j->ij...", lambda d: ((2, _size(d), 1), (_size(d),))),
    OpCase("diagonal", lt.diagonal, np.diagonal, one_array()),
    OpCase(
        "diagonal_offset",
        lambda x: lt.diagonal(x, offset=-1, axis1=-1, axis2=0),
        lambda x: np.diagonal(x, offset=-1, axis1=-1, axis2=0),
        one_array(),
        static_shape=False,
    ),
    OpCase("trace", lt.trace, np.trace, one_array()),
    OpCase(
        "trace_offset",
        lambda x: lt.trace(x, offset=1, axis1=1, axis2=-1),
        lambda x: np.trace(x, offset=1, axis1=1, axis2=-1),
        one_array(min_dims=3),
    ),
    OpCase("cross", lt.cross, np.cross, cross_inputs(), rtol=1e-4, atol=1e-3),
]


@pytest.mark.parametrize("case", TABLE, ids=lambda c: c.name)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_matches_numpy(case: OpCase, data: st.DataObject) -> None:
    values = data.draw(case.inputs, label="inputs")
    check_case(case, values)


def test_empty_inner_dimension_gives_zeros() -> None:
    a, b = lt.tensor("int8", (2, 0)), lt.tensor("float32", (0, 3))
    out = lt.matmul(a, b)
    assert out.type.shape == (2, 3)
    got = out.eval({a: np.zeros((2, 0), "int8"), b: np.zeros((0, 3), "float32")})
    np.testing.assert_array_equal(got, np.matmul(np.zeros((2, 0), "int8"), np.zeros((0, 3), "f")))


def test_static_shapes() -> None:
    assert lt.matmul(lt.tensor("float64", (5, 1, 2, 3)), lt.tensor("float64", (4, 3, 6))).type == (
        lt.TensorType("float64", (5, 4, 2, 6))
    )
    assert lt.matmul(lt.tensor("int8", (3,)), lt.tensor("uint8", (2, 3, 4))).type == (
        lt.TensorType("int16", (2, 4))
    )
    assert lt.einsum("ij,jk", lt.dmatrix(), lt.tensor("float32", (3, 4))).type.shape == (None, 4)
    assert lt.diagonal(lt.tensor("float64", (2, 5, 3)), 1, 1, 2).type.shape == (2, 2)


# -- gradients ------------------------------------------------------------------

GRAD_CASES: list[tuple[str, Callable[..., Any], list[tuple[int, ...]]]] = [
    ("matmul", lt.matmul, [(2, 3, 4), (4, 5)]),
    ("matmul_batch_broadcast", lt.matmul, [(2, 1, 3, 4), (3, 4, 2)]),
    ("matmul_vec_mat", lt.matmul, [(4,), (2, 4, 3)]),
    ("matmul_mat_vec", lt.matmul, [(2, 3, 4), (4,)]),
    ("matmul_vec_vec", lt.matmul, [(4,), (4,)]),
    ("dot_nd", lt.dot, [(2, 3, 4), (2, 4, 3)]),
    ("dot_scalar", lt.dot, [(), (3,)]),
    ("tensordot", lambda a, b: lt.tensordot(a, b, axes=([1, 0], [0, 2])), [(3, 2, 4), (2, 5, 3)]),
    ("vecdot", lt.vecdot, [(2, 3), (1, 3)]),
    ("outer", lt.outer, [(2, 2), (3,)]),
    ("einsum_ellipsis", lambda a, b: lt.einsum("i...j,jk->...ik", a, b), [(2, 1, 3), (3, 4)]),
    ("einsum_diag", lambda a: lt.einsum("iij->ji", a), [(3, 3, 2)]),
    ("einsum_summed_only", lambda a, b: lt.einsum("ij,k->i", a, b), [(2, 3), (2,)]),
    ("diagonal", lambda a: lt.diagonal(a, 1, 2, 0), [(3, 2, 4)]),
    ("trace", lambda a: lt.trace(a, -1), [(3, 3)]),
    ("cross", lt.cross, [(2, 3), (3,)]),
]


@pytest.mark.parametrize(("name", "fn", "shapes"), GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_verify_grad(name: str, fn: Callable[..., Any], shapes: list[tuple[int, ...]]) -> None:
    verify_grad(fn, [RNG.standard_normal(s) for s in shapes])


@pytest.mark.parametrize(
    ("name", "fn", "shapes"), GRAD_CASES[:8], ids=[c[0] for c in GRAD_CASES[:8]]
)
def test_verify_rop(name: str, fn: Callable[..., Any], shapes: list[tuple[int, ...]]) -> None:
    verify_rop(fn, [RNG.standard_normal(s) for s in shapes])


@pytest.mark.parametrize("wrt", [0, 1])
def test_matmul_second_order(wrt: int) -> None:
    def first(a: Any, b: Any) -> Any:
        cost = lt.sum(lt.sin(lt.matmul(a, b)))
        return grad(cost, [a, b][wrt])

    verify_grad(first, [RNG.standard_normal((2, 1, 2, 3)), RNG.standard_normal((3, 3, 2))])


def test_einsum_second_order() -> None:
    def first(a: Any, b: Any) -> Any:
        return grad(lt.sum(lt.einsum("ij,jk->ik", a, b) ** 2), a)

    verify_grad(first, [RNG.standard_normal((2, 3)), RNG.standard_normal((3, 2))])


def test_float32_gradient_dtype() -> None:
    a, b = lt.tensor("float32", (2, 3)), lt.tensor("float32", (3,))
    ga, gb = grad(lt.sum(lt.matmul(a, b)), [a, b])
    assert ga.type.dtype == gb.type.dtype == "float32"


# -- eager errors -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (
            lambda: lt.matmul(lt.dmatrix(shape=(2, 3)), lt.dmatrix(shape=(4, 2))),
            ValueError,
            "matmul: Input operand 1 has a mismatch in its core dimension 0",
        ),
        (lambda: lt.matmul(lt.dscalar(), lt.dvector()), ValueError, "does not have enough"),
        (
            lambda: lt.matmul(lt.tensor("float64", (2, 1, 3)), lt.tensor("float64", (3, 3, 1))),
            ValueError,
            r"could not be broadcast",
        ),
        (
            lambda: lt.dot(lt.dmatrix(shape=(2, 3)), lt.dvector(shape=(4,))),
            ValueError,
            r"not aligned: 3 \(dim 1\) != 4 \(dim 0\)",
        ),
        (
            lambda: lt.tensordot(lt.dvector(shape=(3,)), lt.dvector(shape=(4,)), 1),
            ValueError,
            "shape-mismatch",
        ),
        (lambda: lt.vecdot(lt.dvector(shape=(3,)), lt.dvector(shape=(4,))), ValueError, "vecdot"),
        (
            lambda: lt.einsum("ij,jk", lt.dmatrix(shape=(2, 3)), lt.dmatrix(shape=(4, 2))),
            ValueError,
            "einsum",
        ),
        (lambda: lt.einsum("ij", lt.dvector()), ValueError, "einsum"),
        (lambda: lt.diagonal(lt.dvector()), ValueError, "two dimensions"),
        (lambda: lt.diagonal(lt.dmatrix(), 0, 0, 2), np.exceptions.AxisError, "axis"),
        (lambda: lt.cross(lt.dvector(shape=(2,)), lt.dvector(shape=(3,))), ValueError, "cross"),
    ],
)
def test_eager_errors(build: Callable[[], Any], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        build()


def test_matmul_message_matches_numpy() -> None:
    a, b = np.ones((2, 3)), np.ones((4, 2))
    with pytest.raises(ValueError) as ours:
        lt.matmul(lt.tensor("float64", a.shape), lt.tensor("float64", b.shape))
    with pytest.raises(ValueError) as theirs:
        np.matmul(a, b)
    assert str(ours.value).startswith(str(theirs.value))

"""lazygraph.numpy's main-namespace linear algebra against numpy: matmul/dot/
vdot/inner/outer/tensordot/vecdot/einsum/kron (every numeric dtype, batch
broadcasting, 0-d and 1-d operands, mismatched sizes), trace/diagonal, cross
(3-vectors and numpy's deprecated 2-vectors), matrix_transpose."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from tests.numpy_api.namespace_harness import array_args, check
from tests.tensor.harness import COMPLEX, FLOATS, INTS, arrays

ROW_EXAMPLES = 8
DTYPES = ("bool", *INTS, *FLOATS, *COMPLEX)
# Products accumulate; float32 results may differ from numpy's BLAS in the last bits,
# and the sign of a zero sum of products depends on the order of accumulation.
RTOL = 1e-4


def _operand(data: st.DataObject, shape: tuple[int, ...], label: str) -> np.ndarray:
    dtype = data.draw(st.sampled_from(DTYPES), label=f"{label} dtype")
    # Moderate magnitudes: overflow in a sum of products depends on the order of
    # accumulation (inf vs nan in complex results), which numpy does not specify.
    return data.draw(arrays(dtype, shape, min_value=-100, max_value=100), label=label)


def _sizes(data: st.DataObject, n: int) -> list[int]:
    return data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="sizes")


def _matmul_pair(data: st.DataObject) -> tuple[np.ndarray, np.ndarray]:
    m, k, n, b = _sizes(data, 4)
    k2 = data.draw(st.sampled_from([k, k, k + 1]), label="k2")  # sometimes mismatched
    s1 = data.draw(st.sampled_from([(k,), (m, k), (b, m, k), (1, m, k), ()]))
    s2 = data.draw(st.sampled_from([(k2,), (k2, n), (b, k2, n), (k2, n)]))
    return _operand(data, s1, "a"), _operand(data, s2, "b")


@pytest.mark.parametrize("name", ["matmul", "dot", "inner"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_products(name: str, data: st.DataObject) -> None:
    a, b = _matmul_pair(data)
    if name == "inner" and b.ndim > 1:
        b = np.swapaxes(b, -1, -2)
    check(getattr(lnp, name), getattr(np, name), a, b, rtol=RTOL, signed_zeros=False)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_outer_vdot_kron(data: st.DataObject) -> None:
    a = data.draw(array_args(DTYPES, max_dims=2, min_value=-100, max_value=100), label="a")
    b = data.draw(array_args(DTYPES, max_dims=2, min_value=-100, max_value=100), label="b")
    check(lnp.outer, np.outer, a, b, rtol=RTOL)
    check(lnp.kron, np.kron, a, b, rtol=RTOL)
    if a.size == b.size:
        check(lnp.vdot, np.vdot, a, b.reshape(a.shape), rtol=RTOL, signed_zeros=False)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_tensordot_and_vecdot(data: st.DataObject) -> None:
    i, j, k = _sizes(data, 3)
    a = _operand(data, (i, j, k), "a")
    b = _operand(data, (j, k, 2), "b")
    check(lnp.tensordot, np.tensordot, a, b, 2, rtol=RTOL, signed_zeros=False)
    check(lnp.tensordot, np.tensordot, a, b, ([1], [0]), rtol=RTOL, signed_zeros=False)
    check(lnp.tensordot, np.tensordot, a, a, 0, rtol=RTOL)
    c = _operand(data, (j, k), "c")
    check(lnp.vecdot, np.vecdot, a, c, rtol=RTOL, signed_zeros=False)
    d = _operand(data, (i, 1, k), "d")
    check(lnp.vecdot, np.vecdot, a, d, axis=0, rtol=RTOL, signed_zeros=False)


EINSUM = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 0)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ij->", [(2, 3)]),
    ("...ij,...jk->...ik", [(5, 2, 3), (3, 4)]),
    ("i,i", [(4,), (4,)]),
    ("i,j->ij", [(2,), (3,)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 1)]),
    ("ij,ij->i", [(2, 3), (2, 4)]),  # mismatched: ValueError
]


@pytest.mark.parametrize(("subscripts", "shapes"), EINSUM, ids=[e[0] for e in EINSUM])
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_einsum(subscripts: str, shapes: list[tuple[int, ...]], data: st.DataObject) -> None:
    ops = [_operand(data, s, f"op{i}") for i, s in enumerate(shapes)]
    # The sign of a zero sum of products depends on the contraction order.
    check(lnp.einsum, np.einsum, subscripts, *ops, rtol=RTOL, signed_zeros=False)
    check(lnp.einsum, np.einsum, subscripts, *ops, optimize=True, rtol=RTOL, signed_zeros=False)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_trace_diagonal_matrix_transpose(data: st.DataObject) -> None:
    x = data.draw(array_args(DTYPES, min_dims=2, max_dims=3), label="x")
    offset = data.draw(st.integers(-3, 3))
    a1 = data.draw(st.integers(-x.ndim, x.ndim - 1))
    a2 = data.draw(st.integers(-x.ndim, x.ndim))
    check(lnp.trace, np.trace, x, offset, a1, a2, rtol=RTOL, signed_zeros=False)
    check(lnp.trace, np.trace, x, dtype="float64", rtol=RTOL, signed_zeros=False)
    check(lnp.diagonal, np.diagonal, x, offset, a1, a2)
    check(lnp.matrix_transpose, np.matrix_transpose, x)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_cross(data: st.DataObject) -> None:
    n1, n2 = data.draw(st.sampled_from([(3, 3), (3, 3), (2, 3), (3, 2), (2, 2), (4, 3)]))
    batch = data.draw(st.sampled_from([(), (2,), (0,)]))
    dtype = data.draw(st.sampled_from(DTYPES[1:]), label="dtype")  # numpy's bool cross is odd
    a = data.draw(arrays(dtype, (*batch, n1), min_value=-100, max_value=100), label="a")
    b = data.draw(arrays(dtype, (n2,), min_value=-100, max_value=100), label="b")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check(lnp.cross, np.cross, a, b, rtol=RTOL)
        if batch and n1 == n2 == 3:
            check(lnp.cross, np.cross, np.moveaxis(a, -1, 0), b, axisa=0, axisc=0, rtol=RTOL)


@pytest.mark.parametrize(("n1", "n2"), [(2, 3), (3, 2)])
def test_cross_of_2_and_3_vectors_leaves_the_missing_terms_out(n1: int, n2: int) -> None:
    # numpy does not multiply the missing component: no 0 * inf = NaN, and the
    # sign of a zero product survives (padding with 0 got both wrong).
    special = np.array([0.0, -0.0, 1.0, -2.0, np.inf, -np.inf, np.nan])
    a = np.array(np.meshgrid(*[special] * n1)).reshape(n1, -1).T
    b = np.array(np.meshgrid(*[special] * n2)).reshape(n2, -1).T
    a, b = np.repeat(a, len(b), axis=0), np.tile(b, (len(a), 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check(lnp.cross, np.cross, a, b)


def test_matmul_keywords_and_errors() -> None:
    a = lnp.asarray(np.ones((2, 3)))
    with pytest.raises(NotImplementedError, match="matmul: out= is not supported"):
        lnp.matmul(a, a.T, out=np.zeros((2, 2)))
    check(lnp.matmul, np.matmul, np.ones((2, 3)), np.ones((3,)), dtype="float32")
    check(lnp.matmul, np.matmul, np.ones(()), np.ones((3,)))  # 0-d: ValueError
    with pytest.raises(ValueError, match="matmul"):
        lnp.matmul(a, a)

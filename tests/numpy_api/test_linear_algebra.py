"""lazygraph.numpy's main-namespace linear algebra against numpy: matmul/dot/
vdot/inner/outer/tensordot/vecdot/einsum/kron (every numeric dtype, batch
broadcasting, 0-d and 1-d operands, mismatched sizes), trace/diagonal, cross
(3-vectors and numpy's deprecated 2-vectors), matrix_transpose."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.compile.cache import stats
from tests.numpy_api.namespace_harness import array_args, check
from tests.tensor.harness import COMPLEX, FLOATS, INTS, arrays, shapes

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
    out = np.zeros((2, 2))  # out= as numpy: written, and returned
    assert lnp.matmul(a, a.T, out=out) is out
    np.testing.assert_array_equal(out, np.ones((2, 3)) @ np.ones((3, 2)))
    with pytest.raises(ValueError, match="non-broadcastable output"):
        lnp.matmul(a, a.T, out=np.zeros((3, 3)))
    check(lnp.matmul, np.matmul, np.ones((2, 3)), np.ones((3,)), dtype="float32")
    check(lnp.matmul, np.matmul, np.ones(()), np.ones((3,)))  # 0-d: ValueError
    with pytest.raises(ValueError, match="matmul"):
        lnp.matmul(a, a)


def _sublists(subscripts: str) -> list[Any]:
    """``einsum`` subscripts as numpy's sublist arguments' labels: each operand's
    list and the output's (None for an implicit output); letters a-z are
    numpy's sublist labels 26 to 51, so ``"ij"`` is ``[34, 35]``."""
    inputs, arrow, output = subscripts.partition("->")

    def labels(part: str) -> list[Any]:
        out: list[Any] = []
        rest = part
        while rest:
            if rest.startswith("..."):
                out.append(Ellipsis)
                rest = rest[3:]
            else:
                out.append(26 + ord(rest[0]) - ord("a"))
                rest = rest[1:]
        return out

    return [labels(p) for p in inputs.split(",")] + [labels(output) if arrow else None]


@pytest.mark.parametrize(("subscripts", "shapes"), EINSUM, ids=[e[0] for e in EINSUM])
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_einsum_sublist_form(
    subscripts: str, shapes: list[tuple[int, ...]], data: st.DataObject
) -> None:
    """``einsum(op0, sublist0, op1, sublist1, ..., [sublist_out])``, ``...``
    included, equals numpy's (the same contractions as test_einsum)."""
    ops = [_operand(data, s, f"op{i}") for i, s in enumerate(shapes)]
    *subs, out = _sublists(subscripts)
    args: list[Any] = []
    for op, sub in zip(ops, subs, strict=True):
        args += [op, sub]
    if out is not None:
        args.append(out)
    n_ops = len(ops)

    def call(fn: Any) -> Any:
        def run(*operands: Any) -> Any:
            full = list(args)
            full[0 : 2 * n_ops : 2] = operands
            return fn(*full)

        return run

    check(call(lnp.einsum), call(np.einsum), *ops, rtol=RTOL, signed_zeros=False)


def test_einsum_sublist_labels_and_errors() -> None:
    """numpy's label order (0-25 before 26-51 in an implicit output) and its
    errors for labels out of range or not integers."""
    a = np.arange(6.0).reshape(2, 3)
    b = np.arange(12.0).reshape(3, 4)
    for args in [
        (a, [30, 2]),  # implicit output: label 2 first
        (a, [51, 26]),
        (a, [0, np.int64(1)], [1, 0]),
        (a, [Ellipsis, 1], [Ellipsis]),
        (a, [0, 1], b, [1, 2]),
        (np.arange(9.0).reshape(3, 3), [0, 0]),
        (a, [0, 60]),  # ValueError
        (a, [0, -1]),  # ValueError
        (a, [0, 1.0]),  # TypeError
        (a, [0, 1], b),  # b is the output sublist: TypeError
        (a,),  # ValueError
    ]:
        lazy = [lnp.asarray(x) if isinstance(x, np.ndarray) else x for x in args]
        check(lambda *_, lazy=lazy: lnp.einsum(*lazy), lambda *_, args=args: np.einsum(*args))


def test_einsum_path_is_numpys_and_computes_nothing() -> None:
    rng = np.random.default_rng(0)
    a, b, c = rng.random((2, 3)), rng.random((3, 4)), rng.random((4, 5))
    with lazygraph.config.change(eager_max_elements=0):
        la, lb, lc = lnp.asarray(a) * 2, lnp.asarray(b) + 1, lnp.asarray(c)
        before = stats().compiles
        for optimize in ("greedy", "optimal", True, False):
            got = lnp.einsum_path("ij,jk,kl->il", la, lb, lc, optimize=optimize)
            assert got == np.einsum_path("ij,jk,kl->il", a, b, c, optimize=optimize)
        sub = (la, [0, 1], lb, [1, 2], lc, [2, 3], [0, 3])
        expected = np.einsum_path(a, [0, 1], b, [1, 2], c, [2, 3], [0, 3])
        assert lnp.einsum_path(*sub) == expected
        assert lnp.einsum_path("i...,i...->...", la, la) == np.einsum_path("i...,i...->...", a, a)
        assert stats().compiles == before  # only shapes were read
        assert lnp.einsum_path("ij,jk", la, b) == np.einsum_path("ij,jk", a, b)  # mixed
    x = lnp.asarray(np.arange(10.0))
    kept = x[x > 6]  # a size that depends on the data: computed
    assert lnp.einsum_path("i,i", kept, kept) == np.einsum_path("i,i", np.ones(3), np.ones(3))
    with pytest.raises(ValueError):
        lnp.einsum_path("ij,jk", la, lc)  # numpy's error for mismatched sizes
    assert {"einsum_path", "matvec", "vecmat"} <= set(lnp.__all__)


_GUFUNC_SHAPES = [
    ((2, 3), (3,)),
    ((3, 3), (3,)),
    ((4, 2, 3), (3,)),
    ((4, 2, 3), (5, 1, 3)),  # batch axes broadcast
    ((2, 3), (4, 3)),
    ((0, 3), (3,)),
    ((2, 0), (0,)),
    ((2, 3), (2,)),  # mismatched core size: ValueError
    ((3,), (3,)),  # too few dimensions: ValueError
    ((2, 3), ()),
]


@pytest.mark.parametrize("name", ["matvec", "vecmat"])
@pytest.mark.parametrize("shapes", _GUFUNC_SHAPES, ids=str)
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_matvec_vecmat(name: str, shapes: tuple[tuple[int, ...], ...], data: st.DataObject) -> None:
    """numpy 2.2's ``matvec(A, v)`` (``sum(A * v[..., None, :], -1)``) and
    ``vecmat(v, A)`` (``conj(v)`` times ``A``): values, dtypes and errors."""
    matrix, vector = shapes
    if name == "vecmat":  # (n),(n,m)->(m): the matrix is the second operand
        matrix = matrix[:-2] + matrix[-2:][::-1] if len(matrix) >= 2 else matrix
    a = _operand(data, matrix, "matrix")
    v = _operand(data, vector, "vector")
    args = (a, v) if name == "matvec" else (v, a)
    check(getattr(lnp, name), _numpy_gufunc(name), *args, rtol=RTOL, signed_zeros=False)


def _numpy_gufunc(name: str) -> Any:
    """numpy's ``matvec``/``vecmat`` (numpy 2.2+), or their definition by
    ``matmul`` where this numpy has none."""
    found = getattr(np, name, None)
    if found is not None:
        return found
    if name == "matvec":
        return lambda a, v: np.matmul(a, v[..., None])[..., 0]
    return lambda v, a: np.matmul(np.conj(v)[..., None, :], a)[..., 0, :]


#: each gufunc's core sizes per operand (letters name shared sizes) and output
_GUFUNC_CORES = {
    "matmul": (("n", "k"), ("k", "m"), ("n", "m")),
    "vecdot": (("k",), ("k",), ()),
    "matvec": (("m", "k"), ("k",), ("m",)),
    "vecmat": (("k",), ("k", "m"), ("m",)),
}


@pytest.mark.parametrize("name", sorted(_GUFUNC_CORES))
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_gufunc_axes_axis_and_keepdims(name: str, data: st.DataObject) -> None:
    # axes= names each operand's core axes (moved to the end for the call, the
    # output's moved back from it); axis= and keepdims= for vecdot's one shared core
    # axis; numpy's error where the keywords do not fit the gufunc
    *ins, out_core = _GUFUNC_CORES[name]
    sizes = {c: data.draw(st.integers(1, 3)) for c in "nkm"}
    batch = data.draw(shapes(max_dims=2, min_side=1))
    dtype = data.draw(st.sampled_from(["float64", "int32", "complex128"]))
    operands, entries = [], []
    for core in ins:
        shape = (*batch, *(sizes[c] for c in core))
        order = data.draw(st.permutations(range(len(shape))))
        x = data.draw(arrays(dtype, shape, min_value=-4, max_value=4)).transpose(order)
        operands.append(x)
        entries.append(tuple(order.index(len(batch) + j) for j in range(len(core))))
    kw: dict[str, Any] = {}
    style = data.draw(st.sampled_from(["axes", "axes+out", "axis", "keepdims", "axes+keepdims"]))
    if style.startswith("axes"):
        kw["axes"] = [e if len(e) != 1 or data.draw(st.booleans()) else e[0] for e in entries]
        if style == "axes+out" and out_core:
            out_ndim = len(batch) + len(out_core)
            kw["axes"].append(tuple(data.draw(st.permutations(range(out_ndim)))[: len(out_core)]))
    if style == "axis":
        kw["axis"] = data.draw(st.integers(-1, 0))
    if style.endswith("keepdims"):
        kw["keepdims"] = data.draw(st.booleans())
    check(getattr(lnp, name), getattr(np, name), *operands, rtol=1e-12, **kw)


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("vecdot", {"axes": [-1.0, -1.0]}),  # TypeError: not integers
        ("vecdot", {"axes": [None, 1]}),
        ("vecdot", {"axes": [-1, -1, -1]}),  # AxisError: the output has no core axis
        ("vecdot", {"axes": [(-1,)]}),  # ValueError: an entry per input
        ("vecdot", {"axes": [(-1,), (-1,)], "axis": -1}),  # TypeError: both
        ("vecdot", {"keepdims": "true"}),  # TypeError: not a bool
        ("matmul", {"axis": 1}),  # TypeError: three distinct core sizes
        ("matmul", {"keepdims": False}),  # TypeError: the output has core axes
        ("matmul", {"axes": [0, (0, 1), (0, 1)]}),  # AxisError: two core axes
        ("matvec", {"axes": [(0, 2), 0, 0]}),  # ValueError: core sizes differ
    ],
)
def test_gufunc_keyword_errors_are_numpys(name: str, kwargs: dict[str, Any]) -> None:
    a = np.arange(24.0).reshape(2, 3, 4)
    check(getattr(lnp, name), getattr(np, name), a, a if name != "matvec" else a[0, 0], **kwargs)

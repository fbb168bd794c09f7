"""lazygraph.numpy's searching, sorting and set functions against numpy:
argmax/argmin (ties, NaN), nonzero/argwhere/where, count_nonzero, searchsorted,
sort/argsort (descending, NaN last, every dtype), unique with its flags and
equal_nan, the array API unique_* functions, and isin."""

from __future__ import annotations

from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from tests.numpy_api.namespace_harness import ALL, array_args, binary_args, check
from tests.tensor.harness import FLOATS, INTS, NUMERIC, arrays, shapes

ROW_EXAMPLES = 10
#: the default of ``lazygraph.config.eager_max_elements``
EAGER = lazygraph.config.eager_max_elements
REAL = ("bool", *NUMERIC)

# Small value ranges, so ties and repeats are common.
few_values = st.sampled_from(["int8", "float64", "bool"]).flatmap(
    lambda d: arrays(d, shapes(), min_value=-2, max_value=2) if d != "bool" else arrays(d, shapes())
)


def _axis(data: st.DataObject, ndim: int) -> Any:
    return data.draw(st.one_of(st.none(), st.integers(-ndim - 1, ndim)), label="axis")


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_argmax_argmin(name: str, data: st.DataObject) -> None:
    x = data.draw(st.one_of(array_args(REAL), few_values), label="x")
    axis = _axis(data, x.ndim)
    keepdims = data.draw(st.booleans())
    check(getattr(lnp, name), getattr(np, name), x, axis, keepdims=keepdims)


@pytest.mark.parametrize("name", ["nonzero", "flatnonzero", "argwhere"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(x=st.one_of(array_args(ALL), few_values))
def test_nonzero_family(name: str, x: np.ndarray) -> None:
    check(getattr(lnp, name), getattr(np, name), x)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_where(data: st.DataObject) -> None:
    a, b = data.draw(binary_args(), label="x, y")
    cond = data.draw(arrays("bool", np.broadcast_shapes(np.shape(a), np.shape(b))), label="cond")
    check(lnp.where, np.where, cond, a, b)
    check(lnp.where, np.where, cond)
    check(lnp.extract, np.extract, cond, np.broadcast_to(a, cond.shape))


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_count_nonzero(data: st.DataObject) -> None:
    x = data.draw(array_args(ALL), label="x")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    check(lnp.count_nonzero, np.count_nonzero, x, axis, keepdims=data.draw(st.booleans()))


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_searchsorted(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(INTS + FLOATS))
    a = np.sort(data.draw(arrays(dtype, st.integers(0, 6).map(lambda n: (n,))), label="a"))
    v = data.draw(st.one_of(arrays(dtype, shapes(max_dims=2)), st.integers(-3, 3)), label="v")
    side = data.draw(st.sampled_from(["left", "right"]))
    check(lnp.searchsorted, np.searchsorted, a, v, side)
    unsorted = np.asarray(data.draw(st.permutations(a)), dtype=a.dtype)
    sorter = np.argsort(unsorted, kind="stable")
    check(lnp.searchsorted, np.searchsorted, unsorted, v, side, sorter)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_sort(data: st.DataObject) -> None:
    x = data.draw(st.one_of(array_args(REAL), few_values), label="x")
    axis = _axis(data, x.ndim)
    kind = data.draw(st.sampled_from([None, "stable", "quicksort"]))
    check(lnp.sort, np.sort, x, axis, kind)
    check(lnp.sort, np.sort, x, axis, stable=True)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_argsort_is_stable(data: st.DataObject) -> None:
    x = data.draw(st.one_of(array_args(REAL), few_values), label="x")
    axis = _axis(data, x.ndim)
    # lazygraph's argsort is always stable; numpy's default quicksort is not, so
    # compare with numpy's stable sort.
    check(lnp.argsort, lambda a, ax: np.argsort(a, ax, kind="stable"), x, axis)
    check(lnp.argsort, np.argsort, x, axis, stable=True)


def _reverse_stable_argsort(x: np.ndarray, axis: int) -> np.ndarray:
    """numpy's descending stable argsort: ties keep their order, NaNs first."""
    n = x.shape[axis]
    flipped = np.flip(x, axis)
    order = np.argsort(flipped, axis=axis, kind="stable")
    return np.flip(n - 1 - order, axis)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_descending_sort_and_argsort(data: st.DataObject) -> None:
    x = data.draw(st.one_of(array_args(REAL, min_dims=1), few_values.filter(np.ndim)), label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    check(
        lambda a: lnp.sort(a, axis, descending=True), lambda a: np.flip(np.sort(a, axis), axis), x
    )
    check(
        lambda a: lnp.argsort(a, axis, descending=True),
        lambda a: _reverse_stable_argsort(a, axis),
        x,
    )


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(
    x=st.one_of(array_args(REAL), few_values),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans()),
    equal_nan=st.booleans(),
)
def test_unique_with_flags(x: np.ndarray, flags: tuple[bool, bool, bool], equal_nan: bool) -> None:
    index, inverse, counts = flags
    kw = {"return_index": index, "return_inverse": inverse, "return_counts": counts}
    check(lnp.unique, np.unique, x, equal_nan=equal_nan, **kw)


@pytest.mark.parametrize("name", ["unique_all", "unique_counts", "unique_inverse"])
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(x=st.one_of(array_args(REAL), few_values))
def test_unique_array_api(name: str, x: np.ndarray) -> None:
    check(lambda a: tuple(getattr(lnp, name)(a)), lambda a: tuple(getattr(np, name)(a)), x)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(x=st.one_of(array_args(REAL), few_values))
def test_unique_values_in_any_order(x: np.ndarray) -> None:
    check(lambda a: lnp.sort(lnp.unique_values(a)), lambda a: np.sort(np.unique_values(a)), x)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(element=few_values, tests=few_values, invert=st.booleans())
def test_isin(element: np.ndarray, tests: np.ndarray, invert: bool) -> None:
    check(lnp.isin, np.isin, element, tests, invert=invert)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_select(data: st.DataObject) -> None:
    n = data.draw(st.integers(0, 3))
    shape = data.draw(shapes(max_dims=2))
    conds = [data.draw(arrays("bool", shape)) for _ in range(n)]
    choices = [data.draw(array_args(NUMERIC, max_dims=1)) for _ in range(n)]
    default = data.draw(st.sampled_from([0, -1.5, np.int16(3)]))
    check(lnp.select, np.select, conds, choices, default)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_unravel_index(data: st.DataObject) -> None:
    dims = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple))
    size = int(np.prod(dims))
    idx = data.draw(arrays("int64", shapes(max_dims=2), min_value=0, max_value=size - 1))
    order = data.draw(st.sampled_from(["C", "F"]))
    check(lnp.unravel_index, np.unravel_index, idx, dims, order)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_bincount_digitize(data: st.DataObject) -> None:
    x = data.draw(
        arrays("int64", st.integers(0, 6).map(lambda n: (n,)), min_value=0, max_value=5), label="x"
    )
    minlength = data.draw(st.integers(0, 8))
    check(lnp.bincount, np.bincount, x, minlength=minlength)
    w = data.draw(arrays("float64", x.shape, finite=True), label="w")
    check(lnp.bincount, np.bincount, x, w, signed_zeros=False, rtol=1e-9)
    bins = np.sort(data.draw(arrays("float64", (3,), finite=True)))
    bins = bins[::-1] if data.draw(st.booleans()) else bins
    values = data.draw(array_args(FLOATS, max_dims=2), label="values")
    check(lnp.digitize, np.digitize, values, bins, data.draw(st.booleans()))


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(a=few_values, b=few_values)
def test_set_operations_1d(a: np.ndarray, b: np.ndarray) -> None:
    # Which of 0.0 and -0.0 numpy keeps is the order its sort leaves equal keys
    # in, which depends on the CPU's SIMD sort: not compared.
    check(lnp.union1d, np.union1d, a, b, signed_zeros=False)
    check(lnp.intersect1d, np.intersect1d, a, b, signed_zeros=False)
    check(lnp.setdiff1d, np.setdiff1d, a, b, signed_zeros=False)


@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_lexsort_and_partition(data: st.DataObject) -> None:
    n = data.draw(st.integers(0, 6))
    keys = [data.draw(arrays("int8", (n,), min_value=0, max_value=2)) for _ in range(3)]
    check(lnp.lexsort, np.lexsort, keys)
    x = data.draw(array_args(REAL, min_dims=1), label="x")
    kth = data.draw(st.integers(-x.shape[-1], max(x.shape[-1] - 1, 0)))
    # numpy's order around the kth element is unspecified: compare that element.
    if x.shape[-1]:
        check(
            lambda a: lnp.partition(a, kth)[..., kth], lambda a: np.partition(a, kth)[..., kth], x
        )
        got = lnp.take_along_axis(lnp.asarray(x), lnp.argpartition(x, kth), -1).compute()
        np.testing.assert_array_equal(got[..., kth], np.partition(x, kth)[..., kth])


def _few_values_with_nan(dtype: str) -> st.SearchStrategy[Any]:
    """A handful of values of ``dtype``, with NaN and -0.0 for inexact ones, so
    that equal rows, ties and NaNs are common."""
    kind = np.dtype(dtype).kind
    if kind == "b":
        return st.booleans()
    if kind in "iu":
        return st.integers(0 if kind == "u" else -1, 1)
    parts = st.sampled_from([-1.0, 0.0, -0.0, 1.0, np.nan])
    return st.builds(complex, parts, parts) if kind == "c" else parts


@settings(max_examples=80, deadline=None)
@given(
    dtype=st.sampled_from(["bool", "int8", "uint8", "int64", "float32", "float64", "complex128"]),
    shape=shapes(min_dims=1, max_dims=3, max_side=4),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans()),
    graph=st.booleans(),
    data=st.data(),
)
def test_unique_along_an_axis(
    dtype: str, shape: tuple[int, ...], flags: tuple[bool, bool, bool], graph: bool, data: Any
) -> None:
    """``unique(x, axis=k)`` of n-d arrays: the unique slices in numpy's
    lexicographic order (NaNs last, a slice holding a NaN unlike any other,
    complex values in numpy's order), with the first indices, the 1-d inverse
    and the counts; an axis out of range is numpy's AxisError. (At most 4
    slices: numpy's sort keeps equal-comparing slices in order there; with more
    its unstable sort may order the slices holding NaNs its own way.)"""
    x = data.draw(hnp.arrays(np.dtype(dtype), shape, elements=_few_values_with_nan(dtype)))
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="axis")
    index, inverse, counts = flags
    kw = {"return_index": index, "return_inverse": inverse, "return_counts": counts}
    with lazygraph.config.change(eager_max_elements=0 if graph else EAGER):
        check(
            lambda a: lnp.unique(a, axis=axis, **kw),
            lambda a: np.unique(a, axis=axis, **kw),
            x,
            signed_zeros=False,  # (which of -0.0 and 0.0 numpy's sort puts first)
        )


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_unique_rows_of_many_rows(data: Any) -> None:
    """Many rows, many columns (the column ranks merge in pairs over several
    rounds): numpy's answer."""
    n = data.draw(st.integers(0, 60), label="rows")
    m = data.draw(st.integers(0, 9), label="columns")
    x = data.draw(arrays("int16", (n, m), min_value=0, max_value=2))
    check(
        lambda a: lnp.unique(a, axis=0, return_index=True, return_inverse=True, return_counts=True),
        lambda a: np.unique(a, axis=0, return_index=True, return_inverse=True, return_counts=True),
        x,
    )
    check(lambda a: lnp.unique(a, axis=1), lambda a: np.unique(a, axis=1), x)


@settings(max_examples=ROW_EXAMPLES * 3, deadline=None)
@given(a=few_values, b=few_values, assume_unique=st.booleans())
def test_setxor1d(a: np.ndarray, b: np.ndarray, assume_unique: bool) -> None:
    """numpy's answer, also for ``assume_unique`` on arrays that are not (numpy's
    algorithm then keeps what its neighbour comparison keeps)."""
    check(lnp.setxor1d, np.setxor1d, a, b, assume_unique=assume_unique, signed_zeros=False)
    assert "setxor1d" in lnp.__all__


@settings(deadline=None)
@given(
    a=hnp.arrays(np.int64, st.integers(0, 8), elements=st.integers(0, 6)),
    b=hnp.arrays(
        st.sampled_from([np.int64, np.int8, np.float64]),
        st.integers(0, 8),
        elements=st.integers(0, 6),
    ),
    assume_unique=st.booleans(),
)
def test_intersect1d_return_indices(a: np.ndarray, b: np.ndarray, assume_unique: bool) -> None:
    """The common values and where each first occurs in each array, numpy's
    (with ``assume_unique``, on arrays that are unique)."""
    if assume_unique:
        a, b = np.unique(a), np.unique(b)
    want = np.intersect1d(a, b, assume_unique=assume_unique, return_indices=True)
    got = lnp.intersect1d(lnp.asarray(a), b, assume_unique=assume_unique, return_indices=True)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), w)
        assert np.asarray(g).dtype == w.dtype

"""``Array.__getitem__`` against numpy: basic indices (ints, slices, ``None``,
``...``), integer-array and boolean-mask indices, lazy indices, and numpy's
errors; basic indices give views, the others copies, as in numpy."""

from __future__ import annotations

from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from tests.tensor.harness import ALL, arrays, assert_numpy_equal, numpy_result

SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)


def _check_index(a: np.ndarray, idx: Any, lazy_idx: Any = None) -> None:
    x = lnp.asarray(a)
    expected, exc = numpy_result(lambda: a[idx])
    if exc is not None:
        with pytest.raises(exc):
            x[idx if lazy_idx is None else lazy_idx].compute()
        return
    got = x[idx if lazy_idx is None else lazy_idx]
    if isinstance(expected, np.generic) and lazygraph.config.eager_max_elements > 0:
        assert type(got) is type(expected)  # one element of known data: numpy's scalar
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype
    assert all(g is None or g == e for g, e in zip(got.shape, expected.shape, strict=True))
    assert_numpy_equal(np.asarray(got), expected, signed_zeros=True)


@settings(max_examples=60, deadline=None)
@given(dtype=st.sampled_from(ALL), data=st.data())
def test_basic_indexing_matches_numpy(dtype: str, data: Any) -> None:
    shape = data.draw(SHAPES)
    a = data.draw(arrays(dtype, shape))
    idx = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    _check_index(a, idx)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_integer_array_indexing_matches_numpy(data: Any) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    a = data.draw(arrays("float64", shape))
    idx = data.draw(hnp.integer_array_indices(shape))
    _check_index(a, idx)
    _check_index(a, idx, tuple(lnp.asarray(i) for i in idx))  # lazy index arrays


@settings(max_examples=40, deadline=None)
@given(data=st.data(), lazy_mask=st.booleans())
def test_boolean_mask_indexing_matches_numpy(data: Any, lazy_mask: bool) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4))
    a = data.draw(arrays("int32", shape))
    ndim = data.draw(st.integers(1, len(shape)))
    mask = data.draw(arrays("bool", shape[:ndim]))
    _check_index(a, mask, lnp.asarray(mask) if lazy_mask else None)


@pytest.mark.parametrize(
    "idx",
    [
        (slice(None), [0, 2]),
        ([1, 0], slice(1, None)),
        (Ellipsis, [True, False, True, True]),
        ([0, 1], None, [1, 2]),
        (0, [1, 1, 1]),
        (np.array([[0], [2]]), np.array([[1, 3]])),
    ],
)
def test_mixed_indexing_matches_numpy(idx: Any) -> None:
    a = np.arange(12.0).reshape(3, 4)
    _check_index(a, idx)


def test_lazy_scalar_and_slice_bounds() -> None:
    a = np.arange(10.0)
    x = lnp.asarray(a)
    i = lnp.asarray(np.array(3))
    np.testing.assert_array_equal(x[i].compute(), a[3])
    np.testing.assert_array_equal(x[i:].compute(), a[3:])
    np.testing.assert_array_equal(x[: i * 2 : 2].compute(), a[:6:2])


@pytest.mark.parametrize(
    ("idx", "exc"),
    [
        (5, IndexError),
        ((0, 0), IndexError),
        (1.5, IndexError),
        ("a", IndexError),
        ([1.0], IndexError),
        ((Ellipsis, Ellipsis), IndexError),
        (slice(None, None, 0), ValueError),
    ],
)
def test_index_errors_are_numpys(idx: Any, exc: type[Exception]) -> None:
    a = np.arange(4.0)
    with pytest.raises(exc):
        a[idx]
    with pytest.raises(exc):
        lnp.asarray(a)[idx]


def test_full_integer_index_is_a_value_not_a_view() -> None:
    """numpy returns a scalar for ``a[i, j]``: it does not follow later writes."""
    a = lnp.asarray(np.zeros((2, 2)))
    element = a[0, 0]
    zero_d = a[0, 0, ...]
    a[0, 0] = 5
    assert float(element) == 0.0
    assert float(zero_d) == 5.0


@given(
    value=hnp.arrays(
        st.sampled_from([np.dtype(d) for d in ALL]),
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4),
    ),
    data=st.data(),
)
@settings(max_examples=60)
def test_an_element_of_a_known_value_is_read_without_a_graph(value: np.ndarray, data) -> None:
    """``a[i, j]`` of data or of a computed array is numpy's element, a numpy
    scalar of the same type and value (NaN, -0.0 and integer limits included),
    with negative and numpy-integer indices, and no graph to build or compile."""
    key = tuple(
        data.draw(st.integers(-n, n - 1).map(lambda k, i=i: np.int64(k) if i % 2 else k))
        for i, n in enumerate(value.shape)
    )
    for arr in (lnp.asarray(value), lnp.asarray(value).copy()):
        arr.compute()  # the second: a computed array, pinned to its value
        with lazygraph.config.change(eager_max_elements=4096):  # (0: a graph node)
            got = arr[key]
        assert type(got) is type(value[key]), "numpy's scalar, not a graph"
        assert_numpy_equal(np.asarray(got), np.asarray(value[key]), signed_zeros=True)


def test_an_element_index_out_of_range_is_numpys_index_error() -> None:
    a = lnp.asarray(np.zeros((2, 3)))
    with pytest.raises(IndexError, match="out of bounds"):
        a[2, 0]
    with pytest.raises(IndexError, match="out of bounds"):
        a[0, -4]


def test_range_and_array_like_indices_read_as_arrays() -> None:
    """numpy reads a ``range`` (``probs[range(n), y]``) and any array-like as an
    integer array index."""
    a = np.arange(12.0).reshape(4, 3)
    x = lnp.asarray(a)
    np.testing.assert_array_equal(x[range(4), [0, 1, 2, 0]].compute(), a[range(4), [0, 1, 2, 0]])
    np.testing.assert_array_equal(x[range(1, 4, 2)].compute(), a[range(1, 4, 2)])
    assert x[range(0)].compute().shape == a[range(0)].shape
    y = lnp.asarray(a.copy())
    y[range(0, 4, 2), 1] = -1.0
    b = a.copy()
    b[range(0, 4, 2), 1] = -1.0
    np.testing.assert_array_equal(y.compute(), b)


@pytest.mark.parametrize(
    "make",
    [
        lambda m: m.ones(20, dtype=m.intp),
        lambda m: m.ones((4, 5), dtype="int32").ravel(),
        lambda m: m.full(20, 1),
        lambda m: m.zeros(20, dtype=int) + 1,
    ],
)
@pytest.mark.parametrize("at", [0, -1])
def test_an_out_of_range_index_array_raises_numpys_index_error(make, at: int) -> None:
    """An index array the program builds (ones, then one entry set) indexes as
    numpy's; set out of range, numpy's IndexError comes where it indexes (for
    reads and writes) when lazygraph.numpy computes small arrays at once, and
    where the result is read otherwise."""
    want = np.ones(20, dtype=np.intp)
    want[at] = 3
    a = lnp.arange(5.0)
    ind = make(lnp)
    ind[at] = 3
    assert_numpy_equal(np.asarray(a[ind]), np.arange(5.0)[want])
    ind[at] = 10
    at_once = lazygraph.config.eager_max_elements >= 20
    with pytest.raises(IndexError, match="out of bounds"):
        got = a[ind]
        if not at_once:
            np.asarray(got)
    with pytest.raises(IndexError, match="out of bounds"):
        a[ind] = 0.0
        if not at_once:
            np.asarray(a)
    if at_once:
        assert_numpy_equal(np.asarray(a), np.arange(5.0))

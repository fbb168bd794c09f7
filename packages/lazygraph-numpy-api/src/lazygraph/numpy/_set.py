"""Set functions: numpy's ``unique`` (with its ``return_*`` flags,
``equal_nan`` and ``axis``), the array API's ``unique_all``/``unique_counts``/
``unique_inverse``/``unique_values``, ``isin``, and numpy's set operations on
1-d arrays ``union1d``, ``intersect1d``, ``setdiff1d`` and ``setxor1d``.

The number of unique values is known only when computed: ``shape`` computes it
when asked for.

>>> values, counts = unique([3, 1, 3, 3], return_counts=True)
>>> values.compute(), counts.compute()
(array([1, 3]), array([1, 3]))
"""

from __future__ import annotations

from typing import Any, NamedTuple

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.shape import normalize_axis

__all__ = [
    "intersect1d",
    "isin",
    "setdiff1d",
    "setxor1d",
    "union1d",
    "unique",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]


class UniqueAllResult(NamedTuple):
    """The result of :func:`unique_all`."""

    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    """The result of :func:`unique_counts`."""

    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    """The result of :func:`unique_inverse`."""

    values: Array
    inverse_indices: Array


def unique_all(x: ArrayLike, /) -> UniqueAllResult:
    """The sorted unique values of ``x`` (flattened), the index of each one's first
    occurrence, the index of each element of ``x`` among the values (shaped like
    ``x``), and each value's count (``numpy.unique_all``; NaNs are distinct).

    >>> r = unique_all([3, 1, 3])
    >>> r.values.compute(), r.indices.compute(), r.inverse_indices.compute(), r.counts.compute()
    (array([1, 3]), array([1, 0]), array([1, 0, 1]), array([1, 2]))
    """
    return UniqueAllResult(*(wrap(v) for v in lt.unique_all(as_variable(x))))


def unique_counts(x: ArrayLike, /) -> UniqueCountsResult:
    """The sorted unique values of ``x`` and each one's count (``numpy.unique_counts``).

    >>> r = unique_counts([3, 1, 3])
    >>> r.values.compute(), r.counts.compute()
    (array([1, 3]), array([1, 2]))
    """
    return UniqueCountsResult(*(wrap(v) for v in lt.unique_counts(as_variable(x))))


def unique_inverse(x: ArrayLike, /) -> UniqueInverseResult:
    """The sorted unique values of ``x`` and the index of each element of ``x``
    among them, shaped like ``x`` (``numpy.unique_inverse``).

    >>> unique_inverse([[3, 1], [3, 3]]).inverse_indices.compute()
    array([[1, 0],
           [1, 1]])
    """
    return UniqueInverseResult(*(wrap(v) for v in lt.unique_inverse(as_variable(x))))


def unique_values(x: ArrayLike, /) -> Array:
    """The unique values of ``x`` (flattened) (``numpy.unique_values``: the order
    is unspecified; NaNs are distinct).

    >>> sort_values = unique_values([3, 1, 3]).compute()
    >>> sorted(sort_values.tolist())
    [1, 3]
    """
    return wrap(lt.unique_values(as_variable(x)))


def unique(
    ar: ArrayLike,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    sorted: bool = True,
) -> Any:
    """The sorted unique values of the flattened ``ar`` and, as asked, the index
    of each one's first occurrence, the inverse indices (shaped like ``ar``) and
    the counts (``numpy.unique``). With ``equal_nan`` (the default) all NaNs count
    as one value. With ``axis``, the unique slices along that axis, in
    lexicographic order (numpy's: NaNs last, a slice holding a NaN unlike any
    other), the indices and counts of those slices, and a 1-d inverse.

    >>> values, inverse = unique([[3, 1], [3, 3]], return_inverse=True)
    >>> values.compute(), inverse.compute()
    (array([1, 3]), array([[1, 0],
           [1, 1]]))
    >>> rows, counts = unique([[1, 2], [0, 5], [1, 2]], axis=0, return_counts=True)
    >>> rows.compute(), counts.compute()
    (array([[0, 5],
           [1, 2]]), array([1, 2]))
    """
    x = lt.as_tensor_variable(as_variable(ar))
    if axis is not None:
        axis = normalize_axis(axis, x.ndim, "unique")  # numpy's AxisError first
    if axis is not None and x.ndim > 1:
        values, index, inverse, counts = _unique_along(x, axis)
    else:
        values, index, inverse, counts = _unique_flat(x, equal_nan)
    results = [wrap(values)]
    if return_index:
        results.append(wrap(index))
    if return_inverse:
        results.append(wrap(inverse))
    if return_counts:
        results.append(wrap(counts))
    return results[0] if len(results) == 1 else tuple(results)


def _unique_flat(x: Any, equal_nan: bool) -> tuple[Any, Any, Any, Any]:
    """numpy's ``unique`` of the flattened ``x``: values, first indices, inverse
    (shaped like ``x``) and counts."""
    values, index, inverse, counts = lt.unique_all(x)
    if equal_nan and np.dtype(x.dtype).kind in "fc":
        # NaNs sort last and are distinct: keep the first, give it every NaN's
        # count, and point every NaN element at it.
        is_nan = lt.isnan(values)
        n_numbers = lt.sum(lt.logical_not(is_nan))
        position = lt.arange(lt.shape_tuple(values)[0])
        keep = lt.less_equal(position, n_numbers)
        nan_count = lt.sum(lt.cast(is_nan, "int64"))
        counts = lt.where(lt.equal(position, n_numbers), nan_count, counts)
        values = lt.getitem(values, keep)
        index = lt.getitem(index, keep)
        counts = lt.getitem(counts, keep)
        inverse = lt.minimum(inverse, n_numbers)
    return values, index, inverse, counts


def _unique_along(x: Any, axis: int) -> tuple[Any, Any, Any, Any]:
    """numpy's ``unique(x, axis=axis)`` for an n-d ``x``: the slices along
    ``axis`` compared as rows of their elements (numpy's structured view), in
    lexicographic order, each element compared as numpy's sort compares it
    (NaNs last and equal to each other; ``-0.0 == 0.0``), but a row holding a
    NaN equal to no other row (numpy's ``!=``). Each row becomes one integer
    key of the same order: the dense rank of each element in its column, then
    pairs of rank columns merged into ranks of the pairs until one column is
    left; ``unique_all`` of the keys gives the rest."""
    moved = lt.moveaxis(x, axis, 0) if axis else x
    sizes = tuple(moved.type.shape[1:])
    if None in sizes:  # a size that depends on the data: numpy code has it
        sizes = tuple(wrap(moved).shape[1:])
        if None in sizes:
            raise UnsupportedArgumentsError(
                "unique: axis= needs the sizes of the other axes, which are known only "
                "when the function being traced runs"
            )
    m = int(np.prod(sizes, dtype=np.int64))
    n = lt.shape_tuple(moved)[0]
    rows = lt.reshape(moved, [n, m])
    kind = np.dtype(x.dtype).kind
    if kind == "c":
        re, im = lt.real(rows), lt.imag(rows)
        # numpy's complex order: no NaN part, then NaN imaginary, NaN real, both
        nan_class = lt.add(
            lt.multiply(lt.cast(lt.isnan(re), "int64"), 2), lt.cast(lt.isnan(im), "int64")
        )
        parts = [_dense_ranks(nan_class), _dense_ranks(re), _dense_ranks(im)]
        ranks = lt.reshape(lt.stack(parts, axis=2), [n, 3 * m])
        width = 3 * m
    else:
        ranks = _dense_ranks(lt.cast(rows, "uint8") if kind == "b" else rows)
        width = m
    size = lt.maximum(n, 1)
    while width > 1:  # merge pairs of columns, most significant first
        if width % 2:
            ranks = lt.concatenate([ranks, lt.zeros([n, 1], dtype="int64")], axis=1)
            width += 1
        pairs = lt.add(
            lt.multiply(lt.getitem(ranks, (slice(None), slice(0, None, 2))), size),
            lt.getitem(ranks, (slice(None), slice(1, None, 2))),
        )
        ranks = _dense_ranks(pairs)
        width //= 2
    key = lt.getitem(ranks, (slice(None), 0)) if width else lt.zeros([n], dtype="int64")
    if kind in "fc":
        # a row holding a NaN is a value of its own, after the equal-comparing
        # rows before it (numpy's stable sort: in the order of the rows)
        has_nan = lt.any(lt.isnan(rows), axis=1)
        after = lt.where(has_nan, lt.add(lt.arange(n, dtype="int64"), 1), 0)
        key = lt.add(lt.multiply(key, lt.add(n, 1)), after)
    _, index, inverse, counts = lt.unique_all(key)
    return lt.take(x, index, axis=axis), index, inverse, counts


def _dense_ranks(columns: Any) -> Any:
    """The rank of each element of the 2-d ``columns`` among the distinct values
    of its column (0 for the smallest), as int64: numpy's sort order, NaNs last
    and equal to each other."""
    order = lt.argsort(columns, axis=0, stable=True)
    ordered = lt.take_along_axis(columns, order, axis=0)
    later, earlier = ordered[1:], ordered[:-1]
    step = lt.not_equal(later, earlier)
    if np.dtype(columns.dtype).kind == "f":
        step = lt.logical_and(
            step, lt.logical_not(lt.logical_and(lt.isnan(later), lt.isnan(earlier)))
        )
    width = lt.shape_tuple(columns)[1]
    ranked = lt.concatenate(
        [lt.zeros([1, width], dtype="int64"), lt.cumsum(lt.cast(step, "int64"), axis=0)], axis=0
    )
    # back to the rows' own order: the position of each row in the sort
    return lt.take_along_axis(ranked, lt.argsort(order, axis=0, stable=True), axis=0)


def isin(
    element: ArrayLike,
    test_elements: ArrayLike,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    kind: str | None = None,
) -> Array:
    """Whether each element of ``element`` occurs in ``test_elements`` (flattened),
    shaped like ``element`` (``numpy.isin``; ``invert=True`` negates).

    >>> isin([[1, 2], [3, 4]], [2, 4]).compute()
    array([[False,  True],
           [False,  True]])
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"isin: invalid kind {kind!r}; expected None, 'sort' or 'table'")
    x = lt.as_tensor_variable(as_variable(element))
    tests = lt.ravel(lt.as_tensor_variable(as_variable(test_elements)))
    # Sort the test values once; each element is found by binary search.
    ordered = lt.sort(tests)
    n = lt.shape_tuple(ordered)[0]
    at = lt.searchsorted(ordered, x)
    # One padding element makes every insertion index (0..n) a valid index.
    padded = lt.concatenate([ordered, lt.zeros((1,), dtype=ordered.dtype)])
    found = lt.logical_and(lt.less(at, n), lt.equal(lt.take(padded, at), x))
    return wrap(lt.logical_not(found) if invert else found)


def _set_operand(x: ArrayLike) -> Any:
    return lt.ravel(as_tensor(x))


def union1d(ar1: ArrayLike, ar2: ArrayLike) -> Array:
    """The sorted unique values in either array (``numpy.union1d``).

    >>> union1d([3, 1], [2, 1]).compute()
    array([1, 2, 3])
    """
    both = lt.concatenate([_set_operand(ar1), _set_operand(ar2)])
    return unique(wrap(both))  # type: ignore[no-any-return]


def intersect1d(
    ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, return_indices: bool = False
) -> Any:
    """The sorted unique values in both arrays (``numpy.intersect1d``); with
    ``return_indices``, also where each first occurs in each (flattened) array.

    >>> intersect1d([3, 1, 2], [2, 3, 5]).compute()
    array([2, 3])
    >>> [v.tolist() for v in intersect1d([3, 1, 2, 3], [2, 3, 5], return_indices=True)]
    [[2, 3], [2, 0], [0, 1]]
    """
    first, second = _set_operand(ar1), _set_operand(ar2)
    if return_indices:
        return _intersect_with_indices(wrap(first), wrap(second), assume_unique)
    values = unique(wrap(first))
    mask = isin(values, wrap(second))
    # numpy finds the common values in the concatenation: their promoted dtype.
    common = lt.getitem(values._var, mask._var)
    return wrap(lt.cast(common, lt.result_type(first, second)))


def _intersect_with_indices(a: Array, b: Array, assume_unique: bool) -> tuple[Array, Array, Array]:
    """numpy's way: the (unique) values of both sorted together, stably; a value
    equal to its successor is common, the pair's positions say where."""
    from lazygraph.numpy._joining import concatenate
    from lazygraph.numpy._sorting import argsort

    if assume_unique:
        first_at = second_at = None
    else:
        a, first_at = unique(a, return_index=True)
        b, second_at = unique(b, return_index=True)
    both = concatenate((a, b))
    order = argsort(both, kind="stable")
    both = both[order]
    same = both[1:] == both[:-1]
    common = both[:-1][same]
    in_first = order[:-1][same]
    in_second = order[1:][same] - a.shape[0]
    if first_at is not None:
        in_first, in_second = first_at[in_first], second_at[in_second]
    return common, in_first, in_second


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> Array:
    """The sorted unique values of ``ar1`` not in ``ar2`` (``numpy.setdiff1d``).

    >>> setdiff1d([3, 1, 2, 1], [2]).compute()
    array([1, 3])
    """
    values = unique(wrap(_set_operand(ar1)))
    mask = isin(values, wrap(_set_operand(ar2)), invert=True)
    return wrap(lt.getitem(values._var, mask._var))


def setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> Array:
    """The sorted values in exactly one of the arrays (``numpy.setxor1d``): the
    unique values of each (``assume_unique``: the arrays as they are, flattened)
    sorted together, keeping those equal to neither neighbour.

    >>> setxor1d([1, 2, 3, 2], [2, 3, 5]).compute()
    array([1, 5])
    """
    first, second = _set_operand(ar1), _set_operand(ar2)
    if not assume_unique:
        first, second = unique(wrap(first))._var, unique(wrap(second))._var
    ordered = lt.sort(lt.concatenate([first, second]))
    step = lt.not_equal(ordered[1:], ordered[:-1])
    edge = lt.ones([1], dtype="bool")
    flag = lt.concatenate([edge, step, edge])  # numpy's flag: the ends count as unequal
    keep = lt.logical_and(flag[1:], flag[:-1])
    n = lt.shape_tuple(ordered)[0]
    # (one flag too many when there is nothing: numpy returns the empty array)
    return wrap(lt.getitem(ordered, lt.getitem(keep, slice(0, n))))

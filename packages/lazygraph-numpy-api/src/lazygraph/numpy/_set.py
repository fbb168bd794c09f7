"""Set functions: numpy's ``unique`` (with its ``return_*`` flags and
``equal_nan``), the array API's ``unique_all``/``unique_counts``/
``unique_inverse``/``unique_values``, ``isin``, and numpy's set operations on
1-d arrays ``union1d``, ``intersect1d`` and ``setdiff1d``.

The number of unique values is known only when computed, so results have an
unknown size until then.

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
    as one value. ``axis`` other than None is supported for 1-d input only.

    >>> values, inverse = unique([[3, 1], [3, 3]], return_inverse=True)
    >>> values.compute(), inverse.compute()
    (array([1, 3]), array([[1, 0],
           [1, 1]]))
    """
    x = lt.as_tensor_variable(as_variable(ar))
    if axis is not None:
        normalize_axis(axis, x.ndim, "unique")  # numpy's AxisError first
        if x.ndim != 1:
            raise UnsupportedArgumentsError("unique: axis= is supported for 1-d arrays only")
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
    results = [wrap(values)]
    if return_index:
        results.append(wrap(index))
    if return_inverse:
        results.append(wrap(inverse))
    if return_counts:
        results.append(wrap(counts))
    return results[0] if len(results) == 1 else tuple(results)


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


def intersect1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> Array:
    """The sorted unique values in both arrays (``numpy.intersect1d``).

    >>> intersect1d([3, 1, 2], [2, 3, 5]).compute()
    array([2, 3])
    """
    first, second = _set_operand(ar1), _set_operand(ar2)
    values = unique(wrap(first))
    mask = isin(values, wrap(second))
    # numpy finds the common values in the concatenation: their promoted dtype.
    common = lt.getitem(values._var, mask._var)
    return wrap(lt.cast(common, lt.result_type(first, second)))


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> Array:
    """The sorted unique values of ``ar1`` not in ``ar2`` (``numpy.setdiff1d``).

    >>> setdiff1d([3, 1, 2, 1], [2]).compute()
    array([1, 3])
    """
    values = unique(wrap(_set_operand(ar1)))
    mask = isin(values, wrap(_set_operand(ar2)), invert=True)
    return wrap(lt.getitem(values._var, mask._var))

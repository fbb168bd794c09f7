"""Sorting with numpy's signatures and the array API's keywords: ``sort`` and
``argsort`` take numpy's ``axis``/``kind``/``stable`` and the array API's
``descending``; NaNs sort last, as in numpy. ``lexsort`` sorts by several keys;
``partition``/``argpartition`` give a full sort, one valid partition.

>>> sort([3, 1, 2], descending=True).compute()
array([3, 2, 1])
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.shape import normalize_axis

__all__ = ["argpartition", "argsort", "lexsort", "partition", "sort"]

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _options(name: str, kind: Any, order: Any, stable: bool | None) -> None:
    """Check numpy's ``kind``/``order``/``stable`` keywords."""
    if order is not None:
        raise UnsupportedArgumentsError(f"{name}: order= (structured arrays) is not supported")
    if kind not in _KINDS:
        raise ValueError(f"{name}: sort kind must be one of 'quick', 'heap', or 'stable'")
    if stable is not None and kind is not None:
        raise ValueError(
            f"{name}: `kind` and `stable` parameters can't be provided at the same time. "
            "Use only one of them."
        )


def sort(
    a: ArrayLike,
    /,
    axis: int | None = -1,
    kind: str | None = None,
    order: Any = None,
    *,
    stable: bool | None = None,
    descending: bool = False,
) -> Array:
    """``a`` sorted along ``axis`` (flattened if None) (``numpy.sort``); with
    ``descending=True`` largest first, equal elements keeping their order when
    ``stable``.

    >>> sort([[3, 1], [0, 2]], axis=0).compute()
    array([[0, 1],
           [3, 2]])
    """
    _options("sort", kind, order, stable)
    # Sorted values do not depend on stability; a stable sort is always correct.
    return wrap(lt.sort(as_variable(a), axis, descending=descending, stable=True))


def argsort(
    a: ArrayLike,
    /,
    axis: int | None = -1,
    kind: str | None = None,
    order: Any = None,
    *,
    stable: bool | None = None,
    descending: bool = False,
) -> Array:
    """The int64 indices that sort ``a`` along ``axis`` (``numpy.argsort``). Sorts
    are always stable here, so ties keep their original order (numpy's default
    quicksort happens to agree for small arrays, not in general).

    >>> argsort([3.0, 1.0, 2.0]).compute()
    array([1, 2, 0])
    """
    _options("argsort", kind, order, stable)
    return wrap(lt.argsort(as_variable(a), axis, descending=descending, stable=True))


def lexsort(keys: Any, axis: int = -1) -> Array:
    """The indices that sort by several 1-d keys, the last key primary
    (``numpy.lexsort``).

    >>> lexsort(([1, 2, 0], [0, 0, 1])).compute()
    array([0, 1, 2])
    """
    if isinstance(keys, Array) or hasattr(keys, "__lazygraph_variable__"):
        k = as_tensor(keys)
        columns = [lt.getitem(k, i) for i in range(k.type.shape[0])]
    else:
        columns = [as_tensor(k) for k in keys]
    if not columns:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if any(c.ndim != 1 for c in columns) or axis not in (-1, 0):
        raise UnsupportedArgumentsError("lexsort: only 1-d keys are supported by lazygraph")
    # Stable sorts from the least significant key to the most significant.
    order = lt.argsort(columns[0], stable=True)
    for column in columns[1:]:
        order = lt.take(order, lt.argsort(lt.take(column, order), stable=True))
    return wrap(order)


def partition(
    a: ArrayLike, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None
) -> Array:
    """``a`` rearranged so the ``kth`` element is where a sort puts it, smaller
    ones before and larger after (``numpy.partition``). lazygraph returns the
    fully sorted array, which is one valid partition (numpy's order of the other
    elements is unspecified).

    >>> partition([3, 1, 2], 1).compute()[1]
    np.int64(2)
    """
    _check_kth(a, kth, axis)
    return wrap(lt.sort(as_variable(a), axis))


def argpartition(
    a: ArrayLike, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None
) -> Array:
    """Indices that partition ``a`` (``numpy.argpartition``); lazygraph gives the
    indices of a full stable sort, one valid partition.

    >>> argpartition([3, 1, 2], 0).compute()[0]
    np.int64(1)
    """
    _check_kth(a, kth, axis)
    return wrap(lt.argsort(as_variable(a), axis, stable=True))


def _check_kth(a: ArrayLike, kth: Any, axis: int | None) -> None:
    x = as_tensor(a)
    n = x.type.shape[normalize_axis(axis, x.ndim, "partition")] if axis is not None else None
    if axis is None:
        sizes = x.type.shape
        n = None if None in sizes else int(np.prod(sizes))
    for k in np.atleast_1d(kth):
        if n is not None and not -n <= int(k) < n:
            raise ValueError(f"kth(={int(k)}) out of bounds ({n})")

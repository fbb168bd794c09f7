"""Sorting with numpy's signatures and the array API's keywords: ``sort`` and
``argsort`` take numpy's ``axis``/``kind``/``stable`` and the array API's
``descending``; NaNs sort last, as in numpy.

>>> sort([3, 1, 2], descending=True).compute()
array([3, 2, 1])
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike

__all__ = ["argsort", "sort"]

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

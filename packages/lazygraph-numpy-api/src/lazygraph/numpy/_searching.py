"""Searching with numpy's signatures: ``argmax``/``argmin``, ``nonzero``,
``flatnonzero``, ``argwhere``, ``where`` (both forms), ``count_nonzero``,
``searchsorted`` and ``extract``.

Functions whose result size depends on the data (``nonzero``, ``argwhere``,
one-argument ``where``) give arrays whose size is unknown until computed.

>>> argmax([[1, 5], [7, 2]], axis=1).compute()
array([1, 0])
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._ufunc import ArrayLike, accepts_out

__all__ = [
    "argmax",
    "argmin",
    "argwhere",
    "count_nonzero",
    "extract",
    "flatnonzero",
    "nonzero",
    "searchsorted",
    "where",
]

_NO_VALUE: Any = object()


@accepts_out(casting="equiv")
def argmax(
    a: ArrayLike, axis: int | None = None, out: None = None, *, keepdims: bool = False
) -> Array:
    """The index of the largest element along ``axis`` (of the flattened array if
    None); the first one on ties, the first NaN if any (``numpy.argmax``).

    >>> argmax([3.0, 7.0, 7.0]).compute()
    array(1)
    """
    return wrap(lt.argmax(as_variable(a), axis=axis, keepdims=keepdims))


@accepts_out(casting="equiv")
def argmin(
    a: ArrayLike, axis: int | None = None, out: None = None, *, keepdims: bool = False
) -> Array:
    """The index of the smallest element along ``axis`` (``numpy.argmin``).

    >>> argmin([[3, 1], [0, 4]], axis=0).compute()
    array([1, 0])
    """
    return wrap(lt.argmin(as_variable(a), axis=axis, keepdims=keepdims))


def nonzero(a: ArrayLike) -> tuple[Array, ...]:
    """The indices of the nonzero elements, one int64 array per dimension
    (``numpy.nonzero``; a 0-d input is a ValueError, as in numpy 2).

    >>> rows, cols = nonzero([[0, 3], [4, 0]])
    >>> rows.compute(), cols.compute()
    (array([0, 1]), array([1, 0]))
    """
    return tuple(wrap(i) for i in lt.nonzero(as_variable(a)))


def flatnonzero(a: ArrayLike) -> Array:
    """The indices of the nonzero elements of the flattened array (``numpy.flatnonzero``).

    >>> flatnonzero([[0, 3], [4, 0]]).compute()
    array([1, 2])
    """
    return wrap(lt.nonzero(lt.ravel(as_variable(a)))[0])


def argwhere(a: ArrayLike) -> Array:
    """The indices of the nonzero elements as rows of an ``(N, a.ndim)`` array
    (``numpy.argwhere``).

    >>> argwhere([[0, 3], [4, 0]]).compute()
    array([[0, 1],
           [1, 0]])
    """
    x = lt.as_tensor_variable(as_variable(a))
    if x.ndim == 0:
        x = lt.reshape(x, (1,))
        return wrap(lt.getitem(lt.stack(lt.nonzero(x), axis=1), (slice(None), slice(0, 0))))
    return wrap(lt.stack(lt.nonzero(x), axis=1))


def where(condition: ArrayLike, x: ArrayLike = _NO_VALUE, y: ArrayLike = _NO_VALUE, /) -> Any:
    """``x`` where ``condition`` is true, else ``y``, all three broadcast
    (``numpy.where``); with ``condition`` alone, :func:`nonzero`.

    >>> where([True, False], [1.0, 2.0], -1.0).compute()
    array([ 1., -1.])
    """
    if x is _NO_VALUE and y is _NO_VALUE:
        return nonzero(condition)
    if x is _NO_VALUE or y is _NO_VALUE:
        raise ValueError("either both or neither of x and y should be given")
    cond = as_variable(condition)
    return wrap(lt.where(cond, as_variable(x), as_variable(y)))


def count_nonzero(a: ArrayLike, axis: Any = None, *, keepdims: bool = False) -> Any:
    """How many elements are nonzero, over ``axis`` (``numpy.count_nonzero``).

    >>> count_nonzero([[0, 3], [4, 5]], axis=0).compute()
    array([1, 2])
    """
    axis = tuple(axis) if isinstance(axis, list) else axis
    return wrap(lt.count_nonzero(as_variable(a), axis=axis, keepdims=keepdims))


def searchsorted(a: ArrayLike, v: ArrayLike, side: str = "left", sorter: ArrayLike = None) -> Array:
    """Where to insert each element of ``v`` into the sorted 1-d ``a`` to keep it
    sorted, the first (``side="left"``) or last (``"right"``) such index
    (``numpy.searchsorted``); ``sorter`` sorts ``a`` if it is not sorted itself.

    >>> searchsorted([1.0, 2.0, 3.0], [2.0, 2.5], side="right").compute()
    array([2, 2])
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right' (got {side!r})")
    s = None if sorter is None else as_variable(sorter)
    return wrap(lt.searchsorted(as_variable(a), as_variable(v), side=side, sorter=s))


def extract(condition: ArrayLike, arr: ArrayLike) -> Array:
    """The elements of the flattened ``arr`` where the flattened ``condition`` is
    true (``numpy.extract``).

    >>> extract([[True, False], [False, True]], [[1, 2], [3, 4]]).compute()
    array([1, 4])
    """
    flat = lt.ravel(as_variable(arr))
    cond = lt.ravel(lt.as_tensor_variable(as_variable(condition)))
    (idx,) = lt.nonzero(cond)
    return wrap(lt.take(flat, idx))

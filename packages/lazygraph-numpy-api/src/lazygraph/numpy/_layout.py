"""Conversions that read an array's layout or check its values, with numpy's
signatures: ``require``, ``asfortranarray``, ``isfortran``,
``may_share_memory`` and ``shares_memory``; ``asarray_chkfinite`` and
``real_if_close``.

A lazy array's value is an immutable graph value; its *layout* is numpy's for
the chain of views it was made by (see :mod:`lazygraph.numpy._views`:
``a.T`` of a C-ordered array is Fortran-ordered, as in numpy), and two lazy
arrays share memory exactly when a write to one is seen by the other: when they
are views of the same base, over overlapping elements. A lazy array and a
numpy array share memory where the buffer the lazy one reads overlaps the
numpy one (``asarray(x, copy=False)`` reads the caller's buffer itself).

``asarray_chkfinite`` and ``real_if_close`` compute their check (one boolean)
when called: numpy's error, or numpy's result dtype, depends on it.

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> a = lnp.asarray(numpy.zeros((2, 3)))
>>> isfortran(a), isfortran(a.T), shares_memory(a, a.T[1]), shares_memory(a, a.copy())
(False, True, True, False)
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy import _views
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import BoundVariable, as_tensor, asarray
from lazygraph.numpy._editing import is_lazy, value_now
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike

__all__ = [
    "asarray_chkfinite",
    "asfortranarray",
    "isfortran",
    "may_share_memory",
    "real_if_close",
    "require",
    "shares_memory",
]

_FLAGS = {
    "C": "C",
    "C_CONTIGUOUS": "C",
    "CONTIGUOUS": "C",
    "F": "F",
    "F_CONTIGUOUS": "F",
    "FORTRAN": "F",
    "A": "A",
    "ALIGNED": "A",
    "W": "W",
    "WRITEABLE": "W",
    "O": "O",
    "OWNDATA": "O",
    "E": "E",
    "ENSUREARRAY": "E",
}


# -- layout ------------------------------------------------------------------------


def _model(arr: Array) -> np.ndarray | None:
    """A zero-memory numpy array with ``arr``'s numpy strides (None if unknown)."""
    return _views.strides_model(arr)


def isfortran(a: Any) -> bool:
    """Whether ``a`` is Fortran-contiguous and not C-contiguous
    (``numpy.isfortran``); for a lazy array, as numpy's strides for its chain of
    views say.

    >>> import lazygraph.numpy as lnp
    >>> x = lnp.zeros((2, 3))
    >>> isfortran(x), isfortran(x.T), isfortran(asfortranarray(x))
    (False, True, True)
    """
    if not isinstance(a, Array):
        return bool(np.isfortran(a))
    fake = _model(a)
    return fake is not None and bool(fake.flags.fnc)


def _fortran(arr: Array) -> Array:
    """``arr``, or a Fortran-ordered copy of it: the transpose of a C-ordered copy
    of its transpose (whose strides numpy's would have)."""
    fake = _model(arr)
    if fake is not None and fake.flags.f_contiguous:
        return arr
    return arr.T.copy().T


def _contiguous(arr: Array) -> Array:
    fake = _model(arr)
    if fake is not None and fake.flags.c_contiguous:
        return arr
    return arr.copy()


def asfortranarray(a: ArrayLike, dtype: DTypeLike = None, *, like: Any = None) -> Array:
    """``a`` as a lazy array of at least one dimension laid out in Fortran order
    (``numpy.asfortranarray``): ``a`` itself when it is already, else a copy
    whose views, ``ravel(order="A")`` and ``isfortran`` see Fortran order.

    >>> import lazygraph.numpy as lnp
    >>> f = asfortranarray(lnp.asarray([[1, 2], [3, 4]]))
    >>> f.ravel(order="A").compute()
    array([1, 3, 2, 4])
    """
    arr = asarray(a, dtype=dtype)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    return _fortran(arr)


def require(
    a: ArrayLike, dtype: DTypeLike = None, requirements: Any = None, *, like: Any = None
) -> Array:
    """``a`` as a lazy array of ``dtype`` meeting ``requirements`` (``numpy.require``):
    ``"C"``/``"F"`` (contiguous in that order), ``"A"`` (aligned), ``"W"``
    (writeable), ``"O"`` (owns its data: not a view), ``"E"`` (an array); a
    copy where ``a`` does not meet them.

    >>> import lazygraph.numpy as lnp
    >>> x = lnp.zeros((2, 3))
    >>> y = require(x.T, requirements=["C", "O"])
    >>> isfortran(x.T), isfortran(y), y._base is None
    (True, False, True)
    """
    if not requirements:
        return asarray(a, dtype=dtype)
    flags = {_FLAGS[x.upper()] for x in requirements}
    flags.discard("E")
    if flags >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "F" if "F" in flags else ("C" if "C" in flags else "A")
    flags -= {"C", "F"}
    arr = asarray(a, dtype=dtype)
    if order == "F":
        arr = _fortran(arr)
    elif order == "C":
        arr = _contiguous(arr)
    read_only = isinstance(arr._view, _views.ReadOnly)
    if ("O" in flags and arr._base is not None) or ("W" in flags and read_only):
        arr = _fortran(arr.copy()) if order == "F" or isfortran(arr) else arr.copy()
    return arr


# -- memory sharing --------------------------------------------------------------------


def _chain(arr: Array) -> tuple[Array, list[Any]]:
    """``arr``'s base array (not a view) and the views from it to ``arr``."""
    views = []
    node = arr
    while node._base is not None:
        views.append(node._view)
        node = node._base
    return node, views[::-1]


def _apply(views: list[Any], base: np.ndarray) -> np.ndarray | None:
    for view in views:
        base = view.strided(base)
        if base is None:
            return None
    return base


def _overlap(a: Any, b: Any, exact: bool, max_work: Any) -> bool:
    test = np.shares_memory if exact else np.may_share_memory
    if not isinstance(a, Array) and not isinstance(b, Array):
        return bool(test(a, b, max_work=max_work))
    if isinstance(a, Array) and isinstance(b, Array):
        root_a, views_a = _chain(a)
        root_b, views_b = _chain(b)
        if root_a is not root_b:
            return False  # writes to one never reach the other
        shape = root_a._cur.type.shape  # (a model of the layout: computes nothing)
        if None in shape:
            return True
        base = np.lib.stride_tricks.as_strided(
            np.zeros(1, dtype=np.uint8), shape, _views._c_strides(shape), writeable=False
        )
        fake_a, fake_b = _apply(views_a, base), _apply(views_b, base)
        if fake_a is None or fake_b is None:
            return True  # a view numpy's strides cannot describe (diagonal): the same base
        return bool(test(fake_a, fake_b, max_work=max_work))
    lazy, other = (a, b) if isinstance(a, Array) else (b, a)
    root, views = _chain(lazy)
    var = root._cur
    if type(var) is not BoundVariable or not isinstance(other, np.ndarray):
        return False  # a value still to be computed is a new buffer
    view = _apply(views, var.bound)
    return bool(test(var.bound if view is None else view, other, max_work=max_work))


def may_share_memory(a: Any, b: Any, /, max_work: int | None = None) -> bool:
    """Whether ``a`` and ``b`` might share memory, by the bounds of the memory
    they span (``numpy.may_share_memory``); for lazy arrays, the views of one
    base whose elements' bounds overlap (see the module docstring).

    >>> import lazygraph.numpy as lnp
    >>> x = lnp.zeros(6)
    >>> may_share_memory(x[::2], x[1::2]), may_share_memory(x[:3], x[3:])
    (True, False)
    """
    return _overlap(a, b, exact=False, max_work=max_work)


def shares_memory(a: Any, b: Any, /, max_work: int | None = None) -> bool:
    """Whether ``a`` and ``b`` share an element of memory (``numpy.shares_memory``);
    for lazy arrays, whether they are views of one base over a common element,
    so that a write to one is seen by the other.

    >>> import lazygraph.numpy as lnp
    >>> x = lnp.zeros(6)
    >>> shares_memory(x[::2], x[1::2]), shares_memory(x, x[2:4].T)
    (False, True)
    """
    return _overlap(a, b, exact=True, max_work=max_work)


# -- value checks ---------------------------------------------------------------------


def asarray_chkfinite(a: ArrayLike, dtype: DTypeLike = None, order: str | None = None) -> Array:
    """``a`` as a lazy array, or numpy's ValueError if a floating-point or complex
    ``a`` holds an inf or NaN (``numpy.asarray_chkfinite``; the check is
    computed now).

    >>> asarray_chkfinite([1.0, 2.0]).compute()
    array([1., 2.])
    >>> asarray_chkfinite([1.0, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: array must not contain infs or NaNs
    """
    if not is_lazy(a):
        a = np.asarray(a, dtype=dtype, order=order)
        dtype = None
    arr = asarray(a, dtype=dtype, order=order)
    if arr.dtype.char in np.typecodes["AllFloat"]:
        ok = value_now(lt.all(lt.isfinite(arr._var))) if is_lazy(a) else np.isfinite(a).all()
        if not ok:
            raise ValueError("array must not contain infs or NaNs")
    return arr


def real_if_close(a: ArrayLike, tol: float = 100) -> Array:
    """The real part of a complex ``a`` when every imaginary part is below
    ``tol`` (in machine epsilons when ``tol > 1``), else ``a`` itself
    (``numpy.real_if_close``). The result's dtype depends on the values, so the
    check is computed now; the values stay lazy.

    >>> real_if_close([2.1 + 4e-14j, 5.2 + 3e-15j], tol=1000).compute()
    array([2.1, 5.2])
    >>> real_if_close([2.1 + 4e-13j]).dtype
    dtype('complex128')
    """
    arr = a if isinstance(a, Array) else asarray(a)
    if arr.dtype.kind != "c":
        return arr
    if tol > 1:
        tol = np.finfo(arr.dtype).eps * tol
    close = lt.all(lt.less(lt.abs(lt.imag(as_tensor(arr))), tol))
    return arr.real if bool(value_now(close)) else arr

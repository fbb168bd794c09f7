"""How a lazy array shows itself and hashes: as numpy's array does.

``repr(x)`` is numpy's repr of the computed value, ``array([1., 2.])``, so a
REPL, a notebook cell, a doctest or ``print([a, b])`` shows what it shows under
numpy; a computed 0-d result (``x.sum()``, ``x[0]`` of a lazy ``x``), which is
numpy's scalar, shows as one (``np.float64(4.5)``) and hashes as one (a dict
key, a set member). A 0-d array made as an array (``array(4.5)``,
``zeros(())``) shows as ``array(4.5)`` and, as numpy's, has no hash. The
summary without the value, ``Array(shape=(3,), dtype=float64, lazy)``, is
shown where computing is not wanted or not possible: on the dask backend (as a
``dask.array`` shows itself; the value may not fit in memory) and for a value
that cannot be computed now (a traced function's placeholder).

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray(numpy.array([1.5, 3.0]))
>>> x * 2
array([3., 6.])
>>> (x * 2).sum(), {(x * 2).sum(): "total"}
(np.float64(9.0), {np.float64(9.0): 'total'})
>>> lnp.array(4.5)
array(4.5)
>>> summary(x)
'Array(shape=(2,), dtype=float64, lazy)'
"""

from __future__ import annotations

from typing import Any

from lazygraph.configuration import config

__all__ = ["array_hash", "array_repr", "is_scalar_result", "summary"]


def summary(arr: Any) -> str:
    """The array's shape and dtype, computing nothing (``None`` for a size the
    data decides, such as a boolean mask's result)."""
    static = arr._static_shape  # (never computes)
    shape = "(" + ", ".join(str(s) for s in static) + ("," if arr.ndim == 1 else "") + ")"
    return f"Array(shape={shape}, dtype={arr.dtype}, lazy)"


def is_scalar_result(arr: Any) -> bool:
    """Whether ``arr`` is a computed 0-d result, numpy's immutable scalar (not a
    0-d array made as one, nor a view): it rebinds under ``+=``, hashes, shows
    and converts (``asarray``: a new 0-d array) as numpy's scalar does."""
    return not arr._nd0 and arr._base is None and arr._cur.type.ndim == 0


def array_repr(arr: Any) -> str:
    """numpy's repr of ``arr``'s value (see the module docstring)."""
    if config.backend == "dask":
        return summary(arr)
    try:
        value = arr._value()
    except Exception:  # (a placeholder of a traced function; a failed computation)
        return summary(arr)
    return repr(value[()] if is_scalar_result(arr) else value)


def array_hash(arr: Any) -> int:
    """The hash of a computed 0-d result's scalar; numpy's ``TypeError`` for an
    array."""
    if is_scalar_result(arr):
        return hash(arr._value()[()])
    raise TypeError("unhashable type: 'Array'")

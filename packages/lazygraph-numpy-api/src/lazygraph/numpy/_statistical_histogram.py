"""Histograms and binning: ``histogram``, ``histogram_bin_edges``,
``bincount`` and ``digitize``.

``histogram`` places each value with ``searchsorted`` on the bin edges
(``linspace`` of the data's range for a bin count, as numpy does) and counts
with an accumulating ``inc_subtensor``.

>>> counts, edges = histogram([1.0, 2.0, 2.5, 4.0], bins=3)
>>> counts.compute(), edges.compute()
(array([1, 2, 1]), array([1., 2., 3., 4.]))
>>> bincount([0, 1, 1, 3]).compute()
array([1, 2, 0, 1])
"""

from __future__ import annotations

import operator
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, known_value, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.variable import TensorVariable, constant

__all__ = ["bincount", "digitize", "histogram", "histogram_bin_edges"]

_ESTIMATORS = ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt")


def _edges_dtype(a: TensorVariable) -> str:
    kind = np.dtype(a.dtype).kind
    if kind == "c":
        raise TypeError("histogram: complex input is not supported (numpy: no ordering)")
    return a.dtype if kind == "f" else "float64"


def _bin_edges(
    a: TensorVariable, value: Any, bins: Any, range: Any, weights: Any, name: str
) -> tuple[TensorVariable, int]:
    """The bin edges for ``a`` (flattened; ``value``: its value when known at build
    time, else ``None``) and the number of bins."""
    if isinstance(bins, str):
        if bins not in _ESTIMATORS:
            raise ValueError(f"{name}: {bins!r} is not a valid estimator for `bins`")
        if value is None:
            raise UnsupportedArgumentsError(
                f"{name}: bins={bins!r} needs the data when building the graph; "
                "give a bin count or the edges instead"
            )
        w = None if weights is None else known_value(as_tensor(weights))
        edges = np.histogram_bin_edges(value.ravel(), bins, range, w)
        return constant(edges), edges.shape[0] - 1
    if (isinstance(bins, Array) and bins.ndim == 0) or (
        not isinstance(bins, Array) and np.ndim(bins) == 0
    ):
        try:
            count = operator.index(bins)
        except TypeError:
            raise TypeError(f"{name}: `bins` must be an integer, a string, or an array") from None
        if count < 1:
            raise ValueError(f"{name}: `bins` must be positive, when an integer")
        return _uniform_edges(a, value, count, range, name), count
    edges = as_tensor(bins)
    if edges.ndim != 1:
        raise ValueError(f"{name}: `bins` must be 1d, when an array")
    value = known_value(edges)
    if value is not None and np.any(value[:-1] > value[1:]):
        raise ValueError(f"{name}: `bins` must increase monotonically, when an array")
    if edges.type.shape[0] is None:
        raise UnsupportedArgumentsError(f"{name}: the number of bin edges must be known")
    return edges, edges.type.shape[0] - 1


def _uniform_edges(
    a: TensorVariable, value: Any, count: int, range: Any, name: str
) -> TensorVariable:
    """``count`` equal bins over ``range`` (numpy computes those edges: they
    depend on no data, so they are a constant) or over the data's min..max
    (computed in the graph, so new data of the same shape reuses the compiled
    function; data known now is checked now, for numpy's errors)."""
    dtype = _edges_dtype(a)
    if range is not None or a.type.shape[0] == 0:
        # numpy's own rules: range checks, edge dtype, "too many bins" error
        empty = np.empty(0, dtype=a.dtype)
        return constant(np.histogram_bin_edges(empty, count, range))
    if value is not None:
        np.histogram_bin_edges(value.ravel(), count)  # NaN / inf / too many bins
    lo, hi = lt.min(a), lt.max(a)
    if np.dtype(a.dtype).kind != "f":
        lo, hi = lt.cast(lo, dtype), lt.cast(hi, dtype)
    same = lt.equal(lo, hi)
    lo, hi = lt.where(same, lt.subtract(lo, 0.5), lo), lt.where(same, lt.add(hi, 0.5), hi)
    return lt.linspace(lo, hi, count + 1, dtype=dtype)


def histogram_bin_edges(
    a: ArrayLike, bins: Any = 10, range: tuple[float, float] | None = None, weights: Any = None
) -> Array:
    """The edges :func:`histogram` would use (``numpy.histogram_bin_edges``).

    >>> histogram_bin_edges([0.0, 1.0, 3.0], bins=3).compute()
    array([0., 1., 2., 3.])
    """
    raw = as_tensor(a)
    edges = _bin_edges(lt.ravel(raw), known_value(raw), bins, range, weights, "histogram_bin_edges")
    return wrap(edges[0])


def histogram(
    a: ArrayLike,
    bins: Any = 10,
    range: tuple[float, float] | None = None,
    density: bool | None = None,
    weights: ArrayLike = None,
) -> tuple[Array, Array]:
    """The histogram of the flattened ``a`` and its bin edges (``numpy.histogram``).

    ``bins`` is a bin count (equal bins over ``range``, default the data's
    min..max), an array of edges, or (for data known when the graph is built)
    one of numpy's estimator names. Every bin is half-open except the last,
    which includes its right edge; values outside the edges are not counted.
    With ``weights`` each value counts its weight (the counts take the weights'
    dtype); ``density`` divides by the total and the bin widths. Where numpy
    raises for NaN in the data, data known only when computed gives NaN edges
    and zero counts with a bin count (with explicit edges NaNs count nowhere).

    >>> counts, edges = histogram([0, 1, 1, 2, 5], bins=[0, 1, 2, 6])
    >>> counts.compute()
    array([1, 2, 2])
    """
    raw = as_tensor(a)
    x = lt.ravel(raw)
    w: TensorVariable | None = None
    if weights is not None:
        w = as_tensor(weights)
        if w.type.shape != raw.type.shape:
            raise ValueError(
                f"histogram: weights should have the same shape as a. "
                f"(a: {raw.type.shape}, weights: {w.type.shape})"
            )
        w = lt.ravel(w)
    edges, count = _bin_edges(x, known_value(raw), bins, range, weights, "histogram")
    if count <= 0:
        dtype = "int64" if w is None else w.dtype
        return wrap(lt.zeros((0,), dtype=dtype)), wrap(edges)
    first, last = lt.getitem(edges, 0), lt.getitem(edges, -1)
    keep = lt.logical_and(lt.greater_equal(x, first), lt.less_equal(x, last))
    index = lt.subtract(lt.searchsorted(edges, x, side="right"), 1)
    index = lt.clip(index, 0, count - 1)  # the last edge belongs to the last bin
    if w is None:
        accumulate, amounts = "int64", lt.cast(keep, "int64")
    else:
        accumulate = "complex128" if np.dtype(w.dtype).kind == "c" else "float64"
        amounts = lt.where(keep, lt.cast(w, accumulate), lt.zeros((), dtype=accumulate))
    counts = lt.inc_subtensor(lt.getitem(lt.zeros((count,), dtype=accumulate), index), amounts)
    if density:
        widths = lt.cast(
            lt.subtract(lt.getitem(edges, slice(1, None)), lt.getitem(edges, slice(None, -1))),
            "float64",
        )
        total = lt.sum(counts)
        return wrap(lt.divide(lt.divide(lt.cast(counts, "float64"), widths), total)), wrap(edges)
    if w is not None and w.dtype != accumulate:
        counts = lt.cast(counts, w.dtype)
    return wrap(counts), wrap(edges)


def bincount(x: ArrayLike, /, weights: ArrayLike = None, minlength: int = 0) -> Array:
    """How often each value ``0..max(x)`` occurs in the non-negative 1-d integer
    ``x``, or the sum of ``weights`` at each value (``numpy.bincount``); at least
    ``minlength`` bins. The length is known only when computed.

    >>> bincount([2, 0, 2], weights=[0.5, 1.0, 2.0]).compute()
    array([1. , 0. , 2.5])
    """
    v = as_tensor(x)
    if v.ndim != 1:
        raise ValueError(
            "object too deep for desired array"
            if v.ndim > 1
            else "object of too small depth for desired array"
        )
    if np.dtype(v.dtype).kind not in "biu":
        raise TypeError(
            f"bincount: cannot cast array data from dtype('{v.dtype}') to dtype('int64') "
            "according to the rule 'safe'"
        )
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("bincount: 'minlength' must not be negative")
    known = known_value(v)
    if known is not None and known.size and known.min() < 0:
        raise ValueError(f"bincount: x must have no negative elements (min {known.min()})")
    v = lt.cast(v, "int64")
    n = v.type.shape[0]
    top = lt.add(lt.max(v), 1) if n != 0 else 0
    size = lt.maximum(top, minlength) if n != 0 else minlength
    if weights is None:
        dtype, amounts = "int64", 1
    else:
        if isinstance(weights, (str, bytes, list, tuple, np.ndarray)):
            values = np.asarray(weights)
            if values.dtype.kind in "USO":  # numpy parses them as float64, or ValueError
                weights = values.astype(np.float64)
        w = as_tensor(weights)
        if np.dtype(w.dtype).kind == "c":
            raise TypeError(f"bincount: cannot cast weights of dtype {w.dtype} to float64")
        dtype, amounts = "float64", lt.cast(w, "float64")
    if n == 0:
        return wrap(lt.zeros(size, dtype="int64"))  # numpy: int64 for empty input
    zeros = lt.zeros(size, dtype=dtype)
    if known is None:
        # A computed negative value must not count at the end: it becomes an
        # out-of-bounds index, an IndexError when computed (numpy: ValueError).
        v = lt.where(lt.less(v, 0), size, v)
    return wrap(lt.inc_subtensor(lt.getitem(zeros, v), amounts))


def digitize(x: ArrayLike, bins: Any, right: bool = False) -> Array:
    """The index of the bin each value of ``x`` falls in, for monotonic ``bins``
    (``numpy.digitize``; ``right`` says which edge a bin includes).

    >>> digitize([0.5, 1.0, 2.5], [0.0, 1.0, 2.0]).compute()
    array([1, 2, 3])
    """
    b = as_tensor(bins)
    if b.ndim != 1:
        raise ValueError("object too deep for desired array")
    side = "left" if right else "right"
    decreasing = False
    if isinstance(bins, np.ndarray | list | tuple):
        values = np.asarray(bins)
        increasing = bool(np.all(values[1:] >= values[:-1]))
        decreasing = not increasing and bool(np.all(values[1:] <= values[:-1]))
        if not (increasing or decreasing):
            raise ValueError("bins must be monotonically increasing or decreasing")
    xv = as_variable(x)
    if decreasing:
        n = lt.shape_tuple(b)[0]
        return wrap(lt.subtract(n, lt.searchsorted(lt.flip(b), xv, side=side)))
    return wrap(lt.searchsorted(b, xv, side=side))

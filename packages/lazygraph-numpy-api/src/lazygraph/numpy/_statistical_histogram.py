"""Histograms and binning: ``histogram``, ``histogram_bin_edges``,
``histogram2d``, ``histogramdd``, ``bincount`` and ``digitize``.

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

import builtins
import operator
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, known_value, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.variable import TensorVariable, constant

__all__ = [
    "bincount",
    "digitize",
    "histogram",
    "histogram2d",
    "histogram_bin_edges",
    "histogramdd",
]

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
            # numpy's rule reads the data's values: computed now, as numpy code
            # asking for these edges would (a bin count or edges stay lazy)
            value = np.asarray(wrap(a).compute())
        w = None if weights is None else np.asarray(wrap(as_tensor(weights)).compute())
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
    min..max), an array of edges, or one of numpy's estimator names (which
    read the data's values: lazy data is computed for them). Every bin is half-open except the last,
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


# -- histogram2d / histogramdd ------------------------------------------------------


def _sample_columns(sample: Any) -> tuple[TensorVariable, Any]:
    """numpy's reading of a histogramdd sample: an (N, D) array, or else (a 1-d
    array, a sequence of D 1-d arrays) ``atleast_2d(sample).T``; with its value
    when known (for numpy's errors)."""
    from lazygraph.numpy._convert import asarray

    s = asarray(sample)._var
    value = known_value(s)
    if hasattr(sample, "shape") and s.ndim == 2:
        return s, value
    if s.ndim > 2:
        raise ValueError(f"too many values to unpack (expected 2, got {s.ndim})")
    while s.ndim < 2:
        s = lt.expand_dims(s, 0)
    return lt.transpose(s), None if value is None else np.atleast_2d(value).T


def _outer_edges(column: TensorVariable, value: Any, range: Any) -> tuple[Any, Any]:
    """The outer edges of one dimension (numpy's _get_outer_edges): ``range``, or
    the column's min..max (in the graph; known data checked for numpy's errors),
    widened by 0.5 each side when that is one value. Numbers, or 0-d tensors."""
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
        if first == last:
            first, last = first - 0.5, last + 0.5
        return first, last
    if column.type.shape[0] == 0:
        return 0, 1
    if value is not None:
        lo_value, hi_value = value.min(), value.max()
        if not (np.isfinite(lo_value) and np.isfinite(hi_value)):
            raise ValueError(f"autodetected range of [{lo_value}, {hi_value}] is not finite")
    kind = np.dtype(column.dtype).kind
    if kind == "c":
        raise TypeError("histogramdd: complex input is not supported (numpy: no ordering)")
    lo, hi = lt.min(column), lt.max(column)
    if kind != "f":
        lo, hi = lt.cast(lo, "float64"), lt.cast(hi, "float64")
    same = lt.equal(lo, hi)
    return lt.where(same, lt.subtract(lo, 0.5), lo), lt.where(same, lt.add(hi, 0.5), hi)


def _edges_dd(column: TensorVariable, value: Any, bins: Any, range: Any, i: int) -> TensorVariable:
    if np.ndim(bins) == 0:
        if bins < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        first, last = _outer_edges(column, value, range)
        try:
            count = operator.index(bins)
        except TypeError as exc:
            raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from exc
        if isinstance(first, TensorVariable):
            return lt.linspace(first, last, count + 1)
        return constant(np.linspace(first, last, count + 1))
    if np.ndim(bins) != 1:
        raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    edges = as_tensor(bins)
    value = known_value(edges)
    if value is not None and np.any(value[:-1] > value[1:]):
        raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
    if edges.type.shape[0] is None:
        raise UnsupportedArgumentsError("histogramdd: the number of bin edges must be known")
    return edges


def histogramdd(
    sample: Any,
    bins: Any = 10,
    range: Any = None,
    density: bool | None = None,
    weights: ArrayLike = None,
) -> tuple[Array, list[Array]]:
    """The D-dimensional histogram of ``sample`` (N points of D coordinates: an
    (N, D) array or a sequence of D 1-d arrays) and its edges per dimension
    (``numpy.histogramdd``). ``bins`` is one bin count for every dimension, or
    one count or edge array per dimension; ``range`` one ``(min, max)`` (or
    None) per dimension. The last bin of each dimension includes its right
    edge. Counts are float64 (numpy's); ``weights`` weigh each point,
    ``density`` divides by the total and the bin volumes.

    >>> import numpy as np
    >>> hist, edges = histogramdd(np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]), bins=2)
    >>> hist.compute()
    array([[1., 0.],
           [1., 1.]])
    >>> [e.compute() for e in edges]
    [array([0. , 0.5, 1. ]), array([0. , 0.5, 1. ])]
    """
    s, value = _sample_columns(sample)
    n_points, dims = lt.shape_tuple(s)
    if not isinstance(n_points, int) or not isinstance(dims, int):
        raise UnsupportedArgumentsError("histogramdd: the sample's shape must be known")
    try:
        if len(bins) != dims:
            raise ValueError(
                "The dimension of bins must be equal to the dimension of the sample x."
            )
    except TypeError:
        bins = dims * [bins]
    if range is None:
        range = (None,) * dims
    elif len(range) != dims:
        raise ValueError("range argument must have one entry per dimension")
    columns = [lt.getitem(s, (slice(None), i)) for i in builtins.range(dims)]
    edges = [
        _edges_dd(columns[i], None if value is None else value[:, i], bins[i], range[i], i)
        for i in builtins.range(dims)
    ]
    sizes = [lt.shape_tuple(e)[0] + 1 for e in edges]  # an outlier bin at each end
    flat_index: Any = None
    for column, edge, size in zip(columns, edges, sizes, strict=True):
        index = lt.searchsorted(edge, column, side="right")
        # a point on the last edge belongs to the last bin, not the outliers
        on_edge = lt.cast(lt.equal(column, lt.getitem(edge, -1)), index.dtype)
        index = lt.subtract(index, on_edge)
        flat_index = index if flat_index is None else lt.add(lt.multiply(flat_index, size), index)
    total = int(np.prod(sizes))
    if weights is None:
        amounts: Any = lt.ones((), dtype="int64")
        accumulate = "int64"
    else:
        w = as_tensor(weights)
        if np.dtype(w.dtype).kind == "c":
            raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64')")
        if w.type.shape != (n_points,):
            raise ValueError("The weights and list don't have the same length.")
        amounts, accumulate = lt.cast(w, "float64"), "float64"
    if n_points == 0:
        counts = lt.zeros((total,), dtype=accumulate)
    else:
        counts = lt.inc_subtensor(
            lt.getitem(lt.zeros((total,), dtype=accumulate), flat_index), amounts
        )
    hist = lt.cast(lt.reshape(counts, sizes), "float64")
    hist = lt.getitem(hist, (slice(1, -1),) * dims)
    if density:
        whole = lt.sum(hist)
        for i, edge in enumerate(edges):
            shape = [1] * dims
            shape[i] = sizes[i] - 2
            widths = lt.subtract(
                lt.getitem(edge, slice(1, None)), lt.getitem(edge, slice(None, -1))
            )
            hist = lt.true_divide(hist, lt.reshape(widths, shape))
        hist = lt.true_divide(hist, whole)
    return wrap(hist), [wrap(e) for e in edges]


def histogram2d(
    x: ArrayLike,
    y: ArrayLike,
    bins: Any = 10,
    range: Any = None,
    density: bool | None = None,
    weights: ArrayLike = None,
) -> tuple[Array, Array, Array]:
    """The 2-d histogram of the points ``(x[i], y[i])`` and its edges along x and
    y (``numpy.histogram2d``; ``bins``: one count or edge array for both, or a
    pair of them; see :func:`histogramdd`).

    >>> hist, xedges, yedges = histogram2d([0.0, 1.0, 1.0], [0.0, 1.0, 0.0], bins=2)
    >>> hist.compute()
    array([[1., 0.],
           [1., 1.]])
    """
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in {1, 2}:
        from lazygraph.numpy._convert import asarray

        both = asarray(bins)
        bins = [both, both]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]

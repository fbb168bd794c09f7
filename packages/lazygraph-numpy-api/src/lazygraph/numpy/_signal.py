"""1-d signal functions built from existing tensor ops: ``convolve``,
``correlate``, ``histogram`` and ``histogram_bin_edges``.

``convolve`` gathers the sliding windows of the longer (padded) input with
an integer-array index built in the graph, multiplies them by the reversed
shorter input and sums each window (the padding masked out, so NaN and inf
behave as in numpy), so it is differentiable in both inputs. ``histogram``
places each value with ``searchsorted`` on the bin edges (``linspace`` of the
data's range for a bin count, as numpy does) and counts with an accumulating
``inc_subtensor``.

>>> convolve([1.0, 2.0, 3.0], [0.0, 1.0, 0.5]).compute()
array([0. , 1. , 2.5, 4. , 1.5])
>>> counts, edges = histogram([1.0, 2.0, 2.5, 4.0], bins=3)
>>> counts.compute(), edges.compute()
(array([1, 2, 1]), array([1., 2., 3., 4.]))
"""

from __future__ import annotations

import operator
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, known_value, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.variable import TensorVariable, constant

__all__ = ["convolve", "correlate", "histogram", "histogram_bin_edges"]

_MODES = {"valid": "valid", "same": "same", "full": "full", 0: "valid", 1: "same", 2: "full"}
_ESTIMATORS = ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt")


def _signal_1d(x: Any, name: str, what: str) -> TensorVariable:
    """``x`` as a 1-d tensor of known length (``convolve``: numpy's
    ``array(x, ndmin=1)``; ``correlate`` takes 1-d only)."""
    v = as_tensor(x)
    if v.ndim > 1:
        raise ValueError(f"{name}: object too deep for desired array ({what} has shape {v.shape})")
    if v.ndim == 0 and name == "correlate":
        raise ValueError(f"{name}: object of too small depth for desired array ({what} is 0-d)")
    if v.ndim == 0:
        v = lt.reshape(v, (1,))
    if v.type.shape[0] is None:
        raise UnsupportedArgumentsError(
            f"{name}: the length of {what} must be known when building the graph"
        )
    return v


def _mode(mode: Any, name: str) -> str:
    try:
        return _MODES[mode]
    except (KeyError, TypeError):
        raise ValueError(
            f"{name}: mode must be one of 'valid', 'same', or 'full' (got {mode!r})"
        ) from None


def _convolve(long: TensorVariable, short: TensorVariable, mode: str) -> TensorVariable:
    """The convolution of ``long`` (length n) with ``short`` (length m <= n)."""
    n, m = long.type.shape[0], short.type.shape[0]
    assert n is not None and m is not None and m <= n
    dtype = lt.result_type(long, short)
    long, short = lt.cast(long, dtype), lt.cast(short, dtype)
    padded = mode != "valid" and m > 1
    if padded:
        long = lt.pad(long, (m - 1, m - 1))
    size = n - m + 1 if mode == "valid" else n + m - 1
    # windows[k, j] = long[k + j]; out[k] = sum_j windows[k, j] * short[m - 1 - j]
    index = lt.add(lt.expand_dims(lt.arange(size), 1), lt.arange(m))
    terms = lt.multiply(lt.getitem(long, index), lt.flip(short))
    if padded:
        # numpy never multiplies by the padding: 0 * nan would be nan
        inside = lt.logical_and(lt.greater_equal(index, m - 1), lt.less(index, n + m - 1))
        terms = lt.where(inside, terms, lt.zeros((), dtype=dtype))
    out = lt.sum(terms, axis=1, dtype=dtype)
    if mode == "same":
        start = (m - 1) // 2
        out = lt.getitem(out, slice(start, start + n))
    return out


def convolve(a: ArrayLike, v: ArrayLike, mode: str = "full") -> Array:
    """The discrete linear convolution of two 1-d sequences (``numpy.convolve``):
    ``mode`` ``"full"`` (length n + m - 1), ``"same"`` (the longer length,
    centred) or ``"valid"`` (where they overlap fully). The lengths must be known
    when the graph is built.

    >>> convolve([1, 2, 3], [1, 1], mode="same").compute()
    array([1, 3, 5])
    """
    x, k = _signal_1d(a, "convolve", "a"), _signal_1d(v, "convolve", "v")
    how = _mode(mode, "convolve")
    if x.type.shape[0] == 0:
        raise ValueError("convolve: a cannot be empty")
    if k.type.shape[0] == 0:
        raise ValueError("convolve: v cannot be empty")
    if k.type.shape[0] > x.type.shape[0]:  # type: ignore[operator]
        x, k = k, x
    return wrap(_convolve(x, k, how))


def correlate(a: ArrayLike, v: ArrayLike, mode: str = "valid") -> Array:
    """The cross-correlation of two 1-d sequences, ``c[k] = sum_n a[n + k] *
    conj(v[n])`` (``numpy.correlate``; ``mode`` as in :func:`convolve`, default
    ``"valid"``).

    >>> correlate([1.0, 2.0, 3.0], [0.0, 1.0, 0.5], mode="full").compute()
    array([0.5, 2. , 3.5, 3. , 0. ])
    """
    x, k = _signal_1d(a, "correlate", "a"), _signal_1d(v, "correlate", "v")
    how = _mode(mode, "correlate")
    if x.type.shape[0] == 0:
        raise ValueError("correlate: first array argument cannot be empty")
    if k.type.shape[0] == 0:
        raise ValueError("correlate: second array argument cannot be empty")
    if k.type.shape[0] <= x.type.shape[0]:  # type: ignore[operator]
        return wrap(_convolve(x, _conj(lt.flip(k)), how))
    # numpy correlates the longer one with the shorter and reverses the result
    return wrap(_conj(lt.flip(_convolve(k, _conj(lt.flip(x)), how))))


def _conj(x: TensorVariable) -> TensorVariable:
    return lt.conj(x) if np.dtype(x.dtype).kind == "c" else x


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

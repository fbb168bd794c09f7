"""1-d signal functions built from existing tensor ops: ``convolve`` and
``correlate``.

``convolve`` gathers the sliding windows of the longer (padded) input with
an integer-array index built in the graph, multiplies them by the reversed
shorter input and sums each window (the padding masked out, so NaN and inf
behave as in numpy), so it is differentiable in both inputs.

>>> convolve([1.0, 2.0, 3.0], [0.0, 1.0, 0.5]).compute()
array([0. , 1. , 2.5, 4. , 1.5])
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.variable import TensorVariable

__all__ = ["convolve", "correlate"]

_MODES = {"valid": "valid", "same": "same", "full": "full", 0: "valid", 1: "same", 2: "full"}


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

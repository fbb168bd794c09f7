"""Window functions for signal processing: ``bartlett``, ``blackman``,
``hamming``, ``hanning`` and ``kaiser``.

A window depends only on its length ``M`` (and ``kaiser``'s ``beta``), which
fixes its shape, so it is computed by numpy when asked for (numpy's values bit
for bit, numpy's handling of ``M < 1``, ``M == 1`` and non-integer ``M``) and
enters the graph as a known input: code that builds a window per call does not
grow the compile cache. A lazy ``beta`` records ``kaiser``'s formula instead
(numpy's operations on the lazy :func:`~lazygraph.numpy.i0`), so it is
differentiable in ``beta``.

>>> hamming(5).compute()
array([0.08, 0.54, 1.  , 0.54, 0.08])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, known_array, known_value, wrap
from lazygraph.numpy._elementwise_parts import _i0
from lazygraph.tensor.variable import TensorVariable

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _number(x: Any) -> Any:
    """A window parameter's value: a lazy array is computed (the window's length
    is its shape, needed now)."""
    if isinstance(x, (Array, TensorVariable)):
        v = as_tensor(x)
        value = known_value(v)
        return (value if value is not None else wrap(v).compute())[()]
    return x


def _window(fn: Callable[..., np.ndarray], *args: Any) -> Array:
    return known_array(np.array(fn(*(_number(a) for a in args))))


def bartlett(M: int) -> Array:
    """The Bartlett (triangular) window of ``M`` points (``numpy.bartlett``).

    >>> bartlett(5).compute()
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    return _window(np.bartlett, M)


def blackman(M: int) -> Array:
    """The Blackman window of ``M`` points (``numpy.blackman``).

    >>> blackman(3).compute()
    array([-1.38777878e-17,  1.00000000e+00, -1.38777878e-17])
    """
    return _window(np.blackman, M)


def hamming(M: int) -> Array:
    """The Hamming window of ``M`` points (``numpy.hamming``).

    >>> hamming(3).compute()
    array([0.08, 1.  , 0.08])
    """
    return _window(np.hamming, M)


def hanning(M: int) -> Array:
    """The Hann window of ``M`` points (``numpy.hanning``).

    >>> hanning(3).compute()
    array([0., 1., 0.])
    """
    return _window(np.hanning, M)


def kaiser(M: int, beta: Any) -> Array:
    """The Kaiser window of ``M`` points with shape parameter ``beta``
    (``numpy.kaiser``: ``i0(beta * sqrt(1 - ((n - alpha) / alpha)**2)) / i0(beta)``
    with ``alpha = (M - 1) / 2``). A lazy ``beta`` stays lazy (and differentiable).

    >>> kaiser(4, 5.0).compute()
    array([0.03671089, 0.7753221 , 0.7753221 , 0.03671089])
    """
    if not isinstance(beta, (Array, TensorVariable)):
        return _window(np.kaiser, M, beta)
    b = as_tensor(beta)
    if b.ndim != 0:
        raise ValueError("kaiser: beta must be a scalar")
    m = _number(M)
    # numpy's dtype: float64 at least, via np.array([0.0, M, beta])
    dtype = np.result_type(np.float64, np.asarray(m).dtype, np.dtype(b.dtype))
    if dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    b = lt.cast(b, dtype)
    m = dtype.type(m)
    if m == 1:
        return known_array(np.ones(1, dtype=dtype))
    n = np.arange(0, m)
    alpha = (m - 1) / 2.0
    # the part that does not involve beta, by numpy, in numpy's order
    root = np.sqrt(1 - ((n - alpha) / alpha) ** 2.0)
    return wrap(lt.true_divide(_i0(lt.multiply(b, lt.constant(root))), _i0(b)))

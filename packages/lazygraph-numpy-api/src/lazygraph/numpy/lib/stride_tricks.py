"""``lazygraph.numpy.lib.stride_tricks``: numpy's two stride tricks.

:func:`sliding_window_view` is lazy (and differentiable): the windows are
shifted slices stacked on a new last axis, or, for long windows, one gather.
The result is a new array rather than numpy's view of the input's memory,
so it costs memory the size of the windows. :func:`as_strided` reads raw
memory, which a lazy array does not have: it computes its input and gives
numpy's view (with a :class:`~lazygraph.numpy.LazygraphFallbackWarning` the
first time a lazy array is computed for it).

>>> import lazygraph.numpy as lnp
>>> from lazygraph.numpy.lib.stride_tricks import sliding_window_view
>>> x = lnp.arange(5.0)
>>> sliding_window_view(x, 3).mean(axis=-1).compute()
array([1., 2., 3.])
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import asarray
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._fallback import fallback_of
from lazygraph.numpy._interop import _has_lazy, _note_fallback, compute_arguments
from numpy.lib.array_utils import normalize_axis_tuple

__all__ = ["as_strided", "sliding_window_view"]

#: windows up to this long are stacked shifted slices (one node per offset);
#: longer ones gather with an index array (one node, but an index as big as the result)
_STACKED_WINDOW_MAX = 32


def sliding_window_view(
    x: Any,
    window_shape: int | tuple[int, ...],
    axis: int | tuple[int, ...] | None = None,
    *,
    subok: bool = False,
    writeable: bool = False,
) -> Array:
    """Every window of ``window_shape`` over ``x`` (``numpy.lib.stride_tricks.
    sliding_window_view``): the windowed axes shrink to the number of windows and
    the window's own axes are appended, in the order of ``axis`` (an axis may be
    windowed more than once, as in numpy).

    The result is a new lazy array, not a view: ``writeable=True`` (writes through
    the windows into ``x``) is numpy's only, for numpy arrays; ``subok`` has no
    effect (lazy arrays have no subclasses).

    >>> import numpy
    >>> import lazygraph.numpy as lnp
    >>> from lazygraph.numpy.lib.stride_tricks import sliding_window_view
    >>> x = lnp.arange(12.0).reshape(3, 4)
    >>> w = sliding_window_view(x, (2, 2))
    >>> w.shape
    (2, 3, 2, 2)
    >>> expected = numpy.lib.stride_tricks.sliding_window_view(numpy.asarray(x), (2, 2))
    >>> bool((w.compute() == expected).all())
    True
    """
    if writeable:
        if isinstance(x, np.ndarray):
            return np.lib.stride_tricks.sliding_window_view(
                x, window_shape, axis, subok=subok, writeable=True
            )
        raise UnsupportedArgumentsError(
            "sliding_window_view: writeable=True (windows that write into x) needs numpy data"
        )
    window = tuple(window_shape) if np.iterable(window_shape) else (window_shape,)  # type: ignore[arg-type]
    window = tuple(operator.index(w) for w in window)
    out = asarray(x)
    if any(w < 0 for w in window):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axes: tuple[int, ...] = tuple(range(out.ndim))
        if len(window) != len(axes):
            raise ValueError(
                f"Since axis is `None`, must provide window_shape for all dimensions of `x`; "
                f"got {len(window)} window_shape elements and `x.ndim` is {out.ndim}."
            )
    else:
        axes = normalize_axis_tuple(axis, out.ndim, allow_duplicate=True)
        if len(window) != len(axes):
            raise ValueError(
                f"Must provide matching length window_shape and axis; got {len(window)} "
                f"window_shape elements and {len(axes)} axes elements."
            )
    trimmed = list(out.shape)
    for ax, w in zip(axes, window, strict=True):
        if trimmed[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        trimmed[ax] -= w - 1
    for ax, w in zip(axes, window, strict=True):
        out = _windows(out, ax, w)
    return out


def _windows(x: Array, axis: int, width: int) -> Array:
    """The windows of ``width`` along ``axis``: that axis shrinks to the number of
    windows, and a last axis of ``width`` holds each window."""
    from lazygraph.numpy import arange, moveaxis, stack, take

    count = x.shape[axis] - width + 1
    if 0 < width <= _STACKED_WINDOW_MAX:
        before = (slice(None),) * axis
        return stack([x[(*before, slice(k, k + count))] for k in range(width)], axis=-1)
    index = arange(count)[:, None] + arange(width)
    return moveaxis(take(x, index, axis=axis), axis + 1, -1)


@fallback_of(np.lib.stride_tricks.as_strided)
def as_strided(x: Any, *args: Any, **kwargs: Any) -> np.ndarray:
    """``numpy.lib.stride_tricks.as_strided``: numpy's view of the computed ``x``
    with the given shape and strides (in bytes, over a C-contiguous copy of a lazy
    ``x``; a numpy ``x`` is used as it is, so the view aliases it as in numpy).

    The result is numpy's view, not a lazy array: a copy of an overlapping view
    can be far larger than the memory it reads (``strides=(0, 8)``).

    >>> import warnings
    >>> import lazygraph.numpy as lnp
    >>> from lazygraph.numpy.lib.stride_tricks import as_strided
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # (the fallback's warning)
    ...     view = as_strided(lnp.arange(4), shape=(3, 2), strides=(8, 8))
    >>> type(view).__name__, view.tolist()
    ('ndarray', [[0, 1], [1, 2], [2, 3]])
    """
    if _has_lazy((x, args, kwargs)):
        _note_fallback("numpy.lib.stride_tricks.as_strided")
        (x, *args), kwargs = compute_arguments((x, *args), kwargs)
        x = np.ascontiguousarray(x)
    return np.lib.stride_tricks.as_strided(x, *args, **kwargs)

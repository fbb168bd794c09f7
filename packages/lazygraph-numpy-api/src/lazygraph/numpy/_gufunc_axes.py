"""numpy's generalized-ufunc keywords ``axes=``, ``axis=`` and ``keepdims=``
for the namespace's gufuncs (``matmul``, ``vecdot``, ``matvec``, ``vecmat``).

A gufunc works on the last (core) axes of each operand. ``axes`` names, per
operand (inputs, then outputs), which axes are the core ones instead: the
inputs' are moved to the end before the call and the output's core axes moved
from the end to where ``axes`` says after it. ``axis`` is the short form for
gufuncs whose inputs have one shared core axis and whose output has none
(``vecdot``); ``keepdims`` leaves such an output's reduced axes in place with
size 1 (at the end, or where the output's ``axes`` entry says).

>>> import lazygraph.numpy as lnp
>>> a = lnp.arange(24.0).reshape(2, 3, 4)
>>> lnp.vecdot(a, a, axis=1).shape, lnp.vecdot(a, a, keepdims=True).shape
((2, 4), (2, 3, 1))
>>> lnp.matmul(a, a, axes=[(-2, -1), (-1, -2), (0, 1)]).shape
(3, 3, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import asarray
from lazygraph.numpy._ufunc import apply_ufunc, write_out
from lazygraph.tensor.shape import normalize_axis

__all__: list[str] = []

#: the keywords this module reads (a call without them takes the usual path)
GUFUNC_KEYWORDS = frozenset({"axes", "axis", "keepdims"})


def _entry(name: str, entry: Any, core: int, ndim: int, which: int) -> tuple[int, ...]:
    """Operand ``which``'s core axes from its ``axes`` entry (an int for one core
    axis), as non-negative positions among ``ndim`` axes."""
    if not isinstance(entry, (tuple, list)):
        if entry is None or isinstance(entry, float):
            raise TypeError(f"{name}: axes item {which} must be an integer or a tuple")
        if core != 1:  # (numpy: an int stands for one core axis)
            raise np.exceptions.AxisError(
                f"{name}: axes item {which} should be a tuple with {core} elements, got {entry!r}"
            )
        entry = (entry,)
    if len(entry) != core:
        raise np.exceptions.AxisError(
            f"{name}: operand {which} has {core} core dimensions, but {len(entry)} "
            "dimensions are specified by axes tuple."
        )
    positions = tuple(normalize_axis(a, ndim, name) for a in entry)
    if len(set(positions)) != len(positions):
        raise ValueError(f"{name}: repeated axis in axes item {which}: {tuple(entry)}")
    return positions


def _to_end(x: Array, axes: tuple[int, ...]) -> Array:
    if not axes:
        return x
    rest = [i for i in range(x.ndim) if i not in axes]
    return x.transpose(*rest, *axes)


def _from_end(x: Array, axes: tuple[int, ...]) -> Array:
    """``x`` with its last ``len(axes)`` axes moved to ``axes``."""
    if not axes:
        return x
    order: list[int] = [-1] * x.ndim
    batch = iter(range(x.ndim - len(axes)))
    for k, a in enumerate(axes):
        order[a] = x.ndim - len(axes) + k
    order = [next(batch) if o < 0 else o for o in order]
    return x.transpose(*order)


def call_with_axes(
    name: str,
    fn: Callable[..., Any],
    args: Sequence[Any],
    core_in: Callable[[Sequence[Array]], tuple[int, ...]],
    core_out: Callable[[Sequence[Array]], int],
    out: Any,
    kwargs: dict[str, Any],
) -> Any:
    """``name(*args, axes=..., axis=..., keepdims=...)`` (keywords read from
    ``kwargs``): ``core_in`` / ``core_out`` give the operands' and the output's
    numbers of core axes (which for ``matmul`` depend on the operands)."""
    axes = kwargs.pop("axes", None)
    axis = kwargs.pop("axis", None)
    keepdims_given = "keepdims" in kwargs
    keepdims = kwargs.pop("keepdims", False)
    if not isinstance(keepdims, bool):
        raise TypeError(f"{name}: keepdims must be a bool, got {keepdims!r}")
    where = kwargs.pop("where", True)
    xs = [asarray(a) for a in args]
    cores, n_out = core_in(xs), core_out(xs)
    single = all(c == 1 for c in cores) and n_out == 0
    if axis is not None:
        if axes is not None:
            raise TypeError(f"{name}: cannot specify both 'axis' and 'axes'")
        if not single:
            raise TypeError(f"{name}: axis can only be used with a single shared core dimension")
        axes = [(axis,)] * len(xs) + ([(axis,)] if keepdims else [])
    if keepdims_given and (len(set(cores)) != 1 or n_out != 0):
        raise TypeError(
            f"{name}: keepdims is not supported here: it needs inputs with the same number of "
            "core dimensions and an output with none"
        )
    kept = cores[0] if keepdims else n_out  # the output's core axes
    if axes is None:
        axes = [tuple(range(-c, 0)) for c in cores] + [None]
    axes = list(axes)
    if len(axes) == len(xs) and (kept == 0 or keepdims):
        axes.append(None)  # (the output's core axes stay last)
    if len(axes) != len(xs) + 1:
        raise ValueError(
            f"{name}: axes should be a list with an entry for all {len(xs) + 1} inputs and "
            "outputs; entries for outputs can only be omitted if none of them has core axes."
        )
    moved = [
        _to_end(x, _entry(name, e, c, x.ndim, i))
        for i, (x, e, c) in enumerate(zip(xs, axes[:-1], cores, strict=True))
    ]
    result = apply_ufunc(name, fn, moved, None, kwargs)
    if keepdims:
        result = result.reshape(*result.shape, *([1] * kept))
    if axes[-1] is not None:
        result = _from_end(result, _entry(name, axes[-1], kept, result.ndim, len(xs)))
    if out is None and where is True:
        return result
    return write_out(name, result, out, where, kwargs.get("casting", "same_kind"))

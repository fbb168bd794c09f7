"""Finite differences: ``gradient`` (second-order central differences inside,
one-sided first- or second-order ones at the ends) and ``unwrap`` (phase
unwrapping). Both record slices, arithmetic and concatenations, so they are
lazy and differentiable; their arithmetic follows numpy's expression by
expression, so the values are numpy's.

>>> gradient([1.0, 2.0, 4.0, 7.0]).compute()
array([1. , 1.5, 2.5, 3. ])
"""

from __future__ import annotations

import math
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, known_value, wrap
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.variable import TensorVariable

__all__ = ["gradient", "unwrap"]

_LAZY = (Array, TensorVariable)


# Arithmetic on a spacing that may be a Python number (weak, as in numpy), a numpy
# scalar (strong) or a lazy tensor: numbers are combined by Python and numpy
# themselves, so their dtypes and values are numpy's.


def _lazy(x: Any) -> Any:
    return as_tensor(x) if isinstance(x, _LAZY) else x


def _add(a: Any, b: Any) -> Any:
    a, b = _lazy(a), _lazy(b)
    return lt.add(a, b) if isinstance(a, _LAZY) or isinstance(b, _LAZY) else a + b


def _mul(a: Any, b: Any) -> Any:
    a, b = _lazy(a), _lazy(b)
    return lt.multiply(a, b) if isinstance(a, _LAZY) or isinstance(b, _LAZY) else a * b


def _div(a: Any, b: Any) -> Any:
    a, b = _lazy(a), _lazy(b)
    return lt.true_divide(a, b) if isinstance(a, _LAZY) or isinstance(b, _LAZY) else a / b


def _neg(a: Any) -> Any:
    a = _lazy(a)
    return lt.negative(a) if isinstance(a, _LAZY) else -a


def _spacing(distances: Any, size: int) -> tuple[Any, Any]:
    """numpy's spacing for one axis from a 1-d array of coordinates: their
    differences, or the first difference when all are equal (numpy then uses the
    uniform formulas). Returns ``(spacing, uniform)``: ``uniform`` is None when
    known now; otherwise ``spacing`` is the differences and ``uniform`` a lazy
    bool, and both formulas are recorded (each exact, ``where`` picks one)."""
    d = as_tensor(distances)
    if d.ndim != 1:
        raise ValueError("distances must be either scalars or 1d")
    if lt.shape_tuple(d)[0] != size:
        raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    if np.dtype(d.dtype).kind in "iu":
        d = lt.cast(d, "float64")
    diffx = lt.subtract(lt.getitem(d, slice(1, None)), lt.getitem(d, slice(None, -1)))
    if size < 2:
        raise IndexError("index 0 is out of bounds for axis 0 with size 0")
    first = lt.getitem(diffx, 0)
    same = lt.all(lt.equal(diffx, first))
    value = known_value(wrap(same)._var)
    if value is not None:
        return (wrap(first) if bool(value) else diffx), None
    return diffx, same


def _along(f: TensorVariable, axis: int, index: slice) -> TensorVariable:
    key = [slice(None)] * f.ndim
    key[axis] = index
    return lt.getitem(f, tuple(key))


def _one_axis(f: TensorVariable, axis: int, ax_dx: Any, edge_order: int) -> TensorVariable:
    """numpy's differences of ``f`` along ``axis`` for one spacing (a number or
    0-d tensor: uniform; a 1-d tensor of differences: not)."""

    def at(start: int | None, stop: int | None) -> TensorVariable:
        return _along(f, axis, slice(start, stop))

    uniform = not isinstance(ax_dx, _LAZY) or as_tensor(ax_dx).ndim == 0
    if uniform:
        inner = lt.true_divide(lt.subtract(at(2, None), at(None, -2)), _lazy(_mul(2.0, ax_dx)))
    else:
        shape = [1] * f.ndim
        shape[axis] = -1
        dx1 = lt.getitem(ax_dx, slice(0, -1))
        dx2 = lt.getitem(ax_dx, slice(1, None))
        a = lt.true_divide(lt.negative(dx2), lt.multiply(dx1, lt.add(dx1, dx2)))
        b = lt.true_divide(lt.subtract(dx2, dx1), lt.multiply(dx1, dx2))
        c = lt.true_divide(dx1, lt.multiply(dx2, lt.add(dx1, dx2)))
        a, b, c = (lt.reshape(v, shape) for v in (a, b, c))
        inner = lt.add(
            lt.add(lt.multiply(a, at(None, -2)), lt.multiply(b, at(1, -1))),
            lt.multiply(c, at(2, None)),
        )
    if edge_order == 1:
        dx_0 = ax_dx if uniform else lt.getitem(ax_dx, 0)
        dx_n = ax_dx if uniform else lt.getitem(ax_dx, -1)
        first = lt.true_divide(lt.subtract(at(1, 2), at(0, 1)), _lazy(dx_0))
        last = lt.true_divide(lt.subtract(at(-1, None), at(-2, -1)), _lazy(dx_n))
    else:
        if uniform:
            a, b, c = _div(-1.5, ax_dx), _div(2.0, ax_dx), _div(-0.5, ax_dx)
        else:
            dx1, dx2 = lt.getitem(ax_dx, 0), lt.getitem(ax_dx, 1)
            a = _div(_neg(_add(_mul(2.0, dx1), dx2)), _mul(dx1, _add(dx1, dx2)))
            b = _div(_add(dx1, dx2), _mul(dx1, dx2))
            c = _div(_neg(dx1), _mul(dx2, _add(dx1, dx2)))
        first = _three(a, b, c, at(0, 1), at(1, 2), at(2, 3))
        if uniform:
            a, b, c = _div(0.5, ax_dx), _div(-2.0, ax_dx), _div(1.5, ax_dx)
        else:
            dx1, dx2 = lt.getitem(ax_dx, -2), lt.getitem(ax_dx, -1)
            a = _div(dx2, _mul(dx1, _add(dx1, dx2)))
            b = _div(_neg(_add(dx2, dx1)), _mul(dx1, dx2))
            c = _div(_add(_mul(2.0, dx2), dx1), _mul(dx2, _add(dx1, dx2)))
        last = _three(a, b, c, at(-3, -2), at(-2, -1), at(-1, None))
    return lt.concatenate([first, inner, last], axis=axis)


def _three(a: Any, b: Any, c: Any, x0: Any, x1: Any, x2: Any) -> TensorVariable:
    """``a * x0 + b * x1 + c * x2``, numpy's order of operations."""
    return lt.add(
        lt.add(lt.multiply(_lazy(a), x0), lt.multiply(_lazy(b), x1)), lt.multiply(_lazy(c), x2)
    )


def gradient(
    f: ArrayLike, *varargs: Any, axis: int | tuple[int, ...] | None = None, edge_order: int = 1
) -> Any:
    """The gradient of ``f`` by finite differences (``numpy.gradient``): central
    differences inside, one-sided differences of order ``edge_order`` (1 or 2) at
    the ends. ``varargs`` gives the spacing: nothing (1), one scalar for every
    axis, or one per axis, each a scalar or the 1-d coordinates of the samples.
    One axis gives an array, several a tuple of arrays (one per axis).

    >>> gradient([1.0, 2.0, 4.0, 7.0], 2.0).compute()
    array([0.5 , 0.75, 1.25, 1.5 ])
    >>> dy, dx = gradient([[1.0, 2.0, 6.0], [3.0, 4.0, 5.0]])
    >>> dy.compute()
    array([[ 2.,  2., -1.],
           [ 2.,  2., -1.]])
    >>> dx.compute()
    array([[1. , 2.5, 4. ],
           [1. , 1. , 1. ]])
    """
    x = as_tensor(f)
    n_dims = x.ndim
    if axis is None:
        axes = tuple(range(n_dims))
    else:
        axes = np.lib.array_utils.normalize_axis_tuple(axis, n_dims)
    sizes = lt.shape_tuple(x)
    n = len(varargs)
    uniform_of: list[Any] = [None] * len(axes)
    if n == 0:
        dx: list[Any] = [1.0] * len(axes)
    elif n == 1 and np.ndim(varargs[0]) == 0:
        dx = [_scalar(varargs[0])] * len(axes)
    elif n == len(axes):
        dx = []
        for i, distances in enumerate(varargs):
            if np.ndim(distances) == 0:
                dx.append(_scalar(distances))
                continue
            spacing, uniform_of[i] = _spacing(distances, sizes[axes[i]])
            dx.append(spacing)
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    kind = np.dtype(x.dtype).kind
    if kind in "iu":
        x = lt.cast(x, "float64")
    results = []
    for ax, ax_dx, same in zip(axes, dx, uniform_of, strict=True):
        if not isinstance(sizes[ax], int):
            raise ValueError("gradient: the sizes of the differentiated axes must be known")
        if sizes[ax] < edge_order + 1:
            raise ValueError(
                "Shape of array too small to calculate a numerical gradient, "
                "at least (edge_order + 1) elements are required."
            )
        if kind == "b":
            raise TypeError(
                "numpy boolean subtract, the `-` operator, is not supported, use the "
                "bitwise_xor, the `^` operator, or the logical_xor function instead."
            )
        out = _one_axis(x, ax, ax_dx, edge_order)
        if same is not None:  # both formulas, numpy's chosen when computed
            even = _one_axis(x, ax, lt.getitem(ax_dx, 0), edge_order)
            out = lt.where(same, even, out)
        if out.dtype != x.dtype:
            out = lt.cast(out, x.dtype)  # numpy writes into an array of f's dtype
        results.append(wrap(out))
    if len(axes) == 1:
        return results[0]
    return tuple(results)


def _scalar(h: Any) -> Any:
    """A scalar spacing as numpy uses it: Python numbers and numpy scalars as
    they are, a 0-d array as a numpy scalar, a lazy 0-d array as a tensor."""
    if isinstance(h, _LAZY):
        return as_tensor(h)
    if isinstance(h, np.ndarray):
        return h[()]
    return h


def unwrap(
    p: ArrayLike,
    discont: Any = None,
    axis: int = -1,
    *,
    period: Any = 2 * math.pi,
) -> Array:
    """``p`` with every jump between neighbours along ``axis`` larger than
    ``max(discont, period / 2)`` replaced by its complement modulo ``period``
    (``numpy.unwrap``: phase unwrapping; integer ``p`` and ``period`` stay integer).

    >>> unwrap([0.0, 3.0, 6.5, 0.5]).compute()
    array([0.        , 3.        , 0.21681469, 0.5       ])
    """
    from lazygraph.numpy._utility import diff

    x = as_tensor(p)
    dd = diff(wrap(x), axis=axis)._var  # (numpy's errors for 0-d input and bad axes)
    ax = axis % x.ndim
    if discont is None:
        discont = period / 2
    dtype = np.result_type(
        np.dtype(dd.dtype), np.dtype(period.dtype) if isinstance(period, _LAZY) else period
    )
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    per, low, high = as_variable(period), as_variable(interval_low), as_variable(interval_high)
    ddmod = lt.add(lt.remainder(lt.subtract(dd, low), per), low)
    if boundary_ambiguous:
        # a jump of exactly period/2 keeps its sign (the remainder made it -period/2)
        flip = lt.logical_and(lt.equal(ddmod, low), lt.greater(dd, 0))
        ddmod = lt.where(flip, lt.cast(high, ddmod.dtype), ddmod)
    correction = lt.subtract(ddmod, dd)
    small = lt.less(lt.abs(dd), as_variable(discont))
    correction = lt.where(small, lt.zeros((), dtype=correction.dtype), correction)
    rest = lt.add(_along(x, ax, slice(1, None)), lt.cumsum(correction, axis=ax))
    parts = [lt.cast(_along(x, ax, slice(0, 1)), dtype), lt.cast(rest, dtype)]
    return wrap(lt.concatenate(parts, axis=ax))

"""numpy's functional programming routines: ``piecewise``, ``apply_along_axis``
and ``apply_over_axes`` (``vectorize`` and ``frompyfunc`` are numpy's ufunc
makers, elsewhere).

The functions given are called on lazy arrays, so what they do is recorded as
graph and the results are differentiable where the functions are.
``piecewise`` calls each function once on the whole of ``x`` and selects with
``where``, as jax.numpy does; ``apply_along_axis`` calls its function once per
1-d slice, as numpy does.

>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray([-1.0, 2.0])
>>> piecewise(x, [x < 0], [0.0, lambda v: v**2]).compute()
array([0., 4.])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, asarray, wrap
from lazygraph.numpy._editing import assigned_values, broadcast_into, is_lazy, static_shape
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.shape import normalize_axis

__all__ = ["apply_along_axis", "apply_over_axes", "piecewise"]


def _condition_list(condlist: Any, x: Any) -> list[Any]:
    """numpy's ``piecewise`` conditions: one boolean array per piece (a lone
    condition counts as a list of one)."""
    if isinstance(condlist, np.ndarray) or (
        is_lazy(condlist) and not isinstance(condlist, list | tuple)
    ):
        first = static_shape(condlist)[:1]  # (numpy reads condlist[0])
        if not first:
            raise IndexError(
                "too many indices for array: array is 0-dimensional, but 1 were indexed"
            )
        if first[0] == 0:
            raise IndexError("index 0 is out of bounds for axis 0 with size 0")
        first_is_condition = len(static_shape(condlist)) >= 2
    elif np.isscalar(condlist):
        first_is_condition = False
    else:
        first_is_condition = isinstance(condlist[0], list | np.ndarray) or is_lazy(condlist[0])
    if np.isscalar(condlist) or (not first_is_condition and x.ndim != 0):
        condlist = [condlist]
    conds = asarray(condlist, dtype=bool)
    return [lt.getitem(conds._var, i) for i in range(static_shape(conds)[0])]


def _piece_mask(cond: Any, shape: tuple[int, ...]) -> Any:
    """A ``piecewise`` condition as numpy's boolean index ``y[cond]`` reads it
    (it may cover leading axes only), broadcastable to ``shape``; None when it
    selects nothing."""
    got = static_shape(cond)
    if len(got) > len(shape):
        raise IndexError(
            f"too many indices for array: array is {len(shape)}-dimensional, but {len(got)} "
            "were indexed"
        )
    for k, (g, s) in enumerate(zip(got, shape, strict=False)):
        if g not in (s, 0):  # (numpy lets an empty axis of the index pass)
            raise IndexError(
                f"boolean index did not match indexed array along axis {k}; size of axis is "
                f"{s} but size of corresponding boolean axis is {g}"
            )
    if 0 in got:
        return None
    extra = len(shape) - len(got)
    return lt.expand_dims(cond, tuple(range(len(got), len(shape)))) if extra else cond


def piecewise(x: ArrayLike, condlist: Any, funclist: Sequence[Any], *args: Any, **kw: Any) -> Array:
    """``funclist[i](x)`` (or the constant ``funclist[i]``) where ``condlist[i]``
    holds, later pieces winning, zero elsewhere; one extra function is the
    "otherwise" piece (``numpy.piecewise``). The result has ``x``'s dtype.

    As jax.numpy does, each function is called once on the whole of ``x`` (a
    lazy array) and its values are selected with ``where``, so the result is
    differentiable; numpy calls it on ``x[cond]`` only when that is not empty.
    Functions must work elementwise.

    >>> import lazygraph.numpy as lnp
    >>> x = lnp.asarray([-2.0, 0.5, 3.0])
    >>> piecewise(x, [x < 0, x > 1], [lambda v: -v, lambda v: v * 10, 0.25]).compute()
    array([ 2.  ,  0.25, 30.  ])
    """
    arr = x if isinstance(x, Array) else asarray(x)
    var = arr._var
    dtype = arr.dtype
    conds = _condition_list(condlist, arr)
    n, n2 = len(conds), len(funclist)
    if n == n2 - 1:
        conds.append(lt.logical_not(lt.any(lt.stack(conds, axis=0), axis=0)))
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    shape = static_shape(var)
    result = lt.zeros(shape, dtype=dtype.name)
    for cond, func in zip(conds, funclist, strict=True):
        mask = _piece_mask(cond, shape)
        if mask is None:
            continue  # nothing selected (numpy does not call the function)
        value = func(arr, *args, **kw) if callable(func) else func
        piece = broadcast_into(assigned_values(value, dtype), shape)
        result = lt.where(mask, piece, result)
    return wrap(result)


def apply_along_axis(
    func1d: Callable[..., Any], axis: int, arr: ArrayLike, *args: Any, **kwargs: Any
) -> Array:
    """``func1d`` applied to each 1-d slice of ``arr`` along ``axis``, the
    results stacked where that axis was (``numpy.apply_along_axis``). The
    function is called once per slice, on a lazy view (recording graph), so the
    result is differentiable where ``func1d`` is; every result is cast to the
    first one's dtype and broadcast to its shape.

    >>> apply_along_axis(lambda v: v[::-1] * 2, 1, [[1, 2, 3], [4, 5, 6]]).compute()
    array([[ 6,  4,  2],
           [12, 10,  8]])
    """
    x = arr if isinstance(arr, Array) else asarray(arr)
    nd = x.ndim
    axis = normalize_axis(axis, nd, "apply_along_axis")
    inarr = x.transpose([*range(axis), *range(axis + 1, nd), axis])
    outer = static_shape(inarr)[:-1]
    inds = iter(np.ndindex(outer))
    try:
        first = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = asarray(func1d(inarr[(*first, Ellipsis)], *args, **kwargs))
    dtype, res_shape = res.dtype, static_shape(res)
    results = [res._var]
    for ind in inds:
        out = func1d(inarr[(*ind, Ellipsis)], *args, **kwargs)
        results.append(broadcast_into(assigned_values(out, dtype), res_shape))
    buff = lt.reshape(lt.stack(results, axis=0), (*outer, *res_shape))
    dims = list(range(len(outer) + len(res_shape)))
    split = len(dims) - len(res_shape)
    return wrap(lt.transpose(buff, dims[:axis] + dims[split:] + dims[axis:split]))


def apply_over_axes(func: Callable[[Any, int], Any], a: ArrayLike, axes: Any) -> Any:
    """``func(a, axis)`` applied for each axis in turn, each result keeping the
    dimensions (a dropped axis is put back as size 1) (``numpy.apply_over_axes``).

    >>> import lazygraph.numpy as lnp
    >>> apply_over_axes(lnp.sum, [[1, 2], [3, 4]], [0, 1]).compute()
    array([[10]])
    """
    val = a if isinstance(a, Array) else asarray(a)
    n = val.ndim
    if np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = wrap(lt.expand_dims(as_tensor(res), axis))
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val

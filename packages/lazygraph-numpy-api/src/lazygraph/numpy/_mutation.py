"""The numpy functions that write into their first argument, with numpy's
signatures: ``put``, ``put_along_axis``, ``place``, ``putmask`` and ``copyto``.
They return None.

A lazy first argument is rebound to the updated value (a functional node:
``set_subtensor`` or ``where``), as ``a[...] = value`` rebinds it, writing
through to its base when it is a view; nothing is computed, except numpy's
errors that depend on values: ``put``'s bounds for known indices, and
``place``'s "empty values" check for a pending mask. Out-of-bounds pending
indices of ``put(mode="raise")`` and ``put_along_axis`` raise numpy's
IndexError when the result is computed, as ``a[index] = v`` does. A numpy
first argument is written by numpy's own function, on the computed values of
the other arguments. ``numpy.put(lazy, ...)`` and the others come here through
``__array_function__``.

>>> import lazygraph.numpy as lnp
>>> a = lnp.zeros(5)
>>> put(a, [0, 2], [7.0, 8.0]); putmask(a, a > 7, -1.0)
>>> a.compute()
array([ 7.,  0., -1.,  0.,  0.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.graph.basic import Constant
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable
from lazygraph.numpy._eager import known_value
from lazygraph.numpy._editing import (
    MODES,
    assigned_values,
    broadcast_into,
    converted,
    is_lazy,
    raise_if_any,
    static_shape,
)
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.shape import normalize_axis

__all__ = ["copyto", "place", "put", "put_along_axis", "putmask"]

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def _numpy_writes(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """numpy's ``fn`` writing into a numpy first argument, the lazy arguments computed."""
    from lazygraph.numpy._interop import compute_arguments

    values, kw = compute_arguments(args, kwargs)
    fn(*values, **kw)


def _size(a: Array) -> int:
    return int(np.prod(static_shape(a), dtype=np.int64))


def _known(var: Any) -> np.ndarray | None:
    """The value of a constant or known graph input, else None (nothing computed)."""
    if isinstance(var, Constant):
        return np.asarray(var.data)
    return known_value(var)


def _cast_error(src: np.dtype[Any], dst: np.dtype[Any], rule: str) -> TypeError:
    return TypeError(
        f"Cannot cast array data from {src!r} to {dst!r} according to the rule {rule!r}"
    )


def _safe_values(values: Any, dtype: np.dtype[Any]) -> Any:
    """``values`` flattened in ``dtype`` as ``place`` and ``putmask`` convert them:
    an array must cast safely, other data is converted by numpy."""
    if is_lazy(values) or isinstance(values, np.ndarray):
        var = as_tensor(values)
        src = np.dtype(var.dtype)
        if not np.can_cast(src, dtype, "safe"):
            raise _cast_error(src, dtype, "safe")
        return lt.ravel(lt.cast(var, dtype.name))
    return lt.ravel(converted(values, np.asarray(values, dtype=dtype)))


def _flat_mask(name: str, mask: Any, size: int) -> tuple[Any, np.ndarray | None]:
    """``mask`` flattened as booleans, and its value when it is known (else None)."""
    raw = as_tensor(mask)
    known = _known(raw)
    m = lt.ravel(raw)
    if static_shape(m)[0] != size:
        raise ValueError(f"{name}: mask and data must be the same size")
    if known is not None:
        known = known.astype(bool).reshape(-1)
    return (m if m.dtype == "bool" else lt.cast(m, "bool")), known


def _rebind(a: Array, flat: Any) -> None:
    a._assign(lt.reshape(flat, static_shape(a)))


def _last_writes(positions: np.ndarray) -> np.ndarray:
    """The entries of ``positions`` that numpy's sequential writes leave (the last
    one to each position), in order."""
    _, first_from_end = np.unique(positions[::-1], return_index=True)
    return np.sort(positions.size - 1 - first_from_end)


def put(a: Any, ind: ArrayLike, v: ArrayLike, mode: str = "raise") -> None:
    """Write ``v`` (cycled, converted to ``a``'s dtype) at the flat indices ``ind``
    of ``a`` (``numpy.put``; ``mode``: ``"raise"`` for out-of-bounds indices,
    ``"wrap"`` around, or ``"clip"`` to the ends). A repeated index keeps the
    last value written.

    >>> import lazygraph.numpy as lnp
    >>> a = lnp.asarray([[0, 0], [0, 0]])
    >>> put(a, [0, -1, 5], [1, 2], mode="wrap"); a.compute()
    array([[1, 1],
           [0, 2]])
    """
    if not isinstance(a, Array):
        _numpy_writes(np.put, (a, ind, v), {"mode": mode})
        return
    if mode not in MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    if is_lazy(ind) or isinstance(ind, np.ndarray):
        idx = as_tensor(ind)
        if not np.can_cast(np.dtype(idx.dtype), np.intp, "safe"):
            raise _cast_error(np.dtype(idx.dtype), np.dtype(np.intp), "safe")
        known = _known(idx)
        idx = lt.ravel(lt.cast(idx, "int64"))
    else:
        known = np.asarray(ind, dtype=np.intp)
        idx = None
    if known is not None:
        known = known.astype(np.int64).reshape(-1)
    n = _size(a)
    ni = known.size if known is not None else static_shape(idx)[0]
    if ni > 0 and n == 0:
        raise IndexError("cannot replace elements of an empty array")
    dtype = a.dtype
    vals = lt.ravel(assigned_values(v, dtype))
    nv = static_shape(vals)[0]
    if nv == 0 or ni == 0:
        return
    if nv != ni:
        vals = lt.take(vals, np.arange(ni) % nv)
    if known is not None:
        if mode == "raise":
            bad = (known < -n) | (known >= n)
            if bad.any():
                raise IndexError(f"index {known[bad][0]} is out of bounds for axis 0 with size {n}")
            pos = np.where(known < 0, known + n, known)
        else:
            pos = known % n if mode == "wrap" else np.clip(known, 0, n - 1)
        last = _last_writes(pos)
        if last.size != pos.size:
            pos, vals = pos[last], lt.take(vals, last)
        idx = lt.constant(pos)
    elif mode == "wrap":
        idx = lt.remainder(idx, n)
    elif mode == "clip":
        idx = lt.clip(idx, 0, n - 1)
    flat = lt.ravel(a._var)
    _rebind(a, lt.set_subtensor(lt.getitem(flat, idx), vals))


def put_along_axis(arr: Any, indices: ArrayLike, values: ArrayLike, axis: int | None) -> None:
    """Write ``values`` into ``arr`` at ``indices`` along ``axis``, the other axes
    matched (broadcast) between ``arr`` and ``indices``, as ``argsort`` and
    ``take_along_axis`` pair them (``numpy.put_along_axis``; ``axis=None``: the
    flattened array and 1-d indices).

    >>> import lazygraph.numpy as lnp
    >>> a = lnp.asarray([[10, 30, 20], [60, 40, 50]])
    >>> put_along_axis(a, lnp.argmax(a, axis=1, keepdims=True), 0, axis=1); a.compute()
    array([[10,  0, 20],
           [ 0, 40, 50]])
    """
    if not isinstance(arr, Array):
        _numpy_writes(np.put_along_axis, (arr, indices, values, axis), {})
        return
    idx = as_tensor(indices)
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        target, axis = lt.ravel(arr._var), 0
    else:
        axis = normalize_axis(axis, arr.ndim, "put_along_axis")
        target = arr._var
    if np.dtype(idx.dtype).kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    shape = static_shape(target)
    if len(shape) != idx.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    key = []
    for dim, n in enumerate(shape):
        if dim == axis:
            key.append(idx)
        else:
            key.append(np.arange(n).reshape([n if d == dim else 1 for d in range(len(shape))]))
    part = lt.getitem(target, tuple(key))
    vals = broadcast_into(assigned_values(values, arr.dtype), static_shape(part), fancy=True)
    _rebind(arr, lt.set_subtensor(part, vals))


def place(arr: Any, mask: ArrayLike, vals: ArrayLike) -> None:
    """Write ``vals``, cycled, into the positions of ``arr`` where ``mask`` (of
    ``arr``'s size) is true, in flat order (``numpy.place``; an array ``vals``
    must cast safely to ``arr``'s dtype). Lazily: the ``k``-th true position
    takes ``vals[k % len(vals)]``, ``k`` a cumulative sum of the mask.

    >>> import lazygraph.numpy as lnp
    >>> a = lnp.arange(6)
    >>> place(a, a > 2, [40, 50]); a.compute()
    array([ 0,  1,  2, 40, 50, 40])
    """
    if not isinstance(arr, Array):
        _numpy_writes(np.place, (arr, mask, vals), {})
        return
    m, known = _flat_mask("place", mask, _size(arr))
    vv = _safe_values(vals, arr.dtype)
    nv = static_shape(vv)[0]
    if nv == 0:
        error = ValueError("Cannot insert from an empty array!")
        if known is not None:
            if known.any():
                raise error
        else:
            raise_if_any(m, error)
        return
    flat = lt.ravel(arr._var)
    if known is not None:
        positions = np.flatnonzero(known)
        if positions.size == 0:
            return
        taken = lt.take(vv, np.arange(positions.size) % nv)
        _rebind(arr, lt.set_subtensor(lt.getitem(flat, positions), taken))
        return
    rank = lt.subtract(lt.cumsum(lt.cast(m, "int64")), 1)
    taken = lt.take(vv, lt.remainder(rank, nv))
    _rebind(arr, lt.where(m, taken, flat))


def putmask(a: Any, /, mask: ArrayLike, values: ArrayLike) -> None:
    """Write ``values[i % len(values)]`` into the flat position ``i`` of ``a``
    wherever ``mask`` (of ``a``'s size) is true (``numpy.putmask``; an array
    ``values`` must cast safely to ``a``'s dtype).

    >>> import lazygraph.numpy as lnp
    >>> a = lnp.arange(6)
    >>> putmask(a, a > 2, [40, 50]); a.compute()
    array([ 0,  1,  2, 50, 40, 50])
    """
    if not isinstance(a, Array):
        _numpy_writes(np.putmask, (a, mask, values), {})
        return
    n = _size(a)
    m, _ = _flat_mask("putmask", mask, n)
    vv = _safe_values(values, a.dtype)
    nv = static_shape(vv)[0]
    if nv == 0:
        return
    source = vv if nv == n else lt.take(vv, np.arange(n) % nv)
    _rebind(a, lt.where(m, source, lt.ravel(a._var)))


def _source(src: Any, dtype: np.dtype[Any], casting: str) -> Any:
    """``src`` for ``copyto``: checked against ``casting`` as numpy checks it."""
    if is_lazy(src):
        var = as_tensor(src)
        if not np.can_cast(np.dtype(var.dtype), dtype, casting):  # type: ignore[arg-type]
            raise _cast_error(np.dtype(var.dtype), dtype, casting)
        return lt.cast(var, dtype.name)
    if np.ndim(src) == 0:
        # a scalar: numpy's own conversion (Python scalars are weak, values checked)
        probe = np.empty((), dtype=dtype)
        np.copyto(probe, src, casting=casting)  # type: ignore[arg-type]
        return as_variable(probe)
    value = np.asarray(src)
    if not np.can_cast(value.dtype, dtype, casting):  # type: ignore[arg-type]
        raise _cast_error(value.dtype, dtype, casting)
    return as_variable(value.astype(dtype, copy=False))


def copyto(dst: Any, src: ArrayLike, casting: str = "same_kind", where: Any = True) -> None:
    """Write ``src``, broadcast to ``dst``'s shape, into ``dst`` where ``where`` is
    true (``numpy.copyto``; numpy's TypeError when ``src`` does not cast under
    ``casting``).

    >>> import lazygraph.numpy as lnp
    >>> d = lnp.zeros((2, 2), dtype="int32")
    >>> copyto(d, [5, 6], where=[[True, False], [False, True]]); d.compute()
    array([[5, 0],
           [0, 6]], dtype=int32)
    """
    if not isinstance(dst, Array):
        _numpy_writes(np.copyto, (dst, src), {"casting": casting, "where": where})
        return
    if casting not in _CASTINGS:
        raise ValueError(
            "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' "
            f"(got {casting!r})"
        )
    shape = static_shape(dst)
    new = broadcast_into(_source(src, dst.dtype, casting), shape)
    if where is not True:
        mask = as_tensor(where)
        mask = mask if mask.dtype == "bool" else lt.cast(mask, "bool")
        try:
            mask = broadcast_into(mask, shape)
        except ValueError:
            raise ValueError(
                f"could not broadcast where mask from shape {static_shape(mask)} into shape {shape}"
            ) from None
        new = lt.where(mask, new, dst._var)
    dst._assign(new)

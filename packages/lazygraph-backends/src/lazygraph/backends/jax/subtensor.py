"""JAX lowerings: basic and advanced indexing, and their ``inc``/``set``
(``x.at[idx].set(y)`` / ``.add(y)``: functional updates).

Slice bounds and scalar indices must be known when tracing (they fix the
output shape in XLA); integer index arrays may be traced values, and are
bounds-checked after the call, since XLA clamps where numpy raises
``IndexError``. Boolean masks give data-dependent shapes: those nodes run on
the host, outside jit.

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> x, i = lt.dvector("x"), lt.lvector("i")
>>> f = lazygraph.function([x, i], x[i], mode="jax")
>>> f(np.arange(4.0), np.array([3, -1]))
array([3., 3.])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from lazygraph.backends.jax.dispatch import Context, Unsupported, register
from lazygraph.backends.jax.elemwise import _cast
from lazygraph.graph.basic import Apply
from lazygraph.tensor.advanced_subtensor import (
    AdvancedIncSubtensor,
    AdvancedSubtensor,
    IncAlongAxis,
    Take,
    TakeAlongAxis,
)
from lazygraph.tensor.indexing import numpy_index
from lazygraph.tensor.subtensor import IncSubtensor, Subtensor, is_scalar_access

__all__: list[str] = []

Fn = Callable[..., Any]


def _index_positions(node: Apply, first: int) -> tuple[int, ...]:
    return tuple(range(first, len(node.inputs)))


def _validate(shape: tuple[int, ...], idx: tuple) -> None:
    """numpy's own ``IndexError`` for ``idx`` on an array of ``shape``, for free
    (a zero-strided dummy array)."""
    dummy = np.lib.stride_tricks.as_strided(
        np.zeros(1, bool), shape=shape, strides=(0,) * len(shape)
    )
    dummy[idx]


def _fit(y: Any, target: tuple[int, ...]) -> Any:
    """``y`` without the leading size-1 axes numpy drops when assigning into a
    slot of shape ``target``."""
    extra = y.ndim - len(target)
    if extra > 0 and all(s == 1 for s in y.shape[:extra]):
        return jnp.reshape(y, y.shape[extra:])
    return y


def _wider(y: Any, x: Any) -> bool:
    """Whether adding ``y`` into ``x`` computes in a type other than ``x``'s."""
    if x.dtype == jnp.bool_ or y.dtype == x.dtype:
        return False
    return bool(np.result_type(x.dtype, y.dtype) != x.dtype)


def _set_last_wins(x: Any, idx: Any, y: Any, sequential: bool | None = None) -> Any:
    """``x`` with ``x[idx] = y`` where a repeated index keeps the last value it is
    given, as numpy's does. XLA's scatter leaves the winner among duplicates
    unspecified (on the GPU it varies); a scatter-max of each update's position
    picks the last one deterministically, then a gather reads its value. The
    CPU's sequential scatter already keeps the last value: ``sequential``
    (default: whether jax's default backend is the CPU) skips the extra work."""
    y = jnp.broadcast_to(y, np.shape(x[idx]))
    if sequential is None:
        sequential = jax.default_backend() == "cpu"
    if sequential or y.size == 0:
        return x.at[idx].set(y)
    ids = jnp.arange(y.size, dtype=jnp.int64 if y.size >= 2**31 else jnp.int32)
    winner = jnp.full(x.shape, -1, ids.dtype).at[idx].max(ids.reshape(y.shape))
    values = jnp.take(jnp.ravel(y), jnp.maximum(winner, 0))
    return jnp.where(winner >= 0, values, x)


@register(Subtensor, static=lambda node: _index_positions(node, 1))
def _subtensor(op: Subtensor, node: Apply, ctx: Context) -> Fn:
    def run(x: Any, *values: Any) -> list[Any]:
        idx = numpy_index(op.idx_list, values, basic=True)
        _validate(np.shape(x), idx)
        return [jnp.asarray(x)[idx]]

    return run


@register(IncSubtensor, static=lambda node: _index_positions(node, 2))
def _inc_subtensor(op: IncSubtensor, node: Apply, ctx: Context) -> Fn:
    # np.add.at (accumulate) casts back unsafely; x[i] += y goes through a Python int
    ndim = node.inputs[0].type.ndim  # type: ignore[attr-defined]
    scalar = not op.accumulate and is_scalar_access(op.idx_list, ndim)

    def run(x: Any, y: Any, *values: Any) -> list[Any]:
        idx = numpy_index(op.idx_list, values, basic=True)
        _validate(np.shape(x), idx)
        x, y = jnp.asarray(x), jnp.asarray(y)
        if op.set_instead_of_inc:
            return [x.at[idx].set(_fit(_cast(y, x.dtype.name), np.shape(x[idx])))]
        if _wider(y, x):  # numpy adds in the wider type, then casts back
            common = np.result_type(x.dtype, y.dtype)
            total = x[idx].astype(common) + _fit(y, np.shape(x[idx])).astype(common)
            if scalar and x.dtype.kind == "i" and common.kind in "iuf":
                _check_python_int(total, x.dtype, str(op), ctx)
            return [x.at[idx].set(_cast(total, x.dtype.name))]
        y = _fit(_cast(y, x.dtype.name), np.shape(x[idx]))
        if x.dtype == jnp.bool_:  # numpy's bool addition is logical or
            return [x.at[idx].max(y)]
        return [x.at[idx].add(y)]

    return run


def _check_python_int(total: Any, dtype: Any, what: str, ctx: Context) -> None:
    """numpy stores one element of a signed integer array (``x[i, j] += y`` with a
    wider sum) through a Python int: NaN raises ``ValueError``, infinity or a
    value outside the dtype's range ``OverflowError`` (unsigned targets wrap)."""
    info = np.iinfo(dtype)
    if total.dtype.kind == "f":
        ctx.check(jnp.isnan(total), ValueError, f"{what}: cannot convert float NaN to integer")
        whole = jnp.trunc(total)
        # info.max + 1 is a power of two: exact in every float dtype
        outside = ~((whole >= float(info.min)) & (whole < float(info.max) + 1.0))
        outside = outside & ~jnp.isnan(total)
    else:
        outside = (total < info.min) | (total > info.max)
    ctx.check(
        outside,
        OverflowError,
        f"{what}: the sum is out of bounds for {np.dtype(dtype).name} (numpy stores one "
        "element through a Python int)",
    )


def _has_mask(node: Apply, first: int) -> str | None:
    """The HOST_BY_DESIGN key when an index from input ``first`` on is a boolean mask."""
    if any(v.type.dtype == "bool" for v in node.inputs[first:]):  # type: ignore[attr-defined]
        return "boolean mask"
    return None


def _advanced_index(
    idx_list: Sequence[Any], node: Apply, first: int, ctx: Context
) -> Callable[[Any, Sequence[Any]], tuple]:
    """A function of (x, index values) giving the jnp index tuple; it records
    bounds checks for the integer index arrays (XLA would clamp them)."""

    def build(x: Any, values: Sequence[Any]) -> tuple:
        idx = numpy_index(idx_list, values, basic=False)
        n_used = sum(0 if e is None or e is Ellipsis else 1 for e in idx)
        out: list[Any] = []
        dim = 0
        for e in idx:
            if e is None:
                out.append(e)
                continue
            if e is Ellipsis:
                out.append(e)
                dim += np.ndim(x) - n_used
                continue
            if isinstance(e, (np.ndarray, np.generic)) and np.ndim(e) == 0:
                e = int(e)
            elif not isinstance(e, (int, slice)):
                e = jnp.asarray(e)
                if dim < np.ndim(x):
                    size = np.shape(x)[dim]
                    ctx.check(
                        _out_of_bounds(e, size),
                        IndexError,
                        f"index out of bounds for axis {dim} with size {size}",
                    )
            out.append(e)
            dim += 1
        _validate(
            np.shape(x),
            tuple(np.zeros(np.shape(e), np.intp) if isinstance(e, jnp.ndarray) else e for e in out),
        )
        return tuple(out)

    return build


def _shape_check(x: Any, idx: tuple) -> None:
    # numpy's errors for too many indices and static out-of-range scalars
    if sum(0 if e is None or e is Ellipsis else 1 for e in idx) > np.ndim(x):
        raise IndexError(f"too many indices for array of shape {np.shape(x)}")


@register(
    AdvancedSubtensor,
    static=lambda node: tuple(
        k + 1
        for k, v in enumerate(node.inputs[1:])
        if v.type.ndim == 0  # type: ignore[attr-defined]
    ),
    host=lambda node: _has_mask(node, 1),
)
def _advanced_subtensor(op: AdvancedSubtensor, node: Apply, ctx: Context) -> Fn:
    build = _advanced_index(op.idx_list, node, 1, ctx)

    def run(x: Any, *values: Any) -> list[Any]:
        idx = build(x, values)
        _shape_check(x, idx)
        return [jnp.asarray(x)[idx]]

    return run


@register(
    AdvancedIncSubtensor,
    static=lambda node: tuple(
        k + 2
        for k, v in enumerate(node.inputs[2:])
        if v.type.ndim == 0  # type: ignore[attr-defined]
    ),
    host=lambda node: _has_mask(node, 2),
)
def _advanced_inc_subtensor(op: AdvancedIncSubtensor, node: Apply, ctx: Context) -> Fn:
    build = _advanced_index(op.idx_list, node, 2, ctx)

    def run(x: Any, y: Any, *values: Any) -> list[Any]:
        idx = build(x, values)
        _shape_check(x, idx)
        x, y = jnp.asarray(x), jnp.asarray(y)
        if op.set_instead_of_inc:
            return [_set_last_wins(x, idx, _fit(_cast(y, x.dtype.name), np.shape(x[idx])))]
        if _wider(y, x):  # numpy adds in the wider type, then casts back
            common = np.result_type(x.dtype, y.dtype)
            y = _fit(y, np.shape(x[idx])).astype(common)
            if not op.accumulate:
                total = x[idx].astype(common) + y
                return [_set_last_wins(x, idx, _cast(total, x.dtype.name))]
            touched = jnp.zeros(x.shape, bool).at[idx].set(True)
            total = x.astype(common).at[idx].add(y)
            return [jnp.where(touched, _cast(total, x.dtype.name), x)]
        y = _fit(_cast(y, x.dtype.name), np.shape(x[idx]))
        if x.dtype == jnp.bool_:  # numpy's bool addition is logical or
            if op.accumulate:
                return [x.at[idx].max(y)]
            return [_set_last_wins(x, idx, x[idx] | y)]
        if op.accumulate:
            return [x.at[idx].add(y)]
        # numpy's x[idx] += y reads then writes: a repeated index counts once
        return [_set_last_wins(x, idx, x[idx] + y)]

    return run


def _out_of_bounds(indices: Any, size: int) -> Any:
    """Whether any index is outside ``[-size, size)``, without converting
    ``-size`` or ``size`` to the index dtype (an unsigned or narrow dtype would
    wrap them and flag valid indices)."""
    indices = jnp.asarray(indices)
    if not jnp.issubdtype(indices.dtype, jnp.integer):
        return jnp.any((indices < -size) | (indices >= size))
    info = jnp.iinfo(indices.dtype)
    bad = jnp.zeros(indices.shape, bool)
    if size <= info.max:
        bad = bad | (indices >= size)
    if info.min < 0 and -size >= info.min:
        bad = bad | (indices < -size)
    return jnp.any(bad)


def _bounds(ctx: Context, indices: Any, size: int, what: str) -> None:
    ctx.check(
        _out_of_bounds(indices, size),
        IndexError,
        f"{what}: index out of bounds for axis with size {size}",
    )


@register(Take)
def _take(op: Take, node: Apply, ctx: Context) -> Fn:
    def run(x: Any, indices: Any) -> list[Any]:
        x, indices = jnp.asarray(x), jnp.asarray(indices)
        size = x.shape[op.axis] if op.axis is not None else x.size
        if op.axis is not None and 0 in x.shape[: op.axis]:
            # no row to take from: the result is empty and numpy checks no index
            shape = (*x.shape[: op.axis], *indices.shape, *x.shape[op.axis + 1 :])
            return [jnp.zeros(shape, x.dtype)]
        _bounds(ctx, indices, size, "take")
        if size == 0:
            if indices.size:
                raise IndexError("take: cannot do a non-empty take from an empty axis")
            shape = (*x.shape[: op.axis], *indices.shape, *x.shape[op.axis + 1 :])
            return [jnp.zeros(shape, x.dtype)]
        return [jnp.take(x, indices, axis=op.axis, mode="wrap")]

    return run


@register(TakeAlongAxis)
def _take_along_axis(op: TakeAlongAxis, node: Apply, ctx: Context) -> Fn:
    def run(x: Any, indices: Any) -> list[Any]:
        x, indices = jnp.asarray(x), jnp.asarray(indices)
        if op.axis is None:
            x, axis = jnp.reshape(x, (-1,)), 0
        else:
            axis = op.axis
        _bounds(ctx, indices, x.shape[axis], "take_along_axis")
        if x.shape[axis] == 0:
            other = (*x.shape[:axis], indices.shape[axis], *x.shape[axis + 1 :])
            return [jnp.zeros(np.broadcast_shapes(other, indices.shape), x.dtype)]
        size = x.shape[axis]
        indices = jnp.where(indices < 0, indices + size, indices)
        return [jnp.take_along_axis(x, indices, axis=axis, mode="clip")]

    return run


@register(IncAlongAxis)
def _inc_along_axis(op: IncAlongAxis, node: Apply, ctx: Context) -> Fn:
    if node.inputs[0].type.dtype == "bool":  # type: ignore[attr-defined]
        raise Unsupported("bool IncAlongAxis runs through numpy")

    def run(x: Any, indices: Any, y: Any) -> list[Any]:
        x, indices = jnp.asarray(x), jnp.asarray(indices)
        y = _cast(jnp.asarray(y), x.dtype.name)
        if op.axis is None:
            _bounds(ctx, indices, x.size, "take_along_axis")
            return [jnp.reshape(jnp.reshape(x, (-1,)).at[indices].add(y), x.shape)]
        _bounds(ctx, indices, x.shape[op.axis], "take_along_axis")
        ones = (1,) * indices.ndim
        idx = tuple(
            indices if d == op.axis else np.arange(n).reshape((*ones[:d], -1, *ones[d + 1 :]))
            for d, n in enumerate(x.shape)
        )
        return [x.at[idx].add(y)]

    return run

"""Lowerings of shapes, views, indexing, joins, broadcasting fills and the ops
whose output size depends on the data (boolean masks, ``nonzero``).

Sizes are read from the dask arrays (``Shape``, ``Shape_i``). An array whose
sizes dask does not know yet (after a boolean mask or ``nonzero``: NaN chunk
sizes) keeps them unknown until an operation needs them (a reshape, a shape
read, an elementwise op with another array), which computes them then
(:func:`~lazygraph.backends.dask.linker.known_shape`).

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> node = x[x > 0].owner
>>> arr = da.from_array(np.array([1.0, -1.0, 2.0]), chunks=2)
>>> (out,) = _lower_advanced_subtensor(node, [arr, arr > 0])
>>> out.shape[0] != out.shape[0], out.compute()
(True, array([1., 2.]))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import dask
import dask.array as da
import numpy as np

from lazygraph.backends.dask.blocks import node_perform
from lazygraph.backends.dask.dispatch import Unsupported, register
from lazygraph.backends.dask.linker import ChunkedSize, auto_chunks, known_shape, to_dask
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply
from lazygraph.tensor.advanced_subtensor import AdvancedSubtensor
from lazygraph.tensor.broadcast import Alloc
from lazygraph.tensor.indexing import numpy_index
from lazygraph.tensor.join import Join
from lazygraph.tensor.search import Nonzero
from lazygraph.tensor.shape import MakeVector, Reshape, Shape, Shape_i, SpecifyShape
from lazygraph.tensor.subtensor import IncSubtensor, Subtensor

__all__: list[str] = []


def _concrete(value: Any) -> Any:
    """A small value (an index, a size) as numpy, computing it if it is a dask
    array (a size or an index computed from the data)."""
    return value.compute() if isinstance(value, da.Array) else value


@register(Shape)
def _lower_shape(node: Apply, values: Sequence[Any]) -> list[Any]:
    return [np.asarray(known_shape(values[0]).shape, dtype=np.int64)]


@register(Shape_i)
def _lower_shape_i(node: Apply, values: Sequence[Any]) -> list[Any]:
    x, i = known_shape(values[0]), node.op.i  # type: ignore[attr-defined]
    return [ChunkedSize.of(x.shape[i], x.chunks[i])]


@register(SpecifyShape)
def _lower_specify_shape(node: Apply, values: Sequence[Any]) -> list[Any]:
    x = known_shape(values[0])
    node_perform(node, np.broadcast_to(np.zeros((), x.dtype), x.shape), *map(_concrete, values[1:]))
    return [x]


def _data_free(shape: tuple[int, ...], dtype: Any = np.uint8) -> np.ndarray:
    """An array of ``shape`` holding no data (every stride 0): numpy's shape
    (and, with ``dtype``, casting) checks and their messages at no memory cost."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, dtype), shape, (0,) * len(shape))


def resolved_slice(s: slice, n: int) -> slice:
    """``s`` on an axis of size ``n`` with its bounds resolved (dask misreads
    some negative-step slices whose start is before the axis's start)."""
    r = range(*s.indices(n))
    if not r:
        return slice(0, 0, 1)
    return slice(r.start, r.stop if r.stop >= 0 else None, r.step)


def numpy_update(out: np.ndarray, at: Any, y: Any, how: str) -> None:
    """numpy's own write of ``y`` into ``out[at]``: assignment (``how="set"``),
    in-place addition (``"inc"``) or ``np.add.at`` (``"add_at"``), with numpy's
    casts and its handling of repeated positions."""
    if how == "set":
        out[at] = y
    elif how == "add_at":
        np.add.at(out, at, y)
    else:
        out[at] += y


@register(Reshape)
def _lower_reshape(node: Apply, values: Sequence[Any]) -> list[Any]:
    x, shape = values
    x = known_shape(to_dask(x))
    # numpy resolves -1 and raises its own errors ("cannot reshape array of
    # size 6 into shape (4,)"); dask would divide by zero on an empty array
    target = _data_free(x.shape).reshape([int(s) for s in np.asarray(_concrete(shape)).ravel()])
    if target.size == 0:
        return [da.from_array(np.empty(target.shape, x.dtype), chunks=target.shape or ())]
    limit = int(config.dask_chunk_size)
    try:
        return [x.reshape(target.shape, limit=limit)]
    except NotImplementedError:
        # dask reshapes by merging or splitting whole axes; any other reshape
        # is a merge into one axis, then a split of it
        return [x.reshape(x.size, limit=limit).reshape(target.shape, limit=limit)]


@register(Alloc, creates=True)
def _lower_alloc(node: Apply, values: Sequence[Any]) -> list[Any]:
    value, *sizes = values
    shape = tuple(int(_concrete(s)) for s in sizes)
    if any(s < 0 for s in shape):  # numpy's error (dask's chunking would fail on it)
        raise ValueError(f"{node.op}: negative dimensions are not allowed (shape {shape})")
    value = known_shape(to_dask(value))
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    chunks = list(auto_chunks(shape, dtype))
    for k, size in enumerate(sizes):  # a size read from an array: chunked as its axis
        read = getattr(size, "chunks", None)
        if read and sum(read) == shape[k]:
            chunks[k] = read
    lead = len(shape) - value.ndim
    for k in range(value.ndim):  # an axis the value has is kept as it is chunked
        if value.shape[k] != 1:
            chunks[lead + k] = value.chunks[k]
    try:
        return [da.broadcast_to(value, shape, chunks=tuple(chunks))]
    except ValueError:
        np.broadcast_to(np.zeros(value.shape), shape)  # numpy's message
        raise


@register(MakeVector)
def _lower_make_vector(node: Apply, values: Sequence[Any]) -> list[Any]:
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    return [da.stack([to_dask(v).reshape(()).astype(dtype) for v in values])]


@register(Join)
def _lower_join(node: Apply, values: Sequence[Any]) -> list[Any]:
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    axis = node.op.axis  # type: ignore[attr-defined]
    arrays = [known_shape(to_dask(v)).astype(dtype) for v in values]
    first = arrays[0].shape
    for i, a in enumerate(arrays[1:], 1):  # numpy's check, which dask leaves out
        for d, (s0, s) in enumerate(zip(first, a.shape, strict=True)):
            if d != axis % len(first) and s0 != s:
                raise ValueError(
                    "concatenate: all the input array dimensions except for the "
                    f"concatenation axis must match exactly, but along dimension {d}, the "
                    f"array at index 0 has size {s0} and the array at index {i} has size {s}"
                )
    return [da.concatenate(arrays, axis=axis)]


@register(Subtensor)
def _lower_subtensor(node: Apply, values: Sequence[Any]) -> list[Any]:
    # dask's basic indexing, with every slice's bounds resolved first
    op: Subtensor = node.op  # type: ignore[assignment]
    x, *index = values
    x = known_shape(to_dask(x))
    idx = numpy_index(op.idx_list, list(map(_concrete, index)), basic=True)
    _data_free(x.shape)[idx]  # numpy's IndexError, as perform raises it
    return [x[resolved_slices(x.shape, idx)]]


def resolved_slices(shape: tuple[int, ...], idx: tuple) -> tuple:
    """``idx`` (a numpy index of an array of ``shape``) with every slice's bounds
    resolved against its axis (``slice.indices``): dask reads some slices with a
    negative step whose start lies before the axis as selecting an element
    (``x[-2::-2]`` of one element is empty in numpy, ``[x[0]]`` in dask)."""
    real = sum(i is not None and i is not Ellipsis and not _is_bool_array(i) for i in idx)
    real += sum(i.ndim for i in idx if _is_bool_array(i))
    out: list[Any] = []
    axis = 0
    for i in idx:
        if i is None:
            out.append(i)
        elif i is Ellipsis:
            out.append(i)
            axis += len(shape) - real
        elif isinstance(i, slice):
            out.append(resolved_slice(i, shape[axis]))
            axis += 1
        else:
            out.append(i)
            axis += i.ndim if _is_bool_array(i) else 1
    return tuple(out)


def _is_bool_array(i: Any) -> bool:
    dtype = getattr(i, "dtype", None)
    return dtype is not None and np.dtype(dtype) == np.bool_ and getattr(i, "ndim", 0) > 0


def _positive_steps(shape: tuple[int, ...], idx: tuple) -> tuple[tuple, list[int], list[int]]:
    """A basic index of an array of ``shape`` as one dask assigns through: an
    int or a slice with a positive step per axis (no ``None``, no ``...``).
    Also returns the axes of ``x[idx]`` that index reverses (a negative step)
    and those ``None`` adds; ``idx`` is valid (numpy read it already)."""
    real = sum(i is not None and i is not Ellipsis for i in idx)
    at = next((k for k, i in enumerate(idx) if i is Ellipsis), len(idx))
    full = idx[:at] + (slice(None),) * (len(shape) - real) + idx[at + 1 :]
    plain: list[Any] = []
    flips: list[int] = []
    news: list[int] = []
    axis = target = 0
    for i in full:
        if i is None:
            news.append(target)
            target += 1
            continue
        n = shape[axis]
        axis += 1
        if isinstance(i, slice):
            positions = range(*i.indices(n))
            if positions.step < 0:
                flips.append(target)
                positions = positions[::-1]
            if positions:
                last = positions[-1]
                plain.append(slice(positions.start, last + 1, positions.step))
            else:
                plain.append(slice(0, 0))
            target += 1
        else:
            plain.append(int(i) + n if int(i) < 0 else int(i))
    return tuple(plain), flips, news


def update_block(region: Any, y: Any, how: str, element: bool) -> Any:
    """One chunk of ``x[idx]`` after ``set_subtensor`` (``how="set"``: numpy's
    assignment), ``inc_subtensor`` (``"inc"``: in-place addition) or its
    ``accumulate`` form (``"add_at"``: ``np.add.at``), each with numpy's casts.
    ``element``: ``idx`` names one element, which numpy reads as a scalar and
    stores through the element's own conversion (an out-of-range value raises
    where an array assignment would wrap)."""
    out = np.array(region, copy=True)
    y = np.asarray(y)
    if element and how == "inc":
        out[()] = out[()] + y
    else:
        numpy_update(out, () if element else ..., y, how)
    return out


def _check_update_shape(y_shape: tuple[int, ...], target: tuple[int, ...], how: str) -> None:
    """numpy's rule for the shape of ``y`` in ``x[idx] = y``, ``x[idx] += y`` and
    ``np.add.at(x, idx, y)``: it broadcasts to ``x[idx]``; an assignment to an
    array also drops leading size-1 axes of ``y``. (An update of one element is
    left to numpy, in :func:`update_block`: whether it takes a ``y`` of one
    element but some axes depends on the dtype.)"""
    shape = y_shape
    if how == "set":
        while len(shape) > len(target) and shape[0] == 1:
            shape = shape[1:]
    ok = len(shape) <= len(target) and all(
        s in (1, t) for s, t in zip(shape[::-1], target[::-1], strict=False)
    )
    if not ok:
        raise ValueError(
            f"could not broadcast input array from shape {y_shape} into shape {target}"
        )


@register(IncSubtensor)
def _lower_inc_subtensor(node: Apply, values: Sequence[Any]) -> list[Any]:
    # The region x[idx] (positive steps) and y, broadcast to it and oriented
    # like it, are combined chunk by chunk with numpy's own operation
    # (update_block); dask assigns the result into a copy of x.
    op: IncSubtensor = node.op  # type: ignore[assignment]
    x, y, *index = values
    x = known_shape(to_dask(x))
    y = known_shape(to_dask(y))
    idx = numpy_index(op.idx_list, list(map(_concrete, index)), basic=True)
    target = _data_free(x.shape)[idx].shape  # numpy's IndexError first, as perform
    element = all(isinstance(i, (int, np.integer)) for i in idx) and len(idx) == x.ndim
    how = "set" if op.set_instead_of_inc else ("add_at" if op.accumulate else "inc")
    if how == "inc" and not element:  # numpy's in-place add refuses float into int
        np.add(np.zeros(1, x.dtype), np.zeros(1, y.dtype), out=np.zeros(1, x.dtype))
    if element:
        task = dask.delayed(update_block, pure=True)(x[idx], y, how, True)
        out = x.copy()  # (a new Array: assignment replaces its graph, x keeps its own)
        out[idx] = da.from_delayed(task, shape=(), dtype=x.dtype)
        return [out]
    _check_update_shape(y.shape, target, how)
    if math.prod(target) == 0:
        return [x.copy()]
    plain, flips, news = _positive_steps(x.shape, idx)
    if y.ndim > len(target):
        y = y.reshape(y.shape[y.ndim - len(target) :])
    y = da.broadcast_to(y, target)
    if flips:
        y = y[tuple(slice(None, None, -1) if t in flips else slice(None) for t in range(y.ndim))]
    if news:
        y = y[tuple(0 if t in news else slice(None) for t in range(y.ndim))]
    region = x[plain]
    ind = tuple(range(region.ndim))
    new = da.blockwise(
        update_block,
        ind,
        region,
        ind,
        y.rechunk(region.chunks),
        ind,
        how,
        None,
        False,
        None,
        dtype=x.dtype,
        meta=np.empty((0,) * region.ndim, x.dtype),
    )
    out = x.copy()  # (a new Array: assignment replaces its graph, x keeps its own)
    out[plain] = new
    return [out]


def _is_array(i: Any) -> bool:
    return isinstance(i, (np.ndarray, da.Array))


def _width(i: Any) -> int:
    """How many axes of x the index entry ``i`` consumes."""
    if i is None or i is Ellipsis:
        return 0
    return i.ndim if _is_array(i) and i.dtype == bool else 1


@register(AdvancedSubtensor)
def _lower_advanced_subtensor(node: Apply, values: Sequence[Any]) -> list[Any]:
    # dask indexes with one 1-d array (integers or booleans) among slices and
    # ints; numpy's other single-array forms are brought to that one: ``None``
    # axes are added first, a k-d mask indexes its k axes merged into one, a k-d
    # integer array indexes flattened and its axis is split back, and the
    # array's axis moves to the front where numpy puts it there (ints and the
    # array not next to each other in the index).
    op: AdvancedSubtensor = node.op  # type: ignore[assignment]
    x, *index = values
    x = known_shape(to_dask(x))
    entries: list[Any] = []
    for i in numpy_index(op.idx_list, index, basic=False):
        if _is_array(i) and i.dtype != bool:
            i = np.asarray(_concrete(i))  # (dask indexes with numpy integers)
            i = int(i) if i.ndim == 0 else i
        elif isinstance(i, np.integer):
            i = int(i)
        entries.append(i)
    arrays = [k for k, i in enumerate(entries) if _is_array(i)]
    if len(arrays) > 1:  # several arrays: dask's point-wise vindex
        from lazygraph.backends.dask.indexing import index_arrays

        return [index_arrays(x, entries)]
    if not arrays:
        return [x[resolved_slices(x.shape, tuple(entries))]]
    (k,) = arrays
    arr = known_shape(entries[k])
    if arr.ndim == 0:  # a 0-d boolean: a size-1 axis, kept or not
        from lazygraph.backends.dask.indexing import index_arrays

        return [index_arrays(x, entries)]
    at = next((j for j, i in enumerate(entries) if i is Ellipsis), len(entries))
    fill = [slice(None)] * (x.ndim - sum(_width(i) for i in entries))
    entries = entries[:at] + fill + entries[at + 1 :]
    k = next(j for j, i in enumerate(entries) if _is_array(i))
    if any(i is None for i in entries):  # size-1 axes first, then slices over them
        x = x[
            tuple(i if i is None else slice(None) for i in entries for _ in range(_width(i) or 1))
        ]
        entries = [slice(None) if i is None else i for i in entries]
    axis = sum(_width(i) for i in entries[:k])
    split: tuple[int, ...] | None = None
    if arr.dtype == bool and arr.ndim > 1:
        sizes = x.shape[axis : axis + arr.ndim]
        for d, (n, m) in enumerate(zip(sizes, arr.shape, strict=True)):
            if n != m:
                raise IndexError(
                    f"boolean index did not match indexed array along axis {axis + d}; size "
                    f"of axis is {n} but size of corresponding boolean axis is {m}"
                )
        x = x.reshape((*x.shape[:axis], -1, *x.shape[axis + arr.ndim :]))
        arr = arr.ravel()
    elif arr.ndim > 1:
        split, arr = arr.shape, arr.ravel()
    entries[k] = arr
    try:
        out = x[tuple(entries)]
    except NotImplementedError as exc:
        raise Unsupported(f"dask cannot index this way: {exc}") from None
    pos = sum(isinstance(i, slice) for i in entries[:k])  # the array's axis in out
    if split is not None:
        out = out.reshape((*out.shape[:pos], *split, *out.shape[pos + 1 :]))
    advanced = [j for j, i in enumerate(entries) if j == k or isinstance(i, int)]
    if pos and advanced != list(range(advanced[0], advanced[-1] + 1)):
        n = 1 if split is None else len(split)
        out = da.moveaxis(out, list(range(pos, pos + n)), list(range(n)))
    return [out]


@register(Nonzero)
def _lower_nonzero(node: Apply, values: Sequence[Any]) -> list[Any]:
    return [i.astype(np.int64) for i in da.nonzero(to_dask(values[0]))]


def node_perform_lazy(node: Apply, values: Sequence[Any]) -> list[Any]:
    """``node``'s ``perform`` called on dask arrays: for Ops whose ``perform``
    only indexes or views its input (dask implements both), the result is the
    same dask operation."""
    cells: list[list[Any]] = [[None] for _ in node.outputs]
    node.op.perform(node, list(values), cells)
    return [c[0] for c in cells]

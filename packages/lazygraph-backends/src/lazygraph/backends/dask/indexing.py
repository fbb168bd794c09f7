"""Lowerings of indexing with several index arrays (``AdvancedSubtensor``), of
the updates through them (``AdvancedIncSubtensor``: ``x[idx] = y``,
``x[idx] += y`` and ``np.add.at``), of ``take`` and ``take_along_axis`` (and
its gradient ``IncAlongAxis``), and of ``SliceLength``.

Index arrays are small next to the data they index, and a chunk's task must
know which of them fall in it: an index array computed from the data (a dask
array) is computed when the node is lowered, as for indexing with one array
(:mod:`.shape`). Reading ``x[i, j]`` is dask's point-wise ``vindex`` (a task
per chunk the points fall in). An update sorts the index entries by the chunk
of ``x`` they fall in (a stable sort: each chunk sees its entries in the
index's order) and gathers the matching rows of ``y`` with one ``take``; each
chunk of ``x`` holding an entry is then updated by numpy's own operation on
the chunk (assignment, in-place addition or ``np.add.at``) with the local
positions, so repeated indices accumulate (``np.add.at``) or the last write
wins (``x[idx] = y``, ``x[idx] += y``) exactly as numpy does; the other chunks
are kept as they are. ``take_along_axis`` runs per chunk with the taken axis in
one chunk (the rechunk it needs), so its indices may stay dask arrays. Its
gradient, where the indices are broadcast over size-1 axes of ``x`` (their
entries accumulate onto one element), merges those axes and the taken axis
into one line, in numpy's order, and adds along it per chunk. ``SliceLength``
(the length of a slice whose bounds are computed from the data) is one task on
the 0-d values.

>>> import numpy as np
>>> x = da.from_array(np.arange(12.0).reshape(3, 4), chunks=2)
>>> index_arrays(x, (np.array([0, -1]), np.array([3, 0]))).compute()
array([3., 8.])
>>> scatter(x, (np.array([0, 0]), np.array([1, 1])), np.array([1.0, 2.0]), "add_at").compute()[0]
array([0., 4., 2., 3.])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import dask.array as da
import numpy as np
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from lazygraph.backends.dask.blocks import detached, node_perform
from lazygraph.backends.dask.dispatch import register
from lazygraph.backends.dask.linker import known_shape, to_dask
from lazygraph.backends.dask.shape import (
    _check_update_shape,
    _concrete,
    _data_free,
    numpy_update,
    resolved_slice,
)
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply
from lazygraph.tensor.advanced_subtensor import (
    AdvancedIncSubtensor,
    IncAlongAxis,
    Take,
    TakeAlongAxis,
)
from lazygraph.tensor.indexing import SliceLength, numpy_index
from lazygraph.tensor.type import TensorType

__all__ = ["index_arrays", "scatter", "update_points"]


def _is_array(i: Any) -> bool:
    return isinstance(i, (np.ndarray, da.Array))


def _empty(shape: Sequence[int], dtype: Any) -> Any:
    shape = tuple(int(s) for s in shape)
    return da.from_array(np.empty(shape, dtype), chunks=shape or ())


def _out_of_bounds(i: np.ndarray, axis: int, n: int) -> IndexError | None:
    bad = i[(i < -n) | (i >= n)]
    if bad.size:
        first = int(bad.flat[0])
        return IndexError(f"index {first} is out of bounds for axis {axis} with size {n}")
    return None


@dataclass
class _Index:
    """A numpy index with integer arrays, read per axis of ``x`` (``x`` with the
    size-1 axes of the index's ``None`` and 0-d booleans added): ``arrays``
    holds the advanced axes and their index arrays, broadcast together to
    ``shape`` and made non-negative; ``slices`` a ``slice`` for each other
    axis; ``at``: where numpy puts the broadcast dimensions in ``x[idx]``."""

    x: Any
    new: list[int]
    arrays: dict[int, np.ndarray]
    slices: dict[int, slice]
    shape: tuple[int, ...]
    at: int

    def out_shape(self) -> tuple[int, ...]:
        rest = [len(range(*s.indices(self.x.shape[a]))) for a, s in self.slices.items()]
        return (*rest[: self.at], *self.shape, *rest[self.at :])


def _read_index(x: Any, index: Sequence[Any]) -> _Index:
    """``x`` and the numpy ``index`` (ints, slices, ``None``, ``...``, integer
    or boolean arrays, numpy or dask) as an :class:`_Index`, with numpy's
    errors for out-of-range indices and masks of the wrong shape."""
    entries: list[Any] = []
    for i in index:
        if isinstance(i, da.Array):
            i = _concrete(i)
        if isinstance(i, (np.ndarray, np.generic)) and i.dtype == bool and i.ndim == 0:
            entries.append(_NewAxis(np.arange(int(bool(i)))))  # a size-1 axis, kept or not
        elif isinstance(i, (np.ndarray, np.generic)):
            entries.append(np.asarray(i))
        else:
            entries.append(i)
    width = sum(
        0 if i is None or i is Ellipsis or isinstance(i, _NewAxis) else _width(i) for i in entries
    )
    # numpy keeps the broadcast dimensions in place when the advanced entries
    # are next to each other in the index (a ``...``, even of no axes, parts them)
    advanced = [
        k for k, i in enumerate(entries) if not (i is None or i is Ellipsis or _is_slice(i))
    ]
    together = advanced == list(range(advanced[0], advanced[-1] + 1))
    at = next((k for k, i in enumerate(entries) if i is Ellipsis), len(entries))
    entries = entries[:at] + [slice(None)] * (x.ndim - width) + entries[at + 1 :]
    added = [i is None or isinstance(i, _NewAxis) for i in entries for _ in range(_width(i))]
    new = [a for a, n in enumerate(added) if n]
    if new:
        x = x[tuple(None if n else slice(None) for n in added)]
    axes: list[Any] = []  # one entry per axis of x
    for i in entries:
        if _is_array(i) and i.dtype == bool:
            axis = len(axes)
            for d, (n, m) in enumerate(zip(x.shape[axis : axis + i.ndim], i.shape, strict=True)):
                if n != m:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {axis + d}; size "
                        f"of axis is {n} but size of corresponding boolean axis is {m}"
                    )
            axes += list(np.nonzero(i))
        elif isinstance(i, _NewAxis):
            axes.append(i.positions)
        else:
            axes.append(slice(None) if i is None else i)
    x = known_shape(x)
    arrays: dict[int, np.ndarray] = {}
    for a, i in enumerate(axes):
        if isinstance(i, slice):
            continue
        i = np.asarray(i)
        if i.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        error = _out_of_bounds(i, a, x.shape[a])
        if error is not None:
            raise error
        arrays[a] = np.where(i < 0, i + x.shape[a], i).astype(np.intp)
    shape = np.broadcast_shapes(*(i.shape for i in arrays.values()))
    arrays = {a: np.broadcast_to(i, shape) for a, i in arrays.items()}
    slices = {a: resolved_slice(i, x.shape[a]) for a, i in enumerate(axes) if isinstance(i, slice)}
    at = sum(a < min(arrays) for a in slices) if together else 0
    return _Index(x, new, arrays, slices, shape, at)


def _is_slice(i: Any) -> bool:
    return isinstance(i, slice)


def _width(i: Any) -> int:
    """How many axes of ``x`` (with the added size-1 axes) ``i`` indexes."""
    return i.ndim if _is_array(i) and i.dtype == bool else 1


@dataclass
class _NewAxis:
    """A 0-d boolean index: a size-1 axis added, indexed by ``positions``
    (``[0]`` for True, ``[]`` for False)."""

    positions: np.ndarray


def index_arrays(x: Any, index: Sequence[Any]) -> Any:
    """``x[index]`` for the dask array ``x`` and a numpy ``index`` with several
    index arrays (or a 0-d boolean): dask's point-wise ``vindex`` on the
    broadcast arrays, the slices applied first, then the broadcast dimensions
    moved where numpy puts them."""
    idx = _read_index(known_shape(to_dask(x)), index)
    out_shape = idx.out_shape()
    if math.prod(out_shape) == 0:
        return _empty(out_shape, idx.x.dtype)
    flat = tuple(
        idx.arrays[a].reshape(-1) if a in idx.arrays else idx.slices[a] for a in range(idx.x.ndim)
    )
    out = idx.x.vindex[flat]  # the broadcast points first, then the sliced axes
    out = out.reshape((*idx.shape, *out.shape[1:]), limit=int(config.dask_chunk_size))
    if idx.at and idx.shape:
        k = len(idx.shape)
        out = da.moveaxis(out, list(range(k)), list(range(idx.at, idx.at + k)))
    return out


def update_points(block: Any, local: tuple[np.ndarray, ...], y: Any, how: str) -> np.ndarray:
    """One chunk of ``x`` updated at the positions ``local`` (index arrays of
    its leading axes) with the rows of ``y``, by numpy's own assignment
    (``how="set"``), in-place addition (``"inc"``) or ``np.add.at``
    (``"add_at"``), so repeated positions behave as in numpy."""
    out = np.array(block, copy=True)
    numpy_update(out, local, y, how)
    return out


def _kept(block: Any) -> Any:
    return block


def scatter(x: Any, points: tuple[np.ndarray, ...], y: Any, how: str) -> Any:
    """``x`` updated at ``points`` (non-negative 1-d index arrays, one per
    leading axis of ``x``, all of the same length m) with ``y`` (shape ``(m,
    *x.shape[len(points):])``), see the module docstring."""
    x, y = to_dask(x), to_dask(y)
    k = len(points)
    starts = [np.cumsum((0, *c)) for c in x.chunks[:k]]
    where = [np.searchsorted(s, p, side="right") - 1 for s, p in zip(starts, points, strict=True)]
    local = [p - s[w] for p, s, w in zip(points, starts, where, strict=True)]
    grid = x.numblocks[:k]
    block = np.ravel_multi_index(where, grid) if k else np.zeros(len(y), np.intp)
    order = np.argsort(block, kind="stable")  # each chunk sees its entries in order
    counts = np.bincount(block, minlength=math.prod(grid))
    y = y[order] if len(order) else y
    y = y.rechunk((tuple(int(c) for c in counts), *x.chunks[k:]))
    ends = np.cumsum(counts)
    name = f"lazygraph-scatter-{tokenize(x, y, how, *(p.tobytes() for p in points))}"
    dsk: dict[Any, Any] = {}
    for idx in np.ndindex(*x.numblocks):
        j = int(np.ravel_multi_index(idx[:k], grid)) if k else 0
        if not counts[j]:
            dsk[(name, *idx)] = (_kept, (x.name, *idx))
            continue
        part = slice(int(ends[j] - counts[j]), int(ends[j]))
        here = tuple(loc[order[part]] for loc in local)
        dsk[(name, *idx)] = (update_points, (x.name, *idx), here, (y.name, j, *idx[k:]), how)
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x, y])
    return da.Array(graph, name, chunks=x.chunks, meta=np.empty((0,) * x.ndim, x.dtype))


@register(AdvancedIncSubtensor)
def _lower_advanced_inc_subtensor(node: Apply, values: Sequence[Any]) -> list[Any]:
    # The advanced axes move to the front; y, broadcast to x[idx] and oriented
    # like it, becomes one row per index entry; the sliced region (positive
    # steps) is updated by :func:`scatter` and assigned back into a copy of x.
    op: AdvancedIncSubtensor = node.op  # type: ignore[assignment]
    x, y, *index = values
    x = known_shape(to_dask(x))
    y = known_shape(to_dask(y))
    how = "set" if op.set_instead_of_inc else ("add_at" if op.accumulate else "inc")
    raw = numpy_index(op.idx_list, index, basic=False)
    mask = len(raw) == 1 and _is_array(raw[0]) and raw[0].dtype == bool
    if how == "set" and mask and raw[0].ndim == x.ndim and y.ndim > 1:  # numpy's mask path
        raise TypeError(
            "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, "
            f"input has {y.ndim} dimensions"
        )
    idx = _read_index(x, raw)
    target = idx.out_shape()
    if how != "set":  # numpy's casting error (float into int), before any work
        np.add.at(np.zeros(1, x.dtype), [0], np.zeros(1, y.dtype))
    if math.prod(target) == 0:  # nothing to update: numpy's errors, on no data
        concrete = [np.asarray(_concrete(v)) for v in index]
        at = numpy_index(op.idx_list, concrete, basic=False)
        numpy_update(_data_free(x.shape, x.dtype), at, np.zeros(y.shape, y.dtype), how)
        return [x.copy()]
    _check_update_shape(y.shape, target, how)
    if y.ndim > len(target):
        y = y.reshape(y.shape[y.ndim - len(target) :])
    y = da.broadcast_to(y, target)
    k = len(idx.shape)
    if idx.at:  # the broadcast dimensions first, as in the transposed x
        y = da.moveaxis(y, list(range(idx.at, idx.at + k)), list(range(k)))
    adv, other = list(idx.arrays), list(idx.slices)
    plain: list[slice] = []
    flips: list[int] = []
    for d, a in enumerate(other):
        positions = range(*idx.slices[a].indices(idx.x.shape[a]))
        if positions.step < 0:
            flips.append(k + d)
            positions = positions[::-1]
        plain.append(slice(positions.start, positions[-1] + 1, positions.step))
    if flips:
        y = y[tuple(slice(None, None, -1) if t in flips else slice(None) for t in range(y.ndim))]
    rows = y.reshape((-1, *y.shape[k:]), limit=int(config.dask_chunk_size)) if k != 1 else y
    xt = idx.x.transpose(adv + other)
    whole = all(s == slice(0, n, 1) for s, n in zip(plain, xt.shape[len(adv) :], strict=True))
    region = xt if whole else xt[(slice(None),) * len(adv) + tuple(plain)]
    points = tuple(idx.arrays[a].reshape(-1) for a in adv)
    new = scatter(region, points, rows, how)
    if whole:
        out = new
    else:
        out = xt.copy()  # (a new Array: assignment replaces its graph, xt keeps its own)
        out[(slice(None),) * len(adv) + tuple(plain)] = new
    out = out.transpose(tuple(int(a) for a in np.argsort(adv + other)))
    if idx.new:
        out = out[tuple(0 if a in idx.new else slice(None) for a in range(out.ndim))]
    return [out]


@register(Take)
def _lower_take(node: Apply, values: Sequence[Any]) -> list[Any]:
    axis = node.op.axis  # type: ignore[attr-defined]
    x = known_shape(to_dask(values[0]))
    i = np.asarray(_concrete(values[1]))
    n = x.shape[axis]
    out_shape = (*x.shape[:axis], *i.shape, *x.shape[axis + 1 :])
    if math.prod(x.shape[:axis]):  # numpy checks only when something is taken
        error = _out_of_bounds(i, axis, n)
        if error is not None:
            raise error
    if math.prod(out_shape) == 0:
        return [_empty(out_shape, x.dtype)]
    i = np.where(i < 0, i + n, i)
    out = x[(slice(None),) * axis + (i.reshape(-1) if i.ndim else int(i),)]
    if i.ndim != 1:
        out = out.reshape(out_shape, limit=int(config.dask_chunk_size))
    return [out]


def _along_axis(x: Any, i: Any, axis: int) -> tuple[Any, Any, tuple[int, ...]]:
    """``x`` and the indices ``i`` broadcast against each other on every axis
    but ``axis``, each with that axis in one chunk and the same chunks on the
    others; and the shape of the result."""
    x, i = known_shape(to_dask(x)), known_shape(to_dask(i))
    if not x.ndim == i.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    try:
        shape = tuple(
            i.shape[d] if d == axis else np.broadcast_shapes((n,), (m,))[0]
            for d, (n, m) in enumerate(zip(x.shape, i.shape, strict=True))
        )
    except ValueError:
        raise ValueError(
            f"shape mismatch: indices of shape {i.shape} and an array of shape {x.shape} cannot "
            f"be broadcast together on the axes other than {axis}"
        ) from None
    if math.prod(shape) == 0 or x.size == 0:
        return x, i, shape  # nothing to take (or numpy's error): no rechunking
    x = da.broadcast_to(x, shape[:axis] + x.shape[axis : axis + 1] + shape[axis + 1 :])
    i = da.broadcast_to(i, shape)
    spec = {d: -1 if d == axis else "auto" for d in range(x.ndim)}
    x = x.rechunk(spec, block_size_limit=int(config.dask_chunk_size))
    i = i.rechunk(tuple(-1 if d == axis else c for d, c in enumerate(x.chunks)))
    return x, i, shape


@register(TakeAlongAxis)
def _lower_take_along_axis(node: Apply, values: Sequence[Any]) -> list[Any]:
    op: TakeAlongAxis = node.op  # type: ignore[assignment]
    if op.axis is None:  # the flattened x, read as take does
        x = known_shape(to_dask(values[0]))
        flat = Take(0).make_node(node.inputs[0].type.clone(shape=(None,))(), node.inputs[1])
        return _lower_take(flat, [x.reshape(x.size, limit=int(config.dask_chunk_size)), values[1]])
    x, i, shape = _along_axis(*values, op.axis)
    if math.prod(shape) == 0:
        return [_empty(shape, x.dtype)]
    if x.size == 0:  # indices into an empty axis: numpy's IndexError
        node_perform(node, np.empty(x.shape, x.dtype), np.asarray(i.compute()))
    return [_per_line(node, op.axis, i, [x, i], [True, False])]


def _perform_block(node: Apply, *blocks: Any) -> Any:
    return node_perform(node, *blocks)[0]


def _per_line(node: Apply, axis: int, like: Any, arrays: Sequence[Any], own: Sequence[bool]) -> Any:
    """``node``'s ``perform`` per chunk of ``arrays`` (each with ``axis`` in one
    chunk and the same chunks on the other axes), giving chunks like those of
    ``like``; ``own``: whether an array's ``axis`` has a length of its own
    (not the output's)."""
    out_ind = tuple(range(like.ndim))
    args: list[Any] = [detached(node), None]
    for a, different in zip(arrays, own, strict=True):
        args += [a, tuple(like.ndim if different and d == axis else d for d in out_ind)]
    dtype = np.dtype(node.outputs[0].type.dtype)  # type: ignore[attr-defined]
    return da.blockwise(
        _perform_block,
        out_ind,
        *args,
        concatenate=True,
        dtype=dtype,
        meta=np.empty((0,) * like.ndim, dtype),
    )


@register(IncAlongAxis)
def _lower_inc_along_axis(node: Apply, values: Sequence[Any]) -> list[Any]:
    op: IncAlongAxis = node.op  # type: ignore[assignment]
    x, i, y = values
    if op.axis is None:
        x = known_shape(to_dask(x))
        i = np.asarray(_concrete(i))
        error = _out_of_bounds(i, 0, x.size)
        if error is not None:
            raise error
        y = da.broadcast_to(to_dask(y), i.shape)
        limit = int(config.dask_chunk_size)
        flat = x.reshape(x.size, limit=limit)
        i = np.where(i < 0, i + x.size, i).reshape(-1)
        out = scatter(flat, (i,), y.reshape(-1), "add_at") if i.size else flat
        return [out.reshape(x.shape, limit=limit)]
    xb, ib, shape = _along_axis(x, i, op.axis)
    x = known_shape(to_dask(x))
    if math.prod(shape) == 0 or x.size == 0:  # nothing added (or numpy's error)
        node_perform(
            node, np.empty(x.shape, x.dtype), np.asarray(ib.compute()), np.zeros(shape, y.dtype)
        )
        return [x]
    y = da.broadcast_to(known_shape(to_dask(y)), shape)
    if x.shape != xb.shape:
        return [_inc_along_merged(node, x, ib, y, op.axis)]
    return [_per_line(node, op.axis, xb, [xb, ib, y.rechunk(ib.chunks)], [False, True, True])]


def _inc_along_merged(node: Apply, x: Any, i: Any, y: Any, axis: int) -> Any:
    """``IncAlongAxis`` where the indices ``i`` (and ``y``, both of the broadcast
    shape) are longer than ``x`` on size-1 axes of ``x``: np.add.at adds their
    entries onto the one element of ``x`` there, in the C order of ``i``. The
    axes ``merged`` (those and ``axis``) move last, in order, and become one
    line (its C order is numpy's), along which the plain lowering adds."""
    merged = [d for d in range(x.ndim) if d == axis or x.shape[d] != i.shape[d]]
    rest = [d for d in range(x.ndim) if d not in merged]
    order = rest + merged
    limit = int(config.dask_chunk_size)
    lead = tuple(i.shape[d] for d in rest)
    xt = x.transpose(order).reshape((*lead, x.shape[axis]), limit=limit)
    it = i.transpose(order).reshape((*lead, -1), limit=limit)
    yt = y.transpose(order).reshape((*lead, -1), limit=limit)
    last = len(rest)
    flat = [TensorType(v.dtype, (None,) * (last + 1))() for v in (xt, it, yt)]
    line = Apply(type(node.op)(last), flat, [flat[0].type()])
    xb, ib, _ = _along_axis(xt, it, last)
    out = _per_line(line, last, xb, [xb, ib, yt.rechunk(ib.chunks)], [False, True, True])
    out = out.reshape(tuple(x.shape[d] for d in order), limit=limit)
    return out.transpose(tuple(int(d) for d in np.argsort(order)))


@register(SliceLength)
def _lower_slice_length(node: Apply, values: Sequence[Any]) -> list[Any]:
    args: list[Any] = [detached(node), None]
    for v in values:
        args += [to_dask(v), ()]
    meta = np.empty((), np.int64)
    return [da.blockwise(_perform_block, (), *args, dtype=np.int64, meta=meta)]

"""Lowerings of ``Sort`` / ``ArgSort``, ``Roll``, ``Flip``, ``Pad`` and its
gradient ``PadGrad``, ``Repeat`` and its gradient ``RepeatGrad``.

dask has no general sort: the sorted axis is rechunked into one chunk (the
other axes keep chunks of at most ``config.dask_chunk_size`` bytes) and each
chunk is sorted by the Op's own ``perform`` (numpy's sort: NaNs last, a stable
``argsort`` keeps ties in order, as the python backend). Sorting along an axis
is thus an all-to-all rechunk of that axis and needs a whole line along it in
one worker's memory; ``axis=None`` sorts the flattened array in ONE task.
``roll`` and ``flip`` are dask's own (slices and concatenations: exact).
``pad`` is built axis by axis as numpy pads, each axis a concatenation of the
padding before, the array and the padding after: in ``constant`` mode chunks
filled with the value (cast as numpy casts it), in the other modes the slices
of the array that ``numpy.pad`` copies (read off ``numpy.pad`` of the
positions ``0..n-1``), so every mode and width matches numpy, also widths
larger than the axis. The gradient of ``pad`` cuts the interior out of the
padded gradient (``constant``), or adds the padding's gradient onto the
elements it copied, in numpy's order: the part before the array with
:func:`~.indexing.scatter` (``np.add.at`` per chunk), then the interior, then
the part after. ``repeat`` runs ``np.repeat`` per chunk along the axis (each
chunk with its own counts); its output chunks are the sums of the counts per
input chunk, the input being rechunked along the axis where an output chunk
would exceed ``config.dask_chunk_size`` bytes. Counts computed from the data
(a dask array) stay lazy: the output's chunk sizes along the axis are then
unknown (NaN) until a later operation needs them. Its gradient sums the
slices of each element's copies, a chunk of the gradient holding the copies
of whole elements (a task per chunk, numpy's sums).

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> node = lt.sort(lt.dvector()).owner
>>> (out,) = _lower_sort(node, [da.from_array(np.array([3.0, np.nan, 1.0, 2.0]), chunks=2)])
>>> out.compute()
array([ 1.,  2.,  3., nan])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import dask.array as da
import numpy as np

from lazygraph.backends.dask.blocks import detached, node_perform
from lazygraph.backends.dask.dispatch import register
from lazygraph.backends.dask.indexing import scatter
from lazygraph.backends.dask.linker import auto_chunks, known_shape, to_dask
from lazygraph.backends.dask.shape import _concrete
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply
from lazygraph.tensor.sort import ArgSort, Sort
from lazygraph.tensor.structure import Flip, Pad, PadGrad, Repeat, RepeatGrad, Roll
from lazygraph.tensor.type import TensorType

__all__: list[str] = []


def _perform_block(node: Apply, block: Any) -> Any:
    return node_perform(node, block)[0]


@register(Sort, ArgSort)
def _lower_sort(node: Apply, values: Sequence[Any]) -> list[Any]:
    op = node.op
    x = known_shape(to_dask(values[0]))
    limit = int(config.dask_chunk_size)
    if op.axis is None or x.ndim == 0:  # type: ignore[attr-defined]
        # the flattened array, sorted by the same Op along its only axis
        x = x.reshape(x.size, limit=limit)
        op = type(op)(0, op.descending, op.stable)  # type: ignore[attr-defined]
        node = op.make_node(TensorType(x.dtype, (None,))())
    axis = op.axis % x.ndim  # type: ignore[attr-defined]
    out_dtype = np.dtype(node.outputs[0].type.dtype)  # type: ignore[attr-defined]
    if x.size == 0:
        return [da.from_array(np.empty(x.shape, out_dtype), chunks=x.shape)]
    spec = {d: -1 if d == axis else "auto" for d in range(x.ndim)}
    x = x.rechunk(spec, block_size_limit=limit)
    return [da.map_blocks(_perform_block, detached(node), x, dtype=out_dtype)]


@register(Roll)
def _lower_roll(node: Apply, values: Sequence[Any]) -> list[Any]:
    x = known_shape(to_dask(values[0]))
    shifts = tuple(int(s) for s in np.asarray(_concrete(values[1])).reshape(-1))
    if x.size == 0:
        return [x]
    return [da.roll(x, shifts, axis=node.op.axes)]  # type: ignore[attr-defined]


@register(Flip)
def _lower_flip(node: Apply, values: Sequence[Any]) -> list[Any]:
    return [da.flip(to_dask(values[0]), node.op.axes)]  # type: ignore[attr-defined]


def _fill(shape: tuple[int, ...], value: Any, dtype: np.dtype) -> Any:
    """A chunked array of ``shape`` holding ``value`` cast as numpy's ``pad``
    casts it (an assignment into an array of ``dtype``)."""
    cell = np.empty((), dtype)
    cell[()] = value
    return da.full(shape, cell, dtype=dtype, chunks=auto_chunks(shape, dtype))


def _take(x: Any, positions: np.ndarray, axis: int) -> Any:
    return x[(slice(None),) * axis + (positions,)]


@register(Pad)
def _lower_pad(node: Apply, values: Sequence[Any]) -> list[Any]:
    op: Pad = node.op  # type: ignore[assignment]
    x = known_shape(to_dask(values[0]))
    if not op.pad_width:  # a 0-d array: nothing to pad
        return [x]
    if op.mode == "constant":
        cv = np.broadcast_to(np.asarray(_concrete(values[1])), (x.ndim, 2))
    for axis, (before, after) in enumerate(op.pad_width):
        if not (before or after):
            continue
        n = x.shape[axis]
        if op.mode == "constant":
            pieces = []
            for width, value in ((before, cv[axis, 0]), (after, cv[axis, 1])):
                shape = (*x.shape[:axis], width, *x.shape[axis + 1 :])
                pieces.append(_fill(shape, value, x.dtype) if width else None)
        else:
            if n == 0:  # numpy's error, also where the size is known only now
                raise ValueError(
                    f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'"
                )
            source = np.pad(np.arange(n), (before, after), mode=op.mode)  # type: ignore[call-overload]
            pieces = [
                _take(x, source[:before], axis) if before else None,
                _take(x, source[before + n :], axis) if after else None,
            ]
        head, tail = pieces
        x = da.concatenate([p for p in (head, x, tail) if p is not None], axis=axis)
    return [x]


@register(PadGrad)
def _lower_pad_grad(node: Apply, values: Sequence[Any]) -> list[Any]:
    op: PadGrad = node.op  # type: ignore[assignment]
    g = known_shape(to_dask(values[0]))
    if g.size == 0:  # nothing to add: perform's result (or numpy's error) on no data
        (out,) = node_perform(node, np.empty(g.shape, g.dtype))
        return [da.from_array(out, chunks=out.shape or ())]
    for axis, (before, after) in enumerate(op.pad_width):
        n = g.shape[axis] - before - after
        if op.mode == "constant":
            g = g[(slice(None),) * axis + (slice(before, before + n),)]
            continue
        if not (before or after):
            continue
        # which element each position copies (numpy's error for an empty axis)
        source = np.pad(np.arange(n), (before, after), mode=op.mode)  # type: ignore[call-overload]
        moved = da.moveaxis(g, axis, 0)
        interior = moved[before : before + n]
        out = da.zeros(interior.shape, g.dtype, chunks=interior.chunks)
        if before:  # np.add.at's order: the positions before, the array, those after
            out = scatter(out, (source[:before],), moved[:before], "add_at")
        out = out + interior
        if after:
            out = scatter(out, (source[before + n :],), moved[before + n :], "add_at")
        g = da.moveaxis(out, 0, axis)
    return [g]


def _repeat_block(block: Any, counts: Any, axis: int) -> np.ndarray:
    return np.repeat(block, counts, axis=axis)


def _row_bytes(x: Any, axis: int) -> int:
    """The bytes of the largest chunk of ``x`` one element long along ``axis``."""
    others = [max(c, default=0) for d, c in enumerate(x.chunks) if d != axis]
    return int(x.dtype.itemsize * math.prod(others))


def _chunks_for(counts: np.ndarray, row_bytes: int, limit: int) -> tuple[int, ...]:
    """Chunks along an axis whose elements are repeated ``counts`` times such
    that each chunk, repeated or not, stays within ``limit`` bytes (a chunk
    holds at least one element)."""
    weight = np.cumsum(np.maximum(counts, 1)) * row_bytes
    chunks: list[int] = []
    start, done = 0, 0
    while start < counts.size:
        end = max(int(np.searchsorted(weight, done + limit, side="right")), start + 1)
        chunks.append(end - start)
        done, start = int(weight[end - 1]), end
    return tuple(chunks)


@register(Repeat)
def _lower_repeat(node: Apply, values: Sequence[Any]) -> list[Any]:
    axis = node.op.axis  # type: ignore[attr-defined]
    x = known_shape(to_dask(values[0]))
    counts = values[1]
    n = x.shape[axis]
    lazy = isinstance(counts, da.Array) and counts.ndim == 1
    if lazy:
        counts = known_shape(counts)
        if counts.shape[0] == 1:  # one count for every element: read it
            lazy, counts = False, counts.compute()
    if not lazy:
        counts = np.asarray(_concrete(counts))
        if counts.ndim == 1 and counts.shape[0] == 1:
            counts = counts.reshape(())
        np.repeat(np.empty((n, 0), np.uint8), counts, axis=0)  # numpy's errors, on no data
    elif counts.shape[0] != n:
        raise ValueError(
            f"operands could not be broadcast together with shape ({n},) ({counts.shape[0]},)"
        )
    dtype = x.dtype
    limit = int(config.dask_chunk_size)
    if not lazy and counts.ndim == 0:
        r = int(counts)
        shape = (*x.shape[:axis], n * r, *x.shape[axis + 1 :])
        if math.prod(shape) == 0:
            return [da.from_array(np.empty(shape, dtype), chunks=shape)]
        row = _row_bytes(x, axis)
        if max(x.chunks[axis]) * r * row > limit:  # smaller chunks along the axis
            x = x.rechunk({axis: max(1, limit // (r * row))})
        chunks = _replace(x.chunks, axis, tuple(c * r for c in x.chunks[axis]))
        return [x.map_blocks(_repeat_block, r, axis, chunks=chunks, dtype=dtype)]
    if not lazy:
        shape = (*x.shape[:axis], int(counts.sum()), *x.shape[axis + 1 :])
        if math.prod(shape) == 0:
            return [da.from_array(np.empty(shape, dtype), chunks=shape)]
        sums = _sums(counts, x.chunks[axis])
        row = _row_bytes(x, axis)
        if max(sums) * row > limit:
            x = x.rechunk({axis: _chunks_for(counts, row, limit)})
            sums = _sums(counts, x.chunks[axis])
        counts = da.from_array(counts, chunks=(x.chunks[axis],))
        new: tuple[float, ...] = sums
    else:
        if x.size == 0:  # nothing repeated: only the counts' sizes matter
            shape = (*x.shape[:axis], 0, *x.shape[axis + 1 :])
            if n:  # numpy's errors for negative counts, on no data
                np.repeat(np.empty((n, 0), np.uint8), counts.compute(), axis=0)
                shape = (*x.shape[:axis], int(counts.sum().compute()), *x.shape[axis + 1 :])
            return [da.from_array(np.empty(shape, dtype), chunks=shape)]
        counts = counts.rechunk((x.chunks[axis],))
        new = (np.nan,) * x.numblocks[axis]  # known once the counts are
    ind = tuple(range(x.ndim))
    return [
        da.blockwise(
            _repeat_block,
            ind,
            x,
            ind,
            counts,
            (axis,),
            axis,
            None,
            adjust_chunks={axis: new},
            dtype=dtype,
            meta=np.empty((0,) * x.ndim, dtype),
        )
    ]


def _replace(chunks: tuple, axis: int, new: tuple) -> tuple:
    return (*chunks[:axis], new, *chunks[axis + 1 :])


def _sums(counts: np.ndarray, chunks: tuple[int, ...]) -> tuple[int, ...]:
    """The sums of ``counts`` over consecutive runs of ``chunks`` elements."""
    ends = np.cumsum((0, *chunks))
    total = np.concatenate([[0], np.cumsum(counts)])
    return tuple(int(t) for t in np.diff(total[ends]))


def _repeat_grad_block(g: Any, node: Apply, count: int, in_order: bool) -> Any:
    """One chunk of the gradient of ``repeat`` by ``count``: ``perform``'s sum of
    each element's copies. ``in_order``: the whole gradient has more than one
    element after the axis, so numpy adds each element's copies one after the
    other (in a chunk holding only one it would sum them pairwise)."""
    axis = node.op.axis  # type: ignore[attr-defined]
    n = g.shape[axis] // count
    if in_order and math.prod(g.shape[axis + 1 :]) == 1:
        copies = g.reshape((*g.shape[:axis], n, count, *g.shape[axis + 1 :]))
        total = np.array(copies.take(0, axis=axis + 1))
        for k in range(1, count):
            total += copies.take(k, axis=axis + 1)
        return total
    return node_perform(node, g, np.asarray(count), np.asarray(n))[0]


def _repeat_grad_segments(node: Apply, g: Any, counts: Any) -> Any:
    counts = counts.reshape(-1)
    return node_perform(node, g, counts, np.asarray(counts.size))[0]


@register(RepeatGrad)
def _lower_repeat_grad(node: Apply, values: Sequence[Any]) -> list[Any]:
    # each chunk of the result: the elements whose copies make up one chunk of g
    axis = node.op.axis  # type: ignore[attr-defined]
    g = known_shape(to_dask(values[0]))
    counts = np.asarray(_concrete(values[1]))
    n = int(_concrete(values[2]))
    shape = (*g.shape[:axis], n, *g.shape[axis + 1 :])
    if counts.ndim == 1 and counts.shape[0] == 1:
        counts = counts.reshape(())
    if g.size == 0:  # no copies: zeros
        return [da.zeros(shape, g.dtype, chunks=auto_chunks(shape, g.dtype))]
    limit = int(config.dask_chunk_size)
    row = _row_bytes(g, axis)
    node = detached(node)
    if counts.ndim == 0:
        r = int(counts)
        per = min(max(1, max(g.chunks[axis]) // r), max(1, limit // (r * row)))
        g = g.rechunk({axis: per * r})
        chunks = _replace(g.chunks, axis, tuple(c // r for c in g.chunks[axis]))
        in_order = math.prod(g.shape[axis + 1 :]) > 1
        return [g.map_blocks(_repeat_grad_block, node, r, in_order, chunks=chunks, dtype=g.dtype)]
    out_chunks = _chunks_for(counts, row, limit)
    g = g.rechunk({axis: _sums(counts, out_chunks)})
    # the counts of each chunk of the result, along the axis (matched to the
    # chunks of g by position: their sizes differ)
    lined = counts.reshape([-1 if d == axis else 1 for d in range(g.ndim)])
    lined = da.from_array(lined, chunks=[out_chunks if d == axis else 1 for d in range(g.ndim)])
    ind = tuple(range(g.ndim))
    return [
        da.blockwise(
            _repeat_grad_segments,
            ind,
            node,
            None,
            g,
            ind,
            lined,
            ind,
            align_arrays=False,
            adjust_chunks={axis: out_chunks},
            dtype=g.dtype,
            meta=np.empty((0,) * g.ndim, g.dtype),
        )
    ]

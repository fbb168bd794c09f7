"""Lowerings of ``Sort`` / ``ArgSort``, ``Roll``, ``Flip`` and ``Pad``.

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
larger than the axis.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> node = lt.sort(lt.dvector()).owner
>>> (out,) = _lower_sort(node, [da.from_array(np.array([3.0, np.nan, 1.0, 2.0]), chunks=2)])
>>> out.compute()
array([ 1.,  2.,  3., nan])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask.array as da
import numpy as np

from lazygraph.backends.dask.blocks import detached, node_perform
from lazygraph.backends.dask.dispatch import register
from lazygraph.backends.dask.linker import auto_chunks, known_shape, to_dask
from lazygraph.backends.dask.shape import _concrete
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply
from lazygraph.tensor.sort import ArgSort, Sort
from lazygraph.tensor.structure import Flip, Pad, Roll
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

"""Lowerings of ``Unique`` (every ``unique_*`` kind) and ``SearchSorted``.

``unique`` is a tree, as a reduction is: each chunk of the flattened array
gets numpy's ``unique`` (its sorted values, the first index of each and its
count), then steps that each merge ``split_every`` of these partial results
(dask's setting) with numpy's ``unique`` of their values, in chunk order, down
to one. A merge keeps, for each value, the first index (partial results are
merged in chunk order and numpy's stable sort keeps the earliest of equal
values first, so it is also the value numpy reports, ``-0.0`` or ``0.0``) and
the sum of the counts. NaNs are all distinct, as in numpy 2's ``unique_*``,
and come last in the order of their positions. The number of unique values is
known only when computed: the outputs have one chunk of unknown (NaN) size
until a later operation needs it. The inverse indices are one task per chunk
of the input, each a ``searchsorted`` of its elements among the final values
(a NaN element: its own NaN entry, counted from the NaNs of the chunks before
it); they have the input's shape and chunks. ``unique_values`` comes sorted:
numpy 2.3+ leaves its order unspecified (its hash table's), so the order can
differ from numpy's, the values cannot. Where numpy's own result depends on
its unstable sort (which of ``-0.0`` and ``0.0`` ``unique_counts`` /
``unique_inverse`` report, which NaN entry an element of ``unique_inverse``
points at in arrays long enough for numpy to sort them out of order), this
gives the stable sort's answer, which ``unique_all`` gives too.

``searchsorted``: the sorted array (and ``sorter``) is rechunked into one
chunk, which every chunk of the needles reads; each needle chunk is one task
running numpy's ``searchsorted`` (NaNs sort last, as in numpy), so the
needles may have chunk sizes dask does not know yet.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> node = lt.unique_all(lt.dvector()).values.owner
>>> x = da.from_array(np.array([3.0, np.nan, 1.0, 3.0, 1.0]), chunks=2)
>>> values, first, inverse, counts = (v.compute() for v in _lower_unique(node, [x]))
>>> values, first, inverse, counts
(array([ 1.,  3., nan]), array([2, 0, 1]), array([1, 2, 0, 1, 0]), array([2, 2, 1]))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import dask
import dask.array as da
import numpy as np

from lazygraph.backends.dask.blocks import detached, node_perform
from lazygraph.backends.dask.dispatch import register
from lazygraph.backends.dask.linker import known_shape, to_dask
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply
from lazygraph.tensor.search import SearchSorted
from lazygraph.tensor.sort import UNIQUE_FIELDS, Unique

__all__ = ["unique_parts"]


def _split_every() -> int:
    split = dask.config.get("split_every", None)
    return split if isinstance(split, int) and split >= 2 else 4


def unique_parts(
    block: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The partial result of one chunk: numpy's sorted unique values of the
    flattened ``block`` (NaNs distinct), the first index of each, its count,
    and the chunk's size (to shift the indices of the chunks after it).

    >>> unique_parts(np.array([2.0, 1.0, 2.0]))
    (array([1., 2.]), array([1, 0]), array([1, 2]), 3)
    """
    flat = np.asarray(block).reshape(-1)
    values, first, counts = np.unique(flat, return_index=True, return_counts=True, equal_nan=False)
    return values, first.astype(np.int64), counts.astype(np.int64), flat.size


def merge_parts(
    parts: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, int]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The partial results of consecutive chunks merged into one (see the
    module docstring).

    >>> merge_parts([unique_parts(np.array([2.0, 1.0])), unique_parts(np.array([0.0, 1.0]))])
    (array([0., 1., 2.]), array([2, 1, 0]), array([1, 2, 1]), 4)
    """
    shifts = np.cumsum([0] + [p[3] for p in parts[:-1]])
    values = np.concatenate([p[0] for p in parts])
    first = np.concatenate([p[1] + s for p, s in zip(parts, shifts, strict=True)])
    counts = np.concatenate([p[2] for p in parts])
    # a stable sort: of equal values, the earliest chunk's comes first
    merged, at, owner = np.unique(values, return_index=True, return_inverse=True, equal_nan=False)
    total = np.zeros(merged.size, np.int64)
    np.add.at(total, owner, counts)
    return merged, first[at], total, int(sum(p[3] for p in parts))


def _nan_count(part: tuple[np.ndarray, ...]) -> int:
    values = part[0]
    return int(np.isnan(values).sum()) if values.dtype.kind in "fc" else 0


def _offsets(counts: Sequence[int]) -> np.ndarray:
    return np.cumsum([0, *counts[:-1]], dtype=np.int64)


def inverse_block(
    block: Any, final: tuple[np.ndarray, ...], nans_before: np.ndarray, block_id: Any = None
) -> np.ndarray:
    """The inverse indices of one chunk (flattened to 1-d): each element's
    position among the final unique values; the k-th NaN of the chunk is the
    entry after the numbers and the NaNs of the chunks before it."""
    values = final[0]
    block = np.asarray(block)
    nan = np.isnan(block) if block.dtype.kind in "fc" else None
    numbers = values.size - (int(np.isnan(values).sum()) if nan is not None else 0)
    out = np.searchsorted(values[:numbers], block).astype(np.int64)
    if nan is not None and nan.any():
        start = numbers + int(nans_before[block_id[0]])
        out[nan] = np.arange(start, start + int(nan.sum()))
    return out


@register(Unique)
def _lower_unique(node: Apply, values: Sequence[Any]) -> list[Any]:
    fields = UNIQUE_FIELDS[node.op.kind]  # type: ignore[attr-defined]
    x = to_dask(values[0])
    shape = None  # the input's shape, where it is not 1-d
    if x.ndim != 1:  # (a 1-d array may keep chunk sizes dask does not know yet)
        x = known_shape(x)
        shape = x.shape
        x = x.reshape(x.size, limit=int(config.dask_chunk_size))
    if not math.isnan(x.shape[0]) and x.shape[0] == 0:
        empty = {
            "values": np.empty(0, x.dtype),
            "indices": np.empty(0, np.int64),
            "inverse_indices": np.empty(x.shape if shape is None else shape, np.int64),
            "counts": np.empty(0, np.int64),
        }
        return [da.from_array(empty[f], chunks=empty[f].shape) for f in fields]
    blocks = x.to_delayed(optimize_graph=False).ravel()
    parts = [dask.delayed(unique_parts, pure=True)(b) for b in blocks]
    level = parts
    split = _split_every()
    while len(level) > 1:
        level = [
            dask.delayed(merge_parts, pure=True)(level[k : k + split])
            for k in range(0, len(level), split)
        ]
    final = level[0]
    dtypes = {"values": x.dtype, "indices": np.int64, "counts": np.int64}
    outs = []
    for field in fields:
        if field == "inverse_indices":
            nans = [dask.delayed(_nan_count, pure=True)(p) for p in parts]
            before = dask.delayed(_offsets, pure=True)(nans)
            meta = np.empty((0,), np.int64)
            inverse = da.map_blocks(inverse_block, x, final, before, dtype=np.int64, meta=meta)
            if shape is not None:
                inverse = inverse.reshape(shape, limit=int(config.dask_chunk_size))
            outs.append(inverse)
            continue
        k = {"values": 0, "indices": 1, "counts": 2}[field]
        outs.append(da.from_delayed(final[k], shape=(np.nan,), dtype=dtypes[field]))
    return outs


def _search_block(node: Apply, v: Any, a: Any, *sorter: Any) -> Any:
    return node_perform(node, a, v, *sorter)[0]


@register(SearchSorted)
def _lower_searchsorted(node: Apply, values: Sequence[Any]) -> list[Any]:
    a, v, *sorter = values
    v = to_dask(v)
    whole = [known_shape(to_dask(s)) for s in (a, *sorter)]
    whole = [s.rechunk(-1) if s.numblocks != (1,) else s for s in whole]
    if v.size == 0:  # nothing to search for
        return [da.from_array(np.empty(v.shape, np.int64), chunks=v.shape or ())]
    out_ind = tuple(range(v.ndim))
    args: list[Any] = [detached(node), None, v, out_ind]
    for s in whole:  # the same whole chunk for every chunk of v
        args += [s, (v.ndim,)]
    return [
        da.blockwise(
            _search_block,
            out_ind,
            *args,
            concatenate=True,
            dtype=np.int64,
            meta=np.empty((0,) * v.ndim, np.int64),
        )
    ]

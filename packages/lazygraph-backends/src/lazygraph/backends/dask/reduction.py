"""Lowering of ``Reduce``: tree reductions.

Each reduction is a ``dask.array.reduction``: a *chunk* step per input chunk,
then *combine* steps that each merge ``split_every`` partial results (dask's
``split_every`` setting: ``dask.config.set(split_every=2)`` gives a binary
tree, about log2(n) levels over n chunks), then one *aggregate* step. dask's
own reductions are exactly that; ``mean`` carries sums and counts through the
tree, ``argmax`` / ``argmin`` values and indices. ``var`` and ``std`` are two
of them, as numpy computes them: the mean, then the sum of squared deviations
from it. ``logsumexp`` is two as well: the maximum, then the sum of the
shifted exponentials.

Floating-point sums are added in another order than numpy's pairwise sum, so
they can differ from numpy's in the last bits.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> node = lt.sum(lt.dvector(), axis=0).owner
>>> x = da.from_array(np.arange(8.0), chunks=2)
>>> float(reduce_array(node.op, x, "float64").compute())
28.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import dask.array as da
import numpy as np
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from lazygraph.backends.dask.dispatch import Unsupported, register
from lazygraph.backends.dask.linker import known_shape, to_dask
from lazygraph.graph.basic import Apply
from lazygraph.tensor.cumulative import CumOp
from lazygraph.tensor.elemwise import SumToShape
from lazygraph.tensor.reduction import KINDS, Reduce

__all__ = ["reduce_array"]


def _logsumexp(x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    # lazygraph.tensor.reduction.np_logsumexp's recipe, over chunks: shift by the
    # maximum (0 where it is not finite) so exp cannot overflow
    if x.dtype.kind in "biu":
        x = x.astype("float64")
    if any(x.shape[a] == 0 for a in axis):
        shift = da.zeros([1 if k in axis else s for k, s in enumerate(x.shape)], dtype=x.dtype)
    else:
        shift = da.max(x, axis=axis, keepdims=True)
        shift = da.where(da.isfinite(shift), shift, 0).astype(x.dtype)
    total = da.sum(da.exp(x - shift), axis=axis, keepdims=True)
    out = da.log(total) + shift
    return out if keepdims else da.squeeze(out, axis=axis)


def _moment(x: Any, op: Reduce) -> Any:
    # numpy's two passes (numpy/_core/_methods.py ``_var``): the mean in the
    # accumulation dtype, then the sum of squared deviations from it, divided by
    # max(n - correction, 0). dask's own var merges per-chunk moments in one pass,
    # whose rounding differs from numpy's beyond float32's tolerance where the
    # deviations are tiny next to the mean (numpy's float32 mean, off by half an
    # ulp, gives a std of 0.5 for three equal values of 5.6e6; dask's 0.37).
    axis, keepdims = op.axis, op.keepdims
    calc = op.dtype or (x.dtype.name if x.dtype.kind in "fc" else "float64")
    x = known_shape(x)
    n = math.prod(x.shape[a] for a in axis)
    total = da.sum(x, axis=axis, dtype=calc, keepdims=True)
    mean = total / n if n else da.full_like(total, np.nan)
    d = x - mean.astype(calc)
    sq = d.real * d.real + d.imag * d.imag if d.dtype.kind == "c" else d * d
    ss = da.sum(sq, axis=axis, dtype=op.dtype or sq.dtype, keepdims=keepdims)
    var = ss / max(n - op.correction, 0)
    return da.sqrt(var) if op.kind == "std" else var


def reduce_array(op: Reduce, x: Any, out_dtype: str) -> Any:
    """``op`` over the dask array ``x`` as a tree reduction, as ``out_dtype``."""
    axis, keepdims, kind = op.axis, op.keepdims, op.kind
    if kind in ("max", "min", "argmax", "argmin") and any(x.shape[a] == 0 for a in axis):
        # numpy's error, which dask would only give (as another) when computing
        raise ValueError(f"{op}: zero-size array to reduction operation {kind} (shape {x.shape})")
    if x.size == 0:  # numpy's answer from no data (dask's trees mishandle empty chunks)
        empty = np.empty(x.shape, x.dtype)
        with np.errstate(all="ignore"):
            result = np.asarray(KINDS[kind].compute(empty, op), dtype=out_dtype)
        return da.from_array(result, chunks=result.shape or ())
    if kind in ("sum", "prod", "mean"):
        fn = {"sum": da.sum, "prod": da.prod, "mean": da.mean}[kind]
        out = fn(x, axis=axis, dtype=op.dtype, keepdims=keepdims)
    elif kind in ("max", "min", "all", "any"):
        out = getattr(da, kind)(x, axis=axis, keepdims=keepdims)
    elif kind in ("var", "std"):
        out = _moment(x, op)
    elif kind == "count_nonzero":
        out = da.sum(x != 0, axis=axis, dtype=np.intp, keepdims=keepdims)
    elif kind in ("argmax", "argmin"):
        one = axis[0] if len(axis) == 1 else None  # all axes: numpy's axis=None
        out = getattr(da, kind)(x, axis=one, keepdims=keepdims)
    elif kind == "logsumexp":
        out = _logsumexp(x, axis, keepdims)
    else:
        raise Unsupported(f"no dask reduction for {kind!r}")
    return out if out.dtype == np.dtype(out_dtype) else out.astype(out_dtype)


def scan_block(block: Any, carry: Any, kind: str, axis: int, out_dtype: str) -> Any:
    """One chunk of a cumulative sum or product along ``axis``: numpy's scan of
    the chunk started from ``carry`` (the previous chunk's last slice, or None
    for the first chunk), so every element is combined in numpy's order."""
    scan = np.cumsum if kind == "sum" else np.cumprod
    block = np.asarray(block).astype(out_dtype, copy=False)
    if carry is None:
        return scan(block, axis=axis, dtype=out_dtype)
    joined = scan(np.concatenate([carry, block], axis=axis), axis=axis, dtype=out_dtype)
    return joined[(slice(None),) * axis + (slice(1, None),)]


def last_slice(block: Any, axis: int) -> Any:
    """The last slice of ``block`` along ``axis`` (kept as an axis of size 1)."""
    return block[(slice(None),) * axis + (slice(-1, None),)]


def _scan(x: Any, kind: str, axis: int, dtype: str) -> Any:
    # One graph layer, one task per chunk: each scans its chunk from the last
    # slice of the output chunk before it along the axis (the nearest non-empty
    # one), so chunks along the axis run one after the other and chunks across
    # the other axes in parallel.
    x = known_shape(x)
    name = f"lazygraph-cum{kind}-{tokenize(x, axis, dtype)}"
    sizes = x.chunks[axis]
    dsk: dict[Any, Any] = {}
    for idx in np.ndindex(*x.numblocks):
        before = [j for j in range(idx[axis]) if sizes[j]]
        carry = None
        if before:
            prev = (*idx[:axis], before[-1], *idx[axis + 1 :])
            carry = (last_slice, (name, *prev), axis)
        dsk[(name, *idx)] = (scan_block, (x.name, *idx), carry, kind, axis, dtype)
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
    return da.Array(graph, name, chunks=x.chunks, meta=np.empty((0,) * x.ndim, dtype))


@register(CumOp)
def _lower_cumulative(node: Apply, values: Sequence[Any]) -> list[Any]:
    op: CumOp = node.op  # type: ignore[assignment]
    x = known_shape(to_dask(values[0]))
    axis = op.axis
    if axis is None or x.ndim == 0:
        x, axis = x.reshape(x.size), 0
    if op.reverse:
        x = da.flip(x, axis)
    out = _scan(x, op.kind, axis, op.dtype)
    if op.exclusive and out.shape[axis]:
        before = [slice(None)] * out.ndim
        before[axis] = slice(0, -1)
        head = list(out.shape)
        head[axis] = 1
        first = da.full(head, 0 if op.kind == "sum" else 1, dtype=op.dtype)
        out = da.concatenate([first, out[tuple(before)]], axis=axis)
    if op.reverse:
        out = da.flip(out, axis)
    return [out]


@register(SumToShape)
def _lower_sum_to_shape(node: Apply, values: Sequence[Any]) -> list[Any]:
    g, x = (known_shape(to_dask(v)) for v in values)
    lead = g.ndim - x.ndim
    if lead < 0 or any(n not in (1, g.shape[lead + i]) for i, n in enumerate(x.shape)):
        raise ValueError(
            f"SumToShape: a gradient of shape {g.shape} is not a broadcast of {x.shape}"
        )
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(x.shape) if n == 1 and g.shape[lead + i] != 1
    )
    if not axes:
        return [g]
    total = da.sum(g, axis=axes, keepdims=True, dtype=g.dtype)
    return [total[(0,) * lead] if lead else total]


@register(Reduce)
def _lower_reduce(node: Apply, values: Sequence[Any]) -> list[Any]:
    op: Reduce = node.op  # type: ignore[assignment]
    x = to_dask(values[0])
    return [reduce_array(op, x, node.outputs[0].type.dtype)]  # type: ignore[attr-defined]

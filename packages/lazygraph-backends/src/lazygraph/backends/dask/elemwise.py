"""Lowerings of ``Elemwise`` (table rows and the fused ``Composite`` regions the
rewrites make), ``FusedReduce`` and ``DimShuffle``.

An elementwise node becomes ONE ``dask.array.blockwise`` layer: one task per
output chunk, running on the input blocks either the node's numba kernel (the
numba backend's own, for the node's dtypes and ranks) or its numpy ``perform``
over cache-sized blocks of the chunk, as ``config.dask_chunk_kernels`` and the
rule in :mod:`.blocked` decide. dask aligns the inputs' chunks and broadcasts
blocks of size-1 axes, as its own elementwise functions do. The task holds the
kernel's source text and the detached node (:mod:`.blocks`), so it pickles; each
process loads the kernel once, through numba's on-disk cache. Where the node has
no kernel its ``perform`` runs over blocks of each chunk, and where the kernel
does not compile for the chunks' types, on each chunk: exact, since each element
depends on the same element of the inputs.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> node = lt.exp(x).owner
>>> (out,) = lower_elemwise(node, [da.from_array(np.zeros(4), chunks=2)])
>>> out.numblocks, out.compute()
((2,), array([1., 1., 1., 1.]))
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Sequence
from typing import Any

import dask.array as da
import numpy as np
from dask.base import tokenize

from lazygraph.backends.dask.blocked import blocked_block, chunk_kernel, chunk_kernels_setting
from lazygraph.backends.dask.blocks import detached, elemwise_block, output_of
from lazygraph.backends.dask.dispatch import DaskFallbackWarning, register
from lazygraph.backends.dask.linker import known_shape, to_dask
from lazygraph.backends.dask.reduction import reduce_array
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.fused import FusedReduce
from lazygraph.tensor.scalar import Composite

__all__ = ["kernel_source", "lower_elemwise"]

_sources: dict[Any, str | None] = {}
_lock = threading.Lock()


def kernel_source(node: Apply) -> str | None:
    """The numba kernel module source of the elementwise ``node`` (without any
    in-place pattern: dask shares chunks between tasks), or None when it has
    none (a one-time :class:`DaskFallbackWarning`; ``config.on_unsupported =
    "raise"`` raises)."""
    op: Elemwise = node.op  # type: ignore[assignment]
    key = (op.scalar_op, tuple(v.type for v in node.inputs))
    if key in _sources:
        return _sources[key]
    from lazygraph.backends.numba.dispatch import Unsupported, kernel_module_source

    plain = Elemwise(op.scalar_op).make_node(*node.inputs) if op.inplace_pattern else node
    try:
        source: str | None = kernel_module_source(plain)
    except Unsupported as exc:
        if config.on_unsupported == "raise":
            raise NotImplementedError(f"dask backend: cannot lower {op}: {exc}") from None
        warnings.warn(
            f"dask backend: no numba kernel for {op} ({exc}); running its python perform per chunk",
            DaskFallbackWarning,
            stacklevel=5,
        )
        source = None
    with _lock:
        _sources[key] = source
    return source


def lower_elemwise(node: Apply, values: Sequence[Any]) -> list[Any]:
    """The outputs of the elementwise ``node`` as one blockwise layer (see the
    module docstring)."""
    arrays = [to_dask(v) for v in values]
    if len(arrays) > 1 and any(np.isnan(s) for a in arrays for s in a.shape):
        arrays = [known_shape(a) for a in arrays]  # chunks must line up
    ndim = node.outputs[0].type.ndim  # type: ignore[attr-defined]
    out_ind = tuple(range(ndim))[::-1]
    args: list[Any] = []
    for a in arrays:
        args += [a, tuple(range(a.ndim))[::-1]]
    setting = chunk_kernels_setting()
    how = chunk_kernel(node) if setting == "auto" else setting
    source = kernel_source(node) if how == "numba" else None
    # without a kernel, the python perform: the blocked evaluation runs that too
    fn: Any = elemwise_block if source is not None else blocked_block
    lead: tuple[Any, ...] = (source, None) if source is not None else ()
    scalar = node.op.scalar_op  # type: ignore[attr-defined]
    what = "fused" if isinstance(scalar, Composite) else getattr(scalar, "name", "elemwise")
    name = f"lazygraph-{what}-{tokenize(source, str(node.op), fn.__name__, *arrays)}"
    outputs = node.outputs
    dtypes = [np.dtype(o.type.dtype) for o in outputs]  # type: ignore[attr-defined]
    if len(outputs) == 1:
        return [
            da.blockwise(
                fn,
                out_ind,
                *lead,
                detached(node),
                None,
                *args,
                name=name,
                dtype=dtypes[0],
                meta=np.empty((0,) * ndim, dtypes[0]),
            )
        ]
    together = da.blockwise(
        fn,
        out_ind,
        *lead,
        detached(node),
        None,
        *args,
        name=name,
        dtype=object,
        meta=np.empty((0,) * ndim, object),
    )
    return [
        da.blockwise(
            output_of,
            out_ind,
            together,
            out_ind,
            k,
            None,
            name=f"{name}-{k}",
            dtype=dtype,
            meta=np.empty((0,) * ndim, dtype),
        )
        for k, dtype in enumerate(dtypes)
    ]


register(Elemwise)(lower_elemwise)


@register(FusedReduce)
def _lower_fused_reduce(node: Apply, values: Sequence[Any]) -> list[Any]:
    # The elementwise part is one blockwise layer and the reduction's first step
    # another; dask's graph optimisation fuses the two into one task per chunk,
    # so the elementwise result exists one chunk at a time.
    op: FusedReduce = node.op  # type: ignore[assignment]
    inner = op.elemwise.make_node(*node.inputs)
    (elementwise,) = lower_elemwise(inner, values)
    return [reduce_array(op.reduce, elementwise, node.outputs[0].type.dtype)]  # type: ignore[attr-defined]


@register(DimShuffle)
def _lower_dimshuffle(node: Apply, values: Sequence[Any]) -> list[Any]:
    op: DimShuffle = node.op  # type: ignore[assignment]
    x = to_dask(values[0])
    if op.drop:
        x = known_shape(x)
        if any(x.shape[d] != 1 for d in op.drop):
            raise ValueError(f"{op}: cannot drop axes {op.drop} of shape {x.shape}: size not 1")
        x = da.squeeze(x, axis=op.drop)
    if op.shuffle != tuple(range(len(op.shuffle))):
        x = x.transpose(op.shuffle)
    if op.augment:
        x = x[tuple(None if o == "x" else slice(None) for o in op.new_order)]
    return [x]

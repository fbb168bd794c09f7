"""Lowering of ``FFT`` (every ``numpy.fft`` transform and the transposes its
gradients are made of).

A transform needs each whole line along its axes: those axes are rechunked
into one chunk (the other axes keep chunks of at most
``config.dask_chunk_size`` bytes, dask's ``"auto"``), and each chunk is
transformed by the Op's own ``perform`` (numpy's ``pocketfft``), so every
element is the python backend's exactly. This is dask's own rule for
``dask.array.fft``; an FFT over a chunked axis is thus an all-to-all rechunk
of that axis and needs a whole line along it in one worker's memory. The last
transformed axis changes length as the transform says (``rfft``: ``n`` to
``n // 2 + 1``; ``irfft``: to ``last_size``).

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> node = lt.fft.rfft(lt.dmatrix(), axis=1).owner
>>> x = da.from_array(np.arange(12.0).reshape(3, 4), chunks=(1, 2))
>>> (out,) = _lower_fft(node, [x])
>>> out.chunks[1]  # the transformed axis: one chunk, n // 2 + 1 long
(3,)
>>> bool(np.array_equal(out.compute(), np.fft.rfft(np.arange(12.0).reshape(3, 4), axis=1)))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask.array as da
import numpy as np

from lazygraph.backends.dask.blocks import detached, node_perform
from lazygraph.backends.dask.dispatch import register
from lazygraph.backends.dask.linker import known_shape, to_dask
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply
from lazygraph.tensor.fft import FFT, HALVING, UNHALVING

__all__: list[str] = []


def _transform_block(node: Apply, block: Any) -> Any:
    return node_perform(node, block)[0]


def _out_length(op: FFT, n: int) -> int:
    """The length of the last transformed axis after the transform of ``n``."""
    if op.kind in HALVING:
        return n // 2 + 1
    if op.kind in UNHALVING:
        return op.last_size  # type: ignore[return-value]
    return n


@register(FFT)
def _lower_fft(node: Apply, values: Sequence[Any]) -> list[Any]:
    op: FFT = node.op  # type: ignore[assignment]
    x = known_shape(to_dask(values[0]))
    out_dtype = np.dtype(node.outputs[0].type.dtype)  # type: ignore[attr-defined]
    last = op.axes[-1]
    if x.size == 0:
        # an empty axis outside the transform (the Op checks the ones inside):
        # perform gives the empty result and its errors
        (out,) = node_perform(node, np.empty(x.shape, x.dtype))
        return [da.from_array(out, chunks=out.shape)]
    spec = {d: -1 if d in op.axes else "auto" for d in range(x.ndim)}
    x = x.rechunk(spec, block_size_limit=int(config.dask_chunk_size))
    chunks = list(x.chunks)
    chunks[last] = (_out_length(op, x.shape[last]),)
    return [
        da.map_blocks(
            _transform_block,
            detached(node),
            x,
            dtype=out_dtype,
            chunks=tuple(chunks),
            meta=np.empty((0,) * x.ndim, out_dtype),
        )
    ]

"""The functions dask's tasks call, on the client or on a cluster's workers.

Everything a task holds must pickle (a ``distributed`` cluster sends it to
another process): module-level functions, numpy values, kernel sources (text)
and *detached* nodes (the Op with fresh input variables: no graph behind them).
A kernel is loaded from its source on first use in each process, through the
numba backend's on-disk cache (:func:`lazygraph.backends.numba.cache.load_source`),
so a worker on the same machine compiles nothing the client compiled already.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> node = detached(lt.exp(lt.dvector()).owner)
>>> node_perform(node, np.zeros(2))
[array([1., 1.])]
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from lazygraph.graph.basic import Apply, Constant

__all__ = ["detached", "elemwise_block", "node_perform", "output_of"]


def detached(node: Apply) -> Apply:
    """``node``'s Op applied to fresh variables of its input types (constants
    kept): what a task needs to run the node's ``perform``, without the graph
    that led to it."""
    inputs = [v if isinstance(v, Constant) else v.type() for v in node.inputs]
    return Apply(node.op, inputs, [o.type() for o in node.outputs])


def node_perform(node: Apply, *values: Any) -> list[Any]:
    """The outputs of ``node``'s ``perform`` on ``values``, as arrays of the
    outputs' dtypes."""
    cells: list[list[Any]] = [[None] for _ in node.outputs]
    node.op.perform(node, list(values), cells)
    return [_typed(c[0], o) for c, o in zip(cells, node.outputs, strict=True)]


def output_of(results: Sequence[Any], k: int) -> Any:
    """The ``k``-th of a task's several results (a task of its own, which dask's
    graph optimisation fuses into the task that made them)."""
    return results[k]


def _typed(value: Any, var: Any) -> Any:
    dtype = getattr(var.type, "dtype", None)
    if dtype is None:
        return value
    if isinstance(value, np.ndarray) and value.dtype == dtype:
        return value
    return np.asarray(value, dtype=dtype)


_kernels: dict[str, Any] = {}
_failed: set[str] = set()
_lock = threading.Lock()


def _kernel(source: str) -> Any:
    found = _kernels.get(source)
    if found is None:
        from lazygraph.backends.numba import cache as disk

        with _lock:  # one compile per process, whatever the number of threads
            found = _kernels.get(source)
            if found is None:
                found = _kernels[source] = disk.load_source(source).kernel
    return found


#: chunks up to this size are handed to a kernel as C-contiguous writeable
#: arrays (see :func:`_plain`)
PLAIN_BYTES = 1 << 20


def _plain(block: Any) -> np.ndarray:
    """``block`` as the kernels take it: an array (dask hands a 0-d chunk over as
    a numpy scalar). Numba compiles a kernel once per layout and writeability of
    its arguments (C-contiguous, strided, read-only): a small chunk that is a
    strided or read-only view (a slice of an input, a broadcast) is copied, so
    that a kernel meets one layout and compiles once, not up to four times (a
    compile costs ~1 s, copying 1 MiB ~0.1 ms). Larger chunks are passed as they
    are. The layout cannot change a result: the same code runs on the same
    values in the same order."""
    arr = block if type(block) is np.ndarray else np.asarray(block)
    if arr.nbytes <= PLAIN_BYTES and not (arr.flags.c_contiguous and arr.flags.writeable):
        return np.array(arr, order="C")
    return arr


def elemwise_block(source: str | None, node: Apply, *blocks: Any) -> Any:
    """One chunk of an elementwise node: its numba kernel (from ``source``) on the
    input blocks, or its ``perform`` when there is no kernel or it does not compile
    for these types (exact either way: each element depends on the same element of
    the inputs). One output is returned as an array, several as a tuple."""
    blocks = tuple(_plain(b) for b in blocks)
    outs: Sequence[Any] | None = None
    if source is not None and source not in _failed:
        from numba.core.errors import NumbaError

        try:
            outs = _kernel(source)(*blocks)
        except NumbaError as exc:
            _failed.add(source)
            from lazygraph.backends.dask.dispatch import DaskFallbackWarning

            warnings.warn(
                f"dask backend: the kernel of {node.op} does not compile "
                f"({type(exc).__name__}); running its python perform per chunk",
                DaskFallbackWarning,
                stacklevel=2,
            )
    if outs is None:
        outs = node_perform(node, *blocks)
    if len(node.outputs) == 1:
        return outs[0]
    return tuple(outs)

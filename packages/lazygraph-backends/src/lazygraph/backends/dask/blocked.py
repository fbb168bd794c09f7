"""Per-chunk evaluation of an elementwise region with numpy, over cache-sized
blocks (numexpr's idea), and the rule that picks it or the numba kernel.

A fused region's chunk is computed either by the region's numba kernel
(:func:`lazygraph.backends.dask.blocks.elemwise_block`) or here: the chunk is cut
into blocks of about :data:`BLOCK_ELEMENTS` elements and the region's own
python ``perform`` (``Elemwise`` calls its scalar op's ``impl``: one numpy ufunc
per inner node) runs on each block, writing into slices of the output. The
temporaries of a block stay in the L1/L2 cache, and numpy's SIMD loops for
transcendental functions are used: on a CPU with AVX-512, numpy's float64
``exp``, ``log``, ``tanh``, ``arctan``... cost about 1 ns per element where
numba's scalar libm calls cost 2 to 27 ns (numba without Intel's SVML). Each
element is the python backend's exactly: the same numpy calls on the same
values, each element depending only on the same element of the inputs.

Which one a region uses is ``lazygraph.config.dask_chunk_kernels``
(``LAZYGRAPH_DASK_CHUNK_KERNELS``): ``"numba"`` or ``"numpy"`` for every region,
or ``"auto"`` (the default): :func:`chunk_kernel` (see there for the rule).

>>> import numpy as np
>>> import lazygraph
>>> import lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> f = lazygraph.function([x], lt.exp(lt.tanh(x) * 2.0), mode="python")
>>> (node,) = f.fgraph.toposort()  # the fused region
>>> node.op
Elemwise{Composite{exp(multiply(tanh(i0), 2.0))}}
>>> chunk_kernel(node)  # exp and tanh: numpy's SIMD loops win
'numpy'
>>> chunk_kernel((x * 2.0 + 1.0).owner)  # arithmetic only: the kernel
'numba'
>>> values = np.linspace(-3.0, 3.0, 200_000)  # 4 blocks
>>> out = blocked_block(node, values)
>>> bool(np.array_equal(out, np.exp(np.tanh(values) * 2.0)))
True
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from lazygraph.backends.dask.blocks import node_perform
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Constant
from lazygraph.tensor.scalar import Composite

__all__ = ["BLOCK_ELEMENTS", "blocked_block", "chunk_kernel", "chunk_kernels_setting"]

#: elements per block (at most): 64 K float64 are 512 KiB, so a block's input
#: and its one or two live temporaries stay within the L2 cache (1 MiB per core
#: on the machine measured) and the L3; smaller blocks pay numpy's per-call cost
#: (about 1.5 us per inner node) more often (docs/backends-dask.md has the numbers)
BLOCK_ELEMENTS = 65536

#: per-element time (ns) that the blocked numpy evaluation of a scalar op saves
#: over the numba kernel's, by the op's input dtype: the ops numpy runs as SIMD
#: loops (or as a few such calls) where numba calls scalar libm functions;
#: measured per chunk on AVX-512 (AMD EPYC, Zen 5) with
#: ``python benchmarks/dask_chain.py --ops``. float64 ``sin`` and ``cos`` are
#: absent: numpy calls libm for them too. Ops not listed save nothing (numba's
#: fused loop does arithmetic, comparisons, ``sqrt``... at least as fast).
SIMD_GAIN: dict[str, dict[str, float]] = {
    "float64": {
        "tan": 12.0,
        "exp": 2.1,
        "exp2": 1.0,
        "expm1": 9.6,
        "log": 1.9,
        "log2": 1.5,
        "log10": 4.3,
        "log1p": 5.8,
        "tanh": 13.7,
        "sinh": 17.8,
        "cosh": 4.8,
        "asin": 8.5,
        "acos": 8.9,
        "atan": 7.7,
        "asinh": 25.8,
        "acosh": 22.2,
        "atanh": 23.3,
        "cbrt": 15.4,
        "pow": 10.8,
        "atan2": 14.2,
        "softplus": 11.4,
        "log_sigmoid": 11.1,
    },
    "float32": {
        "sin": 4.8,
        "cos": 4.8,
        "tan": 10.9,
        "exp": 1.3,
        "exp2": 0.9,
        "expm1": 10.2,
        "log": 1.4,
        "log2": 1.2,
        "log10": 3.4,
        "log1p": 6.6,
        "tanh": 13.9,
        "sinh": 14.5,
        "cosh": 5.6,
        "asin": 5.7,
        "acos": 6.1,
        "atan": 10.6,
        "asinh": 16.5,
        "acosh": 11.1,
        "atanh": 16.2,
        "cbrt": 12.5,
        "pow": 2.0,
        "atan2": 10.3,
        "softplus": 11.2,
        "log_sigmoid": 11.2,
    },
}

#: per-element time (ns) each inner node costs the blocked numpy evaluation more
#: than the fused kernel (a numpy call per block and a pass over a temporary in
#: the cache, where the kernel's one loop keeps the value in a register):
#: 0.09 to 0.14 ns measured on a 20-op add/mul chain, rounded up
NODE_COST = 0.15

_SETTINGS = ("auto", "numba", "numpy")


def chunk_kernels_setting() -> str:
    """``config.dask_chunk_kernels``, checked."""
    setting = str(config.dask_chunk_kernels)
    if setting not in _SETTINGS:
        raise ValueError(
            f"lazygraph.config.dask_chunk_kernels must be one of {_SETTINGS}, got {setting!r}"
        )
    return setting


def chunk_kernel(node: Apply) -> str:
    """``"numpy"`` (:func:`blocked_block`) or ``"numba"`` (the region's kernel): the
    per-chunk function of the elementwise ``node`` under ``"auto"``.

    numpy where the region's inputs and outputs are all float32 or float64 and
    the time its SIMD transcendental ops save (:data:`SIMD_GAIN`, summed over its
    inner nodes) exceeds :data:`NODE_COST` per inner node; the kernel otherwise
    (arithmetic-only regions, integer and complex regions, regions of
    mostly cheap ops)."""
    scalar = node.op.scalar_op  # type: ignore[attr-defined]
    outer = [*node.inputs, *node.outputs]
    if any(getattr(v.type, "dtype", None) not in SIMD_GAIN for v in outer):
        return "numba"
    inner = scalar.nodes if isinstance(scalar, Composite) else [node]
    gain, count = 0.0, 0
    for n in _leaves(inner):
        count += 1
        op = n.op.scalar_op if n is node else n.op  # type: ignore[attr-defined]
        dtypes = [getattr(v.type, "dtype", None) for v in n.inputs if not isinstance(v, Constant)]
        table = SIMD_GAIN.get(dtypes[0] if dtypes else "", {})
        gain += table.get(getattr(op, "name", ""), 0.0)
    return "numpy" if gain > NODE_COST * count else "numba"


def _leaves(nodes: Sequence[Apply]) -> Iterator[Apply]:
    """The scalar-op nodes of a composite's graph, nested composites opened."""
    for n in nodes:
        if isinstance(n.op, Composite):
            yield from _leaves(n.op.nodes)
        else:
            yield n


def blocked_block(node: Apply, *blocks: Any) -> Any:
    """One chunk of the elementwise ``node``: its python ``perform``, on the whole
    chunk when it has at most :data:`BLOCK_ELEMENTS` elements, else block by
    block (:func:`blocked_perform`). One output is returned as an array, several
    as a tuple (as :func:`~lazygraph.backends.dask.blocks.elemwise_block`)."""
    arrays = [b if type(b) is np.ndarray else np.asarray(b) for b in blocks]
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    if math.prod(shape) <= BLOCK_ELEMENTS:
        outs = node_perform(node, *arrays)
    else:
        outs = blocked_perform(node, arrays, shape)
    return outs[0] if len(node.outputs) == 1 else tuple(outs)


def blocked_perform(node: Apply, arrays: Sequence[np.ndarray], shape: tuple[int, ...]) -> list[Any]:
    """The outputs of the elementwise ``node`` (of broadcast ``shape``) on
    ``arrays``, computed by its scalar op's ``impl`` (what ``Elemwise.perform``
    calls) on blocks of at most :data:`BLOCK_ELEMENTS` elements. Every block
    of an input is made C-contiguous and of the block's shape (a broadcast
    input's values repeated, a strided one's copied: a copy within the cache),
    so each numpy call meets the layout it meets on a whole contiguous chunk;
    0-d inputs are passed as they are, as to ``perform``."""
    scalar = node.op.scalar_op  # type: ignore[attr-defined]
    dtypes = [o.type.dtype for o in node.outputs]  # type: ignore[attr-defined]
    outs = [np.empty(shape, dtype=d) for d in dtypes]
    full = [a if a.ndim == 0 else np.broadcast_to(a, shape) for a in arrays]
    for index in block_indices(shape, BLOCK_ELEMENTS):
        args = [a if a.ndim == 0 else np.ascontiguousarray(a[index]) for a in full]
        for out, value in zip(outs, scalar.impl(args, dtypes), strict=True):
            np.copyto(out[index], value, casting="unsafe")
    return outs


def block_indices(shape: tuple[int, ...], limit: int) -> Iterator[tuple[Any, ...]]:
    """Indices of C-contiguous blocks of at most ``limit`` (>= 1) elements that
    tile an array of ``shape`` in C order: the last axes whole, the axis before
    them cut into slices, the leading axes one index at a time.

    >>> list(block_indices((3, 4), 8))
    [(slice(0, 2, None),), (slice(2, 4, None),)]
    >>> list(block_indices((2, 5), 3))[:3]
    [(0, slice(0, 3, None)), (0, slice(3, 6, None)), (1, slice(0, 3, None))]
    """
    inner, axis = 1, len(shape)
    while axis > 0 and inner * shape[axis - 1] <= limit:
        axis -= 1
        inner *= shape[axis]
    if axis == 0:
        yield ()
        return
    axis -= 1  # the axis that is cut
    step = max(1, limit // inner)
    for outer in np.ndindex(*shape[:axis]):
        for start in range(0, shape[axis], step):
            yield (*outer, slice(start, start + step))

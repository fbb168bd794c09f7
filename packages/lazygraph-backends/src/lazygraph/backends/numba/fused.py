"""Lowering of ``FusedReduce`` (an elementwise expression and the reduction
consuming it, one node): the reduction's loop nest runs over the broadcast
shape of the inputs and computes each element of the expression where the
reduction reads it, so the elementwise result never exists in memory.

>>> import lazygraph.tensor as lt
>>> from lazygraph.tensor.fused import FusedReduce
>>> from lazygraph.tensor.scalar import scalar_op
>>> node = FusedReduce(scalar_op("exp"), "sum", axis=(1,))(lt.dmatrix("x")).owner
>>> "np.exp" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from lazygraph.backends.numba.dispatch import (
    Unsupported,
    numba_funcify,
    numba_funcify_parallel,
)
from lazygraph.backends.numba.elemwise import (
    kernel_head,
    operand_reads,
    scalar_body,
    static_ones,
    versioned,
)
from lazygraph.backends.numba.reduction import reduce_loops
from lazygraph.graph.basic import Apply
from lazygraph.tensor.fused import FusedReduce

__all__ = ["fused_reduce_source"]


@numba_funcify.register(FusedReduce)
def _funcify_fused_reduce(op: FusedReduce, node: Apply) -> str:
    return fused_reduce_source(op, node)


@numba_funcify_parallel.register(FusedReduce)
def _funcify_fused_reduce_parallel(op: FusedReduce, node: Apply) -> str:
    return fused_reduce_source(op, node, parallel=True)


def fused_reduce_source(op: FusedReduce, node: Apply, parallel: bool = False) -> str:
    """The kernel source of a ``FusedReduce`` node (``parallel``: see
    :func:`~lazygraph.backends.numba.reduction.reduce_loops`)."""
    in_dtypes = [v.type.dtype for v in node.inputs]  # type: ignore[attr-defined]
    in_ndims = [v.type.ndim for v in node.inputs]  # type: ignore[attr-defined]
    elem_dtype = op.elemwise_dtype(node)
    out_dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    if ("complex" in elem_dtype or "complex" in out_dtype) and op.reduce.kind not in (
        "sum",
        "prod",
        "mean",
        "max",  # (numpy's lexicographic order: reduction._update)
        "min",
    ):
        raise Unsupported(f"complex FusedReduce {op.reduce.kind}")
    ndim = max(in_ndims, default=0)
    lines = kernel_head(node, ndim, str(op), parallel)
    dims = [f"d{k}" for k in range(ndim)]

    def nest(reads: list[str]) -> list[str]:
        body, results = scalar_body(op.scalar_op, in_dtypes, [elem_dtype], reads)
        load = [*body, f"v = {results[0]}"]
        return reduce_loops(op.reduce, ndim, elem_dtype, out_dtype, dims, load, parallel)

    # a parallel loop vectorizes only without the broadcasting index arithmetic
    # serial loops read size-1 axes through their run-time flags (see elemwise.py)
    if parallel:
        lines += versioned(in_ndims, ndim, nest, static_ones(node))
    else:
        lines += nest(operand_reads(in_ndims, ndim))
    return "\n".join(lines) + "\n"

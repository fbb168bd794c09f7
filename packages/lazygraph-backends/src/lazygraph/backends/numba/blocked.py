"""Blocked numpy evaluation of transcendental-heavy elementwise nodes.

numpy computes ``exp``, ``log``, ``sin``... with SIMD loops (its own, and SVML
on AVX-512 machines); a Numba kernel calls the scalar libm function once per
element, which can be several times slower (measured on a 2-core AMD EPYC:
``log1p(sin(exp(a)))`` on 10M float64 took 174 ms in the kernel, 99 ms in
numpy). numpy, for its part, makes one pass over memory per operation. A
blocked evaluation gets both: it runs the node's scalar graph through numpy
(its ``impl``, the python backend's own code: the same answers) over blocks of
about :data:`BLOCK` elements along the first axis, so the intermediates stay in
cache, with the blocks shared among threads (numpy releases the GIL inside its
loops). This is numexpr's idea with numpy's SIMD functions.

Which of the two is faster depends on the machine and the node, so
:class:`Chooser` measures: a large node's first calls alternate between its
kernel and the blocked evaluation, and the faster one runs from then on.

>>> import lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> blocked_runner(lt.exp(x).owner) is not None, blocked_runner((x + 1).owner)
(True, None)
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from lazygraph.graph.basic import Apply
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.fused import FusedReduce
from lazygraph.tensor.reduction import Reduce, np_logsumexp
from lazygraph.tensor.scalar import ROWS, ScalarOp
from lazygraph.tensor.scalar.composite import Composite

__all__ = ["BLOCK", "TRANSCENDENTAL", "Chooser", "blocked_runner"]

#: elements per block: a few float64 intermediates of this size stay in L2
BLOCK = 1 << 14

#: the scalar ops numpy evaluates with SIMD loops where a kernel calls libm
#: (the table's ``simd`` column)
TRANSCENDENTAL = frozenset(name for name, row in ROWS.items() if row.simd)

Runner = Callable[[Sequence[Any]], list[Any]]


def _scalar_names(scalar_op: Any) -> list[str]:
    if isinstance(scalar_op, ScalarOp):
        return [scalar_op.name]
    if isinstance(scalar_op, Composite):
        return [n.op.name for n in scalar_op.nodes if isinstance(n.op, ScalarOp)]
    return []


def blocked_runner(node: Apply) -> Runner | None:
    """A blocked numpy evaluation of ``node`` (a list of its outputs from a list
    of its inputs), or None when it has no transcendental op or is not a float
    node. An output the node computes in place is written into its input block
    by block: each block is read whole before it is written. A float
    ``logsumexp`` reduction, and a fused elementwise-reduction with a
    transcendental op that keeps the first axis, are evaluated a block of rows
    at a time."""
    op = node.op
    if isinstance(op, Reduce):
        return _logsumexp_runner(node)
    if isinstance(op, FusedReduce):
        return _fused_reduce_runner(node)
    if not isinstance(op, Elemwise):
        return None
    if not any(name in TRANSCENDENTAL for name in _scalar_names(op.scalar_op)):
        return None
    dtypes = [v.type.dtype for v in (*node.inputs, *node.outputs)]  # type: ignore[attr-defined]
    if not all(d in ("float32", "float64") for d in dtypes):
        return None
    scalar = op.scalar_op
    out_dtypes = [o.type.dtype for o in node.outputs]  # type: ignore[attr-defined]
    ndim = node.outputs[0].type.ndim  # type: ignore[attr-defined]
    if ndim == 0:
        return None

    def block(inputs: Sequence[Any], outs: list[np.ndarray], lo: int, hi: int) -> None:
        part = [x[lo:hi] if x.ndim == ndim and x.shape[0] != 1 else x for x in inputs]
        for out, value in zip(outs, scalar.impl(part, out_dtypes), strict=True):
            out[lo:hi] = value

    inplace = dict(op.inplace_pattern)

    def run(inputs: Sequence[Any]) -> list[Any]:
        shape = np.broadcast_shapes(*(np.shape(x) for x in inputs))
        outs = [
            inputs[inplace[j]] if j in inplace else np.empty(shape, d)
            for j, d in enumerate(out_dtypes)
        ]
        if math.prod(shape) > 0:
            _in_blocks(shape[0], math.prod(shape[1:]), lambda lo, hi: block(inputs, outs, lo, hi))
        return outs

    return run


def _in_blocks(rows: int, row_size: int, block: Callable[[int, int], None]) -> None:
    """``block(lo, hi)`` over ``range(rows)`` in blocks of about :data:`BLOCK`
    elements (rows of ``row_size``), contiguous runs of blocks shared among the
    threads (numpy releases the GIL inside its loops)."""
    step = max(1, BLOCK // max(1, row_size))
    starts = range(0, rows, step)
    workers = _pool_size()
    if workers <= 1 or len(starts) < 2 * workers:
        for lo in starts:
            block(lo, min(lo + step, rows))
        return
    per = -(-len(starts) // workers)

    def run_part(k: int) -> None:
        for lo in starts[k * per : (k + 1) * per]:
            block(lo, min(lo + step, rows))

    for future in [_pool().submit(run_part, k) for k in range(workers)]:
        future.result()


def _fused_reduce_runner(node: Apply) -> Runner | None:
    """A ``FusedReduce`` (``sum(exp(x - m), axis=-1)``) a block of rows at a time:
    its scalar graph through numpy on the block, then the reduction of the
    block's values (the python backend's ``perform`` on each block). Only when
    the first axis is kept, so that blocks of it give whole output rows."""
    op = node.op
    assert isinstance(op, FusedReduce)
    if not any(name in TRANSCENDENTAL for name in _scalar_names(op.scalar_op)):
        return None
    elem_dtype = op.elemwise_dtype(node)
    dtypes = [v.type.dtype for v in (*node.inputs, *node.outputs)]  # type: ignore[attr-defined]
    if not all(d in ("float32", "float64") for d in (*dtypes, elem_dtype)):
        return None
    ndim = max(v.type.ndim for v in node.inputs)  # type: ignore[attr-defined]
    if ndim == 0 or 0 in op.axis:
        return None
    out_dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]

    def reduce(inputs: Sequence[Any]) -> Any:
        (values,) = op.scalar_op.impl(inputs, [elem_dtype])
        cell: list[Any] = [None]
        op.reduce.perform(node, [values], [cell])
        return cell[0]

    def run(inputs: Sequence[Any]) -> list[Any]:
        shape = np.broadcast_shapes(*(np.shape(x) for x in inputs))
        if math.prod(shape) == 0:  # numpy's errors and empty results, unblocked
            return [reduce(inputs)]
        rows = shape[0]
        out_shape = [1 if k in op.axis else d for k, d in enumerate(shape)]
        if not op.keepdims:
            out_shape = [d for k, d in enumerate(shape) if k not in op.axis]
        out = np.empty(out_shape, out_dtype)

        def block(lo: int, hi: int) -> None:
            part = [x[lo:hi] if np.ndim(x) == ndim and x.shape[0] != 1 else x for x in inputs]
            if all(np.ndim(x) < ndim or x.shape[0] == 1 for x in inputs):
                part[0] = np.broadcast_to(part[0], (hi - lo, *shape[1:]))  # every input is 1 row
            out[lo:hi] = reduce(part)

        _in_blocks(rows, math.prod(shape[1:]), block)
        return [out]

    return run


def _logsumexp_runner(node: Apply) -> Runner | None:
    """logsumexp of a float array, a block of rows at a time: the reduced axes
    are moved last and flattened (a copy unless they already are), then per
    block the python backend's own recipe (row maxima, ``exp(x - max)`` in
    numpy's SIMD loop, row sums, ``log(sum) + max``), each block staying in
    cache. A kernel calls libm's scalar ``exp`` per element instead (2000x5000
    float64: 55 ms in the kernel, 25 ms in numpy's four passes over memory, on
    a 2-core AMD EPYC)."""
    op = node.op
    assert isinstance(op, Reduce)
    dtype = node.inputs[0].type.dtype  # type: ignore[attr-defined]
    if op.kind != "logsumexp" or dtype not in ("float32", "float64"):
        return None
    if node.outputs[0].type.dtype != dtype:  # type: ignore[attr-defined]
        return None
    ndim = node.inputs[0].type.ndim  # type: ignore[attr-defined]
    axes = list(op.axis)
    kept = [k for k in range(ndim) if k not in axes]
    if ndim == 0:
        return None

    def run(inputs: Sequence[Any]) -> list[Any]:
        (x,) = inputs
        rows = math.prod(x.shape[k] for k in kept)
        cols = math.prod(x.shape[k] for k in axes)
        y = x.transpose(kept + axes).reshape(rows, cols)
        out = np.empty(rows, dtype)
        if cols == 0:
            out[:] = -np.inf
        elif rows:

            def block(lo: int, hi: int) -> None:
                out[lo:hi] = np_logsumexp(y[lo:hi], (1,), False)

            _in_blocks(rows, cols, block)
        shape = [1 if k in axes else x.shape[k] for k in range(ndim)] if op.keepdims else None
        return [out.reshape(shape if shape is not None else [x.shape[k] for k in kept])]

    return run


_pool_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_executor_size = 0


def _pool_size() -> int:
    from lazygraph.backends.numba.linker import thread_count

    return thread_count()


def _pool() -> ThreadPoolExecutor:
    global _executor, _executor_size
    n = _pool_size()
    with _pool_lock:
        if _executor is None or _executor_size != n:
            if _executor is not None:
                _executor.shutdown(wait=False)
            _executor = ThreadPoolExecutor(n, thread_name_prefix="lazygraph-blocked")
            _executor_size = n
        return _executor


class Chooser:
    """Picks the faster of a node's kernel and its blocked evaluation, for large
    inputs: calls alternate between the two until each has run :data:`TRIALS`
    times, then the one with the smaller best time per element runs always."""

    TRIALS = 2

    __slots__ = ("blocked", "choice", "times")

    def __init__(self, blocked: Runner) -> None:
        self.blocked = blocked
        self.choice: str | None = None
        self.times: dict[str, list[float]] = {"kernel": [], "blocked": []}

    def run(self, values: Sequence[Any], kernel: Runner) -> list[Any]:
        """The node's outputs for ``values``, through ``kernel`` or the blocked
        evaluation."""
        choice = self.choice
        if choice == "kernel":
            return kernel(values)
        if choice == "blocked":
            return self.blocked(values)
        times = self.times
        which = "kernel" if len(times["kernel"]) <= len(times["blocked"]) else "blocked"
        size = max(1, max(int(np.size(v)) for v in values))
        start = time.perf_counter()
        results = kernel(values) if which == "kernel" else self.blocked(values)
        times[which].append((time.perf_counter() - start) / size)
        if min(len(t) for t in times.values()) >= self.TRIALS:
            self.choice = min(times, key=lambda k: min(times[k]))
        return results

"""Rewrites of control-flow nodes, registered in ``optdb["canonicalize"]``.

- ``scan_into_longer_twin``: a ``Scan`` whose outputs are the first outputs
  of another ``Scan`` reading the same inputs (same body, plus more per-step
  outputs) is that other scan's first outputs. Reverse mode makes such a
  twin (:func:`~lazygraph.tensor.control.scan.scan_vjp` runs the forward
  loop again, saving the carry entering each step), so a gradient graph
  holds two loops (forward with saving, backward) instead of three.
- ``scan_drop_unused_ys``: a per-step output of a ``Scan`` that nothing reads
  is not computed (its rows are not stacked, and the body nodes only it needed
  go): reverse mode stacks the gradient of every sequence, read or not.

>>> import numpy as np
>>> import lazygraph
>>> import lazygraph.numpy as lnp
>>> from lazygraph.tensor.control import Scan
>>> def loss(w, xs):
...     return lnp.sum(lazygraph.scan(lambda c, x: (lnp.tanh(c * w + x), c), 0.0, xs)[1])
>>> f = lazygraph.jit(lazygraph.value_and_grad(loss))
>>> _ = f(np.float64(0.5), np.arange(3.0))
>>> sum(isinstance(n.op, Scan) for n in f.__lazygraph_fgraph__().apply_nodes)
2
"""

from __future__ import annotations

from typing import Any

from lazygraph.graph.basic import Apply
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting.basic import node_rewriter
from lazygraph.rewriting.db import optdb
from lazygraph.tensor.control.inner import InnerGraph
from lazygraph.tensor.control.scan import Scan

__all__ = ["scan_drop_unused_ys", "scan_into_longer_twin"]


def _prefix_of(short: Scan, long: Scan) -> bool:
    """Whether ``long`` is ``short`` with more per-step outputs after its own:
    the same carries, sequences, order and inner inputs, and its first inner
    outputs computing what ``short``'s compute."""
    n = len(short.inner.outputs)
    if (long.n_carry, long.n_seq, long.reverse) != (short.n_carry, short.n_seq, short.reverse):
        return False
    if len(long.inner.outputs) <= n or len(long.inner.inputs) != len(short.inner.inputs):
        return False
    head = InnerGraph(long.inner.inputs, long.inner.outputs[:n], copy=False)
    return head == short.inner


@node_rewriter([Scan])
def scan_into_longer_twin(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """``Scan_a(inputs) -> Scan_b(inputs)[:len(a's outputs)]`` when ``b``'s body is
    ``a``'s with more per-step outputs appended (see the module docstring)."""
    if fgraph is None:
        return None
    op: Scan = node.op  # type: ignore[assignment]
    for client, _ in fgraph.clients.get(node.inputs[0], ()):
        if client is node or client == "output" or not isinstance(client.op, Scan):  # type: ignore[union-attr]
            continue
        other: Apply = client  # type: ignore[assignment]
        if list(other.inputs) == list(node.inputs) and _prefix_of(op, other.op):  # type: ignore[arg-type]
            return list(other.outputs[: len(node.outputs)])
    return None


optdb["canonicalize"].register(  # type: ignore[call-arg]
    scan_into_longer_twin.name, scan_into_longer_twin, "fast_run", "fast_compile"
)


@node_rewriter([Scan])
def scan_drop_unused_ys(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """``Scan(...) -> Scan'(...)`` without the per-step outputs no node and no
    graph output reads."""
    if fgraph is None:
        return None
    op: Scan = node.op  # type: ignore[assignment]
    nc = op.n_carry
    used = [k for k in range(op.n_ys) if fgraph.clients.get(node.outputs[nc + k])]
    if len(used) == op.n_ys:
        return None
    inner = op.inner
    outputs = inner.outputs[:nc] + [inner.outputs[nc + k] for k in used]
    new = Scan(InnerGraph(inner.inputs, outputs), nc, op.n_seq, op.reverse)
    new_outputs = new.make_node(*node.inputs).outputs
    kept = list(range(nc)) + [nc + k for k in used]
    return {node.outputs[i]: out for i, out in zip(kept, new_outputs, strict=True)}


optdb["canonicalize"].register(  # type: ignore[call-arg]
    scan_drop_unused_ys.name, scan_drop_unused_ys, "fast_run", "fast_compile"
)

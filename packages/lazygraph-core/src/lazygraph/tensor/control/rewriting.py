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
- ``scan_hoist_invariants`` and ``while_hoist_invariants``: body nodes that
  read only non-sequences (and constants) are computed once, outside the loop,
  and the body reads their values as new non-sequences (see
  :func:`loop_invariants` for which nodes move).
- ``scan_keep_last_y``: a per-step output read only as its last row
  (``ys[-1]``) becomes a carry: the rows are never stacked.

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

from collections.abc import Mapping, Sequence
from typing import Any

from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.clone import clone_get_equiv
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting.basic import node_rewriter
from lazygraph.rewriting.db import optdb
from lazygraph.tensor.blas import MatMul
from lazygraph.tensor.broadcast import Alloc
from lazygraph.tensor.control.inner import InnerGraph
from lazygraph.tensor.control.scan import Scan, static_length
from lazygraph.tensor.control.while_ import While
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.indexing import INPUT, Slice
from lazygraph.tensor.reduction import KINDS, Reduce
from lazygraph.tensor.scalar import ScalarOp
from lazygraph.tensor.subtensor import Subtensor

__all__ = [
    "loop_invariants",
    "never_raises",
    "scan_drop_unused_ys",
    "scan_hoist_invariants",
    "scan_into_longer_twin",
    "scan_keep_last_y",
    "while_hoist_invariants",
]


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


def _has_twin(fgraph: FunctionGraph, node: Apply) -> bool:
    """Whether another ``Scan`` reads ``node``'s inputs with a body that extends
    ``node``'s or that ``node``'s extends: ``scan_into_longer_twin`` merges the
    two first (changing either's body first would keep both loops)."""
    op: Scan = node.op  # type: ignore[assignment]
    for client, _ in fgraph.clients.get(node.inputs[0], ()):
        if client is node or client == "output" or not isinstance(client.op, Scan):  # type: ignore[union-attr]
            continue
        other: Apply = client  # type: ignore[assignment]
        if list(other.inputs) == list(node.inputs) and (
            _prefix_of(op, other.op) or _prefix_of(other.op, op)  # type: ignore[arg-type]
        ):
            return True
    return False


def _static_steps(node: Apply) -> int | None:
    """The number of steps of a ``Scan`` node when known at build time (its
    length is a constant, or a sequence has a static number of rows)."""
    op: Scan = node.op  # type: ignore[assignment]
    steps = static_length(node.inputs[0])
    if steps is not None:
        return steps
    seqs = node.inputs[1 + op.n_carry : 1 + op.n_carry + op.n_seq]
    return next((x.type.shape[0] for x in seqs if x.type.shape[0] is not None), None)  # type: ignore[attr-defined]


# -- loop invariants ---------------------------------------------------------------


def _broadcast_safe(shapes: Sequence[Sequence[int | None]]) -> bool:
    """Whether arrays of these static shapes broadcast together whatever their
    unknown sizes are: per axis, the sizes that are not 1 are one unknown size
    or known and equal."""
    ndim = max((len(s) for s in shapes), default=0)
    for axis in range(ndim):
        sizes = [s[axis - ndim + len(s)] for s in shapes if axis - ndim + len(s) >= 0]
        big = [d for d in sizes if d != 1]
        if len(big) > 1 and (None in big or len(set(big)) > 1):
            return False
    return True


def never_raises(node: Apply) -> bool:
    """Whether ``node`` computes a value for any inputs of its inputs' types,
    never raising: elementwise ops whose static shapes must broadcast (not an
    integer ``pow``, which raises for negative exponents), ``DimShuffle`` that
    drops only static size-1 axes, reductions with an identity or over static
    non-empty axes, ``MatMul`` whose static sizes match, and ``Alloc`` of
    constant sizes. None of them works in place.

    >>> import lazygraph.tensor as lt
    >>> never_raises((lt.dmatrix("a") + 1.0).owner), never_raises(lt.dvector("v")[2].owner)
    (True, False)
    """
    op, ins = node.op, node.inputs
    shapes = [getattr(v.type, "shape", None) for v in ins]
    if any(s is None for s in shapes) or op.destroy_map:
        return False
    if isinstance(op, Elemwise):
        if not isinstance(op.scalar_op, ScalarOp) or not _broadcast_safe(shapes):  # type: ignore[arg-type]
            return False
        ints = any(o.type.numpy_dtype.kind in "biu" for o in node.outputs)  # type: ignore[attr-defined]
        return not (op.scalar_op.name == "pow" and ints)
    if isinstance(op, DimShuffle):
        return all(shapes[0][d] == 1 for d in op.drop)  # type: ignore[index]
    if isinstance(op, Reduce):
        dims = shapes[0]
        return KINDS[op.kind].identity or all(dims[a] not in (None, 0) for a in op.axis)  # type: ignore[index]
    if isinstance(op, MatMul):
        a, b = shapes
        if not a or not b:
            return False
        inner = (a[-1], b[-2] if len(b) > 1 else b[0])  # type: ignore[index]
        if inner[0] is None or inner[0] != inner[1]:
            return False
        return _broadcast_safe([a[:-2], b[:-2]])  # type: ignore[index]
    if isinstance(op, Alloc):
        sizes = ins[1:]
        if not all(isinstance(v, Constant) and int(v.data) >= 0 for v in sizes):
            return False
        want = [int(v.data) for v in sizes]  # type: ignore[attr-defined]
        value = shapes[0]
        lead = len(want) - len(value)  # type: ignore[arg-type]
        return all(d == 1 or d == want[lead + k] for k, d in enumerate(value))  # type: ignore[arg-type]
    return False


def _pure(node: Apply) -> bool:
    """An op of lazygraph's own tensor library working out of place: a
    function of its inputs (no state, no randomness: the library's random
    numbers are drawn outside the graph)."""
    return type(node.op).__module__.startswith("lazygraph.tensor.") and not node.op.destroy_map


def loop_invariants(
    graph: InnerGraph, invariant_inputs: Sequence[Variable], always_runs: bool
) -> list[Variable]:
    """The variables of ``graph`` that a rewrite computes outside the loop: the
    outputs of nodes computed from ``invariant_inputs`` (and constants) alone
    that a node which stays, or an output of the graph, reads; in graph order.

    A node moves when it reads at least one invariant input or moved node (a
    node of constants alone stays: constant folding computes it once) and it
    :func:`never_raises`, or, when the loop runs the graph at least once
    (``always_runs``), it is any pure op of lazygraph's tensor library, loops
    included. A loop of 0 steps thus raises nothing it would not have raised.

    >>> import lazygraph.tensor as lt
    >>> p, c = lt.dvector("p"), lt.dscalar("c")
    >>> body = InnerGraph([c, p], [c * lt.sum(lt.exp(p))])
    >>> loop_invariants(body, body.inputs[1:], always_runs=False)
    [Reduce{sum, axis=(0,), dtype=float64}.out]
    """
    invariant = set(invariant_inputs)
    moved: set[Apply] = set()
    for node in graph.nodes:
        reads = node.inputs
        if not any(v in invariant for v in reads):
            continue
        if not all(v in invariant or isinstance(v, Constant) for v in reads):
            continue
        if never_raises(node) or (always_runs and _pure(node)):
            moved.add(node)
            invariant.update(node.outputs)
    frontier: dict[Variable, None] = {}
    for node in graph.nodes:
        if node not in moved:
            frontier.update((v, None) for v in node.inputs if v.owner in moved)
    frontier.update((v, None) for v in graph.outputs if v.owner in moved)
    return list(frontier)


def _outer_values(
    frontier: Sequence[Variable], outer_of: Mapping[Variable, Variable]
) -> list[Variable]:
    """The nodes computing ``frontier`` copied onto the outer variables that
    ``outer_of`` gives for the inner inputs they read."""
    memo: dict[Any, Any] = dict(outer_of)
    equiv = clone_get_equiv(list(outer_of), list(frontier), copy_inputs=False, memo=memo)
    return [equiv[v] for v in frontier]  # type: ignore[misc]


def _same_typed(inner: Sequence[Variable], outer: Sequence[Variable]) -> dict[Variable, Variable]:
    """The inner inputs paired with their outer values, where the types agree
    (an outer value with fewer static sizes stays an input)."""
    return {i: o for i, o in zip(inner, outer, strict=True) if i.type == o.type}


@node_rewriter([Scan])
def scan_hoist_invariants(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """``Scan(..., params)`` with body nodes that read only ``params`` ->
    ``Scan'(..., params, f(params))`` whose body reads ``f(params)`` as new
    non-sequences (:func:`loop_invariants`): computed once, not once per step."""
    if fgraph is None or _has_twin(fgraph, node):
        return None
    op: Scan = node.op  # type: ignore[assignment]
    start = op.n_carry + op.n_seq
    outer_of = _same_typed(op.inner.inputs[start:], node.inputs[1 + start :])
    steps = _static_steps(node)
    frontier = loop_invariants(op.inner, list(outer_of), steps is not None and steps > 0)
    if not frontier:
        return None
    inner = InnerGraph(op.inner.inputs + frontier, op.inner.outputs)
    new = Scan(inner, op.n_carry, op.n_seq, op.reverse)
    return list(new.make_node(*node.inputs, *_outer_values(frontier, outer_of)).outputs)


optdb["canonicalize"].register(  # type: ignore[call-arg]
    scan_hoist_invariants.name, scan_hoist_invariants, "fast_run", "fast_compile"
)


@node_rewriter([While])
def while_hoist_invariants(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """``While(init, params)`` with ``cond`` or ``body`` nodes that read only
    ``params`` -> ``While'(init, params, f(params), g(params))``, both graphs
    reading the new non-sequences. ``cond`` runs at least once (unless
    ``max_steps=0``), the body maybe never: only what :func:`never_raises`
    leaves the body."""
    if fgraph is None:
        return None
    op: While = node.op  # type: ignore[assignment]
    nc, params = op.n_carry, node.inputs[op.n_carry :]
    cond_outer = _same_typed(op.cond.inputs[nc:], params)
    body_outer = _same_typed(op.body.inputs[nc:], params)
    cond_moved = loop_invariants(op.cond, list(cond_outer), op.max_steps != 0)
    body_moved = loop_invariants(op.body, list(body_outer), False)
    if not cond_moved and not body_moved:
        return None
    cond_holders = [v.type() for v in cond_moved]
    body_holders = [v.type() for v in body_moved]
    cond = InnerGraph(op.cond.inputs + cond_moved + body_holders, op.cond.outputs)
    body = InnerGraph(op.body.inputs + cond_holders + body_moved, op.body.outputs)
    new = While(cond, body, nc, op.max_steps)
    extra = _outer_values(cond_moved, cond_outer) + _outer_values(body_moved, body_outer)
    return list(new.make_node(*node.inputs, *extra).outputs)


optdb["canonicalize"].register(  # type: ignore[call-arg]
    while_hoist_invariants.name, while_hoist_invariants, "fast_run", "fast_compile"
)


# -- the last row of a per-step output -----------------------------------------------


def _row_index(node: Apply) -> int | None:
    """``k`` when the ``Subtensor`` node is ``x[k]`` (or ``x[k, :, ...]``) with a
    constant ``k``, else None."""
    first, *rest = node.op.idx_list  # type: ignore[attr-defined]
    if not all(e is Ellipsis or (isinstance(e, Slice) and e.is_full()) for e in rest):
        return None
    if first is INPUT:
        (k,) = node.inputs[1:]
        return int(k.data) if isinstance(k, Constant) else None  # type: ignore[attr-defined]
    if isinstance(first, int) and not isinstance(first, bool) and len(node.inputs) == 1:
        return first
    return None


@node_rewriter([Scan])
def scan_keep_last_y(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """``Scan(...).ys[-1] -> Scan'(..., zeros).last`` where nothing else reads
    ``ys``: the per-step output becomes a carry (starting as zeros of the row's
    type, set to ``y`` at each step), so its rows are never stacked.

    The row is the one the last step computes: ``ys[-1]`` (or ``ys[n - 1]``)
    of a forward scan, ``ys[0]`` (or ``ys[-n]``) of a reverse one. Only a scan
    whose number of steps ``n`` is known at build time and at least 1, and
    whose rows have static sizes, is rewritten: a 0-step scan keeps ``ys[-1]``
    on its empty stack, which raises ``IndexError`` as numpy does."""
    if fgraph is None or _has_twin(fgraph, node):
        return None
    op: Scan = node.op  # type: ignore[assignment]
    nc, inner = op.n_carry, op.inner
    steps = _static_steps(node)
    if steps is None or steps < 1:  # (a static 0: ys[-1] raised IndexError as it was built)
        return None
    last = 0 if op.reverse else steps - 1
    picked: dict[int, Apply] = {}
    for k in range(op.n_ys):
        clients = fgraph.clients.get(node.outputs[nc + k], [])
        y = inner.outputs[nc + k]
        if len(clients) != 1 or y.owner is None or y in inner.inputs:
            continue
        client = clients[0][0]
        if client == "output" or not isinstance(client.op, Subtensor):  # type: ignore[union-attr]
            continue
        row = _row_index(client)  # type: ignore[arg-type]
        if row is None or not -steps <= row < steps or row % steps != last:
            continue
        if None in y.type.shape or client.outputs[0].type != y.type:  # type: ignore[union-attr, attr-defined]
            continue
        picked[k] = client  # type: ignore[assignment]
    if not picked:
        return None
    import lazygraph.tensor as lt

    kept = [k for k in range(op.n_ys) if k not in picked]
    ys = [inner.outputs[nc + k] for k in picked]
    holders = [y.type() for y in ys]
    graph = InnerGraph(
        inner.inputs[:nc] + holders + inner.inputs[nc:],
        inner.outputs[:nc] + ys + [inner.outputs[nc + k] for k in kept],
    )
    new = Scan(graph, nc + len(picked), op.n_seq, op.reverse)
    zeros = [lt.zeros(y.type.shape, y.type.dtype) for y in ys]  # type: ignore[attr-defined]
    length, init, rest = node.inputs[0], node.inputs[1 : 1 + nc], node.inputs[1 + nc :]
    outs = new.make_node(length, *init, *zeros, *rest).outputs
    replace = {node.outputs[i]: outs[i] for i in range(nc)}
    for m, client in enumerate(picked.values()):
        replace[client.outputs[0]] = outs[nc + m]
    for m, k in enumerate(kept):
        replace[node.outputs[nc + k]] = outs[nc + len(picked) + m]
    return replace


optdb["canonicalize"].register(  # type: ignore[call-arg]
    scan_keep_last_y.name, scan_keep_last_y, "fast_run", "fast_compile"
)

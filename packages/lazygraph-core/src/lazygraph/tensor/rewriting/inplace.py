"""Rewrites of the ``inplace`` stage: write results into a dead input's buffer.

They run after ``add_destroy_handler``: each candidate change is applied with
``replace_all_validate``, and the :class:`~lazygraph.graph.destroyhandler.DestroyHandler`
rejects it (the change is reverted) unless it can order the destroyer after
every other reader of the buffer, the buffer is not a graph output, a constant,
or a graph input that was not donated.

- ``inplace_elemwise`` [fast_run, inplace]: an ``Elemwise`` output overwrites
  one of its inputs (``inplace_pattern``), when the input has the output's dtype
  and provably its run-time shape (no broadcasting into it);
- ``inplace_setsubtensor`` [fast_run, inplace]: ``set_subtensor`` /
  ``inc_subtensor`` (basic and advanced) update ``x`` in place (``inplace=True``).

Only buffers made by ops known to return fresh, writable arrays are
overwritten (see :data:`FRESH_BUFFER_OPS`), so read-only views of constants
and of the caller's arrays are never touched. Excluding the ``inplace`` tag
leaves a graph with no ``destroy_map``.

>>> import lazygraph.tensor as lt
>>> from lazygraph.graph.fg import FunctionGraph
>>> x = lt.tensor("float64", (3,), name="x")
>>> fg = FunctionGraph([x], [lt.exp(lt.sin(x))])
>>> InplaceElemwiseOptimizer().rewrite(fg)
>>> print(fg.outputs[0].owner.op)
Elemwise{exp, inplace 0<-0}
"""

from __future__ import annotations

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.graph.fg import FunctionGraph, InconsistencyError
from lazygraph.rewriting.basic import (
    GraphRewriter,
    attach_destroy_handler,
    ensure_replace_validate,
    gc_paused,
)
from lazygraph.rewriting.db import optdb
from lazygraph.rewriting.trace import report_rewrite
from lazygraph.tensor.advanced_subtensor import AdvancedIncSubtensor
from lazygraph.tensor.blas import MatMul
from lazygraph.tensor.broadcast import Alloc
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.fused import FusedReduce
from lazygraph.tensor.reduction import Reduce
from lazygraph.tensor.subtensor import IncSubtensor

__all__ = ["FRESH_BUFFER_OPS", "InplaceElemwiseOptimizer", "InplaceSetSubtensorOptimizer"]

#: Ops whose ``perform`` returns a new writable array (not a view, not read-only):
#: the only buffers the inplace rewrites overwrite (besides donated inputs).
FRESH_BUFFER_OPS: tuple[type[Op], ...] = (
    Elemwise,
    Reduce,
    FusedReduce,
    MatMul,
    Alloc,
    IncSubtensor,
    AdvancedIncSubtensor,
)


def _writable_buffer(fgraph: FunctionGraph, var: Variable) -> bool:
    """Whether ``var`` lives in a buffer an inplace op may overwrite at run time."""
    handler = getattr(fgraph, "destroy_handler", None)
    if handler is None:
        return False
    root = handler.root(var)
    if root.owner is None:
        return root in handler.donated
    return isinstance(root.owner.op, FRESH_BUFFER_OPS)


def _same_runtime_shape(node: Apply, i: int) -> bool:
    """Whether input ``i`` of an Elemwise node surely has the output's run-time shape:
    equal static shapes, and where a size is unknown, no other input can be larger."""
    out_shape = node.outputs[0].type.shape  # type: ignore[attr-defined]
    x = node.inputs[i]
    if x.type.shape != out_shape:  # type: ignore[attr-defined]
        return False
    ndim = len(out_shape)
    for k, size in enumerate(out_shape):
        if size is not None:
            continue
        for j, other in enumerate(node.inputs):
            if j == i:
                continue
            shape = other.type.shape  # type: ignore[attr-defined]
            pad = ndim - len(shape)
            if k >= pad and shape[k - pad] != 1:
                return False
    return True


def _readers_all_before(
    fgraph: FunctionGraph, var: Variable, node: Apply, i: int, index: dict[Apply, int]
) -> bool:
    """Whether ``node`` may overwrite ``var`` (its input ``i``) with every other
    reader of that buffer (of its root and of every view of it) running before
    ``node`` in the current order, no graph output living in it, no other
    destroyer, and ``node`` reading it through no other input.

    This is what the DestroyHandler would accept without a new ordering cycle;
    checking it first spares a replace-validate-revert per refused candidate."""
    handler = fgraph.destroy_handler  # type: ignore[attr-defined]
    position = index[node]
    root = handler.root(var)
    if handler.destroyers(root):
        return False
    clients = fgraph.clients
    seen = {root}
    work = [root]
    while work:
        v = work.pop()
        for client, j in clients.get(v, ()):
            if client == "output":
                return False
            if client is node:
                if not (v is var and j == i):
                    return False
                continue
            if index.get(client, position) >= position:
                return False
            op = client.op
            for o, ins in op.view_map.items():
                if j in ins and client.outputs[o] not in seen:
                    seen.add(client.outputs[o])
                    work.append(client.outputs[o])
    return True


class _InplaceBase(GraphRewriter):
    def add_requirements(self, fgraph: FunctionGraph) -> None:
        ensure_replace_validate(fgraph)
        if not hasattr(fgraph, "destroy_handler"):
            attach_destroy_handler(fgraph)

    def _try(self, fgraph: FunctionGraph, node: Apply, new_node: Apply) -> bool:
        """Replace ``node`` by ``new_node``; ``False`` (graph unchanged) when the
        DestroyHandler refuses."""
        pairs = list(zip(node.outputs, new_node.outputs, strict=True))
        try:
            fgraph.replace_all_validate(pairs, reason=self.name)  # type: ignore[attr-defined]
        except InconsistencyError:
            return False
        report_rewrite(self, node, new_node.outputs)
        return True

    def _order(self, fgraph: FunctionGraph) -> dict[Apply, int]:
        return {node: k for k, node in enumerate(fgraph.toposort())}


class InplaceElemwiseOptimizer(_InplaceBase):
    """Give ``Elemwise`` nodes an ``inplace_pattern`` where the DestroyHandler allows.

    Each output takes the first input it may overwrite: same dtype, surely the
    same run-time shape, a fresh buffer (or a donated input) whose other readers
    all run earlier.

    >>> InplaceElemwiseOptimizer().name
    'InplaceElemwiseOptimizer'
    """

    def apply(self, fgraph: FunctionGraph) -> int:
        changed = 0
        with gc_paused():
            index = self._order(fgraph)
            for node in list(index):
                op = node.op
                if not isinstance(op, Elemwise) or op.inplace_pattern:
                    continue
                if node not in fgraph.apply_nodes:
                    continue
                if self._apply_node(fgraph, node, op, index):
                    changed += 1
        return changed

    def _apply_node(
        self, fgraph: FunctionGraph, node: Apply, op: Elemwise, index: dict[Apply, int]
    ) -> bool:
        # The candidates are independent (two inputs in one buffer both fail
        # `_readers_all_before`, as the node reads that buffer twice), so the whole
        # pattern is tried in one replacement: a node with k outputs would
        # otherwise be replaced, and all its readers rewired, k times.
        pattern = self._pattern(fgraph, node, index)
        if not pattern:
            return False
        if self._try_pattern(fgraph, node, op, pattern, index):
            return True
        # Refused as a whole (the checks above are not the DestroyHandler's last
        # word): grow the pattern one output at a time, keeping what is accepted.
        accepted: list[tuple[int, int]] = []
        for pair in pattern:
            new_node = self._try_pattern(fgraph, node, op, [*accepted, pair], index)
            if new_node:
                accepted.append(pair)
                node = new_node
        return bool(accepted)

    def _pattern(
        self, fgraph: FunctionGraph, node: Apply, index: dict[Apply, int]
    ) -> list[tuple[int, int]]:
        """For each output, the first input it may overwrite (each input once)."""
        pattern: list[tuple[int, int]] = []
        used: set[int] = set()
        for o, out in enumerate(node.outputs):
            for i, x in enumerate(node.inputs):
                if i in used:
                    continue
                if x.type.dtype != out.type.dtype:  # type: ignore[attr-defined]
                    continue
                if not _same_runtime_shape(node, i) or not _writable_buffer(fgraph, x):
                    continue
                if not _readers_all_before(fgraph, x, node, i, index):
                    continue
                pattern.append((o, i))
                used.add(i)
                break
        return pattern

    def _try_pattern(
        self,
        fgraph: FunctionGraph,
        node: Apply,
        op: Elemwise,
        pattern: list[tuple[int, int]],
        index: dict[Apply, int],
    ) -> Apply | None:
        """Replace ``node`` by its inplace version; the new node, or ``None`` if refused."""
        new_op = Elemwise(op.scalar_op, pattern)
        # same inputs, same output types: no need for make_node's checks
        new_node = Apply(new_op, list(node.inputs), [v.type() for v in node.outputs])
        if not self._try(fgraph, node, new_node):
            return None
        index[new_node] = index[node]
        return new_node


class InplaceSetSubtensorOptimizer(_InplaceBase):
    """Make ``set_subtensor`` / ``inc_subtensor`` nodes update their ``x`` in place.

    >>> InplaceSetSubtensorOptimizer().name
    'InplaceSetSubtensorOptimizer'
    """

    def apply(self, fgraph: FunctionGraph) -> int:
        changed = 0
        with gc_paused():
            index = self._order(fgraph)
            for node in list(index):
                op = node.op
                if not isinstance(op, IncSubtensor | AdvancedIncSubtensor) or op.inplace:
                    continue
                x = node.inputs[0]
                if not _writable_buffer(fgraph, x):
                    continue
                if not _readers_all_before(fgraph, x, node, 0, index):
                    continue
                new_op = type(op)(op.idx_list, op.set_instead_of_inc, op.accumulate, inplace=True)
                new_node = new_op.make_node(*node.inputs)
                if self._try(fgraph, node, new_node):
                    index[new_node] = index[node]
                    changed += 1
        return changed


def _register() -> None:
    # the inplace stage's steps, each in its place in lazygraph.rewriting.db.PIPELINE
    # ("inplace.inplace_elemwise", then "inplace.inplace_setsubtensor")
    db = optdb["inplace"]
    db.register("inplace_elemwise", InplaceElemwiseOptimizer(), "fast_run", "inplace")  # type: ignore[call-arg]
    db.register("inplace_setsubtensor", InplaceSetSubtensorOptimizer(), "fast_run", "inplace")  # type: ignore[call-arg]


_register()

"""Merge: one node per distinct computation, one constant per distinct value.

Two Apply nodes with equal ops and the very same inputs compute the same
thing; :class:`MergeOptimizer` keeps the first and points the readers of the
other at it (hash-consing). Constants with equal :meth:`Constant.signature`
are merged the same way. Nodes are visited in topological order, so by the
time a node is looked at its inputs are already canonical: merges that
cascade upwards (``add(x, y)`` twice, so ``mul(add(x, y), z)`` twice, ...)
complete in a single pass.

>>> from lazygraph.graph.basic import Apply, Op, Type
>>> from lazygraph.graph.fg import FunctionGraph
>>> class Add(Op):
...     def make_node(self, a, b):
...         return Apply(self, [a, b], [a.type()])
...     def __str__(self):
...         return "add"
>>> x, y = Type()("x"), Type()("y")
>>> add = Add()
>>> fg = FunctionGraph([x, y], [add(add(x, y), add(x, y))], clone=False)
>>> len(fg.apply_nodes)
3
>>> merge_optimizer.rewrite(fg)
>>> len(fg.apply_nodes), str(fg)
(2, 'FunctionGraph(add(*1 -> add(x, y), *1))')
"""

from __future__ import annotations

from typing import Any

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.graph.fg import FunctionGraph, InconsistencyError
from lazygraph.rewriting.basic import (
    GraphRewriter,
    _needs_validation,
    ensure_replace_validate,
    gc_paused,
)
from lazygraph.rewriting.trace import is_tracing, report_rewrite

__all__ = ["MergeOptimizer", "merge_optimizer"]


class MergeOptimizer(GraphRewriter):
    """Merge identical Apply nodes and equal constants, in one pass.

    Each node is keyed by ``(op, input, input, ...)`` (the op by equality, the
    inputs by identity) in a dictionary, so the pass is linear in the size of
    the graph. It attaches no feature; when a feature that can veto changes is
    attached (a ``DestroyHandler``), each merge is validated and a rejected
    one skipped.

    >>> MergeOptimizer().name
    'MergeOptimizer'
    """

    def apply(self, fgraph: FunctionGraph) -> int:
        """Merge ``fgraph`` in place; return the number of nodes and constants merged."""
        with gc_paused():
            return self._merge(fgraph)

    def _merge(self, fgraph: FunctionGraph) -> int:
        validate = _needs_validation(fgraph)
        if validate:
            ensure_replace_validate(fgraph)
        tracing = is_tracing()
        apply_nodes = fgraph.apply_nodes
        clients = fgraph.clients

        # Phase 1, no change to the graph: in topological order, key each node by
        # its op and the canonical versions of its inputs. ``canon`` maps each
        # duplicate variable (outputs of duplicate nodes, equal constants) to the
        # variable that stays, so duplicates of duplicates are found in this pass.
        canonical_ops: dict[Op, Op] = {}
        op_ids: dict[int, int] = {}
        op_refs: list[Op] = []  # keeps every op keyed in op_ids alive, so ids stay unique
        canon: dict[Variable, Variable] = {}
        duplicate_constants: list[Variable] = []
        by_signature: dict[Any, Constant] = {}
        for var in fgraph.variables:
            if var.owner is None and isinstance(var, Constant):
                c = self._canonical_constant(var, by_signature)
                if c is not var:
                    canon[var] = c
                    duplicate_constants.append(var)
        canon_get = canon.get
        seen: dict[tuple[Any, ...], Apply] = {}
        duplicates: list[tuple[Apply, Apply]] = []  # (duplicate, node that stays)

        for node in fgraph.toposort():
            op = node.op
            op_id = op_ids.get(id(op))
            if op_id is None:
                op_id = id(canonical_ops.setdefault(op, op))
                op_ids[id(op)] = op_id
                op_refs.append(op)
            key = (op_id, *[canon_get(i, i) for i in node.inputs])
            other = seen.get(key)
            if other is None:
                seen[key] = node
                continue
            outs, other_outs = node.outputs, other.outputs
            if len(outs) != len(other_outs):
                continue
            for a, b in zip(outs, other_outs, strict=True):
                if a.type is not b.type and a.type != b.type:
                    break
            else:
                for a, b in zip(outs, other_outs, strict=True):
                    canon[a] = b
                duplicates.append((node, other))

        # Phase 2: replace the outermost duplicates first (reverse topological
        # order). A duplicate read only by other duplicates is then pruned along
        # with them instead of being rewired, which halves the graph surgery.
        for node, other in reversed(duplicates):
            if node not in apply_nodes:
                continue
            pairs = [
                (a, b) for a, b in zip(node.outputs, other.outputs, strict=True) if a in clients
            ]
            self._replace(fgraph, pairs, validate, tracing, node)
        merged = sum(1 for node, _ in duplicates if node not in apply_nodes)
        for const in duplicate_constants:
            if const in clients and self._replace(
                fgraph, [(const, canon[const])], validate, tracing, const
            ):
                merged += 1
        return merged

    @staticmethod
    def _canonical_constant(const: Constant, by_signature: dict[Any, Constant]) -> Constant:
        try:
            signature = const.signature()
            return by_signature.setdefault(signature, const)
        except (TypeError, ValueError):  # unhashable or ambiguous data: leave it alone
            return const

    def _replace(
        self,
        fgraph: FunctionGraph,
        pairs: list[tuple[Variable, Variable]],
        validate: bool,
        tracing: bool,
        what: Any,
    ) -> bool:
        if validate:
            try:
                fgraph.replace_all_validate(pairs, reason="merge")  # type: ignore[attr-defined]
            except InconsistencyError:
                return False
        else:
            for old, new in pairs:
                if old in fgraph.clients:
                    fgraph.replace(old, new, reason="merge")
        if tracing:
            report_rewrite(self, what, [new for _, new in pairs])
        return True


#: The shared instance (Theano's ``merge_optimizer``).
merge_optimizer = MergeOptimizer()

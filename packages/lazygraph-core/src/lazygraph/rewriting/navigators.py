"""Navigators: graph rewriters that walk the graph and apply node rewriters.

- :class:`WalkingGraphRewriter` visits every node once, inputs to outputs or
  outputs to inputs (Theano's ``TopoOptimizer``), plus nodes the walk creates;
- :class:`OpKeyGraphRewriter` visits only the nodes of one op (via ``NodeFinder``);
- :class:`EquilibriumGraphRewriter` applies node rewriters until none applies
  any more, revisiting only the nodes the last changes touched, with a guard
  that stops (and warns) when rewrites keep undoing each other.

>>> from lazygraph.graph.basic import Apply, Op, Type
>>> from lazygraph.graph.fg import FunctionGraph
>>> from lazygraph.rewriting.basic import node_rewriter
>>> class Neg(Op):
...     def make_node(self, x):
...         return Apply(self, [x], [x.type()])
>>> neg = Neg()
>>> @node_rewriter([Neg])
... def neg_neg(fgraph, node):
...     \"\"\"neg(neg(x)) -> x\"\"\"
...     inner = node.inputs[0].owner
...     return [inner.inputs[0]] if inner is not None and inner.op == neg else None
>>> x = Type()("x")
>>> fg = FunctionGraph([x], [neg(neg(neg(neg(x))))], clone=False)
>>> EquilibriumGraphRewriter([neg_neg]).rewrite(fg)
>>> fg.outputs[0] is x
True
"""

from __future__ import annotations

import sys
import warnings
from collections import deque
from collections.abc import Iterable, Sequence
from typing import IO, Any

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.graph.features import Feature, NodeFinder
from lazygraph.graph.fg import FunctionGraph
from lazygraph.graph.traversal import io_toposort
from lazygraph.rewriting.basic import (
    GraphRewriter,
    NodeRewriter,
    SequentialNodeRewriter,
    TrackMatcher,
    apply_node_rewriter,
    ensure_replace_validate,
    gc_paused,
)
from lazygraph.rewriting.trace import RewriteWarning, rewrite_failed

__all__ = [
    "EquilibriumGraphRewriter",
    "OpKeyGraphRewriter",
    "WalkingGraphRewriter",
    "in2out",
    "out2in",
]


class _Updater(Feature):
    """Collects the nodes that joined the graph (``imported``), and with
    ``track_changes`` the nodes whose inputs changed (``changed``) and the nodes
    that left (``pruned``), since the last :meth:`take`.

    A navigator takes them after a rewrite that succeeded and drops them after
    one that was vetoed and reverted: the revert re-imports the old nodes, and
    queueing those again would retry the same rejected rewrite forever.
    """

    def __init__(self, track_changes: bool = False) -> None:
        self.imported: list[Apply] = []
        self.changed: list[Apply] = []
        self.pruned: list[Apply] = []
        self.track_changes = track_changes

    def on_import(self, fgraph: FunctionGraph, node: Apply, reason: str | None) -> None:
        self.imported.append(node)

    def on_change_input(
        self,
        fgraph: FunctionGraph,
        node: Any,
        i: int,
        old_var: Variable,
        new_var: Variable,
        reason: str | None,
    ) -> None:
        if self.track_changes and node != "output":
            self.changed.append(node)

    def on_prune(self, fgraph: FunctionGraph, node: Apply, reason: str | None) -> None:
        if self.track_changes:
            self.pruned.append(node)

    def take(self) -> tuple[list[Apply], list[Apply], list[Apply]]:
        taken = self.imported, self.changed, self.pruned
        self.imported, self.changed, self.pruned = [], [], []
        return taken

    def drop(self) -> None:
        if self.imported or self.changed or self.pruned:
            self.imported, self.changed, self.pruned = [], [], []


class WalkingGraphRewriter(GraphRewriter):
    """Apply a node rewriter to every node, in topological order (``"in_to_out"``)
    or reversed (``"out_to_in"``). Nodes created on the way are visited too,
    unless ``ignore_newtrees``; a walk whose new nodes keep matching stops with
    a warning after ``max_use_ratio`` times as many rewrites as the graph has
    nodes. Theano's ``TopoOptimizer``.

    >>> WalkingGraphRewriter(SequentialNodeRewriter(), order="out_to_in").order
    'out_to_in'
    """

    def __init__(
        self,
        node_rewriter: NodeRewriter,
        order: str = "in_to_out",
        ignore_newtrees: bool = False,
        name: str | None = None,
        max_use_ratio: float = 8.0,
    ) -> None:
        if order not in ("in_to_out", "out_to_in"):
            raise ValueError(f"order must be 'in_to_out' or 'out_to_in', got {order!r}")
        self.node_rewriter = node_rewriter
        self.order = order
        self.ignore_newtrees = ignore_newtrees
        self.max_use_ratio = max_use_ratio
        self.name = name

    def add_requirements(self, fgraph: FunctionGraph) -> None:
        ensure_replace_validate(fgraph)
        self.node_rewriter.add_requirements(fgraph)

    def apply(self, fgraph: FunctionGraph, start_from: Sequence[Variable] | None = None) -> int:
        """Walk the graph once; return how many rewrites fired."""
        if start_from is not None:
            nodes = io_toposort(fgraph.inputs, start_from)
        else:
            nodes = fgraph.toposort()
        queue: deque[Apply] = deque(nodes)
        updater = _Updater()
        fgraph.attach_feature(updater)
        pop = queue.pop if self.order == "out_to_in" else queue.popleft
        # A sequence's members are applied one by one, so that each one's failures
        # and trace records carry its own name.
        rewriter = self.node_rewriter
        members = rewriter.rewriters if isinstance(rewriter, SequentialNodeRewriter) else [rewriter]
        matcher = TrackMatcher(members)
        apply_nodes = fgraph.apply_nodes
        max_changes = max(16, int(self.max_use_ratio * len(apply_nodes)))
        changes = 0
        try:
            while queue:
                node = pop()
                if node not in apply_nodes:
                    continue
                for member in matcher.for_op(node.op):
                    if apply_node_rewriter(fgraph, member, node):
                        changes += 1
                        if not self.ignore_newtrees:
                            queue.extend(updater.take()[0])
                        if node not in apply_nodes:
                            break
                    updater.drop()
                if changes >= max_changes:
                    warnings.warn(
                        f"{self.name} stopped after {changes} rewrites: the nodes its "
                        "rewrites create keep matching",
                        RewriteWarning,
                        stacklevel=3,
                    )
                    break
        finally:
            fgraph.remove_feature(updater)
        return changes

    def print_summary(self, stream: IO[str] | None = None, level: int = 0) -> None:
        print(
            f"{'    ' * level}{self.name} ({type(self).__name__}, {self.order})",
            file=stream or sys.stdout,
        )
        self.node_rewriter.print_summary(stream, level + 1)


def _as_node_rewriter(rewriters: Sequence[NodeRewriter]) -> NodeRewriter:
    if len(rewriters) == 1:
        return rewriters[0]
    return SequentialNodeRewriter(*rewriters)


def in2out(*rewriters: NodeRewriter, **kwargs: Any) -> WalkingGraphRewriter:
    """A :class:`WalkingGraphRewriter` from inputs to outputs over ``rewriters``.

    >>> in2out(SequentialNodeRewriter()).order
    'in_to_out'
    """
    return WalkingGraphRewriter(_as_node_rewriter(rewriters), order="in_to_out", **kwargs)


def out2in(*rewriters: NodeRewriter, **kwargs: Any) -> WalkingGraphRewriter:
    """A :class:`WalkingGraphRewriter` from outputs to inputs over ``rewriters``.

    >>> out2in(SequentialNodeRewriter()).order
    'out_to_in'
    """
    return WalkingGraphRewriter(_as_node_rewriter(rewriters), order="out_to_in", **kwargs)


class OpKeyGraphRewriter(GraphRewriter):
    """Apply a node rewriter to the nodes of the ops it tracks, found with a
    ``NodeFinder`` instead of a walk over the whole graph.

    The ops come from the rewriter's ``op_key()`` if it has one, else from
    ``tracks()``.

    >>> from lazygraph.graph.basic import Op
    >>> class Neg(Op): pass
    >>> class NegRewriter(NodeRewriter):
    ...     def op_key(self):
    ...         return Neg()
    >>> OpKeyGraphRewriter(NegRewriter()).ops()
    [Neg]
    """

    def __init__(self, node_rewriter: NodeRewriter, name: str | None = None) -> None:
        self.node_rewriter = node_rewriter
        self.name = name

    def ops(self) -> list[Op | type]:
        key = getattr(self.node_rewriter, "op_key", None)
        ops = key() if key is not None else self.node_rewriter.tracks()
        if ops is None:
            raise TypeError(f"{self.node_rewriter} has neither op_key() nor tracks()")
        return list(ops) if isinstance(ops, list | tuple) else [ops]

    def add_requirements(self, fgraph: FunctionGraph) -> None:
        ensure_replace_validate(fgraph)
        fgraph.attach_feature(NodeFinder())
        self.node_rewriter.add_requirements(fgraph)

    def apply(self, fgraph: FunctionGraph) -> int:
        ops = self.ops()
        queue: deque[Apply] = deque()
        for op in ops:
            queue.extend(fgraph.get_nodes(op))  # type: ignore[attr-defined]
        matcher = TrackMatcher([_OpsTracker(ops)])

        updater = _Updater()
        fgraph.attach_feature(updater)
        changes = 0
        try:
            while queue:
                node = queue.popleft()
                if node not in fgraph.apply_nodes:
                    continue
                if apply_node_rewriter(fgraph, self.node_rewriter, node):
                    changes += 1
                    queue.extend(n for n in updater.take()[0] if matcher.for_op(n.op))
                updater.drop()
        finally:
            fgraph.remove_feature(updater)
        return changes


class _OpsTracker(NodeRewriter):
    def __init__(self, ops: list[Op | type]) -> None:
        self._ops = ops

    def tracks(self) -> list[Op | type]:
        return self._ops


class EquilibriumGraphRewriter(GraphRewriter):
    """Apply node rewriters (and optional graph rewriters) until none changes the graph.

    The first sweep visits every node in topological order. After that only
    the nodes that the changes touched are revisited: nodes imported by a
    replacement, nodes whose inputs changed and the readers of their outputs,
    and the readers of the inputs of pruned nodes (they now have fewer
    readers). That finds every new match of rewriters that look at most two
    levels deep (a node and its inputs' owners). When the work list runs dry,
    the ``global_rewriters`` and then the ``final_rewriters`` run, and the loop
    goes on while they change something. With ``final_sweep`` one more sweep
    over every node confirms the fixpoint, for rewriters that look deeper; it
    doubles the cost, so it is off by default.

    Guard: a rewriter used more than ``max_use_ratio`` times the initial node
    count (at least 16 times), or more than ``max_rounds`` rounds, stops the
    rewriter with a :class:`~lazygraph.rewriting.trace.RewriteWarning`; the graph
    is left correct, only less rewritten.

    >>> EquilibriumGraphRewriter([]).max_use_ratio
    8.0
    """

    def __init__(
        self,
        rewriters: Iterable[NodeRewriter | GraphRewriter],
        max_use_ratio: float = 8.0,
        global_rewriters: Iterable[GraphRewriter] = (),
        final_rewriters: Iterable[GraphRewriter] = (),
        max_rounds: int = 100,
        final_sweep: bool = False,
        name: str | None = None,
    ) -> None:
        self.node_rewriters: list[NodeRewriter] = []
        self.global_rewriters: list[GraphRewriter] = list(global_rewriters)
        for rewriter in rewriters:
            if isinstance(rewriter, NodeRewriter):
                self.node_rewriters.append(rewriter)
            elif isinstance(rewriter, GraphRewriter):
                self.global_rewriters.append(rewriter)
            else:
                raise TypeError(f"{rewriter!r} is neither a NodeRewriter nor a GraphRewriter")
        self.final_rewriters = list(final_rewriters)
        self.max_use_ratio = float(max_use_ratio)
        self.max_rounds = max_rounds
        self.final_sweep = final_sweep
        self.name = name
        #: Counters from the last :meth:`apply`: rewrites per rewriter name,
        #: ``rounds``, ``nodes_visited``, ``stopped`` (whether the guard fired).
        self.last_stats: dict[str, Any] = {}

    def add_requirements(self, fgraph: FunctionGraph) -> None:
        ensure_replace_validate(fgraph)
        for rewriter in self.node_rewriters:
            rewriter.add_requirements(fgraph)
        for rewriter in self.global_rewriters + self.final_rewriters:
            rewriter.add_requirements(fgraph)

    def apply(self, fgraph: FunctionGraph) -> int:
        """Rewrite to a fixpoint; return how many rewrites fired."""
        with gc_paused():
            return self._apply(fgraph)

    def _apply(self, fgraph: FunctionGraph) -> int:
        if not (self.node_rewriters or self.global_rewriters or self.final_rewriters):
            self.last_stats = {"applied": {}, "rounds": 0, "nodes_visited": 0, "stopped": False}
            return 0
        max_use = max(16, int(self.max_use_ratio * len(fgraph.apply_nodes)))
        uses: dict[int, int] = {}
        applied: dict[str, int] = {}
        matcher = TrackMatcher(self.node_rewriters)
        apply_nodes = fgraph.apply_nodes
        clients = fgraph.clients

        queue: deque[Apply] = deque()
        queued: set[Apply] = set()

        def push(node: Apply) -> None:
            if node not in queued:
                queued.add(node)
                queue.append(node)

        def push_readers(var: Variable) -> None:
            readers = clients.get(var, ())
            if len(readers) <= 32:  # past that, leave it to the final sweep, if any
                for reader, _ in readers:
                    if reader != "output":
                        push(reader)  # type: ignore[arg-type]

        def take_touched() -> None:
            imported, changed, pruned = updater.take()
            for node in imported:
                push(node)
            for node in changed:
                push(node)
                # A two-level pattern rooted at a reader of the changed node may match now.
                for out in node.outputs:
                    push_readers(out)
            for node in pruned:
                # The inputs lost a reader: patterns that want their inner nodes
                # read only once may match at the readers left.
                for inp in node.inputs:
                    push_readers(inp)

        updater = _Updater(track_changes=True)
        fgraph.attach_feature(updater)
        total = 0
        visited = 0
        rounds = 0
        stopped = False
        changes_since_sweep = 0
        try:
            for node in fgraph.toposort():
                push(node)
            while not stopped:
                rounds += 1
                if rounds > self.max_rounds:
                    self._warn_stop(f"it did not settle after {self.max_rounds} rounds")
                    stopped = True
                    break
                while queue and not stopped:
                    node = queue.popleft()
                    queued.discard(node)
                    if node not in apply_nodes:
                        continue
                    visited += 1
                    for rewriter in matcher.for_op(node.op):
                        key = id(rewriter)
                        if uses.get(key, 0) >= max_use:
                            self._warn_stop(
                                f"{rewriter.name} was applied {max_use} times; rewrites may be "
                                "undoing each other"
                            )
                            stopped = True
                            break
                        if not apply_node_rewriter(fgraph, rewriter, node):
                            updater.drop()
                        else:
                            take_touched()
                            uses[key] = uses.get(key, 0) + 1
                            applied[rewriter.name] = applied.get(rewriter.name, 0) + 1
                            total += 1
                            changes_since_sweep += 1
                            if node not in apply_nodes:
                                break
                if stopped:
                    break
                for rewriter in self.global_rewriters + self.final_rewriters:
                    n = self._run_graph_rewriter(fgraph, rewriter)
                    take_touched()
                    if n:
                        applied[rewriter.name] = applied.get(rewriter.name, 0) + n
                        total += n
                        changes_since_sweep += n
                if queue:
                    continue
                if changes_since_sweep == 0 or not self.final_sweep:
                    break
                changes_since_sweep = 0
                for node in fgraph.toposort():
                    push(node)
        finally:
            fgraph.remove_feature(updater)
        self.last_stats = {
            "applied": applied,
            "rounds": rounds,
            "nodes_visited": visited,
            "stopped": stopped,
        }
        return total

    def _run_graph_rewriter(self, fgraph: FunctionGraph, rewriter: GraphRewriter) -> int:
        """Run a graph rewriter; count one change if it changed anything (or its answer)."""
        checkpoint = getattr(fgraph, "checkpoint", None)
        before = checkpoint() if checkpoint is not None else None
        try:
            result = rewriter.apply(fgraph)
        except Exception as exc:
            rewrite_failed(rewriter, exc)
            return 0
        if checkpoint is not None:
            return 1 if checkpoint() != before else 0
        return int(result) if isinstance(result, int) else 0

    def _warn_stop(self, why: str) -> None:
        warnings.warn(
            f"{self.name} stopped before reaching a fixpoint: {why}",
            RewriteWarning,
            stacklevel=4,
        )

    def print_summary(self, stream: IO[str] | None = None, level: int = 0) -> None:
        super().print_summary(stream, level)
        for rewriter in [*self.node_rewriters, *self.global_rewriters, *self.final_rewriters]:
            rewriter.print_summary(stream, level + 1)

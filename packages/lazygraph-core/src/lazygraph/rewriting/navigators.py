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
from collections.abc import Callable, Iterable, Sequence
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
    """Calls ``importer(node)`` for every node that joins the graph and, when
    given, ``changer(node)`` for every node whose input changed."""

    def __init__(
        self,
        importer: Callable[[Apply], None],
        changer: Callable[[Apply], None] | None = None,
    ) -> None:
        self.importer = importer
        self.changer = changer

    def on_import(self, fgraph: FunctionGraph, node: Apply, reason: str | None) -> None:
        self.importer(node)

    def on_change_input(
        self,
        fgraph: FunctionGraph,
        node: Any,
        i: int,
        old_var: Variable,
        new_var: Variable,
        reason: str | None,
    ) -> None:
        if self.changer is not None and node != "output":
            self.changer(node)


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
        updater = None
        if not self.ignore_newtrees:
            updater = _Updater(queue.append)
            fgraph.attach_feature(updater)
        pop = queue.pop if self.order == "out_to_in" else queue.popleft
        matcher = TrackMatcher([self.node_rewriter])
        apply_nodes = fgraph.apply_nodes
        max_changes = max(16, int(self.max_use_ratio * len(apply_nodes)))
        changes = 0
        try:
            while queue:
                node = pop()
                if node not in apply_nodes or not matcher.for_op(node.op):
                    continue
                changes += apply_node_rewriter(fgraph, self.node_rewriter, node)
                if changes >= max_changes:
                    warnings.warn(
                        f"{self.name} stopped after {changes} rewrites: the nodes its "
                        "rewrites create keep matching",
                        RewriteWarning,
                        stacklevel=3,
                    )
                    break
        finally:
            if updater is not None:
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

        def importer(node: Apply) -> None:
            if matcher.for_op(node.op):
                queue.append(node)

        updater = _Updater(importer)
        fgraph.attach_feature(updater)
        changes = 0
        try:
            while queue:
                node = queue.popleft()
                if node in fgraph.apply_nodes:
                    changes += apply_node_rewriter(fgraph, self.node_rewriter, node)
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
    replacement, nodes whose inputs changed, and the readers of those nodes'
    outputs. When that work list runs dry, the ``global_rewriters`` and then
    the ``final_rewriters`` run; if ``final_sweep`` is set, one more sweep over
    every node confirms the fixpoint (it catches patterns deeper than two
    levels), and the loop goes on while anything changes.

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
        final_sweep: bool = True,
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

        def changed(node: Apply) -> None:
            push(node)
            # Readers of the changed node: a two-level pattern rooted there may match now.
            for out in node.outputs:
                readers = clients.get(out, ())
                if len(readers) <= 32:
                    for reader, _ in readers:
                        if reader != "output":
                            push(reader)  # type: ignore[arg-type]

        updater = _Updater(push, changed)
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
                        if apply_node_rewriter(fgraph, rewriter, node):
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

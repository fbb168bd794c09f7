"""Features: objects attached to a :class:`FunctionGraph` that hear about every change.

A feature implements any of the callbacks below; the graph calls the ones it has.

- ``on_attach(fgraph)`` / ``on_detach(fgraph)``
- ``on_import(fgraph, node, reason)``: ``node`` joined the graph
- ``on_prune(fgraph, node, reason)``: ``node`` left the graph
- ``on_change_input(fgraph, node, i, old_var, new_var, reason)``
- ``on_add_output(fgraph, var, index, reason)``: ``var`` became output ``index``
- ``orderings(fgraph)`` -> ``{node: [nodes that must run before it]}``
- ``validate(fgraph)``: raise :class:`InconsistencyError` to veto the current state

>>> from lazygraph.graph.basic import Apply, Op, Type
>>> from lazygraph.graph.fg import FunctionGraph
>>> class Neg(Op):
...     def make_node(self, x):
...         return Apply(self, [x], [x.type()])
>>> x = Type()("x")
>>> fg = FunctionGraph([x], [Neg()(Neg()(x))])
>>> fg.attach_feature(ReplaceValidate())
>>> chk = fg.checkpoint()
>>> fg.replace_validate(fg.outputs[0], fg.inputs[0], reason="neg(neg(x)) -> x")
>>> fg.outputs[0] is fg.inputs[0], len(fg.apply_nodes)
(True, 0)
>>> fg.revert(chk)
>>> len(fg.apply_nodes)
2
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from typing import Any

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.graph.fg import FunctionGraph, InconsistencyError

__all__ = [
    "AlreadyThere",
    "Bookkeeper",
    "Checkpoint",
    "Feature",
    "History",
    "InconsistencyError",
    "NodeFinder",
    "ReplaceValidate",
    "Validator",
]


class AlreadyThere(Exception):
    """Raised by ``on_attach`` when an equivalent feature is already attached."""


class Feature:
    """Base class with every callback as a no-op; override the ones you need."""

    def on_attach(self, fgraph: FunctionGraph) -> None:
        pass

    def on_detach(self, fgraph: FunctionGraph) -> None:
        pass

    def on_import(self, fgraph: FunctionGraph, node: Apply, reason: str | None) -> None:
        pass

    def on_prune(self, fgraph: FunctionGraph, node: Apply, reason: str | None) -> None:
        pass

    def on_change_input(
        self,
        fgraph: FunctionGraph,
        node: Any,
        i: int,
        old_var: Variable,
        new_var: Variable,
        reason: str | None,
    ) -> None:
        pass

    def on_add_output(
        self, fgraph: FunctionGraph, var: Variable, index: int, reason: str | None
    ) -> None:
        pass

    def orderings(self, fgraph: FunctionGraph) -> dict[Apply, list[Apply]]:
        return {}


class Bookkeeper(Feature):
    """Replays ``on_import`` for every node already present when attached, and
    ``on_prune`` for every node when detached, so subclasses see a complete history."""

    def on_attach(self, fgraph: FunctionGraph) -> None:
        for node in fgraph.toposort():
            self.on_import(fgraph, node, "on_attach")

    def on_detach(self, fgraph: FunctionGraph) -> None:
        for node in reversed(fgraph.toposort()):
            self.on_prune(fgraph, node, "on_detach")


class Checkpoint:
    """A point in a graph's change log that :meth:`History.revert` can go back to.

    The log keeps what a live checkpoint may need and nothing more: while no
    checkpoint is held, changes are not recorded, and entries older than the
    oldest one still held are dropped. Checkpoints compare by position, so two
    taken with no change between them are equal.
    """

    __slots__ = ("__weakref__", "position")

    def __init__(self, position: int) -> None:
        self.position = position

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Checkpoint):
            return self.position == other.position
        if isinstance(other, int):
            return self.position == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.position)

    def __index__(self) -> int:
        return self.position

    def __repr__(self) -> str:
        return f"Checkpoint({self.position})"


class _Log:
    """One graph's change log: ``entries[k]`` is change number ``base + k``."""

    __slots__ = ("base", "entries", "live", "recording")

    def __init__(self) -> None:
        self.entries: list[tuple[Any, int, Variable, Variable]] = []
        self.base = 0
        self.live: weakref.WeakSet[Checkpoint] = weakref.WeakSet()
        self.recording = True

    def trim(self) -> None:
        """Drop the entries no live checkpoint can revert to."""
        if not self.live:
            self.base += len(self.entries)
            self.entries.clear()
            return
        keep_from = min(c.position for c in self.live) - self.base
        if keep_from > 0:
            del self.entries[:keep_from]
            self.base += keep_from


class History(Feature):
    """Records input changes so the graph can be rolled back.

    Adds ``fgraph.checkpoint()`` (returns a :class:`Checkpoint`) and
    ``fgraph.revert(checkpoint)``, which undoes every change made since, in
    reverse order; the graph's structure, clients and node set are then exactly
    what they were. Only changes made while some checkpoint is held are kept:
    a graph rewritten for a long time does not accumulate a log.

    >>> from lazygraph.graph.basic import Apply, Op, Type
    >>> class Neg(Op):
    ...     def make_node(self, x):
    ...         return Apply(self, [x], [x.type()])
    >>> x = Type()("x")
    >>> fg = FunctionGraph([x], [Neg()(Neg()(x))])
    >>> h = History()
    >>> fg.attach_feature(h)
    >>> fg.replace(fg.outputs[0], fg.inputs[0])  # no checkpoint held: not logged
    >>> len(h.history[fg])
    0
    """

    def __init__(self) -> None:
        self._logs: dict[FunctionGraph, _Log] = {}

    @property
    def history(self) -> dict[FunctionGraph, list[tuple[Any, int, Variable, Variable]]]:
        """The recorded changes per graph (oldest first) that a held checkpoint
        may still revert, for inspection."""
        for log in self._logs.values():
            log.trim()
        return {fg: log.entries for fg, log in self._logs.items()}

    def on_attach(self, fgraph: FunctionGraph) -> None:
        if hasattr(fgraph, "checkpoint"):
            raise AlreadyThere("a History is already attached")
        self._logs[fgraph] = _Log()
        fgraph.checkpoint = lambda: self.checkpoint(fgraph)  # type: ignore[attr-defined]
        fgraph.revert = lambda checkpoint: self.revert(fgraph, checkpoint)  # type: ignore[attr-defined]

    def on_detach(self, fgraph: FunctionGraph) -> None:
        del fgraph.checkpoint  # type: ignore[attr-defined]
        del fgraph.revert  # type: ignore[attr-defined]
        del self._logs[fgraph]

    def checkpoint(self, fgraph: FunctionGraph) -> Checkpoint:
        """A checkpoint at the current state of ``fgraph``; hold it to revert to it."""
        log = self._logs[fgraph]
        log.trim()
        chk = Checkpoint(log.base + len(log.entries))
        log.live.add(chk)
        return chk

    def on_change_input(
        self,
        fgraph: FunctionGraph,
        node: Any,
        i: int,
        old_var: Variable,
        new_var: Variable,
        reason: str | None = None,
    ) -> None:
        log = self._logs.get(fgraph)
        if log is None or not log.recording:
            return
        if log.live:
            log.entries.append((node, i, old_var, new_var))
            return
        # No checkpoint held: nothing can revert to before this change.
        if log.entries:
            log.trim()
        log.base += 1

    def revert(self, fgraph: FunctionGraph, checkpoint: Checkpoint | int) -> None:
        """Undo every change recorded after ``checkpoint``."""
        log = self._logs[fgraph]
        position = checkpoint.__index__()
        if position < log.base:
            raise ValueError(
                f"History.revert: {checkpoint!r} is older than the log (it starts at "
                f"change {log.base}); keep the Checkpoint object that checkpoint() returned"
            )
        log.recording = False  # do not record the undo itself
        entries = log.entries
        try:
            while log.base + len(entries) > position:
                node, i, old_var, _new_var = entries.pop()
                fgraph.change_node_input(node, i, old_var, reason="revert", check=False)
        finally:
            log.recording = True


class Validator(Feature):
    """Adds ``fgraph.validate()`` (asks every feature's ``validate``) and
    ``fgraph.consistent()`` (the same, as a bool)."""

    def on_attach(self, fgraph: FunctionGraph) -> None:
        if hasattr(fgraph, "validate"):
            raise AlreadyThere("a Validator is already attached")
        fgraph.validate = lambda: self.validate_(fgraph)  # type: ignore[attr-defined]
        fgraph.consistent = lambda: self.consistent_(fgraph)  # type: ignore[attr-defined]

    def on_detach(self, fgraph: FunctionGraph) -> None:
        del fgraph.validate  # type: ignore[attr-defined]
        del fgraph.consistent  # type: ignore[attr-defined]

    @staticmethod
    def validate_(fgraph: FunctionGraph) -> bool:
        fgraph.execute_callbacks("validate")
        return True

    @staticmethod
    def consistent_(fgraph: FunctionGraph) -> bool:
        try:
            fgraph.execute_callbacks("validate")
        except InconsistencyError:
            return False
        return True


class ReplaceValidate(History, Validator):
    """Replacements that roll back when a feature rejects the result.

    Adds ``fgraph.replace_validate(var, new_var, reason)`` and
    ``fgraph.replace_all_validate(pairs, reason)``: the replacements are made,
    every feature's ``validate`` runs, and on ``InconsistencyError`` the graph
    is reverted exactly and the error re-raised. Also adds ``replace_all_validate_remove``,
    which additionally requires some nodes to have left the graph.
    """

    def __init__(self) -> None:
        History.__init__(self)

    def on_attach(self, fgraph: FunctionGraph) -> None:
        if hasattr(fgraph, "replace_validate"):
            raise AlreadyThere("a ReplaceValidate is already attached")
        History.on_attach(self, fgraph)
        if not hasattr(fgraph, "validate"):
            Validator.on_attach(self, fgraph)
            self._owns_validator = True
        else:
            self._owns_validator = False
        fgraph.replace_validate = (  # type: ignore[attr-defined]
            lambda var, new_var, reason=None, **kw: self.replace_all_validate(
                fgraph, [(var, new_var)], reason=reason, **kw
            )
        )
        fgraph.replace_all_validate = (  # type: ignore[attr-defined]
            lambda pairs, reason=None, **kw: self.replace_all_validate(
                fgraph, pairs, reason=reason, **kw
            )
        )
        fgraph.replace_all_validate_remove = (  # type: ignore[attr-defined]
            lambda pairs, remove, reason=None, **kw: self.replace_all_validate_remove(
                fgraph, pairs, remove, reason=reason, **kw
            )
        )

    def on_detach(self, fgraph: FunctionGraph) -> None:
        History.on_detach(self, fgraph)
        if self._owns_validator:
            Validator.on_detach(self, fgraph)
        del fgraph.replace_validate  # type: ignore[attr-defined]
        del fgraph.replace_all_validate  # type: ignore[attr-defined]
        del fgraph.replace_all_validate_remove  # type: ignore[attr-defined]

    def replace_all_validate(
        self,
        fgraph: FunctionGraph,
        replacements: Iterable[tuple[Variable, Variable]],
        reason: str | None = None,
        verbose: bool | None = None,
        import_missing: bool = False,
    ) -> None:
        chk = fgraph.checkpoint()  # type: ignore[attr-defined]
        try:
            for var, new_var in replacements:
                fgraph.replace(var, new_var, reason=reason, import_missing=import_missing)
        except Exception:
            fgraph.revert(chk)  # type: ignore[attr-defined]
            raise
        try:
            fgraph.validate()  # type: ignore[attr-defined]
        except Exception:
            fgraph.revert(chk)  # type: ignore[attr-defined]
            raise

    def replace_all_validate_remove(
        self,
        fgraph: FunctionGraph,
        replacements: Iterable[tuple[Variable, Variable]],
        remove: Sequence[Apply],
        reason: str | None = None,
        **kwargs: Any,
    ) -> None:
        """As :meth:`replace_all_validate`, then require each node in ``remove``
        to have left the graph; otherwise revert and raise ``ReplacementDidNotRemoveError``."""
        chk = fgraph.checkpoint()  # type: ignore[attr-defined]
        self.replace_all_validate(fgraph, replacements, reason=reason, **kwargs)
        if any(node in fgraph.apply_nodes for node in remove):
            fgraph.revert(chk)  # type: ignore[attr-defined]
            raise ReplacementDidNotRemoveError(
                f"replacement ({reason}) left nodes it should have removed in the graph"
            )


class ReplacementDidNotRemoveError(Exception):
    """``replace_all_validate_remove`` left a node it promised to remove."""


class NodeFinder(Bookkeeper):
    """Indexes nodes by op: ``fgraph.get_nodes(op)`` returns the nodes applying an
    op equal to ``op`` (or, given an Op class, an instance of it), in no order."""

    def __init__(self) -> None:
        self.by_op: dict[Op, set[Apply]] = {}
        self.by_class: dict[type, set[Apply]] = {}

    def on_attach(self, fgraph: FunctionGraph) -> None:
        if hasattr(fgraph, "get_nodes"):
            raise AlreadyThere("a NodeFinder is already attached")
        fgraph.get_nodes = self.get_nodes  # type: ignore[attr-defined]
        Bookkeeper.on_attach(self, fgraph)

    def on_detach(self, fgraph: FunctionGraph) -> None:
        del fgraph.get_nodes  # type: ignore[attr-defined]
        self.by_op.clear()
        self.by_class.clear()

    def on_import(self, fgraph: FunctionGraph, node: Apply, reason: str | None) -> None:
        self.by_op.setdefault(node.op, set()).add(node)
        self.by_class.setdefault(type(node.op), set()).add(node)

    def on_prune(self, fgraph: FunctionGraph, node: Apply, reason: str | None) -> None:
        self.by_op.get(node.op, set()).discard(node)
        self.by_class.get(type(node.op), set()).discard(node)

    def get_nodes(self, op: Op | type) -> list[Apply]:
        if isinstance(op, type):
            return [n for cls, nodes in self.by_class.items() if issubclass(cls, op) for n in nodes]
        return list(self.by_op.get(op, ()))

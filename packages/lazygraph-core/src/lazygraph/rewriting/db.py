"""Rewrite databases: named, tagged rewriters, and queries that select some of them.

A :class:`SequenceDB` holds graph rewriters (or other databases) at numbered
positions; an :class:`EquilibriumDB` holds node rewriters that run together
to a fixpoint. A :class:`RewriteDatabaseQuery` picks entries by tag: every
selected entry has one of the ``include`` tags, all the ``require`` tags and
none of the ``exclude`` tags. An entry's name is one of its tags, so any
rewrite can be switched off by name.

The default pipeline is :func:`default_pipeline`, instantiated once as
``optdb``; ``optdb.print_summary()`` lists it.

>>> q = RewriteDatabaseQuery(include=["fast_run"]).excluding("inplace")
>>> sorted(q.include), sorted(q.exclude)
(['fast_run'], ['inplace'])
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Iterable, Mapping
from typing import IO, Any, TypeAlias

from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting.basic import GraphRewriter, NodeRewriter, SequentialGraphRewriter
from lazygraph.rewriting.merge import MergeOptimizer
from lazygraph.rewriting.navigators import EquilibriumGraphRewriter, WalkingGraphRewriter

__all__ = [
    "AddDestroyHandler",
    "EquilibriumDB",
    "RewriteDatabase",
    "RewriteDatabaseQuery",
    "SequenceDB",
    "default_pipeline",
    "optdb",
]

Entry: TypeAlias = "GraphRewriter | NodeRewriter | RewriteDatabase"


class RewriteDatabaseQuery:
    """Which database entries to use: ``include`` (any of), ``require`` (all of),
    ``exclude`` (none of), and per-sub-database queries in ``subquery``.

    Queries are immutable; :meth:`including`, :meth:`requiring` and
    :meth:`excluding` return new ones.

    >>> q = RewriteDatabaseQuery(include=["fast_run"])
    >>> q.including("stability").include == frozenset({"fast_run", "stability"})
    True
    >>> q.include
    frozenset({'fast_run'})
    """

    __slots__ = ("_key_memo", "exclude", "include", "position_cutoff", "require", "subquery")

    def __init__(
        self,
        include: Iterable[str],
        require: Iterable[str] | None = None,
        exclude: Iterable[str] | None = None,
        subquery: Mapping[str, RewriteDatabaseQuery] | None = None,
        position_cutoff: float = math.inf,
    ) -> None:
        for name, tags in (("include", include), ("require", require), ("exclude", exclude)):
            if isinstance(tags, str):
                raise TypeError(f"{name} must be a list of tags, not the string {tags!r}")
        self.include: frozenset[str] = frozenset(include)
        self.require: frozenset[str] = frozenset(require or ())
        self.exclude: frozenset[str] = frozenset(exclude or ())
        self.subquery: dict[str, RewriteDatabaseQuery] = dict(subquery or {})
        #: Entries of a SequenceDB at a position past this are left out.
        self.position_cutoff = position_cutoff
        self._key_memo: tuple[Any, ...] | None = None

    def _with(self, **changes: Any) -> RewriteDatabaseQuery:
        fields = {
            "include": self.include,
            "require": self.require,
            "exclude": self.exclude,
            "subquery": self.subquery,
            "position_cutoff": self.position_cutoff,
        }
        fields.update(changes)
        return RewriteDatabaseQuery(**fields)

    def including(self, *tags: str) -> RewriteDatabaseQuery:
        """This query, also selecting entries with any of ``tags``."""
        return self._with(include=self.include | set(tags))

    def requiring(self, *tags: str) -> RewriteDatabaseQuery:
        """This query, selecting only entries that also have all of ``tags``."""
        return self._with(require=self.require | set(tags))

    def excluding(self, *tags: str) -> RewriteDatabaseQuery:
        """This query, leaving out entries with any of ``tags`` (names included)."""
        return self._with(exclude=self.exclude | set(tags))

    def selects(self, tags: Iterable[str]) -> bool:
        """Whether an entry with these ``tags`` is selected."""
        tags = set(tags)
        return bool(self.include & tags) and self.require <= tags and not (self.exclude & tags)

    def _key(self) -> tuple[Any, ...]:
        # A query is a value: made once, never changed (the compile cache hashes
        # its mode's query on every lookup).
        if self._key_memo is None:
            sub = tuple(sorted((k, v._key()) for k, v in self.subquery.items()))
            self._key_memo = (self.include, self.require, self.exclude, sub, self.position_cutoff)
        return self._key_memo

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RewriteDatabaseQuery) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        parts = [f"include={sorted(self.include)}"]
        if self.require:
            parts.append(f"require={sorted(self.require)}")
        if self.exclude:
            parts.append(f"exclude={sorted(self.exclude)}")
        if self.subquery:
            parts.append(f"subquery={self.subquery}")
        return f"RewriteDatabaseQuery({', '.join(parts)})"


def _query_from_tags(tags: Iterable[str]) -> RewriteDatabaseQuery:
    """``"fast_run", "-inplace", "&stable"``: include, exclude (-), require (&)."""
    include, require, exclude = [], [], []
    for tag in tags:
        if tag.startswith("-"):
            exclude.append(tag[1:])
        elif tag.startswith("&"):
            require.append(tag[1:])
        else:
            include.append(tag.removeprefix("+"))
    return RewriteDatabaseQuery(include, require, exclude)


class RewriteDatabase:
    """Named rewriters (and sub-databases) with tags.

    ``register(name, rewriter, *tags)`` stores an entry; the name is also a
    tag. :meth:`query` returns the rewriter built from the selected entries.

    >>> db = RewriteDatabase()
    >>> db.register("noop", SequentialGraphRewriter(), "fast_run")
    >>> "noop" in db, sorted(db.tags_of("noop"))
    (True, ['fast_run', 'noop'])
    """

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}
        self._tags: dict[str, set[str]] = {}
        self.name: str | None = None

    def register(
        self,
        name: str,
        rewriter: Entry,
        *tags: str,
        use_db_name_as_tag: bool = True,
        **kwargs: Any,
    ) -> None:
        """Add ``rewriter`` under ``name`` with ``tags``. The name must be new."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"a rewrite's name must be a non-empty string, got {name!r}")
        if name in self._entries:
            raise ValueError(f"{type(self).__name__} already has an entry named {name!r}")
        if not isinstance(rewriter, GraphRewriter | NodeRewriter | RewriteDatabase):
            raise TypeError(f"cannot register {rewriter!r}: not a rewriter or a database")
        for tag in tags:
            if not isinstance(tag, str):
                raise TypeError(f"tags must be strings, got {tag!r} (for {name!r})")
        self._entries[name] = rewriter
        self._tags[name] = {name, *tags} if use_db_name_as_tag else set(tags)
        if isinstance(rewriter, RewriteDatabase) or getattr(rewriter, "_name", None) is None:
            rewriter.name = name

    def add_tags(self, name: str, *tags: str) -> None:
        self._tags[name].update(tags)

    def remove_tags(self, name: str, *tags: str) -> None:
        self._tags[name].difference_update(tags)

    def tags_of(self, name: str) -> frozenset[str]:
        return frozenset(self._tags[name])

    def __getitem__(self, name: str) -> Entry:
        return self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Any:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def _selected(self, query: RewriteDatabaseQuery) -> list[tuple[str, Any]]:
        """(name, rewriter) of the selected entries; sub-databases are queried in turn."""
        selected = []
        for name, entry in self._entries.items():
            if not query.selects(self._tags[name]):
                continue
            if isinstance(entry, RewriteDatabase):
                entry = entry.query(query.subquery.get(name, query))
            selected.append((name, entry))
        return selected

    def query(self, q: RewriteDatabaseQuery | str, *tags: str) -> Any:
        """The rewriter made of the entries ``q`` selects; ``q`` may be a query
        or tags (``"fast_run", "-inplace"``)."""
        raise NotImplementedError(f"{type(self).__name__}.query")

    @staticmethod
    def _as_query(q: RewriteDatabaseQuery | str, tags: tuple[str, ...]) -> RewriteDatabaseQuery:
        if isinstance(q, RewriteDatabaseQuery):
            if tags:
                raise TypeError("give either a query or tags, not both")
            return q
        return _query_from_tags((q, *tags))

    def print_summary(self, stream: IO[str] | None = None, level: int = 0) -> None:
        """Print the entries with their tags, one per line."""
        stream = stream or sys.stdout
        print(
            f"{'    ' * level}{self.name or type(self).__name__} ({type(self).__name__})",
            file=stream,
        )
        for name in self._entries:
            self._print_entry(name, stream, level + 1)

    def _print_entry(self, name: str, stream: IO[str], level: int, prefix: str = "") -> None:
        entry = self._entries[name]
        tags = ", ".join(sorted(self._tags[name] - {name}))
        print(
            f"{'    ' * level}{prefix}{name:<22} {type(entry).__name__:<26} [{tags}]", file=stream
        )
        if isinstance(entry, RewriteDatabase):
            for sub in entry._entries:
                entry._print_entry(sub, stream, level + 1)


class SequenceDB(RewriteDatabase):
    """Graph rewriters run in the order of their ``position``.

    ``register(name, rewriter, *tags, position=...)``; Theano's
    ``register(name, rewriter, position, *tags)`` works too. Node rewriters
    registered here run under an in-to-out walk.

    >>> db = SequenceDB()
    >>> db.register("b", SequentialGraphRewriter(), "fast_run", position=2)
    >>> db.register("a", SequentialGraphRewriter(), "fast_run", position=1)
    >>> [r.name for r in db.query("fast_run").rewriters]
    ['a', 'b']
    """

    def __init__(self) -> None:
        super().__init__()
        self.positions: dict[str, float] = {}

    def register(  # type: ignore[override]
        self,
        name: str,
        rewriter: Entry,
        *tags: Any,
        position: float | str = "last",
        **kwargs: Any,
    ) -> None:
        if tags and isinstance(tags[0], numbers.Real) and not isinstance(tags[0], bool):
            position, tags = tags[0], tags[1:]  # Theano's positional order
        if position == "last":
            position = max(self.positions.values(), default=-1) + 1
        if not isinstance(position, numbers.Real):
            raise TypeError(f"position must be a number or 'last', got {position!r}")
        super().register(name, rewriter, *tags, **kwargs)
        self.positions[name] = float(position)

    def _ordered(self) -> list[str]:
        order = {name: i for i, name in enumerate(self._entries)}
        return sorted(self._entries, key=lambda n: (self.positions[n], order[n]))

    def query(self, q: RewriteDatabaseQuery | str, *tags: str) -> SequentialGraphRewriter:
        query = self._as_query(q, tags)
        selected = dict(self._selected(query))
        rewriters = []
        for name in self._ordered():
            if name not in selected or self.positions[name] > query.position_cutoff:
                continue
            rewriter = selected[name]
            if isinstance(rewriter, NodeRewriter):
                rewriter = WalkingGraphRewriter(rewriter, name=name)
            rewriters.append(rewriter)
        return SequentialGraphRewriter(*rewriters, name=self.name)

    def print_summary(self, stream: IO[str] | None = None, level: int = 0) -> None:
        """Print the pipeline: position, name, kind and tags of each entry, in order."""
        stream = stream or sys.stdout
        print(f"{'    ' * level}{self.name or 'SequenceDB'} (SequenceDB)", file=stream)
        for name in self._ordered():
            self._print_entry(name, stream, level + 1, prefix=f"{self.positions[name]:>6g}  ")


class EquilibriumDB(RewriteDatabase):
    """Node rewriters (and graph rewriters) applied together until none applies.

    ``register(..., final_rewriter=True)`` marks a graph rewriter to run each
    time the node rewriters have settled.

    >>> db = EquilibriumDB()
    >>> db.query("fast_run").node_rewriters
    []
    """

    def __init__(self, max_use_ratio: float = 8.0) -> None:
        super().__init__()
        self.max_use_ratio = max_use_ratio
        self._final: set[str] = set()

    def register(  # type: ignore[override]
        self,
        name: str,
        rewriter: Entry,
        *tags: str,
        final_rewriter: bool = False,
        **kwargs: Any,
    ) -> None:
        kwargs.pop("position", None)  # accepted for symmetry; order is registration order
        super().register(name, rewriter, *tags, **kwargs)
        if final_rewriter:
            self._final.add(name)

    def query(self, q: RewriteDatabaseQuery | str, *tags: str) -> EquilibriumGraphRewriter:
        query = self._as_query(q, tags)
        rewriters, finals = [], []
        for name, rewriter in self._selected(query):
            (finals if name in self._final else rewriters).append(rewriter)
        return EquilibriumGraphRewriter(
            rewriters, max_use_ratio=self.max_use_ratio, final_rewriters=finals, name=self.name
        )


class AddDestroyHandler(GraphRewriter):
    """Not a rewrite but a marker: attaches the ``DestroyHandler`` that inplace
    rewrites after it need (Theano's ``add_destroy_handler`` stage).

    >>> AddDestroyHandler().name
    'AddDestroyHandler'
    """

    def apply(self, fgraph: FunctionGraph) -> None:
        try:
            from lazygraph.graph.destroyhandler import (  # type: ignore[import-not-found]
                DestroyHandler,
            )
        except ImportError:
            return
        if not any(isinstance(f, DestroyHandler) for f in fgraph.features):
            fgraph.attach_feature(DestroyHandler())


def default_pipeline() -> SequenceDB:
    """The default rewrite pipeline, stage by stage (Theano's order and tags).

    >>> [name for name in default_pipeline()]  # doctest: +NORMALIZE_WHITESPACE
    ['merge1', 'canonicalize', 'stabilize', 'specialize', 'merge2', 'fusion',
     'add_destroy_handler', 'inplace', 'merge3']
    """
    db = SequenceDB()
    db.register("merge1", MergeOptimizer(), "fast_run", "fast_compile", "merge", position=0)
    db.register("canonicalize", EquilibriumDB(), "fast_run", "fast_compile", position=1)
    db.register("stabilize", EquilibriumDB(), "fast_run", "stability", position=1.5)
    db.register("specialize", EquilibriumDB(), "fast_run", position=2)
    db.register("merge2", MergeOptimizer(), "fast_run", "merge", position=49)
    db.register("fusion", SequenceDB(), "fast_run", "fusion", position=49.3)
    db.register("add_destroy_handler", AddDestroyHandler(), "fast_run", "inplace", position=49.5)
    db.register("inplace", SequenceDB(), "fast_run", "inplace", position=75)
    db.register("merge3", MergeOptimizer(), "fast_run", "merge", position=100)
    return db


#: The database ``lazygraph.compile.function`` queries with a mode's query.
optdb = default_pipeline()
optdb.name = "optdb"

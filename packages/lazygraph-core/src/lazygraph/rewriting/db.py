"""Rewrite databases: named, tagged rewriters, and queries that select some of them.

A :class:`SequenceDB` runs graph rewriters (or other databases) one after
another, in the order of its named stages; an :class:`EquilibriumDB` holds node
rewriters that run together to a fixpoint. A :class:`RewriteDatabaseQuery`
picks entries by tag: every selected entry has one of the ``include`` tags, all
the ``require`` tags and none of the ``exclude`` tags. An entry's name is one of
its tags, so any rewrite can be switched off by name.

The default pipeline's order is :data:`PIPELINE`, one listing of named stages;
:func:`default_pipeline` builds it, instantiated once as ``optdb``;
``optdb.print_summary()`` prints it with what each stage holds.

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
    "PIPELINE",
    "THEANO_POSITIONS",
    "AddDestroyHandler",
    "EquilibriumDB",
    "RewriteDatabase",
    "RewriteDatabaseQuery",
    "SequenceDB",
    "default_pipeline",
    "optdb",
]

Entry: TypeAlias = "GraphRewriter | NodeRewriter | RewriteDatabase"

#: The default pipeline, in the order it runs: its stages, each followed by its
#: own steps (``"stage.step"``) when the stage is a sequence of graph rewriters.
#: A rewrite joins a stage by name: node rewriters register in an equilibrium
#: stage (``optdb["canonicalize"].register(name, rewriter, "fast_run")``), graph
#: rewriters in the pipeline at a stage (``optdb.register(name, rewriter,
#: "fast_run", stage="specialize")`` runs after ``specialize``, before ``merge2``).
PIPELINE: tuple[str, ...] = (
    "merge1",  # merge duplicate nodes and equal constants
    "canonicalize",  # one normal form; fold constants; remove no-ops (x * 1, -(-x))
    "stabilize",  # numerically stable formulas (log(1 + x) -> log1p(x))
    "specialize",  # cheaper ops for the same values (x ** 2 -> square(x))
    "merge2",  # merge again
    "fusion",  # elementwise chains (and reductions of them) into single loops
    "fusion.elemwise_fusion",
    "add_destroy_handler",  # attach the DestroyHandler the inplace stage needs
    "inplace",  # ops write into an input's buffer when nothing else reads it
    "inplace.inplace_elemwise",
    "inplace.inplace_setsubtensor",
    "merge3",  # a last merge
)

#: Theano's (and PyTensor's) float positions of the stages and steps above. They
#: do not order anything: they only place a rewrite registered the PyTensor way,
#: ``optdb.register(name, rewriter, "fast_run", position=49.5)``, in the stage
#: whose range holds the position (from the stage's position up to the next
#: stage's), and serve ``RewriteDatabaseQuery(position_cutoff=...)``.
THEANO_POSITIONS: Mapping[str, float] = {
    "merge1": 0,
    "canonicalize": 1,
    "stabilize": 1.5,
    "specialize": 2,
    "merge2": 49,
    "fusion": 49.3,
    "fusion.elemwise_fusion": 1,
    "add_destroy_handler": 49.5,
    "inplace": 75,
    "inplace.inplace_elemwise": 10,
    "inplace.inplace_setsubtensor": 20,
    "merge3": 100,
}


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

    __slots__ = (
        "_key_memo",
        "exclude",
        "include",
        "position_cutoff",
        "require",
        "stop_after",
        "subquery",
    )

    def __init__(
        self,
        include: Iterable[str],
        require: Iterable[str] | None = None,
        exclude: Iterable[str] | None = None,
        subquery: Mapping[str, RewriteDatabaseQuery] | None = None,
        position_cutoff: float = math.inf,
        stop_after: str | None = None,
    ) -> None:
        for name, tags in (("include", include), ("require", require), ("exclude", exclude)):
            if isinstance(tags, str):
                raise TypeError(f"{name} must be a list of tags, not the string {tags!r}")
        self.include: frozenset[str] = frozenset(include)
        self.require: frozenset[str] = frozenset(require or ())
        self.exclude: frozenset[str] = frozenset(exclude or ())
        self.subquery: dict[str, RewriteDatabaseQuery] = dict(subquery or {})
        #: Entries of a SequenceDB at a position past this are left out
        #: (Theano's way; ``stop_after`` names the stage instead).
        self.position_cutoff = position_cutoff
        #: A SequenceDB with this stage runs its stages up to this one, included.
        self.stop_after = stop_after
        self._key_memo: tuple[Any, ...] | None = None

    def _with(self, **changes: Any) -> RewriteDatabaseQuery:
        fields = {
            "include": self.include,
            "require": self.require,
            "exclude": self.exclude,
            "subquery": self.subquery,
            "position_cutoff": self.position_cutoff,
            "stop_after": self.stop_after,
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
            self._key_memo = (
                self.include,
                self.require,
                self.exclude,
                sub,
                self.position_cutoff,
                self.stop_after,
            )
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
        self._print_entries(stream, level + 1)

    def _print_entries(self, stream: IO[str], level: int) -> None:
        for name in self._entries:
            self._print_entry(name, stream, level)

    def _print_entry(
        self, name: str, stream: IO[str], level: int, prefix: str = "", suffix: str = ""
    ) -> None:
        entry = self._entries[name]
        tags = ", ".join(sorted(self._tags[name] - {name}))
        print(
            f"{'    ' * level}{prefix}{name:<22} {type(entry).__name__:<26} [{tags}]{suffix}",
            file=stream,
        )
        if isinstance(entry, RewriteDatabase):
            entry._print_entries(stream, level + 1)


class SequenceDB(RewriteDatabase):
    """Graph rewriters run one after another, stage by stage.

    ``stages`` names the database's stages in the order they run. An entry named
    after a stage is that stage's own entry and runs first in it, whenever it is
    registered; any other entry joins a stage, ``register(name, rewriter, *tags,
    stage=...)``, and runs after the entries that joined it before, ahead of the
    next stage (without ``stage``: at the end of the last stage). Node rewriters
    registered here run under an in-to-out walk.

    >>> db = SequenceDB(stages=["simplify", "merge"])
    >>> db.register("merge", MergeOptimizer(), "fast_run")
    >>> db.register("simplify", SequentialGraphRewriter(), "fast_run")
    >>> db.register("extra", SequentialGraphRewriter(), "fast_run", stage="simplify")
    >>> [r.name for r in db.query("fast_run").rewriters]
    ['simplify', 'extra', 'merge']

    Positions, Theano's and PyTensor's way of ordering: a database made without
    stages runs its entries in the order of their ``position``, a number
    (``register(name, rewriter, *tags, position=...)``, or Theano's
    ``register(name, rewriter, position, *tags)``; without one, an entry goes one
    past the largest so far).

    >>> db = SequenceDB()
    >>> db.register("b", SequentialGraphRewriter(), "fast_run", position=2)
    >>> db.register("a", SequentialGraphRewriter(), "fast_run", position=1)
    >>> [r.name for r in db.query("fast_run").rewriters]
    ['a', 'b']

    A database with stages takes a position only if it was given its stages'
    ``theano_positions`` (the default pipeline has :data:`THEANO_POSITIONS`): the
    entry joins the stage whose range holds the position, from the stage's own
    position up to the next stage's (below the first stage's: before every
    stage), and entries joining one stage keep the order their positions give,
    so code written for Theano's numbers runs its rewrites where it did. Without
    ``theano_positions`` a position is refused with an error naming the stages.

    >>> db = SequenceDB(stages=["simplify", "merge"], theano_positions={"simplify": 1, "merge": 2})
    >>> db.register("late", SequentialGraphRewriter(), "fast_run", position=1.5)
    >>> db.stage_of["late"]
    'simplify'
    """

    def __init__(
        self, stages: Iterable[str] = (), theano_positions: Mapping[str, float] | None = None
    ) -> None:
        super().__init__()
        if isinstance(stages, str):
            raise TypeError(f"stages must be a list of names, not the string {stages!r}")
        #: The stages' names, in the order they run.
        self.stages: tuple[str, ...] = tuple(stages)
        self._rank = {stage: i for i, stage in enumerate(self.stages)}
        if len(self._rank) != len(self.stages):
            raise ValueError(f"a stage is named twice in {self.stages}")
        self._theano = dict(theano_positions or {})
        if self._theano:
            if set(self._theano) != set(self.stages):
                raise ValueError(
                    f"theano_positions must give a position to each stage of {self.stages} "
                    f"and only to them, got {sorted(self._theano)}"
                )
            numbers_in_order = [self._theano[stage] for stage in self.stages]
            if numbers_in_order != sorted(numbers_in_order):
                raise ValueError(f"theano_positions must grow with the stages, got {self._theano}")
        #: The stage each entry runs in: its own name for a stage's entry, the
        #: stage it joined for the others (``None``: no stages, or a position
        #: below the first stage's).
        self.stage_of: dict[str, str | None] = {}
        #: Each entry's Theano position: the one it was registered with, else its
        #: stage's (that stage's index when there are no ``theano_positions``). Only
        #: entries joining one stage, and ``RewriteDatabaseQuery.position_cutoff``,
        #: go by it.
        self.positions: dict[str, float] = {}

    def register(  # type: ignore[override]
        self,
        name: str,
        rewriter: Entry,
        *tags: Any,
        stage: str | None = None,
        position: float | str | None = None,
        **kwargs: Any,
    ) -> None:
        if tags and isinstance(tags[0], numbers.Real) and not isinstance(tags[0], bool):
            if position is not None:
                raise TypeError(f"{name!r}: a position given twice ({tags[0]!r}, {position!r})")
            position, tags = tags[0], tags[1:]  # Theano's positional order
        if position == "last":
            position = None
        if position is not None and not isinstance(position, numbers.Real):
            raise TypeError(f"position must be a number or 'last', got {position!r}")
        where = self._place(name, stage, None if position is None else float(position))
        super().register(name, rewriter, *tags, **kwargs)
        self.stage_of[name], self.positions[name] = where

    def _stages_text(self) -> str:
        return ", ".join(repr(stage) for stage in self.stages)

    def _stage_position(self, stage: str) -> float:
        return float(self._theano.get(stage, self._rank[stage]))

    def _place(
        self, name: str, stage: str | None, position: float | None
    ) -> tuple[str | None, float]:
        """The stage ``name`` runs in and its position (see the class doc)."""
        if name in self._rank:  # a stage's own entry
            if stage not in (None, name) or position not in (None, self._theano.get(name)):
                raise ValueError(
                    f"{name!r} is a stage of this database: it runs in its own place "
                    "(register it without stage= or position=)"
                )
            return name, self._stage_position(name)
        if stage is not None:
            if position is not None:
                raise TypeError(f"{name!r}: give a stage or a position, not both")
            if stage not in self._rank:
                raise ValueError(
                    f"{name!r}: no stage {stage!r} to join; the stages are: {self._stages_text()}"
                    if self.stages
                    else f"{name!r}: this database has no stages; register it with a position"
                )
            return stage, self._stage_position(stage)
        if not self.stages:
            if position is None:
                position = max(self.positions.values(), default=-1) + 1
            return None, float(position)
        if position is None:  # the end of the last stage
            last = self.stages[-1]
            if not self._theano:
                return last, self._stage_position(last)
            return last, max([*self.positions.values(), self._theano[last]]) + 1
        if not self._theano:
            raise ValueError(
                f"{name!r}: this database orders its entries by named stage, not by "
                f"position; register it with stage= one of {self._stages_text()}"
            )
        holder = None
        for candidate in self.stages:
            if self._theano[candidate] > position:
                break
            holder = candidate
        return holder, float(position)

    def _keys(self) -> dict[str, tuple[int, float, int]]:
        """Each entry's sort key: its stage (-1: before them all), its position,
        then the order of registration (a stage's own entry first)."""
        return {
            name: (
                -1 if self.stage_of[name] is None else self._rank[self.stage_of[name]],  # type: ignore[index]
                self.positions[name],
                -1 if name in self._rank else i,
            )
            for i, name in enumerate(self._entries)
        }

    def _ordered(self) -> list[str]:
        """The entries' names in the order they run."""
        keys = self._keys()
        return sorted(keys, key=keys.__getitem__)

    def query(self, q: RewriteDatabaseQuery | str, *tags: str) -> SequentialGraphRewriter:
        query = self._as_query(q, tags)
        selected = dict(self._selected(query))
        rewriters = []
        last = self._rank.get(query.stop_after) if query.stop_after is not None else None
        for name in self._ordered():
            if name not in selected or self.positions[name] > query.position_cutoff:
                continue
            stage = self.stage_of.get(name)
            if last is not None and stage is not None and self._rank[stage] > last:
                continue  # a stage after query.stop_after
            rewriter = selected[name]
            if isinstance(rewriter, NodeRewriter):
                rewriter = WalkingGraphRewriter(rewriter, name=name)
            rewriters.append(rewriter)
        return SequentialGraphRewriter(*rewriters, name=self.name)

    def print_summary(self, stream: IO[str] | None = None, level: int = 0) -> None:
        """Print the entries in the order they run, each with its kind and tags (and
        the stage it joined, or its position in a database without stages); a
        stage nothing is registered at yet shows as ``(empty)``."""
        super().print_summary(stream, level)

    def _print_entries(self, stream: IO[str], level: int) -> None:
        keys = self._keys()
        for stage in self.stages:  # a stage not registered yet shows in its place
            if stage not in self._entries:
                keys[stage] = (self._rank[stage], self._stage_position(stage), -1)
        for name in sorted(keys, key=keys.__getitem__):
            stage = self.stage_of.get(name)
            if name not in self._entries:
                print(f"{'    ' * level}{name:<22} (empty)", file=stream)
            elif not self.stages:
                self._print_entry(name, stream, level, prefix=f"{self.positions[name]:>6g}  ")
            elif stage is None:
                self._print_entry(name, stream, level, suffix=f"  (before {self.stages[0]})")
            elif stage != name:
                self._print_entry(name, stream, level, suffix=f"  (in {stage})")
            else:
                self._print_entry(name, stream, level)


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


def _stages_db(stage: str = "") -> SequenceDB:
    """An empty :class:`SequenceDB` with the steps :data:`PIPELINE` lists under
    ``stage`` (the top-level stages for ``""``) and their Theano positions."""
    steps = [s for s in PIPELINE if s.rpartition(".")[0] == stage]
    return SequenceDB(
        stages=[s.rpartition(".")[2] for s in steps],
        theano_positions={s.rpartition(".")[2]: THEANO_POSITIONS[s] for s in steps},
    )


def default_pipeline() -> SequenceDB:
    """The default rewrite pipeline: the stages of :data:`PIPELINE`, empty, with
    their kinds and tags (Theano's). The tensor rewrites register themselves in
    ``optdb``, the pipeline lazygraph runs, when ``lazygraph.tensor.rewriting``
    is imported.

    >>> default_pipeline().stages  # doctest: +NORMALIZE_WHITESPACE
    ('merge1', 'canonicalize', 'stabilize', 'specialize', 'merge2', 'fusion',
     'add_destroy_handler', 'inplace', 'merge3')
    >>> default_pipeline()["inplace"].stages
    ('inplace_elemwise', 'inplace_setsubtensor')
    """
    db = _stages_db()
    db.register("merge1", MergeOptimizer(), "fast_run", "fast_compile", "merge")
    db.register("canonicalize", EquilibriumDB(), "fast_run", "fast_compile")
    db.register("stabilize", EquilibriumDB(), "fast_run", "stability")
    db.register("specialize", EquilibriumDB(), "fast_run")
    db.register("merge2", MergeOptimizer(), "fast_run", "merge")
    db.register("fusion", _stages_db("fusion"), "fast_run", "fusion")
    db.register("add_destroy_handler", AddDestroyHandler(), "fast_run", "inplace")
    db.register("inplace", _stages_db("inplace"), "fast_run", "inplace")
    db.register("merge3", MergeOptimizer(), "fast_run", "merge")
    return db


#: The database ``lazygraph.compile.function`` queries with a mode's query.
optdb = default_pipeline()
optdb.name = "optdb"

"""Modes: which rewrites run and which backend compiles the result.

>>> from lazygraph.compile.mode import Mode
>>> sorted(Mode(backend="python").excluding("fusion").query.exclude)
['fusion', 'unsafe_nan']
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from lazygraph.rewriting.db import RewriteDatabaseQuery

__all__ = ["FAST_COMPILE", "FAST_RUN", "Mode", "get_mode"]


#: Tags of rewrites that no default mode runs: ``unsafe_nan`` rewrites may change
#: where NaN or inf appear (``exp(log(x)) -> x``). ``including`` one turns it on.
UNSAFE_TAGS = ("unsafe_nan",)


@dataclass(frozen=True)
class Mode:
    """A rewrite query over ``optdb`` and a backend name (``None``: ``config.backend``).

    >>> Mode().including("unsafe_nan").query.exclude
    frozenset()
    """

    backend: str | None = None
    query: RewriteDatabaseQuery = field(
        default_factory=lambda: RewriteDatabaseQuery(include=["fast_run"], exclude=UNSAFE_TAGS)
    )

    def including(self, *tags: str) -> Mode:
        query = self.query.including(*tags)
        if query.exclude & set(tags):  # asking for an excluded tag turns it back on
            query = RewriteDatabaseQuery(
                query.include,
                query.require,
                query.exclude - set(tags),
                query.subquery,
                query.position_cutoff,
                query.stop_after,
            )
        return replace(self, query=query)

    def excluding(self, *tags: str) -> Mode:
        return replace(self, query=self.query.excluding(*tags))

    def requiring(self, *tags: str) -> Mode:
        return replace(self, query=self.query.requiring(*tags))


FAST_RUN = Mode()
FAST_COMPILE = Mode(query=RewriteDatabaseQuery(include=["fast_compile"], exclude=UNSAFE_TAGS))
NO_REWRITES = Mode(query=RewriteDatabaseQuery(include=[], exclude=["__all__"]))

_named = {"FAST_RUN": FAST_RUN, "FAST_COMPILE": FAST_COMPILE, "NO_REWRITES": NO_REWRITES}


def get_mode(mode: Mode | str | None) -> Mode:
    """A :class:`Mode` from a mode, a mode name or a backend name."""
    if mode is None:
        return FAST_RUN
    if isinstance(mode, Mode):
        return mode
    if mode in _named:
        return _named[mode]
    return Mode(backend=mode)

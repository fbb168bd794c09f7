"""Which rewrites fired: tracing, ``config.print_rewrites`` and rewrite errors.

Every place that applies a rewrite reports it through :func:`report_rewrite`,
and every rewrite that raises goes through :func:`rewrite_failed`. Reporting
costs one flag test when nobody is listening, so the fast path stays fast.

>>> from lazygraph.rewriting.trace import trace_rewrites
>>> with trace_rewrites() as records:
...     pass  # rewrite graphs here
>>> records
[]
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Variable

__all__ = [
    "RewriteRecord",
    "RewriteWarning",
    "describe",
    "report_rewrite",
    "rewrite_failed",
    "rewriter_name",
    "trace_rewrites",
]


class RewriteRecord(NamedTuple):
    """One rewrite that fired: who, what it matched and what replaced it."""

    rewriter: str
    node: str
    replacement: str


class RewriteWarning(UserWarning):
    """A rewrite raised and was skipped (``config.on_rewrite_error == "warn"``)."""


# Lists receiving records, innermost ``trace_rewrites`` last.
_active: list[list[RewriteRecord]] = []


@contextlib.contextmanager
def trace_rewrites() -> Iterator[list[RewriteRecord]]:
    """Record every rewrite that fires inside the ``with`` block.

    Yields a list that fills with :class:`RewriteRecord` entries
    ``(rewriter name, node before, replacement)``, all strings. Blocks nest;
    each receives every record made while it is open.

    >>> with trace_rewrites() as records:
    ...     report_rewrite("x_times_1", "mul(x, 1)", "x")
    >>> records
    [RewriteRecord(rewriter='x_times_1', node='mul(x, 1)', replacement='x')]
    """
    records: list[RewriteRecord] = []
    _active.append(records)
    try:
        yield records
    finally:
        _active.remove(records)


def is_tracing() -> bool:
    """Whether a report would be recorded or printed (lets callers skip formatting)."""
    return bool(_active) or config.print_rewrites


def rewriter_name(rewriter: Any) -> str:
    """The name a rewriter is known by: its ``name``, else its string form."""
    name = getattr(rewriter, "name", None)
    if name:
        return str(name)
    if isinstance(rewriter, str):
        return rewriter
    return str(rewriter)


def describe(value: Any, depth: int = 3) -> str:
    """A short string for a node, a variable or a list of them.

    Expressions are expanded ``depth`` levels deep and abbreviated with ``...``
    beyond, so describing a node in a million-node graph stays cheap.

    >>> describe("anything")
    'anything'
    """
    if isinstance(value, Apply):
        return _describe_expr(value.op, value.inputs, depth)
    if isinstance(value, Variable):
        return _describe_var(value, depth)
    if isinstance(value, dict):
        return ", ".join(f"{describe(k, depth)} -> {describe(v, depth)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "[" + ", ".join(describe(v, depth) for v in value) + "]"
    return str(value)


def _describe_var(var: Variable, depth: int) -> str:
    node = var.owner
    if node is None or var.name is not None:
        return str(var)
    if depth <= 0:
        return "..."
    text = _describe_expr(node.op, node.inputs, depth)
    if len(node.outputs) > 1:
        text += f"::{var.index}"
    return text


def _describe_expr(op: Any, inputs: Sequence[Variable], depth: int) -> str:
    return f"{op}({', '.join(_describe_var(v, depth - 1) for v in inputs)})"


def report_rewrite(rewriter: Any, node: Any, replacement: Any) -> None:
    """Tell active traces (and ``config.print_rewrites``) that a rewrite fired.

    ``node`` is what was matched (usually an :class:`Apply`) and ``replacement``
    what replaced it (variables, or a list or dict of them). Cheap when nobody
    listens.
    """
    if not _active and not config.print_rewrites:
        return
    record = RewriteRecord(rewriter_name(rewriter), describe(node), describe(replacement))
    for records in _active:
        records.append(record)
    if config.print_rewrites:
        print(f"rewrite {record.rewriter}: {record.node} -> {record.replacement}")


def rewrite_failed(rewriter: Any, exc: BaseException, node: Any = None) -> None:
    """Handle a rewrite that raised: re-raise or warn, per ``config.on_rewrite_error``.

    With ``"warn"`` (the default) the rewrite is skipped with a
    :class:`RewriteWarning` naming it; the graph is left as it was before the
    rewrite, so the answer is never wrong. With ``"raise"`` the error propagates.
    """
    if config.on_rewrite_error == "raise":
        raise exc
    where = f" on {describe(node)}" if node is not None else ""
    warnings.warn(
        f"rewrite {rewriter_name(rewriter)} failed{where} and was skipped: "
        f"{type(exc).__name__}: {exc}",
        RewriteWarning,
        stacklevel=3,
    )

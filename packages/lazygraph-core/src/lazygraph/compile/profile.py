"""Diagnostics for compiled functions: a per-node runtime profile and a progress
line for slow compiles.

``lazygraph.function(inputs, outputs, profile=True)`` returns a function whose
``profile`` attribute (a :class:`ProfileStats`) accumulates the time spent in
every node: its ``perform`` on the python backend, its kernel on numba (the
nodes after fusion, run one by one for the profile). On jax, where XLA fuses
the whole graph, it times whole calls. ``fn.profile.summary()``
prints the table, slowest nodes first.

>>> import numpy as np
>>> import lazygraph
>>> import lazygraph.tensor as lt
>>> from lazygraph.compile.mode import Mode
>>> x = lt.dvector("x")
>>> f = lazygraph.function([x], lt.exp(x) * 2.0, mode=Mode(backend="python"), profile=True)
>>> f(np.zeros(3))
array([2., 2., 2.])
>>> f.profile.calls
1
>>> sum(row.calls for row in f.profile.rows())
1

:func:`compile_progress` is the other half: while a compile runs longer than
:data:`PROGRESS_DELAY` seconds, a background timer prints one status line to
standard error naming the stage (``rewriting``, ``compiling``). Fast compiles
print nothing; ``config.progress = False`` (``LAZYGRAPH_PROGRESS=0``) turns it
off.
"""

from __future__ import annotations

import contextlib
import functools
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any

from lazygraph.configuration import config
from lazygraph.graph.basic import Apply
from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "PROGRESS_DELAY",
    "NodeProfile",
    "ProfileStats",
    "compile_progress",
    "profiled_compile",
]

PROGRESS_DELAY = 1.5
"""Seconds a compile runs before :func:`compile_progress` says anything."""


@dataclass
class NodeProfile:
    """One row of a profile: a node, how often it ran and for how long."""

    index: int
    node: str
    op: str
    calls: int = 0
    seconds: float = 0.0


class ProfileStats:
    """Run times of a compiled function, per node (python backend) or per call.

    ``calls`` counts calls of the function and ``seconds`` their total wall
    time; :meth:`rows` gives one :class:`NodeProfile` per node, slowest first.
    """

    def __init__(self, backend: str) -> None:
        self.backend = backend
        self.calls = 0
        self.seconds = 0.0
        self._rows: list[NodeProfile] = []

    def _add_row(self, node: str, op: str) -> NodeProfile:
        row = NodeProfile(len(self._rows), node, op)
        self._rows.append(row)
        return row

    def rows(self) -> list[NodeProfile]:
        """The rows, slowest (largest total time) first."""
        return sorted(self._rows, key=lambda r: (-r.seconds, r.index))

    def reset(self) -> None:
        """Forget every measurement (the rows stay, with zero counts)."""
        self.calls, self.seconds = 0, 0.0
        for row in self._rows:
            row.calls, row.seconds = 0, 0.0

    def table(self, limit: int | None = 20) -> str:
        """The profile as a text table: node, op, calls, total time, percent.

        >>> stats = ProfileStats("python")
        >>> print(stats.table())
        profile (python backend): 0 calls, 0.000 ms in total
        (no node has run yet)
        """
        header = (
            f"profile ({self.backend} backend): {self.calls} calls, "
            f"{self.seconds * 1e3:.3f} ms in total"
        )
        rows = [r for r in self.rows() if r.calls]
        if not rows:
            return header + "\n(no node has run yet)"
        total = sum(r.seconds for r in rows) or 1.0
        shown = rows if limit is None else rows[:limit]
        cells = [
            (f"#{r.index}", _short(r.node, 48), _short(r.op, 28), str(r.calls), _ms(r.seconds))
            for r in shown
        ]
        percents = [f"{100 * r.seconds / total:.1f}%" for r in shown]
        titles = ("id", "node", "op", "calls", "total", "%")
        columns = [*zip(*cells, strict=True), tuple(percents)]
        pairs = zip(titles, columns, strict=True)
        widths = [max(len(t), *(len(c) for c in col)) for t, col in pairs]
        right = (False, False, False, True, True, True)

        def line(values: Sequence[str]) -> str:
            parts = [
                v.rjust(w) if r else v.ljust(w)
                for v, w, r in zip(values, widths, right, strict=True)
            ]
            return "  ".join(parts).rstrip()

        out = [header, line(titles), line(["-" * w for w in widths])]
        out += [line([*c, p]) for c, p in zip(cells, percents, strict=True)]
        if len(rows) > len(shown):
            rest = sum(r.seconds for r in rows[len(shown) :])
            out.append(f"... {len(rows) - len(shown)} more nodes, {_ms(rest)}")
        return "\n".join(out)

    def summary(self, file: IO[str] | None = None, limit: int | None = 20) -> None:
        """Print :meth:`table` (to standard output unless ``file`` is given)."""
        print(self.table(limit), file=sys.stdout if file is None else file)

    def __str__(self) -> str:
        # print(fn.profile) shows the table, as summary() does
        return self.table()

    def __repr__(self) -> str:
        return f"ProfileStats({self.backend!r}, calls={self.calls}, nodes={len(self._rows)})"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


class _TimedOp:
    """Stands in for a node's op in the python backend: times its ``perform``."""

    def __init__(self, node: Apply, row: NodeProfile) -> None:
        self._node = node
        self._perform = node.op.perform
        self._row = row

    def perform(self, _proxy: Any, inputs: Any, output_storage: Any) -> None:
        start = time.perf_counter()
        try:
            self._perform(self._node, inputs, output_storage)
        finally:
            self._row.seconds += time.perf_counter() - start
            self._row.calls += 1


class _TimedNode:
    __slots__ = ("inputs", "op", "outputs")

    def __init__(self, node: Apply, row: NodeProfile) -> None:
        self.op = _TimedOp(node, row)
        self.inputs = node.inputs
        self.outputs = node.outputs


class _TimedGraph:
    """What the python backend reads from a FunctionGraph, with timed nodes."""

    def __init__(self, fgraph: FunctionGraph, stats: ProfileStats) -> None:
        from lazygraph.rewriting.trace import describe

        self.inputs = fgraph.inputs
        self.outputs = fgraph.outputs
        self.variables = fgraph.variables
        self._nodes = [
            _TimedNode(node, stats._add_row(describe(node, 1), str(node.op)))
            for node in fgraph.toposort()
        ]

    def toposort(self) -> list[_TimedNode]:
        return list(self._nodes)


def profiled_compile(
    backend: Any, fgraph: FunctionGraph, stats: ProfileStats
) -> Callable[..., Sequence[Any]]:
    """Compile ``fgraph`` with ``backend`` so that calls record into ``stats``.

    The python backend gets timed nodes (one row per node), as does a backend
    with a ``compile_profiled(fgraph, rows)`` method (numba: its kernels run one
    by one, each timed); any other backend (jax: XLA fuses the whole graph) is
    compiled as usual and timed per call (one row for the whole function).
    """
    from lazygraph.rewriting.trace import describe

    if getattr(backend, "name", None) == "python":
        fn = backend.compile(_TimedGraph(fgraph, stats))
    elif hasattr(backend, "compile_profiled"):
        rows = [stats._add_row(describe(n, 1), str(n.op)) for n in fgraph.toposort()]
        fn = backend.compile_profiled(fgraph, rows)
    else:
        fn = backend.compile(fgraph)
        row = stats._add_row(f"whole function ({len(fgraph.apply_nodes)} nodes)", backend.name)
        inner = fn

        def fn(*args: Any) -> Sequence[Any]:
            start = time.perf_counter()
            try:
                return inner(*args)
            finally:
                row.seconds += time.perf_counter() - start
                row.calls += 1

    def timed(*args: Any) -> Sequence[Any]:
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            stats.seconds += time.perf_counter() - start
            stats.calls += 1

    return timed


class _Progress:
    """One compile being watched: its stage, and when it began. Only the watcher
    thread reads or writes it after it is queued."""

    def __init__(self, nodes: int, stream: IO[str] | None, delay: float) -> None:
        self.nodes = nodes
        self.stream = stream
        self.stage = "starting"
        self.start = time.perf_counter()
        self.deadline = self.start + delay
        self.shown = False  # set by the watcher once it printed the first line
        self.finished = False  # set by the watcher once it handled "finish"

    def print(self, final: str = "") -> None:
        stream = sys.stderr if self.stream is None else self.stream
        elapsed = time.perf_counter() - self.start
        what = final or f"{self.stage}..."
        with contextlib.suppress(OSError, ValueError):  # a closed stream: say nothing
            print(
                f"lazygraph: compiling a graph of {self.nodes:,} nodes: {what} ({elapsed:.1f} s)",
                file=stream,
                flush=True,
            )


class _Watcher:
    """One daemon thread for every compile in the process: it sleeps until the
    earliest deadline of the compiles still running and prints their first line.

    Compiling threads never take a lock here: they put events (``add``,
    ``stage``, ``finish``) on a :class:`queue.SimpleQueue`, whose ``put`` is one
    C call (atomic for a ``KeyboardInterrupt``, which lands between bytecodes,
    and safe to call reentrantly), and only the watcher thread reads the
    queue and touches the compiles' state. A Ctrl-C landing anywhere in a
    compile therefore cannot leave a lock held that another thread's compile
    would wait for; at worst an event is lost and a progress line is missing
    or stale. The only lock is the one that starts the thread, taken when no
    watcher thread is running (once per process, and again after a fork).
    """

    def __init__(self) -> None:
        self.events: queue.SimpleQueue[tuple[str, _Progress, str]] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def _ensure_thread(self) -> None:
        thread = self.thread
        if thread is not None and thread.is_alive():
            return
        with self._start_lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(
                    target=self._run, name="lazygraph-progress", daemon=True
                )
                self.thread.start()

    def add(self, progress: _Progress) -> None:
        self.events.put(("add", progress, ""))
        self._ensure_thread()

    def set_stage(self, progress: _Progress, stage: str) -> None:
        self.events.put(("stage", progress, stage))

    def finish(self, progress: _Progress) -> None:
        self.events.put(("finish", progress, ""))

    def _run(self) -> None:
        active: dict[int, _Progress] = {}
        while True:
            waiting = [p.deadline for p in active.values() if not p.shown]
            timeout = max(0.0, min(waiting) - time.perf_counter()) if waiting else None
            try:
                kind, progress, stage = self.events.get(timeout=timeout)
            except queue.Empty:
                pass
            else:
                if kind == "add":
                    active[id(progress)] = progress
                elif kind == "stage":
                    progress.stage = stage
                    if progress.shown:
                        progress.print()
                else:
                    if active.pop(id(progress), None) is not None and progress.shown:
                        progress.print("done")
                    progress.finished = True
            now = time.perf_counter()
            for p in active.values():
                if not p.shown and p.deadline <= now:
                    p.shown = True
                    p.print()

    def wait_finished(self, progress: _Progress, timeout: float) -> None:
        """Poll (no lock) until the watcher has printed ``progress``'s last line,
        so that it comes before whatever the caller prints next."""
        deadline = time.perf_counter() + timeout
        while not progress.finished and time.perf_counter() < deadline:
            time.sleep(0.001)


_watcher = _Watcher()


@contextlib.contextmanager
def compile_progress(
    nodes: int, stream: IO[str] | None = None, delay: float | None = None
) -> Iterator[Callable[[str], None]]:
    """Report a slow compile of a graph of ``nodes`` nodes on standard error.

    Yields a function to call with each stage's name (``"rewriting"``,
    ``"compiling"``). If the block is still running after ``delay`` seconds
    (default :data:`PROGRESS_DELAY`), a background timer prints a line with the
    current stage, another at each later stage change, and one when it is done.
    A fast block prints nothing, and with ``config.progress`` off nothing at all
    happens.

    >>> import io
    >>> out = io.StringIO()
    >>> with compile_progress(10, stream=out) as stage:
    ...     stage("rewriting")
    >>> out.getvalue()
    ''
    """
    if not config.progress:
        yield lambda stage: None
        return
    progress = _Progress(nodes, stream, PROGRESS_DELAY if delay is None else delay)
    try:
        # inside the try: a Ctrl-C landing in add() must still unregister
        _watcher.add(progress)
        yield functools.partial(_watcher.set_stage, progress)
    finally:
        _watcher.finish(progress)
        if progress.shown:  # a slow compile: let its "done" line out first
            _watcher.wait_finished(progress, 30.0)

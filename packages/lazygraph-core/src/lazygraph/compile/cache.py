"""The in-memory compile cache, keyed by a graph's structure and input types.

Running the same code on new data builds a new graph of the same shape: the
same ops (compared by their ``__props__``), wired the same way, reading inputs
of the same types and constants of the same values. :func:`cached_function`
computes that structure as a hashable key and reuses the function compiled
(rewritten and lowered) for the first graph with that key, so a second run
rewrites nothing and compiles nothing. The cache holds at most
``config.compile_cache_size`` functions and drops the least recently used.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> from lazygraph.compile.cache import cached_function, clear_cache, stats
>>> clear_cache()
>>> def build():
...     x = lt.TensorType("float64", (3,))("x")
...     return x, lt.exp(x) * 2.0
>>> x, y = build()
>>> cached_function([x], [y])(np.zeros(3))
[array([2., 2., 2.])]
>>> x2, y2 = build()  # a new graph with the same structure
>>> cached_function([x2], [y2])(np.ones(3))[0].round(3)
array([5.437, 5.437, 5.437])
>>> stats().compiles, stats().hits
(1, 1)
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from lazygraph.compile.function import Function, function
from lazygraph.compile.mode import get_mode
from lazygraph.configuration import config
from lazygraph.graph.basic import Constant, Variable, gc_paused
from lazygraph.graph.traversal import io_toposort

__all__ = [
    "CacheStats",
    "CachedFunction",
    "cached_function",
    "clear_cache",
    "clear_programs",
    "shared_program",
    "stats",
    "structural_key",
]


# Tags of the key's entries. A graph's key is a flat tuple with one entry per
# thing that gets a number (an input, a constant, a free variable, a node), in
# the order a deterministic walk from the outputs meets them, then one entry
# listing the outputs. Numbers stand for variables, so two graphs have equal
# keys exactly when they are wired the same way.
_INPUT = "input"
_CONSTANT = "constant"
_FREE = "free"
_UNUSED = "unused"
_OUTPUTS = "outputs"


def structural_key(
    inputs: Sequence[Variable], outputs: Sequence[Variable]
) -> tuple[Hashable, tuple[int, ...]]:
    """A hashable key of the graph from ``inputs`` to ``outputs``, and the
    canonical input order.

    The key holds, for every node between the inputs and the outputs in a
    deterministic topological order: its op, which earlier numbered variable
    each of its inputs is, and its output types; inputs by their types,
    constants by type and value (``Type.constant_key``), and the outputs'
    numbers in order. It does not depend on variable names or identities,
    on the order ``inputs`` are listed in, nor on the data later bound to them.

    The order is a tuple of positions into ``inputs``: input ``order[j]`` is
    the ``j``-th input the walk met (inputs it never met come last, in their
    given order). Two graphs with equal keys agree input for input once each
    is listed in its own canonical order. The cost is linear in the size of
    the graph, and nothing recurses.

    >>> import lazygraph.tensor as lt
    >>> a, b = lt.dvector("a"), lt.dvector("b")
    >>> c, d = lt.dvector("c"), lt.dvector("d")
    >>> k1, order1 = structural_key([a, b], [a - b])
    >>> k2, order2 = structural_key([c, d], [d - c])  # inputs listed the other way
    >>> k1 == k2, order1, order2
    (True, (0, 1), (1, 0))
    """
    with gc_paused():
        return _structural_key(inputs, outputs)


def _structural_key(
    inputs: Sequence[Variable], outputs: Sequence[Variable]
) -> tuple[Hashable, tuple[int, ...]]:
    input_pos: dict[Variable, int] = {}
    for pos, v in enumerate(inputs):
        input_pos.setdefault(v, pos)
    ids: dict[Variable, Any] = {}
    order: list[int] = []
    entries: list[Any] = []
    # Ops and types go into a table of distinct values and the entries refer to
    # them by number: hashing an op from its props costs microseconds, and most
    # nodes of a large graph share a few ops and types (often the same objects,
    # so an identity lookup answers first).
    table: list[Any] = []
    by_value: dict[Any, int] = {}
    by_id: dict[int, int] = {}

    def intern(obj: Any) -> int:
        k = by_id.get(id(obj))
        if k is None:
            try:
                k = by_value.setdefault(obj, len(table))
            except TypeError:  # unhashable props: the key will be unhashable too
                k = len(table)
            if k == len(table):
                table.append(obj)
            by_id[id(obj)] = k
        return k

    # equal constants are one entry, whether they are one object or several (a
    # graph recorded again may share a constant its first recording made twice)
    constants: dict[Any, int] = {}

    def leaf(v: Variable) -> int:
        """The number of the leaf ``v``, adding its entry if it is a new one."""
        pos = input_pos.get(v)
        if pos is not None:
            order.append(pos)
            entry = (_INPUT, intern(v.type))
        elif isinstance(v, Constant):
            entry = (_CONSTANT, intern(v.type), v.signature()[1])
            try:
                r = constants.setdefault(entry, len(entries))
            except TypeError:  # an unhashable value: the key is unhashable too
                r = len(entries)
            if r != len(entries):  # an equal constant has its entry
                ids[v] = r
                return r
        else:
            # Neither an input nor a constant: compiling will raise
            # MissingInputError; the key just has to be well defined.
            entry = (_FREE, intern(v.type))
        r = ids[v] = len(entries)
        entries.append(entry)
        return r

    # Variables are numbered by the entry that makes them (the outputs of a
    # node with several are (its number, output index)), so numbers do not
    # depend on how many objects the equal constants were.
    # The loop runs once per node of graphs with up to millions of them: keep
    # the common paths inline.
    for node in io_toposort(input_pos, outputs):
        refs = []
        for v in node.inputs:
            r = ids.get(v)
            if r is None:
                r = leaf(v)
            refs.append(r)
        op = node.op
        k = by_id.get(id(op))
        if k is None:
            k = intern(op)
        outs = node.outputs
        if len(outs) == 1:
            t = outs[0].type
            kt = by_id.get(id(t))
            if kt is None:
                kt = intern(t)
            ids[outs[0]] = len(entries)
            entries.append((k, tuple(refs), kt))
        else:
            n = len(entries)
            for i, o in enumerate(outs):
                ids[o] = (n, i)
            entries.append((k, tuple(refs), tuple([intern(o.type) for o in outs])))
    out_refs = []
    for v in outputs:
        r = ids.get(v)
        if r is None:
            r = leaf(v)
        out_refs.append(r)
    entries.append((_OUTPUTS, tuple(out_refs)))
    if len(order) < len(inputs):
        met = set(order)
        for pos, v in enumerate(inputs):
            if pos not in met:
                order.append(pos)
                entries.append((_UNUSED, intern(v.type)))
    return (tuple(table), tuple(entries)), tuple(order)


@dataclass
class CacheStats:
    """Counters of the compile cache since the last :func:`clear_cache`.

    ``hits``: lookups answered by a cached function; ``misses``: lookups that
    were not; ``compiles``: functions built (each one rewritten, unless its
    mode rewrites nothing, and lowered by its backend); ``evictions``: functions
    dropped to stay within ``config.compile_cache_size``; ``uncacheable``:
    graphs whose key could not be hashed (an op with unhashable props), compiled
    without caching; ``compile_seconds``: time spent compiling; ``size``: the
    number of functions held now.
    """

    hits: int = 0
    misses: int = 0
    compiles: int = 0
    evictions: int = 0
    uncacheable: int = 0
    compile_seconds: float = 0.0
    size: int = 0


class CachedFunction:
    """A cached :class:`Function` and how the caller's inputs map onto its own.

    Call it with one value per input, in the order the inputs were given to
    :func:`cached_function`; it returns the list of output values. ``function``
    is the shared compiled function (its inputs are in the canonical order of
    the graph it was first compiled for) and ``input_order[j]`` is the position,
    among the caller's inputs, of the value it takes as its ``j``-th input.

    Every user of one structure shares one function, and calls run at once
    from any number of threads: each backend gives each call its own storage.
    """

    __slots__ = ("_identity", "function", "input_order")

    def __init__(self, fn: Function, input_order: Sequence[int]) -> None:
        self.function = fn
        self.input_order = tuple(input_order)
        self._identity = self.input_order == tuple(range(len(self.input_order)))

    def __call__(self, *args: Any) -> list[Any]:
        if not self._identity:
            if len(args) != len(self.input_order):
                raise TypeError(
                    f"this function takes {len(self.input_order)} inputs, {len(args)} given"
                )
            args = tuple([args[p] for p in self.input_order])
        return self.function(*args)

    def call_trusted(self, *args: Any) -> Sequence[Any]:
        """Like calling it, without checking or converting the values: each must
        already be an ndarray of its input's exact dtype and shape. Returns the
        backend's sequence of outputs."""
        if not self._identity:
            args = tuple([args[p] for p in self.input_order])
        return self.function.fn(*args)

    def trusted_callable(self, extra: Sequence[Any] = ()) -> Callable[..., Sequence[Any]]:
        """A plain function doing what :meth:`call_trusted` does, with ``extra``
        values appended to every call's arguments: the fastest way to call
        the compiled function again and again (``jit`` uses it)."""
        fn, extra = self.function.fn, tuple(extra)
        if self._identity:
            if not extra:
                return fn

            def call_extra(*args: Any) -> Sequence[Any]:
                return fn(*args, *extra)

            return call_extra
        order = self.input_order

        def call_ordered(*args: Any) -> Sequence[Any]:
            full = args + extra
            return fn(*[full[p] for p in order])

        return call_ordered

    @property
    def fgraph(self) -> Any:
        """The rewritten graph of the shared function."""
        return self.function.fgraph

    def __repr__(self) -> str:
        return f"CachedFunction({len(self.input_order)} inputs, backend={self.function.backend!r})"


class _HashedKey:
    """A cache key hashed once: a lookup hashes and compares it several times,
    and hashing it walks every entry of the graph's structural key."""

    __slots__ = ("_hash", "key")

    def __init__(self, key: Hashable) -> None:
        self.key = key
        self._hash = hash(key)  # TypeError for an unhashable key

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _HashedKey) and self._hash == other._hash and self.key == other.key


class _Cache:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: OrderedDict[Hashable, Function] = OrderedDict()
        # key -> event set when the thread compiling that key is done, so two
        # threads racing on one structure compile it once.
        self.pending: dict[Hashable, threading.Event] = {}
        self.stats = CacheStats()

    def lookup(self, key: Hashable) -> Function | threading.Event | None:
        """The cached function, an event to wait on, or ``None`` (the caller
        must compile it and call :meth:`insert` or :meth:`abandon`)."""
        with self.lock:
            fn = self.entries.get(key)
            if fn is not None:
                self.entries.move_to_end(key)
                self.stats.hits += 1
                return fn
            event = self.pending.get(key)
            if event is not None:
                return event
            # The owner's thread id lets a Ctrl-C that lands anywhere between
            # here and insert() be cleaned up (see cached_function).
            event = self.pending[key] = threading.Event()
            event.owner = threading.get_ident()  # type: ignore[attr-defined]
            self.stats.misses += 1
            return None

    def insert(self, key: Hashable, fn: Function, seconds: float) -> None:
        with self.lock:
            self.stats.compiles += 1
            self.stats.compile_seconds += seconds
            limit = max(int(config.compile_cache_size), 0)
            if limit:
                self.entries[key] = fn
                self.entries.move_to_end(key)
            while len(self.entries) > limit:
                self.entries.popitem(last=False)
                self.stats.evictions += 1
            self.pending.pop(key).set()

    def abandon(self, key: Hashable, owner: int | None = None) -> None:
        """Give up compiling ``key`` (when ``owner`` is given: only if that
        thread is the one that claimed it)."""
        with self.lock:
            event = self.pending.get(key)
            if event is not None and owner in (None, getattr(event, "owner", None)):
                del self.pending[key]
                event.set()


_cache = _Cache()


class _Programs:
    """Compiled programs by the rewritten graph's structure (see
    :func:`shared_program`), least recently used dropped."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: OrderedDict[Hashable, Any] = OrderedDict()


_programs = _Programs()


def shared_program(
    backend: Any,
    name: str,
    fgraph: Any,
    options: Mapping[str, Any],
    build: Callable[[], Any],
) -> Any:
    """The program ``backend`` (named ``name``) compiles for the rewritten
    ``fgraph`` with the compile ``options``: ``build()``'s result, shared with
    every later graph of the same structure and input order.

    A backend opts in with a ``program_key(options)`` method returning what
    its programs depend on besides the graph (the jax backend: the shardings,
    ``device_arrays``, ``donate``, its output copying and
    ``config.on_unsupported``): a rebuilt graph then costs no trace and no XLA
    compile. A backend without one (numba keeps its kernels on disk, keyed by
    their own source) builds every time. At most the backend's ``cache_size``
    (default ``config.compile_cache_size``) programs are kept.
    """
    key_of = getattr(backend, "program_key", None)
    if key_of is None:
        return build()
    try:
        structure, order = structural_key(fgraph.inputs, fgraph.outputs)
        key: Hashable = _HashedKey((name, structure, order, key_of(options)))
    except TypeError:  # an unhashable constant or option: not shared
        return build()
    with _programs.lock:
        found = _programs.entries.get(key)
        if found is not None:
            _programs.entries.move_to_end(key)
            return found
    program = build()
    limit = int(getattr(backend, "cache_size", config.compile_cache_size))
    with _programs.lock:
        _programs.entries[key] = program
        while len(_programs.entries) > max(limit, 0):
            _programs.entries.popitem(last=False)
    return program


def clear_programs(name: str | None = None) -> None:
    """Forget the shared programs (of the backend ``name`` only, when given)."""
    with _programs.lock:
        if name is None:
            _programs.entries.clear()
            return
        for key in [k for k in _programs.entries if k.key[0] == name]:  # type: ignore[attr-defined]
            del _programs.entries[key]


def cached_function(
    inputs: Sequence[Variable],
    outputs: Sequence[Variable],
    mode: Any = None,
    *,
    compile_options: Mapping[str, Any] | None = None,
) -> CachedFunction:
    """A compiled function from ``inputs`` to the list ``outputs``, reused for
    every graph of the same structure and input types.

    The key is :func:`structural_key` with the mode (its rewrite query) and the
    backend (``config.backend`` when the mode names none): a hit skips rewriting
    and compiling entirely. Returns a :class:`CachedFunction`, called with the
    values of ``inputs`` in the order given here, returning a list of outputs.
    Safe to call from several threads; when they race on one structure, one
    compiles and the others wait for it.

    ``compile_options`` go to the backend's ``compile`` (see
    :func:`~lazygraph.compile.function.function`) and into the key. Some are
    given per input (the jax backend's ``in_shardings``), so with options the
    function is compiled with the inputs in the order given here, and shared
    only by graphs whose inputs are listed in the same structural order.

    >>> import lazygraph.tensor as lt
    >>> x, y = lt.dscalar("x"), lt.dscalar("y")
    >>> f = cached_function([y, x], [x - y])
    >>> float(f(1.0, 10.0)[0])
    9.0
    """
    inputs = list(inputs)
    outputs = list(outputs)
    options = dict(compile_options or {})
    resolved = get_mode(mode)
    backend = resolved.backend or config.backend
    structure, order = structural_key(inputs, outputs)
    try:
        if options:
            # per-input options are in the caller's order: compile in that order
            # and key on it too (then the callers sharing it agree input for input)
            key = _HashedKey(
                (
                    resolved.query,
                    backend,
                    config.on_unsupported,
                    structure,
                    order,
                    _options_key(options),
                )
            )
            order = tuple(range(len(inputs)))
        else:
            key = _HashedKey((resolved.query, backend, config.on_unsupported, structure))
    except TypeError:
        with _cache.lock:
            _cache.stats.uncacheable += 1
        fn = function(inputs, outputs, mode=mode, compile_options=options)
        return CachedFunction(fn, range(len(inputs)))
    me = threading.get_ident()
    try:
        while True:
            found = _cache.lookup(key)
            if isinstance(found, threading.Event):
                if getattr(found, "owner", None) == me:
                    # Left by this thread's own compile, interrupted before it
                    # could clean up: waiting on it would never end.
                    _cache.abandon(key, me)
                else:
                    found.wait()
                continue
            if found is not None:
                return CachedFunction(found, order)
            break
        start = time.perf_counter()
        fn = function([inputs[p] for p in order], outputs, mode=mode, compile_options=options)
        _cache.insert(key, fn, time.perf_counter() - start)
    except BaseException:
        # KeyboardInterrupt can land anywhere here: never leave a claim that
        # other threads would wait on forever.
        _cache.abandon(key, me)
        raise
    return CachedFunction(fn, order)


def _options_key(options: Mapping[str, Any]) -> Hashable:
    """``options`` as a hashable key part (lists as tuples); ``TypeError`` when
    a value cannot be hashed."""

    def frozen(value: Any) -> Any:
        if isinstance(value, list | tuple):
            return tuple(frozen(v) for v in value)
        if isinstance(value, dict):
            return tuple(sorted((k, frozen(v)) for k, v in value.items()))
        hash(value)
        return value

    return tuple(sorted((k, frozen(v)) for k, v in options.items()))


def stats() -> CacheStats:
    """A snapshot of the compile cache's counters (see :class:`CacheStats`).

    >>> from lazygraph.compile.cache import stats
    >>> stats().size >= 0
    True
    """
    with _cache.lock:
        return replace(_cache.stats, size=len(_cache.entries))


def clear_cache() -> None:
    """Forget every cached function and shared program, and reset the counters."""
    with _cache.lock:
        _cache.entries.clear()
        _cache.stats = CacheStats()
    clear_programs()

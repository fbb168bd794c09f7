"""The Numba linker: a rewritten ``FunctionGraph`` becomes one callable.

Every node with a lowering gets a compiled kernel (shared by every graph and
every array size with the same node structure). A call runs in one of two
tiers:

- kernel by kernel, from a Python loop (about 1 µs per node), for at least
  the first ``config.numba_graph_after`` calls (``LAZYGRAPH_NUMBA_GRAPH_AFTER``); nodes
  without a lowering run their ``Op.perform`` here, with a one-time
  :class:`NumbaFallbackWarning` naming each such Op
  (``config.on_unsupported = "raise"`` raises instead);
- then, when every node has a kernel, the graph has at most
  :data:`WHOLE_GRAPH_MAX_NODES` nodes, the Python loop is a noticeable part
  of a call (small arrays) and has cost as much as a compile, one generated ``njit`` function that
  calls the kernels in toposort order, so a call costs one Numba dispatch. Its
  source names kernels by content hash and never mentions sizes, so graphs of
  the same structure share it (and its disk cache entry).

Most graphs are called a few times (interactive work, tests), or spend their
time in the kernels, and never pay for the graph function; hot graphs of
small arrays do, once. A graph of a single node calls its
kernel directly from the first call.

Compiling: with ``config.numba_background_compile`` (the default) no call waits
for Numba. A node whose kernel has no code for its argument types yet runs its
``perform``; once it has run long enough to repay the compile (the cost model
of :mod:`.background`) the kernel compiles on the worker thread of
:mod:`.background`, as do multithreaded variants and graph functions. Until
every kernel of a graph is ready, its calls check argument types before each
kernel call (a few µs per node); the first call that finds them all ready ends
that. With it off, kernels compile at their first call, on the calling thread,
as a loop's kernel always does (its Op says ``slow_perform``: the perform of a
``Scan`` or ``While`` interprets the body step by step, slower than the compile).

Threads: a node whose inputs have :data:`PARALLEL_MIN_SIZE` elements or more
runs its multithreaded kernel when it has one (elementwise loops and
reductions over trailing axes; the outer loop is a ``prange``), built on first
need, with ``config.num_threads`` threads (``LAZYGRAPH_NUM_THREADS``; 0 means
all cores but one: :func:`thread_count`). One Python thread at a time runs
multithreaded kernels; others run the serial ones meanwhile rather than wait.

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> from lazygraph.compile.mode import Mode
>>> x = lt.tensor("float64", (None,))
>>> f = lazygraph.function([x], lt.exp(x) + 1.0, mode=Mode(backend="numba"))
>>> f(np.zeros(3))
array([2., 2., 2.])
"""

from __future__ import annotations

import contextlib
import copy
import functools
import os
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from lazygraph.backends.numba import background, interrupts
from lazygraph.backends.numba import cache as disk
from lazygraph.backends.numba.blocked import Chooser, blocked_runner
from lazygraph.backends.numba.dispatch import (
    Unsupported,
    cached_kernel_source,
    kernel_module_source,
)
from lazygraph.backends.numba.flat import FlatLoop, FlatReduce, flat_loop
from lazygraph.compile.backends import op_label
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.fperrors import collect_hardware, note_unseen, watched
from lazygraph.tensor.reduction import Reduce

__all__ = [
    "PARALLEL_MIN_SIZE",
    "NumbaBackend",
    "NumbaFallbackWarning",
    "compile_stats",
    "thread_count",
]

interrupts.install()  # Ctrl-C during a compile waits for the compile's end


#: Graphs with more nodes run their kernels from a Python loop (about 1 µs per
#: node) instead of one generated function: Numba's compile time of a function
#: grows faster than linearly with the calls it inlines (a 1,000-node graph
#: function takes minutes), while the loop costs no compilation at all.
WHOLE_GRAPH_MAX_NODES = 64


class NumbaFallbackWarning(UserWarning):
    """An Op has no Numba lowering and runs through its python ``perform``."""


_warned: set[str] = set()


class CompileStats:
    """Counters for tests and benchmarks: graphs linked, graph functions
    linked, kernel lookups (node lowerings), nodes run through ``perform``."""

    def __init__(self) -> None:
        self.graphs = 0
        self.graph_functions = 0
        self.kernels = 0
        self.parallel_kernels = 0
        self.fallback_nodes = 0


compile_stats = CompileStats()


def _warn_fallback(node: Apply, why: str) -> None:
    if config.on_unsupported == "raise":
        raise NotImplementedError(f"numba backend: cannot lower {node.op}: {why}")
    # once per Op and reason: argmax of complex values and a float16 sum are two
    label = f"{op_label(node.op)} ({why})"
    if label not in _warned:
        _warned.add(label)
        warnings.warn(
            f"numba backend: no lowering for {label}; running its python perform",
            NumbaFallbackWarning,
            stacklevel=4,
        )


#: the cost model's account of each kernel not compiled yet: [perform calls,
#: perform seconds] by kernel key, summed over every node and graph using it
#: (many graphs each called a few times can repay one kernel)
_costs: dict[Any, list[Any]] = {}


class Kernel:
    """A node's compiled kernel: the serial dispatcher, the hash naming its
    module, and, built on first use, its multithreaded variant and, for an
    elementwise node, the flat loop small inputs run (see :mod:`.flat`).

    With background compilation (see :mod:`.background`), :meth:`ready_for`
    says whether code for the given argument types exists, and queues its
    compile once the node's perform time would repay it."""

    __slots__ = (
        "_cost",
        "_flat",
        "_flat_cost",
        "_on_disk",
        "_parallel",
        "_queued",
        "charged",
        "chooser",
        "fn",
        "foreground",
        "interpreted",
        "key",
        "node",
        "parallel_key",
    )

    def __init__(self, node: Apply, fn: Any, key: str, interpreted: Any = None) -> None:
        self.node = node
        self.fn = fn
        self.key = key
        # a kernel that would only call Python (an ``objmode`` one, see
        # linalg.objmode_source) runs that Python node by node: nothing to
        # compile until a graph function calls ``fn``
        self.interpreted: Callable[..., Sequence[Any]] | None = interpreted
        # a node whose perform is far slower than its compile (a loop Op's
        # perform interprets its body step by step: a 10,000-step scan takes
        # seconds) compiles on the calling thread at its first call, never runs
        # its perform while the kernel compiles in the background
        self.foreground = bool(getattr(node.op, "slow_perform", False))
        self._parallel: background.Slot | None = None
        self.parallel_key: str | None = None
        blocked = blocked_runner(node)
        self.chooser = Chooser(blocked) if blocked is not None else None
        # the cost model's account (calls, perform seconds), shared by every node
        # with this kernel, and the one the last call that ran perform charges
        self._cost = _costs.setdefault(key, [0, 0.0])
        self._flat_cost = _costs.setdefault((key, FlatLoop), [0, 0.0])
        self.charged: list[Any] = self._cost
        self._on_disk: bool | None = None
        self._queued: dict[Any, background.Slot] = {}
        # the flat loop: built on first use; False for a node without one
        flat = isinstance(node.op, (Elemwise, Reduce))
        self._flat: FlatLoop | FlatReduce | bool | None = None if flat else False

    def _flat_loop(self) -> FlatLoop | FlatReduce | None:
        loop = self._flat
        if loop is None:
            loop = self._flat = flat_loop(self.node) or False
        return loop or None  # type: ignore[return-value]

    def call_small(self, values: Sequence[Any]) -> Sequence[Any]:
        """The node's outputs for inputs below :data:`PARALLEL_MIN_SIZE`: the
        flat loop where it takes them, else the serial kernel."""
        loop = self._flat_loop() if self._flat is not False else None
        if loop is not None:
            outs = loop.run(values, config.numba_flat_max_elements)
            if outs is not None:
                return outs
        return (self.interpreted or self.fn)(*values)  # type: ignore[no-any-return]

    def run(self, values: Sequence[Any]) -> Sequence[Any]:
        """The node's outputs: the serial kernel for small inputs; from
        :data:`PARALLEL_MIN_SIZE` elements the multithreaded kernel (when threads
        are allowed); and from :data:`BLOCKED_MIN_SIZE` elements, for a node numpy
        computes in blocks (see :mod:`.blocked`), whichever of that and the
        kernel measured faster."""
        size = _size(values)
        blocked = self.chooser is not None and size >= BLOCKED_MIN_SIZE
        if size >= PARALLEL_MIN_SIZE:
            kernel = self._run_threaded
        elif blocked:
            kernel = self._run_serial
        else:
            return self.call_small(values)
        return self.chooser.run(values, kernel) if blocked else kernel(values)  # type: ignore[union-attr]

    def ready_for(self, values: Sequence[Any]) -> bool | None:
        """Whether the serial kernel has code for these argument types (compiled
        in this process, or in the disk cache). If not, counts the call and,
        once the kernel would repay its compile (the cost model in
        :mod:`.background`), queues the compile: False until then and
        while it is pending, None once it has failed (:attr:`failure`). The
        caller adds the time ``perform`` then takes to :attr:`charged`'s
        seconds."""
        if self.interpreted is not None or self.foreground:
            return True
        loop = self._flat_loop() if self._flat is not False else None
        if loop is not None and loop.prepare(values, config.numba_flat_max_elements):
            return self._flat_ready(loop, values)
        fn = self.fn
        cost = self.charged = self._cost
        counted = not self._queued and not fn.overloads and self._on_disk is False
        if counted:
            # the common case while a node runs perform: no typing, no file look-up
            cost[0] += 1
            if not background.pays(*cost):
                return False
        sig = _arg_types(values)
        if sig in fn.overloads:
            return True
        slot = self._queued.get(sig)
        if slot is None:
            if not background.enabled():
                return True  # compile on this thread
            if self._on_disk is None:
                self._on_disk = disk.has_code(self.key)
            if self._on_disk:
                return True  # a disk cache load is fast
            if not self._queued:
                if not counted:
                    cost[0] += 1
                if not background.pays(*cost):
                    return False
            slot = self._queued[sig] = background.Slot(lambda: self._compile(sig))
        if slot.get() is not None:
            return True
        return None if slot.error is not None else False

    def _flat_ready(self, loop: FlatLoop | FlatReduce, values: Sequence[Any]) -> bool | None:
        """:meth:`ready_for` when ``values`` take the flat loop."""
        if loop.compiled:
            return True
        slot = self._queued.get(FlatLoop)
        if slot is None:
            if not background.enabled() or loop.on_disk:
                return True  # compile on this thread, or a fast disk cache load
            cost = self.charged = self._flat_cost
            cost[0] += 1
            if not background.pays(*cost):
                return False

            def compile_loop() -> bool:
                loop.compile()
                return True

            slot = self._queued[FlatLoop] = background.Slot(compile_loop)
        if slot.get() is not None:
            return True
        return None if slot.error is not None else False

    def _compile(self, sig: tuple[Any, ...]) -> bool:
        self.fn.compile(sig)
        return True

    @property
    def failure(self) -> str | None:
        """Why a background compile of this kernel failed, if one did."""
        for slot in self._queued.values():
            if slot.error is not None:
                return f"its kernel does not compile: {type(slot.error).__name__}"
        return None

    def _run_serial(self, values: Sequence[Any]) -> Sequence[Any]:
        return (self.interpreted or self.fn)(*values)  # type: ignore[no-any-return]

    def _run_threaded(self, values: Sequence[Any]) -> Sequence[Any]:
        if self.interpreted is not None:
            return self.interpreted(*values)
        with _threads() as parallel:
            fn = (self.parallel(values) if parallel else None) or self.fn
            if fn is not self.fn:
                note_unseen()  # its threads' floating-point flags cannot be read
            return fn(*values)  # type: ignore[no-any-return]

    def parallel(self, values: Sequence[Any] = ()) -> Any:
        """The multithreaded dispatcher, or None when the node has none or, with
        background compilation, while it is being built (and compiled for the
        types of ``values``)."""
        if self._parallel is None:
            sig = _arg_types(values)
            self._parallel = background.Slot(lambda: self._build_parallel(sig))
        return self._parallel.get()

    def _build_parallel(self, sig: tuple[Any, ...]) -> Any:
        try:
            source = kernel_module_source(self.node, parallel=True)
        except Unsupported:
            raise _NoParallel from None
        key = disk.source_hash(source)
        fn = disk.load_source(source).kernel
        if background.enabled() and sig:
            fn.compile(sig)
        self.parallel_key = key
        compile_stats.parallel_kernels += 1
        return fn


class _NoParallel(Exception):
    """The node has no multithreaded kernel."""


def _arg_types(values: Sequence[Any]) -> tuple[Any, ...]:
    """The Numba types a dispatcher gives these arguments (its overloads' keys)."""
    from numba.core.typing.typeof import Purpose, typeof

    return tuple(typeof(v, Purpose.argument) for v in values)


def _kernel_for(node: Apply) -> Kernel | None:
    """The node's :class:`Kernel`, or None when it has no lowering."""
    try:
        source = cached_kernel_source(node)
    except Unsupported as exc:
        _warn_fallback(node, str(exc))
        return None
    module = disk.load_source(source)
    compile_stats.kernels += 1
    interpreted = getattr(module, "interpreted", None)
    if interpreted is None and isinstance(node.op, numpy_ops()) and config.numba_prefer_numpy:
        interpreted = _numpy_of(node)
    return Kernel(node, module.kernel, disk.source_hash(source), interpreted)


@functools.cache
def numpy_ops() -> tuple[type, ...]:
    """Ops whose nodes numpy computes at least as fast as a kernel: the
    kernel-by-kernel loop runs them with numpy (their ``perform``, the reference
    every lowering is checked against), and only a graph function, which calls
    kernels alone, compiles their kernels (``config.numba_prefer_numpy = False``
    compiles them always). Compiling one costs 0.1-0.5 s per dtype and rank,
    a fifth of the op table's compile time.

    - Views, copies and fills (reshape, transpose, slicing, concatenate,
      arange, eye): a view costs numpy nothing, a copy or a fill runs at memory
      speed.
    - Sorts, searches and indexing with integer arrays: numpy's SIMD sorts,
      its binary search and its gathers and scatters beat the kernels from
      10,000 elements (float64, one thread, -O3: ``sort`` 1.8x, ``argsort``
      1.5x, ``searchsorted`` 3.1x, ``x[i]`` and ``take`` 5x, ``x[i] = y`` and
      ``x[i] += y`` 3x), and trail them by about 1 µs on 100 elements.
    """
    from lazygraph.tensor.advanced_subtensor import AdvancedIncSubtensor, AdvancedSubtensor, Take
    from lazygraph.tensor.blas import AllocDiag, ExtractDiag
    from lazygraph.tensor.broadcast import Alloc, BroadcastSize
    from lazygraph.tensor.creation import ARange, ARangeLength, Eye, Linspace, Tri
    from lazygraph.tensor.dimshuffle import DimShuffle
    from lazygraph.tensor.indexing import SliceLength
    from lazygraph.tensor.join import Join, Split
    from lazygraph.tensor.search import Nonzero, SearchSorted
    from lazygraph.tensor.shape import MakeVector, Reshape, Shape, Shape_i, SpecifyShape
    from lazygraph.tensor.sort import ArgSort, Sort, Unique
    from lazygraph.tensor.structure import Flip
    from lazygraph.tensor.subtensor import Subtensor

    return (
        DimShuffle,
        Reshape,
        Shape,
        Shape_i,
        MakeVector,
        SpecifyShape,
        Alloc,
        BroadcastSize,
        Subtensor,
        SliceLength,
        Join,
        Split,
        Flip,
        ExtractDiag,
        AllocDiag,
        ARange,
        ARangeLength,
        Linspace,
        Eye,
        Tri,
        Sort,
        ArgSort,
        Unique,
        SearchSorted,
        Nonzero,
        AdvancedSubtensor,
        AdvancedIncSubtensor,
        Take,
    )


def _numpy_of(node: Apply) -> Callable[..., Sequence[Any]]:
    """``node``'s outputs from its Op's ``perform``, as a kernel returns them."""
    perform = node.op.perform
    outputs = node.outputs
    if len(outputs) == 1:  # the common case, with as little around perform as can be
        (var,) = outputs

        def interpreted_one(*values: Any) -> tuple[Any]:
            cell: list[Any] = [None]
            perform(node, values, (cell,))
            out = cell[0]
            return (out if type(out) is np.ndarray else _as_array(out, var),)

        return interpreted_one

    def interpreted(*values: Any) -> list[Any]:
        cells: list[list[Any]] = [[None] for _ in outputs]
        perform(node, values, cells)
        return [_as_array(c[0], o) for c, o in zip(cells, outputs, strict=True)]

    return interpreted


def dead_after(
    steps: Sequence[tuple[Sequence[int], Sequence[int]]], kept: set[int]
) -> list[list[int]]:
    """For each step (the value slots it reads and writes), the slots no later
    step reads, to drop once it has run: intermediate arrays are freed as soon
    as they are dead, as numpy code frees its temporaries, instead of all at the
    end of a call. A call's peak memory is then its live values only, and the
    allocator hands the freed buffers to the next nodes (still in cache), where
    holding them all made every call fault in fresh pages (a Game of Life step's
    eleven 250 KB rolls: 110 -> 30 us each). ``kept``: the graph's outputs.

    >>> dead_after([([0], [1]), ([1], [2]), ([1, 2], [3])], {3})
    [[0], [], [1, 2]]
    """
    last: dict[int, int] = {}
    for k, (ins, outs) in enumerate(steps):
        for slot in outs:
            last.setdefault(slot, k)  # written and never read: dead at once
        for slot in ins:
            last[slot] = k
    free: list[list[int]] = [[] for _ in steps]
    for slot, k in last.items():
        if slot not in kept:
            free[k].append(slot)
    return free


def _constant_value(c: Constant) -> np.ndarray:
    value = np.asarray(c.data)
    if not value.flags.writeable or not value.flags.c_contiguous:
        value = np.array(value, order="C", copy=True)
    return value


# -- threads ------------------------------------------------------------------

# GNU OpenMP (Numba's "omp" threading layer) keeps idle workers spinning for
# 300,000 iterations after a parallel loop. When every core is in use, that
# spinning takes the cores OpenBLAS's threads need for the next matrix product:
# the benchmark's MLP step (2 cores, 2 BLAS threads) took 8.0 ms with it and
# 2.2 ms with a spin of 1,000. Read when libgomp loads (at the first
# multithreaded kernel); a value the user set wins.
os.environ.setdefault("GOMP_SPINCOUNT", "1000")

#: inputs of at least this many elements may run a node's blocked numpy
#: evaluation (see :mod:`.blocked`), when calls measure it faster than the kernel
#: (a 1000x64 float64 ``tanh``: 0.1 ms in numpy, 0.5 ms in the kernel)
BLOCKED_MIN_SIZE = 1 << 14

#: inputs of at least this many elements run a node's multithreaded kernel
#: (when it has one and more than one thread is allowed); below it, starting
#: the threads costs more than they save
PARALLEL_MIN_SIZE = 1 << 17

# Numba's default threading layer (workqueue) must not be entered by two
# Python threads at once. Whoever holds this gate runs multithreaded kernels;
# a thread that finds it taken runs the serial kernels instead of waiting.
_parallel_gate = threading.Lock()


def thread_count() -> int:
    """Threads a multithreaded kernel may use: ``config.num_threads``
    (``LAZYGRAPH_NUM_THREADS``), or when it is 0 all of Numba's but one, which
    stays free for the Python thread's own work (recording, numpy's calls,
    the background compiles): a parallel loop waits for its slowest thread,
    and one that shares its core ran 3-5x slower than the serial loop on a
    busy 2-core machine (benchmarks/dropin.py's image filters and stencils).
    Two cores therefore run serial kernels unless asked for threads."""
    import numba

    wanted = config.num_threads
    cores = numba.config.NUMBA_NUM_THREADS
    return min(wanted, cores) if wanted > 0 else max(1, cores - 1)


def _size(values: Sequence[Any]) -> int:
    """The largest number of elements among ``values``."""
    # a plain loop: this runs on every call
    largest = 0
    for v in values:
        n = getattr(v, "size", 0)
        if n > largest:
            largest = n
    return largest


def _large(values: Sequence[Any]) -> bool:
    # a plain loop: this runs on every call, and any() over a generator costs more
    for v in values:  # noqa: SIM110
        if getattr(v, "size", 0) >= PARALLEL_MIN_SIZE:
            return True
    return False


@contextlib.contextmanager
def _threads() -> Iterator[bool]:
    """Yields whether this call may run multithreaded kernels (and holds the
    gate while it does)."""
    n = thread_count()
    if n <= 1 or not _parallel_gate.acquire(blocking=False):
        yield False
        return
    try:
        import numba

        # numba's thread count belongs to the calling thread, which the user's
        # own parallel numba code shares: put theirs back afterwards
        previous = numba.get_num_threads()
        if previous != n:
            numba.set_num_threads(n)
        try:
            yield True
        finally:
            if previous != n:
                numba.set_num_threads(previous)
    finally:
        _parallel_gate.release()


class NumbaBackend:
    """Compiles graphs to Numba (see the module docstring)."""

    name = "numba"

    def compile(self, fgraph: FunctionGraph) -> Callable[..., Sequence[Any]]:
        compile_stats.graphs += 1
        nodes = fgraph.toposort()
        kernels = [_kernel_for(node) for node in nodes]
        runner = _node_by_node(fgraph, nodes, kernels)
        if len(nodes) == 1 and kernels[0] is not None:
            return _single_node(fgraph, nodes[0], kernels[0], runner)
        if 1 < len(nodes) <= WHOLE_GRAPH_MAX_NODES and all(k is not None for k in kernels):
            from lazygraph.backends.numba.graph_function import Tiered

            return Tiered(runner, fgraph, nodes, kernels)  # type: ignore[arg-type]
        return runner

    def lowers(self, node: Apply) -> str | None:
        """The capability query (see :func:`lazygraph.compile.backends.lowering_of`):
        None when a compiled kernel runs ``node``, else why its ``perform``
        runs (numpy's function is at least as fast, or there is no lowering).
        Generates the kernel's source, compiles nothing."""
        if isinstance(node.op, numpy_ops()) and config.numba_prefer_numpy:
            return "numpy's own function runs it: at least as fast as a kernel (numpy_ops)"
        try:
            kernel_module_source(node)
        except Unsupported as exc:
            return str(exc)
        return None

    def compile_profiled(
        self, fgraph: FunctionGraph, rows: Sequence[Any]
    ) -> Callable[..., Sequence[Any]]:
        """``fgraph`` run kernel by kernel (never one graph function), each
        node's time added to its row of ``rows`` (one per node of
        ``fgraph.toposort()``, with ``seconds`` and ``calls``): what
        ``lazygraph.function(..., profile=True)`` shows per node. A node's first
        call includes compiling its kernel."""
        compile_stats.graphs += 1
        nodes = fgraph.toposort()
        kernels = [_kernel_for(node) for node in nodes]
        return _node_by_node(fgraph, nodes, kernels, rows)


def _single_node(
    fgraph: FunctionGraph,
    node: Apply,
    kernel: Kernel,
    runner: Callable[..., list[Any]],
) -> Callable[..., Sequence[Any]]:
    """One node whose inputs are the graph's inputs in order: call its kernel
    directly (no graph function to compile)."""
    if list(fgraph.outputs) != list(node.outputs) or list(node.inputs) != list(fgraph.inputs):
        return runner
    blocked = kernel.chooser is not None
    numba_error = _numba_errors()
    fallback: list[Callable[..., Sequence[Any]]] = []
    checking = runner.checking  # type: ignore[attr-defined]

    def run_direct(*args: Any) -> list[Any]:
        if fallback:
            return list(fallback[0](*args))
        if checking[0]:
            return runner(*args)  # the kernel is compiling in the background
        try:
            # the per-call fast path: a node without a blocked form and small inputs
            results = kernel.run(args) if blocked or _large(args) else kernel.call_small(args)
        except SystemError as exc:
            raise _interrupted(exc) from None
        except numba_error:
            fallback.append(_node_by_node(fgraph, [node], [None]))
            _warn_fallback(node, "its kernel does not compile for these inputs")
            return list(fallback[0](*args))
        return list(results)

    return run_direct


def _as_array(value: Any, var: Variable) -> Any:
    """A ``perform`` result as the kernels after it take it: a scalar (a user
    Op's ``perform`` may store ``a + 1j * b`` of 0-d arrays, a numpy scalar) as a
    0-d array of its variable's dtype."""
    dtype = getattr(var.type, "dtype", None)
    if dtype is None or isinstance(value, np.ndarray):
        return value
    if isinstance(value, (np.generic, bool, int, float, complex)):
        return np.asarray(value, dtype=dtype)
    return value


def _numba_errors() -> tuple[type[BaseException], ...]:
    from numba.core.errors import NumbaError

    return (NumbaError,)


def _interrupted(exc: SystemError) -> BaseException:
    """A Ctrl-C that landed in a Python helper a kernel called (Numba unpickles
    an exception's arguments with one) reaches us as ``SystemError: ... returned
    a result with an exception set``; the user gets the ``KeyboardInterrupt``."""
    cause = exc.__cause__ or exc.__context__
    return cause if isinstance(cause, KeyboardInterrupt) else exc


def _node_by_node(
    fgraph: FunctionGraph,
    nodes: list[Apply],
    kernels: list[Kernel | None],
    rows: Sequence[Any] | None = None,
) -> Callable[..., list[Any]]:
    """Runs the nodes in order from Python: each node's kernel (its
    multithreaded one for large inputs), or its ``perform`` when it has none.
    ``rows`` (one per node): each node's run time is added to its row's
    ``seconds`` and ``calls``."""
    index: dict[Variable, int] = {v: k for k, v in enumerate(fgraph.variables)}
    template: list[Any] = [None] * len(index)
    for v, k in index.items():
        if isinstance(v, Constant):
            template[k] = _constant_value(v)
    input_slots = [index[v] for v in fgraph.inputs]
    output_slots = [index[v] for v in fgraph.outputs]
    copy_output = [v.owner is None for v in fgraph.outputs]
    steps: list[list[Any]] = []
    for k, (node, kernel) in enumerate(zip(nodes, kernels, strict=True)):
        ins = [index[v] for v in node.inputs]
        outs = [index[v] for v in node.outputs]
        if kernel is None:
            compile_stats.fallback_nodes += 1
        steps.append([node, kernel, ins, outs, None if rows is None else rows[k]])
    dead = dead_after([(step[2], step[3]) for step in steps], set(output_slots))
    numba_error = _numba_errors()
    # True while some kernel may lack code for its arguments (background
    # compilation): each call then checks argument types before calling a
    # kernel, so that none compiles on this thread; the first call that finds
    # every kernel ready ends it
    checking = [background.enabled() and any(k is not None for k in kernels)]

    def run(*args: Any) -> list[Any]:
        values = list(template)
        for slot, value in zip(input_slots, args, strict=True):
            values[slot] = value
        check = checking[0]
        flags = watched()  # a watcher wants each kernel's floating-point flags
        complete = True
        for step, free in zip(steps, dead, strict=True):
            node, kernel, ins, outs, row = step
            if row is not None:
                start = time.perf_counter()
            in_values = [values[i] for i in ins]
            charged = None
            if check and kernel is not None:
                ready = kernel.ready_for(in_values)
                if not ready:
                    complete = False
                    if ready is None:
                        _warn_fallback(node, kernel.failure or "its kernel does not compile")
                        step[1] = None
                    else:
                        charged = kernel.charged
                        started = time.perf_counter()
                    kernel = None
            if kernel is not None:
                try:
                    # the common case inline: no blocked form, small inputs
                    if kernel.chooser is None and not _large(in_values):
                        results = kernel.call_small(in_values)
                    else:
                        results = kernel.run(in_values)
                except SystemError as exc:
                    raise _interrupted(exc) from None
                except numba_error as exc:
                    _warn_fallback(node, f"its kernel does not compile: {type(exc).__name__}")
                    step[1] = None
                    kernel = None
                if flags:  # (before a numpy ufunc call clears them)
                    collect_hardware()
            if kernel is None:
                results = _numpy_of(node)(*in_values)
                if charged is not None:  # the cost model: what the kernel could save
                    charged[1] += time.perf_counter() - started
            for slot, value in zip(outs, results, strict=True):
                values[slot] = value
            for slot in free:  # read by no later node: its memory goes back now
                values[slot] = None
            if row is not None:
                row.seconds += time.perf_counter() - start
                row.calls += 1
        if check and complete:
            checking[0] = False
        return [
            copy.copy(values[s]) if dup else values[s]
            for s, dup in zip(output_slots, copy_output, strict=True)
        ]

    run.checking = checking  # type: ignore[attr-defined]
    return run

"""The graph function: one compiled Numba function calling every node's kernel
in turn, for a graph called often enough that the Python loop over its kernels
(a microsecond or two per node and call) costs more than compiling it once.

:class:`Tiered` runs a graph kernel by kernel and decides, by the ski-rental
rule, when to build its graph function (:func:`whole_graph`); see
:mod:`lazygraph.backends.numba.linker` for the kernels and the loop.

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> from lazygraph.compile.mode import Mode
>>> x = lt.tensor("float64", (None,))
>>> with lazygraph.config.change(numba_graph_after=0):
...     f = lazygraph.function([x], lt.exp(x) * 2.0 + 1.0, mode=Mode(backend="numba"))
>>> f(np.zeros(3))
array([3., 3., 3.])
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from lazygraph.backends.numba import background
from lazygraph.backends.numba import cache as disk
from lazygraph.backends.numba.dispatch import HEADER, JIT, Unsupported
from lazygraph.backends.numba.linker import (
    Kernel,
    _arg_types,
    _constant_value,
    _interrupted,
    _large,
    _numba_errors,
    _threads,
    compile_stats,
)
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph

__all__ = ["LOOP_COST_PER_NODE", "PROMOTE_GAIN", "Tiered", "whole_graph"]


#: what the Python loop costs per node and call (measured: 1 to 2 µs), the
#: most a graph function can save
LOOP_COST_PER_NODE = 2e-6
#: a graph function is built only when it would save at least this fraction
#: of the time a call takes
PROMOTE_GAIN = 0.05


class Tiered:
    """Runs a graph kernel by kernel, timing its calls. At call
    ``config.numba_graph_after + 1`` at the earliest it compiles the whole
    graph into one function, if that pays: once the loop's cost so far
    (:data:`LOOP_COST_PER_NODE` per node and call) has reached the price of a
    compile, when it is at least :data:`PROMOTE_GAIN` of the mean call. A graph
    called a few times (interactive work, tests) never pays for a graph
    function, nor does one whose kernels dominate (large arrays); a hot graph
    of small arrays gets one. ``numba_graph_after = 0`` builds it at the first
    call, unconditionally. Calls made while kernels are still compiling in the
    background do not count, and with background compilation the graph
    function is compiled there too (the loop runs until it is ready)."""

    __slots__ = (
        "_calls",
        "_elapsed",
        "_fgraph",
        "_kernels",
        "_loop",
        "_nodes",
        "_promotion",
        "_run",
    )

    def __init__(
        self,
        runner: Callable[..., list[Any]],
        fgraph: FunctionGraph,
        nodes: list[Apply],
        kernels: list[Kernel],
    ) -> None:
        self._run = self._loop = runner
        self._fgraph: FunctionGraph | None = fgraph
        self._nodes = nodes
        self._kernels = kernels
        self._calls = 0
        self._elapsed = 0.0
        self._promotion: background.Slot | None = None

    def __call__(self, *args: Any) -> list[Any]:
        if self._fgraph is None:
            if self._promotion is not None:
                self._adopt()
            return self._run(*args)
        if self._loop.checking[0]:  # type: ignore[attr-defined]
            return self._run(*args)  # kernels still compiling: the call says nothing
        self._calls += 1
        if self._calls > config.numba_graph_after and self._repaid():
            self._promote(args)
            return self._run(*args)
        if self._calls == 1:  # compiles the kernels: says nothing about the loop
            return self._run(*args)
        start = time.perf_counter()
        results = self._run(*args)
        self._elapsed += time.perf_counter() - start
        return results

    def _repaid(self) -> bool:
        """The ski-rental rule for the graph function: the loop's cost so far
        (what the graph function would have saved) has reached the price of a
        compile (:func:`.background.compile_seconds`)."""
        timed = self._calls - 2
        if config.numba_graph_after == 0 or timed <= 0:
            return True
        return timed * len(self._nodes) * LOOP_COST_PER_NODE >= background.compile_seconds()

    def _promote(self, args: tuple[Any, ...]) -> None:
        fgraph, self._fgraph = self._fgraph, None  # one thread decides
        if fgraph is None:
            return
        timed = self._calls - 2
        if any(k.chooser is not None and k.chooser.choice == "blocked" for k in self._kernels):
            return  # a graph function cannot call numpy: the loop keeps the blocked nodes
        if config.numba_graph_after > 0 and timed > 0:
            saving = len(self._nodes) * LOOP_COST_PER_NODE
            if saving < PROMOTE_GAIN * self._elapsed / timed:
                return  # the kernels dominate: the loop stays
        if background.enabled():
            sig = _arg_types(args)
            self._promotion = background.Slot(
                lambda: whole_graph(fgraph, self._nodes, self._kernels, self._loop, sig)
            )
            self._adopt()
            return
        try:
            self._run = whole_graph(fgraph, self._nodes, self._kernels, self._loop)
        except Unsupported:
            pass
        except BaseException:
            self._fgraph = fgraph  # interrupted: decide again on a later call
            raise

    def _adopt(self) -> None:
        """Switch to the graph function once the background compile built it."""
        promotion = self._promotion
        if promotion is None:
            return
        fn = promotion.get()
        if fn is not None:
            self._run = fn
        if fn is not None or promotion.error is not None:
            self._promotion = None


def _names(fgraph: FunctionGraph) -> tuple[dict[Variable, str], list[Constant]]:
    names: dict[Variable, str] = {}
    for k, v in enumerate(fgraph.inputs):
        names[v] = f"a{k}"
    constants: list[Constant] = []
    for v in fgraph.variables:
        if isinstance(v, Constant) and v not in names:
            names[v] = f"c{len(constants)}"
            constants.append(v)
    return names, constants


def _graph_source(
    fgraph: FunctionGraph, nodes: list[Apply], keys: list[str]
) -> tuple[str, list[Constant]]:
    """The module source of the graph function calling the kernels named by
    ``keys`` (one per node, in toposort order), and its constants."""
    names, constants = _names(fgraph)
    lines = [HEADER, "from lazygraph.backends.numba.cache import loaded_module", ""]
    kernel_names: dict[str, str] = {}
    for key in keys:
        if key not in kernel_names:
            kernel_names[key] = f"k{len(kernel_names)}"
            lines.append(f'{kernel_names[key]} = loaded_module("{key}").kernel')
    body = []
    counter = 0
    for node, key in zip(nodes, keys, strict=True):
        outs = []
        for o in node.outputs:
            names[o] = f"v{counter}"
            counter += 1
            outs.append(names[o])
        args = ", ".join(names[v] for v in node.inputs)
        body.append(f"    {', '.join(outs)}, = {kernel_names[key]}({args})")
    results = []
    for o in fgraph.outputs:
        results.append(f"{names[o]}.copy()" if o.owner is None else names[o])
    params = [f"a{k}" for k in range(len(fgraph.inputs))] + [f"c{k}" for k in range(len(constants))]
    lines += ["", "", JIT, f"def graph({', '.join(params)}):", *body]
    lines.append(f"    return ({', '.join(results)},)")
    return "\n".join(lines) + "\n", constants


def whole_graph(
    fgraph: FunctionGraph,
    nodes: list[Apply],
    kernels: list[Kernel],
    runner: Callable[..., list[Any]],
    sig: tuple[Any, ...] | None = None,
) -> Callable[..., list[Any]]:
    """One compiled function calling every node's kernel; for large inputs a
    second one (built on first need) calling the multithreaded kernels where
    nodes have them. Falls back to ``runner`` (kernel by kernel) for inputs a
    kernel does not type for. With ``sig`` (the argument types; background
    compilation), the function is compiled for them here."""
    source, constants = _graph_source(fgraph, nodes, [k.key for k in kernels])
    graph_fn = disk.load_source(source).graph
    compile_stats.graph_functions += 1
    const_values = tuple(_constant_value(c) for c in constants)
    if sig is not None:
        graph_fn.compile(sig + _arg_types(const_values))
    parallel_slot: list[background.Slot] = []
    failed: list[bool] = []
    numba_error = _numba_errors()

    def build_parallel_graph(types: tuple[Any, ...]) -> Any:
        keys = [k.key if k.parallel() is None else k.parallel_key for k in kernels]
        if keys == [k.key for k in kernels]:
            return None  # no node has a multithreaded kernel
        src, _ = _graph_source(fgraph, nodes, keys)  # type: ignore[arg-type]
        fn = disk.load_source(src).graph
        compile_stats.graph_functions += 1
        if background.enabled():
            fn.compile(types + _arg_types(const_values))
        return fn

    def parallel_graph(args: tuple[Any, ...]) -> Any:
        if not parallel_slot:
            types = _arg_types(args)
            parallel_slot.append(background.Slot(lambda: build_parallel_graph(types)))
        return parallel_slot[0].get()

    def run(*args: Any) -> list[Any]:
        if failed:
            return runner(*args)
        try:
            if _large(args):
                with _threads() as parallel:
                    fn = (parallel_graph(args) if parallel else None) or graph_fn
                    results = fn(*args, *const_values)
            else:
                results = graph_fn(*args, *const_values)
        except SystemError as exc:
            raise _interrupted(exc) from None
        except numba_error:
            # a kernel that does not type for these inputs: run node by node
            failed.append(True)
            return runner(*args)
        return list(results)

    return run

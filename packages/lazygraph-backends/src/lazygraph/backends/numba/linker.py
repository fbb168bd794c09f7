"""The Numba linker: a rewritten ``FunctionGraph`` becomes one callable.

When every node has a lowering (and the graph has at most
:data:`WHOLE_GRAPH_MAX_NODES` nodes), the linker generates one ``njit`` function
that calls each node's kernel in toposort order and returns the outputs, so a
call costs one Numba dispatch. Its source names kernels by content hash and
never mentions sizes, so graphs of the same structure share it (and its disk
cache entry). When some node has no lowering, the linker runs the nodes one
by one instead: compiled kernels for the lowered ones, ``Op.perform`` for the
others, with a one-time :class:`NumbaFallbackWarning` naming each such Op
(``config.on_unsupported = "raise"`` raises instead).

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> from lazygraph.compile.mode import Mode
>>> x = lt.tensor("float64", (None,))
>>> f = lazygraph.function([x], lt.exp(x) + 1.0, mode=Mode(backend="numba"))
>>> f(np.zeros(3))
array([2., 2., 2.])
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from lazygraph.backends.numba import cache as disk
from lazygraph.backends.numba.dispatch import HEADER, JIT, Unsupported, kernel_module_source
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph

__all__ = ["NumbaBackend", "NumbaFallbackWarning", "compile_stats"]


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
        self.fallback_nodes = 0


compile_stats = CompileStats()


def _op_label(op: Any) -> str:
    label = type(op).__name__
    scalar = getattr(op, "scalar_op", None)
    if scalar is not None:
        label += f"{{{getattr(scalar, 'name', scalar)}}}"
    return label


def _warn_fallback(node: Apply, why: str) -> None:
    if config.on_unsupported == "raise":
        raise NotImplementedError(f"numba backend: cannot lower {node.op}: {why}")
    label = _op_label(node.op)
    if label not in _warned:
        _warned.add(label)
        warnings.warn(
            f"numba backend: no lowering for {label} ({why}); running its python perform",
            NumbaFallbackWarning,
            stacklevel=4,
        )


def _kernel_for(node: Apply) -> tuple[Any, str] | None:
    """(kernel dispatcher, module hash) for ``node``, or None when unsupported."""
    try:
        source = kernel_module_source(node)
    except Unsupported as exc:
        _warn_fallback(node, str(exc))
        return None
    module = disk.load_source(source)
    compile_stats.kernels += 1
    return module.kernel, disk.source_hash(source)


def _constant_value(c: Constant) -> np.ndarray:
    value = np.asarray(c.data)
    if not value.flags.writeable or not value.flags.c_contiguous:
        value = np.array(value, order="C", copy=True)
    return value


class NumbaBackend:
    """Compiles graphs to Numba (see the module docstring)."""

    name = "numba"

    def compile(self, fgraph: FunctionGraph) -> Callable[..., Sequence[Any]]:
        compile_stats.graphs += 1
        nodes = fgraph.toposort()
        kernels: list[tuple[Any, str] | None] = [_kernel_for(node) for node in nodes]
        if len(nodes) == 1 and kernels[0] is not None:
            return _single_node(fgraph, nodes[0], kernels[0])
        if 1 < len(nodes) <= WHOLE_GRAPH_MAX_NODES and all(k is not None for k in kernels):
            try:
                return _whole_graph(fgraph, nodes, kernels)  # type: ignore[arg-type]
            except Unsupported:
                pass
        return _node_by_node(fgraph, nodes, kernels)


def _single_node(
    fgraph: FunctionGraph, node: Apply, kernel: tuple[Any, str]
) -> Callable[..., Sequence[Any]]:
    """One node: call its kernel directly (no graph function to compile)."""
    if [o for o in fgraph.outputs] != list(node.outputs):
        return _node_by_node(fgraph, [node], [kernel])
    slots = []
    for v in node.inputs:
        if isinstance(v, Constant):
            slots.append((False, _constant_value(v)))
        else:
            slots.append((True, fgraph.inputs.index(v)))
    if all(is_input for is_input, _ in slots) and [s for _, s in slots] == list(
        range(len(fgraph.inputs))
    ):
        fn = kernel[0]
        numba_error = _numba_errors()
        fallback: list[Callable[..., Sequence[Any]]] = []

        def run_direct(*args: Any) -> list[Any]:
            if fallback:
                return list(fallback[0](*args))
            try:
                results = fn(*args)
            except numba_error:
                fallback.append(_node_by_node(fgraph, [node], [None]))
                _warn_fallback(node, "its kernel does not compile for these inputs")
                return list(fallback[0](*args))
            if disk.pending:
                disk.flush_pending()
            return list(results)

        return run_direct
    return _node_by_node(fgraph, [node], [kernel])


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


def _whole_graph(
    fgraph: FunctionGraph, nodes: list[Apply], kernels: list[tuple[Any, str]]
) -> Callable[..., Sequence[Any]]:
    names, constants = _names(fgraph)
    lines = [HEADER, "from lazygraph.backends.numba.cache import loaded_module", ""]
    kernel_names: dict[str, str] = {}
    for _, key in kernels:
        if key not in kernel_names:
            kernel_names[key] = f"k{len(kernel_names)}"
            lines.append(f'{kernel_names[key]} = loaded_module("{key}").kernel')
    body = []
    counter = 0
    for node, (_, key) in zip(nodes, kernels, strict=True):
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
    source = "\n".join(lines) + "\n"
    module = disk.load_source(source)
    compile_stats.graph_functions += 1
    graph_fn = module.graph
    const_values = tuple(_constant_value(c) for c in constants)
    fallback: list[Callable[..., Sequence[Any]]] = []
    numba_error = _numba_errors()

    def run(*args: Any) -> list[Any]:
        if fallback:
            return list(fallback[0](*args))
        try:
            results = graph_fn(*args, *const_values)
        except numba_error:
            # a kernel that does not type for these inputs: run node by node
            fallback.append(_node_by_node(fgraph, nodes, list(kernels)))
            return list(fallback[0](*args))
        if disk.pending:
            disk.flush_pending()
        return list(results)

    return run


def _numba_errors() -> tuple[type[BaseException], ...]:
    from numba.core.errors import NumbaError

    return (NumbaError,)


def _node_by_node(
    fgraph: FunctionGraph, nodes: list[Apply], kernels: list[tuple[Any, str] | None]
) -> Callable[..., Sequence[Any]]:
    index: dict[Variable, int] = {v: k for k, v in enumerate(fgraph.variables)}
    template: list[Any] = [None] * len(index)
    for v, k in index.items():
        if isinstance(v, Constant):
            template[k] = _constant_value(v)
    input_slots = [index[v] for v in fgraph.inputs]
    output_slots = [index[v] for v in fgraph.outputs]
    copy_output = [v.owner is None for v in fgraph.outputs]
    steps: list[list[Any]] = []
    for node, kernel in zip(nodes, kernels, strict=True):
        ins = [index[v] for v in node.inputs]
        outs = [index[v] for v in node.outputs]
        if kernel is None:
            compile_stats.fallback_nodes += 1
        steps.append([node, None if kernel is None else kernel[0], ins, outs])

    def run(*args: Any) -> list[Any]:
        values = list(template)
        for slot, value in zip(input_slots, args, strict=True):
            values[slot] = value
        for step in steps:
            node, kernel, ins, outs = step
            in_values = [values[i] for i in ins]
            if kernel is not None:
                try:
                    results = kernel(*in_values)
                except _numba_errors() as exc:
                    _warn_fallback(node, f"its kernel does not compile: {type(exc).__name__}")
                    step[1] = None
                    kernel = None
            if kernel is None:
                cells: list[list[Any]] = [[None] for _ in outs]
                node.op.perform(node, in_values, cells)
                results = [c[0] for c in cells]
            for slot, value in zip(outs, results, strict=True):
                values[slot] = value
        if disk.pending:
            disk.flush_pending()
        return [
            copy.copy(values[s]) if dup else values[s]
            for s, dup in zip(output_slots, copy_output, strict=True)
        ]

    return run

"""The reference backend: runs every node's ``Op.perform`` (numpy) in toposort order.

A call runs in a *frame*: one storage cell per variable, and the node thunks
bound to those cells. A compiled function keeps a pool of frames; a call takes
one (or builds one when every frame is in use) and puts it back when done, so
calls from several threads at once, or a call made from inside another call,
each have their own cells, with no lock. Ops may write into the buffers the
frame's previous call left in its cells. Graph outputs, and every buffer an
output may be a view of (``view_map`` / ``destroy_map`` chains), are forgotten
after each call, so a later call never overwrites a result the caller holds.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from lazygraph.compile.backends import register_backend
from lazygraph.graph.basic import Constant, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.graph.traversal import view_roots

__all__ = ["PythonBackend"]

# A frame: (input cells, output cells, thunks, cells to empty after a call).
_Frame = tuple[
    list[list[Any]],
    list[list[Any]],
    list[tuple[Any, Any, list[list[Any]], list[list[Any]]]],
    list[list[Any]],
]


class PythonBackend:
    name = "python"

    def compile(self, fgraph: FunctionGraph) -> Callable[..., Sequence[Any]]:
        nodes = fgraph.toposort()
        variables = list(fgraph.variables)
        constants = [(v, v.data) for v in variables if isinstance(v, Constant)]
        # Outputs that are inputs or constants are copied so the caller never
        # aliases (or tries to write into) an argument or a read-only constant.
        copy_output = [v.owner is None for v in fgraph.outputs]
        # Cells to empty after a call: the inputs (do not keep the caller's data
        # alive) and every buffer a returned output may alias.
        released: dict[Variable, None] = dict.fromkeys(fgraph.inputs)
        for out in fgraph.outputs:
            for root in view_roots(out):
                if not isinstance(root, Constant):
                    released[root] = None
            if out.owner is not None:
                released[out] = None

        def new_frame() -> _Frame:
            storage: dict[Variable, list[Any]] = {v: [None] for v in variables}
            for v, data in constants:
                storage[v][0] = data
            thunks = [
                (
                    node.op.perform,
                    node,
                    [storage[v] for v in node.inputs],
                    [storage[v] for v in node.outputs],
                )
                for node in nodes
            ]
            return (
                [storage[v] for v in fgraph.inputs],
                [storage[v] for v in fgraph.outputs],
                thunks,
                [storage[v] for v in released],
            )

        # Frames not in use. list.pop and list.append are atomic, so taking and
        # returning a frame needs no lock (a frame lost to an interrupt landing
        # between them is only garbage: the pool builds another).
        pool: list[_Frame] = [new_frame()]

        def run(*args: Any) -> list[Any]:
            try:
                frame = pool.pop()
            except IndexError:  # every frame is in use: another thread, or a nested call
                frame = new_frame()
            input_cells, output_cells, thunks, release_cells = frame
            try:
                for cell, value in zip(input_cells, args, strict=True):
                    cell[0] = value
                for perform, node, in_cells, out_cells in thunks:
                    perform(node, [c[0] for c in in_cells], out_cells)
                results = [
                    copy.copy(cell[0]) if dup else cell[0]
                    for cell, dup in zip(output_cells, copy_output, strict=True)
                ]
            finally:
                for cell in release_cells:
                    cell[0] = None
                pool.append(frame)
            return results

        return run


register_backend(PythonBackend())

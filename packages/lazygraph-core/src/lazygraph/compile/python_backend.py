"""The reference backend: runs every node's ``Op.perform`` (numpy) in toposort order.

Storage cells are allocated once per compiled function and reused across calls,
so ops may write into the buffers of the previous call. Graph outputs, and every
buffer an output may be a view of (``view_map`` / ``destroy_map`` chains), are
forgotten after each call, so a later call never overwrites a result the caller
holds.
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


class PythonBackend:
    name = "python"

    def compile(self, fgraph: FunctionGraph) -> Callable[..., Sequence[Any]]:
        storage: dict[Variable, list[Any]] = {v: [None] for v in fgraph.variables}
        for v in fgraph.variables:
            if isinstance(v, Constant):
                storage[v][0] = v.data
        input_cells = [storage[v] for v in fgraph.inputs]
        output_cells = [storage[v] for v in fgraph.outputs]
        # Outputs that are inputs or constants are copied so the caller never
        # aliases (or tries to write into) an argument or a read-only constant.
        copy_output = [v.owner is None for v in fgraph.outputs]
        thunks = [
            (
                node.op.perform,
                node,
                [storage[v] for v in node.inputs],
                [storage[v] for v in node.outputs],
            )
            for node in fgraph.toposort()
        ]
        # Cells to empty after a call: the inputs (do not keep the caller's data
        # alive) and every buffer a returned output may alias.
        released = {id(storage[v]): storage[v] for v in fgraph.inputs}
        for out in fgraph.outputs:
            for root in view_roots(out):
                if not isinstance(root, Constant):
                    released[id(storage[root])] = storage[root]
            if out.owner is not None:
                released[id(storage[out])] = storage[out]
        release_cells = list(released.values())

        def run(*args: Any) -> list[Any]:
            for cell, value in zip(input_cells, args, strict=True):
                cell[0] = value
            try:
                for perform, node, in_cells, out_cells in thunks:
                    perform(node, [c[0] for c in in_cells], out_cells)
                results = [
                    copy.copy(cell[0]) if dup else cell[0]
                    for cell, dup in zip(output_cells, copy_output, strict=True)
                ]
            finally:
                for cell in release_cells:
                    cell[0] = None
            return results

        return run


register_backend(PythonBackend())

"""Lowerings of the shape ops: ``Shape``, ``Shape_i``, ``Reshape``, ``Alloc``.

``Reshape`` returns a view when the input is C-contiguous and a reshaped copy
otherwise (as numpy); a size mismatch raises ``ValueError``. ``Alloc``
broadcasts its value into a fresh writable array.

>>> import lazygraph.tensor as lt
>>> node = lt.reshape(lt.tensor("float64", (None, None)), (-1,)).owner
>>> "reshape" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from lazygraph.backends.numba.dispatch import JIT, numba_funcify
from lazygraph.graph.basic import Apply
from lazygraph.tensor.shape import Alloc, Reshape, Shape, Shape_i

__all__: list[str] = []


@numba_funcify.register(Shape)
def _funcify_shape(op: Shape, node: Apply) -> str:
    ndim = node.inputs[0].type.ndim  # type: ignore[attr-defined]
    lines = [JIT, "def kernel(x):", f"    out = np.empty({ndim}, np.int64)"]
    lines += [f"    out[{k}] = x.shape[{k}]" for k in range(ndim)]
    lines.append("    return (out,)")
    return "\n".join(lines) + "\n"


@numba_funcify.register(Shape_i)
def _funcify_shape_i(op: Shape_i, node: Apply) -> str:
    return "\n".join(
        [
            JIT,
            "def kernel(x):",
            "    out = np.empty((), np.int64)",
            f"    out[()] = x.shape[{op.i}]",
            "    return (out,)",
        ]
    )


@numba_funcify.register(Reshape)
def _funcify_reshape(op: Reshape, node: Apply) -> str:
    shape = "(" + "".join(f"shp[{k}], " for k in range(op.ndim)) + ")"
    return "\n".join(
        [
            JIT,
            "def kernel(x, shp):",
            "    if x.flags.c_contiguous:",
            f"        return (x.reshape({shape}),)",
            f"    return (np.ascontiguousarray(x).reshape({shape}),)",
        ]
    )


@numba_funcify.register(Alloc)
def _funcify_alloc(op: Alloc, node: Apply) -> str:
    n = len(node.inputs) - 1
    sizes = [f"s{k}" for k in range(n)]
    shape = "(" + "".join(f"np.int64(s{k}[()]), " for k in range(n)) + ")"
    return "\n".join(
        [
            JIT,
            f"def kernel(value, {', '.join(sizes)}):" if sizes else "def kernel(value):",
            f"    return (np.broadcast_to(value, {shape}).copy(),)",
        ]
    )

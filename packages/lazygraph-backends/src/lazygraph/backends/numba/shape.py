"""Lowerings of the shape ops: ``Shape``, ``Shape_i``, ``Reshape``, ``Alloc``,
``MakeVector``, ``SpecifyShape`` and ``BroadcastSize``.

``Reshape`` returns a view when the input is C-contiguous and a reshaped copy
otherwise (as numpy); a size mismatch raises ``ValueError``. ``Alloc``
broadcasts its value into a fresh writable array. ``SpecifyShape`` returns its
input (a view, as the Op declares) after checking the sizes, and
``BroadcastSize`` applies numpy's broadcasting rule to sizes; both raise
``ValueError`` on a mismatch.

>>> import lazygraph.tensor as lt
>>> node = lt.reshape(lt.tensor("float64", (None, None)), (-1,)).owner
>>> "reshape" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from lazygraph.backends.numba.dispatch import JIT, numba_funcify
from lazygraph.backends.numba.scalar import conv
from lazygraph.graph.basic import Apply
from lazygraph.tensor.broadcast import Alloc, BroadcastSize
from lazygraph.tensor.shape import MakeVector, Reshape, Shape, Shape_i, SpecifyShape

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
    shape = "(" + "".join(f"t[{k}], " for k in range(op.ndim)) + ")"
    return "\n".join(
        [
            JIT,
            "def kernel(x, shp):",
            "    t = reshape_target(x.size, shp)",
            "    if x.flags.c_contiguous:",
            f"        return (reshaped(x, {shape}),)",
            f"    return (reshaped(np.ascontiguousarray(x), {shape}),)",
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
            f"    return (broadcast_to_shape(value, {shape}).copy(),)",
        ]
    )


@numba_funcify.register(MakeVector)
def _funcify_make_vector(op: MakeVector, node: Apply) -> str:
    names = [f"x{k}" for k in range(len(node.inputs))]
    dtype = "np.bool_" if op.dtype == "bool" else f"np.{op.dtype}"
    lines = [JIT, f"def kernel({', '.join(names)}):", f"    out = np.empty({len(names)}, {dtype})"]
    for k, (name, v) in enumerate(zip(names, node.inputs, strict=True)):
        lines.append(f"    out[{k}] = {conv(f'{name}[()]', v.type.dtype, op.dtype)}")  # type: ignore[attr-defined]
    lines.append("    return (out,)")
    return "\n".join(lines) + "\n"


@numba_funcify.register(SpecifyShape)
def _funcify_specify_shape(op: SpecifyShape, node: Apply) -> str:
    dims = [d for d, g in enumerate(op.given) if g]
    names = [f"s{k}" for k in range(len(dims))]
    lines = [JIT, f"def kernel({', '.join(['x', *names])}):"]
    if dims:
        bad = " or ".join(
            f"x.shape[{d}] != np.int64({name}[()])" for d, name in zip(dims, names, strict=True)
        )
        lines += [
            f"    if {bad}:",
            '        raise ValueError("SpecifyShape: the array does not have the specified shape")',
        ]
    lines.append("    return (x,)")
    return "\n".join(lines) + "\n"


@numba_funcify.register(BroadcastSize)
def _funcify_broadcast_size(op: BroadcastSize, node: Apply) -> str:
    names = [f"s{k}" for k in range(len(node.inputs))]
    lines = [JIT, f"def kernel({', '.join(names)}):", "    size = np.int64(1)", "    ok = True"]
    for name in names:
        lines += [
            f"    v = np.int64({name}[()])",
            "    if v != 1:",
            "        ok = ok and (size == 1 or size == v)",
            "        size = v",
        ]
    lines += [
        "    if not ok:",
        '        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape")',
        "    out = np.empty((), np.int64)",
        "    out[()] = size",
        "    return (out,)",
    ]
    return "\n".join(lines) + "\n"

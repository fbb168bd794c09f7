"""Lowering of ``Subtensor`` (basic indexing: ints, slices, ``None``, ``...``).

The index is spelled out in the kernel source (constant parts inline, graph
inputs read from their 0-d arrays); integer indices are bounds-checked first
(Numba does not check), raising numpy's ``IndexError``. The result is a view
of ``x``, except a full integer index, which gives a fresh 0-d array.

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (None, None))
>>> node = x[1, ::2].owner
>>> "IndexError" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from typing import Any

from lazygraph.backends.numba.dispatch import JIT, Unsupported, numba_funcify
from lazygraph.graph.basic import Apply
from lazygraph.tensor.indexing import INPUT, Slice, consumed_dims
from lazygraph.tensor.subtensor import Subtensor

__all__: list[str] = []


@numba_funcify.register(Subtensor)
def _funcify_subtensor(op: Subtensor, node: Apply) -> str:
    x = node.inputs[0]
    ndim = x.type.ndim  # type: ignore[attr-defined]
    n_inputs = len(node.inputs) - 1
    params = ["x", *[f"p{j}" for j in range(n_inputs)]]
    lines = [JIT, f"def kernel({', '.join(params)}):"]
    used = sum(consumed_dims(e, None) for e in op.idx_list if e is not Ellipsis)
    counter = iter(range(n_inputs))
    parts: list[str] = []
    axis = 0

    def bound(p: Any) -> str:
        if p is INPUT:
            return f"np.int64(p{next(counter)}[()])"
        return "None" if p is None else repr(int(p))

    for e in op.idx_list:
        if e is Ellipsis:
            for _ in range(ndim - used):
                parts.append(":")
                axis += 1
        elif e is None:
            parts.append("None")
        elif isinstance(e, Slice):
            start, stop, step = (bound(p) for p in e.parts())
            parts.append(f"slice({start}, {stop}, {step})")
            axis += 1
        elif e is INPUT or isinstance(e, int):
            name = f"k{axis}"
            value = bound(e)
            lines += [
                f"    {name} = {value}",
                f"    n{axis} = x.shape[{axis}]",
                f"    if {name} < -n{axis} or {name} >= n{axis}:",
                f'        raise IndexError("index out of bounds for axis {axis}")',
                f"    if {name} < 0:",
                f"        {name} += n{axis}",
            ]
            parts.append(name)
            axis += 1
        else:
            raise Unsupported(f"index entry {e!r}")
    out_ndim = node.outputs[0].type.ndim  # type: ignore[attr-defined]
    if not parts:
        lines.append("    return (x,)")
    elif out_ndim == 0:
        dtype = x.type.dtype  # type: ignore[attr-defined]
        np_dtype = "np.bool_" if dtype == "bool" else f"np.{dtype}"
        lines += [
            f"    out = np.empty((), {np_dtype})",
            f"    out[()] = x[{', '.join(parts)}]",
            "    return (out,)",
        ]
    else:
        lines.append(f"    return (x[{', '.join(parts)}],)")
    return "\n".join(lines) + "\n"

"""Lowering of ``Join`` (``numpy.concatenate`` along a static axis): each input
is converted to the output dtype, then ``np.concatenate`` runs inside the
kernel (a shape mismatch raises ``ValueError`` there, as in numpy).

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (None, 2))
>>> node = lt.concatenate([x, x], axis=0).owner
>>> "np.concatenate" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from lazygraph.backends.numba.dispatch import JIT, numba_funcify
from lazygraph.graph.basic import Apply
from lazygraph.tensor.join import Join

__all__: list[str] = []


@numba_funcify.register(Join)
def _funcify_join(op: Join, node: Apply) -> str:
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    np_dtype = "np.bool_" if dtype == "bool" else f"np.{dtype}"
    xs = [f"x{i}" for i in range(len(node.inputs))]
    parts = "".join(f"{x}.astype({np_dtype}), " for x in xs)
    return "\n".join(
        [
            JIT,
            f"def kernel({', '.join(xs)}):",
            f"    return (np.concatenate(({parts}), axis={op.axis}),)",
        ]
    )

"""Lowerings of ``Join`` (``numpy.concatenate`` along a static axis): each input
is converted to the output dtype, then ``np.concatenate`` runs inside the
kernel (a shape mismatch raises ``ValueError`` there, as in numpy); and of
``Split``, whose pieces are views of the input (the Op declares them), after
checking that the sizes are non-negative and add up to the axis' length.

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (None, 2))
>>> node = lt.concatenate([x, x], axis=0).owner
>>> "np.concatenate" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from lazygraph.backends.numba.dispatch import JIT, numba_funcify
from lazygraph.graph.basic import Apply
from lazygraph.tensor.join import Join, Split

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


@numba_funcify.register(Split)
def _funcify_split(op: Split, node: Apply) -> str:
    lead = ":, " * op.axis
    lines = [
        JIT,
        "def kernel(x, sizes):",
        "    total = 0",
        "    negative = False",
        f"    for k in range({op.n_splits}):",
        "        negative = negative or sizes[k] < 0",
        "        total += np.int64(sizes[k])",
        f"    if negative or total != x.shape[{op.axis}]:",
        '        raise ValueError("Split: the sizes do not split the axis (array split does not '
        'result in an equal division)")',
        "    a = 0",
    ]
    pieces = []
    for k in range(op.n_splits):
        lines += [f"    b = a + np.int64(sizes[{k}])", f"    p{k} = x[{lead}a:b]", "    a = b"]
        pieces.append(f"p{k}")
    lines.append(f"    return ({''.join(p + ', ' for p in pieces)})")
    return "\n".join(lines) + "\n"

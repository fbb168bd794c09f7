"""Lowering of ``CumOp`` (``cumsum`` / ``cumprod`` and the exclusive and reversed
scans of the gradients).

numpy's ``add.accumulate`` / ``multiply.accumulate`` cast each element to the
accumulation dtype and combine in that dtype, left to right along the axis (no
pairwise summation): :func:`scan_axis` does the same on the input viewed as
``(outer, n, inner)``, so integers wrap and floats round exactly as numpy's.
``axis=None`` (and any axis of a 0-d array) scans the flattened array.

>>> import lazygraph.tensor as lt
>>> node = lt.cumsum(lt.tensor("int8", (None, None)), axis=1).owner
>>> "scan_axis" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lazygraph.backends.numba.cache import helper_options
from lazygraph.backends.numba.dispatch import JIT, numba_funcify
from lazygraph.backends.numba.scalar import conv
from lazygraph.graph.basic import Apply
from lazygraph.tensor.cumulative import CumOp

__all__ = ["scan_axis"]

_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package


@njit(**_OPTS)
def scan_axis(src, dst, is_sum, exclusive, reverse):  # type: ignore[no-untyped-def]
    """``dst[o, :, k]``: the running sum (or product) of ``src[o, :, k]`` (of
    ``dst``'s dtype); ``exclusive`` leaves each element out of its own term,
    ``reverse`` runs from the end."""
    n = src.shape[1]
    for o in range(src.shape[0]):
        for k in range(src.shape[2]):
            for t in range(n):
                i = n - 1 - t if reverse else t
                p = i + 1 if reverse else i - 1  # the previous position
                if t == 0:
                    if exclusive:
                        dst[o, i, k] = 0 if is_sum else 1
                    else:
                        dst[o, i, k] = src[o, i, k]
                    continue
                if exclusive and t == 1:
                    # the first term itself, as the shifted inclusive scan has it:
                    # 1 * (0+infj) would be nan+infj
                    dst[o, i, k] = src[o, p, k]
                    continue
                v = src[o, p if exclusive else i, k]
                if is_sum:
                    dst[o, i, k] = dst[o, p, k] + v
                else:
                    dst[o, i, k] = dst[o, p, k] * v


@numba_funcify.register(CumOp)
def _funcify_cumop(op: CumOp, node: Apply) -> str:
    x = node.inputs[0]
    ndim, src_dtype = x.type.ndim, x.type.dtype  # type: ignore[attr-defined]
    # a complex input scanned in a real dtype keeps its real part, as numpy casts
    out = "np.bool_" if op.dtype == "bool" else f"np.{op.dtype}"
    # numpy casts each element to the accumulation dtype first (then one
    # compiled scan per accumulation dtype serves every input dtype)
    if np.dtype(src_dtype).kind == "c" and np.dtype(op.dtype).kind == "c":
        value = f"{out}(xf[t])"
    else:
        value = conv("xf[t]", src_dtype, op.dtype)
    lines = [
        "from lazygraph.backends.numba.cumulative import scan_axis",
        "",
        "",
        JIT,
        "def kernel(x):",
        "    xf = np.ascontiguousarray(x).ravel()",
        f"    src = np.empty(xf.shape[0], {out})",
        "    for t in range(xf.shape[0]):",
        f"        src[t] = {value}",
    ]
    if op.axis is None or ndim == 0:
        lines += ["    o, n, i = 1, src.shape[0], 1"]
        shape = "(n,)"
    else:
        d = op.axis
        outer = " * ".join(f"x.shape[{k}]" for k in range(d)) or "1"
        inner = " * ".join(f"x.shape[{k}]" for k in range(d + 1, ndim)) or "1"
        lines += [f"    o, n, i = {outer}, x.shape[{d}], {inner}"]
        shape = "x.shape"
    lines += [
        f"    out = np.empty({shape}, {out})",
        "    s3, d3 = src.reshape((o, n, i)), out.reshape((o, n, i))",
        f"    scan_axis(s3, d3, {op.kind == 'sum'}, {op.exclusive}, {op.reverse})",
        "    return (out,)",
    ]
    return "\n".join(lines) + "\n"

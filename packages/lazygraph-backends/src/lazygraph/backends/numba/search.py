"""Lowerings of the search ops: ``Nonzero`` (a count, then a fill) and
``SearchSorted`` (a binary search per value, in numpy's order, where NaN sorts
after every number, so NaNs in ``a`` and ``v`` behave as in numpy).

``a`` and ``v`` are compared in their common dtype (numpy converts both). A
``sorter`` is checked first: a size different from ``a``'s or an entry
outside ``[0, len(a))`` raises numpy's ``ValueError`` (Numba would otherwise
read out of bounds). Complex inputs run through ``perform``.

>>> import lazygraph.tensor as lt
>>> node = lt.searchsorted(lt.dvector("a"), lt.dvector("v")).owner
>>> "sorted_search" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lazygraph.backends.numba.cache import helper_options
from lazygraph.backends.numba.dispatch import JIT, Unsupported, numba_funcify
from lazygraph.backends.numba.helpers import reshaped
from lazygraph.backends.numba.subtensor import np_dtype
from lazygraph.graph.basic import Apply
from lazygraph.tensor.search import Nonzero, SearchSorted

__all__ = ["nonzero_indices", "sorted_search"]

_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package


@njit(**_OPTS)
def _before(p, q):  # type: ignore[no-untyped-def]
    """numpy's sort order: ``p < q`` with NaN after every number."""
    return p < q or (q != q and p == p)


@njit(**_OPTS)
def sorted_search(a, v, sorter, use_sorter, right):  # type: ignore[no-untyped-def]
    """``np.searchsorted(a, v, side, sorter)`` as an int64 array shaped like
    ``v`` (``sorter`` is read only when ``use_sorter``)."""
    n = a.shape[0]
    if use_sorter:
        bad = sorter.shape[0] != n
        for k in range(sorter.shape[0]):
            if sorter[k] < 0 or sorter[k] >= n:
                bad = True
        if bad:
            raise ValueError("searchsorted: sorter.size must equal a.size and index a")
    out = np.empty(v.size, np.int64)
    for k, key in enumerate(v.flat):
        lo = 0
        hi = n
        while lo < hi:
            mid = (lo + hi) >> 1
            item = a[sorter[mid]] if use_sorter else a[mid]
            go_right = not _before(key, item) if right else _before(item, key)
            if go_right:
                lo = mid + 1
            else:
                hi = mid
        out[k] = lo
    return reshaped(out, v.shape)


@numba_funcify.register(SearchSorted)
def _funcify_searchsorted(op: SearchSorted, node: Apply) -> str:
    a, v = node.inputs[:2]
    adt, vdt = a.type.dtype, v.type.dtype  # type: ignore[attr-defined]
    common = np.result_type(adt, vdt).name
    if np.dtype(common).kind == "c" or common == "float16":
        raise Unsupported(f"searchsorted on {common}")
    right = op.side == "right"
    has_sorter = len(node.inputs) == 3
    params = ["a", "v", *(["sorter"] if has_sorter else [])]
    conv_a = "a" if adt == common else f"a.astype({np_dtype(common)})"
    conv_v = "v" if vdt == common else f"np.asarray(v).astype({np_dtype(common)})"
    sorter = "sorter" if has_sorter else "np.zeros(0, np.int64)"
    return "\n".join(
        [
            "from lazygraph.backends.numba.search import sorted_search",
            "",
            "",
            JIT,
            f"def kernel({', '.join(params)}):",
            f"    return (sorted_search({conv_a}, {conv_v}, {sorter}, {has_sorter}, {right}),)",
        ]
    )


@njit(**_OPTS)
def nonzero_indices(x):  # type: ignore[no-untyped-def]
    """The indices of ``x``'s nonzero elements (C order) as an int64 array of
    shape ``(x.ndim, count)``; works for every dtype, complex included."""
    count = 0
    for v in x.flat:
        if v != 0:
            count += 1
    out = np.empty((x.ndim, count), np.int64)
    k = 0
    for idx in np.ndindex(x.shape):
        if x[idx] != 0:
            for d in range(x.ndim):
                out[d, k] = idx[d]
            k += 1
    return out


@numba_funcify.register(Nonzero)
def _funcify_nonzero(op: Nonzero, node: Apply) -> str:
    x = node.inputs[0]
    if x.type.dtype == "float16":  # type: ignore[attr-defined]
        raise Unsupported("nonzero on float16")
    outs = "".join(f"nz[{k}].copy(), " for k in range(len(node.outputs)))
    return "\n".join(
        [
            "from lazygraph.backends.numba.search import nonzero_indices",
            "",
            "",
            JIT,
            "def kernel(x):",
            "    nz = nonzero_indices(x)",
            f"    return ({outs})",
        ]
    )

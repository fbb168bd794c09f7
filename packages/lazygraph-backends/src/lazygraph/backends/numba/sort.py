"""Lowerings of ``Sort``, ``ArgSort`` and ``Unique``.

One stable merge sort (:func:`argsort_lane`) in numpy's order serves all
three: NaNs last, complex numbers in numpy's groups ``[R + Rj, R + nanj,
nan + Rj, nan + nanj]``; descending keeps equal elements in their original
order (NaNs first), as the Ops promise. An unstable sort (``stable=False``)
may return any order of equal elements, so the stable one is a valid answer.
``Unique`` sorts the flattened input, then reads the values, first
occurrences, inverse indices and counts off the sorted order; NaNs are all
distinct (numpy 2's ``equal_nan=False``).

>>> import lazygraph.tensor as lt
>>> node = lt.argsort(lt.dmatrix(), axis=0).owner
>>> "argsort_axis" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.extending import overload

from lazygraph.backends.numba.cache import helper_options
from lazygraph.backends.numba.dispatch import JIT, numba_funcify
from lazygraph.graph.basic import Apply
from lazygraph.tensor.sort import UNIQUE_FIELDS, ArgSort, Sort, Unique

__all__ = ["argsort_axis", "argsort_lane", "take_lanes", "unique_flat"]

_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package
#: sorted runs of this length are made by insertion sort before merging
_RUN = 16


def _before(a: Any, b: Any) -> bool:
    """``a`` sorts strictly before ``b`` in numpy's order (compiled code only)."""
    raise NotImplementedError("_before is only callable from compiled code")


@overload(_before, jit_options=_OPTS)
def _before_impl(a, b):  # type: ignore[no-untyped-def]
    if isinstance(a, types.Complex):

        def complex_before(a, b):  # type: ignore[no-untyped-def]
            # numpy's complex less-than (npysort's CLT with NaNs)
            ar, ai, br, bi = a.real, a.imag, b.real, b.imag
            if ar < br:
                return ai == ai or bi != bi
            if ar > br:
                return bi != bi and ai == ai
            if ar == br or (ar != ar and br != br):
                return ai < bi or (bi != bi and ai == ai)
            return br != br

        return complex_before

    def real_before(a, b):  # type: ignore[no-untyped-def]
        return a < b or (b != b and a == a)

    return real_before


@njit(**_OPTS)
def argsort_lane(keys, idx, tmp):  # type: ignore[no-untyped-def]
    """Stable ascending argsort of the 1-d ``keys`` into ``idx`` (``tmp``: int64
    scratch of the same length): insertion-sorted runs, then bottom-up merges."""
    n = keys.shape[0]
    for i in range(n):
        idx[i] = i
    for lo in range(0, n, _RUN):
        hi = min(lo + _RUN, n)
        for i in range(lo + 1, hi):
            v = idx[i]
            kv = keys[v]
            j = i - 1
            while j >= lo and _before(kv, keys[idx[j]]):
                idx[j + 1] = idx[j]
                j -= 1
            idx[j + 1] = v
    src, dst = idx, tmp
    swapped = False
    width = _RUN
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j = lo, mid
            for k in range(lo, hi):
                # the right run's element goes first only when strictly smaller
                if j < hi and (i >= mid or _before(keys[src[j]], keys[src[i]])):
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
        src, dst = dst, src
        swapped = not swapped
        width *= 2
    if swapped:
        idx[:] = tmp


@njit(**_OPTS)
def argsort_axis(src, dst, keys, descending):  # type: ignore[no-untyped-def]
    """``dst[o, :, k]``: the stable argsort of ``src[o, :, k]``, sorted as
    ``keys`` (a scratch lane of a dtype that orders ``src``'s values alike, so
    that few dtypes need a compiled sort). Descending sorts the reversed lane and
    maps back, so equal elements keep their order."""
    n = src.shape[1]
    tmp = np.empty(n, np.int64)
    idx = np.empty(n, np.int64)
    for o in range(src.shape[0]):
        for k in range(src.shape[2]):
            for t in range(n):
                keys[t] = src[o, n - 1 - t if descending else t, k]
            argsort_lane(keys, idx, tmp)
            for t in range(n):
                dst[o, t, k] = n - 1 - idx[n - 1 - t] if descending else idx[t]


@njit(**_OPTS)
def take_lanes(src, idx, dst):  # type: ignore[no-untyped-def]
    """``dst[o, t, k] = src[o, idx[o, t, k], k]``."""
    for o in range(src.shape[0]):
        for t in range(src.shape[1]):
            for k in range(src.shape[2]):
                dst[o, t, k] = src[o, idx[o, t, k], k]


@njit(**_OPTS)
def unique_flat(keys):  # type: ignore[no-untyped-def]
    """(first index of each unique value in sorted order, inverse indices,
    counts) of the 1-d ``keys``; NaNs are all distinct."""
    n = keys.shape[0]
    perm = np.empty(n, np.int64)
    group = np.empty(n, np.int64)  # scratch, then the sorted position's unique value
    argsort_lane(keys, perm, group)
    count = 0
    for t in range(n):
        if t == 0 or keys[perm[t]] != keys[perm[t - 1]]:
            count += 1
        group[t] = count - 1
    first = np.empty(count, np.int64)
    counts = np.zeros(count, np.int64)
    inverse = np.empty(n, np.int64)
    for t in range(n):
        g = group[t]
        if counts[g] == 0:
            first[g] = perm[t]
        counts[g] += 1
        inverse[perm[t]] = g
    return first, inverse, counts


def _key_dtype(dtype: str) -> str:
    """The dtype sorted in place of ``dtype``: it orders the values alike
    (widening keeps order, NaNs and equality), and keeps compiled sorts few."""
    kind = np.dtype(dtype).kind
    if dtype == "uint64":
        return "np.uint64"
    return {"b": "np.int64", "i": "np.int64", "u": "np.int64", "f": "np.float64"}.get(
        kind, "np.complex128"
    )


def _lane_lines(node: Apply, axis: int | None) -> list[str]:
    """Kernel lines making ``s3`` (the input as ``(outer, n, inner)``), ``out``
    (the result's dtype comes from ``dtype``) and its view ``d3``."""
    ndim = node.inputs[0].type.ndim  # type: ignore[attr-defined]
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    out = "np.bool_" if dtype == "bool" else f"np.{dtype}"
    if axis is None or ndim == 0:
        return [
            "    src = np.ascontiguousarray(x).ravel()",
            "    n = src.shape[0]",
            f"    out = np.empty(n, {out})",
            "    s3, d3 = src.reshape((1, n, 1)), out.reshape((1, n, 1))",
        ]
    d = axis % ndim
    outer = " * ".join(f"x.shape[{k}]" for k in range(d)) or "1"
    inner = " * ".join(f"x.shape[{k}]" for k in range(d + 1, ndim)) or "1"
    return [
        "    src = np.ascontiguousarray(x)",
        f"    out = np.empty(x.shape, {out})",
        f"    o, n, i = {outer}, x.shape[{d}], {inner}",
        "    s3, d3 = src.reshape((o, n, i)), out.reshape((o, n, i))",
    ]


@numba_funcify.register(Sort)
def _funcify_sort(op: Sort, node: Apply) -> str:
    lines = [
        "from lazygraph.backends.numba.sort import argsort_axis, take_lanes",
        "",
        "",
        JIT,
        "def kernel(x):",
        *_lane_lines(node, op.axis),
        "    idx = np.empty(s3.shape, np.int64)",
        f"    argsort_axis(s3, idx, np.empty(n, {_key_dtype(node.inputs[0].type.dtype)}), "  # type: ignore[attr-defined]
        f"{op.descending})",
        "    take_lanes(s3, idx, d3)",
        "    return (out,)",
    ]
    return "\n".join(lines) + "\n"


@numba_funcify.register(ArgSort)
def _funcify_argsort(op: ArgSort, node: Apply) -> str:
    lines = [
        "from lazygraph.backends.numba.sort import argsort_axis",
        "",
        "",
        JIT,
        "def kernel(x):",
        *_lane_lines(node, op.axis),
        f"    argsort_axis(s3, d3, np.empty(n, {_key_dtype(node.inputs[0].type.dtype)}), "  # type: ignore[attr-defined]
        f"{op.descending})",
        "    return (out,)",
    ]
    return "\n".join(lines) + "\n"


@numba_funcify.register(Unique)
def _funcify_unique(op: Unique, node: Apply) -> str:
    names = {
        "values": "values",
        "indices": "first",
        "inverse_indices": "reshaped(inverse, x.shape)",
        "counts": "counts",
    }
    outs = "".join(f"{names[f]}, " for f in UNIQUE_FIELDS[op.kind])
    dtype = node.inputs[0].type.dtype  # type: ignore[attr-defined]
    lines = [
        "from lazygraph.backends.numba.sort import unique_flat",
        "",
        "",
        JIT,
        "def kernel(x):",
        "    flat = np.ascontiguousarray(x).ravel()",
        f"    keys = np.empty(flat.shape[0], {_key_dtype(dtype)})",
        "    for t in range(flat.shape[0]):",
        "        keys[t] = flat[t]",
        "    first, inverse, counts = unique_flat(keys)",
        "    values = np.empty(first.shape[0], flat.dtype)",
        "    for g in range(first.shape[0]):",
        "        values[g] = flat[first[g]]",
        f"    return ({outs})",
    ]
    return "\n".join(lines) + "\n"

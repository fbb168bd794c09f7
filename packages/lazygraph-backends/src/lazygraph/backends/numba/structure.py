"""Lowerings of the rearranging ops: ``Flip``, ``Roll``, ``Repeat``,
``RepeatGrad``, ``Pad`` and ``PadGrad``.

Each works axis by axis on a C-contiguous copy viewed as ``(outer, n, inner)``
around the axis, so one shared helper per kind of move (roll, gather, scatter-add,
repeat, segment sum) serves every ndim and axis; the kernels only spell out the
shapes. ``Flip`` is a negative-stride view, as numpy's (the Op declares it).
``pad``'s modes are gathers at ``numpy.pad(arange(n), (before, after), mode)``
(periodic index maps, computed by :func:`pad_index`); their gradients scatter-add
back through the same maps. Counts and sizes are checked before any memory is
touched: a bad one raises numpy's ``ValueError``.

>>> import lazygraph.tensor as lt
>>> node = lt.roll(lt.dmatrix(), 1, axis=1).owner
>>> "roll_axis" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lazygraph.backends.numba.cache import helper_options
from lazygraph.backends.numba.dispatch import JIT, numba_funcify
from lazygraph.backends.numba.scalar import conv
from lazygraph.graph.basic import Apply
from lazygraph.tensor.structure import Flip, Pad, PadGrad, Repeat, RepeatGrad, Roll

__all__ = [
    "gather_axis",
    "pad_constant_axis",
    "pad_index",
    "repeat_axis",
    "roll_axis",
    "scatter_add_axis",
    "segment_sum_axis",
]

_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package
_MODES = {"edge": 0, "reflect": 1, "symmetric": 2, "wrap": 3}


def _np(dtype: str) -> str:
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"


@njit(**_OPTS)
def roll_axis(src, dst, shift):  # type: ignore[no-untyped-def]
    """``dst[o, (i + shift) % n, k] = src[o, i, k]`` for ``0 <= shift < n``, of
    C-contiguous arrays: per outer index, two contiguous runs copied as they
    are (the rolled axis with the axes after it is one run of ``n * inner``
    elements, rolled by ``shift * inner``), as numpy's roll copies two slices;
    an element loop over the three axes costs ~50x that for a last axis."""
    outer, n, inner = src.shape
    length = n * inner
    cut = shift * inner
    keep = length - cut
    s = src.reshape((outer, length))
    d = dst.reshape((outer, length))
    for o in range(outer):
        for t in range(keep):
            d[o, cut + t] = s[o, t]
        for t in range(cut):
            d[o, t] = s[o, keep + t]


@njit(**_OPTS)
def pad_index(n, before, after, mode):  # type: ignore[no-untyped-def]
    """``numpy.pad(arange(n), (before, after), mode)`` for mode 0 edge, 1 reflect,
    2 symmetric, 3 wrap (``n > 0``): numpy's padding is periodic in each mode."""
    m = n + before + after
    idx = np.empty(m, np.int64)
    for t in range(m):
        i = t - before
        if mode == 0:
            j = min(max(i, 0), n - 1)
        elif mode == 3:
            j = i % n
        elif mode == 2:
            j = i % (2 * n)
            if j >= n:
                j = 2 * n - 1 - j
        elif n == 1:
            j = 0
        else:
            j = i % (2 * n - 2)
            if j >= n:
                j = 2 * n - 2 - j
        idx[t] = j
    return idx


@njit(**_OPTS)
def gather_axis(src, idx, dst):  # type: ignore[no-untyped-def]
    """``dst[o, t, k] = src[o, idx[t], k]`` (``idx`` within ``src``'s axis)."""
    for o in range(src.shape[0]):
        for t in range(idx.shape[0]):
            j = idx[t]
            for k in range(src.shape[2]):
                dst[o, t, k] = src[o, j, k]


@njit(**_OPTS)
def pad_constant_axis(src, dst, before, low, high):  # type: ignore[no-untyped-def]
    """``dst[o, :, k]``: ``before`` copies of ``low``, ``src[o, :, k]``, then
    ``high`` up to ``dst``'s length."""
    n = src.shape[1]
    for o in range(dst.shape[0]):
        for t in range(dst.shape[1]):
            i = t - before
            for k in range(dst.shape[2]):
                if i < 0:
                    dst[o, t, k] = low
                elif i >= n:
                    dst[o, t, k] = high
                else:
                    dst[o, t, k] = src[o, i, k]


@njit(**_OPTS)
def scatter_add_axis(src, idx, dst):  # type: ignore[no-untyped-def]
    """``dst[o, idx[t], k] += src[o, t, k]`` in order of ``t`` (``numpy.add.at``)."""
    for o in range(dst.shape[0]):
        for t in range(idx.shape[0]):
            j = idx[t]
            for k in range(dst.shape[2]):
                dst[o, j, k] += src[o, t, k]


@njit(**_OPTS)
def repeat_axis(src, counts, dst):  # type: ignore[no-untyped-def]
    """Each ``src[o, i, :]`` copied ``counts[i]`` times along ``dst``'s axis."""
    for o in range(src.shape[0]):
        t = 0
        for i in range(src.shape[1]):
            for _ in range(counts[i]):
                for k in range(src.shape[2]):
                    dst[o, t, k] = src[o, i, k]
                t += 1


@njit(**_OPTS)
def segment_sum_axis(src, counts, dst, from_first):  # type: ignore[no-untyped-def]
    """``dst[o, i, k]``: the sum of the ``counts[i]`` consecutive ``src[o, t, k]``
    (starting from the first term as numpy's ``sum`` when ``from_first``, from
    zero as ``numpy.add.at``)."""
    for o in range(dst.shape[0]):
        t = 0
        for i in range(dst.shape[1]):
            c = counts[i]
            for k in range(dst.shape[2]):
                if from_first and c > 0:
                    dst[o, i, k] = src[o, t, k]
                    for s in range(1, c):
                        dst[o, i, k] += src[o, t + s, k]
                else:
                    for s in range(c):
                        dst[o, i, k] += src[o, t + s, k]
            t += c


# -- source helpers ------------------------------------------------------------------


def _prod(arr: str, dims: range) -> str:
    return " * ".join(f"{arr}.shape[{d}]" for d in dims) or "1"


def _view3(arr: str, d: int, ndim: int, n: str) -> str:
    """``arr`` (C-contiguous) reshaped to ``(outer, n, inner)`` around axis ``d``."""
    return f"{arr}.reshape(({_prod(arr, range(d))}, {n}, {_prod(arr, range(d + 1, ndim))}))"


def _shape(arr: str, ndim: int, d: int, size: str) -> str:
    parts = [size if k == d else f"{arr}.shape[{k}]" for k in range(ndim)]
    return "(" + "".join(f"{p}, " for p in parts) + ")"


def _value(expr: str, src: str, dst: str) -> str:
    """``expr`` cast as numpy assigns it into a ``dst`` array (complex drops its
    imaginary part)."""
    if np.dtype(src).kind == "c" and np.dtype(dst).kind not in "cb":
        expr, src = f"{expr}.real", np.dtype(f"f{np.dtype(src).itemsize // 2}").name
    return conv(expr, src, dst)


def _counts_lines(repeats_ndim: int, n: str, what: str) -> list[str]:
    """Kernel lines filling ``counts`` (int64, length ``n``) from ``repeats`` and
    setting ``total``, with numpy's errors."""
    lines = [f"    counts = np.empty({n}, np.int64)"]
    if repeats_ndim == 0:
        lines += ["    counts[:] = np.int64(repeats[()])"]
    else:
        lines += [
            "    nr = repeats.shape[0]",
            f"    if nr != {n} and nr != 1:",
            f'        raise ValueError("{what}: operands could not be broadcast together '
            'with the repeats")',
            f"    for i in range({n}):",
            "        counts[i] = np.int64(repeats[0 if nr == 1 else i])",
        ]
    lines += [
        "    total = 0",
        "    negative = False",
        f"    for i in range({n}):",
        "        negative = negative or counts[i] < 0",
        "        total += counts[i]",
    ]
    return lines


# -- lowerings --------------------------------------------------------------------------


@numba_funcify.register(Flip)
def _funcify_flip(op: Flip, node: Apply) -> str:
    ndim = node.inputs[0].type.ndim  # type: ignore[attr-defined]
    if not op.axes:
        return "\n".join([JIT, "def kernel(x):", "    return (x,)"])
    parts = ", ".join("::-1" if d in op.axes else ":" for d in range(ndim))
    return "\n".join([JIT, "def kernel(x):", f"    return (x[{parts}],)"])


@numba_funcify.register(Roll)
def _funcify_roll(op: Roll, node: Apply) -> str:
    ndim = node.inputs[0].type.ndim  # type: ignore[attr-defined]
    unsigned = node.inputs[1].type.numpy_dtype.kind == "u"  # type: ignore[attr-defined]
    lines = [
        "from lazygraph.backends.numba.structure import roll_axis",
        "",
        "",
        JIT,
        "def kernel(x, shifts):",
        "    cur = np.ascontiguousarray(x)",
    ]
    for j, d in enumerate(op.axes):
        if unsigned:
            shift = f"np.int64(np.uint64(shifts[{j}]) % np.uint64(n))"
        else:
            shift = f"np.int64(shifts[{j}]) % n"
        lines += [
            f"    n = cur.shape[{d}]",
            "    new = np.empty_like(cur)",
            "    if n > 0:",
            f"        roll_axis({_view3('cur', d, ndim, 'n')}, {_view3('new', d, ndim, 'n')}, "
            f"{shift})",
            "    cur = new",
        ]
    if not op.axes:
        lines.append("    cur = cur.copy()")
    lines.append("    return (cur,)")
    return "\n".join(lines) + "\n"


@numba_funcify.register(Repeat)
def _funcify_repeat(op: Repeat, node: Apply) -> str:
    x, repeats = node.inputs
    ndim, d = x.type.ndim, op.axis  # type: ignore[attr-defined]
    lines = [
        "from lazygraph.backends.numba.structure import repeat_axis",
        "",
        "",
        JIT,
        "def kernel(x, repeats):",
        f"    n = x.shape[{d}]",
        *_counts_lines(repeats.type.ndim, "n", "repeat"),  # type: ignore[attr-defined]
        "    if negative:",
        '        raise ValueError("repeat: repeats may not contain negative values.")',
        "    src = np.ascontiguousarray(x)",
        f"    out = np.empty({_shape('x', ndim, d, 'total')}, {_np(x.type.dtype)})",  # type: ignore[attr-defined]
        f"    repeat_axis({_view3('src', d, ndim, 'n')}, counts, "
        f"{_view3('out', d, ndim, 'total')})",
        "    return (out,)",
    ]
    return "\n".join(lines) + "\n"


@numba_funcify.register(RepeatGrad)
def _funcify_repeat_grad(op: RepeatGrad, node: Apply) -> str:
    g, repeats, _ = node.inputs
    ndim, d = g.type.ndim, op.axis  # type: ignore[attr-defined]
    from_first = repeats.type.ndim == 0  # type: ignore[attr-defined]
    lines = [
        "from lazygraph.backends.numba.structure import segment_sum_axis",
        "",
        "",
        JIT,
        "def kernel(g, repeats, n_):",
        "    n = max(np.int64(n_[()]), 0)",
        *_counts_lines(repeats.type.ndim, "n", "RepeatGrad"),  # type: ignore[attr-defined]
        f"    m = g.shape[{d}]",
        "    if negative or total != m or np.int64(n_[()]) < 0:",
        '        raise ValueError("RepeatGrad: the repeats do not match the gradient\'s length")',
        "    src = np.ascontiguousarray(g)",
        f"    out = np.zeros({_shape('g', ndim, d, 'n')}, {_np(g.type.dtype)})",  # type: ignore[attr-defined]
        f"    segment_sum_axis({_view3('src', d, ndim, 'm')}, counts, "
        f"{_view3('out', d, ndim, 'n')}, {from_first})",
        "    return (out,)",
    ]
    return "\n".join(lines) + "\n"


@numba_funcify.register(Pad)
def _funcify_pad(op: Pad, node: Apply) -> str:
    x = node.inputs[0]
    ndim, dtype = x.type.ndim, x.type.dtype  # type: ignore[attr-defined]
    if ndim == 0:
        params = "x, cv" if op.mode == "constant" else "x"
        return "\n".join([JIT, f"def kernel({params}):", "    return (x.copy(),)"])
    padded = [(d, b, a) for d, (b, a) in enumerate(op.pad_width) if b or a]
    if op.mode == "constant":
        # axis by axis, as numpy: a later axis' values win in the corners
        cv = node.inputs[1]
        cvd, cv_ndim = cv.type.dtype, cv.type.ndim  # type: ignore[attr-defined]
        lines = [
            "from lazygraph.backends.numba.structure import pad_constant_axis",
            "",
            "",
            JIT,
            "def kernel(x, cv):",
            "    cur = np.ascontiguousarray(x)",
        ]
        for d, b, a in padded:
            low = _value("cv[()]" if cv_ndim == 0 else f"cv[{d}, 0]", cvd, dtype)
            high = _value("cv[()]" if cv_ndim == 0 else f"cv[{d}, 1]", cvd, dtype)
            m = f"n + {b + a}"
            lines += [
                f"    n = cur.shape[{d}]",
                f"    new = np.empty({_shape('cur', ndim, d, m)}, {_np(dtype)})",
                f"    pad_constant_axis({_view3('cur', d, ndim, 'n')}, "
                f"{_view3('new', d, ndim, m)}, {b}, {low}, {high})",
                "    cur = new",
            ]
        lines.append("    return (cur,)" if padded else "    return (cur.copy(),)")
        return "\n".join(lines) + "\n"
    lines = [
        "from lazygraph.backends.numba.structure import gather_axis, pad_index",
        "",
        "",
        JIT,
        "def kernel(x):",
    ]
    if not padded:
        lines.append("    return (x.copy(),)")
        return "\n".join(lines) + "\n"
    empty = " or ".join(f"x.shape[{d}] == 0" for d, _, _ in padded)
    lines += [
        f"    if {empty}:",
        "        raise ValueError(\"pad: can't extend an empty axis using modes other than "
        "'constant' or 'empty'\")",
        "    cur = np.ascontiguousarray(x)",
    ]
    for d, b, a in padded:
        lines += [
            f"    n = cur.shape[{d}]",
            f"    idx = pad_index(n, {b}, {a}, {_MODES[op.mode]})",
            f"    new = np.empty({_shape('cur', ndim, d, f'n + {b + a}')}, {_np(dtype)})",
            f"    gather_axis({_view3('cur', d, ndim, 'n')}, idx, "
            f"{_view3('new', d, ndim, f'n + {b + a}')})",
            "    cur = new",
        ]
    lines.append("    return (cur,)")
    return "\n".join(lines) + "\n"


@numba_funcify.register(PadGrad)
def _funcify_pad_grad(op: PadGrad, node: Apply) -> str:
    g = node.inputs[0]
    ndim, dtype = g.type.ndim, g.type.dtype  # type: ignore[attr-defined]
    if ndim == 0:
        return "\n".join([JIT, "def kernel(g):", "    return (g.copy(),)"])
    padded = [(d, b, a) for d, (b, a) in enumerate(op.pad_width) if b or a]
    # numpy cannot pad an empty axis in the gather modes: the gradient has none either
    cmp = "<" if op.mode == "constant" else "<="
    short = " or ".join(f"g.shape[{d}] {cmp} {b + a}" for d, b, a in padded)
    lines = [
        "from lazygraph.backends.numba.structure import gather_axis, pad_index, scatter_add_axis",
        "",
        "",
        JIT,
        "def kernel(g):",
    ]
    if padded:
        lines += [
            f"    if {short}:",
            '        raise ValueError("PadGrad: the gradient is smaller than the padding")',
        ]
    lines.append("    cur = np.ascontiguousarray(g)")
    for d, b, a in padded:
        lines += [f"    m = cur.shape[{d}]", f"    n = m - {b + a}"]
        if op.mode == "constant":
            # the interior: a gather at before, before + 1, ...
            lines += [
                f"    idx = np.arange({b}, {b} + n)",
                f"    new = np.empty({_shape('cur', ndim, d, 'n')}, {_np(dtype)})",
                f"    gather_axis({_view3('cur', d, ndim, 'm')}, idx, "
                f"{_view3('new', d, ndim, 'n')})",
            ]
        else:
            lines += [
                f"    idx = pad_index(n, {b}, {a}, {_MODES[op.mode]})",
                f"    new = np.zeros({_shape('cur', ndim, d, 'n')}, {_np(dtype)})",
                f"    scatter_add_axis({_view3('cur', d, ndim, 'm')}, idx, "
                f"{_view3('new', d, ndim, 'n')})",
            ]
        lines.append("    cur = new")
    lines.append("    return (cur,)" if padded else "    return (cur.copy(),)")
    return "\n".join(lines) + "\n"

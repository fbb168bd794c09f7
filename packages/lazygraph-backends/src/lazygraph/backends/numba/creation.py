"""Lowerings of the creation ops: ``ARange``, ``ARangeLength``, ``Linspace``,
``Eye`` and ``Tri``.

``arange`` follows numpy's own recipe: the length is ``ceil((stop - start) /
step)`` in the arguments' arithmetic (NEP 50: a Python number the user gave is
weak), the first two elements are ``start`` and ``start + step`` cast to the
output dtype, and the others ``first + i * (second - first)`` in the output
dtype. ``linspace`` repeats numpy's arithmetic too (the step, the special case
of a zero step, the exact endpoint, the floor for integer outputs).

>>> import lazygraph.tensor as lt
>>> node = lt.arange(lt.lscalar("n")).owner
>>> "arange_length" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from lazygraph.backends.numba.cache import helper_options
from lazygraph.backends.numba.dispatch import JIT, Unsupported, numba_funcify
from lazygraph.backends.numba.scalar import conv
from lazygraph.graph.basic import Apply, Constant
from lazygraph.tensor.creation import ARange, ARangeLength, Eye, Linspace, Tri

__all__ = ["arange_length", "linspace_values"]

_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package
_IMPORT = "from lazygraph.backends.numba.creation import arange_length"


def _np(dtype: str) -> str:
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"


@njit(**_OPTS)
def arange_length(q, nonzero):  # type: ignore[no-untyped-def]
    """numpy's ``arange`` length from ``q = (stop - start) / step`` (a float) and
    whether ``stop - start`` is nonzero, with numpy's errors."""
    value = np.float64(q)
    if value == 0.0 and nonzero:
        # an underflowing quotient still has a first element when its sign allows
        return np.int64(0) if np.signbit(value) else np.int64(1)
    if value != value:
        raise ValueError("arange: cannot compute length")
    value = np.ceil(value)
    if not (value < 9.223372036854775807e18) or value == -np.inf:
        raise ValueError("arange: Maximum allowed size exceeded")
    if value <= 0.0:
        return np.int64(0)
    return np.int64(value)


# -- NEP 50 arithmetic on the arguments, decided when generating the kernel -----------


class _Operand:
    """An ``arange`` argument or intermediate: a dtype, and whether it is a weak
    Python number (then ``dtype`` is the int64/float64 the kernel computes it in)."""

    def __init__(self, dtype: str, weak: bool, value: Any = None) -> None:
        self.dtype = dtype
        self.weak = weak
        self.value = value


def _binary(a: _Operand, b: _Operand, divide: bool = False) -> _Operand:
    """The operand ``a op b`` gives in numpy scalar arithmetic."""
    if a.weak and b.weak:
        kind = "f" if divide or "f" in (np.dtype(a.dtype).kind, np.dtype(b.dtype).kind) else "i"
        return _Operand("float64" if kind == "f" else "int64", True)
    args = [a.value if a.weak else np.dtype(a.dtype) for a in (a, b)]
    res = np.result_type(*args)
    for x in (a, b):
        if x.weak and res.kind in "iu" and not isinstance(x.value, float):
            info = np.iinfo(res)
            if x.value is None or not info.min <= x.value <= info.max:
                raise Unsupported("a Python int that does not fit the other argument's dtype")
    if res.kind == "c" or (res.kind == "b" and not divide):
        raise Unsupported(f"arange arithmetic in {res}")
    if divide and res.kind in "biu":
        res = np.dtype("float64")
    return _Operand(res.name, False)


def _arange_lines(op: ARange | ARangeLength, node: Apply) -> tuple[list[str], str]:
    """Kernel lines computing ``n`` (the length) and the operand of ``start + step``."""
    ops = []
    lines = []
    for name, v, weak in zip(("start", "stop", "step"), node.inputs, op.weak, strict=True):
        dtype = v.type.dtype  # type: ignore[attr-defined]
        if weak:
            if not isinstance(v, Constant):
                raise Unsupported("a weak arange argument that is not a constant")
            value = np.asarray(v.data).item()
            if isinstance(value, complex) or (isinstance(value, int) and abs(value) > 2**53):
                raise Unsupported("a complex or huge Python number in arange")
            if isinstance(value, bool):
                value = int(value)
            kind = "float64" if isinstance(value, float) else "int64"
            ops.append(_Operand(kind, True, value))
            lines.append(f"    {name} = {conv(f'{name}_[()]', dtype, kind)}")
        else:
            if np.dtype(dtype).kind in "bc":
                raise Unsupported(f"arange of {dtype} arguments")
            ops.append(_Operand(dtype, False))
            lines.append(f"    {name} = {name}_[()]")
    start, stop, step = ops
    diff = _binary(stop, start)
    quot = _binary(diff, step, divide=True)
    nxt = _binary(start, step)
    lines += [
        f"    delta = {_np(diff.dtype)}({conv('stop', stop.dtype, diff.dtype)}"
        f" - {conv('start', start.dtype, diff.dtype)})",
        f"    q = {_np(quot.dtype)}({conv('delta', diff.dtype, quot.dtype)}"
        f" / {conv('step', step.dtype, quot.dtype)})",
        "    n = arange_length(q, delta != 0)",
    ]
    return lines, nxt.dtype


@numba_funcify.register(ARange)
def _funcify_arange(op: ARange, node: Apply) -> str:
    out = op.dtype
    if np.dtype(out).kind in "bc":
        raise Unsupported(f"arange of dtype {out}")
    lines, nxt = _arange_lines(op, node)
    start_dtype = nxt  # start is converted through the arithmetic type of start + step
    ins = node.inputs
    sd, pd = (ins[0].type.dtype, ins[2].type.dtype)  # type: ignore[attr-defined]
    if op.weak[0]:
        sd = "float64" if isinstance(np.asarray(ins[0].data).item(), float) else "int64"  # type: ignore[attr-defined]
    if op.weak[2]:
        pd = "float64" if isinstance(np.asarray(ins[2].data).item(), float) else "int64"  # type: ignore[attr-defined]
    first = conv("start", sd, out)
    second = conv(
        f"{_np(nxt)}({conv('start', sd, start_dtype)} + {conv('step', pd, nxt)})", nxt, out
    )
    body = [
        _IMPORT,
        "",
        "",
        JIT,
        "def kernel(start_, stop_, step_):",
        *lines,
        f"    out = np.empty(n, {_np(out)})",
        "    if n > 0:",
        f"        out[0] = {first}",
        "    if n > 1:",
        f"        out[1] = {second}",
        "        a = out[0]",
        f"        d = {_np(out)}(out[1] - a)",
        "        for i in range(2, n):",
        f"            out[i] = {_np(out)}(a + {_np(out)}(i) * d)",
        "    return (out,)",
    ]
    return "\n".join(body) + "\n"


@numba_funcify.register(ARangeLength)
def _funcify_arange_length(op: ARangeLength, node: Apply) -> str:
    lines, _ = _arange_lines(op, node)
    body = [
        _IMPORT,
        "",
        "",
        JIT,
        "def kernel(start_, stop_, step_):",
        *lines,
        "    out = np.empty((), np.int64)",
        "    out[()] = n",
        "    return (out,)",
    ]
    return "\n".join(body) + "\n"


# -- linspace -------------------------------------------------------------------------


@njit(**_OPTS)
def linspace_values(sf, ef, y, div, endpoint):  # type: ignore[no-untyped-def]
    """``y[i, j]``: sample ``i`` from ``sf[j]`` to ``ef[j]`` by numpy's arithmetic
    in ``y``'s dtype (``div`` steps; a zero step anywhere scales ``i / div`` by the
    difference instead; the endpoint is ``ef`` exactly)."""
    num, m = y.shape
    cell = np.empty(2, y.dtype)  # casts to y's dtype
    cell[1] = div
    dv = cell[1]
    delta = np.empty(m, y.dtype)
    any_zero = False
    for j in range(m):
        delta[j] = ef[j] - sf[j]
        if div > 0 and delta[j] / dv == 0:
            any_zero = True
    for i in range(num):
        cell[0] = i
        t = cell[0]
        for j in range(m):
            if div <= 0:
                v = t * delta[j]
            elif any_zero:
                v = (t / dv) * delta[j]
            else:
                v = t * (delta[j] / dv)
            y[i, j] = v + sf[j]
    if endpoint and num > 1:
        for j in range(m):
            y[num - 1, j] = ef[j]


@numba_funcify.register(Linspace)
def _funcify_linspace(op: Linspace, node: Apply) -> str:
    start, stop = node.inputs
    ds, de = start.type.dtype, stop.type.dtype  # type: ignore[attr-defined]
    dt = np.result_type(ds, de, 0.0)  # numpy's ensure_inexact
    if dt.kind not in "fc" or dt.itemsize < 4:
        raise Unsupported(f"linspace in {dt}")
    out = op.dtype
    if dt.kind == "c" and np.dtype(out).kind in "iu":
        raise Unsupported("linspace of complex values to an integer dtype")  # numpy: TypeError
    nd_s, nd_e = start.type.ndim, stop.type.ndim  # type: ignore[attr-defined]
    bnd = max(nd_s, nd_e)
    axis = op.axis % (bnd + 1)
    num = op.num
    cast = f"np.{dt.name}"
    lines = [
        "from lazygraph.backends.numba.creation import linspace_values",
        "",
        "",
        JIT,
        "def kernel(start, stop):",
        "    ok = True",
    ]
    for d in range(bnd):
        ks, ke = d - (bnd - nd_s), d - (bnd - nd_e)
        a = f"start.shape[{ks}]" if ks >= 0 else "1"
        b = f"stop.shape[{ke}]" if ke >= 0 else "1"
        lines += [
            f"    a{d}, b{d} = {a}, {b}",
            f"    ok = ok and (a{d} == b{d} or a{d} == 1 or b{d} == 1)",
            f"    s{d} = b{d} if a{d} == 1 else a{d}",
        ]
    m = " * ".join(f"s{d}" for d in range(bnd)) or "1"
    lines += [
        "    if not ok:",
        '        raise ValueError("linspace: shape mismatch: start and stop do not broadcast")',
        f"    m = {m}",
        f"    sf = np.empty(m, {cast})",
        f"    ef = np.empty(m, {cast})",
        "    for j in range(m):",
        "        r = j",
    ]
    for d in reversed(range(bnd)):
        lines += [f"        i{d} = r % s{d}", f"        r //= s{d}"]

    def element(name: str, nd: int, size: str) -> str:
        ix = [f"0 if {size}{d} == 1 else i{d}" for d in range(bnd - nd, bnd)]
        return f"{name}[{', '.join(ix) if ix else '()'}]"

    lines += [
        f"        sf[j] = {element('start', nd_s, 'a')}",
        f"        ef[j] = {element('stop', nd_e, 'b')}",
        f"    y = np.empty(({num}, m), {cast})",
        f"    linspace_values(sf, ef, y, {num - 1 if op.endpoint else num}, {op.endpoint})",
    ]
    value, src = "y[i, o * inner + k]", dt.name
    if np.dtype(out).kind in "iu":
        value = f"np.floor({value})"
    elif dt.kind == "c" and np.dtype(out).kind != "c" and out != "bool":
        value, src = f"{value}.real", np.dtype(f"f{dt.itemsize // 2}").name
    dims = [f"s{d}" for d in range(bnd)]
    out_shape = [*dims[:axis], str(num), *dims[axis:]]
    lines += [
        f"    outer, inner = {' * '.join(dims[:axis]) or '1'}, {' * '.join(dims[axis:]) or '1'}",
        f"    res = np.empty(({''.join(f'{s}, ' for s in out_shape)}), {_np(out)})",
        f"    r3 = res.reshape((outer, {num}, inner))",
        "    for o in range(outer):",
        f"        for i in range({num}):",
        "            for k in range(inner):",
        f"                r3[o, i, k] = {conv(value, src, out)}",
        "    return (res,)",
    ]
    return "\n".join(lines) + "\n"


# -- eye, tri -------------------------------------------------------------------------


@numba_funcify.register(Eye)
def _funcify_eye(op: Eye, node: Apply) -> str:
    return "\n".join(
        [
            JIT,
            "def kernel(n_, m_, k_):",
            "    n, m, k = np.int64(n_[()]), np.int64(m_[()]), np.int64(k_[()])",
            "    if n < 0 or m < 0:",
            '        raise ValueError("eye: negative dimensions are not allowed")',
            f"    out = np.zeros((n, m), {_np(op.dtype)})",
            "    if k >= 0:",
            "        lo, hi = 0, min(n, m - k) if k < m else 0",
            "    else:",
            "        lo, hi = (-k, min(n, m - k)) if k > -n else (0, 0)",
            "    for i in range(lo, hi):",
            "        out[i, i + k] = 1",
            "    return (out,)",
        ]
    )


@numba_funcify.register(Tri)
def _funcify_tri(op: Tri, node: Apply) -> str:
    return "\n".join(
        [
            JIT,
            "def kernel(n_, m_, k_):",
            "    n, m, k = max(np.int64(n_[()]), 0), max(np.int64(m_[()]), 0), np.int64(k_[()])",
            f"    out = np.zeros((n, m), {_np(op.dtype)})",
            "    for i in range(n):",
            "        for j in range(m):",
            "            if j - i <= k:",
            "                out[i, j] = 1",
            "    return (out,)",
        ]
    )

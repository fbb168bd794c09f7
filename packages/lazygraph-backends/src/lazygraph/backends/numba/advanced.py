"""Lowerings of advanced indexing: ``AdvancedSubtensor``,
``AdvancedIncSubtensor``, ``Take``, ``TakeAlongAxis`` and ``IncAlongAxis``.

Every index array is broadcast to the common index shape, bounds-checked and
wrapped into a flat int64 vector first (:func:`index_vector`: numpy's
``IndexError`` for an out-of-bounds value, checked whenever the index shape is
non-empty, as numpy does); boolean masks become their ``nonzero`` vectors
after a shape check. The gather / scatter is then a loop nest over the output
in which the advanced block is one flat loop, so one kernel serves every size.
Updates follow numpy: ``set`` casts unsafely, ``x[idx] += y`` gathers, adds
and scatters (a repeated index gets one increment), ``np.add.at``
(``accumulate``) adds every repeat in order.

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (None, None))
>>> node = x[[0, 1], ::2].owner
>>> "index_vector" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from typing import Any

from numba import njit

from lazygraph.backends.numba.cache import helper_options
from lazygraph.backends.numba.dispatch import JIT, Unsupported, numba_funcify
from lazygraph.backends.numba.subtensor import np_dtype, update_expr
from lazygraph.graph.basic import Apply, Variable
from lazygraph.tensor.advanced_subtensor import (
    AdvancedIncSubtensor,
    AdvancedSubtensor,
    IncAlongAxis,
    Take,
    TakeAlongAxis,
)
from lazygraph.tensor.indexing import INPUT, index_layout

__all__ = ["bdim", "check_mask"]

_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package
_IMPORTS = (
    "from lazygraph.backends.numba.subtensor import can_broadcast, index_vector, wrap_index\n"
    "from lazygraph.backends.numba.advanced import bdim, check_mask\n\n"
)


@njit(**_OPTS)
def bdim(cur, s):  # type: ignore[no-untyped-def]
    """Broadcast a size ``s`` into the size ``cur`` so far; -1 marks a clash
    (and stays -1)."""
    if s == 1:
        return cur
    if cur == 1 or cur == s:
        return s
    return -1


@njit(**_OPTS)
def check_mask(mshape, xshape, axis):  # type: ignore[no-untyped-def]
    """numpy's ``IndexError`` when a boolean mask's shape differs from the
    axes of ``x`` it covers (starting at ``axis``)."""
    for k in range(len(mshape)):
        n = xshape[axis + k]
        if mshape[k] != n:
            raise IndexError(
                "boolean index did not match indexed array along axis "
                + str(axis + k)
                + "; size of axis is "
                + str(n)
                + " but size of corresponding boolean axis is "
                + str(mshape[k])
            )


def _tuple(items: list[str]) -> str:
    return "(" + "".join(f"{s}, " for s in items) + ")"


class _Plan:
    """The generated statements locating ``x[idx]``'s elements: after
    ``lines``, ``flat`` are the (size, loop variable or None) of the output
    with the advanced block as one dimension, ``final`` the output's shape
    and ``xidx`` the index of ``x`` read at each point of the loop nest."""

    def __init__(self, op: Any, node: Apply, first: int, what: str) -> None:
        x = node.inputs[0]
        ndim = x.type.ndim  # type: ignore[attr-defined]
        index_inputs = node.inputs[first:]
        names: dict[int, str] = {}
        for j in reversed(range(len(index_inputs))):
            names[id(index_inputs[j])] = f"p{j}"
        layout = index_layout(ndim, op.idx_list, index_inputs)
        self.lines: list[str] = []
        xidx: list[str] = ["?"] * ndim
        lines = self.lines

        def text(p: Any) -> str:
            if isinstance(p, Variable):
                return f"np.int64({names[id(p)]}[()])"
            return "None" if p is None else repr(int(p))

        # integer entries (advanced 0-d ones and, with no arrays, basic ones)
        ints = list(layout.ints) + [(a, v) for kind, a, v in layout.adv if kind == "int"]
        for axis, v in ints:
            raw = f"{names[id(v)]}[()]" if isinstance(v, Variable) else repr(int(v))
            lines.append(f"    c{axis} = wrap_index({raw}, x.shape[{axis}], {axis})")
            xidx[axis] = f"c{axis}"
        # index arrays and masks
        bcast: list[tuple[str, int]] = []
        vectors: list[tuple[str, int, int]] = []  # (array expr, x axis, vector number)
        for kind, axis, v in layout.adv:
            if kind == "array":
                bcast.append((names[id(v)], v.ndim))
                vectors.append((names[id(v)], axis, len(vectors)))
            elif kind == "mask" and v.ndim == 0:
                m = f"m{len(bcast)}"
                lines.append(f"    {m} = np.empty(1 if {names[id(v)]}[()] else 0, np.int64)")
                bcast.append((m, 1))
            elif kind == "mask":
                m = names[id(v)]
                lines += [
                    f"    check_mask({m}.shape, x.shape, {axis})",
                    f"    nz{axis} = np.nonzero({m})",
                ]
                for k in range(v.ndim):
                    bcast.append((f"nz{axis}[{k}]", 1))
                    vectors.append((f"nz{axis}[{k}]", axis + k, len(vectors)))
        nb = layout.adv_ndim
        bsizes = [f"b{j}" for j in range(nb)]
        if nb:
            for j in range(nb):
                lines.append(f"    b{j} = 1")
                for expr, nd in bcast:
                    if j >= nb - nd:
                        lines.append(f"    b{j} = bdim(b{j}, {expr}.shape[{j - (nb - nd)}])")
            cond = " or ".join(f"b{j} < 0" for j in range(nb))
            lines += [
                f"    if {cond}:",
                "        raise IndexError(",
                '            "shape mismatch: indexing arrays could not be broadcast together "',
                f'            "({what})"',
                "        )",
                f"    bshape = {_tuple(bsizes)}",
            ]
            for expr, axis, k in vectors:
                lines.append(f"    f{k} = index_vector({expr}, bshape, x.shape[{axis}], {axis})")
                xidx[axis] = f"f{k}[ib]"
        # the output's dimensions
        self.flat: list[tuple[str, str | None]] = []
        self.final: list[str] = []
        for item in layout.out:
            d = len(self.flat)
            if item[0] == "new":
                self.flat.append(("1", None))
                self.final.append("1")
            elif item[0] == "adv":
                self.final.append(f"b{item[1]}")
                if item[1] == 0:
                    total = " * ".join(bsizes)
                    self.flat.append((f"({total})", "ib"))
            else:
                _, axis, parts = item
                if parts is None:
                    size = f"x.shape[{axis}]"
                    xidx[axis] = f"i{d}"
                else:
                    bounds = ", ".join(text(p) for p in parts)
                    lines += [
                        f"    s{axis}, e{axis}, t{axis} = slice({bounds}).indices(x.shape[{axis}])",
                        f"    n{axis} = len(range(s{axis}, e{axis}, t{axis}))",
                    ]
                    size = f"n{axis}"
                    xidx[axis] = f"s{axis} + t{axis} * i{d}"
                self.flat.append((size, f"i{d}"))
                self.final.append(size)
        if "?" in xidx:
            raise Unsupported(f"{what}: index {op.idx_list}")
        self.xidx = xidx

    def out_index(self) -> str:
        return _tuple([var or "0" for _, var in self.flat])

    def loops(self, body: list[str], indent: str = "    ") -> list[str]:
        lines = []
        for size, var in self.flat:
            if var is not None:
                lines.append(f"{indent}for {var} in range({size}):")
                indent += "    "
        return lines + [indent + b for b in body]


def _x_at(plan: _Plan, arr: str) -> str:
    return f"{arr}[{_tuple(plan.xidx)}]"


@numba_funcify.register(AdvancedSubtensor)
def _funcify_advanced_subtensor(op: AdvancedSubtensor, node: Apply) -> str:
    x = node.inputs[0]
    dtype = x.type.dtype  # type: ignore[attr-defined]
    if dtype == "float16":
        raise Unsupported("AdvancedSubtensor: float16")
    plan = _Plan(op, node, 1, str(op))
    params = ["x", *[f"p{j}" for j in range(len(node.inputs) - 1)]]
    lines = [_IMPORTS, JIT, f"def kernel({', '.join(params)}):", *plan.lines]
    flat = _tuple([size for size, _ in plan.flat])
    lines.append(f"    out = np.empty({flat}, {np_dtype(dtype)})")
    lines += plan.loops([f"out[{plan.out_index()}] = {_x_at(plan, 'x')}"])
    lines.append(f"    return (reshaped(out, {_tuple(plan.final)}),)")
    return "\n".join(lines) + "\n"


def _value_lines(y: Any, target: list[str], flat: list[str], what: str) -> tuple[list[str], str]:
    """Statements making the update value readable at each point of the loop
    nest (``yv`` for a 0-d value, else ``yb`` broadcast and flattened like the
    output), and the expression reading it (with ``oi``, the output index)."""
    yndim = y.type.ndim
    extra = yndim - len(target)
    lines: list[str] = []
    name = "y"
    if extra > 0:
        cond = " or ".join(f"y.shape[{k}] != 1" for k in range(extra))
        lines += [
            f"    if {cond}:",
            f'        raise ValueError("could not broadcast the value into the target ({what})")',
            f"    yy = y[{', '.join(['0'] * extra)}]",
        ]
        name, yndim = "yy", len(target)
    if yndim == 0 or (extra > 0 and not target):
        lines.append("    yv = y[()]" if name == "y" else "    yv = yy")
        return lines, "yv"
    lines += [
        f"    tshape = {_tuple(target)}",
        f"    if not can_broadcast({name}.shape, tshape):",
        "        raise ValueError(",
        '            "shape mismatch: value array could not be broadcast to indexing result "',
        f'            "({what})"',
        "        )",
        f"    yb = broadcast_to_shape({name}, tshape)",
        f"    yb = np.ascontiguousarray(yb).reshape({_tuple(flat)})",
    ]
    return lines, "yb[oi]"


@numba_funcify.register(AdvancedIncSubtensor)
def _funcify_advanced_inc_subtensor(op: AdvancedIncSubtensor, node: Apply) -> str:
    x, y = node.inputs[:2]
    xdt, ydt = x.type.dtype, y.type.dtype  # type: ignore[attr-defined]
    plan = _Plan(op, node, 2, str(op))
    params = ["x", "y", *[f"p{j}" for j in range(len(node.inputs) - 2)]]
    lines = [_IMPORTS, JIT, f"def kernel({', '.join(params)}):"]
    lines.append("    out = x" if op.inplace else "    out = x.copy()")
    lines += plan.lines
    ind = node.inputs[2] if len(node.inputs) == 3 else None
    if (
        op.set_instead_of_inc
        and op.idx_list == (INPUT,)
        and ind is not None
        and ind.type.dtype == "bool"  # type: ignore[attr-defined]
        and ind.type.ndim == x.type.ndim  # type: ignore[attr-defined]
        and y.type.ndim > 1  # type: ignore[attr-defined]
    ):
        # numpy's x[mask] = y (one full-rank mask) takes only a 0-d or 1-d y
        lines += [
            "    raise TypeError(",
            '        "NumPy boolean array indexing assignment requires a 0 or 1-dimensional "',
            f'        "input, input has {y.type.ndim} dimensions ({op})"',  # type: ignore[attr-defined]
            "    )",
            "    return (out,)",
        ]
        return "\n".join(lines) + "\n"
    flat = [size for size, _ in plan.flat]
    vlines, yval = _value_lines(y, plan.final, flat, str(op))
    lines += vlines
    at = _x_at(plan, "out")
    oi = f"    oi = {plan.out_index()}"
    if op.set_instead_of_inc or op.accumulate:
        mode = "set" if op.set_instead_of_inc else "add"
        expr, _ = update_expr(mode, at, yval, xdt, ydt, str(op))
        lines += plan.loops([oi.strip(), f"{at} = {expr}"])
    else:
        # numpy's x[idx] += y: gather, add, scatter (a repeat gets one increment)
        expr, _ = update_expr("add", at, yval, xdt, ydt, str(op))
        lines.append(f"    tmp = np.empty({_tuple(flat)}, {np_dtype(xdt)})")
        lines += plan.loops([oi.strip(), f"tmp[oi] = {expr}"])
        lines += plan.loops([oi.strip(), f"{at} = tmp[oi]"])
    lines.append("    return (out,)")
    return "\n".join(lines) + "\n"


@numba_funcify.register(Take)
def _funcify_take(op: Take, node: Apply) -> str:
    x, ind = node.inputs
    ndim, ind_ndim = x.type.ndim, ind.type.ndim  # type: ignore[attr-defined]
    dtype = x.type.dtype  # type: ignore[attr-defined]
    axis = op.axis
    outer = " * ".join(f"x.shape[{k}]" for k in range(axis)) or "1"
    inner = " * ".join(f"x.shape[{k}]" for k in range(axis + 1, ndim)) or "1"
    final = (
        [f"x.shape[{k}]" for k in range(axis)]
        + [f"ind.shape[{k}]" for k in range(ind_ndim)]
        + [f"x.shape[{k}]" for k in range(axis + 1, ndim)]
    )
    return "\n".join(
        [
            _IMPORTS,
            JIT,
            "def kernel(x, ind):",
            f"    p = {outer}",
            f"    q = {inner}",
            f"    n = x.shape[{axis}]",
            "    x3 = np.ascontiguousarray(x).reshape((p, n, q))",
            "    if p > 0:",
            f"        w = index_vector(ind, ind.shape, n, {axis})",
            "    else:",
            "        w = np.zeros(ind.size, np.int64)",
            f"    out = np.empty((p, w.size, q), {np_dtype(dtype)})",
            "    for i in range(p):",
            "        for j in range(w.size):",
            "            for k in range(q):",
            "                out[i, j, k] = x3[i, w[j], k]",
            f"    return (reshaped(out, {_tuple(final)}),)",
        ]
    )


def _along_lines(ndim: int, axis: int, what: str) -> tuple[list[str], list[str]]:
    """Statements computing the output shape ``o<d>`` of ``take_along_axis``
    (``x`` against ``ind``, numpy's broadcast) and the loop variables."""
    lines = []
    for d in range(ndim):
        if d == axis:
            lines.append(f"    o{d} = ind.shape[{d}]")
        else:
            lines.append(f"    o{d} = bdim(bdim(1, x.shape[{d}]), ind.shape[{d}])")
    others = [d for d in range(ndim) if d != axis]
    if others:
        cond = " or ".join(f"o{d} < 0" for d in others)
        lines += [
            f"    if {cond}:",
            "        raise IndexError(",
            '            "shape mismatch: indexing arrays could not be broadcast together "',
            f'            "({what})"',
            "        )",
        ]
    return lines, [f"o{d}" for d in range(ndim)]


def _along_index(arr: str, ndim: int, skip: int | None) -> str:
    """``arr``'s index at loop point ``i0, i1, ...`` (size-1 dims broadcast),
    with ``w`` on axis ``skip``."""
    parts = ["w" if d == skip else f"i{d} * ({arr}.shape[{d}] != 1)" for d in range(ndim)]
    return f"{arr}[{_tuple(parts)}]"


def _loop_nest(sizes: list[str], body: list[str]) -> list[str]:
    lines, indent = [], "    "
    for d, size in enumerate(sizes):
        lines.append(f"{indent}for i{d} in range({size}):")
        indent += "    "
    return lines + [indent + b for b in body]


@numba_funcify.register(TakeAlongAxis)
def _funcify_take_along_axis(op: TakeAlongAxis, node: Apply) -> str:
    x = node.inputs[0]
    ndim = x.type.ndim  # type: ignore[attr-defined]
    dtype = x.type.dtype  # type: ignore[attr-defined]
    lines = [_IMPORTS, JIT, "def kernel(x, ind):"]
    if op.axis is None:
        lines += [
            "    xf = x.ravel()",
            "    w = index_vector(ind, ind.shape, xf.size, 0)",
            "    return (xf[w],)",
        ]
        return "\n".join(lines) + "\n"
    axis = op.axis
    shape_lines, sizes = _along_lines(ndim, axis, str(op))
    lines += shape_lines
    lines.append(f"    out = np.empty({_tuple(sizes)}, {np_dtype(dtype)})")
    body = [
        f"w = wrap_index({_along_index('ind', ndim, None)}, x.shape[{axis}], {axis})",
        f"out[{_tuple([f'i{d}' for d in range(ndim)])}] = {_along_index('x', ndim, axis)}",
    ]
    lines += _loop_nest(sizes, body)
    lines.append("    return (out,)")
    return "\n".join(lines) + "\n"


@numba_funcify.register(IncAlongAxis)
def _funcify_inc_along_axis(op: IncAlongAxis, node: Apply) -> str:
    x, _, y = node.inputs
    ndim, yndim = x.type.ndim, y.type.ndim  # type: ignore[attr-defined]
    xdt, ydt = x.type.dtype, y.type.dtype  # type: ignore[attr-defined]
    lines = [_IMPORTS, JIT, "def kernel(x, ind, y):", "    out = x.copy()"]
    if op.axis is None:
        lines += [
            "    of = out.reshape(-1)",
            "    w = index_vector(ind, ind.shape, of.size, 0)",
        ]
        if yndim:
            lines += [
                "    if not can_broadcast(y.shape, ind.shape):",
                f'        raise ValueError("array is not broadcastable to correct shape ({op})")',
                "    yb = broadcast_to_shape(y, ind.shape)",
            ]
            yval = "yb[i0]"
        else:
            lines.append("    yv = y[()]")
            yval = "yv"
        expr, _ = update_expr("add", "of[w[i0]]", yval, xdt, ydt, str(op))
        lines += _loop_nest(["w.size"], [f"of[w[i0]] = {expr}"])
        lines.append("    return (out,)")
        return "\n".join(lines) + "\n"
    axis = op.axis
    shape_lines, sizes = _along_lines(ndim, axis, str(op))
    lines += shape_lines
    if yndim:
        lines += [
            f"    if not can_broadcast(y.shape, {_tuple(sizes)}):",
            f'        raise ValueError("array is not broadcastable to correct shape ({op})")',
            f"    yb = broadcast_to_shape(y, {_tuple(sizes)})",
        ]
        yval = f"yb[{_tuple([f'i{d}' for d in range(ndim)])}]"
    else:
        lines.append("    yv = y[()]")
        yval = "yv"
    target = _along_index("out", ndim, axis)
    expr, _ = update_expr("add", target, yval, xdt, ydt, str(op))
    body = [
        f"w = wrap_index({_along_index('ind', ndim, None)}, x.shape[{axis}], {axis})",
        f"{target} = {expr}",
    ]
    lines += _loop_nest(sizes, body)
    lines.append("    return (out,)")
    return "\n".join(lines) + "\n"

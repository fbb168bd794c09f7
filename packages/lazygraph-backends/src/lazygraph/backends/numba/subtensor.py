"""Lowerings of basic indexing: ``Subtensor`` (ints, slices, ``None``, ``...``),
its update ``IncSubtensor`` (``set_subtensor`` / ``inc_subtensor``) and
``SliceLength``; plus the index helpers the advanced lowerings share.

The index is spelled out in the kernel source (constant parts inline, graph
inputs read from their 0-d arrays); integer indices are bounds-checked first
(Numba does not check), raising numpy's ``IndexError``. ``Subtensor``'s result
is a view of ``x``, except a full integer index, which gives a fresh 0-d
array. ``IncSubtensor`` writes into a copy of ``x``, or into ``x`` itself when
the op is inplace (its ``destroy_map``); values are converted to ``x``'s dtype
as numpy's assignment does.

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (None, None))
>>> node = x[1, ::2].owner
>>> "wrap_index" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from lazygraph.backends.numba.cache import helper_options
from lazygraph.backends.numba.dispatch import JIT, Unsupported, numba_funcify
from lazygraph.backends.numba.helpers import broadcast_to_shape
from lazygraph.backends.numba.scalar import conv
from lazygraph.graph.basic import Apply
from lazygraph.tensor.indexing import INPUT, Slice, SliceLength, consumed_dims
from lazygraph.tensor.subtensor import IncSubtensor, Subtensor, is_scalar_access

__all__ = ["can_broadcast", "index_vector", "int_text", "wrap_index"]

_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package
_IMPORT = (
    "from lazygraph.backends.numba.subtensor import can_broadcast, python_int_store, wrap_index"
)


@njit(**_OPTS)
def int_text(v):  # type: ignore[no-untyped-def]
    """``str(v)`` of any integer (Numba's ``str`` of a small int type overflows
    on its minimum, e.g. int8's -128 or int64's)."""
    if v < 0:
        return "-" + str(np.uint64(-(np.int64(v) + 1)) + np.uint64(1))
    return str(np.uint64(v))


@njit(**_OPTS)
def python_int_store(v, lo, hi):  # type: ignore[no-untyped-def]
    """``v`` (a float or a wider int), which numpy stores into one element of a
    signed integer array through a Python int: NaN is a ``ValueError``, infinity
    or a truncated value outside ``[lo, hi)`` an ``OverflowError``."""
    if v != v:
        raise ValueError("cannot convert float NaN to integer")
    w = np.trunc(v) if isinstance(v, float) else v
    if not (w >= lo and w < hi):
        raise OverflowError("the sum is out of bounds for the array's integer dtype")
    return v


@njit(**_OPTS)
def wrap_index(v, n, axis):  # type: ignore[no-untyped-def]
    """The index ``v`` into an axis of size ``n``, negative values counted from
    the end; numpy's ``IndexError`` when it is out of bounds."""
    if v < -n or v >= n:
        raise IndexError(
            "index "
            + int_text(v)
            + " is out of bounds for axis "
            + str(axis)
            + " with size "
            + str(n)
        )
    w = np.int64(v)
    if w < 0:
        w += n
    return w


@njit(**_OPTS)
def index_vector(a, bshape, n, axis):  # type: ignore[no-untyped-def]
    """The integer index array ``a`` broadcast to ``bshape``, flattened (C
    order), bounds-checked against an axis of size ``n`` and wrapped to
    ``0 <= i < n`` as int64."""
    ab = broadcast_to_shape(a, bshape)
    out = np.empty(ab.size, np.int64)
    for k, v in enumerate(ab.flat):
        out[k] = wrap_index(v, n, axis)
    return out


@njit(**_OPTS)
def can_broadcast(src, dst):  # type: ignore[no-untyped-def]
    """Whether an array of shape ``src`` (a non-empty tuple) broadcasts to
    ``dst`` without growing ``dst`` (numpy's rule for assigned values)."""
    extra = len(src) - len(dst)
    for k in range(len(src)):
        s = src[k]
        if k < extra:
            if s != 1:
                return False
        elif s != 1 and s != dst[k - extra]:
            return False
    return True


def np_dtype(dtype: str) -> str:
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"


def _basic_index(
    op: Subtensor | IncSubtensor, ndim: int, arr: str, first_param: int
) -> tuple[list[str], list[str]]:
    """(statements, index parts) reading ``op.idx_list`` on ``arr``: integer
    indices bounds-checked and wrapped into ``k<axis>``."""
    n_inputs = sum(
        1 if e is INPUT else (sum(p is INPUT for p in e.parts()) if isinstance(e, Slice) else 0)
        for e in op.idx_list
    )
    counter = iter(range(first_param, first_param + n_inputs))
    used = sum(consumed_dims(e, None) for e in op.idx_list if e is not Ellipsis)
    lines: list[str] = []
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
            value = f"p{next(counter)}[()]" if e is INPUT else repr(int(e))
            lines.append(f"    k{axis} = wrap_index({value}, {arr}.shape[{axis}], {axis})")
            parts.append(f"k{axis}")
            axis += 1
        else:
            raise Unsupported(f"index entry {e!r}")
    return lines, parts


@numba_funcify.register(Subtensor)
def _funcify_subtensor(op: Subtensor, node: Apply) -> str:
    x = node.inputs[0]
    ndim = x.type.ndim  # type: ignore[attr-defined]
    params = ["x", *[f"p{j}" for j in range(len(node.inputs) - 1)]]
    index_lines, parts = _basic_index(op, ndim, "x", 0)
    lines = [_IMPORT, "", "", JIT, f"def kernel({', '.join(params)}):", *index_lines]
    out_ndim = node.outputs[0].type.ndim  # type: ignore[attr-defined]
    if not parts:
        lines.append("    return (x,)")
    elif out_ndim == 0:
        lines += [
            f"    out = np.empty((), {np_dtype(x.type.dtype)})",  # type: ignore[attr-defined]
            f"    out[()] = x[{', '.join(parts)}]",
            "    return (out,)",
        ]
    else:
        lines.append(f"    return (x[{', '.join(parts)}],)")
    return "\n".join(lines) + "\n"


def update_expr(
    mode: str, old: str, new: str, x_dtype: str, y_dtype: str, what: str
) -> tuple[str, str]:
    """(expression of the value stored, dtype it is computed in) when ``new``
    (of ``y_dtype``) is set into / added to ``old`` (of ``x_dtype``)."""
    src = y_dtype if mode == "set" else str(np.result_type(x_dtype, y_dtype))
    if "float16" in (x_dtype, y_dtype):
        raise Unsupported(f"{what}: float16")
    # an increment adds in numpy's result dtype (Numba adds int64 and uint64 exactly)
    total = f"{conv(old, x_dtype, src)} + {conv(new, y_dtype, src)}"
    expr = new if mode == "set" else total
    if x_dtype == "bool":
        return f"(({expr}) != 0)", src
    if np.dtype(src).kind == "c" and np.dtype(x_dtype).kind != "c":
        # numpy drops the imaginary part (with a ComplexWarning)
        expr, src = f"({expr}).real", np.dtype(src).char.lower()
        src = np.dtype(src).name
    return conv(expr, src, x_dtype), src


@numba_funcify.register(IncSubtensor)
def _funcify_inc_subtensor(op: IncSubtensor, node: Apply) -> str:
    x, y = node.inputs[:2]
    ndim, yndim = x.type.ndim, y.type.ndim  # type: ignore[attr-defined]
    xdt, ydt = x.type.dtype, y.type.dtype  # type: ignore[attr-defined]
    mode = "set" if op.set_instead_of_inc else "inc"
    scalar = is_scalar_access(op.idx_list, ndim)
    if scalar and yndim:
        raise Unsupported("IncSubtensor: an array value for a single element")
    params = ["x", "y", *[f"p{j}" for j in range(len(node.inputs) - 2)]]
    index_lines, parts = _basic_index(op, ndim, "out", 0)
    lines = [_IMPORT, "", "", JIT, f"def kernel({', '.join(params)}):"]
    lines.append("    out = x" if op.inplace else "    out = x.copy()")
    lines += index_lines
    target_ndim = ndim + sum(e is None for e in op.idx_list)
    target_ndim -= sum(e is INPUT or isinstance(e, int) for e in op.idx_list)
    # Numba has no ``a[...]``: a whole-array target is ``a[:, :]`` (or ``a[()]``)
    where = ", ".join(parts or [":"] * ndim) or "()"
    # numpy's assignment drops the value's leading size-1 dims
    extra = yndim - target_ndim
    new = "yb[idx]"
    if extra > 0:
        cond = " or ".join(f"y.shape[{k}] != 1" for k in range(extra))
        lines += [
            f"    if {cond}:",
            f'        raise ValueError("could not broadcast input array into the target ({op})")',
            f"    yy = y[{', '.join(['0'] * extra)}]",
        ]
        yname, yndim = "yy", yndim - extra
        if yndim == 0:
            lines.append("    yv = yy")
            new = "yv"
    else:
        yname = "y"
        if yndim == 0:
            lines.append("    yv = y[()]")
            new = "yv"
    if target_ndim == 0:
        common = np.result_type(xdt, ydt)
        python_int = np.dtype(xdt).kind == "i" and common != xdt and common.kind in "iuf"
        if scalar and mode == "inc" and python_int and not op.accumulate:
            # numpy stores the wider sum through a Python int (errors out of range)
            info = np.iinfo(xdt)
            total = f"{conv(f'out[{where}]', xdt, common.name)} + {conv('yv', ydt, common.name)}"
            lo, hi = (float(info.min), float(info.max) + 1.0)
            if common.kind != "f":
                lo, hi = (int(info.min), int(info.max) + 1)
            lines.append(f"    total = python_int_store({total}, {lo!r}, {hi!r})")
            expr = conv("total", common.name, xdt)
        else:
            expr, _ = update_expr(mode, f"out[{where}]", "yv", xdt, ydt, str(op))
        lines += [f"    out[{where}] = {expr}", "    return (out,)"]
        return "\n".join(lines) + "\n"
    lines.append(f"    v = out[{where}]")
    if yndim:
        lines += [
            f"    if not can_broadcast({yname}.shape, v.shape):",
            "        raise ValueError(",
            f'            "could not broadcast the value into the indexed shape ({op})"',
            "        )",
            f"    yb = broadcast_to_shape({yname}, v.shape)",
        ]
    expr, _ = update_expr(mode, "v[idx]", new, xdt, ydt, str(op))
    if mode == "set" and xdt == ydt and yndim:
        lines.append("    v[...] = yb")
    else:
        lines += ["    for idx in np.ndindex(v.shape):", f"        v[idx] = {expr}"]
    lines.append("    return (out,)")
    return "\n".join(lines) + "\n"


@numba_funcify.register(SliceLength)
def _funcify_slice_length(op: SliceLength, node: Apply) -> str:
    n_parts = len(node.inputs) - 1
    params = ["n", *[f"p{j}" for j in range(n_parts)]]
    counter = iter(range(n_parts))
    bounds = [
        f"np.int64(p{next(counter)}[()])" if p is INPUT else ("None" if p is None else repr(p))
        for p in op.spec.parts()
    ]
    return "\n".join(
        [
            JIT,
            f"def kernel({', '.join(params)}):",
            f"    s, e, t = slice({', '.join(bounds)}).indices(np.int64(n[()]))",
            "    out = np.empty((), np.int64)",
            "    out[()] = len(range(s, e, t))",
            "    return (out,)",
        ]
    )

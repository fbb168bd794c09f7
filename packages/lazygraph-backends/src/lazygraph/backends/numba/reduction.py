"""Lowerings of ``Reduce``: sum, prod, max, min, all, any, mean,
count_nonzero, argmax and argmin as generated loop nests.

When the reduced axes are the trailing ones (``sum(x, axis=-1)``, full
reductions), each output element is accumulated in a local variable by the
inner loops; otherwise the output array itself is the accumulator. max/min
propagate NaN as numpy does; argmax/argmin return the first NaN's index, like
numpy. Zero-size reductions without identity raise numpy's ``ValueError``.
Complex inputs reduce with sum, prod, mean, all, any, count_nonzero, var and
std, max, min, argmax and argmin (numpy's lexicographic order); logsumexp of
complex values runs through ``perform``.

>>> import lazygraph.tensor as lt
>>> node = lt.sum(lt.tensor("float64", (None, None)), axis=1).owner
>>> "acc = acc + v" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

import numpy as np

from lazygraph.backends.numba.dispatch import (
    JIT,
    JIT_PARALLEL,
    Unsupported,
    numba_funcify,
    numba_funcify_parallel,
)
from lazygraph.backends.numba.scalar import conv, literal, to_dtype
from lazygraph.graph.basic import Apply
from lazygraph.tensor.elemwise import SumToShape
from lazygraph.tensor.reduction import KINDS, Reduce

__all__ = ["accumulator_dtype", "reduce_loops"]

_SIMPLE = ("sum", "prod", "max", "min", "all", "any", "mean", "count_nonzero")


def _np_dtype(dtype: str) -> str:
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"


def _identity(kind: str, dtype: str) -> str:
    if kind in ("sum", "mean", "count_nonzero"):
        return literal(0, dtype)
    if kind == "prod":
        return literal(1, dtype)
    if kind == "all":
        return "True"
    if kind == "any":
        return "False"
    d = np.dtype(dtype)
    if d.kind == "f":
        return "-np.inf" if kind == "max" else "np.inf"
    if d.kind == "c":
        # below (above) every number in numpy's lexicographic order
        inf = "-np.inf" if kind == "max" else "np.inf"
        return f"{_np_dtype(dtype)}(complex({inf}, {inf}))"
    if d.kind == "b":
        return "False" if kind == "max" else "True"
    info = np.iinfo(d)
    return literal(int(info.min) if kind == "max" else int(info.max), dtype)


def _update(kind: str, acc: str, v: str, isfloat: bool, iscomplex: bool = False) -> list[str]:
    """Statements folding value ``v`` into accumulator ``acc``."""
    if kind in ("sum", "mean"):
        return [f"{acc} = {acc} + v"]
    if kind == "count_nonzero":
        return [f"{acc} = {acc} + ({v} != 0)"]
    if kind == "prod":
        return [f"{acc} = {acc} * v"]
    if kind == "all":
        return [f"{acc} = {acc} and ({v} != 0)"]
    if kind == "any":
        return [f"{acc} = {acc} or ({v} != 0)"]
    if iscomplex:  # numpy's lexicographic maximum/minimum, NaN propagating
        return [f"{acc} = complex_{kind}imum({acc}, {v})"]
    cmp = ">" if kind == "max" else "<"
    cond = f"{v} {cmp} {acc}" + (f" or {v} != {v}" if isfloat else "")
    if isfloat:
        # once the accumulator is NaN it stays NaN (numpy propagates NaN)
        cond = f"({acc} == {acc}) and ({cond})"
    return [f"if {cond}:", f"    {acc} = {v}"]


def _empty_check(op: Reduce, lines: list[str], dims: list[str] | None = None) -> None:
    if KINDS[op.kind].identity:
        return
    name = KINDS[op.kind].numpy_name
    what = (
        f"attempt to get {name} of an empty sequence"
        if op.kind in ("argmax", "argmin")
        else f"zero-size array to reduction operation {name} which has no identity"
    )
    for a in op.axis:
        size = f"x.shape[{a}]" if dims is None else dims[a]
        lines += [f"    if {size} == 0:", f'        raise ValueError("{op.kind}: {what}")']


#: the wider accumulator of a float32 / complex64 sum: a loop adds one element at
#: a time, and in float32 its error grows with the count (10,000 values of 0.1
#: summed 2e-4 off), where numpy's pairwise summation stays within a few ulps;
#: adding in float64 and rounding once is as close as numpy's, or closer
_WIDE = {"float32": "float64", "complex64": "complex128"}


def accumulator_dtype(op: Reduce, out_dtype: str, trailing: bool = True) -> str:
    """The dtype a reduction kernel accumulates ``op`` in: the output's, or the
    op's ``dtype=``; float64 for a float32 sum or mean over trailing axes (see
    :data:`_WIDE`). Over leading axes numpy adds row after row in float32
    itself (its pairwise summation runs along contiguous memory only), and so
    does the kernel."""
    if op.kind in ("all", "any"):
        return "bool"
    if op.kind == "count_nonzero":
        return out_dtype
    acc = op.dtype or out_dtype
    if op.kind in ("sum", "mean") and trailing:
        return _WIDE.get(acc, acc)
    return acc


def reduce_loops(
    op: Reduce,
    ndim: int,
    elem_dtype: str,
    out_dtype: str,
    dims: list[str],
    load: list[str],
    parallel: bool = False,
) -> list[str]:
    """Kernel statements reducing the values of an ``ndim``-d loop nest over
    sizes ``dims`` with ``op``; ``load`` are statements setting ``v`` (the
    value at indices ``i0, i1, ...``, of ``elem_dtype``). Ends with a
    ``return``. With ``parallel`` (only when the reduced axes are the trailing
    ones and at least one axis is kept), the outermost kept loop is a
    ``prange``: each thread accumulates whole output elements."""
    axes = op.axis
    kept = [k for k in range(ndim) if k not in axes]
    trailing = all(k in axes for k in range(ndim - len(axes), ndim))
    acc_dtype = accumulator_dtype(op, out_dtype, trailing)
    isfloat = np.dtype(elem_dtype).kind == "f"
    iscomplex = np.dtype(elem_dtype).kind == "c"
    lines: list[str] = []
    _empty_check(op, lines, dims)
    out_shape = "(" + "".join(f"{dims[k]}, " for k in kept) + ")"
    lines.append(f"    out = np.empty({out_shape}, {_np_dtype(acc_dtype)})")
    out_idx = "(" + "".join(f"i{k}, " for k in kept) + ")"
    if parallel and not (trailing and kept):
        raise Unsupported("only a reduction of trailing axes keeping an axis runs in parallel")
    if op.kind in ("sum", "prod", "mean"):
        load = [*load, f"v = {to_dtype(conv('v', elem_dtype, acc_dtype), acc_dtype)}"]
    indent = "    "
    if trailing:
        for k in kept:
            loop = "prange" if parallel and k == kept[0] else "range"
            lines.append(f"{indent}for i{k} in {loop}({dims[k]}):")
            indent += "    "
        lines.append(f"{indent}acc = {_identity(op.kind, acc_dtype)}")
        for k in axes:
            lines.append(f"{indent}for i{k} in range({dims[k]}):")
            indent += "    "
        lines += [f"{indent}{s}" for s in load]
        lines += [f"{indent}{s}" for s in _update(op.kind, "acc", "v", isfloat, iscomplex)]
        indent = "    " + "    " * len(kept)
        lines.append(f"{indent}out[{out_idx}] = acc")
    else:
        lines.append(f"    out.fill({_identity(op.kind, acc_dtype)})")
        for k in range(ndim):
            lines.append(f"{indent}for i{k} in range({dims[k]}):")
            indent += "    "
        lines += [f"{indent}{s}" for s in load]
        lines.append(f"{indent}acc = out[{out_idx}]")
        lines += [f"{indent}{s}" for s in _update(op.kind, "acc", "v", isfloat, iscomplex)]
        lines.append(f"{indent}out[{out_idx}] = acc")
    result = "out"
    if op.kind == "mean":
        count = "(" + (" * ".join(dims[a] for a in axes) or "1") + ")"
        lines.append(f"    res = np.empty(out.shape, {_np_dtype(out_dtype)})")
        lines.append("    fo = out.reshape(out.size)")
        lines.append("    fr = res.reshape(res.size)")
        lines.append("    for j in range(out.size):")
        quotient = acc_dtype if np.dtype(acc_dtype).kind in "fc" else "float64"
        value = conv(f"fo[j] / {count}", quotient, out_dtype)  # numpy's cast of the mean
        lines.append(f"        fr[j] = {to_dtype(value, out_dtype)}")
        result = "res"
    elif acc_dtype != out_dtype:
        lines.append(f"    {result} = out.astype({_np_dtype(out_dtype)})")
    if op.keepdims:
        shape = "(" + "".join("1, " if k in axes else f"{dims[k]}, " for k in range(ndim)) + ")"
        lines.append(f"    return ({result}.reshape({shape}),)")
    else:
        lines.append(f"    return ({result},)")
    return lines


def _row_source(op: Reduce, node: Apply, parallel: bool = False) -> str:
    """max / min of a float array over trailing axes: the last axis's rows go
    to :func:`~lazygraph.backends.numba.helpers.row_max` (``row_min``), whose
    loop vectorizes; the other reduced axes fold the row results."""
    x = node.inputs[0]
    ndim = x.type.ndim  # type: ignore[attr-defined]
    dtype = x.type.dtype  # type: ignore[attr-defined]
    kept = [k for k in range(ndim) if k not in op.axis]
    if parallel and not kept:
        raise Unsupported("a full reduction runs serially")
    lines = [JIT_PARALLEL if parallel else JIT, "def kernel(x):"]
    _empty_check(op, lines)
    lines.append(
        "    out = np.empty((" + "".join(f"x.shape[{k}], " for k in kept) + f"), np.{dtype})"
    )
    indent = "    "
    for k in range(ndim - 1):
        if k == len(kept):
            lines.append(f"{indent}acc = {_identity(op.kind, dtype)}")
        loop = "prange" if parallel and k == 0 else "range"
        lines.append(f"{indent}for i{k} in {loop}(x.shape[{k}]):")
        indent += "    "
    if len(kept) == ndim - 1:
        lines.append(f"{indent}acc = {_identity(op.kind, dtype)}")
    row = "x[" + "".join(f"i{k}, " for k in range(ndim - 1)) + ":]"
    lines.append(f"{indent}v = row_{op.kind}({row})")
    lines += [f"{indent}{s}" for s in _update(op.kind, "acc", "v", True)]
    out_idx = "(" + "".join(f"i{k}, " for k in kept) + ")"
    lines.append("    " * (len(kept) + 1) + f"out[{out_idx}] = acc")
    if op.keepdims:
        shape = (
            "(" + "".join("1, " if k in op.axis else f"x.shape[{k}], " for k in range(ndim)) + ")"
        )
        lines.append(f"    return (out.reshape({shape}),)")
    else:
        lines.append("    return (out,)")
    return "\n".join(lines) + "\n"


def _by_rows(op: Reduce, node: Apply) -> bool:
    ndim = node.inputs[0].type.ndim  # type: ignore[attr-defined]
    axes = op.axis
    trailing = all(k in axes for k in range(ndim - len(axes), ndim))
    dtype = node.inputs[0].type.dtype  # type: ignore[attr-defined]
    return op.kind in ("max", "min") and dtype in ("float32", "float64") and trailing and bool(axes)


def _reduce_source(op: Reduce, node: Apply, parallel: bool = False) -> str:
    if _by_rows(op, node):
        return _row_source(op, node, parallel)
    x = node.inputs[0]
    ndim = x.type.ndim  # type: ignore[attr-defined]
    dims = [f"x.shape[{k}]" for k in range(ndim)]
    in_idx = ", ".join(f"i{k}" for k in range(ndim)) if ndim else "()"
    body = reduce_loops(
        op,
        ndim,
        x.type.dtype,  # type: ignore[attr-defined]
        node.outputs[0].type.dtype,  # type: ignore[attr-defined]
        dims,
        [f"v = x[{in_idx}]"],
        parallel,
    )
    return "\n".join([JIT_PARALLEL if parallel else JIT, "def kernel(x):", *body]) + "\n"


def _arg_source(op: Reduce, node: Apply) -> str:
    x = node.inputs[0]
    ndim = x.type.ndim  # type: ignore[attr-defined]
    kind = x.type.numpy_dtype.kind  # type: ignore[attr-defined]
    isfloat = kind in "fc"
    if kind == "c":  # numpy's lexicographic order; a NaN in either part is the answer
        name = "greater" if op.kind == "argmax" else "less"
        better = f"complex_{name}(v, best)"
        nan = "{0}.real != {0}.real or {0}.imag != {0}.imag".format
    else:
        better = f"v {'>' if op.kind == 'argmax' else '<'} best"
        nan = "{0} != {0}".format
    first_ok = f"not ({nan('best')})" if isfloat else "True"
    lines = [JIT, "def kernel(x):"]
    _empty_check(op, lines)
    nan_check = [f"if {nan('v')}:", "    best = v", "    idx = j", "    break"] if isfloat else []
    if len(op.axis) != 1 or ndim <= 1:
        # numpy's axis=None: the index into the flattened array
        lines += [
            "    flat = x.ravel()",
            "    best = flat[0]",
            "    idx = 0",
        ]
        lines += [
            f"    if {first_ok}:",
            "        for j in range(1, flat.size):",
            "            v = flat[j]",
            *[f"            {s}" for s in nan_check],
            f"            if {better}:",
            "                best = v",
            "                idx = j",
            "    out = np.empty((), np.int64)",
            "    out[()] = idx",
        ]
        shape = "(" + "1, " * ndim + ")"
        result = f"out.reshape({shape})" if op.keepdims else "out"
        lines.append(f"    return ({result},)")
        return "\n".join(lines) + "\n"
    (a,) = op.axis
    kept = [k for k in range(ndim) if k != a]
    lines.append("    out = np.empty((" + "".join(f"x.shape[{k}], " for k in kept) + "), np.int64)")
    indent = "    "
    for k in kept:
        lines.append(f"{indent}for i{k} in range(x.shape[{k}]):")
        indent += "    "

    def at(j: str) -> str:
        return "x[" + ", ".join(j if k == a else f"i{k}" for k in range(ndim)) + "]"

    out_idx = "(" + "".join(f"i{k}, " for k in kept) + ")"
    lines += [
        f"{indent}best = {at('0')}",
        f"{indent}idx = 0",
        f"{indent}if {first_ok}:",
        f"{indent}    for j in range(1, x.shape[{a}]):",
        f"{indent}        v = {at('j')}",
        *[f"{indent}        {s}" for s in nan_check],
        f"{indent}        if {better}:",
        f"{indent}            best = v",
        f"{indent}            idx = j",
        f"{indent}out[{out_idx}] = idx",
    ]
    if op.keepdims:
        shape = "(" + "".join("1, " if k == a else f"x.shape[{k}], " for k in range(ndim)) + ")"
        lines.append(f"    return (out.reshape({shape}),)")
    else:
        lines.append("    return (out,)")
    return "\n".join(lines) + "\n"


@numba_funcify.register(Reduce)
def _funcify_reduce(op: Reduce, node: Apply) -> str:
    x = node.inputs[0]
    complex_values = "c" in (x.type.numpy_dtype.kind, node.outputs[0].type.numpy_dtype.kind)  # type: ignore[attr-defined]
    complex_kinds = ("sum", "prod", "mean", "all", "any", "count_nonzero", "max", "min")
    complex_kinds += ("var", "std", "argmax", "argmin")  # var/std: |x - mean|**2
    if complex_values and op.kind not in complex_kinds:
        raise Unsupported(f"{op.kind} of complex values")
    if op.kind in ("argmax", "argmin"):
        return _arg_source(op, node)
    if op.kind in ("var", "std", "logsumexp"):
        return _rowwise_source(op, node)
    if op.kind not in _SIMPLE:
        raise Unsupported(f"reduction {op.kind}")
    return _reduce_source(op, node)


def _rowwise_source(op: Reduce, node: Apply, parallel: bool = False) -> str:
    """var, std and logsumexp: the input is transposed so the reduced axes come
    last and viewed as a (kept, reduced) matrix; each row is reduced in two
    passes (the mean, then squared deviations; the max, then the shifted sum of
    exponentials), as numpy and scipy do. ``parallel``: rows are shared
    among threads."""
    x = node.inputs[0]
    ndim = x.type.ndim  # type: ignore[attr-defined]
    in_dt = np.dtype(x.type.dtype)  # type: ignore[attr-defined]
    out_dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    calc = op.dtype or (in_dt.name if in_dt.kind in "fc" else "float64")
    if op.kind == "logsumexp":
        calc = out_dtype
    axes = list(op.axis)
    kept = [k for k in range(ndim) if k not in axes]
    lines = [JIT_PARALLEL if parallel else JIT, "def kernel(x):"]
    if ndim == 0:
        lines += [f"    y = np.empty((1, 1), {_np_dtype(in_dt.name)})", "    y[0, 0] = x[()]"]
    else:
        perm = "(" + "".join(f"{k}, " for k in kept + axes) + ")"
        rows = " * ".join(f"x.shape[{k}]" for k in kept) or "1"
        cols = " * ".join(f"x.shape[{k}]" for k in axes) or "1"
        lines.append(f"    y = np.ascontiguousarray(x.transpose({perm})).reshape(({rows}, {cols}))")
    lines += [
        "    n = y.shape[1]",
        f"    out = np.empty(y.shape[0], {_np_dtype(out_dtype)})",
        f"    for r in {'prange' if parallel else 'range'}(y.shape[0]):",
    ]
    zero = literal(0, calc)
    read = to_dtype(conv("y[r, j]", in_dt.name, calc), calc)
    if op.kind == "logsumexp":
        lines += [
            "        m = -np.inf",
            "        for j in range(n):",
            f"            v = {read}",
            "            if v > m or v != v:",
            "                m = v",
            "                if v != v:",
            "                    break",
            f"        shift = m if np.isfinite(m) else {zero}",
            f"        acc = {zero}",
            "        for j in range(n):",
            f"            acc += np.exp({read} - shift)",
            f"        out[r] = {to_dtype('np.log(acc) + shift', out_dtype)}",
        ]
    else:
        sq = "(d.real * d.real + d.imag * d.imag)" if np.dtype(calc).kind == "c" else "(d * d)"
        result = "np.sqrt(ss / dof)" if op.kind == "std" else "ss / dof"
        lines += [
            f"        acc = {zero}",
            "        for j in range(n):",
            f"            acc += {read}",
            # Numba's complex division by zero raises; numpy's mean of nothing is NaN
            f"        mean = acc / n if n > 0 else {literal(np.nan, calc)}",
            f"        ss = {literal(0, out_dtype)}",
            "        for j in range(n):",
            f"            d = {read} - mean",
            f"            ss += {sq}",
            f"        dof = max(n - {float(op.correction)!r}, 0.0)",
            f"        out[r] = {to_dtype(result, out_dtype)}",
        ]
    shape = (
        [("1" if k in axes else f"x.shape[{k}]") for k in range(ndim)]
        if op.keepdims
        else [f"x.shape[{k}]" for k in kept]
    )
    lines.append(f"    return (out.reshape(({''.join(s + ', ' for s in shape)})),)")
    return "\n".join(lines) + "\n"


@numba_funcify_parallel.register(Reduce)
def _funcify_reduce_parallel(op: Reduce, node: Apply) -> str:
    _funcify_reduce(op, node)  # raises Unsupported where the serial kernel does
    if op.kind in ("var", "std", "logsumexp"):
        return _rowwise_source(op, node, parallel=True)
    if op.kind not in _SIMPLE:
        raise Unsupported(f"{op.kind} runs serially")
    return _reduce_source(op, node, parallel=True)


@numba_funcify.register(SumToShape)
def _funcify_sum_to_shape(op: SumToShape, node: Apply) -> str:
    g, x = node.inputs
    gd, xd = g.type.ndim, x.type.ndim  # type: ignore[attr-defined]
    dtype = g.type.dtype  # type: ignore[attr-defined]
    lead = gd - xd
    lines = [JIT, "def kernel(g, x):"]
    for k in range(xd):
        lines += [
            f"    if x.shape[{k}] != 1 and x.shape[{k}] != g.shape[{lead + k}]:",
            '        raise ValueError("SumToShape: shapes do not broadcast")',
            f"    t{k} = 0 if x.shape[{k}] == 1 else 1",
        ]
    shape = "(" + "".join(f"x.shape[{k}], " for k in range(xd)) + ")"
    lines.append(f"    out = np.zeros({shape}, {_np_dtype(dtype)})")
    indent = "    "
    for k in range(gd):
        lines.append(f"{indent}for i{k} in range(g.shape[{k}]):")
        indent += "    "
    out_idx = ", ".join(f"i{lead + k} * t{k}" for k in range(xd)) if xd else "()"
    g_idx = ", ".join(f"i{k}" for k in range(gd)) if gd else "()"
    lines.append(f"{indent}out[{out_idx}] += g[{g_idx}]")
    lines.append("    return (out,)")
    return "\n".join(lines) + "\n"

"""Lowerings of the products: ``MatMul`` (batch axes broadcast and looped
over; each matrix product is ``np.dot``, BLAS, for float and complex, a plain
triple loop for integers and bools), ``Einsum`` (loops generated
from the subscripts), ``ExtractDiag`` and ``AllocDiag`` (loops over the
diagonal).

``Einsum`` follows numpy's ``einsum``: every operand is converted to the result
dtype, products are summed in it (integers wrap, as numpy's do; bools are
``or`` of ``and``), a label of size 1 broadcasts against the other operands, a
label repeated in one operand takes its diagonal, and mismatched sizes raise
``ValueError``. The loops run over the output labels, then over the summed ones.

>>> import lazygraph.tensor as lt
>>> node = lt.matmul(lt.tensor("float64", (None, None)), lt.tensor("float64", (None,))).owner
>>> "matmul_blas" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from lazygraph.backends.numba.cache import helper_options
from lazygraph.backends.numba.dispatch import JIT, Unsupported, numba_funcify
from lazygraph.graph.basic import Apply
from lazygraph.tensor.blas import AllocDiag, Einsum, ExtractDiag, MatMul

__all__: list[str] = []


_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package


def blas_operand(x):  # type: ignore[no-untyped-def]
    """``x`` as BLAS takes it: unchanged when it is C- or F-contiguous (numba
    passes a transposed matrix's layout to BLAS: ``X.T @ r`` copies nothing, as
    in numpy), a C-contiguous copy otherwise."""
    return np.ascontiguousarray(x)


@overload(blas_operand)
def _blas_operand(x):  # type: ignore[no-untyped-def]
    if x.layout in ("C", "F"):
        return lambda x: x
    return lambda x: np.ascontiguousarray(x)


@njit(**_OPTS)
def matmul_blas(x, y, out):  # type: ignore[no-untyped-def]
    """``out[...] = x @ y`` for 2-d float or complex operands of ``out``'s dtype,
    ``out`` C-contiguous (BLAS; numba's ``np.dot`` rejects empty operands:
    ``out`` stays zeros)."""
    if x.size and y.size:
        np.dot(blas_operand(x), blas_operand(y), out)


@njit(**_OPTS)
def matmul_loop(x, y, out):  # type: ignore[no-untyped-def]
    """``out += x @ y`` for 2-d integer or bool operands, by loops: the store
    truncates to ``out``'s width (integers wrap, as numpy's); a bool sum is
    their ``or``."""
    for i in range(x.shape[0]):
        for k in range(x.shape[1]):
            xik = x[i, k]
            for j in range(y.shape[1]):
                out[i, j] = out[i, j] + xik * y[k, j]


@numba_funcify.register(MatMul)
def _funcify_matmul(op: MatMul, node: Apply) -> str:
    a, b = node.inputs
    out = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    nda, ndb = a.type.ndim, b.type.ndim  # type: ignore[attr-defined]
    kind = np.dtype(out).kind
    if kind not in "biufc" or out == "float16":
        raise Unsupported(f"matmul of {out}")
    np_dt = _np_dtype(out)
    core = "matmul_blas" if kind in "fc" else "matmul_loop"
    # a 1-d a is a row, a 1-d b a column; both removed from the result
    a2 = "a1.reshape((1, a1.shape[0]))" if nda == 1 else "a1"
    b2 = "b1.reshape((b1.shape[0], 1))" if ndb == 1 else "b1"
    ra, rb = max(nda, 2), max(ndb, 2)
    nbatch = max(ra, rb) - 2
    # one product of matrices: operands go to BLAS in their own layout
    blas = nbatch == 0 and core == "matmul_blas"
    lines = [
        f"from lazygraph.backends.numba.blas import {core}" + (", blas_operand" if blas else ""),
        "",
        "",
        JIT,
        "def kernel(a, b):",
        f"    a1 = {_operand('a', a.type.dtype, out, blas)}",  # type: ignore[attr-defined]
        f"    b1 = {_operand('b', b.type.dtype, out, blas)}",  # type: ignore[attr-defined]
        f"    a2 = {a2}",
        f"    b2 = {b2}",
        f"    bad = a2.shape[{ra - 1}] != b2.shape[{rb - 2}]",
    ]
    for j in range(nbatch):
        ja, jb = j - (nbatch - (ra - 2)), j - (nbatch - (rb - 2))
        sa = f"a2.shape[{ja}]" if ja >= 0 else "1"
        sb = f"b2.shape[{jb}]" if jb >= 0 else "1"
        if sa == "1" or sb == "1":
            lines.append(f"    B{j} = {sb if sa == '1' else sa}")
        else:
            lines += [
                f"    B{j} = {sa} if {sb} == 1 else {sb}",
                f"    bad |= {sa} != 1 and {sb} != 1 and {sa} != {sb}",
            ]
    batch = "".join(f"B{j}, " for j in range(nbatch))
    lines += [
        "    if bad:",
        '        raise ValueError("matmul: shapes do not match in the core dimension '
        'or do not broadcast")',
    ]
    if nbatch:
        lines += [
            f"    ab = np.broadcast_to(a2, ({batch}a2.shape[{ra - 2}], a2.shape[{ra - 1}]))",
            f"    bb = np.broadcast_to(b2, ({batch}b2.shape[{rb - 2}], b2.shape[{rb - 1}]))",
        ]
    else:
        lines += ["    ab = a2", "    bb = b2"]
    lines += [
        f"    out = np.zeros(({batch}a2.shape[{ra - 2}], b2.shape[{rb - 1}]), {np_dt})",
    ]
    indent = "    "
    for j in range(nbatch):
        lines.append(f"{indent}for i{j} in range(B{j}):")
        indent += "    "
    if nbatch:
        idx = "[" + ", ".join(f"i{j}" for j in range(nbatch)) + "]"
        lines.append(f"{indent}{core}(ab{idx}, bb{idx}, out{idx})")
    else:
        lines.append(f"    {core}(ab, bb, out)")
    shape = [f"B{j}" for j in range(nbatch)]
    if nda > 1:
        shape.append(f"a2.shape[{ra - 2}]")
    if ndb > 1:
        shape.append(f"b2.shape[{rb - 1}]")
    if nda == 1 or ndb == 1:
        lines.append(f"    return (out.reshape(({''.join(s + ', ' for s in shape)})),)")
    else:
        lines.append("    return (out,)")
    return "\n".join(lines) + "\n"


def _operand(name: str, dtype: str, out: str, blas: bool) -> str:
    """``name`` as a C-contiguous array of ``out``'s dtype (``blas``: C- or
    F-contiguous, see :func:`blas_operand`): ``astype`` copies even when the
    dtype is already right, so it is only written when it is not."""
    if dtype == out:
        return f"blas_operand({name})" if blas else f"np.ascontiguousarray({name})"
    return f"np.ascontiguousarray({name}).astype({_np_dtype(out)})"


def _np_dtype(dtype: str) -> str:
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"


def _index(names: list[str]) -> str:
    return ", ".join(names) if names else "()"


def _einsum_axis_labels(
    ins: list[str], out: str, ndims: list[int]
) -> tuple[list[list[str]], list[str]]:
    """Each operand's per-axis labels and the output's, with the ellipsis
    expanded into labels ``E0``, ``E1``, ... aligned on the right (broadcast)."""
    n_ell = [nd - (len(t) - 1) if "." in t else 0 for t, nd in zip(ins, ndims, strict=True)]
    width = max(n_ell, default=0)
    operands = []
    for term, n in zip(ins, n_ell, strict=True):
        labels: list[str] = []
        for c in term:
            labels += [f"E{width - n + j}" for j in range(n)] if c == "." else [c]
        operands.append(labels)
    result: list[str] = []
    for c in out:
        result += [f"E{j}" for j in range(width)] if c == "." else [c]
    return operands, result


@numba_funcify.register(Einsum)
def _funcify_einsum(op: Einsum, node: Apply) -> str:
    ndims = [v.type.ndim for v in node.inputs]  # type: ignore[attr-defined]
    ins, out = op._parsed(ndims)
    if "." not in out and any(
        "." in t and len(t) - 1 < nd for t, nd in zip(ins, ndims, strict=True)
    ):
        raise Unsupported("einsum dropping broadcast dimensions")
    operands, result = _einsum_axis_labels(ins, out, ndims)
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    kind = np.dtype(dtype).kind
    if kind not in "biufc" or dtype == "float16":
        raise Unsupported(f"einsum of {dtype}")
    xs = [f"x{k}" for k in range(len(operands))]
    lines = [JIT, f"def kernel({', '.join(xs)}):", "    bad = False"]
    # Each label's size: within an operand the sizes must agree; across operands
    # a size of 1 broadcasts.
    seen: dict[str, bool] = {}
    for k, labels in enumerate(operands):
        first: dict[str, int] = {}
        for ax, c in enumerate(labels):
            size = f"{xs[k]}.shape[{ax}]"
            if c in first:
                lines.append(f"    bad |= {size} != {xs[k]}.shape[{first[c]}]")
                continue
            first[c] = ax
            if c not in seen:
                seen[c] = True
                lines.append(f"    n_{c} = {size}")
            else:
                lines.append(f"    bad |= ({size} != 1) & (n_{c} != 1) & (n_{c} != {size})")
                lines.append(f"    n_{c} = n_{c} if {size} == 1 else {size}")
    lines += [
        "    if bad:",
        '        raise ValueError("einsum: operands could not be broadcast together '
        f'(subscripts {op.subscripts})")',
    ]
    # Broadcast views make every operand indexable by its labels' loop indices;
    # an operand none of whose labels appears in another has its own sizes (no
    # view: each library call in a kernel is typed and compiled with it).
    terms = []
    for k, labels in enumerate(operands):
        if labels:
            shape = "".join(f"n_{c}, " for c in labels)
            shared = any(c in other for j, other in enumerate(operands) if j != k for c in labels)
            view = f"np.broadcast_to({xs[k]}, ({shape}))" if shared else xs[k]
            lines.append(f"    {xs[k]}b = {view}")
            terms.append(f"{xs[k]}b[{', '.join(f'i_{c}' for c in labels)}]")
        else:
            terms.append(f"{xs[k]}[()]")
    np_dt = _np_dtype(dtype)
    if _einsum_is_gemm(operands, result, kind):
        in_dtypes = [v.type.dtype for v in node.inputs]  # type: ignore[attr-defined]
        lines += _einsum_gemm(operands, result, dtype, in_dtypes)
        header = "from lazygraph.backends.numba.blas import matmul_blas\n\n"
        return header + "\n".join(lines) + "\n"
    if kind == "b":
        acc_type, zero = "", "False"
        product = " & ".join(terms)
        store = "acc"
    else:
        acc_type = {"i": "np.int64", "u": "np.uint64"}.get(kind, np_dt)
        zero = f"{acc_type}(0)"
        product = " * ".join(f"{acc_type}({t})" for t in terms)
        store = f"{np_dt}(acc)"
    shape = "".join(f"n_{c}, " for c in result)
    lines.append(f"    out = np.empty(({shape}), {np_dt})")
    summed = [c for c in seen if c not in result]
    indent = "    "
    for c in result:
        lines.append(f"{indent}for i_{c} in range(n_{c}):")
        indent += "    "
    lines.append(f"{indent}acc = {zero}")
    inner = indent
    for c in summed:
        lines.append(f"{inner}for i_{c} in range(n_{c}):")
        inner += "    "
    lines.append(f"{inner}acc = acc | ({product})" if kind == "b" else f"{inner}acc += {product}")
    lines.append(f"{indent}out[{_index([f'i_{c}' for c in result])}] = {store}")
    lines.append("    return (out,)")
    return "\n".join(lines) + "\n"


def _einsum_is_gemm(operands: list[list[str]], result: list[str], kind: str) -> bool:
    """Whether a two-operand float/complex einsum is a batched matrix product:
    no diagonal, every label either in the output or in both operands."""
    if len(operands) != 2 or kind not in "fc" or not all(operands):
        return False
    a, b = operands
    if len(set(a)) < len(a) or len(set(b)) < len(b):
        return False
    return all(c in result or (c in a and c in b) for c in a + b)


def _einsum_gemm(
    operands: list[list[str]], result: list[str], dtype: str, in_dtypes: list[str]
) -> list[str]:
    """Source (after the size checks and the broadcast views ``x0b``, ``x1b``)
    contracting through BLAS: transpose both operands to (batch, free, summed)
    and (batch, summed, free), reshape to 3-d, one ``np.dot`` per batch entry,
    then lay the result out in the output's label order."""
    a, b = operands
    batch = [c for c in result if c in a and c in b]
    free_a = [c for c in a if c not in b]
    free_b = [c for c in b if c not in a]
    summed = [c for c in a if c in b and c not in result]

    def prod(labels: list[str]) -> str:
        return " * ".join(f"n_{c}" for c in labels) or "1"

    perm_a = tuple(a.index(c) for c in batch + free_a + summed)
    perm_b = tuple(b.index(c) for c in batch + summed + free_b)
    order = batch + free_a + free_b
    perm_out = tuple(order.index(c) for c in result)
    shape = "".join(f"n_{c}, " for c in order)
    np_dt = _np_dtype(dtype)

    def laid_out(name: str, perm: tuple[int, ...], in_dtype: str) -> str:
        # identity permutations and casts to the same dtype are left out
        if perm != tuple(range(len(perm))):
            name = f"np.transpose({name}, {perm})"
        return _operand(name, in_dtype, dtype, False)

    lines = [
        f"    at = {laid_out('x0b', perm_a, in_dtypes[0])}",
        f"    bt = {laid_out('x1b', perm_b, in_dtypes[1])}",
        f"    B = {prod(batch)}",
        f"    a3 = at.reshape((B, {prod(free_a)}, {prod(summed)}))",
        f"    b3 = bt.reshape((B, {prod(summed)}, {prod(free_b)}))",
        f"    out = np.zeros((B, a3.shape[1], b3.shape[2]), {np_dt})",
        "    for i in range(B):",
        "        matmul_blas(a3[i], b3[i], out[i])",
        f"    res = out.reshape(({shape}))",
    ]
    if perm_out == tuple(range(len(result))):
        lines.append("    return (res,)")
    else:
        lines.append(f"    return (np.ascontiguousarray(np.transpose(res, {perm_out})),)")
    return lines


def _diag_length(op: ExtractDiag | AllocDiag) -> list[str]:
    """Source computing ``n`` (the diagonal's length) from ``n1``, ``n2``."""
    if op.offset >= 0:
        return [f"    n = max(0, min(n1, n2 - {op.offset}))"]
    return [f"    n = max(0, min(n1 + {op.offset}, n2))"]


@numba_funcify.register(ExtractDiag)
def _funcify_extract_diag(op: ExtractDiag, node: Apply) -> str:
    x = node.inputs[0]
    ndim = x.type.ndim  # type: ignore[attr-defined]
    rest = [a for a in range(ndim) if a not in (op.axis1, op.axis2)]
    r0, c0 = max(-op.offset, 0), max(op.offset, 0)
    dt = _np_dtype(x.type.dtype)  # type: ignore[attr-defined]
    lines = [
        JIT,
        "def kernel(x):",
        f"    n1 = x.shape[{op.axis1}]",
        f"    n2 = x.shape[{op.axis2}]",
        *_diag_length(op),
        f"    out = np.empty(({''.join(f'x.shape[{a}], ' for a in rest)}n,), {dt})",
    ]
    index = []
    for a in range(ndim):
        if a == op.axis1:
            index.append(f"k + {r0}")
        elif a == op.axis2:
            index.append(f"k + {c0}")
        else:
            index.append(f"i{a}")
    indent = "    "
    for a in rest:
        lines.append(f"{indent}for i{a} in range(x.shape[{a}]):")
        indent += "    "
    lines.append(f"{indent}for k in range(n):")
    out_index = ", ".join([*(f"i{a}" for a in rest), "k"])
    lines.append(f"{indent}    out[{out_index}] = x[{', '.join(index)}]")
    lines.append("    return (out,)")
    return "\n".join(lines) + "\n"


@numba_funcify.register(AllocDiag)
def _funcify_alloc_diag(op: AllocDiag, node: Apply) -> str:
    g, x = node.inputs
    ndim = x.type.ndim  # type: ignore[attr-defined]
    gnd = g.type.ndim  # type: ignore[attr-defined]
    rest = [a for a in range(ndim) if a not in (op.axis1, op.axis2)]
    if gnd < 1 or gnd > len(rest) + 1:
        raise Unsupported(f"AllocDiag of a {gnd}-d diagonal into {ndim}-d")
    r0, c0 = max(-op.offset, 0), max(op.offset, 0)
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    target = "".join(f"x.shape[{a}], " for a in rest) + "n, "
    lines = [
        JIT,
        "def kernel(g, x):",
        f"    n = g.shape[{gnd - 1}]",
        f"    if n > 0 and (n + {r0} > x.shape[{op.axis1}] or n + {c0} > x.shape[{op.axis2}]):",
        '        raise IndexError("AllocDiag: the diagonal does not fit in the output '
        f'(offset {op.offset})")',
    ]
    if gnd > 1:
        lines.append("    bad = False")
        for j in range(gnd - 1):
            a = rest[len(rest) - (gnd - 1) + j]
            lines.append(f"    bad |= g.shape[{j}] != 1 and g.shape[{j}] != x.shape[{a}]")
        lines += [
            "    if bad:",
            '        raise ValueError("AllocDiag: the diagonal does not broadcast to the output")',
        ]
    lines += [
        f"    gb = np.broadcast_to(g, ({target}))",
        f"    out = np.zeros(x.shape, {_np_dtype(dtype)})",
    ]
    index = []
    for a in range(ndim):
        if a == op.axis1:
            index.append(f"k + {r0}")
        elif a == op.axis2:
            index.append(f"k + {c0}")
        else:
            index.append(f"i{a}")
    indent = "    "
    for a in rest:
        lines.append(f"{indent}for i{a} in range(x.shape[{a}]):")
        indent += "    "
    lines.append(f"{indent}for k in range(n):")
    g_index = ", ".join([*(f"i{a}" for a in rest), "k"])
    lines.append(f"{indent}    out[{', '.join(index)}] = gb[{g_index}]")
    lines.append("    return (out,)")
    return "\n".join(lines) + "\n"

"""Lowerings of ``Elemwise`` (plain table rows and fused ``Composite`` s) and
``DimShuffle``.

An ``Elemwise`` node becomes an explicit loop nest generated for its output
ndim and its inputs' ndims and dtypes (no sizes, no static shapes):

- the output shape is the broadcast of the input shapes, checked at run time
  (numpy's ``ValueError`` on a mismatch);
- 0-d operands are read once before the loop;
- an operand axis of size 1 is read at index 0 (a multiplier of 0 or 1 per
  axis, computed once per call), so no broadcast views are built;
- an output in the op's ``inplace_pattern`` is written into its input's buffer
  instead of a new array; a new output of 4 MiB or more asks for transparent
  huge pages (:func:`~lazygraph.backends.numba.helpers.hugepage_hint`), as
  numpy's allocator does, which saves most of the page-fault time of
  streaming kernels.

Sizes never appear in the source, so one compiled kernel serves every size.

>>> import lazygraph.tensor as lt
>>> node = lt.add(lt.tensor("float64", (None, 1)), lt.tensor("float64", (None,))).owner
>>> src = numba_funcify(node.op, node)
>>> "for i1 in range(d1):" in src
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from numba.core import config as numba_config

from lazygraph.backends.numba.dispatch import (
    JIT,
    JIT_PARALLEL,
    Unsupported,
    numba_funcify,
    numba_funcify_parallel,
)
from lazygraph.backends.numba.scalar import composite_lines, scalar_expr, to_dtype
from lazygraph.graph.basic import Apply
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.scalar.basic import ScalarOp

__all__ = [
    "broadcast_flags",
    "broadcast_prologue",
    "broadcast_sizes",
    "kernel_head",
    "operand_reads",
    "scalar_body",
]


def _np_dtype(dtype: str) -> str:
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"


def scalar_body(
    scalar_op: Any, in_dtypes: list[str], out_dtypes: list[str], args: list[str]
) -> tuple[list[str], list[str]]:
    """Statements and output expressions of ``scalar_op`` (a table row or a
    ``Composite``) on scalar operands ``args``."""
    if isinstance(scalar_op, ScalarOp):
        expr = scalar_expr(scalar_op, args, in_dtypes, out_dtypes[0])
        return [], [to_dtype(expr, out_dtypes[0])]
    lines, outs = composite_lines(scalar_op, args, "t")
    return lines, [to_dtype(o, d) for o, d in zip(outs, out_dtypes, strict=True)]


def _scalar_body(op: Elemwise, node: Apply, args: list[str]) -> tuple[list[str], list[str]]:
    in_dtypes = [v.type.dtype for v in node.inputs]  # type: ignore[attr-defined]
    out_dtypes = [o.type.dtype for o in node.outputs]  # type: ignore[attr-defined]
    return scalar_body(op.scalar_op, in_dtypes, out_dtypes, args)


def broadcast_prologue(node: Apply, ndim: int, name: str) -> list[str]:
    """Statements computing the broadcast sizes ``d0, d1, ...`` of the inputs
    ``x0, x1, ...`` of ``node`` (numpy's ``ValueError`` on a mismatch), reading
    0-d inputs into ``s<i>`` and setting the per-axis multipliers ``bc<i>_<k>``
    (0 where an input's axis has size 1) that :func:`operand_reads` uses. (A
    composite's temporaries are ``t<n>``, ``t<n>_<m>`` for nested ones: the
    multipliers were ``t<i>_<k>`` once, and a nested temporary overwrote one.)"""
    return broadcast_sizes(node, ndim, name) + broadcast_flags(node)


def kernel_head(node: Apply, ndim: int, name: str, parallel: bool) -> list[str]:
    """The decorator, signature and broadcast prologue of a kernel over the
    inputs ``x0, x1, ...`` of ``node`` with an ``ndim``-d loop nest.

    A multithreaded kernel takes its sizes from a serial helper, ``sizes``:
    with the prologue's branches in the kernel itself, Numba 0.68's parfors
    compiled a prange nest of 3 or more dimensions wrong (every row after the
    first of ``exp(x) * y - 1`` on (3, 3, 4) arrays; tests/backends/numba/
    test_blocked.py::test_parallel_fused_reductions_of_every_rank)."""
    args = ", ".join(f"x{i}" for i in range(len(node.inputs)))
    jit = JIT_PARALLEL if parallel else JIT
    if not (parallel and ndim):
        return [jit, f"def kernel({args}):", *broadcast_prologue(node, ndim, name)]
    dims = ", ".join(f"d{k}" for k in range(ndim))
    return [
        JIT,
        f"def sizes({args}):",
        *broadcast_sizes(node, ndim, name),
        f"    return ({dims},)",
        "",
        "",
        jit,
        f"def kernel({args}):",
        f"    ({dims},) = sizes({args})",
        *broadcast_flags(node),
    ]


def broadcast_sizes(node: Apply, ndim: int, name: str) -> list[str]:
    """The part of :func:`broadcast_prologue` computing ``d0, d1, ...``."""
    in_ndims = [v.type.ndim for v in node.inputs]  # type: ignore[attr-defined]
    lines = []
    for k in range(ndim):
        lines.append(f"    d{k} = 1")
        for i, nd in enumerate(in_ndims):
            lead = ndim - nd
            if k < lead:
                continue
            lines += [
                f"    s = x{i}.shape[{k - lead}]",
                "    if s != 1:",
                f"        if d{k} == 1:",
                f"            d{k} = s",
                f"        elif s != d{k}:",
                f'            raise ValueError("{name}: operands could not be broadcast together")',
            ]
    return lines


def broadcast_flags(node: Apply) -> list[str]:
    """The part of :func:`broadcast_prologue` reading 0-d inputs and setting the
    ``bc<i>_<k>`` multipliers."""
    in_ndims = [v.type.ndim for v in node.inputs]  # type: ignore[attr-defined]
    lines = []
    for i, nd in enumerate(in_ndims):
        if nd == 0:
            lines.append(f"    s{i} = x{i}[()]")
        # a size-1 axis is read at index 0 whatever the output's size
        for kk in range(nd):
            lines.append(f"    bc{i}_{kk} = 0 if x{i}.shape[{kk}] == 1 else 1")
    return lines


def static_ones(node: Apply) -> list[tuple[int, ...]]:
    """For each input of ``node``, the axes its type fixes at size 1 (read at
    index 0, whatever the loop index)."""
    return [
        tuple(k for k, s in enumerate(v.type.shape) if s == 1)  # type: ignore[attr-defined]
        for v in node.inputs
    ]


def operand_reads(
    in_ndims: list[int],
    ndim: int,
    unbroadcast: bool = False,
    ones: Sequence[tuple[int, ...]] = (),
) -> list[str]:
    """The expression reading each input at loop indices ``i0, i1, ...``: index
    0 on the axes ``ones`` gives (see :func:`static_ones`); on the others,
    the loop index, multiplied by the input's ``bc`` flag (0 on a size-1 axis)
    unless ``unbroadcast`` says the input has the output's sizes."""
    args = []
    for i, nd in enumerate(in_ndims):
        if nd == 0:
            args.append(f"s{i}")
            continue
        lead = ndim - nd
        fixed = ones[i] if ones else ()
        idx = ", ".join(
            "0" if kk in fixed else f"i{kk + lead}" if unbroadcast else f"i{kk + lead} * bc{i}_{kk}"
            for kk in range(nd)
        )
        args.append(f"x{i}[{idx}]")
    return args


def versioned(
    in_ndims: list[int],
    ndim: int,
    nest: Callable[[list[str]], list[str]],
    ones: Sequence[tuple[int, ...]] = (),
) -> list[str]:
    """The loop nest ``nest(reads)`` twice: with plain reads when every input has
    the output's sizes (on the axes its type does not fix at 1: the common
    case), else with the broadcasting reads. A ``prange`` loop needs this to
    vectorize: Numba's parallel loops keep the ``i * bc`` index multiplications
    that LLVM folds away in serial loops (measured: 12.2 ms against 6.5 ms for
    ``a + a**10`` on 10M float64)."""
    same = [
        f"x{i}.shape[{kk}] == d{kk + ndim - nd}"
        for i, nd in enumerate(in_ndims)
        for kk in range(nd)
        if not (ones and kk in ones[i])
    ]
    general = nest(operand_reads(in_ndims, ndim, ones=ones))
    if not same:
        return general
    plain = nest(operand_reads(in_ndims, ndim, unbroadcast=True, ones=ones))
    # The test goes through a flag: Numba's array analysis takes a shape
    # comparison in an ``if`` as an equivalence of sizes, and with the
    # broadcast sizes all starting at 1 it then confused d0 with d1 (rows read
    # with the wrong stride; numba 0.68).
    return [
        f"    plain = {' and '.join(same)}",
        "    if plain:",
        *[f"    {line}" for line in plain],
        "    else:",
        *[f"    {line}" for line in general],
    ]


#: Serial loops over at least this many array operands are :func:`versioned`.
#: LLVM vectorises a serial loop reading its operands through ``i * bc`` by
#: versioning it on run-time checks, within a budget of checks that a fused
#: expression exceeds: measured on 500x500 int8 (a Game of Life step's nine
#: operands), 1.8 ms with the ``bc`` reads against 0.13 ms plain (numpy 0.4 ms);
#: with two operands both forms take the same time.
VERSIONED_MIN_OPERANDS = 3


def serial_loops_versioned(in_ndims: Sequence[int]) -> bool:
    """Whether a serial kernel over operands of these ranks is :func:`versioned`:
    from :data:`VERSIONED_MIN_OPERANDS` array operands, when LLVM optimises at
    all (at ``NUMBA_OPT=0``, where nothing vectorises, the second loop nest
    would only double the compile)."""
    arrays = sum(1 for nd in in_ndims if nd)
    return arrays >= VERSIONED_MIN_OPERANDS and int(numba_config.OPT) > 0


def elemwise_source(node: Apply, parallel: bool = False) -> str:
    """The kernel source of an ``Elemwise`` node (see the module docstring);
    with ``parallel``, the outermost loop is a ``prange``."""
    op: Elemwise = node.op  # type: ignore[assignment]
    ndim = node.outputs[0].type.ndim  # type: ignore[attr-defined]
    in_ndims = [v.type.ndim for v in node.inputs]  # type: ignore[attr-defined]
    inplace = dict(op.inplace_pattern)
    out_dtypes = [o.type.dtype for o in node.outputs]  # type: ignore[attr-defined]
    lines = kernel_head(node, ndim, str(op), parallel)
    shape = "(" + "".join(f"d{k}, " for k in range(ndim)) + ")"
    for j, dtype in enumerate(out_dtypes):
        if j in inplace:
            lines.append(f"    o{j} = x{inplace[j]}")
        else:
            lines.append(f"    o{j} = hugepage_hint(np.empty({shape}, {_np_dtype(dtype)}))")
    outs_tuple = "(" + "".join(f"o{j}, " for j in range(len(out_dtypes))) + ")"
    out_idx = ", ".join(f"i{k}" for k in range(ndim)) if ndim else "()"

    def nest(args: list[str]) -> list[str]:
        loops, indent = [], "    "
        for k in range(ndim):
            loop = "prange" if parallel and k == 0 else "range"
            loops.append(f"{indent}for i{k} in {loop}(d{k}):")
            indent += "    "
        body, results = _scalar_body(op, node, args)
        loops += [f"{indent}{b}" for b in body]
        loops += [f"{indent}o{j}[{out_idx}] = {r}" for j, r in enumerate(results)]
        return loops

    # Serial loops read every axis through its run-time ``bc`` flag, so the
    # source does not depend on which axes the input types fix at size 1: one
    # kernel serves every broadcast pattern of the same ranks (a binary rank-3
    # op had up to 64 kernels). LLVM versions a loop over a few operands itself;
    # over more (a fused expression) it gives up, and the loop is versioned here
    # (see serial_loops_versioned).
    if parallel:
        lines += versioned(in_ndims, ndim, nest, static_ones(node))
    elif serial_loops_versioned(in_ndims):
        lines += versioned(in_ndims, ndim, nest)
    else:
        lines += nest(operand_reads(in_ndims, ndim))
    lines.append(f"    return {outs_tuple}")
    return "\n".join(lines) + "\n"


@numba_funcify.register(Elemwise)
def _funcify_elemwise(op: Elemwise, node: Apply) -> str:
    return elemwise_source(node)


@numba_funcify_parallel.register(Elemwise)
def _funcify_elemwise_parallel(op: Elemwise, node: Apply) -> str:
    if node.outputs[0].type.ndim == 0:  # type: ignore[attr-defined]
        raise Unsupported("a 0-d Elemwise has no loop to share")
    return elemwise_source(node, parallel=True)


@numba_funcify.register(DimShuffle)
def _funcify_dimshuffle(op: DimShuffle, node: Apply) -> str:
    lines = [JIT, "def kernel(x):"]
    for d in op.drop:
        lines += [
            f"    if x.shape[{d}] != 1:",
            f'        raise ValueError("{op}: cannot drop axis {d}: its size is not 1")',
        ]
    shape, strides = [], []
    for o in op.new_order:
        if o == "x":
            shape.append("1")
            strides.append("0")
        else:
            shape.append(f"x.shape[{o}]")
            strides.append(f"x.strides[{o}]")
    if not shape:
        lines.append("    return (x.reshape(()),)" if op.input_ndim == 0 else _to_0d())
        return "\n".join(lines) + "\n"
    tup = "(" + ", ".join(shape) + ",)"
    strd = "(" + ", ".join(strides) + ",)"
    lines.append(f"    return (np.lib.stride_tricks.as_strided(x, {tup}, {strd}),)")
    return "\n".join(lines) + "\n"


def _to_0d() -> str:
    # every axis dropped (all size 1): a 0-d view of the single element
    return "    return (np.lib.stride_tricks.as_strided(x, (), ()),)"
